//! Hex rules: edges, neighbours, the win test, the swap, names.

use super::*;
use crate::game::rng::FastRng;
use proptest::prelude::*;

fn at(pos: &Position, name: &str) -> Move {
    Move::Play(pos.parse_cell(name).unwrap())
}

fn play_all(pos: &mut Position, names: &[&str]) {
    for name in names {
        let mv = if *name == "swap" {
            Move::Swap
        } else {
            at(pos, name)
        };
        pos.play(mv).unwrap();
    }
}

/// Who has connected their edges on a full board, by a flood fill from
/// Black's top row: the forest's answer must match it.
fn flood_winner(pos: &Position) -> Color {
    let n = pos.size();
    let mut seen = vec![false; n * n];
    let mut stack: Vec<Cell> = (0..n)
        .filter_map(|c| pos.cell(c, 0))
        .filter(|&c| pos.color_at(c) == Some(Color::Black))
        .collect();
    let mut around = [Cell(0); 6];
    while let Some(c) = stack.pop() {
        if std::mem::replace(&mut seen[c.0 as usize], true) {
            continue;
        }
        if pos.coords(c).1 == n - 1 {
            return Color::Black;
        }
        let k = pos.neighbours(c, &mut around);
        stack.extend(
            around[..k]
                .iter()
                .filter(|&&m| pos.color_at(m) == Some(Color::Black)),
        );
    }
    Color::White
}

#[test]
fn sizes_and_names() {
    assert!(Position::new(0).is_err());
    assert!(Position::new(20).is_err());
    let pos = Position::new(11).unwrap();
    assert_eq!(pos.num_cells(), 121);
    let k11 = pos.parse_cell("K11").unwrap();
    assert_eq!(pos.coords(k11), (10, 10));
    assert_eq!(pos.cell_name(k11), "k11");
    assert_eq!(pos.cell_name(pos.parse_cell("a1").unwrap()), "a1");
    for bad in ["l1", "a12", "a0", "1a", "a", "", "a1x", "a-1", "a011"] {
        assert_eq!(pos.parse_cell(bad), None, "{bad}");
    }
}

#[test]
fn neighbours_follow_the_rhombus() {
    let pos = Position::new(3).unwrap();
    let mut around = [Cell(0); 6];
    let names = |cell: &str, around: &mut [Cell; 6]| {
        let k = pos.neighbours(pos.parse_cell(cell).unwrap(), around);
        let mut v: Vec<String> = around[..k].iter().map(|&c| pos.cell_name(c)).collect();
        v.sort();
        v
    };
    assert_eq!(
        names("b2", &mut around),
        ["a2", "a3", "b1", "b3", "c1", "c2"]
    );
    assert_eq!(names("a1", &mut around), ["a2", "b1"]);
    assert_eq!(names("c1", &mut around), ["b1", "b2", "c2"]);
    assert_eq!(names("a3", &mut around), ["a2", "b2", "b3"]);
}

