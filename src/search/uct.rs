//! UCT with RAVE, michi-style: `descend` picks a leaf (expanding on the way),
//! the caller simulates it, `update` backs the result up the path.
//!
//! Sign convention: a node's `wins` are for the player who played its move
//! (the player to move at its parent), so a parent simply picks the child
//! with the highest urgency. Leaf results arrive from Black's point of view
//! (`LeafStats`) and are converted per node with the colour of that player.

use super::amaf_share::AmafShare;
use super::config::{SearchConfig, SHARED_AMAF_DEPTH};
use super::tree::{Node, NodeId, Tree, NO_AMAF, PROVEN_LOSS, PROVEN_WIN};
use crate::game::{Color, Game, Outcome, OwnershipSums};
use crate::sim::{AmafCount, Prior};
use std::sync::Arc;

/// Moves a search may not try (analysis `avoid` / `allow`):
/// `forbids(depth, mover, mv)`, depth 0 being the move from the root.
pub type MoveFilter<M> = Arc<dyn Fn(usize, Color, M) -> bool + Send + Sync>;

/// One descent: the nodes from the root to the leaf and the side to move at
/// each of them (`to_move[0]` is the root's).
#[derive(Clone, Debug, Default)]
pub(super) struct Path {
    pub nodes: Vec<NodeId>,
    pub to_move: Vec<Color>,
}

impl Path {
    fn clear(&mut self) {
        self.nodes.clear();
        self.to_move.clear();
    }

    /// The player who played into the node at `depth`.
    pub(super) fn mover(&self, depth: usize) -> Color {
        match depth {
            0 => self.to_move[0].opponent(),
            _ => self.to_move[depth - 1],
        }
    }
}

/// Per-thread buffers for expansion and AMAF, reused across iterations.
#[derive(Debug)]
pub(super) struct Scratch<M> {
    pub(super) moves: Vec<M>,
    pub(super) priors: Vec<Prior>,
    /// `first_play[move_index]`: who first played there below the node
    /// being updated, among the tree moves of the current path.
    first_play: Vec<Option<Color>>,
}

impl<M> Scratch<M> {
    /// The moves and priors [`super::expand::prepare_children`] put here.
    pub(super) fn prepared(&self) -> (&[M], &[Prior]) {
        (&self.moves, &self.priors)
    }

    pub(super) fn priors_mut(&mut self) -> &mut [Prior] {
        &mut self.priors
    }
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            priors: Vec::new(),
            first_play: Vec::new(),
        }
    }
}

/// The result of simulating one leaf, Black's point of view.
#[derive(Clone, Copy, Debug)]
pub(super) struct LeafResult<'a> {
    pub playouts: u32,
    pub black_wins: f64,
    /// `[move_index][color]` first plays in the playouts (empty for a
    /// terminal leaf, which has no playout).
    pub amaf: &'a [[AmafCount; 2]],
}

impl LeafResult<'_> {
    /// A terminal leaf scored directly, weighted like `playouts` playouts.
    pub fn terminal(outcome: Outcome, playouts: u32) -> LeafResult<'static> {
        LeafResult {
            playouts,
            black_wins: outcome.value_for(Color::Black) as f64 * playouts as f64,
            amaf: &[],
        }
    }

    fn wins_for(&self, color: Color) -> f64 {
        match color {
            Color::Black => self.black_wins,
            Color::White => self.playouts as f64 - self.black_wins,
        }
    }
}

/// How urgently the player to move at the parent wants to try `child`:
/// michi's RAVE blend of the child's own mean (with priors) and its AMAF
/// mean, plus the child's progressive bias over its own visits plus one,
/// plus a small UCB term (`cfg.exploration()`: a run's config holds the
/// game's value, `Game::exploration`, so call this with the run's config,
/// not the search's unresolved one). Playouts in flight count as losses.
/// `ln_parent` is ln(max(1, the parent's visits)), the same for every
/// child.
pub(super) fn urgency<M>(child: &Node<M>, ln_parent: f64, cfg: &SearchConfig) -> f64 {
    let n = child.visits.get() as f64 + child.virtual_loss() as f64;
    let v = n + child.prior_visits as f64;
    let amaf_n = child.amaf_visits.get() as f64;
    if v <= 0.0 && amaf_n <= 0.0 {
        return cfg.first_play_urgency;
    }
    let own_wins = child.wins.get() + child.prior_wins as f64;
    let mut value = if cfg.rave_equiv > 0.0 {
        // Gelly & Silver's β in michi's form, β = a / (a + v + v·a / R)
        // with a AMAF and v own visits, blends the AMAF mean w_a / a and
        // the own mean w / v. With k = 1 + a / R that blend is
        // (w_a + k·w) / (a + k·v): one division per child instead of
        // three (the tree's selection is most of its time). β → 1 with no
        // own visits, and a = 0 leaves the own mean.
        let k = 1.0 + amaf_n / cfg.rave_equiv;
        (child.amaf_wins.get() + k * own_wins) / (amaf_n + k * v)
    } else if v > 0.0 {
        own_wins / v
    } else {
        0.0
    };
    if child.bias_milli != 0 {
        value += child.bias() / (n + 1.0);
    }
    let exploration = cfg.exploration();
    if exploration > 0.0 {
        value += exploration * (ln_parent / (n + 1.0)).sqrt();
    }
    value
}

