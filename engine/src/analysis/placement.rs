//! Keyword placement (docs/semantics.md §2.2): which body keywords the condition of each head keyword may
//! use, directly or through the helper predicates it calls, and head keywords called from a body.
//!
//! Body keywords defined by a game are reported by the loader (`E0105`).

use super::callgraph::{show, CallGraph, PredKey};
use super::codes;
use crate::atom::{self, Atom};
use crate::diag::Diagnostic;
use crate::syntax::Clause;

/// The head keywords: `game/1` (and its old spelling `name/1`), `init/1`, `init/2`, `hidden/2`,
/// `legal/1`, `switch/2`, `unlimited/2`, `owned/2`, `default/2`, `do/1`, `payoff/2`.
pub const HEAD_KEYWORDS: &[(Atom, u32)] = &[
    (atom::GAME, 1),
    (atom::NAME, 1),
    (atom::INIT, 1),
    (atom::INIT, 2),
    (atom::HIDDEN, 2),
    (atom::LEGAL, 1),
    (atom::SWITCH, 2),
    (atom::UNLIMITED, 2),
    (atom::OWNED, 2),
    (atom::DEFAULT, 2),
    (atom::DO, 1),
    (atom::PAYOFF, 2),
];

/// The body keywords (provided by the game manager).
pub const BODY_KEYWORDS: &[(Atom, u32)] = crate::game::host::KEYWORD_PREDICATES;

pub fn is_head_keyword(key: PredKey) -> bool {
    HEAD_KEYWORDS.contains(&key)
}

pub fn is_body_keyword(key: PredKey) -> bool {
    BODY_KEYWORDS.contains(&key)
}

/// Whether `name` is a keyword name (with any arity).
pub fn is_keyword_name(name: Atom) -> bool {
    HEAD_KEYWORDS
        .iter()
        .chain(BODY_KEYWORDS)
        .any(|k| k.0 == name)
}

/// The keyword arities of `name` (empty if it is no keyword).
pub fn keyword_arities(name: Atom) -> Vec<u32> {
    HEAD_KEYWORDS
        .iter()
        .chain(BODY_KEYWORDS)
        .filter(|k| k.0 == name)
        .map(|k| k.1)
        .collect()
}

/// The body keywords the condition of head keyword `head` may use (the table of §2).
pub fn allowed_body_keywords(head: Atom) -> &'static [Atom] {
    match head {
        atom::HIDDEN => &[atom::PLAYER],
        atom::LEGAL | atom::OWNED | atom::SWITCH | atom::UNLIMITED | atom::DEFAULT => {
            &[atom::PLAYER, atom::FACT]
        }
        atom::DO => &[
            atom::PLAYER,
            atom::FACT,
            atom::CREATE,
            atom::DELETE,
            atom::DOES,
        ],
        atom::PAYOFF => &[
            atom::PLAYER,
            atom::FACT,
            atom::TOCREATE,
            atom::TODELETE,
            atom::DOES,
        ],
        _ => &[],
    }
}

