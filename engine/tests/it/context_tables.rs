//! Per-context tables (`engine/src/solve/statememo.rs`, `Host::context_id`) and meta-call
//! specialisation (`engine/src/solve/specialise.rs`) observed through the machine.
//!
//! A predicate that reads the schedules (`tocreate/1`, `todelete/1`) is tabled per context: its
//! table must be served again while the schedules stay the same, and never after a `create/1` or
//! `delete/1`, nor after one was undone on backtracking.

use sidl_engine::game::facts::{FactSet, Ground};
use sidl_engine::game::host::KeywordHost;
use sidl_engine::game::Game;
use sidl_engine::solve::{Limits, Machine};
use sidl_engine::term::Term;
use std::sync::Arc;

const GAME: &str = "
game(t).
init([a]).
init([b]).
init([p], 0).
legal([p]) :- fact([a]).
owned([p], [p]).
switch([p], [go]).
do([go]) :- fact([X]), create([new, X]).
do(undo) :- create([new, tmp]), fail.
do(del) :- delete([a]).
new(X) :- tocreate([new, X]).
gone(X) :- todelete([X]).
";

/// Every answer of `goal(X)` (the first answer only with `once`), and the inferences it took.
fn ask(
    m: &mut Machine,
    host: &mut KeywordHost<'_>,
    name: &str,
    arg: Term,
    once: bool,
) -> (Vec<Term>, u64) {
    m.reset();
    let goal = Term::compound(name, vec![arg]);
    let mut vars = Vec::new();
    let g = m.store.build(&goal, &mut vars);
    m.start(g);
    let mut out = Vec::new();
    let mut redo = false;
    while m.solve(redo, host).expect("no error") {
        out.push(m.store.to_term(g));
        if once || !m.has_alternatives() {
            break;
        }
        redo = true;
    }
    (out, m.inferences)
}

fn args(answers: &[Term]) -> Vec<String> {
    answers
        .iter()
        .map(|t| sidl_engine::write::writeq(&t.args()[0], None))
        .collect()
}

#[test]
fn context_tables_follow_the_schedules() {
    let (game, _) = Game::load(GAME).expect("the game loads");
    let new = game
        .program
        .pred(sidl_engine::atom::Atom::new("new"), 1)
        .expect("new/1");
    assert_ne!(
        new.state_memo & sidl_engine::solve::statememo::MODE_CONTEXT,
        0,
        "new/1 is tabled per context"
    );
    let facts = FactSet::from_grounds(vec![
        Arc::new(Ground::new(Term::list(vec![Term::atom("a")]))),
        Arc::new(Ground::new(Term::list(vec![Term::atom("b")]))),
    ]);
    let players = vec![Arc::new(Ground::new(Term::list(vec![Term::atom("p")])))];
    let does = vec![(
        Arc::new(Ground::new(Term::list(vec![Term::atom("p")]))),
        Arc::new(Ground::new(Term::list(vec![Term::atom("go")]))),
    )];
    let mut host = KeywordHost::new(&facts, &players, &does);
    let mut m = Machine::new(game.program.clone(), Limits::default());
    let x = || Term::Var(0);

    let (a, first) = ask(&mut m, &mut host, "new", x(), false);
    assert!(a.is_empty());
    // the same context: the table is served (fewer inferences than filling it)
    let (a, again) = ask(&mut m, &mut host, "new", x(), false);
    assert!(a.is_empty());
    assert!(again < first, "served from the table: {again} < {first}");

    // do([go]) schedules [new, a]: the old table must not be served
    let (ok, _) = ask(
        &mut m,
        &mut host,
        "do",
        Term::list(vec![Term::atom("go")]),
        true,
    );
    assert_eq!(ok.len(), 1);
    let (a, _) = ask(&mut m, &mut host, "new", x(), false);
    assert_eq!(args(&a), ["a"]);
    let (a, _) = ask(&mut m, &mut host, "new", Term::atom("a"), false);
    assert_eq!(a.len(), 1);

    // do(undo) schedules [new, tmp] and fails: the creation is undone, and no table of the
    // context that held it is served
    let (ok, _) = ask(&mut m, &mut host, "do", Term::atom("undo"), true);
    assert!(ok.is_empty());
    let (a, _) = ask(&mut m, &mut host, "new", x(), false);
    assert_eq!(args(&a), ["a"]);
    let (a, _) = ask(&mut m, &mut host, "new", Term::atom("tmp"), false);
    assert!(a.is_empty());

    // deletions are part of the context too
    let (a, _) = ask(&mut m, &mut host, "gone", x(), false);
    assert!(a.is_empty());
    let (ok, _) = ask(&mut m, &mut host, "do", Term::atom("del"), true);
    assert_eq!(ok.len(), 1);
    let (a, _) = ask(&mut m, &mut host, "gone", x(), false);
    assert_eq!(args(&a), ["a"]);
}

