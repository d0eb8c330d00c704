//! Property tests of the syntax layer: the parser never panics (arbitrary text, Prolog-flavoured text,
//! random edits of the paper's listings), its results are internally consistent, and printing a term
//! in canonical form and reading it back gives the same term. (The cargo-fuzz target in `fuzz/` runs
//! the same no-panic property for much longer.)

use crate::syntax_common as common;

use proptest::prelude::*;
use sidl_engine::atom::Atom;
use sidl_engine::diag::Span;
use sidl_engine::syntax::{codes, parse_file, parse_term, tokens, NodeKind};
use sidl_engine::term::Term;

const PAPER: &[&str] = &[
    include_str!("../syntax/paper_raw/nim.sidl"),
    include_str!("../syntax/paper_raw/mcp.sidl"),
    include_str!("../syntax/paper_raw/rps.sidl"),
    include_str!("../syntax/paper_raw/priceNegotiation.sidl"),
    include_str!("../syntax/paper_raw/chess.sidl"),
];

/// Parses `src` in every way and checks the results are consistent.
fn check(src: &str) {
    let len = src.len() as u32;
    let ok_span = |s: Span| {
        s.start <= s.end
            && s.end <= len
            && src.is_char_boundary(s.start as usize)
            && src.is_char_boundary(s.end as usize)
    };
    let f = parse_file(src);
    for d in &f.diagnostics {
        assert!(ok_span(d.span), "bad span {:?} for {d:?}", d.span);
        assert!(codes::ALL.contains(&d.code));
        assert!(
            d.labels.iter().all(|l| ok_span(l.span)) && d.fixes.iter().all(|x| ok_span(x.span))
        );
    }
    let mut prev = 0;
    for c in &f.clauses {
        assert!(ok_span(c.span) && c.span.start >= prev);
        prev = c.span.end;
        assert_eq!(c.term, c.node.to_term());
        assert_eq!(c.term.var_count() as usize, c.var_names.len());
        c.node.walk(|n| {
            assert!(ok_span(n.span));
            if let NodeKind::Var { number, name } = &n.kind {
                assert_eq!(c.var_names.get(*number as usize), Some(name));
            }
        });
        let _ = c.head();
        let _ = c.body();
        let _ = c.node.node_at(c.span.start);
    }
    if f.diagnostics.is_empty() {
        assert!(f.clauses.iter().all(|c| !c.has_errors));
    }
    let mut prev = 0;
    for (_, s) in tokens(src) {
        assert!(ok_span(s) && s.start >= prev && !s.is_empty());
        prev = s.end;
    }
    match parse_term(src) {
        Ok(t) => assert_eq!(t.term.var_count() as usize, t.var_names.len()),
        Err(ds) => assert!(!ds.is_empty() && ds.iter().all(|d| ok_span(d.span))),
    }
}

/// Text made of Prolog's punctuation, operators and a few words, where bugs are likely.
fn prolog_ish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("("),
        Just(")"),
        Just("["),
        Just("]"),
        Just("{"),
        Just("}"),
        Just(","),
        Just("|"),
        Just("."),
        Just(". "),
        Just(" "),
        Just("\n"),
        Just("'"),
        Just("\""),
        Just("`"),
        Just("\\"),
        Just("%"),
        Just("/*"),
        Just("*/"),
        Just("0'"),
        Just(":-"),
        Just(": -"),
        Just(":="),
        Just("-"),
        Just("- "),
        Just("+"),
        Just("\\+"),
        Just("="),
        Just(";"),
        Just("->"),
        Just("!"),
        Just("a"),
        Just("foo"),
        Just("X"),
        Just("_"),
        Just("1"),
        Just("0x"),
        Just("1.5e3"),
        Just("not "),
        Just("dynamic"),
        Just("é"),
        Just("\u{1}"),
        Just("¿"),
        Just("9999999999999999999999"),
        Just("\\x41\\"),
        Just("''"),
    ];
    proptest::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

