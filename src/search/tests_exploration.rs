//! Each game's UCB exploration coefficient (`Game::exploration`) reaches
//! the search when none is set, and a set one overrides it.

use super::tests::{playouts, run, search};
use super::*;
use crate::game::go;
use crate::game::havannah::{self, HAVANNAH_EXPLORATION};
use crate::sim::Rollout;

/// The root's visits per move after a seeded one-thread search of `pos`
/// with `exploration` set (`None`: the game's).
fn root_visits<G: Rollout>(pos: &G, exploration: Option<f64>) -> Vec<(G::Move, u64)> {
    let config = SearchConfig {
        exploration,
        seed: 7,
        early_stop: false,
        ..SearchConfig::default()
    };
    let mut s = search(config, pos);
    let info = run(&mut s, playouts(3000));
    let mut visits: Vec<_> = info.candidates.iter().map(|c| (c.mv, c.visits)).collect();
    visits.sort_by_key(|&(mv, _)| pos.move_index(mv));
    visits
}

#[test]
fn big_go_boards_search_without_the_ucb_term_unless_one_is_set() {
    // 13x13: the game's choice is 0, and an explicit 0.2 searches otherwise.
    let pos = go::Position::new(13, 7.5).unwrap();
    let game = root_visits(&pos, None);
    assert_eq!(game, root_visits(&pos, Some(0.0)));
    assert_ne!(game, root_visits(&pos, Some(EXPLORATION)));
    // 9x9 keeps the search's default.
    let pos = go::Position::new(9, 7.5).unwrap();
    let game = root_visits(&pos, None);
    assert_eq!(game, root_visits(&pos, Some(EXPLORATION)));
    assert_ne!(game, root_visits(&pos, Some(0.0)));
}

#[test]
fn havannah_searches_with_its_own_ucb_term() {
    // Without swap the root is the 169 cells alone, as in a match
    // (`scripts/match --swap off`).
    let mut pos = havannah::Position::new(8).unwrap();
    pos.set_swap_allowed(false);
    let game = root_visits(&pos, None);
    assert_eq!(game, root_visits(&pos, Some(HAVANNAH_EXPLORATION)));
    assert_ne!(game, root_visits(&pos, Some(EXPLORATION)));
}
