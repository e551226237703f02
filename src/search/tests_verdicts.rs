//! The rules' verdicts (`sim::Verdict`) as proofs in the tree: Havannah's
//! double threats from the check positions of
//! `tests/data/havannah/double-threats.txt`, searched with the real CPU
//! simulator and its tactical priors.

use super::config::RESIGN_MIN_VISITS;
use super::tests::{playouts, run, search};
use super::tests_solver::{no_early_stop, root_proofs};
use super::tree::{PROVEN_LOSS, PROVEN_WIN};
use super::*;
use crate::game::havannah::{Cell, Move, Position};
use crate::game::Game;

/// Each check position (Warpstone to move, its opponent one frame cell
/// from a double threat) after a move of Warpstone's that stops nothing:
/// the first empty cell that is not a saving cell and gives Warpstone no
/// winning cell of its own. Returns (name, position, frame cell).
fn frames_left_open() -> Vec<(String, Position, Cell)> {
    let mut out = Vec::new();
    for (name, mut pos, saving) in crate::sim::havannah_frames::tests::positions() {
        let me = pos.to_move();
        let mut threats = Vec::new();
        pos.double_threats(me.opponent(), &mut threats);
        let frame = threats[0].frame;
        let idle = pos
            .cells()
            .filter(|&c| pos.is_empty(c) && !saving.contains(&c))
            .find(|&c| {
                let mut after = pos.clone();
                after.play_cell_unchecked(c);
                after.winning_cell(me).is_none()
            })
            .unwrap();
        pos.play_cell_unchecked(idle);
        out.push((name, pos, frame));
    }
    out
}

#[test]
fn a_double_threat_left_open_is_proven_won_and_played() {
    let all = frames_left_open();
    assert_eq!(all.len(), 10);
    for (name, pos, frame) in all {
        let mut s = search(no_early_stop(), &pos);
        run(&mut s, playouts(300));
        let proven: Vec<Move> = root_proofs(&s)
            .into_iter()
            .filter(|&(_, p)| p == PROVEN_WIN)
            .map(|(mv, _)| mv)
            .collect();
        assert!(proven.contains(&Move::Play(frame)), "{name}: {proven:?}");
        let tree = &s.trees[0];
        assert_eq!(tree.node(tree.root.unwrap()).proof(), PROVEN_LOSS, "{name}");
        assert!(
            matches!(s.decide(), Some(Decision::Play(Move::Play(c))) if proven.contains(&Move::Play(c))),
            "{name}"
        );
    }
}

#[test]
fn two_winning_cells_against_the_mover_prove_every_move_lost() {
    for (name, mut pos, frame) in frames_left_open() {
        pos.play_cell_unchecked(frame);
        let them = pos.to_move().opponent();
        let blocks: Vec<Move> = pos
            .cells()
            .filter(|&c| pos.is_empty(c) && pos.wins_at(c, them))
            .map(Move::Play)
            .collect();
        assert!(blocks.len() >= 2, "{name}");
        let mut s = search(no_early_stop(), &pos);
        run(&mut s, playouts(RESIGN_MIN_VISITS));
        let children = root_proofs(&s);
        assert!(children.iter().all(|&(_, p)| p == PROVEN_LOSS), "{name}");
        let tree = &s.trees[0];
        assert_eq!(tree.node(tree.root.unwrap()).proof(), PROVEN_WIN, "{name}");
        // Resigning is allowed; playing on, the engine tries a block.
        assert!(
            matches!(s.decide(), Some(Decision::Resign)),
            "{name}: {:?}",
            s.decide()
        );
        let mut s = search(
            SearchConfig {
                resign_threshold: None,
                ..no_early_stop()
            },
            &pos,
        );
        run(&mut s, playouts(50));
        assert!(
            matches!(s.decide(), Some(Decision::Play(mv)) if blocks.contains(&mv)),
            "{name}: {:?} not in {blocks:?}",
            s.decide()
        );
    }
}
