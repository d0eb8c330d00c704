//! The one diagnostic type shared by the CLI, the language server and the playground.
//!
//! Inside the engine every position is a byte [`Span`] into the source text. Conversion to lines and
//! columns (characters for the CLI, UTF-16 code units for LSP and the browser, or UTF-8 bytes) happens
//! only at the edges, through [`LineIndex`].

use std::fmt;

/// A byte range `start..end` in a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A secondary location with a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A machine-applicable edit suggested by a diagnostic (used for LSP code actions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub span: Span,
    pub replacement: String,
}

/// A finding about a source text: stable code (e.g. `E0001`), severity, message, primary span,
/// secondary labels, optional help text and optional fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    pub fixes: Vec<Fix>,
    /// Whether `span` is a place in the source. A runtime error outside the game's clauses (in a
    /// goal typed by the user, in an answer the game manager checks) is not located: its span is
    /// empty at 0 and renderers show no snippet.
    pub located: bool,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, message, span)
    }
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(code, Severity::Warning, message, span)
    }
    pub fn new(
        code: &'static str,
        severity: Severity,
        message: impl Into<String>,
        span: Span,
    ) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
            fixes: Vec::new(),
            located: true,
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }
    pub fn with_fix(
        mut self,
        title: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) -> Diagnostic {
        self.fixes.push(Fix {
            title: title.into(),
            span,
            replacement: replacement.into(),
        });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {}",
            self.severity.as_str(),
            self.code,
            self.message
        )
    }
}

/// Units in which a column is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnUnit {
    /// Unicode scalar values (characters): the CLI and `sidl check --format json`.
    Char,
    /// UTF-16 code units: LSP's default and JavaScript strings.
    Utf16,
    /// UTF-8 bytes.
    Utf8,
}

/// A 0-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// Maps byte offsets of one text to lines and columns, and back.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        LineIndex { line_starts }
    }

    /// 0-based line and column of byte `offset` (clamped to the text).
    pub fn line_col(&self, text: &str, offset: u32, unit: ColumnUnit) -> LineCol {
        let offset = (offset as usize).min(text.len());
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let mut end = offset;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let seg = &text[start..end];
        let col = match unit {
            ColumnUnit::Char => seg.chars().count(),
            ColumnUnit::Utf16 => seg.encode_utf16().count(),
            ColumnUnit::Utf8 => seg.len(),
        };
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    /// Byte offset of a 0-based line and column (clamped to the line's end).
    pub fn offset(&self, text: &str, pos: LineCol, unit: ColumnUnit) -> u32 {
        let line = (pos.line as usize).min(self.line_starts.len() - 1);
        let start = self.line_starts[line] as usize;
        let end = self
            .line_starts
            .get(line + 1)
            .map(|&e| e as usize)
            .unwrap_or(text.len());
        let mut remaining = pos.col as usize;
        for (i, ch) in text[start..end].char_indices() {
            if remaining == 0 || ch == '\n' {
                return (start + i) as u32;
            }
            let w = match unit {
                ColumnUnit::Char => 1,
                ColumnUnit::Utf16 => ch.len_utf16(),
                ColumnUnit::Utf8 => ch.len_utf8(),
            };
            if w > remaining {
                return (start + i) as u32;
            }
            remaining -= w;
        }
        end as u32
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

/// Sorts diagnostics by where they start; equal starts keep their order. Every caller shares this
/// one instantiation of the standard library's sort (the wasm's size: each closure passed to
/// `sort_by_key` is a copy of the sort).
pub fn sort_by_start(diags: &mut [Diagnostic]) {
    crate::stable_sort::sort_by_key(diags, |d| d.span.start);
}

/// Sorts diagnostics by their spans (start, then end); equal spans keep their order. One shared
/// instantiation, as [`sort_by_start`].
pub fn sort_by_span(diags: &mut [Diagnostic]) {
    crate::stable_sort::sort_by_key(diags, |d| (d.span.start, d.span.end));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_in_each_unit() {
        let text = "ab\nä𝄞x\n";
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap() as u32;
        assert_eq!(
            idx.line_col(text, x, ColumnUnit::Char),
            LineCol { line: 1, col: 2 }
        );
        assert_eq!(
            idx.line_col(text, x, ColumnUnit::Utf16),
            LineCol { line: 1, col: 3 }
        );
        assert_eq!(
            idx.line_col(text, x, ColumnUnit::Utf8),
            LineCol { line: 1, col: 6 }
        );
        for unit in [ColumnUnit::Char, ColumnUnit::Utf16, ColumnUnit::Utf8] {
            let lc = idx.line_col(text, x, unit);
            assert_eq!(idx.offset(text, lc, unit), x);
        }
    }
}
