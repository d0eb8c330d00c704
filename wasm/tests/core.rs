//! The playground's logic, natively: DTOs built from a real game (no browser needed).
//!
//! Checks docs/semantics.md §4.4, §7.3 (interrupt mode) and §12 (a game with placement errors loads).

use sidl_wasm::core::{check, keywords, Core, LimitsDto};

fn nim() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/nim.sidl")).expect("nim")
}

#[test]
fn nim_plays_to_the_end_through_the_dtos() {
    let mut g = Core::new(&nim()).expect("loads");
    assert_eq!(g.players(), vec!["[alice]", "[bob]"]);
    assert_eq!(g.view(None).expect("view"), vec!["[alice,10]"]);
    let sw = g.switches(Some("[alice]")).expect("switches");
    assert_eq!(sw.len(), 1);
    assert_eq!(sw[0].switch, "[main]");
    assert_eq!(sw[0].owner.as_deref(), Some("[alice]"));
    assert!(!sw[0].unlimited && !sw[0].nature);
    assert_eq!(sw[0].actions, vec!["[1]", "[2]", "[3]"]);
    assert!(g.switches(Some("[bob]")).expect("switches").is_empty());

    let bad = g.submit("[bob]", "[main]", "[1]").expect("submit");
    assert!(
        !bad.ok
            && bad
                .reason
                .as_deref()
                .unwrap_or("")
                .contains("owned by [alice]")
    );
    let unparsable = g.submit("[alice]", "[main]", "[1").expect("submit");
    assert!(!unparsable.ok);
    let ok = g.submit("[alice]", "[main]", "[3]").expect("submit");
    assert!(ok.ok && ok.reason.is_none());
    assert_eq!(g.pending().len(), 1);

    let c = g.run_chronon().expect("chronon");
    assert_eq!(c.chronon, 1);
    assert_eq!(
        c.submissions,
        vec![["[alice]".to_string(), "[main]".into(), "[3]".into()]]
    );
    let texts: Vec<&str> = c.events.iter().map(|e| e.text.as_str()).collect();
    assert!(texts.contains(&"+ [bob,7]"), "{texts:?}");
    assert!(texts.contains(&"- [alice,10]"), "{texts:?}");
    assert_eq!(c.player_events.len(), 2);
    assert!(!c.terminal);
    assert_eq!(g.view(Some("[bob]")).expect("view"), vec!["[bob,7]"]);

    // snapshot, undo, restore
    let snap = g.snapshot();
    assert!(g.undo());
    assert_eq!(g.chronon(), 0);
    assert!(g.pending().is_empty());
    assert!(!g.undo());
    g.restore(&snap).expect("restore");
    assert_eq!(g.view(None).expect("view"), vec!["[bob,7]"]);

    // query over the current state
    let q = g.query("fact(F)").expect("query");
    assert_eq!(q.vars, vec!["F"]);
    assert_eq!(q.answers, vec!["F = [bob,7]."]);
    assert!(q.error.is_none());
    assert_eq!(
        g.query("1 = 2").expect("query").answers,
        Vec::<String>::new()
    );
    assert!(g.query("foo(").is_err());

    // random play to the end: accounts are +1/-1
    let mut n = 0;
    while !g.is_terminal().expect("terminal") {
        g.random_moves(None).expect("random");
        g.run_chronon().expect("chronon");
        n += 1;
        assert!(n < 20);
    }
    let acc = g.accounts();
    assert_eq!(acc.len(), 2);
    let mut values: Vec<f64> = acc.iter().map(|a| a.value).collect();
    values.sort_by(f64::total_cmp);
    assert_eq!(values, vec![-1.0, 1.0]);

    // a restart
    g.start(5, false).expect("start");
    assert_eq!(g.chronon(), 0);
    assert_eq!(g.view(None).expect("view"), vec!["[alice,10]"]);
}

#[test]
fn random_moves_for_some_players_only() {
    let mut g = Core::new(&nim()).expect("loads");
    g.random_moves(Some(&["[bob]".to_string()]))
        .expect("random");
    assert!(g.pending().is_empty());
    g.random_moves(Some(&["[alice]".to_string()]))
        .expect("random");
    assert_eq!(g.pending().len(), 1);
}

#[test]
fn diagnostics_have_1_based_lines_and_utf16_columns() {
    let src = "game(x).\n% é😀\nfoo('é😀', ) .\n";
    let d = check(src);
    let e = d
        .iter()
        .find(|d| d.severity == "error")
        .unwrap_or_else(|| panic!("an error in {d:?}"));
    assert_eq!(e.line, 3);
    // `foo('é😀', )`: the `)` is at UTF-16 column 12 (é = 1 unit, 😀 = 2)
    assert_eq!(e.column, 12, "{e:?}");
    let line3_start = "game(x).\n% é😀\n".encode_utf16().count() as u32;
    assert_eq!(e.from, line3_start + 11);
    let err = Core::new(src).err().expect("blocked");
    assert!(err.message.starts_with("3:12: error["), "{err}");
    // the loader's diagnostics are among those of check (which adds the analyses' own)
    assert!(err.diagnostics.contains(e), "{err:?}");
    assert!(err.diagnostics.iter().all(|x| d.contains(x)), "{err:?}");
}

#[test]
fn a_good_game_checks_clean() {
    assert!(check(&nim()).iter().all(|d| d.severity != "error"));
}

/// A payoff rule that reaches `create/1` through a helper: it loads, but `check` reports what
/// `sidl check` does: E0301 at the `create/1` call, labelled at the helper's call in `payoff/2`.
const MISPLACED: &str = "game(misplaced).
init([count, 0]).
init([a], 0).
init([b], 0).
legal([main]) :- fact([count, N]), N < 3.
owned([main], [a]).
switch([main], [tick]).
do([tick]) :- fact([count, N]), N1 is N + 1, delete([count, N]), create([count, N1]).
payoff([a], 1) :- bonus.
bonus :- create([bonus]).
";

#[test]
fn check_reports_placement_errors_with_their_labels_and_help() {
    assert!(Core::new(MISPLACED).is_ok(), "the game loads");
    let d = check(MISPLACED);
    let e = d
        .iter()
        .find(|d| d.code == "E0301")
        .unwrap_or_else(|| panic!("E0301 in {d:?}"));
    assert_eq!(e.severity, "error");
    assert_eq!((e.line, e.column), (10, 10), "at create([bonus]): {e:?}");
    assert!(e.message.contains("payoff/2"), "{e:?}");
    assert!(
        e.help.as_deref().unwrap_or("").contains("payoff/2"),
        "{e:?}"
    );
    assert_eq!(e.labels.len(), 1, "{e:?}");
    let l = &e.labels[0];
    assert_eq!(
        (l.line, l.column, l.end_line, l.end_column),
        (9, 19, 9, 24),
        "{l:?}"
    );
    assert_eq!(
        &MISPLACED[l.from as usize..l.to as usize],
        "bonus",
        "the label is the call of the helper"
    );
    assert!(l.message.contains("calls"), "{l:?}");
}

/// `check` is `sidl check`: the engine's `analysis::check`, placed in UTF-16 units, for every shipped
/// game and every analysis test file (codes, severities, messages, spans, labels, help).
#[test]
fn check_is_the_engines_analysis_for_every_game_and_analysis_test() {
    use sidl_engine::diag::{ColumnUnit, LineIndex};
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut files = Vec::new();
    for dir in [
        "games",
        "games/paper",
        "games/econ",
        "tests/analysis",
        "engine/tests/analysis",
        "tests/e2e/fixtures",
    ] {
        let Ok(rd) = std::fs::read_dir(format!("{root}/{dir}")) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "sidl") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut codes = std::collections::BTreeSet::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("read");
        let want = sidl_engine::analysis::check(&src);
        let got = check(&src);
        assert_eq!(got.len(), want.len(), "{}", f.display());
        let index = LineIndex::new(&src);
        let at = |o: u32| {
            let lc = index.line_col(&src, o, ColumnUnit::Utf16);
            (lc.line + 1, lc.col + 1)
        };
        for (g, w) in got.iter().zip(&want) {
            codes.insert(w.code);
            assert_eq!(g.code, w.code, "{}", f.display());
            assert_eq!(g.severity, w.severity.as_str());
            assert_eq!(g.message, w.message);
            assert_eq!(g.help, w.help);
            assert_eq!(
                (g.line, g.column),
                at(w.span.start),
                "{}: {g:?}",
                f.display()
            );
            assert_eq!((g.end_line, g.end_column), at(w.span.end));
            assert_eq!(g.labels.len(), w.labels.len());
            for (gl, wl) in g.labels.iter().zip(&w.labels) {
                assert_eq!(gl.message, wl.message);
                assert_eq!((gl.line, gl.column), at(wl.span.start));
                assert_eq!((gl.end_line, gl.end_column), at(wl.span.end));
            }
        }
    }
    // the analyses beyond loading are there: placement errors, lints, the static §11 warning
    for c in [
        "E0013", "E0101", "E0301", "E0302", "W0401", "W0418", "W0501",
    ] {
        assert!(codes.contains(c), "{c} in {codes:?}");
    }
}

