//! Leaf refinement (`super::refine`): a second simulator's playouts folded
//! into the values of leaves the workers have backed up, no visit added.

use super::tests::{playouts, run};
use super::toy::Nim;
use super::*;
use crate::game::{Color, Game};
use crate::sim::cpu::CpuSimulator;
use crate::sim::refined::RefinedSimulator;
use crate::sim::{LeafStats, Simulator};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A refiner that says every playout from every leaf was won by `winner`,
/// counting the leaves it was given.
struct Oracle {
    winner: Color,
    leaves: AtomicU64,
}

impl<G: Game> Simulator<G> for Oracle {
    fn name(&self) -> &str {
        "oracle"
    }

    fn simulate(&self, leaves: &[G], n: u32, _seed: u64, out: &mut [LeafStats]) {
        self.leaves
            .fetch_add(leaves.len() as u64, Ordering::Relaxed);
        for (leaf, stats) in leaves.iter().zip(out) {
            stats.reset_for(leaf);
            stats.playouts = n;
            stats.black_wins = match self.winner {
                Color::Black => n as f32,
                Color::White => 0.0,
            };
        }
    }
}

fn config(threads: usize) -> SearchConfig {
    SearchConfig {
        early_stop: false,
        threads,
        ..SearchConfig::default()
    }
}

/// Black's win rate at the root of Nim 21 after `n` playouts, with the
/// leaves refined by an oracle for `winner` (none: not refined), and the
/// leaves the oracle was given.
fn black_rate(winner: Option<Color>, threads: usize, n: u64) -> (f32, u64, SearchInfo<u8>) {
    let cpu: Arc<dyn Simulator<Nim>> = Arc::new(CpuSimulator::<Nim>::new());
    let oracle = Arc::new(Oracle {
        winner: winner.unwrap_or(Color::Black),
        leaves: AtomicU64::new(0),
    });
    let sim: Arc<dyn Simulator<Nim>> = match winner {
        Some(_) => Arc::new(RefinedSimulator::new(cpu, oracle.clone(), 16)),
        None => cpu,
    };
    let mut s = Search::new(config(threads), sim);
    let pos = Nim::new(21);
    assert_eq!(pos.to_move(), Color::Black);
    s.set_position(&pos);
    let info = run(&mut s, playouts(n));
    (info.winrate, oracle.leaves.load(Ordering::Relaxed), info)
}

#[test]
fn refined_leaves_move_the_values_and_add_no_visits() {
    let n = 40_000;
    let (plain, _, plain_info) = black_rate(None, 1, n);
    for threads in [1, 2] {
        let (black, given, info) = black_rate(Some(Color::Black), threads, n);
        let (white, _, _) = black_rate(Some(Color::White), threads, n);
        assert!(given > 0, "the refiner got no leaves");
        // Every leaf counts once, refined or not.
        assert_eq!(info.playouts, plain_info.playouts);
        assert_eq!(info.root_visits, plain_info.root_visits);
        assert!(
            black > plain + 0.05 && white < plain - 0.05,
            "Black's rate {plain} unrefined, {black} / {white} refined for Black / White ({threads} threads)"
        );
    }
}

/// A timed run ends on time with a refiner that takes its time, and
/// the engine's stop flag ends an unlimited one.
#[test]
fn a_slow_refiner_never_holds_the_run() {
    struct Slow;
    impl Simulator<Nim> for Slow {
        fn name(&self) -> &str {
            "slow"
        }
        fn simulate(&self, leaves: &[Nim], n: u32, seed: u64, out: &mut [LeafStats]) {
            std::thread::sleep(Duration::from_millis(20));
            CpuSimulator::<Nim>::new().simulate(leaves, n, seed, out);
        }
    }
    let sim = Arc::new(RefinedSimulator::new(
        Arc::new(CpuSimulator::<Nim>::new()),
        Arc::new(Slow),
        8,
    ));
    let mut s = Search::new(config(2), sim);
    s.set_position(&Nim::new(21));
    let limits = Limits {
        playouts: None,
        time: Some(Duration::from_millis(100)),
    };
    let started = Instant::now();
    let info = s.run(&limits, &AtomicBool::new(false), None);
    assert!(info.playouts > 0);
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
}
