//! Search settings and every tuning constant of the search, in one place.

use std::time::Duration;

// ---------------------------------------------------------------------------
// Tuning constants. Everything the search (and its time control) can be tuned
// with lives in this block; `SearchConfig::default()` and `time.rs` read them.
// Units: "visits" and "playouts" are the same thing here, because a leaf
// simulated with K playouts adds K visits to every node on its path.
// ---------------------------------------------------------------------------

/// A leaf is expanded once it has this many visits (real plus in flight).
/// Michi uses 8 with cheap nodes; 2 keeps the tree shallow-but-quick for
/// small boards and still avoids expanding one-off leaves.
pub const EXPAND_AFTER_VISITS: u64 = 2;

/// A move the solver found winning at one node (`super::killers`) gets
/// this many visits first at every other node of the same depth, before
/// the urgencies choose: enough to expand the reply's subtree a few levels
/// and let the solver prove it there too, little against a whole move.
/// 0: killers off.
pub const KILLER_VISITS: u64 = 64;

/// RAVE equivalence: the number of visits at which a node's own statistics
/// and its AMAF statistics weigh the same (michi's RAVE_EQUIV; Gelly & Silver
/// b² = 1 / RAVE_EQUIV). β = n_amaf / (n_amaf + n + n·n_amaf / RAVE_EQUIV).
pub const RAVE_EQUIV: f64 = 3500.0;
/// The RAVE equivalences a user may set (`--rave-equiv`, the GoGui
/// parameter); 0 turns RAVE off.
pub const RAVE_EQUIV_RANGE: std::ops::RangeInclusive<f64> = 0.0..=1e12;

/// UCB exploration coefficient c in c·sqrt(ln N / (n + 1)). Michi uses 0 and
/// relies on RAVE and priors; a small term keeps the search from freezing a
/// move out on one unlucky loss when the game gives no priors. A game may
/// ask for another (`Game::exploration`): Go on 13 lines and more uses 0,
/// because with this term the root of a 13x13 search stayed nearly flat
/// over its ~170 moves and lost 26 of 30 games to GNU Go where 0 won 25
/// (`docs/go-big-boards.md`); Havannah uses 0.1, which won 83 of 100
/// against Castro where this term won 59 (`docs/havannah-strength.md`).
pub const EXPLORATION: f64 = 0.2;
/// The explorations a user may set (`--exploration`).
pub const EXPLORATION_RANGE: std::ops::RangeInclusive<f64> = 0.0..=10.0;

/// First-play urgency: the value of a child with no visits, no AMAF data and
/// no prior. 1.0 means "try every move once before revisiting any".
pub const FIRST_PLAY_URGENCY: f64 = 1.0;

/// Even prior added to every child at expansion: this many virtual visits at
/// 50% (michi's PRIOR_EVEN, which is 10 there). The simulator's heuristic
/// priors come on top.
pub const PRIOR_EVEN_VISITS: f32 = 2.0;

/// Resign only after the root has seen this many visits, so that one early
/// unlucky batch cannot resign a won game.
pub const RESIGN_MIN_VISITS: u64 = 2_000;

/// Default node-memory cap: 1 GiB of tree nodes.
pub const MAX_MEMORY_BYTES: usize = 1 << 30;

/// Early stop ("best move cannot be overtaken") is checked after this many
/// iterations, counted per run, so it stays deterministic with one thread.
pub const EARLY_STOP_CHECK_EVERY: u64 = 64;

/// When several workers share a tree, each keeps the AMAF samples of the
/// children of the nodes less deep than this (1: the root alone) for a
/// while before adding them (`super::amaf_share`): on Havannah's side 8
/// every backup wrote some 55 of the root's ~170 children (a cache line
/// each) and as many at the root child it went through, every one of
/// which the other workers' next descents then read from another core.
pub const SHARED_AMAF_DEPTH: usize = 2;

/// A worker's kept AMAF samples at a node are added once they are this
/// share of the node's own visits (so a descent misses at most that share
/// of the samples there)...
pub const SHARED_AMAF_LAG_DIVISOR: u64 = 64;

/// ...and all of them, whatever the visits, after this many of the
/// worker's leaves.
pub const SHARED_AMAF_MAX_LEAVES: u32 = 64;

