//! Root parallelism: several trees, one decision.

use super::root;
use super::tests::{playouts, search};
use super::toy::{Nim, TicTacToe};
use super::workers;
use super::*;
use crate::sim::cpu::CpuSimulator;
use crate::sim::Rollout;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn trees(threads: usize, trees: usize) -> SearchConfig {
    SearchConfig {
        threads,
        trees,
        leaves_per_batch: 4,
        playouts_per_leaf: 2,
        early_stop: false,
        ..SearchConfig::default()
    }
}

#[test]
fn tree_count_follows_the_threads() {
    let s = search(trees(4, 3), &TicTacToe::new());
    assert_eq!(s.trees.len(), 3);
    // Never more trees than threads to grow them.
    let s = search(trees(2, 8), &TicTacToe::new());
    assert_eq!(s.trees.len(), 2);
    let mut s = search(trees(1, 1), &TicTacToe::new());
    assert_eq!(s.trees.len(), 1);
    s.set_config(trees(4, 4));
    assert_eq!(s.trees.len(), 4);
    s.set_threads(2);
    assert_eq!(s.trees.len(), 2);
}

#[test]
fn playout_limit_is_exact_over_all_trees() {
    let mut s = search(trees(4, 2), &TicTacToe::new());
    let info = s.run(&playouts(6000), &AtomicBool::new(false), None);
    assert_eq!(info.playouts, 6000);
    assert_eq!(info.root_visits, 6000);
    let per_tree: Vec<u64> = s
        .trees
        .iter()
        .map(|t| t.node(t.root.unwrap()).visits.get())
        .collect();
    // (How the playouts split between the trees depends on the threads'
    // timing; only the sum is fixed.)
    assert_eq!(per_tree.len(), 2);
    assert_eq!(per_tree.iter().sum::<u64>(), 6000);
    // The candidates add each move's visits over the trees.
    let refs: Vec<_> = s.trees.iter().collect();
    let merged = root::merge(&refs);
    let total: u64 = info.candidates.iter().map(|c| c.visits).sum();
    assert_eq!(total, merged.iter().map(|m| m.visits).sum::<u64>());
    assert_eq!(total, 6000);
}

#[test]
fn merged_trees_still_find_the_right_moves() {
    // X: 0 1, O: 3 4; X to move wins at 2.
    let mut s = search(trees(4, 4), &TicTacToe::from_moves(&[0, 3, 1, 4]));
    s.run(&playouts(4000), &AtomicBool::new(false), None);
    assert_eq!(s.decide(), Some(Decision::Play(2)));
    // Nim: take the heap down to a multiple of four.
    let mut s = search(trees(3, 3), &Nim::new(10));
    s.run(&playouts(6000), &AtomicBool::new(false), None);
    assert_eq!(s.decide(), Some(Decision::Play(2)));
}

#[test]
fn every_tree_keeps_its_subtree() {
    let start = TicTacToe::new();
    let mut s = search(trees(2, 2), &start);
    s.run(&playouts(4000), &AtomicBool::new(false), None);
    let best = s.info().candidates[0].clone();
    s.set_position(&TicTacToe::from_moves(&[best.mv]));
    // Each tree's child for the move became its root; together they hold
    // the move's merged visits.
    assert_eq!(s.info().root_visits, best.visits);
    assert_eq!(s.trees.len(), 2);
}

#[test]
fn early_stop_counts_every_tree() {
    // Heap 5: taking 1 wins outright, so the run stops well before the
    // limit once that move is out of reach.
    let config = SearchConfig {
        early_stop: true,
        ..trees(2, 2)
    };
    let mut s = search(config, &Nim::new(5));
    let info = s.run(&playouts(200_000), &AtomicBool::new(false), None);
    assert!(info.playouts < 200_000, "{}", info.playouts);
    assert_eq!(s.decide(), Some(Decision::Play(1)));
}

