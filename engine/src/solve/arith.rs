//! Arithmetic evaluation (`is/2` and the comparisons), with SWI-Prolog 9's default-flag semantics
//! (`prefer_rationals=false`, `iso=false`, float flags `error`), except that integers are 64-bit:
//! a result outside `i64` raises `evaluation_error(int_overflow)` (ISO's error term) where SWI-Prolog
//! would return a big integer. The full list of functions and every deliberate difference from
//! SWI-Prolog is in `docs/builtins.md`.
//!
//! [`eval`] recurses over the first levels of an expression (fast, no allocation) and switches to an
//! explicit stack below a fixed depth, so a million-term `1+1+...+1` cannot overflow the native stack.

use crate::atom::{self, Atom};
use crate::rng::Rng;
use crate::solve::program::AOp;
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A number: the value of an arithmetic expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub fn to_cell(self) -> Cell {
        match self {
            Num::Int(i) => Cell::Int(i),
            Num::Float(f) => Cell::Float(f),
        }
    }
    pub fn to_term(self) -> Term {
        match self {
            Num::Int(i) => Term::Int(i),
            Num::Float(f) => Term::Float(f),
        }
    }
    #[inline]
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// Compares two numbers by value (`=:=`, `<`, ...): an integer is converted to a float to compare
/// it with a float (as SWI-Prolog 9); `None` when a NaN is involved.
#[inline]
pub fn compare_num(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
        // SWI-Prolog 9 converts the integer to a float (so 2^53+1 =:= 2.0^53)
        (Num::Int(x), Num::Float(y)) => (x as f64).partial_cmp(&y),
        (Num::Float(x), Num::Int(y)) => x.partial_cmp(&(y as f64)),
    }
}

/// 2^63 as a float: the first float above every `i64`.
const TWO_63: f64 = (1u64 << 63) as f64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum F {
    // constants
    Pi,
    E,
    Inf,
    Nan,
    Epsilon,
    RandomFloat,
    // unary
    Neg,
    Pos,
    Abs,
    Sign,
    Sqrt,
    Exp,
    Log,
    Log10,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Floor,
    Ceiling,
    Round,
    Truncate,
    Integer,
    Float,
    FloatIntPart,
    FloatFracPart,
    BitNot,
    Msb,
    Lsb,
    Popcount,
    Random,
    Eval,
    // binary
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    FloorDiv,
    Mod,
    Rem,
    Min,
    Max,
    Pow,
    Caret,
    Atan2,
    Shr,
    Shl,
    And,
    Or,
    Xor,
    Gcd,
    Lcm,
    Getbit,
    Copysign,
    Nexttoward,
}

