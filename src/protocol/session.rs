//! The one engine session every game shares: the position, undo, the game's
//! moves, limits and clocks, the search, and the playout analyses (move
//! values, ownership) as `dboard`s. A game's protocol adapter holds one and
//! adds only the commands where its game differs.

use super::connection::Connection;
use super::Reply;
use crate::engine::evaluate;
use crate::engine::think::{Controller, OnInput};
use crate::engine::think::{Stream, Thinker, Thought};
use crate::engine::EngineOptions;
use crate::game::{Color, Outcome};
use crate::protocol::reply::{CANNOT_UNDO, GAME_OVER, ILLEGAL_MOVE, WRONG_TURN};
use crate::search::time::{Clock, TimeControl};
use crate::search::{Decision, Limits};
use crate::sim::{Rollout, Simulator};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the generic session needs of a game beyond its rules: the move
/// numbers its clock counts, the protocol's names for its moves and the
/// drawings of its board.
pub trait SessionGame: Rollout {
    /// Moves played so far (the clock spreads the time over the rest).
    fn move_number(&self) -> usize;

    /// The move as the protocol writes it (`c4`, `swap`, `D4`, `pass`).
    fn move_text(&self, mv: Self::Move) -> String;

    /// The board as `showboard` draws it (the session trims it and puts it
    /// on its own lines).
    fn showboard(&self) -> String;

    /// A `dboard` body for GoGui: `value(cell)` for every place of the
    /// board's drawing, each line starting with a newline.
    fn dboard(&self, value: &dyn Fn(usize) -> f32) -> String;

    /// Plays `mv` for `color` as the protocol's `play` asks, or refuses
    /// with the reply text and changes nothing. The default: a game not
    /// over, `color` to move, a legal move.
    fn play_as(&mut self, color: Color, mv: Self::Move) -> Result<(), &'static str> {
        if self.outcome().is_some() {
            return Err(GAME_OVER);
        }
        if color != self.to_move() {
            return Err(WRONG_TURN);
        }
        self.play(mv).map_err(|_| ILLEGAL_MOVE)
    }
}

/// Most playouts per cell for the heat map (the engine's limits may allow
/// fewer), and the playouts of the ownership estimate, of
/// [`GameSession::move_values_reply`] and [`GameSession::ownership_reply`].
const MOVE_VALUE_PLAYOUTS: u32 = 256;
const OWNERSHIP_PLAYOUTS: u32 = 2_000;
const ANALYSIS_SEED: u64 = 0xEA7;

/// The state of one game under the engine, whatever the game.
pub struct GameSession<G: SessionGame> {
    pub options: EngineOptions,
    pub pos: G,
    /// Positions before each move, for `undo`.
    pub undo_stack: Vec<G>,
    /// The moves played since the start position, with who played them.
    pub moves: Vec<(Color, G::Move)>,
    pub thinker: Thinker<G>,
    pub clock: Clock,
}

impl<G: SessionGame> GameSession<G> {
    pub fn new(options: EngineOptions, pos: G, sim: Arc<dyn Simulator<G>>) -> Self {
        GameSession {
            thinker: Thinker::new(options.search.clone(), sim),
            options,
            pos,
            undo_stack: Vec::new(),
            moves: Vec::new(),
            clock: Clock::default(),
        }
    }

    /// A new game from `pos` (a new size, `clear_board`, a loaded record):
    /// no undo, no moves, no tree, and the simulator ready for the size.
    pub fn reset(&mut self, pos: G) {
        self.pos = pos;
        self.undo_stack.clear();
        self.moves.clear();
        self.thinker.clear(&self.pos);
    }

    /// Plays `mv` for `color` ([`SessionGame::play_as`]); on failure the
    /// reply and nothing changed.
    pub fn play(&mut self, color: Color, mv: G::Move) -> Result<(), Reply> {
        let before = self.pos.clone();
        self.pos.play_as(color, mv).map_err(Reply::err)?;
        self.undo_stack.push(before);
        self.moves.push((color, mv));
        Ok(())
    }

