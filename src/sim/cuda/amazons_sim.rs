//! The Amazons engine's evaluator on the GPU: the same leaf values and
//! expansion priors as [`EvalSimulator`], computed by the kernel in
//! batches — all the children of a node in one launch at expansion, a
//! search thread's batch of leaves in another. Batches smaller than
//! [`GPU_MIN_BATCH`] and positions whose game is over stay on the CPU,
//! where one evaluation costs less than a launch's round trip; so does
//! everything after a GPU error (logged once).

use super::amazons::{AmazonsGpu, GpuValue};
use super::CudaError;
use crate::game::amazons::{Move, Position};
use crate::game::{Color, Game};
use crate::sim::amazons_eval::probability_of;
use crate::sim::amazons_rollout::{EvalSimulator, PRIOR_VISITS};
use crate::sim::{LeafStats, Prior, Simulator};
use std::sync::Mutex;

/// Fewest positions sent to the GPU in one launch: a launch and its two
/// copies cost some tens of microseconds, a CPU evaluation a few.
pub const GPU_MIN_BATCH: usize = 32;

/// [`EvalSimulator`] with its batches on one GPU. Search threads take
/// turns on the GPU (one lock); each batch is one launch.
pub struct GpuEvalSimulator {
    gpu: Mutex<Option<AmazonsGpu>>,
    cpu: EvalSimulator,
}

impl GpuEvalSimulator {
    /// Opens GPU `ordinal` and compiles the kernel.
    pub fn open(ordinal: usize) -> Result<Self, CudaError> {
        Ok(Self {
            gpu: Mutex::new(Some(AmazonsGpu::open(ordinal)?)),
            cpu: EvalSimulator,
        })
    }

    /// The GPU's name.
    pub fn device_name(&self) -> String {
        match self.gpu.lock() {
            Ok(g) => g.as_ref().map_or_else(|| "none".into(), |g| g.name.clone()),
            Err(_) => "none".into(),
        }
    }

    /// The kernel's results for `positions`, or `None` (the caller uses
    /// the CPU) when the batch is small or the GPU has failed.
    fn gpu_values(&self, positions: &[Position]) -> Option<Vec<GpuValue>> {
        if positions.len() < GPU_MIN_BATCH {
            return None;
        }
        let mut guard = self.gpu.lock().ok()?;
        let gpu = guard.as_mut()?;
        match gpu.evaluate(positions) {
            Ok(values) => Some(values),
            Err(e) => {
                tracing::error!("Amazons GPU evaluation failed ({e}); evaluating on the CPU");
                *guard = None;
                None
            }
        }
    }
}

/// The chance the side to move in a (not finished) position wins, from
/// the kernel's value.
fn to_move_probability(v: GpuValue) -> f64 {
    probability_of(v.value as f64, v.w == 0.0)
}

impl Simulator<Position> for GpuEvalSimulator {
    fn name(&self) -> &str {
        "cuda-eval"
    }

    fn simulate(
        &self,
        leaves: &[Position],
        playouts_per_leaf: u32,
        seed: u64,
        out: &mut [LeafStats],
    ) {
        let open: Vec<Position> = leaves
            .iter()
            .filter(|p| p.outcome().is_none())
            .cloned()
            .collect();
        let Some(values) = self.gpu_values(&open) else {
            return self.cpu.simulate(leaves, playouts_per_leaf, seed, out);
        };
        let mut values = values.into_iter();
        let n = playouts_per_leaf.max(1);
        for (leaf, stats) in leaves.iter().zip(out.iter_mut()) {
            stats.reset(0, 0);
            stats.playouts = n;
            let black = match leaf.outcome() {
                Some(outcome) => outcome.value_for(Color::Black) as f64,
                None => {
                    let p = values.next().map_or(0.5, to_move_probability);
                    if leaf.to_move() == Color::Black {
                        p
                    } else {
                        1.0 - p
                    }
                }
            };
            stats.black_wins = (black * n as f64) as f32;
            stats.score_sum = (2.0 * black - 1.0) * n as f64;
        }
    }

    fn priors(&self, pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
        if moves.len() < GPU_MIN_BATCH {
            return self.cpu.priors(pos, moves, out);
        }
        let children: Vec<Position> = moves
            .iter()
            .map(|&mv| {
                let mut next = pos.clone();
                next.apply(mv);
                next
            })
            .collect();
        let open: Vec<Position> = children
            .iter()
            .filter(|p| p.outcome().is_none())
            .cloned()
            .collect();
        let Some(values) = self.gpu_values(&open) else {
            return self.cpu.priors(pos, moves, out);
        };
        let mut values = values.into_iter();
        out.clear();
        for child in &children {
            // The mover's chance: the other side is to move after it.
            let p = match child.outcome() {
                Some(_) => 1.0,
                None => 1.0 - values.next().map_or(0.5, to_move_probability),
            };
            out.push(Prior {
                wins: p as f32 * PRIOR_VISITS,
                visits: PRIOR_VISITS,
                bias: 0.0,
            });
        }
    }
}
