//! Documentation of the SIDL3.0 keywords (the paper's Def.1 and `docs/reference.md`), with where each
//! may appear: for a head keyword, the body keywords its rules may use (the placement table of
//! [`placement`]); for a body keyword, the head keywords whose rules may use it.

use crate::analysis::callgraph::{show, PredKey};
use crate::analysis::placement::{allowed_body_keywords, BODY_KEYWORDS, HEAD_KEYWORDS};
use crate::atom::Atom;

/// One keyword's documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeywordDoc {
    pub name: &'static str,
    pub arity: u32,
    /// The call with argument names, e.g. `legal(Switch)`.
    pub signature: &'static str,
    /// What it means (from the paper and `docs/reference.md`).
    pub summary: &'static str,
    /// A completion snippet (LSP snippet syntax: `$1`, `${1:name}`, `$0`).
    pub snippet: &'static str,
}

const DOCS: &[KeywordDoc] = &[
    KeywordDoc { name: "game", arity: 1, signature: "game(Name)",
        summary: "Names the game. The paper writes `name(Name)`; both are accepted. The name appears in no output.",
        snippet: "game(${1:name})." },
    KeywordDoc { name: "name", arity: 1, signature: "name(Name)",
        summary: "The paper's spelling of `game/1`: names the game (prefer `game/1`).",
        snippet: "name(${1:name})." },
    KeywordDoc { name: "init", arity: 1, signature: "init(Word)",
        summary: "Def.1 s₀: every solution `Word` is a fact of the initial state, in solution order (a repeated word is skipped). A non-ground word is a runtime error.",
        snippet: "init([${1:word}])." },
    KeywordDoc { name: "init", arity: 2, signature: "init(Player, Account)",
        summary: "Def.1 N: every solution declares the player `Player` with the initial account `Account` (a number). Players keep the order of their first solution.",
        snippet: "init([${1:player}], ${2:0})." },
    KeywordDoc { name: "hidden", arity: 2, signature: "hidden(Word, Player)",
        summary: "Def.1 H: the fact `Word` is hidden from `Player`. Called with both arguments bound, once per (player, fact); one solution suffices. Hidden facts must not leak through owners, actions or legality (Def.1 §11).",
        snippet: "hidden([${1:word}], [${2:player}]) :-\n    ${0:true}." },
    KeywordDoc { name: "legal", arity: 1, signature: "legal(Switch)",
        summary: "Def.1 L: `Switch` is a legal switch in the current state. Called with `Switch` unbound; the distinct solutions are the legal switches. A state without a legal switch is terminal.",
        snippet: "legal([${1:switch}]) :-\n    ${0:fact([])}." },
    KeywordDoc { name: "switch", arity: 2, signature: "switch(Switch, Action)",
        summary: "Def.1 P: the actions of the legal switch `Switch` (bound) are the distinct solutions `Action`, in solution order. For an unlimited switch it validates a submitted action.",
        snippet: "switch([${1:switch}], [${2:action}]) :-\n    ${0:true}." },
    KeywordDoc { name: "unlimited", arity: 2, signature: "unlimited(Switch, Template)",
        summary: "If it has solutions for `Switch`, the switch is unlimited: its solutions are action templates in which a slot `(Name, Type)` (type `double`, `integer`, `number`, `atom` or `term`) stands for a value the player types: a `double` takes a float or an integer, held as the equal float (`2` is `2.0` in the action, `does/2`, the facts and the history); an `integer` only an integer; a `number` either, as written. Any other type is the load error E0419.",
        snippet: "unlimited([${1:switch}], [${2:action}, (${3:value}, ${4|number,integer,double,atom,term|})])." },
    KeywordDoc { name: "owned", arity: 2, signature: "owned(Switch, Owner)",
        summary: "Def.1 O: who owns the legal switch `Switch` (first solution): a player, `equal(N)` (nature, uniform over N actions), a list of probabilities (nature), or anything else (nobody: its default applies).",
        snippet: "owned([${1:switch}], [${2:player}]) :-\n    ${0:true}." },
    KeywordDoc { name: "default", arity: 2, signature: "default(Switch, Action)",
        summary: "The action of the legal switch `Switch` when nobody submitted one (first solution). Without a solution, the first action of `switch/2` applies. Chance switches always draw.",
        snippet: "default([${1:switch}], [${2:action}]) :-\n    ${0:true}." },
    KeywordDoc { name: "do", arity: 1, signature: "do(Action)",
        summary: "Def.1 ▷: the effect of `Action` (bound), once per legal switch. The first solution is committed with its `create/1` and `delete/1` schedules; a failing `do/1` has no effect.",
        snippet: "do([${1:action}]) :-\n    ${0:true}." },
    KeywordDoc { name: "payoff", arity: 2, signature: "payoff(Player, Amount)",
        summary: "Called once per player with `Player` bound: every solution adds the number `Amount` to the player's account. Sees the state before the chronon and the chronon's schedules and actions.",
        snippet: "payoff([${1:player}], ${2:1}) :-\n    ${0:true}." },
    KeywordDoc { name: "player", arity: 1, signature: "player(Player)",
        summary: "Enumerates the players, in `init/2` order.",
        snippet: "player(${1:P})" },
    KeywordDoc { name: "fact", arity: 1, signature: "fact(Word)",
        summary: "Enumerates the facts of the state that unify with `Word`, in insertion order. During a chronon it answers from the state before the chronon.",
        snippet: "fact([${1}])" },
    KeywordDoc { name: "create", arity: 1, signature: "create(Word)",
        summary: "Schedules the creation of the ground word `Word`. Fails if it is a fact or already scheduled for creation. Undone on backtracking.",
        snippet: "create([${1}])" },
    KeywordDoc { name: "delete", arity: 1, signature: "delete(Word)",
        summary: "Unifies `Word` with the first fact not already scheduled for deletion and schedules its deletion; on backtracking, the next such fact.",
        snippet: "delete([${1}])" },
    KeywordDoc { name: "tocreate", arity: 1, signature: "tocreate(Word)",
        summary: "Enumerates the words scheduled for creation in this chronon, in scheduling order.",
        snippet: "tocreate([${1}])" },
    KeywordDoc { name: "todelete", arity: 1, signature: "todelete(Word)",
        summary: "Enumerates the words scheduled for deletion in this chronon, in scheduling order.",
        snippet: "todelete([${1}])" },
    KeywordDoc { name: "does", arity: 2, signature: "does(Switch, Action)",
        summary: "Enumerates the (switch, action) pairs of the chronon submitted by a player or drawn by nature, in legal-switch order. Defaults never appear.",
        snippet: "does([${1:switch}], ${2:Action})" },
];

