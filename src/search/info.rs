//! What the search reports: candidates with principal variations, root
//! winrate, ownership and score (for lz-analyze and genmove), and the final
//! decision.

use super::config::{SearchConfig, LCB_Z};
use super::root::{self, RootMove};
use super::tree::{Node, NodeId, Tree, PROVEN_WIN};
use crate::game::Game;
use std::cmp::Ordering;
use std::time::Duration;

/// One root move as the analysis shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<M> {
    pub mv: M,
    pub visits: u64,
    /// 0..1 for the side to move at the root.
    pub winrate: f32,
    /// The move's share of the prior knowledge (prior wins) at the root;
    /// sums to 1 over the root's moves, like a policy.
    pub prior: f32,
    /// Lower confidence bound of `winrate` (normal approximation).
    pub lcb: f32,
    /// The move, then the most visited reply, and so on.
    pub pv: Vec<M>,
    /// Visits of the position after each move of `pv`.
    pub pv_visits: Vec<u64>,
    /// Black minus White, averaged over the playouts below this move
    /// (`None` when none of them was simulated: kept from an earlier
    /// search, or terminal).
    pub score_lead: Option<f32>,
}

/// A snapshot of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<M> {
    /// Playouts in the current (or last) run; a leaf counts
    /// `playouts_per_leaf`, a terminal leaf too.
    pub playouts: u64,
    /// Leaves evaluated in the current (or last) run.
    pub iterations: u64,
    pub elapsed: Duration,
    /// Visits of the root, kept ones from tree reuse included.
    pub root_visits: u64,
    /// 0..1 for the side to move: the best candidate's winrate, or the root
    /// mean when no move has been visited yet (0.5 with no data at all).
    pub winrate: f32,
    /// Visited root moves, most visits first (ties: higher winrate first).
    pub candidates: Vec<Candidate<M>>,
    /// Per move index: +1 Black owns it at the end … −1 White does,
    /// averaged over the simulated playouts (empty without a position).
    pub ownership: Vec<f32>,
    /// Black minus White, averaged over the simulated playouts.
    pub score_lead: f32,
    pub nodes: usize,
    pub memory_bytes: usize,
    /// The node-memory cap stopped an expansion: the tree no longer grows.
    pub memory_capped: bool,
}

impl<M> Default for SearchInfo<M> {
    fn default() -> Self {
        SearchInfo {
            playouts: 0,
            iterations: 0,
            elapsed: Duration::ZERO,
            root_visits: 0,
            winrate: 0.5,
            candidates: Vec::new(),
            ownership: Vec::new(),
            score_lead: 0.0,
            nodes: 0,
            memory_bytes: 0,
            memory_capped: false,
        }
    }
}

/// What to do at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    Play(M),
    Resign,
}

/// Per-run counters that are not stored in the tree.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RunCounters {
    pub playouts: u64,
    pub iterations: u64,
    pub elapsed: Duration,
}

/// Proven wins first and proven losses last (MCTS-solver, [`Node::proof`]),
/// then most visits, then higher value (see [`super::tree::value`]);
/// stable, so equal moves keep their order. `(proof, visits, value)`.
fn rank_by(a: (i8, u64, f64), b: (i8, u64, f64)) -> Ordering {
    b.0.cmp(&a.0)
        .then(b.1.cmp(&a.1))
        .then_with(|| b.2.partial_cmp(&a.2).unwrap_or(Ordering::Equal))
}

/// [`rank_by`] for children of one tree.
fn rank<M>(a: &Node<M>, b: &Node<M>) -> Ordering {
    rank_by(
        (a.proof(), a.visits.get(), a.value()),
        (b.proof(), b.visits.get(), b.value()),
    )
}

/// [`rank_by`] for root moves merged over the trees.
fn rank_root<M>(a: &RootMove<M>, b: &RootMove<M>) -> Ordering {
    rank_by(
        (a.proof, a.visits, a.value()),
        (b.proof, b.visits, b.value()),
    )
}

/// The best child of `id` by [`rank`], if it has any.
pub(super) fn best_child<M: Copy>(tree: &Tree<M>, id: NodeId) -> Option<NodeId> {
    let node = tree.node(id);
    node.children()
        .reduce(|best, c| match rank(tree.node(c), tree.node(best)) {
            Ordering::Less => c,
            _ => best,
        })
}

/// The most visited line from `id` on (only visited nodes), with the
/// visits of each of its nodes.
fn principal_variation<M: Copy>(tree: &Tree<M>, mut id: NodeId) -> (Vec<M>, Vec<u64>) {
    let (mut pv, mut visits) = (Vec::new(), Vec::new());
    loop {
        let node = tree.node(id);
        if node.visits.get() == 0 {
            break;
        }
        match node.mv {
            Some(mv) => {
                pv.push(mv);
                visits.push(node.visits.get());
            }
            None => break,
        }
        match best_child(tree, id) {
            Some(next) => id = next,
            None => break,
        }
    }
    (pv, visits)
}

