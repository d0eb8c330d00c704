//! One play of a game: the state, pending submissions, chronons (Algorithm 1), views, events,
//! history, replay and undo.
//!
//! Files: this one holds the session types, the query helpers and the play of a session (load,
//! switches, views, submissions, chronons, undo, replay); `template.rs` action templates and their
//! slots; `snapshot.rs` serialisable snapshots; `fork.rs` cheap copies and state queries for the AI
//! players; `tests.rs` the unit tests.

use super::facts::{FactSet, Ground, Scratch, INDEXED};
use super::host::{KeywordHost, Placement};
use super::intern::{Hashed, Interner};
use super::join::{self, Join};
use super::Game;
use crate::atom::{self, Atom};
use crate::rng::Rng;
use crate::solve::errors::codes;
use crate::solve::host::Host;
use crate::solve::store::{Cell, Store};
use crate::solve::{Limits, Machine, SolveError};
use crate::term::Term;
use by_state::StateSwitches;
use std::sync::Arc;

mod by_state;
mod fork;
mod snapshot;
mod template;
#[cfg(test)]
mod tests;

pub use snapshot::{submission_text, SessionSnapshot, SnapshotChronon};
pub use template::{
    fill_template, instantiate_template, slot, slot_type_description, slot_value,
    suggest_slot_type, template_slots, TemplateSlot, SLOT_TYPES,
};

/// Session settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Budgets of the queries the manager runs. The inference budget covers a whole chronon (every
    /// `default/2`, `do/1`, `payoff/2` and `hidden/2` query of its transition together) and, outside
    /// chronons, each query on its own (`legal/1` with owners and actions, views, submissions, `init`).
    /// The heap, choicepoint and frame budgets apply to each query.
    pub limits: Limits,
    /// Interrupt mode (paper §4): every accepted submission triggers its own state transition.
    pub interrupt: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            limits: Limits {
                max_inferences: 5_000_000,
                max_heap_cells: 8 << 20,
                ..Limits::default()
            },
            interrupt: false,
        }
    }
}

/// A game state: ordered facts, players in order, one account per player.
#[derive(Clone, Debug)]
pub struct State {
    pub chronon: u64,
    pub facts: Arc<FactSet>,
    pub players: Arc<[Arc<Ground>]>,
    /// `accounts[i]` belongs to `players[i]`: an `Int` or `Float` term.
    pub accounts: Vec<Term>,
}

impl State {
    pub fn player_terms(&self) -> impl Iterator<Item = &Term> {
        self.players.iter().map(|g| g.term())
    }
    pub fn player_index(&self, p: &Term) -> Option<usize> {
        self.players.iter().position(|g| g.term() == p)
    }
    /// The accounts as numbers ([`account_value`]), in player order.
    pub fn account_values(&self) -> Vec<f64> {
        self.accounts.iter().map(account_value).collect()
    }
}

/// Who owns a switch.
#[derive(Clone, Debug, PartialEq)]
pub enum Owner {
    Player(Term),
    /// `equal(N)`: uniform over the actions.
    Equal(u64),
    /// A probability per action.
    Probs(Vec<f64>),
    /// An `owned/2` answer that is neither a player nor a distribution (reported, never drawn).
    Other(Term),
    /// `owned/2` has no solution.
    Nobody,
    /// `equal(N)` or a probability list that does not fit the switch's actions: a runtime error when
    /// the chronon runs (the reason is kept).
    BadDistribution(String),
}

impl Owner {
    /// The first `owned/2` solution as a term (`None` for no owner).
    pub fn term(&self) -> Option<Term> {
        match self {
            Owner::Player(t) | Owner::Other(t) => Some(t.clone()),
            Owner::Equal(n) => Some(Term::compound("equal", vec![Term::Int(*n as i64)])),
            Owner::Probs(ps) => Some(Term::list(ps.iter().map(|&p| Term::Float(p)).collect())),
            Owner::Nobody | Owner::BadDistribution(_) => None,
        }
    }
    pub fn is_nature(&self) -> bool {
        matches!(
            self,
            Owner::Equal(_) | Owner::Probs(_) | Owner::BadDistribution(_)
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Actions {
    Finite(Vec<Term>),
    /// Templates: a slot `(Name, Type)` stands for a typed value.
    Unlimited(Vec<Term>),
}

/// A legal switch in a state.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchInfo {
    pub id: Term,
    /// The raw first `owned/2` answer (kept as written for the trace).
    pub owner_term: Option<Term>,
    pub owner: Owner,
    pub actions: Actions,
}

/// An accepted submission.
#[derive(Clone, Debug, PartialEq)]
pub struct Submission {
    pub player: Term,
    pub switch: Term,
    pub action: Term,
}

/// What happened in a chronon, as a player (or the designer) may see it.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Created(Term),
    Deleted(Term),
    Account {
        player: Term,
        amount: Term,
    },
    /// A switch ran `action` (`submitted`: by its owner; else drawn or default); `ok`: `do/1` succeeded.
    Switch {
        switch: Term,
        action: Term,
        how: ActionSource,
        ok: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionSource {
    Submitted,
    Drawn,
    Default,
}

/// One chronon of the history.
#[derive(Clone, Debug, PartialEq)]
pub struct ChrononRecord {
    pub submissions: Vec<Submission>,
    /// Nature actions fixed explicitly (scripts, tests); the rest were drawn from the RNG.
    pub overrides: Vec<(Term, Term)>,
    /// Every nature action of the chronon (drawn or fixed).
    pub draws: Vec<(Term, Term)>,
    /// The designer's view of the events.
    pub events: Vec<Event>,
    /// Per player (in player order), the events that player may see, as indices into `events`
    /// ([`ChrononRecord::events_of`]).
    pub player_events: PlayerEvents,
}

impl ChrononRecord {
    /// The events player `pi` (in player order) may see, in order; none for a player the record
    /// has no events for (a record read back before its chronon ran again).
    pub fn events_of(&self, pi: usize) -> impl ExactSizeIterator<Item = &Event> + Clone + '_ {
        self.player_events
            .get(pi)
            .unwrap_or(&[])
            .iter()
            .map(|&k| &self.events[k as usize])
    }
}

/// Per player of a chronon, the events it may see: for each player (in player order) the indices
/// of its events in [`ChrononRecord::events`], ascending (a player sees a subsequence of the
/// designer's events). One vector holds them all: first each player's end offset into the indices,
/// then the indices, player after player; a chronon's record costs one allocation, not one copy
/// of each event per player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerEvents {
    players: usize,
    data: Vec<u32>,
}

impl PlayerEvents {
    /// No players' events (a record read back from a log or snapshot before it ran).
    pub fn new() -> PlayerEvents {
        PlayerEvents::default()
    }

    /// From each player's list of indices (tests and hand-built records); each list must be
    /// ascending and index the record's `events`.
    pub fn from_lists<L: AsRef<[u32]>>(lists: &[L]) -> PlayerEvents {
        let mut b = PlayerEvents::builder(lists.len(), 0);
        for l in lists {
            for &k in l.as_ref() {
                b.push(k);
            }
            b.end_player();
        }
        b.finish()
    }

    fn builder(players: usize, capacity: usize) -> Builder {
        let mut data = Vec::with_capacity(players + capacity);
        data.resize(players, 0);
        Builder {
            out: PlayerEvents { players, data },
            next: 0,
        }
    }

    /// The number of players.
    pub fn len(&self) -> usize {
        self.players
    }

    pub fn is_empty(&self) -> bool {
        self.players == 0
    }

    /// Player `pi`'s event indices into [`ChrononRecord::events`].
    pub fn get(&self, pi: usize) -> Option<&[u32]> {
        if pi >= self.players {
            return None;
        }
        let start = if pi == 0 {
            0
        } else {
            self.data[pi - 1] as usize
        };
        let end = self.data[pi] as usize;
        Some(&self.data[self.players + start..self.players + end])
    }

    /// Each player's event indices, in player order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        (0..self.players).map(|pi| self.get(pi).unwrap_or(&[]))
    }
}

/// Fills a [`PlayerEvents`] player after player.
struct Builder {
    out: PlayerEvents,
    /// The player whose indices are being pushed.
    next: usize,
}

impl Builder {
    fn push(&mut self, k: u32) {
        self.out.data.push(k);
    }

    fn end_player(&mut self) {
        let p = self.out.players;
        self.out.data[self.next] = (self.out.data.len() - p) as u32;
        self.next += 1;
    }

    fn finish(self) -> PlayerEvents {
        debug_assert_eq!(self.next, self.out.players);
        self.out
    }
}

/// A runtime error: the chronon (or query) was aborted and the state left as it was.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError {
    /// The stable code (`crate::solve::errors::codes`).
    pub code: &'static str,
    pub message: String,
    /// The keyword being evaluated (`legal/1`, `do/1`, ...).
    pub during: String,
    pub solve: Option<Box<SolveError>>,
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl RuntimeError {
    /// An error of the game manager itself (not of the solver), with its code
    /// (`crate::solve::errors::codes`).
    pub fn new(code: &'static str, during: &str, message: impl Into<String>) -> RuntimeError {
        RuntimeError {
            code,
            message: message.into(),
            during: during.to_string(),
            solve: None,
        }
    }
    fn from_solve(during: &str, e: SolveError) -> RuntimeError {
        let mut msg = format!("{} while evaluating {during}", e.message);
        if e.path.len() > 1 {
            let path: Vec<String> = e.path.iter().map(|(n, a)| format!("{n}/{a}")).collect();
            msg.push_str(&format!(" (call path: {})", path.join(" → ")));
        }
        RuntimeError {
            code: e.code(),
            message: msg,
            during: during.to_string(),
            solve: Some(Box::new(e)),
        }
    }

    /// The error as a diagnostic: the one conversion
    /// ([`crate::solve::errors::runtime_diagnostic`]); the call path is in the labels.
    pub fn to_diagnostic(&self) -> crate::diag::Diagnostic {
        let message = match &self.solve {
            Some(e) => format!("{} while evaluating {}", e.message, self.during),
            None => self.message.clone(),
        };
        crate::solve::errors::runtime_diagnostic(self.code, message, self.solve.as_deref())
    }
}

