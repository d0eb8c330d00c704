//! Native fast paths of the hot list predicates of the prelude: `'$member_loop'/3` (the loop of
//! `member/2`) and `append/3`. They are not built-ins of their own name (`lookup` does not find
//! them): the program builder (`solve/build.rs`) gives them to the call sites of the library
//! predicate, after the analyses, and a meta-call still runs the clauses.
//!
//! Each is exactly the prelude's clauses run by the machine: the same answers in the same order,
//! the same bindings (the same variables, created in the same order), the same choicepoints (one
//! retry choicepoint where the clauses leave one, none after the last element), and the same
//! inference count: every call the clauses would make is added to [`Ctx::used`]. Only as many as
//! [`Ctx::room`] allows (the calls at which the machine would count a profile entry, check the
//! inference budget or abort a memo fill are never made here), with [`Ctx::heap_room`] heap cells
//! for the arguments the clauses would build; where that is not enough, or the list is partial,
//! the call sets [`Ctx::clauses`] and the machine runs the clauses on the call it stopped at
//! (already counted).

use super::{Ctx, Det, OWN_ARGS};
use crate::atom;
use crate::solve::store::{Cell, Store};
use crate::term::Term;

/// Heap cells one recursive call of `'$member_loop'/3` builds (its arguments).
const MEMBER_CELLS: usize = 3;
/// Heap cells one recursive call of `append/3` builds at most (its arguments, and the list cell
/// of `[H|R]` with its fresh variable).
const APPEND_CELLS: usize = 5;

/// Unifies `a` and `b`, undoing the bindings when that fails (as backtracking to the next clause
/// does); every binding of a cell below the top is trailed and its trail entry kept (unlike
/// `util::unify_or_undo`, which drops the entries no outer choicepoint needs: the member loop
/// answers with a retry, whose choicepoint is pushed after these bindings and undoes them all).
#[inline]
fn unify_trailed(store: &mut Store, a: Cell, b: Cell) -> bool {
    let saved_mark = store.mark;
    store.mark = store.len();
    let tl = store.trail.len();
    let ok = store.unify(a, b);
    if !ok {
        store.undo_to(tl, |_| {});
    }
    store.mark = saved_mark;
    ok
}

/// Would the machine's first-argument index of a two-clause list walker (`[]` or a variable first,
/// then `[H|T]`) also try the `[H|T]` clause for the dereferenced first argument `c`? `Some(true)`
/// for a list cell, `Some(false)` when only the other clause can match, `None` for a variable or
/// anything else the fast paths leave to the clauses.
#[inline]
fn is_cell(store: &Store, c: Cell) -> Option<bool> {
    match c {
        Cell::List(_) => Some(true),
        Cell::Ref(_) => None,
        Cell::Struct(p) => match store.heap[p as usize] {
            Cell::Functor(f, 2) if f == atom::DOT => None,
            _ => Some(false),
        },
        _ => Some(false),
    }
}

/// Stops at the call `'$member_loop'(t, elem, h)` (counted): its arguments for the clauses.
fn member_clauses(ctx: &mut Ctx<'_>, own: bool, (t, elem, h): (Cell, Cell, Cell)) -> Det {
    ctx.clauses = Some(if own {
        OWN_ARGS
    } else {
        let a = ctx.store.len();
        ctx.store.heap.extend_from_slice(&[t, elem, h]);
        a
    });
    Det::Fail
}

