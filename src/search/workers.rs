//! The worker side of one search run: what the workers share, the loop
//! each runs (select, expanding on the way; simulate; back up, all with no
//! lock on the tree), how a batch is sized and when one may start, and the
//! early stop.

use super::amaf_share::AmafShare;
use super::config::{
    Limits, SearchConfig, BATCH_TIME_FRACTION, EARLY_STOP_CHECK_EVERY, EARLY_STOP_MIN_ELAPSED,
    SHARED_TOTALS_EVERY,
};
use super::info::{self, RunCounters};
use super::root;
use super::search::Report;
use super::select::Batch;
use super::totals::RootTotals;
use super::tree::{NodeId, Tree};
use super::uct::{self, LeafResult, Path, Scratch};
use crate::game::Game;
use crate::sim::{LeafStats, Simulator};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `(move, visits)` of every child of `root` into `out` (for the early
/// stop).
pub(super) fn note_root_visits<M: Copy>(tree: &Tree<M>, root: NodeId, out: &mut RootVisits<M>) {
    out.clear();
    out.extend(
        tree.node(root)
            .children()
            .filter_map(|c| Some((tree.node(c).mv?, tree.node(c).visits.get()))),
    );
}

/// Leaves for a worker's next batch in a sized run. Every thread's
/// batches share one simulator (a GPU's queue), so a round of batches
/// takes about `threads` × leaves / `rate`, where `rate` is the leaves a
/// second the run has backed up so far, all threads together. The next
/// batch gets the leaves that make a round last [`BATCH_TIME_FRACTION`] of
/// the run's `budget`, but at least half and at most twice `current`, the
/// worker's last batch (the rate lags a change of size by a round), and
/// at most `max`.
pub(super) fn next_batch_leaves(
    current: usize,
    max: usize,
    rate: f64,
    threads: usize,
    budget: Duration,
) -> usize {
    let target = budget.mul_f64(BATCH_TIME_FRACTION).as_secs_f64();
    let fair = rate * target / threads.max(1) as f64;
    let current = current.max(1) as f64;
    let next = fair.clamp(current / 2.0, current * 2.0).round() as usize;
    next.clamp(1, max.max(1))
}

/// Blocks until every worker has finished, calling `report` on schedule.
pub(super) fn wait_and_report<G: Game>(
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
                let trees: Vec<_> = shared.states.iter().map(|s| s.tree).collect();
                let snapshot = info::collect(&trees, Some(shared.root_pos), shared.counters());
                callback(&snapshot);
                // A slow callback skips reports rather than bunching them.
                next = (next + interval).max(Instant::now());
            }
            Ok(()) => {}
        }
    }
}

/// What the workers share during one run.
pub(super) struct Shared<'a, G: Game> {
    /// One per tree with a root. Every thread works on its tree with no
    /// lock: the node statistics and expansion states are atomics and the
    /// arena grows while it is read (see `tree::Node`, `super::arena`).
    /// One lock over the tree, even a read-write lock taken shared by
    /// descents and backups, made every expansion wait for every thread's
    /// descent in flight, and held every thread's next descent meanwhile.
    pub(super) states: Vec<RunState<'a, G::Move>>,
    pub(super) root_pos: &'a G,
    pub(super) sim: &'a dyn Simulator<G>,
    pub(super) cfg: &'a SearchConfig,
    /// Playouts per leaf.
    pub(super) weight: u32,
    /// The virtual loss one descent adds to its path.
    pub(super) virtual_loss: u32,
    /// Moves the descents may not try.
    pub(super) filter:
        Option<&'a (dyn Fn(usize, crate::game::Color, G::Move) -> bool + Send + Sync)>,
    pub(super) limits: Limits,
    pub(super) start: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) stop: &'a AtomicBool,
    /// Set by a worker that found a reason to end the run.
    pub(super) halt: AtomicBool,
    /// What every worker adds to at every leaf.
    pub(super) tally: Tally,
    pub(super) next_early_check: AtomicU64,
    /// The time batches are sized against (see [`BATCH_TIME_FRACTION`]):
    /// the run's time limit,
    /// [`super::config::UNLIMITED_RUN_BATCH_BUDGET`] for a run until
    /// stopped, none for a run with only a playout limit (batches keep
    /// their full size, so such runs stay reproducible).
    pub(super) batch_budget: Option<Duration>,
    /// Leaves per batch when batches are sized by time.
    pub(super) batch_leaves: AtomicUsize,
}

