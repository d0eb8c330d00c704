//! `sidl check` on arbitrary text: syntax, load, placement, lints and the static §11 analysis, and the
//! editor features that take a document (hover, completion, definition, references, rename at a few
//! offsets; symbols, semantic tokens, code actions of the whole text).
//! Asserts: no panic, every span in bounds and on character boundaries, diagnostics sorted as
//! `analysis::sort` documents, without duplicates.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sidl_engine::analysis;
use sidl_engine::diag::Span;
use sidl_engine::ide::{
    code_actions, completion, hover, navigation, rename, semantic_tokens, symbols, Document,
};
use sidl_fuzz::{assert_diagnostic, assert_sorted, assert_span};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let diags = analysis::check(src);
    for d in &diags {
        assert_diagnostic(src, d);
    }
    assert_sorted(&diags);
    let doc = Document::new(src);
    let whole = Span::new(0, src.len());
    for a in code_actions::code_actions(&doc, &diags, whole) {
        for e in &a.edits {
            assert_span(src, e.span.start, e.span.end, "code action");
        }
    }
    for t in semantic_tokens::semantic_tokens(&doc) {
        assert_span(src, t.span.start, t.span.end, "semantic token");
    }
    let mut stack = symbols::document_symbols(&doc);
    while let Some(s) = stack.pop() {
        assert_span(src, s.span.start, s.span.end, "symbol");
        assert_span(src, s.selection.start, s.selection.end, "symbol");
        stack.extend(s.children);
    }
    let len = src.len();
    for at in [0, len, len / 2, len / 3, 2 * len / 3] {
        // a position the editor sends is a character boundary
        let mut at = at;
        while !src.is_char_boundary(at) {
            at -= 1;
        }
        let at = at as u32;
        if let Some(h) = hover::hover(&doc, at) {
            assert_span(src, h.span.start, h.span.end, "hover");
        }
        let c = completion::completions(&doc, at);
        assert_span(src, c.span.start, c.span.end, "completion");
        for s in navigation::definition(&doc, at)
            .into_iter()
            .chain(navigation::references(&doc, at, true))
        {
            assert_span(src, s.start, s.end, "navigation");
        }
        if let Ok((s, _)) = rename::prepare(&doc, at) {
            assert_span(src, s.start, s.end, "rename");
            for name in ["x", "X", "new_name"] {
                for e in rename::rename(&doc, at, name).unwrap_or_default() {
                    assert_span(src, e.span.start, e.span.end, "rename");
                }
            }
        }
    }
});
