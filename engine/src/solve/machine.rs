//! The resolution machine: an iterative interpreter with an explicit continuation (frame) stack and
//! choicepoint stack. No Rust recursion per Prolog call, so deep recursion is bounded only by the
//! budgets in [`Limits`], never by the native stack.
//!
//! Model:
//! - A *frame* is a continuation: "run this, then continue with frame `next`". A clause activation is
//!   one `Body` frame per goal position, holding the clause's variable environment (a block of heap
//!   cells). Frames are immutable once made and only ever point to older frames, so a frame at the top
//!   of the frame stack that no choicepoint protects can be popped as soon as it runs: a deterministic
//!   tail call runs in constant frame space (last-call optimisation).
//! - A *choicepoint* records heap, trail and frame stack heights plus what to try next. Backtracking
//!   restores the heights (undoing trailed bindings) and resumes.
//! - Cut is clause-local: every frame carries the choicepoint height (`cutb`) its `!` cuts back to.
//! - Exceptions unwind the choicepoint stack to the newest active `catch/3` whose catcher unifies.
//! - `findall/3` collects copies of the template in a side segment of cells, outside the heap, so that
//!   backtracking inside it does not destroy them.

use crate::atom::{self, Atom};
use crate::rng::Rng;
use crate::solve::builtins::{Builtin, Ctx, Det};
use crate::solve::host::Host;
use crate::solve::program::{ClauseT, Control, Dispatch, Key, Program, ProgramData};
use crate::solve::store::{relocate, Cell, Store, TrailEntry};
use crate::term::Term;
use std::sync::Arc;

/// Budgets of one query. Exceeding one ends the query with [`ErrorKind::Budget`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Calls (of any predicate, built-in or user) and built-in retries.
    pub max_inferences: u64,
    /// Heap cells, including `findall/3` collections.
    pub max_heap_cells: usize,
    /// Open choicepoints.
    pub max_choicepoints: usize,
    /// Pending continuation frames (the depth of non-tail recursion).
    pub max_frames: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_inferences: 10_000_000,
            max_heap_cells: 32 << 20,
            max_choicepoints: 4 << 20,
            max_frames: 8 << 20,
        }
    }
}

impl Limits {
    /// No practical limit (benchmarks).
    pub fn unlimited() -> Limits {
        Limits {
            max_inferences: u64::MAX,
            max_heap_cells: usize::MAX,
            max_choicepoints: usize::MAX,
            max_frames: usize::MAX,
        }
    }
}

/// Why a query stopped with an error.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    /// An exception nobody caught; the ball is in [`SolveError::ball`].
    Uncaught,
    /// A budget of [`Limits`] was exhausted (not catchable by the program).
    Budget(&'static str),
}

/// A query that ended in an error.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveError {
    pub kind: ErrorKind,
    /// The thrown term (for budgets: `error(resource_error(Limit), context(PI, _))`).
    pub ball: Term,
    /// A readable message.
    pub message: String,
    /// The predicate being run when the error happened.
    pub predicate: Option<(Atom, u32)>,
    /// The call path from the query to the failing call, outermost first (user predicates only).
    pub path: Vec<(Atom, u32)>,
    /// For each predicate of `path`, the span of its clause being run (`None`: a library clause).
    pub path_spans: Box<[Option<crate::diag::Span>]>,
}

impl SolveError {
    /// Source span of the innermost clause of the program (not of the library) on the call path:
    /// the clause whose goal raised the error, or that called the library predicate that did.
    pub fn span(&self) -> Option<crate::diag::Span> {
        self.path_spans.iter().rev().find_map(|s| *s)
    }
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

const NO_FRAME: u32 = u32::MAX;
const CATCH_FLAG: u32 = 1 << 31;

/// Slots of [`Machine::resolve_goal`]'s direct-mapped cache (a power of two).
const RESOLVE_SLOTS: usize = 64;

#[inline(always)]
fn resolve_slot(name: Atom, arity: u32) -> usize {
    // the top bits of a multiplicative hash
    ((name.0 ^ arity.rotate_right(8)).wrapping_mul(0x9E37_79B9)
        >> (32 - RESOLVE_SLOTS.trailing_zeros())) as usize
}

#[derive(Clone, Copy, Debug)]
enum FrameKind {
    /// Run goal `pc` of a clause body with environment `env`.
    Body {
        pred: u32,
        clause: u32,
        pc: u32,
        env: u32,
    },
    /// Call a term (meta-call).
    Goal {
        goal: Cell,
    },
    /// Commit an if-then-else: cut back to `height`.
    CutTo {
        height: u32,
    },
    /// `*->`: disable the else-branch choicepoint.
    SoftCut {
        cp: u32,
    },
    /// The goal of a `catch/3` exited.
    PopCatch {
        cp: u32,
    },
    /// Copy a findall template into collector `id`, then fail.
    Collect {
        id: u32,
        template: Cell,
    },
    /// Record the argument tuple as an answer of memo fill `fill`, then fail.
    MemoCollect {
        fill: u32,
        args: u32,
        arity: u32,
    },
    // the goal of a negation (`\+`, `not/1`) succeeded: cut back to `height` (removing the
    // negation's choicepoint) and fail
    NotExit {
        height: u32,
    },
    /// The query succeeded.
    Stop,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: FrameKind,
    cutb: u32,
    next: u32,
}

#[derive(Clone, Copy, Debug)]
enum CpKind {
    Clauses {
        pred: u32,
        list: u32,
        pos: u32,
        args: u32,
    },
    Alt {
        goal: Cell,
    },
    /// A negation whose goal has not succeeded (yet): backtracking into it continues at `next`.
    Not,
    Native {
        f: Builtin,
        args: u32,
        arity: u32,
        state: u64,
        name: Atom,
    },
    Host {
        id: u32,
        args: u32,
        arity: u32,
        state: u64,
        name: Atom,
    },
    Catch {
        catcher: Cell,
        recovery: Cell,
        active: bool,
    },
    Findall {
        id: u32,
        result: Cell,
        tail: Option<Cell>,
    },
    Dead,
    /// Computing every answer of a memoized call (`args`: the call's arguments; the answers may be
    /// those of a generalisation of it, for per-state tables).
    MemoFill {
        fill: u32,
        pred: u32,
        args: u32,
        arity: u32,
    },
    /// Serving the remaining answers of a memo entry.
    MemoServe {
        entry: u32,
        pos: u32,
        args: u32,
        arity: u32,
        /// Argument positions not unified (see [`Machine::serve_memo`]).
        skip: u32,
    },
}

/// A memo table key: the predicate, then its argument tuple serialized in pre-order (two words per
/// cell, variables numbered by first occurrence), so that two calls have the same key exactly when
/// their argument tuples are variants of each other.
type LongKey = Box<[u64]>;

/// Words of a [`FlatKey`]: the header, one per argument, the context id.
const FLAT_WORDS: usize = FLAT_KEY_ARITY + 2;

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
struct FlatKey {
    hash: u64,
    w: [u64; FLAT_WORDS],
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

impl std::hash::Hash for FlatKey {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Mixes word `w` into hash `h` (the FxHash step).
#[inline(always)]
fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// The hasher of [`FlatKey`] maps: the key's precomputed hash, unchanged.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

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

type FlatMap = std::collections::HashMap<FlatKey, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// The key of a fill: flat or general.
#[derive(Debug)]
enum MemoKey {
    Flat(FlatKey),
    Long(LongKey),
}

/// Slots of a [`MemoTable`]'s cache of recent flat hits (a power of two).
const MEMO_CACHE_SLOTS: usize = 256;

/// A slot of a [`MemoTable`]'s cache: `key` maps to entry `e` while `gen` is the table's.
#[derive(Clone, Copy, Debug)]
struct CacheSlot {
    key: FlatKey,
    e: u32,
    gen: u32,
}

/// A memo table: flat keys and general ones in two maps, and a direct-mapped cache of recently
/// found flat keys in front of the flat map (a slot is valid only in the generation it was written
/// in; `clear` starts a new one; `insert` rewrites the key's slot, so the cache always agrees with
/// the map).
#[derive(Debug)]
struct MemoTable {
    flat: FlatMap,
    long: rustc_hash::FxHashMap<LongKey, u32>,
    cache: Box<[CacheSlot]>,
    gen: u32,
}

impl Default for MemoTable {
    fn default() -> Self {
        let empty = CacheSlot {
            key: FlatKey {
                hash: 0,
                w: [0; FLAT_WORDS],
            },
            e: 0,
            gen: 0,
        };
        MemoTable {
            flat: FlatMap::default(),
            long: Default::default(),
            cache: vec![empty; MEMO_CACHE_SLOTS].into_boxed_slice(),
            gen: 1,
        }
    }
}

impl MemoTable {
    /// The cache slot of flat key `k`.
    #[inline(always)]
    fn slot(&mut self, k: &FlatKey) -> &mut CacheSlot {
        let i = k.hash as usize % MEMO_CACHE_SLOTS;
        &mut self.cache[i]
    }

    /// The entry of flat key `k`, through the cache.
    #[inline(always)]
    fn get_flat(&mut self, k: &FlatKey) -> Option<u32> {
        let gen = self.gen;
        let i = k.hash as usize % MEMO_CACHE_SLOTS;
        let s = &self.cache[i];
        if s.gen == gen && s.key == *k {
            return Some(s.e);
        }
        let e = self.flat.get(k).copied()?;
        *self.slot(k) = CacheSlot { key: *k, e, gen };
        Some(e)
    }

