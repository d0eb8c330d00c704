//! Static analyses of a game's source: keyword placement ([`placement`], docs/semantics.md §2.2), lints
//! ([`lints`]) over a call graph ([`callgraph`]), and the Def.1 §11 hidden-information checks
//! ([`hidden_static`], `W0501`; [`hidden_dynamic`]: exploration with counterexamples). Pure; spans are bytes.
//!
//! [`check`] is what `sidl check` (and later the language server) runs: syntax, load, placement and
//! lint diagnostics, sorted by position. The codes are documented in `docs/diagnostics.md`
//! (placement `E03xx`, lints `W04xx`/`E04xx`).
//!
//! ```
//! let src = "game(g).\ninit([p], 0).\nlegal([s]) :- create([x]).\nswitch([s], [a]).\nowned([s], [p]).\n";
//! let diags = sidl_engine::analysis::check(src);
//! assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0301"]);
//! assert!(diags[0].message.contains("`create/1` cannot be used in the condition of `legal/1`"));
//! ```

pub mod callgraph;
pub mod extensive;
pub mod hidden_dynamic;
pub mod hidden_static;
pub mod layouts;
pub mod lints;
pub mod placement;

use crate::diag::Diagnostic;
use crate::solve::{ProgramBuilder, SourceClause};
use crate::syntax::{parse_file, ParsedFile};
use crate::term::Term;
use callgraph::CallGraph;

/// The stable codes of the analyses (see `docs/diagnostics.md`).
pub mod codes {
    /// A body keyword used (directly or through helpers) in the condition of a head keyword whose
    /// table row does not allow it.
    pub const BODY_KEYWORD_PLACEMENT: &str = "E0301";
    /// A head keyword called from a body.
    pub const HEAD_KEYWORD_CALLED: &str = "E0302";
    /// A call in a keyword's condition (or a helper it reaches) whose goal is not known before the
    /// game runs: its placement is checked at run time (`E0946`).
    pub const UNKNOWN_GOAL: &str = "W0303";

    /// A call of a predicate that is neither defined nor built in.
    pub const UNDEFINED_PREDICATE: &str = "W0401";
    /// A keyword name with the wrong arity (`legal/2`, `fact/2`).
    pub const KEYWORD_ARITY: &str = "W0402";
    /// A named variable that occurs once in its clause.
    pub const SINGLETON: &str = "W0403";
    /// A variable of a negation that is not bound before it.
    pub const UNBOUND_IN_NEGATION: &str = "W0404";
    /// A variable of an arithmetic evaluation or comparison that cannot be bound before it.
    pub const UNBOUND_IN_ARITHMETIC: &str = "W0405";
    /// A helper predicate that no keyword reaches.
    pub const UNUSED_PREDICATE: &str = "W0406";
    /// A game without `init/2` (no players).
    pub const NO_PLAYERS: &str = "W0407";
    /// `equal(N)` whose `N` differs from the switch's number of actions.
    pub const EQUAL_COUNT: &str = "E0408";
    /// A list of probabilities that does not sum to 1 (or has a negative element, or the wrong length).
    pub const PROBABILITIES: &str = "E0409";
    /// A `default/2` action that is not an action of its switch.
    pub const DEFAULT_NOT_ACTION: &str = "E0410";
    /// An action that no `do/1` clause handles.
    pub const NO_DO: &str = "W0411";
    /// A clause identical to an earlier one (up to variable names).
    pub const DUPLICATE_CLAUSE: &str = "W0412";
    /// `name/1` instead of `game/1`.
    pub const NAME_NOT_GAME: &str = "W0413";
    /// A game without `legal/1`: it ends at once.
    pub const NO_LEGAL: &str = "W0414";
    /// `fact(W)` or `delete(W)` of a form that no `init/1` or `create/1` produces.
    pub const NEVER_CREATED: &str = "W0415";
    /// A legal switch that no `owned/2` clause applies to.
    pub const NO_OWNER: &str = "W0416";
    /// A legal switch that no `switch/2` or `unlimited/2` clause applies to.
    pub const NO_ACTIONS: &str = "W0417";
    /// A variable of a keyword's answer argument that the body never binds.
    pub const UNSAFE_HEAD: &str = "W0418";
    /// A `label` clause that cannot give text: a wrong arity, a thing that is no label's thing, a
    /// text that is an unbound variable (docs/reference.md "Labels").
    pub const BAD_LABEL: &str = "W0420";
    /// A `layout/1` part the tools cannot draw, or a layout rule that fails with an error in the
    /// initial state (docs/reference.md "Layouts").
    pub const BAD_LAYOUT: &str = "W0421";
    /// A `(Name, Type)` in an `unlimited/2` template whose `Type` is not a slot type (a load error).
    pub const UNKNOWN_SLOT_TYPE: &str = "E0419";
    /// An `unlimited/2` template that no `switch/2` clause accepts: every submission is rejected.
    pub const UNLIMITED_NOT_ACCEPTED: &str = "W0422";

