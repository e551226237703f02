//! Command-line interface. `warpstone` alone speaks GTP for Go on
//! stdin/stdout; `warpstone bench` measures playout and search speed.
//!
//! Bad options are reported by clap with exit code 2 and never reach the
//! engine.

mod commands;
pub mod games;
mod gpu;
mod gpu_bench;

use crate::bench::BenchOptions;
use crate::engine::{Backend, EngineOptions};
use crate::search::{SearchConfig, MAX_VIRTUAL_LOSS};
use crate::sim::cuda::GoKernel;
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser};
pub use commands::{BenchArgs, BookArgs, BuildArgs, Command, PolicyArg, SolveArgs};
use gpu::{BackendArg, GpuPolicyArg};
use std::ops::RangeInclusive;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "warpstone",
    version,
    about = "Monte-Carlo tree search game engine: Go over GTP, Havannah over HTP, Hex, Connect Four and the Amazons over GTP",
    long_about = "Monte-Carlo tree search game engine.\n\nWithout a subcommand, speaks GTP (Go), a \
                  Castro-compatible HTP (Havannah), GTP as HexGui and MoHex speak it (Hex) or GTP \
                  framing with columns as moves (Connect Four) or `d1-d7/g7` moves (Amazons) on \
                  stdin/stdout, for GoGui, Sabaki, \
                  HexGui, gogui-twogtp and tournament scripts. `solve` and `build` play Connect \
                  Four exactly. Logs go to stderr."
)]
pub struct Cli {
    /// Game to play, from the registry of games (`cli::games`); each
    /// speaks its own protocol on stdin/stdout.
    #[arg(long, default_value = games::GAMES[0].name, global = true,
          value_parser = clap::builder::PossibleValuesParser::new(games::names()))]
    pub game: String,

    /// Search threads (default: all CPU cores; with the GPU backend two per
    /// launch slot, see --gpu-leaves).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Independent search trees, merged at the root to decide (root
    /// parallelism); the threads are dealt to them. The threads of one
    /// tree share its root's counters, so with a GPU (batches of many
    /// leaves from every thread) the default is one tree per two threads;
    /// on the CPU, one tree.
    #[arg(long, global = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub trees: Option<u32>,

    /// GPU backend: leaves each search thread selects and sends to the GPU
    /// in one batch (one launch).
    #[arg(long, value_name = "N", default_value_t = GPU_LEAVES_PER_BATCH, global = true,
          value_parser = clap::value_parser!(u32).range(1..=65_535))]
    pub gpu_leaves: u32,

    /// GPU backend: playouts run from each leaf of a batch.
    #[arg(long, value_name = "K", default_value_t = GPU_PLAYOUTS_PER_LEAF, global = true,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub gpu_playouts: u32,

    /// Virtual losses a leaf in flight adds to each node on its path until
    /// its playouts come back, 1-64 (default: its playouts, --gpu-playouts,
    /// but at most 4, so that a GPU batch of 1,024 leaves does not spread
    /// far wider than a sequential search; see
    /// `SearchConfig::virtual_loss_per_leaf`).
    #[arg(long, value_name = "N", global = true,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_VIRTUAL_LOSS)))]
    pub virtual_loss: Option<u32>,

    /// Fixed number of playouts per move, for reproducible matches and
    /// tests. Time limits from the controller still apply.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,

    /// Thinking time per move in seconds (the controller's clock may allow
    /// less). Each move thinks all of it: once its move is settled the
    /// search goes on, growing the tree kept for the next move. Default
    /// without any limit: 5 s, cut short once the move is settled.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_per_move: Option<Duration>,

    /// Memory cap for the whole process in MiB. The search stops growing
    /// its tree when the tree's share is used up and keeps refining what it
    /// has.
    #[arg(long, value_name = "MB", default_value_t = 2048, value_parser = clap::value_parser!(u64).range(64..=1_048_576))]
    pub max_memory: u64,

    /// Random seed. With --threads 1 and --playouts, play is reproducible.
    /// Default: from the clock.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Resign when the estimated winning chance drops below this (0 turns
    /// resigning off).
    #[arg(long, value_name = "WINRATE", default_value_t = 0.05, value_parser = parse_fraction)]
    pub resign_threshold: f32,

    /// RAVE equivalence: the visits (playouts) at which a move's own mean
    /// and its AMAF mean weigh the same in the tree; lower trusts AMAF
    /// less. 0 turns RAVE off. A tuning knob: the default is michi's.
    #[arg(long, value_name = "PLAYOUTS", default_value_t = crate::search::RAVE_EQUIV, value_parser = parse_rave_equiv)]
    pub rave_equiv: f64,

    /// UCB exploration coefficient c in c·sqrt(ln N / (n + 1)), added to
    /// each move's RAVE blend in the tree; 0 leaves the choice to RAVE and
    /// the priors (michi). Default: the game's (0 for Go on 13 lines and
    /// more, 0.1 for Havannah, else 0.2). A tuning knob.
    #[arg(long, value_name = "C", value_parser = parse_exploration)]
    pub exploration: Option<f64>,

    /// Keep searching on the opponent's time; the subtree of the move
    /// actually played is kept for the next move.
    #[arg(long)]
    pub ponder: bool,

    /// Draw the search live on stderr as GoGui `gogui-gfx:` blocks (GoGui
    /// shows them while the engine thinks).
    #[arg(long)]
    pub live_gfx: bool,

    /// Connect Four: a database file of `warpstone build --out`; on its
    /// board, genmove and warpstone-solve answer from it.
    #[arg(long, value_name = "FILE")]
    pub database: Option<std::path::PathBuf>,

    /// Connect Four: an opening book of `warpstone book`; genmove plays its
    /// move and warpstone-solve takes its scores where it has them
    /// (default: the 7x6 book built into the binary).
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,

    /// Connect Four: no opening book, not even the built-in 7x6 one.
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,

    /// Where playouts run: a GPU when one is usable (auto), the CPU, or a
    /// GPU (cuda: exits with code 2 if none is usable).
    #[arg(long, value_enum, default_value_t = BackendArg::Auto, global = true)]
    pub backend: BackendArg,

    /// Playout policy of the GPU kernels. Go: the CPU's default patterns
    /// policy (the default), light uniform random playouts (faster,
    /// weaker), or paper 004's weighted 3x3 and m2 policies. Havannah: the
    /// CPU engine's tactical policy (win, else block; the default) or the
    /// uniform random fill. Another game's value is refused (exit 2).
    #[arg(long, value_enum, global = true)]
    pub gpu_policy: Option<GpuPolicyArg>,

    /// GPUs to use, by index (default: all).
    #[arg(long, value_delimiter = ',', global = true)]
    pub gpus: Option<Vec<usize>>,

    /// More logging on stderr (-v info, -vv debug, -vvv trace); `RUST_LOG`,
    /// when set, overrides it (e.g. `RUST_LOG=warpstone::search=debug`).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,

    #[command(subcommand)]
    pub command: Option<Command>,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err("must be more than 0 and at most 86400 seconds".into());
    }
    Ok(crate::search::time::clock_duration(secs))
}

