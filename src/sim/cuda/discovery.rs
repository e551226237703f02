//! Finding the GPUs: whether the driver library loads, which devices it
//! lists and what they are, all without a context (see `describe`); and
//! [`try_open`], the one check that does open one.

use super::CudaError;
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::CudaContext;

/// One usable GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub ordinal: usize,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: i32,
    pub total_memory: usize,
}

impl DeviceInfo {
    /// NVRTC architecture name for this device, e.g. `compute_90`.
    pub fn arch(&self) -> String {
        format!(
            "compute_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }
}

/// True when libcuda can be loaded; asked before any driver call because
/// cudarc panics without it.
pub fn driver_present() -> bool {
    // SAFETY: only tries to dlopen candidate library names.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Lists usable GPUs. No library or no device is an error, not a panic.
pub fn probe() -> Result<Vec<DeviceInfo>, CudaError> {
    (0..device_count()?).map(describe).collect()
}

/// GPU `ordinal` as [`probe`] lists it, without describing the others.
pub fn device_info(ordinal: usize) -> Result<DeviceInfo, CudaError> {
    if ordinal >= device_count()? {
        return Err(CudaError::NoDevice);
    }
    describe(ordinal)
}

/// Initialises the driver and counts its devices (at least one).
fn device_count() -> Result<usize, CudaError> {
    if !driver_present() {
        return Err(CudaError::NoDriverLibrary);
    }
    cudarc::driver::result::init().map_err(|e| match e.0 {
        cudarc::driver::sys::CUresult::CUDA_ERROR_NO_DEVICE => CudaError::NoDevice,
        _ => e.into(),
    })?;
    let count = cudarc::driver::result::device::get_count()?;
    if count <= 0 {
        return Err(CudaError::NoDevice);
    }
    Ok(count as usize)
}

/// Opens and closes a context on GPU `ordinal` (listed by [`probe`]): the
/// proof that the GPU can be used, which the probe no longer gives. For
/// `--backend cuda`, which must refuse an unusable GPU at once rather than
/// fall back to the CPU.
pub fn try_open(ordinal: usize) -> Result<(), CudaError> {
    CudaContext::new(ordinal).map(drop).map_err(CudaError::from)
}

/// GPU `ordinal` as the driver's device queries describe it, without a
/// context. The probe used to open (and at once close) a context per GPU,
/// once for the command line and again for every GPU opened: a
/// four-GPU engine created 18 contexts (up to five per GPU, all but the
/// last closed at once) where it needs 4, and opening the GPUs took
/// 2.1 s (H200 x4, 2026-11-21). Sixteen such engines starting at once (a
/// match script, 16 games at a time) left 13 of them without a reply to
/// their first command within the controller's 60 s.
fn describe(ordinal: usize) -> Result<DeviceInfo, CudaError> {
    use cudarc::driver::result::device;
    let dev = device::get(ordinal as i32)?;
    let attribute = |attribute| {
        // SAFETY: `dev` is a handle `device::get` just returned.
        unsafe { device::get_attribute(dev, attribute) }
    };
    Ok(DeviceInfo {
        ordinal,
        name: device::get_name(dev)?,
        compute_capability: (
            attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ),
        multiprocessors: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        // SAFETY: as above.
        total_memory: unsafe { device::total_mem(dev) }?,
    })
}