fn functions() -> &'static HashMap<(Atom, u32), F> {
    static T: OnceLock<HashMap<(Atom, u32), F>> = OnceLock::new();
    T.get_or_init(|| {
        use F::*;
        let list: &[(&str, u32, F)] = &[
            ("pi", 0, Pi),
            ("e", 0, E),
            ("inf", 0, Inf),
            ("infinite", 0, Inf),
            ("nan", 0, Nan),
            ("epsilon", 0, Epsilon),
            ("random_float", 0, RandomFloat),
            ("-", 1, Neg),
            ("+", 1, Pos),
            ("abs", 1, Abs),
            ("sign", 1, Sign),
            ("sqrt", 1, Sqrt),
            ("exp", 1, Exp),
            ("log", 1, Log),
            ("log10", 1, Log10),
            ("sin", 1, Sin),
            ("cos", 1, Cos),
            ("tan", 1, Tan),
            ("asin", 1, Asin),
            ("acos", 1, Acos),
            ("atan", 1, Atan),
            ("sinh", 1, Sinh),
            ("cosh", 1, Cosh),
            ("tanh", 1, Tanh),
            ("asinh", 1, Asinh),
            ("acosh", 1, Acosh),
            ("atanh", 1, Atanh),
            ("floor", 1, Floor),
            ("ceiling", 1, Ceiling),
            ("ceil", 1, Ceiling),
            ("round", 1, Round),
            ("truncate", 1, Truncate),
            ("integer", 1, Integer),
            ("float", 1, Float),
            ("float_integer_part", 1, FloatIntPart),
            ("float_fractional_part", 1, FloatFracPart),
            ("\\", 1, BitNot),
            ("msb", 1, Msb),
            ("lsb", 1, Lsb),
            ("popcount", 1, Popcount),
            ("random", 1, Random),
            ("eval", 1, Eval),
            ("+", 2, Add),
            ("-", 2, Sub),
            ("*", 2, Mul),
            ("/", 2, Div),
            ("//", 2, IntDiv),
            ("div", 2, FloorDiv),
            ("mod", 2, Mod),
            ("rem", 2, Rem),
            ("min", 2, Min),
            ("max", 2, Max),
            ("**", 2, Pow),
            ("^", 2, Caret),
            ("atan", 2, Atan2),
            ("atan2", 2, Atan2),
            (">>", 2, Shr),
            ("<<", 2, Shl),
            ("/\\", 2, And),
            ("\\/", 2, Or),
            ("xor", 2, Xor),
            ("gcd", 2, Gcd),
            ("lcm", 2, Lcm),
            ("getbit", 2, Getbit),
            ("copysign", 2, Copysign),
            ("nexttoward", 2, Nexttoward),
        ];
        list.iter()
            .map(|&(n, a, f)| ((Atom::new(n), a), f))
            .collect()
    })
}

/// Is `name/arity` an evaluable function?
pub fn is_evaluable(name: Atom, arity: u32) -> bool {
    functions().contains_key(&(name, arity))
}

#[inline]
fn lookup(name: Atom, arity: u32) -> Result<F, Term> {
    // the four most frequent operators without hashing
    match (name, arity) {
        (atom::PLUS, 2) => Ok(F::Add),
        (atom::MINUS, 2) => Ok(F::Sub),
        (atom::STAR, 2) => Ok(F::Mul),
        (atom::MINUS, 1) => Ok(F::Neg),
        _ => functions()
            .get(&(name, arity))
            .copied()
            .ok_or_else(|| not_evaluable(name, arity)),
    }
}

fn not_evaluable(name: Atom, arity: u32) -> Term {
    Term::type_error(atom::EVALUABLE, Term::indicator(name, arity as usize))
}

fn int_overflow() -> Term {
    Term::evaluation_error(atom::INT_OVERFLOW)
}

fn type_integer(n: Num) -> Term {
    Term::type_error(atom::INTEGER, n.to_term())
}

fn not_less_than(what: &str, n: i64) -> Term {
    Term::domain_error(Atom::new(what), Term::Int(n))
}

/// Checks a float result as SWI-Prolog does with its default flags: infinity is a float overflow, NaN
/// is undefined.
#[inline]
fn check(f: f64) -> Result<Num, Term> {
    if f.is_finite() {
        Ok(Num::Float(f))
    } else if f.is_nan() {
        Err(Term::evaluation_error(atom::UNDEFINED))
    } else {
        Err(Term::evaluation_error(atom::FLOAT_OVERFLOW))
    }
}

#[inline]
fn int_of(n: Num) -> Result<i64, Term> {
    match n {
        Num::Int(i) => Ok(i),
        Num::Float(_) => Err(type_integer(n)),
    }
}

/// Depth up to which [`eval`] recurses natively before switching to an explicit stack.
const NATIVE_DEPTH: u32 = 64;

/// Evaluates the arithmetic expression `c`.
#[inline]
pub fn eval(store: &Store, c: Cell, rng: &mut Rng) -> Result<Num, Term> {
    match store.deref(c) {
        Cell::Int(i) => Ok(Num::Int(i)),
        Cell::Struct(p) => match int_op(store, p) {
            Some(n) => Ok(Num::Int(n)),
            None => eval_rec(store, Cell::Struct(p), rng, 0),
        },
        other => eval_rec(store, other, rng, 0),
    }
}

