//! The GPU side of the command line: choosing the backend, `check-gpu`,
//! `check-kernels` and `bench --backend cuda`.
//!
//! Every path asks cudarc's loaders first (`driver_present`,
//! `nvrtc_present`): cudarc panics when a library it needs is missing.

use crate::engine::Backend;
use crate::protocol::session::SessionGame;
use crate::sim::cuda::family::Family;
use crate::sim::cuda::{self, check::CheckOptions, CudaError, GoKernel, HexPolicy};
use crate::sim::go_rollout::GoPolicy;
use crate::sim::Simulator;
use clap::ValueEnum;
use std::path::PathBuf;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendArg {
    /// A GPU when the driver, a device and NVRTC are present, else the CPU.
    Auto,
    Cpu,
    Cuda,
}

/// The GPUs to use: the ones asked for, or all.
fn usable_gpus(wanted: &Option<Vec<usize>>) -> Result<Vec<usize>, CudaError> {
    if !cuda::discovery::driver_present() {
        return Err(CudaError::NoDriverLibrary);
    }
    if !cuda::compile::nvrtc_present() {
        return Err(CudaError::NoNvrtcLibrary);
    }
    let found: Vec<usize> = cuda::probe()?.iter().map(|d| d.ordinal).collect();
    let chosen: Vec<usize> = match wanted {
        None => found,
        Some(list) => list.iter().copied().filter(|o| found.contains(o)).collect(),
    };
    if chosen.is_empty() {
        return Err(CudaError::NoDevice);
    }
    Ok(chosen)
}

/// The playout policy of the GPU kernels (`--gpu-policy`); which values a
/// game takes depends on its kernels ([`GpuPolicyArg::resolve`]).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuPolicyArg {
    /// Go: uniform random legal moves that do not fill own eyes (light).
    /// Havannah: the uniform fill.
    Random,
    /// Go (the default): the CPU's default policy, captures, atari escapes
    /// and 3x3 patterns around the last move, self-atari mostly avoided.
    Patterns,
    /// Go: paper 004's "3x3", moves drawn in proportion to a weight per
    /// point from its 3x3 neighbourhood (point-per-thread kernel).
    #[value(name = "3x3")]
    Weighted3x3,
    /// Go: paper 004's "M2", the 3x3 weight doubled near stones (Manhattan
    /// distance 2); point-per-thread kernel.
    M2,
    /// Havannah (the default): the CPU engine's tactical policy, a winning
    /// cell when there is one, else the block of the opponent's, else the
    /// restoring of an intruded bridge.
    Tactical,
}

impl GpuPolicyArg {
    /// The kernels' Go and Havannah policies for `game`, whose playout
    /// kernels are of `family` (`None`: it has none). Without the flag each
    /// family's default; a value another family's kernels play, or any value
    /// for a game without playout kernels, is an error naming what the game
    /// takes (a user asking for a policy must not silently get another).
    pub fn resolve(
        arg: Option<Self>,
        family: Option<Family>,
        game: &str,
    ) -> Result<(GoPolicy, HexPolicy), String> {
        let defaults = (GoPolicy::Patterns, HexPolicy::Tactical);
        let Some(arg) = arg else {
            return Ok(defaults);
        };
        let refuse = |takes: &str| {
            let name = arg
                .to_possible_value()
                .map_or_else(String::new, |v| v.get_name().to_string());
            Err(format!("--gpu-policy {name}: {game} takes {takes}"))
        };
        match (family, arg) {
            (Some(Family::Go), GpuPolicyArg::Random) => Ok((GoPolicy::Random, defaults.1)),
            (Some(Family::Go), GpuPolicyArg::Patterns) => Ok((GoPolicy::Patterns, defaults.1)),
            (Some(Family::Go), GpuPolicyArg::Weighted3x3) => {
                Ok((GoPolicy::Weighted3x3, defaults.1))
            }
            (Some(Family::Go), GpuPolicyArg::M2) => Ok((GoPolicy::M2, defaults.1)),
            (Some(Family::Go), GpuPolicyArg::Tactical) => refuse("patterns, random, 3x3 or m2"),
            (Some(Family::Havannah), GpuPolicyArg::Random) => Ok((defaults.0, HexPolicy::Uniform)),
            (Some(Family::Havannah), GpuPolicyArg::Tactical) => {
                Ok((defaults.0, HexPolicy::Tactical))
            }
            (Some(Family::Havannah), _) => refuse("tactical or random"),
            (None, _) => refuse("no --gpu-policy (it has no playout kernels)"),
        }
    }
}