/// Why a submission was rejected.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection(pub String);

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

struct Snapshot {
    state: Arc<State>,
    switches: Option<Arc<Vec<SwitchInfo>>>,
    rng: Rng,
    /// The submissions and fixed nature actions of a chronon run without a record
    /// ([`Session::advance`]); `None`: they are in the chronon's history record.
    pending: Option<Pending>,
}

/// Pending submissions and fixed nature actions (switch, action).
type Pending = (Vec<Submission>, Vec<(Term, Term)>);

/// Mixed into the seed of the drivers' RNG (see [`Session::rng`]).
pub const DRIVER_SEED_MIX: u64 = 0x5851_F42D_4C95_7F2D;

/// A play of a game.
pub struct Session {
    game: Arc<Game>,
    settings: Settings,
    seed: u64,
    state: Arc<State>,
    switches: Option<Arc<Vec<SwitchInfo>>>,
    hidden: Option<Arc<Vec<Vec<bool>>>>,
    pending: Vec<Submission>,
    overrides: Vec<(Term, Term)>,
    history: Vec<ChrononRecord>,
    undo: Vec<Snapshot>,
    machine: Machine,
    pub(crate) replaying: bool,
    driver_rng: Rng,
    consts: ConstCache,
    /// The initial state, when `init/1` and `init/2` reach no host predicate and no random number:
    /// then every play of the game starts from it ([`Session::recycle`] reuses it).
    initial: Option<Arc<State>>,
    /// Lent to the chronon's [`KeywordHost`] (`create/1` buffers).
    scratch: Scratch,
    /// Legal switch ids and actions shared across states.
    interned: Interner,
    /// The switches of states seen before (shared with forks and recycled sessions).
    by_state: StateSwitches,
    /// Buffers of [`Session::transition`], kept empty between chronons.
    bufs: Buffers,
    /// Per player, the replay [`crate::ai::Observation::of`] resumes at the player's next
    /// decision (never copied: forks, restarts and recycled sessions start without).
    pub(crate) observed: Vec<crate::ai::ObservedReplay>,
    /// Answer `legal/1` and `switch/2` by the host when they are joins ([`crate::game::join`]);
    /// off only to compare with the interpreter ([`Session::set_host_joins`]).
    host_joins: bool,
}

/// [`Session::transition`]'s buffers (their room is reused from chronon to chronon).
#[derive(Default)]
struct Buffers {
    /// Per legal switch, the action it runs and how it was chosen.
    chosen: Vec<Option<(Term, ActionSource)>>,
    /// The `does/2` pairs of the chronon (switch id, action).
    does: Vec<(Arc<Ground>, Arc<Ground>)>,
    /// The schedules' room, lent to the chronon's [`KeywordHost`] (`creates`, `deletes`).
    creates: Vec<Arc<Ground>>,
    deletes: Vec<u32>,
    /// The room of the state before the current one, when nothing else held it: its fact set
    /// (refilled by [`FactSet::apply_reusing`]) and its accounts.
    spare_facts: Option<FactSet>,
    accounts: Vec<Term>,
}

impl Buffers {
    /// Takes back the schedules' room lent to a chronon's host, emptied.
    fn lend_back(&mut self, mut creates: Vec<Arc<Ground>>, mut deletes: Vec<u32>) {
        creates.clear();
        deletes.clear();
        self.creates = creates;
        self.deletes = deletes;
    }
}

fn show(t: &Term) -> String {
    crate::write::canonical(t)
}

/// `name(args...)` (one allocation: `args` is not empty).
fn call<const N: usize>(name: Atom, args: [Term; N]) -> Term {
    Term::Compound(name, Arc::from(args))
}

/// Runs `goal` and collects `template` for up to `max` solutions.
fn solutions(
    machine: &mut Machine,
    host: &mut dyn Host,
    goal: &Term,
    template: &Term,
    max: usize,
    during: &str,
) -> Result<Vec<Term>, RuntimeError> {
    machine.reset();
    let mut vars = Vec::new();
    let g = machine.store.build(goal, &mut vars);
    let t = machine.store.build(template, &mut vars);
    collect_answers(machine, host, g, t, max, during)
}

/// [`solutions`] of the keyword goal `name(args..., V)` with template `V` (`var`), or of
/// `name(args...)` with template `true`: the goal is built straight on the heap (no goal term).
/// `V` is `Term::Var(0)` of the arguments when they have one, as in the goal term.
fn call_solutions(
    machine: &mut Machine,
    host: &mut dyn Host,
    name: Atom,
    args: &[&Term],
    var: bool,
    max: usize,
    during: &str,
) -> Result<Vec<Term>, RuntimeError> {
    let (g, t) = build_call(machine, name, args.iter().map(|&a| Arg::Term(a)), var);
    collect_answers(machine, host, g, t, max, during)
}

/// [`call_solutions`] with arguments given as [`Arg`]s.
fn call_solutions_args(
    machine: &mut Machine,
    host: &mut dyn Host,
    name: Atom,
    args: &[Arg],
    var: bool,
    max: usize,
    during: &str,
) -> Result<Vec<Term>, RuntimeError> {
    let (g, t) = build_call(machine, name, args.iter().copied(), var);
    collect_answers(machine, host, g, t, max, during)
}

/// Has the keyword goal `name(args...)` a solution (the first one is looked for, as
/// [`call_solutions_args`] with `max` 1; no answer is built)?
fn call_succeeds(
    machine: &mut Machine,
    host: &mut dyn Host,
    name: Atom,
    args: &[Arg],
    during: &str,
) -> Result<bool, RuntimeError> {
    let (g, _) = build_call(machine, name, args.iter().copied(), false);
    // (the first answer of [`collect_with`], without its vector: a `Vec<()>` here, the engine's
    // only vector of a zero-sized type, made LLVM compile every vector's deallocation of the
    // engine less well in the wasm build, +22 KB gzipped; docs/wasm.md)
    machine.start(g);
    machine
        .solve(false, host)
        .map_err(|e| RuntimeError::from_solve(during, e))
}

/// The distinct answers of the keyword goal `name(args..., V)` (all of them, in order of first
/// appearance), shared through `intern`: while they are few they are deduplicated as they come (by
/// hash, then by term: no vector of all the answers, no second pass), the rest by
/// [`Interner::distinct`] (the same first occurrences in the same order).
fn call_distinct(
    machine: &mut Machine,
    host: &mut dyn Host,
    intern: &mut Interner,
    name: Atom,
    args: &[&Term],
    during: &str,
) -> Result<Vec<Term>, RuntimeError> {
    let (g, t) = build_call(machine, name, args.iter().map(|&a| Arg::Term(a)), true);
    machine.start(g);
    let mut d = Distinct::default();
    let mut redo = false;
    loop {
        match machine.solve(redo, host) {
            Ok(true) => {
                let (a, h) = intern.answer(&machine.store, t);
                d.push(a, h);
            }
            Ok(false) => break,
            Err(e) => return Err(RuntimeError::from_solve(during, e)),
        }
        if !machine.has_alternatives() {
            break;
        }
        redo = true;
    }
    Ok(d.finish(intern))
}

/// [`call_distinct`]'s answers deduplicated as they come: while they are few by hash, then by
/// term (no vector of all the answers, no second pass), the rest by [`Interner::distinct`] (the
/// same first occurrences in the same order).
struct Distinct {
    out: Vec<Term>,
    hashes: [u64; DISTINCT_LINEAR],
    rest: Vec<Hashed>,
}

/// The answers [`Distinct`] compares as they come.
const DISTINCT_LINEAR: usize = 16;

impl Default for Distinct {
    fn default() -> Distinct {
        Distinct {
            out: Vec::new(),
            hashes: [0; DISTINCT_LINEAR],
            rest: Vec::new(),
        }
    }
}

impl Distinct {
    // (inlined into the loops as the code it replaced was: chess +4.5M instructions called)
    #[inline(always)]
    fn push(&mut self, a: Term, h: u64) {
        let out = &mut self.out;
        if !self.rest.is_empty() || out.len() == DISTINCT_LINEAR {
            self.rest.push((a, h));
        } else if !self.hashes[..out.len()]
            .iter()
            .zip(out.iter())
            .any(|(&g, u)| g == h && u == &a)
        {
            if out.is_empty() {
                // (legal switch ids and actions: a few answers, one allocation, made
                // directly rather than through the growth path of `reserve_exact`)
                *out = Vec::with_capacity(8);
            }
            self.hashes[out.len()] = h;
            out.push(a);
        }
    }

    fn finish(self, intern: &mut Interner) -> Vec<Term> {
        let Distinct {
            out,
            hashes,
            mut rest,
        } = self;
        if rest.is_empty() {
            return out;
        }
        let mut items: Vec<Hashed> = out.into_iter().zip(hashes).collect();
        items.append(&mut rest);
        intern.distinct(items)
    }
}

/// [`call_distinct`] of a predicate the host answers ([`crate::game::join`]): the same answers,
/// shared and deduplicated alike, or `None` where the interpreter must answer (the join gave up,
/// or the query's calls are counted, or it runs under the chronon's budget or under small limits).
fn join_distinct(
    join: &Join,
    machine: &mut Machine,
    intern: &mut Interner,
    state: &State,
    input: Option<&Term>,
) -> Option<Vec<Term>> {
    let limits = machine.limits();
    if machine.profile.is_some()
        || machine.keep_inferences
        || limits.max_heap_cells < join::MIN_CELLS
        || limits.max_choicepoints < join::MIN_DEPTH
        || limits.max_frames < join::MIN_DEPTH
        || input.is_some_and(|t| !join::small(t))
    {
        return None;
    }
    let max_work = join.max_work(limits.max_inferences);
    let store = &mut machine.store;
    let mut d = Distinct::default();
    let done = join.answers(
        &state.facts,
        &state.players,
        input,
        max_work,
        &mut |out, vals| {
            let mut buf = [Cell::Atom(atom::NIL); INDEXED];
            let (a, h) = match join::flat_answer(out, vals, &mut buf) {
                Some(n) => intern.answer_list(store, &buf[..n]),
                None => {
                    let mark = store.heap.len();
                    let root = join::build(store, out, vals);
                    let r = intern.answer(store, root);
                    store.heap.truncate(mark);
                    r
                }
            };
            d.push(a, h);
        },
    );
    done.then(|| d.finish(intern))
}

