//! The program builder: compiles the game's clauses and the prelude (`compile.rs`), resolves body
//! goals, then runs the passes in order (meta-call specialisation, first-argument indexes, the
//! memoizability and per-state table analyses, head and goal layout) and freezes the `Program`.

use super::compile::{
    add_clause, arith_goals, control_subs, direct_conds, goal_blocks, head_flat, head_lead,
    mark_first_occurrences, resolve, set_subs, split_clause, SourceClause,
};
use super::memoizable::memoizable;
use super::program::{Dispatch, Program, ProgramData, SubGoal};
use crate::atom::Atom;
use crate::diag::{Diagnostic, Span};
use crate::solve::builtins;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

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
    list_hosts: u64,
    with_prelude: bool,
    library_fast: bool,
}

impl ProgramBuilder {
    pub fn new() -> ProgramBuilder {
        ProgramBuilder {
            clauses: Vec::new(),
            host: Vec::new(),
            state_hosts: 0,
            context_hosts: 0,
            list_hosts: 0,
            with_prelude: true,
            library_fast: true,
        }
    }
    /// Leaves the Prolog prelude out (for tests of the machine itself).
    pub fn without_prelude(mut self) -> ProgramBuilder {
        self.with_prelude = false;
        self
    }
    /// Leaves out the native fast paths of library predicates ([`builtins::library_fast`]): every
    /// call runs the prelude's clauses (for the tests that compare the two).
    pub fn without_library_fast(mut self) -> ProgramBuilder {
        self.library_fast = false;
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
    /// The host predicates (bits by host id) whose calls with a short list of constants and
    /// variables the machine hands to [`crate::solve::host::Host::call_list`].
    pub fn list_hosts(mut self, mask: u64) -> ProgramBuilder {
        self.list_hosts = mask;
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
        data.list_hosts = self.list_hosts;
        for (((p, m), r), s) in data.preds.iter_mut().zip(memo).zip(reaches).zip(state) {
            p.memo = m;
            p.reaches = r;
            p.state_memo = s;
        }
        // last: the analyses above read head templates with `Var` cells only
        for p in data.preds.iter_mut() {
            for c in p.clauses.iter_mut() {
                mark_first_occurrences(c);
                head_lead(c);
                head_flat(c);
                goal_blocks(c);
                arith_goals(c, self.list_hosts);
            }
        }
        // control constructs compiled into their clauses (reads the resolution of every predicate)
        let mut subs = Vec::new();
        let roots: Vec<Vec<_>> = data
            .preds
            .iter()
            .map(|p| {
                p.clauses
                    .iter()
                    .map(|c| control_subs(&data, c, &mut subs))
                    .collect()
            })
            .collect();
        for (p, cs) in data.preds.iter_mut().zip(roots) {
            for (c, r) in p.clauses.iter_mut().zip(cs) {
                set_subs(c, r);
            }
        }
        data.subs = subs;
        if self.library_fast {
            library_fast_paths(&mut data);
        }
        data.direct_conds = direct_conds(&data.subs);
        crate::diag::sort_by_start(&mut diags);
        (Program(Arc::new(data)), diags)
    }
}

/// Gives the call sites of a library predicate with a native fast path
/// ([`builtins::library_fast`]) that fast path, after the analyses (which see the clauses). Not
/// for a predicate that may be memoized (its calls go through its tables), nor for the goal of
/// a compiled negation (decided in place by `Machine::negation_goal`, which assumes a built-in
/// never runs clauses); meta-calls resolve by name and run the clauses.
fn library_fast_paths(data: &mut ProgramData) {
    let fast: Vec<Option<builtins::Builtin>> = data
        .preds
        .iter()
        .map(|p| {
            if p.library && !p.memo && p.state_memo == 0 {
                builtins::library_fast(p.name, p.arity)
            } else {
                None
            }
        })
        .collect();
    if fast.iter().all(Option::is_none) {
        return;
    }
    let swap = |g: &mut super::program::GoalT| {
        if let Dispatch::User(q) = g.disp {
            if let Some(f) = fast[q as usize] {
                g.disp = Dispatch::Native(f);
            }
        }
    };
    for p in data.preds.iter_mut() {
        for c in p.clauses.iter_mut() {
            for g in c.body.iter_mut() {
                swap(g);
            }
        }
    }
    let negated: Vec<u32> = data
        .subs
        .iter()
        .filter_map(|s| match s {
            SubGoal::Not(_, g) => Some(*g),
            _ => None,
        })
        .collect();
    for (i, s) in data.subs.iter_mut().enumerate() {
        if let SubGoal::Goal(g) = s {
            if !negated.contains(&(i as u32)) {
                swap(g);
            }
        }
    }
}

fn redefined_warning(n: Atom, a: u32, span: Span) -> Diagnostic {
    Diagnostic::warning("W0104", format!("{n}/{a} redefines the library predicate of the same name"), span)
        .with_help("the game's definition replaces the library one for this game; rename it if that was not intended")
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
        crate::diag::sort_by_start(&mut diags);
        (p, diags)
    }
}
