//! Progressive widening with lazy children ([`super::config::WIDEN_BASE`]):
//! at expansion the moves are ranked by prior and only the best get
//! nodes; the rest wait in [`Tree::lazy`] as (move, prior) pairs, worst
//! first, and get nodes as the node's visits grow.
//!
//! A node's children are one contiguous run, so growing it means a new,
//! larger run: the old children are copied in front (their subtrees stay
//! where they are) and the next best waiting moves after them. The run at
//! least doubles each time, so the copies cost little over a node's life
//! (at most nine for the 2,176 opening moves). A descent of another
//! thread, or an earlier leaf of the same batch, that went through an old
//! child still backs up into it: those few results are lost to the copy,
//! and its virtual loss, which the copy does not inherit, drains from the
//! old node.
//!
//! Threads: the tree has no lock during a run (`super::tree::Node`), so
//! the new run is published with one atomic store of its (first, length)
//! word; a descent that read the old run goes on in it (runs are never
//! freed). Only [`Tree::lazy`]'s lock serialises the widening: `grow` and
//! the attaching of a widened expansion's children hold it, so a node is
//! never copied between getting its waiting moves and getting its
//! children, and an expansion whose node was copied meanwhile fills the
//! copy. Games without widening (Go, Havannah, Hex, Connect Four) never
//! take it.

use super::config::{SearchConfig, Widening, WAITING_LISTED};
use super::expand::child_node;
use super::tree::{Node, NodeId, Tree};
use super::uct::Scratch;
use super::waiting::Waiting;
use crate::game::Game;
use crate::sim::Prior;
use std::sync::atomic::Ordering;

/// The order in which widening offers moves: the prior's mean (with the
/// even prior, as the node will have it) plus its progressive bias.
fn rank(prior: &Prior, cfg: &SearchConfig) -> f64 {
    let even = cfg.prior_even_visits as f64;
    let visits = prior.visits as f64 + even;
    let mean = if visits > 0.0 {
        (prior.wins as f64 + 0.5 * even) / visits
    } else {
        0.5
    };
    mean + prior.bias as f64
}