fn parse_fraction(s: &str) -> Result<f32, String> {
    let x: f32 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if !(0.0..1.0).contains(&x) {
        return Err("must be at least 0 and below 1".into());
    }
    Ok(x)
}

/// The search settings the flags give, before the GPU backend's batch shape.
fn search_config(cli: &Cli, seed: u64) -> SearchConfig {
    SearchConfig {
        threads: cli.threads.map_or_else(default_threads, |t| t as usize),
        trees: cli.trees.map_or(1, |t| t as usize),
        max_memory_bytes: tree_budget_bytes(cli.max_memory),
        seed,
        resign_threshold: (cli.resign_threshold > 0.0).then_some(cli.resign_threshold),
        rave_equiv: cli.rave_equiv,
        exploration: cli.exploration,
        virtual_loss: cli.virtual_loss,
        ..SearchConfig::default()
    }
}

fn parse_exploration(s: &str) -> Result<f64, String> {
    parse_number_within(s, crate::search::EXPLORATION_RANGE)
}

fn parse_rave_equiv(s: &str) -> Result<f64, String> {
    parse_number_within(s, crate::search::RAVE_EQUIV_RANGE)
}

/// A number in `range`, or the error clap prints (exit 2).
fn parse_number_within(s: &str, range: RangeInclusive<f64>) -> Result<f64, String> {
    let x: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if !range.contains(&x) {
        return Err(format!(
            "must be at least {} and at most {}",
            range.start(),
            range.end()
        ));
    }
    Ok(x)
}

/// Logs go to stderr (stdout carries protocol only), filtered by
/// [`log_filter`] from `RUST_LOG` and `-v`.
fn init_logging(verbose: u8) -> Result<(), String> {
    let rust_log = std::env::var(tracing_subscriber::EnvFilter::DEFAULT_ENV).ok();
    let filter = log_filter(rust_log.as_deref(), verbose)?;
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
    Ok(())
}

