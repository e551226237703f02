//! The driver side: one context with its compiled modules (one per game
//! and board size, compiled on first use), and typed kernel launches.
//! Finding the GPUs is `discovery`'s, the board sizes with kernels
//! `variants`'.

use super::discovery::{device_info, DeviceInfo};
use super::family::Family;
use super::grid::{
    self, playout_config, point_block, point_config, replay_config, whole_waves_config,
};
use super::hex;
use super::modules::Modules;
pub use super::variants::{GoKernel, HexVariant};
use super::CudaError;
use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use std::sync::Arc;

/// A context on one GPU, with each game's kernels for a board size
/// compiled and loaded when that size is first used (see
/// [`Gpu::prepare`]).
pub struct Gpu {
    pub info: DeviceInfo,
    pub ctx: Arc<CudaContext>,
    /// The stream of set-up work, replays and constant reads. Playout
    /// launches run on the caller's stream (one per launch slot, see
    /// `simulator.rs`), so that batches of several threads overlap.
    pub stream: Arc<CudaStream>,
    /// Each family's modules, indexed by `Family as usize`.
    pub(super) modules: [Modules; Family::ALL.len()],
    /// Which kernels the modules hold (see the manifest,
    /// `kernels/manifest`): all of them unless the engine asked for only
    /// its own.
    pub(super) kernel_set: super::compile::KernelSet,
    /// Largest per-thread local memory of a kernel launched so far; the
    /// driver reserves it for every thread the device can hold.
    local_bytes_per_thread: std::sync::atomic::AtomicUsize,
    /// Playout threads launched per multiprocessor; `None` uses
    /// [`super::tuning::threads_per_sm`] for the game and size.
    pub threads_per_sm: Option<u32>,
    /// Threads per block of the bitboard kernels, instead of
    /// `grid::bitboard_block`'s choice (check-gpu compares sizes).
    pub bits_block: Option<u32>,
}

impl Gpu {
    pub fn new(ordinal: usize) -> Result<Gpu, CudaError> {
        let info = device_info(ordinal)?;
        let ctx = CudaContext::new(ordinal)?;
        let stream = ctx.new_stream()?;
        Ok(Gpu {
            info,
            ctx,
            stream,
            modules: Default::default(),
            kernel_set: Default::default(),
            threads_per_sm: None,
            bits_block: None,
            local_bytes_per_thread: Default::default(),
        })
    }

    fn go_function(&self, kind: &str, size: usize) -> Result<CudaFunction, CudaError> {
        let go = self.module(Family::Go, size)?;
        Ok(go.load_function(&format!("go_{kind}_{size}"))?)
    }

    fn go_bits_function(&self, kind: &str, size: usize) -> Result<CudaFunction, CudaError> {
        let go = self.module(Family::Go, size)?;
        Ok(go.load_function(&format!("go_bits_{kind}_{size}"))?)
    }

    fn hex_function(&self, kind: &str, side: usize) -> Result<CudaFunction, CudaError> {
        let hex = self.module(Family::Havannah, side)?;
        Ok(hex.load_function(&format!("hex_{kind}_{side}"))?)
    }

