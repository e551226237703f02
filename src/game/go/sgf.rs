//! SGF game records: the main line of a Go game, read with `sgf-parse`,
//! written by hand (the format we emit is tiny and fixed).
//!
//! Coordinates are (col, row) with row 0 at the bottom, as everywhere in
//! this crate; SGF counts rows from the top, which is converted here.

use crate::game::Color;
use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use std::collections::HashSet;
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
    #[error("SGF syntax error: {0}")]
    Syntax(#[from] sgf_parse::SgfParseError),
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

/// Reads the main line of the first game tree: SZ (default 19), KM
/// (default 0), HA, AB/AW setup before the first move, then B/W moves.
/// `tt` and the empty value are passes (`tt` only for boards up to 19x19).
pub fn parse_sgf(text: &str) -> Result<GameRecord, SgfError> {
    let trees = sgf_parse::parse(text)?;
    let root = trees
        .first()
        .ok_or(SgfError::NotGo)?
        .as_go_node()
        .map_err(|_| SgfError::NotGo)?;

    let size = match root.get_property("SZ") {
        None => DEFAULT_SIZE,
        Some(Prop::SZ((cols, rows))) if cols == rows => *cols as usize,
        Some(Prop::SZ((cols, rows))) => {
            return Err(SgfError::BoardSize(*cols as usize, *rows as usize))
        }
        Some(_) => return Err(SgfError::InvalidProperty("SZ".into())),
    };
    if !(super::Position::MIN_SIZE..=super::Position::MAX_SIZE).contains(&size) {
        return Err(SgfError::BoardSize(size, size));
    }
    let komi = match root.get_property("KM") {
        None => 0.0,
        Some(Prop::KM(komi)) if komi.is_finite() => *komi as f32,
        Some(_) => return Err(SgfError::InvalidProperty("KM".into())),
    };
    let handicap = match root.get_property("HA") {
        None => 0,
        Some(Prop::HA(n)) => {
            u32::try_from(*n).map_err(|_| SgfError::InvalidProperty("HA".into()))?
        }
        // sgf-parse rejects HA below 2; 0 and 1 both mean "no handicap".
        Some(Prop::Invalid(_, values)) if matches!(values.as_slice(), [v] if v == "0" || v == "1") => {
            0
        }
        Some(_) => return Err(SgfError::InvalidProperty("HA".into())),
    };

    let mut record = GameRecord {
        size,
        komi,
        handicap,
        setup: Vec::new(),
        moves: Vec::new(),
    };
    for node in root.main_variation() {
        let mut black_setup: Vec<(usize, usize)> = Vec::new();
        let mut white_setup: Vec<(usize, usize)> = Vec::new();
        for prop in node.properties() {
            match prop {
                Prop::B(mv) => record.moves.push((Color::Black, sgf_move(*mv, size)?)),
                Prop::W(mv) => record.moves.push((Color::White, sgf_move(*mv, size)?)),
                Prop::AB(points) => black_setup.extend(setup_points(points, size)?),
                Prop::AW(points) => white_setup.extend(setup_points(points, size)?),
                Prop::AE(_) => return Err(SgfError::Unsupported("AE")),
                Prop::Invalid(id, _) if matches!(id.as_str(), "B" | "W" | "AB" | "AW") => {
                    return Err(SgfError::InvalidProperty(id.clone()))
                }
                _ => {}
            }
        }
        if black_setup.is_empty() && white_setup.is_empty() {
            continue;
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
    }
    record
        .setup
        .sort_unstable_by_key(|&(color, point)| (color, point));
    Ok(record)
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

fn sgf_move(mv: SgfMove, size: usize) -> Result<Option<(usize, usize)>, SgfError> {
    match mv {
        SgfMove::Pass => Ok(None),
        SgfMove::Move(SgfPoint { x: 19, y: 19 }) if size <= 19 => Ok(None),
        SgfMove::Move(point) => board_coords(point, size).map(Some),
    }
}

fn setup_points(points: &HashSet<SgfPoint>, size: usize) -> Result<Vec<(usize, usize)>, SgfError> {
    points.iter().map(|&p| board_coords(p, size)).collect()
}

fn board_coords(point: SgfPoint, size: usize) -> Result<(usize, usize), SgfError> {
    let (x, y) = (point.x as usize, point.y as usize);
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
