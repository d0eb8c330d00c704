//! Machine tests on hand-built programs (no parser): control, cut, exceptions, findall, budgets.
use super::*;
use crate::atom::Atom;
use crate::diag::Span;
use crate::term::Term;

fn v(n: u32) -> Term {
    Term::Var(n)
}
fn a(s: &str) -> Term {
    Term::atom(s)
}
fn c(f: &str, args: Vec<Term>) -> Term {
    Term::compound(f, args)
}
fn rule(h: Term, b: Term) -> SourceClause {
    SourceClause {
        term: c(":-", vec![h, b]),
        span: Span::default(),
        var_names: vec![].into(),
    }
}
fn fact(h: Term) -> SourceClause {
    SourceClause {
        term: h,
        span: Span::default(),
        var_names: vec![].into(),
    }
}
fn conj(goals: Vec<Term>) -> Term {
    let mut it = goals.into_iter().rev();
    let last = it.next().unwrap();
    it.fold(last, |acc, g| c(",", vec![g, acc]))
}

fn app_prog(extra: Vec<SourceClause>) -> Program {
    let clauses = vec![
        fact(c("app", vec![a("[]"), v(0), v(0)])),
        rule(
            c(
                "app",
                vec![Term::cons(v(0), v(1)), v(2), Term::cons(v(0), v(3))],
            ),
            c("app", vec![v(1), v(2), v(3)]),
        ),
        fact(c("nrev", vec![a("[]"), a("[]")])),
        rule(
            c("nrev", vec![Term::cons(v(0), v(1)), v(2)]),
            conj(vec![
                c("nrev", vec![v(1), v(3)]),
                c("app", vec![v(3), Term::list(vec![v(0)]), v(2)]),
            ]),
        ),
        // len([], 0). len([_|T], N) :- len(T, N0), N is N0 + 1  -- without is/2: count with s/1
        fact(c("len", vec![a("[]"), a("z")])),
        rule(
            c("len", vec![Term::cons(v(0), v(1)), c("s", vec![v(2)])]),
            c("len", vec![v(1), v(2)]),
        ),
        rule(a("loop"), a("loop")),
        rule(a("deep"), conj(vec![a("deep"), a("true")])),
    ];
    let (p, d) = ProgramBuilder::new()
        .without_prelude()
        .clauses(clauses)
        .clauses(extra)
        .build();
    assert!(d.is_empty(), "{d:?}");
    p
}

fn answers(p: &Program, goal: Term, limits: Limits) -> Vec<Result<Vec<Term>, SolveError>> {
    let n = goal.var_count();
    let names: Vec<String> = (0..n).map(|i| format!("V{i}")).collect();
    let mut q = Query::new(p, &goal, &names, limits);
    let mut out = Vec::new();
    while let Some(r) = q.next_answer() {
        let stop = r.is_err();
        out.push(r);
        if stop || out.len() > 100 {
            break;
        }
    }
    out
}

fn ints(n: i64) -> Term {
    Term::list((1..=n).map(Term::Int).collect())
}

#[test]
fn append_enumerates_splits_in_order() {
    let p = app_prog(vec![]);
    let r = answers(&p, c("app", vec![v(0), v(1), ints(3)]), Limits::default());
    assert_eq!(r.len(), 4);
    let first = r[0].as_ref().unwrap();
    assert_eq!(first[0], a("[]"));
    assert_eq!(first[1], ints(3));
    let last = r[3].as_ref().unwrap();
    assert_eq!(last[0], ints(3));
    assert_eq!(last[1], a("[]"));
}

#[test]
fn naive_reverse_is_deterministic() {
    let p = app_prog(vec![]);
    let mut q = Query::new(
        &p,
        &c("nrev", vec![ints(30), v(0)]),
        &["R".into()],
        Limits::default(),
    );
    let ans = q.next_answer().unwrap().unwrap();
    let expect = Term::list((1..=30).rev().map(Term::Int).collect());
    assert_eq!(ans[0], expect);
    assert!(
        !q.may_have_more(),
        "first-argument indexing leaves no choicepoint"
    );
    assert!(q.next_answer().is_none());
}

#[test]
fn deep_non_tail_recursion_does_not_overflow() {
    let p = app_prog(vec![]);
    let r = answers(&p, c("len", vec![ints(1_000_000), v(0)]), Limits::default());
    assert_eq!(r.len(), 1);
    let mut t = &r[0].as_ref().unwrap()[0];
    let mut n = 0;
    while let Term::Compound(_, args) = t {
        t = &args[0];
        n += 1;
    }
    assert_eq!(n, 1_000_000);
}

#[test]
fn infinite_recursion_hits_the_inference_budget() {
    let p = app_prog(vec![]);
    let limits = Limits {
        max_inferences: 200_000,
        ..Limits::default()
    };
    let r = answers(&p, a("loop"), limits);
    let e = r[0].as_ref().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Budget("inferences"));
    assert!(e.message.contains("loop/0"), "{}", e.message);
    let r = answers(
        &p,
        a("deep"),
        Limits {
            max_frames: 10_000,
            ..Limits::default()
        },
    );
    assert_eq!(r[0].as_ref().unwrap_err().kind, ErrorKind::Budget("frames"));
}

#[test]
fn cut_if_then_else_negation_and_disjunction() {
    let extra = vec![
        // first(X) :- member-like choice, cut
        fact(c("p", vec![Term::Int(1)])),
        fact(c("p", vec![Term::Int(2)])),
        fact(c("p", vec![Term::Int(3)])),
        rule(
            c("first", vec![v(0)]),
            conj(vec![c("p", vec![v(0)]), a("!")]),
        ),
        rule(
            c("ite", vec![v(0), v(1)]),
            c(
                ";",
                vec![
                    c("->", vec![c("p", vec![v(0)]), c("=", vec![v(1), a("yes")])]),
                    c("=", vec![v(1), a("no")]),
                ],
            ),
        ),
        rule(c("notp", vec![v(0)]), c("\\+", vec![c("p", vec![v(0)])])),
        rule(c("=", vec![v(0), v(0)]), a("true")),
    ];
    let (p, _d) = ProgramBuilder::new()
        .without_prelude()
        .clauses(extra)
        .build();
    let r = answers(&p, c("first", vec![v(0)]), Limits::default());
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].as_ref().unwrap()[0], Term::Int(1));
    let r = answers(&p, c("p", vec![v(0)]), Limits::default());
    assert_eq!(r.len(), 3);
    let r = answers(&p, c("ite", vec![Term::Int(2), v(0)]), Limits::default());
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].as_ref().unwrap()[0], a("yes"));
    let r = answers(&p, c("ite", vec![Term::Int(7), v(0)]), Limits::default());
    assert_eq!(r[0].as_ref().unwrap()[0], a("no"));
    assert_eq!(
        answers(&p, c("notp", vec![Term::Int(7)]), Limits::default()).len(),
        1
    );
    assert_eq!(
        answers(&p, c("notp", vec![Term::Int(1)]), Limits::default()).len(),
        0
    );
    // (p(X) ; X = 9) gives 1, 2, 3, 9
    let r = answers(
        &p,
        c(
            ";",
            vec![c("p", vec![v(0)]), c("=", vec![v(0), Term::Int(9)])],
        ),
        Limits::default(),
    );
    let xs: Vec<Term> = r.into_iter().map(|x| x.unwrap()[0].clone()).collect();
    assert_eq!(
        xs,
        vec![Term::Int(1), Term::Int(2), Term::Int(3), Term::Int(9)]
    );
    // call/1 is opaque to cut: call((p(X), !)) ; X = 9  gives 1, 9
    let g = c(
        ";",
        vec![
            c("call", vec![conj(vec![c("p", vec![v(0)]), a("!")])]),
            c("=", vec![v(0), Term::Int(9)]),
        ],
    );
    let xs: Vec<Term> = answers(&p, g, Limits::default())
        .into_iter()
        .map(|x| x.unwrap()[0].clone())
        .collect();
    assert_eq!(xs, vec![Term::Int(1), Term::Int(9)]);
}

