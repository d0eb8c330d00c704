//! The Prolog prelude (`src/solve/prelude.pl`) checked inside SWI-Prolog, independently of our engine:
//!
//! - statically: it only calls control constructs, our native built-ins and its own predicates, and
//!   its helpers are named `'$...'` (`tests/differential/prelude_check.pl`);
//! - dynamically: the whole differential corpus and the generated queries give the same answers when
//!   SWI-Prolog runs them with our prelude in place of its own library (lists, apply, bagof/setof,
//!   aggregate_all, ...) as with its library. So bagof/setof, the list predicates and the higher-order
//!   predicates behave exactly like SWI's, answer order and errors included.
//!
//! Needs `swipl` (SWI-Prolog 9): the test fails, not skips, without it (CI installs swi-prolog-nox).
//!
//! Checks docs/semantics.md §8.3.

use crate::{gen, harness};

use harness::*;
use std::process::Command;

#[test]
fn prelude_passes_the_static_check() {
    require_swipl();
    let out = Command::new(swipl())
        .arg("-q")
        .arg(dir().join("prelude_check.pl"))
        .arg("--")
        .arg(prelude_path())
        .output()
        .expect("run swipl prelude_check.pl");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "prelude check failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("prelude ok"), "{stdout}");
}

#[test]
fn prelude_in_swi_answers_the_corpus_like_swi() {
    let files = corpus_files();
    let cases: Vec<Case> = load_corpus()
        .into_iter()
        .filter(|c| selected(&c.id))
        .collect();
    assert!(
        cases.len() >= 600 || std::env::var("SIDL_DIFF_FILTER").is_ok(),
        "the corpus has {} queries",
        cases.len()
    );
    let reference = run_swi(SwiInput::Files(&files), None);
    let ours = run_swi(SwiInput::Files(&files), Some(&prelude_path()));
    let bad: Vec<&str> = cases
        .iter()
        .filter(|c| reference.get(&c.id).is_none_or(swi_gave_up))
        .map(|c| c.id.as_str())
        .collect();
    assert!(
        bad.is_empty(),
        "SWI-Prolog hits a limit on these corpus queries (fix the corpus): {bad:?}"
    );
    let mismatches = compare(&cases, &reference, &ours);
    report(
        "prelude in SWI vs SWI (corpus)",
        cases.len(),
        "SWI library",
        "our prelude",
        &mismatches,
    );
}

#[test]
fn prelude_in_swi_answers_generated_queries_like_swi() {
    let lines = gen::generate();
    let cases = cases_from_lines(&lines);
    let reference = run_swi_cases(&cases, None);
    let ours = run_swi_cases(&cases, Some(&prelude_path()));
    let bad: Vec<&str> = cases
        .iter()
        .filter(|c| reference.get(&c.id).is_none_or(swi_gave_up))
        .map(|c| c.line.as_str())
        .collect();
    assert!(
        bad.is_empty(),
        "SWI-Prolog hits a limit on generated queries (fix the generator): {bad:?}"
    );
    let mismatches = compare(&cases, &reference, &ours);
    report(
        "prelude in SWI vs SWI (generated)",
        cases.len(),
        "SWI library",
        "our prelude",
        &mismatches,
    );
}

#[test]
fn corpus_lines_parse_and_reference_programs_exist() {
    let cases = load_corpus();
    for c in &cases {
        assert!(
            c.goal.ends_with('.'),
            "{}: a query ends with '.': {}",
            c.id,
            c.line
        );
        for p in &c.programs {
            assert!(
                dir().join("programs").join(format!("{p}.pl")).is_file(),
                "{}: no program {p}",
                c.id
            );
        }
    }
    // The generator is deterministic: the same seed gives the same cases.
    assert_eq!(
        gen::generate_with(gen::SEED, 20),
        gen::generate_with(gen::SEED, 20)
    );
}
