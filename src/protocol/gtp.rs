//! GTP 2 commands for Go: text after the id → one typed [`GtpCommand`].
//!
//! The parser checks syntax only (argument count, vertex and colour spelling,
//! numbers, nothing left over). Everything that depends on the game — board
//! size limits, handicap counts, whether a vertex is on the board or a move
//! legal — is the engine's to decide and to word (`unacceptable size`,
//! `invalid number of stones`, `illegal move`), which is why sizes and
//! counts stay `i64` here. Command names are case-sensitive, as in GNU Go:
//! GTP names are lower case and `PLAY` is an unknown command.

use crate::game::Color;
use crate::protocol::analyze::{parse_analyze, AnalyzeFormat, AnalyzeRequest};
use crate::protocol::args::{color, keyword, split_name, Args, Expected, ParseError};
use crate::protocol::time::{
    parse_kgs_time_settings, parse_time_left, parse_time_settings, TimeSystem,
};
use crate::protocol::vertex::Vertex;

#[derive(Clone, Debug, PartialEq)]
pub enum GtpCommand {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(i64),
    ClearBoard,
    Komi(f32),
    Play(Color, Vertex),
    Genmove(Color),
    Undo,
    ShowBoard,
    FixedHandicap(i64),
    PlaceFreeHandicap(i64),
    /// At least one vertex; the engine checks the rest (`bad vertex list`).
    SetFreeHandicap(Vec<Vertex>),
    FinalScore,
    FinalStatusList(StoneStatus),
    TimeSettings(TimeSystem),
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: i64,
    },
    KgsTimeSettings(TimeSystem),
    KgsGenmoveCleanup(Color),
    RegGenmove(Color),
    LoadSgf {
        path: String,
        move_number: Option<i64>,
    },
    PrintSgf(Option<String>),
    ListStones(Color),
    IsLegal(Color, Vertex),
    AllLegal(Color),
    Captures(Color),
    /// GoGui's marker that the engine understands the `# interrupt` line;
    /// sent as a command it is a no-op that succeeds.
    GoguiInterrupt,
    /// `lz-analyze` / `kata-analyze`: stream `info` lines until the next
    /// command arrives.
    Analyze(AnalyzeRequest),
    /// `genmove_analyze` and its `lz-` / `kata-` forms: stream, then play.
    GenmoveAnalyze(AnalyzeRequest),
    /// `gogui-analyze_commands` (also the old `gogui_analyze_commands`).
    GoguiAnalyzeCommands,
    /// `gogui-title`: the window title GoGui shows.
    GoguiTitle,
    /// `warpstone-move_values [colour]`: every legal move rated by its own
    /// playouts (a GoGui `dboard` heat map).
    MoveValues(Option<Color>),
    /// `warpstone-move_values_text [colour]`: the same rating as text, the
    /// raw win rates best first.
    MoveValuesText(Option<Color>),
    /// `cputime`: the engine's CPU seconds so far (gogui-twogtp and
    /// gogui-regress ask for it).
    Cputime,
    /// `warpstone-ownership`: ownership estimate as a `dboard`.
    Ownership,
    /// `warpstone-ownership_gfx`: the same as GoGui `gfx` INFLUENCE.
    OwnershipGfx,
    /// `warpstone-pv`: the principal variation (GoGui `var`).
    PrincipalVariation,
    /// `warpstone-statistics`: figures of the last search.
    Statistics,
    /// `warpstone-param [key value]`: list or set a search parameter
    /// (GoGui `param`).
    Param(Option<(String, String)>),
    /// A name we do not know, kept for the log. Arguments are not looked at.
    Unknown(String),
}

