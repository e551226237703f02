//! Havannah by the definitions: [`RefHex`].

use super::MAX_POINTS;
use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome};
use crate::sim::cuda::hex::{HexGeometry, CORNER_BITS, EDGE_BITS};
use crate::sim::cuda::input::{
    color_code, HexLeafInput, KernelInput, KernelPosition, BLACK, EMPTY, WHITE,
};
use crate::sim::{FastRng, PlayoutRecord, PlayoutResult, Rollout};
use std::sync::Arc;

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
        let mut moves = 0u32;
        while pos.winner.is_none() && !empty.is_empty() {
            moves += 1;
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
            moves,
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

#[cfg(test)]
mod tests {
    use super::*;

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
