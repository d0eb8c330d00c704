//! An experimental compiled core (issue 17, phase 1): clauses compiled to register-machine
//! instructions in the WAM's spirit, run over the interpreter's own data (the [`Store`]: heap,
//! trail, unification; the [`Program`]; the native built-ins). Built next to the interpreter
//! (`solve::machine`) and checked against it (`engine/tests/it/wam.rs`): the same answers in
//! the same order, the same errors and the same inference count. Games use it only when it is
//! switched on (experimental, `wire.rs`, `solve::machine::core`: `SIDL_CORE=compiled`).
//!
//! Model:
//! - Argument and temporary registers `X`; environments (a frame stack `envs` plus the cells of
//!   their permanent variables `ys`) for clauses that call on after a call; every variable's
//!   cell is on the heap (a permanent variable holds a heap cell, so there are no unsafe
//!   variables).
//! - Head unification per argument (`GetVar`, `GetVal`, `GetConst`, `GetList`, `GetStruct`, with
//!   `Unify*` in read or write mode); body arguments put into the argument registers (`Put*`),
//!   compounds built bottom-up; built-ins called with their arguments from the registers.
//! - `Call`/`Execute` (last call: the environment is given up before, so deterministic
//!   recursion runs in constant environment space) / `Proceed`. The first-argument switch is
//!   the interpreter's own index ([`crate::solve::program::Pred::candidates`]): the same
//!   candidate clauses, so the same retries are counted.
//! - Choicepoints save the argument registers of a call with several candidate clauses, or an
//!   alternative address inside a clause (disjunction, if-then-else, negation). `!` cuts to the
//!   height saved at the call (`B0`, kept in the environment when the clause has one).
//! - Inferences are counted where the interpreter counts them: one per goal called (control
//!   constructs included, as their meta-call counts them), one per clause retry and built-in
//!   retry, one for the query's `call/1`.
//!
//! Subset: user predicates, `,`, `;`, `->`, `*->`, `\+`/`not/1`, `!`, `true`, `fail`/`false`,
//! the native built-ins (deterministic or not), host predicates ([`Host`], `host.rs`; run with
//! [`CoreQuery::next_answer_with`]), `once/1` of a goal known at compile time (`host.rs`), and
//! the meta-calls of [`meta`] (`call/N`, a variable goal, `findall/3,4`, `catch/3`, `throw/1`).
//! A query that meta-calls a host predicate at run time stops there ([`CoreQuery::refused`]).
//! Not done (phase 2): garbage collection, memo tables, profiles, the choicepoint and frame
//! budgets (the heap budget is checked, at other points than the interpreter's, as the core
//! builds fewer cells), the call path of errors.

mod compile;
mod host;
mod meta;
mod wire;

pub use wire::{compiled_core_default, core_counts, set_compiled_core_default, Route, WIRED};
#[cfg(feature = "compiled-core")]
pub(crate) use wire::{count_query, note_refusal};

use crate::atom::{self, Atom};
use crate::solve::builtins::{Builtin, Ctx, Det};
use crate::solve::host::{Host, NoHost};
use crate::solve::machine::{ErrorKind, Limits, SolveError};
use crate::solve::program::{Key, Program, ProgramData};
use crate::solve::store::{Cell, Store};
use crate::term::Term;
use std::collections::HashMap;

/// A register: argument/temporary `X(i)` or the current environment's permanent `Y(i)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    X(u32),
    Y(u32),
}

/// A native built-in called by [`Instr::CallNative`].
#[derive(Clone, Copy)]
pub struct Native {
    pub f: Builtin,
    pub name: Atom,
    pub arity: u32,
}

