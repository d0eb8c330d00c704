//! Editor features over one source text, as plain data with byte spans (no protocol types): the
//! language server (`lsp/`) converts positions and types at its edge. One file per feature:
//! [`hover`], [`completion`], [`navigation`] (go to definition, find references),
//! [`symbols`] (document outline grouped by keyword), [`rename`], [`semantic_tokens`],
//! [`code_actions`]; [`keywords`] and [`builtins`] hold the documentation they show.
//!
//! ```
//! use sidl_engine::ide::{navigation, Document};
//! let doc = Document::new("legal([m]) :- ok.\nok.\n");
//! let call = doc.src.find("ok").unwrap() as u32;
//! let defs = navigation::definition(&doc, call);
//! assert_eq!(&doc.src[defs[0].range()], "ok");
//! assert_eq!(defs[0].start as usize, doc.src.rfind("ok").unwrap());
//! ```

pub mod builtins;
pub mod code_actions;
pub mod completion;
pub mod hover;
pub mod keywords;
pub mod navigation;
pub mod rename;
pub mod semantic_tokens;
pub mod symbols;

use crate::analysis::callgraph::{CallGraph, PredKey};
use crate::diag::{Diagnostic, Span};
use crate::syntax::{parse_file, Node, NodeKind, ParsedFile};

/// A parsed source text with its call graph: what every feature reads.
#[derive(Debug)]
pub struct Document {
    pub src: String,
    pub parsed: ParsedFile,
    pub graph: CallGraph,
}

/// A replacement of the text at `span`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub new_text: String,
}

/// What is at an offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// A predicate's name in a clause head (`definition`) or a call (`!definition`).
    Predicate {
        key: PredKey,
        span: Span,
        definition: bool,
    },
    /// A variable of clause `clause` (its number in the clause).
    Variable {
        clause: usize,
        number: u32,
        name: String,
        span: Span,
    },
}

impl Document {
    pub fn new(src: &str) -> Document {
        let parsed = parse_file(src);
        let graph = CallGraph::build(&parsed.clauses);
        Document {
            src: src.to_string(),
            parsed,
            graph,
        }
    }

    /// What `sidl check` reports for this text.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        crate::analysis::check_parsed(&self.parsed)
    }

    /// The index of the clause containing `offset`.
    pub fn clause_index_at(&self, offset: u32) -> Option<usize> {
        let cs = &self.parsed.clauses;
        let i = cs.partition_point(|c| c.span.end < offset);
        (i < cs.len() && cs[i].span.start <= offset).then_some(i)
    }

    /// The predicate a clause defines, with the span of its name (`None` for directives).
    pub fn head_of(&self, clause: usize) -> Option<(PredKey, Span)> {
        let key = self.graph.head_of(clause)?;
        Some((key, self.parsed.clauses[clause].head().name_span()))
    }

    /// The predicate or variable at byte `offset` (a cursor right after a name counts).
    pub fn symbol_at(&self, offset: u32) -> Option<Symbol> {
        let ci = self.clause_index_at(offset)?;
        let within = |s: Span| s.start <= offset && offset <= s.end;
        for site in self.graph.calls(ci) {
            if within(site.name_span) && !site.name_span.is_empty() {
                return Some(Symbol::Predicate {
                    key: site.callee,
                    span: site.name_span,
                    definition: false,
                });
            }
        }
        if let Some((key, span)) = self.head_of(ci) {
            if within(span) {
                return Some(Symbol::Predicate {
                    key,
                    span,
                    definition: true,
                });
            }
        }
        let clause = &self.parsed.clauses[ci];
        // prefer a variable ending at the cursor over the enclosing term
        let mut found = None;
        clause.node.walk(|n| {
            if let NodeKind::Var { number, name } = &n.kind {
                if within(n.span) && found.is_none() {
                    found = Some((*number, name.clone(), n.span));
                }
            }
        });
        if let Some((number, name, span)) = found {
            return Some(Symbol::Variable {
                clause: ci,
                number,
                name,
                span,
            });
        }
        None
    }

    /// The occurrences of variable `number` of clause `clause`, in source order.
    pub fn variable_occurrences(&self, clause: usize, number: u32) -> Vec<Span> {
        let mut out = Vec::new();
        if let Some(c) = self.parsed.clauses.get(clause) {
            c.node.walk(|n| {
                if let NodeKind::Var { number: k, name } = &n.kind {
                    if *k == number && name != "_" {
                        out.push(n.span);
                    }
                }
            });
        }
        out
    }

    /// The names of a clause's variables (without `_`).
    pub fn variable_names(&self, clause: usize) -> Vec<String> {
        let mut names: Vec<String> = self
            .parsed
            .clauses
            .get(clause)
            .map(|c| c.var_names.iter().filter(|n| *n != "_").cloned().collect())
            .unwrap_or_default();
        names.dedup();
        names
    }

    /// The first words of facts as written in `init/1` heads and `create/1` calls (`[card, P, C]`
    /// gives `card`), in order of first appearance.
    pub fn fact_words(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |n: &Node| {
            if let NodeKind::List { items, .. } = &n.kind {
                if let Some(NodeKind::Atom(a)) = items.first().map(|i| &i.kind) {
                    let w = a.name().to_string();
                    if !out.contains(&w) {
                        out.push(w);
                    }
                }
            }
        };
        for (ci, c) in self.parsed.clauses.iter().enumerate() {
            if let Some((key, _)) = self.head_of(ci) {
                if key.0.name() == "init" && key.1 == 1 {
                    if let Some(a) = c.head().args().first() {
                        add(a);
                    }
                }
            }
            if let Some(b) = c.body() {
                b.walk(|n| {
                    if let NodeKind::Compound { name, args, .. } = &n.kind {
                        if name.name() == "create" && args.len() == 1 {
                            add(&args[0]);
                        }
                    }
                });
            }
        }
        out
    }

    /// The text of `span`.
    pub fn text(&self, span: Span) -> &str {
        self.src.get(span.range()).unwrap_or("")
    }
}

#[cfg(test)]
mod tests;
