use super::*;
use crate::game::connect4::{mix, Shape};
use crate::game::Game;
use std::collections::HashMap;

/// The plain reference: full-depth minimax over every move, memoised by
/// key, no pruning and no move rules beyond the game's own. The score as
/// the convention defines it: a stone that makes four after `m` stones
/// scores `(C + 1 - m) / 2` for its player.
fn reference(pos: &Position, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.key()) {
        return v;
    }
    let cells = pos.shape().cells() as i32;
    let n = pos.moves() as i32;
    let mut best = None::<i32>;
    for c in 0..pos.width() {
        if !pos.can_play(c) {
            continue;
        }
        let mut child = *pos;
        child.play_column(c);
        let v = if child.is_won() {
            (cells + 1 - n) / 2
        } else if child.outcome().is_some() {
            0
        } else {
            -reference(&child, memo)
        };
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    let v = best.expect("a position not over has a move");
    memo.insert(pos.key(), v);
    v
}

/// Random positions of `plies` stones that are not over.
fn random_positions(shape: Shape, plies: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = seed;
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::empty(shape);
        let mut moves = Vec::new();
        while pos.moves() < plies && pos.outcome().is_none() {
            pos.legal_moves(&mut moves);
            rng = mix(rng);
            pos.play_column(moves[(rng % moves.len() as u64) as usize] as usize);
        }
        if pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

fn check_against_reference(width: usize, height: usize, plies: &[u32], per_ply: usize) {
    let shape = Shape::new(width, height).unwrap();
    let table = Table::new(1 << 16);
    let mut memo = HashMap::new();
    for &p in plies {
        for pos in random_positions(shape, p, per_ply, 7 + p as u64) {
            let want = reference(&pos, &mut memo);
            let mut solver = Solver::new(&table, width);
            assert_eq!(
                solver.solve(&pos, false),
                Some(want),
                "{width}x{height}\n{pos}"
            );
            assert_eq!(solver.solve(&pos, true), Some(want.signum()), "{pos}");
            // Each column's score is the reference's after that move.
            let scores = solver.analyze(&pos, false).unwrap();
            let best = scores.iter().flatten().max().copied();
            assert_eq!(best, Some(want), "{pos}");
        }
    }
}

#[test]
fn solver_agrees_with_plain_minimax_on_4x4_from_the_empty_board() {
    check_against_reference(4, 4, &[0, 1, 2, 3, 5, 8, 11], 20);
}

#[test]
fn solver_agrees_with_plain_minimax_on_5x4_and_4x5() {
    check_against_reference(5, 4, &[0, 2, 6, 10], 15);
    check_against_reference(4, 5, &[1, 4, 9], 15);
}

#[test]
fn solver_agrees_with_plain_minimax_on_5x5_late_positions() {
    check_against_reference(5, 5, &[12, 16], 10);
}

#[test]
fn known_7x6_scores_in_pons_convention() {
    let shape = Shape::new(7, 6).unwrap();
    let table = Table::new(1 << 20);
    // The side to move wins at once: 22 minus its 4 stones.
    let pos = Position::from_moves(shape, "112233").unwrap();
    assert_eq!(Solver::new(&table, 7).solve(&pos, false), Some(18));
    // After the win nothing may be played.
    assert_eq!(Position::from_moves(shape, "11223344"), Err(7));
    // X holds 2 and 3 on the bottom row and plays 4: threats at 1 and 5,
    // O blocks one, X's 4th stone (the 7th of the game) makes four: 22 - 4
    // for X, so -18 for O to move.
    let pos = Position::from_moves(shape, "26364").unwrap();
    assert_eq!(Solver::new(&table, 7).solve(&pos, false), Some(-18));
}

#[test]
fn describe_names_the_winner_and_the_stones_left() {
    // 7x6 empty board, score +1: the first player's 21st (last) stone.
    assert_eq!(describe(1, 42, 0), "win in 21");
    // Side to move wins at once.
    assert_eq!(describe(18, 42, 6), "win in 1");
    // The opponent wins with its first stone from now.
    assert_eq!(describe(-17, 42, 7), "loss in 1");
    assert_eq!(describe(0, 42, 3), "draw");
}

#[test]
fn a_raised_stop_flag_ends_the_search_without_an_answer() {
    let stop = AtomicBool::new(true);
    let table = Table::new(1 << 16);
    let pos = Position::standard();
    let mut solver = Solver::new(&table, 7).with_stop(&stop);
    assert_eq!(solver.solve(&pos, false), None);
}

#[test]
fn centre_order_goes_outwards() {
    assert_eq!(centre_order(7), [3, 2, 4, 1, 5, 0, 6]);
    assert_eq!(centre_order(4), [1, 2, 0, 3]);
    assert_eq!(centre_order(8), [3, 4, 2, 5, 1, 6, 0, 7]);
}

#[test]
fn threads_sharing_a_table_find_the_same_scores() {
    // 7x6 at 12 stones: 30 empty cells, so the threads put off each
    // other's moves (`SHARE_MIN_EMPTY`).
    for (width, height, plies) in [(5, 4, 2), (5, 5, 10), (7, 6, 24), (7, 6, 12)] {
        let shape = Shape::new(width, height).unwrap();
        for pos in random_positions(shape, plies, 6, 3 + plies as u64) {
            let alone = Solver::new(&Table::new(1 << 18), width).solve(&pos, false);
            let (shared, _) = solve_shared(&Table::new(1 << 18), &pos, false, 3);
            assert_eq!(shared, alone, "{pos}");
        }
    }
}

#[test]
fn a_position_and_its_mirror_image_share_one_key() {
    let shape = Shape::new(7, 6).unwrap();
    let board = |moves: &str| Board::<7, 6>::new(&Position::from_moves(shape, moves).unwrap());
    let (key, mirrored) = board("1124").canonical_key();
    let (mirror_key, mirror_mirrored) = board("7764").canonical_key();
    assert_eq!(key, mirror_key);
    assert_ne!(mirrored, mirror_mirrored);
    // A symmetric position is its own mirror image.
    assert_eq!(board("4444").canonical_key(), (board("4444").key(), false));
    assert_ne!(
        board("1124").canonical_key().0,
        board("1134").canonical_key().0
    );
}

#[test]
fn winning_move_finds_a_win_exactly_where_the_reference_sees_one() {
    let shape = Shape::new(5, 4).unwrap();
    let table = Table::new(1 << 16);
    let mut memo = HashMap::new();
    let mut wins = 0;
    for plies in [2, 5, 8, 11] {
        for pos in random_positions(shape, plies, 40, 7 + plies as u64) {
            let found = Solver::new(&table, 5).winning_move(&pos).unwrap();
            let score = reference(&pos, &mut memo);
            match found {
                Some(c) => {
                    wins += 1;
                    let mut child = pos;
                    child.play_column(c);
                    assert!(
                        child.is_won() || reference(&child, &mut memo) < 0,
                        "{pos:?}: column {c} does not win"
                    );
                }
                None => assert!(score <= 0, "{pos:?}: a win of {score} missed"),
            }
        }
    }
    assert!(wins > 10, "the sample holds wins ({wins})");
    // A stopped search says nothing.
    let stop = AtomicBool::new(true);
    let pos = Position::empty(Shape::new(7, 6).unwrap());
    let big = Table::new(1 << 16);
    assert_eq!(
        Solver::new(&big, 7).with_stop(&stop).winning_move(&pos),
        None
    );
}

/// Checks the zugzwang rules of the search against the plain reference on
/// random positions of a `W` x `H` board; how often each one fired.
fn zugzwang_rules_hold<const W: usize, const H: usize>(plies: &[u32], per_ply: usize) -> [u32; 4] {
    let shape = Shape::new(W, H).unwrap();
    let mut memo = HashMap::new();
    let mut fired = [0; 4];
    for &p in plies {
        for pos in random_positions(shape, p, per_ply, 11 + p as u64) {
            let board = Board::<W, H>::new(&pos);
            if board.can_win_next() {
                continue;
            }
            let score = reference(&pos, &mut memo);
            if board.claimeven_holds() {
                assert!(score <= 0, "claimeven, yet {score}\n{pos}");
                fired[0] += 1;
            }
            if board.claimeven_reply() {
                assert!(score >= 0, "a claimeven reply, yet {score}\n{pos}");
                fired[1] += 1;
            }
            let win = board.odd_threat_win();
            if win > 0 {
                assert!(score <= -win, "odd threat wins {win}, yet {score}\n{pos}");
                fired[2] += 1;
            }
            let win = board.odd_threat_move();
            if win > 0 {
                assert!(
                    score >= win,
                    "a move to an odd threat wins {win}, yet {score}\n{pos}"
                );
                fired[3] += 1;
            }
        }
    }
    fired
}

#[test]
fn zugzwang_rules_agree_with_plain_minimax() {
    let mut fired = [0; 4];
    for counts in [
        zugzwang_rules_hold::<5, 4>(&[4, 6, 8, 10, 12, 14], 60),
        zugzwang_rules_hold::<6, 4>(&[8, 10, 12, 14, 16], 40),
        zugzwang_rules_hold::<4, 6>(&[8, 10, 12, 13, 14, 16], 60),
        zugzwang_rules_hold::<6, 6>(&[19, 20, 21, 22, 23, 24], 60),
        zugzwang_rules_hold::<7, 6>(&[25, 26, 27, 28, 29, 30], 60),
    ] {
        for (all, n) in fired.iter_mut().zip(counts) {
            *all += n;
        }
    }
    // Each rule was put to the test, not only skipped.
    assert!(fired.iter().all(|&n| n >= 10), "fired {fired:?}");
}
