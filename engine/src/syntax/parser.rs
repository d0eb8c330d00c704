//! The operator-precedence parser for the fixed operator table ([`super::ops`]).
//!
//! The parser is a state machine with an explicit stack of frames instead of recursive descent, so no
//! input can exhaust the native stack; the depth of the trees it builds is bounded by
//! [`MAX_DEPTH`]. It follows SWI-Prolog 9 where SWI-Prolog deviates from strict ISO (arguments may
//! be terms of priority up to 1200, operator atoms are plain operands, quoted atoms are never
//! operators); `docs/language.md` lists the differences.
//!
//! Error handling: every error becomes a [`Diagnostic`]. The well-known typos of the SIDL paper
//! (`name (x)`, `: -`, `:=`, a missing argument, `f()`) are reported and then read as what was
//! obviously meant, so the rest of the clause is still checked. Any other error abandons the clause
//! and parsing resumes after the next end token `.`.

use super::ast::{Clause, Node, NodeKind, ParsedFile, ReadTerm};
use super::codes;
use super::lexer::{self, LexError, Token, TokenKind};
use super::ops::{self, OpType};
use super::MAX_DEPTH;
use crate::atom::{self, Atom};
use crate::diag::{Diagnostic, LineIndex, Span};
use std::collections::HashMap;

/// Parses a whole file: every clause that can be read, and a diagnostic for every error. Never fails,
/// never panics.
pub fn parse_file(src: &str) -> ParsedFile {
    let lexed = lexer::lex(src, false);
    let mut p = Parser::new(src, &lexed.tokens);
    let mut clauses = Vec::new();
    while p.pos < p.toks.len() {
        let first = p.pos;
        let before = p.diags.len();
        p.begin_clause();
        match p.term() {
            Ok(node) => {
                let start = p.toks[first].span.start;
                let t = p.peek();
                let end = match t.kind {
                    TokenKind::End => {
                        p.pos += 1;
                        t.span.end
                    }
                    _ => match p.missing_end(&node, t) {
                        Some(end) => end,
                        None => {
                            p.recover();
                            continue;
                        }
                    },
                };
                let has_errors = p.diags.len() > before;
                let term = node.to_term();
                let span = Span { start, end };
                clauses.push(Clause {
                    term,
                    node,
                    span,
                    var_names: std::mem::take(&mut p.var_names),
                    has_errors,
                });
            }
            Err(Fail) => p.recover(),
        }
    }
    let mut diagnostics = lexed.diagnostics;
    diagnostics.append(&mut p.diags);
    crate::diag::sort_by_span(&mut diagnostics);
    ParsedFile {
        clauses,
        diagnostics,
    }
}

/// Reads one term (a query, a line of a script, the text of `term_to_atom/2`). The end `.` is
/// optional; anything after the term (other than layout and comments) is an error.
pub fn parse_term(src: &str) -> Result<ReadTerm, Vec<Diagnostic>> {
    let lexed = lexer::lex(src, false);
    let mut p = Parser::new(src, &lexed.tokens);
    p.begin_clause();
    let result = p.term();
    let mut diags = lexed.diagnostics;
    let node = match result {
        Ok(node) => {
            if p.peek().kind == TokenKind::End {
                p.pos += 1;
            }
            if p.pos < p.toks.len() {
                let t = p.peek();
                let msg = format!("unexpected {} after the end of the term", p.describe(t));
                p.diags.push(Diagnostic::error(codes::OPERATOR_EXPECTED, msg, t.span).with_help(
                        "only one term can be read here; remove the rest or join the terms with an operator",
                    ));
            }
            Some(node)
        }
        Err(Fail) => None,
    };
    diags.append(&mut p.diags);
    match node {
        Some(node) if !diags.iter().any(Diagnostic::is_error) => {
            let term = node.to_term();
            Ok(ReadTerm {
                term,
                node,
                var_names: p.var_names,
            })
        }
        _ => {
            if diags.is_empty() {
                // Defensive: a failure is always reported, but never return Err with nothing in it.
                diags.push(Diagnostic::error(
                    codes::TERM_EXPECTED,
                    "expected a term",
                    Span::new(0, src.len()),
                ));
            }
            crate::diag::sort_by_span(&mut diags);
            Err(diags)
        }
    }
}

/// A syntax error that abandons the current clause (already reported).
struct Fail;

/// Which of `,` and `|` end the term being read instead of acting as operators.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ctx {
    /// Anywhere else: both are operators.
    Term,
    /// An argument of `f(...)`: `,` separates arguments.
    Arg,
    /// An element or the tail of a list: `,` and `|` are separators.
    Item,
}

