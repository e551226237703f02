//! Go by flood fill: [`RefGo`].

use super::MAX_POINTS;
use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome};
use crate::sim::cuda::input::{
    color_code, GoLeafInput, KernelInput, KernelPosition, BLACK, EMPTY, WHITE,
};
use crate::sim::{FastRng, PlayoutRecord, PlayoutResult, Rollout};

/// Go on a plain row-major board; moves are points, `size²` is pass.
#[derive(Clone, Debug)]
pub struct RefGo {
    pub size: usize,
    pub board: Vec<u8>,
    pub to_move: Color,
    pub ko: Option<usize>,
    pub passes: u8,
    pub komi: f32,
    pub captured: [u32; 2],
}

impl RefGo {
    /// `size` at most 25.
    pub fn new(size: usize, komi: f32) -> RefGo {
        RefGo {
            size,
            board: vec![EMPTY; size * size],
            to_move: Color::Black,
            ko: None,
            passes: 0,
            komi,
            captured: [0; 2],
        }
    }

    pub fn pass(&self) -> u16 {
        (self.size * self.size) as u16
    }

    fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        let n = self.size;
        let (r, c) = (p / n, p % n);
        [
            (r > 0).then(|| p - n),
            (r + 1 < n).then(|| p + n),
            (c > 0).then(|| p - 1),
            (c + 1 < n).then(|| p + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// Collects the string at `p` into `stones` and returns its length
    /// and whether it has a liberty. With `stop_at_liberty` the search
    /// ends at the first liberty (the list is then partial). Fixed-size
    /// buffers: heap allocation in this hot path was the slow part on
    /// sandboxed machines.
    fn string(
        &self,
        p: usize,
        stop_at_liberty: bool,
        stones: &mut [u16; MAX_POINTS],
    ) -> (usize, bool) {
        let color = self.board[p];
        let mut seen = [0u64; MAX_POINTS / 64 + 1];
        stones[0] = p as u16;
        seen[p / 64] |= 1 << (p % 64);
        let (mut len, mut i) = (1, 0);
        let mut liberty = false;
        while i < len {
            let s = stones[i] as usize;
            i += 1;
            for q in self.neighbours(s) {
                if self.board[q] == EMPTY {
                    liberty = true;
                    if stop_at_liberty {
                        return (len, true);
                    }
                } else if self.board[q] == color && seen[q / 64] & (1 << (q % 64)) == 0 {
                    seen[q / 64] |= 1 << (q % 64);
                    stones[len] = q as u16;
                    len += 1;
                }
            }
        }
        (len, liberty)
    }

    fn has_liberty(&self, p: usize) -> bool {
        self.string(p, true, &mut [0; MAX_POINTS]).1
    }

    fn is_suicide(&mut self, p: usize, c: u8) -> bool {
        if self.neighbours(p).any(|q| self.board[q] == EMPTY) {
            return false;
        }
        self.board[p] = c;
        let captures = self
            .neighbours(p)
            .any(|q| self.board[q] == c ^ 3 && !self.has_liberty(q));
        let suicide = !captures && !self.has_liberty(p);
        self.board[p] = EMPTY;
        suicide
    }

    /// Eye as the CPU policy defines it: orthogonal neighbours all `c`,
    /// and opponent diagonals plus "is on the edge" below two.
    fn is_eye(&self, p: usize, c: u8) -> bool {
        if !self.neighbours(p).all(|q| self.board[q] == c) {
            return false;
        }
        let n = self.size as i64;
        let (r, col) = ((p / self.size) as i64, (p % self.size) as i64);
        let mut bad = 0;
        let mut edge = 0;
        for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
            let (rr, cc) = (r + dr, col + dc);
            if rr < 0 || cc < 0 || rr >= n || cc >= n {
                edge = 1;
            } else if self.board[(rr * n + cc) as usize] == c ^ 3 {
                bad += 1;
            }
        }
        bad + edge < 2
    }

    fn place(&mut self, p: usize, c: u8) {
        self.board[p] = c;
        let mut removed = 0;
        let mut last = 0;
        let mut stones = [0u16; MAX_POINTS];
        let around: [Option<usize>; 4] = {
            let mut a = [None; 4];
            for (slot, q) in a.iter_mut().zip(self.neighbours(p)) {
                *slot = Some(q);
            }
            a
        };
        for q in around.into_iter().flatten() {
            if self.board[q] == c ^ 3 && !self.has_liberty(q) {
                let len = self.string(q, false, &mut stones).0;
                for &s in &stones[..len] {
                    self.board[s as usize] = EMPTY;
                }
                removed += len;
                last = q;
            }
        }
        self.captured[(c ^ 3) as usize - 1] += removed as u32;
        // A lone stone that captured one stone and has one liberty: ko.
        let alone = self.neighbours(p).all(|q| self.board[q] != c);
        let libs = self
            .neighbours(p)
            .filter(|&q| self.board[q] == EMPTY)
            .count();
        self.ko = (removed == 1 && alone && libs == 1).then_some(last);
    }

    /// Tromp-Taylor: owners (+1/-1/0) and Black minus White area.
    pub fn area(&self) -> (Vec<i8>, i32) {
        let mut owner = vec![0i8; self.board.len()];
        let mut seen = vec![false; self.board.len()];
        for p in 0..self.board.len() {
            match self.board[p] {
                BLACK => owner[p] = 1,
                WHITE => owner[p] = -1,
                _ if !seen[p] => {
                    let mut region = vec![p];
                    seen[p] = true;
                    let mut reach = 0u8;
                    let mut i = 0;
                    while i < region.len() {
                        let s = region[i];
                        i += 1;
                        for q in self.neighbours(s) {
                            match self.board[q] {
                                EMPTY if !seen[q] => {
                                    seen[q] = true;
                                    region.push(q);
                                }
                                EMPTY => {}
                                c => reach |= c,
                            }
                        }
                    }
                    let o = match reach {
                        BLACK => 1,
                        WHITE => -1,
                        _ => 0,
                    };
                    for s in region {
                        owner[s] = o;
                    }
                }
                _ => {}
            }
        }
        let diff = owner.iter().map(|&o| o as i32).sum();
        (owner, diff)
    }

    fn legal_point(&mut self, p: usize) -> bool {
        self.board[p] == EMPTY
            && self.ko != Some(p)
            && !self.is_suicide(p, color_code(self.to_move))
    }
}

impl Game for RefGo {
    type Move = u16;

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.passes >= 2 {
            return;
        }
        let mut scratch = self.clone();
        for p in 0..self.board.len() {
            if scratch.legal_point(p) {
                out.push(p as u16);
            }
        }
        out.push(self.pass());
    }

