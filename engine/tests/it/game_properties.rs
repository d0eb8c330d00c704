//! Property tests of the game manager (`Session`) over random play of every game of `games/`,
//! `games/paper/`, `tests/analysis/kuhn_leaky.sidl` and `tests/games/`:
//! - replaying a session's history reproduces the state after every chronon;
//! - `undo()` restores the state before the last chronon exactly, and running the chronon again
//!   gives the same record and state (the RNG is restored too);
//! - a rejected submission (or nature line) changes nothing: state, pending submissions, RNG;
//!   a session that also received rejected lines runs exactly the same chronons;
//! - no fact hidden from a player is in that player's view or in its events (`hidden/2` evaluated
//!   independently, by a fresh query per fact, in the state of the time; for events in the state
//!   before the chronon, Def.1);
//! - a runtime error aborts the chronon and leaves everything as it was
//!   (`tests/games/runtime_error.sidl`).
//!
//! Random play: every player-owned finite switch gets a random action (`random_submissions`),
//! player-owned unlimited switches usually an instance of a template, and nature switches draw
//! from the session's RNG, sometimes overridden by `set_nature`. The proptest runner has a fixed
//! seed and no failure persistence, so CI runs the same cases every time.
//!
//! Checks docs/semantics.md §4.5, §5.5, §5.7, §6.1, §7.2 and §12 (submissions must be ground; undo restores the RNG and the submissions).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use sidl_engine::atom::Atom;
use sidl_engine::game::host::KeywordHost;
use sidl_engine::game::{
    Actions, ChrononRecord, Event, Game, Owner, RuntimeError, Session, Settings, State, Submission,
    SwitchInfo,
};
use sidl_engine::rng::Rng;
use sidl_engine::solve::Query;
use sidl_engine::term::Term;
use sidl_engine::write::canonical;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate lives in the repository root")
        .to_path_buf()
}

struct TestGame {
    rel: String,
    game: Arc<Game>,
}

fn load(rel: &str) -> TestGame {
    let path = repo().join(rel);
    let src = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    match Game::load(&src) {
        Ok((g, _)) => TestGame {
            rel: rel.to_string(),
            game: Arc::new(g),
        },
        Err(d) => panic!("{rel} does not load: {d:?}"),
    }
}

/// Every game, sorted by path.
fn all_games() -> Vec<TestGame> {
    let mut rels = vec!["tests/analysis/kuhn_leaky.sidl".to_string()];
    for dir in ["games", "games/paper", "games/econ", "tests/games"] {
        let entries = std::fs::read_dir(repo().join(dir))
            .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"));
        for e in entries {
            let p = e
                .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
                .path();
            if p.extension().is_some_and(|x| x == "sidl") {
                let name = p.file_name().expect("file name").to_string_lossy();
                rels.push(format!("{dir}/{name}"));
            }
        }
    }
    rels.sort();
    assert!(rels.len() >= 15, "expected every game, found {rels:?}");
    rels.iter().map(|r| load(r)).collect()
}

fn is_chess(rel: &str) -> bool {
    rel.ends_with("chess.sidl")
}

/// Most chronons of one case: the legal switches of a chess state cost ~12 ms in a debug build.
fn max_chronons(rel: &str) -> u64 {
    if is_chess(rel) {
        3
    } else {
        14
    }
}

/// Cases per game.
fn cases(rel: &str) -> u32 {
    if is_chess(rel) {
        2
    } else {
        12
    }
}

