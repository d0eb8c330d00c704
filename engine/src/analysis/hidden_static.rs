//! Def.1 §11, statically: a switch's legality, actions, action templates and owner must not depend on
//! facts hidden from its owner (docs/semantics.md §6.2).
//!
//! [`check_static`] reports `W0501` where a `fact/1` call that `legal/1`, `switch/2`, `unlimited/2` or
//! `owned/2` can reach (directly or through helper predicates, control constructs and meta-calls whose
//! goal is known) can read a fact that `hidden/2` hides from the switch's owner.
//!
//! # How
//! An abstract interpretation by unfolding. Each keyword clause is run over patterns (terms with
//! variables) instead of a state: `fact(F)` succeeds without binding and records `F` as a *reading*;
//! `player(P)` enumerates the game's players (computed by running `init/2`); `=/2` unifies; helper
//! and library predicates are unfolded clause by clause; every other built-in succeeds without
//! binding. So every concrete proof is an instance of an abstract derivation (the analysis is
//! conservative), and the bindings of a whole derivation (the switch's id, its owner, the players a
//! rule enumerates) restrict what a reading can match. Then, at the end of each derivation (and at a
//! failure after a cut, which can make a reading decide a later clause), each reading `F` is checked:
//! - the switch id unifies with an `owned/2` derivation `(I, O)` whose owner `O` is not a
//!   distribution (for an `owned/2` clause, its own `O`),
//! - `F` unifies with a `hidden/2` derivation `(W, N)` with `N = O`,
//! - and with a fact that can exist: an initial fact (running `init/1`) or a `create/1` argument.
//!
//! Readings inside `\+`, `not/1`, `findall/3`, `forall/2`, `aggregate_all/3`, `bagof/3`, `setof/3`
//! and an if-then-else condition are taken as they are when read (later bindings do not narrow them).
//! Cuts are ignored (every clause is explored). Recursion (a predicate twice on the call path), deep
//! call chains and exhausted step budgets fall back to a predicate's *summary*: every `fact/1`
//! pattern its clauses and the predicates they mention contain, with fresh variables.
//!
//! Disequalities (`\==`, `\=`, `dif/2`) fail where both sides are already the same term, succeed
//! where they cannot unify, and are otherwise kept with the derivation: a `hidden/2` derivation
//! `hidden([value, P, _], [O]) :- player([O]), O \== P` does not hide `[value, a, _]` from `[a]`,
//! because matching the reading and the owner makes both sides `a`.
//!
//! Not handled: meta-calls whose goal is unknown statically (`call(G)` with `G` unbound),
//! arithmetic and other tests (taken as true, so possibly a report where the test excludes the
//! hidden fact), and the first-solution rule of `owned/2` (every `owned/2` clause can own a switch).

use crate::atom::{self, Atom};
use crate::diag::{Diagnostic, Span};
use crate::game::{Game, Session, Settings};
use crate::syntax::{Node, NodeKind};
use crate::term::Term;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;
use std::sync::Arc;

/// The code of a static §11 report.
pub const HIDDEN_READ: &str = "W0501";

/// A pattern: a term whose variables are numbered in a [`Store`].
#[derive(Clone, Debug)]
pub enum Pat {
    Var(u32),
    /// An atom, number or string.
    Atomic(Term),
    /// `name(args)`, with the span it was written at (empty when not from the game's source).
    Cmp(Atom, Rc<[Pat]>, Span),
}

impl Pat {
    /// The pattern of a term, its variables numbered from `base`.
    pub fn of_term(t: &Term, base: u32) -> Pat {
        match t {
            Term::Var(i) => Pat::Var(base + i),
            Term::Compound(f, args) => Pat::Cmp(
                *f,
                args.iter().map(|a| Pat::of_term(a, base)).collect(),
                Span::default(),
            ),
            other => Pat::Atomic(other.clone()),
        }
    }

    /// The pattern of a syntax node, with spans.
    fn of_node(n: &Node, base: u32) -> Pat {
        match &n.kind {
            NodeKind::Var { number, .. } => Pat::Var(base + number),
            NodeKind::Compound { name, args, .. } => Pat::Cmp(
                *name,
                args.iter().map(|a| Pat::of_node(a, base)).collect(),
                n.span,
            ),
            NodeKind::List { items, tail } => {
                let mut t = match tail {
                    Some(t) => Pat::of_node(t, base),
                    None => Pat::Atomic(Term::nil()),
                };
                for it in items.iter().rev() {
                    let h = Pat::of_node(it, base);
                    t = Pat::Cmp(atom::DOT, Rc::from(vec![h, t]), n.span);
                }
                t
            }
            NodeKind::Curly(inner) => Pat::Cmp(
                atom::CURLY,
                Rc::from(vec![Pat::of_node(inner, base)]),
                n.span,
            ),
            _ => Pat::Atomic(n.to_term()),
        }
    }

    fn rename(&self, base: u32) -> Pat {
        match self {
            Pat::Var(i) => Pat::Var(base + i),
            Pat::Atomic(t) => Pat::Atomic(t.clone()),
            Pat::Cmp(f, args, s) => Pat::Cmp(*f, args.iter().map(|a| a.rename(base)).collect(), *s),
        }
    }

