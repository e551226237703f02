//! The search tree: nodes in a chunked arena, children as contiguous runs.
//!
//! Nodes never move and are never freed while a tree lives; a new position
//! either keeps a subtree (copied into a fresh arena) or starts over. The
//! arena never allocates past its byte cap: chunks are sized from
//! `size_of::<Node>()` and a chunk is only added when it still fits.

use crate::sim::{LeafStats, Prior, MAX_BIAS};
use std::collections::HashMap;
use std::mem::size_of;
use std::sync::atomic::{AtomicI8, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

/// Index of a node in the arena.
pub(super) type NodeId = u32;

/// Target chunk length (nodes). Large enough that the space wasted at the
/// end of a chunk (a children run that does not fit starts a new one) stays
/// small, small enough that a capped tree wastes little.
const CHUNK_NODES: usize = 1 << 14;

/// One tree node.
///
/// Sign convention: `wins`, `prior_wins` and `amaf_wins` are counted for the
/// player who played `mv`, i.e. the player to move at the parent. A parent
/// therefore picks the child with the highest value without flipping signs.
///
/// Concurrency: the statistics are atomics, so descents and backups of
/// several threads run side by side under a shared (read) lock of the tree,
/// and only an expansion takes it exclusively (lock-free tree parallelism
/// after Enzenberger and Müller, "A Lock-free Multithreaded Monte-Carlo
/// Tree Search Algorithm"). The path's own counts (`visits`, `wins`,
/// `virtual_loss`) are read-modify-writes and never lose an update; the
/// AMAF counts of the siblings, most of a backup's work, are a plain load
/// and store, so two backups through one node at the same instant can
/// lose one of their AMAF samples. With one thread every operation happens
/// in the same order as with plain fields, so results are unchanged.
#[derive(Debug)]
pub(super) struct Node<M> {
    /// The move that leads here from the parent (`None` only at the root).
    pub mv: Option<M>,
    pub first_child: NodeId,
    pub num_children: u32,
    pub expanded: bool,
    /// Playouts that went through this node.
    pub visits: Count,
    /// Of those, wins for the player who played `mv` (draws count 0.5).
    pub wins: Sum,
    /// Playouts in flight through this node, counted as losses meanwhile.
    pub virtual_loss: AtomicU32,
    /// Prior knowledge as virtual playouts (see `sim::Prior`).
    pub prior_visits: f32,
    pub prior_wins: f32,
    /// AMAF: playouts below the parent in which the player to move at the
    /// parent played `mv` first, and how many of them that player won.
    pub amaf_visits: Count,
    pub amaf_wins: Sum,
    /// The dense AMAF index of `mv` ([`NO_AMAF`] for the root and pass),
    /// computed once at expansion: the backup reads it for every child of
    /// every node on the path, and recomputing it there (a division by the
    /// board stride in Go) was a large part of the tree's time.
    pub amaf_index: u32,
    /// Progressive bias in thousandths of a win (`sim::Prior::bias`): an
    /// i16 fits in the padding of the node, where an f32 would grow every
    /// node by 8 bytes.
    pub bias_milli: i16,
    /// MCTS-solver value for the player who played `mv`: [`PROVEN_WIN`],
    /// [`PROVEN_LOSS`] or 0 (unknown). Set from proven terminal positions
    /// ([`crate::game::Game::proven_outcome`]) and settled upwards in the
    /// backup; a proven node is scored without a playout and decides the
    /// move.
    pub proof: AtomicI8,
}

/// A node's playout count: an atomic read and added to with relaxed
/// ordering (the tree's lock orders everything structural).
#[derive(Debug, Default)]
pub(super) struct Count(AtomicU64);

impl Count {
    pub fn new(v: u64) -> Self {
        Count(AtomicU64::new(v))
    }

    #[inline]
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Adds `n`; never loses a concurrent add.
    #[inline]
    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    /// Adds `n` as a load and a store: cheap, but a concurrent add to the
    /// same count may be lost (the AMAF counts; see [`Node`]).
    #[inline]
    pub fn add_racy(&self, n: u64) {
        self.0.store(self.get() + n, Ordering::Relaxed);
    }

    pub fn set(&self, v: u64) {
        self.0.store(v, Ordering::Relaxed);
    }
}

/// A node's sum of wins, an `f64` kept as its bits in an atomic.
#[derive(Debug, Default)]
pub(super) struct Sum(AtomicU64);

impl Sum {
    pub fn new(v: f64) -> Self {
        Sum(AtomicU64::new(v.to_bits()))
    }

    #[inline]
    pub fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    /// Adds `x`; never loses a concurrent add.
    #[inline]
    pub fn add(&self, x: f64) {
        // The closure always returns Some, so this cannot fail.
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                Some((f64::from_bits(bits) + x).to_bits())
            });
    }

    /// Adds `x` as a load and a store (see [`Count::add_racy`]).
    #[inline]
    pub fn add_racy(&self, x: f64) {
        self.set(self.get() + x);
    }

    pub fn set(&self, x: f64) {
        self.0.store(x.to_bits(), Ordering::Relaxed);
    }
}