/// The instructions.
#[derive(Clone, Copy, Debug)]
pub enum Instr {
    /// Push an environment of `n` permanent cells (saving the continuation and `B0`).
    Allocate(u32),
    Deallocate,
    /// Head: register := argument; unify register with argument; constant; list; compound
    /// (the functor cell).
    GetVar(Reg, u32),
    GetVal(Reg, u32),
    GetConst(Cell, u32),
    GetList(u32),
    GetStruct(Cell, u32),
    /// `GetList(a)` followed by two `UnifyVar`s of temporaries `h`, `t` (list code's commonest
    /// head argument, `[H|T]`), in one instruction.
    GetListXX(u32, u32, u32),
    /// Arguments of a compound being read (unify) or written (push).
    UnifyVar(Reg),
    UnifyVal(Reg),
    UnifyConst(Cell),
    UnifyVoid,
    /// Body: a fresh variable into the register and the argument; a register; a constant; a
    /// list cell or compound to be filled by `Unify*` in write mode.
    PutVar(Reg, u32),
    PutVal(Reg, u32),
    PutConst(Cell, u32),
    PutList(u32),
    PutStruct(Cell, u32),
    /// A fresh heap variable in permanent `Y(i)`.
    InitY(u32),
    /// Call predicate `p` (continuation: the next instruction); last call; return.
    Call(u32),
    Execute(u32),
    Proceed,
    /// Call native built-in `natives[k]` with the argument registers.
    CallNative(u32),
    /// Call host predicate `id` (name, arity, id) with the argument registers ([`Host::call`]).
    CallHost(Atom, u32, u32),
    /// An unknown procedure: count the call, raise the existence error.
    Unknown(Atom, u32),
    /// Count a call of a control construct (`true`, `!`, `,`, `;`, `->`, `\+`, `call/1`).
    Count(Atom, u32),
    /// `!` to `B0` (before any call of the clause); to the environment's barrier; to the height
    /// saved in `Y(y)` plus `off`.
    CutB0,
    CutEnv,
    CutY(u32, u32),
    /// Save the choicepoint height in `Y(y)`.
    SaveB(u32),
    /// Push a choicepoint resuming at the address.
    TryElse(u32),
    Jump(u32),
    Fail,
    /// The query succeeded.
    Stop,
    // The register instructions by register kind (what [`specialise`] makes of the ones above:
    // the machine runs these, without a test of the kind).
    /// A meta-call or its machinery ([`meta::Op`]).
    Meta(meta::Op),
    GetVarX(u32, u32),
    GetVarY(u32, u32),
    GetValX(u32, u32),
    GetValY(u32, u32),
    UnifyVarX(u32),
    UnifyVarY(u32),
    UnifyValX(u32),
    UnifyValY(u32),
    PutVarX(u32, u32),
    PutVarY(u32, u32),
    PutValX(u32, u32),
    PutValY(u32, u32),
}

/// The register instructions by register kind.
fn specialise(code: &mut [Instr]) {
    for i in code.iter_mut() {
        *i = match *i {
            Instr::GetVar(Reg::X(r), a) => Instr::GetVarX(r, a),
            Instr::GetVar(Reg::Y(r), a) => Instr::GetVarY(r, a),
            Instr::GetVal(Reg::X(r), a) => Instr::GetValX(r, a),
            Instr::GetVal(Reg::Y(r), a) => Instr::GetValY(r, a),
            Instr::UnifyVar(Reg::X(r)) => Instr::UnifyVarX(r),
            Instr::UnifyVar(Reg::Y(r)) => Instr::UnifyVarY(r),
            Instr::UnifyVal(Reg::X(r)) => Instr::UnifyValX(r),
            Instr::UnifyVal(Reg::Y(r)) => Instr::UnifyValY(r),
            Instr::PutVar(Reg::X(r), a) => Instr::PutVarX(r, a),
            Instr::PutVar(Reg::Y(r), a) => Instr::PutVarY(r, a),
            Instr::PutVal(Reg::X(r), a) => Instr::PutValX(r, a),
            Instr::PutVal(Reg::Y(r), a) => Instr::PutValY(r, a),
            other => other,
        };
    }
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Default)]
struct Env {
    ce: u32,
    cp: u32,
    b0: u32,
    y0: u32,
    n: u32,
}

#[derive(Clone, Copy)]
enum CpKind {
    /// The clauses of a call: candidate list `list` of `pred`, next position `pos`; the
    /// argument registers saved at `saved`.
    Clauses {
        pred: u32,
        list: u32,
        pos: u32,
    },
    /// An alternative inside a clause.
    Alt {
        pc: u32,
    },
    /// A native built-in's other answers.
    Native {
        k: u32,
        state: u64,
    },
    /// A host predicate's other answers (its [`Instr::CallHost`] is at `pc - 1`).
    Host {
        state: u64,
    },
    /// `findall/3,4` (result and tail saved), `catch/3` (catcher and recovery saved).
    Findall,
    Catch {
        active: bool,
    },
}

#[derive(Clone, Copy)]
struct Cp {
    kind: CpKind,
    heap: u32,
    trail: u32,
    e: u32,
    cpc: u32,
    etop: u32,
    ytop: u32,
    saved: u32,
    /// For a native retry: where to continue.
    pc: u32,
}

/// The compiled code of the predicates a query reaches.
struct Code {
    code: Vec<Instr>,
    natives: Vec<Native>,
    /// Per predicate (empty: not compiled).
    preds: Vec<PredCode>,
    /// Per predicate: compiled (or being compiled)?
    done: Vec<bool>,
    regs: u32,
}

/// A compiled predicate: the first-argument switch over the interpreter's candidate lists
/// ([`crate::solve::program::PredIndex`]), as clause addresses.
#[derive(Clone, Default)]
struct PredCode {
    /// The candidate lists of the index, each clause by its address.
    lists: Vec<Box<[u32]>>,
    /// Does the index tell keys apart (more lists than "all" and "variable first")?
    indexed: bool,
    /// The lists of a list cell and of `[]` (the common keys, without the index's lookup).
    on_list: u32,
    on_nil: u32,
    arity: u32,
}

