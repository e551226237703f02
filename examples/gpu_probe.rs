//! Development driver for the CUDA backend:
//!
//! ```text
//! gpu_probe probe                      list usable GPUs
//! gpu_probe compile [compute_90]       compile every kernel (no GPU needed)
//! gpu_probe check [sequences positions gpu_playouts cpu_playouts]
//! gpu_probe bench [leaves playouts_per_leaf repeats]
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
            let d = CheckOptions::default();
            let opts = CheckOptions {
                sequences: arg(&args, 1, d.sequences),
                positions: arg(&args, 2, d.positions),
                gpu_playouts: arg(&args, 3, d.gpu_playouts),
                cpu_playouts: arg(&args, 4, d.cpu_playouts),
                ..d
            };
            let t = std::time::Instant::now();
            let report = cuda::check_gpu(0, &opts);
            println!("{report}");
            println!("check took {:.1} s", t.elapsed().as_secs_f64());
            i32::from(!report.passed())
        }
        Some("bench") => {
            let leaves = arg(&args, 1, 256usize);
            let playouts = arg(&args, 2, 4096u32);
            let repeats = arg(&args, 3, 3u32);
            match cuda::bench(0, &[9, 13, 19], &[4, 8, 10], leaves, playouts, repeats) {
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
        Some(other) => {
            println!("unknown command {other}");
            2
        }
    };
    std::process::exit(code);
}
