//! Helpers shared by the syntax tests: a canonical printer in the style of SWI-Prolog's
//! `write_canonical/1` (so expectations can be cross-checked against SWI-Prolog) and the `%!`
//! expectation checker. The real writer lives in `engine/src/write.rs` (another team); this one is
//! only for tests.
#![allow(dead_code)]

use sidl_engine::diag::{ColumnUnit, Diagnostic, LineIndex};
use sidl_engine::syntax::{tokens, TokenKind};
use sidl_engine::term::Term;
use std::collections::{BTreeSet, HashMap};

/// `write_canonical/1` style: operators in functional notation, lists as `[a,b|T]`, variables as `_`
/// when they occur once and `A`, `B`, ... otherwise (in order of first occurrence).
pub fn canonical(t: &Term) -> String {
    let mut counts: HashMap<u32, usize> = HashMap::new();
    let mut order = Vec::new();
    t.walk(|s| {
        if let Term::Var(v) = s {
            let c = counts.entry(*v).or_insert(0);
            if *c == 0 {
                order.push(*v);
            }
            *c += 1;
        }
    });
    let mut names = HashMap::new();
    let mut next = 0usize;
    for v in order {
        if counts[&v] > 1 {
            let letter = (b'A' + (next % 26) as u8) as char;
            let name = if next >= 26 {
                format!("{letter}{}", next / 26)
            } else {
                letter.to_string()
            };
            names.insert(v, name);
            next += 1;
        }
    }
    let mut out = String::new();
    write(t, &names, &mut out);
    out
}

/// Like [`canonical`] but every variable is written `_G<n>` (its number), for round trips.
pub fn canonical_numbered(t: &Term) -> String {
    let mut names = HashMap::new();
    t.walk(|s| {
        if let Term::Var(v) = s {
            names.insert(*v, format!("_G{v}"));
        }
    });
    let mut out = String::new();
    write(t, &names, &mut out);
    out
}

fn write(t: &Term, names: &HashMap<u32, String>, out: &mut String) {
    match t {
        Term::Var(v) => out.push_str(names.get(v).map_or("_", String::as_str)),
        Term::Atom(a) => out.push_str(&quote_atom(a.name())),
        Term::Int(i) => out.push_str(&i.to_string()),
        Term::Float(f) => out.push_str(&format_float(*f)),
        Term::Str(s) => out.push_str(&quote(s.name(), '"')),
        Term::Compound(f, args) => {
            if f.name() == "." && args.len() == 2 {
                out.push('[');
                let mut t = t;
                let mut first = true;
                loop {
                    match t {
                        Term::Compound(f, args) if f.name() == "." && args.len() == 2 => {
                            if !first {
                                out.push(',');
                            }
                            first = false;
                            write(&args[0], names, out);
                            t = &args[1];
                        }
                        Term::Atom(a) if a.name() == "[]" => break,
                        other => {
                            out.push('|');
                            write(other, names, out);
                            break;
                        }
                    }
                }
                out.push(']');
            } else {
                out.push_str(&quote_atom(f.name()));
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(a, names, out);
                }
                out.push(')');
            }
        }
    }
}

/// SWI-Prolog's float format: shortest digits that read back, positional for exponents -4..15,
/// always with a `.`.
pub fn format_float(f: f64) -> String {
    if f.is_nan() {
        return "1.5NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "1.0Inf".into()
        } else {
            "-1.0Inf".into()
        };
    }
    let e = format!("{f:e}"); // e.g. "1.5e-10", "-1e22"
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..15).contains(&exp) {
        let s = format!("{f}");
        if s.contains('.') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        let mant = if mant.contains('.') {
            mant.to_string()
        } else {
            format!("{mant}.0")
        };
        let sign = if exp > 0 { "+" } else { "" };
        format!("{mant}e{sign}{exp}")
    }
}

fn is_symbol_char(c: char) -> bool {
    "+-*/\\^<>=~:.?@#&$".contains(c)
}

pub fn quote_atom(s: &str) -> String {
    if matches!(s, "[]" | "{}" | "!" | ";") {
        return s.to_string();
    }
    // Unquoted when the tokenizer reads the text back as exactly this one atom token (and, like
    // SWI-Prolog's writer, letter-digit atoms start with a lowercase letter).
    let one_token =
        |kind: TokenKind| matches!(&tokens(s)[..], [(k, sp)] if *k == kind && sp.len() == s.len());
    let plain = match s.chars().next() {
        Some(c) if c.is_lowercase() => one_token(TokenKind::Name),
        Some(c) if is_symbol_char(c) => {
            s.chars().all(is_symbol_char) && one_token(TokenKind::Symbol)
        }
        _ => false,
    };
    if plain {
        s.to_string()
    } else {
        quote(s, '\'')
    }
}

