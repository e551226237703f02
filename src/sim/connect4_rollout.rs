//! The Connect Four playout policy: a stone that makes four is played at
//! once, a stone that stops the opponent's four next; otherwise a random
//! column. Uniform random play misses one-move wins so often that the
//! tree's values mean little; these two rules cost one bitboard test each.

use super::{FastRng, PlayoutRecord, PlayoutResult, Rollout};
use crate::game::connect4::Position;
use crate::game::{Color, Game, Outcome};

impl Rollout for Position {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut pos = *self;
        let mut moves = 0u32;
        while pos.outcome().is_none() {
            let possible = pos.possible();
            let wins = pos.winning_cells() & possible;
            let blocks = pos.opponent_winning_cells() & possible;
            let choices = if wins != 0 {
                wins
            } else if blocks != 0 {
                blocks
            } else {
                possible
            };
            let pick = rng.below(choices.count_ones());
            let mut rest = choices;
            for _ in 0..pick {
                rest &= rest - 1;
            }
            let cell = rest & rest.wrapping_neg();
            let column = pos.shape().column_of(cell);
            record.note(column, pos.to_move());
            pos.play_cell(cell);
            moves += 1;
        }
        let width = pos.width();
        for (i, own) in ownership.iter_mut().enumerate() {
            let (row, column) = (i / width, i % width);
            *own = match (row < pos.height())
                .then(|| pos.stone_at(column, row))
                .flatten()
            {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
        }
        let winner = match pos.outcome() {
            Some(Outcome::Win(c)) => Some(c),
            _ => None,
        };
        PlayoutResult {
            winner,
            score: match winner {
                Some(Color::Black) => 1.0,
                Some(Color::White) => -1.0,
                None => 0.0,
            },
            moves,
        }
    }
}