/// `RUST_LOG`, when set and not blank, chooses the filter
/// (`warpstone::search=debug,warn`); otherwise `-v` / `-vv` / `-vvv` choose
/// the level (warn without). A `RUST_LOG` that does not parse is an error.
fn log_filter(
    rust_log: Option<&str>,
    verbose: u8,
) -> Result<tracing_subscriber::EnvFilter, String> {
    use tracing_subscriber::EnvFilter;
    match rust_log {
        Some(spec) if !spec.trim().is_empty() => {
            EnvFilter::try_new(spec).map_err(|e| format!("RUST_LOG={spec:?}: {e}"))
        }
        _ => Ok(EnvFilter::new(match verbose {
            0 => "warn",
            1 => "info",
            2 => "debug",
            _ => "trace",
        })),
    }
}

/// Leaves per GPU launch and playouts per leaf in the search (the ComputerGO project
/// runs a block of playouts per child).
/// - strength: a bigger tree beats surer leaves. 9x9, komi 7, 1 s/move vs
///   GNU Go level 10, two games sharing one H200, pattern playouts: 64
///   playouts a leaf won 81.2% of 40 games, 512 won 66.7% of 24
///   (2026-11-21, one tree). Local self-play: 40k playouts a move beat
///   10k 24-2, so tree size is what buys strength.
/// - throughput: a playout of the pattern kernel takes about 15 ms from
///   launch to result, so the GPU is only full with about 500k playouts in
///   flight: 1,024 leaves a batch and one batch per tree (root
///   parallelism, `--trees`). H200, 9x9, 16 threads / 8 trees: 1,024 x 32
///   back up 11.6M playouts/s (1.1M leaves in 3 s, 63% of the kernel's
///   18.5M), 1,024 x 64 14.3M (78%), 256 x 64 6.9M (37%)
///   (`bench --backend cuda --search`, 2026-11-21).
///
/// Tune with --gpu-leaves / --gpu-playouts and measure with
/// `warpstone bench --backend cuda --search` and `scripts/match`.
const GPU_LEAVES_PER_BATCH: u32 = 1024;
const GPU_PLAYOUTS_PER_LEAF: u32 = 32;

/// Search threads with the GPU backend: every core (the trees' descents
/// and back-ups are the CPU's share of the work and scale with the trees),
/// but at least two per launch slot of the usual count.
fn gpu_default_threads(gpus: usize) -> usize {
    default_threads().max(2 * crate::sim::cuda::tuning::SLOTS_PER_GPU * gpus.max(1))
}

/// Trees with the GPU backend: one per two threads, so that each tree has
/// one batch on the GPU while its other thread descends or backs up.
fn gpu_default_trees(threads: usize) -> usize {
    threads.div_ceil(2)
}

/// `--trees` for `game` on the GPU, `None` for the default of its shape
/// ([`gpu_default_trees`]). A game whose GPU evaluates its expansions (the
/// Amazons) has no batches of leaves to keep on the GPU, which is what
/// root parallelism is for, so it searches one tree, as on the CPU: with a
/// tree per two threads its 16-thread engine lost 56 of 60 games to the
/// one-tree CPU engine, and at equal playouts 8 trees lost 17 of 20 to one
/// (docs/amazons.md).
fn gpu_trees(game: &games::Registered, trees: Option<u32>) -> Option<u32> {
    trees.or(game.evaluator.is_some().then_some(1))
}

/// Launch slots per GPU: at least the usual two, and enough for one batch
/// of every tree in flight at once.
fn gpu_slots(trees: usize, gpus: usize) -> usize {
    trees
        .div_ceil(gpus.max(1))
        .max(crate::sim::cuda::tuning::SLOTS_PER_GPU)
}

/// The GPU search's (threads, trees, launch slots per GPU) from `--threads`
/// and `--trees` (either may be unset) on `gpus` GPUs; the engine and
/// `bench --search` both run this shape.
fn gpu_search_shape(
    threads: Option<u32>,
    trees: Option<u32>,
    gpus: usize,
) -> (usize, usize, usize) {
    let threads = threads.map_or_else(|| gpu_default_threads(gpus), |t| t as usize);
    let trees = trees.map_or_else(|| gpu_default_trees(threads), |t| t as usize);
    (threads, trees, gpu_slots(trees.min(threads), gpus))
}

/// Memory kept back from `--max-memory` for everything but the tree:
/// binary, stacks, playout buffers, the runtime.
const NON_TREE_ALLOWANCE_MB: u64 = 32;

