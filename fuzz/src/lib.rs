//! What the fuzz targets share: the invariants of diagnostics and the play driver (a byte stream
//! choosing submissions, chronons, undos and views of a loaded game, with small budgets).

use sidl_engine::diag::Diagnostic;
use sidl_engine::game::{
    trace, Actions, ChrononRecord, Game, Owner, RuntimeError, Session, Settings, Submission,
};
use sidl_engine::seats;
use sidl_engine::solve::errors::codes;
use sidl_engine::solve::Limits;
use sidl_engine::term::Term;
use std::sync::Arc;

/// Asserts that a span lies in `src` and on character boundaries.
pub fn assert_span(src: &str, start: u32, end: u32, what: &str) {
    assert!(
        start <= end && end as usize <= src.len(),
        "{what}: span {start}..{end} out of bounds (len {})",
        src.len()
    );
    assert!(
        src.is_char_boundary(start as usize) && src.is_char_boundary(end as usize),
        "{what}: span {start}..{end} not on character boundaries"
    );
}

/// A diagnostic's primary span (if located), labels and fixes lie in `src`.
pub fn assert_diagnostic(src: &str, d: &Diagnostic) {
    assert!(!d.code.is_empty() && !d.message.is_empty(), "{d:?}");
    if d.located {
        assert_span(src, d.span.start, d.span.end, d.code);
    }
    for l in &d.labels {
        assert_span(src, l.span.start, l.span.end, d.code);
    }
    for f in &d.fixes {
        assert_span(src, f.span.start, f.span.end, d.code);
    }
}

/// What `analysis::sort` promises: by (start, end, code, message), without exact duplicates.
pub fn assert_sorted(diags: &[Diagnostic]) {
    for w in diags.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let ka = (a.span.start, a.span.end, a.code, &a.message);
        let kb = (b.span.start, b.span.end, b.code, &b.message);
        assert!(ka <= kb, "diagnostics not sorted: {a:?} before {b:?}");
        assert!(a != b, "duplicate diagnostic {a:?}");
    }
}

/// Reads the driver bytes; zeros once they are used up.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, pos: 0 }
    }
    pub fn done(&self) -> bool {
        self.pos >= self.data.len()
    }
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    /// An index below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.byte() as usize % n
        } else {
            (((self.byte() as usize) << 8) | self.byte() as usize) % n
        }
    }
}

/// With `SIDL_FUZZ_TRACE` set, the driver prints what it does on stderr (to read what an input does:
/// `SIDL_FUZZ_TRACE=1 cargo fuzz run -s none play_games INPUT`).
fn trace_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SIDL_FUZZ_TRACE").is_some())
}

macro_rules! say {
    ($($arg:tt)*) => {
        if trace_on() {
            eprintln!($($arg)*);
        }
    };
}

/// Small budgets: a budget hit is a runtime error (a diagnostic), never a crash or a timeout.
pub fn settings(interrupt: bool, max_inferences: u64) -> Settings {
    Settings {
        limits: Limits {
            max_inferences,
            max_heap_cells: 1 << 18,
            max_choicepoints: 20_000,
            max_frames: 20_000,
        },
        interrupt,
    }
}

/// At most this many chronons and driver operations per input.
pub const MAX_CHRONONS: u64 = 6;
pub const MAX_OPS: usize = 40;

/// A value for a slot, a submission or a made-up id: edge values of every type.
pub fn value(b: &mut Bytes, players: &[Term]) -> Term {
    match b.byte() % 24 {
        0 => Term::Int(b.byte() as i64 - 128),
        1 => Term::Int(i64::MAX),
        2 => Term::Int(i64::MIN),
        3 => Term::Int((1 << 53) + 1),
        4 => Term::Float(f64::NAN),
        5 => Term::Float(f64::INFINITY),
        6 => Term::Float(f64::NEG_INFINITY),
        7 => Term::Float(-0.0),
        8 => Term::Float(f64::MAX),
        9 => Term::Float(f64::MIN_POSITIVE / 2.0),
        10 => Term::Float(b.byte() as f64 / 4.0),
        11 => Term::atom(""),
        12 => Term::atom("[]"),
        13 => Term::atom("odd 'atom'\n\u{fc}\u{1F600}"),
        14 => Term::atom(["a", "b", "x", "none", "pass", "true", "fail"][b.below(7)]),
        15 => Term::Str(sidl_engine::atom::Atom::new("str")),
        16 => Term::compound("f", vec![value(b, players)]),
        17 => Term::list(vec![Term::Int(1), value(b, players)]),
        18 => Term::Var(0),
        19 => Term::compound(",", vec![Term::atom("n"), Term::atom("integer")]),
        20 | 21 if !players.is_empty() => players[b.below(players.len())].clone(),
        _ => Term::Int(b.byte() as i64),
    }
}

