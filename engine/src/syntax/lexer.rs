//! The tokenizer: ISO Prolog tokens (with the SWI-Prolog 9 extensions documented in
//! `docs/language.md`, section "Syntax").
//!
//! The raw token shapes are recognised by a [`logos`] state machine; quoted items, block comments and
//! `0'c` character codes are scanned by callbacks so that an unterminated one can be reported at its
//! start. A thin wrapper then turns the raw stream into [`Token`]s that know whether layout (white space
//! or a comment) preceded them, recognises the end token `.` and coalesces illegal characters.
//!
//! Token *values* (the text of a quoted atom, the value of a number) are decoded on demand by the
//! parser with [`decode_quoted`], [`decode_char_code`], [`parse_int`] and [`parse_float`], because only
//! the parser knows whether a `-` in front makes `9223372036854775808` representable.

use super::codes;
use crate::diag::{Diagnostic, Span};
use logos::Logos;

/// The kind of a token. Comments are tokens too (for semantic highlighting); the parser skips them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A letter-digit atom: `foo`, `fooBar_1`.
    Name,
    /// A symbol-char atom: `:-`, `=..`, `+`.
    Symbol,
    /// A solo atom: `!` or `;`.
    Solo,
    /// A quoted atom: `'hello world'`.
    QuotedAtom,
    /// A named variable: `X`, `_Foo`.
    Var,
    /// The anonymous variable `_`.
    AnonVar,
    /// An integer: `42`, `1_000`, `0x1F`, `0o17`, `0b101`.
    Int,
    /// A character code `0'c`.
    CharCode,
    /// A float: `1.0`, `1.5E-3`, `1e10`, `1.0Inf`, `1.5NaN`.
    Float,
    /// A double-quoted string `"..."`.
    String,
    /// A back-quoted code list `` `...` ``.
    BackQuoted,
    OpenParen,
    CloseParen,
    OpenBracket,
    CloseBracket,
    OpenCurly,
    CloseCurly,
    Comma,
    Bar,
    /// The end token: a `.` followed by layout, `%` or the end of the text.
    End,
    /// `% ...` up to the end of the line.
    LineComment,
    /// `/* ... */`.
    BlockComment,
    /// Something that is not a token; already reported by the lexer.
    Error(LexError),
}

impl TokenKind {
    pub fn is_comment(self) -> bool {
        matches!(
            self,
            TokenKind::LineComment
                | TokenKind::BlockComment
                | TokenKind::Error(LexError::UnterminatedBlockComment)
        )
    }
    /// Atom tokens that can name a functor or an operator (not `[]`/`{}`, which are two tokens).
    pub fn is_atom(self) -> bool {
        matches!(
            self,
            TokenKind::Name | TokenKind::Symbol | TokenKind::Solo | TokenKind::QuotedAtom
        )
    }
    pub fn is_number(self) -> bool {
        matches!(
            self,
            TokenKind::Int | TokenKind::CharCode | TokenKind::Float
        )
    }
}

/// Why a piece of text is not a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LexError {
    /// A character that cannot start any token (e.g. a control character).
    IllegalChar,
    /// `'...` without its closing quote (the token ends at the end of its first line).
    UnterminatedQuoted,
    /// `"...` without its closing quote.
    UnterminatedString,
    /// `` `... `` without its closing quote.
    UnterminatedBackQuoted,
    /// `/* ...` without `*/` (the token runs to the end of the text).
    UnterminatedBlockComment,
    /// `0'` at the end of the text.
    IncompleteCharCode,
}

/// A token: kind, byte span and whether layout text (white space or comments) came right before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    pub layout_before: bool,
}

#[derive(Logos, Clone, Copy, Debug, PartialEq)]
#[logos(skip r"\s+")]
enum Raw {
    #[regex(r"%[^\n]*", allow_greedy = true)]
    LineComment,
    #[token("/*", block_comment)]
    BlockComment(bool),

