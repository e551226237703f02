//! The Hex playout policy: uniform random moves until the board is full.
//!
//! A Hex board filled to the last cell has exactly one winner, and a
//! connection once made is never broken, so the winner of the full board is
//! the winner of the game: the playout fills every empty cell in a random
//! order, alternating colours, and then asks one flood fill who connected,
//! instead of testing for a win after every move. The swap is never chosen
//! in a playout.

use super::{FastRng, PlayoutRecord, PlayoutResult, Rollout};
use crate::game::hex::{Cell, Position};
use crate::game::{Color, Game};

/// Cells of the largest board.
const MAX_CELLS: usize = Position::MAX_SIZE * Position::MAX_SIZE;

impl Rollout for Position {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let n = self.num_cells();
        // Per cell: +1 Black, -1 White, 0 empty.
        let mut board = [0i8; MAX_CELLS];
        for (i, slot) in board.iter_mut().enumerate().take(n) {
            *slot = match self.color_at(Cell(i as u16)) {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
        }
        let mut moves = 0u32;
        if self.outcome().is_none() {
            let mut empty = [0u16; MAX_CELLS];
            let mut left = self.empty_cells_into(&mut empty);
            let mut color = self.to_move();
            while left > 0 {
                let i = rng.below(left as u32) as usize;
                let c = empty[i];
                left -= 1;
                empty[i] = empty[left];
                record.note(c as usize, color);
                board[c as usize] = if color == Color::Black { 1 } else { -1 };
                color = color.opponent();
                moves += 1;
            }
        }
        for (i, own) in ownership.iter_mut().enumerate() {
            *own = if i < n { board[i] } else { 0 };
        }
        // A finished game may leave cells empty: its winner is known.
        let winner = self
            .winner()
            .unwrap_or_else(|| full_board_winner(self, &board));
        PlayoutResult {
            winner: Some(winner),
            score: if winner == Color::Black { 1.0 } else { -1.0 },
            moves,
        }
    }
}

/// Who connected on a full `board`: Black if a Black chain runs from the
/// top row to the bottom one, else White (whose left-right chain is then
/// what blocks it).
fn full_board_winner(pos: &Position, board: &[i8; MAX_CELLS]) -> Color {
    let size = pos.size();
    let mut seen = [false; MAX_CELLS];
    let mut stack = [0u16; MAX_CELLS];
    let mut top = 0;
    for (column, slot) in seen.iter_mut().enumerate().take(size) {
        if board[column] == 1 {
            *slot = true;
            stack[top] = column as u16;
            top += 1;
        }
    }
    let mut around = [Cell(0); 6];
    while top > 0 {
        top -= 1;
        let c = Cell(stack[top]);
        if c.0 as usize / size == size - 1 {
            return Color::Black;
        }
        let k = pos.neighbours(c, &mut around);
        for &m in &around[..k] {
            let i = m.0 as usize;
            if board[i] == 1 && !seen[i] {
                seen[i] = true;
                stack[top] = m.0;
                top += 1;
            }
        }
    }
    Color::White
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hex::Move;
    use crate::game::Outcome;
    use crate::sim::cpu::CpuSimulator;
    use crate::sim::{LeafStats, Simulator};

    fn playout(pos: &Position, seed: u64) -> (PlayoutResult, PlayoutRecord, Vec<i8>) {
        let mut rng = FastRng::new(seed);
        let mut record = PlayoutRecord::default();
        record.reset(pos.move_space());
        let mut owner = vec![7i8; pos.cell_space()];
        let result = pos.rollout(&mut rng, &mut record, &mut owner);
        (result, record, owner)
    }

    /// Replays the playout's first plays as a game: the rules' forest must
    /// name the same winner as the playout's flood fill.
    #[test]
    fn playouts_fill_the_board_and_agree_with_the_rules() {
        for size in 1..=11 {
            let start = Position::new(size).unwrap();
            for seed in 0..20 {
                let (result, record, owner) = playout(&start, seed);
                assert!(owner.iter().all(|&o| o == 1 || o == -1), "board full");
                let blacks = owner.iter().filter(|&&o| o == 1).count();
                assert!(blacks == owner.len() - blacks || blacks == owner.len() - blacks + 1);
                assert_eq!(record.first[start.num_cells()], None, "no swap");
                let mut replay = start.clone();
                replay.set_swap_allowed(false);
                let mut cells: Vec<usize> = (0..start.num_cells()).collect();
                // Black's and White's stones alternate from Black; any
                // order of each colour's own stones gives the same board.
                let (mut b, mut w): (Vec<usize>, Vec<usize>) =
                    cells.drain(..).partition(|&i| owner[i] == 1);
                while replay.outcome().is_none() {
                    let list = if replay.to_move() == Color::Black {
                        &mut b
                    } else {
                        &mut w
                    };
                    let i = list.pop().unwrap();
                    replay.play(Move::Play(Cell(i as u16))).unwrap();
                }
                assert_eq!(replay.outcome(), result.winner.map(Outcome::Win));
                assert_eq!(
                    result.score,
                    if result.winner == Some(Color::Black) {
                        1.0
                    } else {
                        -1.0
                    }
                );
            }
        }
    }

    #[test]
    fn a_finished_game_is_reported_as_it_stands() {
        let mut pos = Position::new(2).unwrap();
        for name in ["a1", "b1", "a2"] {
            let c = pos.parse_cell(name).unwrap();
            pos.play(Move::Play(c)).unwrap();
        }
        assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
        let (result, record, owner) = playout(&pos, 3);
        assert_eq!((result.winner, result.moves), (Some(Color::Black), 0));
        assert!(record.first.iter().all(Option::is_none));
        assert_eq!(owner, [1, -1, 1, 0]);
    }

    #[test]
    fn cpu_simulator_runs_hex_leaves_deterministically() {
        let leaves = vec![Position::new(11).unwrap(); 2];
        let sim = CpuSimulator::<Position>::new();
        let mut a = vec![LeafStats::default(), LeafStats::default()];
        let mut b = a.clone();
        sim.simulate(&leaves, 50, 9, &mut a);
        sim.simulate(&leaves, 50, 9, &mut b);
        assert_eq!(a[0].playouts, 50);
        assert_eq!(a[0].black_wins, b[0].black_wins);
        assert_eq!(a[1].ownership, b[1].ownership);
        assert_eq!(a[0].ownership.len(), 121);
        // Every playout fills all 121 cells: each one's first play counts.
        let first_plays: u32 = a[0].amaf.iter().map(|c| c[0].plays + c[1].plays).sum();
        assert_eq!(first_plays, 50 * 121);
    }
}
