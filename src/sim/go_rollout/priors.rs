//! Priors for tree expansion, michi style: every move starts even, then
//! captures, ladder captures, atari escapes that no ladder catches, 3x3
//! patterns and closeness to the last move add virtual wins; self-atari
//! and early first/second-line moves in empty areas add virtual losses.
//! Values are from the mover's point of view.
//!
//! Boards of [`BIG_BOARD_LINES`] lines and more also get a progressive bias
//! (`Prior::bias`) from the same knowledge, a stronger penalty for lonely
//! first/second-line moves in the opening and a bonus for the third and
//! fourth lines there: MoGo, Fuego and Pachi all play the big board's
//! opening from such knowledge, and without it the search opened with
//! second-line moves everywhere (`docs/go-big-boards.md`). Smaller boards
//! get exactly the priors they had.

use super::ladder::LadderReader;
use super::patterns;
use crate::game::go::board::{other, stone, Board, BLACK, EMPTY, MAX_CELLS, WHITE};
use crate::game::go::{Move, Position, BIG_BOARD_LINES};
use crate::game::Game;
use crate::sim::Prior;

// ---- Tuning constants (in virtual playouts) ----

/// Every move starts at 50% over this many visits, so one lucky playout
/// does not dominate a fresh node.
const PRIOR_EVEN: f32 = 10.0;
/// Virtual wins for capturing a lone stone / a chain of two or more.
const PRIOR_CAPTURE_ONE: f32 = 15.0;
const PRIOR_CAPTURE_MANY: f32 = 30.0;
/// Virtual wins for saving an own chain in atari by extending.
const PRIOR_ESCAPE: f32 = 20.0;
/// Virtual wins for matching a 3x3 playout pattern.
const PRIOR_PATTERN: f32 = 10.0;
/// Virtual losses for putting one's own chain in atari.
const PRIOR_SELF_ATARI: f32 = 10.0;
/// Virtual wins by Manhattan distance 1, 2, 3 from the last move (local
/// answers are usually urgent).
const PRIOR_NEAR_LAST: [f32; 3] = [24.0, 22.0, 8.0];
/// In an empty area (no stone within `EMPTY_AREA_RADIUS`), virtual losses
/// on the first and second lines, virtual wins on the third.
const PRIOR_EMPTY_AREA: f32 = 10.0;
const EMPTY_AREA_RADIUS: isize = 3;
/// Virtual losses for passing while more than half the board is open to
/// play (legal moves that fill no own eye) and the opponent has not just
/// passed. On an empty 19x19 board a short search (0.3 s on two cores,
/// about 20 playouts a move) otherwise passed in 5 of 6 runs: an even
/// prior and noise were enough.
const PRIOR_EARLY_PASS: f32 = 30.0;

// ---- Big boards only ----

/// Progressive bias per net virtual win of a move's prior (its virtual
/// wins minus half its virtual visits): a capture of a chain (+15 net)
/// starts 0.3 above its siblings, a lonely edge move (-20 net) 0.4 below.
const BIAS_PER_NET_WIN: f32 = 0.02;
/// The opening, for the big-board rules: fewer stones on the board than
/// the points divided by this (45 on 19x19, 21 on 13x13).
const OPENING_STONE_DIVISOR: usize = 8;
/// Virtual losses in the opening for a first/second-line move with no
/// opponent stone within Manhattan distance [`LONELY_RADIUS`]: such a move
/// neither attacks nor answers anything, and it builds little.
const PRIOR_LONELY_EDGE: f32 = 40.0;
const LONELY_RADIUS: isize = 2;
/// Virtual losses in the opening for any other first- or second-line move.
const PRIOR_FIRST_LINE: f32 = 20.0;
const PRIOR_SECOND_LINE: f32 = 10.0;
/// Virtual wins in the opening for a third- or fourth-line move in an
/// empty area (no stone within `EMPTY_AREA_RADIUS`).
const PRIOR_THIRD_FOURTH: f32 = 10.0;