enum Frame {
    /// A term is being read at `max` priority; after each operand, look for an infix operator.
    Infix {
        max: u16,
        ctx: Ctx,
    },
    /// The right operand of an infix operator is being read.
    InfixRight {
        name: Atom,
        name_span: Span,
        left: Node,
        lh: u32,
        prio: u16,
        max: u16,
        ctx: Ctx,
    },
    /// The operand of a prefix operator is being read.
    Prefix {
        name: Atom,
        name_span: Span,
        prio: u16,
    },
    Paren {
        open: Span,
    },
    Args {
        name: Atom,
        name_span: Span,
        open: Span,
        args: Vec<Node>,
        h: u32,
    },
    List {
        open: Span,
        items: Vec<Node>,
        h: u32,
    },
    ListTail {
        open: Span,
        items: Vec<Node>,
        h: u32,
    },
    Curly {
        open: Span,
    },
}

enum State {
    /// Read a term of at most priority `max`.
    Start { max: u16, ctx: Ctx },
    /// A term has been read: its node, priority and height.
    Have { node: Node, prec: u16, h: u32 },
}

struct Parser<'s> {
    src: &'s str,
    toks: &'s [Token],
    pos: usize,
    diags: Vec<Diagnostic>,
    var_names: Vec<String>,
    var_map: HashMap<&'s str, u32>,
    lines: Option<LineIndex>,
}

const EOF_TOKEN: TokenKind = TokenKind::Error(LexError::IllegalChar);

