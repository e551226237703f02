//! The registry of games: the one place that names every game and wires
//! its rules, playout policy, protocol adapter and (where it has them) GPU
//! kernels into the command line. `--game`, `bench` and `bench --backend
//! cuda` look a game up here; nothing else matches on which game it is.
//!
//! Adding a game is one [`Registered`] entry in [`GAMES`]: every field must
//! be filled, so the compiler lists what a new game still lacks, and a game
//! without kernels says so with `kernels: None` (its playouts then run on
//! the CPU under any backend).

use super::{gpu, BenchArgs};
use crate::bench::{self, BenchOptions};
use crate::engine::{self, Backend, EngineOptions};
use crate::game::{amazons, connect4, go, havannah, hex};
use crate::protocol;
use crate::sim::go_rollout::GoPolicy;

/// One game as the command line sees it.
pub struct Registered {
    /// The `--game` value.
    pub name: &'static str,
    /// What it speaks on stdin/stdout.
    pub protocol: &'static str,
    /// Serves the protocol on stdin/stdout until `quit` or end of input;
    /// returns the exit code.
    pub serve: fn(EngineOptions) -> i32,
    /// `warpstone bench` on the CPU: playouts/s of its policies, and with
    /// `--search` the whole search.
    pub bench: fn(&BenchOptions) -> Result<(), String>,
    /// `warpstone bench --all-moves` on `backend`.
    pub all_moves: fn(&BenchArgs, &Backend) -> Result<(), String>,
    /// The game's CUDA kernels, if it has any.
    pub kernels: Option<Kernels>,
    /// A GPU evaluator in place of playout kernels (the Amazons' Lieberum
    /// evaluation): `--backend cuda` and `auto` use it, `bench --backend
    /// cuda` times it.
    pub evaluator: Option<Evaluator>,
    /// `warpstone solve`, for a game with an exact solver (exit code).
    pub solve: Option<fn(&super::SolveArgs) -> i32>,
    /// `warpstone build`: the whole state space, solved (exit code).
    pub build: Option<fn(&super::BuildArgs) -> i32>,
    /// `warpstone book`: an opening book (exit code).
    pub book: Option<fn(&super::BookArgs) -> i32>,
}

/// What a game with CUDA kernels adds to the command line.
pub struct Kernels {
    /// Its kernel family in the CUDA backend (what `check-gpu --game`
    /// checks).
    pub family: crate::sim::cuda::family::Family,
    /// `bench --backend cuda`: the kernel table over `sizes` (exit code).
    pub bench: fn(sizes: &[usize], args: &BenchArgs, gpus: &Option<Vec<usize>>) -> i32,
    /// `bench --backend cuda --search` on a board of `size`.
    pub search_bench: fn(size: usize, opts: &super::gpu_bench::SearchBench) -> Result<(), String>,
    /// Whether `--backend auto` plays on the GPU when one is usable: false
    /// where the CPU engine has measured stronger at equal time, so that a
    /// user who names no backend gets the stronger engine (`--backend
    /// cuda` still plays the kernels).
    pub auto_on_gpu: bool,
}

/// What a game with a GPU evaluator adds to the command line.
pub struct Evaluator {
    /// `bench --backend cuda` (with `--search`, the search too) on GPU
    /// `gpu`.
    pub bench: fn(&BenchOptions, gpu: usize) -> Result<(), String>,
}

