//! Go playout policy: light playouts on a copy of the fast board.
//!
//! Each move, the [`GoPolicy::Patterns`] policy looks around the last move
//! first (MoGo / michi style): capture an opponent chain in atari or save
//! an own one, else play a move matching a 3x3 shape; failing that, and
//! always under [`GoPolicy::Random`], it plays uniformly at random among
//! legal moves that do not fill a one-point eye of the mover. The
//! [`GoPolicy::Weighted3x3`] and [`GoPolicy::M2`] policies (Iwakawa et al.'s
//! "3x3" and "M2") instead draw every move with probability proportional
//! to a small integer weight per point (see `weights.rs`). Playouts
//! respect simple ko, ignore superko, and stop after two consecutive passes
//! or a move cap; the final board is scored Tromp-Taylor, which after a
//! playout (nearly all empty points are one-point eyes) is accurate.

#[cfg(test)]
mod hostcheck;
mod ladder;
mod patterns;
mod priors;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_priors;
mod weights;

pub(crate) use patterns::TABLE as PATTERN_TABLE;

use super::{FastRng, PlayoutRecord, PlayoutResult, Prior, Rollout};
use crate::game::go::board::{color_of, other, stone, Board, BLACK, EMPTY, MAX_CELLS, WHITE};
use crate::game::go::{Move, Position};
use crate::game::Color;

// ---- Tuning constants (playouts; the prior weights are in priors.rs) ----

/// Chance per move of looking for a capture or an atari escape around the
/// last move before anything else (michi uses 0.9).
const PROB_ATARI_MOVE: f32 = 0.9;
/// Chance per move of looking for a 3x3 pattern move around the last move
/// when no atari move was played (michi: 0.95).
const PROB_PATTERN_MOVE: f32 = 0.95;
/// Chance of rejecting a random move that puts its own chain in atari
/// (Patterns policy only; michi: 0.9). Not always: throw-ins matter.
const PROB_REJECT_SELF_ATARI: f32 = 0.9;
/// Playouts stop after this many moves per board point.
const MOVE_CAP_PER_POINT: usize = 3;

/// Which playout policy to run; switchable for benchmarks and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GoPolicy {
    /// Uniform among legal moves that do not fill one's own one-point eye.
    Random,
    /// Captures, atari escapes and 3x3 patterns near the last move, then
    /// random moves that mostly avoid self-atari.
    #[default]
    Patterns,
    /// Paper 004's "3x3": every allowed point drawn with a weight from its
    /// eight neighbours (MoGo pattern, adjacent chains in atari, quiet
    /// first-line points); see `weights.rs`.
    Weighted3x3,
    /// Paper 004's "M2": the 3x3 weight, doubled when a stone lies within
    /// Manhattan distance 2.
    M2,
}

impl GoPolicy {
    /// The lower-case name used by the CLI and in reports.
    pub fn name(self) -> &'static str {
        match self {
            GoPolicy::Random => "random",
            GoPolicy::Patterns => "patterns",
            GoPolicy::Weighted3x3 => "3x3",
            GoPolicy::M2 => "m2",
        }
    }

    /// Every policy, in the order reports list them.
    pub const ALL: [GoPolicy; 4] = [
        GoPolicy::Random,
        GoPolicy::Patterns,
        GoPolicy::Weighted3x3,
        GoPolicy::M2,
    ];
}

impl Rollout for Position {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        self.rollout_with(GoPolicy::default(), rng, record, ownership)
    }

    fn priors(&self, moves: &[Move], out: &mut Vec<Prior>) {
        priors::priors(self, moves, out);
    }
}

impl Position {
    /// One playout from this position with `policy`. Notes the first
    /// colour to play each point in `record` (not reset here), writes the
    /// final owner of every move index into `ownership` (+1 Black, -1
    /// White, 0 neither; pass index 0) and returns the winner and the area
    /// score with komi.
    pub fn rollout_with(
        &self,
        policy: GoPolicy,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut playout = Playout::new(self);
        playout.run_policy(policy, rng);
        playout.finish(self.komi(), record, ownership)
    }
}

