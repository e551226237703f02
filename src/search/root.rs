//! Root parallelism: the search may grow several independent trees from the
//! same root and decides from their root moves added together (Cazenave &
//! Jouandeau 2007; Chaslot, Winands & van den Herik 2008 found it the
//! best-scaling parallel MCTS on 9x9 Go).
//!
//! Why: the threads of one tree share its root's counters and its root
//! children's statistics, which every backup writes and every descent
//! reads, so those cache lines bound one tree's growth however many cores
//! descend it (and, while the tree had a lock, that lock did, well below);
//! with a GPU doing the playouts, that bound and not the kernels limits the
//! search. Several trees scale with the cores and each still batches its
//! leaves for the GPU.

use super::tree::{self, Node, NodeId, Tree};
use std::collections::HashMap;
use std::hash::Hash;

/// One root move with its statistics summed over every tree.
#[derive(Clone, Debug)]
pub(super) struct RootMove<M> {
    pub mv: M,
    pub visits: u64,
    /// Wins for the player to move at the root.
    pub wins: f64,
    /// The prior of the first tree that has the move (every tree expands
    /// the root with the same priors).
    pub prior_visits: f32,
    pub prior_wins: f32,
    /// The tree (index into the slice given to [`merge`]) and node where
    /// this move has the most visits: its principal variation comes from
    /// there.
    pub source: (usize, NodeId),
    source_visits: u64,
    /// The MCTS-solver value ([`Node::proof`]): a proof in any tree is a
    /// fact for all of them.
    pub proof: i8,
}

impl<M> RootMove<M> {
    /// Mean result from real playouts, if any.
    pub fn winrate(&self) -> Option<f64> {
        tree::winrate(self.visits, self.wins)
    }

    /// Real mean if visited, else the prior mean, else 0.5.
    pub fn value(&self) -> f64 {
        tree::value(self.visits, self.wins, self.prior_visits, self.prior_wins)
    }

    fn new(mv: M, node: &Node<M>, tree: usize, id: NodeId) -> Self {
        RootMove {
            mv,
            visits: node.visits.get(),
            wins: node.wins.get(),
            prior_visits: node.prior_visits,
            prior_wins: node.prior_wins,
            source: (tree, id),
            source_visits: node.visits.get(),
            proof: node.proof(),
        }
    }

    fn add(&mut self, node: &Node<M>, tree: usize, id: NodeId) {
        let visits = node.visits.get();
        self.visits += visits;
        self.wins += node.wins.get();
        if node.proof() != 0 {
            self.proof = node.proof();
        }
        if visits > self.source_visits {
            self.source = (tree, id);
            self.source_visits = visits;
        }
    }
}

/// The root moves of every tree with an expanded root, merged by move, in
/// the first such tree's child order (moves only later trees have follow).
/// With one tree this is that tree's root children unchanged.
pub(super) fn merge<M: Copy + Eq + Hash>(trees: &[&Tree<M>]) -> Vec<RootMove<M>> {
    let mut merged: Vec<RootMove<M>> = Vec::new();
    let mut index = Slots::new();
    for (t, tree) in trees.iter().enumerate() {
        let Some(root) = tree.root else {
            continue;
        };
        index.next_tree(merged.len());
        for (i, id) in tree.node(root).children().enumerate() {
            let node = tree.node(id);
            let Some(mv) = node.mv else {
                continue;
            };
            match index.slot(&merged, i, mv, |m| m.mv) {
                Some(s) => merged[s].add(node, t, id),
                None => merged.push(RootMove::new(mv, node, t, id)),
            }
        }
    }
    merged
}

/// Where in a merged list of root moves a tree's move already is.
///
/// Why not a plain search: a root lists hundreds or thousands of moves
/// (an Amazons root), and the early stop merges the roots every few dozen
/// iterations, so a linear search for each move made that check quadratic:
/// a fifth of a one-thread Amazons search's time outside the evaluations. A tree's own moves are
/// distinct, so the first tree's are all new; trees expanded from the same
/// move list mostly hold a move at the same index; anything else is
/// looked up in a map built on the first miss.
struct Slots<M> {
    /// Whether the moves being merged are the first tree's (nothing was
    /// merged before them).
    first_tree: bool,
    map: Option<HashMap<M, usize>>,
}

impl<M: Copy + Eq + Hash> Slots<M> {
    fn new() -> Self {
        Slots {
            first_tree: true,
            map: None,
        }
    }

    /// A new tree's moves follow; `len` entries are merged so far.
    fn next_tree(&mut self, len: usize) {
        self.first_tree = len == 0;
    }

    /// The index of `mv` in `merged` (whose entries' moves `key` reads),
    /// given that the tree lists it at `hint`.
    fn slot<T>(
        &mut self,
        merged: &[T],
        hint: usize,
        mv: M,
        key: impl Fn(&T) -> M,
    ) -> Option<usize> {
        if self.first_tree {
            return None; // its moves are distinct
        }
        if merged.get(hint).is_some_and(|m| key(m) == mv) {
            return Some(hint);
        }
        let map = self.map.get_or_insert_with(HashMap::new);
        // Entries pushed since the map was last brought up to date.
        for (i, m) in merged.iter().enumerate().skip(map.len()) {
            map.insert(key(m), i);
        }
        map.get(&mv).copied()
    }
}

/// Visits and wins of the roots themselves, summed.
pub(super) fn root_totals<M: Copy>(trees: &[&Tree<M>]) -> (u64, f64) {
    trees
        .iter()
        .filter_map(|t| t.root.map(|r| t.node(r)))
        .fold((0, 0.0), |(v, w), n| (v + n.visits.get(), w + n.wins.get()))
}

/// The two largest visit counts among the root moves, each move's visits
/// summed over the trees' `(move, visits)` lists.
pub(super) fn top_two<M: Copy + Eq + Hash>(per_tree: &[Vec<(M, u64)>]) -> (u64, u64) {
    let mut merged: Vec<(M, u64)> = Vec::new();
    let mut index = Slots::new();
    for list in per_tree {
        index.next_tree(merged.len());
        for (i, &(mv, visits)) in list.iter().enumerate() {
            match index.slot(&merged, i, mv, |&(m, _)| m) {
                Some(s) => merged[s].1 += visits,
                None => merged.push((mv, visits)),
            }
        }
    }
    let (mut first, mut second) = (0, 0);
    for (_, v) in merged {
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    (first, second)
}