/// Every game, in the order `--help` lists them; the first is the default.
pub const GAMES: &[Registered] = &[
    Registered {
        name: "go",
        protocol: "GTP",
        serve: |options| {
            let sim = engine::simulator_for(&options.backend);
            protocol::run(protocol::go::GoSession::new(options, sim))
        },
        bench: go_bench,
        all_moves: |args, backend| {
            let start = go::Position::new(args.size, 7.5).map_err(|e| e.to_string())?;
            let sim = gpu::all_moves_simulator::<go::Position>(backend)?;
            gpu::all_moves("go", args.size, &start, args, &*sim)
        },
        kernels: Some(Kernels {
            family: crate::sim::cuda::family::Family::Go,
            bench: |sizes, args, gpus| {
                let kernels = super::bench_kernels(args);
                if kernels.is_empty() {
                    eprintln!("warpstone bench: no Go kernel plays that policy with that layout");
                    return 2;
                }
                gpu::bench(sizes, &[], &kernels, args.leaves, args.playouts, gpus)
            },
            search_bench: |size, opts| {
                let start = go::Position::new(size, 7.5).map_err(|e| e.to_string())?;
                let policy = opts.go_policy.name();
                super::gpu_bench::run("go", policy, size, &start, size * size / 2, opts)
                    .map_err(|e| e.to_string())
            },
            auto_on_gpu: true,
        }),
        evaluator: None,
        solve: None,
        build: None,
        book: None,
    },
    Registered {
        name: "havannah",
        protocol: "HTP",
        serve: |options| {
            let sim = engine::simulator_for(&options.backend);
            protocol::run(protocol::havannah::HavannahSession::new(options, sim))
        },
        bench: |options| {
            let pos = havannah::Position::new(options.size).map_err(|e| e.to_string())?;
            bench::run_game(
                "havannah",
                &pos,
                options,
                &[
                    ("random", &|p, rng, rec, own| {
                        crate::sim::Rollout::rollout(p, rng, rec, own)
                    }),
                    ("tactical", &|p, rng, rec, own| {
                        crate::sim::havannah_tactics::tactical_rollout(p, rng, rec, own)
                    }),
                    ("bridge", &|p, rng, rec, own| {
                        crate::sim::Rollout::engine_rollout(p, rng, rec, own)
                    }),
                ],
            )
        },
        all_moves: |args, backend| {
            let start = havannah::Position::new(args.size).map_err(|e| e.to_string())?;
            let sim = gpu::all_moves_simulator::<havannah::Position>(backend)?;
            gpu::all_moves("havannah", args.size, &start, args, &*sim)
        },
        kernels: Some(Kernels {
            family: crate::sim::cuda::family::Family::Havannah,
            bench: |sizes, args, gpus| {
                gpu::bench(&[], sizes, &[], args.leaves, args.playouts, gpus)
            },
            search_bench: |size, opts| {
                let start = havannah::Position::new(size).map_err(|e| e.to_string())?;
                let spread = crate::sim::cuda::hex::cell_count(size) / 4;
                let policy = opts.hex_policy.name();
                super::gpu_bench::run("havannah", policy, size, &start, spread, opts)
                    .map_err(|e| e.to_string())
            },
            // 16 threads against Castro on 16, 1 s a move, side 8: the CPU
            // engine won 83 of 100 (60 of 100 before rings were drawn in the
            // playouts), the GPU kernels engine 6 of 38 and the CPU search
            // with GPU-refined leaves 13 of 25 (twice), both before;
            // docs/havannah-sixteen-cores.md.
            auto_on_gpu: false,
        }),
        evaluator: None,
        solve: None,
        build: None,
        book: None,
    },
    Registered {
        name: "hex",
        protocol: "GTP",
        serve: |options| {
            protocol::run(protocol::hex::HexSession::new(
                options,
                engine::cpu_simulator(),
            ))
        },
        bench: |options| {
            let pos = hex::Position::new(options.size).map_err(|e| e.to_string())?;
            bench::run_game(
                "hex",
                &pos,
                options,
                &[("random", &|p, rng, rec, own| {
                    crate::sim::Rollout::rollout(p, rng, rec, own)
                })],
            )
        },
        all_moves: |args, _cpu| {
            let start = hex::Position::new(args.size).map_err(|e| e.to_string())?;
            let sim = crate::sim::cpu::CpuSimulator::<hex::Position>::new();
            gpu::all_moves("hex", args.size, &start, args, &sim)
        },
        kernels: None,
        evaluator: None,
        solve: None,
        build: None,
        book: None,
    },
    Registered {
        name: "connect4",
        protocol: "GTP",
        serve: |options| match protocol::connect4::Connect4Session::open(
            options,
            engine::cpu_simulator(),
        ) {
            Ok(session) => protocol::run(session),
            Err(e) => {
                eprintln!("warpstone: {e}");
                2
            }
        },
        bench: |options| {
            let pos = connect4::Position::standard();
            bench::run_game(
                "connect4",
                &pos,
                options,
                &[("random", &|p, rng, rec, own| {
                    crate::sim::Rollout::rollout(p, rng, rec, own)
                })],
            )
        },
        all_moves: |args, _cpu| {
            let start = connect4::Position::standard();
            let sim = crate::sim::cpu::CpuSimulator::<connect4::Position>::new();
            gpu::all_moves("connect4", args.size, &start, args, &sim)
        },
        kernels: None,
        evaluator: None,
        solve: Some(solve_connect4),
        build: Some(build_connect4),
        book: Some(book_connect4),
    },
    Registered {
        name: "amazons",
        protocol: "GTP",
        serve: serve_amazons,
        bench: crate::bench_amazons::run,
        all_moves: |args, _cpu| {
            let start = amazons::Position::new(args.size).map_err(|e| e.to_string())?;
            let sim = crate::sim::amazons_rollout::EvalSimulator;
            gpu::all_moves("amazons", args.size, &start, args, &sim)
        },
        kernels: None,
        evaluator: Some(Evaluator {
            bench: crate::bench_amazons_gpu::run,
        }),
        solve: None,
        build: None,
        book: None,
    },
];

