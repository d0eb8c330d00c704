//! `sidl check`: JSON lines, human output and exit codes. Drives the real binary.

use crate::common;

fn sidl(args: &[&str]) -> (String, String, i32) {
    common::sidl_in(".", args)
}

#[test]
fn json_lines_with_positions_labels_and_help_and_exit_1_on_error() {
    let (out, _, code) = sidl(&["check", "../games/paper/mcp.sidl", "--format", "json"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(
        lines[0],
        r#"{"code":"W0413","severity":"warning","message":"`name/1` is the old spelling of `game/1`","line":3,"column":1,"end_line":3,"end_column":5,"labels":[],"help":"write `game(...)`"}"#
    );
    assert!(lines[1].starts_with(
        r#"{"code":"E0410","severity":"error","message":"default `[stay]` is not an action of switch `[C]`","line":20,"column":14,"end_line":20,"end_column":20,"labels":[],"help":"#
    ));
}

#[test]
fn labels_and_null_help_in_json() {
    let (out, _, code) = sidl(&["check", "../games/paper/nim.sidl", "--format", "json"]);
    assert_eq!(code, 0, "warnings only");
    let dup = out.lines().find(|l| l.contains("W0412")).expect("W0412");
    assert!(dup.contains(
        r#""labels":[{"line":13,"column":1,"end_line":13,"end_column":12,"message":"the same clause"}]"#
    ));
    let (out, _, code) = sidl(&[
        "check",
        "../engine/tests/analysis/syntax_errors.sidl",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains(r#""code":"E0013""#), "{out}");
}

#[test]
fn clean_game_prints_nothing_in_json_and_exits_0() {
    let (out, _, code) = sidl(&["check", "../games/nim.sidl", "--format", "json"]);
    assert_eq!((out.as_str(), code), ("", 0));
}

#[test]
fn human_format_shows_snippets_on_stderr() {
    let (out, err, code) = sidl(&[
        "check",
        "../engine/tests/analysis/e0301_body_keyword_placement.sidl",
    ]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("error[E0301]"), "{err}");
    assert!(err.contains("legal/1 → mark/1 → delete/1"), "{err}");
    assert!(
        err.contains("e0301_body_keyword_placement.sidl:7:"),
        "{err}"
    );
    let (_, _, code) = sidl(&["check", "no/such/file.sidl"]);
    assert_eq!(code, 1);
}

#[test]
fn explore_adds_the_dynamic_hidden_information_check() {
    // the leaky Kuhn poker: the static check warns (W0501), the exploration finds a counterexample
    let (out, err, code) = sidl(&["check", "../tests/analysis/kuhn_leaky.sidl", "--explore"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("W0501"), "{err}");
    assert!(
        out.contains("first history") && out.contains("second history"),
        "{out}"
    );
    assert!(out.contains("states/s"), "{out}");
    let (_, _, code) = sidl(&[
        "check",
        "../games/kuhn.sidl",
        "--explore",
        "--max-states",
        "500",
    ]);
    assert_eq!(code, 0);
}
