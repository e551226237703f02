//! `warpstone book`: builds an opening book, the strategy tree of the side
//! to move at the root down to `depth` stones: at that side's turns the one
//! move the book will play (a best one, centre first among equals), at the
//! other side's turns every reply. On 7x6 that is the first player's
//! winning strategy; a tree of depth `d` holds about `7^(d/2)` positions
//! instead of the `7^d` of every position, so the book can go twice as deep.
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
    let shape = options.shape;
    let mut known = if options.out.exists() {
        let book = Book::open(&options.out)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        if book.shape() != shape {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the file is a {}x{} book",
                    book.shape().width,
                    book.shape().height
                ),
            ));
        }
        eprintln!("book: resuming, {} positions in the file", book.len());
        book
    } else {
        let mut file = std::fs::File::create(&options.out)?;
        writeln!(file, "{}", book::header(shape))?;
        Book::new(shape)
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
        let scores = solve_all(&table, &todo, options.threads, &file, depth)?;
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
        level = next_level(&level, side, &known, &table);
    }
    Ok(BookSummary {
        positions: known.len(),
        solved,
    })
}

/// Solves `todo` on `threads` threads sharing `table`, appending each line
/// to `file` as it is found; the scores in `todo`'s order.
fn solve_all(
    table: &Table,
    todo: &[&Node],
    threads: usize,
    file: &Mutex<std::fs::File>,
    depth: u32,
) -> io::Result<Vec<i32>> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let scores = Mutex::new(vec![0i32; todo.len()]);
    let failure = Mutex::new(None::<io::Error>);
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
                let score = solve_shared(table, &node.pos, false, per_position)
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

/// The next level of the tree: at `side`'s turns the child of the book's
/// move, at the other side's every child; finished games and positions
/// already met (or mirrored) left out.
fn next_level(level: &[Node], side: crate::game::Color, known: &Book, table: &Table) -> Vec<Node> {
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
    for node in level {
        let pos = &node.pos;
        if pos.can_win_next() {
            // The stone that wins is played at once; nothing below.
            continue;
        }
        if pos.to_move() == side {
            if let Some(c) = book_move(pos, known, table) {
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
/// the centre whose child keeps that score. The children were searched
/// while `pos` was, so their solves mostly hit the table.
fn book_move(pos: &Position, known: &Book, table: &Table) -> Option<usize> {
    let score = known.get(pos)?;
    let mut solver = Solver::new(table, pos.width());
    centre_order(pos.width()).into_iter().find(|&c| {
        pos.can_play(c) && {
            let mut child = *pos;
            child.play_column(c);
            let child_score = known.get(&child).or_else(|| solver.solve(&child, false));
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
}
