//! Presentation: the text a game declares for what a person reads (docs/reference.md "Labels").
//!
//! A game may define the hooks `label(Thing, Text)` and `label(Thing, Lang, Text)`: ordinary
//! predicates that the tools (`sidl play`, `sidl run`, the WASM API) ask, never the game manager.
//! `Thing` is one of `player(P)`, `switch(S)`, `action(S, A)`, `fact(F)`, `account(P, Amount)`,
//! `game` (what the game is about), `role(P)` (what player `P` does) and `result` (how the end reads:
//! every solution is one line). `Text` is an atom, a string, a number or a list of parts joined
//! here, in one place ([`text_of`]): atoms, strings and numbers stand for their text, `fixed(X, N)`
//! for the number `X` with `N` decimals, `label(Thing)` for the label of another thing, a list for
//! its parts, any other term for its `writeq` text.
//!
//! A [`Presenter`] evaluates labels for one viewer (a player, or `None` for the designer) in that
//! viewer's view of the state: a session assembled from the facts the viewer may see
//! ([`Session::view`]), the players and the accounts. A label rule so never reads a fact hidden from
//! the viewer, and [`Presenter::fact`] never runs the rule of a fact the viewer may not see. Each
//! query runs under small budgets ([`LABEL_LIMITS`]); a rule that fails, throws, runs out of budget
//! or gives no text leaves the raw term (`writeq`) in its place: labels never break a game. The text
//! is plain (control characters become spaces, at most [`MAX_TEXT`] characters): adapters that put
//! it into a page insert it as text, never as markup.

use super::session::{Settings, State};
use super::{Event, Game, RuntimeError, Session};
use crate::atom::Atom;
use crate::game::facts::{FactSet, Ground};
use crate::solve::Limits;
use crate::term::Term;
use crate::write::{float_text, writeq};
use std::sync::Arc;

/// `label(Thing, Text)`: the text of a thing in the game's only (or default) language.
pub const LABEL: (&str, u32) = ("label", 2);
/// `label(Thing, Lang, Text)`: the text of a thing in language `Lang` (an atom such as `en`).
pub const LABEL_LANG: (&str, u32) = ("label", 3);

/// The budgets of one label query: a label is a few lookups, not a search. The inference budget
/// is the one that stops a looping rule: the heap budget is four times what 20,000 steps of a
/// simple loop use, so that native and WASM (whose heaps grow alike but not to the cell) stop at
/// the same budget (`wasm/tests/parity.mjs` compares their diagnostics).
pub const LABEL_LIMITS: Limits = Limits {
    max_inferences: 20_000,
    max_heap_cells: 1 << 18,
    max_choicepoints: 4096,
    max_frames: 4096,
};
/// The most characters of one label (longer text is cut, with `…`).
pub const MAX_TEXT: usize = 400;
/// The most lines of the result (`label(result, Text)` solutions).
pub const MAX_RESULT_LINES: usize = 16;
/// How deep `label(Thing)` parts may nest.
const MAX_DEPTH: usize = 4;

/// What a label is asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Thing {
    Player(Term),
    Switch(Term),
    Action {
        switch: Term,
        action: Term,
    },
    Fact(Term),
    Account {
        player: Term,
        amount: Term,
    },
    /// The description of the game.
    Game,
    /// A player's role.
    Role(Term),
    /// How the end reads.
    Result,
}

impl Thing {
    /// The `Thing` argument of the hook: `player(P)`, `action(S, A)`, `game`, ...
    pub fn term(&self) -> Term {
        match self {
            Thing::Player(p) => Term::compound("player", vec![p.clone()]),
            Thing::Switch(s) => Term::compound("switch", vec![s.clone()]),
            Thing::Action { switch, action } => {
                Term::compound("action", vec![switch.clone(), action.clone()])
            }
            Thing::Fact(f) => Term::compound("fact", vec![f.clone()]),
            Thing::Account { player, amount } => {
                Term::compound("account", vec![player.clone(), amount.clone()])
            }
            Thing::Game => Term::atom("game"),
            Thing::Role(p) => Term::compound("role", vec![p.clone()]),
            Thing::Result => Term::atom("result"),
        }
    }

