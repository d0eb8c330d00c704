//! Lists: `msort/2`, `sort/2`, `sort/4`, `keysort/2`, `length/2`, `sum_list/2`, `sumlist/2`,
//! `max_list/2`, `min_list/2`, `numlist/3`, `list_to_set/2`, `nth0/3`, `nth1/3`, `memberchk/2`,
//! `maxmember/2`, `minmember/2` (SIDL: list first), `getsubset/2` (SIDL).

use super::util::{
    det, domain_error, list_shape, need_int, need_list, opt_int, type_error, unify, unify_or_undo,
    ListShape,
};
use super::{Ctx, Det};
use crate::atom::{self, Atom};
use crate::solve::arith::{compare_num, eval, Num};
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use std::cmp::Ordering;

pub fn register(add: &mut dyn FnMut(&str, u32, super::Builtin)) {
    add("msort", 2, |c, a, _| {
        sort_impl(c, a[0], a[1], 0, SortOrder::Le)
    });
    add("sort", 2, |c, a, _| {
        sort_impl(c, a[0], a[1], 0, SortOrder::Lt)
    });
    add("sort", 4, sort4);
    add("keysort", 2, keysort);
    add("length", 2, length);
    add("sum_list", 2, sum_list);
    add("sumlist", 2, sum_list);
    add("max_list", 2, |c, a, _| fold_list(c, a, true));
    add("min_list", 2, |c, a, _| fold_list(c, a, false));
    add("numlist", 3, numlist);
    add("list_to_set", 2, list_to_set);
    add("nth0", 3, |c, a, r| nth(c, a, r, 0));
    add("nth1", 3, |c, a, r| nth(c, a, r, 1));
    add("memberchk", 2, memberchk);
    add("maxmember", 2, |c, a, _| extreme_member(c, a, true));
    add("minmember", 2, |c, a, _| extreme_member(c, a, false));
    add("getsubset", 2, getsubset);
}

#[derive(Clone, Copy, PartialEq)]
enum SortOrder {
    Lt,
    Le,
    Gt,
    Ge,
}

fn sort4(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let key = match s.deref(args[0]) {
        Cell::Int(k) if k >= 0 => k,
        Cell::Int(_) => return Err(domain_error("not_less_than_one", s, args[0])),
        Cell::Ref(_) => return Err(Term::instantiation_error()),
        // SWI-Prolog checks the key with must_be(nonneg) after trying arg/3
        other => return Err(type_error("compound", s, other)),
    };
    let order = match s.deref(args[1]) {
        Cell::Ref(_) => return Err(Term::instantiation_error()),
        Cell::Atom(a) => match a.name() {
            "@<" => SortOrder::Lt,
            "@=<" => SortOrder::Le,
            "@>" => SortOrder::Gt,
            "@>=" => SortOrder::Ge,
            _ => return Err(domain_error("order", s, args[1])),
        },
        other => return Err(type_error("atom", s, other)),
    };
    sort_impl(ctx, args[2], args[3], key, order)
}

/// The sort key of `item`: the item itself, or its `key`-th argument.
fn sort_key(store: &Store, item: Cell, key: i64) -> Result<Cell, Term> {
    if key == 0 {
        return Ok(item);
    }
    let d = store.deref(item);
    match d {
        Cell::Struct(_) | Cell::List(_) => {
            let (_, n) = store.functor(d).unwrap_or((atom::NIL, 0));
            if key > n as i64 {
                return Err(Term::error(Term::compound(
                    "existence_error",
                    vec![
                        Term::atom("argument"),
                        Term::Int(key),
                        super::util::culprit(store, d),
                    ],
                )));
            }
            Ok(store.arg(d, (key - 1) as u32))
        }
        Cell::Ref(_) => Err(Term::instantiation_error()),
        other => Err(type_error("compound", store, other)),
    }
}

