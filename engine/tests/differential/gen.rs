//! Random queries for the differential tests, generated with proptest strategies from a fixed seed (so
//! every run and CI see the same cases) and checked in one batch against SWI-Prolog.
//!
//! Families: arithmetic expressions, standard order / sorting of ground terms, unification problems
//! (acyclic by construction: filtered with an occurs-check unifier), list predicates, bagof/setof/
//! aggregate_all over random pair lists, and atom predicates. Values stay small so that 64-bit integers
//! never overflow and no answer is huge.

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// The number of generated queries per run.
pub const CASES: usize = 300;
/// The fixed seed (change it to explore; CI keeps it).
pub const SEED: [u8; 32] = *b"sidl-differential-proptest-seed!";

/// `CASES` query lines (without programs), deterministic for a given seed.
pub fn generate() -> Vec<String> {
    generate_with(SEED, CASES)
}

pub fn generate_with(seed: [u8; 32], n: usize) -> Vec<String> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
    );
    let strategy = query();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let q = strategy
            .new_tree(&mut runner)
            .expect("generate a query")
            .current();
        if let Some(q) = q {
            out.push(q);
        }
    }
    out
}

/// A query line, or `None` for a rejected candidate (a cyclic unification problem).
fn query() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        arith_query().prop_map(Some),
        order_query().prop_map(Some),
        unify_query(),
        list_query().prop_map(Some),
        bag_query().prop_map(Some),
        atom_query().prop_map(Some),
    ]
}

// ---------------------------------------------------------------------------------------------------
// Arithmetic

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (-30i64..=30).prop_map(|n| if n < 0 { format!("({n})") } else { n.to_string() }),
        1 => prop::sample::select(vec!["0.5", "1.5", "2.0", "0.1", "3.25", "(-2.5)", "1.0e3", "pi"]).prop_map(String::from),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(3, 16, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "//", "mod", "rem", "min", "max"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| match op {
                    "min" | "max" => format!("{op}({a}, {b})"),
                    _ => format!("({a} {op} {b})"),
                }),
            (
                prop::sample::select(vec![
                    "abs", "sign", "-", "float", "integer", "truncate", "floor", "ceiling", "round"
                ]),
                inner.clone()
            )
                .prop_map(|(f, a)| if f == "-" {
                    format!("-({a})")
                } else {
                    format!("{f}({a})")
                }),
            (leaf(), 0u32..4, prop::sample::select(vec!["^", "**"]))
                .prop_map(|(a, n, op)| format!("({a} {op} {n})")),
            (
                (-40i64..40),
                0u32..6,
                prop::sample::select(vec!["<<", ">>", "/\\", "\\/", "xor"])
            )
                .prop_map(|(a, n, op)| format!("(({a}) {op} {n})")),
        ]
    })
}

fn arith_query() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => expr().prop_map(|e| format!("X is {e}.")),
        1 => (expr(), prop::sample::select(vec!["<", ">", "=<", ">=", "=:=", "=\\="]), expr())
            .prop_map(|(a, op, b)| format!("{a} {op} {b}.")),
    ]
}

// ---------------------------------------------------------------------------------------------------
// Ground terms and the standard order

fn ground_term() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec!["a", "b", "'B'", "[]", "foo", "'hello world'", "z"])
            .prop_map(String::from),
        (-5i64..5).prop_map(|n| n.to_string()),
        prop::sample::select(vec!["1.0", "-0.5", "2.5", "0.0", "3.0"]).prop_map(String::from),
        prop::sample::select(vec!["\"s\"", "\"abc\"", "\"\""]).prop_map(String::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            (
                prop::sample::select(vec!["f", "g", "a"]),
                prop::collection::vec(inner.clone(), 1..3)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
            prop::collection::vec(inner, 0..3).prop_map(|xs| format!("[{}]", xs.join(", "))),
        ]
    })
}

