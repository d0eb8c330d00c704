//! Unit tests of native built-ins that SWI-Prolog does not have (SIDL's library) or whose behaviour
//! cannot be compared through the differential test (determinism, cyclic terms, deep terms).
//!
//! Checks docs/semantics.md §8.2, §8.4.

use sidl_engine::atom::Atom;
use sidl_engine::rng::Rng;
use sidl_engine::solve::builtins::{lookup, Ctx, Det};
use sidl_engine::solve::store::{Cell, Store};
use sidl_engine::term::Term;
use sidl_engine::write::canonical;

fn a(s: &str) -> Term {
    Term::atom(s)
}
fn c(f: &str, args: Vec<Term>) -> Term {
    Term::compound(f, args)
}

/// All solutions of `name(args)` as the canonical text of `args` per solution, or the error.
fn solutions(name: &str, args: Vec<Term>) -> Result<Vec<String>, Term> {
    let mut store = Store::new();
    let mut rng = Rng::new(1);
    let goal = c(name, args);
    let g = store.build(&goal, &mut Vec::new());
    let arity = args_len(&goal);
    let cells: Vec<Cell> = (0..arity).map(|i| store.arg(g, i)).collect();
    let f = lookup(Atom::new(name), arity).expect("built-in");
    let mut out = Vec::new();
    let mut redo = None;
    loop {
        let tl = store.trail.len();
        store.mark = store.len();
        let r = f(&mut Ctx::new(&mut store, &mut rng), &cells, redo)?;
        if r == Det::Fail {
            return Ok(out);
        }
        let list = store.make_list(&cells, Cell::Atom(sidl_engine::atom::NIL));
        out.push(canonical(&store.to_term(list)));
        store.undo_to(tl, |_| {});
        match r {
            Det::Retry(s) => redo = Some(s),
            _ => return Ok(out),
        }
        assert!(out.len() < 10_000, "runaway");
    }
}

fn args_len(t: &Term) -> u32 {
    t.args().len() as u32
}

fn ints(v: &[i64]) -> Term {
    Term::list(v.iter().map(|&i| Term::Int(i)).collect())
}

#[test]
fn maxmember_minmember_list_first_arithmetic() {
    let l = Term::list(vec![
        Term::Int(3),
        Term::Float(7.5),
        c("+", vec![Term::Int(4), Term::Int(4)]),
        Term::Int(8),
    ]);
    assert_eq!(
        solutions("maxmember", vec![l.clone(), Term::Var(0)]).unwrap(),
        ["[[3,7.5,+(4,4),8],+(4,4)]"]
    );
    assert_eq!(
        solutions("minmember", vec![l, Term::Var(0)]).unwrap(),
        ["[[3,7.5,+(4,4),8],3]"]
    );
    assert!(solutions("maxmember", vec![Term::nil(), Term::Var(0)])
        .unwrap()
        .is_empty());
    assert!(solutions("maxmember", vec![Term::list(vec![a("x")]), Term::Var(0)]).is_err());
    assert!(solutions("maxmember", vec![Term::Var(1), Term::Var(0)]).is_err());
}

