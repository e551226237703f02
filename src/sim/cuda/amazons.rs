//! Lieberum's Amazons evaluation on one GPU, kept open: the compiled kernel
//! (`kernels/amazons/eval.cu`) and, per [`AmazonsGpu`], its own stream,
//! device buffers and page-locked host buffers that grow to the largest
//! batch. A batch is a straight copy of six words a position into the
//! pinned input, one upload, one launch, one download of two floats a
//! position and one synchronisation; nothing is allocated per call. The
//! engine's search ([`super::amazons_sim`]) keeps several, one per search
//! thread that is using the GPU, so that their batches overlap;
//! `bench --backend cuda` times one.

use super::compile_amazons::{compile, pack, BLOCK};
use super::discovery::device_info;
use super::CudaError;
use crate::game::amazons::Position;
use cudarc::driver::{
    result, sys, CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, DevicePtrMut,
    LaunchConfig, PinnedHostSlice, PushKernelArg,
};
use std::sync::Arc;

/// Input words a position: the side to move's queens, the other side's,
/// the empty squares, each (low, high).
pub const WORDS: usize = 6;

/// One position's result: Lieberum's value for the side to move (squares)
/// and w, 0 exactly when the armies are apart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuValue {
    pub value: f32,
    pub w: f32,
}

/// The kernel on one stream with its buffers.
pub struct AmazonsGpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    function: CudaFunction,
    input: CudaSlice<u64>,
    output: CudaSlice<f32>,
    /// Page-locked, so that the copies are DMA from this memory rather
    /// than through the driver's staging buffer; write-combined, since the
    /// host only writes it.
    host_input: PinnedHostSlice<u64>,
    /// Page-locked and cached: the host reads it.
    host_output: PinnedHostSlice<f32>,
    capacity: usize,
    /// Whether an upload was queued that no synchronisation has waited for
    /// yet (its copy may still read the pinned input).
    queued: bool,
    /// The device's name, for reports.
    pub name: String,
}

/// Positions the buffers hold at first: an expansion at the start has
/// 2,176 children.
const FIRST_CAPACITY: usize = 4096;

impl AmazonsGpu {
    /// Opens GPU `ordinal` and compiles the kernel for it.
    pub fn open(ordinal: usize) -> Result<Self, CudaError> {
        let info = device_info(ordinal)?;
        let ptx = compile(&info.arch())?;
        let ctx = CudaContext::new(ordinal)?;
        // SAFETY: every buffer here is allocated, copied, launched on and
        // freed only on the stream of the evaluator that owns it (`with`,
        // `reserve`), so that stream's order alone orders all its uses.
        // cudarc's per-buffer events would add a wait and a record to every
        // copy and launch argument — a dozen driver calls a batch, each
        // taking the context's lock that the other threads' batches need —
        // and order nothing more.
        unsafe { ctx.disable_event_tracking() };
        let module = ctx.load_module(ptx)?;
        let function = module.load_function("amazons_eval")?;
        Self::with(ctx, function, info.name)
    }

    /// Another evaluator on the same GPU and kernel with a stream and
    /// buffers of its own: its batches run alongside this one's.
    pub fn another(&self) -> Result<Self, CudaError> {
        Self::with(self.ctx.clone(), self.function.clone(), self.name.clone())
    }

    fn with(
        ctx: Arc<CudaContext>,
        function: CudaFunction,
        name: String,
    ) -> Result<Self, CudaError> {
        // A stream that does not wait for the legacy default stream, so
        // that evaluators on one GPU overlap.
        let stream = ctx.new_stream()?;
        let (input, output, host_input, host_output) = buffers(&ctx, &stream, FIRST_CAPACITY)?;
        Ok(Self {
            ctx,
            stream,
            function,
            input,
            output,
            host_input,
            host_output,
            capacity: FIRST_CAPACITY,
            queued: false,
            name,
        })
    }

    /// Room for `count` positions; a larger batch reallocates once to the
    /// next power of two.
    fn reserve(&mut self, count: usize) -> Result<(), CudaError> {
        if count > self.capacity {
            let capacity = count.next_power_of_two();
            self.synchronize()?;
            let (input, output, host_input, host_output) =
                buffers(&self.ctx, &self.stream, capacity)?;
            self.input = input;
            self.output = output;
            self.host_input = host_input;
            self.host_output = host_output;
            self.capacity = capacity;
        }
        Ok(())
    }