    /// The raw text of the thing (what a tool shows without a label): `writeq` of its term.
    pub fn raw(&self) -> String {
        match self {
            Thing::Player(t) | Thing::Switch(t) | Thing::Fact(t) | Thing::Role(t) => {
                writeq(t, None)
            }
            Thing::Action { action, .. } => writeq(action, None),
            Thing::Account { player, amount } => {
                format!("{} {}", writeq(player, None), writeq(amount, None))
            }
            Thing::Game | Thing::Result => String::new(),
        }
    }

    /// The thing a `Thing` term names (the `label(Thing)` part), if any.
    pub fn from_term(t: &Term) -> Option<Thing> {
        Some(match t {
            Term::Atom(a) if a.name() == "game" => Thing::Game,
            Term::Atom(a) if a.name() == "result" => Thing::Result,
            Term::Compound(f, args) => match (f.name(), &args[..]) {
                ("player", [p]) => Thing::Player(p.clone()),
                ("switch", [s]) => Thing::Switch(s.clone()),
                ("fact", [w]) => Thing::Fact(w.clone()),
                ("role", [p]) => Thing::Role(p.clone()),
                ("action", [s, a]) => Thing::Action {
                    switch: s.clone(),
                    action: a.clone(),
                },
                ("account", [p, x]) => Thing::Account {
                    player: p.clone(),
                    amount: x.clone(),
                },
                _ => return None,
            },
            _ => return None,
        })
    }
}

/// Does the game define `label/2` or `label/3`?
pub fn has_labels(game: &Game) -> bool {
    [LABEL, LABEL_LANG]
        .iter()
        .any(|&(n, a)| game.program.pred(Atom::new(n), a).is_some())
}

/// Labels for one viewer in one state (see the module documentation).
pub struct Presenter {
    /// `None` when the game has no labels (every text is raw, nothing is evaluated).
    view: Option<Session>,
    /// The viewer's visible facts (`None`: the designer, who sees every fact).
    visible: Option<rustc_hash::FxHashSet<Term>>,
    lang: Option<Term>,
    has2: bool,
    has3: bool,
    /// The first error of a label query since [`Presenter::take_error`] (for the lint).
    error: Option<RuntimeError>,
}

impl Presenter {
    /// Labels for `viewer` (`None`: the designer) in `s`'s current state, in language `lang` (an atom
    /// name such as `en`; `None`: the game's default). A hidden/2 error is returned as it is (the
    /// view itself cannot be shown then).
    pub fn new(
        s: &mut Session,
        viewer: Option<&Term>,
        lang: Option<&str>,
    ) -> Result<Presenter, RuntimeError> {
        let game = s.game().clone();
        let has2 = game.program.pred(Atom::new(LABEL.0), LABEL.1).is_some();
        let has3 = game
            .program
            .pred(Atom::new(LABEL_LANG.0), LABEL_LANG.1)
            .is_some();
        if !has2 && !has3 {
            return Ok(Presenter::raw());
        }
        Presenter::viewing(s, viewer, lang)
    }

    /// A presenter that always holds the viewer's view (even without label rules): the layout
    /// ([`super::layout`]) asks its own hooks in it.
    pub(crate) fn viewing(
        s: &mut Session,
        viewer: Option<&Term>,
        lang: Option<&str>,
    ) -> Result<Presenter, RuntimeError> {
        let game = s.game().clone();
        let has2 = game.program.pred(Atom::new(LABEL.0), LABEL.1).is_some();
        let has3 = game
            .program
            .pred(Atom::new(LABEL_LANG.0), LABEL_LANG.1)
            .is_some();
        let facts = s.view(viewer)?;
        let visible = viewer.map(|_| facts.iter().cloned().collect());
        let st = s.state().clone();
        let state = State {
            chronon: st.chronon,
            facts: Arc::new(FactSet::from_grounds(
                facts
                    .into_iter()
                    .map(|f| Arc::new(Ground::new(f)))
                    .collect(),
            )),
            players: st.players.clone(),
            accounts: st.accounts.clone(),
        };
        let settings = Settings {
            limits: LABEL_LIMITS,
            interrupt: false,
        };
        Ok(Presenter {
            view: Some(Session::from_state(game, state, s.seed(), settings)),
            visible,
            lang: lang.map(Term::atom),
            has2,
            has3,
            error: None,
        })
    }

