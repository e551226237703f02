//! Exact solvers: games played perfectly by proving every position's value,
//! beside (not inside) the Monte-Carlo search of `crate::search`.

pub mod connect4;
