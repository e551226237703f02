//! A small, deliberately plain CPU model of the rules and light policies
//! the kernels implement: flood-fill liberties for Go ([`RefGo`]), the
//! definition of a ring (an enclosed cell) for Havannah ([`RefHex`]). It
//! shares no code with the kernels and is the oracle of [`super::check_gpu`];
//! the checks are generic, and `positions.rs` runs them against the
//! project's own rules.

mod go;
mod havannah;

pub use go::RefGo;
pub use havannah::RefHex;

/// Largest board (points or cells) the reference handles: Go 25x25.
const MAX_POINTS: usize = 640;
