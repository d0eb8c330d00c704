//! Ground terms stored outside the heap (facts, players, scheduled creations, actions), and the
//! indexed, insertion-ordered fact set of a game state.

use crate::atom;
// the keys' tags, words and composite hash are `solve::host`'s (load time computes them for the
// constants of a call site's list: `ListKeys`)
use crate::solve::host::{atomic_part, mix, parts_word, ListKeys};
use crate::solve::program::{compile_term, Key};
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use rustc_hash::FxHasher;
use std::hash::Hasher;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, OnceLock};

/// A ground term compiled for fast unification against heap patterns.
#[derive(Debug)]
pub struct Ground {
    /// The term, built from `cells` at its first use ([`Ground::term`]): most words made by a
    /// chronon are compared, indexed and unified by their cells only, and dropped unread.
    term: OnceLock<Term>,
    cells: Box<[Cell]>,
    ends: Box<[u32]>,
    root: Cell,
    /// The index keys of its first [`INDEXED`] word elements.
    keys: [Option<Key>; INDEXED],
    /// [`key_word`] of each of `keys` (0 where there is none) and the mask of the present ones.
    kw: [u64; INDEXED],
    kmask: u8,
    /// `keys` in exact word form ([`Parts`]).
    parts: Parts,
    /// The number of elements if the term is a proper list of at most [`INDEXED`] atomic elements
    /// (which are then `elems`), else [`NOT_FLAT`].
    flat: u8,
    elems: [Cell; INDEXED],
    /// Structural hash ([`Ground::hash_value`]): equal terms have equal hashes, whether compiled from
    /// a [`Term`] or copied from the heap.
    hash: u64,
}

/// How many cells [`compile_term`] makes for `t` (so that the cells are allocated once, exactly).
fn cell_count(t: &Term) -> usize {
    let mut n = 0;
    t.walk(|t| {
        if let Term::Compound(f, args) = t {
            n += args.len() + usize::from(!(*f == atom::DOT && args.len() == 2));
        }
    });
    n
}

/// Feeds one node of a term (an atomic value, or a compound's header) to a structural hash.
#[inline]
fn feed(h: &mut FxHasher, c: Cell) {
    match c {
        Cell::Atom(a) => {
            h.write_u8(1);
            h.write_u32(a.0);
        }
        Cell::Int(i) => {
            h.write_u8(2);
            h.write_i64(i);
        }
        Cell::Float(f) => {
            h.write_u8(3);
            h.write_u64(f.to_bits());
        }
        Cell::Str(s) => {
            h.write_u8(4);
            h.write_u32(s.0);
        }
        Cell::Functor(f, n) => {
            h.write_u8(5);
            h.write_u32(f.0);
            h.write_u32(n);
        }
        Cell::List(_) => h.write_u8(6),
        Cell::Var(v) | Cell::Ref(v) => {
            h.write_u8(7);
            h.write_u32(v);
        }
        Cell::Struct(_) => h.write_u8(8),
    }
}

/// The structural hash of the term at `root`, whose cells `at` returns (dereferenced): the nodes in
/// pre-order, so the same term hashes alike wherever its cells lie.
fn structural_hash(root: Cell, at: impl Fn(u32) -> Cell, deref: impl Fn(Cell) -> Cell) -> u64 {
    let mut h = FxHasher::default();
    let mut stack: Vec<Cell> = Vec::new();
    let mut c = deref(root);
    loop {
        match c {
            Cell::List(p) => {
                feed(&mut h, c);
                stack.push(at(p + 1));
                c = deref(at(p));
                continue;
            }
            Cell::Struct(p) => {
                let f = at(p);
                feed(&mut h, f);
                let Cell::Functor(_, n) = f else { break };
                for i in (2..=n).rev() {
                    stack.push(at(p + i));
                }
                c = deref(at(p + 1));
                continue;
            }
            Cell::Ref(_) => feed(&mut h, Cell::Ref(0)),
            other => feed(&mut h, other),
        }
        match stack.pop() {
            Some(next) => c = deref(next),
            None => break,
        }
    }
    h.finish()
}

impl Ground {
    pub fn new(term: Term) -> Ground {
        let n = cell_count(&term);
        let mut cells = Vec::with_capacity(n);
        let mut ends = Vec::with_capacity(n);
        let root = compile_term(&term, &mut cells, &mut ends);
        Ground::assemble(term, cells, ends, root)
    }

    /// The term (built from the cells at the first call, then kept).
    #[inline]
    pub fn term(&self) -> &Term {
        self.term
            .get_or_init(|| cells_to_term(self.root, &self.cells))
    }

    /// Is it the same word as `other` (equal terms: the same cells, floats by bit pattern, as
    /// [`Term`]'s equality compares them), compared without building their terms?
    pub fn same(&self, other: &Ground) -> bool {
        self.hash == other.hash
            && self.root == other.root
            && self.cells.len() == other.cells.len()
            && self
                .cells
                .iter()
                .zip(other.cells.iter())
                .all(|(&a, &b)| same_cell(a, b))
    }

    fn assemble(term: Term, cells: Vec<Cell>, ends: Vec<u32>, root: Cell) -> Ground {
        let mut g = Ground {
            term: OnceLock::from(term),
            cells: cells.into(),
            ends: ends.into(),
            root,
            keys: [None; INDEXED],
            kw: [0; INDEXED],
            kmask: 0,
            parts: Parts::default(),
            flat: NOT_FLAT,
            elems: [Cell::Atom(atom::NIL); INDEXED],
            hash: 0,
        };
        g.keys = g.keys();
        (g.kw, g.kmask) = key_words(&g.keys);
        g.parts = Parts::of_keys(&g.keys);
        (g.flat, g.elems) = flat_elements(&g.cells, g.root);
        g.hash = structural_hash(root, |q| g.cells[q as usize], |c| c);
        g
    }

    /// Is it the word `w` (same cells: [`HeapWord`] has the layout of [`compile_term`])?
    pub fn is_word(&self, w: &HeapWord) -> bool {
        self.hash == w.hash
            && self.root == w.root
            && self.cells.len() == w.scratch.cells.len()
            && self
                .cells
                .iter()
                .zip(&w.scratch.cells)
                .all(|(&a, &b)| same_cell(a, b))
    }

    /// Is it the proper list of `elems` (atomic cells; floats compared by bit pattern, as
    /// [`Ground::is_word`] compares cells)?
    #[inline]
    pub fn is_elems(&self, elems: &[Cell]) -> bool {
        usize::from(self.flat) == elems.len()
            && self
                .elems
                .iter()
                .zip(elems)
                .all(|(&a, &b)| same_atomic(a, b))
    }

    /// The elements of a short word of atomic elements (a proper list of at most [`INDEXED`]
    /// atomic elements), else `None`.
    #[inline]
    pub fn flat_elems(&self) -> Option<&[Cell]> {
        (self.flat != NOT_FLAT).then(|| &self.elems[..usize::from(self.flat)])
    }

