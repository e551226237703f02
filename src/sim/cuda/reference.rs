//! A small, deliberately plain CPU model of the rules and light policies
//! the kernels implement: flood-fill liberties for Go, the definition of a
//! ring (an enclosed cell) for Havannah. It shares no code with the kernels
//! and is the oracle for the exact replay check and the statistical check
//! until the project's positions implement [`KernelPosition`]; both checks
//! are generic and take those as soon as they do.

use super::hex::{HexGeometry, CORNER_BITS, EDGE_BITS};
use super::input::{
    color_code, GoLeafInput, HexLeafInput, KernelInput, KernelPosition, BLACK, EMPTY, WHITE,
};
use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome};
use crate::sim::{FastRng, PlayoutRecord, PlayoutResult, Rollout};
use std::sync::Arc;

/// Largest board (points or cells) the reference handles: Go 25x25.
const MAX_POINTS: usize = 640;

fn code_color(c: u8) -> Color {
    if c == BLACK {
        Color::Black
    } else {
        Color::White
    }
}

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
        PlayoutResult { winner, score }
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

/// Havannah by the definitions; White moves first.
#[derive(Clone, Debug)]
pub struct RefHex {
    pub geometry: Arc<HexGeometry>,
    pub board: Vec<u8>,
    pub to_move: Color,
    pub winner: Option<Color>,
}

impl RefHex {
    pub fn new(side: usize) -> RefHex {
        let geometry = Arc::new(HexGeometry::new(side));
        let board = vec![EMPTY; geometry.cells()];
        RefHex {
            geometry,
            board,
            to_move: Color::White,
            winner: None,
        }
    }

    fn full(&self) -> bool {
        self.board.iter().all(|&c| c != EMPTY)
    }

    /// Does colour `c` own a winning structure through cell `p`?
    fn wins(&self, p: usize, c: u8) -> bool {
        let g = &self.geometry;
        // Bridge and fork: the group of p.
        let mut group = [0u16; MAX_POINTS];
        let mut seen = [false; MAX_POINTS];
        group[0] = p as u16;
        seen[p] = true;
        let mut mask = 0u16;
        let (mut len, mut i) = (1, 0);
        while i < len {
            let s = group[i] as usize;
            i += 1;
            mask |= g.masks[s];
            for d in 0..6 {
                if let Some(q) = g.neighbour(s, d) {
                    if self.board[q] == c && !seen[q] {
                        seen[q] = true;
                        group[len] = q as u16;
                        len += 1;
                    }
                }
            }
        }
        if (mask & CORNER_BITS).count_ones() >= 2 || (mask & EDGE_BITS).count_ones() >= 3 {
            return true;
        }
        // A ring the new stone completes runs through it, so it needs two
        // friendly neighbours (a stone filling the last cell inside a ring
        // finds that ring already there).
        let friends = (0..6)
            .filter(|&d| g.neighbour(p, d).is_some_and(|q| self.board[q] == c))
            .count();
        if friends < 2 {
            return false;
        }
        // Ring: some cell is enclosed by c's stones. Either it has six
        // friendly neighbours, or it is a non-c cell the outside (the
        // non-c boundary cells) cannot reach through non-c cells.
        let enclosed_by_six = (0..self.board.len())
            .any(|x| (0..6).all(|d| g.neighbour(x, d).is_some_and(|y| self.board[y] == c)));
        if enclosed_by_six {
            return true;
        }
        let mut outside = [false; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        let mut top = 0;
        for (x, seen) in outside.iter_mut().enumerate().take(self.board.len()) {
            if self.board[x] != c && (0..6).any(|d| g.neighbour(x, d).is_none()) {
                *seen = true;
                stack[top] = x as u16;
                top += 1;
            }
        }
        while top > 0 {
            top -= 1;
            let x = stack[top] as usize;
            for d in 0..6 {
                if let Some(y) = g.neighbour(x, d) {
                    if self.board[y] != c && !outside[y] {
                        outside[y] = true;
                        stack[top] = y as u16;
                        top += 1;
                    }
                }
            }
        }
        (0..self.board.len()).any(|x| self.board[x] != c && !outside[x])
    }
}

impl Game for RefHex {
    type Move = u16;

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.outcome().is_none() {
            out.extend(
                (0..self.board.len())
                    .filter(|&p| self.board[p] == EMPTY)
                    .map(|p| p as u16),
            );
        }
    }

    fn is_legal(&self, mv: u16) -> bool {
        self.outcome().is_none() && self.board.get(mv as usize) == Some(&EMPTY)
    }

