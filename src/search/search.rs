//! The search driver: threads, limits, tree reuse, reporting.
//!
//! Tree parallelism inside a tree, root parallelism across trees: the
//! search grows `trees` independent trees (see [`super::root`]), each
//! behind its own mutex, and `threads` workers are dealt round-robin to
//! them. A worker locks its tree, descends to `leaves_per_batch` leaves
//! (virtual loss spreads them out), unlocks, simulates the batch in one
//! `Simulator::simulate` call, locks again and backs the results up. The
//! calling thread only waits, reports progress and collects the answer.
//! Limits, counters and the seed sequence are shared by all trees.

use super::config::{
    Limits, SearchConfig, BATCH_TIME_FRACTION, EARLY_STOP_CHECK_EVERY, EARLY_STOP_MIN_ELAPSED,
    FIRST_BATCH_DIVISOR, UNLIMITED_RUN_BATCH_BUDGET,
};
use super::info::{self, Decision, RunCounters, SearchInfo};
use super::root;
use super::tree::{NodeId, Tree};
use super::uct::{self, Context, LeafResult, Path, Scratch};
use crate::game::{Game, Outcome};
use crate::sim::{LeafStats, Simulator};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Generic UCT search over a [`Game`].
pub struct Search<G: Game> {
    config: SearchConfig,
    sim: Arc<dyn Simulator<G>>,
    /// One tree per [`tree_count`]; each gets an equal share of the memory
    /// cap.
    pub(super) trees: Vec<Tree<G::Move>>,
    root_pos: Option<G>,
    /// Simulate calls are seeded with `config.seed + simulations` (leaves
    /// simulated since the last `clear`), so runs are reproducible.
    simulations: u64,
    last_run: RunCounters,
    /// Leaves per batch that sized runs start with (0: not measured yet;
    /// see [`BATCH_TIME_FRACTION`]).
    pub(super) batch_leaves: usize,
}

/// Progress callback: called every `Duration` with a fresh snapshot.
pub type Report<'a, M> = (Duration, &'a mut (dyn FnMut(&SearchInfo<M>) + Send));

