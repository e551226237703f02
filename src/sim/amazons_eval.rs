//! Lieberum's evaluation of an Amazons position, the CPU reference.
//!
//! Features, as J. Lieberum defines them in "An evaluation function for the
//! game of amazons" (Theoretical Computer Science 349, 2005) and as Sun,
//! Gao, Yuan and Zhu restate them in "GPU acceleration of Monte Carlo tree
//! search for the Game of the Amazons and its evaluation function" (AIIPCC
//! 2022). For every empty square `a`, `D1_j(a)` is the fewest queen moves
//! and `D2_j(a)` the fewest king moves in which player `j` (1 = the side
//! to move, 2 = the other) gets a queen there through empty squares (∞
//! when none can):
//!
//! - `t1 = Σ Δ(D1_1, D1_2)`, `t2 = Σ Δ(D2_1, D2_2)` with `Δ(n, m)` = 0 if
//!   `n = m = ∞`, `k` if `n = m < ∞`, +1 if `n < m`, -1 if `n > m`; `k =
//!   0.1` is the advantage of the side to move (Sun et al. take 0.1,
//!   Lieberum asks for |k| ≤ 1/5).
//! - `c1 = 2 Σ (2^-D1_1 − 2^-D1_2)` (2^-∞ = 0).
//! - `c2 = Σ min(1, max(−1, (D2_2 − D2_1) / 6))`; a square only one side
//!   reaches counts ±1, one neither reaches 0. The divisor 6 is the one the
//!   issue states; the machine translation of Sun et al. at hand garbles
//!   it.
//! - `w = Σ 2^-|D1_1 − D1_2|` over squares both sides reach: large while
//!   the armies are mixed, 0 once every region belongs to one side.
//! - `value = f1(w) t1 + f2(w) c1 + f3(w) c2 + f4(w) t2` with the partition
//!   of unity of Sun et al., eq. (7): `f1 = 5 / (w + 5)`, `f4 = w / (w +
//!   20)`, `f2 = f3 = (1 − f1 − f4) / 2` (= 15w / (2 (w+5)(w+20)) ≥ 0).
//!   So king-move territory leads in the opening (large w) and queen-move
//!   territory, which is the exact count of reachable squares once the
//!   armies are apart, in the ending (w → 0, f1 → 1).
//!
//! The value is from the side to move's point of view, in squares.
//! [`win_probability`] maps it to the search's [0, 1].

use crate::game::amazons::bitboard::{king_step, queen_step, Squares};
use crate::game::amazons::Position;
use crate::game::{Color, Game};

/// Distance of a square no queen of that side reaches.
pub const UNREACHED: u8 = u8::MAX;

/// Lieberum's k: what an equal distance is worth to the side to move.
pub const K_TO_MOVE: f64 = 0.1;

/// Divisor of the king-distance difference in c2.
pub const C2_DIVISOR: f64 = 6.0;

/// A value of this many squares is worth about 73% (logistic, 1 / (1 +
/// e^-1)) to the side to move while the armies are still in contact.
/// Opening values run to ±20 after one bad move (king-move territory
/// dominates there); 4 saturated the logistic, so that the priors of
/// most moves read about 0 and told the moves apart badly.
pub const VALUE_SCALE: f64 = 8.0;

/// Once the armies are apart, t1 is the difference of the squares each
/// side can still reach; the side to move needs one more than the other
/// (equal counts lose: it runs out first). Each square of margin past
/// that is worth this much in the logistic.
pub const SEPARATED_SCALE: f64 = 1.5;

/// Per-square distances of both sides (bit-index order of the 10x10 word;
/// squares off the board or not empty read [`UNREACHED`]).
#[derive(Clone, Debug)]
pub struct Distances {
    /// `[side][bit]`, side 0 the side to move.
    pub queen: [[u8; 128]; 2],
    pub king: [[u8; 128]; 2],
}

/// Breadth-first distances from `start` over `empty`, one step being
/// `step(frontier, empty)`. Writes the level of every reached empty square.
fn flood(start: u128, empty: u128, step: impl Fn(u128, u128) -> u128, out: &mut [u8; 128]) {
    let mut reached = start;
    let mut frontier = start;
    let mut level = 0u8;
    while frontier != 0 {
        level = level.saturating_add(1);
        frontier = step(frontier, empty) & !reached;
        reached |= frontier;
        for sq in Squares(frontier) {
            out[sq as usize] = level;
        }
    }
}

/// Both sides' queen and king distances in `pos`.
pub fn distances(pos: &Position) -> Distances {
    let empty = pos.empty();
    let me = pos.to_move();
    let mut d = Distances {
        queen: [[UNREACHED; 128]; 2],
        king: [[UNREACHED; 128]; 2],
    };
    for (side, color) in [me, me.opponent()].into_iter().enumerate() {
        let queens = pos.queens(color);
        flood(queens, empty, queen_step, &mut d.queen[side]);
        flood(queens, empty, king_step, &mut d.king[side]);
    }
    d
}

