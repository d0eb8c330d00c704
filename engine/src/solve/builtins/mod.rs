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
mod lists;
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
    /// Calls a library fast path ([`library_fast`]) may count besides its own: none at which the
    /// machine would count a profile entry, check the inference budget or abort a memo fill, with
    /// room for the choicepoint and frame of the clauses (0: it runs the clauses).
    pub room: u64,
    /// Heap cells the arguments of those calls may take below the heap budget.
    pub heap_room: usize,
    /// Set by a library fast path: the machine notes the game clause calling the library, as a
    /// call of the clauses does.
    pub library: bool,
    /// Out: the calls a library fast path counted besides its own.
    pub used: u64,
    /// Out: the library predicate's clauses are to run on the (counted) call whose arguments are
    /// at this heap address ([`OWN_ARGS`]: the call's own); the answer is then ignored.
    pub clauses: Option<u32>,
    /// Out, with `clauses`: that call is to be counted first, as [`Ctx::used`] does not.
    pub count_first: bool,
}

impl<'a> Ctx<'a> {
    /// A context for a built-in called outside the machine (no library fast path runs there).
    pub fn new(store: &'a mut Store, rng: &'a mut Rng) -> Ctx<'a> {
        Ctx {
            store,
            rng,
            room: 0,
            heap_room: 0,
            library: false,
            used: 0,
            clauses: None,
            count_first: false,
        }
    }
}

/// [`Ctx::clauses`]: the clauses run on the call's own arguments.
pub const OWN_ARGS: u32 = u32::MAX;

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

/// The native fast path of library predicate `name/arity` of the prelude, if it has one (see
/// `lists.rs`): not a built-in of that name; the program builder gives it to the call sites.
pub fn library_fast(name: Atom, arity: u32) -> Option<Builtin> {
    match (name.name(), arity) {
        ("$member_loop", 3) => Some(lists::member_loop),
        ("append", 3) => Some(lists::append3),
        _ => None,
    }
}

/// Is `name` (of arity 3) the name of a library predicate with a native fast path
/// ([`library_fast`])? Cheap: the machine asks it at every native call of arity 3.
#[inline]
pub fn has_library_fast(name: Atom) -> bool {
    static NAMES: OnceLock<[Atom; 2]> = OnceLock::new();
    let names = NAMES.get_or_init(|| [Atom::new("$member_loop"), Atom::new("append")]);
    name == names[0] || name == names[1]
}

/// Every native built-in's name and arity (for completion, hover and the library-redefinition lint).
pub fn all() -> Vec<(Atom, u32)> {
    let mut v: Vec<_> = table().keys().copied().collect();
    sort_by_name(&mut v);
    v
}

/// Sorts predicate keys by name, then arity, stably (one instantiation of the standard library's
/// sort for every such list: the wasm's size).
pub fn sort_by_name(keys: &mut [(Atom, u32)]) {
    crate::stable_sort::sort_by(keys, |a, b| a.0.name().cmp(b.0.name()).then(a.1.cmp(&b.1)));
}

fn register(add: &mut dyn FnMut(&str, u32, Builtin)) {
    arith::register(add);
    typeck::register(add);
    terms::register(add);
    atoms::register(add);
    sort::register(add);
}
