//! Shared code of the differential tests (`swipl/tests/it/differential.rs`: our engine against SWI-Prolog;
//! `swipl/tests/it/prelude_swi.rs`: our Prolog prelude run inside SWI-Prolog against SWI's own library).
//!
//! The corpus format, the SWI side and the result format are described in `swi_runner.pl`; in short:
//! one query per line, `[@prog1,prog2: ]Goal.`, and one result block per query: the answers (each the
//! `write_canonical` text of the list of the bindings of the query's named variables), then a
//! terminator (`end`, `more`, `error FORMAL`, `throw BALL`, `syntax`, `limit`).
//!
//! Environment variables: `SWIPL` (the swipl binary, default `swipl`), `SIDL_DIFF_FILTER` (only the
//! queries whose id, e.g. `lists:12`, starts with or equals one of the comma-separated values, e.g.
//! `lists,arith:5`), `SIDL_DIFF_SHOW` (how many mismatches to print, default 60).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The most answers a query may show; one more is asked for to report `more`.
pub const CAP: usize = 50;

/// One corpus query.
#[derive(Clone, Debug)]
pub struct Case {
    /// `<corpus file stem>:<line number>`, or `stdin:<n>` for generated cases.
    pub id: String,
    /// Names of the programs (files `programs/<name>.pl`) loaded for the query.
    pub programs: Vec<String>,
    /// The goal text, with its final `.`.
    pub goal: String,
    /// The full corpus line.
    pub line: String,
}

/// A result block: the answer lines and the terminator line.
pub type Block = Vec<String>;

/// The engine crate's folder (this code is compiled into the `sidl-swipl-tests` package).
fn engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("engine")
}

pub fn dir() -> PathBuf {
    engine().join("tests").join("differential")
}

pub fn prelude_path() -> PathBuf {
    engine().join("src").join("solve").join("prelude.pl")
}

/// Splits a corpus line into programs and goal; `None` for blank and comment lines.
pub fn parse_line(line: &str) -> Option<(Vec<String>, String)> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('%') {
        return None;
    }
    if let (Some(rest), Some(colon)) = (t.strip_prefix('@'), t.find(':')) {
        let names = &rest[..colon - 1];
        let programs = names.split(',').map(|s| s.trim().to_string()).collect();
        return Some((programs, t[colon + 1..].trim().to_string()));
    }
    Some((Vec::new(), t.to_string()))
}

/// The cases of one corpus text; ids are `<stem>:<line>`.
pub fn parse_corpus(stem: &str, text: &str) -> Vec<Case> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            parse_line(line).map(|(programs, goal)| Case {
                id: format!("{stem}:{}", i + 1),
                programs,
                goal,
                line: line.trim().to_string(),
            })
        })
        .collect()
}

/// The corpus files, sorted by name.
pub fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir().join("corpus"))
        .expect("tests/differential/corpus")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// Every corpus case, in file and line order.
pub fn load_corpus() -> Vec<Case> {
    let mut cases = Vec::new();
    for f in corpus_files() {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&f).expect("corpus file");
        cases.extend(parse_corpus(&stem, &text));
    }
    cases
}

/// Whether `id` passes `SIDL_DIFF_FILTER`.
pub fn selected(id: &str) -> bool {
    match std::env::var("SIDL_DIFF_FILTER") {
        Ok(f) if !f.trim().is_empty() => f.split(',').map(str::trim).any(|p| {
            id == p
                || (id.starts_with(p) && id[p.len()..].starts_with(':'))
                || (p.ends_with(':') && id.starts_with(p))
        }),
        _ => true,
    }
}

/// The source text of the programs a case needs, concatenated (cached by the caller if needed).
pub fn program_source(programs: &[String]) -> String {
    let mut src = String::new();
    for p in programs {
        let path = dir().join("programs").join(format!("{p}.pl"));
        src.push_str(
            &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        );
        src.push('\n');
    }
    src
}

