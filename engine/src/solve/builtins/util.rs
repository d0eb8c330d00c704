//! Helpers shared by the built-in families.

use super::{Ctx, Det};
use crate::atom::{self, Atom};
use crate::solve::arith::Num;
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use crate::write;

#[inline]
pub fn det(b: bool) -> Det {
    if b {
        Det::True
    } else {
        Det::Fail
    }
}

#[inline]
pub fn unify(ctx: &mut Ctx<'_>, a: Cell, b: Cell) -> Det {
    det(ctx.store.unify(a, b))
}

/// Runs `f` and undoes every binding it made (for `\=`, `memberchk` probes, ...).
pub fn probe<R>(store: &mut Store, f: impl FnOnce(&mut Store) -> R) -> R {
    let saved_mark = store.mark;
    store.mark = store.len();
    let tl = store.trail.len();
    let r = f(store);
    store.undo_to(tl, |_| {});
    store.mark = saved_mark;
    r
}

/// Unifies `a` and `b`, leaving no bindings behind if it fails.
pub fn unify_or_undo(store: &mut Store, a: Cell, b: Cell) -> bool {
    let saved_mark = store.mark;
    store.mark = store.len();
    let tl = store.trail.len();
    let ok = store.unify(a, b);
    if !ok {
        store.undo_to(tl, |_| {});
    }
    // keep only the trail entries an outer choicepoint needs
    if ok {
        let mark = saved_mark;
        let mut i = tl;
        while i < store.trail.len() {
            let keep = match store.trail[i] {
                crate::solve::store::TrailEntry::Bind(a) => a < mark,
                _ => true,
            };
            if keep {
                i += 1;
            } else {
                store.trail.swap_remove(i);
            }
        }
    }
    store.mark = saved_mark;
    ok
}

pub fn type_error(kind: &str, store: &Store, c: Cell) -> Term {
    Term::type_error(Atom::new(kind), culprit(store, c))
}

pub fn domain_error(kind: &str, store: &Store, c: Cell) -> Term {
    Term::domain_error(Atom::new(kind), culprit(store, c))
}

/// Subterms copied into an error term at most; beyond it the culprit is cut with `...`.
pub const CULPRIT_BUDGET: usize = 100_000;

/// The culprit of an error as an owned term: like `Store::to_term` but with a size budget, so that a
/// cyclic (or huge) culprit cannot exhaust memory; the cut-off parts are the atom `...`.
pub fn culprit(store: &Store, c: Cell) -> Term {
    enum Job {
        Visit(Cell),
        Build(Atom, usize),
    }
    let mut budget = CULPRIT_BUDGET;
    let mut names: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut jobs = vec![Job::Visit(c)];
    let mut out: Vec<Term> = Vec::new();
    while let Some(job) = jobs.pop() {
        match job {
            Job::Visit(c) => {
                let d = store.deref(c);
                if budget == 0 {
                    out.push(Term::atom("..."));
                    continue;
                }
                budget -= 1;
                match d {
                    Cell::Ref(a) => {
                        let next = names.len() as u32;
                        out.push(Term::Var(*names.entry(a).or_insert(next)));
                    }
                    Cell::Atom(a) => out.push(Term::Atom(a)),
                    Cell::Int(i) => out.push(Term::Int(i)),
                    Cell::Float(f) => out.push(Term::Float(f)),
                    Cell::Str(s) => out.push(Term::Str(s)),
                    Cell::List(p) => {
                        jobs.push(Job::Build(atom::DOT, 2));
                        jobs.push(Job::Visit(store.heap[p as usize + 1]));
                        jobs.push(Job::Visit(store.heap[p as usize]));
                    }
                    Cell::Struct(p) => match store.heap[p as usize] {
                        Cell::Functor(f, n) => {
                            jobs.push(Job::Build(f, n as usize));
                            for i in (1..=n).rev() {
                                jobs.push(Job::Visit(store.heap[(p + i) as usize]));
                            }
                        }
                        _ => out.push(Term::atom("...")),
                    },
                    Cell::Functor(..) | Cell::Var(_) => out.push(Term::atom("...")),
                }
            }
            Job::Build(f, n) => {
                let args = out.split_off(out.len().saturating_sub(n));
                out.push(Term::new_compound(f, args));
            }
        }
    }
    out.pop().unwrap_or_else(|| Term::atom("..."))
}