#[test]
fn a_players_view_hides_the_opponents_card() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/kuhn.sidl"))
        .expect("kuhn");
    let mut g = Core::new(&src).expect("loads");
    let sw = g.switches(None).expect("switches");
    assert!(
        sw.iter().any(|s| s.nature),
        "the deal is a chance switch: {sw:?}"
    );
    g.run_chronon().expect("deal");
    let all = g.view(None).expect("view");
    let cards = |v: &[String]| v.iter().filter(|f| f.starts_with("[card,")).count();
    assert_eq!(cards(&all), 2, "{all:?}");
    for p in g.players() {
        let v = g.view(Some(&p)).expect("view");
        assert_eq!(cards(&v), 1, "{p} sees one card: {v:?}");
    }
    assert!(g.view(Some("[nobody]")).is_err());
}

fn game(path: &str) -> String {
    let p = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

#[test]
fn interrupt_mode_runs_a_chronon_per_submission() {
    let mut g = Core::new(&nim()).expect("loads");
    g.start(3, true).expect("start");
    assert!(g.interrupt());
    assert_eq!(g.seed(), 3);
    let r = g.submit("[alice]", "[main]", "[2]").expect("submit");
    assert!(r.ok, "{r:?}");
    let c = r.chronon.expect("the submission ran its chronon");
    assert_eq!(c.chronon, 1);
    assert_eq!(g.chronon(), 1);
    assert!(g.pending().is_empty());
    assert_eq!(g.view(None).expect("view"), vec!["[bob,8]"]);
    // a snapshot keeps the mode
    let snap = g.snapshot();
    g.start(3, false).expect("start");
    assert!(!g.interrupt());
    let r = g.submit("[alice]", "[main]", "[2]").expect("submit");
    assert!(r.ok && r.chronon.is_none());
    assert_eq!(g.chronon(), 0);
    g.restore(&snap).expect("restore");
    assert!(g.interrupt());
    assert_eq!(g.chronon(), 1);
    // random moves: one submission, its chronon returned
    let ran = g.random_moves(None).expect("random");
    assert_eq!(ran.len(), 1);
    assert_eq!(ran[0].chronon, 2);
    assert_eq!(ran[0].submissions[0][0], "[bob]");
    assert_eq!(g.chronon(), 2);
    g.start(3, false).expect("start");
    assert!(g.random_moves(None).expect("random").is_empty());
    assert_eq!(g.pending().len(), 1);
}

#[test]
fn history_lists_every_chronon_as_it_was_returned() {
    let mut g = Core::new(&nim()).expect("loads");
    g.start(11, false).expect("start");
    let mut returned = Vec::new();
    while !g.is_terminal().expect("terminal") {
        g.random_moves(None).expect("random");
        returned.push(g.run_chronon().expect("chronon"));
    }
    assert!(returned.len() >= 3);
    assert!(returned.last().expect("one").terminal);
    assert_eq!(g.history().expect("history"), returned);
    assert!(g.undo());
    returned.pop();
    // the new last chronon is not terminal (the game goes on after it)
    assert_eq!(g.history().expect("history"), returned);
    assert_eq!(g.seed(), 11);
}

#[test]
fn unlimited_switches_list_their_typed_slots() {
    let mut g = Core::new(&game("games/priceNegotiation.sidl")).expect("loads");
    let players = g.players();
    let sw = g.switches(Some(&players[0])).expect("switches");
    let s = sw
        .iter()
        .find(|s| s.unlimited)
        .expect("an unlimited switch");
    assert_eq!(s.actions.len(), s.slots.len());
    let bid = s
        .actions
        .iter()
        .position(|a| a.contains("price"))
        .expect("the bid template");
    let slots: Vec<(&str, &str)> = s.slots[bid]
        .iter()
        .map(|x| (x.name.as_str(), x.ty.as_str()))
        .collect();
    assert_eq!(slots, vec![("price", "double")]);
    let wait = s
        .actions
        .iter()
        .position(|a| a == "[wait]")
        .expect("[wait]");
    assert!(s.slots[wait].is_empty());
    // a filled template is accepted by submit
    let filled = g
        .fill_template(&s.actions[bid], &["100.0".to_string()])
        .expect("fills");
    let r = g.submit(&players[0], &s.switch, &filled).expect("submit");
    assert!(r.ok, "{filled}: {r:?}");
    // finite switches have no slots
    let clock = g.switches(None).expect("switches");
    for s in clock.iter().filter(|s| !s.unlimited) {
        assert!(s.slots.iter().all(Vec::is_empty), "{s:?}");
        assert_eq!(s.slots.len(), s.actions.len());
    }
}

#[test]
fn an_integer_for_a_double_slot_is_the_float_through_submit_and_fill_template() {
    // docs/semantics.md §4.4: the engine's rule, with no WASM copy; the same game as the trace script
    // (tests/trajectories/slots.script) and `sidl play` (cli/tests/it/play.rs)
    let mut g = Core::new(&game("tests/games/slots.sidl")).expect("loads");
    let r = g.submit("[cat]", "[cat]", "[cat, 2]").expect("submit");
    assert!(r.ok, "{r:?}");
    assert_eq!(
        g.pending(),
        vec![["[cat]", "[cat]", "[cat,2.0]"].map(String::from)]
    );
    let c = g.run_chronon().expect("chronon");
    assert_eq!(
        c.submissions,
        vec![["[cat]", "[cat]", "[cat,2.0]"].map(String::from)]
    );
    assert_eq!(g.view(None).expect("view"), vec!["[did,[cat,2.0]]"]);
    assert_eq!(g.accounts()[0].amount, "1", "does/2 held 2.0");
    assert_eq!(
        g.history().expect("history")[0].submissions[0][2],
        "[cat,2.0]"
    );
    // the form's way: fillTemplate then submit gives the same action
    let tpl = "[cat,','(amount,double)]";
    let filled = g.fill_template(tpl, &["3".to_string()]).expect("fills");
    assert_eq!(filled, "[cat,3.0]");
    assert!(g.submit("[cat]", "[cat]", &filled).expect("submit").ok);
    // an integer slot refuses 2.0, through submit and through fillTemplate
    let r = g.submit("[cat]", "[cat]", "[count, 2.0]").expect("submit");
    assert!(!r.ok && r.reason.is_some(), "{r:?}");
    let e = g
        .fill_template("[count,','(n,integer)]", &["2.0".to_string()])
        .expect_err("2.0 is no integer");
    assert!(e.message.contains("2.0 is not an integer"), "{}", e.message);
    // the slots carry the engine's description of their type
    let sw = g.switches(None).expect("switches");
    let descriptions: Vec<&str> = sw[0]
        .slots
        .iter()
        .flatten()
        .map(|s| s.description.as_str())
        .collect();
    assert!(
        descriptions.contains(&"an integer such as 3 (not 3.0)"),
        "{descriptions:?}"
    );
}

#[test]
fn fill_template_cases() {
    let g = Core::new(&nim()).expect("loads");
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fill_template.txt"
    ))
    .expect("data");
    let mut n = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let parts: Vec<&str> = line.split(" | ").map(str::trim).collect();
        assert_eq!(parts.len(), 3, "{line}");
        let values: Vec<String> = if parts[1].is_empty() {
            Vec::new()
        } else {
            parts[1]
                .split(" ; ")
                .map(|v| v.trim().to_string())
                .collect()
        };
        let got = g.fill_template(parts[0], &values);
        if let Some(want) = parts[2].strip_prefix("=> ") {
            assert_eq!(
                got.as_deref().map_err(|e| e.to_string()),
                Ok(want),
                "{line}"
            );
        } else if let Some(want) = parts[2].strip_prefix("!> ") {
            let e = got.expect_err(line);
            assert!(e.message.contains(want), "{line}: got {:?}", e.message);
        } else {
            panic!("bad expectation: {line}");
        }
        n += 1;
    }
    assert!(n >= 10);
}

