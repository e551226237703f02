//! Expansion: a node's moves and their priors (one node, or a batch's
//! nodes in one call of the simulator), then its children attached and
//! published; and the leaf value a prior carries.

use super::config::SearchConfig;
use super::tree::{Node, NodeId, Tree, NO_AMAF, PROVEN_LOSS, PROVEN_WIN};
use super::uct::Scratch;
use crate::game::Game;
use crate::sim::{Prior, PriorsJob, Simulator, Verdict};
use std::sync::atomic::Ordering;

/// Gives `id` (whose position is `pos`) one child per move the game offers,
/// with the simulator's priors plus the even prior. Returns false, changing
/// nothing but `memory_capped`, when the arena cap refuses the children or
/// the node is already expanded.
#[cfg(test)]
pub(super) fn expand<G: Game>(
    tree: &Tree<G::Move>,
    id: NodeId,
    pos: &G,
    sim: &dyn Simulator<G>,
    cfg: &SearchConfig,
    scratch: &mut Scratch<G::Move>,
) -> bool {
    prepare_noisy_children(pos, sim, cfg, id, scratch);
    tree.node(id).claim_expansion() && attach_children(tree, id, pos, cfg, scratch)
}

/// [`prepare_children`] for node `id`, with its seeded prior noise
/// (`SearchConfig::prior_noise`): what an expansion, or a widened node
/// whose dropped moves are evaluated again, attaches.
pub(super) fn prepare_noisy_children<G: Game>(
    pos: &G,
    sim: &dyn Simulator<G>,
    cfg: &SearchConfig,
    id: NodeId,
    scratch: &mut Scratch<G::Move>,
) {
    prepare_children(pos, sim, scratch);
    super::noise::add_prior_noise(scratch.priors_mut(), cfg, id);
}

/// [`prepare_noisy_children`] for several nodes at once (`nodes[i]`, whose
/// position is `positions[i]`, into `scratches[i]`), their priors asked of
/// the simulator in one [`Simulator::priors_batch`].
pub(super) fn prepare_noisy_children_batch<G: Game>(
    nodes: &[NodeId],
    positions: &[&G],
    sim: &dyn Simulator<G>,
    cfg: &SearchConfig,
    scratches: &mut [Scratch<G::Move>],
) {
    for (pos, scratch) in positions.iter().zip(scratches.iter_mut()) {
        pos.legal_moves(&mut scratch.moves);
    }
    let mut jobs: Vec<PriorsJob<'_, G>> = positions
        .iter()
        .zip(scratches.iter_mut())
        .map(|(&pos, scratch)| PriorsJob {
            pos,
            moves: &scratch.moves,
            out: &mut scratch.priors,
        })
        .collect();
    sim.priors_batch(&mut jobs);
    drop(jobs);
    for (&id, scratch) in nodes.iter().zip(scratches.iter_mut()) {
        super::noise::add_prior_noise(scratch.priors_mut(), cfg, id);
    }
}

/// The moves of `pos` and their priors into `scratch`: the costly part of
/// an expansion, done before anything is attached to the tree.
pub(super) fn prepare_children<G: Game>(
    pos: &G,
    sim: &dyn Simulator<G>,
    scratch: &mut Scratch<G::Move>,
) {
    pos.legal_moves(&mut scratch.moves);
    sim.priors(pos, &scratch.moves, &mut scratch.priors);
}

/// Gives `id`, whose expansion this thread has claimed
/// ([`Node::claim_expansion`]), the children [`prepare_children`] put in
/// `scratch` (for the same `pos`) and publishes them. Returns false,
/// changing nothing but `memory_capped` and giving the claim back, when
/// the arena cap refuses them. With progressive widening, only the best
/// moves get children ([`super::widen::attach_best`]).
pub(super) fn attach_children<G: Game>(
    tree: &Tree<G::Move>,
    id: NodeId,
    pos: &G,
    cfg: &SearchConfig,
    scratch: &Scratch<G::Move>,
) -> bool {
    if let Some(widening) = cfg.widening {
        return super::widen::attach_best(tree, id, pos, cfg, widening, scratch);
    }
    let children = scratch.moves.iter().enumerate().map(|(i, &mv)| {
        let prior = scratch.priors.get(i).copied().unwrap_or_default();
        child_node(pos, cfg, mv, prior)
    });
    let count = scratch.moves.len() as u32;
    let node = tree.node(id);
    match tree.nodes.alloc_run(children) {
        Some(first) => {
            node.publish_children(first, count, false);
            true
        }
        None => {
            tree.memory_capped.store(true, Ordering::Relaxed);
            node.release_claim();
            false
        }
    }
}

/// The node of move `mv` of `pos` with `prior` plus the even prior, and
/// its verdict as the node's proof.
pub(super) fn child_node<G: Game>(
    pos: &G,
    cfg: &SearchConfig,
    mv: G::Move,
    prior: Prior,
) -> Node<G::Move> {
    let even = cfg.prior_even_visits;
    let amaf = match pos.move_index(mv) {
        i if Some(mv) != pos.pass_move() && i < pos.move_space() => i as u32,
        _ => NO_AMAF,
    };
    let node = Node::new(Some(mv), prior.visits + even, prior.wins + 0.5 * even)
        .with_amaf_index(amaf)
        .with_bias(prior.bias);
    // A rules' verdict is a proof from the start: the solver never
    // searches the move and settles its parent from it.
    node.set_proof(match prior.verdict {
        Verdict::Open => 0,
        Verdict::Won => PROVEN_WIN,
        Verdict::Lost => PROVEN_LOSS,
    });
    node
}

/// The leaf value a [`Simulator::priors_are_leaf_values`] simulator gave
/// unexpanded node `id` as its prior: the mover's chance, the even prior
/// taken out again. `None` for a node without such a prior (the root, or
/// one expanded with none).
pub(super) fn prior_leaf_value<M: Copy>(
    tree: &Tree<M>,
    id: NodeId,
    cfg: &SearchConfig,
) -> Option<f64> {
    let node = tree.node(id);
    let even = cfg.prior_even_visits as f64;
    let visits = node.prior_visits as f64 - even;
    if node.is_expanded() || visits <= 0.0 {
        return None;
    }
    let wins = node.prior_wins as f64 - 0.5 * even;
    Some((wins / visits).clamp(0.0, 1.0))
}
