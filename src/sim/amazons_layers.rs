//! Lieberum's evaluation in layered form: the same features as the
//! per-square reference ([`super::amazons_eval::features`]), computed from
//! the sets of squares at each distance instead of a distance per square.
//! This is the form the GPU kernel (`kernels/amazons/eval.cu`) uses, and on
//! the CPU it is the faster of the two, so the engine and the bench use it.
//!
//! With `L_j(k)` the empty squares side `j` reaches in exactly `k` moves
//! (queen or king) and `R_j(≤k)` their union up to `k`:
//!
//! - t: `Σ_k |L_1(k) ∖ R_2(≤k)| − |L_2(k) ∖ R_1(≤k)| + k·|L_1(k) ∩ L_2(k)|`
//!   (first to reach a square gets +1, a tie `k` to the side to move);
//! - c1: `2 Σ_k 2^-k (|L_1(k)| − |L_2(k)|)`;
//! - w: `Σ_{k,j} |L_1(k) ∩ L_2(j)| 2^-|k−j|`;
//! - c2: `|R_1 ∖ R_2| − |R_2 ∖ R_1| + Σ_{k,j} |K_1(k) ∩ K_2(j)|
//!   clamp((j − k)/6, ±1)` over the king layers `K`.
//!
//! Every term is a sum over squares grouped by their pair of distances, so
//! it equals the per-square sum up to the rounding of the additions
//! (tests below compare both on random positions).

use super::amazons_eval::{Features, C2_DIVISOR, K_TO_MOVE};
use crate::game::amazons::bitboard::{king_step, shift, BITS};
use crate::game::amazons::Position;
use crate::game::Game;

/// Distance layers a side can have: every level adds an empty square.
pub const MAX_LEVELS: usize = BITS + 1;

/// The squares one queen move from `set` through `empty`: for each of the
/// eight directions an occluded fill (Kogge–Stone: runs of 1, 2, 4, 8
/// steps, which covers the 9 steps of a 10-square line), then one step.
#[inline]
pub fn queen_step_fill(set: u128, empty: u128) -> u128 {
    let mut out = 0u128;
    for d in 0..8 {
        let mut g = set;
        let mut p = empty;
        let mut s = 1;
        for _ in 0..4 {
            g |= p & shift_by(g, d, s);
            p &= shift_by(p, d, s);
            s *= 2;
        }
        out |= shift(g, d) & empty;
    }
    out
}

/// `set` moved `n` steps in direction `d`.
#[inline]
fn shift_by(set: u128, d: usize, n: u32) -> u128 {
    let s = crate::game::amazons::bitboard::SHIFTS[d];
    let bits = s.unsigned_abs() * n;
    if bits >= 128 {
        0
    } else if s > 0 {
        set << bits
    } else {
        set >> bits
    }
}

/// Both sides' layers from their queens: `layers[side][k]` for `k` in
/// `1..=levels[side]` (index 0 unused). Returns the levels of each side.
fn layers(
    queens: [u128; 2],
    empty: u128,
    step: impl Fn(u128, u128) -> u128,
    out: &mut [[u128; MAX_LEVELS]; 2],
) -> [usize; 2] {
    let mut levels = [0; 2];
    for side in 0..2 {
        let mut reached = queens[side];
        let mut frontier = queens[side];
        let mut k = 0;
        while frontier != 0 && k + 1 < MAX_LEVELS {
            frontier = step(frontier, empty) & !reached;
            if frontier == 0 {
                break;
            }
            reached |= frontier;
            k += 1;
            out[side][k] = frontier;
        }
        levels[side] = k;
    }
    levels
}

#[inline]
fn count(set: u128) -> f64 {
    set.count_ones() as f64
}

/// t of one distance: first to reach a square +1 or −1, ties `k`.
fn territory(l: &[[u128; MAX_LEVELS]; 2], levels: [usize; 2]) -> f64 {
    let (mut r0, mut r1) = (0u128, 0u128);
    let (mut first, mut ties) = (0i64, 0u32);
    for k in 1..=levels[0].max(levels[1]) {
        let (a, b) = (get(l, 0, k, levels), get(l, 1, k, levels));
        r0 |= a;
        r1 |= b;
        first += (a & !r1).count_ones() as i64 - (b & !r0).count_ones() as i64;
        ties += (a & b).count_ones();
    }
    first as f64 + K_TO_MOVE * ties as f64
}