    fn is_legal(&self, mv: u16) -> bool {
        self.passes < 2
            && (mv == self.pass()
                || ((mv as usize) < self.board.len() && self.clone().legal_point(mv as usize)))
    }

    fn play(&mut self, mv: u16) -> Result<(), IllegalMove<u16>> {
        let reason = if self.passes >= 2 {
            Some(IllegalReason::GameOver)
        } else if mv > self.pass() {
            Some(IllegalReason::OffBoard)
        } else if mv < self.pass() && self.board[mv as usize] != EMPTY {
            Some(IllegalReason::Occupied)
        } else if mv < self.pass() && self.ko == Some(mv as usize) {
            Some(IllegalReason::Ko)
        } else if mv < self.pass() && self.is_suicide(mv as usize, color_code(self.to_move)) {
            Some(IllegalReason::Suicide)
        } else {
            None
        };
        match reason {
            Some(reason) => Err(IllegalMove { mv, reason }),
            None => {
                self.play_unchecked(mv);
                Ok(())
            }
        }
    }

    fn play_unchecked(&mut self, mv: u16) {
        if mv == self.pass() {
            self.passes += 1;
            self.ko = None;
        } else {
            self.passes = 0;
            self.place(mv as usize, color_code(self.to_move));
        }
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.passes >= 2).then(|| {
            let score = self.area().1 as f32 - self.komi;
            if score > 0.0 {
                Outcome::Win(Color::Black)
            } else if score < 0.0 {
                Outcome::Win(Color::White)
            } else {
                Outcome::Draw
            }
        })
    }

    fn hash(&self) -> u64 {
        self.board
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64 ^ self.to_move as u64, |h, &c| {
                (h ^ c as u64).wrapping_mul(0x1000_0000_01b3)
            })
    }

    fn move_index(&self, mv: u16) -> usize {
        mv as usize
    }

    fn move_space(&self) -> usize {
        self.board.len() + 1
    }

    fn pass_move(&self) -> Option<u16> {
        Some(self.pass())
    }
}

