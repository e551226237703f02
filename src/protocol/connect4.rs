//! The Connect Four adapter: GTP framing on the shared [`GameSession`].
//! Moves are columns from 1; Black (`b`) is the first player; `boardsize 7
//! 6` or `boardsize 7x6` (width 4-8, height 4-7; `boardsize 7` keeps the
//! height). `genmove` plays the solver's perfect move when the solver
//! proves every column's value within the move's time, otherwise the
//! search's move; `warpstone-solve` answers every column's exact value
//! (Pons' score convention, and the same in words); `final_score` answers
//! `B+`, `W+` or `0` once the game is over. With `--database` (a file of
//! `warpstone build --out`), both answer from the file whenever the board
//! is the file's, at once and without the solver. With `--book` (a file of
//! `warpstone book`), `genmove` plays the book's move where it has one,
//! and `warpstone-solve` takes the scores it has from it.

use super::common::{self, CoreCommand};
use super::connection::Connection;
use super::session::{GameSession, SessionGame};
use super::{Reply, Session};
use crate::engine::think::{Controller, OnInput};
use crate::engine::EngineOptions;
use crate::game::connect4::{Move, Position};
use crate::game::{Color, Game, Outcome};
use crate::protocol::args::{split_name, Args};
use crate::protocol::reply::{
    CANNOT_SCORE, GAME_OVER, ILLEGAL_MOVE, SYNTAX_ERROR, UNACCEPTABLE_SIZE, UNKNOWN_COMMAND,
    WRONG_TURN,
};
use crate::protocol::{Expected, ParseError};
use crate::sim::Simulator;
use crate::solve::connect4::book::Book;
use crate::solve::connect4::build::DatabaseFile;
use crate::solve::connect4::{centre_order, describe, Solver, Table};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The solver's transposition table, shared by the moves of a game.
const TABLE_MIB: usize = 64;

/// Every command, for `list_commands` and `known_command`.
pub const CONNECT4_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "all_legal_moves",
    "time_settings",
    "time_left",
    "cputime",
    "warpstone-solve",
];

#[derive(Clone, Debug, PartialEq)]
enum C4Command {
    /// protocol_version, name, version, known_command, list_commands,
    /// quit, cputime: answered alike in every game.
    Core(CoreCommand),
    /// Width and height (`None`: keep the height).
    BoardSize(i64, Option<i64>),
    ClearBoard,
    Play(Color, i64),
    Genmove(Color),
    FinalScore,
    Solve,
    Unknown,
}

fn parse(text: &str) -> Result<C4Command, ParseError> {
    use C4Command as C;
    let (name, rest) = split_name(text).ok_or(ParseError::MissingCommand)?;
    let mut args = Args::new(name, rest);
    if let Some(core) = common::parse(name, &mut args) {
        let core = C::Core(core?);
        args.finish()?;
        return Ok(core);
    }
    let command = match name {
        "boardsize" => {
            let first = args.word(Expected::Integer)?;
            let lower = first.to_ascii_lowercase();
            match lower.split_once('x') {
                Some((w, h)) => {
                    let int = |t: &str| {
                        crate::protocol::args::integer(t)
                            .ok_or_else(|| args.invalid(Expected::Integer, first))
                    };
                    C::BoardSize(int(w)?, Some(int(h)?))
                }
                None => {
                    let width = crate::protocol::args::integer(first)
                        .ok_or_else(|| args.invalid(Expected::Integer, first))?;
                    let height = if args.is_empty() {
                        None
                    } else {
                        Some(args.integer()?)
                    };
                    C::BoardSize(width, height)
                }
            }
        }
        "clear_board" => C::ClearBoard,
        "play" => C::Play(args.color()?, args.integer()?),
        "genmove" => C::Genmove(args.color()?),
        "final_score" => C::FinalScore,
        "warpstone-solve" => C::Solve,
        _ => return Ok(C::Unknown),
    };
    args.finish()?;
    Ok(command)
}

impl SessionGame for Position {
    fn move_number(&self) -> usize {
        self.moves() as usize
    }

    fn move_text(&self, mv: Move) -> String {
        (mv as usize + 1).to_string()
    }

    fn showboard(&self) -> String {
        Position::showboard(self)
    }

    /// Top row first, as the board is drawn.
    fn dboard(&self, value: &dyn Fn(usize) -> f32) -> String {
        let mut out = String::new();
        for row in (0..self.height()).rev() {
            out.push('\n');
            let cells: Vec<String> = (0..self.width())
                .map(|c| format!("{:.3}", value(row * self.width() + c)))
                .collect();
            out.push_str(&cells.join(" "));
        }
        out
    }
}

