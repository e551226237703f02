//! Sabaki / Lizzie analysis: `lz-analyze`, `kata-analyze` and the
//! `*genmove_analyze` forms, in Leela Zero's and KataGo's output formats.
//!
//! Values are from the point of view of the side to move, as both engines
//! report them. Ownership is listed row by row from the top-left (A19 on
//! 19x19) to the bottom-right, as KataGo does. Moves are written as both
//! engines write them, `pass` in lower case: Sabaki's parser reads
//! nothing else.
//!
//! A stream is the `=` line, the info lines, and one empty line that
//! closes it; `*genmove_analyze` puts its `play` line before that empty
//! line.

use super::think::Mode;
use super::GoSession;
use crate::engine::think::OnInput;
use crate::engine::think::{Formatter, Stream};
use crate::game::go::{Move, Position};
use crate::game::{Color, Game};
use crate::protocol::analyze::MoveRule;
use crate::protocol::connection::Connection;
use crate::protocol::reply::SYNTAX_ERROR;
use crate::protocol::{stream_header, Reply};
use crate::protocol::{AnalyzeFormat, AnalyzeRequest, Vertex};
use crate::search::{Limits, MoveFilter, SearchInfo};
use std::fmt::Write;
use std::sync::Arc;
use std::time::Duration;

impl GoSession {
    /// `lz-analyze` / `kata-analyze`: search until the next line arrives.
    pub(super) async fn analyze(
        &mut self,
        id: Option<u32>,
        request: AnalyzeRequest,
        conn: &mut Connection,
    ) -> Reply {
        let (pos, stream) = match self.open_stream(id, request, conn, OnInput::Stop) {
            Ok(Some(opened)) => opened,
            Ok(None) => return Reply::Streamed,
            Err(reply) => return reply,
        };
        // Analysis shows what a referee would score (cleanup may have
        // switched that off for the moves it played).
        self.thinker.set_judge_two_passes(true);
        let root = pos.clone();
        // No limit: the stream ends when the controller sends anything.
        if let Some(thought) = self
            .thinker
            .think(pos, Limits::default(), conn, Some(stream))
            .await
        {
            self.last_info = Some(thought.info);
            self.last_root = Some(root);
        }
        let _ = conn.write("\n");
        Reply::Streamed
    }

    /// `genmove_analyze`: a normal genmove that reports while it thinks and
    /// ends with `play <move>`. New commands wait, as after any genmove.
    pub(super) async fn genmove_analyze(
        &mut self,
        id: Option<u32>,
        request: AnalyzeRequest,
        conn: &mut Connection,
    ) -> Reply {
        let (pos, stream) = match self.open_stream(id, request, conn, OnInput::Queue) {
            Ok(Some(opened)) => opened,
            Ok(None) => return Reply::Streamed,
            Err(reply) => return reply,
        };
        let played = self
            .choose_and_play(pos.to_move(), Mode::Play, conn, Some(stream))
            .await;
        let last = match played {
            Ok(text) if text.eq_ignore_ascii_case("pass") => "pass".to_string(),
            Ok(text) => text,
            Err(_) => "pass".to_string(),
        };
        let _ = conn.write(&format!("play {last}\n\n"));
        Reply::Streamed
    }

    /// Writes the stream's `=` line and returns the position to analyse
    /// (the requested colour to move) with its report stream; `Ok(None)`
    /// if the controller has gone, `Err` (nothing written) for an
    /// `avoid`/`allow` vertex off the board.
    #[allow(clippy::type_complexity)]
    fn open_stream(
        &self,
        id: Option<u32>,
        request: AnalyzeRequest,
        conn: &mut Connection,
        on_input: OnInput,
    ) -> Result<Option<(Position, Stream<Move>)>, Reply> {
        let mut pos = self.pos.clone();
        pos.set_to_move(request.color.unwrap_or(self.pos.to_move()));
        let filter = move_filter(&pos, &request.rules)?;
        if conn.write(&stream_header(id)).is_err() {
            return Ok(None);
        }
        let stream = Stream {
            interval: Duration::from_millis(u64::from(request.interval_centis) * 10),
            format: formatter(&pos, request),
            on_input,
            filter,
        };
        Ok(Some((pos, stream)))
    }
}

