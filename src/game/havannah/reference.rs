//! Slow, plain win checks straight from the definitions, by flood fill over
//! the stones on the board. They share nothing with the incremental
//! detection in `position.rs` but the public board API (not even the corner
//! and edge tables), so tests can prove one against the other. Allocating
//! and slow: compiled for tests only.

use super::{Cell, Position};
use crate::game::Color;
use std::collections::VecDeque;

/// Which winning structures `color` has on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Structures {
    pub ring: bool,
    pub bridge: bool,
    pub fork: bool,
}

impl Structures {
    pub fn any(self) -> bool {
        self.ring || self.bridge || self.fork
    }
}

/// The structures `color` has, found by flood fill.
pub fn structures(pos: &Position, color: Color) -> Structures {
    let (corner, edge) = corners_and_edges(pos);
    let mut s = Structures {
        ring: has_ring(pos, color),
        ..Structures::default()
    };
    let mut seen = vec![false; pos.num_cells()];
    for start in pos.cells() {
        if seen[start.0 as usize] || pos.color_at(start) != Some(color) {
            continue;
        }
        let group = flood(pos, start, |c| pos.color_at(c) == Some(color));
        let mut corners = 0u32;
        let mut edges = 0u32;
        for c in group {
            seen[c.0 as usize] = true;
            if corner[c.0 as usize] {
                corners += 1;
            }
            if let Some(e) = edge[c.0 as usize] {
                edges |= 1 << e;
            }
        }
        s.bridge |= corners >= 2;
        s.fork |= edges.count_ones() >= 3;
    }
    s
}

/// Whether some cell P (of any colour) is cut off from the outside of the
/// board by `color` stones other than P: the definition of a ring, "a loop
/// around at least one cell, whatever it holds".
///
/// One flood fill does it for all P at once. Let `open` be the cells
/// without a `color` stone that reach a border cell through such cells.
/// A cell without a `color` stone is cut off iff it is not open; a `color`
/// stone P, taken away, joins the regions of its neighbours, so it is cut
/// off iff it is not on the border and no neighbour is open.
/// [`has_ring_by_definition`] floods from every P separately; tests check
/// that the two agree.
pub fn has_ring(pos: &Position, color: Color) -> bool {
    let mut open = vec![false; pos.num_cells()];
    for start in pos.cells() {
        if is_border(pos, start) && pos.color_at(start) != Some(color) && !open[start.0 as usize] {
            for c in flood(pos, start, |c| pos.color_at(c) != Some(color)) {
                open[c.0 as usize] = true;
            }
        }
    }
    pos.cells().any(|p| {
        if pos.color_at(p) == Some(color) {
            !is_border(pos, p) && !pos.neighbours(p).any(|n| open[n.0 as usize])
        } else {
            !open[p.0 as usize]
        }
    })
}

/// [`has_ring`] the slow way: a flood fill from every cell. Quadratic.
pub fn has_ring_by_definition(pos: &Position, color: Color) -> bool {
    pos.cells().any(|p| {
        let region = flood(pos, p, |c| c == p || pos.color_at(c) != Some(color));
        !region.iter().any(|&c| is_border(pos, c))
    })
}

/// A cell with fewer than six neighbours touches the outside.
fn is_border(pos: &Position, c: Cell) -> bool {
    pos.neighbours(c).count() < 6
}

/// Per cell: whether it is a corner (three neighbours), and which edge it
/// lies on. Edges are found as the connected pieces of the border once the
/// corners are taken out, so they too come from the board alone.
fn corners_and_edges(pos: &Position) -> (Vec<bool>, Vec<Option<usize>>) {
    let corner: Vec<bool> = pos
        .cells()
        .map(|c| pos.neighbours(c).count() == 3)
        .collect();
    let mut edge = vec![None; pos.num_cells()];
    let mut next = 0;
    for start in pos.cells() {
        let on_edge = |c: Cell| is_border(pos, c) && !corner[c.0 as usize];
        if !on_edge(start) || edge[start.0 as usize].is_some() {
            continue;
        }
        for c in flood(pos, start, on_edge) {
            edge[c.0 as usize] = Some(next);
        }
        next += 1;
    }
    debug_assert!(next == 6 || pos.side() < 3);
    (corner, edge)
}

/// Cells reachable from `start` through cells satisfying `inside` (`start`
/// itself is taken as inside).
fn flood(pos: &Position, start: Cell, inside: impl Fn(Cell) -> bool) -> Vec<Cell> {
    let mut seen = vec![false; pos.num_cells()];
    let mut queue = VecDeque::from([start]);
    let mut out = Vec::new();
    seen[start.0 as usize] = true;
    while let Some(c) = queue.pop_front() {
        out.push(c);
        for n in pos.neighbours(c) {
            if !seen[n.0 as usize] && inside(n) {
                seen[n.0 as usize] = true;
                queue.push_back(n);
            }
        }
    }
    out
}
