//! Judged scoring: the area count after the strings that the playouts'
//! ownership gives away are taken off, as a referee would.

use super::tests::{at, diagram};
use super::*;
use crate::game::{Color, Game, Outcome, OwnershipSums};

/// Black's wall on C, White's on D, and a lone White stone on B4 inside
/// Black's side. Tromp-Taylor counts A-B as dame (the region touches B4).
pub(crate) fn lone_stone() -> Position {
    diagram(
        &[
            ". . X O .", //
            ". O X O .",
            ". . X O .",
            ". . X O .",
            ". . X O .",
        ],
        0.0,
    )
}

/// Ownership sums where every stone keeps its point `playouts` times,
/// except the listed points, owned `playouts` times by `owner`.
fn sums(pos: &Position, playouts: f64, overrides: &[(&str, Color)]) -> Vec<f64> {
    let mut sums = vec![0.0; pos.move_space()];
    for p in pos.points() {
        let sign = match pos.color_at(p) {
            Some(Color::Black) => 1.0,
            Some(Color::White) => -1.0,
            None => 0.0,
        };
        sums[pos.move_index(Move::Play(p))] = sign * playouts;
    }
    for &(vertex, owner) in overrides {
        let sign = if owner == Color::Black { 1.0 } else { -1.0 };
        sums[pos.move_index(Move::Play(at(pos, vertex)))] = sign * playouts;
    }
    sums
}

#[test]
fn a_stone_the_playouts_lose_is_taken_off_before_the_count() {
    let pos = lone_stone();
    // Tromp-Taylor: Black 5 stones; White 6 stones and E; A-B is dame.
    assert_eq!(pos.area_score(), 5.0 - 11.0);
    let owners = sums(&pos, 100.0, &[("B4", Color::Black)]);
    // B4 is dead: Black's 5 stones and the 10 points of A-B; White's 10.
    assert_eq!(pos.area_score_judged(OwnershipSums(&owners)), 5.0);
}

#[test]
fn with_nothing_known_judged_scoring_is_tromp_taylor() {
    let pos = lone_stone();
    assert_eq!(pos.area_score_judged(OwnershipSums(&[])), pos.area_score());
    // Every stone keeping its point is the same as knowing nothing.
    let owners = sums(&pos, 100.0, &[]);
    assert_eq!(
        pos.area_score_judged(OwnershipSums(&owners)),
        pos.area_score()
    );
}

#[test]
fn a_string_lives_or_dies_as_a_whole() {
    let pos = diagram(
        &[
            ". . X O .", //
            ". O X O .",
            ". O X O .",
            ". . X O .",
            ". . X O .",
        ],
        0.0,
    );
    // B4 is lost in most playouts, B3 kept in more: the string B3-B4 as a
    // whole is White's more often than not, so it stays.
    let mut owners = sums(&pos, 100.0, &[]);
    owners[pos.move_index(Move::Play(at(&pos, "B4")))] = 40.0;
    assert_eq!(
        pos.area_score_judged(OwnershipSums(&owners)),
        pos.area_score()
    );
    // Lost in more playouts than kept, summed over both stones: dead.
    owners[pos.move_index(Move::Play(at(&pos, "B3")))] = 50.0;
    assert_eq!(pos.area_score_judged(OwnershipSums(&owners)), 5.0);
}

#[test]
fn judged_outcome_comes_only_after_two_passes() {
    let mut pos = lone_stone();
    let owners = sums(&pos, 100.0, &[("B4", Color::Black)]);
    assert_eq!(pos.judged_outcome(OwnershipSums(&owners)), None);
    pos.play_as(Color::Black, Move::Pass).unwrap();
    pos.play_as(Color::White, Move::Pass).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
    assert_eq!(
        pos.judged_outcome(OwnershipSums(&owners)),
        Some(Outcome::Win(Color::Black))
    );
}