/// The child with the highest urgency; the first one wins ties, so the
/// choice is deterministic. MCTS-solver: a proven win is taken at once and
/// proven losses only when every child is one.
/// A child whose move is `killer` (a dense AMAF index, `super::killers`)
/// comes first while it has fewer than `cfg.killer_visits` visits.
pub(super) fn select_child<M>(
    tree: &Tree<M>,
    parent: NodeId,
    cfg: &SearchConfig,
    killer: Option<u32>,
) -> NodeId
where
    M: Copy,
{
    select_child_where(tree, parent, cfg, killer, |_| true)
        .unwrap_or(tree.node(parent).first_child())
}

/// [`select_child`] among the children whose move `allowed` accepts;
/// `None` if it accepts none.
fn select_child_where<M>(
    tree: &Tree<M>,
    parent: NodeId,
    cfg: &SearchConfig,
    killer: Option<u32>,
    allowed: impl Fn(M) -> bool,
) -> Option<NodeId>
where
    M: Copy,
{
    let killer = killer.filter(|_| cfg.killer_visits > 0);
    let mut killer_child = None;
    let p = tree.node(parent);
    let parent_visits = p.visits.get() as f64 + p.virtual_loss() as f64;
    let ln_parent = parent_visits.max(1.0).ln();
    let (first, children) = tree.children_of(p);
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    let mut any_lost = false;
    for (id, child) in (first..).zip(children) {
        if child.mv.is_some_and(|mv| !allowed(mv)) {
            continue;
        }
        match child.proof() {
            PROVEN_WIN => return Some(id),
            PROVEN_LOSS => {
                any_lost = true;
                continue;
            }
            _ => {}
        }
        if killer == Some(child.amaf_index)
            && child.visits.get() + (child.virtual_loss() as u64) < cfg.killer_visits
        {
            killer_child = Some(id);
        }
        let value = urgency(child, ln_parent, cfg);
        if best.is_none() || value > best_value {
            best = Some(id);
            best_value = value;
        }
    }
    if killer_child.is_some() {
        return killer_child;
    }
    if best.is_some() || !any_lost {
        return best;
    }
    // Every move is lost: the most urgent of them, so that a lost root
    // still plays its best try (a block of one of two threats, whose
    // prior is better than the rest's) when it does not resign.
    for (id, child) in (first..).zip(children) {
        if child.mv.is_some_and(|mv| !allowed(mv)) {
            continue;
        }
        let value = urgency(child, ln_parent, cfg);
        if best.is_none() || value > best_value {
            best = Some(id);
            best_value = value;
        }
    }
    best
}

/// MCTS-solver backup at `id`: a child proven won for the player to move
/// here makes this node a proven loss for whoever moved into it; every
/// child proven lost makes it a proven win, unless moves still wait for
/// nodes (progressive widening): one of those may not lose. Returns
/// whether `id` is proven.
pub(super) fn settle_proof<M: Copy>(tree: &Tree<M>, id: NodeId) -> bool {
    let node = tree.node(id);
    if node.proof() != 0 {
        return true;
    }
    // The state before the run: `grow` publishes a longer run before it
    // clears WAITING, so a node read as no longer waiting here (acquire)
    // shows its final run below, and an old, shorter run is never taken
    // for all of its moves.
    let waiting = node.is_waiting();
    if node.num_children() == 0 {
        return false;
    }
    let mut all_lost = true;
    for c in node.children() {
        match tree.node(c).proof() {
            PROVEN_WIN => {
                node.set_proof(PROVEN_LOSS);
                return true;
            }
            PROVEN_LOSS => {}
            _ => all_lost = false,
        }
    }
    let proven = all_lost && !waiting;
    if proven {
        node.set_proof(PROVEN_WIN);
    }
    proven
}

/// What a descent reads besides the tree; fixed for a whole run.
pub(super) struct Context<'a, G: Game> {
    pub root: NodeId,
    pub root_pos: &'a G,
    pub cfg: &'a SearchConfig,
    /// The virtual loss one descent adds to its path
    /// ([`SearchConfig::virtual_loss_per_leaf`]).
    pub virtual_loss: u32,
    pub filter: Option<&'a (dyn Fn(usize, Color, G::Move) -> bool + Send + Sync)>,
}

