//! The positions that search threads are inside now, for "simplified
//! ABDADA" (Weill's ABDADA as Kerrigan simplified it): a thread that meets
//! a move another thread is searching puts it off and takes the next one,
//! and comes back to it when the other moves are done (by then mostly a
//! table hit). Threads that share only the table (Lazy SMP) went down the
//! same lines: two of them took longer than one on the empty 7x6 board.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of keys, one position each; a key whose slot is taken is not
/// marked (it is only never put off).
const SLOTS: usize = 1 << 14;

pub struct Busy {
    slots: Vec<AtomicU64>,
}

impl Default for Busy {
    fn default() -> Self {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    fn slot(&self, key: u64) -> &AtomicU64 {
        // Keys are at least 1 (the board's bottom row is always set).
        &self.slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize & (SLOTS - 1)]
    }

    /// Whether another thread searches `key` now.
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as searched now; whether this call marked it (then
    /// [`leave`](Self::leave) must follow).
    pub fn enter(&self, key: u64) -> bool {
        self.slot(key)
            .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Unmarks `key`, which [`enter`](Self::enter) marked.
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_key_is_busy_until_left_and_a_taken_slot_marks_nothing() {
        let busy = Busy::default();
        assert!(!busy.is_busy(77));
        assert!(busy.enter(77));
        assert!(busy.is_busy(77));
        // The same key again (another thread): already marked.
        assert!(!busy.enter(77));
        busy.leave(77);
        assert!(!busy.is_busy(77));
    }
}