    /// See the `hash` field.
    #[inline]
    pub fn hash_value(&self) -> u64 {
        self.hash
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

/// Are the cells `a` and `b` of two compiled words the same (floats by bit pattern)?
#[inline(always)]
fn same_cell(a: Cell, b: Cell) -> bool {
    match (a, b) {
        (Cell::Float(x), Cell::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// Are the atomic cells `a` and `b` the same value (floats by bit pattern)?
#[inline(always)]
fn same_atomic(a: Cell, b: Cell) -> bool {
    match (a, b) {
        (Cell::Float(x), Cell::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// The structural hash of the proper list of `elems` (atomic cells), as [`HeapWord::of_elems`]
/// computes it.
#[inline]
fn elems_hash(elems: &[Cell]) -> u64 {
    let mut hasher = FxHasher::default();
    for &e in elems {
        feed(&mut hasher, Cell::List(0));
        feed(&mut hasher, e);
    }
    feed(&mut hasher, Cell::Atom(atom::NIL));
    hasher.finish()
}

/// The term of the compiled word `root` over `cells` (the inverse of [`compile_term`]).
fn cells_to_term(root: Cell, cells: &[Cell]) -> Term {
    let mut tjobs: Vec<TJob> = Vec::with_capacity(16);
    let mut terms: Vec<Term> = Vec::with_capacity(16);
    tjobs.push(TJob::Visit(root));
    while let Some(job) = tjobs.pop() {
        match job {
            TJob::Visit(c) => match c {
                Cell::List(p) => {
                    tjobs.push(TJob::Build(atom::DOT, 2));
                    tjobs.push(TJob::Visit(cells[p as usize + 1]));
                    tjobs.push(TJob::Visit(cells[p as usize]));
                }
                Cell::Struct(p) => {
                    let Cell::Functor(f, n) = cells[p as usize] else {
                        unreachable!("struct without header")
                    };
                    tjobs.push(TJob::Build(f, n as usize));
                    for i in (1..=n).rev() {
                        tjobs.push(TJob::Visit(cells[(p + i) as usize]));
                    }
                }
                Cell::Atom(a) => terms.push(Term::Atom(a)),
                Cell::Int(i) => terms.push(Term::Int(i)),
                Cell::Float(f) => terms.push(Term::Float(f)),
                Cell::Str(s) => terms.push(Term::Str(s)),
                Cell::Var(v) | Cell::Ref(v) => terms.push(Term::Var(v)),
                Cell::Functor(..) => unreachable!("header as value"),
            },
            TJob::Build(f, n) => {
                let args: Arc<[Term]> = terms.drain(terms.len() - n..).collect();
                terms.push(Term::Compound(f, args));
            }
        }
    }
    terms.pop().expect("a term")
}

/// [`HeapWord::copy`] copies at most this many nodes (a larger or cyclic term is converted by
/// [`Store::to_term`], which handles cycles).
pub const HEAP_COPY_MAX: usize = 1 << 16;

enum Job {
    /// Copy the heap cell into slot `.1` of the copy (`u32::MAX`: the root).
    Cell(Cell, u32),
    End(u32),
}

enum TJob {
    Visit(Cell),
    Build(atom::Atom, usize),
}

/// Reusable buffers of [`HeapWord`] (one per host, so that copying a word allocates only
/// the word itself), and the words made before ([`HeapWord::into_shared`]).
#[derive(Default)]
pub struct Scratch {
    cells: Vec<Cell>,
    ends: Vec<u32>,
    jobs: Vec<Job>,
    /// Words made by [`HeapWord::into_shared`], by structural hash (one per hash), emptied when it
    /// outgrows [`MADE_MAX`]. A `Ground` is immutable and equal cells are the same term, so a word
    /// made again is the same `Arc` instead of a new `Ground` and `Term`.
    made: rustc_hash::FxHashMap<u64, Arc<Ground>>,
    /// The words of recent [`Scratch::shared_keyed`] calls, direct mapped by the composite key
    /// hash of their elements ([`RECENT_WORDS`] slots, made at the first one): a word created
    /// again (a chronon's `create([height, C, H])`) is found without its structural hash and a
    /// lookup in `made`.
    recent: Vec<Option<Arc<Ground>>>,
}

impl Scratch {
    /// [`HeapWord::of_elems`] of `elems` (1 to [`INDEXED`] atomic cells) as a shared word
    /// ([`HeapWord::into_shared`]): the word made before, found by its hash and elements without
    /// copying its cells, or else made so.
    pub fn shared_elems(&mut self, elems: &[Cell]) -> Arc<Ground> {
        if let Some(g) = self.made.get(&elems_hash(elems)) {
            if g.is_elems(elems) {
                return g.clone();
            }
        }
        HeapWord::of_elems(elems, self).into_shared()
    }

    /// [`Scratch::shared_elems`] of `elems` (1 to [`INDEXED`] atomic cells) whose composite key
    /// hash is `h` ([`Candidates::of_elems`]): the same word (an equal one, shared).
    #[inline]
    pub fn shared_keyed(&mut self, elems: &[Cell], h: u64) -> Arc<Ground> {
        let slot = (h >> 32) as usize & (RECENT_WORDS - 1);
        if let Some(Some(g)) = self.recent.get(slot) {
            if g.is_elems(elems) {
                return g.clone();
            }
        }
        self.shared_miss(elems, slot)
    }

    /// [`Scratch::shared_keyed`] of a word not in its slot: [`Scratch::shared_elems`], entered
    /// in the slot.
    #[cold]
    fn shared_miss(&mut self, elems: &[Cell], slot: usize) -> Arc<Ground> {
        let g = self.shared_elems(elems);
        if self.recent.is_empty() {
            self.recent = vec![None; RECENT_WORDS];
        }
        self.recent[slot] = Some(g.clone());
        g
    }
}

/// The slots of [`Scratch::recent`] (a power of two).
const RECENT_WORDS: usize = 256;

/// How many words [`Scratch::made`] keeps.
const MADE_MAX: usize = 4096;

/// A ground heap term copied into a [`Scratch`] (cells in the layout of [`compile_term`], so that
/// equal terms have equal cells), with its structural hash and index keys: compared with facts
/// and scheduled words before any [`Term`] is built for it.
pub struct HeapWord<'s> {
    scratch: &'s mut Scratch,
    root: Cell,
    hash: u64,
    pub keys: [Option<Key>; INDEXED],
}

impl<'s> HeapWord<'s> {
    /// Copies the heap term at `h`: `Err(true)` if it has an unbound variable, `Err(false)` if it
    /// has more than [`HEAP_COPY_MAX`] nodes (possibly cyclic: the caller falls back to
    /// [`Store::to_term`], which handles cycles).
    pub fn copy(store: &Store, h: Cell, scratch: &'s mut Scratch) -> Result<HeapWord<'s>, bool> {
        // the layout of `compile_term`: a compound's header and argument slots, then its arguments'
        // compounds depth-first, first argument first; `ends[p]`: the end of the compound at `p`.
        // The visits are in pre-order, as `structural_hash` feeds them.
        let Scratch {
            cells, ends, jobs, ..
        } = &mut *scratch;
        let (root, hash) = match copy_flat(store, h, cells, ends) {
            Some(flat) => flat,
            None => match copy_nested(store, h, cells, ends) {
                Ok(copied) => copied,
                Err(true) => return Err(true),
                // deeper than `NESTED_DEPTH` (or larger than `HEAP_COPY_MAX`)
                Err(false) => Self::copy_any(store, h, cells, ends, jobs)?,
            },
        };
        let mut keys = [None; INDEXED];
        let at = |q: u32| cells[q as usize];
        let mut t = root;
        for slot in keys.iter_mut() {
            let Cell::List(p) = t else { break };
            *slot = Key::of_cell(at(p), at);
            t = at(p + 1);
        }
        Ok(HeapWord {
            root,
            hash,
            keys,
            scratch,
        })
    }

    /// [`HeapWord::copy`] of the proper list of `elems` (one to [`FLAT_MAX`] atomic cells), without
    /// the list on the heap: the cells, ends, structural hash and keys [`copy_flat`] gives it.
    pub fn of_elems(elems: &[Cell], scratch: &'s mut Scratch) -> HeapWord<'s> {
        debug_assert!(!elems.is_empty() && elems.len() <= FLAT_MAX);
        debug_assert!(elems.iter().all(|e| e.is_atomic()));
        let Scratch { cells, ends, .. } = &mut *scratch;
        cells.clear();
        let mut hasher = FxHasher::default();
        let mut keys = [None; INDEXED];
        for (i, &e) in elems.iter().enumerate() {
            feed(&mut hasher, Cell::List(0));
            feed(&mut hasher, e);
            let p = cells.len() as u32;
            cells.push(e);
            cells.push(Cell::List(p + 2));
            if let Some(k) = keys.get_mut(i) {
                *k = Key::of_cell(e, |_| Cell::Atom(atom::NIL));
            }
        }
        let nil = Cell::Atom(atom::NIL);
        feed(&mut hasher, nil);
        let len = cells.len();
        cells[len - 1] = nil;
        ends.clear();
        ends.resize(len, 0);
        for p in (0..len).step_by(2) {
            ends[p] = len as u32;
        }
        HeapWord {
            root: Cell::List(0),
            hash: hasher.finish(),
            keys,
            scratch,
        }
    }

    /// [`HeapWord::copy`]'s cells and ends of any term (into `cells` and `ends`): its root cell
    /// and structural hash.
    fn copy_any(
        store: &Store,
        h: Cell,
        cells: &mut Vec<Cell>,
        ends: &mut Vec<u32>,
        jobs: &mut Vec<Job>,
    ) -> Result<(Cell, u64), bool> {
        let at = |q: u32| store.deref(store.heap[q as usize]);
        cells.clear();
        ends.clear();
        jobs.clear();
        let mut hasher = FxHasher::default();
        let mut root = Cell::Atom(atom::NIL);
        let mut steps = 0usize;
        jobs.push(Job::Cell(store.deref(h), u32::MAX));
        while let Some(job) = jobs.pop() {
            match job {
                Job::End(p) => ends[p as usize] = cells.len() as u32,
                Job::Cell(c, slot) => {
                    steps += 1;
                    if steps > HEAP_COPY_MAX {
                        return Err(false);
                    }
                    let cell = match c {
                        Cell::List(q) => {
                            feed(&mut hasher, c);
                            let p = cells.len() as u32;
                            cells.extend([Cell::Atom(atom::NIL); 2]);
                            jobs.push(Job::End(p));
                            jobs.push(Job::Cell(at(q + 1), p + 1));
                            jobs.push(Job::Cell(at(q), p));
                            Cell::List(p)
                        }
                        Cell::Struct(q) => {
                            let f = store.heap[q as usize];
                            feed(&mut hasher, f);
                            let Cell::Functor(_, k) = f else {
                                unreachable!("struct without header")
                            };
                            let p = cells.len() as u32;
                            cells.push(f);
                            cells.extend(std::iter::repeat_n(Cell::Atom(atom::NIL), k as usize));
                            jobs.push(Job::End(p));
                            for i in (1..=k).rev() {
                                jobs.push(Job::Cell(at(q + i), p + i));
                            }
                            Cell::Struct(p)
                        }
                        Cell::Ref(_) => return Err(true),
                        other => {
                            feed(&mut hasher, other);
                            other
                        }
                    };
                    if ends.len() < cells.len() {
                        ends.resize(cells.len(), 0);
                    }
                    match slot {
                        u32::MAX => root = cell,
                        s => cells[s as usize] = cell,
                    }
                }
            }
        }
        ends.resize(cells.len(), 0);
        Ok((root, hasher.finish()))
    }

    /// The word as a shared [`Ground`]: the one made before for the same word (same cells), else
    /// a new one ([`HeapWord::into_ground`]), kept for the next time.
    pub fn into_shared(self) -> Arc<Ground> {
        if let Some(g) = self.scratch.made.get(&self.hash) {
            if g.is_word(&self) {
                return g.clone();
            }
        }
        let HeapWord {
            scratch,
            root,
            hash,
            keys,
        } = self;
        let g = Arc::new(ground_of(scratch, root, hash, keys));
        if scratch.made.len() >= MADE_MAX {
            scratch.made.clear();
        }
        // one word per hash: a word whose hash another one holds is not kept
        scratch.made.entry(hash).or_insert_with(|| g.clone());
        g
    }

    /// The word as a [`Ground`] (its term built from the cells).
    #[cfg(test)]
    pub fn into_ground(self) -> Ground {
        let HeapWord {
            scratch,
            root,
            hash,
            keys,
        } = self;
        ground_of(scratch, root, hash, keys)
    }
}

/// [`HeapWord::copy`] of the most common word, a proper list of at most [`FLAT_MAX`] atomic
/// elements, without the job stack: the same cells (`[E1, List(2), E2, List(4), ..., En, []]`,
/// root `List(0)`), ends (the end of every list cell is the last cell) and hash (the nodes in
/// pre-order). `None` for any other term (then [`HeapWord::copy_any`] copies it, or finds the
/// unbound variable).
fn copy_flat(
    store: &Store,
    h: Cell,
    cells: &mut Vec<Cell>,
    ends: &mut Vec<u32>,
) -> Option<(Cell, u64)> {
    cells.clear();
    let mut hasher = FxHasher::default();
    let mut t = store.deref(h);
    while let Cell::List(q) = t {
        if cells.len() == 2 * FLAT_MAX {
            return None;
        }
        let e = store.deref(store.heap[q as usize]);
        if !matches!(
            e,
            Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Str(_)
        ) {
            return None;
        }
        feed(&mut hasher, t);
        feed(&mut hasher, e);
        let p = cells.len() as u32;
        cells.push(e);
        cells.push(Cell::List(p + 2));
        t = store.deref(store.heap[q as usize + 1]);
    }
    let len = cells.len();
    if t != Cell::Atom(atom::NIL) || len == 0 {
        return None;
    }
    feed(&mut hasher, t);
    cells[len - 1] = t;
    ends.clear();
    ends.resize(len, 0);
    for p in (0..len).step_by(2) {
        ends[p] = len as u32;
    }
    Some((Cell::List(0), hasher.finish()))
}

/// The longest word [`copy_flat`] copies.
const FLAT_MAX: usize = 16;

/// The deepest nesting of compounds [`copy_nested`] copies (a list's cells are one level: its
/// tail is copied in a loop).
const NESTED_DEPTH: u32 = 32;

/// [`HeapWord::copy_any`] by recursion (on the Rust stack, at most [`NESTED_DEPTH`] deep) instead
/// of a job stack: the same cells, ends and hash. `Err(true)`: an unbound variable; `Err(false)`:
/// too deep or too large (then `copy_any` copies it, or refuses it).
fn copy_nested(
    store: &Store,
    h: Cell,
    cells: &mut Vec<Cell>,
    ends: &mut Vec<u32>,
) -> Result<(Cell, u64), bool> {
    cells.clear();
    ends.clear();
    let mut c = Nested {
        store,
        cells,
        ends,
        hasher: FxHasher::default(),
        steps: 0,
    };
    let root = c.node(store.deref(h), 0)?;
    Ok((root, c.hasher.finish()))
}

/// The state of [`copy_nested`]: `ends` is kept as long as `cells`.
struct Nested<'a> {
    store: &'a Store,
    cells: &'a mut Vec<Cell>,
    ends: &'a mut Vec<u32>,
    hasher: FxHasher,
    steps: usize,
}

impl Nested<'_> {
    /// Copies the node `c` (dereferenced) and its subterms: the cell that stands for it.
    fn node(&mut self, c: Cell, depth: u32) -> Result<Cell, bool> {
        self.steps += 1;
        if self.steps > HEAP_COPY_MAX || depth >= NESTED_DEPTH {
            return Err(false);
        }
        match c {
            Cell::List(_) => self.list(c, depth),
            Cell::Struct(q) => {
                let store = self.store;
                let f = store.heap[q as usize];
                feed(&mut self.hasher, f);
                let Cell::Functor(_, k) = f else {
                    unreachable!("struct without header")
                };
                let p = self.cells.len();
                self.cells.push(f);
                self.cells
                    .extend(std::iter::repeat_n(Cell::Atom(atom::NIL), k as usize));
                self.ends.resize(self.cells.len(), 0);
                for i in 1..=k as usize {
                    let a = store.deref(store.heap[q as usize + i]);
                    let v = self.element(a, depth)?;
                    self.cells[p + i] = v;
                }
                self.ends[p] = self.cells.len() as u32;
                Ok(Cell::Struct(p as u32))
            }
            Cell::Ref(_) => Err(true),
            other => {
                feed(&mut self.hasher, other);
                Ok(other)
            }
        }
    }

    /// [`Nested::node`] of a subterm of a compound at `depth`: an atomic one without the call.
    #[inline(always)]
    fn element(&mut self, c: Cell, depth: u32) -> Result<Cell, bool> {
        match c {
            Cell::List(_) | Cell::Struct(_) | Cell::Ref(_) => self.node(c, depth + 1),
            other => {
                self.steps += 1;
                feed(&mut self.hasher, other);
                Ok(other)
            }
        }
    }

    /// Copies the list cell `c` and its tail (the list cells in a loop, their elements and
    /// the last tail by [`Nested::node`]): the cell that stands for it.
    fn list(&mut self, mut c: Cell, depth: u32) -> Result<Cell, bool> {
        let store = self.store;
        let start = self.cells.len();
        let mut first = true;
        let mut slot = usize::MAX;
        while let Cell::List(q) = c {
            if !first {
                self.steps += 1;
                if self.steps > HEAP_COPY_MAX {
                    return Err(false);
                }
            }
            first = false;
            feed(&mut self.hasher, c);
            let p = self.cells.len();
            self.cells.extend([Cell::Atom(atom::NIL); 2]);
            self.ends.extend([0, 0]);
            if slot != usize::MAX {
                self.cells[slot] = Cell::List(p as u32);
            }
            let e = store.deref(store.heap[q as usize]);
            let v = self.element(e, depth)?;
            self.cells[p] = v;
            slot = p + 1;
            c = store.deref(store.heap[q as usize + 1]);
        }
        let v = self.element(c, depth)?;
        self.cells[slot] = v;
        // every list cell of the chain ends where its last tail does
        let end = self.cells.len() as u32;
        let mut p = start;
        loop {
            self.ends[p] = end;
            match self.cells[p + 1] {
                Cell::List(q) => p = q as usize,
                _ => break,
            }
        }
        Ok(Cell::List(start as u32))
    }
}

/// The copied word in `scratch` as a [`Ground`] (its term built at its first use).
fn ground_of(scratch: &mut Scratch, root: Cell, hash: u64, keys: [Option<Key>; INDEXED]) -> Ground {
    let (kw, kmask) = key_words(&keys);
    let (flat, elems) = flat_elements(&scratch.cells, root);
    let g = Ground {
        term: OnceLock::new(),
        cells: Box::from(&scratch.cells[..]),
        ends: Box::from(&scratch.ends[..]),
        root,
        keys,
        kw,
        kmask,
        parts: Parts::of_keys(&keys),
        flat,
        elems,
        hash,
    };
    debug_assert_eq!(
        g.hash,
        structural_hash(root, |q| g.cells[q as usize], |c| c)
    );
    debug_assert_eq!(g.keys, g.keys());
    debug_assert!({
        let mut cells = Vec::new();
        let mut ends = Vec::new();
        let r = compile_term(&cells_to_term(g.root, &g.cells), &mut cells, &mut ends);
        r == g.root && *cells == *g.cells && *ends == *g.ends
    });
    g
}

/// The [`key_word`]s of `keys` (0 where there is none) and the mask of the positions with a key.
fn key_words(keys: &[Option<Key>; INDEXED]) -> ([u64; INDEXED], u8) {
    let mut kw = [0; INDEXED];
    let mut mask = 0;
    for (pos, k) in keys.iter().enumerate() {
        if let Some(k) = k {
            kw[pos] = key_word(*k);
            mask |= 1 << pos;
        }
    }
    (kw, mask)
}

/// [`Ground::flat`] and [`Ground::elems`] of the compiled word `root` over `cells`.
fn flat_elements(cells: &[Cell], root: Cell) -> (u8, [Cell; INDEXED]) {
    let mut elems = [Cell::Atom(atom::NIL); INDEXED];
    let mut t = root;
    for (n, slot) in elems.iter_mut().enumerate() {
        match t {
            Cell::List(p) if cells[p as usize].is_atomic() => {
                *slot = cells[p as usize];
                t = cells[p as usize + 1];
            }
            Cell::Atom(atom::NIL) => return (n as u8, elems),
            _ => return (NOT_FLAT, elems),
        }
    }
    if t == Cell::Atom(atom::NIL) {
        (INDEXED as u8, elems)
    } else {
        (NOT_FLAT, elems)
    }
}

/// [`Ground::flat`] of a term that is not a short word of atomic elements.
const NOT_FLAT: u8 = u8::MAX;

/// Index keys in exact word form: a tag byte per position (`0`: no key; see [`key_parts`]) and a
/// payload word, so that two keys are equal exactly when their tags and payloads are.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Parts {
    tags: u32,
    vals: [u64; INDEXED],
}

/// The tag (1..=5) and payload of an index key: different keys have different pairs.
#[inline]
fn key_parts(k: Key) -> (u32, u64) {
    match k {
        Key::Atom(a) => (1, u64::from(a.0)),
        Key::Int(i) => (2, i as u64),
        Key::Float(b) => (3, b),
        Key::Str(s) => (4, u64::from(s.0)),
        Key::Functor(f, n) => (5, (u64::from(f.0) << 32) | u64::from(n)),
    }
}

/// The bytes of [`Parts::tags`] at the positions of `mask`.
#[inline]
fn tag_mask(mask: u8) -> u32 {
    TAG_MASKS[usize::from(mask) & ((1 << INDEXED) - 1)]
}

impl Parts {
    fn of_keys(keys: &[Option<Key>; INDEXED]) -> Parts {
        let mut p = Parts::default();
        for (pos, k) in keys.iter().enumerate() {
            if let Some(k) = k {
                let (tag, v) = key_parts(*k);
                p.tags |= tag << (8 * pos);
                p.vals[pos] = v;
            }
        }
        p
    }

    /// Do `self` and `other` have the same keys at the positions of `mask` (whose tag bytes are
    /// `tmask`: [`tag_mask`]), given that `other` has a key at each of them?
    #[inline]
    fn agree(&self, other: &Parts, mask: u8, tmask: u32) -> bool {
        (self.tags ^ other.tags) & tmask == 0
            && (0..INDEXED).all(|pos| mask & (1 << pos) == 0 || self.vals[pos] == other.vals[pos])
    }
}

/// The index keys of the leading elements of a word given as a term.
fn term_keys(t: &Term) -> [Option<Key>; INDEXED] {
    let mut out = [None; INDEXED];
    let mut t = t;
    for slot in out.iter_mut() {
        let Term::Compound(f, args) = t else { break };
        if *f != atom::DOT || args.len() != 2 {
            break;
        }
        *slot = match &args[0] {
            Term::Atom(a) => Some(Key::Atom(*a)),
            Term::Int(i) => Some(Key::Int(*i)),
            Term::Float(x) => Some(Key::Float(x.to_bits())),
            Term::Str(s) => Some(Key::Str(*s)),
            Term::Compound(g, xs) => Some(Key::Functor(*g, xs.len() as u32)),
            Term::Var(_) => None,
        };
        t = &args[1];
    }
    out
}

/// How many leading elements of a word are indexed.
pub const INDEXED: usize = 4;
// a call site's list keys ([`ListKeys`]) are the index keys of its leading elements
const _: () = assert!(INDEXED == crate::solve::program::HOST_LIST_MAX);

/// Fact sets of at most this many facts have no index: a pattern scans them all (the key check of
/// [`Ground::may_match`] is cheaper than hashing for so few), and the next state's set is a copy of
/// the list. (Chess's 13 to 16 pieces late in a game are cheaper indexed now that the mode tables
/// are carried over; tic-tac-toe's 10 facts are cheaper scanned.)
const SMALL: usize = 12;

/// `IOTA[i] == i`: the candidate list "every fact" of a small set.
static IOTA: [u32; SMALL] = {
    let mut a = [0u32; SMALL];
    let mut i = 0;
    while i < SMALL {
        a[i] = i as u32;
        i += 1;
    }
    a
};

/// A hash of one index key.
#[inline]
fn key_word(k: Key) -> u64 {
    let (tag, v) = key_parts(k);
    parts_word(tag, v)
}

/// The bits of a composite hash kept ([`composite`]): few in unit tests, so that runs of facts
/// with different keys (inexact modes) occur there too.
const HASH_SHIFT: u32 = if cfg!(test) { 61 } else { 32 };

/// The composite hash (at most 32 bits) of the key words `kw` at the positions of `mask`, in order.
#[inline]
fn composite(kw: &[u64; INDEXED], mask: usize) -> u64 {
    let mut h = 0;
    for (pos, &w) in kw.iter().enumerate() {
        if mask & (1 << pos) != 0 {
            h = mix(h, w);
        }
    }
    h >> HASH_SHIFT
}

/// The facts whose leading elements have given keys, for one binding mode (the set of positions
/// among the first [`INDEXED`] elements where a pattern has a key): a hash table whose slots hold
/// the facts of their composite hashes ([`composite`]), in insertion order.
#[derive(Debug, Default, Clone, PartialEq)]
struct Mode {
    /// One allocation: `size + 1` slot starts, then the fact ids. `table[s] & !MIXED ..
    /// table[s + 1] & !MIXED`: the range of slot `s` among the ids (offset by `size + 1`);
    /// [`MIXED`] set in `table[s]`: the slot holds facts with different keys at the mode's
    /// positions (in the others, the facts agree with a pattern exactly when the first one does).
    table: Vec<u32>,
    /// The mask of the slot numbers (`size - 1`).
    slot_mask: usize,
}

/// [`FactSet::apply`] renumbers the ids of sets up to this size in a buffer on the stack.
const RENUM_STACK: usize = 128;

/// The flag of a mixed slot in [`Mode::table`].
const MIXED: u32 = 1 << 31;

/// Do `a` and `b` have the same keys at the positions of `mask` (both have keys there)?
#[inline]
fn same_keys(a: &Ground, b: &Ground, mask: usize) -> bool {
    a.parts.agree(&b.parts, mask as u8, tag_mask(mask as u8))
}

impl Mode {
    /// The mode `mask` (bit `i`: element `i` has a key) of `facts`: a fact is listed under its keys at
    /// the mode's positions, and not at all if it has no key at one of them (no pattern with a key
    /// there can match it: [`Ground::may_match`]).
    fn build(facts: &[Arc<Ground>], mask: usize) -> Mode {
        Mode::build_sized(facts, mask, (2 * facts.len()).next_power_of_two())
    }

    /// [`Mode::build`] with `size` (a power of two) slots.
    #[allow(clippy::slow_vector_initialization)]
    fn build_sized(facts: &[Arc<Ground>], mask: usize, size: usize) -> Mode {
        let m = mask as u8;
        // the slot of each fact (`u32::MAX`: not listed)
        let mut slots: Vec<u32> = Vec::with_capacity(facts.len());
        // counting sort by slot: the facts of each slot, filled from its end in reverse order, end
        // up in insertion order
        // (`with_capacity` and `resize` rather than `vec![0; n]`: the allocator's zeroing path
        // cost ~30K instructions more on Connect Four's 866 builds, and this form gave the step
        // loop the better of its two code layouts: chess, kalah +0.3 % with `vec!`)
        let mut table = Vec::with_capacity(size + 1 + facts.len());
        table.resize(size + 1 + facts.len(), 0u32);
        for g in facts {
            if g.kmask & m == m {
                let s = composite(&g.kw, mask) as usize & (size - 1);
                table[s] += 1;
                slots.push(s as u32);
            } else {
                slots.push(u32::MAX);
            }
        }
        let base = size as u32 + 1;
        let mut acc = base;
        for c in &mut table[..size] {
            acc += *c;
            *c = acc;
        }
        table[size] = acc;
        for (i, &s) in slots.iter().enumerate().rev() {
            if s != u32::MAX {
                table[s as usize] -= 1;
                let at = table[s as usize] as usize;
                table[at] = i as u32;
            }
        }
        // neighbours in the ids of the same slot with different keys make the slot mixed
        for j in base as usize + 1..acc as usize {
            let (x, y) = (table[j - 1] as usize, table[j] as usize);
            let s = slots[y] as usize;
            if slots[x] as usize == s && !same_keys(&facts[x], &facts[y], mask) {
                table[s] |= MIXED;
            }
        }
        table.truncate(acc as usize);
        Mode {
            table,
            slot_mask: size - 1,
        }
    }
}

impl Mode {
    /// The mode `mask` of `facts`, made from this mode of `old` (the facts before a transition):
    /// `renum` maps old ids to new ones (`u32::MAX`: deleted; `deleted` lists those ids), and the
    /// facts from `created_from` on are new. The result is the table [`Mode::build_sized`] makes with this mode's number of
    /// slots (`None` when that is too few or far too many for `facts`): only the slots of deleted
    /// and created facts are rebuilt; the others keep their ids (renumbered) and flags, shifted.
    #[allow(clippy::too_many_arguments)]
    fn derive(
        &self,
        old: &[Arc<Ground>],
        facts: &[Arc<Ground>],
        renum: &[u32],
        deleted: &[u32],
        created_from: usize,
        mask: usize,
        mut table: Vec<u32>,
    ) -> Option<Mode> {
        let size = self.slot_mask + 1;
        if 2 * facts.len() > size || 8 * facts.len() < size {
            return None;
        }
        let m = mask as u8;
        let slot = |g: &Ground| composite(&g.kw, mask) as usize & self.slot_mask;
        // the changed slots, ascending: those of the deleted facts and of the created ones
        // (on the stack when there are few: most transitions change a few facts)
        let cap = deleted.len() + facts.len().saturating_sub(created_from);
        let mut small = [(0usize, 0u32); 16];
        let mut large = Vec::new();
        let buf: &mut [(usize, u32)] = if cap <= small.len() {
            &mut small
        } else {
            large.resize(cap, (0, 0));
            &mut large
        };
        let mut nt = 0;
        // (an id listed twice gives its slot twice: the slot is rebuilt once either way)
        for &d in deleted {
            let g = &old[d as usize];
            if g.kmask & m == m {
                buf[nt] = (slot(g), u32::MAX);
                nt += 1;
            }
        }
        for (i, g) in facts.iter().enumerate().skip(created_from) {
            if g.kmask & m == m {
                buf[nt] = (slot(g), i as u32);
                nt += 1;
            }
        }
        let touched = &mut buf[..nt];
        // by slot (a slot's created facts in id order): a few entries by insertion
        if touched.len() <= 16 {
            for i in 1..touched.len() {
                let x = touched[i];
                let mut j = i;
                while j > 0 && touched[j - 1] > x {
                    touched[j] = touched[j - 1];
                    j -= 1;
                }
                touched[j] = x;
            }
        } else {
            touched.sort_unstable();
        }
        // (`table`: the room of a table no longer used, or a new one)
        table.clear();
        table.reserve(size + 1 + facts.len());
        table.extend_from_slice(&self.table[..=size]);
        let start = |s: usize| (self.table[s] & !MIXED) as usize;
        let mut delta = 0u32;
        let mut next = 0;
        let mut k = 0;
        while k < touched.len() {
            let t = touched[k].0;
            // the untouched slots before `t` (and `t`'s start) move by `delta`; their ids are kept
            // (nothing to add while the changes so far kept the number of ids)
            if delta != 0 {
                for x in &mut table[next..=t] {
                    *x = x.wrapping_add(delta);
                }
            }
            table.extend(
                self.table[start(next)..start(t)]
                    .iter()
                    .map(|&i| renum[i as usize]),
            );
            let from = table.len();
            table.extend(
                self.table[start(t)..start(t + 1)]
                    .iter()
                    .map(|&i| renum[i as usize])
                    .filter(|&j| j != u32::MAX),
            );
            let kept = table.len() - from;
            while k < touched.len() && touched[k].0 == t {
                if touched[k].1 != u32::MAX {
                    table.push(touched[k].1);
                }
                k += 1;
            }
            // a slot whose facts agreed agrees with its kept facts: only the created ones (after
            // the first kept or created fact) are compared with their predecessors
            let check = if self.table[t] & MIXED == 0 {
                (kept.max(1) + from).min(table.len())
            } else {
                from + 1
            };
            let mixed = (check..table.len()).any(|j| {
                !same_keys(
                    &facts[table[j - 1] as usize],
                    &facts[table[j] as usize],
                    mask,
                )
            });
            table[t] = from as u32 | if mixed { MIXED } else { 0 };
            delta = (table.len() as u32).wrapping_sub(start(t + 1) as u32);
            next = t + 1;
        }
        if delta != 0 {
            for x in &mut table[next..=size] {
                *x = x.wrapping_add(delta);
            }
        }
        table.extend(
            self.table[start(next)..start(size)]
                .iter()
                .map(|&i| renum[i as usize]),
        );
        debug_assert_eq!(table[size] as usize, table.len());
        Some(Mode {
            table,
            slot_mask: self.slot_mask,
        })
    }
}

/// The index of a fact set larger than [`SMALL`]: one composite index per binding mode of the
/// patterns (JIT-style multi-argument indexing), each built at its first use, so that a pattern
/// finds the facts whose indexed elements agree with its keys in one lookup.
#[derive(Debug, Default)]
struct Index {
    modes: [ModeSlot; 1 << INDEXED],
    /// Bit `m`: mode `m` was looked up (the next state's set carries over these modes only).
    used: AtomicU16,
}

/// One mode of an [`Index`]: carried over from the previous state's set by [`FactSet::apply`]
/// (there from the start: no `OnceLock` to initialise, which costs ~90 instructions through
/// `Once`), or built at its first lookup.
#[derive(Debug, Clone)]
enum ModeSlot {
    Carried(Mode),
    Lazy(OnceLock<Mode>),
}

impl ModeSlot {
    /// Neither carried nor built.
    fn is_empty(&self) -> bool {
        matches!(self, ModeSlot::Lazy(l) if l.get().is_none())
    }
}

impl Default for ModeSlot {
    fn default() -> ModeSlot {
        ModeSlot::Lazy(OnceLock::new())
    }
}

impl ModeSlot {
    /// The mode, if it is carried or built.
    #[cfg(test)]
    fn get(&self) -> Option<&Mode> {
        match self {
            ModeSlot::Carried(m) => Some(m),
            ModeSlot::Lazy(l) => l.get(),
        }
    }
}

impl Clone for Index {
    fn clone(&self) -> Index {
        Index {
            modes: self.modes.clone(),
            used: AtomicU16::new(self.used.load(Ordering::Relaxed)),
        }
    }
}

impl Index {
    /// The candidates of `pat` (its `list` and `exact` are set here) with the composite hash `h`.
    #[inline(always)]
    fn lookup<'f>(&'f self, facts: &[Arc<Ground>], pat: &mut Candidates<'f>, h: u64) {
        let mask = usize::from(pat.mask);
        if self.used.load(Ordering::Relaxed) & (1 << mask) == 0 {
            self.used.fetch_or(1 << mask, Ordering::Relaxed);
        }
        let mode = match &self.modes[mask] {
            ModeSlot::Carried(m) => m,
            ModeSlot::Lazy(l) => l.get_or_init(|| Mode::build(facts, mask)),
        };
        let s = h as usize & mode.slot_mask;
        let (from, to) = (mode.table[s], mode.table[s + 1] & !MIXED);
        pat.exact = from & MIXED == 0;
        pat.list = &mode.table[(from & !MIXED) as usize..to as usize];
        if let Some(&i) = pat.list.first() {
            // a slot of facts with the same keys, but not the pattern's
            if pat.exact && !pat.matches(&facts[i as usize]) {
                pat.list = &[];
            }
        }
    }
}

/// The facts of a state: insertion-ordered, duplicate-free, indexed on their leading elements when
/// there are more than [`SMALL`].
#[derive(Debug, Default, Clone)]
pub struct FactSet {
    facts: Vec<Arc<Ground>>,
    index: Option<Box<Index>>,
    /// Unique among the fact sets built by [`FactSet::from_grounds`] and [`FactSet::apply`] (copies
    /// share it: same facts); `0` for the default (empty) set. Keys the machine's per-state tables.
    id: u64,
}

/// The next [`FactSet::id`].
static NEXT_FACTSET_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_id() -> u64 {
    NEXT_FACTSET_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The facts a pattern may match, in insertion order (recomputed identically on every retry).
#[derive(Clone, Copy)]
pub struct Candidates<'f> {
    list: &'f [u32],
    /// The pattern's keys ([`FactSet::pattern_keys`]) in exact form, the mask of the positions
    /// where it has one, and their tag bytes ([`tag_mask`]).
    parts: Parts,
    mask: u8,
    tmask: u32,
    /// Every candidate agrees with the keys (a small set's candidates are all its facts).
    exact: bool,
    /// The pattern's number of elements if it is a proper list of at most [`INDEXED`] elements
    /// (then `vars` holds the addresses of the variables among them, at the positions without a
    /// key, when the candidates were made), else [`NOT_FLAT`].
    len: u8,
    vars: [u32; INDEXED],
}

/// [`tag_mask`] of every mask.
static TAG_MASKS: [u32; 1 << INDEXED] = {
    let mut a = [0u32; 1 << INDEXED];
    let mut m = 0;
    while m < 1 << INDEXED {
        let mut pos = 0;
        while pos < INDEXED {
            if m & (1 << pos) != 0 {
                a[m] |= 0xFF << (8 * pos);
            }
            pos += 1;
        }
        m += 1;
    }
    a
};

impl Candidates<'_> {
    #[inline]
    pub fn len(&self) -> usize {
        self.list.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// The fact id of candidate `pos`.
    #[inline]
    pub fn id(&self, pos: usize) -> u32 {
        self.list[pos]
    }
    /// The fact ids, in order.
    pub fn ids(&self) -> &[u32] {
        self.list
    }

    /// Does candidate `pos` agree with the keys of the pattern ([`Ground::may_match`])?
    #[inline]
    pub fn agrees(&self, facts: &FactSet, pos: usize) -> bool {
        self.exact || self.matches(facts.get(self.id(pos)))
    }

    /// Is `g` the word of the pattern's elements, for the candidates of elements that are all
    /// atomic ([`FactSet::candidates_of`] without a variable): [`Ground::is_elems`] of them,
    /// compared by their keys (a short word of atomic elements has their values as its keys, in
    /// exact form: [`Parts`]).
    #[inline(always)]
    pub fn is_word_of(&self, g: &Ground) -> bool {
        debug_assert!(self.len != NOT_FLAT && u32::from(self.mask) == (1 << self.len) - 1);
        g.flat == self.len && g.parts == self.parts
    }

    /// Does `g` agree with the keys of the pattern ([`Ground::may_match`])?
    #[inline]
    pub fn matches(&self, g: &Ground) -> bool {
        g.parts.agree(&self.parts, self.mask, self.tmask)
    }

    /// Unifies `g`, a candidate that [agrees](Candidates::agrees) with the pattern, with the
    /// pattern at heap cell `pat` ([`Ground::unify`]; bindings trailed, undone by the caller on
    /// failure). A short word of atomic elements against a pattern of as many elements: the
    /// positions where the pattern has a key hold equal atomic values already (equal keys of
    /// atomic values are equal values), so only the others (variables when the candidates were
    /// made) are unified, in order, as [`Store::unify_ground`] would.
    #[inline]
    pub fn unify(&self, g: &Ground, store: &mut Store, pat: Cell) -> bool {
        if self.len != g.flat || self.len == NOT_FLAT {
            return g.unify(store, pat);
        }
        self.unify_vars(g, store)
    }

    /// Unifies the elements of `g` (a short word of atomic elements, of the pattern's length) at
    /// the positions without a key (the variables `vars`) with those variables, in order.
    #[inline(always)]
    fn unify_vars(&self, g: &Ground, store: &mut Store) -> bool {
        // the positions without a key among the first `len` (`len <= INDEXED`), ascending
        let mut vm = !self.mask & ((1u8 << self.len) - 1);
        while vm != 0 {
            let pos = vm.trailing_zeros() as usize;
            vm &= vm - 1;
            if !store.unify_atomic(g.elems[pos], Cell::Ref(self.vars[pos])) {
                return false;
            }
        }
        true
    }
}

impl Candidates<'_> {
    /// Was the pattern a proper list of at most [`INDEXED`] elements, each atomic or a variable
    /// (then [`Candidates::unify_elems`] is [`Candidates::unify`] where it answers)?
    #[inline]
    pub fn is_short_list(&self) -> bool {
        self.len != NOT_FLAT
    }

    /// [`Candidates::unify`] for candidates made by [`FactSet::candidates_of`] (no list on the
    /// heap): the same outcome, or `None`, having bound nothing, when `g` is not a short word of
    /// atomic elements (its unification needs the list). A short word of another length does not
    /// unify.
    #[inline(always)]
    pub fn unify_elems(&self, g: &Ground, store: &mut Store) -> Option<bool> {
        if g.flat == NOT_FLAT {
            return None;
        }
        if g.flat != self.len {
            return Some(false);
        }
        Some(self.unify_vars(g, store))
    }
}

impl Candidates<'_> {
    /// Element `n` has the key (`tag`, `v`): recorded, and mixed into the composite hash `h`.
    #[inline(always)]
    fn add_part(&mut self, n: usize, tag: u32, v: u64, h: &mut u64) {
        self.parts.tags |= tag << (8 * n);
        self.parts.vals[n] = v;
        self.mask |= 1 << n;
        *h = mix(*h, parts_word(tag, v));
    }
}

impl Candidates<'static> {
    /// No keys, no candidates, no variables; `len` elements ([`NOT_FLAT`]: not a short flat list).
    #[inline(always)]
    fn blank(len: u8) -> Candidates<'static> {
        Candidates {
            list: &[],
            parts: Parts::default(),
            mask: 0,
            tmask: 0,
            exact: false,
            len,
            vars: [0; INDEXED],
        }
    }

    /// [`Candidates::pattern`] of the proper list of `elems` (each atomic or an unbound variable
    /// `Ref`), without the list on the heap: the same keys, mode, variables and hash. `None` for
    /// more than [`INDEXED`] or no elements, or another cell.
    #[inline(always)]
    pub fn of_elems(elems: &[Cell]) -> Option<(Candidates<'static>, u64)> {
        Candidates::of_elems_keyed(&ListKeys::EMPTY, elems)
    }

    /// [`Candidates::of_elems`] of `elems` whose first `keys.n` elements are atomic with the
    /// keys `keys` (computed at load time for a call site's leading constants: only the other
    /// elements are keyed here).
    #[inline(always)]
    pub fn of_elems_keyed(keys: &ListKeys, elems: &[Cell]) -> Option<(Candidates<'static>, u64)> {
        if elems.is_empty() || elems.len() > INDEXED {
            return None;
        }
        debug_assert!(usize::from(keys.n) <= elems.len());
        // the keys gathered in locals (not through the struct), as `add_part` records them
        let mut tags = keys.tags;
        let mut vals = keys.vals;
        let mut mask = ((1u32 << keys.n) - 1) as u8;
        let mut vars = [0u32; INDEXED];
        let mut h = keys.hash;
        for (n, &e) in elems.iter().enumerate().skip(usize::from(keys.n)) {
            let (tag, v) = match e {
                Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Str(_) => atomic_part(e),
                Cell::Ref(x) => {
                    vars[n] = x;
                    continue;
                }
                _ => return None,
            };
            tags |= tag << (8 * n);
            vals[n] = v;
            mask |= 1 << n;
            h = mix(h, parts_word(tag, v));
        }
        Some((
            Candidates {
                list: &[],
                parts: Parts { tags, vals },
                mask,
                tmask: TAG_MASKS[usize::from(mask)],
                exact: false,
                len: elems.len() as u8,
                vars,
            },
            h,
        ))
    }

    /// The keys, binding mode, elements (when it is a short list of atomic elements and
    /// variables) and composite hash (not yet shifted) of the heap pattern `pat`'s leading
    /// elements, in one walk; no candidates listed yet. [`Candidates::matches`] and
    /// [`Candidates::unify`] then test words against the pattern.
    #[inline(always)]
    pub fn pattern(store: &Store, pat: Cell) -> (Candidates<'static>, u64) {
        // the keys, the binding mode, the elements and the composite hash of the pattern's leading
        // elements, in one walk
        let heap = &store.heap;
        let mut c = Candidates::blank(NOT_FLAT);
        let mut h = 0;
        let mut t = store.deref(pat);
        let mut n = 0;
        // every element has a key or is a variable
        let mut plain = true;
        while n < INDEXED {
            let Cell::List(p) = t else { break };
            let e = store.deref(heap[p as usize]);
            let (tag, v) = match e {
                Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Str(_) => atomic_part(e),
                Cell::List(_) => (5, (u64::from(atom::DOT.0) << 32) | 2),
                Cell::Struct(q) => match heap[q as usize] {
                    Cell::Functor(f, k) => (5, (u64::from(f.0) << 32) | u64::from(k)),
                    _ => {
                        plain = false;
                        (0, 0)
                    }
                },
                Cell::Ref(x) => {
                    c.vars[n] = x;
                    (0, 0)
                }
                _ => {
                    plain = false;
                    (0, 0)
                }
            };
            if tag != 0 {
                c.add_part(n, tag, v, &mut h);
            }
            t = store.deref(heap[p as usize + 1]);
            n += 1;
        }
        if plain && t == Cell::Atom(atom::NIL) {
            c.len = n as u8;
        }
        c.tmask = TAG_MASKS[usize::from(c.mask)];
        (c, h)
    }
}

impl FactSet {
    pub fn from_grounds(facts: Vec<Arc<Ground>>) -> FactSet {
        let index = (facts.len() > SMALL).then(Box::default);
        FactSet {
            facts,
            index,
            id: next_id(),
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
        self.facts.iter().map(|g| g.term())
    }
    pub fn contains(&self, t: &Term) -> bool {
        let cands = self.candidates_by_keys(&term_keys(t));
        (0..cands.len()).any(|pos| cands.agrees(self, pos) && self.get(cands.id(pos)).term() == t)
    }

    /// Is the proper list of `elems` (1 to [`INDEXED`] atomic cells) a fact? [`FactSet::contains_word`]
    /// of the word [`HeapWord::of_elems`] makes, from the candidates of the elements.
    pub fn contains_elems(&self, elems: &[Cell]) -> bool {
        self.candidates_of(elems)
            .is_some_and(|c| c.ids().iter().any(|&i| c.is_word_of(self.get(i))))
    }

    /// Is the word a fact?
    pub fn contains_word(&self, w: &HeapWord) -> bool {
        let cands = self.candidates_by_keys(&w.keys);
        cands.ids().iter().any(|&i| self.get(i).is_word(w))
    }

    /// The facts that can match the heap pattern `pat`, in insertion order: in an indexed set,
    /// those whose indexed elements agree with the pattern's keys ([`Candidates::agrees`] filters
    /// the others).
    pub fn candidates(&self, store: &Store, pat: Cell) -> Candidates<'_> {
        let (c, h) = Candidates::pattern(store, pat);
        let mut c: Candidates<'_> = c;
        match &self.index {
            None => self.scan(c),
            Some(index) => {
                index.lookup(&self.facts, &mut c, h >> HASH_SHIFT);
                c
            }
        }
    }

