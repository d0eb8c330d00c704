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
}

impl Ground {
    pub fn new(term: Term) -> Ground {
        let mut cells = Vec::new();
        let mut ends = Vec::new();
        let root = compile_term(&term, &mut cells, &mut ends);
        Ground {
            term,
            cells: cells.into(),
            ends: ends.into(),
            root,
        }
    }

    /// Unifies with heap cell `h` (bindings trailed; undone by the caller on failure).
    #[inline]
    pub fn unify(&self, store: &mut Store, h: Cell) -> bool {
        store.unify_ground(&self.cells, &self.ends, self.root, h)
    }

    /// The index keys of a word `[E1, E2, ...]`: the first element, and the first two.
    fn keys(&self) -> (Option<Key>, Option<(Key, Key)>) {
        let Cell::List(p) = self.root else {
            return (None, None);
        };
        let at = |q: u32| self.cells[q as usize];
        let k1 = Key::of_cell(at(p), at);
        let k2 = match (k1, at(p + 1)) {
            (Some(k1), Cell::List(q)) => Key::of_cell(at(q), at).map(|k2| (k1, k2)),
            _ => None,
        };
        (k1, k2)
    }
}

/// The facts of a state: insertion-ordered, duplicate-free, indexed on the first one and two elements.
#[derive(Debug, Default, Clone)]
pub struct FactSet {
    facts: Vec<Arc<Ground>>,
    ids: FxHashMap<Term, u32>,
    all: Arc<[u32]>,
    idx1: FxHashMap<Key, Arc<[u32]>>,
    idx2: FxHashMap<(Key, Key), Arc<[u32]>>,
}

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
        let mut ids = FxHashMap::default();
        let mut i1: FxHashMap<Key, Vec<u32>> = FxHashMap::default();
        let mut i2: FxHashMap<(Key, Key), Vec<u32>> = FxHashMap::default();
        for (i, f) in facts.iter().enumerate() {
            let i = i as u32;
            ids.insert(f.term.clone(), i);
            let (k1, k2) = f.keys();
            if let Some(k1) = k1 {
                i1.entry(k1).or_default().push(i);
            }
            if let Some(k2) = k2 {
                i2.entry(k2).or_default().push(i);
            }
        }
        FactSet {
            all: (0..facts.len() as u32).collect(),
            facts,
            ids,
            idx1: i1.into_iter().map(|(k, v)| (k, v.into())).collect(),
            idx2: i2.into_iter().map(|(k, v)| (k, v.into())).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.facts.len()
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

    /// The facts that can match the heap pattern `pat`, in insertion order.
    pub fn candidates(&self, store: &Store, pat: Cell) -> Candidates {
        let empty = || Candidates(Arc::from(Vec::new()));
        match store.deref(pat) {
            Cell::Ref(_) => Candidates(self.all.clone()),
            Cell::List(p) => {
                let at = |q: u32| store.heap[q as usize];
                let e1 = store.deref(at(p));
                let Some(k1) = Key::of_cell(e1, at) else {
                    return Candidates(self.all.clone());
                };
                if let Cell::List(q) = store.deref(at(p + 1)) {
                    if let Some(k2) = Key::of_cell(store.deref(at(q)), at) {
                        return self
                            .idx2
                            .get(&(k1, k2))
                            .map_or_else(empty, |v| Candidates(v.clone()));
                    }
                }
                self.idx1
                    .get(&k1)
                    .map_or_else(empty, |v| Candidates(v.clone()))
            }
            // a non-list pattern can only match a non-list fact
            _ => Candidates(self.all.clone()),
        }
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
