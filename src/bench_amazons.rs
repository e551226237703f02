//! `warpstone bench --game amazons`: Lieberum evaluations per second on the
//! CPU in both forms (layered, the engine's and the figure the GPU kernel
//! is measured against; per square, the reference), random playouts
//! per second, and with `--search` the whole search's iterations per
//! second. One JSON line each.

use crate::bench::BenchOptions;
use crate::game::amazons::Position;
use crate::search::{Limits, Search, SearchConfig};
use crate::sim::amazons_eval::features;
use crate::sim::amazons_layers::features as layered_features;
use crate::sim::amazons_rollout::{random_positions, EvalSimulator};
use crate::sim::bench_record::{per_second, rounded};
use crate::sim::{FastRng, PlayoutRecord, Rollout};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One form of the evaluation: the value of a position.
type Evaluate = fn(&Position) -> f64;

/// Positions the evaluation bench cycles through.
const BENCH_POSITIONS: usize = 4096;

/// Runs `work(thread, n)` on `threads` threads until `seconds` pass;
/// `work` does `n` units and returns. Returns the units done and the time.
fn timed(threads: usize, seconds: f64, work: impl Fn(usize, u64) + Sync) -> (u64, f64) {
    const CHUNK: u64 = 256;
    let deadline = Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let total: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let work = &work;
                s.spawn(move || {
                    let mut done = 0u64;
                    while started.elapsed() < deadline {
                        work(t, CHUNK);
                        done += CHUNK;
                    }
                    done
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    });
    (total, started.elapsed().as_secs_f64())
}

pub fn run(options: &BenchOptions) -> Result<(), String> {
    if !(options.seconds > 0.0 && options.seconds <= 3600.0) {
        return Err("--seconds must be more than 0 and at most 3600".into());
    }
    let size = options.size;
    let threads = options.threads.max(1);
    let positions = random_positions(size, BENCH_POSITIONS, options.seed)?;
    let print = |line: serde_json::Value| -> Result<(), String> {
        use std::io::Write;
        writeln!(std::io::stdout(), "{line}").map_err(|e| format!("writing to stdout: {e}"))
    };

    // The layered form is the engine's; the per-square one is the
    // reference it is checked against.
    let forms: [(&str, Evaluate); 2] = [
        ("layered", |p| layered_features(p).value()),
        ("per_square", |p| features(p).value()),
    ];
    for (form, evaluate) in forms {
        let (evals, secs) = timed(threads, options.seconds, |t, n| {
            for i in 0..n as usize {
                let pos = &positions[(t * 7919 + i) % positions.len()];
                black_box(evaluate(black_box(pos)));
            }
        });
        print(serde_json::json!({
            "mode": "evaluations",
            "game": "amazons",
            "size": size,
            "backend": "cpu",
            "form": form,
            "threads": threads,
            "positions": positions.len(),
            "seconds": rounded(secs, 3),
            "evaluations": evals,
            "evaluations_per_second": per_second(evals as f64, secs),
            "evaluations_per_second_per_thread": per_second(evals as f64 / threads as f64, secs),
        }))?;
    }

    let start = Position::new(size).map_err(|e| e.to_string())?;
    let (playouts, secs) = timed(threads, options.seconds, |t, n| {
        let mut rng = FastRng::new(options.seed ^ ((t as u64 + 1) * 0x9E37_79B9));
        let mut record = PlayoutRecord::default();
        let mut own = vec![0i8; size * size];
        for _ in 0..n / 64 {
            record.reset(0);
            black_box(start.rollout(&mut rng, &mut record, &mut own));
        }
    });
    print(serde_json::json!({
        "mode": "playouts",
        "game": "amazons",
        "size": size,
        "backend": "cpu",
        "policy": "random",
        "threads": threads,
        "seconds": rounded(secs, 3),
        "playouts": playouts / 64,
        "playouts_per_second": per_second((playouts / 64) as f64, secs),
    }))?;

    if options.search {
        let config = SearchConfig {
            threads,
            trees: options.trees,
            seed: options.seed,
            // As the engine searches (`serve_amazons`).
            widening: Some(crate::search::Widening::default()),
            ..SearchConfig::default()
        };
        let mut search = Search::new(config, Arc::new(EvalSimulator));
        search.set_position(&start);
        let limits = Limits {
            playouts: None,
            time: Some(crate::search::time::clock_duration(options.seconds)),
            whole_time: false,
        };
        let cpu_before = crate::bench::process_cpu_seconds();
        let info = search.run(&limits, &AtomicBool::new(false), None);
        let cpu = crate::bench::process_cpu_seconds()
            .zip(cpu_before)
            .map(|(a, b)| a - b);
        let secs = info.elapsed.as_secs_f64().max(1e-9);
        print(serde_json::json!({
            "mode": "search",
            "game": "amazons",
            "size": size,
            "backend": "cpu",
            "threads": threads,
            "seconds": rounded(secs, 3),
            "iterations": info.iterations,
            "iterations_per_second": per_second(info.iterations as f64, secs),
            "cpu_seconds": cpu.map(|c| rounded(c, 3)),
            "iterations_per_cpu_second": cpu.map(|c| per_second(info.iterations as f64, c)),
            "nodes": info.nodes,
            "tree_memory_bytes": info.memory_bytes,
            "tree_memory_capped": info.memory_capped,
        }))?;
    }
    Ok(())
}