/// The argument registers: a fixed file, indexed through a mask (no bounds check).
const XREGS: usize = 256;

/// Compiles the query `goal` (variables `Term::Var(0..nvars)`) and every predicate it reaches.
fn compile_query(prog: &Program, goal: &Term, nvars: u32) -> Result<(Code, u32), String> {
    let data = prog.data();
    let mut cells = Vec::new();
    let mut ends = Vec::new();
    let root = crate::solve::compile::compile_term(goal, &mut cells, &mut ends);
    let body = compile::decode_query(data, &cells, root)?;
    let mut code = Code {
        code: Vec::new(),
        natives: Vec::new(),
        preds: vec![PredCode::default(); data.preds.len()],
        done: vec![false; data.preds.len()],
        regs: 0,
    };
    let mut todo = Vec::new();
    compile::callees(std::slice::from_ref(&body), &mut todo);
    let head: Vec<Cell> = (0..nvars).map(Cell::Var).collect();
    let start = compile::clause(
        &mut code.code,
        &mut code.natives,
        &cells,
        &head,
        nvars,
        std::slice::from_ref(&body),
        true,
        &mut code.regs,
    );
    specialise(&mut code.code);
    compile_preds(data, &mut code, todo)?;
    Ok((code, start))
}

/// Compiles the predicates `todo` and those they reach (not yet compiled) at the end of the code.
fn compile_preds(data: &ProgramData, code: &mut Code, mut todo: Vec<u32>) -> Result<(), String> {
    let from = code.code.len();
    while let Some(p) = todo.pop() {
        if std::mem::replace(&mut code.done[p as usize], true) {
            continue;
        }
        let pred = &data.preds[p as usize];
        let mut addrs = Vec::with_capacity(pred.clauses.len());
        for c in &pred.clauses {
            let body = compile::clause_body(data, c)
                .map_err(|e| format!("{}/{} uses {e}", pred.name, pred.arity))?;
            compile::callees(&body, &mut todo);
            addrs.push(compile::clause(
                &mut code.code,
                &mut code.natives,
                &c.cells,
                &c.head_args,
                c.nvars,
                &body,
                false,
                &mut code.regs,
            ));
        }
        code.preds[p as usize] = PredCode {
            lists: pred
                .index
                .lists
                .iter()
                .map(|l| l.iter().map(|&c| addrs[c as usize]).collect())
                .collect(),
            indexed: pred.arity > 0 && pred.index.lists.len() > 2,
            on_list: pred.candidates(Some(Key::Functor(atom::DOT, 2))),
            on_nil: pred.candidates(Some(Key::Atom(atom::NIL))),
            arity: pred.arity,
        };
    }
    specialise(&mut code.code[from..]);
    if code.regs as usize >= XREGS {
        return Err(format!("more than {XREGS} registers"));
    }
    Ok(())
}

/// A query run by the compiled core (as [`crate::solve::Query`] runs one by the interpreter).
pub struct CoreQuery {
    prog: Program,
    code: Code,
    pub store: Store,
    rng: crate::rng::Rng,
    x: Box<[Cell; XREGS]>,
    envs: Vec<Env>,
    ys: Vec<Cell>,
    cps: Vec<Cp>,
    saved: Vec<Cell>,
    pc: u32,
    /// The query's first instruction.
    start: u32,
    e: u32,
    ybase: u32,
    cpc: u32,
    b0: u32,
    base: u32,
    /// The trail's length when the query started (host effects above it are undone when the
    /// query has no more answers).
    base_trail: usize,
    limits: Limits,
    /// Inferences counted so far.
    pub inferences: u64,
    last_call: (Atom, u32),
    var_names: Vec<String>,
    var_cells: Vec<Cell>,
    started: bool,
    done: bool,
    meta: meta::State,
}

type Fault = Box<SolveError>;

