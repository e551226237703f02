//! Unit tests for [`crate::protocol::gtp`]: every command, every error kind,
//! and the path from raw line to parsed command.

use crate::game::Color::{Black, White};
use crate::protocol::args::{Expected, ParseError};
use crate::protocol::gtp::{parse_gtp, GtpCommand as C, StoneStatus, GTP_COMMANDS};
use crate::protocol::line::{preprocess, Line};
use crate::protocol::time::TimeSystem;
use crate::protocol::vertex::Vertex;

fn v(text: &str) -> Vertex {
    Vertex::parse(text).expect("test vertex")
}

fn ok(text: &str) -> C {
    match parse_gtp(text) {
        Ok(command) => command,
        Err(e) => panic!("{text:?} should parse, got {e}"),
    }
}

fn err(text: &str) -> ParseError {
    match parse_gtp(text) {
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
        ("undo", C::Undo),
        ("showboard", C::ShowBoard),
        ("final_score", C::FinalScore),
        ("gogui-interrupt", C::GoguiInterrupt),
    ] {
        assert_eq!(ok(text), expected, "{text}");
        assert!(
            matches!(err(&format!("{text} 1")), ParseError::ExtraArgument { .. }),
            "{text} with an argument"
        );
    }
}

#[test]
fn known_command_takes_any_word() {
    assert_eq!(ok("known_command play"), C::KnownCommand("play".into()));
    assert_eq!(ok("known_command PLAY"), C::KnownCommand("PLAY".into()));
    assert_eq!(
        ok("known_command foo-bar"),
        C::KnownCommand("foo-bar".into())
    );
    assert!(matches!(
        err("known_command"),
        ParseError::MissingArgument {
            expected: Expected::CommandName,
            ..
        }
    ));
    assert!(matches!(
        err("known_command a b"),
        ParseError::ExtraArgument { .. }
    ));
}

#[test]
fn sizes_and_counts_stay_raw_for_the_engine() {
    assert_eq!(ok("boardsize 19"), C::BoardSize(19));
    assert_eq!(ok("boardsize 1"), C::BoardSize(1));
    assert_eq!(ok("boardsize 26"), C::BoardSize(26));
    assert_eq!(ok("boardsize -3"), C::BoardSize(-3));
    assert_eq!(ok("boardsize 0"), C::BoardSize(0));
    assert_eq!(ok("fixed_handicap 9"), C::FixedHandicap(9));
    assert_eq!(ok("fixed_handicap -1"), C::FixedHandicap(-1));
    assert_eq!(ok("place_free_handicap 4"), C::PlaceFreeHandicap(4));
    for text in [
        "boardsize",
        "boardsize abc",
        "boardsize 9.5",
        "boardsize 9 9",
        "boardsize 99999999999999999999",
        "fixed_handicap",
        "fixed_handicap two",
        "place_free_handicap",
        "place_free_handicap 2 3",
    ] {
        err(text);
    }
}

#[test]
fn komi() {
    assert_eq!(ok("komi 6.5"), C::Komi(6.5));
    assert_eq!(ok("komi 0"), C::Komi(0.0));
    assert_eq!(ok("komi -7.5"), C::Komi(-7.5));
    assert_eq!(ok("komi 7"), C::Komi(7.0));
    for text in [
        "komi",
        "komi abc",
        "komi 6,5",
        "komi inf",
        "komi nan",
        "komi 1e300",
        "komi 6.5 x",
    ] {
        err(text);
    }
}

#[test]
fn play_and_is_legal() {
    assert_eq!(ok("play b D4"), C::Play(Black, v("D4")));
    assert_eq!(ok("play WHITE q16"), C::Play(White, v("Q16")));
    assert_eq!(ok("play w pass"), C::Play(White, Vertex::Pass));
    assert_eq!(ok("play B PASS"), C::Play(Black, Vertex::Pass));
    assert_eq!(ok("is_legal w A1"), C::IsLegal(White, v("A1")));
    // Off this board but nameable: the engine's call, not a syntax error.
    assert_eq!(ok("play b Z25"), C::Play(Black, v("Z25")));
    for name in ["play", "is_legal"] {
        assert!(matches!(
            err(name),
            ParseError::MissingArgument {
                expected: Expected::Color,
                ..
            }
        ));
        assert!(matches!(
            err(&format!("{name} b")),
            ParseError::MissingArgument {
                expected: Expected::Vertex,
                ..
            }
        ));
        for bad in [
            "x D4", "D4 b", "b I5", "b A0", "b Z26", "b resign", "bw D4", "b D4 E5",
        ] {
            err(&format!("{name} {bad}"));
        }
    }
}

