//! Command-line parsing: every flag, default and rejected value.

use super::*;
use clap::CommandFactory;

#[test]
fn cli_definition_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn rejects_bad_values() {
    assert!(Cli::try_parse_from(["warpstone", "--threads", "0"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--time-per-move", "-1"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--resign-threshold", "2"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--game", "chess"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--playouts", "100", "--seed", "3"]).is_ok());
    assert!(Cli::try_parse_from(["warpstone", "--gpu-leaves", "0"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--gpu-playouts", "0"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--virtual-loss", "0"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--virtual-loss", "65"]).is_err());
    assert!(Cli::try_parse_from(["warpstone", "--virtual-loss", "64"]).is_ok());
    assert!(Cli::try_parse_from(["warpstone", "bench", "--search", "--all-moves"]).is_err());
}

/// The search settings `warpstone ARGS` would run with (seed 1).
fn config(args: &[&str]) -> SearchConfig {
    let cli = Cli::try_parse_from([&["warpstone"], args].concat()).unwrap();
    search_config(&cli, 1)
}

#[test]
fn virtual_loss_reaches_the_search() {
    assert_eq!(config(&[]).virtual_loss, None);
    let four = config(&["--virtual-loss", "4"]);
    assert_eq!(four.virtual_loss, Some(4));
    assert_eq!(four.virtual_loss_per_leaf(), 4);
}

#[test]
fn exploration_reaches_the_search() {
    assert_eq!(config(&[]).exploration, None);
    assert_eq!(config(&["--exploration", "0"]).exploration, Some(0.0));
    assert_eq!(config(&["--exploration", "0.5"]).exploration, Some(0.5));
}

#[test]
fn rave_equiv_reaches_the_search() {
    assert_eq!(config(&[]).rave_equiv, crate::search::RAVE_EQUIV);
    assert_eq!(config(&["--rave-equiv", "500"]).rave_equiv, 500.0);
    assert_eq!(config(&["--rave-equiv", "0"]).rave_equiv, 0.0);
    for bad in ["-1", "x", "nan", "inf", "1e13"] {
        assert!(
            Cli::try_parse_from(["warpstone", "--rave-equiv", bad]).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn gpu_policy_defaults_per_game_and_refuses_another_games_value() {
    use crate::sim::cuda::family::Family::{Go, Havannah};
    use crate::sim::cuda::HexPolicy;
    use crate::sim::go_rollout::GoPolicy;
    let resolve = |args: &[&str], family| {
        let cli = Cli::try_parse_from([&["warpstone"][..], args].concat()).unwrap();
        GpuPolicyArg::resolve(cli.gpu_policy, family, "g")
    };
    let go = |args: &[&str]| resolve(args, Some(Go)).map(|(go, _)| go);
    let hex = |args: &[&str]| resolve(args, Some(Havannah)).map(|(_, hex)| hex);
    assert_eq!(go(&[]), Ok(GoPolicy::Patterns));
    assert_eq!(go(&["--gpu-policy", "random"]), Ok(GoPolicy::Random));
    assert_eq!(go(&["--gpu-policy", "3x3"]), Ok(GoPolicy::Weighted3x3));
    assert_eq!(go(&["--gpu-policy", "m2"]), Ok(GoPolicy::M2));
    assert_eq!(hex(&[]), Ok(HexPolicy::Tactical));
    assert_eq!(hex(&["--gpu-policy", "tactical"]), Ok(HexPolicy::Tactical));
    assert_eq!(hex(&["--gpu-policy", "random"]), Ok(HexPolicy::Uniform));
    for (family, value) in [
        (Some(Go), "tactical"),
        (Some(Havannah), "patterns"),
        (Some(Havannah), "3x3"),
        (Some(Havannah), "m2"),
        (None, "random"),
    ] {
        let err = resolve(&["--gpu-policy", value], family).unwrap_err();
        assert!(
            err.contains(&format!("--gpu-policy {value}: g takes")),
            "{err}"
        );
    }
    assert!(resolve(&[], None).is_ok());
}

#[test]
fn bench_policy_names_the_kernels_policy() {
    use crate::sim::go_rollout::GoPolicy;
    let cli = Cli::try_parse_from(["warpstone", "bench", "--policy", "3x3"]).unwrap();
    let Some(Command::Bench(args)) = cli.command else {
        panic!("not bench")
    };
    assert_eq!(
        args.policy.map(PolicyArg::policy),
        Some(GoPolicy::Weighted3x3)
    );
    assert!(Cli::try_parse_from(["warpstone", "--gpu-policy", "heavy"]).is_err());
}

#[test]
fn bench_picks_kernels_by_policy_and_layout() {
    let kernels = |argv: &[&str]| {
        let cli = Cli::try_parse_from(argv).unwrap();
        let Some(Command::Bench(args)) = cli.command else {
            panic!("not bench")
        };
        bench_kernels(&args)
    };
    assert_eq!(kernels(&["warpstone", "bench"]).len(), GoKernel::ALL.len());
    let bitboard = ["--kernel", "playout-per-thread/bitboard"];
    assert_eq!(
        kernels(&["warpstone", "bench", bitboard[0], bitboard[1]]),
        [GoKernel::Bitboard, GoKernel::BitboardPatterns]
    );
    let light = [
        "warpstone",
        "bench",
        "--policy",
        "random",
        bitboard[0],
        bitboard[1],
    ];
    assert_eq!(kernels(&light), [GoKernel::Bitboard]);
    let none = [
        "warpstone",
        "bench",
        "--policy",
        "3x3",
        "--kernel",
        "playout-per-warp/rows",
    ];
    assert!(kernels(&none).is_empty());
    assert!(Cli::try_parse_from(["warpstone", "bench", "--kernel", "bitboard"]).is_err());
}

#[test]
fn gpu_flags_reach_bench_and_have_defaults() {
    let cli = Cli::try_parse_from(["warpstone", "bench", "--gpu-leaves", "64"]).unwrap();
    assert_eq!(cli.gpu_leaves, 64);
    assert_eq!(cli.gpu_playouts, GPU_PLAYOUTS_PER_LEAF);
    let cli = Cli::try_parse_from(["warpstone", "bench", "--all-moves", "--moves", "5"]);
    let Some(Command::Bench(args)) = cli.unwrap().command else {
        panic!("bench expected");
    };
    assert!(args.all_moves && args.moves == 5 && args.threads.is_none());
    // Every core, but at least two threads per launch slot.
    assert!(gpu_default_threads(1) >= 4);
    assert_eq!(gpu_default_threads(1), gpu_default_threads(0));
    assert!(gpu_default_threads(1) >= default_threads());
    // A tree per two threads, and a launch slot per tree on each GPU.
    assert_eq!(gpu_default_trees(16), 8);
    assert_eq!(gpu_default_trees(1), 1);
    assert_eq!(gpu_slots(8, 1), 8);
    assert_eq!(gpu_slots(8, 4), 2);
    assert_eq!(gpu_slots(1, 1), crate::sim::cuda::tuning::SLOTS_PER_GPU);
    // The shape the engine and the bench share.
    assert_eq!(gpu_search_shape(Some(16), None, 1), (16, 8, 8));
    assert_eq!(gpu_search_shape(Some(4), Some(8), 1), (4, 8, 4));
    // The Amazons' GPU evaluator searches one tree unless told otherwise;
    // Go's kernels keep root parallelism.
    let amazons = games::find("amazons").unwrap();
    let go = games::find("go").unwrap();
    assert_eq!(gpu_trees(amazons, None), Some(1));
    assert_eq!(gpu_trees(amazons, Some(4)), Some(4));
    assert_eq!(gpu_trees(go, None), None);
}

#[test]
fn check_gpu_takes_size_lists() {
    let cli = Cli::try_parse_from([
        "warpstone",
        "check-gpu",
        "--go-sizes",
        "--hex-sizes",
        "8,10",
    ])
    .unwrap();
    let Some(Command::CheckGpu(args)) = cli.command else {
        panic!("not check-gpu");
    };
    assert_eq!(args.go_sizes, Some(vec![]));
    assert_eq!(args.hex_sizes, Some(vec![8, 10]));
}

#[test]
fn rust_log_chooses_the_filter_and_v_is_the_fallback() {
    use tracing::level_filters::LevelFilter;
    let max = |rust_log: Option<&str>, v: u8| log_filter(rust_log, v).unwrap().max_level_hint();
    assert_eq!(max(None, 0), Some(LevelFilter::WARN));
    assert_eq!(max(None, 1), Some(LevelFilter::INFO));
    assert_eq!(max(None, 2), Some(LevelFilter::DEBUG));
    assert_eq!(max(Some("  "), 2), Some(LevelFilter::DEBUG));
    // RUST_LOG wins over -v, per module too.
    assert_eq!(max(Some("error"), 2), Some(LevelFilter::ERROR));
    assert_eq!(
        max(Some("warpstone::search=trace,warn"), 0),
        Some(LevelFilter::TRACE)
    );
    assert!(log_filter(Some("a=b=c"), 0).is_err());
}

#[test]
fn auto_plays_havannah_on_the_cpu_and_cuda_still_asks_for_the_kernels() {
    let havannah = games::find("havannah").unwrap();
    let auto = Cli::try_parse_from(["warpstone", "--game", "havannah"]).unwrap();
    assert!(matches!(backend_for(havannah, &auto), Ok(Backend::Cpu)));
    // `cuda` is not turned into the CPU: on a machine without a GPU it
    // fails, with one it plays the kernels.
    let cuda = Cli::try_parse_from(["warpstone", "--game", "havannah", "--backend", "cuda"]);
    let cuda = backend_for(havannah, &cuda.unwrap());
    assert!(!matches!(cuda, Ok(Backend::Cpu)));
    assert!(
        games::find("go")
            .unwrap()
            .kernels
            .as_ref()
            .unwrap()
            .auto_on_gpu
    );
}
