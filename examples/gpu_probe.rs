//! Development driver for the CUDA backend:
//!
//! ```text
//! gpu_probe probe                      list usable GPUs
//! gpu_probe compile [compute_90]       compile every kernel (no GPU needed)
//! gpu_probe check [sequences positions gpu_playouts cpu_playouts go_sizes hex_sizes cache_file]
//! gpu_probe check ... --cpu-only     only compute the CPU reference cache
//! gpu_probe bench [leaves playouts_per_leaf repeats threads_per_sm,.. go_sizes hex_sizes]
//! gpu_probe cpu [playouts]             speed of the CPU reference model
//! ```

use warpstone::sim::cuda::{self, CheckOptions};

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("probe") | None => match cuda::probe() {
            Ok(devices) => {
                for d in devices {
                    println!(
                        "{} {} {} SMs {} MiB arch {}",
                        d.ordinal,
                        d.name,
                        d.multiprocessors,
                        d.total_memory >> 20,
                        d.arch()
                    );
                }
                0
            }
            Err(e) => {
                println!("probe: {e}");
                1
            }
        },
        Some("compile") => {
            let arch = args.get(1).cloned().unwrap_or_else(|| "compute_90".into());
            let t = std::time::Instant::now();
            match cuda::compile_all(&arch) {
                Ok(()) => {
                    println!(
                        "compiled all kernels for {arch} in {:.1} s",
                        t.elapsed().as_secs_f64()
                    );
                    0
                }
                Err(e) => {
                    println!("compile: {e}");
                    1
                }
            }
        }
        Some("check") => {
            // check [sequences positions gpu_playouts cpu_playouts go_sizes hex_sizes cache]
            let d = CheckOptions::default();
            let sizes = |i: usize, default: Vec<usize>| -> Vec<usize> {
                args.get(i).map_or(default, |s| {
                    s.split(',').filter_map(|x| x.parse().ok()).collect()
                })
            };
            let opts = CheckOptions {
                sequences: arg(&args, 1, d.sequences),
                positions: arg(&args, 2, d.positions),
                gpu_playouts: arg(&args, 3, d.gpu_playouts),
                cpu_playouts: arg(&args, 4, d.cpu_playouts),
                go_sizes: sizes(5, d.go_sizes.clone()),
                hex_sizes: sizes(6, d.hex_sizes.clone()),
                cpu_cache: args.get(7).map(std::path::PathBuf::from),
                ..d
            };
            let t = std::time::Instant::now();
            if args.iter().any(|a| a == "--cpu-only") {
                cuda::fill_cpu_cache(&opts);
                println!(
                    "reference counts written in {:.1} s",
                    t.elapsed().as_secs_f64()
                );
                std::process::exit(0);
            }
            let report = cuda::check_gpu_with(0, &opts, &mut |l| {
                eprintln!(
                    "{} {} {} ({:.0} s)",
                    if l.passed { "PASS" } else { "FAIL" },
                    l.name,
                    l.detail,
                    t.elapsed().as_secs_f64()
                )
            });
            println!("{report}");
            println!("check took {:.1} s", t.elapsed().as_secs_f64());
            i32::from(!report.passed())
        }
        Some("bench") => {
            let leaves = arg(&args, 1, 256usize);
            let playouts = arg(&args, 2, 4096u32);
            let repeats = arg(&args, 3, 3u32);
            let list = |i: usize, default: &[usize]| -> Vec<usize> {
                args.get(i).map_or(default.to_vec(), |s| {
                    s.split(',').filter_map(|x| x.parse().ok()).collect()
                })
            };
            let occupancy: Vec<u32> = list(4, &[]).into_iter().map(|x| x as u32).collect();
            let (go, hex) = (list(5, &[9, 13, 19]), list(6, &[4, 8, 10]));
            match cuda::bench(0, &go, &hex, leaves, playouts, repeats, &occupancy) {
                Ok(lines) => {
                    for l in lines {
                        println!("{l}");
                    }
                    0
                }
                Err(e) => {
                    println!("bench: {e}");
                    1
                }
            }
        }
        Some("dump") => {
            // The statistical check's Go positions, for kernel debugging:
            // one line per position: to_move ko passes colours.
            use warpstone::sim::cuda::reference::RefGo;
            use warpstone::sim::cuda::{KernelInput, KernelPosition};
            let size = arg(&args, 1, 9usize);
            for pos in cuda::check::fixed_positions(&RefGo::new(size, 7.5), 20, size * size, 1) {
                if let KernelInput::Go(g) = pos.kernel_input() {
                    let colors: String = g.colors.iter().map(|c| char::from(b'0' + c)).collect();
                    println!(
                        "{} {} {} {colors}",
                        g.to_move.index() + 1,
                        g.ko.map_or(-1, |k| k as i64),
                        g.consecutive_passes
                    );
                }
            }
            0
        }
        Some("cpu") => {
            // Speed of the CPU reference (the slow side of the checks).
            use warpstone::sim::cpu::CpuSimulator;
            use warpstone::sim::cuda::reference::{RefGo, RefHex};
            use warpstone::sim::{LeafStats, Simulator};
            let n = arg(&args, 1, 1000u32);
            for size in [9, 13, 19] {
                let t = std::time::Instant::now();
                let mut out = vec![LeafStats::default()];
                CpuSimulator::new().simulate(&[RefGo::new(size, 7.5)], n, 1, &mut out);
                println!(
                    "ref go{size}: {:.0} playouts/s, black {:.3}",
                    n as f64 / t.elapsed().as_secs_f64(),
                    out[0].black_wins / n as f32
                );
            }
            let positions = cuda::check::fixed_positions(&RefGo::new(9, 7.5), 20, 81, 1);
            let t = std::time::Instant::now();
            let mut out = vec![LeafStats::default(); 20];
            CpuSimulator::new().simulate(&positions, n, 1, &mut out);
            println!(
                "ref go9 fixed positions: {:.0} playouts/s",
                20.0 * n as f64 / t.elapsed().as_secs_f64()
            );
            for side in [4, 8, 10] {
                let t = std::time::Instant::now();
                let mut out = vec![LeafStats::default()];
                CpuSimulator::new().simulate(&[RefHex::new(side)], n, 1, &mut out);
                println!(
                    "ref hav{side}: {:.0} playouts/s, black {:.3}",
                    n as f64 / t.elapsed().as_secs_f64(),
                    out[0].black_wins / n as f32
                );
            }
            0
        }
        Some(other) => {
            println!("unknown command {other}");
            2
        }
    };
    std::process::exit(code);
}
