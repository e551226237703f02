//! Leaf simulation: turns positions at the edge of the search tree into
//! statistics (wins, scores, AMAF first-play counts, ownership).
//!
//! [`Simulator`] is the interface the search calls; [`cpu::CpuSimulator`] is
//! the reference implementation that every GPU kernel is checked against.
//! Per-game playout policies implement [`Rollout`].

pub mod amazons_eval;
pub mod amazons_layers;
pub mod amazons_rollout;
pub mod bench_record;
pub mod connect4_rollout;
pub mod cpu;
pub mod cuda;
pub mod go_rollout;
pub mod havannah_frames;
pub mod havannah_rollout;
pub mod havannah_tactics;
pub mod hex_rollout;
pub mod synthetic;

use crate::game::{Color, Game};
// The playout RNG lives with the rules (their tests play random games);
// playout code names it from here.
pub use crate::game::rng;
pub use rng::FastRng;

/// AMAF ("all moves as first") counter for one move index and one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AmafCount {
    /// Playouts in which this colour played this move first.
    pub plays: u32,
    /// Of those, how many Black won (draws count one half).
    pub black_wins: f32,
}

/// What a batch of playouts from one leaf produced. Sign convention: every
/// value is from **Black's** point of view; the search converts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeafStats {
    pub playouts: u32,
    /// Playouts Black won; a draw counts 0.5.
    pub black_wins: f32,
    /// Sum over playouts of the final score, Black minus White (Go: area
    /// score with komi; games without scores: +1 / -1 / 0).
    pub score_sum: f64,
    /// Indexed `[move_index][color.index()]`.
    pub amaf: Vec<[AmafCount; 2]>,
    /// Per board cell ([`Game::move_cell`]): sum over playouts of +1 where
    /// Black owns the cell at the end, -1 where White does.
    pub ownership: Vec<f32>,
}

impl LeafStats {
    /// Zeroes the counters and sizes the tables for `move_space` moves
    /// (AMAF) and `cell_space` cells (ownership), reusing the allocations.
    pub fn reset(&mut self, move_space: usize, cell_space: usize) {
        self.playouts = 0;
        self.black_wins = 0.0;
        self.score_sum = 0.0;
        self.amaf.clear();
        self.amaf.resize(move_space, [AmafCount::default(); 2]);
        self.ownership.clear();
        self.ownership.resize(cell_space, 0.0);
    }

    /// [`reset`](Self::reset) for `pos`'s game and board.
    pub fn reset_for<G: Game>(&mut self, pos: &G) {
        self.reset(pos.move_space(), pos.cell_space());
    }

    /// Adds `other`'s playouts, counters and tables to these (tables are
    /// taken over when these have none yet).
    pub fn merge(&mut self, other: &LeafStats) {
        self.playouts += other.playouts;
        self.black_wins += other.black_wins;
        self.score_sum += other.score_sum;
        if self.amaf.len() < other.amaf.len() {
            self.amaf
                .resize(other.amaf.len(), [AmafCount::default(); 2]);
        }
        for (a, b) in self.amaf.iter_mut().zip(&other.amaf) {
            for c in 0..2 {
                a[c].plays += b[c].plays;
                a[c].black_wins += b[c].black_wins;
            }
        }
        if self.ownership.len() < other.ownership.len() {
            self.ownership.resize(other.ownership.len(), 0.0);
        }
        for (a, b) in self.ownership.iter_mut().zip(&other.ownership) {
            *a += b;
        }
    }
}

/// Prior knowledge for a move at tree expansion, as virtual playouts:
/// `wins` out of `visits` from the point of view of the player making it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prior {
    pub wins: f32,
    pub visits: f32,
    /// Progressive bias (Chaslot, Winands, van den Herik, Uiterwijk and
    /// Bouzy, "Progressive Strategies for Monte-Carlo Tree Search"): added
    /// to the move's urgency as `bias / (own visits + 1)`, so it steers the
    /// first visits and fades as the move's own playouts come in. Virtual
    /// playouts alone cannot do that on a big board, where every child's
    /// AMAF count is soon half its parent's visits and outweighs them.
    /// Stored to a thousandth within ±[`MAX_BIAS`]; 0 (the default) changes
    /// nothing.
    pub bias: f32,
    /// What the rules prove about the move, taken by the tree's solver as
    /// a proof ([`Verdict`]).
    pub verdict: Verdict,
}

/// A fact of the rules about a move, for the player making it, known at
/// expansion without search: Castro's "minimax 2" (Ewalds, "Playing and
/// Solving Havannah"): a move that wins at once is won; when the opponent
/// has a winning cell and the mover none, every move but the block is
/// lost, and every move is lost when the opponent has two. The tree's
/// MCTS-solver never searches a proven move again and settles its parent
/// from it, so a node whose moves are all lost is proven at once, and a
/// forced block is the only move its node ever tries. Only certainties
/// belong here: a wrong verdict is never corrected by search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing proven: the search decides.
    #[default]
    Open,
    /// The move wins by force.
    Won,
    /// The move loses by force.
    Lost,
}

/// The largest progressive bias a node keeps (`Prior::bias`, either sign).
pub const MAX_BIAS: f32 = 32.0;

