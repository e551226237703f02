//! Havannah board sizes for the kernels. The kernels' cell order and their
//! neighbour and corner/edge tables are the game's own
//! ([`crate::game::havannah::flat_tables`]), uploaded per side
//! (`modules.rs`).

/// Board sides the Havannah kernels are built for.
pub const SIZES: [usize; 4] = [4, 6, 8, 10];

/// Cells on a board of `side`: the kernels' `hex_cells(S)`.
pub fn cell_count(side: usize) -> usize {
    3 * side * side - 3 * side + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::havannah::{flat_tables, Position};

    #[test]
    fn the_kernel_sizes_are_played_and_their_tables_fit() {
        for side in SIZES {
            let pos = Position::new(side).unwrap();
            assert_eq!(pos.num_cells(), cell_count(side));
            let t = flat_tables(side).unwrap();
            assert_eq!(t.neighbours.len(), 6 * cell_count(side));
            assert_eq!(t.reach.len(), cell_count(side));
        }
    }
}
