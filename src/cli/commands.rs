//! The subcommands and their arguments (clap): `bench`, `check-gpu`,
//! `check-kernels`, `solve`, `build`, `book`. The top-level options are `Cli`'s,
//! in `mod.rs`.

use super::gpu;
use crate::sim::cuda::GoKernel;
use clap::{Subcommand, ValueEnum};

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Measure playouts/s (and with --search, search iterations/s); prints
    /// one JSON object per line.
    Bench(BenchArgs),
    /// Compare every GPU kernel with the CPU rules (exact replays, win
    /// rates); exits non-zero on any failure.
    CheckGpu(gpu::CheckGpuArgs),
    /// Compile every GPU kernel with NVRTC (no GPU needed).
    CheckKernels {
        /// Virtual architecture to compile for.
        #[arg(long, default_value = "compute_90")]
        arch: String,
        /// Also write each source's PTX there (`go.ptx`, `havannah.ptx`),
        /// e.g. for `ptxas -arch=sm_90 -v` to show registers and spills.
        #[arg(long)]
        ptx_dir: Option<std::path::PathBuf>,
    },
    /// Solve positions exactly (Connect Four): one move string a line on
    /// stdin (`4453`, columns from 1), `moves score` a line on stdout, as
    /// Pascal Pons' solver reads and writes them.
    Solve(SolveArgs),
    /// Build a board's whole state space level by level and back the
    /// exact values up (the PAPO lab report on Connect Four); prints the positions per level and the
    /// empty board's score.
    Build(BuildArgs),
    /// Build an opening book (Connect Four): the strategy tree of the side
    /// to move at the root, one best move at its turns and every reply at
    /// the other's, with exact scores, down to --depth stones. Resumes a
    /// file it finds; progress on stderr.
    Book(BookArgs),
}

#[derive(clap::Args, Debug)]
pub struct BookArgs {
    /// Board width (columns), 4-8.
    #[arg(long, default_value_t = 7)]
    pub width: usize,
    /// Board height (rows), 4-7.
    #[arg(long, default_value_t = 6)]
    pub height: usize,
    /// Positions of fewer stones than this go into the book.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=56))]
    pub depth: u32,
    /// Solver threads, sharing one table.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub table_mib: u64,
    /// The book file, written as positions are solved (resumed if it
    /// exists).
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
    /// Win/draw/loss only instead of exact scores: one proof a position
    /// (a weak book plays winning moves, not the fastest ones).
    #[arg(long)]
    pub weak: bool,
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Board width (columns), 4-8.
    #[arg(long, default_value_t = 4)]
    pub width: usize,
    /// Board height (rows), 4-7.
    #[arg(long, default_value_t = 4)]
    pub height: usize,
    /// Write the solved positions to this database file (the engine's
    /// `--database`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Keep at most this many MiB of levels in memory; the rest goes to
    /// files in --temp-dir.
    #[arg(long, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub max_memory: Option<u64>,
    /// Where levels spill to (default: the system's temporary directory).
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<std::path::PathBuf>,
    /// Check this many positions, spread over every level, against the
    /// solver; exit code 1 on any difference.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub verify: u64,
    /// Run as one rank of an MPI job (`mpirun -np 4 warpstone build --mpi
    /// ...`): each rank owns the positions whose hash falls to it, in
    /// memory; rank 0 prints. Not with --out, --max-memory or --verify.
    #[cfg(feature = "mpi")]
    #[arg(long)]
    pub mpi: bool,
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Board width (columns), 4-8.
    #[arg(long, default_value_t = 7)]
    pub width: usize,
    /// Board height (rows), 4-7.
    #[arg(long, default_value_t = 6)]
    pub height: usize,
    /// Every column's score instead of the position's (-1000: full column).
    #[arg(long)]
    pub analyze: bool,
    /// Only win (1), draw (0) or loss (-1).
    #[arg(long)]
    pub weak: bool,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub table_mib: u64,
    /// An opening book of `warpstone book`: positions in it are answered
    /// from it.
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// Searches sharing the table on each position (Lazy SMP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Board size (Go: 2-25; Havannah: side length 3-10; Hex: 1-19).
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Several sizes (with --backend cuda), e.g. 9,13,19.
    #[arg(long, value_delimiter = ',')]
    pub sizes: Option<Vec<usize>>,
    /// Leaves per GPU launch (with --backend cuda: the kernel table, and
    /// the raw kernel rate the search is compared with).
    #[arg(long, default_value_t = 256)]
    pub leaves: usize,
    /// Playouts per leaf (with --backend cuda), or per move (--all-moves).
    #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u32).range(1..))]
    pub playouts: u32,
    /// Threads, each running its own playouts; with --search the search's
    /// threads (CPU default 1; GPU default two per launch slot).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Seconds to measure.
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Also measure the full search (tree + playouts) from the empty board.
    /// With --backend cuda: only the search, as playouts backed up into the
    /// tree per second against the raw kernel rate (uses --gpu-leaves,
    /// --gpu-playouts, --threads, --seconds).
    #[arg(long)]
    pub search: bool,
    /// With --search: the tree's own speed, on a simulator that makes up
    /// its statistics at once (real priors, --gpu-leaves leaves of
    /// --gpu-playouts playouts a batch, as the GPU search): the most leaves
    /// a second any simulator could get backed up.
    #[arg(long, requires = "search")]
    pub tree_only: bool,
    /// Evaluate every legal move of one position with --playouts playouts
    /// each, all in one simulator batch (GPU with --backend cuda or auto
    /// and a GPU, else the CPU); prints the rate and the best move.
    #[arg(long, conflicts_with = "search")]
    pub all_moves: bool,
    /// With --all-moves: random legal moves played from the empty board
    /// before evaluating (0: the empty board).
    #[arg(long, default_value_t = 0)]
    pub moves: usize,
    /// Go playout policy: random (light), patterns (captures, atari, 3x3
    /// patterns), or the weighted 3x3 and m2. Default: all, one line each
    /// (with --backend cuda: every kernel that plays it).
    #[arg(long, value_enum)]
    pub policy: Option<PolicyArg>,
    /// With --backend cuda: only this Go kernel layout (default: all), such
    /// as playout-per-thread/bitboard.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(GoKernel::NAMES))]
    pub kernel: Option<String>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyArg {
    Random,
    Patterns,
    #[value(name = "3x3")]
    Weighted3x3,
    M2,
}

impl PolicyArg {
    pub fn policy(self) -> crate::sim::go_rollout::GoPolicy {
        use crate::sim::go_rollout::GoPolicy;
        match self {
            PolicyArg::Random => GoPolicy::Random,
            PolicyArg::Patterns => GoPolicy::Patterns,
            PolicyArg::Weighted3x3 => GoPolicy::Weighted3x3,
            PolicyArg::M2 => GoPolicy::M2,
        }
    }
}