#[test]
fn findall_catch_and_throw() {
    let extra = vec![
        fact(c("p", vec![Term::Int(1)])),
        fact(c("p", vec![Term::Int(2)])),
        rule(
            c("thrower", vec![v(0)]),
            c("throw", vec![c("oops", vec![v(0)])]),
        ),
    ];
    let (p, _) = ProgramBuilder::new()
        .without_prelude()
        .clauses(extra)
        .build();
    let r = answers(
        &p,
        c(
            "findall",
            vec![c("f", vec![v(0), v(1)]), c("p", vec![v(0)]), v(2)],
        ),
        Limits::default(),
    );
    let l = &r[0].as_ref().unwrap()[2];
    let items = l.as_list().unwrap();
    assert_eq!(items.len(), 2);
    // fresh variables per solution
    assert_ne!(items[0].args()[1], items[1].args()[1]);
    // catch(thrower(7), oops(X), true) binds X = 7
    let r = answers(
        &p,
        c(
            "catch",
            vec![
                c("thrower", vec![Term::Int(7)]),
                c("oops", vec![v(0)]),
                a("true"),
            ],
        ),
        Limits::default(),
    );
    assert_eq!(r[0].as_ref().unwrap()[0], Term::Int(7));
    // uncaught
    let r = answers(&p, c("thrower", vec![Term::Int(1)]), Limits::default());
    let e = r[0].as_ref().unwrap_err();
    assert_eq!(e.ball, c("oops", vec![Term::Int(1)]));
    // catch is not active after its goal exited: catch(p(X), _, true), throw(x) is uncaught
    let g = conj(vec![
        c("catch", vec![c("p", vec![v(0)]), v(1), a("true")]),
        c("throw", vec![a("x")]),
    ]);
    let r = answers(&p, g, Limits::default());
    assert_eq!(r[0].as_ref().unwrap_err().ball, a("x"));
    // unknown procedure
    let r = answers(&p, a("nope"), Limits::default());
    let e = r[0].as_ref().unwrap_err();
    assert!(e.message.contains("nope"), "{}", e.message);
    let _ = Atom::new("x");
}

#[test]
fn exploding_findall_hits_a_budget() {
    let extra = vec![
        fact(c("nat", vec![a("z")])),
        rule(c("nat", vec![c("s", vec![v(0)])]), c("nat", vec![v(0)])),
    ];
    let (p, _) = ProgramBuilder::new()
        .without_prelude()
        .clauses(extra)
        .build();
    let limits = Limits {
        max_heap_cells: 1 << 20,
        ..Limits::default()
    };
    let r = answers(
        &p,
        c("findall", vec![v(0), c("nat", vec![v(0)]), v(1)]),
        limits,
    );
    let e = r[0].as_ref().unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Budget(_)), "{e:?}");
}

/// Prints naive-reverse LIPS when run with `--nocapture` in release mode (a probe, not a timed test).
#[test]
fn nrev_runs_repeatedly_in_one_machine() {
    let p = app_prog(vec![]);
    let iterations = if cfg!(debug_assertions) { 20 } else { 20_000 };
    let list = ints(30);
    let mut m = Machine::new(p.clone(), Limits::unlimited());
    let mut host = host::NoHost;
    for _ in 0..iterations {
        m.reset();
        let mut vars = Vec::new();
        let g = m
            .store
            .build(&c("nrev", vec![list.clone(), v(0)]), &mut vars);
        m.start(g);
        assert!(m.solve(false, &mut host).unwrap());
    }
    // 496 logical inferences per nrev of 30 elements, plus the query's own call/1
    assert_eq!(m.inferences, 497);
}

/// A query's goal is meta-called as `call/1` calls it: the first query of a machine takes that
/// general path (the goal's dispatch is not cached yet), the next ones `start`'s direct one. Both
/// give the same answers, count the same inferences and hit each inference budget at the same
/// call (with the same error).
#[test]
fn a_query_run_directly_counts_as_its_call() {
    let src = "p(1). p(2). p(3). q(X) :- p(X), X > 1. r(X) :- q(X), !.";
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let mut host = host::NoHost;
    for goal in ["q", "r"] {
        for max in 0..12 {
            let limits = Limits {
                max_inferences: max,
                ..Limits::default()
            };
            let mut m = Machine::new(p.clone(), limits);
            // (no tables: the first run's would serve the second)
            m.memoize = false;
            let mut runs = Vec::new();
            for _ in 0..2 {
                m.reset();
                let g = m.store.build(&c(goal, vec![v(0)]), &mut Vec::new());
                m.start(g);
                let mut out = Vec::new();
                let mut redo = false;
                loop {
                    match m.solve(redo, &mut host) {
                        Ok(true) => out.push(Ok(m.inferences)),
                        Ok(false) => break,
                        Err(e) => {
                            out.push(Err(format!("{e:?}")));
                            break;
                        }
                    }
                    redo = true;
                }
                runs.push((out, m.inferences));
            }
            assert_eq!(runs[0], runs[1], "{goal} under {max} inferences");
        }
    }
}

fn src_answers(src: &str, goal: &str, limits: Limits) -> Vec<Result<Vec<Term>, SolveError>> {
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    p.solve_all(goal, limits, 100).expect("goal parses")
}

const GC_PROGRAM: &str = "
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
loop(0, _) :- !.
loop(N, L) :- nrev(L, _), N1 is N - 1, loop(N1, L).
keep(0, L, L) :- !.
keep(N, L, Out) :- nrev(L, R), nrev(R, L2), N1 is N - 1, keep(N1, L2, Out).
choice(X) :- member(X, [a, b, c]).
";

