//! Launch grids: how many blocks of how many threads each kernel family
//! gets for a batch (the kernels loop over a leaf's playouts, so any grid
//! is correct; these shapes are the fast ones).

use cudarc::driver::LaunchConfig;

/// Grid for `leaves` leaves: about `threads_per_sm` threads per
/// multiprocessor in all, each looping over its leaf's playouts.
pub(super) fn playout_config(
    leaves: u32,
    playouts_per_leaf: u32,
    multiprocessors: u32,
    threads_per_sm: u32,
) -> LaunchConfig {
    let block = super::tuning::PLAYOUT_BLOCK;
    let wanted = (multiprocessors as u64 * threads_per_sm as u64)
        .div_ceil(leaves.max(1) as u64 * block as u64);
    let blocks_per_leaf = wanted.clamp(1, playouts_per_leaf.div_ceil(block).max(1) as u64) as u32;
    LaunchConfig {
        grid_dim: (blocks_per_leaf, leaves, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Grid for `leaves` leaves of a kernel of which `resident` blocks of
/// [`super::tuning::PLAYOUT_BLOCK`] threads fit on the device at once:
/// the blocks per leaf that fill whole waves best. Blocks run for about
/// equally long, so a last wave that is partly empty idles the rest of
/// the device (256 leaves x 9 blocks on an H200 holding 1,056 of the 9x9
/// bitboard kernel's blocks was 2.18 waves).
pub(super) fn whole_waves_config(
    leaves: u32,
    playouts_per_leaf: u32,
    resident: u32,
    playouts_per_warp: u32,
    block: u32,
) -> LaunchConfig {
    let leaves = leaves.max(1);
    let warps_per_block = (block / 32).max(1);
    let most = playouts_per_leaf
        .div_ceil(warps_per_block * playouts_per_warp.max(1))
        .max(1);
    let resident = resident.max(1) as u64;
    // A warp plays `playouts_per_warp` playouts a round (32 lanes of
    // playouts, or one playout 32 lanes wide); a block is done when its
    // last warp is, so rounds should spread evenly over the leaf's warps.
    let warp_rounds = playouts_per_leaf.div_ceil(playouts_per_warp.max(1)).max(1) as u64;
    let warps_per_block = warps_per_block as u64;
    let filled = |b: u32| {
        let total = leaves as u64 * b as u64;
        let waves = total as f64 / (total.div_ceil(resident) * resident) as f64;
        let warps = b as u64 * warps_per_block;
        let rounds = warp_rounds as f64 / (warp_rounds.div_ceil(warps) * warps) as f64;
        waves * rounds
    };
    // Prefer more blocks on a tie: more of the device for small batches.
    let blocks_per_leaf = (1..=most)
        .max_by(|&a, &b| filled(a).total_cmp(&filled(b)).then(a.cmp(&b)))
        .unwrap_or(1);
    LaunchConfig {
        grid_dim: (blocks_per_leaf, leaves, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Block sizes the bitboard kernels accept (whole warps, at most their
/// compiled `GB_BLOCK` of 128), largest first.
pub(super) const BITBOARD_BLOCKS: [u32; 3] = [128, 64, 32];

/// Threads per block for the bitboard kernels (one leaf per block, one
/// playout per thread): the size that keeps the most threads per
/// multiprocessor busy. A block of 128 threads on a leaf of 64 playouts
/// idles half of them, yet holds their registers and shared memory until
/// it ends, so the search's small leaves (64 or 32 playouts) fill the GPU
/// better with smaller blocks; large leaves keep 128 (ties go to the
/// larger block). `resident(block)`: blocks of that size that fit on one
/// multiprocessor.
pub(super) fn bitboard_block(playouts_per_leaf: u32, resident: impl Fn(u32) -> u32) -> u32 {
    let busy_per_leaf = playouts_per_leaf.div_ceil(32).max(1) * 32;
    let mut best = (0u64, BITBOARD_BLOCKS[0]);
    for block in BITBOARD_BLOCKS {
        let busy = resident(block) as u64 * block.min(busy_per_leaf) as u64;
        if busy > best.0 {
            best = (busy, block);
        }
    }
    best.1
}

/// Threads of a one-point-per-thread block: the board's points rounded up
/// to whole warps.
pub(super) fn point_block(size: usize) -> u32 {
    ((size * size) as u32).div_ceil(32) * 32
}

/// Grid of the one-point-per-thread kernel: one board per block, enough
/// blocks to fill every multiprocessor (at most 32 resident blocks each),
/// each block looping over its leaf's playouts.
pub(super) fn point_config(
    leaves: u32,
    playouts_per_leaf: u32,
    multiprocessors: u32,
    size: usize,
) -> LaunchConfig {
    let block = point_block(size);
    let per_sm = (2048 / block).min(32);
    let wanted = (multiprocessors * per_sm).div_ceil(leaves.max(1));
    LaunchConfig {
        grid_dim: (wanted.clamp(1, playouts_per_leaf.max(1)), leaves, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

pub(super) fn replay_config(sequences: u32) -> LaunchConfig {
    let block = super::tuning::REPLAY_BLOCK;
    LaunchConfig {
        grid_dim: (sequences.div_ceil(block).max(1), 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_waves_fill_the_device() {
        // 9x9 bitboard on an H200: 132 SMs x 8 blocks. 4 and 16 blocks a
        // leaf both fill 97% of the slots with even warp rounds; more
        // blocks win the tie (the device refills as short blocks end).
        let cfg = whole_waves_config(256, 2048, 1056, 32, 128);
        assert_eq!(cfg.grid_dim, (16, 256, 1));
        // 19x19, 3 blocks an SM: 3 blocks a leaf would fill 97% of the
        // slots but give some warps 6 rounds and others 5.
        assert_eq!(whole_waves_config(256, 2048, 396, 32, 128).grid_dim.0, 16);
        // The old default of 9 blocks a leaf (2.18 waves) is never chosen.
        assert_ne!(whole_waves_config(256, 2048, 1056, 32, 128).grid_dim.0, 9);
        // Never more blocks than the leaf's playouts need.
        assert_eq!(whole_waves_config(4, 100, 1056, 32, 128).grid_dim.0, 1);
        assert_eq!(whole_waves_config(256, 512, 1056, 32, 128).grid_dim.0, 4);
        // The row kernel plays one playout per warp: 100 playouts are 25
        // blocks of four warps.
        assert_eq!(whole_waves_config(4, 100, 2112, 1, 128).grid_dim.0, 25);
        // Blocks of 64 on leaves of 64 playouts: one block a leaf.
        let cfg = whole_waves_config(1024, 64, 2112, 32, 64);
        assert_eq!((cfg.grid_dim, cfg.block_dim), ((1, 1024, 1), (64, 1, 1)));
    }

    #[test]
    fn bitboard_blocks_shrink_with_the_leaf() {
        // Registers allow 8 blocks of 128 an SM, and at most 32 blocks
        // reside on one SM whatever their size.
        let resident = |b: u32| (1024 / b).min(32);
        assert_eq!(bitboard_block(2048, resident), 128);
        assert_eq!(bitboard_block(128, resident), 128);
        assert_eq!(bitboard_block(64, resident), 64);
        assert_eq!(bitboard_block(32, resident), 32);
        assert_eq!(bitboard_block(16, resident), 32);
        // Shared memory that allows only 4 blocks of any size keeps 128.
        assert_eq!(bitboard_block(64, |_| 4), 128);
    }
}
