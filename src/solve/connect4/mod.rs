//! The Connect Four solver: negamax with alpha-beta on bitboards, a shared
//! transposition table of bounds, centre-first and threat-count move
//! ordering, moves that lose at once never searched, and null-window
//! searches that narrow the score down (the techniques of Pons' tutorial
//! and Tromp's Fhourstones, written anew here); a position and its mirror
//! image share one table entry.
//!
//! Scores follow Pons' convention, generalised to any board of `C` cells:
//! the side that makes four with a stone played when `m` stones were on
//! the board scores `(C + 1 - m) / 2` (on 7x6: 22 minus the winner's
//! stones at the end), the loser the negative, a draw 0; a position's score
//! is that of perfect play for the side to move.

mod board;
pub mod book;
pub mod book_build;
pub mod build;
mod busy;
pub mod cli;
mod table;
/// The score of winning with the next stone: Pons' convention, one more
/// than half the empty cells left after it.
pub(crate) fn win_in_one(pos: &Position) -> i32 {
    (pos.shape().cells() as i32 + 1 - pos.moves() as i32) / 2
}

/// Each column's score for the side to move (`None`: the column is full):
/// `win` for a stone that wins at once, else minus `child`'s score of the
/// position after it. `None` for a finished game, or as soon as `child`
/// gives none (a stopped search, a position a database lacks).
pub(crate) fn column_scores(
    pos: &Position,
    win: i32,
    mut child: impl FnMut(&Position) -> Option<i32>,
) -> Option<Vec<Option<i32>>> {
    use crate::game::Game;
    if pos.outcome().is_some() {
        return None;
    }
    let mut scores = vec![None; pos.width()];
    for (c, score) in scores.iter_mut().enumerate() {
        if !pos.can_play(c) {
            continue;
        }
        if pos.is_winning_move(c) {
            *score = Some(win);
            continue;
        }
        let mut next = *pos;
        next.play_column(c);
        *score = Some(-child(&next)?);
    }
    Some(scores)
}

#[cfg(test)]
mod tests;

pub use table::{Bound, Slot, Table};

use board::Board;
use busy::Busy;

use crate::game::connect4::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1 << 14;

/// The columns from the centre outwards: on 7 columns 3 2 4 1 5 0 6.
pub fn centre_order(width: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..width).collect();
    let centre2 = width as i64 - 1; // twice the centre, to stay integral
    order.sort_by_key(|&c| ((2 * c as i64 - centre2).abs(), c));
    order
}

/// The widest score interval (`max - min`) in which the root's probes turn
/// to 0: on the empty 7x6 board after Pons' first four (-10, 10, -4, 5),
/// which are cheap. At 20 (after two) that board took 5% fewer nodes, but
/// Pons' test sets with larger scores got up to 1.6x slower.
const NEAR_ZERO: i32 = 8;

/// The order of the root's null-window probes. Pons' bisection moves each
/// probe halfway towards 0, so a position whose score is near 0 costs
/// probes on both sides of it (the empty 7x6 board: -4, 5, 2, -1, 1, 0);
/// once the interval is narrow, probing 0 first and then stepping away
/// from it (1, 2, 4, ... from the bound found) proves a small score with
/// two probes. Far from 0 Pons' order stays: his wide first probes are
/// cheap, and a test set of large scores took 10x the time from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probes {
    /// Pons' bisection.
    Pons,
    /// The next probe is 0.
    Zero,
    /// Stepping away from 0, upwards or downwards, `k` probes so far.
    Gallop { up: bool, k: u32 },
}

impl Probes {
    /// The next probe `med` (the window `med..med + 1`) in `min..max`.
    fn next(self, min: i32, max: i32) -> i32 {
        match self {
            Probes::Zero => 0,
            Probes::Gallop { up: true, k } => (min + (1 << k) - 1).min(max - 1),
            Probes::Gallop { up: false, k } => (max - (1 << k)).max(min),
            Probes::Pons => {
                let med = min + (max - min) / 2;
                if med <= 0 && min / 2 < med {
                    min / 2
                } else if med >= 0 && max / 2 > med {
                    max / 2
                } else {
                    med
                }
            }
        }
    }

