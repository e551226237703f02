//! The Go adapter: GTP commands in, calls on the shared [`GameSession`]
//! out, plus what only Go has (komi, handicap, scoring, SGF records, the
//! analysis streams, pondering).
//!
//! [`GoSession`] derefs to its [`GameSession`]: the position, undo stack,
//! search and clock are the shared session's. One `match` dispatches every
//! command; each arm stays small and the longer ones live in sibling files
//! (setup, scoring, think).

mod analysis;
mod gogui;
mod scoring;
mod setup;
mod think;

use crate::engine::EngineOptions;
use crate::game::go::{Move, Point, Position};
use crate::game::Color;
use crate::protocol::connection::Connection;
use crate::protocol::gtp::{self, GtpCommand};
use crate::protocol::reply::{ILLEGAL_MOVE, SYNTAX_ERROR, UNACCEPTABLE_SIZE, UNKNOWN_COMMAND};
use crate::protocol::session::{GameSession, SessionGame};
use crate::protocol::vertex::Vertex;
use crate::protocol::TimeSystem;
use crate::protocol::{Reply, Session};
use crate::search::time::Clock;
use crate::sim::Simulator;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Board size and komi a fresh engine starts with (GTP leaves them to the
/// engine; 19x19 and 7.5 are what GoGui and Sabaki assume).
const DEFAULT_SIZE: usize = 19;
const DEFAULT_KOMI: f32 = 7.5;

pub struct GoSession {
    game: GameSession<Position>,
    /// The game so far, for `printsgf`.
    record: crate::game::go::sgf::GameRecord,
    /// Set by a genmove that played: the next idle moment may ponder.
    ponder_after: bool,
    /// The last search's result, for the GoGui statistics and PV.
    last_info: Option<crate::search::SearchInfo<Move>>,
    /// The position that search was rooted at, so its PV can be followed
    /// to the current one.
    last_root: Option<Position>,
}

impl Deref for GoSession {
    type Target = GameSession<Position>;
    fn deref(&self) -> &Self::Target {
        &self.game
    }
}

impl DerefMut for GoSession {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.game
    }
}

impl SessionGame for Position {
    fn move_number(&self) -> usize {
        Position::move_number(self)
    }

    fn move_text(&self, mv: Move) -> String {
        move_vertex(self, mv).to_string()
    }

    fn showboard(&self) -> String {
        Position::showboard(self)
    }

    /// Every point, top row first.
    fn dboard(&self, value: &dyn Fn(usize) -> f32) -> String {
        let size = self.size();
        let mut out = String::new();
        for row in (0..size).rev() {
            out.push('\n');
            let cells: Vec<String> = (0..size)
                .map(|col| {
                    let v = self.point(col, row).map_or(0.0, |p| value(self.cell_of(p)));
                    format!("{v:.3}")
                })
                .collect();
            out.push_str(&cells.join(" "));
        }
        out
    }

    /// Either colour may play (GTP lets a controller play several moves
    /// of one colour in a row); only the rules decide.
    fn play_as(&mut self, color: Color, mv: Move) -> Result<(), &'static str> {
        Position::play_as(self, color, mv).map_err(|_| ILLEGAL_MOVE)
    }
}

impl GoSession {
    pub fn new(options: EngineOptions, sim: Arc<dyn Simulator<Position>>) -> GoSession {
        let pos = Position::new(DEFAULT_SIZE, DEFAULT_KOMI).expect("default size is valid");
        GoSession {
            record: setup::empty_record(&pos),
            game: GameSession::new(options, pos, sim),
            last_info: None,
            last_root: None,
            ponder_after: false,
        }
    }

    /// Vertex text → move on the current board; `None` if off the board.
    fn to_move(&self, v: Vertex) -> Option<Move> {
        match v {
            Vertex::Pass => Some(Move::Pass),
            Vertex::Coord { col, row } => {
                self.pos.point(col as usize, row as usize).map(Move::Play)
            }
        }
    }

    fn vertex(&self, mv: Move) -> Vertex {
        move_vertex(&self.pos, mv)
    }

    fn vertex_of(&self, p: Point) -> Vertex {
        move_vertex(&self.pos, Move::Play(p))
    }

    /// Vertices in GNU Go's board scan order: top row first, left to
    /// right, so regression scripts can compare lists as text.
    fn vertex_list(&self, points: impl IntoIterator<Item = Point>) -> String {
        let mut points: Vec<Point> = points.into_iter().collect();
        points.sort_by_key(|&p| {
            let (col, row) = self.pos.coords(p);
            (std::cmp::Reverse(row), col)
        });
        let names: Vec<String> = points
            .into_iter()
            .map(|p| self.vertex_of(p).to_string())
            .collect();
        names.join(" ")
    }

    /// Starts a new game of `size` with the current komi.
    fn reset(&mut self, size: usize) -> Result<(), Reply> {
        let pos =
            Position::new(size, self.pos.komi()).map_err(|_| Reply::err(UNACCEPTABLE_SIZE))?;
        self.record = setup::empty_record(&pos);
        self.game.reset(pos);
        Ok(())
    }

    /// Plays `mv` for `color` and records it; on failure nothing changes.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), Reply> {
        self.game.play(color, mv)?;
        let coords = match mv {
            Move::Pass => None,
            Move::Play(p) => Some(self.pos.coords(p)),
        };
        self.record.moves.push((color, coords));
        Ok(())
    }

    fn undo(&mut self) -> Reply {
        let reply = self.game.undo(1);
        if reply == Reply::empty() {
            self.record.moves.pop();
        }
        reply
    }

    fn set_time(&mut self, system: TimeSystem) -> Reply {
        self.clock = Clock::new(crate::protocol::time_control(system));
        Reply::empty()
    }
}

