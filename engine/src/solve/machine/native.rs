//! Calls of native built-ins and host predicates (with their retry choicepoints).

use super::*;
use crate::solve::arith::int_fn;
use crate::solve::builtins;
use crate::solve::program::{ANode, AOp, AVal, ArithCode, ArithOp, GoalT};
use crate::solve::store::Store;

/// At most this many calls are counted by one call of a library fast path ([`Ctx::room`]).
const LIBRARY_ROOM: u64 = 1 << 12;

impl Machine {
    pub(super) fn load_args(&mut self, args: u32, arity: u32) -> Vec<Cell> {
        let mut buf = std::mem::take(&mut self.args_buf);
        buf.clear();
        buf.extend_from_slice(&self.store.heap[args as usize..(args + arity) as usize]);
        buf
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_native(
        &mut self,
        f: Builtin,
        name: Atom,
        arity: u32,
        args: u32,
        next: u32,
        redo: Option<u64>,
        marks: Option<(u32, u32, u32)>,
    ) -> Result<Step, Fault> {
        let (saved_mark, (heap, trail, frames)) = self.begin_call(marks);
        let (r, library, used, clauses) = self.with_args(args, arity, |m, buf| {
            let mut ctx = Ctx {
                room: if arity == 3 && builtins::has_library_fast(name) {
                    m.library_room()
                } else {
                    0
                },
                heap_room: m.heap_at.saturating_sub(m.store.heap.len()),
                store: &mut m.store,
                rng: &mut m.rng,
                library: false,
                used: 0,
                clauses: None,
                count_first: false,
            };
            let r = f(&mut ctx, buf, redo);
            (
                r,
                ctx.library,
                ctx.used,
                ctx.clauses.map(|a| (a, ctx.count_first)),
            )
        });
        if library {
            // a library fast path (`builtins::library_fast`)
            self.inferences += used;
            let prog = self.prog.clone();
            if let Some((q, c)) = self
                .last_clause
                .filter(|&(q, _)| !prog.0.preds[q as usize].library)
            {
                self.library_caller = Some((q, c));
            }
            if let Some((a, count_first)) = clauses {
                self.store.mark = saved_mark;
                if count_first {
                    self.count_control(name, arity)?;
                }
                let p = prog.0.by_key[&(name, arity)];
                let a = if a == builtins::OWN_ARGS { args } else { a };
                return self.call_user(&prog.0, p, a, arity, next);
            }
        }
        let retry = |state| CpKind::Native {
            f,
            args,
            arity,
            state,
            name,
        };
        self.finish_call(r, retry, saved_mark, (heap, trail, frames), next)
    }

    /// [`Ctx::room`]: the calls a library fast path may count with none of the checks
    /// [`Machine::dispatch`] and the step loop make due (at most [`LIBRARY_ROOM`]), and room for
    /// the choicepoint and frame its clauses would push.
    #[inline(always)]
    fn library_room(&self) -> u64 {
        let r = self
            .check_at
            .saturating_sub(self.inferences)
            .min(LIBRARY_ROOM);
        if r == 0
            || self.fills.overdue(self.inferences + r)
            || self.cps.len() + 1 >= self.limits.max_choicepoints
            || self.frames.len() + 1 >= self.limits.max_frames
        {
            0
        } else {
            r
        }
    }

    /// Before a native or host call: the mark to restore, and the heights a retry choicepoint gets
    /// (`marks` when retrying). Every binding made by the call is trailed.
    pub(super) fn begin_call(&mut self, marks: Option<(u32, u32, u32)>) -> (u32, (u32, u32, u32)) {
        let saved_mark = self.store.mark;
        let heights = self.heights(marks);
        self.store.mark = heights.0;
        (saved_mark, heights)
    }

    /// Runs `f` with a copy of the `arity` argument cells at `args` (on the stack for small
    /// arities, else in the reused `args_buf`): the callee may grow the heap.
    #[inline]
    pub(super) fn with_args<R>(
        &mut self,
        args: u32,
        arity: u32,
        f: impl FnOnce(&mut Machine, &[Cell]) -> R,
    ) -> R {
        const SMALL: usize = 3;
        let (a, n) = (args as usize, arity as usize);
        if n <= SMALL {
            let mut small = [Cell::Atom(atom::NIL); SMALL];
            small[..n].copy_from_slice(&self.store.heap[a..a + n]);
            f(self, &small[..n])
        } else {
            let buf = self.load_args(args, arity);
            let r = f(self, &buf);
            self.args_buf = buf;
            r
        }
    }

    /// What a native or host predicate's answer means for the machine: continue, fail, throw, or
    /// continue leaving a choicepoint (`retry(state)`) made with the heights from before the call.
    pub(super) fn finish_call(
        &mut self,
        r: Result<Det, Term>,
        retry: impl FnOnce(u64) -> CpKind,
        saved_mark: u32,
        (heap, trail, frames): (u32, u32, u32),
        next: u32,
    ) -> Result<Step, Fault> {
        match r {
            Ok(Det::True) => {
                self.store.mark = saved_mark;
                self.cur = next;
                Ok(Step::Go)
            }
            Ok(Det::Fail) => {
                self.store.mark = saved_mark;
                Ok(Step::Fail)
            }
            Ok(Det::Retry(state)) => {
                self.push_cp_at(retry(state), (heap, trail, frames), next, 0)?;
                self.cur = next;
                Ok(Step::Go)
            }
            Err(ball) => {
                self.store.mark = saved_mark;
                Ok(Step::throw(ball))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_host(
        &mut self,
        host: &mut dyn Host,
        id: u32,
        name: Atom,
        arity: u32,
        args: u32,
        next: u32,
        redo: Option<u64>,
        marks: Option<(u32, u32, u32)>,
    ) -> Result<Step, Fault> {
        let (saved_mark, (heap, trail, frames)) = self.begin_call(marks);
        // a retry the host answers from what it kept, else the call with the arguments
        let kept = match redo {
            Some(state) if state >> 32 != 0 => host.retry_kept(id, &mut self.store, state),
            _ => None,
        };
        let r = match kept {
            Some(d) => Ok(d),
            None => self.with_args(args, arity, |m, buf| {
                host.call(id, &mut m.store, &mut m.rng, buf, redo)
            }),
        };
        let retry = |state| CpKind::Host {
            id,
            args,
            arity,
            state,
            name,
        };
        self.finish_call(r, retry, saved_mark, (heap, trail, frames), next)
    }
}

impl Machine {
    /// Body goal `g` of clause `c` (environment `env`), a [`GoalT::host_list`] goal, run by
    /// [`Host::call_list`] with its list's elements instead of building the list, when the host
    /// takes it; `None`: nothing was done, the caller builds the arguments and dispatches.
    /// Exactly what [`Machine::dispatch`] and [`Machine::call_host`] do: the caller checked that
    /// the heap built for the arguments would pass `dispatch`'s check; the call is counted only
    /// where no budget check or profile count is due; the bindings are trailed with the same mark;
    /// an answer with a retry state gets the list built (with the elements from before the call,
    /// so that backtracking gives the host the same list) and the choicepoint `call_host` makes.
    #[inline(never)]
    pub(super) fn host_list(
        &mut self,
        host: &mut dyn Host,
        _c: &ClauseT,
        g: &GoalT,
        env: u32,
        next: u32,
    ) -> Option<Result<Step, Fault>> {
        let Dispatch::Host(id) = g.disp else {
            return None;
        };
        if self.inferences >= self.check_at {
            return None;
        }
        // the elements: the site's constants, and its variables' values
        let site = g.site.as_deref()?;
        let mut elems = site.elems;
        let mut vm = site.vars;
        while vm != 0 {
            let i = vm.trailing_zeros() as usize;
            vm &= vm - 1;
            let e = self
                .store
                .deref(self.store.heap[(env + site.slots[i]) as usize]);
            if !(e.is_atomic() || matches!(e, Cell::Ref(_))) {
                return None;
            }
            elems[i] = e;
        }
        let n = usize::from(site.len);
        let (heap, trail, frames) = self.heights(None);
        let saved_mark = self.store.mark;
        self.store.mark = heap;
        let Some(r) = host.call_site(id, &mut self.store, &elems[..n], &site.keys) else {
            self.store.mark = saved_mark;
            return None;
        };
        self.inferences += 1;
        self.last_call = (g.name, g.arity);
        Some(match r {
            Det::True => {
                self.store.mark = saved_mark;
                self.cur = next;
                Ok(Step::Go)
            }
            Det::Fail => {
                self.store.mark = saved_mark;
                Ok(Step::Fail)
            }
            Det::Retry(state) => {
                // the argument: the list of the elements as they were before the call (above
                // what the host may have pushed)
                let args = self.store.len();
                let heap_cells = &mut self.store.heap;
                heap_cells.push(Cell::List(args + 1));
                for (i, &e) in elems[..n].iter().enumerate() {
                    heap_cells.push(e);
                    heap_cells.push(if i + 1 < n {
                        Cell::List(args + 3 + 2 * i as u32)
                    } else {
                        Cell::Atom(atom::NIL)
                    });
                }
                let retry = CpKind::Host {
                    id,
                    args,
                    arity: 1,
                    state,
                    name: g.name,
                };
                let top = self.store.len();
                match self.push_cp_at(retry, (top, trail, frames), next, 0) {
                    Ok(()) => {
                        self.cur = next;
                        Ok(Step::Go)
                    }
                    Err(e) => Err(e),
                }
            }
        })
    }
}

/// What an arithmetic goal run from its templates found ([`Machine::arith_goal`]).
#[derive(Clone, Copy)]
pub(super) enum FastArith {
    /// A comparison: does it hold?
    Test(bool),
    /// `is/2`: the value of the right-hand side.
    Is(i64),
}

/// How deep [`template_op`] follows nested operations before it leaves them to the built-in.
const ARITH_DEPTH: u32 = 4;

/// The value of template cell `t` of a clause whose environment starts at `env`, when it is an
/// integer, a variable bound to one, or `X + Y`, `X - Y`, `X * Y` or `-X` of such without overflow:
/// what [`crate::solve::arith::eval`] computes then. `None` for everything else (the built-in then
/// gives the value or the error).
#[inline(always)]
fn template_int(store: &Store, cells: &[Cell], env: u32, t: Cell, depth: u32) -> Option<i64> {
    match t {
        Cell::Struct(q) if depth < ARITH_DEPTH => template_op(store, cells, env, q, depth),
        other => leaf_int(store, env, other),
    }
}

/// [`template_int`] of a template cell that is not an operation: an integer, or a variable
/// (dereferenced in place) bound to one.
#[inline(always)]
fn leaf_int(store: &Store, env: u32, t: Cell) -> Option<i64> {
    match t {
        Cell::Int(i) => Some(i),
        Cell::Var(s) | Cell::Ref(s) => slot_int(store, env, s),
        _ => None,
    }
}

/// The integer environment slot `s` (of the environment at `env`) is bound to, if it is.
#[inline(always)]
fn slot_int(store: &Store, env: u32, s: u32) -> Option<i64> {
    let heap = &store.heap;
    let mut c = heap[(env + s) as usize];
    loop {
        match c {
            Cell::Int(i) => return Some(i),
            Cell::Ref(a) => {
                let v = heap[a as usize];
                if v == Cell::Ref(a) {
                    return None;
                }
                c = v;
            }
            _ => return None,
        }
    }
}

/// The value of operand `v` of an [`ArithCode`] (operations `nodes`) in the environment at `env`,
/// when it is an integer and computed without error ([`int_fn`]); `None` leaves the goal to the
/// built-in.
#[inline(always)]
fn code_val(store: &Store, nodes: &[ANode], env: u32, v: AVal) -> Option<i64> {
    match v {
        AVal::Slot(s) => slot_int(store, env, s),
        AVal::Int(i) => Some(i),
        AVal::Node(i) => {
            // one nested operation in line (`A - B + C`), deeper ones out of line
            let n = nodes[i as usize];
            let a = code_leaf(store, nodes, env, n.a)?;
            if n.op == AOp::Val {
                return Some(a);
            }
            let b = code_leaf(store, nodes, env, n.b)?;
            int_fn(n.op, a, b)
        }
    }
}

/// [`code_val`] with the operations out of line.
#[inline(always)]
fn code_leaf(store: &Store, nodes: &[ANode], env: u32, v: AVal) -> Option<i64> {
    match v {
        AVal::Slot(s) => slot_int(store, env, s),
        AVal::Int(i) => Some(i),
        AVal::Node(i) => code_node(store, nodes, env, i),
    }
}

/// [`code_val`] of node `i` (out of line: only deeper expressions have nodes).
#[inline(never)]
fn code_node(store: &Store, nodes: &[ANode], env: u32, i: u32) -> Option<i64> {
    code_side(store, nodes, env, nodes[i as usize])
}

/// [`code_val`] of operation `n`.
#[inline(always)]
fn code_side(store: &Store, nodes: &[ANode], env: u32, n: ANode) -> Option<i64> {
    let a = code_val(store, nodes, env, n.a)?;
    if n.op == AOp::Val {
        return Some(a);
    }
    let b = code_val(store, nodes, env, n.b)?;
    int_fn(n.op, a, b)
}

/// [`Machine::arith_goal`] of a goal with an [`ArithCode`].
#[inline(always)]
fn code_goal(store: &Store, op: ArithOp, code: &ArithCode, env: u32) -> Option<FastArith> {
    let nodes = &code.nodes[..];
    let b = code_side(store, nodes, env, code.rhs)?;
    if op == ArithOp::Is {
        return Some(FastArith::Is(b));
    }
    let a = code_side(store, nodes, env, code.lhs)?;
    Some(FastArith::Test(match op {
        ArithOp::Lt => a < b,
        ArithOp::Gt => a > b,
        ArithOp::Le => a <= b,
        ArithOp::Ge => a >= b,
        ArithOp::Eq => a == b,
        ArithOp::Ne => a != b,
        ArithOp::Is => unreachable!("handled above"),
    }))
}

/// [`template_int`] at depth 0 with the first operation evaluated in line (its operands through
/// [`template_int`] at depth 1, as [`template_op`] evaluates them): the same value.
#[inline(always)]
fn expr_int(store: &Store, cells: &[Cell], env: u32, t: Cell) -> Option<i64> {
    let Cell::Struct(q) = t else {
        return leaf_int(store, env, t);
    };
    let q = q as usize;
    match cells[q] {
        Cell::Functor(atom::PLUS, 2) => template_int(store, cells, env, cells[q + 1], 1)?
            .checked_add(template_int(store, cells, env, cells[q + 2], 1)?),
        Cell::Functor(atom::MINUS, 2) => template_int(store, cells, env, cells[q + 1], 1)?
            .checked_sub(template_int(store, cells, env, cells[q + 2], 1)?),
        Cell::Functor(atom::STAR, 2) => template_int(store, cells, env, cells[q + 1], 1)?
            .checked_mul(template_int(store, cells, env, cells[q + 2], 1)?),
        Cell::Functor(atom::MINUS, 1) => {
            template_int(store, cells, env, cells[q + 1], 1)?.checked_neg()
        }
        _ => None,
    }
}

/// [`template_int`] of the operation whose template starts at cell `q`.
fn template_op(store: &Store, cells: &[Cell], env: u32, q: u32, depth: u32) -> Option<i64> {
    let q = q as usize;
    match cells[q] {
        Cell::Functor(f @ (atom::PLUS | atom::MINUS | atom::STAR), 2) => {
            let a = template_int(store, cells, env, cells[q + 1], depth + 1)?;
            let b = template_int(store, cells, env, cells[q + 2], depth + 1)?;
            match f {
                atom::PLUS => a.checked_add(b),
                atom::MINUS => a.checked_sub(b),
                _ => a.checked_mul(b),
            }
        }
        Cell::Functor(atom::MINUS, 1) => {
            template_int(store, cells, env, cells[q + 1], depth + 1)?.checked_neg()
        }
        _ => None,
    }
}

impl Machine {
    /// Runs body goal `pc` of clause `c` (`at`: its predicate and clause numbers), an arithmetic
    /// goal (`op`), from its templates when [`Machine::arith_goal`] can; `None`: the step loop
    /// builds its arguments and calls the built-in. Out of line, so that the step loop's common
    /// path stays as it was.
    #[inline(never)]
    pub(super) fn arith(
        &mut self,
        op: ArithOp,
        c: &ClauseT,
        at: (u32, u32),
        pc: u32,
        env: u32,
        next: u32,
    ) -> Option<Result<Step, Fault>> {
        let g = &c.body[pc as usize];
        let r = self.arith_goal(op, c, g, env)?;
        self.last_clause = Some(at);
        self.last_next = next;
        Some(self.run_arith(g, r, env, next))
    }

    /// Body goal `g` of clause `c` (environment `env`), the built-in `is/2` or an arithmetic
    /// comparison (`op`), evaluated without building its arguments on the heap: from its
    /// [`ArithCode`] ([`code_goal`]) when it has one, else from its templates when every operand
    /// is an integer expression [`template_int`] computes. Reads only: `None` leaves the goal to
    /// the built-in, which then finds the same value or raises the error.
    #[inline(always)]
    pub(super) fn arith_goal(
        &self,
        op: ArithOp,
        c: &ClauseT,
        g: &GoalT,
        env: u32,
    ) -> Option<FastArith> {
        if let Some(code) = &g.code {
            return code_goal(&self.store, op, code, env);
        }
        let val = |t: Cell| expr_int(&self.store, &c.cells, env, t);
        if op == ArithOp::Is {
            return Some(FastArith::Is(val(g.args[1])?));
        }
        let (a, b) = (val(g.args[0])?, val(g.args[1])?);
        Some(FastArith::Test(match op {
            ArithOp::Lt => a < b,
            ArithOp::Gt => a > b,
            ArithOp::Le => a <= b,
            ArithOp::Ge => a >= b,
            ArithOp::Eq => a == b,
            ArithOp::Ne => a != b,
            ArithOp::Is => unreachable!("handled above"),
        }))
    }

    /// Finishes an arithmetic goal that [`Machine::arith_goal`] evaluated: the call is counted as
    /// [`Machine::dispatch`] counts it, then `is/2` unifies its left-hand side with the value (as
    /// the built-in does: an unbound variable is bound, an integer compared, anything else fails).
    #[inline(always)]
    pub(super) fn run_arith(
        &mut self,
        g: &GoalT,
        r: FastArith,
        env: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        if self.arith_direct(g, r, env)? {
            self.cur = next;
            Ok(Step::Go)
        } else {
            Ok(Step::Fail)
        }
    }

    /// [`Machine::arith_goal`] and [`Machine::arith_direct`] of goal `g` of a control construct
    /// compiled into clause `c` (`run_sub`, `if_direct`): whether it succeeded; `None` (nothing
    /// done) where the heap built for its arguments would not pass `dispatch`'s check, or where
    /// the built-in must decide. Out of line: one copy of the evaluator for those callers.
    #[inline(never)]
    pub(super) fn sub_arith(
        &mut self,
        op: ArithOp,
        c: &ClauseT,
        g: &GoalT,
        env: u32,
    ) -> Option<Result<bool, Fault>> {
        if self.store.heap.len() + g.args.len() + g.block.1 as usize > self.heap_at {
            return None;
        }
        let r = self.arith_goal(op, c, g, env)?;
        Some(self.arith_direct(g, r, env))
    }

    /// `A = B` (goal template `g`, a native `=/2` whose arguments are variables or atomic
    /// constants) from the clause's environment `env`, without building its two argument cells:
    /// counted as `dispatch` counts it, unified with the mark `call_native` sets (every binding
    /// trailed), whether it succeeded. Only where the two cells would pass the heap budget check
    /// and stay below the next collection; `None`: nothing was done (the general path builds
    /// the arguments).
    #[inline(never)]
    pub(super) fn eq_env(&mut self, g: &GoalT, env: u32) -> Option<Result<bool, Fault>> {
        let &[x, y] = &*g.args else {
            return None;
        };
        if matches!(x, Cell::Struct(_) | Cell::List(_))
            || matches!(y, Cell::Struct(_) | Cell::List(_))
            || self.store.heap.len() + 2 > self.heap_at.min(self.gc_at)
        {
            return None;
        }
        let heap = &self.store.heap;
        let cell = |t: Cell| match t {
            Cell::Var(s) | Cell::Ref(s) => heap[(env + s) as usize],
            t => t,
        };
        let (a, b) = (cell(x), cell(y));
        self.inferences += 1;
        self.last_call = (g.name, g.arity);
        if self.inferences > self.check_at {
            if let Err(fault) = self.count_call(g.name, g.arity) {
                return Some(Err(fault));
            }
        }
        let saved_mark = self.store.mark;
        self.store.mark = self.store.len();
        let ok = self.store.unify(a, b);
        self.store.mark = saved_mark;
        Some(Ok(ok))
    }

    /// [`Machine::run_arith`] without going on: whether the goal succeeded.
    #[inline(always)]
    pub(super) fn arith_direct(
        &mut self,
        g: &GoalT,
        r: FastArith,
        env: u32,
    ) -> Result<bool, Fault> {
        self.inferences += 1;
        self.last_call = (g.name, g.arity);
        if self.inferences > self.check_at {
            self.count_call(g.name, g.arity)?;
        }
        let ok = match r {
            FastArith::Test(b) => b,
            FastArith::Is(v) => {
                let lhs = match g.args[0] {
                    Cell::Var(s) | Cell::Ref(s) => {
                        self.store.deref(self.store.heap[(env + s) as usize])
                    }
                    other => other,
                };
                match lhs {
                    Cell::Ref(a) => {
                        self.store.bind(a, Cell::Int(v));
                        true
                    }
                    Cell::Int(x) => x == v,
                    _ => false,
                }
            }
        };
        Ok(ok)
    }
}
