//! Memo tables: call keys (flat and general), the tables with their cache of recent hits, and
//! the stored answers of a call.

use super::*;

/// A memo table key: the predicate, then its argument tuple serialized in pre-order (two words per
/// cell, variables numbered by first occurrence), so that two calls have the same key exactly when
/// their argument tuples are variants of each other.
pub(super) type LongKey = Box<[u64]>;

/// Words of a [`FlatKey`]: the header, one per argument, the context id.
pub(super) const FLAT_WORDS: usize = FLAT_KEY_ARITY + 2;

/// The key of a call whose arguments are all atomic or unbound variables (arity up to
/// [`FLAT_KEY_ARITY`]), made by [`memo_key_flat`]: word 0 packs the predicate (bits 0..32), the
/// argument tags (3 bits each from bit 32) and the arity (from bit 56); then one word per argument
/// (the atom, number or float bits, or the variable's number by first occurrence); the last word is
/// the context id (0 if none). Unused words are 0. Such calls are always keyed this way and longer
/// ones by [`memo_key`] in a separate map, so the two forms never meet.
///
/// `hash` is computed while the key is built ([`memo_key_flat`]) and used as is by the table's
/// hasher ([`KeyHasher`]).
#[derive(Clone, Copy, Eq, Debug)]
pub(super) struct FlatKey {
    pub(super) hash: u64,
    pub(super) w: [u64; FLAT_WORDS],
}

impl PartialEq for FlatKey {
    /// Every word equal (as derived), without a call to `bcmp`: the words are folded with xor
    /// and or, which compiles to a few vector instructions.
    #[inline(always)]
    fn eq(&self, o: &FlatKey) -> bool {
        let d = self
            .w
            .iter()
            .zip(o.w.iter())
            .fold(self.hash ^ o.hash, |d, (a, b)| d | (a ^ b));
        d == 0
    }
}

impl FlatKey {
    /// `self == o` for two keys of calls of arity `n` made by [`key_cells`]: the words past the
    /// arguments are 0 in both (the arity is in word 0), so only the hash, word 0, the `n`
    /// argument words and the context id are compared.
    #[inline(always)]
    pub(super) fn eq_first(&self, o: &FlatKey, n: usize) -> bool {
        let mut d = (self.hash ^ o.hash)
            | (self.w[0] ^ o.w[0])
            | (self.w[FLAT_WORDS - 1] ^ o.w[FLAT_WORDS - 1]);
        let (a, b) = (&self.w[1..FLAT_WORDS - 1], &o.w[1..FLAT_WORDS - 1]);
        for i in 0..n.min(FLAT_KEY_ARITY) {
            d |= a[i] ^ b[i];
        }
        d == 0
    }
}

impl std::hash::Hash for FlatKey {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Mixes word `w` into hash `h` (the FxHash step).
#[inline(always)]
pub(super) fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// The hasher of [`FlatKey`] maps: the key's precomputed hash, unchanged.
#[derive(Default, Clone, Copy)]
pub(super) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write_u64(&mut self, h: u64) {
        self.0 = h;
    }
    fn write(&mut self, bytes: &[u8]) {
        // not used by `FlatKey`; kept correct for any other key
        for &b in bytes {
            self.0 = mix(self.0, b as u64);
        }
    }
}

pub(super) type FlatMap =
    std::collections::HashMap<FlatKey, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// The key of a fill: flat or general.
#[derive(Debug)]
pub(super) enum MemoKey {
    Flat(FlatKey),
    Long(LongKey),
}

/// Slots of a [`MemoTable`]'s cache of recent flat hits (a power of two).
pub(super) const MEMO_CACHE_SLOTS: usize = 256;

/// A slot of a [`MemoTable`]'s cache: `key` maps to entry `e` while `gen` is the table's.
#[derive(Clone, Copy, Debug)]
pub(super) struct CacheSlot {
    pub(super) key: FlatKey,
    pub(super) e: u32,
    pub(super) gen: u32,
}

