//! Havannah's tactical playout policy and tree priors, the CPU engine's
//! default and the GPU kernels' (`kernels/havannah.cu` `hex_tactical_S`
//! plays it move for move; the packed kernels with their own uniform
//! pick); the uniform fill of `havannah_rollout` stays available.
//!
//! Published Havannah programs (Ewalds' Castro, Lorentz's Wanderer) gain
//! most from two playout rules: play a cell that wins at once when there is
//! one, else take the opponent's winning cell ("must block"). Uniform fills
//! never do either, so a single threat looks like a coin flip to them and a
//! double threat (the losses that dominate against Castro) is invisible.
//!
//! Cost control: during the fill only the empty neighbours of the mover's
//! own last stone (its new wins) and of the opponent's last stone (its new
//! threats) are tested; wins that appear elsewhere, e.g. at the far end of a
//! group a stone has just joined, are missed there. The first move of a
//! playout scans the whole board, because the tree moves above it are not
//! known to the playout and a leaf's threats decide its value.

use super::{FastRng, PlayoutRecord, PlayoutResult, Prior};
use crate::game::havannah::{Cell, Move, Position, MAX_CELLS};
use crate::game::{Color, Game};

/// Whether quiet positions (no winning cell, no double threat) get the
/// shape bias of `havannah_shape`.
const SHAPE: bool = true;

/// Virtual playouts a tree prior puts on a move that wins at once (all won)
/// or that leaves the opponent's winning cell open (all lost). Large, so
/// that the AMAF statistics of thousands of playouts cannot outvote a fact.
const TACTIC_PRIOR_VISITS: f32 = 1000.0;

/// An empty cell next to `near` where a `color` stone wins, if any.
#[inline]
fn win_next_to(pos: &Position, near: Cell, color: Color) -> Option<Cell> {
    pos.neighbours(near).find(|&n| pos.wins_at(n, color))
}

/// The tactical playout: win, else block, else a uniform random empty cell.
/// Same bookkeeping (AMAF record, ownership, result) as the uniform fill.
/// The GPU kernels' reference policy: what it plays and how it draws
/// random numbers stay fixed.
pub fn tactical_rollout(
    start: &Position,
    rng: &mut FastRng,
    record: &mut PlayoutRecord,
    ownership: &mut [i8],
) -> PlayoutResult {
    policy_rollout::<false>(start, rng, record, ownership)
}

/// The tactical playout plus bridge restoring: win, else block, else
/// answer an intrusion into one of the mover's bridges by the opponent's
/// last stone (`Position::bridge_reply`), else uniform random. The random
/// draws are those of `tactical_rollout` minus the moves the new rule
/// decides.
pub fn bridge_rollout(
    start: &Position,
    rng: &mut FastRng,
    record: &mut PlayoutRecord,
    ownership: &mut [i8],
) -> PlayoutResult {
    policy_rollout::<true>(start, rng, record, ownership)
}

fn policy_rollout<const BRIDGES: bool>(
    start: &Position,
    rng: &mut FastRng,
    record: &mut PlayoutRecord,
    ownership: &mut [i8],
) -> PlayoutResult {
    let mut pos = start.clone();
    let mut empty = [0u16; MAX_CELLS];
    let mut left = pos.empty_cells_into(&mut empty);
    // slot[cell]: where the cell sits in `empty`, for O(1) removal of a
    // chosen (not random) cell.
    let mut slot = [0u16; MAX_CELLS];
    for (i, &c) in empty[..left].iter().enumerate() {
        slot[c as usize] = i as u16;
    }
    // The last stone of each colour, by colour index.
    let mut last: [Option<Cell>; 2] = [None, None];
    if let Some(Move::Play(c)) = pos.last_move() {
        last[pos.to_move().opponent().index()] = Some(c);
    }
    let mut moves = 0u32;
    let mut first = true;
    while pos.winner().is_none() && left > 0 {
        let me = pos.to_move();
        let them = me.opponent();
        let forced = if first {
            first = false;
            pos.winning_cell(me).or_else(|| pos.winning_cell(them))
        } else {
            last[me.index()]
                .and_then(|c| win_next_to(&pos, c, me))
                .or_else(|| last[them.index()].and_then(|c| win_next_to(&pos, c, them)))
        };
        let forced = match (forced, last[them.index()]) {
            (None, Some(c)) if BRIDGES => pos.bridge_reply(c, me),
            _ => forced,
        };
        let i = match forced {
            Some(c) => slot[c.0 as usize] as usize,
            None => rng.below(left as u32) as usize,
        };
        let c = empty[i];
        left -= 1;
        empty[i] = empty[left];
        slot[empty[i] as usize] = i as u16;
        moves += 1;
        record.note(c as usize, me);
        pos.play_cell_unchecked(Cell(c));
        last[me.index()] = Some(Cell(c));
    }
    super::havannah_rollout::finish(&pos, ownership, moves)
}