fn sort_impl(
    ctx: &mut Ctx<'_>,
    list: Cell,
    out: Cell,
    key: i64,
    order: SortOrder,
) -> Result<Det, Term> {
    let s = &*ctx.store;
    let items = need_list(s, list)?;
    let mut keyed: Vec<(Cell, Cell)> = Vec::with_capacity(items.len());
    for it in items {
        keyed.push((sort_key(s, it, key)?, it));
    }
    sort_pairs(
        s,
        &mut keyed,
        matches!(order, SortOrder::Gt | SortOrder::Ge),
    );
    if matches!(order, SortOrder::Lt | SortOrder::Gt) {
        keyed.dedup_by(|b, a| s.compare(a.0, b.0) == Ordering::Equal);
    }
    let sorted: Vec<Cell> = keyed.into_iter().map(|(_, it)| it).collect();
    let l = ctx.store.make_list(&sorted, Cell::Atom(atom::NIL));
    Ok(unify(ctx, out, l))
}

/// Sorts `(key, item)` pairs by their keys in the standard order (descending when `desc`), stably:
/// equal keys keep their order. The one instantiation of the standard library's stable sort for
/// `sort/2`, `msort/2`, `sort/4` and `keysort/2` (the wasm's size).
fn sort_pairs(s: &Store, keyed: &mut [(Cell, Cell)], desc: bool) {
    keyed.sort_by(|a, b| {
        let o = s.compare(a.0, b.0);
        if desc {
            o.reverse()
        } else {
            o
        }
    });
}

fn keysort(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let items = need_list(s, args[0])?;
    let mut keyed = Vec::with_capacity(items.len());
    for it in items {
        let d = s.deref(it);
        match s.functor(d) {
            Some((f, 2)) if f == atom::MINUS && !matches!(d, Cell::List(_)) => {
                keyed.push((s.arg(d, 0), it))
            }
            _ if matches!(d, Cell::Ref(_)) => return Err(Term::instantiation_error()),
            _ => {
                return Err(Term::type_error(
                    Atom::new("pair"),
                    super::util::culprit(s, d),
                ))
            }
        }
    }
    sort_pairs(s, &mut keyed, false);
    let sorted: Vec<Cell> = keyed.into_iter().map(|(_, it)| it).collect();
    let l = ctx.store.make_list(&sorted, Cell::Atom(atom::NIL));
    Ok(unify(ctx, args[1], l))
}

/// Binds the unbound tail `tail` to a list of `k` fresh variables.
fn extend(store: &mut Store, tail: Cell, k: i64) -> bool {
    let vars: Vec<Cell> = (0..k).map(|_| store.new_var()).collect();
    let l = store.make_list(&vars, Cell::Atom(atom::NIL));
    store.unify(tail, l)
}

fn length(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let n = opt_int(s, args[1])?;
    if let Some(n) = n {
        if n < 0 {
            return Err(domain_error("not_less_than_zero", s, args[1]));
        }
    }
    match list_shape(s, args[0]) {
        ListShape::Proper(items) => Ok(unify(ctx, args[1], Cell::Int(items.len() as i64))),
        ListShape::Partial(items, tail) => {
            let have = items.len() as i64;
            match n {
                Some(n) => {
                    if n < have {
                        return Ok(Det::Fail);
                    }
                    Ok(det(extend(ctx.store, tail, n - have)))
                }
                None => {
                    if s.deref(args[1]) == tail {
                        // length(L, L) fails, as in SWI-Prolog
                        return Ok(Det::Fail);
                    }
                    let k = redo.unwrap_or(0) as i64;
                    if !extend(ctx.store, tail, k) {
                        return Ok(Det::Fail);
                    }
                    if !ctx.store.unify(args[1], Cell::Int(have + k)) {
                        return Ok(Det::Fail);
                    }
                    Ok(Det::Retry(k as u64 + 1))
                }
            }
        }
        ListShape::Other(..) | ListShape::Cyclic => Err(type_error("list", s, args[0])),
    }
}

/// The longest list [`int_sum`] adds up (a longer or cyclic one takes the general path).
const SUM_FAST_MAX: usize = 1 << 12;

/// The sum of list `l` when it is a proper list (of at most [`SUM_FAST_MAX`] elements) of
/// integers whose sum does not overflow: what [`sum_list`]'s general path computes then, without
/// collecting the elements. `None` for everything else (the general path gives the value or the
/// error).
fn int_sum(store: &Store, l: Cell) -> Option<i64> {
    let mut t = store.deref(l);
    let mut acc: i64 = 0;
    for _ in 0..SUM_FAST_MAX {
        match t {
            Cell::List(p) => {
                let Cell::Int(x) = store.deref(store.heap[p as usize]) else {
                    return None;
                };
                acc = acc.checked_add(x)?;
                t = store.deref(store.heap[p as usize + 1]);
            }
            Cell::Atom(atom::NIL) => return Some(acc),
            _ => return None,
        }
    }
    None
}