impl CoreQuery {
    /// Compiles `goal` (`var_names[i]` names `Term::Var(i)`) and what it reaches; `Err`: why
    /// the core cannot run it (outside its subset).
    pub fn new(
        prog: &Program,
        goal: &Term,
        var_names: &[String],
        limits: Limits,
    ) -> Result<CoreQuery, String> {
        let nvars = goal.var_count().max(var_names.len() as u32);
        let (code, start) = compile_query(prog, goal, nvars)?;
        let mut store = Store::new();
        let mut vars = Vec::new();
        // the goal is built as the interpreter builds it (its variables' cells first)
        let _ = store.build(goal, &mut vars);
        let mut x = Box::new([Cell::Atom(atom::NIL); XREGS]);
        let mut names = Vec::new();
        let mut cells = Vec::new();
        for i in 0..nvars as usize {
            let c = match vars.get(i).copied().flatten() {
                Some(c) => c,
                None => store.new_var(),
            };
            x[i] = c;
            if let Some(name) = var_names.get(i) {
                if name != "_" && vars.get(i).copied().flatten().is_some() {
                    names.push(name.clone());
                    cells.push(c);
                }
            }
        }
        let base = store.len();
        store.mark = base;
        Ok(CoreQuery {
            prog: prog.clone(),
            code,
            store,
            rng: crate::rng::Rng::new(0),
            x,
            envs: Vec::new(),
            ys: Vec::new(),
            cps: Vec::new(),
            saved: Vec::new(),
            pc: start,
            start,
            e: NONE,
            ybase: 0,
            cpc: NONE,
            b0: 0,
            base,
            base_trail: 0,
            limits,
            inferences: 0,
            last_call: (atom::CALL, 1),
            var_names: names,
            var_cells: cells,
            started: false,
            done: false,
            meta: meta::State::default(),
        })
    }

    /// Parses `goal` and compiles it ([`CoreQuery::new`]).
    pub fn parse(prog: &Program, goal: &str, limits: Limits) -> Result<CoreQuery, String> {
        let read = crate::syntax::parse_term(goal).map_err(|d| {
            d.first()
                .map(|d| d.message.clone())
                .unwrap_or_else(|| "syntax error".into())
        })?;
        CoreQuery::new(prog, &read.term, &read.var_names, limits)
    }

    /// The reported variables, in order of first occurrence.
    pub fn var_names(&self) -> &[String] {
        &self.var_names
    }

    /// Could another answer exist?
    pub fn may_have_more(&self) -> bool {
        !self.done && (!self.started || !self.cps.is_empty())
    }

    /// The next answer, as [`crate::solve::Query::next_answer`] gives it.
    pub fn next_answer(&mut self) -> Option<Result<Vec<Term>, SolveError>> {
        self.next_answer_with(&mut NoHost)
    }