    #[regex(r"[\p{Ll}\p{Lo}\p{Lm}][\p{L}\p{N}\p{M}_]*")]
    Name,
    #[regex(r"[_\p{Lu}\p{Lt}][\p{L}\p{N}\p{M}_]*")]
    Var,
    // A run of symbol characters. A token never starts with `/*` (that is a comment), but `/*` inside a
    // run does not start a comment (as in SWI-Prolog: `+/*` is one atom).
    #[regex(r"(?:[+\-*\\^<>=~:.?@#&$]|[\p{S}&&[^\x00-\x7F]])(?:[+\-*/\\^<>=~:.?@#&$]|[\p{S}&&[^\x00-\x7F]])*")]
    #[regex(r"/(?:(?:[+\-/\\^<>=~:.?@#&$]|[\p{S}&&[^\x00-\x7F]])(?:[+\-*/\\^<>=~:.?@#&$]|[\p{S}&&[^\x00-\x7F]])*)?")]
    Symbol,
    #[token("!")]
    #[token(";")]
    Solo,

    #[token("'", |lex| quoted(lex, b'\''))]
    Quoted(bool),
    #[token("\"", |lex| quoted(lex, b'"'))]
    DoubleQuoted(bool),
    #[token("`", |lex| quoted(lex, b'`'))]
    BackQuoted(bool),

    #[regex(r"[0-9]+(?:_[0-9]+)*")]
    #[regex(r"0x[0-9a-fA-F]+")]
    #[regex(r"0o[0-7]+")]
    #[regex(r"0b[01]+")]
    Int,
    #[token("0'", char_code)]
    CharCode(bool),
    #[regex(r"[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+")]
    #[regex(r"[0-9]+\.[0-9]+(?:Inf|NaN)")]
    Float,

    #[token("(")]
    OpenParen,
    #[token(")")]
    CloseParen,
    #[token("[")]
    OpenBracket,
    #[token("]")]
    CloseBracket,
    #[token("{")]
    OpenCurly,
    #[token("}")]
    CloseCurly,
    #[token(",")]
    Comma,
    #[token("|")]
    Bar,
}

/// Scans a quoted item after its opening quote `q`. An unterminated one ends at the end of its first
/// line, so that lexing can resume on the next line.
fn quoted(lex: &mut logos::Lexer<Raw>, q: u8) -> bool {
    let text = lex.remainder();
    let rest = text.as_bytes();
    let mut i = 0;
    while i < rest.len() {
        let b = rest[i];
        if b == b'\\' {
            // Skip the whole escape sequence: in `\x41\'` the second backslash closes the escape.
            i += 1 + text.get(i + 1..).map_or(1, |r| escape_len(r).max(1));
        } else if b == q {
            if rest.get(i + 1) == Some(&q) {
                i += 2;
            } else {
                lex.bump(i + 1);
                return true;
            }
        } else {
            i += 1;
        }
    }
    let eol = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    lex.bump(eol);
    false
}

fn block_comment(lex: &mut logos::Lexer<Raw>) -> bool {
    let rest = lex.remainder();
    match rest.find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            true
        }
        None => {
            lex.bump(rest.len());
            false
        }
    }
}

/// Scans the character of a `0'c` character code; `false` at the end of the text.
fn char_code(lex: &mut logos::Lexer<Raw>) -> bool {
    let rest = lex.remainder();
    let len = char_code_len(rest);
    if len == 0 {
        return false;
    }
    lex.bump(len);
    true
}

/// Length in bytes of the character (or escape sequence) of a `0'` character code at the start of
/// `rest`; 0 at the end of the text.
fn char_code_len(rest: &str) -> usize {
    let b = rest.as_bytes();
    match b.first() {
        None => 0,
        Some(b'\\') => 1 + escape_len(&rest[1..]),
        Some(b'\'') if b.get(1) == Some(&b'\'') => 2,
        Some(_) => rest.chars().next().map_or(0, char::len_utf8),
    }
}

