//! Havannah playout policy (in progress).
