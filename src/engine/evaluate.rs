//! Whole-position evaluations by playouts alone, shared by every game's
//! analysis commands and `warpstone bench --all-moves`: the ownership
//! estimate, and the all-moves evaluation behind the move-value heat maps
//! (paper 000's move rating; paper 003's block of playouts per child).

use crate::game::{Color, Game};
use crate::sim::{LeafStats, Simulator};

/// Average ownership per move index over `playouts` playouts from `pos`
/// (+1 Black holds the cell at the end … -1 White).
pub fn ownership<G: Game>(sim: &dyn Simulator<G>, pos: &G, playouts: u32, seed: u64) -> Vec<f32> {
    let mut stats = vec![LeafStats::default()];
    sim.simulate(std::slice::from_ref(pos), playouts.max(1), seed, &mut stats);
    let count = stats[0].playouts.max(1) as f32;
    stats[0].ownership.iter().map(|o| o / count).collect()
}

/// The positions after every legal move of the side to move that puts a
/// stone on the board, with the move and its index. The last move index of
/// both games is the move that places nothing (Go's pass, Havannah's swap),
/// so those are left out: they are no cell of a heat map.
pub struct Children<G: Game> {
    pub moves: Vec<G::Move>,
    pub indices: Vec<usize>,
    pub leaves: Vec<G>,
}

pub fn placements<G: Game>(pos: &G) -> Children<G> {
    let mut legal = Vec::new();
    if pos.outcome().is_none() {
        pos.legal_moves(&mut legal);
    }
    let board = pos.move_space().saturating_sub(1);
    let mut out = Children {
        moves: Vec::with_capacity(legal.len()),
        indices: Vec::with_capacity(legal.len()),
        leaves: Vec::with_capacity(legal.len()),
    };
    for mv in legal {
        let index = pos.move_index(mv);
        if index >= board {
            continue;
        }
        let mut next = pos.clone();
        next.play_unchecked(mv);
        out.moves.push(mv);
        out.indices.push(index);
        out.leaves.push(next);
    }
    out
}

/// What the all-moves evaluation found: per leaf, the share of its
/// playouts that `mover` won, and the playouts run in all.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub win_rates: Vec<f32>,
    pub playouts: u64,
}

impl Rated {
    /// The leaf with the highest win rate (the first of equals).
    pub fn best(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, &v) in self.win_rates.iter().enumerate() {
            if best.is_none_or(|b| v > self.win_rates[b]) {
                best = Some(i);
            }
        }
        best
    }
}

/// The all-moves evaluation: `playouts` playouts from every leaf (the
/// positions after `mover`'s candidate moves), all leaves in ONE
/// `simulate` call, so the GPU backend runs them as one batch (one launch
/// unless the batch exceeds a slot's memory share) and the CPU backend
/// with one set of buffers.
pub fn rate_leaves<G: Game>(
    sim: &dyn Simulator<G>,
    leaves: &[G],
    mover: Color,
    playouts: u32,
    seed: u64,
) -> Rated {
    let mut stats = vec![LeafStats::default(); leaves.len()];
    sim.simulate(leaves, playouts.max(1), seed, &mut stats);
    Rated {
        win_rates: stats.iter().map(|s| win_rate(s, mover)).collect(),
        playouts: stats.iter().map(|s| s.playouts as u64).sum(),
    }
}

/// The share of `s`'s playouts that `mover` won (0 without playouts).
fn win_rate(s: &LeafStats, mover: Color) -> f32 {
    if s.playouts == 0 {
        return 0.0;
    }
    let black = s.black_wins / s.playouts as f32;
    match mover {
        Color::Black => black,
        Color::White => 1.0 - black,
    }
}