    /// Writes `count` positions' input words with `fill` (given the pinned
    /// buffer's first `WORDS * count` words) and copies them to the device.
    pub fn upload_with(
        &mut self,
        count: usize,
        fill: impl FnOnce(&mut [u64]),
    ) -> Result<(), CudaError> {
        // The raw copies below need the context current on this thread (a
        // search thread, not the one that opened the GPU).
        self.ctx.bind_to_thread()?;
        self.reserve(count)?;
        // The previous batch's copy may still read the pinned buffer, unless
        // its download (the search's case) already waited for it.
        if self.queued {
            self.synchronize()?;
        }
        let words = WORDS * count;
        let host = &mut self.host_input.as_mut_slice()?[..words];
        fill(host);
        if words == 0 {
            return Ok(());
        }
        let (dst, _record) = self.input.device_ptr_mut(&self.stream);
        // SAFETY: `dst` holds WORDS * capacity ≥ `words` u64s; `host` is
        // page-locked and is not written again before the stream is
        // synchronised (here, at the next upload, or in `download`), so it
        // outlives the asynchronous copy.
        unsafe { result::memcpy_htod_async(dst, &*host, self.stream.cu_stream()) }?;
        self.queued = true;
        Ok(())
    }

    /// Copies `positions` to the device (the input of [`Self::launch`]).
    pub fn upload(&mut self, positions: &[Position]) -> Result<(), CudaError> {
        self.upload_with(positions.len(), |host| {
            for (words, pos) in host.chunks_exact_mut(WORDS).zip(positions) {
                words.copy_from_slice(&pack(pos));
            }
        })
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

    /// Copies the first `count` results back, waits for the stream (the
    /// one synchronisation of a batch) and returns them as (value, w)
    /// pairs.
    pub fn download(&mut self, count: usize) -> Result<&[f32], CudaError> {
        if count > self.capacity {
            return Err(CudaError::Input("more positions than launched".into()));
        }
        let floats = 2 * count;
        self.ctx.bind_to_thread()?;
        if floats > 0 {
            let (src, _record) = self.output.device_ptr(&self.stream);
            let host = &mut self.host_output.as_mut_slice()?[..floats];
            // SAFETY: `src` holds 2 * capacity ≥ `floats` floats; `host` is
            // page-locked, and is read only after the synchronisation
            // below, when the copy is done.
            unsafe { result::memcpy_dtoh_async(host, src, self.stream.cu_stream()) }?;
        }
        self.synchronize()?;
        Ok(&self.host_output.as_slice()?[..floats])
    }

    /// Waits for the queued work.
    pub fn synchronize(&mut self) -> Result<(), CudaError> {
        self.stream.synchronize()?;
        self.queued = false;
        Ok(())
    }

    /// Evaluates `positions`: upload, one launch, download.
    pub fn evaluate(&mut self, positions: &[Position]) -> Result<Vec<GpuValue>, CudaError> {
        self.upload(positions)?;
        self.launch(positions.len())?;
        Ok(self
            .download(positions.len())?
            .chunks_exact(2)
            .map(|v| GpuValue {
                value: v[0],
                w: v[1],
            })
            .collect())
    }
}

type Buffers = (
    CudaSlice<u64>,
    CudaSlice<f32>,
    PinnedHostSlice<u64>,
    PinnedHostSlice<f32>,
);

/// Device and pinned host buffers for `capacity` positions.
fn buffers(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    capacity: usize,
) -> Result<Buffers, CudaError> {
    let input = stream.alloc_zeros::<u64>(WORDS * capacity)?;
    let output = stream.alloc_zeros::<f32>(2 * capacity)?;
    // SAFETY: pinned memory starts unset; u64 and f32 have no invalid bit
    // patterns, and every word is written (the input by the packing, the
    // output by the copy) before it is read.
    let host_input = unsafe {
        ctx.alloc_pinned_with_flags::<u64>(WORDS * capacity, sys::CU_MEMHOSTALLOC_WRITECOMBINED)
    }?;
    // SAFETY: as above.
    let host_output = unsafe { ctx.alloc_pinned_with_flags::<f32>(2 * capacity, 0) }?;
    Ok((input, output, host_input, host_output))
}
