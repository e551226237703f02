//! Game rules, and nothing else: no search, no protocol, no policy.
//!
//! Every game implements [`Game`], the interface the generic UCT search in
//! `crate::search` drives. Playout policies live in `crate::sim`, which reads
//! a game's public fast-path API (`play_unchecked` and friends).

pub mod amazons;
pub mod connect4;
pub mod go;
pub mod havannah;
pub mod hex;
pub mod rng;
pub mod sgf_reader;

use std::fmt;

/// One of the two players. In Go Black moves first; in Havannah White does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Dense index: Black 0, White 1 (for tables such as AMAF counts).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

impl Outcome {
    /// Result from `color`'s point of view: 1 win, 0.5 draw, 0 loss.
    #[inline]
    pub fn value_for(self, color: Color) -> f32 {
        match self {
            Outcome::Win(c) if c == color => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// What playouts from one position said about each place: per board cell
/// ([`Game::move_cell`]), the sum over the playouts of +1 when Black
/// ended up owning the place and -1 when White did. The search gathers it;
/// a rule that needs a referee's judgement (which Go stones are dead) reads
/// it. Missing entries read as 0: nothing known.
#[derive(Clone, Copy, Debug, Default)]
pub struct OwnershipSums<'a>(pub &'a [f64]);

impl OwnershipSums<'_> {
    /// The sum at cell `i` (Black's point of view).
    #[inline]
    pub fn at(&self, i: usize) -> f64 {
        self.0.get(i).copied().unwrap_or(0.0)
    }
}

/// Why a move was rejected. Carries the rejected move (shakmaty-style) so
/// callers can report it without keeping their own copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv:?}: {reason}")]
pub struct IllegalMove<M: fmt::Debug> {
    pub mv: M,
    pub reason: IllegalReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    #[error("point is occupied")]
    Occupied,
    #[error("suicide")]
    Suicide,
    #[error("ko")]
    Ko,
    #[error("positional superko")]
    Superko,
    #[error("off the board")]
    OffBoard,
    #[error("game is over")]
    GameOver,
    #[error("not allowed now")]
    NotAllowed,
}

/// The rules of a two-player, perfect-information game, as the search sees
/// them. Positions are cloned once per search iteration, so keep them flat
/// (fixed arrays, few heap allocations).
pub trait Game: Clone + Send + Sync + 'static {
    /// A move. `Copy` and small: the tree stores one per node.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;

    /// The player whose turn it is.
    fn to_move(&self) -> Color;

    /// All moves the tree should consider for the side to move (Go: legal
    /// moves including superko, minus own true eyes, plus pass). Cleared
    /// and refilled.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Full rules check (Go: including positional superko).
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Plays `mv` for the side to move, or rejects it and changes nothing.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove<Self::Move>>;

    /// Plays `mv` without the expensive checks (superko). The caller
    /// guarantees the move is at least pseudo-legal. The playout hot path.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// `Some` once the game is over (Go: two consecutive passes, scored by
    /// area with komi; Havannah: a win or a full board).
    fn outcome(&self) -> Option<Outcome>;

    /// [`outcome`](Self::outcome) as a referee who judges the final
    /// position would call it, with `owners` telling live stones from dead
    /// ones. Go: the area count after taking off every string whose points
    /// the opponent owned in more of the playouts than its own colour did
    /// (what GNU Go, GoGui and Sabaki do by hand or by analysis); the plain
    /// outcome counts every stone alive, which rewards a lost stone left in
    /// the opponent's area. Games without dead stones keep the default.
    /// The search passes real `owners` only for a finished game
    /// (`outcome` is `Some`): a game judged before its end must not need
    /// them.
    fn judged_outcome(&self, owners: OwnershipSums<'_>) -> Option<Outcome> {
        let _ = owners;
        self.outcome()
    }

    /// The result the search may treat as a proven fact (MCTS-solver,
    /// `search::uct`): a finished game whose result no judgement changes.
    /// The default, none, keeps the solver off for the game (Go: a two-pass
    /// ending is scored by ownership that the search's own playouts
    /// estimate, so it is no proof). Only wins prove anything; draws do not.
    fn proven_outcome(&self) -> Option<Outcome> {
        None
    }

    /// The UCB exploration coefficient the search should use on this game
    /// (`search::SearchConfig::exploration`) when none is set; `None`
    /// keeps the search's default.
    fn exploration(&self) -> Option<f64> {
        None
    }

    /// Zobrist hash of the position, including the side to move.
    fn hash(&self) -> u64;

    /// Dense index of a move in `0..move_space()`, for the statistics kept
    /// per move: AMAF tables and first plays in playouts. Go: points then
    /// pass. A move is not a place: an Amazons move is (from, to, arrow),
    /// a Connect Four move a column; per-place results use
    /// [`move_cell`](Self::move_cell).
    fn move_index(&self, mv: Self::Move) -> usize;

    /// Size of the dense move-index space.
    fn move_space(&self) -> usize;

    /// The board cell, in `0..cell_space()`, where `mv` puts a stone;
    /// `None` for a move that places nothing (Go's pass, Havannah's swap).
    /// Per-cell results — ownership, heat maps — are indexed by cell.
    fn move_cell(&self, mv: Self::Move) -> Option<usize>;

    /// Number of board cells: the length of an ownership table.
    fn cell_space(&self) -> usize;

    /// The "do nothing" move if the game has one (Go: pass).
    fn pass_move(&self) -> Option<Self::Move> {
        None
    }
}
