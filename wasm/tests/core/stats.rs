//! The Statistics panel's API natively (`wasm/src/stats.rs`): a run in steps gives the engine's
//! report of `sidl stats` for the same seeds, its records read back give the same report, a bad
//! records file names its lines, and the record of a played session replays to its trajectory.

use sidl_engine::game::record::{read_records, Record};
use sidl_engine::game::trace::{replay_trace, run_trace, ScriptItem};
use sidl_engine::game::{Game, Settings};
use sidl_engine::seats::Seat;
use sidl_engine::stats::{self, Report};
use sidl_engine::syntax::parse_term;
use sidl_wasm::core::Core;
use sidl_wasm::stats::{session_record, StatsRun};
use std::sync::Arc;

fn file(rel: &str) -> String {
    std::fs::read_to_string(format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))).expect(rel)
}

fn pair(p: &str, k: &str) -> [String; 2] {
    [p.to_string(), k.to_string()]
}

/// Runs to the end in steps of `step` games.
fn finish(run: &mut StatsRun, step: u64) {
    let mut last = 0;
    loop {
        let p = run.step(step).expect("step");
        assert!(p.done > last || p.finished, "a step makes progress");
        assert!(p.done <= last + step.max(1));
        last = p.done;
        if p.finished {
            break;
        }
    }
}

#[test]
fn a_run_in_steps_is_the_report_of_sidl_stats_for_the_same_seeds() {
    let src = file("cli/tests/stats/firstprice.sidl");
    let core = Core::new(&src).expect("loads");
    let (game, _) = Game::load(&src).expect("loads");
    let game = Arc::new(game);
    let players = core.players();
    // what `sidl stats firstprice.sidl --games 60 --seed 3 --seat '[ann]=mcts:20'` computes
    let seats = [Seat::parse("mcts:20").expect("spec"), Seat::Random];
    let direct = stats::simulate(game, &seats, 60, 3, 1000, &Settings::default(), |_| {})
        .expect("simulates");
    let want = Report::of(&players, &direct);
    for step in [1, 7, 1000] {
        let mut run =
            StatsRun::simulate(&core, "firstprice", &[pair("ann", "mcts:20")], 60, 3, 1000)
                .expect("run");
        assert_eq!(run.progress().done, 0);
        finish(&mut run, step);
        let r = run.result();
        assert_eq!(r.report, want, "steps of {step}");
        assert_eq!(r.text, want.to_text());
        assert_eq!(r.csv, want.to_csv());
        assert_eq!(r.games.len(), 60);
        assert_eq!(
            r.games.iter().map(|g| g.chronons).collect::<Vec<_>>(),
            direct.iter().map(|g| g.chronons).collect::<Vec<_>>()
        );
        // the metric that is a word and the one that throws are left out of the plot data
        assert!(r
            .games
            .iter()
            .all(|g| g.metrics.len() == 1 && g.metrics[0].0 == "revenue"));
    }
}

#[test]
fn a_stopped_run_reports_the_games_done() {
    let core = Core::new(&file("games/nim.sidl")).expect("loads");
    let mut run = StatsRun::simulate(&core, "nim", &[], 1000, 0, 1000).expect("run");
    let p = run.step(5).expect("step");
    assert_eq!(
        (p.done, p.total, p.counted, p.finished),
        (5, 1000, 5, false)
    );
    let r = run.result();
    assert_eq!(r.report.games, 5);
    assert_eq!(r.progress.done, 5);
    assert_eq!(run.records().lines().count(), 5);
}

#[test]
fn the_records_of_a_run_read_back_to_the_same_report() {
    let src = file("cli/tests/stats/firstprice.sidl");
    let core = Core::new(&src).expect("loads");
    let mut run = StatsRun::simulate(&core, "firstprice", &[], 40, 11, 1000).expect("run");
    finish(&mut run, 9);
    let text = run.records();
    assert_eq!(text.lines().count(), 40);
    let mut back = StatsRun::read(&core, &text).expect("read");
    finish(&mut back, 6);
    let (a, b) = (run.result(), back.result());
    assert_eq!(a.report, b.report);
    assert!(b.progress.problems.is_empty(), "{:?}", b.progress.problems);
    // every record is the engine's: it names the game and the seats
    let (records, errors) = read_records(&text);
    assert!(errors.is_empty());
    assert_eq!(records[0].1.game, "firstprice");
    assert_eq!(records[0].1.seed, 11);
    assert_eq!(records[39].1.seed, 50);
    assert_eq!(records[0].1.seats[0].kind, "random");
}