/// The features of Lieberum's evaluation, side to move first.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    pub t1: f64,
    pub t2: f64,
    pub c1: f64,
    pub c2: f64,
    pub w: f64,
    /// Empty squares only the side to move / only the other side reaches.
    pub own: u32,
    pub other: u32,
    /// Empty squares both reach: 0 once the armies are apart.
    pub contested: u32,
}

/// Δ(n, m) of t1 and t2.
#[inline]
fn delta(n: u8, m: u8) -> f64 {
    match (n, m) {
        (UNREACHED, UNREACHED) => 0.0,
        _ if n == m => K_TO_MOVE,
        _ if n < m => 1.0,
        _ => -1.0,
    }
}

/// `2^-d` for every distance, 0 for [`UNREACHED`]: a table, because
/// `exp2` for four terms of every square was most of an evaluation.
static POW2_NEG: [f64; 256] = pow2_table();

const fn pow2_table() -> [f64; 256] {
    let mut t = [0.0f64; 256];
    let mut d = 0;
    let mut p = 1.0f64;
    while d < UNREACHED as usize {
        t[d] = p;
        p /= 2.0;
        d += 1;
    }
    t
}

#[inline]
fn pow2_neg(d: u8) -> f64 {
    POW2_NEG[d as usize]
}

/// The features of `pos`.
pub fn features(pos: &Position) -> Features {
    let d = distances(pos);
    let mut f = Features::default();
    for sq in Squares(pos.empty()) {
        let s = sq as usize;
        let (q1, q2) = (d.queen[0][s], d.queen[1][s]);
        let (k1, k2) = (d.king[0][s], d.king[1][s]);
        f.t1 += delta(q1, q2);
        f.t2 += delta(k1, k2);
        f.c1 += 2.0 * (pow2_neg(q1) - pow2_neg(q2));
        f.c2 += match (k1, k2) {
            (UNREACHED, UNREACHED) => 0.0,
            (UNREACHED, _) => -1.0,
            (_, UNREACHED) => 1.0,
            _ => ((k2 as f64 - k1 as f64) / C2_DIVISOR).clamp(-1.0, 1.0),
        };
        match (q1 == UNREACHED, q2 == UNREACHED) {
            (false, false) => {
                f.w += pow2_neg(q1.abs_diff(q2));
                f.contested += 1;
            }
            (false, true) => f.own += 1,
            (true, false) => f.other += 1,
            (true, true) => {}
        }
    }
    f
}

/// The partition functions of Sun et al., eq. (7): (f1, f2, f3, f4).
#[inline]
pub fn partition(w: f64) -> (f64, f64, f64, f64) {
    let f1 = 5.0 / (w + 5.0);
    let f4 = w / (w + 20.0);
    let f23 = (1.0 - f1 - f4) / 2.0;
    (f1, f23, f23, f4)
}

impl Features {
    /// Lieberum's value for the side to move, in squares.
    pub fn value(&self) -> f64 {
        let (f1, f2, f3, f4) = partition(self.w);
        f1 * self.t1 + f2 * self.c1 + f3 * self.c2 + f4 * self.t2
    }

    /// Whether no empty square is reachable by both sides: every region
    /// holds queens of one side only.
    pub fn separated(&self) -> bool {
        self.contested == 0
    }

    /// The chance the side to move wins, from [`value`](Self::value); once
    /// the armies are apart, from the squares each side still reaches.
    pub fn win_probability(&self) -> f64 {
        probability_of(self.value(), self.separated())
    }
}

/// The chance the side to move wins from Lieberum's `value`; `separated`
/// when the armies are apart, and then the value is exactly t1, the
/// difference of the squares each side still reaches (w = 0 makes f1 = 1
/// and the other weights 0), which the GPU returns as its value.
pub fn probability_of(value: f64, separated: bool) -> f64 {
    let x = if separated {
        (value - 0.5) * SEPARATED_SCALE
    } else {
        value / VALUE_SCALE
    };
    1.0 / (1.0 + (-x).exp())
}

/// Lieberum's value of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> f64 {
    features(pos).value()
}

