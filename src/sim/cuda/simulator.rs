//! [`CudaSimulator`]: the [`Simulator`] that runs leaves' playouts on a GPU.
//!
//! One launch covers many leaves: the grid's y axis is the leaf, its x
//! axis the leaf's playouts (one per thread), and each block sums its
//! playouts in shared memory before one atomic add per counter into the
//! leaf's block of device memory. Batches that would exceed
//! [`super::tuning::MAX_DEVICE_BYTES`] or the grid's y limit are split.

use super::device::{GoKernel, Gpu, HexVariant};
use super::hex;
use super::input::{color_code, KernelInput, KernelPosition};
use super::{tuning, CudaError};
use crate::sim::{AmafCount, LeafStats, Simulator};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Largest grid y extent (leaves per launch).
const MAX_LEAVES_PER_LAUNCH: usize = 65_535;

pub struct CudaSimulator<G> {
    gpu: Mutex<Gpu>,
    /// `None`: [`tuning::hex_variant`] for the board size.
    hex_variant: Option<HexVariant>,
    /// `None`: [`tuning::go_kernel`] for the board size.
    go_kernel: Option<GoKernel>,
    peak_bytes: AtomicUsize,
    _game: PhantomData<fn() -> G>,
}

/// Words per leaf in the statistics buffer (mirrors `stats_stride` in
/// kernels/common.cuh).
pub fn stats_stride(moves: usize) -> usize {
    (4 + 5 * moves + 1) & !1
}

impl<G> CudaSimulator<G> {
    /// Opens GPU `ordinal` and compiles the kernels for it.
    pub fn new(ordinal: usize) -> Result<Self, CudaError> {
        Ok(Self::with_gpu(Gpu::new(ordinal)?))
    }

    pub fn with_gpu(gpu: Gpu) -> Self {
        CudaSimulator {
            gpu: Mutex::new(gpu),
            hex_variant: None,
            go_kernel: None,
            peak_bytes: AtomicUsize::new(0),
            _game: PhantomData,
        }
    }

    pub fn set_go_kernel(&mut self, kernel: GoKernel) {
        self.go_kernel = Some(kernel);
    }

    pub fn set_hex_variant(&mut self, variant: HexVariant) {
        self.hex_variant = Some(variant);
    }

    /// Sets the occupancy knob (`None`: [`super::tuning::threads_per_sm`]).
    pub fn set_threads_per_sm(&self, threads: Option<u32>) {
        if let Ok(mut gpu) = self.gpu.lock() {
            gpu.threads_per_sm = threads.map(|t| t.max(32));
        }
    }

