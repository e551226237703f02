//! Hex on an n×n rhombus, in the conventions of HexGui, MoHex and the SGF
//! Hex spec (GM\[11\]): columns are letters from `a`, rows numbers from 1
//! (row 1 at the top); Black moves first and connects the top and bottom
//! rows, White the left and right columns. With the swap rule, the second
//! player may answer the first stone with `swap-pieces`: the stone moves
//! to its mirror image across the long diagonal and changes colour, and
//! Black moves again. Hex has no draws: a full board always has exactly
//! one winner.
//!
//! Each cell (column `c`, row `r`) touches `c±1` in its row, `c` and
//! `c+1` in the row above, `c-1` and `c` in the row below. The win test is
//! a disjoint-set forest over the stones plus four nodes for the edges:
//! a move joins its stone to its own colour's neighbours and edges, and a
//! player has won once their two edges share a root.

#[cfg(test)]
mod tests;

use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome};
use std::fmt;

/// Largest side: 19 (cells `a1` to `s19`, one letter per column).
pub const MAX_SIZE: usize = 19;
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
/// Forest nodes: the cells, then the four edges.
const NODES: usize = MAX_CELLS + 4;

const EMPTY: u8 = 0;

/// A cell, `row * size + column` (both from 0, row 0 at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Cell),
    /// The swap rule's `swap-pieces`.
    Swap,
}

/// Why a board cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Hex boards are 1x1 to {MAX_SIZE}x{MAX_SIZE}, not {0}x{0}")]
pub struct BadSize(pub usize);

/// Zobrist keys: per colour and cell, and one for White to move.
const KEYS: [[u64; MAX_CELLS]; 2] = zobrist_keys();
const WHITE_TO_MOVE: u64 = 0x5bd1_e995_9f1b_0c4d;

const fn zobrist_keys() -> [[u64; MAX_CELLS]; 2] {
    let mut keys = [[0u64; MAX_CELLS]; 2];
    let mut state: u64 = 0x4845_5821; // "HEX!"
    let mut i = 0;
    while i < 2 * MAX_CELLS {
        // splitmix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i / MAX_CELLS][i % MAX_CELLS] = z ^ (z >> 31);
        i += 1;
    }
    keys
}

#[derive(Clone)]
pub struct Position {
    size: usize,
    /// Per cell: 0 empty, 1 Black, 2 White.
    stones: [u8; MAX_CELLS],
    /// The disjoint-set forest over cells and edges (see the module doc).
    parent: [u16; NODES],
    to_move: Color,
    /// Moves played, a swap included.
    moves: usize,
    swap_allowed: bool,
    winner: Option<Color>,
    hash: u64,
}

fn code(color: Color) -> u8 {
    match color {
        Color::Black => 1,
        Color::White => 2,
    }
}

impl Position {
    pub const MIN_SIZE: usize = 1;
    pub const MAX_SIZE: usize = MAX_SIZE;

