//! Refutations found by the solver, tried first at the same depth elsewhere.
//!
//! When the solver proves a node lost because one of its moves wins (a
//! forced win for the player to move there, found in that move's subtree),
//! that move is noted for the node's depth. At every other node of that
//! depth the search gives the noted move its first few visits before
//! anything else (chess's killer moves, by ply). A threat that wins against
//! one of the root's moves usually wins against the others that ignore it;
//! without this each of them had to find it again among ~170 replies. In
//! a lost Havannah game the search at one move rated its candidates at
//! 0.58, each of which a single reply refuted at once when searched from
//! the position after it.

use super::tree::NO_AMAF;
use std::sync::atomic::{AtomicU32, Ordering};

/// The depths that keep a killer (the root, depth 0, never needs one: its
/// proven children settle the move themselves).
pub(super) const KILLER_DEPTHS: usize = 64;

/// One noted move (its dense AMAF index) per depth.
#[derive(Debug)]
pub(super) struct Killers([AtomicU32; KILLER_DEPTHS]);

impl Default for Killers {
    fn default() -> Self {
        Killers(std::array::from_fn(|_| AtomicU32::new(NO_AMAF)))
    }
}

impl Killers {
    /// The move noted for nodes at `depth`, if any.
    #[inline]
    pub fn at(&self, depth: usize) -> Option<u32> {
        let i = self.0.get(depth)?.load(Ordering::Relaxed);
        (i != NO_AMAF && depth > 0).then_some(i)
    }

    /// Notes `amaf_index` as the winning move at `depth` (the latest wins).
    #[inline]
    pub fn note(&self, depth: usize, amaf_index: u32) {
        if let Some(slot) = self.0.get(depth) {
            slot.store(amaf_index, Ordering::Relaxed);
        }
    }
}
