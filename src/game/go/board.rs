//! The fast board: stones, chains, liberties and the empty-point list.
//!
//! This is the playout hot path, so it knows nothing about game history
//! (superko, passes, move numbers live in [`super::Position`]).
//!
//! Layout: a padded 1-D array, `stride = size + 2`, one ring of `BORDER`
//! cells around the board, so neighbours are `p ± 1`, `p ± stride` with no
//! bounds checks. Arrays have the fixed maximum size (25x25 → 27x27) so the
//! board is `Copy` and a playout starts with one memcpy, no allocation.
//!
//! Chains (Go "strings") are circular linked lists through `next`, each
//! stone pointing at its chain's `head`. Per chain we keep pseudo-liberties
//! (the number of stone/empty adjacencies) with their sum and sum of squares:
//! all pseudo-liberties are the same point — the chain is in atari — exactly
//! when `libs * sum_sq == sum * sum` (Cauchy-Schwarz), and that point is
//! `sum / libs`. So atari is detected exactly at the cost of three adds per
//! adjacency change, with no liberty sets to copy.
//!
//! Per point we also keep packed neighbour counts (black, white, empty; the
//! border counts as both colours), which make "has an empty neighbour" and
//! "eye-like" single comparisons.

use super::zobrist::KEYS;
use crate::game::Color;

pub const MAX_SIZE: usize = 25;
pub const MAX_STRIDE: usize = MAX_SIZE + 2;
pub const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// Cell contents. Stone colours are 1 and 2 so `other` is a XOR.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const BORDER: u8 = 3;

/// The opposing stone colour (`BLACK` ↔ `WHITE`).
#[inline]
pub const fn other(color: u8) -> u8 {
    color ^ 3
}

/// Packed neighbour counts: the 4-bit field of cell kind `k` (EMPTY,
/// BLACK, WHITE) starts at bit `4 * k`. `UNIT` is what one neighbour of
/// each kind adds; the border counts as black and white at once, since for
/// "surrounded by my colour" tests the edge is as good as a friendly stone.
const UNIT: [u16; 4] = [1, 1 << 4, 1 << 8, 1 << 4 | 1 << 8];

#[inline]
fn field(packed: u16, kind: u8) -> u32 {
    (packed as u32 >> (4 * kind as u32)) & 0xF
}

/// Per-chain data, stored at the chain's head cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Chain {
    /// Pseudo-liberties: stone/empty adjacencies, counted with repetition.
    pub(crate) libs: u16,
    pub(crate) size: u16,
    pub(crate) lib_sum: u32,
    pub(crate) lib_sum_sq: u32,
}

impl Chain {
    #[inline]
    fn add_lib(&mut self, p: usize) {
        self.libs += 1;
        self.lib_sum += p as u32;
        self.lib_sum_sq += (p * p) as u32;
    }

    #[inline]
    pub(super) fn remove_lib(&mut self, p: usize) {
        self.libs -= 1;
        self.lib_sum -= p as u32;
        self.lib_sum_sq -= (p * p) as u32;
    }

    /// Exactly one distinct liberty. A point touches at most four stones,
    /// so more than four pseudo-liberties cannot all be the same point.
    #[inline]
    pub(super) fn in_atari(&self) -> bool {
        let sum = self.lib_sum as u64;
        (1..=4).contains(&self.libs) && self.libs as u64 * self.lib_sum_sq as u64 == sum * sum
    }
}

#[derive(Clone, Copy)]
pub struct Board {
    pub(super) size: usize,
    pub(super) stride: usize,
    pub(super) cells: [u8; MAX_CELLS],
    pub(super) neighbours: [u16; MAX_CELLS],
    pub(super) head: [u16; MAX_CELLS],
    pub(super) next: [u16; MAX_CELLS],
    pub(super) chains: [Chain; MAX_CELLS],
    pub(super) empties: [u16; MAX_POINTS],
    pub(super) empty_index: [u16; MAX_CELLS],
    pub(super) empty_count: usize,
    /// Simple-ko point (0 = none; cell 0 is always border) and the colour
    /// that may not play there.
    pub(super) ko: u16,
    pub(super) ko_color: u8,
    /// Zobrist hash of the stones only (positional superko compares these).
    pub(super) hash: u64,
    /// Stones captured *by* each colour, indexed by cell value.
    pub(super) captured: [u32; 3],
}

