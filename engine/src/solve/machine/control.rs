//! Control constructs and meta-calls: `call/N`, conjunction, disjunction, if-then-else,
//! `catch/3`, `findall/3` (its collectors), and the ISO body conversion of meta-called goals.

use super::*;

/// Slots of [`Machine::resolve_goal`]'s direct-mapped cache (a power of two).
pub(super) const RESOLVE_SLOTS: usize = 64;

#[inline(always)]
pub(super) fn resolve_slot(name: Atom, arity: u32) -> usize {
    // the top bits of a multiplicative hash
    ((name.0 ^ arity.rotate_right(8)).wrapping_mul(0x9E37_79B9)
        >> (32 - RESOLVE_SLOTS.trailing_zeros())) as usize
}

#[derive(Default, Debug)]
pub(super) struct Collector {
    pub(super) cells: Vec<Cell>,
    pub(super) roots: Vec<Cell>,
}

impl Machine {
    pub(super) fn drop_collectors(&mut self, from: u32) {
        for c in self.collectors.drain(from as usize..) {
            self.collected_cells -= c.cells.len() + c.roots.len();
        }
    }

    /// The name, arity and argument address of callable heap term `g` (dereferenced); `None` for a
    /// variable or a non-callable term.
    #[inline(always)]
    pub(super) fn goal_parts(&self, g: Cell) -> Option<(Atom, u32, u32)> {
        match g {
            Cell::Atom(a) => Some((a, 0, 0)),
            Cell::Struct(p) => match self.store.heap[p as usize] {
                Cell::Functor(n, k) => Some((n, k, p + 1)),
                _ => None,
            },
            Cell::List(p) => Some((atom::DOT, 2, p)),
            _ => None,
        }
    }

    /// The dispatch of a meta-called `name/arity` (cached: the program does not change).
    #[inline(always)]
    pub(super) fn resolve_goal(&mut self, data: &ProgramData, name: Atom, arity: u32) -> Dispatch {
        let slot = &self.resolve_cache[resolve_slot(name, arity)];
        if slot.0 == name && slot.1 == arity {
            return slot.2;
        }
        self.resolve_slow(data, name, arity)
    }

    #[inline(never)]
    pub(super) fn resolve_slow(&mut self, data: &ProgramData, name: Atom, arity: u32) -> Dispatch {
        let d = match self.resolved.get(&(name, arity)) {
            Some(&d) => d,
            None => {
                let d = crate::solve::compile::resolve(data, name, arity);
                self.resolved.insert((name, arity), d);
                d
            }
        };
        self.resolve_cache[resolve_slot(name, arity)] = (name, arity, d);
        d
    }