fn sum_list(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    if let Some(sum) = int_sum(ctx.store, args[0]) {
        return Ok(unify(ctx, args[1], Cell::Int(sum)));
    }
    sum_list_general(ctx, args)
}

/// [`sum_list`] of any list: every element evaluated and added.
fn sum_list_general(ctx: &mut Ctx<'_>, args: &[Cell]) -> Result<Det, Term> {
    let items = need_list(ctx.store, args[0])?;
    let mut acc = Num::Int(0);
    let store = &mut *ctx.store;
    for it in items {
        let x = eval(store, it, ctx.rng)?;
        acc = add(acc, x)?;
    }
    Ok(unify(ctx, args[1], acc.to_cell()))
}

fn add(a: Num, b: Num) -> Result<Num, Term> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x
            .checked_add(y)
            .map(Num::Int)
            .ok_or_else(|| Term::evaluation_error(atom::INT_OVERFLOW)),
        _ => {
            let f = a.as_f64() + b.as_f64();
            if f.is_nan() {
                Err(Term::evaluation_error(atom::UNDEFINED))
            } else if f.is_infinite() {
                Err(Term::evaluation_error(atom::FLOAT_OVERFLOW))
            } else {
                Ok(Num::Float(f))
            }
        }
    }
}

/// `max_list/2`, `min_list/2` as SWI-Prolog's library: the first element as is, then
/// `M is max(M0, X)` for every further element; fails on `[]`.
fn fold_list(ctx: &mut Ctx<'_>, args: &[Cell], want_max: bool) -> Result<Det, Term> {
    let items = need_list(ctx.store, args[0])?;
    let Some((&first, rest)) = items.split_first() else {
        return Ok(Det::Fail);
    };
    if rest.is_empty() {
        return Ok(unify(ctx, args[1], first));
    }
    let f = Atom::new(if want_max { "max" } else { "min" });
    let mut acc = first;
    for &x in rest {
        let e = ctx.store.make_compound(f, &[acc, x]);
        acc = eval(ctx.store, e, ctx.rng)?.to_cell();
    }
    Ok(unify(ctx, args[1], acc))
}

fn numlist(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let lo = need_int(s, args[0])?;
    let hi = need_int(s, args[1])?;
    if lo > hi {
        return Ok(Det::Fail);
    }
    let n = (hi as i128 - lo as i128 + 1) as u128;
    if n > (1 << 28) {
        return Err(Term::resource_error(Atom::new("memory")));
    }
    let items: Vec<Cell> = (lo..=hi).map(Cell::Int).collect();
    let l = ctx.store.make_list(&items, Cell::Atom(atom::NIL));
    Ok(unify(ctx, args[2], l))
}

fn list_to_set(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let items = need_list(s, args[0])?;
    let mut idx: Vec<usize> = (0..items.len()).collect();
    crate::stable_sort::sort_by(&mut idx, |&a, &b| {
        s.compare(items[a], items[b]).then(a.cmp(&b))
    });
    let mut keep = vec![true; items.len()];
    for w in idx.windows(2) {
        if s.compare(items[w[0]], items[w[1]]) == Ordering::Equal {
            keep[w[1]] = false;
        }
    }
    let set: Vec<Cell> = items
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(c, _)| *c)
        .collect();
    let l = ctx.store.make_list(&set, Cell::Atom(atom::NIL));
    Ok(unify(ctx, args[1], l))
}

