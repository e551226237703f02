//! The Amazons adapter: GTP framing on the shared [`GameSession`]. Moves
//! are `d1-d7/g7` (from-to/arrow); `boardsize 6|8|10` (10 by default);
//! White moves first; a player without a move has lost. `final_score`
//! names the winner once the game is over or the board is split into
//! regions of one side each, with the margin of squares each side can
//! still reach (`W+12`); `warpstone-legal_count` answers the number of
//! legal moves, `all_legal` / `all_legal_moves` lists them. Analysis for
//! GoGui: the territory of Lieberum's queen distances as a `dboard`, the
//! principal variation and the evaluation's terms. `loadsgf` / `printsgf`
//! read and write red-bean's SGF `GM[18]` ([`sgf`]).

use super::common::{self, CoreCommand};
use super::connection::Connection;
use super::session::{GameSession, SessionGame};
use super::{Reply, Session};
use crate::engine::EngineOptions;
use crate::game::amazons::{sgf, Move, ParseMoveError, Position};
use crate::game::{Color, Game, Outcome};
use crate::protocol::args::{split_name, Args};
use crate::protocol::reply::{
    CANNOT_LOAD_FILE, CANNOT_SAVE_FILE, CANNOT_SCORE, ILLEGAL_MOVE, SYNTAX_ERROR,
    UNACCEPTABLE_SIZE, UNKNOWN_COMMAND,
};
use crate::protocol::{Expected, ParseError};
use crate::sim::amazons_eval::{distances, features, UNREACHED};
use crate::sim::Simulator;
use std::sync::Arc;
use std::time::Duration;

/// The standard board.
const DEFAULT_SIZE: usize = 10;

/// Every command, for `list_commands` and `known_command`.
pub const AMAZONS_COMMANDS: &[&str] = &[
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
    "all_legal",
    "all_legal_moves",
    "warpstone-legal_count",
    "time_settings",
    "time_left",
    "cputime",
    "gogui-analyze_commands",
    "warpstone-territory",
    "warpstone-pv",
    "warpstone-statistics",
    "loadsgf",
    "printsgf",
];

const ANALYZE_COMMANDS: &str = "dboard/Territory/warpstone-territory
string/Principal Variation/warpstone-pv
string/Statistics/warpstone-statistics";

#[derive(Clone, Debug, PartialEq)]
enum AmazonsCommand {
    /// protocol_version, name, version, known_command, list_commands,
    /// quit, cputime: answered alike in every game.
    Core(CoreCommand),
    BoardSize(i64),
    ClearBoard,
    /// The move as written; the board decides whether it is on it.
    Play(Color, String),
    Genmove(Color),
    FinalScore,
    AllLegal,
    LegalCount,
    AnalyzeCommands,
    Territory,
    Pv,
    Statistics,
    LoadSgf(String),
    PrintSgf(Option<String>),
    Unknown,
}

fn parse(text: &str) -> Result<AmazonsCommand, ParseError> {
    use AmazonsCommand as C;
    let (name, rest) = split_name(text).ok_or(ParseError::MissingCommand)?;
    let mut args = Args::new(name, rest);
    if let Some(core) = common::parse(name, &mut args) {
        let core = C::Core(core?);
        args.finish()?;
        return Ok(core);
    }
    let command = match name {
        "boardsize" => C::BoardSize(args.integer()?),
        "clear_board" => C::ClearBoard,
        "play" => C::Play(args.color()?, args.word(Expected::Vertex)?.to_string()),
        "genmove" => C::Genmove(args.color()?),
        "final_score" => C::FinalScore,
        // `all_legal_moves` is the shared core's; `all_legal` the name.
        "all_legal" => C::AllLegal,
        "warpstone-legal_count" => C::LegalCount,
        "gogui-analyze_commands" => C::AnalyzeCommands,
        "warpstone-territory" => C::Territory,
        "warpstone-pv" => C::Pv,
        "warpstone-statistics" => C::Statistics,
        "loadsgf" => C::LoadSgf(args.word(Expected::FileName)?.to_string()),
        "printsgf" => C::PrintSgf(args.optional_word().map(str::to_string)),
        _ => return Ok(C::Unknown),
    };
    args.finish()?;
    Ok(command)
}

impl SessionGame for Position {
    fn move_number(&self) -> usize {
        self.plies()
    }

    fn move_text(&self, mv: Move) -> String {
        Position::move_text(mv)
    }

    fn showboard(&self) -> String {
        self.draw()
    }

    /// Top rank first, file a first, as the board is drawn.
    fn dboard(&self, value: &dyn Fn(usize) -> f32) -> String {
        let n = self.size();
        let mut out = String::new();
        for rank in (0..n).rev() {
            out.push('\n');
            let cells: Vec<String> = (0..n)
                .map(|file| format!("{:.3}", value(rank * n + file)))
                .collect();
            out.push_str(&cells.join(" "));
        }
        out
    }
}