/// Length of an escape sequence body (after the backslash), without decoding it.
fn escape_len(rest: &str) -> usize {
    let b = rest.as_bytes();
    let digits = |start: usize, ok: fn(u8) -> bool| {
        let mut i = start;
        while i < b.len() && ok(b[i]) {
            i += 1;
        }
        if b.get(i) == Some(&b'\\') {
            i += 1;
        }
        i
    };
    match b.first() {
        None => 0,
        Some(b'x') => digits(1, |c| c.is_ascii_hexdigit()),
        Some(b'0'..=b'7') => digits(0, |c| (b'0'..=b'7').contains(&c)),
        Some(b'u') => {
            1 + b[1..]
                .iter()
                .take(4)
                .take_while(|c| c.is_ascii_hexdigit())
                .count()
        }
        Some(b'U') => {
            1 + b[1..]
                .iter()
                .take(8)
                .take_while(|c| c.is_ascii_hexdigit())
                .count()
        }
        Some(_) => rest.chars().next().map_or(0, char::len_utf8),
    }
}

/// The result of lexing a text.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// Tokens in order; comments are included only when asked for.
    pub tokens: Vec<Token>,
    /// Diagnostics for illegal characters and unterminated items.
    pub diagnostics: Vec<Diagnostic>,
}

/// Every token of `src`, comments included, with its span: for semantic highlighting.
pub fn tokens(src: &str) -> Vec<(TokenKind, Span)> {
    lex(src, true)
        .tokens
        .into_iter()
        .map(|t| (t.kind, t.span))
        .collect()
}

