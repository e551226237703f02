//! The Amazons engine's evaluator on the GPU: the same leaf values and
//! expansion priors as [`EvalSimulator`], computed by the kernel in
//! batches — all the children of a search thread's batch of expansions
//! in one launch (`priors_batch`), or of one node (`priors`), a batch of
//! leaves in another. Batches smaller than
//! [`GPU_MIN_BATCH`] stay on the CPU, where one evaluation costs less than
//! a launch's round trip; so does everything after a GPU error (logged
//! once).
//!
//! The search threads share a few [`AmazonsGpu`]s (one per thread asked
//! for), each with its own stream and buffers: a thread takes a free one,
//! so that expansions on several threads overlap on the GPU instead of
//! queueing behind one lock.

use super::amazons::{AmazonsGpu, GpuValue, WORDS};
use super::compile_amazons::{pack, ChildPacker};
use super::CudaError;
use crate::game::amazons::{Move, Position};
use crate::game::{Color, Game};
use crate::sim::amazons_eval::probability_of;
use crate::sim::amazons_rollout::{EvalSimulator, PRIOR_VISITS};
use crate::sim::{LeafStats, Prior, PriorsJob, Simulator};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// Fewest positions sent to the GPU in one launch: a launch and its two
/// copies cost some microseconds, a CPU evaluation about two.
pub const GPU_MIN_BATCH: usize = 32;

/// Most evaluators opened: each holds a stream and pinned host memory
/// grown to its largest batch (48 bytes a position: about 0.8 MB for a
/// batch of 8 opening expansions), and more threads than this share them.
pub const MAX_LANES: usize = 32;

/// [`EvalSimulator`] with its batches on one GPU.
pub struct GpuEvalSimulator {
    lanes: Vec<Mutex<AmazonsGpu>>,
    /// Where the next thread starts looking for a free lane.
    next: AtomicUsize,
    /// Set at the first GPU error: everything after runs on the CPU.
    failed: AtomicBool,
    name: String,
    cpu: EvalSimulator,
    times: Times,
}

/// Where the GPU batches' time went, summed over the threads: whether T
/// threads' batches overlap on the GPU or queue (see
/// `bench --backend cuda --search`).
#[derive(Default)]
struct Times {
    batches: AtomicU64,
    positions: AtomicU64,
    /// Waiting for a lane another thread holds.
    lane_wait_ns: AtomicU64,
    /// Making and packing the positions into the pinned buffer.
    fill_ns: AtomicU64,
    /// Upload, launch, download and the synchronisation: the device's
    /// round trip as the thread sees it.
    device_ns: AtomicU64,
}

/// A snapshot of the GPU batches' timings; [`GpuTimes::since`] gives a run's share.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuTimes {
    pub batches: u64,
    pub positions: u64,
    pub lane_wait_ns: u64,
    pub fill_ns: u64,
    pub device_ns: u64,
}

impl GpuTimes {
    /// What happened between `earlier` and this snapshot.
    pub fn since(&self, earlier: &GpuTimes) -> GpuTimes {
        GpuTimes {
            batches: self.batches - earlier.batches,
            positions: self.positions - earlier.positions,
            lane_wait_ns: self.lane_wait_ns - earlier.lane_wait_ns,
            fill_ns: self.fill_ns - earlier.fill_ns,
            device_ns: self.device_ns - earlier.device_ns,
        }
    }
}

fn elapsed_ns(since: Instant) -> u64 {
    since.elapsed().as_nanos().min(u64::MAX as u128) as u64
}

impl GpuEvalSimulator {
    /// Opens GPU `ordinal`, compiles the kernel and sets up `lanes`
    /// evaluators (1 to [`MAX_LANES`]); the search's thread count is the
    /// number that never makes a thread wait for another's batch.
    pub fn open(ordinal: usize, lanes: usize) -> Result<Self, CudaError> {
        let lanes = lanes.clamp(1, MAX_LANES);
        let first = AmazonsGpu::open(ordinal)?;
        let name = first.name.clone();
        let mut all = Vec::with_capacity(lanes);
        for _ in 1..lanes {
            all.push(Mutex::new(first.another()?));
        }
        all.push(Mutex::new(first));
        Ok(Self {
            lanes: all,
            next: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
            name,
            cpu: EvalSimulator,
            times: Times::default(),
        })
    }

