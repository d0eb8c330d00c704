//! Answer terms shared across the states of a session: the legal switch ids and the actions of a
//! game repeat from state to state (a chess move `[white, knight, b, 1, c, 3]` is an answer of
//! `switch/2` in many states), so a ground answer is copied off the heap once and later answers
//! with the same structure share its `Term` (hash-consing). Sharing makes the answers cheap to
//! build (no allocation), to compare (`Arc` identity first) and to drop (a reference count), and
//! the structural hash computed on the heap deduplicates them ([`Interner::distinct`]).

use crate::atom;
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{BuildHasher, Hash, Hasher};

/// Ground terms with more nodes than this are not shared (copied with [`Store::to_term`]).
const MAX_NODES: u32 = 256;
/// The table is emptied when it holds this many terms.
const MAX_TERMS: usize = 1 << 16;

/// Ground answer terms by their structure (see [`encode`]).
#[derive(Default)]
pub(crate) struct Interner {
    /// By the hash of the words ([`encode`]; hashed once per answer): the words and the term. A
    /// term whose hash another one holds is not shared.
    terms: FxHashMap<u64, (Box<[u64]>, Term)>,
    /// Scratch buffers of [`encode`] and [`Interner::distinct`].
    key: Vec<u64>,
    stack: Vec<Cell>,
    seen: FxHashMap<u64, usize>,
    /// The shared terms of recent flat answers ([`gather`]), by a hash of their cells (direct
    /// mapped, [`RECENT_SLOTS`] slots, made at the first one): an answer whose cells are an
    /// entry's gets the entry's term and hash without being encoded and looked up again. Only
    /// terms held by `terms` are entered, and the entries go when `terms` is emptied, so an
    /// answer gets what the table would give it.
    recent: Vec<Option<Recent>>,
    /// No `recent` table (an AI's fork of a session: short-lived, it would zero and free the
    /// table's 96 KB for the few answers it asks for).
    no_recent: bool,
}

/// The elements and tail ([`gather`]) of a recent flat answer, its hash and shared term.
#[derive(Clone)]
struct Recent {
    plain: Plain,
    hash: u64,
    term: Term,
}

/// The cells [`gather`] took, in exact word form: the kind of each (atom 1, integer 2, string 3;
/// two bits a cell, above them the number of elements) and its value (0 past the tail), so that
/// two answers have equal cells exactly when their `kinds` and `vals` are equal (compared without
/// a match on each cell).
#[derive(Clone, Copy)]
struct Plain {
    kinds: u32,
    vals: [u64; RECENT_LEN + 1],
}

/// At most this many elements in a [`Recent`] answer.
const RECENT_LEN: usize = 6;
/// The slots of [`Interner::recent`] (a power of two).
const RECENT_SLOTS: usize = 1024;

/// The elements of the answer at `c` and its tail after them, in word form into `plain`, when it
/// is a proper list (or any list with an atomic tail) of at most [`RECENT_LEN`] atom, integer or
/// string elements, or such an atomic term itself (no elements): a hash of the cells (for the
/// slot). Equal cells of these kinds are equal values, encoded alike.
#[inline(always)]
fn gather(store: &Store, c: Cell, plain: &mut Plain) -> Option<u64> {
    /// The hash word of a cell, its kind and its value ([`Plain`]).
    #[inline(always)]
    fn word(c: Cell) -> Option<(u64, u32, u64)> {
        match c {
            Cell::Atom(a) => Some((u64::from(a.0), 1, u64::from(a.0))),
            Cell::Int(i) => Some(((i as u64) ^ (1 << 62), 2, i as u64)),
            Cell::Str(s) => Some((u64::from(s.0) ^ (1 << 63), 3, u64::from(s.0))),
            _ => None,
        }
    }
    let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95);
    let heap = &store.heap;
    let mut t = store.deref(c);
    let mut n = 0;
    let mut h = 0u64;
    while let Cell::List(p) = t {
        if n == RECENT_LEN {
            return None;
        }
        let e = store.deref(heap[p as usize]);
        let (w, k, v) = word(e)?;
        h = mix(h, w);
        plain.kinds |= k << (2 * n);
        plain.vals[n] = v;
        n += 1;
        t = store.deref(heap[p as usize + 1]);
    }
    let (w, k, v) = word(t)?;
    h = mix(h, w);
    plain.kinds |= (k << (2 * n)) | ((n as u32) << 16);
    plain.vals[n] = v;
    Some(h)
}