#[test]
fn commands_taking_one_colour() {
    type MakeCommand = fn(crate::game::Color) -> C;
    let cases: [(&str, MakeCommand); 6] = [
        ("genmove", C::Genmove),
        ("kgs-genmove_cleanup", C::KgsGenmoveCleanup),
        ("reg_genmove", C::RegGenmove),
        ("list_stones", C::ListStones),
        ("all_legal", C::AllLegal),
        ("captures", C::Captures),
    ];
    for (name, make) in cases {
        assert_eq!(ok(&format!("{name} b")), make(Black));
        assert_eq!(ok(&format!("{name} white")), make(White));
        assert!(matches!(
            err(name),
            ParseError::MissingArgument {
                expected: Expected::Color,
                ..
            }
        ));
        assert!(matches!(
            err(&format!("{name} red")),
            ParseError::InvalidArgument {
                expected: Expected::Color,
                ..
            }
        ));
        assert!(matches!(
            err(&format!("{name} b w")),
            ParseError::ExtraArgument { .. }
        ));
    }
}

#[test]
fn set_free_handicap_takes_one_or_more_vertices() {
    assert_eq!(
        ok("set_free_handicap D4 q16 K10"),
        C::SetFreeHandicap(vec![v("D4"), v("Q16"), v("K10")])
    );
    // Repeats, pass and too few stones are `bad vertex list` for the engine.
    assert_eq!(
        ok("set_free_handicap D4 D4"),
        C::SetFreeHandicap(vec![v("D4"), v("D4")])
    );
    assert_eq!(
        ok("set_free_handicap pass"),
        C::SetFreeHandicap(vec![Vertex::Pass])
    );
    assert!(matches!(
        err("set_free_handicap"),
        ParseError::MissingArgument { .. }
    ));
    assert!(matches!(
        err("set_free_handicap D4 I5"),
        ParseError::InvalidArgument { found, .. } if found == "I5"
    ));
}

#[test]
fn final_status_list() {
    assert_eq!(
        ok("final_status_list dead"),
        C::FinalStatusList(StoneStatus::Dead)
    );
    assert_eq!(
        ok("final_status_list alive"),
        C::FinalStatusList(StoneStatus::Alive)
    );
    assert_eq!(
        ok("final_status_list SEKI"),
        C::FinalStatusList(StoneStatus::Seki)
    );
    for text in [
        "final_status_list",
        "final_status_list dame",
        "final_status_list dead 1",
    ] {
        err(text);
    }
}

#[test]
fn time_commands() {
    assert_eq!(
        ok("time_settings 600 30 5"),
        C::TimeSettings(TimeSystem::Canadian {
            main: 600.0,
            period: 30.0,
            stones: 5
        })
    );
    assert_eq!(
        ok("time_settings 300 0 0"),
        C::TimeSettings(TimeSystem::Absolute { main: 300.0 })
    );
    assert_eq!(ok("time_settings 0 1 0"), C::TimeSettings(TimeSystem::None));
    assert_eq!(
        ok("time_left w 123.5 0"),
        C::TimeLeft {
            color: White,
            seconds: 123.5,
            stones: 0
        }
    );
    assert_eq!(
        ok("kgs-time_settings byoyomi 600 30 5"),
        C::KgsTimeSettings(TimeSystem::ByoYomi {
            main: 600.0,
            period: 30.0,
            periods: 5
        })
    );
    assert_eq!(
        ok("kgs-time_settings none"),
        C::KgsTimeSettings(TimeSystem::None)
    );
    for text in [
        "time_settings",
        "time_settings 600 30",
        "time_settings 600 30 5 1",
        "time_settings -1 30 5",
        "time_settings 600 30 2.5",
        "time_settings a b c",
        "time_left",
        "time_left b 30",
        "time_left x 30 0",
        "time_left b abc 0",
        "time_left b 30 0 0",
        "kgs-time_settings",
        "kgs-time_settings fischer 1 2",
        "kgs-time_settings absolute",
    ] {
        err(text);
    }
}

#[test]
fn sgf_commands() {
    assert_eq!(
        ok("loadsgf game.sgf"),
        C::LoadSgf {
            path: "game.sgf".into(),
            move_number: None
        }
    );
    assert_eq!(
        ok("loadsgf /tmp/Game.sgf 1"),
        C::LoadSgf {
            path: "/tmp/Game.sgf".into(),
            move_number: Some(1)
        }
    );
    assert_eq!(ok("printsgf"), C::PrintSgf(None));
    assert_eq!(ok("printsgf out.sgf"), C::PrintSgf(Some("out.sgf".into())));
    for text in [
        "loadsgf",
        "loadsgf a.sgf x",
        "loadsgf a.sgf 3 4",
        "printsgf a b",
    ] {
        err(text);
    }
}

