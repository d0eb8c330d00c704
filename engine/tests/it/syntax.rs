//! Syntax layer tests, driven by the data in `tests/syntax/`:
//! - `ok/*.pl`: every clause is preceded by a `%= term` line, the clause in `write_canonical/1` form
//!   (the expectations were checked against SWI-Prolog 9.0.4; deviations are commented in the files);
//!   the file must parse without any diagnostic.
//! - `err/*.sidl`: a line ending in `%! E0003` (optionally `@col`, 1-based) must get that diagnostic; the
//!   set of (line, code) pairs must be exactly the expected one. `%clauses= N` gives how many clauses
//!   are read despite the errors.
//! - `paper_raw/*.sidl`: the paper's five listings with their typos; `paper_fixed/*.sidl`: the same with
//!   only the syntax typos fixed.
//!
//! Checks docs/semantics.md §1.1, §1.2, §1.3.

use crate::syntax_common as common;

use common::{apply_fixes, canonical, check_expectations};
use sidl_engine::atom::Atom;
use sidl_engine::diag::{Diagnostic, Severity, Span};
use sidl_engine::syntax::{
    codes, parse_file, parse_term, tokens, NodeKind, ParsedFile, TokenKind, MAX_DEPTH,
};
use sidl_engine::term::Term;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn data_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/syntax")
        .join(sub)
}

fn files(sub: &str, ext: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(data_dir(sub))
        .unwrap_or_else(|e| panic!("{sub}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (
                name,
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
            )
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .{ext} files in tests/syntax/{sub}");
    out
}

fn show(src: &str, diags: &[Diagnostic]) -> String {
    let idx = sidl_engine::diag::LineIndex::new(src);
    diags
        .iter()
        .map(|d| {
            let (l, c) = common::line_col(src, &idx, d);
            format!("  {l}:{c} {} {}\n", d.code, d.message)
        })
        .collect()
}

/// Structural checks that hold for every parse.
fn check_invariants(src: &str, f: &ParsedFile) {
    let len = src.len() as u32;
    let ok_span = |s: Span| {
        s.start <= s.end
            && s.end <= len
            && src.is_char_boundary(s.start as usize)
            && src.is_char_boundary(s.end as usize)
    };
    for d in &f.diagnostics {
        assert!(
            ok_span(d.span),
            "diagnostic span {:?} out of bounds: {d:?}",
            d.span
        );
        assert!(codes::ALL.contains(&d.code), "unknown code {}", d.code);
        assert_eq!(d.severity, Severity::Error);
        for l in &d.labels {
            assert!(ok_span(l.span));
        }
        for x in &d.fixes {
            assert!(ok_span(x.span));
        }
    }
    let mut prev_end = 0;
    for c in &f.clauses {
        assert!(
            ok_span(c.span) && c.span.start >= prev_end,
            "clause spans must be ordered and disjoint"
        );
        prev_end = c.span.end;
        assert_eq!(c.term, c.node.to_term());
        assert_eq!(c.term.var_count() as usize, c.var_names.len());
        c.node.walk(|n| {
            assert!(ok_span(n.span) && n.span.start >= c.span.start && n.span.end <= c.span.end);
            if let NodeKind::Var { number, name } = &n.kind {
                assert_eq!(&c.var_names[*number as usize], name);
            }
        });
    }
}

#[test]
fn ok_files_parse_as_expected() {
    let mut total = 0;
    for (name, src) in files("ok", "pl") {
        let f = parse_file(&src);
        check_invariants(&src, &f);
        assert!(
            f.diagnostics.is_empty(),
            "{name}: unexpected diagnostics:\n{}",
            show(&src, &f.diagnostics)
        );
        let expected: Vec<&str> = src.lines().filter_map(|l| l.strip_prefix("%= ")).collect();
        let got: Vec<String> = f.clauses.iter().map(|c| canonical(&c.term)).collect();
        assert_eq!(
            expected.len(),
            got.len(),
            "{name}: {} expectations for {} clauses",
            expected.len(),
            got.len()
        );
        for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
            assert_eq!(*e, g, "{name}: clause {}", i + 1);
        }
        assert!(f.clauses.iter().all(|c| !c.has_errors));
        total += got.len();
    }
    assert!(total >= 80, "only {total} ok cases");
}

