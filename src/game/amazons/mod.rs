//! The Game of the Amazons on 6x6, 8x8 and 10x10 boards.
//!
//! Each side has four queens. A move: one own queen moves like a chess
//! queen (any distance, eight directions, never over a queen or an
//! arrow), then shoots an arrow from its new square the same way; the
//! arrow's square is blocked for the rest of the game. White moves first;
//! a player with no legal move on their turn loses, so there are no draws.
//! Starting squares: the standard a4 d1 g1 j4 / a7 d10 g10 j7 on 10x10;
//! on 8x8 and 6x6 those of OpenSpiel's `amazons` (a3 c1 f1 h3 / a6 c8 f8
//! h6, and a2 b1 e1 f2 / a5 b6 e6 f5), the rules oracle of the tests.
//!
//! Moves are written `d1-d7/g7` (from-to/arrow; files a–j from the left,
//! ranks 1–10 from the bottom). The board is bitboards ([`bitboard`]).

pub mod bitboard;
mod endgame;
mod notation;
pub mod sgf;
#[cfg(test)]
mod tests;

use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome, OwnershipSums};
use bitboard::{bit, board_mask, queen_reach, Squares};
pub use notation::ParseMoveError;

/// The board edges the game is played on.
pub const SIZES: [usize; 3] = [6, 8, 10];

/// One move: the queen's square, where it goes and where its arrow lands,
/// as bit indices ([`bitboard::bit_index`]). Three bytes, so the tree
/// keeps thousands of them per node cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub arrow: u8,
}

/// Why a board cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Amazons boards are 6x6, 8x8 or 10x10, not {0}x{0}")]
pub struct BadSize(pub usize);

/// A position: queens, arrows, the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    size: u8,
    /// Queens by [`Color::index`].
    queens: [u128; 2],
    arrows: u128,
    /// Squares of the 10x10 word outside this board: blocked for ever.
    walls: u128,
    to_move: Color,
    plies: u16,
}

/// Every square of the largest board.
const FULL_WORD: u128 = board_mask(bitboard::MAX_SIZE);

/// The standard squares as (file, rank) from 0, White's then Black's.
fn start_squares(size: usize) -> [[(usize, usize); 4]; 2] {
    match size {
        6 => [
            [(0, 1), (1, 0), (4, 0), (5, 1)],
            [(0, 4), (1, 5), (4, 5), (5, 4)],
        ],
        8 => [
            [(0, 2), (2, 0), (5, 0), (7, 2)],
            [(0, 5), (2, 7), (5, 7), (7, 5)],
        ],
        _ => [
            [(0, 3), (3, 0), (6, 0), (9, 3)],
            [(0, 6), (3, 9), (6, 9), (9, 6)],
        ],
    }
}

impl Position {
    /// The start position on a `size`x`size` board.
    pub fn new(size: usize) -> Result<Position, BadSize> {
        if !SIZES.contains(&size) {
            return Err(BadSize(size));
        }
        let [white, black] = start_squares(size);
        let set = |sqs: [(usize, usize); 4]| {
            sqs.iter()
                .fold(0u128, |m, &(f, r)| m | bit(bitboard::bit_index(f, r)))
        };
        let mut queens = [0u128; 2];
        queens[Color::White.index()] = set(white);
        queens[Color::Black.index()] = set(black);
        Ok(Position {
            size: size as u8,
            queens,
            arrows: 0,
            walls: board_mask(bitboard::MAX_SIZE) & !board_mask(size),
            to_move: Color::White,
            plies: 0,
        })
    }

    /// An empty board of `size` with the given queens and arrows (bit
    /// sets) and side to move, for tests and the evaluation's checks.
    /// `None` when a set leaves the board or two of them overlap.
    pub fn from_sets(
        size: usize,
        white: u128,
        black: u128,
        arrows: u128,
        to_move: Color,
    ) -> Option<Position> {
        let mut pos = Position::new(size).ok()?;
        let board = board_mask(size);
        let all = [white, black, arrows];
        if all.iter().any(|s| s & !board != 0)
            || white & black != 0
            || (white | black) & arrows != 0
        {
            return None;
        }
        pos.queens[Color::White.index()] = white;
        pos.queens[Color::Black.index()] = black;
        pos.arrows = arrows;
        pos.to_move = to_move;
        Some(pos)
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// Moves played since the start.
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    pub fn queens(&self, color: Color) -> u128 {
        self.queens[color.index()]
    }

    pub fn arrows(&self) -> u128 {
        self.arrows
    }

    /// Squares of the board no piece stands on and no arrow blocks.
    #[inline]
    pub fn empty(&self) -> u128 {
        // The walls cover the 10x10 word's squares outside this board, so
        // the full word's mask serves every size: a constant, where
        // board_mask(size) is a loop over the squares (~200 ns, more than
        // packing a position for the GPU costs otherwise).
        FULL_WORD & !self.occupied()
    }

    /// Queens, arrows and the walls outside the board: what stops a slide.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.queens[0] | self.queens[1] | self.arrows | self.walls
    }

