//! `sidl explore`: the dynamic Def.1 §11 check from the command line. Drives the real binary.

use crate::common;

fn sidl(args: &[&str]) -> (String, String, i32) {
    common::sidl_in("..", args)
}

#[test]
fn leaky_kuhn_prints_a_counterexample_and_exits_1() {
    let (out, err, code) = sidl(&["explore", "tests/analysis/kuhn_leaky.sidl"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("Def.1 §11 violation: player [p2]"), "{out}");
    assert!(
        out.contains("first history:") && out.contains("second history:"),
        "{out}"
    );
    assert!(out.contains("states/s"), "{out}");
    assert!(err.contains("done: "), "{err}");
}

#[test]
fn kuhn_is_consistent() {
    let (out, err, code) = sidl(&[
        "explore",
        "games/kuhn.sidl",
        "--max-states",
        "1000",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every reachable state"), "{out}");
    assert!(out.contains("no Def.1 §11 violation found"), "{out}");
}
