//! Split endgames: once no region of open squares holds queens of both
//! sides, the game is a race — each side moves only in its own regions,
//! the side to move first runs out loses, so the side to move wins exactly
//! when it can make more moves there than its opponent can in theirs.
//!
//! A side's moves in a region are at most the region's empty squares
//! (every move blocks one more square with its arrow and frees none for
//! good), and at least the longest sequence a bounded depth-first search
//! finds. The result is proven only when these bounds decide the race:
//! a region that cannot be filled (Buro's "defective" territories, in
//! "Simple Amazons Endgames and Their Connection to Hamilton Circuits in
//! Cubic Subgrid Graphs") or that the search could not fill within its
//! budget leaves the position to the search's evaluation, so a proof is
//! never wrong.

use super::bitboard::{bit, king_step, queen_reach, Squares};
use super::Position;
use crate::game::{Color, Game, Outcome};

/// Most positions the search for a long move sequence visits per region
/// before it settles for the longest it found: a few milliseconds at
/// most, paid once per tree node that reaches a split position.
pub const REGION_BUDGET: u32 = 2_000;

/// The squares connected to `seed` by king steps through `empty`, `seed`
/// included.
fn region(seed: u128, empty: u128) -> u128 {
    let mut r = seed;
    loop {
        let next = r | king_step(r, empty);
        if next == r {
            return r;
        }
        r = next;
    }
}

/// The bounds `(at least, at most)` on the moves `color` can make in its
/// regions, searching each region for at least `want` moves in all (the
/// search stops once the regions together reach it), or `None` when a
/// region holds queens of both sides.
fn bounds(pos: &Position, color: Color, want: u32) -> Option<(u32, u32)> {
    let empty = pos.empty();
    let (own, other) = (pos.queens(color), pos.queens(color.opponent()));
    let (mut low, mut high) = (0u32, 0u32);
    let mut left = own;
    let mut regions = Vec::new();
    while left != 0 {
        let seed = left & left.wrapping_neg();
        let r = region(seed, empty | own);
        if king_step(r, other) != 0 {
            return None;
        }
        left &= !r;
        let squares = (r & empty).count_ones();
        high += squares;
        regions.push((r & own, r & empty, squares));
    }
    for (queens, open, squares) in regions {
        if low >= want {
            break;
        }
        let mut fill = Fill {
            budget: REGION_BUDGET,
            best: 0,
            target: squares.min(want - low),
        };
        fill.dive(queens, open, 0);
        low += fill.best;
    }
    Some((low, high))
}

/// The longest move sequence of one side's queens `queens` in one region
/// whose empty squares are `open`, by depth-first search.
struct Fill {
    budget: u32,
    best: u32,
    /// Enough: the search stops once it reaches this.
    target: u32,
}

impl Fill {
    fn dive(&mut self, queens: u128, open: u128, depth: u32) {
        self.best = self.best.max(depth);
        if self.best >= self.target || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let blocked = !open;
        // Arrows into the squares with the fewest open neighbours first:
        // filling the region from its dead ends keeps the rest connected,
        // so the first dive usually fills it.
        let mut moves: Vec<(u32, u128, u128)> = Vec::new();
        for from in Squares(queens) {
            let without = blocked & !bit(from);
            for to in Squares(queen_reach(from, blocked)) {
                let q = (queens & !bit(from)) | bit(to);
                let o = (open | bit(from)) & !bit(to);
                for arrow in Squares(queen_reach(to, without | bit(to))) {
                    let after = o & !bit(arrow);
                    let free = king_step(bit(arrow), after).count_ones();
                    moves.push((free, q, after));
                }
            }
        }
        moves.sort_by_key(|m| m.0);
        for (_, q, after) in moves {
            self.dive(q, after, depth + 1);
            if self.best >= self.target || self.budget == 0 {
                return;
            }
        }
    }
}

