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

#[test]
fn outside_the_subset_is_refused() {
    let (p, _) = Program::from_source("p(X) :- (q(X) *-> true ; true).\nq(1).\n");
    let e = CoreQuery::parse(&p, "p(L)", Limits::default())
        .err()
        .expect("refused");
    assert!(e.contains("p/1"), "{e}");
}
