//! `check_gpu`: the kernels against the CPU rules, exactly (replays) and
//! statistically (win rates from fixed positions).
//!
//! Both checks are generic over [`KernelPosition`] + [`Rollout`], so they
//! run against any CPU implementation of the rules; `warpstone check-gpu`
//! runs them against the project's own rules (see [`super::positions`]).

use super::check_exact::streams_check;
pub use super::check_stats::fixed_positions;
use super::check_stats::{
    blocks_check, cached_cpu_stats, go_reference_name, stats_check, GO_POLICIES,
};
use super::device::{GoKernel, Gpu, HexVariant};
use super::family::Family;
use super::hex;
use super::input::KernelPosition;
use super::replay::replay_check;
use super::simulator::CudaSimulator;
use super::variants::HexPolicy;
use super::CudaError;
use crate::sim::go_rollout::GoPolicy;
use crate::sim::Rollout;

/// What to check and how hard.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub go_sizes: Vec<usize>,
    pub hex_sizes: Vec<usize>,
    /// Random move sequences replayed per game and size (0 skips the
    /// replay check).
    pub sequences: usize,
    /// Fixed positions per game and size for the statistical check.
    pub positions: usize,
    /// GPU playouts per position.
    pub gpu_playouts: u32,
    /// CPU playouts per position (the CPU side is the slow one); boards
    /// larger than 100 points get fewer, see [`CheckOptions::cpu_playouts_for`].
    pub cpu_playouts: u32,
    pub komi: f32,
    pub seed: u64,
    /// CPU threads for the reference side.
    pub threads: usize,
    /// Where to keep the reference side's win counts between runs, so a
    /// machine with a weak CPU (the GPU machine here) can reuse counts
    /// computed elsewhere. Keyed by game, size, Go policy, position count,
    /// playouts and seed; `None` computes every time.
    pub cpu_cache: Option<std::path::PathBuf>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            go_sizes: vec![9, 13, 19],
            hex_sizes: vec![4, 8, 10],
            sequences: 10_000,
            positions: 20,
            gpu_playouts: 100_000,
            cpu_playouts: 100_000,
            komi: 7.5,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            cpu_cache: None,
        }
    }
}

impl CheckOptions {
    /// CPU playouts per position for a board of `points` points: the
    /// reference model is slow on large boards, so they get fewer (the
    /// z-test accounts for unequal sample sizes, at some loss of power).
    pub fn cpu_playouts_for(&self, points: usize) -> u32 {
        let scale = if points <= 100 {
            1
        } else if points <= 200 {
            5
        } else if points <= 300 {
            10
        } else {
            50
        };
        (self.cpu_playouts / scale).max(1)
    }
}

#[derive(Clone, Debug)]
pub struct CheckLine {
    pub name: String,
    pub passed: bool,
    pub detail: String,
}

#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    pub lines: Vec<CheckLine>,
}

impl CheckReport {
    pub fn passed(&self) -> bool {
        !self.lines.is_empty() && self.lines.iter().all(|l| l.passed)
    }

    fn push(&mut self, name: String, result: Result<(bool, String), CudaError>) {
        let (passed, detail) = result.unwrap_or_else(|e| (false, format!("error: {e}")));
        self.lines.push(CheckLine {
            name,
            passed,
            detail,
        });
    }
}

impl std::fmt::Display for CheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for l in &self.lines {
            writeln!(
                f,
                "{} {:<28} {}",
                if l.passed { "PASS" } else { "FAIL" },
                l.name,
                l.detail
            )?;
        }
        write!(
            f,
            "{}",
            if self.passed() {
                "all checks passed"
            } else {
                "CHECKS FAILED"
            }
        )
    }
}

/// A CPU implementation of both games' rules and playout policies: how to
/// make the empty board of a size (`None`: size not supported), for Go
/// one whose playouts follow the given policy.
pub struct CpuRules<Go, Hex, FGo, FHex>
where
    FGo: Fn(usize, f32, GoPolicy) -> Option<Go>,
    FHex: Fn(usize) -> Option<Hex>,
{
    /// Distinguishes cached reference counts of different rule sets.
    pub name: &'static str,
    pub go: FGo,
    pub havannah: FHex,
}

fn push(
    report: &mut CheckReport,
    progress: &mut dyn FnMut(&CheckLine),
    name: String,
    result: Result<(bool, String), CudaError>,
) {
    report.push(name, result);
    if let Some(line) = report.lines.last() {
        progress(line);
    }
}

fn unsupported(game: &'static str, size: usize) -> CudaError {
    CudaError::UnsupportedSize {
        game,
        size,
        supported: "what the CPU rules allow",
    }
}

