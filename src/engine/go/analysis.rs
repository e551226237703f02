//! Sabaki / Lizzie analysis: `lz-analyze`, `kata-analyze` and the
//! `*genmove_analyze` forms, in Leela Zero's and KataGo's output formats.
//!
//! Values are from the point of view of the side to move, as both engines
//! report them. Ownership is listed row by row from the top-left (A19 on
//! 19x19) to the bottom-right, as KataGo does.

use super::think::Mode;
use super::GoSession;
use crate::engine::connection::{Connection, OnInput};
use crate::engine::think::{Formatter, Stream};
use crate::engine::{stream_header, Reply};
use crate::game::go::{Move, Position};
use crate::game::{Color, Game};
use crate::protocol::{AnalyzeFormat, AnalyzeRequest, Vertex};
use crate::search::{Limits, SearchInfo};
use std::fmt::Write;
use std::time::Duration;

impl GoSession {
    /// `lz-analyze` / `kata-analyze`: search until the next line arrives.
    pub(super) async fn analyze(
        &mut self,
        id: Option<u32>,
        request: AnalyzeRequest,
        conn: &mut Connection,
    ) -> Reply {
        let Some((pos, stream)) = self.open_stream(id, request, conn, OnInput::Stop) else {
            return Reply::Streamed;
        };
        // Analysis shows what a referee would score (cleanup may have
        // switched that off for the moves it played).
        self.thinker.set_judge_two_passes(true);
        // No limit: the stream ends when the controller sends anything.
        if let Some(thought) = self
            .thinker
            .think(pos, Limits::default(), conn, Some(stream))
            .await
        {
            self.last_info = Some(thought.info);
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
        let Some((pos, stream)) = self.open_stream(id, request, conn, OnInput::Queue) else {
            return Reply::Streamed;
        };
        let played = self
            .choose_and_play(pos.to_move(), Mode::Play, conn, Some(stream))
            .await;
        let last = played.unwrap_or_else(|_| Vertex::Pass.to_string());
        let _ = conn.write(&format!("play {last}\n\n"));
        Reply::Streamed
    }

    /// Writes the stream's `=` line and returns the position to analyse
    /// (the requested colour to move) with its report stream; `None` if the
    /// controller has gone.
    fn open_stream(
        &self,
        id: Option<u32>,
        request: AnalyzeRequest,
        conn: &mut Connection,
        on_input: OnInput,
    ) -> Option<(Position, Stream<Move>)> {
        let mut pos = self.pos.clone();
        pos.set_to_move(request.color.unwrap_or(self.pos.to_move()));
        conn.write(&stream_header(id)).ok()?;
        let stream = Stream {
            interval: Duration::from_millis(u64::from(request.interval_centis) * 10),
            format: formatter(&pos, request),
            on_input,
        };
        Some((pos, stream))
    }
}

/// Builds the line formatter for `pos` (board size, side to move) in the
/// requested format.
fn formatter(pos: &Position, request: AnalyzeRequest) -> Formatter<Move> {
    let board = pos.clone();
    Box::new(move |info| info_line(&board, request, info))
}

fn vertex_text(pos: &Position, mv: Move) -> String {
    super::move_vertex(pos, mv).to_string()
}

/// One report: `info move … pv …` per visited candidate, then (kata, if
/// asked) `ownership …`, on one line.
pub(super) fn info_line(
    pos: &Position,
    request: AnalyzeRequest,
    info: &SearchInfo<Move>,
) -> String {
    let mut line = String::new();
    let black_view = if pos.to_move() == Color::Black {
        1.0
    } else {
        -1.0
    };
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
        match request.format {
            AnalyzeFormat::Lz => {
                let _ = write!(
                    line,
                    " winrate {} prior {} lcb {}",
                    per_10000(c.winrate),
                    per_10000(c.prior),
                    per_10000(c.lcb)
                );
            }
            AnalyzeFormat::Kata => {
                // The search keeps one score estimate, for the root: every
                // candidate shows it.
                let lead = info.score_lead * black_view;
                let _ = write!(
                    line,
                    " utility {:.6} winrate {:.6} scoreMean {lead:.6} scoreLead {lead:.6} prior {:.6} lcb {:.6}",
                    2.0 * c.winrate - 1.0,
                    c.winrate,
                    c.prior,
                    c.lcb.clamp(0.0, 1.0)
                );
            }
        }
        let _ = write!(line, " order {order} pv");
        for &mv in &c.pv {
            let _ = write!(line, " {}", vertex_text(pos, mv));
        }
    }
    if request.format == AnalyzeFormat::Kata && request.ownership {
        line.push_str(if line.is_empty() {
            "ownership"
        } else {
            " ownership"
        });
        let size = pos.size();
        for row in (0..size).rev() {
            for col in 0..size {
                let own = pos
                    .point(col, row)
                    .and_then(|p| info.ownership.get(pos.move_index(Move::Play(p))))
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
