//! Atoms, strings and text: `atom_codes/2`, `atom_chars/2`, `char_code/2`, `atom_length/2`,
//! `atom_number/2`, `number_codes/2`, `number_chars/2`, `atom_concat/3`, `sub_atom/5`,
//! `atom_string/2`, `upcase_atom/2`, `downcase_atom/2`, `term_to_atom/2`, `string_concat/3`,
//! `string_chars/2`, `string_codes/2`, `string_to_atom/2`, `string_length/2`, `number_string/2`.

use super::util::{
    list_shape, need_text, opt_int, parse_number, text_of, type_error, unify, ListShape,
};
use super::{Ctx, Det};
use crate::atom::{self, Atom};
use crate::solve::arith::Num;
use crate::solve::store::{Cell, Store};
use crate::term::Term;

pub fn register(add: &mut dyn FnMut(&str, u32, super::Builtin)) {
    add("atom_codes", 2, |c, a, _| {
        text_list(c, a, Kind::Atom, Elem::Code)
    });
    add("atom_chars", 2, |c, a, _| {
        text_list(c, a, Kind::Atom, Elem::Char)
    });
    add("string_codes", 2, |c, a, _| {
        text_list(c, a, Kind::Str, Elem::Code)
    });
    add("string_chars", 2, |c, a, _| {
        text_list(c, a, Kind::Str, Elem::Char)
    });
    add("number_codes", 2, |c, a, _| number_list(c, a, Elem::Code));
    add("number_chars", 2, |c, a, _| number_list(c, a, Elem::Char));
    add("char_code", 2, char_code);
    add("atom_length", 2, |c, a, _| text_length(c, a));
    add("string_length", 2, |c, a, _| text_length(c, a));
    add("atom_number", 2, atom_number);
    add("number_string", 2, number_string);
    add("atom_string", 2, |c, a, _| {
        convert(c, a, Kind::Atom, Kind::Str, "atom")
    });
    add("string_to_atom", 2, |c, a, _| {
        convert(c, a, Kind::Str, Kind::Atom, "string")
    });
    add("upcase_atom", 2, |c, a, _| change_case(c, a, true));
    add("downcase_atom", 2, |c, a, _| change_case(c, a, false));
    add("atom_concat", 3, |c, a, r| concat(c, a, r, Kind::Atom));
    add("string_concat", 3, |c, a, r| concat(c, a, r, Kind::Str));
    add("sub_atom", 5, |c, a, r| sub_text(c, a, r, Kind::Atom));
    add("sub_string", 5, |c, a, r| sub_text(c, a, r, Kind::Str));
    add("term_to_atom", 2, term_to_atom);
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Atom,
    Str,
}

#[derive(Clone, Copy, PartialEq)]
enum Elem {
    Code,
    Char,
}

fn make_text(kind: Kind, s: &str) -> Cell {
    match kind {
        Kind::Atom => Cell::Atom(Atom::new(s)),
        Kind::Str => Cell::Str(Atom::new(s)),
    }
}

fn char_cell(c: char) -> Cell {
    let mut b = [0u8; 4];
    Cell::Atom(Atom::new(c.encode_utf8(&mut b)))
}

fn text_to_list(store: &mut Store, s: &str, elem: Elem) -> Cell {
    let items: Vec<Cell> = s
        .chars()
        .map(|c| match elem {
            Elem::Code => Cell::Int(c as i64),
            Elem::Char => char_cell(c),
        })
        .collect();
    store.make_list(&items, Cell::Atom(atom::NIL))
}

