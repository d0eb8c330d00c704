//! The automatic seats of `sidl run` and `sidl tournament` (the engine's seat driver): unlimited
//! switches filled from `candidate/2`, and a clear stop when no seat can act.

use crate::common;

use common::sidl_in;

#[test]
fn run_fills_unlimited_switches_from_candidate() {
    let (out, err, code) = sidl_in(
        "..",
        &["run", "--raw", "games/priceNegotiation.sidl", "--seed", "1"],
    );
    assert_eq!(code, 0, "{err}");
    // a negotiation: bids in several chronons, then a sale
    let bidding = out.lines().filter(|l| l.contains("+[bid,")).count();
    assert!(bidding >= 2, "{out}");
    assert!(out.contains("-[open]"), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("final accounts: "), "{out}");
    assert!(!last.contains("[seller] 0.0"), "the seller sold: {out}");
    // sidl trace without a script keeps the trace format's random play: nobody bids
    let (trace, _, code) = sidl_in(
        "..",
        &["trace", "games/priceNegotiation.sidl", "--seed", "1"],
    );
    assert_eq!(code, 0);
    assert_eq!(trace.lines().count(), 2, "{trace}");
    assert!(!trace.contains("[bid,"), "{trace}");
}

#[test]
fn run_stops_when_no_seat_can_act() {
    for interrupt in [false, true] {
        let mut args = vec!["run", "cli/tests/games/typed.sidl"];
        if interrupt {
            args.push("--interrupt");
        }
        let (out, err, code) = sidl_in("..", &args);
        assert_eq!(code, 0, "{err}");
        assert!(out.len() < 2000, "no empty chronons: {out}");
        assert!(
            out.starts_with("stopped after 0 chronons: no seat can act at chronon 1: "),
            "{out}"
        );
        assert!(
            out.contains("switch [main] of [solo] (random): it is unlimited (typed templates) and the game has no candidate/2"),
            "{out}"
        );
        assert!(out.contains("final accounts: [solo] 0"), "{out}");
    }
}

#[test]
fn tournament_seats_fill_unlimited_switches_and_report_idle_games() {
    let (out, err, code) = sidl_in(
        "..",
        &[
            "tournament",
            "games/priceNegotiation.sidl",
            "--seat",
            "bob=minimax:1",
            "--games",
            "3",
        ],
    );
    assert_eq!(code, 0, "{err}");
    // the auctions last more than the one chronon in which nobody bids
    let mean: f64 = out
        .split("(mean ")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .and_then(|s| s.parse().ok())
        .expect("mean chronons");
    assert!(mean > 1.5, "{out}");
    assert!(!err.contains("no seat could act"), "{err}");
    let (out, err, code) = sidl_in(
        "..",
        &["tournament", "cli/tests/games/typed.sidl", "--games", "2"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(mean 0.0)"), "{out}");
    assert!(
        err.contains("note: 2 games stopped because no seat could act; the first, game 1 (seed 0), after 0 chronons: no seat can act"),
        "{err}"
    );
}

/// `sidl run`'s chronon lines are the engine's (`game::events::chronon_line`): the same run in the
/// engine, through the same seat driver, gives the same lines.
#[test]
fn run_prints_the_engines_chronon_lines() {
    use sidl_engine::game::events::{chronon_line, Notation};
    use sidl_engine::game::{Game, Session, Settings};
    use sidl_engine::seats::{self, Round, Seat};
    use std::sync::Arc;

    for (path, seed) in [
        ("games/kuhn.sidl", "4"),
        ("games/priceNegotiation.sidl", "1"),
    ] {
        let (out, err, code) = sidl_in(
            "..",
            &["run", "--raw", path, "--seed", seed, "--max-chronons", "40"],
        );
        assert_eq!(code, 0, "{err}");
        let src = std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR")))
            .expect("the game");
        let game = Arc::new(Game::load(&src).expect("loads").0);
        let mut s =
            Session::new(game, seed.parse().expect("seed"), Settings::default()).expect("starts");
        let seat_kinds = vec![Seat::Random; s.players().len()];
        let mut want = Vec::new();
        while !s.is_terminal().expect("terminal") && s.chronon() < 40 {
            let before = s.history().len();
            if let Round::Idle(_) = seats::round(&mut s, &seat_kinds, 40).expect("round") {
                break;
            }
            for (i, rec) in s.history().iter().enumerate().skip(before) {
                want.push(format!(
                    "chronon {}: {}",
                    i + 1,
                    chronon_line(rec, Notation::Writeq)
                ));
            }
        }
        let have: Vec<&str> = out.lines().filter(|l| l.starts_with("chronon ")).collect();
        assert!(!want.is_empty(), "{path}: no chronon ran");
        assert_eq!(have, want, "{path}");
    }
}