/// A ground term as the relocatable cells [`Store::copy_out`] makes of it: put on a heap by one
/// copy ([`Store::copy_in`]), the same cells [`Store::build`] would make.
struct Seg {
    cells: Box<[Cell]>,
    root: Cell,
}

impl Seg {
    /// `None` for a term with variables, or whose copy is not cell for cell what `build` makes
    /// (a large term whose repeated parts the copy shares).
    fn new(t: &Term) -> Option<Seg> {
        if !t.is_ground() {
            return None;
        }
        let mut store = Store::new();
        let c = store.build(t, &mut Vec::new());
        let mut cells = Vec::new();
        let root = store.copy_out(c, &mut cells);
        (cells.len() == store.len() as usize).then(|| Seg {
            cells: cells.into(),
            root,
        })
    }
}

/// An argument of a keyword query: a term, or the [`Seg`] of a ground one.
#[derive(Clone, Copy)]
enum Arg<'a> {
    Term(&'a Term),
    Seg(&'a Seg),
}

/// Resets the machine and builds the goal and template of [`call_solutions`] on its heap (at most
/// two arguments).
fn build_call<'a>(
    machine: &mut Machine,
    name: Atom,
    args: impl Iterator<Item = Arg<'a>>,
    var: bool,
) -> (Cell, Cell) {
    machine.reset();
    let mut vars = Vec::new();
    let mut cells = [Cell::Atom(atom::NIL); 3];
    let mut n = 0;
    for a in args {
        cells[n] = match a {
            Arg::Term(t) => machine.store.build(t, &mut vars),
            Arg::Seg(s) => machine.store.copy_in(&s.cells, s.root),
        };
        n += 1;
    }
    let t = if var {
        let v = match vars.first() {
            Some(&Some(c)) => c,
            _ => machine.store.new_var(),
        };
        cells[n] = v;
        n += 1;
        v
    } else {
        Cell::Atom(atom::TRUE)
    };
    let g = machine.store.make_compound(name, &cells[..n]);
    (g, t)
}

/// Runs goal `g` (already on the heap) and collects `t` of up to `max` answers.
fn collect_answers(
    machine: &mut Machine,
    host: &mut dyn Host,
    g: Cell,
    t: Cell,
    max: usize,
    during: &str,
) -> Result<Vec<Term>, RuntimeError> {
    collect_with(machine, host, g, max, 0, during, |store| store.to_term(t))
}

/// Runs goal `g` (already on the heap) and collects `answer(store)` of up to `max` answers
/// (room for `room` of them made at the first).
fn collect_with<T>(
    machine: &mut Machine,
    host: &mut dyn Host,
    g: Cell,
    max: usize,
    room: usize,
    during: &str,
    mut answer: impl FnMut(&Store) -> T,
) -> Result<Vec<T>, RuntimeError> {
    machine.start(g);
    let mut out = Vec::new();
    let mut room = room.min(max);
    let mut redo = false;
    while out.len() < max {
        match machine.solve(redo, host) {
            Ok(true) => {
                if room > 0 {
                    out.reserve_exact(room);
                    room = 0;
                }
                out.push(answer(&machine.store))
            }
            Ok(false) => break,
            Err(e) => return Err(RuntimeError::from_solve(during, e)),
        }
        if !machine.has_alternatives() {
            break;
        }
        redo = true;
    }
    Ok(out)
}

/// Answers of keyword queries whose predicate reaches no host predicate but `player/1`: they are
/// the same in every state of a session (its players never change), so each is asked once.
#[derive(Clone, Default)]
struct ConstCache {
    /// Per keyword (`owned/2`, `switch/2`, `unlimited/2`, `hidden/2`, `default/2`): may it be cached?
    owned: bool,
    switch: bool,
    unlimited: bool,
    hidden: bool,
    default: bool,
    /// The goal (its keyword, its arguments, does it end with the answer variable) and the
    /// maximum number of solutions -> the solutions. (A key is made of the arguments' shared
    /// terms: no allocation to look one up.)
    answers: rustc_hash::FxHashMap<ConstKey, Vec<Term>>,
    /// When `hidden`: word -> per player (by index), is the word hidden from them (`None`: not
    /// asked yet). Looked up by the word alone (its structural hash), without building the goal.
    hidden_rows: rustc_hash::FxHashMap<ByHash, Vec<Option<bool>>>,
    /// When `owned`, `switch` and `unlimited` are all constant (or undefined): switch id -> its
    /// [`SwitchInfo`] (owner and actions depend on the id and the players only).
    switch_rows: rustc_hash::FxHashMap<Term, SwitchInfo>,
    /// The switches of the last state whose switches were computed with `switch_rows` on: a state with
    /// the same legal switch ids shares them.
    last_switches: Option<Arc<Vec<SwitchInfo>>>,
    /// Compiled switch ids and actions for `does/2` (a pure function of the term).
    grounds: rustc_hash::FxHashMap<Term, Arc<Ground>>,
    /// The same by the address of a compound's arguments and its name: the ids and actions are
    /// shared terms (see [`Interner`]), so a lookup needs no hashing of the term. An entry holds
    /// its term, so the address is not reused by another term while the entry is there.
    grounds_by_ptr: rustc_hash::FxHashMap<(usize, Atom), (Term, Arc<Ground>)>,
    /// When `owned`: the first `owned/2` answer of a compound switch id, by address as
    /// `grounds_by_ptr` (the entry holds the id).
    owners_by_ptr: rustc_hash::FxHashMap<(usize, Atom), (Term, Option<Term>)>,
    /// The [`Seg`]s of compound actions (for `do/1`), by address as `grounds_by_ptr`.
    segs: rustc_hash::FxHashMap<(usize, Atom), SegEntry>,
    /// Each player and its [`Seg`] (for `payoff/2`).
    player_segs: Vec<(Arc<Ground>, Option<Arc<Seg>>)>,
}

/// A key of [`ConstCache::answers`]: `name(arg1, arg2)` or `name(arg1)` (`None`), with the answer
/// variable when `true`, up to the number of solutions.
type ConstKey = (Atom, Term, Option<Term>, bool, usize);

/// An entry of [`ConstCache::segs`]: the term (keeping its address taken) and its [`Seg`].
type SegEntry = (Term, Option<Arc<Seg>>);

/// A ground word as a hash key: hashed by its structural hash, compared by its term.
#[derive(Clone)]
struct ByHash(Arc<Ground>);

impl PartialEq for ByHash {
    fn eq(&self, other: &ByHash) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.same(&other.0)
    }
}
impl Eq for ByHash {}
impl std::hash::Hash for ByHash {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.0.hash_value())
    }
}

impl ConstCache {
    fn new(game: &Game) -> ConstCache {
        let constant = |name, arity| {
            game.program
                .pred(name, arity)
                .is_some_and(|p| p.reaches & !(1 << super::host::PLAYER) == 0)
        };
        ConstCache {
            owned: constant(atom::OWNED, 2),
            switch: constant(atom::SWITCH, 2),
            unlimited: constant(atom::UNLIMITED, 2),
            hidden: constant(atom::HIDDEN, 2),
            default: constant(atom::DEFAULT, 2),
            answers: Default::default(),
            hidden_rows: Default::default(),
            switch_rows: Default::default(),
            last_switches: None,
            grounds: Default::default(),
            grounds_by_ptr: Default::default(),
            owners_by_ptr: Default::default(),
            segs: Default::default(),
            player_segs: Vec::new(),
        }
    }

    /// May a switch's owner and actions be cached by its id ([`ConstCache::switch_rows`])?
    fn switch_info(&self, game: &Game) -> bool {
        let fixed =
            |name, arity, constant: bool| constant || game.program.pred(name, arity).is_none();
        fixed(atom::OWNED, 2, self.owned)
            && fixed(atom::SWITCH, 2, self.switch)
            && fixed(atom::UNLIMITED, 2, self.unlimited)
    }

    /// The compiled form of a ground term (cached).
    fn ground(&mut self, t: &Term) -> Arc<Ground> {
        let by_ptr = match t {
            Term::Compound(f, args) if !args.is_empty() => Some((args.as_ptr() as usize, *f)),
            _ => None,
        };
        if let Some(k) = by_ptr {
            if let Some((_, g)) = self.grounds_by_ptr.get(&k) {
                return g.clone();
            }
        }
        let g = match self.grounds.get(t) {
            Some(g) => g.clone(),
            None => {
                if self.grounds.len() >= CONST_CACHE_MAX {
                    self.grounds.clear();
                }
                let g = Arc::new(Ground::new(t.clone()));
                self.grounds.insert(t.clone(), g.clone());
                g
            }
        };
        if let Some(k) = by_ptr {
            if self.grounds_by_ptr.len() >= CONST_CACHE_MAX {
                self.grounds_by_ptr.clear();
            }
            self.grounds_by_ptr.insert(k, (t.clone(), g.clone()));
        }
        g
    }

    /// The [`Seg`] of a compound term, when it has one (cached by address).
    fn seg(&mut self, t: &Term) -> Option<Arc<Seg>> {
        let Term::Compound(f, args) = t else {
            return None;
        };
        if args.is_empty() {
            return None;
        }
        let k = (args.as_ptr() as usize, *f);
        if let Some((_, s)) = self.segs.get(&k) {
            return s.clone();
        }
        if self.segs.len() >= CONST_CACHE_MAX {
            self.segs.clear();
        }
        let s = Seg::new(t).map(Arc::new);
        self.segs.insert(k, (t.clone(), s.clone()));
        s
    }

    /// Makes `player_segs` hold `players` (again if the players are not those of the last call).
    fn player_segs(&mut self, players: &[Arc<Ground>]) {
        let same = self.player_segs.len() == players.len()
            && self
                .player_segs
                .iter()
                .zip(players)
                .all(|((q, _), p)| Arc::ptr_eq(q, p));
        if !same {
            self.player_segs = players
                .iter()
                .map(|p| (p.clone(), Seg::new(p.term()).map(Arc::new)))
                .collect();
        }
    }

