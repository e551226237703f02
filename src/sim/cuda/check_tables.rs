//! The per-point half of `check-gpu`'s statistical check: a kernel's AMAF
//! tables (first plays per point and colour, and Black's wins among them)
//! and its ownership sums against the CPU's, point by point. The win-rate
//! check alone would not see a kernel that records first plays under the
//! wrong point or colour, yet the search's RAVE feeds on these tables.

use crate::sim::LeafStats;

/// Per-point tests run many times over (points × colours × positions), so
/// one failure needs more than the win rate's 4 standard errors: 5 keeps
/// a false alarm on a 19x19 run (about 30,000 tests) below 1%.
pub const TABLE_Z_LIMIT: f64 = 5.0;

/// The worst per-point z-scores of one position (0 where the CPU side has
/// no tables, as with cached CPU references).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TableZ {
    /// First plays per point and colour, as a share of playouts.
    pub plays: f64,
    /// Black's win rate among the playouts with such a first play.
    pub wins: f64,
    /// Mean ownership per point.
    pub ownership: f64,
}

impl TableZ {
    pub fn worst(self) -> f64 {
        self.plays.max(self.wins).max(self.ownership)
    }

    pub fn max(self, o: TableZ) -> TableZ {
        TableZ {
            plays: self.plays.max(o.plays),
            wins: self.wins.max(o.wins),
            ownership: self.ownership.max(o.ownership),
        }
    }
}

/// Expected successes (and failures) the smaller sample needs before the
/// normal approximation is trusted. Rare events are Poisson, not normal:
/// on 19x19 with 2,000 CPU playouts, a point the GPU's 100,000 playouts
/// first-play 1 time in 100,000 shows up twice in the CPU's a few times per
/// check run by chance alone, and scored z 6.8 before this rule.
const MIN_EXPECTED: f64 = 10.0;

/// z of two binomial proportions, pooled; 0 when an event is too rare (or
/// too common) in the smaller sample to test this way.
fn z_prop(kg: f64, ng: f64, kc: f64, nc: f64) -> f64 {
    if ng <= 0.0 || nc <= 0.0 {
        return 0.0;
    }
    let p = (kg + kc) / (ng + nc);
    let small = ng.min(nc);
    if p * small < MIN_EXPECTED || (1.0 - p) * small < MIN_EXPECTED {
        return 0.0;
    }
    let se = (p * (1.0 - p) * (1.0 / ng + 1.0 / nc)).sqrt();
    let d = (kg / ng - kc / nc).abs();
    if se > 0.0 {
        d / se
    } else if d == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// Compares `gpu`'s tables with `cpu`'s, point by point.
pub fn table_z(gpu: &LeafStats, cpu: &LeafStats) -> TableZ {
    let mut z = TableZ::default();
    if cpu.amaf.is_empty() || gpu.amaf.len() != cpu.amaf.len() {
        return z;
    }
    let (ng, nc) = (gpu.playouts as f64, cpu.playouts as f64);
    for (g, c) in gpu.amaf.iter().zip(&cpu.amaf) {
        for colour in 0..2 {
            let (g, c) = (g[colour], c[colour]);
            let (pg, pc) = (g.plays as f64, c.plays as f64);
            z.plays = z.plays.max(z_prop(pg, ng, pc, nc));
            // Win rates among a handful of plays say little; the share of
            // plays above already catches a point or colour mix-up.
            if pg >= 100.0 && pc >= 100.0 {
                let w = z_prop(g.black_wins as f64, pg, c.black_wins as f64, pc);
                z.wins = z.wins.max(w);
            }
        }
    }
    for (&og, &oc) in gpu.ownership.iter().zip(&cpu.ownership) {
        // Each playout adds -1, 0 or +1: variance at most 1 - mean².
        let (mg, mc) = (og as f64 / ng, oc as f64 / nc);
        let m = (og as f64 + oc as f64) / (ng + nc);
        let var = (1.0 - m * m).max(1e-3);
        let se = (var * (1.0 / ng + 1.0 / nc)).sqrt();
        z.ownership = z.ownership.max((mg - mc).abs() / se);
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::AmafCount;

    fn stats(plays: [u32; 2], wins: [f32; 2], own: f32) -> LeafStats {
        LeafStats {
            playouts: 10_000,
            black_wins: 5_000.0,
            score_sum: 0.0,
            amaf: vec![[
                AmafCount {
                    plays: plays[0],
                    black_wins: wins[0],
                },
                AmafCount {
                    plays: plays[1],
                    black_wins: wins[1],
                },
            ]],
            ownership: vec![own],
        }
    }

    #[test]
    fn equal_tables_pass_and_swapped_colours_fail() {
        let a = stats([6_000, 3_000], [3_600.0, 900.0], 2_000.0);
        assert!(table_z(&a, &a).worst() < 1e-9);
        let swapped = stats([3_000, 6_000], [900.0, 3_600.0], 2_000.0);
        assert!(table_z(&swapped, &a).plays > TABLE_Z_LIMIT);
        let wrong_owner = stats([6_000, 3_000], [3_600.0, 900.0], -2_000.0);
        assert!(table_z(&wrong_owner, &a).ownership > TABLE_Z_LIMIT);
        let wrong_wins = stats([6_000, 3_000], [2_400.0, 900.0], 2_000.0);
        assert!(table_z(&wrong_wins, &a).wins > TABLE_Z_LIMIT);
        // Rare first plays are not judged by a normal z.
        let rare = |k| LeafStats {
            playouts: 2_000,
            ..stats([k, 0], [0.0, 0.0], 0.0)
        };
        let mut gpu = rare(1);
        gpu.playouts = 100_000;
        assert_eq!(table_z(&gpu, &rare(2)).plays, 0.0);
        // Cached CPU references carry no tables: nothing to compare.
        let bare = LeafStats {
            playouts: 10_000,
            ..LeafStats::default()
        };
        assert_eq!(table_z(&a, &bare), TableZ::default());
    }
}
