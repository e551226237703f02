//! Amazons records in SGF, `GM[18]`, as red-bean's SGF pages define it
//! ("Amazons (`GM[18]`)", red-bean.com/sgf/amazons.html): a point is two
//! lower-case letters, the column from the left and the row from the top;
//! a move is its from, to and arrow points concatenated (`W[djddgd]` is
//! `d1-d7/g7` on 10x10); `AB`/`AW` place queens and `AA` arrows in the
//! root. Without setup properties red-bean's 10x10 start is
//! `AB[dj][gj][ag][jg]AW[da][ga][ad][jd]` — this engine's start with the
//! colours exchanged (red-bean's first player is Black, this engine's
//! White) — so the records written here spell their start out (`AW`,
//! `AB`, `PL[W]`) and loading honours whatever a file sets up. Smaller
//! boards without setup properties start from this engine's position.
//! The side to move first is `PL`, else the first move's colour, else
//! White.

use super::bitboard::{bit, bit_index, file_rank, Squares};
use super::{Move, Position};
use crate::game::sgf_reader::{main_line, Node, SgfSyntaxError};
use crate::game::{Color, Game};

/// A loaded record: the position it starts from and its moves, legal.
#[derive(Clone, Debug)]
pub struct Record {
    pub start: Position,
    pub moves: Vec<Move>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    #[error("{0}")]
    Syntax(#[from] SgfSyntaxError),
    #[error("not an Amazons record (GM[{0}])")]
    NotAmazons(String),
    #[error("unsupported board size {0:?} (6, 8 or 10)")]
    Size(String),
    #[error("bad point {0:?}")]
    Point(String),
    #[error("bad setup: {0}")]
    Setup(&'static str),
    #[error("move {number}: {text:?} is not a legal move for {color}")]
    Move {
        number: usize,
        color: Color,
        text: String,
    },
}

/// `[a-z][a-z]` on a board of `size`, rows from the top.
fn point(text: &str, size: usize) -> Option<u8> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (col, row) = (
        b[0].wrapping_sub(b'a') as usize,
        b[1].wrapping_sub(b'a') as usize,
    );
    (col < size && row < size).then(|| bit_index(col, size - 1 - row))
}

fn point_text(sq: u8, size: usize) -> String {
    let (file, rank) = file_rank(sq);
    let letter = |i: usize| char::from(b'a' + i as u8);
    format!("{}{}", letter(file), letter(size - 1 - rank))
}

/// Every point of the property `id` in `node`, as a set.
fn points(node: &Node, id: &str, size: usize) -> Result<u128, SgfError> {
    let mut set = 0u128;
    for value in node.iter().filter(|p| p.id == id).flat_map(|p| &p.values) {
        set |= bit(point(value, size).ok_or_else(|| SgfError::Point(value.clone()))?);
    }
    Ok(set)
}

fn color_of(value: &str) -> Option<Color> {
    match value {
        "W" | "w" => Some(Color::White),
        "B" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// The move of `node`, if it has one: its colour and text.
fn node_move(node: &Node) -> Option<(Color, &str)> {
    node.iter().find_map(|p| {
        let color = color_of(&p.id)?;
        Some((color, p.values.first().map_or("", String::as_str)))
    })
}

const SETUP: [&str; 4] = ["AB", "AW", "AE", "AA"];

/// Parses a record: the main line of its first game tree.
pub fn parse_sgf(text: &str) -> Result<Record, SgfError> {
    let nodes = main_line(text)?;
    let root = nodes.first().ok_or(SgfSyntaxError::NoGameTree)?;
    let value = |id: &str| crate::game::sgf_reader::first_value(root, id).map(str::trim);
    if let Some(gm) = value("GM") {
        if gm != "18" {
            return Err(SgfError::NotAmazons(gm.to_string()));
        }
    }
    let size = match value("SZ") {
        None => 10,
        Some(s) => match s.parse::<usize>() {
            Ok(n @ (6 | 8 | 10)) => n,
            _ => return Err(SgfError::Size(s.to_string())),
        },
    };
    let first_move = nodes.iter().find_map(node_move).map(|(c, _)| c);
    let to_move = match value("PL") {
        Some(pl) => color_of(pl).ok_or(SgfError::Setup("PL is neither B nor W"))?,
        None => first_move.unwrap_or(Color::White),
    };
    let has_setup = root.iter().any(|p| SETUP.contains(&p.id.as_str()));
    let (white, black, arrows) = if has_setup {
        let (w, b, a) = (
            points(root, "AW", size)?,
            points(root, "AB", size)?,
            points(root, "AA", size)?,
        );
        (w, b, a)
    } else if size == 10 {
        let default = |list: [&str; 4]| {
            list.iter()
                .filter_map(|p| point(p, 10))
                .fold(0, |s, q| s | bit(q))
        };
        (
            default(["da", "ga", "ad", "jd"]),
            default(["dj", "gj", "ag", "jg"]),
            0,
        )
    } else {
        let start = Position::new(size).map_err(|_| SgfError::Size(size.to_string()))?;
        (start.queens(Color::White), start.queens(Color::Black), 0)
    };
    // The move generator and the playouts hold at most four queens a side.
    for set in [white, black] {
        if !(1..=4).contains(&set.count_ones()) {
            return Err(SgfError::Setup("each side needs one to four queens"));
        }
    }
    let mut pos = Position::from_sets(size, white, black, arrows, to_move)
        .ok_or(SgfError::Setup("queens and arrows overlap"))?;
    let mut moves = Vec::new();
    for node in &nodes[1..] {
        if node.iter().any(|p| SETUP.contains(&p.id.as_str())) {
            return Err(SgfError::Setup("setup properties after the root"));
        }
        let Some((color, text)) = node_move(node) else {
            continue;
        };
        let bad = || SgfError::Move {
            number: moves.len() + 1,
            color,
            text: text.to_string(),
        };
        if text.len() != 6 || !text.is_ascii() || color != pos.to_move() {
            return Err(bad());
        }
        let sq = |i: usize| point(&text[i..i + 2], size).ok_or_else(bad);
        let mv = Move {
            from: sq(0)?,
            to: sq(2)?,
            arrow: sq(4)?,
        };
        if !pos.is_legal_move(mv) {
            return Err(bad());
        }
        pos.apply(mv);
        moves.push(mv);
    }
    Ok(Record {
        start: Position::from_sets(size, white, black, arrows, to_move)
            .ok_or(SgfError::Setup("queens and arrows overlap"))?,
        moves,
    })
}

/// The record of a game from `start` with `moves`, one line per move.
pub fn write_sgf(start: &Position, moves: &[Move]) -> String {
    let size = start.size();
    let list = |set: u128| -> String {
        Squares(set)
            .map(|sq| format!("[{}]", point_text(sq, size)))
            .collect()
    };
    let mut out = format!(
        "(;FF[4]GM[18]CA[UTF-8]AP[warpstone:{}]SZ[{size}]AW{}AB{}",
        env!("CARGO_PKG_VERSION"),
        list(start.queens(Color::White)),
        list(start.queens(Color::Black)),
    );
    if start.arrows() != 0 {
        out += &format!("AA{}", list(start.arrows()));
    }
    let mut color = start.to_move();
    out += &format!("PL[{}]\n", if color == Color::White { "W" } else { "B" });
    for mv in moves {
        let letter = if color == Color::White { 'W' } else { 'B' };
        out += &format!(
            ";{letter}[{}{}{}]\n",
            point_text(mv.from, size),
            point_text(mv.to, size),
            point_text(mv.arrow, size)
        );
        color = color.opponent();
    }
    out += ")\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_bean_example_is_d1_d7_g7_for_the_first_player() {
        let start = Position::new(10).unwrap();
        let mv = start.parse_move("d1-d7/g7").unwrap();
        let text = write_sgf(&start, &[mv]);
        assert!(text.contains(";W[djddgd]"), "{text}");
        assert!(text.contains("AW[dj][gj][ag][jg]"), "{text}");
    }

    #[test]
    fn written_records_load_back() {
        for size in [6, 8, 10] {
            let mut pos = Position::new(size).unwrap();
            let mut moves = Vec::new();
            let mut rng = crate::game::rng::FastRng::new(size as u64);
            for _ in 0..12 {
                let mut all = Vec::new();
                pos.legal_moves(&mut all);
                let Some(&mv) = all.get(rng.below(all.len() as u32) as usize) else {
                    break;
                };
                pos.apply(mv);
                moves.push(mv);
            }
            let record = parse_sgf(&write_sgf(&Position::new(size).unwrap(), &moves)).unwrap();
            assert_eq!(record.moves, moves);
            assert_eq!(
                record.start.queens(Color::White),
                Position::new(size).unwrap().queens(Color::White)
            );
        }
    }

    #[test]
    fn red_bean_default_start_has_black_first_at_the_bottom() {
        let record = parse_sgf("(;GM[18];B[djddgd];W[addgad])").unwrap();
        assert_eq!(record.start.to_move(), Color::Black);
        assert_eq!(
            record.start.queens(Color::Black),
            Position::new(10).unwrap().queens(Color::White)
        );
        assert_eq!(record.moves.len(), 2);
    }

    #[test]
    fn bad_records_are_refused() {
        for text in [
            "",
            "(;GM[1])",
            "(;GM[18]SZ[9])",
            "(;GM[18];W[djddgd];W[addgad])", // the same side twice
            "(;GM[18]PL[W];W[djdjgd])",      // not a queen move
            "(;GM[18]PL[W];W[djdd])",        // two points
            "(;GM[18]PL[W];W[zzddgd])",      // off the board
            "(;GM[18]AW[aa][aa]AB[ab][ac][ad][ae][af])",
            "(;GM[18]AW[aa]AB[aa])",
            "(;GM[18]PL[W];AB[aa])",
            "(;GM[18]PL[X])",
            "(;GM[18]",
        ] {
            assert!(parse_sgf(text).is_err(), "{text}");
        }
    }
}