fn order_query() -> impl Strategy<Value = String> {
    let list =
        || prop::collection::vec(ground_term(), 0..6).prop_map(|xs| format!("[{}]", xs.join(", ")));
    let pairs = prop::collection::vec((ground_term(), 0..4u8), 0..5).prop_map(|xs| {
        format!(
            "[{}]",
            xs.iter()
                .map(|(k, v)| format!("{k}-{v}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    let keyed = prop::collection::vec((0..3u8, ground_term()), 0..5).prop_map(|xs| {
        format!(
            "[{}]",
            xs.iter()
                .map(|(k, v)| format!("p({k}, {v})"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    prop_oneof![
        list().prop_map(|l| format!("msort({l}, S).")),
        list().prop_map(|l| format!("sort({l}, S).")),
        (list(), prop::sample::select(vec!["@<", "@>", "@=<", "@>="]))
            .prop_map(|(l, o)| format!("sort(0, {o}, {l}, S).")),
        (
            keyed,
            1..3u8,
            prop::sample::select(vec!["@<", "@>", "@=<", "@>="])
        )
            .prop_map(|(l, k, o)| format!("sort({k}, {o}, {l}, S).")),
        list().prop_map(|l| format!("predsort(compare, {l}, S).")),
        pairs.prop_map(|p| format!("keysort({p}, S).")),
        (ground_term(), ground_term()).prop_map(|(a, b)| format!("compare(O, {a}, {b}).")),
        (
            ground_term(),
            prop::sample::select(vec!["@<", "@>", "==", "\\==", "@=<"]),
            ground_term()
        )
            .prop_map(|(a, o, b)| format!("{a} {o} {b}.")),
        list().prop_map(|l| format!("max_member(M, {l}).")),
        list().prop_map(|l| format!("min_member(M, {l}).")),
    ]
}

// ---------------------------------------------------------------------------------------------------
// Unification

#[derive(Clone, Debug)]
enum T {
    Var(u8),
    Atom(&'static str),
    Int(i64),
    Comp(&'static str, Vec<T>),
}

const VARS: [&str; 3] = ["X", "Y", "Z"];

impl T {
    fn render(&self) -> String {
        match self {
            T::Var(v) => VARS[*v as usize].to_string(),
            T::Atom(a) => a.to_string(),
            T::Int(n) => n.to_string(),
            T::Comp(f, args) => format!(
                "{f}({})",
                args.iter().map(T::render).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

fn uterm() -> impl Strategy<Value = T> {
    let leaf = prop_oneof![
        3 => (0u8..3).prop_map(T::Var),
        2 => prop::sample::select(vec!["a", "b"]).prop_map(T::Atom),
        1 => (0i64..3).prop_map(T::Int),
    ];
    leaf.prop_recursive(3, 10, 3, |inner| {
        (
            prop::sample::select(vec!["f", "g", "h"]),
            prop::collection::vec(inner, 1..4),
        )
            .prop_map(|(f, a)| T::Comp(f, a))
    })
}

/// Bindings of an occurs-check unifier.
type Subst = [Option<T>; 3];

fn walk<'a>(t: &'a T, s: &'a Subst) -> &'a T {
    let mut t = t;
    while let T::Var(v) = t {
        match &s[*v as usize] {
            Some(b) => t = b,
            None => break,
        }
    }
    t
}

fn occurs(v: u8, t: &T, s: &Subst) -> bool {
    match walk(t, s) {
        T::Var(w) => *w == v,
        T::Comp(_, args) => args.iter().any(|a| occurs(v, a, s)),
        _ => false,
    }
}

/// `Some(true)` if unifiable, `Some(false)` if not, `None` if unification needs a cyclic term.
fn unify(a: &T, b: &T, s: &mut Subst) -> Option<bool> {
    let (a, b) = (walk(a, s).clone(), walk(b, s).clone());
    match (&a, &b) {
        (T::Var(x), T::Var(y)) if x == y => Some(true),
        (T::Var(x), t) | (t, T::Var(x)) => {
            if occurs(*x, t, s) {
                return None;
            }
            s[*x as usize] = Some(t.clone());
            Some(true)
        }
        (T::Atom(x), T::Atom(y)) => Some(x == y),
        (T::Int(x), T::Int(y)) => Some(x == y),
        (T::Comp(f, xs), T::Comp(g, ys)) => {
            if f != g || xs.len() != ys.len() {
                return Some(false);
            }
            for (x, y) in xs.iter().zip(ys) {
                if !unify(x, y, s)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        _ => Some(false),
    }
}

fn unify_query() -> impl Strategy<Value = Option<String>> {
    (
        uterm(),
        uterm(),
        prop::sample::select(vec!["=", "\\=", "==", "\\==", "copy"]),
    )
        .prop_map(|(a, b, op)| {
            let mut s: Subst = [None, None, None];
            // Reject problems whose unification would build a cyclic term (SWI and we differ there and
            // printing the answer would not terminate); an occurs-check failure inside \= is the same.
            unify(&a, &b, &mut s)?;
            let (a, b) = (a.render(), b.render());
            Some(match op {
                "copy" => format!("copy_term({a}, C), C = {b}."),
                _ => format!("{a} {op} {b}."),
            })
        })
}

// ---------------------------------------------------------------------------------------------------
// Lists

fn small_list(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(0u8..5, 0..=max).prop_map(|xs| {
        format!(
            "[{}]",
            xs.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
        )
    })
}

fn list_query() -> impl Strategy<Value = String> {
    let l = || small_list(5);
    prop_oneof![
        l().prop_map(|l| format!("append(X, Y, {l}).")),
        (l(), l()).prop_map(|(a, b)| format!("append({a}, {b}, L).")),
        (0u8..5, l()).prop_map(|(e, l)| format!("select({e}, {l}, R).")),
        l().prop_map(|l| format!("select(E, {l}, R).")),
        (0u8..5, l()).prop_map(|(e, l)| format!("selectchk({e}, {l}, R).")),
        (l(), 0u8..5).prop_map(|(l, e)| format!("nth0(I, {l}, {e}).")),
        l().prop_map(|l| format!("nth0(I, {l}, E).")),
        (0u8..6, l()).prop_map(|(i, l)| format!("nth1({i}, {l}, E).")),
        (l(), l()).prop_map(|(a, b)| format!("subtract({a}, {b}, R).")),
        (l(), l()).prop_map(|(a, b)| format!("intersection({a}, {b}, R).")),
        (l(), l()).prop_map(|(a, b)| format!("union({a}, {b}, R).")),
        (l(), 0u8..5).prop_map(|(l, e)| format!("delete({l}, {e}, R).")),
        l().prop_map(|l| format!("reverse({l}, R).")),
        l().prop_map(|l| format!("last({l}, X).")),
        small_list(3).prop_map(|l| format!("permutation({l}, P).")),
        l().prop_map(|l| format!("list_to_set({l}, S).")),
        l().prop_map(|l| format!("sum_list({l}, S).")),
        l().prop_map(|l| format!("max_list({l}, M).")),
        l().prop_map(|l| format!("min_list({l}, M).")),
        l().prop_map(|l| format!("maxmember({l}, M).")),
        l().prop_map(|l| format!("minmember({l}, M).")),
        (l(), 0u8..4).prop_map(|(l, n)| format!("include(<({n}), {l}, I).")),
        (l(), 0u8..4).prop_map(|(l, n)| format!("exclude(<({n}), {l}, I).")),
        (l(), 0u8..4).prop_map(|(l, n)| format!("partition(=<({n}), {l}, I, E).")),
        l().prop_map(|l| format!("foldl(plus, {l}, 0, S).")),
        l().prop_map(|l| format!("maplist(succ, {l}, S).")),
        (l(), l()).prop_map(|(a, b)| format!("maplist(plus, {a}, {b}, S).")),
        l().prop_map(|l| format!("length({l}, N).")),
        (0i64..4, 0i64..6).prop_map(|(a, b)| format!("numlist({a}, {b}, L).")),
        small_list(3).prop_map(|l| format!("getsubset(S, {l}).")),
        (0u8..5, l()).prop_map(|(e, l)| format!("memberchk({e}, {l}).")),
        l().prop_map(|l| format!("member(X, {l}).")),
        (l(), 0u8..5).prop_map(|(l, e)| format!("delete({l}, {e}, D), predsort(compare, D, S).")),
    ]
}

// ---------------------------------------------------------------------------------------------------
// All-solutions predicates

fn pairs() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(vec!["a", "b", "c"]), 0u8..4), 0..7).prop_map(
        |xs| {
            format!(
                "[{}]",
                xs.iter()
                    .map(|(k, v)| format!("{k}-{v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
    )
}

fn triples() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(vec!["a", "b"]),
            prop::sample::select(vec!["x", "y"]),
            0u8..3,
        ),
        0..7,
    )
    .prop_map(|xs| {
        format!(
            "[{}]",
            xs.iter()
                .map(|(a, b, c)| format!("t({a}, {b}, {c})"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn bag_query() -> impl Strategy<Value = String> {
    prop_oneof![
        pairs().prop_map(|p| format!("bagof(V, member(K-V, {p}), L).")),
        pairs().prop_map(|p| format!("setof(V, member(K-V, {p}), L).")),
        pairs().prop_map(|p| format!("bagof(K, member(K-V, {p}), L).")),
        pairs().prop_map(|p| format!("setof(K-V, member(K-V, {p}), L).")),
        pairs().prop_map(|p| format!("setof(V, K^member(K-V, {p}), L).")),
        pairs().prop_map(|p| format!("bagof(V-K, member(K-V, {p}), L).")),
        triples().prop_map(|t| format!("bagof(C, member(t(A, B, C), {t}), L).")),
        triples().prop_map(|t| format!("setof(C, A^member(t(A, B, C), {t}), L).")),
        triples().prop_map(|t| format!("setof(A-C, B^member(t(A, B, C), {t}), L).")),
        triples().prop_map(|t| format!("bagof(B, C^member(t(A, B, C), {t}), L).")),
        triples().prop_map(|t| format!("setof(B, A^C^member(t(A, B, C), {t}), L).")),
        pairs().prop_map(|p| format!("findall(K, member(K-_, {p}), L).")),
        pairs().prop_map(|p| format!("aggregate_all(count, member(_, {p}), N).")),
        pairs().prop_map(|p| format!("aggregate_all(sum(V), member(_-V, {p}), N).")),
        pairs().prop_map(|p| format!("aggregate_all(max(V), member(_-V, {p}), N).")),
        pairs().prop_map(|p| format!("aggregate_all(min(V, K), member(K-V, {p}), N).")),
        pairs().prop_map(|p| format!("aggregate_all(max(V, K), member(K-V, {p}), N).")),
        pairs().prop_map(|p| format!("aggregate_all(set(K), member(K-_, {p}), N).")),
        pairs().prop_map(|p| format!("aggregate_all(bag(V), member(_-V, {p}), N).")),
        pairs().prop_map(|p| format!("forall(member(_-V, {p}), V < 3).")),
    ]
}

// ---------------------------------------------------------------------------------------------------
// Atoms

fn word() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', '-']), 0..5).prop_map(|cs| {
        let s: String = cs.into_iter().collect();
        format!("'{s}'")
    })
}

fn atom_query() -> impl Strategy<Value = String> {
    prop_oneof![
        word().prop_map(|w| format!("atom_concat(X, Y, {w}).")),
        (word(), word()).prop_map(|(a, b)| format!("atom_concat({a}, {b}, X).")),
        (word(), 0u8..3).prop_map(|(w, n)| format!("sub_atom({w}, B, {n}, A, S).")),
        (word(), word()).prop_map(|(w, s)| format!("sub_atom({w}, B, L, A, {s}).")),
        word().prop_map(|w| format!("atom_length({w}, N).")),
        word().prop_map(|w| format!("atom_codes({w}, C).")),
        word().prop_map(|w| format!("atom_chars({w}, C).")),
        word().prop_map(|w| format!("atomic_list_concat(L, '-', {w}).")),
        prop::collection::vec(word(), 0..4)
            .prop_map(|ws| format!("atomic_list_concat([{}], '-', A).", ws.join(", "))),
        prop::collection::vec(word(), 0..4)
            .prop_map(|ws| format!("atomic_list_concat([{}], A).", ws.join(", "))),
        (0i64..1000).prop_map(|n| format!("atom_number(A, {n}), atom_length(A, L).")),
        word().prop_map(|w| format!("atom_number({w}, N).")),
    ]
}
