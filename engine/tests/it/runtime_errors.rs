//! Runtime errors as diagnostics (`solve::errors`): data-driven fixtures in `tests/runtime/`. Each
//! `%? GOAL` line is a goal run with small budgets against the fixture's clauses; the next `%! CODE`
//! marks the line of the clause the error's diagnostic points at, and the `%@ MESSAGE` lines between
//! them the labels of the call path. Every code is documented in docs/diagnostics.md.
//!
//! Checks docs/semantics.md §3.2, §3.3, §5.7, §8.6.

use sidl_engine::solve::errors::codes;
use sidl_engine::solve::{Limits, Program};
use std::path::Path;

fn line_of(src: &str, offset: u32) -> usize {
    src[..offset as usize].matches('\n').count() + 1
}

#[test]
fn fixtures_raise_the_expected_codes_at_the_expected_clauses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtime");
    let limits = Limits {
        max_inferences: 100_000,
        max_heap_cells: 200_000,
        max_choicepoints: 1_000,
        max_frames: 10_000,
    };
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let src = std::fs::read_to_string(entry.path()).unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let (program, diags) = Program::from_source(&src);
        assert!(!diags.iter().any(|d| d.is_error()), "{name}: {diags:?}");
        let lines: Vec<&str> = src.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let Some(goal) = l.strip_prefix("%? ") else {
                continue;
            };
            // the expected code and line, and the labels up to it
            let mut labels = Vec::new();
            let mut want = None;
            for (j, m) in lines.iter().enumerate().skip(i + 1) {
                if let Some((_, msg)) = m.split_once("%@ ") {
                    labels.push((j + 1, msg.trim().to_string()));
                }
                if let Some((_, code)) = m.split_once("%! ") {
                    want = Some((j + 1, code.trim().to_string()));
                    break;
                }
            }
            let (want_line, want_code) = want.expect("a %! line after each goal");
            let mut q = program.query(goal, limits).expect("the goal parses");
            let e = match q.next_answer() {
                Some(Err(e)) => e,
                other => {
                    failures.push(format!("{name}: {goal}: no error but {other:?}"));
                    continue;
                }
            };
            let d = e.to_diagnostic();
            seen.push(d.code);
            let got_labels: Vec<(usize, String)> = d
                .labels
                .iter()
                .map(|l| (line_of(&src, l.span.start), l.message.clone()))
                .collect();
            let got = (d.code, d.located.then(|| line_of(&src, d.span.start)));
            if got != (want_code.as_str(), Some(want_line)) || got_labels != labels {
                failures.push(format!(
                    "{name}: {goal}: expected {want_code} at line {want_line} with labels {labels:?}, got {got:?} with {got_labels:?} ({d})"
                ));
            }
            assert!(d.is_error() && d.help.is_some(), "{name}: {goal}: {d:?}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(seen.len() >= 10, "{seen:?}");
}

#[test]
fn a_goal_outside_the_program_is_not_located() {
    let (program, _) = Program::from_source("p(1).\n");
    let mut q = program.query("X is foo + 1", Limits::default()).unwrap();
    let d = q.next_answer().unwrap().unwrap_err().to_diagnostic();
    assert_eq!((d.code, d.located, d.labels.len()), (codes::TYPE, false, 0));
}

#[test]
fn every_runtime_code_is_documented() {
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md"),
    )
    .unwrap();
    for code in codes::ALL {
        assert!(
            docs.contains(&format!("| {code} |")),
            "{code} is not in docs/diagnostics.md"
        );
    }
}
