//! The Go session: GTP commands in, rule calls and searches out.
//!
//! State is the current position plus everything needed to undo and to
//! write the game record. One `match` dispatches every command; each arm
//! stays small and the longer ones live in sibling files (setup, scoring,
//! think).

mod analysis;
mod gogui;
mod scoring;
mod setup;
mod think;

use super::connection::Connection;
use super::think::Thinker;
use super::{EngineOptions, Reply, Session};
use crate::game::go::{Move, Point, Position};
use crate::game::Color;
use crate::protocol::gtp::{self, GtpCommand};
use crate::protocol::reply::{
    CANNOT_UNDO, ILLEGAL_MOVE, SYNTAX_ERROR, UNACCEPTABLE_SIZE, UNKNOWN_COMMAND,
};
use crate::protocol::vertex::Vertex;
use crate::protocol::TimeSystem;
use crate::search::time::Clock;
use crate::sim::Simulator;
use std::sync::Arc;

/// Board size and komi a fresh engine starts with (GTP leaves them to the
/// engine; 19x19 and 7.5 are what GoGui and Sabaki assume).
const DEFAULT_SIZE: usize = 19;
const DEFAULT_KOMI: f32 = 7.5;

pub struct GoSession {
    options: EngineOptions,
    pos: Position,
    /// Positions before each move or setup, for `undo`.
    undo_stack: Vec<Position>,
    /// The game so far, for `printsgf`.
    record: crate::game::go::sgf::GameRecord,
    thinker: Thinker<Position>,
    /// Set by a genmove that played: the next idle moment may ponder.
    ponder_after: bool,
    /// The last search's result, for the GoGui statistics and PV.
    last_info: Option<crate::search::SearchInfo<Move>>,
    /// The position that search was rooted at, so its PV can be followed
    /// to the current one.
    last_root: Option<Position>,
    clock: Clock,
}

impl GoSession {
    pub fn new(options: EngineOptions) -> GoSession {
        let sim: Arc<dyn Simulator<Position>> = super::simulator_for::<Position>(&options.backend);
        let pos = Position::new(DEFAULT_SIZE, DEFAULT_KOMI).expect("default size is valid");
        GoSession {
            record: setup::empty_record(&pos),
            thinker: Thinker::new(options.search.clone(), sim),
            options,
            pos,
            undo_stack: Vec::new(),
            clock: Clock::default(),
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
        self.pos = pos;
        self.undo_stack.clear();
        self.record = setup::empty_record(&self.pos);
        self.thinker.clear(&self.pos);
        Ok(())
    }

    /// Plays `mv` for `color` and records it; on failure nothing changes.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), Reply> {
        let before = self.pos.clone();
        self.pos
            .play_as(color, mv)
            .map_err(|_| Reply::err(ILLEGAL_MOVE))?;
        self.undo_stack.push(before);
        let coords = match mv {
            Move::Pass => None,
            Move::Play(p) => Some(self.pos.coords(p)),
        };
        self.record.moves.push((color, coords));
        Ok(())
    }

    fn undo(&mut self) -> Reply {
        match self.undo_stack.pop() {
            Some(previous) => {
                self.pos = previous;
                self.record.moves.pop();
                Reply::empty()
            }
            None => Reply::err(CANNOT_UNDO),
        }
    }

    fn set_time(&mut self, system: TimeSystem) -> Reply {
        self.clock = Clock::new(super::time_control(system));
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
            GtpCommand::ShowBoard => Reply::ok(format!("\n{}", self.pos.showboard().trim_end())),
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
            } => super::apply_time_left(&mut self.clock, color, seconds, stones),
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
            GtpCommand::Cputime => super::cputime::reply(),
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