    /// Asks no label rule from now on (every thing reads raw); the view stays, for the layout's
    /// own hooks ([`super::layout::Texts::Raw`]).
    pub(crate) fn without_labels(&mut self) {
        self.has2 = false;
        self.has3 = false;
    }

    /// A presenter that gives every thing its raw text.
    pub fn raw() -> Presenter {
        Presenter {
            view: None,
            visible: None,
            lang: None,
            has2: false,
            has3: false,
            error: None,
        }
    }

    /// The first error (a throw, an exhausted budget) of a label rule since the last call: the
    /// label fell back to the raw term; `sidl check` reports it (W0420).
    pub fn take_error(&mut self) -> Option<RuntimeError> {
        self.error.take()
    }

    /// Does this presenter have label rules to ask?
    pub fn active(&self) -> bool {
        self.view.is_some()
    }

    /// The label of `thing`, `None` when the game gives none (no rule, a rule that fails, throws,
    /// runs out of budget or gives no text) or when `thing` is a fact the viewer may not see.
    pub fn label(&mut self, thing: &Thing) -> Option<String> {
        self.label_at(thing, 0)
    }

    /// The viewer's view (a session of the facts the viewer may see), if this presenter has one.
    pub(crate) fn view_session(&mut self) -> Option<&mut Session> {
        self.view.as_mut()
    }

    /// The text of a `Text` term (as a label's text: parts joined, `label(Thing)` looked up).
    pub(crate) fn text_term(&mut self, t: &Term) -> Option<String> {
        self.join(t, 0)
    }

    /// The label of `thing`, or its raw text.
    pub fn text(&mut self, thing: &Thing) -> String {
        self.label(thing).unwrap_or_else(|| thing.raw())
    }

    pub fn player(&mut self, p: &Term) -> String {
        self.text(&Thing::Player(p.clone()))
    }
    pub fn switch(&mut self, s: &Term) -> String {
        self.text(&Thing::Switch(s.clone()))
    }
    pub fn action(&mut self, switch: &Term, action: &Term) -> String {
        self.text(&Thing::Action {
            switch: switch.clone(),
            action: action.clone(),
        })
    }
    pub fn fact(&mut self, f: &Term) -> String {
        self.text(&Thing::Fact(f.clone()))
    }
    pub fn account(&mut self, player: &Term, amount: &Term) -> String {
        self.text(&Thing::Account {
            player: player.clone(),
            amount: amount.clone(),
        })
    }

    /// The game's description, if it declares one.
    pub fn description(&mut self) -> Option<String> {
        self.label(&Thing::Game)
    }

    /// A player's role, if the game declares one.
    pub fn role(&mut self, p: &Term) -> Option<String> {
        self.label(&Thing::Role(p.clone()))
    }

    /// The lines of `label(result, Text)` in this state (for the end screen), empty without them.
    pub fn result(&mut self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in self.texts(&Thing::Result, MAX_RESULT_LINES) {
            if let Some(line) = self.join(&t, 0) {
                if !out.contains(&line) {
                    out.push(line);
                }
            }
        }
        out
    }

    /// One line of an event that this viewer may see (from its `player_events`), in the engine's
    /// one event text ([`Event::text`]) with this viewer's labels.
    pub fn event(&mut self, e: &Event) -> String {
        e.text(self)
    }

    /// The label of a fact of an event the viewer saw: it may be gone from the current state (or
    /// not there yet), so it is labelled without the view check; the rule still reads only the
    /// viewer's view.
    pub fn event_fact(&mut self, w: &Term) -> String {
        let thing = Thing::Fact(w.clone());
        self.first_text(&thing, 0).unwrap_or_else(|| thing.raw())
    }

    fn label_at(&mut self, thing: &Thing, depth: usize) -> Option<String> {
        if let (Thing::Fact(f), Some(vis)) = (thing, &self.visible) {
            if !vis.contains(f) {
                return None;
            }
        }
        self.first_text(thing, depth)
    }

    fn first_text(&mut self, thing: &Thing, depth: usize) -> Option<String> {
        self.view.as_ref()?;
        for t in self.texts(thing, 4) {
            if let Some(s) = self.join(&t, depth) {
                return Some(s);
            }
        }
        None
    }

