//! The native fast paths of library predicates (`solve/builtins/lists.rs`) against the prelude's
//! clauses: every `% case Goal` of `tests/library_fast/cases.pl` runs on the program built with
//! them and on the one built without (`ProgramBuilder::without_library_fast`); the answers in
//! order, the choicepoints left after each, the inference count after each, the error, the
//! profile counts, and the outcome under each inference budget must be the same.

use sidl_engine::solve::{Limits, Program, ProgramBuilder, SourceClause};

const SRC: &str = include_str!("../library_fast/cases.pl");

fn program(fast: bool) -> Program {
    let parsed = sidl_engine::syntax::parse_file(SRC);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let clauses = parsed.clauses.into_iter().map(|c| SourceClause {
        term: c.term,
        span: c.span,
        var_names: c.var_names.into(),
    });
    let b = ProgramBuilder::new().clauses(clauses);
    let (p, diags) = if fast { b } else { b.without_library_fast() }.build();
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    p
}

/// Everything observable of running `goal` to its end (at most 50 answers).
fn run(
    p: &Program,
    goal: &str,
    limits: Limits,
    (memoize, profile, names): (bool, bool, bool),
) -> Vec<String> {
    let mut q = p
        .query(goal, limits)
        .unwrap_or_else(|d| panic!("{goal}: {d:?}"));
    q.machine().memoize = memoize;
    if profile {
        q.machine().profile = Some(Default::default());
    }
    let mut out = Vec::new();
    while let Some(a) = q.next_answer() {
        match a {
            Ok(t) => out.push(format!(
                "{t:?} more={} inferences={}",
                q.may_have_more(),
                q.inferences()
            )),
            // (not the call path, nor, for budgets, the predicate named: docs/performance.md,
            // "The library predicates")
            Err(e) if names => out.push(format!(
                "error {:?} {:?} {} {:?} inferences={}",
                e.kind,
                e.ball,
                e.message,
                e.predicate,
                q.inferences()
            )),
            Err(e) => out.push(format!("error {:?} inferences={}", e.kind, q.inferences())),
        }
        if out.len() == 50 {
            break;
        }
    }
    out.push(format!("end inferences={}", q.inferences()));
    if profile {
        let mut counts: Vec<String> = q
            .machine()
            .profile
            .iter()
            .flatten()
            .map(|((n, a), c)| format!("{n}/{a}={c}"))
            .collect();
        counts.sort();
        out.extend(counts);
    }
    out
}

#[test]
fn library_fast_paths_behave_as_the_clauses() {
    let fast = program(true);
    let slow = program(false);
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in SRC.lines() {
        let Some(goal) = line.strip_prefix("% case ") else {
            continue;
        };
        eprintln!("case {goal}");
        let mut total = 0;
        for (memoize, profile) in [(true, false), (false, false), (true, true)] {
            let a = run(&fast, goal, Limits::default(), (memoize, profile, true));
            let b = run(&slow, goal, Limits::default(), (memoize, profile, true));
            if a != b {
                failures.push(format!(
                    "{goal} (memo {memoize}, profile {profile}):\n  fast {a:?}\n  slow {b:?}"
                ));
            }
            let last = b.iter().find(|l| l.starts_with("end"));
            total = last
                .and_then(|l| l.strip_prefix("end inferences="))
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0);
        }
        // every budget up to the count (short goals)
        let mut k = 1;
        while total <= 300 && k <= total + 1 {
            let limits = Limits {
                max_inferences: k,
                ..Limits::default()
            };
            let a = run(&fast, goal, limits, (true, false, false));
            let b = run(&slow, goal, limits, (true, false, false));
            if a != b {
                failures.push(format!("{goal} (budget {k}):\n  fast {a:?}\n  slow {b:?}"));
                break;
            }
            k += 1;
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 50, "only {checked} cases");
}
