//! Havannah's tactical playout policies and tree priors. Two levels:
//! `tactical_rollout` (win, else block), and `bridge_rollout` (the same,
//! then restore an intruded bridge), `Rollout::engine_rollout`: the CPU
//! engine's search policy since it scored 52% to 44% against Castro
//! (docs/havannah-strength.md), and the GPU kernels' (`kernels/havannah.cu`
//! `hex_tactical_S` plays it move for move; the packed kernels with their
//! own uniform pick). The uniform fill of `havannah_rollout` stays
//! available. A tactical playout that ends in a ring alone scores as a
//! draw (`havannah_rollout::Rings`).
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

use super::havannah_rollout::Rings;
use super::{FastRng, PlayoutRecord, PlayoutResult, Prior, Verdict};
use crate::game::havannah::{Cell, Move, Position, MAX_CELLS};
use crate::game::Game;

/// Virtual playouts a tree prior puts on a move that wins at once (all won)
/// or that leaves the opponent's winning cell open (all lost). Large, so
/// that the AMAF statistics of thousands of playouts cannot outvote a fact.
const TACTIC_PRIOR_VISITS: f32 = 1000.0;

/// The tactical playout: win, else block, else a uniform random empty cell.
/// Same bookkeeping (AMAF record, ownership, result) as the uniform fill.
/// (`bench` times it beside the bridge playout.)
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
/// decides. The GPU kernels' reference policy: what it plays and how it
/// draws random numbers stay fixed.
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
    // `none_next_to[colour]`: that colour has no winning cell next to its
    // last stone, as the previous move's block test found. The stone played
    // since is the opponent's, which only takes an empty cell, so the test
    // would find none again: skipping it halves the `wins_at` calls, which
    // were 40% of a side-8 search (the playouts are the same).
    let mut none_next_to = [false; 2];
    let mut moves = 0u32;
    let mut first = true;
    while pos.winner().is_none() && left > 0 {
        let me = pos.to_move();
        let them = me.opponent();
        let forced = if first {
            first = false;
            pos.winning_cell(me).or_else(|| pos.winning_cell(them))
        } else {
            let win = match none_next_to[me.index()] {
                true => None,
                false => last[me.index()].and_then(|c| pos.win_next_to(c, me)),
            };
            win.or_else(|| {
                let block = last[them.index()].and_then(|c| pos.win_next_to(c, them));
                none_next_to[them.index()] = block.is_none();
                block
            })
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
        none_next_to[me.index()] = false;
    }
    super::havannah_rollout::finish(&pos, ownership, moves, Rings::Draw)
}

/// Tree priors: a move that wins at once is a sure win; when the opponent
/// has a winning cell and the mover none, every move but a block is a sure
/// loss, and with two such cells every move is; when neither has one, the
/// double-threat facts of `havannah_frames`. Other moves (and swap) get no
/// prior. The sure wins and losses are exact, so they carry verdicts
/// (`Verdict`): the tree proves a node whose opponent holds two winning
/// cells at once, and a forced block is its node's only move, where before
/// the lost moves' AMAF means drew visits once thousands of samples
/// outweighed the prior (docs/havannah-strength.md). The double-threat
/// facts stay priors: the tree proves them itself one move deeper.
pub fn tactical_priors(pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
    out.clear();
    out.resize(moves.len(), Prior::default());
    if pos.outcome().is_some() {
        return;
    }
    let me = pos.to_move();
    let won = Prior {
        wins: TACTIC_PRIOR_VISITS,
        visits: TACTIC_PRIOR_VISITS,
        bias: 0.0,
        verdict: Verdict::Won,
    };
    let lost = Prior {
        wins: 0.0,
        visits: TACTIC_PRIOR_VISITS,
        bias: 0.0,
        verdict: Verdict::Lost,
    };
    let mut have_win = false;
    for (mv, prior) in moves.iter().zip(out.iter_mut()) {
        if matches!(*mv, Move::Play(c) if pos.wins_at(c, me)) {
            have_win = true;
            *prior = won;
        }
    }
    if have_win {
        return;
    }
    // The opponent's winning cells, in the same pass that marks every other
    // move lost (one `wins_at` a move: a separate `winning_cell` scan first
    // would test them twice when there is a threat).
    let them = me.opponent();
    let mut blocks = 0;
    for (mv, prior) in moves.iter().zip(out.iter_mut()) {
        if matches!(*mv, Move::Play(c) if pos.wins_at(c, them)) {
            blocks += 1;
        } else {
            *prior = lost;
        }
    }
    match blocks {
        // No winning cell on either side: one move deeper, the double
        // threats (`havannah_frames`). A local form (moves within two steps
        // of the last move, 40 won playouts for making or taking a frame
        // cell) changed nothing against Castro (docs/havannah-strength.md);
        // these are found on the whole board and carry the weight of the
        // facts above.
        0 => {
            out.fill(Prior::default());
            super::havannah_frames::frame_priors(pos, moves, TACTIC_PRIOR_VISITS, out);
        }
        1 => {}
        // One stone takes one cell; a win at the other is still there. The
        // blocks keep no prior, so that a lost root that plays on tries one.
        _ => {
            for prior in out.iter_mut() {
                prior.verdict = Verdict::Lost;
            }
        }
    }
}

