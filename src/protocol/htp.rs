//! HTP, the GTP dialect Havannah programs speak, compatible with Castro
//! (Timo Ewalds' engine, also used by HavannahGui and Little Golem bots).
//!
//! Same line layer and reply format as GTP. Differences from GTP that come
//! from Castro: White moves first; cells are `c3`-style [`HexVertex`](super::hex_vertex::HexVertex)es and
//! `swap` is a move; `genmove` takes an optional colour (and Castro's
//! optional seconds); `undo` an optional count; `swap 0|1` switches the swap
//! rule; `havannah_winner` reports `none`, `white`, `black` or `draw`;
//! `time` takes Castro's option list (`time -m 5 -g 600`); `all_legal` has
//! no colour. Castro's private aliases (`print`, `winner`, `white`, …) and
//! solver commands are deliberately not offered.

use crate::game::Color;
use crate::protocol::args::{boolean, number, split_name, Args, Expected, ParseError};
use crate::protocol::hex_vertex::HexMove;
use crate::protocol::time::{parse_time_left, parse_time_settings, TimeSystem};

#[derive(Clone, Debug, PartialEq)]
pub enum HtpCommand {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// Side length; the engine decides which sizes it accepts.
    BoardSize(i64),
    ClearBoard,
    Play(Color, HexMove),
    /// `genmove [colour [seconds]]`; without a colour, the side to move.
    Genmove {
        color: Option<Color>,
        seconds: Option<f64>,
    },
    /// `undo [count]`, count 1 when omitted.
    Undo(u32),
    ShowBoard,
    HavannahWinner,
    /// `swap 0|1`: whether the second player may swap.
    Swap(bool),
    AllLegal,
    /// `gogui-analyze_commands`: the analysis menu for GoGui-style clients.
    GoguiAnalyzeCommands,
    /// `warpstone-move_values`: every legal cell rated by its own playouts,
    /// as a `dboard` over Castro's (2s-1)x(2s-1) grid.
    MoveValues,
    /// `warpstone-move_values_text`: the same rating as text, the raw win
    /// rates best first.
    MoveValuesText,
    /// `cputime`: the engine's CPU seconds so far.
    Cputime,
    /// `warpstone-ownership`: the playouts' ownership estimate, same grid.
    Ownership,
    /// Castro's `time` options, in the order given; empty asks the engine
    /// to describe its current settings.
    Time(Vec<TimeOption>),
    TimeSettings(TimeSystem),
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: i64,
    },
    LoadSgf(String),
    PrintSgf(Option<String>),
    Unknown(String),
}

/// One option of Castro's `time` command. The first three choose how the
/// remaining game time is spread over moves, each with an optional positive
/// parameter (Castro's defaults: 10 %, 2.0, 2.0); the rest set values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeOption {
    /// `-p` / `--percent [x]`: x % of the remaining time per move.
    Percent(Option<f64>),
    /// `-e` / `--even [x]`: x times an even split over the most moves left.
    Even(Option<f64>),
    /// `-s` / `--stats [x]`: x times an even split over the expected moves left.
    Stats(Option<f64>),
    /// `-m` / `--move s`: seconds added for every move.
    Move(f64),
    /// `-g` / `--game s`: seconds for the whole game.
    Game(f64),
    /// `-f` / `--flexible 0|1`: carry unused per-move time over.
    Flexible(bool),
    /// `-i` / `--maxsims n`: simulation cap per move.
    MaxSims(i64),
    /// `-r` / `--remain s`: game time left now.
    Remain(f64),
}

pub const HTP_COMMANDS: &[&str] = &[
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
    "havannah_winner",
    "swap",
    "all_legal",
    "gogui-analyze_commands",
    "warpstone-move_values",
    "warpstone-ownership",
    "time",
    "time_settings",
    "time_left",
    "loadsgf",
    "printsgf",
    "warpstone-move_values_text",
    "cputime",
];

