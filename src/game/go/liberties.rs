//! Queries about chains and their liberties, for playout policies and
//! priors: atari, the last liberty, exact small liberty counts and
//! self-atari. None of them change the board.

use super::board::{other, Board, Chain, EMPTY};

impl Board {
    /// Head cell of the chain through stone `p`.
    #[inline]
    pub fn chain_head(&self, p: usize) -> usize {
        self.head[p] as usize
    }

    #[inline]
    pub(crate) fn chain(&self, p: usize) -> &Chain {
        &self.chains[self.head[p] as usize]
    }

    /// Stones in the chain through stone `p`.
    #[inline]
    pub fn chain_size(&self, p: usize) -> usize {
        self.chain(p).size as usize
    }

    /// Whether the chain through stone `p` has exactly one liberty.
    #[inline]
    pub fn in_atari(&self, p: usize) -> bool {
        self.chain(p).in_atari()
    }

    /// The last liberty of the chain through stone `p`, if it is in atari.
    #[inline]
    pub fn atari_liberty(&self, p: usize) -> Option<usize> {
        let chain = self.chain(p);
        chain
            .in_atari()
            .then(|| (chain.lib_sum / chain.libs as u32) as usize)
    }

    /// The stones of the chain through stone `p`.
    pub fn chain_stones(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let start = p;
        let mut current = Some(p);
        std::iter::from_fn(move || {
            let stone = current?;
            let next = self.next[stone] as usize;
            current = (next != start).then_some(next);
            Some(stone)
        })
    }

    /// Distinct liberties of the chain through stone `p`, up to `limit`
    /// (at most 8), written to `out`; returns how many were found. Walks the
    /// chain, so it is for policy code, not the inner loop.
    pub fn liberties(&self, p: usize, limit: usize, out: &mut [usize; 8]) -> usize {
        let limit = limit.min(out.len());
        let mut found = 0;
        for stone in self.chain_stones(p) {
            if self.neighbour_count(stone, EMPTY) == 0 {
                continue;
            }
            for q in self.adjacent(stone) {
                if self.cells[q] == EMPTY && !out[..found].contains(&q) {
                    out[found] = q;
                    found += 1;
                    if found >= limit {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// Playing `color` at empty `p` would leave the new chain with at most
    /// one liberty while capturing nothing. (A capture always gains a
    /// liberty, so capturing moves never count, even a snapback.)
    ///
    /// Exact without walking chains: for each friendly neighbour chain, the
    /// pseudo-liberties at `p` and at liberties already found are removed
    /// (their multiplicities are counted around those points), and the
    /// sum / sum-of-squares test tells whether what remains is nothing, one
    /// more point, or at least two more.
    #[inline(always)]
    pub fn is_self_atari(&self, color: u8, p: usize) -> bool {
        self.neighbour_count(p, EMPTY) < 2 && self.is_crowded_self_atari(color, p)
    }

    /// `is_self_atari` for a point with at most one empty neighbour.
    fn is_crowded_self_atari(&self, color: u8, p: usize) -> bool {
        let enemy = other(color);
        let adjacent = self.adjacent(p);
        let mut found = [0usize; 1];
        let mut n = 0;
        for q in adjacent {
            if self.cells[q] == EMPTY {
                found[0] = q;
                n = 1;
            }
        }
        let mut heads = [usize::MAX; 4];
        for (i, q) in adjacent.into_iter().enumerate() {
            let cell = self.cells[q];
            if cell == enemy && self.chains[self.head[q] as usize].in_atari() {
                return false;
            }
            if cell != color {
                continue;
            }
            let head = self.head[q] as usize;
            if heads.contains(&head) {
                continue;
            }
            heads[i] = head;
            let mut rest = self.chains[head];
            self.drop_adjacencies(&mut rest, head, p);
            if n == 1 {
                self.drop_adjacencies(&mut rest, head, found[0]);
            }
            if rest.libs == 0 {
                continue;
            }
            if !rest.in_atari() || n == 1 {
                // Two new liberties, or one beside the one already found.
                return false;
            }
            found[0] = (rest.lib_sum / rest.libs as u32) as usize;
            n = 1;
        }
        true
    }

    /// Removes from `chain` (the counters of chain `head`) every
    /// pseudo-liberty at `point`: one per chain stone next to it.
    #[inline]
    fn drop_adjacencies(&self, chain: &mut Chain, head: usize, point: usize) {
        for r in self.adjacent(point) {
            if self.cells[r] == self.cells[head] && self.head[r] as usize == head {
                chain.remove_lib(point);
            }
        }
    }
}