impl<G: Game> Search<G> {
    pub fn new(config: SearchConfig, sim: Arc<dyn Simulator<G>>) -> Self {
        let trees = fresh_trees(&config);
        Search {
            config,
            sim,
            trees,
            root_pos: None,
            simulations: 0,
            last_run: RunCounters::default(),
            batch_leaves: 0,
        }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Replaces the whole configuration; a new memory cap or tree count
    /// starts fresh trees.
    pub fn set_config(&mut self, config: SearchConfig) {
        let old = (self.config.max_memory_bytes, tree_count(&self.config));
        self.config = config;
        self.batch_leaves = 0;
        if old != (self.config.max_memory_bytes, tree_count(&self.config)) {
            self.trees = fresh_trees(&self.config);
        }
    }

    /// Search threads; fresh trees if that changes how many there are.
    pub fn set_threads(&mut self, n: usize) {
        self.set_config(SearchConfig {
            threads: n.max(1),
            ..self.config.clone()
        });
    }

    /// A new node-memory cap; the trees start afresh (they may not fit).
    pub fn set_max_memory(&mut self, bytes: usize) {
        self.config.max_memory_bytes = bytes;
        self.trees = fresh_trees(&self.config);
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.config.seed = seed;
    }

    pub fn set_resign_threshold(&mut self, threshold: Option<f32>) {
        self.config.resign_threshold = threshold;
    }

    pub fn simulator(&self) -> &Arc<dyn Simulator<G>> {
        &self.sim
    }

    /// The position the search is rooted at.
    pub fn position(&self) -> Option<&G> {
        self.root_pos.as_ref()
    }

    /// Roots the search at `pos`. The subtree is kept when `pos` is the
    /// current root or is reached from it by one or two moves (matched by
    /// hash, which includes the side to move); otherwise the tree starts
    /// afresh. Root score and ownership totals restart either way unless
    /// the position is unchanged. The kept subtree is copied into a fresh
    /// arena before the old one is freed, so for that moment up to twice
    /// the node cap may be in use. (A Go position reached by the same moves
    /// has the same history, so superko legality of the kept children holds.)
    pub fn set_position(&mut self, pos: &G) {
        let target = pos.hash();
        if self
            .root_pos
            .as_ref()
            .is_some_and(|old| old.hash() == target)
        {
            self.root_pos = Some(pos.clone());
            return;
        }
        let cap = tree_cap(&self.config);
        for tree in &mut self.trees {
            let kept = match (&self.root_pos, tree.root) {
                (Some(old), Some(root)) => find_descendant(tree, root, old, target),
                _ => None,
            };
            *tree = match kept {
                Some(id) => tree.subtree(id),
                None => Tree::new(cap),
            };
        }
        self.root_pos = Some(pos.clone());
        self.last_run = RunCounters::default();
    }

    /// Forgets the trees and the position (a new game).
    pub fn clear(&mut self) {
        self.trees = fresh_trees(&self.config);
        self.root_pos = None;
        self.simulations = 0;
        // The next game may be on another board, with slower playouts.
        self.batch_leaves = 0;
        self.last_run = RunCounters::default();
    }

    /// The current snapshot (after a run: its final state).
    pub fn info(&self) -> SearchInfo<G::Move> {
        info::collect(&self.tree_refs(), self.root_pos.as_ref(), self.last_run)
    }

    /// Most visited move, or resignation; `None` if there is no legal move.
    pub fn decide(&self) -> Option<Decision<G::Move>> {
        info::decide(&self.tree_refs(), self.root_pos.as_ref(), &self.config)
    }

    fn tree_refs(&self) -> Vec<&Tree<G::Move>> {
        self.trees.iter().collect()
    }

    /// Searches until a limit is reached, `stop` is set, or (with
    /// `early_stop`) the best move can no longer change. Calls `report`
    /// every interval from the calling thread. Without a position it
    /// returns an empty snapshot at once.
    pub fn run(
        &mut self,
        limits: &Limits,
        stop: &AtomicBool,
        report: Option<Report<'_, G::Move>>,
    ) -> SearchInfo<G::Move> {
        let start = Instant::now();
        let Some(root_pos) = self.root_pos.as_ref() else {
            return SearchInfo::default();
        };
        // Trees whose root did not fit under the memory cap sit out.
        let states: Vec<_> = self
            .trees
            .iter_mut()
            .filter_map(|tree| {
                let root = tree.root?;
                Some(Mutex::new(RunState { tree, root }))
            })
            .collect();
        let states_len = states.len();
        if states.is_empty() {
            self.last_run = RunCounters::default();
            return self.info();
        }
        let shared = Shared {
            states,
            root_pos,
            sim: self.sim.as_ref(),
            cfg: &self.config,
            weight: self.config.playouts_per_leaf.max(1),
            limits: *limits,
            start,
            deadline: limits.time.map(|t| start + t),
            batch_budget: match (limits.time, limits.playouts) {
                (Some(t), _) => Some(t),
                (None, None) => Some(UNLIMITED_RUN_BATCH_BUDGET),
                (None, Some(_)) => None,
            },
            stop,
            halt: AtomicBool::new(false),
            simulations: AtomicU64::new(self.simulations),
            started_playouts: AtomicU64::new(0),
            done_playouts: AtomicU64::new(0),
            done_iterations: AtomicU64::new(0),
            next_early_check: AtomicU64::new(EARLY_STOP_CHECK_EVERY),
            batch_leaves: AtomicUsize::new(match self.batch_leaves {
                0 => (self.config.leaves_per_batch / FIRST_BATCH_DIVISOR).max(1),
                n => n.min(self.config.leaves_per_batch.max(1)),
            }),
            root_visits: Mutex::new(vec![Vec::new(); states_len]),
        };
        let threads = self.config.threads.max(1);
        std::thread::scope(|s| {
            let (alive, all_done) = mpsc::channel::<()>();
            for worker in 0..threads {
                let alive = alive.clone();
                let shared = &shared;
                s.spawn(move || {
                    // Dropped when the worker ends, even by panic.
                    let _alive = alive;
                    shared.work(worker % shared.states.len());
                });
            }
            drop(alive);
            wait_and_report(&shared, &all_done, report);
        });
        self.simulations = shared.simulations.load(Ordering::Relaxed);
        if shared.batch_budget.is_some() {
            self.batch_leaves = shared.batch_leaves.load(Ordering::Relaxed);
        }
        self.last_run = shared.counters();
        drop(shared);
        self.info()
    }
}

/// Leaves for a worker's next batch in a sized run: half of `current` when
/// the last batch took more than [`BATCH_TIME_FRACTION`] of the run's
/// `budget`, double (at most `max`) when it took under half of that.
pub(super) fn next_batch_leaves(
    current: usize,
    max: usize,
    took: Duration,
    budget: Duration,
) -> usize {
    let target = budget.mul_f64(BATCH_TIME_FRACTION);
    if took > target {
        (current / 2).max(1)
    } else if took < target / 2 {
        current.saturating_mul(2).min(max)
    } else {
        current
    }
    .clamp(1, max.max(1))
}

/// How many trees the search grows: `config.trees`, but never more than
/// there are threads to work on them.
fn tree_count(config: &SearchConfig) -> usize {
    config.trees.clamp(1, config.threads.max(1))
}

/// Each tree's share of the node-memory cap.
fn tree_cap(config: &SearchConfig) -> usize {
    config.max_memory_bytes / tree_count(config)
}

fn fresh_trees<M: Copy>(config: &SearchConfig) -> Vec<Tree<M>> {
    (0..tree_count(config))
        .map(|_| Tree::new(tree_cap(config)))
        .collect()
}

/// Blocks until every worker has finished, calling `report` on schedule.
fn wait_and_report<G: Game>(
    shared: &Shared<'_, G>,
    all_done: &mpsc::Receiver<()>,
    report: Option<Report<'_, G::Move>>,
) {
    let Some((interval, callback)) = report else {
        // Only disconnection (all workers gone) ends the wait.
        while all_done.recv().is_ok() {}
        return;
    };
    let interval = interval.max(Duration::from_millis(1));
    let mut next = shared.start + interval;
    loop {
        let wait = next.saturating_duration_since(Instant::now());
        match all_done.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let snapshot = {
                    let guards = shared.lock_all();
                    let trees: Vec<_> = guards.iter().map(|g| &*g.tree).collect();
                    info::collect(&trees, Some(shared.root_pos), shared.counters())
                };
                callback(&snapshot);
                // A slow callback skips reports rather than bunching them.
                next = (next + interval).max(Instant::now());
            }
            Ok(()) => {}
        }
    }
}

