//! `sidl trace --script` through the real binary.

use crate::common;

/// The slot-value rule (docs/semantics.md §4.4) through the trace-script door: `[cat, 2]` for a
/// `double` slot is held as `[cat, 2.0]` (facts, and `does/2` in the payoff), `2.0` for an
/// `integer` slot is rejected on stderr; the trace is the reference manager's
/// (`tests/trajectories/slots.trace.jsonl`, from `tests/reference/gm.pl`).
#[test]
fn a_script_submitting_an_integer_for_a_double_slot_traces_the_float() {
    let (out, err, code) = common::sidl_in(
        "..",
        &[
            "trace",
            "tests/games/slots.sidl",
            "--script",
            "tests/trajectories/slots.script",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let want = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/trajectories/slots.trace.jsonl"
    ))
    .expect("expected trace");
    assert_eq!(out, want);
    assert!(out.contains(r#""facts":["[did,[cat,2.0]]"],"accounts":{"[cat]":1}"#));
    let rejected: Vec<&str> = err.lines().filter(|l| l.contains("rejected")).collect();
    assert_eq!(rejected.len(), 1, "{err}");
    assert!(
        rejected[0].contains("[count,2.0] does not fit a template of switch [cat]"),
        "{err}"
    );
}