#[test]
fn a_whole_time_allowance_thinks_past_the_settled_move() {
    // Heap 5 again: the move settles early. Under a clock's share of time
    // the run stops then; under a fixed allowance it thinks on to the
    // deadline (for the subtree tree reuse keeps) and plays the same move.
    let config = SearchConfig {
        early_stop: true,
        ..trees(2, 2)
    };
    let clock = Limits {
        time: Some(Duration::from_secs(2)),
        ..Limits::default()
    };
    let mut s = search(config.clone(), &Nim::new(5));
    let info = s.run(&clock, &AtomicBool::new(false), None);
    assert!(info.elapsed < Duration::from_secs(2), "{:?}", info.elapsed);
    assert_eq!(s.decide(), Some(Decision::Play(1)));

    let fixed = Limits {
        time: Some(Duration::from_millis(300)),
        whole_time: true,
        ..Limits::default()
    };
    let mut s = search(config, &Nim::new(5));
    let info = s.run(&fixed, &AtomicBool::new(false), None);
    assert!(
        info.elapsed >= Duration::from_millis(300),
        "{:?}",
        info.elapsed
    );
    assert_eq!(s.decide(), Some(Decision::Play(1)));
}

#[test]
fn top_two_sums_moves_over_lists_in_any_order() {
    let a = vec![(1u8, 10), (2, 5), (3, 1)];
    let b = vec![(3u8, 20), (1, 4)];
    assert_eq!(root::top_two(&[a, b]), (21, 14));
    assert_eq!(root::top_two::<u8>(&[]), (0, 0));
}

#[test]
fn top_two_finds_moves_a_later_list_holds_elsewhere_or_alone() {
    // Hundreds of root moves (an Amazons root) in the first list; the
    // second lists them in reverse with one more, the third only that
    // one: each move is summed once, wherever its lists put it.
    let a: Vec<(u16, u64)> = (0..600).map(|m| (m, m as u64)).collect();
    let mut b: Vec<(u16, u64)> = (0..600).rev().map(|m| (m, 1)).collect();
    b.push((900, 700));
    let c = vec![(900u16, 5)];
    assert_eq!(root::top_two(&[a.clone(), b, c]), (705, 600));
    assert_eq!(root::top_two(&[a]), (599, 598));
}

/// The CPU simulator, slowed to `per_batch` plus `per_leaf` a leaf (a GPU
/// round trip), counting its batches. `queued()` runs the batches one at a
/// time, as one GPU shared by every search thread: a batch's round trip
/// then grows with what the other threads have in flight.
struct Slow<G> {
    inner: CpuSimulator<G>,
    per_batch: Duration,
    per_leaf: Duration,
    batches: AtomicUsize,
    /// The most leaves one batch had.
    largest: AtomicUsize,
    device: Option<std::sync::Mutex<()>>,
}

impl<G: Rollout> Slow<G> {
    fn new(per_batch_ms: u64, per_leaf_ms: u64) -> Self {
        Slow {
            inner: CpuSimulator::new(),
            per_batch: Duration::from_millis(per_batch_ms),
            per_leaf: Duration::from_millis(per_leaf_ms),
            batches: AtomicUsize::new(0),
            largest: AtomicUsize::new(0),
            device: None,
        }
    }

    fn queued(self) -> Self {
        Slow {
            device: Some(std::sync::Mutex::new(())),
            ..self
        }
    }
}

impl<G: Rollout> crate::sim::Simulator<G> for Slow<G> {
    fn name(&self) -> &str {
        "slow"
    }

    fn simulate(&self, leaves: &[G], k: u32, seed: u64, out: &mut [crate::sim::LeafStats]) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.largest.fetch_max(leaves.len(), Ordering::Relaxed);
        {
            let _device = self.device.as_ref().map(|d| d.lock().unwrap());
            std::thread::sleep(self.per_batch + self.per_leaf * leaves.len() as u32);
        }
        self.inner.simulate(leaves, k, seed, out);
    }

    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<crate::sim::Prior>) {
        self.inner.priors(pos, moves, out);
    }
}

