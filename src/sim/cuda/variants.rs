//! The kernel flavours the backend can launch, per game: which source
//! and entry point runs (see `docs/gpu-kernels.md`), chosen by
//! [`super::tuning`] unless a caller sets one.

use crate::sim::go_rollout::GoPolicy;

/// Which Havannah find the playout kernel uses (Werner (2012) found no path
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

/// Which Go playout kernel runs (Iwakawa et al.'s two layouts).
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
    /// (a) playing the CPU's `Weighted3x3` policy (Iwakawa et al.'s "3x3"):
    /// each thread weighs its point (`go_weights.cu`).
    PointPerThread3x3,
    /// (a) playing the CPU's `M2` policy (Iwakawa et al.'s "M2").
    PointPerThreadM2,
    /// (b) playing `Weighted3x3`: each thread weighs every point per move.
    PlayoutPerThread3x3,
    /// (b) playing `M2`.
    PlayoutPerThreadM2,
}

impl GoKernel {
    pub const ALL: [GoKernel; 10] = [
        GoKernel::PlayoutPerThread,
        GoKernel::PointPerThread,
        GoKernel::PlayoutPerThreadShared,
        GoKernel::Bitboard,
        GoKernel::BitboardPatterns,
        GoKernel::Rows,
        GoKernel::PointPerThread3x3,
        GoKernel::PointPerThreadM2,
        GoKernel::PlayoutPerThread3x3,
        GoKernel::PlayoutPerThreadM2,
    ];

    /// The distinct [`GoKernel::name`]s (board layouts), for `bench --kernel`.
    pub const NAMES: [&'static str; 5] = [
        "playout-per-thread",
        "point-per-thread",
        "playout-per-thread/shared",
        "playout-per-thread/bitboard",
        "playout-per-warp/rows",
    ];

    /// One board per block, one thread per point (layout (a)).
    pub fn is_point_per_thread(self) -> bool {
        matches!(
            self,
            GoKernel::PointPerThread | GoKernel::PointPerThread3x3 | GoKernel::PointPerThreadM2
        )
    }

    /// The CPU policy whose playouts this kernel plays (what `check-gpu`
    /// compares it with).
    pub fn policy(self) -> GoPolicy {
        match self {
            GoKernel::BitboardPatterns => GoPolicy::Patterns,
            GoKernel::PointPerThread3x3 | GoKernel::PlayoutPerThread3x3 => GoPolicy::Weighted3x3,
            GoKernel::PointPerThreadM2 | GoKernel::PlayoutPerThreadM2 => GoPolicy::M2,
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
            GoKernel::PlayoutPerThread
            | GoKernel::PlayoutPerThread3x3
            | GoKernel::PlayoutPerThreadM2 => "playout-per-thread",
            // The same board; `policy` tells them apart.
            GoKernel::PointPerThread | GoKernel::PointPerThread3x3 | GoKernel::PointPerThreadM2 => {
                "point-per-thread"
            }
            GoKernel::PlayoutPerThreadShared => "playout-per-thread/shared",
            // The same board; `policy` tells the two apart.
            GoKernel::Bitboard | GoKernel::BitboardPatterns => "playout-per-thread/bitboard",
            GoKernel::Rows => "playout-per-warp/rows",
        }
    }
}

/// Go board sizes with kernels.
pub const GO_SIZES: [usize; 3] = [9, 13, 19];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_go_policy_has_a_kernel_that_plays_it() {
        for policy in GoPolicy::ALL {
            for points in [81, 169, 361] {
                let kernel = super::super::tuning::go_kernel(points, policy);
                assert_eq!(kernel.policy(), policy);
            }
        }
        for kernel in GoKernel::ALL {
            assert_eq!(
                kernel.is_point_per_thread(),
                kernel.name() == "point-per-thread"
            );
            assert!(GoKernel::NAMES.contains(&kernel.name()));
        }
        for name in GoKernel::NAMES {
            assert!(GoKernel::ALL.iter().any(|k| k.name() == name));
        }
    }
}