fn nth(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>, base: i64) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[0]) {
        Cell::Int(i) => {
            if i < base {
                return Ok(Det::Fail);
            }
            let k = (i - base) as usize;
            // walk k cells; extend a partial list if needed
            let mut t = s.deref(args[1]);
            let mut steps = 0usize;
            loop {
                match t {
                    Cell::List(p) => {
                        if steps == k {
                            let h = s.heap[p as usize];
                            return Ok(unify(ctx, args[2], h));
                        }
                        steps += 1;
                        t = s.deref(s.heap[p as usize + 1]);
                        if steps > (1 << 30) {
                            return Ok(Det::Fail);
                        }
                    }
                    Cell::Ref(_) => {
                        let store = &mut *ctx.store;
                        let mut vars: Vec<Cell> =
                            (0..(k - steps)).map(|_| store.new_var()).collect();
                        vars.push(args[2]);
                        let rest = store.new_var();
                        let l = store.make_list(&vars, rest);
                        return Ok(det(store.unify(t, l)));
                    }
                    _ => return Ok(Det::Fail),
                }
            }
        }
        Cell::Ref(_) => {
            let items = match list_shape(s, args[1]) {
                ListShape::Proper(v) | ListShape::Partial(v, _) | ListShape::Other(v, _) => v,
                ListShape::Cyclic => return Err(type_error("list", s, args[1])),
            };
            let mut k = redo.unwrap_or(0) as usize;
            while k < items.len() {
                if unify_or_undo(ctx.store, args[2], items[k]) {
                    if !ctx.store.unify(args[0], Cell::Int(k as i64 + base)) {
                        return Ok(Det::Fail);
                    }
                    return Ok(if k + 1 < items.len() {
                        Det::Retry(k as u64 + 1)
                    } else {
                        Det::True
                    });
                }
                k += 1;
            }
            Ok(Det::Fail)
        }
        other => Err(type_error("integer", s, other)),
    }
}

fn memberchk(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let elem = Pattern::of(ctx.store, args[0]);
    let mut t = ctx.store.deref(args[1]);
    let mut steps = 0usize;
    let mut saved: Option<u32> = None;
    let mut power = 1usize;
    loop {
        match t {
            Cell::List(p) => {
                if saved == Some(p) {
                    return Ok(Det::Fail); // cyclic list without the element
                }
                steps += 1;
                if steps == power {
                    saved = Some(p);
                    power *= 2;
                    steps = 0;
                }
                let h = ctx.store.heap[p as usize];
                // decided without unifying when no variable is met
                let same = match elem.and_then(|e| e.matches(ctx.store, h)) {
                    Some(same) => same,
                    None => unify_or_undo(ctx.store, args[0], h),
                };
                if same {
                    return Ok(Det::True);
                }
                t = ctx.store.deref(ctx.store.heap[p as usize + 1]);
            }
            Cell::Ref(_) => {
                let rest = ctx.store.new_var();
                let l = ctx.store.make_list_cell(args[0], rest);
                return Ok(unify(ctx, t, l));
            }
            Cell::Atom(a) if a == atom::NIL => return Ok(Det::Fail),
            other => return Err(type_error("list", ctx.store, other)),
        }
    }
}

/// The longest flat list [`Pattern`] holds.
const PATTERN_MAX: usize = 4;

/// A ground atomic value or a proper list of at most [`PATTERN_MAX`] ground atomic elements
/// (dereferenced): what `memberchk/2` compares each element with. Unifying it with a term binds
/// only that term's variables, so where the term has none (in the cells compared) the outcome is
/// a comparison, with nothing bound.
#[derive(Clone, Copy)]
struct Pattern {
    /// The value (`len == 0`) or the list's elements.
    cells: [Cell; PATTERN_MAX],
    /// `None` for an atomic value, else the list's length.
    len: Option<u8>,
}

impl Pattern {
    fn of(store: &Store, c: Cell) -> Option<Pattern> {
        let mut cells = [Cell::Atom(atom::NIL); PATTERN_MAX];
        let mut t = store.deref(c);
        if t.is_atomic() {
            cells[0] = t;
            return Some(Pattern { cells, len: None });
        }
        let mut n = 0;
        loop {
            match t {
                Cell::List(p) => {
                    let x = store.deref(store.heap[p as usize]);
                    if n == PATTERN_MAX || !x.is_atomic() {
                        return None;
                    }
                    cells[n] = x;
                    n += 1;
                    t = store.deref(store.heap[p as usize + 1]);
                }
                Cell::Atom(a) if a == atom::NIL => {
                    return Some(Pattern {
                        cells,
                        len: Some(n as u8),
                    })
                }
                _ => return None,
            }
        }
    }