    /// The batches sent to the GPU so far and where their time went.
    pub fn times(&self) -> GpuTimes {
        let t = &self.times;
        GpuTimes {
            batches: t.batches.load(Ordering::Relaxed),
            positions: t.positions.load(Ordering::Relaxed),
            lane_wait_ns: t.lane_wait_ns.load(Ordering::Relaxed),
            fill_ns: t.fill_ns.load(Ordering::Relaxed),
            device_ns: t.device_ns.load(Ordering::Relaxed),
        }
    }

    /// The GPU's name.
    pub fn device_name(&self) -> String {
        self.name.clone()
    }

    /// A free lane, else (every lane busy) the next one in turn.
    fn lane(&self) -> Option<MutexGuard<'_, AmazonsGpu>> {
        let n = self.lanes.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
        for i in 0..n {
            if let Ok(guard) = self.lanes[(start + i) % n].try_lock() {
                return Some(guard);
            }
        }
        self.lanes[start].lock().ok()
    }

    /// The kernel's (value, w) pairs for `count` positions that `fill`
    /// packs, or `None` (the caller uses the CPU) when the batch is small
    /// or the GPU has failed. `read` gets the pairs, and what `fill`
    /// returned, while the lane is held.
    fn on_gpu<T>(
        &self,
        count: usize,
        fill: impl FnOnce(&mut [u64]) -> T,
        read: impl FnOnce(&[f32], T),
    ) -> Option<()> {
        if count < GPU_MIN_BATCH || self.failed.load(Ordering::Relaxed) {
            return None;
        }
        let asked = Instant::now();
        let mut gpu = self.lane()?;
        let got = Instant::now();
        let t = &self.times;
        t.lane_wait_ns.fetch_add(
            got.saturating_duration_since(asked).as_nanos() as u64,
            Ordering::Relaxed,
        );
        let mut filled = None;
        let mut fill_ns = 0;
        let result = gpu
            .upload_with(count, |host| {
                let filling = Instant::now();
                filled = Some(fill(host));
                fill_ns = elapsed_ns(filling);
            })
            .and_then(|()| gpu.launch(count))
            .and_then(|()| gpu.download(count))
            .map(|pairs| {
                let device_ns = elapsed_ns(got).saturating_sub(fill_ns);
                if let Some(filled) = filled {
                    read(pairs, filled);
                }
                device_ns
            });
        match result {
            Ok(device_ns) => {
                t.batches.fetch_add(1, Ordering::Relaxed);
                t.positions.fetch_add(count as u64, Ordering::Relaxed);
                t.fill_ns.fetch_add(fill_ns, Ordering::Relaxed);
                t.device_ns.fetch_add(device_ns, Ordering::Relaxed);
                Some(())
            }
            Err(e) => {
                if !self.failed.swap(true, Ordering::Relaxed) {
                    tracing::error!("Amazons GPU evaluation failed ({e}); evaluating on the CPU");
                }
                None
            }
        }
    }
}

/// The chance the side to move in a position that is not finished wins,
/// from the kernel's (value, w).
fn to_move_probability(pair: &[f32]) -> f64 {
    let v = GpuValue {
        value: pair[0],
        w: pair[1],
    };
    probability_of(v.value as f64, v.w == 0.0)
}

/// Packs `positions` into the kernel's input.
fn fill_from<'a>(positions: impl Iterator<Item = &'a Position>) -> impl FnOnce(&mut [u64]) {
    move |host| {
        for (words, pos) in host.chunks_exact_mut(WORDS).zip(positions) {
            words.copy_from_slice(&pack(pos));
        }
    }
}

impl Simulator<Position> for GpuEvalSimulator {
    fn name(&self) -> &str {
        "cuda-eval"
    }

