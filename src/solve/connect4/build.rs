//! The state-space build of the PAPO lab report on Connect Four, in one
//! process: every position reachable from the empty board, level by level (a level is the positions with the
//! same number of stones), each level's duplicates merged by sorting its
//! keys; then the exact values backed up from the last level to the first
//! (each position's score is the best of its children's negated scores).
//! Scores follow the solver's convention, so the two check each other.

use crate::game::connect4::{Position, Shape};

/// One level: its positions' keys, sorted, and their scores for the side
/// to move (`None` until the backward pass has reached the level).
pub struct Level {
    pub keys: Vec<u64>,
    pub scores: Vec<i8>,
}

/// The whole state space of one board.
pub struct Database {
    pub shape: Shape,
    pub levels: Vec<Level>,
}

impl Database {
    /// Enumerates every reachable position and backs the values up.
    /// `on_level(n, count)` hears each level's size as it is made.
    pub fn build(shape: Shape, mut on_level: impl FnMut(usize, usize)) -> Database {
        let cells = shape.cells() as usize;
        let mut levels: Vec<Vec<u64>> = vec![vec![Position::empty(shape).key()]];
        on_level(0, 1);
        for n in 0..cells {
            let mut next = Vec::with_capacity(levels[n].len() * 4);
            for &key in &levels[n] {
                let pos = Position::from_key(shape, key);
                if pos.is_won() {
                    continue;
                }
                for c in 0..shape.width as usize {
                    if pos.can_play(c) {
                        let mut child = pos;
                        child.play_column(c);
                        next.push(child.key());
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            on_level(n + 1, next.len());
            levels.push(next);
        }
        let mut db = Database {
            shape,
            levels: levels
                .into_iter()
                .map(|keys| Level {
                    scores: vec![0; keys.len()],
                    keys,
                })
                .collect(),
        };
        db.back_up();
        db
    }

    /// The backward pass, last level first.
    fn back_up(&mut self) {
        let cells = self.shape.cells() as i32;
        for n in (0..self.levels.len()).rev() {
            let (this, later) = self.levels.split_at_mut(n + 1);
            let level = &mut this[n];
            let children = later.first();
            for (i, &key) in level.keys.iter().enumerate() {
                let pos = Position::from_key(self.shape, key);
                level.scores[i] = if pos.is_won() {
                    // The opponent's stone, played on n - 1 stones, made four.
                    (-(cells + 2 - n as i32) / 2) as i8
                } else if n as i32 == cells {
                    0
                } else {
                    let children = children.expect("a position not over has children");
                    let mut best = i32::MIN;
                    for c in 0..self.shape.width as usize {
                        if pos.can_play(c) {
                            let mut child = pos;
                            child.play_column(c);
                            let at = children
                                .keys
                                .binary_search(&child.key())
                                .expect("every child is in the next level");
                            best = best.max(-(children.scores[at] as i32));
                        }
                    }
                    best as i8
                };
            }
        }
    }

    /// The score of `pos` (a position of this board) for the side to move.
    pub fn score(&self, pos: &Position) -> Option<i32> {
        let level = self.levels.get(pos.moves() as usize)?;
        let at = level.keys.binary_search(&pos.key()).ok()?;
        Some(level.scores[at] as i32)
    }

    /// Positions in all levels.
    pub fn len(&self) -> usize {
        self.levels.iter().map(|l| l.keys.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::connect4::{Solver, Table};

    #[test]
    fn levels_hold_each_position_once() {
        // 4 first stones, 16 pairs; from three stones on, transpositions
        // merge (two X stones in either order).
        let shape = Shape::new(4, 4).unwrap();
        let mut counts = Vec::new();
        let db = Database::build(shape, |_, count| counts.push(count));
        assert_eq!(counts.len(), 17);
        assert_eq!(&counts[..3], &[1, 4, 16]);
        assert!(counts[3] < 64);
        assert_eq!(db.len(), counts.iter().sum::<usize>());
    }

    fn check_every_position(width: usize, height: usize, step: usize) {
        let shape = Shape::new(width, height).unwrap();
        let db = Database::build(shape, |_, _| {});
        let table = Table::new(1 << 18);
        for level in &db.levels {
            for (i, &key) in level.keys.iter().enumerate().step_by(step) {
                let pos = Position::from_key(shape, key);
                if crate::game::Game::outcome(&pos).is_some() {
                    continue;
                }
                let want = Solver::new(&table, width).solve(&pos, false);
                assert_eq!(Some(level.scores[i] as i32), want, "{pos}");
            }
        }
    }

    #[test]
    fn every_4x4_position_has_the_solvers_value() {
        check_every_position(4, 4, 1);
    }

    #[test]
    fn sampled_5x4_positions_have_the_solvers_value() {
        check_every_position(5, 4, 97);
    }
}