/// The argument of `final_status_list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// Every command [`parse_gtp`] knows, in the order `list_commands` prints
/// them (the order of GTP 2 §6.3, then extensions).
pub const GTP_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-genmove_cleanup",
    "reg_genmove",
    "loadsgf",
    "printsgf",
    "list_stones",
    "is_legal",
    "all_legal",
    "captures",
    "gogui-interrupt",
    "lz-analyze",
    "kata-analyze",
    "genmove_analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "gogui-title",
    "warpstone-move_values",
    "warpstone-ownership",
    "warpstone-ownership_gfx",
    "warpstone-pv",
    "warpstone-statistics",
    "warpstone-param",
    "warpstone-move_values_text",
    "cputime",
];

/// Parses the command text of a [`crate::protocol::Line::Command`].
pub fn parse_gtp(text: &str) -> Result<GtpCommand, ParseError> {
    use GtpCommand as C;

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
        "komi" => C::Komi(komi(&mut args)?),
        "play" => C::Play(args.color()?, vertex(&mut args)?),
        "genmove" => C::Genmove(args.color()?),
        "undo" => C::Undo,
        "showboard" => C::ShowBoard,
        "fixed_handicap" => C::FixedHandicap(args.integer()?),
        "place_free_handicap" => C::PlaceFreeHandicap(args.integer()?),
        "set_free_handicap" => C::SetFreeHandicap(vertex_list(&mut args)?),
        "final_score" => C::FinalScore,
        "final_status_list" => C::FinalStatusList(stone_status(&mut args)?),
        "time_settings" => C::TimeSettings(parse_time_settings(&mut args)?),
        "time_left" => {
            let (color, seconds, stones) = parse_time_left(&mut args)?;
            C::TimeLeft {
                color,
                seconds,
                stones,
            }
        }
        "kgs-time_settings" => C::KgsTimeSettings(parse_kgs_time_settings(&mut args)?),
        "kgs-genmove_cleanup" => C::KgsGenmoveCleanup(args.color()?),
        "reg_genmove" => C::RegGenmove(args.color()?),
        "loadsgf" => C::LoadSgf {
            path: args.word(Expected::FileName)?.to_string(),
            move_number: args.optional_parsed(Expected::Integer, crate::protocol::args::integer)?,
        },
        "printsgf" => C::PrintSgf(args.optional_word().map(str::to_string)),
        "list_stones" => C::ListStones(args.color()?),
        "is_legal" => C::IsLegal(args.color()?, vertex(&mut args)?),
        "all_legal" => C::AllLegal(args.color()?),
        "captures" => C::Captures(args.color()?),
        "gogui-interrupt" => C::GoguiInterrupt,
        "lz-analyze" => C::Analyze(parse_analyze(AnalyzeFormat::Lz, &mut args, false)?),
        "kata-analyze" => C::Analyze(parse_analyze(AnalyzeFormat::Kata, &mut args, false)?),
        "genmove_analyze" | "lz-genmove_analyze" => {
            C::GenmoveAnalyze(parse_analyze(AnalyzeFormat::Lz, &mut args, true)?)
        }
        "kata-genmove_analyze" => {
            C::GenmoveAnalyze(parse_analyze(AnalyzeFormat::Kata, &mut args, true)?)
        }
        "gogui-analyze_commands" | "gogui_analyze_commands" => C::GoguiAnalyzeCommands,
        "gogui-title" => C::GoguiTitle,
        "warpstone-move_values" => C::MoveValues(args.optional_parsed(Expected::Color, color)?),
        "warpstone-move_values_text" => {
            C::MoveValuesText(args.optional_parsed(Expected::Color, color)?)
        }
        "cputime" => C::Cputime,
        "warpstone-ownership" => C::Ownership,
        "warpstone-ownership_gfx" => C::OwnershipGfx,
        "warpstone-pv" => C::PrincipalVariation,
        "warpstone-statistics" => C::Statistics,
        "warpstone-param" => C::Param(match args.optional_word() {
            None => None,
            Some(key) => Some((
                key.to_string(),
                args.word(Expected::ParamValue)?.to_string(),
            )),
        }),
        unknown => return Ok(C::Unknown(unknown.to_string())),
    };
    args.finish()?;
    Ok(command)
}

