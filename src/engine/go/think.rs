//! genmove and friends: run a search on its own thread, turn the result
//! into a move.

use super::GoSession;
use crate::engine::connection::{Connection, OnInput};
use crate::engine::options::DEFAULT_TIME_PER_MOVE;
use crate::engine::think::{Stream, Thought};
use crate::engine::Reply;
use crate::game::go::Move;
use crate::game::{Color, Game};
use crate::protocol::Vertex;
use crate::search::time::TimeControl;
use crate::search::{Decision, Limits, SearchInfo};
use std::time::Instant;

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
    fn limits(&self, color: Color) -> Limits {
        let points = (self.pos.size() * self.pos.size()) as u32;
        let clock = (*self.clock.control() != TimeControl::None).then(|| {
            self.clock
                .budget(color, points, self.pos.move_number() as u32)
        });
        let time = match (self.options.time_per_move, clock) {
            (Some(t), Some(c)) => Some(t.min(c)),
            (t, c) => t.or(c),
        };
        let time = match (self.options.playouts, time) {
            (None, None) => Some(DEFAULT_TIME_PER_MOVE),
            (_, t) => t,
        };
        Limits {
            playouts: self.options.playouts,
            time,
        }
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
        let started = Instant::now();
        let Some(Thought { info, decision }) = self.thinker.think(pos, limits, conn, stream).await
        else {
            return Err(Reply::err("search failed"));
        };
        self.clock.spend(color, started.elapsed());
        self.last_info = Some(info.clone());

        let mv = match decision {
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
        };
        let _ = self
            .thinker
            .think(self.pos.clone(), Limits::default(), conn, Some(quiet))
            .await;
    }

    /// In cleanup mode, the best non-pass candidate while dead opponent
    /// stones remain.
    fn cleanup_move(&self, color: Color, info: &SearchInfo<Move>) -> Option<Move> {
        let dead = self.dead_stones(&info.ownership);
        let opponent_dead = self.pos.points().any(|p| {
            dead[self.pos.move_index(Move::Play(p))]
                && self.pos.color_at(p) == Some(color.opponent())
        });
        if !opponent_dead {
            return None;
        }
        info.candidates
            .iter()
            .map(|c| c.mv)
            .find(|&mv| mv != Move::Pass && self.pos.is_legal_as(color, mv))
    }
}
