//! MCTS-solver tests: proofs from terminal positions, settled up the tree,
//! deciding the move.

use super::tests::{playouts, run, search};
use super::toy::{Nim, TicTacToe};
use super::tree::{PROVEN_LOSS, PROVEN_WIN};
use super::*;
use crate::game::Game;

pub(super) fn root_proofs<G: Game>(s: &Search<G>) -> Vec<(G::Move, i8)> {
    let tree = &s.trees[0];
    let root = tree.root.unwrap();
    tree.node(root)
        .children()
        .map(|c| (tree.node(c).mv.unwrap(), tree.node(c).proof()))
        .collect()
}

pub(super) fn no_early_stop() -> SearchConfig {
    SearchConfig {
        early_stop: false,
        ..SearchConfig::default()
    }
}

#[test]
fn nim_root_moves_are_proven_and_the_win_is_played() {
    // Heap 5: taking 1 leaves a multiple of four (a win); taking 2 or 3
    // lets the opponent take the rest. Once the win is proven the other
    // moves are not searched further, so they may stay unproven.
    let mut s = search(no_early_stop(), &Nim::new(5));
    run(&mut s, playouts(3000));
    let proofs = root_proofs(&s);
    assert_eq!(proofs[0], (1, PROVEN_WIN));
    assert!(
        proofs[1..].iter().all(|&(_, p)| p != PROVEN_WIN),
        "{proofs:?}"
    );
    let tree = &s.trees[0];
    assert_eq!(tree.node(tree.root.unwrap()).proof(), PROVEN_LOSS);
    assert_eq!(s.decide(), Some(Decision::Play(1)));
}

#[test]
fn a_lost_root_is_proven_and_still_answers_a_move() {
    let mut s = search(no_early_stop(), &Nim::new(8));
    run(&mut s, playouts(20_000));
    assert!(root_proofs(&s).iter().all(|&(_, p)| p == PROVEN_LOSS));
    let tree = &s.trees[0];
    assert_eq!(tree.node(tree.root.unwrap()).proof(), PROVEN_WIN);
    // Every move loses: the engine may resign, but it always answers.
    assert!(matches!(
        s.decide(),
        Some(Decision::Play(1..=3) | Decision::Resign)
    ));
}

#[test]
fn a_win_in_one_is_proven_and_played_even_when_a_block_looks_busier() {
    // X (Black) has 0 and 1 and O to block at 2 is not needed: X to move
    // wins at 2 at once. Cells: 0 1 2 / 3 4 5 / 6 7 8.
    let pos = TicTacToe::from_moves(&[0, 3, 1, 4]);
    let mut s = search(no_early_stop(), &pos);
    run(&mut s, playouts(500));
    assert!(root_proofs(&s).contains(&(2, PROVEN_WIN)));
    assert_eq!(s.decide(), Some(Decision::Play(2)));
}

#[test]
fn games_without_proven_outcomes_prove_nothing() {
    // Go's default `proven_outcome` is none: no node ever gets a proof.
    use crate::game::go;
    let pos = go::Position::new(5, 0.5).unwrap();
    let mut s = search(no_early_stop(), &pos);
    run(&mut s, playouts(2000));
    assert!(s.trees[0].nodes.iter().all(|n| n.proof() == 0));
}

#[test]
fn hex_and_connect_four_prove_a_win_in_one() {
    use crate::game::{connect4, hex};
    // Hex 3x3: Black holds b1 and b2; b3 joins top and bottom.
    let mut pos = hex::Position::new(3).unwrap();
    for name in ["b1", "a1", "b2", "a2"] {
        let cell = pos.parse_cell(name).unwrap();
        pos.play(hex::Move::Play(cell)).unwrap();
    }
    let win = hex::Move::Play(pos.parse_cell("b3").unwrap());
    let mut s = search(no_early_stop(), &pos);
    run(&mut s, playouts(500));
    assert!(root_proofs(&s).contains(&(win, PROVEN_WIN)));
    assert_eq!(s.decide(), Some(Decision::Play(win)));

    // Connect Four 7x6: the first player has three in column 1 (index 0).
    let mut pos = connect4::Position::new(7, 6).unwrap();
    for col in [0, 1, 0, 1, 0, 1] {
        pos.play(col).unwrap();
    }
    let mut s = search(no_early_stop(), &pos);
    run(&mut s, playouts(500));
    assert!(root_proofs(&s).contains(&(0, PROVEN_WIN)));
    assert_eq!(s.decide(), Some(Decision::Play(0)));
}

/// 6x6 Amazons with files c and `extra` walled by arrows: White's queen
/// on a1 has 11 squares, Black's on f6 has 17 (or 11 with `extra` d).
fn amazons_race(extra: &str, to_move: crate::game::Color) -> crate::game::amazons::Position {
    use crate::game::amazons::{bitboard, Position};
    let mut arrows = 0;
    for f in std::iter::once(b'c').chain(extra.bytes()) {
        for r in 0..6 {
            arrows |= bitboard::bit(bitboard::bit_index((f - b'a') as usize, r));
        }
    }
    let (a1, f6) = (bitboard::bit_index(0, 0), bitboard::bit_index(5, 5));
    Position::from_sets(6, bitboard::bit(a1), bitboard::bit(f6), arrows, to_move).unwrap()
}

#[test]
fn a_split_amazons_ending_is_proven_from_its_count() {
    use crate::game::Color;
    use crate::sim::amazons_rollout::EvalSimulator;
    let run_on = |pos: &crate::game::amazons::Position| {
        let mut s = Search::new(no_early_stop(), std::sync::Arc::new(EvalSimulator));
        s.set_position(pos);
        let info = run(&mut s, playouts(300));
        (root_proofs(&s), info)
    };
    // Black, with more room, wins whatever it plays: its moves are proven
    // wins as soon as they are visited, before any evaluation.
    let (proofs, info) = run_on(&amazons_race("", Color::Black));
    assert!(proofs.iter().any(|&(_, p)| p == PROVEN_WIN), "{proofs:?}");
    assert!(proofs.iter().all(|&(_, p)| p != PROVEN_LOSS));
    assert_eq!(info.candidates[0].winrate, 1.0);
    // With equal room White, to move, runs out first: every move loses.
    let (proofs, _) = run_on(&amazons_race("d", Color::White));
    assert!(proofs.iter().all(|&(_, p)| p == PROVEN_LOSS), "{proofs:?}");
}

#[test]
fn children_all_lost_prove_nothing_while_moves_wait_for_nodes() {
    // Progressive widening gives a node its best moves first; the others
    // wait without nodes. Every child so far proven lost does not make the
    // node won for the player who moved into it: a waiting move may save it.
    for waiting in [true, false] {
        let tree: super::tree::Tree<u8> = super::tree::Tree::new(1 << 20);
        let root = tree.root.unwrap();
        let children = [1u8, 2].map(|mv| super::tree::Node::new(Some(mv), 0.0, 0.0));
        let first = tree.nodes.alloc_run(children.into_iter()).unwrap();
        assert!(tree.node(root).claim_expansion());
        tree.node(root).publish_children(first, 2, waiting);
        for c in tree.node(root).children() {
            tree.node(c).set_proof(PROVEN_LOSS);
        }
        let proven = super::uct::settle_proof(&tree, root);
        assert_eq!(proven, !waiting);
        let proof = if waiting { 0 } else { PROVEN_WIN };
        assert_eq!(tree.node(root).proof(), proof);
    }
}
