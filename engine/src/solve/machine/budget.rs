//! Budgets of a query ([`Limits`]) and their checks on the dispatch path (with profiling).

use super::*;

/// Budgets of one query. Exceeding one ends the query with [`ErrorKind::Budget`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Calls (of any predicate, built-in or user) and built-in retries.
    pub max_inferences: u64,
    /// Heap cells, including `findall/3` collections.
    pub max_heap_cells: usize,
    /// Open choicepoints.
    pub max_choicepoints: usize,
    /// Pending continuation frames (the depth of non-tail recursion).
    pub max_frames: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_inferences: 10_000_000,
            max_heap_cells: 32 << 20,
            max_choicepoints: 4 << 20,
            max_frames: 8 << 20,
        }
    }
}

impl Limits {
    /// No practical limit (benchmarks).
    pub fn unlimited() -> Limits {
        Limits {
            max_inferences: u64::MAX,
            max_heap_cells: usize::MAX,
            max_choicepoints: usize::MAX,
            max_frames: usize::MAX,
        }
    }
}

/// The ball and the message of budget `what` (of `n`) exhausted while calling `name/arity`: the
/// one wording of budget errors, for the interpreter and the compiled core (`solve::wam`).
pub(crate) fn budget_parts(what: &str, n: u64, (name, arity): (Atom, u32)) -> (Term, String) {
    let ball = Term::compound(
        "error",
        vec![
            Term::compound("resource_error", vec![Term::atom(what)]),
            Term::compound(
                "context",
                vec![Term::indicator(name, arity as usize), Term::Var(0)],
            ),
        ],
    );
    let limit = match what {
        "inferences" => format!("the budget of {n} inference steps"),
        "heap" => format!("the budget of {n} term cells"),
        "choicepoints" => format!("the budget of {n} open choicepoints"),
        _ => format!("the budget of {n} pending goals (recursion depth)"),
    };
    (
        ball,
        format!("{} exhausted while running {}/{}", limit, name, arity),
    )
}

impl Machine {
    pub(super) fn budget(&self, what: &'static str, n: u64) -> Fault {
        let (ball, message) = budget_parts(what, n, self.last_call);
        let mut e = self.error_info(ball);
        e.kind = ErrorKind::Budget(what);
        e.message = message;
        Box::new(e)
    }

    /// What [`Machine::dispatch`] does first when the inference count passes `check_at`: count
    /// the call when profiling, check the inference budget.
    #[cold]
    #[inline(never)]
    pub(super) fn count_call(&mut self, name: Atom, arity: u32) -> Result<(), Fault> {
        if let Some(p) = &mut self.profile {
            *p.entry((name, arity)).or_insert(0) += 1;
        }
        if self.inferences > self.limits.max_inferences {
            return Err(self.budget("inferences", self.limits.max_inferences));
        }
        Ok(())
    }

    /// The heap budget check of [`Machine::dispatch`], when the heap is past `heap_at` (which
    /// is then brought up to date).
    #[cold]
    #[inline(never)]
    pub(super) fn check_heap(&mut self) -> Result<(), Fault> {
        self.heap_at = self
            .limits
            .max_heap_cells
            .saturating_sub(self.collected_cells);
        if self.store.heap.len() + self.collected_cells > self.limits.max_heap_cells {
            return Err(self.budget("heap", self.limits.max_heap_cells as u64));
        }
        Ok(())
    }
}
