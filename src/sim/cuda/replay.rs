//! The exact half of `check_gpu`: random legal move sequences generated
//! with the CPU rules, replayed by the kernels, final states compared.

use super::check::CheckOptions;
use super::device::{GoKernel, Gpu, HexVariant};
use super::family::KernelChoice;
use super::input::KernelPosition;
use super::CudaError;
use crate::sim::FastRng;

/// A random legal move sequence from `start`, at most `max_moves` long.
fn random_game<G: KernelPosition>(
    start: &G,
    rng: &mut FastRng,
    max_moves: usize,
    pass_code: u16,
) -> (G, Vec<u16>) {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    while moves.len() < max_moves && pos.outcome().is_none() {
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u32) as usize];
        moves.push(pos.point_of_move(mv).map_or(pass_code, |p| p as u16));
        pos.play_unchecked(mv);
    }
    (pos, moves)
}

pub fn replay_check<G: KernelPosition>(
    gpu: &Gpu,
    start: &G,
    opts: &CheckOptions,
    max_moves: usize,
    go_kernel: GoKernel,
    hex_variant: HexVariant,
) -> Result<(bool, String), CudaError> {
    let input = start.kernel_input();
    let (family, size) = (input.family, input.size);
    let points = input.colors.len();
    // Generate on several threads: the CPU side is the slow one.
    let n = opts.sequences;
    let threads = opts.threads.max(1);
    let clock = std::time::Instant::now();
    let mut games: Vec<(G, Vec<u16>)> = Vec::with_capacity(n);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t..n)
                        .step_by(threads)
                        .map(|i| {
                            let mut rng = FastRng::new(opts.seed ^ (i as u64) << 20 ^ size as u64);
                            (i, random_game(start, &mut rng, max_moves, points as u16))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<_> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect();
        all.sort_by_key(|(i, _)| *i);
        games.extend(all.into_iter().map(|(_, g)| g));
    });
    if games.len() != n {
        return Err(CudaError::Input(
            "a sequence generator thread failed".into(),
        ));
    }
    let mut flat = vec![0xFFFFu16; n * max_moves];
    for (i, (_, moves)) in games.iter().enumerate() {
        flat[i * max_moves..i * max_moves + moves.len()].copy_from_slice(moves);
    }
    let cpu_seconds = clock.elapsed().as_secs_f64();
    let clock = std::time::Instant::now();
    let choice = KernelChoice {
        go: go_kernel,
        hex: hex_variant,
    };
    let (boards, results) = family.replay(gpu, size, choice, &flat, max_moves, start.to_move())?;
    let gpu_seconds = clock.elapsed().as_secs_f64();
    let mut mismatches = 0;
    let mut first_bad = String::new();
    let mut total_moves = 0;
    let mut finished = 0;
    for (i, (pos, moves)) in games.iter().enumerate() {
        total_moves += moves.len();
        let r = &results[i * 4..i * 4 + 4];
        let cpu_colors = pos.kernel_input().colors;
        let mut why = Vec::new();
        if r[0] != 0 {
            why.push(format!("kernel rejected move {}", r[0] - 1));
        }
        if boards[i * points..(i + 1) * points] != cpu_colors[..] {
            why.push("board differs".to_string());
        }
        why.extend(family.replay_mismatches(r, pos));
        if pos.outcome().is_some() {
            finished += 1;
        }
        if !why.is_empty() {
            if mismatches == 0 {
                first_bad = format!(
                    "; first: sequence {i} ({} moves): {}",
                    moves.len(),
                    why.join(", ")
                );
            }
            mismatches += 1;
        }
    }
    Ok((
        mismatches == 0,
        format!(
            "{n} sequences, {total_moves} moves, {finished} finished games, {mismatches} mismatches{first_bad} \
             (cpu {cpu_seconds:.1} s on {threads} threads, gpu {gpu_seconds:.2} s)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{go, Game};

    #[test]
    fn random_games_are_reproducible_and_legal() {
        let start = go::Position::new(9, 7.5).unwrap();
        let (a, ma) = random_game(&start, &mut FastRng::new(3), 200, 81);
        let (b, mb) = random_game(&start, &mut FastRng::new(3), 200, 81);
        assert_eq!(ma, mb);
        assert_eq!(a.hash(), b.hash());
        // Replaying the move codes (dense point index, 81 = pass) through
        // the checked API accepts every move.
        let mut pos = start.clone();
        for &m in &ma {
            let m = m as usize;
            let mv = if m == 81 {
                go::Move::Pass
            } else {
                go::Move::Play(pos.point(m % 9, m / 9).unwrap())
            };
            pos.play(mv).expect("generated moves are legal");
        }
        assert_eq!(pos.hash(), a.hash());
    }

    #[test]
    #[ignore = "timing probe for the CPU side of check_gpu"]
    fn time_go19_sequences() {
        let start = go::Position::new(19, 7.5).unwrap();
        let t = std::time::Instant::now();
        for i in 0..20 {
            random_game(&start, &mut FastRng::new(i), 400, 361);
        }
        eprintln!(
            "go19: {:.3} s per sequence",
            t.elapsed().as_secs_f64() / 20.0
        );
    }
}
