//! Deterministic and re-entrant built-in predicates written in Rust.
//!
//! Control constructs (`,`, `;`, `->`, `\+`, `call/N`, `catch/3`, `findall/3`, cut, ...) are handled by
//! the machine itself (`solve::machine`); everything else that is native lives here, one file per family.
//! Library predicates that are naturally written in Prolog live in `solve/prelude.pl`.
//!
//! A built-in gets the (not yet dereferenced) argument cells of the goal and returns:
//! - `Ok(Det::Fail)`, `Ok(Det::True)`;
//! - `Ok(Det::Retry(state))`: it succeeded and has more solutions; on backtracking the machine undoes the
//!   bindings and calls it again with the same argument cells and `redo = Some(state)`;
//! - `Err(ball)`: throw `ball` (an owned ISO error term such as `Term::type_error(..)`; the machine adds
//!   the context).

mod arith;
mod atoms;
mod sort;
mod terms;
mod typeck;
pub mod util;

pub use atoms::parse_term_text;
pub use terms::{copy, variables};

use crate::atom::Atom;
use crate::rng::Rng;
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use std::collections::HashMap;
use std::sync::OnceLock;

/// What a built-in may touch.
pub struct Ctx<'a> {
    pub store: &'a mut Store,
    pub rng: &'a mut Rng,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Det {
    Fail,
    True,
    Retry(u64),
}

pub type Builtin = fn(&mut Ctx<'_>, &[Cell], Option<u64>) -> Result<Det, Term>;

fn table() -> &'static HashMap<(Atom, u32), Builtin> {
    static TABLE: OnceLock<HashMap<(Atom, u32), Builtin>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: HashMap<(Atom, u32), Builtin> = HashMap::new();
        let mut add = |name: &str, arity: u32, f: Builtin| {
            t.insert((Atom::new(name), arity), f);
        };
        register(&mut add);
        t
    })
}

/// The native built-in `name/arity`, if there is one.
pub fn lookup(name: Atom, arity: u32) -> Option<Builtin> {
    table().get(&(name, arity)).copied()
}

/// Every native built-in's name and arity (for completion, hover and the library-redefinition lint).
pub fn all() -> Vec<(Atom, u32)> {
    let mut v: Vec<_> = table().keys().copied().collect();
    v.sort_by(|a, b| a.0.name().cmp(b.0.name()).then(a.1.cmp(&b.1)));
    v
}

fn register(add: &mut dyn FnMut(&str, u32, Builtin)) {
    arith::register(add);
    typeck::register(add);
    terms::register(add);
    atoms::register(add);
    sort::register(add);
}
