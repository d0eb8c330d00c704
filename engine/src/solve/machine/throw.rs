//! Errors of a query ([`SolveError`]) and exceptions: unwinding to a `catch/3`, the call path.

use super::*;

/// Why a query stopped with an error.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    /// An exception nobody caught; the ball is in [`SolveError::ball`].
    Uncaught,
    /// A budget of [`Limits`] was exhausted (not catchable by the program).
    Budget(&'static str),
}

/// A query that ended in an error.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveError {
    pub kind: ErrorKind,
    /// The thrown term (for budgets: `error(resource_error(Limit), context(PI, _))`).
    pub ball: Term,
    /// A readable message.
    pub message: String,
    /// The predicate being run when the error happened.
    pub predicate: Option<(Atom, u32)>,
    /// The call path from the query to the failing call, outermost first (user predicates only).
    pub path: Vec<(Atom, u32)>,
    /// For each predicate of `path`, the span of its clause being run (`None`: a library clause).
    pub path_spans: Box<[Option<crate::diag::Span>]>,
}

/// A [`SolveError`] as the machine passes it around: boxed, so that the results of its steps stay
/// small (see `Step`).
pub(super) type Fault = Box<SolveError>;

impl SolveError {
    /// Source span of the innermost clause of the program (not of the library) on the call path:
    /// the clause whose goal raised the error, or that called the library predicate that did.
    pub fn span(&self) -> Option<crate::diag::Span> {
        self.path_spans.iter().rev().find_map(|s| *s)
    }
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Machine {
    pub(super) fn error_info(&self, ball: Term) -> SolveError {
        let (path, path_spans) = self.call_path();
        SolveError {
            kind: ErrorKind::Uncaught,
            message: crate::solve::describe_error(&ball),
            ball,
            predicate: Some(self.last_call),
            path,
            path_spans: path_spans.into(),
        }
    }

    /// The user predicates on the continuation chain (outermost first), each with the span of its
    /// clause being run (`None` for a library clause), from the clause being run outwards.
    #[allow(clippy::type_complexity)]
    pub(super) fn call_path(&self) -> (Vec<(Atom, u32)>, Vec<Option<crate::diag::Span>>) {
        let data = &self.prog.0;
        let at = |p: u32, c: u32| {
            let pr = &data.preds[p as usize];
            (
                (pr.name, pr.arity),
                (!pr.library).then(|| pr.clauses[c as usize].span),
            )
        };
        let mut path = Vec::new();
        let mut spans = Vec::new();
        let mut f = self.cur;
        if let Some((p, c)) = self.last_clause {
            let (key, span) = at(p, c);
            path.push(key);
            spans.push(span);
            f = self.last_next;
        }
        let mut guard = 0;
        while f != NO_FRAME && (f as usize) < self.frames.len() && guard < 64 {
            let fr = self.frames[f as usize];
            if let FrameKind::Body { pred, clause, .. } = fr.kind {
                let (key, span) = at(pred, clause);
                if path.last() != Some(&key) {
                    path.push(key);
                    spans.push(span);
                }
            }
            f = fr.next;
            guard += 1;
        }
        if let (true, Some((p, c))) = (spans.iter().all(Option::is_none), self.library_caller) {
            let (key, span) = at(p, c);
            path.push(key);
            spans.push(span);
        }
        path.reverse();
        spans.reverse();
        (path, spans)
    }

    /// Unwinds to the newest active catcher that unifies with `ball`.
    pub(super) fn throw(
        &mut self,
        _data: &ProgramData,
        host: &mut dyn Host,
        ball: Term,
    ) -> Result<(), Fault> {
        let ball = self.add_context(ball);
        let info = self.error_info(ball.clone());
        if super::super::errors::uncatchable(&info.ball) {
            return Err(Box::new(info));
        }
        while let Some(&cp) = self.cps.last() {
            let idx = self.cps.len() - 1;
            self.restore(idx, host);
            self.pop_cp();
            match cp.kind {
                CpKind::Findall { id, .. } => self.drop_collectors(id),
                CpKind::MemoFill {
                    fill,
                    pred,
                    args,
                    arity,
                    ..
                } => {
                    // the exception came from computing every answer: call the predicate directly
                    // instead, so that it surfaces (or not) exactly as without memoization. An
                    // argument-keyed entry depends on its arguments only: that key is called
                    // directly from now on, the predicate's other keys stay memoized.
                    self.fills.truncate(fill as usize + 1);
                    match self.fills.pop() {
                        Some(f) if !f.state => {
                            self.memo_table.insert(f.key, MEMO_THROWS);
                        }
                        _ => {
                            self.no_memo.insert(pred);
                        }
                    }
                    let p = &_data.preds[pred as usize];
                    let argv: Vec<Cell> =
                        self.store.heap[args as usize..(args + arity) as usize].to_vec();
                    let goal = self.store.make_compound(p.name, &argv);
                    let h = self.cps.len() as u32;
                    self.cur = self.push_frame(FrameKind::Goal { goal }, h, cp.next)?;
                    return Ok(());
                }
                CpKind::Catch {
                    catcher,
                    recovery,
                    active: true,
                } => {
                    let trail = self.store.trail.len();
                    let saved = self.store.mark;
                    self.store.mark = self.store.len();
                    let b = self.store.build(&ball, &mut Vec::new());
                    if self.store.unify(catcher, b) {
                        self.store.mark = saved;
                        let h = self.cps.len() as u32;
                        self.cur =
                            self.push_frame(FrameKind::Goal { goal: recovery }, h, cp.next)?;
                        return Ok(());
                    }
                    self.store.undo_to(trail, |_| {});
                    self.store.mark = saved;
                }
                _ => {}
            }
        }
        Err(Box::new(info))
    }

    /// Fills the context of `error(Formal, Context)` with the predicate being called.
    pub(super) fn add_context(&self, ball: Term) -> Term {
        if let Term::Compound(f, args) = &ball {
            if *f == atom::ERROR && args.len() == 2 && matches!(args[1], Term::Var(_)) {
                let (name, arity) = self.last_call;
                let fresh = Term::Var(args[0].var_count());
                let ctx = Term::compound(
                    "context",
                    vec![Term::indicator(name, arity as usize), fresh],
                );
                return Term::Compound(atom::ERROR, Arc::from(vec![args[0].clone(), ctx]));
            }
        }
        ball
    }
}
