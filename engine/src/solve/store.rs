//! The term store of a running query: a heap of cells, the trail, unification and conversion from and
//! to owned [`Term`]s.
//!
//! Invariants:
//! - An unbound variable is a `Ref` cell that points to itself; binding overwrites it.
//! - A binding of a cell older than the newest choicepoint (`addr < mark`) is recorded on the trail, so
//!   that backtracking can undo it; the heap above a choicepoint's mark is simply truncated.
//! - `Cell::Var` (a clause variable slot) never occurs on the heap: it exists only in clause templates.
//! - No operation here recurses in Rust over the depth of a term: deep lists (a million elements) are
//!   handled with explicit stacks.

use crate::atom::{self, Atom};
use crate::term::Term;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

/// After this many steps a traversal starts remembering the compound cells (or pairs) it has seen,
/// so that cyclic terms (made by unification without occurs check, `X = f(X)`) and heavily shared
/// ones cannot make it run forever: small terms never pay for it.
const CYCLE_CHECK_AFTER: u32 = 1 << 16;

/// [`Store::unify_lists`] walks at most this many list cells before handing over to the general
/// loop.
const SPINE_STEPS: u32 = 64;

/// [`Store::compare`] walks terms of at most this many node pairs by recursion.
const COMPARE_SMALL_NODES: u32 = 64;

/// Remembers visited keys once a traversal has run long enough (see [`CYCLE_CHECK_AFTER`]).
struct Visited<K> {
    steps: u32,
    seen: Option<rustc_hash::FxHashSet<K>>,
}

impl<K: std::hash::Hash + Eq> Visited<K> {
    fn new() -> Visited<K> {
        Visited {
            steps: 0,
            seen: None,
        }
    }
    /// `false` if `k` was seen before (after the threshold).
    #[inline]
    fn first(&mut self, k: K) -> bool {
        if self.steps < CYCLE_CHECK_AFTER {
            self.steps += 1;
            return true;
        }
        self.seen.get_or_insert_with(Default::default).insert(k)
    }
}

/// [`Store::build`] and [`Store::to_term`] convert terms of at most this depth and
/// [`SMALL_NODES`] nodes by plain recursion (no work stacks to allocate).
const SMALL_DEPTH: u32 = 12;
const SMALL_NODES: u32 = 64;

/// Is `t` within `depth` levels and `nodes` nodes (see [`SMALL_DEPTH`])?
fn small_term(t: &Term, depth: u32, nodes: &mut u32) -> bool {
    if *nodes == 0 {
        return false;
    }
    *nodes -= 1;
    match t {
        Term::Compound(_, args) => {
            depth > 0 && args.iter().all(|a| small_term(a, depth - 1, nodes))
        }
        _ => true,
    }
}

/// One word of the store.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell {
    /// A variable: unbound iff the cell at `addr` is `Ref(addr)`, else a reference to follow.
    Ref(u32),
    Atom(Atom),
    Int(i64),
    Float(f64),
    /// A string (contents interned).
    Str(Atom),
    /// A compound term: the address of its `Functor` header; the arguments follow the header.
    Struct(u32),
    /// Header of a compound term (never a value by itself).
    Functor(Atom, u32),
    /// A list cell `[H|T]`: head at `addr`, tail at `addr + 1`.
    List(u32),
    /// A clause variable slot (templates only, never on the heap).
    Var(u32),
}

impl Cell {
    pub fn is_atomic(self) -> bool {
        matches!(
            self,
            Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Str(_)
        )
    }
}

/// What the trail records: a bound variable to reset, or a value to restore in a side table.
#[derive(Clone, Copy, Debug)]
pub enum TrailEntry {
    Bind(u32),
    /// Restore a heap cell to an older value (used by destructive built-ins such as `nb_` state).
    Value(u32, Cell),
    /// An undoable host effect (e.g. a scheduled `create/1`): the host undoes entry `n` of its own log.
    Host(u32),
}

#[derive(Default, Clone)]
pub struct Store {
    pub heap: Vec<Cell>,
    pub trail: Vec<TrailEntry>,
    /// Heap length when the newest choicepoint was made: bindings below it are trailed.
    pub mark: u32,
    unify_stack: Vec<(Cell, Cell)>,
    /// Scratch space of [`Store::copy_out`].
    copy_stack: Vec<(Cell, Option<u32>)>,
    copy_vars: Vec<(u32, u32)>,
}

/// Variables of a term copied by [`Store::copy_out`] looked up linearly up to this many.
const COPY_VARS_LINEAR: usize = 16;

/// Equality of two atomic, non-variable cells as unification sees it: floats by bit pattern
/// (`0.0` and `-0.0` differ, a NaN equals itself), everything else by value.
#[inline(always)]
pub fn atomic_eq(a: Cell, b: Cell) -> bool {
    match (a, b) {
        (Cell::Float(x), Cell::Float(y)) => x.to_bits() == y.to_bits(),
        (a, b) => a == b,
    }
}

