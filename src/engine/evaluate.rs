//! Whole-position evaluations by playouts alone, shared by every game's
//! analysis commands and `warpstone bench --all-moves`: the ownership
//! estimate, and the all-moves evaluation behind the move-value heat maps
//! (Werner's move rating; the ComputerGO project's block of playouts per child).

use crate::game::{Color, Game};
use crate::search::Limits;
use crate::sim::{LeafStats, Simulator};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Longest a round of [`rate_leaves_within`] aims to take, so a stop or
/// the deadline is noticed soon.
const ROUND_TIME: Duration = Duration::from_millis(100);

/// Seeds of successive rounds are this far apart (an odd constant, so
/// rounds never reuse a leaf's seed).
const ROUND_SEED_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// Average ownership per cell ([`Game::move_cell`]) over `playouts`
/// playouts from `pos` (+1 Black holds the cell at the end … -1 White).
pub fn ownership<G: Game>(sim: &dyn Simulator<G>, pos: &G, playouts: u32, seed: u64) -> Vec<f32> {
    let mut stats = vec![LeafStats::default()];
    sim.simulate(std::slice::from_ref(pos), playouts.max(1), seed, &mut stats);
    let count = stats[0].playouts.max(1) as f32;
    stats[0].ownership.iter().map(|o| o / count).collect()
}

/// The positions after every legal move of the side to move that puts a
/// stone on a cell ([`Game::move_cell`]), with the move and its cell. Moves
/// that place nothing (Go's pass, Havannah's swap) are left out: they are
/// no cell of a heat map.
pub struct Children<G: Game> {
    pub moves: Vec<G::Move>,
    pub cells: Vec<usize>,
    pub leaves: Vec<G>,
}

