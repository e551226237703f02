//! Unit tests for [`crate::protocol::htp`].

use crate::game::Color::{Black, White};
use crate::protocol::args::{Expected, ParseError};
use crate::protocol::hex_vertex::{HexMove, HexVertex};
use crate::protocol::htp::{parse_htp, HtpCommand as C, TimeOption as T, HTP_COMMANDS};
use crate::protocol::time::TimeSystem;

fn cell(text: &str) -> HexMove {
    HexMove::parse(text).expect("test cell")
}

fn ok(text: &str) -> C {
    match parse_htp(text) {
        Ok(command) => command,
        Err(e) => panic!("{text:?} should parse, got {e}"),
    }
}

fn err(text: &str) -> ParseError {
    match parse_htp(text) {
        Ok(command) => panic!("{text:?} should fail, got {command:?}"),
        Err(e) => e,
    }
}

#[test]
fn commands_without_arguments() {
    for (text, expected) in [
        ("protocol_version", C::ProtocolVersion),
        ("name", C::Name),
        ("version", C::Version),
        ("list_commands", C::ListCommands),
        ("quit", C::Quit),
        ("clear_board", C::ClearBoard),
        ("showboard", C::ShowBoard),
        ("havannah_winner", C::HavannahWinner),
        ("all_legal", C::AllLegal),
    ] {
        assert_eq!(ok(text), expected, "{text}");
        assert!(matches!(
            err(&format!("{text} x")),
            ParseError::ExtraArgument { .. }
        ));
    }
}

#[test]
fn boardsize_is_a_raw_side_length() {
    assert_eq!(ok("boardsize 8"), C::BoardSize(8));
    assert_eq!(ok("boardsize 2"), C::BoardSize(2));
    assert_eq!(ok("boardsize -1"), C::BoardSize(-1));
    for text in ["boardsize", "boardsize eight", "boardsize 8 8"] {
        err(text);
    }
}

#[test]
fn play_cells_and_swap() {
    assert_eq!(ok("play w d4"), C::Play(White, cell("d4")));
    assert_eq!(ok("play WHITE D4"), C::Play(White, cell("d4")));
    assert_eq!(ok("play b swap"), C::Play(Black, HexMove::Swap));
    assert_eq!(ok("play black a1"), C::Play(Black, cell("a1")));
    // Off-board but well-formed: for the engine to reject.
    assert_eq!(
        ok("play b z99"),
        C::Play(Black, HexMove::Cell(HexVertex { row: 25, diag: 99 }))
    );
    assert!(matches!(
        err("play"),
        ParseError::MissingArgument {
            expected: Expected::Color,
            ..
        }
    ));
    assert!(matches!(
        err("play w"),
        ParseError::MissingArgument {
            expected: Expected::Cell,
            ..
        }
    ));
    for text in [
        "play x d4",
        "play w 4d",
        "play w d0",
        "play w pass",
        "play w d4 e5",
        "play d4 w",
    ] {
        err(text);
    }
}

#[test]
fn genmove_colour_and_seconds_are_optional() {
    assert_eq!(
        ok("genmove"),
        C::Genmove {
            color: None,
            seconds: None
        }
    );
    assert_eq!(
        ok("genmove b"),
        C::Genmove {
            color: Some(Black),
            seconds: None
        }
    );
    assert_eq!(
        ok("genmove white 2.5"),
        C::Genmove {
            color: Some(White),
            seconds: Some(2.5)
        }
    );
    for text in ["genmove x", "genmove 5", "genmove w -1", "genmove w 5 5"] {
        err(text);
    }
}

#[test]
fn undo_count() {
    assert_eq!(ok("undo"), C::Undo(1));
    assert_eq!(ok("undo 3"), C::Undo(3));
    assert_eq!(ok("undo 0"), C::Undo(0));
    for text in ["undo -1", "undo x", "undo 1 2", "undo 4294967296"] {
        err(text);
    }
}