pub struct Connect4Session {
    game: GameSession<Position>,
    table: Arc<Table>,
    database: Option<DatabaseFile>,
    book: Option<Arc<Book>>,
}

impl Connect4Session {
    pub fn new(options: EngineOptions, sim: Arc<dyn Simulator<Position>>) -> Self {
        Connect4Session {
            game: GameSession::new(options, Position::standard(), sim),
            table: Arc::new(Table::with_mib(TABLE_MIB)),
            database: None,
            book: None,
        }
    }

    /// A session with the options' database open, if they name one.
    pub fn open(
        options: EngineOptions,
        sim: Arc<dyn Simulator<Position>>,
    ) -> std::io::Result<Self> {
        let database = match &options.database {
            Some(path) => {
                let file = DatabaseFile::open(path).map_err(|e| {
                    std::io::Error::new(e.kind(), format!("--database: {}: {e}", path.display()))
                })?;
                let shape = file.shape();
                tracing::info!(
                    width = shape.width,
                    height = shape.height,
                    "database loaded"
                );
                Some(file)
            }
            None => None,
        };
        let book = match &options.book {
            Some(path) => {
                let book = Book::open(path).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("--book: {}: {e}", path.display()),
                    )
                })?;
                let shape = book.shape();
                tracing::info!(
                    width = shape.width,
                    height = shape.height,
                    positions = book.len(),
                    "book loaded"
                );
                Some(Arc::new(book))
            }
            None if options.no_book => None,
            None => standard_book(),
        };
        let mut session = Connect4Session::new(options, sim);
        session.database = database;
        session.book = book;
        Ok(session)
    }

    fn reset(&mut self, width: i64, height: i64) -> Reply {
        let size = |v: i64| usize::try_from(v).ok();
        let Some(pos) = size(width)
            .zip(size(height))
            .and_then(|(w, h)| Position::new(w, h).ok())
        else {
            return Reply::err(UNACCEPTABLE_SIZE);
        };
        if pos.shape() != self.game.pos.shape() {
            // Keys are unique on one board only.
            self.table.clear();
        }
        self.game.reset(pos);
        Reply::empty()
    }

    fn play(&mut self, color: Color, column: i64) -> Reply {
        match u8::try_from(column - 1) {
            Ok(mv) if (mv as usize) < self.game.pos.width() => {
                self.game.play(color, mv).err().unwrap_or_else(Reply::empty)
            }
            _ => Reply::err(ILLEGAL_MOVE),
        }
    }

    fn final_score(&self) -> Reply {
        match self.game.pos.outcome() {
            Some(Outcome::Win(Color::Black)) => Reply::ok("B+"),
            Some(Outcome::Win(Color::White)) => Reply::ok("W+"),
            Some(Outcome::Draw) => Reply::ok("0"),
            None => Reply::err(CANNOT_SCORE),
        }
    }

    /// Every column's exact score for the side to move, proved within
    /// `time`; `None` when the solver ran out of time (or was interrupted).
    async fn solve_columns(
        &mut self,
        time: Duration,
        conn: &mut Connection,
    ) -> Option<Vec<Option<i32>>> {
        let pos = self.game.pos;
        if let Some(scores) = self.database.as_ref().and_then(|db| db.analyze(&pos)) {
            tracing::debug!("answered from the database");
            return Some(scores);
        }
        let table = self.table.clone();
        let book = self.book.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = stop.clone();
        let deadline = Instant::now() + time;
        let job = move || {
            let mut solver = Solver::new(&table, pos.width())
                .with_stop(&job_stop)
                .with_deadline(Some(deadline));
            let Some(book) = book else {
                return solver.analyze(&pos, false);
            };
            let win = crate::solve::connect4::win_in_one(&pos);
            crate::solve::connect4::column_scores(&pos, win, |child| {
                book.exact(child).or_else(|| solver.solve(child, false))
            })
        };
        conn.think(stop, OnInput::Queue, None, job)
            .await
            .ok()
            .flatten()
    }

    /// A winning column for the side to move proved within `time`
    /// (`Solver::winning_move`): `Some(None)` when the position is no win,
    /// `None` when the time ran out.
    async fn find_win(&mut self, time: Duration, conn: &mut Connection) -> Option<Option<usize>> {
        let pos = self.game.pos;
        let table = self.table.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = stop.clone();
        let deadline = Instant::now() + time;
        let job = move || {
            Solver::new(&table, pos.width())
                .with_stop(&job_stop)
                .with_deadline(Some(deadline))
                .winning_move(&pos)
        };
        conn.think(stop, OnInput::Queue, None, job)
            .await
            .ok()
            .flatten()
    }

    /// The time the solver may take for this move: the move's time limit,
    /// or the default one.
    fn solver_time(&self, color: Color) -> Duration {
        limits(&self.game, color)
            .time
            .unwrap_or(crate::engine::options::DEFAULT_TIME_PER_MOVE)
    }

    /// `genmove`'s share of the move's time for the solver: the search that
    /// follows an unproved position must still fit in the same move.
    fn genmove_solver_time(&self, color: Color) -> Duration {
        self.solver_time(color).mul_f64(SOLVER_SHARE)
    }

    async fn genmove(&mut self, color: Color, conn: &mut Connection) -> Reply {
        if self.game.pos.outcome().is_some() {
            return Reply::err(GAME_OVER);
        }
        if color != self.game.pos.to_move() {
            return Reply::err(WRONG_TURN);
        }
        // A stone that makes four needs no proof.
        let pos = self.game.pos;
        if let Some(column) = centre_order(pos.width())
            .into_iter()
            .find(|&c| pos.can_play(c) && pos.is_winning_move(c))
        {
            let mv = column as Move;
            return match self.game.play(color, mv) {
                Ok(()) => Reply::ok(self.game.pos.move_text(mv)),
                Err(reply) => reply,
            };
        }
        if let Some(column) = self.book.as_ref().and_then(|b| b.best_move(&pos)) {
            tracing::info!(column = column + 1, "from the book");
            let mv = column as Move;
            return match self.game.play(color, mv) {
                Ok(()) => Reply::ok(self.game.pos.move_text(mv)),
                Err(reply) => reply,
            };
        }
        let started = Instant::now();
        let solver_time = self.genmove_solver_time(color);
        let from_database = self
            .database
            .as_ref()
            .is_some_and(|db| db.score(&pos).is_some());
        if !from_database {
            // A win needs one proof, not every column's exact score.
            match self.find_win(solver_time, conn).await {
                Some(Some(column)) => {
                    self.game.clock.spend(color, started.elapsed());
                    tracing::info!(column = column + 1, "proved to win");
                    let mv = column as Move;
                    return match self.game.play(color, mv) {
                        Ok(()) => Reply::ok(self.game.pos.move_text(mv)),
                        Err(reply) => reply,
                    };
                }
                // No win: the exact scores pick the best draw or the
                // longest loss, in what is left of the solver's time.
                Some(None) => {}
                None => return self.search_move(color, started, conn).await,
            }
        }
        let left = solver_time.saturating_sub(started.elapsed());
        if let Some(scores) = self.solve_columns(left, conn).await {
            self.game.clock.spend(color, started.elapsed());
            // The best score; among equals the column nearest the centre.
            let best = centre_order(self.game.pos.width())
                .into_iter()
                .filter_map(|c| scores[c].map(|s| (c, s)))
                .max_by_key(|&(c, s)| (s, std::cmp::Reverse(order_rank(c, &self.game.pos))));
            if let Some((column, score)) = best {
                tracing::info!(column = column + 1, score, "solved");
                let mv = column as Move;
                return match self.game.play(color, mv) {
                    Ok(()) => Reply::ok(self.game.pos.move_text(mv)),
                    Err(reply) => reply,
                };
            }
        }
        self.search_move(color, started, conn).await
    }

    /// The search's move, in what is left of the move's time since
    /// `started`.
    async fn search_move(
        &mut self,
        color: Color,
        started: Instant,
        conn: &mut Connection,
    ) -> Reply {
        tracing::info!("not solved in time; searching");
        let spent = started.elapsed();
        let mut elapsed = Duration::ZERO;
        self.game
            .genmove(
                Some(color),
                |game, color| search_limits(limits(game, color), spent),
                conn,
                &mut elapsed,
            )
            .await
    }

    /// `warpstone-solve`: one line per column, `column score words`
    /// (`column full` for a full one), proved within the move's time.
    async fn solve_reply(&mut self, conn: &mut Connection) -> Reply {
        if self.game.pos.outcome().is_some() {
            return Reply::err(GAME_OVER);
        }
        let time = self.solver_time(self.game.pos.to_move());
        let Some(scores) = self.solve_columns(time, conn).await else {
            return Reply::err("not solved in time");
        };
        let pos = &self.game.pos;
        let cells = pos.shape().cells();
        let lines: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(c, s)| match s {
                Some(0) => format!("{} 0 draw", c + 1),
                Some(s) => format!("{} {s:+} {}", c + 1, describe(*s, cells, pos.moves())),
                None => format!("{} full", c + 1),
            })
            .collect();
        Reply::ok(format!("\n{}", lines.join("\n")))
    }
}

