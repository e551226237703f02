//! The search driver: threads, limits, tree reuse, reporting.
//!
//! Tree parallelism inside a tree, root parallelism across trees: the
//! search grows `trees` independent trees (see [`super::root`]), and
//! `threads` workers are dealt round-robin to them. A worker descends to
//! `leaves_per_batch` leaves (virtual loss spreads the descents out),
//! expanding a node it has claimed on the way, simulates the batch in one
//! `Simulator::simulate` call, and backs the results up, all with no lock
//! on the tree: node statistics and expansion states are atomics and the
//! arena grows while it is read (`tree::Node`, `super::arena`). One mutex
//! over the whole tree serialised descents and backups (with CPU playouts
//! of tens of microseconds, a fifth of the work: a second thread added
//! nothing); a read-write lock still made every expansion wait for all
//! descents in flight. The calling thread only waits, reports progress and
//! collects the answer.
//! Limits, counters and the seed sequence are shared by all trees; the
//! workers' side is in [`super::workers`].

use super::config::{
    Limits, SearchConfig, EARLY_STOP_CHECK_EVERY, FIRST_BATCH_DIVISOR, UNLIMITED_RUN_BATCH_BUDGET,
};
use super::info::{self, Decision, RunCounters, SearchInfo};
use super::tree::{NodeId, Tree};
use super::uct::MoveFilter;
use super::workers::{wait_and_report, RunState, Shared, Tally};
use crate::game::Game;
use crate::sim::Simulator;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Generic UCT search over a [`Game`].
pub struct Search<G: Game> {
    config: SearchConfig,
    sim: Arc<dyn Simulator<G>>,
    /// One tree per [`SearchConfig::tree_count`]; each gets an equal share of the memory
    /// cap.
    pub(super) trees: Vec<Tree<G::Move>>,
    root_pos: Option<G>,
    /// Simulate calls are seeded with `config.seed + simulations` (leaves
    /// simulated since the last `clear`), so runs are reproducible.
    simulations: u64,
    last_run: RunCounters,
    /// Leaves per batch that sized runs start with (0: not measured yet;
    /// see [`super::config::BATCH_TIME_FRACTION`]).
    pub(super) batch_leaves: usize,
    /// Moves the runs may not try (analysis `avoid` / `allow`).
    filter: Option<MoveFilter<G::Move>>,
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
            filter: None,
        }
    }

    /// Keeps the next runs off the moves `filter` forbids (`None`: every
    /// move may be tried).
    pub fn set_move_filter(&mut self, filter: Option<MoveFilter<G::Move>>) {
        self.filter = filter;
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Replaces the whole configuration; a new memory cap or tree count
    /// starts fresh trees.
    pub fn set_config(&mut self, config: SearchConfig) {
        let old = (self.config.max_memory_bytes, self.config.tree_count());
        self.config = config;
        self.batch_leaves = 0;
        if old != (self.config.max_memory_bytes, self.config.tree_count()) {
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
            .iter()
            .filter_map(|tree| {
                Some(RunState {
                    tree,
                    root: tree.root?,
                })
            })
            .collect();
        if states.is_empty() {
            self.last_run = RunCounters::default();
            return self.info();
        }
        // The exploration the config leaves to the game, settled once a run.
        let resolved;
        let cfg = match self.config.exploration {
            Some(_) => &self.config,
            None => {
                resolved = SearchConfig {
                    exploration: root_pos.exploration(),
                    ..self.config.clone()
                };
                &resolved
            }
        };
        let shared = Shared {
            states,
            root_pos,
            sim: self.sim.as_ref(),
            cfg,
            weight: self.config.playouts_per_leaf.max(1),
            virtual_loss: self.config.virtual_loss_per_leaf(),
            filter: self.filter.as_deref(),
            limits: *limits,
            start,
            // No deadline past what an Instant can hold (the engine clamps
            // clocks to a year, so this is only a guard).
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            batch_budget: match (limits.time, limits.playouts) {
                (Some(t), _) => Some(t),
                (None, None) => Some(UNLIMITED_RUN_BATCH_BUDGET),
                (None, Some(_)) => None,
            },
            stop,
            halt: AtomicBool::new(false),
            tally: Tally {
                simulations: AtomicU64::new(self.simulations),
                ..Tally::default()
            },
            next_early_check: AtomicU64::new(EARLY_STOP_CHECK_EVERY),
            batch_leaves: AtomicUsize::new(match self.batch_leaves {
                0 => (self.config.leaves_per_batch / FIRST_BATCH_DIVISOR).max(1),
                n => n.min(self.config.leaves_per_batch.max(1)),
            }),
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
        self.simulations = shared.tally.simulations.load(Ordering::Relaxed);
        if shared.batch_budget.is_some() {
            self.batch_leaves = shared.batch_leaves.load(Ordering::Relaxed);
        }
        self.last_run = shared.counters();
        drop(shared);
        self.info()
    }
}

/// Each tree's share of the node-memory cap.
fn tree_cap(config: &SearchConfig) -> usize {
    config.max_memory_bytes / config.tree_count()
}

fn fresh_trees<M: Copy>(config: &SearchConfig) -> Vec<Tree<M>> {
    (0..config.tree_count())
        .map(|_| Tree::new(tree_cap(config)))
        .collect()
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
    let visited = |id: NodeId| tree.node(id).visits.get() > 0;
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
