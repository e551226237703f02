//! A worker's AMAF samples for the top of a tree that several workers
//! share, kept back and added now and then.
//!
//! A backup gives an AMAF sample to every child of every node on its path
//! whose move the player to move there played first below it: about half
//! of them. On Havannah's side 8 the root has ~170 children, each node a
//! cache line of its own, so every leaf wrote some 85 lines at the root
//! alone (and as many at the root child it went through), and every other
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
    /// The sample table of `parent`'s `children` children, for one leaf's
    /// samples (count the leaf with [`leaf_done`](Self::leaf_done)).
    pub fn samples(&mut self, parent: NodeId, children: usize) -> &mut [(u64, f64)] {
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
        &mut entry.samples[..children]
    }

    /// After a leaf's backup: adds the samples of every node that is due,
    /// or all of them every [`SHARED_AMAF_MAX_LEAVES`] leaves.
    pub fn leaf_done<M: Copy>(&mut self, tree: &Tree<M>) {
        self.leaves += 1;
        if self.leaves >= SHARED_AMAF_MAX_LEAVES {
            self.add_all(tree);
            return;
        }
        for entry in &mut self.entries {
            let visits = tree.node(entry.parent).visits.get();
            if entry.leaves * SHARED_AMAF_LAG_DIVISOR >= visits {
                add_entry(tree, entry);
            }
        }
    }

    /// Adds every kept sample to the tree (a worker's last step).
    pub fn add_all<M: Copy>(&mut self, tree: &Tree<M>) {
        for mut entry in self.entries.drain(..) {
            add_entry(tree, &mut entry);
            self.spare.push(entry.samples);
        }
        self.leaves = 0;
    }
}

/// Adds `entry`'s samples to its node's children and empties it. The adds
/// are read-modify-writes that never lose a concurrent one: they are rare
/// now, where the direct writes of `uct::update` are a load and a store.
fn add_entry<M: Copy>(tree: &Tree<M>, entry: &mut Entry) {
    if entry.leaves == 0 {
        return;
    }
    let (_, children) = tree.children_of(tree.node(entry.parent));
    for (child, sample) in children.iter().zip(entry.samples.iter_mut()) {
        let (plays, wins) = std::mem::take(sample);
        if plays > 0 {
            child.amaf_visits.add(plays);
            child.amaf_wins.add(wins);
        }
    }
    entry.leaves = 0;
}
