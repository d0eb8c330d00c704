//! The compiled core's meta-calls (issue 17, phase 2b): `call/1..8`, a variable goal,
//! `findall/3,4` (and so the prelude's `forall/2`, `aggregate_all/3`, `maplist/N`, ...),
//! `catch/3` and `throw/1`, as the interpreter runs them (`machine/control.rs`, `throw.rs`):
//! the same answers, bindings, errors and inference counts.
//!
//! - A goal known only at run time is resolved then ([`CoreQuery::meta_call`]): a user
//!   predicate is called at its compiled entry (compiled now if the query did not reach it
//!   before), a native built-in called with the goal's argument cells, `call/N`, `findall`,
//!   `catch`, `throw` run here; a goal that is a control construct (`,`, `;`, `->`, `\+`) is
//!   compiled as a clause of its own (a *skeleton*: the constructs and the names of the goals
//!   they hold; every argument of those goals is a head argument, filled with the goal's own
//!   argument cells, so nothing is copied) and called as a predicate whose clause barrier is the
//!   meta-call's. Skeletons are cached per shape. A variable in a goal position of the
//!   constructs becomes `call/1` of it, as the interpreter's `prepare_body` converts it.
//! - `findall`: a collector (the template's answers copied out of the heap, as the interpreter's
//!   collector does), a choicepoint (result and tail saved) whose retry builds the list, and the
//!   goal called with [`Op::Collect`] as its continuation.
//! - `catch/3`: a choicepoint (catcher and recovery saved, active while the goal runs: its exit
//!   [`Op::PopCatch`] deactivates it on the trail, backtracking into the goal reactivates it),
//!   and an environment holding its height through which the goal returns. An error (a `throw/1`
//!   or a built-in's) unwinds the choicepoints to the newest active catcher that unifies with
//!   the ball ([`CoreQuery::resume`]); budgets are not catchable.
//! - What the core cannot run at run time (a host predicate, a predicate that uses one)
//!   ends the query with [`CoreQuery::refused`] set.

use super::compile::{self, Node};
use super::{compile_preds, specialise, CoreQuery, Cp, CpKind, Env, Fault, Native, XREGS};
use crate::atom::{self, Atom};
use crate::solve::builtins::{self, Builtin};
use crate::solve::host::Host;
use crate::solve::machine::{ErrorKind, SolveError};
use crate::solve::program::{Control, Dispatch, ProgramData};
use crate::solve::store::{relocate, Cell, TrailEntry};
use crate::term::Term;
use std::collections::HashMap;

/// What an [`super::Instr::Meta`] does.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// Control construct `name/arity` on the argument registers (`call/N`, `findall/3,4`,
    /// `catch/3`, `throw/1`; a negation whose goal is known only at run time), counted as its
    /// call (a negation: by its skeleton).
    Ctl(Control, Atom, u32),
    /// Meta-call register 0 without a count (a variable goal of the query, of `not/1`).
    Direct,
    /// `findall`'s continuation: the template copied into the newest collector, then fail.
    Collect,
    /// `catch/3`'s goal exited: deactivate its catcher, return through its environment.
    PopCatch,
    /// `*->`'s condition succeeded: the else branch's choicepoint (at the height saved in
    /// `Y(y)`) is disabled, as the interpreter's `SoftCut` frame disables it.
    SoftCut(u32),
}

/// A trail entry reactivating the catcher of choicepoint `n & !CATCH_FLAG`.
const CATCH_FLAG: u32 = 1 << 31;

/// The most head arguments a skeleton may have (its goals' arguments, in registers).
const MAX_HOLES: usize = XREGS / 2;

struct Collector {
    template: Cell,
    cells: Vec<Cell>,
    roots: Vec<Cell>,
}

/// The meta-call state of a [`CoreQuery`].
#[derive(Default)]
pub(super) struct State {
    collectors: Vec<Collector>,
    /// Cells held by the collectors (counted against the heap budget, as the interpreter does).
    collected: usize,
    /// Skeleton shape -> clause address.
    skeletons: HashMap<Vec<u32>, u32>,
    natives: HashMap<(Atom, u32), u32>,
    resolved: HashMap<(Atom, u32), Dispatch>,
    collect_at: Option<u32>,
    pop_catch_at: Option<u32>,
    fail_at: Option<u32>,
    refused: Option<String>,
}

/// Why a skeleton was not made.
enum Why {
    Throw(Term),
    Refuse(String),
}