/// The winner of a split position when the bounds on both sides' moves
/// decide it (see the module comment); `None` while the armies share a
/// region or the bounds do not decide.
pub fn split_winner(pos: &Position) -> Option<Outcome> {
    let mover = pos.to_move();
    // Upper bounds first (no search): they say which proof to look for.
    let (_, mine) = bounds(pos, mover, 0)?;
    let (_, theirs) = bounds(pos, mover.opponent(), 0)?;
    if mine > theirs {
        // The mover wins with more moves than the opponent can make.
        let (low, _) = bounds(pos, mover, theirs + 1)?;
        (low > theirs).then_some(Outcome::Win(mover))
    } else {
        // The opponent wins with as many moves as the mover can make.
        let (low, _) = bounds(pos, mover.opponent(), mine)?;
        (low >= mine).then_some(Outcome::Win(mover.opponent()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::amazons::bitboard::bit_index;
    use crate::game::rng::FastRng;
    use std::collections::HashMap;

    /// The set of the named squares ("a1", "f6").
    fn squares(names: &[&str]) -> u128 {
        names
            .iter()
            .map(|n| {
                let file = (n.as_bytes()[0] - b'a') as usize;
                let rank: usize = n[1..].parse().unwrap();
                bit(bit_index(file, rank - 1))
            })
            .fold(0, |a, b| a | b)
    }

    /// Arrows on every square of the named files of a 6x6 board.
    fn walls(files: &str) -> u128 {
        let mut out = 0;
        for f in files.bytes() {
            for r in 0..6 {
                out |= bit(bit_index((f - b'a') as usize, r));
            }
        }
        out
    }

    fn position(white: &[&str], black: &[&str], arrows: u128, to_move: Color) -> Position {
        Position::from_sets(6, squares(white), squares(black), arrows, to_move).unwrap()
    }

    #[test]
    fn armies_that_share_a_region_are_not_split() {
        assert_eq!(split_winner(&Position::new(10).unwrap()), None);
        // A wall that leaves a queen of each side on its right.
        let pos = position(&["a1", "e1"], &["f6"], walls("c"), Color::White);
        assert_eq!(split_winner(&pos), None);
    }

    #[test]
    fn the_side_with_more_room_wins_whoever_moves() {
        // File c walled: White's queen has the 11 other squares of a-b,
        // Black's the 17 of d-f.
        for to_move in [Color::White, Color::Black] {
            let pos = position(&["a1"], &["f6"], walls("c"), to_move);
            assert_eq!(split_winner(&pos), Some(Outcome::Win(Color::Black)));
        }
    }

    #[test]
    fn with_equal_room_the_side_to_move_loses() {
        // Files c and d walled: 11 squares each side.
        for to_move in [Color::White, Color::Black] {
            let pos = position(&["a1"], &["f6"], walls("cd"), to_move);
            assert_eq!(
                split_winner(&pos),
                Some(Outcome::Win(to_move.opponent())),
                "{to_move:?} to move"
            );
        }
    }

    /// Whether the side to move wins, by searching the whole game.
    fn solve(pos: &Position, memo: &mut HashMap<(u128, u128, u128, Color), bool>) -> bool {
        let key = (
            pos.queens(Color::White),
            pos.queens(Color::Black),
            pos.arrows(),
            pos.to_move(),
        );
        if let Some(&win) = memo.get(&key) {
            return win;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let win = moves.iter().any(|&mv| {
            let mut next = pos.clone();
            next.apply(mv);
            !solve(&next, memo)
        });
        memo.insert(key, win);
        win
    }

    #[test]
    fn every_proof_agrees_with_a_full_search_of_small_endings() {
        // Random 6x6 games down to nine empty squares; wherever the split
        // count proves a winner, the whole game tree must agree.
        let (mut proven, mut checked) = (0, 0);
        let mut moves = Vec::new();
        for seed in 0..2000 {
            let mut rng = FastRng::new(seed);
            let mut pos = Position::new(6).unwrap();
            while pos.empty().count_ones() > 9 && pos.outcome().is_none() {
                pos.legal_moves(&mut moves);
                pos.apply(moves[rng.below(moves.len() as u32) as usize]);
            }
            if pos.outcome().is_some() {
                continue;
            }
            checked += 1;
            if let Some(Outcome::Win(winner)) = split_winner(&pos) {
                proven += 1;
                let mover_wins = solve(&pos, &mut HashMap::new());
                assert_eq!(winner == pos.to_move(), mover_wins, "seed {seed}");
            }
        }
        assert!(
            checked > 500 && proven > 25,
            "{checked} checked, {proven} proven"
        );
    }
}