/// Playouts per position of the tactical kernel's exact check (the CPU
/// replays every one).
const STREAM_PLAYOUTS: u32 = 2000;

/// The cache name of a Havannah reference: the uniform policy keeps the
/// name it had before there was a second policy, and the tactical one is
/// named for its bridge restoring, so that a cache of the tactical policy
/// before it is not read as this one's.
fn hex_reference_name(rules: &str, side: usize, policy: HexPolicy) -> String {
    match policy {
        HexPolicy::Uniform => format!("{rules}-havannah{side}"),
        other => format!("{rules}-havannah{side}-{}-bridge", other.name()),
    }
}

/// Both checks against any CPU rules.
pub fn check_against<Go, Hex, FGo, FHex>(
    ordinal: usize,
    opts: &CheckOptions,
    rules: &CpuRules<Go, Hex, FGo, FHex>,
    progress: &mut dyn FnMut(&CheckLine),
) -> CheckReport
where
    Go: KernelPosition + Rollout,
    Hex: KernelPosition + Rollout,
    FGo: Fn(usize, f32, GoPolicy) -> Option<Go>,
    FHex: Fn(usize) -> Option<Hex>,
{
    let mut report = CheckReport::default();
    let gpu = match Gpu::new(ordinal) {
        Ok(g) => g,
        Err(e) => {
            push(&mut report, progress, "open GPU".into(), Err(e));
            return report;
        }
    };
    // Compiled here rather than inside the first timed replay of a size.
    let go = opts.go_sizes.iter().map(|&size| (Family::Go, size));
    let hex = opts.hex_sizes.iter().map(|&size| (Family::Havannah, size));
    for (source, size) in go.chain(hex) {
        let started = std::time::Instant::now();
        let result = match gpu.prepare(source, size) {
            // Reported by the checks of that size.
            Err(CudaError::UnsupportedSize { .. }) => continue,
            result => result.map(|()| {
                let secs = started.elapsed().as_secs_f64();
                (true, format!("compiled and loaded in {secs:.1} s"))
            }),
        };
        push(
            &mut report,
            progress,
            format!("{}{size} kernels", source.stem()),
            result,
        );
    }
    for &size in opts.go_sizes.iter().filter(|_| opts.sequences > 0) {
        let max_moves = if size >= 19 { 400 } else { 2 * size * size };
        // The shared-memory flavour replays with the same kernel as (b).
        for kernel in [
            GoKernel::PlayoutPerThread,
            GoKernel::PointPerThread,
            GoKernel::Bitboard,
            GoKernel::Rows,
        ] {
            if !kernel.supports(size) {
                continue;
            }
            let result = match (rules.go)(size, opts.komi, GoPolicy::Random) {
                Some(start) => {
                    replay_check(&gpu, &start, opts, max_moves, kernel, HexVariant::Compress)
                }
                None => Err(unsupported("Go", size)),
            };
            push(
                &mut report,
                progress,
                format!("go{size} {} replay", kernel.name()),
                result,
            );
        }
    }
    for &side in opts.hex_sizes.iter().filter(|_| opts.sequences > 0) {
        // One line per replay kernel (havannah.cu's board, the packed one).
        for variant in HexVariant::REPLAYED {
            let result = match (rules.havannah)(side) {
                Some(start) => replay_check(
                    &gpu,
                    &start,
                    opts,
                    hex::cell_count(side),
                    GoKernel::PlayoutPerThread,
                    variant,
                ),
                None => Err(unsupported("Havannah", side)),
            };
            let board = match variant.replay_stem() {
                "replay" => String::new(),
                _ => format!(" {}", variant.name()),
            };
            push(
                &mut report,
                progress,
                format!("havannah{side}{board} replay"),
                result,
            );
        }
    }
    let mut sim_go = match CudaSimulator::<Go>::with_gpu(gpu) {
        Ok(sim) => sim,
        Err(e) => {
            push(&mut report, progress, "open launch slots".into(), Err(e));
            return report;
        }
    };
    for &size in opts.go_sizes.iter().filter(|_| opts.positions > 0) {
        // Each kernel against the CPU policy it plays, one reference each.
        for policy in GO_POLICIES {
            let kernels: Vec<GoKernel> = GoKernel::ALL
                .into_iter()
                .filter(|k| k.supports(size) && k.policy() == policy)
                .collect();
            if kernels.is_empty() {
                continue;
            }
            let Some(start) = (rules.go)(size, opts.komi, policy) else {
                push(
                    &mut report,
                    progress,
                    format!("go{size} win rates"),
                    Err(unsupported("Go", size)),
                );
                continue;
            };
            let positions = fixed_positions(&start, opts.positions, size * size, opts.seed);
            let clock = std::time::Instant::now();
            let cpu = cached_cpu_stats(
                &go_reference_name(rules.name, size, policy),
                &positions,
                opts.cpu_playouts_for(size * size),
                opts,
                false,
            );
            progress(&CheckLine {
                name: format!("go{size} cpu reference ({})", policy.name()),
                passed: true,
                detail: format!("{:.1} s", clock.elapsed().as_secs_f64()),
            });
            for kernel in kernels {
                sim_go.set_go_kernel(kernel);
                push(
                    &mut report,
                    progress,
                    format!("go{size} {} {} win rates", kernel.name(), policy.name()),
                    stats_check(&sim_go, &positions, &cpu, opts),
                );
                if matches!(kernel, GoKernel::Bitboard | GoKernel::BitboardPatterns) {
                    push(
                        &mut report,
                        progress,
                        format!("go{size} {} block sizes", kernel.name()),
                        blocks_check(&mut sim_go, &positions, opts.seed),
                    );
                }
            }
        }
    }
    let mut sim_hex = match CudaSimulator::<Hex>::with_gpu(sim_go.into_gpu()) {
        Ok(sim) => sim,
        Err(e) => {
            push(&mut report, progress, "open launch slots".into(), Err(e));
            return report;
        }
    };
    for &side in opts.hex_sizes.iter().filter(|_| opts.positions > 0) {
        let Some(start) = (rules.havannah)(side) else {
            push(
                &mut report,
                progress,
                format!("havannah{side} win rates"),
                Err(unsupported("Havannah", side)),
            );
            continue;
        };
        let positions =
            fixed_positions(&start, opts.positions, hex::cell_count(side) / 2, opts.seed);
        // The tactical kernel on havannah.cu's board plays the engine's
        // policy move for move: its counters must equal the CPU's.
        sim_hex.set_hex_variant(HexVariant::CompressTactical);
        push(
            &mut report,
            progress,
            format!("havannah{side} tactical streams"),
            streams_check(
                &sim_hex,
                &positions,
                STREAM_PLAYOUTS,
                opts.seed,
                opts.threads,
            ),
        );
        // Each variant against the CPU policy it plays, one reference each.
        for policy in HexPolicy::ALL {
            let clock = std::time::Instant::now();
            let cpu = cached_cpu_stats(
                &hex_reference_name(rules.name, side, policy),
                &positions,
                opts.cpu_playouts_for(hex::cell_count(side)),
                opts,
                policy == HexPolicy::Tactical,
            );
            progress(&CheckLine {
                name: format!("havannah{side} cpu reference ({})", policy.name()),
                passed: true,
                detail: format!("{:.1} s", clock.elapsed().as_secs_f64()),
            });
            for variant in HexVariant::ALL.into_iter().filter(|v| v.policy() == policy) {
                sim_hex.set_hex_variant(variant);
                push(
                    &mut report,
                    progress,
                    format!(
                        "havannah{side} {} {} win rates",
                        variant.name(),
                        policy.name()
                    ),
                    stats_check(&sim_hex, &positions, &cpu, opts),
                );
            }
        }
    }
    report
}