/// The value of `X + Y`, `X - Y`, `X * Y` or `-X` at `p` when the arguments are integers and the
/// result does not overflow: what [`eval_rec`] computes, without the function lookup and the
/// recursion. `None` for everything else (then `eval_rec` gives the value or the error).
#[inline]
fn int_op(store: &Store, p: u32) -> Option<i64> {
    let p = p as usize;
    match store.heap[p] {
        Cell::Functor(name, 2) => {
            let (Cell::Int(a), Cell::Int(b)) = (
                store.deref(store.heap[p + 1]),
                store.deref(store.heap[p + 2]),
            ) else {
                return None;
            };
            match name {
                atom::PLUS => a.checked_add(b),
                atom::MINUS => a.checked_sub(b),
                atom::STAR => a.checked_mul(b),
                _ => None,
            }
        }
        Cell::Functor(atom::MINUS, 1) => match store.deref(store.heap[p + 1]) {
            Cell::Int(a) => a.checked_neg(),
            _ => None,
        },
        _ => None,
    }
}

/// The value of operation `op` of the integers `a` and `b` (`b` unused by `-/1` and `abs/1`): what
/// [`eval`] computes for it, when that is an integer. `None` where [`eval`] raises an error
/// (overflow, division by zero): the caller then leaves the goal to the built-in.
#[inline(always)]
pub fn int_fn(op: AOp, a: i64, b: i64) -> Option<i64> {
    match op {
        AOp::Val => Some(a),
        AOp::Add => a.checked_add(b),
        AOp::Sub => a.checked_sub(b),
        AOp::Mul => a.checked_mul(b),
        AOp::Neg => a.checked_neg(),
        AOp::Abs => a.checked_abs(),
        AOp::Min => Some(a.min(b)),
        AOp::Max => Some(a.max(b)),
        AOp::IntDiv | AOp::FloorDiv | AOp::Mod | AOp::Rem => {
            if b == 0 {
                return None;
            }
            match op {
                AOp::IntDiv => a.checked_div(b),
                AOp::FloorDiv => floor_div(a, b).ok(),
                AOp::Rem => Some(a.checked_rem(b).unwrap_or(0)),
                _ => {
                    let r = a.checked_rem(b).unwrap_or(0);
                    Some(if r != 0 && ((r < 0) != (b < 0)) {
                        r + b
                    } else {
                        r
                    })
                }
            }
        }
    }
}

fn eval_rec(store: &Store, c: Cell, rng: &mut Rng, depth: u32) -> Result<Num, Term> {
    match store.deref(c) {
        Cell::Int(i) => Ok(Num::Int(i)),
        Cell::Float(f) => Ok(Num::Float(f)),
        Cell::Struct(p) => {
            if depth >= NATIVE_DEPTH {
                return eval_iter(store, c, rng);
            }
            let Cell::Functor(name, n) = store.heap[p as usize] else {
                return Err(bad_cell());
            };
            let f = match lookup(name, n) {
                Ok(f) => f,
                Err(e) => return Err(unknown_function(store, p, n, e)),
            };
            match n {
                1 => {
                    let x = eval_rec(store, store.heap[p as usize + 1], rng, depth + 1)?;
                    apply1(f, x, rng)
                }
                _ => {
                    let x = eval_rec(store, store.heap[p as usize + 1], rng, depth + 1)?;
                    let y = eval_rec(store, store.heap[p as usize + 2], rng, depth + 1)?;
                    apply2(f, x, y)
                }
            }
        }
        other => eval_leaf(store, other, rng).and_then(|l| match l {
            Leaf::Num(n) => Ok(n),
            Leaf::Eval(c) => {
                if depth >= NATIVE_DEPTH {
                    eval_iter(store, c, rng)
                } else {
                    eval_rec(store, c, rng, depth + 1)
                }
            }
        }),
    }
}

