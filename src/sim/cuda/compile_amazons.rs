//! Lieberum's Amazons evaluation on the GPU (`kernels/amazons/eval.cu`),
//! one thread per position, in float, checked against the CPU reference
//! [`crate::sim::amazons_eval`]. Not yet wired into the engine's search:
//! what is here compiles the kernel (NVRTC), runs it on a batch of
//! positions, and compares and times it against the CPU.
//!
//! On a machine with a GPU and NVRTC:
//!
//! ```text
//! cargo test --release --lib sim::cuda::compile_amazons -- --ignored --nocapture
//! ```
//!
//! evaluates 100,000 random positions both ways and prints the largest
//! difference and both rates. The module's name starts with `compile` so
//! that CI's NVRTC step (`cargo test --lib sim::cuda::compile`) compiles
//! the kernel too.

use super::compile::nvrtc_present;
use super::CudaError;
use crate::game::amazons::Position;
use crate::game::Game;
use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{CompileOptions, Ptx};

/// The kernel's source (embedded: the binary needs no kernel files).
pub const SOURCE: &str = include_str!("../../../kernels/amazons/eval.cu");

/// Threads per block: the evaluation is branchy and uses about 450 bytes
/// of local memory a thread, so small blocks keep more of them resident.
pub const BLOCK: u32 = 128;

/// Compiles the evaluation kernel for `arch` (such as `compute_90`).
pub fn compile(arch: &str) -> Result<Ptx, CudaError> {
    if !nvrtc_present() {
        return Err(CudaError::NoNvrtcLibrary);
    }
    let opts = CompileOptions {
        options: vec![
            format!("--gpu-architecture={arch}"),
            "--std=c++17".to_string(),
            "-default-device".to_string(),
        ],
        name: Some("amazons/eval.cu".to_string()),
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(SOURCE, opts).map_err(|e| CudaError::Compile {
        kernel: "amazons/eval.cu".to_string(),
        arch: arch.to_string(),
        message: format!("{e:?}"),
        log: String::new(),
    })
}

/// The kernel's input for `pos`: the side to move's queens, the other
/// side's, the empty squares, each as (low, high) 64-bit words.
pub fn pack(pos: &Position) -> [u64; 6] {
    let me = pos.queens(pos.to_move());
    let other = pos.queens(pos.to_move().opponent());
    let empty = pos.empty();
    let split = |b: u128| [b as u64, (b >> 64) as u64];
    let [a, b] = split(me);
    let [c, d] = split(other);
    let [e, f] = split(empty);
    [a, b, c, d, e, f]
}

/// Evaluates `positions` on GPU `ordinal`: Lieberum's value for each side
/// to move, in the positions' order.
pub fn evaluate(ordinal: usize, ptx: Ptx, positions: &[Position]) -> Result<Vec<f32>, CudaError> {
    let count = u32::try_from(positions.len())
        .map_err(|_| CudaError::Input("too many positions for one launch".into()))?;
    if count == 0 {
        return Ok(Vec::new());
    }
    let ctx = CudaContext::new(ordinal)?;
    let stream = ctx.default_stream();
    let module = ctx.load_module(ptx)?;
    let f = module.load_function("amazons_eval")?;
    let input: Vec<u64> = positions.iter().flat_map(pack).collect();
    let d_input = stream.clone_htod(&input)?;
    let mut d_values = stream.alloc_zeros::<f32>(positions.len())?;
    let mut b = stream.launch_builder(&f);
    b.arg(&d_input).arg(&count).arg(&mut d_values);
    let cfg = LaunchConfig {
        grid_dim: (count.div_ceil(BLOCK), 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: amazons_eval(const u64* positions, unsigned count, float*
    // values): positions holds 6 × count words, values count floats, and
    // the kernel touches no index at or past count.
    unsafe { b.launch(cfg) }?;
    Ok(stream.clone_dtoh(&d_values)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::amazons_eval::features;
    use crate::sim::amazons_rollout::random_positions;

    #[test]
    fn the_kernel_compiles_or_the_library_is_missing() {
        match compile("compute_90") {
            Ok(ptx) => assert!(ptx.to_src().contains("amazons_eval")),
            Err(CudaError::NoNvrtcLibrary) => assert!(!nvrtc_present()),
            Err(e) => panic!("the Amazons kernel failed to compile: {e}"),
        }
    }

    #[test]
    fn packing_keeps_the_sets_apart() {
        let pos = Position::new(10).unwrap();
        let p = pack(&pos);
        let join = |lo: u64, hi: u64| lo as u128 | (hi as u128) << 64;
        assert_eq!(join(p[0], p[1]), pos.queens(pos.to_move()));
        assert_eq!(join(p[4], p[5]), pos.empty());
        assert_eq!(join(p[0], p[1]) & join(p[2], p[3]), 0);
    }

    /// On a GPU: 100,000 random positions, the largest |GPU − CPU| (float
    /// against double; bounded by 1e-3 squares) and both rates.
    #[test]
    #[ignore = "needs a CUDA GPU and NVRTC"]
    fn gpu_matches_the_cpu_on_random_positions() {
        let positions = random_positions(10, 100_000, 1).unwrap();
        let ptx = compile("compute_90").unwrap();
        let started = std::time::Instant::now();
        let gpu = evaluate(0, ptx, &positions).unwrap();
        let gpu_secs = started.elapsed().as_secs_f64();
        let started = std::time::Instant::now();
        let cpu: Vec<f64> = positions.iter().map(|p| features(p).value()).collect();
        let cpu_secs = started.elapsed().as_secs_f64();
        let worst = gpu
            .iter()
            .zip(&cpu)
            .map(|(&g, &c)| (g as f64 - c).abs())
            .fold(0.0f64, f64::max);
        println!(
            "amazons eval: {} positions, max |gpu - cpu| {worst:.2e}, gpu {:.0}/s (one launch, \
             context and copies included), cpu {:.0}/s on one thread",
            positions.len(),
            positions.len() as f64 / gpu_secs,
            positions.len() as f64 / cpu_secs
        );
        assert!(worst < 1e-3, "max difference {worst}");
    }
}