fn expected_clause_count(src: &str) -> Option<usize> {
    src.lines()
        .find_map(|l| l.strip_prefix("%clauses= "))
        .map(|n| n.trim().parse().expect("bad %clauses="))
}

#[test]
fn err_fixtures_report_exactly_the_expected_diagnostics() {
    let mut failures = String::new();
    let mut covered = BTreeSet::new();
    for (name, src) in files("err", "sidl") {
        let f = parse_file(&src);
        check_invariants(&src, &f);
        if let Err(e) = check_expectations(&name, &src, &f.diagnostics) {
            failures.push_str(&e);
        }
        if let Some(n) = expected_clause_count(&src) {
            if n != f.clauses.len() {
                failures.push_str(&format!(
                    "{name}: {} clauses read, expected {n}\n",
                    f.clauses.len()
                ));
            }
        }
        // Clauses with a recovered error are flagged; the others are not.
        for c in &f.clauses {
            let inside = f
                .diagnostics
                .iter()
                .any(|d| d.span.start >= c.span.start && d.span.start < c.span.end);
            let lexer_only = f
                .diagnostics
                .iter()
                .all(|d| d.span.start < c.span.start || d.span.start >= c.span.end);
            assert!(
                c.has_errors == inside || lexer_only,
                "{name}: has_errors wrong for clause at {:?}",
                c.span
            );
        }
        covered.extend(common::expectations(&src).into_iter().map(|e| e.code));
    }
    assert!(failures.is_empty(), "\n{failures}");
    for code in codes::ALL {
        assert!(covered.contains(*code), "no err fixture expects {code}");
    }
}

#[test]
fn every_code_is_documented() {
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md");
    let doc = std::fs::read_to_string(&doc_path).expect("docs/diagnostics.md");
    for code in codes::ALL {
        assert!(
            doc.contains(&format!("| {code} ")),
            "{code} is not in docs/diagnostics.md"
        );
    }
}

const PAPER: &[(&str, usize)] = &[
    ("nim", 14),
    ("mcp", 20),
    ("rps", 38),
    ("priceNegotiation", 16),
    ("chess", 64),
];

#[test]
fn paper_listings_raw_report_exactly_the_typos() {
    for (game, _) in PAPER {
        let src = std::fs::read_to_string(data_dir("paper_raw").join(format!("{game}.sidl")))
            .expect("raw listing");
        let f = parse_file(&src);
        check_invariants(&src, &f);
        if let Err(e) = check_expectations(game, &src, &f.diagnostics) {
            panic!("\n{e}");
        }
        for d in &f.diagnostics {
            assert!(d.help.is_some(), "{game}: no help for {d:?}");
            assert_eq!(
                d.fixes.len(),
                1,
                "{game}: a typo without exactly one fix: {d:?}"
            );
        }
    }
}

#[test]
fn paper_listings_fixed_parse_cleanly_and_match_the_fixed_raw_ones() {
    for (game, n) in PAPER {
        let raw = std::fs::read_to_string(data_dir("paper_raw").join(format!("{game}.sidl")))
            .expect("raw listing");
        let fixed = std::fs::read_to_string(data_dir("paper_fixed").join(format!("{game}.sidl")))
            .expect("fixed listing");
        let f_fixed = parse_file(&fixed);
        check_invariants(&fixed, &f_fixed);
        assert!(
            f_fixed.diagnostics.is_empty(),
            "{game}: fixed listing has diagnostics:\n{}",
            show(&fixed, &f_fixed.diagnostics)
        );
        assert_eq!(
            f_fixed.clauses.len(),
            *n,
            "{game}: clause count (SWI-Prolog reads {n})"
        );
        let fixed_terms: Vec<String> = f_fixed.clauses.iter().map(|c| canonical(&c.term)).collect();

        // Applying the diagnostics' fixes to the raw listing gives the fixed listing's clauses...
        let f_raw = parse_file(&raw);
        let repaired = apply_fixes(&raw, &f_raw.diagnostics);
        let f_rep = parse_file(&repaired);
        assert!(
            f_rep.diagnostics.is_empty(),
            "{game}: repaired listing:\n{}",
            show(&repaired, &f_rep.diagnostics)
        );
        let rep_terms: Vec<String> = f_rep.clauses.iter().map(|c| canonical(&c.term)).collect();
        assert_eq!(
            rep_terms, fixed_terms,
            "{game}: fixes do not produce the fixed listing"
        );
        // ... and so does the parser's own recovery on the raw listing.
        let raw_terms: Vec<String> = f_raw.clauses.iter().map(|c| canonical(&c.term)).collect();
        assert_eq!(
            raw_terms, fixed_terms,
            "{game}: recovery does not read the typos as intended"
        );
        let flagged = f_raw.clauses.iter().filter(|c| c.has_errors).count();
        assert_eq!(
            flagged,
            f_raw
                .clauses
                .iter()
                .filter(|c| f_raw
                    .diagnostics
                    .iter()
                    .any(|d| c.span.to(d.span) == c.span))
                .count()
        );
    }
}

