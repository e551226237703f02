//! The crate's layers import one way: cli and bench on top, then protocol →
//! engine → search → sim → game (solve beside search), and nothing reaches
//! back up. Checked on the source text, so a new upward `use` fails here
//! rather than in review.

use std::path::Path;

/// A module's height: it may name its own layer and any lower one.
fn height(layer: &str) -> Option<u8> {
    Some(match layer {
        "game" => 0,
        "sim" => 1,
        "search" | "solve" => 2,
        "engine" => 3,
        "protocol" => 4,
        "bench" | "cli" => 5,
        _ => return None,
    })
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("reading src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `crate::<layer>` a file names outside comments.
fn named_layers(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push((n + 1, name));
        }
    }
    found
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut upward = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let layer = top.trim_end_matches(".rs");
        let Some(own) = height(layer) else { continue };
        let text = std::fs::read_to_string(file).unwrap();
        for (line, name) in named_layers(&text) {
            if height(&name).is_some_and(|h| h > own) {
                upward.push(format!("{}:{line}: crate::{name}", rel.display()));
            }
        }
    }
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn the_check_sees_an_upward_import() {
    let found = named_layers("use crate::protocol::Reply; // crate::cli\n");
    assert_eq!(found, vec![(1, "protocol".to_string())]);
}