    fn span(&self) -> Span {
        match self {
            Pat::Cmp(_, _, s) => *s,
            _ => Span::default(),
        }
    }
}

/// Variable bindings with a trail, for unifying patterns.
#[derive(Default, Debug)]
pub struct Store {
    binds: Vec<Option<Pat>>,
    trail: Vec<u32>,
}

impl Store {
    pub fn new() -> Store {
        Store::default()
    }

    /// `n` fresh variables; returns the number of the first.
    pub fn fresh(&mut self, n: u32) -> u32 {
        let base = self.binds.len() as u32;
        self.binds.resize(self.binds.len() + n as usize, None);
        base
    }

    /// A pattern's variables, numbered from 0, as fresh variables of this store.
    pub fn import(&mut self, p: &Pat, nvars: u32) -> Pat {
        let base = self.fresh(nvars);
        p.rename(base)
    }

    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let v = self.trail.pop().unwrap_or_default();
            self.binds[v as usize] = None;
        }
    }

    fn deref(&self, p: &Pat) -> Pat {
        let mut p = p.clone();
        while let Pat::Var(v) = p {
            match self.binds.get(v as usize).and_then(|b| b.as_ref()) {
                Some(b) => p = b.clone(),
                None => return p,
            }
        }
        p
    }

    fn occurs(&self, v: u32, p: &Pat) -> bool {
        let mut stack = vec![p.clone()];
        while let Some(p) = stack.pop() {
            match self.deref(&p) {
                Pat::Var(w) if w == v => return true,
                Pat::Cmp(_, args, _) => stack.extend(args.iter().cloned()),
                _ => {}
            }
        }
        false
    }

    fn bind(&mut self, v: u32, p: Pat) {
        self.binds[v as usize] = Some(p);
        self.trail.push(v);
    }

    /// Unifies `a` and `b` (with the occurs check). On failure the bindings made are kept: undo to a
    /// mark taken before.
    pub fn unify(&mut self, a: &Pat, b: &Pat) -> bool {
        let mut stack = vec![(a.clone(), b.clone())];
        while let Some((a, b)) = stack.pop() {
            let (a, b) = (self.deref(&a), self.deref(&b));
            match (a, b) {
                (Pat::Var(x), Pat::Var(y)) if x == y => {}
                (Pat::Var(x), other) | (other, Pat::Var(x)) => {
                    if self.occurs(x, &other) {
                        return false;
                    }
                    self.bind(x, other);
                }
                (Pat::Atomic(x), Pat::Atomic(y)) => {
                    if !atomic_eq(&x, &y) {
                        return false;
                    }
                }
                (Pat::Cmp(f, xs, _), Pat::Cmp(g, ys, _)) => {
                    if f != g || xs.len() != ys.len() {
                        return false;
                    }
                    stack.extend(xs.iter().cloned().zip(ys.iter().cloned()));
                }
                _ => return false,
            }
        }
        true
    }

    /// Whether `a` and `b` unify (no bindings are kept).
    pub fn unifiable(&mut self, a: &Pat, b: &Pat) -> bool {
        let m = self.mark();
        let ok = self.unify(a, b);
        self.undo(m);
        ok
    }

    /// `p` with every bound variable replaced by its value.
    pub fn resolve(&self, p: &Pat) -> Pat {
        self.resolve_depth(p, 0)
    }

    fn resolve_depth(&self, p: &Pat, depth: u32) -> Pat {
        match self.deref(p) {
            Pat::Cmp(f, args, s) if depth < 500 => Pat::Cmp(
                f,
                args.iter()
                    .map(|a| self.resolve_depth(a, depth + 1))
                    .collect(),
                s,
            ),
            other => other,
        }
    }

    /// `p` resolved, with its free variables renumbered 0.. (independent of this store), and their
    /// number.
    pub fn export(&self, p: &Pat) -> (Pat, u32) {
        let mut map = FxHashMap::default();
        let r = renumber(&self.resolve(p), &mut map);
        (r, map.len() as u32)
    }

    /// `p` as a term (free variables numbered in order of appearance).
    pub fn to_term(&self, p: &Pat) -> Term {
        let (p, _) = self.export(p);
        pat_term(&p)
    }

    /// `p` written as a player reads it; free variables are `_`.
    pub fn show(&self, p: &Pat) -> String {
        let (p, n) = self.export(p);
        let names = vec!["_".to_string(); n as usize];
        crate::write::writeq(&pat_term(&p), Some(&names))
    }
}

fn atomic_eq(x: &Term, y: &Term) -> bool {
    match (x, y) {
        (Term::Float(a), Term::Float(b)) => a.to_bits() == b.to_bits(),
        _ => x == y,
    }
}

fn renumber(p: &Pat, map: &mut FxHashMap<u32, u32>) -> Pat {
    match p {
        Pat::Var(v) => {
            let n = map.len() as u32;
            Pat::Var(*map.entry(*v).or_insert(n))
        }
        Pat::Atomic(t) => Pat::Atomic(t.clone()),
        Pat::Cmp(f, args, s) => Pat::Cmp(*f, args.iter().map(|a| renumber(a, map)).collect(), *s),
    }
}