    /// The order after a probe that raised the lower bound (`up`) or
    /// lowered the upper one: a turn back ends the stepping.
    fn after(self, up: bool) -> Probes {
        match self {
            Probes::Zero => Probes::Gallop { up, k: 0 },
            Probes::Gallop { up: side, k } if side == up && k < 16 => {
                Probes::Gallop { up, k: k + 1 }
            }
            _ => Probes::Pons,
        }
    }
}

/// The fewest empty cells at which threads put off each other's moves
/// (below, a subtree is too small to be worth the shared marks). On the
/// empty 7x6 board with two threads 14, 20, 24 and 28 were alike (within
/// the spread of runs), 8 slower.
const SHARE_MIN_EMPTY: i32 = 20;

/// One search's state. Several solvers may share one [`Table`].
pub struct Solver<'a> {
    table: &'a Table,
    busy: Option<&'a Busy>,
    /// Positions searched so far.
    pub nodes: u64,
    order: Vec<usize>,
    stop: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    aborted: bool,
}

impl<'a> Solver<'a> {
    pub fn new(table: &'a Table, width: usize) -> Solver<'a> {
        Solver {
            table,
            busy: None,
            nodes: 0,
            order: centre_order(width),
            stop: None,
            deadline: None,
            aborted: false,
        }
    }

    /// Puts off the moves other threads with the same `busy` search now.
    pub fn with_busy(mut self, busy: &'a Busy) -> Self {
        self.busy = Some(busy);
        self
    }

    /// Stops (and answers `None`) when `stop` is raised.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Stops (and answers `None`) at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// The exact score of `pos` for the side to move (`weak`: only its
    /// sign, -1, 0 or 1); `None` for a finished game or a stopped search.
    pub fn solve(&mut self, pos: &Position, weak: bool) -> Option<i32> {
        use crate::game::Game;
        if pos.outcome().is_some() || self.aborted {
            return None;
        }
        board::dispatch!(pos, |W, H| self.solve_board(Board::<W, H>::new(pos), weak))
    }

    fn solve_board<const W: usize, const H: usize>(
        &mut self,
        board: Board<W, H>,
        weak: bool,
    ) -> Option<i32> {
        let cells = Board::<W, H>::CELLS;
        let n = board.moves();
        if board.can_win_next() {
            return Some(if weak { 1 } else { (cells + 1 - n) / 2 });
        }
        let mut order = [0u64; 8];
        for (mask, &c) in order.iter_mut().zip(&self.order) {
            *mask = Board::<W, H>::column_mask(c);
        }
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (-(cells - n) / 2, (cells + 1 - n) / 2)
        };
        let mut probes = Probes::Pons;
        while min < max {
            let near = max - min <= NEAR_ZERO;
            if near && probes == Probes::Pons && min <= 0 && 0 < max {
                probes = Probes::Zero;
            }
            let med = probes.next(min, max);
            let nodes = self.nodes;
            let r = self.negamax(&board, &order, med, med + 1);
            if self.aborted {
                return None;
            }
            tracing::trace!(med, r, nodes = self.nodes - nodes, "probe");
            let up = r > med;
            if up {
                min = r;
            } else {
                max = r;
            }
            probes = probes.after(up);
        }
        // A weak search's bounds can land beyond its window of -1..1.
        Some(if weak { min.signum() } else { min })
    }

    /// The score of playing each column (`None`: the column is full), as
    /// [`solve`](Self::solve) gives them for the side to move now;
    /// `None` for a finished game or a stopped search.
    pub fn analyze(&mut self, pos: &Position, weak: bool) -> Option<Vec<Option<i32>>> {
        let win = if weak { 1 } else { win_in_one(pos) };
        column_scores(pos, win, |child| self.solve(child, weak))
    }

