//! The Havannah position: stones, the disjoint-set forest of groups, moves
//! and win detection.
//!
//! # Why the two local ring tests are exact
//!
//! A ring of colour X exists iff some cell P (of any colour) is cut off from
//! the outside of the board by X stones other than P. Every position we
//! extend has no ring yet (a ring ends the game), so a new ring runs through
//! the new stone c. Look at c's six neighbour positions as a circle; the
//! friendly ones form runs separated by gaps (empty, enemy or off-board).
//!
//! 1. **Two runs already in one group** (the paper's test). A path through
//!    the old group joins the two runs; with c it closes a loop, and the two
//!    arcs of the circle between the runs lie on opposite sides of it. The
//!    arc inside holds a gap position, which is on the board (off-board
//!    positions are outside the convex board) and not X: an enclosed cell.
//!    Conversely, if c encloses a non-X region C, c touches C and also the
//!    outside region (or C was enclosed before); around c the C-cells and
//!    outside cells are separated by friendly runs, and walking the outer
//!    boundary of C without c joins two different runs.
//! 2. **Rings filled with own stones.** If test 1 fails, every non-X cell
//!    still reaches the outside, so an X cell P is enclosed iff all six of
//!    its neighbours are X. Before the move there was none, so P is a
//!    neighbour of c that had five friendly neighbours (the paper's "a
//!    neighbour already has five friendly neighbours"). P and c have two
//!    common neighbours, which must be X as well, so P is the middle of a
//!    run of three friendly neighbours of c: only those are looked at.
//!
//! `tests::props` checks both against the flood-fill definition in
//! `super::reference` (compiled for tests) on random games.

use super::geometry::{
    geometry, joins_three_edges, joins_two_corners, opposite, Geometry, BLACK_TO_MOVE_KEY, RUNS,
    SLOTS,
};
use super::{BoardSizeError, Cell, Move, WinKind};
use crate::game::{Color, Game, IllegalMove, IllegalReason, Outcome};

mod patterns;
mod threats;

pub use threats::DoubleThreat;

/// Codes in `Position::board`: empty, `1 + color.index()` for a stone
/// (see `code`), and the off-board sentinel.
const EMPTY: u8 = 0;
const OFF: u8 = 3;

/// The UCB exploration coefficient Havannah's search uses
/// ([`Game::exploration`]; the search's default is 0.2).
pub const HAVANNAH_EXPLORATION: f64 = 0.1;

#[inline]
fn code(color: Color) -> u8 {
    color.index() as u8 + 1
}

/// Bits of the win-kind set returned by `place`.
pub(super) const RING: u8 = 1;
pub(super) const BRIDGE: u8 = 2;
pub(super) const FORK: u8 = 4;

/// A Havannah position. Flat fixed-size arrays over the largest board plus
/// a shared `&'static` geometry, so a clone is one ~2 KiB copy.
#[derive(Clone)]
pub struct Position {
    geo: &'static Geometry,
    /// Per slot: `EMPTY`, `code(color)`, or `OFF` for the sentinel.
    board: [u8; SLOTS],
    /// `friends[color.index()][cell]`: bit `d` set when the neighbour in
    /// direction `d` holds a stone of that colour.
    friends: [[u8; SLOTS]; 2],
    /// Disjoint-set forest over stones; meaningful for occupied cells only.
    parent: [u16; SLOTS],
    rank: [u8; SLOTS],
    /// Corner and edge bits of each group, valid at its root.
    reach: [u16; SLOTS],
    to_move: Color,
    moves_played: u16,
    stones: u16,
    first_cell: u16,
    last_move: Option<Move>,
    swap_allowed: bool,
    outcome: Option<Outcome>,
    /// Win kinds completed by the winning move (`RING | BRIDGE | FORK`).
    win_kinds: u8,
    hash: u64,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.showboard())
    }
}

impl Position {
    pub const MIN_SIZE: usize = 3;
    pub const MAX_SIZE: usize = 10;