/// A skeleton being made: the head arguments (the goals' argument cells), its shape.
struct Skel {
    holes: Vec<Cell>,
    key: Vec<u32>,
    /// The goal whose `prepare_body` would name in a type error.
    whole: Cell,
}

/// Undoing a trail entry of [`Op::PopCatch`]: the catcher is active again.
pub(super) fn reactivate(cps: &mut [Cp], n: u32) {
    if n & CATCH_FLAG != 0 {
        if let Some(Cp {
            kind: CpKind::Catch { active },
            ..
        }) = cps.get_mut((n & !CATCH_FLAG) as usize)
        {
            *active = true;
        }
    }
}

impl CoreQuery {
    /// Why the core stopped the query at run time (a goal outside its subset), if it did.
    pub fn refused(&self) -> Option<&str> {
        self.meta.refused.as_deref()
    }

    fn refuse(&mut self, why: String) -> Fault {
        let message = format!("the compiled core cannot run {why}");
        self.meta.refused = Some(why);
        Box::new(SolveError {
            kind: ErrorKind::Budget("compiled core"),
            ball: Term::atom("core_refused"),
            message,
            predicate: Some(self.last_call),
            path: Vec::new(),
            path_spans: Box::new([]),
        })
    }

    /// Runs the query on (after an answer: backtracking first), unwinding errors to their
    /// catchers.
    pub(super) fn resume(&mut self, host: &mut dyn Host, redo: bool) -> Result<bool, Fault> {
        let prog = self.prog.clone();
        let data = prog.data();
        let mut r = if redo {
            self.retry(host)
        } else {
            self.run(host)
        };
        loop {
            match r {
                Err(f) if f.kind == ErrorKind::Uncaught && !self.cps.is_empty() => {
                    r = match self.unwind(data, f, host)? {
                        true => self.run(host),
                        false => self.retry(host),
                    };
                }
                r => return r,
            }
        }
    }

    fn retry(&mut self, host: &mut dyn Host) -> Result<bool, Fault> {
        if self.backtrack(host)? {
            self.run(host)
        } else {
            Ok(false)
        }
    }

    /// Unwinds to the newest active catcher whose catcher unifies with the error's ball and
    /// starts its recovery (`Ok(false)`: it failed at once); `Err`: nobody catches it.
    fn unwind(
        &mut self,
        data: &ProgramData,
        mut f: Fault,
        host: &mut dyn Host,
    ) -> Result<bool, Fault> {
        loop {
            if f.kind != ErrorKind::Uncaught || crate::solve::errors::uncatchable(&f.ball) {
                return Err(f);
            }
            let (recovery, next) = loop {
                let Some(&cp) = self.cps.last() else {
                    return Err(f);
                };
                let cps = &mut self.cps;
                self.store.undo_to(cp.trail as usize, |n| {
                    reactivate(cps, n);
                    super::host::undo(host, n)
                });
                self.store.heap.truncate(cp.heap as usize);
                self.set_e(cp.e);
                self.cpc = cp.cpc;
                let s = cp.saved as usize;
                let pair = match cp.kind {
                    CpKind::Catch { .. } => (self.saved[s], self.saved[s + 1]),
                    _ => (Cell::Atom(atom::NIL), Cell::Atom(atom::NIL)),
                };
                self.pop_cp();
                match cp.kind {
                    CpKind::Findall => self.drop_collector(),
                    CpKind::Catch { active: true } => {
                        let (catcher, recovery) = pair;
                        let trail = self.store.trail.len();
                        let mark = self.store.mark;
                        self.store.mark = self.store.len();
                        let b = self.store.build(&f.ball, &mut Vec::new());
                        let caught = self.store.unify(catcher, b);
                        self.store.mark = mark;
                        if caught {
                            break (recovery, cp.pc);
                        }
                        self.store.undo_to(trail, |_| {});
                    }
                    _ => {}
                }
            };
            let h = self.cps.len() as u32;
            match self.meta_call(data, recovery, h, next) {
                Ok(b) => return Ok(b),
                Err(e) => f = e,
            }
        }
    }

    fn drop_collector(&mut self) {
        if let Some(c) = self.meta.collectors.pop() {
            self.meta.collected -= c.cells.len() + c.roots.len();
        }
    }

