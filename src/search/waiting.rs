//! A node's waiting moves (progressive widening, `super::widen`): the
//! moves that have no node yet, with their priors, worst first.
//!
//! They are most of a widened tree's memory: an Amazons expansion at the
//! 10x10 start leaves about 1,700 of its 2,176 moves waiting, and as
//! `(move, Prior)` pairs (16 bytes each, 20 since `Prior` has a verdict)
//! they filled the tree's 1 GiB cap after about 37,700 expansions, a few
//! seconds of the GPU engine on 16 threads. Two things keep them small:
//!
//! - A list whose priors all share their virtual visits and bias, and
//!   prove nothing (the Amazons' do: a fixed visit count and no bias),
//!   keeps those once and each move with its wins alone, 8 bytes; any
//!   other list keeps the pairs. Both forms give back exactly the priors
//!   they were made from.
//! - Below the root a node lists only its best
//!   [`WAITING_LISTED`](super::config::WAITING_LISTED) waiting moves; the
//!   others are dropped, remembered only as having been
//!   ([`Waiting::has_dropped`]). The width passes the listed ones after about
//!   10^7 visits (`WIDEN_EXPONENT`); then the node's moves are evaluated
//!   again, as at its expansion, and the best of those without a node are listed
//!   (`super::widen::relist`). No move is lost: a node with dropped moves
//!   still counts as waiting.

use crate::sim::{Prior, Verdict};
use std::mem::size_of;

#[derive(Clone, Debug)]
pub(super) struct Waiting<M> {
    list: List<M>,
    /// Whether moves were dropped from the list (they have no node and
    /// are listed again from a new evaluation, `super::widen::relist`).
    dropped: bool,
}

#[derive(Clone, Debug)]
enum List<M> {
    /// Every prior has these `visits` and `bias` and no verdict; each move
    /// keeps its wins.
    Shared {
        visits: f32,
        bias: f32,
        moves: Vec<(M, f32)>,
    },
    /// Priors that differ in more than their wins.
    Full(Vec<(M, Prior)>),
}

impl<M: Copy> List<M> {
    /// The list of `pairs`, in the compact form when it can be.
    fn new(pairs: Vec<(M, Prior)>) -> Self {
        let Some(&(_, first)) = pairs.first() else {
            return List::Full(pairs);
        };
        // Bit equality: a NaN or a -0.0 would not come back the same otherwise.
        let same = |p: &Prior| {
            p.visits.to_bits() == first.visits.to_bits()
                && p.bias.to_bits() == first.bias.to_bits()
                && p.verdict == Verdict::Open
        };
        if pairs.iter().all(|(_, p)| same(p)) {
            List::Shared {
                visits: first.visits,
                bias: first.bias,
                moves: pairs.iter().map(|&(mv, p)| (mv, p.wins)).collect(),
            }
        } else {
            List::Full(pairs)
        }
    }

    fn len(&self) -> usize {
        match self {
            List::Shared { moves, .. } => moves.len(),
            List::Full(pairs) => pairs.len(),
        }
    }

    fn get(&self, i: usize) -> (M, Prior) {
        match self {
            List::Shared {
                visits,
                bias,
                moves,
            } => {
                let (mv, wins) = moves[i];
                let prior = Prior {
                    wins,
                    visits: *visits,
                    bias: *bias,
                    ..Prior::default()
                };
                (mv, prior)
            }
            List::Full(pairs) => pairs[i],
        }
    }
}

impl<M: Copy> Waiting<M> {
    /// The waiting moves `pairs` (worst first); `dropped`: whether more
    /// were left out of them.
    pub fn new(pairs: Vec<(M, Prior)>, dropped: bool) -> Self {
        Waiting {
            list: List::new(pairs),
            dropped,
        }
    }

    /// How many moves are listed (not counting dropped ones).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether no move waits at all, listed or dropped.
    pub fn nothing_waits(&self) -> bool {
        self.len() == 0 && !self.dropped
    }

