//! Havannah playout policy: uniform random fill, the policy of the design
//! paper's CUDA kernel. The empty cells go into a list; each move takes a
//! random entry and swap-removes it, and the game stops at the first win
//! (or a full board). Moves go through [`Position::play_cell_unchecked`], the
//! same disjoint-set board the search uses, so a playout needs no separate
//! win check. No swap in playouts.
//!
//! This is the uniform kernels' CPU reference (`check-gpu`); the GPU
//! kernels and the CPU engine's search play, by default, the tactical
//! policy with bridge restoring of `havannah_tactics`
//! ([`Rollout::engine_rollout`]), and the tree takes its priors from there.

use super::havannah_tactics::{bridge_rollout, tactical_priors};
use super::{FastRng, PlayoutRecord, PlayoutResult, Prior, Rollout};
use crate::game::havannah::{Cell, Move, Position, MAX_CELLS};
use crate::game::{Color, Game, Outcome};

impl Rollout for Position {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut pos = self.clone();
        let mut empty = [0u16; MAX_CELLS];
        let mut left = pos.empty_cells_into(&mut empty);
        let mut moves = 0u32;
        while pos.winner().is_none() && left > 0 {
            moves += 1;
            let i = rng.below(left as u32) as usize;
            let c = empty[i];
            left -= 1;
            empty[i] = empty[left];
            record.note(c as usize, pos.to_move());
            pos.play_cell_unchecked(Cell(c));
        }
        finish(&pos, ownership, moves, Rings::Win)
    }

    fn engine_rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        bridge_rollout(self, rng, record, ownership)
    }

    fn priors(&self, moves: &[Move], out: &mut Vec<Prior>) {
        tactical_priors(self, moves, out);
    }
}

/// What a ring that ends a playout scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rings {
    /// A win, as the rules say (the uniform fill, as the uniform kernels).
    Win,
    /// A draw: the tactical playouts' rings are mostly loops of bridges
    /// that restoring every intruded bridge keeps whole, which a real
    /// opponent breaks with faster threats (docs/havannah-strength.md,
    /// "Rings in the playouts"). Rings still end the playout, and the
    /// tree, the priors and the playouts' win and block tests see them.
    Draw,
}

/// Ownership map and result of a finished playout, a ring scored as
/// `rings` says.
pub(super) fn finish(
    pos: &Position,
    ownership: &mut [i8],
    moves: u32,
    rings: Rings,
) -> PlayoutResult {
    for (i, own) in ownership.iter_mut().enumerate() {
        *own = match pos.color_at(Cell(i as u16)) {
            Some(Color::Black) if i < pos.num_cells() => 1,
            Some(Color::White) if i < pos.num_cells() => -1,
            _ => 0,
        };
    }
    let winner = match pos.winner() {
        Some(Outcome::Win(_)) if rings == Rings::Draw && pos.won_by_ring_alone() => None,
        Some(Outcome::Win(c)) => Some(c),
        _ => None,
    };
    let score = match winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    };
    PlayoutResult {
        winner,
        score,
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::havannah::Move;
    use crate::sim::cpu::CpuSimulator;
    use crate::sim::{LeafStats, Simulator};

    fn playout(pos: &Position, seed: u64) -> (PlayoutResult, PlayoutRecord, Vec<i8>) {
        let mut rng = FastRng::new(seed);
        let mut record = PlayoutRecord::default();
        record.reset(pos.move_space());
        let mut owner = vec![7i8; pos.move_space()];
        let result = pos.rollout(&mut rng, &mut record, &mut owner);
        (result, record, owner)
    }

    #[test]
    fn playouts_end_in_a_result_that_replaying_confirms() {
        for side in 3..=10 {
            let start = Position::new(side).unwrap();
            for seed in 0..20 {
                let (result, record, owner) = playout(&start, seed);
                // Every stone on the board was a first play by its colour,
                // and the ownership map is exactly the final board.
                let mut stones = 0;
                for c in start.cells() {
                    let i = c.0 as usize;
                    let expected = match record.first[i] {
                        Some(Color::Black) => 1,
                        Some(Color::White) => -1,
                        None => 0,
                    };
                    assert_eq!(owner[i], expected);
                    stones += (expected != 0) as usize;
                }
                assert_eq!(owner[start.num_cells()], 0, "swap slot");
                assert_eq!(record.first[start.num_cells()], None);
                // White moves first, so White has as many stones as Black
                // or one more.
                let whites = owner.iter().filter(|&&o| o == -1).count();
                assert!(whites == stones - whites || whites == stones - whites + 1);
                match result.winner {
                    Some(Color::Black) => assert_eq!(result.score, 1.0),
                    Some(Color::White) => assert_eq!(result.score, -1.0),
                    None => {
                        assert_eq!(result.score, 0.0);
                        assert_eq!(stones, start.num_cells(), "a draw fills the board");
                    }
                }
                // The last stone placed belongs to the winner.
                if let Some(w) = result.winner {
                    let expected_last = if stones % 2 == 1 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    assert_eq!(w, expected_last);
                }
            }
        }
    }

    #[test]
    fn playout_from_a_finished_game_reports_it() {
        let mut pos = Position::new(3).unwrap();
        // White bridges a1-a3 along row a while Black plays row c.
        for name in ["a1", "c1", "a2", "c2", "a3"] {
            let c = pos.parse_cell(name).unwrap();
            pos.play_unchecked(Move::Play(c));
        }
        assert_eq!(pos.winner(), Some(Outcome::Win(Color::White)));
        let (result, record, owner) = playout(&pos, 1);
        assert_eq!(result.winner, Some(Color::White));
        assert!(record.first.iter().all(Option::is_none));
        assert_eq!(owner.iter().filter(|&&o| o == -1).count(), 3);
    }

    #[test]
    fn cpu_simulator_runs_havannah_leaves_deterministically() {
        let leaves = vec![Position::new(8).unwrap(); 2];
        let sim = CpuSimulator::<Position>::new();
        let mut a = vec![LeafStats::default(), LeafStats::default()];
        let mut b = a.clone();
        sim.simulate(&leaves, 50, 9, &mut a);
        sim.simulate(&leaves, 50, 9, &mut b);
        assert_eq!(a[0].playouts, 50);
        assert_eq!(a[0].black_wins, b[0].black_wins);
        assert_eq!(a[1].ownership, b[1].ownership);
        let first_plays: u32 = a[0].amaf.iter().map(|c| c[0].plays + c[1].plays).sum();
        assert!(first_plays > 50 * 10);
    }
}