/// The tree's byte budget under a process cap of `max_memory_mb`. Half of
/// what remains, because keeping a subtree between moves copies it into a
/// fresh arena before the old one is freed: for a moment both exist.
fn tree_budget_bytes(max_memory_mb: u64) -> usize {
    let mb = max_memory_mb.saturating_sub(NON_TREE_ALLOWANCE_MB) / 2;
    (mb as usize).saturating_mul(1 << 20)
}

/// The Go kernels `bench --backend cuda` times: those that play `--policy`
/// on the `--kernel` layout (each by default: all).
fn bench_kernels(args: &BenchArgs) -> Vec<GoKernel> {
    GoKernel::ALL
        .into_iter()
        .filter(|k| args.policy.is_none_or(|p| k.policy() == p.policy()))
        .filter(|k| args.kernel.as_deref().is_none_or(|name| k.name() == name))
        .collect()
}

fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Parses the command line, runs, and returns the exit code.
pub fn main() -> i32 {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // `check-gpu` checks every game with kernels unless a game is named.
    let game_named = matches.value_source("game") == Some(ValueSource::CommandLine)
        || matches
            .subcommand()
            .is_some_and(|(_, sub)| sub.value_source("game") == Some(ValueSource::CommandLine));
    if let Err(e) = init_logging(cli.verbose) {
        eprintln!("warpstone: {e}");
        return 2;
    }
    let game = match games::find(&cli.game) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("warpstone: {e}");
            return 2;
        }
    };
    if let Some(code) = run_command(&cli, game, game_named) {
        return code;
    }
    if cli.database.is_some() && game.build.is_none() {
        eprintln!("warpstone: --database: {} has no database", game.name);
        return 2;
    }
    if (cli.book.is_some() || cli.no_book) && game.book.is_none() {
        eprintln!("warpstone: --book: {} has no opening book", game.name);
        return 2;
    }
    let seed = cli.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let backend = match backend_for(game, &cli) {
        Ok(b) => b,
        Err(message) => {
            eprintln!("warpstone: {message}");
            return 2;
        }
    };
    let mut search = search_config(&cli, seed);
    let mut backend = backend;
    if let Backend::Cuda { gpus, slots, .. } = &mut backend {
        // Batches of leaves, many playouts each (see GPU_LEAVES_PER_BATCH).
        search.leaves_per_batch = cli.gpu_leaves as usize;
        search.playouts_per_leaf = cli.gpu_playouts;
        let trees = gpu_trees(game, cli.trees);
        (search.threads, search.trees, *slots) = gpu_search_shape(cli.threads, trees, gpus.len());
    }
    let options = EngineOptions {
        search,
        playouts: cli.playouts,
        time_per_move: cli.time_per_move,
        ponder: cli.ponder,
        backend,
        live_gfx: cli.live_gfx,
        database: cli.database.clone(),
        book: cli.book.clone(),
        no_book: cli.no_book,
        ..EngineOptions::default()
    };
    (game.serve)(options)
}