/// The search filter for `avoid`/`allow` rules: at depth `d` (0: the move
/// from `pos`), a move of colour `c` is forbidden if an `avoid` rule for
/// `c` reaching past `d` lists it, or if `allow` rules for `c` reach past
/// `d` and none lists it. A vertex off the board is a syntax error.
fn move_filter(pos: &Position, rules: &[MoveRule]) -> Result<Option<MoveFilter<Move>>, Reply> {
    if rules.is_empty() {
        return Ok(None);
    }
    let mut compiled = Vec::with_capacity(rules.len());
    for rule in rules {
        let moves = rule
            .vertices
            .iter()
            .map(|&v| match v {
                Vertex::Pass => Some(Move::Pass),
                Vertex::Coord { col, row } => pos.point(col as usize, row as usize).map(Move::Play),
            })
            .collect::<Option<Vec<Move>>>()
            .ok_or_else(|| Reply::err(SYNTAX_ERROR))?;
        compiled.push((rule.allow, rule.color, moves, rule.until_depth as usize));
    }
    Ok(Some(Arc::new(move |depth, mover, mv| {
        let mut restricted = false;
        let mut allowed = false;
        for (allow, color, moves, until) in &compiled {
            if *color != mover || depth >= *until {
                continue;
            }
            let listed = moves.contains(&mv);
            if !allow && listed {
                return true;
            }
            if *allow {
                restricted = true;
                allowed |= listed;
            }
        }
        restricted && !allowed
    })))
}

/// Builds the line formatter for `pos` (board size, side to move) in the
/// requested format.
fn formatter(pos: &Position, request: AnalyzeRequest) -> Formatter<Move> {
    let board = pos.clone();
    Box::new(move |info| info_line(&board, &request, info))
}

/// A move as both analysis formats write it: the vertex, or `pass`.
fn vertex_text(pos: &Position, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(_) => super::move_vertex(pos, mv).to_string(),
    }
}

/// One report: `info move … pv …` per visited candidate, then (kata, if
/// asked) `rootInfo …` and `ownership …`, on one line. Empty (nothing to
/// write) when there is nothing to report yet.
pub(super) fn info_line(
    pos: &Position,
    request: &AnalyzeRequest,
    info: &SearchInfo<Move>,
) -> String {
    let mut line = String::new();
    let black_view = if pos.to_move() == Color::Black {
        1.0
    } else {
        -1.0
    };
    let kata = request.format == AnalyzeFormat::Kata;
    let limit = request.max_moves.map_or(usize::MAX, |n| n as usize);
    for (order, c) in info
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .take(limit)
        .enumerate()
    {
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = write!(
            line,
            "info move {} visits {}",
            vertex_text(pos, c.mv),
            c.visits
        );
        if kata {
            // The move's own score where its playouts have one, else the
            // root's.
            let lead = c.score_lead.unwrap_or(info.score_lead) * black_view;
            let _ = write!(
                line,
                " utility {:.6} winrate {:.6} scoreMean {lead:.6} scoreLead {lead:.6} prior {:.6} lcb {:.6}",
                2.0 * c.winrate - 1.0,
                c.winrate,
                c.prior,
                c.lcb.clamp(0.0, 1.0)
            );
        } else {
            let _ = write!(
                line,
                " winrate {} prior {} lcb {}",
                per_10000(c.winrate),
                per_10000(c.prior),
                per_10000(c.lcb)
            );
        }
        let _ = write!(line, " order {order} pv");
        for &mv in &c.pv {
            let _ = write!(line, " {}", vertex_text(pos, mv));
        }
        if kata && request.pv_visits {
            line.push_str(" pvVisits");
            for v in &c.pv_visits {
                let _ = write!(line, " {v}");
            }
        }
    }
    if line.is_empty() {
        // Nothing visited yet: a line of root figures alone would tell a
        // GUI nothing, and an empty line would end the stream.
        return line;
    }
    if kata && request.root_info {
        let lead = info.score_lead * black_view;
        let _ = write!(
            line,
            " rootInfo visits {} utility {:.6} winrate {:.6} scoreMean {lead:.6} scoreLead {lead:.6}",
            info.root_visits,
            2.0 * info.winrate - 1.0,
            info.winrate
        );
    }
    if kata && request.ownership {
        line.push_str(" ownership");
        let size = pos.size();
        for row in (0..size).rev() {
            for col in 0..size {
                let own = pos
                    .point(col, row)
                    .and_then(|p| info.ownership.get(pos.cell_of(p)))
                    .copied()
                    .unwrap_or(0.0);
                let _ = write!(line, " {:.4}", own * black_view);
            }
        }
    }
    line.push('\n');
    line
}