impl Rollout for RefGo {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut pos = self.clone();
        let cap = 3 * self.board.len();
        let mut moves = 0;
        while pos.passes < 2 && moves < cap {
            let c = color_code(pos.to_move);
            let mut candidates: Vec<usize> = (0..pos.board.len())
                .filter(|&p| pos.board[p] == EMPTY)
                .collect();
            let mut chosen = None;
            while !candidates.is_empty() {
                let j = rng.below(candidates.len() as u32) as usize;
                let p = candidates.swap_remove(j);
                if pos.ko != Some(p) && !pos.is_eye(p, c) && !pos.is_suicide(p, c) {
                    chosen = Some(p);
                    break;
                }
            }
            match chosen {
                Some(p) => {
                    record.note(p, pos.to_move);
                    pos.play_unchecked(p as u16);
                }
                None => pos.play_unchecked(pos.pass()),
            }
            moves += 1;
        }
        let (owner, diff) = pos.area();
        ownership[..owner.len()].copy_from_slice(&owner);
        let score = diff as f32 - self.komi;
        let winner = if score > 0.0 {
            Some(Color::Black)
        } else if score < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        PlayoutResult {
            winner,
            score,
            moves: moves as u32,
        }
    }
}

impl KernelPosition for RefGo {
    fn kernel_input(&self) -> KernelInput {
        KernelInput::Go(GoLeafInput {
            size: self.size,
            colors: self.board.clone(),
            to_move: self.to_move,
            ko: self.ko,
            consecutive_passes: self.passes,
            komi: self.komi,
        })
    }

    fn move_index_of_point(&self, k: usize) -> usize {
        k
    }

    fn point_of_move(&self, mv: u16) -> Option<usize> {
        (mv < self.pass()).then_some(mv as usize)
    }

    fn captures(&self) -> Option<[u32; 2]> {
        Some(self.captured)
    }

    fn area_difference(&self) -> Option<i32> {
        Some(self.area().1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_captures_and_forbids_suicide_and_ko_recapture() {
        let mut pos = RefGo::new(5, 0.5);
        // Black surrounds the white stone at (1,1); White passes.
        let p = |c, r| (r * 5 + c) as u16;
        for (b, w) in [(p(1, 0), p(1, 1)), (p(0, 1), p(4, 4)), (p(2, 1), p(4, 3))] {
            pos.play(b).unwrap();
            pos.play(w).unwrap();
        }
        pos.play(p(1, 2)).unwrap();
        assert_eq!(pos.board[p(1, 1) as usize], EMPTY);
        assert_eq!(pos.captured, [0, 1]);
        // White may not play into the single-point eye at (1,1): suicide.
        assert_eq!(
            pos.play(p(1, 1)).unwrap_err().reason,
            IllegalReason::Suicide
        );
        // The classic ko shape on an empty board.
        let mut ko = RefGo::new(5, 0.5);
        let q = p;
        let moves = [
            q(1, 0),
            q(2, 0),
            q(0, 1),
            q(3, 1),
            q(1, 2),
            q(2, 2),
            q(4, 4),
            q(1, 1),
        ];
        for m in moves {
            ko.play(m).unwrap();
        }
        // Black (to move) captures at (2,1), taking (1,1): ko.
        ko.play(q(2, 1)).unwrap();
        assert_eq!(ko.board[q(1, 1) as usize], EMPTY);
        assert_eq!(ko.ko, Some(q(1, 1) as usize));
        assert_eq!(ko.play(q(1, 1)).unwrap_err().reason, IllegalReason::Ko);
    }
}
