//! `textDocument/semanticTokens/full` over `sidl_engine::ide::semantic_tokens`; tokens spanning
//! lines (block comments) are split per line.

use super::documents::Snapshot;
use sidl_engine::diag::Span;
use sidl_engine::ide::semantic_tokens::{semantic_tokens, TokenClass};
use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SemanticTokensResult,
};

/// The legend: token types in the order of `TokenClass::ALL`, then the modifiers.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TokenClass::ALL.iter().map(|&c| token_type(c)).collect(),
        token_modifiers: vec![
            SemanticTokenModifier::DECLARATION,
            SemanticTokenModifier::DEFAULT_LIBRARY,
        ],
    }
}

fn token_type(c: TokenClass) -> SemanticTokenType {
    match c {
        TokenClass::Keyword => SemanticTokenType::KEYWORD,
        TokenClass::Predicate => SemanticTokenType::FUNCTION,
        TokenClass::Variable => SemanticTokenType::VARIABLE,
        TokenClass::Atom => SemanticTokenType::ENUM_MEMBER,
        TokenClass::Number => SemanticTokenType::NUMBER,
        TokenClass::String => SemanticTokenType::STRING,
        TokenClass::Comment => SemanticTokenType::COMMENT,
    }
}

pub fn full(snap: &Snapshot) -> SemanticTokensResult {
    let doc = snap.document();
    let mut data = Vec::new();
    let (mut prev_line, mut prev_start) = (0u32, 0u32);
    for t in semantic_tokens(&doc) {
        let ty = TokenClass::ALL
            .iter()
            .position(|&c| c == t.class)
            .unwrap_or(0) as u32;
        let mods = u32::from(t.definition) | (u32::from(t.library) << 1);
        for piece in per_line(&snap.text, t.span) {
            let a = snap.position(piece.start);
            let b = snap.position(piece.end);
            if b.character <= a.character {
                continue;
            }
            let delta_line = a.line - prev_line;
            let delta_start = if delta_line == 0 {
                a.character - prev_start
            } else {
                a.character
            };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length: b.character - a.character,
                token_type: ty,
                token_modifiers_bitset: mods,
            });
            prev_line = a.line;
            prev_start = a.character;
        }
    }
    SemanticTokensResult::Tokens(SemanticTokens {
        result_id: None,
        data,
    })
}

/// `span` cut at line ends (the newline excluded).
fn per_line(text: &str, span: Span) -> Vec<Span> {
    let mut out = Vec::new();
    let mut start = span.start as usize;
    let s = text.get(span.range()).unwrap_or("");
    for (i, _) in s.match_indices('\n') {
        let end = span.start as usize + i;
        out.push(Span::new(start, end));
        start = end + 1;
    }
    out.push(Span::new(start, span.end as usize));
    out
}
