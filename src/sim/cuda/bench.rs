//! `bench`: playouts per second of every kernel, size and policy.

use super::check::fixed_positions;
use super::device::{GoKernel, Gpu, HexVariant};
use super::hex;
use super::input::KernelPosition;
use super::positions::GoWithPolicy;
use super::simulator::CudaSimulator;
use super::CudaError;
use crate::game::{go, havannah};
use crate::sim::bench_record::{per_second, BenchRecord};
use crate::sim::LeafStats;
use std::time::Instant;

/// One measured kernel configuration.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub game: &'static str,
    pub size: usize,
    pub kernel: &'static str,
    pub policy: &'static str,
    pub leaves: usize,
    pub playouts_per_leaf: u32,
    pub threads_per_sm: u32,
    pub playouts_per_second: f64,
    /// [`CudaSimulator::memory_bytes`] after the run.
    pub memory_bytes: usize,
    pub device: String,
}

impl BenchLine {
    /// The line in the schema every `bench` measurement shares.
    pub fn record(&self) -> BenchRecord {
        BenchRecord {
            mode: "kernel",
            game: self.game.into(),
            size: self.size,
            backend: "cuda".into(),
            device: Some(self.device.clone()),
            kernel: Some(self.kernel.into()),
            policy: Some(self.policy.into()),
            leaves: Some(self.leaves),
            playouts_per_leaf: Some(self.playouts_per_leaf),
            threads_per_sm: Some(self.threads_per_sm),
            playouts_per_second: per_second(self.playouts_per_second, 1.0),
            gpu_memory_bytes: Some(self.memory_bytes as u64),
            ..BenchRecord::default()
        }
    }
}

impl std::fmt::Display for BenchLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.record().line())
    }
}

/// Times `simulate` on `leaves` leaves (positions spread over a game) with
/// `playouts_per_leaf` each, `repeats` times after one warm-up, for every
/// Go kernel in `go_kernels` and size in `go_sizes` and Havannah side in
/// `hex_sizes`, at each occupancy in `threads_per_sm` (empty: the tuned
/// default).
#[allow(clippy::too_many_arguments)]
pub fn bench(
    ordinal: usize,
    go_sizes: &[usize],
    hex_sizes: &[usize],
    go_kernels: &[GoKernel],
    leaves: usize,
    playouts_per_leaf: u32,
    repeats: u32,
    threads_per_sm: &[u32],
) -> Result<Vec<BenchLine>, CudaError> {
    let occupancies: Vec<Option<u32>> = if threads_per_sm.is_empty() {
        vec![None]
    } else {
        threads_per_sm.iter().map(|&t| Some(t)).collect()
    };
    let gpu = Gpu::new(ordinal)?;
    let device = gpu.info.name.clone();
    let mut lines = Vec::new();
    let mut go = CudaSimulator::<GoWithPolicy>::with_gpu(gpu)?;
    for (kernel, &size) in go_kernels
        .iter()
        .flat_map(|k| go_sizes.iter().map(move |s| (*k, s)))
        .filter(|(k, s)| k.supports(**s))
    {
        go.set_go_kernel(kernel);
        let start = go::Position::new(size, 7.5).map_err(|_| CudaError::UnsupportedSize {
            game: "go",
            size,
            supported: "2 to 25",
        })?;
        let pos = fixed_positions(
            &GoWithPolicy(start, kernel.policy()),
            leaves,
            size * size / 2,
            7,
        );
        // The point kernel's occupancy follows from its block size alone.
        let block = ((size * size) as u32).div_ceil(32) * 32;
        let fixed = [None];
        let sweep = if kernel.is_point_per_thread() {
            &fixed[..]
        } else {
            &occupancies[..]
        };
        for &tps in sweep {
            go.set_threads_per_sm(tps);
            let rate = time(&go, &pos, playouts_per_leaf, repeats)?;
            lines.push(BenchLine {
                threads_per_sm: match kernel {
                    GoKernel::PointPerThread
                    | GoKernel::PointPerThread3x3
                    | GoKernel::PointPerThreadM2 => block * (2048 / block).min(32),
                    // As many boards as fit in shared memory (0: not swept).
                    GoKernel::PlayoutPerThreadShared => 0,
                    // Sized by the occupancy calculator (0: not swept).
                    GoKernel::Bitboard | GoKernel::BitboardPatterns | GoKernel::Rows => {
                        tps.unwrap_or(0)
                    }
                    GoKernel::PlayoutPerThread
                    | GoKernel::PlayoutPerThread3x3
                    | GoKernel::PlayoutPerThreadM2 => tps.unwrap_or_else(|| {
                        super::tuning::threads_per_sm(super::family::Family::Go, size * size)
                    }),
                },
                game: "go",
                size,
                kernel: kernel.name(),
                policy: kernel.policy().name(),
                leaves,
                playouts_per_leaf,
                playouts_per_second: rate,
                memory_bytes: go.memory_bytes(),
                device: device.clone(),
            });
        }
    }
    let mut hav = CudaSimulator::<havannah::Position>::with_gpu(go.into_gpu())?;
    for variant in HexVariant::ALL {
        hav.set_hex_variant(variant);
        for &side in hex_sizes {
            let start = havannah::Position::new(side).map_err(|_| CudaError::UnsupportedSize {
                game: "havannah",
                size: side,
                supported: "3 to 10",
            })?;
            let pos = fixed_positions(&start, leaves, hex::cell_count(side) / 4, 7);
            let fixed = [None];
            let sweep = if matches!(
                variant.board(),
                HexVariant::CompressShared | HexVariant::Packed
            ) {
                &fixed[..]
            } else {
                &occupancies[..]
            };
            for &tps in sweep {
                hav.set_threads_per_sm(tps);
                let rate = time(&hav, &pos, playouts_per_leaf, repeats)?;
                lines.push(BenchLine {
                    threads_per_sm: match variant.board() {
                        HexVariant::CompressShared | HexVariant::Packed => 0,
                        _ => tps.unwrap_or_else(|| {
                            super::tuning::threads_per_sm(
                                super::family::Family::Havannah,
                                hex::cell_count(side),
                            )
                        }),
                    },
                    game: "havannah",
                    size: side,
                    kernel: match variant.board() {
                        HexVariant::PlainFind => "playout-per-thread/plainfind",
                        HexVariant::CompressShared => "playout-per-thread/compress/shared",
                        HexVariant::Packed => "playout-per-thread/packed/shared",
                        HexVariant::PackedLocal => "playout-per-thread/packed/local",
                        _ => "playout-per-thread/compress",
                    },
                    policy: variant.policy().name(),
                    leaves,
                    playouts_per_leaf,
                    playouts_per_second: rate,
                    memory_bytes: hav.memory_bytes(),
                    device: device.clone(),
                });
            }
        }
    }
    Ok(lines)
}

fn time<G: KernelPosition>(
    sim: &CudaSimulator<G>,
    leaves: &[G],
    playouts: u32,
    repeats: u32,
) -> Result<f64, CudaError> {
    let mut out = vec![LeafStats::default(); leaves.len()];
    sim.try_simulate(leaves, playouts, 0, &mut out)?;
    let mut times = Vec::new();
    for r in 0..repeats.max(1) {
        let t = Instant::now();
        sim.try_simulate(leaves, playouts, r as u64 + 1, &mut out)?;
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let median = times[times.len() / 2];
    let total: u64 = out.iter().map(|s| s.playouts as u64).sum();
    Ok(total as f64 / median)
}