/// The Amazons engine: Lieberum's evaluation on the GPU with `--backend
/// cuda` (or `auto` with a GPU), else on the CPU.
fn serve_amazons(mut options: EngineOptions) -> i32 {
    use crate::sim::amazons_rollout::EvalSimulator;
    use crate::sim::cuda::amazons_sim::GpuEvalSimulator;
    let cpu = || -> std::sync::Arc<dyn crate::sim::Simulator<amazons::Position>> {
        std::sync::Arc::new(EvalSimulator)
    };
    // The evaluation ranks the moves: progressive widening gives nodes to
    // the best of them only (`search::config::WIDEN_BASE`).
    options.search.widening = Some(crate::search::Widening::default());
    // The evaluation draws nothing: without noise on its priors the seed
    // would change no move, and a match would replay a few lines
    // (docs/amazons.md). A hundredth of a win rate reorders only moves
    // the evaluation finds nearly equal.
    options.search.prior_noise = 0.01;
    let sim = match &options.backend {
        Backend::Cuda { gpus, .. } => {
            // A leaf is one evaluation, not playouts: it counts once (its
            // value came with its parent's expansion); a batch's
            // expansions share one launch (see `LEAVES_PER_BATCH`).
            options.search.playouts_per_leaf = 1;
            options.search.leaves_per_batch = crate::bench_amazons_gpu::LEAVES_PER_BATCH;
            options.search.expand_after_visits = crate::bench_amazons_gpu::EXPAND_AFTER_VISITS;
            let lanes = options.search.threads;
            match GpuEvalSimulator::open(gpus.first().copied().unwrap_or(0), lanes) {
                Ok(sim) => {
                    tracing::info!("Lieberum's evaluation on the GPU ({})", sim.device_name());
                    std::sync::Arc::new(sim)
                }
                Err(e) => {
                    tracing::error!("cannot use the GPU ({e}); evaluating on the CPU");
                    options.search.leaves_per_batch = 1;
                    options.search.expand_after_visits = crate::search::config::EXPAND_AFTER_VISITS;
                    cpu()
                }
            }
        }
        Backend::Cpu => cpu(),
    };
    protocol::run(protocol::amazons::AmazonsSession::new(options, sim))
}