/// The squares each side can still reach, and who wins, once no empty
/// square is reachable by both (or the game is over): `(winner, margin)`.
/// Equal counts lose for the side to move, which runs out first. The
/// counts are what each side could fill at best (a region may have
/// squares that cannot all be used), so they score a split board, not a
/// proof of its outcome.
pub fn split_score(pos: &Position) -> Option<(Color, u32)> {
    if let Some(Outcome::Win(winner)) = pos.outcome() {
        let f = features(pos);
        let own = if winner == pos.to_move() {
            f.own
        } else {
            f.other
        };
        return Some((winner, own));
    }
    let f = features(pos);
    if !f.separated() {
        return None;
    }
    let me = pos.to_move();
    Some(if f.own > f.other {
        (me, f.own - f.other)
    } else {
        (me.opponent(), f.other - f.own)
    })
}

pub struct AmazonsSession {
    game: GameSession<Position>,
}

impl AmazonsSession {
    pub fn new(options: EngineOptions, sim: Arc<dyn Simulator<Position>>) -> Self {
        let pos = Position::new(DEFAULT_SIZE).expect("the default size is valid");
        AmazonsSession {
            game: GameSession::new(options, pos, sim),
        }
    }

    fn reset(&mut self, size: i64) -> Reply {
        match usize::try_from(size)
            .ok()
            .and_then(|n| Position::new(n).ok())
        {
            Some(pos) => {
                self.game.reset(pos);
                Reply::empty()
            }
            None => Reply::err(UNACCEPTABLE_SIZE),
        }
    }

    fn play(&mut self, color: Color, text: &str) -> Reply {
        match self.game.pos.parse_move(text) {
            Ok(mv) => self.game.play(color, mv).err().unwrap_or_else(Reply::empty),
            Err(ParseMoveError::OffBoard) => Reply::err(ILLEGAL_MOVE),
            Err(ParseMoveError::Syntax) => Reply::err(SYNTAX_ERROR),
        }
    }

    /// `loadsgf FILE`: the record's start and moves (red-bean's GM[18],
    /// [`sgf`]), `undo` back to its start; a bad file changes nothing.
    fn load(&mut self, path: &str) -> Reply {
        let Some(text) = crate::engine::record_file::read_record_logged(path) else {
            return Reply::err(CANNOT_LOAD_FILE);
        };
        let record = match sgf::parse_sgf(&text) {
            Ok(record) => record,
            Err(e) => {
                tracing::warn!("loadsgf {path:?}: {e}");
                return Reply::err(CANNOT_LOAD_FILE);
            }
        };
        let mut pos = record.start;
        let mut undo_stack = Vec::with_capacity(record.moves.len());
        let mut played = Vec::with_capacity(record.moves.len());
        for &mv in &record.moves {
            undo_stack.push(pos.clone());
            played.push((pos.to_move(), mv));
            pos.apply(mv);
        }
        self.game.reset(pos);
        self.game.moves = played;
        self.game.undo_stack = undo_stack;
        Reply::empty()
    }

    /// `printsgf [FILE]`: the game from its start, as text or into FILE.
    fn print(&self, path: Option<&str>) -> Reply {
        let start = self.game.undo_stack.first().unwrap_or(&self.game.pos);
        let moves: Vec<Move> = self.game.moves.iter().map(|&(_, mv)| mv).collect();
        let text = sgf::write_sgf(start, &moves);
        match path {
            None => Reply::ok(text.trim_end()),
            Some(p) => match std::fs::write(p, text) {
                Ok(()) => Reply::empty(),
                Err(_) => Reply::err(CANNOT_SAVE_FILE),
            },
        }
    }

    fn final_score(&self) -> Reply {
        match split_score(&self.game.pos) {
            Some((Color::White, margin)) => Reply::ok(format!("W+{margin}")),
            Some((Color::Black, margin)) => Reply::ok(format!("B+{margin}")),
            None => Reply::err(CANNOT_SCORE),
        }
    }

    /// +1 where Black's queens are nearer in queen moves, -1 where
    /// White's are, 0 where they are as near, on queens and on arrows.
    fn territory(&self) -> Reply {
        let pos = &self.game.pos;
        let d = distances(pos);
        let (black, white) = match pos.to_move() {
            Color::Black => (0, 1),
            Color::White => (1, 0),
        };
        let n = pos.size();
        let empty = pos.empty();
        let value = |cell: usize| {
            let sq = crate::game::amazons::bitboard::bit_index(cell % n, cell / n);
            if empty & crate::game::amazons::bitboard::bit(sq) == 0 {
                return 0.0;
            }
            let (b, w) = (d.queen[black][sq as usize], d.queen[white][sq as usize]);
            match (b, w) {
                _ if b == w => 0.0,
                (UNREACHED, _) => -1.0,
                (_, UNREACHED) => 1.0,
                _ if b < w => 1.0,
                _ => -1.0,
            }
        };
        Reply::ok(pos.dboard(&value))
    }