    /// Backtracking into a `findall` choicepoint (popped here: the list of the collected
    /// answers unified with the result; `true`: go on at its continuation) or a `catch/3` one
    /// (fails through).
    pub(super) fn meta_retry(&mut self, cp: Cp) -> bool {
        let s = cp.saved as usize;
        let (result, tail) = (self.saved[s], self.saved[s + 1]);
        self.pop_cp();
        if !matches!(cp.kind, CpKind::Findall) {
            return false;
        }
        let Some(col) = self.meta.collectors.pop() else {
            return false;
        };
        self.meta.collected -= col.cells.len() + col.roots.len();
        let base = self.store.len();
        self.store
            .heap
            .extend(col.cells.iter().map(|&c| relocate(c, base)));
        let roots: Vec<Cell> = col.roots.iter().map(|&c| relocate(c, base)).collect();
        let list = self.store.make_list(&roots, tail);
        if self.store.unify(list, result) {
            self.pc = cp.pc;
            true
        } else {
            false
        }
    }

    /// Runs [`super::Instr::Meta`] (`self.pc`: the next instruction); `Ok(false)`: fail.
    pub(super) fn meta(&mut self, data: &ProgramData, op: Op) -> Result<bool, Fault> {
        match op {
            Op::Ctl(c, name, n) => {
                if c != Control::Not {
                    self.count(name, n)?;
                }
                self.control(data, c, name)
            }
            Op::Direct => {
                let h = self.cps.len() as u32;
                self.meta_call(data, self.x[0], h, self.pc)
            }
            Op::Collect => {
                let Some(col) = self.meta.collectors.last_mut() else {
                    unreachable!("a collector for each running findall")
                };
                let before = col.cells.len();
                let root = self.store.copy_out(col.template, &mut col.cells);
                col.roots.push(root);
                self.meta.collected += col.cells.len() - before + 1;
                if self.store.heap.len() + self.meta.collected > self.limits.max_heap_cells {
                    return Err(self.budget("heap", self.limits.max_heap_cells as u64));
                }
                Ok(false)
            }
            Op::SoftCut(y) => {
                let Cell::Int(h) = self.ys[(self.ybase + y) as usize] else {
                    unreachable!("a saved height")
                };
                let at = match self.meta.fail_at {
                    Some(a) => a,
                    None => {
                        let a = self.code.code.len() as u32;
                        self.code.code.push(super::Instr::Fail);
                        self.meta.fail_at = Some(a);
                        a
                    }
                };
                if let Some(cp) = self.cps.get_mut(h as usize) {
                    cp.kind = CpKind::Alt { pc: at };
                }
                Ok(true)
            }
            Op::PopCatch => {
                let env = self.envs[self.e as usize];
                let Cell::Int(h) = self.ys[env.y0 as usize] else {
                    unreachable!("a catch environment holds its choicepoint's height")
                };
                let h = h as usize;
                if self.cps.len() == h + 1 {
                    self.pop_cp();
                } else if let Some(Cp {
                    kind: CpKind::Catch { active },
                    ..
                }) = self.cps.get_mut(h)
                {
                    *active = false;
                    self.store
                        .trail
                        .push(TrailEntry::Host(h as u32 | CATCH_FLAG));
                }
                self.cpc = env.cp;
                self.set_e(env.ce);
                self.pc = self.cpc;
                Ok(true)
            }
        }
    }

