//! `textDocument/hover` over `sidl_engine::ide::hover`.

use super::documents::Snapshot;
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

pub fn hover(snap: &Snapshot, pos: Position) -> Option<Hover> {
    let doc = snap.document();
    let h = sidl_engine::ide::hover::hover(&doc, snap.offset(pos))?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: h.markdown,
        }),
        range: Some(snap.range(h.span)),
    })
}
