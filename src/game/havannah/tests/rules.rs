//! Coordinates, swap, illegal moves, draws, the game interface and the
//! board text.

use super::cell;
use crate::game::havannah::{reference, BoardSizeError, Cell, Move, Position};
use crate::game::rng::FastRng;
use crate::game::{Color, Game, IllegalReason, Outcome};

#[test]
fn board_sizes() {
    assert_eq!(Position::new(2).err(), Some(BoardSizeError::OutOfRange(2)));
    assert_eq!(
        Position::new(11).err(),
        Some(BoardSizeError::OutOfRange(11))
    );
    assert_eq!(Position::new(8).unwrap().num_cells(), 169);
    assert_eq!(Position::new(10).unwrap().num_cells(), 271);
    assert_eq!(Position::new(3).unwrap().side(), 3);
}

#[test]
fn side_8_landmarks() {
    let pos = Position::new(8).unwrap();
    let corners = ["a1", "a8", "h15", "o15", "o8", "h1"];
    for name in corners {
        let c = cell(&pos, name);
        assert_eq!(pos.cell_name(c), name);
        assert_eq!(pos.neighbours(c).count(), 3, "{name} is a corner");
    }
    let centre = cell(&pos, "h8");
    assert_eq!(centre, Cell(84));
    assert_eq!(pos.cell_coords(centre), (7, 8));
    assert_eq!(pos.cell(0, 1), Some(Cell(0)));
    assert_eq!(pos.cell(14, 15), Some(Cell(168)));
    assert_eq!(pos.cell_coords(cell(&pos, "o8")), (14, 8));
    assert_eq!(pos.cell_coords(cell(&pos, "h15")), (7, 15));
    // Exactly six cells have three neighbours.
    assert_eq!(
        pos.cells()
            .filter(|&c| pos.neighbours(c).count() == 3)
            .count(),
        6
    );
}

#[test]
fn coordinates_round_trip_on_every_side() {
    for side in 3..=10 {
        let pos = Position::new(side).unwrap();
        for c in pos.cells() {
            let (row, diag) = pos.cell_coords(c);
            assert_eq!(pos.cell(row, diag), Some(c));
            let name = pos.cell_name(c);
            assert_eq!(pos.parse_cell(&name), Some(c));
            assert_eq!(pos.parse_cell(&name.to_uppercase()), Some(c));
        }
        // Castro's row ranges.
        for row in 0..2 * side - 1 {
            let first = 1.max((row + 2).saturating_sub(side));
            let last = (side + row).min(2 * side - 1);
            assert!(pos.cell(row, first).is_some() && pos.cell(row, last).is_some());
            assert!(pos.cell(row, first - 1).is_none() && pos.cell(row, last + 1).is_none());
        }
    }
}

#[test]
fn bad_cell_text_is_rejected() {
    let pos = Position::new(8).unwrap();
    for text in [
        "", "a", "a9", "o7", "p1", "h0", "h16", "8h", "hh", "h-1", "h 8", "é1", "h123",
    ] {
        assert_eq!(pos.parse_cell(text), None, "{text:?}");
    }
    assert_eq!(pos.parse_cell(" h8 "), Some(Cell(84)));
    assert_eq!(pos.cell_name(Cell(169)), "?");
    assert_eq!(pos.color_at(Cell(500)), None);
}

#[test]
fn swap_recolours_the_first_stone_and_white_moves_again() {
    let mut pos = Position::new(8).unwrap();
    let mut moves = Vec::new();
    assert!(pos.swap_allowed());
    assert!(!pos.is_legal(Move::Swap));
    let h8 = cell(&pos, "h8");
    pos.play(Move::Play(h8)).unwrap();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 169);
    assert_eq!(moves.last(), Some(&Move::Swap));
    let before = pos.hash();
    pos.play(Move::Swap).unwrap();
    assert_eq!(pos.color_at(h8), Some(Color::Black));
    assert_eq!(pos.to_move(), Color::White);
    assert_eq!(pos.move_number(), 2);
    assert_eq!(pos.stone_count(), 1);
    assert_ne!(pos.hash(), before);
    assert_eq!(
        pos.play(Move::Swap).unwrap_err().reason,
        IllegalReason::NotAllowed
    );
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 168);
    assert!(!moves.contains(&Move::Swap));
    // The swapped stone is Black's for good: Black closes a ring through it.
    let mut pos = Position::new(8).unwrap();
    let game = [
        "h8", "swap", "a1", "i10", "a3", "j10", "a5", "j9", "a7", "i8", "c3", "h9",
    ];
    for name in game {
        let mv = if name == "swap" {
            Move::Swap
        } else {
            Move::Play(cell(&pos, name))
        };
        assert_eq!(pos.winner(), None);
        pos.play(mv).unwrap();
    }
    assert_eq!(pos.winner(), Some(Outcome::Win(Color::Black)));
    assert_eq!(pos.win_kind(), Some(crate::game::havannah::WinKind::Ring));
}

