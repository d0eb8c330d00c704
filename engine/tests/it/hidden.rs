//! Def.1 §11 (hidden information must not leak through switches): the static check (`W0501`) and the
//! dynamic exploration, on the paper's games, the corrected games and a deliberately leaky Kuhn poker.
//!
//! Checks docs/semantics.md §6.2.

use sidl_engine::analysis::hidden_static::{check_static, HIDDEN_READ};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

const GAMES: &[&str] = &[
    "games/chess.sidl",
    "games/kuhn.sidl",
    "games/mcp.sidl",
    "games/nim.sidl",
    "games/priceNegotiation.sidl",
    "games/rps.sidl",
    "games/tictactoe.sidl",
    "games/tutorial.sidl",
    "games/paper/chess.sidl",
    "games/paper/mcp.sidl",
    "games/paper/nim.sidl",
    "games/paper/priceNegotiation.sidl",
    "games/paper/rps.sidl",
];

#[test]
fn static_no_report_on_shipped_games() {
    for g in GAMES {
        let d = check_static(&read(g));
        assert!(d.is_empty(), "{g}: {d:#?}");
    }
    let mut econ: Vec<_> = std::fs::read_dir(root().join("games/econ"))
        .expect("games/econ")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sidl"))
        .collect();
    econ.sort();
    assert!(econ.len() >= 14, "the economics games");
    for p in econ {
        let d = check_static(&std::fs::read_to_string(&p).expect("game"));
        assert!(d.is_empty(), "{}: {d:#?}", p.display());
    }
}

#[test]
fn static_reports_kuhn_leak() {
    let src = read("tests/analysis/kuhn_leaky.sidl");
    let d = check_static(&src);
    assert_eq!(d.len(), 1, "{d:#?}");
    let d = &d[0];
    assert_eq!(d.code, HIDDEN_READ);
    assert_eq!(&src[d.span.range()], "fact([card, p1, C])");
    assert!(d.message.contains("switch [p2]"), "{}", d.message);
    assert!(d.message.contains("[card,p1,_]"), "{}", d.message);
    assert!(d.message.contains("hides from [p2]"), "{}", d.message);
    for l in &d.labels {
        eprintln!("label {:?}: {}", &src[l.span.range()], l.message);
    }
    eprintln!("{}\n{:?}", d.message, d.help);
}

