//! `warpstone build --game connect4 --out FILE` and the engine's
//! `--database FILE`: the engine answers from the file what the solver
//! answers, and a bad file is a clear error before any protocol. Likewise
//! `warpstone book` and `--book`.

mod common;

use common::run;
use std::path::{Path, PathBuf};

struct TempPath(PathBuf);

impl TempPath {
    fn new(name: &str) -> TempPath {
        TempPath(std::env::temp_dir().join(format!("warpstone-c4db-{}-{name}", std::process::id())))
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn build(width: &str, height: &str, out: &Path) -> String {
    let out = out.to_str().expect("a UTF-8 temp path");
    let result = run(
        &[
            "build", "--game", "connect4", "--width", width, "--height", height, "--out", out,
        ],
        "",
    );
    assert!(result.status.success(), "{result:?}");
    String::from_utf8(result.stdout).expect("UTF-8")
}

/// `warpstone-solve`'s lines as (column, score) pairs.
fn solve_lines(reply: &str) -> Vec<String> {
    reply
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn the_engine_answers_from_the_database_as_the_solver_does() {
    let db = TempPath::new("5x4.c4db");
    let printed = build("5", "4", &db.0);
    assert!(printed.contains("level 20 "), "{printed}");
    assert!(
        printed.contains("5x4: 3945711 positions, score +0"),
        "{printed}"
    );
    let path = db.0.to_str().unwrap();
    let session = "boardsize 5x4\nplay b 3\nplay w 3\nwarpstone-solve\ngenmove b\nquit\n";
    // One playout: the move comes from the file (or the solver), never
    // from a search that short.
    let with_db = run(
        &[
            "--game",
            "connect4",
            "--database",
            path,
            "--threads",
            "1",
            "--playouts",
            "1",
        ],
        session,
    );
    assert!(with_db.status.success(), "{with_db:?}");
    let text = String::from_utf8(with_db.stdout).unwrap();
    // Pons' interface, the solver's scores of each column after 33.
    let solver = run(
        &[
            "solve",
            "--game",
            "connect4",
            "--width",
            "5",
            "--height",
            "4",
            "--analyze",
        ],
        "33\n",
    );
    let solver = String::from_utf8(solver.stdout).unwrap();
    let want: Vec<String> = solver
        .split_whitespace()
        .skip(1)
        .enumerate()
        .map(|(c, s)| format!("{} {}", c + 1, s.trim_start_matches('+')))
        .collect();
    let got: Vec<String> = solve_lines(&text)
        .into_iter()
        .map(|l| l.replace('+', ""))
        .collect();
    assert_eq!(got, want, "{text}");
    // genmove plays a column of the best score.
    let best = want
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<i32>().unwrap())
        .max()
        .unwrap();
    let genmove = text
        .lines()
        .rev()
        .filter(|l| l.starts_with("= "))
        .map(|l| l[2..].trim().to_string())
        .find(|l| !l.is_empty())
        .expect("a genmove reply");
    let column: usize = genmove.parse().expect("a column");
    assert_eq!(want[column - 1], format!("{column} {best}"), "{text}");
}

#[test]
fn a_bad_database_is_an_error_before_the_protocol() {
    let junk = TempPath::new("junk.c4db");
    std::fs::write(&junk.0, b"not a database").unwrap();
    let missing = TempPath::new("missing.c4db");
    for path in [&junk.0, &missing.0] {
        let out = run(
            &["--game", "connect4", "--database", path.to_str().unwrap()],
            "name\n",
        );
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("--database"));
    }
    // Go has no database.
    let out = run(&["--game", "go", "--database", "x"], "name\n");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn build_rejects_bad_options() {
    for args in [
        &["--width", "9"][..],
        &["--max-memory", "0"],
        &["--temp-dir", "/nonexistent/dir"],
    ] {
        let mut all = vec!["build", "--game", "connect4"];
        all.extend_from_slice(args);
        let out = run(&all, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_book_is_built_and_answered_from_and_a_bad_one_is_an_error() {
    let book = TempPath::new("5x4.book");
    let _ = std::fs::remove_file(&book.0);
    let path = book.0.to_str().unwrap();
    let args = [
        "book",
        "--game",
        "connect4",
        "--width",
        "5",
        "--height",
        "4",
        "--depth",
        "4",
        "--threads",
        "2",
        "--table-mib",
        "8",
        "--out",
        path,
    ];
    let out = run(&args, "");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(&book.0).unwrap();
    assert!(text.starts_with("warpstone connect4 book 5x4\n"), "{text}");
    // Each line as `solve` answers it, from the book and without it.
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let moves: String = lines
        .iter()
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let solve = [
        "solve", "--game", "connect4", "--width", "5", "--height", "4",
    ];
    let plain = run(&solve, &moves);
    let with_book = run(&[&solve[..], &["--book", path]].concat(), &moves);
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout)
            .lines()
            .collect::<Vec<_>>(),
        lines
    );
    assert_eq!(with_book.stdout, plain.stdout);
    // A book of another board, a file that is not one, a missing file.
    let junk = TempPath::new("junk.book");
    std::fs::write(&junk.0, b"not a book\n").unwrap();
    let missing = TempPath::new("missing.book");
    let out = run(&["solve", "--game", "connect4", "--book", path], "4\n");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    for bad in [&junk.0, &missing.0] {
        let bad = bad.to_str().unwrap();
        let out = run(&["--game", "connect4", "--book", bad], "name\n");
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("--book"));
        let out = run(&["solve", "--game", "connect4", "--book", bad], "4\n");
        assert_eq!(out.status.code(), Some(2), "{out:?}");
    }
    let out = run(&["--game", "go", "--book", path], "name\n");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
