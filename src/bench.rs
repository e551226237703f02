//! `warpstone bench`: playout and search speed, one JSON object per line on
//! stdout (the only thing this subcommand prints there).

use crate::bench_record::{per_second, rounded, BenchRecord};
use crate::game::Game;
use crate::search::{Limits, Search, SearchConfig};
use crate::sim::cpu::CpuSimulator;
use crate::sim::go_rollout::GoPolicy;
use crate::sim::synthetic::SyntheticSimulator;
use crate::sim::{FastRng, PlayoutRecord, PlayoutResult, Rollout, Simulator};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub size: usize,
    pub threads: usize,
    /// Search trees (`--trees`, root parallelism).
    pub trees: usize,
    pub seconds: f64,
    pub search: bool,
    /// `--tree-only`: the search on the synthetic simulator, with (leaves
    /// per batch, playouts per leaf).
    pub tree_only: Option<(usize, u32)>,
    /// Go's playout policy (`--policy`; default: every policy).
    pub go_policy: Option<GoPolicy>,
    pub seed: u64,
}

/// One playout policy of a game as the bench runs it.
pub type Playout<G> =
    dyn Fn(&G, &mut FastRng, &mut PlayoutRecord, &mut [i8]) -> PlayoutResult + Sync;

/// Playouts between clock reads: reading the clock every playout would
/// show up in the figure on small boards.
const CLOCK_EVERY: u64 = 64;

struct Measured {
    playouts: u64,
    moves: u64,
    elapsed: Duration,
}

/// The CPU bench of one game from `pos`: playouts/s of each of
/// `playouts` (named policies; none with `--tree-only`), then with
/// `--search` the whole search.
pub fn run_game<G: Rollout>(
    game: &str,
    pos: &G,
    options: &BenchOptions,
    playouts: &[(&str, &Playout<G>)],
) -> Result<(), String> {
    if !(options.seconds > 0.0 && options.seconds <= 3600.0) {
        return Err("--seconds must be more than 0 and at most 3600".into());
    }
    // --tree-only measures the tree alone.
    if options.tree_only.is_none() {
        for &(policy, playout) in playouts {
            let m = measure(pos, options, |p, rng, rec, own| playout(p, rng, rec, own));
            print_playouts(game, options, policy, &m)?;
        }
    }
    if options.search {
        search_bench(game, pos, options)?;
    }
    Ok(())
}

/// Prints one line; a closed stdout ends the bench with an error.
fn print(record: &BenchRecord) -> Result<(), String> {
    record
        .print()
        .map_err(|e| format!("writing to stdout: {e}"))
}