/// [`rate_leaves`] laid out for a heat map: one value per index in
/// `0..move_space` (`indices[i]` is leaf `i`'s), 0 where no move was given.
pub fn move_values<G: Game>(
    sim: &dyn Simulator<G>,
    indices: &[usize],
    leaves: &[G],
    mover: Color,
    move_space: usize,
    playouts: u32,
    seed: u64,
) -> Vec<f32> {
    let rated = rate_leaves(sim, leaves, mover, playouts, seed);
    let mut values = vec![0.0f32; move_space];
    for (&index, &v) in indices.iter().zip(&rated.win_rates) {
        if let Some(slot) = values.get_mut(index) {
            *slot = v;
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{go, havannah};
    use crate::sim::cpu::CpuSimulator;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts simulate calls, to see that a whole evaluation is one batch.
    struct Counting<G> {
        inner: CpuSimulator<G>,
        calls: AtomicUsize,
    }

    impl<G: crate::sim::Rollout> Simulator<G> for Counting<G> {
        fn name(&self) -> &str {
            "counting"
        }
        fn simulate(&self, leaves: &[G], k: u32, seed: u64, out: &mut [LeafStats]) {
            self.calls.fetch_add(1, Ordering::Relaxed);
            self.inner.simulate(leaves, k, seed, out);
        }
    }

    #[test]
    fn placements_leave_out_pass_and_swap() {
        let go = go::Position::new(5, 7.5).unwrap();
        let c = placements(&go);
        assert_eq!(c.leaves.len(), 25);
        assert!(c.moves.iter().all(|&m| m != go::Move::Pass));
        assert!(c.leaves.iter().all(|l| l.to_move() == Color::White));
        let mut hav = havannah::Position::new(4).unwrap();
        let first = placements(&hav).moves[0];
        hav.play(first).unwrap();
        // The second move may be a swap; it is no cell.
        let c = placements(&hav);
        assert_eq!(c.leaves.len(), 36);
        assert!(c.indices.iter().all(|&i| i < hav.move_space() - 1));
    }

    #[test]
    fn every_move_is_rated_in_one_batch() {
        let sim = Counting {
            inner: CpuSimulator::new(),
            calls: AtomicUsize::new(0),
        };
        let pos = go::Position::new(5, 0.5).unwrap();
        let c = placements(&pos);
        let rated = rate_leaves(&sim, &c.leaves, Color::Black, 40, 3);
        assert_eq!(sim.calls.load(Ordering::Relaxed), 1);
        assert_eq!(rated.win_rates.len(), 25);
        assert_eq!(rated.playouts, 25 * 40);
        assert!(rated.win_rates.iter().all(|v| (0.0..=1.0).contains(v)));
        // With komi 0.5, Black's first move in the centre of 5x5 wins most
        // light playouts; a corner move does not do better.
        let best = rated.best().unwrap();
        let centre = c
            .moves
            .iter()
            .position(|&m| matches!(m, go::Move::Play(p) if pos.coords(p) == (2, 2)));
        let corner = c
            .moves
            .iter()
            .position(|&m| matches!(m, go::Move::Play(p) if pos.coords(p) == (0, 0)));
        let (centre, corner) = (centre.unwrap(), corner.unwrap());
        assert!(rated.win_rates[centre] > rated.win_rates[corner]);
        assert!(rated.win_rates[best] >= rated.win_rates[centre]);
    }

    #[test]
    fn move_values_lay_rates_out_by_index_for_the_mover() {
        let sim = CpuSimulator::new();
        let pos = go::Position::new(5, 7.5).unwrap();
        let c = placements(&pos);
        let black = move_values(&sim, &c.indices, &c.leaves, Color::Black, 26, 30, 1);
        let white = move_values(&sim, &c.indices, &c.leaves, Color::White, 26, 30, 1);
        assert_eq!(black.len(), 26);
        assert_eq!(black[25], 0.0, "pass is not rated");
        for &i in &c.indices {
            assert!((black[i] + white[i] - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn best_prefers_the_first_of_equals_and_none_when_empty() {
        let r = Rated {
            win_rates: vec![0.2, 0.7, 0.7, 0.1],
            playouts: 4,
        };
        assert_eq!(r.best(), Some(1));
        let empty = Rated {
            win_rates: vec![],
            playouts: 0,
        };
        assert_eq!(empty.best(), None);
    }
}
