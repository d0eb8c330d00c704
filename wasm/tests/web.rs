//! The JavaScript API of `SidlGame` as compiled to WebAssembly: the same tests run in Node and in
//! headless Chromium (`scripts/wasm-test.sh`). Values are inspected as JSON, as the page sees them.
#![cfg(target_arch = "wasm32")]

use serde_json::{json, Value};
use sidl_wasm::SidlGame;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

const NIM: &str = include_str!("../../games/nim.sidl");
const KUHN: &str = include_str!("../../games/kuhn.sidl");
const PRICE: &str = include_str!("../../games/priceNegotiation.sidl");
const RPS: &str = include_str!("../../games/rps.sidl");
const LEAKY: &str = include_str!("../../tests/analysis/kuhn_leaky.sidl");
const NIM_SCRIPT: &str = include_str!("../../tests/trajectories/nim.script");
const NIM_TRACE: &str = include_str!("../../tests/trajectories/nim.trace.jsonl");

fn j(v: &JsValue) -> Value {
    let text = js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "null".into());
    serde_json::from_str(&text).expect("JSON")
}

/// A JavaScript array of strings.
fn strings(xs: &[String]) -> JsValue {
    xs.iter()
        .map(|x| JsValue::from_str(x))
        .collect::<js_sys::Array>()
        .into()
}

fn ok<T>(r: Result<T, js_sys::Error>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("threw: {}", String::from(e.message())),
    }
}

fn thrown<T>(r: Result<T, js_sys::Error>) -> (String, Value) {
    match r {
        Ok(_) => panic!("expected an Error"),
        Err(e) => {
            assert!(e.is_instance_of::<js_sys::Error>());
            let sidl = js_sys::Reflect::get(&e, &JsValue::from_str("sidl")).expect("get");
            (String::from(e.message()), j(&sidl))
        }
    }
}

#[wasm_bindgen_test]
fn check_reports_diagnostics_with_utf16_columns() {
    let d = j(&ok(SidlGame::check("game(x).\n% é😀\nfoo('é😀', ) .\n")));
    let first = d
        .as_array()
        .expect("list")
        .iter()
        .find(|d| d["severity"] == "error")
        .expect("an error");
    assert!(first["labels"].is_array(), "{first}");
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(3), Some(12))
    );
    assert!(
        first["endLine"].is_u64() && first["from"].is_u64(),
        "{first}"
    );
    let (msg, sidl) = thrown(SidlGame::new("foo('é😀', ) ."));
    assert!(msg.starts_with("1:12: error["), "{msg}");
    assert_eq!(sidl, Value::Null, "a load error has no runtime location");
    let e = SidlGame::new("foo('é😀', ) .").err().expect("an Error");
    let diags = j(&js_sys::Reflect::get(&e, &"diagnostics".into()).expect("get"));
    assert_eq!(
        (diags[0]["line"].as_u64(), diags[0]["column"].as_u64()),
        (Some(1), Some(12)),
        "{diags}"
    );
    let clean = j(&ok(SidlGame::check(NIM)));
    assert!(clean
        .as_array()
        .expect("list")
        .iter()
        .all(|d| d["severity"] != "error"));
}

/// `check` is `sidl check`: a placement error reached through a helper (E0301), with its label (the
/// call of the helper in `payoff/2`) and help.
#[wasm_bindgen_test]
fn check_reports_placement_errors_with_labels() {
    let src = "game(g).\ninit([a], 0).\nlegal([s]) :- fact([on]).\nowned([s], [a]).\n\
               switch([s], [go]).\ndo([go]).\npayoff([a], 1) :- bonus.\nbonus :- create([x]).\n";
    let d = j(&ok(SidlGame::check(src)));
    let e = d
        .as_array()
        .expect("list")
        .iter()
        .find(|d| d["code"] == "E0301")
        .unwrap_or_else(|| panic!("E0301 in {d}"));
    assert_eq!(e["severity"], "error");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(8), Some(10))
    );
    assert!(e["help"].as_str().unwrap_or("").contains("payoff/2"), "{e}");
    let l = &e["labels"][0];
    assert_eq!(
        (l["line"].as_u64(), l["column"].as_u64()),
        (Some(7), Some(19)),
        "{e}"
    );
    assert_eq!(
        (l["endLine"].as_u64(), l["endColumn"].as_u64()),
        (Some(7), Some(24)),
        "{e}"
    );
    assert!(l["message"].as_str().unwrap_or("").contains("calls"), "{e}");
}

