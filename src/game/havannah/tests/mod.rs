//! Tests of the Havannah rules: win types (`wins`), coordinates, swap,
//! draws and the game interface (`rules`), random games against the
//! flood-fill reference (`props`), and OpenSpiel's games (`oracle`).

mod oracle;
mod props;
mod rules;
mod wins;

use super::{Cell, Move, Position};
use crate::game::Game;

fn cell(pos: &Position, name: &str) -> Cell {
    pos.parse_cell(name)
        .unwrap_or_else(|| panic!("{name} is not a cell of side {}", pos.side()))
}

/// Plays White's stones in order on a board of `side`, Black answering
/// first with `black` and then with lone interior stones that touch no other
/// stone (they can never win or change White's shapes). Asserts that nobody
/// wins before White's last stone and returns the position after it.
fn white_plays(side: usize, white: &[&str], black: &[&str]) -> Position {
    let mut pos = Position::new(side).unwrap();
    pos.set_swap_allowed(false);
    let white: Vec<Cell> = white.iter().map(|n| cell(&pos, n)).collect();
    let mut black: Vec<Cell> = black.iter().map(|n| cell(&pos, n)).collect();
    black.reverse();
    for (i, &w) in white.iter().enumerate() {
        pos.play(Move::Play(w)).unwrap();
        if i + 1 == white.len() {
            break;
        }
        assert_eq!(pos.winner(), None, "won early, by white stone {i}\n{pos:?}");
        let b = black.pop().unwrap_or_else(|| filler(&pos, &white));
        pos.play(Move::Play(b)).unwrap();
    }
    pos
}

/// An empty cell away from White's planned stones, preferring one that
/// touches no stone at all (a lone stone can never win).
fn filler(pos: &Position, planned: &[Cell]) -> Cell {
    let free = |c: Cell| pos.color_at(c).is_none() && !planned.contains(&c);
    let away = |c: Cell| free(c) && pos.neighbours(c).all(|n| !planned.contains(&n));
    pos.cells()
        .rev()
        .find(|&c| away(c) && pos.neighbours(c).all(free))
        .or_else(|| pos.cells().rev().find(|&c| away(c)))
        .expect("room for a filler stone")
}
