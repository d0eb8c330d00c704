//! The resolution machine: an iterative interpreter with an explicit continuation (frame) stack and
//! choicepoint stack. No Rust recursion per Prolog call, so deep recursion is bounded only by the
//! budgets in [`Limits`], never by the native stack.
//!
//! Model:
//! - A *frame* is a continuation: "run this, then continue with frame `next`". A clause activation is
//!   one `Body` frame per goal position, holding the clause's variable environment (a block of heap
//!   cells). Frames are immutable once made and only ever point to older frames, so a frame at the top
//!   of the frame stack that no choicepoint protects can be popped as soon as it runs: a deterministic
//!   tail call runs in constant frame space (last-call optimisation).
//! - A *choicepoint* records heap, trail and frame stack heights plus what to try next. Backtracking
//!   restores the heights (undoing trailed bindings) and resumes.
//! - Cut is clause-local: every frame carries the choicepoint height (`cutb`) its `!` cuts back to.
//! - Exceptions unwind the choicepoint stack to the newest active `catch/3` whose catcher unifies.
//! - `findall/3` collects copies of the template in a side segment of cells, outside the heap, so that
//!   backtracking inside it does not destroy them.
//!
//! Files, by concern (one `impl Machine` block each): this file holds the [`Machine`] state, the
//! frames, starting and running a query (`solve`) and the step loop with `dispatch` inlined into it;
//! `choice.rs` choicepoints (push, cut, restore, backtrack); `clause.rs` calls of user predicates
//! (index candidates, head unification); `native.rs` calls of built-ins and host predicates;
//! `control.rs` control constructs, meta-calls and findall collectors; `negation.rs` `\+`/`not/1`;
//! `throw.rs` exceptions and [`SolveError`]; `budget.rs` [`Limits`] and their checks; `memo.rs`
//! memoized calls (argument-keyed and per-state tables) over the data structures of
//! `memo_table.rs` (keys, tables, answers); `gc.rs` garbage collection; `stack.rs` the
//! `TopStack` behind the choicepoint and fill stacks; `tests.rs` unit tests of the memo table.

use crate::atom::{self, Atom};
use crate::rng::Rng;
use crate::solve::builtins::{Builtin, Ctx, Det};
use crate::solve::host::Host;
use crate::solve::program::{
    ClauseT, Control, Dispatch, GoalT, Key, Program, ProgramData, SubGoal,
};
use crate::solve::store::{relocate, Cell, Store, TrailEntry};
use crate::term::Term;
use std::sync::Arc;

mod budget;
mod choice;
mod clause;
mod control;
#[cfg(feature = "compiled-core")]
mod core;
mod gc;
mod memo;
mod memo_table;
mod native;
mod negation;
mod stack;
#[cfg(test)]
mod tests;
mod throw;

pub(crate) use budget::budget_parts;
pub use budget::Limits;
use throw::Fault;
pub use throw::{ErrorKind, SolveError};

use choice::*;
use control::*;
use gc::*;
use memo::*;
use memo_table::*;
use stack::*;

const NO_FRAME: u32 = u32::MAX;
const CATCH_FLAG: u32 = 1 << 31;

#[derive(Clone, Copy, Debug)]
enum FrameKind {
    /// Run goal `pc` of a clause body with environment `env`.
    Body {
        pred: u32,
        clause: u32,
        pc: u32,
        env: u32,
    },
    /// Call a term (meta-call).
    Goal {
        goal: Cell,
    },
    /// Run node `node` of the compiled control constructs of a clause ([`ProgramData::subs`]) with
    /// the clause's environment `env`: what a `Goal` frame of the node's term does.
    Sub {
        pred: u32,
        clause: u32,
        node: u32,
        env: u32,
    },
    /// Commit an if-then-else: cut back to `height`.
    CutTo {
        height: u32,
    },
    /// `*->`: disable the else-branch choicepoint.
    SoftCut {
        cp: u32,
    },
    /// The goal of a `catch/3` exited.
    PopCatch {
        cp: u32,
    },
    /// Copy a findall template into collector `id`, then fail.
    Collect {
        id: u32,
        template: Cell,
    },
    /// Record the argument tuple as an answer of memo fill `fill`, then fail.
    MemoCollect {
        fill: u32,
        args: u32,
        arity: u32,
    },
    // the goal of a negation (`\+`, `not/1`) succeeded: cut back to `height` (removing the
    // negation's choicepoint) and fail
    NotExit {
        height: u32,
    },
    /// The query succeeded.
    Stop,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: FrameKind,
    cutb: u32,
    next: u32,
}

