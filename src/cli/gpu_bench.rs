//! `warpstone bench --backend cuda --search`: how much of the kernels'
//! playout rate the whole search turns into playouts backed up into the
//! tree, as JSON lines:
//!
//! 1. `"mode":"kernel"`: the raw kernel rate, one thread launching
//!    `--leaves` fixed positions × `--playouts` (the shape of the kernel
//!    table in `docs/speed.md`) — the figure the search is measured against;
//! 2. `"mode":"kernel-batches"`: the rate at the search's own batch shape
//!    (`--gpu-leaves` × `--gpu-playouts`) with every launch slot kept busy
//!    by its own thread — what the GPU gives at that shape, tree aside;
//! 3. `"mode":"search"`: the UCT search from the empty board for
//!    `--seconds`, playouts backed up per second, and that as a fraction of
//!    (1) and of (2).

use crate::bench_record::{per_second, rounded, BenchRecord};
use crate::search::{Limits, Search, SearchConfig};
use crate::sim::cuda::{
    check::fixed_positions, CudaError, GpuSimulator, HexPolicy, KernelPosition,
};
use crate::sim::go_rollout::GoPolicy;
use crate::sim::{LeafStats, Rollout, Simulator};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the search bench runs with.
#[derive(Clone, Debug)]
pub struct SearchBench {
    pub gpus: Vec<usize>,
    pub leaves: usize,
    pub playouts: u32,
    pub threads: usize,
    /// Search trees (root parallelism).
    pub trees: usize,
    /// Launch slots per GPU.
    pub slots: usize,
    pub gpu_leaves: usize,
    pub gpu_playouts: u32,
    /// `--virtual-loss` (`None`: the default, `SearchConfig::virtual_loss_per_leaf`).
    pub virtual_loss: Option<u32>,
    pub seconds: f64,
    pub seed: u64,
    /// The Go kernels' playout policy (`--gpu-policy`).
    pub go_policy: GoPolicy,
    /// The Havannah kernels' playout policy (from `--gpu-policy`).
    pub hex_policy: HexPolicy,
}

/// Runs the three measurements for the game of `start` and prints them;
/// `policy` names the kernels' playout policy in the JSON lines.
pub fn run<G: KernelPosition + Rollout>(
    game: &str,
    policy: &str,
    size: usize,
    start: &G,
    spread: usize,
    opts: &SearchBench,
) -> Result<(), CudaError> {
    let sim = Arc::new(
        GpuSimulator::<G>::new(&opts.gpus, opts.slots)?
            .with_go_policy(opts.go_policy)
            .with_hex_policy(opts.hex_policy),
    );
    let device = sim.device_name();
    let head = BenchRecord {
        game: game.into(),
        size,
        backend: "cuda".into(),
        device: Some(device),
        gpus: Some(sim.gpu_count()),
        slots: Some(sim.slot_count()),
        policy: Some(policy.into()),
        ..BenchRecord::default()
    };

    let positions = fixed_positions(start, opts.leaves, spread, 7);
    let kernel = timed_batches(&sim, &positions, opts.playouts, 1, Duration::ZERO, 3)?;
    let line = BenchRecord {
        mode: "kernel",
        leaves: Some(opts.leaves),
        playouts_per_leaf: Some(opts.playouts),
        threads: Some(1),
        playouts_per_second: per_second(kernel, 1.0),
        ..head.clone()
    };
    println!("{}", line.line());

    let positions = fixed_positions(start, opts.gpu_leaves, spread, 7);
    let shape = timed_batches(
        &sim,
        &positions,
        opts.gpu_playouts,
        sim.slot_count(),
        crate::search::time::clock_duration(opts.seconds.clamp(0.5, 3.0)),
        3,
    )?;
    let line = BenchRecord {
        mode: "kernel-batches",
        leaves: Some(opts.gpu_leaves),
        playouts_per_leaf: Some(opts.gpu_playouts),
        threads: Some(sim.slot_count()),
        playouts_per_second: per_second(shape, 1.0),
        ..head.clone()
    };
    println!("{}", line.line());

    let config = SearchConfig {
        threads: opts.threads.max(1),
        trees: opts.trees,
        leaves_per_batch: opts.gpu_leaves.max(1),
        playouts_per_leaf: opts.gpu_playouts.max(1),
        virtual_loss: opts.virtual_loss,
        seed: opts.seed,
        early_stop: false,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, sim.clone() as Arc<dyn Simulator<G>>);
    search.set_position(start);
    let limits = Limits {
        playouts: None,
        time: Some(crate::search::time::clock_duration(opts.seconds)),
        whole_time: false,
    };
    let info = search.run(&limits, &AtomicBool::new(false), None);
    let secs = info.elapsed.as_secs_f64().max(1e-9);
    let rate = info.playouts as f64 / secs;
    let line = BenchRecord {
        mode: "search",
        leaves: Some(opts.gpu_leaves),
        playouts_per_leaf: Some(opts.gpu_playouts),
        threads: Some(opts.threads),
        trees: Some(search.config().tree_count()),
        seconds: Some(rounded(secs, 3)),
        iterations: Some(info.iterations),
        playouts: Some(info.playouts),
        playouts_per_second: per_second(rate, 1.0),
        fraction_of_kernel: Some(rounded(rate / kernel.max(1.0), 3)),
        fraction_of_kernel_batches: Some(rounded(rate / shape.max(1.0), 3)),
        nodes: Some(info.nodes as u64),
        tree_memory_capped: Some(info.memory_capped),
        gpu_memory_bytes: Some(sim.memory_bytes() as u64),
        ..head
    };
    println!("{}", line.line());
    Ok(())
}

/// Playouts per second of `threads` threads each simulating `positions`
/// at least `batches` times and until `budget` is spent (after one warm-up
/// batch each, which also grows the slots' buffers): the wall time of the
/// whole, so concurrency counts.
fn timed_batches<G: KernelPosition + Rollout>(
    sim: &GpuSimulator<G>,
    positions: &[G],
    playouts: u32,
    threads: usize,
    budget: Duration,
    batches: u32,
) -> Result<f64, CudaError> {
    let run = |thread: usize, batches: u32, until: Instant| -> Result<u64, CudaError> {
        let mut out = vec![LeafStats::default(); positions.len()];
        let mut total = 0;
        let mut b = 0u32;
        while b < batches || Instant::now() < until {
            let seed = (thread as u64) << 32 | b as u64;
            sim.try_simulate(positions, playouts, seed, &mut out)?;
            total += out.iter().map(|s| s.playouts as u64).sum::<u64>();
            b += 1;
        }
        Ok(total)
    };
    let parallel = |batches: u32, budget: Duration| -> Result<u64, CudaError> {
        let until = Instant::now() + budget;
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads.max(1))
                .map(|t| s.spawn(move || run(t, batches, until)))
                .collect();
            let mut total = 0;
            for h in handles {
                total += h
                    .join()
                    .map_err(|_| CudaError::Driver("bench thread panicked".into()))??;
            }
            Ok(total)
        })
    };
    parallel(1, Duration::ZERO)?;
    let started = Instant::now();
    let total = parallel(batches.max(1), budget)?;
    Ok(total as f64 / started.elapsed().as_secs_f64().max(1e-9))
}
