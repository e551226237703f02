//! final_score and final_status_list: dead stones from the ownership the
//! playouts estimate, then an area count.
//!
//! On a finished position where no capture is possible any more, every
//! stone keeps its colour in every playout, nothing is marked dead, and the
//! score is exactly the Tromp-Taylor area score.

use super::GoSession;
use crate::engine::Reply;
use crate::game::go::{Move, Point, Position};
use crate::game::{Color, Game};
use crate::protocol::gtp::StoneStatus;
use crate::sim::LeafStats;

/// A stone is dead when its own colour keeps its point in fewer than this
/// share of playouts ((1 - t) / 2 of them): ownership is +1 / -1 per
/// playout, so -0.5 means the opponent owned it three times in four.
const DEAD_OWNERSHIP: f32 = -0.5;

/// A seki string's shared liberties stay empty in most playouts.
const NEUTRAL_OWNERSHIP: f32 = 0.5;

/// Seed for the scoring playouts: final_score must not vary between calls.
const SCORING_SEED: u64 = 0x5C0E;

impl GoSession {
    /// Average ownership per move index (+1 Black … -1 White).
    pub(super) fn ownership_estimate(&self) -> Vec<f32> {
        let mut stats = vec![LeafStats::default()];
        let n = self.options.scoring_playouts.max(1);
        // After the two passes that end a game the playouts must still play
        // on: that is how they find the dead stones.
        let mut pos = self.pos.clone();
        pos.resume();
        self.thinker
            .simulator()
            .simulate(std::slice::from_ref(&pos), n, SCORING_SEED, &mut stats);
        let count = stats[0].playouts.max(1) as f32;
        stats[0].ownership.iter().map(|o| o / count).collect()
    }

    /// `dead[move_index]` for every stone the ownership says is lost.
    pub(super) fn dead_stones(&self, ownership: &[f32]) -> Vec<bool> {
        let mut dead = vec![false; self.pos.move_space()];
        for p in self.pos.points() {
            let i = self.pos.move_index(Move::Play(p));
            if let (Some(color), Some(&own)) = (self.pos.color_at(p), ownership.get(i)) {
                let own_for_color = if color == Color::Black { own } else { -own };
                dead[i] = own_for_color < DEAD_OWNERSHIP;
            }
        }
        dead
    }

    pub(super) fn final_score(&self) -> Reply {
        let dead = self.dead_stones(&self.ownership_estimate());
        let score = area_score_without(&self.pos, &dead);
        Reply::ok(format_score(score))
    }

