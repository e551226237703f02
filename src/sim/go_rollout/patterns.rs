//! 3x3 playout patterns (the MoGo set: hane, cuts and edge moves, as
//! described by Gelly, Wang, Munos and Teytaud, 2006), compiled at build
//! time into a 64 Ki-bit table indexed by the eight neighbours of a point.
//!
//! The set is colour-symmetric, so one table serves both players.

use crate::game::go::board::Board;

/// Pattern source, rows top to bottom, the candidate point in the centre.
/// `X`, `O`: a stone of one colour / the other; `.` empty; `#` off board;
/// `x`: not X (empty or O); `o`: not O (empty or X); `?`: anything.
/// Every rotation, reflection and colour swap is added when compiling.
const SOURCE: [&[u8; 9]; 13] = [
    b"XOX...???", // hane: enclosing hane
    b"XO....?.?", // hane: non-cutting hane
    b"XO?X..x.?", // hane: magari
    b".O.X.....", // diagonal attachment (katatsuke)
    b"XO?O.o?o?", // cut1: unprotected cut
    b"XO?O.X???", // cut1: peeped cut
    b"?X?O.Oooo", // cut2: de
    b"OX?o.O???", // cut keima
    b"X.?O.?###", // edge: chase
    b"OX?X.O###", // edge: block side cut
    b"?X?x.O###", // edge: block side connection
    b"?XOx.x###", // edge: sagari
    b"?OXX.O###", // edge: cut
];

/// Cell values as the board stores them.
const EMPTY: u8 = 0;
const ONE: u8 = 1;
const OTHER: u8 = 2;
const EDGE: u8 = 3;

/// Bit `code` is set when the neighbourhood `code` matches some pattern.
/// The GPU pattern kernel gets a copy (`go_pattern_table`).
pub(crate) static TABLE: [u64; 1024] = build_table();

/// Whether the empty point `p` matches a pattern. The neighbourhood code
/// packs the eight surrounding cells, two bits each.
#[inline]
pub fn matches(board: &Board, p: usize) -> bool {
    code_matches(code(board, p))
}

/// Whether the neighbourhood `code` (see [`code`]) matches a pattern.
#[inline]
pub fn code_matches(code: usize) -> bool {
    TABLE[code >> 6] >> (code & 63) & 1 != 0
}

/// The eight cells around `p`, row by row from the top-left, two bits each
/// (the centre is skipped; cell `i` at bits `2i`, `2i + 1`).
#[inline]
pub fn code(board: &Board, p: usize) -> usize {
    let s = board.stride();
    let cells = [
        p + s - 1,
        p + s,
        p + s + 1,
        p - 1,
        p + 1,
        p - s - 1,
        p - s,
        p - s + 1,
    ];
    let mut code = 0;
    for (i, q) in cells.into_iter().enumerate() {
        code |= (board.cell(q) as usize) << (2 * i);
    }
    code
}

const fn build_table() -> [u64; 1024] {
    let mut table = [0u64; 1024];
    let mut i = 0;
    while i < SOURCE.len() {
        let mut symmetry = 0;
        while symmetry < 16 {
            add_expansions(&mut table, &transform(SOURCE[i], symmetry));
            symmetry += 1;
        }
        i += 1;
    }
    table
}

/// Symmetry `0..16`: bits 0-1 quarter turns, bit 2 mirror, bit 3 swaps
/// the colours.
const fn transform(source: &[u8; 9], symmetry: u32) -> [u8; 9] {
    let mut out = *source;
    let mut turns = symmetry & 3;
    while turns > 0 {
        let before = out;
        let mut k = 0;
        while k < 9 {
            let (row, col) = (k / 3, k % 3);
            out[k] = before[(2 - col) * 3 + row];
            k += 1;
        }
        turns -= 1;
    }
    if symmetry & 4 != 0 {
        let before = out;
        let mut k = 0;
        while k < 9 {
            out[k] = before[(k / 3) * 3 + 2 - k % 3];
            k += 1;
        }
    }
    if symmetry & 8 != 0 {
        let mut k = 0;
        while k < 9 {
            out[k] = match out[k] {
                b'X' => b'O',
                b'O' => b'X',
                b'x' => b'o',
                b'o' => b'x',
                other => other,
            };
            k += 1;
        }
    }
    out
}

/// The cell values a pattern symbol accepts, as a 4-bit set.
const fn accepted(symbol: u8) -> u8 {
    match symbol {
        b'.' => 1 << EMPTY,
        b'X' => 1 << ONE,
        b'O' => 1 << OTHER,
        b'#' => 1 << EDGE,
        b'x' => 1 << EMPTY | 1 << OTHER,
        b'o' => 1 << EMPTY | 1 << ONE,
        _ => 0xF,
    }
}

/// Sets the bit of every neighbourhood the (wildcard) pattern matches.
const fn add_expansions(table: &mut [u64; 1024], pattern: &[u8; 9]) {
    // The eight outer cells in code order (the centre, index 4, skipped).
    let mut sets = [0u8; 8];
    let mut k = 0;
    let mut slot = 0;
    while k < 9 {
        if k != 4 {
            sets[slot] = accepted(pattern[k]);
            slot += 1;
        }
        k += 1;
    }
    // The accepted values of each slot, then an odometer over them.
    let mut values = [[0usize; 4]; 8];
    let mut counts = [0usize; 8];
    let mut s = 0;
    while s < 8 {
        let mut v = 0;
        while v < 4 {
            if sets[s] >> v & 1 != 0 {
                values[s][counts[s]] = v;
                counts[s] += 1;
            }
            v += 1;
        }
        s += 1;
    }
    let mut digits = [0usize; 8];
    loop {
        let mut code = 0usize;
        let mut s = 0;
        while s < 8 {
            code |= values[s][digits[s]] << (2 * s);
            s += 1;
        }
        table[code >> 6] |= 1 << (code & 63);
        let mut s = 0;
        while s < 8 {
            digits[s] += 1;
            if digits[s] < counts[s] {
                break;
            }
            digits[s] = 0;
            s += 1;
        }
        if s == 8 {
            return;
        }
    }
}
