//! A static call graph of a parsed game: which predicates each clause calls, and where.
//!
//! Body goals are followed through the control constructs (`,`, `;`, `->`, `*->`, `|`, `\+`, `not`,
//! `call/1`, `catch/3`) and through the meta-calls whose goal is written in the clause: `call/N` with a
//! non-variable goal, `findall/3,4`, `forall/2`, `once/1`, `ignore/1`, `bagof/3` and `setof/3` (with
//! `^`), `aggregate_all/3`, and the closures of `maplist/2..7`, `include/3`, `exclude/3`,
//! `partition/4`, `foldl/4..6` and `predsort/3` (an atom or compound closure gets the extra
//! arguments). A meta-call whose goal is a variable is recorded as an unknown call of its clause.
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
use std::collections::{HashMap, VecDeque};

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
    unknown: Vec<bool>,
    defs: HashMap<PredKey, Vec<usize>>,
    order: Vec<PredKey>,
}

impl CallGraph {
    /// Builds the graph; clause indices are indices into `clauses`.
    pub fn build(clauses: &[Clause]) -> CallGraph {
        let mut g = CallGraph::default();
        for (i, c) in clauses.iter().enumerate() {
            let head = if c.is_directive() {
                None
            } else {
                c.head().functor().map(|(n, a)| (n, a as u32))
            };
            let mut sites = Vec::new();
            let mut unknown = false;
            if head.is_some() {
                if let Some(b) = c.body() {
                    body_calls(b, &mut sites, &mut unknown);
                }
            }
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
        g
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

    /// Whether clause `clause` calls a goal that is not known statically (`call(G)` with a variable).
    pub fn has_unknown_calls(&self, clause: usize) -> bool {
        self.unknown.get(clause).copied().unwrap_or(false)
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

/// The calls of a body, in source order (iterative).
fn body_calls(body: &Node, out: &mut Vec<CallSite>, unknown: &mut bool) {
    // (goal, extra arguments, negated)
    let mut stack: Vec<(&Node, u32, bool)> = vec![(body, 0, false)];
    while let Some((g, extra, neg)) = stack.pop() {
        let (name, args): (Atom, &[Node]) = match &g.kind {
            NodeKind::Var { .. } => {
                *unknown = true;
                continue;
            }
            NodeKind::Atom(a) => (*a, &[]),
            NodeKind::Compound { name, args, .. } => (*name, args.as_slice()),
            _ => continue,
        };
        let n = args.len();
        if extra > 0 {
            if name == atom::CALL && n >= 1 {
                stack.push((&args[0], extra + n as u32 - 1, neg));
            } else {
                out.push(CallSite {
                    callee: (name, n as u32 + extra),
                    span: g.span,
                    name_span: g.name_span(),
                    negated: neg,
                });
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
            out.push(CallSite {
                callee: (name, n as u32),
                span: g.span,
                name_span: g.name_span(),
                negated: neg,
            });
        }
        // source order: push in reverse
        stack.extend(push.into_iter().rev());
    }
}