/// A node reached from `root` (position `root_pos`) by one or two moves
/// whose position hashes to `target`. Only nodes with visits are worth
/// keeping, so only those are tried.
fn find_descendant<G: Game>(
    tree: &Tree<G::Move>,
    root: NodeId,
    root_pos: &G,
    target: u64,
) -> Option<NodeId> {
    let visited = |id: NodeId| tree.node(id).visits > 0;
    for child in tree.node(root).children().filter(|&c| visited(c)) {
        let mut pos = root_pos.clone();
        pos.play_unchecked(tree.node(child).mv?);
        if pos.hash() == target {
            return Some(child);
        }
        for grandchild in tree.node(child).children().filter(|&c| visited(c)) {
            let mut next = pos.clone();
            next.play_unchecked(tree.node(grandchild).mv?);
            if next.hash() == target {
                return Some(grandchild);
            }
        }
    }
    None
}

/// What the workers share during one run.
struct Shared<'a, G: Game> {
    /// One per tree with a root. A worker holds at most one of these locks
    /// at a time, except through [`Shared::lock_all`], which takes them in
    /// order: no deadlock.
    states: Vec<Mutex<RunState<'a, G::Move>>>,
    root_pos: &'a G,
    sim: &'a dyn Simulator<G>,
    cfg: &'a SearchConfig,
    /// Playouts per leaf: the virtual loss one descent adds to its path.
    weight: u32,
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    /// Set by a worker that found a reason to end the run.
    halt: AtomicBool,
    /// Leaves handed to the simulator so far (the seed sequence).
    simulations: AtomicU64,
    /// Playouts reserved by batches started in this run (the playout
    /// limit is enforced on these, so it is never overshot).
    started_playouts: AtomicU64,
    done_playouts: AtomicU64,
    done_iterations: AtomicU64,
    next_early_check: AtomicU64,
    /// The time batches are sized against (see [`BATCH_TIME_FRACTION`]):
    /// the run's time limit, [`UNLIMITED_RUN_BATCH_BUDGET`] for a run until
    /// stopped, none for a run with only a playout limit (batches keep
    /// their full size, so such runs stay reproducible).
    batch_budget: Option<Duration>,
    /// Leaves per batch when batches are sized by time.
    batch_leaves: AtomicUsize,
    /// Per tree, its root children's `(move, visits)` at its last backup
    /// (for the early stop).
    root_visits: Mutex<Vec<RootVisits<G::Move>>>,
}

/// A tree's root children as `(move, visits)`.
type RootVisits<M> = Vec<(M, u64)>;

/// One tree, behind its lock.
struct RunState<'a, M> {
    tree: &'a mut Tree<M>,
    root: NodeId,
}

