//! Connect Four on boards of 4 to 8 columns and 4 to 7 rows (standard 7x6):
//! stones drop to the lowest empty cell of a column, four in a row
//! horizontally, vertically or diagonally wins, a full board with no line
//! is a draw. The first player (Black in the protocol) moves first.
//!
//! The board is two bitboards: `current`, the stones of the side to move,
//! and `mask`, every stone. Column `c` owns bits `c*(H+1) .. c*(H+1)+H`,
//! bottom row first, and one spare bit on top, so that a column's stones
//! plus its bottom bit is a carry chain (`mask + bottom(c)` sets the next
//! free cell) and line shifts never run from one column into the next.
//! `W*(H+1) <= 64` fits every board up to 8x7. `current + mask + bottom`
//! names a position uniquely (per column, a 1 just above the top stone
//! marks its height), the key of transposition tables and databases.

#[cfg(test)]
mod tests;

use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome};
use std::fmt;

pub const MIN_WIDTH: usize = 4;
pub const MAX_WIDTH: usize = 8;
pub const MIN_HEIGHT: usize = 4;
pub const MAX_HEIGHT: usize = 7;

/// A move: the column, from 0 (the protocol writes it from 1).
pub type Move = u8;

/// Why a board cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "Connect Four boards are {MIN_WIDTH}-{MAX_WIDTH} columns by {MIN_HEIGHT}-{MAX_HEIGHT} rows, not {0}x{1}"
)]
pub struct BadSize(pub usize, pub usize);

/// The board's shape and the masks derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub width: u8,
    pub height: u8,
    /// The bottom cell of every column.
    pub bottom: u64,
    /// Every cell of the board (no spare bits).
    pub board: u64,
}

impl Shape {
    pub fn new(width: usize, height: usize) -> Result<Shape, BadSize> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) || !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height)
        {
            return Err(BadSize(width, height));
        }
        let mut bottom = 0u64;
        for c in 0..width {
            bottom |= 1 << (c * (height + 1));
        }
        let board = bottom * ((1u64 << height) - 1);
        Ok(Shape {
            width: width as u8,
            height: height as u8,
            bottom,
            board,
        })
    }

    #[inline]
    pub fn cells(&self) -> u32 {
        self.width as u32 * self.height as u32
    }

    #[inline]
    fn stride(&self) -> u32 {
        self.height as u32 + 1
    }

    #[inline]
    pub fn bottom_of(&self, column: usize) -> u64 {
        1 << (column as u32 * self.stride())
    }

    #[inline]
    pub fn top_of(&self, column: usize) -> u64 {
        1 << (self.height as u32 - 1 + column as u32 * self.stride())
    }

    #[inline]
    pub fn column_mask(&self, column: usize) -> u64 {
        ((1u64 << self.height) - 1) << (column as u32 * self.stride())
    }

    /// True when `stones` hold four in a row.
    #[inline]
    pub fn has_four(&self, stones: u64) -> bool {
        let h = self.stride();
        for shift in [1, h - 1, h, h + 1] {
            let pairs = stones & (stones >> shift);
            if pairs & (pairs >> (2 * shift)) != 0 {
                return true;
            }
        }
        false
    }

    /// The empty-or-not cells that would complete four for `stones`
    /// (whether or not they can be played yet), within the board.
    #[inline]
    pub fn winning_cells(&self, stones: u64, mask: u64) -> u64 {
        let h = self.stride();
        // Vertical: three stacked stones, the cell on top.
        let mut r = (stones << 1) & (stones << 2) & (stones << 3);
        for shift in [h - 1, h, h + 1] {
            let p = (stones << shift) & (stones << (2 * shift));
            r |= p & (stones << (3 * shift)); // three to the left/below
            r |= p & (stones >> shift); // two left, one right
            let p = (stones >> shift) & (stones >> (2 * shift));
            r |= p & (stones >> (3 * shift));
            r |= p & (stones << shift);
        }
        r & (self.board ^ mask)
    }

    /// Column `c`, 0-based, of the single-bit `cell`.
    #[inline]
    pub fn column_of(&self, cell: u64) -> usize {
        (cell.trailing_zeros() / self.stride()) as usize
    }

    /// Row (0 at the bottom) of the single-bit `cell`.
    #[inline]
    pub fn row_of(&self, cell: u64) -> usize {
        (cell.trailing_zeros() % self.stride()) as usize
    }
}