/// A memo table: flat keys and general ones in two maps, and a direct-mapped cache of recently
/// found flat keys in front of the flat map (a slot is valid only in the generation it was written
/// in; `clear` starts a new one; `insert` rewrites the key's slot, so the cache always agrees with
/// the map). The cache (24 KB) is allocated at the table's first insertion: a machine that
/// memoizes nothing (most of the AI's short-lived search sessions) does not pay for clearing it.
#[derive(Debug)]
pub(super) struct MemoTable {
    pub(super) flat: FlatMap,
    pub(super) long: rustc_hash::FxHashMap<LongKey, u32>,
    /// Empty until the first insertion, then [`MEMO_CACHE_SLOTS`] slots.
    pub(super) cache: Box<[CacheSlot]>,
    pub(super) gen: u32,
}

/// A slot that is valid in no generation.
const EMPTY_SLOT: CacheSlot = CacheSlot {
    key: FlatKey {
        hash: 0,
        w: [0; FLAT_WORDS],
    },
    e: 0,
    gen: 0,
};

impl Default for MemoTable {
    fn default() -> Self {
        MemoTable {
            flat: FlatMap::default(),
            long: Default::default(),
            cache: Box::new([]),
            gen: 1,
        }
    }
}

impl MemoTable {
    /// The cache slot of flat key `k`.
    #[inline(always)]
    pub(super) fn slot(&mut self, k: &FlatKey) -> &mut CacheSlot {
        if self.cache.is_empty() {
            self.cache = vec![EMPTY_SLOT; MEMO_CACHE_SLOTS].into_boxed_slice();
        }
        let i = k.hash as usize % MEMO_CACHE_SLOTS;
        &mut self.cache[i]
    }

    /// The entry of flat key `k`, through the cache.
    #[inline(always)]
    pub(super) fn get_flat(&mut self, k: &FlatKey) -> Option<u32> {
        let gen = self.gen;
        let i = k.hash as usize % MEMO_CACHE_SLOTS;
        if let Some(s) = self.cache.get(i) {
            if s.gen == gen && s.key == *k {
                return Some(s.e);
            }
        }
        let e = self.flat.get(k).copied()?;
        *self.slot(k) = CacheSlot { key: *k, e, gen };
        Some(e)
    }

    pub(super) fn insert(&mut self, key: MemoKey, e: u32) {
        match key {
            MemoKey::Flat(k) => {
                let gen = self.gen;
                *self.slot(&k) = CacheSlot { key: k, e, gen };
                self.flat.insert(k, e);
            }
            MemoKey::Long(k) => {
                self.long.insert(k, e);
            }
        }
    }

    pub(super) fn clear(&mut self) {
        self.flat.clear();
        self.long.clear();
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            // generations wrapped: no slot may look valid any more
            for s in self.cache.iter_mut() {
                s.gen = 0;
            }
            self.gen = 1;
        }
    }
}

/// Serializes the call `pred(args...)` into `words` as a [`MemoKey`]; `vars` is scratch space.
/// Returns `false` (leaving `words` unspecified) for argument tuples of more than `MEMO_KEY_MAX`
/// cells, which are not memoized through this path (also keeps cyclic terms finite).
pub(super) fn memo_key(
    store: &Store,
    pred: u32,
    args: u32,
    arity: u32,
    words: &mut Vec<u64>,
    vars: &mut Vec<u32>,
    stack: &mut Vec<Cell>,
) -> bool {
    words.clear();
    vars.clear();
    stack.clear();
    words.push(pred as u64);
    for i in (0..arity).rev() {
        stack.push(store.heap[(args + i) as usize]);
    }
    while let Some(c) = stack.pop() {
        if words.len() > 2 * MEMO_KEY_MAX {
            return false;
        }
        let (tag, v): (u64, u64) = match store.deref(c) {
            Cell::Ref(a) => match vars.iter().position(|&x| x == a) {
                Some(i) => (0, i as u64),
                None => {
                    vars.push(a);
                    (0, (vars.len() - 1) as u64)
                }
            },
            Cell::Atom(a) => (1, a.0 as u64),
            Cell::Int(i) => (2, i as u64),
            Cell::Float(f) => (3, f.to_bits()),
            Cell::Str(a) => (4, a.0 as u64),
            Cell::Struct(p) => {
                let Cell::Functor(f, n) = store.heap[p as usize] else {
                    unreachable!("struct without header")
                };
                for i in (1..=n).rev() {
                    stack.push(store.heap[(p + i) as usize]);
                }
                (6, ((f.0 as u64) << 32) | n as u64)
            }
            Cell::List(p) => {
                stack.push(store.heap[p as usize + 1]);
                stack.push(store.heap[p as usize]);
                (7, 0)
            }
            Cell::Functor(..) | Cell::Var(_) => unreachable!("not a value"),
        };
        words.push(tag);
        words.push(v);
    }
    true
}

