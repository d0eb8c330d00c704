//! A static call graph of a parsed game: which predicates each clause calls, and where.
//!
//! Body goals are followed through the control constructs (`,`, `;`, `->`, `*->`, `|`, `\+`, `not`,
//! `call/1`, `catch/3`) and through the meta-calls whose goal is written in the clause: `call/N` with a
//! non-variable goal, `findall/3,4`, `forall/2`, `once/1`, `ignore/1`, `bagof/3` and `setof/3` (with
//! `^`), `aggregate_all/3`, and the closures of `maplist/2..7`, `include/3`, `exclude/3`,
//! `partition/4`, `foldl/4..6` and `predsort/3` (an atom or compound closure gets the extra
//! arguments). A variable called as a goal is followed to the goals built in it earlier in the
//! clause's body (`G = create(x)`, `G =.. [create, X]`, `functor(G, create, 1)`: the call site is
//! the goal or the name as written there); a variable goal built nowhere in the clause is recorded
//! as an unknown call of its clause ([`CallGraph::unknown_calls`]).
//!
//! ```
//! use sidl_engine::analysis::callgraph::CallGraph;
//! use sidl_engine::atom::Atom;
//! let file = sidl_engine::syntax::parse_file("p :- findall(X, q(X), _), maplist(r(1), [a]).\nq(1).\n");
//! let g = CallGraph::build(&file.clauses);
//! let callees: Vec<String> = g.calls(0).iter().map(|s| format!("{}/{}", s.callee.0, s.callee.1)).collect();
//! assert_eq!(callees, ["findall/3", "q/1", "maplist/2", "r/2"]);
//! assert!(g.reach([(Atom::new("p"), 0)]).contains((Atom::new("q"), 1)));
//! ```

use crate::atom::{self, Atom};
use crate::diag::Span;
use crate::syntax::{Clause, Node, NodeKind};
use std::collections::{HashMap, HashSet, VecDeque};

/// A predicate: name and arity.
pub type PredKey = (Atom, u32);

/// `name/arity`.
pub fn show(key: PredKey) -> String {
    format!("{}/{}", key.0, key.1)
}

/// One call of a predicate in a clause body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The called predicate (for a closure, with its extra arguments counted).
    pub callee: PredKey,
    /// The goal (or closure) as written.
    pub span: Span,
    /// The callee's name as written (the functor or operator token).
    pub name_span: Span,
    /// Inside a negation (`\+`, `not/1`).
    pub negated: bool,
}

/// The call graph of a file's clauses (directives are ignored).
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    heads: Vec<Option<PredKey>>,
    calls: Vec<Vec<CallSite>>,
    unknown: Vec<Vec<Span>>,
    defs: HashMap<PredKey, Vec<usize>>,
    order: Vec<PredKey>,
    /// Per clause, per call site: the shapes of its arguments (for goals passed to helpers).
    site_args: Vec<Vec<Vec<Arg>>>,
}

/// The shape of an argument of a call, as far as passing a goal to a helper needs it.
#[derive(Clone, Debug)]
enum Arg {
    /// An atom or a compound term: as a goal, a call of `key` with arguments `args`.
    Callable {
        key: PredKey,
        span: Span,
        name_span: Span,
        args: Vec<Arg>,
    },
    /// A (named) variable of the clause.
    Var(u32, Span),
    Other,
}

/// The shape of `n`, its arguments followed `depth` levels deep.
fn arg_shape(n: &Node, depth: u32) -> Arg {
    match &n.kind {
        NodeKind::Atom(a) => Arg::Callable {
            key: (*a, 0),
            span: n.span,
            name_span: n.span,
            args: Vec::new(),
        },
        NodeKind::Compound { name, args, .. } => Arg::Callable {
            key: (*name, args.len() as u32),
            span: n.span,
            name_span: n.name_span(),
            args: if depth == 0 {
                vec![Arg::Other; args.len()]
            } else {
                args.iter().map(|a| arg_shape(a, depth - 1)).collect()
            },
        },
        NodeKind::Var { number, name } if name != "_" => Arg::Var(*number, n.span),
        _ => Arg::Other,
    }
}

