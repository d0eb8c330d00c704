//! The playground's API loop as numbers (issue 17): chronons and views written as ids into a table
//! of values that JavaScript keeps (`crate::chronon_js`), plus the JSON of the values that are new
//! since the last call. A value is a term's canonical text or an event's object ([`EventDto`]); a
//! term, an event or a fact that was handed over before is handed over again as its id, so that
//! JavaScript builds no string and no object for it again (and an event that recurs is the same
//! object). [`decode`] does what the JavaScript does, for the tests (`wasm/tests/core/wire.rs`): the
//! wire decodes to exactly the DTOs of [`Core::view`] and [`Core::run_chronon`] as they serialise.
//!
//! Terms are known as `Written` knows them: compounds by functor and the address of their
//! arguments (each entry holds its term, so an address is never reused while it is a key), atomic
//! terms by value. An event is known by its kind and its terms' ids. The table is emptied (on both
//! sides: the `reset` flag) when it outgrows its limit (8192 entries), at the start of a call.

use super::{show, Core, CoreError};
use crate::dto::{self, EventDto, SwitchDto};
use rustc_hash::FxHashMap;
use sidl_engine::atom::Atom;
use sidl_engine::game::session::{ActionSource, State};
use sidl_engine::game::Event;
use sidl_engine::term::Term;
use std::sync::Arc;

/// A term's key: tag, value (atom number, integer or float bits, functor), address of a compound's
/// arguments.
type TermKey = (u8, u64, usize);

/// An event's key: kind, its terms' ids, how, ok.
type EventKey = (u8, u32, u32, u8, bool);

/// What a viewer sees of a state ([`Wire::view`]).
enum Seen {
    /// The designer: every fact.
    All,
    /// A player (its index), and the state's hidden matrix (`Session::hidden_matrix`).
    Player(usize, Arc<Vec<Vec<bool>>>),
    /// A viewer that is not a player: the engine's view (`Session::view`).
    Facts(Vec<Term>),
}

/// What crosses for one call: `nums` (first the reset flag, then the call's own layout) and the
/// JSON array of the values to append to the table (after emptying it when `nums[0]` is 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WireOut {
    pub nums: Vec<f64>,
    pub fresh: String,
}

/// The Rust half of the table.
pub(crate) struct Wire {
    /// Entries after which the table is emptied (at the start of the next call).
    max: usize,
    terms: FxHashMap<TermKey, (Term, u32)>,
    events: FxHashMap<EventKey, u32>,
    /// The text of each term id (`None` for an event's id).
    texts: Vec<Option<String>>,
    /// The values added during the current call, as JSON array elements.
    fresh: String,
    /// The buffers of a [`WireOut`] handed back ([`Core::recycle_wire`]), for the next call.
    spare: Option<WireOut>,
    /// The ids of switch arrays handed over, by the entry number of `Core::switches_shared`.
    switch_ids: FxHashMap<u64, u32>,
    /// The ids of switch arrays handed over, by their content (the same switches in another
    /// state, or another player's turn that comes again, are the same array).
    switch_arrays: FxHashMap<Arc<[SwitchDto]>, u32>,
}

fn term_key(t: &Term) -> Option<TermKey> {
    Some(match t {
        Term::Atom(Atom(a)) => (1, *a as u64, 0),
        Term::Int(i) => (2, *i as u64, 0),
        Term::Float(f) => (3, f.to_bits(), 0),
        Term::Str(Atom(s)) => (4, *s as u64, 0),
        Term::Compound(Atom(f), args) => (5, *f as u64, Arc::as_ptr(args) as *const Term as usize),
        Term::Var(_) => return None,
    })
}

impl Default for Wire {
    fn default() -> Wire {
        Wire {
            max: Wire::MAX,
            terms: FxHashMap::default(),
            events: FxHashMap::default(),
            texts: Vec::new(),
            fresh: String::new(),
            spare: None,
            switch_ids: FxHashMap::default(),
            switch_arrays: FxHashMap::default(),
        }
    }
}

impl Wire {
    /// The default of [`Wire::max`].
    const MAX: usize = 8192;