fn pat_term(p: &Pat) -> Term {
    match p {
        Pat::Var(v) => Term::Var(*v),
        Pat::Atomic(t) => t.clone(),
        Pat::Cmp(f, args, _) => Term::new_compound(*f, args.iter().map(pat_term).collect()),
    }
}

/// A clause as patterns.
#[derive(Debug)]
struct Cl {
    head: Pat,
    body: Option<Pat>,
    nvars: u32,
    /// The index of the game clause (`None` for a library clause).
    game: Option<usize>,
}

type Path = Rc<Vec<(Atom, u32)>>;

/// A `fact/1` pattern of a predicate's summary: pattern, number of variables, span of the call.
type Summary = (Pat, u32, Span);

/// A recorded `fact/1` call.
#[derive(Clone, Debug)]
struct Reading {
    pat: Pat,
    span: Span,
    path: Path,
}

/// A continuation: goals to prove, each with its call path.
#[derive(Debug)]
struct ContNode {
    goal: Pat,
    path: Path,
    next: Cont,
}
type Cont = Option<Rc<ContNode>>;

fn push(goal: Pat, path: Path, next: Cont) -> Cont {
    Some(Rc::new(ContNode { goal, path, next }))
}

/// What a keyword derivation is used for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Collect `(I, O)` of `owned/2` derivations (and check their readings).
    Owned,
    /// Collect `(W, N)` of `hidden/2` derivations.
    Hidden,
    /// Check the readings of `legal/1`, `switch/2`, `unlimited/2`.
    Check,
}

const MAX_STEPS: u32 = 2_000;
const MAX_LEAVES: u32 = 512;
const MAX_DEPTH: usize = 12;
const END: &str = "$sidl_scope_end";

/// One derivation pattern of `owned/2` or `hidden/2`, exported.
#[derive(Clone, Debug)]
struct Pair {
    a: Pat,
    b: Pat,
    /// Disequalities (`\==`, `\=`, `dif/2`) the derivation left undecided: the pair does not hold
    /// where both sides of one become the same term.
    diseq: Vec<(Pat, Pat)>,
    nvars: u32,
    clause: usize,
}

struct Analysis<'a> {
    src: &'a str,
    game: &'a Game,
    clauses: FxHashMap<(Atom, u32), Vec<Rc<Cl>>>,
    game_clauses: &'a [crate::syntax::Clause],
    players: Option<Vec<Pat>>,
    /// `fact/1` patterns of each predicate and what it mentions (fresh variables), with spans.
    summaries: FxHashMap<(Atom, u32), Rc<Vec<Summary>>>,
    store: Store,
    readings: Vec<Reading>,
    /// The undecided disequalities of the current derivation.
    diseq: Vec<(Pat, Pat)>,
    /// Readings made inside a scope (copies), kept across its derivations.
    collected: Vec<Reading>,
    /// Inside `\+` & co (readings are copied when read).
    scope: u32,
    cut: bool,
    steps: u32,
    leaves: u32,
    exhausted: bool,
    mode: Mode,
    /// The keyword clause being analysed and its head arguments.
    clause: usize,
    head: Vec<Pat>,
    owners: Vec<Pair>,
    hidden: Vec<Pair>,
    produced: Vec<(Pat, u32)>,
    reported: FxHashSet<(usize, Span, usize)>,
    out: Vec<Diagnostic>,
}

/// The static Def.1 §11 check of a game's source: `W0501` warnings, in source order. A source that does
/// not load (syntax errors) gives no report; the loader reports it.
pub fn check_static(src: &str) -> Vec<Diagnostic> {
    let parsed = crate::syntax::parse_file(src);
    let Ok((game, _)) = Game::load(src) else {
        return Vec::new();
    };
    check_game(&game, &parsed.clauses)
}

/// [`check_static`] over a loaded game and its parsed clauses (as from `parse_file(&game.source)`).
pub fn check_game(game: &Game, clauses: &[crate::syntax::Clause]) -> Vec<Diagnostic> {
    let mut a = Analysis::new(game, clauses);
    a.run();
    let mut out = a.out;
    crate::diag::sort_by_span(&mut out);
    out
}

fn goal_functor(p: &Pat) -> Option<(Atom, u32)> {
    match p {
        Pat::Atomic(Term::Atom(a)) => Some((*a, 0)),
        Pat::Cmp(f, args, _) => Some((*f, args.len() as u32)),
        _ => None,
    }
}

fn args_of(p: &Pat) -> &[Pat] {
    match p {
        Pat::Cmp(_, args, _) => args,
        _ => &[],
    }
}

/// Whether an owner pattern is a distribution (`equal(N)` or a list of numbers).
fn is_distribution(store: &Store, o: &Pat) -> bool {
    match store.resolve(o) {
        Pat::Cmp(f, args, _) if f == atom::EQUAL && args.len() == 1 => true,
        p @ Pat::Cmp(f, _, _) if f == atom::DOT => {
            let mut p = p;
            loop {
                match p {
                    Pat::Cmp(f, args, _) if f == atom::DOT && args.len() == 2 => {
                        if !matches!(&args[0], Pat::Atomic(Term::Int(_) | Term::Float(_))) {
                            return false;
                        }
                        p = args[1].clone();
                    }
                    Pat::Atomic(Term::Atom(a)) => return a == atom::NIL,
                    _ => return false,
                }
            }
        }
        _ => false,
    }
}

