//! LittleGolem `.hgf` game records.
//!
//! ```text
//! (;FF[4]EV[havannah.in.size4.4]PB[..]PW[..]SZ[4]RU[LG]RE[B]GC[ game #1541446]
//!  SO[http://www.littlegolem.com];W[E1];B[swap];W[F2];B[D3];...;B[resign])
//! ```
//!
//! The facts this module relies on, and where they come from:
//! - `SZ` is the side length; `W` is the first player (our White) and the
//!   colours alternate; `B[swap]` is the swap answer and is followed by
//!   `W[..]` again; a record may end with `[resign]`. Seen in the
//!   LittleGolem records shipped in the Castro repository
//!   (`littlegolemhavannah/*.hgf`, sides 4..10) and quoted in other
//!   LittleGolem bots' tests.
//! - Coordinates: the letter is the row (`A` at the top, the row with
//!   corner a1), the number counts cells from the left end of that row,
//!   starting at 1 **in every row**. Down to the middle row every row starts
//!   on diagonal 1, so the number is Castro's diagonal; in a row `y` below
//!   the middle (0-based `y >= side`) the row starts on diagonal
//!   `y - side + 2`, so `hgf = diag - (y - side + 1)`. Source: the
//!   `HavannahCoords` notes of Castro's LittleGolem interface
//!   (`lg-interface.rb`: "HGF - LG hgf files", with the check that GTP `F5`
//!   is hgf `F3` on side 4). Checked: all 2146 records shipped with Castro
//!   replay as legal games with no win before their last move, and 1056 of
//!   them (the rest were resigned or abandoned) end in a win exactly at
//!   their last move.
//!
//! `RE` is not read: in all of those 1056 records it names the colour of the
//! player who did *not* complete the structure (LittleGolem's own colours
//! run the other way round), so the board decides.

use super::{Cell, Move, Position};
use crate::game::sgf_reader;
use crate::game::{Game, IllegalReason};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HgfError {
    #[error("cannot read the record: {0}")]
    Syntax(#[from] sgf_reader::SgfSyntaxError),
    #[error("missing or bad board size (SZ)")]
    BadSize,
    #[error("move {index}: cannot read `{text}`")]
    BadMove { index: usize, text: String },
    #[error("move {index}: played by the wrong colour")]
    OutOfTurn { index: usize },
    #[error("move {index}: `{text}` is illegal: {reason}")]
    Illegal {
        index: usize,
        text: String,
        reason: IllegalReason,
    },
}

/// `SZ[n]`, or `SZ[n:n]`.
fn side_length(text: &str) -> Option<usize> {
    let number = |t: &str| t.trim().parse::<usize>().ok();
    match text.split_once(':') {
        None => number(text),
        Some((a, b)) => Some(number(a)?).filter(|&n| Some(n) == number(b)),
    }
}

/// Reads the main line of a LittleGolem record: the side length and the
/// moves in our cell indices. The moves are replayed, so every one returned
/// is legal in turn (swap allowed); a trailing `resign` is dropped. Read
/// with the crate's iterative SGF reader, so no record can overflow the
/// stack; a main line over [`sgf_reader::MAX_MAIN_LINE_NODES`] nodes is an
/// error.
pub fn parse_hgf(text: &str) -> Result<(usize, Vec<Move>), HgfError> {
    let nodes = sgf_reader::main_line(text)?;
    let props = || nodes.iter().flatten();
    let side = props()
        .find(|p| p.id == "SZ")
        .and_then(|p| p.values.first())
        .and_then(|v| side_length(v))
        .ok_or(HgfError::BadSize)?;
    let mut pos = Position::new(side).map_err(|_| HgfError::BadSize)?;
    let mut moves = Vec::new();
    for prop in props() {
        let white = match prop.id.as_str() {
            "W" => true,
            "B" => false,
            _ => continue,
        };
        let index = moves.len();
        let word = prop.values.first().map_or("", |v| v.trim());
        if word.eq_ignore_ascii_case("resign") {
            break;
        }
        if white != (index % 2 == 0) {
            return Err(HgfError::OutOfTurn { index });
        }
        let mv = if word.eq_ignore_ascii_case("swap") {
            Move::Swap
        } else {
            Move::Play(hgf_cell(&pos, word).ok_or_else(|| HgfError::BadMove {
                index,
                text: word.to_string(),
            })?)
        };
        pos.play(mv).map_err(|e| HgfError::Illegal {
            index,
            text: word.to_string(),
            reason: e.reason,
        })?;
        moves.push(mv);
    }
    Ok((side, moves))
}

/// Writes a minimal LittleGolem-style record: `FF`, `SZ`, `RU[LG]` and the
/// moves, White first. Cells off the board (or a side out of range) are
/// written as empty values rather than invented coordinates.
pub fn write_hgf(side: usize, moves: &[Move]) -> String {
    let pos = Position::new(side).ok();
    let mut out = format!("(;FF[4]SZ[{side}]RU[LG]");
    for (i, mv) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'W' } else { 'B' };
        let value = match (mv, &pos) {
            (Move::Swap, _) => "swap".to_string(),
            (Move::Play(c), Some(pos)) => hgf_name(pos, *c).unwrap_or_default(),
            (Move::Play(_), None) => String::new(),
        };
        out.push_str(&format!(";{colour}[{value}]"));
    }
    out.push(')');
    out
}

