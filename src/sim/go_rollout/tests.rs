use super::*;
use crate::game::go::board::{BLACK, WHITE};
use crate::game::go::Point;
use crate::game::{Game, Outcome};
use proptest::prelude::*;

const B: Color = Color::Black;
const W: Color = Color::White;

fn at(pos: &Position, vertex: &str) -> usize {
    let letter = vertex.as_bytes()[0].to_ascii_uppercase();
    let col = (letter - b'A') as usize - (letter > b'I') as usize;
    let row: usize = vertex[1..].parse().unwrap();
    pos.point(col, row - 1).unwrap().0 as usize
}

fn place(pos: &mut Position, color: Color, vertices: &str) {
    for v in vertices.split_whitespace() {
        let p = Point(at(pos, v) as u16);
        pos.place_setup_stone(color, p).unwrap();
    }
}

fn run_one(pos: &Position, policy: GoPolicy, seed: u64) -> (PlayoutResult, PlayoutRecord, Vec<i8>) {
    let mut rng = FastRng::new(seed);
    let mut record = PlayoutRecord::default();
    record.reset(pos.move_space());
    let mut owner = vec![7i8; pos.move_space()];
    let result = pos.rollout_with(policy, &mut rng, &mut record, &mut owner);
    (result, record, owner)
}

/// Replays the playout policy step by step next to a `Position`, checking
/// every chosen move with the rules (superko aside) before playing it.
fn checked_playout(size: usize, policy: GoPolicy, seed: u64) {
    let mut pos = Position::new(size, 0.5).unwrap();
    let mut rng = FastRng::new(seed);
    let mut playout = Playout::new(&pos);
    let cap = MOVE_CAP_PER_POINT * size * size;
    while playout.passes < 2 && playout.moves < cap {
        let color = playout.to_move;
        let mut choice = None;
        if policy == GoPolicy::Patterns && playout.last != 0 {
            choice = playout.tactical_move(&mut rng);
        }
        if choice.is_none() {
            choice = match policy {
                GoPolicy::Random => playout.random_move::<false>(&mut rng),
                GoPolicy::Patterns => playout.random_move::<true>(&mut rng),
            };
        }
        match choice {
            Some(p) => {
                let board = pos.board();
                assert!(board.is_legal(color, p), "illegal {p}\n{pos:?}");
                assert!(!board.is_eye(color, p), "eye fill {p}\n{pos:?}");
                pos.play_unchecked(Move::Play(Point(p as u16)));
                playout.board.play(color, p);
                playout.passes = 0;
                playout.last = p;
            }
            None => {
                // The random policy passes only when every legal move
                // would fill an own eye (Patterns may also have rejected
                // self-ataris).
                let board = pos.board();
                if policy == GoPolicy::Random {
                    assert!(board
                        .points()
                        .all(|p| !board.is_legal(color, p) || board.is_eye(color, p)));
                }
                pos.play_unchecked(Move::Pass);
                playout.board.pass();
                playout.passes += 1;
                playout.last = 0;
            }
        }
        playout.to_move = other(color);
        playout.moves += 1;
        assert_eq!(playout.board.hash(), pos.board().hash());
    }
    playout.board.check_invariants().unwrap();
    pos.board().check_invariants().unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn playouts_only_make_legal_moves(
        size in prop::sample::select(vec![2usize, 3, 5, 9, 13]),
        seed in any::<u64>(),
        patterns in any::<bool>(),
    ) {
        let policy = if patterns { GoPolicy::Patterns } else { GoPolicy::Random };
        checked_playout(size, policy, seed);
    }

    #[test]
    fn playout_results_agree_with_their_ownership(
        size in prop::sample::select(vec![5usize, 9, 19]),
        seed in any::<u64>(),
        patterns in any::<bool>(),
    ) {
        let policy = if patterns { GoPolicy::Patterns } else { GoPolicy::Random };
        let pos = Position::new(size, 6.5).unwrap();
        let (result, record, owner) = run_one(&pos, policy, seed);
        prop_assert!(owner.iter().all(|&o| (-1..=1).contains(&o)));
        prop_assert_eq!(owner[size * size], 0);
        let area: i32 = owner.iter().map(|&o| o as i32).sum();
        prop_assert_eq!(result.score, area as f32 - 6.5);
        let expected = if result.score > 0.0 { Some(B) } else { Some(W) };
        prop_assert_eq!(result.winner, expected);
        // Both colours played somewhere; nothing recorded at the pass index.
        prop_assert!(record.first.contains(&Some(B)) && record.first.contains(&Some(W)));
        prop_assert_eq!(record.first[size * size], None);
    }
}

#[test]
fn same_seed_same_playout() {
    let pos = Position::new(9, 7.5).unwrap();
    for policy in [GoPolicy::Random, GoPolicy::Patterns] {
        let a = run_one(&pos, policy, 99);
        let b = run_one(&pos, policy, 99);
        assert_eq!(a.0, b.0);
        assert_eq!(a.1.first, b.1.first);
        assert_eq!(a.2, b.2);
    }
}

#[test]
fn a_finished_position_is_just_scored() {
    let mut pos = Position::new(5, 0.5).unwrap();
    pos.play(Move::Pass).unwrap();
    pos.play(Move::Pass).unwrap();
    let (result, record, owner) = run_one(&pos, GoPolicy::Patterns, 1);
    assert_eq!(result.score, -0.5);
    assert_eq!(result.winner, Some(W));
    assert!(record.first.iter().all(Option::is_none));
    assert!(owner.iter().all(|&o| o == 0));
    assert_eq!(pos.outcome(), Some(Outcome::Win(W)));
}

