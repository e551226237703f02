//! Progressive widening (`search::widen`) on the Amazons, whose
//! evaluation ranks the moves, and its absence everywhere else.

use super::config::WAITING_LISTED;
use super::tests::{playouts, run, search};
use super::tree::{NodeId, Tree};
use super::widen::Grow;
use super::*;
use crate::game::amazons::{Move, Position};
use crate::game::Game;
use crate::sim::amazons_rollout::EvalSimulator;
use crate::sim::Simulator;
use std::collections::HashSet;
use std::sync::Arc;

fn widened(threads: usize) -> SearchConfig {
    SearchConfig {
        threads,
        early_stop: false,
        widening: Some(Widening::default()),
        ..SearchConfig::default()
    }
}

fn amazons_search(config: SearchConfig, pos: &Position) -> Search<Position> {
    let mut s = Search::new(config, Arc::new(EvalSimulator));
    s.set_position(pos);
    s
}

/// The start of a `size` board, a one-thread widened config, and a
/// search of it that ran `n` playouts.
fn searched(size: usize, n: u64) -> (Position, SearchConfig, Search<Position>) {
    let start = Position::new(size).unwrap();
    let cfg = widened(1);
    let mut s = amazons_search(cfg.clone(), &start);
    run(&mut s, playouts(n));
    (start, cfg, s)
}

/// Every expanded node reached from the root with its position: its
/// children's moves and its waiting moves are its legal moves, each once,
/// and the waiting ones rank no better than the children (priors, worst
/// first in the list). Returns how many expanded nodes were checked.
fn check_tree(tree: &Tree<Move>, root_pos: &Position) -> usize {
    let mut checked = 0;
    let mut stack: Vec<(NodeId, Position)> = vec![(tree.root.unwrap(), root_pos.clone())];
    let mut legal = Vec::new();
    let lazy = tree.lazy();
    while let Some((id, pos)) = stack.pop() {
        let node = tree.node(id);
        if !node.is_expanded() {
            continue;
        }
        checked += 1;
        pos.legal_moves(&mut legal);
        let list = lazy.waiting.get(&id);
        let waiting: Vec<_> = list.map_or(Vec::new(), |w| w.iter().collect());
        let dropped = list.is_some_and(|w| w.has_dropped());
        assert_eq!(node.is_waiting(), !waiting.is_empty() || dropped);
        let mut seen = HashSet::new();
        for c in node.children() {
            assert!(seen.insert(tree.node(c).mv.unwrap()), "a move twice");
        }
        for &(mv, _) in &waiting {
            assert!(seen.insert(mv), "a waiting move has a node too");
        }
        // Below the root (of the search that expanded the node) only the
        // best waiting moves are listed; the dropped ones are the legal
        // moves left over.
        if dropped {
            assert!(waiting.len() <= WAITING_LISTED);
            assert!(seen.len() < legal.len());
        } else {
            assert_eq!(seen.len(), legal.len());
        }
        assert!(seen.iter().all(|mv| legal.contains(mv)));
        let mean = |p: &crate::sim::Prior| p.wins / p.visits;
        for pair in waiting.windows(2) {
            assert!(
                mean(&pair[0].1) <= mean(&pair[1].1),
                "waiting moves out of order"
            );
        }
        for c in node.children() {
            let mut next = pos.clone();
            next.play_unchecked(tree.node(c).mv.unwrap());
            stack.push((c, next));
        }
    }
    checked
}

#[test]
fn width_grows_as_a_power_of_the_visits() {
    let w = Widening::default();
    assert_eq!(w.width(0), 8);
    assert_eq!(w.width(100), 16);
    assert_eq!(w.width(10_000), 40);
    assert_eq!(w.width(100_000), 72);
    assert!((0..5000).all(|n| w.width(n) <= w.width(n + 1)));
    assert_eq!(
        Widening {
            base: 0.0,
            factor: 0.0,
            exponent: 1.0
        }
        .width(7),
        1
    );
    assert_eq!(
        Widening {
            base: 1e300,
            factor: 1.0,
            exponent: 1.0
        }
        .width(1),
        usize::MAX
    );
}