impl Board {
    /// `*self = *other`, copying for a board of the same size only the
    /// cells in use: the arrays are sized for 25x25 (16 KB), and the
    /// search copies its root position into every descent (on 9x9 that
    /// copy was a seventh of the tree's time). Cells past `stride²` are
    /// never touched after [`Board::new`], so they already agree.
    pub fn copy_from(&mut self, other: &Board) {
        if self.stride != other.stride || self.size != other.size {
            *self = *other;
            return;
        }
        let cells = other.stride * other.stride;
        let points = other.size * other.size;
        self.cells[..cells].copy_from_slice(&other.cells[..cells]);
        self.neighbours[..cells].copy_from_slice(&other.neighbours[..cells]);
        self.head[..cells].copy_from_slice(&other.head[..cells]);
        self.next[..cells].copy_from_slice(&other.next[..cells]);
        self.chains[..cells].copy_from_slice(&other.chains[..cells]);
        self.empties[..points].copy_from_slice(&other.empties[..points]);
        self.empty_index[..cells].copy_from_slice(&other.empty_index[..cells]);
        self.empty_count = other.empty_count;
        self.ko = other.ko;
        self.ko_color = other.ko_color;
        self.hash = other.hash;
        self.captured = other.captured;
    }

    /// An empty board. `size` must be in `1..=MAX_SIZE` (checked by
    /// [`super::Position::new`]).
    pub fn new(size: usize) -> Board {
        assert!((1..=MAX_SIZE).contains(&size), "board size {size}");
        let stride = size + 2;
        let mut board = Board {
            size,
            stride,
            cells: [BORDER; MAX_CELLS],
            neighbours: [0; MAX_CELLS],
            head: [0; MAX_CELLS],
            next: [0; MAX_CELLS],
            chains: [Chain::default(); MAX_CELLS],
            empties: [0; MAX_POINTS],
            empty_index: [0; MAX_CELLS],
            empty_count: 0,
            ko: 0,
            ko_color: EMPTY,
            hash: 0,
            captured: [0; 3],
        };
        for row in 0..size {
            for col in 0..size {
                let p = board.point_at(col, row);
                board.cells[p] = EMPTY;
                board.empty_index[p] = board.empty_count as u16;
                board.empties[board.empty_count] = p as u16;
                board.empty_count += 1;
            }
        }
        let points: Vec<usize> = board.points().collect();
        for p in points {
            board.neighbours[p] = board
                .adjacent(p)
                .iter()
                .map(|&q| UNIT[board.cells[q] as usize])
                .sum();
        }
        board
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Number of cells including the border ring.
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.stride * self.stride
    }

    /// Cell index of (col, row), both 0-based, row 0 at the bottom.
    #[inline]
    pub fn point_at(&self, col: usize, row: usize) -> usize {
        (row + 1) * self.stride + col + 1
    }

    /// (col, row) of an on-board cell.
    #[inline]
    pub fn coords(&self, p: usize) -> (usize, usize) {
        (
            (p % self.stride).wrapping_sub(1),
            (p / self.stride).wrapping_sub(1),
        )
    }

    /// Dense index `row * size + col` of an on-board cell (meaningless but
    /// panic-free for other cells).
    #[inline]
    pub fn dense_index(&self, p: usize) -> usize {
        let (col, row) = self.coords(p);
        row.wrapping_mul(self.size).wrapping_add(col)
    }

