//! Launch slots: what one batch in flight owns on a GPU.
//!
//! A slot is a CUDA stream with its own device buffers (boards, leaf
//! headers, statistics) and host buffers, all kept between batches and
//! grown on demand. [`super::CudaSimulator`] keeps several, so that while
//! one search thread's kernel runs on one stream, another thread's copies
//! and kernel go through another, and neither waits on a lock the other
//! holds for the whole round trip.

use super::CudaError;
use cudarc::driver::{CudaSlice, CudaStream, DeviceRepr, ValidAsZeroBits};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

/// One stream and its buffers. Device buffers may be longer than the batch
/// in hand: a launch names its leaf count, and the kernels read only that
/// many leaves.
pub struct Slot {
    pub stream: Arc<CudaStream>,
    pub boards: Option<CudaSlice<u8>>,
    pub headers: Option<CudaSlice<i32>>,
    pub stats: Option<CudaSlice<u32>>,
    /// The batch flattened on the host (see `simulator::flatten_into`).
    pub host_boards: Vec<u8>,
    pub host_headers: Vec<i32>,
    /// One chunk's counters as copied back.
    pub host_stats: Vec<u32>,
}

impl Slot {
    pub fn new(stream: Arc<CudaStream>) -> Slot {
        Slot {
            stream,
            boards: None,
            headers: None,
            stats: None,
            host_boards: Vec::new(),
            host_headers: Vec::new(),
            host_stats: Vec::new(),
        }
    }
}

/// Makes `buf` hold at least `len` elements, reallocating on `stream` when
/// it is shorter (the old buffer is freed first, so the slot never holds
/// both). `allocated` tracks the bytes of every slot together.
pub fn ensure_len<'a, T: DeviceRepr + ValidAsZeroBits>(
    buf: &'a mut Option<CudaSlice<T>>,
    len: usize,
    stream: &Arc<CudaStream>,
    allocated: &AtomicUsize,
) -> Result<&'a mut CudaSlice<T>, CudaError> {
    let have = buf.as_ref().map_or(0, |b| b.len());
    if have < len.max(1) {
        if let Some(old) = buf.take() {
            allocated.fetch_sub(old.num_bytes(), Ordering::Relaxed);
        }
        let fresh = stream.alloc_zeros::<T>(len.max(1))?;
        allocated.fetch_add(fresh.num_bytes(), Ordering::Relaxed);
        *buf = Some(fresh);
    }
    buf.as_mut()
        .ok_or_else(|| CudaError::Driver("buffer vanished".into()))
}

/// A fixed set of slots handed out to concurrent callers.
pub struct Slots<S> {
    slots: Vec<Mutex<S>>,
    /// Where the next caller starts looking, so waiting callers spread
    /// over the slots instead of queueing on the first.
    next: AtomicUsize,
}

impl<S> Slots<S> {
    pub fn new(slots: Vec<S>) -> Self {
        Slots {
            slots: slots.into_iter().map(Mutex::new).collect(),
            next: AtomicUsize::new(0),
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// A free slot if there is one, else waits for one (the one the
    /// round-robin counter points at). A slot whose last user panicked is
    /// still usable: every call rewrites what it reads.
    pub fn take(&self) -> Option<MutexGuard<'_, S>> {
        let n = self.slots.len();
        if n == 0 {
            return None;
        }
        let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
        for i in 0..n {
            match self.slots[(start + i) % n].try_lock() {
                Ok(guard) => return Some(guard),
                Err(TryLockError::Poisoned(p)) => return Some(p.into_inner()),
                Err(TryLockError::WouldBlock) => {}
            }
        }
        Some(self.slots[start].lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Every slot, one after another (waits for each in turn).
    pub fn each(&self) -> impl Iterator<Item = MutexGuard<'_, S>> {
        self.slots
            .iter()
            .map(|m| m.lock().unwrap_or_else(|p| p.into_inner()))
    }

    pub fn into_inner(self) -> Vec<S> {
        self.slots
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_slot_is_skipped_for_a_free_one() {
        let slots = Slots::new(vec![0u32, 1]);
        let first = slots.take().unwrap();
        let second = slots.take().unwrap();
        assert_ne!(*first, *second, "two callers get two different slots");
        drop(first);
        // The counter now points at slot 0 again, which is free.
        let third = slots.take().unwrap();
        assert_ne!(*third, *second);
    }

    #[test]
    fn callers_wait_when_every_slot_is_busy() {
        let slots = Slots::new(vec![0u32]);
        let held = slots.take().unwrap();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let mut g = slots.take().unwrap();
                *g += 1;
            });
            std::thread::sleep(std::time::Duration::from_millis(20));
            assert!(!waiter.is_finished(), "no free slot: the caller waits");
            drop(held);
            waiter.join().unwrap();
        });
        assert_eq!(slots.into_inner(), vec![1]);
    }

    #[test]
    fn no_slots_gives_none() {
        assert!(Slots::<u8>::new(vec![]).take().is_none());
    }
}
