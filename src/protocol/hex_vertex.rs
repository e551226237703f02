//! Havannah cells as Castro and HavannahGui write them: a row letter and a
//! number, `c3`, `A1`; plus the move `swap`.
//!
//! The number is kept exactly as printed. What it means (Castro's default
//! "grid" coordinates count along each row from 1; HavannahGui's count along
//! the diagonal) and whether the cell exists on the current board are the
//! engine's business, like every range check.

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::{digit1, satisfy};
use nom::combinator::{map, map_opt, value};
use nom::sequence::pair;

use crate::protocol::args::whole;

/// A cell as printed: `row` from the letter (a = 0), `diag` the number
/// (1-based, as printed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HexVertex {
    pub row: u8,
    pub diag: u8,
}

/// What `play` may place: a cell, or `swap` (take over the opponent's first
/// stone, when the swap rule is on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexMove {
    Swap,
    Cell(HexVertex),
}

impl HexVertex {
    /// Reads one cell token, case-insensitively; `None` if it is not one.
    /// Row letters a–z, numbers 1–255 (a `u8`; no board comes close).
    pub fn parse(token: &str) -> Option<HexVertex> {
        whole(cell, token)
    }
}

impl HexMove {
    pub fn parse(token: &str) -> Option<HexMove> {
        whole(
            alt((
                value(HexMove::Swap, tag_no_case("swap")),
                map(cell, HexMove::Cell),
            )),
            token,
        )
    }
}

fn cell(input: &str) -> nom::IResult<&str, HexVertex> {
    let letter = map(satisfy(|c| c.is_ascii_alphabetic()), |c| {
        c.to_ascii_lowercase() as u8 - b'a'
    });
    let number = map_opt(digit1, |digits: &str| {
        digits.parse::<u8>().ok().filter(|&n| n >= 1)
    });
    map(pair(letter, number), |(row, diag)| HexVertex { row, diag })(input)
}

/// Lower case, as Castro prints cells: `c3`.
impl fmt::Display for HexVertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a' + self.row.min(25));
        write!(f, "{letter}{}", self.diag)
    }
}

impl fmt::Display for HexMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexMove::Swap => f.write_str("swap"),
            HexMove::Cell(cell) => cell.fmt(f),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a Havannah cell: {0:?}")]
pub struct BadCell(pub String);

impl FromStr for HexVertex {
    type Err = BadCell;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HexVertex::parse(s).ok_or_else(|| BadCell(s.to_string()))
    }
}

impl FromStr for HexMove {
    type Err = BadCell;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HexMove::parse(s).ok_or_else(|| BadCell(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(row: u8, diag: u8) -> HexVertex {
        HexVertex { row, diag }
    }

    #[test]
    fn cells_in_any_case() {
        assert_eq!(HexVertex::parse("a1"), Some(at(0, 1)));
        assert_eq!(HexVertex::parse("A1"), Some(at(0, 1)));
        assert_eq!(HexVertex::parse("c3"), Some(at(2, 3)));
        assert_eq!(HexVertex::parse("s19"), Some(at(18, 19)));
        assert_eq!(HexVertex::parse("z255"), Some(at(25, 255)));
        // Unlike Go, Havannah letters keep the i.
        assert_eq!(HexVertex::parse("i9"), Some(at(8, 9)));
    }

    #[test]
    fn not_cells() {
        for token in [
            "", "a", "1", "a0", "a256", "aa1", "1a", "c3x", "c-3", "ä1", "swap", "pass", "c 3",
        ] {
            assert_eq!(HexVertex::parse(token), None, "{token:?}");
        }
    }

    #[test]
    fn moves_include_swap() {
        assert_eq!(HexMove::parse("swap"), Some(HexMove::Swap));
        assert_eq!(HexMove::parse("SWAP"), Some(HexMove::Swap));
        assert_eq!(HexMove::parse("d4"), Some(HexMove::Cell(at(3, 4))));
        assert_eq!(HexMove::parse("swapp"), None);
        assert_eq!(HexMove::parse("resign"), None);
    }

    #[test]
    fn display_round_trips_in_lower_case() {
        assert_eq!(at(2, 3).to_string(), "c3");
        assert_eq!(HexMove::Swap.to_string(), "swap");
        for row in 0..26 {
            for diag in [1, 9, 10, 99, 255] {
                let cell = at(row, diag);
                assert_eq!(cell.to_string().parse(), Ok(cell));
                assert_eq!(cell.to_string().to_uppercase().parse(), Ok(cell));
            }
        }
    }
}
