//! Open documents (text, version, line index) and the conversion between LSP positions and byte
//! offsets in the negotiated encoding.

use sidl_engine::diag::{ColumnUnit, LineCol, LineIndex, Span};
use sidl_engine::ide::Document;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

struct Doc {
    text: Arc<str>,
    version: i32,
    index: Arc<LineIndex>,
}

#[derive(Default)]
pub struct Documents {
    docs: Mutex<HashMap<Uri, Doc>>,
}

impl Documents {
    pub fn open(&self, uri: Uri, text: String, version: i32) {
        let index = Arc::new(LineIndex::new(&text));
        if let Ok(mut d) = self.docs.lock() {
            d.insert(
                uri,
                Doc {
                    text: text.into(),
                    version,
                    index,
                },
            );
        }
    }

    pub fn close(&self, uri: &Uri) {
        if let Ok(mut d) = self.docs.lock() {
            d.remove(uri);
        }
    }

    /// Applies the changes of version `version` in order. A version not newer than the document's
    /// is ignored (a client never sends one; it would be stale).
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        unit: ColumnUnit,
    ) -> Result<(), String> {
        let mut docs = self.docs.lock().map_err(|_| "document store poisoned")?;
        let doc = docs
            .get_mut(uri)
            .ok_or_else(|| format!("change of a document that is not open: {}", uri.as_str()))?;
        if version <= doc.version {
            return Err(format!(
                "ignored change to version {version} of {}: already at version {}",
                uri.as_str(),
                doc.version
            ));
        }
        let mut text = doc.text.to_string();
        let mut index = LineIndex::new(&text);
        for c in changes {
            match c.range {
                Some(r) => {
                    let s = span_of(&text, &index, r, unit);
                    text.replace_range(s.range(), &c.text);
                }
                None => text = c.text,
            }
            index = LineIndex::new(&text);
        }
        doc.text = text.into();
        doc.index = Arc::new(index);
        doc.version = version;
        Ok(())
    }

    pub fn version(&self, uri: &Uri) -> Option<i32> {
        self.docs.lock().ok()?.get(uri).map(|d| d.version)
    }

    pub fn snapshot(&self, uri: &Uri, unit: ColumnUnit) -> Option<Snapshot> {
        let docs = self.docs.lock().ok()?;
        let d = docs.get(uri)?;
        Some(Snapshot {
            text: d.text.clone(),
            index: d.index.clone(),
            version: d.version,
            unit,
        })
    }
}

/// A document's text at one version, with position conversion.
#[derive(Clone)]
pub struct Snapshot {
    pub text: Arc<str>,
    pub index: Arc<LineIndex>,
    pub version: i32,
    pub unit: ColumnUnit,
}

impl Snapshot {
    /// A snapshot of a text that is not open (read from disk).
    pub fn of_text(text: &str, unit: ColumnUnit) -> Snapshot {
        Snapshot {
            text: text.into(),
            index: Arc::new(LineIndex::new(text)),
            version: 0,
            unit,
        }
    }

    pub fn document(&self) -> Document {
        Document::new(&self.text)
    }

    pub fn offset(&self, p: Position) -> u32 {
        offset_of(&self.text, &self.index, p, self.unit)
    }

    pub fn position(&self, offset: u32) -> Position {
        let lc = self.index.line_col(&self.text, offset, self.unit);
        Position::new(lc.line, lc.col)
    }

    pub fn range(&self, s: Span) -> Range {
        Range::new(self.position(s.start), self.position(s.end))
    }

    pub fn span(&self, r: Range) -> Span {
        span_of(&self.text, &self.index, r, self.unit)
    }
}

fn offset_of(text: &str, index: &LineIndex, p: Position, unit: ColumnUnit) -> u32 {
    index.offset(
        text,
        LineCol {
            line: p.line,
            col: p.character,
        },
        unit,
    )
}

fn span_of(text: &str, index: &LineIndex, r: Range, unit: ColumnUnit) -> Span {
    let a = offset_of(text, index, r.start, unit);
    let b = offset_of(text, index, r.end, unit);
    Span::new(a.min(b) as usize, a.max(b) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(range: Option<Range>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range,
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn incremental_changes_in_both_encodings() {
        let uri: Uri = "file:///t.sidl".parse().unwrap();
        for (unit, col) in [(ColumnUnit::Utf16, 4), (ColumnUnit::Utf8, 5)] {
            let docs = Documents::default();
            docs.open(uri.clone(), "% 🎲\ntábla(x).\n".into(), 1);
            // replace `x` (line 1, after `tábla(`: 6 UTF-16 units, 7 UTF-8 bytes)
            let c = if unit == ColumnUnit::Utf16 { 6 } else { 7 };
            let r = Range::new(Position::new(1, c), Position::new(1, c + 1));
            docs.change(&uri, 2, vec![change(Some(r), "yy")], unit)
                .unwrap();
            // insert after the emoji (2 UTF-16 units, 4 UTF-8 bytes after `% `)
            let p = Position::new(0, col + if unit == ColumnUnit::Utf16 { 0 } else { 1 });
            docs.change(&uri, 3, vec![change(Some(Range::new(p, p)), "!")], unit)
                .unwrap();
            let s = docs.snapshot(&uri, unit).unwrap();
            assert_eq!(&*s.text, "% 🎲!\ntábla(yy).\n");
            assert_eq!(s.version, 3);
            assert!(docs.change(&uri, 3, vec![change(None, "")], unit).is_err());
        }
    }
}