/// Tree priors: a move that wins at once is a sure win; when the opponent
/// has a winning cell and the mover none, every move but a block is a sure
/// loss; when neither has one, the double-threat facts of
/// `havannah_frames`. Other moves (and swap) get no prior.
pub fn tactical_priors(pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
    out.clear();
    out.resize(moves.len(), Prior::default());
    if pos.outcome().is_some() {
        return;
    }
    let me = pos.to_move();
    let threat = pos.winning_cell(me.opponent());
    let mut have_win = false;
    for (mv, prior) in moves.iter().zip(out.iter_mut()) {
        if let Move::Play(c) = *mv {
            if pos.wins_at(c, me) {
                have_win = true;
                *prior = Prior {
                    wins: TACTIC_PRIOR_VISITS,
                    visits: TACTIC_PRIOR_VISITS,
                    bias: 0.0,
                };
            }
        }
    }
    if have_win {
        return;
    }
    // No winning cell on either side: one move deeper, the double threats
    // (`havannah_frames`). A local form (moves within two steps of the last
    // move, 40 won playouts for making or taking a frame cell) changed
    // nothing against Castro (docs/havannah-strength.md); these are found
    // on the whole board and carry the weight of the facts above.
    let Some(_) = threat else {
        if !super::havannah_frames::frame_priors(pos, moves, TACTIC_PRIOR_VISITS, out) && SHAPE {
            super::havannah_shape::shape_priors(pos, moves, out);
        }
        return;
    };
    let them = me.opponent();
    for (mv, prior) in moves.iter().zip(out.iter_mut()) {
        let blocks = matches!(*mv, Move::Play(c) if pos.wins_at(c, them));
        if !blocks {
            *prior = Prior {
                wins: 0.0,
                visits: TACTIC_PRIOR_VISITS,
                bias: 0.0,
            };
        }
    }
}

#[cfg(test)]
mod hostcheck;

#[cfg(test)]
mod tests {
    use super::*;

    fn at(pos: &Position, name: &str) -> Cell {
        pos.parse_cell(name).unwrap()
    }

    fn play(pos: &mut Position, names: &[&str]) {
        for name in names {
            let c = at(pos, name);
            pos.play(Move::Play(c)).unwrap();
        }
    }

    fn playout(pos: &Position, seed: u64) -> (PlayoutResult, PlayoutRecord) {
        let mut rng = FastRng::new(seed);
        let mut record = PlayoutRecord::default();
        record.reset(pos.move_space());
        let mut owner = vec![0i8; pos.cell_space()];
        (
            tactical_rollout(pos, &mut rng, &mut record, &mut owner),
            record,
        )
    }

    /// White a1 a2 on side 3 (a3 bridges), Black to move far away.
    fn white_threatens_a3() -> Position {
        let mut pos = Position::new(3).unwrap();
        pos.set_swap_allowed(false);
        play(&mut pos, &["a1", "c1", "a2"]);
        pos
    }

    #[test]
    fn playouts_block_a_single_threat_and_take_a_win() {
        let pos = white_threatens_a3();
        let a3 = at(&pos, "a3");
        for seed in 0..50 {
            let (_, record) = playout(&pos, seed);
            assert_eq!(
                record.first[a3.0 as usize],
                Some(Color::Black),
                "seed {seed}"
            );
        }
        // With White to move instead, White takes it and wins at once.
        let mut pos = white_threatens_a3();
        play(&mut pos, &["e5"]);
        for seed in 0..20 {
            let (result, _) = playout(&pos, seed);
            assert_eq!((result.winner, result.moves), (Some(Color::White), 1));
        }
    }

    #[test]
    fn tactical_playouts_keep_the_uniform_fill_bookkeeping() {
        for side in [4, 8, 10] {
            let start = Position::new(side).unwrap();
            for seed in 0..10 {
                let (result, record) = playout(&start, seed);
                let placed = record.first.iter().filter(|f| f.is_some()).count();
                assert_eq!(placed as u32, result.moves);
                if result.winner.is_none() {
                    assert_eq!(placed, start.num_cells(), "a draw fills the board");
                }
            }
        }
    }

    #[test]
    fn priors_favour_the_win_then_force_the_block() {
        let pos = white_threatens_a3();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut priors = Vec::new();
        tactical_priors(&pos, &moves, &mut priors);
        let a3 = Move::Play(at(&pos, "a3"));
        for (mv, p) in moves.iter().zip(&priors) {
            if *mv == a3 {
                assert_eq!(*p, Prior::default(), "the block is left to the search");
            } else {
                assert_eq!((p.wins, p.visits), (0.0, TACTIC_PRIOR_VISITS), "{mv:?}");
            }
        }
        let mut pos = white_threatens_a3();
        play(&mut pos, &["e5"]);
        pos.legal_moves(&mut moves);
        tactical_priors(&pos, &moves, &mut priors);
        let won: Vec<Move> = moves
            .iter()
            .zip(&priors)
            .filter(|(_, p)| p.wins == TACTIC_PRIOR_VISITS)
            .map(|(m, _)| *m)
            .collect();
        assert_eq!(won, vec![a3]);
        assert!(priors.iter().all(|p| p.wins == p.visits));
    }

    #[test]
    fn priors_decide_nothing_when_nothing_is_at_stake() {
        let pos = Position::new(8).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut priors = Vec::new();
        tactical_priors(&pos, &moves, &mut priors);
        assert_eq!(priors.len(), moves.len());
        // No fact decides a move; at most the shape bias of
        // `havannah_shape` (edges and corners) steers the first visits.
        assert!(priors.iter().all(|p| p.wins == 0.0 && p.visits == 0.0));
        let centre = Move::Play(pos.parse_cell("h8").unwrap());
        let i = moves.iter().position(|m| *m == centre).unwrap();
        assert_eq!(priors[i].bias, 0.0);
    }
}