impl<M: Clone> Clone for Node<M> {
    fn clone(&self) -> Self {
        Node {
            mv: self.mv.clone(),
            first_child: self.first_child,
            num_children: self.num_children,
            expanded: self.expanded,
            visits: Count::new(self.visits.get()),
            wins: Sum::new(self.wins.get()),
            virtual_loss: AtomicU32::new(self.virtual_loss()),
            prior_visits: self.prior_visits,
            prior_wins: self.prior_wins,
            amaf_visits: Count::new(self.amaf_visits.get()),
            amaf_wins: Sum::new(self.amaf_wins.get()),
            amaf_index: self.amaf_index,
            bias_milli: self.bias_milli,
            proof: AtomicI8::new(self.proof()),
        }
    }
}

/// [`Node::proof`]: the player who played the node's move wins with best play.
pub(super) const PROVEN_WIN: i8 = 1;
/// [`Node::proof`]: the player who played the node's move loses whatever they do next.
pub(super) const PROVEN_LOSS: i8 = -1;

/// [`Node::amaf_index`] of a node whose move has no AMAF slot.
pub(super) const NO_AMAF: u32 = u32::MAX;

impl<M> Node<M> {
    pub fn new(mv: Option<M>, prior_visits: f32, prior_wins: f32) -> Self {
        Node {
            mv,
            first_child: 0,
            num_children: 0,
            expanded: false,
            visits: Count::default(),
            wins: Sum::default(),
            virtual_loss: AtomicU32::new(0),
            prior_visits,
            prior_wins,
            amaf_visits: Count::default(),
            amaf_wins: Sum::default(),
            amaf_index: NO_AMAF,
            bias_milli: 0,
            proof: AtomicI8::new(0),
        }
    }

    pub fn with_amaf_index(mut self, index: u32) -> Self {
        self.amaf_index = index;
        self
    }

    /// Sets the progressive bias (`sim::Prior::bias`), clamped to
    /// ±`sim::MAX_BIAS` and rounded to a thousandth.
    pub fn with_bias(mut self, bias: f32) -> Self {
        let clamped = bias.clamp(-MAX_BIAS, MAX_BIAS);
        self.bias_milli = (clamped * 1000.0).round() as i16;
        self
    }

    /// The progressive bias, in wins.
    #[inline]
    pub fn bias(&self) -> f64 {
        self.bias_milli as f64 / 1000.0
    }

    /// Ids of the children (empty until expanded).
    #[inline]
    pub fn children(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.num_children
    }

    /// [`value`] of this node: for the player who played `mv`.
    pub fn value(&self) -> f64 {
        value(
            self.visits.get(),
            self.wins.get(),
            self.prior_visits,
            self.prior_wins,
        )
    }

    #[inline]
    pub fn virtual_loss(&self) -> u32 {
        self.virtual_loss.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn add_virtual_loss(&self, n: u32) {
        self.virtual_loss.fetch_add(n, Ordering::Relaxed);
    }

    /// Takes back `n` in-flight playouts (never below zero).
    #[inline]
    pub fn remove_virtual_loss(&self, n: u32) {
        let _ = self
            .virtual_loss
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
                debug_assert!(v >= n, "virtual loss underflow");
                Some(v.saturating_sub(n))
            });
    }

    #[inline]
    pub fn proof(&self) -> i8 {
        self.proof.load(Ordering::Relaxed)
    }

    pub fn set_proof(&self, proof: i8) {
        self.proof.store(proof, Ordering::Relaxed);
    }
}

/// Mean of `wins` over `visits`, if there are any.
#[inline]
pub(super) fn winrate(visits: u64, wins: f64) -> Option<f64> {
    (visits > 0).then(|| wins / visits as f64)
}

