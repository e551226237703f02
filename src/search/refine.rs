//! Leaf refinement: a second simulator (a GPU) adds playouts to leaves the
//! workers have already simulated and backed up, and each leaf's value
//! becomes the mean of all its playouts, with no visit added.
//!
//! Why values and not visits: on Havannah, giving each leaf 8 playouts
//! counted as 8 visits made the search weaker than one playout a leaf
//! (the visit-based balances, expansion, prior weights, the UCB term and
//! the RAVE schedule, all shift by the factor), while the same 8 playouts
//! folded into the value of one visit won 92 of 100 against Castro where
//! one playout won 83 (docs/havannah-strength.md). The workers keep their
//! own pace (a CPU search's leaves at tens of microseconds each); the
//! refiner takes what has queued up in one batch, so a GPU's launch
//! latency never holds a descent.
//!
//! Sign convention as in `uct`: a node's wins are for the player who moved
//! into it, so a correction of `d` Black wins adds `d` to the nodes Black
//! moved into and `-d` to the others.

use super::tree::Tree;
use super::uct::Path;
use crate::game::{Color, Game};
use crate::sim::{LeafStats, Simulator};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Leaves a worker collects before it takes the queue's lock once for all.
pub(super) const OFFER_CHUNK: usize = 32;

/// Leaves the queue holds at most; a worker's chunk that finds it full is
/// dropped (those leaves keep their one-playout value). Also the most one
/// refining batch simulates.
const MAX_QUEUED: usize = 8192;

/// Refining threads, each with a batch in flight: while one waits for its
/// kernel, the other packs its positions and folds its results in (the
/// GPU simulator keeps two launch slots a GPU).
pub(super) const REFINERS: usize = 2;

/// How long the refiner sleeps when the queue is empty.
const IDLE_WAIT: Duration = Duration::from_micros(200);

/// One simulated leaf waiting for its refinement: the tree it is in, its
/// path, and what its backed-up playouts gave (playouts, Black's wins).
pub(super) struct Offer {
    pub tree: usize,
    pub path: Path,
    pub playouts: u32,
    pub black_wins: f64,
}

/// The queue between the workers and the refining thread, and its counts.
pub(super) struct Refine<'a, G: Game> {
    sim: &'a dyn Simulator<G>,
    /// Playouts the refiner adds to each leaf.
    playouts: u32,
    seed: u64,
    queue: Mutex<Queue<G>>,
    /// Set when every worker has finished: the refiner drops what is left.
    finished: AtomicBool,
    refined_leaves: AtomicU64,
    dropped_leaves: AtomicU64,
    /// Batches simulated so far by all refining threads: each batch's seed.
    calls: AtomicU64,
}

struct Queue<G> {
    offers: Vec<Offer>,
    positions: Vec<G>,
}

impl<G: Game> Queue<G> {
    fn new() -> Self {
        Queue {
            offers: Vec::new(),
            positions: Vec::new(),
        }
    }
}

/// A worker's leaves not yet handed to the queue.
pub(super) struct Pending<G> {
    offers: Vec<Offer>,
    positions: Vec<G>,
}

impl<G> Default for Pending<G> {
    fn default() -> Self {
        Pending {
            offers: Vec::with_capacity(OFFER_CHUNK),
            positions: Vec::with_capacity(OFFER_CHUNK),
        }
    }
}

impl<'a, G: Game> Refine<'a, G> {
    pub(super) fn new(sim: &'a dyn Simulator<G>, playouts: u32, seed: u64) -> Self {
        Refine {
            sim,
            playouts: playouts.max(1),
            seed,
            queue: Mutex::new(Queue::new()),
            finished: AtomicBool::new(false),
            refined_leaves: AtomicU64::new(0),
            dropped_leaves: AtomicU64::new(0),
            calls: AtomicU64::new(0),
        }
    }

    /// Adds one backed-up leaf to the worker's `pending`, handing the
    /// chunk to the queue when it is full.
    pub(super) fn offer(&self, pending: &mut Pending<G>, offer: Offer, pos: &G) {
        pending.offers.push(offer);
        pending.positions.push(pos.clone());
        if pending.offers.len() >= OFFER_CHUNK {
            self.hand_over(pending);
        }
    }

    fn hand_over(&self, pending: &mut Pending<G>) {
        let n = pending.offers.len() as u64;
        let mut queue = match self.queue.lock() {
            Ok(q) => q,
            Err(poisoned) => poisoned.into_inner(),
        };
        if queue.offers.len() + pending.offers.len() <= MAX_QUEUED {
            queue.offers.append(&mut pending.offers);
            queue.positions.append(&mut pending.positions);
        } else {
            drop(queue);
            self.dropped_leaves.fetch_add(n, Ordering::Relaxed);
            pending.offers.clear();
            pending.positions.clear();
        }
    }

    /// Tells the refiner that no more leaves will come.
    pub(super) fn finish(&self) {
        self.finished.store(true, Ordering::Release);
    }

    /// The refining thread: simulates what has queued up, in one call,
    /// and folds each leaf's new playouts into the value its path holds,
    /// until [`finish`](Self::finish).
    pub(super) fn run(&self, trees: &[&Tree<G::Move>]) {
        let mut batch = Queue::new();
        let mut stats: Vec<LeafStats> = Vec::new();
        while !self.finished.load(Ordering::Acquire) {
            {
                let mut queue = match self.queue.lock() {
                    Ok(q) => q,
                    Err(poisoned) => poisoned.into_inner(),
                };
                std::mem::swap(&mut *queue, &mut batch);
            }
            if batch.offers.is_empty() {
                std::thread::sleep(IDLE_WAIT);
                continue;
            }
            let n = batch.offers.len();
            if stats.len() < n {
                stats.resize_with(n, LeafStats::default);
            }
            let call = self.calls.fetch_add(1, Ordering::Relaxed);
            let seed = self.seed ^ call.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            self.sim
                .simulate(&batch.positions, self.playouts, seed, &mut stats[..n]);
            if self.finished.load(Ordering::Acquire) {
                break;
            }
            for (offer, s) in batch.offers.iter().zip(&stats) {
                if let Some(tree) = trees.get(offer.tree) {
                    correct(tree, offer, s);
                }
            }
            self.refined_leaves.fetch_add(n as u64, Ordering::Relaxed);
            batch.offers.clear();
            batch.positions.clear();
        }
    }

    /// (leaves refined, leaves dropped because the queue was full).
    pub(super) fn counts(&self) -> (u64, u64) {
        (
            self.refined_leaves.load(Ordering::Relaxed),
            self.dropped_leaves.load(Ordering::Relaxed),
        )
    }
}

/// Folds `stats` (the refiner's playouts from `offer`'s leaf) into the
/// wins of every node on the leaf's path: the leaf's backed-up playouts
/// keep their weight, their value becomes the mean of all the leaf's
/// playouts.
pub(super) fn correct<M: Copy>(tree: &Tree<M>, offer: &Offer, stats: &LeafStats) {
    let n = offer.playouts as f64;
    let all = n + stats.playouts as f64;
    if stats.playouts == 0 || n == 0.0 {
        return;
    }
    let mean = (offer.black_wins + stats.black_wins as f64) / all;
    let black = n * mean - offer.black_wins;
    for depth in 0..offer.path.nodes.len() {
        let delta = match offer.path.mover(depth) {
            Color::Black => black,
            Color::White => -black,
        };
        tree.node(offer.path.nodes[depth]).wins.add(delta);
    }
}
