//! Each game's kernels, compiled and loaded one board size at a time: a
//! GPU compiles only the sizes it is asked for (see `compile.rs` for why).

use super::compile::compile_set;
use super::device::Gpu;
use super::family::Family;
use super::CudaError;
use cudarc::driver::CudaModule;
use std::sync::Arc;

/// The modules of one game, one per board size, in the order compiled.
#[derive(Default)]
pub(super) struct Modules(std::sync::Mutex<Vec<(usize, Arc<CudaModule>)>>);

impl Gpu {
    /// Compiles and loads `family`'s kernels for board size `size` unless
    /// that was done before. The engine calls it when a size is set, so
    /// that a search never waits for it; a kernel launch of a size not yet
    /// prepared prepares it then.
    pub fn prepare(&self, family: Family, size: usize) -> Result<(), CudaError> {
        self.module(family, size).map(|_| ())
    }

    pub(super) fn module(&self, family: Family, size: usize) -> Result<Arc<CudaModule>, CudaError> {
        family.check_size(size)?;
        let modules = &self.modules[family as usize];
        // Held while compiling: a second thread wanting the same module
        // waits for it rather than compiling it again.
        let mut loaded = modules.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, module)) = loaded.iter().find(|(s, _)| *s == size) {
            return Ok(module.clone());
        }
        let started = std::time::Instant::now();
        let module = self.ctx.load_module(compile_set(
            family,
            self.kernel_set,
            Some(size),
            &self.info.arch(),
        )?)?;
        family.upload_tables(self, &module, size)?;
        tracing::info!(
            "{} kernels for size {size} compiled and loaded in {:.1} s",
            family.stem(),
            started.elapsed().as_secs_f64()
        );
        loaded.push((size, module.clone()));
        Ok(module)
    }

    /// The pattern table the Go pattern kernels read.
    pub(super) fn upload_go_tables(&self, go: &Arc<CudaModule>) -> Result<(), CudaError> {
        let table = &crate::sim::go_rollout::PATTERN_TABLE;
        let mut symbol = go.get_global("go_pattern_table", &self.stream)?;
        // SAFETY: the symbol is `__device__ u64 go_pattern_table[1024]`
        // (go_weights.cu); the view has exactly that length.
        let mut words = unsafe { symbol.transmute_mut::<u64>(table.len()) }
            .ok_or_else(|| CudaError::Driver("go_pattern_table has the wrong size".into()))?;
        self.stream.memcpy_htod(table, &mut words)?;
        self.stream.synchronize()?;
        Ok(())
    }

    /// The neighbour and corner/edge tables of a Havannah board of `side`.
    pub(super) fn upload_hex_tables(
        &self,
        hex: &Arc<CudaModule>,
        side: usize,
    ) -> Result<(), CudaError> {
        let g = crate::game::havannah::flat_tables(side)
            .ok_or_else(|| CudaError::Driver(format!("no Havannah board of side {side}")))?;
        let mut nbr = hex.get_global(&format!("hex_nbr_{side}"), &self.stream)?;
        // SAFETY: the symbol is `short[cells * 6]`; the view is
        // reinterpreted with exactly that length.
        let mut nbr16 = unsafe { nbr.transmute_mut::<i16>(g.neighbours.len()) }
            .ok_or_else(|| CudaError::Driver(format!("hex_nbr_{side} has the wrong size")))?;
        self.stream.memcpy_htod(&g.neighbours, &mut nbr16)?;
        let mut mask = hex.get_global(&format!("hex_mask_{side}"), &self.stream)?;
        // SAFETY: the symbol is `unsigned short[cells]`.
        let mut mask16 = unsafe { mask.transmute_mut::<u16>(g.reach.len()) }
            .ok_or_else(|| CudaError::Driver(format!("hex_mask_{side} has the wrong size")))?;
        self.stream.memcpy_htod(&g.reach, &mut mask16)?;
        self.stream.synchronize()?;
        Ok(())
    }
}
