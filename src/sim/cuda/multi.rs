//! What the search gets when it runs on GPUs: the kernels' playouts with the
//! CPU policy's priors for tree expansion, spread over every chosen GPU.

use super::input::KernelPosition;
use super::{CudaError, CudaSimulator};
use crate::sim::cpu::CpuSimulator;
use crate::sim::{LeafStats, Prior, Rollout, Simulator};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One `CudaSimulator` per GPU. Each `simulate` call (one search thread's
/// batch) goes to the next GPU in turn and takes one of its launch slots,
/// so with at least as many search threads as slots on all GPUs together
/// every slot has a batch in flight while other threads work on the tree.
/// Boards the kernels do not cover (Go sizes other than 9, 13, 19) are
/// played out by the CPU simulator instead, so the search never gets empty
/// statistics.
pub struct GpuSimulator<G> {
    gpus: Vec<CudaSimulator<G>>,
    next: AtomicUsize,
    cpu: CpuSimulator<G>,
    warned: AtomicBool,
}

impl<G> GpuSimulator<G> {
    /// Opens and compiles the kernels on every GPU in `ordinals`.
    pub fn new(ordinals: &[usize]) -> Result<Self, CudaError> {
        let gpus = ordinals
            .iter()
            .map(|&o| CudaSimulator::new(o))
            .collect::<Result<Vec<_>, _>>()?;
        if gpus.is_empty() {
            return Err(CudaError::NoDevice);
        }
        Ok(GpuSimulator {
            gpus,
            next: AtomicUsize::new(0),
            cpu: CpuSimulator::new(),
            warned: AtomicBool::new(false),
        })
    }

    pub fn gpu_count(&self) -> usize {
        self.gpus.len()
    }

    /// Launch slots on all GPUs together: batches that can be in flight.
    pub fn slot_count(&self) -> usize {
        self.gpus.iter().map(|g| g.slot_count()).sum()
    }
}

impl<G: KernelPosition> GpuSimulator<G> {
    /// GPU memory in use, all GPUs together.
    pub fn memory_bytes(&self) -> usize {
        self.gpus.iter().map(|g| g.memory_bytes()).sum()
    }
}

impl<G: KernelPosition + Rollout> Simulator<G> for GpuSimulator<G> {
    fn name(&self) -> &str {
        "cuda"
    }

    fn simulate(&self, leaves: &[G], playouts_per_leaf: u32, seed: u64, out: &mut [LeafStats]) {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.gpus.len();
        if let Err(e) = self.gpus[i].try_simulate(leaves, playouts_per_leaf, seed, out) {
            if !self.warned.swap(true, Ordering::Relaxed) {
                tracing::warn!("GPU playouts failed ({e}); the CPU plays these leaves out");
            }
            self.cpu.simulate(leaves, playouts_per_leaf, seed, out);
        }
    }

    /// The playout policy's knowledge (captures, patterns), from the CPU:
    /// the kernels play light playouts and know no priors.
    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<Prior>) {
        pos.priors(moves, out);
    }
}
