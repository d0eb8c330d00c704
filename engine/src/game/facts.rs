//! Ground terms stored outside the heap (facts, players, scheduled creations, actions), and the
//! indexed, insertion-ordered fact set of a game state.

use crate::atom;
use crate::solve::program::{compile_term, Key};
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A ground term compiled for fast unification against heap patterns.
#[derive(Debug)]
pub struct Ground {
    pub term: Term,
    cells: Box<[Cell]>,
    ends: Box<[u32]>,
    root: Cell,
    /// The index keys of its first [`INDEXED`] word elements.
    keys: [Option<Key>; INDEXED],
}

impl Ground {
    pub fn new(term: Term) -> Ground {
        // words are small: one allocation each for most of them
        let mut cells = Vec::with_capacity(24);
        let mut ends = Vec::with_capacity(24);
        let root = compile_term(&term, &mut cells, &mut ends);
        let mut g = Ground {
            term,
            cells: cells.into(),
            ends: ends.into(),
            root,
            keys: [None; INDEXED],
        };
        g.keys = g.keys();
        g
    }

    /// A quick necessary condition for unifying with a pattern whose leading elements have the keys
    /// `pattern` ([`FactSet::pattern_keys`]): the keys agree wherever the pattern has one.
    #[inline]
    pub fn may_match(&self, pattern: &[Option<Key>; INDEXED]) -> bool {
        pattern
            .iter()
            .zip(&self.keys)
            .all(|(p, k)| p.is_none() || p == k)
    }

    /// Unifies with heap cell `h` (bindings trailed; undone by the caller on failure).
    #[inline]
    pub fn unify(&self, store: &mut Store, h: Cell) -> bool {
        store.unify_ground(&self.cells, &self.ends, self.root, h)
    }

    /// The index keys of a word `[E1, E2, ...]`: the key of each of its first [`INDEXED`] elements.
    fn keys(&self) -> [Option<Key>; INDEXED] {
        let mut out = [None; INDEXED];
        let at = |q: u32| self.cells[q as usize];
        let mut t = self.root;
        for slot in out.iter_mut() {
            let Cell::List(p) = t else { break };
            *slot = Key::of_cell(at(p), at);
            t = at(p + 1);
        }
        out
    }
}

/// How many leading elements of a word are indexed.
pub const INDEXED: usize = 4;

/// A fact in the set's lookup table: hashed and compared by its term, without copying the term.
#[derive(Debug, Clone)]
struct ByTerm(Arc<Ground>);

impl PartialEq for ByTerm {
    fn eq(&self, other: &ByTerm) -> bool {
        self.0.term == other.0.term
    }
}
impl Eq for ByTerm {}
impl std::hash::Hash for ByTerm {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.term.hash(h)
    }
}
impl std::borrow::Borrow<Term> for ByTerm {
    fn borrow(&self) -> &Term {
        &self.0.term
    }
}

/// The facts of a state: insertion-ordered, duplicate-free, indexed on the first one and two elements.
#[derive(Debug, Default, Clone)]
pub struct FactSet {
    facts: Vec<Arc<Ground>>,
    ids: FxHashMap<ByTerm, u32>,
    all: Arc<[u32]>,
    /// `by_pos[i]`: facts whose element `i` has a given key (JIT-style multi-argument indexing: a
    /// pattern uses the most selective of its bound leading elements).
    by_pos: [FxHashMap<Key, Arc<[u32]>>; INDEXED],
    /// The empty candidate list (shared, so that a pattern matching nothing allocates nothing).
    none: Arc<[u32]>,
    /// Unique among the fact sets built by [`FactSet::from_grounds`] (copies share it: same facts);
    /// `0` for the default (empty) set. Keys the machine's per-state tables.
    id: u64,
}

/// The next [`FactSet::id`].
static NEXT_FACTSET_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Which candidate list a pattern selects (recomputed identically on every retry).
#[derive(Clone)]
pub struct Candidates(Arc<[u32]>);

impl Candidates {
    pub fn ids(&self) -> &[u32] {
        &self.0
    }
}

