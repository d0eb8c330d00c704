//! docs/diagnostics.md documents exactly the diagnostic codes that the sources can produce.
//!
//! Every string literal of the form `"E1234"` / `"W1234"` in the sources of the engine and the
//! adapters is a code some finding carries (the constructors take `&'static str` codes); every
//! table row `| CODE | severity | ...` of docs/diagnostics.md documents one. The two sets must be
//! equal, each code documented once, with the severity its letter says.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn is_code(s: &[u8]) -> bool {
    s.len() == 5 && (s[0] == b'E' || s[0] == b'W') && s[1..].iter().all(u8::is_ascii_digit)
}

/// `"E1234"`-like literals of one source text, with their line numbers.
fn codes_in(text: &str) -> Vec<(String, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len().saturating_sub(6) {
        if b[i] == b'"' && b[i + 6] == b'"' && is_code(&b[i + 1..i + 6]) {
            let line = text[..i].matches('\n').count() + 1;
            out.push((text[i + 1..i + 6].to_string(), line));
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Test modules (`tests.rs`, `#[cfg(test)] mod tests { ... }` at a file's end) mention codes in
/// assertions; only the code before them counts.
fn without_tests(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// code → where the sources produce it.
fn source_codes() -> BTreeMap<String, String> {
    let mut files = Vec::new();
    for crate_dir in ["engine/src", "cli/src", "lsp/src", "wasm/src", "server/src"] {
        rust_files(&root().join(crate_dir), &mut files);
    }
    files.sort();
    let mut codes = BTreeMap::new();
    for f in files {
        if f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (code, line) in codes_in(without_tests(&text)) {
            let at = format!("{}:{line}", f.strip_prefix(root()).unwrap_or(&f).display());
            codes.entry(code).or_insert(at);
        }
    }
    codes
}

/// code → (severity, line) of each documented row; a code documented twice is reported.
fn documented_codes() -> (BTreeMap<String, (String, usize)>, Vec<String>) {
    let text = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    let mut rows = BTreeMap::new();
    let mut twice = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || !cells[0].is_empty() || !is_code(cells[1].as_bytes()) {
            continue;
        }
        if rows
            .insert(cells[1].to_string(), (cells[2].to_string(), i + 1))
            .is_some()
        {
            twice.push(format!("{} (line {})", cells[1], i + 1));
        }
    }
    (rows, twice)
}

#[test]
fn the_docs_list_exactly_the_codes_the_sources_produce() {
    let produced = source_codes();
    let (documented, twice) = documented_codes();
    assert!(
        produced.len() > 40,
        "the scan found too few codes: {produced:?}"
    );
    let undocumented: Vec<String> = produced
        .iter()
        .filter(|(c, _)| !documented.contains_key(*c))
        .map(|(c, at)| format!("{c} (produced at {at})"))
        .collect();
    let stale: Vec<String> = documented
        .iter()
        .filter(|(c, _)| !produced.contains_key(*c))
        .map(|(c, (_, line))| format!("{c} (docs/diagnostics.md line {line})"))
        .collect();
    assert!(
        undocumented.is_empty() && stale.is_empty() && twice.is_empty(),
        "docs/diagnostics.md and the sources disagree.\n\
         produced but not documented: {undocumented:?}\n\
         documented but produced nowhere: {stale:?}\n\
         documented twice: {twice:?}"
    );
}

#[test]
fn each_documented_severity_matches_its_code_letter() {
    let (documented, _) = documented_codes();
    let wrong: Vec<String> = documented
        .iter()
        .filter(|(c, (sev, _))| {
            let want = if c.starts_with('E') {
                "error"
            } else {
                "warning"
            };
            sev != want
        })
        .map(|(c, (sev, line))| format!("{c} is documented as {sev:?} (line {line})"))
        .collect();
    assert!(wrong.is_empty(), "{wrong:?}");
}

#[test]
fn the_scanner_reads_literals_and_table_rows() {
    let src = "let a = \"E0301\"; let b = \"W12\"; let c = \"X0001\";\nlet d = \"W0406\";";
    assert_eq!(
        codes_in(src),
        vec![("E0301".to_string(), 1), ("W0406".to_string(), 2)]
    );
    assert_eq!(
        without_tests("a\n#[cfg(test)]\nmod tests {\"E0001\"}"),
        "a\n"
    );
}
