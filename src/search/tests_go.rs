//! The search on real Go positions, where the rules' own scoring matters.

use super::tests::{playouts, run, search};
use super::*;
use crate::game::go::tests_judged::lone_stone;
use crate::game::go::{Move, Position};
use crate::game::{Color, Game};

/// 5x5, komi 0, White has just passed and Black is to move. Black's wall
/// on C, White's on D, and a lone White stone on B4 inside Black's side:
/// Tromp-Taylor, with every stone alive, makes A-B dame and White wins by
/// 6; a referee takes B4 off and Black wins by 5.
fn dead_stone_left_in() -> Position {
    let mut pos = lone_stone();
    pos.play_as(Color::White, Move::Pass).unwrap();
    pos
}

#[test]
fn two_passes_are_scored_with_the_stones_the_playouts_lose_taken_off() {
    let pos = dead_stone_left_in();
    assert_eq!(pos.to_move(), Color::Black);
    let mut s = search(SearchConfig::default(), &pos);
    let info = run(&mut s, playouts(5000));
    // The playouts capture B4 (Black owns its point in most of them)...
    let b4 = pos.move_index(Move::Play(pos.point(1, 3).unwrap()));
    assert!(
        info.ownership[b4] > 0.0,
        "B4 ownership {}",
        info.ownership[b4]
    );
    // ...so Black's pass, which ends the game, wins: only the first visits,
    // before any playout came back, saw Tromp-Taylor's White win.
    let pass = info.candidates.iter().find(|c| c.mv == Move::Pass);
    let pass = pass.expect("pass was searched");
    assert!(pass.winrate > 0.9, "pass: {pass:?}");
}

#[test]
fn without_judging_two_passes_are_tromp_taylor() {
    // KGS's cleanup phase counts the board as it stands: B4 stays, A-B is
    // dame, and Black's pass loses.
    let pos = dead_stone_left_in();
    let config = SearchConfig {
        judge_two_passes: false,
        ..SearchConfig::default()
    };
    let mut s = search(config, &pos);
    let info = run(&mut s, playouts(5000));
    let pass = info.candidates.iter().find(|c| c.mv == Move::Pass);
    assert!(pass.is_none_or(|c| c.winrate == 0.0), "pass: {pass:?}");
}
