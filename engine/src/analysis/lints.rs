//! Lints: likely mistakes that are not syntax, load or placement errors (codes `W04xx`/`E04xx`).
//!
//! Every lint is conservative: it reports only what it can decide from the text (static facts and
//! clause heads), and stays silent when a rule's body could change the answer.

use super::callgraph::{goal_args, show, CallGraph, PredKey};
use super::codes;
use super::placement::{
    is_body_keyword, is_head_keyword, is_keyword_name, keyword_arities, HEAD_KEYWORDS,
};
use crate::atom::{self, Atom};
use crate::diag::{Diagnostic, Span};
use crate::solve::builtins;
use crate::solve::program::{control, split_clause, ProgramBuilder};
use crate::syntax::{Clause, Node, NodeKind};
use crate::term::Term;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// Every predicate the library provides without the game defining it: control constructs aside,
/// the native built-ins and the Prolog prelude.
pub fn library_predicates() -> &'static HashSet<PredKey> {
    static SET: OnceLock<HashSet<PredKey>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set: HashSet<PredKey> = builtins::all().into_iter().collect();
        let (p, _) = ProgramBuilder::new().build();
        for pred in &p.data().preds {
            if pred.library {
                set.insert((pred.name, pred.arity));
            }
        }
        for (n, a) in [
            ("call", 1),
            ("call", 2),
            ("call", 3),
            ("call", 4),
            ("call", 5),
            ("call", 6),
            ("call", 7),
            ("call", 8),
            ("not", 1),
            ("true", 0),
            ("fail", 0),
            ("false", 0),
            ("catch", 3),
            ("throw", 1),
            ("findall", 3),
            ("findall", 4),
        ] {
            set.insert((Atom::new(n), a));
        }
        set
    })
}

/// Whether a call of `key` resolves without the game defining it.
pub fn is_provided(key: PredKey) -> bool {
    control(key.0, key.1).is_some() || is_body_keyword(key) || library_predicates().contains(&key)
}

/// All lint diagnostics of a file's clauses (unsorted).
pub fn lint(clauses: &[Clause], graph: &CallGraph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    undefined(clauses, graph, &mut out);
    keyword_heads(clauses, graph, &mut out);
    let has_unlimited = graph.is_defined((atom::UNLIMITED, 2));
    for c in clauses {
        if c.is_directive() || c.has_errors {
            continue;
        }
        singletons(c, &mut out);
        unbound(c, has_unlimited, &mut out);
        unsafe_head(c, has_unlimited, &mut out);
    }
    let is_game = HEAD_KEYWORDS.iter().any(|&k| graph.is_defined(k));
    if is_game {
        unused(clauses, graph, &mut out);
        missing(clauses, graph, &mut out);
        let g = Game::new(clauses, graph);
        g.owners(&mut out);
        g.defaults_and_do(&mut out);
        g.legal_switches(&mut out);
        g.unlimited_templates(&mut out);
        never_created(clauses, graph, &mut out);
        for c in clauses {
            if !c.is_directive() && !c.has_errors {
                labels(c, &mut out);
            }
        }
    }
    duplicates(clauses, &mut out);
    // a variable that makes a keyword's answer non-ground is reported as that, not as a singleton
    let unsafe_spans: HashSet<Span> = out
        .iter()
        .filter(|d| d.code == codes::UNSAFE_HEAD || d.code == codes::BAD_LABEL)
        .map(|d| d.span)
        .collect();
    out.retain(|d| d.code != codes::SINGLETON || !unsafe_spans.contains(&d.span));
    out
}

// ---------------------------------------------------------------------------------------------
// labels

/// The things a label is asked for (`crate::game::present::Thing`): name and arity.
const LABEL_THINGS: &[(&str, usize)] = &[
    ("player", 1),
    ("switch", 1),
    ("action", 2),
    ("fact", 1),
    ("account", 2),
    ("game", 0),
    ("role", 1),
    ("result", 0),
];