/// The 7x6 book built into the binary; `None` (logged) if it is empty or
/// does not read, which the tests rule out.
fn standard_book() -> Option<Arc<Book>> {
    match Book::standard() {
        Ok(book) if !book.is_empty() => {
            tracing::info!(positions = book.len(), "built-in 7x6 book loaded");
            Some(Arc::new(book))
        }
        Ok(_) => None,
        Err(e) => {
            tracing::warn!("built-in 7x6 book: {e}");
            None
        }
    }
}

/// Where `column` stands in the centre-first order (0 = the centre).
fn order_rank(column: usize, pos: &Position) -> usize {
    centre_order(pos.width())
        .iter()
        .position(|&c| c == column)
        .unwrap_or(usize::MAX)
}

/// The share of a move's time that `genmove` gives the solver; the search
/// gets the rest when the solver does not finish. With the whole move for
/// each, an unproved move took twice its time (1.2–1.6 s under
/// `time_settings 0 1 1`).
const SOLVER_SHARE: f64 = 0.75;
/// The least a search is given after the solver, so that it returns a move.
const MIN_SEARCH_TIME: Duration = Duration::from_millis(20);

/// The search's limits once the solver has used `spent` of the move.
fn search_limits(mut limits: crate::search::Limits, spent: Duration) -> crate::search::Limits {
    if let Some(time) = limits.time {
        limits.time = Some(time.saturating_sub(spent).max(MIN_SEARCH_TIME));
    }
    limits
}

