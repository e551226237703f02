//! Expansions gathered over a batch of descents, their priors asked in one
//! `Simulator::priors_batch` (`Simulator::batches_priors`: the Amazons GPU
//! evaluator's way, one launch for a batch's expansions).

use super::tests::{playouts, run};
use super::tests_leaf_values::leaves_hold_their_evaluation;
use super::*;
use crate::game::amazons::{Move, Position};
use crate::game::Game;
use crate::sim::amazons_rollout::{random_positions, EvalSimulator};
use crate::sim::{LeafStats, Prior, PriorsJob, Simulator};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The Amazons evaluator, asking for priors together and counting how.
#[derive(Default)]
struct Gathering {
    /// `priors_batch` calls, the jobs they carried, the most in one.
    calls: AtomicU64,
    jobs: AtomicU64,
    most: AtomicU64,
    /// `priors` calls (a widened node's moves evaluated again).
    single: AtomicU64,
    /// Leaves simulated.
    simulated: AtomicU64,
    /// What it answers to `priors_are_leaf_values`, negated.
    simulates_leaves: bool,
}

impl Simulator<Position> for Gathering {
    fn name(&self) -> &str {
        "gathering"
    }

    fn simulate(&self, leaves: &[Position], n: u32, seed: u64, out: &mut [LeafStats]) {
        self.simulated
            .fetch_add(leaves.len() as u64, Ordering::Relaxed);
        EvalSimulator.simulate(leaves, n, seed, out);
    }

    fn priors(&self, pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
        self.single.fetch_add(1, Ordering::Relaxed);
        EvalSimulator.priors(pos, moves, out);
    }

    fn priors_batch(&self, jobs: &mut [PriorsJob<'_, Position>]) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.jobs.fetch_add(jobs.len() as u64, Ordering::Relaxed);
        self.most.fetch_max(jobs.len() as u64, Ordering::Relaxed);
        for job in jobs {
            EvalSimulator.priors(job.pos, job.moves, job.out);
        }
    }

    fn batches_priors(&self) -> bool {
        true
    }

    fn priors_are_leaf_values(&self) -> bool {
        !self.simulates_leaves
    }
}

fn gathered_search(
    leaves: usize,
    threads: usize,
    iterations: u64,
) -> (Search<Position>, Arc<Gathering>) {
    let start = Position::new(6).unwrap();
    search_from(start, Gathering::default(), leaves, threads, iterations)
}

fn search_from(
    start: Position,
    sim: Gathering,
    leaves: usize,
    threads: usize,
    iterations: u64,
) -> (Search<Position>, Arc<Gathering>) {
    let sim = Arc::new(sim);
    let config = SearchConfig {
        early_stop: false,
        widening: Some(Widening::default()),
        leaves_per_batch: leaves,
        expand_after_visits: 1,
        threads,
        ..SearchConfig::default()
    };
    let mut s = Search::new(config, sim.clone());
    s.set_position(&start);
    let info = run(&mut s, playouts(iterations));
    assert_eq!(info.playouts, iterations);
    (s, sim)
}

/// Every node of the trees expanded, and no virtual loss left behind.
fn expanded_nodes(s: &Search<Position>) -> u64 {
    let mut expanded = 0;
    for tree in &s.trees {
        let mut stack = vec![tree.root.unwrap()];
        while let Some(id) = stack.pop() {
            let node = tree.node(id);
            assert_eq!(node.virtual_loss(), 0, "{node:?}");
            if node.is_expanded() {
                expanded += 1;
                stack.extend(node.children());
            }
        }
    }
    expanded
}

#[test]
fn a_batch_asks_for_its_expansions_priors_together() {
    let (s, sim) = gathered_search(8, 1, 3000);
    let (calls, jobs) = (
        sim.calls.load(Ordering::Relaxed),
        sim.jobs.load(Ordering::Relaxed),
    );
    assert!(sim.most.load(Ordering::Relaxed) > 1);
    assert!(
        jobs > calls + calls / 2,
        "{jobs} expansions in {calls} calls"
    );
    // Each expansion was asked for once, in a batch, and made its node;
    // the root's alone at once (the batch's other descents wait for it).
    assert_eq!(jobs + 1, expanded_nodes(&s));
    let checked = leaves_hold_their_evaluation(&s.trees[0], Position::new(6).unwrap());
    assert!(checked > 10, "{checked} nodes visited exactly once");
    // A stopped node carries its descent's virtual loss, so no later
    // descent of the batch ends on it as a leaf to simulate.
    assert_eq!(sim.simulated.load(Ordering::Relaxed), 0);
}

/// Leaves simulated among terminal ones (an ending, without leaf values):
/// each backs up its own position's result, wherever its slot was.
#[test]
fn gathered_leaves_back_up_their_own_simulations() {
    let ending = random_positions(6, 200, 9)
        .unwrap()
        .into_iter()
        .find(|pos| {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            pos.outcome().is_none() && (4..12).contains(&moves.len())
        })
        .unwrap();
    let sim = Gathering {
        simulates_leaves: true,
        ..Gathering::default()
    };
    let (s, sim) = search_from(ending.clone(), sim, 8, 1, 2000);
    assert!(sim.simulated.load(Ordering::Relaxed) > 100);
    let checked = leaves_hold_their_evaluation(&s.trees[0], ending);
    assert!(checked > 10, "{checked} nodes visited exactly once");
    // And every path was backed up: no virtual loss is left.
    expanded_nodes(&s);
}

#[test]
fn threads_gather_their_own_batches() {
    let (s, sim) = gathered_search(8, 4, 4000);
    assert_eq!(sim.jobs.load(Ordering::Relaxed) + 1, expanded_nodes(&s));
    assert!(sim.most.load(Ordering::Relaxed) > 1);
}

#[test]
fn one_leaf_batches_ask_at_each_expansion() {
    let (s, sim) = gathered_search(1, 1, 1000);
    assert_eq!(sim.calls.load(Ordering::Relaxed), 0);
    assert!(sim.single.load(Ordering::Relaxed) >= expanded_nodes(&s));
}