/// Computes the reference side of the statistical check into
/// `opts.cpu_cache` without a GPU, for any CPU rules (run it on a machine
/// with a good CPU, then carry the file to the GPU machine).
pub fn fill_cpu_cache_for<Go, Hex, FGo, FHex>(
    opts: &CheckOptions,
    rules: &CpuRules<Go, Hex, FGo, FHex>,
) where
    Go: KernelPosition + Rollout,
    Hex: KernelPosition + Rollout,
    FGo: Fn(usize, f32, GoPolicy) -> Option<Go>,
    FHex: Fn(usize) -> Option<Hex>,
{
    for &size in &opts.go_sizes {
        for policy in GO_POLICIES {
            if let Some(start) = (rules.go)(size, opts.komi, policy) {
                let positions = fixed_positions(&start, opts.positions, size * size, opts.seed);
                cached_cpu_stats(
                    &go_reference_name(rules.name, size, policy),
                    &positions,
                    opts.cpu_playouts_for(size * size),
                    opts,
                    false,
                );
            }
        }
    }
    for &side in &opts.hex_sizes {
        if let Some(start) = (rules.havannah)(side) {
            let positions =
                fixed_positions(&start, opts.positions, hex::cell_count(side) / 2, opts.seed);
            for policy in HexPolicy::ALL {
                cached_cpu_stats(
                    &hex_reference_name(rules.name, side, policy),
                    &positions,
                    opts.cpu_playouts_for(hex::cell_count(side)),
                    opts,
                    policy == HexPolicy::Tactical,
                );
            }
        }
    }
}