/// The counters every worker adds to at every leaf, on cache lines of
/// their own (128 bytes: x86 cores also fetch a line's neighbour): beside
/// the run's settings, which every descent reads, each add made the other
/// cores fetch those again.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(super) struct Tally {
    /// Leaves handed to the simulator so far (the seed sequence).
    pub(super) simulations: AtomicU64,
    /// Playouts reserved by batches started in this run (the playout
    /// limit is enforced on these, so it is never overshot; without one
    /// nothing reads them, so they are not counted).
    pub(super) started_playouts: AtomicU64,
    pub(super) done_playouts: AtomicU64,
    pub(super) done_iterations: AtomicU64,
}

/// A tree's root children as `(move, visits)`.
pub(super) type RootVisits<M> = Vec<(M, u64)>;

/// One tree of the run and its root.
pub(super) struct RunState<'a, M> {
    pub(super) tree: &'a Tree<M>,
    pub(super) root: NodeId,
}

impl<G: Game> Shared<'_, G> {
    pub(super) fn counters(&self) -> RunCounters {
        RunCounters {
            playouts: self.tally.done_playouts.load(Ordering::Relaxed),
            iterations: self.tally.done_iterations.load(Ordering::Relaxed),
            elapsed: self.start.elapsed(),
        }
    }

    /// The worker loop on tree `t`: select, simulate, back up.
    pub(super) fn work(&self, t: usize) {
        let state = &self.states[t];
        let mut batch = Batch::default();
        // This worker's share of the root totals, added to the tree's
        // every `flush_every` leaves and when the worker ends: the totals
        // (a Havannah leaf's ownership and the root children's scores are
        // 4 KB of sums) behind one lock, written by every thread at every
        // leaf, kept those cache lines and that lock moving between cores;
        // added every `threads` leaves they still moved once a leaf. Workers
        // that share a tree add theirs every [`SHARED_TOTALS_EVERY`]
        // leaves; a worker alone on its tree adds at every leaf, exactly as
        // one thread always did (Go's two-pass judgement reads the totals).
        let mut totals = RootTotals::default();
        // Workers on this tree (worker `w` works on tree `w % trees`).
        let trees = self.states.len().max(1);
        let workers = (self.cfg.threads.max(1) + trees - 1 - t.min(trees - 1)) / trees;
        let flush_every = match workers {
            0 | 1 => 1,
            _ => SHARED_TOTALS_EVERY,
        };
        let mut pending = 0u64;
        // A worker alone on its tree writes the AMAF samples at once, as
        // one thread always did; workers that share it keep the top's
        // (`super::amaf_share`).
        let mut amaf = (workers > 1).then(AmafShare::default);
        // How long this worker's last batch took, select to back-up, and
        // how many leaves it had.
        let mut last_batch = Duration::ZERO;
        let mut last_leaves = 0;
        loop {
            let started = Instant::now();
            let leaves = self.reserve_leaves(last_batch, last_leaves);
            last_leaves = leaves;
            if leaves == 0 {
                state.tree.totals().merge(&mut totals);
                if let Some(amaf) = &mut amaf {
                    amaf.add_all(state.tree);
                }
                return;
            }
            self.select(t, leaves, &mut batch);
            let first = self
                .tally
                .simulations
                .fetch_add(leaves as u64, Ordering::Relaxed);
            let seed = self.cfg.seed.wrapping_add(first);
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
                let (playouts, leaves) =
                    self.back_up(state.tree, &mut batch, &mut totals, amaf.as_mut());
                pending += leaves;
                if pending >= flush_every {
                    state.tree.totals().merge(&mut totals);
                    pending = 0;
                }
                // Release: a check that sees these counts sees the visits
                // backed up before them (see `check_early_stop`).
                self.tally
                    .done_playouts
                    .fetch_add(playouts, Ordering::Release);
                self.tally
                    .done_iterations
                    .fetch_add(leaves, Ordering::Release);
                if self.cfg.early_stop {
                    self.check_early_stop();
                }
            }
            last_batch = started.elapsed();
            tracing::trace!(
                tree = t,
                leaves = live,
                took_ms = last_batch.as_millis() as u64,
                at_ms = self.start.elapsed().as_millis() as u64,
                "batch backed up"
            );
            // The next size follows from the run's rate and this batch's
            // own size. Doubling the shared size after every quick batch
            // (the first rule) let each of 16 threads' first batches double
            // it once more: it went from 128 leaves to the full 1,024
            // before any big batch had come back, and 19x19 moves at 1 s
            // took 1.4 s (H200). A run of one-leaf batches (the CPU's) has
            // nothing to size: it skips reading the counters that every
            // worker writes at every leaf.
            let sized = self.cfg.leaves_per_batch > 1;
            if let Some(budget) = self.batch_budget.filter(|_| sized) {
                let run = self.counters();
                let rate = run.iterations as f64 / run.elapsed.as_secs_f64().max(1e-6);
                let next = next_batch_leaves(
                    last_leaves,
                    self.cfg.leaves_per_batch.max(1),
                    rate,
                    self.cfg.threads.max(1),
                    budget,
                );
                // Stored only when it changes: every thread writing the
                // same line after every batch would keep it moving between
                // cores for nothing (a CPU search's batch is one leaf).
                if next != self.batch_leaves.load(Ordering::Relaxed) {
                    self.batch_leaves.store(next, Ordering::Relaxed);
                }
            }
        }
    }

    /// How many leaves the next batch may hold (0: this worker is done);
    /// with a playout limit they are reserved against it. A batch that
    /// would end past the deadline is not started: a GPU batch cannot be
    /// called back, and one of big playouts can take longer than the
    /// margin the time control keeps for lag (19x19 pattern playouts take
    /// a good part of a second from launch to result). Its time is
    /// judged by the worker's last batch (`last_batch` for `last_leaves`
    /// leaves), scaled up when this one is bigger.
    fn reserve_leaves(&self, last_batch: Duration, last_leaves: usize) -> usize {
        if self.halt.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        let wanted = match self.batch_budget {
            Some(_) => self.batch_leaves.load(Ordering::Relaxed).max(1),
            None => self.cfg.leaves_per_batch.max(1),
        };
        if let Some(deadline) = self.deadline {
            let now = Instant::now();
            if now >= deadline {
                self.halt.store(true, Ordering::Relaxed);
                return 0;
            }
            let growth = wanted as f64 / last_leaves.max(1) as f64;
            if now + last_batch.mul_f64(growth.max(1.0)) > deadline {
                return 0;
            }
        }
        let wanted = wanted as u64;
        let weight = self.weight as u64;
        let Some(limit) = self.limits.playouts else {
            return wanted as usize;
        };
        let mut leaves = 0;
        // Only fails when another worker reserved in between; then retry.
        let _ = self.tally.started_playouts.fetch_update(
            Ordering::Relaxed,
            Ordering::Relaxed,
            |started| {
                leaves = wanted.min(limit.saturating_sub(started).div_ceil(weight));
                (leaves > 0).then_some(started + leaves * weight)
            },
        );
        leaves as usize
    }

    /// Backs one leaf's `result` up `path` and counts the leaf in `amaf`,
    /// whose kept samples fall due by leaves.
    fn back_up_leaf(
        &self,
        tree: &Tree<G::Move>,
        path: &Path,
        result: &LeafResult<'_>,
        scratch: &mut Scratch<G::Move>,
        mut amaf: Option<&mut AmafShare>,
    ) {
        let (virtual_loss, root_pos) = (self.virtual_loss, self.root_pos);
        uct::update_sharing(
            tree,
            path,
            result,
            virtual_loss,
            root_pos,
            scratch,
            amaf.as_deref_mut(),
        );
        if let Some(amaf) = amaf {
            amaf.leaf_done(tree);
        }
    }

    /// Backs the batch up into `tree`, and its leaves' score and ownership
    /// into `totals` (the worker's share of the tree's); returns the
    /// playouts and leaves it added.
    fn back_up(
        &self,
        tree: &Tree<G::Move>,
        batch: &mut Batch<G>,
        totals: &mut RootTotals,
        mut amaf: Option<&mut AmafShare>,
    ) -> (u64, u64) {
        let weight = self.weight;
        let leaves = batch.to_simulate + batch.terminal.len() + batch.known.len();
        let mut done = 0;
        for i in 0..batch.to_simulate {
            let stats = &batch.stats[i];
            let result = LeafResult {
                playouts: stats.playouts,
                black_wins: stats.black_wins as f64,
                amaf: &stats.amaf,
            };
            self.back_up_leaf(
                tree,
                &batch.paths[i],
                &result,
                &mut batch.scratch,
                amaf.as_deref_mut(),
            );
            done += stats.playouts as u64;
        }
        for (stats, path) in batch.stats[..batch.to_simulate].iter().zip(&batch.paths) {
            totals.add(stats);
            if let (Some(root), Some(&child)) = (tree.root, path.nodes.get(1)) {
                // A path from before the root's children moved (progressive
                // widening) names a child that is no longer in the run.
                let run = tree.node(root).children();
                if run.contains(&child) {
                    totals.add_child((child - run.start) as usize, stats);
                }
            }
        }
        for (path, black) in batch.known.drain(..) {
            // Backed up as `simulate` would have: `weight` playouts of
            // this value, no AMAF and no ownership.
            let stats = LeafStats {
                playouts: weight,
                black_wins: (black * weight as f64) as f32,
                score_sum: (2.0 * black - 1.0) * weight as f64,
                ..LeafStats::default()
            };
            let result = LeafResult {
                playouts: weight,
                black_wins: stats.black_wins as f64,
                amaf: &[],
            };
            self.back_up_leaf(
                tree,
                &path,
                &result,
                &mut batch.scratch,
                amaf.as_deref_mut(),
            );
            done += weight as u64;
            totals.add(&stats);
            if let (Some(root), Some(&child)) = (tree.root, path.nodes.get(1)) {
                let run = tree.node(root).children();
                if run.contains(&child) {
                    totals.add_child((child - run.start) as usize, &stats);
                }
            }
            batch.spare_paths.push(path);
        }
        for (path, outcome) in batch.terminal.drain(..) {
            let result = LeafResult::terminal(outcome, weight);
            self.back_up_leaf(
                tree,
                &path,
                &result,
                &mut batch.scratch,
                amaf.as_deref_mut(),
            );
            done += weight as u64;
            batch.spare_paths.push(path);
        }
        (done, leaves as u64)
    }

    /// Every [`EARLY_STOP_CHECK_EVERY`] leaves: halts the run when the most
    /// visited root move over all trees is further ahead than the playouts
    /// still to come could make up. One worker claims each check; the
    /// others go on. The done counters are read (acquire) before the root
    /// visits, so the visits include every playout the counters count:
    /// playouts still on their way up are counted as still to come, which
    /// only makes the check more careful. (Noting every tree's root visits
    /// after every backup, under one mutex, was a lock every thread took at
    /// every leaf.)
    fn check_early_stop(&self) {
        let iterations = self.tally.done_iterations.load(Ordering::Acquire);
        let due = self.next_early_check.load(Ordering::Relaxed);
        if iterations < due {
            return;
        }
        let next = iterations + EARLY_STOP_CHECK_EVERY;
        if self
            .next_early_check
            .compare_exchange(due, next, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return; // another worker is checking
        }
        let mut left = u64::MAX;
        let done = self.tally.done_playouts.load(Ordering::Acquire);
        if let Some(limit) = self.limits.playouts {
            left = left.min(limit.saturating_sub(done));
        }
        if let Some(deadline) = self.deadline.filter(|_| !self.limits.whole_time) {
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
        let noted: Vec<RootVisits<G::Move>> = self
            .states
            .iter()
            .map(|state| {
                let mut visits = Vec::new();
                note_root_visits(state.tree, state.root, &mut visits);
                visits
            })
            .collect();
        let (first, second) = root::top_two(&noted);
        if first > second.saturating_add(left) {
            self.halt.store(true, Ordering::Relaxed);
        }
    }
}