    /// All on-board cells, row-major from the bottom-left.
    pub fn points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.size).flat_map(move |row| (0..self.size).map(move |col| self.point_at(col, row)))
    }

    #[inline]
    pub fn cell(&self, p: usize) -> u8 {
        self.cells[p]
    }

    /// The four orthogonal neighbours (some may be border).
    #[inline]
    pub fn adjacent(&self, p: usize) -> [usize; 4] {
        [p - self.stride, p - 1, p + 1, p + self.stride]
    }

    /// The four diagonal neighbours (some may be border).
    #[inline]
    pub fn diagonal(&self, p: usize) -> [usize; 4] {
        [
            p - self.stride - 1,
            p - self.stride + 1,
            p + self.stride - 1,
            p + self.stride + 1,
        ]
    }

    /// Neighbours of `p` that are `kind` (EMPTY, BLACK or WHITE); for the
    /// stone colours the border is included.
    #[inline]
    pub fn neighbour_count(&self, p: usize, kind: u8) -> u32 {
        field(self.neighbours[p], kind)
    }

    #[inline]
    pub fn empties(&self) -> &[u16] {
        &self.empties[..self.empty_count]
    }

    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty_count
    }

    /// Swaps two entries of the empty-point list (the order carries no
    /// meaning; playouts use this to sample without replacement).
    #[inline]
    pub fn swap_empties(&mut self, i: usize, j: usize) {
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_index[b as usize] = i as u16;
        self.empty_index[a as usize] = j as u16;
    }

    /// Zobrist hash of the stones alone.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The simple-ko point and the colour barred from it.
    #[inline]
    pub fn ko(&self) -> Option<(usize, u8)> {
        (self.ko != 0).then_some((self.ko as usize, self.ko_color))
    }

    /// Stones captured so far by `color`.
    #[inline]
    pub fn captured_by(&self, color: u8) -> u32 {
        self.captured[color as usize]
    }

    /// Playing `color` at empty `p` would leave its own chain without
    /// liberties and capture nothing.
    #[inline(always)]
    pub fn is_suicide(&self, color: u8, p: usize) -> bool {
        self.neighbour_count(p, EMPTY) == 0 && self.is_surrounded_suicide(color, p)
    }

    /// `is_suicide` for a point without empty neighbours.
    fn is_surrounded_suicide(&self, color: u8, p: usize) -> bool {
        for q in self.adjacent(p) {
            let cell = self.cells[q];
            if cell == BORDER {
                continue;
            }
            // A friendly chain not in atari has a liberty other than `p`; an
            // enemy chain in atari has `p` as its last liberty and dies.
            if (cell == color) != self.chains[self.head[q] as usize].in_atari() {
                return false;
            }
        }
        true
    }

    /// Legal for `color` apart from superko: empty, not the simple-ko
    /// point, not suicide.
    #[inline]
    pub fn is_legal(&self, color: u8, p: usize) -> bool {
        self.cells[p] == EMPTY
            && !(p == self.ko as usize && color == self.ko_color)
            && !self.is_suicide(color, p)
    }

    /// Empty `p` is surrounded by `color` and the edge.
    #[inline]
    pub fn is_eyelike(&self, color: u8, p: usize) -> bool {
        self.neighbour_count(p, color) == 4
    }

    /// Empty `p` is a one-point eye of `color` that filling would waste:
    /// eye-like, and at most one diagonal held by the opponent (none on the
    /// edge or in the corner).
    #[inline]
    pub fn is_eye(&self, color: u8, p: usize) -> bool {
        if !self.is_eyelike(color, p) {
            return false;
        }
        let enemy = other(color);
        let mut bad = 0;
        let mut on_edge = 0;
        for d in self.diagonal(p) {
            let cell = self.cells[d];
            bad += (cell == enemy) as u32;
            on_edge |= (cell == BORDER) as u32;
        }
        bad + on_edge < 2
    }

    /// Passing only clears the simple-ko restriction.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = 0;
    }

    /// Plays `color` at `p`, which must be empty. Captures; sets the
    /// simple-ko point. A suicide (which callers should have rejected)
    /// removes the suicided chain, so the board always stays consistent.
    /// Returns the number of stones captured.
    pub fn play(&mut self, color: u8, p: usize) -> u32 {
        debug_assert_eq!(self.cells[p], EMPTY);
        let enemy = other(color);
        self.ko = 0;
        let around = self.neighbours[p];
        self.put_stone(color, p);

        // A new one-stone chain with the pseudo-liberties of `p`; every
        // adjacent stone loses its adjacency to `p` (once per stone, as
        // pseudo-liberties count adjacencies).
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        let mut chain = Chain {
            size: 1,
            ..Chain::default()
        };
        let adjacent = self.adjacent(p);
        for q in adjacent {
            let cell = self.cells[q];
            if cell == EMPTY {
                chain.add_lib(q);
            } else if cell != BORDER {
                let h = self.head[q] as usize;
                self.chains[h].remove_lib(p);
            }
        }
        self.chains[p] = chain;
        if field(around, EMPTY) == 4 {
            // Nothing to capture or join: the common case early on.
            return 0;
        }

        let mut captured = 0;
        let mut last_captured = 0;
        for q in adjacent {
            if self.cells[q] == enemy && self.chains[self.head[q] as usize].libs == 0 {
                captured += self.remove_chain(q, color);
                last_captured = q;
            }
        }
        for q in adjacent {
            if self.cells[q] == color && self.head[q] != self.head[p] {
                self.merge_chains(self.head[p] as usize, self.head[q] as usize);
            }
        }

        let own = self.chains[self.head[p] as usize];
        if own.libs == 0 {
            self.captured[enemy as usize] += self.remove_chain(p, enemy);
        } else if captured == 1 && own.size == 1 && own.libs == 1 {
            // A lone stone that took a lone stone and has only the captured
            // point as liberty: the opponent may not retake at once.
            self.ko = last_captured as u16;
            self.ko_color = enemy;
        }
        self.captured[color as usize] += captured;
        captured
    }

    /// The stone hash after `color` plays at `p` (which must be legal
    /// apart from superko), without playing it.
    pub fn hash_after(&self, color: u8, p: usize) -> u64 {
        let enemy = other(color);
        let mut hash = self.hash ^ KEYS[color as usize][p];
        let mut seen = [usize::MAX; 4];
        for (i, q) in self.adjacent(p).into_iter().enumerate() {
            if self.cells[q] != enemy {
                continue;
            }
            let h = self.head[q] as usize;
            if seen.contains(&h) || !self.chains[h].in_atari() {
                continue;
            }
            seen[i] = h;
            for stone in self.chain_stones(q) {
                hash ^= KEYS[enemy as usize][stone];
            }
        }
        hash
    }

    /// Sets `p` to `color`: cell, hash, empty list, neighbour counts.
    #[inline]
    fn put_stone(&mut self, color: u8, p: usize) {
        self.cells[p] = color;
        self.hash ^= KEYS[color as usize][p];
        let delta = UNIT[color as usize].wrapping_sub(UNIT[EMPTY as usize]);
        for q in self.adjacent(p) {
            self.neighbours[q] = self.neighbours[q].wrapping_add(delta);
        }
        // Remove from the empty list by moving the last entry into its slot.
        let slot = self.empty_index[p] as usize;
        self.empty_count -= 1;
        let last = self.empties[self.empty_count];
        self.empties[slot] = last;
        self.empty_index[last as usize] = slot as u16;
    }

    /// Removes the chain through `p`; each freed point becomes a liberty of
    /// the adjacent chains of `capturer`. Returns the number of stones.
    fn remove_chain(&mut self, p: usize, capturer: u8) -> u32 {
        let victim = self.cells[p];
        let delta = UNIT[EMPTY as usize].wrapping_sub(UNIT[victim as usize]);
        let mut stone = p;
        let mut count = 0;
        loop {
            self.cells[stone] = EMPTY;
            self.hash ^= KEYS[victim as usize][stone];
            self.empties[self.empty_count] = stone as u16;
            self.empty_index[stone] = self.empty_count as u16;
            self.empty_count += 1;
            for q in self.adjacent(stone) {
                self.neighbours[q] = self.neighbours[q].wrapping_add(delta);
                // Adjacent stones of the victim's colour belong to the victim.
                if self.cells[q] == capturer {
                    let h = self.head[q] as usize;
                    self.chains[h].add_lib(stone);
                }
            }
            count += 1;
            stone = self.next[stone] as usize;
            if stone == p {
                return count;
            }
        }
    }

    /// Joins two chains, relabelling the smaller one.
    fn merge_chains(&mut self, a: usize, b: usize) {
        let (keep, gone) = if self.chains[a].size >= self.chains[b].size {
            (a, b)
        } else {
            (b, a)
        };
        let mut stone = gone;
        loop {
            self.head[stone] = keep as u16;
            stone = self.next[stone] as usize;
            if stone == gone {
                break;
            }
        }
        self.next.swap(keep, gone);
        let absorbed = self.chains[gone];
        let chain = &mut self.chains[keep];
        chain.libs += absorbed.libs;
        chain.size += absorbed.size;
        chain.lib_sum += absorbed.lib_sum;
        chain.lib_sum_sq += absorbed.lib_sum_sq;
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Board {}x{} hash {:016x}",
            self.size, self.size, self.hash
        )?;
        for row in (0..self.size).rev() {
            let line: String = (0..self.size)
                .map(|col| match self.cells[self.point_at(col, row)] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// Cell value of a player's stones.
#[inline]
pub fn stone(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// The player owning a cell value, if it is a stone.
#[inline]
pub fn color_of(cell: u8) -> Option<Color> {
    match cell {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}
