//! Signatures of the built-in predicates (native built-ins, control constructs and the Prolog
//! prelude; the list is `docs/builtins.md`), for hover and completion. Mode prefixes: `+` bound,
//! `-` unbound, `?` either, `:` a goal.

use crate::analysis::callgraph::{show, PredKey};
use crate::analysis::lints::library_predicates;
use crate::atom::Atom;
use crate::solve::program::control;

/// `(signature, description)`; the name and arity are read from the signature.
const SIGNATURES: &[(&str, &str)] = &[
    (
        "X is Expr",
        "evaluates the arithmetic expression `Expr` and unifies the result with `X`",
    ),
    ("X =:= Y", "arithmetic equality"),
    ("X =\\= Y", "arithmetic inequality"),
    ("X < Y", "arithmetic less than"),
    ("X > Y", "arithmetic greater than"),
    ("X =< Y", "arithmetic less than or equal"),
    ("X >= Y", "arithmetic greater than or equal"),
    ("succ(?N, ?M)", "`M` is `N + 1`, both natural numbers"),
    (
        "plus(?X, ?Y, ?Z)",
        "`Z` is `X + Y` (two of the three bound)",
    ),
    (
        "between(+Low, +High, ?X)",
        "`Low =< X =< High`; enumerates integers (`High` may be `inf`)",
    ),
    ("var(@X)", "`X` is an unbound variable"),
    ("nonvar(@X)", "`X` is not an unbound variable"),
    ("atom(@X)", "`X` is an atom"),
    ("number(@X)", "`X` is an integer or a float"),
    ("integer(@X)", "`X` is an integer"),
    ("float(@X)", "`X` is a float"),
    ("atomic(@X)", "`X` is an atom, number or string"),
    ("compound(@X)", "`X` is a compound term"),
    ("callable(@X)", "`X` is an atom or a compound term"),
    ("is_list(@X)", "`X` is a proper list"),
    ("ground(@X)", "`X` contains no variable"),
    ("string(@X)", "`X` is a string"),
    ("X = Y", "unification"),
    ("X \\= Y", "`X` and `Y` do not unify"),
    ("X == Y", "structural equality"),
    ("X \\== Y", "structural inequality"),
    ("X @< Y", "standard order: less than"),
    ("X @> Y", "standard order: greater than"),
    ("X @=< Y", "standard order: less than or equal"),
    ("X @>= Y", "standard order: greater than or equal"),
    (
        "compare(-Order, +X, +Y)",
        "`Order` is `<`, `=` or `>` in the standard order",
    ),
    ("functor(?Term, ?Name, ?Arity)", "name and arity of a term"),
    (
        "arg(?N, +Term, ?Arg)",
        "the `N`-th argument (enumerates when `N` is unbound)",
    ),
    ("Term =.. List", "univ: `f(a, b) =.. [f, a, b]`"),
    ("copy_term(+Term, -Copy)", "a copy with fresh variables"),
    (
        "term_variables(+Term, -Vars)",
        "the variables of `Term`, depth-first, left to right",
    ),
    (
        "unify_with_occurs_check(?X, ?Y)",
        "unification with the occurs check",
    ),
    (
        "atom_codes(?Atom, ?Codes)",
        "atom ↔ list of character codes",
    ),
    (
        "atom_chars(?Atom, ?Chars)",
        "atom ↔ list of one-character atoms",
    ),
    ("char_code(?Char, ?Code)", "one-character atom ↔ code"),
    ("atom_length(+Atom, ?Length)", "number of characters"),
    ("atom_number(?Atom, ?Number)", "atom ↔ number it denotes"),
    ("number_codes(?Number, ?Codes)", "number ↔ codes"),
    ("number_chars(?Number, ?Chars)", "number ↔ characters"),
    ("atom_string(?Atom, ?String)", "atom ↔ string"),
    ("upcase_atom(+Atom, -Upper)", "upper-case copy"),
    ("downcase_atom(+Atom, -Lower)", "lower-case copy"),
    ("term_to_atom(?Term, ?Atom)", "term ↔ its text"),
    ("string_chars(?String, ?Chars)", "string ↔ characters"),
    ("string_codes(?String, ?Codes)", "string ↔ codes"),
    ("string_to_atom(?String, ?Atom)", "string ↔ atom"),
    ("string_length(+String, ?Length)", "number of characters"),
    ("number_string(?Number, ?String)", "number ↔ string"),
    (
        "atom_concat(?A, ?B, ?AB)",
        "concatenation; enumerates the splits of `AB`",
    ),
    (
        "string_concat(?A, ?B, ?AB)",
        "concatenation; enumerates the splits of `AB`",
    ),
    (
        "sub_atom(+Atom, ?Before, ?Length, ?After, ?Sub)",
        "sub-atoms (fully nondeterministic)",
    ),
    (
        "sub_string(+String, ?Before, ?Length, ?After, ?Sub)",
        "sub-strings (fully nondeterministic)",
    ),
    (
        "atomic_list_concat(+List, -Atom)",
        "concatenates atomic values",
    ),
    (
        "atomic_list_concat(?List, +Separator, ?Atom)",
        "joins with `Separator`, or splits `Atom`",
    ),
    (
        "msort(+List, -Sorted)",
        "sorts in standard order, keeping duplicates",
    ),
    (
        "sort(+List, -Sorted)",
        "sorts in standard order, removing duplicates",
    ),
    (
        "sort(+Key, +Order, +List, -Sorted)",
        "sorts on argument `Key` with `Order` (`@<`, `@=<`, `@>`, `@>=`)",
    ),
    (
        "keysort(+Pairs, -Sorted)",
        "stable sort of `Key-Value` pairs on the key",
    ),
    (
        "predsort(:Pred, +List, -Sorted)",
        "sorts with a comparison predicate",
    ),
    ("length(?List, ?N)", "length of a list (all modes)"),
    ("sum_list(+List, -Sum)", "sum of numbers"),
    ("sumlist(+List, -Sum)", "sum of numbers (old name)"),
    ("max_list(+List, -Max)", "largest number"),
    ("min_list(+List, -Min)", "smallest number"),
    ("numlist(+Low, +High, -List)", "the integers `Low..High`"),
    (
        "list_to_set(+List, -Set)",
        "removes duplicates, keeping the first occurrence",
    ),
    ("nth0(?Index, ?List, ?Elem)", "element at 0-based `Index`"),
    ("nth1(?Index, ?List, ?Elem)", "element at 1-based `Index`"),
    (
        "memberchk(?Elem, +List)",
        "first match only (deterministic `member/2`)",
    ),
    ("member(?Elem, ?List)", "enumerates the elements of `List`"),
    (
        "append(?A, ?B, ?AB)",
        "list concatenation; enumerates splits",
    ),
    (
        "append(+ListOfLists, ?List)",
        "concatenation of a list of lists",
    ),
    ("last(?List, ?Last)", "last element"),
    ("reverse(?List, ?Reversed)", "reversed list"),
    (
        "select(?Elem, ?List, ?Rest)",
        "removes one occurrence (enumerates)",
    ),
    (
        "selectchk(+Elem, +List, -Rest)",
        "removes the first occurrence",
    ),
    ("permutation(?List, ?Perm)", "enumerates permutations"),
    (
        "delete(+List, @Elem, -Rest)",
        "removes every element that unifies with `Elem`",
    ),
    ("subtract(+Set, +Delete, -Rest)", "set difference"),
    ("intersection(+A, +B, -C)", "set intersection"),
    ("union(+A, +B, -C)", "set union"),
    (
        "max_member(-Max, +List)",
        "largest element in the standard order",
    ),
    (
        "min_member(-Min, +List)",
        "smallest element in the standard order",
    ),
    (
        "maxmember(+List, -Max)",
        "SIDL library: first largest element (arithmetic comparison); fails on `[]`",
    ),
    (
        "minmember(+List, -Min)",
        "SIDL library: first smallest element (arithmetic comparison); fails on `[]`",
    ),
    (
        "getsubset(?Sub, +Set)",
        "SIDL library: enumerates the subsets of `Set`, by size",
    ),
    (
        "include(:Pred, +List, -Included)",
        "the elements for which `Pred` succeeds",
    ),
    (
        "exclude(:Pred, +List, -Excluded)",
        "the elements for which `Pred` fails",
    ),
    (
        "partition(:Pred, +List, -Included, -Excluded)",
        "splits by `Pred`",
    ),
    ("maplist(:Goal, ?List)", "`Goal` holds for every element"),
    (
        "maplist(:Goal, ?L1, ?L2)",
        "`Goal` holds for every pair of elements",
    ),
    (
        "maplist(:Goal, ?L1, ?L2, ?L3)",
        "`Goal` holds for every triple of elements",
    ),
    ("foldl(:Goal, ?List, +V0, -V)", "left fold"),
    (
        "forall(:Cond, :Action)",
        "`Action` holds for every solution of `Cond`",
    ),
    (
        "findall(?Template, :Goal, -List)",
        "all solutions of `Goal`",
    ),
    (
        "findall(?Template, :Goal, -List, ?Tail)",
        "all solutions, as a difference list",
    ),
    (
        "bagof(?Template, :Goal, -List)",
        "solutions grouped by free variables (`V^Goal` to exclude `V`)",
    ),
    (
        "setof(?Template, :Goal, -Set)",
        "sorted solutions grouped by free variables",
    ),
    (
        "aggregate_all(+Spec, :Goal, -Result)",
        "`count`, `sum(E)`, `max(E)`, `min(E)`, `bag(E)`, `set(E)` over the solutions",
    ),
    ("once(:Goal)", "the first solution of `Goal` only"),
    ("ignore(:Goal)", "calls `Goal` once; succeeds anyway"),
    ("call(:Goal)", "calls `Goal` (`call/2..8` add arguments)"),
    ("not(:Goal)", "negation as failure"),
    ("\\+ Goal", "negation as failure"),
    (
        "catch(:Goal, ?Catcher, :Recovery)",
        "calls `Goal`; runs `Recovery` if it throws a ball that unifies with `Catcher`",
    ),
    ("throw(+Ball)", "throws `Ball`"),
    ("true", "succeeds"),
    ("fail", "fails"),
    ("false", "fails"),
    (
        "!",
        "cut: commits to the choices made since the clause was entered",
    ),
    ("Cond -> Then", "if-then (inside `;`: if-then-else)"),
    ("Cond *-> Then", "soft if-then"),
    ("A ; B", "disjunction"),
    ("A , B", "conjunction"),
];

