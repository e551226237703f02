//! The search's board: a position's two bitboards with the board's shape
//! fixed at compile time, so that every shift and mask of the inner loop is
//! a constant (the game's [`Position`] keeps its shape at run time, which
//! made each node pay for variable shifts and loads). The search has one
//! copy per board size; [`dispatch!`] picks it.

use crate::game::connect4::Position;

#[derive(Clone, Copy, Debug)]
pub(super) struct Board<const W: usize, const H: usize> {
    /// Stones of the side to move.
    current: u64,
    /// Every stone.
    mask: u64,
    moves: u32,
}

impl<const W: usize, const H: usize> Board<W, H> {
    const STRIDE: u32 = H as u32 + 1;
    const BOTTOM: u64 = {
        let mut bottom = 0u64;
        let mut c = 0;
        while c < W {
            bottom |= 1 << (c * (H + 1));
            c += 1;
        }
        bottom
    };
    const BOARD: u64 = Self::BOTTOM * ((1u64 << H) - 1);
    pub const CELLS: i32 = (W * H) as i32;
    /// The cells of rows 1, 3, 5, ... counted from 1 at the bottom: where
    /// the first player's stones land when the second answers every stone
    /// in the same column.
    const ODD_ROWS: u64 = {
        let mut rows = 0u64;
        let mut r = 0;
        while r < H {
            rows |= 1 << r;
            r += 2;
        }
        Self::BOTTOM * rows
    };

    /// `pos`, which must be on a `W` x `H` board.
    pub fn new(pos: &Position) -> Self {
        debug_assert_eq!((pos.width(), pos.height()), (W, H));
        Board {
            current: pos.current(),
            mask: pos.mask(),
            moves: pos.moves(),
        }
    }

    #[inline(always)]
    pub fn moves(&self) -> i32 {
        self.moves as i32
    }

