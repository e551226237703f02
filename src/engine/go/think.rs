//! genmove and friends: run a search on its own thread, turn the result
//! into a move.

use super::GoSession;
use crate::engine::input::Input;
use crate::engine::options::DEFAULT_TIME_PER_MOVE;
use crate::engine::Reply;
use crate::game::go::Move;
use crate::game::{Color, Game};
use crate::search::{Decision, Limits, Search, SearchInfo};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
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
        let points = self.pos.size() * self.pos.size();
        let clock = self.clock.budget(color, self.pos.move_number(), points);
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

    pub(super) async fn genmove(&mut self, color: Color, mode: Mode, input: &mut Input) -> Reply {
        let mut pos = self.pos.clone();
        pos.set_to_move(color);
        let limits = self.limits(color);
        let Some(mut search) = self.search.take() else {
            return Reply::err("search unavailable");
        };
        let stop = Arc::new(AtomicBool::new(false));
        let started = Instant::now();
        let job_stop = stop.clone();
        let outcome = input
            .think(stop, move || {
                search.set_position(&pos);
                let info = search.run(&limits, &job_stop, None);
                let decision = search.decide();
                (search, info, decision)
            })
            .await;
        let (search, info, decision) = match outcome {
            Ok(result) => result,
            Err(e) => {
                tracing::error!("{e}");
                // The search was lost with its thread: start a fresh one so
                // the engine keeps working.
                self.search = Some(Search::new(self.options.search.clone(), self.sim.clone()));
                return Reply::err("search failed");
            }
        };
        self.search = Some(search);
        self.clock.spent(color, started.elapsed());
        log_search(&info);

        let mv = match decision {
            Some(Decision::Resign) if mode != Mode::Cleanup => return Reply::ok("resign"),
            Some(Decision::Play(mv)) => mv,
            Some(Decision::Resign) | None => Move::Pass,
        };
        let mv = if mode == Mode::Cleanup && mv == Move::Pass {
            self.cleanup_move(color, &info).unwrap_or(Move::Pass)
        } else {
            mv
        };
        if mode != Mode::Regression && self.play(color, mv).is_err() {
            // Cannot happen with a correct search; passing keeps the game
            // going rather than handing the controller an illegal move.
            tracing::error!(?mv, "search chose an illegal move; passing");
            let _ = self.play(color, Move::Pass);
            return Reply::ok("pass");
        }
        Reply::ok(self.vertex(mv).to_string())
    }

    /// In cleanup mode, the best non-pass candidate while dead opponent
    /// stones remain.
    fn cleanup_move(&self, color: Color, info: &SearchInfo<Move>) -> Option<Move> {
        let dead = self.dead_stones(&info.ownership);
        let opponent_dead = self
            .pos
            .points()
            .any(|p| dead[self.pos.move_index(Move::Play(p))] && self.pos.color_at(p) == Some(color.opponent()));
        if !opponent_dead {
            return None;
        }
        info.candidates
            .iter()
            .map(|c| c.mv)
            .find(|&mv| mv != Move::Pass && self.pos.is_legal_as(color, mv))
    }
}

fn log_search(info: &SearchInfo<Move>) {
    let secs = info.elapsed.as_secs_f64().max(1e-9);
    let best = info.candidates.first();
    tracing::info!(
        playouts = info.playouts,
        playouts_per_sec = (info.playouts as f64 / secs) as u64,
        winrate = info.winrate,
        best = ?best.map(|c| c.mv),
        visits = best.map(|c| c.visits).unwrap_or(0),
        nodes = info.nodes,
        memory_capped = info.memory_capped,
        "search done in {secs:.2}s"
    );
}
