//! Hover: keyword documentation (with placement), built-in signatures, a user predicate's clauses,
//! a variable's occurrences.

use super::{builtins, keywords, Document, Symbol};
use crate::analysis::callgraph::show;
use crate::diag::Span;

/// Markdown to show for the text at `span`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

/// At most this many clauses are shown for a user predicate.
const MAX_CLAUSES: usize = 8;

pub fn hover(doc: &Document, offset: u32) -> Option<Hover> {
    match doc.symbol_at(offset)? {
        Symbol::Predicate { key, span, .. } => {
            let markdown = if let Some(md) = keywords::markdown(key) {
                if keywords::is_head(key) && doc.graph.is_defined(key) {
                    let n = doc.graph.clauses_of(key).len();
                    format!("{md}\n\nDefined by {n} clause{} in this file.", plural(n))
                } else {
                    md
                }
            } else if doc.graph.is_defined(key) {
                let clauses = doc.graph.clauses_of(key);
                let mut s = "```sidl\n".to_string();
                for &ci in clauses.iter().take(MAX_CLAUSES) {
                    s.push_str(doc.text(doc.parsed.clauses[ci].span).trim());
                    s.push('\n');
                }
                s.push_str("```\n");
                let callers = doc
                    .graph
                    .predicates()
                    .iter()
                    .filter(|&&p| doc.graph.calls_of(p).any(|(_, c)| c.callee == key))
                    .count();
                s.push_str(&format!(
                    "**`{}`**: {} clause{}",
                    show(key),
                    clauses.len(),
                    plural(clauses.len())
                ));
                if clauses.len() > MAX_CLAUSES {
                    s.push_str(&format!(" ({MAX_CLAUSES} shown)"));
                }
                s.push_str(&format!(
                    ", called by {callers} predicate{}",
                    plural(callers)
                ));
                if builtins::is_builtin(key) {
                    s.push_str(" (redefines a built-in)");
                }
                s
            } else if let Some(md) = builtins::markdown(key) {
                md
            } else {
                format!("**`{}`** is not defined", show(key))
            };
            Some(Hover { span, markdown })
        }
        Symbol::Variable {
            clause,
            number,
            name,
            span,
        } => {
            let n = doc.variable_occurrences(clause, number).len();
            let markdown = if name == "_" {
                "`_`: the anonymous variable (a fresh variable at each occurrence)".to_string()
            } else {
                format!(
                    "variable `{name}`: {n} occurrence{} in this clause",
                    plural(n)
                )
            };
            Some(Hover { span, markdown })
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
