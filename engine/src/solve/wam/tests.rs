//! Unit tests of the compiled core (the differential tests are `tests/it/wam.rs`).

use super::*;
use crate::solve::Program;

fn answers(src: &str, goal: &str) -> (Vec<String>, u64) {
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let mut q = CoreQuery::parse(&p, goal, Limits::default()).expect("in the subset");
    let names = q.var_names().to_vec();
    let mut out = Vec::new();
    while let Some(a) = q.next_answer() {
        let a = a.expect("no error");
        out.push(crate::solve::query::answer_text(&names, &a));
    }
    (out, q.inferences)
}

#[test]
fn naive_reverse() {
    let src = "app([], L, L).\napp([H|T], L, [H|R]) :- app(T, L, R).\n\
               nrev([], []).\nnrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).\n";
    let (a, n) = answers(src, "nrev([1,2,3,4], R)");
    assert_eq!(a, vec!["R = [4,3,2,1]."]);
    // call/1, nrev 5 times, app 1+2+3+4 times
    assert_eq!(n, 1 + 5 + 10);
}

/// A program with host predicate `h/1` (the game manager's kind).
fn with_host(src: &str) -> Program {
    let parsed = crate::syntax::parse_file(src);
    let clauses = parsed
        .clauses
        .into_iter()
        .map(|c| crate::solve::compile::SourceClause {
            term: c.term,
            span: c.span,
            var_names: c.var_names.into(),
        });
    let (p, d) = crate::solve::build::ProgramBuilder::new()
        .host_predicates(&[(crate::atom::Atom::new("h"), 1)])
        .clauses(clauses)
        .build();
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    p
}

#[test]
fn outside_the_subset_is_refused() {
    // a host predicate written in a clause compiles (`host.rs`: run with a `Host`)
    let p = with_host("p(X) :- h(X).\nq(G) :- call(G).\n");
    assert!(CoreQuery::parse(&p, "p(L)", Limits::default()).is_ok());
    // at run time: a meta-call that reaches it is refused
    let mut q = CoreQuery::parse(&p, "q(h(1))", Limits::default()).expect("compiled");
    let e = q.next_answer().expect("an error").expect_err("refused");
    assert!(e.message.contains("host predicate h/1"), "{}", e.message);
    assert_eq!(q.refused(), Some("the host predicate h/1"));
}

#[test]
fn meta_calls() {
    let src = "c(1).\nc(2).\nc(3).\nadd(X, Y, Z) :- Z is X + Y.\n";
    // call/1 of the query, call/3, add/3, is/2
    assert_eq!(
        answers(src, "call(add(1), 2, Z)"),
        (vec!["Z = 3.".into()], 4)
    );
    let (a, _) = answers(src, "findall(X, c(X), L), catch(throw(L), B, true)");
    assert_eq!(a, vec!["X = _G0, L = [1,2,3], B = [1,2,3]."]);
    let (a, _) = answers(src, "(c(X) *-> true ; X = 0)");
    assert_eq!(a.len(), 3);
}