fn timed(ms: u64) -> Limits {
    Limits {
        playouts: None,
        time: Some(Duration::from_millis(ms)),
        whole_time: false,
    }
}

#[test]
fn no_batch_is_started_that_would_end_past_the_deadline() {
    // Batches of 200 ms and 500 ms to think: two batches fit, a third
    // would end at 600 ms, so the run ends after the second at 400 ms.
    let sim = Arc::new(Slow::<TicTacToe>::new(200, 0));
    let mut s = Search::new(trees(1, 1), sim.clone());
    s.set_position(&TicTacToe::new());
    s.run(&timed(500), &AtomicBool::new(false), None);
    // Without the rule a third batch would start (and end at 600 ms). The
    // batch count is the check: the run's duration depends on how late a
    // loaded machine wakes from its sleeps, the count on the rule alone.
    assert_eq!(sim.batches.load(Ordering::Relaxed), 2);
}

#[test]
fn batch_size_follows_the_time_a_batch_takes() {
    let budget = Duration::from_millis(800);
    // A round should take a quarter of the budget (200 ms): at 1,000
    // leaves a second over 4 threads, 50 leaves a batch.
    assert_eq!(workers::next_batch_leaves(40, 1024, 1000.0, 4, budget), 50);
    // At most twice, at least half the last batch, at most `max`.
    assert_eq!(workers::next_batch_leaves(20, 1024, 1000.0, 4, budget), 40);
    assert_eq!(
        workers::next_batch_leaves(400, 1024, 1000.0, 4, budget),
        200
    );
    assert_eq!(workers::next_batch_leaves(40, 45, 1000.0, 4, budget), 45);
    assert_eq!(workers::next_batch_leaves(1, 1024, 0.0, 4, budget), 1);
    assert_eq!(workers::next_batch_leaves(5, 1, 1e6, 1, budget), 1);

    // 4 ms a leaf and 400 ms to think: a batch should take 100 ms, so
    // the search grows from its first 8 leaves (an eighth of 64) to about
    // 25 and remembers that for the next run.
    let config = SearchConfig {
        leaves_per_batch: 64,
        ..trees(1, 1)
    };
    let sim = Arc::new(Slow::<TicTacToe>::new(0, 4));
    let mut s = Search::new(config, sim);
    s.set_position(&TicTacToe::new());
    s.run(&timed(400), &AtomicBool::new(false), None);
    // The size the batches grew to is the check, not the run's duration.
    assert!((16..=32).contains(&s.batch_leaves), "{}", s.batch_leaves);
    // A new game may be on a slower board: start small again.
    s.clear();
    assert_eq!(s.batch_leaves, 0);
}

#[test]
fn threads_sharing_a_device_keep_their_batches_in_time() {
    // Sixteen threads, one device at 1 ms a leaf, 400 ms to think:
    // rounds of batches should come back within 100 ms, about 6 leaves
    // each. The first batches (16 leaves) come back fast at first; if
    // each of them doubled the shared size, it would reach the full 128
    // leaves within a round, a round would take two seconds, and the run
    // would end far too late.
    let config = SearchConfig {
        leaves_per_batch: 128,
        ..trees(16, 1)
    };
    let sim = Arc::new(Slow::<TicTacToe>::new(0, 1).queued());
    let mut s = Search::new(config, sim.clone());
    s.set_position(&TicTacToe::new());
    s.run(&timed(400), &AtomicBool::new(false), None);
    // No batch grew past the first ones (16 leaves): the device can back
    // up at most 1,000 leaves a second, a fair share of a quarter of the
    // budget is about 6 leaves a thread, and a slower machine only makes
    // that smaller. A rule that doubled the shared size after every quick
    // batch grew them to 128, and a 400 ms run then took about 600 ms; the
    // batch sizes, not the run's duration, are what is checked.
    let largest = sim.largest.load(Ordering::Relaxed);
    assert!(largest <= 16, "a batch of {largest} leaves");
    assert!(s.batch_leaves <= 16, "{}", s.batch_leaves);
}