#[wasm_bindgen_test]
fn nim_plays_through_the_api() {
    let mut g = ok(SidlGame::new(NIM));
    assert_eq!(g.players(), vec!["[alice]", "[bob]"]);
    ok(g.start(7.0, None));
    assert_eq!(g.seed(), 7.0);
    assert!(!g.interrupt());
    let sw = j(&ok(g.switches(Some("[alice]".into()))));
    assert_eq!(
        sw,
        json!([{"switch": "[main]", "owner": "[alice]", "nature": false, "unlimited": false,
                "actions": ["[1]", "[2]", "[3]"], "slots": [[], [], []]}])
    );
    let r = j(&ok(g.submit("[alice]", "[main]", "[3]")));
    assert_eq!(r, json!({"ok": true, "reason": null, "chronon": null}));
    let bad = j(&ok(g.submit("[bob]", "[main]", "[1]")));
    assert_eq!(bad["ok"], false);
    assert!(bad["reason"]
        .as_str()
        .expect("reason")
        .contains("owned by [alice]"));
    assert_eq!(j(&ok(g.pending())), json!([["[alice]", "[main]", "[3]"]]));
    let raw = ok(g.chronon());
    let c = j(&raw);
    // a player's events are the designer's event objects themselves, not copies
    let field = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &JsValue::from_str(k)).expect(k);
    let events = js_sys::Array::from(&field(&raw, "events"));
    let every = js_sys::Array::from(&field(&raw, "playerEvents"));
    let mut shared = 0;
    for mine in every.iter() {
        for e in js_sys::Array::from(&mine).iter() {
            assert!(events.includes(&e, 0), "{c}");
            shared += 1;
        }
    }
    assert!(shared > 0, "{c}");
    assert_eq!(c["chronon"], 1);
    assert_eq!(c["terminal"], false);
    let texts: Vec<&str> = c["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(texts.contains(&"+ [bob,7]"), "{texts:?}");
    assert_eq!(c["playerEvents"].as_array().map(Vec::len), Some(2));
    assert_eq!(j(&ok(g.view(Some("[bob]".into())))), json!(["[bob,7]"]));
    assert_eq!(g.chronon_number(), 1.0);

    // history, snapshot, undo, restore
    assert_eq!(j(&ok(g.history())), json!([c]));
    let snap = g.snapshot();
    // its chronons' parts, from a chronon on (the playground's timeline keeps them)
    let parts = g.snapshot_parts(0);
    assert_eq!(parts.len(), 1);
    assert!(
        snap.contains(&format!("\"chronons\":[{}]", parts[0])),
        "{snap}"
    );
    assert!(g.snapshot_parts(1).is_empty());
    assert!(g.undo());
    assert_eq!(j(&ok(g.history())), json!([]));
    ok(g.restore(&snap));
    assert_eq!(j(&ok(g.view(None))), json!(["[bob,7]"]));

    // query
    let q = j(&ok(g.query("fact(F)")));
    assert_eq!(
        q,
        json!({"vars": ["F"], "answers": ["F = [bob,7]."], "error": null, "location": null, "truncated": false})
    );
    let (msg, _) = thrown(g.query("foo("));
    assert!(msg.contains("1:"), "{msg}");

    // random play to the end: accounts are +1 and -1
    let mut n = 0;
    while !ok(g.is_terminal()) {
        assert_eq!(j(&ok(g.random_moves(None))), json!([]));
        ok(g.chronon());
        n += 1;
        assert!(n < 20);
    }
    let acc = j(&ok(g.accounts()));
    let mut values: Vec<f64> = acc
        .as_array()
        .expect("accounts")
        .iter()
        .filter_map(|a| a["value"].as_f64())
        .collect();
    values.sort_by(f64::total_cmp);
    assert_eq!(values, vec![-1.0, 1.0]);
    assert_eq!(j(&ok(g.history())).as_array().map(Vec::len), Some(n + 1));

    let (msg, _) = thrown(g.start(-1.0, None));
    assert!(msg.contains("seed"), "{msg}");
}

