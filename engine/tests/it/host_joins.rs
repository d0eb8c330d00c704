//! `legal/1` and `switch/2` answered by the host when they are joins (`engine/src/game/join.rs`):
//! in every state random play reaches, on every shipped game and several seeds, the same switches
//! (ids, owners, actions, in order) and the same errors as the logic machine gives.

use super::shipped_games::{repo, shipped};
use sidl_engine::game::session::{Session, Settings};
use sidl_engine::game::trace::random_submissions;
use sidl_engine::game::Game;
use std::sync::Arc;

/// The switches of the current state as text, or the error.
fn switches(s: &mut Session) -> Result<String, String> {
    s.switches()
        .map(|v| format!("{v:?}"))
        .map_err(|e| e.to_string())
}

#[test]
fn host_joins_give_the_interpreters_switches_in_every_state() {
    let mut planned = Vec::new();
    for name in shipped() {
        let src = std::fs::read_to_string(repo().join(&name)).expect("a game");
        let Ok((game, _)) = Game::load(&src) else {
            continue;
        };
        let game = Arc::new(game);
        if game.host_joins() != (false, false) {
            planned.push((name.clone(), game.host_joins()));
        }
        for seed in 1..=3 {
            let start = |on: bool| {
                Session::new(game.clone(), seed, Settings::default()).map(|mut s| {
                    s.set_host_joins(on);
                    s
                })
            };
            let (Ok(mut fast), Ok(mut slow)) = (start(true), start(false)) else {
                continue;
            };
            for chronon in 0..200 {
                let a = switches(&mut fast);
                let b = switches(&mut slow);
                assert_eq!(a, b, "{name}, seed {seed}, chronon {chronon}");
                if a.as_ref().map_or(true, |s| s == "[]") {
                    break;
                }
                let r = random_submissions(&mut fast).map_err(|e| e.to_string());
                assert_eq!(r, random_submissions(&mut slow).map_err(|e| e.to_string()));
                if r.is_err() {
                    break;
                }
                let r = fast.run_chronon().map(|_| ()).map_err(|e| e.to_string());
                assert_eq!(r, slow.run_chronon().map(|_| ()).map_err(|e| e.to_string()));
                if r.is_err() {
                    break;
                }
                // (the accounts too: `payoff/2` skipped where it cannot pay, session.rs)
                let facts = |s: &Session| {
                    format!(
                        "{:?} {:?}",
                        s.state().facts.terms().collect::<Vec<_>>(),
                        s.accounts()
                    )
                };
                assert_eq!(
                    facts(&fast),
                    facts(&slow),
                    "{name}, seed {seed}, chronon {chronon}"
                );
            }
        }
    }
    eprintln!("host joins (legal/1, switch/2): {planned:?}");
    // (not vacuous: Connect Four's, Kuhn poker's and others' legal switches are joins)
    assert!(planned.len() >= 5, "{planned:?}");
    // `switch/2` with member/2 over a constant list (mcp's second clause is not a join) or a game
    // predicate's fact (kuhn, rps), not/1 of a unification (kuhn), between/3 (ultimatum,
    // matching_pennies)
    for game in [
        "games/kuhn.sidl",
        "games/rps.sidl",
        "games/firstprice.sidl",
        "games/ultimatum.sidl",
        "games/econ/matching_pennies.sidl",
    ] {
        assert!(
            planned.iter().any(|(n, (_, s))| n == game && *s),
            "{game}: {planned:?}"
        );
    }
}