/// Where a descent stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Descent {
    /// A leaf to simulate.
    Leaf,
    /// A terminal (or proven) leaf, scored directly.
    Terminal(Outcome),
    /// The node (the last of the path, whose position `pos` now holds) is
    /// to be expanded, and this descent has claimed it
    /// ([`Node::claim_expansion`]): [`super::expand::prepare_children`], then
    /// [`super::expand::attach_children`], then the descent goes on with
    /// `descend(.., Some(node))`.
    Expand(NodeId),
    /// The node (the last of the path) is due for more children
    /// (progressive widening): [`super::widen::grow`], then the descent
    /// goes on with `descend(.., Some(node))`.
    Widen(NodeId),
}

/// Walks from the root to a leaf, playing the tree moves on `pos` (reset to
/// the root position first), adding virtual loss to every node on the path.
/// Stops at a node that is due for expansion ([`Descent::Expand`]); called
/// again with `resume` set to that node (and the same `pos` and `path`), it
/// goes on from there as if the expansion had happened in place, so with
/// one thread the descent is the same as an uninterrupted one. The root is
/// always expanded, so there is always a move to choose.
pub(super) fn descend<G: Game>(
    tree: &Tree<G::Move>,
    ctx: &Context<'_, G>,
    pos: &mut G,
    path: &mut Path,
    resume: Option<NodeId>,
) -> Descent {
    let Context {
        root,
        root_pos,
        cfg,
        virtual_loss,
        filter,
    } = *ctx;
    let mut id = match resume {
        Some(id) => id,
        None => {
            pos.clone_from(root_pos);
            path.clear();
            root
        }
    };
    let mut resuming = resume.is_some();
    loop {
        let at_root = id == root;
        let node = tree.node(id);
        if !std::mem::take(&mut resuming) {
            path.nodes.push(id);
            path.to_move.push(pos.to_move());
            let seen = node.visits.get() + node.virtual_loss() as u64;
            if !at_root && node.proof() != 0 {
                // Proven (MCTS-solver): scored as the proof says, never
                // searched again.
                let mover = pos.to_move().opponent();
                let winner = match node.proof() {
                    PROVEN_WIN => mover,
                    _ => pos.to_move(),
                };
                node.add_virtual_loss(virtual_loss);
                return Descent::Terminal(Outcome::Win(winner));
            }
            if !node.is_expanded() {
                // Terminal nodes are never expanded, so only leaves need
                // this. They are scored as a referee would, with the stones
                // that the root's playouts lose so far taken off (Go):
                // otherwise a dead stone left in the opponent's area, then
                // two passes, would look like a win. Knowing nothing is the
                // plain outcome. Ownership only rescores a finished game
                // (Go's judgement; the Amazons judge unfinished split
                // endings by counting, without it), so an unfinished one
                // never takes the totals' lock, which every thread's
                // backups share.
                if !at_root {
                    let judged = match cfg.judge_two_passes && pos.outcome().is_some() {
                        true => pos.judged_outcome(OwnershipSums(&tree.totals().ownership)),
                        false => pos.judged_outcome(OwnershipSums::default()),
                    };
                    if let Some(outcome) = judged {
                        node.add_virtual_loss(virtual_loss);
                        if let Some(Outcome::Win(winner)) = pos.proven_outcome() {
                            let mover = pos.to_move().opponent();
                            node.set_proof(if winner == mover {
                                PROVEN_WIN
                            } else {
                                PROVEN_LOSS
                            });
                        }
                        return Descent::Terminal(outcome);
                    }
                }
                // Another thread expanding this node meanwhile makes it a
                // leaf for this descent (or, once published, an inner node);
                // but the root, expanded once a run at most, is waited for:
                // a playout from the root itself has no move to credit.
                if !tree.is_memory_capped() && (at_root || seen >= cfg.expand_after_visits) {
                    if node.claim_expansion() {
                        return Descent::Expand(id);
                    }
                    if at_root {
                        node.wait_while_expanding();
                    }
                }
            } else if node.is_waiting() && super::widen::due(tree, cfg, id, seen) {
                return Descent::Widen(id);
            }
        }
        node.add_virtual_loss(virtual_loss);
        if node.num_children() == 0 {
            // An unexpanded leaf, or a position with no moves at all.
            return match (at_root, pos.outcome()) {
                (true, Some(outcome)) => Descent::Terminal(outcome),
                _ => Descent::Leaf,
            };
        }
        // A filter that leaves no move at all is ignored there: the search
        // must go on somewhere.
        let depth = path.nodes.len() - 1;
        let mover = pos.to_move();
        let killer = tree.killers.at(depth);
        let child = filter
            .and_then(|forbids| {
                select_child_where(tree, id, cfg, killer, |mv| !forbids(depth, mover, mv))
            })
            .unwrap_or_else(|| select_child(tree, id, cfg, killer));
        if let Some(mv) = tree.node(child).mv {
            pos.play_unchecked(mv);
        }
        id = child;
    }
}

