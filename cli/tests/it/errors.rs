//! Runtime errors in every command are the engine's diagnostic (code, the clause, the call path as
//! labels, help), and `--format json` prints JSON lines only. Drives the real binary.

use crate::common;

use serde_json::Value;

fn sidl(args: &[&str]) -> (String, String, i32) {
    common::sidl_in("..", args)
}

const FAULTY: &str = "cli/tests/games/faulty.sidl";

#[test]
fn run_and_trace_render_the_diagnostic() {
    let (_, err, code) = sidl(&["run", FAULTY, "--seed", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("error[E0921]: in chronon 1: Type error: expected evaluable, found foo/0"),
        "{err}"
    );
    assert!(err.contains("cli/tests/games/faulty.sidl:12:1"), "{err}");
    assert!(err.contains("`do/1` calls `explode/1`"), "{err}");
    assert!(err.contains("= help: "), "{err}");
    // the trace line keeps its format; the diagnostic goes to stderr
    let (out, err, code) = sidl(&["trace", FAULTY, "--seed", "2"]);
    assert_eq!(code, 2);
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with(r#"{"chronon":1,"error":"Type error"#),
        "{out}"
    );
    assert!(
        err.contains("error[E0921]") && err.contains("faulty.sidl:12:1"),
        "{err}"
    );
}

#[test]
fn explore_reports_runtime_errors_as_diagnostics() {
    let (_, err, _) = sidl(&["explore", FAULTY, "--max-states", "5"]);
    assert!(err.contains("error[E0921]: during exploration"), "{err}");
    let (out, _, _) = sidl(&["explore", FAULTY, "--max-states", "5", "--format", "json"]);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let d = lines.iter().find(|v| v["code"] == "E0921").expect("{out}");
    assert_eq!(
        (d["severity"].as_str(), d["line"].as_u64()),
        (Some("error"), Some(12))
    );
    assert_eq!(d["labels"][0]["message"], "`do/1` calls `explode/1`");
    assert_eq!(lines.last().unwrap()["kind"], "summary", "{out}");
}

#[test]
fn check_explore_json_is_json_lines_only() {
    let (out, err, code) = sidl(&[
        "check",
        "tests/analysis/kuhn_leaky.sidl",
        "--explore",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    // the static warning, then the counterexample, then the summary
    assert!(lines.iter().any(|v| v["code"] == "W0501"), "{out}");
    let c = lines
        .iter()
        .find(|v| v["kind"] == "counterexample")
        .expect("a counterexample");
    assert_eq!(
        (c["player"].as_str(), c["switch"].as_str()),
        (Some("[p2]"), Some("[p2]"))
    );
    assert_eq!(c["difference"]["what"], "actions", "{c}");
    assert_ne!(c["difference"]["first"], c["difference"]["second"], "{c}");
    for h in ["first", "second"] {
        let steps = c[h].as_array().expect("a history");
        assert!(!steps.is_empty(), "{c}");
        assert_eq!(steps[0]["chronon"], 1);
        assert!(steps[0]["nature"].is_array() && steps[0]["submissions"].is_array());
    }
    assert!(c["view"].as_array().is_some_and(|v| !v.is_empty()), "{c}");
    let s = lines.last().unwrap();
    assert_eq!(s["kind"], "summary", "{out}");
    assert!(s["states"].as_u64().is_some_and(|n| n > 0), "{s}");
    assert!(
        s["complete"].is_boolean() && s["states_per_second"].is_number(),
        "{s}"
    );
    assert_eq!(s["violations"], 1);
    // progress stays on stderr
    assert!(err.contains("done: "), "{err}");
}

/// Placement at run time (docs/reference.md): `sidl run` stops the issue's game with E0946 at the
/// clause that built the goal; `sidl check` reports the same call statically (E0301).
#[test]
fn run_stops_a_misplaced_goal_built_in_a_variable() {
    let game = "docs/examples/placement.sidl";
    let (_, err, code) = sidl(&["run", game]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("error[E0946]: `create/1` cannot be used in the condition of `legal/1`"),
        "{err}"
    );
    assert!(err.contains("docs/examples/placement.sidl:7:1"), "{err}");
    let (out, err, code) = sidl(&["check", game]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(format!("{out}{err}").contains("error[E0301]"), "{out}{err}");
}