    fn simulate(
        &self,
        leaves: &[Position],
        playouts_per_leaf: u32,
        seed: u64,
        out: &mut [LeafStats],
    ) {
        // Every leaf goes to the GPU (a finished one's value is unused):
        // the packing stays a straight copy and the results line up.
        let n = playouts_per_leaf.max(1);
        let done = self.on_gpu(leaves.len(), fill_from(leaves.iter()), |pairs, ()| {
            for ((leaf, stats), pair) in leaves.iter().zip(out.iter_mut()).zip(pairs.chunks(2)) {
                stats.reset(0, 0);
                stats.playouts = n;
                let black = match leaf.outcome() {
                    Some(outcome) => outcome.value_for(Color::Black) as f64,
                    None => {
                        let p = to_move_probability(pair);
                        if leaf.to_move() == Color::Black {
                            p
                        } else {
                            1.0 - p
                        }
                    }
                };
                stats.black_wins = (black * n as f64) as f32;
                stats.score_sum = (2.0 * black - 1.0) * n as f64;
            }
        });
        if done.is_none() {
            self.cpu.simulate(leaves, playouts_per_leaf, seed, out);
        }
    }

    fn priors(&self, pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
        self.priors_batch(&mut [PriorsJob { pos, moves, out }]);
    }

    fn priors_batch(&self, jobs: &mut [PriorsJob<'_, Position>]) {
        // Every job's children in one launch, packed job after job straight
        // into the pinned buffer from each parent's sets (`ChildPacker`: no
        // position is made), with whether each is finished for the read.
        let count = jobs.iter().map(|job| job.moves.len()).sum();
        let fill = |host: &mut [u64]| pack_children(jobs, host);
        let mut priors = Vec::with_capacity(count);
        let read = |pairs: &[f32], finished: Vec<bool>| {
            let results = finished.iter().zip(pairs.chunks(2));
            priors.extend(results.map(|(&over, pair)| mover_prior(over, pair)));
        };
        match self.on_gpu(count, fill, read) {
            Some(()) => {
                let mut priors = priors.into_iter();
                for job in jobs.iter_mut() {
                    job.out.clear();
                    job.out.extend(priors.by_ref().take(job.moves.len()));
                }
            }
            None => {
                for job in jobs.iter_mut() {
                    self.cpu.priors(job.pos, job.moves, job.out);
                }
            }
        }
    }

    fn batches_priors(&self) -> bool {
        true
    }

    fn priors_are_leaf_values(&self) -> bool {
        true
    }
}

/// Packs every job's children into `host`, job after job, six words a
/// child; returns whether each child is finished, in the same order.
fn pack_children(jobs: &[PriorsJob<'_, Position>], host: &mut [u64]) -> Vec<bool> {
    let mut finished = Vec::with_capacity(host.len() / WORDS);
    let mut slots = host.chunks_exact_mut(WORDS);
    for job in jobs {
        let packer = ChildPacker::new(job.pos);
        // The moves lead: a zip led by the slots would take one slot past
        // each job's last move, and the next job's children would start a
        // slot late.
        for (&mv, words) in job.moves.iter().zip(slots.by_ref()) {
            let (child, over) = packer.child(mv);
            finished.push(over);
            words.copy_from_slice(&child);
        }
    }
    finished
}

/// The prior of a move whose child the kernel gave `pair`: the mover's
/// chance (the other side is to move after it, and a mover who leaves it
/// no move has won).
fn mover_prior(over: bool, pair: &[f32]) -> Prior {
    let p = match over {
        true => 1.0,
        false => 1.0 - to_move_probability(pair),
    };
    Prior {
        wins: p as f32 * PRIOR_VISITS,
        visits: PRIOR_VISITS,
        bias: 0.0,
        ..Prior::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::amazons_rollout::random_positions;

    fn legal_moves_of(positions: &[Position]) -> Vec<Vec<Move>> {
        let moves_of = |pos: &Position| {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves
        };
        positions.iter().map(moves_of).collect()
    }

    /// One expansion job a position, its priors into `outs`.
    fn jobs_for<'a>(
        positions: &'a [Position],
        moves: &'a [Vec<Move>],
        outs: &'a mut [Vec<Prior>],
    ) -> Vec<PriorsJob<'a, Position>> {
        let each = positions.iter().zip(moves).zip(outs.iter_mut());
        each.map(|((pos, moves), out)| PriorsJob { pos, moves, out })
            .collect()
    }

    /// Several expansions' children packed into one batch sit job after
    /// job, each as `pack` packs the child position, with its finished
    /// flag (no GPU needed).
    #[test]
    fn several_jobs_pack_back_to_back() {
        let positions = random_positions(10, 5, 7).unwrap();
        let moves = legal_moves_of(&positions);
        let mut outs = vec![Vec::new(); positions.len()];
        let jobs = jobs_for(&positions, &moves, &mut outs);
        let count: usize = moves.iter().map(Vec::len).sum();
        let mut host = vec![0u64; count * WORDS];
        let finished = pack_children(&jobs, &mut host);
        assert_eq!(finished.len(), count);
        let mut at = 0;
        for (pos, moves) in positions.iter().zip(&moves) {
            for &mv in moves {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                assert_eq!(&host[at * WORDS..(at + 1) * WORDS], &pack(&child)[..]);
                assert_eq!(finished[at], child.outcome().is_some());
                at += 1;
            }
        }
        assert!(positions.len() > 1 && count > 100, "{count} children");
    }

    /// On a GPU: the expansions of several positions in one launch get
    /// the CPU's priors, each its own, to float precision.
    #[test]
    #[ignore = "needs a CUDA GPU and NVRTC"]
    fn a_batch_of_expansions_gives_the_cpu_priors() {
        let sim = GpuEvalSimulator::open(0, 1).unwrap();
        // Openings beside endings: jobs of thousands of moves and of few.
        let positions = random_positions(10, 24, 5).unwrap();
        let moves = legal_moves_of(&positions);
        let mut outs = vec![Vec::new(); positions.len()];
        let mut jobs = jobs_for(&positions, &moves, &mut outs);
        let batches = sim.times().batches;
        sim.priors_batch(&mut jobs);
        assert_eq!(sim.times().batches, batches + 1, "one launch");
        for ((pos, moves), gpu) in positions.iter().zip(&moves).zip(&outs) {
            let mut cpu = Vec::new();
            EvalSimulator.priors(pos, moves, &mut cpu);
            assert_eq!(gpu.len(), cpu.len());
            for (g, c) in gpu.iter().zip(&cpu) {
                assert!((g.wins - c.wins).abs() < 1e-3, "{g:?} {c:?}");
            }
        }
        assert!(!sim.failed.load(Ordering::Relaxed), "the GPU failed");
    }

    /// On a GPU: four threads expanding at once, each on a lane of its
    /// own, get the CPU's priors to float precision.
    #[test]
    #[ignore = "needs a CUDA GPU and NVRTC"]
    fn concurrent_lanes_give_the_cpu_priors() {
        let sim = GpuEvalSimulator::open(0, 4).unwrap();
        let positions = random_positions(10, 40, 3).unwrap();
        std::thread::scope(|s| {
            for chunk in positions.chunks(10) {
                let sim = &sim;
                s.spawn(move || {
                    for pos in chunk {
                        let mut moves = Vec::new();
                        pos.legal_moves(&mut moves);
                        let (mut gpu, mut cpu) = (Vec::new(), Vec::new());
                        sim.priors(pos, &moves, &mut gpu);
                        EvalSimulator.priors(pos, &moves, &mut cpu);
                        assert_eq!(gpu.len(), cpu.len());
                        for (g, c) in gpu.iter().zip(&cpu) {
                            assert!((g.wins - c.wins).abs() < 1e-3, "{g:?} {c:?}");
                        }
                    }
                });
            }
        });
        assert!(!sim.failed.load(Ordering::Relaxed), "the GPU failed");
    }
}
