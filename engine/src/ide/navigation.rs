//! Go to definition and find references, for predicates (name/arity) and variables (clause-local).

use super::{Document, Symbol};
use crate::analysis::callgraph::PredKey;
use crate::diag::Span;

/// The name spans of the clause heads defining `key`, in source order.
pub fn definitions_of(doc: &Document, key: PredKey) -> Vec<Span> {
    doc.graph
        .clauses_of(key)
        .iter()
        .filter_map(|&ci| doc.head_of(ci).map(|h| h.1))
        .collect()
}

/// The name spans of the calls of `key`, in source order.
pub fn calls_of(doc: &Document, key: PredKey) -> Vec<Span> {
    let mut out = Vec::new();
    for ci in 0..doc.parsed.clauses.len() {
        for s in doc.graph.calls(ci) {
            if s.callee == key && !s.name_span.is_empty() {
                out.push(s.name_span);
            }
        }
    }
    out
}

/// Where the symbol at `offset` is defined: the heads of a predicate's clauses (empty for
/// built-ins and keywords the game does not define), or a variable's first occurrence.
pub fn definition(doc: &Document, offset: u32) -> Vec<Span> {
    match doc.symbol_at(offset) {
        Some(Symbol::Predicate { key, .. }) => definitions_of(doc, key),
        Some(Symbol::Variable { clause, number, .. }) => doc
            .variable_occurrences(clause, number)
            .into_iter()
            .take(1)
            .collect(),
        None => Vec::new(),
    }
}

/// Every occurrence of the symbol at `offset`: a predicate's calls (and its clause heads if
/// `include_definitions`), or a variable's occurrences in its clause; sorted by position.
pub fn references(doc: &Document, offset: u32, include_definitions: bool) -> Vec<Span> {
    let mut out = match doc.symbol_at(offset) {
        Some(Symbol::Predicate { key, .. }) => {
            let mut v = calls_of(doc, key);
            if include_definitions {
                v.extend(definitions_of(doc, key));
            }
            v
        }
        Some(Symbol::Variable { clause, number, .. }) => doc.variable_occurrences(clause, number),
        None => Vec::new(),
    };
    crate::stable_sort::sort(&mut out);
    out.dedup();
    out
}