/// Runs `property(game, seed, chronons)` on random cases for every game of `games`.
fn for_all_games(
    games: &[TestGame],
    what: &str,
    property: impl Fn(&TestGame, u64, u64) -> Result<(), TestCaseError>,
) {
    for g in games {
        let config = Config {
            cases: cases(&g.rel),
            rng_seed: RngSeed::Fixed(0x51D1_0001),
            failure_persistence: None,
            max_shrink_iters: 256,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let strategy = (any::<u64>(), 1..=max_chronons(&g.rel));
        if let Err(e) = runner.run(&strategy, |(seed, n)| property(g, seed, n)) {
            panic!("{what}: {}: {e}", g.rel);
        }
    }
}

fn rt(e: RuntimeError) -> TestCaseError {
    TestCaseError::fail(format!("unexpected runtime error: {}", e.message))
}

// ---------------------------------------------------------------------------------------------
// Random play

/// A random value for a template: each slot `(Name, Type)` a value of its type (mostly plausible
/// prices for `double`), each variable an atom.
fn instantiate(t: &Term, x: &mut Rng) -> Option<Term> {
    if let Term::Compound(f, args) = t {
        if f.name() == "," && args.len() == 2 {
            if let Term::Atom(ty) = &args[1] {
                return match ty.name() {
                    "double" => Some(Term::Float(8.0 + x.below(100) as f64 * 0.25)),
                    "integer" | "number" => Some(Term::Int(x.below(41) as i64 - 20)),
                    "atom" => Some(Term::atom(["a", "b", "hello world"][x.below(3) as usize])),
                    "term" => Some(Term::list(vec![Term::atom("t"), Term::Int(1)])),
                    _ => None,
                };
            }
        }
        let args: Option<Vec<Term>> = args.iter().map(|a| instantiate(a, x)).collect();
        return Some(Term::new_compound(*f, args?));
    }
    match t {
        Term::Var(_) => Some(Term::atom(["x", "y"][x.below(2) as usize])),
        t => Some(t.clone()),
    }
}

/// The decisions of one chronon: random actions for player switches, template instances for
/// unlimited ones (usually), nature actions fixed now and then (else the chronon draws them).
/// The choices come from the driver's RNG `x`, not from the session's as `random_submissions`
/// does: `Session::replay` re-draws the nature actions that were not fixed from a fresh session
/// RNG, so a driver that consumed the session RNG between chronons makes the replay draw other
/// actions (a known engine issue: replay should use the recorded draws).
///
/// A submission that raises a runtime error (none should: an exception in `switch/2` while an
/// unlimited action is validated, as in `tests/games/bad_switch.sidl`, rejects it) must at least
/// leave the session as it was.
fn drive(s: &mut Session, x: &mut Rng) -> Result<(), TestCaseError> {
    let switches = s.switches().map_err(rt)?;
    for sw in switches.iter() {
        match (&sw.owner, &sw.actions) {
            (Owner::Player(p), Actions::Finite(acts)) if !acts.is_empty() => {
                let a = &acts[x.below(acts.len() as u64) as usize];
                prop_assert!(
                    s.submit(p, &sw.id, a).map_err(rt)?.is_ok(),
                    "an action of the switch was rejected"
                );
            }
            (Owner::Player(p), Actions::Unlimited(ts)) if x.below(4) != 0 => {
                let t = &ts[x.below(ts.len() as u64) as usize];
                if let Some(a) = instantiate(t, x) {
                    let before = full(s);
                    // a bid below the leading price is rejected: that is fine
                    if s.submit(p, &sw.id, &a).is_err() {
                        prop_assert_eq!(
                            &full(s),
                            &before,
                            "a runtime error in a submission changed the session"
                        );
                    }
                }
            }
            (o, Actions::Finite(acts)) if o.is_nature() && !acts.is_empty() && x.below(4) == 0 => {
                let a = &acts[x.below(acts.len() as u64) as usize];
                prop_assert!(
                    s.set_nature(&sw.id, a).map_err(rt)?.is_ok(),
                    "set_nature with an action of the switch was rejected"
                );
            }
            _ => {}
        }
    }
    Ok(())
}

/// The observable state: chronon, facts in order, players and accounts.
#[derive(Clone, PartialEq)]
struct Snap {
    chronon: u64,
    facts: Vec<Term>,
    players: Vec<Term>,
    accounts: Vec<Term>,
}

fn texts<'a>(ts: impl IntoIterator<Item = &'a Term>) -> String {
    let v: Vec<String> = ts.into_iter().map(canonical).collect();
    format!("[{}]", v.join(", "))
}

impl std::fmt::Debug for Snap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "chronon {}, facts {}, players {}, accounts {}",
            self.chronon,
            texts(&self.facts),
            texts(&self.players),
            texts(&self.accounts)
        )
    }
}

