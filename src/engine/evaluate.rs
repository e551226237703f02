//! Whole-position evaluations by playouts alone, shared by every game's
//! analysis commands: the ownership estimate, and the all-moves evaluation
//! behind the move-value heat maps.

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

/// The all-moves evaluation: for each `(move_index, position after the
/// move)` in `after`, the share of `playouts` playouts that `mover` wins.
/// Returns one value per index in `0..move_space`, 0 where no move was
/// given.
pub fn move_values<G: Game>(
    sim: &dyn Simulator<G>,
    after: &[(usize, G)],
    mover: Color,
    move_space: usize,
    playouts: u32,
    seed: u64,
) -> Vec<f32> {
    let leaves: Vec<G> = after.iter().map(|(_, pos)| pos.clone()).collect();
    let mut stats = vec![LeafStats::default(); leaves.len()];
    sim.simulate(&leaves, playouts, seed, &mut stats);
    let mut values = vec![0.0f32; move_space];
    for ((index, _), s) in after.iter().zip(&stats) {
        let black = s.black_wins / s.playouts.max(1) as f32;
        values[*index] = if mover == Color::Black {
            black
        } else {
            1.0 - black
        };
    }
    values
}
