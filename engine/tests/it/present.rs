//! Labels (`game::present`, docs/reference.md "Labels"): no label of a hidden fact reaches a player
//! who may not see it (docs/semantics.md §6.1), and label rules that fail, throw or loop leave the
//! raw terms.

use super::shipped_games::{repo, shipped};
use sidl_engine::game::present::{self, EventLines, Presenter, Thing};
use sidl_engine::game::trace::random_submissions;
use sidl_engine::game::{Actions, Event, Game, Owner, Session, Settings};
use sidl_engine::term::Term;
use std::sync::Arc;

fn show(t: &Term) -> String {
    sidl_engine::write::canonical(t)
}

fn load(name: &str) -> Arc<Game> {
    let path = format!("{}/tests/present/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("fixture");
    Arc::new(Game::load(&src).expect("loads").0)
}

/// Every text a viewer is shown in the current state, as the adapters get it
/// ([`present::present`]): players, roles, visible facts, its switches and their actions,
/// accounts, the events it saw, and the result lines.
fn everything(s: &mut Session, viewer: Option<&Term>) -> Vec<String> {
    let p = present::present(s, viewer, None, true).expect("presentation");
    let mut out: Vec<String> = Vec::new();
    out.extend(p.description);
    out.extend(p.roles.into_iter().map(|(_, r)| r));
    out.extend(p.players.into_iter().map(|l| l.text));
    out.extend(p.facts.into_iter().map(|l| l.text));
    for sw in p.switches {
        out.push(sw.switch.text);
        out.extend(sw.actions.into_iter().map(|l| l.text));
    }
    out.extend(p.accounts.into_iter().map(|l| l.text));
    out.extend(p.events.into_iter().flatten());
    out.extend(p.result);
    out
}

/// The same texts through the [`Presenter`] methods one by one (what `sidl play` calls).
fn one_by_one(s: &mut Session, viewer: Option<&Term>) -> Vec<String> {
    let mut pr = Presenter::new(s, viewer, None).expect("presenter");
    let mut out = Vec::new();
    for p in s.players() {
        out.push(pr.player(&p));
        out.extend(pr.role(&p));
    }
    for f in s.view(viewer).expect("view") {
        out.push(pr.fact(&f));
    }
    for sw in s.switches().expect("switches").iter() {
        if viewer.is_some() && sw.owner != Owner::Player(viewer.unwrap().clone()) {
            continue;
        }
        out.push(pr.switch(&sw.id));
        if let Actions::Finite(acts) = &sw.actions {
            for a in acts {
                out.push(pr.action(&sw.id, a));
            }
        }
    }
    for (p, x) in s.accounts() {
        out.push(pr.account(&p, &x));
    }
    let pi = viewer.map(|v| s.players().iter().position(|p| p == v).expect("player"));
    for rec in s.history() {
        let events: Vec<&Event> = match pi {
            Some(i) => rec.events_of(i).collect(),
            None => rec.events.iter().collect(),
        };
        for e in events {
            out.push(pr.event(e));
        }
    }
    if s.is_terminal().expect("terminal") {
        out.extend(pr.result());
    }
    out
}

#[test]
fn no_label_of_a_hidden_fact_reaches_a_player_who_may_not_see_it() {
    // docs/semantics.md §6.1: a player's view, events and end screen, here through labels
    let game = load("leak.sidl");
    for seed in 0..6 {
        let mut s = Session::new(game.clone(), seed, Settings::default()).expect("session");
        let mut designer_saw_cards = false;
        loop {
            // the cards in play: (holder, card)
            let cards: Vec<(Term, String)> = s
                .view(None)
                .expect("view")
                .iter()
                .filter_map(|f| match f.as_list()?.as_slice() {
                    [k, p, c] if **k == Term::atom("card") => Some(((*p).clone(), show(c))),
                    _ => None,
                })
                .collect();
            for viewer in s.players() {
                let own: Vec<&String> = cards
                    .iter()
                    .filter(|(p, _)| *p == viewer)
                    .map(|(_, c)| c)
                    .collect();
                // the cards of the others that the viewer does not hold itself
                let hidden: Vec<&String> = cards
                    .iter()
                    .filter(|(p, c)| *p != viewer && !own.contains(&c))
                    .map(|(_, c)| c)
                    .collect();
                let texts = everything(&mut s, Some(&viewer));
                // the presentation holds the texts the presenter gives one by one (the designer's
                // roles of every player are not in a player's presentation)
                for t in one_by_one(&mut s, Some(&viewer)) {
                    let role = t.starts_with("role of ") || t.contains(" sees ");
                    assert!(role || texts.contains(&t), "seed {seed}: {t:?} missing");
                }
                for t in texts.into_iter().chain(one_by_one(&mut s, Some(&viewer))) {
                    for h in &hidden {
                        assert!(
                            !t.contains(h.as_str()),
                            "seed {seed}: {} read {t:?}",
                            show(&viewer)
                        );
                    }
                }
            }
            let all = everything(&mut s, None).join("\n");
            designer_saw_cards |= all.contains("secret_");
            if s.is_terminal().expect("terminal") {
                break;
            }
            for sw in s.switches().expect("switches").iter() {
                if let (Owner::Player(p), Actions::Finite(a)) = (&sw.owner, &sw.actions) {
                    s.submit(p, &sw.id, &a[0])
                        .expect("no error")
                        .expect("accepted");
                }
            }
            s.run_chronon().expect("chronon");
        }
        // the test can fail: the designer's labels do show the cards
        assert!(designer_saw_cards, "seed {seed}");
    }
}

#[test]
fn failing_throwing_and_looping_label_rules_leave_the_raw_terms() {
    let game = load("fallback.sidl");
    let mut s = Session::new(game, 0, Settings::default()).expect("session");
    let (p, main) = (
        Term::list(vec![Term::atom("p")]),
        Term::list(vec![Term::atom("main")]),
    );
    let take = Term::list(vec![Term::atom("take"), Term::Int(1)]);
    let pile = |n| Term::list(vec![Term::atom("pile"), Term::Int(n)]);
    let mut pr = Presenter::new(&mut s, Some(&p), None).expect("presenter");
    assert!(pr.active());
    assert_eq!(pr.player(&p), "[p]"); // throws
    assert_eq!(pr.switch(&main), "[main]"); // loops: out of its budget
    assert_eq!(pr.action(&main, &take), "[take,1]"); // fails
                                                     // no language asked: label/2 first
    assert_eq!(pr.fact(&pile(2)), "pile of 2");
    assert_eq!(pr.account(&p, &Term::Float(1.5)), "score 1.50 pts");
    assert_eq!(pr.description().as_deref(), Some("Take the last item."));
    // plain text: markup stays as written (adapters insert it as text), nested label/1 parts
    assert_eq!(
        pr.role(&p).as_deref(),
        Some("Take the last item. <b>line</b>")
    );
    // a fact the viewer does not see gets no label
    assert_eq!(pr.label(&Thing::Fact(pile(7))), None);
    // languages: label/3 in the language asked, else label/2
    let mut de = Presenter::new(&mut s, Some(&p), Some("de")).expect("presenter");
    assert_eq!(de.fact(&pile(2)), "2 Teile übrig");
    assert_eq!(de.description().as_deref(), Some("Nimm das letzte Teil."));
    let mut fr = Presenter::new(&mut s, Some(&p), Some("fr")).expect("presenter");
    assert_eq!(fr.fact(&pile(2)), "pile of 2");
    // the game plays on; the result: a bad part drops its line, control characters become spaces
    while !s.is_terminal().expect("terminal") {
        s.submit(&p, &main, &take)
            .expect("no error")
            .expect("accepted");
        s.run_chronon().expect("chronon");
    }
    let mut end = Presenter::new(&mut s, Some(&p), None).expect("presenter");
    assert_eq!(end.result(), vec!["done now".to_string()]);
    assert_eq!(end.fact(&pile(0)), "pile of 0");
    // a game without labels: raw text, nothing evaluated
    let plain = Arc::new(
        Game::load("game(g). init([a]). init([p], 0).")
            .expect("loads")
            .0,
    );
    let mut s = Session::new(plain, 0, Settings::default()).expect("session");
    let mut raw = Presenter::new(&mut s, None, Some("en")).expect("presenter");
    assert!(!raw.active());
    assert_eq!(raw.fact(&Term::list(vec![Term::atom("a")])), "[a]");
    assert!(raw.result().is_empty());
}

#[test]
fn the_languages_of_a_game_are_those_its_label_3_clauses_name() {
    let src = "game(g). init([p], 0). label(game, en, 'G'). label(game, de, 'S').\n\
               label(player(P), de, P) :- true. label(X, L, x) :- X = L. label(result, en, done).";
    let game = Game::load(src).expect("loads").0;
    assert_eq!(present::languages(&game), vec!["en", "de"]);
    let plain = Game::load("game(g). init([p], 0).").expect("loads").0;
    assert!(present::languages(&plain).is_empty());
    let ult = std::fs::read_to_string(format!(
        "{}/../games/ultimatum.sidl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("game");
    let game = Arc::new(Game::load(&ult).expect("loads").0);
    assert_eq!(present::languages(&game), vec!["de"]);
    let mut s = Session::new(game, 1, Settings::default()).expect("session");
    let responder = Term::list(vec![Term::atom("responder")]);
    let de = present::present(&mut s, Some(&responder), Some("de"), true).expect("de");
    assert!(de.active);
    assert_eq!(de.players[1].text, "Empfänger");
    assert!(de.players[1].labelled);
    assert_eq!(de.roles.len(), 1);
    assert!(
        de.switches.is_empty(),
        "the responder has nothing to do yet"
    );
    assert_eq!(de.facts[0].text, "der Anbieter macht ein Angebot");
    let en = present::present(&mut s, None, None, true).expect("en");
    assert_eq!(en.players[0].text, "Proposer");
    assert_eq!(en.roles.len(), 2);
    assert_eq!(en.switches[0].actions[1].text, "offer 1 of 5");
    assert!(en.result.is_empty());
}

/// The event lines of every viewer, from lines kept across calls (`present_with`, what the wasm
/// API's `labels` does after every step) and built afresh (`present`), compared in every state of
/// random play on every shipped game and on the fixtures whose label rules read the state, with undos
/// in between (the history shrinks) and the viewers and languages asked in turn (the kept lines
/// are another viewer's or language's).
#[test]
fn kept_event_lines_are_the_lines_built_afresh() {
    let mut games: Vec<(String, Arc<Game>)> = [
        "stateful.sidl",
        "result_reads_state.sidl",
        "result_named_by_a_line.sidl",
    ]
    .iter()
    .map(|&n| (n.to_string(), load(n)))
    .collect();
    for name in shipped() {
        let src = std::fs::read_to_string(repo().join(&name)).expect("a game");
        if let Ok((g, _)) = Game::load(&src) {
            games.push((name, Arc::new(g)));
        }
    }
    let mut changed_in_place = false;
    for (name, game) in games {
        let langs: [Option<&str>; 2] = [None, Some("de")];
        let seed = 1;
        let Ok(mut s) = Session::new(game.clone(), seed, Settings::default()) else {
            continue;
        };
        let mut viewers: Vec<Option<Term>> = vec![None];
        viewers.extend(s.players().into_iter().map(Some));
        // lines kept per viewer (the language changes every five chronons), and one set
        // shared by every viewer (its key changes at every call)
        let mut kept: Vec<EventLines> = viewers.iter().map(|_| EventLines::default()).collect();
        let mut shared = EventLines::default();
        // what a page keeps per viewer: the lines it was given, asking only for those it has
        // not (`present_from`)
        let mut paged: Vec<(EventLines, Vec<Vec<String>>)> = viewers
            .iter()
            .map(|_| (EventLines::default(), Vec::new()))
            .collect();
        let mut before: Option<Vec<Vec<String>>> = None;
        for chronon in 0..25 {
            let lang = langs[(chronon / 5) % langs.len()];
            for (k, v) in viewers.iter().enumerate() {
                let fresh = present::present(&mut s, v.as_ref(), lang, true).map(|p| p.events);
                let again = present::present_with(&mut s, v.as_ref(), lang, Some(&mut kept[k]))
                    .map(|p| p.events);
                let other = present::present_with(&mut s, v.as_ref(), lang, Some(&mut shared))
                    .map(|p| p.events);
                let (lines, have) = &mut paged[k];
                let from = have.len();
                let page = present::present_from(&mut s, v.as_ref(), lang, Some(lines), from)
                    .map(|p| (p.events_from, p.events));
                let (Ok(fresh), Ok(again), Ok(other), Ok((events_from, new))) =
                    (fresh, again, other, page)
                else {
                    have.clear();
                    continue;
                };
                assert!(
                    events_from <= from,
                    "{name}: from {from}, gave {events_from}"
                );
                have.truncate(events_from);
                have.extend(new);
                assert_eq!(
                    *have, fresh,
                    "{name}, seed {seed}, chronon {chronon}, viewer {v:?}, from {from}"
                );
                assert_eq!(
                    again, fresh,
                    "{name}, seed {seed}, chronon {chronon}, viewer {v:?}"
                );
                assert_eq!(
                    other, fresh,
                    "{name}, seed {seed}, chronon {chronon}, viewer {v:?}"
                );
                if v.is_none() && lang.is_none() && name == "stateful.sidl" {
                    if let Some(b) = &before {
                        if b.iter().zip(&fresh).any(|(x, y)| x != y) {
                            changed_in_place = true;
                        }
                    }
                    before = Some(fresh);
                }
            }
            if random_submissions(&mut s).is_err() || s.run_chronon().is_err() {
                break;
            }
            if chronon % 7 == 6 {
                s.undo();
                s.clear_pending();
                // the next chronon is another: its lines are not the old ones read anew
                before = None;
            }
            if s.is_terminal().unwrap_or(true) {
                break;
            }
        }
    }
    assert!(
        changed_in_place,
        "stateful.sidl: an old chronon's line changes with the state (else this test shows nothing)"
    );
}

/// Whether a step's event lines are kept: after two chronons and the lines of both, a third
/// chronon, then the lines asked from the two the caller has. `true` when only the new chronon's
/// lines come back (`events_from` 2), `false` when every line is built again (`events_from` 0: a
/// label rule an event line asks reads the state).
fn event_lines_kept(game: Arc<Game>, what: &str) -> bool {
    let mut s = Session::new(game, 1, Settings::default()).expect("a session");
    let mut lines = EventLines::default();
    let step = |s: &mut Session| {
        random_submissions(s).expect("random moves");
        s.run_chronon().expect("a chronon");
    };
    step(&mut s);
    step(&mut s);
    let first = present::present_from(&mut s, None, None, Some(&mut lines), 0).expect("labels");
    assert_eq!(first.events.len(), 2, "{what}: two chronons played");
    step(&mut s);
    let next = present::present_from(&mut s, None, None, Some(&mut lines), 2).expect("labels");
    match next.events_from {
        2 => true,
        0 => false,
        n => panic!("{what}: events from {n}"),
    }
}

/// The label rules an event line asks (of players, switches, actions, facts, and what their texts
/// name) decide whether a step's lines are kept: a `label(result, …)` rule that reads the state
/// does not make every line be built again, a `label(fact(…), …)` rule that reads it does, and so
/// does one whose text names `label(result)`. Expectations: each fixture's `% event lines: kept`
/// or `rebuilt` line, and shipped.txt's fourth column for every shipped game.
#[test]
fn a_step_keeps_the_event_lines_unless_their_label_rules_read_the_state() {
    let mut problems = Vec::new();
    for name in [
        "stateful.sidl",
        "result_reads_state.sidl",
        "result_named_by_a_line.sidl",
    ] {
        let path = format!("{}/tests/present/{name}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(&path).expect("fixture");
        let want = src
            .lines()
            .find_map(|l| l.strip_prefix("% event lines: "))
            .unwrap_or_else(|| panic!("{name}: no `% event lines:` line"))
            .trim()
            == "kept";
        if event_lines_kept(load(name), name) != want {
            problems.push(format!("{name}: want kept = {want}"));
        }
    }
    for (path, want) in super::shipped_games::lines_kept() {
        let src = std::fs::read_to_string(repo().join(&path)).expect("a game");
        let game = Arc::new(Game::load(&src).expect("loads").0);
        if event_lines_kept(game, &path) != want {
            problems.push(format!("{path}: want kept = {want}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
