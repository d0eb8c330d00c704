//! The logic engine: term store, compiled programs, the resolution machine, built-ins and queries.

pub mod arith;
pub mod build;
pub mod builtins;
pub mod compile;
pub mod errors;
pub mod host;
pub mod machine;
mod memoizable;
pub mod program;
pub mod query;
pub mod specialise;
pub mod statememo;
pub mod store;
pub mod wam;

pub use build::ProgramBuilder;
pub use compile::SourceClause;
pub use machine::{ErrorKind, Limits, Machine, SolveError};
pub use program::Program;
pub use query::Query;

use crate::atom;
use crate::term::Term;

/// A readable message for a thrown term (ISO error terms get their usual wording).
pub fn describe_error(ball: &Term) -> String {
    let show = |t: &Term| crate::write::writeq(t, None);
    let (formal, context) = match ball {
        Term::Compound(f, args) if *f == atom::ERROR && args.len() == 2 => {
            (&args[0], Some(&args[1]))
        }
        other => return format!("Unhandled exception: {}", show(other)),
    };
    let at = match context {
        Some(Term::Compound(c, a))
            if *c == atom::CONTEXT && a.len() == 2 && !matches!(a[0], Term::Var(_)) =>
        {
            format!(" (in {})", show(&a[0]))
        }
        _ => String::new(),
    };
    let a = formal.args();
    if let (Some(("placement_error", 2)), [keyword, during]) =
        (formal.functor().map(|(n, k)| (n.name(), k)), a)
    {
        return match during {
            Term::Atom(_) => format!(
                "`{}` cannot be used in a query that is no head keyword's (it may use player/1, fact/1)",
                show(keyword)
            ),
            _ => format!(
                "`{}` cannot be used in the condition of `{}`",
                show(keyword),
                show(during)
            ),
        };
    }
    let msg = match (formal.functor().map(|(n, k)| (n.name(), k)), a) {
        (Some(("instantiation_error", 0)), _) => {
            "Arguments are not sufficiently instantiated".to_string()
        }
        (Some(("type_error", 2)), [kind, culprit]) => format!(
            "Type error: expected {}, found {}",
            show(kind),
            show(culprit)
        ),
        (Some(("domain_error", 2)), [dom, culprit]) => format!(
            "Domain error: expected {}, found {}",
            show(dom),
            show(culprit)
        ),
        (Some(("existence_error", 2)), [Term::Atom(atom::PROCEDURE), culprit]) => {
            return format!("Unknown procedure: {}", show(culprit));
        }
        (Some(("existence_error", 2)), [kind, culprit]) => format!(
            "Existence error: {} {} does not exist",
            show(kind),
            show(culprit)
        ),
        (Some(("evaluation_error", 1)), [what]) => {
            format!("Arithmetic: evaluation error: {}", show(what))
        }
        (Some(("representation_error", 1)), [what]) => {
            format!("Representation error: {}", show(what))
        }
        (Some(("resource_error", 1)), [what]) => format!("Resource error: {}", show(what)),
        (Some(("permission_error", 3)), [action, kind, culprit]) => {
            format!(
                "No permission to {} {} {}",
                show(action),
                show(kind),
                show(culprit)
            )
        }
        (Some(("syntax_error", 1)), [what]) => format!("Syntax error: {}", show(what)),
        _ => format!("Unhandled exception: {}", show(ball)),
    };
    format!("{msg}{at}")
}

#[cfg(test)]
mod tests;