    /// Starts a call: `nums` with its reset flag.
    fn begin(&mut self) -> Vec<f64> {
        self.fresh.clear();
        let reset = self.texts.len() >= self.max;
        if reset {
            self.terms.clear();
            self.events.clear();
            self.texts.clear();
            self.switch_ids.clear();
            self.switch_arrays.clear();
        }
        // the last call's buffer when it was handed back, else room for a typical call's numbers
        // (a chronon of a few events, a view of a few dozen facts)
        let mut nums = match &mut self.spare {
            Some(w) => std::mem::take(&mut w.nums),
            None => Vec::with_capacity(64),
        };
        nums.clear();
        nums.push(if reset { 1.0 } else { 0.0 });
        nums
    }

    fn end(&mut self, nums: Vec<f64>) -> WireOut {
        let mut fresh = match self.spare.take() {
            Some(w) => w.fresh,
            None => String::with_capacity(self.fresh.len() + 2),
        };
        fresh.clear();
        fresh.push('[');
        fresh.push_str(&self.fresh);
        fresh.push(']');
        WireOut { nums, fresh }
    }

    fn push_fresh<T: serde::Serialize + ?Sized>(&mut self, v: &T) -> u32 {
        if !self.fresh.is_empty() {
            self.fresh.push(',');
        }
        // a string or a plain struct of strings, numbers and booleans: serialising it cannot fail
        let json = serde_json::to_string(v).unwrap_or_else(|_| "null".into());
        self.fresh.push_str(&json);
        self.texts.len() as u32 - 1
    }

    /// The id of a term's text (handed over now if it is new).
    fn term(&mut self, t: &Term) -> u32 {
        let Some(key) = term_key(t) else {
            let text = show(t);
            self.texts.push(Some(text.clone()));
            return self.push_fresh(&text);
        };
        if let Some((_, id)) = self.terms.get(&key) {
            return *id;
        }
        let text = show(t);
        self.texts.push(Some(text.clone()));
        let id = self.push_fresh(&text);
        self.terms.insert(key, (t.clone(), id));
        id
    }

    fn text(&self, id: u32) -> String {
        self.texts[id as usize].clone().unwrap_or_default()
    }

    /// The id of a switch array (`Core::switches_shared`'s entry `n`, its switches `dtos`), handed
    /// over now if it is new.
    fn switches(&mut self, n: u64, dtos: &Arc<[SwitchDto]>) -> u32 {
        if let Some(id) = self.switch_ids.get(&n) {
            return *id;
        }
        let id = match self.switch_arrays.get(&**dtos) {
            Some(id) => *id,
            None => {
                self.texts.push(None);
                let id = self.push_fresh(&**dtos);
                self.switch_arrays.insert(dtos.clone(), id);
                id
            }
        };
        // the entries of the last few states (numbers are not reused)
        if self.switch_ids.len() >= 256 {
            self.switch_ids.clear();
        }
        self.switch_ids.insert(n, id);
        id
    }

    /// The facts of a view, `[n, id * n]`: every fact of `state` (`hidden` `None`), those the
    /// row `hidden[pi]` leaves to player `pi`, or `facts` (a viewer that is not a player).
    fn view(&mut self, nums: &mut Vec<f64>, state: &State, seen: &Seen) {
        let at = nums.len();
        nums.push(0.0);
        match seen {
            Seen::All => {
                for fact in state.facts.iter() {
                    nums.push(self.term(fact.term()) as f64);
                }
            }
            Seen::Player(pi, h) => {
                for (fact, hidden) in state.facts.iter().zip(h[*pi].iter()) {
                    if !hidden {
                        nums.push(self.term(fact.term()) as f64);
                    }
                }
            }
            Seen::Facts(facts) => {
                for f in facts {
                    nums.push(self.term(f) as f64);
                }
            }
        }
        nums[at] = (nums.len() - at - 1) as f64;
    }

    /// The id of an event's object (handed over now if it is new).
    fn event(&mut self, e: &Event) -> u32 {
        let key = match e {
            Event::Created(f) => (0, self.term(f), 0, 0, false),
            Event::Deleted(f) => (1, self.term(f), 0, 0, false),
            Event::Account { player, amount } => {
                (2, self.term(player), self.term(amount), 0, false)
            }
            Event::Switch {
                switch,
                action,
                how,
                ok,
            } => {
                let how = match how {
                    ActionSource::Submitted => 0,
                    ActionSource::Drawn => 1,
                    ActionSource::Default => 2,
                };
                (3, self.term(switch), self.term(action), how, *ok)
            }
        };
        if let Some(id) = self.events.get(&key) {
            return *id;
        }
        // every term of the event has its id now: the event's words are their texts
        let d: EventDto = dto::event_with(e, &mut |t| {
            let id = self.term(t);
            self.text(id)
        });
        self.texts.push(None);
        let id = self.push_fresh(&d);
        self.events.insert(key, id);
        id
    }
}

