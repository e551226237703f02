//! Go rules (in progress).