impl Plain {
    /// The number of elements ([`gather`]).
    fn len(&self) -> usize {
        (self.kinds >> 16) as usize
    }

    /// The words [`encode_flat`] writes for these cells, into `key` (cleared first).
    fn encode(&self, key: &mut Vec<u64>) {
        key.clear();
        let n = self.len();
        let word = |i: usize, key: &mut Vec<u64>| {
            let v = self.vals[i];
            match (self.kinds >> (2 * i)) & 3 {
                1 => key.push(ATOM | v),
                3 => key.push(STR | v),
                _ => key.extend([INT, v]),
            }
        };
        for i in 0..n {
            key.push(COMPOUND | (2 << 32) | atom::DOT.0 as u64);
            word(i, key);
        }
        word(n, key);
    }

    /// Are these the cells of `other` (`kinds` and every value equal, compared without a call)?
    #[inline(always)]
    fn same(&self, other: &Plain) -> bool {
        let mut diff = u64::from(self.kinds ^ other.kinds);
        for i in 0..RECENT_LEN + 1 {
            diff |= self.vals[i] ^ other.vals[i];
        }
        diff == 0
    }
}

/// An answer and the hash it is deduplicated by: equal terms have equal hashes.
pub(crate) type Hashed = (Term, u64);

impl Interner {
    /// An interner without the table of recent answers (for an AI's fork of a session).
    pub(crate) fn without_recent() -> Interner {
        Interner {
            no_recent: true,
            ..Interner::default()
        }
    }

    /// The term at `c` (as [`Store::to_term`] makes it) and its hash. A small ground term is shared
    /// with the earlier answers of the same structure.
    pub(crate) fn answer(&mut self, store: &Store, c: Cell) -> Hashed {
        let mut plain = Plain {
            kinds: 0,
            vals: [0; RECENT_LEN + 1],
        };
        let quick = gather(store, c, &mut plain);
        let mut slot = usize::MAX;
        if let Some(h) = quick {
            slot = (h >> 32) as usize & (RECENT_SLOTS - 1);
            if let Some(Some(r)) = self.recent.get(slot) {
                if r.plain.same(&plain) {
                    return (r.term.clone(), r.hash);
                }
            }
        }
        self.answer_table(store, c, quick.map(|_| (plain, slot)))
    }

