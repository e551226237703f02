//! A Go position: the board plus the history the rules need (positional
//! superko, consecutive passes, side to move). This is the GTP-facing API;
//! the search-facing [`crate::game::Game`] impl is in `game.rs`.

use super::board::{color_of, other, stone, Board, BLACK, EMPTY, MAX_CELLS, WHITE};
use super::{BoardSizeError, Move, Point};
use crate::game::{Color, IllegalMove, IllegalReason};

pub struct Position {
    pub(super) board: Board,
    komi: f32,
    pub(super) to_move: Color,
    pub(super) passes: u32,
    move_number: usize,
    last_move: Option<Move>,
    /// Stone hashes of every position so far, kept sorted so that the
    /// superko test of each candidate move is a binary search (legal-move
    /// generation late in a 19x19 game tests hundreds of moves against
    /// hundreds of positions). A board play may not recreate any of them.
    history: Vec<u64>,
}

impl Clone for Position {
    fn clone(&self) -> Self {
        Position {
            board: self.board,
            komi: self.komi,
            to_move: self.to_move,
            passes: self.passes,
            move_number: self.move_number,
            last_move: self.last_move,
            history: self.history.clone(),
        }
    }

    /// Reuses `self`'s history allocation and copies only the board cells
    /// in use ([`Board::copy_from`]): the search resets a position to its
    /// root once per descent.
    fn clone_from(&mut self, other: &Self) {
        self.board.copy_from(&other.board);
        self.komi = other.komi;
        self.to_move = other.to_move;
        self.passes = other.passes;
        self.move_number = other.move_number;
        self.last_move = other.last_move;
        self.history.clone_from(&other.history);
    }
}

impl Position {
    pub const MIN_SIZE: usize = 2;
    pub const MAX_SIZE: usize = super::board::MAX_SIZE;

