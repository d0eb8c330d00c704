//! Choicepoints: pushing, cutting, restoring heights, and backtracking into them.

use super::*;

#[derive(Clone, Copy, Debug)]
pub(super) enum CpKind {
    Clauses {
        pred: u32,
        list: u32,
        pos: u32,
        args: u32,
    },
    Alt {
        goal: Cell,
    },
    /// The alternative of a disjunction compiled into its clause: node `node` of clause
    /// `(pred, clause)`'s control constructs, environment `env` (a `FrameKind::Sub`).
    AltSub {
        pred: u32,
        clause: u32,
        node: u32,
        env: u32,
    },
    /// A negation whose goal has not succeeded (yet): backtracking into it continues at `next`.
    Not,
    Native {
        f: Builtin,
        args: u32,
        arity: u32,
        state: u64,
        name: Atom,
    },
    Host {
        id: u32,
        args: u32,
        arity: u32,
        state: u64,
        name: Atom,
    },
    Catch {
        catcher: Cell,
        recovery: Cell,
        active: bool,
    },
    Findall {
        id: u32,
        result: Cell,
        tail: Option<Cell>,
    },
    Dead,
    /// Computing every answer of a memoized call (`args`: the call's arguments; the answers may be
    /// those of a generalisation of it, for per-state tables).
    MemoFill {
        fill: u32,
        pred: u32,
        args: u32,
        arity: u32,
    },
    /// Serving the remaining answers of a memo entry.
    MemoServe {
        entry: u32,
        pos: u32,
        args: u32,
        arity: u32,
        /// Argument positions not unified (see [`Machine::serve_memo`]).
        skip: u32,
    },
}

#[derive(Clone, Copy, Debug)]
pub(super) struct ChoicePoint {
    pub(super) kind: CpKind,
    pub(super) heap: u32,
    pub(super) trail: u32,
    pub(super) frames: u32,
    /// Continuation when resumed.
    pub(super) next: u32,
    /// Cut barrier of the resumed goal.
    pub(super) cutb: u32,
}

/// The choicepoint stack, keeping the protection height of [`Machine::step`]: the frame-stack
/// height recorded in the newest choicepoint (frames at or above it may be reused), or 1 (above
/// the `Stop` frame) when there is none.
pub(super) type CpStack = TopStack<ChoicePoint>;

impl Top for ChoicePoint {
    #[inline]
    fn of_top(top: Option<&Self>) -> u64 {
        top.map_or(1, |c| {
            // every frame-stack height is at least 1 (the `Stop` frame)
            debug_assert!(c.frames >= 1);
            u64::from(c.frames)
        })
    }
}

impl Machine {
    #[inline]
    pub(super) fn protected(&self) -> u32 {
        debug_assert_eq!(
            self.cps.top,
            u64::from(self.cps.last().map_or(1, |c| c.frames.max(1)))
        );
        self.cps.top as u32
    }

    #[inline]
    pub(super) fn push_frame(
        &mut self,
        kind: FrameKind,
        cutb: u32,
        next: u32,
    ) -> Result<u32, Fault> {
        if self.frames.len() >= self.limits.max_frames {
            return Err(self.budget("frames", self.limits.max_frames as u64));
        }
        self.frames.push(Frame { kind, cutb, next });
        Ok((self.frames.len() - 1) as u32)
    }

    #[inline]
    pub(super) fn push_cp(&mut self, kind: CpKind, next: u32, cutb: u32) -> Result<(), Fault> {
        let now = self.heights(None);
        self.push_cp_at(kind, now, next, cutb)
    }

    /// Pushes a choicepoint that restores the heap, trail and frame heights `heights`; every
    /// binding from then on is trailed.
    #[inline(always)]
    pub(super) fn push_cp_at(
        &mut self,
        kind: CpKind,
        (heap, trail, frames): (u32, u32, u32),
        next: u32,
        cutb: u32,
    ) -> Result<(), Fault> {
        if self.cps.len() >= self.limits.max_choicepoints {
            return Err(self.budget("choicepoints", self.limits.max_choicepoints as u64));
        }
        self.cps.push(ChoicePoint {
            kind,
            heap,
            trail,
            frames,
            next,
            cutb,
        });
        self.store.mark = heap;
        Ok(())
    }

    /// `marks` (the heights of a retried call's choicepoint), or the heap, trail and frame
    /// heights now.
    #[inline(always)]
    pub(super) fn heights(&self, marks: Option<(u32, u32, u32)>) -> (u32, u32, u32) {
        marks.unwrap_or((
            self.store.len(),
            self.store.trail.len() as u32,
            self.frames.len() as u32,
        ))
    }

    pub(super) fn cut(&mut self, height: u32) {
        let height = height as usize;
        if self.cps.len() <= height {
            return;
        }
        for cp in &self.cps[height..] {
            if let CpKind::Findall { id, .. } = cp.kind {
                self.drop_collectors(id);
                break;
            }
        }
        for cp in &self.cps[height..] {
            if let CpKind::MemoFill { fill, .. } = cp.kind {
                self.fills.truncate(fill as usize);
                break;
            }
        }
        self.cps.truncate(height);
        self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
    }

