//! Warpstone: a Monte-Carlo tree search game engine (Go over GTP, Havannah
//! over a Castro-compatible HTP; Hex, Connect Four and the Amazons over GTP
//! framing) with CPU and CUDA leaf simulation.
//!
//! Map of the modules. Control flows one way, top to bottom; nothing reaches
//! back up (`tests/layers.rs` checks the imports), and there are no globals:
//! configuration is passed in.
//!
//! - [`cli`]: command-line options (clap), the `bench` and GPU subcommands,
//!   and [`cli::games`], the one registry of games: adding a game is its
//!   rules in `game/<name>/`, its playout policy in `sim/`, its protocol
//!   adapter in `protocol/`, and one entry there.
//! - [`bench`](mod@bench): playout and search benchmarks printing JSON lines
//!   of one schema, [`bench_record::BenchRecord`].
//! - [`protocol`]: everything that speaks text. Line framing shared by GTP
//!   and HTP, parsers into typed commands, reply formatting; the serving
//!   loop and its connection (a dedicated stdin thread, the only writer of
//!   stdout); the one generic session every game shares
//!   ([`protocol::session::GameSession`]: position, undo, search under
//!   limits and clocks, analysis) and per game an adapter with only the
//!   commands where that game differs.
//! - [`engine`]: what thinks, without text: a search on a blocking thread
//!   with its tree kept between moves, the evaluations behind move values
//!   and ownership, the options and the simulator a backend gives.
//! - [`search`]: generic UCT with RAVE over any [`game::Game`]: arena tree,
//!   virtual loss, tree reuse, memory cap, time management.
//! - [`solve`]: exact solvers beside the search: Connect Four's alpha-beta
//!   solver and its `solve` command.
//! - [`sim`]: the [`sim::Simulator`] trait that evaluates batches of leaves;
//!   the CPU simulator, the per-game playout policies, and the CUDA
//!   kernels of the games that have them (Go, Havannah).
//! - [`game`]: rules only: Go, Havannah, Hex, Connect Four, Amazons. [`game::Game`] keeps moves
//!   (AMAF and move statistics) apart from board cells (ownership, heat
//!   maps).

pub mod bench;
pub mod bench_amazons;
pub mod bench_amazons_gpu;
pub mod cli;
pub mod engine;
pub mod game;
pub mod protocol;
pub mod search;
pub mod sim;
pub mod solve;

/// The benchmark record schema lives with the simulators that fill it.
pub use sim::bench_record;