    /// Gives the GPU back (to build a simulator for another game on it).
    pub fn into_gpu(self) -> Gpu {
        match self.gpu.into_inner() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Device memory in use at most (bytes): the largest batch's buffers
    /// (bounded by [`tuning::MAX_DEVICE_BYTES`]) plus the local memory the
    /// driver reserves for the per-thread boards (fixed by the kernels:
    /// about 6 KiB a thread for 19x19 Go, times 2048 threads per
    /// multiprocessor).
    pub fn memory_bytes(&self) -> usize {
        let local = self.gpu.lock().map_or(0, |g| g.local_memory_bytes());
        self.peak_bytes.load(Ordering::Relaxed) + local
    }
}

/// A batch of leaves flattened into the kernels' arrays.
struct Batch {
    game: Game,
    size: usize,
    points: usize,
    boards: Vec<u8>,
    headers: Vec<i32>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Game {
    Go,
    Havannah,
}

fn flatten<G: KernelPosition>(leaves: &[G]) -> Result<Batch, CudaError> {
    let mut batch: Option<Batch> = None;
    for leaf in leaves {
        let (game, size, colors, header) = match leaf.kernel_input() {
            KernelInput::Go(g) => {
                let ko = g.ko.map_or(-1, |k| k as i32);
                let komi2 = (g.komi * 2.0).round() as i32;
                let header = [
                    color_code(g.to_move) as i32,
                    ko,
                    g.consecutive_passes as i32,
                    komi2,
                ];
                (Game::Go, g.size, g.colors, header)
            }
            KernelInput::Havannah(h) => (
                Game::Havannah,
                h.side,
                h.colors,
                [color_code(h.to_move) as i32, 0, 0, 0],
            ),
        };
        let points = match game {
            Game::Go => size * size,
            Game::Havannah => hex::cell_count(size),
        };
        if colors.len() != points {
            return Err(CudaError::Input(format!(
                "leaf has {} points, expected {points}",
                colors.len()
            )));
        }
        if batch.is_none() {
            // Refuse sizes without kernels before copying anything, so a
            // caller that falls back to the CPU loses no time here.
            match game {
                Game::Go => super::device::check_go_size(size)?,
                Game::Havannah => super::device::check_hex_size(size)?,
            }
        }
        let b = batch.get_or_insert_with(|| Batch {
            game,
            size,
            points,
            boards: Vec::with_capacity(points * leaves.len()),
            headers: Vec::with_capacity(4 * leaves.len()),
        });
        if b.game != game || b.size != size {
            return Err(CudaError::Input(
                "leaves of one batch must share game and size".into(),
            ));
        }
        b.boards.extend_from_slice(&colors);
        b.headers.extend_from_slice(&header);
    }
    batch.ok_or_else(|| CudaError::Input("empty batch".into()))
}

impl<G: KernelPosition> CudaSimulator<G> {
    /// [`Simulator::simulate`] with its errors.
    pub fn try_simulate(
        &self,
        leaves: &[G],
        playouts_per_leaf: u32,
        seed: u64,
        out: &mut [LeafStats],
    ) -> Result<(), CudaError> {
        if leaves.is_empty() {
            return Ok(());
        }
        if out.len() != leaves.len() {
            return Err(CudaError::Input("out and leaves differ in length".into()));
        }
        let batch = flatten(leaves)?;
        let stride = stats_stride(batch.points);
        let per_leaf_bytes = stride * 4 + batch.points + 16;
        let chunk = (tuning::MAX_DEVICE_BYTES / per_leaf_bytes).clamp(1, MAX_LEAVES_PER_LAUNCH);
        let gpu = self
            .gpu
            .lock()
            .map_err(|_| CudaError::Driver("GPU lock poisoned".into()))?;
        let mut host_stats = Vec::new();
        for (c, start) in (0..leaves.len()).step_by(chunk).enumerate() {
            let end = (start + chunk).min(leaves.len());
            let n = end - start;
            let boards = gpu
                .stream
                .clone_htod(&batch.boards[start * batch.points..end * batch.points])?;
            let headers = gpu.stream.clone_htod(&batch.headers[start * 4..end * 4])?;
            let mut stats = gpu.stream.alloc_zeros::<u32>(n * stride)?;
            self.peak_bytes
                .fetch_max(n * per_leaf_bytes, Ordering::Relaxed);
            // Chunks after the first get their own seed so no two leaves
            // of one call share a stream.
            let chunk_seed = seed ^ (c as u64).wrapping_mul(0xA24B_AED4_963E_E407);
            match batch.game {
                Game::Go => gpu.launch_go(
                    batch.size,
                    self.go_kernel
                        .unwrap_or_else(|| tuning::go_kernel(batch.points)),
                    &boards,
                    &headers,
                    &mut stats,
                    n as u32,
                    playouts_per_leaf,
                    chunk_seed,
                )?,
                Game::Havannah => gpu.launch_hex(
                    batch.size,
                    self.hex_variant
                        .unwrap_or_else(|| tuning::hex_variant(batch.points)),
                    &boards,
                    &headers,
                    &mut stats,
                    n as u32,
                    playouts_per_leaf,
                    chunk_seed,
                )?,
            }
            host_stats.clear();
            host_stats.resize(n * stride, 0);
            gpu.stream.memcpy_dtoh(&stats, &mut host_stats)?;
            gpu.stream.synchronize()?;
            for (i, leaf) in leaves[start..end].iter().enumerate() {
                unpack(
                    leaf,
                    &host_stats[i * stride..(i + 1) * stride],
                    batch.points,
                    &mut out[start + i],
                );
            }
        }
        Ok(())
    }
}

/// Turns one leaf's counter block into [`LeafStats`].
fn unpack<G: KernelPosition>(leaf: &G, words: &[u32], points: usize, stats: &mut LeafStats) {
    stats.reset(leaf.move_space());
    let score2 = (words[0] as u64 | (words[1] as u64) << 32) as i64;
    stats.score_sum = score2 as f64 / 2.0;
    stats.playouts = words[2];
    stats.black_wins = words[3] as f32 / 2.0;
    for k in 0..points {
        let mi = leaf.move_index_of_point(k);
        if mi >= stats.amaf.len() {
            continue;
        }
        for c in 0..2 {
            stats.amaf[mi][c] = AmafCount {
                plays: words[4 + 2 * k + c],
                black_wins: words[4 + 2 * points + 2 * k + c] as f32 / 2.0,
            };
        }
        stats.ownership[mi] = words[4 + 4 * points + k] as i32 as f32;
    }
}

impl<G: KernelPosition> Simulator<G> for CudaSimulator<G> {
    fn name(&self) -> &str {
        "cuda"
    }

