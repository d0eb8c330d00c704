//! `W0421`: layout rules that cannot give a layout (docs/reference.md "Layouts",
//! [`crate::game::layout`]): a `layout/1` clause whose part is no part the tools draw, a board
//! whose axes are not `X-Columns`/`Y-Rows`; and, on a sample
//! state (the initial state, for the designer and for each player), a layout or piece rule that
//! throws or runs out of its budget, a part that is malformed when it is built, or an image path
//! that is not a file next to the game. At run time such a part or piece is left out (never an
//! error of the game).

use super::codes;
use crate::diag::{Diagnostic, Span};
use crate::game::layout::{self, LAYOUT};
use crate::syntax::{NodeKind, ParsedFile};

/// The parts of `layout/1`: name and arity.
const PARTS: &[(&str, usize)] = &[("board", 3), ("table", 3), ("hand", 3), ("facts", 0)];

/// Every W0421 of a parsed file (unsorted).
pub fn check(parsed: &ParsedFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut first: Option<Span> = None;
    let mut first_piece: Option<Span> = None;
    for c in &parsed.clauses {
        if c.is_directive() || c.has_errors {
            continue;
        }
        let head = c.head();
        match head.functor() {
            Some((n, 1)) if n.name() == LAYOUT.0 => {}
            Some((n, 2)) if n.name() == layout::PIECE.0 => {
                first_piece.get_or_insert(head.span);
                continue;
            }
            _ => continue,
        }
        first.get_or_insert(head.span);
        let part = &head.args()[0];
        if matches!(part.kind, NodeKind::Var { .. }) {
            continue;
        }
        let known = part.functor().is_some_and(|(n, a)| {
            !matches!(part.kind, NodeKind::List { .. })
                && PARTS.iter().any(|&(pn, pa)| pn == n.name() && pa == a)
        });
        if !known {
            out.push(
                Diagnostic::warning(
                    codes::BAD_LAYOUT,
                    "not a layout part: this part is never drawn",
                    part.span,
                )
                .with_help("the parts are board(Pattern, X-Columns, Y-Rows), table(Title, Pattern, Cells), hand(Pattern, Owner, Item) and facts"),
            );
            continue;
        }
        if part.functor().is_some_and(|(n, _)| n.name() == "board") {
            for axis in &part.args()[1..] {
                let ok = match &axis.kind {
                    NodeKind::Var { .. } => true,
                    _ => axis
                        .functor()
                        .is_some_and(|(n, a)| n.name() == "-" && a == 2),
                };
                if !ok {
                    out.push(
                        Diagnostic::warning(
                            codes::BAD_LAYOUT,
                            "a board's axis is `X-Columns` (or `Y-Rows`): a variable of the pattern and the list of its values",
                            axis.span,
                        )
                        .with_help("e.g. layout(board([cell, X, Y, M], X-[1, 2, 3], Y-[3, 2, 1]))"),
                    );
                }
            }
        }
    }
    // a malformed part the clauses show is reported there, not again from the sample state
    let seen = !out.is_empty();
    out.extend(
        samples(parsed, first, first_piece)
            .into_iter()
            .filter(|d| !(seen && d.message.contains("leaves something out: a layout part"))),
    );
    out
}

/// The layout of the initial state, for the designer and each player: its errors at the first
/// `layout/1` clause (a `piece/2` error at the first `piece/2` clause).
fn samples(parsed: &ParsedFile, first: Option<Span>, first_piece: Option<Span>) -> Vec<Diagnostic> {
    use crate::game::{Session, Settings};
    if parsed.has_errors() {
        return Vec::new();
    }
    let Some(span) = first else {
        return Vec::new();
    };
    let Ok((game, _)) = crate::game::Game::from_parsed(parsed, "") else {
        return Vec::new();
    };
    let settings = Settings {
        limits: crate::solve::Limits {
            max_inferences: 200_000,
            ..crate::game::present::LABEL_LIMITS
        },
        interrupt: false,
    };
    let Ok(mut s) = Session::new(std::sync::Arc::new(game), 0, settings) else {
        return Vec::new();
    };
    let mut errors: Vec<String> = Vec::new();
    let viewers: Vec<Option<crate::term::Term>> = std::iter::once(None)
        .chain(s.players().into_iter().map(Some))
        .collect();
    for v in viewers {
        if let Ok(l) = layout::layout(&mut s, v.as_ref(), None) {
            for e in l.errors {
                if !errors.contains(&e) {
                    errors.push(e);
                }
            }
        }
    }
    errors
        .into_iter()
        .take(4)
        .map(|e| {
            let at = match first_piece {
                Some(p) if e.starts_with("piece/2") => p,
                _ => span,
            };
            Diagnostic::warning(
                codes::BAD_LAYOUT,
                format!("in the initial state the layout leaves something out: {e}"),
                at,
            )
            .with_help("a layout or piece rule should only look facts up; parts are board/3, table/3, hand/3, facts")
        })
        .collect()
}