/// A Connect Four position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    shape: Shape,
    /// Stones of the side to move.
    current: u64,
    /// Every stone.
    mask: u64,
    moves: u32,
    /// The player who just moved made four.
    won: bool,
}

impl Position {
    pub fn new(width: usize, height: usize) -> Result<Position, BadSize> {
        Ok(Position::empty(Shape::new(width, height)?))
    }

    /// The standard 7x6 board.
    pub fn standard() -> Position {
        Position::new(7, 6).expect("7x6 is a valid board")
    }

    pub fn empty(shape: Shape) -> Position {
        Position {
            shape,
            current: 0,
            mask: 0,
            moves: 0,
            won: false,
        }
    }

    /// The position after `text`, columns from `1` (`"4453"`), or the
    /// index of the first character that is not a playable move (a
    /// non-digit, a full column, a move after the game ended).
    pub fn from_moves(shape: Shape, text: &str) -> Result<Position, usize> {
        let mut pos = Position::empty(shape);
        for (i, b) in text.bytes().enumerate() {
            let column = match b {
                b'1'..=b'9' => (b - b'1') as usize,
                _ => return Err(i),
            };
            if column >= shape.width as usize || !pos.can_play(column) || pos.won {
                return Err(i);
            }
            pos.play_column(column);
        }
        Ok(pos)
    }

    #[inline]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    #[inline]
    pub fn width(&self) -> usize {
        self.shape.width as usize
    }
    #[inline]
    pub fn height(&self) -> usize {
        self.shape.height as usize
    }
    /// Stones on the board.
    #[inline]
    pub fn moves(&self) -> u32 {
        self.moves
    }
    #[inline]
    pub fn current(&self) -> u64 {
        self.current
    }
    #[inline]
    pub fn mask(&self) -> u64 {
        self.mask
    }
    /// The player who just moved has four in a row.
    #[inline]
    pub fn is_won(&self) -> bool {
        self.won
    }

    /// A unique key of the position on its board (side to move included,
    /// since it follows from the stone count).
    #[inline]
    pub fn key(&self) -> u64 {
        self.current + self.mask + self.shape.bottom
    }

    /// The position whose [`key`](Self::key) is `key` on `shape` (a key
    /// from a position of that shape). Per column the key is `2^h + c`:
    /// its highest bit sits just above the column's `h` stones, and `c`
    /// marks the side to move's stones below it.
    pub fn from_key(shape: Shape, key: u64) -> Position {
        let (mut current, mut mask) = (0u64, 0u64);
        for c in 0..shape.width as usize {
            let column = key & (shape.column_mask(c) | shape.column_mask(c) << 1);
            let marker = 1u64 << (63 - column.leading_zeros());
            let below = marker - shape.bottom_of(c);
            mask |= below;
            current |= column & below;
        }
        let mut pos = Position::empty(shape);
        pos.current = current;
        pos.mask = mask;
        pos.moves = mask.count_ones();
        // The player who just moved has the stones that are not current.
        pos.won = shape.has_four(current ^ mask);
        pos
    }

    #[inline]
    pub fn can_play(&self, column: usize) -> bool {
        self.mask & self.shape.top_of(column) == 0
    }

    /// True when the side to move wins at once by playing `column`.
    #[inline]
    pub fn is_winning_move(&self, column: usize) -> bool {
        self.winning_cells() & self.possible() & self.shape.column_mask(column) != 0
    }

    /// Plays in `column`, which must be playable; no check.
    #[inline]
    pub fn play_column(&mut self, column: usize) {
        let cell = (self.mask + self.shape.bottom_of(column)) & self.shape.column_mask(column);
        self.play_cell(cell);
    }

