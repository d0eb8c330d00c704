//! The playground's logic, natively: DTOs built from a real game (no browser needed).

use sidl_wasm::core::{check, Core};

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
    assert!(!d.is_empty());
    let e = &d[0];
    assert_eq!(e.severity, "error");
    assert_eq!(e.line, 3);
    // `foo('é😀', )`: the `)` is at UTF-16 column 12 (é = 1 unit, 😀 = 2)
    assert_eq!(e.column, 12, "{e:?}");
    let line3_start = "game(x).\n% é😀\n".encode_utf16().count() as u32;
    assert_eq!(e.from, line3_start + 11);
    let err = Core::new(src).err().expect("blocked");
    assert!(err.message.starts_with("3:12: error["), "{err}");
}

#[test]
fn a_good_game_checks_clean() {
    assert!(check(&nim()).iter().all(|d| d.severity != "error"));
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