    /// Runs callable-or-not heap term `g` (dereferenced) as a meta-called goal with cut barrier
    /// `cutb` and continuation `next`, as a goal frame of its converted body would: a plain goal
    /// (not a variable, not a control construct) is dispatched here, with the current frame where
    /// that popped goal frame would have been (the same call path in errors); anything else goes
    /// through [`Machine::prepare_body`] and a goal frame.
    pub(super) fn meta_call(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        g: Cell,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        if let Some((name, arity, args)) = self.goal_parts(g) {
            let disp = self.resolve_goal(data, name, arity);
            if !matches!(disp, Dispatch::Control(_)) {
                self.cur = self.frames.len() as u32;
                return self.dispatch_nested(data, host, disp, name, arity, args, cutb, next);
            }
        }
        let goal = match self.prepare_body(g) {
            Ok(g) => g,
            Err(e) => return Ok(Step::throw(e)),
        };
        self.cur = self.push_frame(FrameKind::Goal { goal }, cutb, next)?;
        Ok(Step::Go)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn control(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        c: Control,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let arg = |m: &Machine, i: u32| m.store.heap[(args + i) as usize];
        match c {
            Control::True => {
                self.cur = next;
            }
            Control::Fail => return Ok(Step::Fail),
            Control::Cut => {
                self.cut(cutb);
                self.cur = next;
            }
            Control::Conj => {
                let b = self.push_frame(FrameKind::Goal { goal: arg(self, 1) }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal: arg(self, 0) }, cutb, b)?;
            }
            Control::Disj => {
                let left = self.store.deref(arg(self, 0));
                let right = arg(self, 1);
                match self.store.functor(left) {
                    Some((f, 2)) if f == atom::ARROW || f == atom::SOFT_ARROW => {
                        let cond = self.store.arg(left, 0);
                        let then = self.store.arg(left, 1);
                        let h = self.cps.len() as u32;
                        self.push_cp(CpKind::Alt { goal: right }, next, cutb)?;
                        let t = self.push_frame(FrameKind::Goal { goal: then }, cutb, next)?;
                        let commit = if f == atom::ARROW {
                            FrameKind::CutTo { height: h }
                        } else {
                            FrameKind::SoftCut { cp: h }
                        };
                        let k = self.push_frame(commit, cutb, t)?;
                        self.cur = self.push_frame(FrameKind::Goal { goal: cond }, h + 1, k)?;
                    }
                    _ => {
                        self.push_cp(CpKind::Alt { goal: right }, next, cutb)?;
                        self.cur = self.push_frame(FrameKind::Goal { goal: left }, cutb, next)?;
                    }
                }
            }
            Control::IfThen => {
                let h = self.cps.len() as u32;
                let t = self.push_frame(FrameKind::Goal { goal: arg(self, 1) }, cutb, next)?;
                let k = self.push_frame(FrameKind::CutTo { height: h }, cutb, t)?;
                self.cur = self.push_frame(FrameKind::Goal { goal: arg(self, 0) }, h, k)?;
            }
            Control::SoftIfThen => {
                let h = self.cps.len() as u32;
                let t = self.push_frame(FrameKind::Goal { goal: arg(self, 1) }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal: arg(self, 0) }, h, t)?;
            }
            Control::Not => return self.negation(data, host, args, cutb, next),
            Control::Call(0) => {
                let g = self.store.deref(arg(self, 0));
                let h = self.cps.len() as u32;
                return self.meta_call(data, host, g, h, next);
            }
            Control::Call(n) => {
                let g = self.store.deref(arg(self, 0));
                let extra: Vec<Cell> = (1..=n as u32).map(|i| arg(self, i)).collect();
                let goal = match g {
                    Cell::Ref(_) => return Ok(Step::throw(Term::instantiation_error())),
                    Cell::Atom(a) => self.store.make_compound(a, &extra),
                    Cell::Struct(_) | Cell::List(_) => {
                        let (f, k) = self.store.functor(g).expect("compound");
                        let mut all: Vec<Cell> = (0..k).map(|i| self.store.arg(g, i)).collect();
                        all.extend_from_slice(&extra);
                        // a list cell with extra arguments is '.'/N, not a list
                        let p = self.store.len();
                        self.store.heap.push(Cell::Functor(f, all.len() as u32));
                        self.store.heap.extend_from_slice(&all);
                        Cell::Struct(p)
                    }
                    other => {
                        let t = self.store.to_term(other);
                        return Ok(Step::throw(Term::type_error(atom::CALLABLE, t)));
                    }
                };
                let h = self.cps.len() as u32;
                return self.meta_call(data, host, goal, h, next);
            }
            Control::Catch => {
                let goal = match self.prepare_body(arg(self, 0)) {
                    Ok(g) => g,
                    Err(e) => return Ok(Step::throw(e)),
                };
                let h = self.cps.len() as u32;
                self.push_cp(
                    CpKind::Catch {
                        catcher: arg(self, 1),
                        recovery: arg(self, 2),
                        active: true,
                    },
                    next,
                    cutb,
                )?;
                let pop = self.push_frame(FrameKind::PopCatch { cp: h }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal }, h + 1, pop)?;
            }
            Control::Throw => {
                let b = self.store.deref(arg(self, 0));
                if let Cell::Ref(_) = b {
                    return Ok(Step::throw(Term::instantiation_error()));
                }
                return Ok(Step::throw(self.store.to_term(b)));
            }
            Control::Findall | Control::Findall4 => {
                let template = arg(self, 0);
                let goal = match self.prepare_body(arg(self, 1)) {
                    Ok(g) => g,
                    Err(e) => return Ok(Step::throw(e)),
                };
                let result = arg(self, 2);
                let tail = if c == Control::Findall4 {
                    Some(arg(self, 3))
                } else {
                    None
                };
                let id = self.collectors.len() as u32;
                self.collectors.push(Collector::default());
                let h = self.cps.len() as u32;
                self.push_cp(CpKind::Findall { id, result, tail }, next, cutb)?;
                let k = self.push_frame(FrameKind::Collect { id, template }, cutb, next)?;
                self.cur = self.push_frame(FrameKind::Goal { goal }, h + 1, k)?;
            }
        }
        Ok(Step::Go)
    }

    /// ISO body conversion of a meta-called goal: a variable in a control position (an argument of
    /// `,`, `;`, `->`, `*->`) becomes `call(V)`, so that a cut bound to it later stays local; a
    /// number or string there is a `type_error(callable, Goal)` naming the whole goal (SWI-Prolog).
    pub(super) fn prepare_body(&mut self, goal: Cell) -> Result<Cell, Term> {
        // the number of goal arguments of a control construct (0: not one)
        let control_args = |s: &Store, c: Cell| match s.functor(c) {
            Some((f, 2))
                if f == atom::COMMA
                    || f == atom::SEMI
                    || f == atom::BAR
                    || f == atom::ARROW
                    || f == atom::SOFT_ARROW =>
            {
                2
            }
            Some((f, 1)) if f == atom::NOT_PROVABLE => 1,
            _ => 0,
        };
        let is_control = |s: &Store, c: Cell| control_args(s, c) > 0;
        let g = self.store.deref(goal);
        if !is_control(&self.store, g) {
            return Ok(g);
        }
        let mut has_var = false;
        let mut stack = vec![g];
        while let Some(c) = stack.pop() {
            let c = self.store.deref(c);
            if is_control(&self.store, c) {
                for i in (0..control_args(&self.store, c)).rev() {
                    stack.push(self.store.arg(c, i));
                }
            } else {
                match c {
                    Cell::Ref(_) => has_var = true,
                    Cell::Atom(_) | Cell::Struct(_) | Cell::List(_) => {}
                    _ => return Err(Term::type_error(atom::CALLABLE, self.store.to_term(g))),
                }
            }
        }
        if !has_var {
            return Ok(g);
        }
        enum Job {
            Visit(Cell),
            Build(Atom, u32),
        }
        let mut jobs = vec![Job::Visit(g)];
        let mut out: Vec<Cell> = Vec::new();
        while let Some(job) = jobs.pop() {
            match job {
                Job::Visit(c) => {
                    let c = self.store.deref(c);
                    if is_control(&self.store, c) {
                        let (f, n) = self.store.functor(c).expect("control construct");
                        jobs.push(Job::Build(f, n));
                        for i in (0..n).rev() {
                            jobs.push(Job::Visit(self.store.arg(c, i)));
                        }
                    } else if let Cell::Ref(_) = c {
                        let call = self.store.make_compound(atom::CALL, &[c]);
                        out.push(call);
                    } else {
                        out.push(c);
                    }
                }
                Job::Build(f, n) => {
                    let args = out.split_off(out.len() - n as usize);
                    let t = self.store.make_compound(f, &args);
                    out.push(t);
                }
            }
        }
        Ok(out.pop().expect("converted body"))
    }
}