#[test]
fn swap_can_be_switched_off() {
    let mut pos = Position::new(5).unwrap();
    pos.set_swap_allowed(false);
    pos.play(Move::Play(Cell(0))).unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), pos.num_cells() - 1);
    assert_eq!(
        pos.play(Move::Swap).unwrap_err().reason,
        IllegalReason::NotAllowed
    );
}

#[test]
fn illegal_moves_change_nothing() {
    let mut pos = Position::new(4).unwrap();
    pos.play(Move::Play(Cell(5))).unwrap();
    let hash = pos.hash();
    let err = pos.play(Move::Play(Cell(5))).unwrap_err();
    assert_eq!(
        (err.mv, err.reason),
        (Move::Play(Cell(5)), IllegalReason::Occupied)
    );
    let err = pos.play(Move::Play(Cell(37))).unwrap_err();
    assert_eq!(err.reason, IllegalReason::OffBoard);
    assert_eq!(pos.hash(), hash);
    assert_eq!(pos.move_number(), 1);
    assert_eq!(pos.to_move(), Color::Black);
    // Black: a2, a3, a4 (a corner); White: b2, c1, c2, c3.
    for name in ["a2", "c1", "a3", "c2", "a4", "c3"] {
        pos.play(Move::Play(cell(&pos, name))).unwrap();
    }
    assert_eq!(pos.winner(), None);
    // Black a1 bridges a1-a4; after a win every move is refused and none
    // is offered.
    pos.play(Move::Play(cell(&pos, "a1"))).unwrap();
    assert_eq!(pos.winner(), Some(Outcome::Win(Color::Black)));
    let err = pos.play(Move::Play(cell(&pos, "g7"))).unwrap_err();
    assert_eq!(err.reason, IllegalReason::GameOver);
    let mut moves = vec![Move::Swap];
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn game_interface_indices_and_hash() {
    let mut pos = Position::new(6).unwrap();
    assert_eq!(pos.move_space(), 92);
    assert_eq!(pos.move_index(Move::Swap), 91);
    assert_eq!(pos.move_index(Move::Play(Cell(17))), 17);
    assert_eq!(pos.to_move(), Color::White);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 91);
    // Transpositions hash alike; the side to move is part of the hash.
    let mut other = pos.clone();
    for c in [3, 40, 77] {
        pos.play(Move::Play(Cell(c))).unwrap();
    }
    for c in [77, 40, 3] {
        other.play(Move::Play(Cell(c))).unwrap();
    }
    assert_eq!(pos.hash(), other.hash());
    let empty = Position::new(6).unwrap();
    assert_ne!(empty.hash(), pos.hash());
}

#[test]
fn full_boards_without_a_win_are_draws() {
    // Random games on small boards until some end in a draw; each must have
    // filled the board with no structure for either side.
    let mut draws = 0;
    let mut rng = FastRng::new(3);
    'games: for _ in 0..20_000 {
        for side in [3, 4] {
            let mut pos = Position::new(side).unwrap();
            pos.set_swap_allowed(false);
            let mut moves = Vec::new();
            while pos.winner().is_none() {
                pos.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len() as u32) as usize];
                pos.play(mv).unwrap();
            }
            if pos.winner() == Some(Outcome::Draw) {
                assert_eq!(pos.stone_count(), pos.num_cells());
                assert_eq!(pos.win_kind(), None);
                assert!(!reference::structures(&pos, Color::White).any(), "{pos:?}");
                assert!(!reference::structures(&pos, Color::Black).any(), "{pos:?}");
                pos.legal_moves(&mut moves);
                assert!(moves.is_empty());
                draws += 1;
                if draws == 5 {
                    break 'games;
                }
            }
        }
    }
    assert_eq!(draws, 5);
}

#[test]
fn showboard_draws_the_hexagon() {
    let mut pos = Position::new(3).unwrap();
    pos.play(Move::Play(cell(&pos, "a1"))).unwrap();
    pos.play(Move::Play(cell(&pos, "c3"))).unwrap();
    let expected = [
        "     1 2 3",
        "  a W . . 4",
        " b . . . . 5",
        "c . .[B]. .",
        " d . . . .",
        "  e . . .",
        "White to move, move 3",
    ]
    .join("\n");
    assert_eq!(pos.showboard(), expected);
}