#[test]
fn swap_switch() {
    assert_eq!(ok("swap 1"), C::Swap(true));
    assert_eq!(ok("swap 0"), C::Swap(false));
    assert_eq!(ok("swap true"), C::Swap(true));
    for text in ["swap", "swap 2", "swap on", "swap 1 0"] {
        err(text);
    }
}

#[test]
fn castro_time_options() {
    assert_eq!(ok("time"), C::Time(vec![]));
    assert_eq!(
        ok("time -m 5 -g 600"),
        C::Time(vec![T::Move(5.0), T::Game(600.0)])
    );
    assert_eq!(
        ok("time --move 2.5 --game 300 --flexible 1 --maxsims 1000 --remain 120"),
        C::Time(vec![
            T::Move(2.5),
            T::Game(300.0),
            T::Flexible(true),
            T::MaxSims(1000),
            T::Remain(120.0)
        ])
    );
    assert_eq!(ok("time -s 2.5"), C::Time(vec![T::Stats(Some(2.5))]));
    assert_eq!(ok("time -p"), C::Time(vec![T::Percent(None)]));
    assert_eq!(
        ok("time -e -m 5"),
        C::Time(vec![T::Even(None), T::Move(5.0)])
    );
}

#[test]
fn castro_time_errors() {
    // `-p 0`: zero is not taken as the parameter, so `0` is a stray word.
    assert!(matches!(
        err("time --percent 0"),
        ParseError::InvalidArgument {
            expected: Expected::TimeOption,
            ..
        }
    ));
    for text in [
        "time -m",
        "time -m x",
        "time -g -5",
        "time -x 1",
        "time -f 2",
        "time -i 1.5",
        "time 5",
    ] {
        err(text);
    }
}

#[test]
fn standard_time_commands() {
    assert_eq!(
        ok("time_settings 300 0 0"),
        C::TimeSettings(TimeSystem::Absolute { main: 300.0 })
    );
    assert_eq!(
        ok("time_left white 10 0"),
        C::TimeLeft {
            color: White,
            seconds: 10.0,
            stones: 0
        }
    );
    err("time_settings 300");
    err("time_left w");
}

#[test]
fn sgf_and_known_command() {
    assert_eq!(ok("loadsgf g.sgf"), C::LoadSgf("g.sgf".into()));
    assert_eq!(ok("printsgf"), C::PrintSgf(None));
    assert_eq!(ok("printsgf o.sgf"), C::PrintSgf(Some("o.sgf".into())));
    assert_eq!(ok("known_command swap"), C::KnownCommand("swap".into()));
    for text in ["loadsgf", "loadsgf a b", "printsgf a b", "known_command"] {
        err(text);
    }
}

#[test]
fn unknown_names() {
    assert_eq!(ok("komi 6.5"), C::Unknown("komi".into()));
    assert_eq!(ok("winner"), C::Unknown("winner".into()));
    assert_eq!(ok("Play w d4"), C::Unknown("Play".into()));
    assert_eq!(parse_htp(""), Err(ParseError::MissingCommand));
}

#[test]
fn every_listed_name_parses_to_a_command_of_that_name() {
    let samples = [
        "protocol_version",
        "name",
        "version",
        "known_command play",
        "list_commands",
        "quit",
        "boardsize 8",
        "clear_board",
        "play w a1",
        "genmove",
        "undo",
        "showboard",
        "havannah_winner",
        "swap 1",
        "all_legal",
        "gogui-analyze_commands",
        "warpstone-move_values",
        "warpstone-ownership",
        "time -m 1",
        "time_settings 60 0 0",
        "time_left w 60 0",
        "loadsgf a.sgf",
        "printsgf",
        "warpstone-move_values_text",
        "cputime",
    ];
    let names: Vec<String> = samples
        .iter()
        .map(|text| ok(text).name().to_string())
        .collect();
    assert_eq!(names, HTP_COMMANDS);
}
