//! How a position becomes kernel input.
//!
//! The kernels read plain arrays: per leaf the board's colours in the
//! kernel's own point order (Go: `row * size + col`; Havannah: the compact
//! cell order of [`super::hex`]) and a small header (side to move, ko
//! point, consecutive passes, komi, Go's last move). A game position implements
//! [`KernelPosition`] to say how it maps onto that.

use super::family::{Family, MAX_HEADER_WORDS};
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
    /// One colour code per cell, in the game's cell order.
    pub colors: Vec<u8>,
    pub to_move: Color,
    /// The cell of the last move when it was a stone (not a swap): the
    /// tactical policy looks for the opponent's threats next to it.
    pub last_move: Option<usize>,
}

/// A leaf as every kernel family reads it: its family and board size,
/// one colour code per kernel point, and the family's header words (the
/// first [`Family::header_words`] of `header`).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelInput {
    pub family: Family,
    pub size: usize,
    pub colors: Vec<u8>,
    pub header: [i32; MAX_HEADER_WORDS],
}

impl From<GoLeafInput> for KernelInput {
    /// go.cu's `GoLeaf`: to move, ko point (-1: none), passes, komi in
    /// half points, last move (-1: none).
    fn from(g: GoLeafInput) -> KernelInput {
        KernelInput {
            family: Family::Go,
            size: g.size,
            header: [
                color_code(g.to_move) as i32,
                g.ko.map_or(-1, |k| k as i32),
                g.consecutive_passes as i32,
                (g.komi * 2.0).round() as i32,
                g.last_move.map_or(-1, |p| p as i32),
            ],
            colors: g.colors,
        }
    }
}

impl From<HexLeafInput> for KernelInput {
    /// havannah.cu's `HexLeaf`: to move, last move (-1: none), padding.
    fn from(h: HexLeafInput) -> KernelInput {
        KernelInput {
            family: Family::Havannah,
            size: h.side,
            header: [
                color_code(h.to_move) as i32,
                h.last_move.map_or(-1, |c| c as i32),
                0,
                0,
                0,
            ],
            colors: h.colors,
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