fn list(names: &[Atom]) -> String {
    if names.is_empty() {
        return "no body keyword".to_string();
    }
    names
        .iter()
        .map(|&n| {
            let a = BODY_KEYWORDS.iter().find(|k| k.0 == n).map_or(1, |k| k.1);
            show((n, a))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Placement diagnostics: `E0301` (a body keyword the head keyword's condition may not use), once per
/// (call site, head keyword); `E0302` (a head keyword called from a body), once per call site;
/// `W0303` (a call whose goal is not known statically, in a head keyword's condition), once per call
/// site.
pub fn check_placement(clauses: &[Clause], graph: &CallGraph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (ci, _) in clauses.iter().enumerate() {
        for s in graph.calls(ci) {
            if is_head_keyword(s.callee) {
                let k = show(s.callee);
                out.push(
                    Diagnostic::error(
                        codes::HEAD_KEYWORD_CALLED,
                        format!("`{k}` is a head keyword: the game manager calls it, a body cannot"),
                        s.span,
                    )
                    .with_help(format!(
                        "move the condition of `{k}` into a helper predicate and call that from both places"
                    )),
                );
            }
        }
    }
    for &kw in HEAD_KEYWORDS {
        if !graph.is_defined(kw) {
            continue;
        }
        let allowed = allowed_body_keywords(kw.0);
        // helpers only: keywords are not followed (a call of one is E0302)
        let reach = graph.reach_through([kw], |p| !is_head_keyword(p));
        let mut preds: Vec<PredKey> = reach.iter().collect();
        by_first_clause(graph, &mut preds);
        for p in preds {
            let path = reach.path(p);
            for (_, s) in graph.calls_of(p) {
                if !is_body_keyword(s.callee) || allowed.contains(&s.callee.0) {
                    continue;
                }
                let mut names: Vec<String> = path.iter().map(|&q| show(q)).collect();
                names.push(show(s.callee));
                let route = names.join(" → ");
                let message = if path.len() == 1 {
                    format!(
                        "`{}` cannot be used in the condition of `{}`",
                        show(s.callee),
                        show(kw)
                    )
                } else {
                    format!(
                        "`{}` cannot be used in the condition of `{}` (called through {route})",
                        show(s.callee),
                        show(kw)
                    )
                };
                let mut d =
                    Diagnostic::error(codes::BODY_KEYWORD_PLACEMENT, message, s.span).with_help(
                        format!("the condition of `{}` may use {}", show(kw), list(allowed)),
                    );
                // each step of the path, where it is called
                for w in path.windows(2) {
                    if let Some((_, site)) = graph.calls_of(w[0]).find(|(_, c)| c.callee == w[1]) {
                        d = d.with_label(
                            site.span,
                            format!("`{}` calls `{}` here", show(w[0]), show(w[1])),
                        );
                    }
                }
                out.push(d);
            }
        }
    }
    out.extend(unknown_goals(graph));
    out
}

/// `W0303`: a call in a head keyword's condition (or a helper it reaches) whose goal is not known
/// statically, once per call site (for the first head keyword, in [`HEAD_KEYWORDS`] order, that
/// reaches it).
/// Sorts predicates by their first clause (undefined ones first), stably: one instantiation of the
/// standard library's sort for both passes (the wasm's size).
fn by_first_clause(graph: &CallGraph, preds: &mut [PredKey]) {
    crate::stable_sort::sort_by_key(preds, |&p| graph.clauses_of(p).first().copied());
}

fn unknown_goals(graph: &CallGraph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &kw in HEAD_KEYWORDS {
        if !graph.is_defined(kw) {
            continue;
        }
        let reach = graph.reach_through([kw], |p| !is_head_keyword(p));
        let mut preds: Vec<PredKey> = reach.iter().collect();
        by_first_clause(graph, &mut preds);
        for p in preds {
            for &c in graph.clauses_of(p) {
                for &span in graph.unknown_calls(c) {
                    if !seen.insert(span) {
                        continue;
                    }
                    let path = reach.path(p);
                    let route: Vec<String> = path.iter().map(|&q| show(q)).collect();
                    let mut d = Diagnostic::warning(
                        codes::UNKNOWN_GOAL,
                        "the goal of this call is not known before the game runs; its placement is checked at run time",
                        span,
                    )
                    .with_help(format!(
                        "this call is part of the condition of `{}` (through {}), which may use {}: a call of another body keyword is runtime error E0946",
                        show(kw),
                        route.join(" → "),
                        list(allowed_body_keywords(kw.0))
                    ));
                    for w in path.windows(2) {
                        if let Some((_, site)) =
                            graph.calls_of(w[0]).find(|(_, c)| c.callee == w[1])
                        {
                            d = d.with_label(
                                site.span,
                                format!("`{}` calls `{}` here", show(w[0]), show(w[1])),
                            );
                        }
                    }
                    out.push(d);
                }
            }
        }
    }
    out
}
