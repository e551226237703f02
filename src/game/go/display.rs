//! Text rendering of a position, in the style of GNU Go's `showboard`.

use super::board::{BLACK, WHITE};
use super::{fixed_handicap, Position};
use std::fmt::Write;

/// GTP column letter for a 0-based column: A..Z skipping I (25 letters,
/// enough for 25x25).
pub fn column_letter(col: usize) -> char {
    let letter = b'A' + col as u8;
    if letter >= b'I' {
        (letter + 1) as char
    } else {
        letter as char
    }
}

impl Position {
    /// ASCII board: `X` black, `O` white, `+` star points, `.` empty, with
    /// column letters, row numbers and the capture counts.
    pub fn showboard(&self) -> String {
        let size = self.size();
        // Star points: corners, plus the centre on odd boards from 9x9 and
        // the side stars from 13x13.
        let star_count = match size {
            13.. if !size.is_multiple_of(2) => 9,
            9.. if !size.is_multiple_of(2) => 5,
            _ => 4,
        };
        let stars = fixed_handicap(size, star_count).unwrap_or_default();
        let letters: String = (0..size)
            .map(|c| format!(" {}", column_letter(c)))
            .collect();
        let mut out = String::new();
        let _ = writeln!(out, "  {letters}");
        for (line, row) in (0..size).rev().enumerate() {
            let _ = write!(out, "{:>2}", row + 1);
            for col in 0..size {
                let p = self.board.point_at(col, row);
                let symbol = match self.board.cell(p) {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ if stars.contains(&(col, row)) => '+',
                    _ => '.',
                };
                let _ = write!(out, " {symbol}");
            }
            let _ = write!(out, " {}", row + 1);
            match line {
                0 => {
                    let n = self.captures(crate::game::Color::White);
                    let _ = write!(out, "     WHITE (O) has captured {n} stones");
                }
                1 => {
                    let n = self.captures(crate::game::Color::Black);
                    let _ = write!(out, "     BLACK (X) has captured {n} stones");
                }
                _ => {}
            }
            out.push('\n');
        }
        let _ = writeln!(out, "  {letters}");
        out
    }
}