    /// [`Interner::answer`] of the proper list of `elems` (atoms and integers, as a host join
    /// gives them: `crate::game::join`): the same term and hash, the list put on `store` (and
    /// taken off again) only when it is not a recent answer.
    pub(crate) fn answer_list(&mut self, store: &mut Store, elems: &[Cell]) -> Hashed {
        // the cells and hash `gather` takes from the list on the heap
        let mut plain = Plain {
            kinds: 0,
            vals: [0; RECENT_LEN + 1],
        };
        let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95);
        let word = |c: Cell| match c {
            Cell::Atom(a) => Some((u64::from(a.0), 1, u64::from(a.0))),
            Cell::Int(i) => Some(((i as u64) ^ (1 << 62), 2, i as u64)),
            _ => None,
        };
        let mut quick = None;
        if elems.len() <= RECENT_LEN {
            let mut h = 0u64;
            let mut ok = true;
            for (n, &e) in elems.iter().chain(&[Cell::Atom(atom::NIL)]).enumerate() {
                let Some((w, k, v)) = word(e) else {
                    ok = false;
                    break;
                };
                h = mix(h, w);
                plain.kinds |= k << (2 * n);
                plain.vals[n] = v;
            }
            if ok {
                plain.kinds |= (elems.len() as u32) << 16;
                let slot = (h >> 32) as usize & (RECENT_SLOTS - 1);
                if let Some(Some(r)) = self.recent.get(slot) {
                    if r.plain.same(&plain) {
                        return (r.term.clone(), r.hash);
                    }
                }
                quick = Some((plain, slot));
            }
        }
        let mark = store.heap.len();
        let c = crate::game::facts::push_list(store, elems);
        let out = match quick {
            Some(q) => self.answer_table(store, c, Some(q)),
            None => self.answer(store, c),
        };
        store.heap.truncate(mark);
        out
    }

    /// [`Interner::answer`] from the table (`quick`: the answer's cells and slot of `recent` when
    /// it is flat, [`gather`]).
    #[inline(never)]
    fn answer_table(&mut self, store: &Store, c: Cell, quick: Option<(Plain, usize)>) -> Hashed {
        if let Some((plain, _)) = &quick {
            // the words `encode_flat` writes, from the cells gathered
            plain.encode(&mut self.key);
        } else if !encode(store, c, &mut self.key, &mut self.stack) {
            // a variable or a large term: not shared (hashed as a term, with another first word)
            let t = store.to_term(c);
            let mut h = FxHasher::default();
            h.write_u8(0xff);
            t.hash(&mut h);
            return (t, h.finish());
        }
        let hash = self.terms.hasher().hash_one(&self.key[..]);
        if let Some((key, t)) = self.terms.get(&hash) {
            if **key == self.key[..] {
                let t = t.clone();
                if let Some((plain, slot)) = quick {
                    self.remember(slot, plain, hash, &t);
                }
                return (t, hash);
            }
            // another term with the same hash: not shared
            return (store.to_term(c), hash);
        }
        if self.terms.len() >= MAX_TERMS {
            self.terms.clear();
            self.recent.iter_mut().for_each(|r| *r = None);
        }
        let t = store.to_term(c);
        self.terms
            .insert(hash, (self.key.as_slice().into(), t.clone()));
        if let Some((plain, slot)) = quick {
            self.remember(slot, plain, hash, &t);
        }
        (t, hash)
    }

    /// Enters the shared term `t` of the flat answer with cells `plain` ([`gather`]) into slot `slot`
    /// of [`Interner::recent`], in place of the answer there: the answers of the last states are
    /// those asked again (chess: a side's moves two plies later; measured 2026-11-27, keeping the
    /// first answer of a slot instead served 30 % of chess's answers from `recent`).
    #[cold]
    fn remember(&mut self, slot: usize, plain: Plain, hash: u64, t: &Term) {
        if self.no_recent {
            return;
        }
        if self.recent.is_empty() {
            self.recent = vec![None; RECENT_SLOTS];
        }
        self.recent[slot] = Some(Recent {
            plain,
            hash,
            term: t.clone(),
        });
    }
}

/// Tags of the words of [`encode`] (in the top 4 bits).
const ATOM: u64 = 1 << 60;
const INT: u64 = 2 << 60;
const FLOAT: u64 = 3 << 60;
const STR: u64 = 4 << 60;
const COMPOUND: u64 = 5 << 60;