impl Store {
    pub fn new() -> Store {
        Store::default()
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.heap.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// A fresh unbound variable.
    #[inline]
    pub fn new_var(&mut self) -> Cell {
        let a = self.heap.len() as u32;
        self.heap.push(Cell::Ref(a));
        Cell::Ref(a)
    }

    /// Follows variable references.
    #[inline]
    pub fn deref(&self, mut c: Cell) -> Cell {
        while let Cell::Ref(a) = c {
            let v = self.heap[a as usize];
            if v == Cell::Ref(a) {
                return c;
            }
            c = v;
        }
        c
    }

    /// Is `c` (after deref) an unbound variable?
    #[inline]
    pub fn is_var(&self, c: Cell) -> bool {
        matches!(self.deref(c), Cell::Ref(_))
    }

    /// Binds the unbound variable at `addr` to `value`.
    #[inline]
    pub fn bind(&mut self, addr: u32, value: Cell) {
        self.heap[addr as usize] = value;
        if addr < self.mark {
            self.trail.push(TrailEntry::Bind(addr));
        }
    }

    /// Undoes trail entries down to `len`; host entries are returned to the caller in undo order.
    /// (Inlined: backtracking's `restore` calls it for every retry.)
    #[inline]
    pub fn undo_to(&mut self, len: usize, mut host: impl FnMut(u32)) {
        while self.trail.len() > len {
            match self.trail.pop() {
                Some(TrailEntry::Bind(a)) => self.heap[a as usize] = Cell::Ref(a),
                Some(TrailEntry::Value(a, v)) => self.heap[a as usize] = v,
                Some(TrailEntry::Host(n)) => host(n),
                None => break,
            }
        }
    }

    /// Name and arity of a callable term (after deref), `None` for variables and numbers.
    #[inline]
    pub fn functor(&self, c: Cell) -> Option<(Atom, u32)> {
        match self.deref(c) {
            Cell::Atom(a) => Some((a, 0)),
            Cell::Struct(p) => match self.heap[p as usize] {
                Cell::Functor(f, n) => Some((f, n)),
                _ => None,
            },
            Cell::List(_) => Some((atom::DOT, 2)),
            _ => None,
        }
    }

    /// Argument `i` (0-based) of a compound term (after deref). Panics if `c` is not compound.
    #[inline]
    pub fn arg(&self, c: Cell, i: u32) -> Cell {
        match self.deref(c) {
            Cell::Struct(p) => self.heap[(p + 1 + i) as usize],
            Cell::List(p) => self.heap[(p + i) as usize],
            other => panic!("arg of non-compound {other:?}"),
        }
    }

    /// Builds `name(args)` (or the atom when `args` is empty).
    pub fn make_compound(&mut self, name: Atom, args: &[Cell]) -> Cell {
        if args.is_empty() {
            return Cell::Atom(name);
        }
        if name == atom::DOT && args.len() == 2 {
            return self.make_list_cell(args[0], args[1]);
        }
        let p = self.heap.len() as u32;
        self.heap.push(Cell::Functor(name, args.len() as u32));
        self.heap.extend_from_slice(args);
        Cell::Struct(p)
    }

    #[inline]
    pub fn make_list_cell(&mut self, head: Cell, tail: Cell) -> Cell {
        let p = self.heap.len() as u32;
        self.heap.push(head);
        self.heap.push(tail);
        Cell::List(p)
    }

    /// A proper list of `items`.
    pub fn make_list(&mut self, items: &[Cell], tail: Cell) -> Cell {
        let mut t = tail;
        for &h in items.iter().rev() {
            t = self.make_list_cell(h, t);
        }
        t
    }

    /// The elements of a proper list, `Err(tail)` with the deref'ed non-list tail otherwise.
    pub fn list_items(&self, c: Cell) -> Result<Vec<Cell>, Cell> {
        let mut out = Vec::new();
        let mut t = self.deref(c);
        loop {
            match t {
                Cell::Atom(a) if a == atom::NIL => return Ok(out),
                Cell::List(p) => {
                    out.push(self.heap[p as usize]);
                    t = self.deref(self.heap[p as usize + 1]);
                }
                other => return Err(other),
            }
        }
    }

    /// Unifies two cells (no occurs check, as in ISO Prolog's `=/2`). Terminates on cyclic terms:
    /// a pair of compounds met again is already being unified (rational-tree unification).
    #[inline]
    pub fn unify(&mut self, a: Cell, b: Cell) -> bool {
        // variables and atomic values without the general loop
        let x = self.deref(a);
        let y = self.deref(b);
        if self.bind_either(x, y) {
            return true;
        }
        match (x, y) {
            (Cell::List(p), Cell::List(q)) => self.unify_lists(p, q),
            (Cell::Struct(_) | Cell::List(_), _) | (_, Cell::Struct(_) | Cell::List(_)) => {
                self.unify_compound(x, y)
            }
            (p, q) => atomic_eq(p, q),
        }
    }

    /// Binds when one of the dereferenced cells `x`, `y` is a variable (of two variables, the
    /// younger to the older) and returns true; false when neither is one.
    #[inline(always)]
    fn bind_either(&mut self, x: Cell, y: Cell) -> bool {
        match (x, y) {
            (Cell::Ref(i), Cell::Ref(j)) => {
                if i < j {
                    self.bind(j, x)
                } else if j < i {
                    self.bind(i, y)
                }
                true
            }
            (Cell::Ref(i), _) => {
                self.bind(i, y);
                true
            }
            (_, Cell::Ref(j)) => {
                self.bind(j, x);
                true
            }
            _ => false,
        }
    }

    /// Unifies two dereferenced cells of which neither is compound; `None` if one is.
    #[inline(always)]
    fn unify_simple(&mut self, x: Cell, y: Cell) -> Option<bool> {
        match (x, y) {
            (Cell::Struct(_) | Cell::List(_), _) | (_, Cell::Struct(_) | Cell::List(_)) => None,
            _ => Some(self.bind_either(x, y) || atomic_eq(x, y)),
        }
    }

    /// Unifies the atomic value `a` with heap cell `h` (dereferenced here): binds a variable,
    /// otherwise compares ([`atomic_eq`]). Bindings are trailed as usual.
    #[inline(always)]
    pub fn unify_atomic(&mut self, a: Cell, h: Cell) -> bool {
        match self.deref(h) {
            Cell::Ref(x) => {
                self.bind(x, a);
                true
            }
            b => atomic_eq(a, b),
        }
    }

    /// Unifies the lists at `p` and `q` along their spines while the elements are atomic or
    /// variables, in [`Store::unify_compound`]'s order (each element before the rest of the list);
    /// the rest (from a compound element, a non-list tail, or after [`SPINE_STEPS`] elements, so
    /// that cyclic lists end in the general loop's cycle check) goes to the general loop.
    fn unify_lists(&mut self, mut p: u32, mut q: u32) -> bool {
        for _ in 0..SPINE_STEPS {
            if p == q {
                return true;
            }
            let a = self.deref(self.heap[p as usize]);
            let b = self.deref(self.heap[q as usize]);
            match self.unify_simple(a, b) {
                Some(true) => {}
                Some(false) => return false,
                None => break,
            }
            let ta = self.deref(self.heap[p as usize + 1]);
            let tb = self.deref(self.heap[q as usize + 1]);
            match (ta, tb) {
                (Cell::List(p2), Cell::List(q2)) => {
                    p = p2;
                    q = q2;
                }
                _ => {
                    return match self.unify_simple(ta, tb) {
                        Some(ok) => ok,
                        None => self.unify_compound(ta, tb),
                    }
                }
            }
        }
        self.unify_compound(Cell::List(p), Cell::List(q))
    }

    fn unify_compound(&mut self, a: Cell, b: Cell) -> bool {
        let mut stack = std::mem::take(&mut self.unify_stack);
        stack.clear();
        stack.push((a, b));
        let mut ok = true;
        let mut visited: Visited<(u32, u32)> = Visited::new();
        while let Some((x, y)) = stack.pop() {
            let x = self.deref(x);
            let y = self.deref(y);
            match (x, y) {
                (Cell::Ref(i), Cell::Ref(j)) => {
                    if i != j {
                        // bind the younger variable to the older one
                        if i < j {
                            self.bind(j, x)
                        } else {
                            self.bind(i, y)
                        }
                    }
                }
                (Cell::Ref(i), _) => self.bind(i, y),
                (_, Cell::Ref(j)) => self.bind(j, x),
                (Cell::Atom(p), Cell::Atom(q)) | (Cell::Str(p), Cell::Str(q)) => {
                    if p != q {
                        ok = false;
                        break;
                    }
                }
                (Cell::Int(p), Cell::Int(q)) => {
                    if p != q {
                        ok = false;
                        break;
                    }
                }
                (Cell::Float(p), Cell::Float(q)) => {
                    if p.to_bits() != q.to_bits() {
                        ok = false;
                        break;
                    }
                }
                (Cell::List(p), Cell::List(q)) => {
                    if p != q && visited.first((p, q)) {
                        stack.push((self.heap[p as usize + 1], self.heap[q as usize + 1]));
                        stack.push((self.heap[p as usize], self.heap[q as usize]));
                    }
                }
                (Cell::Struct(p), Cell::Struct(q)) => {
                    if p != q && visited.first((p, q)) {
                        let (fp, fq) = (self.heap[p as usize], self.heap[q as usize]);
                        if fp != fq {
                            ok = false;
                            break;
                        }
                        let Cell::Functor(_, n) = fp else {
                            unreachable!("struct without header")
                        };
                        for i in (1..=n).rev() {
                            stack.push((self.heap[(p + i) as usize], self.heap[(q + i) as usize]));
                        }
                    }
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        stack.clear();
        self.unify_stack = stack;
        ok
    }

    /// Copies an owned term onto the heap. `vars[i]` holds the cell of `Term::Var(i)` once made.
    pub fn build(&mut self, t: &Term, vars: &mut Vec<Option<Cell>>) -> Cell {
        // small terms (most goals and templates) by bounded recursion, without the work stack; the
        // same cells in the same order as the loop below
        if small_term(t, SMALL_DEPTH, &mut { SMALL_NODES }) {
            return self.build_small(t, vars, None);
        }
        // Iterative: each pending item fills heap slot `dst` with term `t` (or returns it as root).
        let mut root = Cell::Atom(atom::NIL);
        let mut work: Vec<(&Term, Option<u32>)> = Vec::with_capacity(16);
        work.push((t, None));
        while let Some((t, dst)) = work.pop() {
            let cell = match t {
                Term::Var(n) => self.build_var(*n as usize, vars, dst),
                Term::Atom(a) => Cell::Atom(*a),
                Term::Int(i) => Cell::Int(*i),
                Term::Float(f) => Cell::Float(*f),
                Term::Str(s) => Cell::Str(*s),
                Term::Compound(f, args) => {
                    let p = self.heap.len() as u32;
                    if *f == atom::DOT && args.len() == 2 {
                        self.heap.push(Cell::Atom(atom::NIL));
                        self.heap.push(Cell::Atom(atom::NIL));
                        work.push((&args[1], Some(p + 1)));
                        work.push((&args[0], Some(p)));
                        Cell::List(p)
                    } else {
                        self.heap.push(Cell::Functor(*f, args.len() as u32));
                        for _ in 0..args.len() {
                            self.heap.push(Cell::Atom(atom::NIL));
                        }
                        for (i, a) in args.iter().enumerate().rev() {
                            work.push((a, Some(p + 1 + i as u32)));
                        }
                        Cell::Struct(p)
                    }
                }
            };
            match dst {
                Some(d) => self.heap[d as usize] = cell,
                None => root = cell,
            }
        }
        root
    }

    /// The cell of variable `n` of a term being built: its earlier cell, or a fresh variable (the
    /// slot `dst` itself when there is one).
    #[inline]
    fn build_var(&mut self, n: usize, vars: &mut Vec<Option<Cell>>, dst: Option<u32>) -> Cell {
        if vars.len() <= n {
            vars.resize(n + 1, None);
        }
        match vars[n] {
            Some(c) => c,
            None => {
                let c = match dst {
                    Some(d) => Cell::Ref(d),
                    None => self.new_var(),
                };
                vars[n] = Some(c);
                c
            }
        }
    }

    /// [`Store::build`] of a term accepted by [`small_term`] (recursion bounded by its depth).
    fn build_small(&mut self, t: &Term, vars: &mut Vec<Option<Cell>>, dst: Option<u32>) -> Cell {
        match t {
            Term::Var(n) => self.build_var(*n as usize, vars, dst),
            Term::Atom(a) => Cell::Atom(*a),
            Term::Int(i) => Cell::Int(*i),
            Term::Float(f) => Cell::Float(*f),
            Term::Str(s) => Cell::Str(*s),
            Term::Compound(f, args) => {
                let p = self.heap.len() as u32;
                let (first, cell) = if *f == atom::DOT && args.len() == 2 {
                    (p, Cell::List(p))
                } else {
                    self.heap.push(Cell::Functor(*f, args.len() as u32));
                    (p + 1, Cell::Struct(p))
                };
                self.heap
                    .extend(std::iter::repeat_n(Cell::Atom(atom::NIL), args.len()));
                for (i, a) in args.iter().enumerate() {
                    let slot = first + i as u32;
                    let c = self.build_small(a, vars, Some(slot));
                    self.heap[slot as usize] = c;
                }
                cell
            }
        }
    }

    /// [`Store::to_term`] of a small ground term (bounded recursion), or `None` (a variable, or too
    /// deep or large: `nodes` is the budget).
    fn small_ground_term(&self, c: Cell, depth: u32, nodes: &mut u32) -> Option<Term> {
        if *nodes == 0 {
            return None;
        }
        *nodes -= 1;
        Some(match self.deref(c) {
            Cell::Atom(a) => Term::Atom(a),
            Cell::Int(i) => Term::Int(i),
            Cell::Float(f) => Term::Float(f),
            Cell::Str(s) => Term::Str(s),
            Cell::List(p) if depth > 0 => {
                let h = self.small_ground_term(self.heap[p as usize], depth - 1, nodes)?;
                let t = self.small_ground_term(self.heap[p as usize + 1], depth - 1, nodes)?;
                Term::Compound(atom::DOT, Arc::from([h, t]))
            }
            Cell::Struct(p) if depth > 0 => {
                let Cell::Functor(f, n) = self.heap[p as usize] else {
                    return None;
                };
                let mut args = Vec::with_capacity(n as usize);
                for i in 1..=n {
                    args.push(self.small_ground_term(
                        self.heap[(p + i) as usize],
                        depth - 1,
                        nodes,
                    )?);
                }
                Term::Compound(f, Arc::from(args))
            }
            _ => return None,
        })
    }

    /// Copies a heap term out as an owned term; unbound variables are numbered in order of first
    /// occurrence through `names` (shared across calls, so several terms can be extracted consistently).
    /// After [`CYCLE_CHECK_AFTER`] steps, a compound seen before is reused (shared `Arc`s, so a
    /// heavily shared term stays small) and a compound met inside itself (a cyclic term) is written
    /// as the atom `'@cycle'`.
    pub fn extract(&self, c: Cell, names: &mut HashMap<u32, u32>) -> Term {
        enum Job {
            Visit(Cell),
            Build(Atom, usize, u32),
        }
        // atomic terms without the stacks
        match self.deref(c) {
            Cell::Atom(a) => return Term::Atom(a),
            Cell::Int(i) => return Term::Int(i),
            Cell::Float(f) => return Term::Float(f),
            Cell::Str(s) => return Term::Str(s),
            _ => {}
        }
        let mut jobs = Vec::with_capacity(16);
        jobs.push(Job::Visit(c));
        let mut out: Vec<Term> = Vec::with_capacity(8);
        let mut steps = 0u32;
        // compound address -> its finished term; compounds being built
        let mut done: rustc_hash::FxHashMap<u32, Term> = Default::default();
        let mut building: rustc_hash::FxHashSet<u32> = Default::default();
        while let Some(job) = jobs.pop() {
            match job {
                Job::Visit(c) => {
                    let c = self.deref(c);
                    let tracked = steps >= CYCLE_CHECK_AFTER;
                    steps = steps.saturating_add(1);
                    if tracked {
                        if let Cell::List(p) | Cell::Struct(p) = c {
                            if let Some(t) = done.get(&p) {
                                out.push(t.clone());
                                continue;
                            }
                            if !building.insert(p) {
                                out.push(Term::Atom(Atom::new("@cycle")));
                                continue;
                            }
                        }
                    }
                    match c {
                        Cell::Ref(a) => {
                            let next = names.len() as u32;
                            let n = *names.entry(a).or_insert(next);
                            out.push(Term::Var(n));
                        }
                        Cell::Atom(a) => out.push(Term::Atom(a)),
                        Cell::Int(i) => out.push(Term::Int(i)),
                        Cell::Float(f) => out.push(Term::Float(f)),
                        Cell::Str(s) => out.push(Term::Str(s)),
                        Cell::List(p) => {
                            jobs.push(Job::Build(atom::DOT, 2, if tracked { p } else { u32::MAX }));
                            // visit in reverse so that results come out in order
                            jobs.push(Job::Visit(self.heap[p as usize + 1]));
                            jobs.push(Job::Visit(self.heap[p as usize]));
                        }
                        Cell::Struct(p) => {
                            let Cell::Functor(f, n) = self.heap[p as usize] else {
                                unreachable!()
                            };
                            jobs.push(Job::Build(
                                f,
                                n as usize,
                                if tracked { p } else { u32::MAX },
                            ));
                            for i in (1..=n).rev() {
                                jobs.push(Job::Visit(self.heap[(p + i) as usize]));
                            }
                        }
                        Cell::Functor(..) | Cell::Var(_) => unreachable!("header or slot as value"),
                    }
                }
                Job::Build(f, n, p) => {
                    // one exact allocation for the arguments
                    let args: Arc<[Term]> = out.drain(out.len() - n..).collect();
                    let t = Term::Compound(f, args);
                    if p != u32::MAX {
                        building.remove(&p);
                        done.insert(p, t.clone());
                    }
                    out.push(t);
                }
            }
        }
        out.pop().expect("extract produced a term")
    }

    /// Convenience: extract with fresh variable numbering.
    pub fn to_term(&self, c: Cell) -> Term {
        if let Some(t) = self.small_ground_term(c, SMALL_DEPTH, &mut { SMALL_NODES }) {
            return t;
        }
        self.extract(c, &mut HashMap::new())
    }

    /// Copies a heap term into `dst` as a relocatable segment: addresses in the copy are indices of
    /// `dst`, unbound variables become fresh variables of the copy. Returns the copy's root cell.
    /// Appending the segment to a heap at offset `b` (adding `b` to every address) yields the term.
    pub fn copy_out(&mut self, root: Cell, dst: &mut Vec<Cell>) -> Cell {
        let mut work = std::mem::take(&mut self.copy_stack);
        let mut vars = std::mem::take(&mut self.copy_vars);
        work.clear();
        vars.clear();
        let r = self.copy_out_with(root, dst, &mut work, &mut vars);
        self.copy_stack = work;
        self.copy_vars = vars;
        r
    }

    fn copy_out_with(
        &self,
        root: Cell,
        dst: &mut Vec<Cell>,
        work: &mut Vec<(Cell, Option<u32>)>,
        vars: &mut Vec<(u32, u32)>,
    ) -> Cell {
        // variables seen: a short list scanned linearly, a hash map past COPY_VARS_LINEAR of them
        let mut many: Option<rustc_hash::FxHashMap<u32, u32>> = None;
        let mut out_root = Cell::Atom(atom::NIL);
        work.push((root, None));
        // after many steps, compounds already copied are shared (cyclic and shared terms stay finite)
        let mut steps = 0u32;
        let mut copied: rustc_hash::FxHashMap<u32, Cell> = Default::default();
        while let Some((c, slot)) = work.pop() {
            let c = self.deref(c);
            let tracked = steps >= CYCLE_CHECK_AFTER;
            steps = steps.saturating_add(1);
            if tracked {
                if let Cell::List(p) | Cell::Struct(p) = c {
                    if let Some(&v) = copied.get(&p) {
                        match slot {
                            Some(s) => dst[s as usize] = v,
                            None => out_root = v,
                        }
                        continue;
                    }
                }
            }
            let v = match c {
                Cell::Ref(a) => {
                    let seen = match &many {
                        Some(m) => m.get(&a).copied(),
                        None => vars.iter().find(|&&(x, _)| x == a).map(|&(_, r)| r),
                    };
                    match seen {
                        Some(r) => Cell::Ref(r),
                        None => {
                            let r = match slot {
                                Some(s) => s,
                                None => {
                                    dst.push(Cell::Atom(atom::NIL));
                                    (dst.len() - 1) as u32
                                }
                            };
                            match &mut many {
                                Some(m) => {
                                    m.insert(a, r);
                                }
                                None if vars.len() < COPY_VARS_LINEAR => vars.push((a, r)),
                                None => {
                                    let mut m: rustc_hash::FxHashMap<u32, u32> =
                                        vars.iter().copied().collect();
                                    m.insert(a, r);
                                    many = Some(m);
                                }
                            }
                            if slot.is_none() {
                                dst[r as usize] = Cell::Ref(r);
                            }
                            Cell::Ref(r)
                        }
                    }
                }
                Cell::List(p) => {
                    let q = dst.len() as u32;
                    dst.push(Cell::Atom(atom::NIL));
                    dst.push(Cell::Atom(atom::NIL));
                    work.push((self.heap[p as usize + 1], Some(q + 1)));
                    work.push((self.heap[p as usize], Some(q)));
                    if tracked {
                        copied.insert(p, Cell::List(q));
                    }
                    Cell::List(q)
                }
                Cell::Struct(p) => {
                    let Cell::Functor(f, n) = self.heap[p as usize] else {
                        unreachable!()
                    };
                    let q = dst.len() as u32;
                    dst.push(Cell::Functor(f, n));
                    for _ in 0..n {
                        dst.push(Cell::Atom(atom::NIL));
                    }
                    for i in (1..=n).rev() {
                        work.push((self.heap[(p + i) as usize], Some(q + i)));
                    }
                    if tracked {
                        copied.insert(p, Cell::Struct(q));
                    }
                    Cell::Struct(q)
                }
                other => other,
            };
            match slot {
                Some(s) => dst[s as usize] = v,
                None => out_root = v,
            }
        }
        out_root
    }

    /// Unifies cell `t` of a *ground* segment made by [`Store::copy_out`] (`seg[from..]` holds
    /// every compound reachable from `t`) with heap cell `h`. Where `h` has a variable and `t` a
    /// compound, `seg[from..]` is appended to the heap once (at `*base`) and the variable bound to
    /// the copy. Bindings are trailed as usual; on failure the caller undoes them.
    #[inline]
    pub fn unify_seg(
        &mut self,
        seg: &[Cell],
        from: u32,
        t: Cell,
        h: Cell,
        base: &mut Option<u32>,
    ) -> bool {
        match t {
            Cell::Struct(_) | Cell::List(_) => self.unify_seg_compound(seg, from, t, h, base),
            Cell::Float(a) => match self.deref(h) {
                Cell::Ref(x) => {
                    self.bind(x, t);
                    true
                }
                Cell::Float(b) => a.to_bits() == b.to_bits(),
                _ => false,
            },
            c => match self.deref(h) {
                Cell::Ref(x) => {
                    self.bind(x, c);
                    true
                }
                d => c == d,
            },
        }
    }

    fn unify_seg_compound(
        &mut self,
        seg: &[Cell],
        from: u32,
        t: Cell,
        h: Cell,
        base: &mut Option<u32>,
    ) -> bool {
        self.unify_cells(seg, t, h, |st, t| {
            let b = match *base {
                Some(b) => b,
                None => {
                    let b = st.len();
                    let off = b.wrapping_sub(from);
                    st.heap
                        .extend(seg[from as usize..].iter().map(|&c| relocate(c, off)));
                    *base = Some(b);
                    b
                }
            };
            relocate(t, b.wrapping_sub(from))
        })
    }

    /// Unifies term `t` of the cell buffer `cells` (ground, addresses into `cells`) with heap cell
    /// `h`; where `h` is a variable and `t` a compound, `copy` puts `t` on the heap and returns it.
    fn unify_cells(
        &mut self,
        cells: &[Cell],
        t: Cell,
        h: Cell,
        mut copy: impl FnMut(&mut Store, Cell) -> Cell,
    ) -> bool {
        let mut stack = std::mem::take(&mut self.unify_stack);
        stack.clear();
        stack.push((t, h));
        let mut ok = true;
        while let Some((t, h)) = stack.pop() {
            let hd = self.deref(h);
            match (t, hd) {
                (Cell::Struct(_) | Cell::List(_), Cell::Ref(x)) => {
                    let v = copy(self, t);
                    self.bind(x, v);
                }
                (Cell::Struct(p), Cell::Struct(q)) => {
                    if cells[p as usize] != self.heap[q as usize] {
                        ok = false;
                        break;
                    }
                    let Cell::Functor(_, n) = cells[p as usize] else {
                        unreachable!()
                    };
                    for i in (1..=n).rev() {
                        stack.push((cells[(p + i) as usize], self.heap[(q + i) as usize]));
                    }
                }
                (Cell::List(p), Cell::List(q)) => {
                    stack.push((cells[p as usize + 1], self.heap[q as usize + 1]));
                    stack.push((cells[p as usize], self.heap[q as usize]));
                }
                (Cell::Struct(_) | Cell::List(_), _) => {
                    ok = false;
                    break;
                }
                (c, Cell::Ref(x)) => self.bind(x, c),
                (Cell::Float(a), Cell::Float(b)) => {
                    if a.to_bits() != b.to_bits() {
                        ok = false;
                        break;
                    }
                }
                (c, d) => {
                    if c != d {
                        ok = false;
                        break;
                    }
                }
            }
        }
        stack.clear();
        self.unify_stack = stack;
        ok
    }

    /// Appends a segment made by [`Store::copy_out`] to the heap and returns its root.
    pub fn copy_in(&mut self, seg: &[Cell], root: Cell) -> Cell {
        let base = self.len();
        self.heap.extend(seg.iter().map(|&c| relocate(c, base)));
        relocate(root, base)
    }

    /// Appends `seg`, the cells `from..` of a buffer [`Store::copy_out`] wrote into (addresses are
    /// indices of that buffer), to the heap and returns the copy of the compound at `from`.
    pub fn copy_in_at(&mut self, seg: &[Cell], from: u32) -> Cell {
        let off = self.len().wrapping_sub(from);
        self.heap.extend(seg.iter().map(|&c| relocate(c, off)));
        relocate(Cell::Struct(from), off)
    }

    /// A copy of the term with fresh variables (`copy_term/2`).
    pub fn copy_term(&mut self, c: Cell) -> Cell {
        let mut seg = Vec::new();
        let root = self.copy_out(c, &mut seg);
        self.copy_in(&seg, root)
    }

    /// Is the term ground?
    pub fn is_ground(&self, c: Cell) -> bool {
        let mut stack = vec![c];
        let mut visited: Visited<u32> = Visited::new();
        while let Some(c) = stack.pop() {
            match self.deref(c) {
                Cell::Ref(_) => return false,
                Cell::List(p) | Cell::Struct(p) if !visited.first(p) => {}
                Cell::List(p) => {
                    stack.push(self.heap[p as usize + 1]);
                    stack.push(self.heap[p as usize]);
                }
                Cell::Struct(p) => {
                    let Cell::Functor(_, n) = self.heap[p as usize] else {
                        unreachable!()
                    };
                    for i in 1..=n {
                        stack.push(self.heap[(p + i) as usize]);
                    }
                }
                _ => {}
            }
        }
        true
    }

    /// Unifies a ground template (cells laid out by `compile::compile_term`: compounds at `p..ends[p]`)
    /// with heap cell `h`, copying template subterms onto the heap only where `h` has a variable.
    /// Bindings are trailed as usual; on failure the caller undoes them.
    pub fn unify_ground(&mut self, cells: &[Cell], ends: &[u32], t: Cell, h: Cell) -> bool {
        // fast path for words: along the list spine while the elements are atomic, without the
        // stack; the rest (a compound element, the tail) by the general loop below
        let (mut t, mut h) = (t, h);
        while let (Cell::List(p), Cell::List(q)) = (t, self.deref(h)) {
            let a = cells[p as usize];
            if !a.is_atomic() {
                break;
            }
            if !self.unify_atomic(a, self.heap[q as usize]) {
                return false;
            }
            t = cells[p as usize + 1];
            h = self.heap[q as usize + 1];
        }
        if t.is_atomic() {
            return self.unify_atomic(t, h);
        }
        self.unify_cells(cells, t, h, |st, t| {
            let (Cell::Struct(p) | Cell::List(p)) = t else {
                return t;
            };
            let end = ends[p as usize];
            let base = st.len();
            st.heap.extend(
                cells[p as usize..end as usize]
                    .iter()
                    .map(|&c| relocate(c, base.wrapping_sub(p))),
            );
            if matches!(t, Cell::Struct(_)) {
                Cell::Struct(base)
            } else {
                Cell::List(base)
            }
        })
    }

    /// Standard order of terms: Var < Number < String < Atom < Compound (as SWI-Prolog 9 does). Numbers compare by value,
    /// a float before an integer of equal value; compounds by arity, then name, then arguments.
    pub fn compare(&self, a: Cell, b: Cell) -> Ordering {
        let mut budget = COMPARE_SMALL_NODES;
        match self.compare_small(a, b, &mut budget) {
            Some(o) => o,
            None => self.compare_large(a, b),
        }
    }

    /// [`Store::compare`] of terms of at most `budget` node pairs, by recursion (the arguments in
    /// order, the last one in the loop: a list's spine does not deepen it): no work stack to
    /// allocate. `None` when the budget runs out (the caller starts again with
    /// [`Store::compare_large`], which also stops on cyclic terms).
    fn compare_small(&self, a: Cell, b: Cell, budget: &mut u32) -> Option<Ordering> {
        let (mut a, mut b) = (a, b);
        loop {
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            a = self.deref(a);
            b = self.deref(b);
            let (pa, pb) = match (a, b) {
                (Cell::List(pa), Cell::List(pb)) => (pa, pb),
                (Cell::Struct(pa), Cell::Struct(pb)) => {
                    let (Cell::Functor(fa, na), Cell::Functor(fb, nb)) =
                        (self.heap[pa as usize], self.heap[pb as usize])
                    else {
                        return None;
                    };
                    let o = order_functors((fa, na), (fb, nb));
                    if o != Ordering::Equal || pa == pb {
                        return Some(o);
                    }
                    for i in 1..na {
                        let o = self.compare_small(
                            self.heap[(pa + i) as usize],
                            self.heap[(pb + i) as usize],
                            budget,
                        )?;
                        if o != Ordering::Equal {
                            return Some(o);
                        }
                    }
                    a = self.heap[(pa + na) as usize];
                    b = self.heap[(pb + na) as usize];
                    continue;
                }
                // atomic cells, or cells of different ranks; anything else (a list and a
                // compound of another functor, cells no term holds) the general walk decides
                _ => return order_atomic(a, b),
            };
            // two lists: '.'/2 against '.'/2
            if pa == pb {
                return Some(Ordering::Equal);
            }
            let o = self.compare_small(self.heap[pa as usize], self.heap[pb as usize], budget)?;
            if o != Ordering::Equal {
                return Some(o);
            }
            a = self.heap[pa as usize + 1];
            b = self.heap[pb as usize + 1];
        }
    }

    /// [`Store::compare`] of any terms, cyclic ones included: a work stack, and the pairs of
    /// compounds visited remembered once the walk has run long.
    fn compare_large(&self, a: Cell, b: Cell) -> Ordering {
        let mut stack = vec![(a, b)];
        let mut visited: Visited<(u32, u32)> = Visited::new();
        while let Some((a, b)) = stack.pop() {
            let a = self.deref(a);
            let b = self.deref(b);
            let ord = match order_atomic(a, b) {
                Some(o) => o,
                None => {
                    // both compound
                    let (fa, na) = self.functor(a).expect("compound");
                    let (fb, nb) = self.functor(b).expect("compound");
                    let o = order_functors((fa, na), (fb, nb));
                    let addr = |c: Cell| match c {
                        Cell::List(p) | Cell::Struct(p) => p,
                        _ => u32::MAX,
                    };
                    let (pa, pb) = (addr(a), addr(b));
                    // the same compound, or a pair already being compared (cyclic terms)
                    if o == Ordering::Equal && pa != pb && visited.first((pa, pb)) {
                        for i in (0..na).rev() {
                            stack.push((self.arg(a, i), self.arg(b, i)));
                        }
                    }
                    o
                }
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    }

    /// Structural identity (`==/2`).
    pub fn identical(&self, a: Cell, b: Cell) -> bool {
        self.compare(a, b) == Ordering::Equal
    }
}

/// Moves a cell of a relocatable segment by `off`.
#[inline]
pub fn relocate(c: Cell, off: u32) -> Cell {
    match c {
        Cell::Ref(a) => Cell::Ref(a.wrapping_add(off)),
        Cell::Struct(p) => Cell::Struct(p.wrapping_add(off)),
        Cell::List(p) => Cell::List(p.wrapping_add(off)),
        other => other,
    }
}

/// The standard order of two dereferenced cells when it does not depend on arguments: two
/// atomic cells, or cells of different ranks. `None` for two compounds (or cells of equal rank no
/// term holds).
#[inline]
fn order_atomic(a: Cell, b: Cell) -> Option<Ordering> {
    Some(match (a, b) {
        (Cell::Ref(x), Cell::Ref(y)) => x.cmp(&y),
        (Cell::Int(x), Cell::Int(y)) => x.cmp(&y),
        (Cell::Float(x), Cell::Float(y)) => x.total_cmp(&y),
        (Cell::Int(x), Cell::Float(y)) => compare_int_float(x, y),
        (Cell::Float(x), Cell::Int(y)) => compare_int_float(y, x).reverse(),
        (Cell::Atom(x), Cell::Atom(y)) | (Cell::Str(x), Cell::Str(y)) => {
            if x == y {
                Ordering::Equal
            } else {
                x.name().cmp(y.name())
            }
        }
        _ => {
            let (ra, rb) = (rank(a), rank(b));
            if ra == rb {
                return None;
            }
            ra.cmp(&rb)
        }
    })
}

/// The standard order of two compounds' functors: by arity, then by name.
#[inline]
fn order_functors((fa, na): (Atom, u32), (fb, nb): (Atom, u32)) -> Ordering {
    na.cmp(&nb).then_with(|| {
        if fa == fb {
            Ordering::Equal
        } else {
            fa.name().cmp(fb.name())
        }
    })
}

fn rank(c: Cell) -> u8 {
    match c {
        Cell::Ref(_) => 0,
        Cell::Int(_) | Cell::Float(_) => 1,
        // SWI-Prolog 9 orders strings before atoms (its manual says otherwise; the system decides)
        Cell::Str(_) => 2,
        Cell::Atom(_) => 3,
        Cell::Struct(_) | Cell::List(_) => 5,
        Cell::Functor(..) | Cell::Var(_) => 6,
    }
}

/// Compares an integer with a float by value; equal values order the float first (SWI-Prolog).
fn compare_int_float(i: i64, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Greater;
    }
    let fi = i as f64;
    match fi.partial_cmp(&f) {
        Some(Ordering::Equal) => {
            // exact comparison when the conversion was lossy
            if f >= 9.223372036854776e18 {
                Ordering::Less
            } else if f < -9.223372036854776e18 {
                Ordering::Greater
            } else {
                match i.cmp(&(f as i64)) {
                    Ordering::Equal => Ordering::Greater, // float first
                    o => o,
                }
            }
        }
        Some(o) => o,
        None => Ordering::Greater,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: i64) -> Term {
        Term::list((0..n).map(Term::Int).collect())
    }

    #[test]
    fn build_extract_roundtrip_deep_list() {
        let mut s = Store::new();
        let t = list(200_000);
        let c = s.build(&t, &mut Vec::new());
        assert_eq!(s.to_term(c), t);
        assert!(s.is_ground(c));
    }

    #[test]
    fn unify_binds_and_undo_restores() {
        let mut s = Store::new();
        let x = s.new_var();
        let t = Term::compound("f", vec![Term::Var(0), Term::atom("b")]);
        let c = s.build(&t, &mut Vec::new());
        let d = s.build(
            &Term::compound("f", vec![Term::atom("a"), Term::Var(0)]),
            &mut Vec::new(),
        );
        s.mark = s.len();
        assert!(s.unify(c, d));
        assert_eq!(
            s.to_term(c),
            Term::compound("f", vec![Term::atom("a"), Term::atom("b")])
        );
        s.undo_to(0, |_| {});
        assert!(s.is_var(s.arg(c, 0)));
        assert!(s.is_var(x));
    }

    #[test]
    fn standard_order() {
        let mut s = Store::new();
        let v = s.new_var();
        let items = [
            v,
            Cell::Float(1.0),
            Cell::Int(1),
            Cell::Int(2),
            Cell::Str(Atom::new("a")),
            Cell::Atom(Atom::new("a")),
        ];
        for w in items.windows(2) {
            assert_eq!(s.compare(w[0], w[1]), Ordering::Less, "{w:?}");
        }
        let f = s.build(&Term::compound("f", vec![Term::Int(1)]), &mut Vec::new());
        let g = s.build(
            &Term::compound("a", vec![Term::Int(1), Term::Int(2)]),
            &mut Vec::new(),
        );
        assert_eq!(s.compare(f, g), Ordering::Less);
    }

    /// A term of at most `depth` levels from `seed` (a small alphabet, so that pairs often agree
    /// on a prefix): atoms, strings, integers, floats, shared variables, lists, compounds.
    fn random_term(seed: &mut u64, depth: u32) -> Term {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = (*seed >> 33) as u32;
        let k = if depth == 0 { r % 6 } else { r % 9 };
        let small = (r >> 8) % 3;
        match k {
            0 => Term::atom(["a", "b", "[]"][small as usize]),
            1 => Term::Str(Atom::new(["a", "b", "c"][small as usize])),
            2 => Term::Int(small as i64),
            3 => Term::Float(small as f64),
            4 | 5 => Term::Var(small),
            6 | 7 => Term::list((0..=small).map(|_| random_term(seed, depth - 1)).collect()),
            _ => Term::compound(
                ["f", "g", "."][small as usize],
                (0..=(r >> 12) % 2 + 1)
                    .map(|_| random_term(seed, depth - 1))
                    .collect(),
            ),
        }
    }

    /// The walk without a work stack ([`Store::compare_small`]) orders every pair as the general
    /// walk does, and it is the one taken for small terms.
    #[test]
    fn small_compare_agrees_with_the_general_walk() {
        let mut s = Store::new();
        let mut seed = 7u64;
        let mut decided = 0;
        for i in 0..4000 {
            // the same variables in both terms of a pair
            let mut vars = Vec::new();
            let a = random_term(&mut seed, 1 + i % 4);
            let b = random_term(&mut seed, 1 + i % 4);
            let (a, b) = (s.build(&a, &mut vars), s.build(&b, &mut vars));
            for (x, y) in [(a, b), (b, a), (a, a)] {
                let general = s.compare_large(x, y);
                let mut budget = COMPARE_SMALL_NODES;
                if let Some(o) = s.compare_small(x, y, &mut budget) {
                    decided += 1;
                    assert_eq!(o, general, "{:?} against {:?}", s.to_term(x), s.to_term(y));
                }
                assert_eq!(s.compare(x, y), general);
            }
        }
        assert!(
            decided > 11000,
            "the small walk decided only {decided} of 12000 pairs"
        );
        // past the budget: the general walk, with the same answer
        let (l1, l2) = (
            s.build(&list(500), &mut Vec::new()),
            s.build(
                &Term::list((0..500).map(|i| Term::Int(i + i / 499)).collect()),
                &mut Vec::new(),
            ),
        );
        let mut budget = COMPARE_SMALL_NODES;
        assert_eq!(s.compare_small(l1, l2, &mut budget), None);
        assert_eq!(s.compare(l1, l2), Ordering::Less);
        assert_eq!(s.compare(l2, l1), Ordering::Greater);
    }
}
