//! Control constructs in clause bodies on the fixture `tests/control/cases.pl` (negation,
//! if-then-else, call/N: cut locality, bindings, exceptions with their call path, budgets), with
//! memoization on and off. The line formats are described at the top of the fixture.
//!
//! Checks docs/semantics.md §8.1.

use sidl_engine::solve::{ErrorKind, Limits, Program, SolveError};

const SRC: &str = include_str!("../control/cases.pl");

fn program() -> Program {
    let (program, diags) = Program::from_source(SRC);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    program
}

fn limits() -> Limits {
    Limits {
        max_inferences: 200_000,
        max_heap_cells: 4 << 20,
        max_choicepoints: 100_000,
        max_frames: 10_000,
    }
}

/// The answers of `goal` (at most 10), or the error that ended it.
fn run(program: &Program, goal: &str, memoize: bool) -> Result<usize, SolveError> {
    let mut q = program
        .query(goal, limits())
        .unwrap_or_else(|d| panic!("{goal}: {d:?}"));
    q.machine().memoize = memoize;
    let mut n = 0;
    while let Some(a) = q.next_answer() {
        a?;
        n += 1;
        if n == 10 {
            break;
        }
    }
    Ok(n)
}

/// `t` written canonically with every variable as `_`.
fn pattern(t: &sidl_engine::term::Term) -> String {
    let s = sidl_engine::write::canonical(t);
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        out.push(c);
        let starts_var = c == '_' && !(prev.is_alphanumeric() || prev == '_');
        prev = c;
        if starts_var {
            while chars
                .peek()
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
            {
                chars.next();
            }
        }
    }
    out
}

#[test]
fn control_constructs_match_the_fixture() {
    let program = program();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in SRC.lines() {
        for memoize in [true, false] {
            let what = format!("{line} (memoize: {memoize})");
            let got = if let Some(goal) = line.strip_prefix("% query ") {
                match run(&program, goal, memoize) {
                    Ok(1) => None,
                    other => Some(format!("{:?}", other.map_err(|e| e.message))),
                }
            } else if let Some(rest) = line.strip_prefix("% error ") {
                let (goal, expected) = rest.split_once(" => ").expect("error line");
                match run(&program, goal, memoize) {
                    Err(e) if e.kind == ErrorKind::Uncaught => {
                        let path: Vec<String> =
                            e.path.iter().map(|(n, a)| format!("{n}/{a}")).collect();
                        let got = format!("{} @ {}", pattern(&e.ball), path.join(" "));
                        (got != expected).then_some(got)
                    }
                    other => Some(format!("{:?}", other.map_err(|e| e.message))),
                }
            } else if let Some(rest) = line.strip_prefix("% budget ") {
                let (goal, limit) = rest.split_once(" => ").expect("budget line");
                match run(&program, goal, memoize) {
                    Err(e) if e.kind == ErrorKind::Budget(limit_name(limit)) => None,
                    other => Some(format!("{:?}", other.map_err(|e| e.message))),
                }
            } else {
                continue;
            };
            if let Some(got) = got {
                failures.push(format!("{what}\n  got: {got}"));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 60, "only {checked} checks");
}

fn limit_name(s: &str) -> &'static str {
    match s {
        "inferences" => "inferences",
        "frames" => "frames",
        "choicepoints" => "choicepoints",
        "heap" => "heap",
        other => panic!("unknown budget {other}"),
    }
}
