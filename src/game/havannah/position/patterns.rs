//! Local shape queries for playout policies: bit tests on the `friends`
//! masks, no group look-ups, cheap enough for every playout move.

use super::{Position, EMPTY};
use crate::game::havannah::Cell;
use crate::game::Color;

impl Position {
    /// The cell that restores a bridge of `color` that a stone on `intruder`
    /// has just cut into, if any: two `color` stones that were both
    /// neighbours of `intruder` and of one more empty cell (a bridge: two
    /// ways to join), of which `intruder` took one. The reply is the other.
    ///
    /// Playouts that answer this keep virtual connections connected, a
    /// playout rule of published Havannah and Hex programs (Ewalds,
    /// "Playing and Solving Havannah"; Lorentz's Wanderer). Around
    /// `intruder` its six neighbours form a circle (consecutive directions
    /// are adjacent cells), so the bridge carriers are `nb[d]` with own
    /// stones on `nb[d - 1]` and `nb[d + 1]`. Several candidates: the first
    /// in direction order.
    pub fn bridge_reply(&self, intruder: Cell, color: Color) -> Option<Cell> {
        let iu = intruder.0 as usize;
        if iu >= self.geo.num_cells {
            return None;
        }
        let own = self.friends[color.index()][iu];
        // Fewer than two own neighbours: no bridge through this cell.
        if own.count_ones() < 2 {
            return None;
        }
        let nb = &self.geo.neighbours[iu];
        nb.iter().enumerate().find_map(|(d, &carrier)| {
            let sides = (1u8 << ((d + 5) % 6)) | (1u8 << ((d + 1) % 6));
            (own & sides == sides && self.board[carrier as usize] == EMPTY).then_some(Cell(carrier))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::game::havannah::{Move, Position};
    use crate::game::rng::FastRng;
    use crate::game::{Color, Game};

    /// Against the definition: the reply is an empty cell adjacent to the
    /// intruder, and two `color` stones are common neighbours of both, not
    /// neighbours of each other; and when the function says none, no such
    /// cell exists. Along random games of several sizes.
    #[test]
    fn bridge_reply_matches_the_definition() {
        let mut found = 0;
        for side in [4, 6, 8] {
            for seed in 0..6u64 {
                let mut rng = FastRng::new(seed * 7 + side as u64);
                let mut pos = Position::new(side).unwrap();
                pos.set_swap_allowed(false);
                let mut moves = Vec::new();
                while pos.outcome().is_none() {
                    let Some(Move::Play(last)) = pos.last_move() else {
                        pos.legal_moves(&mut moves);
                        pos.play_unchecked(moves[rng.below(moves.len() as u32) as usize]);
                        continue;
                    };
                    for color in [Color::Black, Color::White] {
                        let is_reply = |y| {
                            pos.is_empty(y)
                                && pos.neighbours(last).any(|n| n == y)
                                && pos
                                    .neighbours(last)
                                    .filter(|&a| {
                                        pos.color_at(a) == Some(color)
                                            && pos.neighbours(y).any(|n| n == a)
                                    })
                                    .count()
                                    == 2
                        };
                        match pos.bridge_reply(last, color) {
                            Some(y) => {
                                assert!(is_reply(y), "{pos:?} {y:?} {color:?}");
                                found += 1;
                            }
                            None => assert!(!pos.cells().any(is_reply), "{pos:?} {color:?}"),
                        }
                    }
                    pos.legal_moves(&mut moves);
                    pos.play_unchecked(moves[rng.below(moves.len() as u32) as usize]);
                }
            }
        }
        assert!(found > 50, "too few bridge intrusions seen: {found}");
    }
}