enum Leaf {
    Num(Num),
    /// `[X]` evaluates `X`.
    Eval(Cell),
}

/// The error for an unknown function: SWI-Prolog evaluates the arguments first, so an unbound
/// argument is an instantiation error rather than `type_error(evaluable, F/N)` (only the direct
/// arguments are looked at, so that this stays shallow).
fn unknown_function(store: &Store, p: u32, n: u32, e: Term) -> Term {
    if (1..=n).any(|i| matches!(store.deref(store.heap[(p + i) as usize]), Cell::Ref(_))) {
        return Term::instantiation_error();
    }
    e
}

fn bad_cell() -> Term {
    Term::type_error(atom::EVALUABLE, Term::atom("$cell"))
}

/// Everything but a compound with an evaluable functor.
fn eval_leaf(store: &Store, c: Cell, rng: &mut Rng) -> Result<Leaf, Term> {
    match c {
        Cell::Int(i) => Ok(Leaf::Num(Num::Int(i))),
        Cell::Float(f) => Ok(Leaf::Num(Num::Float(f))),
        Cell::Ref(_) => Err(Term::instantiation_error()),
        Cell::Atom(a) => {
            if a == atom::NIL {
                return Err(Term::type_error(atom::EVALUABLE, Term::nil()));
            }
            let f = lookup(a, 0)?;
            Ok(Leaf::Num(apply0(f, rng)))
        }
        Cell::Str(s) => {
            let mut chars = s.name().chars();
            match (chars.next(), chars.next()) {
                (Some(ch), None) => Ok(Leaf::Num(Num::Int(ch as i64))),
                _ => Err(Term::type_error(atom::NIL, Term::Str(s))),
            }
        }
        Cell::List(p) => {
            let tail = store.deref(store.heap[p as usize + 1]);
            if tail == Cell::Atom(atom::NIL) {
                Ok(Leaf::Eval(store.heap[p as usize]))
            } else {
                Err(Term::type_error(atom::NIL, store.to_term(c)))
            }
        }
        Cell::Struct(_) | Cell::Functor(..) | Cell::Var(_) => Err(bad_cell()),
    }
}

/// Explicit-stack evaluation for deep expressions.
/// The most evaluation steps of one expression.
const MAX_EVAL_STEPS: u64 = 4_000_000;

fn eval_iter(store: &Store, c: Cell, rng: &mut Rng) -> Result<Num, Term> {
    enum Job {
        Eval(Cell),
        Apply(F, u32),
    }
    let mut jobs = vec![Job::Eval(c)];
    let mut vals: Vec<Num> = Vec::new();
    // a cyclic expression (X = 1 + X) or an exponentially shared one ends with a resource error
    let mut steps: u64 = 0;
    while let Some(job) = jobs.pop() {
        steps += 1;
        if steps > MAX_EVAL_STEPS {
            return Err(Term::resource_error(Atom::new(
                "arithmetic_expression_size",
            )));
        }
        match job {
            Job::Eval(c) => match store.deref(c) {
                Cell::Struct(p) => {
                    let Cell::Functor(name, n) = store.heap[p as usize] else {
                        return Err(bad_cell());
                    };
                    let f = match lookup(name, n) {
                        Ok(f) => f,
                        Err(e) => return Err(unknown_function(store, p, n, e)),
                    };
                    jobs.push(Job::Apply(f, n));
                    for i in (1..=n).rev() {
                        jobs.push(Job::Eval(store.heap[(p + i) as usize]));
                    }
                }
                other => match eval_leaf(store, other, rng)? {
                    Leaf::Num(n) => vals.push(n),
                    Leaf::Eval(c) => jobs.push(Job::Eval(c)),
                },
            },
            Job::Apply(f, n) => {
                let r = if n == 1 {
                    let x = vals.pop().ok_or_else(bad_cell)?;
                    apply1(f, x, rng)?
                } else {
                    let y = vals.pop().ok_or_else(bad_cell)?;
                    let x = vals.pop().ok_or_else(bad_cell)?;
                    apply2(f, x, y)?
                };
                vals.push(r);
            }
        }
    }
    vals.pop().ok_or_else(bad_cell)
}

