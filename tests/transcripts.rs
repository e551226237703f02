//! Transcript tests: each `protocol-tests/*.gtp` (Go) and `*.htp`
//! (Havannah) file is a session with the `warpstone` binary, commands and
//! the replies they must get. The format is described in
//! `protocol-tests/README.md`; in short:
//!
//! ```text
//! #! --game go --playouts 200 --seed 1 --threads 1    first line: arguments
//! // a note for readers, not sent
//! play b D4                                           sent as is, plus "\n"
//! < =                                                 expected reply line
//! genmove w
//! <~ = {move}                                         reply line pattern
//! showboard
//! < =
//! <...                                                any further lines
//! ```
//!
//! The runner sends every input line, closes stdin, reads stdout to the
//! end (60 s at most), and checks that stdout holds nothing but well-framed
//! replies (`=`/`?`, optional id, one space, no trailing white space, an
//! empty line after each), that they match the expectations in order, and
//! that the process exits with status 0. `WARPSTONE_TRANSCRIPT_BIN` names
//! another executable to run instead (a release build, say); it receives
//! the header's arguments all the same. Fixture files from
//! `protocol-tests/fixtures/` are copied into a fresh working directory, so
//! `loadsgf game9.sgf` and `printsgf out.sgf` work with relative names.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);

#[path = "../protocol-tests/format.rs"]
mod format;

use format::{parse_transcript, reply_matches, split_replies, Expected, Transcript};

// --------------------------------------------------------------- running --

struct Run {
    stdout: Vec<u8>,
    stderr: String,
    status: Option<std::process::ExitStatus>,
    timed_out: bool,
}

fn run_engine(transcript: &Transcript) -> Result<Run, String> {
    let stem = transcript
        .path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("transcript");
    let workdir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("transcripts")
        .join(stem);
    let _ = std::fs::remove_dir_all(&workdir);
    std::fs::create_dir_all(&workdir).map_err(|e| format!("workdir: {e}"))?;
    if let Ok(entries) = std::fs::read_dir(tests_dir().join("fixtures")) {
        for entry in entries.flatten() {
            let _ = std::fs::copy(entry.path(), workdir.join(entry.file_name()));
        }
    }

    let engine = std::env::var_os("WARPSTONE_TRANSCRIPT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_warpstone")));
    let mut child = Command::new(engine)
        .args(&transcript.args)
        .current_dir(&workdir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start warpstone: {e}"))?;

    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = transcript.input.clone();
    // After `quit` the engine stops reading; the broken pipe is expected.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = Arc::new(Mutex::new(Vec::new()));
    let (done_tx, done_rx) = mpsc::channel();
    let reader = {
        let stdout = Arc::clone(&stdout);
        let mut pipe = child.stdout.take().ok_or("no stdout")?;
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                stdout
                    .lock()
                    .expect("stdout buffer")
                    .extend_from_slice(&chunk[..n]);
            }
            let _ = done_tx.send(());
        })
    };
    let mut stderr_pipe = child.stderr.take().ok_or("no stderr")?;
    let stderr_reader = thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr_pipe.read_to_string(&mut text);
        text
    });

    let deadline = Instant::now() + TIMEOUT;
    let mut timed_out = done_rx.recv_timeout(TIMEOUT).is_err();
    let mut status = None;
    while !timed_out {
        match child.try_wait() {
            Ok(Some(s)) => {
                status = Some(s);
                break;
            }
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            _ => timed_out = true,
        }
    }
    if timed_out {
        let _ = child.kill();
        let _ = child.wait();
    }
    let _ = writer.join();
    let _ = reader.join();
    let stderr = stderr_reader.join().unwrap_or_default();
    let stdout = std::mem::take(&mut *stdout.lock().expect("stdout buffer"));
    Ok(Run {
        stdout,
        stderr,
        status,
        timed_out,
    })
}

