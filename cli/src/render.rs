//! Diagnostics rendered with source snippets (codespan-reporting), and as JSON lines.

use crate::color;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{
    self,
    termcolor::{Ansi, NoColor, WriteColor},
};
use sidl_engine::diag::{ColumnUnit, Diagnostic, LineIndex, Severity};
use sidl_engine::game::RuntimeError;

/// A runtime error of the game in `src` as its diagnostic on stderr (`prefix`, e.g. `in chronon 3: `,
/// goes before the message).
pub fn runtime_error(name: &str, src: &str, e: &RuntimeError, prefix: &str) {
    let mut d = e.to_diagnostic();
    d.message.insert_str(0, prefix);
    diagnostics(name, src, &[d]);
}

/// Diagnostics on stderr, coloured when [`color::stderr`] allows it.
pub fn diagnostics(name: &str, src: &str, diags: &[Diagnostic]) {
    eprint!("{}", to_string(name, src, diags, color::stderr()));
}

/// Diagnostics as text with source snippets; ANSI colours only with `color`.
pub fn to_string(name: &str, src: &str, diags: &[Diagnostic], color: bool) -> String {
    if color {
        let mut w = Ansi::new(Vec::new());
        emit(&mut w, name, src, diags);
        String::from_utf8_lossy(&w.into_inner()).into_owned()
    } else {
        let mut w = NoColor::new(Vec::new());
        emit(&mut w, name, src, diags);
        String::from_utf8_lossy(&w.into_inner()).into_owned()
    }
}

fn emit(w: &mut dyn WriteColor, name: &str, src: &str, diags: &[Diagnostic]) {
    let file = SimpleFile::new(name, src);
    let config = term::Config::default();
    for d in diags {
        let severity = match d.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
            Severity::Info => CsSeverity::Note,
            Severity::Hint => CsSeverity::Help,
        };
        let mut labels = Vec::new();
        if d.located {
            labels.push(Label::primary((), clamp(src, d.span.range())));
        }
        for l in &d.labels {
            labels.push(
                Label::secondary((), clamp(src, l.span.range())).with_message(l.message.clone()),
            );
        }
        let mut cs = CsDiagnostic::new(severity)
            .with_code(d.code)
            .with_message(&d.message)
            .with_labels(labels);
        if let Some(h) = &d.help {
            cs = cs.with_notes(vec![format!("help: {h}")]);
        }
        let _ = term::emit_to_write_style(w, &config, &file, &cs);
    }
}

fn clamp(src: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let start = r.start.min(src.len());
    let end = r.end.clamp(start, src.len());
    start..end
}

/// A diagnostic as one line of JSON: `code`, `severity`, `message`, 1-based `line`, `column`,
/// `end_line`, `end_column` (columns in characters; `null` when the diagnostic is not located),
/// `labels` (same positions + `message`), `help`.
pub fn json(src: &str, d: &Diagnostic) -> String {
    let idx = LineIndex::new(src);
    let pos = |span: sidl_engine::diag::Span| {
        let a = idx.line_col(src, span.start, ColumnUnit::Char);
        let b = idx.line_col(src, span.end, ColumnUnit::Char);
        format!(
            "\"line\":{},\"column\":{},\"end_line\":{},\"end_column\":{}",
            a.line + 1,
            a.col + 1,
            b.line + 1,
            b.col + 1
        )
    };
    let labels: Vec<String> = d
        .labels
        .iter()
        .map(|l| {
            format!(
                "{{{},\"message\":{}}}",
                pos(l.span),
                json_string(&l.message)
            )
        })
        .collect();
    let help = d.help.as_deref().map_or("null".to_string(), json_string);
    format!(
        "{{\"code\":{},\"severity\":\"{}\",\"message\":{},{},\"labels\":[{}],\"help\":{}}}",
        json_string(d.code),
        d.severity.as_str(),
        json_string(&d.message),
        if d.located {
            pos(d.span)
        } else {
            "\"line\":null,\"column\":null,\"end_line\":null,\"end_column\":null".to_string()
        },
        labels.join(","),
        help
    )
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
