//! Search tests on the toy games, with the real CPU simulator.

use super::expand;
use super::toy::{Nim, TicTacToe};
use super::tree::{Node, NodeId, Tree};
use super::uct::{self, LeafResult, Path, Scratch};
use super::*;
use crate::game::{Color, Game};
use crate::sim::cpu::CpuSimulator;
use crate::sim::{AmafCount, Rollout, Simulator};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub(super) fn search<G: Rollout>(config: SearchConfig, pos: &G) -> Search<G> {
    let mut s = Search::new(config, Arc::new(CpuSimulator::<G>::new()));
    s.set_position(pos);
    s
}

pub(super) fn playouts(n: u64) -> Limits {
    Limits {
        playouts: Some(n),
        time: None,
        whole_time: false,
    }
}

pub(super) fn run<G: Game>(s: &mut Search<G>, limits: Limits) -> SearchInfo<G::Move> {
    s.run(&limits, &AtomicBool::new(false), None)
}

fn no_early_stop() -> SearchConfig {
    SearchConfig {
        early_stop: false,
        ..SearchConfig::default()
    }
}

fn all_nodes<M: Copy>(tree: &Tree<M>) -> Vec<&Node<M>> {
    tree.nodes.iter().collect()
}

fn sum_child_visits<M: Copy>(tree: &Tree<M>, id: NodeId) -> u64 {
    tree.node(id)
        .children()
        .map(|c| tree.node(c).visits.get())
        .sum()
}

/// Every expanded node reached from the root, with its id.
fn expanded_nodes<M: Copy>(tree: &Tree<M>) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack: Vec<NodeId> = tree.root.into_iter().collect();
    while let Some(id) = stack.pop() {
        if tree.node(id).is_expanded() {
            out.push(id);
            stack.extend(tree.node(id).children());
        }
    }
    out
}

#[test]
fn tictactoe_takes_the_win() {
    // X: 0 1, O: 3 4; X to move wins at 2 (O threatens 5).
    let pos = TicTacToe::from_moves(&[0, 3, 1, 4]);
    let mut s = search(no_early_stop(), &pos);
    run(&mut s, playouts(3000));
    assert_eq!(s.decide(), Some(Decision::Play(2)));
    assert!(s.info().winrate > 0.9, "{}", s.info().winrate);
}

#[test]
fn tictactoe_blocks_the_threat() {
    // X: 0 1, O: 4; O to move must block at 2.
    let pos = TicTacToe::from_moves(&[0, 4, 1]);
    let mut s = search(no_early_stop(), &pos);
    run(&mut s, playouts(4000));
    assert_eq!(s.decide(), Some(Decision::Play(2)));
}

