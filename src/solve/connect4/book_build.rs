//! `warpstone book`: builds an opening book, the strategy tree of the side
//! to move at the root down to `depth` stones: at that side's turns the one
//! move the book will play (a best one, centre first among equals), at the
//! other side's turns every reply. On 7x6 that is the first player's
//! winning strategy; a tree of depth `d` holds about `7^(d/2)` positions
//! instead of the `7^d` of every position, so the book can go twice as deep.
//! A weak book (`weak`) keeps only win/draw/loss: a first-player position
//! needs one null-window proof instead of the several that narrow an
//! exact score down, and its move is the first winning one from the centre.
//!
//! Level by level: `threads` solvers share one table and take the level's
//! positions one at a time; each solved position is appended to the file at
//! once, so a stopped build loses only the positions in hand, and a new run
//! with the same file reads it back and skips what it holds (resumable).
//! Progress and each level's time go to stderr.

use super::book::{self, Book};
use super::{centre_order, solve_shared, Solver, Table};
use crate::game::connect4::{Position, Shape};
use crate::game::Game;
use std::collections::HashSet;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct BookOptions {
    pub shape: Shape,
    /// Positions of fewer stones than this are in the book.
    pub depth: u32,
    pub threads: usize,
    pub table_mib: usize,
    pub out: PathBuf,
    /// Win/draw/loss only (see the module's doc).
    pub weak: bool,
}

/// What a build did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookSummary {
    /// Positions in the book (read back and new).
    pub positions: usize,
    /// Positions solved by this run.
    pub solved: usize,
}

/// One position of a level: its moves (the line's first word) and the
/// position.
struct Node {
    moves: String,
    pos: Position,
}

/// Builds (or completes) the book in `options.out`.
pub fn build(options: &BookOptions) -> io::Result<BookSummary> {
    let (shape, weak) = (options.shape, options.weak);
    let mut known = if options.out.exists() {
        drop_partial_line(&options.out)?;
        let book = Book::open(&options.out)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        if book.shape() != shape || book.is_weak() != weak {
            let kind = |weak| if weak { " weak" } else { "" };
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the file is a {}x{}{} book, not a {}x{}{} one",
                    book.shape().width,
                    book.shape().height,
                    kind(book.is_weak()),
                    shape.width,
                    shape.height,
                    kind(weak)
                ),
            ));
        }
        eprintln!("book: resuming, {} positions in the file", book.len());
        book
    } else {
        let mut file = std::fs::File::create(&options.out)?;
        writeln!(file, "{}", book::header(shape, weak))?;
        Book::new(shape, weak)
    };
    let file = Mutex::new(
        std::fs::OpenOptions::new()
            .append(true)
            .open(&options.out)?,
    );
    let table = Table::with_mib(options.table_mib);
    let root = Position::empty(shape);
    let side = root.to_move();
    let mut level = vec![Node {
        moves: String::new(),
        pos: root,
    }];
    let mut solved = 0;
    for depth in 0..options.depth {
        if level.is_empty() {
            break;
        }
        let started = Instant::now();
        let todo: Vec<&Node> = level
            .iter()
            .filter(|n| known.get(&n.pos).is_none())
            .collect();
        let scores = solve_all(&table, &todo, options, &file, depth)?;
        for (node, score) in todo.iter().zip(&scores) {
            known.insert(&node.pos, *score);
        }
        solved += todo.len();
        eprintln!(
            "book: level {depth}: {} positions ({} solved now) in {:.1} s",
            level.len(),
            todo.len(),
            started.elapsed().as_secs_f64()
        );
        if depth + 1 == options.depth {
            break;
        }
        let started = Instant::now();
        let moves = book_moves(&level, side, &known, &table, options);
        eprintln!(
            "book: level {depth}: moves chosen in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        level = next_level(&level, side, &moves);
    }
    Ok(BookSummary {
        positions: known.len(),
        solved,
    })
}

/// A build stopped while writing a line leaves it without its newline:
/// cut the file back to its last whole line, which a resumed build then
/// reads as usual (the cut position is solved again).
fn drop_partial_line(path: &std::path::Path) -> io::Result<()> {
    let text = std::fs::read(path)?;
    if text.is_empty() || text.ends_with(b"\n") {
        return Ok(());
    }
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    eprintln!("book: dropping an unfinished last line");
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .set_len(keep as u64)
}

