//! The opening book: exact scores of the positions of a strategy tree near
//! the root, made by `warpstone book` (see `book_build`) and read by
//! `warpstone solve --book` and the engine's `--book`.
//!
//! The file is text, so that an interrupted build resumes by reading it
//! back and anyone can check a line with any solver: a header line
//! `warpstone connect4 book WxH`, then one position a line in Pons' line
//! format, `moves score` (columns from 1, the side to move's score). A
//! position and its mirror image share one entry. A weak book (header
//! `warpstone connect4 book WxH weak`) holds only the sign of each score
//! (1 win, 0 draw, -1 loss): enough to play a winning move, not to say how
//! fast it wins.

use crate::game::connect4::{Position, Shape};
use crate::game::Game;
use std::collections::HashMap;
use std::io::{self, BufRead};
use std::path::Path;

/// The header's words before the board size.
pub const HEADER: &str = "warpstone connect4 book";
/// Longest line accepted: a move string of at most 56 stones and a score.
const MAX_LINE: usize = 128;

/// The 7x6 book the engine plays from unless told otherwise: data made by
/// `warpstone book` (the command is in docs/connect4.md), compiled in so
/// that the binary needs no file beside it.
const STANDARD: &str = include_str!("../../../data/connect4-7x6.book");

/// A book in memory: canonical key to score.
#[derive(Clone, Debug)]
pub struct Book {
    shape: Shape,
    /// Scores are only signs (win/draw/loss).
    weak: bool,
    scores: HashMap<u64, i8>,
}

/// Why a file is not a book.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("line 1: not a book header ('{HEADER} WxH')")]
    Header,
    #[error("line {0}: not 'moves score' for a position of the book's board")]
    Line(usize),
}

