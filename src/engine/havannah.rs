//! The Havannah session: Castro-compatible HTP commands in, rule calls and
//! searches out. White moves first; `swap` lets the second player take over
//! the first stone.

use super::connection::{Connection, OnInput};
use super::think::{Thinker, Thought};
use super::{evaluate, EngineOptions, Reply, Session};
use crate::game::havannah::{hgf, Cell, Move, Position};
use crate::game::{Color, Game, Outcome};
use crate::protocol::reply::{
    CANNOT_LOAD_FILE, CANNOT_SAVE_FILE, CANNOT_UNDO, GAME_OVER, ILLEGAL_MOVE, SYNTAX_ERROR,
    UNACCEPTABLE_SIZE, UNKNOWN_COMMAND, WRONG_TURN,
};
use crate::protocol::{parse_htp, HexMove, HtpCommand, TimeOption, HTP_COMMANDS};
use crate::search::time::{clock_duration, Clock, TimeControl, MAX_CLOCK};
use crate::search::{Decision, Limits};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Side length a fresh engine starts with: 8 (169 cells), LittleGolem's and
/// Castro's tournament size.
const DEFAULT_SIDE: usize = 8;

/// The analysis menu for GoGui-style clients: both maps are `dboard`s over
/// Castro's square (2s-1)x(2s-1) grid, row `a` first, 0 off the board.
const ANALYZE_COMMANDS: &str = "dboard/Move Values/warpstone-move_values
string/Move Values (Win Rates)/warpstone-move_values_text
dboard/Ownership/warpstone-ownership";

/// Most playouts per cell for the heat map (the engine's limits may allow
/// fewer), and the playouts of the ownership estimate.
const MOVE_VALUE_PLAYOUTS: u32 = 256;
const OWNERSHIP_PLAYOUTS: u32 = 2_000;
const ANALYSIS_SEED: u64 = 0xEA7;

/// Castro's `time` default share of the remaining game time per move.
const DEFAULT_GAME_PERCENT: f64 = 10.0;

/// Castro-style clock: seconds per move plus a game reserve.
#[derive(Clone, Copy, Debug)]
struct CastroTime {
    per_move: f64,
    game_left: f64,
    percent: f64,
    max_sims: Option<u64>,
}

pub struct HavannahSession {
    options: EngineOptions,
    pos: Position,
    history: Vec<Move>,
    undo_stack: Vec<Position>,
    swap_allowed: bool,
    thinker: Thinker<Position>,
    castro: Option<CastroTime>,
    clock: Clock,
}

impl HavannahSession {
    pub fn new(options: EngineOptions) -> Self {
        let sim = super::simulator_for::<Position>(&options.backend);
        HavannahSession {
            thinker: Thinker::new(options.search.clone(), sim),
            options,
            pos: Position::new(DEFAULT_SIDE).expect("default side is valid"),
            history: Vec::new(),
            undo_stack: Vec::new(),
            swap_allowed: true,
            castro: None,
            clock: Clock::default(),
        }
    }

    fn reset(&mut self, side: usize) -> Reply {
        let Ok(mut pos) = Position::new(side) else {
            return Reply::err(UNACCEPTABLE_SIZE);
        };
        pos.set_swap_allowed(self.swap_allowed);
        self.pos = pos;
        self.history.clear();
        self.undo_stack.clear();
        self.thinker.clear(&self.pos);
        Reply::empty()
    }