/// One prior per entry of `moves`, for the side to move in `pos`.
pub(super) fn priors(pos: &Position, moves: &[Move], out: &mut Vec<Prior>) {
    out.clear();
    let board = pos.board();
    let color = stone(pos.to_move());
    let tactics = tactical_bonus(board, color);
    let last = match pos.last_move() {
        Some(Move::Play(p)) => Some(board.coords(p.0 as usize)),
        _ => None,
    };
    let open = moves.iter().filter(|&&mv| mv != Move::Pass).count();
    let early = 2 * open > board.size() * board.size() && pos.last_move() != Some(Move::Pass);
    let size = board.size();
    let big = size >= BIG_BOARD_LINES;
    let stones = size * size - board.empty_count();
    let opening = big && stones * OPENING_STONE_DIVISOR < size * size;
    for &mv in moves {
        let mut prior = Prior {
            wins: PRIOR_EVEN / 2.0,
            visits: PRIOR_EVEN,
            bias: 0.0,
            ..Prior::default()
        };
        let Move::Play(point) = mv else {
            if early {
                prior.visits += PRIOR_EARLY_PASS;
            }
            if early && opening {
                // Worse than the worst move: a lonely edge move.
                prior.visits += PRIOR_LONELY_EDGE;
            }
            if big {
                prior.bias = net_bias(&prior);
            }
            out.push(prior);
            continue;
        };
        if !pos.is_on_board(point) || board.cell(point.0 as usize) != EMPTY {
            out.push(prior);
            continue;
        }
        let p = point.0 as usize;
        let mut reward = |amount: f32| {
            prior.wins += amount;
            prior.visits += amount;
        };
        reward(tactics[p]);
        if patterns::matches(board, p) {
            reward(PRIOR_PATTERN);
        }
        let (col, row) = board.coords(p);
        let line = col.min(row).min(size - 1 - col).min(size - 1 - row);
        if let Some((last_col, last_row)) = last {
            let distance = col.abs_diff(last_col) + row.abs_diff(last_row);
            // In a big board's opening a low move gets no local bonus:
            // with it the search undercut at once and crawled along the
            // second line under the opponent's wall (13x13 against GNU
            // Go). Captures and escapes there still get theirs.
            let low = opening && line <= 1;
            if (1..=PRIOR_NEAR_LAST.len()).contains(&distance) && !low {
                reward(PRIOR_NEAR_LAST[distance - 1]);
            }
        }
        if board.is_self_atari(color, p) {
            prior.visits += PRIOR_SELF_ATARI;
        }
        let empty_area = is_empty_area(board, col, row);
        if opening {
            if line <= 1 && !enemy_within(board, color, col, row, LONELY_RADIUS) {
                prior.visits += PRIOR_LONELY_EDGE;
            } else if line == 0 {
                prior.visits += PRIOR_FIRST_LINE;
            } else if line == 1 {
                prior.visits += PRIOR_SECOND_LINE;
            } else if empty_area && (line == 2 || line == 3) {
                prior.wins += PRIOR_THIRD_FOURTH;
                prior.visits += PRIOR_THIRD_FOURTH;
            }
        } else if empty_area {
            match line {
                0 | 1 => prior.visits += PRIOR_EMPTY_AREA,
                2 => {
                    prior.wins += PRIOR_EMPTY_AREA;
                    prior.visits += PRIOR_EMPTY_AREA;
                }
                _ => {}
            }
        }
        if big {
            prior.bias = net_bias(&prior);
        }
        out.push(prior);
    }
}

/// The progressive bias of a big board's prior: its virtual wins beyond
/// an even share of its virtual visits, [`BIAS_PER_NET_WIN`] each.
fn net_bias(prior: &Prior) -> f32 {
    BIAS_PER_NET_WIN * (prior.wins - prior.visits / 2.0)
}

/// Per cell: the reward for capturing there (largest victim wins), for
/// starting a ladder that captures, or for extending an own chain out of
/// atari there when the extension is not caught in a ladder
/// (`ladder.rs`).
fn tactical_bonus(board: &Board, color: u8) -> [f32; MAX_CELLS] {
    let enemy = other(color);
    let mut bonus = [0f32; MAX_CELLS];
    let mut seen = [false; MAX_CELLS];
    let mut ladders = LadderReader::new();
    let capture_reward = |p: usize| {
        if board.chain_size(p) == 1 {
            PRIOR_CAPTURE_ONE
        } else {
            PRIOR_CAPTURE_MANY
        }
    };
    for p in board.points() {
        let cell = board.cell(p);
        if cell != BLACK && cell != WHITE {
            continue;
        }
        let head = board.chain_head(p);
        if seen[head] {
            continue;
        }
        seen[head] = true;
        let (liberty, reward) = match board.atari_liberty(p) {
            Some(liberty) if cell == enemy => (liberty, capture_reward(p)),
            Some(liberty) => {
                let saved =
                    !board.is_self_atari(color, liberty) && ladders.extension_escapes(board, p);
                (liberty, if saved { PRIOR_ESCAPE } else { 0.0 })
            }
            None if cell == enemy => match ladders.capture_move(board, p) {
                Some(liberty) => (liberty, capture_reward(p)),
                None => continue,
            },
            None => continue,
        };
        bonus[liberty] = bonus[liberty].max(reward);
    }
    bonus
}

/// No stone within Manhattan distance `EMPTY_AREA_RADIUS` of (col, row).
fn is_empty_area(board: &Board, col: usize, row: usize) -> bool {
    !any_within(board, col, row, EMPTY_AREA_RADIUS, |cell| cell != EMPTY)
}

/// A stone of `color`'s opponent within Manhattan distance `radius`.
fn enemy_within(board: &Board, color: u8, col: usize, row: usize, radius: isize) -> bool {
    let enemy = other(color);
    any_within(board, col, row, radius, |cell| cell == enemy)
}

/// Some cell within Manhattan distance `r` of (col, row) passes `test`.
fn any_within(board: &Board, col: usize, row: usize, r: isize, test: impl Fn(u8) -> bool) -> bool {
    let size = board.size() as isize;
    for dy in -r..=r {
        let span = r - dy.abs();
        for dx in -span..=span {
            let (c, w) = (col as isize + dx, row as isize + dy);
            if c < 0 || w < 0 || c >= size || w >= size {
                continue;
            }
            if test(board.cell(board.point_at(c as usize, w as usize))) {
                return true;
            }
        }
    }
    false
}