pub fn swipl() -> String {
    std::env::var("SWIPL").unwrap_or_else(|_| "swipl".to_string())
}

/// Fails (never skips) when SWI-Prolog is missing.
pub fn require_swipl() {
    let ok = Command::new(swipl())
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "the differential tests need SWI-Prolog 9 (`{}` not found or not runnable). CI installs the \
         `swi-prolog-nox` package (apt-get install swi-prolog-nox); set SWIPL to use another binary.",
        swipl()
    );
}

/// Runs the SWI runner on `input` (corpus lines, fed on standard input, ids `stdin:<line>`) or on the
/// corpus files, in reference mode or (with `prelude`) in prelude mode; returns the blocks by id.
pub fn run_swi(input: SwiInput<'_>, prelude: Option<&Path>) -> BTreeMap<String, Block> {
    require_swipl();
    let d = dir();
    let mut cmd = Command::new(swipl());
    cmd.arg("-q").arg(d.join("swi_runner.pl")).arg("--");
    if let Some(p) = prelude {
        cmd.arg("--prelude").arg(p);
    }
    cmd.arg("--programs")
        .arg(d.join("programs"))
        .arg("--cap")
        .arg(CAP.to_string());
    match input {
        SwiInput::Files(files) => {
            cmd.args(files);
            cmd.stdin(Stdio::null());
        }
        SwiInput::Lines(_) => {
            cmd.arg("-");
            cmd.stdin(Stdio::piped());
        }
    }
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn swipl");
    let writer = if let SwiInput::Lines(lines) = input {
        let mut stdin = child.stdin.take().unwrap();
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        Some(std::thread::spawn(move || {
            stdin.write_all(text.as_bytes()).expect("write to swipl");
        }))
    } else {
        None
    };
    let out = child.wait_with_output().expect("swipl output");
    if let Some(w) = writer {
        w.join().unwrap();
    }
    let stdout = String::from_utf8(out.stdout).expect("swipl output is UTF-8");
    assert!(
        out.status.success(),
        "swipl swi_runner.pl failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr),
        stdout.lines().rev().take(10).collect::<Vec<_>>().join("\n")
    );
    parse_blocks(&stdout)
}

pub enum SwiInput<'a> {
    Files(&'a [PathBuf]),
    Lines(&'a [String]),
}

/// Parses the runner's output into blocks by id.
pub fn parse_blocks(text: &str) -> BTreeMap<String, Block> {
    let mut blocks = BTreeMap::new();
    let mut cur: Option<(String, Block)> = None;
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("=== ") {
            if let Some((id, b)) = cur.take() {
                blocks.insert(id, b);
            }
            cur = Some((id.to_string(), Vec::new()));
        } else if let Some((_, b)) = cur.as_mut() {
            b.push(line.to_string());
        }
    }
    if let Some((id, b)) = cur {
        blocks.insert(id, b);
    }
    blocks
}

/// A block whose terminator shows that SWI itself could not answer (a corpus bug, not an engine bug).
pub fn swi_gave_up(b: &Block) -> bool {
    b.last()
        .is_none_or(|t| t == "limit" || t.starts_with("error resource_error"))
}

pub struct Mismatch {
    pub id: String,
    pub line: String,
    pub expected: Block,
    pub actual: Block,
}

/// Compares `actual` against `expected` for every case; a case missing on either side is a mismatch.
pub fn compare(
    cases: &[Case],
    expected: &BTreeMap<String, Block>,
    actual: &BTreeMap<String, Block>,
) -> Vec<Mismatch> {
    let missing = vec!["<no result>".to_string()];
    cases
        .iter()
        .filter_map(|c| {
            let e = expected.get(&c.id).unwrap_or(&missing);
            let a = actual.get(&c.id).unwrap_or(&missing);
            (e != a).then(|| Mismatch {
                id: c.id.clone(),
                line: c.line.clone(),
                expected: e.clone(),
                actual: a.clone(),
            })
        })
        .collect()
}

