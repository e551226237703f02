//! The exact half of `check_gpu` for kernels that play a CPU policy move
//! for move: the kernel's counters against the CPU's playouts from the
//! kernel's own random streams, which must agree to the last count.
//!
//! A kernel seeds playout `k` of leaf `i` with [`kernel_playout_seed`], so
//! the CPU can run the very same playouts (`CpuSimulator::run_leaf_streams`).

use super::input::KernelPosition;
use super::simulator::CudaSimulator;
use super::CudaError;
use crate::sim::cpu::CpuSimulator;
use crate::sim::{LeafStats, Rollout};

/// The stream of playout `k` of leaf `leaf` in a launch with `seed`
/// (common.cuh `playout_seed`).
pub fn kernel_playout_seed(seed: u64, leaf: u32, k: u32) -> u64 {
    seed ^ (leaf as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (k as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// The engine policy's statistics of `playouts` playouts per position, each
/// from the stream the kernels give it when the positions are one launch
/// with `seed` (leaf `i` = position `i`), spread over `threads`.
pub fn engine_stats_from_kernel_streams<G: Rollout + Sync>(
    positions: &[G],
    playouts: u32,
    seed: u64,
    threads: usize,
) -> Vec<LeafStats> {
    let cpu = CpuSimulator::<G>::engine();
    let mut out = vec![LeafStats::default(); positions.len()];
    let threads = threads.max(1);
    std::thread::scope(|s| {
        for (t, part) in out
            .chunks_mut(positions.len().div_ceil(threads).max(1))
            .enumerate()
        {
            let cpu = &cpu;
            let first = t * positions.len().div_ceil(threads).max(1);
            s.spawn(move || {
                for (j, stats) in part.iter_mut().enumerate() {
                    let i = first + j;
                    stats.reset_for(&positions[i]);
                    let stream = |k| kernel_playout_seed(seed, i as u32, k);
                    cpu.run_leaf_streams(&positions[i], playouts, stream, stats);
                }
            });
        }
    });
    out
}

/// Runs `sim` (set to a kernel that plays the engine policy move for move)
/// on `positions` and compares every counter with the CPU's playouts from
/// the same streams.
pub(super) fn streams_check<G: KernelPosition + Rollout + Sync>(
    sim: &CudaSimulator<G>,
    positions: &[G],
    playouts: u32,
    seed: u64,
    threads: usize,
) -> Result<(bool, String), CudaError> {
    let mut gpu = vec![LeafStats::default(); positions.len()];
    // One launch (a check's few positions are one chunk), whose seed is
    // `seed` itself.
    sim.try_simulate(positions, playouts, seed, &mut gpu)?;
    let cpu = engine_stats_from_kernel_streams(positions, playouts, seed, threads);
    let differ: Vec<usize> = (0..positions.len()).filter(|&i| gpu[i] != cpu[i]).collect();
    let wins: f64 = cpu.iter().map(|s| s.black_wins as f64).sum();
    let detail = match differ.first() {
        None => format!(
            "{} positions x {playouts} playouts from the kernel's streams: every counter equal \
             (Black won {:.1}%)",
            positions.len(),
            100.0 * wins / (positions.len() as f64 * playouts as f64).max(1.0)
        ),
        Some(&i) => format!(
            "{} of {} positions differ; first: position {i}, gpu {} playouts, {} Black wins, \
             score {}; cpu {}, {}, {}",
            differ.len(),
            positions.len(),
            gpu[i].playouts,
            gpu[i].black_wins,
            gpu[i].score_sum,
            cpu[i].playouts,
            cpu[i].black_wins,
            cpu[i].score_sum
        ),
    };
    Ok((differ.is_empty(), detail))
}
