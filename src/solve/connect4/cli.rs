//! `warpstone solve --game connect4`: Pascal Pons' solver's interface, so
//! that his test sets and scripts run unchanged. One position a line, as
//! the columns played from 1 (`4453`); the answer `moves score`, with
//! `--analyze` every column's score (`-1000` for a full column, as his
//! solver writes it), with `--weak` only the sign (1 win, 0 draw, -1 loss);
//! `--book` answers the positions an opening book holds from it (a weak
//! book only `--weak` questions), and
//! `--threads` puts several searches sharing the table on each position.
//! A bad line (not a move string, a full column, a move after a win, a
//! finished game, longer than 4096 bytes) is reported on stderr and
//! skipped; the exit code is then 2.

use super::book::Book;
use super::{Solver, Table};
use crate::game::connect4::{Position, Shape};
use std::io::{self, BufRead, Write};

/// Longest line read; a longer one is an error, read to its end in chunks.
const MAX_LINE: usize = 4096;
/// What Pons' solver writes for a column that cannot be played.
pub const INVALID_COLUMN: i32 = -1000;

#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub width: usize,
    pub height: usize,
    pub analyze: bool,
    pub weak: bool,
    /// Transposition table size in MiB.
    pub table_mib: usize,
    /// An opening book (`warpstone book`): its positions are answered from
    /// it, and `--analyze` takes the columns it has from it.
    pub book: Option<std::path::PathBuf>,
    /// Searches sharing the table on each position (Lazy SMP; not with
    /// `analyze`, which searches the columns one after the other).
    pub threads: usize,
}

/// Reads positions from `input` until its end, writes answers to `output`.
/// Returns whether every line was a valid position.
pub fn run(
    options: &SolveOptions,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<bool> {
    let shape = Shape::new(options.width, options.height)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let book = match &options.book {
        Some(path) => {
            let book = Book::open(path).map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {e}", path.display()),
                )
            })?;
            if book.shape() != shape {
                let (w, h) = (book.shape().width, book.shape().height);
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{}: a {w}x{h} book, not for this board", path.display()),
                ));
            }
            Some(book)
        }
        None => None,
    };
    let table = Table::with_mib(options.table_mib);
    let mut all_valid = true;
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let (read, complete) = read_bounded_line(input, &mut line)?;
        if read == 0 {
            break;
        }
        let text = match std::str::from_utf8(&line) {
            Ok(t) if complete => t.trim_end_matches(['\r', '\n']).trim(),
            _ => {
                eprintln!("line {number}: not a move string");
                all_valid = false;
                continue;
            }
        };
        let pos = match Position::from_moves(shape, text) {
            Ok(p) if crate::game::Game::outcome(&p).is_none() => p,
            Ok(_) => {
                eprintln!("line {number}: the game is over");
                all_valid = false;
                continue;
            }
            Err(at) => {
                eprintln!("line {number}: invalid move at character {}", at + 1);
                all_valid = false;
                continue;
            }
        };
        let mut solver = Solver::new(&table, shape.width as usize);
        // A weak book knows only win/draw/loss: exact questions are solved.
        let from_book = |p: &Position| {
            let book = book.as_ref()?;
            if options.weak {
                book.sign(p)
            } else {
                book.exact(p)
            }
        };
        let answer = if options.analyze {
            let win = if options.weak {
                1
            } else {
                super::win_in_one(&pos)
            };
            let scores = super::column_scores(&pos, win, |child| {
                from_book(child).or_else(|| solver.solve(child, options.weak))
            })
            .unwrap_or_default();
            let words: Vec<String> = scores
                .iter()
                .map(|s| s.unwrap_or(INVALID_COLUMN).to_string())
                .collect();
            format!("{text} {}", words.join(" "))
        } else {
            let score = from_book(&pos)
                .or_else(|| {
                    if options.threads > 1 {
                        let (score, nodes) =
                            super::solve_shared(&table, &pos, options.weak, options.threads);
                        solver.nodes = nodes;
                        score
                    } else {
                        solver.solve(&pos, options.weak)
                    }
                })
                .unwrap_or_default();
            format!("{text} {score}")
        };
        tracing::debug!(nodes = solver.nodes, "{text}");
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(all_valid)
}

/// Reads one line into `line`, at most [`MAX_LINE`] bytes of it; the rest
/// of a longer line is read and dropped. Returns the bytes read and
/// whether the line fitted.
fn read_bounded_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    let mut read = 0;
    let mut complete = true;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((read, complete));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        if line.len() + n <= MAX_LINE {
            line.extend_from_slice(chunk);
        } else {
            complete = false;
        }
        input.consume(n);
        read += n;
        if done {
            return Ok((read, complete));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(input: &str, analyze: bool, weak: bool) -> (String, bool) {
        let (width, height) = if analyze { (4, 4) } else { (7, 6) };
        let options = SolveOptions {
            width,
            height,
            analyze,
            weak,
            table_mib: 8,
            book: None,
            threads: 1,
        };
        let mut out = Vec::new();
        let ok = run(&options, &mut input.as_bytes(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), ok)
    }

    #[test]
    fn answers_moves_and_score_per_line_like_pons_solver() {
        let (out, ok) = solve("112233\n26364\n", false, false);
        assert_eq!(out, "112233 18\n26364 -18\n");
        assert!(ok);
        let (out, _) = solve("112233\n", false, true);
        assert_eq!(out, "112233 1\n");
        // 4x4: column 1 is full.
        let (out, _) = solve("1111\n", true, false);
        assert!(out.starts_with("1111 -1000 "), "{out}");
        assert_eq!(out.split_whitespace().count(), 5);
    }

    #[test]
    fn bad_lines_are_skipped_and_reported() {
        let long = "1".repeat(5000);
        let input = format!("11111111\nabc\n1122334\n{long}\n112233\n");
        let (out, ok) = solve(&input, false, false);
        assert_eq!(out, "112233 18\n");
        assert!(!ok);
    }
}