/// Backs a leaf result up `path`, removes the `virtual_loss` the descent
/// added, and updates AMAF: at each node, every child whose move
/// was played first — later in this simulation, tree moves below the node
/// or playout — by the player to move at that node gets the result as an
/// AMAF sample for that player.
#[cfg(test)]
pub(super) fn update<G: Game>(
    tree: &Tree<G::Move>,
    path: &Path,
    result: &LeafResult<'_>,
    virtual_loss: u32,
    root_pos: &G,
    scratch: &mut Scratch<G::Move>,
) {
    update_sharing(tree, path, result, virtual_loss, root_pos, scratch, None);
}

/// [`update`], keeping the AMAF samples of the children of the path's
/// first [`SHARED_AMAF_DEPTH`] nodes in `share` when there is one (a tree
/// that several workers share; see `super::amaf_share`), where they are
/// added later. The caller counts the leaf there
/// ([`AmafShare::leaf_done`]).
pub(super) fn update_sharing<G: Game>(
    tree: &Tree<G::Move>,
    path: &Path,
    result: &LeafResult<'_>,
    virtual_loss: u32,
    root_pos: &G,
    scratch: &mut Scratch<G::Move>,
    mut share: Option<&mut AmafShare>,
) {
    let space = root_pos.move_space();
    // Dense index of a node's move for AMAF (set at expansion); pass is not
    // a place, so it has none.
    let amaf_index = |node: &Node<G::Move>| match node.amaf_index {
        NO_AMAF => None,
        i => Some(i as usize).filter(|&i| i < space),
    };
    // Only the path's own moves are ever marked, and they are unmarked
    // again at the end: clearing the whole table at every backup (10,000
    // entries for the Amazons' from-to index) was about 4% of a
    // one-thread Amazons search.
    let first_play = &mut scratch.first_play;
    if first_play.len() != space {
        first_play.clear();
        first_play.resize(space, None);
    }
    // Proofs only change above a proven node, so the settling stops at the
    // first node that stays unproven.
    let mut proven_below = path
        .nodes
        .last()
        .is_some_and(|&leaf| tree.node(leaf).proof() != 0);

    for depth in (0..path.nodes.len()).rev() {
        let id = path.nodes[depth];
        let to_move = path.to_move[depth];
        // The tree move just below this node was played before everything
        // already marked (deeper moves), so it overrides them.
        if let Some(&below) = path.nodes.get(depth + 1) {
            if let Some(i) = amaf_index(tree.node(below)) {
                first_play[i] = Some(to_move);
            }
        }

        if proven_below && depth + 1 < path.nodes.len() {
            let was_open = tree.node(id).proof() == 0;
            proven_below = settle_proof(tree, id);
            // Every reply lost: the move into this node wins, found by
            // search (a rules' verdict is proven from the start).
            if was_open && depth > 0 && tree.node(id).proof() == PROVEN_WIN {
                if let Some(i) = amaf_index(tree.node(id)) {
                    tree.killers.note(depth - 1, i as u32);
                }
            }
        }
        let mover = path.mover(depth);
        let node = tree.node(id);
        node.visits.add(result.playouts as u64);
        node.wins.add(result.wins_for(mover));
        node.remove_virtual_loss(virtual_loss);

        // The sample `child` gets, if any.
        let sample = |child: &Node<G::Move>| {
            let i = amaf_index(child)?;
            let (plays, wins) = match first_play[i] {
                Some(c) if c == to_move => (result.playouts as u64, result.wins_for(to_move)),
                Some(_) => return None, // the opponent got there first
                None => {
                    let a = result.amaf.get(i)?[to_move.index()];
                    let wins = match to_move {
                        Color::Black => a.black_wins as f64,
                        Color::White => a.plays as f64 - a.black_wins as f64,
                    };
                    (a.plays as u64, wins)
                }
            };
            (plays > 0).then_some((plays, wins))
        };
        let children = tree.children_of(node).1;
        match share.as_deref_mut() {
            Some(share) if depth < SHARED_AMAF_DEPTH => {
                let (at, kept) = share.keep(id, children.len());
                for (child, kept) in children.iter().zip(kept) {
                    if let Some((plays, wins)) = sample(child) {
                        kept.0 += plays;
                        kept.1 += wins;
                    }
                }
                share.settle(at, node.visits.get(), tree);
            }
            _ => {
                for child in children {
                    if let Some((plays, wins)) = sample(child) {
                        child.amaf_visits.add_racy(plays);
                        child.amaf_wins.add_racy(wins);
                    }
                }
            }
        }
    }
    for &id in path.nodes.iter().skip(1) {
        if let Some(i) = amaf_index(tree.node(id)) {
            first_play[i] = None;
        }
    }
}