    /// Restores the heights recorded in choicepoint `i` (which stays on the stack).
    #[inline(always)]
    pub(super) fn restore(&mut self, i: usize, host: &mut dyn Host) {
        let cp = &self.cps[i];
        let (trail, heap, frames) = (cp.trail, cp.heap, cp.frames);
        self.restore_heights(trail, heap, frames, host);
    }

    /// Undoes the trail down to `trail` (reactivating the catchers whose exit it records), and
    /// cuts the heap and the frame stack back to `heap` and `frames`.
    #[inline(always)]
    pub(super) fn restore_heights(
        &mut self,
        trail: u32,
        heap: u32,
        frames: u32,
        host: &mut dyn Host,
    ) {
        // `Store::undo_to`, newest entry first, with the trail cut once at the end
        let st = &mut self.store;
        let n = st.trail.len().min(trail as usize);
        for &e in st.trail[n..].iter().rev() {
            match e {
                TrailEntry::Bind(a) => st.heap[a as usize] = Cell::Ref(a),
                TrailEntry::Value(a, v) => st.heap[a as usize] = v,
                TrailEntry::Host(h) if h & CATCH_FLAG != 0 => {
                    if let Some(ChoicePoint {
                        kind: CpKind::Catch { active, .. },
                        ..
                    }) = self.cps.get_mut((h & !CATCH_FLAG) as usize)
                    {
                        *active = true;
                    }
                }
                TrailEntry::Host(h) => host.undo(h),
            }
        }
        st.trail.truncate(n);
        self.store.heap.truncate(heap as usize);
        self.frames.truncate(frames as usize);
    }

    pub(super) fn pop_cp(&mut self) {
        self.cps.pop();
        self.store.mark = self.cps.last().map_or(self.base, |c| c.heap);
    }

    /// Backtracks to the newest choicepoint with an alternative; `Ok(false)` if none is left.
    ///
    /// The retry of a clause (by far the most frequent choicepoint) is read in place and run
    /// here; every other kind is resumed by [`Machine::resume_other`] (inlined), whose rare and
    /// large parts ([`Machine::seal_fill`], [`Machine::finish_findall`]) are out of line, so that
    /// this function's prologue does not prepare their fields on every call.
    pub(super) fn backtrack(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
    ) -> Result<bool, Fault> {
        loop {
            let Some(cp) = self.cps.last() else {
                return Ok(false);
            };
            let CpKind::Clauses {
                pred,
                list,
                pos,
                args,
            } = cp.kind
            else {
                if self.resume_other(data, host)? {
                    return Ok(true);
                }
                continue;
            };
            let (next, trail, heap, frames) = (cp.next, cp.trail, cp.heap, cp.frames);
            let idx = self.cps.len() - 1;
            self.restore_heights(trail, heap, frames, host);
            let cands = &data.preds[pred as usize].index.lists[list as usize];
            let pos = pos as usize;
            let ci = cands[pos];
            if pos + 1 < cands.len() {
                if let Some(ChoicePoint {
                    kind: CpKind::Clauses { pos: p, .. },
                    ..
                }) = self.cps.v.last_mut()
                {
                    *p = pos as u32 + 1;
                }
            } else {
                self.pop_cp();
            }
            self.inferences += 1;
            if self.inferences > self.limits.max_inferences {
                return Err(self.budget("inferences", self.limits.max_inferences));
            }
            match self.try_clause(data, pred, ci, args, idx as u32, next)? {
                Step::Go => return Ok(true),
                Step::Fail => continue,
                Step::Throw(b) => {
                    self.throw(data, host, *b)?;
                    return Ok(true);
                }
            }
        }
    }

    /// The inference a built-in's or host predicate's retry counts, checked against the budget.
    #[inline(always)]
    fn count_retry(&mut self, name: Atom, arity: u32) -> Result<(), Fault> {
        self.inferences += 1;
        self.last_call = (name, arity);
        if self.inferences > self.limits.max_inferences {
            return Err(self.budget("inferences", self.limits.max_inferences));
        }
        Ok(())
    }

    /// [`Machine::resume_other`]'s answer for a retried call's step.
    #[inline(always)]
    fn retried(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
        step: Step,
    ) -> Result<bool, Fault> {
        match step {
            Step::Go => Ok(true),
            Step::Fail => Ok(false),
            Step::Throw(b) => {
                self.throw(data, host, *b)?;
                Ok(true)
            }
        }
    }

