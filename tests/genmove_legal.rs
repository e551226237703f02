//! Property: whatever position the game has reached, the move the search
//! chooses is legal under the full rules (positional superko included), for
//! Go and for Havannah.

use proptest::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use warpstone::game::{go, havannah, Game};
use warpstone::search::{Decision, Limits, Search, SearchConfig};
use warpstone::sim::cpu::CpuSimulator;
use warpstone::sim::{FastRng, Simulator};

/// Plays `moves` random legal moves (the tree's own move list) from `pos`.
fn random_position<G: Game>(mut pos: G, moves: usize, seed: u64) -> G {
    let mut rng = FastRng::new(seed);
    let mut legal = Vec::new();
    for _ in 0..moves {
        if pos.outcome().is_some() {
            break;
        }
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u32) as usize];
        pos.play(mv).expect("legal_moves lists legal moves");
    }
    pos
}

fn chosen_move<G: warpstone::sim::Rollout>(pos: &G, seed: u64) -> Option<Decision<G::Move>> {
    let sim: Arc<dyn Simulator<G>> = Arc::new(CpuSimulator::<G>::new());
    let config = SearchConfig {
        threads: 1,
        seed,
        resign_threshold: None,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, sim);
    search.set_position(pos);
    let limits = Limits {
        playouts: Some(64),
        time: None,
        whole_time: false,
    };
    search.run(&limits, &AtomicBool::new(false), None);
    search.decide()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn go_search_plays_legal_moves(size in 2usize..=9, moves in 0usize..120, seed in any::<u64>()) {
        let pos = random_position(go::Position::new(size, 7.5).unwrap(), moves, seed);
        match chosen_move(&pos, seed) {
            Some(Decision::Play(mv)) => prop_assert!(pos.is_legal(mv), "{mv:?} in {pos:?}"),
            Some(Decision::Resign) => prop_assert!(false, "resigning is off"),
            None => prop_assert!(pos.outcome().is_some(), "no move in a live game"),
        }
    }

    #[test]
    fn havannah_search_plays_legal_moves(side in 3usize..=6, moves in 0usize..80, seed in any::<u64>()) {
        let pos = random_position(havannah::Position::new(side).unwrap(), moves, seed);
        match chosen_move(&pos, seed) {
            Some(Decision::Play(mv)) => prop_assert!(pos.is_legal(mv), "{mv:?}"),
            Some(Decision::Resign) => prop_assert!(false, "resigning is off"),
            None => prop_assert!(pos.outcome().is_some(), "no move in a live game"),
        }
    }
}
