//! Term comparison, unification and inspection: `=`, `\=`, `==`, `\==`, `@<`, `@>`, `@=<`, `@>=`,
//! `compare/3`, `functor/3`, `arg/3`, `=../2`, `copy_term/2`, `term_variables/2`,
//! `unify_with_occurs_check/2`.

use super::util::{det, domain_error, probe, type_error, unify};
use super::{Ctx, Det};
use crate::atom::{self, Atom};
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

/// The largest arity `functor/3` and `=../2` will build (a larger one is a resource error rather than
/// an attempt to allocate gigabytes).
pub const MAX_ARITY: i64 = 1 << 24;

pub fn register(add: &mut dyn FnMut(&str, u32, super::Builtin)) {
    add("=", 2, |c, a, _| Ok(unify(c, a[0], a[1])));
    add("\\=", 2, |c, a, _| {
        Ok(det(!probe(c.store, |s| s.unify(a[0], a[1]))))
    });
    add("==", 2, |c, a, _| {
        Ok(det(c.store.compare(a[0], a[1]) == Ordering::Equal))
    });
    add("\\==", 2, |c, a, _| {
        Ok(det(c.store.compare(a[0], a[1]) != Ordering::Equal))
    });
    add("@<", 2, |c, a, _| {
        Ok(det(c.store.compare(a[0], a[1]) == Ordering::Less))
    });
    add("@>", 2, |c, a, _| {
        Ok(det(c.store.compare(a[0], a[1]) == Ordering::Greater))
    });
    add("@=<", 2, |c, a, _| {
        Ok(det(c.store.compare(a[0], a[1]) != Ordering::Greater))
    });
    add("@>=", 2, |c, a, _| {
        Ok(det(c.store.compare(a[0], a[1]) != Ordering::Less))
    });
    add("compare", 3, compare);
    add("functor", 3, functor);
    add("arg", 3, arg);
    add("=..", 2, univ);
    add("copy_term", 2, copy_term);
    add("term_variables", 2, term_variables);
    add("unify_with_occurs_check", 2, unify_occurs);
}

fn compare(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[0]) {
        Cell::Ref(_) => {}
        Cell::Atom(a) if a == atom::LT || a == atom::GT || a == atom::EQUALS => {}
        Cell::Atom(_) => return Err(domain_error("order", s, args[0])),
        other => return Err(type_error("atom", s, other)),
    }
    let o = match s.compare(args[1], args[2]) {
        Ordering::Less => atom::LT,
        Ordering::Equal => atom::EQUALS,
        Ordering::Greater => atom::GT,
    };
    Ok(unify(ctx, args[0], Cell::Atom(o)))
}

fn functor(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let t = s.deref(args[0]);
    match t {
        Cell::Ref(_) => {
            let name = s.deref(args[1]);
            let n = match s.deref(args[2]) {
                Cell::Ref(_) => return Err(Term::instantiation_error()),
                Cell::Int(n) => n,
                other => return Err(type_error("integer", s, other)),
            };
            if matches!(name, Cell::Ref(_)) {
                return Err(Term::instantiation_error());
            }
            if n < 0 {
                return Err(domain_error("not_less_than_zero", s, args[2]));
            }
            if n == 0 {
                if !name.is_atomic() {
                    return Err(type_error("atomic", s, name));
                }
                return Ok(unify(ctx, args[0], name));
            }
            let f = match name {
                Cell::Atom(a) => a,
                Cell::Struct(_) | Cell::List(_) => return Err(type_error("atomic", s, name)),
                other => return Err(type_error("atom", s, other)),
            };
            if n > MAX_ARITY {
                return Err(Term::resource_error(Atom::new("memory")));
            }
            let store = &mut *ctx.store;
            let vars: Vec<Cell> = (0..n).map(|_| store.new_var()).collect();
            let c = store.make_compound(f, &vars);
            Ok(unify(ctx, args[0], c))
        }
        _ => {
            let (name, n) = match s.functor(t) {
                Some((f, n)) if n > 0 => (Cell::Atom(f), n as i64),
                _ => (t, 0),
            };
            if !unify_or_fail(ctx.store, args[1], name) {
                return Ok(Det::Fail);
            }
            Ok(unify(ctx, args[2], Cell::Int(n)))
        }
    }
}

fn unify_or_fail(s: &mut Store, a: Cell, b: Cell) -> bool {
    s.unify(a, b)
}

