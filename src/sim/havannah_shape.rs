//! Shape knowledge for Havannah's tree priors, as progressive bias: moves
//! whose group would touch more corners and edges, and replies that keep a
//! virtual connection the opponent's last stone cut into.
//!
//! Both are the tree knowledge of Ewalds' Castro ("Playing and Solving
//! Havannah"): 0.2 of urgency per corner or edge the move's group would
//! touch ("connect" 20 of 100) and 0.25 for a bridge or edge-link reply
//! ("bridge" 25), fading with the move's own visits. Castro divides by the
//! square root of the visits; the generic search divides by visits plus
//! one (`Prior::bias`).

use super::Prior;
use crate::game::havannah::{Move, Position};
use crate::game::Game;

/// Bias per corner or edge the move's group would touch.
const CONNECT_BIAS: f32 = 0.2;
/// Bias for keeping a link the opponent's last stone cut into.
const LINK_BIAS: f32 = 0.25;

/// Adds the shape bias to every stone move of `out` (one entry per move).
pub fn shape_priors(pos: &Position, moves: &[Move], out: &mut [Prior]) {
    let me = pos.to_move();
    let probe = match pos.last_move() {
        Some(Move::Play(c)) => Some(c),
        _ => None,
    };
    for (mv, prior) in moves.iter().zip(out.iter_mut()) {
        let Move::Play(c) = *mv else { continue };
        let mut bias = CONNECT_BIAS * pos.reach_count_after(c, me) as f32;
        if probe.is_some_and(|p| pos.keeps_link(p, c, me)) {
            bias += LINK_BIAS;
        }
        prior.bias += bias;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::havannah::Cell;

    fn at(pos: &Position, name: &str) -> Cell {
        pos.parse_cell(name).unwrap()
    }

    fn bias_of(pos: &Position, name: &str) -> f32 {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut out = vec![Prior::default(); moves.len()];
        shape_priors(pos, &moves, &mut out);
        let c = Move::Play(at(pos, name));
        let i = moves.iter().position(|m| *m == c).unwrap();
        out[i].bias
    }

    #[test]
    fn corners_edges_and_kept_links_raise_the_bias() {
        let mut pos = Position::new(8).unwrap();
        pos.set_swap_allowed(false);
        // Empty board: the centre touches nothing, a corner one corner, an
        // edge cell one edge.
        assert_eq!(bias_of(&pos, "h8"), 0.0);
        assert_eq!(bias_of(&pos, "a1"), CONNECT_BIAS);
        assert_eq!(bias_of(&pos, "a4"), CONNECT_BIAS);
        // White d4 and f5 are a bridge over e4 and e5 (the two common
        // neighbours); Black cuts in at e4, and White's e5 keeps the link.
        for name in ["d4", "h12", "f5", "e4"] {
            pos.play(Move::Play(at(&pos, name))).unwrap();
        }
        assert!(pos.keeps_link(at(&pos, "e4"), at(&pos, "e5"), pos.to_move()));
        assert_eq!(bias_of(&pos, "e5"), LINK_BIAS);
        assert_eq!(bias_of(&pos, "e3"), 0.0);
    }
}