/// Mean score (Black minus White) of the simulated leaves below the root
/// move `mv`, over every tree that has it.
fn move_score<M: Copy + PartialEq>(trees: &[&Tree<M>], mv: M) -> Option<f32> {
    let (mut n, mut sum) = (0u64, 0.0f64);
    for tree in trees {
        let Some(root) = tree.root else { continue };
        let first = tree.node(root).first_child();
        let Some(id) = tree
            .node(root)
            .children()
            .find(|&c| tree.node(c).mv == Some(mv))
        else {
            continue;
        };
        if let Some(&(playouts, score)) = tree.totals().children.get((id - first) as usize) {
            n += playouts;
            sum += score;
        }
    }
    (n > 0).then(|| (sum / n as f64) as f32)
}

fn lower_bound(p: f64, n: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    (p - LCB_Z * (p * (1.0 - p) / n as f64).sqrt()).clamp(0.0, 1.0)
}

/// A snapshot of the trees (see [`super::root`]) for reports and the final
/// answer.
pub(super) fn collect<G: Game>(
    trees: &[&Tree<G::Move>],
    root_pos: Option<&G>,
    run: RunCounters,
) -> SearchInfo<G::Move> {
    let mut info = SearchInfo {
        playouts: run.playouts,
        iterations: run.iterations,
        elapsed: run.elapsed,
        nodes: trees.iter().map(|t| t.nodes.len()).sum(),
        memory_bytes: trees.iter().map(|t| t.nodes.bytes() + t.lazy().bytes).sum(),
        memory_capped: trees.iter().any(|t| t.is_memory_capped()),
        ..SearchInfo::default()
    };
    if let Some(pos) = root_pos {
        let totals: Vec<_> = trees.iter().map(|t| t.totals()).collect();
        let n = totals.iter().map(|t| t.playouts).sum::<u64>().max(1) as f64;
        let score: f64 = totals.iter().map(|t| t.score_sum).sum();
        info.ownership = (0..pos.cell_space())
            .map(|i| {
                let sum: f64 = totals
                    .iter()
                    .map(|t| t.ownership.get(i).copied().unwrap_or(0.0))
                    .sum();
                (sum / n) as f32
            })
            .collect();
        info.score_lead = (score / n) as f32;
    }
    if trees.iter().all(|t| t.root.is_none()) {
        return info;
    }
    let (root_visits, root_wins) = root::root_totals(trees);
    info.root_visits = root_visits;

    let mut moves = root::merge(trees);
    let prior_total: f64 = moves.iter().map(|m| m.prior_wins as f64).sum();
    let count = moves.len();
    moves.retain(|m| m.visits > 0);
    moves.sort_by(rank_root);
    info.candidates = moves
        .iter()
        .filter_map(|m| {
            let winrate = m.winrate()?;
            let prior = match prior_total > 0.0 {
                true => m.prior_wins as f64 / prior_total,
                false => 1.0 / count as f64,
            };
            let (t, id) = m.source;
            let (pv, pv_visits) = principal_variation(trees[t], id);
            Some(Candidate {
                mv: m.mv,
                visits: m.visits,
                winrate: winrate as f32,
                prior: prior as f32,
                lcb: lower_bound(winrate, m.visits) as f32,
                pv,
                pv_visits,
                score_lead: move_score(trees, m.mv),
            })
        })
        .collect();
    info.winrate = match info.candidates.first() {
        Some(best) => best.winrate,
        // The root's own wins are for the player who moved into it.
        None if root_visits > 0 => (1.0 - root_wins / root_visits as f64) as f32,
        None => 0.5,
    };
    info
}

/// The move to play (a proven win, else most visits over all trees, ties
/// by value, proven losses last), or
/// resignation when its winrate is below the threshold after enough
/// visits. `None` when the root position has no move.
pub(super) fn decide<G: Game>(
    trees: &[&Tree<G::Move>],
    root_pos: Option<&G>,
    cfg: &SearchConfig,
) -> Option<Decision<G::Move>> {
    let pos = root_pos?;
    let searched = trees
        .iter()
        .any(|t| t.root.is_some_and(|r| t.node(r).is_expanded()));
    if !searched {
        // Never searched, or not even the root fit in memory: any legal
        // move beats no answer.
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        return moves.first().map(|&m| Decision::Play(m));
    }
    let best = root::merge(trees).into_iter().min_by(rank_root)?;
    let (root_visits, _) = root::root_totals(trees);
    if let (Some(threshold), Some(w)) = (cfg.resign_threshold, best.winrate()) {
        // A proven win is played whatever its playouts said.
        if best.proof != PROVEN_WIN
            && root_visits >= cfg.resign_min_visits
            && (w as f32) < threshold
        {
            return Some(Decision::Resign);
        }
    }
    Some(Decision::Play(best.mv))
}
