//! Replays the random games OpenSpiel played
//! (`scripts/oracle/havannah_openspiel.py` writes
//! `tests/data/havannah/openspiel_games.txt`): nobody may win before the
//! last move, and the result after it must be OpenSpiel's.

use crate::game::havannah::{Move, Position, WinKind};
use crate::game::{Color, Game, Outcome};

const GAMES: &str = include_str!("../../../../tests/data/havannah/openspiel_games.txt");

#[test]
fn openspiel_games_replay_with_the_same_result() {
    let mut per_side = [0usize; 11];
    let mut kinds = [0usize; 3];
    let (mut swaps, mut draws) = (0, 0);
    for (line_no, line) in GAMES.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let side: usize = fields[0].parse().unwrap();
        let expected = match fields[1] {
            "white" => Outcome::Win(Color::White),
            "black" => Outcome::Win(Color::Black),
            "draw" => Outcome::Draw,
            other => panic!("line {line_no}: bad result {other}"),
        };
        let count: usize = fields[2].parse().unwrap();
        let moves = &fields[3..];
        assert_eq!(moves.len(), count, "line {line_no}");

        let mut pos = Position::new(side).unwrap();
        for (i, text) in moves.iter().enumerate() {
            assert_eq!(
                pos.winner(),
                None,
                "line {line_no}: game over before move {i}\n{pos:?}"
            );
            let mv = if *text == "swap" {
                swaps += 1;
                Move::Swap
            } else {
                Move::Play(
                    pos.parse_cell(text)
                        .unwrap_or_else(|| panic!("line {line_no}: {text}")),
                )
            };
            pos.play(mv)
                .unwrap_or_else(|e| panic!("line {line_no} move {i}: {e}"));
        }
        assert_eq!(pos.winner(), Some(expected), "line {line_no}\n{pos:?}");
        assert_eq!(pos.move_number(), count);
        match pos.win_kind() {
            Some(WinKind::Ring) => kinds[0] += 1,
            Some(WinKind::Bridge) => kinds[1] += 1,
            Some(WinKind::Fork) => kinds[2] += 1,
            None => draws += 1,
        }
        per_side[side] += 1;
    }
    assert!(per_side[4..=10].iter().all(|&n| n >= 30), "{per_side:?}");
    // The file must exercise every ending and the swap.
    assert!(
        kinds.iter().all(|&n| n > 0),
        "ring/bridge/fork endings: {kinds:?}"
    );
    assert!(draws > 0 && swaps > 0);
}