#[test]
fn garbage_collection_lets_deterministic_loops_run_in_bounded_heap() {
    // 3,000 naive reverses of 30 elements allocate far more than 2M cells without collection
    let limits = Limits {
        max_heap_cells: 2 << 20,
        max_inferences: u64::MAX,
        ..Limits::default()
    };
    let r = src_answers(
        GC_PROGRAM,
        "numlist(1, 30, L), loop(3000, L), length(L, N)",
        limits,
    );
    assert_eq!(r.len(), 1, "{r:?}");
    let ans = r[0].as_ref().expect("no error");
    assert_eq!(ans[1], Term::Int(30));
    assert_eq!(ans[0], Term::list((1..=30).map(Term::Int).collect()));
}

#[test]
fn garbage_collection_keeps_live_data_and_choicepoints_intact() {
    let limits = Limits {
        max_heap_cells: 2 << 20,
        max_inferences: u64::MAX,
        ..Limits::default()
    };
    // live data threaded through the loop, with a choicepoint below it that is resumed afterwards
    let r = src_answers(
        GC_PROGRAM,
        "choice(X), numlist(1, 25, L), keep(1500, L, Out), msort(Out, S), S == L, findall(Y, choice(Y), Ys)",
        limits,
    );
    let xs: Vec<Term> = r
        .iter()
        .map(|a| a.as_ref().expect("no error")[0].clone())
        .collect();
    assert_eq!(xs, vec![a("a"), a("b"), a("c")]);
    let ys = &r[2].as_ref().unwrap()[5];
    assert_eq!(ys, &Term::list(vec![a("a"), a("b"), a("c")]));
}

/// Cyclic terms (unification has no occurs check) never make a query hang or crash.
#[test]
fn cyclic_terms_terminate_everywhere() {
    let src = "p(a).\ndbl(_, A, f(A, A)).\n";
    let ok = |goal: &str| {
        let r = src_answers(src, goal, Limits::default());
        assert!(!r.is_empty(), "{goal}: no answer");
        r.into_iter().next().expect("answer")
    };
    for goal in [
        "X = f(X), Y = f(Y), X = Y",
        "X = f(X), X == X",
        "X = f(X), Y = f(Y), X == Y",
        "X = f(X), ground(X)",
        "X = f(X), Y = f(Y), compare(O, X, Y), O == (=)",
        "X = f(X), findall(X, true, L), L = [Z], Z = f(_)",
        "X = f(X), copy_term(X, Y), Y = f(_)",
        "X = [a|X], msort([X, X], L)",
        "X = f(X, Y), Y = g(X)",
    ] {
        assert!(ok(goal).is_ok(), "{goal}");
    }
    // answers with cyclic bindings are written finitely
    let a = ok("X = f(X)").expect("answer");
    let text = crate::write::canonical(&a[0]);
    assert!(text.contains("@cycle"), "{text}");
    // arithmetic on a cyclic expression is an error, not a hang
    let e = ok("X = 1 + X, Y is X").expect_err("error");
    assert!(
        e.message.contains("arithmetic_expression_size"),
        "{}",
        e.message
    );
    // exponential sharing stays linear
    assert!(ok(
        "numlist(1, 60, L), foldl(dbl, L, x, T), T = T, copy_term(T, U), T == U, ground(U)"
    )
    .is_ok());
}

#[test]
fn memo_answer_exists_agrees_with_running_the_call() {
    // `memo_answer_exists` (the hook for `\+` on an argument-memo call) answers only for a
    // call whose own flat key is in the table, and then says whether the call has an answer
    let src = "
f(a, 1). f(b, 2). f(b, 3).
g(K, V) :- f(K, V).
";
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let gp = *p.0.by_key.get(&(Atom::new("g"), 2)).expect("g/2");
    assert!(
        p.0.preds[gp as usize].memo,
        "g/2 is memoized by its arguments"
    );
    let mut m = Machine::new(p.clone(), Limits::default());
    let mut host = host::NoHost;
    use super::store::Cell;
    // the call's arguments: the cells after the header of `g(K, V)` built on the heap
    let call = |m: &mut Machine, k: Term, v: Term| {
        let mut vars = Vec::new();
        match m.store.build(&c("g", vec![k, v]), &mut vars) {
            Cell::Struct(s) => s + 1,
            other => panic!("{other:?}"),
        }
    };
    for (k, expect) in [("a", true), ("b", true), ("c", false)] {
        m.reset();
        let args = call(&mut m, a(k), v(0));
        assert_eq!(
            m.memo_answer_exists(&p.0, gp, args, 2),
            None,
            "{k}: not filled"
        );
        // fill the entry by running the call (all answers)
        let mut vars = Vec::new();
        let g = m.store.build(&c("g", vec![a(k), v(0)]), &mut vars);
        m.start(g);
        let mut n = 0;
        let mut redo = false;
        while m.solve(redo, &mut host).unwrap() {
            n += 1;
            redo = true;
        }
        assert_eq!(n > 0, expect, "{k}");
        let args = call(&mut m, a(k), v(0));
        assert_eq!(m.memo_answer_exists(&p.0, gp, args, 2), Some(expect), "{k}");
        // a call with another key (the value bound) is not known yet
        let args = call(&mut m, a(k), Term::Int(9));
        assert_eq!(m.memo_answer_exists(&p.0, gp, args, 2), None, "{k} 9");
        m.memoize = false;
        let args = call(&mut m, a(k), v(0));
        assert_eq!(
            m.memo_answer_exists(&p.0, gp, args, 2),
            None,
            "{k}: memo off"
        );
        m.memoize = true;
    }
}

/// The answers of `goal` (a clause body's goal, on the fast path) and of `meta` (the same goal
/// meta-called: the built-in), asserted equal (answers, and errors by their ball); `goal`'s.
fn fast_goal_as_meta_called(
    src: &str,
    goal: &str,
    meta: &str,
) -> Vec<Result<Vec<Term>, SolveError>> {
    let shown = |r: &Result<Vec<Term>, SolveError>| match r {
        Ok(t) => format!("{t:?}"),
        Err(e) => format!("{:?}", e.ball),
    };
    let fast = src_answers(src, goal, Limits::default());
    let slow = src_answers(src, meta, Limits::default());
    assert_eq!(
        fast.iter().map(shown).collect::<Vec<_>>(),
        slow.iter().map(shown).collect::<Vec<_>>(),
        "{goal} vs {meta}"
    );
    fast
}

