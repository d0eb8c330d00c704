//! The playground's API loop as numbers (issue 17): chronons and views written as ids into a table
//! of values that JavaScript keeps (`crate::chronon_js`), plus the JSON of the values that are new
//! since the last call. A value is a term's canonical text, an event's object ([`EventDto`]) or a
//! player's list of switches ([`SwitchDto`]s); a term, an event, a fact or a switch list that was
//! handed over before is handed over again as its id, so that JavaScript builds no string and no
//! object for it again (and an event that recurs is the same object). A player's new switch list
//! whose switches are all finite crosses as numbers too, its terms' ids ([`Wire::switch_list`],
//! from the engine's switches, without DTOs), not as JSON to parse: Connect Four, tic-tac-toe and
//! chess show a new list in almost every state. [`decode`] does what the JavaScript does, for the
//! tests (`wasm/tests/core/wire.rs`): the wire decodes to exactly the DTOs of [`Core::view`] and
//! [`Core::run_chronon`] as they serialise.
//!
//! Terms are known as `Written` knows them: compounds by functor and the address of their
//! arguments (each entry holds its term, so an address is never reused while it is a key), atomic
//! terms by value. An event is known by its kind and its terms' ids. The table is emptied (on both
//! sides: the `reset` flag) when it outgrows its limit (8192 entries), at the start of a call.

use super::{show, Core, CoreError};
use crate::dto::{self, EventDto, SwitchDto};
use rustc_hash::FxHashMap;
use sidl_engine::atom::Atom;
use sidl_engine::game::session::{ActionSource, Actions, Owner, State, SwitchInfo};
use sidl_engine::game::Event;
use sidl_engine::term::Term;
use std::sync::Arc;

/// A term's key: tag, value (atom number, integer or float bits, functor), address of a compound's
/// arguments.
type TermKey = (u8, u64, usize);

/// An entry of [`Wire::lists`]: the engine's switches and the player it was written for (held),
/// and the list's id.
type ListEntry = (Arc<Vec<SwitchInfo>>, Term, u32);

/// An event's key: kind, its terms' ids, how, ok.
type EventKey = (u8, u32, u32, u8, bool);

/// A player's switches in [`Core::switches_and_views_wire`].
enum List {
    /// With an unlimited switch: `Core::switches_shared`'s entry and DTOs ([`Wire::switches`]).
    Dtos((u64, Arc<[SwitchDto]>)),
    /// Finite switches only: the engine's switches and the player ([`Wire::switch_list`]).
    Terms(Arc<Vec<SwitchInfo>>, Term),
}

