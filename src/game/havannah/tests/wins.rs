//! One test per winning structure, plus the shapes that look like one but
//! are not. Every finished shape is also checked against the flood-fill
//! reference.

use super::{cell, white_plays};
use crate::game::havannah::{reference, Position, WinKind};
use crate::game::{Color, Outcome};

/// The six neighbours of h8 on side 8, going round.
const AROUND_H8: [&str; 6] = ["g7", "g8", "h9", "i9", "i8", "h7"];

fn assert_white_wins(pos: &Position, kinds: &[WinKind]) {
    assert_eq!(pos.winner(), Some(Outcome::Win(Color::White)), "\n{pos:?}");
    assert_eq!(pos.win_kinds(), kinds, "\n{pos:?}");
    assert_eq!(pos.win_kind(), kinds.first().copied());
    let s = reference::structures(pos, Color::White);
    assert_eq!(
        (s.ring, s.bridge, s.fork),
        (
            kinds.contains(&WinKind::Ring),
            kinds.contains(&WinKind::Bridge),
            kinds.contains(&WinKind::Fork)
        ),
        "reference disagrees\n{pos:?}"
    );
    assert!(!reference::structures(pos, Color::Black).any());
}

fn assert_nobody_won(pos: &Position) {
    assert_eq!(pos.winner(), None, "\n{pos:?}");
    assert!(!reference::structures(pos, Color::White).any(), "\n{pos:?}");
    assert!(!reference::structures(pos, Color::Black).any(), "\n{pos:?}");
}

/// Names of the cells at hex distance `r` from `centre`.
fn circle(pos: &Position, centre: &str, r: usize) -> Vec<String> {
    let (cy, cx) = pos.cell_coords(cell(pos, centre));
    pos.cells()
        .filter(|&c| {
            let (y, x) = pos.cell_coords(c);
            let (dx, dy) = (x as i64 - cx as i64, y as i64 - cy as i64);
            dx.abs().max(dy.abs()).max((dx - dy).abs()) == r as i64
        })
        .map(|c| pos.cell_name(c))
        .collect()
}

#[test]
fn ring_around_an_empty_cell() {
    let pos = white_plays(8, &AROUND_H8, &[]);
    assert_white_wins(&pos, &[WinKind::Ring]);
    assert_eq!(pos.color_at(cell(&pos, "h8")), None);
}

#[test]
fn ring_around_an_opponent_stone() {
    let pos = white_plays(8, &AROUND_H8, &["h8"]);
    assert_white_wins(&pos, &[WinKind::Ring]);
    assert_eq!(pos.color_at(cell(&pos, "h8")), Some(Color::Black));
}

#[test]
fn ring_around_an_own_stone_closed_from_every_side() {
    // The paper's case: the centre is already White, so the last ring stone
    // has one run of three friendly neighbours and only the "neighbour
    // with five friendly neighbours" test sees the ring.
    for last in 0..6 {
        let mut order: Vec<&str> = (1..6).map(|k| AROUND_H8[(last + k) % 6]).collect();
        order.insert(2, "h8");
        order.push(AROUND_H8[last]);
        let pos = white_plays(8, &order, &[]);
        assert_white_wins(&pos, &[WinKind::Ring]);
    }
}

#[test]
fn ring_around_several_cells_of_mixed_contents() {
    let pos = Position::new(8).unwrap();
    let mut white: Vec<String> = vec!["h8".into()];
    white.extend(circle(&pos, "h8", 2));
    let white: Vec<&str> = white.iter().map(String::as_str).collect();
    assert_eq!(white.len(), 13);
    let pos = white_plays(8, &white, &["i9", "g7"]);
    assert_white_wins(&pos, &[WinKind::Ring]);
}

#[test]
fn triangle_of_ten_stones_encloses_its_centre() {
    // Cells (5+i, 5+j), 0 <= j <= i <= 3: the centre (7, 6) is g8, and its
    // six neighbours are all in the triangle.
    let pos = Position::new(8).unwrap();
    let name = |x: usize, y: usize| pos.cell_name(pos.cell(y, x + 1).unwrap());
    let corners = [name(5, 5), name(8, 5), name(8, 8)];
    let centre = name(7, 6);
    let mut ring: Vec<String> = Vec::new();
    for j in 0..=3 {
        for i in j..=3 {
            let n = name(5 + i, 5 + j);
            if !corners.contains(&n) && n != centre {
                ring.push(n);
            }
        }
    }
    assert_eq!(ring.len(), 6);
    for centre_first in [false, true] {
        let mut order: Vec<&str> = corners.iter().map(String::as_str).collect();
        if centre_first {
            order.push(&centre);
        }
        order.extend(ring.iter().map(String::as_str));
        let pos = white_plays(8, &order, &[]);
        assert_white_wins(&pos, &[WinKind::Ring]);
        assert_eq!(pos.color_at(cell(&pos, &centre)).is_some(), centre_first);
    }
}

