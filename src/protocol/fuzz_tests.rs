//! Protocol fuzzing: raw lines (random bytes, and valid commands with
//! hostile tokens: huge and non-finite numbers, long words, invalid UTF-8,
//! ids, comments) fed to a whole Go or Havannah session through the real
//! connection and loop. Each case checks, against its own reading of the
//! input rather than the line layer's: no panic, exactly one reply per line
//! that is not blank or a comment, `=`/`?` with the id when the line starts
//! with one, and that a command answered with `?` changed nothing (the
//! `showboard` and `printsgf` replies around it are equal).

use super::{connection, serve, Session};
use crate::engine::EngineOptions;
use proptest::prelude::*;
use proptest::sample::select;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Replies collected by a test, shared with the connection's writer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("capture lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn options() -> EngineOptions {
    let mut options = EngineOptions {
        playouts: Some(16),
        scoring_playouts: 16,
        ..EngineOptions::default()
    };
    options.search.threads = 1;
    options.search.seed = 7;
    options
}

/// Runs `session` over `input` and returns everything it wrote.
fn run<S: Session>(mut session: S, input: Vec<u8>) -> String {
    let out = Captured::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let mut conn = connection::connect(std::io::Cursor::new(input), Box::new(out.clone()));
        serve(&mut session, &mut conn).await;
    });
    let bytes = out.0.lock().expect("capture lock").clone();
    String::from_utf8(bytes).expect("replies are UTF-8")
}

/// The test's own reading of a line: `None` if it must get no reply,
/// otherwise the id the reply must carry.
fn expected_reply(line: &[u8]) -> Option<Option<u32>> {
    let cleaned: Vec<u8> = line
        .iter()
        .copied()
        .filter(|&b| b == b'\t' || (b >= 0x20 && b != 0x7f))
        .collect();
    let command = cleaned.split(|&b| b == b'#').next().unwrap_or(&[]);
    let mut words = command
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|w| !w.is_empty());
    let first = words.next()?;
    let id = std::str::from_utf8(first)
        .ok()
        .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|w| w.parse::<u32>().ok());
    Some(id)
}

const IDS: &[&str] = &[
    "0",
    "7",
    "007",
    "4294967295",
    "4294967296",
    "99999999999999999999",
];

const ODD: &[&str] = &[
    "1e20",
    "1e19",
    "-1e20",
    "1e400",
    "-0",
    "0",
    "-1",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1.5",
    "9223372036854775808",
    "18446744073709551616",
    "4294967296",
    "99999999999999999999",
    "\u{7f}",
    "\t",
    "\x00",
    "\r",
    "\u{c4}",
    "\u{FFFD}",
    "#",
    "# x",
    "pass",
    "PASS",
    "resign",
    "swap",
    "b",
    "w",
    "black",
    "white",
    "A1",
    "Z25",
    "T19",
    "a1",
    "c3",
    "z99",
    "-m",
    "-g",
    "-r",
    "-p",
    "-i",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "/dev/zero",
    "/dev/stdin",
    ".",
    "no-such.sgf",
];

const GO_COMMANDS: &[&str] = &[
    "boardsize 5",
    "boardsize 2",
    "boardsize 25",
    "clear_board",
    "komi 6.5",
    "play b C3",
    "play w pass",
    "genmove b",
    "genmove w",
    "reg_genmove b",
    "kgs-genmove_cleanup w",
    "undo",
    "fixed_handicap 2",
    "place_free_handicap 3",
    "set_free_handicap A1 B2",
    "final_score",
    "final_status_list dead",
    "time_settings 10 5 1",
    "time_left b 10 0",
    "kgs-time_settings byoyomi 10 5 2",
    "loadsgf game.sgf 3",
    "list_stones b",
    "is_legal w D4",
    "all_legal b",
    "captures w",
    "known_command play",
    "list_commands",
    "protocol_version",
    "warpstone-param",
    "warpstone-statistics",
    "gogui-title",
    "name",
    "showboard",
    "printsgf",
];

const HAV_COMMANDS: &[&str] = &[
    "boardsize 4",
    "boardsize 3",
    "boardsize 10",
    "clear_board",
    "play w c3",
    "play b swap",
    "genmove",
    "genmove w",
    "genmove b 0.5",
    "undo 2",
    "swap 0",
    "swap 1",
    "havannah_winner",
    "all_legal",
    "time -m 1 -g 60",
    "time -p 5 -i 10",
    "time",
    "time_settings 10 0 0",
    "time_left w 10 0",
    "loadsgf game.hgf",
    "known_command swap",
    "name",
    "showboard",
    "printsgf",
];

/// Lines that must be in the mix: a non-UTF-8 command with an id, blank
/// and comment lines, an id alone.
const FIXED: &[&[u8]] = &[b"77 play b \xc3\x28", b"#", b"", b"   ", b"\t# x", b"5"];