    /// Plays the single-bit `cell`, which must be a playable cell.
    #[inline]
    pub fn play_cell(&mut self, cell: u64) {
        let mine = self.current | cell;
        self.won = self.shape.has_four(mine);
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// Plays the playable single-bit `cell` without testing for four: for
    /// solvers, which never play a stone that wins.
    #[inline]
    pub fn advance(&mut self, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// The cells where a stone can go now, one per non-full column.
    #[inline]
    pub fn possible(&self) -> u64 {
        (self.mask + self.shape.bottom) & self.shape.board
    }

    /// Cells that would complete four for the side to move.
    #[inline]
    pub fn winning_cells(&self) -> u64 {
        self.shape.winning_cells(self.current, self.mask)
    }

    /// Cells that would complete four for the opponent.
    #[inline]
    pub fn opponent_winning_cells(&self) -> u64 {
        self.shape
            .winning_cells(self.current ^ self.mask, self.mask)
    }

    /// True when the side to move can make four with its next stone.
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.possible() != 0
    }

    /// The playable cells that do not let the opponent make four at once;
    /// 0 when every move loses at once. Assumes the side to move cannot
    /// win now. An opponent threat on a playable cell forces the move
    /// there (two such threats lose), and no move may go just below an
    /// opponent threat.
    #[inline]
    pub fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_winning_cells();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// The number of cells that would complete four for the side to move
    /// after it plays `cell` (the threats a move creates).
    #[inline]
    pub fn threats_after(&self, cell: u64) -> u32 {
        self.shape
            .winning_cells(self.current | cell, self.mask)
            .count_ones()
    }

    /// Who holds the cell at `column`, `row` (row 0 at the bottom).
    pub fn stone_at(&self, column: usize, row: usize) -> Option<Color> {
        let bit = 1u64 << (column * (self.height() + 1) + row);
        if self.mask & bit == 0 {
            return None;
        }
        let mover = self.to_move();
        Some(if self.current & bit != 0 {
            mover
        } else {
            mover.opponent()
        })
    }

    /// Stones in `column`.
    pub fn column_height(&self, column: usize) -> usize {
        (self.mask & self.shape.column_mask(column)).count_ones() as usize
    }

    /// The board as text: top row first, `X` the first player, `O` the
    /// second, `.` empty, column numbers below.
    pub fn showboard(&self) -> String {
        let mut out = String::new();
        for row in (0..self.height()).rev() {
            let cells: Vec<&str> = (0..self.width())
                .map(|c| match self.stone_at(c, row) {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => ".",
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        let numbers: Vec<String> = (1..=self.width()).map(|c| c.to_string()).collect();
        out.push_str(&numbers.join(" "));
        out.push('\n');
        out
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.showboard())
    }
}

/// splitmix64's finaliser: spreads a key's bits over the whole word.
#[inline]
pub fn mix(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Game for Position {
    type Move = Move;

    fn to_move(&self) -> Color {
        if self.moves.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        out.extend(
            (0..self.width())
                .filter(|&c| self.can_play(c))
                .map(|c| c as Move),
        );
    }

    fn is_legal(&self, mv: Move) -> bool {
        let c = mv as usize;
        self.outcome().is_none() && c < self.width() && self.can_play(c)
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove<Move>> {
        let reason = if self.outcome().is_some() {
            Some(IllegalReason::GameOver)
        } else if mv as usize >= self.width() {
            Some(IllegalReason::OffBoard)
        } else if !self.can_play(mv as usize) {
            Some(IllegalReason::Occupied)
        } else {
            None
        };
        match reason {
            Some(reason) => Err(IllegalMove { mv, reason }),
            None => {
                self.play_column(mv as usize);
                Ok(())
            }
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.play_column(mv as usize);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::Win(self.to_move().opponent()))
        } else if self.moves == self.shape.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Four in a row and a full board are final: the search may treat
    /// them as proofs (the solver ignores draws).
    fn proven_outcome(&self) -> Option<Outcome> {
        self.outcome()
    }

    fn hash(&self) -> u64 {
        mix(self.key())
    }

    fn move_index(&self, mv: Move) -> usize {
        mv as usize
    }

    fn move_space(&self) -> usize {
        self.width()
    }

    /// The cell the stone lands on, `row * width + column`, row 0 at the
    /// bottom.
    fn move_cell(&self, mv: Move) -> Option<usize> {
        let c = mv as usize;
        (c < self.width() && self.can_play(c)).then(|| self.column_height(c) * self.width() + c)
    }

    fn cell_space(&self) -> usize {
        self.shape.cells() as usize
    }
}