/// The state of one playout.
struct Playout {
    board: Board,
    to_move: u8,
    passes: u32,
    /// Point of the last move, 0 after a pass (cell 0 is border).
    last: usize,
    moves: usize,
    /// First colour to play each cell during the playout (0 = none).
    first: [u8; MAX_CELLS],
}

impl Playout {
    fn new(pos: &Position) -> Playout {
        let last = match pos.last_move() {
            Some(Move::Play(p)) => p.0 as usize,
            _ => 0,
        };
        Playout {
            board: *pos.board(),
            to_move: stone(crate::game::Game::to_move(pos)),
            passes: pos.consecutive_passes(),
            last,
            moves: 0,
            first: [0; MAX_CELLS],
        }
    }

    fn run_policy(&mut self, policy: GoPolicy, rng: &mut FastRng) {
        match policy {
            GoPolicy::Random => self.run(rng, |pl, rng| pl.random_move::<false>(rng)),
            GoPolicy::Patterns => self.run(rng, |pl, rng| {
                let mut choice = None;
                if pl.last != 0 {
                    choice = pl.tactical_move(rng);
                }
                choice.or_else(|| pl.random_move::<true>(rng))
            }),
            GoPolicy::Weighted3x3 => self.run(rng, |pl, rng| pl.weighted_move(rng, false)),
            GoPolicy::M2 => self.run(rng, |pl, rng| pl.weighted_move(rng, true)),
        }
    }

    /// Plays `choose`'s moves (`None`: pass) until two consecutive passes
    /// or the move cap.
    #[inline(always)]
    fn run(
        &mut self,
        rng: &mut FastRng,
        mut choose: impl FnMut(&mut Playout, &mut FastRng) -> Option<usize>,
    ) {
        let size = self.board.size();
        let cap = MOVE_CAP_PER_POINT * size * size;
        while self.passes < 2 && self.moves < cap {
            match choose(self, rng) {
                Some(p) => {
                    self.board.play(self.to_move, p);
                    if self.first[p] == 0 {
                        self.first[p] = self.to_move;
                    }
                    self.passes = 0;
                    self.last = p;
                }
                None => {
                    self.board.pass();
                    self.passes += 1;
                    self.last = 0;
                }
            }
            self.to_move = other(self.to_move);
            self.moves += 1;
        }
    }

    /// Uniform among legal non-eye-filling moves: sample the empty list
    /// without replacement (rejected points are swapped past the end of
    /// the live range), so each acceptable point is equally likely.
    #[inline]
    fn random_move<const AVOID_SELF_ATARI: bool>(&mut self, rng: &mut FastRng) -> Option<usize> {
        let color = self.to_move;
        let mut n = self.board.empty_count();
        while n > 0 {
            let i = rng.below(n as u32) as usize;
            let p = self.board.empties()[i] as usize;
            if !self.board.is_eye(color, p)
                && self.board.is_legal(color, p)
                && !(AVOID_SELF_ATARI
                    && self.board.is_self_atari(color, p)
                    && rng.next_f32() < PROB_REJECT_SELF_ATARI)
            {
                return Some(p);
            }
            n -= 1;
            self.board.swap_empties(i, n);
        }
        None
    }

    /// Captures / atari escapes, then 3x3 patterns, around the last move.
    fn tactical_move(&mut self, rng: &mut FastRng) -> Option<usize> {
        if rng.next_f32() < PROB_ATARI_MOVE {
            let mut candidates = Candidates::default();
            atari_moves(&self.board, self.to_move, self.last, &mut candidates);
            if let Some(p) = candidates.pick(rng) {
                return Some(p);
            }
        }
        if rng.next_f32() < PROB_PATTERN_MOVE {
            let mut candidates = Candidates::default();
            pattern_moves(&self.board, self.to_move, self.last, &mut candidates);
            let (board, color) = (&self.board, self.to_move);
            if let Some(p) = candidates.pick_accepted(rng, |p| !board.is_self_atari(color, p)) {
                return Some(p);
            }
        }
        None
    }