    /// Are the `hidden/2` answers of word `w` known for the first `n` players
    /// ([`ConstCache::hidden_rows`])? Then [`Session::hidden_of`] asks nothing for it.
    fn hidden_known(&self, w: &Arc<Ground>, n: usize) -> bool {
        self.hidden_rows
            .get(&ByHash(w.clone()))
            .is_some_and(|row| row.len() >= n && row[..n].iter().all(Option::is_some))
    }

    /// May the answers of this keyword's goals (arity 2) be cached?
    fn constant(&self, name: Atom) -> bool {
        match name {
            atom::OWNED => self.owned,
            atom::SWITCH => self.switch,
            atom::UNLIMITED => self.unlimited,
            atom::HIDDEN => self.hidden,
            atom::DEFAULT => self.default,
            _ => false,
        }
    }
}

/// The [`ConstCache`] is emptied when it holds this many goals.
const CONST_CACHE_MAX: usize = 1 << 16;

/// [`call_solutions`] of the keyword goal `name(arg1, arg2)` (`var`: `name(arg, V)`), answered
/// from `cache` when its predicate is constant in the session (see [`ConstCache`]); `f` reads the
/// solutions. Errors are not cached.
#[allow(clippy::too_many_arguments)]
fn cached_with<R>(
    cache: &mut ConstCache,
    machine: &mut Machine,
    host: &mut dyn Host,
    name: Atom,
    args: &[&Term],
    var: bool,
    max: usize,
    during: &str,
    f: impl FnOnce(&[Term]) -> R,
) -> Result<R, RuntimeError> {
    if !cache.constant(name) || args.is_empty() || args.len() > 2 {
        let a = call_solutions(machine, host, name, args, var, max, during)?;
        return Ok(f(&a));
    }
    let key = (
        name,
        args[0].clone(),
        args.get(1).map(|&t| t.clone()),
        var,
        max,
    );
    if let Some(a) = cache.answers.get(&key) {
        return Ok(f(a));
    }
    let a = call_solutions(machine, host, name, args, var, max, during)?;
    let r = f(&a);
    if cache.answers.len() >= CONST_CACHE_MAX {
        cache.answers.clear();
    }
    cache.answers.insert(key, a);
    Ok(r)
}

/// The distinct answers of the keyword goal `name(arg, V)` (all of them), in order: from `cache`
/// when its predicate is constant in the session, else shared through `intern`.
#[allow(clippy::too_many_arguments)]
fn distinct_answers(
    cache: &mut ConstCache,
    intern: &mut Interner,
    machine: &mut Machine,
    host: &mut dyn Host,
    name: Atom,
    args: &[&Term],
    during: &str,
) -> Result<Vec<Term>, RuntimeError> {
    if cache.constant(name) {
        let a = cached_with(
            cache,
            machine,
            host,
            name,
            args,
            true,
            usize::MAX,
            during,
            <[Term]>::to_vec,
        )?;
        return Ok(distinct(a));
    }
    call_distinct(machine, host, intern, name, args, during)
}

/// The distinct terms of `items`, in first-appearance order.
fn distinct(items: Vec<Term>) -> Vec<Term> {
    if items.len() <= 8 {
        let mut out: Vec<Term> = Vec::with_capacity(items.len());
        for t in items {
            if !out.contains(&t) {
                out.push(t);
            }
        }
        return out;
    }
    let mut seen: rustc_hash::FxHashSet<Term> = Default::default();
    items
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .collect()
}

/// An account's amount as `f64`, for comparing and averaging accounts (rankings, tournaments, the
/// AI's standings, the playground's `Account.value`). Accounts are integers or floats (a payoff that
/// is not a number is a runtime error), so the `0.0` for any other term is never reached; it is the
/// AI's and `sidl tournament`'s value (the others used NaN, which compares with nothing).
pub fn account_value(amount: &Term) -> f64 {
    amount.as_f64().unwrap_or(0.0)
}

/// Adds a payoff to an account: integers stay integers (overflow is an error), otherwise floats.
pub fn add_amount(a: &Term, b: &Term) -> Result<Term, String> {
    Ok(match (a, b) {
        (Term::Int(x), Term::Int(y)) => {
            Term::Int(x.checked_add(*y).ok_or("integer overflow in an account")?)
        }
        (Term::Int(x), Term::Float(y)) => Term::Float(*x as f64 + y),
        (Term::Float(x), Term::Int(y)) => Term::Float(x + *y as f64),
        (Term::Float(x), Term::Float(y)) => Term::Float(x + y),
        (_, other) => return Err(format!("payoff {} is not a number", show(other))),
    })
}

impl Session {
    /// Starts a session: runs `init/1` and `init/2`.
    pub fn new(game: Arc<Game>, seed: u64, settings: Settings) -> Result<Session, RuntimeError> {
        let machine = Machine::new(game.program.clone(), settings.limits);
        Session::with_machine(game, seed, settings, machine)
    }

    /// A new play of the same game with another seed (and the same settings), reusing this
    /// session's logic machine: its memo table (answers of predicates that depend on their arguments
    /// only, so valid for every play of the game) and its allocations. Same result as
    /// [`Session::new`] (profiling, if on, restarts from zero).
    pub fn recycle(self, seed: u64) -> Result<Session, RuntimeError> {
        let Session {
            game,
            settings,
            mut machine,
            consts,
            state,
            initial,
            scratch,
            interned,
            by_state,
            ..
        } = self;
        machine.reset();
        if let Some(p) = &mut machine.profile {
            p.clear();
        }
        // (with profiling on, `init/1` and `init/2` run again: their calls are counted)
        let mut s = match initial.filter(|_| machine.profile.is_none()) {
            // the same initial state as `init/1` and `init/2` would make again
            Some(init) => {
                machine.rng = Rng::new(seed);
                let mut s = Session::assemble(game, settings, seed, init.clone(), machine);
                s.initial = Some(init);
                s
            }
            None => Session::with_machine(game, seed, settings, machine)?,
        };
        // answers that depend on the players only stay valid for the same players
        if s.state.player_terms().eq(state.player_terms()) {
            s.consts = consts;
            s.by_state = by_state;
        }
        s.scratch = scratch;
        s.interned = interned;
        Ok(s)
    }

    /// [`Session::recycle`] in place, for a holder that must always have a session (the
    /// playground's): when the initial state is known it is reset to it (this cannot fail);
    /// otherwise `init/1` and `init/2` run again in a new session ([`Session::new`]) and on their
    /// error this session is left as it was.
    pub fn restart(&mut self, seed: u64) -> Result<(), RuntimeError> {
        let Some(init) = self
            .initial
            .clone()
            .filter(|_| self.machine.profile.is_none())
        else {
            let host_joins = self.host_joins;
            *self = Session::new(self.game.clone(), seed, self.settings.clone())?;
            self.host_joins = host_joins;
            return Ok(());
        };
        // every field named, so that a new one is not forgotten: as `recycle` (`assemble` with
        // the recycled machine, constants, scratch space and interner), keeping the vectors' room
        let Session {
            game,
            settings: _,
            seed: seed_now,
            state,
            switches,
            hidden,
            pending,
            overrides,
            history,
            undo,
            machine,
            replaying,
            driver_rng,
            consts,
            initial: _,
            scratch: _,
            interned: _,
            by_state,
            bufs: _,
            observed,
            host_joins: _,
        } = self;
        machine.reset();
        machine.rng = Rng::new(seed);
        if !init.player_terms().eq(state.player_terms()) {
            *consts = ConstCache::new(game);
            *by_state = StateSwitches::new(game);
        }
        *seed_now = seed;
        *state = init;
        *switches = None;
        *hidden = None;
        pending.clear();
        overrides.clear();
        history.clear();
        undo.clear();
        observed.clear();
        *replaying = false;
        *driver_rng = Rng::new(seed ^ DRIVER_SEED_MIX);
        Ok(())
    }

    /// Does [`Session::restart`] reset this session in place (the initial state is known and
    /// nothing is profiled), with the same result as [`Session::recycle`]?
    pub fn restarts_in_place(&self) -> bool {
        self.initial.is_some() && self.machine.profile.is_none()
    }

    fn with_machine(
        game: Arc<Game>,
        seed: u64,
        settings: Settings,
        mut machine: Machine,
    ) -> Result<Session, RuntimeError> {
        // the game's one RNG: chance draws, random/1 in rules, and random drivers
        machine.rng = Rng::new(seed);
        let empty = FactSet::default();
        let mut host = KeywordHost::new(&empty, &[], &[]);
        // init(W): all solutions in order, duplicates skipped, must be ground
        let w = Term::Var(0);
        let mut facts: Vec<Term> = Vec::new();
        if game.program.pred(atom::INIT, 1).is_some() {
            host.placement = Placement::keyword(atom::INIT, 1);
            for f in solutions(
                &mut machine,
                &mut host,
                &call(atom::INIT, [w.clone()]),
                &w,
                usize::MAX,
                "init/1",
            )? {
                if !f.is_ground() {
                    return Err(RuntimeError::new(
                        codes::NOT_GROUND,
                        "init/1",
                        format!("init/1 produced the non-ground word {}", show(&f)),
                    ));
                }
                facts.push(f);
            }
            facts = distinct(facts);
        }
        let mut players: Vec<Term> = Vec::new();
        let mut accounts: Vec<Term> = Vec::new();
        if game.program.pred(atom::INIT, 2).is_some() {
            let pair = call(atom::MINUS, [Term::Var(0), Term::Var(1)]);
            let goal = call(atom::INIT, [Term::Var(0), Term::Var(1)]);
            host.placement = Placement::keyword(atom::INIT, 2);
            for s in solutions(&mut machine, &mut host, &goal, &pair, usize::MAX, "init/2")? {
                let (n, m) = (s.args()[0].clone(), s.args()[1].clone());
                if !n.is_ground() {
                    return Err(RuntimeError::new(
                        codes::NOT_GROUND,
                        "init/2",
                        format!("init/2 produced the non-ground player {}", show(&n)),
                    ));
                }
                if !matches!(m, Term::Int(_) | Term::Float(_)) {
                    return Err(RuntimeError::new(
                        codes::NOT_A_NUMBER,
                        "init/2",
                        format!("the account of {} is not a number: {}", show(&n), show(&m)),
                    ));
                }
                if !players.contains(&n) {
                    players.push(n);
                    accounts.push(m);
                }
            }
        }
        let state = State {
            chronon: 0,
            facts: Arc::new(FactSet::from_grounds(
                facts
                    .into_iter()
                    .map(|f| Arc::new(Ground::new(f)))
                    .collect(),
            )),
            players: players
                .into_iter()
                .map(|p| Arc::new(Ground::new(p)))
                .collect(),
            accounts,
        };
        let pure = |arity| {
            game.program
                .pred(atom::INIT, arity)
                .is_none_or(|p| p.reaches == 0)
        };
        let reusable = pure(1) && pure(2);
        let state = Arc::new(state);
        let mut s = Session::assemble(game, settings, seed, state.clone(), machine);
        if reusable {
            s.initial = Some(state);
        }
        Ok(s)
    }

