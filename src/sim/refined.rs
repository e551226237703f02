//! A simulator whose leaves a second one refines: the CPU's playouts and
//! priors for the search's own pace, a GPU's playouts added to each leaf's
//! value afterwards (`search::refine` says how, and why as values and not
//! visits).

use super::{Prior, PriorsJob, Simulator};
use crate::game::Game;
use crate::sim::LeafStats;
use std::sync::Arc;

pub struct RefinedSimulator<G: Game> {
    base: Arc<dyn Simulator<G>>,
    refiner: Arc<dyn Simulator<G>>,
    playouts: u32,
    name: String,
}

impl<G: Game> RefinedSimulator<G> {
    /// `base` simulates and gives priors; `refiner` adds `playouts`
    /// playouts to each leaf `base` simulated.
    pub fn new(base: Arc<dyn Simulator<G>>, refiner: Arc<dyn Simulator<G>>, playouts: u32) -> Self {
        let name = format!("{}+{}", base.name(), refiner.name());
        RefinedSimulator {
            base,
            refiner,
            playouts: playouts.max(1),
            name,
        }
    }
}

impl<G: Game> Simulator<G> for RefinedSimulator<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn simulate(&self, leaves: &[G], playouts_per_leaf: u32, seed: u64, out: &mut [LeafStats]) {
        self.base.simulate(leaves, playouts_per_leaf, seed, out);
    }

    fn prepare(&self, pos: &G) {
        self.base.prepare(pos);
        self.refiner.prepare(pos);
    }

    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<Prior>) {
        self.base.priors(pos, moves, out);
    }

    fn priors_batch(&self, jobs: &mut [PriorsJob<'_, G>]) {
        self.base.priors_batch(jobs);
    }

    fn batches_priors(&self) -> bool {
        self.base.batches_priors()
    }

    fn priors_are_leaf_values(&self) -> bool {
        self.base.priors_are_leaf_values()
    }

    fn refiner(&self) -> Option<(&dyn Simulator<G>, u32)> {
        Some((self.refiner.as_ref(), self.playouts))
    }
}
