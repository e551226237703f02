//! Warpstone: a Monte-Carlo tree search game engine (Go over GTP, Havannah
//! over a Castro-compatible HTP, Hex over GTP) with CPU and CUDA leaf
//! simulation.
//!
//! Map of the modules. Control flows one way, top to bottom; nothing reaches
//! back up, and there are no globals: configuration is passed in.
//!
//! - [`cli`]: command-line options (clap), the `bench` and GPU subcommands,
//!   and [`cli::games`], the one registry of games: adding a game is its
//!   rules in `game/<name>/`, its playout policy in `sim/`, its protocol
//!   adapter in `engine/`, and one entry there.
//! - [`protocol`]: line framing shared by GTP and HTP, nom parsers into typed
//!   command enums, reply formatting. Knows text, not rules.
//! - [`engine`]: the tokio loop (a dedicated stdin thread, the only writer of
//!   stdout), the one generic session every game shares
//!   ([`engine::session::GameSession`]: position, undo, search under limits
//!   and clocks, analysis) and per game a protocol adapter with only the
//!   commands where that game differs.
//! - [`search`]: generic UCT with RAVE over any [`game::Game`]: arena tree,
//!   virtual loss, tree reuse, memory cap, time management.
//! - [`sim`]: the [`sim::Simulator`] trait that evaluates batches of leaves;
//!   the CPU simulator, the per-game playout policies, and the CUDA
//!   kernels of the games that have them (Go, Havannah).
//! - [`solve`]: exact solvers beside the search: Connect Four's alpha-beta
//!   solver and its `solve` command.
//! - [`game`]: rules only: Go, Havannah, Hex, Connect Four. [`game::Game`] keeps moves
//!   (AMAF and move statistics) apart from board cells (ownership, heat
//!   maps).
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
pub mod solve;