/// Mean of a move for the player choosing it: real playouts if any, else
/// its prior mean, else 0.5.
pub(super) fn value(visits: u64, wins: f64, prior_visits: f32, prior_wins: f32) -> f64 {
    winrate(visits, wins).unwrap_or(if prior_visits > 0.0 {
        (prior_wins / prior_visits) as f64
    } else {
        0.5
    })
}

/// Fixed-size chunks of `T`; ids are `chunk << shift | offset`. Runs
/// allocated together are contiguous within one chunk.
pub(super) struct Arena<T> {
    chunks: Vec<Vec<T>>,
    shift: u32,
    max_chunks: usize,
    len: usize,
}

impl<T> Arena<T> {
    /// An empty arena that will never hold more than `max_bytes` of `T`.
    pub fn with_cap(max_bytes: usize) -> Self {
        // Ids are u32, so never more nodes than that either.
        let cap_nodes = (max_bytes / size_of::<T>().max(1)).min(u32::MAX as usize);
        let chunk_len = if cap_nodes >= CHUNK_NODES {
            CHUNK_NODES
        } else if cap_nodes == 0 {
            1
        } else {
            // Largest power of two that fits: one small chunk.
            1 << (usize::BITS - 1 - cap_nodes.leading_zeros())
        };
        Arena {
            chunks: Vec::new(),
            shift: chunk_len.trailing_zeros(),
            max_chunks: cap_nodes / chunk_len,
            len: 0,
        }
    }

    #[inline]
    fn chunk_len(&self) -> usize {
        1 << self.shift
    }

    /// Nodes in use.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes reserved by the chunks (what the cap bounds).
    pub fn bytes(&self) -> usize {
        self.chunks
            .iter()
            .map(|c| c.capacity() * size_of::<T>())
            .sum()
    }

    /// The most bytes this arena may ever reserve.
    pub fn cap_bytes(&self) -> usize {
        self.max_chunks * self.chunk_len() * size_of::<T>()
    }

    /// Stores `items` contiguously and returns the id of the first, or
    /// `None` (storing nothing) when the cap does not allow it.
    pub fn alloc_run(&mut self, items: impl ExactSizeIterator<Item = T>) -> Option<NodeId> {
        let n = items.len();
        let chunk_len = self.chunk_len();
        if n > chunk_len {
            return None;
        }
        let fits_last = self.chunks.last().is_some_and(|c| chunk_len - c.len() >= n);
        if !fits_last {
            if self.chunks.len() >= self.max_chunks {
                return None;
            }
            let mut chunk = Vec::new();
            // Exactly one chunk's worth; `try_reserve_exact` so that an
            // allocation failure is a full tree, not an abort.
            chunk.try_reserve_exact(chunk_len).ok()?;
            self.chunks.push(chunk);
        }
        let chunk_index = self.chunks.len() - 1;
        let chunk = &mut self.chunks[chunk_index];
        let first = ((chunk_index << self.shift) | chunk.len()) as NodeId;
        chunk.extend(items);
        self.len += n;
        Some(first)
    }

    #[inline]
    pub fn get(&self, id: NodeId) -> &T {
        let id = id as usize;
        &self.chunks[id >> self.shift][id & (self.chunk_len() - 1)]
    }

    #[inline]
    pub fn get_mut(&mut self, id: NodeId) -> &mut T {
        let id = id as usize;
        let mask = self.chunk_len() - 1;
        &mut self.chunks[id >> self.shift][id & mask]
    }

    /// Every stored item.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flat_map(|c| c.iter())
    }
}

/// Score and ownership aggregated over the simulated leaves below the root
/// (Black's point of view, like `LeafStats`). Terminal leaves are not
/// simulated and carry no score or ownership, so they are left out.
#[derive(Clone, Debug, Default)]
pub(super) struct RootTotals {
    pub playouts: u64,
    pub score_sum: f64,
    pub ownership: Vec<f64>,
    /// Per root child (index in the root's children run): playouts and
    /// score sum of the simulated leaves below it, so each candidate move
    /// reports its own score rather than the root's.
    pub children: Vec<(u64, f64)>,
}

impl RootTotals {
    pub fn add(&mut self, stats: &LeafStats) {
        self.playouts += stats.playouts as u64;
        self.score_sum += stats.score_sum;
        if self.ownership.len() < stats.ownership.len() {
            self.ownership.resize(stats.ownership.len(), 0.0);
        }
        for (sum, &o) in self.ownership.iter_mut().zip(&stats.ownership) {
            *sum += o as f64;
        }
    }

