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

use super::family::Family;
use super::CudaError;
use crate::sim::go_rollout::GoPolicy;
use cudarc::nvrtc::{CompileError, CompileOptions, Ptx};

/// Which kernel file goes into which unit, and who compiles it.
const MANIFEST: &str = include_str!("../../../kernels/manifest");

const COMMON: &str = include_str!("../../../kernels/common.cuh");

/// Every kernel file the manifest may name, with its text (embedded: the
/// binary needs no kernel files at run time).
const FILES: &[(&str, &str)] = &[
    (
        "go_weights.cu",
        include_str!("../../../kernels/go_weights.cu"),
    ),
    ("go.cu", include_str!("../../../kernels/go.cu")),
    (
        "go_points.cu",
        include_str!("../../../kernels/go_points.cu"),
    ),
    (
        "go_bitset.cu",
        include_str!("../../../kernels/go_bitset.cu"),
    ),
    ("go_bits.cu", include_str!("../../../kernels/go_bits.cu")),
    (
        "go_bits_atari.cu",
        include_str!("../../../kernels/go_bits_atari.cu"),
    ),
    (
        "go_bits_patterns.cu",
        include_str!("../../../kernels/go_bits_patterns.cu"),
    ),
    ("go_rows.cu", include_str!("../../../kernels/go_rows.cu")),
    ("havannah.cu", include_str!("../../../kernels/havannah.cu")),
    (
        "havannah_packed.cu",
        include_str!("../../../kernels/havannah_packed.cu"),
    ),
];

/// Which of a game's kernels a GPU compiles: every one (benchmarks and
/// checks compare them all), or only those the engine plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KernelSet {
    #[default]
    All,
    /// The engine's kernels for Go playouts with this policy.
    Engine(GoPolicy),
}

impl KernelSet {
    /// Whether a manifest `role` is in the set.
    fn includes(self, role: &str) -> bool {
        match self {
            KernelSet::All => true,
            KernelSet::Engine(policy) => {
                role == "engine"
                    || (role == "points" && matches!(policy, GoPolicy::Weighted3x3 | GoPolicy::M2))
            }
        }
    }
}

/// The manifest's rows: (game, file, role), comments and blank lines
/// left out.
fn manifest() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    MANIFEST
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            Some((words.next()?, words.next()?, words.next()?))
        })
}

impl Family {
    /// The kernel files of `set`, in the manifest's order.
    pub fn files(self, set: KernelSet) -> Vec<&'static str> {
        manifest()
            .filter(|&(game, _, role)| game == self.stem() && set.includes(role))
            .map(|(_, file, _)| file)
            .collect()
    }

    /// The files joined with `+`, for compile errors.
    pub fn name(self, set: KernelSet) -> String {
        self.files(set).join("+")
    }

    /// The full translation unit handed to NVRTC: `common.cuh`, then each
    /// file behind a `#line` so that NVRTC's messages name it. All Go
    /// kernels share go.cu's leaf header and constants and go_weights.cu's
    /// move weights and pattern table; the pattern kernel and
    /// go_bits_atari.cu (the 19x19 light playouts, which go_bits.cu's
    /// entry point calls) build on go_bits.cu's board, and all on
    /// go_bitset.cu's sets. The packed Havannah kernels reuse
    /// havannah.cu's tables and leaf header.
    pub fn text(self, set: KernelSet) -> String {
        let mut text = format!("{COMMON}\n");
        for (i, file) in self.files(set).into_iter().enumerate() {
            let body = FILES
                .iter()
                .find(|(name, _)| *name == file)
                .map_or("", |(_, body)| body);
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&format!("#line 1 \"{file}\"\n{body}"));
        }
        text
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

/// Compiles every kernel of one source for `arch` (such as `compute_90`)
/// into PTX: the kernels of one board size, or with `None` of every size.
pub fn compile(source: Family, size: Option<usize>, arch: &str) -> Result<Ptx, CudaError> {
    compile_set(source, KernelSet::All, size, arch)
}

