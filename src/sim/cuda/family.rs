//! The kernel families: one per game with CUDA kernels. What the backend
//! must know of a family — its manifest name, the words of its leaf
//! header, its points on a board of a size, the sizes it has kernels for,
//! the tables its modules need, which entry point launches and replays —
//! is answered here and nowhere else, so the rest of `sim::cuda`
//! (modules, batching, launch slots, replays) runs any family. A game's
//! kernels are a variant here, its files in `kernels/manifest`, its launch
//! functions in `device.rs` and its [`KernelPosition`] in `positions.rs`;
//! a game without kernels appears nowhere in `sim::cuda`.

use super::device::{GoKernel, Gpu, HexVariant};
use super::hex;
use super::input::KernelPosition;
use super::variants::GO_SIZES;
use super::CudaError;
use crate::game::{Color, Outcome};
use cudarc::driver::{CudaModule, CudaSlice, CudaStream};
use std::sync::Arc;

/// A family of playout kernels: the kernel files of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Go,
    Havannah,
}

/// The most i32 words a leaf header has in any family.
pub const MAX_HEADER_WORDS: usize = 5;

/// Which kernel of each family a launch or replay uses (the simulator's
/// choice, or the one a check or benchmark names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelChoice {
    pub go: GoKernel,
    pub hex: HexVariant,
}

impl Family {
    pub const ALL: [Family; 2] = [Family::Go, Family::Havannah];

    /// The family's game in the manifest, and the stem of its PTX.
    pub fn stem(self) -> &'static str {
        match self {
            Family::Go => "go",
            Family::Havannah => "havannah",
        }
    }

    /// i32 words of one leaf header: `GoLeaf` in go.cu (to move, ko,
    /// passes, komi in half points, last move), `HexLeaf` in havannah.cu
    /// (to move, last move, padding).
    pub fn header_words(self) -> usize {
        match self {
            Family::Go => 5,
            Family::Havannah => 4,
        }
    }

    /// Kernel points (Havannah: cells) of a board of `size`.
    pub fn points(self, size: usize) -> usize {
        match self {
            Family::Go => size * size,
            Family::Havannah => hex::cell_count(size),
        }
    }

    /// `Ok` if the family has kernels for board size `size`.
    pub fn check_size(self, size: usize) -> Result<(), CudaError> {
        let (game, sizes, supported): (_, &[usize], _) = match self {
            Family::Go => ("Go", &GO_SIZES, "9, 13, 19"),
            Family::Havannah => ("Havannah", &hex::SIZES, "4, 6, 8, 10"),
        };
        if sizes.contains(&size) {
            Ok(())
        } else {
            Err(CudaError::UnsupportedSize {
                game,
                size,
                supported,
            })
        }
    }

    /// Uploads the constant tables a freshly loaded module of `size` reads.
    pub(super) fn upload_tables(
        self,
        gpu: &Gpu,
        module: &Arc<CudaModule>,
        size: usize,
    ) -> Result<(), CudaError> {
        match self {
            Family::Go => gpu.upload_go_tables(module),
            Family::Havannah => gpu.upload_hex_tables(module, size),
        }
    }

    /// Launches `choice`'s playout kernel of this family on `stream` (see
    /// [`Gpu::launch_go`] for the buffers).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn launch(
        self,
        gpu: &Gpu,
        stream: &CudaStream,
        size: usize,
        choice: KernelChoice,
        boards: &CudaSlice<u8>,
        headers: &CudaSlice<i32>,
        stats: &mut CudaSlice<u32>,
        leaf_count: u32,
        playouts_per_leaf: u32,
        seed: u64,
    ) -> Result<(), CudaError> {
        match self {
            Family::Go => gpu.launch_go(
                stream,
                size,
                choice.go,
                boards,
                headers,
                stats,
                leaf_count,
                playouts_per_leaf,
                seed,
            ),
            Family::Havannah => gpu.launch_hex(
                stream,
                size,
                choice.hex,
                boards,
                headers,
                stats,
                leaf_count,
                playouts_per_leaf,
                seed,
            ),
        }
    }

    /// Replays move sequences (`u16` points, `0xFFFF`-padded to
    /// `max_moves`) from the empty board with `choice`'s board code: the
    /// final boards and four result words per sequence (see
    /// [`replay_mismatches`](Self::replay_mismatches)).
    pub(super) fn replay(
        self,
        gpu: &Gpu,
        size: usize,
        choice: KernelChoice,
        moves: &[u16],
        max_moves: usize,
        first: Color,
    ) -> Result<(Vec<u8>, Vec<i32>), CudaError> {
        match self {
            Family::Go => gpu.replay_go(size, choice.go, moves, max_moves),
            Family::Havannah => {
                let first = super::input::color_code(first) as i32;
                gpu.replay_hex(size, choice.hex, moves, max_moves, first)
            }
        }
    }

    /// How a replay's result words (after the first, the rejected move)
    /// differ from the CPU's position `pos`: Go's captures of each colour
    /// and area difference, Havannah's winner.
    pub(super) fn replay_mismatches<G: KernelPosition>(self, r: &[i32], pos: &G) -> Vec<String> {
        let mut why = Vec::new();
        match self {
            Family::Go => {
                if let Some([b, w]) = pos.captures() {
                    if [r[1] as u32, r[2] as u32] != [b, w] {
                        why.push(format!("captures {:?} vs cpu {:?}", [r[1], r[2]], [b, w]));
                    }
                }
                if let Some(diff) = pos.area_difference() {
                    if r[3] != diff {
                        why.push(format!("area {} vs cpu {diff}", r[3]));
                    }
                }
            }
            Family::Havannah => {
                let cpu_winner = match pos.outcome() {
                    Some(Outcome::Win(Color::Black)) => 1,
                    Some(Outcome::Win(Color::White)) => 2,
                    _ => 0,
                };
                if r[1] != cpu_winner {
                    why.push(format!("winner {} vs cpu {cpu_winner}", r[1]));
                }
            }
        }
        why
    }
}