fn arg(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let t = s.deref(args[1]);
    let arity = match t {
        Cell::Struct(_) | Cell::List(_) => s.functor(t).map(|(_, n)| n).unwrap_or(0),
        Cell::Ref(_) => return Err(Term::instantiation_error()),
        other => return Err(type_error("compound", s, other)),
    };
    let start = match redo {
        Some(i) => i as u32,
        None => match s.deref(args[0]) {
            Cell::Int(n) => {
                if n < 0 {
                    return Err(domain_error("not_less_than_zero", s, args[0]));
                }
                if n < 1 || n > arity as i64 {
                    return Ok(Det::Fail);
                }
                let a = s.arg(t, (n - 1) as u32);
                return Ok(unify(ctx, args[2], a));
            }
            Cell::Ref(_) => 0,
            other => return Err(type_error("integer", s, other)),
        },
    };
    // enumerate N = start+1 ..= arity
    for i in start..arity {
        let a = ctx.store.arg(t, i);
        if super::util::unify_or_undo(ctx.store, args[2], a) {
            if !ctx.store.unify(args[0], Cell::Int(i as i64 + 1)) {
                return Ok(Det::Fail);
            }
            return Ok(if i + 1 < arity {
                Det::Retry(i as u64 + 1)
            } else {
                Det::True
            });
        }
    }
    Ok(Det::Fail)
}

fn univ(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let t = s.deref(args[0]);
    match t {
        Cell::Ref(_) => {
            let items = match super::util::list_shape(s, args[1]) {
                super::util::ListShape::Proper(v) => v,
                super::util::ListShape::Partial(..) => return Err(Term::instantiation_error()),
                _ => return Err(type_error("list", s, args[1])),
            };
            let Some(&head) = items.first() else {
                return Err(domain_error("non_empty_list", s, args[1]));
            };
            let head = s.deref(head);
            if items.len() == 1 {
                return match head {
                    Cell::Ref(_) => Err(Term::instantiation_error()),
                    h if h.is_atomic() => Ok(unify(ctx, args[0], h)),
                    h => Err(type_error("atomic", s, h)),
                };
            }
            let f = match head {
                Cell::Ref(_) => return Err(Term::instantiation_error()),
                Cell::Atom(a) => a,
                other => return Err(type_error("atom", s, other)),
            };
            let c = ctx.store.make_compound(f, &items[1..]);
            Ok(unify(ctx, args[0], c))
        }
        Cell::Struct(p) => {
            let Cell::Functor(f, n) = s.heap[p as usize] else {
                return Ok(Det::Fail);
            };
            let mut items = Vec::with_capacity(n as usize + 1);
            items.push(Cell::Atom(f));
            items.extend((1..=n).map(|i| s.heap[(p + i) as usize]));
            let l = ctx.store.make_list(&items, Cell::Atom(atom::NIL));
            Ok(unify(ctx, args[1], l))
        }
        Cell::List(p) => {
            let items = [
                Cell::Atom(atom::DOT),
                s.heap[p as usize],
                s.heap[p as usize + 1],
            ];
            let l = ctx.store.make_list(&items, Cell::Atom(atom::NIL));
            Ok(unify(ctx, args[1], l))
        }
        atomic => {
            let l = ctx.store.make_list(&[atomic], Cell::Atom(atom::NIL));
            Ok(unify(ctx, args[1], l))
        }
    }
}

/// Copies the term at `c` with fresh variables (iteratively).
pub fn copy(store: &mut Store, c: Cell) -> Cell {
    let mut map: HashMap<u32, Cell> = HashMap::new();
    copy_with(store, c, &mut map)
}

fn copy_with(store: &mut Store, c: Cell, map: &mut HashMap<u32, Cell>) -> Cell {
    // each job fills heap slot `dst` (or the root) with a copy of `src`
    let mut root = Cell::Atom(atom::NIL);
    // compounds already copied (so shared and cyclic subterms are copied once)
    let mut done: HashMap<u32, Cell> = HashMap::new();
    let mut jobs: Vec<(Cell, Option<u32>)> = vec![(c, None)];
    while let Some((src, dst)) = jobs.pop() {
        let src = store.deref(src);
        if let Cell::List(p) | Cell::Struct(p) = src {
            if let Some(&copied) = done.get(&p) {
                match dst {
                    Some(d) => store.heap[d as usize] = copied,
                    None => root = copied,
                }
                continue;
            }
        }
        let cell = match src {
            Cell::Ref(a) => match map.get(&a) {
                Some(&v) => v,
                None => {
                    let v = match dst {
                        Some(d) => Cell::Ref(d),
                        None => store.new_var(),
                    };
                    map.insert(a, v);
                    v
                }
            },
            Cell::List(p) => {
                let (h, t) = (store.heap[p as usize], store.heap[p as usize + 1]);
                let q = store.len();
                store.heap.push(Cell::Atom(atom::NIL));
                store.heap.push(Cell::Atom(atom::NIL));
                jobs.push((t, Some(q + 1)));
                jobs.push((h, Some(q)));
                done.insert(p, Cell::List(q));
                Cell::List(q)
            }
            Cell::Struct(p) => {
                let Cell::Functor(f, n) = store.heap[p as usize] else {
                    continue;
                };
                let q = store.len();
                store.heap.push(Cell::Functor(f, n));
                for i in 1..=n {
                    store.heap.push(Cell::Atom(atom::NIL));
                    jobs.push((store.heap[(p + i) as usize], Some(q + i)));
                }
                done.insert(p, Cell::Struct(q));
                Cell::Struct(q)
            }
            other => other,
        };
        match dst {
            Some(d) => store.heap[d as usize] = cell,
            None => root = cell,
        }
    }
    root
}