/// Whether switch `s` is one `player` owns (`Core::switches_shared` and [`Wire::switch_list`]
/// keep those).
pub(super) fn owned_by(s: &SwitchInfo, player: &Term) -> bool {
    matches!(&s.owner, Owner::Player(q) if q == player)
}

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
    /// The ids of the switch lists written from the engine's switches ([`Wire::switch_list`]), by
    /// the address of the engine's `Arc` and the player's key; each entry holds both, so that
    /// neither address is reused while it is a key.
    lists: FxHashMap<(usize, TermKey), ListEntry>,
    /// The same lists by content, their terms' ids ([`Wire::switch_list`]): a player's switches
    /// equal to ones written before from another `Arc` (tic-tac-toe's open cells come again, game
    /// after game; a player without a switch) are that list.
    lists_by_ids: FxHashMap<Box<[u32]>, u32>,
    /// [`Wire::switch_list`]'s scratch: a list's ids.
    list_ids: Vec<u32>,
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
            lists: FxHashMap::default(),
            lists_by_ids: FxHashMap::default(),
            list_ids: Vec::new(),
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
            self.lists.clear();
            self.lists_by_ids.clear();
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

    /// Writes the switch list `dtos` (`Core::switches_shared`'s entry `n`: a list with an
    /// unlimited switch, whose actions carry their slots) to `nums` as its id, handed over now as
    /// one JSON value if it is new.
    fn switches(&mut self, nums: &mut Vec<f64>, n: u64, dtos: &Arc<[SwitchDto]>) {
        if let Some(id) = self.switch_ids.get(&n) {
            nums.push(f64::from(*id));
            return;
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
        nums.push(f64::from(id));
        // the entries of the last few states (numbers are not reused)
        if self.switch_ids.len() >= 256 {
            self.switch_ids.clear();
        }
        self.switch_ids.insert(n, id);
    }

    /// Writes the switches of `all` (the engine's legal switches) that `player` owns, all finite,
    /// to `nums`: the list's id when it was written before from the same `Arc` for that player, or
    /// with the same terms' ids; else `-1 - id` (the table entry it fills, reserved with `null`),
    /// then `c, (switch, owner or -1, nature, a, action * a) * c` in terms' ids, which JavaScript
    /// builds into the objects `JSON.parse` gives for the [`SwitchDto`]s (`unlimited: false`, no
    /// slots). No DTO is built: a switch's and its actions' texts are the terms' own, known by
    /// address.
    fn switch_list(&mut self, nums: &mut Vec<f64>, all: &Arc<Vec<SwitchInfo>>, player: &Term) {
        let key = term_key(player).map(|k| (Arc::as_ptr(all) as usize, k));
        if let Some((_, _, id)) = key.and_then(|k| self.lists.get(&k)) {
            nums.push(f64::from(*id));
            return;
        }
        // the list as ids: c, (switch, owner or u32::MAX, nature, a, action * a) * c
        let mut ids = std::mem::take(&mut self.list_ids);
        ids.clear();
        ids.push(0);
        for s in all.iter().filter(|s| owned_by(s, player)) {
            ids[0] += 1;
            ids.push(self.term(&s.id));
            ids.push(match &s.owner_term {
                Some(o) => self.term(o),
                None => u32::MAX,
            });
            ids.push(u32::from(s.owner.is_nature()));
            let Actions::Finite(acts) = &s.actions else {
                unreachable!("switch_list is given finite switches only")
            };
            ids.push(acts.len() as u32);
            for a in acts {
                ids.push(self.term(a));
            }
        }
        let id = match self.lists_by_ids.get(&ids[..]) {
            Some(&id) => {
                nums.push(f64::from(id));
                id
            }
            None => {
                self.texts.push(None);
                let id = self.push_fresh(&());
                nums.push(-1.0 - f64::from(id));
                nums.extend(
                    ids.iter()
                        .map(|&i| if i == u32::MAX { -1.0 } else { f64::from(i) }),
                );
                if self.lists_by_ids.len() >= 4096 {
                    self.lists_by_ids.clear();
                }
                self.lists_by_ids.insert(ids[..].into(), id);
                id
            }
        };
        self.list_ids = ids;
        if let Some(k) = key {
            if self.lists.len() >= 256 {
                self.lists.clear();
            }
            self.lists.insert(k, (all.clone(), player.clone(), id));
        }
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
    /// list * s, v, (k, id * k) * v]`, each switch list one value of the table (an array of
    /// switches, the same id while the switches stay the same), written as [`Wire::switches`]
    /// writes it: its id, or a new list's entry and texts. The first error of those calls,
    /// in that order, is the error; nothing is written to the table before every answer is known.
    pub fn switches_and_views_wire<P: AsRef<str>, V: AsRef<str>>(
        &mut self,
        players: &[P],
        viewers: &[Option<V>],
    ) -> Result<WireOut, CoreError> {
        let mut lists = Vec::with_capacity(players.len());
        for p in players {
            let all = self.session.switches().map_err(|e| self.rt(e))?;
            let pt = self.players_read.player(p.as_ref())?;
            let unlimited = all
                .iter()
                .any(|s| owned_by(s, &pt) && matches!(s.actions, Actions::Unlimited(_)));
            lists.push(if unlimited {
                List::Dtos(self.switches_shared(Some(p.as_ref()))?)
            } else {
                List::Terms(all, pt)
            });
        }
        let mut seen = Vec::with_capacity(viewers.len());
        for v in viewers {
            seen.push(self.seen(v.as_ref().map(AsRef::as_ref))?);
        }
        let state = self.session.state().clone();
        let mut nums = self.wire.begin();
        nums.push(lists.len() as f64);
        for l in &lists {
            match l {
                List::Dtos((n, dtos)) => self.wire.switches(&mut nums, *n, dtos),
                List::Terms(all, p) => self.wire.switch_list(&mut nums, all, p),
            }
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
            nums[at - 1]
        };
        let mut switches = Vec::new();
        for _ in 0..next() as usize {
            let x = next();
            let id = if x < 0.0 {
                // a new list written as its texts' ids (`Wire::switches`)
                let id = (-1.0 - x) as usize;
                let list: Vec<Value> = (0..next() as usize)
                    .map(|_| {
                        let switch = table[next() as usize].clone();
                        let o = next();
                        let owner = if o < 0.0 {
                            Value::Null
                        } else {
                            table[o as usize].clone()
                        };
                        let nature = next() != 0.0;
                        let actions: Vec<Value> = (0..next() as usize)
                            .map(|_| table[next() as usize].clone())
                            .collect();
                        let slots = vec![json!([]); actions.len()];
                        json!({"switch": switch, "owner": owner, "nature": nature,
                            "unlimited": false, "actions": actions, "slots": slots})
                    })
                    .collect();
                table[id] = Value::Array(list);
                id
            } else {
                x as usize
            };
            switches.push(table[id].clone());
        }
        let views = (0..next() as usize)
            .map(|_| {
                (0..next() as usize)
                    .map(|_| table[next() as usize].as_str().expect("a text").to_string())
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