    /// An empty board, Black to move.
    pub fn new(size: usize, komi: f32) -> Result<Position, BoardSizeError> {
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size) {
            return Err(BoardSizeError::OutOfRange(size));
        }
        let board = Board::new(size);
        Ok(Position {
            history: vec![board.hash()],
            board,
            komi,
            to_move: Color::Black,
            passes: 0,
            move_number: 0,
            last_move: None,
        })
    }

    /// The fast board, for playout policies.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.board.size()
    }

    #[inline]
    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    /// The point at (col, row), 0-based, col from the left, row from the
    /// bottom (row 0 is GTP row "1"); `None` off the board.
    pub fn point(&self, col: usize, row: usize) -> Option<Point> {
        (col < self.size() && row < self.size())
            .then(|| Point(self.board.point_at(col, row) as u16))
    }

    /// (col, row) of an on-board point; the inverse of [`Position::point`].
    pub fn coords(&self, p: Point) -> (usize, usize) {
        self.board.coords(p.0 as usize)
    }

    /// All on-board points, row-major from the bottom-left.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        self.board.points().map(|p| Point(p as u16))
    }

    /// Whether `p` is a point of this board.
    #[inline]
    pub fn is_on_board(&self, p: Point) -> bool {
        let p = p.0 as usize;
        p < self.board.cell_count() && p < MAX_CELLS && self.board.cell(p) != super::board::BORDER
    }

    pub fn color_at(&self, p: Point) -> Option<Color> {
        if self.is_on_board(p) {
            color_of(self.board.cell(p.0 as usize))
        } else {
            None
        }
    }

    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// The most recent move (play or pass), if any.
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Plays `mv` for `color` under the full rules, whoever is to move
    /// (GTP `play`); afterwards `color`'s opponent is to move. Moves are
    /// accepted after two passes too (the game simply continues).
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove<Move>> {
        match mv {
            Move::Pass => self.apply_pass(color),
            Move::Play(p) => {
                self.check_play(color, p)
                    .map_err(|reason| IllegalMove { mv, reason })?;
                self.apply_play(color, p.0 as usize);
            }
        }
        Ok(())
    }

    /// Full rules check for `color` (including positional superko).
    pub fn is_legal_as(&self, color: Color, mv: Move) -> bool {
        match mv {
            Move::Pass => true,
            Move::Play(p) => self.check_play(color, p).is_ok(),
        }
    }

    /// Every point where `color` may legally play, eye fills included
    /// (GNU Go `all_legal`), with positional superko.
    pub fn legal_points_as(&self, color: Color) -> Vec<Point> {
        self.points()
            .filter(|&p| self.check_play(color, p).is_ok())
            .collect()
    }

    /// Puts a handicap or setup stone on an empty point. Setup may not
    /// capture or leave a chain without liberties. The result joins the
    /// superko history; the side to move is unchanged.
    pub fn place_setup_stone(&mut self, color: Color, p: Point) -> Result<(), IllegalMove<Move>> {
        let reject = |reason| IllegalMove {
            mv: Move::Play(p),
            reason,
        };
        if !self.is_on_board(p) {
            return Err(reject(IllegalReason::OffBoard));
        }
        let at = p.0 as usize;
        if self.board.cell(at) != EMPTY {
            return Err(reject(IllegalReason::Occupied));
        }
        let own = stone(color);
        let would_capture = self
            .board
            .adjacent(at)
            .iter()
            .any(|&q| self.board.cell(q) == other(own) && self.board.in_atari(q));
        if would_capture {
            return Err(reject(IllegalReason::NotAllowed));
        }
        if self.board.is_suicide(own, at) {
            return Err(reject(IllegalReason::Suicide));
        }
        self.board.play(own, at);
        self.remember_position();
        self.passes = 0;
        Ok(())
    }

    /// The stones of `color`, row-major from the bottom-left.
    pub fn stones(&self, color: Color) -> Vec<Point> {
        let own = stone(color);
        self.points()
            .filter(|p| self.board.cell(p.0 as usize) == own)
            .collect()
    }

    /// Stones `color` has captured (GNU Go `captures`).
    pub fn captures(&self, color: Color) -> u32 {
        self.board.captured_by(stone(color))
    }

    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }

    /// Forgets the passes that ended the game, so it can be played on (for
    /// playouts that estimate which stones are dead after the game).
    pub fn resume(&mut self) {
        self.passes = 0;
    }

    /// Moves played (plays and passes, not setup stones).
    pub fn move_number(&self) -> usize {
        self.move_number
    }

    /// Tromp-Taylor area score, Black minus White, minus komi.
    pub fn area_score(&self) -> f32 {
        self.board.area_difference() as f32 - self.komi
    }

    /// Tromp-Taylor owner of every point, indexed by move index (the pass
    /// index is `None`).
    pub fn owner_map(&self) -> Vec<Option<Color>> {
        let mut owner = [0i8; MAX_CELLS];
        self.board.area_ownership(&mut owner);
        let mut map: Vec<Option<Color>> = self
            .board
            .points()
            .map(|p| match owner[p] {
                1 => Some(Color::Black),
                -1 => Some(Color::White),
                _ => None,
            })
            .collect();
        map.push(None);
        map
    }

    /// Why `color` may not play at `p`, if it may not.
    pub(super) fn check_play(&self, color: Color, p: Point) -> Result<(), IllegalReason> {
        if !self.is_on_board(p) {
            return Err(IllegalReason::OffBoard);
        }
        let at = p.0 as usize;
        let own = stone(color);
        if self.board.cell(at) != EMPTY {
            return Err(IllegalReason::Occupied);
        }
        if self.board.ko() == Some((at, own)) {
            return Err(IllegalReason::Ko);
        }
        if self.board.is_suicide(own, at) {
            return Err(IllegalReason::Suicide);
        }
        if self.repeats_position(own, at) {
            return Err(IllegalReason::Superko);
        }
        Ok(())
    }

    /// Whether `own` playing at `p` (otherwise legal) would recreate an
    /// earlier position.
    pub(super) fn repeats_position(&self, own: u8, p: usize) -> bool {
        // Until something has been captured the stones only ever grow, and
        // a position can never come back: skip the search.
        let any_capture = self.board.captured_by(BLACK) + self.board.captured_by(WHITE) > 0;
        any_capture
            && self
                .history
                .binary_search(&self.board.hash_after(own, p))
                .is_ok()
    }

    /// Adds the current stones to the superko history.
    fn remember_position(&mut self) {
        let hash = self.board.hash();
        if let Err(at) = self.history.binary_search(&hash) {
            self.history.insert(at, hash);
        }
    }

    pub(super) fn apply_play(&mut self, color: Color, p: usize) {
        self.board.play(stone(color), p);
        self.remember_position();
        self.passes = 0;
        self.move_number += 1;
        self.to_move = color.opponent();
        self.last_move = Some(Move::Play(Point(p as u16)));
    }

    pub(super) fn apply_pass(&mut self, color: Color) {
        self.board.pass();
        self.passes += 1;
        self.move_number += 1;
        self.to_move = color.opponent();
        self.last_move = Some(Move::Pass);
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Position {}x{} komi {} {} to move, move {}, passes {}",
            self.size(),
            self.size(),
            self.komi,
            self.to_move,
            self.move_number,
            self.passes
        )?;
        write!(f, "{:?}", self.board)
    }
}
