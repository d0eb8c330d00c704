//! The SIDL body keywords as host predicates of the logic engine: `player/1`, `fact/1`, `create/1`,
//! `delete/1`, `tocreate/1`, `todelete/1`, `does/2` (docs/semantics.md §3–§5).
//!
//! During a chronon `fact/1` answers from the state before it; `create/1` and `delete/1` schedule
//! changes that are undone on backtracking (trail entries 0 and 1), so only the committed proof's
//! effects survive. All switches of one chronon share the schedules.
//!
//! Placement at run time (docs/semantics.md §2.2): the session tells the host which keyword it is
//! evaluating ([`Placement`]); a call of a body keyword that keyword may not use is the uncatchable
//! runtime error `E0946` (one bit test per body-keyword call).

use super::facts::{push_list, Candidates, FactSet, Ground, HeapWord, Scratch, INDEXED};
use crate::atom::{self, Atom};
use crate::rng::Rng;
use crate::solve::builtins::Det;
use crate::solve::host::{Host, ListKeys};
use crate::solve::store::{Cell, Store, TrailEntry};
use crate::term::Term;
use std::sync::Arc;

/// Host ids, in the order given to `ProgramBuilder::host_predicates`.
pub const PLAYER: u32 = 0;
pub const FACT: u32 = 1;
pub const CREATE: u32 = 2;
pub const DELETE: u32 = 3;
pub const TOCREATE: u32 = 4;
pub const TODELETE: u32 = 5;
pub const DOES: u32 = 6;

/// The body keywords, in host-id order.
pub const KEYWORD_PREDICATES: &[(Atom, u32)] = &[
    (atom::PLAYER, 1),
    (atom::FACT, 1),
    (atom::CREATE, 1),
    (atom::DELETE, 1),
    (atom::TOCREATE, 1),
    (atom::TODELETE, 1),
    (atom::DOES, 2),
];

pub fn keyword_predicates() -> Vec<(Atom, u32)> {
    KEYWORD_PREDICATES.to_vec()
}

/// Which body keywords the goal being evaluated may call (docs/semantics.md §2.2): the session sets it
/// before each keyword goal ([`KeywordHost::placement`]). A call of another body keyword raises
/// `error(placement_error(Keyword, During), _)` ([`crate::solve::errors::codes::PLACEMENT`]),
/// which `catch/3` does not catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Bit `i`: host id `i` may be called.
    allowed: u32,
    /// The head keyword being evaluated; `None`: a query whose goal is not a head keyword.
    keyword: Option<(Atom, u32)>,
}

/// Every body keyword (no check): [`KeywordHost::new`]'s default, for goals run outside the game
/// manager (tests, tools). The session and the query consoles always set a keyword's placement.
const ANY: u32 = (1 << KEYWORD_PREDICATES.len()) - 1;

impl Placement {
    /// No check: every body keyword may be called.
    pub const ANY: Placement = Placement {
        allowed: ANY,
        keyword: None,
    };

    /// The body keywords the condition of head keyword `name/arity` may use (the table of §2,
    /// [`crate::analysis::placement::allowed_body_keywords`]; `game/1`, `init/1`, `init/2`: none).
    pub fn keyword(name: Atom, arity: u32) -> Placement {
        let mut allowed = 0;
        for &k in crate::analysis::placement::allowed_body_keywords(name) {
            if let Some(id) = KEYWORD_PREDICATES.iter().position(|p| p.0 == k) {
                allowed |= 1 << id;
            }
        }
        Placement {
            allowed,
            keyword: Some((name, arity)),
        }
    }

    /// A query of a state (the playground's console, `Session::query_state`): a goal that calls a head
    /// keyword follows that keyword's row of the table; any other goal may read the state
    /// (`player/1`, `fact/1`), nothing else (there is no chronon: nothing to schedule or read back).
    pub fn query(goal: &Term) -> Placement {
        match goal.functor() {
            Some((n, a)) if crate::analysis::placement::is_head_keyword((n, a as u32)) => {
                Placement::keyword(n, a as u32)
            }
            _ => Placement {
                allowed: (1 << PLAYER) | (1 << FACT),
                keyword: None,
            },
        }
    }

    /// May host id `id` be called?
    #[inline(always)]
    pub fn allows(&self, id: u32) -> bool {
        self.allowed & (1 << id) != 0
    }

    /// The host ids that may not be called (bits by host id).
    pub fn forbidden(&self) -> u64 {
        u64::from(!self.allowed & ANY)
    }