    /// Takes back the last `n` moves, or none if there are fewer.
    pub fn undo(&mut self, n: usize) -> Reply {
        if n > self.undo_stack.len() {
            return Reply::err(CANNOT_UNDO);
        }
        for _ in 0..n {
            if let Some(previous) = self.undo_stack.pop() {
                self.pos = previous;
                self.moves.pop();
            }
        }
        Reply::empty()
    }

    /// What the controller's clock allows `color` for this move, if it set
    /// one.
    pub fn clock_budget(&self, color: Color) -> Option<Duration> {
        (*self.clock.control() != TimeControl::None).then(|| {
            self.clock.budget(
                color,
                self.pos.cell_space() as u32,
                self.pos.move_number() as u32,
            )
        })
    }

    /// The limits of one move: `--playouts` (capped by `max_playouts`),
    /// and the tightest of the controller's `clock`, the command's `fixed`
    /// seconds and `--time-per-move`; with no limit at all, the default
    /// time. When a fixed allowance is the tightest, the move uses all of
    /// it ([`Limits::whole_time`]): a clock keeps what an early stop saves,
    /// a fixed allowance loses it.
    pub fn limits(
        &self,
        clock: Option<Duration>,
        fixed: Option<Duration>,
        max_playouts: Option<u64>,
    ) -> Limits {
        let fixed = fixed.into_iter().chain(self.options.time_per_move).min();
        let whole_time = match (fixed, clock) {
            (Some(f), Some(c)) => f <= c,
            (f, _) => f.is_some(),
        };
        let time = fixed.into_iter().chain(clock).min();
        let playouts = match (self.options.playouts, max_playouts) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let time = match (playouts, time) {
            (None, None) => Some(crate::engine::options::DEFAULT_TIME_PER_MOVE),
            (_, t) => t,
        };
        Limits {
            playouts,
            time,
            whole_time,
        }
    }

    /// Searches `pos` for `color` within `limits` and books the time on
    /// `color`'s clock.
    pub async fn think(
        &mut self,
        pos: G,
        color: Color,
        limits: Limits,
        conn: &mut Connection,
        stream: Option<Stream<G::Move>>,
    ) -> Option<Thought<G::Move>> {
        let started = Instant::now();
        let thought = self.thinker.think(pos, limits, conn, stream).await;
        if thought.is_some() {
            self.clock.spend(color, started.elapsed());
        }
        thought
    }

    /// `genmove` for games where only the side to move may move: searches
    /// within `limits`, plays the choice and answers its text (or
    /// `resign`). `booked` gets the search's time, for the game's own
    /// clocks.
    pub async fn genmove(
        &mut self,
        color: Option<Color>,
        limits: impl FnOnce(&Self, Color) -> Limits,
        conn: &mut Connection,
        booked: &mut Duration,
    ) -> Reply {
        if self.pos.outcome().is_some() {
            return Reply::err(GAME_OVER);
        }
        let color = color.unwrap_or(self.pos.to_move());
        if color != self.pos.to_move() {
            return Reply::err(WRONG_TURN);
        }
        let limits = limits(self, color);
        let started = Instant::now();
        let Some(Thought { decision, .. }) = self
            .think(self.pos.clone(), color, limits, conn, None)
            .await
        else {
            return Reply::err("search failed");
        };
        *booked = started.elapsed();
        let mv = match decision {
            Some(Decision::Play(mv)) => mv,
            Some(Decision::Resign) => return Reply::ok("resign"),
            None => return Reply::err(GAME_OVER),
        };
        match self.play(color, mv) {
            Ok(()) => Reply::ok(self.pos.move_text(mv)),
            Err(reply) => reply,
        }
    }

    /// `showboard`: the drawing on lines of its own.
    pub fn showboard_reply(&self) -> Reply {
        Reply::ok(format!("\n{}", self.pos.showboard().trim_end()))
    }

