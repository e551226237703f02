//! A worker's kept AMAF samples (`super::amaf_share`): what they add to
//! the tree is exactly what the direct writes add, only later; and the
//! layout the shared top of a tree relies on.

use super::amaf_share::AmafShare;
use super::config::{SearchConfig, SHARED_AMAF_MAX_LEAVES};
use super::expand;
use super::toy::TicTacToe;
use super::tree::{Node, NodeId, Tree};
use super::uct::{self, LeafResult, Path, Scratch};
use crate::game::Color;
use crate::sim::cpu::CpuSimulator;
use crate::sim::AmafCount;

/// A tic-tac-toe tree expanded along 0, 1, 2 from the start: root, `a`
/// (after 0), `b` (after 0 1), `c` (after 0 1 2), so a path reaches depth
/// 3, past the kept top; the root and `a` start with `visits` visits.
fn line_tree(visits: u64) -> (Tree<u8>, Path) {
    let config = SearchConfig::default();
    let sim = CpuSimulator::<TicTacToe>::new();
    let tree: Tree<u8> = Tree::new(1 << 20);
    let mut scratch = Scratch::default();
    let mut id = tree.root.unwrap();
    let mut nodes = vec![id];
    let mut to_move = vec![Color::Black];
    let mut played = Vec::new();
    for mv in 0..3u8 {
        let pos = TicTacToe::from_moves(&played);
        assert!(expand::expand(&tree, id, &pos, &sim, &config, &mut scratch));
        id = tree
            .node(id)
            .children()
            .find(|&c| tree.node(c).mv == Some(mv))
            .unwrap();
        played.push(mv);
        nodes.push(id);
        to_move.push(to_move.last().unwrap().opponent());
    }
    let c_pos = TicTacToe::from_moves(&played);
    assert!(expand::expand(
        &tree,
        id,
        &c_pos,
        &sim,
        &config,
        &mut scratch
    ));
    for &id in &nodes[..2] {
        tree.node(id).visits.add(visits);
    }
    (tree, Path { nodes, to_move })
}

/// Leaf `k`'s result: 2 playouts, first plays on the empty cells that
/// change with `k`, for both players.
fn amaf_of(k: usize) -> Vec<[AmafCount; 2]> {
    let mut amaf = vec![[AmafCount::default(); 2]; 9];
    for (cell, counts) in amaf.iter_mut().enumerate().skip(3) {
        let who = (cell + k) % 3;
        if who < 2 {
            counts[who] = AmafCount {
                plays: 2,
                black_wins: (k % 3) as f32 * 0.5,
            };
        }
    }
    amaf
}

fn back_up(tree: &Tree<u8>, path: &Path, k: usize, share: Option<&mut AmafShare>) {
    let amaf = amaf_of(k);
    let result = LeafResult {
        playouts: 2,
        black_wins: (k % 3) as f64 * 0.5,
        amaf: &amaf,
    };
    for &id in &path.nodes {
        tree.node(id).add_virtual_loss(1);
    }
    let mut scratch = Scratch::default();
    let root_pos = TicTacToe::new();
    uct::update_sharing(tree, path, &result, 1, &root_pos, &mut scratch, share);
}

/// Every child's AMAF counts of the path's nodes, root first.
fn amaf_counts(tree: &Tree<u8>, path: &Path) -> Vec<Vec<(u64, f64)>> {
    let counts = |id: NodeId| {
        let (_, children) = tree.children_of(tree.node(id));
        children
            .iter()
            .map(|c: &Node<u8>| (c.amaf_visits.get(), c.amaf_wins.get()))
            .collect()
    };
    path.nodes.iter().map(|&id| counts(id)).collect()
}

#[test]
fn kept_amaf_samples_add_up_to_the_direct_writes() {
    let (direct, path) = line_tree(1_000_000);
    let (kept, _) = line_tree(1_000_000);
    let mut share = AmafShare::default();
    for k in 0..5 {
        back_up(&direct, &path, k, None);
        back_up(&kept, &path, k, Some(&mut share));
        share.leaf_done(&kept);
    }
    let (want, got) = (amaf_counts(&direct, &path), amaf_counts(&kept, &path));
    // The root and `a` (depth 0 and 1) are kept back: nothing there yet.
    assert!(want[0].iter().chain(&want[1]).any(|&(n, _)| n > 0));
    assert!(got[0].iter().chain(&got[1]).all(|&(n, _)| n == 0));
    // Deeper nodes are written directly, as before.
    assert_eq!(got[2..], want[2..]);
    // The visits and virtual losses are never kept back.
    for &id in &path.nodes {
        assert_eq!(direct.node(id).visits.get(), kept.node(id).visits.get());
        assert_eq!(kept.node(id).virtual_loss(), 0);
    }
    share.add_all(&kept);
    assert_eq!(amaf_counts(&kept, &path), want);
    // Added once: a second call changes nothing.
    share.add_all(&kept);
    assert_eq!(amaf_counts(&kept, &path), want);
}

#[test]
fn a_node_gets_its_kept_samples_once_they_are_a_share_of_its_visits() {
    // A fresh root: one leaf is already more than a 64th of its visits,
    // so every leaf's samples arrive at once, as with one worker.
    let (direct, path) = line_tree(0);
    let (kept, _) = line_tree(0);
    let mut share = AmafShare::default();
    for k in 0..3 {
        back_up(&direct, &path, k, None);
        back_up(&kept, &path, k, Some(&mut share));
        share.leaf_done(&kept);
        assert_eq!(amaf_counts(&kept, &path), amaf_counts(&direct, &path));
    }
}

#[test]
fn every_kept_sample_arrives_after_the_most_leaves_kept() {
    let (direct, path) = line_tree(1 << 40);
    let (kept, _) = line_tree(1 << 40);
    let mut share = AmafShare::default();
    let leaves = SHARED_AMAF_MAX_LEAVES as usize;
    for k in 0..leaves {
        back_up(&direct, &path, k, None);
        back_up(&kept, &path, k, Some(&mut share));
        share.leaf_done(&kept);
        let arrived = amaf_counts(&kept, &path)[0].iter().any(|&(n, _)| n > 0);
        assert_eq!(arrived, k + 1 == leaves, "after leaf {k}");
    }
    assert_eq!(amaf_counts(&kept, &path), amaf_counts(&direct, &path));
}

#[test]
fn a_node_is_one_aligned_cache_line_for_every_game() {
    use std::mem::{align_of, size_of};
    fn line<M>() {
        assert_eq!(size_of::<Node<M>>(), 64);
        assert_eq!(align_of::<Node<M>>(), 64);
    }
    line::<crate::game::go::Move>();
    line::<crate::game::havannah::Move>();
    line::<crate::game::amazons::Move>();
    line::<crate::game::hex::Move>();
    line::<crate::game::connect4::Move>();
}
