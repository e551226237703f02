//! The Hex adapter: GTP as HexGui, MoHex and the Hex tournament tools speak
//! it, on the shared [`GameSession`]. Cells are `a1` … `k11` (column letter,
//! row number, any case); `boardsize 11` or `boardsize 11 11` (square boards
//! only, 1 to 19); Black moves first; the swap rule's move is
//! `swap-pieces` (also read as `swap`), switched by `swap 0|1`;
//! `final_score` answers `B+` or `W+` once someone has connected.

use super::common::{self, CoreCommand};
use super::connection::Connection;
use super::session::{GameSession, SessionGame};
use super::{Reply, Session};
use crate::engine::EngineOptions;
use crate::game::hex::{Move, Position};
use crate::game::{Color, Game, Outcome};
use crate::protocol::args::{split_name, Args};
use crate::protocol::reply::{
    CANNOT_SCORE, ILLEGAL_MOVE, SYNTAX_ERROR, UNACCEPTABLE_SIZE, UNKNOWN_COMMAND,
};
use crate::protocol::{Expected, ParseError};
use crate::sim::Simulator;
use std::sync::Arc;
use std::time::Duration;

/// The tournament size (the SGF Hex spec's default).
const DEFAULT_SIZE: usize = 11;

/// The swap move's name in HexGui and MoHex.
const SWAP: &str = "swap-pieces";

/// Every command, for `list_commands` and `known_command`.
pub const HEX_COMMANDS: &[&str] = &[
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
    "swap",
    "time_settings",
    "time_left",
    "cputime",
    "gogui-analyze_commands",
    "hexgui-analyze_commands",
    "warpstone-move_values",
    "warpstone-move_values_text",
    "warpstone-ownership",
];

/// Both maps are `dboard`s over the rhombus, row 1 first.
const ANALYZE_COMMANDS: &str = "dboard/Move Values/warpstone-move_values
string/Move Values (Win Rates)/warpstone-move_values_text
dboard/Ownership/warpstone-ownership";

/// A move as the text names it; which cell is for the board to say.
#[derive(Clone, Debug, PartialEq)]
enum MoveText {
    Swap,
    Cell(String),
}

#[derive(Clone, Debug, PartialEq)]
enum HexCommand {
    /// protocol_version, name, version, known_command, list_commands,
    /// quit, cputime: answered alike in every game.
    Core(CoreCommand),
    BoardSize(i64, Option<i64>),
    ClearBoard,
    Play(Color, MoveText),
    Genmove(Color),
    FinalScore,
    Swap(bool),
    AnalyzeCommands,
    MoveValues,
    MoveValuesText,
    Ownership,
    Unknown,
}

/// A move's text: `swap-pieces`/`swap`, or anything shaped like a cell
/// (a letter and digits); the board decides whether it is on it.
fn move_text(token: &str) -> Option<MoveText> {
    if token.eq_ignore_ascii_case(SWAP) || token.eq_ignore_ascii_case("swap") {
        return Some(MoveText::Swap);
    }
    let mut chars = token.chars();
    let letter = chars.next()?;
    let digits = chars.as_str();
    (letter.is_ascii_alphabetic()
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit()))
    .then(|| MoveText::Cell(token.to_string()))
}

fn parse(text: &str) -> Result<HexCommand, ParseError> {
    use HexCommand as C;
    let (name, rest) = split_name(text).ok_or(ParseError::MissingCommand)?;
    let mut args = Args::new(name, rest);
    if let Some(core) = common::parse(name, &mut args) {
        let core = C::Core(core?);
        args.finish()?;
        return Ok(core);
    }
    let command = match name {
        "boardsize" => {
            let width = args.integer()?;
            let height = if args.is_empty() {
                None
            } else {
                Some(args.integer()?)
            };
            C::BoardSize(width, height)
        }
        "clear_board" => C::ClearBoard,
        "play" => {
            let color = args.color()?;
            let token = args.word(Expected::Cell)?;
            let mv = move_text(token).ok_or_else(|| args.invalid(Expected::Cell, token))?;
            C::Play(color, mv)
        }
        "genmove" => C::Genmove(args.color()?),
        "final_score" => C::FinalScore,
        "swap" => C::Swap(args.boolean()?),
        "gogui-analyze_commands" | "hexgui-analyze_commands" => C::AnalyzeCommands,
        "warpstone-move_values" => C::MoveValues,
        "warpstone-move_values_text" => C::MoveValuesText,
        "warpstone-ownership" => C::Ownership,
        _ => return Ok(C::Unknown),
    };
    args.finish()?;
    Ok(command)
}

impl SessionGame for Position {
    fn move_number(&self) -> usize {
        Position::move_number(self)
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Swap => SWAP.to_string(),
            Move::Play(c) => self.cell_name(c),
        }
    }

    fn showboard(&self) -> String {
        Position::showboard(self)
    }

    /// Row 1 first, column `a` first.
    fn dboard(&self, value: &dyn Fn(usize) -> f32) -> String {
        let mut out = String::new();
        for row in 0..self.size() {
            out.push('\n');
            let cells: Vec<String> = (0..self.size())
                .map(|column| format!("{:.3}", value(row * self.size() + column)))
                .collect();
            out.push_str(&cells.join(" "));
        }
        out
    }
}