/// Panics with a readable report when there are mismatches.
pub fn report(
    what: &str,
    total: usize,
    expected_name: &str,
    actual_name: &str,
    mismatches: &[Mismatch],
) {
    if mismatches.is_empty() {
        eprintln!("{what}: {total} queries, all identical");
        return;
    }
    let show: usize = std::env::var("SIDL_DIFF_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let mut msg = String::new();
    for m in mismatches.iter().take(show) {
        let _ = writeln!(msg, "--- {}   {}", m.id, m.line);
        let _ = writeln!(msg, "  {expected_name}:");
        for l in m.expected.iter().take(12) {
            let _ = writeln!(msg, "    {l}");
        }
        let _ = writeln!(msg, "  {actual_name}:");
        for l in m.actual.iter().take(12) {
            let _ = writeln!(msg, "    {l}");
        }
    }
    let mut by_file: BTreeMap<&str, usize> = BTreeMap::new();
    for m in mismatches {
        *by_file
            .entry(m.id.split(':').next().unwrap_or(""))
            .or_default() += 1;
    }
    panic!(
        "{what}: {} of {total} queries differ (per file: {by_file:?}; showing {}; SIDL_DIFF_SHOW=n for more, \
         SIDL_DIFF_FILTER=file[:line],... to select)\n{msg}",
        mismatches.len(),
        show.min(mismatches.len())
    );
}

/// One entry of `differences.txt`.
#[derive(Clone, Debug)]
pub struct Difference {
    pub case: Case,
    pub swi: Block,
    pub ours: Block,
}

/// Parses `differences.txt`; cases get ids `stdin:<n>` in file order (the order they are fed to SWI).
pub fn load_differences() -> Vec<Difference> {
    let text = std::fs::read_to_string(dir().join("differences.txt")).expect("differences.txt");
    let mut out: Vec<Difference> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.starts_with('%') {
            continue;
        }
        if let Some(q) = line.strip_prefix("query:") {
            let (programs, goal) =
                parse_line(q).unwrap_or_else(|| panic!("differences.txt:{}: empty query", i + 1));
            let n = out.len() + 1;
            out.push(Difference {
                case: Case {
                    id: format!("stdin:{n}"),
                    programs,
                    goal,
                    line: q.trim().to_string(),
                },
                swi: Vec::new(),
                ours: Vec::new(),
            });
        } else if let Some(s) = line.strip_prefix("swi:") {
            out.last_mut()
                .expect("swi: before query:")
                .swi
                .push(s.trim().to_string());
        } else if let Some(s) = line.strip_prefix("ours:") {
            out.last_mut()
                .expect("ours: before query:")
                .ours
                .push(s.trim().to_string());
        } else {
            panic!("differences.txt:{}: unexpected line {line:?}", i + 1);
        }
    }
    out
}

/// Feeds `cases` (their full lines) to SWI on standard input; the cases must have ids `stdin:1..n`.
pub fn run_swi_cases(cases: &[Case], prelude: Option<&Path>) -> BTreeMap<String, Block> {
    for (i, c) in cases.iter().enumerate() {
        assert_eq!(
            c.id,
            format!("stdin:{}", i + 1),
            "generated cases are numbered in order"
        );
    }
    let lines: Vec<String> = cases.iter().map(|c| c.line.clone()).collect();
    run_swi(SwiInput::Lines(&lines), prelude)
}

/// Cases for generated query lines (no comment or blank lines), numbered `stdin:1..n`.
pub fn cases_from_lines(lines: &[String]) -> Vec<Case> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            assert!(!l.contains('\n'), "one query per line: {l:?}");
            let (programs, goal) = parse_line(l).expect("a generated query is not blank");
            Case {
                id: format!("stdin:{}", i + 1),
                programs,
                goal,
                line: l.clone(),
            }
        })
        .collect()
}
