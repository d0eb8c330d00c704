//! Static analyses (`sidl_engine::analysis`): data-driven fixtures in `tests/analysis/`, the games.
//!
//! A fixture line that must get diagnostics ends with `%! CODE [CODE ...]`; every fixture must report
//! exactly that set of (line, code).
//!
//! Checks docs/semantics.md §2.1, §2.2, §4.2, §8.5 (the fixtures of `engine/tests/analysis/`).

use sidl_engine::analysis::{self, codes};
use sidl_engine::diag::{ColumnUnit, Diagnostic, LineIndex};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(sub)
}

fn files(d: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(d)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "sidl").then(|| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
        })
        .collect();
    out.sort();
    out
}

fn expected(src: &str) -> BTreeSet<(usize, String)> {
    let mut set = BTreeSet::new();
    for (i, line) in src.lines().enumerate() {
        if let Some(at) = line.find("%!") {
            for code in line[at + 2..].split_whitespace() {
                set.insert((i + 1, code.to_string()));
            }
        }
    }
    set
}

fn produced(src: &str, diags: &[Diagnostic]) -> BTreeSet<(usize, String)> {
    let idx = LineIndex::new(src);
    diags
        .iter()
        .map(|d| {
            let lc = idx.line_col(src, d.span.start, ColumnUnit::Char);
            (lc.line as usize + 1, d.code.to_string())
        })
        .collect()
}

fn show(src: &str, diags: &[Diagnostic]) -> String {
    let idx = LineIndex::new(src);
    diags
        .iter()
        .map(|d| {
            let lc = idx.line_col(src, d.span.start, ColumnUnit::Char);
            format!("  {}:{} {d}\n", lc.line + 1, lc.col + 1)
        })
        .collect()
}

#[test]
fn fixtures_report_exactly_the_expected_diagnostics() {
    let fixtures = files(&dir("tests/analysis"));
    assert!(fixtures.len() >= 15);
    let mut failures = String::new();
    for (name, src) in &fixtures {
        let diags = analysis::check(src);
        let (want, got) = (expected(src), produced(src, &diags));
        if want != got {
            failures.push_str(&format!(
                "{name}: expected {want:?}\n got {got:?}\n{}",
                show(src, &diags)
            ));
        }
        // sorted by position
        assert!(diags.windows(2).all(|w| w[0].span.start <= w[1].span.start));
    }
    assert!(failures.is_empty(), "{failures}");
}

#[test]
fn every_code_has_a_triggering_fixture_and_is_documented() {
    let fixtures = files(&dir("tests/analysis"));
    let mut seen = BTreeSet::new();
    for (_, src) in &fixtures {
        for (_, c) in expected(src) {
            seen.insert(c);
        }
    }
    let docs = std::fs::read_to_string(dir("../docs/diagnostics.md")).unwrap();
    for code in codes::ALL {
        assert!(seen.contains(*code), "no fixture triggers {code}");
        assert!(
            docs.contains(&format!("| {code} |")),
            "{code} is not in docs/diagnostics.md"
        );
    }
    for (name, src) in fixtures.iter().filter(|(n, _)| n.starts_with("clean")) {
        assert!(analysis::check(src).is_empty(), "{name}");
    }
}

#[test]
fn placement_names_the_path_and_reports_once_per_head_keyword() {
    let src = "game(g).\ninit([p], 0).\nlegal([s]) :- mark.\nswitch([s], [a]).\nowned([s], [p]).\n\
               do([a]).\npayoff([p], 1) :- gesture(x).\ngesture(X) :- mark, create([X]).\n\
               mark :- create([m]), create([n]).\n";
    let diags: Vec<_> = analysis::check(src)
        .into_iter()
        .filter(|d| d.code == "E0301")
        .collect();
    // legal/1 → mark/0 → create/1 (twice: two call sites), payoff/2 → gesture/2 → create/1,
    // payoff/2 → gesture/1 → mark/0 → create/1 (twice)
    assert_eq!(diags.len(), 5, "{diags:#?}");
    assert!(diags
        .iter()
        .any(|d| d.message.contains("payoff/2 → gesture/1 → create/1")));
    assert!(diags.iter().any(|d| d
        .message
        .contains("payoff/2 → gesture/1 → mark/0 → create/1")));
    assert!(diags
        .iter()
        .any(|d| d.message.contains("legal/1 → mark/0 → create/1")));
    let long = diags
        .iter()
        .find(|d| {
            d.message
                .contains("payoff/2 → gesture/1 → mark/0 → create/1")
        })
        .unwrap();
    let labels: Vec<&str> = long.labels.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(
        labels,
        [
            "`payoff/2` calls `gesture/1` here",
            "`gesture/1` calls `mark/0` here"
        ]
    );
    assert_eq!(
        long.labels[0].span.start as usize,
        src.find("gesture(x)").unwrap()
    );
    let at = src.find("create([m])").unwrap() as u32;
    assert_eq!(diags.iter().filter(|d| d.span.start == at).count(), 2);
    assert!(diags.iter().all(|d| d.is_error() && d.help.is_some()));
}

#[test]
fn undefined_predicates_suggest_a_machine_applicable_fix() {
    let src = "game(g).\ninit([p], 0).\nlegal([s]) :- qesture(x), membr(a, [a]).\ngesture(_).\n\
               switch([s], [a]).\nowned([s], [p]).\ndo([a]) :- gesture(a).\n";
    let diags: Vec<_> = analysis::check(src)
        .into_iter()
        .filter(|d| d.code == "W0401")
        .collect();
    assert_eq!(diags.len(), 2, "{diags:#?}");
    let fixed: Vec<String> = diags
        .iter()
        .map(|d| {
            let f = &d.fixes[0];
            let mut s = src.to_string();
            s.replace_range(f.span.range(), &f.replacement);
            s
        })
        .collect();
    assert!(fixed[0].contains("legal([s]) :- gesture(x), membr"));
    assert!(fixed[1].contains("member(a, [a])"));
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `gesture/1`?"));
}