/// Resolves `--backend` (and `--gpus`, `--gpu-policy`): `Err` is the
/// message for exit 2.
pub fn resolve_backend(
    arg: BackendArg,
    gpus: &Option<Vec<usize>>,
    (go_policy, hex_policy): (GoPolicy, HexPolicy),
) -> Result<Backend, String> {
    // The slots are sized to the search later (see `gpu_search_shape`).
    let cuda = |gpus| Backend::Cuda {
        gpus,
        go_policy,
        hex_policy,
        slots: cuda::tuning::SLOTS_PER_GPU,
    };
    match arg {
        BackendArg::Cpu => Ok(Backend::Cpu),
        BackendArg::Cuda => usable_gpus(gpus)
            .and_then(|gpus| {
                // The probe opens no context; one open per GPU proves it
                // usable (auto finds out when the engine opens it, and
                // falls back to the CPU then).
                for &gpu in &gpus {
                    cuda::discovery::try_open(gpu)?;
                }
                Ok(gpus)
            })
            .map(cuda)
            .map_err(|e| format!("--backend cuda: no usable GPU: {e}")),
        BackendArg::Auto => match usable_gpus(gpus) {
            Ok(gpus) => Ok(cuda(gpus)),
            Err(e) => {
                tracing::warn!("no usable GPU ({e}); playouts run on the CPU");
                Ok(Backend::Cpu)
            }
        },
    }
}

#[derive(clap::Args, Debug)]
pub struct CheckGpuArgs {
    /// GPU to check.
    #[arg(long, default_value_t = 0)]
    pub gpu: usize,
    /// Random move sequences replayed per game and size (exact check).
    #[arg(long, default_value_t = 10_000)]
    pub sequences: usize,
    /// Fixed positions per game and size (statistical check).
    #[arg(long, default_value_t = 20)]
    pub positions: usize,
    /// GPU playouts per position.
    #[arg(long, default_value_t = 100_000)]
    pub gpu_playouts: u32,
    /// CPU playouts per position (fewer on large boards).
    #[arg(long, default_value_t = 100_000)]
    pub cpu_playouts: u32,
    /// File keeping the CPU side's counts between runs.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Only compute the CPU side into --cache (no GPU needed).
    #[arg(long)]
    pub cpu_only: bool,
    /// Go sizes to check (default 9,13,19); the flag alone checks none.
    #[arg(long, value_delimiter = ',', num_args = 0..)]
    pub go_sizes: Option<Vec<usize>>,
    /// Havannah sides to check (default 4,8,10); the flag alone checks none.
    #[arg(long, value_delimiter = ',', num_args = 0..)]
    pub hex_sizes: Option<Vec<usize>>,
    /// Random 10x10 positions on which the Amazons' evaluation kernel is
    /// compared with the CPU's (a quarter as many on 8x8 and 6x6; 0 skips).
    #[arg(long, default_value_t = 100_000)]
    pub amazons_positions: usize,
}

/// Which kernels `check-gpu` checks: every one, one playout-kernel family
/// (`--game go|havannah`), or only the evaluation kernel (`--game amazons`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckScope {
    All,
    Family(Family),
    Evaluator,
}

