//! Lieberum's Amazons evaluation on the GPU (`kernels/amazons/eval.cu`),
//! one thread per position, in float: compiling it (NVRTC) and packing its
//! input. [`super::amazons`] runs it, [`super::amazons_sim`] puts it in
//! the search, `warpstone --game amazons bench --backend cuda` times it.
//!
//! On a machine with a GPU and NVRTC:
//!
//! ```text
//! cargo test --release --lib sim::cuda::compile_amazons -- --ignored --nocapture
//! ```
//!
//! evaluates 100,000 random positions on both and prints the largest
//! difference. The module's name starts with `compile` so that CI's NVRTC
//! step (`cargo test --lib sim::cuda::compile`) compiles the kernel too.
//! `kernels/hostcheck/run.sh` compiles the kernel's device code as host
//! C++ and compares it with the CPU on data a test here writes.

use super::compile::nvrtc_present;
use super::CudaError;
use crate::game::amazons::bitboard::{bit, king_step};
use crate::game::amazons::{Move, Position};
use crate::game::Game;
use cudarc::nvrtc::{CompileOptions, Ptx};

/// The kernel's source (embedded: the binary needs no kernel files).
pub const SOURCE: &str = include_str!("../../../kernels/amazons/eval.cu");

/// Threads per block: each thread keeps one side's distance layers in
/// local memory (16 bytes a level), so small blocks keep more resident.
pub const BLOCK: u32 = 128;

