//! The Havannah adapter: Castro-compatible HTP commands in, calls on the
//! shared [`GameSession`] out, plus what only Havannah has: the swap
//! switch, Castro's `time` clock and HGF records. White moves first; `swap`
//! lets the second player take over the first stone.

use super::connection::Connection;
use super::session::{GameSession, SessionGame};
use super::{Reply, Session};
use crate::engine::EngineOptions;
use crate::game::havannah::{hgf, Move, Position};
use crate::game::{Color, Game};
use crate::protocol::reply::{
    CANNOT_LOAD_FILE, CANNOT_SAVE_FILE, ILLEGAL_MOVE, SYNTAX_ERROR, UNACCEPTABLE_SIZE,
    UNKNOWN_COMMAND,
};
use crate::protocol::{parse_htp, HexMove, HtpCommand, TimeOption, HTP_COMMANDS};
use crate::search::time::{clock_duration, Clock, MAX_CLOCK};
use crate::search::Limits;
use crate::sim::Simulator;
use std::sync::Arc;
use std::time::Duration;

/// Side length a fresh engine starts with: 8 (169 cells), LittleGolem's and
/// Castro's tournament size.
const DEFAULT_SIDE: usize = 8;

/// The analysis menu for GoGui-style clients: both maps are `dboard`s over
/// Castro's square (2s-1)x(2s-1) grid, row `a` first, 0 off the board.
const ANALYZE_COMMANDS: &str = "dboard/Move Values/warpstone-move_values
string/Move Values (Win Rates)/warpstone-move_values_text
dboard/Ownership/warpstone-ownership";

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
    game: GameSession<Position>,
    swap_allowed: bool,
    castro: Option<CastroTime>,
}

impl SessionGame for Position {
    fn move_number(&self) -> usize {
        Position::move_number(self)
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Swap => "swap".to_string(),
            Move::Play(c) => self.cell_name(c),
        }
    }

    fn showboard(&self) -> String {
        Position::showboard(self)
    }

    /// Castro's square (2s-1)x(2s-1) grid, row `a` first, 0 off the board.
    fn dboard(&self, value: &dyn Fn(usize) -> f32) -> String {
        let width = 2 * self.side() - 1;
        let mut out = String::new();
        for row in 0..width {
            out.push('\n');
            let cells: Vec<String> = (1..=width)
                .map(|diag| self.cell(row, diag).map_or(0.0, |c| value(c.0 as usize)))
                .map(|v| format!("{v:.3}"))
                .collect();
            out.push_str(&cells.join(" "));
        }
        out
    }
}

impl HavannahSession {
    pub fn new(options: EngineOptions, sim: Arc<dyn Simulator<Position>>) -> Self {
        let pos = Position::new(DEFAULT_SIDE).expect("default side is valid");
        HavannahSession {
            game: GameSession::new(options, pos, sim),
            swap_allowed: true,
            castro: None,
        }
    }

    fn reset(&mut self, side: usize) -> Reply {
        let Ok(mut pos) = Position::new(side) else {
            return Reply::err(UNACCEPTABLE_SIZE);
        };
        pos.set_swap_allowed(self.swap_allowed);
        self.game.reset(pos);
        Reply::empty()
    }

    fn to_move(&self, m: HexMove) -> Option<Move> {
        match m {
            HexMove::Swap => Some(Move::Swap),
            HexMove::Cell(v) => self
                .game
                .pos
                .cell(v.row as usize, v.diag as usize)
                .map(Move::Play),
        }
    }