#[inline]
fn get(l: &[[u128; MAX_LEVELS]; 2], side: usize, k: usize, levels: [usize; 2]) -> u128 {
    if k <= levels[side] {
        l[side][k]
    } else {
        0
    }
}

/// `Σ_{k,j} |L_0(k) ∩ L_1(j)| weight(j − k)` over both sides' layers.
fn pairs(l: &[[u128; MAX_LEVELS]; 2], levels: [usize; 2], weight: impl Fn(i32) -> f64) -> f64 {
    let reached1 = (1..=levels[1]).fold(0u128, |r, j| r | l[1][j]);
    let mut sum = 0.0;
    for k in 1..=levels[0] {
        let mut both = l[0][k] & reached1;
        let mut j = 1;
        while both != 0 {
            let n = (both & l[1][j]).count_ones();
            if n != 0 {
                sum += n as f64 * weight(j as i32 - k as i32);
                both &= !l[1][j];
            }
            j += 1;
        }
    }
    sum
}

/// The features of `pos`, as [`super::amazons_eval::features`] gives them.
pub fn features(pos: &Position) -> Features {
    let me = pos.to_move();
    features_of([pos.queens(me), pos.queens(me.opponent())], pos.empty())
}

/// The features of the side to move's `queens[0]` against `queens[1]`.
pub fn features_of(queens: [u128; 2], empty: u128) -> Features {
    let mut l = [[0u128; MAX_LEVELS]; 2];
    let mut f = Features::default();

    let levels = layers(queens, empty, queen_step_fill, &mut l);
    f.t1 = territory(&l, levels);
    let mut c1 = 0.0;
    let mut p = 1.0;
    let (mut r0, mut r1) = (0u128, 0u128);
    for k in 1..=levels[0].max(levels[1]) {
        p *= 0.5;
        let (a, b) = (get(&l, 0, k, levels), get(&l, 1, k, levels));
        c1 += p * (count(a) - count(b));
        r0 |= a;
        r1 |= b;
    }
    f.c1 = 2.0 * c1;
    f.w = pairs(&l, levels, |d| 0.5f64.powi(d.abs()));
    f.own = (r0 & !r1).count_ones();
    f.other = (r1 & !r0).count_ones();
    f.contested = (r0 & r1).count_ones();

    let levels = layers(queens, empty, king_step, &mut l);
    f.t2 = territory(&l, levels);
    let (mut r0, mut r1) = (0u128, 0u128);
    for k in 1..=levels[0].max(levels[1]) {
        r0 |= get(&l, 0, k, levels);
        r1 |= get(&l, 1, k, levels);
    }
    f.c2 = count(r0 & !r1) - count(r1 & !r0)
        + pairs(&l, levels, |d| (d as f64 / C2_DIVISOR).clamp(-1.0, 1.0));
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::amazons::bitboard::queen_step;
    use crate::sim::amazons_eval;
    use crate::sim::amazons_rollout::random_positions;

    #[test]
    fn the_fill_moves_like_the_sliding_loop() {
        for size in [6, 8, 10] {
            for pos in random_positions(size, 300, 11).unwrap() {
                let empty = pos.empty();
                for set in [
                    pos.queens(crate::game::Color::White),
                    pos.empty() & 0x5555_5555,
                ] {
                    assert_eq!(queen_step_fill(set, empty), queen_step(set, empty));
                }
            }
        }
    }

    #[test]
    fn layered_features_equal_the_per_square_ones() {
        for size in [6, 8, 10] {
            for pos in random_positions(size, 2000, 5).unwrap() {
                let (a, b) = (features(&pos), amazons_eval::features(&pos));
                assert_eq!((a.own, a.other, a.contested), (b.own, b.other, b.contested));
                for (x, y) in [
                    (a.t1, b.t1),
                    (a.t2, b.t2),
                    (a.c1, b.c1),
                    (a.c2, b.c2),
                    (a.w, b.w),
                ] {
                    assert!((x - y).abs() < 1e-9, "{a:?} {b:?}");
                }
                assert!((a.value() - b.value()).abs() < 1e-9);
            }
        }
    }
}