/// Runs playouts from `pos` on every thread until the time is up.
fn measure<G, F>(pos: &G, options: &BenchOptions, playout: F) -> Measured
where
    G: Game,
    F: Fn(&G, &mut FastRng, &mut PlayoutRecord, &mut [i8]) -> PlayoutResult + Sync,
{
    let budget = crate::search::time::clock_duration(options.seconds);
    let start = Instant::now();
    let per_thread: Vec<(u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..options.threads)
            .map(|t| {
                let playout = &playout;
                scope.spawn(move || {
                    let mut rng = FastRng::new(options.seed.wrapping_add(t as u64));
                    let mut record = PlayoutRecord::default();
                    let mut owner = vec![0i8; pos.cell_space()];
                    let (mut playouts, mut moves) = (0u64, 0u64);
                    loop {
                        for _ in 0..CLOCK_EVERY {
                            record.reset(pos.move_space());
                            moves += playout(pos, &mut rng, &mut record, &mut owner).moves as u64;
                        }
                        playouts += CLOCK_EVERY;
                        if start.elapsed() >= budget {
                            return (playouts, moves);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or((0, 0)))
            .collect()
    });
    Measured {
        playouts: per_thread.iter().map(|p| p.0).sum(),
        moves: per_thread.iter().map(|p| p.1).sum(),
        elapsed: start.elapsed(),
    }
}

fn print_playouts(
    game: &str,
    options: &BenchOptions,
    policy: &str,
    m: &Measured,
) -> Result<(), String> {
    let secs = m.elapsed.as_secs_f64();
    let record = BenchRecord {
        mode: "playouts",
        game: game.into(),
        size: options.size,
        backend: "cpu".into(),
        policy: Some(policy.into()),
        threads: Some(options.threads),
        seconds: Some(rounded(secs, 3)),
        playouts: Some(m.playouts),
        playouts_per_second: per_second(m.playouts as f64, secs),
        playouts_per_second_per_thread: Some(per_second(
            m.playouts as f64 / options.threads.max(1) as f64,
            secs,
        )),
        moves_per_playout: Some(rounded(m.moves as f64 / m.playouts.max(1) as f64, 2)),
        ..BenchRecord::default()
    };
    print(&record)
}

/// The whole search (tree descent, expansion, playout, backup) from the
/// starting position for the given time.
fn search_bench<G: Rollout>(game: &str, pos: &G, options: &BenchOptions) -> Result<(), String> {
    let (sim, backend): (Arc<dyn Simulator<G>>, _) = match options.tree_only {
        Some(_) => (Arc::new(SyntheticSimulator::<G>::new()), "synthetic"),
        None => (Arc::new(CpuSimulator::<G>::engine()), "cpu"),
    };
    let (leaves_per_batch, playouts_per_leaf) = options.tree_only.unwrap_or((1, 1));
    let config = SearchConfig {
        threads: options.threads,
        trees: options.trees,
        seed: options.seed,
        leaves_per_batch,
        playouts_per_leaf,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, sim);
    search.set_position(pos);
    let limits = Limits {
        playouts: None,
        time: Some(crate::search::time::clock_duration(options.seconds)),
        whole_time: false,
    };
    let cpu_before = process_cpu_seconds();
    let info = search.run(&limits, &AtomicBool::new(false), None);
    let cpu = process_cpu_seconds().zip(cpu_before).map(|(a, b)| a - b);
    let secs = info.elapsed.as_secs_f64().max(1e-9);
    let record = BenchRecord {
        mode: "search",
        game: game.into(),
        size: options.size,
        backend: backend.into(),
        threads: Some(options.threads),
        trees: Some(search.config().tree_count()),
        seconds: Some(rounded(secs, 3)),
        iterations: Some(info.iterations),
        playouts: Some(info.playouts),
        playouts_per_second: per_second(info.playouts as f64, secs),
        iterations_per_second: Some(per_second(info.iterations as f64, secs)),
        cpu_seconds: cpu.map(|c| rounded(c, 3)),
        iterations_per_cpu_second: cpu.map(|c| per_second(info.iterations as f64, c)),
        nodes: Some(info.nodes as u64),
        tree_memory_bytes: Some(info.memory_bytes as u64),
        tree_memory_capped: Some(info.memory_capped),
        ..BenchRecord::default()
    };
    print(&record)
}

/// CPU time this process has used so far, every thread, user and system
/// (`None` if the clock cannot be read).
pub(crate) fn process_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration;
    // the clock id is a constant the platform defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// `warpstone bench --all-moves`: the all-moves evaluation of one position
/// (the empty board after `moves` random legal moves), `playouts` playouts
/// per legal move, all in one `simulate` call (one GPU batch with the cuda
/// backend). Prints one JSON line; `Err` if the simulator ran fewer
/// playouts than asked (a failed GPU batch).
#[allow(clippy::too_many_arguments)] // one JSON line's worth of inputs
pub fn all_moves<G: Game>(
    game: &str,
    size: usize,
    start: &G,
    moves: usize,
    playouts: u32,
    seed: u64,
    sim: &dyn Simulator<G>,
    name_move: &dyn Fn(&G, G::Move) -> String,
) -> Result<(), String> {
    use crate::engine::evaluate;
    let pos = crate::sim::cuda::check::fixed_positions(start, moves + 1, moves + 1, seed)
        .pop()
        .unwrap_or_else(|| start.clone());
    let children = evaluate::placements(&pos);
    if children.leaves.is_empty() {
        return Err("the position has no move to evaluate".into());
    }
    let mover = pos.to_move();
    // The first batch grows the simulator's buffers (and on a GPU loads
    // the kernel); the second is the one timed.
    let warm = Instant::now();
    evaluate::rate_leaves(sim, &children.leaves, mover, playouts, seed);
    let warmup = warm.elapsed().as_secs_f64();
    let timed = Instant::now();
    let rated = evaluate::rate_leaves(sim, &children.leaves, mover, playouts, seed + 1);
    let secs = timed.elapsed().as_secs_f64().max(1e-9);
    let wanted = children.leaves.len() as u64 * playouts.max(1) as u64;
    if rated.playouts < wanted {
        return Err(format!(
            "{} of {wanted} playouts came back; see the log",
            rated.playouts
        ));
    }
    let best = rated.best().unwrap_or(0);
    let record = BenchRecord {
        mode: "all-moves",
        game: game.into(),
        size,
        backend: sim.name().into(),
        position_moves: Some(moves),
        to_move: Some(mover.name().into()),
        moves_evaluated: Some(children.leaves.len()),
        playouts_per_move: Some(playouts.max(1)),
        seconds: Some(rounded(secs, 4)),
        warmup_seconds: Some(rounded(warmup, 4)),
        playouts: Some(rated.playouts),
        playouts_per_second: per_second(rated.playouts as f64, secs),
        best_move: Some(name_move(&pos, children.moves[best])),
        best_win_rate: Some(rounded(rated.win_rates[best] as f64, 4)),
        ..BenchRecord::default()
    };
    print(&record)
}
