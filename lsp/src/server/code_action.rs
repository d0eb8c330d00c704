//! `textDocument/codeAction` over `sidl_engine::ide::code_actions` (the diagnostics' fixes).

use super::diagnostics::to_lsp;
use super::documents::Snapshot;
use sidl_engine::ide::code_actions;
use std::collections::HashMap;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionResponse, Range, TextEdit, Uri,
    WorkspaceEdit,
};

pub fn code_actions(snap: &Snapshot, uri: &Uri, range: Range) -> Option<CodeActionResponse> {
    let doc = snap.document();
    let diags = doc.diagnostics();
    let actions = code_actions::code_actions(&doc, &diags, snap.span(range));
    Some(
        actions
            .into_iter()
            .map(|a| {
                let edits: Vec<TextEdit> = a
                    .edits
                    .into_iter()
                    .map(|e| TextEdit::new(snap.range(e.span), e.new_text))
                    .collect();
                CodeActionOrCommand::CodeAction(CodeAction {
                    title: a.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: a.diagnostic.map(|i| vec![to_lsp(snap, uri, &diags[i])]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(uri.clone(), edits)])),
                        ..Default::default()
                    }),
                    is_preferred: Some(a.preferred),
                    ..Default::default()
                })
            })
            .collect(),
    )
}