    fn play(&mut self, mv: u16) -> Result<(), IllegalMove<u16>> {
        let reason = match self.board.get(mv as usize) {
            _ if self.outcome().is_some() => IllegalReason::GameOver,
            None => IllegalReason::OffBoard,
            Some(&EMPTY) => {
                self.play_unchecked(mv);
                return Ok(());
            }
            Some(_) => IllegalReason::Occupied,
        };
        Err(IllegalMove { mv, reason })
    }

    fn play_unchecked(&mut self, mv: u16) {
        let c = color_code(self.to_move);
        self.board[mv as usize] = c;
        if self.wins(mv as usize, c) {
            self.winner = Some(self.to_move);
        }
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(c) => Some(Outcome::Win(c)),
            None if self.full() => Some(Outcome::Draw),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.board
            .iter()
            .fold(0x8422_2325u64 ^ self.to_move as u64, |h, &c| {
                (h ^ c as u64).wrapping_mul(0x1000_0000_01b3)
            })
    }

    fn move_index(&self, mv: u16) -> usize {
        mv as usize
    }

    fn move_space(&self) -> usize {
        self.board.len()
    }
}

impl Rollout for RefHex {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut pos = self.clone();
        let mut empty: Vec<usize> = (0..pos.board.len())
            .filter(|&p| pos.board[p] == EMPTY)
            .collect();
        while pos.winner.is_none() && !empty.is_empty() {
            let p = empty.swap_remove(rng.below(empty.len() as u32) as usize);
            record.note(p, pos.to_move);
            pos.play_unchecked(p as u16);
        }
        for (o, &c) in ownership.iter_mut().zip(&pos.board) {
            *o = match c {
                BLACK => 1,
                WHITE => -1,
                _ => 0,
            };
        }
        let score = match pos.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => -1.0,
            None => 0.0,
        };
        PlayoutResult {
            winner: pos.winner,
            score,
        }
    }
}

impl KernelPosition for RefHex {
    fn kernel_input(&self) -> KernelInput {
        KernelInput::Havannah(HexLeafInput {
            side: self.geometry.side,
            colors: self.board.clone(),
            to_move: self.to_move,
        })
    }

    fn move_index_of_point(&self, k: usize) -> usize {
        k
    }

    fn point_of_move(&self, mv: u16) -> Option<usize> {
        Some(mv as usize)
    }
}

/// The colour of a kernel colour code (for reports).
pub fn color_of_code(c: u8) -> Option<Color> {
    (c == BLACK || c == WHITE).then(|| code_color(c))
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

    fn hex_play(pos: &mut RefHex, cells: &[usize], filler: &mut Vec<usize>) {
        // White moves first; give Black harmless moves in between.
        for &c in cells {
            pos.play(c as u16).unwrap();
            if pos.outcome().is_none() {
                let f = filler.pop().unwrap();
                pos.play(f as u16).unwrap();
            }
        }
    }

    fn cell(g: &HexGeometry, q: i32, r: i32) -> usize {
        g.coords.iter().position(|&c| c == (q, r)).unwrap()
    }

    #[test]
    fn havannah_ring_around_an_own_stone_and_around_an_empty_cell() {
        for filled in [false, true] {
            let mut pos = RefHex::new(8);
            let g = pos.geometry.clone();
            let centre = cell(&g, 7, 7);
            // Black fillers far away, on the bottom rows.
            let mut filler: Vec<usize> = (0..g.cells()).filter(|&c| g.coords[c].1 >= 12).collect();
            let ring: Vec<usize> = (0..6).map(|d| g.neighbour(centre, d).unwrap()).collect();
            let mut moves = Vec::new();
            if filled {
                moves.push(centre);
            }
            moves.extend(&ring);
            hex_play(&mut pos, &moves[..moves.len() - 1], &mut filler);
            assert_eq!(pos.outcome(), None, "no ring before the last stone");
            pos.play(*moves.last().unwrap() as u16).unwrap();
            assert_eq!(
                pos.outcome(),
                Some(Outcome::Win(Color::White)),
                "filled {filled}"
            );
        }
    }

    #[test]
    fn havannah_bridge_wins_on_the_last_corner() {
        let mut pos = RefHex::new(4);
        let g = pos.geometry.clone();
        // Bridge: the top row from corner (0,0) to corner (3,0).
        let mut filler: Vec<usize> = (0..g.cells()).filter(|&c| g.coords[c].1 == 6).collect();
        let row: Vec<usize> = (0..4).map(|q| cell(&g, q, 0)).collect();
        hex_play(&mut pos, &row[..3], &mut filler);
        assert_eq!(pos.outcome(), None);
        pos.play(row[3] as u16).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
    }
}