    pub(super) fn final_status_list(&self, status: StoneStatus) -> Reply {
        let ownership = self.ownership_estimate();
        let dead = self.dead_stones(&ownership);
        // One string per line, as GNU Go lists them; strings in scan
        // order of their first stone.
        let mut seen = vec![false; self.pos.move_space()];
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
            let i = self.pos.move_index(Move::Play(p));
            if seen[i] {
                continue;
            }
            let string = string_of(&self.pos, p);
            for &q in &string {
                seen[self.pos.move_index(Move::Play(q))] = true;
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

/// Neighbouring points of `p` on the board.
fn neighbours(pos: &Position, p: Point) -> impl Iterator<Item = Point> + '_ {
    let (col, row) = pos.coords(p);
    let steps = [(0isize, 1isize), (0, -1), (1, 0), (-1, 0)];
    steps.into_iter().filter_map(move |(dc, dr)| {
        let c = col.checked_add_signed(dc)?;
        let r = row.checked_add_signed(dr)?;
        pos.point(c, r)
    })
}

/// The stones of the string through `p`.
fn string_of(pos: &Position, p: Point) -> Vec<Point> {
    let color = pos.color_at(p);
    let mut seen = vec![false; pos.move_space()];
    seen[pos.move_index(Move::Play(p))] = true;
    let mut stack = vec![p];
    let mut stones = Vec::new();
    while let Some(q) = stack.pop() {
        stones.push(q);
        for n in neighbours(pos, q) {
            let ni = pos.move_index(Move::Play(n));
            if !seen[ni] && pos.color_at(n) == color {
                seen[ni] = true;
                stack.push(n);
            }
        }
    }
    stones
}

/// A live stone is in seki when it touches an empty point that neither
/// side owns and that also touches a live opponent stone: a shared liberty
/// that no one can fill.
fn in_seki(pos: &Position, p: Point, ownership: &[f32], dead: &[bool]) -> bool {
    let Some(color) = pos.color_at(p) else {
        return false;
    };
    let mut seen = vec![false; pos.move_space()];
    let mut stack = vec![p];
    seen[pos.move_index(Move::Play(p))] = true;
    while let Some(q) = stack.pop() {
        for n in neighbours(pos, q) {
            let ni = pos.move_index(Move::Play(n));
            match pos.color_at(n) {
                Some(c) if c == color && !seen[ni] => {
                    seen[ni] = true;
                    stack.push(n);
                }
                None if ownership[ni].abs() < NEUTRAL_OWNERSHIP => {
                    let shared = neighbours(pos, n).any(|m| {
                        pos.color_at(m) == Some(color.opponent())
                            && !dead[pos.move_index(Move::Play(m))]
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

/// Area score (Black minus White, komi included) with `dead` stones taken
/// off: live stones count for their colour, and each empty-or-dead region
/// counts for the colour that alone borders it.
pub(super) fn area_score_without(pos: &Position, dead: &[bool]) -> f32 {
    let alive = |p: Point| {
        pos.color_at(p)
            .filter(|_| !dead[pos.move_index(Move::Play(p))])
    };
    let mut seen = vec![false; pos.move_space()];
    let (mut black, mut white) = (0i32, 0i32);
    for p in pos.points() {
        match alive(p) {
            Some(Color::Black) => black += 1,
            Some(Color::White) => white += 1,
            None => {
                let i = pos.move_index(Move::Play(p));
                if seen[i] {
                    continue;
                }
                seen[i] = true;
                let (mut size, mut touches_black, mut touches_white) = (0i32, false, false);
                let mut stack = vec![p];
                while let Some(q) = stack.pop() {
                    size += 1;
                    for n in neighbours(pos, q) {
                        match alive(n) {
                            Some(Color::Black) => touches_black = true,
                            Some(Color::White) => touches_white = true,
                            None => {
                                let ni = pos.move_index(Move::Play(n));
                                if !seen[ni] {
                                    seen[ni] = true;
                                    stack.push(n);
                                }
                            }
                        }
                    }
                }
                match (touches_black, touches_white) {
                    (true, false) => black += size,
                    (false, true) => white += size,
                    _ => {}
                }
            }
        }
    }
    (black - white) as f32 - pos.komi()
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

    #[test]
    fn without_dead_stones_it_is_tromp_taylor() {
        let mut pos = Position::new(5, 0.5).unwrap();
        for row in 0..5 {
            pos.play_as(Color::Black, Move::Play(pos.point(1, row).unwrap()))
                .unwrap();
            pos.play_as(Color::White, Move::Play(pos.point(3, row).unwrap()))
                .unwrap();
        }
        let none = vec![false; pos.move_space()];
        assert_eq!(area_score_without(&pos, &none), pos.area_score());
        assert_eq!(area_score_without(&pos, &none), -0.5);
    }

    #[test]
    fn dead_stones_count_for_the_opponent() {
        let mut pos = Position::new(5, 0.5).unwrap();
        for row in 0..5 {
            pos.play_as(Color::Black, Move::Play(pos.point(2, row).unwrap()))
                .unwrap();
            pos.set_to_move(Color::Black);
        }
        let w = pos.point(0, 0).unwrap();
        pos.play_as(Color::White, Move::Play(w)).unwrap();
        let mut dead = vec![false; pos.move_space()];
        dead[pos.move_index(Move::Play(w))] = true;
        // Black: 5 stones + the whole board either side = 25; komi 0.5.
        assert_eq!(area_score_without(&pos, &dead), 24.5);
    }
}