/// An integer argument: `Ok(None)` if unbound, a type error if not an integer.
pub fn opt_int(store: &Store, c: Cell) -> Result<Option<i64>, Term> {
    match store.deref(c) {
        Cell::Ref(_) => Ok(None),
        Cell::Int(i) => Ok(Some(i)),
        other => Err(type_error("integer", store, other)),
    }
}

/// A required integer argument.
pub fn need_int(store: &Store, c: Cell) -> Result<i64, Term> {
    opt_int(store, c)?.ok_or_else(Term::instantiation_error)
}

/// A required atom argument.
pub fn need_atom(store: &Store, c: Cell) -> Result<Atom, Term> {
    match store.deref(c) {
        Cell::Ref(_) => Err(Term::instantiation_error()),
        Cell::Atom(a) => Ok(a),
        other => Err(type_error("atom", store, other)),
    }
}

pub fn num_cell(n: Num) -> Cell {
    n.to_cell()
}

/// The shape of a list, found without looping on cyclic lists (Brent's cycle detection).
pub enum ListShape {
    /// `[a, b]`
    Proper(Vec<Cell>),
    /// `[a, b | T]` with `T` unbound (the deref'ed tail cell).
    Partial(Vec<Cell>, Cell),
    /// `[a, b | x]` (the items so far and the non-list tail).
    Other(Vec<Cell>, Cell),
    /// A cyclic list.
    Cyclic,
}

pub fn list_shape(store: &Store, c: Cell) -> ListShape {
    let mut items = Vec::new();
    let mut t = store.deref(c);
    let mut saved: Option<u32> = None;
    let mut power = 1usize;
    let mut lam = 0usize;
    loop {
        match t {
            Cell::Atom(a) if a == atom::NIL => return ListShape::Proper(items),
            Cell::List(p) => {
                if saved == Some(p) {
                    return ListShape::Cyclic;
                }
                items.push(store.heap[p as usize]);
                lam += 1;
                if lam == power {
                    saved = Some(p);
                    power *= 2;
                    lam = 0;
                }
                t = store.deref(store.heap[p as usize + 1]);
            }
            Cell::Ref(_) => return ListShape::Partial(items, t),
            other => return ListShape::Other(items, other),
        }
    }
}

/// The items of a proper list; partial lists are instantiation errors, anything else a
/// `type_error(list, L)` (as SWI-Prolog's `must_be(list, L)`).
pub fn need_list(store: &Store, c: Cell) -> Result<Vec<Cell>, Term> {
    match list_shape(store, c) {
        ListShape::Proper(v) => Ok(v),
        ListShape::Partial(..) => Err(Term::instantiation_error()),
        ListShape::Other(..) | ListShape::Cyclic => Err(type_error("list", store, c)),
    }
}

/// The text of an atomic term (atom, string, number), as `atom_length/2` and friends see it.
pub fn text_of(store: &Store, c: Cell) -> Option<String> {
    match store.deref(c) {
        Cell::Atom(a) | Cell::Str(a) => Some(a.name().to_string()),
        Cell::Int(i) => Some(i.to_string()),
        Cell::Float(f) => Some(write::float_text(f)),
        _ => None,
    }
}

/// Like [`text_of`], with SWI-Prolog's errors: unbound is an instantiation error, a compound a type
/// error of `kind`.
pub fn need_text(store: &Store, c: Cell, kind: &str) -> Result<String, Term> {
    match store.deref(c) {
        Cell::Ref(_) => Err(Term::instantiation_error()),
        d => text_of(store, d).ok_or_else(|| type_error(kind, store, d)),
    }
}