    /// Every analysis code, in order.
    pub const ALL: &[&str] = &[
        BODY_KEYWORD_PLACEMENT,
        HEAD_KEYWORD_CALLED,
        UNKNOWN_GOAL,
        UNDEFINED_PREDICATE,
        KEYWORD_ARITY,
        SINGLETON,
        UNBOUND_IN_NEGATION,
        UNBOUND_IN_ARITHMETIC,
        UNUSED_PREDICATE,
        NO_PLAYERS,
        EQUAL_COUNT,
        PROBABILITIES,
        DEFAULT_NOT_ACTION,
        NO_DO,
        DUPLICATE_CLAUSE,
        NAME_NOT_GAME,
        NO_LEGAL,
        NEVER_CREATED,
        NO_OWNER,
        NO_ACTIONS,
        UNSAFE_HEAD,
        UNKNOWN_SLOT_TYPE,
        BAD_LABEL,
        BAD_LAYOUT,
        UNLIMITED_NOT_ACCEPTED,
    ];
}

/// Everything `sidl check` reports for a source text: syntax (`E00xx`), load (`E01xx`, `W0104`),
/// placement (`E03xx`) and lint (`W04xx`/`E04xx`) diagnostics, sorted by position.
pub fn check(src: &str) -> Vec<Diagnostic> {
    let parsed = parse_file(src);
    check_parsed(&parsed)
}

/// [`check`] of an already parsed file (the language server keeps the parse).
pub fn check_parsed(parsed: &ParsedFile) -> Vec<Diagnostic> {
    let mut diags = parsed.diagnostics.clone();
    diags.extend(load_diagnostics(parsed));
    diags.extend(analyze(parsed));
    sort(&mut diags);
    diags
}

/// The diagnostics of loading the parsed file as a game (directives, non-callable heads, body
/// keywords defined by the game, redefined library predicates, unknown slot types of `unlimited/2`
/// templates): what `Game::load` reports besides syntax errors.
pub fn load_diagnostics(parsed: &ParsedFile) -> Vec<Diagnostic> {
    let clauses = parsed.clauses.iter().map(|c| SourceClause {
        term: c.term.clone(),
        span: c.span,
        var_names: c.var_names.clone().into(),
    });
    let (_, mut diags) = ProgramBuilder::new()
        .host_predicates(&crate::game::host::keyword_predicates())
        .clauses(clauses)
        .build();
    diags.extend(lints::unknown_slot_types(&parsed.clauses));
    diags
}

/// Placement and lint diagnostics of a parsed file (unsorted).
pub fn analyze(parsed: &ParsedFile) -> Vec<Diagnostic> {
    let graph = CallGraph::build(&parsed.clauses);
    let mut out = placement::check_placement(&parsed.clauses, &graph);
    out.extend(lints::lint(&parsed.clauses, &graph));
    out.extend(hidden_information(parsed, &graph));
    out.extend(label_samples(parsed));
    out.extend(layouts::check(parsed));
    out
}

/// Does `t` fit the pattern `p` (its variables match anything; a quick filter, not unification)?
fn fits(p: &Term, t: &Term) -> bool {
    let mut stack = vec![(p, t)];
    while let Some((p, t)) = stack.pop() {
        match (p, t) {
            (Term::Var(_), _) => {}
            (Term::Compound(f, a), Term::Compound(g, b)) if f == g && a.len() == b.len() => {
                stack.extend(a.iter().zip(b.iter()));
            }
            _ if p == t => {}
            _ => return false,
        }
    }
    true
}

/// The most label queries [`label_samples`] asks.
const MAX_LABEL_SAMPLES: usize = 64;

