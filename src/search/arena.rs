//! The node arena: fixed-size chunks that threads append runs to while
//! others read, with no lock around the reads.
//!
//! Runs never move and are never freed while the arena lives, so a
//! reference handed out stays valid. Appending only takes a small mutex
//! for the bump of the cursor (no copying under it); the run's items are
//! written into the reserved slots afterwards, by the appending thread
//! alone. A reader may only look at a run after the appender has
//! published its first id with release ordering and the reader has seen
//! that with acquire ordering (`tree::Node`'s expansion state): that is
//! what makes the unlocked reads sound. The arena never allocates past
//! its byte cap: chunks are sized from `size_of::<T>()` and a chunk is
//! only added when it still fits.

use super::tree::NodeId;
use std::marker::PhantomData;
use std::mem::{needs_drop, size_of, MaybeUninit};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Target chunk length (items). Large enough that the space wasted at the
/// end of a chunk (a run that does not fit starts a new one) stays small,
/// small enough that a capped tree wastes little.
const CHUNK_ITEMS: usize = 1 << 14;

/// Where the next run goes.
#[derive(Default)]
struct Cursor {
    /// Items reserved in each allocated chunk (the last one is the one
    /// being filled).
    used: Vec<usize>,
}

/// What [`Arena::alloc_run`] writes, on cache lines of their own: every
/// node lookup of every thread reads the chunk table's address beside
/// them, and each expansion's lock and count would make the other cores
/// fetch it again.
#[derive(Default)]
#[repr(align(128))]
struct Growth {
    cursor: Mutex<Cursor>,
    len: AtomicUsize,
}

/// Fixed-size chunks of `T`; ids are `chunk << shift | offset`. Runs
/// allocated together are contiguous within one chunk.
pub(super) struct Arena<T> {
    /// One slot per chunk the cap allows; null until that chunk exists.
    /// Each chunk is `1 << shift` items, leaked from a `Vec` and freed on
    /// drop.
    chunks: Box<[AtomicPtr<MaybeUninit<T>>]>,
    shift: u32,
    growth: Growth,
    /// The arena owns `T`s: it is `Send`/`Sync` only as far as `T` is.
    _owns: PhantomData<T>,
}

impl<T> Arena<T> {
    /// An empty arena that will never hold more than `max_bytes` of `T`.
    pub fn with_cap(max_bytes: usize) -> Self {
        // Items are never dropped one by one (chunks are freed as raw
        // memory), so only types without drop glue may live here.
        const { assert!(!needs_drop::<T>(), "arena items must not need drop") };
        // Ids are u32, so never more items than that either.
        let cap_items = (max_bytes / size_of::<T>().max(1)).min(u32::MAX as usize);
        let chunk_len = if cap_items >= CHUNK_ITEMS {
            CHUNK_ITEMS
        } else if cap_items == 0 {
            1
        } else {
            // Largest power of two that fits: one small chunk.
            1 << (usize::BITS - 1 - cap_items.leading_zeros())
        };
        let max_chunks = cap_items / chunk_len;
        Arena {
            chunks: (0..max_chunks)
                .map(|_| AtomicPtr::new(std::ptr::null_mut()))
                .collect(),
            shift: chunk_len.trailing_zeros(),
            growth: Growth::default(),
            _owns: PhantomData,
        }
    }

    #[inline]
    fn chunk_len(&self) -> usize {
        1 << self.shift
    }

    fn cursor(&self) -> std::sync::MutexGuard<'_, Cursor> {
        // The cursor is consistent between statements; a panic elsewhere
        // under it leaves it usable.
        self.growth.cursor.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Items in use.
    pub fn len(&self) -> usize {
        self.growth.len.load(Ordering::Relaxed)
    }

    /// Bytes reserved by the chunks (what the cap bounds).
    pub fn bytes(&self) -> usize {
        self.cursor().used.len() * self.chunk_len() * size_of::<T>()
    }

    /// Bytes one chunk reserves (what the next new chunk will add).
    pub fn chunk_bytes(&self) -> usize {
        self.chunk_len() * size_of::<T>()
    }

    /// The most bytes this arena may ever reserve.
    pub fn cap_bytes(&self) -> usize {
        self.chunks.len() * self.chunk_len() * size_of::<T>()
    }