    /// An empty board of side `side`, White to move, swap allowed.
    pub fn new(side: usize) -> Result<Position, BoardSizeError> {
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&side) {
            return Err(BoardSizeError::OutOfRange(side));
        }
        let geo = geometry(side);
        let mut board = [OFF; SLOTS];
        board[..geo.num_cells].fill(EMPTY);
        let mut parent = [0u16; SLOTS];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u16;
        }
        Ok(Position {
            geo,
            board,
            friends: [[0; SLOTS]; 2],
            parent,
            rank: [0; SLOTS],
            reach: [0; SLOTS],
            to_move: Color::White,
            moves_played: 0,
            stones: 0,
            first_cell: 0,
            last_move: None,
            swap_allowed: true,
            outcome: None,
            win_kinds: 0,
            hash: 0,
        })
    }

    #[inline]
    pub fn side(&self) -> usize {
        self.geo.side
    }

    #[inline]
    pub fn num_cells(&self) -> usize {
        self.geo.num_cells
    }

    pub fn set_swap_allowed(&mut self, on: bool) {
        self.swap_allowed = on;
    }

    pub fn swap_allowed(&self) -> bool {
        self.swap_allowed
    }

    /// Whether `swap` is legal now: allowed, and exactly one move played.
    #[inline]
    pub fn can_swap(&self) -> bool {
        self.swap_allowed && self.moves_played == 1 && self.outcome.is_none()
    }

    /// The stone on `c`, if any (`None` also for cells off this board).
    #[inline]
    pub fn color_at(&self, c: Cell) -> Option<Color> {
        match self.board.get(c.0 as usize).copied() {
            Some(x) if x == code(Color::Black) => Some(Color::Black),
            Some(x) if x == code(Color::White) => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `c` is on this board and empty.
    #[inline]
    pub fn is_empty(&self, c: Cell) -> bool {
        (c.0 as usize) < self.geo.num_cells && self.board[c.0 as usize] == EMPTY
    }

    /// `Some(Win(color))`, `Some(Draw)` (full board) or `None` while the
    /// game goes on.
    #[inline]
    pub fn winner(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The structure that won. If one move completed several, the first of
    /// ring, bridge, fork.
    pub fn win_kind(&self) -> Option<WinKind> {
        kinds_to_list(self.win_kinds).first().copied()
    }

    /// Whether the game was won by a ring and nothing else (a move that
    /// closes a ring and makes a bridge or fork at once is not).
    #[inline]
    pub fn won_by_ring_alone(&self) -> bool {
        self.win_kinds == RING
    }

    /// All structures the winning move completed, in the order ring,
    /// bridge, fork (empty unless the game was won).
    pub fn win_kinds(&self) -> Vec<WinKind> {
        kinds_to_list(self.win_kinds)
    }

    /// Moves played so far, the swap included (0 on an empty board).
    #[inline]
    pub fn move_number(&self) -> usize {
        self.moves_played as usize
    }

    /// Stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.stones as usize
    }

    /// The cell of the first move, once played (swapped or not).
    pub fn first_stone(&self) -> Option<Cell> {
        (self.moves_played > 0).then_some(Cell(self.first_cell))
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// All cells of the board, in index order.
    pub fn cells(&self) -> impl DoubleEndedIterator<Item = Cell> + ExactSizeIterator {
        (0..self.geo.num_cells as u16).map(Cell)
    }

    /// The on-board neighbours of `c` (3 at a corner, 4 on an edge, else 6).
    pub fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> {
        let n = self.geo.num_cells;
        let geo: &'static Geometry = self.geo;
        let row: &'static [u16] = match geo.neighbours.get(c.0 as usize) {
            Some(row) if (c.0 as usize) < n => row,
            _ => &[],
        };
        row.iter()
            .filter(move |&&x| (x as usize) < n)
            .map(|&x| Cell(x))
    }

    /// The empty cells as raw indices into `out`; returns how many. The
    /// allocation-free form used by playouts.
    #[inline]
    pub fn empty_cells_into(&self, out: &mut [u16; super::geometry::MAX_CELLS]) -> usize {
        let mut n = 0;
        for (i, &b) in self.board[..self.geo.num_cells].iter().enumerate() {
            out[n] = i as u16;
            n += (b == EMPTY) as usize;
        }
        n
    }

    /// Plays `mv` for the side to move without checks: the caller
    /// guarantees it is legal. The fast path the search and playouts use.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Play(c) => self.play_cell_unchecked(c),
            Move::Swap => self.swap_unchecked(),
        }
    }

    /// Puts a stone of the side to move on the empty cell `c`, updates the
    /// outcome, passes the turn. No checks: playouts call this per move.
    #[inline]
    pub fn play_cell_unchecked(&mut self, c: Cell) {
        let color = self.to_move;
        let kinds = self.place(c.0, color);
        if self.moves_played == 0 {
            self.first_cell = c.0;
        }
        self.moves_played += 1;
        self.last_move = Some(Move::Play(c));
        if kinds != 0 {
            self.outcome = Some(Outcome::Win(color));
            self.win_kinds = kinds;
        } else if self.stones as usize == self.geo.num_cells {
            self.outcome = Some(Outcome::Draw);
        }
        self.to_move = color.opponent();
        self.hash ^= BLACK_TO_MOVE_KEY;
    }

    /// The second player takes over the first stone: it turns Black and
    /// White moves again.
    fn swap_unchecked(&mut self) {
        let c = self.first_cell as usize;
        let (white, black) = (Color::White.index(), Color::Black.index());
        self.board[c] = code(Color::Black);
        for (d, &n) in self.geo.neighbours[c].iter().enumerate() {
            let bit = 1 << opposite(d);
            self.friends[white][n as usize] &= !bit;
            self.friends[black][n as usize] |= bit;
        }
        // A lone stone is its own group; its corner/edge bits stay.
        self.hash ^= self.geo.zobrist[c][white] ^ self.geo.zobrist[c][black];
        self.moves_played += 1;
        self.last_move = Some(Move::Swap);
        self.to_move = Color::White;
        self.hash ^= BLACK_TO_MOVE_KEY;
    }

    /// Places a stone of `color` on the empty cell `c`, joins it to its
    /// friendly neighbours and returns the win kinds it completes (0 for
    /// none). Touches neither the turn nor the outcome, so tests can go on
    /// past a bridge or fork to look for rings. Requires that `color` has
    /// no ring yet (see the module notes).
    pub(super) fn place(&mut self, c: u16, color: Color) -> u8 {
        let geo = self.geo;
        let ci = color.index();
        let cu = c as usize;
        let nb = &geo.neighbours[cu];
        let runs = RUNS[self.friends[ci][cu] as usize];
        let mut kinds = 0;

        // Test 1: two runs of friendly neighbours already in one group.
        let mut roots = [0u16; 3];
        for k in 0..runs.count as usize {
            roots[k] = self.find(nb[runs.first[k] as usize]);
        }
        if runs.count >= 2
            && (roots[0] == roots[1]
                || (runs.count == 3 && (roots[2] == roots[0] || roots[2] == roots[1])))
        {
            kinds |= RING;
        }

        self.board[cu] = code(color);
        for (d, &n) in nb.iter().enumerate() {
            // Off-board neighbours write into the sentinel slot: harmless.
            self.friends[ci][n as usize] |= 1 << opposite(d);
        }

        // Test 2: a neighbour that now has six friendly neighbours.
        let mut centres = runs.triple_centres;
        while centres != 0 && kinds & RING == 0 {
            let d = centres.trailing_zeros() as usize;
            if self.friends[ci][nb[d] as usize] == 0x3F {
                kinds |= RING;
            }
            centres &= centres - 1;
        }

        self.parent[cu] = c;
        self.rank[cu] = 0;
        self.reach[cu] = geo.reach[cu];
        let mut root = c;
        for &r in &roots[..runs.count as usize] {
            root = self.union(root, r);
        }
        let reach = self.reach[root as usize];
        if joins_two_corners(reach) {
            kinds |= BRIDGE;
        }
        if joins_three_edges(reach) {
            kinds |= FORK;
        }
        self.stones += 1;
        self.hash ^= geo.zobrist[cu][ci];
        kinds
    }

    /// Root of `x`'s group, with two-pass iterative path compression (no
    /// recursion: the same loop runs in the GPU kernel).
    #[inline]
    fn find(&mut self, x: u16) -> u16 {
        let mut root = x;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        let mut cur = x;
        while self.parent[cur as usize] != root {
            let next = self.parent[cur as usize];
            self.parent[cur as usize] = root;
            cur = next;
        }
        root
    }

    /// Joins the groups of `a` and `b` by rank, merging their corner and
    /// edge masks; returns the new root.
    #[inline]
    fn union(&mut self, a: u16, b: u16) -> u16 {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return a;
        }
        if self.rank[a as usize] < self.rank[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.reach[a as usize] |= self.reach[b as usize];
        if self.rank[a as usize] == self.rank[b as usize] {
            self.rank[a as usize] += 1;
        }
        a
    }

    /// Whether `c` and `d` hold stones of one group.
    pub fn connected(&mut self, c: Cell, d: Cell) -> bool {
        let (cu, du) = (c.0 as usize, d.0 as usize);
        let n = self.geo.num_cells;
        if cu >= n || du >= n || self.board[cu] == EMPTY || self.board[cu] != self.board[du] {
            return false;
        }
        self.find(c.0) == self.find(d.0)
    }

    pub(super) fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    fn check(&self, mv: Move) -> Result<(), IllegalReason> {
        if self.outcome.is_some() {
            return Err(IllegalReason::GameOver);
        }
        match mv {
            Move::Swap if self.can_swap() => Ok(()),
            Move::Swap => Err(IllegalReason::NotAllowed),
            Move::Play(c) if c.0 as usize >= self.geo.num_cells => Err(IllegalReason::OffBoard),
            Move::Play(c) if self.board[c.0 as usize] != EMPTY => Err(IllegalReason::Occupied),
            Move::Play(_) => Ok(()),
        }
    }
}