/// Solves `todo` on `options.threads` threads sharing `table`, appending
/// each line to `file` as it is found; the scores in `todo`'s order.
fn solve_all(
    table: &Table,
    todo: &[&Node],
    options: &BookOptions,
    file: &Mutex<std::fs::File>,
    depth: u32,
) -> io::Result<Vec<i32>> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let scores = Mutex::new(vec![0i32; todo.len()]);
    let failure = Mutex::new(None::<io::Error>);
    let (threads, weak) = (options.threads, options.weak);
    let started = Instant::now();
    // Fewer positions than threads (the first levels, the hardest): all
    // threads on each position in turn; else one position a thread.
    let (workers, per_position) = if todo.len() < threads {
        (1, threads)
    } else {
        (threads.max(1), 1)
    };
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= todo.len() || failure.lock().unwrap().is_some() {
                    break;
                }
                let node = todo[i];
                let score = solve_shared(table, &node.pos, weak, per_position)
                    .0
                    .expect("a book position is not over and nothing stops the search");
                scores.lock().unwrap()[i] = score;
                let line = format!("{} {score}\n", node.moves);
                if let Err(e) = file.lock().unwrap().write_all(line.as_bytes()) {
                    *failure.lock().unwrap() = Some(e);
                    break;
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(100) || n == todo.len() {
                    let elapsed = started.elapsed().as_secs_f64();
                    eprintln!(
                        "book: level {depth}: {n}/{} solved, {elapsed:.1} s, about {:.0} s left",
                        todo.len(),
                        elapsed / n as f64 * (todo.len() - n) as f64
                    );
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    Ok(scores.into_inner().unwrap())
}

/// The book's move at each of `level`'s positions where `side` is to move
/// (`None` at the other side's turns, and where a stone wins at once: the
/// game ends there). Found on `options.threads` threads: each may solve a
/// few children, and a level holds thousands of positions.
fn book_moves(
    level: &[Node],
    side: crate::game::Color,
    known: &Book,
    table: &Table,
    options: &BookOptions,
) -> Vec<Option<usize>> {
    let next = AtomicUsize::new(0);
    let moves = Mutex::new(vec![None; level.len()]);
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(node) = level.get(i) else { break };
                let pos = &node.pos;
                if pos.to_move() != side || pos.can_win_next() {
                    continue;
                }
                let column = book_move(pos, known, table, options.weak);
                moves.lock().unwrap()[i] = column;
            });
        }
    });
    moves.into_inner().unwrap()
}

/// The next level of the tree: the child of the book's move where `moves`
/// has one, every child at the other side's turns; finished games, the
/// children of positions where a stone wins at once, and positions
/// already met (or mirrored) left out.
fn next_level(level: &[Node], side: crate::game::Color, moves: &[Option<usize>]) -> Vec<Node> {
    let mut seen = HashSet::new();
    let mut next = Vec::new();
    let mut push = |parent: &Node, c: usize, next: &mut Vec<Node>| {
        let mut pos = parent.pos;
        pos.play_column(c);
        if pos.outcome().is_none() && seen.insert(book::canonical_key(&pos)) {
            next.push(Node {
                moves: format!("{}{}", parent.moves, c + 1),
                pos,
            });
        }
    };
    for (node, &column) in level.iter().zip(moves) {
        let pos = &node.pos;
        if pos.can_win_next() {
            // The stone that wins is played at once; nothing below.
            continue;
        }
        if pos.to_move() == side {
            if let Some(c) = column {
                push(node, c, &mut next);
            }
        } else {
            for c in 0..pos.width() {
                if pos.can_play(c) {
                    push(node, c, &mut next);
                }
            }
        }
    }
    next
}