#[test]
fn tictactoe_first_move_is_not_an_edge() {
    // Edges (1, 3, 5, 7) are the weakest openings.
    let mut s = search(no_early_stop(), &TicTacToe::new());
    run(&mut s, playouts(5000));
    match s.decide() {
        Some(Decision::Play(m)) => assert!([0, 2, 4, 6, 8].contains(&m), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn nim_leaves_a_multiple_of_four() {
    for (heap, take) in [(11, 3), (10, 2), (9, 1), (7, 3)] {
        let mut s = search(no_early_stop(), &Nim::new(heap));
        run(&mut s, playouts(3000));
        assert_eq!(s.decide(), Some(Decision::Play(take)), "heap {heap}");
    }
}

#[test]
fn visits_add_up_single_threaded() {
    for per_leaf in [1, 3] {
        let config = SearchConfig {
            playouts_per_leaf: per_leaf,
            ..no_early_stop()
        };
        let mut s = search(config, &TicTacToe::new());
        let info = run(&mut s, playouts(3000));
        let tree = &s.trees[0];
        let root = tree.root.unwrap();
        assert_eq!(info.playouts, 3000 / per_leaf as u64 * per_leaf as u64);
        assert_eq!(tree.node(root).visits.get(), info.playouts);
        assert_eq!(sum_child_visits(tree, root), info.playouts);
        // Every other expanded node was simulated as a leaf until it had
        // enough visits to expand, then passed every visit on.
        let own = SearchConfig::default()
            .expand_after_visits
            .div_ceil(per_leaf as u64)
            * per_leaf as u64;
        for id in expanded_nodes(tree).into_iter().filter(|&id| id != root) {
            let n = tree.node(id);
            assert_eq!(
                n.visits.get(),
                sum_child_visits(tree, id) + own,
                "node {id}"
            );
        }
    }
}

#[test]
fn by_default_a_leaf_in_flight_counts_its_playouts_up_to_the_cap() {
    let per_leaf = |playouts_per_leaf| {
        SearchConfig {
            playouts_per_leaf,
            ..SearchConfig::default()
        }
        .virtual_loss_per_leaf()
    };
    // The CPU's one playout a leaf counts once; the GPU's 32 count as the
    // cap, not as 32 (see VIRTUAL_LOSS_CAP).
    assert_eq!(per_leaf(1), 1);
    assert_eq!(per_leaf(3), 3);
    assert_eq!(per_leaf(VIRTUAL_LOSS_CAP), VIRTUAL_LOSS_CAP);
    assert_eq!(per_leaf(32), VIRTUAL_LOSS_CAP);
}

#[test]
fn a_set_virtual_loss_is_added_and_removed_per_leaf() {
    // 4 playouts a leaf but 1 virtual loss: in flight, a path carries one
    // per leaf (the debug assertion in `update` checks every removal), and
    // none is left once the batches are back.
    let config = SearchConfig {
        threads: 4,
        leaves_per_batch: 5,
        playouts_per_leaf: 4,
        virtual_loss: Some(1),
        ..no_early_stop()
    };
    assert_eq!(config.virtual_loss_per_leaf(), 1);
    let mut s = search(config, &TicTacToe::new());
    let info = run(&mut s, playouts(4000));
    assert_eq!(info.playouts, 4000);
    let tree = &s.trees[0];
    assert!(all_nodes(tree).iter().all(|n| n.virtual_loss() == 0));
    let root = tree.root.unwrap();
    assert_eq!(tree.node(root).visits.get(), 4000);
}

#[test]
fn multithreaded_batches_remove_all_virtual_loss() {
    let config = SearchConfig {
        threads: 4,
        leaves_per_batch: 3,
        playouts_per_leaf: 2,
        ..no_early_stop()
    };
    let mut s = search(config, &TicTacToe::new());
    let info = run(&mut s, playouts(6000));
    assert_eq!(info.playouts, 6000);
    assert_eq!(info.iterations, 3000);
    let tree = &s.trees[0];
    assert!(all_nodes(tree).iter().all(|n| n.virtual_loss() == 0));
    let root = tree.root.unwrap();
    assert_eq!(tree.node(root).visits.get(), 6000);
    assert_eq!(sum_child_visits(tree, root), 6000);
    for id in expanded_nodes(tree) {
        assert!(tree.node(id).visits.get() >= sum_child_visits(tree, id));
    }
}

#[test]
fn one_thread_with_a_seed_is_deterministic() {
    for batch in [1, 4] {
        let config = SearchConfig {
            seed: 42,
            leaves_per_batch: batch,
            ..SearchConfig::default()
        };
        let pos = TicTacToe::from_moves(&[4]);
        let mut a = search(config.clone(), &pos);
        let mut b = search(config, &pos);
        let mut ia = run(&mut a, playouts(2000));
        let mut ib = run(&mut b, playouts(2000));
        ia.elapsed = Default::default();
        ib.elapsed = Default::default();
        assert_eq!(ia, ib);
        assert!(!ia.candidates.is_empty());
    }
}

#[test]
fn reuse_keeps_the_subtree_one_and_two_moves_down() {
    let start = TicTacToe::new();
    let mut s = search(no_early_stop(), &start);
    run(&mut s, playouts(4000));
    let info = s.info();
    let best = &info.candidates[0];
    let reply = info.candidates[0].pv[1];
    let reply_visits = {
        let tree = &s.trees[0];
        let root = tree.root.unwrap();
        let child = tree
            .node(root)
            .children()
            .find(|&c| tree.node(c).mv == Some(best.mv))
            .unwrap();
        let grandchild = tree
            .node(child)
            .children()
            .find(|&c| tree.node(c).mv == Some(reply))
            .unwrap();
        tree.node(grandchild).visits.get()
    };

    // One move down: the chosen child's visits become the root's.
    let mut s1 = search(no_early_stop(), &start);
    run(&mut s1, playouts(4000));
    let after = TicTacToe::from_moves(&[best.mv]);
    s1.set_position(&after);
    assert_eq!(s1.info().root_visits, best.visits);
    assert_eq!(s1.position(), Some(&after));

    // Two moves down (our move and the reply).
    s.set_position(&TicTacToe::from_moves(&[best.mv, reply]));
    assert_eq!(s.info().root_visits, reply_visits);
    let tree = &s.trees[0];
    let root = tree.root.unwrap();
    assert_eq!(tree.node(root).visits.get(), reply_visits);
    assert!(expanded_nodes(tree)
        .iter()
        .all(|&id| tree.node(id).visits.get() >= sum_child_visits(tree, id)));
    // The kept tree searches on.
    let more = run(&mut s, playouts(500));
    assert_eq!(more.root_visits, reply_visits + 500);
}

#[test]
fn unrelated_position_starts_afresh() {
    let mut s = search(no_early_stop(), &TicTacToe::new());
    run(&mut s, playouts(1000));
    s.set_position(&TicTacToe::from_moves(&[0, 1, 2]));
    assert_eq!(s.info().root_visits, 0);
    assert_eq!(s.info().nodes, 1);
    // Same position: everything kept.
    run(&mut s, playouts(300));
    s.set_position(&TicTacToe::from_moves(&[0, 1, 2]));
    assert_eq!(s.info().root_visits, 300);
}

#[test]
fn memory_cap_holds_and_search_goes_on() {
    let node = std::mem::size_of::<Node<u8>>();
    let cap = 150 * node;
    let config = SearchConfig {
        max_memory_bytes: cap,
        threads: 2,
        ..no_early_stop()
    };
    let mut s = search(config, &TicTacToe::new());
    let info = run(&mut s, playouts(5000));
    assert_eq!(info.playouts, 5000);
    assert!(info.memory_capped);
    assert!(info.nodes * node <= cap, "{} nodes", info.nodes);
    assert!(info.memory_bytes <= cap);
    assert!(s.trees[0].nodes.bytes() <= cap);
    assert!(matches!(s.decide(), Some(Decision::Play(_))));
}

#[test]
fn no_room_even_for_the_root_still_answers() {
    let config = SearchConfig {
        max_memory_bytes: 0,
        ..SearchConfig::default()
    };
    let mut s = search(config, &Nim::new(5));
    let info = run(&mut s, playouts(100));
    assert_eq!(info.nodes, 0);
    assert_eq!(info.memory_bytes, 0);
    assert!(info.memory_capped);
    assert!(matches!(s.decide(), Some(Decision::Play(_))));
}

#[test]
fn stop_flag_ends_an_unlimited_run() {
    let mut s = search(SearchConfig::default(), &TicTacToe::new());
    let stop = AtomicBool::new(false);
    let mut reports = 0;
    let mut on_report = |info: &SearchInfo<u8>| {
        reports += 1;
        if info.playouts >= 200 {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let info = s.run(
        &Limits::default(),
        &stop,
        Some((std::time::Duration::from_millis(1), &mut on_report)),
    );
    assert!(info.playouts >= 200);
    assert!(reports >= 1);
    assert!(all_nodes(&s.trees[0]).iter().all(|n| n.virtual_loss() == 0));
}

#[test]
fn a_set_stop_flag_runs_nothing() {
    let mut s = search(SearchConfig::default(), &Nim::new(6));
    let info = s.run(&Limits::default(), &AtomicBool::new(true), None);
    assert_eq!(info.playouts, 0);
    assert!(matches!(s.decide(), Some(Decision::Play(_))));
}

#[test]
fn early_stop_when_the_best_move_cannot_be_caught() {
    let pos = TicTacToe::from_moves(&[0, 3, 1, 4]);
    let mut s = search(SearchConfig::default(), &pos);
    let info = run(&mut s, playouts(20_000));
    assert!(info.playouts < 20_000, "{}", info.playouts);
    assert_eq!(s.decide(), Some(Decision::Play(2)));
    let c = &info.candidates;
    let rest = 20_000 - info.playouts;
    assert!(c[0].visits > c.get(1).map_or(0, |c| c.visits) + rest);
}

#[test]
fn resigns_a_lost_nim_heap_only_when_allowed() {
    let config = SearchConfig {
        resign_threshold: Some(0.2),
        resign_min_visits: 500,
        ..no_early_stop()
    };
    let mut s = search(config.clone(), &Nim::new(4));
    let info = run(&mut s, playouts(1000));
    assert!(info.winrate < 0.2, "{}", info.winrate);
    assert_eq!(s.decide(), Some(Decision::Resign));

    // Not before enough visits, and never without a threshold.
    let mut early = search(config.clone(), &Nim::new(4));
    run(&mut early, playouts(100));
    assert!(matches!(early.decide(), Some(Decision::Play(_))));
    s.set_resign_threshold(None);
    assert!(matches!(s.decide(), Some(Decision::Play(_))));
}

#[test]
fn no_legal_move_means_no_decision() {
    let over = TicTacToe::from_moves(&[0, 3, 1, 4, 2]);
    let mut s = search(SearchConfig::default(), &over);
    let info = run(&mut s, playouts(50));
    assert_eq!(s.decide(), None);
    assert!(info.candidates.is_empty());
    // The root itself is terminal and scored directly: Black won.
    assert_eq!(info.root_visits, 50);
    assert_eq!(info.winrate, 0.0, "White to move has lost");
}

#[test]
fn info_reports_pv_ownership_and_score() {
    // No win in one here: with one, the solver proves it at its first
    // visit and no leaf is simulated afterwards.
    let pos = TicTacToe::from_moves(&[0, 4]);
    let mut s = search(no_early_stop(), &pos);
    let info = run(&mut s, playouts(2000));
    assert_eq!(info.root_visits, 2000);
    let visits: Vec<u64> = info.candidates.iter().map(|c| c.visits).collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]));
    let prior_sum: f32 = info.candidates.iter().map(|c| c.prior).sum();
    assert!(prior_sum <= 1.0 + 1e-4);
    for c in &info.candidates {
        assert_eq!(c.pv[0], c.mv);
        assert!(c.lcb <= c.winrate && (0.0..=1.0).contains(&c.winrate));
        let mut p = pos.clone();
        for &m in &c.pv {
            p.play(m).expect("pv must be legal");
        }
    }
    // Stones never move in tic-tac-toe: Black's stay +1, White's −1.
    assert_eq!(info.ownership.len(), 9);
    assert_eq!(info.ownership[0], 1.0);
    assert_eq!(info.ownership[4], -1.0);
    assert!(info.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
    // Only simulated leaves carry a score (terminal and proven leaves do
    // not), so just the range is certain here.
    assert!((-1.0..=1.0).contains(&info.score_lead));

    // X in the centre wins most random games: a positive lead for Black.
    let mut s = search(no_early_stop(), &TicTacToe::from_moves(&[4]));
    assert!(run(&mut s, playouts(1000)).score_lead > 0.0);
}

/// A tic-tac-toe tree expanded along Black's 0 and White's 1 (the AMAF
/// tests' setting): the tree and its root, the 0 node and the 1 node.
pub(super) fn tic_tac_toe_line(scratch: &mut Scratch<u8>) -> (Tree<u8>, [NodeId; 3]) {
    let config = SearchConfig::default();
    let sim = CpuSimulator::<TicTacToe>::new();
    let tree: Tree<u8> = Tree::new(1 << 20);
    let root = tree.root.unwrap();
    let empty = TicTacToe::new();
    assert!(expand::expand(&tree, root, &empty, &sim, &config, scratch));
    let a = tree.node(root).first_child();
    assert_eq!(tree.node(a).mv, Some(0));
    let after_a = TicTacToe::from_moves(&[0]);
    assert!(expand::expand(&tree, a, &after_a, &sim, &config, scratch));
    let b = tree.node(a).first_child();
    assert_eq!(tree.node(b).mv, Some(1));
    (tree, [root, a, b])
}

#[test]
fn amaf_credits_first_plays_by_the_player_to_move_only() {
    let root_pos = TicTacToe::new();
    let mut scratch = Scratch::default();
    // Black plays 0 in the tree, White replies 1 in the tree.
    let (tree, [root, a, b]) = tic_tac_toe_line(&mut scratch);
    for id in [root, a, b] {
        tree.node(id).add_virtual_loss(4);
    }
    let path = Path {
        nodes: vec![root, a, b],
        to_move: vec![Color::Black, Color::White, Color::Black],
    };
    // 4 playouts, Black won 3. First plays: Black at 2, White at 3, and a
    // later Black first play at 1 that the tree move of White overrides.
    let mut amaf = vec![[AmafCount::default(); 2]; 9];
    amaf[2][Color::Black.index()] = AmafCount {
        plays: 4,
        black_wins: 3.0,
    };
    amaf[3][Color::White.index()] = AmafCount {
        plays: 2,
        black_wins: 1.0,
    };
    amaf[1][Color::Black.index()] = AmafCount {
        plays: 4,
        black_wins: 3.0,
    };
    let result = LeafResult {
        playouts: 4,
        black_wins: 3.0,
        amaf: &amaf,
    };
    uct::update(&tree, &path, &result, 4, &root_pos, &mut scratch);

    let child = |parent: NodeId, mv: u8| {
        let t = &tree;
        t.node(parent)
            .children()
            .find(|&c| t.node(c).mv == Some(mv))
            .map(|c| t.node(c))
            .unwrap()
    };
    // Wins are for the player who moved into each node.
    assert_eq!(tree.node(root).wins.get(), 1.0); // White's view
    assert_eq!(tree.node(a).wins.get(), 3.0); // Black played 0
    assert_eq!(tree.node(b).wins.get(), 1.0); // White played 1
    assert!([root, a, b]
        .iter()
        .all(|&id| tree.node(id).virtual_loss() == 0));

    // Root (Black to move): 0 via the tree, 2 via the playout; 1 and 3 were
    // White's first.
    assert_eq!(
        (
            child(root, 0).amaf_visits.get(),
            child(root, 0).amaf_wins.get()
        ),
        (4, 3.0)
    );
    assert_eq!(
        (
            child(root, 2).amaf_visits.get(),
            child(root, 2).amaf_wins.get()
        ),
        (4, 3.0)
    );
    assert_eq!(child(root, 1).amaf_visits.get(), 0);
    assert_eq!(child(root, 3).amaf_visits.get(), 0);
    // Node a (White to move): 1 via the tree, 3 via the playout (White won
    // 1 of those 2); 2 was Black's.
    assert_eq!(
        (child(a, 1).amaf_visits.get(), child(a, 1).amaf_wins.get()),
        (4, 1.0)
    );
    assert_eq!(
        (child(a, 3).amaf_visits.get(), child(a, 3).amaf_wins.get()),
        (2, 1.0)
    );
    assert_eq!(child(a, 2).amaf_visits.get(), 0);
}

#[test]
fn search_is_send() {
    fn assert_send<T: Send>() {}
    assert_send::<Search<TicTacToe>>();
    let sim: Arc<dyn Simulator<Nim>> = Arc::new(CpuSimulator::<Nim>::new());
    let mut s = Search::new(SearchConfig::default(), sim);
    // Without a position there is nothing to search.
    assert_eq!(run(&mut s, playouts(10)).playouts, 0);
    assert_eq!(s.decide(), None);
    s.set_position(&Nim::new(3));
    run(&mut s, playouts(200));
    s.clear();
    assert_eq!(s.info().root_visits, 0);
    assert_eq!(s.position(), None);
}

/// Tree throughput with near-free playouts (tic-tac-toe): the cost of the
/// search itself. Not a check; run with
/// `cargo test --release --lib search::tests::throughput -- --ignored --nocapture`.
#[test]
#[ignore]
fn throughput() {
    for (threads, batch) in [(1, 1), (2, 1), (2, 8)] {
        let config = SearchConfig {
            threads,
            leaves_per_batch: batch,
            ..no_early_stop()
        };
        let mut s = search(config, &TicTacToe::new());
        let info = run(&mut s, playouts(500_000));
        let rate = info.playouts as f64 / info.elapsed.as_secs_f64();
        println!(
            "threads {threads} batch {batch}: {} playouts in {:?} = {rate:.0}/s, {} nodes",
            info.playouts, info.elapsed, info.nodes
        );
    }
}

#[test]
fn urgency_is_michis_rave_blend() {
    // The one-division form against β = a / (a + v + v·a / R) written out.
    let cfg = SearchConfig::default();
    let mut rng = crate::sim::FastRng::new(3);
    for _ in 0..1000 {
        let mut node = Node::new(Some(0u8), rng.below(50) as f32, 0.0);
        node.prior_wins = node.prior_visits * rng.next_f32();
        let visits = rng.below(5000) as u64;
        let wins = visits as f64 * rng.next_f32() as f64;
        let virtual_loss = rng.below(3) * 64;
        let amaf_visits = rng.below(20000) as u64;
        let amaf_wins = amaf_visits as f64 * rng.next_f32() as f64;
        node.visits.set(visits);
        node.wins.set(wins);
        node.add_virtual_loss(virtual_loss);
        node.amaf_visits.set(amaf_visits);
        node.amaf_wins.set(amaf_wins);
        let ln_parent = (1.0 + rng.below(100_000) as f64).ln();
        let n = visits as f64 + virtual_loss as f64;
        let v = n + node.prior_visits as f64;
        let a = amaf_visits as f64;
        let want = if v <= 0.0 && a <= 0.0 {
            cfg.first_play_urgency
        } else {
            let own = if v > 0.0 {
                (wins + node.prior_wins as f64) / v
            } else {
                0.0
            };
            let blend = if a > 0.0 {
                let beta = a / (a + v + v * a / cfg.rave_equiv);
                beta * (amaf_wins / a) + (1.0 - beta) * own
            } else {
                own
            };
            blend + cfg.exploration() * (ln_parent / (n + 1.0)).sqrt()
        };
        let got = uct::urgency(&node, ln_parent, &cfg);
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    }
}
