//! The protocol layer: everything that speaks text, on top of the engine.
//!
//! Parsing, each in its own file, in the order a line passes through:
//!
//! 1. [`line`](mod@line): raw bytes of one line → [`Line`] (GTP 2 §2.2 preprocessing,
//!    the numeric id, GoGui's `# interrupt`, over-long and non-UTF-8 lines);
//! 2. [`gtp`] / [`htp`]: command text → [`GtpCommand`] / [`HtpCommand`],
//!    built from the argument cursor in [`args`] and the token grammars in
//!    [`vertex`], [`hex_vertex`] and [`time`]. Unknown names become an
//!    `Unknown` variant, malformed arguments a [`ParseError`]: never a panic;
//! 3. [`reply`]: `=id text` / `?id text` framing and the standard error texts.
//!
//! Serving: [`connection`] (the stdin thread and the one writer of stdout),
//! [`server`] (the loop: a line in, a [`Session`] answers, a reply out),
//! [`session::GameSession`] (the state every game shares: position, undo,
//! search under limits and clocks, analysis dboards), [`common`] (the core
//! commands every game answers alike), and one adapter per game —
//! [`go`], [`havannah`], [`hex`], [`connect4`] — with only the commands where
//! that game differs.
//!
//! A session loop therefore reads:
//!
//! ```
//! use warpstone::protocol::{failure, parse_gtp, preprocess, success};
//! use warpstone::protocol::{GtpCommand, Line, GTP_COMMANDS};
//!
//! let reply = match preprocess(b"7 known_command play\r\n") {
//!     Line::Command { id, text } => match parse_gtp(&text) {
//!         Ok(GtpCommand::KnownCommand(name)) => {
//!             success(id, if GTP_COMMANDS.contains(&name.as_str()) { "true" } else { "false" })
//!         }
//!         Ok(_) => success(id, ""),
//!         Err(e) => failure(id, e.reply_text()),
//!     },
//!     Line::Malformed { id, .. } => failure(id, warpstone::protocol::reply::SYNTAX_ERROR),
//!     Line::Blank | Line::Interrupt => String::new(),
//! };
//! assert_eq!(reply, "=7 true\n\n");
//! ```
//!
//! [`Color`]: crate::game::Color

pub mod analyze;
pub mod args;
pub mod gtp;
pub mod hex_vertex;
pub mod htp;
pub mod line;
pub mod reply;
pub mod time;
pub mod vertex;

pub mod common;
pub mod connection;
pub mod server;
pub mod session;

pub mod amazons;
pub mod connect4;
pub mod go;
pub mod havannah;
pub mod hex;

#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod gtp_tests;
#[cfg(test)]
mod htp_tests;

pub use analyze::{AnalyzeFormat, AnalyzeRequest};
pub use args::{Expected, ParseError};
pub use gtp::{parse_gtp, GtpCommand, StoneStatus, GTP_COMMANDS};
pub use hex_vertex::{HexMove, HexVertex};
pub use htp::{parse_htp, HtpCommand, TimeOption, HTP_COMMANDS};
pub use line::{preprocess, read_line_capped, Line, LineError, MAX_LINE_BYTES};
pub use reply::{failure, success};
pub use server::{apply_time_left, run, serve, stream_header, time_control, Reply, Session};
pub use time::TimeSystem;
pub use vertex::Vertex;