/// The move of the book at `pos` (its score known): the first column from
/// the centre whose child keeps that score (in a weak book, its sign). The
/// children were searched while `pos` was, so their solves mostly hit the
/// table.
fn book_move(pos: &Position, known: &Book, table: &Table, weak: bool) -> Option<usize> {
    // A resumed build finds the move it chose before: only that child is
    // in the file, and solving the columns before it from an empty table
    // would cost minutes near the root.
    if let Some(c) = known.best_move(pos) {
        return Some(c);
    }
    let score = known.get(pos)?;
    let mut solver = Solver::new(table, pos.width());
    centre_order(pos.width()).into_iter().find(|&c| {
        pos.can_play(c) && {
            let mut child = *pos;
            child.play_column(c);
            let child_score = known.get(&child).or_else(|| solver.solve(&child, weak));
            child_score == Some(-score)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_holds_the_strategy_tree_with_the_solvers_scores_and_resumes() {
        let dir = std::env::temp_dir().join(format!("warpstone-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("5x4.book");
        let _ = std::fs::remove_file(&out);
        let shape = Shape::new(5, 4).unwrap();
        let options = BookOptions {
            shape,
            depth: 5,
            threads: 2,
            table_mib: 8,
            out: out.clone(),
            weak: false,
        };
        let first = build(&options).unwrap();
        assert_eq!(first.positions, first.solved);
        // Root; one move; its 5 replies (2 pairs of mirror images: 3);
        // one move each; every reply to those.
        assert!(first.positions > 5, "{first:?}");
        let book = Book::open(&out).unwrap();
        assert_eq!(book.len(), first.positions);
        // Every line is the solver's score, and the book can play from
        // the root at every one of the other side's replies.
        let table = Table::new(1 << 16);
        let text = std::fs::read_to_string(&out).unwrap();
        for line in text.lines().skip(1) {
            let (pos, score) = book::parse_line(shape, line).unwrap();
            assert_eq!(
                Solver::new(&table, 5).solve(&pos, false),
                Some(score),
                "{line}"
            );
        }
        let root = Position::empty(shape);
        let c = book.best_move(&root).unwrap();
        let mut pos = root;
        pos.play_column(c);
        for reply in 0..5 {
            let mut after = pos;
            after.play_column(reply);
            assert!(book.best_move(&after).is_some(), "{c} {reply}");
        }
        // A second run finds everything in the file and solves nothing.
        let again = build(&options).unwrap();
        assert_eq!(again.solved, 0);
        assert_eq!(again.positions, first.positions);
        // A deeper one adds only the new level.
        let deeper = build(&BookOptions {
            depth: 6,
            ..options
        })
        .unwrap();
        assert_eq!(deeper.positions, first.positions + deeper.solved);
        assert!(deeper.solved > 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_weak_book_holds_signs_plays_winning_moves_and_resumes_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("warpstone-wbook-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("6x5.book");
        let _ = std::fs::remove_file(&out);
        // 6x5 is a draw: at the first player's turns a move that keeps it.
        let shape = Shape::new(6, 5).unwrap();
        let options = BookOptions {
            shape,
            depth: 6,
            threads: 2,
            table_mib: 16,
            out: out.clone(),
            weak: true,
        };
        let first = build(&options).unwrap();
        let book = Book::open(&out).unwrap();
        assert!(book.is_weak());
        assert_eq!(book.len(), first.positions);
        let table = Table::new(1 << 18);
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with("warpstone connect4 book 6x5 weak\n"));
        for line in text.lines().skip(1) {
            let (pos, score) = book::parse_line(shape, line).unwrap();
            let exact = Solver::new(&table, 6).solve(&pos, false).unwrap();
            assert_eq!(score, exact.signum(), "{line}");
            assert_eq!(book.exact(&pos), None, "a weak book has no exact score");
            if let Some(c) = book.best_move(&pos) {
                let mut child = pos;
                child.play_column(c);
                let after = Solver::new(&table, 6).solve(&child, true);
                assert!(
                    pos.is_winning_move(c) || after == Some(-score),
                    "{line}: column {c}"
                );
            }
        }
        // An exact build does not resume a weak file.
        assert!(build(&BookOptions {
            weak: false,
            ..options.clone()
        })
        .is_err());
        // A line cut by a stopped build is dropped and solved again.
        let cut = text.trim_end().len() - 1;
        std::fs::write(&out, &text[..cut]).unwrap();
        let resumed = build(&options).unwrap();
        assert_eq!(resumed.solved, 1);
        assert_eq!(
            std::fs::read_to_string(&out).unwrap().lines().count(),
            text.lines().count()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