impl<'s> Parser<'s> {
    fn new(src: &'s str, toks: &'s [Token]) -> Parser<'s> {
        Parser {
            src,
            toks,
            pos: 0,
            diags: Vec::new(),
            var_names: Vec::new(),
            var_map: HashMap::new(),
            lines: None,
        }
    }

    fn begin_clause(&mut self) {
        self.var_names.clear();
        self.var_map.clear();
    }

    // ---- tokens ------------------------------------------------------------------------------------

    /// The token at `i`; past the end, a zero-width pseudo token at the end of the text (recognised by
    /// [`Parser::is_eof`]).
    fn tok(&self, i: usize) -> Token {
        match self.toks.get(i) {
            Some(t) => *t,
            None => {
                // Errors at the end of the text are reported right after the last token, on its line.
                let end = self
                    .toks
                    .last()
                    .map_or(self.src.len() as u32, |t| t.span.end);
                Token {
                    kind: EOF_TOKEN,
                    span: Span { start: end, end },
                    layout_before: true,
                }
            }
        }
    }

    fn peek(&self) -> Token {
        self.tok(self.pos)
    }

    fn text(&self, span: Span) -> &'s str {
        self.src.get(span.range()).unwrap_or("")
    }

    fn is_eof(&self, t: Token) -> bool {
        // Real tokens are never empty.
        t.kind == EOF_TOKEN && t.span.is_empty()
    }

    /// 1-based line of a byte offset (for messages).
    fn line_of(&mut self, offset: u32) -> u32 {
        let src = self.src;
        let idx = self.lines.get_or_insert_with(|| LineIndex::new(src));
        idx.line_col(src, offset, crate::diag::ColumnUnit::Char)
            .line
            + 1
    }

    /// A short description of a token for messages.
    fn describe(&self, t: Token) -> String {
        if self.is_eof(t) {
            return "end of file".into();
        }
        let text = self.text(t.span);
        let mut shown: String = text.chars().take(32).collect();
        if shown.len() < text.len() {
            shown.push_str("...");
        }
        match t.kind {
            TokenKind::End => "end of clause '.'".into(),
            TokenKind::Var | TokenKind::AnonVar => format!("variable '{shown}'"),
            TokenKind::Int | TokenKind::Float | TokenKind::CharCode => format!("number '{shown}'"),
            TokenKind::String | TokenKind::BackQuoted => format!("string {shown}"),
            TokenKind::QuotedAtom => format!("atom {shown}"),
            _ => format!("'{shown}'"),
        }
    }

    /// The name of an unquoted atom token, interned.
    fn atom_of(&mut self, t: Token) -> Atom {
        match t.kind {
            TokenKind::QuotedAtom => {
                let s =
                    lexer::decode_quoted(self.text(t.span), t.span.start as usize, &mut self.diags);
                Atom::new(&s)
            }
            _ => Atom::new(self.text(t.span)),
        }
    }

    /// The operator name of a token in operator position: unquoted atoms, and `,`/`|` unless they are
    /// separators in `ctx`. Quoted atoms are never operators (as in SWI-Prolog 7+).
    fn op_name(&self, t: Token, ctx: Ctx) -> Option<&'s str> {
        match t.kind {
            TokenKind::Name | TokenKind::Symbol | TokenKind::Solo => Some(self.text(t.span)),
            TokenKind::Comma if ctx == Ctx::Term => Some(","),
            TokenKind::Bar if ctx != Ctx::Item => Some("|"),
            _ => None,
        }
    }

    // ---- errors and recovery -------------------------------------------------------------------------

    fn error(&mut self, code: &'static str, msg: impl Into<String>, span: Span) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, msg, span));
        let n = self.diags.len() - 1;
        &mut self.diags[n]
    }

    /// Skips to just after the next end token. A token that itself ends a clause (an end token, an
    /// unterminated quoted item, which runs to the end of its line) is where the next clause starts.
    fn recover(&mut self) {
        while self.pos < self.toks.len() {
            let k = self.toks[self.pos].kind;
            self.pos += 1;
            if matches!(
                k,
                TokenKind::End
                    | TokenKind::Error(LexError::UnterminatedQuoted)
                    | TokenKind::Error(LexError::UnterminatedString)
                    | TokenKind::Error(LexError::UnterminatedBackQuoted)
            ) {
                return;
            }
        }
    }

    /// A complete clause term not followed by its end `.`. When the next token starts a new line (or
    /// is the end of the text) this reports the missing `.` and keeps the clause (returning where it
    /// ends); otherwise it reports an error and returns `None`.
    fn missing_end(&mut self, node: &Node, t: Token) -> Option<u32> {
        let gap = self
            .src
            .get(node.span.end as usize..t.span.start as usize)
            .unwrap_or("");
        let at = node.span.end;
        if self.is_eof(t) || (gap.contains('\n') && can_start_term(t.kind)) {
            let msg = if self.is_eof(t) {
                "missing '.' at the end of the clause (the text ends here)".to_string()
            } else {
                let line = self.line_of(t.span.start);
                format!(
                    "missing '.' at the end of the clause (the next clause starts on line {line})"
                )
            };
            self.error(codes::MISSING_END, msg, Span { start: at, end: at })
                .with_label_mut(node.span, "this clause")
                .with_help_mut("every clause ends with a '.' followed by layout")
                .with_fix_mut("add '.'", Span { start: at, end: at }, ".");
            return Some(at);
        }
        self.unexpected_after_term(t, "an operator or the end of the clause '.'");
        None
    }

    /// Reports the token `t` found after a complete term where `expected` was expected.
    fn unexpected_after_term(&mut self, t: Token, expected: &str) {
        if t.kind.is_comment() || matches!(t.kind, TokenKind::Error(_)) && !self.is_eof(t) {
            return; // already reported by the lexer
        }
        if matches!(
            t.kind,
            TokenKind::Name
                | TokenKind::Symbol
                | TokenKind::Solo
                | TokenKind::Comma
                | TokenKind::Bar
        ) && ops::infix(self.text(t.span)).is_some()
        {
            let name = self.text(t.span);
            let msg = format!("operator priority clash: '{name}' cannot appear here");
            self.error(codes::PRIORITY_CLASH, msg, t.span)
                .with_help_mut("its priority is higher than allowed at this position; put the operand in parentheses");
            return;
        }
        let found = self.describe(t);
        let msg = format!("expected {expected}, found {found}");
        let d = self.error(codes::OPERATOR_EXPECTED, msg, t.span);
        if can_start_term(t.kind) {
            d.help = Some(
                "two terms cannot follow each other: a ',' or an operator is missing between them"
                    .into(),
            );
        }
    }

    /// Reports a bracket that is not closed where `t` was found instead.
    fn unclosed(&mut self, open: Span, close: &str, t: Token, what: &str) {
        if matches!(t.kind, TokenKind::Error(_)) && !self.is_eof(t) {
            return;
        }
        let opener = self.text(open).to_string();
        let found = self.describe(t);
        let msg = format!("expected {what}, found {found}: the '{opener}' is not closed");
        self.error(codes::UNBALANCED_BRACKET, msg, t.span)
            .with_label_mut(open, format!("this '{opener}' is not closed"))
            .with_help_mut(format!("add the missing '{close}'"));
    }

    // ---- the state machine ---------------------------------------------------------------------------

    /// Reads one term at priority 1200. On success the current token is the one after the term.
    fn term(&mut self) -> Result<Node, Fail> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut state = State::Start {
            max: 1200,
            ctx: Ctx::Term,
        };
        loop {
            state = match state {
                State::Start { max, ctx } => {
                    if stack.len() >= 2 * MAX_DEPTH {
                        let t = self.peek();
                        let msg = format!("term nested too deeply (more than {MAX_DEPTH} levels)");
                        self.error(codes::TOO_DEEP, msg, t.span).with_help_mut(
                            "split the term into smaller parts, e.g. with auxiliary predicates",
                        );
                        return Err(Fail);
                    }
                    stack.push(Frame::Infix { max, ctx });
                    self.primary(&mut stack, max, ctx)?
                }
                State::Have { node, prec, h } => {
                    if h as usize > MAX_DEPTH {
                        let msg = format!("term nested too deeply (more than {MAX_DEPTH} levels)");
                        self.error(codes::TOO_DEEP, msg, node.name_span())
                            .with_help_mut(
                                "split the term into smaller parts, e.g. with auxiliary predicates",
                            );
                        return Err(Fail);
                    }
                    match stack.pop() {
                        None => return Ok(node),
                        Some(frame) => self.resume(frame, node, prec, h, &mut stack)?,
                    }
                }
            }
        }
    }

    fn leaf(&self, kind: NodeKind, span: Span) -> State {
        State::Have {
            node: Node::new(kind, span),
            prec: 0,
            h: 1,
        }
    }

    fn fresh_var(&mut self, name: &str) -> u32 {
        let n = self.var_names.len() as u32;
        self.var_names.push(name.to_string());
        n
    }

    /// Reads the start of a term (an operand).
    fn primary(&mut self, stack: &mut Vec<Frame>, max: u16, ctx: Ctx) -> Result<State, Fail> {
        let t = self.peek();
        let k = t.kind;
        // A separator or closing bracket right where an argument or list element should be.
        let missing = match stack.iter().rev().nth(1) {
            Some(Frame::Args { .. }) => matches!(k, TokenKind::Comma | TokenKind::CloseParen),
            Some(Frame::List { .. }) => matches!(
                k,
                TokenKind::Comma | TokenKind::Bar | TokenKind::CloseBracket
            ),
            Some(Frame::ListTail { .. }) => k == TokenKind::CloseBracket,
            _ => false,
        };
        if self.is_eof(t) {
            self.error(
                codes::TERM_EXPECTED,
                "unexpected end of file: expected a term",
                t.span,
            )
            .with_help_mut("the clause is incomplete; finish it and end it with '.'");
            return Err(Fail);
        }
        match k {
            TokenKind::Var => {
                self.pos += 1;
                let name = self.text(t.span);
                let number = match self.var_map.get(name) {
                    Some(&n) => n,
                    None => {
                        let n = self.fresh_var(name);
                        self.var_map.insert(name, n);
                        n
                    }
                };
                Ok(self.leaf(
                    NodeKind::Var {
                        number,
                        name: name.to_string(),
                    },
                    t.span,
                ))
            }
            TokenKind::AnonVar => {
                self.pos += 1;
                let number = self.fresh_var("_");
                Ok(self.leaf(
                    NodeKind::Var {
                        number,
                        name: "_".into(),
                    },
                    t.span,
                ))
            }
            TokenKind::Int | TokenKind::Float | TokenKind::CharCode => {
                self.pos += 1;
                let kind = self.number(t, false, t.span);
                Ok(self.leaf(kind, t.span))
            }
            TokenKind::String => {
                self.pos += 1;
                let s =
                    lexer::decode_quoted(self.text(t.span), t.span.start as usize, &mut self.diags);
                Ok(self.leaf(NodeKind::Str(Atom::new(&s)), t.span))
            }
            TokenKind::BackQuoted => {
                self.pos += 1;
                let s =
                    lexer::decode_quoted(self.text(t.span), t.span.start as usize, &mut self.diags);
                if s.is_empty() {
                    return Ok(self.leaf(NodeKind::Atom(atom::NIL), t.span));
                }
                let items = s
                    .chars()
                    .map(|c| Node::new(NodeKind::Int(c as i64), t.span))
                    .collect();
                Ok(State::Have {
                    node: Node::new(NodeKind::List { items, tail: None }, t.span),
                    prec: 0,
                    h: 2,
                })
            }
            TokenKind::OpenParen => {
                self.pos += 1;
                stack.push(Frame::Paren { open: t.span });
                Ok(State::Start {
                    max: 1200,
                    ctx: Ctx::Term,
                })
            }
            TokenKind::OpenBracket | TokenKind::OpenCurly => {
                let close = if k == TokenKind::OpenBracket {
                    TokenKind::CloseBracket
                } else {
                    TokenKind::CloseCurly
                };
                let next = self.tok(self.pos + 1);
                if next.kind == close {
                    // `[]` or `{}`: an atom, possibly the name of a compound.
                    let name = if k == TokenKind::OpenBracket {
                        atom::NIL
                    } else {
                        atom::CURLY
                    };
                    let span = t.span.to(next.span);
                    self.pos += 2;
                    return self.after_atom(stack, name, span);
                }
                self.pos += 1;
                if k == TokenKind::OpenBracket {
                    stack.push(Frame::List {
                        open: t.span,
                        items: Vec::new(),
                        h: 0,
                    });
                    Ok(State::Start {
                        max: 1200,
                        ctx: Ctx::Item,
                    })
                } else {
                    stack.push(Frame::Curly { open: t.span });
                    Ok(State::Start {
                        max: 1200,
                        ctx: Ctx::Term,
                    })
                }
            }
            TokenKind::Name | TokenKind::Symbol | TokenKind::Solo | TokenKind::QuotedAtom => {
                self.atom_primary(stack, t, max, ctx)
            }
            _ if missing => {
                let what = match stack.iter().rev().nth(1) {
                    Some(Frame::Args { .. }) => "argument",
                    Some(Frame::ListTail { .. }) => "list tail",
                    _ => "list element",
                };
                let at = Span {
                    start: t.span.start,
                    end: t.span.start,
                };
                let found = self.describe(t);
                self.error(
                    codes::MISSING_ARGUMENT,
                    format!("missing {what} before {found}"),
                    t.span,
                )
                .with_help_mut(format!(
                    "write '_' if the {what} does not matter, or remove the extra separator"
                ))
                .with_fix_mut("insert '_'", at, "_");
                let number = self.fresh_var("_");
                Ok(self.leaf(
                    NodeKind::Var {
                        number,
                        name: "_".into(),
                    },
                    at,
                ))
            }
            TokenKind::End => {
                let after = self.operator_before();
                let msg = match after {
                    Some(op) => {
                        format!("expected a term after '{op}', found the end of the clause '.'")
                    }
                    None => "expected a term, found the end of the clause '.'".into(),
                };
                self.error(codes::TERM_EXPECTED, msg, t.span).with_help_mut(
                    "the clause is incomplete: an operand is missing before the '.'",
                );
                Err(Fail)
            }
            TokenKind::Error(_) => Err(Fail),
            _ => {
                let found = self.describe(t);
                let msg = match self.operator_before() {
                    Some(op) => format!("expected a term after '{op}', found {found}"),
                    None => format!("expected a term, found {found}"),
                };
                let d = self.error(codes::TERM_EXPECTED, msg, t.span);
                if k == TokenKind::Comma || k == TokenKind::Bar {
                    d.help = Some("an operand is missing, or the separator is doubled".into());
                }
                Err(Fail)
            }
        }
    }

    /// The text of the previous token if it is an operator atom (for messages).
    fn operator_before(&self) -> Option<&'s str> {
        let t = self.toks.get(self.pos.checked_sub(1)?)?;
        let text = self.text(t.span);
        match t.kind {
            TokenKind::Name
            | TokenKind::Symbol
            | TokenKind::Solo
            | TokenKind::Comma
            | TokenKind::Bar
                if ops::is_op(text) || text == "," =>
            {
                Some(text)
            }
            _ => None,
        }
    }

    /// The value of a number token, negated if `neg`; out-of-range values are reported.
    fn number(&mut self, t: Token, neg: bool, span: Span) -> NodeKind {
        let text = self.text(t.span);
        match t.kind {
            TokenKind::CharCode => {
                let v = lexer::decode_char_code(text, t.span.start as usize, &mut self.diags);
                NodeKind::Int(if neg { -v } else { v })
            }
            TokenKind::Float => match lexer::parse_float(text) {
                Some(v) => NodeKind::Float(if neg { -v } else { v }),
                None => {
                    self.error(codes::INVALID_NUMBER, "float literal out of range", span)
                        .with_help_mut(
                            "the largest float is about 1.8e308; write 1.0Inf for infinity",
                        );
                    NodeKind::Float(if neg {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    })
                }
            },
            _ => {
                let v = lexer::parse_int(text);
                let value = match (v, neg) {
                    (Some(u), false) if u <= i64::MAX as u64 => Some(u as i64),
                    (Some(u), true) if u <= i64::MAX as u64 + 1 => Some((u as i64).wrapping_neg()),
                    _ => None,
                };
                match value {
                    Some(v) => NodeKind::Int(v),
                    None => {
                        self.error(codes::INVALID_NUMBER, "integer literal out of range", span).with_help_mut(
                            "integers are 64-bit: from -9223372036854775808 to 9223372036854775807 (use a float for larger magnitudes)",
                        );
                        NodeKind::Int(if neg { i64::MIN } else { i64::MAX })
                    }
                }
            }
        }
    }

    /// An atom token in operand position: functional notation, a negative number, a prefix operator
    /// or a plain atom.
    fn atom_primary(
        &mut self,
        stack: &mut Vec<Frame>,
        t: Token,
        max: u16,
        ctx: Ctx,
    ) -> Result<State, Fail> {
        let next = self.tok(self.pos + 1);
        // A negative numeric literal: `-` immediately followed by a number.
        if t.kind == TokenKind::Symbol
            && self.text(t.span) == "-"
            && next.kind.is_number()
            && !next.layout_before
        {
            self.pos += 2;
            let span = t.span.to(next.span);
            let kind = self.number(next, true, span);
            return Ok(self.leaf(kind, span));
        }
        let name = self.atom_of(t);
        self.pos += 1;
        if next.kind == TokenKind::OpenParen && !next.layout_before {
            return self.after_atom(stack, name, t.span);
        }
        // A prefix operator (unquoted only), unless it is used as an atom: followed by a token that
        // cannot start its operand, or by an infix operator.
        let prefix = if t.kind == TokenKind::QuotedAtom {
            None
        } else {
            ops::prefix(self.text(t.span))
        };
        if let Some(op) = prefix {
            let as_atom = match next.kind {
                TokenKind::CloseParen
                | TokenKind::CloseBracket
                | TokenKind::CloseCurly
                | TokenKind::Comma
                | TokenKind::Bar
                | TokenKind::End => true,
                TokenKind::Name | TokenKind::Symbol | TokenKind::Solo => {
                    let nt = self.text(next.span);
                    let after = self.tok(self.pos + 1);
                    let functional = after.kind == TokenKind::OpenParen && !after.layout_before;
                    ops::infix(nt).is_some() && ops::prefix(nt).is_none() && !functional
                }
                _ => self.is_eof(next),
            };
            if !as_atom {
                if op.priority > max {
                    let opname = op.name;
                    let msg = format!(
                        "operator priority clash: prefix operator '{opname}' (priority {}) cannot appear where the maximum priority is {max}",
                        op.priority
                    );
                    self.error(codes::PRIORITY_CLASH, msg, t.span)
                        .with_help_mut(format!("put the '{opname} ...' term in parentheses"));
                    return Err(Fail);
                }
                let arg_max = if op.typ == OpType::Fy {
                    op.priority
                } else {
                    op.priority - 1
                };
                stack.push(Frame::Prefix {
                    name,
                    name_span: t.span,
                    prio: op.priority,
                });
                return Ok(State::Start { max: arg_max, ctx });
            }
            return Ok(self.leaf(NodeKind::Atom(name), t.span));
        }
        self.after_atom(stack, name, t.span)
    }

    /// After an atom (already consumed) that is not a prefix operator: functional notation if `(`
    /// follows (reporting `name (` with layout and `name()`), else the atom itself.
    fn after_atom(
        &mut self,
        stack: &mut Vec<Frame>,
        name: Atom,
        name_span: Span,
    ) -> Result<State, Fail> {
        let open = self.peek();
        if open.kind != TokenKind::OpenParen {
            return Ok(self.leaf(NodeKind::Atom(name), name_span));
        }
        if open.layout_before {
            let gap = Span {
                start: name_span.end,
                end: open.span.start,
            };
            let text = self.text(name_span).to_string();
            let only_space = self.text(gap).chars().all(char::is_whitespace);
            let d = self
                .error(
                    codes::SPACE_BEFORE_PAREN,
                    format!("space between the name '{text}' and its '('"),
                    gap,
                )
                .with_label_mut(
                    name_span,
                    "this name is followed by layout, so it is not read as a functor",
                )
                .with_help_mut("remove the space before '(': a functor name must touch its '('");
            if only_space {
                d.fixes.push(crate::diag::Fix {
                    title: "remove the space".into(),
                    span: gap,
                    replacement: String::new(),
                });
            }
        }
        let close = self.tok(self.pos + 1);
        if close.kind == TokenKind::CloseParen {
            let text = self.text(name_span).to_string();
            let parens = open.span.to(close.span);
            self.error(
                codes::EMPTY_ARGUMENTS,
                format!("empty argument list: '{text}()'"),
                parens,
            )
            .with_help_mut(format!("an atom has no argument list: write '{text}'"))
            .with_fix_mut("remove '()'", parens, "");
            self.pos += 2;
            return Ok(self.leaf(NodeKind::Atom(name), name_span));
        }
        self.pos += 1;
        stack.push(Frame::Args {
            name,
            name_span,
            open: open.span,
            args: Vec::new(),
            h: 0,
        });
        Ok(State::Start {
            max: 1200,
            ctx: Ctx::Arg,
        })
    }

    /// Continues `frame` with the term just read.
    fn resume(
        &mut self,
        frame: Frame,
        node: Node,
        prec: u16,
        h: u32,
        stack: &mut Vec<Frame>,
    ) -> Result<State, Fail> {
        match frame {
            Frame::Infix { max, ctx } => self.infix(node, prec, h, max, ctx, stack),
            Frame::InfixRight {
                name,
                name_span,
                left,
                lh,
                prio,
                max,
                ctx,
            } => {
                let span = left.span.to(node.span);
                let h = 1 + lh.max(h);
                let node = Node::new(
                    NodeKind::Compound {
                        name,
                        name_span,
                        args: vec![left, node],
                    },
                    span,
                );
                stack.push(Frame::Infix { max, ctx });
                Ok(State::Have {
                    node,
                    prec: prio,
                    h,
                })
            }
            Frame::Prefix {
                name,
                name_span,
                prio,
            } => {
                let span = name_span.to(node.span);
                let node = Node::new(
                    NodeKind::Compound {
                        name,
                        name_span,
                        args: vec![node],
                    },
                    span,
                );
                Ok(State::Have {
                    node,
                    prec: prio,
                    h: h + 1,
                })
            }
            Frame::Paren { open } => {
                let t = self.peek();
                if t.kind == TokenKind::CloseParen {
                    self.pos += 1;
                    let mut node = node;
                    node.span = open.to(t.span);
                    return Ok(State::Have { node, prec: 0, h });
                }
                self.bracket_error(open, ")", t, "')'");
                Err(Fail)
            }
            Frame::Curly { open } => {
                let t = self.peek();
                if t.kind == TokenKind::CloseCurly {
                    self.pos += 1;
                    let node = Node::new(NodeKind::Curly(Box::new(node)), open.to(t.span));
                    return Ok(State::Have {
                        node,
                        prec: 0,
                        h: h + 1,
                    });
                }
                self.bracket_error(open, "}", t, "'}'");
                Err(Fail)
            }
            Frame::Args {
                name,
                name_span,
                open,
                mut args,
                h: hmax,
            } => {
                let hmax = hmax.max(h);
                args.push(node);
                let t = self.peek();
                match t.kind {
                    TokenKind::Comma => {
                        self.pos += 1;
                        stack.push(Frame::Args {
                            name,
                            name_span,
                            open,
                            args,
                            h: hmax,
                        });
                        Ok(State::Start {
                            max: 1200,
                            ctx: Ctx::Arg,
                        })
                    }
                    TokenKind::CloseParen => {
                        self.pos += 1;
                        let node = Node::new(
                            NodeKind::Compound {
                                name,
                                name_span,
                                args,
                            },
                            name_span.to(t.span),
                        );
                        Ok(State::Have {
                            node,
                            prec: 0,
                            h: hmax + 1,
                        })
                    }
                    _ => {
                        self.bracket_error(open, ")", t, "',' or ')'");
                        Err(Fail)
                    }
                }
            }
            Frame::List {
                open,
                mut items,
                h: hmax,
            } => {
                let hmax = hmax.max(h);
                items.push(node);
                let t = self.peek();
                match t.kind {
                    TokenKind::Comma => {
                        self.pos += 1;
                        stack.push(Frame::List {
                            open,
                            items,
                            h: hmax,
                        });
                        Ok(State::Start {
                            max: 1200,
                            ctx: Ctx::Item,
                        })
                    }
                    TokenKind::Bar => {
                        self.pos += 1;
                        stack.push(Frame::ListTail {
                            open,
                            items,
                            h: hmax,
                        });
                        Ok(State::Start {
                            max: 1200,
                            ctx: Ctx::Item,
                        })
                    }
                    TokenKind::CloseBracket => {
                        self.pos += 1;
                        let node = Node::new(NodeKind::List { items, tail: None }, open.to(t.span));
                        Ok(State::Have {
                            node,
                            prec: 0,
                            h: hmax + 1,
                        })
                    }
                    _ => {
                        self.bracket_error(open, "]", t, "',', '|' or ']'");
                        Err(Fail)
                    }
                }
            }
            Frame::ListTail {
                open,
                items,
                h: hmax,
            } => {
                let hmax = hmax.max(h);
                let t = self.peek();
                match t.kind {
                    TokenKind::CloseBracket => {
                        self.pos += 1;
                        let node = Node::new(
                            NodeKind::List {
                                items,
                                tail: Some(Box::new(node)),
                            },
                            open.to(t.span),
                        );
                        Ok(State::Have {
                            node,
                            prec: 0,
                            h: hmax + 1,
                        })
                    }
                    TokenKind::Comma | TokenKind::Bar => {
                        let found = self.describe(t);
                        self.error(
                            codes::OPERATOR_EXPECTED,
                            format!("expected ']' after the tail of the list, found {found}"),
                            t.span,
                        )
                        .with_help_mut("only one term may follow '|' in a list: [H1, H2 | Tail]");
                        Err(Fail)
                    }
                    _ => {
                        self.bracket_error(open, "]", t, "']'");
                        Err(Fail)
                    }
                }
            }
        }
    }

    /// Reports what was found instead of a separator or closing bracket.
    fn bracket_error(&mut self, open: Span, close: &str, t: Token, expected: &str) {
        let closing_or_end = matches!(
            t.kind,
            TokenKind::End
                | TokenKind::CloseParen
                | TokenKind::CloseBracket
                | TokenKind::CloseCurly
        ) || self.is_eof(t);
        if closing_or_end {
            self.unclosed(open, close, t, expected);
        } else {
            self.unexpected_after_term(t, &format!("an operator or {expected}"));
        }
    }

    /// After an operand at `max` priority: apply the infix operators that follow.
    fn infix(
        &mut self,
        left: Node,
        prec: u16,
        h: u32,
        max: u16,
        ctx: Ctx,
        stack: &mut Vec<Frame>,
    ) -> Result<State, Fail> {
        let t = self.peek();
        let mut name_text = self.op_name(t, ctx);
        let mut width = 1;
        let mut name_span = t.span;
        // The paper's typos: `: -` and `:=` for `:-`.
        if t.kind == TokenKind::Symbol && name_text == Some(":") {
            let next = self.tok(self.pos + 1);
            let gap = self
                .src
                .get(t.span.end as usize..next.span.start as usize)
                .unwrap_or("");
            let after = self.tok(self.pos + 2);
            let negative_number = after.kind.is_number() && !after.layout_before;
            if next.kind == TokenKind::Symbol
                && self.text(next.span) == "-"
                && next.layout_before
                && !gap.is_empty()
                && gap.chars().all(|c| c == ' ' || c == '\t')
                && !negative_number
            {
                name_span = t.span.to(next.span);
                self.error(
                    codes::SPLIT_NECK,
                    "':' and '-' are separated: did you mean ':-'?",
                    name_span,
                )
                .with_help_mut("write ':-' without a space")
                .with_fix_mut("write ':-'", name_span, ":-");
                name_text = Some(":-");
                width = 2;
            }
        } else if t.kind == TokenKind::Symbol && name_text == Some(":=") {
            self.error(
                codes::COLON_EQUALS,
                "':=' is not an operator: did you mean ':-'?",
                t.span,
            )
            .with_help_mut("a rule is written 'Head :- Body'")
            .with_fix_mut("replace with ':-'", t.span, ":-");
            name_text = Some(":-");
        }
        let Some(text) = name_text else {
            return Ok(State::Have {
                node: left,
                prec,
                h,
            });
        };
        let Some(op) = ops::infix(text) else {
            return Ok(State::Have {
                node: left,
                prec,
                h,
            });
        };
        if op.priority > max {
            if width == 2 || text != self.text(t.span) {
                // A corrected typo that does not fit here: give up on the clause.
                return Err(Fail);
            }
            return Ok(State::Have {
                node: left,
                prec,
                h,
            });
        }
        let (lmax, rmax) = match op.typ {
            OpType::Xfx => (op.priority - 1, op.priority - 1),
            OpType::Xfy => (op.priority - 1, op.priority),
            _ => (op.priority, op.priority - 1),
        };
        if prec > lmax {
            let msg = format!(
                "operator priority clash: the left operand of '{text}' has priority {prec}, more than the {lmax} allowed"
            );
            let d = self
                .error(codes::PRIORITY_CLASH, msg, name_span)
                .with_label_mut(left.span, "this operand");
            d.help = Some(if op.typ == OpType::Xfx {
                format!("'{text}' is non-associative: write (A {text} B) {text} C or A {text} (B {text} C)")
            } else {
                "put the left operand in parentheses".to_string()
            });
            return Err(Fail);
        }
        let name = Atom::new(text);
        self.pos += width;
        stack.push(Frame::InfixRight {
            name,
            name_span,
            left,
            lh: h,
            prio: op.priority,
            max,
            ctx,
        });
        Ok(State::Start { max: rmax, ctx })
    }
}

