//! Colour symmetry of the Amazons engine (issue #27: Black, who moves
//! second, won 60 of 83 games between two equal engines). A position and
//! the same position with every White queen made Black's, every Black
//! queen White's and the side to move turned must look the same to the
//! engine from the side to move's point of view: the same evaluation, the
//! same prior for every move, the same search. The board mirrored
//! left-right or top-bottom (the start is symmetric both ways on every
//! size) must too, move for mirrored move.

use super::tests::{playouts, run};
use super::*;
use crate::game::amazons::bitboard::{bit, bit_index, file_rank, Squares};
use crate::game::amazons::{Move, Position};
use crate::game::{Color, Game, Outcome};
use crate::sim::amazons_eval::{self, Features};
use crate::sim::amazons_layers;
use crate::sim::amazons_rollout::{random_positions, EvalSimulator};
use crate::sim::{Prior, Simulator};
use std::sync::Arc;

/// How a position is carried to its image: colours exchanged, files or
/// ranks mirrored.
#[derive(Clone, Copy, Debug)]
struct Transform {
    swap: bool,
    files: bool,
    ranks: bool,
}

const TRANSFORMS: [Transform; 4] = [
    Transform {
        swap: true,
        files: false,
        ranks: false,
    },
    Transform {
        swap: false,
        files: true,
        ranks: false,
    },
    Transform {
        swap: false,
        files: false,
        ranks: true,
    },
    // Colours exchanged and the board turned upside down: the start of
    // one side becomes the start of the other.
    Transform {
        swap: true,
        files: true,
        ranks: true,
    },
];

impl Transform {
    fn square(self, size: usize, sq: u8) -> u8 {
        let (f, r) = file_rank(sq);
        let f = if self.files { size - 1 - f } else { f };
        let r = if self.ranks { size - 1 - r } else { r };
        bit_index(f, r)
    }

    fn set(self, size: usize, set: u128) -> u128 {
        Squares(set).fold(0, |m, sq| m | bit(self.square(size, sq)))
    }

    fn color(self, c: Color) -> Color {
        if self.swap {
            c.opponent()
        } else {
            c
        }
    }

    fn position(self, pos: &Position) -> Position {
        let n = pos.size();
        let q = |c: Color| self.set(n, pos.queens(self.color(c)));
        let to_move = self.color(pos.to_move());
        let arrows = self.set(n, pos.arrows());
        Position::from_sets(n, q(Color::White), q(Color::Black), arrows, to_move).unwrap()
    }

    fn mv(self, size: usize, mv: Move) -> Move {
        Move {
            from: self.square(size, mv.from),
            to: self.square(size, mv.to),
            arrow: self.square(size, mv.arrow),
        }
    }
}

fn positions() -> Vec<Position> {
    let mut out = vec![Position::new(8).unwrap(), Position::new(10).unwrap()];
    out.extend(random_positions(8, 150, 27).unwrap());
    out.extend(random_positions(10, 150, 28).unwrap());
    out
}

fn assert_same_features(f: &Features, g: &Features, exact: bool, what: &str) {
    let tol = if exact { 0.0 } else { 1e-9 };
    for (a, b, name) in [
        (f.t1, g.t1, "t1"),
        (f.t2, g.t2, "t2"),
        (f.c1, g.c1, "c1"),
        (f.c2, g.c2, "c2"),
        (f.w, g.w, "w"),
        (f.value(), g.value(), "value"),
        (f.win_probability(), g.win_probability(), "p"),
    ] {
        assert!((a - b).abs() <= tol, "{what}: {name} {a} against {b}");
    }
    assert_eq!(
        (f.own, f.other, f.contested),
        (g.own, g.other, g.contested),
        "{what}"
    );
}

#[test]
fn the_evaluation_and_the_move_count_do_not_see_colours_or_sides() {
    for pos in positions() {
        for t in TRANSFORMS {
            let image = t.position(&pos);
            let what = format!("{t:?} of {pos:?}");
            assert_eq!(image.to_move(), t.color(pos.to_move()));
            assert_eq!(image.count_moves(), pos.count_moves(), "{what}");
            // The layered form groups squares by their pair of distances,
            // which a transform keeps: the same sums in the same order.
            let (f, g) = (
                amazons_layers::features(&pos),
                amazons_layers::features(&image),
            );
            assert_same_features(&f, &g, true, &what);
            // The per-square reference adds the squares in another order.
            let (f, g) = (amazons_eval::features(&pos), amazons_eval::features(&image));
            assert_same_features(&f, &g, false, &what);
            for c in [Color::White, Color::Black] {
                let p = amazons_eval::win_probability(&pos, c);
                let q = amazons_eval::win_probability(&image, t.color(c));
                assert_eq!(p, q, "{what}: {c:?}");
            }
            let outcome = |o: Option<Outcome>| {
                o.map(|o| match o {
                    Outcome::Win(c) => Outcome::Win(t.color(c)),
                    other => other,
                })
            };
            assert_eq!(
                image.proven_outcome(),
                outcome(pos.proven_outcome()),
                "{what}"
            );
        }
    }
}

