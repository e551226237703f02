//! Read-only tactical queries: would a stone on an empty cell win at once?
//! Playouts ask this every move ("play a winning cell, else block the
//! opponent's") and tree priors ask it per child, so it works on a borrowed
//! board with the same local tests as `place` (see the parent module's
//! notes) instead of cloning and placing.

use super::super::geometry::{opposite, CORNER_BITS, EDGE_SHIFT, RUNS};
use super::{Position, EMPTY};
use crate::game::havannah::Cell;
use crate::game::Color;

impl Position {
    /// Root of `x`'s group without path compression, so `&self` suffices;
    /// union by rank keeps the walk logarithmic.
    #[inline]
    fn root_of(&self, x: u16) -> u16 {
        let mut r = x;
        while self.parent[r as usize] != r {
            r = self.parent[r as usize];
        }
        r
    }

    /// Whether a stone of `color` on `c` would complete a ring, bridge or
    /// fork. False for a cell that is not empty or not on this board. Like
    /// `place`, it assumes `color` has no ring yet, which holds in every
    /// game still going on.
    pub fn wins_at(&self, c: Cell, color: Color) -> bool {
        let cu = c.0 as usize;
        if cu >= self.geo.num_cells || self.board[cu] != EMPTY {
            return false;
        }
        let ci = color.index();
        let pattern = self.friends[ci][cu];
        // A lone stone touches at most one corner or one edge and encloses
        // nothing.
        if pattern == 0 {
            return false;
        }
        let nb = &self.geo.neighbours[cu];
        let runs = RUNS[pattern as usize];
        let mut roots = [u16::MAX; 3];
        let mut reach = self.geo.reach[cu];
        for k in 0..runs.count as usize {
            let r = self.root_of(nb[runs.first[k] as usize]);
            if roots[..k].contains(&r) {
                // Two runs of one group: the stone closes a loop around a
                // gap cell (ring test 1).
                return true;
            }
            roots[k] = r;
            reach |= self.reach[r as usize];
        }
        if (reach & CORNER_BITS).count_ones() >= 2 || (reach >> EDGE_SHIFT).count_ones() >= 3 {
            return true;
        }
        // Ring test 2: a friendly neighbour whose sixth friendly neighbour
        // would be this stone.
        let mut centres = runs.triple_centres;
        while centres != 0 {
            let d = centres.trailing_zeros() as usize;
            if self.friends[ci][nb[d] as usize] | (1 << opposite(d)) == 0x3F {
                return true;
            }
            centres &= centres - 1;
        }
        false
    }

    /// Whether a stone of `color` on the empty cell `c` would leave it two
    /// or more cells that win at once (a double threat: ring frames and
    /// forks in the making), counting only the empty cells within two steps
    /// of `c`, where almost all of them appear. False for an occupied cell
    /// or one that wins by itself.
    pub fn double_threat_at(&self, c: Cell, color: Color) -> bool {
        if !self.is_empty(c) || self.friends[color.index()][c.0 as usize] == 0 {
            return false;
        }
        let mut after = self.clone();
        if after.place(c.0, color) != 0 {
            return false;
        }
        let mut seen = [u16::MAX; 19];
        let mut found = 0;
        let mut wins = 0;
        for n in self.neighbours(c) {
            for m in std::iter::once(n).chain(self.neighbours(n)) {
                if seen[..found].contains(&m.0) || found == seen.len() {
                    continue;
                }
                seen[found] = m.0;
                found += 1;
                if after.wins_at(m, color) {
                    wins += 1;
                    if wins >= 2 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The first cell (in index order) where a stone of `color` would win
    /// at once, scanning the whole board.
    pub fn winning_cell(&self, color: Color) -> Option<Cell> {
        self.cells().find(|&c| self.wins_at(c, color))
    }
}

#[cfg(test)]
mod tests {
    use crate::game::havannah::{Cell, Move, Position};
    use crate::game::rng::FastRng;
    use crate::game::{Color, Game};

    /// `wins_at` against placing the stone on a copy, on every empty cell
    /// for both colours, along random games of every size.
    #[test]
    fn wins_at_agrees_with_placing_the_stone() {
        let mut checked_wins = 0;
        for side in 3..=10 {
            for seed in 0..4u64 {
                let mut rng = FastRng::new(seed * 31 + side as u64);
                let mut pos = Position::new(side).unwrap();
                pos.set_swap_allowed(false);
                let mut moves = Vec::new();
                while pos.outcome().is_none() {
                    for c in pos.cells().collect::<Vec<_>>() {
                        for color in [Color::Black, Color::White] {
                            let expected = pos.is_empty(c) && {
                                let mut copy = pos.clone();
                                copy.place(c.0, color) != 0
                            };
                            assert_eq!(pos.wins_at(c, color), expected, "{pos:?} {c:?} {color:?}");
                            checked_wins += expected as usize;
                        }
                    }
                    pos.legal_moves(&mut moves);
                    let mv = moves[rng.below(moves.len() as u32) as usize];
                    pos.play_unchecked(mv);
                }
            }
        }
        assert!(
            checked_wins > 100,
            "too few winning cells seen: {checked_wins}"
        );
    }

    #[test]
    fn winning_cell_finds_the_bridge_gap_and_nothing_off_board() {
        let mut pos = Position::new(3).unwrap();
        // White a1, a2 with Black far away: a3 completes the a1-a3 bridge.
        for name in ["a1", "c1", "a2", "c2"] {
            let c = pos.parse_cell(name).unwrap();
            pos.play_unchecked(Move::Play(c));
        }
        let a3 = pos.parse_cell("a3").unwrap();
        assert_eq!(pos.winning_cell(Color::White), Some(a3));
        assert!(!pos.wins_at(a3, Color::Black));
        assert!(!pos.wins_at(Cell(500), Color::White));
        let a1 = pos.parse_cell("a1").unwrap();
        assert!(
            !pos.wins_at(a1, Color::White),
            "an occupied cell never wins"
        );
    }

    /// Every double threat `double_threat_at` reports is one: after the
    /// stone, no win yet and at least two winning cells on a full scan.
    #[test]
    fn double_threats_are_confirmed_by_a_full_scan() {
        let mut reported = 0;
        for side in [5, 8] {
            for seed in 0..3u64 {
                let mut rng = FastRng::new(seed + 100);
                let mut pos = Position::new(side).unwrap();
                pos.set_swap_allowed(false);
                let mut moves = Vec::new();
                while pos.outcome().is_none() {
                    for c in pos.cells().collect::<Vec<_>>() {
                        for color in [Color::Black, Color::White] {
                            if !pos.double_threat_at(c, color) {
                                continue;
                            }
                            reported += 1;
                            let mut after = pos.clone();
                            assert_eq!(after.place(c.0, color), 0);
                            let wins = after.cells().filter(|&m| after.wins_at(m, color)).count();
                            assert!(wins >= 2, "{pos:?} {c:?} {color:?}");
                        }
                    }
                    pos.legal_moves(&mut moves);
                    let mv = moves[rng.below(moves.len() as u32) as usize];
                    pos.play_unchecked(mv);
                }
            }
        }
        assert!(reported > 10, "too few double threats seen: {reported}");
    }
}