/// A game whose legal/1 never ends (`spin/1` recurses forever).
const RUNAWAY: &str = "game(runaway).\n\
init([n, 0]).\n\
init([p], 0).\n\
legal([s]) :- fact([n, 0]), spin(0).\n\
owned([s], [p]).\n\
switch([s], [a]).\n\
/* é😀 */ spin(N) :- M is N + 1, spin(M).\n";

/// A game whose `do/1` calls a helper that throws.
const FAULTY: &str = "game(faulty).\n\
init([n, 0]).\n\
init([p], 0).\n\
legal([s]) :- fact([n, 0]).\n\
owned([s], [p]).\n\
switch([s], [a]).\n\
default([s], [a]).\n\
do([a]) :- bad(X), create([x, X]).\n\
bad(X) :- X is foo + 1, X > 0.\n";

#[test]
fn budget_errors_name_the_clause_and_the_call_path() {
    let mut g = Core::new(RUNAWAY).expect("loads");
    g.set_limits(&LimitsDto {
        inferences: Some(20_000),
        ..LimitsDto::default()
    })
    .expect("limits");
    let e = g.switches(None).expect_err("runs away");
    assert!(e.message.contains("inference"), "{e}");
    let loc = e.location.expect("a location");
    assert_eq!(loc.code, "E0910", "the inference budget");
    assert_eq!(loc.severity, "error");
    assert!(e.message.starts_with(&loc.message), "{loc:?}");
    assert!(
        loc.help.as_deref().unwrap_or("").contains("budget"),
        "{loc:?}"
    );
    // `/* é😀 */ ` is 10 UTF-16 units
    assert_eq!((loc.line, loc.column), (Some(7), Some(11)), "{loc:?}");
    assert_eq!(loc.end_line, Some(7));
    // the innermost user predicate (tail calls leave no frame for legal/1 here)
    assert_eq!(loc.path.last().map(String::as_str), Some("spin/1"));
    // the same error from a chronon and from a query
    assert!(g.run_chronon().expect_err("runs away").location.is_some());
    let q = g.query("spin(1)").expect("query");
    assert!(q.answers.is_empty());
    assert!(q.error.as_deref().unwrap_or("").contains("inference"));
    assert_eq!(
        q.location.map(|l| (l.code, l.line, l.path)),
        Some(("E0910".to_string(), Some(7), vec!["spin/1".to_string()]))
    );
}

#[test]
fn runtime_errors_name_the_clause() {
    let mut g = Core::new(FAULTY).expect("loads");
    let e = g.run_chronon().expect_err("do/1 throws");
    let loc = e.location.expect("a location");
    assert_eq!(loc.code, "E0921", "a type error");
    assert_eq!(
        (loc.line, loc.column, loc.end_line),
        (Some(9), Some(1), Some(9))
    );
    assert_eq!(loc.path, vec!["do/1", "bad/1"]);
    // the caller's clause is a label of the diagnostic
    assert_eq!(loc.labels.len(), 1, "{loc:?}");
    assert_eq!(loc.labels[0].line, 8);
    assert_eq!(loc.labels[0].message, "`do/1` calls `bad/1`");
    assert!(
        e.message.contains("call path: do/1 → bad/1"),
        "{}",
        e.message
    );
    assert_eq!(g.chronon(), 0, "the state is untouched");
    let q = g.query("bad(X)").expect("query");
    let loc = q.location.expect("a location");
    assert_eq!(loc.code, "E0921");
    assert_eq!(
        (loc.line, loc.column, loc.end_line),
        (Some(9), Some(1), Some(9))
    );
    assert_eq!(loc.path, vec!["bad/1"]);
    assert!(q.error.unwrap_or_default().contains("foo"));
    // an error inside a built-in called by the goal itself is not in the game source
    let q = g.query("atom_length(X, Y)").expect("query");
    let loc = q.location.expect("a diagnostic");
    assert_eq!(loc.code, "E0920", "an instantiation error");
    assert_eq!((loc.line, loc.from), (None, None), "{loc:?}");
    assert!(q.error.is_some());
}

#[test]
fn check_hidden_finds_the_leak_and_reports_progress() {
    let g = Core::new(&game("tests/analysis/kuhn_leaky.sidl")).expect("loads");
    let mut seen = Vec::new();
    let r = g
        .check_hidden(2000, &mut |p| seen.push(p.clone()))
        .expect("explores");
    assert!(!r.consistent, "{r:?}");
    let c = r.counterexample.expect("a counterexample");
    assert_eq!(c.player, "[p2]");
    assert_eq!(c.switch, "[p2]");
    assert!(c.description.contains("cannot tell two states apart"));
    assert!(
        c.steps.iter().any(|s| s.starts_with("first: chronon 1")),
        "{:?}",
        c.steps
    );
    assert!(
        c.steps.iter().any(|s| s.starts_with("second: chronon 1")),
        "{:?}",
        c.steps
    );
    assert!(r.message.contains("violation"));
    let last = seen.last().expect("progress");
    assert_eq!(last.phase, "done");
    assert_eq!(last.states, r.states);

    let g = Core::new(&game("games/kuhn.sidl")).expect("loads");
    let r = g.check_hidden(2000, &mut |_| {}).expect("explores");
    assert!(r.consistent && r.complete, "{r:?}");
    assert!(r.counterexample.is_none());
    assert!(
        r.message.contains("no Def.1 §11 violation"),
        "{}",
        r.message
    );
    // the budget is the most states visited
    let reachable = r.states;
    for n in [0, 1, 5, reachable - 1, reachable] {
        let r = g.check_hidden(n, &mut |_| {}).expect("explores");
        assert_eq!((r.states, r.complete), (n, n == reachable), "budget {n}");
    }
}

#[test]
fn keywords_cover_the_engines_lists_with_docs() {
    use sidl_engine::analysis::placement::{BODY_KEYWORDS, HEAD_KEYWORDS};
    let k = keywords();
    assert_eq!(k.len(), HEAD_KEYWORDS.len() + BODY_KEYWORDS.len());
    for (list, pos) in [(HEAD_KEYWORDS, "head"), (BODY_KEYWORDS, "body")] {
        for (name, arity) in list {
            let e = k
                .iter()
                .find(|e| e.name == name.name() && e.arity == *arity)
                .unwrap_or_else(|| panic!("{}/{arity} missing", name.name()));
            assert_eq!(e.position, pos);
            assert!(
                e.doc.starts_with(&format!("{}(", name.name())),
                "{}/{arity}: {:?}",
                name.name(),
                e.doc
            );
        }
    }
}

#[test]
fn trace_prints_the_expected_trajectory() {
    let g = Core::new(&nim()).expect("loads");
    let script = game("tests/trajectories/nim.script");
    let want = game("tests/trajectories/nim.trace.jsonl");
    assert_eq!(g.trace(Some(&script), 0, 1000).expect("trace"), want);
    // random play: the first line is the initial state, at most 1 + max chronons lines
    let random = g.trace(None, 5, 2).expect("trace");
    assert_eq!(random.lines().next(), want.lines().next());
    assert_eq!(random.lines().count(), 3);
    assert!(g.trace(Some("submit(["), 0, 10).is_err());
}

#[test]
fn bad_seeds_and_limits_leave_the_session_alone() {
    let mut g = Core::new(RUNAWAY).expect("loads");
    // under a tiny budget the history does not replay... there is none yet, so this succeeds
    g.set_limits(&LimitsDto {
        frames: Some(1000),
        ..LimitsDto::default()
    })
    .expect("limits");
    let mut g2 = Core::new(&nim()).expect("loads");
    g2.random_moves(None).expect("random");
    g2.run_chronon().expect("chronon");
    let e = g2
        .set_limits(&LimitsDto {
            inferences: Some(1),
            ..LimitsDto::default()
        })
        .expect_err("the history does not replay in one inference");
    assert!(e.message.contains("inference"), "{e}");
    assert_eq!(g2.chronon(), 1);
    g2.run_chronon().expect("the old budgets still apply");
}

