//! Tree priors (`priors.rs`): the knowledge every board gets, and what
//! only big boards get.

use super::tests::{at, place};
use super::*;
use crate::game::go::Point;
use crate::game::Game;

const B: Color = Color::Black;
const W: Color = Color::White;

fn play(pos: &Position, vertex: &str) -> Move {
    Move::Play(Point(at(pos, vertex) as u16))
}

fn priors_of(pos: &Position, vertices: &[&str]) -> Vec<Prior> {
    let moves: Vec<Move> = vertices.iter().map(|v| play(pos, v)).collect();
    let mut out = Vec::new();
    pos.priors(&moves, &mut out);
    out
}

#[test]
fn priors_reward_captures_and_punish_self_atari() {
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "E6 D5 F5");
    place(&mut pos, W, "E5 H8 J7");
    // White E5 in atari (liberty E4); J8 is self-atari for Black.
    pos.set_to_move(B);
    let capture = Move::Play(Point(at(&pos, "E4") as u16));
    let quiet = Move::Play(Point(at(&pos, "B8") as u16));
    let self_atari = Move::Play(Point(at(&pos, "J8") as u16));
    let moves = [capture, quiet, self_atari, Move::Pass];
    let mut out = vec![Prior::default(); 9];
    pos.priors(&moves, &mut out);
    assert_eq!(out.len(), 4);
    let rate = |p: &Prior| p.wins / p.visits;
    assert!(out.iter().all(|p| p.visits > 0.0 && p.wins <= p.visits));
    assert!(rate(&out[0]) > rate(&out[1]));
    assert!(out[0].visits > out[1].visits);
    assert!(rate(&out[2]) < 0.5);
    assert_eq!(rate(&out[3]), 0.5);
}

#[test]
fn priors_prefer_the_third_line_in_an_empty_corner() {
    let pos = Position::new(19, 7.5).unwrap();
    let moves: Vec<Move> = ["A1", "B2", "C3", "D4"]
        .iter()
        .map(|v| Move::Play(Point(at(&pos, v) as u16)))
        .collect();
    let mut out = Vec::new();
    pos.priors(&moves, &mut out);
    let rate: Vec<f32> = out.iter().map(|p| p.wins / p.visits).collect();
    assert!(rate[0] < 0.5 && rate[1] < 0.5, "{rate:?}");
    assert!(rate[2] > 0.5 && rate[3] > 0.5, "{rate:?}");
    // The progressive bias orders them the same way.
    assert!(out[0].bias < 0.0 && out[1].bias < 0.0, "{out:?}");
    assert!(out[2].bias > 0.0 && out[3].bias > 0.0, "{out:?}");
}

#[test]
fn priors_doubt_a_pass_while_the_board_is_open() {
    let rate = |p: &Prior| p.wins / p.visits;
    let pass_prior = |pos: &Position| {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut out = Vec::new();
        pos.priors(&moves, &mut out);
        assert_eq!(moves.last(), Some(&Move::Pass));
        (
            rate(out.last().unwrap()),
            out[..out.len() - 1].iter().map(rate).fold(1.0, f32::min),
        )
    };
    // An empty board: passing is worse than any move.
    let mut pos = Position::new(19, 7.5).unwrap();
    let (pass, worst_move) = pass_prior(&pos);
    assert!(pass < worst_move, "pass {pass}, worst move {worst_move}");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out = Vec::new();
    pos.priors(&moves, &mut out);
    let (pass_bias, moves_bias) = out.split_last().unwrap();
    assert!(moves_bias.iter().all(|p| p.bias > pass_bias.bias));
    // After the opponent's pass the game may be over: even again.
    pos.play_as(W, Move::Pass).unwrap();
    assert_eq!(pass_prior(&pos).0, 0.5);
    // More than half the board filled (Black rows 1-3, White rows 5-6):
    // even again.
    let mut pos = Position::new(9, 7.5).unwrap();
    for row in [1, 2, 3, 5, 6] {
        let vertices: Vec<String> = "ABCDEFGHJ".chars().map(|c| format!("{c}{row}")).collect();
        place(&mut pos, if row < 4 { B } else { W }, &vertices.join(" "));
    }
    pos.set_to_move(B);
    assert_eq!(pass_prior(&pos).0, 0.5);
}

#[test]
fn small_boards_get_no_bias_and_no_opening_rules() {
    // 9x9: the priors the 9x9 strength figures were measured with. B2 is
    // in an empty area (virtual losses) but gets no big-board penalty,
    // D4 no fourth-line bonus, and nothing gets a progressive bias.
    let mut pos = Position::new(9, 7.5).unwrap();
    place(&mut pos, W, "G7");
    pos.set_to_move(B);
    let out = priors_of(&pos, &["B2", "C3", "D4", "G6", "H8"]);
    assert!(out.iter().all(|p| p.bias == 0.0), "{out:?}");
    assert_eq!(out[0].visits, 20.0);
    assert_eq!((out[2].wins, out[2].visits), (5.0, 10.0));
}

#[test]
fn big_board_openings_punish_lonely_edge_moves_only() {
    // 19x19, a few stones: White on R16 and C4.
    let mut pos = Position::new(19, 7.5).unwrap();
    place(&mut pos, W, "R16 C4");
    place(&mut pos, B, "Q4 D16");
    pos.set_to_move(B);
    // K2: second line, nobody near. S16: second line beside White's R16
    // (an answer). B4: second line, C4 adjacent. O3: third line.
    let out = priors_of(&pos, &["K2", "S16", "B4", "K3", "A10"]);
    let rate = |p: &Prior| p.wins / p.visits;
    assert!(out[0].bias < -0.3, "lonely K2 {:?}", out[0]);
    assert!(rate(&out[0]) < 0.3, "lonely K2 {:?}", out[0]);
    assert!(
        out[1].bias > out[0].bias && out[2].bias > out[0].bias,
        "{out:?}"
    );
    assert!(out[3].bias > 0.0, "third line K3 {:?}", out[3]);
    assert!(out[4].bias < -0.3, "first line A10 {:?}", out[4]);
}

#[test]
fn big_board_captures_lead_the_bias() {
    let mut pos = Position::new(13, 7.5).unwrap();
    place(&mut pos, B, "G8 F7 H7");
    place(&mut pos, W, "G7");
    pos.set_to_move(B);
    // White G7 in atari: G6 takes it.
    let out = priors_of(&pos, &["G6", "K10"]);
    assert!(out[0].bias > out[1].bias, "{out:?}");
}

#[test]
fn after_the_opening_the_edge_penalty_is_the_small_boards_one() {
    // 13x13 with 22 stones (more than 169 / 8): a lonely second-line move
    // keeps only the empty-area penalty.
    let mut pos = Position::new(13, 7.5).unwrap();
    let rows = [
        "A13 B13 C13 D13 E13 F13 G13 H13 J13 K13 L13",
        "A12 B12 C12 D12 E12 F12 G12 H12 J12 K12 L12",
    ];
    place(&mut pos, B, rows[0]);
    place(&mut pos, W, rows[1]);
    pos.set_to_move(B);
    let out = priors_of(&pos, &["G2"]);
    assert_eq!(out[0].visits, 20.0, "{out:?}");
}
