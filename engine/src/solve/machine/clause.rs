//! Calling a user predicate: candidate clauses by first-argument index, head unification
//! against the clause templates, and building body goal arguments from them.

use super::*;

/// How deep [`Machine::unify_head_struct`] recurses into nested head compounds before it hands
/// the rest to the work stack of [`Machine::unify_head`].
const HEAD_DEPTH: u32 = 16;

impl Machine {
    /// Copies the template subtree rooted at `root` (a compound starting at `p`) onto the heap.
    pub(super) fn build_sub(&mut self, c: &ClauseT, p: u32, root: Cell, env: u32) -> Cell {
        let end = c.ends[p as usize];
        let base = self.store.len();
        let heap = &mut self.store.heap;
        heap.reserve((end - p) as usize);
        // each cell pushed once: the environment is older than the copy, so it is read from the
        // part below `base`
        for &cell in &c.cells[p as usize..end as usize] {
            let v = instantiate(cell, heap, env, p, base);
            heap.push(v);
        }
        match root {
            Cell::Struct(_) => Cell::Struct(base),
            _ => Cell::List(base),
        }
    }

    /// Unifies the clause variable at heap address `addr` (in the clause's fresh environment)
    /// with heap cell `h`: a first occurrence takes `h`'s value without trailing (the environment
    /// is newer than every choicepoint), a later one unifies.
    #[inline]
    pub(super) fn unify_head_var(&mut self, addr: u32, h: Cell) -> bool {
        let cur = self.store.heap[addr as usize];
        if cur == Cell::Ref(addr) {
            let hd = self.store.deref(h);
            if hd != Cell::Ref(addr) {
                self.store.heap[addr as usize] = hd;
            }
            true
        } else {
            self.store.unify(cur, h)
        }
    }

    /// The first occurrence of a clause variable in the head (a `Ref(slot)` template cell): its
    /// environment cell at `addr` is unbound and referenced by nothing yet, so it takes `h`'s value.
    #[inline]
    pub(super) fn head_first_var(&mut self, addr: u32, h: Cell) {
        let hd = self.store.deref(h);
        self.store.heap[addr as usize] = hd;
    }

    /// Unifies atomic head template cell `t` with heap cell `h`.
    #[inline]
    pub(super) fn unify_head_const(&mut self, t: Cell, h: Cell) -> bool {
        match (t, self.store.deref(h)) {
            (_, Cell::Ref(x)) => {
                self.store.bind(x, t);
                true
            }
            (Cell::Float(a), Cell::Float(b)) => a.to_bits() == b.to_bits(),
            (_, hd) => hd == t,
        }
    }

    /// Unifies the head list template starting at `p` with heap cell `h`, walking both spines
    /// without the work stack of [`Machine::unify_head`] (in the same order: each element before
    /// the rest of the list). Inlined into the clause try (the common case of list heads).
    #[inline(always)]
    pub(super) fn unify_head_list(
        &mut self,
        c: &ClauseT,
        mut p: u32,
        mut h: Cell,
        env: u32,
    ) -> bool {
        loop {
            let q = match self.store.deref(h) {
                Cell::List(q) => q,
                // an unbound variable: build the rest of the list (write mode)
                Cell::Ref(x) => {
                    let v = self.build_sub(c, p, Cell::List(p), env);
                    self.store.bind(x, v);
                    return true;
                }
                _ => return false,
            };
            let &[head, tail] = &c.cells[p as usize..p as usize + 2] else {
                unreachable!("a list cell has a head and a tail")
            };
            let x = self.store.heap[q as usize];
            let ok = match head {
                Cell::Ref(s) => {
                    self.head_first_var(env + s, x);
                    true
                }
                Cell::Var(s) => self.unify_head_var(env + s, x),
                Cell::Struct(_) | Cell::List(_) => self.unify_head(c, head, x, env),
                constant => self.unify_head_const(constant, x),
            };
            if !ok {
                return false;
            }
            let rest = self.store.heap[q as usize + 1];
            match tail {
                Cell::List(p2) => {
                    p = p2;
                    h = rest;
                }
                Cell::Ref(s) => {
                    self.head_first_var(env + s, rest);
                    return true;
                }
                Cell::Var(s) => return self.unify_head_var(env + s, rest),
                Cell::Struct(_) => return self.unify_head(c, tail, rest, env),
                constant => return self.unify_head_const(constant, rest),
            }
        }
    }