    /// Launches Go playouts on `stream`: `leaves` headers (5 × i32 each:
    /// to move, ko, passes, komi in half points, last move), `boards` (size²
    /// bytes per leaf), accumulating into `stats` (per-leaf blocks, see
    /// common.cuh). The buffers may be longer than `leaf_count` leaves
    /// need (reused buffers); the kernel reads only the first ones.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_go(
        &self,
        stream: &CudaStream,
        size: usize,
        kernel: GoKernel,
        boards: &CudaSlice<u8>,
        leaves: &CudaSlice<i32>,
        stats: &mut CudaSlice<u32>,
        leaf_count: u32,
        playouts_per_leaf: u32,
        seed: u64,
    ) -> Result<(), CudaError> {
        let sms = self.info.multiprocessors.max(1) as u32;
        let (f, cfg) = match kernel {
            GoKernel::PlayoutPerThread
            | GoKernel::PlayoutPerThread3x3
            | GoKernel::PlayoutPerThreadM2 => (
                self.go_function(
                    match kernel {
                        GoKernel::PlayoutPerThread3x3 => "3x3",
                        GoKernel::PlayoutPerThreadM2 => "m2",
                        _ => "random",
                    },
                    size,
                )?,
                playout_config(
                    leaf_count,
                    playouts_per_leaf,
                    sms,
                    self.threads_per_sm
                        .unwrap_or(super::tuning::threads_per_sm(Family::Go, size * size)),
                ),
            ),
            GoKernel::PointPerThread => (
                self.go_function("points_random", size)?,
                point_config(leaf_count, playouts_per_leaf, sms, size),
            ),
            GoKernel::PointPerThread3x3 | GoKernel::PointPerThreadM2 => {
                let name = if kernel == GoKernel::PointPerThread3x3 {
                    "points_3x3"
                } else {
                    "points_m2"
                };
                (
                    self.go_function(name, size)?,
                    point_config(leaf_count, playouts_per_leaf, sms, size),
                )
            }
            GoKernel::Bitboard | GoKernel::BitboardPatterns => {
                let name = if kernel == GoKernel::Bitboard {
                    "random"
                } else {
                    "patterns"
                };
                let f = self.go_bits_function(name, size)?;
                let block = match self.bits_block {
                    Some(b) => b,
                    None => grid::bitboard_block(playouts_per_leaf, |b| {
                        f.occupancy_max_active_blocks_per_multiprocessor(b, 0, None)
                            .unwrap_or(0)
                    }),
                };
                let cfg = self.waves_config(&f, leaf_count, playouts_per_leaf, 32, block)?;
                (f, cfg)
            }
            GoKernel::Rows => {
                // A warp plays one playout at a time.
                let f = self.go_function("rows_random", size)?;
                let block = super::tuning::PLAYOUT_BLOCK;
                let cfg = self.waves_config(&f, leaf_count, playouts_per_leaf, 1, block)?;
                (f, cfg)
            }
            GoKernel::PlayoutPerThreadShared => {
                let f = self.go_function("shared", size)?;
                let per_thread =
                    self.read_global_u32(Family::Go, size, &format!("go_shared_bytes_{size}"))?;
                let cfg = self.shared_config(&f, per_thread, leaf_count, playouts_per_leaf)?;
                (f, cfg)
            }
        };
        // Boards of N² bytes and headers of `Family::Go.header_words()` i32 per leaf.
        self.launch_playouts(
            stream,
            &f,
            cfg,
            boards,
            leaves,
            stats,
            playouts_per_leaf,
            seed,
        )
    }

    fn note_local_memory(&self, f: &CudaFunction) {
        if let Ok(bytes) = f.local_size_bytes() {
            self.local_bytes_per_thread
                .fetch_max(bytes.max(0) as usize, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Device memory the driver reserves for the kernels' local memory
    /// (per-thread boards): the largest per-thread size launched so far
    /// times the threads the device can hold (2048 per multiprocessor).
    pub fn local_memory_bytes(&self) -> usize {
        self.local_bytes_per_thread
            .load(std::sync::atomic::Ordering::Relaxed)
            * self.info.multiprocessors.max(0) as usize
            * 2048
    }

    /// A `u32` the kernels export as a `__constant__` (sizes of device
    /// structs the host must not guess).
    fn read_global_u32(&self, source: Family, size: usize, name: &str) -> Result<u32, CudaError> {
        let module = self.module(source, size)?;
        let mut symbol = module.get_global(name, &self.stream)?;
        // SAFETY: the symbol is one `u32` (`extern "C" __constant__ u32`).
        let view = unsafe { symbol.transmute_mut::<u32>(1) }
            .ok_or_else(|| CudaError::Driver(format!("{name} is not a u32")))?;
        let mut out = [0u32];
        self.stream.memcpy_dtoh(&view, &mut out)?;
        self.stream.synchronize()?;
        Ok(out[0])
    }

    /// Shared memory a block may opt in to (bytes).
    fn max_shared_per_block(&self) -> Result<u32, CudaError> {
        Ok(self
            .ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?
            as u32)
    }

    /// Grid for a kernel whose threads keep their boards in dynamic shared
    /// memory (`per_thread` bytes each): one block per multiprocessor with
    /// as many threads as fit, every leaf getting at least one block.
    /// Grid for `f`, a kernel whose warps each play `playouts_per_warp`
    /// playouts a round: whole waves of the blocks the occupancy
    /// calculator fits, unless `threads_per_sm` is set (then sized as if
    /// each playout took 32 / `playouts_per_warp` threads).
    fn waves_config(
        &self,
        f: &CudaFunction,
        leaf_count: u32,
        playouts_per_leaf: u32,
        playouts_per_warp: u32,
        block: u32,
    ) -> Result<LaunchConfig, CudaError> {
        let sms = self.info.multiprocessors.max(1) as u32;
        Ok(match self.threads_per_sm {
            Some(t) => {
                let thread_playouts = playouts_per_leaf * (32 / playouts_per_warp.clamp(1, 32));
                playout_config(leaf_count, thread_playouts, sms, t)
            }
            None => {
                let per_sm = f.occupancy_max_active_blocks_per_multiprocessor(block, 0, None)?;
                whole_waves_config(
                    leaf_count,
                    playouts_per_leaf,
                    sms * per_sm.max(1),
                    playouts_per_warp,
                    block,
                )
            }
        })
    }

    fn shared_config(
        &self,
        f: &CudaFunction,
        per_thread: u32,
        leaves: u32,
        playouts_per_leaf: u32,
    ) -> Result<LaunchConfig, CudaError> {
        let optin = self.max_shared_per_block()?;
        let fixed = f.shared_size_bytes()? as u32 + 1024;
        let fit = optin.saturating_sub(fixed) / per_thread.max(1);
        if fit == 0 {
            return Err(CudaError::Input(format!(
                "a {per_thread}-byte board does not fit in shared memory"
            )));
        }
        let threads = if fit >= 64 {
            (fit / 32 * 32).min(256)
        } else {
            fit
        };
        let dynamic = threads * per_thread;
        f.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            dynamic as i32,
        )?;
        let sms = self.info.multiprocessors.max(1) as u32;
        let blocks = sms
            .div_ceil(leaves.max(1))
            .clamp(1, playouts_per_leaf.div_ceil(threads).max(1));
        Ok(LaunchConfig {
            grid_dim: (blocks, leaves, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: dynamic,
        })
    }

    /// Grid for a kernel whose threads interleave their boards in dynamic
    /// shared memory (`per_thread` bytes each): the block size (a multiple
    /// of 32) that lets the most threads reside per multiprocessor, as the
    /// driver's occupancy calculator says (registers and static shared
    /// memory included); ties go to smaller blocks, which balance better.
    fn interleaved_config(
        &self,
        f: &CudaFunction,
        per_thread: u32,
        leaves: u32,
        playouts_per_leaf: u32,
    ) -> Result<LaunchConfig, CudaError> {
        let optin = self.max_shared_per_block()?;
        let room = optin.saturating_sub(f.shared_size_bytes()? as u32);
        f.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            room as i32,
        )?;
        let mut best: Option<(u32, u32)> = None; // (threads per block, blocks per SM)
        for threads in (32..=1024).step_by(32) {
            let dynamic = threads * per_thread;
            if dynamic > room {
                break;
            }
            let blocks =
                f.occupancy_max_active_blocks_per_multiprocessor(threads, dynamic as usize, None)?;
            if blocks > 0 && best.is_none_or(|(t, b)| threads * blocks > t * b) {
                best = Some((threads, blocks));
            }
        }
        let (threads, per_sm) = best.ok_or_else(|| {
            CudaError::Input(format!(
                "a {per_thread}-byte board does not fit in shared memory"
            ))
        })?;
        let sms = self.info.multiprocessors.max(1) as u32;
        let blocks = (sms * per_sm)
            .div_ceil(leaves.max(1))
            .clamp(1, playouts_per_leaf.div_ceil(threads).max(1));
        Ok(LaunchConfig {
            grid_dim: (blocks, leaves, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: threads * per_thread,
        })
    }

    /// Launches Havannah playouts on `stream`; like [`Gpu::launch_go`]
    /// with 4 × i32 headers (to move, padding) and one byte per cell.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_hex(
        &self,
        stream: &CudaStream,
        side: usize,
        variant: HexVariant,
        boards: &CudaSlice<u8>,
        leaves: &CudaSlice<i32>,
        stats: &mut CudaSlice<u32>,
        leaf_count: u32,
        playouts_per_leaf: u32,
        seed: u64,
    ) -> Result<(), CudaError> {
        let f = self.hex_function(variant.stem(), side)?;
        // The tactical variants launch as the uniform ones of their board.
        let board = variant.board();
        let cfg = if board == HexVariant::CompressShared {
            let per_thread =
                self.read_global_u32(Family::Havannah, side, &format!("hex_shared_bytes_{side}"))?;
            self.shared_config(&f, per_thread, leaf_count, playouts_per_leaf)?
        } else if board == HexVariant::Packed {
            let per_thread =
                self.read_global_u32(Family::Havannah, side, &format!("hex_packed_bytes_{side}"))?;
            self.interleaved_config(&f, per_thread, leaf_count, playouts_per_leaf)?
        } else {
            playout_config(
                leaf_count,
                playouts_per_leaf,
                self.info.multiprocessors.max(1) as u32,
                self.threads_per_sm.unwrap_or(super::tuning::threads_per_sm(
                    Family::Havannah,
                    hex::cell_count(side),
                )),
            )
        };
        // Boards of `cells` bytes and headers of 4 i32 per leaf. The
        // packed kernels also need blockDim.x to be a multiple of 32 (warp
        // ballots): both of their configs give that.
        self.launch_playouts(
            stream,
            &f,
            cfg,
            boards,
            leaves,
            stats,
            playouts_per_leaf,
            seed,
        )
    }

    /// Launches a playout kernel: every Go and Havannah playout kernel
    /// takes `(const u8* boards, const Leaf* leaves, u32* stats, u32
    /// playouts_per_leaf, u64 seed)` with grid y = leaf count.
    #[allow(clippy::too_many_arguments)]
    fn launch_playouts(
        &self,
        stream: &CudaStream,
        f: &CudaFunction,
        cfg: LaunchConfig,
        boards: &CudaSlice<u8>,
        leaves: &CudaSlice<i32>,
        stats: &mut CudaSlice<u32>,
        playouts_per_leaf: u32,
        seed: u64,
    ) -> Result<(), CudaError> {
        self.note_local_memory(f);
        let mut b = stream.launch_builder(f);
        b.arg(boards)
            .arg(leaves)
            .arg(stats)
            .arg(&playouts_per_leaf)
            .arg(&seed);
        // SAFETY: go_{random,3x3,m2,shared}_N, go_points_{random,3x3,m2}_N,
        // go_bits_{random,patterns}_N and
        // hex_{random,plainfind,shared,packed,packedlocal}_S all take (const u8* boards, const Leaf* leaves, u32* stats, u32
        // playouts_per_leaf, u64 seed). The callers size the buffers for
        // cfg.grid_dim.1 leaves: boards at least leaves × points bytes,
        // leaves at least leaves × the game's header words (Go
        // GO_HEADER_WORDS = 5, Havannah 4) i32, stats at least leaves ×
        // stats_stride(points) u32; no block reads past its leaf. The
        // buffers belong to `stream`'s slot and stay alive and untouched by
        // the host until that stream is synchronised.
        unsafe { b.launch(cfg) }?;
        Ok(())
    }

    /// Replays Go move sequences (`max_moves` u16 per sequence, 0xFFFF
    /// ends one early) from the empty board. Returns (final boards,
    /// 4 i32 results per sequence).
    pub fn replay_go(
        &self,
        size: usize,
        kernel: GoKernel,
        moves: &[u16],
        max_moves: usize,
    ) -> Result<(Vec<u8>, Vec<i32>), CudaError> {
        let f = match kernel {
            GoKernel::PlayoutPerThread
            | GoKernel::PlayoutPerThreadShared
            | GoKernel::PlayoutPerThread3x3
            | GoKernel::PlayoutPerThreadM2 => self.go_function("replay", size)?,
            GoKernel::PointPerThread | GoKernel::PointPerThread3x3 | GoKernel::PointPerThreadM2 => {
                self.go_function("points_replay", size)?
            }
            GoKernel::Bitboard | GoKernel::BitboardPatterns => {
                self.go_bits_function("replay", size)?
            }
            GoKernel::Rows => self.go_function("rows_replay", size)?,
        };
        let sequences = check_sequences(moves.len(), max_moves)?;
        let d_moves = self.stream.clone_htod(moves)?;
        let mut d_boards = self.stream.alloc_zeros::<u8>(sequences * size * size)?;
        let mut d_result = self.stream.alloc_zeros::<i32>(sequences * 4)?;
        let (max, seqs) = (max_moves as u32, sequences as u32);
        let mut b = self.stream.launch_builder(&f);
        b.arg(&d_moves)
            .arg(&max)
            .arg(&seqs)
            .arg(&mut d_boards)
            .arg(&mut d_result);
        // SAFETY: go_replay_N and go_points_replay_N(const u16* moves, u32
        // max_moves, u32 sequences, u8* boards_out, i32* result): moves has
        // sequences × max_moves entries, boards_out sequences × N², result
        // sequences × 4. The point kernel runs one block per sequence,
        // go_rows_replay_N one warp per sequence.
        let cfg = match kernel {
            GoKernel::PlayoutPerThread
            | GoKernel::PlayoutPerThreadShared
            | GoKernel::PlayoutPerThread3x3
            | GoKernel::PlayoutPerThreadM2
            | GoKernel::Bitboard
            | GoKernel::BitboardPatterns => replay_config(seqs),
            GoKernel::PointPerThread | GoKernel::PointPerThread3x3 | GoKernel::PointPerThreadM2 => {
                LaunchConfig {
                    grid_dim: (seqs.max(1), 1, 1),
                    block_dim: (point_block(size), 1, 1),
                    shared_mem_bytes: 0,
                }
            }
            GoKernel::Rows => {
                let block = super::tuning::REPLAY_BLOCK;
                LaunchConfig {
                    grid_dim: (seqs.div_ceil(block / 32).max(1), 1, 1),
                    block_dim: (block, 1, 1),
                    shared_mem_bytes: 0,
                }
            }
        };
        unsafe { b.launch(cfg) }?;
        Ok((
            self.stream.clone_dtoh(&d_boards)?,
            self.stream.clone_dtoh(&d_result)?,
        ))
    }

    /// Replays Havannah sequences with `variant`'s board code; `first` is
    /// the colour code moving first.
    pub fn replay_hex(
        &self,
        side: usize,
        variant: HexVariant,
        moves: &[u16],
        max_moves: usize,
        first: i32,
    ) -> Result<(Vec<u8>, Vec<i32>), CudaError> {
        let f = self.hex_function(variant.replay_stem(), side)?;
        let cells = hex::cell_count(side);
        let sequences = check_sequences(moves.len(), max_moves)?;
        let d_moves = self.stream.clone_htod(moves)?;
        let mut d_boards = self.stream.alloc_zeros::<u8>(sequences * cells)?;
        let mut d_result = self.stream.alloc_zeros::<i32>(sequences * 4)?;
        let (max, seqs) = (max_moves as u32, sequences as u32);
        let mut b = self.stream.launch_builder(&f);
        b.arg(&d_moves)
            .arg(&max)
            .arg(&seqs)
            .arg(&first)
            .arg(&mut d_boards)
            .arg(&mut d_result);
        // SAFETY: hex_replay_S and hex_packed_replay_S(const u16* moves, u32 max_moves, u32
        // sequences, i32 first_color, u8* boards_out, i32* result): sizes
        // as for Go with `cells` bytes per board.
        unsafe { b.launch(replay_config(seqs)) }?;
        Ok((
            self.stream.clone_dtoh(&d_boards)?,
            self.stream.clone_dtoh(&d_result)?,
        ))
    }
}

fn check_sequences(len: usize, max_moves: usize) -> Result<usize, CudaError> {
    if max_moves == 0 || !len.is_multiple_of(max_moves) {
        return Err(CudaError::Input(format!(
            "{len} moves is not a whole number of {max_moves}-move sequences"
        )));
    }
    Ok(len / max_moves)
}
