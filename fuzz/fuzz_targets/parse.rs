//! The syntax layer must never panic, never overflow the stack and always return consistent
//! results, whatever the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sidl_engine::syntax::{parse_file, parse_term, tokens};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let len = src.len() as u32;
    let file = parse_file(src);
    for d in &file.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end <= len);
        assert!(src.is_char_boundary(d.span.start as usize) && src.is_char_boundary(d.span.end as usize));
    }
    for c in &file.clauses {
        assert!(c.span.end <= len);
        assert_eq!(c.term, c.node.to_term());
        assert_eq!(c.term.var_count() as usize, c.var_names.len());
    }
    for (_, span) in tokens(src) {
        assert!(span.end <= len && !span.is_empty());
    }
    if let Ok(t) = parse_term(src) {
        assert_eq!(t.term.var_count() as usize, t.var_names.len());
    }
});