    /// A column that wins for the side to move: `Some(Some(c))`, a stone
    /// that makes four at once or else the first column from the centre
    /// proved to win; `Some(None)` when the position is no win; `None` for
    /// a finished game or a stopped search. One null-window proof of the
    /// position (win or not), then the children from the centre until one
    /// is proved lost for the opponent: the position's proof left most of
    /// their bounds in the table. Cheaper than [`analyze`](Self::analyze),
    /// which narrows every column's exact score down.
    pub fn winning_move(&mut self, pos: &Position) -> Option<Option<usize>> {
        use crate::game::Game;
        if pos.outcome().is_some() {
            return None;
        }
        let order = centre_order(pos.width());
        let playable = |c: &usize| pos.can_play(*c);
        if let Some(c) = order
            .iter()
            .copied()
            .filter(playable)
            .find(|&c| pos.is_winning_move(c))
        {
            return Some(Some(c));
        }
        if self.solve(pos, true)? < 1 {
            return Some(None);
        }
        for c in order.into_iter().filter(playable) {
            let mut child = *pos;
            child.play_column(c);
            // A full board (a draw) gives `None` without stopping.
            match self.solve(&child, true) {
                Some(-1) => return Some(Some(c)),
                None if self.aborted => return None,
                _ => {}
            }
        }
        // Unreachable while the solver is right: the position is a win.
        Some(None)
    }

