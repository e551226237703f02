//! Ladder reading for the tree's priors (michi reads ladders the same
//! way; the code is ours). Playouts cannot read a ladder: a chain that
//! runs out of atari into a ladder looks saved to them, and a ladder
//! capture looks like any other atari. GNU Go reads both, so without this
//! the tree gave its best prior to running in a lost ladder and none to
//! starting a won one.
//!
//! Two mutually recursive reads on copies of the board, one copy per ply:
//! - `attack`: the chain has two liberties and the attacker is to move.
//!   Atari on either liberty works when the defender then has no escape.
//! - `defend`: the chain is in atari and the defender is to move. It
//!   escapes by capturing a neighbouring chain in atari or by extending
//!   on its liberty, when the result has three liberties or two that
//!   `attack` cannot take.
//!
//! Only ataris are tried, so a "ladder" here is a capture by ataris alone;
//! nets and loose ladders are not seen. When a reader has made
//! [`NODE_BUDGET`] plays (over all its reads: one reader serves one
//! expansion's priors) or a read reaches [`MAX_DEPTH`] plies, the defender
//! is taken to escape: a prior that is missing costs less than a wrong one.

use crate::game::go::board::{other, Board, EMPTY};

/// Plays one reader may make in all (a ladder across a 19x19 board is
/// about 40 plays, and the wrong-side ataris fail at once), so that a
/// position full of two-liberty chains cannot make one expansion slow.
const NODE_BUDGET: usize = 400;
/// Deepest ply read.
const MAX_DEPTH: usize = 80;

/// Reads ladders on copies of one board; keeps its copies between reads.
pub(super) struct LadderReader {
    /// One board per ply, boxed so that growing the list moves pointers,
    /// not 17 KB boards.
    boards: Vec<Box<Board>>,
    nodes: usize,
}

impl LadderReader {
    pub(super) fn new() -> LadderReader {
        LadderReader {
            boards: Vec::new(),
            nodes: 0,
        }
    }

    /// Whether the chain through `stone` is lost to a ladder: with its
    /// owner's opponent to move, the liberty to atari it on that wins;
    /// `None` when it has no two liberties or escapes every atari.
    pub(super) fn capture_move(&mut self, board: &Board, stone: usize) -> Option<usize> {
        if liberty_count(board, stone) != 2 {
            return None;
        }
        self.start(board);
        self.attack(0, stone)
    }

    /// Whether extending the chain through `stone`, in atari, on its
    /// liberty saves it: the extended chain has three liberties or more,
    /// or two that no ladder takes. `false` when the extension is illegal.
    pub(super) fn extension_escapes(&mut self, board: &Board, stone: usize) -> bool {
        let Some(liberty) = board.atari_liberty(stone) else {
            return false;
        };
        self.start(board);
        self.extend(0, stone, liberty)
    }

    fn start(&mut self, board: &Board) {
        if self.boards.is_empty() {
            self.boards.push(Box::new(*board));
        } else {
            self.boards[0].copy_from(board);
        }
    }

    /// Board `depth + 1` set to board `depth` with `color` played at `p`,
    /// or `false` (nothing played) when that is illegal or the budget is
    /// spent.
    fn play(&mut self, depth: usize, color: u8, p: usize) -> bool {
        if self.out_of_budget(depth) || !self.boards[depth].is_legal(color, p) {
            return false;
        }
        self.nodes += 1;
        if self.boards.len() == depth + 1 {
            let copy = Box::new(*self.boards[depth]);
            self.boards.push(copy);
        } else {
            let (done, next) = self.boards.split_at_mut(depth + 1);
            next[0].copy_from(&done[depth]);
        }
        self.boards[depth + 1].play(color, p);
        true
    }

    fn out_of_budget(&self, depth: usize) -> bool {
        self.nodes >= NODE_BUDGET || depth + 1 >= MAX_DEPTH
    }

    /// Board `depth`, attacker to move, the chain through `stone` with two
    /// liberties: the atari that captures it, if any.
    fn attack(&mut self, depth: usize, stone: usize) -> Option<usize> {
        let board = &self.boards[depth];
        let attacker = other(board.cell(stone));
        let mut libs = [0usize; 8];
        let n = board.liberties(stone, 2, &mut libs);
        for &liberty in &libs[..n] {
            if !self.play(depth, attacker, liberty) {
                continue;
            }
            let next = &self.boards[depth + 1];
            // An atari that got its own stones captured is no atari.
            if next.cell(stone) != EMPTY && next.in_atari(stone) && !self.defend(depth + 1, stone) {
                return Some(liberty);
            }
        }
        None
    }

    /// Board `depth`, defender to move, the chain through `stone` in
    /// atari: whether it escapes. An unfinished read counts as an escape.
    fn defend(&mut self, depth: usize, stone: usize) -> bool {
        if self.out_of_budget(depth) {
            return true;
        }
        let board = &self.boards[depth];
        let defender = board.cell(stone);
        let attacker = other(defender);
        // Counter-captures: the last liberties of attacking chains in atari
        // that touch the chain.
        let mut captures = [0usize; 8];
        let mut found = 0;
        for s in board.chain_stones(stone) {
            for q in board.adjacent(s) {
                if board.cell(q) != attacker {
                    continue;
                }
                if let Some(l) = board.atari_liberty(q) {
                    if found < captures.len() && !captures[..found].contains(&l) {
                        captures[found] = l;
                        found += 1;
                    }
                }
            }
        }
        let liberty = board.atari_liberty(stone);
        for &c in &captures[..found] {
            // A capture on the chain's own liberty is the extension below.
            if Some(c) != liberty && self.settles(depth, defender, c, stone) {
                return true;
            }
        }
        match liberty {
            Some(l) => self.extend(depth, stone, l),
            None => true,
        }
    }