enum Step {
    Go,
    Fail,
    /// An exception: the ball, boxed so that a step's result fits in two registers.
    Throw(Box<Term>),
}

impl Step {
    fn throw(ball: Term) -> Step {
        Step::Throw(Box::new(ball))
    }
}

// every step returns one: small enough to be returned in registers, not through memory
const _: () = assert!(std::mem::size_of::<Result<Step, Fault>>() <= 16);
const _: () = assert!(std::mem::size_of::<Option<Result<Step, Fault>>>() <= 16);
const _: () = assert!(std::mem::size_of::<Result<bool, Fault>>() <= 16);

/// The running state of one query.
pub struct Machine {
    prog: Program,
    pub store: Store,
    pub rng: Rng,
    frames: Vec<Frame>,
    cps: CpStack,
    collectors: Vec<Collector>,
    collected_cells: usize,
    cur: u32,
    limits: Limits,
    pub inferences: u64,
    args_buf: Vec<Cell>,
    ustack: Vec<(Cell, Cell)>,
    /// Name/arity of the predicate being called (for error messages).
    last_call: (Atom, u32),
    /// (pred, clause) of the body goal being run.
    last_clause: Option<(u32, u32)>,
    /// The continuation of that goal (its caller's frames, for the call path of an error: after a
    /// last goal the frame of its clause is gone).
    last_next: u32,
    /// The clause of the game that last called a library predicate: the caller of a library-only
    /// call path (`legal(..) :- once(G)` as its last goal leaves no frame of its clause).
    library_caller: Option<(u32, u32)>,
    /// Heap cells below `base` (the goal and whatever the caller built before `start`) are never
    /// collected; bindings of them are trailed so that the collector finds them.
    base: u32,
    /// Collect garbage when the heap grows past this many cells.
    gc_at: usize,
    /// Garbage collections run (for tests and statistics).
    pub gc_runs: u64,
    /// [`Machine::dispatch`] calls [`Machine::count_call`] when `inferences` passes this: the
    /// inference budget, or 0 when profiling (set by [`Machine::solve`]).
    check_at: u64,
    /// [`Machine::dispatch`] calls [`Machine::check_heap`] when the heap is longer than this: at
    /// most the heap budget less the cells held by findall collectors (lower when they shrank).
    heap_at: usize,
    /// Calls per predicate, when profiling is on.
    pub profile: Option<rustc_hash::FxHashMap<(Atom, u32), u64>>,
    /// Memoized answers of predicates that depend on their arguments only (kept across queries: the
    /// program does not change).
    memo_table: MemoTable,
    /// Scratch space of [`memo_key`].
    memo_words: Vec<u64>,
    memo_vars: Vec<u32>,
    memo_stack: Vec<Cell>,
    memo_entries: Vec<MemoEntry>,
    memo_cells: usize,
    fills: FillStack,
    /// Predicates whose memoization was given up.
    no_memo: PredSet,
    /// Per predicate memoized by its arguments: what its table costs and saves (see [`ArgStat`]).
    arg_stats: Vec<ArgStat>,
    /// Dispatch of meta-called goals by name and arity (the program does not change).
    resolved: rustc_hash::FxHashMap<(Atom, u32), Dispatch>,
    /// A direct-mapped cache in front of `resolved` (slot [`resolve_slot`]).
    resolve_cache: Box<[(Atom, u32, Dispatch); RESOLVE_SLOTS]>,
    /// Per-state tables ([`super::statememo`]): valid while the host's state id is `state_id`.
    /// Entry numbers have [`STATE_ENTRY`] set.
    state_table: MemoTable,
    state_entries: Vec<MemoEntry>,
    state_id: u64,
    state_stats: rustc_hash::FxHashMap<u32, StateStat>,
    /// Does the running query change no context (its goal reaches no host predicate but the state
    /// and context ones)? Per-context tables are used only then: where a query schedules changes
    /// (`do/1`), the context changes between calls and tables would not be asked again. Decided at
    /// the first call that asks (`None` until then) from the query's goal `root`.
    context_tables: Option<bool>,
    root: Cell,
    /// The trail's length when the query started.
    base_trail: usize,
    /// Memoize predicates that depend on their arguments only (on by default).
    pub memoize: bool,
    /// [`Machine::reset`] keeps the inference count, so that the inference budget covers several
    /// queries together (a game's chronon).
    pub keep_inferences: bool,
    /// Run the queries the compiled core can run on it (experimental, `machine/core.rs`; the
    /// default is [`crate::solve::wam::compiled_core_default`]).
    pub compiled_core: bool,
    /// The running query runs on the core.
    #[cfg_attr(not(feature = "compiled-core"), allow(dead_code))]
    core_on: bool,
    #[cfg(feature = "compiled-core")]
    core: Option<Box<core::CoreRun>>,
}