/// The chance that `color` wins `pos`: 1 or 0 when the game is over, else
/// [`Features::win_probability`] of the layered features (the faster form,
/// [`super::amazons_layers`]).
pub fn win_probability(pos: &Position, color: Color) -> f64 {
    let p = match pos.outcome() {
        Some(outcome) => return outcome.value_for(color) as f64,
        None => super::amazons_layers::features(pos).win_probability(),
    };
    if color == pos.to_move() {
        p
    } else {
        1.0 - p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::amazons::bitboard::bit;

    fn set(squares: &[&str]) -> u128 {
        let probe = Position::new(6).unwrap();
        squares
            .iter()
            .fold(0, |m, s| m | bit(probe.parse_square(s).unwrap()))
    }

    #[test]
    fn queen_and_king_distances_on_an_open_board() {
        // 6x6, White a1, Black f6, White to move.
        let pos = Position::from_sets(6, set(&["a1"]), set(&["f6"]), 0, Color::White).unwrap();
        let d = distances(&pos);
        let sq = |s: &str| pos.parse_square(s).unwrap() as usize;
        // One queen move along rank 1, file a and the long diagonal up to
        // Black's queen; two everywhere else.
        for s in ["f1", "a6", "e5", "b2"] {
            assert_eq!(d.queen[0][sq(s)], 1, "{s}");
        }
        for s in ["b3", "f5", "e6"] {
            assert_eq!(d.queen[0][sq(s)], 2, "{s}");
        }
        let level1 = (0..128).filter(|&s| d.queen[0][s] == 1).count();
        assert_eq!(level1, 14);
        // King moves: the Chebyshev distance on an open board.
        assert_eq!(d.king[0][sq("f1")], 5);
        assert_eq!(d.king[0][sq("c4")], 3);
        assert_eq!(d.king[1][sq("c4")], 3);
        assert_eq!(d.king[1][sq("a1")], UNREACHED); // a queen stands there
    }

    #[test]
    fn symmetric_position_is_worth_the_tempo_only() {
        let pos = Position::from_sets(6, set(&["a1"]), set(&["f6"]), 0, Color::White).unwrap();
        let f = features(&pos);
        // Queen ties: f1, a6 and b2..e5 at one move each, and the 12
        // squares on none of either queen's lines at two: 18, each worth k.
        assert!((f.t1 - 18.0 * K_TO_MOVE).abs() < 1e-12, "{f:?}");
        // w: 18 ties at 2^0, and the other 16 squares one move apart.
        assert!((f.w - (18.0 + 16.0 * 0.5)).abs() < 1e-12, "{f:?}");
        // King ties: squares as far from a1 as from f6 in Chebyshev
        // distance, counted here independently.
        let mut ties = 0;
        for file in 0..6i32 {
            for rank in 0..6i32 {
                if (file, rank) == (0, 0) || (file, rank) == (5, 5) {
                    continue;
                }
                if file.max(rank) == (5 - file).max(5 - rank) {
                    ties += 1;
                }
            }
        }
        assert!((f.t2 - ties as f64 * K_TO_MOVE).abs() < 1e-12, "{f:?}");
        assert!(f.c1.abs() < 1e-12 && f.c2.abs() < 1e-12, "{f:?}");
        assert_eq!((f.own, f.other, f.contested), (0, 0, 34));
        // Only the tempo is left: a small plus for the side to move.
        let v = f.value();
        assert!(v > 0.0 && v < 1.0, "{v}");
    }

    #[test]
    fn a_split_board_is_worth_the_difference_of_the_regions() {
        let white = set(&["a1"]);
        let black = set(&["f6"]);
        let arrows = set(&["a3", "b3", "c3", "c2", "c1"]);
        let pos = Position::from_sets(6, white, black, arrows, Color::White).unwrap();
        let f = features(&pos);
        assert!(f.separated());
        assert_eq!((f.own, f.other), (3, 26));
        assert_eq!(f.w, 0.0);
        assert_eq!(partition(0.0), (1.0, 0.0, 0.0, 0.0));
        assert!((f.value() - -23.0).abs() < 1e-12);
        assert!(win_probability(&pos, Color::White) < 0.01);
        assert!(win_probability(&pos, Color::Black) > 0.99);
        // Equal regions lose for the side to move: it runs out first.
        let even = Position::from_sets(
            6,
            set(&["a1"]),
            set(&["f6"]),
            set(&["a3", "b3", "c3", "c2", "c1", "d6", "d5", "d4", "e4", "f4"]),
            Color::White,
        )
        .unwrap();
        let f = features(&even);
        assert!(f.separated());
        assert_eq!((f.own, f.other), (3, 3));
        assert!(f.win_probability() < 0.5);
        assert!(win_probability(&even, Color::Black) > 0.5);
    }

    #[test]
    fn partition_functions_sum_to_one_and_never_go_negative() {
        for w in [0.0, 0.5, 3.0, 10.0, 40.0, 100.0] {
            let (f1, f2, f3, f4) = partition(w);
            assert!((f1 + f2 + f3 + f4 - 1.0).abs() < 1e-12);
            assert!(f1 >= 0.0 && f2 >= 0.0 && f3 >= 0.0 && f4 >= 0.0);
            assert!((f2 - 15.0 * w / (2.0 * (w + 5.0) * (w + 20.0))).abs() < 1e-12);
        }
    }

    #[test]
    fn the_terms_turn_with_the_side_to_move() {
        let positions = crate::sim::amazons_rollout::random_positions(10, 200, 3).unwrap();
        for pos in positions {
            let (w, b) = (pos.queens(Color::White), pos.queens(Color::Black));
            let flipped = pos.to_move().opponent();
            let other = Position::from_sets(10, w, b, pos.arrows(), flipped).unwrap();
            let (f, g) = (features(&pos), features(&other));
            assert!((f.c1 + g.c1).abs() < 1e-9 && (f.c2 + g.c2).abs() < 1e-9);
            assert!((f.w - g.w).abs() < 1e-9);
            assert_eq!((f.own, f.other), (g.other, g.own));
            // t1 from each side: wins and losses swap, ties count k twice.
            assert!(f.t1 + g.t1 >= -1e-9);
        }
    }
}
