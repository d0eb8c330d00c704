//! `ARCHITECTURE.md` is a map: every path it names in backquotes (a word with a `/` or a file
//! extension, relative to the repository root or, for a bare file name, found somewhere in the
//! repository) must exist, so the map fails its test as soon as a file moves.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate lives in the repository root")
        .to_path_buf()
}

const EXTENSIONS: &[&str] = &[
    ".rs", ".md", ".sh", ".pl", ".toml", ".js", ".mjs", ".json", ".el", ".lua", ".ts", ".sidl",
];

/// The backquoted spans of `text` that name a path.
fn paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut parts = text.split('`');
    parts.next();
    while let Some(inside) = parts.next() {
        parts.next();
        let looks_like_path = !inside.contains(char::is_whitespace)
            && !inside.contains(['*', '<', '>', ':', '(', '@', '='])
            && (inside.contains('/') || EXTENSIONS.iter().any(|e| inside.ends_with(e)));
        if looks_like_path {
            out.push(inside.to_string());
        }
    }
    out
}

/// Whether a file named `name` exists anywhere under `dir` (build output excluded).
fn found(dir: &Path, name: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let p = e.path();
        let n = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            !matches!(n.as_str(), "target" | "node_modules" | ".git") && found(&p, name)
        } else {
            n == name
        }
    })
}

#[test]
fn the_path_reader_finds_paths_and_skips_code() {
    let text = "`engine/src/` and `docs/x.md`, not `sidl check` nor `games/*.sidl` nor `Session`";
    assert_eq!(paths(text), ["engine/src/", "docs/x.md"]);
}

#[test]
fn every_path_named_in_architecture_md_exists() {
    let root = repo();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let named = paths(&text);
    assert!(
        named.len() > 30,
        "ARCHITECTURE.md names its paths: {named:?}"
    );
    let missing: Vec<&String> = named
        .iter()
        .filter(|p| {
            if p.contains('/') {
                !root.join(p).exists()
            } else {
                !found(&root, p)
            }
        })
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}
