//! [`CudaSimulator`]: the [`Simulator`] that runs leaves' playouts on a GPU.
//!
//! One launch covers many leaves: the grid's y axis is the leaf, its x
//! axis the leaf's playouts (one per thread), and each block sums its
//! playouts in shared memory before one atomic add per counter into the
//! leaf's block of device memory. Batches that would exceed a slot's
//! share of [`super::tuning::MAX_DEVICE_BYTES`] or the grid's y limit are
//! split.
//!
//! Concurrent calls (one per search thread) each take a launch slot (see
//! [`super::slot`]): [`super::tuning::SLOTS_PER_GPU`] streams with their
//! own reused buffers, so one thread's kernel runs while another's copies
//! go through and the host threads descend and back up the tree.

use super::device::{GoKernel, Gpu, HexVariant};
use super::family::{Family, KernelChoice, MAX_HEADER_WORDS};
use super::input::KernelPosition;
use super::slot::{ensure_len, Slot, Slots};
use super::variants::HexPolicy;
use super::{tuning, CudaError};
use crate::sim::go_rollout::GoPolicy;
use crate::sim::{AmafCount, LeafStats, Simulator};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest grid y extent (leaves per launch).
const MAX_LEAVES_PER_LAUNCH: usize = 65_535;

pub struct CudaSimulator<G> {
    /// Shared by every slot: the context and the loaded modules and
    /// functions are read-only once built.
    gpu: Gpu,
    slots: Slots<Slot>,
    /// `None`: [`tuning::hex_variant`] for the board size and `hex_policy`.
    hex_variant: Option<HexVariant>,
    hex_policy: HexPolicy,
    /// `None`: [`tuning::go_kernel`] for the board size and `go_policy`.
    go_kernel: Option<GoKernel>,
    go_policy: GoPolicy,
    /// Device bytes every slot's buffers hold together.
    allocated: AtomicUsize,
    _game: PhantomData<fn() -> G>,
}

/// Words per leaf in the statistics buffer (mirrors `stats_stride` in
/// kernels/common.cuh).
pub fn stats_stride(moves: usize) -> usize {
    (4 + 5 * moves + 1) & !1
}

/// Leaves one launch of a slot may carry: each slot keeps to its share of
/// [`tuning::MAX_DEVICE_BYTES`] (so all slots together stay under it) and
/// to the grid's y limit.
fn leaves_per_chunk(points: usize, slots: usize) -> usize {
    let per_leaf_bytes = stats_stride(points) * 4 + points + 4 * MAX_HEADER_WORDS;
    (tuning::MAX_DEVICE_BYTES / slots.max(1) / per_leaf_bytes).clamp(1, MAX_LEAVES_PER_LAUNCH)
}

impl<G> CudaSimulator<G> {
    /// Opens GPU `ordinal`; its kernels are compiled per board size on
    /// first use (see [`Gpu::prepare`]).
    pub fn new(ordinal: usize) -> Result<Self, CudaError> {
        Self::with_gpu(Gpu::new(ordinal)?)
    }

    /// A simulator on `gpu` with [`tuning::SLOTS_PER_GPU`] launch slots.
    pub fn with_gpu(gpu: Gpu) -> Result<Self, CudaError> {
        Self::with_slots(gpu, tuning::SLOTS_PER_GPU)
    }

    /// A simulator with `slots` launch slots (at least one), each on a
    /// stream of its own.
    pub fn with_slots(gpu: Gpu, slots: usize) -> Result<Self, CudaError> {
        let slots = (0..slots.max(1))
            .map(|_| Ok(Slot::new(gpu.ctx.new_stream()?)))
            .collect::<Result<Vec<_>, CudaError>>()?;
        Ok(CudaSimulator {
            gpu,
            slots: Slots::new(slots),
            hex_variant: None,
            hex_policy: HexPolicy::default(),
            go_kernel: None,
            go_policy: GoPolicy::default(),
            allocated: AtomicUsize::new(0),
            _game: PhantomData,
        })
    }

    /// Go playouts on `kernel` whatever the policy; every kernel is
    /// compiled then (A/B comparisons).
    pub fn set_go_kernel(&mut self, kernel: GoKernel) {
        self.go_kernel = Some(kernel);
        self.gpu.kernel_set = super::compile::KernelSet::All;
    }

    /// Compiles only the kernels the engine plays `policy` with (the
    /// manifest's `engine` files, and `points` for the 3x3 and M2
    /// policies): a fresh GPU host answers its first `boardsize` sooner.
    /// Call it before the first board size is prepared.
    pub fn compile_only_for(&mut self, policy: GoPolicy) {
        self.set_go_policy(policy);
        self.gpu.kernel_set = super::compile::KernelSet::Engine(policy);
    }