/// The bits of `x` as a u64 that orders like `x` (a NaN, which priors
/// never give, after every number).
fn ordered_bits(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 != 0 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// Puts the `k + 1` smallest of `keys` first, in order (all of them when
/// there are no more), and returns how many are in order.
fn sort_best(keys: &mut [(u64, u32)], k: usize) -> usize {
    if k.saturating_add(1) >= keys.len() {
        keys.sort_unstable();
        return keys.len();
    }
    keys.select_nth_unstable(k);
    keys[..k].sort_unstable();
    k + 1
}

/// The waiting list of the moves at `listed` in `keys` (ranked, best
/// first, sorted through `listed`), worst first, and whether more were
/// left out.
fn waiting_list<M: Copy>(
    keys: &[(u64, u32)],
    moves: &[M],
    prior: impl Fn(usize) -> Prior,
    listed: std::ops::Range<usize>,
) -> Waiting<M> {
    let order = |k: usize| keys[k].1 as usize;
    let dropped = listed.end < keys.len();
    let pairs = listed.rev().map(|k| (moves[order(k)], prior(order(k))));
    Waiting::new(pairs.collect(), dropped)
}

/// [`super::expand::attach_children`] with widening: children for the best
/// `widening.width(visits)` moves of `scratch`, the rest waiting, for node
/// `id`, whose expansion this thread has claimed, or for its copy if
/// [`grow`] copied it meanwhile. Returns false, changing nothing but
/// `memory_capped` and giving the claim back, when the cap refuses them.
pub(super) fn attach_best<G: Game>(
    tree: &Tree<G::Move>,
    id: NodeId,
    pos: &G,
    cfg: &SearchConfig,
    widening: Widening,
    scratch: &Scratch<G::Move>,
) -> bool {
    let (moves, priors) = scratch.prepared();
    let prior = |i: usize| priors.get(i).copied().unwrap_or_default();
    // Best first, equal ranks in the game's move order (so a run is
    // reproducible): the rank's order-preserving bits inverted, then the
    // index, sorted as plain integers (an indirect comparison sort of the
    // 2,176 opening moves took longer than their GPU evaluation).
    let mut keys: Vec<(u64, u32)> = (0..moves.len())
        .map(|i| (!ordered_bits(rank(&prior(i), cfg)), i as u32))
        .collect();
    // Below the root only the best moves get nodes or a place in the list
    // (`Waiting`), so only they need their order: the few hundred best are
    // selected and sorted, the same order a full sort gives them (no two
    // keys are equal). The root lists every move.
    let at_root = tree.root == Some(id);
    let sorted = match at_root {
        true => sort_best(&mut keys, usize::MAX),
        false => {
            let n = tree.node(id);
            let seen = n.visits.get() + n.virtual_loss() as u64;
            let want = widening.width(seen).saturating_mul(2);
            sort_best(&mut keys, want.saturating_add(WAITING_LISTED))
        }
    };
    // Under the lock that `grow` holds, so a node is never copied between
    // getting its waiting moves and getting its children, and a node
    // copied while this thread evaluated its moves is found.
    let mut lazy = tree.lazy();
    let mut id = id;
    while let Some(copy) = lazy.moved.remove(&id) {
        id = copy;
    }
    let node = tree.node(id);
    let seen = node.visits.get() + node.virtual_loss() as u64;
    let first = widening.width(seen).min(moves.len());
    // Below the root only the best of the others are listed; the rest are
    // dropped and listed again when the width reaches them (`Waiting`).
    let listed = match at_root {
        true => moves.len() - first,
        false => (moves.len() - first).min(WAITING_LISTED),
    };
    if (first + listed + 1).min(keys.len()) > sorted {
        // Visits came meanwhile and widened the node past the sorted part.
        sort_best(&mut keys, usize::MAX);
    }
    let order = |k: usize| keys[k].1 as usize;
    let tail = waiting_list(&keys, moves, prior, first..first + listed);
    let tail_bytes = tail.bytes();
    let waiting = !tail.nothing_waits();
    if waiting && !tree.lazy_fits(lazy.bytes, tail_bytes) {
        tree.memory_capped.store(true, Ordering::Relaxed);
        node.release_claim();
        return false;
    }
    let children = (0..first).map(|k| child_node(pos, cfg, moves[order(k)], prior(order(k))));
    match tree.nodes.alloc_run(children) {
        Some(run) => {
            if waiting {
                lazy.waiting.insert(id, tail);
                lazy.bytes += tail_bytes;
            }
            node.publish_children(run, first as u32, waiting);
            true
        }
        None => {
            tree.memory_capped.store(true, Ordering::Relaxed);
            node.release_claim();
            false
        }
    }
}

/// Whether expanded node `id`, seen `seen` times, whose moves are waiting
/// ([`super::tree::Node::is_waiting`]), is due for more children: its
/// width has passed its children.
pub(super) fn due<M: Copy>(tree: &Tree<M>, cfg: &SearchConfig, id: NodeId, seen: u64) -> bool {
    let Some(widening) = cfg.widening else {
        return false;
    };
    !tree.is_memory_capped() && widening.width(seen) > tree.node(id).num_children() as usize
}

/// Gives expanded node `id` (position `pos`) the waiting moves its width
/// now asks for, at least as many again as it has (see the module
/// comment). Does nothing when another thread did it first; sets
/// `memory_capped` when the cap refuses the new run.
pub(super) fn grow<G: Game>(tree: &Tree<G::Move>, id: NodeId, pos: &G, cfg: &SearchConfig) -> Grow {
    let Some(widening) = cfg.widening else {
        return Grow::Done;
    };
    let mut lazy = tree.lazy();
    let node = tree.node(id);
    let have = node.num_children() as usize;
    let seen = node.visits.get() + node.virtual_loss() as u64;
    let want = widening.width(seen);
    let Some(waiting) = lazy.waiting.get(&id) else {
        return Grow::Done;
    };
    if want <= have {
        return Grow::Done;
    }
    // Every listed move has a node and some were dropped: those need their
    // priors again (`relist`) before any of them gets a node.
    if waiting.len() == 0 && waiting.has_dropped() {
        return Grow::NeedsPriors;
    }
    let add = want.max(2 * have).saturating_sub(have).min(waiting.len());
    let old = node.children();
    // The old children's unexpanded nodes are claimed for good, so that no
    // descent still on the old run expands them (their children would be
    // lost to the copy). One whose expansion is under way (its expander
    // evaluates its moves, then waits for this lock to attach them) stays
    // claimed too, and so is its copy, which the expander fills instead
    // (`Lazy::moved`): an evaluation takes long enough that some root
    // child of a busy tree is always being expanded.
    let mut claimed = Vec::new();
    let mut run: Vec<Node<G::Move>> = Vec::with_capacity(have + add);
    let mut moved = Vec::new();
    for (i, c) in old.clone().enumerate() {
        let child = tree.node(c);
        let busy = !child.is_expanded() && !child.claim_expansion();
        if !child.is_expanded() && !busy {
            claimed.push(c);
        }
        let mut copy = child.clone();
        copy.virtual_loss.store(0, Ordering::Relaxed);
        if busy {
            copy.set_claimed_mut();
            moved.push(i);
        }
        run.push(copy);
    }
    let keep = waiting.len() - add;
    run.extend(
        waiting
            .iter()
            .skip(keep)
            .rev()
            .map(|(mv, prior)| child_node(pos, cfg, mv, prior)),
    );
    let Some(first) = tree.nodes.alloc_run(run.into_iter()) else {
        tree.memory_capped.store(true, Ordering::Relaxed);
        for &c in &claimed {
            tree.node(c).release_claim();
        }
        return Grow::Done;
    };
    for i in moved {
        lazy.moved
            .insert(old.start + i as NodeId, first + i as NodeId);
    }
    // The children's own waiting moves follow them to their new ids.
    for (i, c) in old.enumerate() {
        if let Some(tail) = lazy.waiting.remove(&c) {
            lazy.waiting.insert(first + i as NodeId, tail);
        }
    }
    let mut still_waiting = false;
    let mut freed = 0;
    if let Some(waiting) = lazy.waiting.get_mut(&id) {
        let before = waiting.bytes();
        waiting.truncate(keep);
        still_waiting = !waiting.nothing_waits();
        freed = before - if still_waiting { waiting.bytes() } else { 0 };
        if !still_waiting {
            lazy.waiting.remove(&id);
        }
    }
    lazy.bytes -= freed;
    node.replace_children(first, (have + add) as u32, still_waiting);
    Grow::Done
}

/// What [`grow`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Grow {
    /// Widened as far as its width asks, or nothing to do.
    Done,
    /// The width passed the listed moves and some were dropped
    /// (`Waiting::has_dropped`): evaluate the node's moves again
    /// ([`super::expand::prepare_children`]) and [`relist`] them, then grow.
    NeedsPriors,
}