/// `warpstone build --game connect4`: positions per level on stdout, then
/// the empty board's score and the time taken; `--out` writes the
/// database, `--verify N` checks N positions against the solver.
fn build_connect4(args: &super::BuildArgs) -> i32 {
    use crate::solve::connect4::build::{self, Budget, Database};
    use std::io::Write;
    let shape = match connect4::Shape::new(args.width, args.height) {
        Ok(shape) => shape,
        Err(e) => {
            eprintln!("warpstone build: {e}");
            return 2;
        }
    };
    #[cfg(feature = "mpi")]
    if args.mpi {
        return build_connect4_mpi(args, shape);
    }
    let parent = args.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    if !parent.is_dir() {
        eprintln!("warpstone build: {} is not a directory", parent.display());
        return 2;
    }
    let cap = args.max_memory.map(|mib| (mib as usize) << 20);
    let started = std::time::Instant::now();
    let mut out = std::io::stdout().lock();
    let built = Database::build(shape, Budget::new(cap, parent), |n, count| {
        let _ = writeln!(out, "level {n} {count}");
        let _ = out.flush();
    });
    let db = match built {
        Ok(db) => db,
        Err(e) => {
            eprintln!("warpstone build: {e}");
            return 1;
        }
    };
    let root = db
        .score(&connect4::Position::empty(shape))
        .unwrap_or_default();
    let elapsed = started.elapsed().as_secs_f64();
    let digest = match db.digest() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("warpstone build: {e}");
            return 1;
        }
    };
    let _ = writeln!(
        out,
        "{}x{}: {} positions, score {root:+}, digest {digest:016x}, {elapsed:.3} s",
        args.width,
        args.height,
        db.len(),
    );
    if let Some(path) = &args.out {
        if let Err(e) = db.write(path) {
            eprintln!("warpstone build: {}: {e}", path.display());
            return 1;
        }
    }
    if args.verify > 0 {
        match build::verify(&db, args.verify as usize) {
            Ok((checked, 0)) => {
                let _ = writeln!(out, "verified {checked} positions against the solver");
            }
            Ok((checked, wrong)) => {
                let _ = writeln!(out, "{wrong} of {checked} positions differ from the solver");
                return 1;
            }
            Err(e) => {
                eprintln!("warpstone build: {e}");
                return 1;
            }
        }
    }
    0
}

/// `warpstone build --mpi`: the build over MPI ranks; rank 0 prints.
#[cfg(feature = "mpi")]
fn build_connect4_mpi(args: &super::BuildArgs, shape: connect4::Shape) -> i32 {
    use std::io::Write;
    if args.out.is_some() || args.max_memory.is_some() || args.verify > 0 {
        eprintln!(
            "warpstone build: --mpi keeps levels in memory: no --out, --max-memory, --verify"
        );
        return 2;
    }
    let Some(universe) = mpi::initialize() else {
        eprintln!("warpstone build: MPI is already initialised");
        return 2;
    };
    use mpi::traits::Communicator;
    let world = universe.world();
    let (rank, ranks) = (world.rank(), world.size());
    let started = std::time::Instant::now();
    let mut out = std::io::stdout().lock();
    let summary = crate::solve::connect4::build::mpi::build(&world, shape, |n, count| {
        if rank == 0 {
            let _ = writeln!(out, "level {n} {count}");
            let _ = out.flush();
        }
    });
    if rank == 0 {
        let _ = writeln!(
            out,
            "{}x{}: {} positions, score {:+}, digest {:016x}, {:.3} s, {ranks} ranks",
            args.width,
            args.height,
            summary.counts.iter().sum::<u64>(),
            summary.root,
            summary.digest,
            started.elapsed().as_secs_f64()
        );
    }
    0
}