/// `warpstone check-gpu`: every kernel in `scope` against the CPU rules.
/// Exit code 0 only if every check passed.
pub fn check_gpu(args: &CheckGpuArgs, scope: CheckScope) -> i32 {
    let defaults = CheckOptions::default();
    // A named game's family keeps its default sizes, the others none
    // (unless their sizes are given).
    let sizes = |given: &Option<Vec<usize>>, family: Family, default: &Vec<usize>| {
        given.clone().unwrap_or_else(|| match scope {
            CheckScope::All => default.clone(),
            CheckScope::Family(f) if f == family => default.clone(),
            CheckScope::Family(_) | CheckScope::Evaluator => Vec::new(),
        })
    };
    let opts = CheckOptions {
        go_sizes: sizes(&args.go_sizes, Family::Go, &defaults.go_sizes),
        hex_sizes: sizes(&args.hex_sizes, Family::Havannah, &defaults.hex_sizes),
        sequences: args.sequences,
        positions: args.positions,
        gpu_playouts: args.gpu_playouts,
        cpu_playouts: args.cpu_playouts,
        cpu_cache: args.cache.clone(),
        ..defaults
    };
    let started = std::time::Instant::now();
    if args.cpu_only {
        cuda::positions::fill_cpu_cache_project(&opts);
        println!(
            "CPU reference counts written in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        return 0;
    }
    if let Err(e) = usable_gpus(&Some(vec![args.gpu])) {
        eprintln!("warpstone check-gpu: {e}");
        return 2;
    }
    let mut progress = |line: &cuda::check::CheckLine| {
        eprintln!(
            "{} {} {} ({:.0} s)",
            if line.passed { "PASS" } else { "FAIL" },
            line.name,
            line.detail,
            started.elapsed().as_secs_f64()
        )
    };
    let mut report = cuda::positions::check_gpu_project(args.gpu, &opts, &mut progress);
    if matches!(scope, CheckScope::All | CheckScope::Evaluator) && args.amazons_positions > 0 {
        report.lines.extend(cuda::check_amazons::check_amazons_eval(
            args.gpu,
            args.amazons_positions,
            opts.seed,
            &mut progress,
        ));
    }
    println!("{report}");
    println!("check-gpu took {:.1} s", started.elapsed().as_secs_f64());
    i32::from(!report.passed())
}

/// `warpstone check-kernels`: compiles every kernel with NVRTC for `arch`
/// (no GPU needed; CI runs it with NVRTC from PyPI).
pub fn check_kernels(arch: &str, ptx_dir: Option<&std::path::Path>) -> i32 {
    if !cuda::compile::nvrtc_present() {
        eprintln!("warpstone check-kernels: {}", CudaError::NoNvrtcLibrary);
        return 2;
    }
    let started = std::time::Instant::now();
    match cuda::compile_all(arch) {
        Ok(ptx) => {
            if let Some(dir) = ptx_dir {
                for (stem, text) in &ptx {
                    let path = dir.join(format!("{stem}.ptx"));
                    if let Err(e) = std::fs::write(&path, text) {
                        eprintln!(
                            "warpstone check-kernels: cannot write {}: {e}",
                            path.display()
                        );
                        return 2;
                    }
                }
            }
            println!(
                "compiled every kernel for {arch} in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            0
        }
        Err(e) => {
            eprintln!("warpstone check-kernels: {e}");
            1
        }
    }
}

/// `warpstone bench --backend cuda`: kernel playouts/s per size, one JSON
/// line each.
pub fn bench(
    go_sizes: &[usize],
    hex_sizes: &[usize],
    go_kernels: &[GoKernel],
    leaves: usize,
    playouts: u32,
    gpus: &Option<Vec<usize>>,
) -> i32 {
    let ordinal = match usable_gpus(gpus) {
        Ok(list) => list[0],
        Err(e) => {
            eprintln!("warpstone bench --backend cuda: {e}");
            return 2;
        }
    };
    match cuda::bench::bench(
        ordinal,
        go_sizes,
        hex_sizes,
        go_kernels,
        leaves,
        playouts,
        3,
        &[],
    ) {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            0
        }
        Err(e) => {
            eprintln!("warpstone bench --backend cuda: {e}");
            1
        }
    }
}

/// `warpstone bench --backend cuda --search`: raw kernel rate, the rate at
/// the search's batch shape, and the search's backed-up rate (JSON lines,
/// see `gpu_bench`) for a game with kernels.
pub fn search_bench(
    game: &str,
    kernels: &super::games::Kernels,
    args: &super::BenchArgs,
    cli: &super::Cli,
) -> i32 {
    let (go_policy, hex_policy) =
        match GpuPolicyArg::resolve(cli.gpu_policy, Some(kernels.family), game) {
            Ok(policies) => policies,
            Err(e) => {
                eprintln!("warpstone bench: {e}");
                return 2;
            }
        };
    let gpus = match usable_gpus(&cli.gpus) {
        Ok(list) => list,
        Err(e) => {
            eprintln!("warpstone bench --backend cuda --search: {e}");
            return 2;
        }
    };
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        eprintln!("warpstone bench: --seconds must be more than 0 and at most 3600");
        return 2;
    }
    let (threads, trees, slots) = super::gpu_search_shape(args.threads, cli.trees, gpus.len());
    let opts = super::gpu_bench::SearchBench {
        threads,
        trees,
        slots,
        gpus,
        leaves: args.leaves.max(1),
        playouts: args.playouts,
        gpu_leaves: cli.gpu_leaves as usize,
        gpu_playouts: cli.gpu_playouts,
        virtual_loss: cli.virtual_loss,
        seconds: args.seconds,
        seed: args.seed,
        go_policy,
        hex_policy,
    };
    match (kernels.search_bench)(args.size, &opts) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("warpstone bench --backend cuda --search: {e}");
            1
        }
    }
}

/// `warpstone bench --all-moves`: every legal move of one position of
/// `start`'s game rated in one simulator batch on `sim`.
pub fn all_moves<G: SessionGame>(
    game: &str,
    size: usize,
    start: &G,
    args: &super::BenchArgs,
    sim: &dyn Simulator<G>,
) -> Result<(), String> {
    let name = |pos: &G, mv: G::Move| pos.move_text(mv);
    crate::bench::all_moves(
        game,
        size,
        start,
        args.moves,
        args.playouts,
        args.seed,
        sim,
        &name,
    )
}

/// The simulator `--all-moves` times: every chosen GPU without the CPU
/// fallback (a failed batch must not be timed as the GPU's), or the CPU.
pub fn all_moves_simulator<G>(backend: &Backend) -> Result<Box<dyn Simulator<G>>, String>
where
    G: crate::sim::Rollout + cuda::KernelPosition,
{
    match backend {
        Backend::Cuda {
            gpus,
            go_policy,
            hex_policy,
            slots,
        } => cuda::GpuSimulator::<G>::new(gpus, *slots)
            .map(|s| {
                Box::new(
                    s.with_go_policy(*go_policy)
                        .with_hex_policy(*hex_policy)
                        .without_cpu_fallback(),
                ) as Box<dyn Simulator<G>>
            })
            .map_err(|e| e.to_string()),
        Backend::Cpu => Ok(Box::new(crate::sim::cpu::CpuSimulator::<G>::new())),
    }
}
