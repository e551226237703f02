//! The search-facing interface: [`Game`] for [`Position`].

use super::board::stone;
use super::zobrist::{KEYS, WHITE_TO_MOVE};
use super::{Move, Point, Position};
use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome, OwnershipSums};

impl Game for Position {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Color {
        self.to_move
    }

    /// Legal moves for the side to move with positional superko, except
    /// filling one's own one-point eyes, then pass. Empty once the game is
    /// over.
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        let own = stone(self.to_move);
        for p in self.board.points() {
            if self.board.is_legal(own, p)
                && !self.board.is_eye(own, p)
                && !self.repeats_position(own, p)
            {
                out.push(Move::Play(Point(p as u16)));
            }
        }
        out.push(Move::Pass);
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.outcome().is_none() && self.is_legal_as(self.to_move, mv)
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove<Move>> {
        if self.outcome().is_some() {
            return Err(IllegalMove {
                mv,
                reason: IllegalReason::GameOver,
            });
        }
        self.play_as(self.to_move, mv)
    }

    /// No superko check; the move must be legal otherwise.
    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Pass => self.apply_pass(self.to_move),
            Move::Play(p) => self.apply_play(self.to_move, p.0 as usize),
        }
    }

    /// After two consecutive passes: the sign of the area score with komi.
    fn outcome(&self) -> Option<Outcome> {
        if self.passes < 2 {
            return None;
        }
        Some(outcome_of(self.area_score()))
    }

    /// After two consecutive passes: the sign of the area score with komi,
    /// dead strings taken off ([`Position::area_score_judged`]).
    fn judged_outcome(&self, owners: OwnershipSums<'_>) -> Option<Outcome> {
        if self.passes < 2 {
            return None;
        }
        Some(outcome_of(self.area_score_judged(owners)))
    }

    /// No UCB term on 13 lines and more: the tree's choice there is left
    /// to RAVE and the big-board priors. With the search's default (0.2)
    /// a 13x13 root stayed nearly flat over its moves, the best taking 1–10%
    /// of 20,000 playouts, and the engine won 4 of 30 games against GNU Go
    /// level 10 where 0 won 25 (10,000 playouts a move, the same seeds;
    /// `docs/go-big-boards.md`). 9x9 keeps the default it was measured with.
    fn exploration(&self) -> Option<f64> {
        (self.size() >= super::BIG_BOARD_LINES).then_some(0.0)
    }

    /// Stones, side to move and the simple-ko point.
    fn hash(&self) -> u64 {
        let mut hash = self.board.hash();
        if self.to_move == Color::White {
            hash ^= WHITE_TO_MOVE;
        }
        if let Some((ko, _)) = self.board.ko() {
            hash ^= KEYS[0][ko];
        }
        hash
    }

    /// Points row-major from the bottom-left (`row * size + col`), then pass.
    #[inline]
    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Pass => self.size() * self.size(),
            Move::Play(p) => self.board.dense_index(p.0 as usize),
        }
    }

    #[inline]
    fn move_space(&self) -> usize {
        self.size() * self.size() + 1
    }

    /// The point's row-major index, as in [`move_index`](Self::move_index).
    #[inline]
    fn move_cell(&self, mv: Move) -> Option<usize> {
        match mv {
            Move::Pass => None,
            Move::Play(p) => Some(self.cell_of(p)),
        }
    }

    #[inline]
    fn cell_space(&self) -> usize {
        self.size() * self.size()
    }

    fn pass_move(&self) -> Option<Move> {
        Some(Move::Pass)
    }
}

impl Position {
    /// The cell index of point `p` (row-major from the bottom-left), the
    /// index of ownership tables and heat maps.
    #[inline]
    pub fn cell_of(&self, p: Point) -> usize {
        self.board.dense_index(p.0 as usize)
    }
}

/// Who wins by a final score (Black minus White, komi included).
fn outcome_of(score: f32) -> Outcome {
    if score > 0.0 {
        Outcome::Win(Color::Black)
    } else if score < 0.0 {
        Outcome::Win(Color::White)
    } else {
        Outcome::Draw
    }
}
