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
        // member/2 over a constant list or a game predicate's fact, between/3, negated and
        // unifying comparisons of bound values
        "legal([P]) :- player([P]), member(P, [a, b]).\n\
         switch([deal], [deal, C1, C2]) :- cards(Cs), member(C1, Cs), member(C2, Cs), \
         not(C1 = C2).\ncards([j, q, k]).",
        "legal([P]) :- player([P]), \\+ P == c, P \\= d, P = P.\n\
         switch([P], [P, X]) :- member(X, [1, -2, x]), member(_, [a, b]).",
        "legal([offer]) :- not(fact([n, N])), \\+ (3 < 2).\n\
         switch([offer], [offer, X]) :- pie(P), between(0, P, X), between(X, 9, 5).\npie(5).",
        "legal([P]) :- fact([v, P, V]), between(1, V, 2), between(0, 3, _).\n\
         switch([P], [P, B]) :- fact([v, P, V]), between(0, V, B), bounds(_, H, _, _), \
         B =< H.\nbounds(0, 10, x, f(y)).",
    ];
    for rules in yes {
        assert_eq!(planned(rules), (true, true), "{rules}");
    }
}

#[test]
fn other_shapes_keep_the_interpreter() {
    // each: (rules, legal planned, switch planned)
    let cases = [
        // a library predicate, a user predicate called with a bound argument or defined by a
        // rule or by two facts, arithmetic
        ("legal([P]) :- player([P]), length(P, 1).", false, false),
        ("legal([P]) :- player([P]), q(P).\nq(a).", false, false),
        ("legal([P]) :- q(P).\nq(P) :- player([P]).", false, false),
        ("legal([P]) :- q(P).\nq(a).\nq(b).", false, false),
        ("legal([P]) :- q(P).\nq(_).", false, false),
        ("legal([x]) :- fact([n, N]), N + 1 > 2.", false, false),
        // member/2 over a list not known when planning, or of other terms than atoms and integers
        ("legal([X]) :- fact([l, L]), member(X, L).", false, false),
        ("legal([X]) :- member(X, [a, f(b)]).", false, false),
        ("legal([X]) :- member(X, [a, 1.5]).", false, false),
        ("legal([X]) :- member(X, [a | _]).", false, false),
        (
            "legal([X]) :- q(L), member(X, L).\nq([a, \"s\"]).",
            false,
            false,
        ),
        // a known list used otherwise than as member/2's list
        ("legal([x]) :- q(L), fact([L]).\nq([a]).", false, false),
        ("legal([L]) :- q(L).\nq([a]).", false, false),
        ("legal([x]) :- q(L), L == [a].\nq([a]).", false, false),
        // between/3 with a bound not bound, a float or an atom, or an atom to test
        (
            "legal([X]) :- between(0, N, X), fact([n, N]).",
            false,
            false,
        ),
        ("legal([X]) :- between(0, 2.5, X).", false, false),
        ("legal([X]) :- between(0, inf, X).", false, false),
        ("legal([x]) :- between(0, 3, a).", false, false),
        // a comparison unifying a variable not bound yet
        ("legal([X]) :- X = a.", false, false),
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

#[test]
fn member_between_and_facts_of_game_predicates_give_the_interpreters_answers() {
    let rules = "legal([P]) :- fact([v, P, _]).\n\
        switch([P], [P, B]) :- fact([v, P, V]), between(-1, V, B), not(B =:= 1).\n\
        switch([P], [P, X]) :- fact([v, P, _]), xs(Xs), member(X, Xs), member(X, [b, a, 2]).\n\
        switch([P], [P, Y]) :- fact([v, P, V]), member(Y, [0, 1, 0, 3]), between(0, 2, Y).\n\
        switch([P], [P, n]) :- fact([v, P, V]), between(V, 1, _).\n\
        xs([a, 2, a, c]).";
    for facts in [
        &["[v, a, 3]", "[v, b, 0]"][..],
        &["[v, a, -2]", "[v, b, 2]"],
        &[],
    ] {
        let g = game(facts, rules);
        assert_eq!(g.host_joins(), (true, true));
        let (host, interp) = both(&g);
        // (the same answers in the same order, duplicates removed)
        assert_eq!(host, interp, "{facts:?}");
        assert!(host.is_ok(), "{facts:?}: {host:?}");
    }
}

#[test]
fn a_bound_that_is_not_an_integer_at_run_time_gives_up() {
    let rules = "legal([P]) :- fact([v, P, _]).\n\
        switch([P], [P, B]) :- fact([v, P, V]), between(0, V, B).\n\
        switch([P], [P, t]) :- fact([v, P, V]), between(0, 5, V).";
    for (fact, ok) in [
        ("[v, a, x]", false),
        ("[v, a, 2]", true),
        ("[v, a, f(1)]", false),
    ] {
        let g = game(&[fact], rules);
        let join = g.joins.switch.as_ref().expect("planned");
        let s = Session::new(g.clone(), 1, Settings::default()).unwrap();
        let st = s.state().clone();
        let input = crate::term::Term::list(vec![crate::term::Term::atom("a")]);
        let answered = join.answers(
            &st.facts,
            &st.players,
            Some(&input),
            u64::MAX,
            &mut |_, _| {},
        );
        assert_eq!(answered, ok, "{fact}");
        let (host, interp) = both(&g);
        assert_eq!(host, interp, "{fact}");
        assert_eq!(host.is_ok(), ok, "{fact}: {host:?}");
    }
    // a long range: beyond the work bound the interpreter answers
    let g = game(&[], "legal([a]).\nswitch([a], [B]) :- between(1, 1000, B).");
    let s = Session::new(g.clone(), 1, Settings::default()).unwrap();
    let st = s.state().clone();
    let join = g.joins.switch.as_ref().unwrap();
    let input = crate::term::Term::list(vec![crate::term::Term::atom("a")]);
    assert!(!join.answers(&st.facts, &st.players, Some(&input), 500, &mut |_, _| {}));
    let mut n = 0;
    assert!(
        join.answers(&st.facts, &st.players, Some(&input), 5000, &mut |_, _| n +=
            1)
    );
    assert_eq!(n, 1000);
}

/// `payoff/2` planned as guards: (planned, the number of clauses).
fn guards(rules: &str) -> Option<usize> {
    game(&[], rules)
        .joins
        .payoff
        .as_ref()
        .map(|g| g.clauses.len())
}

#[test]
fn payoffs_beginning_with_a_schedule_read_are_guards() {
    let c4 = "payoff([P], 1) :- tocreate([winner, P]).\n\
              payoff([P], -1) :- tocreate([winner, O]), opponent(O, P).\nopponent(a, b).";
    assert_eq!(guards(c4), Some(2));
    assert_eq!(
        guards("payoff([P], D) :- todelete([k, P, N0]), tocreate([k, P, N]), D is N - N0."),
        Some(1)
    );
    // a fact, another first goal, a variable or a partial list to read, no payoff/2 at all
    for rules in [
        "payoff([a], 1).\npayoff([P], 1) :- tocreate([w, P]).",
        "payoff([P], 1) :- tocreate([w, P]).\npayoff([P], 1) :- fact([w, P]).",
        "payoff([P], 1) :- (tocreate([w, P]) -> true ; fail).",
        "payoff([P], 1) :- tocreate(W), W = [w, P].",
        "payoff([P], 1) :- tocreate([w | P]).",
        "legal([a]).",
    ] {
        assert_eq!(guards(rules), None, "{rules}");
    }
    // which scheduled words may unify with `[winner, P]` and `[k, 3]`
    let g = game(&[], c4).joins.payoff.clone().unwrap();
    let w = |s: &str| Ground::new(crate::syntax::parse_term(s).unwrap().term);
    let none: [Ground; 0] = [];
    let fails = |creates: &[Ground]| g.fail(creates.iter(), none.iter());
    assert!(fails(&[]));
    assert!(fails(&[
        w("[height, 3, 1]"),
        w("[cell, 3, 1, r]"),
        w("[control, b]")
    ]));
    assert!(fails(&[w("[winner]"), w("[winner, a, b]"), w("[won, a]")]));
    assert!(!fails(&[w("[cell, 3, 1, r]"), w("[winner, a]")]));
    assert!(!fails(&[w("[winner, f(x)]")]));
    let k = game(&[], "payoff([P], 1) :- todelete([k, 3]).")
        .joins
        .payoff
        .clone()
        .unwrap();
    assert!(k.fail(none.iter(), [w("[k, 4]"), w("[k, a]"), w("[j, 3]")].iter()));
    assert!(!k.fail(none.iter(), [w("[k, 3]")].iter()));
    assert!(!k.fail(none.iter(), [w("[k, 3.0]")].iter()));
    assert!(k.fail([w("[k, 3]")].iter(), none.iter()));
}

/// Skipping the payoffs that cannot pay is invisible: the same accounts, states and errors as the
/// interpreter's queries under every inference budget around what a chronon needs (the skip must
/// not hide a budget error the payoff queries would have raised).
#[test]
fn skipped_payoffs_give_the_interpreters_accounts_and_budget_errors() {
    let rules = "legal([P]) :- fact([turn, P]).\nswitch([P], [go]) :- fact([turn, P]).\n\
                 payoff([P], 1) :- tocreate([winner, P]).\n\
                 payoff([P], -1) :- tocreate([winner, O]), opponent(O, P).\n\
                 opponent(a, b).\nopponent(b, a).\n\
                 do([go]) :- fact([turn, P]), opponent(P, O), delete([turn, P]), \
                 create([turn, O]), fact([n, N]), M is N + 1, delete([n, N]), create([n, M]), \
                 (M >= 3 -> create([winner, P]) ; true).";
    let src = format!(
        "game(t).\ninit([a], 0).\ninit([b], 0).\ninit([turn, a]).\ninit([n, 0]).\n{rules}\n"
    );
    let (g, _) = Game::load(&src).unwrap();
    let g = Arc::new(g);
    assert!(g.joins.payoff.is_some());
    let play = |on: bool, budget: u64| {
        let mut settings = Settings::default();
        settings.limits.max_inferences = budget;
        let mut s = Session::new(g.clone(), 1, settings).map_err(|e| e.to_string())?;
        s.set_host_joins(on);
        let mut out = Vec::new();
        for _ in 0..4 {
            let r = s.run_chronon().map(|_| ()).map_err(|e| e.to_string());
            out.push(format!(
                "{r:?} {:?} {:?}",
                s.accounts(),
                s.state().facts.terms().collect::<Vec<_>>()
            ));
        }
        Ok::<_, String>(out)
    };
    let mut skipped = 0;
    for budget in 1..400 {
        let (fast, slow) = (play(true, budget), play(false, budget));
        assert_eq!(fast, slow, "budget {budget}");
        skipped += usize::from(fast.is_ok_and(|o| o.iter().all(|l| l.starts_with("Ok"))));
    }
    // (not vacuous: the larger budgets run every chronon)
    assert!(skipped > 100, "{skipped}");
}
