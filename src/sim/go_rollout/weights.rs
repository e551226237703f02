//! Move weights of the `3x3` and `M2` playout policies (Iwakawa et al.'s
//! "3x3" and "M2"; the paper gives no tables, these are our own).
//!
//! Every empty point gets a small integer weight, a function of the board,
//! the mover and the simple-ko point only; a move is drawn with probability
//! weight / total. A drawn suicide is excluded (weight 0) and the draw
//! repeated; the mover passes when every weight is 0. The GPU kernels
//! (`kernels/go_weights.cu`) compute the same weights point by point, and
//! draw the same way: one `below(total)` per draw, points taken in dense
//! order (`row * size + col`), so with the same random stream a GPU
//! playout is this playout move for move.

use super::{patterns, FastRng, Playout};
use crate::game::go::board::{other, Board, BORDER, EMPTY, MAX_POINTS};

// ---- The weights. kernels/go_weights.cu repeats this block as #defines;
// ---- `tests::kernel_constants_match` checks that both say the same. ----
//
// Weight 0: occupied points, the simple-ko point (when the mover is the
// side it bars), the mover's one-point eyes (`Board::is_eye`, the Random
// policy's rule) and, once drawn, suicides.
//
// 3x3: from the point's eight neighbours and the chains touching it,
//   W_BASE (2), or W_EDGE_QUIET (1) for a first-line point none of whose
//   eight neighbours holds a stone (first-line moves in open space are
//   rarely good and in playouts mostly waste moves);
//   + W_PATTERN (6) when the 3x3 neighbourhood matches the MoGo table
//   (`patterns.rs`: hane, cuts, edge blocks: the local answers that make
//   MoGo's playouts meaningful);
//   + W_CAPTURE (24) when an adjacent opponent chain is in atari (the move
//   captures it: the biggest single correction to random playouts, which
//   otherwise leave chains in atari for many moves);
//   + W_SAVE (6) when an adjacent own chain is in atari (the move extends
//   it; whether that saves it is not checked, to stay cheap per point).
// M2: the 3x3 weight times M2_NEAR (2) when one of the twelve points
//   within Manhattan distance 2 holds a stone (the eight neighbours or the
//   four points two steps straight out), else the 3x3 weight alone: play
//   stays near the stones, so that open areas are filled last.
//
// Largest weight: (2 + 6 + 24 + 6) * 2 = 76; 76 * 361 is far below 2^31,
// so a board's total fits a u32 on every size.

/// Any allowed point with a stone near it or off the first line.
pub const W_BASE: u32 = 2;
/// A first-line point with no stone among its eight neighbours.
pub const W_EDGE_QUIET: u32 = 1;
/// Added when the 3x3 neighbourhood matches a MoGo pattern.
pub const W_PATTERN: u32 = 6;
/// Added when an adjacent opponent chain is in atari.
pub const W_CAPTURE: u32 = 24;
/// Added when an adjacent own chain is in atari.
pub const W_SAVE: u32 = 6;
/// M2: factor for a point with a stone within Manhattan distance 2.
pub const M2_NEAR: u32 = 2;

/// The weight of an allowed point (empty, not ko, not the mover's eye)
/// from its facts: `code` its eight neighbours as [`patterns::code`]
/// packs them, `capture` / `save` an adjacent opponent / own chain in
/// atari, `far_stone` a stone two steps straight out (M2 only).
#[inline]
pub fn weight_of(code: usize, capture: bool, save: bool, far_stone: bool, m2: bool) -> u32 {
    // Cells are two bits: 1 and 2 stones, 3 off the board.
    let (low, high) = (code & 0x5555, code >> 1 & 0x5555);
    let stone_near = low ^ high != 0;
    let on_edge = low & high != 0;
    let mut w = if on_edge && !stone_near {
        W_EDGE_QUIET
    } else {
        W_BASE
    };
    if patterns::code_matches(code) {
        w += W_PATTERN;
    }
    if capture {
        w += W_CAPTURE;
    }
    if save {
        w += W_SAVE;
    }
    if m2 && (stone_near || far_stone) {
        w *= M2_NEAR;
    }
    w
}

/// The weight of point `p` for `color` under the 3x3 policy (`m2` false)
/// or M2: 0 where the point is not allowed, else [`weight_of`].
pub fn weight(board: &Board, color: u8, p: usize, m2: bool) -> u32 {
    if board.cell(p) != EMPTY || board.ko() == Some((p, color)) || board.is_eye(color, p) {
        return 0;
    }
    let enemy = other(color);
    let (mut capture, mut save) = (false, false);
    for q in board.adjacent(p) {
        let cell = board.cell(q);
        if cell == enemy {
            capture |= board.in_atari(q);
        } else if cell == color {
            save |= board.in_atari(q);
        }
    }
    let far_stone = m2 && has_far_stone(board, p);
    weight_of(patterns::code(board, p), capture, save, far_stone, m2)
}

/// A stone on one of the (up to four) points two steps straight out from
/// `p`. The border ring is one cell wide, so rows are checked; columns two
/// off the board land on a border cell of this or the next row.
#[inline]
fn has_far_stone(board: &Board, p: usize) -> bool {
    let (s, n) = (board.stride(), board.size());
    let (_, row) = board.coords(p);
    let stone = |q: usize| {
        let c = board.cell(q);
        c != EMPTY && c != BORDER
    };
    stone(p - 2)
        || stone(p + 2)
        || (row >= 2 && stone(p - 2 * s))
        || (row + 2 < n && stone(p + 2 * s))
}

/// Weights of every point in dense order (`row * size + col`) and their
/// total.
pub struct Weights {
    pub w: [u32; MAX_POINTS],
    pub total: u32,
}

impl Weights {
    pub fn compute(board: &Board, color: u8, m2: bool) -> Weights {
        let mut out = Weights {
            w: [0; MAX_POINTS],
            total: 0,
        };
        let n = board.size();
        let mut k = 0;
        for row in 0..n {
            let start = board.point_at(0, row);
            for p in start..start + n {
                let w = weight(board, color, p, m2);
                out.w[k] = w;
                out.total += w;
                k += 1;
            }
        }
        out
    }

    /// The dense index that `r` (in `0..total`) falls on: the first point
    /// whose running sum of weights passes `r`.
    #[inline]
    pub fn find(&self, r: u32) -> usize {
        let mut sum = 0;
        for (k, &w) in self.w.iter().enumerate() {
            sum += w;
            if r < sum {
                return k;
            }
        }
        unreachable!("draw {r} beyond the total {}", self.total)
    }
}

impl Playout {
    /// One move of the 3x3 (`m2` false) or M2 policy: a draw proportional
    /// to the weights, suicides excluded and drawn again.
    pub(super) fn weighted_move(&mut self, rng: &mut FastRng, m2: bool) -> Option<usize> {
        let color = self.to_move;
        let mut weights = Weights::compute(&self.board, color, m2);
        let n = self.board.size();
        while weights.total > 0 {
            let k = weights.find(rng.below(weights.total));
            let p = self.board.point_at(k % n, k / n);
            if !self.board.is_suicide(color, p) {
                return Some(p);
            }
            weights.total -= weights.w[k];
            weights.w[k] = 0;
        }
        None
    }
}
