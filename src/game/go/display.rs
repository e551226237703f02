//! Text rendering of a position, in the style of GNU Go's `showboard`.

use super::board::{BLACK, WHITE};
use super::Position;
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
        let stars = star_points(size);
        // GNU Go writes the capture counts beside the 9th and 10th lines
        // from the top, or the last two lines of smaller boards.
        let white_line = 8.min(size.saturating_sub(2));
        let black_line = 9.min(size - 1);
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
            if line == white_line {
                let n = self.captures(crate::game::Color::White);
                let _ = write!(out, "     WHITE (O) has captured {n} stones");
            } else if line == black_line {
                let n = self.captures(crate::game::Color::Black);
                let _ = write!(out, "     BLACK (X) has captured {n} stones");
            }
            out.push('\n');
        }
        let _ = writeln!(out, "  {letters}");
        out
    }
}

/// GNU Go's star points: four corner stars at line 4 from 12x12 up, line 3
/// from 6x6 to 11x11, line 2 on 5x5 and 3x3 (none on 2x2 and 4x4); the
/// centre on odd sizes; the side midpoints on odd sizes from 13x13.
fn star_points(size: usize) -> Vec<(usize, usize)> {
    let edge = match size {
        12.. => 3,
        6..=11 => 2,
        3 | 5 => 1,
        _ => return Vec::new(),
    };
    let far = size - 1 - edge;
    let mut stars = vec![(edge, edge), (edge, far), (far, edge), (far, far)];
    if size % 2 == 1 {
        let mid = size / 2;
        stars.push((mid, mid));
        if size >= 13 {
            stars.extend([(mid, edge), (mid, far), (edge, mid), (far, mid)]);
        }
    }
    stars
}
