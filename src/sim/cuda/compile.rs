//! Kernel sources and their run-time compilation by NVRTC.
//!
//! NVRTC gets one translation unit per game: `common.cuh` concatenated in
//! front of the game's `.cu` file. Concatenation rather than a named
//! header keeps the sources plain files that `nvcc` could also build with
//! a `-include`, and needs no header-table plumbing through cudarc.

use super::CudaError;
use cudarc::nvrtc::{CompileError, CompileOptions, Ptx};

const COMMON: &str = include_str!("../../../kernels/common.cuh");
const GO_WEIGHTS: &str = include_str!("../../../kernels/go_weights.cu");
const GO: &str = include_str!("../../../kernels/go.cu");
const GO_POINTS: &str = include_str!("../../../kernels/go_points.cu");
const GO_BITS: &str = include_str!("../../../kernels/go_bits.cu");
const GO_BITS_PATTERNS: &str = include_str!("../../../kernels/go_bits_patterns.cu");
const GO_ROWS: &str = include_str!("../../../kernels/go_rows.cu");
const HAVANNAH: &str = include_str!("../../../kernels/havannah.cu");
const HAVANNAH_PACKED: &str = include_str!("../../../kernels/havannah_packed.cu");

/// A kernel source file the backend compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Go,
    Havannah,
}

impl Source {
    pub const ALL: [Source; 2] = [Source::Go, Source::Havannah];

    pub fn name(self) -> &'static str {
        match self {
            Source::Go => {
                "go_weights.cu+go.cu+go_points.cu+go_bits.cu+go_bits_patterns.cu+go_rows.cu"
            }
            Source::Havannah => "havannah.cu+havannah_packed.cu",
        }
    }

    /// A short file stem for the source's PTX.
    pub fn stem(self) -> &'static str {
        match self {
            Source::Go => "go",
            Source::Havannah => "havannah",
        }
    }

    /// The full translation unit handed to NVRTC.
    pub fn text(self) -> String {
        match self {
            // All Go kernels share go.cu's leaf header and constants and
            // go_weights.cu's move weights and pattern table; the pattern
            // kernel builds on go_bits.cu's board.
            Source::Go => format!(
                "{COMMON}\n#line 1 \"go_weights.cu\"\n{GO_WEIGHTS}\n\
                 #line 1 \"go.cu\"\n{GO}\n#line 1 \"go_points.cu\"\n{GO_POINTS}\n\
                 #line 1 \"go_bits.cu\"\n{GO_BITS}\n\
                 #line 1 \"go_bits_patterns.cu\"\n{GO_BITS_PATTERNS}\n\
                 #line 1 \"go_rows.cu\"\n{GO_ROWS}"
            ),
            // The packed kernels reuse havannah.cu's tables and leaf header.
            Source::Havannah => format!(
                "{COMMON}\n#line 1 \"havannah.cu\"\n{HAVANNAH}\n\
                 #line 1 \"havannah_packed.cu\"\n{HAVANNAH_PACKED}"
            ),
        }
    }
}

/// True when libnvrtc can be loaded. Must be asked before any NVRTC call:
/// cudarc panics when the library is missing.
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen candidate library names; no symbol is
    // called.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Compiles one source for `arch` (such as `compute_90`) into PTX.
pub fn compile(source: Source, arch: &str) -> Result<Ptx, CudaError> {
    if !nvrtc_present() {
        return Err(CudaError::NoNvrtcLibrary);
    }
    if !arch.starts_with("compute_") || !arch[8..].chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(CudaError::Input(format!("bad architecture name {arch:?}")));
    }
    let opts = CompileOptions {
        options: vec![
            format!("--gpu-architecture={arch}"),
            "--std=c++17".to_string(),
            "-default-device".to_string(),
        ],
        name: Some(source.name().to_string()),
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(source.text(), opts).map_err(|e| match e {
        CompileError::CompileError { nvrtc, log, .. } => CudaError::Compile {
            kernel: source.name(),
            arch: arch.to_string(),
            message: format!("{nvrtc:?}"),
            log: log.to_string_lossy().into_owned(),
        },
        other => CudaError::Compile {
            kernel: source.name(),
            arch: arch.to_string(),
            message: format!("{other:?}"),
            log: String::new(),
        },
    })
}

/// Compiles every kernel source for `arch` (`compute_90` for Hopper). Needs
/// libnvrtc but no GPU: CI runs it with NVRTC from PyPI. Returns each
/// source's file stem (`go`, `havannah`) with its PTX text, so a developer
/// can feed it to `ptxas -v` for register and spill counts.
pub fn compile_all(arch: &str) -> Result<Vec<(&'static str, String)>, CudaError> {
    Source::ALL
        .iter()
        .map(|&source| Ok((source.stem(), compile(source, arch)?.to_src())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CI puts PyPI's NVRTC on the library path, so this compiles every
    /// kernel there; without the library it must fail with an error.
    #[test]
    fn compile_all_compiles_or_reports_the_missing_library() {
        match compile_all("compute_90") {
            Ok(ptx) => assert!(nvrtc_present() && ptx.len() == Source::ALL.len()),
            Err(CudaError::NoNvrtcLibrary) => assert!(!nvrtc_present()),
            Err(e) => panic!("kernels failed to compile: {e}"),
        }
    }

    #[test]
    fn rejects_a_malformed_architecture() {
        if nvrtc_present() {
            assert!(matches!(
                compile(Source::Go, "sm_90; rm"),
                Err(CudaError::Input(_))
            ));
        }
    }
}