/// Arity up to which [`memo_key_flat`] serializes a call.
pub(super) const FLAT_KEY_ARITY: usize = 8;

/// A call keyed by [`memo_key_flat`].
pub(super) struct FlatCall {
    pub(super) key: FlatKey,
    /// Argument positions bound to atomic values (their values are in the key).
    pub(super) bound: u32,
    /// Argument positions holding the first occurrence of an unbound variable, and its address.
    pub(super) first: u32,
    pub(super) refs: [u32; FLAT_KEY_ARITY],
}

impl FlatCall {
    /// Answers the call from `entry`, the table entry of its own key (whose answers are instances
    /// of the call), when that takes no choicepoint: `Some(false)` when the entry has no answer
    /// (e.g. `xvalue(h, X, 1)` off the board), `Some(true)` after binding the call's variables to
    /// the entry's one atomic ground answer (nothing can fail); `None` when the answers must be
    /// served (several, compound, or counted by a per-state trial).
    #[inline(always)]
    pub(super) fn answer_at_once(&self, store: &mut Store, entry: &MemoEntry) -> Option<bool> {
        if entry.list.is_empty() {
            return Some(false);
        }
        if !entry.single_atomic || entry.trial.is_some() {
            return None;
        }
        let vals = &entry.cells[1..];
        let mut f = self.first;
        while f != 0 {
            let j = f.trailing_zeros() as usize;
            store.bind(self.refs[j], vals[j]);
            f &= f - 1;
        }
        Some(true)
    }
}

/// Memo entry `e`: of the per-state table when it has [`STATE_ENTRY`] set, else of the argument
/// table.
#[inline(always)]
pub(super) fn entry_of<'a>(state: &'a [MemoEntry], memo: &'a [MemoEntry], e: u32) -> &'a MemoEntry {
    if e & STATE_ENTRY != 0 {
        &state[(e & !STATE_ENTRY) as usize]
    } else {
        &memo[e as usize]
    }
}

/// Keys the call `pred(args...)` with context id `cid` as a [`FlatKey`]; `None` when the arity is
/// above [`FLAT_KEY_ARITY`] or an argument is compound. All arities go through [`key_cells`]; the
/// hot hit paths ([`Machine::call_memo_args`], [`Machine::memo_answer_exists`]) call it with a
/// fixed length for arities 1 to 4 (and 5 in `Machine::call_memo_args`: kalah's `store/5`)
/// instead (`Machine::flat_key`), which gives the same key.
#[inline(always)]
pub(super) fn memo_key_flat(
    store: &Store,
    pred: u32,
    args: u32,
    arity: u32,
    cid: u64,
) -> Option<FlatCall> {
    if arity as usize > FLAT_KEY_ARITY {
        return None;
    }
    let a = args as usize;
    key_cells(store, pred, &store.heap[a..a + arity as usize], cid)
}

/// [`memo_key_flat`] out of line (the uncommon arities of [`Machine::memo_answer_exists`]).
#[inline(never)]
pub(super) fn memo_key_flat_cold(
    store: &Store,
    pred: u32,
    args: u32,
    arity: u32,
    cid: u64,
) -> Option<FlatCall> {
    memo_key_flat(store, pred, args, arity, cid)
}