#[test]
fn arithmetic_goals_in_clause_bodies_agree_with_the_built_ins() {
    // a clause body's `is/2` and comparisons of integers run from the templates
    // (`Machine::arith_goal`); the same goals meta-called (`*_m`) run the built-ins: same answers,
    // same errors, for integer, overflowing, float, compound, unbound and non-numeric operands
    let src = "
is_e(X, Y, R) :- R is X + Y * 2 - -X.
is_m(X, Y, R) :- G = (R is X + Y * 2 - -X), call(G).
lt(X, Y) :- X < Y.
lt_m(X, Y) :- G = (X < Y), call(G).
gt(X, Y) :- X > Y.
gt_m(X, Y) :- G = (X > Y), call(G).
le(X, Y) :- X =< Y.
le_m(X, Y) :- G = (X =< Y), call(G).
ge(X, Y) :- X >= Y.
ge_m(X, Y) :- G = (X >= Y), call(G).
eq(X, Y) :- X =:= Y + 0.
eq_m(X, Y) :- G = (X =:= Y + 0), call(G).
ne(X, Y) :- X =\\= Y - 0.
ne_m(X, Y) :- G = (X =\\= Y - 0), call(G).
mul(X, Y, R) :- R is X * Y.
mul_m(X, Y, R) :- G = (R is X * Y), call(G).
neg(X, Y) :- -X < Y - 3000000000.
neg_m(X, Y) :- G = (-X < Y - 3000000000), call(G).
";
    let values = [
        "3",
        "-4",
        "9223372036854775807",
        "-9223372036854775808",
        "2.5",
        "1 + 2",
        "a",
        "_",
    ];
    let check = |goal: String, meta: String| fast_goal_as_meta_called(src, &goal, &meta).len();
    let mut answers = 0;
    for x in values {
        for y in values {
            for r in ["R", "3", "12", "3.0", "a"] {
                answers += check(
                    format!("is_e({x}, {y}, {r})"),
                    format!("is_m({x}, {y}, {r})"),
                );
                answers += check(
                    format!("mul({x}, {y}, {r})"),
                    format!("mul_m({x}, {y}, {r})"),
                );
            }
            for name in ["lt", "gt", "le", "ge", "eq", "ne", "neg"] {
                answers += check(format!("{name}({x}, {y})"), format!("{name}_m({x}, {y})"));
            }
        }
    }
    // answers and errors both occur
    assert!(answers > 100, "{answers}");
}