impl Machine {
    /// Runs node `node` of clause `at`'s compiled control constructs ([`ProgramData::subs`],
    /// environment `env`) with cut barrier `cutb` and continuation `next`, as a `Goal` frame of
    /// the node's term would run it (see `compile::control_subs`): a plain goal's arguments are
    /// built from its templates and it is dispatched (an integer `is/2` or comparison evaluated
    /// as in a clause body); a variable's value is meta-called; a control construct counts as the
    /// call of its name (as `dispatch` counts it) and pushes the choicepoints and frames
    /// [`Machine::control`] and [`Machine::negation`] push, with `Sub` frames for its parts.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn run_sub(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        (pred, clause): (u32, u32),
        node: u32,
        env: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let c: &ClauseT = &data.preds[pred as usize].clauses[clause as usize];
        let sub = |node: u32| FrameKind::Sub {
            pred,
            clause,
            node,
            env,
        };
        let mut node = node;
        loop {
            return match &data.subs[node as usize] {
                SubGoal::Goal(g) => {
                    if let Some(op) = g.arith {
                        if let Some(r) = self.sub_arith(op, c, g, env) {
                            return if r? {
                                self.cur = next;
                                Ok(Step::Go)
                            } else {
                                Ok(Step::Fail)
                            };
                        }
                    }
                    if g.host_list && self.store.heap.len() + 1 + g.block.1 as usize <= self.heap_at
                    {
                        if let Some(step) = self.host_list(host, c, g, env, next) {
                            return step;
                        }
                    }
                    if g.name == atom::EQUALS
                        && g.arity == 2
                        && matches!(g.disp, Dispatch::Native(_))
                    {
                        if let Some(r) = self.eq_env(g, env) {
                            return if r? {
                                self.cur = next;
                                Ok(Step::Go)
                            } else {
                                Ok(Step::Fail)
                            };
                        }
                    }
                    let args = self.goal_args(c, g, env);
                    self.dispatch_nested(data, host, g.disp, g.name, g.arity, args, cutb, next)
                }
                &SubGoal::Conj(a, b) => {
                    self.count_control(atom::COMMA, 2)?;
                    let b = self.push_frame(sub(b), cutb, next)?;
                    self.cur = self.push_frame(sub(a), cutb, b)?;
                    Ok(Step::Go)
                }
                &SubGoal::Disj(name, l, r) => {
                    if let SubGoal::IfThen(cond, then) = data.subs[l as usize] {
                        match self.if_direct(data, host, c, name, (cond, then, r), env)? {
                            Some(Ok(n)) => {
                                node = n;
                                continue;
                            }
                            Some(Err(step)) => return Ok(step),
                            None => {}
                        }
                    }
                    self.count_control(name, 2)?;
                    let alt = CpKind::AltSub {
                        pred,
                        clause,
                        node: r,
                        env,
                    };
                    match data.subs[l as usize] {
                        SubGoal::IfThen(cond, then) | SubGoal::SoftIfThen(cond, then) => {
                            let h = self.cps.len() as u32;
                            self.push_cp(alt, next, cutb)?;
                            let t = self.push_frame(sub(then), cutb, next)?;
                            let commit = if let SubGoal::IfThen(..) = data.subs[l as usize] {
                                FrameKind::CutTo { height: h }
                            } else {
                                FrameKind::SoftCut { cp: h }
                            };
                            let k = self.push_frame(commit, cutb, t)?;
                            self.cur = self.push_frame(sub(cond), h + 1, k)?;
                        }
                        _ => {
                            self.push_cp(alt, next, cutb)?;
                            self.cur = self.push_frame(sub(l), cutb, next)?;
                        }
                    }
                    Ok(Step::Go)
                }
                &SubGoal::IfThen(cond, then) => {
                    match self.if_direct(data, host, c, atom::ARROW, (cond, then, u32::MAX), env)? {
                        Some(Ok(n)) => {
                            node = n;
                            continue;
                        }
                        Some(Err(step)) => return Ok(step),
                        None => {}
                    }
                    self.count_control(atom::ARROW, 2)?;
                    let h = self.cps.len() as u32;
                    let t = self.push_frame(sub(then), cutb, next)?;
                    let k = self.push_frame(FrameKind::CutTo { height: h }, cutb, t)?;
                    self.cur = self.push_frame(sub(cond), h, k)?;
                    Ok(Step::Go)
                }
                &SubGoal::SoftIfThen(cond, then) => {
                    self.count_control(atom::SOFT_ARROW, 2)?;
                    let h = self.cps.len() as u32;
                    let t = self.push_frame(sub(then), cutb, next)?;
                    self.cur = self.push_frame(sub(cond), h, t)?;
                    Ok(Step::Go)
                }
                &SubGoal::Not(name, g) => {
                    self.count_control(name, 1)?;
                    let SubGoal::Goal(g) = &data.subs[g as usize] else {
                        unreachable!("a compiled negation's goal is a plain goal")
                    };
                    if g.host_list {
                        if let Some(r) = self.not_host_env(data, host, c, g, env, cutb, next) {
                            return r;
                        }
                    } else if let Dispatch::User(p) = g.disp {
                        // an argument-memo call whose table entry is in the cache: decided as
                        // `negation_goal` decides it (the same checks, with room for the
                        // arguments and the goal term that the body goal `\+ G` would build)
                        if self.inferences < self.check_at
                            && self.store.heap.len() + g.arity as usize + 2
                                <= self.heap_at.min(self.gc_at)
                            && !self.fills.overdue(self.inferences + 1)
                            && self.cps.len() + 1 < self.limits.max_choicepoints
                            && self.frames.len() < self.limits.max_frames
                        {
                            if let Some(found) = self.memo_exists_env(data, p, g, env) {
                                self.inferences += 1;
                                self.last_call = (g.name, g.arity);
                                if found {
                                    return Ok(Step::Fail);
                                }
                                self.cur = next;
                                return Ok(Step::Go);
                            }
                        }
                    } else if g.name == atom::EQUALS && g.arity == 2 {
                        if let Some(step) = self.not_eq_env(host, g, env, cutb, next) {
                            return Ok(step);
                        }
                    }
                    let gargs = self.goal_args(c, g, env);
                    self.negation_goal(data, host, g.disp, (g.name, g.arity, gargs), cutb, next)
                }
            };
        }
    }

    /// `(C -> T ; E)` (`name` `;` or `|`; `else_` the node of `E`) or `(C -> T)` (`name` `->`,
    /// `else_` `u32::MAX`) whose condition `C` is native built-ins or integer arithmetic
    /// ([`ProgramData::direct_conds`]), decided at once: the condition's goals are called in
    /// place, without the choicepoint and the commit and condition frames of the general path;
    /// `Some(Ok(node))`: go on with `T` or `E` (`run_sub` runs that node next, as the step of its
    /// frame would), `Some(Err(step))`: fail or throw, `None`: nothing was done. Exact: the same
    /// calls are counted in the same order under the same names (`;`, `,`, the goals, as
    /// `dispatch` and `run_arith` count them), with the same arguments built on the heap and the
    /// bindings trailed with the mark the choicepoint would set; failure undoes them and cuts the
    /// heap back, as backtracking into the choicepoint does; a built-in's other answers are cut,
    /// as the commit cuts them; an exception is thrown from the same call, with what it bound
    /// undone as unwinding through the choicepoint undoes it. Only when the general path could
    /// not end otherwise in between: room for its choicepoints and frames, and no memo fill abort
    /// due at the steps it would take (a garbage collection at them would change no answer).
    #[inline(never)]
    fn if_direct(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        c: &ClauseT,
        name: Atom,
        (cond, then, else_): (u32, u32, u32),
        env: u32,
    ) -> Result<Option<Result<u32, Step>>, Fault> {
        let n = data.direct_conds[cond as usize] as usize;
        if n == 0
            || self.fills.overdue(self.inferences + 1 + n as u64)
            || self.cps.len() + 2 >= self.limits.max_choicepoints
            || self.frames.len() + 2 * n + 4 >= self.limits.max_frames
        {
            return Ok(None);
        }
        self.count_control(name, 2)?;
        let (heap, trail, frames) = self.heights(None);
        self.store.mark = heap;
        let r = self.cond_direct(data, c, cond, env);
        if !matches!(r, Ok(true)) {
            self.restore_heights(trail, heap, frames, host);
        }
        self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
        match r {
            Ok(true) => Ok(Some(Ok(then))),
            Ok(false) if else_ != u32::MAX => Ok(Some(Ok(else_))),
            Ok(false) => Ok(Some(Err(Step::Fail))),
            Err(Ok(ball)) => Ok(Some(Err(Step::throw(ball)))),
            Err(Err(fault)) => Err(fault),
        }
    }

    /// Runs condition node `node` ([`ProgramData::direct_conds`] says it can be run in place): `Ok(true)` it
    /// succeeded (its bindings stay), `Ok(false)` it failed, `Err(Ok(ball))` it threw `ball`,
    /// `Err(Err(fault))` a budget ran out. What it bound is not undone here.
    fn cond_direct(
        &mut self,
        data: &ProgramData,
        c: &ClauseT,
        node: u32,
        env: u32,
    ) -> Result<bool, Result<Term, Fault>> {
        match &data.subs[node as usize] {
            &SubGoal::Conj(a, b) => {
                self.count_control(atom::COMMA, 2).map_err(Err)?;
                Ok(self.cond_direct(data, c, a, env)? && self.cond_direct(data, c, b, env)?)
            }
            SubGoal::Goal(g) => {
                if let Some(op) = g.arith {
                    if let Some(r) = self.sub_arith(op, c, g, env) {
                        return r.map_err(Err);
                    }
                }
                let Dispatch::Native(f) = g.disp else {
                    unreachable!("direct_conds admits native built-ins only")
                };
                if g.name == atom::EQUALS && g.arity == 2 {
                    if let Some(r) = self.eq_env(g, env) {
                        return r.map_err(Err);
                    }
                }
                let args = self.goal_args(c, g, env);
                self.count_control(g.name, g.arity).map_err(Err)?;
                // as `call_native` calls it: what it binds above the heap now is not trailed
                let heap_room = self.heap_at.saturating_sub(self.store.heap.len());
                let saved_mark = self.store.mark;
                self.store.mark = self.store.len();
                let r = self.with_args(args, g.arity, |m, buf| {
                    let mut ctx = Ctx::new(&mut m.store, &mut m.rng);
                    ctx.heap_room = heap_room;
                    f(&mut ctx, buf, None)
                });
                self.store.mark = saved_mark;
                match r {
                    Ok(Det::True | Det::Retry(_)) => Ok(true),
                    Ok(Det::Fail) => Ok(false),
                    Err(ball) => Err(Ok(ball)),
                }
            }
            _ => unreachable!("direct_conds admits goals and conjunctions only"),
        }
    }

    /// What [`Machine::dispatch`] does for every call before running it (also for the control
    /// constructs compiled into their clauses): one inference, the call's name for error
    /// messages, the inference and heap budgets.
    #[inline(always)]
    pub(super) fn count_control(&mut self, name: Atom, arity: u32) -> Result<(), Fault> {
        self.inferences += 1;
        self.last_call = (name, arity);
        if self.inferences > self.check_at {
            self.count_call(name, arity)?;
        }
        if self.store.heap.len() > self.heap_at {
            self.check_heap()?;
        }
        Ok(())
    }

    /// Builds the arguments of goal template `g` of clause `c` (environment `env`) on the heap,
    /// as the step loop builds a body goal's; returns their address.
    pub(super) fn goal_args(&mut self, c: &ClauseT, g: &GoalT, env: u32) -> u32 {
        let args = self.store.len();
        if g.block.0 != u32::MAX {
            self.goal_args_block(c, g, env);
        } else if g.host_list {
            self.goal_args_in(c, g, env, host_list_block(c, g));
        } else {
            self.goal_args_each(c, g, env);
        }
        args
    }

    /// [`Machine::goal_args`] of a goal whose compound arguments' templates are one block
    /// (`g.block`): the arguments, then their compound subterms in one block (the layout that
    /// building them one by one makes).
    #[inline(always)]
    pub(super) fn goal_args_block(&mut self, c: &ClauseT, g: &GoalT, env: u32) {
        self.goal_args_in(c, g, env, g.block);
    }

    /// [`Machine::goal_args_block`] with the block `(bp, be)` (a [`GoalT::host_list`] goal's
    /// `block` is not its list's: [`host_list_block`]).
    #[inline(always)]
    pub(super) fn goal_args_in(&mut self, c: &ClauseT, g: &GoalT, env: u32, (bp, be): (u32, u32)) {
        let n = g.args.len();
        let base = self.store.len() + n as u32;
        let heap = &mut self.store.heap;
        if be == bp {
            // no compound argument (the common case): up to four arguments read first, then
            // appended at once (no push, no length update and no growing heap per cell)
            let v = |a: Cell, heap: &[Cell]| match a {
                Cell::Var(s) | Cell::Ref(s) => heap[(env + s) as usize],
                other => {
                    debug_assert!(!matches!(other, Cell::Struct(_) | Cell::List(_)));
                    other
                }
            };
            match *g.args {
                [] => return,
                [a] => {
                    let x = v(a, heap);
                    heap.push(x);
                    return;
                }
                [a, b] => {
                    let x = [v(a, heap), v(b, heap)];
                    heap.extend_from_slice(&x);
                    return;
                }
                [a, b, c] => {
                    let x = [v(a, heap), v(b, heap), v(c, heap)];
                    heap.extend_from_slice(&x);
                    return;
                }
                [a, b, c, d] => {
                    let x = [v(a, heap), v(b, heap), v(c, heap), v(d, heap)];
                    heap.extend_from_slice(&x);
                    return;
                }
                _ => {}
            }
        }
        heap.reserve(n + (be - bp) as usize);
        // each cell pushed once (the environment is below the new cells, so it is read from the
        // heap as it grows)
        for &a in g.args.iter() {
            // an unbound environment cell is `Ref(addr)` itself: the cell is the value
            let v = instantiate(a, heap, env, bp, base);
            heap.push(v);
        }
        for &a in &c.cells[bp as usize..be as usize] {
            let v = instantiate(a, heap, env, bp, base);
            heap.push(v);
        }
    }

    /// [`Machine::goal_args`] of any goal: each argument built in turn.
    #[inline(always)]
    pub(super) fn goal_args_each(&mut self, c: &ClauseT, g: &GoalT, env: u32) {
        let args = self.store.len();
        let n = g.args.len();
        self.store
            .heap
            .extend(std::iter::repeat_n(Cell::Atom(atom::NIL), n));
        for (i, &a) in g.args.iter().enumerate() {
            let v = match a {
                Cell::Var(s) => self.store.heap[(env + s) as usize],
                Cell::Struct(p) | Cell::List(p) => self.build_sub(c, p, a, env),
                other => other,
            };
            self.store.heap[args as usize + i] = v;
        }
    }
}

/// The block of a [`GoalT::host_list`] goal's list (its one argument, a list template: the
/// block `compile::goal_blocks` gave it before `arith_goals` marked it).
#[inline(always)]
pub(super) fn host_list_block(c: &ClauseT, g: &GoalT) -> (u32, u32) {
    match g.args[0] {
        Cell::List(p) => (p, c.ends[p as usize]),
        _ => unreachable!("a host list goal's argument is a list"),
    }
}