fn kinds_to_list(kinds: u8) -> Vec<WinKind> {
    [
        (RING, WinKind::Ring),
        (BRIDGE, WinKind::Bridge),
        (FORK, WinKind::Fork),
    ]
    .into_iter()
    .filter(|&(bit, _)| kinds & bit != 0)
    .map(|(_, k)| k)
    .collect()
}

impl Game for Position {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        out.extend(
            self.cells()
                .filter(|&c| self.board[c.0 as usize] == EMPTY)
                .map(Move::Play),
        );
        if self.can_swap() {
            out.push(Move::Swap);
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove<Move>> {
        self.check(mv)
            .map_err(|reason| IllegalMove { mv, reason })?;
        Position::play_unchecked(self, mv);
        Ok(())
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        Position::play_unchecked(self, mv);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// A Havannah result is final the moment it happens: no dead stones.
    #[inline]
    fn proven_outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Half the search's default UCB term, as on big Go boards, where the
    /// default kept a root of ~170 moves with close RAVE values flat (a
    /// side-8 board has 169 cells; its root spread was not measured). At
    /// 10,000 simulations a move against Castro, side 8, the same seeds, 0.1
    /// won 83 of 100 games and 0 won 82 where 0.2 won 59
    /// (docs/havannah-strength.md). Every side gets it; only side 8 was
    /// measured. 0.1 rather than 0 keeps a term that can correct an early
    /// misjudgement at the larger counts of a timed search.
    fn exploration(&self) -> Option<f64> {
        Some(HAVANNAH_EXPLORATION)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Play(c) => c.0 as usize,
            Move::Swap => self.geo.num_cells,
        }
    }

    #[inline]
    fn move_space(&self) -> usize {
        self.geo.num_cells + 1
    }

    #[inline]
    fn move_cell(&self, mv: Move) -> Option<usize> {
        match mv {
            Move::Play(c) => Some(c.0 as usize),
            Move::Swap => None,
        }
    }

    #[inline]
    fn cell_space(&self) -> usize {
        self.geo.num_cells
    }
}
