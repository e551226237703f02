//! Havannah board geometry for the kernels: compact cell order,
//! neighbour table in cyclic order, corner and edge masks.
//!
//! Coordinates are axial `(q, r)` with `0 <= q, r < 2s - 1` and
//! `|q - r| < s`; compact cells run row by row (`r` outer, `q` inner). The
//! six neighbour directions, in cyclic order around a cell, are
//! `(+1,0) (+1,+1) (0,+1) (-1,0) (-1,-1) (0,-1)`.

/// Board sides the Havannah kernels are built for.
pub const SIZES: [usize; 4] = [4, 6, 8, 10];

pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// Mask bits: 0..6 corners, 6..12 edges (corners are on no edge).
pub const CORNER_BITS: u16 = 0x3F;
pub const EDGE_BITS: u16 = 0xFC0;

#[derive(Clone, Debug)]
pub struct HexGeometry {
    pub side: usize,
    /// `coords[cell] = (q, r)`.
    pub coords: Vec<(i32, i32)>,
    /// Six per cell, cyclic order, -1 off the board.
    pub neighbours: Vec<i16>,
    pub masks: Vec<u16>,
}

pub fn cell_count(side: usize) -> usize {
    3 * side * side - 3 * side + 1
}

impl HexGeometry {
    pub fn new(side: usize) -> HexGeometry {
        let s = side as i32;
        let d = 2 * s - 1;
        let on_board = |q: i32, r: i32| q >= 0 && r >= 0 && q < d && r < d && (q - r).abs() < s;
        let mut index = vec![-1i32; (d * d) as usize];
        let mut coords = Vec::new();
        for r in 0..d {
            for q in 0..d {
                if on_board(q, r) {
                    index[(r * d + q) as usize] = coords.len() as i32;
                    coords.push((q, r));
                }
            }
        }
        let corners = [
            (0, 0),
            (s - 1, 0),
            (d - 1, s - 1),
            (d - 1, d - 1),
            (s - 1, d - 1),
            (0, s - 1),
        ];
        let mut neighbours = Vec::with_capacity(coords.len() * 6);
        let mut masks = Vec::with_capacity(coords.len());
        for &(q, r) in &coords {
            for (dq, dr) in DIRECTIONS {
                let (nq, nr) = (q + dq, r + dr);
                neighbours.push(if on_board(nq, nr) {
                    index[(nr * d + nq) as usize] as i16
                } else {
                    -1
                });
            }
            let mask = if let Some(c) = corners.iter().position(|&c| c == (q, r)) {
                1u16 << c
            } else {
                // The six sides, in the same turn as the corners: side k
                // runs from corner k to corner k + 1.
                let sides = [
                    r == 0,
                    q - r == s - 1,
                    q == d - 1,
                    r == d - 1,
                    r - q == s - 1,
                    q == 0,
                ];
                sides
                    .iter()
                    .enumerate()
                    .filter(|(_, &on)| on)
                    .fold(0u16, |m, (k, _)| m | 1 << (6 + k))
            };
            masks.push(mask);
        }
        HexGeometry {
            side,
            coords,
            neighbours,
            masks,
        }
    }

    pub fn cells(&self) -> usize {
        self.coords.len()
    }

    #[inline]
    pub fn neighbour(&self, cell: usize, direction: usize) -> Option<usize> {
        let n = self.neighbours[cell * 6 + direction];
        (n >= 0).then_some(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_corners_and_edges() {
        for side in SIZES {
            let g = HexGeometry::new(side);
            assert_eq!(g.cells(), cell_count(side));
            let corners = g.masks.iter().filter(|&&m| m & CORNER_BITS != 0).count();
            assert_eq!(corners, 6);
            for k in 0..6 {
                let on_edge = g.masks.iter().filter(|&&m| m & (1 << (6 + k)) != 0).count();
                assert_eq!(on_edge, side - 2, "side {side} edge {k}");
            }
            // Neighbourhood is symmetric.
            for c in 0..g.cells() {
                for d in 0..6 {
                    if let Some(n) = g.neighbour(c, d) {
                        assert_eq!(g.neighbour(n, (d + 3) % 6), Some(c));
                    }
                }
            }
        }
    }
}
