use super::bitboard::{bit, bit_index};
use super::*;

fn sq(pos: &Position, text: &str) -> u8 {
    pos.parse_square(text).unwrap()
}

fn set(pos: &Position, squares: &[&str]) -> u128 {
    squares.iter().fold(0, |m, s| m | bit(sq(pos, s)))
}

fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return pos.count_moves() as u64;
    }
    let mut n = 0;
    pos.for_each_move(|mv| {
        let mut next = pos.clone();
        next.apply(mv);
        n += perft(&next, depth - 1);
    });
    n
}

#[test]
fn start_positions_and_their_move_counts() {
    let pos = Position::new(10).unwrap();
    assert_eq!(pos.to_move(), Color::White);
    assert_eq!(
        pos.queens(Color::White),
        set(&pos, &["a4", "d1", "g1", "j4"])
    );
    assert_eq!(
        pos.queens(Color::Black),
        set(&pos, &["a7", "d10", "g10", "j7"])
    );
    // The well-known opening count of the 10x10 game.
    assert_eq!(pos.count_moves(), 2176);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 2176);
    let distinct: std::collections::HashSet<_> = moves.iter().collect();
    assert_eq!(distinct.len(), 2176);
    assert!(moves.iter().all(|&m| pos.is_legal(m)));
    for n in [6, 8] {
        let p = Position::new(n).unwrap();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves.len(), p.count_moves());
        assert!(moves.iter().all(|&m| p.is_legal(m)));
    }
    assert_eq!(Position::new(7), Err(BadSize(7)));
    assert_eq!(Position::new(12), Err(BadSize(12)));
}

#[test]
fn two_plies_from_the_10x10_start() {
    // 4,307,152: the published perft(2) of the standard board.
    assert_eq!(perft(&Position::new(10).unwrap(), 2), 4_307_152);
}

#[test]
fn notation_round_trips_and_rejects_what_is_not_a_move() {
    let pos = Position::new(10).unwrap();
    let mv = pos.parse_move("d1-d7/g7").unwrap();
    assert_eq!(
        mv,
        Move {
            from: bit_index(3, 0),
            to: bit_index(3, 6),
            arrow: bit_index(6, 6)
        }
    );
    assert_eq!(Position::move_text(mv), "d1-d7/g7");
    assert_eq!(pos.parse_move("D1-D7/G7"), Ok(mv));
    assert_eq!(
        Position::move_text(pos.parse_move("j4-j5/j10").unwrap()),
        "j4-j5/j10"
    );
    for bad in [
        "", "d1", "d1-d7", "d1d7/g7", "d1-d7/", "-d7/g7", "d1-d7/g", "dd-d7/g7",
    ] {
        assert_eq!(pos.parse_move(bad), Err(ParseMoveError::Syntax), "{bad}");
    }
    for off in ["d1-d7/k7", "d0-d7/g7", "d1-d11/g7"] {
        assert_eq!(pos.parse_move(off), Err(ParseMoveError::OffBoard), "{off}");
    }
    let small = Position::new(6).unwrap();
    assert_eq!(small.parse_move("a2-a3/g3"), Err(ParseMoveError::OffBoard));
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut pos = Position::new(10).unwrap();
    let before = pos.clone();
    for text in [
        "a7-a6/a5",  // Black's queen, White to move
        "d1-d1/d2",  // no move
        "d1-e3/e4",  // not a queen line
        "d1-d10/d9", // onto a queen
        "a4-c4/c4",  // the arrow on the queen itself
        "d1-d5/d10", // the arrow onto a queen
        "a4-j4/a5",  // through a queen
        "b2-b3/b4",  // no queen there
    ] {
        let mv = pos.parse_move(text).unwrap();
        assert!(!pos.is_legal(mv), "{text}");
        let err = pos.play(mv).unwrap_err();
        assert_eq!(err.mv, mv);
        assert_eq!(pos, before, "{text}");
    }
    // Shooting back at the square the queen left is legal.
    let back = pos.parse_move("d1-d7/d1").unwrap();
    assert!(pos.play(back).is_ok());
    assert_eq!(pos.to_move(), Color::Black);
    assert_eq!(pos.arrows(), bit(sq(&pos, "d1")));
    // An arrow blocks both queens and arrows.
    let through = pos.parse_move("d10-d8/d6").unwrap();
    assert!(!pos.is_legal(through));
    assert!(pos.play(pos.parse_move("d10-d8/c8").unwrap()).is_ok());
    assert!(!pos.is_legal(pos.parse_move("g1-c1/e1").unwrap()));
    assert!(pos.is_legal(pos.parse_move("g1-e1/f1").unwrap()));
    let over_arrow = pos.parse_move("a4-a1/d1").unwrap();
    assert!(!pos.is_legal(over_arrow));
}

#[test]
fn a_player_without_a_move_loses() {
    let probe = Position::new(6).unwrap();
    // White's queen in the corner walled in by arrows; Black has room.
    let white = set(&probe, &["a1"]);
    let black = set(&probe, &["f6"]);
    let arrows = set(&probe, &["a2", "b1", "b2"]);
    let pos = Position::from_sets(6, white, black, arrows, Color::White).unwrap();
    assert!(!pos.can_move(Color::White));
    assert_eq!(pos.count_moves(), 0);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    assert_eq!(pos.proven_outcome(), Some(Outcome::Win(Color::Black)));
    let mut p = pos.clone();
    let err = p
        .play(Move {
            from: 0,
            to: 0,
            arrow: 0,
        })
        .unwrap_err();
    assert_eq!(err.reason, IllegalReason::GameOver);
    // With Black to move the same board is still being played.
    let other = Position::from_sets(6, white, black, arrows, Color::Black).unwrap();
    assert_eq!(other.outcome(), None);
    // One step and one shot back: the smallest move there is.
    let one =
        Position::from_sets(6, white, black, set(&probe, &["a2", "b2"]), Color::White).unwrap();
    let mut moves = Vec::new();
    one.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| Position::move_text(m)).collect();
    assert!(texts.contains(&"a1-b1/a1".to_string()));
    assert!(texts.iter().all(|t| t.starts_with("a1-")));
    assert!(Position::from_sets(6, white, white, 0, Color::White).is_none());
    assert!(Position::from_sets(6, bit(bit_index(7, 7)), black, 0, Color::White).is_none());
}

#[test]
fn random_games_keep_the_counts_and_end_with_a_winner() {
    // A small LCG: the rules' tests stay below the simulators' layer.
    let mut state = 7u64;
    let mut below = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    };
    for n in SIZES {
        for _ in 0..20 {
            let mut pos = Position::new(n).unwrap();
            let mut moves = Vec::new();
            while pos.outcome().is_none() {
                pos.legal_moves(&mut moves);
                assert_eq!(moves.len(), pos.count_moves());
                let mv = moves[below(moves.len())];
                pos.play(mv).unwrap();
                let cells = pos.size() * pos.size();
                assert_eq!(pos.arrows().count_ones() as usize, pos.plies());
                assert!(pos.plies() <= cells - 8);
            }
            assert_eq!(pos.count_moves(), 0);
        }
    }
}