    fn should_stop(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The score of `board` if it lies in `(alpha, beta)`; otherwise a
    /// bound on the far side of the window. The side to move must not be
    /// able to win at once. `order` holds the columns' masks, centre first.
    fn negamax<const W: usize, const H: usize>(
        &mut self,
        board: &Board<W, H>,
        order: &[u64; 8],
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.should_stop() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let cells = Board::<W, H>::CELLS;
        let n = board.moves();
        let next = board.non_losing_moves();
        if next == 0 {
            // Every move lets the opponent make four with its next stone.
            return -(cells - n) / 2;
        }
        if n >= cells - 2 {
            // Neither of the last two stones can make four (see above).
            return 0;
        }
        // The opponent cannot win with its next stone: the best it can do
        // is win with the one after.
        let min = -(cells - 2 - n) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        // Allis' zugzwang rules (see `Board`), on boards of even height:
        // bounds without a search. With the second player to move, an odd
        // threat of the first wins for the first (a score of at most
        // `-win`); with the first to move, a stone that makes one wins.
        // Claimeven holds the first player to 0 at best, with it to move or
        // after one stone of the second. They are what brings the empty
        // 7x6 board's proof down from 1.1 G nodes to 0.14 G
        // (docs/connect4.md). The bounds that reach `H / 2` are the largest
        // they give, so windows beyond skip them.
        if n % 2 == 1 && beta > -(H as i32 + 1) / 2 {
            let win = board.odd_threat_win();
            if win > 0 {
                if alpha >= -win {
                    return -win;
                }
                beta = beta.min(-win);
            }
        }
        if n % 2 == 0 && alpha < (H as i32 + 1) / 2 {
            let win = board.odd_threat_move();
            if win > 0 {
                if win >= beta {
                    return win;
                }
                alpha = alpha.max(win);
            }
        }
        if alpha < 0 && board.claimeven_reply() {
            if beta <= 0 {
                return 0;
            }
            alpha = 0;
        }
        let mut max = (cells - 1 - n) / 2;
        if beta > 0 && board.claimeven_holds() {
            if alpha >= 0 {
                return 0;
            }
            max = 0;
        }
        let (key, mirrored) = board.canonical_key();
        let slot = self.table.slot(key);
        // A column as the table holds it (mirrored with the key), and back.
        let flip = |c: usize| if mirrored { W - 1 - c } else { c };
        // The move that proved a lower bound before, tried first: the
        // null-window searches go over the same tree again and again.
        let mut first = 0u64;
        match self.table.probe(slot) {
            Some((Bound::Upper(v), _)) => max = max.min(v),
            Some((Bound::Lower(v), column)) => {
                if alpha < v {
                    alpha = v;
                    if alpha >= beta {
                        return alpha;
                    }
                }
                first = column.map_or(0, |c| next & Board::<W, H>::column_mask(flip(c)));
            }
            None => {}
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }

        // Moves that make the most threats first; ties centre first.
        let mut moves = [(0u64, 0u32); 8];
        let mut count = 0;
        for &column in &order[..W] {
            let cell = next & column;
            if cell != 0 {
                let threats = if cell == first {
                    u32::MAX
                } else {
                    board.threats_after(cell)
                };
                let mut i = count;
                while i > 0 && moves[i - 1].1 < threats {
                    moves[i] = moves[i - 1];
                    i -= 1;
                }
                moves[i] = (cell, threats);
                count += 1;
            }
        }
        // The moves in order, then those put off because another thread
        // was searching them (never the first: see `busy`).
        let mut list = [0u64; 16];
        for (to, &(cell, _)) in list.iter_mut().zip(&moves[..count]) {
            *to = cell;
        }
        let busy = self.busy.filter(|_| cells - n >= SHARE_MIN_EMPTY);
        let (mut i, mut end) = (0, count);
        while i < end {
            let cell = list[i];
            i += 1;
            let mut child = *board;
            child.advance(cell);
            let score = match busy {
                None => -self.negamax(&child, order, -beta, -alpha),
                Some(busy) => {
                    let key = child.canonical_key().0;
                    if 1 < i && i <= count && busy.is_busy(key) {
                        list[end] = cell;
                        end += 1;
                        continue;
                    }
                    let marked = busy.enter(key);
                    let score = -self.negamax(&child, order, -beta, -alpha);
                    if marked {
                        busy.leave(key);
                    }
                    score
                }
            };
            if self.aborted {
                return 0;
            }
            if score >= beta {
                let column = Board::<W, H>::column_of(cell);
                self.table.store(slot, Bound::Lower(score), flip(column));
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put_at(slot, Bound::Upper(alpha));
        alpha
    }
}

/// The exact score of `pos` (as [`Solver::solve`]) found by `threads`
/// searches sharing `table` and a list of the positions each is inside
/// now (`busy.rs`, simplified ABDADA): each
/// puts off the moves another is searching, so they fill the table from
/// different subtrees; the first to finish answers and stops the others (a
/// stopped search stores nothing, so the table holds only proved bounds).
/// The nodes of all.
pub fn solve_shared(
    table: &Table,
    pos: &Position,
    weak: bool,
    threads: usize,
) -> (Option<i32>, u64) {
    let width = pos.width();
    if threads <= 1 {
        let mut solver = Solver::new(table, width);
        let score = solver.solve(pos, weak);
        return (score, solver.nodes);
    }
    let done = AtomicBool::new(false);
    let busy = Busy::default();
    let answer = std::sync::Mutex::new(None);
    let nodes = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (done, answer, nodes, busy) = (&done, &answer, &nodes, &busy);
            scope.spawn(move || {
                let mut solver = Solver::new(table, width).with_stop(done).with_busy(busy);
                let score = solver.solve(pos, weak);
                nodes.fetch_add(solver.nodes, Ordering::Relaxed);
                if let Some(score) = score {
                    answer.lock().unwrap().get_or_insert(score);
                    done.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    let score = answer.into_inner().unwrap();
    (score, nodes.into_inner())
}

/// A score as words for the side to move after `moves` stones on a board
/// of `cells` cells: `win in k` (its k-th stone from now makes four),
/// `loss in k` (the opponent's k-th stone does), or `draw`.
pub fn describe(score: i32, cells: u32, moves: u32) -> String {
    let (c, n) = (cells as i32, moves as i32);
    // The stones before the winning one, `m`, has the winner's parity and
    // `(c + 1 - m) / 2 == |score|`.
    let before_win = |parity: i32| {
        let m = c + 1 - 2 * score.abs();
        if (m - parity).rem_euclid(2) == 0 {
            m
        } else {
            m - 1
        }
    };
    match score.cmp(&0) {
        std::cmp::Ordering::Equal => "draw".to_string(),
        std::cmp::Ordering::Greater => format!("win in {}", (before_win(n) - n) / 2 + 1),
        std::cmp::Ordering::Less => {
            format!("loss in {}", (before_win(n + 1) - n - 1) / 2 + 1)
        }
    }
}