impl<'a> Analysis<'a> {
    fn new(game: &'a Game, game_clauses: &'a [crate::syntax::Clause]) -> Analysis<'a> {
        let mut clauses: FxHashMap<(Atom, u32), Vec<Rc<Cl>>> = FxHashMap::default();
        for (i, c) in game_clauses.iter().enumerate() {
            if c.is_directive() || c.has_errors {
                continue;
            }
            let head = Pat::of_node(c.head(), 0);
            let Some(key) = goal_functor(&head) else {
                continue;
            };
            clauses.entry(key).or_default().push(Rc::new(Cl {
                head,
                body: c.body().map(|b| Pat::of_node(b, 0)),
                nvars: c.var_count() as u32,
                game: Some(i),
            }));
        }
        // players and initial facts, by running the game's init/1 and init/2
        let mut players = None;
        let mut produced = Vec::new();
        if let Ok(s) = Session::new(Arc::new(game.clone()), 0, Settings::default()) {
            players = Some(
                s.players()
                    .iter()
                    .map(|p| Pat::of_term(p, 0))
                    .collect::<Vec<_>>(),
            );
            for f in s.state().facts.terms() {
                produced.push((Pat::of_term(f, 0), 0));
            }
        }
        // create/1 arguments anywhere in a body, as patterns
        for c in game_clauses {
            if let Some(b) = c.body() {
                b.walk(|n| {
                    if n.is_functor(atom::CREATE, 1) {
                        let mut map = FxHashMap::default();
                        let p = renumber(&Pat::of_node(&n.args()[0], 0), &mut map);
                        produced.push((p, map.len() as u32));
                    }
                });
            }
        }
        Analysis {
            src: &game.source,
            game,
            clauses,
            game_clauses,
            players,
            summaries: FxHashMap::default(),
            store: Store::new(),
            readings: Vec::new(),
            diseq: Vec::new(),
            collected: Vec::new(),
            scope: 0,
            cut: false,
            steps: 0,
            leaves: 0,
            exhausted: false,
            mode: Mode::Check,
            clause: 0,
            head: Vec::new(),
            owners: Vec::new(),
            hidden: Vec::new(),
            produced,
            reported: FxHashSet::default(),
            out: Vec::new(),
        }
    }

    fn run(&mut self) {
        for (mode, key) in [
            (Mode::Hidden, (atom::HIDDEN, 2)),
            (Mode::Owned, (atom::OWNED, 2)),
            (Mode::Check, (atom::LEGAL, 1)),
            (Mode::Check, (atom::SWITCH, 2)),
            (Mode::Check, (atom::UNLIMITED, 2)),
        ] {
            if mode != Mode::Hidden && self.hidden.is_empty() {
                // nothing can be hidden from anybody: nothing can leak
                return;
            }
            let cls = self.clauses.get(&key).cloned().unwrap_or_default();
            for cl in cls {
                if mode == Mode::Hidden {
                    // hidden/2 is asked about existing facts: specialise it to each fact pattern
                    for (p, n) in self.produced.clone() {
                        self.keyword_clause_with(mode, &cl, key.0, Some((&p, n)));
                    }
                } else {
                    self.keyword_clause(mode, &cl, key.0);
                }
            }
        }
    }

    fn keyword_clause(&mut self, mode: Mode, cl: &Cl, name: Atom) {
        self.keyword_clause_with(mode, cl, name, None)
    }

    /// Analyses one keyword clause; `first`: a pattern its first head argument must match.
    fn keyword_clause_with(&mut self, mode: Mode, cl: &Cl, name: Atom, first: Option<(&Pat, u32)>) {
        self.store = Store::new();
        self.readings.clear();
        self.collected.clear();
        self.scope = 0;
        self.cut = false;
        self.steps = 0;
        self.leaves = 0;
        self.exhausted = false;
        self.mode = mode;
        self.clause = cl.game.unwrap_or_default();
        let base = self.store.fresh(cl.nvars);
        let head = cl.head.rename(base);
        self.head = args_of(&head).to_vec();
        if let Some((p, n)) = first {
            let p = self.store.import(p, n);
            if self.head.is_empty() || !self.store.unify(&self.head[0], &p) {
                return;
            }
        }
        let path: Path = Rc::new(vec![(name, self.head.len() as u32)]);
        let body = cl
            .body
            .as_ref()
            .map(|b| b.rename(base))
            .unwrap_or(Pat::Atomic(Term::Atom(atom::TRUE)));
        self.solve(push(body.clone(), path.clone(), None), 0);
        if self.exhausted && mode != Mode::Hidden {
            // fall back to the summary of the whole body, fresh variables
            self.store = Store::new();
            let base = self.store.fresh(cl.nvars);
            self.head = args_of(&cl.head.rename(base)).to_vec();
            self.readings.clear();
            let mut mentioned = Vec::new();
            mentions(&body, &mut mentioned);
            let mut pats = Vec::new();
            let mut visited = FxHashSet::default();
            for key in mentioned {
                self.summary_into(key, &mut pats, &mut visited);
            }
            for (p, n, span) in pats {
                let pat = self.store.import(&p, n);
                self.readings.push(Reading {
                    pat,
                    span,
                    path: Rc::new(vec![(name, self.head.len() as u32)]),
                });
            }
            self.leaf();
        }
    }

    fn summary_into(
        &mut self,
        key: (Atom, u32),
        out: &mut Vec<Summary>,
        visited: &mut FxHashSet<(Atom, u32)>,
    ) {
        if !visited.insert(key) {
            return;
        }
        if key == (atom::FACT, 1) {
            return;
        }
        let cls = self.clauses.get(&key).cloned().unwrap_or_default();
        for cl in cls {
            if let Some(b) = &cl.body {
                let mut m = Vec::new();
                mentions(b, &mut m);
                collect_facts(b, out);
                for k in m {
                    self.summary_into(k, out, visited);
                }
            }
        }
    }

    fn summary(&mut self, key: (Atom, u32)) -> Rc<Vec<Summary>> {
        if let Some(s) = self.summaries.get(&key) {
            return s.clone();
        }
        let mut out = Vec::new();
        let mut visited = FxHashSet::default();
        self.summary_into(key, &mut out, &mut visited);
        let s = Rc::new(out);
        self.summaries.insert(key, s.clone());
        s
    }

    fn clauses_of(&mut self, key: (Atom, u32)) -> Option<Vec<Rc<Cl>>> {
        if let Some(c) = self.clauses.get(&key) {
            return Some(c.clone());
        }
        // a library predicate written in Prolog: unfold its clauses too
        let pred = self.game.program.pred(key.0, key.1)?;
        if !pred.library || pred.clauses.is_empty() {
            return None;
        }
        let cls: Vec<Rc<Cl>> = pred
            .clauses
            .iter()
            .filter_map(|c| {
                let (h, b) = crate::solve::program::split_clause(&c.term)?;
                Some(Rc::new(Cl {
                    head: Pat::of_term(h, 0),
                    body: b.map(|b| Pat::of_term(b, 0)),
                    nvars: c.term.var_count(),
                    game: None,
                }))
            })
            .collect();
        self.clauses.insert(key, cls.clone());
        Some(cls)
    }

    fn record(&mut self, f: &Pat, span: Span, path: &Path) {
        if self.scope > 0 {
            // as read now: later bindings do not narrow a reading inside \+ & co
            let (p, n) = self.store.export(f);
            let pat = self.store.import(&p, n);
            self.collected.push(Reading {
                pat,
                span,
                path: path.clone(),
            });
        }
        self.readings.push(Reading {
            pat: f.clone(),
            span,
            path: path.clone(),
        });
    }

    /// Proves the continuation abstractly; calls `leaf` at each end.
    fn solve(&mut self, k: Cont, depth: usize) {
        if self.exhausted {
            return;
        }
        self.steps += 1;
        if self.steps > MAX_STEPS || depth > 400 {
            self.exhausted = true;
            return;
        }
        let Some(node) = k else {
            if self.scope == 0 {
                self.leaf();
            }
            return;
        };
        let goal = self.store.deref(&node.goal);
        let path = node.path.clone();
        let next = node.next.clone();
        let Some((name, arity)) = goal_functor(&goal) else {
            // an unbound or non-callable goal: not known statically
            return self.solve(next, depth + 1);
        };
        let args = args_of(&goal).to_vec();
        let n = name.name();
        match (n, arity) {
            (END, 0) => {}
            ("true", 0) | ("otherwise", 0) => self.solve(next, depth + 1),
            ("fail", 0) | ("false", 0) => self.fail_leaf(),
            ("!", 0) => {
                let c = self.cut;
                self.cut = true;
                self.solve(next, depth + 1);
                self.cut = c;
            }
            (",", 2) => {
                let k = push(args[1].clone(), path.clone(), next);
                self.solve(push(args[0].clone(), path, k), depth + 1)
            }
            (";", 2) | ("|", 2) => {
                let left = self.store.deref(&args[0]);
                match goal_functor(&left) {
                    Some((f, 2)) if f == atom::ARROW || f == atom::SOFT_ARROW => {
                        let la = args_of(&left).to_vec();
                        let m = self.store.mark();
                        let k = push(la[1].clone(), path.clone(), next.clone());
                        self.solve(push(la[0].clone(), path.clone(), k), depth + 1);
                        self.store.undo(m);
                        // the else branch: the condition was tried and failed
                        let len = self.readings.len();
                        self.scoped(&la[0], &path, depth);
                        self.solve(push(args[1].clone(), path, next), depth + 1);
                        self.readings.truncate(len);
                    }
                    _ => {
                        let m = self.store.mark();
                        self.solve(push(args[0].clone(), path.clone(), next.clone()), depth + 1);
                        self.store.undo(m);
                        self.solve(push(args[1].clone(), path, next), depth + 1);
                    }
                }
            }
            ("->", 2) | ("*->", 2) => {
                let k = push(args[1].clone(), path.clone(), next);
                self.solve(push(args[0].clone(), path, k), depth + 1)
            }
            ("\\+", 1) | ("not", 1) => {
                // \+ A = B fails concretely when both sides are already the same term
                if let Pat::Cmp(f, ab, _) = self.store.deref(&args[0]) {
                    if (f == atom::EQUALS || f.name() == "==")
                        && ab.len() == 2
                        && same(&self.store.resolve(&ab[0]), &self.store.resolve(&ab[1]))
                    {
                        return self.fail_leaf();
                    }
                }
                let len = self.readings.len();
                self.scoped(&args[0], &path, depth);
                self.solve(next, depth + 1);
                self.readings.truncate(len);
            }
            ("findall", 3)
            | ("findall", 4)
            | ("bagof", 3)
            | ("setof", 3)
            | ("aggregate_all", 3) => {
                let mut g = args[1].clone();
                while let Pat::Cmp(f, a, _) = self.store.deref(&g) {
                    if f == atom::CARET && a.len() == 2 {
                        g = a[1].clone();
                    } else {
                        break;
                    }
                }
                let len = self.readings.len();
                self.scoped(&g, &path, depth);
                self.solve(next, depth + 1);
                self.readings.truncate(len);
            }
            ("forall", 2) => {
                let len = self.readings.len();
                self.scoped(&args[0], &path, depth);
                self.scoped(&args[1], &path, depth);
                self.solve(next, depth + 1);
                self.readings.truncate(len);
            }
            ("once", 1) | ("catch", 3) => self.solve(push(args[0].clone(), path, next), depth + 1),
            ("ignore", 1) => {
                let m = self.store.mark();
                self.solve(push(args[0].clone(), path.clone(), next.clone()), depth + 1);
                self.store.undo(m);
                self.solve(next, depth + 1)
            }
            ("call", n) if n >= 1 => {
                let g = self.store.deref(&args[0]);
                let extra = &args[1..];
                let built = match g {
                    Pat::Atomic(Term::Atom(_)) if extra.is_empty() => Some(g.clone()),
                    Pat::Atomic(Term::Atom(a)) => {
                        Some(Pat::Cmp(a, extra.to_vec().into(), goal.span()))
                    }
                    Pat::Cmp(f, a, s) => {
                        let mut all = a.to_vec();
                        all.extend_from_slice(extra);
                        Some(Pat::Cmp(f, all.into(), s))
                    }
                    _ => None,
                };
                match built {
                    Some(b) => self.solve(push(b, path, next), depth + 1),
                    None => self.solve(next, depth + 1),
                }
            }
            ("\\=", 2) | ("\\==", 2) | ("dif", 2) => {
                // fails concretely when both sides are already the same term; when they cannot
                // unify it succeeds; else it is kept, to be decided by later bindings (those of a
                // reading and an owner, for a hidden/2 derivation)
                let (x, y) = (self.store.resolve(&args[0]), self.store.resolve(&args[1]));
                if same(&x, &y) {
                    self.fail_leaf();
                } else if !self.store.unifiable(&x, &y) {
                    self.solve(next, depth + 1);
                } else {
                    self.diseq.push((args[0].clone(), args[1].clone()));
                    self.solve(next, depth + 1);
                    self.diseq.pop();
                }
            }
            ("=", 2) | ("==", 2) => {
                let m = self.store.mark();
                if self.store.unify(&args[0], &args[1]) {
                    self.solve(next, depth + 1);
                } else {
                    self.fail_leaf();
                }
                self.store.undo(m);
            }
            ("fact", 1) => {
                self.record(&args[0], goal.span(), &path);
                let len = self.readings.len();
                self.solve(next, depth + 1);
                self.readings.truncate(len.saturating_sub(1));
            }
            ("player", 1) => match self.players.clone() {
                Some(ps) => {
                    let mut any = false;
                    for p in ps {
                        let m = self.store.mark();
                        if self.store.unify(&args[0], &p) {
                            any = true;
                            self.solve(next.clone(), depth + 1);
                        }
                        self.store.undo(m);
                    }
                    if !any {
                        self.fail_leaf();
                    }
                }
                None => self.solve(next, depth + 1),
            },
            ("create", 1) | ("delete", 1) | ("tocreate", 1) | ("todelete", 1) | ("does", 2) => {
                self.solve(next, depth + 1)
            }
            _ => self.call(name, arity, &goal, path, next, depth),
        }
    }

    /// Explores `g` for its readings only (its bindings do not survive) and adds them to the
    /// readings of the current derivation (the caller truncates).
    fn scoped(&mut self, g: &Pat, path: &Path, depth: usize) {
        let m = self.store.mark();
        let cut = self.cut;
        let start = self.collected.len();
        let saved = std::mem::take(&mut self.readings);
        self.scope += 1;
        let end = push(Pat::Atomic(Term::Atom(Atom::new(END))), path.clone(), None);
        self.solve(push(g.clone(), path.clone(), end), depth + 1);
        self.scope -= 1;
        self.readings = saved;
        self.cut = cut;
        self.store.undo(m);
        if self.scope == 0 {
            let found: Vec<Reading> = self.collected.drain(start..).collect();
            self.readings.extend(found);
        }
    }

    fn call(&mut self, name: Atom, arity: u32, goal: &Pat, path: Path, next: Cont, depth: usize) {
        let key = (name, arity);
        let Some(cls) = self.clauses_of(key) else {
            // a native built-in or an unknown predicate: succeeds, binds nothing
            return self.solve(next, depth + 1);
        };
        let on_path = path.iter().filter(|k| **k == key).count();
        if on_path >= 2 || path.len() > MAX_DEPTH || self.leaves > MAX_LEAVES {
            // recursion or too deep: the summary, then succeed without binding
            let s = self.summary(key);
            let mut p2 = (*path).clone();
            p2.push(key);
            let p2 = Rc::new(p2);
            let len = self.readings.len();
            for (p, n, span) in s.iter() {
                let pat = self.store.import(p, *n);
                self.record(&pat, *span, &p2);
            }
            self.solve(next, depth + 1);
            self.readings.truncate(len);
            return;
        }
        let mut p2 = (*path).clone();
        p2.push(key);
        let p2: Path = Rc::new(p2);
        let mut any = false;
        for cl in cls {
            let base = self.store.fresh(cl.nvars);
            let head = cl.head.rename(base);
            let m = self.store.mark();
            if self.store.unify(goal, &head) {
                any = true;
                let body = cl
                    .body
                    .as_ref()
                    .map(|b| b.rename(base))
                    .unwrap_or(Pat::Atomic(Term::Atom(atom::TRUE)));
                self.solve(push(body, p2.clone(), next.clone()), depth + 1);
            }
            self.store.undo(m);
            if self.exhausted {
                return;
            }
        }
        if !any {
            self.fail_leaf();
        }
    }

    fn fail_leaf(&mut self) {
        if self.cut && self.scope == 0 {
            self.leaf();
        }
    }

    /// The end of a derivation of the keyword clause.
    fn leaf(&mut self) {
        self.leaves += 1;
        match self.mode {
            Mode::Hidden => {
                let mut map = FxHashMap::default();
                let w = renumber(&self.store.resolve(&self.head[0]), &mut map);
                let n = renumber(&self.store.resolve(&self.head[1]), &mut map);
                let diseq = self
                    .diseq
                    .iter()
                    .map(|(x, y)| {
                        let x = renumber(&self.store.resolve(x), &mut map);
                        (x, renumber(&self.store.resolve(y), &mut map))
                    })
                    .collect();
                self.hidden.push(Pair {
                    a: w,
                    b: n,
                    diseq,
                    nvars: map.len() as u32,
                    clause: self.clause,
                });
            }
            Mode::Owned => {
                let mut map = FxHashMap::default();
                let i = renumber(&self.store.resolve(&self.head[0]), &mut map);
                let o = renumber(&self.store.resolve(&self.head[1]), &mut map);
                self.owners.push(Pair {
                    a: i,
                    b: o,
                    diseq: Vec::new(),
                    nvars: map.len() as u32,
                    clause: self.clause,
                });
                if !is_distribution(&self.store, &self.head[1]) {
                    let owner = self.head[1].clone();
                    for r in self.readings.clone() {
                        self.check(&r, &owner, None);
                    }
                }
            }
            Mode::Check => {
                if self.readings.is_empty() || self.hidden.is_empty() {
                    return;
                }
                for o in self.owners.clone() {
                    let m = self.store.mark();
                    let (i, ow) = {
                        let base = self.store.fresh(o.nvars);
                        (o.a.rename(base), o.b.rename(base))
                    };
                    if self.store.unify(&self.head[0], &i) && !is_distribution(&self.store, &ow) {
                        for r in self.readings.clone() {
                            self.check(&r, &ow, Some(o.clause));
                        }
                    }
                    self.store.undo(m);
                }
            }
        }
    }

    /// Reports `r` if it can read a fact that hidden/2 hides from `owner`.
    fn check(&mut self, r: &Reading, owner: &Pat, owned_clause: Option<usize>) {
        for h in self.hidden.clone() {
            if self.reported.contains(&(self.clause, r.span, h.clause)) {
                continue;
            }
            let m = self.store.mark();
            let base = self.store.fresh(h.nvars);
            let (w, n) = (h.a.rename(base), h.b.rename(base));
            let mut hit = self.store.unify(&r.pat, &w) && self.store.unify(owner, &n);
            // a disequality of the hidden/2 derivation or of this one that the match makes false
            if hit {
                let broken =
                    |store: &Store, (x, y): &(Pat, Pat)| same(&store.resolve(x), &store.resolve(y));
                hit = !h
                    .diseq
                    .iter()
                    .map(|(x, y)| (x.rename(base), y.rename(base)))
                    .any(|d| broken(&self.store, &d))
                    && !self.diseq.iter().any(|d| broken(&self.store, d));
            }
            if hit {
                hit = false;
                for (p, nv) in self.produced.clone() {
                    let p = self.store.import(&p, nv);
                    if self.store.unifiable(&r.pat, &p) {
                        hit = true;
                        break;
                    }
                }
            }
            if hit {
                self.reported.insert((self.clause, r.span, h.clause));
                let d = self.diagnostic(r, owner, &h, owned_clause);
                self.out.push(d);
            }
            self.store.undo(m);
        }
    }

    fn diagnostic(
        &self,
        r: &Reading,
        owner: &Pat,
        h: &Pair,
        owned_clause: Option<usize>,
    ) -> Diagnostic {
        let kw = &self.game_clauses[self.clause];
        let id = self.store.show(&self.head[0]);
        let what = match kw.head().functor() {
            Some((f, _)) if f == atom::LEGAL => format!("legality of switch {id}"),
            Some((f, _)) if f == atom::SWITCH => format!("the actions of switch {id}"),
            Some((f, _)) if f == atom::UNLIMITED => format!("the action templates of switch {id}"),
            _ => format!("the owner of switch {id}"),
        };
        let owner_s = self.store.show(owner);
        let fact_s = self.store.show(&r.pat);
        let path: Vec<String> = r
            .path
            .iter()
            .map(|(n, a)| format!("{n}/{a}"))
            .chain(std::iter::once("fact/1".to_string()))
            .collect();
        let span = if r.span.is_empty() {
            kw.head().span
        } else {
            r.span
        };
        let hc = &self.game_clauses[h.clause];
        let mut d = Diagnostic::warning(
            HIDDEN_READ,
            format!("{what} reads fact({fact_s}), which hidden/2 hides from {owner_s}"),
            span,
        )
        .with_label(hc.span, format!("hides it from {owner_s}"))
        .with_label(kw.head().span, format!("the rule of {what}"));
        if let Some(oc) = owned_clause {
            if oc != self.clause {
                let c = &self.game_clauses[oc];
                d = d.with_label(c.head().span, format!("{owner_s} owns switch {id}"));
            }
        }
        let _ = self.src;
        d.with_help(format!(
            "Def.1 §11: {owner_s} could deduce the hidden fact from its own switches (path: {}); \
             make the rule depend only on facts visible to the switch's owner",
            path.join(" → ")
        ))
    }
}