#[test]
fn ai_moves_submit_the_ais_choice() {
    let mut g = Core::new(&nim()).expect("loads");
    g.submit("[alice]", "[main]", "[3]").expect("submit");
    g.run_chronon().expect("chronon");
    // bob at 7: taking 2 leaves 5 (≡ 1 mod 4), a lost position for alice; minimax sees it
    assert!(g.ai_moves("[bob]", "minimax:8", 1).expect("ai").is_empty());
    assert_eq!(
        g.pending(),
        vec![["[bob]".to_string(), "[main]".into(), "[2]".into()]]
    );
    // random and mcts choose legal moves, the same for the same seed
    for spec in ["random", "mcts:50"] {
        let mut picks = Vec::new();
        for _ in 0..2 {
            g.undo();
            g.submit("[alice]", "[main]", "[3]").expect("submit");
            g.run_chronon().expect("chronon");
            g.ai_moves("[bob]", spec, 9).expect("ai");
            let p = g.pending();
            assert_eq!(p.len(), 1, "{spec}");
            assert!(
                ["[1]", "[2]", "[3]"].contains(&p[0][2].as_str()),
                "{spec}: {p:?}"
            );
            picks.push(p[0][2].clone());
        }
        assert_eq!(picks[0], picks[1], "{spec}");
    }
    // a player with nothing to choose submits nothing
    g.ai_moves("[alice]", "random", 1).expect("ai");
    assert_eq!(g.pending().len(), 1);
    // bad specs and players are errors
    let e = g.ai_moves("[bob]", "minimax", 1).expect_err("no depth");
    assert!(e.message.contains("minimax:DEPTH"), "{e}");
    assert!(g.ai_moves("[bob]", "alphabeta:2", 1).is_err());
    assert!(g.ai_moves("[carol]", "random", 1).is_err());
    let e = g
        .ai_moves("[bob]", "minimax:2:greedy", 1)
        .expect_err("no such objective");
    assert!(e.message.contains("relative"), "{e}");
    // interrupt mode: one move, its chronon returned
    g.start(1, true).expect("start");
    let ran = g.ai_moves("[alice]", "minimax:10", 1).expect("ai");
    assert_eq!(ran.len(), 1);
    assert_eq!(
        ran[0].submissions[0][2], "[1]",
        "from 10 the winning move leaves 9"
    );
}

/// The objectives as the CLI writes them: in the ultimatum game, `own` seats play the
/// subgame-perfect offer (1 of 5), `relative` ones offer nothing.
#[test]
fn ai_moves_take_an_objective() {
    let src = game_file("games/ultimatum.sidl");
    for (spec, offer) in [
        ("minimax:2", "[offer,1]"),
        ("minimax:2:own", "[offer,1]"),
        ("minimax:2:relative", "[offer,0]"),
    ] {
        let mut g = Core::new(&src).expect("loads");
        g.ai_moves("[proposer]", spec, 1).expect(spec);
        assert_eq!(
            g.pending(),
            vec![["[proposer]".to_string(), "[offer]".into(), offer.into()]],
            "{spec}"
        );
    }
}

fn game_file(rel: &str) -> String {
    std::fs::read_to_string(format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))).expect(rel)
}

/// A one-player game whose only switch is unlimited (integer slot), without `candidate/2` unless
/// `with_candidates`.
fn typed(with_candidates: bool) -> String {
    let mut src = String::from(
        "game(typed).\ninit([total, 0]).\ninit([solo], 0).\n\
         legal([main]) :- fact([total, N]), N < 100.\nowned([main], [solo]).\n\
         unlimited([main], [add, (n, integer)]).\n\
         switch([main], [add, N]) :- integer(N), N > 0, N < 50.\n\
         do([add, N]) :- fact([total, T]), T1 is T + N, delete([total, T]), create([total, T1]).\n",
    );
    if with_candidates {
        // 50..60 are refused by switch/2: the random seat draws again
        src.push_str("candidate([main], [add, N]) :- between(1, 60, N).\n");
    }
    src
}

#[test]
fn random_and_ai_moves_fill_unlimited_switches_from_candidate() {
    // priceNegotiation's candidate/2: wait, or a raise within the bidder's own valuation
    let mut g = Core::new(&game_file("games/priceNegotiation.sidl")).expect("loads");
    g.start(1, false).expect("start");
    g.random_moves(None).expect("random");
    let pending = g.pending();
    assert_eq!(pending.len(), 4, "every bidder chose: {pending:?}");
    for [p, sw, a] in &pending {
        assert_eq!(p, sw);
        let bidder = &p[1..p.len() - 1];
        assert!(
            a == "[wait]" || a.starts_with(&format!("[{bidder},")),
            "{p}: {a}"
        );
    }
    let mut bids = 0;
    for _ in 0..30 {
        if g.is_terminal().expect("terminal") {
            break;
        }
        g.random_moves(None).expect("random");
        bids += g.pending().iter().filter(|s| s[2] != "[wait]").count();
        g.run_chronon().expect("chronon");
    }
    assert!(g.is_terminal().expect("terminal"));
    assert!(bids > 0, "random seats bid");
    // an AI seat gets candidate/2's actions too
    for spec in ["random", "minimax:1", "mcts:20"] {
        let mut g = Core::new(&game_file("games/priceNegotiation.sidl")).expect("loads");
        g.ai_moves("[bob]", spec, 3).expect("ai");
        let p = g.pending();
        assert_eq!(p.len(), 1, "{spec}: {p:?}");
        assert!(
            p[0][2] == "[wait]" || p[0][2].starts_with("[bob,"),
            "{spec}: {p:?}"
        );
    }
    // refused candidates are drawn again, so the random seat always acts here
    let mut g = Core::new(&typed(true)).expect("loads");
    for _ in 0..20 {
        g.random_moves(None).expect("random");
        let p = g.pending();
        assert_eq!(p.len(), 1, "{p:?}");
        let n: i64 = p[0][2]
            .trim_start_matches("[add,")
            .trim_end_matches(']')
            .parse()
            .expect("n");
        assert!((1..50).contains(&n), "{p:?}");
        g.run_chronon().expect("chronon");
        if g.is_terminal().expect("terminal") {
            break;
        }
    }
    assert!(g.is_terminal().expect("terminal"));
}

#[test]
fn idle_says_why_no_seat_can_act() {
    let random = [["[solo]".to_string(), "random".to_string()]];
    for interrupt in [false, true] {
        let mut g = Core::new(&typed(false)).expect("loads");
        g.start(0, interrupt).expect("start");
        assert!(g.random_moves(None).expect("random").is_empty());
        assert!(g.pending().is_empty());
        let why = g.idle(&random, 0).expect("idle").expect("no seat can act");
        assert!(why.starts_with("no seat can act at chronon 1"), "{why}");
        assert!(why.contains("switch [main] of [solo] (random)"), "{why}");
        assert!(why.contains("no candidate/2"), "{why}");
        let rule = if interrupt {
            "interrupt mode has no defaults"
        } else {
            "no default/2 action"
        };
        assert!(why.contains(rule), "{why}");
        // a human seat can always act; an unnamed player is human
        assert_eq!(g.idle(&[], 0).expect("idle"), None);
        // with candidate/2 the random seat acts
        let mut g = Core::new(&typed(true)).expect("loads");
        g.start(0, interrupt).expect("start");
        let ran = g.random_moves(None).expect("random");
        assert_eq!(ran.len(), usize::from(interrupt));
        assert_eq!(g.idle(&random, 1).expect("idle"), None);
    }
    // a game with a default or a chance switch always has something to do
    let mut g = Core::new(&game_file("games/priceNegotiation.sidl")).expect("loads");
    assert_eq!(
        g.idle(&[["[alice]".into(), "mcts:5".into()]], 0)
            .expect("idle"),
        None
    );
    assert!(g.idle(&[["[zoe]".into(), "random".into()]], 0).is_err());
    assert!(g
        .idle(&[["[alice]".into(), "alphabeta".into()]], 0)
        .is_err());
}

