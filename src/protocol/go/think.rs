//! genmove and friends: run a search on its own thread, turn the result
//! into a move.

use super::GoSession;
use crate::engine::think::OnInput;
use crate::engine::think::{Stream, Thought};
use crate::game::go::{Move, Position};
use crate::game::{Color, Game, Outcome, OwnershipSums};
use crate::protocol::connection::Connection;
use crate::protocol::Reply;
use crate::protocol::Vertex;
use crate::search::{Decision, Limits, SearchInfo};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// `genmove`: choose and play.
    Play,
    /// `kgs-genmove_cleanup`: never pass while opponent stones that the
    /// search thinks dead are still on the board (KGS then scores the
    /// board as it stands).
    Cleanup,
    /// `reg_genmove`: choose, do not play.
    Regression,
}

impl GoSession {
    /// How long and how many playouts this move may use: the fixed playout
    /// count if one was given, and the tightest of `--time-per-move` and
    /// the controller's clock; with neither, the default time.
    pub(super) fn limits(&self, color: Color) -> Limits {
        self.game.limits(self.clock_budget(color), None, None)
    }

    pub(super) async fn genmove(
        &mut self,
        color: Color,
        mode: Mode,
        conn: &mut Connection,
    ) -> Reply {
        match self.choose_and_play(color, mode, conn, None).await {
            Ok(text) => Reply::ok(text),
            Err(reply) => reply,
        }
    }

    /// Searches for `color`, plays the chosen move (unless regression
    /// mode) and returns its text: a vertex, `pass` or `resign`.
    pub(super) async fn choose_and_play(
        &mut self,
        color: Color,
        mode: Mode,
        conn: &mut Connection,
        stream: Option<Stream<Move>>,
    ) -> Result<String, Reply> {
        let mut pos = self.pos.clone();
        pos.set_to_move(color);
        let limits = self.limits(color);
        // In KGS's cleanup phase the server counts the board as it stands:
        // a dead stone left on it counts, so the tree must not take it off.
        self.thinker.set_judge_two_passes(mode != Mode::Cleanup);
        let stream = stream.or_else(|| self.live_gfx_stream(&pos));
        let root = pos.clone();
        let Some(Thought { info, decision }) =
            self.game.think(pos, color, limits, conn, stream).await
        else {
            return Err(Reply::err("search failed"));
        };
        self.last_info = Some(info.clone());
        self.last_root = Some(root);

        let mv = match decision {
            _ if mode != Mode::Cleanup && pass_ends_won(&self.pos, color, &info.ownership) => {
                Move::Pass
            }
            Some(Decision::Resign) if mode != Mode::Cleanup => return Ok("resign".to_string()),
            Some(Decision::Play(mv)) => mv,
            Some(Decision::Resign) | None => Move::Pass,
        };
        let mv = if mode == Mode::Cleanup && mv == Move::Pass {
            self.cleanup_move(color, &info).unwrap_or(Move::Pass)
        } else {
            mv
        };
        self.ponder_after = mode != Mode::Regression;
        if mode != Mode::Regression && self.play(color, mv).is_err() {
            // Cannot happen with a correct search; passing keeps the game
            // going rather than handing the controller an illegal move.
            tracing::error!(?mv, "search chose an illegal move; passing");
            let _ = self.play(color, Move::Pass);
            return Ok(Vertex::Pass.to_string());
        }
        Ok(self.vertex(mv).to_string())
    }

    /// Pondering: after our move, search the opponent's position until the
    /// next command arrives. The tree stays, and the next genmove reuses the
    /// subtree of the move actually played.
    pub(super) async fn ponder(&mut self, conn: &mut Connection) {
        if !self.options.ponder
            || !std::mem::take(&mut self.ponder_after)
            || self.pos.outcome().is_some()
        {
            return;
        }
        let quiet = Stream {
            interval: std::time::Duration::ZERO,
            format: Box::new(|_| String::new()),
            on_input: OnInput::Stop,
            filter: None,
        };
        let pos = self.pos.clone();
        let _ = self
            .thinker
            .think(pos, Limits::default(), conn, Some(quiet))
            .await;
    }

    /// In cleanup mode, the best non-pass candidate while dead opponent
    /// stones remain.
    fn cleanup_move(&self, color: Color, info: &SearchInfo<Move>) -> Option<Move> {
        let dead = self.dead_stones(&info.ownership);
        let opponent_dead = self
            .pos
            .points()
            .any(|p| dead[self.pos.cell_of(p)] && self.pos.color_at(p) == Some(color.opponent()));
        if !opponent_dead {
            return None;
        }
        info.candidates
            .iter()
            .map(|c| c.mv)
            .find(|&mv| mv != Move::Pass && self.pos.is_legal_as(color, mv))
    }
}

/// After the opponent's pass: whether `color` passing too ends the game in
/// its favour, both by Tromp-Taylor (every stone alive) and with the
/// stones that `ownership` (the search's, per cell) gives away
/// taken off. Then the engine passes. The tree sees many moves as equally
/// won there, since filling one's own area costs nothing under area
/// scoring, and took whichever had the most visits: a game went on for a
/// dozen such moves while the opponent passed, and each made its own
/// groups' eye space smaller. Needing both scores keeps the old way where
/// they differ: a dead opponent stone left in our area is captured first.
fn pass_ends_won(pos: &Position, color: Color, ownership: &[f32]) -> bool {
    if pos.consecutive_passes() != 1 || pos.to_move() != color {
        return false;
    }
    let mut after = pos.clone();
    if after.play_as(color, Move::Pass).is_err() {
        return false;
    }
    let sums: Vec<f64> = ownership.iter().map(|&o| o as f64).collect();
    let won = |outcome: Option<Outcome>| outcome == Some(Outcome::Win(color));
    won(after.outcome()) && won(after.judged_outcome(OwnershipSums(&sums)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::go::tests::diagram;

    /// 5x5: Black's wall on C, White's on D; Black to move after White's
    /// pass. Black has 15 points, White 10.
    fn walls(komi: f32) -> Position {
        let mut pos = diagram(&[". . X O ."; 5], komi);
        pos.play_as(Color::White, Move::Pass).unwrap();
        pos
    }

    #[test]
    fn passes_back_only_when_that_wins() {
        // Nothing known about ownership: Tromp-Taylor decides, B+5.
        assert!(pass_ends_won(&walls(0.0), Color::Black, &[]));
        // Komi 6: passing would lose by 1.
        assert!(!pass_ends_won(&walls(6.0), Color::Black, &[]));
        // Not for the side that just passed, nor when nobody passed.
        let pos = walls(0.0);
        assert!(!pass_ends_won(&pos, Color::White, &[]));
        let mut pos = Position::new(5, 0.0).unwrap();
        pos.play_as(Color::White, Move::Play(pos.point(0, 0).unwrap()))
            .unwrap();
        assert!(!pass_ends_won(&pos, Color::Black, &[]));
    }

    #[test]
    fn a_win_that_rests_on_judging_alone_is_played_out() {
        // The ownership gives Black's whole wall to White (as if it were
        // dead): Tromp-Taylor still says Black wins, judging says White.
        let pos = walls(0.0);
        let mut ownership = vec![0.0f32; pos.cell_space()];
        for row in 0..5 {
            let p = pos.point(2, row).unwrap();
            ownership[pos.cell_of(p)] = -1.0;
        }
        assert!(!pass_ends_won(&pos, Color::Black, &ownership));
    }
}
