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

/// `sidl bench GAME --views`' line: `games=` and `shown=` of a run.
fn bench_views(game: &str, views: bool) -> (u64, Option<u64>) {
    let mut args = vec!["bench", game, "--chronons", "300", "--seed", "3"];
    if views {
        args.push("--views");
    }
    let (out, err, code) = common::sidl_in("..", &args);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("chronons=300 games="), "{out}");
    let field = |k: &str| {
        out.split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .map(|v| v.parse::<u64>().expect("a number"))
    };
    (field("games=").expect("games="), field("shown="))
}

/// `sidl bench --views` plays as the playground's random seats: the same draws as `sidl bench`
/// where no switch is unlimited (Kuhn poker: as many games), `candidate/2` actions for unlimited
/// switches where `sidl bench` leaves them to their defaults (the price negotiation goes on
/// longer: fewer games in as many chronons); it counts what every player is shown.
#[test]
fn bench_views_does_the_work_of_a_page() {
    let (games, shown) = bench_views("games/kuhn.sidl", false);
    assert_eq!(shown, None);
    let (games_v, shown_v) = bench_views("games/kuhn.sidl", true);
    assert_eq!(games_v, games);
    // two players see at least their card each after every chronon
    assert!(shown_v.expect("shown=") >= 2 * 300, "{shown_v:?}");
    let (games, _) = bench_views("games/priceNegotiation.sidl", false);
    let (games_v, _) = bench_views("games/priceNegotiation.sidl", true);
    assert!(games_v < games, "--views {games_v} games, plain {games}");
    let (_, err, code) = common::sidl_in(
        "..",
        &["bench", "games/nim.sidl", "--views", "--ai", "mcts:10"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--views"), "{err}");
}