fn copy_term(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    if ctx.store.is_ground(args[0]) {
        return Ok(unify(ctx, args[1], args[0]));
    }
    let c = copy(ctx.store, args[0]);
    Ok(unify(ctx, args[1], c))
}

/// The unbound variables of a term in depth-first, left-to-right order (each once). Compound cells
/// already visited are skipped, so cyclic terms terminate.
pub fn variables(store: &Store, c: Cell) -> Vec<Cell> {
    let mut seen: HashSet<u32> = HashSet::new();
    let mut visited: HashSet<u32> = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![c];
    while let Some(c) = stack.pop() {
        match store.deref(c) {
            Cell::Ref(a) if seen.insert(a) => {
                out.push(Cell::Ref(a));
            }
            Cell::List(p) if visited.insert(p) => {
                stack.push(store.heap[p as usize + 1]);
                stack.push(store.heap[p as usize]);
            }
            Cell::Struct(p) if visited.insert(p) => {
                if let Cell::Functor(_, n) = store.heap[p as usize] {
                    for i in (1..=n).rev() {
                        stack.push(store.heap[(p + i) as usize]);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn term_variables(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let vs = variables(ctx.store, args[0]);
    let l = ctx.store.make_list(&vs, Cell::Atom(atom::NIL));
    Ok(unify(ctx, args[1], l))
}

fn occurs(store: &Store, var: u32, t: Cell) -> bool {
    let mut stack = vec![t];
    let mut visited: HashSet<u32> = HashSet::new();
    while let Some(mut c) = stack.pop() {
        // dereference by hand: `var` itself is bound now, so meeting its address is the cycle
        while let Cell::Ref(a) = c {
            if a == var {
                return true;
            }
            let v = store.heap[a as usize];
            if v == Cell::Ref(a) {
                break;
            }
            c = v;
        }
        match c {
            Cell::List(p) if visited.insert(p) => {
                stack.push(store.heap[p as usize]);
                stack.push(store.heap[p as usize + 1]);
            }
            Cell::Struct(p) if visited.insert(p) => {
                if let Cell::Functor(_, n) = store.heap[p as usize] {
                    stack.extend((1..=n).map(|i| store.heap[(p + i) as usize]));
                }
            }
            _ => {}
        }
    }
    false
}

/// Unification with occurs check: unify, then reject if a variable bound by this unification now
/// occurs in its own value. Done as: unify, then check every binding made for cycles.
fn unify_occurs(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let store = &mut *ctx.store;
    let saved_mark = store.mark;
    store.mark = store.len();
    let tl = store.trail.len();
    let ok = store.unify(args[0], args[1]);
    let mut good = ok;
    if ok {
        let bound: Vec<u32> = store.trail[tl..]
            .iter()
            .filter_map(|e| match e {
                crate::solve::store::TrailEntry::Bind(a) => Some(*a),
                _ => None,
            })
            .collect();
        for a in bound {
            let v = store.heap[a as usize];
            if occurs(store, a, v) {
                good = false;
                break;
            }
        }
    }
    if !good {
        store.undo_to(tl, |_| {});
        store.mark = saved_mark;
        return Ok(Det::Fail);
    }
    // drop trail entries the enclosing choicepoint does not need
    let mut i = tl;
    while i < store.trail.len() {
        match store.trail[i] {
            crate::solve::store::TrailEntry::Bind(a) if a >= saved_mark => {
                store.trail.swap_remove(i);
            }
            _ => i += 1,
        }
    }
    store.mark = saved_mark;
    Ok(Det::True)
}