    /// Whether moves were dropped from the list and wait unlisted.
    pub fn has_dropped(&self) -> bool {
        self.dropped
    }

    /// The `i`-th listed move (0: the worst) and its prior.
    pub fn get(&self, i: usize) -> (M, Prior) {
        self.list.get(i)
    }

    /// Every listed move and its prior, worst first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (M, Prior)> + ExactSizeIterator + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Keeps the `keep` worst listed moves (the best were given nodes). The
    /// memory goes back once the list is at most half its allocation, so
    /// that what [`Waiting::bytes`] counts against the cap is what the list
    /// holds.
    pub fn truncate(&mut self, keep: usize) {
        fn cut<T>(v: &mut Vec<T>, keep: usize) {
            v.truncate(keep);
            if v.len() <= v.capacity() / 2 {
                v.shrink_to_fit();
            }
        }
        match &mut self.list {
            List::Shared { moves, .. } => cut(moves, keep),
            List::Full(pairs) => cut(pairs, keep),
        }
    }

    /// The bytes the list holds on the heap (they count against the
    /// tree's cap with the nodes).
    pub fn bytes(&self) -> usize {
        match &self.list {
            List::Shared { moves, .. } => moves.capacity() * size_of::<(M, f32)>(),
            List::Full(pairs) => pairs.capacity() * size_of::<(M, Prior)>(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::amazons::Move;

    fn mv(i: u8) -> Move {
        Move {
            from: i,
            to: i + 1,
            arrow: i + 2,
        }
    }

    fn prior(wins: f32, visits: f32, bias: f32) -> Prior {
        Prior {
            wins,
            visits,
            bias,
            ..Prior::default()
        }
    }

    #[test]
    fn shared_priors_take_eight_bytes_a_move_and_come_back_exactly() {
        let pairs: Vec<_> = (0..100u8)
            .map(|i| (mv(i), prior(i as f32 * 0.37, 8.0, 0.0)))
            .collect();
        let w = Waiting::new(pairs.clone(), false);
        assert!(matches!(w.list, List::Shared { .. }));
        assert_eq!(w.bytes(), 100 * 8);
        let back: Vec<_> = w.iter().collect();
        assert_eq!(back.len(), pairs.len());
        for ((m1, p1), (m2, p2)) in back.iter().zip(&pairs) {
            assert_eq!(m1, m2);
            assert_eq!(p1.wins.to_bits(), p2.wins.to_bits());
            assert_eq!(p1.visits.to_bits(), p2.visits.to_bits());
            assert_eq!(p1.bias.to_bits(), p2.bias.to_bits());
        }
    }

    #[test]
    fn differing_visits_or_bias_keep_the_pairs() {
        for odd in [prior(1.0, 9.0, 0.0), prior(1.0, 8.0, 0.5)] {
            let mut pairs: Vec<_> = (0..10u8).map(|i| (mv(i), prior(1.0, 8.0, 0.0))).collect();
            pairs[7].1 = odd;
            let w = Waiting::new(pairs.clone(), false);
            assert!(matches!(w.list, List::Full(_)));
            assert_eq!(w.get(7).1.visits, odd.visits);
            assert_eq!(w.get(7).1.bias, odd.bias);
            assert_eq!(
                w.iter().map(|(m, _)| m).collect::<Vec<_>>(),
                (0..10u8).map(mv).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn truncating_keeps_the_worst_and_gives_memory_back() {
        let pairs: Vec<_> = (0..100u8)
            .map(|i| (mv(i), prior(i as f32, 8.0, 0.0)))
            .collect();
        let mut w = Waiting::new(pairs, false);
        w.truncate(60);
        assert_eq!(w.len(), 60);
        assert_eq!(w.get(59).0, mv(59));
        assert_eq!(w.bytes(), 100 * 8, "above half its allocation: kept");
        w.truncate(40);
        assert_eq!(w.bytes(), 40 * 8, "at most half: given back");
        assert_eq!(w.iter().next_back().unwrap().0, mv(39));
        w.truncate(0);
        assert!(w.nothing_waits());
    }
}
