//! The protocol layer: text in, typed commands out, replies back. It knows
//! the text of GTP (Go) and HTP (Havannah), not the rules of either game;
//! the only thing it borrows from the rest of the crate is [`Color`].
//!
//! Layers, each in its own file, in the order a line passes through them:
//!
//! 1. [`line`](mod@line): raw bytes of one line → [`Line`] (GTP 2 §2.2 preprocessing,
//!    the numeric id, GoGui's `# interrupt`, over-long and non-UTF-8 lines);
//! 2. [`gtp`] / [`htp`]: command text → [`GtpCommand`] / [`HtpCommand`],
//!    built from the argument cursor in [`args`] and the token grammars in
//!    [`vertex`], [`hex_vertex`] and [`time`]. Unknown names become an
//!    `Unknown` variant, malformed arguments a [`ParseError`]: never a panic;
//! 3. [`reply`]: `=id text` / `?id text` framing and the standard error texts.
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
pub use time::TimeSystem;
pub use vertex::Vertex;