/// The key of [`memo_key_flat`] from the call's argument cells (at most [`FLAT_KEY_ARITY`]).
/// Inlined where `cells` has a known length, so that its loop is unrolled.
#[inline(always)]
pub(super) fn key_cells(store: &Store, pred: u32, cells: &[Cell], cid: u64) -> Option<FlatCall> {
    let mut w = [0u64; FLAT_WORDS];
    let mut refs = [0u32; FLAT_KEY_ARITY];
    let mut h = 0u64;
    let mut tags = 0u64;
    let mut bound = 0u32;
    let mut first = 0u32;
    for (j, &c) in cells.iter().enumerate() {
        let c = match c {
            Cell::Ref(_) => store.deref(c),
            c => c,
        };
        let (tag, v): (u64, u64) = match c {
            Cell::Atom(a) => (1, a.0 as u64),
            Cell::Ref(a) => {
                // the variable's number: the number of the first position holding it
                let mut k = 0;
                let mut f = first;
                while f != 0 {
                    let i = f.trailing_zeros() as usize;
                    if refs[i] == a {
                        break;
                    }
                    k += 1;
                    f &= f - 1;
                }
                if f == 0 {
                    refs[j] = a;
                    first |= 1 << j;
                }
                (0, k)
            }
            Cell::Int(i) => (2, i as u64),
            Cell::Float(f) => (3, f.to_bits()),
            Cell::Str(a) => (4, a.0 as u64),
            _ => return None,
        };
        if tag != 0 {
            bound |= 1 << j;
        }
        tags |= tag << (3 * j);
        w[j + 1] = v;
        h = mix(h, v);
    }
    w[0] = pred as u64 | (tags << 32) | ((cells.len() as u64) << 56);
    w[FLAT_WORDS - 1] = cid;
    Some(FlatCall {
        key: FlatKey {
            hash: mix(mix(h, w[0]), cid).rotate_left(26),
            w,
        },
        bound,
        first,
        refs,
    })
}

/// An atomic cell as two words (its kind, its value; floats by bit pattern): two atomic cells
/// unify exactly when their codes are equal.
#[inline(always)]
pub(super) fn atomic_code(c: Cell) -> [u64; 2] {
    match c {
        Cell::Atom(a) => [1, a.0 as u64],
        Cell::Int(i) => [2, i as u64],
        Cell::Float(f) => [3, f.to_bits()],
        Cell::Str(a) => [4, a.0 as u64],
        _ => [0, 0],
    }
}

/// A set of predicate numbers (a flag per predicate: asked on every call of a memoized one).
#[derive(Default, Debug)]
pub(super) struct PredSet(Vec<bool>);

impl PredSet {
    #[inline]
    pub(super) fn contains(&self, p: &u32) -> bool {
        self.0.get(*p as usize).copied().unwrap_or(false)
    }

    pub(super) fn insert(&mut self, p: u32) {
        let i = p as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, false);
        }
        self.0[i] = true;
    }
}

/// Marks entry numbers of the per-state tables.
pub(super) const STATE_ENTRY: u32 = 1 << 31;

/// The argument-keyed memo entry of a call whose filling threw: the call runs directly.
pub(super) const MEMO_THROWS: u32 = u32::MAX;

/// Argument tuples larger than this many cells are not memoized.
pub(super) const MEMO_KEY_MAX: usize = 256;

/// The answers of a memoized call, each a relocatable argument tuple `','(A1, ..., An)` made by
/// [`Store::copy_out`] into one shared buffer (addresses are indices of `cells`).
#[derive(Default, Debug)]
pub(super) struct Answers {
    pub(super) cells: Vec<Cell>,
    /// Per answer: where its tuple starts in `cells` (its root is `Struct(start)`), and whether it
    /// is ground (then it is unified straight from `cells`, without copying it onto the heap).
    pub(super) list: Vec<(u32, bool)>,
    /// One ground answer whose arguments are all atomic (set by [`Answers::seal`]): a call
    /// keyed by [`memo_key_flat`] then binds its variables to the answer's cells `1..=arity`.
    pub(super) single_atomic: bool,
    /// Every answer is ground and its arguments are atomic (set by [`Answers::seal`]): answer `i`'s
    /// arguments are `cells[i * (arity + 1) + 1..][..arity]`, served by [`Machine::serve_atomic`].
    pub(super) atomic: bool,
    /// For an `atomic` entry: [`atomic_code`] of each answer's arguments (`arity` per answer).
    pub(super) codes: Vec<[u64; 2]>,
    /// A per-state entry made while its predicate's kinds are measured: (predicate, kind) whose
    /// [`StateStat::tried`] counts the answers tried.
    pub(super) trial: Option<(u32, usize)>,
}