impl std::fmt::Debug for Full {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{:?}", self.snap)?;
        let switches = match &self.switches {
            Ok(v) => v.as_slice(),
            Err(e) => {
                writeln!(f, "  switches: runtime error {e}")?;
                &[]
            }
        };
        for sw in switches {
            let acts = match &sw.actions {
                Actions::Finite(a) => texts(a),
                Actions::Unlimited(t) => format!("unlimited {}", texts(t)),
            };
            writeln!(
                f,
                "  switch {} owner {:?} {acts}",
                canonical(&sw.id),
                sw.owner
            )?;
        }
        for p in &self.pending {
            let t = [&p.player, &p.switch, &p.action];
            writeln!(f, "  pending {}", texts(t))?;
        }
        write!(
            f,
            "  rng {:?}, {} chronons of history",
            self.rng.state, self.history
        )
    }
}

fn show_event(e: &Event) -> String {
    match e {
        Event::Created(w) => format!("+{}", canonical(w)),
        Event::Deleted(w) => format!("-{}", canonical(w)),
        Event::Account { player, amount } => {
            format!("{}: {}", canonical(player), canonical(amount))
        }
        Event::Switch {
            switch,
            action,
            how,
            ok,
        } => format!(
            "{} {} ({how:?}, {})",
            canonical(switch),
            canonical(action),
            if *ok { "ok" } else { "failed" }
        ),
    }
}

fn show_record(r: &ChrononRecord) -> String {
    let pairs = |v: &[(Term, Term)]| texts(v.iter().flat_map(|(a, b)| [a, b]));
    let subs: Vec<String> = r
        .submissions
        .iter()
        .map(|s| texts([&s.player, &s.switch, &s.action]))
        .collect();
    let evs: Vec<String> = r.events.iter().map(show_event).collect();
    format!(
        "submissions {}, overrides {}, draws {}, events [{}]",
        subs.join(" "),
        pairs(&r.overrides),
        pairs(&r.draws),
        evs.join("; ")
    )
}

fn same_records(
    a: &Result<ChrononRecord, RuntimeError>,
    b: &Result<ChrononRecord, RuntimeError>,
) -> Result<(), TestCaseError> {
    let show = |r: &Result<ChrononRecord, RuntimeError>| match r {
        Ok(r) => show_record(r),
        Err(e) => format!("runtime error: {}", e.message),
    };
    prop_assert!(a == b, "different chronons:\n  {}\n  {}", show(a), show(b));
    Ok(())
}

fn snap(s: &Session) -> Snap {
    let st = s.state();
    Snap {
        chronon: st.chronon,
        facts: st.facts.terms().cloned().collect(),
        players: st.player_terms().cloned().collect(),
        accounts: st.accounts.clone(),
    }
}

/// Everything `undo()` must restore.
#[derive(Clone, PartialEq)]
struct Full {
    snap: Snap,
    /// The legal switches, or the runtime error that computing them raises.
    switches: Result<Vec<SwitchInfo>, String>,
    pending: Vec<Submission>,
    rng: Rng,
    history: usize,
}

fn full(s: &mut Session) -> Full {
    Full {
        snap: snap(s),
        switches: s
            .switches()
            .map(|sw| sw.as_ref().clone())
            .map_err(|e| e.message),
        pending: s.pending().to_vec(),
        rng: s.rng().clone(),
        history: s.history().len(),
    }
}

/// Plays up to `n` chronons from `seed`; stops at a terminal state or a runtime error (which must
/// leave the state as it was). Calls `each(session, before)` after every chronon.
fn play(
    g: &TestGame,
    seed: u64,
    n: u64,
    mut each: impl FnMut(&mut Session, &Snap) -> Result<(), TestCaseError>,
) -> Result<Session, TestCaseError> {
    let mut s = Session::new(g.game.clone(), seed, Settings::default()).map_err(rt)?;
    let mut x = Rng::new(seed.wrapping_add(1));
    for _ in 0..n {
        match s.is_terminal() {
            Ok(false) => {}
            Ok(true) | Err(_) => break,
        }
        drive(&mut s, &mut x)?;
        let before = snap(&s);
        if s.run_chronon().is_err() {
            prop_assert_eq!(snap(&s), before, "a runtime error changed the state");
            break;
        }
        each(&mut s, &before)?;
    }
    Ok(s)
}