    /// Control construct `c` (`name`) on the argument registers, continuing at `self.pc`.
    fn control(&mut self, data: &ProgramData, c: Control, name: Atom) -> Result<bool, Fault> {
        let next = self.pc;
        match c {
            Control::Call(0) => {
                let h = self.cps.len() as u32;
                self.meta_call(data, self.x[0], h, next)
            }
            Control::Call(n) => {
                // the goal with the extra arguments, built as the interpreter builds it
                let g = self.store.deref(self.x[0]);
                let extra: Vec<Cell> = self.x[1..=n as usize].to_vec();
                let goal = match g {
                    Cell::Ref(_) => return Err(self.error(Term::instantiation_error())),
                    Cell::Atom(a) => self.store.make_compound(a, &extra),
                    Cell::Struct(_) | Cell::List(_) => {
                        let (f, k) = self.store.functor(g).expect("compound");
                        let mut all: Vec<Cell> = (0..k).map(|i| self.store.arg(g, i)).collect();
                        all.extend_from_slice(&extra);
                        let p = self.store.len();
                        self.store.heap.push(Cell::Functor(f, all.len() as u32));
                        self.store.heap.extend_from_slice(&all);
                        Cell::Struct(p)
                    }
                    other => {
                        let t = self.store.to_term(other);
                        return Err(self.error(Term::type_error(atom::CALLABLE, t)));
                    }
                };
                let h = self.cps.len() as u32;
                self.meta_call(data, goal, h, next)
            }
            Control::Findall | Control::Findall4 => {
                let (template, goal, result) = (self.x[0], self.x[1], self.x[2]);
                let tail = if c == Control::Findall4 {
                    self.x[3]
                } else {
                    Cell::Atom(atom::NIL)
                };
                self.meta.collectors.push(Collector {
                    template,
                    cells: Vec::new(),
                    roots: Vec::new(),
                });
                self.x[0] = result;
                self.x[1] = tail;
                self.push_cp(CpKind::Findall, 2, next);
                let at = match self.meta.collect_at {
                    Some(a) => a,
                    None => self.helper(Op::Collect, |s| &mut s.collect_at),
                };
                let h = self.cps.len() as u32;
                self.meta_call(data, goal, h, at)
            }
            Control::Catch => {
                let (goal, catcher, recovery) = (self.x[0], self.x[1], self.x[2]);
                let h = self.cps.len() as u32;
                self.x[0] = catcher;
                self.x[1] = recovery;
                self.push_cp(CpKind::Catch { active: true }, 2, next);
                // the environment the goal returns through (`PopCatch`), holding the height
                let (et, yt) = self.env_top();
                if self.envs.len() <= et as usize {
                    self.envs.resize(et as usize + 1, Env::default());
                }
                self.envs[et as usize] = Env {
                    ce: self.e,
                    cp: next,
                    b0: self.b0,
                    y0: yt,
                    n: 1,
                };
                if self.ys.len() <= yt as usize {
                    self.ys.resize(yt as usize + 1, Cell::Atom(atom::NIL));
                }
                self.ys[yt as usize] = Cell::Int(h as i64);
                self.e = et;
                self.ybase = yt;
                let at = match self.meta.pop_catch_at {
                    Some(a) => a,
                    None => self.helper(Op::PopCatch, |s| &mut s.pop_catch_at),
                };
                self.meta_call(data, goal, h + 1, at)
            }
            Control::Throw => {
                let b = self.store.deref(self.x[0]);
                if let Cell::Ref(_) = b {
                    return Err(self.error(Term::instantiation_error()));
                }
                let t = self.store.to_term(b);
                Err(self.error(t))
            }
            Control::Not => {
                // a negation whose goal is known now: counted by its skeleton
                let g = self.store.deref(self.x[0]);
                let mut sk = Skel {
                    holes: Vec::new(),
                    key: vec![1, name.0],
                    whole: g,
                };
                let inner = match self.skel(data, &mut sk, g, false) {
                    Ok(n) => n,
                    Err(Why::Throw(t)) => {
                        self.count(name, 1)?;
                        return Err(self.error(t));
                    }
                    Err(Why::Refuse(w)) => return Err(self.refuse(w)),
                };
                let node = Node::Not(name, Box::new(inner));
                let h = self.cps.len() as u32;
                self.run_skeleton(data, sk, node, h, next)
            }
            _ => unreachable!("compiled inline"),
        }
    }

    /// Appends the one instruction `op` (a continuation address), remembered in `slot`.
    fn helper(&mut self, op: Op, slot: fn(&mut State) -> &mut Option<u32>) -> u32 {
        let a = self.code.code.len() as u32;
        self.code.code.push(super::Instr::Meta(op));
        *slot(&mut self.meta) = Some(a);
        a
    }

    /// The dispatch of `name/arity` as the core runs it (a library fast path: its clauses).
    fn resolve(&mut self, data: &ProgramData, name: Atom, arity: u32) -> Dispatch {
        if let Some(&d) = self.meta.resolved.get(&(name, arity)) {
            return d;
        }
        let d = crate::solve::compile::resolve(data, name, arity);
        let d = match d {
            Dispatch::Native(_)
                if builtins::library_fast(name, arity).is_some()
                    && builtins::lookup(name, arity).is_none() =>
            {
                data.by_key
                    .get(&(name, arity))
                    .map_or(d, |&p| Dispatch::User(p))
            }
            d => d,
        };
        self.meta.resolved.insert((name, arity), d);
        d
    }

    fn native_index(&mut self, f: Builtin, name: Atom, arity: u32) -> u32 {
        let natives = &mut self.code.natives;
        *self.meta.natives.entry((name, arity)).or_insert_with(|| {
            natives.push(Native { f, name, arity });
            (natives.len() - 1) as u32
        })
    }

