//! Amazons notation: squares `a1`..`j10`, moves `d1-d7/g7`, and the
//! board as `showboard` draws it.

use super::bitboard::{bit, bit_index, file_rank};
use super::{Move, Position};
use crate::game::Color;
use std::fmt::Write as _;

/// Why a move's text is not a move on this board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    #[error("a move is written from-to/arrow, e.g. d1-d7/g7")]
    Syntax,
    #[error("square off the board")]
    OffBoard,
}

impl Position {
    /// Bit index of a square written `d7` (either case), if it is on the
    /// board.
    pub fn parse_square(&self, text: &str) -> Result<u8, ParseMoveError> {
        let mut chars = text.chars();
        let file = chars.next().ok_or(ParseMoveError::Syntax)?;
        let rank = chars.as_str();
        if !file.is_ascii_alphabetic()
            || rank.is_empty()
            || rank.len() > 2
            || !rank.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(ParseMoveError::Syntax);
        }
        let file = (file.to_ascii_lowercase() as u8 - b'a') as usize;
        let rank: usize = rank.parse().map_err(|_| ParseMoveError::Syntax)?;
        if file >= self.size() || rank == 0 || rank > self.size() {
            return Err(ParseMoveError::OffBoard);
        }
        Ok(bit_index(file, rank - 1))
    }

    /// The square's name, `a1`..`j10`.
    pub fn square_text(sq: u8) -> String {
        let (f, r) = file_rank(sq);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    /// A move written `d1-d7/g7`. Only the notation is checked here, not
    /// whether the move is legal.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let (from, rest) = text.split_once('-').ok_or(ParseMoveError::Syntax)?;
        let (to, arrow) = rest.split_once('/').ok_or(ParseMoveError::Syntax)?;
        Ok(Move {
            from: self.parse_square(from)?,
            to: self.parse_square(to)?,
            arrow: self.parse_square(arrow)?,
        })
    }

    /// `d1-d7/g7`.
    pub fn move_text(mv: Move) -> String {
        format!(
            "{}-{}/{}",
            Self::square_text(mv.from),
            Self::square_text(mv.to),
            Self::square_text(mv.arrow)
        )
    }

    /// The board, top rank first: `W` and `B` queens, `x` arrows, `.`
    /// empty squares, with file letters and rank numbers around it, and
    /// the side to move underneath.
    pub fn draw(&self) -> String {
        let n = self.size();
        let files: String = (0..n)
            .map(|f| format!(" {}", (b'a' + f as u8) as char))
            .collect();
        let mut out = format!("  {files}\n");
        for r in (0..n).rev() {
            let _ = write!(out, "{:>2}", r + 1);
            for f in 0..n {
                let b = bit(bit_index(f, r));
                let c = if self.queens(Color::White) & b != 0 {
                    'W'
                } else if self.queens(Color::Black) & b != 0 {
                    'B'
                } else if self.arrows() & b != 0 {
                    'x'
                } else {
                    '.'
                };
                let _ = write!(out, " {c}");
            }
            let _ = writeln!(out, " {}", r + 1);
        }
        let _ = writeln!(out, "  {files}");
        let _ = write!(out, "{} to move", crate::game::Game::to_move(self));
        out
    }
}
