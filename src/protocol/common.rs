//! The commands every GTP-framed game answers alike: protocol_version,
//! name, version, known_command, list_commands, quit and cputime, and on
//! the shared [`GameSession`] undo, showboard, all_legal_moves,
//! time_settings and time_left. A game's adapter parses them with
//! [`parse`] before its own commands and answers them with [`answer`], so
//! an adapter holds only what its game adds.

use super::session::{GameSession, SessionGame};
use super::time::{parse_time_left, parse_time_settings, TimeSystem};
use super::Reply;
use crate::game::Color;
use crate::protocol::args::Args;
use crate::protocol::{Expected, ParseError};
use crate::search::time::Clock;

/// One of the shared commands.
#[derive(Clone, Debug, PartialEq)]
pub enum CoreCommand {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// `cputime`: the engine's CPU seconds so far (gogui-twogtp asks).
    Cputime,
    Undo,
    ShowBoard,
    AllLegalMoves,
    TimeSettings(TimeSystem),
    TimeLeft(Color, f64, i64),
}

/// The shared command named `name`, its arguments read from `args`;
/// `None` when `name` is not one of them (the adapter's own, or unknown).
pub fn parse(name: &str, args: &mut Args<'_>) -> Option<Result<CoreCommand, ParseError>> {
    use CoreCommand as C;
    let command = match name {
        "protocol_version" => C::ProtocolVersion,
        "name" => C::Name,
        "version" => C::Version,
        "known_command" => match args.word(Expected::CommandName) {
            Ok(word) => C::KnownCommand(word.to_string()),
            Err(e) => return Some(Err(e)),
        },
        "list_commands" => C::ListCommands,
        "quit" => C::Quit,
        "cputime" => C::Cputime,
        "undo" => C::Undo,
        "showboard" => C::ShowBoard,
        "all_legal_moves" => C::AllLegalMoves,
        "time_settings" => match parse_time_settings(args) {
            Ok(system) => C::TimeSettings(system),
            Err(e) => return Some(Err(e)),
        },
        "time_left" => match parse_time_left(args) {
            Ok((color, seconds, stones)) => C::TimeLeft(color, seconds, stones),
            Err(e) => return Some(Err(e)),
        },
        _ => return None,
    };
    Some(Ok(command))
}

/// The reply to a shared command on `game`; `commands` is the adapter's
/// whole list.
pub fn answer<G: SessionGame>(
    command: CoreCommand,
    commands: &[&str],
    game: &mut GameSession<G>,
) -> Reply {
    match command {
        CoreCommand::ProtocolVersion => Reply::ok("2"),
        CoreCommand::Name => Reply::ok("Warpstone"),
        CoreCommand::Version => Reply::ok(env!("CARGO_PKG_VERSION")),
        CoreCommand::KnownCommand(name) => Reply::ok(commands.contains(&name.as_str()).to_string()),
        CoreCommand::ListCommands => Reply::ok(commands.join("\n")),
        CoreCommand::Quit => Reply::Quit,
        CoreCommand::Cputime => cputime_reply(),
        CoreCommand::Undo => game.undo(1),
        CoreCommand::ShowBoard => game.showboard_reply(),
        CoreCommand::AllLegalMoves => game.all_legal_reply(),
        CoreCommand::TimeSettings(system) => {
            game.clock = Clock::new(super::time_control(system));
            Reply::empty()
        }
        CoreCommand::TimeLeft(color, seconds, stones) => {
            super::apply_time_left(&mut game.clock, color, seconds, stones)
        }
    }
}

/// `cputime`: the process's user plus system seconds, as GoGui and
/// tournament scripts read it.
pub fn cputime_reply() -> Reply {
    match crate::engine::cputime::seconds() {
        Some(s) => Reply::ok(format!("{s:.2}")),
        None => Reply::err("cannot read cpu time"),
    }
}

/// For the adapters' tests: a command line that exercises `name`, from the
/// adapter's `own` samples, else the shared commands' samples, else the
/// bare name (commands without arguments).
#[cfg(test)]
pub fn sample_line(name: &str, own: &[(&str, &str)]) -> String {
    const CORE: [(&str, &str); 3] = [
        ("known_command", "known_command play"),
        ("time_settings", "time_settings 0 1 1"),
        ("time_left", "time_left b 10 0"),
    ];
    own.iter()
        .chain(&CORE)
        .find(|(n, _)| *n == name)
        .map_or_else(|| name.to_string(), |(_, line)| line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Option<Result<CoreCommand, ParseError>> {
        let (name, rest) = crate::protocol::args::split_name(text).unwrap();
        let mut args = Args::new(name, rest);
        parse(name, &mut args)
    }

    #[test]
    fn shared_commands_parse_and_others_are_left_to_the_adapter() {
        assert_eq!(parsed("name"), Some(Ok(CoreCommand::Name)));
        assert_eq!(
            parsed("known_command play"),
            Some(Ok(CoreCommand::KnownCommand("play".into())))
        );
        assert!(matches!(parsed("known_command"), Some(Err(_))));
        assert_eq!(parsed("play b a1"), None);
    }

    #[test]
    fn clock_commands_parse_and_bad_ones_are_errors() {
        assert!(matches!(
            parsed("time_settings 300 10 5"),
            Some(Ok(CoreCommand::TimeSettings(_)))
        ));
        assert_eq!(
            parsed("time_left w 12.5 3"),
            Some(Ok(CoreCommand::TimeLeft(Color::White, 12.5, 3)))
        );
        assert!(matches!(parsed("time_left x 1 0"), Some(Err(_))));
        assert!(matches!(parsed("time_settings 1"), Some(Err(_))));
    }

    #[test]
    fn answers_use_the_adapters_list_and_the_session() {
        use crate::game::{hex, Game};
        let mut game = GameSession::new(
            crate::engine::EngineOptions::default(),
            hex::Position::new(3).unwrap(),
            crate::engine::cpu_simulator(),
        );
        let list = ["name", "play"];
        let mut answer = |c| answer(c, &list, &mut game);
        assert_eq!(
            answer(CoreCommand::KnownCommand("play".into())),
            Reply::ok("true")
        );
        assert_eq!(
            answer(CoreCommand::KnownCommand("komi".into())),
            Reply::ok("false")
        );
        assert_eq!(answer(CoreCommand::ListCommands), Reply::ok("name\nplay"));
        assert_eq!(answer(CoreCommand::Quit), Reply::Quit);
        // Nothing to undo on a fresh board: refused, and nothing changes.
        assert!(matches!(answer(CoreCommand::Undo), Reply::Failure(_)));
        let Reply::Success(legal) = answer(CoreCommand::AllLegalMoves) else {
            panic!("all_legal_moves failed")
        };
        assert_eq!(legal.split_whitespace().count(), 9);
        assert_eq!(game.pos.move_number(), 0);
        assert!(game.pos.outcome().is_none());
    }
}