impl KeywordDoc {
    /// The signature and the summary in one paragraph (`legal(Switch): Def.1 L: ...`): what the
    /// playground's completion shows.
    pub fn text(&self) -> String {
        format!("{}: {}", self.signature, self.summary)
    }
}

/// Where a keyword is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// The head of a clause: the game defines it, the manager calls it.
    Head,
    /// A rule body: the manager provides it.
    Body,
    /// Both (no keyword is, today).
    Both,
}

impl Position {
    pub const ALL: [Position; 3] = [Position::Head, Position::Body, Position::Both];

    /// `head`, `body`, `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            Position::Head => "head",
            Position::Body => "body",
            Position::Both => "both",
        }
    }
}

/// Where keyword `key` is written, if it is one.
pub fn position(key: PredKey) -> Option<Position> {
    match (is_head(key), is_body(key)) {
        (true, true) => Some(Position::Both),
        (true, false) => Some(Position::Head),
        (false, true) => Some(Position::Body),
        (false, false) => None,
    }
}

/// Every keyword once, head keywords then body keywords (in the orders of [`HEAD_KEYWORDS`] and
/// [`BODY_KEYWORDS`]), with where it is written and its documentation: the table the editors get
/// (the language server's hover and completion, the playground's `keywords()`, the VS Code snippets).
pub fn listing() -> Vec<(PredKey, Position, &'static KeywordDoc)> {
    let mut out: Vec<(PredKey, Position, &'static KeywordDoc)> = Vec::new();
    for &key in HEAD_KEYWORDS.iter().chain(BODY_KEYWORDS) {
        if out.iter().any(|e| e.0 == key) {
            continue;
        }
        if let (Some(p), Some(d)) = (position(key), doc(key)) {
            out.push((key, p, d));
        }
    }
    out
}

/// Whether `key` is a head keyword (`legal/1`, ...).
pub fn is_head(key: PredKey) -> bool {
    HEAD_KEYWORDS.contains(&key)
}

/// Whether `key` is a body keyword (`fact/1`, ...).
pub fn is_body(key: PredKey) -> bool {
    BODY_KEYWORDS.contains(&key)
}

/// The documentation of keyword `key`, if it is one.
pub fn doc(key: PredKey) -> Option<&'static KeywordDoc> {
    DOCS.iter()
        .find(|d| d.arity == key.1 && d.name == key.0.name())
}

/// Every keyword's documentation: head keywords, then body keywords.
pub fn all() -> &'static [KeywordDoc] {
    DOCS
}

/// Where keyword `key` may appear, one sentence: the body keywords a head keyword's rules may use,
/// or the head keywords whose rules may use a body keyword.
pub fn placement(key: PredKey) -> Option<String> {
    if is_head(key) {
        let allowed: Vec<String> = allowed_body_keywords(key.0)
            .iter()
            .map(|&a| show(body_key(a)))
            .map(|s| format!("`{s}`"))
            .collect();
        let uses = if allowed.is_empty() {
            "may use no body keyword".to_string()
        } else {
            format!("may use the body keywords {}", allowed.join(", "))
        };
        Some(format!(
            "Head keyword: only the head of a clause (the game manager calls it). Its rules {uses}, directly or through helper predicates."
        ))
    } else if is_body(key) {
        let heads: Vec<String> = HEAD_KEYWORDS
            .iter()
            .filter(|h| allowed_body_keywords(h.0).contains(&key.0))
            .map(|&h| format!("`{}`", show(h)))
            .collect();
        Some(format!(
            "Body keyword: called in rule bodies, never defined by the game. May be used in the rules of {}.",
            heads.join(", ")
        ))
    } else {
        None
    }
}

fn body_key(name: Atom) -> PredKey {
    BODY_KEYWORDS
        .iter()
        .copied()
        .find(|k| k.0 == name)
        .unwrap_or((name, 1))
}

/// The hover text of keyword `key` (Markdown).
pub fn markdown(key: PredKey) -> Option<String> {
    let d = doc(key)?;
    let mut s = format!(
        "```sidl\n{}\n```\n**`{}`**: {}",
        d.signature,
        show(key),
        d.summary
    );
    if let Some(p) = placement(key) {
        s.push_str("\n\n");
        s.push_str(&p);
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_has_a_doc() {
        for &k in HEAD_KEYWORDS.iter().chain(BODY_KEYWORDS) {
            assert!(doc(k).is_some(), "{} undocumented", show(k));
        }
        assert_eq!(DOCS.len(), HEAD_KEYWORDS.len() + BODY_KEYWORDS.len());
        assert_eq!(listing().len(), DOCS.len());
    }
}
