//! Lieberum's Amazons evaluation on one GPU, kept open: the context, the
//! compiled kernel (`kernels/amazons/eval.cu`) and device buffers that grow
//! to the largest batch, so that a batch costs two copies and one launch.
//! The engine's search ([`super::amazons_sim`]) and `bench --backend
//! cuda` use it.

use super::compile_amazons::{compile, pack, BLOCK};
use super::discovery::device_info;
use super::CudaError;
use crate::game::amazons::Position;
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use std::sync::Arc;

/// One position's result: Lieberum's value for the side to move (squares)
/// and w, 0 exactly when the armies are apart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuValue {
    pub value: f32,
    pub w: f32,
}

/// An open GPU with the evaluation kernel loaded.
pub struct AmazonsGpu {
    // Held so the context outlives the stream and buffers.
    _ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    function: CudaFunction,
    input: CudaSlice<u64>,
    output: CudaSlice<f32>,
    capacity: usize,
    packed: Vec<u64>,
    values: Vec<f32>,
    /// The device's name, for reports.
    pub name: String,
}

impl AmazonsGpu {
    /// Opens GPU `ordinal` and compiles the kernel for it.
    pub fn open(ordinal: usize) -> Result<Self, CudaError> {
        let info = device_info(ordinal)?;
        let ptx = compile(&info.arch())?;
        let ctx = CudaContext::new(ordinal)?;
        let stream = ctx.default_stream();
        let module = ctx.load_module(ptx)?;
        let function = module.load_function("amazons_eval")?;
        let input = stream.alloc_zeros::<u64>(6)?;
        let output = stream.alloc_zeros::<f32>(2)?;
        Ok(Self {
            _ctx: ctx,
            stream,
            function,
            input,
            output,
            capacity: 1,
            packed: Vec::new(),
            values: Vec::new(),
            name: info.name,
        })
    }

    /// Room on the device for `count` positions.
    fn reserve(&mut self, count: usize) -> Result<(), CudaError> {
        if count > self.capacity {
            let capacity = count.next_power_of_two();
            self.input = self.stream.alloc_zeros::<u64>(6 * capacity)?;
            self.output = self.stream.alloc_zeros::<f32>(2 * capacity)?;
            self.capacity = capacity;
        }
        Ok(())
    }

    /// Copies `positions` to the device (the input of [`Self::launch`]).
    pub fn upload(&mut self, positions: &[Position]) -> Result<(), CudaError> {
        self.reserve(positions.len())?;
        self.packed.clear();
        self.packed.extend(positions.iter().flat_map(pack));
        let mut dst = self.input.slice_mut(..self.packed.len());
        self.stream.memcpy_htod(&self.packed, &mut dst)?;
        Ok(())
    }

    /// Evaluates the first `count` uploaded positions on the device (queued
    /// on the stream; [`Self::download`] waits for it).
    pub fn launch(&mut self, count: usize) -> Result<(), CudaError> {
        if count == 0 {
            return Ok(());
        }
        if count > self.capacity {
            return Err(CudaError::Input("more positions than uploaded".into()));
        }
        let n = u32::try_from(count)
            .map_err(|_| CudaError::Input("too many positions for one launch".into()))?;
        let mut b = self.stream.launch_builder(&self.function);
        b.arg(&self.input).arg(&n).arg(&mut self.output);
        let cfg = LaunchConfig {
            grid_dim: (n.div_ceil(BLOCK), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: amazons_eval(const u64* positions, unsigned count, float*
        // out): the input holds 6 words and the output 2 floats for each of
        // `capacity` ≥ count positions, and the kernel touches no index at
        // or past count.
        unsafe { b.launch(cfg) }?;
        Ok(())
    }

    /// Waits for the queued work and returns the first `count` results.
    pub fn download(&mut self, count: usize) -> Result<Vec<GpuValue>, CudaError> {
        self.values.resize(2 * count, 0.0);
        if count > 0 {
            let src = self.output.slice(..2 * count);
            self.stream.memcpy_dtoh(&src, &mut self.values)?;
        }
        self.stream.synchronize()?;
        Ok(self
            .values
            .chunks_exact(2)
            .map(|v| GpuValue {
                value: v[0],
                w: v[1],
            })
            .collect())
    }

    /// Waits for the queued work.
    pub fn synchronize(&self) -> Result<(), CudaError> {
        Ok(self.stream.synchronize()?)
    }

    /// Evaluates `positions`: upload, one launch, download.
    pub fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<GpuValue>, CudaError> {
        self.upload(positions)?;
        self.launch(positions.len())?;
        self.download(positions.len())
    }
}
