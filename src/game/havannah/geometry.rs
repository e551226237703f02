//! Board geometry for one side length: cell numbering, neighbour table,
//! corner and edge membership, Zobrist keys.
//!
//! Coordinates follow Castro: a cell is `(x, y)` with `y` the row (printed
//! as a letter, `a` = 0) and `x` the diagonal (printed as a number, `x + 1`).
//! The hexagon of side `s` is the part of the `(2s-1)²` grid with
//! `|x - y| < s`, and cells touching along `(1, 1)` are neighbours. Cell
//! indices run row by row, `x` increasing inside a row.
//!
//! A geometry is built once per side and shared by every position of that
//! side (`&'static`), so cloning a position copies only its state.

use std::sync::OnceLock;

/// Cells on the largest board (side 10).
pub const MAX_CELLS: usize = 271;

/// Index of the off-board sentinel slot. Neighbours that fall off the board
/// point here, so the move hot path needs no bounds branch; state arrays
/// have [`SLOTS`] entries and the sentinel entry is scratch.
pub const OFF_BOARD: u16 = MAX_CELLS as u16;

/// Entries in a per-cell state array: the cells plus the sentinel.
pub const SLOTS: usize = MAX_CELLS + 1;

/// Rows on the largest board (`2 * 10 - 1`).
pub const MAX_ROWS: usize = 19;

/// The six directions as `(dx, dy)`. Consecutive directions (cyclically)
/// point at cells that are neighbours of each other, which is what makes a
/// 6-bit neighbour pattern read as runs around a cell; `d + 3` is the
/// opposite of `d`.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// Bits 0..6 of a reach mask: which corners a group touches.
pub const CORNER_BITS: u16 = 0x3F;
/// Shift of the edge bits (6..12) in a reach mask.
pub const EDGE_SHIFT: u32 = 6;

/// Whether a group with the reach mask `reach` touches two corners: a
/// bridge.
#[inline]
pub const fn joins_two_corners(reach: u16) -> bool {
    (reach & CORNER_BITS).count_ones() >= 2
}

/// Whether a group with the reach mask `reach` touches three edges: a fork.
#[inline]
pub const fn joins_three_edges(reach: u16) -> bool {
    (reach >> EDGE_SHIFT).count_ones() >= 3
}

/// Zobrist key toggled when Black is to move.
pub const BLACK_TO_MOVE_KEY: u64 = 0x6A09_E667_F3BC_C909;

#[inline]
pub const fn opposite(d: usize) -> usize {
    (d + 3) % 6
}

/// Precomputed facts about the friendly neighbours of a cell, by their
/// 6-bit pattern (bit `d` = neighbour in direction `d` is friendly).
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Maximal cyclic runs of friendly neighbours (0..=3).
    pub count: u8,
    /// One direction inside each run.
    pub first: [u8; 3],
    /// Directions `d` with `d - 1`, `d`, `d + 1` all friendly: the only
    /// neighbours that can end up with six friendly neighbours when this
    /// cell is filled.
    pub triple_centres: u8,
}

/// [`Runs`] for every pattern.
pub const RUNS: [Runs; 64] = build_runs();

const fn build_runs() -> [Runs; 64] {
    let mut table = [Runs {
        count: 0,
        first: [0; 3],
        triple_centres: 0,
    }; 64];
    let mut p = 0;
    while p < 64 {
        let mut runs = Runs {
            count: 0,
            first: [0; 3],
            triple_centres: 0,
        };
        if p == 0x3F {
            runs.count = 1;
        }
        let mut d = 0;
        while d < 6 {
            // A run starts where a friendly cell follows a non-friendly one.
            if p != 0x3F && has(p, d) && !has(p, d + 5) {
                runs.first[runs.count as usize] = d as u8;
                runs.count += 1;
            }
            if has(p, d + 5) && has(p, d) && has(p, d + 1) {
                runs.triple_centres |= 1 << d;
            }
            d += 1;
        }
        table[p] = runs;
        p += 1;
    }
    table
}

/// Everything about a board of one side length that never changes.
pub struct Geometry {
    pub side: usize,
    pub num_cells: usize,
    /// `(x, y)` of each cell.
    pub xy: [(u8, u8); MAX_CELLS],
    /// Index of the first cell of each row.
    pub row_first: [u16; MAX_ROWS],
    /// Neighbour of each slot in each direction, [`OFF_BOARD`] where there
    /// is none (the sentinel's own row is all [`OFF_BOARD`]).
    pub neighbours: [[u16; 6]; SLOTS],
    /// Corner bit (0..6) or edge bit (6..12) of each cell; 0 inside.
    pub reach: [u16; SLOTS],
    /// Zobrist keys, `[cell][color.index()]`.
    pub zobrist: [[u64; 2]; MAX_CELLS],
}

impl Geometry {
    /// Rows: `2 * side - 1`.
    #[inline]
    pub fn rows(&self) -> usize {
        2 * self.side - 1
    }

    /// Inclusive range of `x` in row `y` (which must be a row).
    #[inline]
    pub fn row_span(&self, y: usize) -> (usize, usize) {
        let s = self.side;
        (y.saturating_sub(s - 1), (y + s - 1).min(2 * s - 2))
    }

