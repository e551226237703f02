//! SGF game records: the main line of a Go game, read with the crate's own
//! iterative SGF reader ([`crate::game::sgf_reader`]), written by hand (the
//! format we emit is tiny and fixed).
//!
//! Coordinates are (col, row) with row 0 at the bottom, as everywhere in
//! this crate; SGF counts rows from the top, which is converted here.

use crate::game::sgf_reader::{self, first_value, Node, SgfSyntaxError};
use crate::game::Color;
use std::collections::BTreeSet;
use std::fmt::Write;

/// One game: board, komi, handicap, setup stones and the moves in order.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub size: usize,
    pub komi: f32,
    pub handicap: u32,
    /// Setup stones (AB/AW before the first move), Black first, then by
    /// (col, row).
    pub setup: Vec<(Color, (usize, usize))>,
    /// `None` is a pass.
    pub moves: Vec<(Color, Option<(usize, usize)>)>,
}

#[derive(Debug, thiserror::Error)]
pub enum SgfError {
    #[error("cannot read the SGF: {0}")]
    Syntax(#[from] SgfSyntaxError),
    #[error("the SGF holds no Go game")]
    NotGo,
    #[error("board size {0}x{1} is not supported")]
    BoardSize(usize, usize),
    #[error("invalid {0} property")]
    InvalidProperty(String),
    #[error("point outside the {0}x{0} board")]
    OffBoard(usize),
    #[error("{0} is not supported in this position of the record")]
    Unsupported(&'static str),
}

const DEFAULT_SIZE: usize = 19;

/// Reads the main line of the first game tree: GM (absent or 1), SZ
/// (default 19), KM (default 0), HA, AB/AW setup before the first move,
/// then B/W moves. `tt` and the empty value are passes (`tt` only for
/// boards up to 19x19). Over [`sgf_reader::MAX_MAIN_LINE_NODES`] nodes is
/// an error.
pub fn parse_sgf(text: &str) -> Result<GameRecord, SgfError> {
    let nodes = sgf_reader::main_line(text)?;
    let root = nodes.first().ok_or(SgfError::NotGo)?;
    match first_value(root, "GM").map(str::trim) {
        None | Some("1") => {}
        Some(_) => return Err(SgfError::NotGo),
    }

    let size = match first_value(root, "SZ") {
        None => DEFAULT_SIZE,
        Some(text) => match board_size(text) {
            Some((cols, rows)) if cols == rows => cols,
            Some((cols, rows)) => return Err(SgfError::BoardSize(cols, rows)),
            None => return Err(SgfError::InvalidProperty("SZ".into())),
        },
    };
    if !(super::Position::MIN_SIZE..=super::Position::MAX_SIZE).contains(&size) {
        return Err(SgfError::BoardSize(size, size));
    }
    let komi = match first_value(root, "KM") {
        None => 0.0,
        Some(text) => text
            .trim()
            .parse::<f64>()
            .ok()
            .map(|k| k as f32)
            .filter(|k| k.is_finite())
            .ok_or_else(|| SgfError::InvalidProperty("KM".into()))?,
    };
    let handicap = match first_value(root, "HA") {
        None => 0,
        // 0 and 1 both mean "no handicap".
        Some(text) => match text.trim().parse::<u32>() {
            Ok(n) if n >= 2 => n,
            Ok(_) => 0,
            Err(_) => return Err(SgfError::InvalidProperty("HA".into())),
        },
    };

    let mut record = GameRecord {
        size,
        komi,
        handicap,
        setup: Vec::new(),
        moves: Vec::new(),
    };
    for node in &nodes {
        read_node(node, &mut record)?;
    }
    record
        .setup
        .sort_unstable_by_key(|&(color, point)| (color, point));
    Ok(record)
}

/// Adds one node's moves and setup stones to `record`.
fn read_node(node: &Node, record: &mut GameRecord) -> Result<(), SgfError> {
    let size = record.size;
    let mut black_setup = BTreeSet::new();
    let mut white_setup = BTreeSet::new();
    for prop in node {
        match prop.id.as_str() {
            "B" | "W" => {
                let color = if prop.id == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let [value] = prop.values.as_slice() else {
                    return Err(SgfError::InvalidProperty(prop.id.clone()));
                };
                record.moves.push((color, sgf_move(value, size, &prop.id)?));
            }
            "AB" | "AW" => {
                let set = if prop.id == "AB" {
                    &mut black_setup
                } else {
                    &mut white_setup
                };
                for value in &prop.values {
                    setup_points(value, size, &prop.id, set)?;
                }
            }
            "AE" => return Err(SgfError::Unsupported("AE")),
            _ => {}
        }
    }
    if black_setup.is_empty() && white_setup.is_empty() {
        return Ok(());
    }
    if !record.moves.is_empty() {
        return Err(SgfError::Unsupported("setup after the first move"));
    }
    record
        .setup
        .extend(black_setup.into_iter().map(|p| (Color::Black, p)));
    record
        .setup
        .extend(white_setup.into_iter().map(|p| (Color::White, p)));
    Ok(())
}

/// `SZ[n]` or `SZ[cols:rows]`.
fn board_size(text: &str) -> Option<(usize, usize)> {
    let number = |t: &str| t.trim().parse::<usize>().ok();
    match text.split_once(':') {
        None => number(text).map(|n| (n, n)),
        Some((cols, rows)) => Some((number(cols)?, number(rows)?)),
    }
}

/// SGF text for a record: `FF[4] GM[1] SZ KM HA AP`, setup, then one node
/// per move (passes as `B[]` / `W[]`).
pub fn write_sgf(rec: &GameRecord) -> String {
    let mut out = String::from("(;FF[4]GM[1]");
    let _ = write!(out, "SZ[{}]KM[{}]", rec.size, rec.komi);
    if rec.handicap > 0 {
        let _ = write!(out, "HA[{}]", rec.handicap);
    }
    let _ = write!(out, "AP[Warpstone:{}]", env!("CARGO_PKG_VERSION"));
    for (color, tag) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let mut points = rec.setup.iter().filter(|(c, _)| *c == color).peekable();
        if points.peek().is_none() {
            continue;
        }
        out.push_str(tag);
        for (_, point) in points {
            let _ = write!(out, "[{}]", sgf_coords(*point, rec.size));
        }
    }
    for (color, mv) in &rec.moves {
        let tag = match color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let value = mv.map(|p| sgf_coords(p, rec.size)).unwrap_or_default();
        let _ = write!(out, "\n;{tag}[{value}]");
    }
    out.push_str(")\n");
    out
}

fn sgf_move(value: &str, size: usize, id: &str) -> Result<Option<(usize, usize)>, SgfError> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    let point = sgf_point(value).ok_or_else(|| SgfError::InvalidProperty(id.to_string()))?;
    if point == (19, 19) && size <= 19 {
        return Ok(None);
    }
    board_coords(point, size).map(Some)
}

