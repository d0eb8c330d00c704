//! Which clause shapes [`plan`] takes, and the joins that give up at run time.

use super::*;
use crate::game::session::{Session, Settings};
use crate::game::Game;

/// A game of two players with the facts `facts` and the clauses `rules`.
fn game(facts: &[&str], rules: &str) -> Arc<Game> {
    let mut src = String::from("game(t).\ninit([a], 0).\ninit([b], 0).\n");
    for f in facts {
        src.push_str(&format!("init({f}).\n"));
    }
    src.push_str(rules);
    src.push_str("\ndo(_).\n");
    let (g, _) = Game::load(&src).unwrap_or_else(|d| panic!("{src}: {d:?}"));
    Arc::new(g)
}

/// (`legal/1` planned, `switch/2` planned).
fn planned(rules: &str) -> (bool, bool) {
    let g = game(&[], rules);
    (g.joins.legal.is_some(), g.joins.switch.is_some())
}

#[test]
fn joins_of_facts_negations_players_and_comparisons_qualify() {
    let yes = [
        "legal([P]) :- fact([control, P]), not(fact([over])).\n\
         switch([P], [drop, C]) :- fact([control, P]), fact([height, C, H]), H < 6.",
        "legal([P]) :- fact([turn, P, _]).\nswitch([P], [P, check]) :- fact([turn, P, open]).\n\
         switch([clock], [tick]).",
        "legal([P]) :- player([P]), \\+ fact([P, done]).\nswitch([P], f(P, [x | Y])) :- \
         fact([y, Y]), Y >= 1, Y =< 3, Y =\\= 2, Y =:= Y, Y > 0.",
        "legal([P]) :- fact([turn, P]), once(fact([cell, _, _, m])), true.\n\
         switch([P], [P, X]) :- fact([v, X]), X == a, P \\== X.",
        "legal([main]) :- fact([_, I]), I > 0.\nswitch(_, [a]).",
        "legal([P]) :- fact([p, P, P]).\nswitch([P, P], [P]).",
    ];
    for rules in yes {
        assert_eq!(planned(rules), (true, true), "{rules}");
    }
}

#[test]
fn other_shapes_keep_the_interpreter() {
    // each: (rules, legal planned, switch planned)
    let cases = [
        // a library predicate, a user predicate, arithmetic, between/3
        ("legal([P]) :- player([P]), member(P, [a]).", false, false),
        ("legal([P]) :- q(P).\nq(a).", false, false),
        ("legal([x]) :- fact([n, N]), N + 1 > 2.", false, false),
        (
            "switch([P], [P, B]) :- fact([v, V]), between(0, V, B).\nlegal([a]).",
            true,
            false,
        ),
        // one clause of several
        (
            "legal([a]) :- fact([x]).\nlegal([b]) :- fact([y]), !.",
            false,
            false,
        ),
        // a comparison of a variable not yet bound, or bound only inside a negation
        ("legal([x]) :- N < 3, fact([n, N]).", false, false),
        ("legal([x]) :- not(fact([n, N])), N < 3.", false, false),
        // an answer variable the body does not bind
        ("legal([P]) :- fact([x]).", false, false),
        ("legal([P]) :- not(fact([P])).", false, false),
        // floats, strings, an arithmetic comparison with an atom
        ("legal([x]) :- fact([n, N]), N < 2.5.", false, false),
        ("legal([1.5]) :- fact([x]).", false, false),
        ("legal([x]) :- fact([n, N]), N < a.", false, false),
        // patterns that are not short proper lists
        ("legal([x]) :- fact(F).", false, false),
        ("legal([x]) :- fact([a, b, c, d, e]).", false, false),
        ("legal([x]) :- fact([a | T]).", false, false),
        ("legal([x]) :- fact([f(a)]).", false, false),
        // control constructs other than conjunction, negation and once
        ("legal([x]) :- fact([a]) ; fact([b]).", false, false),
        (
            "legal([x]) :- (fact([a]) -> true ; fact([b])).",
            false,
            false,
        ),
        ("legal([x]) :- once((fact([a]), fact([b]))).", false, false),
        // body keywords not allowed in legal/1 (docs/semantics.md §2.2)
        ("legal([x]) :- tocreate([a]).", false, false),
    ];
    for (rules, legal, switch) in cases {
        assert_eq!(planned(rules), (legal, switch), "{rules}");
    }
}

