//! `\+ G` / `not(G)`: decided in place when one dispatch of `G` decides it.

use super::*;
use crate::solve::program::HOST_LIST_MAX;

impl Machine {
    /// `\+ G` and `not(G)` (argument at `args`), out of [`Machine::control`]: by far its most
    /// frequent construct, dispatched to directly.
    #[inline(never)]
    pub(super) fn negation(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let g = self.store.deref(self.store.heap[args as usize]);
        if let Some((name, arity, gargs)) = self.goal_parts(g) {
            let disp = self.resolve_goal(data, name, arity);
            if !matches!(disp, Dispatch::Control(_)) {
                return self.negation_goal(data, host, disp, (name, arity, gargs), cutb, next);
            }
        }
        let h = self.cps.len() as u32;
        let goal = match self.prepare_body(g) {
            Ok(g) => g,
            Err(e) => return Ok(Step::throw(e)),
        };
        self.push_cp(CpKind::Not, next, cutb)?;
        let k = self.push_frame(FrameKind::NotExit { height: h }, cutb, next)?;
        self.cur = self.push_frame(FrameKind::Goal { goal }, h + 1, k)?;
        Ok(Step::Go)
    }

    /// `\+ G` of a goal `G` (`goal`: name, arity, arguments) that is not a control construct
    /// (`disp`): from [`Machine::negation`] and from negations compiled into their clauses
    /// (inlined into both, as it was into the first).
    #[inline(always)]
    pub(super) fn negation_goal(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        disp: Dispatch,
        (name, arity, gargs): (Atom, u32, u32),
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let h = self.cps.len() as u32;
        if matches!(disp, Dispatch::Host(_) | Dispatch::Native(_))
            && self.cps.len() + 1 < self.limits.max_choicepoints
            && self.frames.len() < self.limits.max_frames
        {
            return self.not_direct(data, host, disp, (name, arity, gargs), cutb, next);
        }
        if let Dispatch::User(p) = disp {
            // an argument-memo call whose table entry is filled: decided by whether the entry
            // has an answer, with the inference counted as `dispatch` counts it. Only when
            // the general path below could not end otherwise: no profile count or budget
            // check due (`check_at`, `heap_at`), no garbage collection or memo fill abort
            // due at its exit frame (`gc_at`, `overdue`), room for its choicepoint and frame
            if self.inferences < self.check_at
                && self.store.heap.len() <= self.heap_at.min(self.gc_at)
                && !self.fills.overdue(self.inferences + 1)
                && self.cps.len() + 1 < self.limits.max_choicepoints
                && self.frames.len() < self.limits.max_frames
            {
                if let Some(found) = self.memo_answer_exists(data, p, gargs, arity) {
                    self.inferences += 1;
                    self.last_call = (name, arity);
                    if found {
                        return Ok(Step::Fail);
                    }
                    self.cur = next;
                    return Ok(Step::Go);
                }
            }
        }
        // a plain goal: dispatched here, as the goal frame of the general path of
        // `negation` would (same cut barrier, continuation and current frame)
        self.push_cp(CpKind::Not, next, cutb)?;
        let k = self.push_frame(FrameKind::NotExit { height: h }, cutb, next)?;
        self.cur = k + 1;
        let r = self.dispatch_nested(data, host, disp, name, arity, gargs, h + 1, k)?;
        Ok(self.not_outcome(r, h, k, next, host))
    }

    /// A direct negation that must go on as the general path (a collection or a memo fill is
    /// due): its exit frame (choicepoint height `h`) is pushed and the goal resumes at frame `k`.
    #[cold]
    fn exit_not_later(&mut self, h: u32, cutb: u32, next: u32, heap: u32, k: u32) {
        self.frames.push(Frame {
            kind: FrameKind::NotExit { height: h },
            cutb,
            next,
        });
        self.store.mark = heap;
        self.cur = k;
    }

