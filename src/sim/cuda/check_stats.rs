//! The statistical half of `check_gpu`: fixed positions, the CPU's
//! reference statistics (computed or read from the cache file) and the
//! comparison of a kernel's win rates and per-point tables with them.

use super::check::CheckOptions;
use super::check_tables::{table_z, TableZ, TABLE_Z_LIMIT};
use super::input::KernelPosition;
use super::simulator::CudaSimulator;
use super::CudaError;
use crate::game::Game;
use crate::sim::cpu::CpuSimulator;
use crate::sim::go_rollout::GoPolicy;
use crate::sim::{FastRng, LeafStats, Rollout, Simulator};

/// The Go policies some kernel plays, each checked against its CPU twin.
pub(super) const GO_POLICIES: [GoPolicy; 4] = GoPolicy::ALL;

/// The cache name of a Go reference: the light policy keeps the name it
/// had before there was a second policy, so old cache files stay valid;
/// the other policies' counts must never be read as the light one's.
pub(super) fn go_reference_name(rules: &str, size: usize, policy: GoPolicy) -> String {
    match policy {
        GoPolicy::Random => format!("{rules}-go{size}"),
        other => format!("{rules}-go{size}-{}", other.name()),
    }
}

/// `count` positions reached by random legal play from `start`, the i-th
/// after about `i * spread / count` moves.
pub fn fixed_positions<G: Game>(start: &G, count: usize, spread: usize, seed: u64) -> Vec<G> {
    let mut out = Vec::with_capacity(count);
    let mut legal = Vec::new();
    for i in 0..count {
        let mut rng = FastRng::new(seed.wrapping_add(1000 + i as u64));
        let mut pos = start.clone();
        let target = i * spread / count.max(1);
        for _ in 0..target {
            pos.legal_moves(&mut legal);
            // Keep the positions live: no passes, stop short of the end.
            legal.retain(|&m| Some(m) != pos.pass_move());
            if legal.is_empty() {
                break;
            }
            let mut next = pos.clone();
            next.play_unchecked(legal[rng.below(legal.len() as u32) as usize]);
            if next.outcome().is_some() {
                break;
            }
            pos = next;
        }
        out.push(pos);
    }
    out
}

/// [`cpu_stats`] through the cache file of `opts`, one line per position:
/// `key index playouts black_wins score_sum`. `game` must name the policy
/// when `engine` is set (the engine's policy, [`Rollout::engine_rollout`],
/// instead of the kernels' reference [`Rollout::rollout`]).
pub(super) fn cached_cpu_stats<G: KernelPosition + Rollout>(
    game: &str,
    positions: &[G],
    playouts: u32,
    opts: &CheckOptions,
    engine: bool,
) -> Vec<LeafStats> {
    let key = format!(
        "{game}/{}/{playouts}/{}/{}",
        positions.len(),
        opts.seed,
        opts.komi
    );
    let Some(path) = &opts.cpu_cache else {
        return cpu_stats(positions, playouts, opts, engine);
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut cached = vec![None; positions.len()];
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() == 5 && f[0] == key {
            if let (Ok(i), Ok(n), Ok(w), Ok(sc)) = (
                f[1].parse::<usize>(),
                f[2].parse::<u32>(),
                f[3].parse::<f32>(),
                f[4].parse::<f64>(),
            ) {
                if let Some(slot) = cached.get_mut(i) {
                    *slot = Some(LeafStats {
                        playouts: n,
                        black_wins: w,
                        score_sum: sc,
                        ..LeafStats::default()
                    });
                }
            }
        }
    }
    if cached.iter().all(Option::is_some) {
        return cached.into_iter().flatten().collect();
    }
    let stats = cpu_stats(positions, playouts, opts, engine);
    let mut text = text;
    for (i, st) in stats.iter().enumerate() {
        text.push_str(&format!(
            "{key} {i} {} {} {}\n",
            st.playouts, st.black_wins, st.score_sum
        ));
    }
    if let Err(e) = std::fs::write(path, text) {
        tracing::warn!("cannot write the check's CPU cache {}: {e}", path.display());
    }
    stats
}