// ---- deep and large inputs ---------------------------------------------------------------------------

/// Runs `f` on a thread with the default 2 MiB test stack, whatever RUST_MIN_STACK says.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the test thread panicked");
}

#[test]
fn a_list_of_100_000_elements_parses_and_converts() {
    on_small_stack(|| {
        let n = 100_000;
        let mut src = String::from("big([");
        for i in 0..n {
            if i > 0 {
                src.push_str(", ");
            }
            src.push_str(&format!("f({i}, X)"));
        }
        src.push_str("]).\n");
        let f = parse_file(&src);
        assert!(f.diagnostics.is_empty());
        let arg = &f.clauses[0].term.args()[0];
        let items = arg.as_list().expect("a proper list");
        assert_eq!(items.len(), n);
        assert_eq!(items[n - 1].args()[0], Term::Int(n as i64 - 1));
        let t = parse_term(&src).expect("parse_term");
        assert_eq!(t.term, f.clauses[0].term);
        drop(f);
        // A long conjunction in a list, a long string and a long back-quoted code list.
        let s: String = "x".repeat(200_000);
        let f = parse_file(&format!("s(\"{s}\", `{s}`).\n"));
        assert!(f.diagnostics.is_empty());
        assert_eq!(
            f.clauses[0].term.args()[1].as_list().map(|l| l.len()),
            Some(200_000)
        );
    });
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    on_small_stack(|| {
        let n = 100_000;
        for (open, close) in [
            ("(", ")"),
            ("f(", ")"),
            ("[", "]"),
            ("{", "}"),
            ("- ", ""),
            ("\\+ ", ""),
            ("[a|", "]"),
            ("a:-(", ")"),
        ] {
            let src = format!("p({}x{}).\nq.\n", open.repeat(n), close.repeat(n));
            let f = parse_file(&src);
            let codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, vec![codes::TOO_DEEP], "for {open:?}");
            assert_eq!(f.clauses.len(), 1, "for {open:?}: the next clause is read");
            assert!(parse_term(&src).is_err());
        }
        // Unclosed: no end token at all.
        let f = parse_file(&"(".repeat(n));
        assert_eq!(f.diagnostics.len(), 1);
        // Left- and right-associative operator chains.
        for op in ["+", ",", ";", "->", "^", "-", "*"] {
            let src = format!("p :- {}1.\n", format!("1 {op} ").repeat(n));
            let f = parse_file(&src);
            assert_eq!(
                f.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
                vec![codes::TOO_DEEP],
                "for {op}"
            );
        }
    });
}

#[test]
fn trees_at_the_depth_limit_are_safe_with_derived_impls() {
    on_small_stack(|| {
        let d = MAX_DEPTH - 1;
        for (open, close) in [("f(", ")"), ("[", "]"), ("- ", ""), ("{", "}"), ("(", ")")] {
            let src = format!("{}x{}.", open.repeat(d), close.repeat(d));
            let f = parse_file(&src);
            assert!(
                f.diagnostics.is_empty(),
                "{open:?} at depth {d}: {:?}",
                f.diagnostics.first()
            );
            let c = f.clauses[0].clone();
            assert_eq!(c, f.clauses[0]);
            assert!(!format!("{c:?}").is_empty());
            assert_eq!(c.node.to_term(), c.term);
            assert!(c.node.node_at(d as u32).is_some());
        }
        let src = format!("p :- {}a.", "a, ".repeat(MAX_DEPTH - 2));
        let f = parse_file(&src);
        assert!(f.diagnostics.is_empty());
    });
}

