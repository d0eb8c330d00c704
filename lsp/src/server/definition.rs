//! `textDocument/definition` and `textDocument/references` over `sidl_engine::ide::navigation`.

use super::documents::Snapshot;
use sidl_engine::ide::navigation;
use tower_lsp_server::ls_types::{GotoDefinitionResponse, Location, Position, Uri};

pub fn definition(snap: &Snapshot, uri: &Uri, pos: Position) -> Option<GotoDefinitionResponse> {
    let doc = snap.document();
    let spans = navigation::definition(&doc, snap.offset(pos));
    if spans.is_empty() {
        return None;
    }
    Some(GotoDefinitionResponse::Array(
        spans
            .into_iter()
            .map(|s| Location::new(uri.clone(), snap.range(s)))
            .collect(),
    ))
}

pub fn references(
    snap: &Snapshot,
    uri: &Uri,
    pos: Position,
    include_declaration: bool,
) -> Option<Vec<Location>> {
    let doc = snap.document();
    let spans = navigation::references(&doc, snap.offset(pos), include_declaration);
    Some(
        spans
            .into_iter()
            .map(|s| Location::new(uri.clone(), snap.range(s)))
            .collect(),
    )
}