/// The reference side of the statistical check, spread over threads.
pub(super) fn cpu_stats<G: KernelPosition + Rollout>(
    positions: &[G],
    playouts: u32,
    opts: &CheckOptions,
    engine: bool,
) -> Vec<LeafStats> {
    let cpu = match engine {
        true => CpuSimulator::<G>::engine(),
        false => CpuSimulator::<G>::new(),
    };
    let mut total = vec![LeafStats::default(); positions.len()];
    let threads = opts.threads.max(1);
    let per_thread = playouts.div_ceil(threads as u32);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let cpu = &cpu;
                s.spawn(move || {
                    let mut out = vec![LeafStats::default(); positions.len()];
                    cpu.simulate(
                        positions,
                        per_thread,
                        opts.seed ^ ((t as u64 + 1) << 32),
                        &mut out,
                    );
                    out
                })
            })
            .collect();
        for h in handles {
            if let Ok(part) = h.join() {
                for (acc, p) in total.iter_mut().zip(&part) {
                    acc.merge(p);
                }
            }
        }
    });
    total
}

/// The bitboard kernels on the search's leaf size (64 playouts) with every
/// block size the host may pick: a playout depends only on (seed, leaf,
/// playout index), so the statistics must agree bit for bit.
pub(super) fn blocks_check<G: KernelPosition>(
    sim: &mut CudaSimulator<G>,
    positions: &[G],
    seed: u64,
) -> Result<(bool, String), CudaError> {
    let mut run = |block: Option<u32>| {
        sim.set_bits_block(block);
        let mut stats = vec![LeafStats::default(); positions.len()];
        let result = sim.try_simulate(positions, 64, seed, &mut stats);
        sim.set_bits_block(None);
        result.map(|()| stats)
    };
    let reference = run(Some(super::grid::BITBOARD_BLOCKS[0]))?;
    let mut detail = Vec::new();
    let mut passed = true;
    for block in super::grid::BITBOARD_BLOCKS
        .into_iter()
        .map(Some)
        .chain([None])
    {
        let same = run(block)? == reference;
        passed &= same;
        let name = block.map_or("auto".to_string(), |b| b.to_string());
        detail.push(format!("{name}: {}", if same { "same" } else { "DIFFER" }));
    }
    Ok((passed, format!("64 playouts a leaf, {}", detail.join(", "))))
}

pub(super) fn stats_check<G: KernelPosition>(
    gpu: &CudaSimulator<G>,
    positions: &[G],
    cpu_stats: &[LeafStats],
    opts: &CheckOptions,
) -> Result<(bool, String), CudaError> {
    let mut gpu_stats = vec![LeafStats::default(); positions.len()];
    gpu.try_simulate(positions, opts.gpu_playouts, opts.seed, &mut gpu_stats)?;
    let mut worst = 0.0f64;
    let mut worst_at = 0;
    let mut bad_count = 0;
    let mut tables = TableZ::default();
    for (i, (g, c)) in gpu_stats.iter().zip(cpu_stats).enumerate() {
        let t = table_z(g, c);
        if t.worst() >= TABLE_Z_LIMIT {
            bad_count += 1;
        }
        tables = tables.max(t);
        if g.playouts != opts.gpu_playouts {
            return Err(CudaError::Input(format!(
                "position {i}: GPU ran {} playouts, asked {}",
                g.playouts, opts.gpu_playouts
            )));
        }
        let (ng, nc) = (g.playouts as f64, c.playouts as f64);
        let (pg, pc) = (g.black_wins as f64 / ng, c.black_wins as f64 / nc);
        let pooled = (g.black_wins as f64 + c.black_wins as f64) / (ng + nc);
        let se = (pooled * (1.0 - pooled) * (1.0 / ng + 1.0 / nc)).sqrt();
        let z = if se > 0.0 {
            (pg - pc).abs() / se
        } else if pg == pc {
            0.0
        } else {
            f64::INFINITY
        };
        if z >= 4.0 {
            bad_count += 1;
        }
        if z > worst {
            worst = z;
            worst_at = i;
        }
    }
    let g = &gpu_stats[worst_at];
    let c = &cpu_stats[worst_at];
    Ok((
        bad_count == 0,
        format!(
            "{} positions, gpu {} / cpu {} playouts each; worst z {:.2} at {} (gpu {:.4}, cpu {:.4}; mean score gpu {:.2} cpu {:.2}){}",
            positions.len(),
            opts.gpu_playouts,
            c.playouts,
            worst,
            worst_at,
            g.black_wins as f64 / g.playouts.max(1) as f64,
            c.black_wins as f64 / c.playouts.max(1) as f64,
            g.score_sum / g.playouts.max(1) as f64,
            c.score_sum / c.playouts.max(1) as f64,
            match cpu_stats.iter().any(|c| !c.amaf.is_empty()) {
                // Per point, against the same CPU playouts.
                true => format!(
                    "; per point worst z: first plays {:.2}, their wins {:.2}, ownership {:.2}",
                    tables.plays, tables.wins, tables.ownership
                ),
                false => String::new(),
            },
        ),
    ))
}