/// The head arguments of a clause that are plain variables: variable number -> first position.
fn head_vars(head: &Node) -> HashMap<u32, usize> {
    let mut out = HashMap::new();
    for (i, a) in head.args().iter().enumerate() {
        if let NodeKind::Var { number, name } = &a.kind {
            if name != "_" {
                out.entry(*number).or_insert(i);
            }
        }
    }
    out
}

impl CallGraph {
    /// Builds the graph; clause indices are indices into `clauses`.
    pub fn build(clauses: &[Clause]) -> CallGraph {
        let mut g = CallGraph::default();
        // (predicate, head argument position, extra arguments): the helper calls that argument
        let mut metas: HashSet<(PredKey, usize, u32)> = HashSet::new();
        for (i, c) in clauses.iter().enumerate() {
            let head = if c.is_directive() {
                None
            } else {
                c.head().functor().map(|(n, a)| (n, a as u32))
            };
            let mut calls = Calls::default();
            if let Some(key) = head {
                if let Some(b) = c.body() {
                    // the game manager gives a head keyword its arguments: a goal among them is unknown
                    let hv = if crate::analysis::placement::is_head_keyword(key) {
                        HashMap::new()
                    } else {
                        head_vars(c.head())
                    };
                    body_calls(b, &hv, &mut calls);
                    metas.extend(calls.metas.iter().map(|&(pos, extra)| (key, pos, extra)));
                }
            }
            let Calls {
                sites,
                args,
                unknown,
                ..
            } = calls;
            g.site_args.push(args);
            if let Some(k) = head {
                let e = g.defs.entry(k).or_default();
                if e.is_empty() {
                    g.order.push(k);
                }
                e.push(i);
            }
            g.heads.push(head);
            g.calls.push(sites);
            g.unknown.push(unknown);
        }
        g.pass_goals(clauses, metas);
        g
    }

