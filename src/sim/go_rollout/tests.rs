use super::*;
use crate::game::go::board::{BLACK, WHITE};
use crate::game::go::Point;
use crate::game::{Game, Outcome};
use proptest::prelude::*;

const B: Color = Color::Black;
const W: Color = Color::White;

pub(super) fn at(pos: &Position, vertex: &str) -> usize {
    let letter = vertex.as_bytes()[0].to_ascii_uppercase();
    let col = (letter - b'A') as usize - (letter > b'I') as usize;
    let row: usize = vertex[1..].parse().unwrap();
    pos.point(col, row - 1).unwrap().0 as usize
}

pub(super) fn place(pos: &mut Position, color: Color, vertices: &str) {
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
                GoPolicy::Weighted3x3 => playout.weighted_move(&mut rng, false),
                GoPolicy::M2 => playout.weighted_move(&mut rng, true),
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
                // The random and weighted policies pass only when every
                // legal move would fill an own eye (Patterns may also have
                // rejected self-ataris).
                let board = pos.board();
                if policy != GoPolicy::Patterns {
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
        policy in prop::sample::select(GoPolicy::ALL.to_vec()),
    ) {
        checked_playout(size, policy, seed);
    }

    #[test]
    fn playout_results_agree_with_their_ownership(
        size in prop::sample::select(vec![5usize, 9, 19]),
        seed in any::<u64>(),
        policy in prop::sample::select(GoPolicy::ALL.to_vec()),
    ) {
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
    for policy in GoPolicy::ALL {
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
        for policy in GoPolicy::ALL {
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

// ---- The weighted policies (weights.rs) ----

fn weight_at(pos: &Position, color: Color, vertex: &str, m2: bool) -> u32 {
    weights::weight(pos.board(), stone(color), at(pos, vertex), m2)
}

#[test]
fn weights_of_open_points_and_the_first_line() {
    let pos = Position::new(9, 7.5).unwrap();
    for m2 in [false, true] {
        // No stone anywhere: base weight in the middle, less on the edge.
        assert_eq!(weight_at(&pos, B, "E5", m2), weights::W_BASE);
        assert_eq!(weight_at(&pos, W, "C3", m2), weights::W_BASE);
        for v in ["A1", "A5", "E1", "J9", "E9", "J4"] {
            assert_eq!(weight_at(&pos, B, v, m2), weights::W_EDGE_QUIET, "{v}");
        }
    }
    // A stone next to a first-line point makes it an ordinary point.
    let mut pos = Position::new(9, 7.5).unwrap();
    place(&mut pos, W, "D2");
    assert!(!patterns::matches(pos.board(), at(&pos, "E1")));
    assert_eq!(weight_at(&pos, B, "E1", false), weights::W_BASE);
    assert_eq!(weight_at(&pos, B, "F1", false), weights::W_EDGE_QUIET);
    // Occupied points weigh nothing.
    assert_eq!(weight_at(&pos, B, "D2", false), 0);
    assert_eq!(weight_at(&pos, W, "D2", true), 0);
}

#[test]
fn weights_of_patterns_captures_and_saves() {
    // Hane: Black D6 F6, White E6; E5 matches for either side.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "D6 F6");
    place(&mut pos, W, "E6");
    assert!(patterns::matches(pos.board(), at(&pos, "E5")));
    for color in [B, W] {
        assert_eq!(
            weight_at(&pos, color, "E5", false),
            weights::W_BASE + weights::W_PATTERN
        );
    }
    // White E5 in atari (liberty E4) inside Black D5 F5 E6. For Black E4
    // captures; for White it extends the chain in atari. The row above E4
    // reads X O X: the enclosing hane, a pattern too.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "D5 F5 E6");
    place(&mut pos, W, "E5");
    let e4 = at(&pos, "E4");
    assert!(patterns::matches(pos.board(), e4));
    let hane = weights::W_BASE + weights::W_PATTERN;
    assert_eq!(weight_at(&pos, B, "E4", false), hane + weights::W_CAPTURE);
    assert_eq!(weight_at(&pos, W, "E4", false), hane + weights::W_SAVE);
    // M2 doubles both (stones are near).
    assert_eq!(
        weight_at(&pos, B, "E4", true),
        weights::M2_NEAR * (hane + weights::W_CAPTURE)
    );
    // Without a pattern: White's five stones C5 D5 E5 C4 D4 in atari at E4.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "B5 C6 D6 E6 F5 B4 C3 D3");
    place(&mut pos, W, "C5 D5 E5 C4 D4");
    assert!(!patterns::matches(pos.board(), at(&pos, "E4")));
    assert_eq!(
        weight_at(&pos, B, "E4", false),
        weights::W_BASE + weights::W_CAPTURE
    );
    assert_eq!(
        weight_at(&pos, W, "E4", false),
        weights::W_BASE + weights::W_SAVE
    );
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "D5 F5 E6");
    place(&mut pos, W, "E5");
    // A chain with two liberties adds nothing: C5 next to Black D5.
    assert!(!patterns::matches(pos.board(), at(&pos, "C5")));
    assert_eq!(weight_at(&pos, W, "C5", false), weights::W_BASE);
}

#[test]
fn m2_weights_look_two_points_straight_out() {
    let mut pos = Position::new(9, 7.5).unwrap();
    place(&mut pos, B, "E5");
    let near = weights::M2_NEAR * weights::W_BASE;
    // Two steps straight out: near for M2, plain for 3x3.
    for v in ["E7", "E3", "C5", "G5"] {
        assert_eq!(weight_at(&pos, W, v, true), near, "{v}");
        assert_eq!(weight_at(&pos, W, v, false), weights::W_BASE, "{v}");
    }
    // A knight's move and a large diagonal are too far.
    for v in ["F7", "D3", "G7", "C3", "E8"] {
        assert_eq!(weight_at(&pos, W, v, true), weights::W_BASE, "{v}");
    }
    // A first-line point two below a stone: quiet edge, doubled.
    let mut pos = Position::new(9, 7.5).unwrap();
    place(&mut pos, W, "E3");
    assert_eq!(
        weight_at(&pos, B, "E1", true),
        weights::M2_NEAR * weights::W_EDGE_QUIET
    );
    assert_eq!(weight_at(&pos, B, "E1", false), weights::W_EDGE_QUIET);
    // Nothing wraps around the board's sides: J5 is not two from A5/A6.
    let mut pos = Position::new(9, 7.5).unwrap();
    place(&mut pos, B, "A6 B6");
    assert_eq!(weight_at(&pos, W, "J5", true), weights::W_EDGE_QUIET);
    assert_eq!(weight_at(&pos, W, "H6", true), weights::W_BASE);
}

#[test]
fn eyes_and_the_ko_point_weigh_nothing() {
    // Black's corner eye at A1: nothing for Black, something for White
    // (a suicide, which only the draw excludes).
    let mut pos = Position::new(5, 0.5).unwrap();
    place(&mut pos, B, "A2 B1 B2");
    for m2 in [false, true] {
        assert_eq!(weight_at(&pos, B, "A1", m2), 0);
        assert!(weight_at(&pos, W, "A1", m2) > 0);
    }
    assert!(pos.board().is_suicide(WHITE, at(&pos, "A1")));
    // Ko: White D5 takes Black E5; Black may not retake at once, White
    // may fill.
    let mut pos = Position::new(9, 0.0).unwrap();
    place(&mut pos, B, "D4 C5 D6 E5");
    place(&mut pos, W, "E4 F5 E6");
    pos.play_as(W, Move::Play(Point(at(&pos, "D5") as u16)))
        .unwrap();
    let e5 = at(&pos, "E5");
    assert_eq!(pos.board().ko(), Some((e5, BLACK)));
    for m2 in [false, true] {
        assert_eq!(weight_at(&pos, B, "E5", m2), 0);
        assert!(weight_at(&pos, W, "E5", m2) > 0);
    }
}

#[test]
fn weighted_draws_follow_the_weights() {
    // A small position with many kinds of weight: a capture (B3 takes
    // C3), a save (D2 extends D3), quiet edges, occupied points (0) and a
    // suicide for White (A1, drawn, then excluded).
    let mut pos = Position::new(5, 0.5).unwrap();
    place(&mut pos, B, "A2 B1 B2 C3 D4 E3");
    place(&mut pos, W, "C2 D3 B4 C4");
    pos.set_to_move(W);
    for m2 in [false, true] {
        let board = pos.board();
        let color = WHITE;
        let weights = weights::Weights::compute(board, color, m2);
        let mut expected = [0u32; 25];
        let mut total = 0;
        for (k, slot) in expected.iter_mut().enumerate() {
            let p = board.point_at(k % 5, k / 5);
            if !board.is_suicide(color, p) {
                *slot = weights.w[k];
                total += weights.w[k];
            }
        }
        assert!(weights.total > total, "a suicide to exclude");
        assert!(expected.iter().filter(|&&w| w > 0).count() >= 8);
        let draws = 200_000u32;
        let mut counts = [0u32; 25];
        let mut rng = FastRng::new(m2 as u64 + 1);
        for _ in 0..draws {
            let mut playout = Playout::new(&pos);
            let p = playout.weighted_move(&mut rng, m2).unwrap();
            counts[board.dense_index(p)] += 1;
        }
        let mut worst = 0.0f64;
        for k in 0..25 {
            let prob = expected[k] as f64 / total as f64;
            if prob == 0.0 {
                assert_eq!(counts[k], 0, "point {k} has weight 0");
                continue;
            }
            let se = (draws as f64 * prob * (1.0 - prob)).sqrt();
            let z = (counts[k] as f64 - draws as f64 * prob).abs() / se;
            worst = worst.max(z);
        }
        println!("weighted draws, m2 {m2}: worst z {worst:.2} over {draws} draws");
        assert!(worst < 4.0, "m2 {m2}: worst z {worst:.2}");
    }
}

#[test]
fn weighted_playouts_pass_only_when_nothing_is_left() {
    // Only Black's two eyes are empty: Black passes, White's moves there
    // are suicides, so White passes too and the game ends at once.
    let mut pos = Position::new(3, 0.5).unwrap();
    place(&mut pos, B, "A2 B2 C2 B1 B3");
    for policy in [GoPolicy::Weighted3x3, GoPolicy::M2] {
        for seed in 0..10 {
            let (result, record, owner) = run_one(&pos, policy, seed);
            assert_eq!(result.moves, 2, "{policy:?}");
            assert_eq!(result.score, 9.0 - 0.5);
            assert!(record.first.iter().all(Option::is_none));
            assert!(owner[..9].iter().all(|&o| o == 1));
        }
    }
}

#[test]
fn weighted_policies_capture_more_than_random() {
    // White's big chain in atari: the weighted policies take it far more
    // often on Black's first move than the uniform policy does.
    let mut pos = Position::new(9, 7.5).unwrap();
    place(&mut pos, W, "D5 E5 F5");
    place(&mut pos, B, "C5 G5 D6 E6 F6 D4 E4");
    let f4 = at(&pos, "F4");
    let rate = |policy: GoPolicy| {
        let mut rng = FastRng::new(3);
        let mut hits = 0;
        for _ in 0..2000 {
            let mut playout = Playout::new(&pos);
            let p = match policy {
                GoPolicy::Random => playout.random_move::<false>(&mut rng),
                GoPolicy::Weighted3x3 => playout.weighted_move(&mut rng, false),
                _ => playout.weighted_move(&mut rng, true),
            };
            hits += (p == Some(f4)) as u32;
        }
        hits as f64 / 2000.0
    };
    let random = rate(GoPolicy::Random);
    assert!(random < 0.05, "{random}");
    for policy in [GoPolicy::Weighted3x3, GoPolicy::M2] {
        let weighted = rate(policy);
        assert!(weighted > 0.1 && weighted > 4.0 * random, "{weighted}");
    }
}

#[test]
fn kernel_weights_match_the_cpu_constants() {
    let source = include_str!("../../../kernels/go_weights.cu");
    let define = |name: &str| -> u32 {
        let line = source
            .lines()
            .find(|l| l.starts_with(&format!("#define {name} ")))
            .unwrap_or_else(|| panic!("no #define {name} in go_weights.cu"));
        line.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    assert_eq!(define("GW_BASE"), weights::W_BASE);
    assert_eq!(define("GW_EDGE_QUIET"), weights::W_EDGE_QUIET);
    assert_eq!(define("GW_PATTERN"), weights::W_PATTERN);
    assert_eq!(define("GW_CAPTURE"), weights::W_CAPTURE);
    assert_eq!(define("GW_SAVE"), weights::W_SAVE);
    assert_eq!(define("GW_M2_NEAR"), weights::M2_NEAR);
    // The largest weight times 361 points must fit a u32 sum.
    let max = weights::M2_NEAR
        * (weights::W_BASE + weights::W_PATTERN + weights::W_CAPTURE + weights::W_SAVE);
    assert!(max as u64 * 361 < 1 << 31);
}
