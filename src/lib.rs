//! Warpstone: a Monte-Carlo tree search game engine (Go over GTP, Havannah
//! over a Castro-compatible HTP) with CPU and, later, CUDA leaf simulation.
//!
//! Map of the modules. Control flows one way, top to bottom; nothing reaches
//! back up, and there are no globals: configuration is passed in.
//!
//! - [`cli`]: command-line options (clap) and the `bench` subcommand.
//! - [`protocol`]: line framing shared by GTP and HTP, nom parsers into typed
//!   command enums, reply formatting. Knows text, not rules.
//! - [`engine`]: the tokio loop (a dedicated stdin thread, the only writer of
//!   stdout) and one session type per game that turns commands into rule
//!   calls and searches.
//! - [`search`]: generic UCT with RAVE over any [`game::Game`]: arena tree,
//!   virtual loss, tree reuse, memory cap, time management.
//! - [`sim`]: the [`sim::Simulator`] trait that evaluates batches of leaves;
//!   the CPU simulator and the per-game playout policies.
//! - [`game`]: rules only: Go, Havannah.
//! - [`bench`](mod@bench): playout and search benchmarks printing JSON lines
//!   of one schema, [`bench_record::BenchRecord`].

pub mod bench;
pub mod bench_record;
pub mod cli;
pub mod engine;
pub mod game;
pub mod protocol;
pub mod search;
pub mod sim;
