//! Leaves backed up from their priors (`Simulator::priors_are_leaf_values`)
//! instead of being simulated again, and the AMAF first-play table, which
//! a backup unmarks instead of clearing.

use super::expand;
use super::tests::{playouts, run, tic_tac_toe_line};
use super::toy::TicTacToe;
use super::tree::Tree;
use super::uct::{self, LeafResult, Path, Scratch};
use super::*;
use crate::game::amazons::{Move, Position};
use crate::game::{Color, Game};
use crate::sim::amazons_rollout::EvalSimulator;
use crate::sim::{AmafCount, LeafStats, Prior, Simulator};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The Amazons evaluator, counting the leaves it is asked to simulate;
/// `leaf_values` says what it answers to `priors_are_leaf_values`.
struct Counting {
    leaf_values: bool,
    simulated: AtomicU64,
}

impl Simulator<Position> for Counting {
    fn name(&self) -> &str {
        "counting"
    }

    fn simulate(&self, leaves: &[Position], n: u32, seed: u64, out: &mut [LeafStats]) {
        self.simulated
            .fetch_add(leaves.len() as u64, Ordering::Relaxed);
        EvalSimulator.simulate(leaves, n, seed, out);
    }

    fn priors(&self, pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
        EvalSimulator.priors(pos, moves, out);
    }

    fn priors_are_leaf_values(&self) -> bool {
        self.leaf_values
    }
}

fn counting_search(leaf_values: bool, iterations: u64) -> (Search<Position>, u64) {
    let sim = Arc::new(Counting {
        leaf_values,
        simulated: AtomicU64::new(0),
    });
    let config = SearchConfig {
        early_stop: false,
        widening: Some(Widening::default()),
        ..SearchConfig::default()
    };
    let mut s = Search::new(config, sim.clone());
    s.set_position(&Position::new(6).unwrap());
    let info = run(&mut s, playouts(iterations));
    assert_eq!(info.playouts, iterations);
    (s, sim.simulated.load(Ordering::Relaxed))
}

#[test]
fn leaves_with_an_evaluated_prior_are_not_simulated_again() {
    let (_, simulated) = counting_search(false, 500);
    assert!(simulated > 100, "{simulated} leaves simulated");
    let (s, simulated) = counting_search(true, 500);
    assert_eq!(simulated, 0);

    let checked = leaves_hold_their_evaluation(&s.trees[0], Position::new(6).unwrap());
    assert!(checked > 10, "{checked} nodes visited exactly once");
}

/// Checks that each node of `tree` (whose root is at `root_pos`) visited
/// once and not expanded holds exactly its evaluation: what `simulate`
/// gives the position after its move. Returns how many it checked.
pub(super) fn leaves_hold_their_evaluation(tree: &Tree<Move>, root_pos: Position) -> usize {
    let mut stack = vec![(tree.root.unwrap(), root_pos)];
    let mut checked = 0;
    while let Some((id, pos)) = stack.pop() {
        let node = tree.node(id);
        if node.is_expanded() {
            for c in node.children() {
                let mut next = pos.clone();
                next.play_unchecked(tree.node(c).mv.unwrap());
                stack.push((c, next));
            }
            continue;
        }
        if node.visits.get() != 1 || pos.outcome().is_some() {
            continue;
        }
        let mut stats = [LeafStats::default()];
        EvalSimulator.simulate(std::slice::from_ref(&pos), 1, 0, &mut stats);
        // The wins are the mover's: the side not to move in `pos`.
        let mover_wins = match pos.to_move() {
            Color::Black => 1.0 - stats[0].black_wins as f64,
            Color::White => stats[0].black_wins as f64,
        };
        assert!((node.wins.get() - mover_wins).abs() < 1e-5, "{node:?}");
        checked += 1;
    }
    checked
}

#[test]
fn a_prior_leaf_value_takes_the_even_prior_out() {
    let cfg = SearchConfig::default();
    let tree: Tree<u8> = Tree::new(1 << 20);
    let root = tree.root.unwrap();
    let prior = Prior {
        wins: 3.0,
        visits: 10.0,
        bias: 0.0,
        ..Prior::default()
    };
    let node = expand::child_node(&TicTacToe::new(), &cfg, 4, prior);
    let first = tree.nodes.alloc_run(std::iter::once(node)).unwrap();
    assert!(tree.node(root).claim_expansion());
    tree.node(root).publish_children(first, 1, false);
    let value = expand::prior_leaf_value(&tree, first, &cfg).unwrap();
    assert!((value - 0.3).abs() < 1e-6, "{value}");
    // The root has no prior, so no such value.
    assert_eq!(expand::prior_leaf_value(&tree, root, &cfg), None);
}

#[test]
fn a_backup_leaves_no_first_play_marks_for_the_next() {
    let root_pos = TicTacToe::new();
    let mut scratch = Scratch::default();
    // Black's 0, then White's 1.
    let (tree, [root, a, b]) = tic_tac_toe_line(&mut scratch);
    let child = |mv: u8| {
        tree.node(root)
            .children()
            .find(|&c| tree.node(c).mv == Some(mv))
            .unwrap()
    };
    for id in [root, a, b] {
        tree.node(id).add_virtual_loss(1);
    }
    // Black 0, White 1 in the tree: the backup marks 1 as White's first.
    let path = Path {
        nodes: vec![root, a, b],
        to_move: vec![Color::Black, Color::White, Color::Black],
    };
    let empty = LeafResult {
        playouts: 1,
        black_wins: 1.0,
        amaf: &[],
    };
    uct::update(&tree, &path, &empty, 1, &root_pos, &mut scratch);
    assert_eq!(tree.node(child(1)).amaf_visits.get(), 0);

    // The next backup, through Black's 2, with Black first at 1 in the
    // playout: the root's move 1 gets that AMAF sample, which a mark left
    // from the backup before would have withheld.
    let c = child(2);
    for id in [root, c] {
        tree.node(id).add_virtual_loss(1);
    }
    let mut amaf = vec![[AmafCount::default(); 2]; 9];
    amaf[1][Color::Black.index()] = AmafCount {
        plays: 1,
        black_wins: 1.0,
    };
    let result = LeafResult {
        playouts: 1,
        black_wins: 1.0,
        amaf: &amaf,
    };
    let path = Path {
        nodes: vec![root, c],
        to_move: vec![Color::Black, Color::White],
    };
    uct::update(&tree, &path, &result, 1, &root_pos, &mut scratch);
    let one = tree.node(child(1));
    assert_eq!((one.amaf_visits.get(), one.amaf_wins.get()), (1, 1.0));
}