fn apply0(f: F, rng: &mut Rng) -> Num {
    match f {
        F::Pi => Num::Float(std::f64::consts::PI),
        F::E => Num::Float(std::f64::consts::E),
        F::Inf => Num::Float(f64::INFINITY),
        F::Nan => Num::Float(f64::NAN),
        F::Epsilon => Num::Float(f64::EPSILON),
        F::RandomFloat => Num::Float(rng.next_f64_open()),
        _ => Num::Int(0),
    }
}

/// A float function of one argument, result checked.
#[inline]
fn float_fn(x: Num, g: fn(f64) -> f64) -> Result<Num, Term> {
    check(g(x.as_f64()))
}

/// `floor`/`ceiling`/`round`/`truncate`/`integer` of a float: an integer, or the special float itself
/// (SWI-Prolog returns `inf`/`nan` unchanged).
fn to_int(f: f64, g: fn(f64) -> f64) -> Result<Num, Term> {
    if !f.is_finite() {
        return Ok(Num::Float(f));
    }
    let r = g(f);
    if (-TWO_63..TWO_63).contains(&r) {
        Ok(Num::Int(r as i64))
    } else {
        Err(int_overflow())
    }
}

fn apply1(f: F, x: Num, rng: &mut Rng) -> Result<Num, Term> {
    use Num::{Float as Fl, Int};
    Ok(match f {
        F::Neg => match x {
            Int(i) => Int(i.checked_neg().ok_or_else(int_overflow)?),
            Fl(v) => Fl(-v),
        },
        F::Pos | F::Eval => x,
        F::Abs => match x {
            Int(i) => Int(i.checked_abs().ok_or_else(int_overflow)?),
            Fl(v) => Fl(v.abs()),
        },
        F::Sign => match x {
            Int(i) => Int(i.signum()),
            Fl(v) => Fl(if v > 0.0 {
                1.0
            } else if v < 0.0 {
                -1.0
            } else if v == 0.0 {
                0.0
            } else {
                v
            }),
        },
        F::Sqrt => return float_fn(x, f64::sqrt),
        F::Exp => return float_fn(x, f64::exp),
        F::Log => return float_fn(x, f64::ln),
        F::Log10 => return float_fn(x, f64::log10),
        F::Sin | F::Cos | F::Tan => {
            let v = x.as_f64();
            if v.is_infinite() {
                return Err(Term::evaluation_error(atom::FLOAT_OVERFLOW));
            }
            return check(match f {
                F::Sin => v.sin(),
                F::Cos => v.cos(),
                _ => v.tan(),
            });
        }
        F::Asin => return float_fn(x, f64::asin),
        F::Acos => return float_fn(x, f64::acos),
        F::Atan => return float_fn(x, f64::atan),
        F::Sinh => return float_fn(x, f64::sinh),
        F::Cosh => return float_fn(x, f64::cosh),
        F::Tanh => return float_fn(x, f64::tanh),
        F::Asinh => return float_fn(x, f64::asinh),
        F::Acosh => return float_fn(x, f64::acosh),
        F::Atanh => return float_fn(x, f64::atanh),
        F::Floor | F::Ceiling | F::Round | F::Truncate | F::Integer => match x {
            Int(_) => x,
            Fl(v) => {
                return to_int(
                    v,
                    match f {
                        F::Floor => f64::floor,
                        F::Ceiling => f64::ceil,
                        F::Truncate => f64::trunc,
                        _ => f64::round, // half away from zero, as SWI-Prolog
                    },
                );
            }
        },
        F::Float => Fl(x.as_f64()),
        F::FloatIntPart => match x {
            Int(_) => x,
            Fl(v) => return check(v.trunc()),
        },
        F::FloatFracPart => match x {
            Int(_) => Int(0),
            Fl(v) if v.is_infinite() => Fl(0.0),
            Fl(v) => Fl(v - v.trunc()),
        },
        F::BitNot => Int(!int_of(x)?),
        F::Msb | F::Lsb => {
            let i = int_of(x)?;
            if i <= 0 {
                return Err(not_less_than("not_less_than_one", i));
            }
            Int(if f == F::Msb {
                63 - i.leading_zeros() as i64
            } else {
                i.trailing_zeros() as i64
            })
        }
        F::Popcount => {
            let i = int_of(x)?;
            if i < 0 {
                return Err(not_less_than("not_less_than_zero", i));
            }
            Int(i.count_ones() as i64)
        }
        F::Random => {
            let i = int_of(x)?;
            if i <= 0 {
                return Err(not_less_than("not_less_than_one", i));
            }
            Int(rng.below(i as u64) as i64)
        }
        _ => return Err(bad_cell()),
    })
}

