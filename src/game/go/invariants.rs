//! A from-scratch recomputation of everything the board keeps
//! incrementally, for tests and debugging. Slow on purpose: it shares no
//! code with the incremental paths it checks.

use super::board::{Board, BLACK, BORDER, EMPTY, MAX_CELLS, WHITE};
use super::zobrist::KEYS;

impl Board {
    /// Checks cells, neighbour counts, the empty list, chains (membership,
    /// links, sizes, pseudo-liberties and their sums) and the hash against
    /// a recomputation. Returns the first discrepancy found.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.cell_count();
        let on_board: Vec<bool> = {
            let mut v = vec![false; n];
            for p in self.points() {
                v[p] = true;
            }
            v
        };
        for (p, &inside) in on_board.iter().enumerate() {
            let cell = self.cell(p);
            if inside == (cell == BORDER) {
                return Err(format!("cell {p}: value {cell} on_board {inside}"));
            }
        }

        let mut hash = 0u64;
        let mut empties = Vec::new();
        for p in self.points() {
            let cell = self.cell(p);
            if cell == EMPTY {
                empties.push(p);
            } else {
                hash ^= KEYS[cell as usize][p];
            }
            for kind in [EMPTY, BLACK, WHITE] {
                let expected = self
                    .adjacent(p)
                    .iter()
                    .filter(|&&q| self.cell(q) == kind || (kind != EMPTY && self.cell(q) == BORDER))
                    .count() as u32;
                if self.neighbour_count(p, kind) != expected {
                    return Err(format!("cell {p}: neighbour count of {kind} wrong"));
                }
            }
        }
        if hash != self.hash() {
            return Err(format!("hash {:x} != recomputed {hash:x}", self.hash()));
        }
        let mut listed: Vec<usize> = self.empties().iter().map(|&e| e as usize).collect();
        listed.sort_unstable();
        if listed != empties {
            return Err("empty list differs from the empty cells".into());
        }
        for (i, &e) in self.empties().iter().enumerate() {
            if self.empty_index[e as usize] as usize != i {
                return Err(format!("empty index of {e} is stale"));
            }
        }
        if let Some((ko, _)) = self.ko() {
            if self.cell(ko) != EMPTY {
                return Err(format!("ko point {ko} is not empty"));
            }
        }

        let mut seen = vec![false; MAX_CELLS];
        for start in self.points() {
            let color = self.cell(start);
            if color == EMPTY || seen[start] {
                continue;
            }
            // Flood fill the chain.
            let mut members = vec![start];
            seen[start] = true;
            let mut i = 0;
            while i < members.len() {
                for q in self.adjacent(members[i]) {
                    if self.cell(q) == color && !seen[q] {
                        seen[q] = true;
                        members.push(q);
                    }
                }
                i += 1;
            }
            let head = self.chain_head(start);
            if members.iter().any(|&m| self.chain_head(m) != head) || !members.contains(&head) {
                return Err(format!("chain at {start}: heads disagree"));
            }
            let mut linked: Vec<usize> = self.chain_stones(start).take(n + 1).collect();
            linked.sort_unstable();
            let mut sorted = members.clone();
            sorted.sort_unstable();
            if linked != sorted {
                return Err(format!("chain at {start}: linked list != flood fill"));
            }
            let (mut libs, mut sum, mut sum_sq) = (0u32, 0u64, 0u64);
            for &m in &members {
                for q in self.adjacent(m) {
                    if self.cell(q) == EMPTY {
                        libs += 1;
                        sum += q as u64;
                        sum_sq += (q * q) as u64;
                    }
                }
            }
            let chain = self.chains[head];
            if chain.size as usize != members.len()
                || chain.libs as u32 != libs
                || chain.lib_sum as u64 != sum
                || chain.lib_sum_sq as u64 != sum_sq
            {
                return Err(format!("chain at {start}: counters {chain:?} wrong"));
            }
            if libs == 0 {
                return Err(format!("chain at {start} has no liberties"));
            }
            let mut distinct = [0usize; 8];
            let exact = {
                let mut all: Vec<usize> = members
                    .iter()
                    .flat_map(|&m| self.adjacent(m))
                    .filter(|&q| self.cell(q) == EMPTY)
                    .collect();
                all.sort_unstable();
                all.dedup();
                all.len()
            };
            if (exact == 1) != self.in_atari(start)
                || self.liberties(start, 8, &mut distinct) != exact.min(8)
            {
                return Err(format!("chain at {start}: liberty queries wrong"));
            }
        }
        Ok(())
    }
}