#[test]
fn the_root_gets_nodes_for_its_best_moves_only() {
    let start = Position::new(10).unwrap();
    let mut s = amazons_search(widened(1), &start);
    run(&mut s, playouts(1));
    let tree = &s.trees[0];
    let root = tree.node(tree.root.unwrap());
    let width = Widening::default().width(0);
    let children = root.num_children() as usize;
    assert!(children >= width && children < 2176);
    assert_eq!(
        children + tree.lazy().waiting[&tree.root.unwrap()].len(),
        2176
    );
    // The children are the evaluation's best moves, best first.
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let mut priors = Vec::new();
    EvalSimulator.priors(&start, &moves, &mut priors);
    let mut best: Vec<f32> = priors.iter().map(|p| p.wins / p.visits).collect();
    best.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let means: Vec<f32> = root
        .children()
        .map(|c| {
            let n = tree.node(c);
            let i = moves.iter().position(|&m| Some(m) == n.mv).unwrap();
            priors[i].wins / priors[i].visits
        })
        .collect();
    assert_eq!(means, best[..means.len()]);
    assert_eq!(check_tree(tree, &start), 1);
}

#[test]
fn a_search_widens_its_busy_nodes_and_keeps_every_move() {
    let start = Position::new(8).unwrap();
    let mut s = amazons_search(widened(1), &start);
    let info = run(&mut s, playouts(3000));
    let tree = &s.trees[0];
    let root_id = tree.root.unwrap();
    let root = tree.node(root_id);
    // 3,000 visits ask for 8 + 2·3000^0.3 ≈ 31 moves: the root was widened
    // from its first 8 and has at least that many.
    let width = Widening::default().width(root.visits.get());
    assert!(
        root.num_children() as usize >= width,
        "{} < {width}",
        root.num_children()
    );
    let checked = check_tree(tree, &start);
    assert!(checked > 20, "{checked}");
    // Visits still add up through the copied children.
    let below: u64 = root.children().map(|c| tree.node(c).visits.get()).sum();
    assert!(below + 64 >= root.visits.get() && below <= root.visits.get());
    assert!(start.is_legal(info.candidates[0].mv));
    assert!(tree.lazy().bytes > 0 && info.memory_bytes > tree.nodes.bytes());
}

#[test]
fn a_kept_subtree_keeps_its_waiting_moves() {
    let start = Position::new(8).unwrap();
    let mut s = amazons_search(widened(1), &start);
    let info = run(&mut s, playouts(2000));
    let mut next = start.clone();
    next.play_unchecked(info.candidates[0].mv);
    s.set_position(&next);
    let tree = &s.trees[0];
    assert!(
        tree.node(tree.root.unwrap()).is_expanded(),
        "the subtree was not kept"
    );
    assert!(check_tree(tree, &next) > 0);
    let info = run(&mut s, playouts(500));
    assert!(next.is_legal(info.candidates[0].mv));
    check_tree(&s.trees[0], &next);
}

#[test]
fn threads_widen_the_same_tree_safely() {
    let start = Position::new(8).unwrap();
    let mut s = amazons_search(widened(4), &start);
    let info = run(&mut s, playouts(4000));
    assert!(start.is_legal(info.candidates[0].mv));
    let tree = &s.trees[0];
    let checked = check_tree(tree, &start);
    assert!(checked > 20, "{checked}");
    // The root was widened as far as one thread widens it.
    let root = tree.node(tree.root.unwrap());
    assert!(root.num_children() as usize >= Widening::default().width(root.visits.get()) / 2);
    // No virtual loss is left anywhere once the run is over (copies start
    // without any; old nodes drain their own).
    assert!(tree.nodes.iter().all(|n| n.virtual_loss() == 0));
}

#[test]
fn without_widening_every_move_gets_a_node() {
    let pos = super::toy::TicTacToe::new();
    let mut s = search(SearchConfig::default(), &pos);
    run(&mut s, playouts(500));
    let tree = &s.trees[0];
    let lazy = tree.lazy();
    assert!(lazy.waiting.is_empty() && lazy.bytes == 0);
    assert_eq!(tree.node(tree.root.unwrap()).num_children(), 9);
}