    /// Board `depth`: the chain through `stone` extends on `liberty`.
    fn extend(&mut self, depth: usize, stone: usize, liberty: usize) -> bool {
        let defender = self.boards[depth].cell(stone);
        self.settles(depth, defender, liberty, stone)
    }

    /// Board `depth`: after `defender` plays `p`, the chain through
    /// `stone` has three liberties, or two that `attack` cannot take.
    fn settles(&mut self, depth: usize, defender: u8, p: usize, stone: usize) -> bool {
        if !self.play(depth, defender, p) {
            // Illegal, or the budget ran out: only the latter is an escape.
            return self.out_of_budget(depth);
        }
        match liberty_count(&self.boards[depth + 1], stone) {
            0 | 1 => false,
            2 => self.attack(depth + 1, stone).is_none(),
            _ => true,
        }
    }
}

/// Liberties of the chain through `stone`, counted up to three.
fn liberty_count(board: &Board, stone: usize) -> usize {
    let mut libs = [0usize; 8];
    board.liberties(stone, 3, &mut libs)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{at, place};
    use super::*;
    use crate::game::go::{Point, Position};
    use crate::game::Color;

    fn board(size: usize, black: &str, white: &str) -> Position {
        let mut pos = Position::new(size, 0.0).unwrap();
        place(&mut pos, Color::Black, black);
        place(&mut pos, Color::White, white);
        pos
    }

    #[test]
    fn a_textbook_ladder_works_and_running_does_not_escape() {
        // White D4 against Black C4, D3, E3: atari at D5, and every
        // extension has two liberties until the top right edge.
        let pos = board(9, "C4 D3 E3", "D4");
        let mut reader = LadderReader::new();
        let capture = reader.capture_move(pos.board(), at(&pos, "D4"));
        assert_eq!(capture, Some(at(&pos, "D5")));
        // Once in atari (Black D5), extending at E4 runs into the ladder.
        let pos = board(9, "C4 D3 E3 D5", "D4");
        assert!(!reader.extension_escapes(pos.board(), at(&pos, "D4")));
    }

    #[test]
    fn a_ladder_breaker_saves_the_runner() {
        // The same ladder with a White stone on its path (G7).
        let pos = board(9, "C4 D3 E3 D5", "D4 G7");
        let mut reader = LadderReader::new();
        assert!(reader.extension_escapes(pos.board(), at(&pos, "D4")));
        let pos = board(9, "C4 D3 E3", "D4 G7");
        assert_eq!(reader.capture_move(pos.board(), at(&pos, "D4")), None);
    }

    #[test]
    fn open_space_and_counter_captures_escape() {
        let mut reader = LadderReader::new();
        // Two liberties in the open: either atari leaves three.
        let pos = board(9, "E6 E4", "E5");
        assert_eq!(reader.capture_move(pos.board(), at(&pos, "E5")), None);
        // The textbook ladder, but the atari at D5 would stand in atari
        // itself (White C5, D6): White takes it at E5 and is free.
        let pos = board(9, "C4 D3 E3", "D4 C5 D6");
        assert_eq!(reader.capture_move(pos.board(), at(&pos, "D4")), None);
        let pos = board(9, "C4 D3 E3 D5", "D4 C5 D6");
        reader.start(pos.board());
        assert!(reader.defend(0, at(&pos, "D4")));
    }

    /// The prior's win rate of `vertex` with `color` to move.
    fn prior_rate(pos: &mut Position, color: Color, vertex: &str) -> f32 {
        pos.set_to_move(color);
        let mv = crate::game::go::Move::Play(Point(at(pos, vertex) as u16));
        let mut out = Vec::new();
        super::super::priors::priors(pos, &[mv], &mut out);
        out[0].wins / out[0].visits
    }

    #[test]
    fn priors_start_won_ladders_and_do_not_run_in_lost_ones() {
        let mut pos = board(9, "C4 D3 E3", "D4");
        let ladder = prior_rate(&mut pos, Color::Black, "D5");
        let other_atari = prior_rate(&mut pos, Color::Black, "E4");
        assert!(ladder > other_atari + 0.1, "{ladder} vs {other_atari}");
        let mut lost = board(9, "C4 D3 E3 D5", "D4");
        let mut broken = board(9, "C4 D3 E3 D5", "D4 G7");
        let run_lost = prior_rate(&mut lost, Color::White, "E4");
        let run_broken = prior_rate(&mut broken, Color::White, "E4");
        assert!(run_broken > run_lost + 0.1, "{run_broken} vs {run_lost}");
    }

    #[test]
    fn chains_without_two_liberties_are_not_read() {
        let mut reader = LadderReader::new();
        let pos = board(9, "", "E5");
        assert_eq!(reader.capture_move(pos.board(), at(&pos, "E5")), None);
        let pos = board(9, "D5 F5 E6", "E5");
        assert_eq!(reader.capture_move(pos.board(), at(&pos, "E5")), None);
    }
}