    /// Threads per block of the bitboard kernels (`None`: the host's
    /// choice by leaf size); for check-gpu's block comparison.
    pub fn set_bits_block(&mut self, block: Option<u32>) {
        self.gpu.bits_block = block;
    }

    /// Go playouts with `policy`, on the kernel [`tuning::go_kernel`]
    /// picks for each board size (unless `set_go_kernel` fixed one).
    pub fn set_go_policy(&mut self, policy: GoPolicy) {
        self.go_policy = policy;
    }

    /// Havannah playouts on `variant` whatever the policy.
    pub fn set_hex_variant(&mut self, variant: HexVariant) {
        self.hex_variant = Some(variant);
    }

    /// Havannah playouts with `policy` (the default: tactical), on the
    /// variant [`tuning::hex_variant`] picks for each board size (unless
    /// `set_hex_variant` fixed one).
    pub fn set_hex_policy(&mut self, policy: HexPolicy) {
        self.hex_policy = policy;
    }

    /// Sets the occupancy knob (`None`: [`super::tuning::threads_per_sm`]).
    pub fn set_threads_per_sm(&mut self, threads: Option<u32>) {
        self.gpu.threads_per_sm = threads.map(|t| t.max(32));
    }

    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Gives the GPU back (to build a simulator for another game on it);
    /// the slots' streams and buffers are freed.
    pub fn into_gpu(self) -> Gpu {
        drop(self.slots.into_inner());
        self.gpu
    }

    /// Device memory in use (bytes): every slot's buffers (together at
    /// most [`tuning::MAX_DEVICE_BYTES`], each slot keeping to its share)
    /// plus the local memory the driver reserves for the per-thread boards
    /// (fixed by the kernels: about 6 KiB a thread for 19x19 Go, times
    /// 2048 threads per multiprocessor).
    pub fn memory_bytes(&self) -> usize {
        self.allocated.load(Ordering::Relaxed) + self.gpu.local_memory_bytes()
    }
}

/// What the kernels need to know of a batch besides its arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BatchShape {
    source: Family,
    size: usize,
    points: usize,
}

/// Flattens `leaves` into the kernels' arrays, `boards` (one colour byte
/// per point per leaf) and `headers` ([`header_words`] i32 per
/// leaf), reusing their allocations.
fn flatten_into<G: KernelPosition>(
    leaves: &[G],
    boards: &mut Vec<u8>,
    headers: &mut Vec<i32>,
) -> Result<BatchShape, CudaError> {
    boards.clear();
    headers.clear();
    let mut shape: Option<BatchShape> = None;
    for leaf in leaves {
        let input = leaf.kernel_input();
        let (source, size) = (input.family, input.size);
        let points = source.points(size);
        if input.colors.len() != points {
            return Err(CudaError::Input(format!(
                "leaf has {} points, expected {points}",
                input.colors.len()
            )));
        }
        let here = BatchShape {
            source,
            size,
            points,
        };
        match shape {
            None => {
                // Refuse sizes without kernels before copying anything, so
                // a caller that falls back to the CPU loses no time here.
                source.check_size(size)?;
                boards.reserve(points * leaves.len());
                headers.reserve(source.header_words() * leaves.len());
                shape = Some(here);
            }
            Some(s) if s != here => {
                return Err(CudaError::Input(
                    "leaves of one batch must share game and size".into(),
                ))
            }
            Some(_) => {}
        }
        boards.extend_from_slice(&input.colors);
        headers.extend_from_slice(&input.header[..source.header_words()]);
    }
    shape.ok_or_else(|| CudaError::Input("empty batch".into()))
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
        let mut guard = self
            .slots
            .take()
            .ok_or_else(|| CudaError::Driver("no launch slot".into()))?;
        let slot = &mut *guard;
        let shape = flatten_into(leaves, &mut slot.host_boards, &mut slot.host_headers)?;
        let points = shape.points;
        let stride = stats_stride(points);
        let words = shape.source.header_words();
        let chunk = leaves_per_chunk(points, self.slots.len());
        let stream = slot.stream.clone();
        for (c, start) in (0..leaves.len()).step_by(chunk).enumerate() {
            let end = (start + chunk).min(leaves.len());
            let n = end - start;
            let boards = ensure_len(&mut slot.boards, n * points, &stream, &self.allocated)?;
            stream.memcpy_htod(
                &slot.host_boards[start * points..end * points],
                &mut boards.slice_mut(0..n * points),
            )?;
            let headers = ensure_len(&mut slot.headers, n * words, &stream, &self.allocated)?;
            stream.memcpy_htod(
                &slot.host_headers[start * words..end * words],
                &mut headers.slice_mut(0..n * words),
            )?;
            let stats = ensure_len(&mut slot.stats, n * stride, &stream, &self.allocated)?;
            // The kernels add into the counters: zero this chunk's part on
            // the same stream, ordered before the launch.
            stream.memset_zeros(&mut stats.slice_mut(0..n * stride))?;
            let (Some(boards), Some(headers), Some(stats)) =
                (&slot.boards, &slot.headers, &mut slot.stats)
            else {
                return Err(CudaError::Driver("slot buffers missing".into()));
            };
            // Chunks after the first get their own seed so no two leaves
            // of one call share a stream.
            let chunk_seed = seed ^ (c as u64).wrapping_mul(0xA24B_AED4_963E_E407);
            let choice = KernelChoice {
                go: self
                    .go_kernel
                    .unwrap_or_else(|| tuning::go_kernel(points, self.go_policy)),
                hex: self
                    .hex_variant
                    .unwrap_or_else(|| tuning::hex_variant(points, self.hex_policy)),
            };
            shape.source.launch(
                &self.gpu,
                &stream,
                shape.size,
                choice,
                boards,
                headers,
                stats,
                n as u32,
                playouts_per_leaf,
                chunk_seed,
            )?;
            slot.host_stats.clear();
            slot.host_stats.resize(n * stride, 0);
            stream.memcpy_dtoh(&stats.slice(0..n * stride), &mut slot.host_stats)?;
            // Only this slot's stream: other threads' launches go on.
            stream.synchronize()?;
            for (i, leaf) in leaves[start..end].iter().enumerate() {
                unpack(
                    leaf,
                    &slot.host_stats[i * stride..(i + 1) * stride],
                    points,
                    &mut out[start + i],
                );
            }
        }
        Ok(())
    }
}