    /// [`FactSet::candidates`] of the proper list of `elems` (each atomic or an unbound variable
    /// `Ref`, as [`crate::solve::host::Host::call_list`] hands them over), without the list on
    /// the heap: the same candidates, keys and variables. `None` for more than [`INDEXED`] or no
    /// elements.
    #[inline(always)]
    pub fn candidates_of(&self, elems: &[Cell]) -> Option<Candidates<'_>> {
        self.candidates_of_keyed(&ListKeys::EMPTY, elems)
    }

    /// [`FactSet::candidates_of`] with the keys of the leading elements given
    /// ([`Candidates::of_elems_keyed`]).
    #[inline(always)]
    pub fn candidates_of_keyed(&self, keys: &ListKeys, elems: &[Cell]) -> Option<Candidates<'_>> {
        let (c, h) = Candidates::of_elems_keyed(keys, elems)?;
        Some(self.candidates_keyed(c, h))
    }

    /// The candidates of the pattern `c` with the composite hash `h` ([`Candidates::of_elems`]).
    #[inline(always)]
    pub fn candidates_keyed(&self, c: Candidates<'static>, h: u64) -> Candidates<'_> {
        let mut c: Candidates<'_> = c;
        match &self.index {
            None => self.scan(c),
            Some(index) => {
                index.lookup(&self.facts, &mut c, h >> HASH_SHIFT);
                c
            }
        }
    }

    /// Every fact of a small set.
    fn scan<'f>(&'f self, mut c: Candidates<'f>) -> Candidates<'f> {
        c.list = &IOTA[..self.facts.len()];
        c.exact = false;
        c
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
    pub fn candidates_by_keys(&self, keys: &[Option<Key>; INDEXED]) -> Candidates<'_> {
        let (kw, mask) = key_words(keys);
        let c = Candidates {
            list: &[],
            parts: Parts::of_keys(keys),
            mask,
            tmask: tag_mask(mask),
            exact: false,
            len: NOT_FLAT,
            vars: [0; INDEXED],
        };
        match &self.index {
            None => self.scan(c),
            Some(index) => {
                let mut c = c;
                index.lookup(&self.facts, &mut c, composite(&kw, usize::from(mask)));
                c
            }
        }
    }

    /// The next state's facts: `deleted` removed, then `created` appended in order.
    pub fn apply(&self, deleted: &[u32], created: &[Arc<Ground>]) -> FactSet {
        self.apply_reusing(deleted, created, None)
    }

    /// [`FactSet::apply`] in the room of `spare`, a set no longer used (its fact list, index and
    /// index tables are refilled rather than allocated again): the same set.
    pub fn apply_reusing(
        &self,
        deleted: &[u32],
        created: &[Arc<Ground>],
        spare: Option<FactSet>,
    ) -> FactSet {
        let (mut next, mut spare_index) = match spare {
            Some(FactSet { facts, index, .. }) => (facts, index),
            None => (Vec::new(), None),
        };
        next.clear();
        // `renum`: the old fact ids renumbered (`u32::MAX`: deleted), from the first deleted one
        // on (the ids before it keep their numbers)
        let mut first = self.facts.len();
        for &d in deleted {
            first = first.min(d as usize);
        }
        // (on the stack for the sets most games keep: no allocation per transition)
        let mut small = [0u32; RENUM_STACK];
        let mut large = Vec::new();
        let renum: &mut [u32] = if self.facts.len() <= RENUM_STACK {
            &mut small[..self.facts.len()]
        } else {
            large.resize(self.facts.len(), 0);
            &mut large
        };
        for (i, r) in renum.iter_mut().enumerate() {
            *r = i as u32;
        }
        for &d in deleted {
            renum[d as usize] = u32::MAX;
        }
        let mut k = first as u32;
        for r in &mut renum[first..] {
            if *r != u32::MAX {
                *r = k;
                k += 1;
            }
        }
        next.reserve(self.facts.len().saturating_sub(deleted.len()) + created.len());
        next.extend_from_slice(&self.facts[..first]);
        next.extend(
            self.facts[first..]
                .iter()
                .zip(&renum[first..])
                .filter(|(_, &r)| r != u32::MAX)
                .map(|(f, _)| f.clone()),
        );
        next.extend(created.iter().cloned());
        let index = (next.len() > SMALL).then(|| {
            // (the spare index's slots still hold its modes: each mode derived below takes the
            // room of the spare's table of the same mode, about as long; the others are emptied)
            let mut index = spare_index.take().unwrap_or_default();
            *index.used.get_mut() = 0;
            let mut refilled = 0u32;
            if let Some(old) = &self.index {
                // the modes used in this state, carried over: the old fact ids renumbered, the
                // created facts appended to their slots
                let created_from = next.len() - created.len();
                let used = old.used.load(Ordering::Relaxed);
                let mut u = used;
                while u != 0 {
                    let mask = u.trailing_zeros() as usize;
                    u &= u - 1;
                    let mode = match &old.modes[mask] {
                        ModeSlot::Carried(m) => Some(m),
                        ModeSlot::Lazy(l) => l.get(),
                    };
                    if let Some(mode) = mode {
                        let room = match std::mem::take(&mut index.modes[mask]) {
                            ModeSlot::Carried(m) => m.table,
                            ModeSlot::Lazy(mut l) => l.take().map(|m| m.table).unwrap_or_default(),
                        };
                        refilled |= 1 << mask;
                        if let Some(m) = mode.derive(
                            &self.facts,
                            &next,
                            renum,
                            deleted,
                            created_from,
                            mask,
                            room,
                        ) {
                            index.modes[mask] = ModeSlot::Carried(m);
                        }
                    }
                }
            }
            for (mask, slot) in index.modes.iter_mut().enumerate() {
                if refilled & (1 << mask) == 0 && !slot.is_empty() {
                    *slot = ModeSlot::default();
                }
            }
            index
        });
        FactSet {
            facts: next,
            index,
            id: next_id(),
        }
    }
}