/// One worker's buffers for a batch, reused between batches.
struct Batch<G: Game> {
    /// Positions to simulate (only the first `to_simulate` are live).
    positions: Vec<G>,
    paths: Vec<Path>,
    to_simulate: usize,
    stats: Vec<LeafStats>,
    terminal: Vec<(Path, Outcome)>,
    spare_paths: Vec<Path>,
    scratch: Scratch<G::Move>,
    /// The tree's root children after the last backup.
    root_visits: RootVisits<G::Move>,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Self {
        Batch {
            positions: Vec::new(),
            paths: Vec::new(),
            to_simulate: 0,
            stats: Vec::new(),
            terminal: Vec::new(),
            spare_paths: Vec::new(),
            scratch: Scratch::default(),
            root_visits: Vec::new(),
        }
    }
}

impl<'a, G: Game> Shared<'a, G> {
    fn lock(&self, tree: usize) -> MutexGuard<'_, RunState<'a, G::Move>> {
        // A worker that panicked leaves the tree consistent enough to read;
        // the panic itself resurfaces when the scope joins.
        self.states[tree].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every tree's lock, taken in index order.
    fn lock_all(&self) -> Vec<MutexGuard<'_, RunState<'a, G::Move>>> {
        (0..self.states.len()).map(|t| self.lock(t)).collect()
    }

    fn counters(&self) -> RunCounters {
        RunCounters {
            playouts: self.done_playouts.load(Ordering::Relaxed),
            iterations: self.done_iterations.load(Ordering::Relaxed),
            elapsed: self.start.elapsed(),
        }
    }

    /// The worker loop on tree `t`: select, simulate (unlocked), back up.
    fn work(&self, t: usize) {
        let mut batch = Batch::default();
        // How long this worker's last batch took, select to back-up.
        let mut last_batch = Duration::ZERO;
        loop {
            let started = Instant::now();
            let seed = {
                let mut state = self.lock(t);
                let leaves = self.reserve_leaves(last_batch);
                if leaves == 0 {
                    return;
                }
                let ctx = Context {
                    root: state.root,
                    root_pos: self.root_pos,
                    sim: self.sim,
                    cfg: self.cfg,
                    weight: self.weight,
                };
                select(&ctx, state.tree, leaves, &mut batch);
                let first = self.simulations.fetch_add(leaves as u64, Ordering::Relaxed);
                self.cfg.seed.wrapping_add(first)
            };
            let live = batch.to_simulate;
            if batch.stats.len() < live {
                batch.stats.resize_with(live, LeafStats::default);
            }
            if live > 0 {
                self.sim.simulate(
                    &batch.positions[..live],
                    self.weight,
                    seed,
                    &mut batch.stats[..live],
                );
            }
            {
                let mut state = self.lock(t);
                let (playouts, leaves) = self.back_up(state.tree, &mut batch);
                self.done_playouts.fetch_add(playouts, Ordering::Relaxed);
                self.done_iterations.fetch_add(leaves, Ordering::Relaxed);
                if self.cfg.early_stop {
                    let tree = &*state.tree;
                    let root = tree.node(state.root);
                    batch.root_visits.clear();
                    batch.root_visits.extend(
                        root.children()
                            .filter_map(|c| Some((tree.node(c).mv?, tree.node(c).visits))),
                    );
                }
            }
            if self.cfg.early_stop {
                self.check_early_stop(t, &batch.root_visits);
            }
            last_batch = started.elapsed();
            if let Some(budget) = self.batch_budget {
                let next = next_batch_leaves(
                    self.batch_leaves.load(Ordering::Relaxed),
                    self.cfg.leaves_per_batch.max(1),
                    last_batch,
                    budget,
                );
                self.batch_leaves.store(next, Ordering::Relaxed);
            }
        }
    }

    /// How many leaves the next batch may hold (0: this worker is done);
    /// with a playout limit they are reserved against it. A batch that
    /// would end past the deadline, judging by the worker's last one
    /// (`last_batch`), is not started: a GPU batch cannot be called back,
    /// and one of big playouts can take longer than the margin the time
    /// control keeps for lag (19x19 pattern playouts take a good part of a
    /// second from launch to result).
    fn reserve_leaves(&self, last_batch: Duration) -> usize {
        if self.halt.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        if let Some(deadline) = self.deadline {
            let now = Instant::now();
            if now >= deadline {
                self.halt.store(true, Ordering::Relaxed);
                return 0;
            }
            if now + last_batch > deadline {
                return 0;
            }
        }
        let wanted = match self.batch_budget {
            Some(_) => self.batch_leaves.load(Ordering::Relaxed).max(1),
            None => self.cfg.leaves_per_batch.max(1),
        } as u64;
        let weight = self.weight as u64;
        let Some(limit) = self.limits.playouts else {
            self.started_playouts
                .fetch_add(wanted * weight, Ordering::Relaxed);
            return wanted as usize;
        };
        let mut leaves = 0;
        // Only fails when another worker reserved in between; then retry.
        let _ =
            self.started_playouts
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |started| {
                    leaves = wanted.min(limit.saturating_sub(started).div_ceil(weight));
                    (leaves > 0).then_some(started + leaves * weight)
                });
        leaves as usize
    }

