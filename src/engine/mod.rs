//! The engine: what thinks, with no text in it. A search run on a blocking
//! thread with its tree kept between moves ([`think::Thinker`]), while the
//! controller's side keeps reading input ([`think::Controller`]); the
//! evaluations behind move values and ownership ([`evaluate`]); the
//! options and backend a session starts with, and the simulator that
//! backend gives.
//!
//! It knows neither the protocols' text nor any game's rules beyond the
//! [`Game`](crate::game::Game) interface: the protocol layer above
//! (`crate::protocol`) parses commands, holds each game's session and calls
//! down into this one.

pub mod cputime;
pub mod evaluate;
pub mod options;
pub mod record_file;
pub mod think;

pub use options::{Backend, EngineOptions};

/// The simulator of a game without GPU kernels: the CPU's playouts, with
/// the engine's policy.
pub fn cpu_simulator<G: crate::sim::Rollout>() -> std::sync::Arc<dyn crate::sim::Simulator<G>> {
    std::sync::Arc::new(crate::sim::cpu::CpuSimulator::<G>::engine())
}

/// The simulator for a session of a game with kernels: the GPUs' kernels if the backend says so
/// and they open, else the CPU simulator with the engine's policy (logged, never fatal: the CLI has
/// already refused `--backend cuda` without a usable GPU).
pub fn simulator_for<G>(backend: &Backend) -> std::sync::Arc<dyn crate::sim::Simulator<G>>
where
    G: crate::sim::Rollout + crate::sim::cuda::KernelPosition,
{
    if let Backend::Cuda {
        gpus,
        go_policy,
        hex_policy,
        slots,
    } = backend
    {
        let started = std::time::Instant::now();
        match crate::sim::cuda::GpuSimulator::<G>::new(gpus, *slots) {
            Ok(sim) => {
                let sim = sim.with_go_policy(*go_policy).with_hex_policy(*hex_policy);
                tracing::info!(
                    "playouts on {} GPU(s) (Go policy {}, Havannah policy {}), opened in {:.1} s; \
                     each board size's kernels are compiled when the size is set",
                    sim.gpu_count(),
                    go_policy.name(),
                    hex_policy.name(),
                    started.elapsed().as_secs_f64()
                );
                return std::sync::Arc::new(sim);
            }
            Err(e) => tracing::error!("cannot use the GPU ({e}); playouts run on the CPU"),
        }
    }
    cpu_simulator()
}
