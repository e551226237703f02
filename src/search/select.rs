//! A worker's descents for one batch: from the root to the leaves it will
//! simulate (or back up at once), expanding on the way. One descent at a
//! time, each expansion done where the descent meets it; or, for a
//! simulator whose priors are a round trip ([`Simulator::batches_priors`]),
//! every descent of the batch first, each stopping at the node it claimed
//! for expansion, then all those expansions' priors in one call, then the
//! stopped descents going on.

use super::expand;
use super::tree::{NodeId, Tree};
use super::uct::{self, Context, Descent, Path, Scratch};
use super::widen::Grow;
use super::workers::Shared;
use crate::game::{Color, Game, Outcome};
use crate::sim::LeafStats;

/// One worker's buffers for a batch, reused between batches.
pub(super) struct Batch<G: Game> {
    /// Positions to simulate (only the first `to_simulate` are live).
    pub(super) positions: Vec<G>,
    pub(super) paths: Vec<Path>,
    pub(super) to_simulate: usize,
    pub(super) stats: Vec<LeafStats>,
    pub(super) terminal: Vec<(Path, Outcome)>,
    /// Leaves whose value the parent's expansion computed
    /// ([`crate::sim::Simulator::priors_are_leaf_values`]), with Black's
    /// chance.
    pub(super) known: Vec<(Path, f64)>,
    pub(super) spare_paths: Vec<Path>,
    pub(super) scratch: Scratch<G::Move>,
    /// Batched expansions: where each descent of the batch ended (by
    /// slot), the descents stopped at a node to expand (slot, node), and
    /// those nodes' moves and priors.
    ends: Vec<Option<Outcome>>,
    stopped: Vec<(usize, NodeId)>,
    expansions: Vec<Scratch<G::Move>>,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Self {
        Batch {
            positions: Vec::new(),
            paths: Vec::new(),
            to_simulate: 0,
            stats: Vec::new(),
            terminal: Vec::new(),
            known: Vec::new(),
            spare_paths: Vec::new(),
            scratch: Scratch::default(),
            ends: Vec::new(),
            stopped: Vec::new(),
            expansions: Vec::new(),
        }
    }
}

/// Where one descent of a batch got to.
enum Stop {
    /// At a leaf (`None`) or a terminal or proven node.
    Ended(Option<Outcome>),
    /// At a node it claimed for expansion, its priors not asked for yet.
    Expand(NodeId),
}