/// The text of a list of codes or characters (either is accepted, as SWI-Prolog does).
/// `Ok(None)` when the list is partial or holds a variable (the caller decides if that is an error).
/// A string stands for its text. The first element decides between codes and characters; an element
/// of the other kind is a type error (as SWI-Prolog).
fn list_text(store: &Store, c: Cell) -> Result<Option<String>, Term> {
    if let Cell::Str(s) = store.deref(c) {
        return Ok(Some(s.name().to_string()));
    }
    let items = match list_shape(store, c) {
        ListShape::Proper(v) => v,
        ListShape::Partial(..) => return Ok(None),
        _ => return Err(type_error("list", store, c)),
    };
    let mut s = String::with_capacity(items.len());
    let mut codes: Option<bool> = None;
    for it in items {
        let d = store.deref(it);
        if matches!(d, Cell::Ref(_)) {
            return Ok(None);
        }
        let as_codes = *codes.get_or_insert(matches!(d, Cell::Int(_)));
        match (d, as_codes) {
            (Cell::Int(i), true) => match u32::try_from(i).ok().and_then(char::from_u32) {
                Some(ch) => s.push(ch),
                None => return Err(type_error("character_code", store, d)),
            },
            (Cell::Atom(a), false) => {
                let mut cs = a.name().chars();
                match (cs.next(), cs.next()) {
                    (Some(ch), None) => s.push(ch),
                    _ => return Err(type_error("character", store, d)),
                }
            }
            (_, true) => return Err(type_error("character_code", store, d)),
            (_, false) => return Err(type_error("character", store, d)),
        }
    }
    Ok(Some(s))
}

fn text_list(ctx: &mut Ctx<'_>, args: &[Cell], kind: Kind, elem: Elem) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[0]) {
        Cell::Ref(_) => match list_text(s, args[1])? {
            Some(t) => Ok(unify(ctx, args[0], make_text(kind, &t))),
            None => Err(Term::instantiation_error()),
        },
        d => {
            let t = text_of(s, d).ok_or_else(|| {
                type_error(if kind == Kind::Atom { "atom" } else { "string" }, s, d)
            })?;
            let l = text_to_list(ctx.store, &t, elem);
            Ok(unify(ctx, args[1], l))
        }
    }
}

fn syntax_error(what: &str) -> Term {
    Term::error(Term::Compound(
        atom::SYNTAX_ERROR,
        std::sync::Arc::from(vec![Term::atom(what)]),
    ))
}

fn number_list(ctx: &mut Ctx<'_>, args: &[Cell], elem: Elem) -> Result<Det, Term> {
    let s = &*ctx.store;
    let d = s.deref(args[0]);
    // the list, when complete, wins (number_codes(X, " 12") parses)
    match list_text(s, args[1]) {
        Ok(Some(t)) => {
            let n = parse_number(&t).ok_or_else(|| syntax_error("illegal_number"))?;
            return Ok(unify(ctx, args[0], n.to_cell()));
        }
        Ok(None) | Err(_) if !matches!(d, Cell::Ref(_)) => {}
        Ok(None) => return Err(Term::instantiation_error()),
        Err(e) => return Err(e),
    }
    match d {
        Cell::Int(_) | Cell::Float(_) => {
            let t = text_of(s, d).unwrap_or_default();
            let l = text_to_list(ctx.store, &t, elem);
            Ok(unify(ctx, args[1], l))
        }
        other => Err(type_error("number", s, other)),
    }
}

fn char_code(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[0]) {
        Cell::Atom(a) => {
            let mut cs = a.name().chars();
            match (cs.next(), cs.next()) {
                (Some(ch), None) => {
                    opt_int(s, args[1])?;
                    Ok(unify(ctx, args[1], Cell::Int(ch as i64)))
                }
                _ => Err(type_error("character", s, args[0])),
            }
        }
        Cell::Ref(_) => match s.deref(args[1]) {
            Cell::Ref(_) => Err(Term::instantiation_error()),
            Cell::Int(i) => match u32::try_from(i).ok().and_then(char::from_u32) {
                Some(ch) => Ok(unify(ctx, args[0], char_cell(ch))),
                None => Err(type_error("character_code", s, args[1])),
            },
            other => Err(type_error("integer", s, other)),
        },
        other => Err(type_error("character", s, other)),
    }
}

fn text_length(ctx: &mut Ctx<'_>, args: &[Cell]) -> Result<Det, Term> {
    let s = &*ctx.store;
    let t = need_text(s, args[0], "text")?;
    opt_int(s, args[1])?;
    let n = t.chars().count() as i64;
    Ok(unify(ctx, args[1], Cell::Int(n)))
}

fn atom_number(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[0]) {
        Cell::Ref(_) => match s.deref(args[1]) {
            Cell::Ref(_) => Err(Term::instantiation_error()),
            d @ (Cell::Int(_) | Cell::Float(_)) => {
                let t = text_of(s, d).unwrap_or_default();
                Ok(unify(ctx, args[0], Cell::Atom(Atom::new(&t))))
            }
            other => Err(type_error("number", s, other)),
        },
        Cell::Atom(a) | Cell::Str(a) => match parse_strict(a.name()) {
            Some(n) => Ok(unify(ctx, args[1], n.to_cell())),
            None => Ok(Det::Fail),
        },
        other => Err(type_error("atom", s, other)),
    }
}

