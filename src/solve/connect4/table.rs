//! The transposition table: one `AtomicU64` per slot, so that several
//! search threads can share it without locks. A slot holds the position's
//! key divided by the table's prime size (the remainder is the slot
//! number, so key and slot together give the whole key back: no two
//! positions are ever confused) above the column of the move that proved a
//! lower bound (3 bits; the search tries it first when it comes back) and
//! an 8-bit bound. An empty slot is 0; every stored bound byte is at least
//! 1.

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
/// Bits below the tag: the bound byte and the move's column.
const TAG_SHIFT: u32 = 11;

pub struct Table {
    slots: Vec<AtomicU64>,
    size: u64,
}

impl Table {
    /// A table of at least `slots` entries (the next prime), 8 bytes each.
    pub fn new(slots: usize) -> Table {
        // At least 2^11 slots, so that a 64-bit key's tag fits above its
        // 11 bits.
        let size = next_prime(slots.max(1 << TAG_SHIFT) as u64);
        let table = Table {
            slots: (0..size).map(|_| AtomicU64::new(0)).collect(),
            size,
        };
        advise_huge_pages(&table.slots);
        // The zeroed memory comes lazily from the system; writing it now
        // takes its page faults here, not in the first searches.
        table.clear();
        table
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

    /// Where `key` lives: its slot and the tag stored there (one division
    /// gives both, and a search node needs them for a look-up and a store).
    #[inline]
    pub fn slot(&self, key: u64) -> Slot {
        Slot {
            index: (key % self.size) as usize,
            tag: key / self.size,
        }
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Bound> {
        self.get_at(self.slot(key))
    }

    #[inline]
    pub fn put(&self, key: u64, bound: Bound) {
        self.put_at(self.slot(key), bound)
    }

    #[inline]
    pub fn get_at(&self, slot: Slot) -> Option<Bound> {
        self.probe(slot).map(|(bound, _)| bound)
    }

    #[inline]
    pub fn put_at(&self, slot: Slot, bound: Bound) {
        self.store(slot, bound, 0)
    }

    /// The bound stored for the slot's key, and with a lower bound the
    /// column of the move that proved it.
    #[inline]
    pub fn probe(&self, slot: Slot) -> Option<(Bound, Option<usize>)> {
        let entry = self.slots[slot.index].load(Ordering::Relaxed);
        if entry == 0 || entry >> TAG_SHIFT != slot.tag {
            return None;
        }
        let byte = (entry & 0xFF) as i32;
        Some(if byte >= LOWER {
            let column = (entry >> 8 & 7) as usize;
            (Bound::Lower(byte - LOWER - OFFSET), Some(column))
        } else {
            (Bound::Upper(byte - OFFSET), None)
        })
    }

    /// Stores `bound` for the slot's key; `column` (0-7) is the move that
    /// proved a lower bound (ignored with an upper one).
    #[inline]
    pub fn store(&self, slot: Slot, bound: Bound, column: usize) {
        let (byte, column) = match bound {
            Bound::Upper(v) => (v + OFFSET, 0),
            Bound::Lower(v) => (v + OFFSET + LOWER, column as u64 & 7),
        };
        debug_assert!((1..256).contains(&byte));
        let entry = slot.tag << TAG_SHIFT | column << 8 | byte as u64;
        self.slots[slot.index].store(entry, Ordering::Relaxed);
    }
}

/// A key's place in a [`Table`].
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    index: usize,
    tag: u64,
}

/// Asks the kernel to back `slots` with 2 MiB pages: every probe of the
/// search lands on a random slot, so with 4 KiB pages nearly each one also
/// missed the TLB. Only advice: where transparent huge pages are off it
/// changes nothing.
fn advise_huge_pages(slots: &[AtomicU64]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = slots.as_ptr() as usize;
        let end = start + std::mem::size_of_val(slots);
        let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if first < last {
            // SAFETY: [first, last) lies inside `slots`, memory this
            // process owns and keeps mapped; MADV_HUGEPAGE changes how
            // it is backed, never what it holds, and a failure (an old
            // kernel, huge pages off) only leaves it as it was.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
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
        let table = Table::new(3000);
        assert_eq!(table.size, 3001);
        table.put(5, Bound::Upper(-29));
        table.put(5 + 3001, Bound::Lower(29));
        // Same slot, so the second replaced the first.
        assert_eq!(table.get(5), None);
        assert_eq!(table.get(5 + 3001), Some(Bound::Lower(29)));
        let slot = table.slot(9);
        table.store(slot, Bound::Lower(-3), 6);
        assert_eq!(table.probe(slot), Some((Bound::Lower(-3), Some(6))));
        table.store(slot, Bound::Upper(-3), 6);
        assert_eq!(table.probe(slot), Some((Bound::Upper(-3), None)));
        table.put(u64::MAX, Bound::Upper(0));
        assert_eq!(table.get(u64::MAX), Some(Bound::Upper(0)));
        assert_eq!(table.get(7), None);
    }
}