#[test]
fn specialised_meta_calls_report_the_users_predicates() {
    // run/1 passes an atom to apply/2's meta position (a specialised copy runs); run2/1 passes
    // it through a variable (call/2 runs): an error in apply/2 names the same predicates and
    // clause either way
    let src = "
apply(B, X) :- call(B, X), Y is X + foo, Y > 0.
good(1).
run(X) :- apply(good, X), true.
run2(X) :- B = good, apply(B, X), true.
";
    let (program, diags) = sidl_engine::solve::Program::from_source(src);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let err = |goal: &str| {
        let mut a = program
            .solve_all(goal, Limits::default(), 1)
            .expect("the goal parses");
        a.pop().expect("an answer").expect_err("an error")
    };
    let direct = err("run(X)");
    let meta = err("run2(X)");
    assert_eq!(direct.message, meta.message);
    assert_eq!(direct.span(), meta.span());
    assert_eq!(direct.predicate, meta.predicate);
    let span = direct.span().expect("the clause being run");
    assert!(src[span.start as usize..].starts_with("apply(B, X)"));
    let names = |p: &[(sidl_engine::atom::Atom, u32)]| -> Vec<String> {
        p.iter().map(|(n, a)| format!("{n}/{a}")).collect()
    };
    assert_eq!(names(&direct.path), ["run/1", "apply/2"]);
    assert_eq!(names(&meta.path), ["run2/1", "apply/2"]);
    // the copy is not visible by name: the program's apply/2 is the one written
    let apply = program
        .pred(sidl_engine::atom::Atom::new("apply"), 2)
        .expect("apply/2");
    assert_eq!(apply.clauses.len(), 1);
    assert!(matches!(
        apply.clauses[0].body[0].disp,
        sidl_engine::solve::program::Dispatch::Control(_)
    ));
}

/// A per-state table of the general call is served to calls with bound atomic arguments: an
/// answer that differs there is passed over without unifying it (`Answers::may_unify`), which must
/// answer exactly as the predicate called directly: integers and floats apart, `0.0` and `-0.0`
/// apart, atoms and strings apart, a compound never equal to an atomic value.
#[test]
fn general_tables_serve_bound_atomic_arguments_like_direct_calls() {
    let src = "
game(t).
init([v, 1]).
init([v, 1.0]).
init([v, 0.0]).
init([v, -0.0]).
init([v, a]).
init([v, \"a\"]).
init([v, f(1)]).
init([v, [1]]).
init([p], 0).
legal([p]) :- fact([v, _]).
owned([p], [p]).
switch([p], [go]).
val(K, X) :- fact([K, X]).
";
    let (game, _) = Game::load(src).expect("the game loads");
    let val = game
        .program
        .pred(sidl_engine::atom::Atom::new("val"), 2)
        .expect("val/2");
    assert_ne!(val.state_memo, 0, "val/2 is tabled per state");
    let word = |x: Term| Arc::new(Ground::new(Term::list(vec![Term::atom("v"), x])));
    let values = vec![
        Term::Int(1),
        Term::Float(1.0),
        Term::Float(0.0),
        Term::Float(-0.0),
        Term::atom("a"),
        Term::Str(sidl_engine::atom::Atom::new("a")),
        Term::compound("f", vec![Term::Int(1)]),
        Term::list(vec![Term::Int(1)]),
    ];
    let facts = FactSet::from_grounds(values.iter().cloned().map(word).collect());
    let players = vec![Arc::new(Ground::new(Term::list(vec![Term::atom("p")])))];
    let mut probes = values.clone();
    probes.extend([
        Term::Int(0),
        Term::Float(2.0),
        Term::atom("f"),
        Term::Var(0),
    ]);
    for memoize in [true, false] {
        let mut host = KeywordHost::new(&facts, &players, &[]);
        let mut m = Machine::new(game.program.clone(), Limits::default());
        m.memoize = memoize;
        // asked many times: the trials of both table kinds are run through and one is kept
        for round in 0..40 {
            for p in &probes {
                let goal = Term::compound("val", vec![Term::atom("v"), p.clone()]);
                m.reset();
                let mut vars = Vec::new();
                let g = m.store.build(&goal, &mut vars);
                m.start(g);
                let mut got = Vec::new();
                let mut redo = false;
                while m.solve(redo, &mut host).expect("no error") {
                    got.push(m.store.to_term(g).args()[1].clone());
                    redo = true;
                }
                let want: Vec<Term> = match p {
                    Term::Var(_) => values.clone(),
                    p => values.iter().filter(|v| *v == p).cloned().collect(),
                };
                assert_eq!(got, want, "val(v, {p:?}), round {round}, memoize {memoize}");
            }
        }
    }
}
