//! Havannah rules.
//!
//! A hexagonal board of side 3..=10; White moves first; a player wins with a
//! **ring** (a loop of own stones around at least one cell, whatever that
//! cell holds), a **bridge** (a chain joining two corners) or a **fork** (a
//! chain joining three edges; corners belong to no edge). A full board
//! without a win is a draw.
//!
//! **Swap rule** (on by default): as its first move the second player
//! (Black) may answer `swap`. The first stone stays where it is and becomes
//! Black's, and White moves again, so White still plays every odd move.
//! This is what Castro (`doswap`: the stone becomes player 2's, player 1 to
//! play), OpenSpiel (the swap is the action of the first move's own cell,
//! recoloured, first player to move) and LittleGolem records (`W[..];
//! B[swap];W[..]`) all do.
//!
//! **Coordinates** are Castro's: the letter is the row (`a` at the top), the
//! number the diagonal; row `y` (0-based) of side `s` runs from diagonal
//! `max(1, y-s+2)` to `min(s+y, 2s-1)`. Side 8: corners a1, a8, h15, o15,
//! o8, h1; centre h8. [`Cell`] is a dense index, row by row.
//!
//! **Win detection** keeps a disjoint-set forest over the stones (union by
//! rank, iterative two-pass path compression: the shape of the GPU kernel of
//! the design paper), each root carrying a 6-bit corner mask and a 6-bit
//! edge mask, so bridges and forks cost one look-up per move. Rings are
//! found exactly by two local tests, justified in `position.rs`, and checked
//! against the flood-fill definition in `reference.rs` (tests only).
//!
//! Files: `geometry` (numbering, neighbours, tables), `position` (state,
//! moves, wins, the [`Game`](crate::game::Game) impl), `display`
//! (coordinates text, showboard), [`hgf`] (LittleGolem records),
//! `reference` (slow definitions, compiled for tests only).

mod display;
mod geometry;
pub mod hgf;
mod position;
#[cfg(test)]
pub mod reference;

#[cfg(test)]
mod tests;

pub use position::{DoubleThreat, Position, HAVANNAH_EXPLORATION};

/// Cells on the largest board (side 10): a size for fixed per-cell arrays.
pub const MAX_CELLS: usize = geometry::MAX_CELLS;

/// A board's geometry as flat tables, for code that cannot use
/// [`Position`] (the GPU kernels keep these in constant memory). Cells in
/// [`Cell`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatTables {
    /// Six a cell, in the cyclic direction order `(+1,0) (+1,+1) (0,+1)
    /// (-1,0) (-1,-1) (0,-1)` of `(x, y)`; -1 off the board.
    pub neighbours: Vec<i16>,
    /// Each cell's corner bit (0..6) or edge bit (6..12), 0 inside; the
    /// corners and edges run round the board from a1.
    pub reach: Vec<u16>,
}

/// The flat tables of a board of `side`, or `None` for a side the game
/// does not play (`Position::MIN_SIZE..=Position::MAX_SIZE`).
pub fn flat_tables(side: usize) -> Option<FlatTables> {
    if !(Position::MIN_SIZE..=Position::MAX_SIZE).contains(&side) {
        return None;
    }
    let g = geometry::geometry(side);
    let cells = 0..g.num_cells;
    Some(FlatTables {
        neighbours: cells
            .clone()
            .flat_map(|c| g.neighbours[c])
            .map(|n| match n {
                geometry::OFF_BOARD => -1,
                n => n as i16,
            })
            .collect(),
        reach: cells.map(|c| g.reach[c]).collect(),
    })
}

/// A cell of the board, as a dense index `0..num_cells`, row by row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

/// A Havannah move: a stone on a cell, or the swap answer to the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Cell),
    Swap,
}

/// Which winning structure ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinKind {
    Ring,
    Bridge,
    Fork,
}

/// A board side length outside `Position::MIN_SIZE..=Position::MAX_SIZE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardSizeError {
    #[error("Havannah board side {0} is out of range 3..=10")]
    OutOfRange(usize),
}