    /// Runs heap goal `g` as a meta-call with cut barrier `cutb`, continuing at `next` in the
    /// current environment: as the interpreter's `meta_call` (and a goal frame) runs it.
    /// `Ok(false)`: it failed at once.
    pub(super) fn meta_call(
        &mut self,
        data: &ProgramData,
        g: Cell,
        cutb: u32,
        next: u32,
    ) -> Result<bool, Fault> {
        let g = self.store.deref(g);
        let (name, arity, at) = match g {
            Cell::Atom(a) => (a, 0, 0),
            Cell::Struct(p) => match self.store.heap[p as usize] {
                Cell::Functor(f, n) => (f, n, p + 1),
                _ => unreachable!("a compound starts with its functor"),
            },
            Cell::List(p) => (atom::DOT, 2, p),
            Cell::Ref(_) => return Err(self.error(Term::instantiation_error())),
            other => {
                let t = self.store.to_term(other);
                return Err(self.error(Term::type_error(atom::CALLABLE, t)));
            }
        };
        let args = at as usize..(at + arity) as usize;
        match self.resolve(data, name, arity) {
            Dispatch::Control(
                Control::Conj
                | Control::Disj
                | Control::IfThen
                | Control::SoftIfThen
                | Control::Not,
            ) => {
                let mut sk = Skel {
                    holes: Vec::new(),
                    key: vec![0],
                    whole: g,
                };
                match self.skel(data, &mut sk, g, false) {
                    Ok(node) => self.run_skeleton(data, sk, node, cutb, next),
                    Err(Why::Throw(t)) => Err(self.error(t)),
                    Err(Why::Refuse(w)) => Err(self.refuse(w)),
                }
            }
            Dispatch::Control(Control::True) => {
                self.count(name, 0)?;
                self.pc = next;
                Ok(true)
            }
            Dispatch::Control(Control::Fail) => {
                self.count(name, 0)?;
                Ok(false)
            }
            Dispatch::Control(Control::Cut) => {
                self.count(name, 0)?;
                self.cut(cutb);
                self.pc = next;
                Ok(true)
            }
            Dispatch::Control(c) => {
                self.x[..arity as usize].copy_from_slice(&self.store.heap[args]);
                self.count(name, arity)?;
                self.pc = next;
                self.control(data, c, name)
            }
            Dispatch::Host(_) => Err(self.refuse(format!("the host predicate {name}/{arity}"))),
            Dispatch::Unknown => {
                self.count(name, arity)?;
                Err(self.error(Term::existence_error(
                    atom::PROCEDURE,
                    Term::indicator(name, arity as usize),
                )))
            }
            Dispatch::User(p) => {
                if !self.code.done[p as usize] {
                    if let Err(e) = compile_preds(data, &mut self.code, vec![p]) {
                        return Err(self.refuse(e));
                    }
                }
                self.x[..arity as usize].copy_from_slice(&self.store.heap[args]);
                self.cpc = next;
                self.call(data, p)
            }
            Dispatch::Native(f) => {
                self.count(name, arity)?;
                let k = self.native_index(f, name, arity);
                let argv: Vec<Cell> = self.store.heap[args].to_vec();
                self.native(k, &argv, None, next)
            }
        }
    }