/// Prints how long the static check takes on the largest game (no timed assertion).
#[test]
fn static_timing_chess() {
    let src = read("games/chess.sidl");
    let _ = check_static(&src);
    let n = 20;
    let t = std::time::Instant::now();
    for _ in 0..n {
        assert!(check_static(&src).is_empty());
    }
    eprintln!(
        "static §11 check of games/chess.sidl: {:.3} ms per run (parse + load + init + analysis)",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
}

/// A reading through a helper, inside a negation, and one an owner may see: only the leak is reported.
#[test]
fn static_helpers_and_scopes() {
    let src = "game(t).
init([start]).
init([P], 0) :- member(P, [a, b]).
init([secret, a, 1]).
hidden([secret, P, _], [O]) :- player([O]), not(O = P).
legal([P]) :- player([P]), fact([start]).
owned([P], [P]) :- player([P]).
switch([P], [P, go]) :- mine(P).
switch([P], [P, peek]) :- not(theirs(P)).
mine(P) :- fact([secret, P, _]).
theirs(P) :- fact([secret, Q, _]), not(Q = P).
do(_).
";
    let d = check_static(src);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(&src[d[0].span.range()], "fact([secret, Q, _])");
    assert!(d[0]
        .help
        .as_deref()
        .unwrap_or("")
        .contains("switch/2 → theirs/1 → fact/1"));
}

/// `hidden/2` with `O \== P` after `player([O])`: the disequality is undecided when the hidden/2
/// derivation is made (P is free), and decided when a reading and an owner are matched against it.
/// A player reading its own fact is not a leak; another player reading it is.
#[test]
fn static_disequalities_decided_by_the_match() {
    let game = |who: &str| {
        format!(
            "init([P],0) :- member(P,[a,b]).
init([start]).
hidden([value,P,_],[O]) :- player([O]), O \\== P.
legal([value,P]) :- fact([start]), player([P]).
owned([value,_],equal(2)).
switch([value,P],[value,P,V]) :- player([P]), member(V,[1,2]).
do([value,P,V]) :- create([value,P,V]), ignore(delete([start])).
legal([{who}]) :- fact([value,a,_]), not(fact([done])).
owned([{who}],[{who}]).
switch([{who}],[{who},go]).
do([{who},go]) :- create([done]).
"
        )
    };
    let own = check_static(&game("a"));
    assert!(own.is_empty(), "a reads its own value: {own:#?}");
    let leak = check_static(&game("b"));
    assert_eq!(leak.len(), 1, "b reads a's value: {leak:#?}");
    assert_eq!(leak[0].code, HIDDEN_READ);
    assert!(
        leak[0].message.contains("hides from [b]"),
        "{}",
        leak[0].message
    );
}

/// The analysis alone on a loaded chess (what the editor pays per check when the game is loaded).
#[test]
fn static_timing_chess_analysis_only() {
    use sidl_engine::analysis::hidden_static::check_game;
    let src = read("games/chess.sidl");
    let (game, _) = sidl_engine::game::Game::load(&src).expect("chess loads");
    let parsed = sidl_engine::syntax::parse_file(&src);
    let n = 20;
    let t = std::time::Instant::now();
    for _ in 0..n {
        assert!(check_game(&game, &parsed.clauses).is_empty());
    }
    eprintln!(
        "static §11 analysis of loaded games/chess.sidl: {:.3} ms per run",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
}

/// Chess with something hidden, so that every keyword rule is analysed (move generation is unfolded
/// until the step budget, then summarised): the cost of the analysis proper on the largest game.
#[test]
fn static_timing_chess_with_hidden() {
    use sidl_engine::analysis::hidden_static::check_game;
    let src = read("games/chess.sidl") + "\nhidden([halfmoves, _], [black]).\n";
    let (game, _) = sidl_engine::game::Game::load(&src).expect("chess loads");
    let parsed = sidl_engine::syntax::parse_file(&src);
    // legal([C]) reads [halfmoves, N]: black's legality depends on a fact hidden from black
    let d = check_game(&game, &parsed.clauses);
    assert!(
        d.iter()
            .any(|d| d.message.contains("legality of switch [black]")),
        "{d:#?}"
    );
    let n = 20;
    let t = std::time::Instant::now();
    for _ in 0..n {
        let _ = check_game(&game, &parsed.clauses);
    }
    eprintln!(
        "static §11 analysis of loaded chess + a hidden/2 rule: {:.3} ms per run ({} reports)",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64,
        d.len()
    );
}

mod dynamic {
    use super::read;
    use sidl_engine::analysis::hidden_dynamic::{explore, replay, Difference, ExploreOptions};
    use sidl_engine::game::{Actions, Game};
    use sidl_engine::term::Term;
    use std::sync::Arc;

    fn load(rel: &str) -> Arc<Game> {
        Arc::new(Game::load(&read(rel)).expect("loads").0)
    }

    fn opts(max_states: usize) -> ExploreOptions {
        ExploreOptions {
            max_states,
            playouts: 5,
            playout_chronons: 60,
            ..ExploreOptions::default()
        }
    }

    #[test]
    fn no_violation_on_shipped_games() {
        for (g, n) in [
            ("games/kuhn.sidl", 10_000),
            ("games/mcp.sidl", 400),
            ("games/nim.sidl", 10_000),
            ("games/rps.sidl", 300),
            ("games/tictactoe.sidl", 300),
            ("games/tutorial.sidl", 300),
            ("games/priceNegotiation.sidl", 200),
            ("games/chess.sidl", 60),
            ("games/paper/mcp.sidl", 400),
            ("games/paper/nim.sidl", 10_000),
            ("games/paper/rps.sidl", 300),
            ("games/paper/priceNegotiation.sidl", 200),
            ("games/paper/chess.sidl", 60),
            // typed switches: what switch/2 accepts is probed too
            ("games/econ/dictator.sidl", 100),
            ("games/econ/trust.sidl", 100),
            ("games/econ/common_value.sidl", 100),
            ("games/econ/double_auction.sidl", 60),
        ] {
            let mut calls = 0;
            let r = explore(load(g), &opts(n), &mut |_| calls += 1).expect(g);
            assert!(
                r.violations.is_empty(),
                "{g}: {}",
                r.violations[0].describe()
            );
            assert!(calls >= 1);
            eprintln!(
                "{g}: {} states, {} chronons, complete {}, errors {:?}",
                r.states, r.chronons, r.complete, r.errors
            );
        }
    }

    #[test]
    fn kuhn_is_explored_completely() {
        let r = explore(load("games/kuhn.sidl"), &opts(10_000), &mut |_| {}).unwrap();
        assert!(r.complete);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert!(r.states > 30, "{}", r.states);
    }

    #[test]
    fn the_budget_is_the_most_states_visited() {
        let kuhn = load("games/kuhn.sidl");
        let all = explore(kuhn.clone(), &opts(10_000), &mut |_| {}).unwrap();
        assert!(all.complete);
        let reachable = all.states;
        for n in [
            0,
            1,
            2,
            5,
            reachable / 2,
            reachable - 1,
            reachable,
            reachable + 1,
        ] {
            let mut most = 0;
            let r = explore(kuhn.clone(), &opts(n), &mut |p| most = most.max(p.states)).unwrap();
            // every budget below the number of reachable states is used up, never exceeded
            assert_eq!(r.states, n.min(reachable), "budget {n}");
            assert!(most <= n, "budget {n}: progress reported {most} states");
            // complete exactly when the budget covers every reachable state
            assert_eq!(r.complete, n >= reachable, "budget {n}");
        }
        // a larger budget on a game with many more states
        let r = explore(load("games/tictactoe.sidl"), &opts(2000), &mut |_| {}).unwrap();
        assert_eq!((r.states, r.complete), (2000, false));
    }

    #[test]
    fn kuhn_leak_counterexample_replays() {
        let game = load("tests/analysis/kuhn_leaky.sidl");
        let o = opts(10_000);
        let mut last = None;
        let r = explore(game.clone(), &o, &mut |p| last = Some(p.clone())).unwrap();
        assert_eq!(last.map(|p| p.violations), Some(r.violations.len()));
        assert_eq!(r.violations.len(), 1, "{:#?}", r.violations);
        let v = &r.violations[0];
        eprintln!("{}", v.describe());
        let p2 = Term::list(vec![Term::atom("p2")]);
        assert_eq!(v.player, p2);
        assert_eq!(v.switch, p2);
        assert!(matches!(v.difference, Difference::Actions { .. }));
        // replay both histories: same view for p2, different actions of [p2]
        let mut a = replay(game.clone(), &o, &v.first).unwrap();
        let mut b = replay(game, &o, &v.second).unwrap();
        let (va, vb) = (a.view(Some(&p2)).unwrap(), b.view(Some(&p2)).unwrap());
        let sorted = |v: &[Term]| {
            let mut s: Vec<String> = v.iter().map(sidl_engine::write::canonical).collect();
            s.sort();
            s
        };
        assert_eq!(sorted(&va), sorted(&vb));
        assert_ne!(a.view(None).unwrap(), b.view(None).unwrap());
        let acts = |s: &mut sidl_engine::game::Session| {
            s.switches_of(&p2)
                .unwrap()
                .into_iter()
                .find(|sw| sw.id == p2)
                .map(|sw| sw.actions)
        };
        let (xa, xb) = (acts(&mut a), acts(&mut b));
        assert_ne!(xa, xb);
        let bet = Term::list(vec![Term::atom("p2"), Term::atom("bet")]);
        let has_bet =
            |x: &Option<Actions>| matches!(x, Some(Actions::Finite(v)) if v.contains(&bet));
        assert!(has_bet(&xa) != has_bet(&xb));
        // the hidden card that differs is p1's king
        let king = Term::list(vec![Term::atom("card"), Term::atom("p1"), Term::atom("k")]);
        assert!(a.view(None).unwrap().contains(&king) != b.view(None).unwrap().contains(&king));
    }

    /// Prints the exploration rate on Kuhn poker (no timed assertion).
    #[test]
    fn kuhn_states_per_second() {
        let game = load("games/kuhn.sidl");
        let t = std::time::Instant::now();
        let r = explore(game, &opts(10_000), &mut |_| {}).unwrap();
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "dynamic §11 exploration of kuhn: {} states, {} chronons in {:.3} s: {:.0} states/s, {:.0} chronons/s",
            r.states,
            r.chronons,
            secs,
            r.states as f64 / secs,
            r.chronons as f64 / secs
        );
    }
}

/// Fixtures: a leak through legality and one through ownership, both analyses, replayed.
mod fixtures {
    use super::read;
    use sidl_engine::analysis::hidden_dynamic::{explore, replay, Difference, ExploreOptions};
    use sidl_engine::analysis::hidden_static::check_static;
    use sidl_engine::game::{Game, Owner};
    use sidl_engine::term::Term;
    use std::sync::Arc;

    fn b() -> Term {
        Term::list(vec![Term::atom("b")])
    }

    fn dynamic(
        rel: &str,
    ) -> (
        Arc<Game>,
        ExploreOptions,
        Vec<sidl_engine::analysis::hidden_dynamic::Violation>,
    ) {
        let game = Arc::new(Game::load(&read(rel)).expect("loads").0);
        let o = ExploreOptions::default();
        let r = explore(game.clone(), &o, &mut |_| {}).unwrap();
        assert!(r.complete);
        (game, o, r.violations)
    }

    #[test]
    fn legality_leak() {
        let rel = "engine/tests/hidden/legality_leak.sidl";
        let src = read(rel);
        let d = check_static(&src);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(
            d[0].message
                .starts_with("legality of switch [b] reads fact([coin,heads])"),
            "{}",
            d[0].message
        );
        let (game, o, v) = dynamic(rel);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert_eq!((&v[0].player, &v[0].switch), (&b(), &b()));
        let Difference::Legality { legal_in_first } = v[0].difference else {
            panic!("{:?}", v[0].difference)
        };
        let mut s1 = replay(game.clone(), &o, &v[0].first).unwrap();
        let mut s2 = replay(game, &o, &v[0].second).unwrap();
        assert_eq!(s1.view(Some(&b())).unwrap(), s2.view(Some(&b())).unwrap());
        let legal = |s: &mut sidl_engine::game::Session| {
            s.switches().unwrap().iter().any(|sw| sw.id == b())
        };
        assert_eq!(legal(&mut s1), legal_in_first);
        assert_eq!(legal(&mut s2), !legal_in_first);
    }

    #[test]
    fn owner_leak() {
        let rel = "engine/tests/hidden/owner_leak.sidl";
        let src = read(rel);
        let d = check_static(&src);
        assert!(!d.is_empty(), "{d:#?}");
        assert!(
            d.iter()
                .all(|d| d.message.starts_with("the owner of switch [x]")),
            "{d:#?}"
        );
        assert!(
            d.iter().any(|d| d
                .help
                .as_deref()
                .unwrap_or("")
                .contains("owned/2 → side/1 → fact/1")),
            "{d:#?}"
        );
        let (game, o, v) = dynamic(rel);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert_eq!(v[0].player, b());
        let Difference::Owner { first, second } = &v[0].difference else {
            panic!("{:?}", v[0].difference)
        };
        assert_ne!(first, second);
        let mut s1 = replay(game.clone(), &o, &v[0].first).unwrap();
        let mut s2 = replay(game, &o, &v[0].second).unwrap();
        assert_eq!(s1.view(Some(&b())).unwrap(), s2.view(Some(&b())).unwrap());
        let x = Term::list(vec![Term::atom("x")]);
        let owner = |s: &mut sidl_engine::game::Session| {
            s.switches()
                .unwrap()
                .iter()
                .find(|sw| sw.id == x)
                .map(|sw| sw.owner.clone())
        };
        assert_eq!(owner(&mut s1).as_ref(), Some(first));
        assert_eq!(owner(&mut s2).as_ref(), Some(second));
        assert!([first, second].contains(&&Owner::Player(b())));
    }

    /// A typed switch with the same template in both states leaks through `switch/2`'s body: the
    /// exploration probes which offers it accepts, and the counterexample's two states answer
    /// differently for the action it names.
    #[test]
    fn acceptance_leak() {
        let rel = "engine/tests/hidden/acceptance_leak.sidl";
        let d = check_static(&read(rel));
        assert!(
            d.iter()
                .any(|d| d.code == super::HIDDEN_READ && d.message.contains("switch [b]")),
            "{d:#?}"
        );
        let (game, o, v) = dynamic(rel);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert_eq!((&v[0].player, &v[0].switch), (&b(), &b()));
        let Difference::Accepts {
            action,
            accepted_in_first,
        } = &v[0].difference
        else {
            panic!("{:?}", v[0].difference)
        };
        let mut s1 = replay(game.clone(), &o, &v[0].first).unwrap();
        let mut s2 = replay(game, &o, &v[0].second).unwrap();
        assert_eq!(s1.view(Some(&b())).unwrap(), s2.view(Some(&b())).unwrap());
        let ok =
            |s: &mut sidl_engine::game::Session| s.accepts(&b(), &b(), action).unwrap().is_ok();
        assert_eq!(ok(&mut s1), *accepted_in_first);
        assert_eq!(ok(&mut s2), !*accepted_in_first);
        assert!(
            v[0].reason()[0].contains("accepts [offer,"),
            "{:?}",
            v[0].reason()
        );
        let json = serde_json::to_value(v[0].data()).unwrap();
        assert_eq!(json["difference"]["what"], "accepts", "{json}");
    }
}