/// Writes the ground term at `c` into `key` as words in preorder, one per node (numbers: a tag word
/// and the value), so that two terms are equal (as [`Term`]s: floats by bit pattern, lists as
/// `'.'/2` compounds, as [`Store::to_term`] writes them) iff their keys are equal. False if the
/// term has a variable or more than [`MAX_NODES`] nodes.
fn encode(store: &Store, c: Cell, key: &mut Vec<u64>, stack: &mut Vec<Cell>) -> bool {
    key.clear();
    if encode_flat(store, c, key) {
        return true;
    }
    key.clear();
    stack.clear();
    stack.push(c);
    let mut nodes = 0u32;
    while let Some(c) = stack.pop() {
        nodes += 1;
        if nodes > MAX_NODES {
            return false;
        }
        match store.deref(c) {
            Cell::Atom(a) => key.push(ATOM | a.0 as u64),
            Cell::Str(s) => key.push(STR | s.0 as u64),
            Cell::Int(i) => key.extend([INT, i as u64]),
            Cell::Float(f) => key.extend([FLOAT, f.to_bits()]),
            Cell::List(p) => {
                key.push(COMPOUND | (2 << 32) | atom::DOT.0 as u64);
                let p = p as usize;
                stack.push(store.heap[p + 1]);
                stack.push(store.heap[p]);
            }
            Cell::Struct(p) => {
                let Cell::Functor(f, n) = store.heap[p as usize] else {
                    return false;
                };
                if n > MAX_NODES {
                    return false;
                }
                key.push(COMPOUND | ((n as u64) << 32) | f.0 as u64);
                let p = p as usize;
                stack.extend(store.heap[p + 1..=p + n as usize].iter().rev());
            }
            Cell::Ref(_) | Cell::Functor(..) | Cell::Var(_) => return false,
        }
    }
    true
}

/// [`encode`] of a proper list of atomic elements with an atomic tail (most switch ids and
/// actions), along its spine without the stack: the same words. False (with `key` partly
/// written) for any other term, which [`encode`] then walks in general.
#[inline]
fn encode_flat(store: &Store, c: Cell, key: &mut Vec<u64>) -> bool {
    let atomic = |c: Cell, key: &mut Vec<u64>| match c {
        Cell::Atom(a) => {
            key.push(ATOM | a.0 as u64);
            true
        }
        Cell::Str(s) => {
            key.push(STR | s.0 as u64);
            true
        }
        Cell::Int(i) => {
            key.extend([INT, i as u64]);
            true
        }
        Cell::Float(f) => {
            key.extend([FLOAT, f.to_bits()]);
            true
        }
        _ => false,
    };
    let mut t = store.deref(c);
    let mut nodes = 1u32;
    while let Cell::List(p) = t {
        nodes += 2;
        if nodes > MAX_NODES {
            return false;
        }
        key.push(COMPOUND | (2 << 32) | atom::DOT.0 as u64);
        let p = p as usize;
        if !atomic(store.deref(store.heap[p]), key) {
            return false;
        }
        t = store.deref(store.heap[p + 1]);
    }
    atomic(t, key)
}

impl Interner {
    /// The distinct terms of `items`, in first-appearance order (as [`Term`] equality decides).
    pub(crate) fn distinct(&mut self, items: Vec<Hashed>) -> Vec<Term> {
        let out = distinct_with(items, &mut self.seen);
        self.seen.clear();
        out
    }
}

