//! Zobrist keys, computed at compile time so that hashes are identical in
//! every process (reproducible logs, kernel-vs-CPU checks) without a global
//! initialiser.

use super::board::MAX_CELLS;

/// One step of splitmix64: a well-mixed, deterministic key stream.
const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

const fn build_keys() -> [[u64; MAX_CELLS]; 3] {
    let mut keys = [[0u64; MAX_CELLS]; 3];
    let mut state = 0x5741_5250_5354_4F4E; // "WARPSTON"
    let mut color = 0;
    while color < 3 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            let (next, key) = splitmix64(state);
            state = next;
            keys[color][cell] = key;
            cell += 1;
        }
        color += 1;
    }
    keys
}

/// `KEYS[cell_value][point]`: index 1 (black) and 2 (white) key the stones;
/// index 0 keys the simple-ko point, which only the game hash uses.
pub static KEYS: [[u64; MAX_CELLS]; 3] = build_keys();

/// XORed into the game hash when White is to move.
pub const WHITE_TO_MOVE: u64 = 0x8A5C_D789_635D_2DFF;