/// Structural identity of resolved patterns (same variables, same atomic values).
fn same(a: &Pat, b: &Pat) -> bool {
    match (a, b) {
        (Pat::Var(x), Pat::Var(y)) => x == y,
        (Pat::Atomic(x), Pat::Atomic(y)) => atomic_eq(x, y),
        (Pat::Cmp(f, xs, _), Pat::Cmp(g, ys, _)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

/// The predicates a body may call (every callable subterm, conservatively).
fn mentions(b: &Pat, out: &mut Vec<(Atom, u32)>) {
    let mut stack = vec![b];
    while let Some(p) = stack.pop() {
        if let Some(k) = goal_functor(p) {
            out.push(k);
        }
        if let Pat::Cmp(_, args, _) = p {
            stack.extend(args.iter());
        }
    }
}

/// The `fact/1` patterns of a body, renumbered independently.
fn collect_facts(b: &Pat, out: &mut Vec<Summary>) {
    let mut stack = vec![b];
    while let Some(p) = stack.pop() {
        if let Pat::Cmp(f, args, s) = p {
            if *f == atom::FACT && args.len() == 1 {
                let mut map = FxHashMap::default();
                let r = renumber(&args[0], &mut map);
                out.push((r, map.len() as u32, *s));
            }
            stack.extend(args.iter());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(src: &str, base: u32) -> Pat {
        let t = crate::syntax::parse_term(src).expect("term").term;
        Pat::of_term(&t, base)
    }

    #[test]
    fn unify_binds_and_undoes() {
        let mut s = Store::new();
        s.fresh(10);
        let a = pat("[card, X, _]", 0);
        let b = pat("[card, p1, k]", 5);
        let m = s.mark();
        assert!(s.unify(&a, &b));
        assert_eq!(s.show(&a), "[card,p1,k]");
        s.undo(m);
        assert_eq!(s.show(&a), "[card,_,_]");
    }

    #[test]
    fn unify_fails_on_clash_and_occurs() {
        let mut s = Store::new();
        s.fresh(10);
        assert!(!s.unifiable(&pat("[turn, P, open]", 0), &pat("[card, Q, _]", 5)));
        assert!(!s.unifiable(&pat("f(X)", 0), &pat("X", 0)));
        assert!(!s.unifiable(&pat("[a, b]", 0), &pat("[a, b, c]", 0)));
        assert!(s.unifiable(&pat("[a | T]", 0), &pat("[a, b, c]", 0)));
        assert!(!s.unifiable(&pat("1", 0), &pat("1.0", 0)));
    }

    #[test]
    fn shared_variables_constrain() {
        // [C, stepped] read by C's own switch cannot be [dirty, C] (mcp)
        let mut s = Store::new();
        s.fresh(10);
        let reading = pat("[C, stepped]", 0); // owner [C]
        let owner = pat("[C]", 0);
        let w = pat("[dirty, D]", 5);
        let n = pat("[D]", 5);
        let m = s.mark();
        let hit = s.unify(&reading, &w) && s.unify(&owner, &n);
        s.undo(m);
        assert!(!hit);
        // but [card, p1, C] read by p2's switch is [card, p1, _] hidden from [p2]
        let reading = pat("[card, p1, C]", 0);
        let owner = pat("[p2]", 0);
        let w = pat("[card, p1, _]", 5);
        let n = pat("[p2]", 5);
        assert!(s.unify(&reading, &w) && s.unify(&owner, &n));
    }

    #[test]
    fn distributions() {
        let s = Store::new();
        assert!(is_distribution(&s, &pat("equal(6)", 0)));
        assert!(is_distribution(&s, &pat("[0.5, 0.3, 0.2]", 0)));
        assert!(!is_distribution(&s, &pat("[p1]", 0)));
        assert!(!is_distribution(&s, &pat("X", 0)));
    }
}
