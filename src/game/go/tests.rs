//! Rules tests on hand-made positions.

use super::*;
use crate::game::{Color, Game, IllegalReason, Outcome};

const B: Color = Color::Black;
const W: Color = Color::White;

/// Point of a GTP vertex such as "D4" (no I column).
pub(super) fn at(pos: &Position, vertex: &str) -> Point {
    let letter = vertex.as_bytes()[0].to_ascii_uppercase();
    let col = (letter - b'A') as usize - (letter > b'I') as usize;
    let row: usize = vertex[1..].parse().unwrap();
    pos.point(col, row - 1).unwrap()
}

fn play(pos: &mut Position, color: Color, vertex: &str) -> Result<(), IllegalReason> {
    let p = at(pos, vertex);
    pos.play_as(color, Move::Play(p)).map_err(|e| e.reason)
}

fn setup(pos: &mut Position, color: Color, vertices: &str) {
    for v in vertices.split_whitespace() {
        let p = at(pos, v);
        pos.place_setup_stone(color, p).unwrap();
    }
}

/// A position from rows given top row first: `X` black, `O` white.
pub(crate) fn diagram(rows: &[&str], komi: f32) -> Position {
    let size = rows.len();
    let mut pos = Position::new(size, komi).unwrap();
    for (i, line) in rows.iter().enumerate() {
        let row = size - 1 - i;
        for (col, ch) in line.split_whitespace().enumerate() {
            let color = match ch {
                "X" => B,
                "O" => W,
                _ => continue,
            };
            let p = pos.point(col, row).unwrap();
            pos.place_setup_stone(color, p).unwrap();
        }
    }
    pos.board().check_invariants().unwrap();
    pos
}

#[test]
fn board_sizes_outside_2_to_25_are_rejected() {
    assert!(Position::new(1, 0.0).is_err());
    assert!(Position::new(26, 0.0).is_err());
    assert!(Position::new(0, 0.0).is_err());
    for size in 2..=25 {
        let pos = Position::new(size, 7.5).unwrap();
        assert_eq!(pos.size(), size);
        assert_eq!(pos.points().count(), size * size);
        pos.board().check_invariants().unwrap();
    }
}

#[test]
fn point_and_coords_are_inverse_and_bounded() {
    let pos = Position::new(13, 0.0).unwrap();
    for row in 0..13 {
        for col in 0..13 {
            let p = pos.point(col, row).unwrap();
            assert_eq!(pos.coords(p), (col, row));
        }
    }
    assert_eq!(pos.point(13, 0), None);
    assert_eq!(pos.point(0, 13), None);
    assert_eq!(pos.color_at(Point(0)), None);
    assert_eq!(pos.color_at(Point(u16::MAX)), None);
}

#[test]
fn move_index_round_trips_and_pass_is_last() {
    for size in [2, 9, 19, 25] {
        let pos = Position::new(size, 0.0).unwrap();
        assert_eq!(pos.move_space(), size * size + 1);
        assert_eq!(pos.move_index(Move::Pass), size * size);
        assert_eq!(pos.pass_move(), Some(Move::Pass));
        for (i, p) in pos.points().enumerate() {
            let (col, row) = pos.coords(p);
            assert_eq!(pos.move_index(Move::Play(p)), i);
            assert_eq!(i, row * size + col);
        }
    }
}

#[test]
fn single_stone_capture_in_the_centre() {
    let mut pos = Position::new(9, 0.0).unwrap();
    setup(&mut pos, B, "E5");
    setup(&mut pos, W, "E6 D5 F5");
    play(&mut pos, W, "E4").unwrap();
    assert_eq!(pos.color_at(at(&pos, "E5")), None);
    assert_eq!(pos.captures(W), 1);
    assert_eq!(pos.captures(B), 0);
    pos.board().check_invariants().unwrap();
}