#[test]
fn decoded_arithmetic_goals_agree_with_the_built_ins() {
    // goals with an `ArithCode` (`compile::arith_code`: `mod`, `rem`, `//`, `div`, `min`, `max`,
    // `abs` and nested operations) run it (`Machine::arith_goal`); the same goals meta-called
    // (`*_m`) run the built-ins: same answers, same errors (division by zero, overflow, floats,
    // unbound and non-numeric operands)
    let src = "
md(X, Y, R) :- R is (7 - X) mod Y.
md_m(X, Y, R) :- G = (R is (7 - X) mod Y), call(G).
rm(X, Y, R) :- R is X rem Y + 0.
rm_m(X, Y, R) :- G = (R is X rem Y + 0), call(G).
dv(X, Y, R) :- R is X // Y.
dv_m(X, Y, R) :- G = (R is X // Y), call(G).
fd(X, Y, R) :- R is X div Y.
fd_m(X, Y, R) :- G = (R is X div Y), call(G).
mn(X, Y, R) :- R is min(X, Y) * 1.
mn_m(X, Y, R) :- G = (R is min(X, Y) * 1), call(G).
mx(X, Y, R) :- R is max(X, Y - 1).
mx_m(X, Y, R) :- G = (R is max(X, Y - 1)), call(G).
ab(X, Y, R) :- R is abs(X) - abs(Y).
ab_m(X, Y, R) :- G = (R is abs(X) - abs(Y)), call(G).
ne(X, Y) :- X =\\= (7 - Y) mod 13.
ne_m(X, Y) :- G = (X =\\= (7 - Y) mod 13), call(G).
eq(X, Y) :- X mod 3 =:= -(Y) mod 3.
eq_m(X, Y) :- G = (X mod 3 =:= -(Y) mod 3), call(G).
lt(X, Y) :- max(X, 2) + min(Y, X) * 2 < abs(X - Y) // 2.
lt_m(X, Y) :- G = (max(X, 2) + min(Y, X) * 2 < abs(X - Y) // 2), call(G).
";
    // every goal of the fast predicates has an `ArithCode`
    let (p, _) = Program::from_source(src);
    for name in ["md", "rm", "dv", "fd", "mn", "mx", "ab", "ne", "eq", "lt"] {
        let arity = if matches!(name, "ne" | "eq" | "lt") {
            2
        } else {
            3
        };
        let pred = p.pred(Atom::new(name), arity).expect("pred");
        assert!(pred.clauses[0].body[0].code.is_some(), "{name}");
    }
    let values = [
        "0",
        "3",
        "-4",
        "13",
        "-1",
        "9223372036854775807",
        "-9223372036854775808",
        "2.5",
        "1 + 2",
        "a",
        "_",
    ];
    let check = |goal: String, meta: String| {
        fast_goal_as_meta_called(src, &goal, &meta)
            .iter()
            .filter(|r| r.is_err())
            .count()
    };
    let mut errors = 0;
    for x in values {
        for y in values {
            for name in ["md", "rm", "dv", "fd", "mn", "mx", "ab"] {
                for r in ["R", "3", "-1", "3.0"] {
                    errors += check(
                        format!("{name}({x}, {y}, {r})"),
                        format!("{name}_m({x}, {y}, {r})"),
                    );
                }
            }
            for name in ["ne", "eq", "lt"] {
                errors += check(format!("{name}({x}, {y})"), format!("{name}_m({x}, {y})"));
            }
        }
    }
    // the errors occur too
    assert!(errors > 100, "{errors}");
}

#[test]
fn argument_tables_that_do_not_pay_are_given_up() {
    // keyed by a compound (`f(N)`), so general keys: `g/2`, a new key at each call, never a hit
    // (its table is given up after `ARG_TRIAL` fills and it is called directly); `h/2`, each key
    // called four times in a row (kept); `e/2`, a new key at each call, but a call costs far more
    // than a fill (kept); `a/2`, flat keys (atomic arguments), never a hit (kept)
    let src = "
g(f(N), X) :- X is N * 2.
h(f(N), X) :- X is N * 2, Y is X + 1, Y > 0.
e(f(N), X) :- count(50), X is N + 1275.
count(0) :- !.
count(N) :- N1 is N - 1, count(N1).
a(N, X) :- X is N * 3.
run(S) :-
    numlist(0, 299, L),
    findall(X, (member(N, L), g(f(N), X)), Xs), sum_list(Xs, S1),
    findall(X, (member(N, L), K is N // 4, h(f(K), X)), Ys), sum_list(Ys, S2),
    findall(X, (member(N, L), e(f(N), X)), Zs), sum_list(Zs, S3),
    findall(X, (member(N, L), a(N, X)), Ws), sum_list(Ws, S4),
    S is S1 + S2 + S3 + S4.
";
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let pred = |name: &str| *p.0.by_key.get(&(Atom::new(name), 2)).expect("pred");
    for name in ["g", "h", "e", "a"] {
        assert!(p.0.preds[pred(name) as usize].memo, "{name}/2 is memoized");
    }
    let mut m = Machine::new(p.clone(), Limits::default());
    let mut host = host::NoHost;
    let mut vars = Vec::new();
    let g = m.store.build(&c("run", vec![v(0)]), &mut vars);
    m.start(g);
    assert!(m.solve(false, &mut host).unwrap());
    // the answer of the direct calls
    let s: i64 = (0..300)
        .map(|n| 2 * n + 2 * (n / 4) + 1275 + n + 3 * n)
        .sum();
    assert_eq!(m.store.to_term(vars[0].expect("S")), Term::Int(s));
    for (name, given_up) in [("g", true), ("h", false), ("e", false), ("a", false)] {
        assert_eq!(m.memo_given_up(pred(name)), given_up, "{name}/2");
    }
}

/// The clauses of `CONTROL_PROGRAM`'s `p/2` run their control constructs compiled into the clause
/// (`compile::control_subs`), `m/2` the same constructs as a meta-call of a term: the same answers
/// in the same order, the same inferences counted (`m/2` has two goals more: `=/2` and `call/1`)
/// and, under every inference budget, the same outcome at the same point.
const CONTROL_PROGRAM: &str = "
n(1). n(2). n(3).
p(X, Y) :- ( n(X), X > 1 -> ( n(Y), Y < X ; Y = 0 ) ; \\+ n(X), Y = -1 ; X = 1, true, Y = 9 ), Y >= 0.
p(_, 7).
m(X, Y) :- G = ( n(X), X > 1 -> ( n(Y), Y < X ; Y = 0 ) ; \\+ n(X), Y = -1 ; X = 1, true, Y = 9 ),
    call(G), Y >= 0.
m(_, 7).
q(X, Y) :- ( \\+ n(X) -> Y = out ; X > 2 -> Y = big ; Y = small ).
mq(X, Y) :- G = ( \\+ n(X) -> Y = out ; X > 2 -> Y = big ; Y = small ), call(G).
";

/// Answers (or the error's kind) and the inference count after each, memoization off.
fn counted(p: &Program, goal: &str, limits: Limits) -> Vec<(String, u64)> {
    let mut q = p.query(goal, limits).expect("goal parses");
    q.machine().memoize = false;
    let mut out = Vec::new();
    while let Some(r) = q.next_answer() {
        let stop = r.is_err();
        let shown = match r {
            Ok(a) => format!("{a:?}"),
            Err(e) => format!("{:?}", e.kind),
        };
        out.push((shown, q.inferences()));
        if stop || out.len() > 100 {
            break;
        }
    }
    out
}

#[test]
fn compiled_control_constructs_count_as_their_meta_call() {
    let (p, d) = Program::from_source(CONTROL_PROGRAM);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let compiled = |name: &str| {
        let pr = p.pred(Atom::new(name), 2).expect("predicate");
        pr.clauses[0].body.iter().any(|g| g.sub != u32::MAX)
    };
    assert!(compiled("p") && compiled("q"), "p/2 and q/2 are compiled");
    assert!(!compiled("m") && !compiled("mq"), "m/2 and mq/2 meta-call");
    for (direct, meta) in [
        ("p(X, Y)", "m(X, Y)"),
        ("p(2, Y)", "m(2, Y)"),
        ("p(1, Y)", "m(1, Y)"),
        ("p(5, Y)", "m(5, Y)"),
        ("q(0, Y)", "mq(0, Y)"),
        ("q(3, Y)", "mq(3, Y)"),
        ("q(1, Y)", "mq(1, Y)"),
    ] {
        let a = counted(&p, direct, Limits::default());
        let b = counted(&p, meta, Limits::default());
        assert!(!a.is_empty(), "{direct} has answers");
        let shifted: Vec<(String, u64)> = a.iter().map(|(s, n)| (s.clone(), n + 2)).collect();
        assert_eq!(shifted, b, "{direct} vs {meta}");
        // every inference budget up to the whole run: the same outcome at the same point
        let total = a.last().map(|x| x.1).unwrap_or(0);
        for k in 1..=total + 1 {
            let limits = |n| Limits {
                max_inferences: n,
                ..Limits::default()
            };
            let a: Vec<(String, u64)> = counted(&p, direct, limits(k))
                .into_iter()
                .map(|(s, n)| (s, n + 2))
                .collect();
            assert_eq!(a, counted(&p, meta, limits(k + 2)), "{direct}, budget {k}");
        }
    }
}

/// If-then-elses whose condition is native built-ins or arithmetic run in place
/// (`Machine::if_direct`: no choicepoint, no commit frame); the same constructs meta-called
/// (`call(G)`) take the general path. The same answers in the same order, the same inferences
/// counted (the meta-calls have two goals more: `=/2` and `call/1`) and, under every inference
/// budget, the same outcome at the same point: conditions that bind and then fail (the bindings
/// undone), throw, leave a built-in's other answers (cut), and `C -> T` without an else.
const DIRECT_IF_PROGRAM: &str = "
c1(X, R) :- ( X > 2 -> R = big ; R = small ).
m1(X, R) :- G = ( X > 2 -> R = big ; R = small ), call(G).
c2(X, R) :- ( Y is X * 2, Y > 5 -> R = Y ; R = none(Y) ).
m2(X, R) :- G = ( Y is X * 2, Y > 5 -> R = Y ; R = none(Y) ), call(G).
c3(X, R) :- ( X = f(Y), Y = b, Z = X, Z == f(c) -> R = yes ; R = X ).
m3(X, R) :- G = ( X = f(Y), Y = b, Z = X, Z == f(c) -> R = yes ; R = X ), call(G).
c4(X, R) :- ( memberchk(X, [1, a, f(W)]) -> R = in(X, W) ; R = out(X) ).
m4(X, R) :- G = ( memberchk(X, [1, a, f(W)]) -> R = in(X, W) ; R = out(X) ), call(G).
c5(X, R) :- ( X = 1 -> R = one ), R \\== two.
m5(X, R) :- G = ( X = 1 -> R = one ), call(G), R \\== two.
c6(X, R) :- ( atom_length(X, N), N > 2 -> R = long(N) ; X = [H | _] -> R = head(H) ; R = other(X) ).
m6(X, R) :- G = ( atom_length(X, N), N > 2 -> R = long(N) ; X = [H | _] -> R = head(H) ; R = other(X) ), call(G).
c7(X, R) :- ( between(1, 3, X) -> R = yes(X) ; R = no ), R \\== no(X).
m7(X, R) :- G = ( between(1, 3, X) -> R = yes(X) ; R = no ), call(G), R \\== no(X).
";

#[test]
fn if_then_else_decided_in_place_counts_as_the_general_path() {
    let (p, d) = Program::from_source(DIRECT_IF_PROGRAM);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let args = [
        "1", "3", "a", "abc", "f(b)", "f(c)", "f(Z)", "[a, b]", "[]", "X", "2.5",
    ];
    let mut answers = 0;
    for n in 1..=7 {
        for x in args {
            let direct = format!("c{n}({x}, R)");
            let meta = format!("m{n}({x}, R)");
            let a = counted(&p, &direct, Limits::default());
            let shifted: Vec<(String, u64)> = a.iter().map(|(s, n)| (s.clone(), n + 2)).collect();
            assert_eq!(shifted, counted(&p, &meta, Limits::default()), "{direct}");
            answers += a.len();
            let total = a.last().map(|x| x.1).unwrap_or(0);
            for k in 1..=total + 1 {
                let limits = |n| Limits {
                    max_inferences: n,
                    ..Limits::default()
                };
                let a: Vec<(String, u64)> = counted(&p, &direct, limits(k))
                    .into_iter()
                    .map(|(s, n)| (s, n + 2))
                    .collect();
                assert_eq!(a, counted(&p, &meta, limits(k + 2)), "{direct}, budget {k}");
            }
        }
    }
    assert!(answers > 60, "the goals have answers ({answers})");
}

/// `\+ A = B` is decided in place (`negation::not_direct` calls `=/2` itself); `\+ eq(A, B)`
/// with a user `eq/2` takes the general path (a choicepoint and an exit frame). Both count one
/// inference for the negated goal: the same answers, the same inference counts and, under every
/// inference budget, the same outcome at the same point.
#[test]
fn negated_unification_in_place_counts_as_the_general_path() {
    let src = "
n(1). n(2). n(3).
eq(X, X).
d(X, Y) :- n(X), \\+ X = 2, Y = f(X, _), \\+ Y = f(3, a), \\+ [X, Z] = [Z, 4].
u(X, Y) :- n(X), \\+ eq(X, 2), Y = f(X, _), \\+ eq(Y, f(3, a)), \\+ eq([X, Z], [Z, 4]).
dv(Z) :- \\+ Z = a.
uv(Z) :- \\+ eq(Z, a).
";
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    same_counts_under_every_budget(
        &p,
        &[
            ("d(X, Y)", "u(X, Y)"),
            ("d(1, Y)", "u(1, Y)"),
            ("d(2, Y)", "u(2, Y)"),
            ("dv(Z)", "uv(Z)"),
            ("dv(b)", "uv(b)"),
        ],
        counted,
    );
}

/// Does the first clause of `name/n` hold a goal compiled into it (a control construct's node)?
fn has_compiled_goal(p: &Program, name: &str, n: u32) -> bool {
    let pr = p.pred(Atom::new(name), n).expect("predicate");
    pr.clauses[0].body.iter().any(|g| g.sub != u32::MAX)
}

/// Each `(direct, general)` pair of goals gives the same answers with the same inference counts
/// (as `count` runs them: [`counted`] or [`counted_memo`]), and the same outcome under every
/// inference budget up to the whole run; the number of answers of the direct goals.
fn same_counts_under_every_budget(
    p: &Program,
    pairs: &[(&str, &str)],
    count: fn(&Program, &str, Limits) -> Vec<(String, u64)>,
) -> usize {
    let mut answers = 0;
    for &(direct, general) in pairs {
        let a = count(p, direct, Limits::default());
        assert_eq!(a, count(p, general, Limits::default()), "{direct}");
        answers += a.len();
        let total = a.last().map(|x| x.1).unwrap_or(0);
        for k in 1..=total + 1 {
            let limits = Limits {
                max_inferences: k,
                ..Limits::default()
            };
            assert_eq!(
                count(p, direct, limits),
                count(p, general, limits),
                "{direct}, budget {k}"
            );
        }
    }
    answers
}

/// [`counted`] with memoization on.
fn counted_memo(p: &Program, goal: &str, limits: Limits) -> Vec<(String, u64)> {
    let mut q = p.query(goal, limits).expect("goal parses");
    let mut out = Vec::new();
    while let Some(r) = q.next_answer() {
        let stop = r.is_err();
        let shown = match r {
            Ok(a) => format!("{a:?}"),
            Err(e) => format!("{:?}", e.kind),
        };
        out.push((shown, q.inferences()));
        if stop || out.len() > 100 {
            break;
        }
    }
    out
}

/// `\+ G` written in a clause body with `G` an argument-memo call is compiled into the clause
/// (`compile::control_subs`) and, once `G`'s table entry is in the cache, decided from the
/// clause's environment without building `G` (`Machine::memo_exists_env`); `\+ G` of a goal
/// term in a variable takes the general path (`Machine::negation`). Both count the same
/// inferences: the same answers, the same counts and, under every inference budget, the same
/// outcome at the same point (memoization on, so the tables fill as the calls repeat; `call(T)`
/// keeps `d/1` and the others from being memoized themselves, as `m/1` is not).
#[test]
fn negated_memo_call_from_the_clause_counts_as_the_general_path() {
    let src = "
f(a, 1). f(b, 2). f(b, 3). f(d, 4).
g(K, V) :- f(K, V).
h(K, V, W) :- f(K, V), W = V.
ks([a, b, c, a, c, x, b, a, 7, d, 2.5, \"s\", d]).
d(K) :- ks(L), member(K, L), G = g(K, _), T = true, call(T), \\+ g(K, _).
m(K) :- ks(L), member(K, L), G = g(K, _), T = true, call(T), \\+ G.
d2(K, V) :- ks(L), member(K, L), member(V, [1, 2, 4, Z]), G = h(K, V, V), T = true, call(T), not(h(K, V, V)).
m2(K, V) :- ks(L), member(K, L), member(V, [1, 2, 4, Z]), G = h(K, V, V), T = true, call(T), not(G).
d3(K) :- ks(L), member(K, L), G = g(f(K), 1), T = true, call(T), \\+ g(f(K), 1).
m3(K) :- ks(L), member(K, L), G = g(f(K), 1), T = true, call(T), \\+ G.
";
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    for name in ["g", "h"] {
        let n = if name == "g" { 2 } else { 3 };
        let pr = p.pred(Atom::new(name), n).expect("predicate");
        assert!(pr.memo, "{name} is memoized by its arguments");
    }
    let compiled = |name: &str, n: u32| has_compiled_goal(&p, name, n);
    assert!(
        compiled("d", 1) && compiled("d2", 2),
        "the negations are compiled"
    );
    assert!(
        !compiled("m", 1) && !compiled("m2", 2),
        "the goal terms are not"
    );
    let answers = same_counts_under_every_budget(
        &p,
        &[
            ("d(K)", "m(K)"),
            ("d2(K, V)", "m2(K, V)"),
            ("d3(K)", "m3(K)"),
        ],
        counted_memo,
    );
    assert!(answers > 10, "the goals have answers ({answers})");
}

/// `\+ A = B` written in a clause body with `A` and `B` variables or atomic constants is
/// compiled into the clause (`compile::control_subs`) and decided from the clause's
/// environment without building `A = B` (`Machine::not_eq_env`); `\+ G` of the same goal term
/// in a variable takes the general path (`Machine::negation`). Both count the same inferences:
/// the same answers, the same counts and, under every inference budget, the same outcome at the
/// same point (unbound, repeated and bound variables, atoms, integers, floats, strings; `\+`
/// and `not/1`; a constant on either side; a negation inside an if-then-else).
#[test]
fn negated_unification_from_the_clause_counts_as_the_general_path() {
    let src = "
xs([a, b, 1, 2.5, \"s\", Z, 1.0]).
e(X, Y) :- xs(L), member(X, L), member(Y, [a, 1, W, 2.5, X, \"s\"]), G = (X = Y), T = true, call(T), \\+ X = Y.
n(X, Y) :- xs(L), member(X, L), member(Y, [a, 1, W, 2.5, X, \"s\"]), G = (X = Y), T = true, call(T), \\+ G.
e2(X) :- xs(L), member(X, L), G = (b = X), T = true, call(T), not(b = X), X \\== 1.
n2(X) :- xs(L), member(X, L), G = (b = X), T = true, call(T), not(G), X \\== 1.
e3(X) :- xs(L), member(X, L), G = (X = X), T = true, call(T), \\+ X = X.
n3(X) :- xs(L), member(X, L), G = (X = X), T = true, call(T), \\+ G.
e4(X, R) :- xs(L), member(X, L), G = (X = 2.5), T = true, call(T), ( \\+ X = 2.5 -> R = no ; R = yes ).
n4(X, R) :- xs(L), member(X, L), G = (X = 2.5), T = true, call(T), ( \\+ G -> R = no ; R = yes ).
";
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let compiled = |name: &str, n: u32| has_compiled_goal(&p, name, n);
    assert!(
        compiled("e", 2) && compiled("e2", 1) && compiled("e3", 1),
        "the negations are compiled"
    );
    assert!(
        !compiled("n", 2) && !compiled("n2", 1) && !compiled("n3", 1),
        "the goal terms are not"
    );
    let answers = same_counts_under_every_budget(
        &p,
        &[
            ("e(X, Y)", "n(X, Y)"),
            ("e2(X)", "n2(X)"),
            ("e3(X)", "n3(X)"),
            ("e4(X, R)", "n4(X, R)"),
        ],
        counted_memo,
    );
    assert!(answers > 20, "the goals have answers ({answers})");
}

/// `A = B` inside a control construct compiled into its clause (an if-then-else's condition,
/// its branches, a disjunction's), with `A` and `B` variables or atomic constants, is unified
/// from the clause's environment without building its two argument cells (`Machine::eq_env`);
/// `[A] = [B]` (a compound argument) takes the general path and binds the same. Both count the
/// same inferences: the same answers, the same counts and, under every inference budget, the
/// same outcome at the same point (unbound, repeated and bound variables, atoms, integers,
/// floats, strings, compounds met at run time; a constant on either side).
#[test]
fn unification_in_a_compiled_construct_counts_as_the_general_path() {
    let src = "
xs([a, b, 1, 2.5, \"s\", Z, 1.0, f(Q)]).
e(X, Y, R) :- xs(L), member(X, L), member(Y, [a, 1, W, 2.5, X, \"s\", f(b)]), ( X = Y -> R = yes ; R = no ).
n(X, Y, R) :- xs(L), member(X, L), member(Y, [a, 1, W, 2.5, X, \"s\", f(b)]), ( [X] = [Y] -> [R] = [yes] ; [R] = [no] ).
e2(X, R) :- xs(L), member(X, L), ( X = 1, R = one ; b = X, R = bee ; R = X ).
n2(X, R) :- xs(L), member(X, L), ( [X] = [1], [R] = [one] ; [b] = [X], [R] = [bee] ; [R] = [X] ).
e3(X, Y) :- xs(L), member(X, L), ( true -> X = Y, Y = X, Y = 2.5 ; true ).
n3(X, Y) :- xs(L), member(X, L), ( true -> [X] = [Y], [Y] = [X], [Y] = [2.5] ; true ).
e4(X, R) :- xs(L), member(X, L), ( X = X, R = 1.0 -> true ; R = none ).
n4(X, R) :- xs(L), member(X, L), ( [X] = [X], [R] = [1.0] -> true ; [R] = [none] ).
";
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let answers = same_counts_under_every_budget(
        &p,
        &[
            ("e(X, Y, R)", "n(X, Y, R)"),
            ("e2(X, R)", "n2(X, R)"),
            ("e3(X, Y)", "n3(X, Y)"),
            ("e4(X, R)", "n4(X, R)"),
        ],
        counted_memo,
    );
    assert!(answers > 40, "the goals have answers ({answers})");
}

/// `f(X0, f(X1, ... f(Xn-1, end)))`, its variables numbered from `from`.
fn nested(n: u32, from: u32, leaf: Term) -> Term {
    (0..n)
        .rev()
        .fold(leaf, |acc, i| c("f", vec![v(from + i), acc]))
}

#[test]
fn nested_head_compounds_unify_past_the_recursion_bound() {
    // nest(f(X0, f(X1, ...)), [X0, ..., X39], X0): 40 levels, deeper than the machine's direct
    // recursion into head compounds (the rest on its work stack)
    let n = 40;
    let head = c(
        "nest",
        vec![
            nested(n, 0, a("end")),
            Term::list((0..n).map(v).collect()),
            v(0),
        ],
    );
    let p = app_prog(vec![fact(head)]);
    let ground = |leaf: Term| {
        (0..n as i64)
            .rev()
            .fold(leaf, |acc, i| c("f", vec![Term::Int(i), acc]))
    };
    // read mode: every level's variable bound from the call
    let r = answers(
        &p,
        c("nest", vec![ground(a("end")), v(0), v(1)]),
        Limits::default(),
    );
    assert_eq!(r.len(), 1);
    let ans = r[0].as_ref().unwrap();
    assert_eq!(ans[0], Term::list((0..n as i64).map(Term::Int).collect()));
    assert_eq!(ans[1], Term::Int(0));
    // a mismatch at the deepest level fails
    let r = answers(
        &p,
        c("nest", vec![ground(a("other")), v(0), v(1)]),
        Limits::default(),
    );
    assert!(r.is_empty());
    // write mode: the compound built from the clause, its variables those of the list
    let r = answers(
        &p,
        c(
            "nest",
            vec![
                v(0),
                Term::list((0..n as i64).map(Term::Int).collect()),
                v(1),
            ],
        ),
        Limits::default(),
    );
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].as_ref().unwrap()[0], ground(a("end")));
    // mixed: an unbound subterm half-way down is built, the variables above it shared
    let half = (0..20i64)
        .rev()
        .fold(v(0), |acc, i| c("f", vec![Term::Int(i), acc]));
    let r = answers(&p, c("nest", vec![half, v(1), v(2)]), Limits::default());
    assert_eq!(r.len(), 1);
    let ans = r[0].as_ref().unwrap();
    // V0: the 20 levels below, built by the clause
    let (mut t, mut depth) = (&ans[0], 0);
    while let Term::Compound(_, args) = t {
        assert!(matches!(args[0], Term::Var(_)), "{:?}", ans[0]);
        t = &args[1];
        depth += 1;
    }
    assert_eq!((depth, t), (20, &a("end")));
    let mut items = Vec::new();
    let mut l = &ans[1];
    while let Term::Compound(_, args) = l {
        items.push(args[0].clone());
        l = &args[1];
    }
    assert_eq!(items.len(), n as usize);
    assert_eq!(
        items[..20],
        (0..20i64).map(Term::Int).collect::<Vec<_>>()[..]
    );
    assert_eq!(ans[2], Term::Int(0));
}

const LEAD_PROGRAM: &str = "
r(X, X, b).
r(a, Y, Y).
r(f(b), [1, c], c).
r(1, 2, 3).
p1(A, B, c, D) :- r(A, B, D).
p1(_, X, Y, _) :- r(X, Y, X).
p2(A, A, B, C) :- r(B, C, A).
p2(B, A, f(C), D) :- r(A, B, D), C = b.
p3(_, _, A, B) :- r(B, A, _).
p3(a, X, _, Y) :- r(X, Y, Y).
p4(A, B, C, D) :- r(D, C, B), A = D.
p4([H|_], X, b, T) :- r(X, H, T).
p6(A, B, C, D, E, F) :- r(F, E, D), r(C, B, A).
p6(_, B, _, D, _, F) :- r(B, D, F).
";

/// [`ClauseT::lead`]: the leading first occurrences copied in one loop give the answers of the
/// head's general loop (every clause's lead switched off), on heads with void, repeated,
/// constant and compound arguments, calls with unbound, shared, atomic and compound arguments,
/// and a head with more leading first occurrences than the lead holds.
#[test]
fn leading_head_variables_agree_with_the_general_head_loop() {
    // two programs with the prelude built in a debug build: more stack than a test thread's
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(lead_agrees)
        .expect("a thread")
        .join()
        .expect("no panic");
}

/// [`LEAD_PROGRAM`] and `q(V2, V0, V1, V3) :- r(V0, V1, V2)` (its head's slots out of argument
/// order, as the parser never numbers them).
fn lead_program() -> Program {
    let parsed = crate::syntax::parse_file(LEAD_PROGRAM);
    let clauses = parsed.clauses.into_iter().map(|c| SourceClause {
        term: c.term,
        span: c.span,
        var_names: c.var_names.into(),
    });
    let q = rule(
        c("q", vec![v(2), v(0), v(1), v(3)]),
        c("r", vec![v(0), v(1), v(2)]),
    );
    let (p, d) = ProgramBuilder::new()
        .clauses(clauses)
        .clauses(vec![q])
        .build();
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    p
}

fn lead_agrees() {
    let fast = lead_program();
    let mut general = lead_program();
    let data = std::sync::Arc::get_mut(&mut general.0).expect("a new program");
    let mut leads = 0;
    for p in data.preds.iter_mut() {
        for c in p.clauses.iter_mut() {
            leads += c.lead_n;
            c.lead = 0;
            c.lead_n = 0;
            c.lead_end = 0;
        }
    }
    assert!(leads > 10, "the program's heads have leads ({leads})");
    let p6 = fast.pred(crate::atom::Atom::new("p6"), 6).expect("p6/6");
    assert_eq!(
        (p6.clauses[0].lead_n, p6.clauses[0].lead_end),
        (crate::solve::program::LEAD_MAX as u32, 4)
    );
    // (compound arguments ground: a shared variable in one could make a cyclic answer)
    let args = [
        "X", "Y", "X", "_", "a", "b", "1", "f(b)", "[1, 2]", "[1, c]", "c",
    ];
    let mut seed = 1u64;
    let mut pick = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        args[(seed >> 33) as usize % args.len()]
    };
    for (name, arity) in [
        ("p1", 4),
        ("p2", 4),
        ("p3", 4),
        ("p4", 4),
        ("p6", 6),
        ("q", 4),
    ] {
        for _ in 0..300 {
            let a: Vec<&str> = (0..arity).map(|_| pick()).collect();
            let goal = format!("{name}({})", a.join(", "));
            let limits = Limits::default();
            let want = general.solve_all(&goal, limits, 100).expect("goal parses");
            let got = fast.solve_all(&goal, limits, 100).expect("goal parses");
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{goal}");
        }
    }
}

const FLAT_PROGRAM: &str = "
r(X, X, b).
r(a, Y, Y).
r(g(a, b), 1, c).
r(1, 2, 3).
f1(g(A, B), C) :- r(A, B, C).
f1(g(a, B), B) :- r(B, B, _).
f1(h(_), c).
f2(X, g(X, b, Y), Y).
f2(h(A), g(A, A, 1), A).
f2(_, g(1.5, \"s\", A), h(A)).
f3(A, h(A), g(B, B, c)) :- r(A, B, _).
f3(g(A, B), h(C), g(C, B, A)).
f3(1, h(2.5), g(_, _, _)).
f4(A, B, h(A), g(B, 1, X), X) :- r(A, B, X).
f4(_, _, h(\"s\"), g(a, _, b), h(b)).
";

/// [`ClauseT::flat`]: head compounds whose arguments are variables and constants, unified by
/// `Machine::unify_head_flat`, give the answers of the general template walk (every clause's
/// `flat` cleared), in read mode (the call's argument a compound of the same or another functor,
/// or another constant) and write mode (unbound), with first and later occurrences inside the
/// compound, variables shared with the other arguments, and integer, float, string and atom
/// constants.
#[test]
fn flat_head_compounds_agree_with_the_general_head_walk() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(flat_agrees)
        .expect("a thread")
        .join()
        .expect("no panic");
}

fn flat_program() -> Program {
    let (p, d) = Program::from_source(FLAT_PROGRAM);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    p
}

fn flat_agrees() {
    let fast = flat_program();
    let mut general = flat_program();
    let data = std::sync::Arc::get_mut(&mut general.0).expect("a new program");
    let mut flats = 0;
    for p in data.preds.iter_mut() {
        for c in p.clauses.iter_mut() {
            flats += c.flat.count_ones();
            c.flat = 0;
        }
    }
    assert!(
        flats >= 14,
        "the program's heads have flat compounds ({flats})"
    );
    // (the call's variables distinct: a variable shared by two arguments could make a cyclic
    // answer)
    let args = [
        "_",
        "a",
        "b",
        "1",
        "2.5",
        "\"s\"",
        "g(a, b)",
        "g(a, a)",
        "g(1, b, c)",
        "g(a, b, 1)",
        "g(1.5, \"s\", 2)",
        "g(1.5, \"s\", h(b))",
        "g(a, a, c)",
        "h(a)",
        "h(1)",
        "h(2.5)",
        "h(\"s\")",
        "h(b)",
        "f(b)",
        "[1, c]",
    ];
    let mut seed = 7u64;
    let mut pick = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let mut answered = 0;
    for (name, arity) in [("f1", 2), ("f2", 3), ("f3", 3), ("f4", 5)] {
        for _ in 0..400 {
            let a: Vec<String> = (0..arity)
                .map(|i| match pick() % (args.len() + 2) {
                    k if k < args.len() => args[k].to_string(),
                    _ => format!("V{i}"),
                })
                .collect();
            let goal = format!("{name}({})", a.join(", "));
            let limits = Limits::default();
            let want = general.solve_all(&goal, limits, 100).expect("goal parses");
            let got = fast.solve_all(&goal, limits, 100).expect("goal parses");
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{goal}");
            answered += usize::from(!want.is_empty());
        }
    }
    assert!(answered > 100, "enough calls succeed ({answered})");
}