impl GtpCommand {
    /// The protocol name of the command (the unknown name for `Unknown`).
    pub fn name(&self) -> &str {
        use GtpCommand as C;
        match self {
            C::ProtocolVersion => "protocol_version",
            C::Name => "name",
            C::Version => "version",
            C::KnownCommand(_) => "known_command",
            C::ListCommands => "list_commands",
            C::Quit => "quit",
            C::BoardSize(_) => "boardsize",
            C::ClearBoard => "clear_board",
            C::Komi(_) => "komi",
            C::Play(..) => "play",
            C::Genmove(_) => "genmove",
            C::Undo => "undo",
            C::ShowBoard => "showboard",
            C::FixedHandicap(_) => "fixed_handicap",
            C::PlaceFreeHandicap(_) => "place_free_handicap",
            C::SetFreeHandicap(_) => "set_free_handicap",
            C::FinalScore => "final_score",
            C::FinalStatusList(_) => "final_status_list",
            C::TimeSettings(_) => "time_settings",
            C::TimeLeft { .. } => "time_left",
            C::KgsTimeSettings(_) => "kgs-time_settings",
            C::KgsGenmoveCleanup(_) => "kgs-genmove_cleanup",
            C::RegGenmove(_) => "reg_genmove",
            C::LoadSgf { .. } => "loadsgf",
            C::PrintSgf(_) => "printsgf",
            C::ListStones(_) => "list_stones",
            C::IsLegal(..) => "is_legal",
            C::AllLegal(_) => "all_legal",
            C::Captures(_) => "captures",
            C::GoguiInterrupt => "gogui-interrupt",
            C::Analyze(r) => match r.format {
                AnalyzeFormat::Lz => "lz-analyze",
                AnalyzeFormat::Kata => "kata-analyze",
            },
            C::GenmoveAnalyze(r) => match r.format {
                AnalyzeFormat::Lz => "lz-genmove_analyze",
                AnalyzeFormat::Kata => "kata-genmove_analyze",
            },
            C::GoguiAnalyzeCommands => "gogui-analyze_commands",
            C::GoguiTitle => "gogui-title",
            C::MoveValues(_) => "warpstone-move_values",
            C::MoveValuesText(_) => "warpstone-move_values_text",
            C::Cputime => "cputime",
            C::Ownership => "warpstone-ownership",
            C::OwnershipGfx => "warpstone-ownership_gfx",
            C::PrincipalVariation => "warpstone-pv",
            C::Statistics => "warpstone-statistics",
            C::Param(_) => "warpstone-param",
            C::Unknown(name) => name,
        }
    }
}

fn vertex(args: &mut Args) -> Result<Vertex, ParseError> {
    args.parsed(Expected::Vertex, Vertex::parse)
}

/// One or more vertices up to the end of the line.
fn vertex_list(args: &mut Args) -> Result<Vec<Vertex>, ParseError> {
    let mut vertices = vec![vertex(args)?];
    while !args.is_empty() {
        vertices.push(vertex(args)?);
    }
    Ok(vertices)
}

/// Komi is a float in GTP; an `f64` that does not fit an `f32` is refused
/// rather than turned into infinity.
fn komi(args: &mut Args) -> Result<f32, ParseError> {
    args.parsed(Expected::Number, |token| {
        crate::protocol::args::number(token)
            .map(|k| k as f32)
            .filter(|k| k.is_finite())
    })
}

fn stone_status(args: &mut Args) -> Result<StoneStatus, ParseError> {
    const STATUSES: &[(&str, StoneStatus)] = &[
        ("alive", StoneStatus::Alive),
        ("dead", StoneStatus::Dead),
        ("seki", StoneStatus::Seki),
    ];
    args.parsed(Expected::StoneStatus, |t| keyword(t, STATUSES))
}
