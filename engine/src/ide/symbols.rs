//! The document outline: one entry per predicate (keywords first marked as such), each with its
//! clauses as children, in order of first definition; directives at their place.

use super::{keywords, Document};
use crate::analysis::callgraph::show;
use crate::diag::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A head keyword (`legal/1`, ...).
    Keyword,
    /// A helper predicate.
    Predicate,
    /// One clause.
    Clause,
    /// `:- Goal.`
    Directive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    pub detail: String,
    pub kind: SymbolKind,
    /// Everything the symbol covers.
    pub span: Span,
    /// The name to highlight.
    pub selection: Span,
    pub children: Vec<DocumentSymbol>,
}

const MAX_NAME: usize = 60;

/// The outline of `doc`.
pub fn document_symbols(doc: &Document) -> Vec<DocumentSymbol> {
    let mut out: Vec<(u32, DocumentSymbol)> = Vec::new();
    for &key in doc.graph.predicates() {
        let clauses = doc.graph.clauses_of(key);
        let mut children = Vec::new();
        let mut span: Option<Span> = None;
        for &ci in clauses {
            let c = &doc.parsed.clauses[ci];
            let Some((_, sel)) = doc.head_of(ci) else {
                continue;
            };
            span = Some(span.map_or(c.span, |s| s.to(c.span)));
            children.push(DocumentSymbol {
                name: short(doc.text(c.head().span)),
                detail: if c.body().is_some() { "rule" } else { "fact" }.to_string(),
                kind: SymbolKind::Clause,
                span: c.span,
                selection: sel,
                children: Vec::new(),
            });
        }
        let (Some(span), Some(first)) = (span, children.first()) else {
            continue;
        };
        let kw = keywords::is_head(key);
        let n = children.len();
        out.push((
            first.span.start,
            DocumentSymbol {
                name: show(key),
                detail: format!(
                    "{}{n} clause{}",
                    if kw { "keyword, " } else { "" },
                    if n == 1 { "" } else { "s" }
                ),
                kind: if kw {
                    SymbolKind::Keyword
                } else {
                    SymbolKind::Predicate
                },
                span,
                selection: first.selection,
                children,
            },
        ));
    }
    for c in doc.parsed.clauses.iter().filter(|c| c.is_directive()) {
        out.push((
            c.span.start,
            DocumentSymbol {
                name: short(doc.text(c.span)),
                detail: "directive".into(),
                kind: SymbolKind::Directive,
                span: c.span,
                selection: c.span,
                children: Vec::new(),
            },
        ));
    }
    crate::stable_sort::sort_by_key(&mut out, |(s, _)| *s);
    out.into_iter().map(|(_, s)| s).collect()
}

fn short(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > MAX_NAME {
        let cut: String = one.chars().take(MAX_NAME).collect();
        format!("{cut}…")
    } else {
        one
    }
}