/// Turns one leaf's counter block into [`LeafStats`].
fn unpack<G: KernelPosition>(leaf: &G, words: &[u32], points: usize, stats: &mut LeafStats) {
    stats.reset_for(leaf);
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
        if let Some(own) = stats.ownership.get_mut(leaf.cell_of_point(k)) {
            *own = words[4 + 4 * points + k] as i32 as f32;
        }
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
                stats.reset_for(leaf);
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
        if super::super::discovery::driver_present() {
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

    fn flatten(leaves: &[go::Position]) -> Result<(Vec<u8>, Vec<i32>), CudaError> {
        let (mut boards, mut headers) = (vec![9; 3], vec![9; 2]);
        flatten_into(leaves, &mut boards, &mut headers).map(|_| (boards, headers))
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
        let (boards, headers) = flatten(&leaves[..1]).unwrap();
        assert_eq!(boards, vec![0; 81], "reused buffers start afresh");
        assert_eq!(headers, vec![1, -1, 0, 15, -1]);
    }

    #[test]
    fn go_headers_carry_the_last_move_and_hex_headers_stay_short() {
        use crate::game::Game;
        let mut pos = empty(9);
        let p = pos.point(2, 3).unwrap();
        Game::play(&mut pos, go::Move::Play(p)).unwrap();
        let (_, headers) = flatten(std::slice::from_ref(&pos)).unwrap();
        assert_eq!(headers, vec![2, -1, 0, 15, 3 * 9 + 2]);
        Game::play(&mut pos, go::Move::Pass).unwrap();
        let (_, headers) = flatten(&[pos]).unwrap();
        assert_eq!(headers, vec![1, -1, 1, 15, -1], "no last move after a pass");
        let mut hex = crate::game::havannah::Position::new(4).unwrap();
        let (mut boards, mut headers) = (Vec::new(), Vec::new());
        flatten_into(std::slice::from_ref(&hex), &mut boards, &mut headers).unwrap();
        assert_eq!(headers, vec![2, -1, 0, 0], "White to move, no last move");
        // The tactical kernels read the last stone from the header.
        let c = hex.parse_cell("b2").unwrap();
        Game::play(&mut hex, crate::game::havannah::Move::Play(c)).unwrap();
        flatten_into(&[hex], &mut boards, &mut headers).unwrap();
        assert_eq!(headers, vec![1, c.0 as i32, 0, 0]);
        assert_eq!(headers.len(), Family::Havannah.header_words());
    }

    #[test]
    fn every_slot_keeps_to_its_share_of_device_memory() {
        for points in [81, 169, 361, 37, 271] {
            for slots in [1, 2, 4] {
                let chunk = leaves_per_chunk(points, slots);
                let per_leaf = stats_stride(points) * 4 + points + 4 * MAX_HEADER_WORDS;
                assert!(chunk * per_leaf * slots <= tuning::MAX_DEVICE_BYTES);
                assert!((1..=MAX_LEAVES_PER_LAUNCH).contains(&chunk));
            }
        }
    }
}