/// Lists expanded node `id`'s waiting moves anew from its moves and priors
/// in `scratch` (evaluated again, as at its expansion): the best
/// [`WAITING_LISTED`] of those without a node, marked as having dropped
/// the others if there are more. Does nothing if another thread did it first (the
/// list is no longer empty), or if the node's run was copied meanwhile
/// (its list went with the copy, which a later descent widens). Sets
/// `memory_capped` when the list does not fit under the cap.
pub(super) fn relist<M: Copy + Eq + std::hash::Hash>(
    tree: &Tree<M>,
    id: NodeId,
    cfg: &SearchConfig,
    scratch: &Scratch<M>,
) {
    let (moves, priors) = scratch.prepared();
    let prior = |i: usize| priors.get(i).copied().unwrap_or_default();
    let mut lazy = tree.lazy();
    let Some(old) = lazy.waiting.get(&id) else {
        return;
    };
    // Relisted by another thread already (it asked when the list was empty).
    if !old.has_dropped() || old.len() > 0 {
        return;
    }
    let have: std::collections::HashSet<M> = tree
        .node(id)
        .children()
        .filter_map(|c| tree.node(c).mv)
        .collect();
    let mut keys: Vec<(u64, u32)> = (0..moves.len())
        .filter(|&i| !have.contains(&moves[i]))
        .map(|i| (!ordered_bits(rank(&prior(i), cfg)), i as u32))
        .collect();
    let listed = keys.len().min(WAITING_LISTED);
    sort_best(&mut keys, listed);
    let fresh = waiting_list(&keys, moves, prior, 0..listed);
    let (before, after) = (old.bytes(), fresh.bytes());
    if !tree.lazy_fits(lazy.bytes - before, after) {
        tree.memory_capped.store(true, Ordering::Relaxed);
        return;
    }
    lazy.bytes = lazy.bytes - before + after;
    lazy.waiting.insert(id, fresh);
}

#[cfg(test)]
mod tests {
    use super::sort_best;

    #[test]
    fn the_sorted_prefix_is_a_full_sorts_prefix() {
        // Distinct keys, as the widening's are (the move's index is in each).
        let keys: Vec<(u64, u32)> = (0..500u32)
            .map(|i| ((i as u64 * 2_654_435_761) % 97, i))
            .collect();
        let mut full = keys.clone();
        full.sort_unstable();
        for k in [0, 1, 10, 266, 498, 499, 500, usize::MAX] {
            let mut part = keys.clone();
            let sorted = sort_best(&mut part, k);
            assert_eq!(sorted, k.saturating_add(1).min(keys.len()));
            assert_eq!(part[..sorted], full[..sorted], "k = {k}");
        }
    }
}