    /// Backs the batch up into `tree`; returns the playouts and leaves it
    /// added.
    fn back_up(&self, tree: &mut Tree<G::Move>, batch: &mut Batch<G>) -> (u64, u64) {
        let weight = self.weight;
        let leaves = batch.to_simulate + batch.terminal.len();
        let mut done = 0;
        for i in 0..batch.to_simulate {
            let stats = &batch.stats[i];
            let result = LeafResult {
                playouts: stats.playouts,
                black_wins: stats.black_wins as f64,
                amaf: &stats.amaf,
            };
            uct::update(
                tree,
                &batch.paths[i],
                &result,
                weight,
                self.root_pos,
                &mut batch.scratch,
            );
            tree.totals.add(stats);
            done += stats.playouts as u64;
        }
        for (path, outcome) in batch.terminal.drain(..) {
            let result = LeafResult::terminal(outcome, weight);
            uct::update(
                tree,
                &path,
                &result,
                weight,
                self.root_pos,
                &mut batch.scratch,
            );
            done += weight as u64;
            batch.spare_paths.push(path);
        }
        (done, leaves as u64)
    }

    /// Notes tree `t`'s root visits (`(move, visits)` of each root child,
    /// just taken under its lock), then every [`EARLY_STOP_CHECK_EVERY`]
    /// leaves halts the run when the most visited root move over all trees
    /// is further ahead than the playouts still to come could make up.
    /// Other trees count as of their own last backup: no tree lock is
    /// taken here.
    fn check_early_stop(&self, t: usize, root_visits: &[(G::Move, u64)]) {
        let mut noted = self.root_visits.lock().unwrap_or_else(|e| e.into_inner());
        noted[t].clear();
        noted[t].extend_from_slice(root_visits);
        let iterations = self.done_iterations.load(Ordering::Relaxed);
        if iterations < self.next_early_check.load(Ordering::Relaxed) {
            return;
        }
        self.next_early_check
            .store(iterations + EARLY_STOP_CHECK_EVERY, Ordering::Relaxed);
        let mut left = u64::MAX;
        let done = self.done_playouts.load(Ordering::Relaxed);
        if let Some(limit) = self.limits.playouts {
            left = left.min(limit.saturating_sub(done));
        }
        if let Some(deadline) = self.deadline {
            let elapsed = self.start.elapsed();
            if elapsed < EARLY_STOP_MIN_ELAPSED {
                return;
            }
            let rate = done as f64 / elapsed.as_secs_f64();
            let time_left = deadline.saturating_duration_since(Instant::now());
            left = left.min((rate * time_left.as_secs_f64()).ceil() as u64);
        }
        if left == u64::MAX {
            return; // no limit but the stop flag: nothing to predict
        }
        let (first, second) = root::top_two(&noted);
        if first > second.saturating_add(left) {
            self.halt.store(true, Ordering::Relaxed);
        }
    }
}

/// Descends `leaves` times in `tree`, sorting the leaves into ones to
/// simulate (packed at the front of `positions`) and terminal ones.
fn select<G: Game>(
    ctx: &Context<'_, G>,
    tree: &mut Tree<G::Move>,
    leaves: usize,
    batch: &mut Batch<G>,
) {
    batch.to_simulate = 0;
    for _ in 0..leaves {
        let slot = batch.to_simulate;
        if slot == batch.positions.len() {
            batch.positions.push(ctx.root_pos.clone());
            batch.paths.push(Path::default());
        }
        let outcome = uct::descend(
            tree,
            ctx,
            &mut batch.positions[slot],
            &mut batch.paths[slot],
            &mut batch.scratch,
        );
        match outcome {
            Some(outcome) => {
                // Keep the path, hand the slot a spare one.
                let spare = batch.spare_paths.pop().unwrap_or_default();
                let path = std::mem::replace(&mut batch.paths[slot], spare);
                batch.terminal.push((path, outcome));
            }
            None => batch.to_simulate += 1,
        }
    }
}
