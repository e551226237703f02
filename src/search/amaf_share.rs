//! A worker's AMAF samples for the top of a tree that several workers
//! share, kept back and added now and then.
//!
//! A backup gives an AMAF sample to every child of every node on its path
//! whose move the player to move there played first below it. On
//! Havannah's side 8 a playout fills some 110 of the ~170 cells, so a leaf
//! wrote some 55 of the root's children, each a cache line of its own, and
//! as many at the root child it went through; and every other
//! worker's next descent, which reads all the children to choose one, had
//! to fetch them back from the writer's core. Kept in a worker's own
//! memory, the samples of many leaves cost those lines once. A node's
//! samples are added once they are [`SHARED_AMAF_LAG_DIVISOR`]th of its
//! visits, so a descent misses at most that share of them there, and all
//! of them after [`SHARED_AMAF_MAX_LEAVES`] leaves and when the worker
//! ends. One worker on a tree never keeps any (`uct::update` writes the
//! nodes directly, exactly as before).

use super::config::{SHARED_AMAF_LAG_DIVISOR, SHARED_AMAF_MAX_LEAVES};
use super::tree::{NodeId, Tree};

/// The kept samples of one node's children.
#[derive(Debug)]
struct Entry {
    parent: NodeId,
    /// Leaves whose samples are kept here.
    leaves: u64,
    /// `(plays, wins)` per child, by place in the node's children run.
    /// Widening replaces a run with a longer one that starts with the
    /// same moves in the same order, so a place names the same move in
    /// every run of the node.
    samples: Vec<(u64, f64)>,
}

/// One worker's kept AMAF samples (see the module doc).
#[derive(Debug, Default)]
pub(super) struct AmafShare {
    entries: Vec<Entry>,
    /// Sample tables of added entries, reused.
    spare: Vec<Vec<(u64, f64)>>,
    /// Leaves backed up since everything was last added.
    leaves: u32,
}

impl AmafShare {
    /// Starts keeping one leaf's samples for `parent`'s `children`
    /// children: returns the entry (for [`settle`](Self::settle)) and its
    /// `(plays, wins)` per child, by place in the run, to add them to.
    pub fn keep(&mut self, parent: NodeId, children: usize) -> (usize, &mut [(u64, f64)]) {
        let at = match self.entries.iter().position(|e| e.parent == parent) {
            Some(at) => at,
            None => {
                let samples = self.spare.pop().unwrap_or_default();
                self.entries.push(Entry {
                    parent,
                    leaves: 0,
                    samples,
                });
                self.entries.len() - 1
            }
        };
        let entry = &mut self.entries[at];
        entry.leaves += 1;
        if entry.samples.len() < children {
            entry.samples.resize(children, (0, 0.0));
        }
        (at, &mut entry.samples[..children])
    }

    /// After a leaf's samples at entry `at`, whose node now has `visits`:
    /// adds them once they are due (see the module doc).
    pub fn settle<M: Copy>(&mut self, at: usize, visits: u64, tree: &Tree<M>) {
        if self.entries[at].leaves * SHARED_AMAF_LAG_DIVISOR >= visits {
            let mut entry = self.entries.swap_remove(at);
            add_entry(tree, &mut entry);
            self.spare.push(entry.samples);
        }
    }

    /// Counts a backed-up leaf; every [`SHARED_AMAF_MAX_LEAVES`] leaves,
    /// adds everything kept.
    pub fn leaf_done<M: Copy>(&mut self, tree: &Tree<M>) {
        self.leaves += 1;
        if self.leaves >= SHARED_AMAF_MAX_LEAVES {
            self.add_all(tree);
        }
    }

    /// Adds every kept sample to the tree (also a worker's last step).
    pub fn add_all<M: Copy>(&mut self, tree: &Tree<M>) {
        for mut entry in self.entries.drain(..) {
            add_entry(tree, &mut entry);
            self.spare.push(entry.samples);
        }
        self.leaves = 0;
    }
}

/// Adds `entry`'s samples to its node's children and empties it, with a
/// load and a store each like `uct::update`'s own writes (two workers
/// adding to one child at the same instant may lose one's sample, as
/// there).
fn add_entry<M: Copy>(tree: &Tree<M>, entry: &mut Entry) {
    if entry.leaves == 0 {
        return;
    }
    let (_, children) = tree.children_of(tree.node(entry.parent));
    for (child, sample) in children.iter().zip(entry.samples.iter_mut()) {
        let (plays, wins) = std::mem::take(sample);
        if plays > 0 {
            child.amaf_visits.add_racy(plays);
            child.amaf_wins.add_racy(wins);
        }
    }
    entry.leaves = 0;
}
