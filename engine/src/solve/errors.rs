//! Runtime errors as diagnostics: their stable codes (`E0910`–`E0969`, documented in
//! `docs/diagnostics.md`) and the one conversion, [`runtime_diagnostic`], that the CLI, the language
//! server and the playground all render: the message, the primary span on the innermost clause of
//! the game on the call path, a label on each calling clause, and a help text.

use super::machine::{ErrorKind, SolveError};
use crate::atom::{self, Atom};
use crate::diag::Diagnostic;
use crate::term::Term;

/// The stable codes of runtime errors.
pub mod codes {
    /// The inference budget (calls and built-in retries) of one query is used up.
    pub const INFERENCE_BUDGET: &str = "E0910";
    /// The heap budget (term cells, `findall/3` collections included) is used up.
    pub const HEAP_BUDGET: &str = "E0911";
    /// Too many open choicepoints.
    pub const CHOICEPOINT_BUDGET: &str = "E0912";
    /// Too many pending goals (the depth of non-tail recursion).
    pub const DEPTH_BUDGET: &str = "E0913";

    /// `instantiation_error`: a built-in needed a bound argument.
    pub const INSTANTIATION: &str = "E0920";
    /// `type_error(Type, Culprit)`.
    pub const TYPE: &str = "E0921";
    /// `domain_error(Domain, Culprit)`.
    pub const DOMAIN: &str = "E0922";
    /// `existence_error(procedure, Name/Arity)`: a call of an unknown predicate.
    pub const UNKNOWN_PROCEDURE: &str = "E0923";
    /// Any other `existence_error`.
    pub const EXISTENCE: &str = "E0924";
    /// `evaluation_error`: arithmetic such as a division by zero.
    pub const EVALUATION: &str = "E0925";
    /// `representation_error`: a value out of the range of its representation.
    pub const REPRESENTATION: &str = "E0926";
    /// `resource_error` raised by a built-in (a term too large to build).
    pub const RESOURCE: &str = "E0927";
    /// `permission_error`.
    pub const PERMISSION: &str = "E0928";
    /// `syntax_error`: text read at run time does not parse.
    pub const SYNTAX: &str = "E0929";
    /// Any other term thrown and not caught.
    pub const UNCAUGHT: &str = "E0930";

    /// A keyword answer the game manager needs ground is not (`init/1` word, `init/2` player).
    pub const NOT_GROUND: &str = "E0940";
    /// An account (`init/2`) or a payoff (`payoff/2`) that is not a number.
    pub const NOT_A_NUMBER: &str = "E0941";
    /// A chance switch that cannot be drawn: an invalid distribution, no actions, or unlimited ones.
    pub const CHANCE_SWITCH: &str = "E0942";
    /// A term used as a player is not one of the game's players.
    pub const NOT_A_PLAYER: &str = "E0943";
    /// A history or a snapshot that does not replay in this game.
    pub const REPLAY: &str = "E0944";
    /// `sidl bench`: the game is over in its initial state, so there is nothing to time.
    pub const TERMINAL_AT_START: &str = "E0945";
    /// A body keyword called while evaluating a keyword whose condition may not use it
    /// (docs/semantics.md §2.2), e.g. `create/1` reached from `legal/1` through a goal built at run time.
    pub const PLACEMENT: &str = "E0946";
    /// `sidl why`: a question about a chronon that has not run (or, before any chronon, about facts
    /// or payoffs).
    pub const NO_SUCH_CHRONON: &str = "E0947";
    /// The game's `objective/1` hook (docs/ai.md) gives something that is no AI objective.
    pub const BAD_OBJECTIVE: &str = "E0948";
    /// The extensive form (docs/analysis.md) has more nodes than its budget.
    pub const EFG_NODE_BUDGET: &str = "E0960";
    /// The extensive form meets an unlimited switch whose actions `candidate/2` does not list.
    pub const EFG_UNLIMITED: &str = "E0961";
    /// The extensive form of a game without payoffs (no `payoff/2`, or no play changes an account).
    pub const EFG_NO_PAYOFF: &str = "E0962";
    /// A play of the extensive form is longer than the chronon limit (a game that may never end).
    pub const EFG_TOO_LONG: &str = "E0963";
    /// A game the extensive form cannot represent (interrupt mode, too many combinations of one
    /// player's switches, a refused candidate action).
    pub const EFG_SHAPE: &str = "E0964";
    /// A solver or export asked of a game it does not apply to (the LP of a game that is not
    /// two-player zero-sum, a strategic form of a game that is not one-shot).
    pub const SOLVER_NOT_APPLICABLE: &str = "E0965";
    /// The build of an extensive form was stopped by its caller (the progress callback said stop).
    pub const ANALYSIS_STOPPED: &str = "E0966";