#[test]
fn black_joins_top_and_bottom_white_left_and_right() {
    let mut pos = Position::new(3).unwrap();
    // Black down column b: b1 b2 b3 (White elsewhere).
    play_all(&mut pos, &["b1", "a1", "b2", "a2"]);
    assert_eq!(pos.outcome(), None);
    play_all(&mut pos, &["b3"]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    assert!(!pos.is_legal(at(&pos, "c3")));

    let mut pos = Position::new(3).unwrap();
    pos.set_swap_allowed(false);
    // White across row 2 along the diagonal steps a2 b2 c2.
    play_all(&mut pos, &["a1", "a2", "b1", "b2", "a3"]);
    assert_eq!(pos.outcome(), None);
    play_all(&mut pos, &["c2"]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn a_chain_along_the_short_diagonal_connects() {
    // c1 b2 a3 are neighbours in turn: Black joins top and bottom.
    let mut pos = Position::new(3).unwrap();
    play_all(&mut pos, &["c1", "a1", "b2", "a2", "a3"]);
    assert_eq!(pos.winner(), Some(Color::Black));
}

#[test]
fn the_swap_mirrors_the_first_stone_into_white() {
    let mut pos = Position::new(11).unwrap();
    assert!(!pos.is_legal(Move::Swap), "nothing to swap yet");
    play_all(&mut pos, &["c2"]);
    assert!(pos.can_swap());
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert_eq!(legal.last(), Some(&Move::Swap));
    assert_eq!(legal.len(), 121);
    play_all(&mut pos, &["swap"]);
    assert_eq!(pos.color_at(pos.parse_cell("c2").unwrap()), None);
    assert_eq!(
        pos.color_at(pos.parse_cell("b3").unwrap()),
        Some(Color::White)
    );
    assert_eq!(pos.to_move(), Color::Black);
    assert_eq!(pos.move_number(), 2);
    assert!(!pos.is_legal(Move::Swap));
    // The same position reached without a swap has the same hash.
    let mut direct = Position::new(11).unwrap();
    play_all(&mut direct, &["a1", "b3"]);
    let mut undone = direct.clone();
    undone.stones[0] = EMPTY;
    undone.hash ^= KEYS[0][0];
    assert_eq!(undone.hash(), pos.hash());
}

#[test]
fn the_swap_can_be_switched_off_and_is_no_cell() {
    let mut pos = Position::new(5).unwrap();
    pos.set_swap_allowed(false);
    play_all(&mut pos, &["c3"]);
    assert_eq!(
        pos.play(Move::Swap).unwrap_err().reason,
        IllegalReason::NotAllowed
    );
    assert_eq!(pos.move_cell(Move::Swap), None);
    assert_eq!(pos.move_index(Move::Swap), 25);
    assert_eq!((pos.move_space(), pos.cell_space()), (26, 25));
}

#[test]
fn occupied_and_finished_are_refused() {
    let mut pos = Position::new(1).unwrap();
    play_all(&mut pos, &["a1"]);
    // One cell touches all four edges: Black wins at once.
    assert_eq!(pos.winner(), Some(Color::Black));
    let e = pos.play(Move::Swap).unwrap_err();
    assert_eq!(e.reason, IllegalReason::GameOver);
    let mut pos = Position::new(4).unwrap();
    play_all(&mut pos, &["b2"]);
    let e = pos.play(at(&pos, "b2")).unwrap_err();
    assert_eq!(e.reason, IllegalReason::Occupied);
    assert_eq!(
        pos.play(Move::Play(Cell(16))).unwrap_err().reason,
        IllegalReason::OffBoard
    );
}

#[test]
fn showboard_draws_the_rhombus() {
    let mut pos = Position::new(3).unwrap();
    play_all(&mut pos, &["b2", "a3"]);
    let text = pos.showboard();
    assert!(text.contains(" 2 \\. X .\\ 2"), "{text}");
    assert!(text.contains("  3 \\O . .\\ 3"), "{text}");
    assert!(text.ends_with("black to move, move 3\n"), "{text}");
}

proptest! {
    /// Random games always end with exactly one winner by the time the
    /// board is full, and the forest agrees with a flood fill.
    #[test]
    fn full_boards_have_the_flood_fills_winner(size in 1usize..=11, seed in any::<u64>()) {
        let mut pos = Position::new(size).unwrap();
        pos.set_swap_allowed(seed % 2 == 0);
        let mut rng = FastRng::new(seed);
        let mut legal = Vec::new();
        while pos.outcome().is_none() {
            pos.legal_moves(&mut legal);
            prop_assert!(!legal.is_empty());
            let mv = legal[rng.below(legal.len() as u32) as usize];
            pos.play(mv).unwrap();
        }
        let winner = pos.winner().unwrap();
        // Fill the rest at random: the winner cannot change.
        let mut full = pos.clone();
        let mut color = full.to_move();
        for i in 0..full.num_cells() {
            if full.stones[i] == EMPTY {
                full.stones[i] = code(color);
                color = color.opponent();
            }
        }
        prop_assert_eq!(flood_winner(&full), winner);
    }
}