/// A number's text as `atom_number/2` accepts it: the whole text is one number literal (an optional
/// leading `-` or `+`, no layout).
fn parse_strict(t: &str) -> Option<Num> {
    if t.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    parse_number(t)
}

fn number_string(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[1]) {
        Cell::Ref(_) => match s.deref(args[0]) {
            Cell::Ref(_) => Err(Term::instantiation_error()),
            d @ (Cell::Int(_) | Cell::Float(_)) => {
                let t = text_of(s, d).unwrap_or_default();
                Ok(unify(ctx, args[1], Cell::Str(Atom::new(&t))))
            }
            other => Err(type_error("number", s, other)),
        },
        d => {
            let t = text_of(s, d).ok_or_else(|| type_error("string", s, d))?;
            match parse_strict(&t) {
                Some(n) => Ok(unify(ctx, args[0], n.to_cell())),
                None => Ok(Det::Fail),
            }
        }
    }
}

fn convert(
    ctx: &mut Ctx<'_>,
    args: &[Cell],
    first: Kind,
    second: Kind,
    what: &str,
) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[0]) {
        Cell::Ref(_) => {
            let t = need_text(s, args[1], "string")?;
            Ok(unify(ctx, args[0], make_text(first, &t)))
        }
        d => {
            let t = text_of(s, d).ok_or_else(|| type_error(what, s, d))?;
            Ok(unify(ctx, args[1], make_text(second, &t)))
        }
    }
}

fn change_case(ctx: &mut Ctx<'_>, args: &[Cell], upper: bool) -> Result<Det, Term> {
    let s = &*ctx.store;
    let t = need_text(s, args[0], "atomic")?;
    let u = if upper {
        t.to_uppercase()
    } else {
        t.to_lowercase()
    };
    Ok(unify(ctx, args[1], Cell::Atom(Atom::new(&u))))
}

/// Byte offsets of every character boundary of `s` (0 and `s.len()` included).
fn boundaries(s: &str) -> Vec<usize> {
    let mut v: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
    v.push(s.len());
    v
}

fn opt_text(store: &Store, c: Cell) -> Result<Option<String>, Term> {
    match store.deref(c) {
        Cell::Ref(_) => Ok(None),
        d => text_of(store, d)
            .map(Some)
            .ok_or_else(|| type_error("atomic", store, d)),
    }
}

fn concat(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>, kind: Kind) -> Result<Det, Term> {
    let s = &*ctx.store;
    let a = opt_text(s, args[0])?;
    let b = opt_text(s, args[1])?;
    if let (Some(a), Some(b)) = (&a, &b) {
        let t = format!("{a}{b}");
        return Ok(unify(ctx, args[2], make_text(kind, &t)));
    }
    let Some(whole) = opt_text(s, args[2])? else {
        return Err(Term::instantiation_error());
    };
    if let Some(a) = &a {
        return Ok(match whole.strip_prefix(a.as_str()) {
            Some(rest) => unify(ctx, args[1], make_text(kind, rest)),
            None => Det::Fail,
        });
    }
    if let Some(b) = &b {
        return Ok(match whole.strip_suffix(b.as_str()) {
            Some(rest) => unify(ctx, args[0], make_text(kind, rest)),
            None => Det::Fail,
        });
    }
    // both unbound: enumerate the split points
    let bs = boundaries(&whole);
    let k = redo.unwrap_or(0) as usize;
    let Some(&at) = bs.get(k) else {
        return Ok(Det::Fail);
    };
    let (x, y) = (make_text(kind, &whole[..at]), make_text(kind, &whole[at..]));
    if !(ctx.store.unify(args[0], x) && ctx.store.unify(args[1], y)) {
        return Ok(Det::Fail);
    }
    Ok(if k + 1 < bs.len() {
        Det::Retry(k as u64 + 1)
    } else {
        Det::True
    })
}