/// Rows below the middle start this many diagonals to the right.
fn row_offset(side: usize, row: usize) -> usize {
    (row + 1).saturating_sub(side)
}

fn hgf_cell(pos: &Position, text: &str) -> Option<Cell> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: usize = digits.parse().ok()?;
    let row = (letter as u8 - b'A') as usize;
    pos.cell(row, number + row_offset(pos.side(), row))
}

fn hgf_name(pos: &Position, c: Cell) -> Option<String> {
    if c.0 as usize >= pos.num_cells() {
        return None;
    }
    let (row, diag) = pos.cell_coords(c);
    let number = diag - row_offset(pos.side(), row);
    Some(format!("{}{}", (b'A' + row as u8) as char, number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_littlegolem_record_with_swap_and_resign() {
        // LittleGolem game #1541446 (side 4), as quoted in other projects'
        // parser tests.
        let text = "(;FF[4]EV[havannah.in.size4.4]PB[mickgraham]PW[kiwibill]SZ[4]RU[LG]RE[B]\
                    GC[ game #1541446]SO[http://www.littlegolem.com];W[E1];B[swap];W[F2];B[D3];\
                    W[G1];B[E4];W[G4];B[F3];W[E5];B[D6];W[D5];B[C2];W[G3];B[G2];W[E6];B[E3];\
                    W[D7];B[resign])";
        let (side, moves) = parse_hgf(text).expect("parses");
        assert_eq!(side, 4);
        assert_eq!(moves.len(), 17);
        assert_eq!(moves[1], Move::Swap);
        let pos = Position::new(4).unwrap();
        // Row E is below the middle of side 4: hgf E1 is its first cell, e2.
        assert_eq!(moves[0], Move::Play(pos.parse_cell("e2").unwrap()));
        assert_eq!(moves[4], Move::Play(pos.parse_cell("g4").unwrap()));
        assert_eq!(moves[16], Move::Play(pos.parse_cell("d7").unwrap()));
    }

    #[test]
    fn round_trip() {
        for side in 3..=10 {
            let pos = Position::new(side).unwrap();
            for c in pos.cells() {
                let name = hgf_name(&pos, c).unwrap();
                assert_eq!(hgf_cell(&pos, &name), Some(c), "{name}");
            }
            let last = Cell(pos.num_cells() as u16 - 1);
            let moves = vec![Move::Play(Cell(0)), Move::Swap, Move::Play(last)];
            let text = write_hgf(side, &moves);
            assert_eq!(parse_hgf(&text).unwrap(), (side, moves), "{text}");
        }
    }

    #[test]
    fn hgf_numbers_restart_below_the_middle() {
        let pos = Position::new(8).unwrap();
        // Middle row h: a full row from diagonal 1 to 15.
        assert_eq!(hgf_name(&pos, pos.parse_cell("h1").unwrap()).unwrap(), "H1");
        assert_eq!(
            hgf_name(&pos, pos.parse_cell("h15").unwrap()).unwrap(),
            "H15"
        );
        // Row o (the last) starts on diagonal 8.
        assert_eq!(hgf_name(&pos, pos.parse_cell("o8").unwrap()).unwrap(), "O1");
        assert_eq!(
            hgf_name(&pos, pos.parse_cell("o15").unwrap()).unwrap(),
            "O8"
        );
        assert_eq!(hgf_name(&pos, pos.parse_cell("a8").unwrap()).unwrap(), "A8");
    }

    #[test]
    fn rejects_bad_records_without_panicking() {
        for text in [
            "",
            "(;SZ[8])x",
            "(;FF[4];W[H3])",
            "(;SZ[11];W[A1])",
            "(;SZ[8];W[Z9])",
            "(;SZ[8];W[H3];W[H4])",
            "(;SZ[8];W[H3];B[H3])",
            "(;SZ[8];W[H3];B[swap];W[swap])",
            "(;SZ[8];W[H]",
            "(;SZ[8];B[H3])",
            "(;SZ[8];W[H99999999999999999999])",
        ] {
            assert!(parse_hgf(text).is_err(), "{text}");
        }
    }

    #[test]
    fn long_and_deep_records_are_refused_without_overflowing_the_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| {
                let long = format!("(;SZ[8]{})", ";W[swap];B[swap]".repeat(50_000));
                assert!(matches!(parse_hgf(&long), Err(HgfError::Syntax(_))));
                let deep = format!("(;SZ[8]{}", "(;W[H3]".repeat(100_000));
                assert!(parse_hgf(&deep).is_err());
            })
            .unwrap();
        handle.join().expect("no stack overflow");
    }
}