    /// The `Text` answers for `thing`: in the requested language, then `label/2`, then (with no
    /// language requested) `label/3` in any language. Errors give no answers.
    fn texts(&mut self, thing: &Thing, max: usize) -> Vec<Term> {
        let Some(s) = self.view.as_mut() else {
            return Vec::new();
        };
        let th = thing.term();
        let text = Term::Var(0);
        let mut out = Vec::new();
        let error = &mut self.error;
        let mut ask = |goal: Term, out: &mut Vec<Term>| {
            if out.len() < max {
                match s.query_state(&goal, &text, max - out.len(), "label") {
                    Ok(ts) => out.extend(ts),
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
            }
        };
        if self.has3 {
            if let Some(l) = &self.lang {
                ask(
                    Term::compound("label", vec![th.clone(), l.clone(), text.clone()]),
                    &mut out,
                );
            }
        }
        if self.has2 && out.is_empty() {
            ask(
                Term::compound("label", vec![th.clone(), text.clone()]),
                &mut out,
            );
        }
        if self.has3 && self.lang.is_none() && out.is_empty() {
            ask(
                Term::compound("label", vec![th, Term::Var(1), text.clone()]),
                &mut out,
            );
        }
        out
    }

    /// The text of an answer, with `label(Thing)` parts looked up.
    fn join(&mut self, t: &Term, depth: usize) -> Option<String> {
        let mut out = String::new();
        let mut sub = |th: &Term, out: &mut String| -> bool {
            if depth + 1 >= MAX_DEPTH {
                return false;
            }
            let Some(thing) = Thing::from_term(th) else {
                return false;
            };
            match self.label_at(&thing, depth + 1) {
                Some(s) => out.push_str(&s),
                None => out.push_str(&thing.raw()),
            }
            true
        };
        if !text_of(t, &mut out, &mut sub) {
            return None;
        }
        let clean = plain(&out);
        (!clean.trim().is_empty()).then_some(clean)
    }
}

/// Appends the text of a label's `Text` to `out` (see the module documentation); `false` when it is
/// not text (an unbound variable, a bad `fixed/2`, a `label/1` part `sub` refuses). `sub` appends
/// the text of a `label(Thing)` part.
pub fn text_of(
    t: &Term,
    out: &mut String,
    sub: &mut dyn FnMut(&Term, &mut String) -> bool,
) -> bool {
    // iterative over the list spine and nested lists
    let mut stack: Vec<&Term> = vec![t];
    while let Some(t) = stack.pop() {
        if out.len() > MAX_TEXT * 4 {
            return true;
        }
        match t {
            Term::Var(_) => return false,
            Term::Atom(a) if a.name() == "[]" => {}
            Term::Atom(a) | Term::Str(a) => out.push_str(a.name()),
            Term::Int(i) => out.push_str(&i.to_string()),
            Term::Float(f) => out.push_str(&float_text(*f)),
            Term::Compound(f, args) if f.name() == "." && args.len() == 2 => {
                stack.push(&args[1]);
                stack.push(&args[0]);
            }
            Term::Compound(f, args) if f.name() == "fixed" && args.len() == 2 => {
                let x = match &args[0] {
                    Term::Int(i) => *i as f64,
                    Term::Float(x) => *x,
                    _ => return false,
                };
                let Term::Int(n) = args[1] else { return false };
                if !(0..=12).contains(&n) {
                    return false;
                }
                out.push_str(&format!("{x:.*}", n as usize));
            }
            Term::Compound(f, args) if f.name() == "label" && args.len() == 1 => {
                if !sub(&args[0], out) {
                    return false;
                }
            }
            other => out.push_str(&writeq(other, None)),
        }
    }
    true
}

/// Plain text: control characters (a line break too) become spaces; at most [`MAX_TEXT`]
/// characters (then `…`).
fn plain(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_TEXT)
        .collect();
    if s.chars().count() > MAX_TEXT {
        out.push('…');
    }
    out
}

impl super::events::Words for &mut Presenter {
    fn player(&mut self, p: &Term) -> String {
        Presenter::player(self, p)
    }
    fn switch(&mut self, s: &Term) -> String {
        Presenter::switch(self, s)
    }
    fn action(&mut self, switch: &Term, action: &Term) -> String {
        Presenter::action(self, switch, action)
    }
    fn fact(&mut self, f: &Term) -> String {
        self.event_fact(f)
    }
    fn amount(&mut self, a: &Term) -> String {
        crate::write::writeq(a, None)
    }
}