#[test]
fn a_one_megabyte_file_parses() {
    let clause = "legal([C]) :- fact([C, king, _, _]), player([C]), fact([C]), X is 1 + 2 * 3, 'quoted atom'(\"str\", 0'a, -1.5e3).\n";
    let src = clause.repeat(1_000_000 / clause.len() + 1);
    let f = parse_file(&src);
    assert!(f.diagnostics.is_empty());
    assert_eq!(f.clauses.len(), src.len() / clause.len());
}

// ---- API ----------------------------------------------------------------------------------------------

#[test]
fn clause_parts_and_variables() {
    let src =
        "% header\nwin(P) :- fact([P, X]), X > _, _ \\= Y, Y = P.\nfact(a).\n:- dynamic foo/1.\n";
    let f = parse_file(src);
    assert!(f.diagnostics.is_empty());
    let [rule, fact, directive] = &f.clauses[..] else {
        panic!("three clauses")
    };
    assert_eq!(rule.var_names, ["P", "X", "_", "_", "Y"]);
    assert_eq!(
        &src[rule.span.range()],
        "win(P) :- fact([P, X]), X > _, _ \\= Y, Y = P."
    );
    assert_eq!(&src[rule.head().span.range()], "win(P)");
    assert_eq!(
        rule.body().map(|b| &src[b.span.range()]),
        Some("fact([P, X]), X > _, _ \\= Y, Y = P")
    );
    assert_eq!(rule.body().map(|b| &src[b.name_span().range()]), Some(","));
    assert!(!rule.is_directive() && !fact.is_directive() && directive.is_directive());
    assert!(fact.body().is_none());
    assert_eq!(&src[fact.head().span.range()], "fact(a)");
    assert_eq!(
        directive.body().and_then(|b| b.functor()),
        Some((Atom::new("dynamic"), 1))
    );
    assert_eq!(canonical(&directive.term), ":-(dynamic(/(foo,1)))");

    // The innermost node at an offset, and the clause at an offset.
    let x_at = src.find("X >").expect("X") as u32;
    let path = rule.node.path_at(x_at);
    assert!(
        matches!(&path.last().expect("a node").kind, NodeKind::Var { name, .. } if name == "X")
    );
    assert_eq!(
        path.iter()
            .map(|n| n.functor().map(|(a, n)| (a.name(), n)))
            .collect::<Vec<_>>()[..3],
        [Some((":-", 2)), Some((",", 2)), Some((",", 2))]
    );
    assert_eq!(f.clause_at(x_at).map(|c| c.span), Some(rule.span));
    assert_eq!(f.clause_at(0), None);
    assert_eq!(
        f.clause_at(fact.span.end - 1).map(|c| c.span),
        Some(fact.span)
    );
    let cursor_after_fact = src.find("fact(a)").expect("fact") as u32 + 4;
    assert_eq!(
        fact.node.node_at(cursor_after_fact).map(|n| n.span),
        Some(fact.node.span)
    );
    assert_eq!(rule.node.node_at(rule.span.end + 5), None);
}

#[test]
fn parse_term_reads_one_term() {
    let t = parse_term("member(X, [a, b | T])").expect("a term");
    assert_eq!(canonical(&t.term), "member(_,[a,b|_])");
    assert_eq!(t.var_names, ["X", "T"]);
    assert_eq!(
        parse_term("foo(X, Y, X).  % a comment\n").map(|t| canonical(&t.term)),
        Ok("foo(A,_,A)".into())
    );
    assert_eq!(
        parse_term("- 1").map(|t| canonical(&t.term)),
        Ok("-(1)".into())
    );
    assert_eq!(parse_term("-").map(|t| canonical(&t.term)), Ok("-".into()));
    assert_eq!(
        parse_term("'hello world'").map(|t| t.term),
        Ok(Term::atom("hello world"))
    );
    let codes_of = |s: &str| {
        parse_term(s)
            .err()
            .map(|ds| ds.iter().map(|d| d.code).collect::<Vec<_>>())
    };
    assert_eq!(codes_of("a. b."), Some(vec![codes::OPERATOR_EXPECTED]));
    assert_eq!(codes_of(""), Some(vec![codes::TERM_EXPECTED]));
    assert_eq!(
        codes_of("   % only a comment"),
        Some(vec![codes::TERM_EXPECTED])
    );
    assert_eq!(codes_of("f(a"), Some(vec![codes::UNBALANCED_BRACKET]));
    assert_eq!(codes_of("foo (a)"), Some(vec![codes::SPACE_BEFORE_PAREN]));
    assert_eq!(codes_of("'abc"), Some(vec![codes::UNTERMINATED_QUOTED]));
}