    /// The ball of a call of host id `id` that is not allowed:
    /// `error(placement_error(Name/Arity, Keyword/Arity), _)` (`query` for a query's goal).
    #[cold]
    pub fn error(&self, id: u32) -> Term {
        let (n, a) = KEYWORD_PREDICATES[id as usize];
        let during = match self.keyword {
            Some((k, ka)) => Term::indicator(k, ka as usize),
            None => Term::atom("query"),
        };
        Term::compound(
            "error",
            vec![
                Term::compound(
                    "placement_error",
                    vec![Term::indicator(n, a as usize), during],
                ),
                Term::Var(0),
            ],
        )
    }
}

const UNDO_CREATE: u32 = 0;
const UNDO_DELETE: u32 = 1;

/// The keyword predicates over one state and one chronon's schedules.
pub struct KeywordHost<'a> {
    pub facts: &'a FactSet,
    pub players: &'a [Arc<Ground>],
    /// `does/2`: (switch, action) pairs of submitted and drawn actions, in legal-switch order.
    pub does: &'a [(Arc<Ground>, Arc<Ground>)],
    pub creates: Vec<Arc<Ground>>,
    pub deletes: Vec<u32>,
    /// `deleted[i]`: fact `i` is in `deletes`; kept only once `deletes` has more than
    /// [`DELETED_SCAN`] ids (empty before: `deletes` is scanned, no allocation per chronon).
    deleted: Vec<bool>,
    /// [`Host::context_id`] while the schedules or `does` are not empty: drawn afresh (unique) at
    /// every change of the schedules and every undo of one.
    context: u64,
    /// Buffers of `create/1` (the session lends its own, so that they are allocated once).
    pub scratch: Scratch,
    /// The body keywords the goal being evaluated may call ([`Placement::ANY`] until set).
    pub placement: Placement,
    /// The candidates of the last `fact/1` call that answered with a retry state, and the
    /// generation that state carries (its high 32 bits, [`retry_state`]): a retry of that call
    /// takes them instead of finding them again (the pattern is as it was then).
    retry: Option<(u32, Candidates<'a>)>,
    /// The last generation given ([`KeywordHost::keep_retry`]).
    retries: u32,
}

/// The retry state of `fact/1` at candidate `pos` whose candidates are kept under generation
/// `gen` (the low 32 bits: the candidate; the high ones: the generation, 0 for none).
#[inline(always)]
fn retry_state(pos: u64, gen: u32) -> u64 {
    debug_assert!(pos < 1 << 32);
    pos | (u64::from(gen) << 32)
}

/// The next fresh context id (odd numbers; even ones are `FactSet` ids of states with empty
/// schedules and no actions).
static NEXT_CONTEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn fresh_context() -> u64 {
    (NEXT_CONTEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 1) | 1
}

impl<'a> KeywordHost<'a> {
    pub fn new(
        facts: &'a FactSet,
        players: &'a [Arc<Ground>],
        does: &'a [(Arc<Ground>, Arc<Ground>)],
    ) -> KeywordHost<'a> {
        KeywordHost {
            facts,
            players,
            does,
            creates: Vec::new(),
            deletes: Vec::new(),
            // made when `deletes` outgrows `DELETED_SCAN`: most chronons delete a few facts
            deleted: Vec::new(),
            scratch: Scratch::default(),
            context: fresh_context(),
            placement: Placement::ANY,
            retry: None,
            retries: 0,
        }
    }

    /// The schedules so far: created words and deleted fact ids, in scheduling order.
    pub fn schedules(&self) -> (Vec<Arc<Ground>>, Vec<u32>) {
        (self.creates.clone(), self.deletes.clone())
    }

    /// Puts back schedules taken with [`KeywordHost::schedules`] (an explanation runs a goal,
    /// then restores the schedules as they were before it).
    pub fn set_schedules(&mut self, creates: Vec<Arc<Ground>>, deletes: Vec<u32>) {
        self.deleted.clear();
        self.creates = creates;
        self.deletes = deletes;
        if self.deletes.len() > DELETED_SCAN {
            self.mark_deleted();
        }
        self.context = fresh_context();
    }

    /// Forgets the schedules (a chronon that aborted).
    pub fn clear_schedules(&mut self) {
        self.creates.clear();
        self.deletes.clear();
        self.deleted.iter_mut().for_each(|d| *d = false);
        self.context = fresh_context();
    }

    /// Keeps `cands`, the candidates of a `fact/1` call that answers with a retry state, under a
    /// generation of their own (never given twice by this host; 0, nothing kept, once they are
    /// used up): the generation for the state ([`retry_state`]).
    #[inline]
    fn keep_retry(&mut self, cands: Candidates<'a>) -> u32 {
        if self.retries == u32::MAX {
            return 0;
        }
        self.retries += 1;
        self.retry = Some((self.retries, cands));
        self.retries
    }

    /// Is fact `fid` scheduled for deletion?
    #[inline(always)]
    fn is_deleted(&self, fid: u32) -> bool {
        if self.deleted.is_empty() {
            self.deletes.contains(&fid)
        } else {
            self.deleted[fid as usize]
        }
    }

    /// Schedules the deletion of fact `fid` (not yet scheduled): undone by [`UNDO_DELETE`].
    #[inline]
    fn schedule_delete(&mut self, store: &mut Store, fid: u32) {
        self.deletes.push(fid);
        if !self.deleted.is_empty() {
            self.deleted[fid as usize] = true;
        } else if self.deletes.len() > DELETED_SCAN {
            self.mark_deleted();
        }
        store.trail.push(TrailEntry::Host(UNDO_DELETE));
    }

    /// Makes `deleted` from `deletes` (which has outgrown [`DELETED_SCAN`]).
    #[cold]
    fn mark_deleted(&mut self) {
        self.deleted.clear();
        self.deleted.resize(self.facts.len(), false);
        for &d in &self.deletes {
            self.deleted[d as usize] = true;
        }
    }
}

