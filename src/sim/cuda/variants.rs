//! The kernel flavours the backend can launch, per game: which source
//! and entry point runs (see `kernels/NOTES.md`), chosen by
//! [`super::tuning`] unless a caller sets one.

use super::device::GO_SIZES;
use crate::sim::go_rollout::GoPolicy;

/// Which Havannah find the playout kernel uses (paper 000 found no path
/// compression faster on its GPU; both are kept to measure that).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexVariant {
    /// Two-pass path compression.
    Compress,
    /// Plain find, no compression.
    PlainFind,
    /// Two-pass compression, each thread's board in shared memory.
    CompressShared,
    /// Packed board (`havannah_packed.cu`): one u16 per cell (colour and
    /// parent, or colour and corner/edge mask at a root), empty cells as a
    /// bit set in registers, boards interleaved by thread in shared memory,
    /// counters summed by warp ballots.
    Packed,
    /// The packed board in local memory (one 2-byte-per-cell array per
    /// thread) instead of shared memory.
    PackedLocal,
}

impl HexVariant {
    pub fn name(self) -> &'static str {
        match self {
            HexVariant::Compress => "compress",
            HexVariant::PlainFind => "plainfind",
            HexVariant::CompressShared => "compress/shared",
            HexVariant::Packed => "packed/shared",
            HexVariant::PackedLocal => "packed/local",
        }
    }

    pub const ALL: [HexVariant; 5] = [
        HexVariant::Compress,
        HexVariant::PlainFind,
        HexVariant::CompressShared,
        HexVariant::Packed,
        HexVariant::PackedLocal,
    ];

    /// The kernel name stem: `hex_{stem}_S`.
    pub(crate) fn stem(self) -> &'static str {
        match self {
            HexVariant::Compress => "random",
            HexVariant::PlainFind => "plainfind",
            HexVariant::CompressShared => "shared",
            HexVariant::Packed => "packed",
            HexVariant::PackedLocal => "packedlocal",
        }
    }

    /// The replay kernel that runs this variant's board code:
    /// `hex_{replay_stem}_S`.
    pub fn replay_stem(self) -> &'static str {
        match self {
            HexVariant::Compress | HexVariant::PlainFind | HexVariant::CompressShared => "replay",
            HexVariant::Packed | HexVariant::PackedLocal => "packed_replay",
        }
    }

    /// One variant per distinct replay kernel (what the exact check runs).
    pub const REPLAYED: [HexVariant; 2] = [HexVariant::Compress, HexVariant::Packed];
}

/// Which Go playout kernel runs (paper 004's two layouts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoKernel {
    /// (b) One playout per thread on a compact board in local memory.
    PlayoutPerThread,
    /// (a) One board per block, one thread per point, in shared memory.
    PointPerThread,
    /// (b) with each thread's board in shared memory instead.
    PlayoutPerThreadShared,
    /// (b) with the whole board in registers as two bit sets.
    Bitboard,
    /// The bitboard kernel playing the CPU's `Patterns` policy
    /// (`go_bits_patterns.cu`) instead of light playouts.
    BitboardPatterns,
    /// One playout per warp, one board row per lane (`go_rows.cu`).
    Rows,
}

impl GoKernel {
    pub const ALL: [GoKernel; 6] = [
        GoKernel::PlayoutPerThread,
        GoKernel::PointPerThread,
        GoKernel::PlayoutPerThreadShared,
        GoKernel::Bitboard,
        GoKernel::BitboardPatterns,
        GoKernel::Rows,
    ];

    /// The CPU policy whose playouts this kernel plays (what `check-gpu`
    /// compares it with).
    pub fn policy(self) -> GoPolicy {
        match self {
            GoKernel::BitboardPatterns => GoPolicy::Patterns,
            _ => GoPolicy::Random,
        }
    }

    /// Whether this kernel exists for `size`x`size` boards (all do for
    /// the sizes in [`GO_SIZES`]).
    pub fn supports(self, size: usize) -> bool {
        GO_SIZES.contains(&size)
    }

    pub fn name(self) -> &'static str {
        match self {
            GoKernel::PlayoutPerThread => "playout-per-thread",
            GoKernel::PointPerThread => "point-per-thread",
            GoKernel::PlayoutPerThreadShared => "playout-per-thread/shared",
            // The same board; `policy` tells the two apart.
            GoKernel::Bitboard | GoKernel::BitboardPatterns => "playout-per-thread/bitboard",
            GoKernel::Rows => "playout-per-warp/rows",
        }
    }
}