    fn insert(&mut self, key: MemoKey, e: u32) {
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

    fn clear(&mut self) {
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
fn memo_key(
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
const FLAT_KEY_ARITY: usize = 8;

/// A call keyed by [`memo_key_flat`].
struct FlatCall {
    key: FlatKey,
    /// Argument positions bound to atomic values (their values are in the key).
    bound: u32,
    /// Argument positions holding the first occurrence of an unbound variable, and its address.
    first: u32,
    refs: [u32; FLAT_KEY_ARITY],
}

impl FlatCall {
    /// To be filled by [`memo_key_flat`].
    const EMPTY: FlatCall = FlatCall {
        key: FlatKey {
            hash: 0,
            w: [0; FLAT_WORDS],
        },
        bound: 0,
        first: 0,
        refs: [0; FLAT_KEY_ARITY],
    };

    /// Answers the call from `entry`, the table entry of its own key (whose answers are instances
    /// of the call), when that takes no choicepoint: `Some(false)` when the entry has no answer
    /// (e.g. `xvalue(h, X, 1)` off the board), `Some(true)` after binding the call's variables to
    /// the entry's one atomic ground answer (nothing can fail); `None` when the answers must be
    /// served (several, compound, or counted by a per-state trial).
    #[inline(always)]
    fn answer_at_once(&self, store: &mut Store, entry: &MemoEntry) -> Option<bool> {
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
fn entry_of<'a>(state: &'a [MemoEntry], memo: &'a [MemoEntry], e: u32) -> &'a MemoEntry {
    if e & STATE_ENTRY != 0 {
        &state[(e & !STATE_ENTRY) as usize]
    } else {
        &memo[e as usize]
    }
}

/// Keys the call `pred(args...)` with context id `cid` into `out` as a [`FlatKey`]; `false` when
/// the arity is above [`FLAT_KEY_ARITY`] or an argument is compound.
#[inline(always)]
fn memo_key_flat(
    store: &Store,
    pred: u32,
    args: u32,
    arity: u32,
    cid: u64,
    out: &mut FlatCall,
) -> bool {
    if arity as usize > FLAT_KEY_ARITY {
        return false;
    }
    let w = &mut out.key.w;
    let mut h = 0u64;
    let mut tags = 0u64;
    let mut bound = 0u32;
    let mut first = 0u32;
    let cells = &store.heap[args as usize..args as usize + arity as usize];
    for (j, (&c, wj)) in cells.iter().zip(w[1..].iter_mut()).enumerate() {
        let (tag, v): (u64, u64) = match store.deref(c) {
            Cell::Ref(a) => {
                // the variable's number: the number of the first position holding it
                let mut k = 0;
                let mut f = first;
                while f != 0 {
                    let i = f.trailing_zeros() as usize;
                    if out.refs[i] == a {
                        break;
                    }
                    k += 1;
                    f &= f - 1;
                }
                if f == 0 {
                    out.refs[j] = a;
                    first |= 1 << j;
                }
                (0, k)
            }
            Cell::Atom(a) => (1, a.0 as u64),
            Cell::Int(i) => (2, i as u64),
            Cell::Float(f) => (3, f.to_bits()),
            Cell::Str(a) => (4, a.0 as u64),
            _ => return false,
        };
        if tag != 0 {
            bound |= 1 << j;
        }
        tags |= tag << (3 * j);
        *wj = v;
        h = mix(h, v);
    }
    w[0] = pred as u64 | (tags << 32) | ((arity as u64) << 56);
    w[FLAT_WORDS - 1] = cid;
    out.key.hash = mix(mix(h, w[0]), cid).rotate_left(26);
    out.bound = bound;
    out.first = first;
    true
}

/// An atomic cell as two words (its kind, its value; floats by bit pattern): two atomic cells
/// unify exactly when their codes are equal.
#[inline(always)]
fn atomic_code(c: Cell) -> [u64; 2] {
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
struct PredSet(Vec<bool>);

impl PredSet {
    #[inline]
    fn contains(&self, p: &u32) -> bool {
        self.0.get(*p as usize).copied().unwrap_or(false)
    }

    fn insert(&mut self, p: u32) {
        let i = p as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, false);
        }
        self.0[i] = true;
    }
}

/// Marks entry numbers of the per-state tables.
const STATE_ENTRY: u32 = 1 << 31;

/// The argument-keyed memo entry of a call whose filling threw: the call runs directly.
const MEMO_THROWS: u32 = u32::MAX;

/// Argument tuples larger than this many cells are not memoized.
const MEMO_KEY_MAX: usize = 256;

/// The answers of a memoized call, each a relocatable argument tuple `','(A1, ..., An)` made by
/// [`Store::copy_out`] into one shared buffer (addresses are indices of `cells`).
#[derive(Default, Debug)]
struct Answers {
    cells: Vec<Cell>,
    /// Per answer: where its tuple starts in `cells` (its root is `Struct(start)`), and whether it
    /// is ground (then it is unified straight from `cells`, without copying it onto the heap).
    list: Vec<(u32, bool)>,
    /// One ground answer whose arguments are all atomic (set by [`Answers::seal`]): a call
    /// keyed by [`memo_key_flat`] then binds its variables to the answer's cells `1..=arity`.
    single_atomic: bool,
    /// Every answer is ground and its arguments are atomic (set by [`Answers::seal`]): answer `i`'s
    /// arguments are `cells[i * (arity + 1) + 1..][..arity]`, served by [`Machine::serve_atomic`].
    atomic: bool,
    /// For an `atomic` entry: [`atomic_code`] of each answer's arguments (`arity` per answer).
    codes: Vec<[u64; 2]>,
    /// A per-state entry made while its predicate's kinds are measured: (predicate, kind) whose
    /// [`StateStat::tried`] counts the answers tried.
    trial: Option<(u32, usize)>,
}

impl Answers {
    /// The fill is complete.
    fn seal(&mut self, arity: u32) {
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
            && self.cells.iter().enumerate().all(|(i, c)| {
                i % stride == 0
                    || matches!(
                        c,
                        Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Str(_)
                    )
            });
        if self.atomic {
            let mut codes = Vec::with_capacity(self.list.len() * (stride - 1));
            for answer in self.cells.chunks_exact(stride) {
                codes.extend(answer[1..].iter().map(|&c| atomic_code(c)));
            }
            self.codes = codes;
        }
    }

    fn len(&self) -> usize {
        self.list.len()
    }

    /// Appends the argument tuple at `args` as an answer.
    fn push(&mut self, store: &mut Store, args: u32, arity: u32) {
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
    fn unify(&self, store: &mut Store, i: usize, args: u32, arity: u32, skip: u32) -> bool {
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
    fn may_unify(&self, i: usize, bound: &[(u32, Cell)]) -> bool {
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
    fn span(&self, i: usize) -> (u32, u32) {
        let start = self.list[i].0;
        let end = self
            .list
            .get(i + 1)
            .map_or(self.cells.len() as u32, |a| a.0);
        (start, end)
    }
}

type MemoEntry = Answers;

/// A memo entry being filled.
#[derive(Debug)]
struct Fill {
    key: MemoKey,
    answers: Answers,
    /// Inference count when the fill started.
    start: u64,
    /// Index of its `MemoFill` choicepoint.
    cp: u32,
    /// A per-state table entry (see [`super::statememo`]).
    state: bool,
    /// For a per-state entry: generalised (`true`) or the call itself (`false`).
    general: bool,
}

/// Per predicate tabled per state: the cost of each kind of table (inferences spent filling,
/// answers stored and tried, calls answered), measured on the first [`STATE_TRIAL`] fills of each
/// (or [`STATE_EARLY`] when one kind is far cheaper), after which the cheaper kind per call is
/// kept. Both kinds give the answers of the call itself, so the choice changes only speed.
#[derive(Default, Clone, Copy, Debug)]
struct StateStat {
    /// [general, variant]: fills, inferences of the fills, calls answered.
    fills: [u32; 2],
    steps: [u64; 2],
    calls: [u64; 2],
    /// [general, variant]: answers stored by the fills, and answers tried by the calls served.
    stored: [u64; 2],
    tried: [u64; 2],
}

impl StateStat {
    /// The measured cost of kind `k`, in inferences: an answer stored (copied out of the heap)
    /// costs about one inference, an answer tried (unified in place) about a quarter.
    fn cost(&self, k: usize) -> u128 {
        (self.steps[k] + self.stored[k] + self.tried[k] / 4) as u128
    }

    /// Is kind `a`'s cost per call at least four times kind `b`'s?
    fn far_above(&self, a: usize, b: usize) -> bool {
        self.cost(a) * (self.calls[b] as u128) >= 4 * self.cost(b) * (self.calls[a] as u128)
    }

    /// Both kinds measured (the trial is over)?
    fn settled(&self) -> bool {
        let early = self.fills[0] >= STATE_EARLY && self.fills[1] >= STATE_EARLY;
        (self.fills[0] >= STATE_TRIAL && self.fills[1] >= STATE_TRIAL)
            || (early && (self.far_above(0, 1) || self.far_above(1, 0)))
    }

    /// Generalise the next call?
    fn general(&self) -> bool {
        if self.fills[0] < STATE_EARLY {
            return true;
        }
        if self.fills[1] < STATE_EARLY {
            return false;
        }
        if !self.settled() {
            return self.fills[0] < STATE_TRIAL;
        }
        // per call: cost[0] / calls[0] <= cost[1] / calls[1]
        self.cost(0) * (self.calls[1] as u128) <= self.cost(1) * (self.calls[0] as u128)
    }

    /// After the trials: are the tables of the cheaper kind rarely asked again (fewer than 1.5
    /// calls per fill; then a direct call, which may stop at the first answer and fills nothing,
    /// is cheaper: a fill costs far more than its inferences, e.g. tic-tac-toe's `cell/3` at 1.4
    /// calls per fill), or are their answers rarely used again (fewer than 1.5 tries per answer
    /// stored, e.g. chess's `move/2`, whose table `once(move(C, _))` fills and one more call reads
    /// once: a direct call computes each answer about as often, and copies none)?
    fn useless(&self) -> bool {
        if !self.settled() {
            return false;
        }
        let k = usize::from(!self.general());
        self.calls[k] * 2 < self.fills[k] as u64 * 3 || self.tried[k] * 2 < self.stored[k] * 3
    }
}

/// Fills of each kind measured before a predicate's per-state tables settle on one kind.
const STATE_TRIAL: u32 = 16;
/// Fills of each kind after which a kind far cheaper per call than the other is kept at once.
const STATE_EARLY: u32 = 4;

/// A fill with more answers, or taking more inference steps, is given up (the call runs directly).
const MEMO_MAX_ANSWERS: usize = 4096;
const MEMO_MAX_STEPS: u64 = 200_000;
/// The memo table is emptied when it holds more cells than this.
const MEMO_MAX_CELLS: usize = 4 << 20;

#[derive(Clone, Copy, Debug)]
struct ChoicePoint {
    kind: CpKind,
    heap: u32,
    trail: u32,
    frames: u32,
    /// Continuation when resumed.
    next: u32,
    /// Cut barrier of the resumed goal.
    cutb: u32,
}

/// A stack with one number derived from its top element ([`Top::of_top`]), kept up to date by
/// the operations that change the top, so that the step loop reads one field. Reads go through
/// `Deref` to the slice; an element is never changed in place in a way that changes its number.
#[derive(Debug)]
struct TopStack<T> {
    v: Vec<T>,
    top: u64,
}

/// The number a [`TopStack`] keeps for its top element (`None`: the stack is empty).
trait Top: Sized {
    fn of_top(top: Option<&Self>) -> u64;
}

impl<T: Top> Default for TopStack<T> {
    fn default() -> Self {
        TopStack {
            v: Vec::new(),
            top: T::of_top(None),
        }
    }
}

impl<T: Top> TopStack<T> {
    #[inline]
    fn update(&mut self) {
        self.top = T::of_top(self.v.last());
    }

    #[inline]
    fn push(&mut self, x: T) {
        self.top = T::of_top(Some(&x));
        self.v.push(x);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        let x = self.v.pop();
        self.update();
        x
    }

    #[inline]
    fn truncate(&mut self, n: usize) {
        self.v.truncate(n);
        self.update();
    }

    #[inline]
    fn clear(&mut self) {
        self.v.clear();
        self.update();
    }

    /// Inserts `x` at `i` (at most one place below the top).
    fn insert(&mut self, i: usize, x: T) {
        self.v.insert(i, x);
        self.update();
    }
}

impl<T> std::ops::Deref for TopStack<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.v
    }
}

impl<T> std::ops::DerefMut for TopStack<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.v
    }
}

/// The choicepoint stack, keeping the protection height of [`Machine::step`]: the frame-stack
/// height recorded in the newest choicepoint (frames at or above it may be reused), or 1 (above
/// the `Stop` frame) when there is none.
type CpStack = TopStack<ChoicePoint>;

impl Top for ChoicePoint {
    #[inline]
    fn of_top(top: Option<&Self>) -> u64 {
        top.map_or(1, |c| {
            // every frame-stack height is at least 1 (the `Stop` frame)
            debug_assert!(c.frames >= 1);
            u64::from(c.frames)
        })
    }
}

/// The memo fills in progress, keeping the inference count past which the innermost one is
/// given up ([`MEMO_MAX_STEPS`] after its start; `u64::MAX` when there is none). A fill's
/// `start` is never changed in place.
type FillStack = TopStack<Fill>;

impl Top for Fill {
    #[inline]
    fn of_top(top: Option<&Self>) -> u64 {
        top.map_or(u64::MAX, |f| f.start.saturating_add(MEMO_MAX_STEPS))
    }
}

impl FillStack {
    /// Has the innermost fill run more than [`MEMO_MAX_STEPS`] inferences at `inferences`?
    #[inline]
    fn overdue(&self, inferences: u64) -> bool {
        debug_assert_eq!(
            inferences > self.top,
            self.v
                .last()
                .is_some_and(|f| inferences - f.start > MEMO_MAX_STEPS)
        );
        inferences > self.top
    }
}

#[derive(Default, Debug)]
struct Collector {
    cells: Vec<Cell>,
    roots: Vec<Cell>,
}

enum Step {
    Go,
    Fail,
    Throw(Term),
}

/// The running state of one query.
pub struct Machine {
    prog: Program,
    pub store: Store,
    pub rng: Rng,
    frames: Vec<Frame>,
    cps: CpStack,
    collectors: Vec<Collector>,
    collected_cells: usize,
    cur: u32,
    limits: Limits,
    pub inferences: u64,
    args_buf: Vec<Cell>,
    ustack: Vec<(Cell, Cell)>,
    /// Name/arity of the predicate being called (for error messages).
    last_call: (Atom, u32),
    /// (pred, clause) of the body goal being run.
    last_clause: Option<(u32, u32)>,
    /// The continuation of that goal (its caller's frames, for the call path of an error: after a
    /// last goal the frame of its clause is gone).
    last_next: u32,
    /// The clause of the game that last called a library predicate: the caller of a library-only
    /// call path (`legal(..) :- once(G)` as its last goal leaves no frame of its clause).
    library_caller: Option<(u32, u32)>,
    /// Heap cells below `base` (the goal and whatever the caller built before `start`) are never
    /// collected; bindings of them are trailed so that the collector finds them.
    base: u32,
    /// Collect garbage when the heap grows past this many cells.
    gc_at: usize,
    /// Garbage collections run (for tests and statistics).
    pub gc_runs: u64,
    /// [`Machine::dispatch`] calls [`Machine::count_call`] when `inferences` passes this: the
    /// inference budget, or 0 when profiling (set by [`Machine::solve`]).
    check_at: u64,
    /// [`Machine::dispatch`] calls [`Machine::check_heap`] when the heap is longer than this: at
    /// most the heap budget less the cells held by findall collectors (lower when they shrank).
    heap_at: usize,
    /// Calls per predicate, when profiling is on.
    pub profile: Option<rustc_hash::FxHashMap<(Atom, u32), u64>>,
    /// Memoized answers of predicates that depend on their arguments only (kept across queries: the
    /// program does not change).
    memo_table: MemoTable,
    /// Scratch space of [`memo_key`].
    memo_words: Vec<u64>,
    memo_vars: Vec<u32>,
    memo_stack: Vec<Cell>,
    memo_entries: Vec<MemoEntry>,
    memo_cells: usize,
    fills: FillStack,
    /// Predicates whose memoization was given up.
    no_memo: PredSet,
    /// Dispatch of meta-called goals by name and arity (the program does not change).
    resolved: rustc_hash::FxHashMap<(Atom, u32), Dispatch>,
    /// A direct-mapped cache in front of `resolved` (slot [`resolve_slot`]).
    resolve_cache: Box<[(Atom, u32, Dispatch); RESOLVE_SLOTS]>,
    /// Per-state tables ([`super::statememo`]): valid while the host's state id is `state_id`.
    /// Entry numbers have [`STATE_ENTRY`] set.
    state_table: MemoTable,
    state_entries: Vec<MemoEntry>,
    state_id: u64,
    state_stats: rustc_hash::FxHashMap<u32, StateStat>,
    /// Does the running query change no context (its goal reaches no host predicate but the state
    /// and context ones)? Per-context tables are used only then: where a query schedules changes
    /// (`do/1`), the context changes between calls and tables would not be asked again. Decided at
    /// the first call that asks (`None` until then) from the query's goal `root`.
    context_tables: Option<bool>,
    root: Cell,
    /// The trail's length when the query started.
    base_trail: usize,
    /// Memoize predicates that depend on their arguments only (on by default).
    pub memoize: bool,
    /// [`Machine::reset`] keeps the inference count, so that the inference budget covers several
    /// queries together (a game's chronon).
    pub keep_inferences: bool,
}

/// The heap size below which no garbage collection runs. Debug builds collect far more often, so
/// that every test exercises the collector.
const GC_MIN: usize = if cfg!(debug_assertions) {
    1 << 14
} else {
    1 << 20
};

/// The heap cell for clause template cell `cell`: a variable's environment cell (in `old`, the
/// heap below the copy), a compound of the template block starting at `from` relocated to `base`,
/// or the atomic cell itself.
#[inline(always)]
fn instantiate(cell: Cell, old: &[Cell], env: u32, from: u32, base: u32) -> Cell {
    match cell {
        // `Ref`: a head variable's first occurrence (see `program::mark_first_occurrences`)
        Cell::Var(s) | Cell::Ref(s) => old[(env + s) as usize],
        Cell::Struct(q) => Cell::Struct(q - from + base),
        Cell::List(q) => Cell::List(q - from + base),
        other => other,
    }
}

impl Machine {
    pub fn new(prog: Program, limits: Limits) -> Machine {
        Machine {
            prog,
            store: Store::new(),
            rng: Rng::new(0),
            frames: vec![Frame {
                kind: FrameKind::Stop,
                cutb: 0,
                next: NO_FRAME,
            }],
            cps: CpStack::default(),
            collectors: Vec::new(),
            collected_cells: 0,
            cur: NO_FRAME,
            limits,
            inferences: 0,
            args_buf: Vec::new(),
            ustack: Vec::new(),
            last_call: (atom::TRUE, 0),
            last_clause: None,
            library_caller: None,
            last_next: NO_FRAME,
            base: 0,
            gc_at: GC_MIN,
            gc_runs: 0,
            check_at: 0,
            heap_at: 0,
            profile: None,
            memo_table: Default::default(),
            memo_words: Vec::new(),
            memo_vars: Vec::new(),
            memo_stack: Vec::new(),
            memo_entries: Vec::new(),
            memo_cells: 0,
            fills: FillStack::default(),
            no_memo: Default::default(),
            resolved: Default::default(),
            resolve_cache: Box::new([(Atom(u32::MAX), u32::MAX, Dispatch::Unknown); RESOLVE_SLOTS]),
            state_table: Default::default(),
            state_entries: Vec::new(),
            state_id: 0,
            state_stats: Default::default(),
            context_tables: Some(false),
            root: Cell::Atom(atom::TRUE),
            base_trail: 0,
            memoize: true,
            keep_inferences: false,
        }
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Forgets every goal and choicepoint and empties the heap, keeping allocations.
    pub fn reset(&mut self) {
        self.context_tables = Some(false);
        self.store.heap.clear();
        self.store.trail.clear();
        self.store.mark = 0;
        self.frames.truncate(1);
        self.cps.clear();
        self.collectors.clear();
        self.fills.clear();
        self.collected_cells = 0;
        self.cur = NO_FRAME;
        if !self.keep_inferences {
            self.inferences = 0;
        }
        self.base = 0;
        self.gc_at = GC_MIN;
    }

    /// Starts solving `goal` (a heap term): the next [`Machine::solve`] finds the first answer.
    pub fn start(&mut self, goal: Cell) {
        // the query is called as call/1 is: its body is converted first (ISO 7.6.2)
        self.context_tables = None;
        self.library_caller = None;
        self.root = goal;
        self.base_trail = self.store.trail.len();
        let goal = self.store.make_compound(atom::CALL, &[goal]);
        self.frames.truncate(1);
        self.cps.clear();
        self.collectors.clear();
        self.fills.clear();
        self.collected_cells = 0;
        if self.memo_cells > MEMO_MAX_CELLS {
            self.memo_table.clear();
            self.memo_entries.clear();
            self.memo_cells = 0;
        }
        self.base = self.store.len();
        self.store.mark = self.base;
        self.gc_at = (self.base as usize).saturating_mul(2).max(GC_MIN);
        self.frames.push(Frame {
            kind: FrameKind::Goal { goal },
            cutb: 0,
            next: 0,
        });
        self.cur = 1;
    }

    /// May per-context tables be used in this query: can its goal reach no host predicate but the
    /// state and context ones?
    fn context_tables(&mut self) -> bool {
        if let Some(b) = self.context_tables {
            return b;
        }
        let b = self.changes_no_context(self.root);
        self.context_tables = Some(b);
        b
    }

    fn changes_no_context(&self, goal: Cell) -> bool {
        let data = &self.prog.0;
        let Some((name, arity)) = self.store.functor(self.store.deref(goal)) else {
            return false;
        };
        match super::program::resolve(data, name, arity) {
            Dispatch::User(p) => {
                let r = data.preds[p as usize].reaches;
                r & !data.table_hosts == 0
            }
            Dispatch::Host(id) => id < 63 && data.table_hosts & (1 << id) != 0,
            _ => false,
        }
    }

    /// The query has no (more) answers: the effects of its last, failed branch are undone (the
    /// bindings above the query's goal too), as backtracking into an older choicepoint would.
    fn undo_host_effects(&mut self, host: &mut dyn Host) {
        let base = self.store.trail.len().min(self.base_trail);
        self.store.undo_to(base, |n| {
            if n & CATCH_FLAG == 0 {
                host.undo(n);
            }
        });
    }

    /// Are there choicepoints left (could another answer exist)?
    pub fn has_alternatives(&self) -> bool {
        !self.cps.is_empty()
    }

    /// Runs until the next answer (`Ok(true)`), no more answers (`Ok(false)`) or an error. With
    /// `redo`, first backtracks into the previous answer's alternatives.
    pub fn solve(&mut self, redo: bool, host: &mut dyn Host) -> Result<bool, SolveError> {
        self.check_at = if self.profile.is_some() {
            0
        } else {
            self.limits.max_inferences
        };
        self.heap_at = self
            .limits
            .max_heap_cells
            .saturating_sub(self.collected_cells);
        let prog = self.prog.clone();
        let data: &ProgramData = &prog.0;
        if redo && !self.backtrack(data, host)? {
            self.undo_host_effects(host);
            return Ok(false);
        }
        if self.cur == NO_FRAME {
            return Ok(false);
        }
        loop {
            let step = self.step(data, host)?;
            match step {
                Step::Go => {
                    if self.cur == 0 {
                        return Ok(true);
                    }
                }
                Step::Fail => {
                    if !self.backtrack(data, host)? {
                        self.cur = NO_FRAME;
                        self.undo_host_effects(host);
                        return Ok(false);
                    }
                }
                Step::Throw(ball) => {
                    if let Err(e) = self.throw(data, host, ball) {
                        self.cur = NO_FRAME;
                        return Err(e);
                    }
                }
            }
            if self.cur == 0 {
                return Ok(true);
            }
        }
    }

    #[inline]
    fn protected(&self) -> u32 {
        debug_assert_eq!(
            self.cps.top,
            u64::from(self.cps.last().map_or(1, |c| c.frames.max(1)))
        );
        self.cps.top as u32
    }

    #[inline]
    fn push_frame(&mut self, kind: FrameKind, cutb: u32, next: u32) -> Result<u32, SolveError> {
        if self.frames.len() >= self.limits.max_frames {
            return Err(self.budget("frames", self.limits.max_frames as u64));
        }
        self.frames.push(Frame { kind, cutb, next });
        Ok((self.frames.len() - 1) as u32)
    }

    #[inline]
    fn push_cp(&mut self, kind: CpKind, next: u32, cutb: u32) -> Result<(), SolveError> {
        let now = self.heights(None);
        self.push_cp_at(kind, now, next, cutb)
    }

    /// Pushes a choicepoint that restores the heap, trail and frame heights `heights`; every
    /// binding from then on is trailed.
    #[inline(always)]
    fn push_cp_at(
        &mut self,
        kind: CpKind,
        (heap, trail, frames): (u32, u32, u32),
        next: u32,
        cutb: u32,
    ) -> Result<(), SolveError> {
        if self.cps.len() >= self.limits.max_choicepoints {
            return Err(self.budget("choicepoints", self.limits.max_choicepoints as u64));
        }
        self.cps.push(ChoicePoint {
            kind,
            heap,
            trail,
            frames,
            next,
            cutb,
        });
        self.store.mark = heap;
        Ok(())
    }

    /// `marks` (the heights of a retried call's choicepoint), or the heap, trail and frame
    /// heights now.
    #[inline(always)]
    fn heights(&self, marks: Option<(u32, u32, u32)>) -> (u32, u32, u32) {
        marks.unwrap_or((
            self.store.len(),
            self.store.trail.len() as u32,
            self.frames.len() as u32,
        ))
    }

    fn cut(&mut self, height: u32) {
        let height = height as usize;
        if self.cps.len() <= height {
            return;
        }
        for cp in &self.cps[height..] {
            if let CpKind::Findall { id, .. } = cp.kind {
                self.drop_collectors(id);
                break;
            }
        }
        for cp in &self.cps[height..] {
            if let CpKind::MemoFill { fill, .. } = cp.kind {
                self.fills.truncate(fill as usize);
                break;
            }
        }
        self.cps.truncate(height);
        self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
    }

    fn drop_collectors(&mut self, from: u32) {
        for c in self.collectors.drain(from as usize..) {
            self.collected_cells -= c.cells.len() + c.roots.len();
        }
    }

    /// Restores the heights recorded in choicepoint `i` (which stays on the stack).
    #[inline(always)]
    fn restore(&mut self, i: usize, host: &mut dyn Host) {
        let cp = &self.cps[i];
        let (trail, heap, frames) = (cp.trail, cp.heap, cp.frames);
        self.restore_heights(trail, heap, frames, host);
    }

    /// Undoes the trail down to `trail` (reactivating the catchers whose exit it records), and
    /// cuts the heap and the frame stack back to `heap` and `frames`.
    #[inline(always)]
    fn restore_heights(&mut self, trail: u32, heap: u32, frames: u32, host: &mut dyn Host) {
        // `Store::undo_to`, newest entry first, with the trail cut once at the end
        let st = &mut self.store;
        let n = st.trail.len().min(trail as usize);
        for &e in st.trail[n..].iter().rev() {
            match e {
                TrailEntry::Bind(a) => st.heap[a as usize] = Cell::Ref(a),
                TrailEntry::Value(a, v) => st.heap[a as usize] = v,
                TrailEntry::Host(h) if h & CATCH_FLAG != 0 => {
                    if let Some(ChoicePoint {
                        kind: CpKind::Catch { active, .. },
                        ..
                    }) = self.cps.get_mut((h & !CATCH_FLAG) as usize)
                    {
                        *active = true;
                    }
                }
                TrailEntry::Host(h) => host.undo(h),
            }
        }
        st.trail.truncate(n);
        self.store.heap.truncate(heap as usize);
        self.frames.truncate(frames as usize);
    }

    fn pop_cp(&mut self) {
        self.cps.pop();
        self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
    }

    fn budget(&self, what: &'static str, n: u64) -> SolveError {
        let (name, arity) = self.last_call;
        let ball = Term::compound(
            "error",
            vec![
                Term::compound("resource_error", vec![Term::atom(what)]),
                Term::compound(
                    "context",
                    vec![Term::indicator(name, arity as usize), Term::Var(0)],
                ),
            ],
        );
        let limit = match what {
            "inferences" => format!("the budget of {n} inference steps"),
            "heap" => format!("the budget of {n} term cells"),
            "choicepoints" => format!("the budget of {n} open choicepoints"),
            _ => format!("the budget of {n} pending goals (recursion depth)"),
        };
        let mut e = self.error_info(ball);
        e.kind = ErrorKind::Budget(what);
        e.message = format!("{} exhausted while running {}/{}", limit, name, arity);
        e
    }

    fn error_info(&self, ball: Term) -> SolveError {
        let (path, path_spans) = self.call_path();
        SolveError {
            kind: ErrorKind::Uncaught,
            message: super::describe_error(&ball),
            ball,
            predicate: Some(self.last_call),
            path,
            path_spans: path_spans.into(),
        }
    }

    /// The user predicates on the continuation chain (outermost first), each with the span of its
    /// clause being run (`None` for a library clause), from the clause being run outwards.
    #[allow(clippy::type_complexity)]
    fn call_path(&self) -> (Vec<(Atom, u32)>, Vec<Option<crate::diag::Span>>) {
        let data = &self.prog.0;
        let at = |p: u32, c: u32| {
            let pr = &data.preds[p as usize];
            (
                (pr.name, pr.arity),
                (!pr.library).then(|| pr.clauses[c as usize].span),
            )
        };
        let mut path = Vec::new();
        let mut spans = Vec::new();
        let mut f = self.cur;
        if let Some((p, c)) = self.last_clause {
            let (key, span) = at(p, c);
            path.push(key);
            spans.push(span);
            f = self.last_next;
        }
        let mut guard = 0;
        while f != NO_FRAME && (f as usize) < self.frames.len() && guard < 64 {
            let fr = self.frames[f as usize];
            if let FrameKind::Body { pred, clause, .. } = fr.kind {
                let (key, span) = at(pred, clause);
                if path.last() != Some(&key) {
                    path.push(key);
                    spans.push(span);
                }
            }
            f = fr.next;
            guard += 1;
        }
        if let (true, Some((p, c))) = (spans.iter().all(Option::is_none), self.library_caller) {
            let (key, span) = at(p, c);
            path.push(key);
            spans.push(span);
        }
        path.reverse();
        spans.reverse();
        (path, spans)
    }

    /// One step: run the current frame.
    fn step(&mut self, data: &ProgramData, host: &mut dyn Host) -> Result<Step, SolveError> {
        if self.store.heap.len() > self.gc_at {
            self.collect_garbage(data);
        }
        if self.fills.overdue(self.inferences) {
            return self.abort_fill(data, host);
        }
        let fi = self.cur;
        let f = self.frames[fi as usize];
        // the newest frame is dropped when no choicepoint can resume it (a `Body` frame with goals
        // left is reused for its continuation instead)
        let top = fi + 1 == self.frames.len() as u32 && fi >= self.protected();
        if top && !matches!(f.kind, FrameKind::Body { .. }) {
            self.frames.pop();
        }
        match f.kind {
            FrameKind::Stop => {
                self.cur = 0;
                Ok(Step::Go)
            }
            FrameKind::Body {
                pred,
                clause,
                pc,
                env,
            } => {
                let c: &ClauseT = &data.preds[pred as usize].clauses[clause as usize];
                let g = &c.body[pc as usize];
                let next = if (pc as usize) + 1 < c.body.len() {
                    if top {
                        // what popping the frame and pushing its continuation would make
                        if let Some(Frame {
                            kind: FrameKind::Body { pc: p, .. },
                            ..
                        }) = self.frames.last_mut()
                        {
                            *p = pc + 1;
                        }
                        fi
                    } else {
                        self.push_frame(
                            FrameKind::Body {
                                pred,
                                clause,
                                pc: pc + 1,
                                env,
                            },
                            f.cutb,
                            f.next,
                        )?
                    }
                } else {
                    if top {
                        self.frames.pop();
                    }
                    f.next
                };
                let args = self.store.len();
                let n = g.args.len();
                let (bp, be) = g.block;
                if bp != u32::MAX {
                    // the arguments, then their compound subterms in one block (the layout that
                    // building them one by one makes)
                    let base = args + n as u32;
                    let heap = &mut self.store.heap;
                    heap.resize((base + (be - bp)) as usize, Cell::Atom(atom::NIL));
                    let (old, new) = heap.split_at_mut(args as usize);
                    let (argv, block) = new.split_at_mut(n);
                    for (dst, &a) in argv.iter_mut().zip(g.args.iter()) {
                        // an unbound environment cell is `Ref(addr)` itself: the cell is the value
                        *dst = instantiate(a, old, env, bp, base);
                    }
                    for (dst, &a) in block.iter_mut().zip(&c.cells[bp as usize..be as usize]) {
                        *dst = instantiate(a, old, env, bp, base);
                    }
                } else {
                    self.store
                        .heap
                        .extend(std::iter::repeat_n(Cell::Atom(atom::NIL), n));
                    for (i, &a) in g.args.iter().enumerate() {
                        let v = match a {
                            Cell::Var(s) => self.store.heap[(env + s) as usize],
                            Cell::Struct(p) | Cell::List(p) => self.build_sub(c, p, a, env),
                            other => other,
                        };
                        self.store.heap[args as usize + i] = v;
                    }
                }
                self.last_clause = Some((pred, clause));
                self.last_next = next;
                self.dispatch(data, host, g.disp, g.name, g.arity, args, f.cutb, next)
            }
            FrameKind::Goal { goal } => {
                let g = self.store.deref(goal);
                let Some((name, arity, args)) = self.goal_parts(g) else {
                    if let Cell::Ref(_) = g {
                        return Ok(Step::Throw(Term::instantiation_error()));
                    }
                    let t = self.store.to_term(g);
                    return Ok(Step::Throw(Term::type_error(atom::CALLABLE, t)));
                };
                let disp = self.resolve_goal(data, name, arity);
                self.dispatch_nested(data, host, disp, name, arity, args, f.cutb, f.next)
            }
            FrameKind::CutTo { height } => {
                self.cut(height);
                self.cur = f.next;
                Ok(Step::Go)
            }
            FrameKind::SoftCut { cp } => {
                if let Some(c) = self.cps.get_mut(cp as usize) {
                    c.kind = CpKind::Dead;
                }
                self.cur = f.next;
                Ok(Step::Go)
            }
            FrameKind::PopCatch { cp } => {
                if self.cps.len() == cp as usize + 1 {
                    self.pop_cp();
                } else if let Some(ChoicePoint {
                    kind: CpKind::Catch { active, .. },
                    ..
                }) = self.cps.get_mut(cp as usize)
                {
                    *active = false;
                    self.store.trail.push(TrailEntry::Host(cp | CATCH_FLAG));
                }
                self.cur = f.next;
                Ok(Step::Go)
            }
            FrameKind::Collect { id, template } => {
                let col = &mut self.collectors[id as usize];
                let before = col.cells.len();
                let root = self.store.copy_out(template, &mut col.cells);
                col.roots.push(root);
                self.collected_cells += col.cells.len() - before + 1;
                self.heap_at = self
                    .limits
                    .max_heap_cells
                    .saturating_sub(self.collected_cells);
                if self.store.heap.len() + self.collected_cells > self.limits.max_heap_cells {
                    return Err(self.budget("heap", self.limits.max_heap_cells as u64));
                }
                Ok(Step::Fail)
            }
            FrameKind::MemoCollect { fill, args, arity } => {
                let f = &mut self.fills[fill as usize];
                f.answers.push(&mut self.store, args, arity);
                if f.answers.len() > MEMO_MAX_ANSWERS {
                    return self.abort_fill(data, host);
                }
                Ok(Step::Fail)
            }
            FrameKind::NotExit { height } => {
                if self.cps.len() == height as usize + 1 {
                    // the goal left no choicepoint: only the negation's own is removed
                    self.pop_cp();
                } else {
                    self.cut(height);
                }
                Ok(Step::Fail)
            }
        }
    }

    /// Copies the template subtree rooted at `root` (a compound starting at `p`) onto the heap.
    fn build_sub(&mut self, c: &ClauseT, p: u32, root: Cell, env: u32) -> Cell {
        let end = c.ends[p as usize];
        let base = self.store.len();
        let heap = &mut self.store.heap;
        // the copy's cells are made first, then written from the template: the environment is
        // older than the copy, so it is read from the part below `base`
        heap.resize(base as usize + (end - p) as usize, Cell::Atom(atom::NIL));
        let (old, new) = heap.split_at_mut(base as usize);
        for (dst, &cell) in new.iter_mut().zip(&c.cells[p as usize..end as usize]) {
            *dst = instantiate(cell, old, env, p, base);
        }
        match root {
            Cell::Struct(_) => Cell::Struct(base),
            _ => Cell::List(base),
        }
    }

    /// Unifies the clause variable at heap address `addr` (in the clause's fresh environment)
    /// with heap cell `h`: a first occurrence takes `h`'s value without trailing (the environment
    /// is newer than every choicepoint), a later one unifies.
    #[inline]
    fn unify_head_var(&mut self, addr: u32, h: Cell) -> bool {
        let cur = self.store.heap[addr as usize];
        if cur == Cell::Ref(addr) {
            let hd = self.store.deref(h);
            if hd != Cell::Ref(addr) {
                self.store.heap[addr as usize] = hd;
            }
            true
        } else {
            self.store.unify(cur, h)
        }
    }

    /// The first occurrence of a clause variable in the head (a `Ref(slot)` template cell): its
    /// environment cell at `addr` is unbound and referenced by nothing yet, so it takes `h`'s value.
    #[inline]
    fn head_first_var(&mut self, addr: u32, h: Cell) {
        let hd = self.store.deref(h);
        self.store.heap[addr as usize] = hd;
    }

    /// Unifies atomic head template cell `t` with heap cell `h`.
    #[inline]
    fn unify_head_const(&mut self, t: Cell, h: Cell) -> bool {
        match (t, self.store.deref(h)) {
            (_, Cell::Ref(x)) => {
                self.store.bind(x, t);
                true
            }
            (Cell::Float(a), Cell::Float(b)) => a.to_bits() == b.to_bits(),
            (_, hd) => hd == t,
        }
    }

    /// Unifies the head list template starting at `p` with heap cell `h`, walking both spines
    /// without the work stack of [`Machine::unify_head`] (in the same order: each element before
    /// the rest of the list).
    fn unify_head_list(&mut self, c: &ClauseT, mut p: u32, mut h: Cell, env: u32) -> bool {
        loop {
            let q = match self.store.deref(h) {
                Cell::List(q) => q,
                // an unbound variable: build the rest of the list (write mode)
                Cell::Ref(x) => {
                    let v = self.build_sub(c, p, Cell::List(p), env);
                    self.store.bind(x, v);
                    return true;
                }
                _ => return false,
            };
            let &[head, tail] = &c.cells[p as usize..p as usize + 2] else {
                unreachable!("a list cell has a head and a tail")
            };
            let x = self.store.heap[q as usize];
            let ok = match head {
                Cell::Ref(s) => {
                    self.head_first_var(env + s, x);
                    true
                }
                Cell::Var(s) => self.unify_head_var(env + s, x),
                Cell::Struct(_) | Cell::List(_) => self.unify_head(c, head, x, env),
                constant => self.unify_head_const(constant, x),
            };
            if !ok {
                return false;
            }
            let rest = self.store.heap[q as usize + 1];
            match tail {
                Cell::List(p2) => {
                    p = p2;
                    h = rest;
                }
                Cell::Ref(s) => {
                    self.head_first_var(env + s, rest);
                    return true;
                }
                Cell::Var(s) => return self.unify_head_var(env + s, rest),
                Cell::Struct(_) => return self.unify_head(c, tail, rest, env),
                constant => return self.unify_head_const(constant, rest),
            }
        }
    }

    /// Unifies clause head argument template `t` with heap cell `h`.
    fn unify_head(&mut self, c: &ClauseT, t: Cell, h: Cell, env: u32) -> bool {
        let mut stack = std::mem::take(&mut self.ustack);
        stack.clear();
        stack.push((t, h));
        let mut ok = true;
        while let Some((t, h)) = stack.pop() {
            match t {
                Cell::Ref(s) => self.head_first_var(env + s, h),
                Cell::Var(s) => {
                    if !self.unify_head_var(env + s, h) {
                        ok = false;
                        break;
                    }
                }
                Cell::Struct(p) => match self.store.deref(h) {
                    Cell::Ref(x) => {
                        let v = self.build_sub(c, p, t, env);
                        self.store.bind(x, v);
                    }
                    Cell::Struct(q) => {
                        let Cell::Functor(fname, n) = c.cells[p as usize] else {
                            unreachable!()
                        };
                        if self.store.heap[q as usize] != Cell::Functor(fname, n) {
                            ok = false;
                            break;
                        }
                        for i in (1..=n).rev() {
                            stack.push((
                                c.cells[(p + i) as usize],
                                self.store.heap[(q + i) as usize],
                            ));
                        }
                    }
                    _ => {
                        ok = false;
                        break;
                    }
                },
                Cell::List(p) => match self.store.deref(h) {
                    Cell::Ref(x) => {
                        let v = self.build_sub(c, p, t, env);
                        self.store.bind(x, v);
                    }
                    Cell::List(q) => {
                        stack.push((c.cells[p as usize + 1], self.store.heap[q as usize + 1]));
                        stack.push((c.cells[p as usize], self.store.heap[q as usize]));
                    }
                    _ => {
                        ok = false;
                        break;
                    }
                },
                constant => match self.store.deref(h) {
                    Cell::Ref(x) => self.store.bind(x, constant),
                    hd => {
                        let same = match (constant, hd) {
                            (Cell::Float(a), Cell::Float(b)) => a.to_bits() == b.to_bits(),
                            (a, b) => a == b,
                        };
                        if !same {
                            ok = false;
                            break;
                        }
                    }
                },
            }
        }
        stack.clear();
        self.ustack = stack;
        ok
    }

    /// What [`Machine::dispatch`] does first when the inference count passes `check_at`: count
    /// the call when profiling, check the inference budget.
    #[cold]
    #[inline(never)]
    fn count_call(&mut self, name: Atom, arity: u32) -> Result<(), SolveError> {
        if let Some(p) = &mut self.profile {
            *p.entry((name, arity)).or_insert(0) += 1;
        }
        if self.inferences > self.limits.max_inferences {
            return Err(self.budget("inferences", self.limits.max_inferences));
        }
        Ok(())
    }

    /// The heap budget check of [`Machine::dispatch`], when the heap is past `heap_at` (which
    /// is then brought up to date).
    #[cold]
    #[inline(never)]
    fn check_heap(&mut self) -> Result<(), SolveError> {
        self.heap_at = self
            .limits
            .max_heap_cells
            .saturating_sub(self.collected_cells);
        if self.store.heap.len() + self.collected_cells > self.limits.max_heap_cells {
            return Err(self.budget("heap", self.limits.max_heap_cells as u64));
        }
        Ok(())
    }

    /// [`Machine::dispatch`] out of line, for the calls other than a clause body goal's (the
    /// step loop's common case, where it is inlined).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn dispatch_nested(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        disp: Dispatch,
        name: Atom,
        arity: u32,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        self.dispatch(data, host, disp, name, arity, args, cutb, next)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn dispatch(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        disp: Dispatch,
        name: Atom,
        arity: u32,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        self.inferences += 1;
        self.last_call = (name, arity);
        if self.inferences > self.check_at {
            self.count_call(name, arity)?;
        }
        if self.store.heap.len() > self.heap_at {
            self.check_heap()?;
        }
        match disp {
            Dispatch::User(p) => {
                let pr = &data.preds[p as usize];
                if self.memoize && (pr.memo || pr.state_memo != 0) && !self.no_memo.contains(&p) {
                    if pr.memo {
                        return self.call_memo_args(data, p, args, arity, cutb, next);
                    }
                    // not while a host predicate it reaches may not be called (placement)
                    let sid = if pr.reaches & host.forbidden() == 0 {
                        host.state_id()
                    } else {
                        0
                    };
                    let modes = pr.state_memo;
                    // per-context tables: only in queries that change no context (see `start`)
                    let cid = if modes & super::statememo::MODE_CONTEXT == 0 {
                        Some(0)
                    } else if self.context_tables() {
                        Some(host.context_id()).filter(|&c| c != 0)
                    } else {
                        None
                    };
                    if let (true, Some(cid)) = (sid != 0, cid) {
                        return self.call_state_memo(
                            data,
                            p,
                            args,
                            arity,
                            cutb,
                            next,
                            (sid, cid),
                            modes,
                        );
                    }
                }
                self.call_user(data, p, args, arity, next)
            }
            Dispatch::Native(f) => self.call_native(f, name, arity, args, next, None, None),
            Dispatch::Host(id) => self.call_host(host, id, name, arity, args, next, None, None),
            Dispatch::Control(Control::Not) => self.negation(data, host, args, cutb, next),
            Dispatch::Control(c) => self.control(data, host, c, args, cutb, next),
            Dispatch::Unknown => Ok(Step::Throw(Term::existence_error(
                atom::PROCEDURE,
                Term::indicator(name, arity as usize),
            ))),
        }
    }

    fn call_user(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        let pred = &data.preds[p as usize];
        if pred.library {
            self.note_library_caller(data);
        }
        // without first-argument keys every list is all clauses (see `Pred::build_index`)
        let first = if arity > 0 && pred.index.lists.len() > 2 {
            let c = self.store.deref(self.store.heap[args as usize]);
            Key::of_cell(c, |q| self.store.heap[q as usize])
        } else {
            None
        };
        let list = pred.candidates(first);
        let cands = &pred.index.lists[list as usize];
        if cands.is_empty() {
            return Ok(Step::Fail);
        }
        let height = self.cps.len() as u32;
        if cands.len() > 1 {
            self.push_cp(
                CpKind::Clauses {
                    pred: p,
                    list,
                    pos: 1,
                    args,
                },
                next,
                height,
            )?;
        }
        self.try_clause(data, p, cands[0], args, height, next)
    }

    /// Records the clause of the game calling a library predicate ([`Machine::library_caller`]).
    fn note_library_caller(&mut self, data: &ProgramData) {
        if let Some((q, c)) = self
            .last_clause
            .filter(|&(q, _)| !data.preds[q as usize].library)
        {
            self.library_caller = Some((q, c));
        }
    }

    /// A predicate tabled per state: the call's general form (every argument a fresh variable, or
    /// all but a ground first one) is looked up in, or filled into, the current state's table, and
    /// its answers are unified with the call's arguments in order. `ids`: the host's state id and,
    /// for a predicate tabled per context, its context id (else 0), which is part of the table key.
    #[allow(clippy::too_many_arguments)]
    fn call_state_memo(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        cutb: u32,
        next: u32,
        ids: (u64, u64),
        modes: u8,
    ) -> Result<Step, SolveError> {
        let (sid, cid) = ids;
        use super::statememo::{MODE_FIRST, MODE_NONE};
        let stat = self.state_stats.entry(p).or_default();
        if stat.useless() {
            // settled: called directly from now on
            self.no_memo.insert(p);
            return self.call_user(data, p, args, arity, next);
        }
        let general = stat.general();
        if !stat.settled() {
            stat.calls[usize::from(!general)] += 1;
        }
        if sid != self.state_id {
            self.state_table.clear();
            self.state_entries.clear();
            self.state_id = sid;
        }
        if !general {
            return self.call_memo(data, p, args, arity, cutb, next, Some((args, false, cid)));
        }
        // an argument is kept only if another one is generalised (else the "general" table of a
        // call of arity 1 would be the call's own, and the two kinds measured the same)
        let keep = if modes & MODE_FIRST != 0
            && (arity > 1 || modes & MODE_NONE == 0)
            && arity > 0
            && self.store.is_ground(self.store.heap[args as usize])
        {
            1
        } else if modes & MODE_NONE != 0 {
            0
        } else {
            return self.call_memo(data, p, args, arity, cutb, next, Some((args, false, cid)));
        };
        let gen = self.store.len();
        for j in 0..arity {
            let c = if j < keep {
                self.store.heap[(args + j) as usize]
            } else {
                Cell::Ref(gen + j)
            };
            self.store.heap.push(c);
        }
        self.call_memo(data, p, args, arity, cutb, next, Some((gen, true, cid)))
    }

    /// An argument-memo call: the common hit (a flat key found in the table's cache whose entry
    /// is empty or one atomic answer) in a small frame, everything else by [`Machine::call_memo`]
    /// (which handles these cases the same way).
    #[inline(never)]
    fn call_memo_args(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        let mut fc = FlatCall::EMPTY;
        if memo_key_flat(&self.store, p, args, arity, 0, &mut fc) {
            let t = &self.memo_table;
            let s = &t.cache[fc.key.hash as usize % MEMO_CACHE_SLOTS];
            if s.gen == t.gen && s.key == fc.key && s.e != MEMO_THROWS {
                // the key is the call's own: its answers are instances of the call
                let entry = &self.memo_entries[s.e as usize];
                match fc.answer_at_once(&mut self.store, entry) {
                    Some(false) => return Ok(Step::Fail),
                    Some(true) => {
                        self.cur = next;
                        return Ok(Step::Go);
                    }
                    None => {}
                }
            }
        }
        self.call_memo(data, p, args, arity, cutb, next, None)
    }

    /// Does the argument-memo call `p(args...)` have an answer, known without running or serving
    /// it? `Some(b)` when its own flat key is in the table (its answers are instances of the call,
    /// so each unifies with it: there is one exactly when the entry is not empty); `None` when the
    /// call must run as usual (not memoized by its arguments, memoization off or given up, not
    /// keyed flat, not filled yet, or its fill threw). Meant for `\+ G` / `not(G)` on such a `G`:
    /// the caller still counts the inference of `G` (and its profile entry and budget checks) as
    /// `dispatch` would, then succeeds or fails at once without a negation choicepoint, binding
    /// nothing ([`Machine::negation`]).
    pub(crate) fn memo_answer_exists(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
    ) -> Option<bool> {
        let pr = &data.preds[p as usize];
        if !self.memoize || !pr.memo || self.no_memo.contains(&p) {
            return None;
        }
        let mut fc = FlatCall::EMPTY;
        if !memo_key_flat(&self.store, p, args, arity, 0, &mut fc) {
            return None;
        }
        match self.memo_table.get_flat(&fc.key)? {
            MEMO_THROWS => None,
            // (per-state trials count served answers; argument-memo entries have none)
            e => Some(!self.memo_entries[e as usize].list.is_empty()),
        }
    }

    /// A memoizable predicate: serve the call from the table, or fill the table entry first. With
    /// `gen`, a per-state table entry for the general call whose arguments start at `gen` (and, if
    /// its third element is not 0, for that context id).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn call_memo(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        cutb: u32,
        next: u32,
        gen: Option<(u32, bool, u64)>,
    ) -> Result<Step, SolveError> {
        let state = gen.is_some();
        let (gen, general, cid) = gen.unwrap_or((args, false, 0));
        let mut fc = FlatCall::EMPTY;
        let key = if memo_key_flat(&self.store, p, gen, arity, cid, &mut fc) {
            let (table, entries) = if state {
                (&mut self.state_table, &self.state_entries)
            } else {
                (&mut self.memo_table, &self.memo_entries)
            };
            match table.get_flat(&fc.key) {
                Some(MEMO_THROWS) if !state => return self.call_user(data, p, args, arity, next),
                Some(e) if !general => {
                    // the key is the call's own (not a generalisation): its answers are instances
                    // of the call, equal to it in the positions bound to atomic values, and equal
                    // in the positions of one variable
                    let entry = &entries[(e & !STATE_ENTRY) as usize];
                    match fc.answer_at_once(&mut self.store, entry) {
                        Some(false) => return Ok(Step::Fail),
                        Some(true) => {
                            self.cur = next;
                            return Ok(Step::Go);
                        }
                        None => {}
                    }
                    return self.serve_memo(e, 0, args, arity, next, None, fc.bound);
                }
                Some(e) => return self.serve_memo(e, 0, args, arity, next, None, 0),
                None => MemoKey::Flat(fc.key),
            }
        } else {
            let mut words = std::mem::take(&mut self.memo_words);
            let mut vars = std::mem::take(&mut self.memo_vars);
            let mut stack = std::mem::take(&mut self.memo_stack);
            let small = memo_key(
                &self.store,
                p,
                gen,
                arity,
                &mut words,
                &mut vars,
                &mut stack,
            );
            if small && cid != 0 {
                // context ids are unique: entries of other contexts are never hit
                words.push(cid);
            }
            let table = if state {
                &self.state_table
            } else {
                &self.memo_table
            };
            let hit = if small {
                table.long.get(&words[..]).copied()
            } else {
                None
            };
            let key = (small && hit.is_none()).then(|| MemoKey::Long(words[..].into()));
            self.memo_words = words;
            self.memo_vars = vars;
            self.memo_stack = stack;
            if let Some(e) = hit {
                if e == MEMO_THROWS {
                    return self.call_user(data, p, args, arity, next);
                }
                return self.serve_memo(e, 0, args, arity, next, None, 0);
            }
            let Some(key) = key else {
                return self.call_user(data, p, args, arity, next);
            };
            key
        };
        let fill = self.fills.len() as u32;
        self.fills.push(Fill {
            key,
            answers: Answers::default(),
            start: self.inferences,
            cp: self.cps.len() as u32,
            state,
            general,
        });
        self.push_cp(
            CpKind::MemoFill {
                fill,
                pred: p,
                args,
                arity,
            },
            next,
            cutb,
        )?;
        let k = self.push_frame(
            FrameKind::MemoCollect {
                fill,
                args: gen,
                arity,
            },
            cutb,
            next,
        )?;
        self.call_user(data, p, gen, arity, k)
    }

    /// Unifies the call's arguments with the answers of memo entry `e` from answer `pos` on, leaving
    /// a choicepoint for the remaining ones at the first that unifies. `skip`: argument positions
    /// that equal every answer's (bound to atomic values in the entry's own key), not unified.
    #[allow(clippy::too_many_arguments)]
    fn serve_memo(
        &mut self,
        e: u32,
        pos: usize,
        args: u32,
        arity: u32,
        next: u32,
        marks: Option<(u32, u32, u32)>,
        skip: u32,
    ) -> Result<Step, SolveError> {
        let trial = if e & STATE_ENTRY != 0 {
            self.state_entries[(e & !STATE_ENTRY) as usize].trial
        } else {
            None
        };
        let mut tried = 0u64;
        let r = self.serve_answers(e, pos, args, arity, next, marks, skip, &mut tried);
        if let Some((q, k)) = trial {
            if let Some(stat) = self.state_stats.get_mut(&q) {
                stat.tried[k] += tried;
            }
        }
        r
    }

    /// [`Machine::serve_memo`], counting the answers tried in `tried`.
    #[allow(clippy::too_many_arguments)]
    fn serve_answers(
        &mut self,
        e: u32,
        pos: usize,
        args: u32,
        arity: u32,
        next: u32,
        marks: Option<(u32, u32, u32)>,
        skip: u32,
        tried: &mut u64,
    ) -> Result<Step, SolveError> {
        let entry = entry_of(&self.state_entries, &self.memo_entries, e);
        let n = entry.len();
        if pos >= n {
            return Ok(Step::Fail);
        }
        if entry.atomic && entry.trial.is_none() && arity as usize <= FLAT_KEY_ARITY {
            return self.serve_atomic(e, pos, args, arity, next, marks, skip);
        }
        // the call's atomic arguments (not already equal by the key): an answer that differs
        // there is passed over without unifying it (and undoing that)
        let mut bound = [(0u32, Cell::Atom(atom::NIL)); FLAT_KEY_ARITY];
        let mut nb = 0;
        for j in 0..arity.min(FLAT_KEY_ARITY as u32) {
            if skip & (1 << j) != 0 {
                continue;
            }
            let b = self.store.deref(self.store.heap[(args + j) as usize]);
            if let Cell::Atom(_) | Cell::Int(_) | Cell::Str(_) | Cell::Float(_) = b {
                bound[nb] = (j, b);
                nb += 1;
            }
        }
        let bound = &bound[..nb];
        if pos + 1 == n {
            *tried += 1;
            // the last (often the only) answer: no choicepoint, and a failure is undone by
            // backtracking as for any other goal
            if entry.may_unify(pos, bound) && entry.unify(&mut self.store, pos, args, arity, skip) {
                self.cur = next;
                return Ok(Step::Go);
            }
            return Ok(Step::Fail);
        }
        let (heap, trail, frames) = self.heights(marks);
        // every binding is trailed, so that a failed answer can be undone here
        let saved_mark = self.store.mark;
        self.store.mark = heap;
        let mut k = pos;
        while k + 1 < n {
            *tried += 1;
            if !entry.may_unify(k, bound) {
                k += 1;
                continue;
            }
            let ok = entry.unify(&mut self.store, k, args, arity, skip);
            k += 1;
            if ok {
                // (the mark is `heap` already)
                self.push_cp_at(
                    CpKind::MemoServe {
                        entry: e,
                        pos: k as u32,
                        args,
                        arity,
                        skip,
                    },
                    (heap, trail, frames),
                    next,
                    0,
                )?;
                self.cur = next;
                return Ok(Step::Go);
            }
            self.store.undo_to(trail as usize, |_| {});
            self.store.heap.truncate(heap as usize);
        }
        // the last answer, as above
        self.store.mark = saved_mark;
        *tried += 1;
        if entry.may_unify(k, bound) && entry.unify(&mut self.store, k, args, arity, skip) {
            self.cur = next;
            return Ok(Step::Go);
        }
        Ok(Step::Fail)
    }

    /// [`Machine::serve_answers`] for an entry whose answers are all atomic tuples (not measured
    /// by a trial): the call's arguments are classified once (atomic values to compare, first
    /// occurrences of variables to bind, repeated variables to compare, compounds that match no
    /// answer), then each answer from `pos` on is compared cell by cell, and only a matching one is
    /// bound, which is what unifying the answers in order would bind. A choicepoint resumes at the
    /// next answer if any remain.
    #[allow(clippy::too_many_arguments)]
    fn serve_atomic(
        &mut self,
        e: u32,
        pos: usize,
        args: u32,
        arity: u32,
        next: u32,
        marks: Option<(u32, u32, u32)>,
        skip: u32,
    ) -> Result<Step, SolveError> {
        let a = arity as usize;
        let mut want = [(0usize, [0u64; 2]); FLAT_KEY_ARITY];
        let mut nw = 0;
        let mut same = [(0usize, 0usize); FLAT_KEY_ARITY];
        let mut ns = 0;
        let mut vars = [(0usize, 0u32); FLAT_KEY_ARITY];
        let mut nv = 0;
        let argv = &self.store.heap[args as usize..args as usize + a];
        let mut todo = !skip & ((1u32 << a) - 1);
        while todo != 0 {
            let j = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            match self.store.deref(argv[j]) {
                Cell::Ref(r) => match vars[..nv].iter().find(|v| v.1 == r) {
                    Some(&(i, _)) => {
                        same[ns] = (j, i);
                        ns += 1;
                    }
                    None => {
                        vars[nv] = (j, r);
                        nv += 1;
                    }
                },
                // no atomic answer unifies with a compound
                Cell::Struct(_) | Cell::List(_) => return Ok(Step::Fail),
                b => {
                    want[nw] = (j, atomic_code(b));
                    nw += 1;
                }
            }
        }
        let entry = entry_of(&self.state_entries, &self.memo_entries, e);
        let n = entry.len();
        let (want, same) = (&want[..nw], &same[..ns]);
        let codes = &entry.codes[..n * a];
        let mut k = pos;
        loop {
            if k >= n {
                return Ok(Step::Fail);
            }
            let v = &codes[k * a..(k + 1) * a];
            if want.iter().all(|&(j, b)| v[j] == b) && same.iter().all(|&(j, i)| v[j] == v[i]) {
                break;
            }
            k += 1;
        }
        let stride = 1 + a;
        if k + 1 < n {
            // answers remain: resumed at the next one (not looked for now: a caller that needs
            // one answer, e.g. under `\+`, would pay for the search)
            let heights = self.heights(marks);
            self.push_cp_at(
                CpKind::MemoServe {
                    entry: e,
                    pos: k as u32 + 1,
                    args,
                    arity,
                    skip,
                },
                heights,
                next,
                0,
            )?;
        }
        let entry = entry_of(&self.state_entries, &self.memo_entries, e);
        let v = &entry.cells[k * stride + 1..(k + 1) * stride];
        for &(j, r) in &vars[..nv] {
            self.store.bind(r, v[j]);
        }
        self.cur = next;
        Ok(Step::Go)
    }

    /// Gives up memoizing the innermost fill (too many answers or steps, or an exception): restores
    /// the state at its call and runs the predicate directly, never memoizing it again.
    fn abort_fill(&mut self, data: &ProgramData, host: &mut dyn Host) -> Result<Step, SolveError> {
        let Some(f) = self.fills.last() else {
            return Ok(Step::Fail);
        };
        let cpi = f.cp as usize;
        self.cut(cpi as u32 + 1);
        self.restore(cpi, host);
        let cp = self.cps[cpi];
        self.pop_cp();
        self.fills.pop();
        let CpKind::MemoFill {
            pred, args, arity, ..
        } = cp.kind
        else {
            return Ok(Step::Fail);
        };
        self.no_memo.insert(pred);
        self.call_user(data, pred, args, arity, cp.next)
    }

    fn try_clause(
        &mut self,
        data: &ProgramData,
        p: u32,
        ci: u32,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        let c: &ClauseT = &data.preds[p as usize].clauses[ci as usize];
        let env = self.store.len();
        self.store.heap.extend((env..env + c.nvars).map(Cell::Ref));
        for (i, &t) in c.head_args.iter().enumerate() {
            let h = self.store.heap[args as usize + i];
            // variables and constants here, compounds in `unify_head`
            let ok = match t {
                Cell::Ref(s) => {
                    self.head_first_var(env + s, h);
                    true
                }
                // `program::VOID_ARG`: a variable met nowhere else
                Cell::Functor(..) => true,
                Cell::Var(s) => self.unify_head_var(env + s, h),
                Cell::List(p) => self.unify_head_list(c, p, h, env),
                Cell::Struct(_) => self.unify_head(c, t, h, env),
                constant => self.unify_head_const(constant, h),
            };
            if !ok {
                return Ok(Step::Fail);
            }
        }
        if c.body.is_empty() {
            self.cur = next;
        } else {
            self.cur = self.push_frame(
                FrameKind::Body {
                    pred: p,
                    clause: ci,
                    pc: 0,
                    env,
                },
                cutb,
                next,
            )?;
        }
        Ok(Step::Go)
    }

    fn load_args(&mut self, args: u32, arity: u32) -> Vec<Cell> {
        let mut buf = std::mem::take(&mut self.args_buf);
        buf.clear();
        buf.extend_from_slice(&self.store.heap[args as usize..(args + arity) as usize]);
        buf
    }

    #[allow(clippy::too_many_arguments)]
    fn call_native(
        &mut self,
        f: Builtin,
        name: Atom,
        arity: u32,
        args: u32,
        next: u32,
        redo: Option<u64>,
        marks: Option<(u32, u32, u32)>,
    ) -> Result<Step, SolveError> {
        let (saved_mark, (heap, trail, frames)) = self.begin_call(marks);
        let r = self.with_args(args, arity, |m, buf| {
            f(
                &mut Ctx {
                    store: &mut m.store,
                    rng: &mut m.rng,
                },
                buf,
                redo,
            )
        });
        let retry = |state| CpKind::Native {
            f,
            args,
            arity,
            state,
            name,
        };
        self.finish_call(r, retry, saved_mark, (heap, trail, frames), next)
    }

    /// Before a native or host call: the mark to restore, and the heights a retry choicepoint gets
    /// (`marks` when retrying). Every binding made by the call is trailed.
    fn begin_call(&mut self, marks: Option<(u32, u32, u32)>) -> (u32, (u32, u32, u32)) {
        let saved_mark = self.store.mark;
        let heights = self.heights(marks);
        self.store.mark = heights.0;
        (saved_mark, heights)
    }

    /// Runs `f` with a copy of the `arity` argument cells at `args` (on the stack for small
    /// arities, else in the reused `args_buf`): the callee may grow the heap.
    #[inline]
    fn with_args<R>(
        &mut self,
        args: u32,
        arity: u32,
        f: impl FnOnce(&mut Machine, &[Cell]) -> R,
    ) -> R {
        const SMALL: usize = 3;
        let (a, n) = (args as usize, arity as usize);
        if n <= SMALL {
            let mut small = [Cell::Atom(atom::NIL); SMALL];
            small[..n].copy_from_slice(&self.store.heap[a..a + n]);
            f(self, &small[..n])
        } else {
            let buf = self.load_args(args, arity);
            let r = f(self, &buf);
            self.args_buf = buf;
            r
        }
    }

    /// What a native or host predicate's answer means for the machine: continue, fail, throw, or
    /// continue leaving a choicepoint (`retry(state)`) made with the heights from before the call.
    fn finish_call(
        &mut self,
        r: Result<Det, Term>,
        retry: impl FnOnce(u64) -> CpKind,
        saved_mark: u32,
        (heap, trail, frames): (u32, u32, u32),
        next: u32,
    ) -> Result<Step, SolveError> {
        match r {
            Ok(Det::True) => {
                self.store.mark = saved_mark;
                self.cur = next;
                Ok(Step::Go)
            }
            Ok(Det::Fail) => {
                self.store.mark = saved_mark;
                Ok(Step::Fail)
            }
            Ok(Det::Retry(state)) => {
                self.push_cp_at(retry(state), (heap, trail, frames), next, 0)?;
                self.cur = next;
                Ok(Step::Go)
            }
            Err(ball) => {
                self.store.mark = saved_mark;
                Ok(Step::Throw(ball))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn call_host(
        &mut self,
        host: &mut dyn Host,
        id: u32,
        name: Atom,
        arity: u32,
        args: u32,
        next: u32,
        redo: Option<u64>,
        marks: Option<(u32, u32, u32)>,
    ) -> Result<Step, SolveError> {
        let (saved_mark, (heap, trail, frames)) = self.begin_call(marks);
        let r = self.with_args(args, arity, |m, buf| {
            host.call(id, &mut m.store, &mut m.rng, buf, redo)
        });
        let retry = |state| CpKind::Host {
            id,
            args,
            arity,
            state,
            name,
        };
        self.finish_call(r, retry, saved_mark, (heap, trail, frames), next)
    }

    /// The name, arity and argument address of callable heap term `g` (dereferenced); `None` for a
    /// variable or a non-callable term.
    #[inline(always)]
    fn goal_parts(&self, g: Cell) -> Option<(Atom, u32, u32)> {
        match g {
            Cell::Atom(a) => Some((a, 0, 0)),
            Cell::Struct(p) => match self.store.heap[p as usize] {
                Cell::Functor(n, k) => Some((n, k, p + 1)),
                _ => None,
            },
            Cell::List(p) => Some((atom::DOT, 2, p)),
            _ => None,
        }
    }

    /// The dispatch of a meta-called `name/arity` (cached: the program does not change).
    #[inline(always)]
    fn resolve_goal(&mut self, data: &ProgramData, name: Atom, arity: u32) -> Dispatch {
        let slot = &self.resolve_cache[resolve_slot(name, arity)];
        if slot.0 == name && slot.1 == arity {
            return slot.2;
        }
        self.resolve_slow(data, name, arity)
    }

    #[inline(never)]
    fn resolve_slow(&mut self, data: &ProgramData, name: Atom, arity: u32) -> Dispatch {
        let d = match self.resolved.get(&(name, arity)) {
            Some(&d) => d,
            None => {
                let d = super::program::resolve(data, name, arity);
                self.resolved.insert((name, arity), d);
                d
            }
        };
        self.resolve_cache[resolve_slot(name, arity)] = (name, arity, d);
        d
    }

    /// Runs callable-or-not heap term `g` (dereferenced) as a meta-called goal with cut barrier
    /// `cutb` and continuation `next`, as a goal frame of its converted body would: a plain goal
    /// (not a variable, not a control construct) is dispatched here, with the current frame where
    /// that popped goal frame would have been (the same call path in errors); anything else goes
    /// through [`Machine::prepare_body`] and a goal frame.
    fn meta_call(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        g: Cell,
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        if let Some((name, arity, args)) = self.goal_parts(g) {
            let disp = self.resolve_goal(data, name, arity);
            if !matches!(disp, Dispatch::Control(_)) {
                self.cur = self.frames.len() as u32;
                return self.dispatch_nested(data, host, disp, name, arity, args, cutb, next);
            }
        }
        let goal = match self.prepare_body(g) {
            Ok(g) => g,
            Err(e) => return Ok(Step::Throw(e)),
        };
        self.cur = self.push_frame(FrameKind::Goal { goal }, cutb, next)?;
        Ok(Step::Go)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn control(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        c: Control,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        let arg = |m: &Machine, i: u32| m.store.heap[(args + i) as usize];
        match c {
            Control::True => {
                self.cur = next;
            }
            Control::Fail => return Ok(Step::Fail),
            Control::Cut => {
                self.cut(cutb);
                self.cur = next;
            }
            Control::Conj => {
                let b = self.push_frame(FrameKind::Goal { goal: arg(self, 1) }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal: arg(self, 0) }, cutb, b)?;
            }
            Control::Disj => {
                let left = self.store.deref(arg(self, 0));
                let right = arg(self, 1);
                match self.store.functor(left) {
                    Some((f, 2)) if f == atom::ARROW || f == atom::SOFT_ARROW => {
                        let cond = self.store.arg(left, 0);
                        let then = self.store.arg(left, 1);
                        let h = self.cps.len() as u32;
                        self.push_cp(CpKind::Alt { goal: right }, next, cutb)?;
                        let t = self.push_frame(FrameKind::Goal { goal: then }, cutb, next)?;
                        let commit = if f == atom::ARROW {
                            FrameKind::CutTo { height: h }
                        } else {
                            FrameKind::SoftCut { cp: h }
                        };
                        let k = self.push_frame(commit, cutb, t)?;
                        self.cur = self.push_frame(FrameKind::Goal { goal: cond }, h + 1, k)?;
                    }
                    _ => {
                        self.push_cp(CpKind::Alt { goal: right }, next, cutb)?;
                        self.cur = self.push_frame(FrameKind::Goal { goal: left }, cutb, next)?;
                    }
                }
            }
            Control::IfThen => {
                let h = self.cps.len() as u32;
                let t = self.push_frame(FrameKind::Goal { goal: arg(self, 1) }, cutb, next)?;
                let k = self.push_frame(FrameKind::CutTo { height: h }, cutb, t)?;
                self.cur = self.push_frame(FrameKind::Goal { goal: arg(self, 0) }, h, k)?;
            }
            Control::SoftIfThen => {
                let h = self.cps.len() as u32;
                let t = self.push_frame(FrameKind::Goal { goal: arg(self, 1) }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal: arg(self, 0) }, h, t)?;
            }
            Control::Not => return self.negation(data, host, args, cutb, next),
            Control::Call(0) => {
                let g = self.store.deref(arg(self, 0));
                let h = self.cps.len() as u32;
                return self.meta_call(data, host, g, h, next);
            }
            Control::Call(n) => {
                let g = self.store.deref(arg(self, 0));
                let extra: Vec<Cell> = (1..=n as u32).map(|i| arg(self, i)).collect();
                let goal = match g {
                    Cell::Ref(_) => return Ok(Step::Throw(Term::instantiation_error())),
                    Cell::Atom(a) => self.store.make_compound(a, &extra),
                    Cell::Struct(_) | Cell::List(_) => {
                        let (f, k) = self.store.functor(g).expect("compound");
                        let mut all: Vec<Cell> = (0..k).map(|i| self.store.arg(g, i)).collect();
                        all.extend_from_slice(&extra);
                        // a list cell with extra arguments is '.'/N, not a list
                        let p = self.store.len();
                        self.store.heap.push(Cell::Functor(f, all.len() as u32));
                        self.store.heap.extend_from_slice(&all);
                        Cell::Struct(p)
                    }
                    other => {
                        let t = self.store.to_term(other);
                        return Ok(Step::Throw(Term::type_error(atom::CALLABLE, t)));
                    }
                };
                let h = self.cps.len() as u32;
                return self.meta_call(data, host, goal, h, next);
            }
            Control::Catch => {
                let goal = match self.prepare_body(arg(self, 0)) {
                    Ok(g) => g,
                    Err(e) => return Ok(Step::Throw(e)),
                };
                let h = self.cps.len() as u32;
                self.push_cp(
                    CpKind::Catch {
                        catcher: arg(self, 1),
                        recovery: arg(self, 2),
                        active: true,
                    },
                    next,
                    cutb,
                )?;
                let pop = self.push_frame(FrameKind::PopCatch { cp: h }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal }, h + 1, pop)?;
            }
            Control::Throw => {
                let b = self.store.deref(arg(self, 0));
                if let Cell::Ref(_) = b {
                    return Ok(Step::Throw(Term::instantiation_error()));
                }
                return Ok(Step::Throw(self.store.to_term(b)));
            }
            Control::Findall | Control::Findall4 => {
                let template = arg(self, 0);
                let goal = match self.prepare_body(arg(self, 1)) {
                    Ok(g) => g,
                    Err(e) => return Ok(Step::Throw(e)),
                };
                let result = arg(self, 2);
                let tail = if c == Control::Findall4 {
                    Some(arg(self, 3))
                } else {
                    None
                };
                let id = self.collectors.len() as u32;
                self.collectors.push(Collector::default());
                let h = self.cps.len() as u32;
                self.push_cp(CpKind::Findall { id, result, tail }, next, cutb)?;
                let k = self.push_frame(FrameKind::Collect { id, template }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal }, h + 1, k)?;
            }
        }
        Ok(Step::Go)
    }

    /// `\+ G` and `not(G)` (argument at `args`), out of [`Machine::control`]: by far its most
    /// frequent construct, dispatched to directly.
    #[inline(never)]
    fn negation(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        let g = self.store.deref(self.store.heap[args as usize]);
        let h = self.cps.len() as u32;
        if let Some((name, arity, gargs)) = self.goal_parts(g) {
            let disp = self.resolve_goal(data, name, arity);
            if matches!(disp, Dispatch::Host(_) | Dispatch::Native(_))
                && self.cps.len() + 1 < self.limits.max_choicepoints
                && self.frames.len() < self.limits.max_frames
            {
                return self.not_direct(data, host, disp, (name, arity, gargs), cutb, next);
            }
            if let Dispatch::User(p) = disp {
                // an argument-memo call whose table entry is filled: decided by whether the entry
                // has an answer, with the inference counted as `dispatch` counts it. Only when
                // the general path below could not end otherwise: no profile count or budget
                // check due (`check_at`, `heap_at`), no garbage collection or memo fill abort
                // due at its exit frame (`gc_at`, `overdue`), room for its choicepoint and frame
                if self.inferences < self.check_at
                    && self.store.heap.len() <= self.heap_at.min(self.gc_at)
                    && !self.fills.overdue(self.inferences + 1)
                    && self.cps.len() + 1 < self.limits.max_choicepoints
                    && self.frames.len() < self.limits.max_frames
                {
                    if let Some(found) = self.memo_answer_exists(data, p, gargs, arity) {
                        self.inferences += 1;
                        self.last_call = (name, arity);
                        if found {
                            return Ok(Step::Fail);
                        }
                        self.cur = next;
                        return Ok(Step::Go);
                    }
                }
            }
            if !matches!(disp, Dispatch::Control(_)) {
                // a plain goal: dispatched here, as the goal frame of the general path
                // below would (same cut barrier, continuation and current frame)
                self.push_cp(CpKind::Not, next, cutb)?;
                let k = self.push_frame(FrameKind::NotExit { height: h }, cutb, next)?;
                self.cur = k + 1;
                let r = self.dispatch_nested(data, host, disp, name, arity, gargs, h + 1, k)?;
                return Ok(self.not_outcome(r, h, k, next, host));
            }
        }
        let goal = match self.prepare_body(g) {
            Ok(g) => g,
            Err(e) => return Ok(Step::Throw(e)),
        };
        self.push_cp(CpKind::Not, next, cutb)?;
        let k = self.push_frame(FrameKind::NotExit { height: h }, cutb, next)?;
        self.cur = self.push_frame(FrameKind::Goal { goal }, h + 1, k)?;
        Ok(Step::Go)
    }

    /// `\+ G` for a host or native predicate `G` (`goal`: name, arity, arguments), called without
    /// the negation's choicepoint and exit frame of the general path: such a call is decided at
    /// once (it fails, succeeds, possibly leaving one retry choicepoint, or throws). Exact: the
    /// caller checked that the budgets of that path's choicepoint and frame (and of a retry
    /// choicepoint above them) hold, the call sees the same inference count, current frame (the
    /// height the exit frame would have had is the frame stack's, so the call path is the same)
    /// and trailing mark, and
    /// - failure undoes what the call did and continues at `next`, as backtracking into the
    ///   negation's choicepoint does;
    /// - success removes the retry choicepoint and fails, as the exit frame's step does; when
    ///   that step would first collect garbage or abort a memo fill, the general path's state is
    ///   made instead (its choicepoint under the retry one, which gets that path's heights, and
    ///   its exit frame) and the step runs it;
    /// - an exception undoes what the call did, as unwinding through the negation's choicepoint
    ///   does first.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn not_direct(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        disp: Dispatch,
        (name, arity, gargs): (Atom, u32, u32),
        cutb: u32,
        next: u32,
    ) -> Result<Step, SolveError> {
        let h = self.cps.len() as u32;
        let k = self.frames.len() as u32;
        let (heap, trail) = (self.store.len(), self.store.trail.len() as u32);
        self.cur = k;
        match self.dispatch_nested(data, host, disp, name, arity, gargs, h + 1, k)? {
            Step::Go => {
                debug_assert!(self.cur == k && self.cps.len() <= h as usize + 1);
                if self.store.heap.len() > self.gc_at || self.fills.overdue(self.inferences) {
                    let not = ChoicePoint {
                        kind: CpKind::Not,
                        heap,
                        trail,
                        frames: k,
                        next,
                        cutb,
                    };
                    // (the retry choicepoint is changed before the insertion, which updates the
                    // stack's protection height from the top)
                    if let Some(retry) = self.cps.get_mut(h as usize) {
                        retry.frames = k + 1;
                        retry.next = k;
                    }
                    self.cps.insert(h as usize, not);
                    self.frames.push(Frame {
                        kind: FrameKind::NotExit { height: h },
                        cutb,
                        next,
                    });
                    self.store.mark = heap;
                    self.cur = k;
                    return Ok(Step::Go);
                }
                if self.cps.len() > h as usize {
                    self.pop_cp();
                }
                Ok(Step::Fail)
            }
            Step::Fail => {
                debug_assert!(self.cps.len() == h as usize);
                self.restore_heights(trail, heap, k, host);
                self.cur = next;
                Ok(Step::Go)
            }
            Step::Throw(b) => {
                self.restore_heights(trail, heap, k, host);
                Ok(Step::Throw(b))
            }
        }
    }

    /// The outcome `r` of dispatching a negated plain goal in place (negation choicepoint at
    /// `h`, exit frame `k`, continuation `next`), finished here when the goal was decided by that
    /// one dispatch, as the machine would finish it next:
    /// - it succeeded (the continuation is the exit frame): what the exit frame's step does, if
    ///   that step would do nothing before it (no garbage collection, no memo fill to abort);
    /// - it failed leaving no choicepoint of its own: what backtracking into the negation's
    ///   choicepoint does (undo the goal's bindings, continue at `next`).
    ///
    /// Anything else (choicepoints left, more goals to run, an exception) is returned as is.
    #[inline]
    fn not_outcome(&mut self, r: Step, h: u32, k: u32, next: u32, host: &mut dyn Host) -> Step {
        match r {
            Step::Go if self.cur == k => {
                if self.store.heap.len() > self.gc_at || self.fills.overdue(self.inferences) {
                    return r;
                }
                if self.cps.len() == h as usize + 1 {
                    self.pop_cp();
                } else {
                    self.cut(h);
                }
                Step::Fail
            }
            Step::Fail if self.cps.len() == h as usize + 1 => {
                self.restore(h as usize, host);
                self.pop_cp();
                self.cur = next;
                Step::Go
            }
            r => r,
        }
    }

    /// ISO body conversion of a meta-called goal: a variable in a control position (an argument of
    /// `,`, `;`, `->`, `*->`) becomes `call(V)`, so that a cut bound to it later stays local; a
    /// number or string there is a `type_error(callable, Goal)` naming the whole goal (SWI-Prolog).
    fn prepare_body(&mut self, goal: Cell) -> Result<Cell, Term> {
        // the number of goal arguments of a control construct (0: not one)
        let control_args = |s: &Store, c: Cell| match s.functor(c) {
            Some((f, 2))
                if f == atom::COMMA
                    || f == atom::SEMI
                    || f == atom::BAR
                    || f == atom::ARROW
                    || f == atom::SOFT_ARROW =>
            {
                2
            }
            Some((f, 1)) if f == atom::NOT_PROVABLE => 1,
            _ => 0,
        };
        let is_control = |s: &Store, c: Cell| control_args(s, c) > 0;
        let g = self.store.deref(goal);
        if !is_control(&self.store, g) {
            return Ok(g);
        }
        let mut has_var = false;
        let mut stack = vec![g];
        while let Some(c) = stack.pop() {
            let c = self.store.deref(c);
            if is_control(&self.store, c) {
                for i in (0..control_args(&self.store, c)).rev() {
                    stack.push(self.store.arg(c, i));
                }
            } else {
                match c {
                    Cell::Ref(_) => has_var = true,
                    Cell::Atom(_) | Cell::Struct(_) | Cell::List(_) => {}
                    _ => return Err(Term::type_error(atom::CALLABLE, self.store.to_term(g))),
                }
            }
        }
        if !has_var {
            return Ok(g);
        }
        enum Job {
            Visit(Cell),
            Build(Atom, u32),
        }
        let mut jobs = vec![Job::Visit(g)];
        let mut out: Vec<Cell> = Vec::new();
        while let Some(job) = jobs.pop() {
            match job {
                Job::Visit(c) => {
                    let c = self.store.deref(c);
                    if is_control(&self.store, c) {
                        let (f, n) = self.store.functor(c).expect("control construct");
                        jobs.push(Job::Build(f, n));
                        for i in (0..n).rev() {
                            jobs.push(Job::Visit(self.store.arg(c, i)));
                        }
                    } else if let Cell::Ref(_) = c {
                        let call = self.store.make_compound(atom::CALL, &[c]);
                        out.push(call);
                    } else {
                        out.push(c);
                    }
                }
                Job::Build(f, n) => {
                    let args = out.split_off(out.len() - n as usize);
                    let t = self.store.make_compound(f, &args);
                    out.push(t);
                }
            }
        }
        Ok(out.pop().expect("converted body"))
    }

    /// Backtracks to the newest choicepoint with an alternative; `Ok(false)` if none is left.
    fn backtrack(&mut self, data: &ProgramData, host: &mut dyn Host) -> Result<bool, SolveError> {
        loop {
            let Some(&cp) = self.cps.last() else {
                return Ok(false);
            };
            let idx = self.cps.len() - 1;
            self.restore(idx, host);
            match cp.kind {
                CpKind::Clauses {
                    pred,
                    list,
                    pos,
                    args,
                } => {
                    let cands = &data.preds[pred as usize].index.lists[list as usize];
                    let ci = cands[pos as usize];
                    if pos as usize + 1 < cands.len() {
                        if let CpKind::Clauses { pos: p, .. } = &mut self.cps[idx].kind {
                            *p = pos + 1;
                        }
                    } else {
                        self.pop_cp();
                    }
                    self.inferences += 1;
                    if self.inferences > self.limits.max_inferences {
                        return Err(self.budget("inferences", self.limits.max_inferences));
                    }
                    match self.try_clause(data, pred, ci, args, idx as u32, cp.next)? {
                        Step::Go => return Ok(true),
                        Step::Fail => continue,
                        Step::Throw(b) => {
                            self.throw(data, host, b)?;
                            return Ok(true);
                        }
                    }
                }
                CpKind::Alt { goal } => {
                    self.pop_cp();
                    self.cur = self.push_frame(FrameKind::Goal { goal }, cp.cutb, cp.next)?;
                    return Ok(true);
                }
                CpKind::Not => {
                    // the negated goal failed: the negation succeeds
                    self.pop_cp();
                    self.cur = cp.next;
                    return Ok(true);
                }
                CpKind::Native {
                    f,
                    args,
                    arity,
                    state,
                    name,
                } => {
                    self.pop_cp();
                    self.inferences += 1;
                    self.last_call = (name, arity);
                    if self.inferences > self.limits.max_inferences {
                        return Err(self.budget("inferences", self.limits.max_inferences));
                    }
                    let marks = Some((cp.heap, cp.trail, cp.frames));
                    match self.call_native(f, name, arity, args, cp.next, Some(state), marks)? {
                        Step::Go => return Ok(true),
                        Step::Fail => continue,
                        Step::Throw(b) => {
                            self.throw(data, host, b)?;
                            return Ok(true);
                        }
                    }
                }
                CpKind::Host {
                    id,
                    args,
                    arity,
                    state,
                    name,
                } => {
                    self.pop_cp();
                    self.inferences += 1;
                    self.last_call = (name, arity);
                    if self.inferences > self.limits.max_inferences {
                        return Err(self.budget("inferences", self.limits.max_inferences));
                    }
                    let marks = Some((cp.heap, cp.trail, cp.frames));
                    match self.call_host(
                        host,
                        id,
                        name,
                        arity,
                        args,
                        cp.next,
                        Some(state),
                        marks,
                    )? {
                        Step::Go => return Ok(true),
                        Step::Fail => continue,
                        Step::Throw(b) => {
                            self.throw(data, host, b)?;
                            return Ok(true);
                        }
                    }
                }
                CpKind::Catch { .. } | CpKind::Dead => {
                    self.pop_cp();
                }
                CpKind::MemoFill {
                    fill,
                    pred,
                    args,
                    arity,
                } => {
                    self.pop_cp();
                    self.fills.truncate(fill as usize + 1);
                    let Some(mut f) = self.fills.pop() else {
                        continue;
                    };
                    f.answers.seal(arity);
                    let e = if f.state {
                        let stat = self.state_stats.entry(pred).or_default();
                        let k = usize::from(!f.general);
                        if !stat.settled() {
                            // measured during the trial only: the choice then stays as made
                            stat.fills[k] += 1;
                            stat.steps[k] += self.inferences - f.start;
                            stat.stored[k] += f.answers.len() as u64;
                            f.answers.trial = Some((pred, k));
                        }
                        let e = self.state_entries.len() as u32 | STATE_ENTRY;
                        self.state_entries.push(f.answers);
                        self.state_table.insert(f.key, e);
                        e
                    } else {
                        self.memo_cells += f.answers.cells.len() + f.answers.len();
                        let e = self.memo_entries.len() as u32;
                        self.memo_entries.push(f.answers);
                        self.memo_table.insert(f.key, e);
                        e
                    };
                    match self.serve_memo(e, 0, args, arity, cp.next, None, 0)? {
                        Step::Go => return Ok(true),
                        Step::Fail => continue,
                        Step::Throw(b) => {
                            self.throw(data, host, b)?;
                            return Ok(true);
                        }
                    }
                }
                CpKind::MemoServe {
                    entry,
                    pos,
                    args,
                    arity,
                    skip,
                } => {
                    self.pop_cp();
                    let marks = Some((cp.heap, cp.trail, cp.frames));
                    match self.serve_memo(entry, pos as usize, args, arity, cp.next, marks, skip)? {
                        Step::Go => return Ok(true),
                        Step::Fail => continue,
                        Step::Throw(b) => {
                            self.throw(data, host, b)?;
                            return Ok(true);
                        }
                    }
                }
                CpKind::Findall { id, result, tail } => {
                    self.pop_cp();
                    let col = self.collectors.pop().unwrap_or_default();
                    debug_assert_eq!(self.collectors.len(), id as usize);
                    self.collected_cells -= col.cells.len() + col.roots.len();
                    let base = self.store.len();
                    self.store
                        .heap
                        .extend(col.cells.iter().map(|&c| relocate(c, base)));
                    let roots: Vec<Cell> = col.roots.iter().map(|&c| relocate(c, base)).collect();
                    let tail = tail.unwrap_or(Cell::Atom(atom::NIL));
                    let list = self.store.make_list(&roots, tail);
                    if self.store.unify(list, result) {
                        self.cur = cp.next;
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Unwinds to the newest active catcher that unifies with `ball`.
    fn throw(
        &mut self,
        _data: &ProgramData,
        host: &mut dyn Host,
        ball: Term,
    ) -> Result<(), SolveError> {
        let ball = self.add_context(ball);
        let info = self.error_info(ball.clone());
        if super::errors::uncatchable(&info.ball) {
            return Err(info);
        }
        while let Some(&cp) = self.cps.last() {
            let idx = self.cps.len() - 1;
            self.restore(idx, host);
            self.pop_cp();
            match cp.kind {
                CpKind::Findall { id, .. } => self.drop_collectors(id),
                CpKind::MemoFill {
                    fill,
                    pred,
                    args,
                    arity,
                    ..
                } => {
                    // the exception came from computing every answer: call the predicate directly
                    // instead, so that it surfaces (or not) exactly as without memoization. An
                    // argument-keyed entry depends on its arguments only: that key is called
                    // directly from now on, the predicate's other keys stay memoized.
                    self.fills.truncate(fill as usize + 1);
                    match self.fills.pop() {
                        Some(f) if !f.state => {
                            self.memo_table.insert(f.key, MEMO_THROWS);
                        }
                        _ => {
                            self.no_memo.insert(pred);
                        }
                    }
                    let p = &_data.preds[pred as usize];
                    let argv: Vec<Cell> =
                        self.store.heap[args as usize..(args + arity) as usize].to_vec();
                    let goal = self.store.make_compound(p.name, &argv);
                    let h = self.cps.len() as u32;
                    self.cur = self.push_frame(FrameKind::Goal { goal }, h, cp.next)?;
                    return Ok(());
                }
                CpKind::Catch {
                    catcher,
                    recovery,
                    active: true,
                } => {
                    let trail = self.store.trail.len();
                    let saved = self.store.mark;
                    self.store.mark = self.store.len();
                    let b = self.store.build(&ball, &mut Vec::new());
                    if self.store.unify(catcher, b) {
                        self.store.mark = saved;
                        let h = self.cps.len() as u32;
                        self.cur =
                            self.push_frame(FrameKind::Goal { goal: recovery }, h, cp.next)?;
                        return Ok(());
                    }
                    self.store.undo_to(trail, |_| {});
                    self.store.mark = saved;
                }
                _ => {}
            }
        }
        Err(info)
    }

    /// Fills the context of `error(Formal, Context)` with the predicate being called.
    fn add_context(&self, ball: Term) -> Term {
        if let Term::Compound(f, args) = &ball {
            if *f == atom::ERROR && args.len() == 2 && matches!(args[1], Term::Var(_)) {
                let (name, arity) = self.last_call;
                let fresh = Term::Var(args[0].var_count());
                let ctx = Term::compound(
                    "context",
                    vec![Term::indicator(name, arity as usize), fresh],
                );
                return Term::Compound(atom::ERROR, Arc::from(vec![args[0].clone(), ctx]));
            }
        }
        ball
    }
}

impl Machine {
    /// Compacts the heap above the newest choicepoint (and above `base`): a sliding mark-compact
    /// collection that keeps the order of the surviving cells, so every block (compound, list cell,
    /// clause environment) stays contiguous. Runs only between steps, when everything live is
    /// reachable from the current continuation or from trailed bindings of older cells.
    ///
    /// Roots: the frames on the current continuation chain created after the newest choicepoint
    /// (environments, goals, findall templates), and the values of cells below the region that were
    /// bound since the newest choicepoint (they are on the trail).
    fn collect_garbage(&mut self, data: &ProgramData) {
        let h0 = self.cps.last().map_or(self.base, |c| c.heap).max(self.base) as usize;
        let top = self.store.heap.len();
        if top <= h0 {
            return;
        }
        let n = top - h0;
        let mut marked = vec![false; n];
        let mut todo: Vec<Cell> = Vec::new();
        let protected = self.protected();
        let trail_from = self.cps.last().map_or(0, |c| c.trail) as usize;
        let heap = &self.store.heap;
        // mark `len` cells from `start` (a block), queueing their values
        let mark_block =
            |start: usize, len: usize, marked: &mut Vec<bool>, todo: &mut Vec<Cell>| {
                for a in start..start + len {
                    if a >= h0 && !marked[a - h0] {
                        marked[a - h0] = true;
                        todo.push(heap[a]);
                    }
                }
            };
        // roots: frames on the current chain above the protected ones
        let mut f = self.cur;
        while f != NO_FRAME && f >= protected && (f as usize) < self.frames.len() {
            let fr = self.frames[f as usize];
            match fr.kind {
                FrameKind::Body {
                    pred, clause, env, ..
                } => {
                    let nvars = data.preds[pred as usize].clauses[clause as usize].nvars as usize;
                    mark_block(env as usize, nvars, &mut marked, &mut todo);
                }
                FrameKind::Goal { goal } => todo.push(goal),
                FrameKind::Collect { template, .. } => todo.push(template),
                _ => {}
            }
            f = fr.next;
        }
        // roots: bindings of older cells since the newest choicepoint
        for e in &self.store.trail[trail_from..] {
            if let TrailEntry::Bind(a) | TrailEntry::Value(a, _) = *e {
                if (a as usize) < h0 {
                    todo.push(heap[a as usize]);
                }
            }
        }
        while let Some(c) = todo.pop() {
            match c {
                Cell::Ref(a) => mark_block(a as usize, 1, &mut marked, &mut todo),
                Cell::List(p) => mark_block(p as usize, 2, &mut marked, &mut todo),
                Cell::Struct(p) => {
                    let arity = match heap.get(p as usize) {
                        Some(Cell::Functor(_, k)) => *k as usize,
                        _ => 0,
                    };
                    mark_block(p as usize, arity + 1, &mut marked, &mut todo);
                }
                _ => {}
            }
        }
        // new addresses
        let mut forward = vec![0u32; n];
        let mut live = 0u32;
        for i in 0..n {
            forward[i] = h0 as u32 + live;
            if marked[i] {
                live += 1;
            }
        }
        let fwd = |c: Cell| -> Cell {
            match c {
                Cell::Ref(a) if a as usize >= h0 => Cell::Ref(forward[a as usize - h0]),
                Cell::Struct(p) if p as usize >= h0 => Cell::Struct(forward[p as usize - h0]),
                Cell::List(p) if p as usize >= h0 => Cell::List(forward[p as usize - h0]),
                other => other,
            }
        };
        // slide the survivors down, updating their pointers
        let heap = &mut self.store.heap;
        for i in 0..n {
            if marked[i] {
                let v = fwd(heap[h0 + i]);
                heap[forward[i] as usize] = v;
            }
        }
        heap.truncate(h0 + live as usize);
        // update the roots
        let trail = &mut self.store.trail;
        for e in trail[trail_from..].iter() {
            if let TrailEntry::Bind(a) | TrailEntry::Value(a, _) = *e {
                if (a as usize) < h0 {
                    let v = fwd(heap[a as usize]);
                    heap[a as usize] = v;
                }
            }
        }
        // entries for cells of the region are not needed: backtracking truncates the region
        let mut k = trail_from;
        for i in trail_from..trail.len() {
            let keep = match trail[i] {
                TrailEntry::Bind(a) | TrailEntry::Value(a, _) => (a as usize) < h0,
                TrailEntry::Host(_) => true,
            };
            if keep {
                trail[k] = trail[i];
                k += 1;
            }
        }
        trail.truncate(k);
        let mut f = self.cur;
        while f != NO_FRAME && f >= protected && (f as usize) < self.frames.len() {
            let fr = &mut self.frames[f as usize];
            match &mut fr.kind {
                FrameKind::Body { env, .. } if *env as usize >= h0 => {
                    *env = forward[*env as usize - h0];
                }
                FrameKind::Goal { goal } => *goal = fwd(*goal),
                FrameKind::Collect { template, .. } => *template = fwd(*template),
                _ => {}
            }
            f = fr.next;
        }
        self.gc_runs += 1;
        self.gc_at = (self.store.heap.len() * 2).max(self.store.heap.len() + GC_MIN);
    }
}

#[cfg(test)]
mod memo_table_tests {
    use super::*;

    fn key(pred: u64, a: u64) -> FlatKey {
        let mut w = [0; FLAT_WORDS];
        w[0] = pred;
        w[1] = a;
        FlatKey {
            hash: mix(mix(0, a), pred),
            w,
        }
    }

    #[test]
    fn cache_agrees_with_the_map() {
        let mut t = MemoTable::default();
        let (a, b) = (key(7, 1), key(7, 2));
        assert_eq!(t.get_flat(&a), None);
        t.insert(MemoKey::Flat(a), 3);
        assert_eq!(t.get_flat(&a), Some(3));
        assert_eq!(t.get_flat(&a), Some(3)); // now from the cache
        assert_eq!(t.get_flat(&b), None);
        // a key entered again (a nested fill of the same call) takes its new entry
        t.insert(MemoKey::Flat(a), MEMO_THROWS);
        assert_eq!(t.get_flat(&a), Some(MEMO_THROWS));
        // keys sharing a slot evict each other, and both are still found
        let mut c = key(7, 3);
        c.hash = a.hash.wrapping_add(MEMO_CACHE_SLOTS as u64);
        t.insert(MemoKey::Flat(c), 5);
        assert_eq!(t.get_flat(&a), Some(MEMO_THROWS));
        assert_eq!(t.get_flat(&c), Some(5));
        t.clear();
        assert_eq!(t.get_flat(&a), None);
        assert_eq!(t.get_flat(&c), None);
        // generations wrap without reviving old slots
        t.insert(MemoKey::Flat(b), 9);
        t.gen = u32::MAX;
        t.insert(MemoKey::Flat(a), 4);
        t.clear();
        assert_eq!(t.get_flat(&a), None);
        assert_eq!(t.get_flat(&b), None);
    }
}