/// The source text of a 1-based line/column range (columns in UTF-16 code units).
fn range_text(src: &str, r: &sidl_engine::game::why::RangeJson) -> String {
    let offset = |line: u32, col: u32| -> usize {
        let start: usize = src
            .split_inclusive('\n')
            .take(line as usize - 1)
            .map(str::len)
            .sum();
        let mut units = 0;
        for (i, ch) in src[start..].char_indices() {
            if units >= col as usize - 1 {
                return start + i;
            }
            units += ch.len_utf16();
        }
        src.len()
    };
    src[offset(r.start_line, r.start_column)..offset(r.end_line, r.end_column)].to_string()
}

/// The cases of `wasm/tests/data/why.txt` (format in its header).
#[test]
fn why_answers_the_cases() {
    use sidl_engine::game::why::NodeJson;
    use sidl_wasm::core::WhyQuestionDto;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let cases = std::fs::read_to_string(format!("{dir}why.txt")).expect("cases");
    let mut core: Option<(Core, String)> = None;
    let mut answer = None;
    let mut checked = 0;
    for (no, line) in cases.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let at = format!("why.txt:{}: {line}", no + 1);
        match cmd {
            "game" => {
                let src = std::fs::read_to_string(format!("{dir}{rest}")).expect("game");
                core = Some((Core::new(&src).expect("loads"), src));
            }
            "submit" => {
                let p: Vec<&str> = rest.split(" | ").collect();
                let r = core
                    .as_mut()
                    .expect("game")
                    .0
                    .submit(p[0], p[1], p[2])
                    .expect(&at);
                assert!(r.ok, "{at}: {:?}", r.reason);
            }
            "chronon" => {
                core.as_mut().expect("game").0.run_chronon().expect(&at);
            }
            "why" => {
                let mut q = WhyQuestionDto::default();
                for kv in rest.split(" | ") {
                    let (k, v) = kv.split_once('=').expect("key=value");
                    if k == "kind" {
                        q.kind = v.to_string();
                        continue;
                    }
                    let v = Some(v.to_string());
                    match k {
                        "switch" => q.switch = v,
                        "action" => q.action = v,
                        "player" => q.player = v,
                        "fact" => q.fact = v,
                        "viewer" => q.viewer = v,
                        "chronon" => q.chronon = v.and_then(|c| c.parse().ok()),
                        other => panic!("{at}: unknown key {other}"),
                    }
                }
                answer = Some(core.as_mut().expect("game").0.why(&q).expect(&at));
            }
            expectation => {
                let a = answer.as_ref().expect("a why line first");
                let src = &core.as_ref().expect("game").1;
                match expectation {
                    "holds" => assert_eq!(a.holds.to_string(), rest, "{at}\n{}", a.text),
                    "summary" => assert!(a.summary.contains(rest), "{at}\n{}", a.summary),
                    "text" => assert!(a.text.contains(rest), "{at}\n{}", a.text),
                    "nodes" => assert_eq!(a.nodes.len().to_string(), rest, "{at}\n{}", a.text),
                    "failing" => {
                        let mut found = Vec::new();
                        let mut stack: Vec<&NodeJson> = a.nodes.iter().collect();
                        while let Some(n) = stack.pop() {
                            let failing = n
                                .note
                                .as_deref()
                                .is_some_and(|x| x.starts_with("first failing goal"));
                            if let (true, Some(r)) = (failing, &n.clause) {
                                found.push(range_text(src, r));
                            }
                            stack.extend(n.children.iter());
                        }
                        assert!(
                            found.iter().any(|f| f == rest),
                            "{at}: {found:?}\n{}",
                            a.text
                        );
                    }
                    other => panic!("{at}: unknown line {other}"),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} expectations checked");
}

/// The query console follows the placement table (docs/reference.md, "Placement at run time"): a
/// head keyword's goal its row, any other goal `player/1` and `fact/1`; E0946 otherwise.
#[test]
fn queries_follow_the_placement_table() {
    let src = "game(g).\ninit([x]).\ninit([p], 0).\nlegal([a]) :- fact([x]).\nswitch([a], [go]).\nowned([a], [p]).\ndo([go]) :- make([y]).\nmake(W) :- create(W).\n";
    let mut g = Core::new(src).expect("loads");
    // do/1 may create: the query succeeds (and changes nothing)
    assert_eq!(g.query("do([go])").expect("query").answers, vec!["true."]);
    assert_eq!(g.query("fact(F)").expect("query").answers, vec!["F = [x]."]);
    // the same helper outside do/1 may not
    let q = g.query("make([y])").expect("query");
    assert!(q.answers.is_empty());
    let loc = q.location.expect("a location");
    assert_eq!((loc.code.as_str(), loc.line), ("E0946", Some(8)), "{loc:?}");
    assert!(q
        .error
        .unwrap_or_default()
        .contains("`create/1` cannot be used"));
    assert_eq!(g.view(None).expect("view"), vec!["[x]"]);
}

// --- one policy, in the engine: the DTOs only convert -----------------------------------------

/// The string unions of `types.d.ts` (what the generated `sidl_wasm.d.ts` declares) are exactly
/// the Rust enums that cross, and those are the engine's.
#[test]
fn ts_unions_match_the_rust_enums() {
    use sidl_engine::game::events;
    use sidl_engine::game::session::{ActionSource, SLOT_TYPES};
    use sidl_engine::game::why::{Outcome, Question};
    use sidl_engine::ide::keywords;
    use sidl_wasm::dto::{
        ActionHow, EventKind, HiddenPhase, KeywordPosition, Severity, SlotType, TS_TYPES,
    };
    use std::collections::BTreeMap;

    // `export type Name = "a" | "b";`
    let mut unions: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut templates: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for line in TS_TYPES.lines() {
        let Some(rest) = line.strip_prefix("export type ") else {
            continue;
        };
        let (name, body) = rest.split_once(" = ").expect("export type Name = ...");
        if matches!(name, "AiSpec" | "SeatKind") {
            templates.insert(name, body.trim_end_matches(';').split(" | ").collect());
            continue;
        }
        let values = body
            .trim_end_matches(';')
            .split(" | ")
            .map(|v| {
                v.strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or_else(|| panic!("{name}: {v} is not a string literal"))
                    .to_string()
            })
            .collect();
        unions.insert(name, values);
    }
    let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let rust: BTreeMap<&str, Vec<String>> = BTreeMap::from([
        (
            "Severity",
            Severity::ALL.iter().map(|v| v.to_string()).collect(),
        ),
        (
            "EventKind",
            EventKind::ALL.iter().map(|v| v.to_string()).collect(),
        ),
        (
            "ActionHow",
            ActionHow::ALL.iter().map(|v| v.to_string()).collect(),
        ),
        (
            "KeywordPosition",
            KeywordPosition::ALL.iter().map(|v| v.to_string()).collect(),
        ),
        (
            "HiddenPhase",
            HiddenPhase::ALL.iter().map(|v| v.to_string()).collect(),
        ),
        (
            "SlotType",
            SlotType::ALL.iter().map(|v| v.to_string()).collect(),
        ),
        (
            "WhyOutcome",
            Outcome::ALL
                .iter()
                .map(|v| v.as_str().to_string())
                .collect(),
        ),
        ("WhyKind", strs(Question::KINDS)),
        (
            "AiObjective",
            sidl_engine::ai::Objective::ALL
                .iter()
                .map(|o| o.name().to_string())
                .collect(),
        ),
    ]);
    assert_eq!(unions, rust, "types.d.ts and the Rust enums disagree");
    // the DTO enums are the engine's, value for value
    let engine: Vec<String> = events::EventKind::ALL
        .iter()
        .map(|k| k.as_str().into())
        .collect();
    let dto: Vec<String> = events::EventKind::ALL
        .iter()
        .map(|&k| EventKind::from(k).to_string())
        .collect();
    assert_eq!(dto, engine);
    for h in ActionSource::ALL {
        assert_eq!(ActionHow::from(h), h.as_str());
    }
    for p in keywords::Position::ALL {
        assert_eq!(KeywordPosition::from(p), p.as_str());
    }
    assert_eq!(rust["SlotType"], strs(SLOT_TYPES));
    // every value serialises as its string
    for s in Severity::ALL {
        assert_eq!(
            serde_json::to_string(s).expect("serialises"),
            format!("\"{s}\"")
        );
    }
    // no field falls back to any string
    assert!(!TS_TYPES.contains("| string"), "a union widened to string");

    // AiSpec and SeatKind: every text the types allow is one the engine reads, and every kind the
    // engine reads has a form in the types
    let expand = |alt: &str| -> Vec<String> {
        let alt = alt.trim_matches(['"', '`']).replace("${number}", "3");
        if alt.contains("${AiObjective}") {
            unions["AiObjective"]
                .iter()
                .map(|o| alt.replace("${AiObjective}", o))
                .collect()
        } else {
            vec![alt]
        }
    };
    let ai: Vec<String> = templates["AiSpec"].iter().flat_map(|a| expand(a)).collect();
    for text in &ai {
        sidl_engine::ai::AiSpec::parse(text).unwrap_or_else(|e| panic!("AiSpec {text}: {e}"));
    }
    assert_eq!(templates["SeatKind"], ["\"human\"", "AiSpec"]);
    let mut seats: Vec<String> = vec!["human".into()];
    seats.extend(ai.iter().cloned());
    for text in &seats {
        sidl_engine::seats::Seat::parse(text).unwrap_or_else(|e| panic!("SeatKind {text}: {e}"));
    }
    for kind in sidl_engine::seats::KINDS {
        let head = kind.split(':').next().unwrap_or_default();
        assert!(
            seats.iter().any(|s| s.split(':').next() == Some(head)),
            "the engine's seat kind {kind} is not in SeatKind"
        );
    }
}

/// The snapshot's JSON lives here, not in the engine: the same fields, and a text that is no
/// snapshot is the engine's replay error E0944.
#[test]
fn snapshots_cross_as_json_and_restore() {
    let mut g = Core::new(&nim()).expect("loads");
    g.submit("[alice]", "[main]", "[3]").expect("submit");
    g.run_chronon().expect("chronon");
    g.submit("[bob]", "[main]", "[1]").expect("submit");
    let snap = g.snapshot();
    assert_eq!(
        snap,
        r#"{"seed":1,"interrupt":false,"chronons":[{"submissions":[["[alice]","[main]","[3]"]],"overrides":[]}],"pending":[["[bob]","[main]","[1]"]]}"#
    );
    let mut h = Core::new(&nim()).expect("loads");
    h.restore(&snap).expect("restores");
    assert_eq!(h.snapshot(), snap);
    assert_eq!(h.view(None).expect("view"), g.view(None).expect("view"));
    let e = h.restore("{").expect_err("not a snapshot");
    assert!(
        e.message.starts_with("not a session snapshot: "),
        "{}",
        e.message
    );
    assert_eq!(e.location.expect("diagnostic").code, "E0944");
}

/// Events, accounts and keywords are the engine's: a second copy in the adapter would drift from
/// these.
#[test]
fn events_accounts_and_keywords_are_the_engines() {
    use sidl_engine::game::events::Notation;
    use sidl_engine::game::{account_value, Game, Session, Settings};
    use sidl_engine::write::writeq;
    use std::sync::Arc;

    let src = game("games/kuhn.sidl");
    let mut g = Core::new(&src).expect("loads");
    g.start(3, false).expect("starts");
    let mut s = Session::new(
        Arc::new(Game::load(&src).expect("loads").0),
        3,
        Settings::default(),
    )
    .expect("starts");
    while !g.is_terminal().expect("terminal") {
        g.random_moves(None).expect("random");
        let c = g.run_chronon().expect("chronon");
        sidl_engine::seats::random_moves(&mut s, None, true, false).expect("random");
        s.run_chronon().expect("chronon");
        let rec = s.history().last().expect("a chronon").clone();
        let texts: Vec<&str> = c.events.iter().map(|e| e.text.as_str()).collect();
        let engine: Vec<String> = rec
            .events
            .iter()
            .map(|e| e.text(Notation::Canonical))
            .collect();
        assert_eq!(texts, engine);
        for (dto, e) in c.events.iter().zip(&rec.events) {
            assert_eq!(dto.kind, e.kind().as_str());
        }
        assert_eq!(c.player_events.len(), rec.player_events.len());
        for i in 0..rec.player_events.len() {
            let theirs: Vec<String> = rec
                .events_of(i)
                .map(|e| e.text(Notation::Canonical))
                .collect();
            let mine: Vec<&str> = c.events_of(i).iter().map(|e| e.text.as_str()).collect();
            assert_eq!(mine, theirs);
        }
    }
    let accounts = g.accounts();
    assert_eq!(accounts.len(), s.accounts().len());
    for (dto, (p, a)) in accounts.iter().zip(s.accounts()) {
        assert_eq!(dto.player, writeq(&p, None));
        assert_eq!(dto.value, account_value(&a));
    }
    assert_eq!(
        g.accounts().iter().map(|a| a.value).collect::<Vec<_>>(),
        s.state().account_values()
    );
    for (k, (key, pos, doc)) in keywords().iter().zip(sidl_engine::ide::keywords::listing()) {
        assert_eq!((k.name.as_str(), k.arity), (key.0.name(), key.1));
        assert_eq!(k.position, pos.as_str());
        assert_eq!(k.doc, doc.text());
    }
}

/// The §11 report's summary and counterexample steps are the engine's (the language server shows
/// the same line): `ExploreReport::summary`, `Violation::steps`.
#[test]
fn hidden_report_is_the_engines() {
    use sidl_engine::analysis::hidden_dynamic::{explore, ExploreOptions};
    use sidl_engine::game::{Game, Settings};
    use std::sync::Arc;

    for (path, max) in [
        ("tests/analysis/kuhn_leaky.sidl", 2000),
        ("games/kuhn.sidl", 10),
    ] {
        let src = game(path);
        let r = Core::new(&src)
            .expect("loads")
            .check_hidden(max, &mut |_| {})
            .expect("explores");
        let opts = ExploreOptions {
            max_states: max,
            seed: 1,
            settings: Settings::default(),
            ..ExploreOptions::default()
        };
        let e = explore(
            Arc::new(Game::load(&src).expect("loads").0),
            &opts,
            &mut |_| {},
        )
        .expect("explores");
        assert_eq!(
            r.message.lines().next(),
            Some(e.summary().as_str()),
            "{path}"
        );
        assert_eq!(
            r.counterexample.map(|c| c.steps),
            e.violations.first().map(|v| v.steps()),
            "{path}"
        );
    }
}

/// `bench` is `sidl bench`'s loop: random games back to back with seeds `seed`, `seed + 1`, ...,
/// each the game `sidl trace --seed` plays, until the chronons asked for have run.
#[test]
fn bench_plays_the_random_games_of_trace_back_to_back() {
    let g = Core::new(&nim()).expect("loads");
    // the length in chronons of the random game with this seed, from its trace (one line per state)
    let length = |seed: u64| g.trace(None, seed, 1000).expect("trace").lines().count() as u64 - 1;
    let (l3, l4) = (length(3), length(4));
    assert!(l3 > 0 && l4 > 0);
    let two = g.bench(l3 + l4, 3).expect("bench");
    assert_eq!((two.chronons, two.games), (l3 + l4, 2));
    let three = g.bench(l3 + l4 + 1, 3).expect("bench");
    assert_eq!((three.chronons, three.games), (l3 + l4 + 1, 3));
    assert_eq!(g.chronon(), 0, "the session is left as it was");
}

/// The Statistics panel's API (`wasm/src/stats.rs`).
#[path = "core/stats.rs"]
mod stats;
/// The numbers and values of the API loop's calls (`wasm/src/core/wire.rs`).
#[path = "core/wire.rs"]
mod wire;
// ---- the Analyse panel (wasm/src/analyse.rs) ----
// (the feature `analyse`, on by default; the playground's page build leaves it out)
#[cfg(feature = "analyse")]
mod analyse_panel {
    use super::*;

    fn analysis(
        path: &str,
        opts: sidl_wasm::analyse::AnalyseOptionsDto,
    ) -> Result<sidl_wasm::analyse::AnalysisCore, sidl_wasm::core::CoreError> {
        let core = Core::new(&game(path)).unwrap();
        sidl_wasm::analyse::AnalysisCore::new(&core, &opts, &mut |_| {})
    }

    #[test]
    fn analyse_kuhn_exactly_with_the_lp() {
        let mut a = analysis("games/kuhn.sidl", Default::default()).unwrap();
        let r = a.result().unwrap();
        assert_eq!((r.nodes, r.infosets, r.method.as_str()), (55, 12, "lp"));
        assert!(r.exact && r.zero_sum && r.iterations.is_none());
        assert_eq!(r.values[0].player, "[p1]");
        assert_eq!(r.values[0].exact.as_deref(), Some("-1/18"));
        assert!(r.nash_conv.abs() < 1e-9);
        assert_eq!(r.strategies.len(), 12);
        assert_eq!(r.note, None);
        // kuhn's labels (games/kuhn.sidl) name what the player has seen; `raw` keeps the terms
        let s = &r.strategies[0];
        assert!(s.raw.starts_with("[card,p1,"), "{}", s.raw);
        assert!(s.label.starts_with("Player 1 holds the "), "{}", s.label);
        assert_eq!(s.actions[0].action, "[p1,check]");
        assert_eq!(s.actions[0].label, "Player 1 checks");
        // the .efg is sidl export --efg's
        let core = Core::new(&game("games/kuhn.sidl")).unwrap();
        let tree = sidl_engine::analysis::extensive::build(
            core.game().clone(),
            sidl_engine::analysis::extensive::BuildLimits::default(),
        )
        .unwrap();
        assert_eq!(
            a.efg(),
            sidl_engine::analysis::extensive::efg::to_efg(&tree)
        );
    }

    #[test]
    fn analyse_says_which_unlimited_switches_candidates_discretise() {
        let mut a = analysis("games/econ/trust.sidl", Default::default()).unwrap();
        let r = a.result().unwrap();
        assert_eq!(
            r.note.as_deref(),
            Some("the unlimited switches the return, the transfer take their actions from candidate/2: this is the analysis of the game so discretised")
        );
    }

    #[test]
    fn analyse_in_steps_with_cfr_and_exploit_a_seat() {
        let opts = sidl_wasm::analyse::AnalyseOptionsDto {
            method: Some("cfr".into()),
            iterations: Some(2000.0),
            max_nodes: None,
        };
        let mut a = analysis("games/kuhn.sidl", opts).unwrap();
        let mut p = a.progress();
        assert_eq!((p.done, p.total, p.finished), (0, 2000, false));
        while !p.finished {
            p = a.step(300).unwrap();
        }
        let r = a.result().unwrap();
        assert_eq!((r.method.as_str(), r.iterations), ("cfr+", Some(2000)));
        assert!(
            (r.values[0].value + 1.0 / 18.0).abs() < 1e-3,
            "{}",
            r.values[0].value
        );
        assert!(r.nash_conv < 1e-2);
        let seats = [
            ["[p1]".to_string(), "minimax:2".to_string()],
            ["[p2]".to_string(), "human".to_string()],
        ];
        let x = a.exploit(&seats).unwrap();
        assert_eq!(x.len(), 1);
        assert_eq!(
            (x[0].player.as_str(), x[0].spec.as_str()),
            ("[p1]", "minimax:2")
        );
        assert_eq!(x[0].responses[0].player, "[p2]");
        assert!(x[0].gain >= -1e-9 && x[0].gain == x[0].responses[0].gain);
    }

    #[test]
    fn analyse_errors_are_the_engines_diagnostics() {
        let small = sidl_wasm::analyse::AnalyseOptionsDto {
            max_nodes: Some(100.0),
            ..Default::default()
        };
        // far over the budget: the estimate stops it before the build
        let e = analysis("games/leduc.sidl", small).err().unwrap();
        let loc = e.location.expect("a diagnostic");
        assert_eq!(loc.code, "E0960");
        assert!(
            e.message.contains("more than the node budget of 100"),
            "{}",
            e.message
        );
        // near the budget (leduc has 9 451 nodes): the build itself stops at it
        let near = sidl_wasm::analyse::AnalyseOptionsDto {
            max_nodes: Some(9000.0),
            ..Default::default()
        };
        let e = analysis("games/leduc.sidl", near).err().unwrap();
        assert_eq!(e.location.expect("a diagnostic").code, "E0960");
        assert!(e.message.contains("more than 9000 nodes"), "{}", e.message);
        let e = analysis("engine/tests/extensive/unlimited.sidl", Default::default())
            .err()
            .unwrap();
        assert_eq!(e.location.unwrap().code, "E0961");
        let e = analysis("engine/tests/extensive/no_payoff.sidl", Default::default())
            .err()
            .unwrap();
        assert_eq!(e.location.unwrap().code, "E0962");
        let bad = sidl_wasm::analyse::AnalyseOptionsDto {
            method: Some("simplex".into()),
            ..Default::default()
        };
        let e = analysis("games/kuhn.sidl", bad).err().unwrap();
        assert!(e.message.contains("unknown method"));
    }

    #[test]
    fn analyse_shows_the_games_labels() {
        let mut a = analysis("games/ultimatum.sidl", Default::default()).unwrap();
        let r = a.result().unwrap();
        assert_eq!(r.values[0].name, "Proposer");
        let resp = r
            .strategies
            .iter()
            .find(|s| s.player == "[responder]")
            .unwrap();
        assert!(resp.label.contains("the offer is"), "{}", resp.label);
        assert_eq!(resp.actions[0].label, "accept");
        assert_eq!(resp.actions[0].action, "[accept]");
    }
}

#[test]
fn labels_are_one_viewers_texts_in_its_language() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../games/ultimatum.sidl"
    ))
    .unwrap();
    let mut c = Core::new(&src).unwrap();
    let l = c.labels(None, None, 0).unwrap();
    assert!(l.active);
    assert_eq!(l.languages, vec!["de"]);
    assert_eq!(l.players[0].term, "[proposer]");
    assert_eq!(l.players[0].text, "Proposer");
    assert_eq!(l.switches[0].switch.text, "the offer");
    assert_eq!(l.switches[0].actions[3].term, "[offer,3]");
    assert_eq!(l.switches[0].actions[3].text, "offer 3 of 5");
    assert_eq!(l.accounts[1].text, "Responder: 0");
    let de = c.labels(Some("[responder]"), Some("de"), 0).unwrap();
    assert_eq!(de.lang.as_deref(), Some("de"));
    assert!(de.switches.is_empty());
    assert_eq!(de.roles.len(), 1);
    assert!(de.roles[0].text.starts_with("Du nimmst"));
    c.submit("[proposer]", "[offer]", "[offer,2]").unwrap();
    c.run_chronon().unwrap();
    c.submit("[responder]", "[answer]", "[reject]").unwrap();
    c.run_chronon().unwrap();
    let end = c.labels(Some("[responder]"), Some("de"), 0).unwrap();
    assert_eq!(end.events.len(), 2);
    assert!(
        end.events[1].iter().any(|e| e.contains("ablehnen")),
        "{:?}",
        end.events
    );
    assert_eq!(
        end.result,
        vec!["keine Einigung: abgelehnt, niemand bekommt etwas"]
    );
    assert_eq!(end.events_from, 0);
    // ultimatum's result label reads the state, which no event line asks: the lines from `from`
    let tail = c.labels(Some("[responder]"), Some("de"), 1).unwrap();
    assert_eq!((tail.events_from, &tail.events[..]), (1, &end.events[1..]));
    // a game without labels: the canonical terms, unlabelled
    let mut n = Core::new("game(g). init([a, 1]). init([p], 0).").unwrap();
    let raw = n.labels(None, Some("de"), 0).unwrap();
    assert_eq!(raw.facts[0].text, "[a,1]");
    assert!(!raw.active);
    assert!(raw.facts.iter().all(|f| !f.labelled && f.text == f.term));
}