#[test]
fn corner_and_edge_captures() {
    let mut pos = Position::new(9, 0.0).unwrap();
    setup(&mut pos, B, "A1");
    play(&mut pos, W, "B1").unwrap();
    play(&mut pos, W, "A2").unwrap();
    assert_eq!(pos.color_at(at(&pos, "A1")), None);
    // A two-stone chain on the edge.
    setup(&mut pos, B, "E1 F1");
    setup(&mut pos, W, "D1 E2 F2");
    play(&mut pos, W, "G1").unwrap();
    assert!(pos.stones(B).is_empty());
    assert_eq!(pos.captures(W), 3);
    pos.board().check_invariants().unwrap();
}

#[test]
fn one_move_captures_two_chains_without_own_liberties() {
    // Black A1 has no liberty of its own but takes A2 and B1.
    let mut pos = Position::new(9, 0.0).unwrap();
    setup(&mut pos, W, "A2 B1");
    setup(&mut pos, B, "A3 B2 C1");
    play(&mut pos, B, "A1").unwrap();
    assert_eq!(pos.stones(W), vec![]);
    assert_eq!(pos.captures(B), 2);
    assert_eq!(pos.color_at(at(&pos, "A1")), Some(B));
    pos.board().check_invariants().unwrap();
}

#[test]
fn suicide_is_illegal_for_one_and_several_stones() {
    let mut pos = Position::new(9, 0.0).unwrap();
    setup(&mut pos, B, "A2 B1");
    assert_eq!(play(&mut pos, W, "A1"), Err(IllegalReason::Suicide));
    assert!(!pos.legal_points_as(W).contains(&at(&pos, "A1")));
    // Black may fill its own point there.
    assert!(pos.is_legal_as(B, Move::Play(at(&pos, "A1"))));

    let mut pos = Position::new(9, 0.0).unwrap();
    setup(&mut pos, B, "A3 B2 B1");
    setup(&mut pos, W, "A1");
    assert_eq!(play(&mut pos, W, "A2"), Err(IllegalReason::Suicide));
    assert_eq!(pos.color_at(at(&pos, "A2")), None);
    assert_eq!(pos.move_number(), 0);
}

#[test]
fn occupied_and_off_board_are_rejected() {
    let mut pos = Position::new(9, 0.0).unwrap();
    play(&mut pos, B, "E5").unwrap();
    assert_eq!(play(&mut pos, W, "E5"), Err(IllegalReason::Occupied));
    for bad in [Point(0), Point(10), Point(200), Point(u16::MAX)] {
        let err = pos.play_as(W, Move::Play(bad)).unwrap_err();
        assert_eq!(err.reason, IllegalReason::OffBoard);
        assert_eq!(err.mv, Move::Play(bad));
    }
}

/// Ko 1: White C3 inside Black, Black takes at D3. Ko 2: Black G7 inside
/// White, White takes at F7.
fn two_kos() -> Position {
    let mut pos = Position::new(9, 0.0).unwrap();
    setup(&mut pos, B, "C4 B3 C2  F8 E7 F6 G7");
    setup(&mut pos, W, "D4 E3 D2 C3  G8 H7 G6");
    pos
}

#[test]
fn simple_ko_blocks_the_immediate_retake_only() {
    let mut pos = two_kos();
    play(&mut pos, B, "D3").unwrap();
    assert_eq!(pos.captures(B), 1);
    assert_eq!(play(&mut pos, W, "C3"), Err(IllegalReason::Ko));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.contains(&Move::Play(at(&pos, "C3"))));
    // Ko threats elsewhere release it.
    play(&mut pos, W, "J9").unwrap();
    play(&mut pos, B, "J1").unwrap();
    play(&mut pos, W, "C3").unwrap();
    assert_eq!(pos.color_at(at(&pos, "D3")), None);
    assert_eq!(play(&mut pos, B, "D3"), Err(IllegalReason::Ko));
    pos.board().check_invariants().unwrap();
}

