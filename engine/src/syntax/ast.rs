//! Spanned syntax trees: what the parser produces besides owned [`Term`]s.
//!
//! A [`Node`] mirrors the term it denotes, with a byte [`Span`] on every subterm (operators included:
//! `a + b` is a `Compound` named `+` whose `name_span` is the `+` token). List literals stay flat
//! (`List { items, tail }`) so that a long list is one level deep. Parenthesised terms have no node of
//! their own; the span of the inner node is widened to cover the parentheses.
//!
//! Trees built by the parser are at most [`MAX_DEPTH`](super::MAX_DEPTH) levels deep, so the derived
//! `Clone`, `Debug`, `PartialEq` and `Drop` (which recurse) are safe; the functions here are iterative
//! all the same.

use crate::atom::{self, Atom};
use crate::diag::{Diagnostic, Span};
use crate::term::Term;
use std::sync::Arc;

/// A term with spans.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A variable: its number in the clause (`Term::Var(number)`) and its source name (`_` for the
    /// anonymous variable, which is a fresh variable at each occurrence).
    Var {
        number: u32,
        name: String,
    },
    /// An atom, including `[]` (also written `'[]'`) and `{}`.
    Atom(Atom),
    Int(i64),
    Float(f64),
    /// A double-quoted string.
    Str(Atom),
    /// `name(args...)` (arity >= 1), also when written with operators; `name_span` is the span of the
    /// functor name or of the operator token.
    Compound {
        name: Atom,
        name_span: Span,
        args: Vec<Node>,
    },
    /// A list literal `[a, b | T]` (at least one item); `tail` is `None` for a proper list. A
    /// back-quoted string is a list of character codes.
    List {
        items: Vec<Node>,
        tail: Option<Box<Node>>,
    },
    /// `{ T }`: the term `'{}'(T)`.
    Curly(Box<Node>),
}

impl Node {
    pub fn new(kind: NodeKind, span: Span) -> Node {
        Node { kind, span }
    }

    /// The owned term this node denotes (lists become `'.'/2` cells, `{T}` becomes `'{}'(T)`).
    /// Iterative: a 100 000-element list literal is fine.
    pub fn to_term(&self) -> Term {
        enum Work<'a> {
            Visit(&'a Node),
            Build(&'a Node),
        }
        let mut work = vec![Work::Visit(self)];
        let mut out: Vec<Term> = Vec::new();
        while let Some(w) = work.pop() {
            match w {
                Work::Visit(n) => match &n.kind {
                    NodeKind::Var { number, .. } => out.push(Term::Var(*number)),
                    NodeKind::Atom(a) => out.push(Term::Atom(*a)),
                    NodeKind::Int(i) => out.push(Term::Int(*i)),
                    NodeKind::Float(f) => out.push(Term::Float(*f)),
                    NodeKind::Str(s) => out.push(Term::Str(*s)),
                    NodeKind::Compound { args, .. } => {
                        work.push(Work::Build(n));
                        work.extend(args.iter().rev().map(Work::Visit));
                    }
                    NodeKind::List { items, tail } => {
                        work.push(Work::Build(n));
                        if let Some(t) = tail {
                            work.push(Work::Visit(t));
                        }
                        work.extend(items.iter().rev().map(Work::Visit));
                    }
                    NodeKind::Curly(inner) => {
                        work.push(Work::Build(n));
                        work.push(Work::Visit(inner));
                    }
                },
                Work::Build(n) => match &n.kind {
                    NodeKind::Compound { name, args, .. } => {
                        let at = out.len().saturating_sub(args.len());
                        let args = out.split_off(at);
                        out.push(Term::new_compound(*name, args));
                    }
                    NodeKind::List { items, tail } => {
                        let at = out
                            .len()
                            .saturating_sub(items.len() + usize::from(tail.is_some()));
                        let mut items = out.split_off(at);
                        let tail = if tail.is_some() {
                            items.pop().unwrap_or_else(Term::nil)
                        } else {
                            Term::nil()
                        };
                        out.push(Term::list_with_tail(items, tail));
                    }
                    NodeKind::Curly(_) => {
                        let inner = out.pop().unwrap_or_else(Term::nil);
                        out.push(Term::Compound(atom::CURLY, Arc::from(vec![inner])));
                    }
                    _ => {}
                },
            }
        }
        out.pop().unwrap_or_else(Term::nil)
    }

    /// The direct subterms, left to right (a list's items, then its tail).
    pub fn children(&self) -> impl Iterator<Item = &Node> + '_ {
        let (slice, extra): (&[Node], Option<&Node>) = match &self.kind {
            NodeKind::Compound { args, .. } => (args, None),
            NodeKind::List { items, tail } => (items, tail.as_deref()),
            NodeKind::Curly(inner) => (&[], Some(inner)),
            _ => (&[], None),
        };
        slice.iter().chain(extra)
    }

