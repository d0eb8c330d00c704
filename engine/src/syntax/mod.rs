//! The syntax layer: tokenizer ([`lexer`]), spanned syntax trees ([`ast`]), the operator-precedence
//! parser ([`parser`]) and the fixed operator table ([`ops`]).
//!
//! ```
//! use sidl_engine::syntax::parse_file;
//! let file = parse_file("legal([main]) :- fact([_, I]), I > 0.\n");
//! assert!(file.diagnostics.is_empty());
//! assert_eq!(file.clauses[0].var_names, ["_", "I"]);
//! ```
//!
//! Parsing never fails and never panics: errors become [`Diagnostic`](crate::diag::Diagnostic)s with
//! the stable codes in [`codes`] (documented in `docs/diagnostics.md`), and the parser recovers at the
//! next clause end `.`. Nothing recurses on the input: the parser keeps its own stack and syntax trees
//! are at most [`MAX_DEPTH`] levels deep.

pub mod ast;
pub mod lexer;
pub mod ops;
pub mod parser;

pub use ast::{Clause, Node, NodeKind, ParsedFile, ReadTerm};
pub use lexer::{tokens, LexError, Token, TokenKind};
pub use parser::{parse_file, parse_term};

/// The term of `src` (unit tests: panics with the diagnostics if it does not parse).
#[cfg(test)]
pub(crate) fn test_term(src: &str) -> crate::term::Term {
    match parse_term(src) {
        Ok(r) => r.term,
        Err(d) => panic!("{src}: {d:?}"),
    }
}

/// The maximum nesting depth of a term (arguments, list elements, operands and parentheses). Deeper
/// terms are reported as `E0012` instead of being parsed. Long lists do not count (a list literal is
/// one level however long it is), but a conjunction `a, b, c, ...` is one level per goal.
pub const MAX_DEPTH: usize = 1_000;

/// The stable codes of syntax diagnostics (see `docs/diagnostics.md`).
pub mod codes {
    /// A character that cannot start a token.
    pub const ILLEGAL_CHARACTER: &str = "E0001";
    /// `'...` without its closing quote.
    pub const UNTERMINATED_QUOTED: &str = "E0002";
    /// `"...` or `` `... `` without its closing quote.
    pub const UNTERMINATED_STRING: &str = "E0003";
    /// `/* ...` without `*/`.
    pub const UNTERMINATED_BLOCK_COMMENT: &str = "E0004";
    /// An invalid escape sequence in a quoted item or character code.
    pub const INVALID_ESCAPE: &str = "E0005";
    /// A number that is out of range or incomplete.
    pub const INVALID_NUMBER: &str = "E0006";
    /// A complete term followed by something that is not an infix operator.
    pub const OPERATOR_EXPECTED: &str = "E0007";
    /// A term was expected (an operand is missing).
    pub const TERM_EXPECTED: &str = "E0008";
    /// An unclosed or unmatched bracket.
    pub const UNBALANCED_BRACKET: &str = "E0009";
    /// A clause without its end `.`.
    pub const MISSING_END: &str = "E0010";
    /// Operator priority clash.
    pub const PRIORITY_CLASH: &str = "E0011";
    /// A term nested more than [`MAX_DEPTH`](super::MAX_DEPTH) levels deep.
    pub const TOO_DEEP: &str = "E0012";
    /// `name (x)`: layout between a functor name and its `(`.
    pub const SPACE_BEFORE_PAREN: &str = "E0013";
    /// `: -` written for `:-`.
    pub const SPLIT_NECK: &str = "E0014";
    /// `:=` written for `:-`.
    pub const COLON_EQUALS: &str = "E0015";
    /// A missing argument or list element: `f(a, )`.
    pub const MISSING_ARGUMENT: &str = "E0016";
    /// An empty argument list: `f()`.
    pub const EMPTY_ARGUMENTS: &str = "E0017";

    /// Every syntax code, in order.
    pub const ALL: &[&str] = &[
        ILLEGAL_CHARACTER,
        UNTERMINATED_QUOTED,
        UNTERMINATED_STRING,
        UNTERMINATED_BLOCK_COMMENT,
        INVALID_ESCAPE,
        INVALID_NUMBER,
        OPERATOR_EXPECTED,
        TERM_EXPECTED,
        UNBALANCED_BRACKET,
        MISSING_END,
        PRIORITY_CLASH,
        TOO_DEEP,
        SPACE_BEFORE_PAREN,
        SPLIT_NECK,
        COLON_EQUALS,
        MISSING_ARGUMENT,
        EMPTY_ARGUMENTS,
    ];
}