#[test]
fn getsubset_enumeration_order() {
    let set = Term::list(vec![a("a"), a("b"), a("c")]);
    let subs: Vec<String> = solutions("getsubset", vec![Term::Var(0), set])
        .unwrap()
        .into_iter()
        .map(|s| {
            s.strip_prefix('[')
                .unwrap_or("")
                .split(",[a,b,c]")
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(
        subs,
        ["[]", "[a]", "[b]", "[c]", "[a,b]", "[a,c]", "[b,c]", "[a,b,c]"]
    );
    // colexicographic within a size: {0,1} {0,2} {1,2} {0,3} ...
    let four = solutions("getsubset", vec![Term::Var(0), ints(&[0, 1, 2, 3])]).unwrap();
    assert_eq!(four.len(), 16);
    assert_eq!(
        &four[5..11],
        [
            "[[0,1],[0,1,2,3]]",
            "[[0,2],[0,1,2,3]]",
            "[[1,2],[0,1,2,3]]",
            "[[0,3],[0,1,2,3]]",
            "[[1,3],[0,1,2,3]]",
            "[[2,3],[0,1,2,3]]"
        ]
    );
    // a bound subset is checked
    assert_eq!(
        solutions("getsubset", vec![ints(&[1, 3]), ints(&[1, 2, 3])])
            .unwrap()
            .len(),
        1
    );
    assert!(
        solutions("getsubset", vec![ints(&[3, 1]), ints(&[1, 2, 3])])
            .unwrap()
            .is_empty()
    );
    // 31 non-empty subsets of 5 elements (muddy children)
    assert_eq!(
        solutions("getsubset", vec![Term::Var(0), ints(&[1, 2, 3, 4, 5])])
            .unwrap()
            .len(),
        32
    );
    assert!(solutions("getsubset", vec![Term::Var(0), Term::Var(1)]).is_err());
}

#[test]
fn between_is_deterministic_on_the_last_solution() {
    let mut store = Store::new();
    let mut rng = Rng::new(0);
    let x = store.new_var();
    let f = lookup(Atom::new("between"), 3).unwrap();
    let args = [Cell::Int(1), Cell::Int(2), x];
    store.mark = store.len();
    let r1 = f(&mut Ctx::new(&mut store, &mut rng), &args, None).unwrap();
    assert_eq!(r1, Det::Retry(2));
    store.undo_to(0, |_| {});
    let r2 = f(&mut Ctx::new(&mut store, &mut rng), &args, Some(2)).unwrap();
    assert_eq!(r2, Det::True);
    let inf = [Cell::Int(i64::MAX - 1), Cell::Atom(Atom::new("inf")), x];
    store.undo_to(0, |_| {});
    assert_eq!(
        f(&mut Ctx::new(&mut store, &mut rng), &inf, None).unwrap(),
        Det::Retry(i64::MAX as u64)
    );
}

#[test]
fn length_generates_lists() {
    let mut store = Store::new();
    let mut rng = Rng::new(0);
    let l = store.new_var();
    let n = store.new_var();
    let f = lookup(Atom::new("length"), 2).unwrap();
    let mut redo = None;
    for k in 0..5 {
        store.mark = store.len();
        let tl = store.trail.len();
        let r = f(&mut Ctx::new(&mut store, &mut rng), &[l, n], redo).unwrap();
        assert_eq!(store.deref(n), Cell::Int(k));
        assert_eq!(store.list_items(l).map(|v| v.len()), Ok(k as usize));
        store.undo_to(tl, |_| {});
        let Det::Retry(s) = r else {
            panic!("length/2 must be nondeterministic")
        };
        redo = Some(s);
    }
}

#[test]
fn cyclic_lists_do_not_hang() {
    let mut store = Store::new();
    let mut rng = Rng::new(0);
    let x = store.new_var();
    let cyc = store.make_list_cell(Cell::Atom(Atom::new("a")), x);
    assert!(store.unify(x, cyc));
    let mut call = |name: &str, args: &[Cell]| {
        let f = lookup(Atom::new(name), args.len() as u32).unwrap();
        f(&mut Ctx::new(&mut store, &mut rng), args, None)
    };
    assert_eq!(call("is_list", &[cyc]).unwrap(), Det::Fail);
    assert!(call("msort", &[cyc, Cell::Atom(Atom::new("x"))]).is_err());
    assert!(call("sum_list", &[cyc, Cell::Atom(Atom::new("x"))]).is_err());
    assert_eq!(
        call("memberchk", &[Cell::Atom(Atom::new("b")), cyc]).unwrap(),
        Det::Fail
    );
    assert_eq!(
        call("memberchk", &[Cell::Atom(Atom::new("a")), cyc]).unwrap(),
        Det::True
    );
    let e = call("atom_length", &[cyc, Cell::Atom(Atom::new("n"))]).unwrap_err();
    let text = canonical(&e);
    assert!(
        text.starts_with("error(type_error(text,[a,a,a,"),
        "{}",
        &text[..text.len().min(80)]
    );
}

#[test]
fn cyclic_terms_copy_and_variables() {
    let mut store = Store::new();
    let mut rng = Rng::new(0);
    let x = store.new_var();
    let y = store.new_var();
    let f = store.make_compound(Atom::new("f"), &[x, y]);
    assert!(store.unify(x, f));
    let out = store.new_var();
    let tv = lookup(Atom::new("term_variables"), 2).unwrap();
    assert_eq!(
        tv(&mut Ctx::new(&mut store, &mut rng), &[x, out], None).unwrap(),
        Det::True
    );
    assert_eq!(store.list_items(out).unwrap().len(), 1);
    let out2 = store.new_var();
    let ct = lookup(Atom::new("copy_term"), 2).unwrap();
    assert_eq!(
        ct(&mut Ctx::new(&mut store, &mut rng), &[x, out2], None).unwrap(),
        Det::True
    );
    let z = store.new_var();
    let g = store.make_compound(Atom::new("g"), &[z]);
    let uo = lookup(Atom::new("unify_with_occurs_check"), 2).unwrap();
    assert_eq!(
        uo(&mut Ctx::new(&mut store, &mut rng), &[z, g], None).unwrap(),
        Det::Fail
    );
    assert!(store.is_var(z));
}

#[test]
fn deep_terms_in_builtins() {
    let mut store = Store::new();
    let mut rng = Rng::new(0);
    let list = Term::list((0..1_000_000).map(Term::Int).collect());
    let l = store.build(&list, &mut Vec::new());
    let n = store.new_var();
    let call = |store: &mut Store, rng: &mut Rng, name: &str, args: &[Cell]| {
        let f = lookup(Atom::new(name), args.len() as u32).unwrap();
        f(&mut Ctx::new(store, rng), args, None).unwrap()
    };
    assert_eq!(call(&mut store, &mut rng, "length", &[l, n]), Det::True);
    assert_eq!(store.deref(n), Cell::Int(1_000_000));
    let s = store.new_var();
    assert_eq!(call(&mut store, &mut rng, "sum_list", &[l, s]), Det::True);
    assert_eq!(store.deref(s), Cell::Int(499_999_500_000));
    let sorted = store.new_var();
    assert_eq!(call(&mut store, &mut rng, "msort", &[l, sorted]), Det::True);
    let copy = store.new_var();
    assert_eq!(
        call(&mut store, &mut rng, "copy_term", &[l, copy]),
        Det::True
    );
    let mut t = a("x");
    for _ in 0..100_000 {
        t = c("f", vec![t]);
    }
    let d = store.build(&t, &mut Vec::new());
    let vars = store.new_var();
    assert_eq!(
        call(&mut store, &mut rng, "term_variables", &[d, vars]),
        Det::True
    );
    assert_eq!(call(&mut store, &mut rng, "ground", &[d]), Det::True);
    let e = store.new_var();
    let r = lookup(Atom::new("is"), 2).unwrap()(&mut Ctx::new(&mut store, &mut rng), &[e, d], None);
    assert!(r.is_err());
}

#[test]
fn random_uses_the_game_rng() {
    let draw = |seed| {
        let mut store = Store::new();
        let mut rng = Rng::new(seed);
        let t = c("random", vec![Term::Int(1000)]);
        let e = store.build(&t, &mut Vec::new());
        let x = store.new_var();
        let f = lookup(Atom::new("is"), 2).unwrap();
        assert_eq!(
            f(&mut Ctx::new(&mut store, &mut rng), &[x, e], None).unwrap(),
            Det::True
        );
        store.deref(x)
    };
    assert_eq!(draw(7), draw(7));
    assert_eq!(draw(7), Cell::Int(Rng::new(7).below(1000) as i64));
}