/// Up to this many scheduled deletions, [`KeywordHost::is_deleted`] scans them.
const DELETED_SCAN: usize = 16;

/// [`enumerate`] of words that are tried only where their index keys agree with the pattern's
/// ([`Candidates::matches`], a necessary condition for unifying), and unified as `fact/1` unifies
/// its candidates ([`Candidates::unify`]): the same answers and retry points. (Fewer than two
/// words to try: [`enumerate`], the pattern's keys would cost more than they save.)
fn enumerate_words<'g>(
    store: &mut Store,
    h: Cell,
    start: usize,
    items: impl Iterator<Item = (usize, &'g Ground)>,
    count: usize,
) -> Det {
    if count < start + 2 {
        return enumerate(store, h, start, items, count);
    }
    let (pat, _) = Candidates::pattern(store, h);
    first_unifying(
        store,
        start,
        items,
        count,
        |g| pat.matches(g),
        |g, store| pat.unify(g, store, h),
    )
}

/// [`enumerate_words`] (and [`enumerate`], which gives the same answers) from the first word, of
/// the proper list of `elems` (each atomic or an unbound variable `Ref`) without the list on the
/// heap: a word whose keys differ from the elements' does not unify; the others are unified with
/// the elements ([`Candidates::unify_elems`]; a word that is not a short list of atomic elements
/// with the list, built on the heap once then). The same bindings and retry states.
fn words_list<'g>(
    store: &mut Store,
    elems: &[Cell],
    items: impl Iterator<Item = &'g Ground>,
    count: usize,
) -> Option<Det> {
    let (pat, _) = Candidates::of_elems(elems)?;
    let mut list = None;
    Some(first_unifying(
        store,
        0,
        items.enumerate(),
        count,
        |g| pat.matches(g),
        |g, store| match pat.unify_elems(g, store) {
            Some(b) => b,
            None => {
                let h = *list.get_or_insert_with(|| push_list(store, elems));
                g.unify(store, h)
            }
        },
    ))
}

/// Tries `items[start..]` against `h` in order; succeeds with a retry point after the first match.
fn enumerate<'g>(
    store: &mut Store,
    h: Cell,
    start: usize,
    items: impl Iterator<Item = (usize, &'g Ground)>,
    count: usize,
) -> Det {
    first_unifying(
        store,
        start,
        items,
        count,
        |_| true,
        |g, store| g.unify(store, h),
    )
}

/// The first of `items[start..]` that passes `may` and that `unify` accepts (its bindings kept;
/// a rejected item's undone), with a retry point after it when it is not the last of `count`.
#[inline(always)]
fn first_unifying<'g>(
    store: &mut Store,
    start: usize,
    items: impl Iterator<Item = (usize, &'g Ground)>,
    count: usize,
    may: impl Fn(&Ground) -> bool,
    mut unify: impl FnMut(&Ground, &mut Store) -> bool,
) -> Det {
    for (i, g) in items {
        if i < start || !may(g) {
            continue;
        }
        let t = store.trail.len();
        if unify(g, store) {
            return if i + 1 < count {
                Det::Retry(i as u64 + 1)
            } else {
                Det::True
            };
        }
        store.undo_to(t, |_| {});
    }
    Det::Fail
}

