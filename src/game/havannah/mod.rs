//! Havannah rules (in progress).
