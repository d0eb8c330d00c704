//! The compiled core run for the interpreter's [`crate::solve::Machine`] (issue 17, phase 2,
//! experimental and opt-in: [`set_compiled_core_default`]): a [`CoreQuery`] per user predicate,
//! compiled once per machine and restarted for every query of that predicate, over the
//! machine's own store and random number generator (`machine/core.rs` swaps them in).

use super::{CoreQuery, NONE};
use crate::atom;
use crate::rng::Rng;
use crate::solve::host::Host;
use crate::solve::machine::{Limits, SolveError};
use crate::solve::program::Program;
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use std::cell::{Cell as StdCell, RefCell};

thread_local! {
    /// The default of [`crate::solve::Machine::compiled_core`] for machines made on this thread.
    static COMPILED_CORE: StdCell<bool> = const { StdCell::new(false) };
    /// Queries started by machines with the core on, by where they ran ([`Route`]).
    static ROUTES: StdCell<[u64; 4]> = const { StdCell::new([0; 4]) };
    /// The first reasons (distinct) why the core refused a predicate.
    static REFUSED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Makes every [`crate::solve::Machine`] made from now on by this thread run the queries the
/// compiled core can run on it (experimental; the CLI sets it from `SIDL_CORE=compiled`). Off
/// by default.
pub fn set_compiled_core_default(on: bool) {
    COMPILED_CORE.with(|c| c.set(on));
}

/// Whether this build runs game queries on the compiled core when switched on (the engine's
/// cargo feature `compiled-core`); without it [`set_compiled_core_default`] changes nothing.
pub const WIRED: bool = cfg!(feature = "compiled-core");

/// The default of [`crate::solve::Machine::compiled_core`] on this thread.
pub fn compiled_core_default() -> bool {
    COMPILED_CORE.with(|c| c.get())
}

/// Where a query started by a machine with the core on ran, and why.
#[derive(Clone, Copy, Debug)]
pub enum Route {
    /// On the compiled core.
    Core,
    /// On the interpreter: the goal is not a call of a user predicate.
    NotUser,
    /// On the interpreter: the predicate reaches something outside the core's subset.
    Outside,
    /// On the interpreter: memo or per-state tables, or a profile.
    Tables,
}

/// Counts a query started by a machine with the core on.
#[cfg_attr(not(feature = "compiled-core"), allow(dead_code))]
pub(crate) fn count_query(r: Route) {
    ROUTES.with(|c| {
        let mut v = c.get();
        v[r as usize] += 1;
        c.set(v);
    });
}

/// Notes why the core refused a predicate (the first 20 distinct reasons are kept).
#[cfg_attr(not(feature = "compiled-core"), allow(dead_code))]
pub(crate) fn note_refusal(why: &str) {
    REFUSED.with(|v| {
        let mut v = v.borrow_mut();
        if v.len() < 20 && !v.iter().any(|w| w == why) {
            v.push(why.to_string());
        }
    });
}

/// The queries started by machines with the core on by this thread, per [`Route`] (a debug
/// counter: `SIDL_CORE_COUNTS=1` makes the CLI print it), and the first reasons of refusals.
pub fn core_counts() -> ([u64; 4], Vec<String>) {
    (
        ROUTES.with(|c| c.get()),
        REFUSED.with(|v| v.borrow().clone()),
    )
}

impl CoreQuery {
    /// A query of user predicate `p` with its arguments given at each [`CoreQuery::restart`].
    pub fn for_pred(prog: &Program, p: u32, limits: Limits) -> Result<CoreQuery, String> {
        let pred = &prog.data().preds[p as usize];
        let goal = if pred.arity == 0 {
            Term::Atom(pred.name)
        } else {
            Term::Compound(
                pred.name,
                std::sync::Arc::from((0..pred.arity).map(Term::Var).collect::<Vec<_>>()),
            )
        };
        let mut q = CoreQuery::new(prog, &goal, &[], limits)?;
        q.store = Store::new();
        Ok(q)
    }

    /// Does no predicate the query reaches have memo or per-state tables (which the core does
    /// not keep: with memoization on, such a query stays on the interpreter)?
    pub fn memo_free(&self) -> bool {
        let data = self.prog.data();
        self.code.preds.iter().enumerate().all(|(p, c)| {
            let pr = &data.preds[p];
            c.lists.is_empty() || (!pr.memo && pr.state_memo == 0)
        })
    }

    /// Starts the query again with arguments `args` (cells of the store that
    /// [`CoreQuery::swap_state`] will swap in), `inferences` counted so far.
    pub fn restart(&mut self, args: &[Cell], store: &Store, inferences: u64, limits: Limits) {
        let n = args.len().min(self.x.len());
        self.x[..n].copy_from_slice(&args[..n]);
        self.cps.clear();
        self.saved.clear();
        self.pc = self.start;
        self.e = NONE;
        self.ybase = 0;
        self.cpc = NONE;
        self.b0 = 0;
        self.base = store.len();
        self.base_trail = store.trail.len();
        self.limits = limits;
        self.inferences = inferences;
        self.last_call = (atom::CALL, 1);
        self.started = false;
        self.done = false;
    }

    /// Swaps the store and the random number generator with the machine's.
    pub fn swap_state(&mut self, store: &mut Store, rng: &mut Rng) {
        std::mem::swap(&mut self.store, store);
        std::mem::swap(&mut self.rng, rng);
    }

    /// The next answer (`redo`: after the previous one), as `Machine::solve` runs it: `Ok(false)`
    /// with the host effects of the last branch undone when there is none.
    pub fn solve(&mut self, redo: bool, host: &mut dyn Host) -> Result<bool, SolveError> {
        if self.done {
            return Ok(false);
        }
        self.started = true;
        let r = self.resume(host, redo);
        match r {
            Ok(true) => Ok(true),
            Ok(false) => {
                self.done = true;
                self.undo_host_effects(host);
                Ok(false)
            }
            Err(e) => {
                self.done = true;
                Err(*e)
            }
        }
    }

    /// Are there choicepoints left?
    pub fn has_alternatives(&self) -> bool {
        !self.cps.is_empty()
    }
}
