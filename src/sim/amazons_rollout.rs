//! Amazons leaves: the engine scores them with Lieberum's evaluation
//! ([`EvalSimulator`]) instead of playing them out, because random
//! Amazons playouts say little (a random queen walls itself in long
//! before the board is decided). The random playout ([`Rollout`]) is kept
//! for the bench and for comparison.

use super::amazons_layers::features;
use super::{FastRng, LeafStats, PlayoutRecord, PlayoutResult, Prior, Rollout, Simulator};
use crate::game::amazons::bitboard::{bit, queen_reach, Squares};
use crate::game::amazons::{Move, Position};
use crate::game::{Color, Game};

/// The `n`th (from 0) set bit of `set`, which must have more than `n`.
#[inline]
fn nth_square(set: u128, n: u32) -> u8 {
    let mut rest = set;
    for _ in 0..n {
        rest &= rest - 1;
    }
    rest.trailing_zeros() as u8
}

/// A random legal move of the side to move, if it has one: a random queen
/// among those that can move, a random destination, a random arrow.
pub fn random_move(pos: &Position, rng: &mut FastRng) -> Option<Move> {
    let occupied = pos.occupied();
    let mut movable = [(0u8, 0u128); 4];
    let mut n = 0;
    for from in Squares(pos.queens(pos.to_move())) {
        let reach = queen_reach(from, occupied);
        if reach != 0 {
            movable[n] = (from, reach);
            n += 1;
        }
    }
    if n == 0 {
        return None;
    }
    let (from, reach) = movable[rng.below(n as u32) as usize];
    let to = nth_square(reach, rng.below(reach.count_ones()));
    let shots = queen_reach(to, (occupied & !bit(from)) | bit(to));
    let arrow = nth_square(shots, rng.below(shots.count_ones()));
    Some(Move { from, to, arrow })
}

impl Rollout for Position {
    /// Uniformly random queens, destinations and arrows to the end. Every
    /// cell's owner at the end is whoever's queen stands there.
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut pos = self.clone();
        let mut moves = 0;
        while let Some(mv) = random_move(&pos, rng) {
            record.note(pos.move_index(mv), pos.to_move());
            pos.apply(mv);
            moves += 1;
        }
        let winner = pos.to_move().opponent();
        let size = pos.size();
        for (cell, own) in ownership.iter_mut().enumerate() {
            let sq = crate::game::amazons::bitboard::bit_index(cell % size, cell / size);
            *own = if pos.queens(Color::Black) & bit(sq) != 0 {
                1
            } else if pos.queens(Color::White) & bit(sq) != 0 {
                -1
            } else {
                0
            };
        }
        PlayoutResult {
            winner: Some(winner),
            score: match winner {
                Color::Black => 1.0,
                Color::White => -1.0,
            },
            moves,
        }
    }
}

/// Virtual visits the evaluation's prior of a move is worth at expansion.
pub const PRIOR_VISITS: f32 = 10.0;

/// The Amazons engine's leaf evaluator: every leaf is worth Lieberum's
/// evaluation as a win probability ([`super::amazons_eval`]), counted as
/// one playout; every move at expansion gets the evaluation of the
/// position after it as a prior, so that of the 2,176 opening moves the
/// search tries the promising ones first.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvalSimulator;

impl EvalSimulator {
    /// The chance that Black wins `pos`.
    fn black_probability(pos: &Position) -> f64 {
        super::amazons_eval::win_probability(pos, Color::Black)
    }
}

impl Simulator<Position> for EvalSimulator {
    fn name(&self) -> &str {
        "eval"
    }

    fn simulate(
        &self,
        leaves: &[Position],
        playouts_per_leaf: u32,
        _seed: u64,
        out: &mut [LeafStats],
    ) {
        for (leaf, stats) in leaves.iter().zip(out.iter_mut()) {
            // No AMAF and no ownership: tables of move_space entries per
            // leaf would cost more than the evaluation.
            stats.reset(0, 0);
            let n = playouts_per_leaf.max(1);
            stats.playouts = n;
            let p = Self::black_probability(leaf);
            stats.black_wins = (p * n as f64) as f32;
            stats.score_sum = (2.0 * p - 1.0) * n as f64;
        }
    }

    fn priors(&self, pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
        out.clear();
        let mut next = pos.clone();
        for &mv in moves {
            next.clone_from(pos);
            next.apply(mv);
            // The mover's chance: the other side is to move after it.
            let p = match next.outcome() {
                Some(_) => 1.0,
                None => 1.0 - features(&next).win_probability(),
            };
            out.push(Prior {
                wins: p as f32 * PRIOR_VISITS,
                visits: PRIOR_VISITS,
                bias: 0.0,
                ..Prior::default()
            });
        }
    }

    /// A leaf's value is the evaluation its parent's expansion gave it as
    /// a prior (one evaluation per leaf instead of two).
    fn priors_are_leaf_values(&self) -> bool {
        true
    }
}

/// `count` positions after a random number of random moves (up to half
/// the board's squares) from the start, none of them over; the same for a
/// given seed. The positions the evaluation is measured and checked on.
pub fn random_positions(size: usize, count: usize, seed: u64) -> Result<Vec<Position>, String> {
    let start = Position::new(size).map_err(|e| e.to_string())?;
    let mut rng = FastRng::new(seed);
    let mut out = Vec::with_capacity(count);
    let max_plies = (size * size / 2) as u32;
    while out.len() < count {
        let mut pos = start.clone();
        let plies = rng.below(max_plies + 1);
        for _ in 0..plies {
            match random_move(&pos, &mut rng) {
                Some(mv) => pos.apply(mv),
                None => break,
            }
        }
        if pos.count_moves() > 0 {
            out.push(pos);
        }
    }
    Ok(out)
}
