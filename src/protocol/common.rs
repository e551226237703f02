//! The commands every game's protocol answers alike: protocol_version,
//! name, version, known_command, list_commands, quit and cputime. A game's
//! adapter parses them with [`parse`] before its own commands and answers
//! them with [`answer`], so an adapter holds only what its game adds.

use super::Reply;
use crate::protocol::args::Args;
use crate::protocol::{Expected, ParseError};

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
        _ => return None,
    };
    Some(Ok(command))
}

/// The reply to a shared command; `commands` is the adapter's whole list.
pub fn answer(command: CoreCommand, commands: &[&str]) -> Reply {
    match command {
        CoreCommand::ProtocolVersion => Reply::ok("2"),
        CoreCommand::Name => Reply::ok("Warpstone"),
        CoreCommand::Version => Reply::ok(env!("CARGO_PKG_VERSION")),
        CoreCommand::KnownCommand(name) => Reply::ok(commands.contains(&name.as_str()).to_string()),
        CoreCommand::ListCommands => Reply::ok(commands.join("\n")),
        CoreCommand::Quit => Reply::Quit,
        CoreCommand::Cputime => super::common::cputime_reply(),
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
    fn answers_use_the_adapters_list() {
        let list = ["name", "play"];
        assert_eq!(
            answer(CoreCommand::KnownCommand("play".into()), &list),
            Reply::ok("true")
        );
        assert_eq!(
            answer(CoreCommand::KnownCommand("komi".into()), &list),
            Reply::ok("false")
        );
        assert_eq!(
            answer(CoreCommand::ListCommands, &list),
            Reply::ok("name\nplay")
        );
        assert_eq!(answer(CoreCommand::Quit, &list), Reply::Quit);
    }
}
