//! A loaded program: clauses compiled to templates, grouped into predicates with first-argument
//! indexes, and every body goal resolved once to what it calls (control construct, native built-in,
//! user predicate, or nothing).
//!
//! Invariants:
//! - A `Program` is immutable once built and cheap to clone (`Arc`); queries own a clone.
//! - Template cells use `Cell::Var(slot)` for clause variables; `Struct`/`List` addresses index the
//!   clause's own `cells` array; every compound's subtree occupies the contiguous range
//!   `p..ends[p]`, so instantiating it is one pass of relocation.
//! - Resolution order for a goal `name/arity`: control constructs, then the game's own predicates, then
//!   native built-ins, then the Prolog prelude. A game's predicate with a library name replaces the
//!   library one (with a warning).

use crate::atom::{self, Atom};
use crate::diag::{Diagnostic, Span};
use crate::solve::builtins::{self, Builtin};
use crate::solve::store::Cell;
use crate::term::Term;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Control constructs, executed by the machine itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Conj,
    Disj,
    IfThen,
    SoftIfThen,
    Not,
    /// `call/(N+1)`: N extra arguments.
    Call(u8),
    Cut,
    True,
    Fail,
    Catch,
    Throw,
    Findall,
    Findall4,
}

/// What a goal calls.
#[derive(Clone, Copy)]
pub enum Dispatch {
    Control(Control),
    User(u32),
    Native(Builtin),
    /// A predicate provided by the host (the game manager's `fact/1`, `create/1`, ...), by host id.
    Host(u32),
    Unknown,
}

impl std::fmt::Debug for Dispatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dispatch::Control(c) => write!(f, "Control({c:?})"),
            Dispatch::User(p) => write!(f, "User({p})"),
            Dispatch::Native(_) => write!(f, "Native"),
            Dispatch::Host(h) => write!(f, "Host({h})"),
            Dispatch::Unknown => write!(f, "Unknown"),
        }
    }
}

pub fn control(name: Atom, arity: u32) -> Option<Control> {
    Some(match (name, arity) {
        (atom::COMMA, 2) => Control::Conj,
        (atom::SEMI, 2) | (atom::BAR, 2) => Control::Disj,
        (atom::ARROW, 2) => Control::IfThen,
        (atom::SOFT_ARROW, 2) => Control::SoftIfThen,
        (atom::NOT_PROVABLE, 1) | (atom::NOT, 1) => Control::Not,
        (atom::CALL, n @ 1..=8) => Control::Call((n - 1) as u8),
        (atom::CUT, 0) => Control::Cut,
        (atom::TRUE, 0) => Control::True,
        (atom::FAIL, 0) | (atom::FALSE, 0) => Control::Fail,
        _ => {
            let n = name.name();
            match (n, arity) {
                ("catch", 3) => Control::Catch,
                ("throw", 1) => Control::Throw,
                ("findall", 3) => Control::Findall,
                ("findall", 4) => Control::Findall4,
                _ => return None,
            }
        }
    })
}

/// A body goal of a compiled clause.
#[derive(Clone, Debug)]
pub struct GoalT {
    pub disp: Dispatch,
    pub name: Atom,
    pub arity: u32,
    /// Argument roots (template cells).
    pub args: Box<[Cell]>,
    /// The template cells of the compound arguments, one after the other in argument order
    /// (`cells[block.0..block.1]`; empty without compound arguments), or `block.0 == u32::MAX`
    /// when they are not contiguous (set by `goal_blocks`).
    pub block: (u32, u32),
}

/// A compiled clause.
#[derive(Clone, Debug)]
pub struct ClauseT {
    pub cells: Box<[Cell]>,
    pub ends: Box<[u32]>,
    pub nvars: u32,
    pub head_args: Box<[Cell]>,
    pub body: Box<[GoalT]>,
    pub span: Span,
    /// The clause as written (`Head :- Body` or `Head`).
    pub term: Term,
    pub var_names: Arc<[String]>,
}