#[test]
fn unknown_slot_types_block_loading_and_suggest_the_slot_type() {
    // docs/semantics.md §4.4: a slot type the engine does not know is a diagnostic when the game loads
    let src = "game(g).\ninit([p], 0).\nlegal([p]).\nowned([p], [p]).\n\
               unlimited([p], [offer, (amount, float)]).\nswitch([p], _).\ndo(_).\n";
    let load = sidl_engine::game::Game::load(src).expect_err("does not load");
    let check: Vec<_> = analysis::check(src)
        .into_iter()
        .filter(|d| d.code == codes::UNKNOWN_SLOT_TYPE)
        .collect();
    assert_eq!(
        load, check,
        "Game::load and sidl check report the same diagnostic"
    );
    let [d] = &load[..] else { panic!("{load:#?}") };
    assert!(d.is_error());
    assert_eq!(&src[d.span.range()], "float");
    assert_eq!(d.help.as_deref(), Some("did you mean `double`?"));
    let f = &d.fixes[0];
    let mut fixed = src.to_string();
    fixed.replace_range(f.span.range(), &f.replacement);
    assert!(fixed.contains("[offer, (amount, double)]"), "{fixed}");
    assert!(sidl_engine::game::Game::load(&fixed).is_ok());
    // aliases and typos of the other types; no suggestion for an unrelated word
    for (ty, sug) in [
        ("int", Some("integer")),
        ("integr", Some("integer")),
        ("doubel", Some("double")),
        ("num", Some("number")),
        ("colour", None),
    ] {
        let src = src.replace("float", ty);
        let d = &sidl_engine::game::Game::load(&src).expect_err(ty)[0];
        assert_eq!(d.code, codes::UNKNOWN_SLOT_TYPE, "{ty}");
        assert_eq!(d.fixes.first().map(|f| f.replacement.as_str()), sug, "{ty}");
    }
}

#[test]
fn corrected_games_have_no_errors_and_paper_games_show_their_defects() {
    for (name, src) in files(&dir("../games")) {
        let diags = analysis::check(&src);
        if !diags.is_empty() {
            eprintln!("games/{name}:\n{}", show(&src, &diags));
        }
        assert!(
            !diags.iter().any(Diagnostic::is_error),
            "games/{name}:\n{}",
            show(&src, &diags)
        );
    }
    let paper = files(&dir("../games/paper"));
    let codes_of = |n: &str| -> BTreeSet<&'static str> {
        let src = &paper.iter().find(|(f, _)| f == n).unwrap().1;
        analysis::check(src).iter().map(|d| d.code).collect()
    };
    assert!(
        codes_of("mcp.sidl").contains("E0410"),
        "mcp's default([C], [stay])"
    );
    assert!(
        codes_of("nim.sidl").contains("W0412"),
        "nim's do([wait]) twice"
    );
    assert!(
        codes_of("rps.sidl").contains("W0406"),
        "rps's qesture is never used"
    );
    for (name, _) in &paper {
        assert!(codes_of(name).contains("W0413"), "{name} uses name/1");
    }
}

#[test]
fn call_graph_follows_meta_calls() {
    use sidl_engine::analysis::callgraph::{show, CallGraph};
    let file = sidl_engine::syntax::parse_file(
        "p :- \\+ q, call(r, 1), forall(s(X), t(X)), bagof(Y, Z^u(Y, Z), _), foldl(v, [1], 0, _), \
         call(G), G.\n",
    );
    let g = CallGraph::build(&file.clauses);
    let calls: Vec<String> = g.calls(0).iter().map(|s| show(s.callee)).collect();
    assert_eq!(
        calls,
        ["q/0", "r/1", "forall/2", "s/1", "t/1", "bagof/3", "u/2", "foldl/4", "v/3"]
    );
    assert!(g.calls(0)[0].negated);
    assert!(g.has_unknown_calls(0));
}

#[test]
fn never_panics_on_syntax_fixtures_and_large_inputs() {
    for sub in [
        "tests/syntax/err",
        "tests/syntax/ok",
        "tests/syntax/paper_raw",
    ] {
        let d = dir(sub);
        if !d.exists() {
            continue;
        }
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if let Ok(src) = std::fs::read_to_string(&p) {
                let _ = analysis::check(&src);
            }
        }
    }
    for src in [
        "[a, b] :- X is 1, \\+ Y.\n{a} :- b.\nlegal(_) :- [f].\n",
        "game(g).\n'.'(X, Y) :- X > Y.\n{X} :- X < 1.\nlegal([s]) :- call(foo, 1, 2).\n",
        "game(g).\nlegal(X) :- maplist(X, [1]), foldl(_, [], 0, _), findall(_, _, _).\n",
    ] {
        let _ = analysis::check(src);
    }
    // a long body of arithmetic and a long list stay fast
    let mut src = String::from("game(g).\ninit([p], 0).\nlegal([s]) :- fact([n, X0])");
    for i in 1..800 {
        src.push_str(&format!(", X{i} is X{} + 1", i - 1));
    }
    src.push_str(".\nitems([");
    src.push_str(&vec!["a"; 100_000].join(","));
    src.push_str("]).\n");
    let started = std::time::Instant::now();
    let diags = analysis::check(&src);
    assert!(started.elapsed().as_secs() < 10);
    assert!(diags.iter().all(|d| d.code != "W0405"));
}
