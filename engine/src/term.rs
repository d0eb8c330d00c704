//! Owned terms: the boundary representation.
//!
//! The solver works on cells in its own store (`solve::store`); everything that enters or leaves it
//! (parsed clauses, query answers, facts of a game state, error balls, actions) is an owned [`Term`].
//! Lists are ordinary compounds with the functor `'.'/2` and the empty list is the atom `[]`.

use crate::atom::{self, Atom};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub enum Term {
    /// A variable, numbered within its term or clause (0, 1, ...).
    Var(u32),
    Atom(Atom),
    Int(i64),
    Float(f64),
    /// A double-quoted string (SWI-Prolog's string type); contents interned.
    Str(Atom),
    /// `name(args...)`, arity >= 1. Lists are `'.'(H, T)`.
    Compound(Atom, Arc<[Term]>),
}

impl Term {
    pub fn atom(name: &str) -> Term {
        Term::Atom(Atom::new(name))
    }
    pub fn compound(name: &str, args: Vec<Term>) -> Term {
        Term::new_compound(Atom::new(name), args)
    }
    /// `name(args)`, or the atom `name` when `args` is empty.
    pub fn new_compound(name: Atom, args: Vec<Term>) -> Term {
        if args.is_empty() {
            Term::Atom(name)
        } else {
            Term::Compound(name, args.into())
        }
    }
    pub fn nil() -> Term {
        Term::Atom(atom::NIL)
    }
    pub fn cons(head: Term, tail: Term) -> Term {
        Term::Compound(atom::DOT, Arc::from(vec![head, tail]))
    }
    /// A proper list of `items`.
    pub fn list(items: Vec<Term>) -> Term {
        Term::list_with_tail(items, Term::nil())
    }
    pub fn list_with_tail(items: Vec<Term>, tail: Term) -> Term {
        items.into_iter().rev().fold(tail, |t, h| Term::cons(h, t))
    }
    /// A number term's value as `f64` (an integer converted, a float as it is); `None` for any
    /// other term. The one number-to-float conversion of the engine and its adapters (accounts:
    /// [`crate::game::account_value`]).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Term::Int(i) => Some(*i as f64),
            Term::Float(f) => Some(*f),
            _ => None,
        }
    }
    /// The elements of a proper list, or `None`.
    pub fn as_list(&self) -> Option<Vec<&Term>> {
        let mut out = Vec::new();
        let mut t = self;
        loop {
            match t {
                Term::Atom(a) if *a == atom::NIL => return Some(out),
                Term::Compound(f, args) if *f == atom::DOT && args.len() == 2 => {
                    out.push(&args[0]);
                    t = &args[1];
                }
                _ => return None,
            }
        }
    }
    /// Name and arity of a callable term.
    pub fn functor(&self) -> Option<(Atom, usize)> {
        match self {
            Term::Atom(a) => Some((*a, 0)),
            Term::Compound(f, args) => Some((*f, args.len())),
            _ => None,
        }
    }
    pub fn args(&self) -> &[Term] {
        match self {
            Term::Compound(_, args) => args,
            _ => &[],
        }
    }
    /// Visits every subterm, iteratively (terms may be a million levels deep).
    pub fn walk(&self, mut f: impl FnMut(&Term)) {
        walk_from(self, &mut f, 0);
    }
    pub fn is_ground(&self) -> bool {
        let mut ground = true;
        self.walk(|t| ground &= !matches!(t, Term::Var(_)));
        ground
    }
    pub fn is_callable(&self) -> bool {
        matches!(self, Term::Atom(_) | Term::Compound(..))
    }
    /// Number of distinct variables (1 + the largest variable number), 0 if ground.
    pub fn var_count(&self) -> u32 {
        let mut n = 0;
        self.walk(|t| {
            if let Term::Var(v) = t {
                n = n.max(v + 1)
            }
        });
        n
    }

    /// `Name/Arity` as a term.
    pub fn indicator(name: Atom, arity: usize) -> Term {
        Term::Compound(
            atom::SLASH,
            Arc::from(vec![Term::Atom(name), Term::Int(arity as i64)]),
        )
    }

    // ISO error terms: error(Formal, Context). The context is filled in by the machine.
    pub fn error(formal: Term) -> Term {
        Term::Compound(atom::ERROR, Arc::from(vec![formal, Term::Var(0)]))
    }
    pub fn instantiation_error() -> Term {
        Term::error(Term::Atom(atom::INSTANTIATION_ERROR))
    }
    pub fn type_error(kind: Atom, culprit: Term) -> Term {
        Term::error(Term::Compound(
            atom::TYPE_ERROR,
            Arc::from(vec![Term::Atom(kind), culprit]),
        ))
    }
    pub fn domain_error(kind: Atom, culprit: Term) -> Term {
        Term::error(Term::Compound(
            atom::DOMAIN_ERROR,
            Arc::from(vec![Term::Atom(kind), culprit]),
        ))
    }
    pub fn existence_error(kind: Atom, culprit: Term) -> Term {
        Term::error(Term::Compound(
            atom::EXISTENCE_ERROR,
            Arc::from(vec![Term::Atom(kind), culprit]),
        ))
    }
    pub fn evaluation_error(what: Atom) -> Term {
        Term::error(Term::Compound(
            atom::EVALUATION_ERROR,
            Arc::from(vec![Term::Atom(what)]),
        ))
    }
    pub fn representation_error(what: Atom) -> Term {
        Term::error(Term::Compound(
            atom::REPRESENTATION_ERROR,
            Arc::from(vec![Term::Atom(what)]),
        ))
    }
    pub fn resource_error(what: Atom) -> Term {
        Term::error(Term::Compound(
            atom::RESOURCE_ERROR,
            Arc::from(vec![Term::Atom(what)]),
        ))
    }
}

