//! `sidl explore`: the dynamic Def.1 §11 check from the command line. Drives the real binary.

use std::process::Command;

fn sidl(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("NO_COLOR", "1")
        .output()
        .expect("sidl runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
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