    /// Does the pattern unify with heap cell `h`, when that is decided without binding a
    /// variable: `Some(false)` at the first difference, `Some(true)` when every compared cell is
    /// equal; `None` when a variable is met first (the caller unifies).
    #[inline]
    fn matches(&self, store: &Store, h: Cell) -> Option<bool> {
        let mut t = store.deref(h);
        if let Cell::Ref(_) = t {
            return None;
        }
        let Some(n) = self.len else {
            return Some(crate::solve::store::atomic_eq(self.cells[0], t));
        };
        for &want in &self.cells[..n as usize] {
            let Cell::List(p) = t else {
                return match t {
                    Cell::Ref(_) | Cell::Struct(_) => None,
                    _ => Some(false),
                };
            };
            let x = store.deref(store.heap[p as usize]);
            if let Cell::Ref(_) = x {
                return None;
            }
            if !crate::solve::store::atomic_eq(want, x) {
                return Some(false);
            }
            t = store.deref(store.heap[p as usize + 1]);
        }
        match t {
            Cell::Atom(a) if a == atom::NIL => Some(true),
            Cell::Ref(_) | Cell::Struct(_) => None,
            _ => Some(false),
        }
    }
}

/// SIDL `maxmember(List, Max)` / `minmember(List, Min)`: the element of largest (smallest) arithmetic
/// value, the first one among equals, unified as is; fails on `[]`.
fn extreme_member(ctx: &mut Ctx<'_>, args: &[Cell], want_max: bool) -> Result<Det, Term> {
    let items = need_list(ctx.store, args[0])?;
    let mut best: Option<(Num, Cell)> = None;
    for it in items {
        let v = eval(ctx.store, it, ctx.rng)?;
        let better = match best {
            None => true,
            Some((b, _)) => {
                let o = compare_num(v, b);
                if want_max {
                    o == Some(Ordering::Greater)
                } else {
                    o == Some(Ordering::Less)
                }
            }
        };
        if better {
            best = Some((v, it));
        }
    }
    match best {
        Some((_, c)) => Ok(unify(ctx, args[1], c)),
        None => Ok(Det::Fail),
    }
}

/// The next mask with the same number of bits (Gosper's hack): masks of `k` bits in increasing
/// numeric order are the `k`-subsets in colexicographic order of positions.
fn next_same_bits(m: u64) -> u64 {
    let c = m & m.wrapping_neg();
    let r = m.wrapping_add(c);
    (((r ^ m) >> 2) / c) | r
}