fn quote(s: &str, q: char) -> String {
    let mut out = String::new();
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0B' => out.push_str("\\v"),
            '\x0C' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7F => {
                out.push_str(&format!("\\x{:X}\\", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// 1-based line and column (in characters) of a diagnostic's start.
pub fn line_col(src: &str, idx: &LineIndex, d: &Diagnostic) -> (usize, usize) {
    let lc = idx.line_col(src, d.span.start, ColumnUnit::Char);
    (lc.line as usize + 1, lc.col as usize + 1)
}

/// An expectation written in a fixture as a trailing `%! E0003` or `%! E0003 @12` comment.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Expect {
    pub line: usize,
    pub code: String,
    pub col: Option<usize>,
}

/// The `%!` expectations of a fixture. Several codes may follow one `%!`: `%! E0013 E0016 @5`
/// (a `@col` applies to the code before it). `%!> E0006` is an expectation for the next line (for a
/// last line that cannot end in a comment). A `%!` not followed by a code is not an expectation.
pub fn expectations(src: &str) -> Vec<Expect> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let Some(at) = line.find("%!") else { continue };
        let (rest, line_no) = match line[at + 2..].strip_prefix('>') {
            Some(rest) => (rest, i + 2),
            None => (&line[at + 2..], i + 1),
        };
        if !rest.trim_start().starts_with('E') {
            continue;
        }
        for word in rest.split_whitespace() {
            if let Some(col) = word.strip_prefix('@') {
                let col = col.parse().expect("bad @col in a %! expectation");
                let last: &mut Expect = out.last_mut().expect("@col before any code");
                last.col = Some(col);
            } else if word.starts_with('E') && word.len() == 5 {
                out.push(Expect {
                    line: line_no,
                    code: word.to_string(),
                    col: None,
                });
            } else {
                panic!("line {line_no}: unexpected word {word:?} in a %! expectation");
            }
        }
    }
    out
}

/// Checks that the (line, code) pairs of `diags` equal the expected set, and every `@col` matches a
/// diagnostic with that code on that line. Returns a readable mismatch report.
pub fn check_expectations(name: &str, src: &str, diags: &[Diagnostic]) -> Result<(), String> {
    let idx = LineIndex::new(src);
    let expected = expectations(src);
    let want: BTreeSet<(usize, String)> =
        expected.iter().map(|e| (e.line, e.code.clone())).collect();
    let got: BTreeSet<(usize, String)> = diags
        .iter()
        .map(|d| (line_col(src, &idx, d).0, d.code.to_string()))
        .collect();
    let mut report = String::new();
    for (l, c) in want.difference(&got) {
        report.push_str(&format!("  missing  {c} on line {l}\n"));
    }
    for (l, c) in got.difference(&want) {
        let d = diags
            .iter()
            .find(|d| d.code == c && line_col(src, &idx, d).0 == *l);
        let msg = d.map(|d| d.message.as_str()).unwrap_or("");
        report.push_str(&format!("  unexpected {c} on line {l}: {msg}\n"));
    }
    for e in &expected {
        if let Some(col) = e.col {
            let ok = diags
                .iter()
                .any(|d| d.code == e.code && line_col(src, &idx, d) == (e.line, col));
            if !ok {
                report.push_str(&format!(
                    "  {} on line {} is not at column {col}\n",
                    e.code, e.line
                ));
            }
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}:\n{report}"))
    }
}

/// Applies every fix of `diags` to `src` (fixes must not overlap).
pub fn apply_fixes(src: &str, diags: &[Diagnostic]) -> String {
    let mut fixes: Vec<_> = diags.iter().flat_map(|d| d.fixes.iter().take(1)).collect();
    fixes.sort_by_key(|f| (f.span.start, f.span.end));
    let mut out = String::new();
    let mut at = 0usize;
    for f in fixes {
        let (s, e) = (f.span.start as usize, f.span.end as usize);
        assert!(s >= at, "overlapping fixes");
        out.push_str(&src[at..s]);
        out.push_str(&f.replacement);
        at = e;
    }
    out.push_str(&src[at..]);
    out
}
