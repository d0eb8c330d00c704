//! Semantic tokens: every token of the text classified (keyword, predicate, variable, atom, number,
//! string, comment), with modifiers for definitions and built-ins. Sorted, non-overlapping; a token
//! may span lines (block comments): the adapter splits it if the client needs that.

use super::{builtins, keywords, Document};
use crate::diag::Span;
use crate::syntax::{tokens, TokenKind};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    Keyword,
    Predicate,
    Variable,
    Atom,
    Number,
    String,
    Comment,
}

impl TokenClass {
    /// Every class, in the order of the legend the language server announces.
    pub const ALL: [TokenClass; 7] = [
        TokenClass::Keyword,
        TokenClass::Predicate,
        TokenClass::Variable,
        TokenClass::Atom,
        TokenClass::Number,
        TokenClass::String,
        TokenClass::Comment,
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub span: Span,
    pub class: TokenClass,
    /// A clause head (where the predicate or keyword is defined).
    pub definition: bool,
    /// A built-in predicate.
    pub library: bool,
}

pub fn semantic_tokens(doc: &Document) -> Vec<SemanticToken> {
    // (class, definition, library) of predicate names, by start offset
    let mut preds: HashMap<u32, (TokenClass, bool, bool)> = HashMap::new();
    for ci in 0..doc.parsed.clauses.len() {
        if let Some((key, span)) = doc.head_of(ci) {
            let class = if keywords::is_head(key) {
                TokenClass::Keyword
            } else {
                TokenClass::Predicate
            };
            preds.insert(span.start, (class, true, false));
        }
        for s in doc.graph.calls(ci) {
            let k = s.callee;
            let class = if keywords::is_body(k) || keywords::is_head(k) {
                TokenClass::Keyword
            } else {
                TokenClass::Predicate
            };
            let lib = !doc.graph.is_defined(k) && builtins::is_builtin(k);
            preds
                .entry(s.name_span.start)
                .or_insert((class, false, lib));
        }
    }
    let mut out = Vec::new();
    for (kind, span) in tokens(&doc.src) {
        let plain = |class| SemanticToken {
            span,
            class,
            definition: false,
            library: false,
        };
        let tok = match kind {
            TokenKind::LineComment | TokenKind::BlockComment => plain(TokenClass::Comment),
            TokenKind::String | TokenKind::BackQuoted => plain(TokenClass::String),
            TokenKind::Int | TokenKind::Float | TokenKind::CharCode => plain(TokenClass::Number),
            TokenKind::Var | TokenKind::AnonVar => plain(TokenClass::Variable),
            TokenKind::Name | TokenKind::QuotedAtom | TokenKind::Symbol | TokenKind::Solo => {
                match preds.get(&span.start) {
                    Some(&(class, definition, library)) => SemanticToken {
                        span,
                        class,
                        definition,
                        library,
                    },
                    None if matches!(kind, TokenKind::Name | TokenKind::QuotedAtom) => {
                        plain(TokenClass::Atom)
                    }
                    None => continue,
                }
            }
            _ => continue,
        };
        out.push(tok);
    }
    out
}