    /// Stores `items` contiguously and returns the id of the first, or
    /// `None` (storing nothing) when the cap does not allow it. Safe to
    /// call from several threads at once; the run may be read by another
    /// thread only once its id has been published to it with
    /// release/acquire ordering (see the module doc).
    pub fn alloc_run(&self, items: impl ExactSizeIterator<Item = T>) -> Option<NodeId> {
        let n = items.len();
        let chunk_len = self.chunk_len();
        if n > chunk_len {
            return None;
        }
        let (chunk_index, offset) = {
            let mut cursor = self.cursor();
            let fits_last = cursor.used.last().is_some_and(|&u| chunk_len - u >= n);
            if !fits_last {
                let index = cursor.used.len();
                if index >= self.chunks.len() {
                    return None;
                }
                let mut chunk: Vec<MaybeUninit<T>> = Vec::new();
                // Exactly one chunk's worth; `try_reserve_exact` so that an
                // allocation failure is a full tree, not an abort.
                chunk.try_reserve_exact(chunk_len).ok()?;
                let mut chunk = std::mem::ManuallyDrop::new(chunk);
                // Published under the cursor's lock and, for readers, by
                // the release store of the run's first id after writing.
                self.chunks[index].store(chunk.as_mut_ptr(), Ordering::Release);
                cursor.used.push(0);
            }
            let chunk_index = cursor.used.len() - 1;
            let used = &mut cursor.used[chunk_index];
            let offset = *used;
            *used += n;
            (chunk_index, offset)
        };
        let base = self.chunks[chunk_index].load(Ordering::Acquire);
        let mut written = 0;
        for (i, item) in items.take(n).enumerate() {
            // SAFETY: slots `offset..offset + n` of this chunk were reserved
            // above for this call alone and lie inside the chunk's
            // `chunk_len` allocated items; no reader looks at them before
            // the caller publishes the run.
            unsafe { (*base.add(offset + i)).write(item) };
            written += 1;
        }
        // An iterator that lied about its length would leave holes that a
        // reader could see: refuse such a run outright.
        assert_eq!(written, n, "alloc_run: iterator shorter than its len()");
        self.growth.len.fetch_add(n, Ordering::Relaxed);
        Some(((chunk_index << self.shift) | offset) as NodeId)
    }

    /// The item `id`, which must come from [`alloc_run`](Self::alloc_run)
    /// on this arena and have been published to this thread.
    #[inline]
    pub fn get(&self, id: NodeId) -> &T {
        let id = id as usize;
        let base = self.chunks[id >> self.shift].load(Ordering::Acquire);
        assert!(!base.is_null(), "arena id {id} in a chunk never allocated");
        // SAFETY: the chunk exists (checked) and holds `chunk_len` items;
        // the offset is masked into it. The slot was written by
        // `alloc_run` before the id was published (the caller's contract),
        // and items are never moved or freed while `&self` lives.
        unsafe { (*base.add(id & (self.chunk_len() - 1))).assume_init_ref() }
    }

    /// The `len` items from `first`, a run that one
    /// [`alloc_run`](Self::alloc_run) stored (so within one chunk) and
    /// that has been published to this thread. One chunk lookup for the
    /// whole run: the descent and the backup walk every child of a node.
    #[inline]
    pub fn run(&self, first: NodeId, len: u32) -> &[T] {
        let first = first as usize;
        let offset = first & (self.chunk_len() - 1);
        assert!(
            offset + len as usize <= self.chunk_len(),
            "run past its chunk"
        );
        if len == 0 {
            return &[];
        }
        let base = self.chunks[first >> self.shift].load(Ordering::Acquire);
        assert!(
            !base.is_null(),
            "arena id {first} in a chunk never allocated"
        );
        // SAFETY: the run lies inside one allocated chunk (checked), every
        // slot of it was written by `alloc_run` before the run was
        // published (the caller's contract), and `MaybeUninit<T>` has the
        // layout of `T`. Items are never moved or freed while `&self`
        // lives.
        unsafe { std::slice::from_raw_parts(base.add(offset).cast::<T>(), len as usize) }
    }

    #[inline]
    pub fn get_mut(&mut self, id: NodeId) -> &mut T {
        let id = id as usize;
        let base = *self.chunks[id >> self.shift].get_mut();
        assert!(!base.is_null(), "arena id {id} in a chunk never allocated");
        // SAFETY: as in `get`; `&mut self` makes the access exclusive.
        unsafe { (*base.add(id & (self.chunk_len() - 1))).assume_init_mut() }
    }

    /// Every stored item.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        let used = self.cursor().used.clone();
        used.into_iter().enumerate().flat_map(move |(c, n)| {
            (0..n).map(move |i| self.get(((c << self.shift) | i) as NodeId))
        })
    }
}

impl<T> Drop for Arena<T> {
    fn drop(&mut self) {
        let chunk_len = self.chunk_len();
        for slot in self.chunks.iter_mut() {
            let ptr = *slot.get_mut();
            if !ptr.is_null() {
                // SAFETY: `ptr` came from a `Vec<MaybeUninit<T>>` of
                // capacity `chunk_len` leaked in `alloc_run`; rebuilt with
                // length 0 it frees the memory without touching the items,
                // which need no drop (asserted in `with_cap`).
                drop(unsafe { Vec::from_raw_parts(ptr, 0, chunk_len) });
            }
        }
    }
}