/// The session's state and pending submissions, comparable (floats by bit pattern).
#[derive(Debug, PartialEq)]
struct Key {
    chronon: u64,
    facts: Vec<Term>,
    accounts: Vec<Term>,
    pending: Vec<Submission>,
}

fn key(s: &Session) -> Key {
    let st = s.state();
    Key {
        chronon: st.chronon,
        facts: st.facts.terms().cloned().collect(),
        accounts: st.accounts.clone(),
        pending: s.pending().to_vec(),
    }
}

/// A runtime error is a diagnostic with a stable `E09xx` code and spans inside the game.
fn assert_error(src: &str, e: &RuntimeError) {
    assert!(e.code.starts_with("E09"), "{e:?}");
    let d = e.to_diagnostic();
    assert_eq!(d.code, e.code);
    assert!(d.is_error());
    assert_diagnostic(src, &d);
}

fn is_budget(code: &str) -> bool {
    [
        codes::INFERENCE_BUDGET,
        codes::HEAP_BUDGET,
        codes::CHOICEPOINT_BUDGET,
        codes::DEPTH_BUDGET,
    ]
    .contains(&code)
}

/// `sub` is `all` with some elements left out (in order).
fn is_subsequence<T: PartialEq>(sub: &[T], all: &[T]) -> bool {
    let mut it = all.iter();
    sub.iter().all(|x| it.any(|y| y == x))
}

/// Loads `src` (skipped if it does not load) and plays it as the driver bytes say.
pub fn play(src: &str, driver: &[u8], max_inferences: u64) {
    let Ok((game, _)) = Game::load(src) else {
        return;
    };
    let game = Arc::new(game);
    let mut b = Bytes::new(driver);
    let flags = b.byte();
    let seed = b.byte() as u64;
    let settings = settings(flags & 1 == 1, max_inferences);
    // the costly checks (each runs the chronons again) when the driver asks for them
    let (replay, restore, rerun) = (flags & 2 != 0, flags & 4 != 0, flags & 8 != 0);
    let mut s = match Session::new(game.clone(), seed, settings.clone()) {
        Ok(s) => s,
        Err(e) => return assert_error(src, &e),
    };
    let mut ops = 0;
    while ops < MAX_OPS && s.chronon() < MAX_CHRONONS {
        ops += 1;
        let switches = match s.switches() {
            Ok(sw) => sw,
            Err(e) => return assert_error(src, &e),
        };
        if switches.is_empty() {
            break;
        }
        let players = s.players();
        if b.done() {
            // the rest of the play: random moves, filling unlimited switches
            // in interrupt mode every accepted submission runs its own transition: like the
            // adapters, stop after the first, so a runtime error means that nothing ran
            let before = key(&s);
            let one = s.settings().interrupt;
            let r = seats::random_moves(&mut s, None, true, one);
            say!("random moves -> {:?}", s.pending());
            match r {
                Ok(_) => {}
                Err(e) => {
                    assert_error(src, &e);
                    assert_eq!(key(&s).facts, before.facts);
                    break;
                }
            }
            if !chronon(src, &mut s, rerun) {
                break;
            }
            continue;
        }
        match b.byte() % 8 {
            0..=3 => {
                // a submission: usually the owner and an action of a legal switch
                let i = b.below(switches.len() + 1);
                let (switch, owner, actions) = match switches.get(i) {
                    Some(sw) => (sw.id.clone(), sw.owner.clone(), Some(sw.actions.clone())),
                    None => (value(&mut b, &players), Owner::Nobody, None),
                };
                let player = match owner {
                    Owner::Player(p) if b.byte() < 220 => p,
                    _ if !players.is_empty() && b.byte() < 200 => {
                        players[b.below(players.len())].clone()
                    }
                    _ => value(&mut b, &players),
                };
                let action = match actions {
                    Some(Actions::Finite(a)) if !a.is_empty() && b.byte() < 230 => {
                        a[b.below(a.len())].clone()
                    }
                    Some(Actions::Unlimited(t)) if !t.is_empty() => {
                        let t = &t[b.below(t.len())];
                        let slots = sidl_engine::game::template_slots(t);
                        let values: Vec<Term> =
                            slots.iter().map(|_| value(&mut b, &players)).collect();
                        sidl_engine::game::fill_template(t, &values)
                            .unwrap_or_else(|| value(&mut b, &players))
                    }
                    _ => value(&mut b, &players),
                };
                let before = key(&s);
                let interrupt = s.settings().interrupt;
                let r = s.submit(&player, &switch, &action);
                say!("submit({player:?}, {switch:?}, {action:?}) -> {r:?}");
                match r {
                    Ok(Ok(())) => {
                        if !interrupt {
                            assert_eq!(before.chronon, s.chronon());
                            assert!(s
                                .pending()
                                .iter()
                                .any(|p| p.switch == switch && p.player == player));
                        }
                    }
                    Ok(Err(_)) => {
                        assert_eq!(before, key(&s), "a rejected submission changed the session")
                    }
                    Err(e) => {
                        assert_error(src, &e);
                        assert_eq!(before, key(&s), "a failed submission changed the session");
                    }
                }
            }
            4 => {
                // fix a chance switch's action
                let chance: Vec<_> = switches.iter().filter(|s| s.owner.is_nature()).collect();
                let (switch, action) = match chance.get(b.below(chance.len() + 1)) {
                    Some(sw) => {
                        let a = match &sw.actions {
                            Actions::Finite(a) if !a.is_empty() && b.byte() < 230 => {
                                a[b.below(a.len())].clone()
                            }
                            _ => value(&mut b, &players),
                        };
                        (sw.id.clone(), a)
                    }
                    None => (value(&mut b, &players), value(&mut b, &players)),
                };
                let before = key(&s);
                let r = s.set_nature(&switch, &action);
                say!("set_nature({switch:?}, {action:?}) -> {r:?}");
                match r {
                    Ok(Ok(())) => assert_eq!(before.facts, key(&s).facts),
                    Ok(Err(_)) => assert_eq!(before, key(&s)),
                    Err(e) => assert_error(src, &e),
                }
            }
            5 => {
                if !chronon(src, &mut s, rerun) {
                    break;
                }
            }
            6 => {
                // views: a player sees a part of the designer's view, and of the events
                let all = match s.view(None) {
                    Ok(v) => v,
                    Err(e) => return assert_error(src, &e),
                };
                for p in &players {
                    match s.view(Some(p)) {
                        Ok(v) => {
                            assert!(is_subsequence(&v, &all), "view of {p:?} not in the facts")
                        }
                        Err(e) => assert_error(src, &e),
                    }
                    if let Err(e) = s.switches_of(p) {
                        assert_error(src, &e);
                    }
                }
                if let Err(e) = s.is_terminal() {
                    assert_error(src, &e);
                }
            }
            _ => {
                if b.byte() & 1 == 0 {
                    let n = s.history().len();
                    let undone = s.undo();
                    assert_eq!(undone, n > 0);
                    assert_eq!(s.history().len(), n.saturating_sub(undone as usize));
                } else {
                    s.clear_pending();
                    assert!(s.pending().is_empty());
                }
            }
        }
    }
    // the same history replayed from the seed gives the same state
    if replay {
        match Session::replay(game.clone(), seed, settings.clone(), s.history()) {
            Ok(r) => assert_eq!(key(&r).facts, key(&s).facts, "replay diverged"),
            Err(e) => {
                assert_error(src, &e);
                assert!(is_budget(e.code), "replay failed: {e:?}");
            }
        }
    }
    // and so does a snapshot restored from JSON
    if restore {
        // the JSON is the WASM API's (the engine's snapshot is plain data)
        let json = sidl_wasm::dto::snapshot_json(&s.snapshot());
        let snap = sidl_wasm::dto::snapshot_from_json(&json).expect("a snapshot reads back");
        match Session::restore(game, &snap, settings) {
            Ok(r) => assert_eq!(key(&r).facts, key(&s).facts, "restored snapshot diverged"),
            Err(e) => {
                assert_error(src, &e);
                assert!(is_budget(e.code), "restore failed: {e:?}\n{json}");
            }
        }
    }
    if let Err(e) = trace::state_line(&mut s) {
        assert_error(src, &e);
    }
}