#[test]
fn a_bad_records_file_names_its_lines_and_the_rest_is_counted() {
    let src = file("cli/tests/stats/firstprice.sidl");
    let core = Core::new(&src).expect("loads");
    let mut run = StatsRun::simulate(&core, "firstprice", &[], 3, 0, 1000).expect("run");
    finish(&mut run, 10);
    let good: Vec<String> = run.records().lines().map(String::from).collect();
    // a record of another version of the game (its source changed by a comment)
    let other = Core::new(&format!("{src}% changed\n")).expect("loads");
    let mut o = StatsRun::simulate(&other, "firstprice", &[], 1, 0, 1000).expect("run");
    finish(&mut o, 1);
    let text = [
        good[0].clone(),
        good[1][..good[1].len() / 2].to_string(), // a truncated line
        o.records().trim_end().to_string(),
        good[2].clone(),
    ]
    .join("\n");
    let mut back = StatsRun::read(&core, &text).expect("read");
    assert_eq!(
        back.progress().total,
        3,
        "the truncated line is not a record"
    );
    finish(&mut back, 2);
    let p = back.progress();
    assert_eq!(p.counted, 2);
    assert_eq!(p.problems.len(), 2, "{:?}", p.problems);
    assert!(
        p.problems[0].starts_with("record on line 2: not a record"),
        "{}",
        p.problems[0]
    );
    assert!(
        p.problems[1].starts_with("record on line 3: the record was made with another version"),
        "{}",
        p.problems[1]
    );
    assert_eq!(back.result().report.games, 2);
}

#[test]
fn simulated_seats_are_checked() {
    let core = Core::new(&file("games/nim.sidl")).expect("loads");
    let e = StatsRun::simulate(&core, "nim", &[pair("[alice]", "human")], 5, 0, 100)
        .err()
        .expect("refused");
    assert!(
        e.message.contains("simulated games have no human seats"),
        "{}",
        e.message
    );
    let e = StatsRun::simulate(&core, "nim", &[pair("carol", "random")], 5, 0, 100)
        .err()
        .expect("refused");
    assert!(
        e.message
            .contains("carol is not a player; the players are [alice], [bob]"),
        "{}",
        e.message
    );
    let e = StatsRun::simulate(&core, "nim", &[pair("bob", "alphabeta")], 5, 0, 100)
        .err()
        .expect("refused");
    assert!(e.message.contains("unknown seat kind"), "{}", e.message);
}

/// The script of a session's history: its submissions, a `chronon.` after each chronon.
fn script_of(core: &mut Core) -> Vec<ScriptItem> {
    let mut items = Vec::new();
    for c in core.history().expect("history") {
        for [p, s, a] in c.submissions {
            let t = |x: &str| parse_term(x).expect("term").term;
            items.push(ScriptItem::Submit {
                player: t(&p),
                switch: t(&s),
                action: t(&a),
            });
        }
        items.push(ScriptItem::Chronon);
    }
    items
}

#[test]
fn the_record_of_a_played_session_replays_to_its_trace() {
    for (game, seed) in [
        ("games/kuhn.sidl", 5),
        ("games/nim.sidl", 2),
        ("games/mcp.sidl", 9),
    ] {
        let src = file(game);
        let mut core = Core::new(&src).expect("loads");
        core.start(seed, false).expect("start");
        let players = core.players();
        // a person plays the first player, the others are random or an AI
        let mut turns = 0;
        while !core.is_terminal().expect("terminal") && turns < 40 {
            let sws = core.switches(Some(&players[0])).expect("switches");
            if let Some(sw) = sws.iter().find(|s| !s.unlimited && !s.actions.is_empty()) {
                let a = sw.actions[sw.actions.len() - 1].clone();
                assert!(core.submit(&players[0], &sw.switch, &a).expect("submit").ok);
            }
            core.random_moves(Some(&players[1..])).expect("random");
            core.run_chronon().expect("chronon");
            turns += 1;
        }
        let seats: Vec<[String; 2]> = players
            .iter()
            .enumerate()
            .map(|(i, p)| pair(p, if i == 0 { "human" } else { "random" }))
            .collect();
        let line = session_record(&mut core, "g", &seats).expect("record");
        assert!(!line.contains('\n'));
        let record = Record::from_line(&line, 1).expect("a record");
        assert_eq!(record.seed, seed);
        assert_eq!(record.seats[0].kind, "human");
        assert_eq!(record.chronons.len(), turns);
        let (g, _) = Game::load(&src).expect("loads");
        let g = Arc::new(g);
        // the replay's trace is the trace of the same submissions run as a script
        let replayed =
            replay_trace(g.clone(), &src, &record, &Settings::default()).expect("replays");
        let script = script_of(&mut core);
        let want = run_trace(g, seed, Some(&script), 1000, Settings::default());
        assert_eq!(replayed.lines, want.lines, "{game}");
        assert_eq!(replayed.lines.len(), turns + 1);
    }
}