/// When several workers share a tree, each adds its share of the root
/// totals after this many of its leaves (one worker alone adds at every
/// leaf). The totals are sums read as ratios (ownership over playouts),
/// so a share held back a while changes nothing but how fresh they are.
pub const SHARED_TOTALS_EVERY: u64 = 64;

/// Early stop with a time limit needs a playout rate; it is only trusted
/// after this much of the run has passed.
pub const EARLY_STOP_MIN_ELAPSED: Duration = Duration::from_millis(100);

/// With a time limit, one batch (select, simulate, back up) should take at
/// most this share of the run's time: a GPU batch cannot be called back,
/// and a round of batches must come back well inside the budget (19x19
/// pattern playouts take most of a second from launch to result when the
/// GPU is full). After each batch a worker sizes the next from the leaves
/// a second the run has backed up, so that a round of every thread's
/// batches takes this share (within half and twice its last batch, at
/// most `leaves_per_batch`; see `workers::next_batch_leaves`). Runs with
/// only a playout limit keep full batches, so they stay reproducible.
pub const BATCH_TIME_FRACTION: f64 = 0.25;

/// A run until stopped (analysis, pondering) sizes its batches as if it
/// had this long: the next command waits for the batches in flight, so a
/// batch should come back within a tenth of a second or so.
pub const UNLIMITED_RUN_BATCH_BUDGET: Duration = Duration::from_millis(400);

/// The first sized run of a search (and the first after `clear`) starts
/// at `leaves_per_batch` divided by this and grows from there; later runs
/// start where the last one ended.
pub const FIRST_BATCH_DIVISOR: usize = 8;

/// By default a leaf in flight counts as lost once per playout it will
/// bring back, but never more than this many times. A GPU batch selects
/// 1,024 leaves of 32 playouts under one lock; at 32 losses a leaf, a node
/// with ten leaves in flight looks 320 playouts worse meanwhile, and the
/// batch spreads far wider than a sequential search would. On one H200 at
/// 1 s a move, 4 instead of 32 found the move a sequential search finds
/// in the line of four of eight losses, backed up as many playouts a
/// second, and scored 93.9% against GNU Go where 32 scored 87.2% on the
/// same 98 seeds (`virtual_loss_per_leaf`; `docs/search-tuning.md`). On the CPU a
/// leaf has one playout, so this changes nothing there.
pub const VIRTUAL_LOSS_CAP: u32 = 4;
/// The largest `--virtual-loss`: with at most 1,024 threads of at most
/// 65,535 leaves in flight each, the root's in-flight count
/// (`Node::virtual_loss`, a u32) cannot overflow.
pub const MAX_VIRTUAL_LOSS: u32 = 64;

/// z of the normal approximation used for the reported lower confidence
/// bound of a winrate (95% one-sided is 1.645).
pub const LCB_Z: f64 = 1.645;

/// Progressive widening (Coulom, "Computing Elo Ratings of Move Patterns
/// in the Game of Go"; Chaslot et al., "Progressive Strategies for
/// Monte-Carlo Tree Search"), for games whose priors rank the moves
/// ([`SearchConfig::widening`], off by default and for Go, Havannah, Hex
/// and Connect Four): a node with `n` visits (real plus in flight) offers
/// the search its best `WIDEN_BASE + WIDEN_FACTOR·n^WIDEN_EXPONENT` moves
/// by prior; the rest wait as (move, prior) pairs and get nodes only when
/// the width reaches them. An Amazons expansion at the start made 2,176
/// nodes, every descent through the node weighed all of them, and every
/// backup walked them for AMAF; with these constants a node offers 8 moves
/// at expansion, 16 at 100 visits, 40 at 10,000 and 72 at 100,000.
///
/// Why n^0.3 and not √n (which offered 208 at 10,000 and 640 at 100,000):
/// the root is weighed at every descent, so its width was most of a
/// search's time outside the evaluations, and the narrower tree plays no
/// worse for a playout (docs/amazons.md, "Widening").
pub const WIDEN_BASE: f64 = 8.0;
/// See [`WIDEN_BASE`].
pub const WIDEN_FACTOR: f64 = 2.0;
/// See [`WIDEN_BASE`].
pub const WIDEN_EXPONENT: f64 = 0.3;
/// A node below the root lists the priors of only its best this many
/// waiting moves (`search::waiting`): when its width passes them (about
/// 16,000 visits with a width of 8 + 2·√n, about 10^7 with the default),
/// its moves are evaluated again and the next best listed. With all 1,700
/// of an Amazons opening expansion listed, the waiting moves were 95% of
/// the tree's bytes and filled its cap in seconds on the GPU.
pub const WAITING_LISTED: usize = 256;