#[test]
fn every_move_gets_the_prior_of_its_image() {
    let mut moves = Vec::new();
    let mut image_moves = Vec::new();
    let (mut priors, mut image_priors): (Vec<Prior>, Vec<Prior>) = (Vec::new(), Vec::new());
    // Priors cost an evaluation a move: a fifth of the positions.
    for pos in positions().into_iter().step_by(5) {
        let n = pos.size();
        pos.legal_moves(&mut moves);
        EvalSimulator.priors(&pos, &moves, &mut priors);
        for t in TRANSFORMS {
            let image = t.position(&pos);
            image.legal_moves(&mut image_moves);
            EvalSimulator.priors(&image, &image_moves, &mut image_priors);
            let index: std::collections::HashMap<Move, usize> = image_moves
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, i))
                .collect();
            assert_eq!(image_moves.len(), moves.len());
            for (mv, prior) in moves.iter().zip(&priors) {
                let i = index[&t.mv(n, *mv)];
                let other = &image_priors[i];
                assert_eq!(
                    (prior.wins, prior.visits),
                    (other.wins, other.visits),
                    "{t:?}: {mv:?} of {pos:?}"
                );
            }
        }
    }
}

/// The engine's search configuration (widening, as `serve_amazons` sets
/// it), one thread, a fixed seed.
fn engine_config(seed: u64) -> SearchConfig {
    SearchConfig {
        threads: 1,
        seed,
        early_stop: false,
        widening: Some(Widening::default()),
        ..SearchConfig::default()
    }
}

/// The engine's search for a fixed number of iterations. Returns the
/// search's report and its decision (resignation included).
fn engine_search(pos: &Position, iterations: u64) -> (SearchInfo<Move>, Option<Decision<Move>>) {
    let mut s = Search::new(engine_config(7), Arc::new(EvalSimulator));
    s.set_position(pos);
    let info = run(&mut s, playouts(iterations));
    (info, s.decide())
}

#[test]
fn the_search_plays_the_same_game_with_the_colours_exchanged() {
    // With the colours exchanged the moves come in the same order (the
    // same squares), so the whole search must be the same, visit for
    // visit, and its value the same for the side to move.
    let mut cases = vec![Position::new(8).unwrap(), Position::new(10).unwrap()];
    cases.extend(random_positions(8, 3, 5).unwrap());
    cases.extend(random_positions(10, 3, 6).unwrap());
    let swap = TRANSFORMS[0];
    for pos in cases {
        let image = swap.position(&pos);
        let ((a, da), (b, db)) = (engine_search(&pos, 1500), engine_search(&image, 1500));
        assert_eq!(da, db, "{pos:?}");
        // The simulator reports Black's chance, and a node White moved
        // into keeps 1 − p: the two sides' winrates are the same number
        // rounded differently, a few units of the last place of an f32.
        let close = |x: f32, y: f32| (x - y).abs() < 1e-5;
        assert!(close(a.winrate, b.winrate), "{pos:?}");
        assert_eq!(a.candidates.len(), b.candidates.len());
        for (x, y) in a.candidates.iter().zip(&b.candidates) {
            assert_eq!((x.mv, x.visits), (y.mv, y.visits), "{pos:?}");
            assert!(close(x.winrate, y.winrate), "{x:?} against {y:?}");
        }
        assert_eq!(a.candidates[0].pv, b.candidates[0].pv, "{pos:?}");
    }
}

#[test]
fn a_game_of_the_search_against_itself_is_the_same_game_with_colours_exchanged() {
    // Whole games on 6x6 from the start and from the start with the
    // colours exchanged (Black to move from White's squares), tree reuse
    // included: the engine must play the same moves.
    let play = |start: Position| -> Vec<Move> {
        let mut s = Search::new(engine_config(11), Arc::new(EvalSimulator));
        let mut pos = start;
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            s.set_position(&pos);
            let info = run(&mut s, playouts(300));
            let mv = info.candidates[0].mv;
            moves.push(mv);
            pos.play_unchecked(mv);
        }
        moves
    };
    let start = Position::new(6).unwrap();
    let image = TRANSFORMS[0].position(&start);
    assert_eq!(image.to_move(), Color::Black);
    let (a, b) = (play(start), play(image));
    assert!(a.len() >= 4);
    assert_eq!(a, b);
}