/// One point (`dd`) or a rectangle (`aa:cc`, FF[4] compressed lists).
fn setup_points(
    value: &str,
    size: usize,
    id: &str,
    set: &mut BTreeSet<(usize, usize)>,
) -> Result<(), SgfError> {
    let invalid = || SgfError::InvalidProperty(id.to_string());
    let (first, last) = match value.split_once(':') {
        None => {
            let p = sgf_point(value).ok_or_else(invalid)?;
            (p, p)
        }
        Some((a, b)) => (
            sgf_point(a).ok_or_else(invalid)?,
            sgf_point(b).ok_or_else(invalid)?,
        ),
    };
    let (x0, x1) = (first.0.min(last.0), first.0.max(last.0));
    let (y0, y1) = (first.1.min(last.1), first.1.max(last.1));
    for x in x0..=x1 {
        for y in y0..=y1 {
            set.insert(board_coords((x, y), size)?);
        }
    }
    Ok(())
}

/// Two letters, `a`..`z` then `A`..`Z` (0..51), column first, rows from
/// the top.
fn sgf_point(value: &str) -> Option<(usize, usize)> {
    let letter = |b: u8| match b {
        b'a'..=b'z' => Some((b - b'a') as usize),
        b'A'..=b'Z' => Some((b - b'A') as usize + 26),
        _ => None,
    };
    match value.trim().as_bytes() {
        &[x, y] => Some((letter(x)?, letter(y)?)),
        _ => None,
    }
}

fn board_coords((x, y): (usize, usize), size: usize) -> Result<(usize, usize), SgfError> {
    if x >= size || y >= size {
        return Err(SgfError::OffBoard(size));
    }
    Ok((x, size - 1 - y))
}

/// Two letters, column then row counted from the top: a..z, then A..Z.
fn sgf_coords((col, row): (usize, usize), size: usize) -> String {
    // Out-of-range input gives a wrong letter rather than a panic.
    let letter = |i: usize| {
        let i = i.min(51);
        if i < 26 {
            (b'a' + i as u8) as char
        } else {
            (b'A' + (i - 26) as u8) as char
        }
    };
    let mut s = String::with_capacity(2);
    s.push(letter(col));
    s.push(letter(size.saturating_sub(row + 1)));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color::{Black as B, White as W};

    #[test]
    fn sgf_reads_compressed_setup_and_old_identifiers() {
        let rec = parse_sgf("(;GM[1]SZ[5]CoPyright[x]HA[1]AB[aa:bb]AW[ee];W[cc])").unwrap();
        assert_eq!(rec.handicap, 0);
        assert_eq!(
            rec.setup,
            vec![
                (B, (0, 3)),
                (B, (0, 4)),
                (B, (1, 3)),
                (B, (1, 4)),
                (W, (4, 0))
            ]
        );
        assert_eq!(rec.moves, vec![(W, Some((2, 2)))]);
    }

    #[test]
    fn sgf_long_or_deep_records_are_refused_without_overflowing_the_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| {
                let long = format!("(;GM[1]SZ[19]{})", ";B[tt];W[tt]".repeat(50_000));
                assert!(parse_sgf(&long).is_err());
                let deep = format!(
                    "(;SZ[19]{}{}",
                    "(;B[tt]".repeat(100_000),
                    ")".repeat(100_001)
                );
                assert!(parse_sgf(&deep).is_err());
                // Passes up to the node cap load.
                let passes = format!("(;SZ[19]{})", ";B[tt];W[]".repeat(2_000));
                assert_eq!(parse_sgf(&passes).unwrap().moves.len(), 4_000);
            })
            .unwrap();
        handle.join().expect("no stack overflow");
    }
}
