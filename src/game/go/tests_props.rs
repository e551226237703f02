//! Property tests: the fast board against a deliberately naive model of the
//! rules (flood fills, whole-board snapshots for superko), over random games.

use super::board::{BLACK, EMPTY, WHITE};
use super::*;
use crate::game::rng::FastRng;
use crate::game::{Color, Game};
use proptest::prelude::*;

/// The rules written as plainly as possible: a grid of cells, captures by
/// flood fill, positional superko by comparing snapshots.
#[derive(Clone)]
struct Naive {
    size: usize,
    cells: Vec<u8>,
    history: Vec<Vec<u8>>,
}

impl Naive {
    fn new(size: usize) -> Naive {
        let cells = vec![EMPTY; size * size];
        Naive {
            size,
            history: vec![cells.clone()],
            cells,
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (col, row) = (i % self.size, i / self.size);
        let mut out = Vec::new();
        if col > 0 {
            out.push(i - 1);
        }
        if col + 1 < self.size {
            out.push(i + 1);
        }
        if row > 0 {
            out.push(i - self.size);
        }
        if row + 1 < self.size {
            out.push(i + self.size);
        }
        out
    }

    /// The chain (or empty region) through `i` and whether it touches an
    /// empty point outside itself (a liberty, for a chain).
    fn chain(cells: &[u8], naive: &Naive, i: usize) -> (Vec<usize>, bool) {
        let color = cells[i];
        let mut members = vec![i];
        let mut free = false;
        let mut k = 0;
        while k < members.len() {
            for q in naive.neighbours(members[k]) {
                if cells[q] == color && !members.contains(&q) {
                    members.push(q);
                } else if cells[q] == EMPTY && color != EMPTY {
                    free = true;
                }
            }
            k += 1;
        }
        (members, free)
    }

    /// The board after `color` plays at `i`, or `None` if illegal.
    fn after(&self, color: u8, i: usize) -> Option<Vec<u8>> {
        if self.cells[i] != EMPTY {
            return None;
        }
        let mut cells = self.cells.clone();
        cells[i] = color;
        for q in self.neighbours(i) {
            if cells[q] == (color ^ 3) {
                let (members, free) = Self::chain(&cells, self, q);
                if !free {
                    for m in members {
                        cells[m] = EMPTY;
                    }
                }
            }
        }
        let (_, free) = Self::chain(&cells, self, i);
        if !free || self.history.contains(&cells) {
            return None;
        }
        Some(cells)
    }

    fn area_difference(&self) -> i32 {
        let mut score = 0;
        for i in 0..self.cells.len() {
            score += match self.cells[i] {
                BLACK => 1,
                WHITE => -1,
                _ => {
                    // Which colours does this point's empty region reach?
                    let (region, _) = Self::chain(&self.cells, self, i);
                    let touches = |c: u8| {
                        region
                            .iter()
                            .any(|&r| self.neighbours(r).iter().any(|&q| self.cells[q] == c))
                    };
                    match (touches(BLACK), touches(WHITE)) {
                        (true, false) => 1,
                        (false, true) => -1,
                        _ => 0,
                    }
                }
            };
        }
        score
    }
}

fn stone_of(color: Color) -> u8 {
    board::stone(color)
}

/// Plays a random game (passes now and then, both colours' legality
/// checked every move) and compares everything with the naive model.
fn random_game_matches_naive_model(size: usize, seed: u64, max_moves: usize) {
    let mut pos = Position::new(size, 0.5).unwrap();
    let mut naive = Naive::new(size);
    let mut rng = FastRng::new(seed);
    for _ in 0..max_moves {
        for color in Color::BOTH {
            let fast: Vec<usize> = pos
                .legal_points_as(color)
                .into_iter()
                .map(|p| pos.move_index(Move::Play(p)))
                .collect();
            let slow: Vec<usize> = (0..size * size)
                .filter(|&i| naive.after(stone_of(color), i).is_some())
                .collect();
            assert_eq!(fast, slow, "legal points of {color} differ\n{pos:?}");
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        // Mostly plays; a pass one time in ten (which may end the game).
        let mv = if rng.below(10) == 0 {
            Move::Pass
        } else {
            moves[rng.below(moves.len() as u32) as usize]
        };
        assert!(pos.is_legal(mv));
        let color = pos.to_move();
        pos.play(mv).unwrap();
        if matches!(mv, Move::Play(_)) {
            let i = pos.move_index(mv);
            naive.cells = naive.after(stone_of(color), i).unwrap();
            naive.history.push(naive.cells.clone());
        }
        pos.board().check_invariants().unwrap();
        for (i, p) in pos.points().enumerate() {
            let cell = pos.color_at(p).map_or(EMPTY, stone_of);
            assert_eq!(cell, naive.cells[i]);
        }
        assert_eq!(pos.area_score(), naive.area_difference() as f32 - 0.5);
    }
}

/// `is_self_atari` against playing the move on a copy and counting.
fn self_atari_matches_trial_play(pos: &Position) {
    let board = pos.board();
    for p in board.points() {
        for color in [BLACK, WHITE] {
            if !board.is_legal(color, p) {
                continue;
            }
            let mut trial = *board;
            let captured = trial.play(color, p);
            let mut libs = [0usize; 8];
            let expected = captured == 0 && trial.liberties(p, 2, &mut libs) < 2;
            assert_eq!(
                board.is_self_atari(color, p),
                expected,
                "{color} at {p}\n{board:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn self_atari_is_exact(size in 3usize..=9, seed in any::<u64>(), length in 0usize..120) {
        let mut pos = Position::new(size, 0.5).unwrap();
        let mut rng = FastRng::new(seed);
        let mut moves = Vec::new();
        for _ in 0..length {
            pos.legal_moves(&mut moves);
            if moves.len() <= 1 {
                break;
            }
            let mv = moves[rng.below(moves.len() as u32 - 1) as usize];
            pos.play(mv).unwrap();
        }
        self_atari_matches_trial_play(&pos);
    }

    #[test]
    fn small_boards_follow_the_naive_rules(size in 2usize..=6, seed in any::<u64>()) {
        random_game_matches_naive_model(size, seed, 120);
    }

    #[test]
    fn fast_path_games_keep_the_board_consistent(
        size in prop::sample::select(vec![5usize, 9, 13, 19, 25]),
        seed in any::<u64>(),
    ) {
        // Random play through `play_unchecked`, as the search does.
        let mut pos = Position::new(size, 7.5).unwrap();
        let mut rng = FastRng::new(seed);
        let mut moves = Vec::new();
        for _ in 0..size * size * 2 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u32) as usize];
            prop_assert!(pos.is_legal(mv));
            pos.play_unchecked(mv);
        }
        prop_assert_eq!(pos.board().check_invariants(), Ok(()));
    }
}

#[test]
fn a_long_game_on_a_tiny_board_hits_superko_and_stays_exact() {
    // 3x3 and 4x4 games cycle through captures quickly; run many seeds.
    for seed in 0..40 {
        random_game_matches_naive_model(3, seed, 150);
        random_game_matches_naive_model(4, seed, 100);
    }
}