    /// A session at `state`: nothing pending, no history, a fresh per-session answer cache, the
    /// drivers' RNG seeded from `seed` (the machine's RNG is the caller's).
    fn assemble(
        game: Arc<Game>,
        settings: Settings,
        seed: u64,
        state: Arc<State>,
        machine: Machine,
    ) -> Session {
        Session {
            consts: ConstCache::new(&game),
            by_state: StateSwitches::new(&game),
            game,
            settings,
            seed,
            state,
            switches: None,
            hidden: None,
            pending: Vec::new(),
            overrides: Vec::new(),
            history: Vec::new(),
            undo: Vec::new(),
            machine,
            replaying: false,
            driver_rng: Rng::new(seed ^ DRIVER_SEED_MIX),
            initial: None,
            scratch: Scratch::default(),
            interned: Interner::default(),
            bufs: Buffers::default(),
            observed: Vec::new(),
            host_joins: true,
        }
    }

    /// Whether `legal/1` and `switch/2` may be answered by the host when they are joins (the
    /// default): the same switches either way; off, the logic machine answers every query (the
    /// differential tests compare the two).
    #[doc(hidden)]
    pub fn set_host_joins(&mut self, on: bool) {
        self.host_joins = on;
    }

    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn settings(&self) -> &Settings {
        &self.settings
    }
    pub fn state(&self) -> &Arc<State> {
        &self.state
    }
    pub fn chronon(&self) -> u64 {
        self.state.chronon
    }
    pub fn players(&self) -> Vec<Term> {
        self.state.player_terms().cloned().collect()
    }
    pub fn accounts(&self) -> Vec<(Term, Term)> {
        self.state
            .player_terms()
            .cloned()
            .zip(self.state.accounts.iter().cloned())
            .collect()
    }
    pub fn history(&self) -> &[ChrononRecord] {
        &self.history
    }
    pub fn pending(&self) -> &[Submission] {
        &self.pending
    }

    /// The legal switches of the current state with owners and actions (computed once per state,
    /// and once per facts when they follow from the facts: see [`StateSwitches`]).
    pub fn switches(&mut self) -> Result<Arc<Vec<SwitchInfo>>, RuntimeError> {
        if let Some(s) = &self.switches {
            return Ok(s.clone());
        }
        // (not while profiling: the queries' calls are counted)
        let (key, hit) = match self.machine.profile {
            None => self.by_state.get(&self.state.facts),
            Some(_) => (None, None),
        };
        if let Some(s) = hit {
            self.switches = Some(s.clone());
            return Ok(s);
        }
        let out = self.compute_switches()?;
        if let Some(k) = key {
            self.by_state.insert(k, &self.state.facts, out.clone());
        }
        Ok(out)
    }

