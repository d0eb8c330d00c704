//! Differential test of the logic engine against SWI-Prolog 9.
//!
//! For every query of `tests/differential/corpus/*.txt` (see `differential/swi_runner.pl` for the
//! format), SWI-Prolog (through `swi_runner.pl`, in one subprocess) and our engine each produce a result
//! block: the answers in order (`write_canonical` of the list of the bindings of the query's named
//! variables, so sharing shows), at most 50 then `more`, or `end`, or `error FORMAL`, `throw BALL`,
//! `syntax`. The blocks must be identical. The same is done for 300 generated queries
//! (`differential/gen.rs`, fixed seed) and, against the hard-coded expectations, for the documented
//! deliberate differences (`differential/differences.txt`).
//!
//! Needs `swipl` (SWI-Prolog 9): the test fails, not skips, without it (CI installs swi-prolog-nox).
//! `SIDL_DIFF_FILTER=lists,arith:12` restricts to some queries; `SIDL_DIFF_SHOW=n` shows n mismatches.
//!
//! Everything that touches the engine API is in the `ours` module below, so adapting to API changes
//! stays local.

use crate::{gen, harness};

use harness::*;
use std::collections::{BTreeMap, HashMap};

/// Our engine's side: programs, queries, and the rendering of answers in the runner's block format.
mod ours {
    use super::harness::{program_source, Block, Case, CAP};
    use sidl_engine::atom;
    use sidl_engine::solve::{Limits, Program};
    use sidl_engine::term::Term;
    use sidl_engine::write::canonical;
    use std::collections::HashMap;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    /// Generous limits: the corpus's deep-recursion queries (lists of 300 000 elements, recursion
    /// 100 000 deep, a million inferences of tail recursion) must fit; SWI ran them with 200M inferences.
    pub fn limits() -> Limits {
        let mut l = Limits::default();
        l.max_inferences = 200_000_000;
        l.max_heap_cells = l.max_heap_cells.max(64 << 20);
        l.max_choicepoints = l.max_choicepoints.max(8 << 20);
        l
    }

    /// The goal text as `Program::query` takes it: without the final `.`.
    pub fn goal_text(goal: &str) -> &str {
        goal.trim_end().strip_suffix('.').unwrap_or(goal).trim_end()
    }

    /// Loads programs once per program list.
    #[derive(Default)]
    pub struct Engine {
        programs: HashMap<Vec<String>, Program>,
    }

    impl Engine {
        fn program(&mut self, names: &[String]) -> &Program {
            self.programs.entry(names.to_vec()).or_insert_with(|| {
                let src = program_source(names);
                let (program, diags) = Program::from_source(&src);
                let errors: Vec<String> = diags
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| format!("{}: {}", d.code, d.message))
                    .collect();
                assert!(
                    errors.is_empty(),
                    "test programs {names:?} do not load:\n{}",
                    errors.join("\n")
                );
                program
            })
        }

        /// The result block of one case (a panic in the engine becomes a `panic ...` line).
        pub fn run(&mut self, case: &Case) -> Block {
            let program = self.program(&case.programs).clone();
            let goal = goal_text(&case.goal).to_string();
            match catch_unwind(AssertUnwindSafe(|| run_query(&program, &goal))) {
                Ok(block) => block,
                Err(p) => {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    vec![format!("panic {msg}")]
                }
            }
        }
    }

    fn run_query(program: &Program, goal: &str) -> Block {
        let Ok(mut query) = program.query(goal, limits()) else {
            return vec!["syntax".to_string()];
        };
        let mut block = Vec::new();
        for n in 0..=CAP {
            match query.next_answer() {
                None => {
                    block.push("end".to_string());
                    break;
                }
                Some(Ok(bindings)) => {
                    if n == CAP {
                        block.push("more".to_string());
                        break;
                    }
                    block.push(canonical(&Term::list(bindings)));
                }
                Some(Err(e)) => {
                    block.push(error_line(&e.ball));
                    break;
                }
            }
        }
        block
    }

    /// `error FORMAL` for `error(FORMAL, _)`, else `throw BALL`.
    fn error_line(ball: &Term) -> String {
        match ball {
            Term::Compound(f, args) if *f == atom::ERROR && args.len() == 2 => {
                format!("error {}", canonical(&args[0]))
            }
            _ => format!("throw {}", canonical(ball)),
        }
    }
}