    /// The evaluation's terms for the side to move.
    fn statistics(&self) -> Reply {
        let pos = &self.game.pos;
        let f = features(pos);
        Reply::ok(format!(
            "to_move {} legal {} t1 {:.2} t2 {:.2} c1 {:.3} c2 {:.3} w {:.3} value {:.3} \
             win {:.3} own {} other {} contested {}",
            pos.to_move(),
            pos.count_moves(),
            f.t1,
            f.t2,
            f.c1,
            f.c2,
            f.w,
            f.value(),
            f.win_probability(),
            f.own,
            f.other,
            f.contested
        ))
    }

    /// A search within the move's limits, not played: its best line.
    async fn pv(&mut self, conn: &mut Connection) -> Reply {
        if self.game.pos.outcome().is_some() {
            return Reply::ok("");
        }
        let color = self.game.pos.to_move();
        let limits = limits(&self.game, color);
        let pos = self.game.pos.clone();
        let Some(thought) = self.game.think(pos, color, limits, conn, None).await else {
            return Reply::err("search failed");
        };
        let line = thought
            .info
            .candidates
            .first()
            .map(|c| c.pv.iter().map(|&m| Position::move_text(m)).collect())
            .unwrap_or_else(Vec::<String>::new);
        Reply::ok(line.join(" "))
    }
}

/// The limits of one move: `--playouts`, `--time-per-move` and the
/// controller's clock.
fn limits(game: &GameSession<Position>, color: Color) -> crate::search::Limits {
    game.limits(game.clock_budget(color), None, None)
}

impl Session for AmazonsSession {
    async fn execute(&mut self, _id: Option<u32>, text: &str, conn: &mut Connection) -> Reply {
        use AmazonsCommand as C;
        let command = match parse(text) {
            Ok(c) => c,
            Err(_) => return Reply::err(SYNTAX_ERROR),
        };
        match command {
            C::Core(command) => common::answer(command, AMAZONS_COMMANDS, &mut self.game),
            C::BoardSize(size) => self.reset(size),
            C::ClearBoard => self.reset(self.game.pos.size() as i64),
            C::Play(color, mv) => self.play(color, &mv),
            C::Genmove(color) => {
                let mut elapsed = Duration::ZERO;
                self.game
                    .genmove(Some(color), limits, conn, &mut elapsed)
                    .await
            }
            C::FinalScore => self.final_score(),
            C::AllLegal => self.game.all_legal_reply(),
            C::LegalCount => Reply::ok(self.game.pos.count_moves().to_string()),
            C::AnalyzeCommands => Reply::ok(ANALYZE_COMMANDS),
            C::Territory => self.territory(),
            C::Pv => self.pv(conn).await,
            C::Statistics => self.statistics(),
            C::LoadSgf(path) => self.load(&path),
            C::PrintSgf(path) => self.print(path.as_deref()),
            C::Unknown => Reply::err(UNKNOWN_COMMAND),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_and_refuses_bad_arguments() {
        assert_eq!(parse("boardsize 8"), Ok(AmazonsCommand::BoardSize(8)));
        assert_eq!(
            parse("play w d1-d7/g7"),
            Ok(AmazonsCommand::Play(Color::White, "d1-d7/g7".into()))
        );
        assert_eq!(parse("all_legal"), Ok(AmazonsCommand::AllLegal));
        assert_eq!(parse("chess"), Ok(AmazonsCommand::Unknown));
        for bad in [
            "boardsize",
            "boardsize ten",
            "boardsize 10 10",
            "play w",
            "play x d1-d7/g7",
            "play w d1-d7/g7 extra",
            "genmove",
            "genmove purple",
            "showboard now",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_listed_command_parses() {
        let own = [
            ("boardsize", "boardsize 10"),
            ("play", "play w d1-d7/g7"),
            ("genmove", "genmove w"),
            ("loadsgf", "loadsgf game.sgf"),
        ];
        for name in AMAZONS_COMMANDS {
            let text = common::sample_line(name, &own);
            assert!(parse(&text).is_ok(), "{name}");
            assert_ne!(parse(&text), Ok(AmazonsCommand::Unknown), "{name}");
        }
    }

    #[test]
    fn a_split_board_scores_the_squares_each_side_reaches() {
        let probe = Position::new(6).unwrap();
        let sq = |t: &str| crate::game::amazons::bitboard::bit(probe.parse_square(t).unwrap());
        let white = sq("a1");
        let black = sq("f6");
        let arrows = sq("a3") | sq("b3") | sq("c3") | sq("c2") | sq("c1");
        for to_move in Color::BOTH {
            let pos = Position::from_sets(6, white, black, arrows, to_move).unwrap();
            // White has a2, b1, b2; Black the other 26 empty squares.
            assert_eq!(split_score(&pos), Some((Color::Black, 23)));
        }
        assert_eq!(split_score(&probe), None);
    }
}
