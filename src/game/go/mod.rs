//! Go rules: captures, suicide (illegal), simple ko and positional superko,
//! area (Tromp-Taylor) scoring with komi, handicap placement, SGF.
//!
//! - [`board`]: the fast board every playout copies (chains, liberties,
//!   empty list, Zobrist hash). No history.
//! - [`Position`]: a board plus what the rules need from the past (superko
//!   history, passes, side to move); implements [`crate::game::Game`] and
//!   the GTP-facing API.
//! - [`sgf`]: reading and writing game records.

pub mod board;
mod display;
mod game;
mod handicap;
#[cfg(test)]
mod invariants;
mod liberties;
mod position;
mod score;
pub mod sgf;
mod zobrist;

// Test positions are shared with the search's and the engine's tests.
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
pub(crate) mod tests_judged;
#[cfg(test)]
mod tests_props;

/// Boards of this many lines and more are big boards: they get the
/// big-board priors (`sim::go_rollout::priors`) and search without a UCB
/// term ([`crate::game::Game::exploration`]).
pub const BIG_BOARD_LINES: usize = 13;

pub use display::column_letter;
pub use handicap::fixed_handicap;
pub use position::Position;

/// A board cell index (padded layout, see [`board`]). Only meaningful for
/// the board size it came from; get one from [`Position::point`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Point),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoardSizeError {
    #[error("board size {0} is not supported (must be 2 to 25)")]
    OutOfRange(usize),
}