fn run_ours(cases: &[Case]) -> BTreeMap<String, Block> {
    let mut engine = ours::Engine::default();
    cases
        .iter()
        .map(|c| (c.id.clone(), engine.run(c)))
        .collect()
}

#[test]
fn engine_answers_the_corpus_like_swi() {
    let files = corpus_files();
    let cases: Vec<Case> = load_corpus()
        .into_iter()
        .filter(|c| selected(&c.id))
        .collect();
    let swi = run_swi(SwiInput::Files(&files), None);
    let bad: Vec<&str> = cases
        .iter()
        .filter(|c| swi.get(&c.id).is_none_or(swi_gave_up))
        .map(|c| c.id.as_str())
        .collect();
    assert!(
        bad.is_empty(),
        "SWI-Prolog hits a limit on these corpus queries (fix the corpus): {bad:?}"
    );
    let ours = run_ours(&cases);
    let mismatches = compare(&cases, &swi, &ours);
    report(
        "engine vs SWI (corpus)",
        cases.len(),
        "SWI-Prolog",
        "sidl",
        &mismatches,
    );
}

#[test]
fn engine_answers_generated_queries_like_swi() {
    let lines = gen::generate();
    let cases = cases_from_lines(&lines);
    let swi = run_swi_cases(&cases, None);
    let bad: Vec<&str> = cases
        .iter()
        .filter(|c| swi.get(&c.id).is_none_or(swi_gave_up))
        .map(|c| c.line.as_str())
        .collect();
    assert!(
        bad.is_empty(),
        "SWI-Prolog hits a limit on generated queries (fix the generator): {bad:?}"
    );
    let ours = run_ours(&cases);
    let mismatches = compare(&cases, &swi, &ours);
    report(
        "engine vs SWI (generated)",
        cases.len(),
        "SWI-Prolog",
        "sidl",
        &mismatches,
    );
}

#[test]
fn documented_differences_hold() {
    let diffs = load_differences();
    assert!(!diffs.is_empty());
    let cases: Vec<Case> = diffs.iter().map(|d| d.case.clone()).collect();
    let swi = run_swi_cases(&cases, None);
    let ours = run_ours(&cases);
    let expected_swi: BTreeMap<String, Block> = diffs
        .iter()
        .map(|d| (d.case.id.clone(), d.swi.clone()))
        .collect();
    let expected_ours: BTreeMap<String, Block> = diffs
        .iter()
        .map(|d| (d.case.id.clone(), d.ours.clone()))
        .collect();
    let mut problems = String::new();
    for (what, expected, actual) in [
        ("SWI-Prolog", &expected_swi, &swi),
        ("sidl", &expected_ours, &ours),
    ] {
        for m in compare(&cases, expected, actual) {
            problems.push_str(&format!(
                "--- {}: {what} answers\n    {}\n  where differences.txt says\n    {}\n",
                m.line,
                m.actual.join("\n    "),
                m.expected.join("\n    ")
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "differences.txt is out of date:\n{problems}"
    );
}

#[test]
fn differences_are_not_in_the_corpus() {
    let corpus: HashMap<String, String> = load_corpus()
        .into_iter()
        .map(|c| (c.line.clone(), c.id))
        .collect();
    for d in load_differences() {
        assert!(
            !corpus.contains_key(&d.case.line),
            "{} is both in the corpus ({}) and in differences.txt",
            d.case.line,
            corpus[&d.case.line]
        );
    }
}