impl Book {
    pub fn new(shape: Shape, weak: bool) -> Book {
        Book {
            shape,
            weak,
            scores: HashMap::new(),
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether the book holds only win/draw/loss.
    pub fn is_weak(&self) -> bool {
        self.weak
    }

    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The book built into the binary (7x6).
    pub fn standard() -> Result<Book, BookError> {
        Book::read(&mut STANDARD.as_bytes())
    }

    pub fn open(path: &Path) -> Result<Book, BookError> {
        Book::read(&mut io::BufReader::new(std::fs::File::open(path)?))
    }

    /// Reads a whole book; a bad line anywhere is an error (nothing of a
    /// broken file is used).
    pub fn read(input: &mut impl BufRead) -> Result<Book, BookError> {
        let mut lines = bounded_lines(input);
        let header = lines.next().ok_or(BookError::Header)??;
        let (shape, weak) = parse_header(&header).ok_or(BookError::Header)?;
        let mut book = Book::new(shape, weak);
        for (i, line) in lines.enumerate() {
            let line = line?;
            let number = i + 2;
            if line.trim().is_empty() {
                continue;
            }
            let (pos, score) = parse_line(shape, &line)
                .filter(|&(_, score)| !weak || score.abs() <= 1)
                .ok_or(BookError::Line(number))?;
            book.insert(&pos, score);
        }
        Ok(book)
    }

    pub fn insert(&mut self, pos: &Position, score: i32) {
        self.scores.insert(canonical_key(pos), score as i8);
    }

    /// The score of `pos` for the side to move as the book holds it (in a
    /// weak book only its sign), if the book has it.
    pub fn get(&self, pos: &Position) -> Option<i32> {
        if *pos.shape() != self.shape {
            return None;
        }
        self.scores.get(&canonical_key(pos)).map(|&s| s as i32)
    }

    /// The exact score of `pos`: `None` where the book lacks it or is weak.
    pub fn exact(&self, pos: &Position) -> Option<i32> {
        self.get(pos).filter(|_| !self.weak)
    }

    /// Win/draw/loss of `pos` (1, 0, -1), if the book has it.
    pub fn sign(&self, pos: &Position) -> Option<i32> {
        self.get(pos).map(i32::signum)
    }

    /// A perfect move at `pos` found in the book: a stone that wins at
    /// once, or the column whose position after it the book holds with a
    /// score that achieves `pos`'s own; `None` if the book lacks either.
    /// A weak book has none for a lost position: there every move keeps
    /// the loss, and only exact scores tell the one that loses last.
    pub fn best_move(&self, pos: &Position) -> Option<usize> {
        let score = self.get(pos)?;
        if self.weak && score < 0 {
            return None;
        }
        let order = super::centre_order(pos.width());
        if let Some(&c) = order
            .iter()
            .find(|&&c| pos.can_play(c) && pos.is_winning_move(c))
        {
            return Some(c);
        }
        order.into_iter().find(|&c| {
            pos.can_play(c) && {
                let mut child = *pos;
                child.play_column(c);
                self.get(&child) == Some(-score)
            }
        })
    }
}

/// `warpstone connect4 book 7x6` (or `... 7x6 weak`) to the board and
/// whether the book is weak.
pub fn parse_header(line: &str) -> Option<(Shape, bool)> {
    let rest = line.trim().strip_prefix(HEADER)?.trim();
    let (size, weak) = match rest.strip_suffix(WEAK) {
        Some(size) => (size.trim_end(), true),
        None => (rest, false),
    };
    let (w, h) = size.split_once('x')?;
    let shape = Shape::new(w.parse().ok()?, h.parse().ok()?).ok()?;
    Some((shape, weak))
}

/// The header line of a book of `shape`.
pub fn header(shape: Shape, weak: bool) -> String {
    let (w, h) = (shape.width, shape.height);
    if weak {
        format!("{HEADER} {w}x{h} {WEAK}")
    } else {
        format!("{HEADER} {w}x{h}")
    }
}

/// The header's last word for a weak book.
const WEAK: &str = "weak";

/// A `moves score` line (the empty board's moves are empty: ` 1`): the
/// position (not over) and its score, which must lie within the board's
/// range of scores.
pub fn parse_line(shape: Shape, line: &str) -> Option<(Position, i32)> {
    let (moves, score) = line.split_once(' ')?;
    let pos = Position::from_moves(shape, moves).ok()?;
    let score: i32 = score.parse().ok()?;
    let limit = (shape.cells() as i32 + 1) / 2;
    (pos.outcome().is_none() && score.abs() <= limit).then_some((pos, score))
}

/// The smaller of the keys of `pos` and of its mirror image.
pub fn canonical_key(pos: &Position) -> u64 {
    let key = pos.key();
    key.min(mirrored(pos.shape(), key))
}

/// The key of the mirror image: each column's field moved to the column
/// at the same distance from the other edge.
fn mirrored(shape: &Shape, key: u64) -> u64 {
    let stride = shape.height as u32 + 1;
    let field = (1u64 << stride) - 1;
    let width = shape.width as u32;
    (0..width).fold(0, |m, c| {
        m | (key >> (c * stride) & field) << ((width - 1 - c) * stride)
    })
}

/// The lines of `input`, each at most [`MAX_LINE`] bytes (a longer one is
/// an error, so a wrong file cannot make it read without bound).
fn bounded_lines(input: &mut impl BufRead) -> impl Iterator<Item = io::Result<String>> + '_ {
    std::iter::from_fn(move || {
        let mut line = Vec::new();
        let read = io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', &mut line);
        match read {
            Err(e) => Some(Err(e)),
            Ok(0) => None,
            Ok(_) if line.len() > MAX_LINE => Some(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a line longer than a book line",
            ))),
            Ok(_) => Some(
                String::from_utf8(line)
                    .map(|s| s.trim_end_matches(['\n', '\r']).to_string())
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e)),
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> Shape {
        Shape::new(7, 6).unwrap()
    }

    #[test]
    fn a_position_and_its_mirror_share_an_entry() {
        let mut book = Book::new(shape(), false);
        let pos = Position::from_moves(shape(), "1234").unwrap();
        book.insert(&pos, -3);
        let mirror = Position::from_moves(shape(), "7654").unwrap();
        assert_eq!(book.get(&mirror), Some(-3));
        let other = Position::from_moves(shape(), "1235").unwrap();
        assert_eq!(book.get(&other), None);
        // Another board's position is never in it.
        let small = Position::from_moves(Shape::new(6, 6).unwrap(), "1234").unwrap();
        assert_eq!(book.get(&small), None);
    }

    #[test]
    fn reads_its_own_format_and_rejects_anything_else() {
        let text = format!("{}\n 1\n4 -1\n44 2\n\n", header(shape(), false));
        let book = Book::read(&mut text.as_bytes()).unwrap();
        assert_eq!(book.len(), 3);
        assert_eq!(book.get(&Position::standard()), Some(1));
        assert_eq!(
            book.get(&Position::from_moves(shape(), "4").unwrap()),
            Some(-1)
        );
        for bad in [
            "nonsense\n4 1\n".to_string(),
            format!("{}\n4 x\n", header(shape(), false)),
            format!("{}\n4 1 2\n", header(shape(), false)),
            format!("{}\n9 1\n", header(shape(), false)),
            format!("{}\n4 99\n", header(shape(), false)),
            format!("{}\n1111111 0\n", header(shape(), false)),
            format!("{}\n{} 1\n", header(shape(), false), "4".repeat(500)),
            String::new(),
        ] {
            assert!(Book::read(&mut bad.as_bytes()).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn best_move_follows_the_scores_in_the_book() {
        let mut book = Book::new(shape(), false);
        let root = Position::standard();
        book.insert(&root, 1);
        // Column 3 (0-based 2) is held at -1 for the opponent: it keeps the
        // root's +1, so it is the book's move.
        let mut child = root;
        child.play_column(2);
        book.insert(&child, -1);
        let mut other = root;
        other.play_column(3);
        book.insert(&other, 0);
        assert_eq!(book.best_move(&root), Some(2));
        assert_eq!(book.best_move(&child), None);
    }

    /// The built-in book is the first player's winning strategy: the root
    /// a win, a book move at each of its turns that the book holds as lost
    /// for the opponent, every reply held, down to 12 stones at least; its
    /// deepest positions are the solver's.
    #[test]
    fn the_built_in_book_holds_the_first_players_win() {
        let book = Book::standard().unwrap();
        assert_eq!(book.shape(), shape());
        assert!(book.is_weak());
        let root = Position::standard();
        assert_eq!(book.get(&root), Some(1));
        let mut level = vec![root];
        let mut deepest = Vec::new();
        while !level.is_empty() {
            deepest = level.clone();
            let mut next = Vec::new();
            for pos in &level {
                if pos.to_move() == root.to_move() {
                    let c = book.best_move(pos).expect("a book move");
                    let mut child = *pos;
                    child.play_column(c);
                    if !child.is_won() {
                        assert_eq!(book.get(&child), Some(-1), "{pos:?}");
                        next.push(child);
                    }
                } else {
                    for c in (0..7).filter(|&c| pos.can_play(c)) {
                        let mut child = *pos;
                        child.play_column(c);
                        if child.outcome().is_some() {
                            continue;
                        }
                        match book.get(&child) {
                            Some(value) => {
                                assert_eq!(value, 1, "{child:?}");
                                next.push(child);
                            }
                            None => assert!(child.moves() >= 12, "{child:?} is missing"),
                        }
                    }
                }
            }
            next.sort_by_key(canonical_key);
            next.dedup_by_key(|p| canonical_key(p));
            level = next;
        }
        let depth = deepest[0].moves();
        assert!(depth >= 12, "the book ends at {depth} stones");
        let table = super::super::Table::with_mib(64);
        for pos in deepest.iter().step_by(deepest.len() / 10 + 1) {
            let value = super::super::Solver::new(&table, 7).solve(pos, true);
            assert_eq!(value, book.get(pos), "{pos:?}");
        }
    }
}
