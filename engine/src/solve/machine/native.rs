//! Calls of native built-ins and host predicates (with their retry choicepoints).

use super::*;

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
    ) -> Result<Step, SolveError> {
        let (saved_mark, (heap, trail, frames)) = self.begin_call(marks);
        let r = self.with_args(args, arity, |m, buf| {
            f(
                &mut Ctx {
                    store: &mut m.store,
                    rng: &mut m.rng,
                },
                buf,
                redo,
            )
        });
        let retry = |state| CpKind::Native {
            f,
            args,
            arity,
            state,
            name,
        };
        self.finish_call(r, retry, saved_mark, (heap, trail, frames), next)
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
    ) -> Result<Step, SolveError> {
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
                Ok(Step::Throw(ball))
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
    ) -> Result<Step, SolveError> {
        let (saved_mark, (heap, trail, frames)) = self.begin_call(marks);
        let r = self.with_args(args, arity, |m, buf| {
            host.call(id, &mut m.store, &mut m.rng, buf, redo)
        });
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
