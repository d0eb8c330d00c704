//! `docs/semantics.md` and the tests stay together: every section cited anywhere in the repository
//! (`docs/semantics.md §N` or `§N.M`, also lists such as `docs/semantics.md §4.2, §7.1` and ranges
//! `§2–§8`) must exist, and every section must be cited by a test or a test fixture (the test that
//! checks its rule): the Rust tests and test data of every package and the repository's `tests/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate lives in the repository root")
        .to_path_buf()
}

/// The section numbers of `docs/semantics.md`: `## N. Title` and `### N.M Title`, with whether a
/// top-level section has subsections.
fn sections(text: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    for line in text.lines() {
        let (level, rest) = if let Some(r) = line.strip_prefix("### ") {
            (3, r)
        } else if let Some(r) = line.strip_prefix("## ") {
            (2, r)
        } else {
            continue;
        };
        let num: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let num = num.trim_end_matches('.').to_string();
        assert!(
            !num.is_empty(),
            "docs/semantics.md: unnumbered section {line:?}"
        );
        if level == 3 {
            let parent = num.split('.').next().unwrap().to_string();
            let p = out
                .iter_mut()
                .rev()
                .find(|(n, _)| *n == parent)
                .unwrap_or_else(|| panic!("docs/semantics.md: {num} outside section {parent}"));
            p.1 = true;
        }
        assert!(
            out.iter().all(|(n, _)| *n != num),
            "docs/semantics.md: section {num} twice"
        );
        out.push((num, false));
    }
    out
}

/// The section numbers cited in `text`: each `docs/semantics.md` followed (after a backquote,
/// spaces, commas, `and`, dashes or a line break with a comment marker) by `§N[.M]` items.
fn citations(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("docs/semantics.md") {
        let mut rest = &text[at + "docs/semantics.md".len()..];
        loop {
            let trimmed = rest.trim_start_matches(|c: char| {
                c.is_whitespace() || matches!(c, '`' | ',' | '(' | '–' | '-' | '%' | '/' | '*')
            });
            let trimmed = trimmed.strip_prefix("and ").unwrap_or(trimmed);
            let Some(after) = trimmed.strip_prefix('§') else {
                break;
            };
            let num: String = after
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let num = num.trim_end_matches('.').to_string();
            if num.is_empty() {
                break;
            }
            rest = &after[num.len()..];
            out.push(num);
        }
    }
    out
}

/// Text files under `dir` (recursively), skipping build output, dependencies and the fuzzers'
/// corpora and findings (not in the repository: cargo-fuzz writes them).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.expect("directory entry").path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !matches!(
                name.as_str(),
                "target" | "node_modules" | ".git" | "pkg" | "vendor" | "corpus" | "artifacts"
            ) {
                files(&p, out);
            }
        } else if let Ok(text) = std::fs::read_to_string(&p) {
            if text.contains("docs/semantics.md") {
                out.push(p);
            }
        }
    }
}

fn cited_in(dirs: &[&str]) -> Vec<(PathBuf, String)> {
    let root = repo();
    let mut paths = Vec::new();
    for d in dirs {
        files(&root.join(d), &mut paths);
    }
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap();
        for n in citations(&text) {
            out.push((p.strip_prefix(&root).unwrap().to_path_buf(), n));
        }
    }
    out
}

#[test]
fn the_citation_reader_reads_lists_ranges_and_broken_lines() {
    let text =
        "(docs/semantics.md §4.2, §7.1) and `docs/semantics.md` §2–§8; docs/semantics.md\n% §4.4)";
    assert_eq!(citations(text), ["4.2", "7.1", "2", "8", "4.4"]);
    assert_eq!(
        citations("docs/semantics.md, the rules"),
        Vec::<String>::new()
    );
}

#[test]
fn every_cited_section_exists() {
    let text = std::fs::read_to_string(repo().join("docs/semantics.md")).unwrap();
    let known: BTreeSet<String> = sections(&text).into_iter().map(|(n, _)| n).collect();
    let dirs = [
        "engine",
        "cli",
        "lsp",
        "wasm",
        "swipl",
        "tests",
        "docs",
        "games",
        "scripts",
        "playground",
        "vscode-extension",
        "editors",
        "fuzz",
        "bench",
        "ARCHITECTURE.md",
        "README.md",
        "CONTRIBUTING.md",
    ];
    let mut missing = Vec::new();
    for d in dirs {
        let p = repo().join(d);
        let cited = if p.is_file() {
            citations(&std::fs::read_to_string(&p).unwrap())
                .into_iter()
                .map(|n| (PathBuf::from(d), n))
                .collect()
        } else {
            cited_in(&[d])
        };
        for (file, n) in cited {
            if !known.contains(&n) {
                missing.push(format!("{}: §{n}", file.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "sections cited but not in docs/semantics.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_section_is_cited_by_a_test() {
    let text = std::fs::read_to_string(repo().join("docs/semantics.md")).unwrap();
    let secs = sections(&text);
    assert!(secs.len() > 20, "docs/semantics.md has its sections");
    // the tests and their data: every package's tests/ and the repository's tests/
    let cited: BTreeSet<String> = cited_in(&[
        "engine/tests",
        "cli/tests",
        "lsp/tests",
        "wasm/tests",
        "swipl/tests",
        "tests",
    ])
    .into_iter()
    .map(|(_, n)| n)
    .collect();
    let uncited: Vec<&str> = secs
        .iter()
        .filter(|(n, has_subsections)| {
            let direct = cited.contains(n);
            // a section with subsections is covered by its subsections
            let via_sub = *has_subsections && cited.iter().any(|c| c.starts_with(&format!("{n}.")));
            !direct && !via_sub
        })
        .map(|(n, _)| n.as_str())
        .collect();
    assert!(
        uncited.is_empty(),
        "sections of docs/semantics.md that no test or fixture cites (write `docs/semantics.md §N` \
         beside the test that checks the rule): {uncited:?}"
    );
}
