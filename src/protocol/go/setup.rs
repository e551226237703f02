//! Handicap placement and game records (loadsgf, printsgf).

use super::GoSession;
use crate::game::go::sgf::{self, GameRecord};
use crate::game::go::{fixed_handicap, Move, Point, Position};
use crate::game::{Color, Game};
use crate::protocol::reply::{
    BAD_VERTEX_LIST, BOARD_NOT_EMPTY, CANNOT_LOAD_FILE, CANNOT_SAVE_FILE, INVALID_NUMBER_OF_STONES,
    SYNTAX_ERROR,
};
use crate::protocol::vertex::Vertex;
use crate::protocol::Reply;

pub(super) fn empty_record(pos: &Position) -> GameRecord {
    GameRecord {
        size: pos.size(),
        komi: pos.komi(),
        handicap: 0,
        setup: Vec::new(),
        moves: Vec::new(),
    }
}

impl GoSession {
    fn board_is_empty(&self) -> bool {
        self.pos.points().all(|p| self.pos.color_at(p).is_none())
    }

    /// Places Black handicap stones; White moves next. As in GNU Go, the
    /// handicap is the start of the game, not a move: it cannot be undone.
    fn place_handicap(&mut self, points: &[Point]) -> Result<(), Reply> {
        let mut pos = self.pos.clone();
        for &p in points {
            pos.place_setup_stone(Color::Black, p)
                .map_err(|_| Reply::err(BAD_VERTEX_LIST))?;
        }
        pos.set_to_move(Color::White);
        self.pos = pos;
        self.undo_stack.clear();
        self.moves.clear();
        self.record.handicap = points.len() as u32;
        self.record.setup = points
            .iter()
            .map(|&p| (Color::Black, self.pos.coords(p)))
            .collect();
        Ok(())
    }

    pub(super) fn fixed_handicap(&mut self, n: i64) -> Reply {
        if !self.board_is_empty() {
            return Reply::err(BOARD_NOT_EMPTY);
        }
        let layout = usize::try_from(n)
            .ok()
            .and_then(|n| fixed_handicap(self.pos.size(), n));
        let Some(layout) = layout else {
            return Reply::err(INVALID_NUMBER_OF_STONES);
        };
        let points: Vec<Point> = layout
            .iter()
            .filter_map(|&(c, r)| self.pos.point(c, r))
            .collect();
        match self.place_handicap(&points) {
            Ok(()) => Reply::ok(self.vertex_list(points)),
            Err(reply) => reply,
        }
    }

    /// The engine chooses: the fixed layout where one exists, otherwise the
    /// largest fixed layout plus points spread as far as possible from
    /// stones and from the edge.
    pub(super) fn place_free_handicap(&mut self, n: i64) -> Reply {
        if !self.board_is_empty() {
            return Reply::err(BOARD_NOT_EMPTY);
        }
        let size = self.pos.size();
        let n = match usize::try_from(n) {
            Ok(n) if n >= 2 && n < size * size => n,
            _ => return Reply::err(INVALID_NUMBER_OF_STONES),
        };
        let fixed = (2..=n.min(9)).rev().find_map(|k| fixed_handicap(size, k));
        let mut chosen: Vec<(usize, usize)> = fixed.unwrap_or_default();
        chosen.truncate(n);
        while chosen.len() < n {
            let best = (0..size)
                .flat_map(|c| (0..size).map(move |r| (c, r)))
                .filter(|p| !chosen.contains(p))
                .max_by_key(|&(c, r)| {
                    let edge = c.min(r).min(size - 1 - c).min(size - 1 - r).min(3);
                    let near = chosen
                        .iter()
                        .map(|&(x, y)| x.abs_diff(c).max(y.abs_diff(r)))
                        .min()
                        .unwrap_or(size);
                    (near.min(edge + 2), edge, std::cmp::Reverse((c, r)))
                });
            match best {
                Some(p) => chosen.push(p),
                None => break,
            }
        }
        let points: Vec<Point> = chosen
            .iter()
            .filter_map(|&(c, r)| self.pos.point(c, r))
            .collect();
        match self.place_handicap(&points) {
            Ok(()) => Reply::ok(self.vertex_list(points)),
            Err(reply) => reply,
        }
    }