    /// Every runtime code, in order.
    pub const ALL: &[&str] = &[
        INFERENCE_BUDGET,
        HEAP_BUDGET,
        CHOICEPOINT_BUDGET,
        DEPTH_BUDGET,
        INSTANTIATION,
        TYPE,
        DOMAIN,
        UNKNOWN_PROCEDURE,
        EXISTENCE,
        EVALUATION,
        REPRESENTATION,
        RESOURCE,
        PERMISSION,
        SYNTAX,
        UNCAUGHT,
        NOT_GROUND,
        NOT_A_NUMBER,
        CHANCE_SWITCH,
        NOT_A_PLAYER,
        REPLAY,
        TERMINAL_AT_START,
        PLACEMENT,
        NO_SUCH_CHRONON,
        BAD_OBJECTIVE,
        EFG_NODE_BUDGET,
        EFG_UNLIMITED,
        EFG_NO_PAYOFF,
        EFG_TOO_LONG,
        EFG_SHAPE,
        SOLVER_NOT_APPLICABLE,
        ANALYSIS_STOPPED,
    ];
}

impl SolveError {
    /// The stable code of the error (see [`codes`]).
    pub fn code(&self) -> &'static str {
        if let ErrorKind::Budget(what) = self.kind {
            return match what {
                "inferences" => codes::INFERENCE_BUDGET,
                "heap" => codes::HEAP_BUDGET,
                "choicepoints" => codes::CHOICEPOINT_BUDGET,
                _ => codes::DEPTH_BUDGET,
            };
        }
        let formal = match &self.ball {
            Term::Compound(f, args) if *f == atom::ERROR && args.len() == 2 => &args[0],
            _ => return codes::UNCAUGHT,
        };
        let args = formal.args();
        match formal.functor().map(|(n, k)| (n.name(), k)) {
            Some(("instantiation_error", 0)) => codes::INSTANTIATION,
            Some(("type_error", 2)) => codes::TYPE,
            Some(("domain_error", 2)) => codes::DOMAIN,
            Some(("existence_error", 2)) if matches!(args[0], Term::Atom(atom::PROCEDURE)) => {
                codes::UNKNOWN_PROCEDURE
            }
            Some(("existence_error", 2)) => codes::EXISTENCE,
            Some(("evaluation_error", 1)) => codes::EVALUATION,
            Some(("representation_error", 1)) => codes::REPRESENTATION,
            Some(("resource_error", 1)) => codes::RESOURCE,
            Some(("permission_error", 3)) => codes::PERMISSION,
            Some(("syntax_error", 1)) => codes::SYNTAX,
            Some(("placement_error", 2)) => codes::PLACEMENT,
            _ => codes::UNCAUGHT,
        }
    }

    /// The error as a diagnostic ([`runtime_diagnostic`]) with its own message.
    pub fn to_diagnostic(&self) -> Diagnostic {
        runtime_diagnostic(self.code(), self.message.clone(), Some(self))
    }
}

