//! Interned atoms.
//!
//! Every atom name (and every string literal) is interned once in a process-wide table and then handled
//! as a 32-bit [`Atom`]. Comparing two atoms is comparing two integers; a name is looked up only when a
//! term is written out or compared in the standard order. The table never shrinks (atoms are not garbage
//! collected): this is the usual trade-off of Prolog systems without atom GC and is fine for game rules.
//!
//! Written by hand rather than with an interner crate because the well-known atoms must have fixed,
//! compile-time indices (`atom::NIL`, `atom::COMMA`, ...) that the parser and the machine match on.

use std::collections::HashMap;
use std::fmt;
use std::sync::{OnceLock, RwLock};

/// An interned atom (or string contents, see `Cell::Str`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom(pub u32);

struct Interner {
    names: Vec<&'static str>,
    ids: HashMap<&'static str, u32>,
}

macro_rules! well_known {
    ($( $name:ident = $text:expr ),* $(,)?) => {
        const WELL_KNOWN: &[&str] = &[ $( $text ),* ];
        well_known!(@consts 0u32; $( $name ),*);
    };
    (@consts $n:expr; $first:ident $(, $rest:ident)*) => {
        #[doc = concat!("The well-known atom `", stringify!($first), "`.")]
        pub const $first: Atom = Atom($n);
        well_known!(@consts $n + 1u32; $( $rest ),*);
    };
    (@consts $n:expr;) => {};
}

well_known! {
    NIL = "[]", DOT = ".", COMMA = ",", SEMI = ";", ARROW = "->", SOFT_ARROW = "*->", NOT_PROVABLE = "\\+",
    NECK = ":-", CUT = "!", TRUE = "true", FAIL = "fail", FALSE = "false", CURLY = "{}", MINUS = "-",
    PLUS = "+", STAR = "*", SLASH = "/", EQUALS = "=", CALL = "call", NOT = "not", CARET = "^",
    ERROR = "error", EMPTY = "", BAR = "|", END_OF_FILE = "end_of_file",
    // error terms
    INSTANTIATION_ERROR = "instantiation_error", TYPE_ERROR = "type_error", DOMAIN_ERROR = "domain_error",
    EXISTENCE_ERROR = "existence_error", EVALUATION_ERROR = "evaluation_error",
    REPRESENTATION_ERROR = "representation_error", RESOURCE_ERROR = "resource_error",
    PERMISSION_ERROR = "permission_error", SYNTAX_ERROR = "syntax_error", CONTEXT = "context",
    PROCEDURE = "procedure", EVALUABLE = "evaluable", INTEGER = "integer", FLOAT = "float",
    NUMBER = "number", ATOM = "atom", ATOMIC = "atomic", CALLABLE = "callable", LIST = "list",
    COMPOUND = "compound", CHARACTER = "character", ZERO_DIVISOR = "zero_divisor", UNDEFINED = "undefined",
    INT_OVERFLOW = "int_overflow", FLOAT_OVERFLOW = "float_overflow",
    NOT_LESS_THAN_ZERO = "not_less_than_zero", VARIABLE = "variable", STRING = "string",
    // SIDL keywords
    GAME = "game", NAME = "name", INIT = "init", HIDDEN = "hidden", LEGAL = "legal", SWITCH = "switch",
    UNLIMITED = "unlimited", OWNED = "owned", DEFAULT = "default", DO = "do", PAYOFF = "payoff",
    PLAYER = "player", FACT = "fact", CREATE = "create", DELETE = "delete", TOCREATE = "tocreate",
    TODELETE = "todelete", DOES = "does", EQUAL = "equal",
    // comparison results
    LT = "<", GT = ">",
}

fn interner() -> &'static RwLock<Interner> {
    static TABLE: OnceLock<RwLock<Interner>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut names = Vec::with_capacity(1024);
        let mut ids = HashMap::with_capacity(1024);
        for (i, &s) in WELL_KNOWN.iter().enumerate() {
            names.push(s);
            ids.insert(s, i as u32);
        }
        RwLock::new(Interner { names, ids })
    })
}

impl Atom {
    /// Interns `name` and returns its atom.
    pub fn new(name: &str) -> Atom {
        let table = interner();
        if let Some(&id) = table
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .ids
            .get(name)
        {
            return Atom(id);
        }
        let mut w = table.write().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = w.ids.get(name) {
            return Atom(id);
        }
        let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
        let id = w.names.len() as u32;
        w.names.push(leaked);
        w.ids.insert(leaked, id);
        Atom(id)
    }

    /// The atom's text.
    pub fn name(self) -> &'static str {
        interner().read().unwrap_or_else(|e| e.into_inner()).names[self.0 as usize]
    }
}

impl fmt::Debug for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_atoms_have_their_names() {
        assert_eq!(NIL.name(), "[]");
        assert_eq!(COMMA.name(), ",");
        assert_eq!(DOES.name(), "does");
        assert_eq!(Atom::new("does"), DOES);
        assert_eq!(Atom::new("[]"), NIL);
    }

    #[test]
    fn interning_is_stable() {
        let a = Atom::new("some_fresh_atom_xyz");
        assert_eq!(Atom::new("some_fresh_atom_xyz"), a);
        assert_ne!(Atom::new("some_other_atom_xyz"), a);
        assert_eq!(a.name(), "some_fresh_atom_xyz");
    }
}