    /// Visits this node and all its descendants in pre-order (source order), iteratively.
    pub fn walk<'a>(&'a self, mut f: impl FnMut(&'a Node)) {
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            f(n);
            let at = stack.len();
            stack.extend(n.children());
            stack[at..].reverse();
        }
    }

    /// The chain of nodes containing byte `offset`, from `self` down to the innermost one; empty if
    /// `offset` is outside `self`. A node contains the offsets `start..end`; an offset equal to a node's
    /// end (a cursor right after it) counts when no sibling starts there.
    pub fn path_at(&self, offset: u32) -> Vec<&Node> {
        let mut path = Vec::new();
        if !(self.span.start <= offset && offset <= self.span.end) {
            return path;
        }
        let mut n = self;
        loop {
            path.push(n);
            let inside = n
                .children()
                .find(|c| c.span.start <= offset && offset < c.span.end);
            let next = inside.or_else(|| {
                n.children()
                    .find(|c| c.span.end == offset && c.span.start < offset)
            });
            match next {
                Some(c) => n = c,
                None => return path,
            }
        }
    }

    /// The innermost node containing byte `offset` (see [`Node::path_at`]).
    pub fn node_at(&self, offset: u32) -> Option<&Node> {
        self.path_at(offset).pop()
    }

    /// Name and arity if the node is callable-shaped (atom, compound, list cell, curly term).
    pub fn functor(&self) -> Option<(Atom, usize)> {
        match &self.kind {
            NodeKind::Atom(a) => Some((*a, 0)),
            NodeKind::Compound { name, args, .. } => Some((*name, args.len())),
            NodeKind::List { .. } => Some((atom::DOT, 2)),
            NodeKind::Curly(_) => Some((atom::CURLY, 1)),
            _ => None,
        }
    }

    /// The arguments of a compound (empty for anything else, including lists).
    pub fn args(&self) -> &[Node] {
        match &self.kind {
            NodeKind::Compound { args, .. } => args,
            _ => &[],
        }
    }

    /// The span of the functor name (the operator token for operators); the whole span otherwise.
    pub fn name_span(&self) -> Span {
        match &self.kind {
            NodeKind::Compound { name_span, .. } => *name_span,
            _ => self.span,
        }
    }

    pub fn is_var(&self) -> bool {
        matches!(self.kind, NodeKind::Var { .. })
    }

    /// Whether this is `name(args)` with the given name and arity.
    pub fn is_functor(&self, name: Atom, arity: usize) -> bool {
        self.functor() == Some((name, arity))
    }
}

/// One clause (or directive) of a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    /// The whole clause as an owned term (`:-`(H, B) for rules, `:-`(G) for directives); variables
    /// are numbered 0.. in order of first occurrence and each `_` is a distinct variable.
    pub term: Term,
    /// The same clause as a spanned syntax tree.
    pub node: Node,
    /// The whole clause including its end `.`.
    pub span: Span,
    /// `var_names[i]` is the source name of `Term::Var(i)` (`_` for anonymous variables).
    pub var_names: Vec<String>,
    /// Whether the parser reported an error inside this clause and recovered (e.g. `name (x)` was read
    /// as `name(x)`, a missing argument as `_`). Such a clause is kept for tools (outline, navigation)
    /// but the file has errors and must not be run.
    pub has_errors: bool,
}

impl Clause {
    /// The head of a rule, the whole term of a fact. For a directive `:- G` this is the whole
    /// directive (check [`Clause::is_directive`] first).
    pub fn head(&self) -> &Node {
        match &self.node.kind {
            NodeKind::Compound { name, args, .. } if *name == atom::NECK && args.len() == 2 => {
                &args[0]
            }
            _ => &self.node,
        }
    }

    /// The body of a rule or the goal of a directive; `None` for a fact.
    pub fn body(&self) -> Option<&Node> {
        match &self.node.kind {
            NodeKind::Compound { name, args, .. }
                if *name == atom::NECK && (args.len() == 2 || args.len() == 1) =>
            {
                args.last()
            }
            _ => None,
        }
    }

    /// `:- Goal.` (also `?- Goal.`).
    pub fn is_directive(&self) -> bool {
        match &self.node.kind {
            NodeKind::Compound { name, args, .. } => {
                args.len() == 1 && (*name == atom::NECK || name.name() == "?-")
            }
            _ => false,
        }
    }

    /// The number of distinct variables of the clause.
    pub fn var_count(&self) -> usize {
        self.var_names.len()
    }
}

/// The result of parsing a file: every clause that could be read, and every diagnostic.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedFile {
    /// In source order.
    pub clauses: Vec<Clause>,
    /// Sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedFile {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The clause whose span contains byte `offset` (its end `.` included).
    pub fn clause_at(&self, offset: u32) -> Option<&Clause> {
        let i = self.clauses.partition_point(|c| c.span.end <= offset);
        self.clauses.get(i).filter(|c| c.span.start <= offset)
    }
}

/// One term read by [`parse_term`](super::parse_term).
#[derive(Clone, Debug, PartialEq)]
pub struct ReadTerm {
    pub term: Term,
    pub node: Node,
    /// `var_names[i]` is the source name of `Term::Var(i)`.
    pub var_names: Vec<String>,
}