/// Whether a token of this kind can begin a term.
fn can_start_term(k: TokenKind) -> bool {
    matches!(
        k,
        TokenKind::Name
            | TokenKind::Symbol
            | TokenKind::Solo
            | TokenKind::QuotedAtom
            | TokenKind::Var
            | TokenKind::AnonVar
            | TokenKind::Int
            | TokenKind::CharCode
            | TokenKind::Float
            | TokenKind::String
            | TokenKind::BackQuoted
            | TokenKind::OpenParen
            | TokenKind::OpenBracket
            | TokenKind::OpenCurly
    )
}

/// Builder-style helpers on `&mut Diagnostic` (the ones in `diag.rs` take `self` by value).
trait DiagMut {
    fn with_help_mut(&mut self, help: impl Into<String>) -> &mut Self;
    fn with_label_mut(&mut self, span: Span, message: impl Into<String>) -> &mut Self;
    fn with_fix_mut(
        &mut self,
        title: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) -> &mut Self;
}

impl DiagMut for Diagnostic {
    fn with_help_mut(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }
    fn with_label_mut(&mut self, span: Span, message: impl Into<String>) -> &mut Self {
        self.labels.push(crate::diag::Label {
            span,
            message: message.into(),
        });
        self
    }
    fn with_fix_mut(
        &mut self,
        title: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) -> &mut Self {
        self.fixes.push(crate::diag::Fix {
            title: title.into(),
            span,
            replacement: replacement.into(),
        });
        self
    }
}