    /// Backtracks into the newest choicepoint, which is not a clause retry: `Ok(true)` when
    /// execution resumes, `Ok(false)` when that choicepoint gave nothing (it is gone; the caller
    /// backtracks further).
    #[inline(always)]
    fn resume_other(&mut self, data: &ProgramData, host: &mut dyn Host) -> Result<bool, Fault> {
        let idx = self.cps.len() - 1;
        let cp = self.cps[idx];
        self.restore(idx, host);
        match cp.kind {
            CpKind::Clauses { .. } => unreachable!("retried above"),
            CpKind::Alt { goal } => {
                self.pop_cp();
                self.cur = self.push_frame(FrameKind::Goal { goal }, cp.cutb, cp.next)?;
                return Ok(true);
            }
            CpKind::AltSub {
                pred,
                clause,
                node,
                env,
            } => {
                self.pop_cp();
                let kind = FrameKind::Sub {
                    pred,
                    clause,
                    node,
                    env,
                };
                self.cur = self.push_frame(kind, cp.cutb, cp.next)?;
                return Ok(true);
            }
            CpKind::Not => {
                // the negated goal failed: the negation succeeds
                self.pop_cp();
                self.cur = cp.next;
                return Ok(true);
            }
            CpKind::Native {
                f,
                args,
                arity,
                state,
                name,
            } => {
                self.pop_cp();
                self.count_retry(name, arity)?;
                let marks = Some((cp.heap, cp.trail, cp.frames));
                let step = self.call_native(f, name, arity, args, cp.next, Some(state), marks)?;
                return self.retried(data, host, step);
            }
            CpKind::Host {
                id,
                args,
                arity,
                state,
                name,
            } => {
                self.pop_cp();
                self.count_retry(name, arity)?;
                let marks = Some((cp.heap, cp.trail, cp.frames));
                let step =
                    self.call_host(host, id, name, arity, args, cp.next, Some(state), marks)?;
                return self.retried(data, host, step);
            }
            CpKind::Catch { .. } | CpKind::Dead => {
                self.pop_cp();
            }
            CpKind::MemoFill {
                fill,
                pred,
                args,
                arity,
            } => {
                self.pop_cp();
                let Some(e) = self.seal_fill(fill, pred, arity) else {
                    return Ok(false);
                };
                match self.serve_memo(e, 0, args, arity, cp.next, None, 0)? {
                    Step::Go => return Ok(true),
                    Step::Fail => return Ok(false),
                    Step::Throw(b) => {
                        self.throw(data, host, *b)?;
                        return Ok(true);
                    }
                }
            }
            CpKind::MemoServe {
                entry,
                pos,
                args,
                arity,
                skip,
            } => {
                let marks = Some((cp.heap, cp.trail, cp.frames));
                // (the choicepoint is popped or moved on by `serve_memo`)
                match self.serve_memo(entry, pos as usize, args, arity, cp.next, marks, skip)? {
                    Step::Go => return Ok(true),
                    Step::Fail => return Ok(false),
                    Step::Throw(b) => {
                        self.throw(data, host, *b)?;
                        return Ok(true);
                    }
                }
            }
            CpKind::Findall { id, result, tail } => {
                self.pop_cp();
                if self.finish_findall(id, result, tail) {
                    self.cur = cp.next;
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The fill `fill` of `pred`'s memo table (arity `arity`) is complete: its answers become a
    /// table entry, whose number is returned (`None`: the fill is gone).
    #[inline(never)]
    fn seal_fill(&mut self, fill: u32, pred: u32, arity: u32) -> Option<u32> {
        self.fills.truncate(fill as usize + 1);
        let mut f = self.fills.pop()?;
        f.answers.seal(arity);
        Some(if f.state {
            let stat = self.state_stats.entry(pred).or_default();
            let k = usize::from(!f.general);
            if !stat.settled() {
                // measured during the trial only: the choice then stays as made
                stat.fills[k] += 1;
                stat.steps[k] += self.inferences - f.start;
                stat.stored[k] += f.answers.len() as u64;
                f.answers.trial = Some((pred, k));
            }
            let e = self.state_entries.len() as u32 | STATE_ENTRY;
            self.state_entries.push(f.answers);
            self.state_table.insert(f.key, e);
            e
        } else {
            self.arg_fill_done(pred, &f);
            let e = self.memo_entries.len() as u32;
            self.memo_entries.push(f.answers);
            self.memo_table.insert(f.key, e);
            e
        })
    }

    /// The last answer of `findall` collector `id` is in: unifies the list of its answers (ending
    /// in `tail`, or `[]`) with `result`.
    #[inline(never)]
    fn finish_findall(&mut self, id: u32, result: Cell, tail: Option<Cell>) -> bool {
        let col = self.collectors.pop().unwrap_or_default();
        debug_assert_eq!(self.collectors.len(), id as usize);
        self.collected_cells -= col.cells.len() + col.roots.len();
        let base = self.store.len();
        self.store
            .heap
            .extend(col.cells.iter().map(|&c| relocate(c, base)));
        let roots: Vec<Cell> = col.roots.iter().map(|&c| relocate(c, base)).collect();
        let tail = tail.unwrap_or(Cell::Atom(atom::NIL));
        let list = self.store.make_list(&roots, tail);
        self.store.unify(list, result)
    }
}