/// `sub_atom(+Atom, ?B, ?L, ?A, ?Sub)`: enumerates (B, L) in increasing B, then L; the state packs the
/// next candidate as `B << 32 | L` (atoms are shorter than 2^32 characters).
fn sub_text(ctx: &mut Ctx<'_>, args: &[Cell], redo: Option<u64>, kind: Kind) -> Result<Det, Term> {
    let s = &*ctx.store;
    let whole = need_text(
        s,
        args[0],
        if kind == Kind::Atom { "atom" } else { "string" },
    )?;
    let bb = opt_int(s, args[1])?;
    let ll = opt_int(s, args[2])?;
    let aa = opt_int(s, args[3])?;
    for (v, c) in [(bb, args[1]), (ll, args[2]), (aa, args[3])] {
        if v.is_some_and(|v| v < 0) {
            return Err(super::util::domain_error("not_less_than_zero", s, c));
        }
    }
    let sub = opt_text(s, args[4])?;
    let chars: Vec<usize> = boundaries(&whole);
    let n = (chars.len() - 1) as i64;
    let text = |b: i64, l: i64| &whole[chars[b as usize]..chars[(b + l) as usize]];
    let fits = |b: i64, l: i64| -> bool {
        b >= 0
            && l >= 0
            && b + l <= n
            && bb.is_none_or(|x| x == b)
            && ll.is_none_or(|x| x == l)
            && aa.is_none_or(|x| x == n - b - l)
            && sub.as_deref().is_none_or(|x| x == text(b, l))
    };
    // the first solution at or after (b0, l0) in enumeration order
    let sub_len = sub.as_ref().map(|x| x.chars().count() as i64);
    let next = |b0: i64, l0: i64| -> Option<(i64, i64)> {
        let (lo, hi) = match bb {
            Some(bv) => (bv, bv),
            None => (0, n),
        };
        for b in b0.max(lo)..=hi.min(n) {
            let lstart = if b == b0 { l0 } else { 0 };
            match ll.or(sub_len).or(aa.map(|av| n - b - av)) {
                Some(k) => {
                    if k >= lstart && fits(b, k) {
                        return Some((b, k));
                    }
                }
                None => {
                    if let Some(l) = (lstart..=(n - b)).find(|&l| fits(b, l)) {
                        return Some((b, l));
                    }
                }
            }
        }
        None
    };
    let (b0, l0) = match redo {
        Some(st) => ((st >> 32) as i64, (st & 0xffff_ffff) as i64),
        None => (0, 0),
    };
    let Some((b, l)) = next(b0, l0) else {
        return Ok(Det::Fail);
    };
    let later = next(b, l + 1);
    let piece = make_text(kind, text(b, l));
    let ok = ctx.store.unify(args[1], Cell::Int(b))
        && ctx.store.unify(args[2], Cell::Int(l))
        && ctx.store.unify(args[3], Cell::Int(n - b - l))
        && ctx.store.unify(args[4], piece);
    if !ok {
        return Ok(Det::Fail);
    }
    Ok(match later {
        Some((b2, l2)) => Det::Retry(((b2 as u64) << 32) | l2 as u64),
        None => Det::True,
    })
}

/// Parses `text` as a term: the reading direction of `term_to_atom/2`. The parser
/// (`crate::syntax::parse_term`) is being written by another team; until it is wired in, this raises
/// `syntax_error(parser_not_available)`.
pub fn parse_term_text(text: &str) -> Result<Term, Term> {
    match crate::syntax::parse_term(text) {
        Ok(read) => Ok(read.term),
        Err(diags) => {
            let msg = diags
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_else(|| "cannot parse".to_string());
            Err(syntax_error(&msg))
        }
    }
}

fn term_to_atom(ctx: &mut Ctx<'_>, args: &[Cell], _: Option<u64>) -> Result<Det, Term> {
    let s = &*ctx.store;
    match s.deref(args[1]) {
        Cell::Ref(_) => {
            if matches!(s.deref(args[0]), Cell::Ref(_)) {
                return Err(Term::instantiation_error());
            }
            let t = s.to_term(args[0]);
            let text = crate::write::writeq(&t, None);
            Ok(unify(ctx, args[1], Cell::Atom(Atom::new(&text))))
        }
        d => {
            let text = text_of(s, d).ok_or_else(|| type_error("atomic", s, d))?;
            let t = parse_term_text(&text)?;
            let c = ctx.store.build(&t, &mut Vec::new());
            Ok(unify(ctx, args[0], c))
        }
    }
}