/// `fact/1`'s answer from candidate `start` on: candidates from the index, then only those whose
/// indexed elements all agree with the pattern are unified (`unify`); no choicepoint is left when
/// no later candidate agrees. `None` when `unify` gives up on a candidate (nothing is bound then).
/// Inlined into each caller natively; in the wasm the compiler decides (each caller's copy costs
/// size there, which has a budget).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn fact_answer(
    facts: &FactSet,
    cands: &Candidates<'_>,
    store: &mut Store,
    start: usize,
    mut unify: impl FnMut(&Ground, &mut Store) -> Option<bool>,
) -> Option<Det> {
    let n = cands.len();
    let agrees = |pos: usize| cands.agrees(facts, pos);
    let mut pos = start;
    loop {
        while pos < n && !agrees(pos) {
            pos += 1;
        }
        if pos >= n {
            return Some(Det::Fail);
        }
        let t = store.trail.len();
        if unify(facts.get(cands.id(pos)), store)? {
            let mut next = pos + 1;
            while next < n && !agrees(next) {
                next += 1;
            }
            return Some(if next < n {
                Det::Retry(next as u64)
            } else {
                Det::True
            });
        }
        store.undo_to(t, |_| {});
        pos += 1;
    }
}

impl KeywordHost<'_> {
    /// [`Host::call_list`] of the body keywords other than `fact/1` (out of line, so that the
    /// `fact/1` path stays as it was): `create/1`, `delete/1`, `tocreate/1`, `todelete/1`.
    #[inline(never)]
    fn schedule_list(
        &mut self,
        id: u32,
        store: &mut Store,
        elems: &[Cell],
        keys: &ListKeys,
    ) -> Option<Det> {
        if !self.placement.allows(id) {
            return None;
        }
        match id {
            CREATE => self.create_list(store, elems, keys),
            DELETE => self.delete_list(store, elems, keys),
            TOCREATE => {
                let words = self.creates.iter().map(|g| &**g);
                words_list(store, elems, words, self.creates.len())
            }
            TODELETE => {
                let facts = self.facts;
                let words = self.deletes.iter().map(|&i| &**facts.get(i));
                words_list(store, elems, words, self.deletes.len())
            }
            _ => None,
        }
    }

    /// [`Host::call_list`] of `create/1`: the word [`HeapWord::copy`] makes from the list,
    /// compared with the facts and the scheduled words by its elements and shared with the word
    /// made before ([`Scratch::shared_elems`]), without copying its cells (`None` with an unbound
    /// element: the instantiation error).
    fn create_list(&mut self, store: &mut Store, elems: &[Cell], keys: &ListKeys) -> Option<Det> {
        if elems.len() > INDEXED || !elems.iter().all(|e| e.is_atomic()) {
            return None;
        }
        // the schedules may change: tables of the old context must not be served
        self.context = fresh_context();
        let (pat, h) = Candidates::of_elems_keyed(keys, elems)?;
        // (`FactSet::contains_elems`, with the keys and hash computed once)
        let facts = self.facts;
        let cands = facts.candidates_keyed(pat, h);
        if cands.ids().iter().any(|&i| cands.is_word_of(facts.get(i)))
            || self.creates.iter().any(|c| cands.is_word_of(c))
        {
            return Some(Det::Fail);
        }
        self.creates.push(self.scratch.shared_keyed(elems, h));
        store.trail.push(TrailEntry::Host(UNDO_CREATE));
        Some(Det::True)
    }

    /// [`Host::call_list`] of `delete/1`: the candidates [`Host::call`] finds from the list, in
    /// the same order, each not yet deleted one unified with the elements (a candidate whose keys
    /// differ from the pattern's does not unify).
    fn delete_list(&mut self, store: &mut Store, elems: &[Cell], keys: &ListKeys) -> Option<Det> {
        let facts = self.facts;
        let cands = facts.candidates_of_keyed(keys, elems)?;
        self.context = fresh_context();
        let n = cands.len();
        let mut list = None;
        for pos in 0..n {
            let fid = cands.id(pos);
            if self.is_deleted(fid) || !cands.agrees(facts, pos) {
                continue;
            }
            let t = store.trail.len();
            let g = facts.get(fid);
            let ok = match cands.unify_elems(g, store) {
                Some(b) => b,
                None => {
                    let h = *list.get_or_insert_with(|| push_list(store, elems));
                    g.unify(store, h)
                }
            };
            if ok {
                self.schedule_delete(store, fid);
                return Some(if pos + 1 < n {
                    Det::Retry(pos as u64 + 1)
                } else {
                    Det::True
                });
            }
            store.undo_to(t, |_| {});
        }
        Some(Det::Fail)
    }
}