impl FactSet {
    pub fn from_grounds(facts: Vec<Arc<Ground>>) -> FactSet {
        let mut ids = FxHashMap::with_capacity_and_hasher(facts.len(), Default::default());
        let mut by_pos: [FxHashMap<Key, Vec<u32>>; INDEXED] = Default::default();
        for (i, f) in facts.iter().enumerate() {
            let i = i as u32;
            ids.insert(ByTerm(f.clone()), i);
            for (pos, k) in f.keys().into_iter().enumerate() {
                if let Some(k) = k {
                    by_pos[pos].entry(k).or_default().push(i);
                }
            }
        }
        FactSet {
            all: (0..facts.len() as u32).collect(),
            facts,
            ids,
            by_pos: by_pos.map(|m| m.into_iter().map(|(k, v)| (k, Arc::from(v))).collect()),
            none: Arc::from(Vec::new()),
            id: NEXT_FACTSET_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    pub fn len(&self) -> usize {
        self.facts.len()
    }
    /// See the `id` field: equal non-zero ids mean equal facts.
    pub fn id(&self) -> u64 {
        self.id
    }
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }
    pub fn get(&self, i: u32) -> &Arc<Ground> {
        &self.facts[i as usize]
    }
    pub fn iter(&self) -> impl Iterator<Item = &Arc<Ground>> {
        self.facts.iter()
    }
    pub fn terms(&self) -> impl Iterator<Item = &Term> {
        self.facts.iter().map(|g| &g.term)
    }
    pub fn contains(&self, t: &Term) -> bool {
        self.ids.contains_key(t)
    }
    pub fn id_of(&self, t: &Term) -> Option<u32> {
        self.ids.get(t).copied()
    }

    /// The facts that can match the heap pattern `pat`, in insertion order: the shortest candidate
    /// list among the pattern's bound leading elements.
    pub fn candidates(&self, store: &Store, pat: Cell) -> Candidates {
        self.candidates_by_keys(&FactSet::pattern_keys(store, pat))
    }

    /// The index keys of the leading elements of the heap pattern `pat` (`None`: no key there).
    pub fn pattern_keys(store: &Store, pat: Cell) -> [Option<Key>; INDEXED] {
        let at = |q: u32| store.heap[q as usize];
        let mut out = [None; INDEXED];
        let mut t = store.deref(pat);
        for slot in out.iter_mut() {
            let Cell::List(p) = t else { break };
            *slot = Key::of_cell(store.deref(at(p)), at);
            t = store.deref(at(p + 1));
        }
        out
    }

    /// [`FactSet::candidates`] of a pattern with the keys `keys` ([`FactSet::pattern_keys`]).
    pub fn candidates_by_keys(&self, keys: &[Option<Key>; INDEXED]) -> Candidates {
        let mut best: Option<&Arc<[u32]>> = None;
        for (pos, k) in keys.iter().enumerate() {
            if let Some(k) = k {
                match self.by_pos[pos].get(k) {
                    None => return Candidates(self.none.clone()),
                    Some(v) => {
                        if best.is_none_or(|b| v.len() < b.len()) {
                            best = Some(v);
                        }
                    }
                }
            }
        }
        Candidates(best.cloned().unwrap_or_else(|| self.all.clone()))
    }

    /// The next state's facts: `deleted` removed, then `created` appended in order.
    pub fn apply(&self, deleted: &[u32], created: &[Arc<Ground>]) -> FactSet {
        let mut gone = vec![false; self.facts.len()];
        for &d in deleted {
            gone[d as usize] = true;
        }
        let mut next: Vec<Arc<Ground>> = self
            .facts
            .iter()
            .zip(&gone)
            .filter(|(_, &g)| !g)
            .map(|(f, _)| f.clone())
            .collect();
        next.extend(created.iter().cloned());
        FactSet::from_grounds(next)
    }
}

/// `[]`-terminated list check for words.
pub fn is_word(t: &Term) -> bool {
    t.as_list().is_some() || matches!(t, Term::Atom(a) if *a == atom::NIL)
}
