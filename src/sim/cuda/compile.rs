//! Kernel sources and their run-time compilation by NVRTC.
//!
//! NVRTC gets one translation unit per game: `common.cuh` concatenated in
//! front of the game's `.cu` file. Concatenation rather than a named
//! header keeps the sources plain files that `nvcc` could also build with
//! a `-include`, and needs no header-table plumbing through cudarc.
//!
//! The device compiles one board size at a time ([`compile`] with a size):
//! the kernel files instantiate each family once per size with a macro
//! call at the start of a line whose first argument is the size
//! (`GO_BITS_ENTRY(9, 8)`, `HEX_TABLES(10)`), and only that size's lines
//! are kept. NVRTC and the driver then compile a third of the Go code (a
//! quarter of Havannah's): on a fresh machine the whole of both took about
//! 35 s before the engine could answer, and the driver and NVRTC cache
//! each size's result on disk.

use super::CudaError;
use cudarc::nvrtc::{CompileError, CompileOptions, Ptx};

const COMMON: &str = include_str!("../../../kernels/common.cuh");
const GO_WEIGHTS: &str = include_str!("../../../kernels/go_weights.cu");
const GO: &str = include_str!("../../../kernels/go.cu");
const GO_POINTS: &str = include_str!("../../../kernels/go_points.cu");
const GO_BITSET: &str = include_str!("../../../kernels/go_bitset.cu");
const GO_BITS: &str = include_str!("../../../kernels/go_bits.cu");
const GO_BITS_ATARI: &str = include_str!("../../../kernels/go_bits_atari.cu");
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
                "go_weights.cu+go.cu+go_points.cu+go_bitset.cu+go_bits.cu+go_bits_atari.cu+go_bits_patterns.cu+go_rows.cu"
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
            // kernel and go_bits_atari.cu (the 19x19 light playouts, which
            // go_bits.cu's entry point calls) build on go_bits.cu's board,
            // and all on go_bitset.cu's sets.
            Source::Go => format!(
                "{COMMON}\n#line 1 \"go_weights.cu\"\n{GO_WEIGHTS}\n\
                 #line 1 \"go.cu\"\n{GO}\n#line 1 \"go_points.cu\"\n{GO_POINTS}\n\
                 #line 1 \"go_bitset.cu\"\n{GO_BITSET}\n\
                 #line 1 \"go_bits.cu\"\n{GO_BITS}\n\
                 #line 1 \"go_bits_atari.cu\"\n{GO_BITS_ATARI}\n\
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

/// The board size a line instantiates kernels for, if it is such a line:
/// a macro call at the start of the line (upper-case name) whose first
/// argument is a number.
fn instantiated_size(line: &str) -> Option<usize> {
    let (name, rest) = line.split_once('(')?;
    let macro_name = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    if !macro_name {
        return None;
    }
    let end = rest.find([',', ')'])?;
    rest[..end].trim().parse().ok()
}

/// `text` with only the kernel instances for `size` (see the module
/// comment).
fn keep_size(text: &str, size: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        // A dropped line stays as an empty one, so NVRTC's line numbers
        // still match the files.
        if instantiated_size(line).is_none_or(|s| s == size) {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// True when libnvrtc can be loaded. Must be asked before any NVRTC call:
/// cudarc panics when the library is missing.
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen candidate library names; no symbol is
    // called.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Compiles one source for `arch` (such as `compute_90`) into PTX: the
/// kernels of one board size, or with `None` of every size.
pub fn compile(source: Source, size: Option<usize>, arch: &str) -> Result<Ptx, CudaError> {
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
    let text = match size {
        Some(size) => keep_size(&source.text(), size),
        None => source.text(),
    };
    cudarc::nvrtc::compile_ptx_with_opts(text, opts).map_err(|e| match e {
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
        .map(|&source| Ok((source.stem(), compile(source, None, arch)?.to_src())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With NVRTC on the library path (`.ci/run` runs these tests again
    /// with PyPI's) this compiles every kernel; without the library it
    /// must fail with an error.
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
                compile(Source::Go, None, "sm_90; rm"),
                Err(CudaError::Input(_))
            ));
        }
    }

    #[test]
    fn finds_the_lines_that_instantiate_a_size() {
        assert_eq!(instantiated_size("GO_BITS_ENTRY(9, 8)"), Some(9));
        assert_eq!(instantiated_size("HEX_TABLES(10)"), Some(10));
        assert_eq!(instantiated_size("HEX_TABLES_BIND( 4 )"), Some(4));
        assert_eq!(instantiated_size("#define GO_ENTRY(N)   \\"), None);
        assert_eq!(instantiated_size("    GO_ENTRY(9)"), None);
        assert_eq!(instantiated_size("go_masks(9)"), None);
        assert_eq!(instantiated_size("GO_ENTRY(N)"), None);
        assert_eq!(instantiated_size("// GO_ENTRY(9)"), None);
    }

    /// Every size's own translation unit keeps its instances, drops the
    /// others' and keeps the line count; with NVRTC (`.ci/run` runs these
    /// tests again with PyPI's), each compiles and exports exactly its
    /// size's kernels.
    #[test]
    fn each_size_compiles_alone() {
        let cases = [
            (Source::Go, &[9usize, 13, 19][..]),
            (Source::Havannah, &[4, 6, 8, 10][..]),
        ];
        for (source, sizes) in cases {
            let full = source.text();
            for &size in sizes {
                let text = keep_size(&full, size);
                assert_eq!(text.lines().count(), full.lines().count());
                let kept: Vec<usize> = text.lines().filter_map(instantiated_size).collect();
                assert!(
                    !kept.is_empty() && kept.iter().all(|&s| s == size),
                    "{kept:?}"
                );
                if !nvrtc_present() {
                    continue;
                }
                let ptx = compile(source, Some(size), "compute_90")
                    .unwrap_or_else(|e| panic!("{} size {size}: {e}", source.stem()))
                    .to_src();
                let entry = |s: usize| match source {
                    Source::Go => format!(".entry go_bits_random_{s}("),
                    Source::Havannah => format!(".entry hex_packed_{s}("),
                };
                assert!(ptx.contains(&entry(size)));
                for &other in sizes.iter().filter(|&&o| o != size) {
                    assert!(
                        !ptx.contains(&entry(other)),
                        "size {other} in size {size}'s PTX"
                    );
                }
            }
        }
    }
}