/// `warpstone solve --game connect4`: positions on stdin, scores on stdout.
fn solve_connect4(args: &super::SolveArgs) -> i32 {
    use crate::solve::connect4::cli;
    let options = cli::SolveOptions {
        width: args.width,
        height: args.height,
        analyze: args.analyze,
        weak: args.weak,
        table_mib: args.table_mib as usize,
        book: args.book.clone(),
        threads: args.threads as usize,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match cli::run(&options, &mut stdin.lock(), &mut stdout.lock()) {
        Ok(true) => 0,
        Ok(false) => 2,
        Err(e) => {
            eprintln!("warpstone solve: {e}");
            2
        }
    }
}

/// `warpstone book --game connect4`: the book file, progress on stderr, a
/// summary line on stdout.
fn book_connect4(args: &super::BookArgs) -> i32 {
    use crate::solve::connect4::book_build::{build, BookOptions};
    let shape = match connect4::Shape::new(args.width, args.height) {
        Ok(shape) => shape,
        Err(e) => {
            eprintln!("warpstone book: {e}");
            return 2;
        }
    };
    let options = BookOptions {
        shape,
        depth: args.depth,
        threads: args.threads as usize,
        table_mib: args.table_mib as usize,
        out: args.out.clone(),
        weak: args.weak,
    };
    let started = std::time::Instant::now();
    match build(&options) {
        Ok(summary) => {
            println!(
                "{}x{} depth {}: {} positions ({} solved now), {:.1} s",
                args.width,
                args.height,
                args.depth,
                summary.positions,
                summary.solved,
                started.elapsed().as_secs_f64()
            );
            0
        }
        Err(e) => {
            eprintln!("warpstone book: {}: {e}", args.out.display());
            2
        }
    }
}

/// Go's CPU bench: each playout policy asked for (default: all of them).
fn go_bench(options: &BenchOptions) -> Result<(), String> {
    let pos = go::Position::new(options.size, 7.0).map_err(|e| e.to_string())?;
    let policies = match options.go_policy {
        Some(p) => vec![p],
        None => GoPolicy::ALL.to_vec(),
    };
    let playouts: Vec<(&str, Box<bench::Playout<go::Position>>)> = policies
        .into_iter()
        .map(|policy| {
            let playout: Box<bench::Playout<go::Position>> =
                Box::new(move |p: &go::Position, rng, rec, own| {
                    p.rollout_with(policy, rng, rec, own)
                });
            (policy.name(), playout)
        })
        .collect();
    let playouts: Vec<(&str, &bench::Playout<go::Position>)> =
        playouts.iter().map(|(n, p)| (*n, &**p)).collect();
    bench::run_game("go", &pos, options, &playouts)
}

/// A `--game` value that names no registered game.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game `{0}` (games: {games})", games = names().join(", "))]
pub struct UnknownGame(pub String);

/// The registered game called `name`.
pub fn find(name: &str) -> Result<&'static Registered, UnknownGame> {
    GAMES
        .iter()
        .find(|g| g.name == name)
        .ok_or_else(|| UnknownGame(name.to_string()))
}

/// Every game's name, for `--game`'s possible values.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// The names of the games that have GPU kernels (playout kernels or an
/// evaluator: `--backend cuda` and `check-gpu` take both).
pub fn with_kernels() -> Vec<&'static str> {
    GAMES
        .iter()
        .filter(|g| g.kernels.is_some() || g.evaluator.is_some())
        .map(|g| g.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_found_and_unknown_names_are_an_error() {
        for game in GAMES {
            assert_eq!(find(game.name).map(|g| g.name), Ok(game.name));
        }
        let e = find("chess").err().unwrap();
        assert_eq!(e, UnknownGame("chess".into()));
        assert!(e
            .to_string()
            .starts_with("unknown game `chess` (games: go, havannah"));
    }

    #[test]
    fn names_are_unique_and_go_has_kernels() {
        let mut names = names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GAMES.len());
        assert!(with_kernels().contains(&"go"));
    }
}