/// The limits of one move: `--playouts`, `--time-per-move` and the
/// controller's clock.
fn limits(game: &GameSession<Position>, color: Color) -> crate::search::Limits {
    game.limits(game.clock_budget(color), None, None)
}

impl Session for Connect4Session {
    async fn execute(&mut self, _id: Option<u32>, text: &str, conn: &mut Connection) -> Reply {
        let command = match parse(text) {
            Ok(c) => c,
            Err(_) => return Reply::err(SYNTAX_ERROR),
        };
        match command {
            C4Command::Core(command) => common::answer(command, CONNECT4_COMMANDS, &mut self.game),
            C4Command::BoardSize(width, height) => {
                let height = height.unwrap_or(self.game.pos.height() as i64);
                self.reset(width, height)
            }
            C4Command::ClearBoard => {
                let (w, h) = (self.game.pos.width(), self.game.pos.height());
                self.reset(w as i64, h as i64)
            }
            C4Command::Play(color, column) => self.play(color, column),
            C4Command::Genmove(color) => self.genmove(color, conn).await,
            C4Command::FinalScore => self.final_score(),
            C4Command::Solve => self.solve_reply(conn).await,
            C4Command::Unknown => Reply::err(UNKNOWN_COMMAND),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_boardsize_both_ways_and_columns() {
        assert_eq!(parse("boardsize 7 6"), Ok(C4Command::BoardSize(7, Some(6))));
        assert_eq!(parse("boardsize 5x4"), Ok(C4Command::BoardSize(5, Some(4))));
        assert_eq!(parse("boardsize 8X7"), Ok(C4Command::BoardSize(8, Some(7))));
        assert_eq!(parse("boardsize 6"), Ok(C4Command::BoardSize(6, None)));
        assert_eq!(parse("play b 4"), Ok(C4Command::Play(Color::Black, 4)));
        assert_eq!(parse("chess"), Ok(C4Command::Unknown));
        for bad in [
            "boardsize",
            "boardsize 7x",
            "boardsize x6",
            "boardsize 7x6 2",
            "boardsize seven",
            "play b",
            "play b d",
            "play x 4",
            "play b 4 5",
            "genmove",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_search_after_the_solver_gets_what_is_left_of_the_move() {
        let timed = crate::search::Limits {
            playouts: None,
            time: Some(Duration::from_millis(1000)),
            whole_time: false,
        };
        let left = search_limits(timed, Duration::from_millis(750));
        assert_eq!(left.time, Some(Duration::from_millis(250)));
        let late = search_limits(timed, Duration::from_millis(1500));
        assert_eq!(late.time, Some(MIN_SEARCH_TIME));
        let fixed = crate::search::Limits {
            playouts: Some(5000),
            time: None,
            whole_time: false,
        };
        assert_eq!(search_limits(fixed, Duration::from_secs(3)), fixed);
    }

    #[test]
    fn every_listed_command_parses() {
        let own = [
            ("boardsize", "boardsize 7 6"),
            ("play", "play b 4"),
            ("genmove", "genmove b"),
        ];
        for name in CONNECT4_COMMANDS {
            let text = common::sample_line(name, &own);
            assert!(parse(&text).is_ok(), "{name}");
            assert_ne!(parse(&text), Ok(C4Command::Unknown), "{name}");
        }
    }
}