/// Lexes `src`. Never fails: text that is not a token becomes a [`TokenKind::Error`] token with a
/// diagnostic. A leading byte order mark is skipped.
pub fn lex(src: &str, keep_comments: bool) -> Lexed {
    let mut out = Lexed {
        tokens: Vec::with_capacity(src.len() / 3 + 1),
        diagnostics: Vec::new(),
    };
    let start = if src.starts_with('\u{FEFF}') { 3 } else { 0 };
    let mut lexer = Raw::lexer(src);
    if start > 0 {
        lexer.bump(start);
    }
    // End of the previous significant (non-comment) token, for `layout_before`.
    let mut prev_end = start;
    while let Some(raw) = lexer.next() {
        let range = lexer.span();
        let (s, e) = (range.start, range.end);
        let span = Span::new(s, e);
        let kind = match raw {
            Err(()) => {
                // Coalesce a run of illegal characters into one token and one diagnostic.
                let mut end = e;
                while !src.is_char_boundary(end) {
                    end += 1;
                }
                if let Some(last) = out.tokens.last_mut() {
                    if last.kind == TokenKind::Error(LexError::IllegalChar)
                        && last.span.end as usize == s
                    {
                        last.span.end = end as u32;
                        if let Some(d) = out.diagnostics.last_mut() {
                            if d.code == codes::ILLEGAL_CHARACTER {
                                d.span.end = end as u32;
                            }
                        }
                        if end > e {
                            lexer.bump(end - e);
                        }
                        prev_end = end;
                        continue;
                    }
                }
                if end > e {
                    lexer.bump(end - e);
                }
                let text = src.get(s..end).unwrap_or("");
                let shown: String = text.chars().flat_map(char::escape_debug).collect();
                out.diagnostics.push(
                    Diagnostic::error(
                        codes::ILLEGAL_CHARACTER,
                        format!("illegal character '{shown}'"),
                        Span::new(s, end),
                    )
                    .with_help("this character cannot start a token; quote it ('...') if it belongs to an atom"),
                );
                let tok = Token {
                    kind: TokenKind::Error(LexError::IllegalChar),
                    span: Span::new(s, end),
                    layout_before: s != prev_end,
                };
                out.tokens.push(tok);
                prev_end = end;
                continue;
            }
            Ok(Raw::LineComment) => TokenKind::LineComment,
            Ok(Raw::BlockComment(true)) => TokenKind::BlockComment,
            Ok(Raw::BlockComment(false)) => {
                out.diagnostics.push(
                    Diagnostic::error(
                        codes::UNTERMINATED_BLOCK_COMMENT,
                        "unterminated block comment",
                        Span::new(s, s + 2),
                    )
                    .with_label(
                        Span::new(src.len(), src.len()),
                        "the text ends here without '*/'",
                    )
                    .with_help("close the comment with '*/'"),
                );
                TokenKind::Error(LexError::UnterminatedBlockComment)
            }
            Ok(Raw::Name) => TokenKind::Name,
            Ok(Raw::Var) => {
                if e - s == 1 && src.as_bytes()[s] == b'_' {
                    TokenKind::AnonVar
                } else {
                    TokenKind::Var
                }
            }
            Ok(Raw::Symbol) => {
                let next = src[e..].chars().next();
                if e - s == 1
                    && src.as_bytes()[s] == b'.'
                    && next.is_none_or(|c| c.is_whitespace() || c == '%')
                {
                    TokenKind::End
                } else {
                    TokenKind::Symbol
                }
            }
            Ok(Raw::Solo) => TokenKind::Solo,
            Ok(Raw::Quoted(ok)) => unterminated(
                &mut out,
                ok,
                s,
                e,
                TokenKind::QuotedAtom,
                LexError::UnterminatedQuoted,
            ),
            Ok(Raw::DoubleQuoted(ok)) => unterminated(
                &mut out,
                ok,
                s,
                e,
                TokenKind::String,
                LexError::UnterminatedString,
            ),
            Ok(Raw::BackQuoted(ok)) => unterminated(
                &mut out,
                ok,
                s,
                e,
                TokenKind::BackQuoted,
                LexError::UnterminatedBackQuoted,
            ),
            Ok(Raw::Int) => TokenKind::Int,
            Ok(Raw::CharCode(true)) => TokenKind::CharCode,
            Ok(Raw::CharCode(false)) => {
                out.diagnostics.push(
                    Diagnostic::error(
                        codes::INVALID_NUMBER,
                        "incomplete character code: the text ends after 0'",
                        span,
                    )
                    .with_help("write the character after 0', e.g. 0'a"),
                );
                TokenKind::Error(LexError::IncompleteCharCode)
            }
            Ok(Raw::Float) => TokenKind::Float,
            Ok(Raw::OpenParen) => TokenKind::OpenParen,
            Ok(Raw::CloseParen) => TokenKind::CloseParen,
            Ok(Raw::OpenBracket) => TokenKind::OpenBracket,
            Ok(Raw::CloseBracket) => TokenKind::CloseBracket,
            Ok(Raw::OpenCurly) => TokenKind::OpenCurly,
            Ok(Raw::CloseCurly) => TokenKind::CloseCurly,
            Ok(Raw::Comma) => TokenKind::Comma,
            Ok(Raw::Bar) => TokenKind::Bar,
        };
        if kind.is_comment() {
            if keep_comments {
                out.tokens.push(Token {
                    kind,
                    span,
                    layout_before: s != prev_end,
                });
            }
            continue;
        }
        out.tokens.push(Token {
            kind,
            span,
            layout_before: s != prev_end,
        });
        prev_end = e;
    }
    out
}

fn unterminated(
    out: &mut Lexed,
    ok: bool,
    s: usize,
    e: usize,
    kind: TokenKind,
    err: LexError,
) -> TokenKind {
    if ok {
        return kind;
    }
    let (code, what) = match err {
        LexError::UnterminatedQuoted => (codes::UNTERMINATED_QUOTED, "quoted atom"),
        LexError::UnterminatedString => (codes::UNTERMINATED_STRING, "string"),
        _ => (codes::UNTERMINATED_STRING, "back-quoted string"),
    };
    let q = match err {
        LexError::UnterminatedQuoted => "'",
        LexError::UnterminatedString => "\"",
        _ => "`",
    };
    out.diagnostics.push(
        Diagnostic::error(code, format!("unterminated {what}"), Span::new(s, s + 1))
            .with_label(
                Span::new(s, e),
                "no closing quote up to the end of the text",
            )
            .with_help(format!(
                "add the closing {q}; to write {q} inside, double it ({q}{q}) or escape it (\\{q})"
            )),
    );
    TokenKind::Error(err)
}