/// SIDL `getsubset(Sub, Set)`: every subset of `Set`, by increasing size, each size in
/// colexicographic order of positions, elements in `Set`'s order. The state is the bit mask of the
/// next subset (bit i = element i), so sets of up to 63 elements are supported.
fn getsubset(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>) -> Result<Det, Term> {
    let items = need_list(ctx.store, args[1])?;
    let n = items.len() as u32;
    if n > 63 {
        return Err(Term::resource_error(Atom::new("getsubset_set_too_large")));
    }
    let limit = 1u64 << n;
    let mut mask = redo.unwrap_or(0);
    loop {
        if mask >= limit {
            return Ok(Det::Fail);
        }
        let chosen: Vec<Cell> = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| items[i as usize])
            .collect();
        let k = mask.count_ones();
        let next = if mask == 0 {
            1
        } else {
            let m = next_same_bits(mask);
            if m >= limit {
                if k + 1 > n {
                    limit
                } else {
                    (1u64 << (k + 1)) - 1
                }
            } else {
                m
            }
        };
        let l = ctx.store.make_list(&chosen, Cell::Atom(atom::NIL));
        if unify_or_undo(ctx.store, args[0], l) {
            return Ok(if next < limit {
                Det::Retry(next)
            } else {
                Det::True
            });
        }
        mask = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use proptest::prelude::*;

    /// `sum_list(L, S)` in a fresh store: the answer and `S`.
    fn run(l: &Term, general: bool) -> (Result<Det, Term>, Term) {
        let mut store = Store::new();
        let mut vars = Vec::new();
        let l = store.build(l, &mut vars);
        let s = store.new_var();
        let mut rng = Rng::new(0);
        let mut ctx = Ctx::new(&mut store, &mut rng);
        let args = [l, s];
        let r = if general {
            sum_list_general(&mut ctx, &args)
        } else {
            sum_list(&mut ctx, &args, None)
        };
        (r, store.to_term(s))
    }

    /// `memberchk/2` as it was before [`Pattern`]: every element unified (and undone).
    fn memberchk_general(ctx: &mut Ctx<'_>, args: &[Cell]) -> Result<Det, Term> {
        let mut t = ctx.store.deref(args[1]);
        loop {
            match t {
                Cell::List(p) => {
                    let h = ctx.store.heap[p as usize];
                    if unify_or_undo(ctx.store, args[0], h) {
                        return Ok(Det::True);
                    }
                    t = ctx.store.deref(ctx.store.heap[p as usize + 1]);
                }
                Cell::Ref(_) => {
                    let rest = ctx.store.new_var();
                    let l = ctx.store.make_list_cell(args[0], rest);
                    return Ok(unify(ctx, t, l));
                }
                Cell::Atom(a) if a == atom::NIL => return Ok(Det::Fail),
                other => return Err(type_error("list", ctx.store, other)),
            }
        }
    }

    /// `memberchk(X, L)` in a fresh store (the variables of `x` and `l` shared) under an older
    /// choicepoint's mark: the answer, the heap and the trail after it.
    fn run_memberchk(x: &Term, l: &Term, general: bool) -> String {
        let mut store = Store::new();
        let mut vars = Vec::new();
        let x = store.build(x, &mut vars);
        let l = store.build(l, &mut vars);
        store.mark = store.len();
        let mut rng = Rng::new(0);
        let mut ctx = Ctx::new(&mut store, &mut rng);
        let args = [x, l];
        let r = if general {
            memberchk_general(&mut ctx, &args)
        } else {
            memberchk(&mut ctx, &args, None)
        };
        // the cells themselves (terms may have become cyclic)
        format!("{r:?} {:?} {:?}", store.heap, store.trail)
    }

    fn small_term() -> impl Strategy<Value = Term> {
        let leaf = prop_oneof![
            Just(Term::atom("a")),
            Just(Term::atom("b")),
            Just(Term::atom("[]")),
            (1i64..3).prop_map(Term::Int),
            Just(Term::Float(1.0)),
            (0u32..3).prop_map(Term::Var),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Term::list),
                (prop::collection::vec(inner.clone(), 1..3), inner.clone())
                    .prop_map(|(v, t)| Term::list_with_tail(v, t)),
                inner.clone().prop_map(|x| Term::compound("f", vec![x])),
                inner.prop_map(|x| Term::compound(".", vec![x, Term::atom("[]")])),
            ]
        })
    }

    proptest! {
        #[test]
        fn memberchk_patterns_agree_with_unifying_each_element(
            x in small_term(),
            elems in prop::collection::vec(small_term(), 0..5),
            tail in prop_oneof![Just(Term::atom("[]")), Just(Term::Var(2)), Just(Term::atom("z"))],
        ) {
            let l = Term::list_with_tail(elems, tail);
            prop_assert_eq!(run_memberchk(&x, &l, false), run_memberchk(&x, &l, true));
        }
    }

    #[test]
    fn sum_list_fast_path_agrees_with_the_general_one() {
        let ints = |v: &[i64]| Term::list(v.iter().map(|&i| Term::Int(i)).collect());
        let long: Vec<i64> = (0..5000).collect();
        let lists = [
            ints(&[]),
            ints(&[1, 2, 3]),
            ints(&[-7, 7, 13]),
            ints(&[i64::MAX, 1]),
            ints(&[i64::MIN, -1]),
            ints(&[i64::MAX, -1, 1]),
            ints(&long),
            Term::list(vec![Term::Int(1), Term::Float(2.5)]),
            Term::list(vec![
                Term::Int(1),
                Term::compound("+", vec![Term::Int(1), Term::Int(2)]),
            ]),
            Term::list(vec![Term::Int(1), Term::atom("a")]),
            Term::list(vec![Term::Int(1), Term::Var(0)]),
            Term::list_with_tail(vec![Term::Int(1)], Term::Var(0)),
            Term::list_with_tail(vec![Term::Int(1)], Term::atom("b")),
            Term::atom("c"),
            Term::Var(0),
        ];
        for l in &lists {
            let (fast, general) = (run(l, false), run(l, true));
            assert_eq!(format!("{fast:?}"), format!("{general:?}"), "{l:?}");
        }
    }
}