/// Runs one transcript; `Err` carries a readable report.
fn check_transcript(transcript: &Transcript) -> Result<(), String> {
    let run = run_engine(transcript)?;
    let mut report = String::new();
    if run.timed_out {
        let _ = writeln!(report, "timed out after {TIMEOUT:?}");
    }
    match run.status {
        Some(status) if status.success() => {}
        Some(status) => _ = writeln!(report, "exit status {status}, expected 0"),
        None => {}
    }
    let actual = match String::from_utf8(run.stdout) {
        Err(e) => {
            let _ = writeln!(report, "stdout is not UTF-8: {e}");
            Vec::new()
        }
        Ok(stdout) => split_replies(&stdout).unwrap_or_else(|e| {
            let _ = writeln!(report, "stdout is not clean protocol: {e}");
            Vec::new()
        }),
    };
    let _ = write!(report, "{}", diff(transcript, &actual));
    if report.is_empty() {
        return Ok(());
    }
    let tail: Vec<&str> = run.stderr.lines().rev().take(20).collect();
    if !tail.is_empty() {
        let _ = writeln!(report, "--- stderr (last lines) ---");
        for line in tail.into_iter().rev() {
            let _ = writeln!(report, "{line}");
        }
    }
    Err(report)
}

/// Expected against actual, reply by reply; empty when all match.
fn diff(transcript: &Transcript, actual: &[Vec<String>]) -> String {
    const SHOWN: usize = 12;
    let mut out = String::new();
    let name = display_name(&transcript.path);
    let mut mismatches = 0;
    for (i, expected) in transcript.replies.iter().enumerate() {
        let got = actual.get(i);
        if got.is_some_and(|got| reply_matches(&expected.lines, got)) {
            continue;
        }
        mismatches += 1;
        if mismatches > SHOWN {
            continue;
        }
        let _ = writeln!(out, "{name}:{}: {}", expected.line_number, expected.command);
        for line in &expected.lines {
            let _ = match line {
                Expected::Exact(text) => writeln!(out, "  - expected  {text}"),
                Expected::Pattern(text, _) => writeln!(out, "  - pattern   {text}"),
                Expected::Rest => writeln!(out, "  - expected  ..."),
            };
        }
        match got {
            Some(lines) => lines
                .iter()
                .for_each(|l| _ = writeln!(out, "  + actual    {l}")),
            None => _ = writeln!(out, "  + (no reply)"),
        }
    }
    if mismatches > SHOWN {
        let _ = writeln!(out, "... {} more mismatching replies", mismatches - SHOWN);
    }
    if mismatches > 0 {
        let total = transcript.replies.len();
        let _ = writeln!(out, "{name}: {mismatches} of {total} replies differ");
    }
    for extra in actual.iter().skip(transcript.replies.len()) {
        let _ = writeln!(out, "{name}: unexpected extra reply {extra:?}");
    }
    out
}

/// `protocol-tests/x.gtp`, as a reader would open it.
fn display_name(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests")
}

fn transcripts_with_extension(extension: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(tests_dir())
        .expect("protocol-tests directory")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .collect();
    paths.sort();
    paths
}

fn run_all(extension: &str) {
    let paths = transcripts_with_extension(extension);
    assert!(!paths.is_empty(), "no *.{extension} transcripts");
    let mut failed = Vec::new();
    for path in &paths {
        let result = parse_transcript(path).and_then(|t| check_transcript(&t));
        if let Err(report) = result {
            eprintln!("=== {} FAILED\n{report}", display_name(path));
            failed.push(display_name(path));
        }
    }
    assert!(failed.is_empty(), "failing transcripts: {failed:?}");
}

// ----------------------------------------------------------------- tests --

#[test]

fn go_transcripts() {
    run_all("gtp");
}

#[test]

fn havannah_transcripts() {
    run_all("htp");
}

#[test]
fn transcripts_are_well_formed() {
    for extension in ["gtp", "htp"] {
        for path in transcripts_with_extension(extension) {
            let transcript =
                parse_transcript(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                transcript.args.windows(2).any(|w| w[0] == "--game"),
                "{}: header names no --game",
                path.display()
            );
        }
    }
}
