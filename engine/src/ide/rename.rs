//! Rename a user predicate (every clause head and call of name/arity) or a variable (its clause).

use super::{builtins, keywords, navigation, Document, Edit, Symbol};
use crate::analysis::callgraph::show;
use crate::atom::Atom;
use crate::diag::Span;
use crate::syntax::{tokens, TokenKind};
use crate::term::Term;

/// The span and current text of what would be renamed at `offset`, or why it cannot be.
pub fn prepare(doc: &Document, offset: u32) -> Result<(Span, String), String> {
    match doc.symbol_at(offset) {
        Some(Symbol::Predicate { key, span, .. }) => {
            if keywords::is_head(key) || keywords::is_body(key) {
                return Err(format!(
                    "`{}` is a keyword and cannot be renamed",
                    show(key)
                ));
            }
            if !doc.graph.is_defined(key) {
                let what = if builtins::is_builtin(key) {
                    "a built-in"
                } else {
                    "not defined in this file"
                };
                return Err(format!("`{}` is {what} and cannot be renamed", show(key)));
            }
            Ok((span, doc.text(span).to_string()))
        }
        Some(Symbol::Variable { name, span, .. }) => {
            if name == "_" {
                return Err("the anonymous variable `_` cannot be renamed".into());
            }
            Ok((span, name))
        }
        None => Err("nothing to rename here: place the cursor on a predicate or a variable".into()),
    }
}

/// The edits renaming the symbol at `offset` to `new_name`.
pub fn rename(doc: &Document, offset: u32, new_name: &str) -> Result<Vec<Edit>, String> {
    prepare(doc, offset)?;
    let new_name = new_name.trim();
    match doc.symbol_at(offset) {
        Some(Symbol::Predicate { key, .. }) => {
            if new_name.is_empty() {
                return Err("the new name is empty".into());
            }
            let atom = Atom::new(new_name);
            let new_key = (atom, key.1);
            if new_key != key && (doc.graph.is_defined(new_key) || builtins::is_builtin(new_key)) {
                return Err(format!("`{}` already exists", show(new_key)));
            }
            if keywords::is_head(new_key) || keywords::is_body(new_key) {
                return Err(format!("`{}` is a keyword", show(new_key)));
            }
            let text = crate::write::writeq(&Term::Atom(atom), None);
            let mut spans = navigation::definitions_of(doc, key);
            spans.extend(navigation::calls_of(doc, key));
            Ok(edits(spans, &text))
        }
        Some(Symbol::Variable {
            clause,
            number,
            name,
            ..
        }) => {
            let toks = tokens(new_name);
            if toks.len() != 1 || toks[0].0 != TokenKind::Var {
                return Err(format!("`{new_name}` is not a variable name"));
            }
            if new_name != name && doc.variable_names(clause).iter().any(|n| n == new_name) {
                return Err(format!("the clause already has a variable `{new_name}`"));
            }
            Ok(edits(doc.variable_occurrences(clause, number), new_name))
        }
        None => Ok(Vec::new()),
    }
}

fn edits(mut spans: Vec<Span>, text: &str) -> Vec<Edit> {
    crate::stable_sort::sort(&mut spans);
    spans.dedup();
    spans
        .into_iter()
        .map(|span| Edit {
            span,
            new_text: text.to_string(),
        })
        .collect()
}
