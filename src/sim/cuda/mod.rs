//! The CUDA leaf-simulation backend.
//!
//! The UCT tree stays on the host; [`CudaSimulator`] sends batches of leaves
//! to playout kernels (Go: one light playout per thread on a compact board
//! with pseudo-liberty strings; Havannah: one playout per thread with a
//! disjoint-set forest, after Werner (2012)) and turns the per-leaf counters
//! they return into [`crate::sim::LeafStats`].
//!
//! Everything loads at run time: the CUDA driver and NVRTC through cudarc's
//! dynamic loading (the build needs no CUDA toolkit), the kernels from
//! `kernels/*.cu` (embedded) compiled by NVRTC for the device's own
//! `compute_XY`. Every failure — no library, no device, a compile error
//! with its log — is a [`CudaError`], never a panic: the library presence
//! is checked before the first cudarc call, because cudarc panics when it
//! cannot load one.
//!
//! - [`compile`]: kernel sources and NVRTC; [`compile_all`] needs no GPU.
//! - [`discovery`]: finding the GPUs (without contexts); [`device`]: the
//!   driver side: context, launches; `modules`: each game's kernels
//!   compiled and loaded per board size on first use.
//! - [`family`]: the kernel families, one per game with kernels: all the
//!   backend knows of a family (header words, points, sizes with kernels,
//!   tables, launch and replay entry points) in one place.
//! - [`variants`]: the kernel flavours per family ([`GoKernel`], [`HexVariant`]).
//! - [`hex`]: Havannah board geometry shared by the host and the kernels.
//! - [`input`]: how a position becomes kernel input ([`KernelPosition`]).
//! - [`simulator`]: the simulator itself, [`CudaSimulator`]; [`slot`]: its
//!   launch slots (a stream and reused buffers per batch in flight).
//! - [`multi`]: [`GpuSimulator`], what the engine's search uses (several
//!   GPUs, CPU-policy priors, CPU fallback for sizes without kernels).
//! - [`check`], [`replay`], [`bench`](mod@bench), [`positions`]: the GPU check
//!   (orchestration, with the statistics in `check_stats` and the per-point
//!   tables in `check_tables`; exact replays; [`check_exact`]: a kernel's
//!   counters against the CPU policy's from the kernel's own streams) against the project's own
//!   rules in `crate::game`, and `bench`.

pub mod amazons;
pub mod amazons_sim;
pub mod bench;
pub mod check;
pub mod check_amazons;
pub mod check_exact;
mod check_stats;
mod check_tables;
pub mod compile;
pub mod compile_amazons;
pub mod device;
pub mod discovery;
pub mod family;
mod grid;
pub mod hex;
pub mod input;
mod modules;
pub mod multi;
pub mod positions;
pub mod replay;
pub mod simulator;
pub mod slot;
pub mod variants;

pub use bench::{bench, BenchLine};
pub use check::{
    check_against, fill_cpu_cache_for, CheckLine, CheckOptions, CheckReport, CpuRules,
};
pub use compile::compile_all;
pub use device::{GoKernel, Gpu, HexVariant};
pub use discovery::{probe, DeviceInfo};
pub use input::{GoLeafInput, HexLeafInput, KernelInput, KernelPosition};
pub use multi::GpuSimulator;
pub use simulator::CudaSimulator;
pub use variants::HexPolicy;

/// Tuning constants of the CUDA backend, in one place.
pub mod tuning {
    use crate::sim::go_rollout::GoPolicy;