/// The heap cell for clause template cell `cell`: a variable's environment cell (in `old`, the
/// heap below the copy), a compound of the template block starting at `from` relocated to `base`,
/// or the atomic cell itself.
#[inline(always)]
fn instantiate(cell: Cell, old: &[Cell], env: u32, from: u32, base: u32) -> Cell {
    match cell {
        // `Ref`: a head variable's first occurrence (see `compile::mark_first_occurrences`)
        Cell::Var(s) | Cell::Ref(s) => old[(env + s) as usize],
        Cell::Struct(q) => Cell::Struct(q - from + base),
        Cell::List(q) => Cell::List(q - from + base),
        other => other,
    }
}

impl Machine {
    pub fn new(prog: Program, limits: Limits) -> Machine {
        Machine {
            prog,
            store: Store::new(),
            rng: Rng::new(0),
            frames: vec![Frame {
                kind: FrameKind::Stop,
                cutb: 0,
                next: NO_FRAME,
            }],
            cps: CpStack::default(),
            collectors: Vec::new(),
            collected_cells: 0,
            cur: NO_FRAME,
            limits,
            inferences: 0,
            args_buf: Vec::new(),
            ustack: Vec::new(),
            last_call: (atom::TRUE, 0),
            last_clause: None,
            library_caller: None,
            last_next: NO_FRAME,
            base: 0,
            gc_at: GC_MIN,
            gc_runs: 0,
            check_at: 0,
            heap_at: 0,
            profile: None,
            memo_table: Default::default(),
            memo_words: Vec::new(),
            memo_vars: Vec::new(),
            memo_stack: Vec::new(),
            memo_entries: Vec::new(),
            memo_cells: 0,
            fills: FillStack::default(),
            no_memo: Default::default(),
            arg_stats: Vec::new(),
            resolved: Default::default(),
            resolve_cache: Box::new([(Atom(u32::MAX), u32::MAX, Dispatch::Unknown); RESOLVE_SLOTS]),
            state_table: Default::default(),
            state_entries: Vec::new(),
            state_id: 0,
            state_stats: Default::default(),
            context_tables: Some(false),
            root: Cell::Atom(atom::TRUE),
            base_trail: 0,
            memoize: true,
            keep_inferences: false,
            compiled_core: crate::solve::wam::compiled_core_default(),
            core_on: false,
            #[cfg(feature = "compiled-core")]
            core: None,
        }
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Forgets every goal and choicepoint and empties the heap, keeping allocations.
    pub fn reset(&mut self) {
        self.core_on = false;
        self.context_tables = Some(false);
        self.store.heap.clear();
        self.store.trail.clear();
        self.store.mark = 0;
        self.frames.truncate(1);
        self.cps.clear();
        self.collectors.clear();
        self.fills.clear();
        self.collected_cells = 0;
        self.cur = NO_FRAME;
        if !self.keep_inferences {
            self.inferences = 0;
        }
        self.base = 0;
        self.gc_at = GC_MIN;
    }

    /// Starts solving `goal` (a heap term): the next [`Machine::solve`] finds the first answer.
    #[inline]
    pub fn start(&mut self, goal: Cell) {
        self.core_on = false;
        #[cfg(feature = "compiled-core")]
        if self.compiled_core && self.core_start(goal) {
            return;
        }
        self.start_interpreter(goal);
    }

    /// [`Machine::start`] on the interpreter.
    fn start_interpreter(&mut self, goal: Cell) {
        // the query is called as call/1 is: its body is converted first (ISO 7.6.2)
        self.context_tables = None;
        self.library_caller = None;
        self.root = goal;
        self.base_trail = self.store.trail.len();
        let goal = self.store.make_compound(atom::CALL, &[goal]);
        self.frames.truncate(1);
        self.cps.clear();
        self.collectors.clear();
        self.fills.clear();
        self.collected_cells = 0;
        if self.memo_cells > MEMO_MAX_CELLS {
            self.memo_table.clear();
            self.memo_entries.clear();
            self.memo_cells = 0;
        }
        self.base = self.store.len();
        self.store.mark = self.base;
        self.gc_at = (self.base as usize).saturating_mul(2).max(GC_MIN);
        // a plain goal already resolved (no control construct, no budget or profile in play): its
        // `call/1` is counted here and the goal is run as the step meta-calling it would run it
        // (same cut barrier and continuation, the same heap: the `call/1` term stays built)
        let plain = self.profile.is_none()
            && self.inferences < self.limits.max_inferences
            && self.store.heap.len() <= self.limits.max_heap_cells
            && self.resolved_plain(self.store.deref(self.root));
        let goal = if plain {
            self.inferences += 1;
            self.last_call = (atom::CALL, 1);
            self.root
        } else {
            goal
        };
        self.frames.push(Frame {
            kind: FrameKind::Goal { goal },
            cutb: 0,
            next: 0,
        });
        self.cur = 1;
    }

    /// Is heap term `g` a callable goal whose dispatch is cached and not a control construct?
    fn resolved_plain(&self, g: Cell) -> bool {
        let Some((name, arity, _)) = self.goal_parts(g) else {
            return false;
        };
        let slot = &self.resolve_cache[control::resolve_slot(name, arity)];
        slot.0 == name && slot.1 == arity && !matches!(slot.2, Dispatch::Control(_))
    }

    /// May per-context tables be used in this query: can its goal reach no host predicate but the
    /// state and context ones?
    fn context_tables(&mut self) -> bool {
        if let Some(b) = self.context_tables {
            return b;
        }
        let b = self.changes_no_context(self.root);
        self.context_tables = Some(b);
        b
    }

    fn changes_no_context(&self, goal: Cell) -> bool {
        let data = &self.prog.0;
        let Some((name, arity)) = self.store.functor(self.store.deref(goal)) else {
            return false;
        };
        match super::compile::resolve(data, name, arity) {
            Dispatch::User(p) => {
                let r = data.preds[p as usize].reaches;
                r & !data.table_hosts == 0
            }
            Dispatch::Host(id) => id < 63 && data.table_hosts & (1 << id) != 0,
            _ => false,
        }
    }

    /// The query has no (more) answers: the effects of its last, failed branch are undone (the
    /// bindings above the query's goal too), as backtracking into an older choicepoint would.
    fn undo_host_effects(&mut self, host: &mut dyn Host) {
        let base = self.store.trail.len().min(self.base_trail);
        self.store.undo_to(base, |n| {
            if n & CATCH_FLAG == 0 {
                host.undo(n);
            }
        });
    }

    /// Are there choicepoints left (could another answer exist)?
    pub fn has_alternatives(&self) -> bool {
        #[cfg(feature = "compiled-core")]
        if self.core_on {
            return self.core_alternatives();
        }
        !self.cps.is_empty()
    }

    /// Runs until the next answer (`Ok(true)`), no more answers (`Ok(false)`) or an error. With
    /// `redo`, first backtracks into the previous answer's alternatives.
    #[inline]
    pub fn solve(&mut self, redo: bool, host: &mut dyn Host) -> Result<bool, SolveError> {
        #[cfg(feature = "compiled-core")]
        if self.core_on {
            return self.core_solve(redo, host);
        }
        self.solve_interpreter(redo, host)
    }

    /// [`Machine::solve`] on the interpreter.
    fn solve_interpreter(&mut self, redo: bool, host: &mut dyn Host) -> Result<bool, SolveError> {
        self.run(redo, host).map_err(|e| *e)
    }

    /// [`Machine::solve`] with the error boxed (as every step returns it).
    fn run(&mut self, redo: bool, host: &mut dyn Host) -> Result<bool, Fault> {
        self.check_at = if self.profile.is_some() {
            0
        } else {
            self.limits.max_inferences
        };
        self.heap_at = self
            .limits
            .max_heap_cells
            .saturating_sub(self.collected_cells);
        let prog = self.prog.clone();
        let data: &ProgramData = &prog.0;
        if redo && !self.backtrack(data, host)? {
            self.undo_host_effects(host);
            return Ok(false);
        }
        if self.cur == NO_FRAME {
            return Ok(false);
        }
        loop {
            let step = self.step(data, host)?;
            match step {
                Step::Go => {
                    if self.cur == 0 {
                        return Ok(true);
                    }
                }
                Step::Fail => {
                    if !self.backtrack(data, host)? {
                        self.cur = NO_FRAME;
                        self.undo_host_effects(host);
                        return Ok(false);
                    }
                }
                Step::Throw(ball) => {
                    if let Err(e) = self.throw(data, host, *ball) {
                        self.cur = NO_FRAME;
                        return Err(e);
                    }
                }
            }
            if self.cur == 0 {
                return Ok(true);
            }
        }
    }

    /// One step: run the current frame. (Natively LLVM inlines it into [`Machine::solve`]; the
    /// wasm build did not: forced there, connect4's `bench()` runs 3.2 % fewer instructions in
    /// V8 for 1.3 KB, docs/performance.md, wg25.)
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn step(&mut self, data: &ProgramData, host: &mut dyn Host) -> Result<Step, Fault> {
        if self.store.heap.len() > self.gc_at {
            self.collect_garbage(data);
        }
        if self.fills.overdue(self.inferences) {
            return self.abort_fill(data, host);
        }
        let fi = self.cur;
        let f = self.frames[fi as usize];
        // the newest frame is dropped when no choicepoint can resume it (a `Body` frame with goals
        // left is reused for its continuation instead)
        let top = fi + 1 == self.frames.len() as u32 && fi >= self.protected();
        if top && !matches!(f.kind, FrameKind::Body { .. }) {
            self.frames.pop();
        }
        match f.kind {
            FrameKind::Stop => {
                self.cur = 0;
                Ok(Step::Go)
            }
            FrameKind::Body {
                pred,
                clause,
                pc,
                env,
            } => {
                let c: &ClauseT = &data.preds[pred as usize].clauses[clause as usize];
                let g = &c.body[pc as usize];
                let next = if (pc as usize) + 1 < c.body.len() {
                    if top {
                        // what popping the frame and pushing its continuation would make
                        if let Some(Frame {
                            kind: FrameKind::Body { pc: p, .. },
                            ..
                        }) = self.frames.last_mut()
                        {
                            *p = pc + 1;
                        }
                        fi
                    } else {
                        self.push_frame(
                            FrameKind::Body {
                                pred,
                                clause,
                                pc: pc + 1,
                                env,
                            },
                            f.cutb,
                            f.next,
                        )?
                    }
                } else {
                    if top {
                        self.frames.pop();
                    }
                    f.next
                };
                let args = self.store.len();
                let n = g.args.len();
                let (bp, be) = g.block;
                if bp != u32::MAX {
                    self.goal_args_block(c, g, env);
                } else {
                    // `is/2` and the comparisons of integers (`block`: `(u32::MAX, cells of the
                    // compound arguments)`), without building their arguments: only where the heap
                    // built for them would pass the budget check of `dispatch`
                    if let Some(op) = g.arith {
                        if args as usize + n + be as usize <= self.heap_at {
                            if let Some(step) = self.arith(op, c, (pred, clause), pc, env, next) {
                                return step;
                            }
                        }
                    }
                    // a host predicate's call with a short list: the host gets the elements
                    if g.host_list {
                        if args as usize + n + be as usize <= self.heap_at {
                            self.last_clause = Some((pred, clause));
                            self.last_next = next;
                            if let Some(step) = self.host_list(host, c, g, env, next) {
                                return step;
                            }
                        }
                        self.goal_args_in(c, g, env, host_list_block(c, g));
                    } else {
                        // a control construct compiled into the clause: run from its templates
                        if g.sub != u32::MAX {
                            self.last_clause = Some((pred, clause));
                            self.last_next = next;
                            return self.run_sub(
                                data,
                                host,
                                (pred, clause),
                                g.sub,
                                env,
                                f.cutb,
                                next,
                            );
                        }
                        self.goal_args_each(c, g, env);
                    }
                }
                self.last_clause = Some((pred, clause));
                self.last_next = next;
                self.dispatch(data, host, g.disp, g.name, g.arity, args, f.cutb, next)
            }
            FrameKind::Goal { goal } => {
                let g = self.store.deref(goal);
                let Some((name, arity, args)) = self.goal_parts(g) else {
                    if let Cell::Ref(_) = g {
                        return Ok(Step::throw(Term::instantiation_error()));
                    }
                    let t = self.store.to_term(g);
                    return Ok(Step::throw(Term::type_error(atom::CALLABLE, t)));
                };
                let disp = self.resolve_goal(data, name, arity);
                self.dispatch_nested(data, host, disp, name, arity, args, f.cutb, f.next)
            }
            FrameKind::Sub {
                pred,
                clause,
                node,
                env,
            } => self.run_sub(data, host, (pred, clause), node, env, f.cutb, f.next),
            FrameKind::CutTo { height } => {
                self.cut(height);
                self.cur = f.next;
                Ok(Step::Go)
            }
            FrameKind::SoftCut { cp } => {
                if let Some(c) = self.cps.get_mut(cp as usize) {
                    c.kind = CpKind::Dead;
                }
                self.cur = f.next;
                Ok(Step::Go)
            }
            FrameKind::PopCatch { cp } => {
                if self.cps.len() == cp as usize + 1 {
                    self.pop_cp();
                } else if let Some(ChoicePoint {
                    kind: CpKind::Catch { active, .. },
                    ..
                }) = self.cps.get_mut(cp as usize)
                {
                    *active = false;
                    self.store.trail.push(TrailEntry::Host(cp | CATCH_FLAG));
                }
                self.cur = f.next;
                Ok(Step::Go)
            }
            FrameKind::Collect { id, template } => {
                let col = &mut self.collectors[id as usize];
                let before = col.cells.len();
                let root = self.store.copy_out(template, &mut col.cells);
                col.roots.push(root);
                self.collected_cells += col.cells.len() - before + 1;
                self.heap_at = self
                    .limits
                    .max_heap_cells
                    .saturating_sub(self.collected_cells);
                if self.store.heap.len() + self.collected_cells > self.limits.max_heap_cells {
                    return Err(self.budget("heap", self.limits.max_heap_cells as u64));
                }
                Ok(Step::Fail)
            }
            FrameKind::MemoCollect { fill, args, arity } => {
                let f = &mut self.fills[fill as usize];
                f.answers.push(&mut self.store, args, arity);
                if f.answers.len() > MEMO_MAX_ANSWERS {
                    return self.abort_fill(data, host);
                }
                Ok(Step::Fail)
            }
            FrameKind::NotExit { height } => {
                if self.cps.len() == height as usize + 1 {
                    // the goal left no choicepoint: only the negation's own is removed
                    self.pop_cp();
                } else {
                    self.cut(height);
                }
                Ok(Step::Fail)
            }
        }
    }

    /// [`Machine::dispatch`] out of line, for the calls other than a clause body goal's (the
    /// step loop's common case, where it is inlined).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn dispatch_nested(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        disp: Dispatch,
        name: Atom,
        arity: u32,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        self.dispatch(data, host, disp, name, arity, args, cutb, next)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn dispatch(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        disp: Dispatch,
        name: Atom,
        arity: u32,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        self.count_control(name, arity)?;
        match disp {
            Dispatch::User(p) => {
                let pr = &data.preds[p as usize];
                if self.memoize && (pr.memo || pr.state_memo != 0) && !self.no_memo.contains(&p) {
                    if pr.memo {
                        return self.call_memo_args(data, p, args, arity, cutb, next);
                    }
                    // not while a host predicate it reaches may not be called (placement)
                    let sid = if pr.reaches & host.forbidden() == 0 {
                        host.state_id()
                    } else {
                        0
                    };
                    let modes = pr.state_memo;
                    // per-context tables: only in queries that change no context (see `start`)
                    let cid = if modes & super::statememo::MODE_CONTEXT == 0 {
                        Some(0)
                    } else if self.context_tables() {
                        Some(host.context_id()).filter(|&c| c != 0)
                    } else {
                        None
                    };
                    if let (true, Some(cid)) = (sid != 0, cid) {
                        return self.call_state_memo(
                            data,
                            p,
                            args,
                            arity,
                            cutb,
                            next,
                            (sid, cid),
                            modes,
                        );
                    }
                }
                self.call_user(data, p, args, arity, next)
            }
            Dispatch::Native(f) => self.call_native(f, name, arity, args, next, None, None),
            Dispatch::Host(id) => self.call_host(host, id, name, arity, args, next, None, None),
            // `!` as `control` runs it, without that call: `cut` only where a choicepoint is above
            // the barrier
            Dispatch::Control(Control::Cut) => {
                if self.cps.len() > cutb as usize {
                    self.cut(cutb);
                }
                self.cur = next;
                Ok(Step::Go)
            }
            Dispatch::Control(Control::Not) => self.negation(data, host, args, cutb, next),
            Dispatch::Control(c) => self.control(data, host, c, args, cutb, next),
            Dispatch::Unknown => Ok(Step::throw(Term::existence_error(
                atom::PROCEDURE,
                Term::indicator(name, arity as usize),
            ))),
        }
    }
}
