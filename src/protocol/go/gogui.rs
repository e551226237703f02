//! GoGui integration: the analyze-command menu and the commands behind it
//! (move-value heat map, ownership, principal variation, statistics,
//! parameters), plus live `gogui-gfx:` output on stderr while searching.
//!
//! Formats follow GoGui's manual: `dboard` is one row of numbers per line,
//! top row first; `gfx` is one drawing command per line; `param` lines are
//! `[type] key value` and the same command sets `key value`.

use super::GoSession;
use crate::engine::evaluate;
use crate::engine::think::{Controller, OnInput};
use crate::engine::think::{Formatter, Stream};
use crate::game::go::{Move, Position};
use crate::game::{Color, Game};
use crate::protocol::connection::Connection;
use crate::protocol::reply::SYNTAX_ERROR;
use crate::protocol::session::SessionGame;
use crate::protocol::Reply;
use crate::search::SearchInfo;
use std::fmt::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Most playouts per legal move for the heat map (the all-moves
/// evaluation); the engine's playout and time limits may allow fewer.
const MOVE_VALUE_PLAYOUTS: u32 = 256;

/// Seed for the heat map, so the same position gives the same map.
const MOVE_VALUE_SEED: u64 = 0xEA7;

/// How often live graphics are sent while searching.
const LIVE_GFX_INTERVAL: Duration = Duration::from_millis(500);

/// The menu GoGui reads when it attaches the engine.
const ANALYZE_COMMANDS: &str = "dboard/Move Values/warpstone-move_values %c
string/Move Values (Win Rates)/warpstone-move_values_text %c
dboard/Ownership/warpstone-ownership
gfx/Ownership (Influence)/warpstone-ownership_gfx
var/Principal Variation/warpstone-pv
string/Search Statistics/warpstone-statistics
param/Search Parameters/warpstone-param";

impl GoSession {
    pub(super) fn analyze_commands(&self) -> Reply {
        Reply::ok(ANALYZE_COMMANDS)
    }

    /// A `dboard`: `value(cell)` for every point, top row first.
    fn dboard(&self, value: impl Fn(usize) -> f32) -> String {
        SessionGame::dboard(&self.pos, &value)
    }

    /// Every legal move of `color` (the side to move if not given) that
    /// places a stone, rated by its own playouts within the engine's
    /// playout and time limits: the share `color` wins after playing it.
    /// Runs on a blocking thread, so `# interrupt` ends it early (with
    /// what it has).
    async fn rate_moves(
        &mut self,
        color: Option<Color>,
        conn: &mut Connection,
    ) -> Result<(Vec<Move>, evaluate::Rated), Reply> {
        let color = color.unwrap_or(self.pos.to_move());
        let (mut moves, mut leaves) = (Vec::new(), Vec::new());
        for p in self.pos.legal_points_as(color) {
            let mut next = self.pos.clone();
            if next.play_as(color, Move::Play(p)).is_ok() {
                moves.push(Move::Play(p));
                leaves.push(next);
            }
        }
        let sim = self.thinker.simulator().clone();
        let limits = self.limits(color);
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = stop.clone();
        let job = move || {
            evaluate::rate_leaves_within(
                sim.as_ref(),
                &leaves,
                color,
                &limits,
                MOVE_VALUE_PLAYOUTS,
                MOVE_VALUE_SEED,
                &job_stop,
            )
        };
        match conn.think(stop, OnInput::Queue, None, job).await {
            Ok(rated) => Ok((moves, rated)),
            Err(e) => {
                tracing::error!("{e}");
                Err(Reply::err("search failed"))
            }
        }
    }

    /// The heat map: [`Self::rate_moves`] spread over GoGui's [-1, 1]
    /// scale (best +1, worst -1), 0 where no stone can be placed.
    pub(super) async fn move_values(
        &mut self,
        color: Option<Color>,
        conn: &mut Connection,
    ) -> Reply {
        let (moves, rated) = match self.rate_moves(color, conn).await {
            Ok(r) => r,
            Err(reply) => return reply,
        };
        let mut values = vec![0.0f32; self.pos.cell_space()];
        for (&mv, v) in moves.iter().zip(evaluate::spread(&rated.win_rates)) {
            if let Some(cell) = self.pos.move_cell(mv) {
                values[cell] = v;
            }
        }
        Reply::ok(self.dboard(|i| values[i]))
    }

    /// The same rating as text: the raw win rates, best first.
    pub(super) async fn move_values_text(
        &mut self,
        color: Option<Color>,
        conn: &mut Connection,
    ) -> Reply {
        match self.rate_moves(color, conn).await {
            Ok((moves, rated)) => {
                let names: Vec<String> = moves
                    .iter()
                    .map(|&mv| self.vertex(mv).to_string())
                    .collect();
                Reply::ok(evaluate::rating_text(&names, &rated))
            }
            Err(reply) => reply,
        }
    }

    pub(super) fn ownership(&self) -> Reply {
        let own = self.ownership_estimate();
        Reply::ok(self.dboard(|i| own[i]))
    }

    pub(super) fn ownership_gfx(&self) -> Reply {
        let own = self.ownership_estimate();
        let mut line = String::from("INFLUENCE");
        for p in self.pos.points() {
            let _ = write!(
                line,
                " {} {:.3}",
                self.vertex_of(p),
                own[self.pos.cell_of(p)]
            );
        }
        Reply::ok(line)
    }

    /// The last search's best line from the current position on: GoGui
    /// draws a `var` alternating from the side to move, so the moves of
    /// the line already played (genmove's own move) are left out. Empty
    /// when the board has left the line.
    pub(super) fn principal_variation(&self) -> Reply {
        let (Some(info), Some(root)) = (&self.last_info, &self.last_root) else {
            return Reply::empty();
        };
        let Some(best) = info.candidates.first() else {
            return Reply::empty();
        };
        match pv_from(root, &best.pv, &self.pos) {
            Some(rest) => {
                let names: Vec<String> =
                    rest.iter().map(|&mv| self.vertex(mv).to_string()).collect();
                Reply::ok(names.join(" "))
            }
            None => Reply::empty(),
        }
    }

    pub(super) fn statistics(&self) -> Reply {
        let Some(info) = &self.last_info else {
            return Reply::ok("no search yet");
        };
        let secs = info.elapsed.as_secs_f64().max(1e-9);
        let best = info.candidates.first();
        Reply::ok(format!(
            "playouts {}\nplayouts/s {:.0}\nseconds {secs:.2}\nwinrate {:.3}\nbest {}\nbest visits {}\nnodes {}\nmemory MB {:.1}",
            info.playouts,
            info.playouts as f64 / secs,
            info.winrate,
            best.map_or("-".to_string(), |c| self.vertex(c.mv).to_string()),
            best.map_or(0, |c| c.visits),
            info.nodes,
            info.memory_bytes as f64 / (1 << 20) as f64,
        ))
    }

    /// Lists the parameters, or sets one. A value that does not parse is a
    /// syntax error and changes nothing.
    pub(super) fn param(&mut self, setting: Option<(String, String)>) -> Reply {
        let Some((key, value)) = setting else {
            let o = &self.options;
            return Reply::ok(format!(
                "[string] playouts {}\n[string] time_per_move {}\n[string] threads {}\n[string] rave_equiv {}\n[bool] live_gfx {}\n[bool] ponder {}",
                o.playouts.unwrap_or(0),
                o.time_per_move.map_or(0.0, |t| t.as_secs_f64()),
                self.thinker.threads(),
                self.thinker.rave_equiv(),
                u8::from(o.live_gfx),
                u8::from(o.ponder),
            ));
        };
        let flag = |v: &str| match v {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        };
        match key.as_str() {
            "playouts" => match value.parse::<u64>() {
                Ok(n) => self.options.playouts = (n > 0).then_some(n),
                Err(_) => return Reply::err(SYNTAX_ERROR),
            },
            "time_per_move" => match value.parse::<f64>() {
                Ok(0.0) => self.options.time_per_move = None,
                Ok(s) if s > 0.0 && s <= 86_400.0 => {
                    self.options.time_per_move = Some(Duration::from_secs_f64(s))
                }
                _ => return Reply::err(SYNTAX_ERROR),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=1024).contains(&n) => self.thinker.set_threads(n),
                _ => return Reply::err(SYNTAX_ERROR),
            },
            "rave_equiv" => match value.parse::<f64>() {
                Ok(r) if crate::search::RAVE_EQUIV_RANGE.contains(&r) => {
                    self.thinker.set_rave_equiv(r)
                }
                _ => return Reply::err(SYNTAX_ERROR),
            },
            "live_gfx" => match flag(&value) {
                Some(on) => self.options.live_gfx = on,
                None => return Reply::err(SYNTAX_ERROR),
            },
            "ponder" => match flag(&value) {
                Some(on) => self.options.ponder = on,
                None => return Reply::err(SYNTAX_ERROR),
            },
            _ => return Reply::err(SYNTAX_ERROR),
        }
        Reply::empty()
    }

    /// With live graphics on, a stream that draws the search's principal
    /// variation and figures on stderr as `gogui-gfx:` blocks; GoGui shows
    /// them while waiting for the move. Nothing goes to stdout.
    pub(super) fn live_gfx_stream(&self, pos: &Position) -> Option<Stream<Move>> {
        if !self.options.live_gfx {
            return None;
        }
        let board = pos.clone();
        let format: Formatter<Move> = Box::new(move |info| {
            eprint!("{}", gfx_block(&board, info));
            String::new()
        });
        Some(Stream {
            interval: LIVE_GFX_INTERVAL,
            format,
            on_input: OnInput::Queue,
            filter: None,
        })
    }
}