    async fn genmove(
        &mut self,
        color: Option<Color>,
        seconds: Option<f64>,
        conn: &mut Connection,
    ) -> Reply {
        let castro = self.castro;
        let limits =
            move |game: &GameSession<Position>, color| limits(game, castro, color, seconds);
        let mut elapsed = Duration::ZERO;
        let reply = self.game.genmove(color, limits, conn, &mut elapsed).await;
        if let Some(c) = self.castro.as_mut() {
            let over = elapsed.as_secs_f64() - c.per_move;
            if over > 0.0 {
                c.game_left = (c.game_left - over).max(0.0);
            }
        }
        reply
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

    fn load(&mut self, path: &str) -> Reply {
        let Some(text) = crate::engine::record_file::read_record_logged(path) else {
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
        let mut played = Vec::with_capacity(moves.len());
        for &mv in &moves {
            undo_stack.push(pos.clone());
            played.push((pos.to_move(), mv));
            if pos.play(mv).is_err() {
                return Reply::err(CANNOT_LOAD_FILE);
            }
        }
        pos.set_swap_allowed(self.swap_allowed);
        self.game.reset(pos);
        self.game.moves = played;
        self.game.undo_stack = undo_stack;
        Reply::empty()
    }

    fn print(&self, path: Option<&str>) -> Reply {
        let moves: Vec<Move> = self.game.moves.iter().map(|&(_, mv)| mv).collect();
        let text = hgf::write_hgf(self.game.pos.side(), &moves);
        match path {
            None => Reply::ok(text.trim_end()),
            Some(p) => match std::fs::write(p, text) {
                Ok(()) => Reply::empty(),
                Err(_) => Reply::err(CANNOT_SAVE_FILE),
            },
        }
    }
}

/// The limits of one move: a fixed time if the command gave one, and
/// Castro's clock when `time` set it, else the controller's.
fn limits(
    game: &GameSession<Position>,
    castro: Option<CastroTime>,
    color: Color,
    seconds: Option<f64>,
) -> Limits {
    let fixed = seconds
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(clock_duration);
    let clock = match &castro {
        Some(c) => {
            let secs = c.per_move + c.game_left.max(0.0) * c.percent / 100.0;
            Some(clock_duration(secs.max(0.01)))
        }
        None => game.clock_budget(color),
    };
    game.limits(clock, fixed, castro.and_then(|c| c.max_sims))
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
            HtpCommand::ClearBoard => self.reset(self.game.pos.side()),
            HtpCommand::Play(color, m) => match self.to_move(m) {
                Some(mv) => self.game.play(color, mv).err().unwrap_or_else(Reply::empty),
                None => Reply::err(ILLEGAL_MOVE),
            },
            HtpCommand::Genmove { color, seconds } => self.genmove(color, seconds, conn).await,
            HtpCommand::Undo(n) => self.game.undo(n as usize),
            HtpCommand::ShowBoard => self.game.showboard_reply(),
            HtpCommand::HavannahWinner => Reply::ok(self.game.winner_text()),
            HtpCommand::Swap(on) => {
                self.swap_allowed = on;
                self.game.pos.set_swap_allowed(on);
                Reply::empty()
            }
            HtpCommand::AllLegal => self.game.all_legal_reply(),
            HtpCommand::GoguiAnalyzeCommands => Reply::ok(ANALYZE_COMMANDS),
            HtpCommand::MoveValues => {
                let limits = limits(&self.game, self.castro, self.game.pos.to_move(), None);
                self.game.move_values_reply(limits, conn).await
            }
            HtpCommand::MoveValuesText => {
                let limits = limits(&self.game, self.castro, self.game.pos.to_move(), None);
                self.game.move_values_text_reply(limits, conn).await
            }
            HtpCommand::Cputime => super::common::cputime_reply(),
            HtpCommand::Ownership => self.game.ownership_reply(),
            HtpCommand::Time(options) => self.time(&options),
            HtpCommand::TimeSettings(system) => {
                self.castro = None;
                self.game.clock = Clock::new(super::time_control(system));
                Reply::empty()
            }
            HtpCommand::TimeLeft {
                color,
                seconds,
                stones,
            } => super::apply_time_left(&mut self.game.clock, color, seconds, stones),
            HtpCommand::LoadSgf(path) => self.load(&path),
            HtpCommand::PrintSgf(path) => self.print(path.as_deref()),
            HtpCommand::Unknown(_) => Reply::err(UNKNOWN_COMMAND),
        }
    }
}
