//! Two toy games with random playouts, so the search can be tested with the
//! real `CpuSimulator`: tic-tac-toe (Black is X and moves first) and Nim
//! (take 1–3 stones, taking the last one wins; a heap that is a multiple of
//! four loses for the side to move).

use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome};
use crate::sim::{FastRng, PlayoutRecord, PlayoutResult, Rollout};

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    cells: [Option<Color>; 9],
    to_move: Color,
}

impl TicTacToe {
    pub fn new() -> Self {
        TicTacToe {
            cells: [None; 9],
            to_move: Color::Black,
        }
    }

    /// Plays `moves` from the empty board (panics on an illegal one).
    pub fn from_moves(moves: &[u8]) -> Self {
        let mut pos = TicTacToe::new();
        for &m in moves {
            pos.play(m).expect("test position must be legal");
        }
        pos
    }

    fn winner(&self) -> Option<Color> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(c) && self.cells[l[2]] == Some(c)).then_some(c)
        })
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.outcome().is_none() {
            out.extend((0..9u8).filter(|&m| self.cells[m as usize].is_none()));
        }
    }

    fn is_legal(&self, mv: u8) -> bool {
        (mv as usize) < 9 && self.cells[mv as usize].is_none() && self.outcome().is_none()
    }

    fn play(&mut self, mv: u8) -> Result<(), IllegalMove<u8>> {
        let reason = if mv as usize >= 9 {
            IllegalReason::OffBoard
        } else if self.outcome().is_some() {
            IllegalReason::GameOver
        } else if self.cells[mv as usize].is_some() {
            IllegalReason::Occupied
        } else {
            self.play_unchecked(mv);
            return Ok(());
        };
        Err(IllegalMove { mv, reason })
    }

    fn play_unchecked(&mut self, mv: u8) {
        self.cells[mv as usize] = Some(self.to_move);
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(c) => Some(Outcome::Win(c)),
            None if self.cells.iter().all(Option::is_some) => Some(Outcome::Draw),
            None => None,
        }
    }

    fn proven_outcome(&self) -> Option<Outcome> {
        self.outcome()
    }

    fn hash(&self) -> u64 {
        // Exact base-3 encoding: no collisions at all.
        let board = self.cells.iter().fold(0u64, |h, c| {
            h * 3
                + match c {
                    None => 0,
                    Some(Color::Black) => 1,
                    Some(Color::White) => 2,
                }
        });
        board * 2 + self.to_move.index() as u64
    }

    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }

    fn move_space(&self) -> usize {
        9
    }

    fn move_cell(&self, mv: u8) -> Option<usize> {
        Some(mv as usize)
    }

    fn cell_space(&self) -> usize {
        9
    }
}

impl Rollout for TicTacToe {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut pos = self.clone();
        let mut moves = Vec::with_capacity(9);
        let mut played = 0;
        while pos.outcome().is_none() {
            played += 1;
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len() as u32) as usize];
            record.note(mv as usize, pos.to_move);
            pos.play_unchecked(mv);
        }
        for (o, c) in ownership.iter_mut().zip(pos.cells.iter()) {
            *o = match c {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
        }
        let winner = pos.winner();
        let score = match winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => -1.0,
            None => 0.0,
        };
        PlayoutResult {
            winner,
            score,
            moves: played,
        }
    }
}

/// Nim with one heap; a move takes 1, 2 or 3 stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    heap: u8,
    to_move: Color,
}

impl Nim {
    pub fn new(heap: u8) -> Self {
        Nim {
            heap,
            to_move: Color::Black,
        }
    }
}

impl Game for Nim {
    type Move = u8;

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=3u8).filter(|&take| take <= self.heap));
    }

    fn is_legal(&self, take: u8) -> bool {
        (1..=3).contains(&take) && take <= self.heap
    }

    fn play(&mut self, take: u8) -> Result<(), IllegalMove<u8>> {
        if !self.is_legal(take) {
            return Err(IllegalMove {
                mv: take,
                reason: IllegalReason::NotAllowed,
            });
        }
        self.play_unchecked(take);
        Ok(())
    }

    fn play_unchecked(&mut self, take: u8) {
        self.heap -= take;
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        // Whoever took the last stone (the player not to move) has won.
        (self.heap == 0).then(|| Outcome::Win(self.to_move.opponent()))
    }

    fn proven_outcome(&self) -> Option<Outcome> {
        self.outcome()
    }

    fn hash(&self) -> u64 {
        self.heap as u64 * 2 + self.to_move.index() as u64
    }

    fn move_index(&self, take: u8) -> usize {
        take as usize - 1
    }

    fn move_space(&self) -> usize {
        3
    }

    /// Taking stones places nothing: Nim has no board.
    fn move_cell(&self, _take: u8) -> Option<usize> {
        None
    }

    fn cell_space(&self) -> usize {
        0
    }
}

impl Rollout for Nim {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        let mut pos = self.clone();
        let mut played = 0;
        while pos.heap > 0 {
            played += 1;
            let take = 1 + rng.below(pos.heap.min(3) as u32) as u8;
            record.note(pos.move_index(take), pos.to_move);
            pos.play_unchecked(take);
        }
        ownership.fill(0);
        let winner = pos.to_move.opponent();
        let score = if winner == Color::Black { 1.0 } else { -1.0 };
        PlayoutResult {
            winner: Some(winner),
            score,
            moves: played,
        }
    }
}
