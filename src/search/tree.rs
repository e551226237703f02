//! The search tree: nodes in a chunked arena ([`super::arena`]), children
//! as contiguous runs.
//!
//! Nodes never move and are never freed while a tree lives; a new position
//! either keeps a subtree (copied into a fresh arena) or starts over.

use super::arena::Arena;
use super::totals::RootTotals;
use super::waiting::Waiting;
use crate::sim::MAX_BIAS;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

/// Index of a node in the arena.
pub(super) type NodeId = u32;

/// [`Node`]'s expansion state: no children yet...
const UNEXPANDED: u8 = 0;
/// ...one thread is attaching them (the others treat the node as a leaf)...
const EXPANDING: u8 = 1;
/// ...children published...
const EXPANDED: u8 = 2;
/// ...children published, and more moves wait for nodes in
/// [`Tree::lazy`] (progressive widening, `super::widen`): the run may
/// still be replaced by a longer one.
const WAITING: u8 = 3;

/// A children run packed into one word, so that a reader never sees the
/// first id of one run with the length of another (`super::widen::grow`
/// replaces a node's run while descents read it).
#[inline]
fn pack(first: NodeId, count: u32) -> u64 {
    (count as u64) << 32 | first as u64
}

/// One tree node.
///
/// Sign convention: `wins`, `prior_wins` and `amaf_wins` are counted for the
/// player who played `mv`, i.e. the player to move at the parent. A parent
/// therefore picks the child with the highest value without flipping signs.
///
/// Concurrency: the statistics are atomics, and so is the expansion state:
/// descents, expansions and backups of several threads run side by side
/// with no lock on the tree (lock-free tree parallelism after Enzenberger
/// and Müller, "A Lock-free Multithreaded Monte-Carlo Tree Search
/// Algorithm"). One thread claims a node's expansion
/// ([`Node::claim_expansion`]), writes the children into the arena and
/// publishes them with a release store of the state; a reader sees the
/// children only through an acquire load of it ([`Node::children`]), so
/// it never reads a child before it is written. The path's own counts (`visits`, `wins`,
/// `virtual_loss`) are read-modify-writes and never lose an update; the
/// AMAF counts of the siblings, most of a backup's work, are a plain load
/// and store, so two backups through one node at the same instant can
/// lose one of their AMAF samples. With one thread every operation happens
/// in the same order as with plain fields, so results are unchanged.
///
/// Layout: a node is one cache line, aligned to one (the games' moves all
/// leave it at 64 bytes, `tests_threads`): unaligned, most nodes straddled
/// two, so a backup's write to one child's counts also took the line that
/// the next child's selection reads from the other cores.
#[derive(Debug)]
#[repr(align(64))]
pub(super) struct Node<M> {
    /// The move that leads here from the parent (`None` only at the root).
    pub mv: Option<M>,
    /// The children run ([`pack`]); meaningful only once `state` is
    /// [`EXPANDED`] or [`WAITING`].
    run: AtomicU64,
    /// [`UNEXPANDED`], [`EXPANDING`], [`EXPANDED`] or [`WAITING`].
    state: AtomicU8,
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
/// ordering (the expansion state's and the children run's acquire and
/// release order everything structural).
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
            run: AtomicU64::new(self.run.load(Ordering::Acquire)),
            // An expansion in progress is not the copy's.
            state: AtomicU8::new(match self.state.load(Ordering::Acquire) {
                EXPANDING => UNEXPANDED,
                state => state,
            }),
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
            run: AtomicU64::new(0),
            state: AtomicU8::new(UNEXPANDED),
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