#[wasm_bindgen_test]
fn interrupt_mode_returns_the_chronon_of_each_submission() {
    let mut g = ok(SidlGame::new(NIM));
    ok(g.start(1.0, Some(true)));
    assert!(g.interrupt());
    let r = j(&ok(g.submit("[alice]", "[main]", "[1]")));
    assert_eq!(r["ok"], true);
    assert_eq!(r["chronon"]["chronon"], 1);
    assert_eq!(g.chronon_number(), 1.0);
    let ran = j(&ok(g.random_moves(None)));
    assert_eq!(ran.as_array().map(Vec::len), Some(1), "{ran}");
    assert_eq!(ran[0]["chronon"], 2);
    assert_eq!(j(&ok(g.history())).as_array().map(Vec::len), Some(2));
}

#[wasm_bindgen_test]
fn hidden_cards_and_views() {
    let mut g = ok(SidlGame::new(KUHN));
    ok(g.chronon());
    let cards = |v: Value| {
        v.as_array()
            .expect("a view is an array")
            .iter()
            .filter(|f| f.as_str().expect("a fact's text").starts_with("[card,"))
            .count()
    };
    assert_eq!(cards(j(&ok(g.view(None)))), 2);
    for p in g.players() {
        assert_eq!(cards(j(&ok(g.view(Some(p))))), 1);
    }
    let (msg, _) = thrown(g.view(Some("[nobody]".into())));
    assert!(!msg.is_empty());
}

