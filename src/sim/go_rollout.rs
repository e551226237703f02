//! Go playout policy (in progress).