    fn to_move(&self, m: HexMove) -> Option<Move> {
        match m {
            HexMove::Swap => Some(Move::Swap),
            HexMove::Cell(v) => self
                .pos
                .cell(v.row as usize, v.diag as usize)
                .map(Move::Play),
        }
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Swap => "swap".to_string(),
            Move::Play(c) => self.pos.cell_name(c),
        }
    }

    /// Plays `mv` for `color`: the right side to move, a game not over, a
    /// legal move; otherwise nothing changes.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), Reply> {
        if self.pos.outcome().is_some() {
            return Err(Reply::err(GAME_OVER));
        }
        if color != self.pos.to_move() {
            return Err(Reply::err(WRONG_TURN));
        }
        let before = self.pos.clone();
        self.pos.play(mv).map_err(|_| Reply::err(ILLEGAL_MOVE))?;
        self.undo_stack.push(before);
        self.history.push(mv);
        Ok(())
    }

    fn winner_text(&self) -> &'static str {
        match self.pos.outcome() {
            None => "none",
            Some(Outcome::Win(Color::White)) => "white",
            Some(Outcome::Win(Color::Black)) => "black",
            Some(Outcome::Draw) => "draw",
        }
    }

    fn limits(&self, color: Color, seconds: Option<f64>) -> Limits {
        let fixed = seconds
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(clock_duration);
        let clock = if let Some(c) = &self.castro {
            let secs = c.per_move + c.game_left.max(0.0) * c.percent / 100.0;
            Some(clock_duration(secs.max(0.01)))
        } else if *self.clock.control() != TimeControl::None {
            let cells = self.pos.num_cells() as u32;
            Some(
                self.clock
                    .budget(color, cells, self.pos.move_number() as u32),
            )
        } else {
            None
        };
        let time = [fixed, self.options.time_per_move, clock]
            .into_iter()
            .flatten()
            .min();
        let playouts = match (self.options.playouts, self.castro.and_then(|c| c.max_sims)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let time = match (playouts, time) {
            (None, None) => Some(super::options::DEFAULT_TIME_PER_MOVE),
            (_, t) => t,
        };
        Limits { playouts, time }
    }

    async fn genmove(
        &mut self,
        color: Option<Color>,
        seconds: Option<f64>,
        conn: &mut Connection,
    ) -> Reply {
        if self.pos.outcome().is_some() {
            return Reply::err(GAME_OVER);
        }
        let color = color.unwrap_or(self.pos.to_move());
        if color != self.pos.to_move() {
            return Reply::err(WRONG_TURN);
        }
        let limits = self.limits(color, seconds);
        let started = Instant::now();
        let Some(Thought { decision, .. }) = self
            .thinker
            .think(self.pos.clone(), limits, conn, None)
            .await
        else {
            return Reply::err("search failed");
        };
        self.book_time(color, started.elapsed());
        let mv = match decision {
            Some(Decision::Play(mv)) => mv,
            Some(Decision::Resign) => return Reply::ok("resign"),
            None => return Reply::err(GAME_OVER),
        };
        match self.play(color, mv) {
            Ok(()) => Reply::ok(self.move_text(mv)),
            Err(reply) => reply,
        }
    }

    fn book_time(&mut self, color: Color, elapsed: Duration) {
        if let Some(c) = self.castro.as_mut() {
            let over = elapsed.as_secs_f64() - c.per_move;
            if over > 0.0 {
                c.game_left = (c.game_left - over).max(0.0);
            }
        }
        self.clock.spend(color, elapsed);
    }

    fn time(&mut self, options: &[TimeOption]) -> Reply {
        let mut t = self.castro.unwrap_or(CastroTime {
            per_move: 0.0,
            game_left: 0.0,
            percent: DEFAULT_GAME_PERCENT,
            max_sims: None,
        });
        if options.is_empty() {
            return Reply::ok(format!(
                "move {} game {} percent {} maxsims {}",
                t.per_move,
                t.game_left,
                t.percent,
                t.max_sims.map_or("none".to_string(), |n| n.to_string())
            ));
        }
        let max = MAX_CLOCK.as_secs_f64();
        for option in options {
            match *option {
                // Held as at most a year, as every clock is (MAX_CLOCK).
                TimeOption::Move(s) if s.is_finite() && s >= 0.0 => t.per_move = s.min(max),
                TimeOption::Game(s) | TimeOption::Remain(s) if s.is_finite() && s >= 0.0 => {
                    t.game_left = s.min(max)
                }
                TimeOption::Percent(p) => {
                    t.percent = p.unwrap_or(DEFAULT_GAME_PERCENT).clamp(0.0, 100.0)
                }
                // Even and stats splits: approximate as a share of the
                // remaining game time per move, as percent does.
                TimeOption::Even(_) | TimeOption::Stats(_) | TimeOption::Flexible(_) => {}
                TimeOption::MaxSims(n) if n > 0 => t.max_sims = Some(n as u64),
                TimeOption::MaxSims(_) => t.max_sims = None,
                _ => return Reply::err(SYNTAX_ERROR),
            }
        }
        self.castro = Some(t);
        Reply::empty()
    }

    /// A `dboard` over Castro's grid: `value(cell)` on the board, 0 off it.
    fn dboard(&self, value: impl Fn(Cell) -> f32) -> String {
        let width = 2 * self.pos.side() - 1;
        let mut out = String::new();
        for row in 0..width {
            out.push('\n');
            let cells: Vec<String> = (1..=width)
                .map(|diag| self.pos.cell(row, diag).map_or(0.0, &value))
                .map(|v| format!("{v:.3}"))
                .collect();
            out.push_str(&cells.join(" "));
        }
        out
    }

    /// Every empty cell rated by the share of playouts the side to move
    /// wins after playing there, within the engine's playout and time
    /// limits (as genmove has them); `# interrupt` ends it early.
    async fn rate_cells(
        &mut self,
        conn: &mut Connection,
    ) -> Result<(Vec<Move>, evaluate::Rated), Reply> {
        let children = evaluate::placements(&self.pos);
        let mover = self.pos.to_move();
        let limits = self.limits(mover, None);
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

    /// The heat map: the ratings spread over GoGui's [-1, 1] scale (best
    /// +1, worst -1), 0 on occupied cells.
    async fn move_values(&mut self, conn: &mut Connection) -> Reply {
        let (moves, rated) = match self.rate_cells(conn).await {
            Ok(r) => r,
            Err(reply) => return reply,
        };
        let mut values = vec![0.0f32; self.pos.cell_space()];
        for (&mv, v) in moves.iter().zip(evaluate::spread(&rated.win_rates)) {
            if let Some(cell) = self.pos.move_cell(mv) {
                values[cell] = v;
            }
        }
        Reply::ok(self.dboard(|c| values[c.0 as usize]))
    }

    /// The same rating as text: the raw win rates, best first.
    async fn move_values_text(&mut self, conn: &mut Connection) -> Reply {
        match self.rate_cells(conn).await {
            Ok((moves, rated)) => {
                let names: Vec<String> = moves.iter().map(|&mv| self.move_text(mv)).collect();
                Reply::ok(evaluate::rating_text(&names, &rated))
            }
            Err(reply) => reply,
        }
    }

    /// Per cell: +1 Black holds it at the end of the playouts … -1 White.
    fn ownership(&self) -> Reply {
        let sim = self.thinker.simulator().as_ref();
        let own = evaluate::ownership(sim, &self.pos, OWNERSHIP_PLAYOUTS, ANALYSIS_SEED);
        Reply::ok(self.dboard(|c| own[c.0 as usize]))
    }

    fn load(&mut self, path: &str) -> Reply {
        let Some(text) = super::record_file::read_record_logged(path) else {
            return Reply::err(CANNOT_LOAD_FILE);
        };
        let (side, moves) = match hgf::parse_hgf(&text) {
            Ok(record) => record,
            Err(e) => {
                tracing::warn!("loadsgf {path:?}: {e}");
                return Reply::err(CANNOT_LOAD_FILE);
            }
        };
        let Ok(mut pos) = Position::new(side) else {
            return Reply::err(CANNOT_LOAD_FILE);
        };
        pos.set_swap_allowed(true);
        let mut undo_stack = Vec::with_capacity(moves.len());
        for &mv in &moves {
            undo_stack.push(pos.clone());
            if pos.play(mv).is_err() {
                return Reply::err(CANNOT_LOAD_FILE);
            }
        }
        pos.set_swap_allowed(self.swap_allowed);
        self.pos = pos;
        self.history = moves;
        self.undo_stack = undo_stack;
        self.thinker.clear(&self.pos);
        Reply::empty()
    }

    fn print(&self, path: Option<&str>) -> Reply {
        let text = hgf::write_hgf(self.pos.side(), &self.history);
        match path {
            None => Reply::ok(text.trim_end()),
            Some(p) => match std::fs::write(p, text) {
                Ok(()) => Reply::empty(),
                Err(_) => Reply::err(CANNOT_SAVE_FILE),
            },
        }
    }
}

impl Session for HavannahSession {
    async fn execute(&mut self, _id: Option<u32>, text: &str, conn: &mut Connection) -> Reply {
        let command = match parse_htp(text) {
            Ok(c) => c,
            Err(e) => return Reply::err(e.reply_text()),
        };
        match command {
            HtpCommand::ProtocolVersion => Reply::ok("2"),
            HtpCommand::Name => Reply::ok("Warpstone"),
            HtpCommand::Version => Reply::ok(env!("CARGO_PKG_VERSION")),
            HtpCommand::KnownCommand(name) => {
                Reply::ok(HTP_COMMANDS.contains(&name.as_str()).to_string())
            }
            HtpCommand::ListCommands => Reply::ok(HTP_COMMANDS.join("\n")),
            HtpCommand::Quit => Reply::Quit,
            HtpCommand::BoardSize(n) => match usize::try_from(n) {
                Ok(side) if (Position::MIN_SIZE..=Position::MAX_SIZE).contains(&side) => {
                    self.reset(side)
                }
                _ => Reply::err(UNACCEPTABLE_SIZE),
            },
            HtpCommand::ClearBoard => self.reset(self.pos.side()),
            HtpCommand::Play(color, m) => match self.to_move(m) {
                Some(mv) => self.play(color, mv).err().unwrap_or_else(Reply::empty),
                None => Reply::err(ILLEGAL_MOVE),
            },
            HtpCommand::Genmove { color, seconds } => self.genmove(color, seconds, conn).await,
            HtpCommand::Undo(n) => {
                if n as usize > self.undo_stack.len() {
                    return Reply::err(CANNOT_UNDO);
                }
                for _ in 0..n {
                    if let Some(p) = self.undo_stack.pop() {
                        self.pos = p;
                        self.history.pop();
                    }
                }
                Reply::empty()
            }
            HtpCommand::ShowBoard => Reply::ok(format!("\n{}", self.pos.showboard().trim_end())),
            HtpCommand::HavannahWinner => Reply::ok(self.winner_text()),
            HtpCommand::Swap(on) => {
                self.swap_allowed = on;
                self.pos.set_swap_allowed(on);
                Reply::empty()
            }
            HtpCommand::AllLegal => {
                let mut moves = Vec::new();
                self.pos.legal_moves(&mut moves);
                let names: Vec<String> = moves.iter().map(|&m| self.move_text(m)).collect();
                Reply::ok(names.join(" "))
            }
            HtpCommand::GoguiAnalyzeCommands => Reply::ok(ANALYZE_COMMANDS),
            HtpCommand::MoveValues => self.move_values(conn).await,
            HtpCommand::MoveValuesText => self.move_values_text(conn).await,
            HtpCommand::Cputime => super::cputime::reply(),
            HtpCommand::Ownership => self.ownership(),
            HtpCommand::Time(options) => self.time(&options),
            HtpCommand::TimeSettings(system) => {
                self.castro = None;
                self.clock = Clock::new(super::time_control(system));
                Reply::empty()
            }
            HtpCommand::TimeLeft {
                color,
                seconds,
                stones,
            } => super::apply_time_left(&mut self.clock, color, seconds, stones),
            HtpCommand::LoadSgf(path) => self.load(&path),
            HtpCommand::PrintSgf(path) => self.print(path.as_deref()),
            HtpCommand::Unknown(_) => Reply::err(UNKNOWN_COMMAND),
        }
    }
}
