//! `textDocument/completion` over `sidl_engine::ide::completion`.

use super::documents::Snapshot;
use sidl_engine::ide::completion::{completions, CompletionKind};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, CompletionTextEdit, Documentation,
    InsertTextFormat, MarkupContent, MarkupKind, Position, TextEdit,
};

pub fn completion(snap: &Snapshot, pos: Position) -> Option<CompletionResponse> {
    let doc = snap.document();
    let c = completions(&doc, snap.offset(pos));
    let range = snap.range(c.span);
    let items = c
        .items
        .into_iter()
        .map(|i| CompletionItem {
            kind: Some(match i.kind {
                CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                CompletionKind::Predicate => CompletionItemKind::FUNCTION,
                CompletionKind::Builtin => CompletionItemKind::FUNCTION,
                CompletionKind::Variable => CompletionItemKind::VARIABLE,
                CompletionKind::Word => CompletionItemKind::CONSTANT,
            }),
            detail: Some(i.detail),
            documentation: i.documentation.map(|d| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: d,
                })
            }),
            sort_text: Some(format!("{}{}", i.rank, i.label)),
            filter_text: Some(i.label.clone()),
            insert_text_format: Some(if i.snippet {
                InsertTextFormat::SNIPPET
            } else {
                InsertTextFormat::PLAIN_TEXT
            }),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: i.insert_text,
            })),
            label: i.label,
            ..Default::default()
        })
        .collect();
    Some(CompletionResponse::Array(items))
}