impl Session for GoSession {
    async fn idle(&mut self, conn: &mut Connection) {
        self.ponder(conn).await;
    }

    async fn execute(&mut self, id: Option<u32>, text: &str, conn: &mut Connection) -> Reply {
        self.ponder_after = false;
        let command = match gtp::parse_gtp(text) {
            Ok(c) => c,
            Err(_) => return Reply::err(SYNTAX_ERROR),
        };
        match command {
            GtpCommand::ProtocolVersion => Reply::ok("2"),
            GtpCommand::Name => Reply::ok("Warpstone"),
            GtpCommand::Version => Reply::ok(env!("CARGO_PKG_VERSION")),
            GtpCommand::KnownCommand(name) => {
                Reply::ok(gtp::GTP_COMMANDS.contains(&name.as_str()).to_string())
            }
            GtpCommand::ListCommands => Reply::ok(gtp::GTP_COMMANDS.join("\n")),
            GtpCommand::Quit => Reply::Quit,
            GtpCommand::BoardSize(n) => {
                let size = usize::try_from(n).unwrap_or(0);
                if !(Position::MIN_SIZE..=Position::MAX_SIZE).contains(&size) {
                    return Reply::err(UNACCEPTABLE_SIZE);
                }
                self.reset(size).err().unwrap_or_else(Reply::empty)
            }
            GtpCommand::ClearBoard => self
                .reset(self.pos.size())
                .err()
                .unwrap_or_else(Reply::empty),
            GtpCommand::Komi(k) if k.is_finite() && k.abs() <= 1000.0 => {
                self.pos.set_komi(k);
                self.record.komi = k;
                Reply::empty()
            }
            GtpCommand::Komi(_) => Reply::err(SYNTAX_ERROR),
            GtpCommand::Play(color, v) => match self.to_move(v) {
                Some(mv) => self.play(color, mv).err().unwrap_or_else(Reply::empty),
                None => Reply::err(ILLEGAL_MOVE),
            },
            GtpCommand::Genmove(color) => self.genmove(color, think::Mode::Play, conn).await,
            GtpCommand::KgsGenmoveCleanup(color) => {
                self.genmove(color, think::Mode::Cleanup, conn).await
            }
            GtpCommand::RegGenmove(color) => {
                self.genmove(color, think::Mode::Regression, conn).await
            }
            GtpCommand::Undo => self.undo(),
            GtpCommand::ShowBoard => self.showboard_reply(),
            GtpCommand::FixedHandicap(n) => self.fixed_handicap(n),
            GtpCommand::PlaceFreeHandicap(n) => self.place_free_handicap(n),
            GtpCommand::SetFreeHandicap(vertices) => self.set_free_handicap(&vertices),
            GtpCommand::FinalScore => self.final_score(),
            GtpCommand::FinalStatusList(status) => self.final_status_list(status),
            GtpCommand::TimeSettings(system) | GtpCommand::KgsTimeSettings(system) => {
                self.set_time(system)
            }
            GtpCommand::TimeLeft {
                color,
                seconds,
                stones,
            } => crate::protocol::apply_time_left(&mut self.clock, color, seconds, stones),
            GtpCommand::LoadSgf { path, move_number } => self.load_sgf(&path, move_number),
            GtpCommand::PrintSgf(path) => self.print_sgf(path.as_deref()),
            GtpCommand::ListStones(color) => Reply::ok(self.vertex_list(self.pos.stones(color))),
            GtpCommand::IsLegal(color, v) => {
                let legal = self
                    .to_move(v)
                    .is_some_and(|mv| self.pos.is_legal_as(color, mv));
                Reply::ok(if legal { "1" } else { "0" })
            }
            GtpCommand::AllLegal(color) => {
                Reply::ok(self.vertex_list(self.pos.legal_points_as(color)))
            }
            GtpCommand::Captures(color) => Reply::ok(self.pos.captures(color).to_string()),
            GtpCommand::GoguiInterrupt => Reply::empty(),
            GtpCommand::Analyze(request) => self.analyze(id, request, conn).await,
            GtpCommand::GenmoveAnalyze(request) => self.genmove_analyze(id, request, conn).await,
            GtpCommand::GoguiAnalyzeCommands => self.analyze_commands(),
            GtpCommand::GoguiTitle => Reply::ok(format!("Warpstone {}", env!("CARGO_PKG_VERSION"))),
            GtpCommand::MoveValues(color) => self.move_values(color, conn).await,
            GtpCommand::MoveValuesText(color) => self.move_values_text(color, conn).await,
            GtpCommand::Cputime => crate::protocol::common::cputime_reply(),
            GtpCommand::Ownership => self.ownership(),
            GtpCommand::OwnershipGfx => self.ownership_gfx(),
            GtpCommand::PrincipalVariation => self.principal_variation(),
            GtpCommand::Statistics => self.statistics(),
            GtpCommand::Param(setting) => self.param(setting),
            GtpCommand::Unknown(_) => Reply::err(UNKNOWN_COMMAND),
        }
    }
}

/// The protocol text of a move on `pos`'s board.
pub(crate) fn move_vertex(pos: &Position, mv: Move) -> Vertex {
    match mv {
        Move::Pass => Vertex::Pass,
        Move::Play(p) => {
            let (col, row) = pos.coords(p);
            Vertex::Coord {
                col: col as u8,
                row: row as u8,
            }
        }
    }
}