/// The fields of `export interface NAME { ... }` in types.d.ts.
fn ts_fields(name: &str) -> Vec<String> {
    let ts = file("wasm/src/types.d.ts");
    let start = ts
        .find(&format!("export interface {name} {{"))
        .unwrap_or_else(|| panic!("interface {name}"));
    let body = &ts[start + name.len() + 19..];
    let mut depth = 1;
    let end = body
        .char_indices()
        .find(|(_, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .map(|(i, _)| i)
        .expect("closed");
    body[..end]
        .split([';', '\n'])
        .filter_map(|f| f.trim().split_once(':').map(|(k, _)| k.trim().to_string()))
        .filter(|k| !k.is_empty() && !k.starts_with('*') && !k.starts_with("/*"))
        .collect()
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
    k.sort();
    k
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn the_typescript_types_name_every_field_of_the_json() {
    let core = Core::new(&file("cli/tests/stats/firstprice.sidl")).expect("loads");
    let mut run = StatsRun::simulate(&core, "firstprice", &[], 5, 0, 1000).expect("run");
    finish(&mut run, 5);
    let r = serde_json::to_value(run.result()).expect("json");
    assert_eq!(keys(&r), sorted(ts_fields("StatsResult")));
    assert_eq!(keys(&r["progress"]), sorted(ts_fields("StatsProgress")));
    assert_eq!(keys(&r["games"][0]), sorted(ts_fields("StatsGame")));
    let report = &r["report"];
    assert_eq!(keys(report), sorted(ts_fields("StatsReport")));
    assert_eq!(keys(&report["length"]), sorted(ts_fields("StatsSummary")));
    assert_eq!(keys(&report["terminal"]), sorted(ts_fields("StatsShare")));
    assert_eq!(
        keys(&report["players"][0]),
        sorted(ts_fields("StatsPlayer"))
    );
    assert_eq!(
        keys(&report["metrics"][0]),
        sorted(ts_fields("StatsMetric"))
    );
}

#[test]
fn the_record_of_an_interrupt_mode_session_replays() {
    let src = file("games/nim.sidl");
    let mut core = Core::new(&src).expect("loads");
    core.start(4, true).expect("start");
    let players = core.players();
    // a person's submission runs its own chronon; then a random one
    let mut turns = 0;
    while !core.is_terminal().expect("terminal") && turns < 30 {
        let sws = core.switches(Some(&players[0])).expect("switches");
        if let Some(sw) = sws.first() {
            let r = core
                .submit(&players[0], &sw.switch, &sw.actions[0])
                .expect("submit");
            assert!(
                r.ok && r.chronon.is_some(),
                "interrupt mode runs the chronon"
            );
        } else {
            core.random_moves(None).expect("random");
        }
        turns += 1;
    }
    assert!(core.is_terminal().expect("terminal"));
    let line = session_record(&mut core, "nim", &[pair("[bob]", "random")]).expect("record");
    let record = Record::from_line(&line, 1).expect("a record");
    assert_eq!(record.mode, "interrupt");
    assert_eq!(record.seats[1].kind, "random");
    let (g, _) = Game::load(&src).expect("loads");
    let mut s = record
        .replay(Arc::new(g), &src, &Settings::default())
        .expect("replays");
    assert!(s.is_terminal().expect("terminal"));
    assert_eq!(s.chronon(), core.chronon());
    assert_eq!(
        s.view(None).expect("view"),
        core.session_mut().view(None).expect("view")
    );
}
