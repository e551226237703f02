//! Generic UCT search with RAVE over any [`Game`](crate::game::Game),
//! evaluating leaves through a [`Simulator`](crate::sim::Simulator).
//!
//! Read it like michi: `uct` holds the algorithm (descend, expand, update
//! with AMAF), `tree` the arena it runs on, `search` the threads and
//! limits around it, `workers` what each search thread does in a run
//! (`amaf_share`: what threads that share a tree keep back a while;
//! `killers`: the solver's refutations, tried first at their depth),
//! `root` how several trees are merged, `info` what is reported,
//! [`time`] how long to think.
//! Every tuning constant is in [`config`].
//!
//! Sign conventions: simulator results are from Black's point of view; a
//! tree node's statistics are from the point of view of the player who
//! played its move; everything reported is for the side to move at the root
//! (winrates) or Black minus White (score, ownership).

mod amaf_share;
mod arena;
pub mod config;
mod expand;
mod info;
mod killers;
mod noise;
mod root;
#[allow(clippy::module_inception)]
mod search;
mod select;
pub mod time;
mod totals;
mod tree;
mod uct;
mod waiting;
mod widen;
mod workers;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_amaf_share;
#[cfg(test)]
mod tests_bias;
#[cfg(test)]
mod tests_colour;
#[cfg(test)]
mod tests_exploration;
#[cfg(test)]
mod tests_gathered;
#[cfg(test)]
mod tests_go;
#[cfg(test)]
mod tests_killers;
#[cfg(test)]
mod tests_leaf_values;
#[cfg(test)]
mod tests_root;
#[cfg(test)]
mod tests_solver;
#[cfg(test)]
mod tests_threads;
#[cfg(test)]
mod tests_verdicts;
#[cfg(test)]
mod tests_widen;
#[cfg(test)]
mod toy;

pub use config::{
    Limits, SearchConfig, Widening, EXPLORATION, EXPLORATION_RANGE, MAX_VIRTUAL_LOSS, RAVE_EQUIV,
    RAVE_EQUIV_RANGE, VIRTUAL_LOSS_CAP,
};
pub use info::{Candidate, Decision, SearchInfo};
pub use search::{Report, Search};
pub use time::{Clock, TimeControl};
pub use uct::MoveFilter;
