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
    /// `Compress` playing the tactical policy (win, else block, else
    /// restore an intruded bridge): the CPU engine's `engine_rollout` move
    /// for move, so its counters equal the CPU's from the same streams.
    CompressTactical,
    /// `Packed` playing the tactical policy (its own uniform pick).
    PackedTactical,
    /// `PackedLocal` playing the tactical policy.
    PackedLocalTactical,
}

/// The Havannah kernels' playout policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HexPolicy {
    /// Uniform random fill (`Rollout::rollout`).
    Uniform,
    /// The CPU engine's policy (`Rollout::engine_rollout`,
    /// `sim::havannah_tactics`): a winning cell, else the opponent's
    /// winning cell, else the cell that restores a bridge the opponent's
    /// last stone intruded, else uniform.
    #[default]
    Tactical,
}

impl HexPolicy {
    pub const ALL: [HexPolicy; 2] = [HexPolicy::Uniform, HexPolicy::Tactical];

    pub fn name(self) -> &'static str {
        match self {
            HexPolicy::Uniform => "random",
            HexPolicy::Tactical => "tactical",
        }
    }
}

impl HexVariant {
    pub fn name(self) -> &'static str {
        match self {
            HexVariant::Compress => "compress",
            HexVariant::PlainFind => "plainfind",
            HexVariant::CompressShared => "compress/shared",
            HexVariant::Packed => "packed/shared",
            HexVariant::PackedLocal => "packed/local",
            HexVariant::CompressTactical => "compress",
            HexVariant::PackedTactical => "packed/shared",
            HexVariant::PackedLocalTactical => "packed/local",
        }
    }

    pub const ALL: [HexVariant; 8] = [
        HexVariant::Compress,
        HexVariant::PlainFind,
        HexVariant::CompressShared,
        HexVariant::Packed,
        HexVariant::PackedLocal,
        HexVariant::CompressTactical,
        HexVariant::PackedTactical,
        HexVariant::PackedLocalTactical,
    ];

    /// The playout policy this variant plays.
    pub fn policy(self) -> HexPolicy {
        match self {
            HexVariant::CompressTactical
            | HexVariant::PackedTactical
            | HexVariant::PackedLocalTactical => HexPolicy::Tactical,
            _ => HexPolicy::Uniform,
        }
    }

    /// The uniform variant with this variant's board and launch shape.
    pub fn board(self) -> HexVariant {
        match self {
            HexVariant::CompressTactical => HexVariant::Compress,
            HexVariant::PackedTactical => HexVariant::Packed,
            HexVariant::PackedLocalTactical => HexVariant::PackedLocal,
            other => other,
        }
    }

    /// The kernel name stem: `hex_{stem}_S`.
    pub(crate) fn stem(self) -> &'static str {
        match self {
            HexVariant::Compress => "random",
            HexVariant::PlainFind => "plainfind",
            HexVariant::CompressShared => "shared",
            HexVariant::Packed => "packed",
            HexVariant::PackedLocal => "packedlocal",
            HexVariant::CompressTactical => "tactical",
            HexVariant::PackedTactical => "packedtactical",
            HexVariant::PackedLocalTactical => "packedlocaltactical",
        }
    }

    /// The replay kernel that runs this variant's board code:
    /// `hex_{replay_stem}_S`.
    pub fn replay_stem(self) -> &'static str {
        match self.board() {
            HexVariant::Compress | HexVariant::PlainFind | HexVariant::CompressShared => "replay",
            _ => "packed_replay",
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
    fn havannah_plays_the_tactical_policy_by_default_on_the_uniform_boards() {
        assert_eq!(HexPolicy::default(), HexPolicy::Tactical);
        for cells in [37, 91, 169, 271] {
            for policy in HexPolicy::ALL {
                let v = super::super::tuning::hex_variant(cells, policy);
                assert_eq!(v.policy(), policy);
                assert_eq!(
                    v.board(),
                    super::super::tuning::hex_variant(cells, HexPolicy::Uniform)
                );
            }
        }
        for v in HexVariant::ALL {
            assert_eq!(v.board().policy(), HexPolicy::Uniform);
            assert_eq!(v.name(), v.board().name());
            assert_eq!(v.replay_stem(), v.board().replay_stem());
            let stems = HexVariant::ALL.iter().filter(|w| w.stem() == v.stem());
            assert_eq!(stems.count(), 1, "{v:?}: one entry point each");
        }
    }

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
