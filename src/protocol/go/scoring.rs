//! final_score and final_status_list: dead stones from the ownership the
//! playouts estimate, then an area count.
//!
//! On a finished position where no capture is possible any more, every
//! stone keeps its colour in every playout, nothing is marked dead, and the
//! score is exactly the Tromp-Taylor area score.

use super::GoSession;
use crate::engine::evaluate;
use crate::game::go::{Point, Position};
use crate::game::{Color, Game};
use crate::protocol::gtp::StoneStatus;
use crate::protocol::Reply;

/// A stone is dead when its own colour keeps its point in fewer than this
/// share of playouts ((1 - t) / 2 of them): ownership is +1 / -1 per
/// playout, so -0.5 means the opponent owned it three times in four.
const DEAD_OWNERSHIP: f32 = -0.5;

/// A seki string's shared liberties stay empty in most playouts.
const NEUTRAL_OWNERSHIP: f32 = 0.5;

/// Seed for the scoring playouts: final_score must not vary between calls.
const SCORING_SEED: u64 = 0x5C0E;

impl GoSession {
    /// Average ownership per cell (+1 Black … -1 White).
    pub(super) fn ownership_estimate(&self) -> Vec<f32> {
        // After the two passes that end a game the playouts must still play
        // on: that is how they find the dead stones.
        let mut pos = self.pos.clone();
        pos.resume();
        let sim = self.thinker.simulator().as_ref();
        evaluate::ownership(sim, &pos, self.options.scoring_playouts, SCORING_SEED)
    }

    /// `dead[cell]` for every stone the ownership says is lost.
    pub(super) fn dead_stones(&self, ownership: &[f32]) -> Vec<bool> {
        let mut dead = vec![false; self.pos.cell_space()];
        for p in self.pos.points() {
            let i = self.pos.cell_of(p);
            if let (Some(color), Some(&own)) = (self.pos.color_at(p), ownership.get(i)) {
                let own_for_color = if color == Color::Black { own } else { -own };
                dead[i] = own_for_color < DEAD_OWNERSHIP;
            }
        }
        dead
    }

    pub(super) fn final_score(&self) -> Reply {
        let dead = self.dead_stones(&self.ownership_estimate());
        let score = self.pos.area_score_without(&dead);
        Reply::ok(format_score(score))
    }

    pub(super) fn final_status_list(&self, status: StoneStatus) -> Reply {
        let ownership = self.ownership_estimate();
        let dead = self.dead_stones(&ownership);
        // One string per line, as GNU Go lists them; strings in scan
        // order of their first stone.
        let mut seen = vec![false; self.pos.cell_space()];
        let mut lines = Vec::new();
        let mut scan: Vec<Point> = self
            .pos
            .points()
            .filter(|&p| self.pos.color_at(p).is_some())
            .collect();
        scan.sort_by_key(|&p| {
            let (col, row) = self.pos.coords(p);
            (std::cmp::Reverse(row), col)
        });
        for p in scan {
            let i = self.pos.cell_of(p);
            if seen[i] {
                continue;
            }
            let string = self.pos.string_stones(p);
            for &q in &string {
                seen[self.pos.cell_of(q)] = true;
            }
            let seki = !dead[i] && in_seki(&self.pos, p, &ownership, &dead);
            let wanted = match status {
                StoneStatus::Dead => dead[i],
                StoneStatus::Seki => seki,
                StoneStatus::Alive => !dead[i] && !seki,
            };
            if wanted {
                lines.push(self.vertex_list(string));
            }
        }
        Reply::ok(lines.join("\n"))
    }
}

/// A live stone is in seki when it touches an empty point that neither
/// side owns and that also touches a live opponent stone: a shared liberty
/// that no one can fill.
fn in_seki(pos: &Position, p: Point, ownership: &[f32], dead: &[bool]) -> bool {
    let Some(color) = pos.color_at(p) else {
        return false;
    };
    let mut seen = vec![false; pos.cell_space()];
    let mut stack = vec![p];
    seen[pos.cell_of(p)] = true;
    while let Some(q) = stack.pop() {
        for n in pos.neighbours(q) {
            let ni = pos.cell_of(n);
            match pos.color_at(n) {
                Some(c) if c == color && !seen[ni] => {
                    seen[ni] = true;
                    stack.push(n);
                }
                None if ownership[ni].abs() < NEUTRAL_OWNERSHIP => {
                    let shared = pos.neighbours(n).any(|m| {
                        pos.color_at(m) == Some(color.opponent()) && !dead[pos.cell_of(m)]
                    });
                    if shared {
                        return true;
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// GTP score text: `B+3.5`, `W+0.5`, or `0`.
pub(super) fn format_score(score: f32) -> String {
    if score > 0.0 {
        format!("B+{score:.1}")
    } else if score < 0.0 {
        format!("W+{:.1}", -score)
    } else {
        "0".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_text_follows_gtp() {
        assert_eq!(format_score(3.5), "B+3.5");
        assert_eq!(format_score(-0.5), "W+0.5");
        assert_eq!(format_score(0.0), "0");
        assert_eq!(format_score(-7.0), "W+7.0");
    }
}
