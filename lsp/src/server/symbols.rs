//! `textDocument/documentSymbol` over `sidl_engine::ide::symbols`.

use super::documents::Snapshot;
use sidl_engine::ide::symbols::{self as ide, SymbolKind as K};
use tower_lsp_server::ls_types::{DocumentSymbol, DocumentSymbolResponse, SymbolKind};

pub fn document_symbols(snap: &Snapshot) -> Option<DocumentSymbolResponse> {
    let doc = snap.document();
    let syms = ide::document_symbols(&doc);
    Some(DocumentSymbolResponse::Nested(
        syms.iter().map(|s| convert(snap, s)).collect(),
    ))
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written
fn convert(snap: &Snapshot, s: &ide::DocumentSymbol) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name.clone(),
        detail: Some(s.detail.clone()),
        kind: match s.kind {
            K::Keyword => SymbolKind::EVENT,
            K::Predicate => SymbolKind::FUNCTION,
            K::Clause => SymbolKind::METHOD,
            K::Directive => SymbolKind::NAMESPACE,
        },
        tags: None,
        deprecated: None,
        range: snap.range(s.span),
        selection_range: snap.range(s.selection),
        children: (!s.children.is_empty())
            .then(|| s.children.iter().map(|c| convert(snap, c)).collect()),
    }
}