/// The languages a game declares: the atoms written as the language argument of its `label/3`
/// clauses, in source order, without repeats (empty without `label/3`).
pub fn languages(game: &Game) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let Some(pred) = game.program.pred(Atom::new(LABEL_LANG.0), LABEL_LANG.1) else {
        return out;
    };
    for c in &pred.clauses {
        let head = match &c.term {
            Term::Compound(f, args) if f.name() == ":-" && args.len() == 2 => &args[0],
            t => t,
        };
        if let Term::Compound(_, args) = head {
            if let Some(Term::Atom(l)) = args.get(1) {
                if !out.iter().any(|x| x == l.name()) {
                    out.push(l.name().to_string());
                }
            }
        }
    }
    out
}

/// The players' labels in the initial state of a session of `game` with `seed` (the designer's,
/// in language `lang`), in player order; `None` for a player without a label. Empty when the game
/// has no labels or does not start.
pub fn player_labels(game: &Arc<Game>, seed: u64, lang: Option<&str>) -> Vec<Option<String>> {
    if !has_labels(game) {
        return Vec::new();
    }
    let Ok(mut s) = Session::new(game.clone(), seed, Settings::default()) else {
        return Vec::new();
    };
    let Ok(mut pr) = Presenter::new(&mut s, None, lang) else {
        return Vec::new();
    };
    s.players()
        .iter()
        .map(|p| pr.label(&Thing::Player(p.clone())))
        .collect()
}

/// A term and its text for a person: the label, or the raw term when the game gives none.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    pub term: Term,
    pub text: String,
    /// `true` when `text` is the game's label, `false` when it is the raw term.
    pub labelled: bool,
}

/// A legal switch as one viewer reads it: its label and the labels of its actions (the templates
/// of an unlimited switch keep their raw text).
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchText {
    pub switch: Labelled,
    pub owner: Option<Term>,
    pub actions: Vec<Labelled>,
}

/// Everything a person reads of one state, for one viewer, in one language: what the playground, the
/// embed element and the participant page of `sidl serve` show ([`present`]).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Presentation {
    /// Does the game define labels at all?
    pub active: bool,
    /// The language asked for (`None`: the game's default).
    pub lang: Option<String>,
    /// The languages the game declares ([`languages`]).
    pub languages: Vec<String>,
    /// The game's description (`label(game, _)`).
    pub description: Option<String>,
    /// The roles (`label(role(P), _)`): the viewer's own, or every player's for the designer.
    pub roles: Vec<(Term, String)>,
    pub players: Vec<Labelled>,
    /// The facts of the viewer's view, in view order.
    pub facts: Vec<Labelled>,
    /// The legal switches the viewer owns (every legal switch for the designer).
    pub switches: Vec<SwitchText>,
    /// Every player's account, `account(P, X)`.
    pub accounts: Vec<Labelled>,
    /// For each chronon of the history from [`Presentation::events_from`] on, the events this
    /// viewer saw, as text ([`Event::text`]).
    pub events: Vec<Vec<String>>,
    /// The chronon (0-based index in the history) of `events[0]`: 0 from [`present`]; from
    /// [`present_from`], at most the `from` asked for (see there).
    pub events_from: usize,
    /// The result lines (`label(result, _)`), only in a terminal state.
    pub result: Vec<String>,
}

/// What `viewer` (`None`: the designer) reads of `s`'s current state in language `lang`, every text
/// built by one [`Presenter`] for that viewer (so from that viewer's view only): its visible facts,
/// its legal switches and their actions, the players, the accounts, the events of the history it
/// saw (`events`: `false` leaves them out), the description, the roles and, at the end, the result.
/// Errors are those of the session's own queries (`view`, `switches`, `is_terminal`); a label rule's
/// error only leaves raw text.
pub fn present(
    s: &mut Session,
    viewer: Option<&Term>,
    lang: Option<&str>,
    events: bool,
) -> Result<Presentation, RuntimeError> {
    let mut lines = EventLines::default();
    present_with(s, viewer, lang, events.then_some(&mut lines))
}