    /// [`Session::switches`] by asking `legal/1`, `owned/2`, `switch/2` and `unlimited/2`.
    fn compute_switches(&mut self) -> Result<Arc<Vec<SwitchInfo>>, RuntimeError> {
        let state = self.state.clone();
        let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
        let m = &mut self.machine;
        let prog = &self.game.program;
        let mut ids = Vec::new();
        if prog.pred(atom::LEGAL, 1).is_some() {
            let fast = match &self.game.joins.legal {
                Some(j) if self.host_joins => join_distinct(j, m, &mut self.interned, &state, None),
                _ => None,
            };
            ids = match fast {
                Some(ids) => ids,
                None => {
                    host.placement = Placement::keyword(atom::LEGAL, 1);
                    call_distinct(
                        m,
                        &mut host,
                        &mut self.interned,
                        atom::LEGAL,
                        &[],
                        "legal/1",
                    )?
                }
            };
        }
        let by_id = self.consts.switch_info(&self.game);
        if by_id {
            if let Some(last) = &self.consts.last_switches {
                if last.len() == ids.len() && last.iter().zip(&ids).all(|(s, id)| &s.id == id) {
                    let out = last.clone();
                    self.switches = Some(out.clone());
                    return Ok(out);
                }
            }
        }
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if by_id {
                if let Some(info) = self.consts.switch_rows.get(&id) {
                    out.push(info.clone());
                    continue;
                }
            }
            let owner_term = if prog.pred(atom::OWNED, 2).is_some() {
                // a constant owner, by the address of the id's shared arguments first
                let by_ptr = match &id {
                    Term::Compound(f, args) if self.consts.owned && !args.is_empty() => {
                        Some((args.as_ptr() as usize, *f))
                    }
                    _ => None,
                };
                match by_ptr.and_then(|k| self.consts.owners_by_ptr.get(&k)) {
                    Some((_, o)) => o.clone(),
                    None => {
                        host.placement = Placement::keyword(atom::OWNED, 2);
                        let o = cached_with(
                            &mut self.consts,
                            m,
                            &mut host,
                            atom::OWNED,
                            &[&id],
                            true,
                            1,
                            "owned/2",
                            |a| a.first().cloned(),
                        )?;
                        if let Some(k) = by_ptr {
                            if self.consts.owners_by_ptr.len() >= CONST_CACHE_MAX {
                                self.consts.owners_by_ptr.clear();
                            }
                            self.consts.owners_by_ptr.insert(k, (id.clone(), o.clone()));
                        }
                        o
                    }
                }
            } else {
                None
            };
            let mut templates = Vec::new();
            if prog.pred(atom::UNLIMITED, 2).is_some() {
                host.placement = Placement::keyword(atom::UNLIMITED, 2);
                templates = distinct_answers(
                    &mut self.consts,
                    &mut self.interned,
                    m,
                    &mut host,
                    atom::UNLIMITED,
                    &[&id],
                    "unlimited/2",
                )?;
            }
            let actions = if !templates.is_empty() {
                Actions::Unlimited(templates)
            } else {
                let mut acts = Vec::new();
                let fast = match &self.game.joins.switch {
                    Some(j) if self.host_joins && !self.consts.constant(atom::SWITCH) => {
                        join_distinct(j, m, &mut self.interned, &state, Some(&id))
                    }
                    _ => None,
                };
                if let Some(a) = fast {
                    acts = a;
                } else if prog.pred(atom::SWITCH, 2).is_some() {
                    host.placement = Placement::keyword(atom::SWITCH, 2);
                    acts = distinct_answers(
                        &mut self.consts,
                        &mut self.interned,
                        m,
                        &mut host,
                        atom::SWITCH,
                        &[&id],
                        "switch/2",
                    )?;
                }
                Actions::Finite(acts)
            };
            let owner = classify_owner(owner_term.as_ref(), &state, &actions, &id);
            let info = SwitchInfo {
                id,
                owner_term,
                owner,
                actions,
            };
            if by_id {
                if self.consts.switch_rows.len() >= CONST_CACHE_MAX {
                    self.consts.switch_rows.clear();
                }
                self.consts
                    .switch_rows
                    .insert(info.id.clone(), info.clone());
            }
            out.push(info);
        }
        let out = Arc::new(out);
        if by_id {
            self.consts.last_switches = Some(out.clone());
        }
        self.switches = Some(out.clone());
        Ok(out)
    }

    /// Is the current state terminal (no legal switch)?
    pub fn is_terminal(&mut self) -> Result<bool, RuntimeError> {
        Ok(self.switches()?.is_empty())
    }

    /// `hidden[p][f]`: is fact `f` hidden from player `p` in the current state (computed once per state).
    pub fn hidden_matrix(&mut self) -> Result<Arc<Vec<Vec<bool>>>, RuntimeError> {
        if let Some(h) = &self.hidden {
            return Ok(h.clone());
        }
        let state = self.state.clone();
        let facts: Vec<Arc<Ground>> = state.facts.iter().cloned().collect();
        let m = self.hidden_of(&state, &facts, true)?;
        let m = Arc::new(m);
        self.hidden = Some(m.clone());
        Ok(m)
    }

    /// For each player, which of `words` are hidden from it in `state` (without `keep`, the same
    /// queries run but nothing is returned).
    fn hidden_of(
        &mut self,
        state: &State,
        words: &[Arc<Ground>],
        keep: bool,
    ) -> Result<Vec<Vec<bool>>, RuntimeError> {
        let n = state.players.len();
        if self.game.program.pred(atom::HIDDEN, 2).is_none() {
            return Ok(vec![vec![false; words.len()]; n]);
        }
        // hidden/2 reaching nothing but player/1: answered once per (word, player) in a session,
        // looked up once per word; the other answers are asked in the order below (player by
        // player, word by word: so the same first error, never cached)
        let len = words.len();
        let mut known: Vec<Option<bool>> = vec![None; n * len];
        if self.consts.hidden {
            for (wi, w) in words.iter().enumerate() {
                if let Some(row) = self.consts.hidden_rows.get(&ByHash(w.clone())) {
                    for (pi, h) in row.iter().enumerate().take(n) {
                        known[pi * len + wi] = *h;
                    }
                }
            }
        }
        let mut host: Option<KeywordHost> = None;
        let mut out = Vec::with_capacity(if keep { n } else { 0 });
        for (pi, p) in state.player_terms().enumerate() {
            let mut row = Vec::with_capacity(if keep { len } else { 0 });
            for (wi, w) in words.iter().enumerate() {
                if let Some(h) = known[pi * len + wi] {
                    if keep {
                        row.push(h);
                    }
                    continue;
                }
                let host = host.get_or_insert_with(|| {
                    let mut h = KeywordHost::new(&state.facts, &state.players, &[]);
                    h.placement = Placement::keyword(atom::HIDDEN, 2);
                    h
                });
                let h = cached_with(
                    &mut self.consts,
                    &mut self.machine,
                    host,
                    atom::HIDDEN,
                    &[w.term(), p],
                    false,
                    1,
                    "hidden/2",
                    |a| !a.is_empty(),
                )?;
                if self.consts.hidden {
                    if self.consts.hidden_rows.len() >= CONST_CACHE_MAX {
                        self.consts.hidden_rows.clear();
                    }
                    let cached = self
                        .consts
                        .hidden_rows
                        .entry(ByHash(w.clone()))
                        .or_default();
                    if cached.len() < n {
                        cached.resize(n, None);
                    }
                    cached[pi] = Some(h);
                }
                if keep {
                    row.push(h);
                }
            }
            if keep {
                out.push(row);
            }
        }
        Ok(out)
    }

    /// The facts `player` may see (all facts for `None`, the designer's view), in fact order.
    pub fn view(&mut self, player: Option<&Term>) -> Result<Vec<Term>, RuntimeError> {
        let Some(p) = player else {
            return Ok(self.state.facts.terms().cloned().collect());
        };
        let Some(pi) = self.state.player_index(p) else {
            return Err(RuntimeError::new(
                codes::NOT_A_PLAYER,
                "view",
                format!("{} is not a player", show(p)),
            ));
        };
        if self.game.program.pred(atom::HIDDEN, 2).is_none() {
            // nothing is hidden (the matrix would be all `false`)
            return Ok(self.state.facts.terms().cloned().collect());
        }
        let hidden = self.hidden_matrix()?;
        Ok(self
            .state
            .facts
            .terms()
            .zip(hidden[pi].iter())
            .filter(|(_, &h)| !h)
            .map(|(f, _)| f.clone())
            .collect())
    }

    /// The legal switches `player` owns, as that player sees them.
    pub fn switches_of(&mut self, player: &Term) -> Result<Vec<SwitchInfo>, RuntimeError> {
        Ok(self
            .switches()?
            .iter()
            .filter(|s| s.owner == Owner::Player(player.clone()))
            .cloned()
            .collect())
    }

    /// Would `submit(player, switch, action)` be accepted now? The action as the session would keep it
    /// (an integer in a `double` slot is a float), or why not; nothing changes (the hidden-information
    /// exploration asks this of typed switches).
    pub fn accepts(
        &mut self,
        player: &Term,
        switch: &Term,
        action: &Term,
    ) -> Result<Result<Term, Rejection>, RuntimeError> {
        // (a player that is, by address, the owner of a switch in the current list is a player:
        // ground)
        let player_ground = self.switches.as_ref().is_some_and(|sws| {
            sws.iter().any(|s| {
                std::ptr::eq(&s.id, switch)
                    && matches!(&s.owner, Owner::Player(o) if std::ptr::eq(o, player))
            })
        }) || player.is_ground();
        if !action.is_ground() || !switch.is_ground() || !player_ground {
            return Ok(Err(Rejection(format!(
                "submit({}, {}, {}) is not ground: a submission names one action",
                show(player),
                show(switch),
                show(action)
            ))));
        }
        let switches = self.switches()?;
        // (a driver submits the ids and actions of the switch list itself: found by address
        // first; the ids are distinct)
        let Some(sw) = switches
            .iter()
            .find(|s| std::ptr::eq(&s.id, switch))
            .or_else(|| switches.iter().find(|s| &s.id == switch))
        else {
            return Ok(Err(Rejection(format!(
                "switch {} is not legal now",
                show(switch)
            ))));
        };
        match &sw.owner {
            Owner::Player(o) if o == player => {}
            Owner::Player(o) => {
                return Ok(Err(Rejection(format!(
                    "switch {} is owned by {}, not by {}",
                    show(switch),
                    show(o),
                    show(player)
                ))));
            }
            Owner::Equal(_) | Owner::Probs(_) | Owner::BadDistribution(_) => {
                return Ok(Err(Rejection(format!(
                    "switch {} is a chance switch: no player can submit to it",
                    show(switch)
                ))));
            }
            Owner::Other(o) => {
                return Ok(Err(Rejection(format!(
                    "switch {} is owned by {}, which is not a player",
                    show(switch),
                    show(o)
                ))));
            }
            Owner::Nobody => {
                return Ok(Err(Rejection(format!(
                    "switch {} has no owner",
                    show(switch)
                ))))
            }
        }
        let action = match &sw.actions {
            Actions::Finite(acts) => {
                if !acts.iter().any(|a| std::ptr::eq(a, action)) && !acts.contains(action) {
                    let list: Vec<String> = acts.iter().map(show).collect();
                    return Ok(Err(Rejection(format!(
                        "{} is not an action of switch {} (its actions: {})",
                        show(action),
                        show(switch),
                        list.join(", ")
                    ))));
                }
                action.clone()
            }
            Actions::Unlimited(templates) => {
                let Some(a) = templates
                    .iter()
                    .find_map(|t| instantiate_template(t, action))
                else {
                    let list: Vec<String> = templates.iter().map(show).collect();
                    return Ok(Err(Rejection(format!(
                        "{} does not fit a template of switch {} (templates: {})",
                        show(action),
                        show(switch),
                        list.join(", ")
                    ))));
                };
                let state = self.state.clone();
                let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
                host.placement = Placement::keyword(atom::SWITCH, 2);
                let g = call(atom::SWITCH, [switch.clone(), a.clone()]);
                let r = solutions(
                    &mut self.machine,
                    &mut host,
                    &g,
                    &Term::Atom(atom::TRUE),
                    1,
                    "switch/2",
                );
                let ok = match r {
                    Ok(v) => !v.is_empty(),
                    Err(e) => {
                        return Ok(Err(Rejection(format!(
                            "checking {} with switch/2 raised an error: {}",
                            show(&a),
                            e.message
                        ))))
                    }
                };
                if !ok {
                    return Ok(Err(Rejection(format!(
                        "{} is not a valid action of switch {} now",
                        show(&a),
                        show(switch)
                    ))));
                }
                a
            }
        };
        Ok(Ok(action))
    }

    /// Submits `action` for `player` at `switch` (docs/semantics.md §4.5). A later submission to the same
    /// switch replaces the earlier one. In interrupt mode an accepted submission runs a transition.
    pub fn submit(
        &mut self,
        player: &Term,
        switch: &Term,
        action: &Term,
    ) -> Result<Result<(), Rejection>, RuntimeError> {
        let action = match self.accepts(player, switch, action)? {
            Ok(a) => a,
            Err(r) => return Ok(Err(r)),
        };
        let interrupt = self.settings.interrupt && !self.replaying;
        let before = interrupt.then(|| self.pending.clone());
        self.pending.retain(|s| &s.switch != switch);
        self.pending.push(Submission {
            player: player.clone(),
            switch: switch.clone(),
            action,
        });
        if let Some(before) = before {
            if let Err(e) = self.run_chronon() {
                // the transition failed: the submission is not kept, and an earlier one to the same
                // switch (pending again after an undo) stays
                self.pending = before;
                return Err(e);
            }
        }
        Ok(Ok(()))
    }

    /// Fixes the action a chance switch takes in the next chronon (it must be one of its actions).
    pub fn set_nature(
        &mut self,
        switch: &Term,
        action: &Term,
    ) -> Result<Result<(), Rejection>, RuntimeError> {
        let switches = self.switches()?;
        let Some(sw) = switches.iter().find(|s| &s.id == switch) else {
            return Ok(Err(Rejection(format!(
                "switch {} is not legal now",
                show(switch)
            ))));
        };
        if !sw.owner.is_nature() {
            return Ok(Err(Rejection(format!(
                "switch {} is not a chance switch",
                show(switch)
            ))));
        }
        match &sw.actions {
            Actions::Finite(a) if a.contains(action) => {}
            _ => {
                return Ok(Err(Rejection(format!(
                    "{} is not an action of switch {}",
                    show(action),
                    show(switch)
                ))))
            }
        }
        self.overrides.retain(|(s, _)| s != switch);
        self.overrides.push((switch.clone(), action.clone()));
        Ok(Ok(()))
    }

    /// Runs one chronon (Algorithm 1; docs/semantics.md §5). On a runtime error the state, the pending
    /// submissions and the RNG are exactly as before.
    pub fn run_chronon(&mut self) -> Result<&ChrononRecord, RuntimeError> {
        let switches = self.switches()?;
        let state = self.state.clone();
        let rng_before = self.machine.rng.clone();
        // one inference budget for the whole transition
        self.machine.inferences = 0;
        self.machine.keep_inferences = true;
        let result = self.transition(&switches, &state, true);
        self.machine.keep_inferences = false;
        match result {
            Ok((next, record, next_hidden)) => {
                let record = record.expect("asked for");
                self.undo.push(Snapshot {
                    state: state.clone(),
                    switches: Some(switches),
                    rng: rng_before,
                    pending: None,
                });
                self.state = Arc::new(next);
                self.switches = None;
                self.hidden = next_hidden;
                self.pending.clear();
                self.overrides.clear();
                self.history.push(record);
                Ok(self.history.last().expect("just pushed"))
            }
            Err(e) => {
                self.machine.rng = rng_before;
                Err(e)
            }
        }
    }

    /// Runs one chronon as [`Session::run_chronon`] does (the same next state, RNG, payoffs and
    /// errors, every query asked in the same order, `hidden/2` included) but keeps no record of it:
    /// no [`ChrononRecord`] (events, per-player events) is built and nothing is added to the history.
    /// With `undoable`, [`Session::undo`] steps back over it as over any chronon (its submissions
    /// become pending again): the AI's searches ([`crate::ai::sim::advance`]). Without, the undo stack
    /// is emptied: `sidl bench` ([`crate::game::trace::random_play`]), which never steps back.
    /// For drivers that read neither the history nor the events.
    pub fn advance(&mut self, undoable: bool) -> Result<(), RuntimeError> {
        let switches = self.switches()?;
        let state = self.state.clone();
        let rng_before = self.machine.rng.clone();
        self.machine.inferences = 0;
        self.machine.keep_inferences = true;
        let result = self.transition(&switches, &state, false);
        self.machine.keep_inferences = false;
        match result {
            Ok((next, _, _)) => {
                if undoable {
                    self.undo.push(Snapshot {
                        state,
                        switches: Some(switches),
                        rng: rng_before,
                        pending: Some((
                            std::mem::take(&mut self.pending),
                            std::mem::take(&mut self.overrides),
                        )),
                    });
                } else {
                    self.undo.clear();
                    // the old state's room is reused when nothing else holds it
                    drop(state);
                }
                match Arc::get_mut(&mut self.state) {
                    Some(s) => {
                        let old = std::mem::replace(s, next);
                        self.bufs.spare_facts = Arc::try_unwrap(old.facts).ok();
                        self.bufs.accounts = old.accounts;
                    }
                    None => self.state = Arc::new(next),
                }
                self.switches = None;
                self.hidden = None;
                self.pending.clear();
                self.overrides.clear();
                Ok(())
            }
            Err(e) => {
                self.machine.rng = rng_before;
                Err(e)
            }
        }
    }

    /// The next state of Algorithm 1 and, when `record`, the chronon's record (events and
    /// per-player events); without `record` the same queries run in the same order. With the
    /// record, also the next state's [`Session::hidden_matrix`] when it follows from the current
    /// one (see [`Session::next_hidden`]).
    #[allow(clippy::type_complexity)]
    fn transition(
        &mut self,
        switches: &[SwitchInfo],
        state: &State,
        record: bool,
    ) -> Result<(State, Option<ChrononRecord>, Option<Arc<Vec<Vec<bool>>>>), RuntimeError> {
        let interrupt = self.settings.interrupt;
        // 1. nature draws; choose each switch's action
        let mut chosen = std::mem::take(&mut self.bufs.chosen);
        chosen.clear();
        chosen.resize(switches.len(), None);
        let mut draws = Vec::new();
        for (i, sw) in switches.iter().enumerate() {
            if sw.owner.is_nature() {
                if interrupt && !self.pending.is_empty() {
                    continue;
                }
                let Actions::Finite(acts) = &sw.actions else {
                    return Err(RuntimeError::new(
                        codes::CHANCE_SWITCH,
                        "owned/2",
                        format!("chance switch {} has unlimited actions", show(&sw.id)),
                    ));
                };
                if let Owner::BadDistribution(msg) = &sw.owner {
                    return Err(RuntimeError::new(
                        codes::CHANCE_SWITCH,
                        "owned/2",
                        msg.clone(),
                    ));
                }
                let a = match self.overrides.iter().find(|(s, _)| s == &sw.id) {
                    Some((_, a)) => a.clone(),
                    None => draw(&mut self.machine.rng, &sw.owner, acts, &sw.id)?,
                };
                if record {
                    draws.push((sw.id.clone(), a.clone()));
                }
                chosen[i] = Some((a, ActionSource::Drawn));
            } else if let Some(s) = self.pending.iter().find(|s| s.switch == sw.id) {
                chosen[i] = Some((s.action.clone(), ActionSource::Submitted));
            }
        }
        let consts = &mut self.consts;
        let mut does = std::mem::take(&mut self.bufs.does);
        does.clear();
        does.extend(switches.iter().zip(&chosen).filter_map(|(sw, c)| {
            c.as_ref()
                .map(|(a, _)| (consts.ground(&sw.id), consts.ground(a)))
        }));
        let mut host = KeywordHost::new(&state.facts, &state.players, &does);
        // (lent by swapping: no empty buffers made and dropped)
        std::mem::swap(&mut host.scratch, &mut self.scratch);
        std::mem::swap(&mut host.creates, &mut self.bufs.creates);
        std::mem::swap(&mut host.deletes, &mut self.bufs.deletes);
        let prog = self.game.program.clone();
        // (no allocation when nothing is recorded)
        let (mut events, mut switch_owner) = if record {
            (
                Vec::with_capacity(switches.len() + state.players.len() + 4),
                Vec::with_capacity(switches.len()),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        // switch_owner: per switch event (in order), the index of the player owning the switch
        // 2. each legal switch in order runs its action
        for (i, sw) in switches.iter().enumerate() {
            let (action, how) = match &chosen[i] {
                Some(c) => c.clone(),
                None => {
                    // interrupt mode: only the submitted switch (or, without submissions, the chance switches) acts
                    if interrupt {
                        continue;
                    }
                    let mut d = None;
                    if prog.pred(atom::DEFAULT, 2).is_some() {
                        host.placement = Placement::keyword(atom::DEFAULT, 2);
                        d = cached_with(
                            &mut self.consts,
                            &mut self.machine,
                            &mut host,
                            atom::DEFAULT,
                            &[&sw.id],
                            true,
                            1,
                            "default/2",
                            |a| a.first().cloned(),
                        )?;
                    }
                    if d.is_none() {
                        if let Actions::Finite(acts) = &sw.actions {
                            d = acts.first().cloned();
                        }
                    }
                    match d {
                        Some(a) => (a, ActionSource::Default),
                        None => continue,
                    }
                }
            };
            let ok = if prog.pred(atom::DO, 1).is_some() {
                host.placement = Placement::keyword(atom::DO, 1);
                let seg = self.consts.seg(&action);
                let arg = match &seg {
                    Some(seg) => Arg::Seg(seg),
                    None => Arg::Term(&action),
                };
                call_succeeds(&mut self.machine, &mut host, atom::DO, &[arg], "do/1")?
            } else {
                false
            };
            if !record {
                continue;
            }
            events.push(Event::Switch {
                switch: sw.id.clone(),
                action,
                how,
                ok,
            });
            switch_owner.push(match &sw.owner {
                Owner::Player(o) => state.player_index(o),
                _ => None,
            });
        }
        // 3. payoffs: every solution of payoff(N, X) for each player N in order
        let mut accounts = std::mem::take(&mut self.bufs.accounts);
        accounts.clear();
        accounts.extend_from_slice(&state.accounts);
        if prog.pred(atom::PAYOFF, 2).is_some() && !self.payoffs_fail(&host, state) {
            host.placement = Placement::keyword(atom::PAYOFF, 2);
            self.consts.player_segs(&state.players);
            for (pi, (p, seg)) in self.consts.player_segs.iter().enumerate() {
                let arg = match seg {
                    Some(seg) => Arg::Seg(seg),
                    None => Arg::Term(p.term()),
                };
                for amount in call_solutions_args(
                    &mut self.machine,
                    &mut host,
                    atom::PAYOFF,
                    &[arg],
                    true,
                    usize::MAX,
                    "payoff/2",
                )? {
                    accounts[pi] = add_amount(&accounts[pi], &amount)
                        .map_err(|m| RuntimeError::new(codes::NOT_A_NUMBER, "payoff/2", m))?;
                }
            }
        }
        let creates = std::mem::take(&mut host.creates);
        let deletes = std::mem::take(&mut host.deletes);
        std::mem::swap(&mut self.scratch, &mut host.scratch);
        drop(host);
        // (the buffers are kept for the next chronon, emptied: they hold no term between chronons)
        does.clear();
        self.bufs.does = does;
        chosen.clear();
        self.bufs.chosen = chosen;
        if !record {
            // the same hidden/2 queries as below (their errors, budget and random numbers count),
            // their answers unused; without hidden/2 there is nothing to ask, and nothing is
            // asked when every answer is known (see `ConstCache::hidden_known`)
            let n = state.players.len();
            let consts = &self.consts;
            if prog.pred(atom::HIDDEN, 2).is_some()
                && !(consts.hidden
                    && deletes
                        .iter()
                        .map(|&i| state.facts.get(i))
                        .chain(creates.iter())
                        .all(|w| consts.hidden_known(w, n)))
            {
                let words: Vec<Arc<Ground>> = deletes
                    .iter()
                    .map(|&i| state.facts.get(i).clone())
                    .chain(creates.iter().cloned())
                    .collect();
                self.hidden_of(state, &words, false)?;
            }
            return Ok((
                self.next_state(state, deletes, creates, accounts),
                None,
                None,
            ));
        }
        // 4. events: scheduled changes not hidden from the player (hidden/2 in the old state), accounts
        for &i in &deletes {
            events.push(Event::Deleted(state.facts.get(i).term().clone()));
        }
        for g in &creates {
            events.push(Event::Created(g.term().clone()));
        }
        for (p, a) in state.player_terms().zip(&accounts) {
            events.push(Event::Account {
                player: p.clone(),
                amount: a.clone(),
            });
        }
        let words: Vec<Arc<Ground>> = deletes
            .iter()
            .map(|&i| state.facts.get(i).clone())
            .chain(creates.iter().cloned())
            .collect();
        let hidden = self.hidden_of(state, &words, true)?;
        let mut player_events = PlayerEvents::builder(hidden.len(), hidden.len() * events.len());
        for (pi, hidden_pi) in hidden.iter().enumerate() {
            let mut switch_no = 0;
            // the deleted words are distinct facts and the created words distinct: the k-th
            // Deleted (Created) event is the k-th deleted (created) word
            let (mut del_no, mut cre_no) = (0, deletes.len());
            for (k, e) in events.iter().enumerate() {
                let keep = match e {
                    Event::Deleted(_) => {
                        del_no += 1;
                        !hidden_pi[del_no - 1]
                    }
                    Event::Created(_) => {
                        cre_no += 1;
                        !hidden_pi[cre_no - 1]
                    }
                    Event::Account { .. } => true,
                    // a player sees what its own switches did, not other players' or nature's choices
                    Event::Switch { .. } => {
                        switch_no += 1;
                        switch_owner[switch_no - 1] == Some(pi)
                    }
                };
                if keep {
                    player_events.push(k as u32);
                }
            }
            player_events.end_player();
        }
        let player_events = player_events.finish();
        let next_hidden = self.next_hidden(state, &deletes, &hidden);
        let next = self.next_state(state, deletes, creates, accounts);
        let record = ChrononRecord {
            submissions: self.pending.clone(),
            overrides: self.overrides.clone(),
            draws,
            events,
            player_events,
        };
        Ok((next, Some(record), next_hidden))
    }

    /// Does every player's `payoff/2` query certainly have no answer, and may it be skipped with
    /// no visible difference? When every clause begins with `tocreate/1` or `todelete/1` and no
    /// scheduled word can unify with it ([`crate::game::join::Guards`]): each clause fails at its
    /// first goal, with no effect but the inferences it counts. Skipped only where those cannot
    /// matter: no profiling (the calls are counted), no `hidden/2` (the only query after the
    /// payoffs under the chronon's shared budget), room in the budget for the inferences the
    /// queries would count (they could not have exhausted it), and heap, choicepoint and frame
    /// limits far above what they use (as the host's joins: [`join_distinct`]).
    fn payoffs_fail(&self, host: &KeywordHost<'_>, state: &State) -> bool {
        let Some(guards) = &self.game.joins.payoff else {
            return false;
        };
        let machine = &self.machine;
        let limits = machine.limits();
        self.host_joins
            && machine.profile.is_none()
            && self.game.program.pred(atom::HIDDEN, 2).is_none()
            && limits.max_heap_cells >= join::MIN_CELLS
            && limits.max_choicepoints >= join::MIN_DEPTH
            && limits.max_frames >= join::MIN_DEPTH
            && machine
                .inferences
                .saturating_add(guards.max_inferences() * state.players.len() as u64)
                <= limits.max_inferences
            && guards.fail(
                host.creates.iter().map(|g| &**g),
                host.deletes.iter().map(|&i| &**state.facts.get(i)),
            )
    }

    /// The next state's [`Session::hidden_matrix`] without asking `hidden/2` again, when its
    /// answers depend on the word and the player only ([`ConstCache`]) and the current state's
    /// matrix is known: the next state's facts are the current ones without `deletes`, in order,
    /// then the created words ([`FactSet::apply`]), so each row is the current row without the
    /// deleted facts' entries, then the created words' entries of `changed` (the rows of the
    /// chronon's changed words: the deleted ones, then the created ones).
    fn next_hidden(
        &self,
        state: &State,
        deletes: &[u32],
        changed: &[Vec<bool>],
    ) -> Option<Arc<Vec<Vec<bool>>>> {
        if !self.consts.hidden || !std::ptr::eq(state, &*self.state) {
            return None;
        }
        let old = self.hidden.as_ref()?;
        if old.len() != changed.len() {
            return None;
        }
        let mut gone = vec![false; state.facts.len()];
        for &d in deletes {
            gone[d as usize] = true;
        }
        Some(Arc::new(
            old.iter()
                .zip(changed)
                .map(|(row, ch)| {
                    row.iter()
                        .zip(&gone)
                        .filter(|(_, &g)| !g)
                        .map(|(&h, _)| h)
                        .chain(ch[deletes.len()..].iter().copied())
                        .collect()
                })
                .collect(),
        ))
    }

    /// Step 5 of a transition: deletions, then creations in scheduling order (the schedule lists
    /// are then taken back, emptied, for the next chronon).
    fn next_state(
        &mut self,
        state: &State,
        deletes: Vec<u32>,
        creates: Vec<Arc<Ground>>,
        accounts: Vec<Term>,
    ) -> State {
        let facts = if deletes.is_empty() && creates.is_empty() {
            state.facts.clone()
        } else {
            // in the room of the state before, when `advance` kept it
            let spare = self.bufs.spare_facts.take();
            Arc::new(state.facts.apply_reusing(&deletes, &creates, spare))
        };
        self.bufs.lend_back(creates, deletes);
        State {
            chronon: state.chronon + 1,
            facts,
            players: state.players.clone(),
            accounts,
        }
    }

    /// Withdraws every pending submission (and fixed nature action) of the current chronon, e.g. after
    /// [`Session::undo`] when the players are to choose again instead of replaying the undone choices.
    pub fn clear_pending(&mut self) {
        self.pending.clear();
        self.overrides.clear();
    }

    /// Restores the state before the last chronon (its submissions become pending again).
    pub fn undo(&mut self) -> bool {
        let Some(snap) = self.undo.pop() else {
            return false;
        };
        let (pending, overrides) = match snap.pending {
            Some(p) => p,
            None => {
                let rec = self.history.pop();
                let pending = rec
                    .as_ref()
                    .map(|r| r.submissions.clone())
                    .unwrap_or_default();
                (pending, rec.map(|r| r.overrides).unwrap_or_default())
            }
        };
        self.state = snap.state;
        self.switches = snap.switches;
        self.hidden = None;
        self.machine.rng = snap.rng;
        self.pending = pending;
        self.overrides = overrides;
        true
    }

    /// Replays a history from the same game and seed: the same submissions and fixed nature actions
    /// give the same states (the RNG draws the same numbers).
    pub fn replay(
        game: Arc<Game>,
        seed: u64,
        settings: Settings,
        history: &[ChrononRecord],
    ) -> Result<Session, RuntimeError> {
        let mut s = Session::new(game, seed, settings)?;
        // submissions are applied first and each record's transition run once, in either mode
        s.replaying = true;
        for rec in history {
            for sub in &rec.submissions {
                if let Err(r) = s.submit(&sub.player, &sub.switch, &sub.action)? {
                    return Err(RuntimeError::new(
                        codes::REPLAY,
                        "replay",
                        format!("replay diverged: {r}"),
                    ));
                }
            }
            for (sw, a) in &rec.overrides {
                if let Err(r) = s.set_nature(sw, a)? {
                    return Err(RuntimeError::new(
                        codes::REPLAY,
                        "replay",
                        format!("replay diverged: {r}"),
                    ));
                }
            }
            s.run_chronon()?;
        }
        s.replaying = false;
        Ok(s)
    }

    /// Turns per-predicate call counting on (`true`) or off.
    pub fn set_profiling(&mut self, on: bool) {
        self.machine.profile = if on { Some(Default::default()) } else { None };
    }

    /// Calls per predicate since profiling was turned on, most called first.
    pub fn profile(&self) -> Vec<((Atom, u32), u64)> {
        let mut v: Vec<_> = self
            .machine
            .profile
            .iter()
            .flatten()
            .map(|(k, n)| (*k, *n))
            .collect();
        crate::stable_sort::sort_by(&mut v, |a, b| {
            b.1.cmp(&a.1).then_with(|| a.0 .0.name().cmp(b.0 .0.name()))
        });
        v
    }

    /// The drivers' RNG, for whoever picks random actions for players (random seats, `sidl trace`
    /// without a script, benchmarks). It is seeded from the session seed (`seed ^ DRIVER_SEED_MIX`)
    /// but separate from the game's own RNG (chance draws, `random/1`), so that replaying the
    /// submissions of a history redraws exactly the same chance actions.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.driver_rng
    }
}