fn floor_div(x: i64, y: i64) -> Result<i64, Term> {
    let q = x.checked_div(y).ok_or_else(int_overflow)?;
    if (x % y != 0) && ((x < 0) != (y < 0)) {
        Ok(q - 1)
    } else {
        Ok(q)
    }
}

fn gcd(a: i64, b: i64) -> Result<i64, Term> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).map_err(|_| int_overflow())
}

/// `x ** y` and `x ^ y` (identical with `prefer_rationals=false`).
fn power(x: Num, y: Num) -> Result<Num, Term> {
    let zero_exp = match y {
        Num::Int(0) => true,
        Num::Float(f) => f == 0.0,
        _ => false,
    };
    if zero_exp {
        return Ok(Num::Int(1));
    }
    let zero_base = match x {
        Num::Int(0) => true,
        Num::Float(f) => f == 0.0,
        _ => false,
    };
    if zero_base && y.as_f64() < 0.0 {
        return Err(Term::evaluation_error(atom::ZERO_DIVISOR));
    }
    match (x, y) {
        (Num::Int(b), Num::Int(e)) => {
            if b == 1 {
                Ok(Num::Int(1))
            } else if b == -1 {
                Ok(Num::Int(if e % 2 == 0 { 1 } else { -1 }))
            } else if e < 0 {
                check((b as f64).powf(e as f64))
            } else {
                let e = u32::try_from(e).map_err(|_| int_overflow())?;
                b.checked_pow(e).map(Num::Int).ok_or_else(int_overflow)
            }
        }
        _ => check(x.as_f64().powf(y.as_f64())),
    }
}

fn shift(x: i64, y: i64, left: bool) -> Result<i64, Term> {
    // a negative amount shifts the other way
    let (left, amount) = if y < 0 {
        (!left, y.unsigned_abs())
    } else {
        (left, y as u64)
    };
    if left {
        if x == 0 {
            return Ok(0);
        }
        if amount >= 64 {
            return Err(int_overflow());
        }
        let r = x << amount;
        if r >> amount != x {
            return Err(int_overflow());
        }
        Ok(r)
    } else if amount >= 64 {
        Ok(if x < 0 { -1 } else { 0 })
    } else {
        Ok(x >> amount)
    }
}

