//! What the search gets when it runs on GPUs: the kernels' playouts with the
//! CPU policy's priors for tree expansion, spread over every chosen GPU.

use super::input::KernelPosition;
use super::{CudaError, CudaSimulator, Gpu, HexPolicy};
use crate::sim::cpu::CpuSimulator;
use crate::sim::go_rollout::GoPolicy;
use crate::sim::{LeafStats, Prior, Rollout, Simulator};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One `CudaSimulator` per GPU. Each `simulate` call (one search thread's
/// batch) goes to the next GPU in turn and takes one of its launch slots,
/// so with at least as many search threads as slots on all GPUs together
/// every slot has a batch in flight while other threads work on the tree.
/// Boards the kernels do not cover (Go sizes other than 9, 13, 19,
/// Havannah sides other than 4, 6, 8, 10) are played out by the CPU
/// simulator instead, so the search never gets empty statistics; it plays
/// the CPU engine's policy ([`CpuSimulator::engine`]), so such a board is
/// played no weaker than by the CPU engine's playouts (Havannah's
/// reference rollout, the kernels' uniform fill, would be).
pub struct GpuSimulator<G> {
    gpus: Vec<CudaSimulator<G>>,
    next: AtomicUsize,
    cpu: CpuSimulator<G>,
    /// Play failed batches on the CPU (the engine) or leave them with zero
    /// playouts (benchmarks, which must not time the CPU as the GPU).
    fallback: bool,
    warned: AtomicBool,
}

impl<G> GpuSimulator<G> {
    /// Opens every GPU in `ordinals` (kernels are compiled per board size
    /// when first needed, see [`Gpu::prepare`]), each
    /// with `slots_per_gpu` launch slots (at least one).
    pub fn new(ordinals: &[usize], slots_per_gpu: usize) -> Result<Self, CudaError> {
        let gpus = ordinals
            .iter()
            .map(|&o| CudaSimulator::with_slots(Gpu::new(o)?, slots_per_gpu))
            .collect::<Result<Vec<_>, _>>()?;
        if gpus.is_empty() {
            return Err(CudaError::NoDevice);
        }
        Ok(GpuSimulator {
            gpus,
            next: AtomicUsize::new(0),
            cpu: CpuSimulator::engine(),
            fallback: true,
            warned: AtomicBool::new(false),
        })
    }

    /// Go playouts with `policy` on every GPU (the default is
    /// [`super::tuning::go_kernel`]'s), which compile only the kernels
    /// that play it ([`CudaSimulator::compile_only_for`]).
    pub fn with_go_policy(mut self, policy: GoPolicy) -> Self {
        for gpu in &mut self.gpus {
            gpu.compile_only_for(policy);
        }
        self
    }

    /// Havannah playouts with `policy` on every GPU (the default is the
    /// tactical policy, the CPU engine's).
    pub fn with_hex_policy(mut self, policy: HexPolicy) -> Self {
        for gpu in &mut self.gpus {
            gpu.set_hex_policy(policy);
        }
        self
    }

    /// Failed batches come back with zero playouts instead of the CPU's.
    pub fn without_cpu_fallback(mut self) -> Self {
        self.fallback = false;
        self
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
    /// [`Simulator::simulate`] on the next GPU without the CPU fallback:
    /// benchmarks must not time the CPU under the GPU's name.
    pub fn try_simulate(
        &self,
        leaves: &[G],
        playouts_per_leaf: u32,
        seed: u64,
        out: &mut [LeafStats],
    ) -> Result<(), CudaError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.gpus.len();
        self.gpus[i].try_simulate(leaves, playouts_per_leaf, seed, out)
    }

    /// Name of the first GPU, for reports.
    pub fn device_name(&self) -> String {
        self.gpus[0].gpu().info.name.clone()
    }

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
        if let Err(e) = self.try_simulate(leaves, playouts_per_leaf, seed, out) {
            if !self.fallback {
                tracing::error!("GPU playouts failed: {e}");
                for (leaf, stats) in leaves.iter().zip(out.iter_mut()) {
                    stats.reset_for(leaf);
                }
                return;
            }
            if !self.warned.swap(true, Ordering::Relaxed) {
                tracing::warn!("GPU playouts failed ({e}); the CPU plays these leaves out");
            }
            self.cpu.simulate(leaves, playouts_per_leaf, seed, out);
        }
    }

    /// Compiles and loads the kernels of `pos`'s size on every GPU. Sizes
    /// without kernels are left to the CPU as in `simulate`; any other
    /// failure is logged, and the playouts that need the kernels fail
    /// over to the CPU as any GPU failure does.
    fn prepare(&self, pos: &G) {
        let input = pos.kernel_input();
        let (source, size) = (input.family, input.size);
        for gpu in &self.gpus {
            match gpu.gpu().prepare(source, size) {
                Ok(()) | Err(CudaError::UnsupportedSize { .. }) => {}
                Err(e) => tracing::warn!("cannot prepare the GPU for size {size}: {e}"),
            }
        }
    }

    /// The playout policy's knowledge (captures, patterns), from the CPU:
    /// the kernels know no priors.
    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<Prior>) {
        pos.priors(moves, out);
    }
}