/// `W0420`: a `label` clause that cannot give text (docs/reference.md "Labels"): `label/1` or
/// `label/4` and more (the hooks are `label/2` and `label/3`), a `Thing` that no tool asks for, or a
/// `Text` that is a variable the clause never mentions elsewhere (it stays unbound: the raw term is
/// shown instead).
fn labels(c: &Clause, out: &mut Vec<Diagnostic>) {
    let head = c.head();
    let Some((name, arity)) = head.functor() else {
        return;
    };
    if name.name() != "label" {
        return;
    }
    if !(arity == 2 || arity == 3) {
        if arity > 0 {
            out.push(
                Diagnostic::warning(
                    codes::BAD_LABEL,
                    format!("`label/{arity}` is not a label hook: the tools ask `label(Thing, Text)` and `label(Thing, Lang, Text)`"),
                    head.span,
                )
                .with_help("write label(Thing, Text) or label(Thing, Lang, Text) (docs/reference.md, Labels)"),
            );
        }
        return;
    }
    let args = head.args();
    let thing = &args[0];
    if let (Some((n, a)), false) = (thing.functor(), matches!(thing.kind, NodeKind::List { .. })) {
        if !LABEL_THINGS
            .iter()
            .any(|&(tn, ta)| tn == n.name() && ta == a)
        {
            let known: Vec<String> = LABEL_THINGS
                .iter()
                .map(|&(tn, ta)| {
                    if ta == 0 {
                        tn.to_string()
                    } else {
                        format!("{tn}/{ta}")
                    }
                })
                .collect();
            out.push(
                Diagnostic::warning(
                    codes::BAD_LABEL,
                    format!(
                        "`{}/{a}` is not a thing the tools label: this label is never shown",
                        n.name()
                    ),
                    thing.span,
                )
                .with_help(format!("the things are {}", known.join(", "))),
            );
        }
    } else if !matches!(thing.kind, NodeKind::Var { .. }) {
        out.push(
            Diagnostic::warning(
                codes::BAD_LABEL,
                "a label's thing is `player(P)`, `switch(S)`, `action(S, A)`, `fact(F)`, `account(P, X)`, `game`, `role(P)` or `result`: this label is never shown",
                thing.span,
            ),
        );
    }
    let text = &args[arity - 1];
    if let NodeKind::Var { number, .. } = &text.kind {
        let n = var_occurrences(&c.node)
            .iter()
            .filter(|(v, _, _)| v == number)
            .count();
        if n == 1 {
            out.push(
                Diagnostic::warning(
                    codes::BAD_LABEL,
                    "the label's text is a variable that nothing binds: the raw term is shown instead",
                    text.span,
                )
                .with_help("give the text: an atom, a string, a number or a list of parts such as [P, ' bids ', fixed(X, 2)]"),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// slot types of unlimited templates

/// `E0419`: a `(Name, Type)` pair in the template of an `unlimited/2` clause head whose `Type` is an
/// atom that is not a slot type (`game::session::SLOT_TYPES`). Such a pair is not a slot: the
/// template would match only itself, so a typo (`doubel`) or an alias (`float`, `int`) would
/// silently make the switch refuse every typed value. An error: [`crate::game::Game::load`] reports
/// it (through [`super::load_diagnostics`] `sidl check` does too), with a "did you mean" fix from
/// `game::session::suggest_slot_type`.
pub fn unknown_slot_types(clauses: &[Clause]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for c in clauses {
        if c.is_directive() || c.has_errors {
            continue;
        }
        if let NodeKind::Compound { name, args, .. } = &c.head().kind {
            if *name == atom::UNLIMITED && args.len() == 2 {
                template_slot_types(&args[1], &mut out);
            }
        }
    }
    out
}

fn template_slot_types(n: &Node, out: &mut Vec<Diagnostic>) {
    use crate::game::session::{suggest_slot_type, SLOT_TYPES};
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match &n.kind {
            NodeKind::Compound { name, args, .. } if *name == atom::COMMA && args.len() == 2 => {
                if let NodeKind::Atom(ty) = &args[1].kind {
                    if !SLOT_TYPES.contains(&ty.name()) {
                        let shown = crate::write::writeq(&Term::Atom(*ty), None);
                        let mut d = Diagnostic::error(
                            codes::UNKNOWN_SLOT_TYPE,
                            format!(
                                "`{shown}` is not a slot type: this `(Name, Type)` would match only itself, not a typed value"
                            ),
                            args[1].span,
                        );
                        d = match suggest_slot_type(ty.name()) {
                            Some(sug) => d.with_help(format!("did you mean `{sug}`?")).with_fix(
                                format!("replace with `{sug}`"),
                                args[1].span,
                                sug,
                            ),
                            None => {
                                d.with_help(format!("the slot types are {}", SLOT_TYPES.join(", ")))
                            }
                        };
                        out.push(d);
                    }
                    continue;
                }
                stack.extend(args.iter().rev());
            }
            NodeKind::Compound { args, .. } => stack.extend(args.iter().rev()),
            NodeKind::List { items, tail } => {
                stack.extend(tail.iter().map(|t| &**t));
                stack.extend(items.iter().rev());
            }
            NodeKind::Curly(t) => stack.push(t),
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// undefined predicates, keyword arities

/// The edit distance (insertions, deletions, substitutions) between `a` and `b`, in characters.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest known predicate to `key` (same arity preferred), if close enough.
pub fn suggest(key: PredKey, graph: &CallGraph) -> Option<PredKey> {
    let name = key.0.name();
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, bool, String, PredKey)> = None;
    let candidates = graph
        .predicates()
        .iter()
        .copied()
        .chain(library_predicates().iter().copied())
        .chain(super::placement::BODY_KEYWORDS.iter().copied());
    for cand in candidates {
        let cn = cand.0.name();
        if cn.starts_with('$') || cand == key {
            continue;
        }
        let d = levenshtein(name, cn);
        if d > limit {
            continue;
        }
        let rank = (d, cand.1 != key.1, cn.to_string(), cand);
        if best
            .as_ref()
            .is_none_or(|b| (rank.0, rank.1, &rank.2) < (b.0, b.1, &b.2))
        {
            best = Some(rank);
        }
    }
    best.map(|b| b.3)
}

fn undefined(clauses: &[Clause], graph: &CallGraph, out: &mut Vec<Diagnostic>) {
    for ci in 0..clauses.len() {
        for s in graph.calls(ci) {
            let key = s.callee;
            if graph.is_defined(key) || is_provided(key) {
                continue;
            }
            if is_keyword_name(key.0) {
                let arities: Vec<String> = keyword_arities(key.0)
                    .into_iter()
                    .map(|a| show((key.0, a)))
                    .collect();
                out.push(
                    Diagnostic::warning(
                        codes::KEYWORD_ARITY,
                        format!(
                            "`{}` is not a keyword: the keyword is {}",
                            show(key),
                            arities.join(" or ")
                        ),
                        s.span,
                    )
                    .with_help("check the number of arguments"),
                );
                continue;
            }
            let mut d = Diagnostic::warning(
                codes::UNDEFINED_PREDICATE,
                format!("`{}` is not defined", show(key)),
                s.span,
            );
            match suggest(key, graph) {
                Some(sug) if sug.1 == key.1 => {
                    d = d
                        .with_help(format!("did you mean `{}`?", show(sug)))
                        .with_fix(
                            format!("replace with `{}`", sug.0),
                            s.name_span,
                            crate::write::writeq(&Term::Atom(sug.0), None),
                        );
                }
                Some(sug) => {
                    d = d.with_help(format!("did you mean `{}`?", show(sug)));
                }
                None => {
                    d = d.with_help("calling it raises an existence error");
                }
            }
            out.push(d);
        }
    }
}

fn keyword_heads(clauses: &[Clause], graph: &CallGraph, out: &mut Vec<Diagnostic>) {
    for &key in graph.predicates() {
        if !is_keyword_name(key.0) || keyword_arities(key.0).contains(&key.1) {
            continue;
        }
        let first = graph.clauses_of(key)[0];
        let arities: Vec<String> = keyword_arities(key.0)
            .into_iter()
            .map(|a| show((key.0, a)))
            .collect();
        out.push(
            Diagnostic::warning(
                codes::KEYWORD_ARITY,
                format!(
                    "`{}` is not a keyword: the keyword is {}",
                    show(key),
                    arities.join(" or ")
                ),
                clauses[first].head().name_span(),
            )
            .with_help("the game manager never calls it; check the number of arguments"),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// variables

fn is_named(name: &str) -> bool {
    !name.starts_with('_')
}

/// Every variable occurrence of a node: (number, name, span), in source order.
fn var_occurrences(node: &Node) -> Vec<(u32, &str, Span)> {
    let mut v = Vec::new();
    node.walk(|n| {
        if let NodeKind::Var { number, name } = &n.kind {
            v.push((*number, name.as_str(), n.span));
        }
    });
    v
}

fn singletons(c: &Clause, out: &mut Vec<Diagnostic>) {
    let occ = var_occurrences(&c.node);
    let mut count: HashMap<u32, usize> = HashMap::new();
    for (n, _, _) in &occ {
        *count.entry(*n).or_default() += 1;
    }
    for (n, name, span) in occ {
        if is_named(name) && count[&n] == 1 {
            out.push(
                Diagnostic::warning(
                    codes::SINGLETON,
                    format!("singleton variable `{name}`: it occurs only once in the clause"),
                    span,
                )
                .with_help(
                    "write `_` (or a name starting with `_`) if it is meant to match anything",
                )
                .with_fix(format!("rename to `_{name}`"), span, format!("_{name}")),
            );
        }
    }
}

/// The goals of a body: every goal node reached through control constructs and meta-calls, in
/// source order (control constructs included).
fn goals(body: &Node) -> Vec<&Node> {
    let mut out = Vec::new();
    let mut stack = vec![body];
    while let Some(g) = stack.pop() {
        out.push(g);
        if let Some((name, n)) = g.functor() {
            let mut sub: Vec<&Node> = Vec::new();
            for &i in goal_args(name, n) {
                let mut a = &g.args()[i];
                if matches!(name.name(), "bagof" | "setof") {
                    while a.is_functor(atom::CARET, 2) {
                        a = &a.args()[1];
                    }
                }
                sub.push(a);
            }
            stack.extend(sub.into_iter().rev());
        }
    }
    out
}

const COMPARISONS: &[&str] = &["<", ">", "=<", ">=", "=:=", "=\\="];

/// The head arguments the game manager binds when it calls a keyword (all of them for a helper):
/// `legal(I)` and `init` are enumerated, `switch(I, A)` enumerates `A` (unless the game has unlimited
/// switches, whose actions are validated), `owned`, `default` and `payoff` are called with their first
/// argument bound, `do/1`, `hidden/2` and `unlimited/2` with all bound but `unlimited`'s templates.
pub fn bound_head_args(key: PredKey, has_unlimited: bool) -> std::ops::Range<usize> {
    let n = key.1 as usize;
    if !is_head_keyword(key) {
        return 0..n;
    }
    match key.0 {
        atom::GAME | atom::NAME | atom::INIT | atom::LEGAL => 0..0,
        atom::SWITCH if has_unlimited => 0..2,
        atom::SWITCH | atom::OWNED | atom::DEFAULT | atom::PAYOFF | atom::UNLIMITED => 0..1,
        _ => 0..n,
    }
}

/// Variables of a keyword's answer arguments (those the game manager leaves unbound) that the body
/// never mentions: the answer is not ground.
fn unsafe_head(c: &Clause, has_unlimited: bool, out: &mut Vec<Diagnostic>) {
    let head = c.head();
    let Some(key) = head.functor().map(|(n, a)| (n, a as u32)) else {
        return;
    };
    if !is_head_keyword(key) || matches!(key.0, atom::GAME | atom::NAME | atom::UNLIMITED) {
        return;
    }
    let args = head.args();
    let r = bound_head_args(key, has_unlimited);
    let (bound_args, answer_args) = args.split_at(r.end.min(args.len()));
    let mut known: HashSet<u32> = HashSet::new();
    for a in bound_args {
        known.extend(var_occurrences(a).iter().map(|v| v.0));
    }
    if let Some(b) = c.body() {
        known.extend(var_occurrences(b).iter().map(|v| v.0));
    }
    let mut seen = HashSet::new();
    for a in answer_args {
        for (v, name, span) in var_occurrences(a) {
            if known.contains(&v) || !seen.insert(v) {
                continue;
            }
            let what = if name == "_" {
                "`_`".to_string()
            } else {
                format!("`{name}`")
            };
            out.push(
                Diagnostic::warning(
                    codes::UNSAFE_HEAD,
                    format!(
                        "{what} is never bound: `{}` answers with a non-ground term",
                        show(key)
                    ),
                    span,
                )
                .with_help("the game manager enumerates this argument: bind the variable in the body (e.g. with member/2)"),
            );
        }
    }
}

fn unbound(c: &Clause, has_unlimited: bool, out: &mut Vec<Diagnostic>) {
    let Some(body) = c.body() else {
        return;
    };
    let head = c.head();
    let key = head.functor().map(|(n, a)| (n, a as u32));
    let mut head_vars: HashSet<u32> = HashSet::new();
    if let Some(key) = key {
        let r = bound_head_args(key, has_unlimited);
        let args = head.args();
        for a in &args[r.start.min(args.len())..r.end.min(args.len())] {
            head_vars.extend(var_occurrences(a).iter().map(|v| v.0));
        }
    }
    let occ = var_occurrences(body);
    let mut first: HashMap<u32, u32> = HashMap::new();
    let mut total: HashMap<u32, usize> = HashMap::new();
    for &(m, _, s) in &occ {
        first.entry(m).or_insert(s.start);
    }
    for (m, _, _) in var_occurrences(&c.node) {
        *total.entry(m).or_default() += 1;
    }
    let last: HashMap<u32, u32> = occ.iter().map(|&(m, _, s)| (m, s.start)).collect();
    let before = |n: u32, at: Span| -> bool {
        head_vars.contains(&n) || first.get(&n).is_some_and(|&f| f < at.start)
    };
    let mut reported: HashSet<u32> = HashSet::new();
    for g in goals(body) {
        let Some((name, n)) = g.functor() else {
            continue;
        };
        let is_neg = matches!((name, n), (atom::NOT_PROVABLE, 1) | (atom::NOT, 1));
        if is_neg {
            let inner = var_occurrences(g);
            for &(v, vname, span) in &inner {
                if !is_named(vname) || before(v, g.span) || reported.contains(&v) {
                    continue;
                }
                if total.get(&v) == Some(&1) {
                    continue; // a singleton: reported as such
                }
                reported.insert(v);
                let later = last.get(&v).is_some_and(|&l| l >= g.span.end);
                let in_head = var_occurrences(head).iter().any(|o| o.0 == v);
                let message = if in_head {
                    format!(
                        "`{vname}` is not bound when this negation runs: the game manager calls `{}` with that argument unbound",
                        key.map_or(String::new(), show)
                    )
                } else if later {
                    format!("`{vname}` is not bound before this negation, only after it")
                } else {
                    format!("`{vname}` occurs only inside this negation")
                };
                out.push(
                    Diagnostic::warning(codes::UNBOUND_IN_NEGATION, message, span)
                        .with_label(g.span, "the negation")
                        .with_help(format!(
                            "`\\+` never binds variables: it succeeds only if no value of `{vname}` makes the goal true; \
                             bind `{vname}` first, or name it `_{vname}` if that is what you mean"
                        )),
                );
            }
            continue;
        }
        let operands: &[Node] = if name.name() == "is" && n == 2 {
            &g.args()[1..]
        } else if n == 2 && COMPARISONS.contains(&name.name()) {
            g.args()
        } else {
            continue;
        };
        for a in operands {
            for (v, vname, span) in var_occurrences(a) {
                if before(v, g.span) || reported.contains(&v) {
                    continue;
                }
                reported.insert(v);
                out.push(
                    Diagnostic::warning(
                        codes::UNBOUND_IN_ARITHMETIC,
                        format!("`{vname}` is not bound before this arithmetic: evaluating it raises an instantiation error"),
                        span,
                    )
                    .with_label(g.span, "evaluated here")
                    .with_help(format!("bind `{vname}` to a number before `{name}`")),
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// unused helpers, missing keywords, duplicates

fn mentioned_names(c: &Clause, out: &mut HashSet<Atom>) {
    c.node.walk(|n| {
        if let Some((name, _)) = n.functor() {
            out.insert(name);
        }
    });
}

fn unused(clauses: &[Clause], graph: &CallGraph, out: &mut Vec<Diagnostic>) {
    // the head keywords (the game manager calls them) and the AI hooks (the tools call them)
    let hooks = crate::ai::sim::HOOKS
        .iter()
        .map(|&(name, arity)| (Atom::new(name), arity));
    let roots: Vec<PredKey> = HEAD_KEYWORDS.iter().copied().chain(hooks).collect();
    let mut reach = graph.reach(roots.iter().copied());
    // a goal unknown statically may call any predicate whose name a reachable clause mentions
    loop {
        let reached: Vec<PredKey> = reach.iter().collect();
        let unknown = reached.iter().any(|&p| {
            graph
                .clauses_of(p)
                .iter()
                .any(|&c| graph.has_unknown_calls(c))
        });
        if !unknown {
            break;
        }
        let mut names = HashSet::new();
        for &p in &reached {
            for &c in graph.clauses_of(p) {
                mentioned_names(&clauses[c], &mut names);
            }
        }
        let extra: Vec<PredKey> = graph
            .predicates()
            .iter()
            .copied()
            .filter(|p| names.contains(&p.0) && !reach.contains(*p))
            .collect();
        if extra.is_empty() {
            break;
        }
        reach = graph.reach(reached.into_iter().chain(extra));
    }
    for &p in graph.predicates() {
        if reach.contains(p) || is_keyword_name(p.0) {
            continue;
        }
        let first = graph.clauses_of(p)[0];
        let near = graph
            .predicates()
            .iter()
            .copied()
            .filter(|&q| q != p && q.1 == p.1 && reach.contains(q))
            .map(|q| (levenshtein(p.0.name(), q.0.name()), q))
            .filter(|&(d, _)| d <= (p.0.name().chars().count() / 5).max(1))
            .min_by_key(|&(d, q)| (d, q.0.name()));
        let help = match near {
            Some((_, q)) => format!("is it a misspelling of `{}`? Otherwise remove it, or call it from the rule that needs it", show(q)),
            None => "remove it, or call it from the rule that needs it".to_string(),
        };
        out.push(
            Diagnostic::warning(
                codes::UNUSED_PREDICATE,
                format!("`{}` is never used: no keyword reaches it", show(p)),
                clauses[first].head().name_span(),
            )
            .with_help(help),
        );
    }
}

fn missing(clauses: &[Clause], graph: &CallGraph, out: &mut Vec<Diagnostic>) {
    let game_clause = [(atom::GAME, 1), (atom::NAME, 1)]
        .iter()
        .find_map(|&k| graph.clauses_of(k).first().copied());
    let at = game_clause.map_or(Span::new(0, 0), |c| clauses[c].head().span);
    if !graph.is_defined((atom::INIT, 2)) {
        out.push(
            Diagnostic::warning(
                codes::NO_PLAYERS,
                "the game has no players: `init/2` is not defined",
                at,
            )
            .with_help("add `init(Player, Account)` facts, e.g. `init([alice], 0.0).`"),
        );
    }
    if !graph.is_defined((atom::LEGAL, 1)) {
        out.push(
            Diagnostic::warning(
                codes::NO_LEGAL,
                "the game has no legal switch: `legal/1` is not defined, so it ends at once",
                at,
            )
            .with_help("add `legal(Switch) :- ...` rules"),
        );
    }
    for &c in graph.clauses_of((atom::NAME, 1)) {
        let head = clauses[c].head();
        out.push(
            Diagnostic::warning(
                codes::NAME_NOT_GAME,
                "`name/1` is the old spelling of `game/1`",
                head.name_span(),
            )
            .with_help("write `game(...)`")
            .with_fix("replace with `game`", head.name_span(), "game"),
        );
    }
}

fn duplicates(clauses: &[Clause], out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&Term, Span> = HashMap::new();
    for c in clauses {
        if c.has_errors || c.is_directive() {
            continue;
        }
        match seen.get(&c.term) {
            Some(&first) => out.push(
                Diagnostic::warning(
                    codes::DUPLICATE_CLAUSE,
                    "this clause repeats an earlier one",
                    c.span,
                )
                .with_label(first, "the same clause")
                .with_help("remove one of them: a repeated clause gives its solutions twice"),
            ),
            None => {
                seen.insert(&c.term, c.span);
            }
        }
    }
}

/// `fact(W)` / `delete(W)` where no `init/1` head and no `create/1` argument unifies with `W`.
fn never_created(clauses: &[Clause], graph: &CallGraph, out: &mut Vec<Diagnostic>) {
    let mut producers: Vec<Term> = Vec::new();
    let mut consumers: Vec<&Node> = Vec::new();
    for &c in graph.clauses_of((atom::INIT, 1)) {
        if let Some(a) = clauses[c].head().args().first() {
            producers.push(a.to_term());
        }
    }
    for c in clauses {
        if c.is_directive() {
            continue;
        }
        let Some(body) = c.body() else {
            continue;
        };
        for g in goals(body) {
            if g.is_functor(atom::CREATE, 1) {
                producers.push(g.args()[0].to_term());
            } else if g.is_functor(atom::FACT, 1) || g.is_functor(atom::DELETE, 1) {
                consumers.push(g);
            }
        }
    }
    if producers.iter().any(|p| matches!(p, Term::Var(_))) {
        return; // anything may be created
    }
    for g in consumers {
        let arg = &g.args()[0];
        if arg.is_var() {
            continue;
        }
        let t = arg.to_term();
        if producers.iter().any(|p| unify_all(&[(&t, p)])) {
            continue;
        }
        let k = g
            .functor()
            .map_or(String::new(), |(n, a)| show((n, a as u32)));
        out.push(
            Diagnostic::warning(
                codes::NEVER_CREATED,
                format!(
                    "no `init/1` or `create/1` makes a fact of this form: `{k}` never matches it"
                ),
                arg.span,
            )
            .with_help("check the spelling and length of the word against `init/1` and `create/1`"),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// switches, owners, defaults

/// Unification of terms from two clauses (variables of side 0 and side 1 are distinct); no occurs
/// check.
fn unify_all(pairs: &[(&Term, &Term)]) -> bool {
    type Side<'a> = (&'a Term, u8);
    let mut bind: HashMap<(u8, u32), Side<'_>> = HashMap::new();
    let mut stack: Vec<(Side<'_>, Side<'_>)> =
        pairs.iter().map(|&(a, b)| ((a, 0), (b, 1))).collect();
    fn deref<'a>(mut t: Side<'a>, bind: &HashMap<(u8, u32), Side<'a>>) -> Side<'a> {
        while let Term::Var(v) = t.0 {
            match bind.get(&(t.1, *v)) {
                Some(&u) => t = u,
                None => break,
            }
        }
        t
    }
    while let Some((x, y)) = stack.pop() {
        let x = deref(x, &bind);
        let y = deref(y, &bind);
        match (x.0, y.0) {
            (Term::Var(i), Term::Var(j)) if (i, x.1) == (j, y.1) => {}
            (Term::Var(i), _) => {
                bind.insert((x.1, *i), y);
            }
            (_, Term::Var(j)) => {
                bind.insert((y.1, *j), x);
            }
            (Term::Compound(f, xs), Term::Compound(g, ys)) => {
                if f != g || xs.len() != ys.len() {
                    return false;
                }
                for (p, q) in xs.iter().zip(ys.iter()) {
                    stack.push(((p, x.1), (q, y.1)));
                }
            }
            (p, q) => {
                if p != q {
                    return false;
                }
            }
        }
    }
    true
}

/// A clause of a keyword: its head arguments as terms and nodes, and whether it has a body.
struct KwClause<'a> {
    args: &'a [Term],
    nodes: &'a [Node],
    names: &'a [String],
    has_body: bool,
}

struct Game<'a> {
    switch: Vec<KwClause<'a>>,
    unlimited: Vec<KwClause<'a>>,
    owned: Vec<KwClause<'a>>,
    default: Vec<KwClause<'a>>,
    doo: Vec<KwClause<'a>>,
    legal: Vec<KwClause<'a>>,
}

impl<'a> Game<'a> {
    fn new(clauses: &'a [Clause], graph: &CallGraph) -> Game<'a> {
        let get = |key: PredKey| -> Vec<KwClause<'a>> {
            graph
                .clauses_of(key)
                .iter()
                .filter(|&&c| !clauses[c].has_errors)
                .filter_map(|&c| {
                    let cl = &clauses[c];
                    let (head, body) = split_clause(&cl.term)?;
                    Some(KwClause {
                        args: head.args(),
                        nodes: cl.head().args(),
                        names: &cl.var_names,
                        has_body: body.is_some(),
                    })
                })
                .filter(|k| k.args.len() == key.1 as usize && k.nodes.len() == key.1 as usize)
                .collect()
        };
        Game {
            switch: get((atom::SWITCH, 2)),
            unlimited: get((atom::UNLIMITED, 2)),
            owned: get((atom::OWNED, 2)),
            default: get((atom::DEFAULT, 2)),
            doo: get((atom::DO, 1)),
            legal: get((atom::LEGAL, 1)),
        }
    }

    fn is_unlimited(&self, switch: &Term) -> bool {
        self.unlimited
            .iter()
            .any(|u| unify_all(&[(switch, &u.args[0])]))
    }

    /// The actions of a ground switch when every `switch/2` clause that may apply is a ground fact.
    fn static_actions(&self, switch: &Term) -> Option<Vec<&'a Term>> {
        if !switch.is_ground() || self.is_unlimited(switch) {
            return None;
        }
        let mut actions: Vec<&Term> = Vec::new();
        for s in &self.switch {
            if !unify_all(&[(switch, &s.args[0])]) {
                continue;
            }
            if s.has_body || !s.args[0].is_ground() || !s.args[1].is_ground() {
                return None;
            }
            if !actions.contains(&&s.args[1]) {
                actions.push(&s.args[1]);
            }
        }
        Some(actions)
    }

    fn owners(&self, out: &mut Vec<Diagnostic>) {
        for o in &self.owned {
            let (switch, owner, node) = (&o.args[0], &o.args[1], &o.nodes[1]);
            if let Term::Compound(f, args) = owner {
                if *f == atom::EQUAL && args.len() == 1 {
                    let Term::Int(n) = args[0] else {
                        continue;
                    };
                    if let Some(actions) = self.static_actions(switch) {
                        if actions.len() as i64 != n {
                            out.push(
                                Diagnostic::error(
                                    codes::EQUAL_COUNT,
                                    format!(
                                        "`equal({n})` but switch `{}` has {} action{}",
                                        crate::write::writeq(switch, Some(o.names)),
                                        actions.len(),
                                        if actions.len() == 1 { "" } else { "s" }
                                    ),
                                    node.span,
                                )
                                .with_help(format!(
                                    "write `equal({})`: the draw is uniform over all the actions",
                                    actions.len()
                                )),
                            );
                        }
                    }
                    continue;
                }
            }
            let Some(items) = owner.as_list() else {
                continue;
            };
            if items.is_empty() {
                continue;
            }
            let probs: Option<Vec<f64>> = items.iter().map(|t| t.as_f64()).collect();
            let Some(probs) = probs else {
                continue;
            };
            let sum: f64 = probs.iter().sum();
            let problem = if probs.iter().any(|&p| p < 0.0) {
                Some("a probability is negative".to_string())
            } else if (sum - 1.0).abs() > 1e-9 {
                Some(format!("the probabilities sum to {sum}, not 1"))
            } else {
                match self.static_actions(switch) {
                    Some(a) if a.len() != probs.len() => Some(format!(
                        "{} probabilities for the {} actions of switch `{}`",
                        probs.len(),
                        a.len(),
                        crate::write::writeq(switch, Some(o.names))
                    )),
                    _ => None,
                }
            };
            if let Some(p) = problem {
                out.push(
                    Diagnostic::error(codes::PROBABILITIES, p, node.span).with_help(
                        "a distribution owner is a list of non-negative probabilities, one per action, summing to 1",
                    ),
                );
            }
        }
    }

    /// Legal switches that no `owned/2` clause, or no `switch/2` / `unlimited/2` clause, can apply to.
    fn legal_switches(&self, out: &mut Vec<Diagnostic>) {
        for l in &self.legal {
            let (switch, node) = (&l.args[0], &l.nodes[0]);
            let w = || crate::write::writeq(switch, Some(l.names));
            if !self
                .owned
                .iter()
                .any(|o| unify_all(&[(switch, &o.args[0])]))
            {
                out.push(
                    Diagnostic::warning(
                        codes::NO_OWNER,
                        format!("no `owned/2` clause applies to switch `{}`: nobody can choose its action", w()),
                        node.span,
                    )
                    .with_help("add an `owned/2` clause: a player, `equal(N)` or a list of probabilities"),
                );
            }
            let has_actions = self
                .switch
                .iter()
                .chain(&self.unlimited)
                .any(|s| unify_all(&[(switch, &s.args[0])]));
            if !has_actions {
                out.push(
                    Diagnostic::warning(
                        codes::NO_ACTIONS,
                        format!("no `switch/2` or `unlimited/2` clause applies to switch `{}`: it has no actions", w()),
                        node.span,
                    )
                    .with_help("add `switch(Switch, Action)` clauses"),
                );
            }
        }
    }

    /// `unlimited/2` templates that no `switch/2` clause accepts (a submitted action of an unlimited
    /// switch is accepted only when `switch(Switch, Action)` succeeds: W0422), or that no `do/1`
    /// clause handles (W0411, as for the actions of `switch/2`). A slot stands for any value.
    fn unlimited_templates(&self, out: &mut Vec<Diagnostic>) {
        for u in &self.unlimited {
            let (switch, node) = (&u.args[0], &u.nodes[1]);
            let mut fresh = u32::MAX;
            let action = slots_as_vars(&u.args[1], &mut fresh);
            let accepted = self
                .switch
                .iter()
                .any(|s| unify_all(&[(switch, &s.args[0]), (&action, &s.args[1])]));
            if !accepted {
                let shown = crate::write::writeq(&u.args[1], Some(u.names));
                out.push(
                    Diagnostic::warning(
                        codes::UNLIMITED_NOT_ACCEPTED,
                        format!(
                            "no `switch/2` clause accepts the actions of template `{shown}` of switch `{}`: every submission of it is rejected",
                            crate::write::writeq(switch, Some(u.names))
                        ),
                        node.span,
                    )
                    .with_help(
                        "a submitted action of an unlimited switch is accepted only when `switch(Switch, Action)` succeeds: add a `switch/2` clause that checks the typed values",
                    ),
                );
            } else if !self.doo.is_empty()
                && !self.doo.iter().any(|d| unify_all(&[(&action, &d.args[0])]))
            {
                out.push(no_do(&u.args[1], u.names, node.span));
            }
        }
    }

    fn defaults_and_do(&self, out: &mut Vec<Diagnostic>) {
        let handled = |action: &Term| self.doo.iter().any(|d| unify_all(&[(action, &d.args[0])]));
        let check_do = !self.doo.is_empty();
        for d in &self.default {
            let (switch, action, node) = (&d.args[0], &d.args[1], &d.nodes[1]);
            if self.is_unlimited(switch) {
                continue;
            }
            let ok = self
                .switch
                .iter()
                .any(|s| unify_all(&[(switch, &s.args[0]), (action, &s.args[1])]));
            if !ok {
                let shapes: Vec<String> = self
                    .switch
                    .iter()
                    .filter(|s| unify_all(&[(switch, &s.args[0])]))
                    .map(|s| format!("`{}`", crate::write::writeq(&s.args[1], Some(s.names))))
                    .collect();
                let help = if shapes.is_empty() {
                    "no `switch/2` clause applies to this switch".to_string()
                } else {
                    format!(
                        "the actions of this switch have the form {}",
                        shapes.join(", ")
                    )
                };
                out.push(
                    Diagnostic::error(
                        codes::DEFAULT_NOT_ACTION,
                        format!(
                            "default `{}` is not an action of switch `{}`",
                            crate::write::writeq(action, Some(d.names)),
                            crate::write::writeq(switch, Some(d.names))
                        ),
                        node.span,
                    )
                    .with_help(help),
                );
            } else if check_do && !handled(action) {
                out.push(no_do(action, d.names, node.span));
            }
        }
        if check_do {
            for s in &self.switch {
                if !self.is_unlimited(&s.args[0]) && !handled(&s.args[1]) {
                    out.push(no_do(&s.args[1], s.names, s.nodes[1].span));
                }
            }
        }
    }
}

/// `template` with each slot `(Name, Type)` replaced by a variable of its own (numbered down from
/// `fresh`, above the clause's own variables): the actions the template stands for.
fn slots_as_vars(template: &Term, fresh: &mut u32) -> Term {
    if crate::game::session::slot(template).is_some() {
        *fresh -= 1;
        return Term::Var(*fresh);
    }
    match template {
        Term::Compound(f, args) => Term::Compound(
            *f,
            args.iter()
                .map(|a| slots_as_vars(a, fresh))
                .collect::<Vec<_>>()
                .into(),
        ),
        t => t.clone(),
    }
}

fn no_do(action: &Term, names: &[String], span: Span) -> Diagnostic {
    Diagnostic::warning(
        codes::NO_DO,
        format!(
            "no `do/1` clause handles the action `{}`",
            crate::write::writeq(action, Some(names))
        ),
        span,
    )
    .with_help("the action would have no effect: `do/1` fails for it")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(levenshtein("qesture", "gesture"), 1);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
    }

    #[test]
    fn unification_of_two_clauses() {
        let t = |s: &str| crate::syntax::parse_term(s).unwrap().term;
        assert!(unify_all(&[(&t("[C]"), &t("[dirt]"))]));
        assert!(!unify_all(&[(&t("[C]"), &t("[C, S]"))]));
        assert!(!unify_all(&[(&t("f(X, X)"), &t("f(a, b)"))]));
        assert!(unify_all(&[(&t("f(X, Y)"), &t("f(Y, b)"))]));
        assert!(!unify_all(&[
            (&t("[C]"), &t("[C]")),
            (&t("[stay]"), &t("[C, S]"))
        ]));
    }
}