    /// `\+ G` for a host or native predicate `G` (`goal`: name, arity, arguments), called without
    /// the negation's choicepoint and exit frame of the general path: such a call is decided at
    /// once (it fails, succeeds, possibly leaving one retry choicepoint, or throws). Exact: the
    /// caller checked that the budgets of that path's choicepoint and frame (and of a retry
    /// choicepoint above them) hold, the call sees the same inference count, current frame (the
    /// height the exit frame would have had is the frame stack's, so the call path is the same)
    /// and trailing mark, and
    /// - failure undoes what the call did and continues at `next`, as backtracking into the
    ///   negation's choicepoint does;
    /// - success removes the retry choicepoint and fails, as the exit frame's step does; when
    ///   that step would first collect garbage or abort a memo fill, the general path's state is
    ///   made instead (its choicepoint under the retry one, which gets that path's heights, and
    ///   its exit frame) and the step runs it;
    /// - an exception undoes what the call did, as unwinding through the negation's choicepoint
    ///   does first.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn not_direct(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        disp: Dispatch,
        (name, arity, gargs): (Atom, u32, u32),
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let h = self.cps.len() as u32;
        let k = self.frames.len() as u32;
        let (heap, trail) = (self.store.len(), self.store.trail.len() as u32);
        match disp {
            Dispatch::Host(id) => {
                let goal = (id, name, arity, gargs);
                if let Some(r) = self.not_host_list(data, host, goal, (heap, trail, k), cutb, next)
                {
                    return r;
                }
            }
            // `\+ A = B`: the built-in `=/2` (it only unifies), called in place, counted as
            // `dispatch` counts it (only where no profile count, budget check or heap check is
            // due at it), its bindings trailed with the mark `call_native` sets
            Dispatch::Native(_)
                if name == atom::EQUALS
                    && arity == 2
                    && self.inferences < self.check_at
                    && self.store.heap.len() <= self.heap_at =>
            {
                self.inferences += 1;
                self.last_call = (name, arity);
                self.cur = k;
                let saved_mark = self.store.mark;
                self.store.mark = heap;
                let (a, b) = (
                    self.store.heap[gargs as usize],
                    self.store.heap[gargs as usize + 1],
                );
                let found = self.store.unify(a, b);
                self.store.mark = saved_mark;
                return Ok(self.not_decided(found, None, (heap, trail, k), cutb, next, host));
            }
            _ => {}
        }
        self.cur = k;
        match self.dispatch_nested(data, host, disp, name, arity, gargs, h + 1, k)? {
            Step::Go => {
                debug_assert!(self.cur == k && self.cps.len() <= h as usize + 1);
                if self.store.heap.len() > self.gc_at || self.fills.overdue(self.inferences) {
                    let not = ChoicePoint {
                        kind: CpKind::Not,
                        heap,
                        trail,
                        frames: k,
                        next,
                        cutb,
                    };
                    // (the retry choicepoint is changed before the insertion, which updates the
                    // stack's protection height from the top)
                    if let Some(retry) = self.cps.get_mut(h as usize) {
                        retry.frames = k + 1;
                        retry.next = k;
                    }
                    self.cps.insert(h as usize, not);
                    self.exit_not_later(h, cutb, next, heap, k);
                    return Ok(Step::Go);
                }
                if self.cps.len() > h as usize {
                    self.pop_cp();
                }
                Ok(Step::Fail)
            }
            Step::Fail => {
                debug_assert!(self.cps.len() == h as usize);
                self.restore_heights(trail, heap, k, host);
                self.cur = next;
                Ok(Step::Go)
            }
            Step::Throw(b) => {
                self.restore_heights(trail, heap, k, host);
                Ok(Step::Throw(b))
            }
        }
    }

    /// [`Machine::not_direct`] of a host predicate `id` that takes its list's elements
    /// (`ProgramData::list_hosts`) called with one argument, a proper list
    /// of at most [`HOST_LIST_MAX`] elements each atomic or unbound, when the host answers it by
    /// [`Host::call_list`] (as [`Machine::host_list`] answers a body goal `fact([..])`): the host
    /// finds the same answer, bindings and effects from the elements as from the list, without
    /// copying the arguments or walking the list again. `None`: nothing was done (the caller
    /// dispatches as before). What `dispatch` does around the call is done here: the inference
    /// counted under the goal's name, taken only when neither a profile count or budget check nor
    /// a heap check is due at it; the bindings trailed with the mark `call_host` sets; and after
    /// success, when the exit frame's step would first collect garbage or abort a memo fill, the
    /// state of the general path (the negation's choicepoint, the retry choicepoint `call_host`
    /// would push, the exit frame), as [`Machine::not_direct`] makes it.
    #[inline]
    fn not_host_list(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        (id, name, arity, gargs): (u32, Atom, u32, u32),
        (heap, trail, k): (u32, u32, u32),
        cutb: u32,
        next: u32,
    ) -> Option<Result<Step, Fault>> {
        if arity != 1
            || id >= 64
            || data.list_hosts & (1 << id) == 0
            || self.inferences >= self.check_at
            || self.store.heap.len() > self.heap_at
        {
            return None;
        }
        let mut elems = [Cell::Atom(atom::NIL); HOST_LIST_MAX];
        let mut n = 0;
        let mut t = self.store.deref(self.store.heap[gargs as usize]);
        while let Cell::List(p) = t {
            let e = self.store.deref(self.store.heap[p as usize]);
            if n == HOST_LIST_MAX || !(e.is_atomic() || matches!(e, Cell::Ref(_))) {
                return None;
            }
            elems[n] = e;
            n += 1;
            t = self.store.deref(self.store.heap[p as usize + 1]);
        }
        if n == 0 || !matches!(t, Cell::Atom(a) if a == atom::NIL) {
            return None;
        }
        let saved_mark = self.store.mark;
        self.store.mark = heap;
        self.cur = k;
        let Some(r) = host.call_list(id, &mut self.store, &elems[..n]) else {
            self.store.mark = saved_mark;
            return None;
        };
        self.inferences += 1;
        self.last_call = (name, arity);
        self.store.mark = saved_mark;
        let hk = (heap, trail, k);
        Some(match r {
            Det::True => Ok(self.not_decided(true, None, hk, cutb, next, host)),
            Det::Retry(state) => {
                let retry = CpKind::Host {
                    id,
                    args: gargs,
                    arity,
                    state,
                    name,
                };
                Ok(self.not_decided(true, Some(retry), hk, cutb, next, host))
            }
            Det::Fail => Ok(self.not_decided(false, None, hk, cutb, next, host)),
        })
    }

    /// `\+ G` compiled into its clause (`SubGoal::Not`, after `\+` was counted) where `G` is a
    /// host-list goal `g` (`fact([E1, ..., En])` written out in the clause): what
    /// [`Machine::not_host_list`] does with the list that `Machine::goal_args` would build, done
    /// with the elements taken from the clause's environment `env` (as `Machine::host_list` takes
    /// them), so that the list is not built. The same checks (room for the negation's
    /// choicepoint and exit frame, no budget check or profile count due, the heap the list would
    /// take within the heap budget), the same call, count and outcome. `None`: nothing was done.
    /// After a success that leaves a retry state, when the exit frame's step would first collect
    /// garbage or abort a memo fill, the list is built above the call's heap (the retry
    /// choicepoint keeps it) and the general path's state is made, as `not_decided` makes it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn not_host_env(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        _c: &ClauseT,
        g: &GoalT,
        env: u32,
        cutb: u32,
        next: u32,
    ) -> Option<Result<Step, Fault>> {
        let Dispatch::Host(id) = g.disp else {
            return None;
        };
        if g.arity != 1
            || id >= 64
            || data.list_hosts & (1 << id) == 0
            || self.inferences >= self.check_at
            || self.store.heap.len() + 1 + g.block.1 as usize > self.heap_at
            || self.cps.len() + 1 >= self.limits.max_choicepoints
            || self.frames.len() >= self.limits.max_frames
        {
            return None;
        }
        // the elements: the site's constants, and its variables' values (as `host_list` takes
        // them; the site was made from the same template at load time)
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
        let k = self.frames.len() as u32;
        let (heap, trail) = (self.store.len(), self.store.trail.len() as u32);
        let (saved_mark, saved_cur) = (self.store.mark, self.cur);
        self.store.mark = heap;
        self.cur = k;
        let Some(r) = host.call_site(id, &mut self.store, &elems[..n], &site.keys) else {
            self.store.mark = saved_mark;
            self.cur = saved_cur;
            return None;
        };
        self.inferences += 1;
        self.last_call = (g.name, g.arity);
        self.store.mark = saved_mark;
        let hk = (heap, trail, k);
        Some(Ok(match r {
            Det::True => self.not_decided(true, None, hk, cutb, next, host),
            Det::Fail => self.not_decided(false, None, hk, cutb, next, host),
            Det::Retry(state)
                if self.store.heap.len() > self.gc_at || self.fills.overdue(self.inferences) =>
            {
                // the retry's argument: the list of the elements as they were before the call
                let args = self.store.len();
                let cells = &mut self.store.heap;
                cells.push(Cell::List(args + 1));
                for (i, &e) in elems[..n].iter().enumerate() {
                    cells.push(e);
                    cells.push(if i + 1 < n {
                        Cell::List(args + 3 + 2 * i as u32)
                    } else {
                        Cell::Atom(atom::NIL)
                    });
                }
                let top = self.store.len();
                let h = self.cps.len() as u32;
                self.cps.push(ChoicePoint {
                    kind: CpKind::Not,
                    heap,
                    trail,
                    frames: k,
                    next,
                    cutb,
                });
                self.cps.push(ChoicePoint {
                    kind: CpKind::Host {
                        id,
                        args,
                        arity: 1,
                        state,
                        name: g.name,
                    },
                    heap: top,
                    trail,
                    frames: k + 1,
                    next: k,
                    cutb: 0,
                });
                self.exit_not_later(h, cutb, next, heap, k);
                Step::Go
            }
            Det::Retry(_) => {
                // (as `not_decided` of a success leaving a retry choicepoint)
                self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
                Step::Fail
            }
        }))
    }

    /// `\+ A = B` compiled into its clause (`SubGoal::Not`, after `\+` was counted) where `A`
    /// and `B` are variables or atomic constants (`compile::eq_of_simple`; not checked before
    /// for the negations inside control constructs): what [`Machine::not_direct`] does with the
    /// goal term that `Machine::goal_args` would build, done with the two cells taken from the
    /// clause's environment (the cells that term would hold), so that the term is not built.
    /// Only where the general path could not end otherwise (as for the negated memo calls of
    /// `run_sub`): no profile count or budget check due, room in the heap for the goal term
    /// below the heap budget and the next collection, no memo fill abort due at the exit frame,
    /// room for the negation's choicepoint and frame. `=` is counted as `not_direct` counts it,
    /// its bindings trailed with the mark `call_native` sets and undone as there. `None`:
    /// nothing was done.
    #[inline(never)]
    pub(super) fn not_eq_env(
        &mut self,
        host: &mut dyn Host,
        g: &GoalT,
        env: u32,
        cutb: u32,
        next: u32,
    ) -> Option<Step> {
        let (x, y) = match *g.args {
            [x, y] => (x, y),
            _ => return None,
        };
        if !matches!(g.disp, Dispatch::Native(_))
            || matches!(x, Cell::Struct(_) | Cell::List(_))
            || matches!(y, Cell::Struct(_) | Cell::List(_))
            || self.inferences >= self.check_at
            || self.store.heap.len() + g.arity as usize + 2 > self.heap_at.min(self.gc_at)
            || self.fills.overdue(self.inferences + 1)
            || self.cps.len() + 1 >= self.limits.max_choicepoints
            || self.frames.len() >= self.limits.max_frames
        {
            return None;
        }
        let heap_cells = &self.store.heap;
        let cell = |t: Cell| match t {
            Cell::Var(s) | Cell::Ref(s) => heap_cells[(env + s) as usize],
            t => t,
        };
        let (a, b) = (cell(x), cell(y));
        let k = self.frames.len() as u32;
        let (heap, trail) = (self.store.len(), self.store.trail.len() as u32);
        self.inferences += 1;
        self.last_call = (g.name, g.arity);
        self.cur = k;
        let saved_mark = self.store.mark;
        self.store.mark = heap;
        let found = self.store.unify(a, b);
        self.store.mark = saved_mark;
        Some(self.not_decided(found, None, (heap, trail, k), cutb, next, host))
    }

    /// The end of a negated goal called in place by [`Machine::not_direct`] (heights `heap`,
    /// `trail`, `k` from before the call, the mark restored) that was decided at once: `found`,
    /// it succeeded (leaving choicepoint `retry` if `Some`, not pushed), or it failed.
    /// - Failure undoes what the call did and continues at `next`, as backtracking into the
    ///   negation's choicepoint does.
    /// - Success fails, as the exit frame's step does (the mark left as pushing and popping
    ///   `retry` leaves it); when that step would first collect garbage or abort a memo fill, the
    ///   general path's state is made instead (its choicepoint, `retry` above it with that path's
    ///   heights, its exit frame as the current frame) and the step runs it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn not_decided(
        &mut self,
        found: bool,
        retry: Option<CpKind>,
        (heap, trail, k): (u32, u32, u32),
        cutb: u32,
        next: u32,
        host: &mut dyn Host,
    ) -> Step {
        if !found {
            self.restore_heights(trail, heap, k, host);
            self.cur = next;
            return Step::Go;
        }
        if self.store.heap.len() > self.gc_at || self.fills.overdue(self.inferences) {
            let h = self.cps.len() as u32;
            self.cps.push(ChoicePoint {
                kind: CpKind::Not,
                heap,
                trail,
                frames: k,
                next,
                cutb,
            });
            if let Some(kind) = retry {
                self.cps.push(ChoicePoint {
                    kind,
                    heap,
                    trail,
                    frames: k + 1,
                    next: k,
                    cutb: 0,
                });
            }
            self.exit_not_later(h, cutb, next, heap, k);
            return Step::Go;
        }
        if retry.is_some() {
            self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
        }
        Step::Fail
    }

    /// The outcome `r` of dispatching a negated plain goal in place (negation choicepoint at
    /// `h`, exit frame `k`, continuation `next`), finished here when the goal was decided by that
    /// one dispatch, as the machine would finish it next:
    /// - it succeeded (the continuation is the exit frame): what the exit frame's step does, if
    ///   that step would do nothing before it (no garbage collection, no memo fill to abort);
    /// - it failed leaving no choicepoint of its own: what backtracking into the negation's
    ///   choicepoint does (undo the goal's bindings, continue at `next`).
    ///
    /// Anything else (choicepoints left, more goals to run, an exception) is returned as is.
    #[inline]
    pub(super) fn not_outcome(
        &mut self,
        r: Step,
        h: u32,
        k: u32,
        next: u32,
        host: &mut dyn Host,
    ) -> Step {
        match r {
            Step::Go if self.cur == k => {
                if self.store.heap.len() > self.gc_at || self.fills.overdue(self.inferences) {
                    return r;
                }
                if self.cps.len() == h as usize + 1 {
                    self.pop_cp();
                } else {
                    self.cut(h);
                }
                Step::Fail
            }
            Step::Fail if self.cps.len() == h as usize + 1 => {
                self.restore(h as usize, host);
                self.pop_cp();
                self.cur = next;
                Step::Go
            }
            r => r,
        }
    }
}
