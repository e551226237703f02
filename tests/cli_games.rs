//! The command line takes any registered game: a game without kernels is
//! refused by the GPU commands with the list of games that have them, and
//! an unknown game is a usage error. Runs the built binary; needs no GPU.

use std::process::Command;

fn warpstone(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpstone"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("running warpstone");
    let code = out.status.code().unwrap_or(-1);
    (code, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn check_gpu_names_the_games_with_kernels_for_one_without() {
    for args in [
        &["check-gpu", "--game", "hex"][..],
        &["--game", "connect4", "check-gpu"][..],
    ] {
        let (code, err) = warpstone(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("has no GPU kernels (games with kernels: go, havannah, amazons)"),
            "{args:?}: {err}"
        );
    }
}

/// The Amazons have an evaluation kernel, not playout kernels: `check-gpu
/// --game amazons` checks it, so without a GPU it fails for want of one,
/// not of kernels.
#[test]
fn check_gpu_takes_the_amazons_evaluator() {
    let (code, err) = warpstone(&["--game", "amazons", "check-gpu"]);
    if code == 0 {
        return; // a machine with a GPU: the check ran and passed
    }
    assert!(!err.contains("has no GPU kernels"), "{err}");
}

#[test]
fn the_cuda_backend_is_refused_for_a_game_without_kernels() {
    let (code, err) = warpstone(&["--game", "hex", "--backend", "cuda"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("hex has no GPU kernels"), "{err}");
}

/// A policy the game's kernels do not play is refused before anything
/// starts, not silently replaced by the default.
#[test]
fn another_games_gpu_policy_is_refused() {
    for (args, says) in [
        (
            &["--game", "havannah", "--gpu-policy", "3x3"][..],
            "havannah takes tactical or random",
        ),
        (
            &["--gpu-policy", "tactical"][..],
            "go takes patterns, random, 3x3 or m2",
        ),
        (
            &["--game", "connect4", "--gpu-policy", "random"][..],
            "connect4 takes no --gpu-policy",
        ),
    ] {
        let (code, err) = warpstone(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn an_unknown_game_is_a_usage_error() {
    let (code, err) = warpstone(&["--game", "chess"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("chess"), "{err}");
}

/// A search bench says whether the node-memory cap stopped the tree, so a
/// rate measured on a tree that no longer grows is not taken for another.
#[test]
fn a_search_bench_reports_whether_the_tree_hit_its_memory_cap() {
    let out = Command::new(env!("CARGO_BIN_EXE_warpstone"))
        .args([
            "bench",
            "--game",
            "go",
            "--size",
            "9",
            "--threads",
            "1",
            "--seconds",
            "0.2",
            "--search",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("running warpstone");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.contains("\"mode\":\"search\""))
        .unwrap_or_else(|| panic!("no search line in {stdout}"));
    assert!(line.contains("\"tree_memory_capped\":false"), "{line}");
}