    pub(super) fn set_free_handicap(&mut self, vertices: &[Vertex]) -> Reply {
        if !self.board_is_empty() {
            return Reply::err(BOARD_NOT_EMPTY);
        }
        let size = self.pos.size();
        if vertices.len() < 2 || vertices.len() >= size * size {
            return Reply::err(BAD_VERTEX_LIST);
        }
        let mut points = Vec::with_capacity(vertices.len());
        for &v in vertices {
            match self.to_move(v) {
                Some(Move::Play(p)) if !points.contains(&p) => points.push(p),
                _ => return Reply::err(BAD_VERTEX_LIST),
            }
        }
        self.place_handicap(&points)
            .err()
            .unwrap_or_else(Reply::empty)
    }

    /// Replays a game record up to (not including) `move_number`; the
    /// current game is replaced only if the whole replay succeeds.
    pub(super) fn load_sgf(&mut self, path: &str, move_number: Option<i64>) -> Reply {
        let Some(text) = crate::engine::record_file::read_record_logged(path) else {
            return Reply::err(CANNOT_LOAD_FILE);
        };
        let record = match sgf::parse_sgf(&text) {
            Ok(record) => record,
            Err(e) => {
                tracing::warn!("loadsgf {path:?}: {e}");
                return Reply::err(CANNOT_LOAD_FILE);
            }
        };
        let Ok(mut pos) = Position::new(record.size, record.komi) else {
            return Reply::err(CANNOT_LOAD_FILE);
        };
        let limit = match move_number {
            Some(n) if n < 1 => return Reply::err(SYNTAX_ERROR),
            Some(n) => (n as usize).saturating_sub(1).min(record.moves.len()),
            None => record.moves.len(),
        };
        let mut undo_stack = Vec::new();
        let mut played = Vec::new();
        let mut kept = GameRecord {
            moves: Vec::new(),
            ..record.clone()
        };
        for &(color, (c, r)) in &record.setup {
            let placed = pos.point(c, r).map(|p| pos.place_setup_stone(color, p));
            if !matches!(placed, Some(Ok(()))) {
                return Reply::err(CANNOT_LOAD_FILE);
            }
        }
        if !record.setup.is_empty() {
            let first = record.moves.first().map(|m| m.0);
            let white_first =
                first == Some(Color::White) || (first.is_none() && record.handicap > 0);
            pos.set_to_move(if white_first {
                Color::White
            } else {
                Color::Black
            });
        }
        for &(color, coords) in &record.moves[..limit] {
            let mv = match coords {
                None => Some(Move::Pass),
                Some((c, r)) => pos.point(c, r).map(Move::Play),
            };
            let before = pos.clone();
            match mv {
                Some(mv) if pos.play_as(color, mv).is_ok() => {
                    undo_stack.push(before);
                    played.push((color, mv));
                    kept.moves.push((color, coords));
                }
                _ => return Reply::err(CANNOT_LOAD_FILE),
            }
        }
        if let Some(&(color, _)) = record.moves.get(limit) {
            pos.set_to_move(color);
        }
        self.game.reset(pos);
        self.undo_stack = undo_stack;
        self.moves = played;
        self.record = kept;
        // GNU Go answers with the colour to move; regression suites read it.
        Reply::ok(self.pos.to_move().name())
    }

    pub(super) fn print_sgf(&self, path: Option<&str>) -> Reply {
        let text = sgf::write_sgf(&self.record);
        match path {
            None => Reply::ok(text.trim_end()),
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => Reply::empty(),
                Err(_) => Reply::err(CANNOT_SAVE_FILE),
            },
        }
    }
}
