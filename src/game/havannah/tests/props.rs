//! Random games against the flood-fill reference: after every move the
//! incremental detection (disjoint sets, corner and edge masks, the two
//! local ring tests) must say exactly what the definitions say.

use crate::game::havannah::position::{BRIDGE, FORK, RING};
use crate::game::havannah::{reference, Cell, Move, Position, WinKind};
use crate::game::rng::FastRng;
use crate::game::{Color, Game, Outcome};
use proptest::prelude::*;

/// The Zobrist hash recomputed from the stones.
fn scratch_hash(pos: &Position) -> u64 {
    let geo = pos.geometry();
    let mut h = if pos.to_move() == Color::Black {
        super::super::geometry::BLACK_TO_MOVE_KEY
    } else {
        0
    };
    for c in pos.cells() {
        if let Some(color) = pos.color_at(c) {
            h ^= geo.zobrist[c.0 as usize][color.index()];
        }
    }
    h
}

/// Every pair of touching stones of one colour is in one group.
fn groups_are_consistent(pos: &mut Position) -> bool {
    let cells: Vec<Cell> = pos.cells().collect();
    cells.into_iter().all(|c| {
        let Some(color) = pos.color_at(c) else {
            return true;
        };
        let friends: Vec<Cell> = pos
            .neighbours(c)
            .filter(|&n| pos.color_at(n) == Some(color))
            .collect();
        friends.into_iter().all(|n| pos.connected(c, n))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whole games through the `Game` interface, swap included.
    #[test]
    fn random_games_agree_with_the_reference(side in 3usize..=8, seed in any::<u64>(), swap in any::<bool>()) {
        let mut pos = Position::new(side).unwrap();
        let mut rng = FastRng::new(seed);
        let mut moves = Vec::new();
        while pos.winner().is_none() {
            pos.legal_moves(&mut moves);
            let mv = if swap && pos.move_number() == 1 {
                Move::Swap
            } else {
                moves[rng.below(moves.len() as u32) as usize]
            };
            let mover = pos.to_move();
            pos.play(mv).unwrap();
            let s = reference::structures(&pos, mover);
            prop_assert_eq!(pos.winner() == Some(Outcome::Win(mover)), s.any(), "{:?}", pos);
            let kinds = pos.win_kinds();
            prop_assert_eq!(kinds.contains(&WinKind::Ring), s.ring, "{:?}", pos);
            prop_assert_eq!(kinds.contains(&WinKind::Bridge), s.bridge, "{:?}", pos);
            prop_assert_eq!(kinds.contains(&WinKind::Fork), s.fork, "{:?}", pos);
            prop_assert_eq!(pos.hash(), scratch_hash(&pos));
        }
        prop_assert!(!reference::structures(&pos, pos.to_move()).any(), "loser has a structure");
        if pos.winner() == Some(Outcome::Draw) {
            prop_assert_eq!(pos.stone_count(), pos.num_cells());
        }
        prop_assert!(groups_are_consistent(&mut pos));
    }
}

/// Fills the board in random order with stones of random colour (White
/// with probability `white_share`), going on past bridges and forks, until
/// the first ring. Returns whether a ring came and whether it was a ring
/// around own stones only (some stone with six friendly neighbours and no
/// other cell enclosed).
fn ring_race(side: usize, white_share: f32, rng: &mut FastRng) -> (bool, bool) {
    let mut pos = Position::new(side).unwrap();
    let mut cells: Vec<u16> = (0..pos.num_cells() as u16).collect();
    let mut had = [(false, false); 2];
    while !cells.is_empty() {
        let c = cells.swap_remove(rng.below(cells.len() as u32) as usize);
        let color = if rng.next_f32() < white_share {
            Color::White
        } else {
            Color::Black
        };
        let kinds = pos.place(c, color);
        let s = reference::structures(&pos, color);
        assert_eq!(
            kinds & RING != 0,
            s.ring,
            "ring mismatch at {}\n{pos:?}",
            pos.cell_name(Cell(c))
        );
        // Bridge and fork bits speak about the new stone's group; the
        // reference about any group, old ones included.
        let (had_bridge, had_fork) = had[color.index()];
        assert!(kinds & BRIDGE == 0 || s.bridge);
        assert!(kinds & FORK == 0 || s.fork);
        assert!(
            had_bridge || !s.bridge || kinds & BRIDGE != 0,
            "missed bridge\n{pos:?}"
        );
        assert!(
            had_fork || !s.fork || kinds & FORK != 0,
            "missed fork\n{pos:?}"
        );
        had[color.index()] = (s.bridge, s.fork);
        if s.ring {
            let own_filled = pos.cells().any(|p| {
                pos.color_at(p) == Some(color)
                    && pos
                        .neighbours(p)
                        .filter(|&n| pos.color_at(n) == Some(color))
                        .count()
                        == 6
            });
            return (true, own_filled);
        }
    }
    (false, false)
}

#[test]
fn linear_ring_reference_equals_the_definition() {
    // Random boards of every density, both colours.
    let mut rng = FastRng::new(5);
    let mut rings = 0;
    for i in 0..300 {
        let side = 3 + i % 4;
        let mut pos = Position::new(side).unwrap();
        let density = (i % 10) as f32 / 10.0;
        for c in 0..pos.num_cells() as u16 {
            if rng.next_f32() < density {
                let color = if rng.next_f32() < 0.6 {
                    Color::White
                } else {
                    Color::Black
                };
                pos.place(c, color);
            }
        }
        for color in Color::BOTH {
            let fast = reference::has_ring(&pos, color);
            assert_eq!(
                fast,
                reference::has_ring_by_definition(&pos, color),
                "{pos:?}"
            );
            rings += fast as usize;
        }
    }
    // Both answers must be common.
    assert!(rings > 20 && rings < 580, "{rings}");
}

#[test]
fn ring_detection_agrees_with_the_reference_past_bridges_and_forks() {
    let mut rng = FastRng::new(11);
    let (mut rings, mut own_filled) = (0, 0);
    for game in 0..400 {
        let side = 3 + game % 5;
        let share = [0.5, 0.7, 0.9][game % 3];
        let (ring, own) = ring_race(side, share, &mut rng);
        rings += ring as usize;
        own_filled += own as usize;
    }
    // Both kinds of ring must have been exercised.
    assert!(rings > 300, "{rings}");
    assert!(own_filled > 30, "{own_filled}");
}
