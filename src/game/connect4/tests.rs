use super::*;
use std::collections::HashSet;

/// Distinct positions after each number of plies from the empty board,
/// games that ended not played on.
fn positions_per_ply(shape: Shape, plies: usize) -> Vec<u64> {
    let mut level: Vec<Position> = vec![Position::empty(shape)];
    let mut counts = vec![1u64];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &level {
            if pos.outcome().is_some() {
                continue;
            }
            for c in 0..shape.width as usize {
                if pos.can_play(c) {
                    let mut child = *pos;
                    child.play_column(c);
                    if seen.insert(child.key()) {
                        next.push(child);
                    }
                }
            }
        }
        counts.push(next.len() as u64);
        level = next;
    }
    counts
}

#[test]
fn positions_per_ply_on_7x6_match_oeis_a212693() {
    // OEIS A212693: legal Connect Four positions after n plies.
    let known = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let shape = Shape::new(7, 6).unwrap();
    assert_eq!(positions_per_ply(shape, known.len() - 1), known);
}

#[test]
fn sizes_outside_4_to_8_by_4_to_7_are_refused() {
    for (w, h) in [(3, 6), (9, 6), (7, 3), (7, 8), (0, 0)] {
        assert_eq!(Position::new(w, h), Err(BadSize(w, h)));
    }
    for w in MIN_WIDTH..=MAX_WIDTH {
        for h in MIN_HEIGHT..=MAX_HEIGHT {
            let shape = Shape::new(w, h).unwrap();
            assert_eq!(shape.board.count_ones() as usize, w * h);
        }
    }
}

#[test]
fn lines_in_every_direction_win_on_the_8x7_board() {
    let shape = Shape::new(8, 7).unwrap();
    // Horizontal along the bottom: 1 2 3 4 for X, O on top.
    let pos = Position::from_moves(shape, "1121314").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    // Vertical in the last column (uses the highest bits of the word).
    let pos = Position::from_moves(shape, "8171819").unwrap_err();
    assert_eq!(pos, 6); // a column 9 does not exist
    let pos = Position::from_moves(shape, "8182818").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    // Rising diagonal 1..4.
    let pos = Position::from_moves(shape, "12234334544").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    // Falling diagonal 8..5, White's.
    let pos = Position::from_moves(shape, "187765665455").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn no_line_runs_from_one_column_into_the_next() {
    // Four stacked stones split over two columns: the top three of column
    // 1 and the bottom one of column 2 must not count.
    let shape = Shape::new(4, 4).unwrap();
    let mut pos = Position::empty(shape);
    for c in [1, 0, 0, 2, 0, 2, 0] {
        pos.play_column(c);
    }
    assert_eq!(pos.outcome(), None);
}

#[test]
fn full_board_without_a_line_is_a_draw_and_bad_moves_change_nothing() {
    let shape = Shape::new(4, 4).unwrap();
    // Columns filled in pairs of alternating colours: no four anywhere.
    let pos = Position::from_moves(shape, "1212343421214343").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());

    let mut pos = Position::from_moves(shape, "1111").unwrap();
    let before = pos;
    assert_eq!(pos.play(0).unwrap_err().reason, IllegalReason::Occupied);
    assert_eq!(pos.play(4).unwrap_err().reason, IllegalReason::OffBoard);
    assert_eq!(pos, before);
    assert_eq!(Position::from_moves(shape, "11111"), Err(4));
    assert_eq!(Position::from_moves(shape, "1x"), Err(1));
    assert_eq!(Position::from_moves(shape, "0"), Err(0));
    // Nothing may follow a win.
    assert_eq!(Position::from_moves(shape, "12121212"), Err(7));
}

#[test]
fn winning_cells_and_non_losing_moves_agree_with_playing_them() {
    let shape = Shape::new(7, 6).unwrap();
    let mut rng = 0x1234_5678u64;
    for _ in 0..2000 {
        let mut pos = Position::empty(shape);
        loop {
            // Brute force: which columns win now, which let the opponent win.
            let mut wins = 0u64;
            for c in 0..7 {
                if pos.can_play(c) {
                    let mut p = pos;
                    p.play_column(c);
                    if p.is_won() {
                        wins |= shape.column_mask(c);
                    }
                }
            }
            assert_eq!(Position::from_key(shape, pos.key()), pos);
            assert_eq!(pos.winning_cells() & pos.possible() != 0, wins != 0);
            for c in 0..7 {
                assert_eq!(pos.is_winning_move(c), wins & shape.column_mask(c) != 0);
            }
            if wins == 0 && pos.outcome().is_none() {
                let safe = pos.non_losing_moves();
                for c in 0..7 {
                    if !pos.can_play(c) {
                        continue;
                    }
                    let mut p = pos;
                    p.play_column(c);
                    let loses = (0..7).any(|d| p.can_play(d) && p.is_winning_move(d));
                    let forced_elsewhere = safe != 0 && safe & shape.column_mask(c) == 0;
                    if safe & shape.column_mask(c) != 0 {
                        assert!(!loses, "{pos}col {c}");
                    } else if !forced_elsewhere {
                        assert!(loses, "{pos}col {c}");
                    }
                }
            }
            if pos.outcome().is_some() {
                break;
            }
            rng = mix(rng);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            pos.play_column(moves[(rng % moves.len() as u64) as usize] as usize);
        }
    }
}

#[test]
fn showboard_draws_the_first_player_as_x_bottom_row_last() {
    let shape = Shape::new(4, 4).unwrap();
    let pos = Position::from_moves(shape, "121").unwrap();
    assert_eq!(
        pos.showboard(),
        ". . . .\n. . . .\nX . . .\nX O . .\n1 2 3 4\n"
    );
    assert_eq!(pos.to_move(), Color::White);
    assert_eq!(pos.move_cell(0), Some(8));
}
