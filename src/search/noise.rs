//! Noise on new moves' priors ([`SearchConfig::prior_noise`]), drawn from
//! the seed, the node and the move: a simulator that draws nothing (the
//! Amazons' evaluation) would otherwise make every seed play one game.

use super::config::SearchConfig;
use super::tree::NodeId;
use crate::sim::Prior;

/// Moves each of node `id`'s new priors by up to `cfg.prior_noise` of its
/// virtual visits either way (kept within 0..visits). The draw depends on
/// the seed, the node and the move's index only, so one thread with one
/// seed still searches the same way every time.
pub(super) fn add_prior_noise(priors: &mut [Prior], cfg: &SearchConfig, id: NodeId) {
    if cfg.prior_noise <= 0.0 {
        return;
    }
    for (i, prior) in priors.iter_mut().enumerate() {
        let draw = splitmix(cfg.seed ^ splitmix(u64::from(id) << 32 | i as u64));
        // Uniform in [-1, 1) from the top 24 bits.
        let u = (draw >> 40) as f32 / (1u32 << 23) as f32 - 1.0;
        prior.wins = (prior.wins + cfg.prior_noise * u * prior.visits).clamp(0.0, prior.visits);
    }
}

/// SplitMix64's finaliser: a well-spread 64-bit hash.
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn priors() -> Vec<Prior> {
        (0..50)
            .map(|i| Prior {
                wins: i as f32 / 5.0,
                visits: 10.0,
                ..Prior::default()
            })
            .collect()
    }

    fn noisy(seed: u64, noise: f32, id: NodeId) -> Vec<Prior> {
        let cfg = SearchConfig {
            seed,
            prior_noise: noise,
            ..SearchConfig::default()
        };
        let mut p = priors();
        add_prior_noise(&mut p, &cfg, id);
        p
    }

    #[test]
    fn no_noise_by_default_and_the_same_draw_for_the_same_seed_and_node() {
        assert_eq!(noisy(5, 0.0, 3), priors());
        assert_eq!(noisy(5, 0.01, 3), noisy(5, 0.01, 3));
        assert_ne!(noisy(5, 0.01, 3), noisy(6, 0.01, 3));
        assert_ne!(noisy(5, 0.01, 3), noisy(5, 0.01, 4));
    }

    #[test]
    fn the_noise_stays_within_its_share_of_the_visits_and_the_visits_bounds() {
        for seed in 0..20 {
            for (before, after) in priors().iter().zip(noisy(seed, 0.01, 9)) {
                assert_eq!(after.visits, before.visits);
                assert!((after.wins - before.wins).abs() <= 0.01 * before.visits + 1e-6);
                assert!((0.0..=before.visits).contains(&after.wins));
            }
        }
    }
}