/// Name and arity of a signature text.
fn key_of(sig: &str) -> PredKey {
    let sig = sig.trim();
    let parts: Vec<&str> = sig.split(' ').collect();
    if parts.len() == 3 && !sig.contains('(') {
        return (Atom::new(parts[1]), 2);
    }
    if parts.len() == 2 && !sig.contains('(') {
        return (Atom::new(parts[0]), 1);
    }
    match sig.find('(') {
        Some(i) => {
            let args = &sig[i + 1..sig.len() - 1];
            (Atom::new(&sig[..i]), args.split(", ").count() as u32)
        }
        None => (Atom::new(sig), 0),
    }
}

/// A built-in predicate: signature and description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinDoc {
    pub key: PredKey,
    pub signature: String,
    pub summary: String,
}

/// Whether `key` is provided by the library (native built-ins, control constructs, prelude).
pub fn is_builtin(key: PredKey) -> bool {
    control(key.0, key.1).is_some() || library_predicates().contains(&key)
}

/// The documentation of a built-in (a generic line for a library predicate without a signature).
pub fn doc(key: PredKey) -> Option<BuiltinDoc> {
    if !is_builtin(key) {
        return None;
    }
    let found = SIGNATURES.iter().find(|(s, _)| key_of(s) == key);
    Some(match found {
        Some((sig, summary)) => BuiltinDoc {
            key,
            signature: sig.to_string(),
            summary: summary.to_string(),
        },
        None => BuiltinDoc {
            key,
            signature: show(key),
            summary: "built-in (see docs/builtins.md)".to_string(),
        },
    })
}

/// Every built-in predicate with a word name (no operators, no `$` internals), sorted, with docs.
pub fn all() -> Vec<BuiltinDoc> {
    let mut keys: Vec<PredKey> = library_predicates()
        .iter()
        .copied()
        .filter(|k| {
            let n = k.0.name();
            n.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && n.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
        .collect();
    crate::solve::builtins::sort_by_name(&mut keys);
    keys.dedup();
    keys.into_iter().filter_map(doc).collect()
}

/// The hover text of a built-in (Markdown).
pub fn markdown(key: PredKey) -> Option<String> {
    let d = doc(key)?;
    Some(format!(
        "```sidl\n{}\n```\n**`{}`** (built-in): {}",
        d.signature,
        show(key),
        d.summary
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_signature_names_a_builtin() {
        for (sig, _) in SIGNATURES {
            let k = key_of(sig);
            assert!(is_builtin(k), "{sig} → {} is not a built-in", show(k));
        }
    }
}
