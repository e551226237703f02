//! Reference data for `kernels/hostcheck/hex_tactical.cpp`, the CPU check
//! of the Havannah tactical kernels: positions with the CPU tactical
//! policy's statistics, from the kernels' own streams (`E` lines, compared
//! exactly with `hex_tactical_S`) and from the CPU's (`S` lines, compared
//! statistically with the packed tactical kernels, whose uniform pick maps
//! a random number to another cell).
//!
//! Writes only when `WARPSTONE_HOSTCHECK_DIR` is set (`run.sh` sets it),
//! so a plain `cargo test` spends nothing here.

use crate::game::havannah::{Move, Position};
use crate::game::Game;
use crate::sim::cpu::CpuSimulator;
use crate::sim::cuda::check_exact::engine_stats_from_kernel_streams;
use crate::sim::cuda::KernelPosition;
use crate::sim::{FastRng, LeafStats, Simulator};

/// A live position after `moves` uniform moves (no swap), or fewer when
/// the next one would end the game.
fn position(side: usize, moves: usize, seed: u64) -> Position {
    let mut pos = Position::new(side).unwrap();
    pos.set_swap_allowed(false);
    let mut rng = FastRng::new(seed);
    let mut legal = Vec::new();
    for _ in 0..moves {
        pos.legal_moves(&mut legal);
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
    pos
}

/// `tag side header0 header1 seed playouts score2 wins2 colours tables`:
/// the statistics block a kernel produces for the leaf (common.cuh's
/// layout: AMAF first plays per cell and colour, their Black half wins,
/// ownership sums; comma-separated), colours one digit per cell.
fn line(tag: &str, pos: &Position, seed: u64, stats: &LeafStats) -> String {
    let input = pos.kernel_input();
    let cells = input.colors.len();
    let mut tables = vec![0i64; 5 * cells];
    for k in 0..cells {
        for c in 0..2 {
            let a = stats.amaf[k][c];
            tables[2 * k + c] = a.plays as i64;
            tables[2 * cells + 2 * k + c] = (2.0 * a.black_wins).round() as i64;
        }
        tables[4 * cells + k] = stats.ownership[k].round() as i64;
    }
    let colours: String = input.colors.iter().map(|c| char::from(b'0' + c)).collect();
    let tables: Vec<String> = tables.iter().map(i64::to_string).collect();
    format!(
        "{tag} {} {} {} {seed} {} {} {} {colours} {}\n",
        pos.side(),
        input.header[0],
        input.header[1],
        stats.playouts,
        (2.0 * stats.score_sum).round() as i64,
        (2.0 * stats.black_wins).round() as i64,
        tables.join(",")
    )
}

#[test]
fn write_gpu_hostcheck_data_havannah() {
    let Some(dir) = std::env::var_os("WARPSTONE_HOSTCHECK_DIR") else {
        return;
    };
    let env = |name: &str, default: u32| {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let exact = env("WARPSTONE_HOSTCHECK_HEX_PLAYOUTS", 256);
    let cpu_playouts = env("WARPSTONE_HOSTCHECK_HEX_CPU_PLAYOUTS", 20_000);
    let mut text = String::new();
    for (side, count) in [(4, 6), (8, 6), (10, 4)] {
        let cells = crate::sim::cuda::hex::cell_count(side);
        let mut positions: Vec<Position> = (0..count)
            .map(|i| position(side, i * cells / (2 * count) + 1, 50 + i as u64))
            .collect();
        // A position after a swap has no last stone.
        let mut swapped = Position::new(side).unwrap();
        let c = swapped.cells().nth(cells / 3).unwrap();
        swapped.play(Move::Play(c)).unwrap();
        swapped.play(Move::Swap).unwrap();
        positions.push(swapped);
        // Each position alone, as leaf 0 of its own launch.
        for (i, pos) in positions.iter().enumerate() {
            let seed = 17 + i as u64;
            let stats = engine_stats_from_kernel_streams(std::slice::from_ref(pos), exact, seed, 1);
            text.push_str(&line("E", pos, seed, &stats[0]));
        }
        let mut stats = vec![LeafStats::default(); positions.len()];
        CpuSimulator::<Position>::engine().simulate(&positions, cpu_playouts, 3, &mut stats);
        for (pos, st) in positions.iter().zip(&stats) {
            text.push_str(&line("S", pos, 3, st));
        }
    }
    let path = std::path::PathBuf::from(dir).join("havannah_tactical.txt");
    std::fs::write(path, text).unwrap();
}