    /// Dense cell index (`rank * size + file`) of bit index `sq`.
    pub fn cell_of(&self, sq: u8) -> usize {
        let (f, r) = bitboard::file_rank(sq);
        r * self.size as usize + f
    }

    /// Whether `color` has any move: a queen with an empty neighbour can
    /// step there and shoot back at the square it left.
    #[inline]
    pub fn can_move(&self, color: Color) -> bool {
        bitboard::king_step(self.queens[color.index()], self.empty()) != 0
    }

    /// Calls `f` for every legal move of the side to move, queen by queen,
    /// destination by destination, in bit order.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let occupied = self.occupied();
        for from in Squares(self.queens[self.to_move.index()]) {
            let without = occupied & !bit(from);
            for to in Squares(queen_reach(from, occupied)) {
                for arrow in Squares(queen_reach(to, without | bit(to))) {
                    f(Move { from, to, arrow });
                }
            }
        }
    }

    /// The number of legal moves of the side to move, without listing
    /// them.
    pub fn count_moves(&self) -> usize {
        let occupied = self.occupied();
        let mut n = 0;
        for from in Squares(self.queens[self.to_move.index()]) {
            let without = occupied & !bit(from);
            for to in Squares(queen_reach(from, occupied)) {
                n += queen_reach(to, without | bit(to)).count_ones() as usize;
            }
        }
        n
    }

    /// Whether `mv` is legal for the side to move.
    pub fn is_legal_move(&self, mv: Move) -> bool {
        let board = FULL_WORD & !self.walls;
        if [mv.from, mv.to, mv.arrow]
            .iter()
            .any(|&s| s as usize >= bitboard::BITS || bit(s) & board == 0)
        {
            return false;
        }
        let occupied = self.occupied();
        self.queens[self.to_move.index()] & bit(mv.from) != 0
            && queen_reach(mv.from, occupied) & bit(mv.to) != 0
            && queen_reach(mv.to, (occupied & !bit(mv.from)) | bit(mv.to)) & bit(mv.arrow) != 0
    }

    /// Plays `mv` with no check at all: the search's and playouts' path.
    #[inline]
    pub fn apply(&mut self, mv: Move) {
        let q = &mut self.queens[self.to_move.index()];
        *q = (*q & !bit(mv.from)) | bit(mv.to);
        self.arrows |= bit(mv.arrow);
        self.to_move = self.to_move.opponent();
        self.plies = self.plies.saturating_add(1);
    }
}

impl Game for Position {
    type Move = Move;

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.for_each_move(|mv| out.push(mv));
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_move(mv)
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove<Move>> {
        let reason = if self.outcome().is_some() {
            IllegalReason::GameOver
        } else if !self.is_legal_move(mv) {
            IllegalReason::NotAllowed
        } else {
            self.apply(mv);
            return Ok(());
        };
        Err(IllegalMove { mv, reason })
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        (!self.can_move(self.to_move)).then(|| Outcome::Win(self.to_move.opponent()))
    }

    /// A finished game, or a split ending whose race the bounds on both
    /// sides' moves decide (`endgame::split_winner`): the search scores
    /// it exactly and never searches it again.
    fn judged_outcome(&self, _owners: OwnershipSums<'_>) -> Option<Outcome> {
        self.proven_outcome()
    }

    /// See [`judged_outcome`](Self::judged_outcome).
    fn proven_outcome(&self) -> Option<Outcome> {
        self.outcome().or_else(|| endgame::split_winner(self))
    }

    fn hash(&self) -> u64 {
        let mut h = 0x9E37_79B9_7F4A_7C15u64 ^ self.to_move.index() as u64;
        for word in [self.queens[0], self.queens[1], self.arrows] {
            for half in [word as u64, (word >> 64) as u64] {
                h = (h ^ half).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                h ^= h >> 31;
            }
        }
        h
    }

    /// The destination and the arrow: `to * cells + arrow`. The queen that
    /// went there is left out, so that AMAF and the tables stay small.
    fn move_index(&self, mv: Move) -> usize {
        self.cell_of(mv.to) * self.cell_space() + self.cell_of(mv.arrow)
    }

    fn move_space(&self) -> usize {
        self.cell_space() * self.cell_space()
    }

    /// The square the queen moves to.
    fn move_cell(&self, mv: Move) -> Option<usize> {
        Some(self.cell_of(mv.to))
    }

    fn cell_space(&self) -> usize {
        self.size as usize * self.size as usize
    }
}