// ---------------------------------------------------------------------------------------------
// Replay and undo

#[test]
fn replaying_the_history_reproduces_every_state() {
    let games = all_games();
    for_all_games(&games, "replay", |g, seed, n| {
        let mut states = Vec::new();
        let s = play(g, seed, n, |s, _| {
            states.push(snap(s));
            Ok(())
        })?;
        let history: Vec<ChrononRecord> = s.history().to_vec();
        prop_assert_eq!(history.len(), states.len());
        for k in 0..=history.len() {
            let r = Session::replay(g.game.clone(), seed, Settings::default(), &history[..k])
                .map_err(rt)?;
            prop_assert_eq!(r.history().len(), k);
            for (x, y) in r.history().iter().zip(&history[..k]) {
                same_records(&Ok(x.clone()), &Ok(y.clone()))?;
            }
            if k > 0 {
                prop_assert_eq!(&snap(&r), &states[k - 1], "state after chronon {}", k);
            } else {
                prop_assert_eq!(snap(&r).chronon, 0);
            }
        }
        Ok(())
    });
}

#[test]
fn undo_restores_the_previous_state_exactly() {
    let games = all_games();
    for_all_games(&games, "undo", |g, seed, n| {
        let mut s = Session::new(g.game.clone(), seed, Settings::default()).map_err(rt)?;
        prop_assert!(!s.undo(), "undo at chronon 0");
        let mut x = Rng::new(seed.wrapping_add(1));
        let mut befores: Vec<Full> = Vec::new();
        for _ in 0..n {
            if s.is_terminal().unwrap_or(true) {
                break;
            }
            drive(&mut s, &mut x)?;
            let before = full(&mut s);
            let Ok(rec) = s.run_chronon().cloned() else {
                break;
            };
            let after = full(&mut s);
            prop_assert!(s.undo());
            prop_assert_eq!(
                &full(&mut s),
                &before,
                "undo of chronon {}",
                after.snap.chronon
            );
            // the same chronon again: same record, same state (the RNG was restored)
            let again = s.run_chronon().map_err(rt)?.clone();
            same_records(&Ok(again), &Ok(rec))?;
            prop_assert_eq!(&full(&mut s), &after);
            befores.push(before);
        }
        // undo all the way back
        while let Some(before) = befores.pop() {
            prop_assert!(s.undo());
            prop_assert_eq!(&full(&mut s), &before);
        }
        prop_assert!(!s.undo(), "undo past chronon 0");
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------------
// Rejected submissions

/// Submissions that must be rejected in the current state, as (player, switch, action, kind).
fn rejections(
    s: &mut Session,
    r: &mut Rng,
) -> Result<Vec<(Term, Term, Term, &'static str)>, RuntimeError> {
    let switches = s.switches()?;
    let players = s.players();
    let l = |items: Vec<Term>| Term::list(items);
    let a = Term::atom;
    let mut out = Vec::new();
    if let Some(p) = players.first() {
        out.push((
            p.clone(),
            l(vec![a("no_such_switch")]),
            l(vec![a("wait")]),
            "illegal switch",
        ));
        out.push((
            l(vec![a("nobody")]),
            l(vec![a("no_such_switch")]),
            a("x"),
            "not a player",
        ));
    }
    for sw in switches.iter() {
        match (&sw.owner, &sw.actions) {
            (Owner::Player(o), acts) => {
                if let Some(q) = players.iter().find(|q| *q != o) {
                    let act = match acts {
                        Actions::Finite(v) if !v.is_empty() => {
                            v[r.below(v.len() as u64) as usize].clone()
                        }
                        Actions::Unlimited(ts) => instantiate(&ts[0], r).unwrap_or_else(|| a("x")),
                        _ => a("x"),
                    };
                    out.push((q.clone(), sw.id.clone(), act, "wrong owner"));
                }
                match acts {
                    Actions::Finite(_) => {
                        out.push((
                            o.clone(),
                            sw.id.clone(),
                            l(vec![a("not_an_action")]),
                            "non-action",
                        ));
                    }
                    Actions::Unlimited(ts) => {
                        for t in ts.iter() {
                            if let Some(w) = wrong_type(t) {
                                out.push((
                                    o.clone(),
                                    sw.id.clone(),
                                    w,
                                    "wrong-typed unlimited value",
                                ));
                            }
                            if let Some(low) = low_bid(t) {
                                out.push((o.clone(), sw.id.clone(), low, "switch/2 fails"));
                            }
                        }
                        out.push((o.clone(), sw.id.clone(), a("no template"), "non-action"));
                    }
                }
                out.push((
                    o.clone(),
                    sw.id.clone(),
                    l(vec![Term::Var(0), a("x")]),
                    "non-ground",
                ));
            }
            (owner, _) => {
                // nobody may submit to a nature switch or a switch without a player owner
                if let Some(p) = players.first() {
                    let act = match &sw.actions {
                        Actions::Finite(v) if !v.is_empty() => v[0].clone(),
                        _ => a("x"),
                    };
                    let kind = if owner.is_nature() {
                        "nature switch"
                    } else {
                        "no player owner"
                    };
                    out.push((p.clone(), sw.id.clone(), act, kind));
                }
            }
        }
    }
    Ok(out)
}

/// The template with its first slot given a value of a wrong type (a `double` or `number` slot gets
/// an atom, since an integer is a double (docs/semantics.md §4.4); a `term` slot a variable; anything
/// else a float); `None` if it has no slot.
fn wrong_type(t: &Term) -> Option<Term> {
    fn go(t: &Term, done: &mut bool) -> Term {
        match t {
            Term::Compound(f, args) if f.name() == "," && args.len() == 2 && !*done => {
                if let Term::Atom(ty) = &args[1] {
                    *done = true;
                    return match ty.name() {
                        "double" | "number" => Term::atom("twelve"),
                        "term" => Term::Var(0),
                        _ => Term::Float(12.5),
                    };
                }
                t.clone()
            }
            Term::Compound(f, args) => {
                Term::new_compound(*f, args.iter().map(|a| go(a, done)).collect())
            }
            t => t.clone(),
        }
    }
    let mut done = false;
    let w = go(t, &mut done);
    done.then_some(w)
}

/// The template with its `(price, double)` slots at -1.0e9: the auctions' `switch/2` accepts only
/// bids above the leading price, so it fails. `None` without such a slot.
fn low_bid(t: &Term) -> Option<Term> {
    fn is_price(t: &Term) -> bool {
        matches!(t, Term::Compound(f, args) if f.name() == ","
            && args.len() == 2
            && args[0] == Term::atom("price")
            && args[1] == Term::atom("double"))
    }
    fn go(t: &Term, found: &mut bool) -> Term {
        match t {
            t if is_price(t) => {
                *found = true;
                Term::Float(-1.0e9)
            }
            Term::Compound(f, args) => {
                Term::new_compound(*f, args.iter().map(|a| go(a, found)).collect())
            }
            t => t.clone(),
        }
    }
    let mut found = false;
    let w = go(t, &mut found);
    found.then_some(w)
}

#[test]
fn rejected_submissions_change_nothing() {
    let games = all_games();
    for_all_games(&games, "rejections", |g, seed, n| {
        // `a` plays; `b` plays the same and also receives rejected lines
        let mut a = Session::new(g.game.clone(), seed, Settings::default()).map_err(rt)?;
        let mut b = Session::new(g.game.clone(), seed, Settings::default()).map_err(rt)?;
        let mut xa = Rng::new(seed.wrapping_add(1));
        let mut xb = xa.clone();
        let mut r = Rng::new(seed.wrapping_add(2));
        for _ in 0..n {
            if a.is_terminal().unwrap_or(true) {
                break;
            }
            let reject = |b: &mut Session, r: &mut Rng| -> Result<(), TestCaseError> {
                for (p, sw, act, kind) in rejections(b, r).map_err(rt)? {
                    if r.below(2) == 0 {
                        continue;
                    }
                    let before = full(b);
                    let res = b.submit(&p, &sw, &act).map_err(rt)?;
                    prop_assert!(
                        res.is_err(),
                        "{} submit({}, {}, {}) was accepted",
                        kind,
                        canonical(&p),
                        canonical(&sw),
                        canonical(&act)
                    );
                    prop_assert_eq!(&full(b), &before, "{} changed the session", kind);
                }
                // nature lines: a non-action, and a player switch
                let switches = b.switches().map_err(rt)?;
                for sw in switches.iter() {
                    let bad = Term::list(vec![Term::atom("not_an_action")]);
                    let act = match (&sw.owner, &sw.actions) {
                        (o, _) if o.is_nature() => bad,
                        (_, Actions::Finite(v)) if !v.is_empty() => v[0].clone(),
                        _ => bad,
                    };
                    let before = full(b);
                    prop_assert!(b.set_nature(&sw.id, &act).map_err(rt)?.is_err());
                    prop_assert_eq!(
                        &full(b),
                        &before,
                        "a rejected nature line changed the session"
                    );
                }
                Ok(())
            };
            reject(&mut b, &mut r)?;
            drive(&mut a, &mut xa)?;
            drive(&mut b, &mut xb)?;
            reject(&mut b, &mut r)?;
            prop_assert_eq!(a.pending(), b.pending());
            let ra = a.run_chronon().cloned();
            let rb = b.run_chronon().cloned();
            same_records(&ra, &rb)?;
            prop_assert_eq!(&full(&mut a), &full(&mut b));
            if ra.is_err() {
                break;
            }
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------------
// Visibility

/// Is `w` hidden from `p` in `state`? A fresh query of `hidden(W, P)`, outside the session.
fn hidden_in(game: &Game, state: &State, w: &Term, p: &Term) -> bool {
    if game.program.pred(Atom::new("hidden"), 2).is_none() {
        return false;
    }
    let goal = Term::compound("hidden", vec![w.clone(), p.clone()]);
    let mut q = Query::new(&game.program, &goal, &[], Settings::default().limits);
    let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
    match q.next_answer_with(&mut host) {
        Some(Ok(_)) => true,
        None => false,
        Some(Err(e)) => panic!("hidden({}, {}) raised {e:?}", canonical(w), canonical(p)),
    }
}

#[test]
fn hidden_facts_never_reach_the_player() {
    let games: Vec<TestGame> = [
        "games/kuhn.sidl",
        "games/mcp.sidl",
        "games/rps.sidl",
        "games/paper/mcp.sidl",
        "tests/analysis/kuhn_leaky.sidl",
    ]
    .iter()
    .map(|r| load(r))
    .collect();
    // hidden facts met per game: the property must not hold vacuously
    let met = RefCell::new(BTreeMap::<String, usize>::new());
    for_all_games(&games, "visibility", |g, seed, n| {
        let mut hidden_seen = 0usize;
        let check_view = |s: &mut Session, hidden_seen: &mut usize| -> Result<(), TestCaseError> {
            let st = s.state().clone();
            for p in st.player_terms() {
                let view = s.view(Some(p)).map_err(rt)?;
                let mut expected = Vec::new();
                for w in st.facts.terms() {
                    if hidden_in(&g.game, &st, w, p) {
                        *hidden_seen += 1;
                        prop_assert!(
                            !view.contains(w),
                            "{} sees the hidden fact {} at chronon {}",
                            canonical(p),
                            canonical(w),
                            st.chronon
                        );
                    } else {
                        expected.push(w.clone());
                    }
                }
                prop_assert_eq!(&view, &expected, "the view of {}", canonical(p));
            }
            Ok(())
        };
        let mut s = Session::new(g.game.clone(), seed, Settings::default()).map_err(rt)?;
        let mut x = Rng::new(seed.wrapping_add(1));
        check_view(&mut s, &mut hidden_seen)?;
        for _ in 0..n {
            if s.is_terminal().map_err(rt)? {
                break;
            }
            drive(&mut s, &mut x)?;
            let old = s.state().clone();
            let switches = s.switches().map_err(rt)?;
            let rec = s.run_chronon().map_err(rt)?.clone();
            for (pi, p) in old.player_terms().enumerate() {
                let evs: Vec<&Event> = rec.events_of(pi).collect();
                for &e in &evs {
                    match e {
                        Event::Created(w) | Event::Deleted(w) => prop_assert!(
                            !hidden_in(&g.game, &old, w, p),
                            "{} is told of {}, hidden from it before chronon {}",
                            canonical(p),
                            show_event(e),
                            old.chronon + 1
                        ),
                        // a switch's action may reveal hidden facts (kuhn's deal): a player hears
                        // only of its own switches
                        Event::Switch { switch, .. } => prop_assert!(
                            switches
                                .iter()
                                .any(|sw| &sw.id == switch && sw.owner == Owner::Player(p.clone())),
                            "{} is told what switch {} did",
                            canonical(p),
                            canonical(switch)
                        ),
                        Event::Account { .. } => {}
                    }
                }
                // and it hears of every change that is not hidden from it
                for e in &rec.events {
                    if let Event::Created(w) | Event::Deleted(w) = e {
                        if !hidden_in(&g.game, &old, w, p) {
                            prop_assert!(
                                evs.contains(&e),
                                "{} is not told of {}",
                                canonical(p),
                                show_event(e)
                            );
                        }
                    }
                }
            }
            check_view(&mut s, &mut hidden_seen)?;
        }
        *met.borrow_mut().entry(g.rel.clone()).or_default() += hidden_seen;
        Ok(())
    });
    for g in &games {
        let n = met.borrow().get(&g.rel).copied().unwrap_or(0);
        assert!(n > 0, "{}: random play never met a hidden fact", g.rel);
    }
}

// ---------------------------------------------------------------------------------------------
// Runtime errors

#[test]
fn a_runtime_error_aborts_the_chronon_and_changes_nothing() {
    let g = load("tests/games/runtime_error.sidl");
    let mut s = Session::new(g.game.clone(), 7, Settings::default()).expect("the game starts");
    let p = Term::list(vec![Term::atom("p")]);
    let q = Term::list(vec![Term::atom("q")]);
    let act = |who: &Term, what: &str| {
        let name = who.as_list().expect("a word")[0].clone();
        Term::list(vec![name, Term::atom(what)])
    };
    for _ in 0..2 {
        s.submit(&p, &p, &act(&p, "go"))
            .expect("no error")
            .expect("accepted");
        s.run_chronon().expect("chronons 1 and 2 run");
    }
    // chronon 3: do([p, go]) deletes [count, 2] and schedules [count, 3], then helper(3)
    // raises a type error
    s.submit(&q, &q, &act(&q, "wait"))
        .expect("no error")
        .expect("accepted");
    s.submit(&p, &p, &act(&p, "go"))
        .expect("no error")
        .expect("accepted");
    let before = full(&mut s);
    assert_eq!(
        before.snap.facts.iter().map(canonical).collect::<Vec<_>>(),
        ["[went,1]", "[count,2]", "[went,2]"],
        "the state before chronon 3"
    );
    assert_eq!(before.snap.accounts, [Term::Int(2), Term::Int(0)]);
    let e = s.run_chronon().expect_err("chronon 3 raises a type error");
    assert_eq!(e.during, "do/1");
    for needle in ["oops", "do/1 → helper/1"] {
        assert!(
            e.message.contains(needle),
            "the message {:?} does not mention {needle:?}",
            e.message
        );
    }
    assert!(
        e.message.contains("type") || e.message.contains("evaluable"),
        "the message {:?} does not say it is a type error",
        e.message
    );
    let after = full(&mut s);
    assert_eq!(after, before, "the aborted chronon changed the session");
    assert_eq!(s.history().len(), 2);
    // the same chronon fails the same way; with p waiting it runs
    assert_eq!(s.run_chronon().expect_err("again").message, e.message);
    s.submit(&p, &p, &act(&p, "wait"))
        .expect("no error")
        .expect("accepted");
    s.run_chronon().expect("chronon 3 with p waiting");
    assert_eq!(snap(&s).chronon, 3);
    assert_eq!(
        snap(&s).facts.iter().map(canonical).collect::<Vec<_>>(),
        ["[went,1]", "[count,2]", "[went,2]"]
    );
}