    /// The cell at `(x, y)`, if on the board.
    pub fn cell_at(&self, x: i32, y: i32) -> Option<u16> {
        if y < 0 || y as usize >= self.rows() || x < 0 {
            return None;
        }
        let (lo, hi) = self.row_span(y as usize);
        let x = x as usize;
        if x < lo || x > hi {
            return None;
        }
        Some(self.row_first[y as usize] + (x - lo) as u16)
    }

    fn build(side: usize) -> Geometry {
        let mut g = Geometry {
            side,
            num_cells: 3 * side * (side - 1) + 1,
            xy: [(0, 0); MAX_CELLS],
            row_first: [0; MAX_ROWS],
            neighbours: [[OFF_BOARD; 6]; SLOTS],
            reach: [0; SLOTS],
            zobrist: [[0; 2]; MAX_CELLS],
        };
        let mut next = 0usize;
        for y in 0..g.rows() {
            g.row_first[y] = next as u16;
            let (lo, hi) = g.row_span(y);
            for x in lo..=hi {
                g.xy[next] = (x as u8, y as u8);
                next += 1;
            }
        }
        debug_assert_eq!(next, g.num_cells);

        let m = side as i32 - 1;
        let e = 2 * m;
        // Corners clockwise from a1; edges clockwise from the one after a1.
        let corners = [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)];
        for c in 0..g.num_cells {
            let (x, y) = (g.xy[c].0 as i32, g.xy[c].1 as i32);
            for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                g.neighbours[c][d] = g.cell_at(x + dx, y + dy).unwrap_or(OFF_BOARD);
            }
            if let Some(k) = corners.iter().position(|&p| p == (x, y)) {
                g.reach[c] = 1 << k;
            } else {
                let on_edge = [y == 0, x - y == m, x == e, y == e, y - x == m, x == 0];
                if let Some(k) = on_edge.iter().position(|&b| b) {
                    g.reach[c] = 1 << (EDGE_SHIFT as usize + k);
                }
            }
        }

        // Zobrist keys from splitmix64, seeded per side so that tables are
        // reproducible across runs and machines.
        let mut state = 0x2545_F491_4F6C_DD1D_u64 ^ side as u64;
        let mut next_key = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        for keys in g.zobrist.iter_mut().take(g.num_cells) {
            *keys = [next_key(), next_key()];
        }
        g
    }
}

const fn has(pattern: usize, d: usize) -> bool {
    (pattern >> (d % 6)) & 1 == 1
}

/// The shared geometry of a side in `MIN_SIZE..=MAX_SIZE` (caller checks).
pub fn geometry(side: usize) -> &'static Geometry {
    static TABLES: OnceLock<Vec<Geometry>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| (3..=10).map(Geometry::build).collect());
    &tables[side - 3]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_directions_are_neighbours_and_opposites_cancel() {
        for d in 0..6 {
            let (a, b) = (DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]);
            let diff = (b.0 - a.0, b.1 - a.1);
            assert!(DIRECTIONS.contains(&diff), "{d}");
            let o = DIRECTIONS[opposite(d)];
            assert_eq!((a.0 + o.0, a.1 + o.1), (0, 0));
        }
    }

    #[test]
    fn cell_counts_and_neighbour_symmetry() {
        for side in 3..=10 {
            let g = geometry(side);
            assert_eq!(g.num_cells, 3 * side * side - 3 * side + 1);
            let mut corners = 0;
            let mut edges = [0usize; 6];
            for c in 0..g.num_cells {
                for d in 0..6 {
                    let n = g.neighbours[c][d];
                    if n != OFF_BOARD {
                        assert_eq!(g.neighbours[n as usize][opposite(d)] as usize, c);
                    }
                }
                let r = g.reach[c];
                corners += (r & CORNER_BITS).count_ones();
                for (k, count) in edges.iter_mut().enumerate() {
                    *count += ((r >> (EDGE_SHIFT as usize + k)) & 1) as usize;
                }
                let on_board = g.neighbours[c].iter().filter(|&&n| n != OFF_BOARD).count();
                // Corners have 3 neighbours, edge cells 4, the rest 6.
                let expected = if r & CORNER_BITS != 0 {
                    3
                } else if r != 0 {
                    4
                } else {
                    6
                };
                assert_eq!(on_board, expected, "side {side} cell {c}");
            }
            assert_eq!(corners, 6);
            assert!(edges.iter().all(|&n| n == side - 2), "{edges:?}");
        }
    }

    #[test]
    fn run_table() {
        assert_eq!(RUNS[0].count, 0);
        assert_eq!(RUNS[0b000001].count, 1);
        assert_eq!(RUNS[0b100001].count, 1);
        assert_eq!(RUNS[0b100001].first[0], 5);
        assert_eq!(RUNS[0b010101].count, 3);
        assert_eq!(RUNS[0b001001].count, 2);
        assert_eq!(RUNS[0x3F].count, 1);
        assert_eq!(RUNS[0b000111].triple_centres, 0b000010);
        assert_eq!(RUNS[0b110001].triple_centres, 0b100000);
    }
}