/// First-argument index key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Atom(Atom),
    Int(i64),
    Float(u64),
    Str(Atom),
    Functor(Atom, u32),
}

impl Key {
    pub fn of_cell(c: Cell, functor_at: impl Fn(u32) -> Cell) -> Option<Key> {
        Some(match c {
            Cell::Atom(a) => Key::Atom(a),
            Cell::Int(i) => Key::Int(i),
            Cell::Float(f) => Key::Float(f.to_bits()),
            Cell::Str(s) => Key::Str(s),
            Cell::List(_) => Key::Functor(atom::DOT, 2),
            Cell::Struct(p) => match functor_at(p) {
                Cell::Functor(f, n) => Key::Functor(f, n),
                _ => return None,
            },
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, Default)]
pub struct PredIndex {
    /// `lists[0]`: every clause; `lists[1]`: clauses whose first argument is a variable; others: the
    /// clauses that can match one key (that key's clauses and the variable ones, in source order).
    pub lists: Vec<Box<[u32]>>,
    /// Key → list, for predicates with many distinct first-argument keys.
    pub by_key: FxHashMap<Key, u32>,
    /// Key → list, scanned linearly when there are few keys (cheaper than hashing).
    pub few: Vec<(Key, u32)>,
}

const FEW_KEYS: usize = 8;

#[derive(Clone, Debug)]
pub struct Pred {
    pub name: Atom,
    pub arity: u32,
    pub clauses: Vec<ClauseT>,
    /// Defined by the prelude rather than by the game.
    pub library: bool,
    pub index: PredIndex,
    /// Calls may be memoized: the predicate cannot reach the game state (`fact/1`, schedules,
    /// `does/2`), a meta-call of an unknown goal, or random numbers, and is not recursive. Its
    /// solutions depend on its arguments only.
    pub memo: bool,
    /// What the predicate can reach besides its arguments, calls of other predicates included: bit
    /// `i` (`i < 63`) for host predicate `i` (`min(i, 62)`), [`REACHES_UNKNOWN`] for a meta-call of
    /// an unknown goal or random numbers. `0`: its solutions depend on its arguments only.
    pub reaches: u64,
    /// Calls may be tabled per state ([`super::statememo`]): bit [`super::statememo::MODE_NONE`]
    /// with every argument generalised, [`super::statememo::MODE_FIRST`] with all but the first;
    /// with [`super::statememo::MODE_CONTEXT`] the tables are valid per context
    /// ([`super::host::Host::context_id`]) rather than per state.
    pub state_memo: u8,
}

/// The bit of [`Pred::reaches`] for meta-calls of unknown goals and random numbers.
pub const REACHES_UNKNOWN: u64 = 1 << 63;

impl Pred {
    fn build_index(&mut self) {
        let all: Vec<u32> = (0..self.clauses.len() as u32).collect();
        let mut var_first = Vec::new();
        let mut per_key: Vec<(Key, Vec<u32>)> = Vec::new();
        let mut key_pos: HashMap<Key, usize> = HashMap::new();
        if self.arity > 0 {
            for (i, c) in self.clauses.iter().enumerate() {
                let i = i as u32;
                match Key::of_cell(c.head_args[0], |p| c.cells[p as usize]) {
                    None => {
                        var_first.push(i);
                        for (_, v) in per_key.iter_mut() {
                            v.push(i);
                        }
                    }
                    Some(k) => {
                        let pos = *key_pos.entry(k).or_insert_with(|| {
                            per_key.push((k, var_first.clone()));
                            per_key.len() - 1
                        });
                        per_key[pos].1.push(i);
                    }
                }
            }
        }
        let mut lists = vec![all.into_boxed_slice(), var_first.into_boxed_slice()];
        let mut by_key = FxHashMap::default();
        let mut few = Vec::new();
        let many = per_key.len() > FEW_KEYS;
        for (k, v) in per_key {
            if many {
                by_key.insert(k, lists.len() as u32);
            } else {
                few.push((k, lists.len() as u32));
            }
            lists.push(v.into_boxed_slice());
        }
        self.index = PredIndex { lists, by_key, few };
    }

    /// The candidate list for a call whose first argument (dereferenced) is `first`.
    #[inline]
    pub fn candidates(&self, first: Option<Key>) -> u32 {
        match first {
            None => 0,
            Some(k) => {
                if self.index.by_key.is_empty() {
                    for &(key, list) in &self.index.few {
                        if key == k {
                            return list;
                        }
                    }
                    1
                } else {
                    self.index.by_key.get(&k).copied().unwrap_or(1)
                }
            }
        }
    }
}

#[derive(Debug, Default)]
pub struct ProgramData {
    pub preds: Vec<Pred>,
    pub by_key: FxHashMap<(Atom, u32), u32>,
    /// Host predicates (name, arity) → host id.
    pub host: FxHashMap<(Atom, u32), u32>,
    /// The state and context host predicates (bits by host id): a query whose goal reaches no
    /// other host predicate changes no context, so per-context tables pay there.
    pub table_hosts: u64,
}

/// An immutable, shareable program.
#[derive(Clone, Debug, Default)]
pub struct Program(pub Arc<ProgramData>);

/// A clause given to the program builder.
#[derive(Clone, Debug)]
pub struct SourceClause {
    pub term: Term,
    pub span: Span,
    pub var_names: Arc<[String]>,
}

const PRELUDE: &str = include_str!("prelude.pl");

fn prelude_clauses() -> &'static [SourceClause] {
    static CLAUSES: OnceLock<Vec<SourceClause>> = OnceLock::new();
    CLAUSES.get_or_init(|| {
        let parsed = crate::syntax::parse_file(PRELUDE);
        debug_assert!(
            parsed.diagnostics.is_empty(),
            "prelude has syntax errors: {:?}",
            parsed.diagnostics
        );
        parsed
            .clauses
            .into_iter()
            .map(|c| SourceClause {
                term: c.term,
                span: c.span,
                var_names: c.var_names.into(),
            })
            .collect()
    })
}

/// Builds programs.
#[derive(Default)]
pub struct ProgramBuilder {
    clauses: Vec<SourceClause>,
    host: Vec<(Atom, u32)>,
    state_hosts: u64,
    context_hosts: u64,
    with_prelude: bool,
}

impl ProgramBuilder {
    pub fn new() -> ProgramBuilder {
        ProgramBuilder {
            clauses: Vec::new(),
            host: Vec::new(),
            state_hosts: 0,
            context_hosts: 0,
            with_prelude: true,
        }
    }
    /// Leaves the Prolog prelude out (for tests of the machine itself).
    pub fn without_prelude(mut self) -> ProgramBuilder {
        self.with_prelude = false;
        self
    }
    /// Declares predicates provided by the host, in host-id order.
    pub fn host_predicates(mut self, preds: &[(Atom, u32)]) -> ProgramBuilder {
        self.host = preds.to_vec();
        self
    }
    /// The host predicates (bit `i` for host id `i`) whose answers depend only on the state the
    /// host reports with [`super::host::Host::state_id`]: predicates that reach no other host
    /// predicate may be tabled per state.
    pub fn state_hosts(mut self, mask: u64) -> ProgramBuilder {
        self.state_hosts = mask;
        self
    }
    /// The host predicates (bit `i` for host id `i`) whose answers depend on the state and on the
    /// context the host reports with [`super::host::Host::context_id`] (the schedules, the
    /// chronon's actions): predicates that reach no host predicate but these and the state hosts
    /// may be tabled per context (see [`super::statememo`]).
    pub fn context_hosts(mut self, mask: u64) -> ProgramBuilder {
        self.context_hosts = mask;
        self
    }
    pub fn clause(mut self, c: SourceClause) -> ProgramBuilder {
        self.clauses.push(c);
        self
    }
    pub fn clauses(mut self, cs: impl IntoIterator<Item = SourceClause>) -> ProgramBuilder {
        self.clauses.extend(cs);
        self
    }

