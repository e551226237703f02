//! The one schema of every JSON line `warpstone bench` prints, CPU or GPU,
//! so that scripts read one set of keys: every rate is
//! `…_per_second`, rounded to a whole number; fields a measurement has no
//! value for are left out rather than printed as `null`.

use serde::Serialize;

/// One measurement. `mode` says which:
/// - `"playouts"`: CPU playouts from the empty board (`bench`);
/// - `"kernel"`: one GPU kernel's raw rate (`bench --backend cuda`, and the
///   first line of `bench --backend cuda --search`);
/// - `"kernel-batches"`: the GPU at the search's batch shape, every launch
///   slot busy (`bench --backend cuda --search`);
/// - `"search"`: the whole search, playouts backed up into the tree
///   (`bench --search`, with any backend);
/// - `"all-moves"`: every legal move rated in one batch (`bench --all-moves`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct BenchRecord {
    pub mode: &'static str,
    pub game: String,
    pub size: usize,
    pub backend: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpus: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slots: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trees: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playouts_per_leaf: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads_per_sm: Option<u32>,
    /// All-moves mode: random moves played to reach the position rated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_moves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_move: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_evaluated: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playouts_per_move: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warmup_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playouts: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u64>,
    /// Playouts per second; in `"search"` mode, those backed up into the
    /// tree.
    pub playouts_per_second: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playouts_per_second_per_thread: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations_per_second: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_per_playout: Option<f64>,
    /// CPU search mode: the process's CPU time (user and system, every
    /// thread) over the search. On a machine shared with other work the
    /// rate a second says how much CPU the search got; the rate per CPU
    /// second says what each core's work bought, so a thread that spins
    /// or bounces cache lines shows there whatever the load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations_per_cpu_second: Option<u64>,
    /// Search mode on a GPU: the backed-up rate over the `"kernel"` line's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction_of_kernel: Option<f64>,
    /// Search mode on a GPU: the backed-up rate over the `"kernel-batches"`
    /// line's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction_of_kernel_batches: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Bytes the search tree holds (search mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree_memory_bytes: Option<u64>,
    /// Search mode: the node-memory cap stopped the tree from growing, so
    /// the rates past that point are of a tree that no longer expands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree_memory_capped: Option<bool>,
    /// Bytes of GPU memory the launch slots hold, with the local memory the
    /// driver reserves for the per-thread kernels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_memory_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_win_rate: Option<f64>,
}

impl BenchRecord {
    /// The record as one line of JSON.
    pub fn line(&self) -> String {
        // Serialising plain numbers and strings cannot fail; a non-finite
        // float becomes `null`, which is what a reader should see.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl BenchRecord {
    /// Writes the line to stdout. An error (a closed pipe: `bench | head`)
    /// is returned rather than a panic, so the caller can stop measuring.
    pub fn print(&self) -> std::io::Result<()> {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", self.line())?;
        out.flush()
    }
}

/// A rate as printed: whole units per second (0 for a non-finite value).
pub fn per_second(count: f64, seconds: f64) -> u64 {
    let rate = count / seconds.max(1e-9);
    if rate.is_finite() && rate > 0.0 {
        rate.round() as u64
    } else {
        0
    }
}

/// `x` rounded to `digits` decimals, so the JSON does not carry noise.
pub fn rounded(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_and_absent_fields_left_out() {
        let record = BenchRecord {
            mode: "playouts",
            game: "go".into(),
            size: 9,
            backend: "cpu".into(),
            threads: Some(2),
            seconds: Some(rounded(1.23456, 3)),
            playouts_per_second: per_second(1000.0, 0.5),
            ..BenchRecord::default()
        };
        let value: serde_json::Value = serde_json::from_str(&record.line()).unwrap();
        assert_eq!(value["mode"], "playouts");
        assert_eq!(value["playouts_per_second"], 2000);
        assert_eq!(value["seconds"], 1.235);
        assert!(value.get("device").is_none());
        assert!(value.get("playouts_per_sec").is_none());
        assert!(!record.line().contains("null"));
    }

    #[test]
    fn a_degenerate_rate_is_zero() {
        assert_eq!(per_second(f64::NAN, 1.0), 0);
        assert_eq!(per_second(5.0, 0.0), 5_000_000_000);
        assert_eq!(per_second(-1.0, 1.0), 0);
    }
}