/// `'$member_loop'(?Tail, ?Elem, ?Head)` of the prelude:
/// ```prolog
/// '$member_loop'(_, Elem, Elem).
/// '$member_loop'([H|T], Elem, _) :- '$member_loop'(T, Elem, H).
/// ```
/// The retry state is the list cell the clause `[H|T]` takes next: its retry is that clause's
/// recursive call, which the machine counted.
pub fn member_loop(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>) -> Result<Det, Term> {
    ctx.library = true;
    let elem = args[1];
    let (mut t, mut h, mut own) = match redo {
        None => (args[0], args[2], true),
        Some(p) => {
            let p = p as usize;
            (ctx.store.heap[p + 1], ctx.store.heap[p], false)
        }
    };
    // a retry is the second clause's retry (which the machine counted) and its recursive call
    let mut used = u64::from(redo.is_some());
    if used > ctx.room || (used as usize) * MEMBER_CELLS > ctx.heap_room {
        // the recursive call is counted (and checked) by the machine
        ctx.count_first = redo.is_some();
        return Ok(member_clauses(ctx, own, (t, elem, h)));
    }
    loop {
        let td = ctx.store.deref(t);
        match is_cell(ctx.store, td) {
            None => {
                ctx.used = used;
                return Ok(member_clauses(ctx, own, (t, elem, h)));
            }
            Some(false) => {
                ctx.used = used;
                return Ok(if ctx.store.unify(elem, h) {
                    Det::True
                } else {
                    Det::Fail
                });
            }
            Some(true) => {
                let Cell::List(p) = td else {
                    unreachable!("a list cell")
                };
                if unify_trailed(ctx.store, elem, h) {
                    ctx.used = used;
                    return Ok(Det::Retry(p as u64));
                }
                // the retry of the second clause and its recursive call
                if used + 2 > ctx.room || (used as usize + 2) * MEMBER_CELLS > ctx.heap_room {
                    ctx.used = used;
                    return Ok(member_clauses(ctx, own, (t, elem, h)));
                }
                used += 2;
                own = false;
                h = ctx.store.heap[p as usize];
                t = ctx.store.heap[p as usize + 1];
            }
        }
    }
}

/// `append(?List1, ?List2, ?List12)` of the prelude, for a proper `List1` (else the clauses run):
/// ```prolog
/// append([], L, L).
/// append([H|T], L, [H|R]) :- append(T, L, R).
/// ```
/// Deterministic then (the first argument selects one clause): `List12` is unified cell by cell
/// as the second clause's head does (an unbound one bound to a new cell `[H|R]`), then the rest
/// with `List2`.
pub fn append3(ctx: &mut Ctx<'_>, args: &[Cell], _redo: Option<u64>) -> Result<Det, Term> {
    ctx.library = true;
    // the length of List1, within the room
    let mut n = 0u64;
    let mut t = ctx.store.deref(args[0]);
    loop {
        match is_cell(ctx.store, t) {
            Some(true) => {
                let Cell::List(p) = t else {
                    unreachable!("a list cell")
                };
                n += 1;
                if n > ctx.room || (n as usize + 1) * APPEND_CELLS > ctx.heap_room {
                    ctx.clauses = Some(OWN_ARGS);
                    return Ok(Det::Fail);
                }
                t = ctx.store.deref(ctx.store.heap[p as usize + 1]);
            }
            Some(false) if t == Cell::Atom(atom::NIL) => break,
            _ => {
                ctx.clauses = Some(OWN_ARGS);
                return Ok(Det::Fail);
            }
        }
    }
    let store = &mut *ctx.store;
    let mut t = store.deref(args[0]);
    let mut r = args[2];
    let mut used = 0u64;
    while let Cell::List(p) = t {
        let h = store.heap[p as usize];
        match store.deref(r) {
            Cell::Ref(v) => {
                let q = store.len();
                store.heap.push(h);
                store.heap.push(Cell::Ref(q + 1));
                store.bind(v, Cell::List(q));
                r = Cell::Ref(q + 1);
            }
            Cell::List(q) => {
                if !store.unify(h, store.heap[q as usize]) {
                    ctx.used = used;
                    return Ok(Det::Fail);
                }
                r = store.heap[q as usize + 1];
            }
            _ => {
                ctx.used = used;
                return Ok(Det::Fail);
            }
        }
        used += 1;
        t = store.deref(store.heap[p as usize + 1]);
    }
    ctx.used = used;
    Ok(if store.unify(args[1], r) {
        Det::True
    } else {
        Det::Fail
    })
}
