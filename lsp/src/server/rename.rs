//! `textDocument/prepareRename` and `textDocument/rename` over `sidl_engine::ide::rename`.

use super::documents::Snapshot;
use sidl_engine::ide::rename as ide;
use std::collections::HashMap;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{Position, PrepareRenameResponse, TextEdit, Uri, WorkspaceEdit};

pub fn prepare(snap: &Snapshot, pos: Position) -> Result<Option<PrepareRenameResponse>> {
    let doc = snap.document();
    match ide::prepare(&doc, snap.offset(pos)) {
        Ok((span, placeholder)) => Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
            range: snap.range(span),
            placeholder,
        })),
        Err(e) => Err(Error::invalid_params(e)),
    }
}

pub fn rename(
    snap: &Snapshot,
    uri: &Uri,
    pos: Position,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>> {
    let doc = snap.document();
    let edits = ide::rename(&doc, snap.offset(pos), new_name).map_err(Error::invalid_params)?;
    let edits: Vec<TextEdit> = edits
        .into_iter()
        .map(|e| TextEdit::new(snap.range(e.span), e.new_text))
        .collect();
    Ok(Some(WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..Default::default()
    }))
}