/// Compiles the evaluation kernel for `arch` (such as `compute_90`).
pub fn compile(arch: &str) -> Result<Ptx, CudaError> {
    if !nvrtc_present() {
        return Err(CudaError::NoNvrtcLibrary);
    }
    let opts = CompileOptions {
        options: vec![
            format!("--gpu-architecture={arch}"),
            "--std=c++17".to_string(),
            "-default-device".to_string(),
        ],
        name: Some("amazons/eval.cu".to_string()),
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(SOURCE, opts).map_err(|e| CudaError::Compile {
        kernel: "amazons/eval.cu".to_string(),
        arch: arch.to_string(),
        message: format!("{e:?}"),
        log: String::new(),
    })
}

/// The kernel's input for `pos`: the side to move's queens, the other
/// side's, the empty squares, each as (low, high) 64-bit words.
pub fn pack(pos: &Position) -> [u64; 6] {
    words(
        pos.queens(pos.to_move()),
        pos.queens(pos.to_move().opponent()),
        pos.empty(),
    )
}

/// The input words of a position whose side to move has the queens `me`.
fn words(me: u128, other: u128, empty: u128) -> [u64; 6] {
    let split = |b: u128| [b as u64, (b >> 64) as u64];
    let [a, b] = split(me);
    let [c, d] = split(other);
    let [e, f] = split(empty);
    [a, b, c, d, e, f]
}

/// [`pack`] for every child of one position, made from the parent's
/// sets instead of a position a child: an expansion packs thousands of
/// children (2,176 at the start) between its launches, and cloning,
/// playing and checking each child for a move was most of that time.
pub struct ChildPacker {
    /// The side to move's queens (the other side in every child).
    mover: u128,
    /// The other side's queens: to move in every child, and unmoved.
    waiting: u128,
    empty: u128,
    /// The squares next to a waiting queen: that side has a move in a
    /// child exactly when one of them is empty there (a queen steps there
    /// and shoots back; `Position::can_move`). Guard and wall squares are
    /// never empty, so the unmasked step's wraps onto them count nothing.
    around_waiting: u128,
}

impl ChildPacker {
    pub fn new(pos: &Position) -> Self {
        let waiting = pos.queens(pos.to_move().opponent());
        ChildPacker {
            mover: pos.queens(pos.to_move()),
            waiting,
            empty: pos.empty(),
            around_waiting: king_step(waiting, u128::MAX),
        }
    }

    /// The words of the child after `mv` (a legal move), as [`pack`] gives
    /// them, and whether that child is over (its side to move has no move).
    #[inline]
    pub fn child(&self, mv: Move) -> ([u64; 6], bool) {
        let (from, to, arrow) = (bit(mv.from), bit(mv.to), bit(mv.arrow));
        let moved = (self.mover & !from) | to;
        // The arrow may land where the queen came from.
        let empty = ((self.empty | from) & !to) & !arrow;
        (
            words(self.waiting, moved, empty),
            self.around_waiting & empty == 0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::amazons_eval::features;
    use crate::sim::amazons_rollout::random_positions;

    #[test]
    fn the_kernel_compiles_or_the_library_is_missing() {
        match compile("compute_90") {
            Ok(ptx) => assert!(ptx.to_src().contains("amazons_eval")),
            Err(CudaError::NoNvrtcLibrary) => assert!(!nvrtc_present()),
            Err(e) => panic!("the Amazons kernel failed to compile: {e}"),
        }
    }

    #[test]
    fn packing_keeps_the_sets_apart() {
        let pos = Position::new(10).unwrap();
        let p = pack(&pos);
        let join = |lo: u64, hi: u64| lo as u128 | (hi as u128) << 64;
        assert_eq!(join(p[0], p[1]), pos.queens(pos.to_move()));
        assert_eq!(join(p[4], p[5]), pos.empty());
        assert_eq!(join(p[0], p[1]) & join(p[2], p[3]), 0);
    }

    /// On a GPU: 100,000 random positions, the largest |GPU − CPU| (float
    /// against double; bounded by 1e-3 squares), and w = 0 exactly where
    /// the CPU finds the armies apart.
    #[test]
    #[ignore = "needs a CUDA GPU and NVRTC"]
    fn gpu_matches_the_cpu_on_random_positions() {
        let positions = random_positions(10, 100_000, 1).unwrap();
        let mut gpu = super::super::amazons::AmazonsGpu::open(0).unwrap();
        let values = gpu.evaluate(&positions).unwrap();
        let mut worst = 0.0f64;
        for (pos, v) in positions.iter().zip(&values) {
            let f = features(pos);
            worst = worst.max((v.value as f64 - f.value()).abs());
            assert_eq!(v.w == 0.0, f.separated(), "{f:?} {v:?}");
        }
        println!(
            "amazons eval: {} positions, max |gpu - cpu| {worst:.2e}",
            positions.len()
        );
        assert!(worst < 1e-3, "max difference {worst}");
    }

    /// Reference data for `kernels/hostcheck/amazons.cpp`: random positions
    /// of every size as the kernel's six input words, with the CPU's value
    /// and whether the armies are apart. Writes only when
    /// `WARPSTONE_HOSTCHECK_DIR` is set (`run.sh` sets it).
    #[test]
    fn write_gpu_hostcheck_data_amazons() {
        let Some(dir) = std::env::var_os("WARPSTONE_HOSTCHECK_DIR") else {
            return;
        };
        use std::fmt::Write;
        let mut text = String::new();
        for (size, count) in [(6, 5_000), (8, 10_000), (10, 35_000)] {
            for pos in random_positions(size, count, size as u64).unwrap() {
                let f = features(&pos);
                for word in pack(&pos) {
                    write!(text, "{word:x} ").unwrap();
                }
                writeln!(text, "{:.17e} {}", f.value(), u8::from(f.separated())).unwrap();
            }
        }
        let path = std::path::Path::new(&dir).join("amazons.txt");
        std::fs::write(&path, text).unwrap();
    }

    /// The packer's words and ends are those of the child made and packed,
    /// for every move of positions from the start to the last moves.
    #[test]
    fn children_packed_from_the_parent_are_the_children() {
        let mut positions = random_positions(10, 200, 5).unwrap();
        positions.extend(random_positions(8, 100, 6).unwrap());
        positions.extend(random_positions(6, 100, 7).unwrap());
        positions.push(Position::new(10).unwrap());
        let (mut moves, mut checked, mut ends) = (Vec::new(), 0, 0);
        for pos in &positions {
            let packer = ChildPacker::new(pos);
            pos.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = pos.clone();
                child.apply(mv);
                let (words, over) = packer.child(mv);
                assert_eq!(words, pack(&child), "{mv:?}");
                assert_eq!(over, child.outcome().is_some(), "{mv:?}");
                checked += 1;
                ends += over as usize;
            }
        }
        assert!(checked > 100_000 && ends > 0, "{checked} {ends}");
    }
}
