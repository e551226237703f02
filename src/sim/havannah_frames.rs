//! Double-threat knowledge for Havannah's tree priors: the cells that give
//! a player two winning cells at once (ring frames, forks and bridges in
//! the making), found on the whole board.
//!
//! Nearly every loss to Castro (Ewalds' engine) came from such a threat,
//! and in most of them one cell a move earlier would have stopped it
//! (docs/havannah-strength.md). The single-threat rules of
//! `havannah_tactics` (win, else block) see it one move too late, and the
//! uniform or tactical playouts rarely find the frame cell among a hundred
//! others, so the tree is told the two facts that follow from the rules:
//!
//! - a move that makes a double threat when the opponent has no winning
//!   cell wins by force (the opponent blocks one cell, the other wins);
//! - when the opponent has a double-threat cell, a move that does not stop
//!   every such cell loses by force, unless it makes a threat of its own
//!   that the opponent must answer first. Such a forcing move only delays:
//!   after the block the same cells must still be stopped, and the block
//!   is one more opponent stone. Left open, the search liked them (a
//!   threat looks good to playouts that never find the frame cell) and
//!   played them instead of the saving cell, so they are marked lost too.

use super::Prior;
use crate::game::havannah::{DoubleThreat, Move, Position};
use crate::game::Game;

/// The two facts above as priors, for a position where neither player has
/// a winning cell (the caller checked): returns false, leaving `out`
/// untouched, when neither applies. `out` has one entry per move, `visits`
/// virtual playouts on each move a fact decides.
pub fn frame_priors(pos: &Position, moves: &[Move], visits: f32, out: &mut [Prior]) -> bool {
    let me = pos.to_move();
    let mut threats = Vec::new();
    pos.double_threats(me, &mut threats);
    if !threats.is_empty() {
        for (mv, prior) in moves.iter().zip(out.iter_mut()) {
            if matches!(*mv, Move::Play(c) if threats.iter().any(|t| t.frame == c)) {
                *prior = Prior {
                    wins: visits,
                    visits,
                    bias: 0.0,
                    ..Prior::default()
                };
            }
        }
        return true;
    }
    pos.double_threats(me.opponent(), &mut threats);
    if threats.is_empty() {
        return false;
    }
    for (mv, prior) in moves.iter().zip(out.iter_mut()) {
        if !saves(&threats, *mv) {
            *prior = Prior {
                wins: 0.0,
                visits,
                bias: 0.0,
                ..Prior::default()
            };
        }
    }
    true
}

/// Whether `mv` stops every one of the opponent's `threats`.
fn saves(threats: &[DoubleThreat], mv: Move) -> bool {
    matches!(mv, Move::Play(c) if threats.iter().all(|t| t.stopped_by(c)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::havannah::Cell;
    use crate::game::Color;

    const POSITIONS: &str = include_str!("../../tests/data/havannah/double-threats.txt");

    /// The data file's positions: (name, position, saving cells).
    pub(crate) fn positions() -> Vec<(String, Position, Vec<Cell>)> {
        let mut out = Vec::new();
        for line in POSITIONS.lines() {
            let line = line.split('#').next().unwrap();
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.is_empty() {
                continue;
            }
            let mut pos = Position::new(fields[1].parse().unwrap()).unwrap();
            pos.set_swap_allowed(false);
            for name in &fields[3..] {
                let c = pos.parse_cell(name).unwrap();
                pos.play(Move::Play(c)).unwrap();
            }
            let saving = fields[2]
                .split(',')
                .map(|n| pos.parse_cell(n).unwrap())
                .collect();
            out.push((fields[0].to_string(), pos, saving));
        }
        out
    }

    /// The saving sets of the check's positions follow from the rules:
    /// nobody has a winning cell, the opponent has exactly one
    /// double-threat cell, and the listed cells are exactly the moves after
    /// which it has none.
    #[test]
    fn the_data_files_saving_cells_are_exactly_the_moves_that_stop_the_threat() {
        let all = positions();
        assert_eq!(all.len(), 10);
        let mut threats = Vec::new();
        for (name, pos, saving) in all {
            let me = pos.to_move();
            assert!(pos.winning_cell(me).is_none(), "{name}");
            assert!(pos.winning_cell(me.opponent()).is_none(), "{name}");
            pos.double_threats(me.opponent(), &mut threats);
            assert_eq!(threats.len(), 1, "{name}");
            let mut stops = Vec::new();
            for c in pos.cells().filter(|&c| pos.is_empty(c)) {
                let mut after = pos.clone();
                after.play_cell_unchecked(c);
                after.double_threats(me.opponent(), &mut threats);
                if threats.is_empty() {
                    stops.push(c);
                }
            }
            let mut saving = saving;
            saving.sort();
            assert_eq!(stops, saving, "{name}");
        }
    }

    /// In every check position the priors leave the saving cells open and
    /// mark every other move lost.
    #[test]
    fn priors_mark_every_move_but_the_saving_ones_lost() {
        for (name, pos, saving) in positions() {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let mut priors = vec![Prior::default(); moves.len()];
            assert!(frame_priors(&pos, &moves, 100.0, &mut priors), "{name}");
            for (mv, p) in moves.iter().zip(&priors) {
                let Move::Play(c) = *mv else { continue };
                if saving.contains(&c) {
                    assert_eq!(*p, Prior::default(), "{name} {}", pos.cell_name(c));
                } else {
                    assert_eq!((p.wins, p.visits), (0.0, 100.0), "{name}");
                }
            }
        }
    }

    /// A stone two steps from its group at a corner leaves the two cells
    /// between them as winning cells: a double threat, so a sure win.
    #[test]
    fn a_corner_stone_two_steps_from_its_group_is_a_won_double_threat() {
        // Side 4: White's chain from corner a1 runs along row b to b4,
        // Black far away; White on the corner a4? Checked generally below:
        // every frame cell the priors mark won does leave two winning cells.
        let mut pos = Position::new(4).unwrap();
        pos.set_swap_allowed(false);
        for name in ["a1", "d4", "b2", "d5", "b3", "d3"] {
            let c = pos.parse_cell(name).unwrap();
            pos.play(Move::Play(c)).unwrap();
        }
        assert_eq!(pos.to_move(), Color::White);
        assert!(pos.winning_cell(Color::White).is_none());
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut priors = vec![Prior::default(); moves.len()];
        assert!(frame_priors(&pos, &moves, 100.0, &mut priors));
        let won: Vec<String> = moves
            .iter()
            .zip(&priors)
            .filter(|(_, p)| p.wins == 100.0)
            .map(|(m, _)| match m {
                Move::Play(c) => pos.cell_name(*c),
                Move::Swap => "swap".into(),
            })
            .collect();
        assert!(won.contains(&"a4".to_string()), "{won:?}\n{pos:?}");
        for (mv, p) in moves.iter().zip(&priors) {
            if p.wins == 100.0 {
                let Move::Play(c) = *mv else { panic!() };
                let mut after = pos.clone();
                after.play_cell_unchecked(c);
                let wins = after
                    .cells()
                    .filter(|&w| after.wins_at(w, Color::White))
                    .count();
                assert!(wins >= 2, "{}", pos.cell_name(c));
            }
        }
    }
}