/// Leela Zero's integer scale: 10000 times the value, within [0, 10000].
fn per_10000(x: f32) -> i64 {
    (x.clamp(0.0, 1.0) * 10_000.0).round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::analyze::parse_analyze;
    use crate::protocol::args::Args;
    use crate::search::Candidate;

    fn request(format: AnalyzeFormat, rest: &str) -> AnalyzeRequest {
        parse_analyze(format, &mut Args::new("kata-analyze", rest), false).unwrap()
    }

    fn candidate(mv: Move, pv: Vec<Move>, score_lead: Option<f32>) -> Candidate<Move> {
        Candidate {
            mv,
            visits: 10,
            winrate: 0.6,
            prior: 0.1,
            lcb: 0.5,
            pv_visits: (0..pv.len() as u64).map(|i| 10 - i).collect(),
            pv,
            score_lead,
        }
    }

    /// White to move on 9x9; E5 leads to a Black lead of 2 (White -2),
    /// pass to a Black lead of 6; the root's is 4.
    fn snapshot() -> (Position, SearchInfo<Move>) {
        let mut pos = Position::new(9, 7.5).unwrap();
        pos.set_to_move(Color::White);
        let e5 = Move::Play(pos.point(4, 4).unwrap());
        let d4 = Move::Play(pos.point(3, 3).unwrap());
        let info = SearchInfo {
            root_visits: 21,
            winrate: 0.6,
            score_lead: 4.0,
            candidates: vec![
                candidate(e5, vec![e5, Move::Pass, d4], Some(2.0)),
                candidate(Move::Pass, vec![Move::Pass, e5], Some(6.0)),
                candidate(d4, vec![d4], None),
            ],
            ..SearchInfo::default()
        };
        (pos, info)
    }

    #[test]
    fn pass_is_lower_case_in_moves_and_pvs() {
        let (pos, info) = snapshot();
        let line = info_line(&pos, &request(AnalyzeFormat::Lz, "10"), &info);
        assert!(
            line.contains("pv E5 pass D4 info move pass visits 10"),
            "{line}"
        );
        assert!(!line.contains("PASS"), "{line}");
        assert!(line.ends_with('\n') && !line.ends_with("\n\n"));
    }

    #[test]
    fn each_move_shows_its_own_score_from_the_side_to_moves_view() {
        let (pos, info) = snapshot();
        let line = info_line(&pos, &request(AnalyzeFormat::Kata, "10"), &info);
        let leads: Vec<&str> = line
            .split(" scoreLead ")
            .skip(1)
            .map(|rest| rest.split(' ').next().unwrap())
            .collect();
        // White's view; D4 has no score of its own and shows the root's.
        assert_eq!(leads, ["-2.000000", "-6.000000", "-4.000000"], "{line}");
    }

    #[test]
    fn root_info_and_pv_visits_follow_katagos_layout() {
        let (pos, info) = snapshot();
        let r = request(
            AnalyzeFormat::Kata,
            "10 rootInfo true pvVisits true ownership true",
        );
        let line = info_line(&pos, &r, &info);
        assert!(
            line.contains(" pv E5 pass D4 pvVisits 10 9 8 info move pass"),
            "{line}"
        );
        let root = line.find(" rootInfo visits 21 utility ").expect("rootInfo");
        let own = line.find(" ownership ").expect("ownership");
        assert!(
            root > line.rfind(" pvVisits ").unwrap() && root < own,
            "{line}"
        );
        assert!(line.contains("scoreLead -4.000000 ownership"), "{line}");
    }

    #[test]
    fn nothing_is_written_before_a_move_was_visited() {
        let pos = Position::new(9, 7.5).unwrap();
        let info = SearchInfo::default();
        let r = request(AnalyzeFormat::Kata, "10 rootInfo true ownership true");
        assert_eq!(info_line(&pos, &r, &info), "");
        assert_eq!(info_line(&pos, &request(AnalyzeFormat::Lz, ""), &info), "");
    }

    #[test]
    fn avoid_and_allow_apply_to_their_colour_up_to_their_depth() {
        let pos = Position::new(9, 7.5).unwrap();
        let at = |col, row| Move::Play(pos.point(col, row).unwrap());
        let r = request(AnalyzeFormat::Lz, "avoid b e5 2 allow w d4,pass 1");
        let forbids = move_filter(&pos, &r.rules).unwrap().unwrap();
        let (e5, d4, c3) = (at(4, 4), at(3, 3), at(2, 2));
        assert!(forbids(0, Color::Black, e5));
        assert!(forbids(1, Color::Black, e5));
        assert!(!forbids(2, Color::Black, e5), "only for 2 moves");
        assert!(!forbids(0, Color::Black, c3));
        assert!(
            forbids(0, Color::White, e5),
            "White may only play D4 or pass"
        );
        assert!(!forbids(0, Color::White, d4));
        assert!(!forbids(0, Color::White, Move::Pass));
        assert!(!forbids(1, Color::White, c3));
        assert!(move_filter(&pos, &[]).unwrap().is_none());
        let off = request(AnalyzeFormat::Lz, "avoid b t19 1");
        assert!(move_filter(&pos, &off.rules).is_err());
    }
}
