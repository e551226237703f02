//! Coordinates as text (Castro notation) and the ASCII board.

use super::{Cell, Position, WinKind};
use crate::game::{Color, Game, Outcome};
use std::fmt::Write;

impl Position {
    /// The cell in row `row` (0-based: letter `a` = 0) on diagonal `diag`
    /// (1-based, as printed), if it is on this board.
    pub fn cell(&self, row: usize, diag: usize) -> Option<Cell> {
        if diag == 0 || row > i32::MAX as usize || diag > i32::MAX as usize {
            return None;
        }
        self.geometry()
            .cell_at(diag as i32 - 1, row as i32)
            .map(Cell)
    }

    /// `(row, diag)` of a cell, the inverse of [`Position::cell`]. Cells
    /// off this board give `(0, 0)`.
    pub fn cell_coords(&self, c: Cell) -> (usize, usize) {
        if c.0 as usize >= self.num_cells() {
            return (0, 0);
        }
        let (x, y) = self.geometry().xy[c.0 as usize];
        (y as usize, x as usize + 1)
    }

    /// Parses Castro notation such as `h8` (letter case ignored, surrounding
    /// blanks allowed). `None` for anything that is not a cell of this
    /// board.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let diag: usize = digits.parse().ok()?;
        self.cell((letter as u8 - b'a') as usize, diag)
    }

    /// Castro notation of a cell, such as `h8`; `?` for a cell off this
    /// board.
    pub fn cell_name(&self, c: Cell) -> String {
        if c.0 as usize >= self.num_cells() {
            return "?".to_string();
        }
        let (row, diag) = self.cell_coords(c);
        format!("{}{}", (b'a' + row as u8) as char, diag)
    }

    /// The board as text: rows lettered on the left, diagonal numbers
    /// along the top and down the upper right, `W` / `B` stones, `.` empty,
    /// the last stone in brackets, and a status line.
    ///
    /// ```text
    ///       1 2 3 4
    ///    a . . . . 5
    ///   b . . . . . 6
    ///  c . . .[W]. . 7
    /// d . . . . . . .
    ///  e . . . . . .
    ///   f . . . . .
    ///    g . . . .
    /// ```
    pub fn showboard(&self) -> String {
        let s = self.side();
        let geo = self.geometry();
        let last = match self.last_move() {
            Some(super::Move::Play(c)) => Some(c),
            Some(super::Move::Swap) => self.first_stone(),
            None => None,
        };
        let mut out = String::new();
        // Top labels sit up and to the right of row a's cells: diagonal x
        // runs down-left from there.
        let mut top = " ".repeat(s + 2);
        for x in 0..s {
            let _ = write!(top, "{:<2}", x + 1);
        }
        out.push_str(top.trim_end());
        out.push('\n');
        for y in 0..geo.rows() {
            let indent = y.abs_diff(s - 1);
            let mut line = " ".repeat(indent);
            line.push((b'a' + y as u8) as char);
            let (lo, hi) = geo.row_span(y);
            let mut closing = false;
            for x in lo..=hi {
                let c = Cell(geo.row_first[y] + (x - lo) as u16);
                if last == Some(c) {
                    line.push('[');
                    closing = true;
                } else if closing {
                    line.push(']');
                    closing = false;
                } else {
                    line.push(' ');
                }
                line.push(match self.color_at(c) {
                    Some(Color::White) => 'W',
                    Some(Color::Black) => 'B',
                    None => '.',
                });
            }
            if closing {
                line.push(']');
            } else {
                line.push(' ');
            }
            if y + 1 < s {
                let _ = write!(line, "{}", s + y + 1);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let title = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        let status = match self.winner() {
            Some(Outcome::Win(c)) => {
                let how = match self.win_kind() {
                    Some(WinKind::Ring) => "ring",
                    Some(WinKind::Bridge) => "bridge",
                    Some(WinKind::Fork) => "fork",
                    None => "?",
                };
                format!(
                    "{} wins by {how} after move {}",
                    title(c),
                    self.move_number()
                )
            }
            Some(Outcome::Draw) => format!("Draw (full board) after move {}", self.move_number()),
            None => format!(
                "{} to move, move {}",
                title(self.to_move()),
                self.move_number() + 1
            ),
        };
        out.push_str(&status);
        out
    }
}