/// [`Interner::distinct`]; `first` is an empty scratch table (left filled).
fn distinct_with(items: Vec<Hashed>, first: &mut FxHashMap<u64, usize>) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::with_capacity(items.len());
    if items.len() <= 8 {
        let mut hashes: Vec<u64> = Vec::with_capacity(items.len());
        for (t, h) in items {
            let dup = hashes.iter().zip(&out).any(|(&g, u)| g == h && u == &t);
            if !dup {
                hashes.push(h);
                out.push(t);
            }
        }
        return out;
    }
    // `first`: hash -> index in `out` of the first term with that hash; `more` holds the other
    // indices of terms whose hash is already taken (collisions)
    first.reserve(items.len());
    let mut more: Vec<usize> = Vec::new();
    let mut hashes: Vec<u64> = Vec::with_capacity(items.len());
    for (t, h) in items {
        match first.get(&h) {
            None => {
                first.insert(h, out.len());
            }
            Some(&i) => {
                if out[i] == t || more.iter().any(|&j| hashes[j] == h && out[j] == t) {
                    continue;
                }
                more.push(out.len());
            }
        }
        hashes.push(h);
        out.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::syntax::test_term as t;

    /// Builds `src` on a fresh heap of `store` and interns it.
    fn answer(i: &mut Interner, store: &mut Store, src: &str) -> Hashed {
        let c = store.build(&t(src), &mut Vec::new());
        i.answer(store, c)
    }

    #[test]
    fn equal_ground_answers_share_one_term() {
        let mut i = Interner::default();
        let mut store = Store::new();
        for src in [
            "[white, knight, b, 1, c, 3]",
            "f(\"s\", 1.5, [a|b])",
            "'.'(a, [])",
        ] {
            let (a, ha) = answer(&mut i, &mut store, src);
            let (b, hb) = answer(&mut i, &mut store, src);
            assert_eq!(a, t(src), "{src}");
            assert_eq!(ha, hb, "{src}");
            let (Term::Compound(_, x), Term::Compound(_, y)) = (&a, &b) else {
                panic!("{src} is a compound");
            };
            assert!(Arc::ptr_eq(x, y), "{src} is shared");
        }
    }

    #[test]
    fn recent_flat_answers_get_what_the_table_gives() {
        // the second and third answers come from `recent`: the same term (shared) and hash as a
        // fresh interner computes; answers that differ in one cell stay apart
        let mut i = Interner::default();
        let mut store = Store::new();
        let srcs = [
            "[drop, 3]",
            "[drop, 4]",
            "[drop, \"3\"]",
            "red",
            "7",
            "[a|b]",
            "[a, b, c, d, e, f]",
            "[a, b, c, d, e, f, g]",
            "[1.5]",
            "[]",
        ];
        for src in srcs {
            let (a, ha) = answer(&mut i, &mut store, src);
            let (b, hb) = answer(&mut i, &mut store, src);
            let (c, hc) = answer(&mut i, &mut store, src);
            let (d, hd) = answer(&mut Interner::default(), &mut store, src);
            assert_eq!(a, t(src), "{src}");
            assert_eq!((b, c), (d.clone(), d), "{src}");
            assert_eq!((ha, hb, hc), (hd, hd, hd), "{src}");
        }
        let (x, _) = answer(&mut i, &mut store, "[drop, 3]");
        let (y, _) = answer(&mut i, &mut store, "[drop, 3]");
        let (Term::Compound(_, x), Term::Compound(_, y)) = (&x, &y) else {
            panic!("lists are compounds");
        };
        assert!(Arc::ptr_eq(x, y), "shared");
    }

    #[test]
    fn recent_answers_of_another_kind_with_the_same_value_stay_apart() {
        // an integer, an atom and a string with the same value word ([`Plain`]): an answer whose
        // slot of `recent` holds one of the others (put there, as a collision of slots would)
        // gets its own term
        let mut store = Store::new();
        let slot = |store: &mut Store, l: &Term| {
            let c = store.build(l, &mut Vec::new());
            let mut plain = Plain {
                kinds: 0,
                vals: [0; RECENT_LEN + 1],
            };
            let h = gather(store, c, &mut plain).expect("a flat answer");
            (h >> 32) as usize & (RECENT_SLOTS - 1)
        };
        let a = atom::Atom::new("kw22_same_value");
        let ls = [Term::Int(i64::from(a.0)), Term::Atom(a), Term::Str(a)]
            .map(|x| Term::list(vec![Term::atom("d"), x]));
        for first in &ls {
            for other in &ls {
                let mut i = Interner::default();
                let c = store.build(first, &mut Vec::new());
                assert_eq!(i.answer(&store, c).0, *first);
                // `first`'s entry moved into `other`'s slot
                let (from, to) = (slot(&mut store, first), slot(&mut store, other));
                let entry = i.recent[from].take();
                assert!(entry.is_some(), "remembered");
                i.recent[to] = entry;
                let c = store.build(other, &mut Vec::new());
                assert_eq!(i.answer(&store, c).0, *other, "{first:?} then {other:?}");
            }
        }
    }

    #[test]
    fn a_recent_slot_is_taken_over_by_the_newest_answer() {
        // two answers in one slot (one moved into the other's, as a collision of slots would
        // put them): each is still the term and hash a fresh interner gives, and the slot then
        // holds the one asked last
        let mut store = Store::new();
        let mut i = Interner::default();
        let (a, b) = (t("[drop, 1]"), t("[drop, 2]"));
        let mut plain = Plain {
            kinds: 0,
            vals: [0; RECENT_LEN + 1],
        };
        let cb = store.build(&b, &mut Vec::new());
        let hb = gather(&store, cb, &mut plain).expect("flat");
        let slot_b = (hb >> 32) as usize & (RECENT_SLOTS - 1);
        let ca = store.build(&a, &mut Vec::new());
        let want_a = Interner::default().answer(&store, ca);
        let want_b = Interner::default().answer(&store, cb);
        assert_eq!(i.answer(&store, ca), want_a);
        let mut plain = Plain {
            kinds: 0,
            vals: [0; RECENT_LEN + 1],
        };
        let ha = gather(&store, ca, &mut plain).expect("flat");
        let slot_a = (ha >> 32) as usize & (RECENT_SLOTS - 1);
        assert_ne!(slot_a, slot_b, "the test needs two slots");
        // `a`'s entry in `b`'s slot
        i.recent[slot_b] = i.recent[slot_a].take();
        for _ in 0..2 {
            assert_eq!(i.answer(&store, cb), want_b);
            let r = i.recent[slot_b].as_ref().expect("remembered");
            assert_eq!((&r.term, r.hash), (&want_b.0, want_b.1), "taken over");
        }
        assert_eq!(i.answer(&store, ca), want_a);
    }

    #[test]
    fn an_interner_without_recent_answers_gives_the_same_terms() {
        // an AI fork's interner: no table of recent answers is made, and every answer is the term
        // and hash the full interner gives, shared with its earlier asking
        let mut store = Store::new();
        let (mut full, mut fork) = (Interner::default(), Interner::without_recent());
        for round in 0..3 {
            for src in ["[drop, 3]", "[drop, 4]", "red", "[a|b]", "[1.5]", "f(X)"] {
                let c = store.build(&t(src), &mut Vec::new());
                let (a, b) = (full.answer(&store, c), fork.answer(&store, c));
                assert_eq!(a, b, "{src}, round {round}");
            }
        }
        assert!(!full.recent.is_empty() && fork.recent.is_empty());
        let c = store.build(&t("[drop, 3]"), &mut Vec::new());
        let (x, y) = (fork.answer(&store, c).0, fork.answer(&store, c).0);
        let (Term::Compound(_, x), Term::Compound(_, y)) = (&x, &y) else {
            panic!("lists are compounds");
        };
        assert!(Arc::ptr_eq(x, y), "shared through the table");
    }

    #[test]
    fn answers_that_differ_stay_apart() {
        let mut i = Interner::default();
        let mut store = Store::new();
        // floats by bit pattern, strings apart from atoms, variables not shared
        let srcs = [
            "f(0.0)", "f(-0.0)", "g(\"a\")", "g(a)", "h(X, X)", "h(X, Y)", "[a]", "[a, b]",
        ];
        let answers: Vec<Hashed> = srcs.iter().map(|s| answer(&mut i, &mut store, s)).collect();
        for (s, (a, _)) in srcs.iter().zip(&answers) {
            assert_eq!(crate::write::canonical(a), crate::write::canonical(&t(s)));
        }
        let d = i.distinct(answers);
        assert_eq!(d.len(), srcs.len());
    }

    #[test]
    fn distinct_keeps_first_appearances_in_order_even_on_hash_collisions() {
        // every item with the same hash: equality alone decides
        for n in [3usize, 20] {
            let items: Vec<Hashed> = (0..n)
                .flat_map(|k| {
                    [
                        (Term::Int((k % 5) as i64), 7),
                        (t(&format!("f({})", k % 4)), 7),
                    ]
                })
                .collect();
            let want: Vec<Term> = {
                let mut v: Vec<Term> = Vec::new();
                for (x, _) in &items {
                    if !v.contains(x) {
                        v.push(x.clone());
                    }
                }
                v
            };
            assert_eq!(Interner::default().distinct(items), want, "n = {n}");
        }
    }
}