#[test]
fn redefined_comparisons_and_once_keep_the_interpreter() {
    assert_eq!(
        planned("legal([x]) :- fact([n, N]), N < 3.\n'<'(_, _)."),
        (false, false)
    );
    assert_eq!(
        planned("legal([x]) :- once(fact([n, _])).\nonce(_)."),
        (false, false)
    );
    assert_eq!(
        planned("legal([x]) :- once(fact([n, _])).\nlegal([y]) :- fact([n, N]), N < 3."),
        (true, false)
    );
}

/// The switches of a fresh session of `g`, by the host and by the interpreter.
fn both(g: &Arc<Game>) -> (Result<String, String>, Result<String, String>) {
    let run = |on: bool| {
        let mut s = Session::new(g.clone(), 1, Settings::default()).map_err(|e| e.to_string())?;
        s.set_host_joins(on);
        s.switches()
            .map(|v| format!("{v:?}"))
            .map_err(|e| e.to_string())
    };
    (run(true), run(false))
}

#[test]
fn a_float_or_an_atom_operand_at_run_time_gives_up() {
    let rules = "legal([x]) :- fact([n, N]), N < 2.\nswitch([x], [v, N]) :- fact([n, N]), N >= 1.";
    // (a one-character string evaluates to its character code, as in SWI-Prolog)
    for (fact, ok) in [("[n, 1.5]", true), ("[n, a]", false), ("[n, \"s\"]", true)] {
        let g = game(&[fact], rules);
        let join = g.joins.legal.as_ref().expect("planned");
        let s = Session::new(g.clone(), 1, Settings::default()).unwrap();
        let st = s.state().clone();
        let mut n = 0;
        assert!(!join.answers(&st.facts, &st.players, None, u64::MAX, &mut |_, _| n += 1));
        assert_eq!(n, 0);
        let (host, interp) = both(&g);
        assert_eq!(host, interp, "{fact}");
        // 1.5 < 2 compares floats; `a` raises a type error
        assert_eq!(host.is_ok(), ok, "{fact}: {host:?}");
    }
    // integers: answered by the join
    let g = game(&["[n, 1]", "[n, 3]", "[n, 1]"], rules);
    let s = Session::new(g.clone(), 1, Settings::default()).unwrap();
    let st = s.state().clone();
    let mut n = 0;
    let join = g.joins.legal.as_ref().unwrap();
    assert!(join.answers(&st.facts, &st.players, None, u64::MAX, &mut |_, _| n += 1));
    assert_eq!(n, 1);
    let (host, interp) = both(&g);
    assert_eq!(host, interp);
}

#[test]
fn a_compound_value_or_a_small_budget_gives_up() {
    let rules = "legal([P]) :- fact([turn, P]).\nswitch([P], [go, P]) :- fact([turn, P]).";
    let g = game(&["[turn, f(1)]"], rules);
    let s = Session::new(g.clone(), 1, Settings::default()).unwrap();
    let st = s.state().clone();
    let join = g.joins.legal.as_ref().unwrap();
    assert!(!join.answers(&st.facts, &st.players, None, u64::MAX, &mut |_, _| {}));
    let (host, interp) = both(&g);
    assert_eq!(host, interp);
    // work beyond the budget: the interpreter answers
    let g = game(&["[turn, a]", "[turn, b]"], rules);
    let s = Session::new(g.clone(), 1, Settings::default()).unwrap();
    let st = s.state().clone();
    let join = g.joins.legal.as_ref().unwrap();
    assert!(!join.answers(&st.facts, &st.players, None, 2, &mut |_, _| {}));
    assert!(join.answers(&st.facts, &st.players, None, 100, &mut |_, _| {}));
    assert_eq!(join.max_work(64), 0);
}