/// `labels(viewer, lang, from)`: the event lines from chronon `from` on when the label rules read
/// no state (nim without its result line), from an earlier chronon when the lines before `from`
/// are not those of the previous call (another language, a history played otherwise), never past
/// the history.
#[test]
fn labels_give_the_event_lines_from_a_chronon() {
    let src: String = game("games/nim.sidl")
        .lines()
        .filter(|l| !l.starts_with("label(result"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut c = Core::new(&src).unwrap();
    for _ in 0..3 {
        c.random_moves(None).unwrap();
        c.run_chronon().unwrap();
    }
    let all = c.labels(None, None, 0).unwrap();
    assert_eq!((all.events_from, all.events.len()), (0, 3));
    let tail = c.labels(None, None, 2).unwrap();
    assert_eq!((tail.events_from, &tail.events[..]), (2, &all.events[2..]));
    let none = c.labels(None, None, 7).unwrap();
    assert_eq!((none.events_from, none.events.len()), (3, 0));
    // another language: every line again
    let de = c.labels(None, Some("de"), 3).unwrap();
    assert_eq!((de.events_from, de.events.len()), (0, 3));
    assert_ne!(de.events, all.events);
    // a new chronon: its lines only
    c.random_moves(None).unwrap();
    c.run_chronon().unwrap();
    let next = c.labels(None, Some("de"), 3).unwrap();
    assert_eq!((next.events_from, next.events.len()), (3, 1));
    // undone twice and played otherwise: from the chronon that changed
    assert!(c.undo() && c.undo());
    c.submit("[alice]", "[main]", "[3]").ok();
    c.submit("[bob]", "[main]", "[3]").ok();
    c.run_chronon().unwrap();
    let other = c.labels(None, Some("de"), 4).unwrap();
    assert!(other.events_from <= 2, "{}", other.events_from);
    let fresh = c.labels(None, None, 0).unwrap();
    let fresh_de = c.labels(None, Some("de"), 0).unwrap();
    assert_eq!(fresh.events.len(), 3);
    assert_eq!(other.events[..], fresh_de.events[other.events_from..]);
}

/// The views and switches that `Core` keeps written between calls (facts shared by consecutive
/// states, switches shared while the legal switches stay) are those the engine gives now: on every
/// chronon of random games of games with hidden facts, chance, unlimited switches and restarts,
/// each player's view and switches (asked twice) equal `Session::view` and `Session::switches`
/// written afresh; and each chronon's events and per-player events (whose DTOs are copied from
/// the chronon's) are the engine's events written one by one.
#[test]
fn kept_views_and_switches_are_the_engines_of_each_state() {
    use sidl_engine::game::{Actions, Owner};
    use sidl_wasm::core::show;
    for name in ["kuhn", "connect4", "mcp", "tictactoe", "priceNegotiation"] {
        let src = game(&format!("games/{name}.sidl"));
        let mut g = Core::new(&src).expect("loads");
        for seed in 1..=2 {
            g.start(seed, false).expect("start");
            for _ in 0..40 {
                if g.is_terminal().expect("terminal") {
                    break;
                }
                let mut who: Vec<Option<String>> = vec![None];
                who.extend(g.players().into_iter().map(Some));
                for p in &who {
                    for _ in 0..2 {
                        let term = p
                            .as_deref()
                            .map(|p| sidl_wasm::core::parse(p, "p").expect("p"));
                        let s = g.session_mut();
                        let want: Vec<String> = s
                            .view(term.as_ref())
                            .expect("view")
                            .iter()
                            .map(show)
                            .collect();
                        let sw: Vec<(String, Vec<String>)> = s
                            .switches()
                            .expect("switches")
                            .iter()
                            .filter(|x| {
                                term.as_ref()
                                    .is_none_or(|t| x.owner == Owner::Player(t.clone()))
                            })
                            .map(|x| {
                                let (Actions::Finite(a) | Actions::Unlimited(a)) = &x.actions;
                                (show(&x.id), a.iter().map(show).collect())
                            })
                            .collect();
                        assert_eq!(g.view(p.as_deref()).expect("view"), want, "{name} {p:?}");
                        let got: Vec<(String, Vec<String>)> = g
                            .switches(p.as_deref())
                            .expect("switches")
                            .into_iter()
                            .map(|d| (d.switch, d.actions))
                            .collect();
                        assert_eq!(got, sw, "{name} {p:?}");
                    }
                }
                g.random_moves(None).expect("moves");
                let c = g.run_chronon().expect("chronon");
                let rec = g.session_mut().history().last().expect("record").clone();
                let written = |es: &[sidl_engine::game::Event]| -> Vec<_> {
                    es.iter().map(sidl_wasm::core::event).collect()
                };
                assert_eq!(c.events, written(&rec.events), "{name}");
                let each: Vec<_> = (0..rec.player_events.len())
                    .map(|i| {
                        rec.events_of(i)
                            .map(sidl_wasm::core::event)
                            .collect::<Vec<_>>()
                    })
                    .collect();
                let mine: Vec<Vec<_>> = (0..c.player_events.len())
                    .map(|i| c.events_of(i).into_iter().cloned().collect())
                    .collect();
                assert_eq!(mine, each, "{name}");
                // crossing as JSON, a player's events are written out in full
                let json = serde_json::to_value(&c).expect("json");
                let each = serde_json::to_value(&each).expect("json");
                assert_eq!(json["playerEvents"], each, "{name}");
            }
        }
    }
}

/// `snapshot()` writes each chronon of the history once (`SnapshotText`): its text is the session's
/// snapshot written afresh (`snapshot_json`), byte for byte, after chronons, undo, restore, a new
/// game (the same length of history with other moves), a restore to another seed's game and in
/// interrupt mode. The accounts' kept JSON (`accounts_json`) is the accounts written afresh.
#[test]
fn snapshots_written_once_are_the_sessions_snapshot() {
    use sidl_wasm::core::snapshot_json;
    for (name, interrupt) in [
        ("nim", false),
        ("kuhn", false),
        ("tictactoe", true),
        ("mcp", false),
    ] {
        let src = game(&format!("games/{name}.sidl"));
        let mut g = Core::new(&src).expect("loads");
        let check = |g: &mut Core, at: &str| {
            let want = snapshot_json(&g.session_mut().snapshot());
            assert_eq!(g.snapshot(), want, "{name} {at}");
            // its chronons' parts (`snapshotParts`), from any chronon on: what the playground
            // keeps per timeline entry and joins into the snapshot of an entry
            let parts = g.snapshot_parts(0);
            let v: serde_json::Value = serde_json::from_str(&want).expect("json");
            let chronons = v["chronons"].as_array().expect("chronons");
            assert_eq!(parts.len(), chronons.len(), "{name} {at}");
            for (p, c) in parts.iter().zip(chronons) {
                let part: serde_json::Value = serde_json::from_str(p).expect("json");
                assert_eq!(&part, c, "{name} {at}");
            }
            for from in [1, parts.len() / 2, parts.len(), parts.len() + 3] {
                assert_eq!(
                    g.snapshot_parts(from),
                    parts[from.min(parts.len())..],
                    "{name} {at}"
                );
            }
            if v["pending"].as_array().is_some_and(|p| p.is_empty()) {
                let joined = format!(
                    "{{\"seed\":{},\"interrupt\":{},\"chronons\":[{}],\"pending\":[]}}",
                    v["seed"],
                    v["interrupt"],
                    parts.join(",")
                );
                assert_eq!(joined, want, "{name} {at}");
            }
            let want = serde_json::to_string(&g.accounts()).expect("json");
            assert_eq!(g.accounts_json(), Some(want.as_str()), "{name} {at}");
        };
        let mut kept = None;
        let mut first = None;
        for seed in 1..=3 {
            g.start(seed, interrupt).expect("start");
            check(&mut g, "start");
            for k in 0..30 {
                if g.is_terminal().expect("terminal") {
                    break;
                }
                g.random_moves(None).expect("moves");
                if !interrupt {
                    g.run_chronon().expect("chronon");
                }
                check(&mut g, "chronon");
                if k == 2 {
                    kept = Some(g.snapshot());
                    if seed == 1 {
                        first = kept.clone();
                    }
                }
                if k == 4 && g.undo() {
                    check(&mut g, "undo");
                }
            }
            if let Some(s) = &kept {
                g.restore(s).expect("restore");
                check(&mut g, "restore");
                assert_eq!(&g.snapshot(), s, "{name}: restored");
            }
        }
        // back to the first seed's game: another head, every part written again
        let s = first.expect("a snapshot of the first game");
        g.restore(&s).expect("restore");
        check(&mut g, "restore to seed 1");
        assert_eq!(g.snapshot(), s, "{name}: restored to seed 1");
    }
}