/// The part of `pv` (a line from `root`) that starts at `now`: `None` if
/// `now` is not on it. Positions compare by hash (stones, side to move,
/// ko), as the search's tree reuse does.
fn pv_from<'a>(root: &Position, pv: &'a [Move], now: &Position) -> Option<&'a [Move]> {
    let mut pos = root.clone();
    for played in 0..=pv.len() {
        if pos.hash() == now.hash() {
            return Some(&pv[played..]);
        }
        if played == pv.len() || pos.play(pv[played]).is_err() {
            return None;
        }
    }
    None
}

/// One `gogui-gfx:` block: the best line as a variation, and the figures.
fn gfx_block(pos: &Position, info: &SearchInfo<Move>) -> String {
    let mut block = String::from("gogui-gfx:\n");
    if let Some(best) = info.candidates.first() {
        block.push_str("VAR");
        let mut color = pos.to_move();
        for &mv in &best.pv {
            let text = super::move_vertex(pos, mv);
            let _ = write!(
                block,
                " {} {}",
                if color == Color::Black { "b" } else { "w" },
                text
            );
            color = color.opponent();
        }
        block.push('\n');
    }
    let _ = writeln!(
        block,
        "TEXT playouts {} winrate {:.3} nodes {}",
        info.playouts, info.winrate, info.nodes
    );
    block.push('\n');
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pv_starts_from_the_current_position() {
        let root = Position::new(9, 7.5).unwrap();
        let at = |col, row| Move::Play(root.point(col, row).unwrap());
        let pv = [at(4, 4), at(3, 3), at(2, 2)];
        assert_eq!(pv_from(&root, &pv, &root), Some(&pv[..]));
        // After genmove played the PV's first move, White is to move.
        let mut after = root.clone();
        after.play(pv[0]).unwrap();
        assert_eq!(pv_from(&root, &pv, &after), Some(&pv[1..]));
        // A position off the line has no PV.
        let mut elsewhere = root.clone();
        elsewhere.play(at(0, 0)).unwrap();
        assert_eq!(pv_from(&root, &pv, &elsewhere), None);
    }
}