/// One expansion's priors asked of [`Simulator::priors_batch`]: those of
/// `pos`'s `moves`, into `out`.
pub struct PriorsJob<'a, G: Game> {
    pub pos: &'a G,
    pub moves: &'a [G::Move],
    pub out: &'a mut Vec<Prior>,
}

/// Evaluates batches of leaves. Implementations must be deterministic for a
/// given `seed` (reproducible matches and kernel-vs-CPU checks).
pub trait Simulator<G: Game>: Send + Sync {
    /// Short name for logs and bench output ("cpu", "cuda").
    fn name(&self) -> &str;

    /// Runs `playouts_per_leaf` playouts from each leaf and writes one
    /// [`LeafStats`] per leaf into `out` (same length as `leaves`; the
    /// simulator resets each entry).
    fn simulate(&self, leaves: &[G], playouts_per_leaf: u32, seed: u64, out: &mut [LeafStats]);

    /// Gets ready to simulate positions of `pos`'s game and size (the GPU
    /// compiles and loads that size's kernels). The engine calls it when
    /// the board size is set, so that no search waits for it. The default
    /// does nothing.
    fn prepare(&self, pos: &G) {
        let _ = pos;
    }

    /// Heuristic priors for expanding `pos` with `moves`; `out` gets one
    /// entry per move. The default gives none (all zero).
    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<Prior>) {
        let _ = pos;
        out.clear();
        out.resize(moves.len(), Prior::default());
    }

    /// [`priors`](Self::priors) for several expansions at once, each job's
    /// `out` getting one entry per move of its `moves`. The default answers
    /// them one at a time.
    fn priors_batch(&self, jobs: &mut [PriorsJob<'_, G>]) {
        for job in jobs {
            self.priors(job.pos, job.moves, job.out);
        }
    }

    /// Whether the search should gather the expansions its batch of
    /// descents meets and ask for their priors together
    /// ([`priors_batch`](Self::priors_batch)) instead of at each descent.
    /// True only where the priors cost a round trip that one call of many
    /// shares (the Amazons GPU evaluator); the default keeps every descent
    /// seeing the expansions before it.
    fn batches_priors(&self) -> bool {
        false
    }

    /// Whether every prior with visits is the leaf value itself: its mean
    /// (`wins / visits`) is exactly the chance that
    /// [`simulate`](Self::simulate) gives the mover in the position after the move,
    /// at every call (an evaluation, not random playouts). The search then
    /// backs a leaf up from its prior instead of simulating it again: the
    /// parent's expansion already evaluated it. The default, false, is
    /// every playout simulator's.
    fn priors_are_leaf_values(&self) -> bool {
        false
    }
}

/// Records one playout for AMAF and ownership: which colour first played
/// each move index.
#[derive(Clone, Debug, Default)]
pub struct PlayoutRecord {
    /// `first[move_index]`: the colour that played there first, if any.
    pub first: Vec<Option<Color>>,
}

impl PlayoutRecord {
    pub fn reset(&mut self, move_space: usize) {
        self.first.clear();
        self.first.resize(move_space, None);
    }

    #[inline]
    pub fn note(&mut self, index: usize, color: Color) {
        if let Some(slot) = self.first.get_mut(index) {
            if slot.is_none() {
                *slot = Some(color);
            }
        }
    }
}

/// Result of one playout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// Black minus White (Go: area score with komi; others +1 / -1 / 0).
    pub score: f32,
    /// Moves played in the playout (for `moves_per_playout` in benchmarks).
    pub moves: u32,
}

/// A game's playout policy for the CPU simulator: plays `pos` out to the end
/// with the cheap policy, noting first plays in `record` (per move index)
/// and per-cell ownership in `ownership` (+1 Black, -1 White, 0 neither;
/// one entry per cell, [`Game::move_cell`], overwritten).
pub trait Rollout: Game {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult;

    /// The policy the CPU engine plays ([`cpu::CpuSimulator::engine`]).
    /// Defaults to [`rollout`](Self::rollout), the policy the GPU kernels
    /// play and `check-gpu` compares them with; a game whose CPU policy
    /// knows more than its kernels do overrides this and keeps `rollout`
    /// as the kernels' reference.
    fn engine_rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        self.rollout(rng, record, ownership)
    }

    /// Priors for tree expansion (captures, atari escapes, patterns...).
    /// Default: none.
    fn priors(&self, moves: &[Self::Move], out: &mut Vec<Prior>) {
        out.clear();
        out.resize(moves.len(), Prior::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_counters_and_tables() {
        let mut a = LeafStats::default();
        let mut b = LeafStats::default();
        b.reset(3, 3);
        b.playouts = 10;
        b.black_wins = 4.5;
        b.score_sum = -7.0;
        b.amaf[2][1] = AmafCount {
            plays: 6,
            black_wins: 2.0,
        };
        b.ownership[0] = -3.0;
        a.merge(&b);
        a.merge(&b);
        assert_eq!((a.playouts, a.black_wins, a.score_sum), (20, 9.0, -14.0));
        assert_eq!(
            a.amaf[2][1],
            AmafCount {
                plays: 12,
                black_wins: 4.0
            }
        );
        assert_eq!(a.amaf[0][0], AmafCount::default());
        assert_eq!(a.ownership, vec![-6.0, 0.0, 0.0]);
    }
}
