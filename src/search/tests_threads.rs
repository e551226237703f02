//! Many threads on one tree: the lock-free arena and expansion leave a
//! tree that one thread could have grown (every node expanded at most once,
//! every children run whole, every virtual loss taken back), and the
//! workers' shares of the root totals all arrive.

use super::arena::Arena;
use super::tests::{playouts, run, search};
use super::totals::RootTotals;
use super::toy::{Nim, TicTacToe};
use super::tree::{NodeId, Tree};
use super::*;
use crate::game::havannah::Position;
use crate::game::Game;
use crate::sim::cpu::CpuSimulator;
use crate::sim::LeafStats;
use std::collections::HashSet;
use std::sync::Arc;

#[test]
fn arena_runs_appended_by_many_threads_stay_whole_and_apart() {
    const THREADS: u32 = 8;
    const RUNS: u32 = 300;
    let arena: Arena<(u32, u32, u32)> = Arena::with_cap(1 << 22);
    let runs: Vec<Vec<(NodeId, u32)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let arena = &arena;
                s.spawn(move || {
                    (0..RUNS)
                        .map(|r| {
                            let len = 1 + (t * 7 + r * 13) % 40;
                            let items = (0..len).map(move |i| (t, r, i));
                            (arena.alloc_run(items).expect("room"), len)
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut seen = HashSet::new();
    let mut total = 0;
    for (t, thread_runs) in runs.iter().enumerate() {
        for (r, &(first, len)) in thread_runs.iter().enumerate() {
            for i in 0..len {
                assert_eq!(*arena.get(first + i), (t as u32, r as u32, i));
                assert!(seen.insert(first + i), "id {} handed out twice", first + i);
            }
            let run = arena.run(first, len);
            assert_eq!(run.len(), len as usize);
            for (i, item) in run.iter().enumerate() {
                assert_eq!(*item, (t as u32, r as u32, i as u32));
            }
            total += len as usize;
        }
    }
    assert_eq!(arena.len(), total);
    assert_eq!(arena.iter().count(), total);
}

#[test]
fn a_full_arena_refuses_runs_from_every_thread_and_keeps_its_cap() {
    let cap = 1000 * std::mem::size_of::<u64>();
    let arena: Arena<u64> = Arena::with_cap(cap);
    let stored: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let arena = &arena;
                s.spawn(move || {
                    (0..200)
                        .filter_map(|_| arena.alloc_run((0..9u32).map(|x| u64::from(x * x))))
                        .count()
                        * 9
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(arena.len(), stored);
    assert!(stored <= 1000 && stored > 0);
    assert!(arena.bytes() <= cap);
}

/// Every node reached from the root with its position; checks that each
/// expanded node's children are exactly its position's moves, and returns
/// how many nodes the walk reached.
fn check_children<G: Game>(tree: &Tree<G::Move>, root_pos: &G) -> usize {
    let mut reached = 0;
    let mut stack = vec![(tree.root.unwrap(), root_pos.clone())];
    let mut moves = Vec::new();
    while let Some((id, pos)) = stack.pop() {
        reached += 1;
        let node = tree.node(id);
        assert_eq!(node.virtual_loss(), 0, "virtual loss left at {id}");
        if !node.is_expanded() {
            continue;
        }
        pos.legal_moves(&mut moves);
        let children: Vec<_> = node.children().map(|c| tree.node(c).mv.unwrap()).collect();
        assert_eq!(children, moves, "children of {id}");
        let child_visits: u64 = node.children().map(|c| tree.node(c).visits.get()).sum();
        assert!(node.visits.get() >= child_visits);
        for c in node.children() {
            let mut next = pos.clone();
            next.play_unchecked(tree.node(c).mv.unwrap());
            stack.push((c, next));
        }
    }
    reached
}

/// Sixteen threads on one tree: each node expanded once (no orphaned
/// children run: the arena holds exactly the nodes the root reaches), its
/// children its moves, every visit counted, the workers' totals merged.
fn sixteen_threads_on<G: crate::sim::Rollout>(pos: &G, n: u64) {
    let config = SearchConfig {
        threads: 16,
        early_stop: false,
        ..SearchConfig::default()
    };
    let mut s = search(config, pos);
    let info = run(&mut s, playouts(n));
    assert_eq!(info.playouts, n);
    let tree = &s.trees[0];
    let root = tree.root.unwrap();
    assert_eq!(tree.node(root).visits.get(), n);
    assert_eq!(check_children(tree, pos), tree.nodes.len());
    let totals = tree.totals();
    let per_child: u64 = totals.children.iter().map(|c| c.0).sum();
    assert_eq!(per_child, totals.playouts);
    assert!(totals.playouts <= n);
}

#[test]
fn sixteen_threads_grow_one_consistent_tree() {
    sixteen_threads_on(&TicTacToe::new(), 20_000);
    sixteen_threads_on(&Nim::new(21), 20_000);
    // Havannah: ~37 moves a node on side 4, leaves that are all simulated
    // until a ring, fork or bridge ends a line of the tree.
    sixteen_threads_on(&Position::new(4).unwrap(), 3_000);
}

#[test]
fn the_havannah_search_with_many_threads_counts_every_playout_in_the_totals() {
    // No terminal leaf this early: every leaf is simulated, so every
    // playout reaches the root totals once its worker flushes.
    let pos = Position::new(8).unwrap();
    let config = SearchConfig {
        threads: 8,
        early_stop: false,
        ..SearchConfig::default()
    };
    let mut s = Search::new(config, Arc::new(CpuSimulator::<Position>::engine()));
    s.set_position(&pos);
    let info = run(&mut s, playouts(400));
    assert_eq!(info.playouts, 400);
    let tree = &s.trees[0];
    assert_eq!(tree.totals().playouts, 400);
    assert_eq!(tree.totals().ownership.len(), pos.cell_space());
}

#[test]
fn merging_root_totals_adds_them_and_empties_the_share() {
    let leaf = |score: f64, own: Vec<f32>| LeafStats {
        playouts: 2,
        score_sum: score,
        ownership: own,
        ..LeafStats::default()
    };
    let mut share = RootTotals::default();
    share.add(&leaf(3.0, vec![1.0, -1.0, 0.5]));
    share.add_child(2, &leaf(3.0, vec![]));
    let mut tree = RootTotals::default();
    tree.add(&leaf(1.0, vec![2.0]));
    tree.add_child(0, &leaf(1.0, vec![]));
    tree.merge(&mut share);
    assert_eq!(tree.playouts, 4);
    assert_eq!(tree.score_sum, 4.0);
    assert_eq!(tree.ownership, vec![3.0, -1.0, 0.5]);
    assert_eq!(tree.children, vec![(2, 1.0), (0, 0.0), (2, 3.0)]);
    assert_eq!(share.playouts, 0);
    assert_eq!(share.score_sum, 0.0);
    assert!(share.ownership.iter().all(|&o| o == 0.0));
    assert!(share.children.iter().all(|&c| c == (0, 0.0)));
    // An empty share changes nothing.
    tree.merge(&mut share);
    assert_eq!(tree.playouts, 4);
}