// Time control (see `time.rs`).

/// Kept back from every budget for network and GUI lag...
pub const LAG_MARGIN: Duration = Duration::from_millis(1000);
/// ...but never more than this fraction of the time that remains. With
/// 1 s periods (the usual engine-match setting) that leaves 0.8 s to
/// think; the engine answers within a few milliseconds of its budget (the
/// GPU batches in flight finish in about a millisecond), and a fifth of
/// the period covers the controller's own lag. Half (0.5, the first
/// setting) left a 1 s-per-move engine thinking only 0.5 s.
pub const LAG_MARGIN_MAX_FRACTION: f64 = 0.2;
/// Expected moves left = max(board_points / 3 − move_number / 2, this).
pub const MIN_MOVES_LEFT: u32 = 20;
/// Share of a Japanese byo-yomi period spent on one move.
pub const BYO_YOMI_FRACTION: f64 = 0.8;
/// Thinking time per move when no time settings were given.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

// ---------------------------------------------------------------------------

/// How the search runs. Built once by the engine and passed in; the defaults
/// come from the tuning block above.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Search threads (tree parallelism with virtual loss). 0 is taken as 1.
    pub threads: usize,
    /// Independent trees searched side by side and merged at the root
    /// (root parallelism); threads are dealt to them round-robin. Taken as
    /// at least 1 and at most `threads`.
    pub trees: usize,
    /// Cap on tree-node memory; expansion stops when it would be exceeded.
    pub max_memory_bytes: usize,
    /// Base seed; each simulate call uses `seed + simulation counter`.
    pub seed: u64,
    /// Noise on each new move's prior win rate, up to this share of its
    /// virtual visits either way, drawn from `seed`, the node and the move.
    /// With a simulator that draws nothing (the Amazons' evaluation: a
    /// leaf's value is its prior) the search otherwise plays the same game
    /// whatever the seed, and a match replays a few lines. 0 (the default)
    /// changes nothing.
    pub prior_noise: f32,
    /// Playouts per leaf simulation (1 on the CPU; a GPU wants many).
    pub playouts_per_leaf: u32,
    /// Leaves selected per tree lock and simulated in one call.
    pub leaves_per_batch: usize,
    /// Virtual losses a leaf in flight adds to every node on its path
    /// (`--virtual-loss`, at most [`MAX_VIRTUAL_LOSS`]); `None`: its
    /// playouts, at most [`VIRTUAL_LOSS_CAP`]. See
    /// [`SearchConfig::virtual_loss_per_leaf`].
    pub virtual_loss: Option<u32>,
    /// Resign when the root winrate of the side to move falls below this.
    pub resign_threshold: Option<f32>,
    /// Minimum root visits before resigning.
    pub resign_min_visits: u64,
    /// See [`EXPAND_AFTER_VISITS`].
    pub expand_after_visits: u64,
    /// See [`KILLER_VISITS`].
    pub killer_visits: u64,
    /// See [`RAVE_EQUIV`]; 0 disables RAVE.
    pub rave_equiv: f64,
    /// See [`EXPLORATION`]. `None`: the root position's game says
    /// (`Game::exploration`), else [`EXPLORATION`]; a run resolves it.
    pub exploration: Option<f64>,
    /// See [`FIRST_PLAY_URGENCY`].
    pub first_play_urgency: f64,
    /// See [`PRIOR_EVEN_VISITS`].
    pub prior_even_visits: f32,
    /// Stop early once the most visited move cannot be overtaken within the
    /// playout or time limit.
    pub early_stop: bool,
    /// Score a game that the tree ends with two passes as a referee would,
    /// with the strings the root's playouts lose taken off
    /// ([`Game::judged_outcome`](crate::game::Game::judged_outcome)); when
    /// false, by the plain outcome (Go: Tromp-Taylor, every stone alive),
    /// for a phase where the board is counted as it stands (KGS's cleanup).
    pub judge_two_passes: bool,
    /// Progressive widening ([`WIDEN_BASE`]); `None`: every move gets its
    /// node at expansion.
    pub widening: Option<Widening>,
}

