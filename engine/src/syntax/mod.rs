//! TEMPORARY stub (replaced by the syntax branch).
pub mod ops;
use crate::diag::{Diagnostic, Span};
use crate::term::Term;
pub struct Clause { pub term: Term, pub span: Span, pub var_names: Vec<String> }
pub struct ParsedFile { pub clauses: Vec<Clause>, pub diagnostics: Vec<Diagnostic> }
pub struct ReadTerm { pub term: Term, pub var_names: Vec<String> }
pub fn parse_file(_src: &str) -> ParsedFile { ParsedFile { clauses: vec![], diagnostics: vec![] } }
pub fn parse_term(_src: &str) -> Result<ReadTerm, Vec<Diagnostic>> { Err(vec![]) }