/// The labelled event lines of a history, kept from one [`present_with`] call to the next (a page
/// asks for the labels after every step): a chronon's lines are built again only when its events
/// differ from those kept, when the viewer or the language changed, or always when the label rules
/// an event line can ask can read the state (they run in the viewer's current view, so a line may
/// change with it). Whether they can is static ([`event_labels_read_state`]).
#[derive(Default)]
pub struct EventLines {
    key: Option<(Option<Term>, Option<String>)>,
    /// Per chronon of the history: the viewer's events and their lines.
    rows: Vec<(Vec<Event>, Vec<String>)>,
}

/// Can a label rule that an event line asks read anything but its arguments and the players?
///
/// An event line asks for the labels of `player(P)`, `switch(S)`, `action(S, A)` and `fact(F)`
/// things ([`super::events::Event::text`]), and then of every thing a `label(T)` part of an asked
/// clause names (a variable `T`: any thing). The `label/2` and `label/3` clauses whose thing
/// argument can be one of those are the asked ones (a `label(result, …)` or `label(role(P), …)`
/// clause is not); the answer is yes when one of them has a body that reaches a host predicate
/// other than `player/1` (whose answers a session never changes), an unknown goal or a random
/// number.
fn event_labels_read_state(game: &Game) -> bool {
    let mut clauses: Vec<(&Term, &crate::solve::program::ClauseT)> = Vec::new();
    for (n, a) in [LABEL, LABEL_LANG] {
        if let Some(p) = game.program.pred(Atom::new(n), a) {
            for cl in &p.clauses {
                let head = match &cl.term {
                    Term::Compound(f, args) if f.name() == ":-" && args.len() == 2 => &args[0],
                    t => t,
                };
                match head {
                    Term::Compound(_, args) if !args.is_empty() => clauses.push((&args[0], cl)),
                    // not a label clause's shape: treat it as able to read the state
                    _ => return true,
                }
            }
        }
    }
    let mut kinds: Vec<(Atom, usize)> = [("player", 1), ("switch", 1), ("action", 2), ("fact", 1)]
        .iter()
        .map(|&(n, a)| (Atom::new(n), a))
        .collect();
    let mut any = false;
    let asked = |thing: &Term, kinds: &[(Atom, usize)], any: bool| {
        any || match thing {
            Term::Var(_) => true,
            Term::Atom(n) => kinds.contains(&(*n, 0)),
            Term::Compound(n, args) => kinds.contains(&(*n, args.len())),
            _ => false,
        }
    };
    let mut scanned = vec![false; clauses.len()];
    loop {
        let mut changed = false;
        for (i, (thing, cl)) in clauses.iter().enumerate() {
            if scanned[i] || !asked(thing, &kinds, any) {
                continue;
            }
            scanned[i] = true;
            changed = true;
            label_refs(&cl.term, &mut kinds, &mut any);
        }
        if !changed {
            break;
        }
    }
    clauses.iter().zip(&scanned).any(|((_, cl), &s)| {
        s && game.program.clause_reaches(cl) & !(1 << super::host::PLAYER) != 0
    })
}

/// Adds the kind (name and arity) of every `label(T)` term inside `t` to `kinds`; a variable `T`
/// sets `any`.
fn label_refs(t: &Term, kinds: &mut Vec<(Atom, usize)>, any: &mut bool) {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if let Term::Compound(f, args) = t {
            if f.name() == "label" && args.len() == 1 {
                match &args[0] {
                    Term::Var(_) => *any = true,
                    Term::Atom(n) => kinds.push((*n, 0)),
                    Term::Compound(n, a) => kinds.push((*n, a.len())),
                    _ => {}
                }
            }
            stack.extend(args.iter());
        }
    }
}

/// [`present`] with the event lines of the history kept in `events` (`None`: no events).
pub fn present_with(
    s: &mut Session,
    viewer: Option<&Term>,
    lang: Option<&str>,
    events: Option<&mut EventLines>,
) -> Result<Presentation, RuntimeError> {
    present_from(s, viewer, lang, events, 0)
}