pub fn placements<G: Game>(pos: &G) -> Children<G> {
    let mut legal = Vec::new();
    if pos.outcome().is_none() {
        pos.legal_moves(&mut legal);
    }
    let mut out = Children {
        moves: Vec::with_capacity(legal.len()),
        cells: Vec::with_capacity(legal.len()),
        leaves: Vec::with_capacity(legal.len()),
    };
    for mv in legal {
        let Some(cell) = pos.move_cell(mv) else {
            continue;
        };
        let mut next = pos.clone();
        next.play_unchecked(mv);
        out.moves.push(mv);
        out.cells.push(cell);
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

/// [`rate_leaves`] within the engine's limits: rounds of playouts over
/// every leaf (one `simulate` call, one GPU batch, each) until `per_leaf`
/// playouts per leaf, the playout limit (shared out over the leaves, at
/// least one each), the time limit, or `stop`, whichever comes first. The
/// first round runs one playout per leaf, whatever the limits, so there is
/// always a rating; later rounds are sized from the measured speed to
/// take about `ROUND_TIME` (100 ms) each.
pub fn rate_leaves_within<G: Game>(
    sim: &dyn Simulator<G>,
    leaves: &[G],
    mover: Color,
    limits: &Limits,
    per_leaf: u32,
    seed: u64,
    stop: &AtomicBool,
) -> Rated {
    if leaves.is_empty() {
        return Rated {
            win_rates: Vec::new(),
            playouts: 0,
        };
    }
    let start = Instant::now();
    let count = leaves.len() as u64;
    let by_playouts = limits.playouts.map_or(u64::MAX, |p| (p / count).max(1));
    let target = by_playouts.min(u64::from(per_leaf.max(1))) as u32;
    let mut stats = vec![LeafStats::default(); leaves.len()];
    let (mut black_wins, mut playouts) = (vec![0f64; leaves.len()], vec![0u64; leaves.len()]);
    let (mut done, mut round, mut k) = (0u32, 0u64, 1u32);
    loop {
        let round_start = Instant::now();
        let round_seed = seed.wrapping_add(round.wrapping_mul(ROUND_SEED_STEP));
        sim.simulate(leaves, k, round_seed, &mut stats);
        for (i, s) in stats.iter().enumerate() {
            black_wins[i] += s.black_wins as f64;
            playouts[i] += s.playouts as u64;
        }
        done += k;
        round += 1;
        let per_playout = round_start.elapsed().as_secs_f64() / f64::from(k);
        let left = match limits.time {
            Some(t) => t.saturating_sub(start.elapsed()),
            None => Duration::MAX,
        };
        if done >= target || left.is_zero() || stop.load(Ordering::Relaxed) {
            break;
        }
        let slice = left.min(ROUND_TIME).as_secs_f64();
        let fits = (slice / per_playout.max(1e-9)).floor() as u32;
        k = fits.clamp(1, target - done);
    }
    let win_rates = black_wins
        .iter()
        .zip(&playouts)
        .map(|(&b, &n)| match (n, mover) {
            (0, _) => 0.0,
            (n, Color::Black) => (b / n as f64) as f32,
            (n, Color::White) => (1.0 - b / n as f64) as f32,
        })
        .collect();
    Rated {
        win_rates,
        playouts: playouts.iter().sum(),
    }
}

/// Win rates spread over [-1, 1] for a `dboard`, which GoGui draws on
/// that scale: the best move +1, the worst -1, linear between (all 0 when
/// they are equal). Raw rates of one position sit close together (0.70 to
/// 0.89 is typical) and would all look alike.
pub fn spread(win_rates: &[f32]) -> Vec<f32> {
    let lo = win_rates.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = win_rates.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    win_rates
        .iter()
        .map(|&v| match hi - lo {
            range if range > 0.0 => 2.0 * (v - lo) / range - 1.0,
            _ => 0.0,
        })
        .collect()
}

/// The text form of a rating: a line of totals, then one `name rate`
/// line per move, best first (ties in the given order).
pub fn rating_text(names: &[String], rated: &Rated) -> String {
    let mut order: Vec<usize> = (0..names.len().min(rated.win_rates.len())).collect();
    order.sort_by(|&a, &b| rated.win_rates[b].total_cmp(&rated.win_rates[a]));
    let per_move = rated.playouts / names.len().max(1) as u64;
    let mut text = format!("playouts {} per move {per_move}", rated.playouts);
    for i in order {
        text.push_str(&format!("\n{} {:.3}", names[i], rated.win_rates[i]));
    }
    text
}

/// [`rate_leaves`] laid out for a heat map: one value per cell in
/// `0..cell_space` (`cells[i]` is leaf `i`'s), 0 where no move was given.
pub fn move_values<G: Game>(
    sim: &dyn Simulator<G>,
    cells: &[usize],
    leaves: &[G],
    mover: Color,
    cell_space: usize,
    playouts: u32,
    seed: u64,
) -> Vec<f32> {
    let rated = rate_leaves(sim, leaves, mover, playouts, seed);
    let mut values = vec![0.0f32; cell_space];
    for (&cell, &v) in cells.iter().zip(&rated.win_rates) {
        if let Some(slot) = values.get_mut(cell) {
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
        assert!(c.cells.iter().all(|&i| i < hav.cell_space()));
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
        let black = move_values(&sim, &c.cells, &c.leaves, Color::Black, 25, 30, 1);
        let white = move_values(&sim, &c.cells, &c.leaves, Color::White, 25, 30, 1);
        assert_eq!(black.len(), 25, "one value per cell; pass is no cell");
        for &i in &c.cells {
            assert!((black[i] + white[i] - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn a_rating_keeps_to_the_playout_limit_and_stops_when_asked() {
        let sim = Counting {
            inner: CpuSimulator::new(),
            calls: AtomicUsize::new(0),
        };
        let pos = go::Position::new(9, 7.5).unwrap();
        let c = placements(&pos);
        let stop = AtomicBool::new(false);
        // 20 playouts for 81 moves: one each, never more.
        let few = Limits {
            playouts: Some(20),
            time: None,
            whole_time: false,
        };
        let rated = rate_leaves_within(&sim, &c.leaves, Color::Black, &few, 256, 1, &stop);
        assert_eq!(rated.playouts, 81);
        assert_eq!(sim.calls.load(Ordering::Relaxed), 1);
        // 810 playouts: ten each.
        let ten = Limits {
            playouts: Some(810),
            time: None,
            whole_time: false,
        };
        let rated = rate_leaves_within(&sim, &c.leaves, Color::Black, &ten, 256, 1, &stop);
        assert_eq!(rated.playouts, 810);
        // No limit but the cap, and a raised stop flag: one round only.
        stop.store(true, Ordering::Relaxed);
        let rated = rate_leaves_within(
            &sim,
            &c.leaves,
            Color::Black,
            &Limits::default(),
            256,
            1,
            &stop,
        );
        assert_eq!(rated.playouts, 81);
        assert!(rated.win_rates.iter().all(|v| (0.0..=1.0).contains(v)));
        // No move at all (a finished game): nothing to simulate.
        let calls = sim.calls.load(Ordering::Relaxed);
        let none = rate_leaves_within(&sim, &[], Color::Black, &few, 256, 1, &stop);
        assert_eq!((none.win_rates.len(), none.playouts), (0, 0));
        assert_eq!(sim.calls.load(Ordering::Relaxed), calls);
    }

    #[test]
    fn spread_puts_the_best_at_one_and_the_worst_at_minus_one() {
        let s = spread(&[0.7, 0.89, 0.795]);
        assert_eq!((s[0], s[1]), (-1.0, 1.0));
        assert!(s[2].abs() < 1e-5, "{s:?}");
        assert_eq!(spread(&[0.5, 0.5]), vec![0.0, 0.0]);
        assert!(spread(&[]).is_empty());
    }

    #[test]
    fn rating_text_lists_moves_best_first() {
        let rated = Rated {
            win_rates: vec![0.7, 0.89],
            playouts: 20,
        };
        let names = ["A1".to_string(), "D4".to_string()];
        assert_eq!(
            rating_text(&names, &rated),
            "playouts 20 per move 10\nD4 0.890\nA1 0.700"
        );
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