impl Core {
    /// Hands back a [`WireOut`] once its numbers and values have crossed: its buffers serve the
    /// next call (`lib.rs`; no allocation per call once they are large enough).
    pub fn recycle_wire(&mut self, w: WireOut) {
        self.wire.spare = Some(w);
    }

    /// Sets the number of table entries after which the table is emptied (8192; the tests make
    /// it small to see it emptied).
    pub fn set_wire_limit(&mut self, max: usize) {
        self.wire.max = max.max(1);
    }

    /// What `viewer` sees of the current state, or the engine's error (`Core::view`'s): nothing
    /// is written to the table yet.
    fn seen(&mut self, viewer: Option<&str>) -> Result<Seen, CoreError> {
        let Some(text) = viewer else {
            return Ok(Seen::All);
        };
        let t = self.players_read.player(text)?;
        match self.session.state().player_index(&t) {
            Some(pi) => Ok(Seen::Player(
                pi,
                self.session.hidden_matrix().map_err(|e| self.rt(e))?,
            )),
            // not a player: the engine's answer (its error)
            None => match self.session.view(Some(&t)) {
                Ok(facts) => Ok(Seen::Facts(facts)),
                Err(e) => Err(self.rt(e)),
            },
        }
    }

    /// [`Core::view`] as a [`WireOut`]: `nums` is `[reset, n, id * n]`.
    pub fn view_wire(&mut self, player: Option<&str>) -> Result<WireOut, CoreError> {
        let seen = self.seen(player)?;
        let state = self.session.state().clone();
        let mut nums = self.wire.begin();
        self.wire.view(&mut nums, &state, &seen);
        Ok(self.wire.end(nums))
    }

    /// The legal switches of each of `players` ([`Core::switches`]) and the view of each of
    /// `viewers` ([`Core::view`]; `None`: the designer) in one [`WireOut`]: `nums` is `[reset, s,
    /// id * s, v, (k, id * k) * v]`, each switch list one value of the table (a JSON array of
    /// switches, the same id while the switches stay the same). The first error of those calls,
    /// in that order, is the error; nothing is written to the table before every answer is known.
    pub fn switches_and_views_wire<P: AsRef<str>, V: AsRef<str>>(
        &mut self,
        players: &[P],
        viewers: &[Option<V>],
    ) -> Result<WireOut, CoreError> {
        let mut switches = Vec::with_capacity(players.len());
        for p in players {
            switches.push(self.switches_shared(Some(p.as_ref()))?);
        }
        let mut seen = Vec::with_capacity(viewers.len());
        for v in viewers {
            seen.push(self.seen(v.as_ref().map(AsRef::as_ref))?);
        }
        let state = self.session.state().clone();
        let mut nums = self.wire.begin();
        nums.push(switches.len() as f64);
        for (n, dtos) in &switches {
            nums.push(self.wire.switches(*n, dtos) as f64);
        }
        nums.push(seen.len() as f64);
        for s in &seen {
            self.wire.view(&mut nums, &state, s);
        }
        Ok(self.wire.end(nums))
    }

    /// History records `from..` (chronons `from + 1`, ...) as a [`WireOut`]: `nums` is `[reset,
    /// count, record * count]`, a record `[chronon, terminal, s, (player, switch, action) * s, e,
    /// event * e, players, (k, event * k) * players]`.
    pub fn chronons_wire(&mut self, from: usize) -> Result<WireOut, CoreError> {
        let len = self.session.history().len();
        let terminal = len > from && self.is_terminal()?;
        let mut nums = self.wire.begin();
        nums.push((len.saturating_sub(from)) as f64);
        let wire = &mut self.wire;
        for i in from..len {
            let rec = &self.session.history()[i];
            nums.push((i + 1) as f64);
            nums.push(if i + 1 == len && terminal { 1.0 } else { 0.0 });
            nums.push(rec.submissions.len() as f64);
            for s in &rec.submissions {
                for t in [&s.player, &s.switch, &s.action] {
                    nums.push(wire.term(t) as f64);
                }
            }
            nums.push(rec.events.len() as f64);
            let first = nums.len();
            for e in &rec.events {
                let id = wire.event(e);
                nums.push(id as f64);
            }
            nums.push(rec.player_events.len() as f64);
            for es in rec.player_events.iter() {
                nums.push(es.len() as f64);
                // a player's events are indices into the designer's: their ids are written above
                for &k in es {
                    nums.push(nums[first + k as usize]);
                }
            }
        }
        Ok(self.wire.end(nums))
    }