/// Parses the command text of a [`crate::protocol::Line::Command`].
pub fn parse_htp(text: &str) -> Result<HtpCommand, ParseError> {
    use HtpCommand as C;

    let (name, rest) = split_name(text).ok_or(ParseError::MissingCommand)?;
    let mut args = Args::new(name, rest);
    let command = match name {
        "protocol_version" => C::ProtocolVersion,
        "name" => C::Name,
        "version" => C::Version,
        "known_command" => C::KnownCommand(args.word(Expected::CommandName)?.to_string()),
        "list_commands" => C::ListCommands,
        "quit" => C::Quit,
        "boardsize" => C::BoardSize(args.integer()?),
        "clear_board" => C::ClearBoard,
        "play" => C::Play(args.color()?, args.parsed(Expected::Cell, HexMove::parse)?),
        "genmove" => {
            let color = args.optional_parsed(Expected::Color, crate::protocol::args::color)?;
            let seconds = match color {
                Some(_) => args.optional_parsed(Expected::NonNegativeNumber, |t| {
                    number(t).filter(|&s| s >= 0.0)
                })?,
                None => None,
            };
            C::Genmove { color, seconds }
        }
        "undo" => C::Undo(
            args.optional_parsed(Expected::NonNegativeInteger, |t| t.parse::<u32>().ok())?
                .unwrap_or(1),
        ),
        "showboard" => C::ShowBoard,
        "havannah_winner" => C::HavannahWinner,
        "swap" => C::Swap(args.parsed(Expected::Boolean, boolean)?),
        "all_legal" => C::AllLegal,
        "gogui-analyze_commands" => C::GoguiAnalyzeCommands,
        "warpstone-move_values" => C::MoveValues,
        "warpstone-move_values_text" => C::MoveValuesText,
        "cputime" => C::Cputime,
        "warpstone-ownership" => C::Ownership,
        "time" => C::Time(time_options(&mut args)?),
        "time_settings" => C::TimeSettings(parse_time_settings(&mut args)?),
        "time_left" => {
            let (color, seconds, stones) = parse_time_left(&mut args)?;
            C::TimeLeft {
                color,
                seconds,
                stones,
            }
        }
        "loadsgf" => C::LoadSgf(args.word(Expected::FileName)?.to_string()),
        "printsgf" => C::PrintSgf(args.optional_word().map(str::to_string)),
        unknown => return Ok(C::Unknown(unknown.to_string())),
    };
    args.finish()?;
    Ok(command)
}

impl HtpCommand {
    /// The protocol name of the command (the unknown name for `Unknown`).
    pub fn name(&self) -> &str {
        use HtpCommand as C;
        match self {
            C::ProtocolVersion => "protocol_version",
            C::Name => "name",
            C::Version => "version",
            C::KnownCommand(_) => "known_command",
            C::ListCommands => "list_commands",
            C::Quit => "quit",
            C::BoardSize(_) => "boardsize",
            C::ClearBoard => "clear_board",
            C::Play(..) => "play",
            C::Genmove { .. } => "genmove",
            C::Undo(_) => "undo",
            C::ShowBoard => "showboard",
            C::HavannahWinner => "havannah_winner",
            C::Swap(_) => "swap",
            C::AllLegal => "all_legal",
            C::GoguiAnalyzeCommands => "gogui-analyze_commands",
            C::MoveValues => "warpstone-move_values",
            C::MoveValuesText => "warpstone-move_values_text",
            C::Cputime => "cputime",
            C::Ownership => "warpstone-ownership",
            C::Time(_) => "time",
            C::TimeSettings(_) => "time_settings",
            C::TimeLeft { .. } => "time_left",
            C::LoadSgf(_) => "loadsgf",
            C::PrintSgf(_) => "printsgf",
            C::Unknown(name) => name,
        }
    }
}

/// Castro's option list. Unknown options and options missing their value
/// are errors (Castro: "Missing or unknown parameter").
fn time_options(args: &mut Args) -> Result<Vec<TimeOption>, ParseError> {
    let mut options = Vec::new();
    while let Some(flag) = args.optional_word() {
        let option = match flag {
            "-p" | "--percent" => TimeOption::Percent(optional_positive(args)),
            "-e" | "--even" => TimeOption::Even(optional_positive(args)),
            "-s" | "--stats" => TimeOption::Stats(optional_positive(args)),
            "-m" | "--move" => TimeOption::Move(args.non_negative_number()?),
            "-g" | "--game" => TimeOption::Game(args.non_negative_number()?),
            "-f" | "--flexible" => TimeOption::Flexible(args.boolean()?),
            "-i" | "--maxsims" => TimeOption::MaxSims(args.non_negative_integer()?),
            "-r" | "--remain" => TimeOption::Remain(args.non_negative_number()?),
            other => return Err(args.invalid(Expected::TimeOption, other)),
        };
        options.push(option);
    }
    Ok(options)
}

/// Castro takes the next word as the parameter only if it is a positive
/// number, so `time -p -m 5` means "percent, default parameter; 5 s/move".
fn optional_positive(args: &mut Args) -> Option<f64> {
    let value = args.peek().and_then(number).filter(|&x| x > 0.0)?;
    args.optional_word();
    Some(value)
}