/// What another thread may meet while a run is replaced: an expansion
/// under way lands in the copy of its node, and the old run's unexpanded
/// nodes can no longer be claimed by a descent still walking it, while
/// their copies can.
#[test]
fn an_expansion_under_way_lands_in_the_copy_and_the_old_run_is_frozen() {
    let (start, cfg, s) = searched(8, 1);
    let tree = &s.trees[0];
    let root = tree.root.unwrap();
    tree.node(root).visits.add(1000);
    let old = tree.node(root).children();
    assert!(old.clone().all(|c| !tree.node(c).is_expanded()));
    // Another thread has claimed the first child and evaluates its moves.
    let busy = old.start;
    assert!(tree.node(busy).claim_expansion());
    let mut pos = start.clone();
    pos.play_unchecked(tree.node(busy).mv.unwrap());
    let mut scratch = super::uct::Scratch::default();
    super::expand::prepare_children(&pos, &EvalSimulator, &mut scratch);
    super::widen::grow(tree, root, &start, &cfg);
    let new = tree.node(root).children();
    assert!(new.len() > old.len() && new.start != old.start);
    for (o, n) in old.clone().zip(new.clone()) {
        assert_eq!(tree.node(o).mv, tree.node(n).mv);
    }
    assert!(old.clone().all(|c| !tree.node(c).claim_expansion()));
    // The busy child's copy stays its expander's; the others are free.
    assert!(!tree.node(new.start).claim_expansion());
    assert!(tree.node(new.start + 1).claim_expansion());
    tree.node(new.start + 1).release_claim();
    assert!(super::expand::attach_children(
        tree, busy, &pos, &cfg, &scratch
    ));
    assert!(tree.node(new.start).is_expanded() && !tree.node(busy).is_expanded());
    assert!(tree.lazy().moved.is_empty());
    assert_eq!(check_tree(tree, &start), 2);
}

#[test]
fn a_busy_node_below_the_root_lists_its_dropped_moves_again() {
    let (start, cfg, s) = searched(10, 300);
    let tree = &s.trees[0];
    let root = tree.root.unwrap();
    // A root child the search expanded: of its 1,600-odd moves beyond its
    // first children only WAITING_LISTED were listed.
    let child = tree
        .node(root)
        .children()
        .find(|&c| tree.node(c).is_expanded())
        .expect("an expanded root child");
    let mut pos = start.clone();
    pos.play_unchecked(tree.node(child).mv.unwrap());
    assert!(tree.lazy().waiting[&child].has_dropped());
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let mut scratch = super::uct::Scratch::default();
    super::expand::prepare_children(&pos, &EvalSimulator, &mut scratch);
    // As if it had been visited 10^11 times: its width is every move.
    // Each time the listed moves run out, the node's moves are evaluated
    // again and the next best listed.
    let visits = 100_000_000_000;
    assert!(cfg.widening.unwrap().width(visits) > legal.len());
    tree.node(child).visits.add(visits);
    let mut relists = 0;
    while tree.lazy().waiting.contains_key(&child) {
        if super::widen::grow(tree, child, &pos, &cfg) == Grow::NeedsPriors {
            super::widen::relist(tree, child, &cfg, &scratch);
            relists += 1;
        }
        assert!(relists < 20, "no progress");
    }
    assert!(relists >= 5, "{relists}");
    let node = tree.node(child);
    assert_eq!(node.num_children() as usize, legal.len());
    assert!(!node.is_waiting() && !tree.lazy().waiting.contains_key(&child));
    // Every child has its own move's prior, as at an expansion.
    let (moves, priors) = scratch.prepared();
    for c in node.children() {
        let n = tree.node(c);
        let i = moves.iter().position(|&m| Some(m) == n.mv).unwrap();
        assert_eq!(n.prior_wins, priors[i].wins + 0.5 * cfg.prior_even_visits);
    }
    assert!(check_tree(tree, &start) > 1);
}
