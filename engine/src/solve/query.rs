//! Owned queries: a program, a goal and a machine, yielding answers one by one. A `Query` does not
//! borrow anything, so the language server and the WASM playground can keep one between calls.

use crate::atom;
use crate::diag::Diagnostic;
use crate::solve::host::{Host, NoHost};
use crate::solve::machine::{Limits, Machine, SolveError};
use crate::solve::program::Program;
use crate::solve::store::Cell;
use crate::term::Term;
use std::collections::HashMap;

pub struct Query {
    machine: Machine,
    var_names: Vec<String>,
    var_cells: Vec<Cell>,
    started: bool,
    done: bool,
}

impl Query {
    /// A query for `goal`; `var_names[i]` is the name of `Term::Var(i)` (names `_` are not reported).
    pub fn new(program: &Program, goal: &Term, var_names: &[String], limits: Limits) -> Query {
        let mut machine = Machine::new(program.clone(), limits);
        let mut vars = Vec::new();
        let g = machine.store.build(goal, &mut vars);
        let mut names = Vec::new();
        let mut cells = Vec::new();
        for (i, name) in var_names.iter().enumerate() {
            if name == "_" {
                continue;
            }
            let c = match vars.get(i).copied().flatten() {
                Some(c) => c,
                None => continue,
            };
            names.push(name.clone());
            cells.push(c);
        }
        machine.start(g);
        Query {
            machine,
            var_names: names,
            var_cells: cells,
            started: false,
            done: false,
        }
    }

    /// The reported variables, in order of first occurrence.
    pub fn var_names(&self) -> &[String] {
        &self.var_names
    }

    /// The next answer: the bindings of [`Query::var_names`] (extracted together, so variables shared
    /// between bindings stay shared), `None` when there are no more, or the error that ended the query.
    pub fn next_answer(&mut self) -> Option<Result<Vec<Term>, SolveError>> {
        self.next_answer_with(&mut NoHost)
    }

    /// As [`Query::next_answer`], with host predicates served by `host`.
    pub fn next_answer_with(
        &mut self,
        host: &mut dyn Host,
    ) -> Option<Result<Vec<Term>, SolveError>> {
        if self.done {
            return None;
        }
        let redo = self.started;
        self.started = true;
        if redo && !self.machine.has_alternatives() {
            self.done = true;
            return None;
        }
        match self.machine.solve(redo, host) {
            Ok(true) => {
                let mut names = HashMap::new();
                let out = self
                    .var_cells
                    .iter()
                    .map(|&c| self.machine.store.extract(c, &mut names))
                    .collect();
                Some(Ok(out))
            }
            Ok(false) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }

    /// Could another answer exist (are choicepoints left)? `false` after a deterministic answer.
    pub fn may_have_more(&self) -> bool {
        !self.done && (!self.started || self.machine.has_alternatives())
    }

    /// Inference steps used so far.
    pub fn inferences(&self) -> u64 {
        self.machine.inferences
    }

    pub fn machine(&mut self) -> &mut Machine {
        &mut self.machine
    }
}

impl Program {
    /// Parses `goal` (a term, with or without the final `.`) and prepares a query.
    pub fn query(&self, goal: &str, limits: Limits) -> Result<Query, Vec<Diagnostic>> {
        let read = crate::syntax::parse_term(goal)?;
        Ok(Query::new(self, &read.term, &read.var_names, limits))
    }

    /// Every answer of a query given as text (for tests and tools), up to `max` answers.
    pub fn solve_all(
        &self,
        goal: &str,
        limits: Limits,
        max: usize,
    ) -> Result<Vec<Result<Vec<Term>, SolveError>>, Vec<Diagnostic>> {
        let mut q = self.query(goal, limits)?;
        let mut out = Vec::new();
        while out.len() < max {
            match q.next_answer() {
                Some(a) => {
                    let stop = a.is_err();
                    out.push(a);
                    if stop {
                        break;
                    }
                }
                None => break,
            }
        }
        Ok(out)
    }
}

/// `true` if the atom is `[]`.
pub fn is_nil(t: &Term) -> bool {
    matches!(t, Term::Atom(a) if *a == atom::NIL)
}

/// An answer in one line, as `sidl query` prints it and the playground's query panel shows it:
/// `X = v, Y = w.` (canonical text, unbound variables `_G0`, `_G1`, ... shared across the answer;
/// a variable whose name starts with `_` only when bound), `true.` when nothing is shown.
pub fn answer_text(names: &[String], values: &[Term]) -> String {
    let shown: Vec<String> = names
        .iter()
        .zip(values)
        .filter(|(n, v)| !matches!(v, Term::Var(_)) || !n.starts_with('_'))
        .map(|(n, v)| format!("{} = {}", n, crate::write::canonical_shared(v)))
        .collect();
    if shown.is_empty() {
        "true.".to_string()
    } else {
        format!("{}.", shown.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_one_line() {
        let names: Vec<String> = ["X", "_Y", "Z", "_W"].map(String::from).to_vec();
        let values = [
            Term::list(vec![Term::Int(1)]),
            Term::Var(0),
            Term::Var(1),
            Term::atom("a"),
        ];
        assert_eq!(answer_text(&names, &values), "X = [1], Z = _G1, _W = a.");
        assert_eq!(answer_text(&names[1..2], &values[1..2]), "true.");
    }
}