/// Whether `catch/3` may not catch `ball`: a placement error
/// (`error(placement_error(Keyword, During), _)`, raised by the game manager's body keywords) ends
/// the query like a budget, so that no rule can hide a misplaced call.
pub fn uncatchable(ball: &Term) -> bool {
    match ball {
        Term::Compound(f, args) if *f == atom::ERROR && args.len() == 2 => {
            matches!(args[0].functor(), Some((n, 2)) if n.name() == "placement_error")
        }
        _ => false,
    }
}

/// What to do about an error with code `code`.
pub fn help(code: &str) -> &'static str {
    match code {
        codes::INFERENCE_BUDGET => "a rule may recurse without end; a long but finite computation needs a larger budget (`--max-inferences`, `setLimits`)",
        codes::HEAP_BUDGET => "a term or a `findall/3` collection grows without bound; build less, or raise the budget",
        codes::CHOICEPOINT_BUDGET => "a generator leaves alternatives open; commit with `once/1` or a cut where one answer is enough",
        codes::DEPTH_BUDGET => "the recursion is too deep; make the recursive call the clause's last goal, or recurse less",
        codes::INSTANTIATION => "bind the variable before the call (a built-in needs its value)",
        codes::TYPE => "the argument has the wrong type for this built-in",
        codes::DOMAIN => "the argument is of the right type but outside the values this built-in accepts",
        codes::UNKNOWN_PROCEDURE => "define the predicate, or correct the name or the number of arguments (`sidl check` reports W0401)",
        codes::EXISTENCE => "the thing the built-in refers to does not exist",
        codes::EVALUATION => "an arithmetic operation is undefined for these values (e.g. a division by zero)",
        codes::REPRESENTATION => "the value does not fit its representation (e.g. an integer out of range)",
        codes::RESOURCE => "a built-in would build a term too large",
        codes::PERMISSION => "the built-in may not do this (e.g. modify a static predicate)",
        codes::SYNTAX => "the text read at run time does not parse",
        codes::UNCAUGHT => "catch the term with `catch/3`, or do not throw it",
        codes::NOT_GROUND => "the game manager needs a ground answer: bind every variable of the head in the body",
        codes::NOT_A_NUMBER => "accounts and payoffs are integers or floats",
        codes::CHANCE_SWITCH => "a chance switch needs a finite, non-empty action list and `equal(N)` with N its number of actions, or one probability per action summing to 1",
        codes::NOT_A_PLAYER => "players are the first arguments of `init/2`",
        codes::REPLAY => "the history was recorded with another game, seed or mode",
        codes::TERMINAL_AT_START => "the game has no legal switch in its initial state: check `init/1` and `legal/1`",
        codes::PLACEMENT => "each head keyword's condition may use only some body keywords (docs/reference.md, Placement); `sidl check` reports the calls it can see (E0301) and warns where a goal is built at run time (W0303)",
        _ => "",
    }
}

/// The one conversion of a runtime error to a [`Diagnostic`]: code, `message`, the help of the code;
/// with the solver's error `solve`, the primary span is the innermost clause of the game on its call
/// path and each clause of the game that called the next predicate of the path gets a label
/// (`` `p/1` calls `q/2` ``). Without a clause of the game the diagnostic is not located
/// ([`Diagnostic::located`] is false).
pub fn runtime_diagnostic(
    code: &'static str,
    message: String,
    solve: Option<&SolveError>,
) -> Diagnostic {
    let span = solve.and_then(|e| e.span());
    let mut d = Diagnostic::error(code, message, span.unwrap_or_default());
    d.located = span.is_some();
    if let Some(e) = solve {
        let show = |(n, a): (Atom, u32)| format!("`{n}/{a}`");
        for (i, pair) in e.path.windows(2).enumerate() {
            if let Some(Some(at)) = e.path_spans.get(i) {
                if Some(*at) != span {
                    d = d.with_label(*at, format!("{} calls {}", show(pair[0]), show(pair[1])));
                }
            }
        }
    }
    let h = help(code);
    if !h.is_empty() {
        d = d.with_help(h);
    }
    d
}
