//! How a position becomes kernel input.
//!
//! The kernels read plain arrays: per leaf the board's colours in the
//! kernel's own point order (Go: `row * size + col`; Havannah: the compact
//! cell order of [`super::hex`]) and a small header (side to move, ko
//! point, consecutive passes, komi, Go's last move). A game position implements
//! [`KernelPosition`] to say how it maps onto that.

use super::compile::Source;
use crate::game::{Color, Game};

/// Kernel colour codes.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

pub fn color_code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// A Go leaf as the kernel reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct GoLeafInput {
    pub size: usize,
    /// `size * size` colour codes, row-major.
    pub colors: Vec<u8>,
    pub to_move: Color,
    /// The simple-ko point (row-major index), if any.
    pub ko: Option<usize>,
    /// Passes just before this position (a second one ends the game).
    pub consecutive_passes: u8,
    pub komi: f32,
    /// The point (row-major index) of the last move when it was a play:
    /// the Patterns policy answers around it.
    pub last_move: Option<usize>,
}

/// A Havannah leaf as the kernel reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct HexLeafInput {
    pub side: usize,
    /// One colour code per cell in [`super::hex::HexGeometry`] order.
    pub colors: Vec<u8>,
    pub to_move: Color,
}

#[derive(Clone, Debug, PartialEq)]
pub enum KernelInput {
    Go(GoLeafInput),
    Havannah(HexLeafInput),
}

impl KernelInput {
    /// The kernel source that simulates this leaf, and its board size
    /// (Havannah: the side).
    pub fn source_and_size(&self) -> (Source, usize) {
        match self {
            KernelInput::Go(g) => (Source::Go, g.size),
            KernelInput::Havannah(h) => (Source::Havannah, h.side),
        }
    }
}

/// A game position the CUDA kernels can simulate from and replay.
pub trait KernelPosition: Game {
    fn kernel_input(&self) -> KernelInput;

    /// The game's move index (for AMAF tables) of the move onto kernel
    /// point/cell `k`.
    fn move_index_of_point(&self, k: usize) -> usize;

    /// The game's cell ([`Game::move_cell`], for ownership tables) of
    /// kernel point/cell `k`.
    fn cell_of_point(&self, k: usize) -> usize;

    /// The kernel point/cell a move lands on; `None` for pass.
    fn point_of_move(&self, mv: Self::Move) -> Option<usize>;

    /// Stones captured so far: `[of Black, of White]`. Games without
    /// captures answer `None`.
    fn captures(&self) -> Option<[u32; 2]> {
        None
    }

    /// Go: Black area minus White area, Tromp-Taylor, without komi.
    fn area_difference(&self) -> Option<i32> {
        None
    }
}