impl<G: Game> Shared<'_, G> {
    /// Descends `leaves` times in tree `t`, sorting the leaves into ones to
    /// simulate (packed at the front of `batch.positions`), terminal ones
    /// and ones whose value is known. A node due for expansion, claimed by
    /// a descent, gets its moves, priors and children, then the descent
    /// goes on: at once, or after every descent of the batch has reached
    /// its own (`Simulator::batches_priors`).
    pub(super) fn select(&self, t: usize, leaves: usize, batch: &mut Batch<G>) {
        let state = &self.states[t];
        let ctx = Context {
            root: state.root,
            root_pos: self.root_pos,
            cfg: self.cfg,
            virtual_loss: self.virtual_loss,
            filter: self.filter,
        };
        batch.to_simulate = 0;
        while batch.positions.len() < leaves {
            batch.positions.push(self.root_pos.clone());
            batch.paths.push(Path::default());
        }
        if leaves > 1 && self.sim.batches_priors() {
            return self.select_gathering(state.tree, &ctx, leaves, batch);
        }
        for _ in 0..leaves {
            // Every earlier slot was either handed on (terminal, known) or
            // is a leaf to simulate, so the next free slot is this one.
            let slot = batch.to_simulate;
            let mut resume = None;
            let outcome = loop {
                match self.descend_slot(state.tree, &ctx, batch, slot, resume) {
                    Stop::Ended(outcome) => break outcome,
                    Stop::Expand(id) => {
                        self.expand_now(state.tree, batch, slot, id);
                        resume = Some(id);
                    }
                }
            };
            self.file_leaf(state.tree, batch, slot, outcome);
        }
    }

    /// [`Self::select`] for a simulator that batches its priors: every
    /// descent first (each keeps its virtual loss on its path and on the
    /// node it stopped at, so the others spread out), the expansions they
    /// stopped at in one [`crate::sim::Simulator::priors_batch`], then
    /// those descents go on below their node, and so on until every
    /// descent has ended.
    fn select_gathering(
        &self,
        tree: &Tree<G::Move>,
        ctx: &Context<'_, G>,
        leaves: usize,
        batch: &mut Batch<G>,
    ) {
        batch.ends.clear();
        batch.stopped.clear();
        for slot in 0..leaves {
            batch.ends.push(None);
            let mut resume = None;
            loop {
                match self.descend_slot(tree, ctx, batch, slot, resume) {
                    Stop::Ended(outcome) => batch.ends[slot] = outcome,
                    // The root at once: the batch's other descents wait
                    // for it (`uct::descend`), there being no move yet.
                    Stop::Expand(id) if id == ctx.root => {
                        self.expand_now(tree, batch, slot, id);
                        resume = Some(id);
                        continue;
                    }
                    Stop::Expand(id) => self.stop_at(tree, batch, slot, id),
                }
                break;
            }
        }
        let mut stopped = Vec::new();
        while !batch.stopped.is_empty() {
            std::mem::swap(&mut stopped, &mut batch.stopped);
            let n = stopped.len();
            if batch.expansions.len() < n {
                batch.expansions.resize_with(n, Scratch::default);
            }
            let nodes: Vec<NodeId> = stopped.iter().map(|&(_, id)| id).collect();
            let positions: Vec<&G> = stopped
                .iter()
                .map(|&(slot, _)| &batch.positions[slot])
                .collect();
            let scratches = &mut batch.expansions[..n];
            expand::prepare_noisy_children_batch(&nodes, &positions, self.sim, self.cfg, scratches);
            for ((&id, &pos), scratch) in nodes.iter().zip(&positions).zip(scratches.iter()) {
                // Taken off first: the widening sizes the node by its
                // visits and virtual loss.
                tree.node(id).remove_virtual_loss(self.virtual_loss);
                expand::attach_children(tree, id, pos, self.cfg, scratch);
            }
            for (slot, id) in stopped.drain(..) {
                match self.descend_slot(tree, ctx, batch, slot, Some(id)) {
                    Stop::Ended(outcome) => batch.ends[slot] = outcome,
                    Stop::Expand(id) => self.stop_at(tree, batch, slot, id),
                }
            }
        }
        for slot in 0..leaves {
            let outcome = batch.ends[slot];
            self.file_leaf(tree, batch, slot, outcome);
        }
    }

    /// Files the descent in slot `slot` as stopped at node `id`, which it
    /// claimed for expansion. The node carries the descent's virtual loss
    /// meanwhile (`uct::descend` adds a node's own only when the descent
    /// goes on below it), so the batch's later descents turn away from it
    /// instead of ending there one after another.
    fn stop_at(&self, tree: &Tree<G::Move>, batch: &mut Batch<G>, slot: usize, id: NodeId) {
        tree.node(id).add_virtual_loss(self.virtual_loss);
        batch.stopped.push((slot, id));
    }

    /// Expands node `id`, claimed by the descent in slot `slot`, there and
    /// then. (Other threads may end on it meanwhile, as leaves: putting
    /// the descent's virtual loss on it while its priors are made, as on a
    /// stopped one, won 12 and lost 18 of 30 Amazons games at 2 threads
    /// and 4,000 playouts against the build without it, so it was not
    /// kept.)
    fn expand_now(&self, tree: &Tree<G::Move>, batch: &mut Batch<G>, slot: usize, id: NodeId) {
        let (pos, scratch) = (&batch.positions[slot], &mut batch.scratch);
        expand::prepare_noisy_children(pos, self.sim, self.cfg, id, scratch);
        expand::attach_children(tree, id, pos, self.cfg, scratch);
    }

    /// Descends (or, with `resume`, goes on descending below that node)
    /// into slot `slot` of `batch` until a leaf or a node to expand. A node
    /// due for more children (progressive widening) gets them on the way.
    fn descend_slot(
        &self,
        tree: &Tree<G::Move>,
        ctx: &Context<'_, G>,
        batch: &mut Batch<G>,
        slot: usize,
        mut resume: Option<NodeId>,
    ) -> Stop {
        loop {
            let (pos, path) = (&mut batch.positions[slot], &mut batch.paths[slot]);
            match uct::descend(tree, ctx, pos, path, resume) {
                Descent::Leaf => return Stop::Ended(None),
                Descent::Terminal(outcome) => return Stop::Ended(Some(outcome)),
                Descent::Expand(id) => return Stop::Expand(id),
                Descent::Widen(id) => {
                    let pos = &batch.positions[slot];
                    if super::widen::grow(tree, id, pos, self.cfg) == Grow::NeedsPriors {
                        let scratch = &mut batch.scratch;
                        expand::prepare_noisy_children(pos, self.sim, self.cfg, id, scratch);
                        super::widen::relist(tree, id, self.cfg, &batch.scratch);
                        super::widen::grow(tree, id, pos, self.cfg);
                    }
                    resume = Some(id);
                }
            }
        }
    }

    /// Files the descent in slot `slot` (at or after `batch.to_simulate`),
    /// which ended with `outcome`: a terminal or proven leaf, a leaf whose
    /// value its parent's expansion gave, or a leaf to simulate, moved to
    /// the front.
    fn file_leaf(
        &self,
        tree: &Tree<G::Move>,
        batch: &mut Batch<G>,
        slot: usize,
        outcome: Option<Outcome>,
    ) {
        let path = &batch.paths[slot];
        let depth = path.nodes.len() - 1;
        let known = match (outcome, depth) {
            (None, 1..) if self.sim.priors_are_leaf_values() => {
                expand::prior_leaf_value(tree, path.nodes[depth], self.cfg).map(|p| {
                    match path.mover(depth) {
                        Color::Black => p,
                        Color::White => 1.0 - p,
                    }
                })
            }
            _ => None,
        };
        match (outcome, known) {
            (Some(outcome), _) => {
                // Keep the path, hand the slot a spare one.
                let spare = batch.spare_paths.pop().unwrap_or_default();
                let path = std::mem::replace(&mut batch.paths[slot], spare);
                batch.terminal.push((path, outcome));
            }
            (None, Some(black)) => {
                let spare = batch.spare_paths.pop().unwrap_or_default();
                let path = std::mem::replace(&mut batch.paths[slot], spare);
                batch.known.push((path, black));
            }
            (None, None) => {
                let front = batch.to_simulate;
                batch.positions.swap(front, slot);
                batch.paths.swap(front, slot);
                batch.to_simulate += 1;
            }
        }
    }
}