pub struct HexSession {
    game: GameSession<Position>,
    swap_allowed: bool,
}

impl HexSession {
    pub fn new(options: EngineOptions, sim: Arc<dyn Simulator<Position>>) -> Self {
        let pos = Position::new(DEFAULT_SIZE).expect("default size is valid");
        HexSession {
            game: GameSession::new(options, pos, sim),
            swap_allowed: true,
        }
    }

    fn reset(&mut self, size: usize) -> Reply {
        let Ok(mut pos) = Position::new(size) else {
            return Reply::err(UNACCEPTABLE_SIZE);
        };
        pos.set_swap_allowed(self.swap_allowed);
        self.game.reset(pos);
        Reply::empty()
    }

    fn play(&mut self, color: Color, text: &MoveText) -> Reply {
        let mv = match text {
            MoveText::Swap => Some(Move::Swap),
            MoveText::Cell(name) => self.game.pos.parse_cell(name).map(Move::Play),
        };
        match mv {
            Some(mv) => self.game.play(color, mv).err().unwrap_or_else(Reply::empty),
            None => Reply::err(ILLEGAL_MOVE),
        }
    }

    fn final_score(&self) -> Reply {
        match self.game.pos.outcome() {
            Some(Outcome::Win(Color::Black)) => Reply::ok("B+"),
            Some(Outcome::Win(Color::White)) => Reply::ok("W+"),
            _ => Reply::err(CANNOT_SCORE),
        }
    }
}

/// The limits of one move: `--playouts`, `--time-per-move` and the
/// controller's clock.
fn limits(game: &GameSession<Position>, color: Color) -> crate::search::Limits {
    game.limits(game.clock_budget(color), None, None)
}

impl Session for HexSession {
    async fn execute(&mut self, _id: Option<u32>, text: &str, conn: &mut Connection) -> Reply {
        let command = match parse(text) {
            Ok(c) => c,
            Err(_) => return Reply::err(SYNTAX_ERROR),
        };
        match command {
            HexCommand::Core(command) => common::answer(command, HEX_COMMANDS, &mut self.game),
            HexCommand::BoardSize(width, height) if height.is_none_or(|h| h == width) => {
                match usize::try_from(width) {
                    Ok(size) => self.reset(size),
                    Err(_) => Reply::err(UNACCEPTABLE_SIZE),
                }
            }
            HexCommand::BoardSize(..) => Reply::err(UNACCEPTABLE_SIZE),
            HexCommand::ClearBoard => self.reset(self.game.pos.size()),
            HexCommand::Play(color, mv) => self.play(color, &mv),
            HexCommand::Genmove(color) => {
                let mut elapsed = Duration::ZERO;
                self.game
                    .genmove(Some(color), limits, conn, &mut elapsed)
                    .await
            }
            HexCommand::FinalScore => self.final_score(),
            HexCommand::Swap(on) => {
                self.swap_allowed = on;
                self.game.pos.set_swap_allowed(on);
                Reply::empty()
            }
            HexCommand::AnalyzeCommands => Reply::ok(ANALYZE_COMMANDS),
            HexCommand::MoveValues => {
                let limits = limits(&self.game, self.game.pos.to_move());
                self.game.move_values_reply(limits, conn).await
            }
            HexCommand::MoveValuesText => {
                let limits = limits(&self.game, self.game.pos.to_move());
                self.game.move_values_text_reply(limits, conn).await
            }
            HexCommand::Ownership => self.game.ownership_reply(),
            HexCommand::Unknown => Reply::err(UNKNOWN_COMMAND),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hexgui_commands() {
        assert_eq!(
            parse("boardsize 11 11"),
            Ok(HexCommand::BoardSize(11, Some(11)))
        );
        assert_eq!(parse("boardsize 7"), Ok(HexCommand::BoardSize(7, None)));
        assert_eq!(
            parse("play w swap-pieces"),
            Ok(HexCommand::Play(Color::White, MoveText::Swap))
        );
        assert_eq!(
            parse("play b K11"),
            Ok(HexCommand::Play(Color::Black, MoveText::Cell("K11".into())))
        );
        assert_eq!(
            parse("genmove white"),
            Ok(HexCommand::Genmove(Color::White))
        );
        assert_eq!(
            parse("hexgui-analyze_commands"),
            Ok(HexCommand::AnalyzeCommands)
        );
        assert_eq!(parse("chess"), Ok(HexCommand::Unknown));
        for bad in [
            "play b",
            "play x a1",
            "play b 1a",
            "play b a1 a2",
            "boardsize",
            "swap maybe",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_listed_command_parses() {
        let own = [
            ("boardsize", "boardsize 5"),
            ("play", "play b a1"),
            ("genmove", "genmove b"),
            ("swap", "swap 1"),
        ];
        for name in HEX_COMMANDS {
            let text = common::sample_line(name, &own);
            assert_ne!(parse(&text), Ok(HexCommand::Unknown), "{name}");
            assert!(parse(&text).is_ok(), "{name}");
        }
    }
}