#[test]
fn unknown_names_are_not_errors() {
    assert_eq!(ok("foo"), C::Unknown("foo".into()));
    assert_eq!(ok("foo bar baz"), C::Unknown("foo".into()));
    // Names are case-sensitive, as in GNU Go.
    assert_eq!(ok("PLAY b D4"), C::Unknown("PLAY".into()));
    assert_eq!(ok("Name"), C::Unknown("Name".into()));
    // Havannah's commands mean nothing to a Go engine.
    assert_eq!(ok("havannah_winner"), C::Unknown("havannah_winner".into()));
}

#[test]
fn empty_text_is_a_missing_command() {
    assert_eq!(parse_gtp(""), Err(ParseError::MissingCommand));
    assert_eq!(parse_gtp("   "), Err(ParseError::MissingCommand));
}

#[test]
fn extra_white_space_between_arguments_is_fine() {
    assert_eq!(ok("  play   b    D4  "), C::Play(Black, v("D4")));
}

#[test]
fn every_listed_name_parses_to_a_command_of_that_name() {
    // One well-formed instance per command.
    let samples = [
        "protocol_version",
        "name",
        "version",
        "known_command play",
        "list_commands",
        "quit",
        "boardsize 9",
        "clear_board",
        "komi 6.5",
        "play b D4",
        "genmove w",
        "undo",
        "showboard",
        "fixed_handicap 2",
        "place_free_handicap 2",
        "set_free_handicap D4 Q16",
        "final_score",
        "final_status_list dead",
        "time_settings 60 0 0",
        "time_left b 60 0",
        "kgs-time_settings absolute 60",
        "kgs-genmove_cleanup b",
        "reg_genmove b",
        "loadsgf a.sgf",
        "printsgf",
        "list_stones b",
        "is_legal b D4",
        "all_legal b",
        "captures b",
        "gogui-interrupt",
        "lz-analyze b 50",
        "kata-analyze 50 ownership true",
        "genmove_analyze b 50",
        "lz-genmove_analyze w",
        "kata-genmove_analyze b interval 20",
        "gogui-analyze_commands",
        "gogui-title",
        "warpstone-move_values b",
        "warpstone-ownership",
        "warpstone-ownership_gfx",
        "warpstone-pv",
        "warpstone-statistics",
        "warpstone-param playouts 100",
        "warpstone-move_values_text w",
        "cputime",
    ];
    // Every sample parses to a listed command, and every listed name has a
    // sample. (`genmove_analyze` is an alias: its command reports the
    // `lz-` name.)
    for text in &samples {
        let name = ok(text).name().to_string();
        assert!(GTP_COMMANDS.contains(&name.as_str()), "{text} -> {name}");
    }
    for name in GTP_COMMANDS {
        assert!(
            samples
                .iter()
                .any(|t| t.split_whitespace().next() == Some(*name)),
            "no sample for {name}"
        );
    }
    for name in GTP_COMMANDS {
        assert!(name.bytes().all(|b| b.is_ascii_graphic()), "{name}");
    }
}

#[test]
fn from_raw_line_to_command() {
    let Line::Command { id, text } = preprocess(b"42\tplay\tW\tq16 # comment\r\n") else {
        panic!("expected a command line");
    };
    assert_eq!(id, Some(42));
    assert_eq!(parse_gtp(&text), Ok(C::Play(White, v("Q16"))));

    let Line::Command { id, text } = preprocess(b"7\n") else {
        panic!("expected a command line");
    };
    assert_eq!(id, Some(7));
    assert_eq!(parse_gtp(&text), Err(ParseError::MissingCommand));
}

#[test]
fn no_input_panics() {
    // A cheap sweep over odd inputs: every one must come back as a value.
    let odd = [
        "play",
        "play b",
        "play b \u{0}",
        "play \u{feff}b D4",
        "boardsize -",
        "komi -",
        "komi .",
        "komi e5",
        "loadsgf",
        "time_left b - 0",
        "set_free_handicap  ",
        "play b D4\u{301}",
        "known_command \u{1F600}",
        "\u{1F600}",
    ];
    for text in odd {
        let _ = parse_gtp(text);
    }
}