#[test]
fn positional_superko_catches_a_double_ko_cycle() {
    let mut pos = two_kos();
    let start = pos.board().hash();
    play(&mut pos, B, "D3").unwrap();
    play(&mut pos, W, "F7").unwrap();
    pos.play_as(B, Move::Pass).unwrap();
    play(&mut pos, W, "C3").unwrap();
    // Retaking ko 2 would recreate the starting position. No simple ko
    // applies (White's last move was elsewhere): only superko forbids it.
    let g7 = at(&pos, "G7");
    assert!(pos.board().is_legal(board::BLACK, g7.0 as usize));
    assert_eq!(pos.board().hash_after(board::BLACK, g7.0 as usize), start);
    assert_eq!(play(&mut pos, B, "G7"), Err(IllegalReason::Superko));
    assert!(!pos.legal_points_as(B).contains(&g7));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.contains(&Move::Play(g7)));
    // The same point is fine for White, whose move recreates nothing.
    assert!(pos.is_legal_as(W, Move::Play(g7)));
}

#[test]
fn superko_after_passes_clear_the_simple_ko() {
    let mut pos = two_kos();
    play(&mut pos, B, "D3").unwrap();
    pos.play_as(W, Move::Pass).unwrap();
    pos.play_as(B, Move::Pass).unwrap();
    assert_eq!(play(&mut pos, W, "C3"), Err(IllegalReason::Superko));
}

#[test]
fn game_api_stops_after_two_passes_but_gtp_play_continues() {
    let mut pos = Position::new(5, 0.5).unwrap();
    pos.play(Move::Pass).unwrap();
    assert_eq!(pos.outcome(), None);
    pos.play(Move::Pass).unwrap();
    assert_eq!(pos.consecutive_passes(), 2);
    assert_eq!(pos.outcome(), Some(Outcome::Win(W)));
    let c3 = pos.point(2, 2).unwrap();
    assert_eq!(
        pos.play(Move::Play(c3)).unwrap_err().reason,
        IllegalReason::GameOver
    );
    let mut moves = vec![Move::Pass];
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
    pos.play_as(B, Move::Play(c3)).unwrap();
    assert_eq!(pos.consecutive_passes(), 0);
    assert_eq!(pos.to_move(), W);
    assert_eq!(pos.move_number(), 3);
}

#[test]
fn legal_moves_skip_own_eyes_but_gtp_lists_them() {
    let pos = diagram(
        &[
            ". X . . .", //
            "X X . . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ],
        0.0,
    );
    let a5 = pos.point(0, 4).unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.contains(&Move::Play(a5)));
    assert_eq!(moves.last(), Some(&Move::Pass));
    assert_eq!(moves.len(), 25 - 3 - 1 + 1);
    assert!(pos.legal_points_as(B).contains(&a5));
    assert!(!pos.legal_points_as(W).contains(&a5));
}

#[test]
fn tromp_taylor_scoring_counts_stones_and_surrounded_regions() {
    let pos = diagram(
        &[
            ". X O . .", //
            "X X O . .",
            ". X O . .",
            "X X O O O",
            ". X O . .",
        ],
        0.5,
    );
    // Black 7 stones + 3 single points; White 7 stones + 6 + 2.
    assert_eq!(pos.area_score(), 10.0 - 15.0 - 0.5);
    let owner = pos.owner_map();
    assert_eq!(owner.len(), 26);
    assert_eq!(owner[0], Some(B)); // A1
    assert_eq!(owner[3], Some(W)); // D1
    assert_eq!(owner[24], Some(W)); // E5
    assert_eq!(owner[25], None); // pass
}

#[test]
fn regions_touching_both_colours_are_dame() {
    let pos = diagram(&["X . O", "X . O", "X . O"], 0.0);
    assert_eq!(pos.area_score(), 0.0);
    let owner = pos.owner_map();
    assert_eq!(owner[1], None);
    assert_eq!(owner[0], Some(B));
    assert_eq!(owner[2], Some(W));
    // A two-point region between a White chain and Black is dame; the
    // rest of the empty points reach Black only.
    let pos = diagram(
        &[
            "X O . X .", //
            "X O . X .",
            "X O O X X",
            "X X X X .",
            ". . . . .",
        ],
        6.5,
    );
    // Black 11 stones + E5/E4 + E2 and row 1; White 4 stones.
    assert_eq!(pos.area_score(), 19.0 - 4.0 - 6.5);
    let owner = pos.owner_map();
    assert_eq!((owner[22], owner[17]), (None, None)); // C5, C4
    assert_eq!(owner[24], Some(B)); // E5
    let empty = Position::new(9, 7.5).unwrap();
    assert_eq!(empty.area_score(), -7.5);
    assert_eq!(empty.owner_map().iter().filter(|o| o.is_some()).count(), 0);
}