impl PartialEq for Term {
    /// Structural identity (floats by bit pattern, as unification: `0.0` and `-0.0` differ); iterative.
    fn eq(&self, other: &Term) -> bool {
        // most terms are shallow: compare them by bounded recursion, without allocating
        if let Some(same) = eq_shallow(self, other, 0) {
            return same;
        }
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            let same = match (a, b) {
                (Term::Var(x), Term::Var(y)) => x == y,
                (Term::Atom(x), Term::Atom(y)) | (Term::Str(x), Term::Str(y)) => x == y,
                (Term::Int(x), Term::Int(y)) => x == y,
                (Term::Float(x), Term::Float(y)) => x.to_bits() == y.to_bits(),
                (Term::Compound(f, xs), Term::Compound(g, ys)) => {
                    if f != g || xs.len() != ys.len() {
                        false
                    } else {
                        if !Arc::ptr_eq(xs, ys) {
                            stack.extend(xs.iter().zip(ys.iter()));
                        }
                        true
                    }
                }
                _ => false,
            };
            if !same {
                return false;
            }
        }
        true
    }
}

/// Pre-order walk: plain recursion near the root, an explicit stack below depth [`SHALLOW`].
fn walk_from<F: FnMut(&Term)>(t: &Term, f: &mut F, depth: u32) {
    if depth < SHALLOW {
        f(t);
        if let Term::Compound(_, args) = t {
            for a in args.iter() {
                walk_from(a, f, depth + 1);
            }
        }
        return;
    }
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        f(t);
        if let Term::Compound(_, args) = t {
            stack.extend(args.iter().rev());
        }
    }
}

/// `a == b` by recursion up to depth [`SHALLOW`]; `None` if the terms are deeper.
fn eq_shallow(a: &Term, b: &Term, depth: u32) -> Option<bool> {
    Some(match (a, b) {
        (Term::Var(x), Term::Var(y)) => x == y,
        (Term::Atom(x), Term::Atom(y)) | (Term::Str(x), Term::Str(y)) => x == y,
        (Term::Int(x), Term::Int(y)) => x == y,
        (Term::Float(x), Term::Float(y)) => x.to_bits() == y.to_bits(),
        (Term::Compound(f, xs), Term::Compound(g, ys)) => {
            if f != g || xs.len() != ys.len() {
                return Some(false);
            }
            if Arc::ptr_eq(xs, ys) {
                return Some(true);
            }
            if depth >= SHALLOW {
                return None;
            }
            for (x, y) in xs.iter().zip(ys.iter()) {
                if !eq_shallow(x, y, depth + 1)? {
                    return Some(false);
                }
            }
            true
        }
        _ => false,
    })
}

/// Depth up to which terms are compared and dropped by plain recursion.
const SHALLOW: u32 = 8;

/// Is every uniquely owned compound below `t` within `depth` levels (so that dropping it recurses at
/// most that deep)?
fn drops_shallow(t: &Term, depth: u32) -> bool {
    match t {
        Term::Compound(_, args) => {
            depth > 0
                && (Arc::strong_count(args) > 1 || args.iter().all(|a| drops_shallow(a, depth - 1)))
        }
        _ => true,
    }
}

impl Eq for Term {}

impl std::hash::Hash for Term {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.walk(|t| match t {
            Term::Var(v) => (0u8, *v).hash(state),
            Term::Atom(a) => (1u8, a.0).hash(state),
            Term::Int(i) => (2u8, *i).hash(state),
            Term::Float(f) => (3u8, f.to_bits()).hash(state),
            Term::Str(s) => (4u8, s.0).hash(state),
            Term::Compound(f, args) => (5u8, f.0, args.len()).hash(state),
        });
    }
}

impl Drop for Term {
    /// Dropping a million-element list must not recurse a million times: children of uniquely owned
    /// compounds are moved to an explicit stack first.
    fn drop(&mut self) {
        let Term::Compound(_, args) = self else {
            return;
        };
        let Some(args) = Arc::get_mut(args) else {
            return;
        };
        // a shallow term is dropped by the (bounded) recursion of the children's own drops
        if args.iter().all(|a| drops_shallow(a, SHALLOW)) {
            return;
        }
        let mut stack: Vec<Term> = Vec::new();
        for a in args.iter_mut() {
            if matches!(a, Term::Compound(..)) {
                stack.push(std::mem::replace(a, Term::Int(0)));
            }
        }
        while let Some(mut t) = stack.pop() {
            if let Term::Compound(_, args) = &mut t {
                if let Some(args) = Arc::get_mut(args) {
                    for a in args.iter_mut() {
                        if matches!(a, Term::Compound(..)) {
                            stack.push(std::mem::replace(a, Term::Int(0)));
                        }
                    }
                }
            }
        }
    }
}

impl From<Atom> for Term {
    fn from(a: Atom) -> Term {
        Term::Atom(a)
    }
}

impl From<i64> for Term {
    fn from(n: i64) -> Term {
        Term::Int(n)
    }
}
