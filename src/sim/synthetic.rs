//! A simulator that plays nothing: it makes up each leaf's statistics at
//! once (a win rate and first plays from a hash of the seed and the leaf),
//! keeping the real priors. `warpstone bench --search --tree-only` runs the
//! search on it to measure the tree's own speed: the leaves a second the
//! search could take in from a simulator that costs nothing, which is the
//! ceiling the GPU search meets at few playouts a leaf.

use super::{AmafCount, LeafStats, Prior, Rollout, Simulator};
use crate::sim::cpu::CpuSimulator;

#[derive(Debug, Default)]
pub struct SyntheticSimulator<G> {
    priors: CpuSimulator<G>,
}

impl<G> SyntheticSimulator<G> {
    pub fn new() -> Self {
        SyntheticSimulator {
            priors: CpuSimulator::new(),
        }
    }
}

impl<G: Rollout> Simulator<G> for SyntheticSimulator<G> {
    fn name(&self) -> &str {
        "synthetic"
    }

    fn simulate(&self, leaves: &[G], playouts_per_leaf: u32, seed: u64, out: &mut [LeafStats]) {
        let k = playouts_per_leaf;
        for (i, (leaf, stats)) in leaves.iter().zip(out.iter_mut()).enumerate() {
            stats.reset_for(leaf);
            let h = (seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .wrapping_mul(0xD1B5_4A32_D192_ED03);
            // A Black win rate between 0.3 and 0.7, and every point first
            // played by one colour in half the playouts: the backup then
            // touches every child's AMAF counters, as real playouts do.
            let rate = 0.3 + 0.4 * ((h >> 40) as f64 / (1u64 << 24) as f64);
            stats.playouts = k;
            stats.black_wins = (k as f64 * rate) as f32;
            for (j, amaf) in stats.amaf.iter_mut().enumerate() {
                amaf[((h >> (j % 61)) & 1) as usize] = AmafCount {
                    plays: k / 2,
                    black_wins: (k as f64 * rate / 2.0) as f32,
                };
            }
        }
    }

    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<Prior>) {
        self.priors.priors(pos, moves, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::go::Position;

    #[test]
    fn made_up_statistics_are_whole_and_deterministic() {
        let sim = SyntheticSimulator::<Position>::new();
        let leaves = vec![Position::new(9, 7.0).unwrap(); 3];
        let mut a = vec![LeafStats::default(); 3];
        let mut b = vec![LeafStats::default(); 3];
        sim.simulate(&leaves, 64, 7, &mut a);
        sim.simulate(&leaves, 64, 7, &mut b);
        assert_eq!(a, b);
        for s in &a {
            assert_eq!(s.playouts, 64);
            assert!((0.3 * 64.0..=0.7 * 64.0).contains(&s.black_wins));
            assert_eq!(s.amaf.len(), 82);
            assert!(s.amaf.iter().all(|c| c[0].plays + c[1].plays == 32));
        }
    }
}
