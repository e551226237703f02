//! `warpstone --game amazons bench --backend cuda`: Lieberum evaluations
//! per second on one GPU next to one CPU thread's on the same positions,
//! and the largest |GPU − CPU|; with `--search`, the search's iterations
//! per second on the GPU evaluator and on the CPU. One JSON line each.
//!
//! The GPU stays open and its buffers allocated; each batch size is timed
//! twice over repeated batches: kernel only (the positions uploaded once,
//! launches back to back) and with copies (upload, launch, download).

use crate::bench::BenchOptions;
use crate::game::amazons::Move;
use crate::game::amazons::Position;
use crate::search::{Limits, Search, SearchConfig};
use crate::sim::amazons_eval;
use crate::sim::amazons_layers;
use crate::sim::amazons_rollout::{random_positions, EvalSimulator};
use crate::sim::bench_record::{per_second, rounded};
use crate::sim::cuda::amazons::AmazonsGpu;
use crate::sim::cuda::amazons_sim::GpuEvalSimulator;
use crate::sim::{LeafStats, Prior, PriorsJob, Simulator};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Batch sizes timed: a small one (64, what a thread's leaves were when
/// they were evaluated again), the search's expansions (~500 children in
/// the middle game, 2,176 at the start), the paper's best thread count
/// (16,384) and more.
const BATCHES: [usize; 6] = [64, 500, 2_176, 16_384, 32_768, 65_536];

fn print(line: serde_json::Value) -> Result<(), String> {
    use std::io::Write;
    writeln!(std::io::stdout(), "{line}").map_err(|e| format!("writing to stdout: {e}"))
}

/// Repeats `work` (one batch of `batch` positions) for about `seconds`;
/// returns positions per second.
fn rate(
    seconds: f64,
    batch: usize,
    mut work: impl FnMut() -> Result<(), String>,
) -> Result<f64, String> {
    work()?; // warm-up: the first launch loads the module
    let started = Instant::now();
    let mut done = 0u64;
    while started.elapsed().as_secs_f64() < seconds {
        work()?;
        done += batch as u64;
    }
    Ok(done as f64 / started.elapsed().as_secs_f64())
}

pub fn run(options: &BenchOptions, gpu_ordinal: usize) -> Result<(), String> {
    if !(options.seconds > 0.0 && options.seconds <= 3600.0) {
        return Err("--seconds must be more than 0 and at most 3600".into());
    }
    let size = options.size;
    let mut gpu = AmazonsGpu::open(gpu_ordinal).map_err(|e| format!("GPU {gpu_ordinal}: {e}"))?;
    let largest = BATCHES[BATCHES.len() - 1];
    tracing::info!("{largest} random positions on {size}x{size}");
    let positions = random_positions(size, largest, options.seed)?;

    // One CPU thread on the same positions, both forms.
    let cpu_rate = |f: &dyn Fn(&Position) -> f64| {
        let started = Instant::now();
        let mut done = 0usize;
        while started.elapsed().as_secs_f64() < options.seconds / 2.0 {
            for pos in positions.iter().take(4096) {
                black_box(f(black_box(pos)));
            }
            done += 4096.min(positions.len());
        }
        done as f64 / started.elapsed().as_secs_f64()
    };
    let cpu_layered = cpu_rate(&|p| amazons_layers::features(p).value());
    let cpu_per_square = cpu_rate(&|p| amazons_eval::features(p).value());

    let err = |e: crate::sim::cuda::CudaError| e.to_string();
    for batch in BATCHES {
        let chunk = &positions[..batch];
        let values = gpu.evaluate(chunk).map_err(err)?;
        let worst = chunk
            .iter()
            .zip(&values)
            .map(|(p, v)| (v.value as f64 - amazons_eval::features(p).value()).abs())
            .fold(0.0f64, f64::max);
        let with_copies = rate(options.seconds / 2.0, batch, || {
            gpu.evaluate(chunk).map(drop).map_err(err)
        })?;
        gpu.upload(chunk).map_err(err)?;
        let kernel = rate(options.seconds / 2.0, batch, || {
            // Launches queue back to back; waiting every 16 keeps the
            // queue short without a gap after each launch.
            for _ in 0..16 {
                gpu.launch(batch).map_err(err)?;
            }
            gpu.synchronize().map_err(err)
        })? * 16.0;
        print(serde_json::json!({
            "mode": "evaluations",
            "game": "amazons",
            "size": size,
            "backend": "cuda",
            "device": gpu.name,
            "batch": batch,
            "gpu_kernel_evaluations_per_second": per_second(kernel, 1.0),
            "gpu_with_copies_evaluations_per_second": per_second(with_copies, 1.0),
            "cpu_thread_evaluations_per_second": per_second(cpu_layered, 1.0),
            "cpu_thread_per_square_evaluations_per_second": per_second(cpu_per_square, 1.0),
            "kernel_over_cpu_thread": rounded(kernel / cpu_layered, 1),
            "with_copies_over_cpu_thread": rounded(with_copies / cpu_layered, 1),
            "with_copies_microseconds_per_batch": rounded(batch as f64 / with_copies * 1e6, 1),
            "max_abs_gpu_minus_cpu": worst,
        }))?;
    }
    drop(gpu);

    let threads = options.threads.max(1);
    let gpu_sim = Arc::new(
        GpuEvalSimulator::open(gpu_ordinal, threads)
            .map_err(|e| format!("GPU {gpu_ordinal}: {e}"))?,
    );
    expansion_line(options, &gpu_sim)?;
    if options.search {
        search_line(options, "cuda", gpu_sim.clone(), Some(&gpu_sim))?;
        search_line(options, "cpu", Arc::new(EvalSimulator), None)?;
    }
    Ok(())
}

/// One expansion at the start (every child's prior: making the children,
/// the copies, the launch) on the GPU evaluator and on the CPU, in
/// microseconds: what a search thread waits for at each new node.
fn expansion_line(options: &BenchOptions, gpu: &GpuEvalSimulator) -> Result<(), String> {
    use crate::game::Game;
    let start = Position::new(options.size).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let mut priors = Vec::new();
    let mut time = |sim: &dyn Simulator<Position>| -> Result<f64, String> {
        let per_second = rate(options.seconds / 4.0, 1, || {
            sim.priors(&start, &moves, &mut priors);
            Ok(())
        })?;
        Ok(1e6 / per_second)
    };
    let gpu_us = time(gpu)?;
    let cpu_us = time(&EvalSimulator)?;
    print(serde_json::json!({
        "mode": "expansion",
        "game": "amazons",
        "size": options.size,
        "children": moves.len(),
        "gpu_microseconds": rounded(gpu_us, 1),
        "cpu_thread_microseconds": rounded(cpu_us, 1),
    }))
}

/// A simulator that counts and times its expansions (`priors`, and each
/// job of `priors_batch`), summed over the threads: expansions a second,
/// and how many calls were under way at once on average (their summed
/// time over the run's; a batch's time counts once, shared by its jobs).
struct Timed {
    inner: Arc<dyn Simulator<Position>>,
    expansions: AtomicU64,
    expansion_ns: AtomicU64,
}

impl Simulator<Position> for Timed {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn simulate(&self, leaves: &[Position], playouts: u32, seed: u64, out: &mut [LeafStats]) {
        self.inner.simulate(leaves, playouts, seed, out)
    }

    fn priors(&self, pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
        let started = Instant::now();
        self.inner.priors(pos, moves, out);
        let ns = started.elapsed().as_nanos() as u64;
        self.expansions.fetch_add(1, Ordering::Relaxed);
        self.expansion_ns.fetch_add(ns, Ordering::Relaxed);
    }

    /// A batch's expansions count one each and share the batch's time.
    fn priors_batch(&self, jobs: &mut [PriorsJob<'_, Position>]) {
        let started = Instant::now();
        self.inner.priors_batch(jobs);
        let ns = started.elapsed().as_nanos() as u64;
        self.expansions
            .fetch_add(jobs.len() as u64, Ordering::Relaxed);
        self.expansion_ns.fetch_add(ns, Ordering::Relaxed);
    }

    fn batches_priors(&self) -> bool {
        self.inner.batches_priors()
    }

    fn priors_are_leaf_values(&self) -> bool {
        self.inner.priors_are_leaf_values()
    }
}

/// The search from the start for `--seconds` on `sim`: one JSON line,
/// with the expansions' rate and overlap, and, given the GPU evaluator,
/// where its batches' time went (per batch: waiting for a lane, making
/// and packing the children, the device's round trip).
fn search_line(
    options: &BenchOptions,
    backend: &str,
    sim: Arc<dyn Simulator<Position>>,
    gpu: Option<&GpuEvalSimulator>,
) -> Result<(), String> {
    let timed = Arc::new(Timed {
        inner: sim,
        expansions: AtomicU64::new(0),
        expansion_ns: AtomicU64::new(0),
    });
    let gpu_before = gpu.map(|g| g.times());
    let threads = options.threads.max(1);
    let config = SearchConfig {
        threads,
        trees: options.trees,
        seed: options.seed,
        // As the engine searches (`serve_amazons`).
        leaves_per_batch: match backend {
            "cuda" => LEAVES_PER_BATCH,
            _ => 1,
        },
        expand_after_visits: match backend {
            "cuda" => EXPAND_AFTER_VISITS,
            _ => crate::search::config::EXPAND_AFTER_VISITS,
        },
        // As the engine searches (`serve_amazons`).
        widening: Some(crate::search::Widening::default()),
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, timed.clone());
    let start = Position::new(options.size).map_err(|e| e.to_string())?;
    search.set_position(&start);
    let limits = Limits {
        playouts: None,
        time: Some(crate::search::time::clock_duration(options.seconds)),
        whole_time: false,
    };
    let info = search.run(&limits, &AtomicBool::new(false), None);
    let secs = info.elapsed.as_secs_f64().max(1e-9);
    let expansions = timed.expansions.load(Ordering::Relaxed);
    let expansion_secs = timed.expansion_ns.load(Ordering::Relaxed) as f64 * 1e-9;
    let mut line = serde_json::json!({
        "mode": "search",
        "game": "amazons",
        "size": options.size,
        "backend": backend,
        "threads": threads,
        "trees": options.trees,
        "seconds": rounded(secs, 3),
        "iterations": info.iterations,
        "iterations_per_second": per_second(info.iterations as f64, secs),
        "nodes": info.nodes,
        "tree_memory_capped": info.memory_capped,
        "expansions": expansions,
        "expansions_per_second": per_second(expansions as f64, secs),
        "expansion_microseconds": rounded(1e6 * expansion_secs / expansions.max(1) as f64, 1),
        "expansions_in_flight": rounded(expansion_secs / secs, 2),
    });
    if let (Some(gpu), Some(before)) = (gpu, gpu_before) {
        let t = gpu.times().since(&before);
        let per_batch = |ns: u64| -> serde_json::Value {
            rounded(ns as f64 * 1e-3 / t.batches.max(1) as f64, 1).into()
        };
        line["gpu_batches"] = t.batches.into();
        line["gpu_positions_per_batch"] =
            rounded(t.positions as f64 / t.batches.max(1) as f64, 1).into();
        line["gpu_lane_wait_microseconds"] = per_batch(t.lane_wait_ns);
        line["gpu_fill_microseconds"] = per_batch(t.fill_ns);
        line["gpu_device_microseconds"] = per_batch(t.device_ns);
        line["gpu_device_in_flight"] = rounded(t.device_ns as f64 * 1e-9 / secs, 2).into();
    }
    print(line)
}

/// Leaves a search thread of the GPU engine selects before it backs them
/// up. A leaf's value is its prior, evaluated in its parent's expansion
/// (`Simulator::priors_are_leaf_values`), so a leaf needs no launch; the
/// batch's descents stop at the nodes they claim for expansion, and those
/// expansions go to the GPU in one launch (`Simulator::batches_priors`),
/// one round trip where each was one. On an H200, one thread, 8 a batch
/// against 1, the match in docs/amazons.md: 31 W 10 L of 41 against the
/// CPU engine, where 1 a batch won 64 of 100.
pub const LEAVES_PER_BATCH: usize = 8;

/// Visits a leaf of the GPU engine has before it is expanded: it is
/// expanded at its second visit, the CPU engine's at its third
/// (`search::config::EXPAND_AFTER_VISITS`). A leaf's visits before its
/// expansion only back up its prior again, which its parent's expansion
/// computed; its expansion evaluates its children (in a launch it shares
/// with its batch's other expansions), and the descent goes on to back up
/// the best child's value, one ply deeper. On the GPU an expansion costs
/// a share of a round trip (about 100 µs for one at the start, against
/// 1.2 ms on one CPU thread). On the CPU, where an expansion is
/// ten times dearer, 1 was no weaker than 2: 11 W 9 L of 20 at 1 s a
/// move. (0 would expand every new node the descent reaches, down to the
/// end of the game.)
pub const EXPAND_AFTER_VISITS: u64 = 1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// The bench's timing wrapper passes the priors through unchanged and
    /// counts every expansion a search makes.
    #[test]
    fn timed_counts_the_expansions_and_keeps_the_priors() {
        let timed = Arc::new(Timed {
            inner: Arc::new(EvalSimulator),
            expansions: AtomicU64::new(0),
            expansion_ns: AtomicU64::new(0),
        });
        let pos = random_positions(6, 1, 5).unwrap().remove(0);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        timed.priors(&pos, &moves, &mut got);
        EvalSimulator.priors(&pos, &moves, &mut want);
        assert_eq!(got, want);
        assert_eq!(timed.expansions.load(Ordering::Relaxed), 1);

        let config = SearchConfig {
            threads: 2,
            ..SearchConfig::default()
        };
        let mut search = Search::new(config, timed.clone());
        search.set_position(&Position::new(6).unwrap());
        let limits = Limits {
            playouts: Some(400),
            time: None,
            whole_time: false,
        };
        let info = search.run(&limits, &AtomicBool::new(false), None);
        let expansions = timed.expansions.load(Ordering::Relaxed) - 1;
        // Without widening every expansion gives its node one child a
        // move: the tree's nodes past the root came from the counted ones.
        assert!(expansions >= 1, "{expansions}");
        assert!(info.nodes as u64 > expansions, "{} nodes", info.nodes);
    }

    /// On a GPU: the GPU priors equal the CPU's to float precision, and a
    /// search on the GPU evaluator plays legal moves through a game.
    #[test]
    #[ignore = "needs a CUDA GPU and NVRTC"]
    fn the_gpu_search_plays_legal_moves() {
        let sim = Arc::new(GpuEvalSimulator::open(0, 2).unwrap());
        for pos in random_positions(10, 20, 9).unwrap() {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let (mut gpu, mut cpu) = (Vec::new(), Vec::new());
            sim.priors(&pos, &moves, &mut gpu);
            EvalSimulator.priors(&pos, &moves, &mut cpu);
            for (g, c) in gpu.iter().zip(&cpu) {
                assert!((g.wins - c.wins).abs() < 1e-3, "{g:?} {c:?}");
            }
        }
        let config = SearchConfig {
            threads: 2,
            leaves_per_batch: 64,
            ..SearchConfig::default()
        };
        let mut search = Search::new(config, sim);
        let mut pos = Position::new(10).unwrap();
        for _ in 0..12 {
            search.set_position(&pos);
            let limits = Limits {
                playouts: Some(3000),
                time: None,
                whole_time: false,
            };
            let info = search.run(&limits, &AtomicBool::new(false), None);
            let mv = info.candidates.first().expect("a move").mv;
            assert!(pos.is_legal(mv), "{mv:?}");
            pos.apply(mv);
        }
    }
}
