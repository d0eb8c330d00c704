//! `sidl query`: a Prolog top level without I/O. Drives the real binary.

use crate::common;

fn sidl(args: &[&str]) -> (String, String, i32) {
    common::sidl_in(".", args)
}

const FILE: &str = "tests/data/family.pl";

#[test]
fn every_answer_on_its_own_line_in_canonical_text() {
    let (out, _, code) = sidl(&["query", FILE, "append(X, Y, [1,2])"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "X = [], Y = [1,2].\nX = [1], Y = [2].\nX = [1,2], Y = [].\n"
    );
    let (out, _, _) = sidl(&["query", FILE, "grandparent(tom, C)"]);
    assert_eq!(out, "C = ann.\n");
    let (out, _, _) = sidl(&["query", FILE, "X = 'hello world', Y = f(-1, 2.5, \"s\")"]);
    assert_eq!(out, "X = 'hello world', Y = f(-1,2.5,\"s\").\n");
}

#[test]
fn no_answer_prints_false_and_ground_success_prints_true() {
    let (out, _, code) = sidl(&["query", FILE, "parent(ann, _)"]);
    assert_eq!((out.as_str(), code), ("false.\n", 0));
    let (out, _, _) = sidl(&["query", FILE, "parent(tom, bob)"]);
    assert_eq!(out, "true.\n");
}

#[test]
fn deep_non_tail_recursion_over_a_million_elements() {
    let (out, err, code) = sidl(&[
        "query",
        FILE,
        "numlist(1, 1000000, L), len(L, N)",
        "--max-answers",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.trim_end().ends_with("N = 1000000."),
        "{}",
        &out[out.len().saturating_sub(80)..]
    );
}

#[test]
fn runtime_errors_name_the_predicate_the_clause_and_the_path() {
    let (_, err, code) = sidl(&["query", FILE, "boom(1)"]);
    assert_eq!(code, 2);
    // the engine's diagnostic: code, the clause, the calling clause as a label, help
    assert!(err.contains("error[E0921]: Type error"), "{err}");
    assert!(err.contains("tests/data/family.pl:9:1"), "{err}");
    assert!(err.contains("`boom/1` calls `helper/1`"), "{err}");
    assert!(err.contains("= help: "), "{err}");
}

#[test]
fn budgets_end_runaway_queries_with_a_clear_error() {
    let (_, err, code) = sidl(&["query", FILE, "loop", "--max-inferences", "100000"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("budget of 100000 inference steps exhausted while running loop/0"),
        "{err}"
    );
    let (_, err, code) = sidl(&["query", FILE, "findall(X, between(1, inf, X), L)"]);
    assert_eq!(code, 2);
    assert!(err.contains("budget"), "{err}");
}

#[test]
fn bad_goals_and_files_are_reported_with_locations() {
    let (_, err, code) = sidl(&["query", FILE, "append(X, "]);
    assert_eq!(code, 1);
    assert!(err.contains("E0"), "{err}");
    let (_, err, code) = sidl(&["query", "tests/data/does-not-exist.pl", "true"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn the_compiled_core_prints_the_interpreters_answers_and_refuses_what_it_cannot_run() {
    for goal in [
        "append(X, Y, [1,2])",
        "grandparent(tom, C)",
        "parent(ann, _)",
        "numlist(1, 100000, L), len(L, N), N > 5",
        "X is foo + 1",
        "findall(X, parent(tom, X), L)",
    ] {
        let interp = sidl(&["query", FILE, goal, "--no-memo"]);
        let core = sidl(&["query", FILE, goal, "--core", "compiled"]);
        assert_eq!(core, interp, "{goal}");
    }
    // (a goal of more arguments than the core has registers)
    let wide = format!(
        "p({})",
        (0..300)
            .map(|i| format!("X{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let (out, err, code) = sidl(&["query", FILE, &wide, "--core", "compiled"]);
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(
        err.contains("the compiled core cannot run this query"),
        "{err}"
    );
    let (out, _, code) = sidl(&[
        "query",
        FILE,
        "append(X, [], [a])",
        "--core",
        "compiled",
        "--listing",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("append/3 clause 1:") && out.contains("Execute append/3"),
        "{out}"
    );
}
