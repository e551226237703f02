//! The CPU simulator: the fallback backend and the reference every GPU
//! kernel is checked against. It runs each game's [`Rollout`] policy on the
//! calling thread; parallelism comes from the search's own threads.

use super::{AmafCount, FastRng, LeafStats, PlayoutRecord, Prior, Rollout, Simulator};
use crate::game::Color;
use std::marker::PhantomData;

/// The three policy levels of [`Rollout`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Policy {
    #[default]
    Reference,
    Engine,
}

#[derive(Debug, Default)]
pub struct CpuSimulator<G> {
    /// Which of the game's policies the playouts play.
    policy: Policy,
    _game: PhantomData<fn() -> G>,
}

impl<G> CpuSimulator<G> {
    /// Plays the reference policy, [`Rollout::rollout`]: the one the GPU
    /// kernels are checked against.
    pub fn new() -> Self {
        CpuSimulator {
            policy: Policy::Reference,
            _game: PhantomData,
        }
    }

    /// Plays the CPU engine's policy, [`Rollout::engine_rollout`]: the
    /// engine's own simulator, `bench --search`, and the reference of the
    /// kernels that play it.
    pub fn engine() -> Self {
        CpuSimulator {
            policy: Policy::Engine,
            _game: PhantomData,
        }
    }
}

impl<G: Rollout> CpuSimulator<G> {
    /// Runs `n` playouts from `leaf`, accumulating into `stats` (which must
    /// already be reset for the leaf, [`LeafStats::reset_for`]).
    pub fn run_leaf(&self, leaf: &G, n: u32, rng: &mut FastRng, stats: &mut LeafStats) {
        let mut record = PlayoutRecord::default();
        let mut owner = vec![0i8; leaf.cell_space()];
        for _ in 0..n {
            self.play_one(leaf, rng, &mut record, &mut owner, stats);
        }
    }

    /// [`run_leaf`](Self::run_leaf) with a fresh stream per playout:
    /// playout `k` draws from `FastRng::new(stream(k))`. The GPU kernels
    /// seed each playout so (common.cuh `playout_seed`), which lets a check
    /// compare their counters with the CPU's exactly.
    pub fn run_leaf_streams(
        &self,
        leaf: &G,
        n: u32,
        stream: impl Fn(u32) -> u64,
        stats: &mut LeafStats,
    ) {
        let mut record = PlayoutRecord::default();
        let mut owner = vec![0i8; leaf.cell_space()];
        for k in 0..n {
            let mut rng = FastRng::new(stream(k));
            self.play_one(leaf, &mut rng, &mut record, &mut owner, stats);
        }
    }

    fn play_one(
        &self,
        leaf: &G,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        owner: &mut [i8],
        stats: &mut LeafStats,
    ) {
        record.reset(leaf.move_space());
        let result = match self.policy {
            Policy::Reference => leaf.rollout(rng, record, owner),
            Policy::Engine => leaf.engine_rollout(rng, record, owner),
        };
        let black_win = match result.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
        stats.playouts += 1;
        stats.black_wins += black_win;
        stats.score_sum += result.score as f64;
        for (i, first) in record.first.iter().enumerate() {
            if let Some(c) = first {
                let slot: &mut AmafCount = &mut stats.amaf[i][c.index()];
                slot.plays += 1;
                slot.black_wins += black_win;
            }
        }
        for (sum, &o) in stats.ownership.iter_mut().zip(owner.iter()) {
            *sum += o as f32;
        }
    }
}

impl<G: Rollout> Simulator<G> for CpuSimulator<G> {
    fn name(&self) -> &str {
        "cpu"
    }

    fn simulate(&self, leaves: &[G], playouts_per_leaf: u32, seed: u64, out: &mut [LeafStats]) {
        for (i, (leaf, stats)) in leaves.iter().zip(out.iter_mut()).enumerate() {
            // One stream per leaf, so results do not depend on batch order.
            let mut rng = FastRng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            stats.reset_for(leaf);
            self.run_leaf(leaf, playouts_per_leaf, &mut rng, stats);
        }
    }

    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<Prior>) {
        pos.priors(moves, out);
    }
}
