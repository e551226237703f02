//! Expansions gathered over a batch of descents, their priors asked in one
//! `Simulator::priors_batch` (`Simulator::batches_priors`: the Amazons GPU
//! evaluator's way, one launch for a batch's expansions).

use super::tests::{playouts, run};
use super::tests_leaf_values::leaves_hold_their_evaluation;
use super::*;
use crate::game::amazons::{Move, Position};
use crate::sim::amazons_rollout::EvalSimulator;
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
}

impl Simulator<Position> for Gathering {
    fn name(&self) -> &str {
        "gathering"
    }

    fn simulate(&self, leaves: &[Position], n: u32, seed: u64, out: &mut [LeafStats]) {
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
        true
    }
}

fn gathered_search(
    leaves: usize,
    threads: usize,
    iterations: u64,
) -> (Search<Position>, Arc<Gathering>) {
    let sim = Arc::new(Gathering::default());
    let config = SearchConfig {
        early_stop: false,
        widening: Some(Widening::default()),
        leaves_per_batch: leaves,
        expand_after_visits: 1,
        threads,
        ..SearchConfig::default()
    };
    let mut s = Search::new(config, sim.clone());
    s.set_position(&Position::new(6).unwrap());
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