    /// The same key as [`Position::key`], so both share table entries.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.current + self.mask + Self::BOTTOM
    }

    /// The key shared by the position and its mirror image (the smaller of
    /// the two), and whether it is the mirror image's: both have the same
    /// score, and a search from a symmetric position (the empty board
    /// first of all) meets each line and its mirror image.
    #[inline(always)]
    pub fn canonical_key(&self) -> (u64, bool) {
        let key = self.key();
        let field = (1u64 << Self::STRIDE) - 1;
        let mut mirror = 0;
        let mut c = 0;
        while c < W {
            let shift = c as u32 * Self::STRIDE;
            let back = (W - 1 - c) as u32 * Self::STRIDE;
            mirror |= (key >> shift & field) << back;
            c += 1;
        }
        if mirror < key {
            (mirror, true)
        } else {
            (key, false)
        }
    }

    /// Every cell of column `c` (0-based).
    #[inline(always)]
    pub const fn column_mask(c: usize) -> u64 {
        ((1u64 << H) - 1) << (c as u32 * Self::STRIDE)
    }

    /// The column (0-based) of the single-bit `cell`.
    #[inline(always)]
    pub fn column_of(cell: u64) -> usize {
        (cell.trailing_zeros() / Self::STRIDE) as usize
    }

    #[inline(always)]
    fn possible(&self) -> u64 {
        (self.mask + Self::BOTTOM) & Self::BOARD
    }

    /// The free cells that would complete four for `stones`, playable now
    /// or not (the same as `Shape::winning_cells`, with constant shifts).
    #[inline(always)]
    fn winning_cells(stones: u64, mask: u64) -> u64 {
        let h = Self::STRIDE;
        let mut r = (stones << 1) & (stones << 2) & (stones << 3);
        let mut one = |shift: u32| {
            let p = (stones << shift) & (stones << (2 * shift));
            r |= p & (stones << (3 * shift));
            r |= p & (stones >> shift);
            let p = (stones >> shift) & (stones >> (2 * shift));
            r |= p & (stones >> (3 * shift));
            r |= p & (stones << shift);
        };
        one(h - 1);
        one(h);
        one(h + 1);
        r & (Self::BOARD ^ mask)
    }

    #[inline(always)]
    pub fn can_win_next(&self) -> bool {
        Self::winning_cells(self.current, self.mask) & self.possible() != 0
    }

    /// The playable cells that do not let the opponent make four at once
    /// (as [`Position::non_losing_moves`]); 0 when every move loses.
    #[inline(always)]
    pub fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let threats = Self::winning_cells(self.current ^ self.mask, self.mask);
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// The cells that would complete four for the side to move after it
    /// plays `cell`.
    #[inline(always)]
    pub fn threats_after(&self, cell: u64) -> u32 {
        Self::winning_cells(self.current | cell, self.mask).count_ones()
    }

    /// Whether `stones` hold four in a row.
    #[inline(always)]
    fn has_four(stones: u64) -> bool {
        let h = Self::STRIDE;
        let four = |shift: u32| {
            let pairs = stones & (stones >> shift);
            pairs & (pairs >> (2 * shift)) != 0
        };
        four(1) || four(h) || four(h - 1) || four(h + 1)
    }

    /// Whether the second player can keep the first, who is to move, from
    /// ever making four: Allis' "claimeven" (answer every stone on top of
    /// it in the same column), with the columns of odd height (an even
    /// number of them when the first player is to move) taken in pairs,
    /// a stone at the foot of one answered at the foot of the other. On a
    /// board of even height the first player then gets no cell but the
    /// empty cells of odd rows (counted from 1) and those feet; if they
    /// make no four with its stones, its score is at most 0. Always false
    /// on boards of odd height (the top cell breaks the pairs) and with
    /// the second player to move.
    #[inline(always)]
    pub fn claimeven_holds(&self) -> bool {
        if !H.is_multiple_of(2) || !self.moves.is_multiple_of(2) {
            return false;
        }
        let empty = Self::BOARD & !self.mask;
        let feet = self.possible() & !Self::ODD_ROWS;
        !Self::has_four(self.current | (empty & Self::ODD_ROWS) | feet)
    }

    /// Whether the second player, to move, has a stone after which
    /// [`claimeven_holds`](Self::claimeven_holds): then its score is at
    /// least 0.
    #[inline(always)]
    pub fn claimeven_reply(&self) -> bool {
        if !H.is_multiple_of(2) || self.moves.is_multiple_of(2) {
            return false;
        }
        let first = self.current ^ self.mask;
        let mut possible = self.possible();
        while possible != 0 {
            let cell = possible & possible.wrapping_neg();
            possible ^= cell;
            let mask = self.mask | cell;
            let empty = Self::BOARD & !mask;
            let feet = (mask + Self::BOTTOM) & Self::BOARD & !Self::ODD_ROWS;
            if !Self::has_four(first | (empty & Self::ODD_ROWS) | feet) {
                return true;
            }
        }
        false
    }

    /// A lower bound on the first player's score with the second to move,
    /// from Allis' zugzwang of an odd threat (0 when none is found): a
    /// column `c` of odd height where the first player has a threat on an
    /// odd row (counted from 1), the other columns of odd height taken in
    /// pairs (a stone at one's foot answered at the other's), and every
    /// other stone of the second player answered on top of it. The second
    /// player then gets the empty cells of odd rows outside `c`, the feet
    /// of the paired columns and the even cells of `c` below the threat,
    /// and must at last play under the threat; if those cells make no four
    /// with its stones, the first player wins, at the latest on the threat
    /// when every other cell below and beside it is full. Always 0 on
    /// boards of odd height and with the first player to move.
    #[inline(always)]
    pub fn odd_threat_win(&self) -> i32 {
        if !H.is_multiple_of(2) || self.moves.is_multiple_of(2) {
            return 0;
        }
        Self::odd_threat_score(self.current, self.current ^ self.mask, self.mask)
    }

    /// [`odd_threat_win`](Self::odd_threat_win) of the position with
    /// `second`'s and `first`'s stones, the second player to move.
    #[inline(always)]
    fn odd_threat_score(second: u64, first: u64, mask: u64) -> i32 {
        let possible = (mask + Self::BOTTOM) & Self::BOARD;
        let odd_feet = possible & !Self::ODD_ROWS;
        let threats = Self::winning_cells(first, mask) & Self::ODD_ROWS;
        if threats == 0 || odd_feet == 0 {
            return 0;
        }
        let empty = Self::BOARD & !mask;
        let mut best = 0;
        let mut feet = odd_feet;
        while feet != 0 {
            let foot = feet & feet.wrapping_neg();
            feet ^= foot;
            let column = Self::column_mask(Self::column_of(foot));
            let in_column = threats & column;
            if in_column == 0 {
                continue;
            }
            // The lowest threat of the column, and the cells under it.
            let threat = in_column & in_column.wrapping_neg();
            let under = (threat - 1) & column & empty;
            let cells = second
                | (empty & Self::ODD_ROWS & !column)
                | (odd_feet & !column)
                | (under & !Self::ODD_ROWS);
            if !Self::has_four(cells) {
                let row = threat.trailing_zeros() % Self::STRIDE;
                best = best.max((H as i32 - row as i32 + 1) / 2);
            }
        }
        best
    }

    /// The best [`odd_threat_win`](Self::odd_threat_win) the first player,
    /// to move, can reach with one stone (0 when none).
    #[inline(always)]
    pub fn odd_threat_move(&self) -> i32 {
        if !H.is_multiple_of(2) || !self.moves.is_multiple_of(2) {
            return 0;
        }
        let mut best = 0;
        let mut possible = self.possible();
        while possible != 0 {
            let cell = possible & possible.wrapping_neg();
            possible ^= cell;
            let first = self.current | cell;
            let mask = self.mask | cell;
            best = best.max(Self::odd_threat_score(first ^ mask, first, mask));
        }
        best
    }

    /// Plays the playable single-bit `cell`, which must not make four.
    #[inline(always)]
    pub fn advance(&mut self, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }
}

/// Calls `$body` with `$w` and `$h` bound as constants to the width and
/// height of `$pos`'s board (every size the game allows).
macro_rules! dispatch {
    ($pos:expr, |$w:ident, $h:ident| $body:expr) => {{
        let pos: &crate::game::connect4::Position = $pos;
        $crate::solve::connect4::board::dispatch!(@widths pos, $w, $h, $body, 4 5 6 7 8)
    }};
    (@widths $pos:ident, $w:ident, $h:ident, $body:expr, $($width:literal)*) => {
        match $pos.width() {
            $( $width => {
                const $w: usize = $width;
                $crate::solve::connect4::board::dispatch!(@heights $pos, $h, $body, 4 5 6 7)
            } )*
            w => unreachable!("no Connect Four board is {w} wide"),
        }
    };
    (@heights $pos:ident, $h:ident, $body:expr, $($height:literal)*) => {
        match $pos.height() {
            $( $height => {
                const $h: usize = $height;
                $body
            } )*
            h => unreachable!("no Connect Four board is {h} high"),
        }
    };
}
pub(super) use dispatch;
