//! Queries run on the compiled core (`solve::wam`, experimental, off unless
//! [`Machine::compiled_core`]): [`Machine::start`] of a goal calling a user predicate that the
//! core compiles (everything it reaches in the core's subset) and, with memoization on, that
//! reaches no predicate with memo or per-state tables, without a profile, runs on the core; every
//! other query on the interpreter. The core gives the same answers in the same order, the same
//! host calls and effects and the same inference count. An error raised on the core is raised
//! again by the interpreter (the call path, the budgets the core does not check): the query's
//! effects are undone, and the interpreter runs it from the start to the same point (the
//! answers already given, then on).

use super::*;
use crate::solve::wam::{count_query, note_refusal, CoreQuery, Route};

/// The compiled core's queries of one machine.
pub(super) struct CoreRun {
    /// Per user predicate: its core query and whether it reaches no memo or per-state table
    /// (`None`: outside the core's subset).
    cache: rustc_hash::FxHashMap<u32, Option<(Box<CoreQuery>, bool)>>,
    /// The running query's predicate.
    active: u32,
    /// Its goal, the answers given, and the machine as it was before the query (inference
    /// count, random number generator, heap and trail lengths): what the interpreter needs to
    /// run it again.
    goal: Cell,
    answers: u64,
    inferences: u64,
    rng: Rng,
    heap: u32,
    trail: usize,
}

impl Default for CoreRun {
    fn default() -> CoreRun {
        CoreRun {
            cache: Default::default(),
            active: 0,
            goal: Cell::Atom(atom::TRUE),
            answers: 0,
            inferences: 0,
            rng: Rng::new(0),
            heap: 0,
            trail: 0,
        }
    }
}

impl Machine {
    /// [`Machine::start`] on the core, when it can run `goal`: `false` (nothing done) when not.
    #[inline(never)]
    pub(super) fn core_start(&mut self, goal: Cell) -> bool {
        let prog = self.prog.clone();
        let limits = self.limits;
        let core = self.core.get_or_insert_with(Default::default);
        let g = self.store.deref(goal);
        let (name, arity, args) = match g {
            Cell::Atom(a) => (a, 0, 0),
            Cell::Struct(p) => match self.store.heap[p as usize] {
                Cell::Functor(n, k) => (n, k, p + 1),
                _ => {
                    count_query(Route::NotUser);
                    return false;
                }
            },
            _ => {
                count_query(Route::NotUser);
                return false;
            }
        };
        let Dispatch::User(p) = super::super::compile::resolve(&prog.0, name, arity) else {
            count_query(Route::NotUser);
            return false;
        };
        let entry =
            core.cache
                .entry(p)
                .or_insert_with(|| match CoreQuery::for_pred(&prog, p, limits) {
                    Ok(q) => {
                        let free = q.memo_free();
                        Some((Box::new(q), free))
                    }
                    Err(why) => {
                        note_refusal(&why);
                        None
                    }
                });
        let Some((q, free)) = entry else {
            count_query(Route::Outside);
            return false;
        };
        if self.profile.is_some() || (self.memoize && !*free) {
            count_query(Route::Tables);
            return false;
        }
        count_query(Route::Core);
        // the machine as `start` leaves it (the `call/1` cell built as there)
        let heap = self.store.len();
        let rng = self.rng.clone();
        self.context_tables = None;
        self.library_caller = None;
        self.root = goal;
        self.base_trail = self.store.trail.len();
        let _ = self.store.make_compound(atom::CALL, &[goal]);
        self.frames.truncate(1);
        self.cps.clear();
        self.collectors.clear();
        self.fills.clear();
        self.collected_cells = 0;
        self.base = self.store.len();
        self.store.mark = self.base;
        self.cur = NO_FRAME;
        let argv: Vec<Cell> = self.store.heap[args as usize..(args + arity) as usize].to_vec();
        q.restart(&argv, &self.store, self.inferences, self.limits);
        core.active = p;
        core.goal = goal;
        core.answers = 0;
        core.inferences = self.inferences;
        core.rng = rng;
        core.heap = heap;
        core.trail = self.base_trail;
        self.core_on = true;
        true
    }

    /// [`Machine::solve`] of a query running on the core.
    #[inline(never)]
    pub(super) fn core_solve(
        &mut self,
        redo: bool,
        host: &mut dyn Host,
    ) -> Result<bool, SolveError> {
        let core = self.core.as_mut().expect("a core query runs");
        let Some(Some((q, _))) = core.cache.get_mut(&core.active) else {
            unreachable!("the running query is cached")
        };
        q.swap_state(&mut self.store, &mut self.rng);
        let r = q.solve(redo, host);
        q.swap_state(&mut self.store, &mut self.rng);
        self.inferences = q.inferences;
        match r {
            Ok(true) => {
                core.answers += 1;
                Ok(true)
            }
            Ok(false) => Ok(false),
            Err(_) => self.core_fallback(host),
        }
    }

    /// The core raised an error: the query's effects are undone and the interpreter runs it
    /// again, through the answers already given, to its own error (call path included).
    #[cold]
    #[inline(never)]
    fn core_fallback(&mut self, host: &mut dyn Host) -> Result<bool, SolveError> {
        self.core_on = false;
        let core = self.core.as_mut().expect("a core query ran");
        let (goal, answers, trail, heap) = (core.goal, core.answers, core.trail, core.heap);
        self.inferences = core.inferences;
        self.rng = core.rng.clone();
        self.store.undo_to(trail, |n| {
            if n & CATCH_FLAG == 0 {
                host.undo(n);
            }
        });
        self.store.heap.truncate(heap as usize);
        let on = std::mem::replace(&mut self.compiled_core, false);
        self.start(goal);
        self.compiled_core = on;
        let mut redo = false;
        for _ in 0..answers {
            match self.solve(redo, host) {
                Ok(true) => redo = true,
                other => return other,
            }
        }
        self.solve(redo, host)
    }

    /// [`Machine::has_alternatives`] of a query running on the core.
    pub(super) fn core_alternatives(&self) -> bool {
        let core = self.core.as_ref().expect("a core query runs");
        matches!(core.cache.get(&core.active), Some(Some((q, _))) if q.has_alternatives())
    }
}