/// [`present_with`] giving only the event lines a caller does not have: those of the chronons
/// from `events_from` on, where `events_from` is `from`, or less when a line before `from` is not
/// what the previous call with the same `events` gave: the history is shorter, a chronon's events
/// are other ones (after an undo or a restore), the viewer or the language changed, or the label
/// rules read the state (then always 0). A caller that keeps every call's lines (those before
/// `events_from` and the new ones), and asks from the number of lines it has, so has the lines
/// of the whole history, and a step costs the lines of its own chronons, not of the game so far.
pub fn present_from(
    s: &mut Session,
    viewer: Option<&Term>,
    lang: Option<&str>,
    events: Option<&mut EventLines>,
    from: usize,
) -> Result<Presentation, RuntimeError> {
    let mut pr = Presenter::new(s, viewer, lang)?;
    let game = s.game().clone();
    let lab = |pr: &mut Presenter, thing: Thing, term: &Term| {
        let l = pr.label(&thing);
        Labelled {
            term: term.clone(),
            labelled: l.is_some(),
            text: l.unwrap_or_else(|| thing.raw()),
        }
    };
    let players = s.players();
    let out_players = players
        .iter()
        .map(|p| lab(&mut pr, Thing::Player(p.clone()), p))
        .collect();
    let facts = s
        .view(viewer)?
        .iter()
        .map(|f| lab(&mut pr, Thing::Fact(f.clone()), f))
        .collect();
    let mut switches = Vec::new();
    for sw in s.switches()?.iter() {
        if let Some(v) = viewer {
            if sw.owner != super::Owner::Player(v.clone()) {
                continue;
            }
        }
        let actions = match &sw.actions {
            super::Actions::Finite(acts) => acts
                .iter()
                .map(|a| {
                    lab(
                        &mut pr,
                        Thing::Action {
                            switch: sw.id.clone(),
                            action: a.clone(),
                        },
                        a,
                    )
                })
                .collect(),
            super::Actions::Unlimited(ts) => ts
                .iter()
                .map(|t| Labelled {
                    term: t.clone(),
                    text: writeq(t, None),
                    labelled: false,
                })
                .collect(),
        };
        switches.push(SwitchText {
            switch: lab(&mut pr, Thing::Switch(sw.id.clone()), &sw.id),
            owner: sw.owner_term.clone(),
            actions,
        });
    }
    let accounts = s
        .accounts()
        .into_iter()
        .map(|(p, x)| {
            let thing = Thing::Account {
                player: p.clone(),
                amount: x,
            };
            lab(&mut pr, thing, &p)
        })
        .collect();
    let roles = match viewer {
        Some(v) => pr.role(v).map(|r| vec![(v.clone(), r)]).unwrap_or_default(),
        None => players
            .iter()
            .filter_map(|p| pr.role(p).map(|r| (p.clone(), r)))
            .collect(),
    };
    let mut evs = Vec::new();
    let mut events_from = 0;
    if let Some(kept) = events {
        let key = (viewer.cloned(), lang.map(str::to_string));
        if kept.key.as_ref() != Some(&key) || event_labels_read_state(&game) {
            kept.rows.clear();
            kept.key = Some(key);
        }
        let who = viewer.and_then(|v| players.iter().position(|p| p == v));
        let history = s.history();
        // the first chronon whose lines are built now: every later one is built too
        let mut built = history.len();
        for (k, rec) in history.iter().enumerate() {
            let seen: Vec<&Event> = match (viewer, who) {
                (None, _) => rec.events.iter().collect(),
                (Some(_), Some(i)) => rec.events_of(i).collect(),
                (Some(_), None) => Vec::new(),
            };
            if let Some((old, _)) = kept.rows.get(k) {
                if old.len() == seen.len() && old.iter().zip(&seen).all(|(a, b)| a == *b) {
                    continue;
                }
            }
            let lines: Vec<String> = seen.iter().map(|e| pr.event(e)).collect();
            built = built.min(k);
            kept.rows.truncate(k);
            kept.rows.push((seen.into_iter().cloned().collect(), lines));
        }
        kept.rows.truncate(history.len());
        events_from = from.min(built).min(history.len());
        evs = kept.rows[events_from..]
            .iter()
            .map(|(_, lines)| lines.clone())
            .collect();
    }
    let result = if s.is_terminal()? {
        pr.result()
    } else {
        Vec::new()
    };
    Ok(Presentation {
        active: pr.active(),
        lang: lang.map(str::to_string),
        languages: languages(&game),
        description: pr.description(),
        roles,
        players: out_players,
        facts,
        switches,
        accounts,
        events: evs,
        events_from,
        result,
    })
}