#[cfg(test)]
mod hostcheck;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;

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

    /// White d4 and f5 are a bridge over e4 and e5; Black has just cut in
    /// at e4. With no win or threat on the board, the bridge policy's first
    /// move restores the link at e5 every time; the reference policy (the
    /// kernels') does not know the rule.
    #[test]
    fn bridge_playouts_restore_an_intruded_bridge() {
        let mut pos = Position::new(8).unwrap();
        pos.set_swap_allowed(false);
        play(&mut pos, &["d4", "h12", "f5", "e4"]);
        let e5 = at(&pos, "e5");
        assert_eq!(pos.bridge_reply(at(&pos, "e4"), Color::White), Some(e5));
        let mut restored = [0; 2];
        for seed in 0..40 {
            for (k, policy) in [bridge_rollout, tactical_rollout].iter().enumerate() {
                let mut rng = FastRng::new(seed);
                let mut record = PlayoutRecord::default();
                record.reset(pos.move_space());
                let mut owner = vec![0i8; pos.cell_space()];
                policy(&pos, &mut rng, &mut record, &mut owner);
                // The restoring move is White's first, so e5 is White's in
                // every bridge playout; in the reference policy only when
                // White's random moves reach it before Black's.
                let first_white = record.first[e5.0 as usize] == Some(Color::White);
                restored[k] += first_white as usize;
            }
        }
        assert_eq!(restored[0], 40, "bridge policy");
        assert!(restored[1] < 40, "reference policy: {}", restored[1]);
    }

    /// The policy as written before the skipped win test: every move tests
    /// the neighbours of both last stones.
    fn every_test_rollout(start: &Position, bridges: bool, rng: &mut FastRng) -> Vec<u16> {
        let mut pos = start.clone();
        let mut empty = [0u16; MAX_CELLS];
        let mut left = pos.empty_cells_into(&mut empty);
        let mut last: [Option<Cell>; 2] = [None, None];
        if let Some(Move::Play(c)) = pos.last_move() {
            last[pos.to_move().opponent().index()] = Some(c);
        }
        let mut played = Vec::new();
        while pos.winner().is_none() && left > 0 {
            let (me, them) = (pos.to_move(), pos.to_move().opponent());
            let forced = if played.is_empty() {
                pos.winning_cell(me).or_else(|| pos.winning_cell(them))
            } else {
                last[me.index()]
                    .and_then(|c| pos.win_next_to(c, me))
                    .or_else(|| last[them.index()].and_then(|c| pos.win_next_to(c, them)))
            };
            let forced = match (forced, last[them.index()]) {
                (None, Some(c)) if bridges => pos.bridge_reply(c, me),
                _ => forced,
            };
            let i = match forced {
                Some(c) => empty[..left].iter().position(|&e| e == c.0).unwrap(),
                None => rng.below(left as u32) as usize,
            };
            let c = empty[i];
            left -= 1;
            empty[i] = empty[left];
            played.push(c);
            pos.play_cell_unchecked(Cell(c));
            last[me.index()] = Some(Cell(c));
        }
        played
    }

    type Policy = fn(&Position, &mut FastRng, &mut PlayoutRecord, &mut [i8]) -> PlayoutResult;

    /// Skipping the win test that the previous move's block test answered
    /// plays the same playouts: the same cells in the same order, from
    /// positions along random games of three sizes, both policies.
    #[test]
    fn skipped_win_tests_play_the_same_playouts() {
        let mut checked = 0;
        for side in [4, 8, 10] {
            let mut game = Position::new(side).unwrap();
            game.set_swap_allowed(false);
            let mut rng = FastRng::new(side as u64);
            let mut legal = Vec::new();
            for ply in 0..60 {
                for seed in 0..6 {
                    for (bridges, policy) in
                        [(false, tactical_rollout as Policy), (true, bridge_rollout)]
                    {
                        let mut record = PlayoutRecord::default();
                        record.reset(game.move_space());
                        let mut owner = vec![0i8; game.cell_space()];
                        let mut a = FastRng::new(seed);
                        let result = policy(&game, &mut a, &mut record, &mut owner);
                        let mut b = FastRng::new(seed);
                        let played = every_test_rollout(&game, bridges, &mut b);
                        assert_eq!(result.moves as usize, played.len(), "side {side} ply {ply}");
                        for (k, &c) in played.iter().enumerate() {
                            // Colours alternate from the side to move.
                            let colour = match k % 2 {
                                0 => game.to_move(),
                                _ => game.to_move().opponent(),
                            };
                            assert_eq!(
                                record.first[c as usize],
                                Some(colour),
                                "side {side} ply {ply}"
                            );
                        }
                        checked += 1;
                    }
                }
                game.legal_moves(&mut legal);
                legal.retain(|m| matches!(m, Move::Play(_)));
                let mut next = game.clone();
                next.play_unchecked(legal[rng.below(legal.len() as u32) as usize]);
                if next.outcome().is_some() {
                    break;
                }
                game = next;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn tactical_playouts_keep_the_uniform_fill_bookkeeping() {
        for side in [4, 8, 10] {
            let start = Position::new(side).unwrap();
            for seed in 0..10 {
                let (result, record) = playout(&start, seed);
                let placed = record.first.iter().filter(|f| f.is_some()).count();
                assert_eq!(placed as u32, result.moves);
                if result.winner.is_none() && placed < start.num_cells() {
                    assert_eq!(result.score, 0.0, "a ring alone ends a playout drawn");
                }
            }
        }
    }

    /// The first player's five stones around d4 on side 4 (no edge or
    /// corner near): the sixth cell closes a ring and nothing else. With
    /// that player to move the tactical playout takes it at once, and the
    /// playout is a draw.
    #[test]
    fn a_ring_alone_ends_a_tactical_playout_drawn() {
        let mut pos = Position::new(4).unwrap();
        pos.set_swap_allowed(false);
        let centre = at(&pos, "d4");
        let ring: Vec<Cell> = pos.neighbours(centre).collect();
        assert_eq!(ring.len(), 6);
        let ringer = pos.to_move();
        let far = ["a1", "a4", "d1", "g4", "g7"];
        for (&c, name) in ring[..5].iter().zip(far) {
            pos.play_cell_unchecked(c);
            pos.play_cell_unchecked(at(&pos, name));
        }
        let closing = ring[5];
        let mut won = pos.clone();
        won.play_cell_unchecked(closing);
        assert!(won.won_by_ring_alone());
        for seed in 0..20 {
            let (result, record) = playout(&pos, seed);
            assert_eq!(result.moves, 1);
            assert_eq!(record.first[closing.0 as usize], Some(ringer));
            assert_eq!((result.winner, result.score), (None, 0.0));
        }
        // The uniform fill keeps the rules' result.
        let mut owner = vec![0i8; pos.cell_space()];
        let result = super::super::havannah_rollout::finish(&won, &mut owner, 1, Rings::Win);
        assert_eq!(result.winner, Some(ringer));
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
                assert_eq!(p.verdict, Verdict::Lost, "{mv:?}");
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
        for (mv, p) in moves.iter().zip(&priors) {
            let verdict = if *mv == a3 {
                Verdict::Won
            } else {
                Verdict::Open
            };
            assert_eq!(p.verdict, verdict, "{mv:?}");
        }
    }

    #[test]
    fn priors_are_empty_when_nothing_is_at_stake() {
        let pos = Position::new(8).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut priors = Vec::new();
        tactical_priors(&pos, &moves, &mut priors);
        assert_eq!(priors.len(), moves.len());
        assert!(priors.iter().all(|p| *p == Prior::default()));
    }
}
