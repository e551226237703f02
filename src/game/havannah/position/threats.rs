//! Read-only tactical queries: would a stone on an empty cell win at once?
//! Playouts ask this every move ("play a winning cell, else block the
//! opponent's") and tree priors ask it per child, so it works on a borrowed
//! board with the same local tests as `place` (see the parent module's
//! notes) instead of cloning and placing.

use super::super::geometry::{joins_three_edges, joins_two_corners, opposite, RUNS};
use super::{Position, EMPTY};
use crate::game::havannah::Cell;
use crate::game::Color;

/// A cell that would give its player two or more winning cells
/// ([`Position::double_threats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoubleThreat {
    /// The cell that makes the threat.
    pub frame: Cell,
    /// The first two winning cells it leaves (in index order).
    pub wins: [Cell; 2],
    /// How many winning cells it leaves (at least 2).
    pub count: u16,
}

impl DoubleThreat {
    /// Whether the opponent's stone on `c`, played before the frame cell,
    /// leaves this threat at most a single one: the frame cell itself, or
    /// one of exactly two winning cells.
    pub fn stopped_by(&self, c: Cell) -> bool {
        c == self.frame || (self.count == 2 && self.wins.contains(&c))
    }
}

/// Whether a group with these corner and edge bits has a bridge (two
/// corners) or a fork (three edges).
#[inline]
fn completes_bridge_or_fork(reach: u16) -> bool {
    joins_two_corners(reach) || joins_three_edges(reach)
}

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
        if completes_bridge_or_fork(reach) {
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

    /// The first empty neighbour of `near` (in direction order) where a
    /// stone of `color` would win at once, `near` holding a `color` stone:
    /// `wins_at` on each neighbour, with `near`'s group looked up once. A
    /// neighbour whose only friendly run is `near`'s (no second group to
    /// join, no ring to close) wins exactly when `near`'s group and the
    /// cell reach two corners or three edges, which needs no look-up. The
    /// playouts ask this for both players' last stones every move (their
    /// `wins_at` calls were a quarter of a side-8 search's time); most
    /// neighbours there have several runs, so it saves only a little.
    pub fn win_next_to(&self, near: Cell, color: Color) -> Option<Cell> {
        let nu = near.0 as usize;
        if nu >= self.geo.num_cells || self.board[nu] != super::code(color) {
            return None;
        }
        let ci = color.index();
        let group_reach = self.reach[self.root_of(near.0) as usize];
        self.geo.neighbours[nu].iter().find_map(|&n| {
            let n_u = n as usize;
            if n_u >= self.geo.num_cells || self.board[n_u] != EMPTY {
                return None;
            }
            let runs = RUNS[self.friends[ci][n_u] as usize];
            let wins = if runs.count == 1 && runs.triple_centres == 0 {
                completes_bridge_or_fork(group_reach | self.geo.reach[n_u])
            } else {
                self.wins_at(Cell(n), color)
            };
            wins.then_some(Cell(n))
        })
    }

    /// Every empty cell where a stone of `color` would not win yet but
    /// would leave it two or more cells that win at once (a double threat:
    /// a ring frame, a fork or a bridge in the making), scanning the whole
    /// board, with those winning cells. Forks are why the whole board is
    /// scanned: the second winning cell can be far from the stone, where
    /// its group reaches another edge. Meant for a player with at most one
    /// winning cell already (with two, every stone would count).
    pub fn double_threats(&self, color: Color, out: &mut Vec<DoubleThreat>) {
        out.clear();
        let ci = color.index();
        let mut after = self.clone();
        for c in self.cells() {
            // New winning cells are neighbours of the stone's group, so a
            // stone with no friend within two steps makes none (its
            // neighbours would join it alone). A stone two steps from its
            // group does count: the two cells between them, a corner stone's
            // classic double threat.
            if !self.is_empty(c) || !self.friend_within_two(c, ci) {
                continue;
            }
            after.clone_from(self);
            if after.place(c.0, color) != 0 {
                continue;
            }
            let mut threat = DoubleThreat {
                frame: c,
                wins: [c; 2],
                count: 0,
            };
            for w in after.cells() {
                if after.friends[ci][w.0 as usize] != 0 && after.wins_at(w, color) {
                    if (threat.count as usize) < threat.wins.len() {
                        threat.wins[threat.count as usize] = w;
                    }
                    threat.count += 1;
                }
            }
            if threat.count >= 2 {
                out.push(threat);
            }
        }
    }

    /// Whether a stone of colour index `ci` stands on a neighbour of `c` or
    /// on a neighbour's neighbour.
    fn friend_within_two(&self, c: Cell, ci: usize) -> bool {
        self.friends[ci][c.0 as usize] != 0
            || self
                .neighbours(c)
                .any(|n| self.friends[ci][n.0 as usize] != 0)
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

    /// Calls `check` on every cell for both colours at every position of
    /// random games (4 a side, sides 3 to 10; `salt` picks the games).
    fn along_random_games(salt: u64, mut check: impl FnMut(&Position, Cell, Color)) {
        for side in 3..=10 {
            for seed in 0..4u64 {
                let mut rng = FastRng::new(seed * salt + side as u64);
                let mut pos = Position::new(side).unwrap();
                pos.set_swap_allowed(false);
                let mut moves = Vec::new();
                while pos.outcome().is_none() {
                    for c in pos.cells().collect::<Vec<_>>() {
                        for color in [Color::Black, Color::White] {
                            check(&pos, c, color);
                        }
                    }
                    pos.legal_moves(&mut moves);
                    pos.play_unchecked(moves[rng.below(moves.len() as u32) as usize]);
                }
            }
        }
    }

    /// `win_next_to` against the first neighbour where `wins_at` holds, for
    /// every stone of both colours.
    #[test]
    fn win_next_to_is_the_first_winning_neighbour() {
        let mut found = 0;
        along_random_games(17, |pos, c, color| {
            let expected = match pos.color_at(c) == Some(color) {
                true => pos.neighbours(c).find(|&n| pos.wins_at(n, color)),
                false => None,
            };
            assert_eq!(
                pos.win_next_to(c, color),
                expected,
                "{pos:?} {c:?} {color:?}"
            );
            found += expected.is_some() as usize;
        });
        assert!(found > 100, "{found}");
    }

    /// `wins_at` against placing the stone on a copy, on every empty cell
    /// for both colours.
    #[test]
    fn wins_at_agrees_with_placing_the_stone() {
        let mut checked_wins = 0;
        along_random_games(31, |pos, c, color| {
            let expected = pos.is_empty(c) && {
                let mut copy = pos.clone();
                copy.place(c.0, color) != 0
            };
            assert_eq!(pos.wins_at(c, color), expected, "{pos:?} {c:?} {color:?}");
            checked_wins += expected as usize;
        });
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

    /// `double_threats` against placing every stone on a copy and counting
    /// the winning cells on a full scan, along random games.
    #[test]
    fn double_threats_match_a_full_scan() {
        let mut reported = 0;
        let mut threats = Vec::new();
        for side in [5, 8] {
            for seed in 0..3u64 {
                let mut rng = FastRng::new(seed + 100);
                let mut pos = Position::new(side).unwrap();
                pos.set_swap_allowed(false);
                let mut moves = Vec::new();
                while pos.outcome().is_none() {
                    for color in [Color::Black, Color::White] {
                        let held = pos.cells().filter(|&m| pos.wins_at(m, color)).count();
                        if held >= 2 {
                            continue; // every stone "leaves" two: out of scope
                        }
                        pos.double_threats(color, &mut threats);
                        let mut expected = Vec::new();
                        for c in pos.cells().filter(|&c| pos.is_empty(c)) {
                            let mut after = pos.clone();
                            if after.place(c.0, color) != 0 {
                                continue;
                            }
                            let wins: Vec<Cell> =
                                after.cells().filter(|&m| after.wins_at(m, color)).collect();
                            if wins.len() >= 2 {
                                expected.push((c, [wins[0], wins[1]], wins.len() as u16));
                            }
                        }
                        let got: Vec<_> =
                            threats.iter().map(|t| (t.frame, t.wins, t.count)).collect();
                        assert_eq!(got, expected, "{pos:?} {color:?}");
                        reported += got.len();
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
