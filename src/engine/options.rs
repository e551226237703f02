//! Engine-wide settings, filled from the command line and passed down. No
//! globals: every session gets its own copy.

use crate::search::SearchConfig;
use crate::sim::cuda::HexPolicy;
use crate::sim::go_rollout::GoPolicy;
use std::time::Duration;

/// Where leaf playouts run.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Backend {
    #[default]
    Cpu,
    /// CUDA kernels on these GPUs, Go playouts with `go_policy`,
    /// Havannah playouts with `hex_policy`.
    Cuda {
        gpus: Vec<usize>,
        go_policy: GoPolicy,
        hex_policy: HexPolicy,
        /// Launch slots per GPU (batches in flight on each).
        slots: usize,
    },
}

#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Where playouts run.
    pub backend: Backend,
    /// Search threads, memory cap, seed, resign threshold.
    pub search: SearchConfig,
    /// Fixed playouts per move (reproducible matches and tests).
    pub playouts: Option<u64>,
    /// Fixed thinking time per move, unless the controller's clock says less.
    pub time_per_move: Option<Duration>,
    /// Playouts used to estimate dead stones for final_score and
    /// final_status_list.
    pub scoring_playouts: u32,
    /// Draw the search live on stderr as `gogui-gfx:` blocks.
    pub live_gfx: bool,
    /// Keep searching on the opponent's time after a move.
    pub ponder: bool,
    /// A file of exact values the game's engine answers from when the
    /// board matches (Connect Four: `warpstone build --out`).
    pub database: Option<std::path::PathBuf>,
    /// An opening book the game's engine plays from (Connect Four:
    /// `warpstone book`).
    pub book: Option<std::path::PathBuf>,
    /// No opening book at all, not even one the game ships (Connect
    /// Four's 7x6 book).
    pub no_book: bool,
}

/// Thinking time per move when neither `--time-per-move`, `--playouts` nor
/// the controller's time settings say otherwise. Short enough for a GUI to
/// feel responsive, long enough to play reasonably.
pub const DEFAULT_TIME_PER_MOVE: Duration = Duration::from_secs(5);

/// Playouts for the dead-stone estimate behind final_score: enough that a
/// stone owned by the opponent in most of them is reliably dead.
pub const DEFAULT_SCORING_PLAYOUTS: u32 = 2_000;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            backend: Backend::Cpu,
            search: SearchConfig::default(),
            playouts: None,
            time_per_move: None,
            scoring_playouts: DEFAULT_SCORING_PLAYOUTS,
            live_gfx: false,
            ponder: false,
            database: None,
            book: None,
            no_book: false,
        }
    }
}
