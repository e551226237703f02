//! Killers: the solver's refutations, tried first at the same depth.

use super::killers::Killers;
use super::tests::{playouts, run, search};
use super::toy::Nim;
use super::tree::{Node, Tree, PROVEN_WIN};
use super::uct::select_child;
use super::*;

/// A root with moves 1, 2, 3 (AMAF indices the same); move 2 has the best
/// prior, so the urgencies choose it.
fn three_moves() -> (Tree<u8>, Vec<tree::NodeId>) {
    let tree = Tree::new(1 << 20);
    let root = tree.root.unwrap();
    let children = [(1u8, 0.3), (2, 0.9), (3, 0.3)]
        .map(|(mv, rate)| Node::new(Some(mv), 10.0, 10.0 * rate).with_amaf_index(mv as u32));
    let first = tree.nodes.alloc_run(children.into_iter()).unwrap();
    assert!(tree.node(root).claim_expansion());
    tree.node(root).publish_children(first, 3, false);
    let ids = tree.node(root).children().collect();
    (tree, ids)
}

#[test]
fn a_killer_comes_first_until_it_has_its_visits() {
    let cfg = SearchConfig::default();
    let (tree, ids) = three_moves();
    let root = tree.root.unwrap();
    assert_eq!(select_child(&tree, root, &cfg, None), ids[1]);
    assert_eq!(select_child(&tree, root, &cfg, Some(3)), ids[2]);
    // A killer that is not among the moves changes nothing.
    assert_eq!(select_child(&tree, root, &cfg, Some(7)), ids[1]);

    tree.node(ids[2]).visits.add(cfg.killer_visits);
    assert_eq!(select_child(&tree, root, &cfg, Some(3)), ids[1]);

    let off = SearchConfig {
        killer_visits: 0,
        ..SearchConfig::default()
    };
    let (tree, ids) = three_moves();
    assert_eq!(
        select_child(&tree, tree.root.unwrap(), &off, Some(3)),
        ids[1]
    );
}

#[test]
fn a_proven_win_comes_before_the_killer() {
    let cfg = SearchConfig::default();
    let (tree, ids) = three_moves();
    tree.node(ids[0]).set_proof(PROVEN_WIN);
    assert_eq!(
        select_child(&tree, tree.root.unwrap(), &cfg, Some(3)),
        ids[0]
    );
}

#[test]
fn killers_keep_the_latest_move_below_the_root() {
    let k = Killers::default();
    assert_eq!(k.at(2), None);
    k.note(2, 5);
    k.note(2, 6);
    assert_eq!(k.at(2), Some(6));
    // The root's proven children decide by themselves; depths past the
    // table are not kept.
    k.note(0, 1);
    assert_eq!(k.at(0), None);
    k.note(super::killers::KILLER_DEPTHS, 1);
    assert_eq!(k.at(super::killers::KILLER_DEPTHS), None);
}

#[test]
fn the_solver_notes_a_win_it_found_below_the_root() {
    // Heap 9: take 1 (leaving 8) wins. Each of the opponent's replies
    // (7, 6, 5 left) loses to the move back to 4, which the solver proves
    // by searching its replies: a killer at depth 2.
    let cfg = SearchConfig {
        early_stop: false,
        ..SearchConfig::default()
    };
    let mut s = search(cfg, &Nim::new(9));
    run(&mut s, playouts(20_000));
    assert_eq!(s.decide(), Some(Decision::Play(1)));
    let tree = &s.trees[0];
    let killer = tree.killers.at(2).expect("a killer at depth 2");
    assert!((0..3).contains(&killer), "{killer}");
}