/// Parses the text of a Prolog number as `number_codes/2` reads it (optional leading layout, an
/// optional `-` or `+`, integers in decimal, `0x`, `0o`, `0b`, `0'c`, `N'digits`, floats with a
/// fraction and/or exponent, `1.0Inf`, `1.5NaN`, digit groups with `_`). `None` if it is not one
/// number (or an integer does not fit in 64 bits).
pub fn parse_number(s: &str) -> Option<Num> {
    let s = s.trim_start_matches(|c: char| c.is_whitespace());
    let (neg, body) = if let Some(r) = s.strip_prefix('-') {
        (true, r)
    } else if let Some(r) = s.strip_prefix('+') {
        (false, r)
    } else {
        (false, s)
    };
    match parse_unsigned(body)? {
        P::I(v) => {
            let v = if neg { -v } else { v };
            i64::try_from(v).ok().map(Num::Int)
        }
        P::F(f) => Some(Num::Float(if neg { -f } else { f })),
    }
}

enum P {
    I(i128),
    F(f64),
}

fn parse_unsigned(s: &str) -> Option<P> {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_digit() {
        return None;
    }
    let int_of = |digits: &str, radix: u32| -> Option<P> {
        let clean: String = digits.chars().filter(|&c| c != '_').collect();
        if clean.is_empty()
            || digits.starts_with('_')
            || digits.ends_with('_')
            || digits.contains("__")
        {
            return None;
        }
        i128::from_str_radix(&clean, radix).ok().map(P::I)
    };
    if b.len() > 2 && b[0] == b'0' {
        match b[1] {
            b'x' => return int_of(&s[2..], 16),
            b'o' => return int_of(&s[2..], 8),
            b'b' => return int_of(&s[2..], 2),
            b'\'' => {
                let rest = &s[2..];
                let mut it = rest.chars();
                let c = it.next()?;
                let tail = it.as_str();
                return match (c, tail) {
                    ('\\', _) => {
                        let (code, used) = parse_escape(&rest[1..])?;
                        if rest[1 + used..].is_empty() {
                            Some(P::I(code as i128))
                        } else {
                            None
                        }
                    }
                    ('\'', "'") => Some(P::I('\'' as i128)),
                    (c, "") if c != '\'' => Some(P::I(c as i128)),
                    _ => None,
                };
            }
            _ => {}
        }
    }
    if s.ends_with("Inf") || s.ends_with("NaN") {
        let (m, special) = s.split_at(s.len() - 3);
        let f: f64 = parse_float_literal(m)?;
        if f.is_finite() && f >= 1.0 {
            return Some(P::F(if special == "Inf" {
                f64::INFINITY
            } else {
                f64::NAN
            }));
        }
        return None;
    }
    let is_float = s.contains('.') || s.contains('e') || s.contains('E');
    if !is_float {
        if let Some(q) = s.find('\'') {
            // radix notation R'digits
            let radix: u32 = s[..q].parse().ok()?;
            if !(2..=36).contains(&radix) {
                return None;
            }
            return int_of(&s[q + 1..], radix);
        }
        if !s.bytes().all(|c| c.is_ascii_digit() || c == b'_') {
            return None;
        }
        return int_of(s, 10);
    }
    parse_float_literal(s).map(P::F)
}

/// `D.D`, `D.DeN`, `DeN` (SWI reads `1e10` and `1.0e10`; `1.e5` is not a float).
fn parse_float_literal(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    if i == 0 {
        return None;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let st = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == st {
            return None;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let st = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == st {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let clean: String = s.chars().filter(|&c| c != '_').collect();
    let f: f64 = clean.parse().ok()?;
    if f.is_infinite() {
        return None;
    }
    Some(f)
}

/// An escape sequence after `\` (ISO plus SWI's): the code and the number of bytes used.
fn parse_escape(s: &str) -> Option<(u32, usize)> {
    let c = s.chars().next()?;
    let simple = match c {
        'n' => Some(10),
        't' => Some(9),
        'r' => Some(13),
        'a' => Some(7),
        'b' => Some(8),
        'f' => Some(12),
        'v' => Some(11),
        '0'..='7' => None,
        'x' => None,
        'e' => Some(27),
        's' => Some(32),
        '\\' | '\'' | '"' | '`' => Some(c as u32),
        _ => return None,
    };
    if let Some(v) = simple {
        return Some((v, 1));
    }
    let (radix, start) = if c == 'x' { (16, 1) } else { (8, 0) };
    let rest = &s[start..];
    let end = rest.find('\\')?;
    let v = u32::from_str_radix(&rest[..end], radix).ok()?;
    char::from_u32(v)?;
    Some((v, start + end + 1))
}