    /// Scores the final board; fills `record` and `ownership`.
    fn finish(&self, komi: f32, record: &mut PlayoutRecord, ownership: &mut [i8]) -> PlayoutResult {
        let mut owner = [0i8; MAX_CELLS];
        let difference = self.board.area_ownership(&mut owner);
        let size = self.board.size();
        let mut index = 0;
        for row in 0..size {
            for col in 0..size {
                let p = self.board.point_at(col, row);
                if let Some(slot) = ownership.get_mut(index) {
                    *slot = owner[p];
                }
                if let Some(color) = color_of(self.first[p]) {
                    record.note(index, color);
                }
                index += 1;
            }
        }
        if let Some(slot) = ownership.get_mut(index) {
            *slot = 0;
        }
        let score = difference as f32 - komi;
        let winner = if score > 0.0 {
            Some(Color::Black)
        } else if score < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        PlayoutResult {
            winner,
            score,
            moves: self.moves as u32,
        }
    }
}

/// A small set of candidate points (duplicates allowed: a point found
/// twice is twice as likely, which favours moves doing two jobs).
#[derive(Default)]
struct Candidates {
    points: [usize; 16],
    len: usize,
}

impl Candidates {
    #[inline]
    fn push(&mut self, p: usize) {
        if self.len < self.points.len() {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    #[inline]
    fn pick(&self, rng: &mut FastRng) -> Option<usize> {
        (self.len > 0).then(|| self.points[rng.below(self.len as u32) as usize])
    }

    /// A uniform pick among the candidates that pass `accept`, testing
    /// only the ones drawn (rejected draws are removed), so an expensive
    /// test usually runs once.
    #[inline]
    fn pick_accepted(
        &mut self,
        rng: &mut FastRng,
        accept: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        while self.len > 0 {
            let i = rng.below(self.len as u32) as usize;
            let p = self.points[i];
            if accept(p) {
                return Some(p);
            }
            self.len -= 1;
            self.points[i] = self.points[self.len];
        }
        None
    }
}

/// Moves for `color` that capture an opponent chain in atari at or next to
/// `last`, or save an own chain there that is in atari (by capturing a
/// neighbour of it, or by extending when that gains liberties).
fn atari_moves(board: &Board, color: u8, last: usize, out: &mut Candidates) {
    let enemy = other(color);
    // Only the last move's chain and its neighbours changed liberties.
    let mut heads = [0usize; 5];
    let mut seen = 0;
    for q in std::iter::once(last).chain(board.adjacent(last)) {
        let cell = board.cell(q);
        if cell != BLACK && cell != WHITE {
            continue;
        }
        let head = board.chain_head(q);
        if heads[..seen].contains(&head) {
            continue;
        }
        heads[seen] = head;
        seen += 1;
        let Some(liberty) = board.atari_liberty(q) else {
            continue;
        };
        if cell == enemy {
            if board.is_legal(color, liberty) {
                out.push(liberty);
            }
            continue;
        }
        // Own chain in atari: take an adjacent opponent chain in atari...
        for s in board.chain_stones(q) {
            for r in board.adjacent(s) {
                if board.cell(r) == enemy {
                    if let Some(l) = board.atari_liberty(r) {
                        if board.is_legal(color, l) {
                            out.push(l);
                        }
                    }
                }
            }
        }
        // ...or run, if running gains liberties.
        if board.is_legal(color, liberty) && !board.is_self_atari(color, liberty) {
            out.push(liberty);
        }
    }
}

/// Empty points around `last` that match a 3x3 pattern and are legal for
/// `color` without filling its own eye (self-atari is left to the caller,
/// which tests only the point it draws).
fn pattern_moves(board: &Board, color: u8, last: usize, out: &mut Candidates) {
    for q in board.adjacent(last).into_iter().chain(board.diagonal(last)) {
        if board.cell(q) == EMPTY
            && patterns::matches(board, q)
            && !board.is_eye(color, q)
            && board.is_legal(color, q)
        {
            out.push(q);
        }
    }
}