/// Pushes the proper list of `elems` onto the heap (above the trailing mark: its cells are new);
/// its root.
pub fn push_list(store: &mut Store, elems: &[Cell]) -> Cell {
    let start = store.len();
    for (i, &e) in elems.iter().enumerate() {
        store.heap.push(e);
        store.heap.push(if i + 1 < elems.len() {
            Cell::List(start + 2 * i as u32 + 2)
        } else {
            Cell::Atom(atom::NIL)
        });
    }
    if elems.is_empty() {
        Cell::Atom(atom::NIL)
    } else {
        Cell::List(start)
    }
}

/// `[]`-terminated list check for words.
pub fn is_word(t: &Term) -> bool {
    t.as_list().is_some() || matches!(t, Term::Atom(a) if *a == atom::NIL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Small ground words: elements drawn from a few atoms, integers, floats (both zeros) and one
    /// nested list, so that equal and unequal words, shared keys and deep elements all occur.
    fn element() -> impl Strategy<Value = Term> {
        prop_oneof![
            prop::sample::select(vec!["a", "b", "c"]).prop_map(Term::atom),
            (0i64..4).prop_map(Term::Int),
            prop::sample::select(vec![0.0f64, -0.0, 1.5]).prop_map(Term::Float),
            (0i64..3).prop_map(|i| Term::list(vec![Term::Int(i), Term::atom("x")])),
            (0i64..2).prop_map(|i| Term::compound("f", vec![Term::Int(i)])),
        ]
    }

    fn word() -> impl Strategy<Value = Term> {
        prop::collection::vec(element(), 0..6).prop_map(Term::list)
    }

    /// The facts among `set` that may match a pattern with `keys`, as terms, in candidate order.
    fn matching(set: &FactSet, keys: &[Option<Key>; INDEXED]) -> Vec<Term> {
        let cands = set.candidates_by_keys(keys);
        (0..cands.len())
            .filter(|&pos| cands.agrees(set, pos))
            .map(|pos| set.get(cands.id(pos)).term().clone())
            .collect()
    }

    /// The facts among `set` that may match a pattern with `keys` by a plain scan.
    fn scanned(set: &FactSet, keys: &[Option<Key>; INDEXED]) -> Vec<Term> {
        set.iter()
            .filter(|g| g.may_match(keys))
            .map(|g| g.term().clone())
            .collect()
    }

    /// The answers of the pattern `pat` (a word whose elements may be variables) among the facts
    /// `ids`, as instances of the pattern, in order.
    fn answers(set: &FactSet, pat: &Term, ids: impl Iterator<Item = u32>) -> Vec<Term> {
        let mut store = Store::new();
        let h = store.build(pat, &mut Vec::new());
        // bindings of the pattern's variables are trailed (as in a host call), so undone
        store.mark = store.len();
        let mut out = Vec::new();
        for i in ids {
            let t = store.trail.len();
            if set.get(i).unify(&mut store, h) {
                out.push(store.to_term(h));
            }
            store.undo_to(t, |_| {});
        }
        out
    }

    proptest! {
        /// `apply` (mode tables carried over from the old set or built afresh, or none for small
        /// sets) answers every pattern like a set built from scratch with the same facts, and
        /// `contains` agrees with the fact list; `apply_reusing` in the room of the set before
        /// (as a session refills it) makes the same set, mode tables included.
        #[test]
        fn apply_matches_a_fresh_build(
            init in prop::collection::vec(word(), 0..40),
            steps in prop::collection::vec(
                (prop::collection::vec(any::<prop::sample::Index>(), 0..6),
                 prop::collection::vec(word(), 0..8)),
                1..8),
            probes in prop::collection::vec(word(), 1..10),
        ) {
            let mut seen: Vec<Term> = Vec::new();
            for w in init {
                if !seen.contains(&w) {
                    seen.push(w);
                }
            }
            let mut set = FactSet::from_grounds(seen.into_iter().map(|t| Arc::new(Ground::new(t))).collect());
            let mut spare: Option<FactSet> = None;
            for (dels, news) in steps {
                let mut deleted: Vec<u32> = Vec::new();
                if !set.is_empty() {
                    for d in dels {
                        let i = d.index(set.len()) as u32;
                        if !deleted.contains(&i) {
                            deleted.push(i);
                        }
                    }
                }
                let mut created: Vec<Arc<Ground>> = Vec::new();
                for w in news {
                    if !set.contains(&w) && !created.iter().any(|c| c.term() == &w) {
                        created.push(Arc::new(Ground::new(w)));
                    }
                }
                let plain = set.apply(&deleted, &created);
                let next = set.apply_reusing(&deleted, &created, spare.take());
                prop_assert_eq!(
                    plain.terms().collect::<Vec<_>>(),
                    next.terms().collect::<Vec<_>>()
                );
                prop_assert_eq!(plain.index.is_some(), next.index.is_some());
                if let (Some(a), Some(b)) = (&plain.index, &next.index) {
                    for (x, y) in a.modes.iter().zip(b.modes.iter()) {
                        prop_assert_eq!(x.get(), y.get());
                    }
                }
                // the modes carried over from `set` (those the probes used there) are the tables a
                // build with as many slots makes
                if let Some(index) = &next.index {
                    for (mask, mode) in index.modes.iter().enumerate() {
                        if let Some(mode) = mode.get() {
                            let size = mode.slot_mask + 1;
                            prop_assert_eq!(mode, &Mode::build_sized(&next.facts, mask, size));
                        }
                    }
                }
                let want: Vec<Term> = set
                    .terms()
                    .enumerate()
                    .filter(|(i, _)| !deleted.contains(&(*i as u32)))
                    .map(|(_, t)| t.clone())
                    .chain(created.iter().map(|g| g.term().clone()))
                    .collect();
                prop_assert_eq!(next.terms().cloned().collect::<Vec<_>>(), want.clone());
                let fresh = FactSet::from_grounds(next.iter().cloned().collect());
                for p in probes.iter().chain(want.iter()) {
                    let mut keys = term_keys(p);
                    prop_assert_eq!(matching(&next, &keys), matching(&fresh, &keys));
                    keys[1] = None;
                    prop_assert_eq!(matching(&next, &keys), matching(&fresh, &keys));
                    prop_assert_eq!(next.contains(p), want.contains(p));
                }
                spare = Some(std::mem::replace(&mut set, next));
            }
        }

        /// The candidates of an indexed (or small) set, filtered by [`Candidates::agrees`], are the
        /// facts a plain scan finds, in order, for every binding mode of every probe; and the
        /// answers of a heap pattern with variables are those of unifying it with every fact.
        #[test]
        fn candidates_are_a_plain_scan(
            init in prop::collection::vec(word(), 0..40),
            probes in prop::collection::vec((word(), 0usize..64), 1..10),
        ) {
            let mut seen: Vec<Term> = Vec::new();
            for w in init {
                if !seen.contains(&w) {
                    seen.push(w);
                }
            }
            let set = FactSet::from_grounds(seen.iter().cloned().map(|t| Arc::new(Ground::new(t))).collect());
            for (p, vars) in probes.iter().chain(seen.iter().map(|t| (t.clone(), 0)).collect::<Vec<_>>().iter()) {
                let keys = term_keys(p);
                for mask in 0..1usize << INDEXED {
                    let mut k = keys;
                    for (pos, slot) in k.iter_mut().enumerate() {
                        if mask & (1 << pos) == 0 {
                            *slot = None;
                        }
                    }
                    prop_assert_eq!(matching(&set, &k), scanned(&set, &k));
                }
                // the probe with the elements in `vars` (a bit set) replaced by variables
                let mut elems: Vec<Term> = p
                    .as_list()
                    .map(|l| l.into_iter().cloned().collect())
                    .unwrap_or_default();
                for (i, e) in elems.iter_mut().enumerate() {
                    if vars & (1 << i) != 0 {
                        *e = Term::Var(i as u32);
                    }
                }
                let pat = Term::list(elems);
                let mut store = Store::new();
                let h = store.build(&pat, &mut Vec::new());
                let cands = set.candidates(&store, h);
                let ids: Vec<u32> = (0..cands.len())
                    .filter(|&pos| cands.agrees(&set, pos))
                    .map(|pos| cands.id(pos))
                    .collect();
                prop_assert_eq!(
                    answers(&set, &pat, ids.into_iter()),
                    answers(&set, &pat, 0..set.len() as u32)
                );
            }
        }

        /// A word copied from the heap is the word compiled from its term (same cells, hash and
        /// keys: checked inside `into_ground`), and is equal to a fact exactly when the terms are.
        #[test]
        fn heap_words_compare_like_terms(a in word(), b in word()) {
            let mut store = Store::new();
            let h = store.build(&a, &mut Vec::new());
            let mut scratch = Scratch::default();
            let gb = Ground::new(b.clone());
            let Ok(w) = HeapWord::copy(&store, h, &mut scratch) else {
                panic!("a small ground word is copied");
            };
            prop_assert_eq!(gb.is_word(&w), a == b);
            let set = FactSet::from_grounds(vec![Arc::new(gb)]);
            prop_assert_eq!(set.contains_word(&w), a == b);
            let ga = w.into_ground();
            // the term built lazily from the copied cells is the term; `same` compares the cells
            // as the terms compare
            prop_assert!(*ga.term() == a);
            prop_assert!(ga.same(&Ground::new(a.clone())));
            prop_assert_eq!(ga.same(set.get(0)), a == b);
            prop_assert_eq!(set.get(0).same(&ga), a == b);
            prop_assert_eq!(ga.hash_value(), Ground::new(a.clone()).hash_value());
            // a short word of atomic elements compared by its elements: the same outcome
            let elems: Option<Vec<Cell>> = a.as_list().and_then(|l| {
                l.iter()
                    .map(|e| match e {
                        Term::Atom(x) => Some(Cell::Atom(*x)),
                        Term::Int(i) => Some(Cell::Int(*i)),
                        Term::Float(f) => Some(Cell::Float(*f)),
                        _ => None,
                    })
                    .collect()
            });
            if let Some(elems) = elems.filter(|e| !e.is_empty() && e.len() <= INDEXED) {
                prop_assert_eq!(set.contains_elems(&elems), a == b);
                prop_assert_eq!(set.get(0).is_elems(&elems), a == b);
                let mut scratch = Scratch::default();
                let gb2 = HeapWord::of_elems(&elems, &mut scratch).into_shared();
                let shared = scratch.shared_elems(&elems);
                prop_assert!(Arc::ptr_eq(&gb2, &shared));
                prop_assert!(*shared.term() == a);
                let mut other = Scratch::default();
                let fresh = other.shared_elems(&elems);
                prop_assert!(*fresh.term() == a);
                prop_assert_eq!(fresh.hash_value(), gb2.hash_value());
            }
        }

        /// A word made again through the same scratch is the word made before (the same `Arc`)
        /// exactly when the terms are equal (`0.0` and `-0.0` are different words), and each is
        /// the word compiled from its own term.
        #[test]
        fn shared_words_are_the_same_word(a in word(), b in word()) {
            let mut store = Store::new();
            let ha = store.build(&a, &mut Vec::new());
            let hb = store.build(&b, &mut Vec::new());
            let mut scratch = Scratch::default();
            let copy = |h, scratch: &mut Scratch| match HeapWord::copy(&store, h, scratch) {
                Ok(w) => w.into_shared(),
                Err(_) => panic!("a small ground word is copied"),
            };
            let ga = copy(ha, &mut scratch);
            let gb = copy(hb, &mut scratch);
            let ga2 = copy(ha, &mut scratch);
            prop_assert!(Arc::ptr_eq(&ga, &ga2));
            prop_assert_eq!(Arc::ptr_eq(&ga, &gb), a == b);
            prop_assert!(*ga.term() == a);
            prop_assert!(*gb.term() == b);
            prop_assert_eq!(gb.hash_value(), Ground::new(b).hash_value());
        }
    }

    /// Words deeper than `NESTED_DEPTH` (copied by `copy_any`) and long lists of compounds
    /// `Candidates::of_elems_keyed` with the load-time keys of a call site's leading constants
    /// (`ListKeys::of_prefix`, as `HostSite::of` takes them) is `of_elems`: the same keys, mask,
    /// tag mask, variables, length and composite hash, for every list of one to four elements
    /// over a few constants and variables and every constant prefix of it.
    #[test]
    fn site_keys_give_the_pattern_of_the_elements() {
        let vals = [
            Cell::Atom(atom::Atom::new("a")),
            Cell::Str(atom::Atom::new("a")),
            Cell::Int(1),
            Cell::Float(-0.0),
            Cell::Ref(7),
            Cell::Ref(9),
        ];
        let mut lists: Vec<Vec<Cell>> = vec![Vec::new()];
        let mut checked = 0;
        for _ in 0..INDEXED {
            lists = lists
                .iter()
                .flat_map(|l| {
                    vals.iter().map(move |&v| {
                        let mut l = l.clone();
                        l.push(v);
                        l
                    })
                })
                .collect();
            for l in &lists {
                let (want, wh) = Candidates::of_elems(l).expect("a short list");
                let consts = l.iter().take_while(|e| e.is_atomic()).count();
                for k in 0..=consts {
                    let keys = ListKeys::of_prefix(&l[..k]);
                    assert_eq!(usize::from(keys.n), k);
                    let (got, gh) = Candidates::of_elems_keyed(&keys, l).expect("a short list");
                    assert_eq!(gh, wh, "{l:?} {k}");
                    assert_eq!(got.parts, want.parts, "{l:?} {k}");
                    assert_eq!(
                        (got.mask, got.tmask, got.len, got.vars),
                        (want.mask, want.tmask, want.len, want.vars),
                        "{l:?} {k}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// (copied by `copy_nested`, tails in a loop) are the words compiled from their terms (cells,
    /// ends, hash and keys: checked inside `into_ground`), their lazily built terms the terms.
    #[test]
    fn keyed_shared_words_are_the_words_of_their_elements() {
        // `Scratch::shared_keyed` (direct mapped by the key hash) gives the word of the elements,
        // as `shared_elems` does, also where another word holds its slot: every flat word of one
        // to three elements over a few values (more words than slots), twice
        let vals = [
            Cell::Atom(atom::NIL),
            Cell::Atom(atom::Atom::new("a")),
            Cell::Str(atom::Atom::new("a")),
            Cell::Int(0),
            Cell::Int(1),
            Cell::Float(0.0),
            Cell::Float(-0.0),
        ];
        let mut words: Vec<Vec<Cell>> = vals.iter().map(|&v| vec![v]).collect();
        for _ in 0..2 {
            let longer: Vec<Vec<Cell>> = words
                .iter()
                .filter(|w| w.len() == words.last().map_or(0, |l| l.len()))
                .flat_map(|w| {
                    vals.iter().map(move |&v| {
                        let mut w = w.clone();
                        w.push(v);
                        w
                    })
                })
                .collect();
            words.extend(longer);
        }
        assert!(words.len() > RECENT_WORDS);
        let mut scratch = Scratch::default();
        let mut store = Store::new();
        for round in 0..2 {
            for elems in &words {
                let (_, h) = Candidates::of_elems(elems).expect("short atomic elements");
                let g = scratch.shared_keyed(elems, h);
                let root = push_list(&mut store, elems);
                let want = store.to_term(root);
                assert!(*g.term() == want, "round {round}: {want:?}");
                assert!(g.same(&scratch.shared_elems(elems)));
            }
        }
        // `Candidates::is_word_of` is `Ground::is_elems`
        let grounds: Vec<Arc<Ground>> = words
            .iter()
            .step_by(3)
            .map(|w| scratch.shared_elems(w))
            .collect();
        for x in words.iter().step_by(2) {
            let (c, _) = Candidates::of_elems(x).expect("short atomic elements");
            for g in &grounds {
                assert_eq!(c.is_word_of(g), g.is_elems(x), "{x:?} {:?}", g.term());
            }
        }
    }

    #[test]
    fn deep_and_long_words_are_copied_exactly() {
        let mut deep = Term::Int(7);
        for i in 0..(NESTED_DEPTH as i64 + 8) {
            deep = if i % 2 == 0 {
                Term::compound("f", vec![deep, Term::Int(i)])
            } else {
                Term::list(vec![Term::atom("a"), deep])
            };
        }
        let long = Term::list(
            (0..100)
                .map(|i| {
                    Term::list(vec![
                        Term::Int(i),
                        Term::compound("g", vec![Term::Float(0.5)]),
                    ])
                })
                .collect(),
        );
        let shallow = Term::list(vec![
            Term::atom("pits"),
            Term::atom("south"),
            Term::list((0..6).map(Term::Int).collect()),
        ]);
        for t in [Term::list(vec![deep]), long, shallow] {
            let mut store = Store::new();
            let h = store.build(&t, &mut Vec::new());
            let mut scratch = Scratch::default();
            let Ok(w) = HeapWord::copy(&store, h, &mut scratch) else {
                panic!("a ground word is copied");
            };
            let eager = Ground::new(t.clone());
            assert!(eager.is_word(&w));
            let g = w.into_ground();
            assert!(g.same(&eager) && eager.same(&g));
            assert_eq!(g.hash_value(), eager.hash_value());
            assert!(*g.term() == t);
        }
    }

    #[test]
    fn a_heap_word_with_a_variable_is_refused() {
        let mut store = Store::new();
        let t = Term::list(vec![Term::atom("a"), Term::Var(0)]);
        let h = store.build(&t, &mut Vec::new());
        let mut scratch = Scratch::default();
        assert!(matches!(HeapWord::copy(&store, h, &mut scratch), Err(true)));
    }
}
