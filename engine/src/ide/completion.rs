//! Completion: head keywords (as rule snippets) at the start of a clause; body keywords, user
//! predicates, built-ins, the clause's variables and the first words of facts (from `init/1` and
//! `create/1`) in a body. Nothing inside comments, strings and quoted atoms. The client filters by
//! the typed prefix; [`Completions::span`] is the text the chosen item replaces.

use super::{builtins, keywords, Document};
use crate::analysis::callgraph::show;
use crate::diag::Span;
use crate::syntax::{tokens, TokenKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Keyword,
    Predicate,
    Builtin,
    Variable,
    /// The first word of a fact (an atom).
    Word,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    /// `name/arity` or a signature.
    pub detail: String,
    /// Markdown.
    pub documentation: Option<String>,
    pub insert_text: String,
    /// `insert_text` uses snippet syntax (`${1:X}`).
    pub snippet: bool,
    /// Ordering among the items (lower first).
    pub rank: u8,
}

/// Where the cursor is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// Before the `:-` of a clause (or in a fact).
    Head,
    /// After the `:-`.
    Body,
    /// In a comment, string or quoted atom: no completion.
    None,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completions {
    pub position: Position,
    /// The partial word before the cursor (replaced by the chosen item).
    pub span: Span,
    pub items: Vec<CompletionItem>,
}

/// Head or body position at `offset`, and the partial word before it.
pub fn position_at(src: &str, offset: u32) -> (Position, Span) {
    let mut pos = Position::Head;
    let mut word = Span::new(offset as usize, offset as usize);
    for (kind, span) in tokens(src) {
        if span.start >= offset {
            break;
        }
        let inside = span.start < offset
            && (offset < span.end || (kind == TokenKind::LineComment && offset <= span.end));
        match kind {
            TokenKind::LineComment
            | TokenKind::BlockComment
            | TokenKind::String
            | TokenKind::BackQuoted
            | TokenKind::QuotedAtom
                if inside =>
            {
                return (Position::None, word);
            }
            TokenKind::End => pos = Position::Head,
            TokenKind::Symbol if matches!(&src[span.range()], ":-" | "-->") => pos = Position::Body,
            TokenKind::Name | TokenKind::Var | TokenKind::AnonVar if span.end == offset => {
                word = span;
            }
            _ => {}
        }
    }
    (pos, word)
}

pub fn completions(doc: &Document, offset: u32) -> Completions {
    let (position, span) = position_at(&doc.src, offset);
    let mut items = Vec::new();
    match position {
        Position::None => {}
        Position::Head => {
            for d in keywords::all() {
                let key = (crate::atom::Atom::new(d.name), d.arity);
                if keywords::is_head(key) {
                    items.push(keyword_item(d, key));
                }
            }
            user_predicates(doc, &mut items, true);
        }
        Position::Body => {
            for d in keywords::all() {
                let key = (crate::atom::Atom::new(d.name), d.arity);
                if keywords::is_body(key) {
                    items.push(keyword_item(d, key));
                }
            }
            user_predicates(doc, &mut items, false);
            for b in builtins::all() {
                if doc.graph.is_defined(b.key) {
                    continue;
                }
                items.push(CompletionItem {
                    label: b.key.0.name().to_string(),
                    kind: CompletionKind::Builtin,
                    detail: b.signature.clone(),
                    documentation: Some(b.summary.clone()),
                    insert_text: call_snippet(b.key.0.name(), &arg_names(&b.signature, b.key.1)),
                    snippet: b.key.1 > 0,
                    rank: 4,
                });
            }
            if let Some(ci) = doc.clause_index_at(offset) {
                for v in doc.variable_names(ci) {
                    items.push(CompletionItem {
                        label: v.clone(),
                        kind: CompletionKind::Variable,
                        detail: "variable of this clause".into(),
                        documentation: None,
                        insert_text: v,
                        snippet: false,
                        rank: 0,
                    });
                }
            }
            for w in doc.fact_words() {
                items.push(CompletionItem {
                    label: w.clone(),
                    kind: CompletionKind::Word,
                    detail: "first word of a fact (init/1, create/1)".into(),
                    documentation: None,
                    insert_text: w,
                    snippet: false,
                    rank: 3,
                });
            }
        }
    }
    Completions {
        position,
        span,
        items,
    }
}

fn keyword_item(
    d: &keywords::KeywordDoc,
    key: crate::analysis::callgraph::PredKey,
) -> CompletionItem {
    CompletionItem {
        label: d.name.to_string(),
        kind: CompletionKind::Keyword,
        detail: format!("{} (keyword {})", d.signature, show(key)),
        documentation: keywords::markdown(key),
        insert_text: d.snippet.to_string(),
        snippet: true,
        rank: 1,
    }
}

fn user_predicates(doc: &Document, items: &mut Vec<CompletionItem>, head: bool) {
    for &key in doc.graph.predicates() {
        if keywords::is_head(key) || keywords::is_body(key) {
            continue;
        }
        let names: Vec<String> = (0..key.1).map(|i| format!("A{}", i + 1)).collect();
        let mut insert = call_snippet(key.0.name(), &names);
        if head {
            insert.push_str(" :-\n    $0.");
        }
        items.push(CompletionItem {
            label: key.0.name().to_string(),
            kind: CompletionKind::Predicate,
            detail: show(key),
            documentation: None,
            insert_text: insert,
            snippet: key.1 > 0 || head,
            rank: 2,
        });
    }
}

/// `name(${1:A}, ${2:B})` (just `name` for arity 0).
fn call_snippet(name: &str, args: &[String]) -> String {
    let name = crate::write::writeq(&crate::term::Term::Atom(crate::atom::Atom::new(name)), None);
    if args.is_empty() {
        return name;
    }
    let parts: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, a)| format!("${{{}:{}}}", i + 1, a))
        .collect();
    format!("{name}({})", parts.join(", "))
}

/// The argument names of a signature `name(+A, ?B)` without modes (`A`, `B`, ... if none).
fn arg_names(signature: &str, arity: u32) -> Vec<String> {
    let from_sig: Vec<String> = signature
        .find('(')
        .map(|i| {
            signature[i + 1..signature.len().saturating_sub(1)]
                .split(", ")
                .map(|a| a.trim_start_matches(['+', '-', '?', '@', ':']).to_string())
                .collect()
        })
        .unwrap_or_default();
    if from_sig.len() == arity as usize {
        from_sig
    } else {
        (0..arity).map(|i| format!("A{}", i + 1)).collect()
    }
}