#[test]
fn rings_along_the_edge() {
    // Around b2, through corner a1 and edge cells a2 and b1.
    let pos = white_plays(8, &["a1", "a2", "b3", "c3", "c2", "b1"], &[]);
    assert_white_wins(&pos, &[WinKind::Ring]);
    // Around b4 and b5, the top edge carrying half the loop.
    let pos = white_plays(8, &["a3", "a4", "a5", "b6", "c6", "c5", "c4", "b3"], &[]);
    assert_white_wins(&pos, &[WinKind::Ring]);
}

#[test]
fn bridges() {
    // Along the top edge: two corners, one edge.
    let row_a: Vec<String> = (1..=8).map(|d| format!("a{d}")).collect();
    let row_a: Vec<&str> = row_a.iter().map(String::as_str).collect();
    assert_white_wins(&white_plays(8, &row_a, &[]), &[WinKind::Bridge]);
    // Straight through the centre, a1 to o15.
    let pos = Position::new(8).unwrap();
    let diagonal: Vec<String> = (0..15)
        .map(|k| pos.cell_name(pos.cell(k, k + 1).unwrap()))
        .collect();
    let diagonal: Vec<&str> = diagonal.iter().map(String::as_str).collect();
    assert_eq!(diagonal[14], "o15");
    assert_white_wins(&white_plays(8, &diagonal, &[]), &[WinKind::Bridge]);
}

#[test]
fn fork() {
    // Diagonal 4 from the top edge (a4) to the lower-left edge (k4), then
    // row f out to the upper-right edge (f13).
    let mut white: Vec<String> = (0..=10)
        .map(|y| format!("{}4", (b'a' + y) as char))
        .collect();
    white.extend((5..=13).map(|d| format!("f{d}")));
    let white: Vec<&str> = white.iter().map(String::as_str).collect();
    assert_white_wins(&white_plays(8, &white, &[]), &[WinKind::Fork]);
}

#[test]
fn corners_belong_to_no_edge() {
    // Side 5: from corner a1 down the long diagonal to the bottom edge (i8)
    // with a branch to the right edge (f9). a1 lies where the top and left
    // edges meet; counting it as an edge would make this a fork.
    let chain = [
        "a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i8", "e6", "e7", "e8", "f9",
    ];
    let mut pos = white_plays(5, &chain, &[]);
    assert_nobody_won(&pos);
    // A real third edge, b1 on the left, makes the fork.
    let mut with_left_edge = chain.to_vec();
    with_left_edge.push("b1");
    pos = white_plays(5, &with_left_edge, &[]);
    assert_white_wins(&pos, &[WinKind::Fork]);
}

#[test]
fn one_move_can_complete_several_structures() {
    // Corner a1 closes a loop around b2 whose other end already runs along
    // the top edge to corner a8: a ring and a bridge at once.
    let white = [
        "a8", "a7", "a6", "a5", "a4", "a3", "a2", "b3", "c3", "c2", "b1", "a1",
    ];
    let pos = white_plays(8, &white, &[]);
    assert_white_wins(&pos, &[WinKind::Ring, WinKind::Bridge]);
}

#[test]
fn shapes_that_are_not_rings() {
    let play = |white: &[&str], black: &[&str]| {
        let mut all = white.to_vec();
        // One more White stone far away, so the shape itself is tested
        // before the last stone and the last stone changes nothing.
        all.push("o15");
        white_plays(8, &all, black)
    };
    // Five of the six neighbours of h8.
    assert_nobody_won(&play(&AROUND_H8[..5], &[]));
    // All six but one of them is Black.
    assert_nobody_won(&play(&AROUND_H8[1..], &["g7"]));
    // A triangle and a rhombus of mutually adjacent stones enclose nothing.
    assert_nobody_won(&play(&["h8", "h9", "i9"], &[]));
    assert_nobody_won(&play(&["d4", "d5", "e5", "e6"], &[]));
    // A filled two-row band: every cell touches something outside it.
    assert_nobody_won(&play(
        &["h8", "h9", "h10", "h11", "i9", "i10", "i11", "i12"],
        &[],
    ));
    // A half ring against the edge: a2's on-board neighbours are all White,
    // but a2 touches the outside of the board.
    assert_nobody_won(&play(&["a1", "b2", "b3", "a3"], &[]));
}