/// Interprets the first `owned/2` answer. A distribution that does not fit the actions is kept as
/// [`Owner::BadDistribution`]: the error is raised when a chronon runs.
fn classify_owner(o: Option<&Term>, state: &State, actions: &Actions, id: &Term) -> Owner {
    let Some(o) = o else { return Owner::Nobody };
    if state.player_index(o).is_some() {
        return Owner::Player(o.clone());
    }
    let n_actions = match actions {
        Actions::Finite(a) => a.len(),
        Actions::Unlimited(_) => 0,
    };
    if let Term::Compound(f, args) = o {
        if *f == atom::EQUAL && args.len() == 1 {
            return match args[0] {
                Term::Int(n) if n >= 0 && n as usize == n_actions => Owner::Equal(n as u64),
                Term::Int(_) => Owner::BadDistribution(format!(
                    "switch {} is owned by {} but has {} actions",
                    show(id),
                    show(o),
                    n_actions
                )),
                _ => Owner::BadDistribution(format!("{}: equal/1 needs an integer", show(o))),
            };
        }
    }
    if let Some(items) = o.as_list() {
        if !items.is_empty()
            && items
                .iter()
                .all(|t| matches!(t, Term::Int(_) | Term::Float(_)))
        {
            let ps: Vec<f64> = items.iter().filter_map(|t| t.as_f64()).collect();
            let sum: f64 = ps.iter().sum();
            if ps.len() != n_actions || ps.iter().any(|&p| p < 0.0) || (sum - 1.0).abs() > 1e-9 {
                return Owner::BadDistribution(format!(
                    "switch {}: the distribution {} must have one non-negative probability per action ({}) summing to 1",
                    show(id),
                    show(o),
                    n_actions
                ));
            }
            return Owner::Probs(ps);
        }
    }
    Owner::Other(o.clone())
}

/// Draws a chance switch's action (docs/semantics.md §4.2, §7.1): `equal(N)` uniformly with `below(N)`;
/// a probability list by one `next_f64()` against the cumulative sums.
fn draw(rng: &mut Rng, owner: &Owner, acts: &[Term], id: &Term) -> Result<Term, RuntimeError> {
    if acts.is_empty() {
        return Err(RuntimeError::new(
            codes::CHANCE_SWITCH,
            "switch/2",
            format!("chance switch {} has no actions", show(id)),
        ));
    }
    let i = match owner {
        Owner::BadDistribution(msg) => {
            return Err(RuntimeError::new(
                codes::CHANCE_SWITCH,
                "owned/2",
                msg.clone(),
            ))
        }
        Owner::Equal(n) => rng.below(*n) as usize,
        Owner::Probs(ps) => {
            let u = rng.next_f64();
            let mut acc = 0.0;
            let mut pick = ps.len() - 1;
            for (i, p) in ps.iter().enumerate() {
                acc += p;
                if u < acc {
                    pick = i;
                    break;
                }
            }
            pick
        }
        _ => 0,
    };
    Ok(acts[i.min(acts.len() - 1)].clone())
}
