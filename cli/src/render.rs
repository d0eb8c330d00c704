//! Diagnostics rendered with source snippets (codespan-reporting), and runtime errors with locations.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{
    self,
    termcolor::{ColorChoice, StandardStream},
};
use sidl_engine::diag::{ColumnUnit, Diagnostic, LineIndex, Severity};

pub fn diagnostics(name: &str, src: &str, diags: &[Diagnostic]) {
    let file = SimpleFile::new(name, src);
    let color = if std::env::var_os("NO_COLOR").is_some() {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    };
    let writer = StandardStream::stderr(color);
    let config = term::Config::default();
    for d in diags {
        let severity = match d.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
            Severity::Info => CsSeverity::Note,
            Severity::Hint => CsSeverity::Help,
        };
        let mut labels = vec![Label::primary((), clamp(src, d.span.range()))];
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
        let _ = term::emit_to_write_style(&mut writer.lock(), &config, &file, &cs);
    }
}

fn clamp(src: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let start = r.start.min(src.len());
    let end = r.end.clamp(start, src.len());
    start..end
}

/// `file:line:col` of a byte offset (1-based, columns in characters).
pub fn location(name: &str, src: &str, offset: u32) -> String {
    let idx = LineIndex::new(src);
    let lc = idx.line_col(src, offset, ColumnUnit::Char);
    format!("{}:{}:{}", name, lc.line + 1, lc.col + 1)
}