#[test]
fn outcome_follows_the_score_sign_and_zero_is_a_draw() {
    let mut pos = diagram(&["X . O", "X . O", "X . O"], 0.0);
    pos.play_as(B, Move::Pass).unwrap();
    pos.play_as(W, Move::Pass).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    pos.set_komi(-1.0);
    assert_eq!(pos.outcome(), Some(Outcome::Win(B)));
}

#[test]
fn handicap_placements_follow_gtp() {
    let names = |size: usize, n: usize| -> Vec<String> {
        fixed_handicap(size, n)
            .unwrap()
            .into_iter()
            .map(|(c, r)| format!("{}{}", column_letter(c), r + 1))
            .collect()
    };
    assert_eq!(names(19, 2), ["D4", "Q16"]);
    assert_eq!(names(19, 3), ["D4", "Q16", "D16"]);
    assert_eq!(names(19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
    assert_eq!(
        names(19, 9),
        ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
    );
    assert_eq!(names(13, 4), ["D4", "K10", "D10", "K4"]);
    assert_eq!(names(13, 6), ["D4", "K10", "D10", "K4", "D7", "K7"]);
    assert_eq!(names(9, 2), ["C3", "G7"]);
    assert_eq!(names(9, 7), ["C3", "G7", "C7", "G3", "C5", "G5", "E5"]);
    assert_eq!(names(7, 4), ["C3", "E5", "C5", "E3"]);
    assert_eq!(fixed_handicap(7, 5), None);
    assert_eq!(fixed_handicap(10, 5), None);
    assert_eq!(names(10, 4).len(), 4);
    assert_eq!(fixed_handicap(6, 2), None);
    assert_eq!(fixed_handicap(19, 1), None);
    assert_eq!(fixed_handicap(19, 10), None);
    // Placing them as setup stones: no moves made, Black still first.
    let mut pos = Position::new(19, 0.5).unwrap();
    for (col, row) in fixed_handicap(19, 9).unwrap() {
        let p = pos.point(col, row).unwrap();
        pos.place_setup_stone(B, p).unwrap();
    }
    assert_eq!(pos.stones(B).len(), 9);
    assert_eq!(pos.move_number(), 0);
}

#[test]
fn setup_stones_may_not_capture_or_lack_liberties() {
    let mut pos = Position::new(9, 0.0).unwrap();
    setup(&mut pos, B, "A2");
    let b1 = at(&pos, "B1");
    let a1 = at(&pos, "A1");
    pos.place_setup_stone(B, b1).unwrap();
    assert_eq!(
        pos.place_setup_stone(W, a1).unwrap_err().reason,
        IllegalReason::Suicide
    );
    // Now both Black stones are left with A1 only; White A1 would take
    // them, and setup refuses captures.
    setup(&mut pos, W, "A3 B2 C1");
    assert_eq!(
        pos.place_setup_stone(W, a1).unwrap_err().reason,
        IllegalReason::NotAllowed
    );
    assert_eq!(
        pos.place_setup_stone(W, b1).unwrap_err().reason,
        IllegalReason::Occupied
    );
}

#[test]
fn game_hash_includes_side_to_move_and_stones_hash_does_not() {
    let mut pos = Position::new(9, 0.0).unwrap();
    let h0 = pos.hash();
    pos.set_to_move(W);
    assert_ne!(pos.hash(), h0);
    assert_eq!(pos.board().hash(), 0);
    pos.set_to_move(B);
    assert_eq!(pos.hash(), h0);
    // Same stones reached by two orders give the same hashes.
    let mut a = Position::new(9, 0.0).unwrap();
    let mut b = Position::new(9, 0.0).unwrap();
    for v in ["C3", "D4", "E5", "F6"] {
        let c = a.to_move();
        play(&mut a, c, v).unwrap();
    }
    for v in ["E5", "F6", "C3", "D4"] {
        let c = b.to_move();
        play(&mut b, c, v).unwrap();
    }
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn showboard_has_letters_numbers_stones_and_captures() {
    let mut pos = Position::new(9, 0.0).unwrap();
    play(&mut pos, B, "C3").unwrap();
    play(&mut pos, W, "J9").unwrap();
    let text = pos.showboard();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0].trim(), "A B C D E F G H J");
    assert!(lines[1].starts_with(" 9 . . . . . . . . O 9"), "{text}");
    // GNU Go's layout: on boards of 10 lines or fewer the counts stand
    // beside the two bottom rows.
    assert!(lines[8].starts_with(" 2 ") && lines[8].contains("WHITE (O) has captured 0 stones"));
    assert!(lines[9].starts_with(" 1 ") && lines[9].contains("BLACK (X) has captured 0 stones"));
    assert!(lines[7].starts_with(" 3 . . X . . . + . . 3"), "{text}");
    assert_eq!(lines.len(), 11);
    let big = Position::new(25, 0.0).unwrap().showboard();
    assert!(big.lines().next().unwrap().ends_with('Z'));
    assert!(big.lines().nth(1).unwrap().starts_with("25 "));
}

#[test]
fn sgf_round_trip_keeps_the_record() {
    let record = sgf::GameRecord {
        size: 13,
        komi: 6.5,
        handicap: 2,
        setup: vec![(B, (3, 3)), (B, (9, 9)), (W, (0, 12))],
        moves: vec![
            (W, Some((6, 6))),
            (B, None),
            (W, Some((12, 0))),
            (B, Some((0, 0))),
        ],
    };
    let text = sgf::write_sgf(&record);
    assert!(text.starts_with("(;FF[4]GM[1]SZ[13]KM[6.5]HA[2]AP[Warpstone:"));
    assert_eq!(sgf::parse_sgf(&text).unwrap(), record);
}

#[test]
fn sgf_reads_coordinates_passes_and_defaults() {
    let rec = sgf::parse_sgf("(;GM[1]FF[4]SZ[9]KM[7.5];B[aa];W[tt];B[ai];W[])").unwrap();
    assert_eq!(rec.size, 9);
    assert_eq!(rec.komi, 7.5);
    assert_eq!(
        rec.moves,
        vec![(B, Some((0, 8))), (W, None), (B, Some((0, 0))), (W, None)]
    );
    let rec = sgf::parse_sgf("(;AB[dd][pp]AW[dp];W[qd](;B[aa])(;B[bb]))").unwrap();
    assert_eq!(rec.size, 19);
    assert_eq!(rec.komi, 0.0);
    assert_eq!(rec.setup, vec![(B, (3, 15)), (B, (15, 3)), (W, (3, 3))]);
    assert_eq!(rec.moves, vec![(W, Some((16, 15))), (B, Some((0, 18)))]);
}

#[test]
fn sgf_rejects_bad_input_without_panicking() {
    for text in [
        "",
        "(;",
        "garbage",
        "(;SZ[30])",
        "(;SZ[9:13])",
        "(;SZ[1])",
        "(;SZ[9];B[zz])",
        "(;GM[2];B[aa])",
        "(;SZ[9];B[aa];AB[bb])",
        "(;SZ[9]KM[abc])",
        "(;SZ[9];B[a])",
    ] {
        assert!(sgf::parse_sgf(text).is_err(), "{text}");
    }
}

#[test]
fn hash_after_captures_equals_the_hash_of_the_same_stones_placed_fresh() {
    let mut played = Position::new(9, 0.0).unwrap();
    setup(&mut played, B, "A2 B1");
    setup(&mut played, W, "A3 B2 C1");
    play(&mut played, W, "A1").unwrap(); // takes A2 and B1
    play(&mut played, B, "E5").unwrap();
    let mut fresh = Position::new(9, 0.0).unwrap();
    setup(&mut fresh, W, "A1 A3 B2 C1");
    setup(&mut fresh, B, "E5");
    assert_eq!(played.board().hash(), fresh.board().hash());
    played.board().check_invariants().unwrap();
    // The game hashes differ only by the side to move.
    fresh.set_to_move(W);
    assert_eq!(played.hash(), fresh.hash());
}

#[test]
fn without_dead_stones_it_is_tromp_taylor() {
    let mut pos = Position::new(5, 0.5).unwrap();
    for row in 0..5 {
        pos.play_as(Color::Black, Move::Play(pos.point(1, row).unwrap()))
            .unwrap();
        pos.play_as(Color::White, Move::Play(pos.point(3, row).unwrap()))
            .unwrap();
    }
    let none = vec![false; pos.move_space()];
    assert_eq!(pos.area_score_without(&none), pos.area_score());
    assert_eq!(pos.area_score_without(&none), -0.5);
}

#[test]
fn dead_stones_count_for_the_opponent() {
    let mut pos = Position::new(5, 0.5).unwrap();
    for row in 0..5 {
        pos.play_as(Color::Black, Move::Play(pos.point(2, row).unwrap()))
            .unwrap();
        pos.set_to_move(Color::Black);
    }
    let w = pos.point(0, 0).unwrap();
    pos.play_as(Color::White, Move::Play(w)).unwrap();
    let mut dead = vec![false; pos.move_space()];
    dead[pos.move_index(Move::Play(w))] = true;
    // Black: 5 stones + the whole board either side = 25; komi 0.5.
    assert_eq!(pos.area_score_without(&dead), 24.5);
}

#[test]
fn neighbours_and_string_stones_follow_the_board() {
    let mut pos = Position::new(5, 0.5).unwrap();
    let corner = pos.point(0, 0).unwrap();
    assert_eq!(pos.neighbours(corner).count(), 2);
    assert_eq!(pos.neighbours(pos.point(2, 2).unwrap()).count(), 4);
    assert!(pos.string_stones(corner).is_empty());
    for col in 0..3 {
        pos.play_as(Color::Black, Move::Play(pos.point(col, 0).unwrap()))
            .unwrap();
        pos.set_to_move(Color::Black);
    }
    let mut stones = pos.string_stones(corner);
    stones.sort();
    let mut expected: Vec<_> = (0..3).map(|c| pos.point(c, 0).unwrap()).collect();
    expected.sort();
    assert_eq!(stones, expected);
}

/// A random legal game of `moves` plies from the empty board (fewer if
/// no move is left).
fn random_game(size: usize, moves: usize, seed: u64) -> Position {
    let mut pos = Position::new(size, 7.0).unwrap();
    let mut rng = crate::game::rng::FastRng::new(seed);
    let mut legal = Vec::new();
    for _ in 0..moves {
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u32) as usize];
        pos.play_unchecked(mv);
    }
    pos
}

#[test]
fn clone_from_equals_clone_and_plays_on_alike() {
    let mut rng = crate::game::rng::FastRng::new(5);
    for (size, other_size) in [(9, 9), (13, 13), (19, 19), (9, 19), (19, 9)] {
        for seed in 0..4 {
            let source = random_game(size, 30 + 20 * seed as usize, seed);
            // A destination that held another game (maybe another size).
            let mut copied = random_game(other_size, 40, seed + 100);
            copied.clone_from(&source);
            let mut cloned = source.clone();
            let mut legal_a = Vec::new();
            let mut legal_b = Vec::new();
            for _ in 0..60 {
                assert_eq!(copied.board().hash(), cloned.board().hash());
                assert_eq!(copied.to_move(), cloned.to_move());
                copied.legal_moves(&mut legal_a);
                cloned.legal_moves(&mut legal_b);
                assert_eq!(legal_a, legal_b);
                if legal_a.is_empty() {
                    break;
                }
                let mv = legal_a[rng.below(legal_a.len() as u32) as usize];
                copied.play_unchecked(mv);
                cloned.play_unchecked(mv);
            }
            assert_eq!(copied.outcome(), cloned.outcome());
        }
    }
}