/// An edit of a text: delete a range, insert a snippet, or duplicate a range.
fn mutate(src: &str, ops: &[(u8, usize, usize, String)]) -> String {
    let mut s = src.to_string();
    for (kind, a, b, snippet) in ops {
        let clamp = |s: &str, mut i: usize| {
            i %= s.len() + 1;
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (mut x, mut y) = (clamp(&s, *a), clamp(&s, *b));
        if x > y {
            std::mem::swap(&mut x, &mut y);
        }
        y = y.min(x + 40);
        while !s.is_char_boundary(y) {
            y -= 1;
        }
        match kind % 3 {
            0 => s.replace_range(x..y, ""),
            1 => s.insert_str(x, snippet),
            _ => {
                let dup = s[x..y].to_string();
                s.insert_str(y, &dup);
            }
        }
    }
    s
}

fn atom_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-zA-Z0-9_]{0,6}",
        "[+*/\\\\^<>=~:.?@#&$-]{1,3}",
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("!".to_string()),
        Just(";".to_string()),
        Just(",".to_string()),
        Just("|".to_string()),
        Just("".to_string()),
        "[A-Z_][a-z]{0,3}",
        "[ -~]{0,6}",
        "\\PC{0,4}",
        "[\\x00-\\x1f'\"\\\\`]{0,4}",
    ]
}

fn term() -> impl Strategy<Value = Term> {
    let leaf = prop_oneof![
        (0u32..4).prop_map(Term::Var),
        atom_name().prop_map(|a| Term::Atom(Atom::new(&a))),
        any::<i64>().prop_map(Term::Int),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Term::Float),
        "\\PC{0,5}".prop_map(|s| Term::Str(Atom::new(&s))),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            (atom_name(), proptest::collection::vec(inner.clone(), 1..4))
                .prop_map(|(f, args)| Term::compound(&f, args)),
            (
                proptest::collection::vec(inner.clone(), 0..4),
                proptest::option::of(inner.clone())
            )
                .prop_map(|(items, tail)| Term::list_with_tail(
                    items,
                    tail.unwrap_or_else(Term::nil)
                )),
            inner.prop_map(|t| Term::compound("{}", vec![t])),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        // ChaCha (the default) dominates the run time in unoptimised test builds.
        rng_algorithm: proptest::test_runner::RngAlgorithm::XorShift,
        ..ProptestConfig::default()
    })]

    #[test]
    fn never_panics_on_arbitrary_text(s in "\\PC{0,200}") {
        check(&s);
    }

    #[test]
    fn never_panics_on_arbitrary_bytes_as_text(b in proptest::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn never_panics_on_prolog_ish_text(s in prolog_ish()) {
        check(&s);
    }


    #[test]
    fn canonical_text_reads_back_as_the_same_term(t in term()) {
        let text = common::canonical_numbered(&t);
        let read = parse_term(&text).map_err(|ds| format!("{text}: {:?}", ds.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let read = read.map_err(TestCaseError::fail)?;
        // Equal up to renaming of variables: the canonical form with A, B, _ names is the same.
        prop_assert_eq!(common::canonical(&read.term), common::canonical(&t), "text: {}", text);
        prop_assert_eq!(read.term.var_count() as usize, read.var_names.len());
        // And the same term as a clause in a file (when it is callable).
        if t.is_callable() {
            let f = parse_file(&format!("{text} .\n"));
            prop_assert!(f.diagnostics.is_empty());
            prop_assert_eq!(common::canonical(&f.clauses[0].term), common::canonical(&t));
        }
    }
}

proptest! {
    // Each case parses a whole listing (a few kB) three times: fewer cases.
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_algorithm: proptest::test_runner::RngAlgorithm::XorShift,
        ..ProptestConfig::default()
    })]

    #[test]
    fn never_panics_on_mutated_paper_listings(
        which in 0..PAPER.len(),
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>(), prolog_ish()), 1..6),
    ) {
        check(&mutate(PAPER[which], &ops));
    }
}