    /// [`Core::run_chronon`], its record as [`Core::chronons_wire`].
    pub fn run_chronon_wire(&mut self) -> Result<WireOut, CoreError> {
        let from = self.session.history().len();
        if let Err(e) = self.session.run_chronon().map(|_| ()) {
            return Err(self.rt(e));
        }
        self.chronons_wire(from)
    }

    /// [`Core::random_moves`], the chronons that ran as [`Core::chronons_wire`].
    pub fn random_moves_wire(&mut self, players: Option<&[String]>) -> Result<WireOut, CoreError> {
        let from = self.session.history().len();
        self.random_moves_only(players)?;
        self.chronons_wire(from)
    }

    /// [`Core::ai_moves`], the chronons that ran as [`Core::chronons_wire`].
    pub fn ai_moves_wire(
        &mut self,
        player: &str,
        spec: &str,
        seed: u64,
    ) -> Result<WireOut, CoreError> {
        let from = self.session.history().len();
        self.ai_moves_only(player, spec, seed)?;
        self.chronons_wire(from)
    }

    /// [`Core::history`] as [`Core::chronons_wire`].
    pub fn history_wire(&mut self) -> Result<WireOut, CoreError> {
        self.chronons_wire(0)
    }
}

/// Decodes a [`WireOut`] against a table (what `chronon_js.rs`'s JavaScript does), for the tests:
/// the table as JSON values, updated in place.
pub mod decode {
    use super::WireOut;
    use serde_json::{json, Value};

    fn take(table: &mut Vec<Value>, w: &WireOut) {
        if w.nums[0] != 0.0 {
            table.clear();
        }
        let fresh: Vec<Value> = serde_json::from_str(&w.fresh).expect("fresh values");
        table.extend(fresh);
    }

    /// A view: its facts' texts.
    pub fn view(table: &mut Vec<Value>, w: &WireOut) -> Vec<String> {
        take(table, w);
        let n = w.nums[1] as usize;
        w.nums[2..2 + n]
            .iter()
            .map(|&i| table[i as usize].as_str().expect("a text").to_string())
            .collect()
    }

    /// [`super::Core::switches_and_views_wire`]: each player's switches (as JSON) and each
    /// viewer's facts.
    pub fn switches_and_views(
        table: &mut Vec<Value>,
        w: &WireOut,
    ) -> (Vec<Value>, Vec<Vec<String>>) {
        take(table, w);
        let nums = &w.nums;
        let mut at = 1;
        let mut next = || {
            at += 1;
            nums[at - 1] as usize
        };
        let switches = (0..next()).map(|_| table[next()].clone()).collect();
        let views = (0..next())
            .map(|_| {
                (0..next())
                    .map(|_| table[next()].as_str().expect("a text").to_string())
                    .collect()
            })
            .collect();
        (switches, views)
    }

    /// Chronons as the JSON the page sees (`{chronon, submissions, events, playerEvents, terminal}`).
    pub fn chronons(table: &mut Vec<Value>, w: &WireOut) -> Vec<Value> {
        take(table, w);
        let nums = &w.nums;
        let mut at = 2;
        let mut next = || {
            at += 1;
            nums[at - 1]
        };
        let mut out = Vec::new();
        for _ in 0..nums[1] as usize {
            let chronon = next();
            let terminal = next() != 0.0;
            let subs: Vec<Value> = (0..next() as usize)
                .map(|_| {
                    json!([
                        table[next() as usize],
                        table[next() as usize],
                        table[next() as usize]
                    ])
                })
                .collect();
            let events: Vec<Value> = (0..next() as usize)
                .map(|_| table[next() as usize].clone())
                .collect();
            let players: Vec<Value> = (0..next() as usize)
                .map(|_| {
                    Value::Array(
                        (0..next() as usize)
                            .map(|_| table[next() as usize].clone())
                            .collect(),
                    )
                })
                .collect();
            out.push(
                json!({"chronon": chronon as u64, "submissions": subs, "events": events,
                "playerEvents": players, "terminal": terminal}),
            );
        }
        out
    }
}