/// Runs a chronon and checks its record; with `rerun`, undoes it (the state and pending submissions
/// come back) and runs it again (the same record). `false` when it failed (a runtime error, state
/// unchanged).
fn chronon(src: &str, s: &mut Session, rerun: bool) -> bool {
    let before = key(s);
    let r = s.run_chronon();
    say!("chronon {} -> {r:?}", before.chronon + 1);
    let rec: ChrononRecord = match r {
        Ok(r) => r.clone(),
        Err(e) => {
            assert_error(src, &e);
            assert_eq!(before, key(s), "a failed chronon changed the session");
            return false;
        }
    };
    let players = s.players();
    assert_eq!(rec.player_events.len(), players.len());
    for ev in rec.player_events.iter() {
        assert!(
            ev.windows(2).all(|w| w[0] < w[1])
                && ev.iter().all(|&k| (k as usize) < rec.events.len()),
            "a player's events are not a subsequence of the designer's"
        );
    }
    let after = key(s);
    assert_eq!(after.chronon, before.chronon + 1);
    if !rerun {
        return true;
    }
    assert!(s.undo());
    let undone = key(s);
    assert_eq!(undone.chronon, before.chronon);
    assert_eq!(undone.facts, before.facts, "undo did not restore the facts");
    assert_eq!(
        undone.accounts, before.accounts,
        "undo did not restore the accounts"
    );
    assert_eq!(undone.pending, rec.submissions);
    match s.run_chronon() {
        Ok(again) => assert_eq!(again, &rec, "the chronon ran differently after undo"),
        Err(e) => panic!("the chronon failed after undo: {e:?}"),
    }
    assert_eq!(key(s), after);
    true
}