    /// Every legal move of the side to move, by name, in the game's order.
    pub fn all_legal_reply(&self) -> Reply {
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|&m| self.pos.move_text(m)).collect();
        Reply::ok(names.join(" "))
    }

    /// Who has won: `white`, `black`, `draw` or `none` (game not over).
    pub fn winner_text(&self) -> &'static str {
        match self.pos.outcome() {
            None => "none",
            Some(Outcome::Win(Color::White)) => "white",
            Some(Outcome::Win(Color::Black)) => "black",
            Some(Outcome::Draw) => "draw",
        }
    }

    /// Every move of the side to move that places a stone, rated by the
    /// share of playouts the side to move wins after it, within `limits`
    /// (as genmove has them). Runs on a blocking thread, so `# interrupt`
    /// ends it early (with what it has).
    pub async fn rate_placements(
        &mut self,
        limits: Limits,
        conn: &mut Connection,
    ) -> Result<(Vec<G::Move>, evaluate::Rated), Reply> {
        let children = evaluate::placements(&self.pos);
        let mover = self.pos.to_move();
        let sim = self.thinker.simulator().clone();
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = stop.clone();
        let leaves = children.leaves;
        let job = move || {
            evaluate::rate_leaves_within(
                sim.as_ref(),
                &leaves,
                mover,
                &limits,
                MOVE_VALUE_PLAYOUTS,
                ANALYSIS_SEED,
                &job_stop,
            )
        };
        match conn.think(stop, OnInput::Queue, None, job).await {
            Ok(rated) => Ok((children.moves, rated)),
            Err(e) => {
                tracing::error!("{e}");
                Err(Reply::err("search failed"))
            }
        }
    }

    /// The heat map: [`rate_placements`](Self::rate_placements) spread over
    /// GoGui's [-1, 1] scale (best +1, worst -1), 0 on occupied cells, as
    /// a `dboard`.
    pub async fn move_values_reply(&mut self, limits: Limits, conn: &mut Connection) -> Reply {
        let (moves, rated) = match self.rate_placements(limits, conn).await {
            Ok(r) => r,
            Err(reply) => return reply,
        };
        let mut values = vec![0.0f32; self.pos.cell_space()];
        for (&mv, v) in moves.iter().zip(evaluate::spread(&rated.win_rates)) {
            if let Some(cell) = self.pos.move_cell(mv) {
                values[cell] = v;
            }
        }
        Reply::ok(self.pos.dboard(&|c| values[c]))
    }

    /// The same rating as text: the raw win rates, best first.
    pub async fn move_values_text_reply(&mut self, limits: Limits, conn: &mut Connection) -> Reply {
        match self.rate_placements(limits, conn).await {
            Ok((moves, rated)) => {
                let names: Vec<String> = moves.iter().map(|&mv| self.pos.move_text(mv)).collect();
                Reply::ok(evaluate::rating_text(&names, &rated))
            }
            Err(reply) => reply,
        }
    }

    /// Per cell: +1 Black holds it at the end of the playouts … -1 White,
    /// as a `dboard`.
    pub fn ownership_reply(&self) -> Reply {
        let sim = self.thinker.simulator().as_ref();
        let own = evaluate::ownership(sim, &self.pos, OWNERSHIP_PLAYOUTS, ANALYSIS_SEED);
        Reply::ok(self.pos.dboard(&|c| own[c]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::havannah::Position;

    fn session(time_per_move: Option<Duration>) -> GameSession<Position> {
        let options = EngineOptions {
            time_per_move,
            ..EngineOptions::default()
        };
        let pos = Position::new(4).expect("side 4");
        GameSession::new(options, pos, Arc::new(crate::sim::cpu::CpuSimulator::new()))
    }

    #[test]
    fn a_fixed_allowance_is_thought_whole_and_a_clock_is_saved() {
        let second = Duration::from_secs(1);
        let fixed = session(Some(second)).limits(None, None, None);
        assert_eq!((fixed.time, fixed.whole_time), (Some(second), true));

        // A tighter clock decides, and an early stop saves its time.
        let half = Duration::from_millis(500);
        let clocked = session(Some(second)).limits(Some(half), None, None);
        assert_eq!((clocked.time, clocked.whole_time), (Some(half), false));
        let roomy = session(Some(second)).limits(Some(2 * second), None, None);
        assert_eq!((roomy.time, roomy.whole_time), (Some(second), true));

        // A command's own seconds are fixed; no limit at all is the default
        // time, cut short once the move is settled.
        let asked = session(None).limits(Some(2 * second), Some(half), None);
        assert_eq!((asked.time, asked.whole_time), (Some(half), true));
        let default = session(None).limits(None, None, None);
        assert!(default.time.is_some() && !default.whole_time);
    }
}