/// A command from `commands` with some words replaced or added, an id
/// perhaps in front and a comment perhaps behind.
fn mutated(commands: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::option::of(select(IDS)),
        select(commands),
        proptest::collection::vec((0usize..4, select(ODD)), 0..3),
        proptest::option::of(select(&["#", "# note", "#\u{c3}", "# interrupt"][..])),
    )
        .prop_map(|(id, command, replacements, comment)| {
            let mut words: Vec<&str> = command.split(' ').collect();
            for (at, word) in replacements {
                match words.get_mut(at) {
                    Some(slot) if at > 0 => *slot = word,
                    _ => words.push(word),
                }
            }
            let mut line = String::new();
            if let Some(id) = id {
                line.push_str(id);
                line.push(' ');
            }
            line.push_str(&words.join(" "));
            if let Some(comment) = comment {
                line.push(' ');
                line.push_str(comment);
            }
            line.into_bytes()
        })
}

/// Any line for `commands`' protocol. Never `quit` (it ends the session)
/// and never a file write (printsgf with a name): the test checks replies,
/// not the working directory.
fn any_line(commands: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        2 => proptest::collection::vec(any::<u8>(), 0..24),
        6 => mutated(commands),
        1 => (select(IDS), 4000usize..4200, any::<bool>()).prop_map(|(id, n, comment)| {
            let mut line = format!("{id} name ").into_bytes();
            if comment {
                line.push(b'#');
            }
            line.resize(line.len() + n, b'x');
            line
        }),
        1 => select(FIXED).prop_map(<[u8]>::to_vec),
    ]
    .prop_map(|mut line| {
        for b in line.iter_mut() {
            if *b == b'\n' {
                *b = b' ';
            }
        }
        let text = String::from_utf8_lossy(&line);
        if text.contains("quit") || text.contains("printsgf") {
            line = b"name".to_vec();
        }
        line
    })
}

/// Sends `lines`, each between two state probes, and checks the replies.
fn check_session<S: Session>(session: S, setup: &str, lines: &[Vec<u8>]) {
    const PROBES: [&str; 2] = ["showboard", "printsgf"];
    let mut input = format!("{setup}\n").into_bytes();
    // (expected id, index of the first probe reply before, of the fuzz reply)
    let mut expected = vec![None];
    let mut fuzzed = Vec::new();
    for line in lines {
        let before = expected.len();
        for probe in PROBES {
            input.extend_from_slice(probe.as_bytes());
            input.push(b'\n');
            expected.push(None);
        }
        input.extend_from_slice(line);
        input.push(b'\n');
        let reply_index = expected_reply(line).map(|id| {
            expected.push(id);
            expected.len() - 1
        });
        fuzzed.push((line, before, reply_index));
    }
    for probe in PROBES {
        input.extend_from_slice(probe.as_bytes());
        input.push(b'\n');
        expected.push(None);
    }

    let output = run(session, input);
    assert!(output.ends_with("\n\n") || output.is_empty(), "{output:?}");
    let replies: Vec<&str> = output
        .strip_suffix("\n\n")
        .unwrap_or("")
        .split("\n\n")
        .collect();
    assert_eq!(
        replies.len(),
        expected.len(),
        "one reply per line: {output:?}"
    );
    for (reply, id) in replies.iter().zip(&expected) {
        let ok = reply.starts_with('=') || reply.starts_with('?');
        assert!(ok, "reply {reply:?}");
        let head = reply[1..].split([' ', '\n']).next().unwrap_or("");
        let want = id.map(|id| id.to_string()).unwrap_or_default();
        assert_eq!(head, want, "id of reply {reply:?}");
    }
    for (line, before, reply_index) in fuzzed {
        let Some(at) = reply_index else { continue };
        if replies[at].starts_with('?') {
            let after = at + 1;
            assert_eq!(
                replies[before..before + 2],
                replies[after..after + 2],
                "a failing {:?} changed the state",
                String::from_utf8_lossy(line)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn go_sessions_survive_any_lines(
        lines in proptest::collection::vec(any_line(GO_COMMANDS), 1..6)
    ) {
        let sim = std::sync::Arc::new(crate::sim::cpu::CpuSimulator::new());
        check_session(super::go::GoSession::new(options(), sim), "boardsize 5", &lines);
    }

    #[test]
    fn havannah_sessions_survive_any_lines(
        lines in proptest::collection::vec(any_line(HAV_COMMANDS), 1..6)
    ) {
        let sim = std::sync::Arc::new(crate::sim::cpu::CpuSimulator::new());
        check_session(
            super::havannah::HavannahSession::new(options(), sim),
            "boardsize 4",
            &lines,
        );
    }
}
