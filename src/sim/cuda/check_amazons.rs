//! `check-gpu`'s Amazons lines: the evaluation kernel against the CPU's
//! per-square reference (`crate::sim::amazons_eval::features`, the form
//! that follows Lieberum's definitions term by term) on random positions.
//!
//! The kernel computes in `f32` what the reference computes in `f64`, so
//! the values cannot be equal; the bound is what matters to the search (a
//! thousandth of a square of territory is far below any difference the
//! tree acts on). Whether the armies are apart (`w = 0`) is a boolean
//! fact both sides must agree on exactly: the search's endgame counting
//! depends on it.

use super::amazons::AmazonsGpu;
use super::check::CheckLine;
use crate::sim::amazons_eval::features;
use crate::sim::amazons_rollout::random_positions;

/// The largest |GPU − CPU| value accepted, in squares of territory.
pub const MAX_DIFFERENCE: f64 = 1e-3;

/// Board sizes checked, with the share of the position count each gets
/// (10x10, the size played, gets them all; the small boards a quarter).
const SIZES: [(usize, usize); 3] = [(10, 1), (8, 4), (6, 4)];

/// One line per board size: `count` random positions (`count / 4` on the
/// small boards) from `seed`, evaluated on GPU `ordinal` and on the CPU.
pub fn check_amazons_eval(
    ordinal: usize,
    count: usize,
    seed: u64,
    progress: &mut dyn FnMut(&CheckLine),
) -> Vec<CheckLine> {
    let mut gpu = match AmazonsGpu::open(ordinal) {
        Ok(gpu) => gpu,
        Err(e) => {
            let line = CheckLine {
                name: "amazons eval".to_string(),
                passed: false,
                detail: format!("error: {e}"),
            };
            progress(&line);
            return vec![line];
        }
    };
    let mut lines = Vec::new();
    for (size, share) in SIZES {
        let n = (count / share).max(1);
        let (passed, detail) = match compare(&mut gpu, size, n, seed) {
            Ok(result) => result,
            Err(e) => (false, format!("error: {e}")),
        };
        let line = CheckLine {
            name: format!("amazons eval {size}x{size}"),
            passed,
            detail,
        };
        progress(&line);
        lines.push(line);
    }
    lines
}

fn compare(
    gpu: &mut AmazonsGpu,
    size: usize,
    count: usize,
    seed: u64,
) -> Result<(bool, String), String> {
    let positions = random_positions(size, count, seed ^ size as u64)?;
    let values = gpu.evaluate(&positions).map_err(|e| e.to_string())?;
    let mut worst = 0.0f64;
    let mut separation_disagrees = 0usize;
    let mut separated = 0usize;
    for (pos, v) in positions.iter().zip(&values) {
        let f = features(pos);
        worst = worst.max((f64::from(v.value) - f.value()).abs());
        separated += usize::from(f.separated());
        separation_disagrees += usize::from((v.w == 0.0) != f.separated());
    }
    let passed = worst < MAX_DIFFERENCE && separation_disagrees == 0 && values.len() == count;
    Ok((
        passed,
        format!(
            "{count} positions, max |gpu - cpu| {worst:.2e} (bound {MAX_DIFFERENCE:.0e}), \
             armies apart in {separated}, {separation_disagrees} disagree"
        ),
    ))
}