/// How many of a node's moves the search may try ([`WIDEN_BASE`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    pub base: f64,
    pub factor: f64,
    pub exponent: f64,
}

impl Default for Widening {
    fn default() -> Self {
        Widening {
            base: WIDEN_BASE,
            factor: WIDEN_FACTOR,
            exponent: WIDEN_EXPONENT,
        }
    }
}

impl Widening {
    /// Moves offered at `visits` visits: at least one.
    pub fn width(&self, visits: u64) -> usize {
        let w = self.base + self.factor * (visits as f64).powf(self.exponent);
        // `as` saturates, so a huge width is simply every move.
        (w.ceil() as usize).max(1)
    }
}

impl SearchConfig {
    /// How many trees the search grows: `trees`, but at least one and never
    /// more than there are threads to work on them.
    pub fn tree_count(&self) -> usize {
        self.trees.clamp(1, self.threads.max(1))
    }

    /// The virtual loss one descent adds to its path: `virtual_loss`, else
    /// the leaf's playouts (each counted as lost until it comes back), at
    /// most [`VIRTUAL_LOSS_CAP`].
    ///
    /// Why the cap: after E5 C4 C5 B5 D4 C3 (9x9, komi 7), the position of
    /// four of the GPU engine's eight losses against GNU Go in a 100-game
    /// match at the defaults then, one H200 at 1 s a move chose B6 with 32 losses a leaf, and
    /// C6 with 1, 4 or 8, as a sequential CPU search of 160k playouts does
    /// (GNU Go's second choice after E2). A CPU search with the GPU's
    /// batches of 1,024 leaves of 32 playouts behaved the same, and chose
    /// C6 with batches of 16 leaves as well.
    pub fn virtual_loss_per_leaf(&self) -> u32 {
        self.virtual_loss
            .unwrap_or(self.playouts_per_leaf.min(VIRTUAL_LOSS_CAP))
            .max(1)
    }

    /// The UCB exploration coefficient in use: the one set, else
    /// [`EXPLORATION`] (a run sets the game's before it starts).
    pub fn exploration(&self) -> f64 {
        self.exploration.unwrap_or(EXPLORATION)
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            trees: 1,
            max_memory_bytes: MAX_MEMORY_BYTES,
            seed: 0,
            prior_noise: 0.0,
            playouts_per_leaf: 1,
            leaves_per_batch: 1,
            virtual_loss: None,
            resign_threshold: Some(0.1),
            resign_min_visits: RESIGN_MIN_VISITS,
            expand_after_visits: EXPAND_AFTER_VISITS,
            killer_visits: KILLER_VISITS,
            rave_equiv: RAVE_EQUIV,
            exploration: None,
            first_play_urgency: FIRST_PLAY_URGENCY,
            prior_even_visits: PRIOR_EVEN_VISITS,
            early_stop: true,
            judge_two_passes: true,
            widening: None,
        }
    }
}

/// When a run ends, besides the external stop flag: whichever limit comes
/// first. Both `None` means "until stopped" (analysis, pondering).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Playouts in this run (a leaf counts `playouts_per_leaf`; rounded up
    /// to whole leaves).
    pub playouts: Option<u64>,
    /// Wall-clock time for this run.
    pub time: Option<Duration>,
    /// `time` is a fixed allowance for this one move (`--time-per-move`, a
    /// genmove's own seconds), not a share of a clock: stopping early
    /// saves nothing for later moves, so the early stop only counts the
    /// playout limit and the search thinks on to the deadline. The move it
    /// settled stays most visited, and the extra playouts grow the subtree
    /// that tree reuse keeps for the next move.
    pub whole_time: bool,
}
