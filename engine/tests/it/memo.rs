//! Argument-keyed memo tables on the fixture `tests/memo/cases.pl`: each `% query Goal` line must
//! succeed exactly once with memoization on and with it off; each `% fewer Goal` line must also
//! take fewer inference steps with it on (its repeated calls are answered from the table, even
//! after another key of the same predicate threw).

use sidl_engine::solve::{Limits, Program};

fn program() -> Program {
    let (program, diags) = Program::from_source(include_str!("../memo/cases.pl"));
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    program
}

/// Number of answers of `goal` and the inference steps taken, with memoization on or off.
fn run(program: &Program, goal: &str, memoize: bool) -> (usize, u64) {
    let mut q = program
        .query(goal, Limits::default())
        .unwrap_or_else(|d| panic!("{goal}: {d:?}"));
    q.machine().memoize = memoize;
    let mut n = 0;
    while let Some(a) = q.next_answer() {
        if let Err(e) = a {
            panic!("{goal}: {e}");
        }
        n += 1;
    }
    (n, q.inferences())
}

#[test]
fn memo_answers_match_the_fixture() {
    let program = program();
    let src = include_str!("../memo/cases.pl");
    let mut checked = 0;
    for line in src.lines() {
        let (goal, fewer) = if let Some(g) = line.strip_prefix("% query ") {
            (g, false)
        } else if let Some(g) = line.strip_prefix("% fewer ") {
            (g, true)
        } else {
            continue;
        };
        let (on, steps_on) = run(&program, goal, true);
        let (off, steps_off) = run(&program, goal, false);
        assert_eq!(on, 1, "memo on: {goal}");
        assert_eq!(off, 1, "memo off: {goal}");
        if fewer {
            assert!(
                steps_on < steps_off,
                "{goal}: {steps_on} steps with memo, {steps_off} without"
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} queries");
}