// ---------------------------------------------------------------------------------------------------
// Token values

const ESCAPE_HELP: &str = "valid escapes are \\n \\t \\\\ \\' \\\" \\` \\a \\b \\f \\v \\r \\e \\s \\NNN\\ (octal) \\xHH\\ \\uXXXX \\UXXXXXXXX and a backslash at the end of a line; write \\\\ for a backslash";

/// Decodes a quoted item (atom, string or back-quoted string) including its quotes. Invalid escape
/// sequences are reported (code `E0005`) and dropped. `offset` is the byte offset of `text` in the source.
pub fn decode_quoted(text: &str, offset: usize, diags: &mut Vec<Diagnostic>) -> String {
    let Some(q) = text.chars().next() else {
        return String::new();
    };
    let body_end = if text.len() >= 2 && text.ends_with(q) {
        text.len() - 1
    } else {
        text.len()
    };
    let body = text.get(1..body_end).unwrap_or("");
    let mut out = String::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let Some(c) = body[i..].chars().next() else {
            break;
        };
        if c == '\\' {
            let start = i;
            match decode_escape(&body[i + 1..]) {
                Ok((ch, len)) => {
                    if let Some(ch) = ch {
                        out.push(ch);
                    }
                    i += 1 + len;
                }
                Err((len, msg)) => {
                    let len = len.max(1).min(body.len() - i - 1);
                    let mut end = i + 1 + len;
                    while !body.is_char_boundary(end) {
                        end += 1;
                    }
                    let span = Span::new(offset + 1 + start, offset + 1 + end);
                    diags.push(
                        Diagnostic::error(codes::INVALID_ESCAPE, msg, span).with_help(ESCAPE_HELP),
                    );
                    i = end.max(i + 1);
                }
            }
        } else if c == q {
            // A doubled quote stands for one quote character.
            out.push(q);
            i += if body[i + 1..].starts_with(q) { 2 } else { 1 };
        } else {
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Decodes one escape sequence after its backslash: the character (None for a line continuation) and
/// the number of bytes consumed, or the number of bytes to skip and a message.
fn decode_escape(rest: &str) -> Result<(Option<char>, usize), (usize, String)> {
    let Some(e) = rest.chars().next() else {
        return Err((0, "a backslash at the end of a quoted item".into()));
    };
    let simple = match e {
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0C'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\x0B'),
        'e' => Some('\x1B'),
        's' => Some(' '),
        '\\' | '\'' | '"' | '`' => Some(e),
        _ => None,
    };
    if let Some(c) = simple {
        return Ok((Some(c), 1));
    }
    let numeric = |radix: u32,
                   start: usize,
                   max: usize,
                   closing: bool|
     -> Result<(Option<char>, usize), (usize, String)> {
        let digits: &str = &rest[start..];
        let n = digits
            .bytes()
            .take(max)
            .take_while(|b| (*b as char).is_digit(radix))
            .count();
        let mut len = start + n;
        if closing && rest.as_bytes().get(len) == Some(&b'\\') {
            len += 1;
        }
        if n == 0 {
            return Err((
                len,
                format!("escape sequence '\\{}' has no digits", &rest[..start]),
            ));
        }
        let value = u32::from_str_radix(&digits[..n], radix).ok();
        match value.and_then(char::from_u32) {
            Some(c) => Ok((Some(c), len)),
            None => Err((
                len,
                format!(
                    "escape sequence '\\{}' is not a valid character code",
                    &rest[..start + n]
                ),
            )),
        }
    };
    match e {
        'x' => numeric(16, 1, 8, true),
        '0'..='7' => numeric(8, 0, 11, true),
        'u' => numeric(16, 1, 4, false),
        'U' => numeric(16, 1, 8, false),
        '\n' => Ok((None, 1)),
        '\r' if rest[1..].starts_with('\n') => Ok((None, 2)),
        _ => {
            let shown: String = e.escape_default().collect();
            Err((e.len_utf8(), format!("unknown escape sequence '\\{shown}'")))
        }
    }
}

/// The value of a `0'c` token (including `0'`). Invalid escapes are reported.
pub fn decode_char_code(text: &str, offset: usize, diags: &mut Vec<Diagnostic>) -> i64 {
    let rest = text.get(2..).unwrap_or("");
    if let Some(esc) = rest.strip_prefix('\\') {
        match decode_escape(esc) {
            Ok((Some(c), _)) => c as i64,
            Ok((None, _)) => {
                diags.push(Diagnostic::error(
                    codes::INVALID_ESCAPE,
                    "a line continuation is not a character",
                    Span::new(offset, offset + text.len()),
                ));
                0
            }
            Err((_, msg)) => {
                diags.push(
                    Diagnostic::error(
                        codes::INVALID_ESCAPE,
                        msg,
                        Span::new(offset, offset + text.len()),
                    )
                    .with_help(ESCAPE_HELP),
                );
                0
            }
        }
    } else {
        rest.chars().next().map_or(0, |c| c as i64)
    }
}

/// The magnitude of an integer token (`42`, `1_000`, `0x1F`, `0o17`, `0b101`, `0'c` excluded), or
/// `None` if it does not fit in 64 bits.
pub fn parse_int(text: &str) -> Option<u64> {
    let (digits, radix) = match text.get(..2) {
        Some("0x") => (&text[2..], 16),
        Some("0o") => (&text[2..], 8),
        Some("0b") => (&text[2..], 2),
        _ => (text, 10),
    };
    let mut n: u64 = 0;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(radix)? as u64;
        n = n.checked_mul(radix as u64)?.checked_add(d)?;
    }
    Some(n)
}