    /// Adds a leaf's score to the root child `index` it was reached through.
    pub fn add_child(&mut self, index: usize, stats: &LeafStats) {
        if self.children.len() <= index {
            self.children.resize(index + 1, (0, 0.0));
        }
        let (playouts, score) = &mut self.children[index];
        *playouts += stats.playouts as u64;
        *score += stats.score_sum;
    }
}

/// The tree: arena, root, and what is aggregated at the root.
pub(super) struct Tree<M> {
    pub nodes: Arena<Node<M>>,
    /// `None` when even the root did not fit under the cap.
    pub root: Option<NodeId>,
    /// Set once an expansion was refused for lack of memory.
    pub memory_capped: bool,
    /// Behind its own lock: backups add to it under the tree's shared lock.
    pub totals: Mutex<RootTotals>,
    /// Progressive widening (`super::widen`): per expanded node that has
    /// moves without a node yet, those moves and their priors, worst
    /// first. Empty without widening.
    pub lazy: HashMap<NodeId, Vec<(M, Prior)>>,
    /// Bytes the `lazy` moves take; they count against the cap with the
    /// nodes.
    pub lazy_bytes: usize,
}

impl<M: Copy> Tree<M> {
    /// The root totals (a panicked worker's lock is taken over: the sums
    /// stay readable).
    pub fn totals(&self) -> std::sync::MutexGuard<'_, RootTotals> {
        self.totals.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn new(max_bytes: usize) -> Self {
        let mut nodes = Arena::with_cap(max_bytes);
        let root = nodes.alloc_run(std::iter::once(Node::new(None, 0.0, 0.0)));
        Tree {
            nodes,
            root,
            memory_capped: root.is_none(),
            totals: Mutex::default(),
            lazy: HashMap::new(),
            lazy_bytes: 0,
        }
    }

    /// Whether `extra` more bytes of moves without nodes fit under the cap
    /// beside the nodes (and a chunk the arena may still add).
    pub fn lazy_fits(&self, extra: usize) -> bool {
        let chunk = CHUNK_NODES * size_of::<Node<M>>();
        self.nodes.bytes() + chunk + self.lazy_bytes + extra <= self.nodes.cap_bytes()
    }

    /// Bytes `n` moves without nodes take.
    pub fn lazy_size(n: usize) -> usize {
        n * size_of::<(M, Prior)>()
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<M> {
        self.nodes.get(id)
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<M> {
        self.nodes.get_mut(id)
    }

    /// A fresh tree (same cap) holding a copy of the subtree under `keep`,
    /// which becomes the root. Breadth-first, so every children run stays
    /// contiguous. A run that no longer fits is dropped and its parent
    /// becomes a leaf again (its own statistics stay).
    pub fn subtree(&self, keep: NodeId) -> Tree<M> {
        let mut fresh = Tree::new(self.nodes.cap_bytes());
        let Some(new_root) = fresh.root else {
            return fresh;
        };
        let mut root = self.node(keep).clone();
        root.mv = None;
        root.num_children = 0;
        root.expanded = false;
        // The root's AMAF and prior describe the old parent's view; drop them.
        root.amaf_visits.set(0);
        root.amaf_wins.set(0.0);
        *fresh.node_mut(new_root) = root;
        let mut queue = std::collections::VecDeque::from([(keep, new_root)]);
        while let Some((old, new)) = queue.pop_front() {
            let old_node = self.node(old);
            if !old_node.expanded {
                continue;
            }
            // A node's waiting moves go with its children or not at all:
            // a node with children but without them would never get them.
            let tail = self.lazy.get(&old);
            let tail_bytes = tail.map_or(0, |t| Self::lazy_size(t.len()));
            if tail.is_some() && !fresh.lazy_fits(tail_bytes) {
                fresh.memory_capped = true;
                continue;
            }
            let run = old_node.children().map(|c| {
                let mut child = self.node(c).clone();
                child.expanded = false;
                child.num_children = 0;
                child
            });
            match fresh.nodes.alloc_run(run) {
                Some(first) => {
                    let n = fresh.node_mut(new);
                    n.expanded = true;
                    n.first_child = first;
                    n.num_children = old_node.num_children;
                    if let Some(tail) = tail {
                        fresh.lazy.insert(new, tail.clone());
                        fresh.lazy_bytes += tail_bytes;
                    }
                    for (i, c) in old_node.children().enumerate() {
                        queue.push_back((c, first + i as NodeId));
                    }
                }
                None => fresh.memory_capped = true,
            }
        }
        fresh
    }
}