    /// The skeleton of goal `g` (dereferenced here): its control constructs as nodes, every
    /// other goal's arguments as head arguments; `conv`: a variable goal is `call/1` of it.
    fn skel(
        &mut self,
        data: &ProgramData,
        sk: &mut Skel,
        g: Cell,
        conv: bool,
    ) -> Result<Node, Why> {
        let g = self.store.deref(g);
        let hole = |sk: &mut Skel, c: Cell| {
            sk.holes.push(c);
            Cell::Var(sk.holes.len() as u32 - 1)
        };
        match g {
            Cell::Ref(_) => {
                let v = hole(sk, g);
                sk.key.push(u32::MAX - u32::from(conv));
                return Ok(if conv {
                    Node::Meta(Control::Call(0), atom::CALL, vec![v])
                } else {
                    Node::Direct(v)
                });
            }
            Cell::Atom(_) | Cell::Struct(_) | Cell::List(_) => {}
            _ => {
                let t = self.store.to_term(sk.whole);
                return Err(Why::Throw(Term::type_error(atom::CALLABLE, t)));
            }
        }
        let (name, arity) = self.store.functor(g).expect("callable");
        sk.key.extend([name.0, arity]);
        let arg = |s: &Self, i: u32| s.store.arg(g, i);
        let disp = self.resolve(data, name, arity);
        let sub = |s: &mut Self, sk: &mut Skel, i: u32, conv: bool| {
            let a = arg(s, i);
            s.skel(data, sk, a, conv).map(Box::new)
        };
        Ok(match disp {
            Dispatch::Control(Control::Conj) => {
                Node::Conj(sub(self, sk, 0, true)?, sub(self, sk, 1, true)?)
            }
            Dispatch::Control(Control::Disj) => {
                let left = self.store.deref(arg(self, 0));
                match self.store.functor(left) {
                    Some((f, 2)) if f == atom::ARROW => {
                        sk.key.extend([f.0, 2]);
                        let c = self.skel(data, sk, self.store.arg(left, 0), true)?;
                        let t = self.skel(data, sk, self.store.arg(left, 1), true)?;
                        let e = sub(self, sk, 1, true)?;
                        Node::Ite(name, Box::new(c), Box::new(t), e)
                    }
                    Some((f, 2)) if f == atom::SOFT_ARROW => {
                        sk.key.extend([f.0, 2]);
                        let c = self.skel(data, sk, self.store.arg(left, 0), true)?;
                        let t = self.skel(data, sk, self.store.arg(left, 1), true)?;
                        let e = sub(self, sk, 1, true)?;
                        Node::SoftIte(name, Box::new(c), Box::new(t), e)
                    }
                    _ => Node::Disj(name, sub(self, sk, 0, true)?, sub(self, sk, 1, true)?),
                }
            }
            Dispatch::Control(Control::IfThen) => {
                Node::IfThen(sub(self, sk, 0, true)?, sub(self, sk, 1, true)?)
            }
            Dispatch::Control(Control::Not) if name == atom::NOT_PROVABLE => {
                Node::Not(name, sub(self, sk, 0, true)?)
            }
            Dispatch::Control(Control::True | Control::Fail | Control::Cut) => {
                Node::Goal(disp, name, Vec::new())
            }
            Dispatch::Control(Control::SoftIfThen) => {
                Node::SoftIfThen(sub(self, sk, 0, true)?, sub(self, sk, 1, true)?)
            }
            Dispatch::Host(_) => {
                return Err(Why::Refuse(format!("the host predicate {name}/{arity}")))
            }
            Dispatch::Control(c) => {
                // `not/1` (its goal not converted), `call/N`, `findall`, `catch`, `throw`
                let args = (0..arity).map(|i| hole(sk, arg(self, i))).collect();
                Node::Meta(c, name, args)
            }
            Dispatch::User(_) | Dispatch::Native(_) | Dispatch::Unknown => {
                let args = (0..arity).map(|i| hole(sk, arg(self, i))).collect();
                Node::Goal(disp, name, args)
            }
        })
    }

    /// Calls skeleton `node` (compiled on its first use) with its head arguments, clause
    /// barrier `cutb` and continuation `next`.
    fn run_skeleton(
        &mut self,
        data: &ProgramData,
        sk: Skel,
        node: Node,
        cutb: u32,
        next: u32,
    ) -> Result<bool, Fault> {
        let n = sk.holes.len();
        if n > MAX_HOLES {
            return Err(self.refuse(format!("a meta-called goal of {n} arguments")));
        }
        let addr = match self.meta.skeletons.get(&sk.key) {
            Some(&a) => a,
            None => {
                let head: Vec<Cell> = (0..n as u32).map(Cell::Var).collect();
                let from = self.code.code.len();
                let body = std::slice::from_ref(&node);
                let addr = compile::clause(
                    &mut self.code.code,
                    &mut self.code.natives,
                    &[],
                    &head,
                    n as u32,
                    body,
                    false,
                    &mut self.code.regs,
                );
                specialise(&mut self.code.code[from..]);
                let mut todo = Vec::new();
                compile::callees(body, &mut todo);
                if let Err(e) = compile_preds(data, &mut self.code, todo) {
                    return Err(self.refuse(e));
                }
                if self.code.regs as usize >= XREGS {
                    return Err(self.refuse(format!("more than {XREGS} registers")));
                }
                self.meta.skeletons.insert(sk.key, addr);
                addr
            }
        };
        self.x[..n].copy_from_slice(&sk.holes);
        self.b0 = cutb;
        self.cpc = next;
        self.pc = addr;
        Ok(true)
    }
}
