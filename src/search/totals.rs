//! What the search aggregates at the root: the simulated leaves' score and
//! ownership, and each root move's own playouts and score. Workers keep a
//! share each and merge it into the tree's now and then
//! (`workers::Shared::work`), so no lock is taken at every leaf.

use crate::sim::LeafStats;

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

    /// Adds `other` to these totals and empties it (a worker's share
    /// into the tree's).
    pub fn merge(&mut self, other: &mut RootTotals) {
        if other.playouts == 0 && other.children.is_empty() {
            return;
        }
        self.playouts += other.playouts;
        self.score_sum += other.score_sum;
        if self.ownership.len() < other.ownership.len() {
            self.ownership.resize(other.ownership.len(), 0.0);
        }
        for (sum, o) in self.ownership.iter_mut().zip(&mut other.ownership) {
            *sum += std::mem::take(o);
        }
        if self.children.len() < other.children.len() {
            self.children.resize(other.children.len(), (0, 0.0));
        }
        for (sum, o) in self.children.iter_mut().zip(&mut other.children) {
            let (playouts, score) = std::mem::take(o);
            sum.0 += playouts;
            sum.1 += score;
        }
        other.playouts = 0;
        other.score_sum = 0.0;
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