/// The value of a float token, or `None` if it is out of range (overflows to infinity).
pub fn parse_float(text: &str) -> Option<f64> {
    if let Some(m) = text.strip_suffix("Inf") {
        return m
            .parse::<f64>()
            .ok()
            .map(|m| if m == 0.0 { 0.0 } else { f64::INFINITY });
    }
    if text.ends_with("NaN") {
        return Some(f64::NAN);
    }
    let v = text.parse::<f64>().ok()?;
    if v.is_finite() {
        Some(v)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        tokens(src)
            .into_iter()
            .map(|(k, s)| (k, &src[s.range()]))
            .collect()
    }

    #[test]
    fn basic_tokens() {
        use TokenKind::*;
        assert_eq!(
            kinds("foo(X, _, _Y) :- \\+ bar, !; 'q''t' % c\n."),
            vec![
                (Name, "foo"),
                (OpenParen, "("),
                (Var, "X"),
                (Comma, ","),
                (AnonVar, "_"),
                (Comma, ","),
                (Var, "_Y"),
                (CloseParen, ")"),
                (Symbol, ":-"),
                (Symbol, "\\+"),
                (Name, "bar"),
                (Comma, ","),
                (Solo, "!"),
                (Solo, ";"),
                (QuotedAtom, "'q''t'"),
                (LineComment, "% c"),
                (End, "."),
            ]
        );
    }

    #[test]
    fn numbers() {
        use TokenKind::*;
        assert_eq!(
            kinds("1 1.0 1.0e10 1.5E-3 1e10 0x1F 0o17 0b101 0'a 0''' 0'' 0'\\n 1_000 1.0Inf 1.5NaN 1.e"),
            vec![
                (Int, "1"),
                (Float, "1.0"),
                (Float, "1.0e10"),
                (Float, "1.5E-3"),
                (Float, "1e10"),
                (Int, "0x1F"),
                (Int, "0o17"),
                (Int, "0b101"),
                (CharCode, "0'a"),
                (CharCode, "0'''"),
                (CharCode, "0''"),
                (CharCode, "0'\\n"),
                (Int, "1_000"),
                (Float, "1.0Inf"),
                (Float, "1.5NaN"),
                (Int, "1"),
                (Symbol, "."),
                (Name, "e"),
            ]
        );
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("1_000"), Some(1000));
        assert_eq!(parse_int("18446744073709551616"), None);
        assert_eq!(parse_float("1.5E-3"), Some(0.0015));
        assert_eq!(parse_float("1.0e400"), None);
    }

    #[test]
    fn comments_and_symbols() {
        use TokenKind::*;
        assert_eq!(
            kinds("a /* x */ b"),
            vec![(Name, "a"), (BlockComment, "/* x */"), (Name, "b")]
        );
        assert_eq!(kinds("/** doc */"), vec![(BlockComment, "/** doc */")]);
        assert_eq!(kinds("+/*"), vec![(Symbol, "+/*")]);
        assert_eq!(kinds("a./"), vec![(Name, "a"), (Symbol, "./")]);
        assert_eq!(
            kinds("a.%x"),
            vec![(Name, "a"), (End, "."), (LineComment, "%x")]
        );
        assert_eq!(kinds("a."), vec![(Name, "a"), (End, ".")]);
        assert_eq!(kinds("a.b"), vec![(Name, "a"), (Symbol, "."), (Name, "b")]);
    }

    #[test]
    fn layout_before() {
        let l = lex("f (x) f(x) f/**/(x)", false);
        let parens: Vec<bool> = l
            .tokens
            .iter()
            .filter(|t| t.kind == TokenKind::OpenParen)
            .map(|t| t.layout_before)
            .collect();
        assert_eq!(parens, vec![true, false, true]);
    }

    #[test]
    fn quoted_escapes() {
        let mut d = Vec::new();
        assert_eq!(decode_quoted("'a\\x41\\b'", 0, &mut d), "aAb");
        assert_eq!(decode_quoted("'\\101\\'", 0, &mut d), "A");
        assert_eq!(decode_quoted("'it''s'", 0, &mut d), "it's");
        assert_eq!(decode_quoted("'a\\\nb'", 0, &mut d), "ab");
        assert_eq!(decode_quoted("'\\\\\\''", 0, &mut d), "\\'");
        assert_eq!(decode_quoted("\"\\u00e9\"", 0, &mut d), "é");
        assert!(d.is_empty());
        assert_eq!(decode_quoted("'a\\qb'", 0, &mut d), "ab");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, codes::INVALID_ESCAPE);
        assert_eq!(d[0].span, Span::new(2, 4));
        let mut d = Vec::new();
        assert_eq!(decode_char_code("0'\\n", 0, &mut d), 10);
        assert_eq!(decode_char_code("0'''", 0, &mut d), 39);
        assert_eq!(decode_char_code("0''", 0, &mut d), 39);
        assert_eq!(decode_char_code("0' ", 0, &mut d), 32);
        assert_eq!(decode_char_code("0'\\\\", 0, &mut d), 92);
        assert!(d.is_empty());
    }

    #[test]
    fn unterminated_items() {
        let l = lex("x('abc).\nfoo.", false);
        assert_eq!(l.diagnostics.len(), 1);
        assert_eq!(l.diagnostics[0].code, codes::UNTERMINATED_QUOTED);
        assert_eq!(l.tokens.last().map(|t| t.kind), Some(TokenKind::End));
        let l = lex("a /* b", true);
        assert_eq!(l.diagnostics[0].code, codes::UNTERMINATED_BLOCK_COMMENT);
        let l = lex("a \u{1} \u{2}b", false);
        assert_eq!(l.diagnostics.len(), 2);
    }
}
