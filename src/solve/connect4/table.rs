//! The transposition table: one `AtomicU64` per slot, so that several
//! search threads can share it without locks. A slot holds the position's
//! key divided by the table's prime size (the remainder is the slot
//! number, so key and slot together give the whole key back: no two
//! positions are ever confused) above an 8-bit bound. An empty slot is 0;
//! every stored bound byte is at least 1.

use std::sync::atomic::{AtomicU64, Ordering};

/// A bound on a position's score found by an earlier search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at most this.
    Upper(i32),
    /// The score is at least this.
    Lower(i32),
}

/// Scores are stored offset by this, so the byte is never 0; every score
/// of boards up to 8x7 (|score| <= 29) fits.
const OFFSET: i32 = 64;
/// Lower bounds are stored above every upper bound.
const LOWER: i32 = 128;

pub struct Table {
    slots: Vec<AtomicU64>,
    size: u64,
}

impl Table {
    /// A table of at least `slots` entries (the next prime), 8 bytes each.
    pub fn new(slots: usize) -> Table {
        let size = next_prime(slots.max(1024) as u64);
        Table {
            slots: (0..size).map(|_| AtomicU64::new(0)).collect(),
            size,
        }
    }

    /// A table that takes about `mib` MiB.
    pub fn with_mib(mib: usize) -> Table {
        Table::new(mib * 1024 * 1024 / 8)
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            slot.store(0, Ordering::Relaxed);
        }
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Bound> {
        let entry = self.slots[(key % self.size) as usize].load(Ordering::Relaxed);
        if entry == 0 || entry >> 8 != key / self.size {
            return None;
        }
        let byte = (entry & 0xFF) as i32;
        Some(if byte >= LOWER {
            Bound::Lower(byte - LOWER - OFFSET)
        } else {
            Bound::Upper(byte - OFFSET)
        })
    }

    #[inline]
    pub fn put(&self, key: u64, bound: Bound) {
        let byte = match bound {
            Bound::Upper(v) => v + OFFSET,
            Bound::Lower(v) => v + OFFSET + LOWER,
        };
        debug_assert!((1..256).contains(&byte));
        let entry = (key / self.size) << 8 | byte as u64;
        self.slots[(key % self.size) as usize].store(entry, Ordering::Relaxed);
    }
}

fn next_prime(mut n: u64) -> u64 {
    while !is_prime(n) {
        n += 1;
    }
    n
}

fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_come_back_and_other_keys_miss() {
        let table = Table::new(1000);
        assert_eq!(table.size, 1031);
        table.put(5, Bound::Upper(-29));
        table.put(5 + 1031, Bound::Lower(29));
        // Same slot, so the second replaced the first.
        assert_eq!(table.get(5), None);
        assert_eq!(table.get(5 + 1031), Some(Bound::Lower(29)));
        table.put(u64::MAX, Bound::Upper(0));
        assert_eq!(table.get(u64::MAX), Some(Bound::Upper(0)));
        assert_eq!(table.get(7), None);
    }
}
