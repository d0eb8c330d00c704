//! `is/2`, the arithmetic comparisons, `succ/2`, `plus/3`, `between/3`.

use super::util::{det, need_int, opt_int, type_error, unify};
use super::{Ctx, Det};
use crate::atom::Atom;
use crate::solve::arith::{compare_num, eval};
use crate::solve::store::Cell;
use crate::term::Term;
use std::cmp::Ordering;

pub fn register(add: &mut dyn FnMut(&str, u32, super::Builtin)) {
    add("is", 2, is);
    add("=:=", 2, |c, a, _| {
        cmp(c, a, |o| o == Some(Ordering::Equal))
    });
    add("=\\=", 2, |c, a, _| {
        cmp(c, a, |o| o != Some(Ordering::Equal))
    });
    add("<", 2, |c, a, _| cmp(c, a, |o| o == Some(Ordering::Less)));
    add(">", 2, |c, a, _| {
        cmp(c, a, |o| o == Some(Ordering::Greater))
    });
    add("=<", 2, |c, a, _| {
        cmp(c, a, |o| {
            matches!(o, Some(Ordering::Less | Ordering::Equal))
        })
    });
    add(">=", 2, |c, a, _| {
        cmp(c, a, |o| {
            matches!(o, Some(Ordering::Greater | Ordering::Equal))
        })
    });
    add("succ", 2, succ);
    add("plus", 3, plus);
    add("between", 3, between);
}

fn is(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let v = eval(ctx.store, args[1], ctx.rng)?;
    let lhs = ctx.store.deref(args[0]);
    Ok(match (lhs, v) {
        (Cell::Ref(a), v) => {
            ctx.store.bind(a, v.to_cell());
            Det::True
        }
        (Cell::Int(x), crate::solve::arith::Num::Int(y)) => det(x == y),
        (Cell::Float(x), crate::solve::arith::Num::Float(y)) => {
            det(x == y || x.is_nan() && y.is_nan())
        }
        _ => Det::Fail,
    })
}

#[inline]
fn cmp(ctx: &mut Ctx<'_>, args: &[Cell], test: fn(Option<Ordering>) -> bool) -> Result<Det, Term> {
    let x = eval(ctx.store, args[0], ctx.rng)?;
    let y = eval(ctx.store, args[1], ctx.rng)?;
    Ok(det(test(compare_num(x, y))))
}

fn not_less_than_zero_type(n: i64) -> Term {
    Term::domain_error(Atom::new("not_less_than_zero"), Term::Int(n))
}

fn succ(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let x = opt_int(ctx.store, args[0])?;
    let y = opt_int(ctx.store, args[1])?;
    match (x, y) {
        (Some(x), _) => {
            if x < 0 {
                return Err(not_less_than_zero_type(x));
            }
            if let Some(y) = y {
                if y < 0 {
                    return Err(not_less_than_zero_type(y));
                }
            }
            let s = x
                .checked_add(1)
                .ok_or_else(|| Term::evaluation_error(crate::atom::INT_OVERFLOW))?;
            Ok(unify(ctx, args[1], Cell::Int(s)))
        }
        (None, Some(y)) => {
            if y < 0 {
                return Err(not_less_than_zero_type(y));
            }
            if y == 0 {
                return Ok(Det::Fail);
            }
            Ok(unify(ctx, args[0], Cell::Int(y - 1)))
        }
        (None, None) => Err(Term::instantiation_error()),
    }
}

fn plus(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let x = opt_int(ctx.store, args[0])?;
    let y = opt_int(ctx.store, args[1])?;
    let z = opt_int(ctx.store, args[2])?;
    let ovf = || Term::evaluation_error(crate::atom::INT_OVERFLOW);
    match (x, y, z) {
        (Some(x), Some(y), _) => Ok(unify(
            ctx,
            args[2],
            Cell::Int(x.checked_add(y).ok_or_else(ovf)?),
        )),
        (Some(x), None, Some(z)) => Ok(unify(
            ctx,
            args[1],
            Cell::Int(z.checked_sub(x).ok_or_else(ovf)?),
        )),
        (None, Some(y), Some(z)) => Ok(unify(
            ctx,
            args[0],
            Cell::Int(z.checked_sub(y).ok_or_else(ovf)?),
        )),
        _ => Err(Term::instantiation_error()),
    }
}

fn between(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    let low = need_int(s, args[0])?;
    let high = match s.deref(args[1]) {
        Cell::Atom(a) if a.name() == "inf" || a.name() == "infinite" => i64::MAX,
        Cell::Ref(_) => return Err(Term::instantiation_error()),
        Cell::Int(h) => h,
        other => return Err(type_error("integer", s, other)),
    };
    let from = match redo {
        Some(v) => v as i64,
        None => match s.deref(args[2]) {
            Cell::Int(x) => return Ok(det(low <= x && x <= high)),
            Cell::Ref(_) => low,
            other => return Err(type_error("integer", s, other)),
        },
    };
    if from > high {
        return Ok(Det::Fail);
    }
    let Cell::Ref(a) = ctx.store.deref(args[2]) else {
        return Ok(Det::Fail);
    };
    ctx.store.bind(a, Cell::Int(from));
    Ok(if from == high {
        Det::True
    } else {
        Det::Retry((from + 1) as u64)
    })
}
