//! The search driver: threads, limits, tree reuse, reporting.
//!
//! Tree parallelism: `threads` workers share the tree behind one mutex. Each
//! locks, descends to `leaves_per_batch` leaves (virtual loss spreads them
//! out), unlocks, simulates the batch in one `Simulator::simulate` call,
//! locks again and backs the results up. The calling thread only waits,
//! reports progress and collects the answer.

use super::config::{Limits, SearchConfig, EARLY_STOP_CHECK_EVERY, EARLY_STOP_MIN_ELAPSED};
use super::info::{self, Decision, RunCounters, SearchInfo};
use super::tree::{NodeId, Tree};
use super::uct::{self, Context, LeafResult, Path, Scratch};
use crate::game::{Game, Outcome};
use crate::sim::{LeafStats, Simulator};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Generic UCT search over a [`Game`].
pub struct Search<G: Game> {
    config: SearchConfig,
    sim: Arc<dyn Simulator<G>>,
    pub(super) tree: Tree<G::Move>,
    root_pos: Option<G>,
    /// Simulate calls are seeded with `config.seed + simulations` (leaves
    /// simulated since the last `clear`), so runs are reproducible.
    simulations: u64,
    last_run: RunCounters,
}

/// Progress callback: called every `Duration` with a fresh snapshot.
pub type Report<'a, M> = (Duration, &'a mut (dyn FnMut(&SearchInfo<M>) + Send));

impl<G: Game> Search<G> {
    pub fn new(config: SearchConfig, sim: Arc<dyn Simulator<G>>) -> Self {
        let tree = Tree::new(config.max_memory_bytes);
        Search {
            config,
            sim,
            tree,
            root_pos: None,
            simulations: 0,
            last_run: RunCounters::default(),
        }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Replaces the whole configuration; a new memory cap starts a fresh tree.
    pub fn set_config(&mut self, config: SearchConfig) {
        let new_cap = config.max_memory_bytes != self.config.max_memory_bytes;
        self.config = config;
        if new_cap {
            self.tree = Tree::new(self.config.max_memory_bytes);
        }
    }

    pub fn set_threads(&mut self, n: usize) {
        self.config.threads = n.max(1);
    }

    /// A new node-memory cap; the tree starts afresh (it may not fit).
    pub fn set_max_memory(&mut self, bytes: usize) {
        self.config.max_memory_bytes = bytes;
        self.tree = Tree::new(bytes);
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
        let kept = match (&self.root_pos, self.tree.root) {
            (Some(old), Some(_)) if old.hash() == target => {
                self.root_pos = Some(pos.clone());
                return;
            }
            (Some(old), Some(root)) => find_descendant(&self.tree, root, old, target),
            _ => None,
        };
        self.tree = match kept {
            Some(id) => self.tree.subtree(id),
            None => Tree::new(self.config.max_memory_bytes),
        };
        self.root_pos = Some(pos.clone());
        self.last_run = RunCounters::default();
    }

    /// Forgets the tree and the position (a new game).
    pub fn clear(&mut self) {
        self.tree = Tree::new(self.config.max_memory_bytes);
        self.root_pos = None;
        self.simulations = 0;
        self.last_run = RunCounters::default();
    }

    /// The current snapshot (after a run: its final state).
    pub fn info(&self) -> SearchInfo<G::Move> {
        info::collect(&self.tree, self.root_pos.as_ref(), self.last_run)
    }

    /// Most visited move, or resignation; `None` if there is no legal move.
    pub fn decide(&self) -> Option<Decision<G::Move>> {
        info::decide(&self.tree, self.root_pos.as_ref(), &self.config)
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
        let Some(root) = self.tree.root else {
            // Not even the root fits under the memory cap.
            self.last_run = RunCounters::default();
            return self.info();
        };
        let shared = Shared {
            state: Mutex::new(RunState {
                tree: &mut self.tree,
                simulations: self.simulations,
                started_playouts: 0,
                done: RunCounters::default(),
                next_early_check: EARLY_STOP_CHECK_EVERY,
            }),
            ctx: Context {
                root,
                root_pos,
                sim: self.sim.as_ref(),
                cfg: &self.config,
                weight: self.config.playouts_per_leaf.max(1),
            },
            limits: *limits,
            start,
            deadline: limits.time.map(|t| start + t),
            stop,
            halt: AtomicBool::new(false),
        };
        let threads = self.config.threads.max(1);
        std::thread::scope(|s| {
            let (alive, all_done) = mpsc::channel::<()>();
            for _ in 0..threads {
                let alive = alive.clone();
                let shared = &shared;
                s.spawn(move || {
                    // Dropped when the worker ends, even by panic.
                    let _alive = alive;
                    shared.work();
                });
            }
            drop(alive);
            wait_and_report(&shared, &all_done, report);
        });
        let state = shared.state.into_inner().unwrap_or_else(|e| e.into_inner());
        self.simulations = state.simulations;
        self.last_run = RunCounters {
            elapsed: start.elapsed(),
            ..state.done
        };
        self.info()
    }
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
                    let state = shared.lock();
                    let run = RunCounters {
                        elapsed: shared.start.elapsed(),
                        ..state.done
                    };
                    info::collect(state.tree, Some(shared.ctx.root_pos), run)
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
    state: Mutex<RunState<'a, G::Move>>,
    ctx: Context<'a, G>,
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    /// Set by a worker that found a reason to end the run.
    halt: AtomicBool,
}

/// Everything behind the lock.
struct RunState<'a, M> {
    tree: &'a mut Tree<M>,
    simulations: u64,
    started_playouts: u64,
    done: RunCounters,
    next_early_check: u64,
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
        }
    }
}