    /// Compiles everything; load problems (directives, non-callable heads, redefined control
    /// constructs, redefined library predicates) come back as diagnostics.
    pub fn build(self) -> (Program, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut data = ProgramData::default();
        for (i, &(n, a)) in self.host.iter().enumerate() {
            data.host.insert((n, a), i as u32);
        }
        // game clauses first: they decide which library predicates are replaced
        let mut user_keys: HashMap<(Atom, u32), Span> = HashMap::new();
        for c in &self.clauses {
            let Some((head, _)) = split_clause(&c.term) else {
                continue;
            };
            if let Some((n, a)) = head.functor() {
                user_keys.entry((n, a as u32)).or_insert(c.span);
            }
        }
        for c in self.clauses {
            add_clause(&mut data, c, false, &mut diags);
        }
        if self.with_prelude {
            let mut replaced: Vec<(Atom, u32)> = Vec::new();
            for c in prelude_clauses() {
                let Some((head, _)) = split_clause(&c.term) else {
                    continue;
                };
                let Some((n, a)) = head.functor() else {
                    continue;
                };
                let key = (n, a as u32);
                if let Some(&span) = user_keys.get(&key) {
                    if !replaced.contains(&key) {
                        replaced.push(key);
                        diags.push(redefined_warning(n, a as u32, span));
                    }
                    continue;
                }
                add_clause(&mut data, c.clone(), true, &mut diags);
            }
        }
        for (&(n, a), &span) in &user_keys {
            if builtins::lookup(n, a).is_some() && !data.host.contains_key(&(n, a)) {
                diags.push(redefined_warning(n, a, span));
            }
        }
        // resolve body goals
        let resolved: Vec<Vec<Vec<Dispatch>>> = data
            .preds
            .iter()
            .map(|p| {
                p.clauses
                    .iter()
                    .map(|c| {
                        c.body
                            .iter()
                            .map(|g| resolve(&data, g.name, g.arity))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        for (p, per_clause) in data.preds.iter_mut().zip(resolved) {
            for (c, disps) in p.clauses.iter_mut().zip(per_clause) {
                for (g, d) in c.body.iter_mut().zip(disps) {
                    g.disp = d;
                }
            }
        }
        // call sites passing a callable to a meta-call position call specialised copies
        super::specialise::specialise(&mut data);
        for p in data.preds.iter_mut() {
            p.build_index();
        }
        let (memo, reaches, recursive) = memoizable(&data);
        let state = super::statememo::state_memo_modes(
            &data,
            &reaches,
            &recursive,
            self.state_hosts,
            self.context_hosts,
        );
        data.table_hosts = self.state_hosts | self.context_hosts;
        for (((p, m), r), s) in data.preds.iter_mut().zip(memo).zip(reaches).zip(state) {
            p.memo = m;
            p.reaches = r;
            p.state_memo = s;
        }
        // last: the analyses above read head templates with `Var` cells only
        for p in data.preds.iter_mut() {
            for c in p.clauses.iter_mut() {
                mark_first_occurrences(c);
                goal_blocks(c);
            }
        }
        diags.sort_by_key(|d| d.span.start);
        (Program(Arc::new(data)), diags)
    }
}

fn redefined_warning(n: Atom, a: u32, span: Span) -> Diagnostic {
    Diagnostic::warning("W0104", format!("{n}/{a} redefines the library predicate of the same name"), span)
        .with_help("the game's definition replaces the library one for this game; rename it if that was not intended")
}

/// Resolves `name/arity` in a program being built or built.
pub fn resolve(data: &ProgramData, name: Atom, arity: u32) -> Dispatch {
    if let Some(c) = control(name, arity) {
        return Dispatch::Control(c);
    }
    if let Some(&h) = data.host.get(&(name, arity)) {
        return Dispatch::Host(h);
    }
    if let Some(&p) = data.by_key.get(&(name, arity)) {
        if !data.preds[p as usize].library {
            return Dispatch::User(p);
        }
        if let Some(b) = builtins::lookup(name, arity) {
            return Dispatch::Native(b);
        }
        return Dispatch::User(p);
    }
    if let Some(b) = builtins::lookup(name, arity) {
        return Dispatch::Native(b);
    }
    Dispatch::Unknown
}

/// `(Head, Body)` of a clause term; `None` for a directive.
pub fn split_clause(t: &Term) -> Option<(&Term, Option<&Term>)> {
    match t {
        Term::Compound(f, args) if *f == atom::NECK && args.len() == 2 => {
            Some((&args[0], Some(&args[1])))
        }
        Term::Compound(f, args) if *f == atom::NECK && args.len() == 1 => None,
        _ => Some((t, None)),
    }
}

fn add_clause(data: &mut ProgramData, c: SourceClause, library: bool, diags: &mut Vec<Diagnostic>) {
    let Some((head, body)) = split_clause(&c.term) else {
        diags.push(
            Diagnostic::error("E0101", "directives are not supported", c.span)
                .with_help("SIDL games are declarative: write the goal as a rule or remove it"),
        );
        return;
    };
    let Some((name, arity)) = head.functor().filter(|_| head.is_callable()) else {
        diags.push(Diagnostic::error(
            "E0102",
            "a clause head must be an atom or a compound term",
            c.span,
        ));
        return;
    };
    let arity = arity as u32;
    if control(name, arity).is_some() {
        diags.push(Diagnostic::error(
            "E0103",
            format!("{name}/{arity} is a control construct and cannot be redefined"),
            c.span,
        ));
        return;
    }
    if data.host.contains_key(&(name, arity)) {
        diags.push(Diagnostic::error(
            "E0105",
            format!(
                "{name}/{arity} is provided by the game manager and cannot be defined by the game"
            ),
            c.span,
        ));
        return;
    }
    let mut goals = Vec::new();
    if let Some(b) = body {
        if let Err(msg) = flatten_body(b, &mut goals) {
            diags.push(Diagnostic::error("E0106", msg, c.span));
            return;
        }
    }
    let clause = compile_clause(head, &goals, &c);
    let idx = *data.by_key.entry((name, arity)).or_insert_with(|| {
        data.preds.push(Pred {
            name,
            arity,
            clauses: Vec::new(),
            library,
            index: PredIndex::default(),
            memo: false,
            reaches: 0,
            state_memo: 0,
        });
        (data.preds.len() - 1) as u32
    });
    data.preds[idx as usize].clauses.push(clause);
}

/// Splits a body into its top-level conjuncts; a variable goal `G` becomes `call(G)`.
fn flatten_body<'a>(b: &'a Term, out: &mut Vec<GoalSrc<'a>>) -> Result<(), String> {
    let mut stack = vec![b];
    while let Some(t) = stack.pop() {
        match t {
            Term::Compound(f, args) if *f == atom::COMMA && args.len() == 2 => {
                stack.push(&args[1]);
                stack.push(&args[0]);
            }
            Term::Var(_) => out.push(GoalSrc {
                name: atom::CALL,
                args: std::slice::from_ref(t),
            }),
            Term::Atom(a) => out.push(GoalSrc {
                name: *a,
                args: &[],
            }),
            Term::Compound(f, args) => out.push(GoalSrc { name: *f, args }),
            other => {
                return Err(format!(
                    "{} is not a callable goal",
                    crate::write::canonical(other)
                ))
            }
        }
    }
    Ok(())
}

struct GoalSrc<'a> {
    name: Atom,
    args: &'a [Term],
}

fn compile_clause(head: &Term, goals: &[GoalSrc<'_>], c: &SourceClause) -> ClauseT {
    let mut cells = Vec::new();
    let mut ends = Vec::new();
    let head_args: Box<[Cell]> = head
        .args()
        .iter()
        .map(|a| compile_term(a, &mut cells, &mut ends))
        .collect();
    let body: Box<[GoalT]> = goals
        .iter()
        .map(|g| GoalT {
            disp: Dispatch::Unknown,
            name: g.name,
            arity: g.args.len() as u32,
            args: g
                .args
                .iter()
                .map(|a| compile_term(a, &mut cells, &mut ends))
                .collect(),
            block: (u32::MAX, 0),
        })
        .collect();
    ClauseT {
        cells: cells.into_boxed_slice(),
        ends: ends.into_boxed_slice(),
        nvars: c.term.var_count(),
        head_args,
        body,
        span: c.span,
        term: c.term.clone(),
        var_names: c.var_names.clone(),
    }
}

/// Sets [`GoalT::block`] of each body goal: its compound arguments' template subtrees, when they
/// follow each other in the clause's cells (as `compile_term` lays them out), so that the machine
/// copies them in one block.
fn goal_blocks(c: &mut ClauseT) {
    for g in c.body.iter_mut() {
        let mut block: Option<(u32, u32)> = None;
        let mut contiguous = true;
        for &a in g.args.iter() {
            if let Cell::Struct(p) | Cell::List(p) = a {
                let end = c.ends[p as usize];
                block = match block {
                    None => Some((p, end)),
                    Some((start, prev)) if prev == p => Some((start, end)),
                    Some(_) => {
                        contiguous = false;
                        break;
                    }
                };
            }
        }
        g.block = match (contiguous, block) {
            (false, _) => (u32::MAX, 0),
            (true, None) => (0, 0),
            (true, Some(b)) => b,
        };
    }
}

/// A head argument that is a variable met nowhere else in the clause (set by
/// `mark_first_occurrences`; a `Functor` cell is never a template root otherwise): head
/// unification skips it.
pub const VOID_ARG: Cell = Cell::Functor(atom::NIL, 0);

/// Marks the first occurrence of each variable in the clause head, in the order in which
/// [`super::machine`] unifies a head with a call's arguments (arguments left to right, each in
/// preorder), as `Cell::Ref(slot)` instead of `Cell::Var(slot)` (templates hold no `Ref`
/// otherwise). When the machine meets such a cell in read mode the variable's environment cell is
/// still unbound and referenced by nothing, so it takes the argument's value without being read,
/// compared or trailed (WAM `get_variable`); everywhere else (write mode, body arguments) the
/// marker is read like `Var`.
fn mark_first_occurrences(c: &mut ClauseT) {
    // a variable met once in the whole clause, as a whole head argument, needs nothing
    let mut count = vec![0u32; c.nvars as usize];
    let roots = c.body.iter().flat_map(|g| g.args.iter());
    for cell in c.cells.iter().chain(c.head_args.iter()).chain(roots) {
        if let Cell::Var(s) = *cell {
            count[s as usize] += 1;
        }
    }
    for a in c.head_args.iter_mut() {
        if let Cell::Var(s) = *a {
            if count[s as usize] == 1 {
                *a = VOID_ARG;
            }
        }
    }
    let mut seen = vec![false; c.nvars as usize];
    let mut first = |cell: &mut Cell| {
        if let Cell::Var(s) = *cell {
            if let Some(b) = seen.get_mut(s as usize) {
                if !*b {
                    *b = true;
                    *cell = Cell::Ref(s);
                }
            }
        }
    };
    // pushes the cell positions of the arguments of compound `cell`, to be popped in order
    let push_args = |cells: &[Cell], cell: Cell, stack: &mut Vec<u32>| match cell {
        Cell::Struct(p) => {
            if let Cell::Functor(_, n) = cells[p as usize] {
                stack.extend((1..=n).rev().map(|k| p + k));
            }
        }
        Cell::List(p) => stack.extend([p + 1, p]),
        _ => {}
    };
    let mut stack: Vec<u32> = Vec::new();
    for i in 0..c.head_args.len() {
        let mut cell = c.head_args[i];
        first(&mut cell);
        c.head_args[i] = cell;
        // cell positions to visit, preorder
        stack.clear();
        push_args(&c.cells, cell, &mut stack);
        while let Some(k) = stack.pop() {
            let mut cell = c.cells[k as usize];
            first(&mut cell);
            c.cells[k as usize] = cell;
            push_args(&c.cells, cell, &mut stack);
        }
    }
}

/// Lays out `t` in preorder so that each compound's subtree is contiguous; returns the root cell.
pub fn compile_term(t: &Term, cells: &mut Vec<Cell>, ends: &mut Vec<u32>) -> Cell {
    enum Job<'a> {
        Term(&'a Term, Option<usize>),
        End(usize),
    }
    let mut root = Cell::Atom(atom::NIL);
    let mut jobs = Vec::with_capacity(16);
    jobs.push(Job::Term(t, None));
    while let Some(job) = jobs.pop() {
        match job {
            Job::End(p) => ends[p] = cells.len() as u32,
            Job::Term(t, slot) => {
                let cell = match t {
                    Term::Var(v) => Cell::Var(*v),
                    Term::Atom(a) => Cell::Atom(*a),
                    Term::Int(i) => Cell::Int(*i),
                    Term::Float(f) => Cell::Float(*f),
                    Term::Str(s) => Cell::Str(*s),
                    Term::Compound(f, args) => {
                        let p = cells.len();
                        let list = *f == atom::DOT && args.len() == 2;
                        if !list {
                            cells.push(Cell::Functor(*f, args.len() as u32));
                        }
                        let first = cells.len();
                        cells.extend(std::iter::repeat_n(Cell::Atom(atom::NIL), args.len()));
                        ends.resize(cells.len(), 0);
                        jobs.push(Job::End(p));
                        for (i, a) in args.iter().enumerate().rev() {
                            jobs.push(Job::Term(a, Some(first + i)));
                        }
                        if list {
                            Cell::List(p as u32)
                        } else {
                            Cell::Struct(p as u32)
                        }
                    }
                };
                match slot {
                    Some(s) => cells[s] = cell,
                    None => root = cell,
                }
            }
        }
    }
    ends.resize(cells.len(), 0);
    root
}

impl Program {
    /// Builds a program from source text (with the prelude). Syntax and load diagnostics are returned;
    /// clauses with syntax errors are left out.
    pub fn from_source(src: &str) -> (Program, Vec<Diagnostic>) {
        let parsed = crate::syntax::parse_file(src);
        let mut diags = parsed.diagnostics;
        let clauses = parsed.clauses.into_iter().map(|c| SourceClause {
            term: c.term,
            span: c.span,
            var_names: c.var_names.into(),
        });
        let (p, mut d) = ProgramBuilder::new().clauses(clauses).build();
        diags.append(&mut d);
        diags.sort_by_key(|d| d.span.start);
        (p, diags)
    }

    pub fn data(&self) -> &ProgramData {
        &self.0
    }

    pub fn pred(&self, name: Atom, arity: u32) -> Option<&Pred> {
        self.0
            .by_key
            .get(&(name, arity))
            .map(|&i| &self.0.preds[i as usize])
    }

    /// How a call of `name/arity` is dispatched.
    pub fn resolve(&self, name: Atom, arity: u32) -> Dispatch {
        resolve(&self.0, name, arity)
    }
}

/// What a predicate's clauses call, as far as static analysis can tell.
#[derive(Default)]
struct Calls {
    preds: Vec<u32>,
    /// Reaches host predicates, an unknown goal, or random numbers (bits as in [`Pred::reaches`]).
    impure: u64,
}

/// The calls of goal template `cell` (a control construct's goals are followed statically).
fn goal_calls(data: &ProgramData, cells: &[Cell], cell: Cell, out: &mut Calls) {
    let mut stack = vec![cell];
    while let Some(c) = stack.pop() {
        let (name, args): (Atom, Vec<Cell>) = match c {
            Cell::Atom(a) => (a, Vec::new()),
            Cell::Struct(p) => match cells[p as usize] {
                Cell::Functor(f, n) => (f, (1..=n).map(|i| cells[(p + i) as usize]).collect()),
                _ => {
                    out.impure |= REACHES_UNKNOWN;
                    continue;
                }
            },
            Cell::List(p) => (atom::DOT, vec![cells[p as usize], cells[p as usize + 1]]),
            _ => {
                out.impure |= REACHES_UNKNOWN;
                continue;
            }
        };
        let disp = resolve(data, name, args.len() as u32);
        call_effects(cells, &args, disp, out, &mut stack);
    }
}

fn call_effects(
    cells: &[Cell],
    args: &[Cell],
    disp: Dispatch,
    out: &mut Calls,
    stack: &mut Vec<Cell>,
) {
    if args.iter().any(|&a| mentions_random(cells, a)) {
        out.impure |= REACHES_UNKNOWN;
    }
    match disp {
        Dispatch::Control(c) => match c {
            Control::Conj
            | Control::Disj
            | Control::IfThen
            | Control::SoftIfThen
            | Control::Not => stack.extend_from_slice(args),
            Control::Call(0) => stack.push(args[0]),
            Control::Findall | Control::Findall4 => stack.push(args[1]),
            Control::Catch => {
                stack.push(args[0]);
                stack.push(args[2]);
            }
            Control::Call(_) => out.impure |= REACHES_UNKNOWN,
            Control::Cut | Control::True | Control::Fail | Control::Throw => {}
        },
        Dispatch::User(q) => out.preds.push(q),
        Dispatch::Native(_) => {}
        Dispatch::Host(id) => out.impure |= 1 << id.min(62),
        Dispatch::Unknown => out.impure |= REACHES_UNKNOWN,
    }
}

/// Does a template term mention a random-number function?
fn mentions_random(cells: &[Cell], c: Cell) -> bool {
    let mut stack = vec![c];
    while let Some(c) = stack.pop() {
        match c {
            Cell::Atom(a) if a.name().starts_with("random") => return true,
            Cell::Struct(p) => {
                if let Cell::Functor(f, n) = cells[p as usize] {
                    if f.name().starts_with("random") {
                        return true;
                    }
                    stack.extend((1..=n).map(|i| cells[(p + i) as usize]));
                }
            }
            Cell::List(p) => {
                stack.push(cells[p as usize]);
                stack.push(cells[p as usize + 1]);
            }
            _ => {}
        }
    }
    false
}

/// Which predicates may be memoized (see [`Pred::memo`]).
fn memoizable(data: &ProgramData) -> (Vec<bool>, Vec<u64>, Vec<bool>) {
    let n = data.preds.len();
    let mut calls: Vec<Calls> = Vec::with_capacity(n);
    for p in &data.preds {
        let mut c = Calls::default();
        for cl in &p.clauses {
            for g in cl.body.iter() {
                let mut stack = Vec::new();
                // a body goal's own dispatch: specialised call sites call their copies
                call_effects(&cl.cells, &g.args, g.disp, &mut c, &mut stack);
                for sub in stack {
                    goal_calls(data, &cl.cells, sub, &mut c);
                }
            }
        }
        calls.push(c);
    }
    // impurity flows from callees to callers
    let mut impure: Vec<u64> = calls.iter().map(|c| c.impure).collect();
    loop {
        let mut changed = false;
        for i in 0..n {
            let r = calls[i]
                .preds
                .iter()
                .fold(impure[i], |r, &q| r | impure[q as usize]);
            if r != impure[i] {
                impure[i] = r;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // recursive predicates (on a cycle of the call graph) are not memoized themselves
    let recursive: Vec<bool> = (0..n)
        .map(|i| {
            let mut seen = vec![false; n];
            let mut stack: Vec<u32> = calls[i].preds.clone();
            while let Some(q) = stack.pop() {
                if q as usize == i {
                    return true;
                }
                if !std::mem::replace(&mut seen[q as usize], true) {
                    stack.extend_from_slice(&calls[q as usize].preds);
                }
            }
            false
        })
        .collect();
    let memo = (0..n)
        .map(|i| {
            impure[i] == 0 && !recursive[i] && !data.preds[i].library && data.preds[i].arity > 0
        })
        .collect();
    (memo, impure, recursive)
}
