//! The 7x6 opening book built into the binary: the engine plays from it
//! with no flags (`-v` logs where a move came from), `--no-book` turns it
//! off, and a weak book answers only win/draw/loss questions.

mod common;

use common::run;
use warpstone::game::connect4::Position;
use warpstone::solve::connect4::book::Book;

/// The second player's replies, one line of three a game: a fixed mix of
/// columns, not strong play. Three stones each cannot fill a column or
/// give the first player four, so every first-player move is the book's.
const REPLIES: [&str; 6] = ["333", "555", "111", "777", "246", "642"];

#[test]
fn with_no_flags_the_first_player_plays_winning_moves_from_the_built_in_book() {
    // A tiny move time: only a book answers such positions with a proof.
    let args = [
        "--game",
        "connect4",
        "--threads",
        "1",
        "--time-per-move",
        "0.05",
        "-v",
    ];
    let mut lines = Vec::new();
    for replies in REPLIES {
        let mut moves = String::new();
        let mut input = String::from("clear_board\n");
        for (turn, reply) in replies.chars().enumerate() {
            input.push_str("genmove b\n");
            let out = run(&args, &input);
            assert!(out.status.success(), "{out:?}");
            let stdout = String::from_utf8(out.stdout).unwrap();
            let column = stdout
                .split("\n\n")
                .filter(|r| !r.trim().is_empty())
                .last()
                .and_then(|r| r.strip_prefix("= "))
                .expect("genmove answers a column")
                .trim()
                .to_string();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.matches("from the book").count() == turn + 1,
                "{moves}: {stderr}"
            );
            input.push_str(&format!("play w {reply}\n"));
            moves.push_str(&column);
            lines.push(moves.clone());
            moves.push(reply);
        }
    }
    // Every move is the book's, and leaves the second player lost (the
    // book's values are checked against the solver in its unit tests:
    // a proof near the empty board takes minutes).
    let book = Book::standard().unwrap();
    let shape = book.shape();
    for line in &lines {
        let (before, column) = line.split_at(line.len() - 1);
        let pos = Position::from_moves(shape, before).unwrap();
        let column: usize = column.parse().unwrap();
        assert_eq!(book.best_move(&pos), Some(column - 1), "{line}");
        let after = Position::from_moves(shape, line).unwrap();
        assert_eq!(book.get(&after), Some(-1), "{line}");
    }
}

#[test]
fn no_book_turns_the_built_in_book_off_and_bad_combinations_are_refused() {
    let out = run(
        &[
            "--game",
            "connect4",
            "--no-book",
            "--playouts",
            "50",
            "--time-per-move",
            "0.05",
            "-v",
        ],
        "genmove b\n",
    );
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("= "));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("from the book"));
    for args in [
        &["--game", "connect4", "--no-book", "--book", "x.book"][..],
        &["--game", "go", "--no-book"][..],
    ] {
        let out = run(args, "name\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_weak_book_answers_weak_questions_and_leaves_exact_ones_to_the_solver() {
    let dir = std::env::temp_dir().join(format!("warpstone-c4wbook-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("5x4.book");
    let path = book.to_str().unwrap();
    let shape = ["--width", "5", "--height", "4"];
    let build = [
        &["book", "--game", "connect4", "--weak", "--depth", "5"][..],
        &shape,
        &["--table-mib", "8", "--out", path],
    ]
    .concat();
    let out = run(&build, "");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(
        text.starts_with("warpstone connect4 book 5x4 weak\n"),
        "{text}"
    );
    let moves: String = text
        .lines()
        .skip(1)
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let solve = [&["solve", "--game", "connect4"][..], &shape].concat();
    for extra in [&["--weak"][..], &[], &["--analyze"]] {
        let plain = run(&[&solve[..], extra].concat(), &moves);
        let with_book = run(&[&solve[..], extra, &["--book", path]].concat(), &moves);
        assert!(plain.status.success(), "{plain:?}");
        assert_eq!(with_book.stdout, plain.stdout, "{extra:?}");
    }
    // The weak answers are the book's own lines.
    let weak = run(&[&solve[..], &["--weak"]].concat(), &moves);
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        String::from_utf8_lossy(&weak.stdout)
            .lines()
            .collect::<Vec<_>>(),
        lines
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