    /// Whether the children are published.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.state.load(Ordering::Acquire) >= EXPANDED
    }

    /// Whether moves wait for nodes in [`Tree::lazy`] (progressive
    /// widening).
    #[inline]
    pub fn is_waiting(&self) -> bool {
        // Acquire: a caller that sees the state no longer waiting sees the
        // run published before it (`replace_children`).
        self.state.load(Ordering::Acquire) == WAITING
    }

    /// Ids of the children (empty until expanded). The acquire loads pair
    /// with the release stores of [`publish_children`](Self::publish_children)
    /// and [`replace_children`](Self::replace_children): the run they name
    /// is fully written.
    #[inline]
    pub fn children(&self) -> std::ops::Range<NodeId> {
        if !self.is_expanded() {
            return 0..0;
        }
        let run = self.run.load(Ordering::Acquire);
        let first = run as u32;
        first..first + (run >> 32) as u32
    }

    /// The first child's id (0 until expanded).
    #[inline]
    pub fn first_child(&self) -> NodeId {
        self.children().start
    }

    /// How many children (0 until expanded).
    #[inline]
    pub fn num_children(&self) -> u32 {
        let run = self.children();
        run.end - run.start
    }

    /// Takes the right to expand this node; false if it is expanded or
    /// another thread holds that right. The winner must end with
    /// [`publish_children`](Self::publish_children) or
    /// [`release_claim`](Self::release_claim).
    pub fn claim_expansion(&self) -> bool {
        self.state
            .compare_exchange(UNEXPANDED, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// Returns once no thread is attaching children here (the claim's
    /// holder only writes the run into the arena: microseconds).
    pub fn wait_while_expanding(&self) {
        while self.state.load(Ordering::Acquire) == EXPANDING {
            std::thread::yield_now();
        }
    }

    /// Publishes the children run (written before this call) to every
    /// thread; `waiting`: moves wait for nodes in [`Tree::lazy`].
    pub fn publish_children(&self, first: NodeId, count: u32, waiting: bool) {
        self.run.store(pack(first, count), Ordering::Relaxed);
        let state = if waiting { WAITING } else { EXPANDED };
        self.state.store(state, Ordering::Release);
    }

    /// Replaces the published children with a longer run that starts with
    /// copies of them (written before this call; `super::widen::grow`);
    /// `waiting`: moves still wait.
    pub fn replace_children(&self, first: NodeId, count: u32, waiting: bool) {
        self.run.store(pack(first, count), Ordering::Release);
        if !waiting {
            self.state.store(EXPANDED, Ordering::Release);
        }
    }

    /// Makes an owned copy claimed (`super::widen::grow`: the copy of a
    /// node whose expansion is under way, which its expander fills).
    pub fn set_claimed_mut(&mut self) {
        *self.state.get_mut() = EXPANDING;
    }

    /// Gives up a claim without children (the arena was full).
    pub fn release_claim(&self) {
        self.state.store(UNEXPANDED, Ordering::Release);
    }

    /// Sets or clears the children with exclusive access (tree copies);
    /// `waiting` as in [`publish_children`](Self::publish_children).
    pub fn set_children_mut(&mut self, run: Option<(NodeId, u32)>, waiting: bool) {
        let (first, count, state) = match run {
            Some((first, count)) if waiting => (first, count, WAITING),
            Some((first, count)) => (first, count, EXPANDED),
            None => (0, 0, UNEXPANDED),
        };
        *self.run.get_mut() = pack(first, count);
        *self.state.get_mut() = state;
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

/// The tree: arena, root, and what is aggregated at the root.
pub(super) struct Tree<M> {
    pub nodes: Arena<Node<M>>,
    /// `None` when even the root did not fit under the cap.
    pub root: Option<NodeId>,
    /// Set once an expansion was refused for lack of memory.
    pub memory_capped: AtomicBool,
    /// Behind its own lock: each worker adds its share now and then
    /// (`workers::Shared::work`).
    pub totals: Mutex<RootTotals>,
    /// Progressive widening's waiting moves (`super::widen`); empty
    /// without widening. Its lock also orders the widening of runs: only
    /// a holder attaches a node's first children with waiting moves or
    /// replaces a run.
    pub lazy: Mutex<Lazy<M>>,
    /// The solver's refutations by depth (`super::killers`).
    pub killers: super::killers::Killers,
}

/// [`Tree::lazy`].
#[derive(Debug)]
pub(super) struct Lazy<M> {
    /// Per expanded node that has moves without a node yet (its state is
    /// [`WAITING`]), those moves and their priors, worst first.
    pub waiting: HashMap<NodeId, Waiting<M>>,
    /// Bytes the waiting moves take; they count against the cap with the
    /// nodes.
    pub bytes: usize,
    /// Nodes whose expansion was under way when their parent's run was
    /// copied: the old id to the copy's, which the expander fills instead.
    pub moved: HashMap<NodeId, NodeId>,
}

impl<M> Default for Lazy<M> {
    fn default() -> Self {
        Lazy {
            waiting: HashMap::new(),
            bytes: 0,
            moved: HashMap::new(),
        }
    }
}

impl<M: Copy> Tree<M> {
    /// The root totals (a panicked worker's lock is taken over: the sums
    /// stay readable).
    pub fn totals(&self) -> std::sync::MutexGuard<'_, RootTotals> {
        self.totals.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn new(max_bytes: usize) -> Self {
        let nodes = Arena::with_cap(max_bytes);
        let root = nodes.alloc_run(std::iter::once(Node::new(None, 0.0, 0.0)));
        Tree {
            nodes,
            root,
            memory_capped: AtomicBool::new(root.is_none()),
            totals: Mutex::default(),
            lazy: Mutex::default(),
            killers: Default::default(),
        }
    }

    /// The waiting moves (a panicked worker's lock is taken over: every
    /// change under it is made whole before the next statement).
    pub fn lazy(&self) -> std::sync::MutexGuard<'_, Lazy<M>> {
        self.lazy.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `extra` more bytes of waiting moves fit under the cap beside
    /// the nodes and those already waiting (`lazy_bytes`), leaving room for
    /// a chunk the arena may still add.
    pub fn lazy_fits(&self, lazy_bytes: usize, extra: usize) -> bool {
        self.nodes.bytes() + self.nodes.chunk_bytes() + lazy_bytes + extra <= self.nodes.cap_bytes()
    }

    /// Whether an expansion was refused for lack of memory.
    #[inline]
    pub fn is_memory_capped(&self) -> bool {
        self.memory_capped.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<M> {
        self.nodes.get(id)
    }

    /// The children of `node` as a slice, with the id of the first.
    #[inline]
    pub fn children_of(&self, node: &Node<M>) -> (NodeId, &[Node<M>]) {
        let run = node.children();
        (run.start, self.nodes.run(run.start, run.end - run.start))
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
        root.set_children_mut(None, false);
        // The root's AMAF and prior describe the old parent's view; drop them.
        root.amaf_visits.set(0);
        root.amaf_wins.set(0.0);
        *fresh.node_mut(new_root) = root;
        let lazy = self.lazy();
        let mut queue = std::collections::VecDeque::from([(keep, new_root)]);
        while let Some((old, new)) = queue.pop_front() {
            let old_node = self.node(old);
            if !old_node.is_expanded() {
                continue;
            }
            // A node's waiting moves go with its children or not at all:
            // a node with children but without them would never get them.
            let tail = lazy.waiting.get(&old).cloned();
            let tail_bytes = tail.as_ref().map_or(0, Waiting::bytes);
            if tail.is_some() && !fresh.lazy_fits(fresh.lazy().bytes, tail_bytes) {
                *fresh.memory_capped.get_mut() = true;
                continue;
            }
            let run = old_node.children().map(|c| {
                let mut child = self.node(c).clone();
                child.set_children_mut(None, false);
                child
            });
            match fresh.nodes.alloc_run(run) {
                Some(first) => {
                    let count = old_node.num_children();
                    let waiting = tail.is_some();
                    fresh
                        .node_mut(new)
                        .set_children_mut(Some((first, count)), waiting);
                    if let Some(tail) = tail {
                        let fresh_lazy = fresh.lazy.get_mut().unwrap_or_else(|e| e.into_inner());
                        fresh_lazy.waiting.insert(new, tail);
                        fresh_lazy.bytes += tail_bytes;
                    }
                    for (i, c) in old_node.children().enumerate() {
                        queue.push_back((c, first + i as NodeId));
                    }
                }
                None => *fresh.memory_capped.get_mut() = true,
            }
        }
        fresh
    }
}