#[test]
fn typo_diagnostics_carry_fixes_and_hints() {
    let src = "p(Y): - q (Y), r(Y, ), s := t.\n";
    let f = parse_file(src);
    type Summary<'a> = (&'a str, &'a str, Vec<(String, String)>);
    let summary: Vec<Summary> = f
        .diagnostics
        .iter()
        .map(|d| {
            let fixes = d
                .fixes
                .iter()
                .map(|x| (src[x.span.range()].to_string(), x.replacement.clone()))
                .collect();
            (d.code, d.help.as_deref().unwrap_or(""), fixes)
        })
        .collect();
    assert_eq!(
        summary[0],
        (
            codes::SPLIT_NECK,
            "write ':-' without a space",
            vec![(": -".into(), ":-".into())]
        )
    );
    assert_eq!(summary[1].0, codes::SPACE_BEFORE_PAREN);
    assert!(summary[1].1.starts_with("remove the space before '('"));
    assert_eq!(summary[1].2, vec![(" ".into(), "".into())]);
    assert_eq!(summary[2].0, codes::MISSING_ARGUMENT);
    assert_eq!(summary[2].2, vec![("".into(), "_".into())]);
    // `s := t` inside a body is not where ':-' could be: reported, and the clause is abandoned.
    assert_eq!(summary[3].0, codes::COLON_EQUALS);
    assert_eq!(f.diagnostics.len(), 4);
    assert!(f.diagnostics[3].message.contains("did you mean ':-'?"));
    assert!(f.clauses.is_empty());
}

#[test]
fn node_spans_cover_their_text() {
    let src = "p :- X = f(a, [b, c | T], {d}, \"s\", - 1, -1, (e ; g)).";
    let f = parse_file(src);
    assert!(f.diagnostics.is_empty());
    let mut seen = Vec::new();
    f.clauses[0].node.walk(|n| seen.push(&src[n.span.range()]));
    assert_eq!(
        seen,
        [
            "p :- X = f(a, [b, c | T], {d}, \"s\", - 1, -1, (e ; g))",
            "p",
            "X = f(a, [b, c | T], {d}, \"s\", - 1, -1, (e ; g))",
            "X",
            "f(a, [b, c | T], {d}, \"s\", - 1, -1, (e ; g))",
            "a",
            "[b, c | T]",
            "b",
            "c",
            "T",
            "{d}",
            "d",
            "\"s\"",
            "- 1",
            "1",
            "-1",
            "(e ; g)",
            "e",
            "g",
        ]
    );
}

#[test]
fn tokens_for_highlighting_include_comments() {
    let src = "% c\nf(X, 'a', \"s\", 0'c, 1.5) :- /* b */ \\+ g. 'open";
    let kinds: Vec<TokenKind> = tokens(src).into_iter().map(|(k, _)| k).collect();
    use TokenKind::*;
    assert_eq!(
        kinds,
        [
            LineComment,
            Name,
            OpenParen,
            Var,
            Comma,
            QuotedAtom,
            Comma,
            String,
            Comma,
            CharCode,
            Comma,
            Float,
            CloseParen,
            Symbol,
            BlockComment,
            Symbol,
            Name,
            End,
            Error(sidl_engine::syntax::LexError::UnterminatedQuoted)
        ]
    );
}

#[test]
fn recovery_reports_every_broken_clause() {
    let src = "a(1).\nb(1 2).\nc(1).\nd(.\ne(1).\nf :- .\ng(1).\n";
    let f = parse_file(src);
    let names: Vec<String> = f.clauses.iter().map(|c| canonical(&c.term)).collect();
    assert_eq!(names, ["a(1)", "c(1)", "e(1)", "g(1)"]);
    let lines: Vec<u32> = f
        .diagnostics
        .iter()
        .map(|d| src[..d.span.start as usize].matches('\n').count() as u32 + 1)
        .collect();
    assert_eq!(lines, [2, 4, 6]);
}

#[test]
fn byte_order_mark_and_crlf() {
    let src = "\u{FEFF}a(1).\r\nb :-\r\n  c.\r\n";
    let f = parse_file(src);
    assert!(f.diagnostics.is_empty());
    assert_eq!(f.clauses.len(), 2);
    assert_eq!(&src[f.clauses[0].span.range()], "a(1).");
}