/// [`compile`] for the kernels of `set` only.
pub fn compile_set(
    source: Family,
    set: KernelSet,
    size: Option<usize>,
    arch: &str,
) -> Result<Ptx, CudaError> {
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
        name: Some(source.name(set)),
        ..Default::default()
    };
    let text = match size {
        Some(size) => keep_size(&source.text(set), size),
        None => source.text(set),
    };
    cudarc::nvrtc::compile_ptx_with_opts(text, opts).map_err(|e| match e {
        CompileError::CompileError { nvrtc, log, .. } => CudaError::Compile {
            kernel: source.name(set),
            arch: arch.to_string(),
            message: format!("{nvrtc:?}"),
            log: log.to_string_lossy().into_owned(),
        },
        other => CudaError::Compile {
            kernel: source.name(set),
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
    Family::ALL
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
            Ok(ptx) => assert!(nvrtc_present() && ptx.len() == Family::ALL.len()),
            Err(CudaError::NoNvrtcLibrary) => assert!(!nvrtc_present()),
            Err(e) => panic!("kernels failed to compile: {e}"),
        }
    }

    #[test]
    fn rejects_a_malformed_architecture() {
        if nvrtc_present() {
            assert!(matches!(
                compile(Family::Go, None, "sm_90; rm"),
                Err(CudaError::Input(_))
            ));
        }
    }

    /// The manifest names every kernel file once, each one is embedded,
    /// and no `.cu` file in `kernels/` is left out.
    #[test]
    fn the_manifest_lists_every_kernel_file() {
        let mut listed: Vec<&str> = manifest().map(|(_, file, _)| file).collect();
        listed.sort_unstable();
        let mut embedded: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
        embedded.sort_unstable();
        assert_eq!(listed, embedded);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".cu"))
            .collect();
        on_disk.sort_unstable();
        assert_eq!(on_disk, listed);
        for (_, _, role) in manifest() {
            assert!(["engine", "points", "ab"].contains(&role), "{role}");
        }
    }

    #[test]
    fn the_engine_compiles_only_what_its_policy_plays() {
        let patterns = Family::Go.files(KernelSet::Engine(GoPolicy::Patterns));
        assert!(patterns.contains(&"go_bits_patterns.cu") && patterns.contains(&"go_bits.cu"));
        assert!(!patterns.contains(&"go_rows.cu") && !patterns.contains(&"go_points.cu"));
        let m2 = Family::Go.files(KernelSet::Engine(GoPolicy::M2));
        assert!(m2.contains(&"go_points.cu") && !m2.contains(&"go_rows.cu"));
        let all = Family::Go.files(KernelSet::All);
        assert_eq!(all.len(), 8);
        assert_eq!(all[0], "go_weights.cu", "weights and tables first");
        assert_eq!(
            Family::Havannah.files(KernelSet::Engine(GoPolicy::Random)),
            Family::Havannah.files(KernelSet::All)
        );
    }

    /// With NVRTC, the engine's unit of each Go size and policy compiles
    /// and exports the kernel the engine launches for that policy
    /// (`tuning::go_kernel`), and no A/B-only kernel.
    #[test]
    fn engine_units_compile_with_their_kernels() {
        use super::super::GoKernel;
        if !nvrtc_present() {
            return;
        }
        // Random and Patterns compile one set, 3x3 and M2 another.
        let sets = [
            (GoPolicy::Patterns, [GoPolicy::Random, GoPolicy::Patterns]),
            (GoPolicy::M2, [GoPolicy::Weighted3x3, GoPolicy::M2]),
        ];
        for size in [9usize, 19] {
            for (set, policies) in sets {
                let ptx = compile_set(Family::Go, KernelSet::Engine(set), Some(size), "compute_90")
                    .unwrap_or_else(|e| panic!("{set:?} size {size}: {e}"))
                    .to_src();
                assert!(!ptx.contains("go_rows_random"), "{set:?} {size}");
                for policy in policies {
                    let entry = match super::super::tuning::go_kernel(size * size, policy) {
                        GoKernel::Bitboard => format!("go_bits_random_{size}"),
                        GoKernel::BitboardPatterns => format!("go_bits_patterns_{size}"),
                        GoKernel::PointPerThread3x3 => format!("go_points_3x3_{size}"),
                        GoKernel::PointPerThreadM2 => format!("go_points_m2_{size}"),
                        GoKernel::PlayoutPerThread3x3 => format!("go_3x3_{size}"),
                        GoKernel::PlayoutPerThreadM2 => format!("go_m2_{size}"),
                        other => panic!("the engine does not launch {other:?}"),
                    };
                    assert!(
                        ptx.contains(&format!(".entry {entry}(")),
                        "{policy:?} {size}"
                    );
                }
            }
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
            (Family::Go, &[9usize, 13, 19][..]),
            (Family::Havannah, &[4, 6, 8, 10][..]),
        ];
        for (source, sizes) in cases {
            let full = source.text(KernelSet::All);
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
                    Family::Go => format!(".entry go_bits_random_{s}("),
                    Family::Havannah => format!(".entry hex_packed_{s}("),
                };
                assert!(ptx.contains(&entry(size)));
                if source == Family::Havannah {
                    // Every variant the host can launch, both policies.
                    for v in super::super::HexVariant::ALL {
                        let name = format!(".entry hex_{}_{size}(", v.stem());
                        assert!(ptx.contains(&name), "{name} missing");
                    }
                }
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