impl Answers {
    /// The fill is complete.
    pub(super) fn seal(&mut self, arity: u32) {
        self.single_atomic = self.list.len() == 1
            && self.list[0] == (0, true)
            && self.cells.len() == 1 + arity as usize
            && self.cells[1..]
                .iter()
                .all(|c| !matches!(c, Cell::Struct(_) | Cell::List(_) | Cell::Ref(_)));
        let stride = 1 + arity as usize;
        self.atomic = self.cells.len() == self.list.len() * stride
            && self
                .list
                .iter()
                .enumerate()
                .all(|(i, &(s, g))| g && s as usize == i * stride)
            // answer by answer (the length is a multiple of `stride` here): no division per cell
            && self.cells.chunks_exact(stride).all(|answer| {
                answer[1..].iter().all(|c| {
                    matches!(
                        c,
                        Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Str(_)
                    )
                })
            });
        if self.atomic {
            let mut codes = Vec::with_capacity(self.list.len() * (stride - 1));
            for answer in self.cells.chunks_exact(stride) {
                codes.extend(answer[1..].iter().map(|&c| atomic_code(c)));
            }
            self.codes = codes;
        }
    }

    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// Appends the argument tuple at `args` as an answer.
    pub(super) fn push(&mut self, store: &mut Store, args: u32, arity: u32) {
        // an answer of atomic values (chess's `controlled/6`): the cells `copy_out` would make,
        // without its variable map and work stack
        let atomic = |c: Cell| {
            matches!(
                c,
                Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Str(_)
            )
        };
        if (0..arity).all(|j| atomic(store.deref(store.heap[(args + j) as usize]))) {
            let start = self.cells.len() as u32;
            self.cells.push(Cell::Functor(atom::COMMA, arity));
            for j in 0..arity {
                self.cells
                    .push(store.deref(store.heap[(args + j) as usize]));
            }
            self.list.push((start, true));
            return;
        }
        let p = store.len();
        store.heap.push(Cell::Functor(atom::COMMA, arity));
        store
            .heap
            .extend_from_within(args as usize..(args + arity) as usize);
        let start = self.cells.len() as u32;
        store.copy_out(Cell::Struct(p), &mut self.cells);
        store.heap.truncate(p as usize);
        let ground = !self.cells[start as usize..]
            .iter()
            .any(|c| matches!(c, Cell::Ref(_)));
        self.list.push((start, ground));
    }

    /// Unifies answer `i` with the call's arguments at `args`, except the positions in `skip`.
    /// Bindings are made (and trailed) as usual; on failure the caller undoes them.
    #[inline]
    pub(super) fn unify(
        &self,
        store: &mut Store,
        i: usize,
        args: u32,
        arity: u32,
        skip: u32,
    ) -> bool {
        let (start, end) = self.span(i);
        if self.list[i].1 {
            // ground: unified in place, copied onto the heap only where a variable takes a
            // compound
            let seg = &self.cells[..end as usize];
            let mut base = None;
            (0..arity).all(|j| {
                skip & (1 << j) != 0 || {
                    let a = seg[(start + 1 + j) as usize];
                    let b = store.heap[(args + j) as usize];
                    store.unify_seg(seg, start, a, b, &mut base)
                }
            })
        } else {
            let t = store.copy_in_at(&self.cells[start as usize..end as usize], start);
            (0..arity).all(|j| {
                skip & (1 << j) != 0 || {
                    let a = store.arg(t, j);
                    let b = store.heap[(args + j) as usize];
                    store.unify(a, b)
                }
            })
        }
    }

    /// A quick necessary condition for [`Answers::unify`]: every call argument in `bound` (its
    /// position and atomic value) equals the ground answer's cell there (floats by bit pattern; a
    /// compound there never unifies with an atomic value). A non-ground answer always passes.
    #[inline]
    pub(super) fn may_unify(&self, i: usize, bound: &[(u32, Cell)]) -> bool {
        let (start, ground) = self.list[i];
        !ground
            || bound
                .iter()
                .all(|&(j, b)| match (self.cells[(start + 1 + j) as usize], b) {
                    (Cell::Float(x), Cell::Float(y)) => x.to_bits() == y.to_bits(),
                    (a @ (Cell::Atom(_) | Cell::Int(_) | Cell::Str(_) | Cell::Float(_)), b) => {
                        a == b
                    }
                    (Cell::Struct(_) | Cell::List(_), _) => false,
                    _ => true,
                })
    }

    /// The cells of answer `i`.
    pub(super) fn span(&self, i: usize) -> (u32, u32) {
        let start = self.list[i].0;
        let end = self
            .list
            .get(i + 1)
            .map_or(self.cells.len() as u32, |a| a.0);
        (start, end)
    }
}

pub(super) type MemoEntry = Answers;