    fn simulate(&self, leaves: &[G], playouts_per_leaf: u32, seed: u64, out: &mut [LeafStats]) {
        if let Err(e) = self.try_simulate(leaves, playouts_per_leaf, seed, out) {
            // The trait has no error channel: report, and leave the leaves
            // with zero playouts so the search gives them no weight.
            tracing::error!("CUDA simulation failed: {e}");
            for (leaf, stats) in leaves.iter().zip(out.iter_mut()) {
                stats.reset(leaf.move_space());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::go;

    fn empty(size: usize) -> go::Position {
        go::Position::new(size, 7.5).unwrap()
    }

    #[test]
    fn unpack_reads_the_kernel_counter_layout() {
        let leaf = empty(9);
        let points = 81;
        let stride = stats_stride(points);
        assert_eq!(stride % 2, 0, "the i64 score must stay 8-byte aligned");
        let mut words = vec![0u32; stride];
        let score2: i64 = -15;
        words[0] = score2 as u64 as u32;
        words[1] = ((score2 as u64) >> 32) as u32;
        words[2] = 10;
        words[3] = 7; // 3.5 Black wins
        words[4 + 2 * 5 + 1] = 4; // White first played point 5 in 4 playouts
        words[4 + 2 * points + 2 * 5 + 1] = 3; // Black won 1.5 of those
        words[4 + 4 * points + 6] = (-2i32) as u32;
        let mut stats = LeafStats::default();
        unpack(&leaf, &words, points, &mut stats);
        assert_eq!(stats.playouts, 10);
        assert_eq!(stats.black_wins, 3.5);
        assert_eq!(stats.score_sum, -7.5);
        assert_eq!(stats.amaf.len(), 82);
        assert_eq!(
            stats.amaf[5][1],
            AmafCount {
                plays: 4,
                black_wins: 1.5
            }
        );
        assert_eq!(stats.amaf[5][0], AmafCount::default());
        assert_eq!(stats.ownership[6], -2.0);
    }

    #[test]
    fn without_a_driver_opening_fails_cleanly() {
        if super::super::device::driver_present() {
            return; // a machine with CUDA: nothing to assert here
        }
        assert!(matches!(
            CudaSimulator::<go::Position>::new(0),
            Err(CudaError::NoDriverLibrary)
        ));
        assert!(matches!(
            super::super::probe(),
            Err(CudaError::NoDriverLibrary)
        ));
    }

    #[test]
    fn flatten_rejects_sizes_without_kernels() {
        assert!(matches!(
            flatten(&[empty(7)]),
            Err(CudaError::UnsupportedSize { size: 7, .. })
        ));
    }

    #[test]
    fn flatten_rejects_mixed_sizes() {
        let leaves = [empty(9), empty(13)];
        assert!(matches!(flatten(&leaves), Err(CudaError::Input(_))));
        let batch = flatten(&leaves[..1]).unwrap();
        assert_eq!(batch.boards.len(), 81);
        assert_eq!(batch.headers, vec![1, -1, 0, 15]);
    }
}