#[wasm_bindgen_test]
fn unlimited_switches_have_slots_and_fill_template_checks_types() {
    let mut g = ok(SidlGame::new(PRICE));
    let p = g.players()[0].clone();
    let sw = j(&ok(g.switches(Some(p.clone()))));
    let s = sw
        .as_array()
        .expect("list")
        .iter()
        .find(|s| s["unlimited"] == true)
        .expect("unlimited")
        .clone();
    let i = s["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .position(|a| a.as_str().is_some_and(|a| a.contains("price")))
        .expect("bid");
    assert_eq!(
        s["slots"][i],
        json!([{"name": "price", "type": "double",
                "description": "a float such as 12.5 (an integer such as 12 is taken as 12.0)"}])
    );
    let tpl = s["actions"][i].as_str().expect("text").to_string();
    let filled = ok(g.fill_template(&tpl, vec!["100.0".into()]));
    let r = j(&ok(g.submit(
        &p,
        s["switch"].as_str().expect("id"),
        &filled,
    )));
    assert_eq!(r["ok"], true, "{filled}: {r}");
    // docs/semantics.md §4.4: 100 for a double slot is 100.0, as in every door
    assert!(ok(g.fill_template(&tpl, vec!["100".into()])).ends_with(",100.0]"));
    let (msg, sidl) = thrown(g.fill_template(&tpl, vec!["cheap".into()]));
    assert!(
        msg.contains("slot price (double): cheap is not a float such as 12.5"),
        "{msg}"
    );
    assert_eq!(sidl, Value::Null);
}

const RUNAWAY: &str = "game(runaway).\ninit([n, 0]).\ninit([p], 0).\n\
legal([s]) :- fact([n, 0]), spin(0).\nowned([s], [p]).\nswitch([s], [a]).\n\
/* é😀 */ spin(N) :- M is N + 1, spin(M).\n";

#[wasm_bindgen_test]
fn budget_errors_carry_the_sidl_location() {
    let mut g = ok(SidlGame::new(RUNAWAY));
    let limits = js_sys::Object::new();
    js_sys::Reflect::set(&limits, &"inferences".into(), &JsValue::from_f64(20_000.0)).expect("set");
    ok(g.set_limits(limits.into()));
    let (msg, sidl) = thrown(g.chronon());
    assert!(msg.contains("inference"), "{msg}");
    assert_eq!(sidl["code"], "E0910", "the inference budget");
    assert!(
        msg.starts_with(sidl["message"].as_str().unwrap_or("?")),
        "{sidl}"
    );
    assert_eq!(
        (sidl["line"].as_u64(), sidl["column"].as_u64()),
        (Some(7), Some(11)),
        "{sidl}"
    );
    assert_eq!(sidl["endLine"], 7);
    assert!(sidl["endColumn"].as_u64().is_some_and(|c| c > 11));
    assert_eq!(
        sidl["path"].as_array().and_then(|p| p.last()).cloned(),
        Some(json!("spin/1"))
    );
    let q = j(&ok(g.query("spin(0)")));
    assert_eq!(q["location"]["line"], 7);
}

#[wasm_bindgen_test]
fn set_limits_refuses_unknown_fields() {
    let mut g = ok(SidlGame::new(NIM));
    let bad = js_sys::Object::new();
    js_sys::Reflect::set(&bad, &"inference".into(), &JsValue::from_f64(1.0)).expect("set");
    let (msg, _) = thrown(g.set_limits(bad.into()));
    assert!(msg.contains("setLimits"), "{msg}");
}

#[wasm_bindgen_test]
fn check_hidden_reports_progress_and_the_counterexample() {
    let g = ok(SidlGame::new(LEAKY));
    let seen = js_sys::Array::new();
    let sink = seen.clone();
    let cb = Closure::<dyn FnMut(JsValue)>::new(move |p: JsValue| {
        sink.push(&p);
    });
    let f: js_sys::Function = cb.as_ref().unchecked_ref::<js_sys::Function>().clone();
    let r = j(&ok(g.check_hidden(2000.0, Some(f))));
    assert_eq!(r["consistent"], false, "{r}");
    assert_eq!(r["counterexample"]["player"], "[p2]");
    assert!(r["counterexample"]["steps"]
        .as_array()
        .is_some_and(|s| !s.is_empty()));
    let progress = j(&seen.into());
    let last = progress
        .as_array()
        .and_then(|p| p.last())
        .cloned()
        .expect("progress");
    assert_eq!(last["phase"], "done");
    assert_eq!(last["states"], r["states"]);
    assert!(last["frontier"].is_u64());
    drop(cb);
    let kuhn = ok(SidlGame::new(KUHN));
    let r = j(&ok(kuhn.check_hidden(2000.0, None)));
    assert_eq!(
        (r["consistent"].clone(), r["complete"].clone()),
        (json!(true), json!(true)),
        "{r}"
    );
    assert_eq!(r["counterexample"], Value::Null);
}

#[wasm_bindgen_test]
fn keywords_and_trace() {
    let k = j(&ok(sidl_wasm::keywords()));
    let list = k.as_array().expect("list");
    assert!(list
        .iter()
        .any(|k| k == &json!({"name": "fact", "arity": 1, "position": "body", "doc": k["doc"]})));
    assert!(list
        .iter()
        .any(|k| k["name"] == "legal" && k["position"] == "head"));
    assert_eq!(j(&ok(ok(SidlGame::new(NIM)).keyword_list())), k);
    let g = ok(SidlGame::new(NIM));
    assert_eq!(ok(g.trace(Some(NIM_SCRIPT.into()), 0.0, 1000.0)), NIM_TRACE);
    let (msg, _) = thrown(g.trace(Some("submit([".into()), 0.0, 10.0));
    assert!(msg.contains("script"), "{msg}");
}

#[wasm_bindgen_test]
fn ai_moves_submit_for_a_player() {
    let mut g = ok(SidlGame::new(NIM));
    assert_eq!(j(&ok(g.ai_moves("[alice]", "minimax:10", 1.0))), json!([]));
    assert_eq!(j(&ok(g.pending())), json!([["[alice]", "[main]", "[1]"]]));
    ok(g.chronon());
    ok(g.ai_moves("[bob]", "mcts:30", 2.0));
    assert_eq!(j(&ok(g.pending())).as_array().map(Vec::len), Some(1));
    let (msg, _) = thrown(g.ai_moves("[bob]", "minimax:0", 1.0));
    assert!(msg.contains("positive"), "{msg}");
}

#[wasm_bindgen_test]
fn bench_runs_sidl_bench_loop_and_leaves_the_session() {
    let mut g = ok(SidlGame::new(NIM));
    ok(g.start(1.0, None));
    let before = g.snapshot();
    let r = j(&ok(g.bench(200.0, 1.0)));
    assert_eq!(r["chronons"], 200);
    // a nim game lasts at most 10 chronons
    assert!(r["games"].as_u64().expect("games") >= 20, "{r}");
    assert!(r["seconds"].as_f64().expect("seconds") >= 0.0, "{r}");
    // same seed, same games
    assert_eq!(j(&ok(g.bench(200.0, 1.0)))["games"], r["games"]);
    assert_eq!(g.snapshot(), before);
    assert_eq!(g.chronon_number(), 0.0);
    let (msg, _) = thrown(g.bench(1.5, 1.0));
    assert!(
        msg.contains("chronons must be a non-negative integer"),
        "{msg}"
    );
}

/// The values of the API loop cross once (`wasm/src/chronon_js.rs`): the same switches are the same
/// array, an event that happens again is the same object, and every view stays right while the
/// table of values is filled (and emptied) over many chronons.
#[wasm_bindgen_test]
fn recurring_values_are_the_same_objects() {
    let mut g = ok(SidlGame::new(RPS));
    let players = g.players();
    let players_js = strings(&players);
    let p = players[0].clone();
    let a = ok(g.switches(Some(p.clone())));
    let b = ok(g.switches(Some(p.clone())));
    assert!(
        js_sys::Object::is(&a, &b),
        "the same switches, the same array"
    );
    let events = |c: &JsValue| {
        js_sys::Array::from(&js_sys::Reflect::get(c, &JsValue::from_str("events")).expect("events"))
    };
    let mut last: Option<js_sys::Array> = None;
    let mut shared = 0;
    let mut same_switches = 0;
    for _ in 0..200 {
        if ok(g.is_terminal()) {
            ok(g.start(7.0, None));
        }
        ok(g.random_moves(Some(players_js.clone())));
        let c = ok(g.chronon());
        let now = events(&c);
        // a later state with the same switches (looked up by content) hands out the same array
        let s = ok(g.switches(Some(p.clone())));
        if j(&s) == j(&a) {
            same_switches += 1;
            assert!(js_sys::Object::is(&s, &a), "equal switches, the same array");
        }
        if let Some(before) = &last {
            shared += now.iter().filter(|e| before.includes(e, 0)).count();
        }
        for v in players.iter().map(|p| Some(p.clone())).chain([None]) {
            let facts = j(&ok(g.view(v.clone())));
            let want = ok(g.query("fact(F)"));
            let n = j(&want)["answers"].as_array().map(Vec::len);
            if v.is_none() {
                assert_eq!(
                    facts.as_array().map(Vec::len),
                    n,
                    "the designer sees every fact"
                );
            }
            assert!(facts
                .as_array()
                .expect("array")
                .iter()
                .all(Value::is_string));
        }
        last = Some(now);
    }
    assert!(shared > 0, "an event that recurs is the same object");
    assert!(same_switches > 0, "switches that recur in later states");
}

/// `randomMoves(players)` reads the list again only when it holds other strings than the last one
/// (`wasm/src/chronon_js.rs` keeps a copy): the same list, an equal copy, a changed list (a player
/// left out draws nothing), `null` and a list with a non-string all act as they read.
#[wasm_bindgen_test]
fn random_moves_reads_each_player_list() {
    let mut g = ok(SidlGame::new(RPS));
    let players = g.players();
    assert_eq!(players.len(), 2);
    // the players whose moves were drawn, in a new game, then its chronon
    let round = |g: &mut SidlGame, list: Option<JsValue>| -> Vec<String> {
        ok(g.start(3.0, None));
        ok(g.random_moves(list));
        let mut drawn: Vec<String> = j(&ok(g.pending()))
            .as_array()
            .expect("pending")
            .iter()
            .map(|s| s[0].as_str().expect("player").to_string())
            .collect();
        drawn.sort();
        ok(g.chronon());
        drawn
    };
    let mut both = players.clone();
    both.sort();
    let one = vec![players[0].clone()];
    let all = strings(&players);
    assert_eq!(round(&mut g, Some(all.clone())), both);
    // the same array, then an equal copy
    assert_eq!(round(&mut g, Some(all.clone())), both);
    assert_eq!(round(&mut g, Some(strings(&players))), both);
    // the array changed in place: read again
    let arr: js_sys::Array = all.clone().into();
    arr.pop();
    assert_eq!(round(&mut g, Some(all.clone())), one);
    assert_eq!(round(&mut g, Some(strings(&one))), one);
    assert_eq!(round(&mut g, None), both);
    assert_eq!(round(&mut g, Some(all.clone())), one);
    // an element that is not a string: wasm-bindgen's error for a `string[]` argument
    let bad: JsValue = [JsValue::from_str(&players[0]), JsValue::from_f64(1.0)]
        .iter()
        .collect::<js_sys::Array>()
        .into();
    let (msg, _) = thrown(g.random_moves(Some(bad)));
    assert_eq!(msg, "array contains a value of the wrong type");
    // the list before it is read again after it
    arr.push(&JsValue::from_str(&players[1]));
    assert_eq!(round(&mut g, Some(all)), both);
}

#[wasm_bindgen_test]
fn switches_and_views_are_each_players_own() {
    let mut g = ok(SidlGame::new(KUHN));
    let players = g.players();
    let mut viewers: Vec<JsValue> = players.iter().map(|p| JsValue::from_str(p)).collect();
    viewers.push(JsValue::NULL);
    let viewers: JsValue = viewers.into_iter().collect::<js_sys::Array>().into();
    let all = strings(&players);
    for step in 0..6 {
        if ok(g.is_terminal()) {
            break;
        }
        // the same arrays each step, then copies: the lists are read again only when they differ
        let (ps, vs) = if step % 2 == 0 {
            (all.clone(), viewers.clone())
        } else {
            (strings(&players), j_array(&viewers))
        };
        let seen = j(&ok(g.switches_and_views(ps, vs)));
        for (i, p) in players.iter().enumerate() {
            assert_eq!(
                seen["switches"][i],
                j(&ok(g.switches(Some(p.clone())))),
                "{p}"
            );
            assert_eq!(seen["views"][i], j(&ok(g.view(Some(p.clone())))), "{p}");
        }
        assert_eq!(seen["views"][players.len()], j(&ok(g.view(None))));
        if step > 0 {
            // after the deal each player sees one card, the designer both
            let cards = |v: &Value| {
                v.as_array()
                    .expect("a view")
                    .iter()
                    .filter(|f| f.as_str().expect("a fact").starts_with("[card,"))
                    .count()
            };
            assert_eq!(cards(&seen["views"][0]), 1);
            assert_eq!(cards(&seen["views"][1]), 1);
            assert_eq!(cards(&seen["views"][2]), 2);
        }
        ok(g.random_moves(None));
        ok(g.chronon());
    }
    // a viewer that is not a player: view's error; a list element of the wrong type: wasm-bindgen's
    let nobody: JsValue = [JsValue::from_str("[nobody]")]
        .iter()
        .collect::<js_sys::Array>()
        .into();
    let (msg, _) = thrown(g.switches_and_views(all.clone(), nobody));
    assert!(!msg.is_empty());
    let bad: JsValue = [JsValue::from_f64(1.0)]
        .iter()
        .collect::<js_sys::Array>()
        .into();
    let (msg, _) = thrown(g.switches_and_views(bad, viewers.clone()));
    assert_eq!(msg, "array contains a value of the wrong type");
    // the lists before them are read again after them
    let seen = j(&ok(g.switches_and_views(all, viewers)));
    assert_eq!(seen["views"][0], j(&ok(g.view(Some(players[0].clone())))));
}

/// Every player's switches of `switchesAndViews` are the objects `switches(p)` gives, in games whose
/// lists change from state to state (nim's takes, rps's simultaneous moves), with chance (kuhn's
/// deal) and with unlimited switches (priceNegotiation's offers, which cross as JSON): a new finite
/// list is built by the snippet from its texts' ids (`wasm/src/core/wire.rs`, `Wire::switch_list`).
#[wasm_bindgen_test]
fn switches_and_views_lists_are_the_dtos() {
    for src in [NIM, RPS, KUHN, PRICE] {
        let mut g = ok(SidlGame::new(src));
        let players = g.players();
        let all = strings(&players);
        let viewers = strings(&players);
        let mut seed = 1.0;
        ok(g.start(seed, None));
        for _ in 0..40 {
            if ok(g.is_terminal()) {
                seed += 1.0;
                ok(g.start(seed, None));
                continue;
            }
            let seen = j(&ok(g.switches_and_views(all.clone(), viewers.clone())));
            for (i, p) in players.iter().enumerate() {
                assert_eq!(
                    seen["switches"][i],
                    j(&ok(g.switches(Some(p.clone())))),
                    "{p}"
                );
            }
            ok(g.random_moves(None));
            ok(g.chronon());
        }
    }
}

/// A copy of a JavaScript array.
fn j_array(v: &JsValue) -> JsValue {
    js_sys::Array::from(v).into()
}