/// `max`/`min`: NaN loses to a number; equal values of mixed type give the float; `max` prefers `0.0`
/// over `-0.0` and `min` the reverse (all as SWI-Prolog 9).
fn min_max(x: Num, y: Num, want_max: bool) -> Num {
    let xn = matches!(x, Num::Float(f) if f.is_nan());
    let yn = matches!(y, Num::Float(f) if f.is_nan());
    if xn {
        return y;
    }
    if yn {
        return x;
    }
    match compare_num(x, y) {
        Some(Ordering::Less) => {
            if want_max {
                y
            } else {
                x
            }
        }
        Some(Ordering::Greater) => {
            if want_max {
                x
            } else {
                y
            }
        }
        _ => match (x, y) {
            (Num::Int(_), Num::Float(_)) => y,
            (Num::Float(a), Num::Float(b)) => {
                let x_neg = a.is_sign_negative();
                let b_neg = b.is_sign_negative();
                if x_neg == b_neg || (want_max != x_neg) {
                    x
                } else {
                    y
                }
            }
            _ => x,
        },
    }
}

fn apply2(f: F, x: Num, y: Num) -> Result<Num, Term> {
    use Num::{Float as Fl, Int};
    Ok(match f {
        F::Add => match (x, y) {
            (Int(a), Int(b)) => Int(a.checked_add(b).ok_or_else(int_overflow)?),
            _ => return check(x.as_f64() + y.as_f64()),
        },
        F::Sub => match (x, y) {
            (Int(a), Int(b)) => Int(a.checked_sub(b).ok_or_else(int_overflow)?),
            _ => return check(x.as_f64() - y.as_f64()),
        },
        F::Mul => match (x, y) {
            (Int(a), Int(b)) => Int(a.checked_mul(b).ok_or_else(int_overflow)?),
            _ => return check(x.as_f64() * y.as_f64()),
        },
        F::Div => match (x, y) {
            (Int(_), Int(0)) => return Err(Term::evaluation_error(atom::ZERO_DIVISOR)),
            (Int(a), Int(b)) => match a.checked_rem(b) {
                None => return Err(int_overflow()), // i64::MIN / -1
                Some(0) => Int(a / b),
                Some(_) => return check(a as f64 / b as f64),
            },
            _ => {
                let (a, b) = (x.as_f64(), y.as_f64());
                if b == 0.0 && a.is_finite() && a != 0.0 {
                    return Err(Term::evaluation_error(atom::ZERO_DIVISOR));
                }
                return check(a / b);
            }
        },
        F::IntDiv | F::FloorDiv | F::Mod | F::Rem => {
            let a = int_of(x)?;
            let b = int_of(y)?;
            if b == 0 {
                return Err(Term::evaluation_error(atom::ZERO_DIVISOR));
            }
            Int(match f {
                F::IntDiv => a.checked_div(b).ok_or_else(int_overflow)?,
                F::FloorDiv => floor_div(a, b)?,
                F::Rem => a.checked_rem(b).unwrap_or(0),
                _ => {
                    let r = a.checked_rem(b).unwrap_or(0);
                    if r != 0 && ((r < 0) != (b < 0)) {
                        r + b
                    } else {
                        r
                    }
                }
            })
        }
        F::Min => min_max(x, y, false),
        F::Max => min_max(x, y, true),
        F::Pow | F::Caret => return power(x, y),
        F::Atan2 => {
            let (a, b) = (x.as_f64(), y.as_f64());
            return check(a.atan2(b));
        }
        F::Shr | F::Shl => Int(shift(int_of(x)?, int_of(y)?, f == F::Shl)?),
        F::And => Int(int_of(x)? & int_of(y)?),
        F::Or => Int(int_of(x)? | int_of(y)?),
        F::Xor => Int(int_of(x)? ^ int_of(y)?),
        F::Gcd => Int(gcd(int_of(x)?, int_of(y)?)?),
        F::Lcm => {
            let (a, b) = (int_of(x)?, int_of(y)?);
            if a == 0 || b == 0 {
                Int(0)
            } else {
                let g = gcd(a, b)?;
                Int((a / g)
                    .checked_mul(b)
                    .and_then(i64::checked_abs)
                    .ok_or_else(int_overflow)?)
            }
        }
        F::Getbit => {
            let (a, b) = (int_of(x)?, int_of(y)?);
            if a < 0 {
                return Err(not_less_than("not_less_than_zero", a));
            }
            if b < 0 {
                return Err(not_less_than("not_less_than_zero", b));
            }
            Int(if b >= 63 { 0 } else { (a >> b) & 1 })
        }
        // the result has the type of the first argument (SWI-Prolog)
        F::Copysign => match x {
            Int(a) => {
                let m = a.checked_abs().ok_or_else(int_overflow)?;
                Int(if y.as_f64().is_sign_negative() { -m } else { m })
            }
            Fl(a) => Fl(a.copysign(y.as_f64())),
        },
        F::Nexttoward => Fl(next_toward(x.as_f64(), y.as_f64())),
        _ => return Err(bad_cell()),
    })
}