    /// An empty `size`×`size` board, Black to move, swap allowed.
    pub fn new(size: usize) -> Result<Position, BadSize> {
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size) {
            return Err(BadSize(size));
        }
        let mut parent = [0u16; NODES];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u16;
        }
        Ok(Position {
            size,
            stones: [EMPTY; MAX_CELLS],
            parent,
            to_move: Color::Black,
            moves: 0,
            swap_allowed: true,
            winner: None,
            hash: 0,
        })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn num_cells(&self) -> usize {
        self.size * self.size
    }

    /// Moves played so far (a swap counts as one).
    pub fn move_number(&self) -> usize {
        self.moves
    }

    /// Whether the second player may still answer with `swap-pieces` (the
    /// swap rule's switch; on by default).
    pub fn set_swap_allowed(&mut self, on: bool) {
        self.swap_allowed = on;
    }

    /// The swap is the second move, and only while the game goes on.
    pub fn can_swap(&self) -> bool {
        self.swap_allowed && self.moves == 1 && self.winner.is_none()
    }

    /// The cell at `column`, `row` (both from 0), if on the board.
    pub fn cell(&self, column: usize, row: usize) -> Option<Cell> {
        (column < self.size && row < self.size).then(|| Cell((row * self.size + column) as u16))
    }

    /// (column, row) of `c`, both from 0.
    pub fn coords(&self, c: Cell) -> (usize, usize) {
        (c.0 as usize % self.size, c.0 as usize / self.size)
    }

    /// The cell's name: column letter and row number (`a1`, `k11`).
    pub fn cell_name(&self, c: Cell) -> String {
        let (column, row) = self.coords(c);
        format!("{}{}", (b'a' + column as u8) as char, row + 1)
    }

    /// The cell a name such as `a1` or `K11` (any case) gives, if it is on
    /// the board.
    pub fn parse_cell(&self, name: &str) -> Option<Cell> {
        let mut chars = name.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        self.cell((letter as u8 - b'a') as usize, row.checked_sub(1)?)
    }

    pub fn color_at(&self, c: Cell) -> Option<Color> {
        match self.stones.get(c.0 as usize)? {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Who has connected their edges, if anyone.
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The up-to-six neighbours of `c`, written into `out`; returns how
    /// many.
    pub fn neighbours(&self, c: Cell, out: &mut [Cell; 6]) -> usize {
        let (column, row) = self.coords(c);
        let (column, row, n) = (column as isize, row as isize, self.size as isize);
        let mut count = 0;
        for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (1, -1), (-1, 1), (0, 1)] {
            let (c2, r2) = (column + dc, row + dr);
            if (0..n).contains(&c2) && (0..n).contains(&r2) {
                out[count] = Cell((r2 * n + c2) as u16);
                count += 1;
            }
        }
        count
    }

    /// The empty cells, in index order, written into `out`; returns how
    /// many. The playout policy's starting list.
    pub fn empty_cells_into(&self, out: &mut [u16]) -> usize {
        let mut count = 0;
        for i in 0..self.num_cells() {
            if self.stones[i] == EMPTY {
                out[count] = i as u16;
                count += 1;
            }
        }
        count
    }

    fn find(&mut self, mut x: usize) -> usize {
        // Path halving: every other node on the way points to its
        // grandparent, which keeps the trees flat without recursion.
        while self.parent[x] as usize != x {
            let grand = self.parent[self.parent[x] as usize];
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb as u16;
        }
    }

    /// The two edge nodes `color` connects: Black top and bottom, White
    /// left and right.
    fn edges(&self, color: Color) -> (usize, usize) {
        let base = self.num_cells();
        match color {
            Color::Black => (base, base + 1),
            Color::White => (base + 2, base + 3),
        }
    }

    /// Puts a `color` stone on the empty cell `c`: joins it to its edges and
    /// own neighbours and notes a win.
    fn place(&mut self, color: Color, c: Cell) {
        let i = c.0 as usize;
        self.stones[i] = code(color);
        self.hash ^= KEYS[color.index()][i];
        let (column, row) = self.coords(c);
        let (first, second) = self.edges(color);
        let along = match color {
            Color::Black => row,
            Color::White => column,
        };
        if along == 0 {
            self.union(i, first);
        }
        if along + 1 == self.size {
            self.union(i, second);
        }
        let mut around = [Cell(0); 6];
        let count = self.neighbours(c, &mut around);
        for &n in &around[..count] {
            if self.stones[n.0 as usize] == code(color) {
                self.union(i, n.0 as usize);
            }
        }
        if self.find(first) == self.find(second) {
            self.winner = Some(color);
        }
    }

    fn check(&self, mv: Move) -> Result<(), IllegalReason> {
        if self.winner.is_some() {
            return Err(IllegalReason::GameOver);
        }
        match mv {
            Move::Swap if self.can_swap() => Ok(()),
            Move::Swap => Err(IllegalReason::NotAllowed),
            Move::Play(c) if c.0 as usize >= self.num_cells() => Err(IllegalReason::OffBoard),
            Move::Play(c) if self.stones[c.0 as usize] != EMPTY => Err(IllegalReason::Occupied),
            Move::Play(_) => Ok(()),
        }
    }

    /// The swap: the first stone to its mirror cell, in the other colour;
    /// the forest starts again from that one stone.
    fn swap(&mut self) {
        let Some(i) = (0..self.num_cells()).find(|&i| self.stones[i] != EMPTY) else {
            return;
        };
        let first = Cell(i as u16);
        let was = self.color_at(first).unwrap_or(Color::Black);
        let (column, row) = self.coords(first);
        let mirror = Cell((column * self.size + row) as u16);
        self.stones[i] = EMPTY;
        self.hash ^= KEYS[was.index()][i];
        for (n, p) in self.parent.iter_mut().enumerate() {
            *p = n as u16;
        }
        self.place(was.opponent(), mirror);
    }

    /// Plays `mv` for the side to move without checks; the caller knows it
    /// is legal.
    pub fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Play(c) => self.place(self.to_move, c),
            Move::Swap => self.swap(),
        }
        self.moves += 1;
        self.to_move = self.to_move.opponent();
        self.hash ^= WHITE_TO_MOVE;
    }

    /// The board as text: the rhombus with each row shifted half a cell
    /// right of the one above, `X` Black, `O` White, `.` empty, and the
    /// side to move.
    pub fn showboard(&self) -> String {
        let letters: String = (0..self.size)
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        // Each row starts one place right of the one above; the letters
        // stand over row 1's cells and under the last row's.
        let mut out = format!("   {letters}\n");
        for row in 0..self.size {
            let label = format!("{:>2}", row + 1);
            out.push_str(&" ".repeat(row));
            out.push_str(&label);
            out.push_str(" \\");
            for column in 0..self.size {
                let c = Cell((row * self.size + column) as u16);
                out.push(match self.color_at(c) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
                if column + 1 < self.size {
                    out.push(' ');
                }
            }
            out.push_str(&format!("\\ {}\n", row + 1));
        }
        out.push_str(&" ".repeat(self.size + 2));
        out.push_str(&letters);
        out.push('\n');
        let status = match self.winner {
            Some(c) => format!("{} has won", c.name()),
            None => format!("{} to move", self.to_move.name()),
        };
        out.push_str(&format!("{status}, move {}\n", self.moves + 1));
        out
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.showboard())
    }
}

impl Game for Position {
    type Move = Move;

    fn to_move(&self) -> Color {
        self.to_move
    }

    /// Every empty cell, then the swap when it is allowed.
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        out.extend(
            (0..self.num_cells())
                .filter(|&i| self.stones[i] == EMPTY)
                .map(|i| Move::Play(Cell(i as u16))),
        );
        if self.can_swap() {
            out.push(Move::Swap);
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove<Move>> {
        self.check(mv)
            .map_err(|reason| IllegalMove { mv, reason })?;
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: Move) {
        Position::play_unchecked(self, mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }

    /// A connected pair of edges is final: the search may treat it as a
    /// proof (MCTS-solver).
    fn proven_outcome(&self) -> Option<Outcome> {
        self.outcome()
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Cells, then the swap.
    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Play(c) => c.0 as usize,
            Move::Swap => self.num_cells(),
        }
    }

    fn move_space(&self) -> usize {
        self.num_cells() + 1
    }

    fn move_cell(&self, mv: Move) -> Option<usize> {
        match mv {
            Move::Play(c) => Some(c.0 as usize),
            Move::Swap => None,
        }
    }

    fn cell_space(&self) -> usize {
        self.num_cells()
    }
}