    /// Unifies the head compound template at `p` (a `Struct(p)` template cell) with heap cell
    /// `h`: its arguments one by one, without the work stack of [`Machine::unify_head`], in the
    /// same order (preorder, left to right). Nested compounds recurse, `depth` deep at most
    /// [`HEAD_DEPTH`]; deeper ones (and compounds in lists) go to [`Machine::unify_head`].
    pub(super) fn unify_head_struct(
        &mut self,
        c: &ClauseT,
        p: u32,
        h: Cell,
        env: u32,
        depth: u32,
    ) -> bool {
        let q = match self.store.deref(h) {
            Cell::Struct(q) => q,
            // an unbound variable: build the compound (write mode)
            Cell::Ref(x) => {
                let v = self.build_sub(c, p, Cell::Struct(p), env);
                self.store.bind(x, v);
                return true;
            }
            _ => return false,
        };
        let f = c.cells[p as usize];
        if self.store.heap[q as usize] != f {
            return false;
        }
        let Cell::Functor(_, n) = f else {
            unreachable!("a compound template starts with its functor")
        };
        let (p, q) = (p as usize, q as usize);
        for i in 1..=n as usize {
            let t = c.cells[p + i];
            let x = self.store.heap[q + i];
            let ok = match t {
                Cell::Ref(s) => {
                    self.head_first_var(env + s, x);
                    true
                }
                Cell::Var(s) => self.unify_head_var(env + s, x),
                Cell::List(p2) => self.unify_head_list(c, p2, x, env),
                Cell::Struct(p2) if depth < HEAD_DEPTH => {
                    self.unify_head_struct(c, p2, x, env, depth + 1)
                }
                Cell::Struct(_) => self.unify_head(c, t, x, env),
                constant => self.unify_head_const(constant, x),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// [`Machine::unify_head_struct`] for a head argument marked in [`ClauseT::flat`] (a compound
    /// whose own arguments are variables and atomic constants): the same steps in the same order
    /// (the functor, then each argument: a first occurrence takes its value, a later one or a
    /// constant unifies), in one loop without the nested cases, inlined into the clause try.
    #[inline(always)]
    pub(super) fn unify_head_flat(&mut self, c: &ClauseT, p: u32, h: Cell, env: u32) -> bool {
        let q = match self.store.deref(h) {
            Cell::Struct(q) => q as usize,
            // an unbound variable: build the compound (write mode)
            Cell::Ref(x) => {
                let v = self.build_sub(c, p, Cell::Struct(p), env);
                self.store.bind(x, v);
                return true;
            }
            _ => return false,
        };
        let f = c.cells[p as usize];
        if self.store.heap[q] != f {
            return false;
        }
        let Cell::Functor(_, n) = f else {
            unreachable!("a compound template starts with its functor")
        };
        let p = p as usize;
        for (k, &t) in c.cells[p + 1..=p + n as usize].iter().enumerate() {
            let x = self.store.heap[q + 1 + k];
            match t {
                Cell::Ref(s) => self.head_first_var(env + s, x),
                Cell::Var(s) => {
                    if !self.unify_head_var(env + s, x) {
                        return false;
                    }
                }
                constant => {
                    if !self.unify_head_const(constant, x) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Unifies clause head argument template `t` with heap cell `h`.
    pub(super) fn unify_head(&mut self, c: &ClauseT, t: Cell, h: Cell, env: u32) -> bool {
        let mut stack = std::mem::take(&mut self.ustack);
        stack.clear();
        stack.push((t, h));
        let mut ok = true;
        while let Some((t, h)) = stack.pop() {
            match t {
                Cell::Ref(s) => self.head_first_var(env + s, h),
                Cell::Var(s) => {
                    if !self.unify_head_var(env + s, h) {
                        ok = false;
                        break;
                    }
                }
                Cell::Struct(p) => match self.store.deref(h) {
                    Cell::Ref(x) => {
                        let v = self.build_sub(c, p, t, env);
                        self.store.bind(x, v);
                    }
                    Cell::Struct(q) => {
                        let Cell::Functor(fname, n) = c.cells[p as usize] else {
                            unreachable!()
                        };
                        if self.store.heap[q as usize] != Cell::Functor(fname, n) {
                            ok = false;
                            break;
                        }
                        for i in (1..=n).rev() {
                            stack.push((
                                c.cells[(p + i) as usize],
                                self.store.heap[(q + i) as usize],
                            ));
                        }
                    }
                    _ => {
                        ok = false;
                        break;
                    }
                },
                Cell::List(p) => match self.store.deref(h) {
                    Cell::Ref(x) => {
                        let v = self.build_sub(c, p, t, env);
                        self.store.bind(x, v);
                    }
                    Cell::List(q) => {
                        stack.push((c.cells[p as usize + 1], self.store.heap[q as usize + 1]));
                        stack.push((c.cells[p as usize], self.store.heap[q as usize]));
                    }
                    _ => {
                        ok = false;
                        break;
                    }
                },
                constant => match self.store.deref(h) {
                    Cell::Ref(x) => self.store.bind(x, constant),
                    hd => {
                        let same = match (constant, hd) {
                            (Cell::Float(a), Cell::Float(b)) => a.to_bits() == b.to_bits(),
                            (a, b) => a == b,
                        };
                        if !same {
                            ok = false;
                            break;
                        }
                    }
                },
            }
        }
        stack.clear();
        self.ustack = stack;
        ok
    }

    pub(super) fn call_user(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let pred = &data.preds[p as usize];
        if pred.library {
            self.note_library_caller(data);
        }
        // without first-argument keys every list is all clauses (see `Pred::build_index`)
        let first = if arity > 0 && pred.index.lists.len() > 2 {
            let c = self.store.deref(self.store.heap[args as usize]);
            Key::of_cell(c, |q| self.store.heap[q as usize])
        } else {
            None
        };
        let list = pred.candidates(first);
        let cands = &pred.index.lists[list as usize];
        if cands.is_empty() {
            return Ok(Step::Fail);
        }
        let height = self.cps.len() as u32;
        if cands.len() > 1 {
            self.push_cp(
                CpKind::Clauses {
                    pred: p,
                    list,
                    pos: 1,
                    args,
                },
                next,
                height,
            )?;
        }
        self.enter_clause(data, p, cands[0], args, height, next)
    }

    /// Records the clause of the game calling a library predicate ([`Machine::library_caller`]).
    fn note_library_caller(&mut self, data: &ProgramData) {
        if let Some((q, c)) = self
            .last_clause
            .filter(|&(q, _)| !data.preds[q as usize].library)
        {
            self.library_caller = Some((q, c));
        }
    }

    /// Tries clause `ci` of predicate `p` on the call's arguments at `args` (for a retry, from
    /// [`Machine::backtrack`], where it is inlined too).
    #[inline(always)]
    pub(super) fn try_clause(
        &mut self,
        data: &ProgramData,
        p: u32,
        ci: u32,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        self.enter_clause(data, p, ci, args, cutb, next)
    }

    /// [`Machine::try_clause`], inlined into [`Machine::call_user`] (a call's first clause): the
    /// environment, the head arguments, the body's frame.
    #[inline(always)]
    fn enter_clause(
        &mut self,
        data: &ProgramData,
        p: u32,
        ci: u32,
        args: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let c: &ClauseT = &data.preds[p as usize].clauses[ci as usize];
        let env = self.store.len();
        self.store.heap.extend((env..env + c.nvars).map(Cell::Ref));
        // the leading first occurrences: they bind nothing (`compile::head_lead`)
        let mut lead = c.lead;
        for _ in 0..c.lead_n {
            let (i, s) = ((lead & 0xff) as u32, ((lead >> 8) & 0xff) as u32);
            lead >>= 16;
            let h = self.store.heap[(args + i) as usize];
            self.head_first_var(env + s, h);
        }
        for i in c.lead_end as usize..c.head_args.len() {
            let t = c.head_args[i];
            let h = self.store.heap[args as usize + i];
            // variables and constants here, compounds in `unify_head`
            let ok = match t {
                Cell::Ref(s) => {
                    self.head_first_var(env + s, h);
                    true
                }
                // `compile::VOID_ARG`: a variable met nowhere else
                Cell::Functor(..) => true,
                Cell::Var(s) => self.unify_head_var(env + s, h),
                Cell::List(p) => self.unify_head_list(c, p, h, env),
                Cell::Struct(p) if c.flat >> i & 1 != 0 => self.unify_head_flat(c, p, h, env),
                Cell::Struct(p) => self.unify_head_struct(c, p, h, env, 0),
                constant => self.unify_head_const(constant, h),
            };
            if !ok {
                return Ok(Step::Fail);
            }
        }
        if c.body.is_empty() {
            self.cur = next;
        } else {
            self.cur = self.push_frame(
                FrameKind::Body {
                    pred: p,
                    clause: ci,
                    pc: 0,
                    env,
                },
                cutb,
                next,
            )?;
        }
        Ok(Step::Go)
    }
}