impl<'a, G: Game> Shared<'a, G> {
    fn lock(&self) -> MutexGuard<'_, RunState<'a, G::Move>> {
        // A worker that panicked leaves the tree consistent enough to read;
        // the panic itself resurfaces when the scope joins.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The worker loop: select, simulate (unlocked), back up.
    fn work(&self) {
        let mut batch = Batch::default();
        loop {
            let seed = {
                let mut state = self.lock();
                let leaves = self.leaves_to_start(&state);
                if leaves == 0 {
                    return;
                }
                self.select(&mut state, leaves, &mut batch);
                let seed = self.ctx.cfg.seed.wrapping_add(state.simulations);
                state.simulations += leaves as u64;
                seed
            };
            let live = batch.to_simulate;
            if batch.stats.len() < live {
                batch.stats.resize_with(live, LeafStats::default);
            }
            if live > 0 {
                let weight = self.ctx.weight;
                self.ctx.sim.simulate(
                    &batch.positions[..live],
                    weight,
                    seed,
                    &mut batch.stats[..live],
                );
            }
            let mut state = self.lock();
            self.back_up(&mut state, &mut batch);
            self.check_early_stop(&mut state);
        }
    }

    /// How many leaves the next batch may hold (0: the run is over).
    fn leaves_to_start(&self, state: &RunState<'_, G::Move>) -> usize {
        if self.halt.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.halt.store(true, Ordering::Relaxed);
            return 0;
        }
        let mut leaves = self.ctx.cfg.leaves_per_batch.max(1) as u64;
        if let Some(limit) = self.limits.playouts {
            let left = limit.saturating_sub(state.started_playouts);
            leaves = leaves.min(left.div_ceil(self.ctx.weight as u64));
        }
        leaves as usize
    }

    /// Descends `leaves` times, sorting the leaves into ones to simulate
    /// (packed at the front of `positions`) and terminal ones.
    fn select(&self, state: &mut RunState<'_, G::Move>, leaves: usize, batch: &mut Batch<G>) {
        batch.to_simulate = 0;
        for _ in 0..leaves {
            let slot = batch.to_simulate;
            if slot == batch.positions.len() {
                batch.positions.push(self.ctx.root_pos.clone());
                batch.paths.push(Path::default());
            }
            let outcome = uct::descend(
                state.tree,
                &self.ctx,
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
            state.started_playouts += self.ctx.weight as u64;
        }
    }

    fn back_up(&self, state: &mut RunState<'_, G::Move>, batch: &mut Batch<G>) {
        let weight = self.ctx.weight;
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
                state.tree,
                &batch.paths[i],
                &result,
                weight,
                self.ctx.root_pos,
                &mut batch.scratch,
            );
            state.tree.totals.add(stats);
            done += stats.playouts as u64;
        }
        for (path, outcome) in batch.terminal.drain(..) {
            let result = LeafResult::terminal(outcome, weight);
            uct::update(
                state.tree,
                &path,
                &result,
                weight,
                self.ctx.root_pos,
                &mut batch.scratch,
            );
            done += weight as u64;
            batch.spare_paths.push(path);
        }
        state.done.playouts += done;
        state.done.iterations += leaves as u64;
    }

    /// Halts the run when the most visited root move is further ahead than
    /// the playouts still to come could make up.
    fn check_early_stop(&self, state: &mut RunState<'_, G::Move>) {
        if !self.ctx.cfg.early_stop || state.done.iterations < state.next_early_check {
            return;
        }
        state.next_early_check = state.done.iterations + EARLY_STOP_CHECK_EVERY;
        let mut left = u64::MAX;
        if let Some(limit) = self.limits.playouts {
            left = left.min(limit.saturating_sub(state.done.playouts));
        }
        if let Some(deadline) = self.deadline {
            let elapsed = self.start.elapsed();
            if elapsed < EARLY_STOP_MIN_ELAPSED {
                return;
            }
            let rate = state.done.playouts as f64 / elapsed.as_secs_f64();
            let time_left = deadline.saturating_duration_since(Instant::now());
            left = left.min((rate * time_left.as_secs_f64()).ceil() as u64);
        }
        if left == u64::MAX {
            return; // no limit but the stop flag: nothing to predict
        }
        let tree = &*state.tree;
        let (mut first, mut second) = (0, 0);
        for c in tree.node(self.ctx.root).children() {
            let v = tree.node(c).visits;
            if v > first {
                second = first;
                first = v;
            } else if v > second {
                second = v;
            }
        }
        if first > second.saturating_add(left) {
            self.halt.store(true, Ordering::Relaxed);
        }
    }
}