/// The float next to `x` in the direction of `y` (C's `nexttoward`).
fn next_toward(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if y > 0.0 { tiny } else { -tiny };
    }
    let bits = x.to_bits();
    let up = (y > x) == (x > 0.0);
    f64::from_bits(if up { bits + 1 } else { bits - 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(t: &Term) -> Result<Num, Term> {
        let mut s = Store::new();
        let c = s.build(t, &mut Vec::new());
        eval(&s, c, &mut Rng::new(0))
    }

    #[test]
    fn deep_expressions_do_not_overflow() {
        let mut t = Term::Int(1);
        for _ in 0..999_999 {
            t = Term::compound("+", vec![t, Term::Int(1)]);
        }
        assert_eq!(ev(&t), Ok(Num::Int(1_000_000)));
        let mut t = Term::Int(1);
        for _ in 0..1_000_000 {
            t = Term::compound("-", vec![t]);
        }
        assert_eq!(ev(&t), Ok(Num::Int(1)));
        let mut t = Term::atom("foo");
        for _ in 0..200_000 {
            t = Term::compound("+", vec![Term::Int(1), t]);
        }
        assert!(ev(&t).is_err());
    }

    #[test]
    fn int_fn_is_what_eval_computes() {
        // `int_fn` gives `eval`'s integer value, and `None` exactly where `eval` raises an error
        let values = [
            0,
            1,
            -1,
            2,
            -2,
            3,
            7,
            -7,
            13,
            -13,
            1 << 32,
            i64::MAX,
            i64::MAX - 1,
            i64::MIN,
            i64::MIN + 1,
        ];
        let ops = [
            (AOp::Add, "+", 2),
            (AOp::Sub, "-", 2),
            (AOp::Mul, "*", 2),
            (AOp::Neg, "-", 1),
            (AOp::Abs, "abs", 1),
            (AOp::IntDiv, "//", 2),
            (AOp::FloorDiv, "div", 2),
            (AOp::Mod, "mod", 2),
            (AOp::Rem, "rem", 2),
            (AOp::Min, "min", 2),
            (AOp::Max, "max", 2),
        ];
        for &(op, name, n) in &ops {
            for &a in &values {
                for &b in &values {
                    let args = [Term::Int(a), Term::Int(b)];
                    let t = Term::compound(name, args[..n].to_vec());
                    let want = match ev(&t) {
                        Ok(Num::Int(i)) => Some(i),
                        Ok(f) => panic!("{t:?} is {f:?}"),
                        Err(_) => None,
                    };
                    assert_eq!(int_fn(op, a, b), want, "{t:?}");
                }
            }
        }
        assert_eq!(int_fn(AOp::Val, 5, 9), Some(5));
    }

    #[test]
    fn int_float_comparison() {
        assert_eq!(
            compare_num(Num::Int(9007199254740993), Num::Float(9007199254740992.0)),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare_num(Num::Int(1), Num::Float(1.0)),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare_num(Num::Int(-2), Num::Float(-1.5)),
            Some(Ordering::Less)
        );
        assert_eq!(compare_num(Num::Int(1), Num::Float(f64::NAN)), None);
    }
}
