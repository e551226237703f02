//! Go vertices as GTP writes them: `D4`, `pass`.
//!
//! GTP 2 §2.11: a column letter A–Z without I (so that I and J cannot be
//! confused), then a row number 1–25, case-insensitive; `pass` in any case.
//! That names at most 25 columns, which is why GTP boards stop at 25×25.
//! A `Vertex` is only text made typed: whether it lies on the current board
//! is for the engine to check.

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::{digit1, satisfy};
use nom::combinator::{map_opt, value};
use nom::sequence::pair;

use crate::protocol::args::whole;

/// Columns and rows a vertex can name.
pub const MAX_COORD: u8 = 25;

/// Column letters in order; I is skipped.
const COLUMN_LETTERS: &[u8; MAX_COORD as usize] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    Pass,
    /// `col` counts from 0 at the left (A), `row` from 0 at the bottom
    /// (row number 1): `A1` is `{ col: 0, row: 0 }`, `J9` is `{ 8, 8 }`.
    Coord {
        col: u8,
        row: u8,
    },
}

impl Vertex {
    /// A board vertex, or `None` past the 25×25 that GTP can name.
    pub fn coord(col: u8, row: u8) -> Option<Vertex> {
        (col < MAX_COORD && row < MAX_COORD).then_some(Vertex::Coord { col, row })
    }

    /// Reads one vertex token. `None` for anything that is not one.
    pub fn parse(token: &str) -> Option<Vertex> {
        let column = map_opt(satisfy(|c| c.is_ascii_alphabetic()), column_index);
        let row = map_opt(digit1, |digits: &str| {
            digits
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=MAX_COORD).contains(n))
        });
        whole(
            alt((
                value(Vertex::Pass, tag_no_case("pass")),
                map_opt(pair(column, row), |(col, number)| {
                    Vertex::coord(col, number - 1)
                }),
            )),
            token,
        )
    }
}

fn column_index(letter: char) -> Option<u8> {
    let upper = letter.to_ascii_uppercase() as u8;
    COLUMN_LETTERS
        .iter()
        .position(|&l| l == upper)
        .and_then(|i| u8::try_from(i).ok())
}

/// Upper case, as GNU Go writes vertices: `D4`, `PASS`.
impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Vertex::Pass => f.write_str("PASS"),
            Vertex::Coord { col, row } => {
                let letter = COLUMN_LETTERS
                    .get(usize::from(col))
                    .copied()
                    .unwrap_or(b'?');
                write!(f, "{}{}", char::from(letter), u32::from(row) + 1)
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a vertex: {0:?}")]
pub struct BadVertex(pub String);

impl FromStr for Vertex {
    type Err = BadVertex;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Vertex::parse(s).ok_or_else(|| BadVertex(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(col: u8, row: u8) -> Vertex {
        Vertex::Coord { col, row }
    }

    #[test]
    fn corners_and_the_skipped_letter() {
        assert_eq!(Vertex::parse("A1"), Some(at(0, 0)));
        assert_eq!(Vertex::parse("H8"), Some(at(7, 7)));
        assert_eq!(Vertex::parse("J9"), Some(at(8, 8)));
        assert_eq!(Vertex::parse("T19"), Some(at(18, 18)));
        assert_eq!(Vertex::parse("Z25"), Some(at(24, 24)));
        assert_eq!(Vertex::parse("I5"), None);
        assert_eq!(Vertex::parse("i5"), None);
    }

    #[test]
    fn case_insensitive() {
        assert_eq!(Vertex::parse("d4"), Some(at(3, 3)));
        assert_eq!(Vertex::parse("pass"), Some(Vertex::Pass));
        assert_eq!(Vertex::parse("PASS"), Some(Vertex::Pass));
        assert_eq!(Vertex::parse("Pass"), Some(Vertex::Pass));
    }

    #[test]
    fn out_of_gtp_range_or_malformed() {
        for token in [
            "", "A", "1", "A0", "A26", "A255", "A256", "A99999", "AA1", "1A", "D4x", "D-4", "D+4",
            "D 4", "Ä4", "passs", "resign", "D4.0",
        ] {
            assert_eq!(Vertex::parse(token), None, "{token:?}");
        }
    }

    #[test]
    fn leading_zeros_are_tolerated() {
        assert_eq!(Vertex::parse("D04"), Some(at(3, 3)));
    }

    #[test]
    fn display_is_upper_case_and_round_trips() {
        assert_eq!(at(0, 0).to_string(), "A1");
        assert_eq!(at(8, 8).to_string(), "J9");
        assert_eq!(at(24, 24).to_string(), "Z25");
        assert_eq!(Vertex::Pass.to_string(), "PASS");
        for col in 0..MAX_COORD {
            for row in 0..MAX_COORD {
                let vertex = at(col, row);
                assert_eq!(vertex.to_string().parse(), Ok(vertex));
                assert_eq!(
                    Vertex::parse(&vertex.to_string().to_lowercase()),
                    Some(vertex)
                );
            }
        }
    }

    #[test]
    fn coord_constructor_checks_the_gtp_range() {
        assert_eq!(Vertex::coord(24, 0), Some(at(24, 0)));
        assert_eq!(Vertex::coord(25, 0), None);
        assert_eq!(Vertex::coord(0, 25), None);
    }

    #[test]
    fn from_str_reports_the_token() {
        assert_eq!("X".parse::<Vertex>(), Err(BadVertex("X".into())));
    }
}