#[test]
fn rollout_trait_uses_patterns_by_default() {
    let pos = Position::new(9, 7.5).unwrap();
    let mut record = PlayoutRecord::default();
    record.reset(pos.move_space());
    let mut owner = vec![0i8; pos.move_space()];
    let result = pos.rollout(&mut FastRng::new(5), &mut record, &mut owner);
    assert_eq!(result, run_one(&pos, GoPolicy::Patterns, 5).0);
    assert_eq!(GoPolicy::default(), GoPolicy::Patterns);
}

#[test]
fn playouts_never_fill_a_living_groups_eyes() {
    // Black's wall on the left has a true eye at A4 and two two-point eye
    // spaces: White can never take it, and Black never fills A4, so A4 and
    // the wall are Black's at the end of every playout.
    let mut pos = Position::new(7, 0.5).unwrap();
    place(&mut pos, B, "B7 B6 A5 B5 B4 B3 A3 B2 B1");
    pos.set_to_move(W);
    for seed in 0..50 {
        for policy in [GoPolicy::Random, GoPolicy::Patterns] {
            let (_, _, owner) = run_one(&pos, policy, seed);
            for v in ["A4", "B4", "B7", "B1"] {
                let (col, row) = pos.coords(Point(at(&pos, v) as u16));
                assert_eq!(owner[row * 7 + col], 1, "{v} seed {seed} {policy:?}");
            }
        }
    }
}

#[test]
fn atari_moves_escape_and_capture_around_the_last_move() {
    // White E4 ataris Black D4 (liberty D3): Black runs to D3, which gains
    // liberties; no White chain near is in atari.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "D4");
    place(&mut pos, W, "C4 D5");
    pos.play_as(W, Move::Play(Point(at(&pos, "E4") as u16)))
        .unwrap();
    let d3 = at(&pos, "D3");
    assert_eq!(pos.board().atari_liberty(at(&pos, "D4")), Some(d3));
    let mut candidates = Candidates::default();
    atari_moves(pos.board(), BLACK, at(&pos, "E4"), &mut candidates);
    assert_eq!(&candidates.points[..candidates.len], &[d3]);

    // Black F5 ataris White E5 (liberty E4); White then plays far away.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "E6 D5");
    place(&mut pos, W, "E5");
    pos.play_as(B, Move::Play(Point(at(&pos, "F5") as u16)))
        .unwrap();
    pos.play_as(W, Move::Play(Point(at(&pos, "A1") as u16)))
        .unwrap();
    let mut candidates = Candidates::default();
    atari_moves(pos.board(), BLACK, at(&pos, "A1"), &mut candidates);
    assert_eq!(candidates.len, 0);
    atari_moves(pos.board(), BLACK, at(&pos, "F5"), &mut candidates);
    assert_eq!(&candidates.points[..candidates.len], &[at(&pos, "E4")]);
}

#[test]
fn escape_is_not_offered_when_running_stays_in_atari() {
    // White B2 ataris Black A3 (liberty A2); running to A2 leaves the
    // chain A2-A3 with A1 only.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "A3");
    place(&mut pos, W, "A4 B3");
    pos.play_as(W, Move::Play(Point(at(&pos, "B2") as u16)))
        .unwrap();
    let a2 = at(&pos, "A2");
    assert_eq!(pos.board().atari_liberty(at(&pos, "A3")), Some(a2));
    assert!(pos.board().is_legal(BLACK, a2));
    assert!(pos.board().is_self_atari(BLACK, a2));
    let mut candidates = Candidates::default();
    atari_moves(pos.board(), BLACK, at(&pos, "B2"), &mut candidates);
    assert_eq!(candidates.len, 0);
}

#[test]
fn self_atari_detection() {
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, W, "D5 F5 E6");
    let board = pos.board();
    // Black E5 would have only E4.
    assert!(board.is_self_atari(BLACK, at(&pos, "E5")));
    // Open points are not.
    assert!(!board.is_self_atari(BLACK, at(&pos, "E4")));
    // With a friendly stone below, E5 joins it and gains its liberties.
    place(&mut pos, B, "E4");
    assert!(!pos.board().is_self_atari(BLACK, at(&pos, "E5")));
    // Capturing is never self-atari: White E5 is surrounded but takes.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "A2");
    place(&mut pos, W, "A3 B2");
    assert!(!pos.board().is_self_atari(WHITE, at(&pos, "A1")));
}

#[test]
fn patterns_match_hane_and_cut_but_not_empty_space() {
    let mut pos = Position::new(9, 0.0).unwrap();
    // Hane: X O X above an empty row.
    place(&mut pos, B, "D6 F6");
    place(&mut pos, W, "E6");
    let board = pos.board();
    assert!(patterns::matches(board, at(&pos, "E5")));
    assert!(!patterns::matches(board, at(&pos, "B2")));
    // Same shape rotated and with colours swapped.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, W, "D4 D6");
    place(&mut pos, B, "D5");
    assert!(patterns::matches(pos.board(), at(&pos, "E5")));
    // Cut: X O / O . with the other diagonal open.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "D6");
    place(&mut pos, W, "E6 D5");
    assert!(patterns::matches(pos.board(), at(&pos, "E5")));
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
    assert!(rate[2] > 0.5, "{rate:?}");
    assert_eq!(rate[3], 0.5);
}