    /// Threads per block of the playout kernels. Each block serves one leaf
    /// and keeps that leaf's counters in shared memory.
    pub const PLAYOUT_BLOCK: u32 = 128;
    /// Playout threads per multiprocessor for a board of `points` points
    /// (Havannah: cells) of `source`'s kernels. Each thread's board lives in local memory, so
    /// fewer threads that stay in L1 can beat full occupancy. Measured
    /// with `gpu_probe bench ... 128,256,512,1024,2048` on an H200
    /// (2026-11-21): Go 9x9 best at 128, 13x13 and 19x19 at 2048;
    /// Havannah side 4 at 512, sides 8 and 10 at 1024.
    pub fn threads_per_sm(source: super::family::Family, points: usize) -> u32 {
        use super::family::Family;
        match (source, points) {
            (Family::Go, 0..=100) => 128,
            (Family::Go, _) => 2048,
            (Family::Havannah, 0..=60) => 512,
            (Family::Havannah, _) => 1024,
        }
    }
    /// The Go kernel `CudaSimulator` uses for `policy` on a board of
    /// `points` points unless told otherwise: the fastest kernel that
    /// plays the policy. Measured (H200, 256 leaves × 2048 playouts,
    /// playouts/s, 2026-11-21), light: 9x9 bitboard 98.1M, row-per-lane
    /// 19.8M, shared 12.1M, local 8.1M, point-per-thread 5.2M; 13x13
    /// bitboard 26.1M, row-per-lane 9.5M, shared 2.9M, local 2.5M, point
    /// 1.4M; 19x19 bitboard 6.09M, row-per-lane 4.21M, local 1.00M, shared
    /// 0.73M, point 0.30M. Patterns (the default, bitboard only, on the atari
    /// board; H100): 50.8M / 12.6M / 2.33M (docs/gpu-kernels-19x19.md). 3x3, point per thread against the compact board:
    /// 4.10M / 2.68M on 9x9, 1.11M / 1.23M on 13x13, 0.26M / 0.32M on
    /// 19x19; M2 3.90M / 2.22M, 1.05M / 1.11M, 0.24M / 0.29M. The point
    /// kernel wins on 9x9 only, as Iwakawa et al. (2011) found.
    pub fn go_kernel(points: usize, policy: GoPolicy) -> super::GoKernel {
        use super::GoKernel;
        match policy {
            GoPolicy::Random => GoKernel::Bitboard,
            GoPolicy::Patterns => GoKernel::BitboardPatterns,
            GoPolicy::Weighted3x3 if points <= 81 => GoKernel::PointPerThread3x3,
            GoPolicy::Weighted3x3 => GoKernel::PlayoutPerThread3x3,
            GoPolicy::M2 if points <= 81 => GoKernel::PointPerThreadM2,
            GoPolicy::M2 => GoKernel::PlayoutPerThreadM2,
        }
    }

    /// The Havannah variant `CudaSimulator` uses unless told otherwise.
    /// Measured (H200, 256 leaves × 2048 playouts, playouts/s,
    /// 2026-11-21): side 4 packed/local 720M, packed/shared 682M, shared
    /// 371M, plain find 353M, compress 325M; side 8 packed/shared 132M,
    /// packed/local 82M, shared 37.6M, compress 26.7M; side 10
    /// packed/shared 67.4M, packed/local 34.1M, compress 16.4M, plain find
    /// 16.3M, shared 15.9M. Side 6 was not measured; the shared packed
    /// board wins from side 8 up. The tactical policy runs on the same
    /// boards (its rates: docs/gpu-kernels.md).
    pub fn hex_variant(cells: usize, policy: super::HexPolicy) -> super::HexVariant {
        use super::{HexPolicy, HexVariant};
        match (cells <= 37, policy) {
            (true, HexPolicy::Uniform) => HexVariant::PackedLocal,
            (false, HexPolicy::Uniform) => HexVariant::Packed,
            (true, HexPolicy::Tactical) => HexVariant::PackedLocalTactical,
            (false, HexPolicy::Tactical) => HexVariant::PackedTactical,
        }
    }

    /// Threads per block of the replay kernels.
    pub const REPLAY_BLOCK: u32 = 128;
    /// Upper bound on device memory one simulator (one GPU) allocates for
    /// batches (statistics, boards, leaf headers), all its launch slots
    /// together: each slot keeps to `MAX_DEVICE_BYTES / SLOTS_PER_GPU`,
    /// and batches larger than that are split into several launches.
    pub const MAX_DEVICE_BYTES: usize = 256 << 20;

    /// Launch slots per GPU: batches of different search threads in flight
    /// at once, each on its own stream with its own buffers. Two is the
    /// least that overlaps one batch's kernel with another's copies and
    /// tree work; more only helps when one batch's kernel leaves the GPU
    /// half empty (the kernels of several streams then run side by side).
    pub const SLOTS_PER_GPU: usize = 2;
}

/// Why the CUDA backend cannot do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    #[error("the CUDA driver library (libcuda) is not present")]
    NoDriverLibrary,
    #[error("the NVRTC library (libnvrtc) is not present")]
    NoNvrtcLibrary,
    #[error("no CUDA device is available")]
    NoDevice,
    #[error("CUDA driver call failed: {0}")]
    Driver(String),
    #[error("NVRTC could not compile {kernel} for {arch}: {message}\n{log}")]
    Compile {
        kernel: String,
        arch: String,
        message: String,
        log: String,
    },
    #[error("unsupported board size {size} for {game} (kernels exist for {supported})")]
    UnsupportedSize {
        game: &'static str,
        size: usize,
        supported: &'static str,
    },
    #[error("invalid input: {0}")]
    Input(String),
}

impl From<cudarc::driver::DriverError> for CudaError {
    fn from(e: cudarc::driver::DriverError) -> Self {
        CudaError::Driver(format!("{e:?}"))
    }
}