/// Runs a subcommand for `game`, returning its exit code; `None` when
/// there is none and the engine is to be served.
fn run_command(cli: &Cli, game: &games::Registered, game_named: bool) -> Option<i32> {
    let kernels = || {
        game.kernels.as_ref().ok_or_else(|| {
            eprintln!("warpstone: --backend cuda: {}", no_kernels(game));
            2
        })
    };
    if cli.command.is_some() {
        // Subcommands report on stdout with `println!`, which panics on a
        // closed pipe (`warpstone check-gpu | head`) because Rust ignores
        // SIGPIPE. A report nobody reads is no error: end quietly, as Unix
        // tools do. The engine itself keeps SIGPIPE ignored and handles
        // failed writes (it has replies to stop, see `protocol::connection`).
        restore_default_sigpipe();
    }
    let code = match &cli.command {
        None => return None,
        Some(Command::Solve(args)) => match game.solve {
            Some(solve) => solve(args),
            None => {
                eprintln!("warpstone solve: {} has no exact solver", game.name);
                2
            }
        },
        Some(Command::Build(args)) => match game.build {
            Some(build) => build(args),
            None => {
                eprintln!("warpstone build: {} has no state-space build", game.name);
                2
            }
        },
        Some(Command::Book(args)) => match game.book {
            Some(book) => book(args),
            None => {
                eprintln!("warpstone book: {} has no opening book", game.name);
                2
            }
        },
        Some(Command::CheckGpu(args)) => match (game_named, &game.kernels) {
            (false, _) => gpu::check_gpu(args, gpu::CheckScope::All),
            (true, Some(kernels)) => gpu::check_gpu(args, gpu::CheckScope::Family(kernels.family)),
            (true, None) if game.evaluator.is_some() => {
                gpu::check_gpu(args, gpu::CheckScope::Evaluator)
            }
            (true, None) => {
                eprintln!("warpstone check-gpu: {}", no_kernels(game));
                2
            }
        },
        Some(Command::CheckKernels { arch, ptx_dir }) => {
            gpu::check_kernels(arch, ptx_dir.as_deref())
        }
        Some(Command::Bench(args)) if args.all_moves => match backend_for(game, cli) {
            Ok(backend) => match (game.all_moves)(args, &backend) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("warpstone bench --all-moves: {e}");
                    1
                }
            },
            Err(message) => {
                eprintln!("warpstone bench --all-moves: {message}");
                2
            }
        },
        Some(Command::Bench(args))
            if cli.backend == BackendArg::Cuda && game.evaluator.is_some() =>
        {
            let evaluator = game.evaluator.as_ref().map(|e| e.bench);
            let gpu = cli
                .gpus
                .as_ref()
                .and_then(|g| g.first().copied())
                .unwrap_or(0);
            match evaluator.map(|bench| bench(&bench_options(args, cli), gpu)) {
                Some(Ok(())) => 0,
                Some(Err(e)) => {
                    eprintln!("warpstone bench: {e}");
                    2
                }
                None => 2,
            }
        }
        Some(Command::Bench(args))
            if cli.backend == BackendArg::Cuda && args.search && !args.tree_only =>
        {
            match kernels() {
                Ok(kernels) => gpu::search_bench(game.name, kernels, args, cli),
                Err(code) => code,
            }
        }
        Some(Command::Bench(args)) if cli.backend == BackendArg::Cuda => match kernels() {
            Ok(kernels) => {
                let sizes = args.sizes.clone().unwrap_or_else(|| vec![args.size]);
                (kernels.bench)(&sizes, args, &cli.gpus)
            }
            Err(code) => code,
        },
        Some(Command::Bench(args)) => match (game.bench)(&bench_options(args, cli)) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("warpstone bench: {e}");
                2
            }
        },
    };
    Some(code)
}

/// `bench`'s options from the command line.
fn bench_options(args: &BenchArgs, cli: &Cli) -> BenchOptions {
    BenchOptions {
        size: args.size,
        threads: args.threads.unwrap_or(1) as usize,
        trees: cli.trees.map_or(1, |t| t as usize),
        seconds: args.seconds,
        search: args.search,
        tree_only: args
            .tree_only
            .then_some((cli.gpu_leaves as usize, cli.gpu_playouts)),
        go_policy: args.policy.map(PolicyArg::policy),
        seed: args.seed,
    }
}

/// Why `game` cannot run on the GPU.
fn no_kernels(game: &games::Registered) -> String {
    format!(
        "{} has no GPU kernels (games with kernels: {})",
        game.name,
        games::with_kernels().join(", ")
    )
}

/// Resolves `--backend` for `game`: a game without kernels runs its
/// playouts on the CPU under `auto` (and says so once) and refuses `cuda`;
/// so does `auto` for a game whose CPU engine is the stronger
/// ([`games::Kernels::auto_on_gpu`]).
fn backend_for(game: &games::Registered, cli: &Cli) -> Result<Backend, String> {
    let family = game.kernels.as_ref().map(|k| k.family);
    let policies = gpu::GpuPolicyArg::resolve(cli.gpu_policy, family, game.name)?;
    if let (Some(kernels), BackendArg::Auto) = (&game.kernels, cli.backend) {
        if !kernels.auto_on_gpu {
            tracing::info!(
                "{}: the CPU engine is the stronger; --backend cuda plays the kernels",
                game.name
            );
            return Ok(Backend::Cpu);
        }
    }
    if game.kernels.is_some() || game.evaluator.is_some() {
        return gpu::resolve_backend(cli.backend, &cli.gpus, policies);
    }
    match cli.backend {
        BackendArg::Cuda => Err(format!("--backend cuda: {}", no_kernels(game))),
        BackendArg::Auto => {
            tracing::info!("{}; its playouts run on the CPU", no_kernels(game));
            Ok(Backend::Cpu)
        }
        BackendArg::Cpu => Ok(Backend::Cpu),
    }
}

#[cfg(test)]
mod tests;

/// Lets a write to a closed stdout end the process (SIGPIPE's default).
fn restore_default_sigpipe() {
    // SAFETY: `signal` with SIG_DFL installs no handler code; it is called
    // before any thread of this process writes to stdout, and changing a
    // signal's disposition is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