    /// Goals passed to helpers that call them (`line(M) :- lineon(cell, M).` with
    /// `lineon(B, M) :- call(B, 1, 1, M), ...`): a callable argument in such a position is a call
    /// site of the calling clause (`cell/3`); a variable of the caller's head passes the position
    /// on to the caller; any other variable is an unknown call of the caller. To a fixpoint.
    fn pass_goals(&mut self, clauses: &[Clause], mut metas: HashSet<(PredKey, usize, u32)>) {
        let mut done: HashSet<(usize, usize, usize, u32)> = HashSet::new();
        let mut head_pos: HashMap<usize, HashMap<u32, usize>> = HashMap::new();
        loop {
            let mut changed = false;
            // one entry of `calls` per clause
            for (c, clause) in clauses.iter().enumerate().take(self.calls.len()) {
                let mut s = 0;
                while s < self.calls[c].len() {
                    let site = self.calls[c][s].clone();
                    let positions: Vec<(usize, u32)> = metas
                        .iter()
                        .filter(|m| m.0 == site.callee)
                        .map(|m| (m.1, m.2))
                        .collect();
                    for (pos, extra) in positions {
                        if !done.insert((c, s, pos, extra)) {
                            continue;
                        }
                        changed = true;
                        match self.site_args[c][s].get(pos).cloned().unwrap_or(Arg::Other) {
                            Arg::Callable {
                                key,
                                span,
                                name_span,
                                args,
                            } => {
                                self.calls[c].push(CallSite {
                                    callee: (key.0, key.1 + extra),
                                    span,
                                    name_span,
                                    negated: site.negated,
                                });
                                self.site_args[c].push(args);
                            }
                            Arg::Var(v, span) => {
                                let head = self.heads[c]
                                    .filter(|&h| !crate::analysis::placement::is_head_keyword(h));
                                let at = head.and_then(|h| {
                                    head_pos
                                        .entry(c)
                                        .or_insert_with(|| head_vars(clause.head()))
                                        .get(&v)
                                        .map(|&j| (h, j))
                                });
                                match at {
                                    Some((h, j)) => {
                                        metas.insert((h, j, extra));
                                    }
                                    None => {
                                        if !self.unknown[c].contains(&span) {
                                            self.unknown[c].push(span);
                                        }
                                    }
                                }
                            }
                            Arg::Other => {}
                        }
                    }
                    s += 1;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Every defined predicate, in order of first definition.
    pub fn predicates(&self) -> &[PredKey] {
        &self.order
    }

    pub fn is_defined(&self, key: PredKey) -> bool {
        self.defs.contains_key(&key)
    }

    /// The indices of the clauses defining `key`, in source order.
    pub fn clauses_of(&self, key: PredKey) -> &[usize] {
        self.defs.get(&key).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The predicate clause `clause` defines (`None` for a directive or a non-callable head).
    pub fn head_of(&self, clause: usize) -> Option<PredKey> {
        self.heads.get(clause).copied().flatten()
    }

    /// The calls of clause `clause`, in source order.
    pub fn calls(&self, clause: usize) -> &[CallSite] {
        self.calls.get(clause).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether clause `clause` calls a goal that is not known statically (`call(G)` with a variable
    /// that no earlier goal of the clause builds).
    pub fn has_unknown_calls(&self, clause: usize) -> bool {
        !self.unknown_calls(clause).is_empty()
    }

    /// The spans of the variables clause `clause` calls as goals that are not known statically.
    pub fn unknown_calls(&self, clause: usize) -> &[Span] {
        self.unknown.get(clause).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every call made by the clauses of `key`, with the calling clause's index.
    pub fn calls_of(&self, key: PredKey) -> impl Iterator<Item = (usize, &CallSite)> + '_ {
        self.clauses_of(key)
            .iter()
            .flat_map(move |&c| self.calls(c).iter().map(move |s| (c, s)))
    }

    /// The defined predicates reachable from `roots` (the roots included when defined), breadth
    /// first, with the predicate through which each was first reached.
    pub fn reach(&self, roots: impl IntoIterator<Item = PredKey>) -> Reach {
        self.reach_through(roots, |_| true)
    }

    /// Like [`CallGraph::reach`], entering only the callees for which `follow` holds.
    pub fn reach_through(
        &self,
        roots: impl IntoIterator<Item = PredKey>,
        follow: impl Fn(PredKey) -> bool,
    ) -> Reach {
        let mut parent = HashMap::new();
        let mut queue = VecDeque::new();
        for r in roots {
            if self.is_defined(r) && !parent.contains_key(&r) {
                parent.insert(r, None);
                queue.push_back(r);
            }
        }
        while let Some(p) = queue.pop_front() {
            for (_, s) in self.calls_of(p) {
                if self.is_defined(s.callee) && !parent.contains_key(&s.callee) && follow(s.callee)
                {
                    parent.insert(s.callee, Some(p));
                    queue.push_back(s.callee);
                }
            }
        }
        Reach { parent }
    }
}

/// The result of [`CallGraph::reach`].
#[derive(Clone, Debug, Default)]
pub struct Reach {
    parent: HashMap<PredKey, Option<PredKey>>,
}

impl Reach {
    pub fn contains(&self, key: PredKey) -> bool {
        self.parent.contains_key(&key)
    }
    /// A shortest call path from a root to `key` (both included); empty if unreachable.
    pub fn path(&self, key: PredKey) -> Vec<PredKey> {
        let mut path = Vec::new();
        let mut cur = Some(key);
        while let Some(k) = cur {
            match self.parent.get(&k) {
                Some(p) => {
                    path.push(k);
                    cur = *p;
                }
                None => return Vec::new(),
            }
        }
        path.reverse();
        path
    }
    pub fn iter(&self) -> impl Iterator<Item = PredKey> + '_ {
        self.parent.keys().copied()
    }
}

/// The extra arguments a meta-predicate adds to its closure argument: `(closure index, extra)`.
fn closure_arg(name: &str, arity: usize) -> Option<(usize, u32)> {
    Some(match (name, arity) {
        ("maplist", 2..=7) => (0, arity as u32 - 1),
        ("include", 3) | ("exclude", 3) | ("partition", 4) => (0, 1),
        ("foldl", 4..=6) => (0, arity as u32 - 1),
        ("predsort", 3) => (0, 3),
        _ => return None,
    })
}

/// The goal arguments of a meta-predicate called with a plain goal: argument indices.
pub(crate) fn goal_args(name: Atom, arity: usize) -> &'static [usize] {
    match (name, arity) {
        (atom::COMMA, 2)
        | (atom::SEMI, 2)
        | (atom::BAR, 2)
        | (atom::ARROW, 2)
        | (atom::SOFT_ARROW, 2) => &[0, 1],
        (atom::NOT_PROVABLE, 1) | (atom::NOT, 1) | (atom::CALL, 1) => &[0],
        _ => match (name.name(), arity) {
            ("once", 1) | ("ignore", 1) => &[0],
            ("forall", 2) => &[0, 1],
            ("findall", 3) | ("findall", 4) => &[1],
            ("bagof", 3) | ("setof", 3) | ("aggregate_all", 3) => &[1],
            ("catch", 3) => &[0, 2],
            _ => &[],
        },
    }
}

/// Control constructs: not recorded as calls themselves.
fn is_control(name: Atom, arity: usize) -> bool {
    matches!(
        (name, arity),
        (atom::COMMA, 2)
            | (atom::SEMI, 2)
            | (atom::BAR, 2)
            | (atom::ARROW, 2)
            | (atom::SOFT_ARROW, 2)
            | (atom::NOT_PROVABLE, 1)
            | (atom::NOT, 1)
    ) || (name == atom::CALL && (1..=8).contains(&arity))
}

/// A goal built in a variable of the clause before the variable is called.
#[derive(Clone, Copy)]
enum Built<'a> {
    /// `G = Goal` (or `Goal = G`): the goal as written.
    Term(&'a Node),
    /// `G =.. [Name | Args]` or `functor(G, Name, Arity)`: the name as written and the arity
    /// (`None`: `=..` with a list whose tail is not written).
    Functor(&'a Node, Atom, Option<u32>),
}

/// The goal a body goal `g` builds in a variable, if any: `(variable number, goal)`.
fn built_goal(g: &Node) -> Option<(u32, Built<'_>)> {
    let (name, args) = match &g.kind {
        NodeKind::Compound { name, args, .. } => (*name, args.as_slice()),
        _ => return None,
    };
    let var = |n: &Node| match &n.kind {
        NodeKind::Var { number, name } if name != "_" => Some(*number),
        _ => None,
    };
    let callable = |n: &Node| matches!(n.kind, NodeKind::Atom(_) | NodeKind::Compound { .. });
    match (name.name(), args) {
        ("=", [a, b]) => match (var(a), var(b)) {
            (Some(v), None) if callable(b) => Some((v, Built::Term(b))),
            (None, Some(v)) if callable(a) => Some((v, Built::Term(a))),
            _ => None,
        },
        ("=..", [a, list]) => {
            let v = var(a)?;
            let NodeKind::List { items, tail } = &list.kind else {
                return None;
            };
            let NodeKind::Atom(f) = items[0].kind else {
                return None;
            };
            let arity = tail.is_none().then(|| items.len() as u32 - 1);
            Some((v, Built::Functor(&items[0], f, arity)))
        }
        ("functor", [a, n, k]) => {
            let v = var(a)?;
            match (&n.kind, &k.kind) {
                (NodeKind::Atom(f), NodeKind::Int(k)) if (0..=255).contains(k) => {
                    Some((v, Built::Functor(n, *f, Some(*k as u32))))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// How many times the goals built in variables are followed in one clause (`G = call(G)` must end).
const MAX_BUILT_EXPANSIONS: usize = 64;

/// What [`body_calls`] finds in a body.
#[derive(Default)]
struct Calls {
    sites: Vec<CallSite>,
    /// The shapes of each site's arguments.
    args: Vec<Vec<Arg>>,
    /// The spans of variable goals not known statically.
    unknown: Vec<Span>,
    /// Head arguments called as goals: (position, extra arguments).
    metas: Vec<(usize, u32)>,
}

impl Calls {
    fn push(&mut self, site: CallSite, args: Vec<Arg>) {
        self.sites.push(site);
        self.args.push(args);
    }
}

/// The calls of a body, in source order (iterative). A variable called as a goal is followed to the
/// goals built in it earlier in the body (`G = g(..)`, `G =.. [g | ..]`, `functor(G, g, N)`); else,
/// when it is a head argument (`head_vars`), recorded as a goal argument of the clause's predicate;
/// else recorded as unknown (its span).
fn body_calls(body: &Node, head_vars: &HashMap<u32, usize>, out: &mut Calls) {
    // (goal, extra arguments, negated)
    let mut stack: Vec<(&Node, u32, bool)> = vec![(body, 0, false)];
    let mut built: HashMap<u32, Vec<Built<'_>>> = HashMap::new();
    let mut expansions = 0;
    while let Some((g, extra, neg)) = stack.pop() {
        let (name, args): (Atom, &[Node]) = match &g.kind {
            NodeKind::Var { number, .. } => {
                let goals = built.get(number).map(Vec::as_slice).unwrap_or(&[]);
                if goals.is_empty() || expansions >= MAX_BUILT_EXPANSIONS {
                    match head_vars.get(number) {
                        Some(&pos) if goals.is_empty() => out.metas.push((pos, extra)),
                        _ => out.unknown.push(g.span),
                    }
                    continue;
                }
                expansions += 1;
                let mut push = Vec::new();
                for b in goals {
                    match *b {
                        Built::Term(t) => push.push((t, extra, neg)),
                        Built::Functor(at, f, arity) => {
                            let arities = match arity {
                                Some(k) => vec![k],
                                None => crate::analysis::placement::keyword_arities(f),
                            };
                            if arities.is_empty() {
                                out.unknown.push(g.span);
                            }
                            for k in arities {
                                out.push(
                                    CallSite {
                                        callee: (f, k + extra),
                                        span: at.span,
                                        name_span: at.span,
                                        negated: neg,
                                    },
                                    Vec::new(),
                                );
                            }
                        }
                    }
                }
                stack.extend(push.into_iter().rev());
                continue;
            }
            NodeKind::Atom(a) => (*a, &[]),
            NodeKind::Compound { name, args, .. } => (*name, args.as_slice()),
            _ => continue,
        };
        if !neg && extra == 0 {
            if let Some((v, b)) = built_goal(g) {
                built.entry(v).or_default().push(b);
            }
        }
        let n = args.len();
        let shapes = || args.iter().map(|a| arg_shape(a, 1)).collect::<Vec<Arg>>();
        if extra > 0 {
            if name == atom::CALL && n >= 1 {
                stack.push((&args[0], extra + n as u32 - 1, neg));
            } else {
                out.push(
                    CallSite {
                        callee: (name, n as u32 + extra),
                        span: g.span,
                        name_span: g.name_span(),
                        negated: neg,
                    },
                    shapes(),
                );
            }
            continue;
        }
        let mut push: Vec<(&Node, u32, bool)> = Vec::new();
        if name == atom::CALL && n >= 2 {
            push.push((&args[0], n as u32 - 1, neg));
        }
        let neg_inner = neg || matches!((name, n), (atom::NOT_PROVABLE, 1) | (atom::NOT, 1));
        for &i in goal_args(name, n) {
            let mut a = &args[i];
            if matches!(name.name(), "bagof" | "setof") {
                while a.is_functor(atom::CARET, 2) {
                    a = &a.args()[1];
                }
            }
            push.push((a, 0, neg_inner));
        }
        if let Some((i, k)) = closure_arg(name.name(), n) {
            push.push((&args[i], k, neg));
        }
        if !is_control(name, n) {
            out.push(
                CallSite {
                    callee: (name, n as u32),
                    span: g.span,
                    name_span: g.name_span(),
                    negated: neg,
                },
                shapes(),
            );
        }
        // source order: push in reverse
        stack.extend(push.into_iter().rev());
    }
}