impl Host for KeywordHost<'_> {
    fn state_id(&self) -> u64 {
        self.facts.id()
    }
    /// `tocreate/1`, `todelete/1` and `does/2` read the schedules and the actions: without any,
    /// their answers follow from the state; else the id changes with every schedule change.
    fn context_id(&self) -> u64 {
        if self.creates.is_empty() && self.deletes.is_empty() && self.does.is_empty() {
            self.facts.id() << 1
        } else {
            self.context
        }
    }
    /// Per-state tables must not serve a predicate that reaches a body keyword the goal being
    /// evaluated may not call (they were filled while evaluating another keyword).
    fn forbidden(&self) -> u64 {
        self.placement.forbidden()
    }
    /// `fact/1`, `create/1`, `delete/1`, `tocreate/1` and `todelete/1` of a short list (the list
    /// is built only to unify a
    /// candidate that is not a short word of atomic elements): the answer [`Host::call`] gives,
    /// with the same schedules, trail entries and retry states. `None` (nothing done) where the
    /// call would raise an error.
    fn call_list(&mut self, id: u32, store: &mut Store, elems: &[Cell]) -> Option<Det> {
        self.call_site(id, store, elems, &ListKeys::EMPTY)
    }
    /// [`Host::call_list`] with the keys of the leading constants given (the same answer: they
    /// are the keys [`Candidates::of_elems`] would compute).
    fn call_site(
        &mut self,
        id: u32,
        store: &mut Store,
        elems: &[Cell],
        keys: &ListKeys,
    ) -> Option<Det> {
        if id != FACT {
            return self.schedule_list(id, store, elems, keys);
        }
        if !self.placement.allows(FACT) {
            return None;
        }
        let facts = self.facts;
        let cands = facts.candidates_of_keyed(keys, elems)?;
        if cands.is_empty() {
            // (most calls: `fact_answer` of no candidates, without its setup)
            return Some(Det::Fail);
        }
        // a candidate that is not a short word of atomic elements is unified with the list,
        // built (once) on the heap then
        let mut list = None;
        let r = fact_answer(facts, &cands, store, 0, |g, store| {
            Some(match cands.unify_elems(g, store) {
                Some(b) => b,
                None => {
                    let h = *list.get_or_insert_with(|| push_list(store, elems));
                    g.unify(store, h)
                }
            })
        })?;
        Some(match r {
            // the retry gets the list of the elements (as `candidates` would find them from it)
            Det::Retry(pos) => {
                let gen = self.keep_retry(cands);
                Det::Retry(retry_state(pos, gen))
            }
            other => other,
        })
    }
    /// A retry of `fact/1` whose candidates are kept, for a pattern that was a short proper list
    /// of atomic elements and variables: its candidates unified by their elements
    /// ([`Candidates::unify_elems`], which is [`Candidates::unify`] for such a pattern), without
    /// the pattern; `None` (nothing bound) at a candidate that is not a short word of atomic
    /// elements, whose unification needs the list: `call` then retries from the same state.
    fn retry_kept(&mut self, id: u32, store: &mut Store, state: u64) -> Option<Det> {
        if id != FACT || !self.placement.allows(FACT) {
            return None;
        }
        let gen = (state >> 32) as u32;
        let (g, cands) = self.retry.as_ref()?;
        if gen == 0 || *g != gen || !cands.is_short_list() {
            return None;
        }
        let start = state as u32 as usize;
        Some(
            match fact_answer(self.facts, cands, store, start, |g, store| {
                cands.unify_elems(g, store)
            })? {
                Det::Retry(pos) => Det::Retry(retry_state(pos, gen)),
                other => other,
            },
        )
    }
    fn call(
        &mut self,
        id: u32,
        store: &mut Store,
        _rng: &mut Rng,
        args: &[Cell],
        redo: Option<u64>,
    ) -> Result<Det, Term> {
        if !self.placement.allows(id) {
            return Err(self.placement.error(id));
        }
        let start = redo.unwrap_or(0) as usize;
        if id == CREATE || id == DELETE {
            // the schedules may change: tables of the old context must not be served
            self.context = fresh_context();
        }
        Ok(match id {
            PLAYER => enumerate(
                store,
                args[0],
                start,
                self.players.iter().map(|g| &**g).enumerate(),
                self.players.len(),
            ),
            FACT => {
                let facts = self.facts;
                let redo = redo.unwrap_or(0);
                let gen = (redo >> 32) as u32;
                let pat = args[0];
                let start = redo as u32 as usize;
                if gen != 0 {
                    if let Some((g, cands)) = &self.retry {
                        if *g == gen {
                            // a retry of the call whose candidates are kept (used in place)
                            return Ok(
                                match fact_answer(facts, cands, store, start, |g, store| {
                                    Some(cands.unify(g, store, pat))
                                }) {
                                    Some(Det::Retry(pos)) => Det::Retry(retry_state(pos, gen)),
                                    Some(other) => other,
                                    None => Det::Fail,
                                },
                            );
                        }
                    }
                }
                let cands = facts.candidates(store, pat);
                match fact_answer(facts, &cands, store, start, |g, store| {
                    Some(cands.unify(g, store, pat))
                }) {
                    Some(Det::Retry(pos)) => {
                        let gen = self.keep_retry(cands);
                        Det::Retry(retry_state(pos, gen))
                    }
                    Some(other) => other,
                    None => Det::Fail,
                }
            }
            TOCREATE => enumerate_words(
                store,
                args[0],
                start,
                self.creates.iter().map(|g| &**g).enumerate(),
                self.creates.len(),
            ),
            TODELETE => {
                let n = self.deletes.len();
                let facts = self.facts;
                enumerate_words(
                    store,
                    args[0],
                    start,
                    self.deletes.iter().map(|&i| &**facts.get(i)).enumerate(),
                    n,
                )
            }
            DOES => {
                let n = self.does.len();
                for (i, (s, a)) in self.does.iter().enumerate().skip(start) {
                    let t = store.trail.len();
                    if s.unify(store, args[0]) && a.unify(store, args[1]) {
                        return Ok(if i + 1 < n {
                            Det::Retry(i as u64 + 1)
                        } else {
                            Det::True
                        });
                    }
                    store.undo_to(t, |_| {});
                }
                Det::Fail
            }
            CREATE => {
                // copied from the heap with its structural hash and compared (keys and hash first)
                // with the facts and the scheduled words before a term is built for it; a large or
                // cyclic word goes through a term
                let g = match HeapWord::copy(store, args[0], &mut self.scratch) {
                    Ok(w) => {
                        if self.facts.contains_word(&w)
                            || self
                                .creates
                                .iter()
                                .any(|c| c.may_match(&w.keys) && c.is_word(&w))
                        {
                            return Ok(Det::Fail);
                        }
                        w.into_shared()
                    }
                    Err(true) => return Err(Term::instantiation_error()),
                    Err(false) => {
                        if !store.is_ground(args[0]) {
                            return Err(Term::instantiation_error());
                        }
                        let w = store.to_term(args[0]);
                        if self.facts.contains(&w) || self.creates.iter().any(|c| *c.term() == w) {
                            return Ok(Det::Fail);
                        }
                        Arc::new(Ground::new(w))
                    }
                };
                self.creates.push(g);
                store.trail.push(TrailEntry::Host(UNDO_CREATE));
                Det::True
            }
            DELETE => {
                let cands = self.facts.candidates(store, args[0]);
                let n = cands.len();
                for pos in start..n {
                    let fid = cands.id(pos);
                    if self.is_deleted(fid) {
                        continue;
                    }
                    let t = store.trail.len();
                    if self.facts.get(fid).unify(store, args[0]) {
                        self.schedule_delete(store, fid);
                        return Ok(if pos + 1 < n {
                            Det::Retry(pos as u64 + 1)
                        } else {
                            Det::True
                        });
                    }
                    store.undo_to(t, |_| {});
                }
                Det::Fail
            }
            _ => Det::Fail,
        })
    }

    fn undo(&mut self, entry: u32) {
        self.context = fresh_context();
        match entry {
            UNDO_CREATE => {
                self.creates.pop();
            }
            UNDO_DELETE => {
                if let Some(fid) = self.deletes.pop() {
                    if !self.deleted.is_empty() {
                        self.deleted[fid as usize] = false;
                    }
                }
            }
            _ => {}
        }
    }
}
