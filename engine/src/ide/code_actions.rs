//! Code actions: the fixes attached to diagnostics (`E0013` `name (x)` → `name(x)`, `E0014`
//! `: -` → `:-`, "did you mean" for undefined predicates, ...) and a few cheap ones of our own
//! (a clause for an undefined predicate).

use super::{Document, Edit};
use crate::analysis::codes;
use crate::diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    pub edits: Vec<Edit>,
    /// The index (in the given diagnostics) of the diagnostic this action fixes.
    pub diagnostic: Option<usize>,
    /// The fix to apply when the user asks for "the" fix.
    pub preferred: bool,
}

/// The actions for the diagnostics that touch `range` (a cursor is an empty range).
pub fn code_actions(doc: &Document, diags: &[Diagnostic], range: Span) -> Vec<CodeAction> {
    let touches = |s: Span| s.start <= range.end && range.start <= s.end;
    let mut out = Vec::new();
    for (i, d) in diags.iter().enumerate() {
        if !touches(d.span) {
            continue;
        }
        let single = d.fixes.len() == 1;
        for f in &d.fixes {
            out.push(CodeAction {
                title: f.title.clone(),
                edits: vec![Edit {
                    span: f.span,
                    new_text: f.replacement.clone(),
                }],
                diagnostic: Some(i),
                preferred: single,
            });
        }
        if d.code == codes::UNDEFINED_PREDICATE {
            if let Some(a) = define_stub(doc, d.span, i) {
                out.push(a);
            }
        }
    }
    out
}

/// "Add a clause for `p/2`" for an undefined call at `span`: `p(_, _) :- true.` at the end (anonymous
/// arguments: named ones would each be a singleton, W0403).
fn define_stub(doc: &Document, span: Span, diagnostic: usize) -> Option<CodeAction> {
    let site = (0..doc.parsed.clauses.len())
        .flat_map(|ci| doc.graph.calls(ci))
        .find(|s| s.span == span)?;
    let (name, arity) = site.callee;
    let head = crate::write::writeq(&crate::term::Term::Atom(name), None);
    let args = vec!["_"; arity as usize];
    let head = if args.is_empty() {
        head
    } else {
        format!("{head}({})", args.join(", "))
    };
    let end = doc.src.len();
    let sep = if doc.src.ends_with('\n') || doc.src.is_empty() {
        ""
    } else {
        "\n"
    };
    Some(CodeAction {
        title: format!("add a clause for `{name}/{arity}`"),
        edits: vec![Edit {
            span: Span::new(end, end),
            new_text: format!("{sep}{head} :-\n    true.\n"),
        }],
        diagnostic: Some(diagnostic),
        preferred: false,
    })
}