/// `W0420` on a sample state: the game's labels of the initial state (its players and roles, its
/// facts, its legal switches and their finite actions, the description) asked as the designer
/// sees them; a label rule that throws or runs out of its budget there is reported at the first
/// `label` clause for that kind of thing (at run time it shows the raw term). Cheap: nothing when
/// the game has no labels; the initial state under a small budget, at most
/// [`MAX_LABEL_SAMPLES`] queries.
fn label_samples(parsed: &ParsedFile) -> Vec<Diagnostic> {
    use crate::game::present::{has_labels, Presenter, Thing};
    use crate::game::{Actions, Session, Settings};
    if parsed.has_errors() {
        return Vec::new();
    }
    let Ok((game, _)) = crate::game::Game::from_parsed(parsed, "") else {
        return Vec::new();
    };
    if !has_labels(&game) {
        return Vec::new();
    }
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
    let Ok(mut pr) = Presenter::new(&mut s, None, None) else {
        return Vec::new();
    };
    let mut things = vec![Thing::Game];
    for p in s.players() {
        things.push(Thing::Player(p.clone()));
        things.push(Thing::Role(p));
    }
    things.extend(s.state().facts.terms().map(|f| Thing::Fact(f.clone())));
    if let Ok(sws) = s.switches() {
        for sw in sws.iter() {
            things.push(Thing::Switch(sw.id.clone()));
            if let Actions::Finite(acts) = &sw.actions {
                things.extend(acts.iter().map(|a| Thing::Action {
                    switch: sw.id.clone(),
                    action: a.clone(),
                }));
            }
        }
    }
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut reported: Vec<String> = Vec::new();
    for thing in things.into_iter().take(MAX_LABEL_SAMPLES) {
        let kind = match thing.term().functor() {
            Some((n, _)) => n.name().to_string(),
            None => continue,
        };
        if reported.contains(&kind) {
            continue;
        }
        pr.label(&thing);
        let Some(e) = pr.take_error() else { continue };
        // the first label clause the query tries whose thing fits (label/2 before label/3)
        let th = thing.term();
        let span = [2usize, 3].iter().find_map(|&arity| {
            parsed.clauses.iter().find_map(|c| {
                let head = c.head();
                match head.functor() {
                    Some((n, a)) if n.name() == "label" && a == arity => {
                        let pattern = head.args()[0].to_term();
                        fits(&pattern, &th).then_some(head.args()[0].span)
                    }
                    _ => None,
                }
            })
        });
        let Some(span) = span else { continue };
        reported.push(kind);
        out.push(
            Diagnostic::warning(
                codes::BAD_LABEL,
                format!(
                    "the label of {} fails with an error in the initial state ({}): the raw term is shown instead",
                    crate::write::writeq(&thing.term(), None),
                    e.message
                ),
                span,
            )
            .with_help("a label rule should only look facts up: no throw, no unbounded search"),
        );
    }
    out
}

/// Clauses larger than this skip the static §11 analysis.
const MAX_STATIC_CLAUSE_NODES: usize = 2_000;

/// The Def.1 §11 static hidden-information analysis ([`hidden_static`], `W0501`) of a game that
/// loads (a game that does not load is reported by the loader).
fn hidden_information(parsed: &ParsedFile, _graph: &CallGraph) -> Vec<Diagnostic> {
    if parsed.has_errors() {
        return Vec::new();
    }
    // the abstract interpretation recurses over terms: very large clauses (data tables of many
    // thousands of nodes) are left to the dynamic check
    let too_large = parsed.clauses.iter().any(|c| {
        let mut n = 0usize;
        c.term.walk(|_| n += 1);
        n > MAX_STATIC_CLAUSE_NODES
    });
    if too_large {
        return Vec::new();
    }
    match crate::game::Game::from_parsed(parsed, "") {
        Ok((game, _)) => hidden_static::check_game(&game, &parsed.clauses),
        Err(_) => Vec::new(),
    }
}

/// Sorts by position, then code; removes exact duplicates.
pub fn sort(diags: &mut Vec<Diagnostic>) {
    crate::stable_sort::sort_by(diags, |a, b| {
        (a.span.start, a.span.end, a.code, &a.message).cmp(&(
            b.span.start,
            b.span.end,
            b.code,
            &b.message,
        ))
    });
    diags.dedup();
}