    /// [`CoreQuery::next_answer`] with the host predicates of `host`.
    pub fn next_answer_with(
        &mut self,
        host: &mut dyn Host,
    ) -> Option<Result<Vec<Term>, SolveError>> {
        if self.done {
            return None;
        }
        let redo = self.started;
        self.started = true;
        if redo && self.cps.is_empty() {
            self.done = true;
            return None;
        }
        let r = self.resume(host, redo);
        match r {
            Ok(true) => {
                let mut names = HashMap::new();
                Some(Ok(self
                    .var_cells
                    .iter()
                    .map(|&c| self.store.extract(c, &mut names))
                    .collect()))
            }
            Ok(false) => {
                self.done = true;
                self.undo_host_effects(host);
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(*e))
            }
        }
    }

    // ---- errors ----

    fn error(&self, ball: Term) -> Fault {
        // the context of `error(Formal, _)`: the predicate being called (`Machine::add_context`)
        let ball = match &ball {
            Term::Compound(f, args)
                if *f == atom::ERROR && args.len() == 2 && matches!(args[1], Term::Var(_)) =>
            {
                let (name, arity) = self.last_call;
                let fresh = Term::Var(args[0].var_count());
                let ctx = Term::compound(
                    "context",
                    vec![Term::indicator(name, arity as usize), fresh],
                );
                Term::Compound(
                    atom::ERROR,
                    std::sync::Arc::from(vec![args[0].clone(), ctx]),
                )
            }
            _ => ball,
        };
        Box::new(SolveError {
            kind: ErrorKind::Uncaught,
            message: crate::solve::describe_error(&ball),
            ball,
            predicate: Some(self.last_call),
            path: Vec::new(),
            path_spans: Box::new([]),
        })
    }

    #[cold]
    #[inline(never)]
    fn budget(&self, what: &'static str, n: u64) -> Fault {
        let (ball, message) = crate::solve::machine::budget_parts(what, n, self.last_call);
        Box::new(SolveError {
            kind: ErrorKind::Budget(what),
            message,
            ball,
            predicate: Some(self.last_call),
            path: Vec::new(),
            path_spans: Box::new([]),
        })
    }

    /// One inference: a call of `name/arity`, with the budgets checked.
    #[inline(always)]
    fn count(&mut self, name: Atom, arity: u32) -> Result<(), Fault> {
        self.inferences += 1;
        self.last_call = (name, arity);
        if self.inferences > self.limits.max_inferences {
            return Err(self.budget("inferences", self.limits.max_inferences));
        }
        if self.store.heap.len() > self.limits.max_heap_cells {
            return Err(self.budget("heap", self.limits.max_heap_cells as u64));
        }
        Ok(())
    }

    // ---- registers, environments, choicepoints ----

    /// The first free environment and permanent cell (above the current environment and those
    /// that the newest choicepoint protects).
    #[inline(always)]
    fn env_top(&self) -> (u32, u32) {
        let (mut et, mut yt) = if self.e == NONE {
            (0, 0)
        } else {
            let env = &self.envs[self.e as usize];
            (self.e + 1, env.y0 + env.n)
        };
        if let Some(cp) = self.cps.last() {
            et = et.max(cp.etop);
            yt = yt.max(cp.ytop);
        }
        (et, yt)
    }

    #[inline(always)]
    fn set_e(&mut self, e: u32) {
        self.e = e;
        self.ybase = if e == NONE {
            0
        } else {
            self.envs[e as usize].y0
        };
    }

    #[inline(always)]
    fn push_cp(&mut self, kind: CpKind, nsave: u32, pc: u32) {
        let (etop, ytop) = self.env_top();
        let saved = self.saved.len() as u32;
        self.saved.extend_from_slice(&self.x[..nsave as usize]);
        let heap = self.store.len();
        self.cps.push(Cp {
            kind,
            heap,
            trail: self.store.trail.len() as u32,
            e: self.e,
            cpc: self.cpc,
            etop,
            ytop,
            saved,
            pc,
        });
        self.store.mark = heap;
    }

    #[inline(always)]
    fn pop_cp(&mut self) {
        if let Some(cp) = self.cps.pop() {
            self.saved.truncate(cp.saved as usize);
        }
        self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
    }

    #[inline(always)]
    fn cut(&mut self, h: u32) {
        if self.cps.len() > h as usize {
            let saved = self.cps[h as usize].saved;
            self.cps.truncate(h as usize);
            self.saved.truncate(saved as usize);
            self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
        }
    }

    /// Backtracks into the newest choicepoint: `Ok(false)` when there is none.
    fn backtrack(&mut self, host: &mut dyn Host) -> Result<bool, Fault> {
        loop {
            let Some(&cp) = self.cps.last() else {
                return Ok(false);
            };
            // (a built-in's bindings above the choicepoint's heap are trailed too: undone first)
            let cps = &mut self.cps;
            self.store.undo_to(cp.trail as usize, |n| {
                meta::reactivate(cps, n);
                host::undo(host, n)
            });
            self.store.heap.truncate(cp.heap as usize);
            self.set_e(cp.e);
            self.cpc = cp.cpc;
            match cp.kind {
                CpKind::Clauses { pred, list, pos } => {
                    let pr = &self.code.preds[pred as usize];
                    let cands = &pr.lists[list as usize];
                    let (addr, more) = (cands[pos as usize], pos as usize + 1 < cands.len());
                    let n = pr.arity as usize;
                    let s = cp.saved as usize;
                    self.x[..n].copy_from_slice(&self.saved[s..s + n]);
                    self.b0 = (self.cps.len() - 1) as u32;
                    if more {
                        if let Some(Cp {
                            kind: CpKind::Clauses { pos: p, .. },
                            ..
                        }) = self.cps.last_mut()
                        {
                            *p = pos + 1;
                        }
                    } else {
                        self.pop_cp();
                    }
                    self.inferences += 1;
                    if self.inferences > self.limits.max_inferences {
                        return Err(self.budget("inferences", self.limits.max_inferences));
                    }
                    self.pc = addr;
                    return Ok(true);
                }
                CpKind::Alt { pc } => {
                    self.pop_cp();
                    self.pc = pc;
                    return Ok(true);
                }
                CpKind::Native { k, state } => {
                    let nat = self.code.natives[k as usize];
                    let s = cp.saved as usize;
                    let n = nat.arity as usize;
                    let args: Vec<Cell> = self.saved[s..s + n].to_vec();
                    self.pop_cp();
                    self.inferences += 1;
                    self.last_call = (nat.name, nat.arity);
                    if self.inferences > self.limits.max_inferences {
                        return Err(self.budget("inferences", self.limits.max_inferences));
                    }
                    match self.native(k, &args, Some(state), cp.pc)? {
                        true => return Ok(true),
                        false => continue,
                    }
                }
                CpKind::Findall | CpKind::Catch { .. } => {
                    if self.meta_retry(cp) {
                        return Ok(true);
                    }
                }
                CpKind::Host { state } => {
                    if self.retry_host(host, &cp, state)? {
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Calls native `k` on `args`; `Ok(true)`: it succeeded (continue at `next`).
    fn native(
        &mut self,
        k: u32,
        args: &[Cell],
        redo: Option<u64>,
        next: u32,
    ) -> Result<bool, Fault> {
        let nat = self.code.natives[k as usize];
        let saved_mark = self.store.mark;
        let (heap, trail) = (self.store.len(), self.store.trail.len() as u32);
        self.store.mark = heap;
        let heap_room = self
            .limits
            .max_heap_cells
            .saturating_sub(self.store.heap.len());
        let r = {
            let mut ctx = Ctx::new(&mut self.store, &mut self.rng);
            ctx.heap_room = heap_room;
            (nat.f)(&mut ctx, args, redo)
        };
        self.det_answer(
            r,
            CpKind::Native { k, state: 0 },
            args,
            heap,
            trail,
            saved_mark,
            next,
        )
    }

    /// The answer `r` of a native built-in or a host predicate called on `args` (`kind` its
    /// choicepoint's kind, whose `state` a retry replaces) with the heap and trail heights
    /// `heap`, `trail` from before the call: `Ok(true)`, continue at `next` (with a choicepoint
    /// for a retry); `Ok(false)`, it failed; an error in the context of the call.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn det_answer(
        &mut self,
        r: Result<Det, Term>,
        kind: CpKind,
        args: &[Cell],
        heap: u32,
        trail: u32,
        saved_mark: u32,
        next: u32,
    ) -> Result<bool, Fault> {
        match r {
            Ok(Det::True) => {
                self.store.mark = saved_mark;
                self.pc = next;
                Ok(true)
            }
            Ok(Det::Fail) => {
                self.store.mark = saved_mark;
                Ok(false)
            }
            Ok(Det::Retry(state)) => {
                // a choicepoint with the heights from before the call and the arguments
                let (etop, ytop) = self.env_top();
                let saved = self.saved.len() as u32;
                self.saved.extend_from_slice(args);
                let kind = match kind {
                    CpKind::Native { k, .. } => CpKind::Native { k, state },
                    CpKind::Host { .. } => CpKind::Host { state },
                    other => other,
                };
                self.cps.push(Cp {
                    kind,
                    heap,
                    trail,
                    e: self.e,
                    cpc: self.cpc,
                    etop,
                    ytop,
                    saved,
                    pc: next,
                });
                self.store.mark = heap;
                self.pc = next;
                Ok(true)
            }
            Err(ball) => {
                self.store.mark = saved_mark;
                Err(self.error(ball))
            }
        }
    }

    /// Calls predicate `p` with the argument registers: its candidate clauses by the first
    /// argument, a choicepoint when there are several. `Ok(false)`: no clause.
    #[inline(always)]
    fn call(&mut self, data: &ProgramData, p: u32) -> Result<bool, Fault> {
        let pred = &data.preds[p as usize];
        self.count(pred.name, pred.arity)?;
        let pc = &self.code.preds[p as usize];
        let list = if pc.indexed {
            match self.store.deref(self.x[0]) {
                Cell::Ref(_) => 0,
                Cell::List(_) => pc.on_list,
                Cell::Atom(atom::NIL) => pc.on_nil,
                c => pred.candidates(Key::of_cell(c, |q| self.store.heap[q as usize])),
            }
        } else {
            0
        };
        let cands = &pc.lists[list as usize];
        let (n, first) = match cands.first() {
            Some(&a) => (cands.len(), a),
            None => return Ok(false),
        };
        self.b0 = self.cps.len() as u32;
        if n > 1 {
            self.push_cp(
                CpKind::Clauses {
                    pred: p,
                    list,
                    pos: 1,
                },
                pred.arity,
                0,
            );
        }
        self.pc = first;
        Ok(true)
    }

    /// Runs until an answer (`Ok(true)`), no more (`Ok(false)`) or an error.
    fn run(&mut self, host: &mut dyn Host) -> Result<bool, Fault> {
        let prog = self.prog.clone();
        let data = prog.data();
        let mut s: u32 = 0;
        let mut write = false;
        macro_rules! fail {
            () => {{
                if !self.backtrack(host)? {
                    return Ok(false);
                }
                continue;
            }};
        }
        loop {
            let ins = self.code.code[self.pc as usize];
            self.pc += 1;
            match ins {
                Instr::Allocate(n) => {
                    let (et, yt) = self.env_top();
                    let env = Env {
                        ce: self.e,
                        cp: self.cpc,
                        b0: self.b0,
                        y0: yt,
                        n,
                    };
                    if self.envs.len() <= et as usize {
                        self.envs.resize(et as usize + 1, Env::default());
                    }
                    self.envs[et as usize] = env;
                    let need = (yt + n) as usize;
                    if self.ys.len() < need {
                        self.ys.resize(need, Cell::Atom(atom::NIL));
                    }
                    self.e = et;
                    self.ybase = yt;
                }
                Instr::Deallocate => {
                    let env = self.envs[self.e as usize];
                    self.cpc = env.cp;
                    self.set_e(env.ce);
                }
                Instr::GetVarX(r, a) => {
                    self.x[r as usize & (XREGS - 1)] = self.x[a as usize & (XREGS - 1)];
                }
                Instr::GetVarY(r, a) => {
                    self.ys[(self.ybase + r) as usize] = self.x[a as usize & (XREGS - 1)];
                }
                Instr::GetValX(r, a) => {
                    let (u, v) = (
                        self.x[r as usize & (XREGS - 1)],
                        self.x[a as usize & (XREGS - 1)],
                    );
                    if !self.store.unify(u, v) {
                        fail!();
                    }
                }
                Instr::GetValY(r, a) => {
                    let (u, v) = (
                        self.ys[(self.ybase + r) as usize],
                        self.x[a as usize & (XREGS - 1)],
                    );
                    if !self.store.unify(u, v) {
                        fail!();
                    }
                }
                Instr::GetConst(c, a) => {
                    if !self.store.unify_atomic(c, self.x[a as usize & (XREGS - 1)]) {
                        fail!();
                    }
                }
                Instr::GetList(a) => match self.store.deref(self.x[a as usize & (XREGS - 1)]) {
                    Cell::List(q) => {
                        s = q;
                        write = false;
                    }
                    Cell::Ref(v) => {
                        let q = self.store.len();
                        self.store.bind(v, Cell::List(q));
                        write = true;
                    }
                    _ => fail!(),
                },
                Instr::GetListXX(a, h, t) => {
                    match self.store.deref(self.x[a as usize & (XREGS - 1)]) {
                        Cell::List(q) => {
                            let q = q as usize;
                            self.x[h as usize & (XREGS - 1)] = self.store.heap[q];
                            self.x[t as usize & (XREGS - 1)] = self.store.heap[q + 1];
                        }
                        Cell::Ref(v) => {
                            let q = self.store.len();
                            self.store.heap.push(Cell::Ref(q));
                            self.store.heap.push(Cell::Ref(q + 1));
                            self.store.bind(v, Cell::List(q));
                            self.x[h as usize & (XREGS - 1)] = Cell::Ref(q);
                            self.x[t as usize & (XREGS - 1)] = Cell::Ref(q + 1);
                        }
                        _ => fail!(),
                    }
                }
                Instr::GetStruct(f, a) => {
                    match self.store.deref(self.x[a as usize & (XREGS - 1)]) {
                        Cell::Struct(q) => {
                            if self.store.heap[q as usize] != f {
                                fail!();
                            }
                            s = q + 1;
                            write = false;
                        }
                        Cell::Ref(v) => {
                            let q = self.store.len();
                            self.store.heap.push(f);
                            self.store.bind(v, Cell::Struct(q));
                            write = true;
                        }
                        _ => fail!(),
                    }
                }
                Instr::UnifyVarX(r) => {
                    let v = if write {
                        self.store.new_var()
                    } else {
                        s += 1;
                        self.store.heap[s as usize - 1]
                    };
                    self.x[r as usize & (XREGS - 1)] = v;
                }
                Instr::UnifyVarY(r) => {
                    let v = if write {
                        self.store.new_var()
                    } else {
                        s += 1;
                        self.store.heap[s as usize - 1]
                    };
                    self.ys[(self.ybase + r) as usize] = v;
                }
                Instr::UnifyValX(r) => {
                    let v = self.x[r as usize & (XREGS - 1)];
                    if write {
                        self.store.heap.push(v);
                    } else {
                        let h = self.store.heap[s as usize];
                        s += 1;
                        if !self.store.unify(v, h) {
                            fail!();
                        }
                    }
                }
                Instr::UnifyValY(r) => {
                    let v = self.ys[(self.ybase + r) as usize];
                    if write {
                        self.store.heap.push(v);
                    } else {
                        let h = self.store.heap[s as usize];
                        s += 1;
                        if !self.store.unify(v, h) {
                            fail!();
                        }
                    }
                }
                Instr::UnifyConst(c) => {
                    if write {
                        self.store.heap.push(c);
                    } else {
                        let h = self.store.heap[s as usize];
                        s += 1;
                        if !self.store.unify_atomic(c, h) {
                            fail!();
                        }
                    }
                }
                Instr::UnifyVoid => {
                    if write {
                        self.store.new_var();
                    } else {
                        s += 1;
                    }
                }
                Instr::PutVarX(r, a) => {
                    let v = self.store.new_var();
                    self.x[r as usize & (XREGS - 1)] = v;
                    self.x[a as usize & (XREGS - 1)] = v;
                }
                Instr::PutVarY(r, a) => {
                    let v = self.store.new_var();
                    self.ys[(self.ybase + r) as usize] = v;
                    self.x[a as usize & (XREGS - 1)] = v;
                }
                Instr::PutValX(r, a) => {
                    self.x[a as usize & (XREGS - 1)] = self.x[r as usize & (XREGS - 1)];
                }
                Instr::PutValY(r, a) => {
                    self.x[a as usize & (XREGS - 1)] = self.ys[(self.ybase + r) as usize];
                }
                Instr::PutConst(c, a) => {
                    self.x[a as usize & (XREGS - 1)] = c;
                }
                Instr::PutList(a) => {
                    self.x[a as usize & (XREGS - 1)] = Cell::List(self.store.len());
                    write = true;
                }
                Instr::PutStruct(f, a) => {
                    let q = self.store.len();
                    self.store.heap.push(f);
                    self.x[a as usize & (XREGS - 1)] = Cell::Struct(q);
                    write = true;
                }
                Instr::InitY(y) => {
                    let v = self.store.new_var();
                    self.ys[(self.ybase + y) as usize] = v;
                }
                Instr::Call(p) => {
                    self.cpc = self.pc;
                    if !self.call(data, p)? {
                        fail!();
                    }
                }
                Instr::Execute(p) => {
                    if !self.call(data, p)? {
                        fail!();
                    }
                }
                Instr::Proceed => {
                    self.pc = self.cpc;
                }
                Instr::CallNative(k) => {
                    let nat = self.code.natives[k as usize];
                    self.count(nat.name, nat.arity)?;
                    let n = nat.arity as usize;
                    let mut small = [Cell::Atom(atom::NIL); 4];
                    let ok = if n <= 4 {
                        small[..n].copy_from_slice(&self.x[..n]);
                        self.native(k, &small[..n], None, self.pc)?
                    } else {
                        let args = self.x[..n].to_vec();
                        self.native(k, &args, None, self.pc)?
                    };
                    if !ok {
                        fail!();
                    }
                }
                Instr::CallHost(name, arity, id) => {
                    self.count(name, arity)?;
                    if !self.call_host(host, id, name, arity, None, self.pc)? {
                        fail!();
                    }
                }
                Instr::Unknown(name, arity) => {
                    self.count(name, arity)?;
                    return Err(self.error(Term::existence_error(
                        atom::PROCEDURE,
                        Term::indicator(name, arity as usize),
                    )));
                }
                Instr::Count(name, arity) => self.count(name, arity)?,
                Instr::CutB0 => self.cut(self.b0),
                Instr::CutEnv => {
                    let b = self.envs[self.e as usize].b0;
                    self.cut(b);
                }
                Instr::CutY(y, off) => {
                    let Cell::Int(h) = self.ys[(self.ybase + y) as usize] else {
                        unreachable!("a saved height")
                    };
                    self.cut(h as u32 + off);
                }
                Instr::SaveB(y) => {
                    self.ys[(self.ybase + y) as usize] = Cell::Int(self.cps.len() as i64);
                }
                Instr::TryElse(pc) => self.push_cp(CpKind::Alt { pc }, 0, 0),
                Instr::Jump(pc) => self.pc = pc,
                Instr::Fail => fail!(),
                Instr::Stop => return Ok(true),
                Instr::Meta(op) => {
                    if !self.meta(data, op)? {
                        fail!();
                    }
                }
                Instr::GetVar(..)
                | Instr::GetVal(..)
                | Instr::UnifyVar(_)
                | Instr::UnifyVal(_)
                | Instr::PutVar(..)
                | Instr::PutVal(..) => unreachable!("made kind-specific by `specialise`"),
            }
        }
    }
}

/// The instructions of a query and the predicates it reaches, one per line (for tests and
/// `sidl query --core compiled --listing`).
pub fn listing(prog: &Program, goal: &str) -> Result<String, String> {
    let read = crate::syntax::parse_term(goal).map_err(|_| "syntax error".to_string())?;
    let nvars = read.term.var_count().max(read.var_names.len() as u32);
    let (code, start) = compile_query(prog, &read.term, nvars)?;
    let mut labels: HashMap<u32, String> = HashMap::new();
    labels.insert(start, "query".into());
    let data = prog.data();
    for (p, pc) in code.preds.iter().enumerate() {
        if let Some(all) = pc.lists.first() {
            for (i, &a) in all.iter().enumerate() {
                let pr = &data.preds[p];
                labels.insert(a, format!("{}/{} clause {}", pr.name, pr.arity, i + 1));
            }
        }
    }
    let mut out = String::new();
    for (i, ins) in code.code.iter().enumerate() {
        if let Some(l) = labels.get(&(i as u32)) {
            out.push_str(&format!("{l}:\n"));
        }
        let text = match ins {
            Instr::Call(p) | Instr::Execute(p) => {
                let pr = &data.preds[*p as usize];
                let op = if matches!(ins, Instr::Call(_)) {
                    "Call"
                } else {
                    "Execute"
                };
                format!("{op} {}/{}", pr.name, pr.arity)
            }
            Instr::CallNative(k) => {
                let n = code.natives[*k as usize];
                format!("CallNative {}/{}", n.name, n.arity)
            }
            Instr::CallHost(name, arity, _) => format!("CallHost {name}/{arity}"),
            other => format!("{other:?}"),
        };
        out.push_str(&format!("  {i:4} {text}\n"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
