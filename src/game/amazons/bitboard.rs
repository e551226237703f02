//! Amazons bitboards: one `u128` holds a board of up to 10x10, rank by rank
//! from the bottom, 11 bits a rank (files a–j, then a guard bit that is
//! never empty). Shifting a set one step in any of the eight directions
//! therefore never wraps from one edge to the other: a step off the a- or
//! j-file lands on a guard bit, a step off the first or last rank falls off
//! the word or lands above bit 109, and neither is ever an empty square.
//! Sliding moves use precomputed rays and the first blocker on each ray.

/// Bits per rank: ten files and one guard bit.
pub const STRIDE: usize = 11;
/// The largest board edge a `u128` holds.
pub const MAX_SIZE: usize = 10;
/// Bit indices used by squares of the largest board (`0..BITS`).
pub const BITS: usize = MAX_SIZE * STRIDE;

/// The bit of the square on `file` (0 = a) and `rank` (0 = the first).
#[inline]
pub const fn bit_index(file: usize, rank: usize) -> u8 {
    (rank * STRIDE + file) as u8
}

/// (file, rank) of bit index `sq`.
#[inline]
pub const fn file_rank(sq: u8) -> (usize, usize) {
    (sq as usize % STRIDE, sq as usize / STRIDE)
}

#[inline]
pub const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// Every square of an `n`x`n` board in the lower left corner.
pub const fn board_mask(n: usize) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < n {
        let mut f = 0;
        while f < n {
            m |= 1u128 << (r * STRIDE + f);
            f += 1;
        }
        r += 1;
    }
    m
}

/// The eight directions as (file step, rank step); the first four step to
/// higher bit indices, the last four to lower ones.
pub const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// The shift of one step in each of [`DIRS`] (negative: right shift).
pub const SHIFTS: [i32; 8] = [1, 11, 12, 10, -1, -11, -12, -10];

/// `RAYS[d][sq]`: every square of the 10x10 board beyond `sq` in direction
/// `d`, up to the edge. Squares of smaller boards that lie outside them are
/// walls the caller puts in the occupancy.
pub static RAYS: [[u128; BITS]; 8] = rays();

const fn rays() -> [[u128; BITS]; 8] {
    let mut t = [[0u128; BITS]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRS[d];
        let mut sq = 0;
        while sq < BITS {
            let (f0, r0) = (sq % STRIDE, sq / STRIDE);
            if f0 < MAX_SIZE {
                let (mut f, mut r) = (f0 as i32 + df, r0 as i32 + dr);
                let mut m = 0u128;
                while f >= 0 && r >= 0 && f < MAX_SIZE as i32 && r < MAX_SIZE as i32 {
                    m |= 1u128 << (r as usize * STRIDE + f as usize);
                    f += df;
                    r += dr;
                }
                t[d][sq] = m;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// The squares a queen on `sq` reaches through empty squares: `occupied`
/// holds every queen, arrow and wall (a queen's own square may be in it).
#[inline]
pub fn queen_reach(sq: u8, occupied: u128) -> u128 {
    let mut out = 0u128;
    let s = sq as usize;
    for rays in &RAYS[..4] {
        let ray = rays[s];
        let blockers = ray & occupied;
        out |= if blockers == 0 {
            ray
        } else {
            ray & !rays[blockers.trailing_zeros() as usize] & !(blockers & blockers.wrapping_neg())
        };
    }
    for rays in &RAYS[4..] {
        let ray = rays[s];
        let blockers = ray & occupied;
        out |= if blockers == 0 {
            ray
        } else {
            let first = 127 - blockers.leading_zeros() as usize;
            ray & !rays[first] & !(1u128 << first)
        };
    }
    out
}

/// `set` moved one step in direction `d`.
#[inline]
pub fn shift(set: u128, d: usize) -> u128 {
    let s = SHIFTS[d];
    if s > 0 {
        set << s
    } else {
        set >> -s
    }
}

/// The squares one king step from `set`, restricted to `empty`.
#[inline]
pub fn king_step(set: u128, empty: u128) -> u128 {
    let mut out = 0u128;
    for d in 0..8 {
        out |= shift(set, d);
    }
    out & empty
}

/// The squares one queen move from any square of `set`, sliding through
/// `empty` (the squares of `set` themselves need not be empty).
#[inline]
pub fn queen_step(set: u128, empty: u128) -> u128 {
    let mut out = 0u128;
    for d in 0..8 {
        let mut t = shift(set, d) & empty;
        while t != 0 {
            out |= t;
            t = shift(t, d) & empty;
        }
    }
    out
}

/// Iterates the set bits of a board, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u128);

impl Iterator for Squares {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}
