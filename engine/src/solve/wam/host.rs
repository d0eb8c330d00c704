//! Host predicates in the compiled core (issue 17, phase 2): [`Instr::CallHost`] hands the
//! argument registers to [`Host::call`], as the interpreter's `Machine::call_host` does: one
//! inference per call and per retry, a retry choicepoint with the host's `u64` state (a state
//! with high bits set asked of [`Host::retry_kept`] first), the host's undoable effects
//! (`TrailEntry::Host`) undone with [`Host::undo`] on backtracking and when the query has no
//! more answers. The host-list sites ([`Host::call_site`]) are not used: `call` gives the same
//! answers, bindings and effects.

use super::{CoreQuery, Cp, CpKind, Fault, Instr, XREGS};
use crate::atom::Atom;
use crate::solve::host::Host;
use crate::solve::store::Cell;

/// The flag of the interpreter's catch entries on the trail (not host effects).
const CATCH_FLAG: u32 = 1 << 31;

/// Undoes trail entry `n` of the host (entries with [`CATCH_FLAG`] are not the host's).
#[inline]
pub(super) fn undo(host: &mut dyn Host, n: u32) {
    if n & CATCH_FLAG == 0 {
        host.undo(n);
    }
}

impl CoreQuery {
    /// Calls host predicate `id` with the argument registers (`redo`: a retry with that state);
    /// `Ok(true)`: it succeeded (continue at `next`, a choicepoint left for a retry state).
    pub(super) fn call_host(
        &mut self,
        host: &mut dyn Host,
        id: u32,
        name: Atom,
        arity: u32,
        redo: Option<u64>,
        next: u32,
    ) -> Result<bool, Fault> {
        let n = arity as usize;
        let mut small = [Cell::Atom(crate::atom::NIL); 4];
        if n <= 4 {
            small[..n].copy_from_slice(&self.x[..n]);
            self.host_answer(host, id, name, &small[..n], redo, next)
        } else {
            let args = self.x[..n & (XREGS - 1)].to_vec();
            self.host_answer(host, id, name, &args, redo, next)
        }
    }

    fn host_answer(
        &mut self,
        host: &mut dyn Host,
        id: u32,
        _name: Atom,
        args: &[Cell],
        redo: Option<u64>,
        next: u32,
    ) -> Result<bool, Fault> {
        let saved_mark = self.store.mark;
        let (heap, trail) = (self.store.len(), self.store.trail.len() as u32);
        self.store.mark = heap;
        let kept = match redo {
            Some(state) if state >> 32 != 0 => host.retry_kept(id, &mut self.store, state),
            _ => None,
        };
        let r = match kept {
            Some(d) => Ok(d),
            None => host.call(id, &mut self.store, &mut self.rng, args, redo),
        };
        self.det_answer(
            r,
            CpKind::Host { state: 0 },
            args,
            heap,
            trail,
            saved_mark,
            next,
        )
    }

    /// Backtracking into a host predicate's choicepoint `cp` (the newest, already undone to):
    /// the retry with `state`, counted as the interpreter counts it. `Ok(false)`: it failed.
    pub(super) fn retry_host(
        &mut self,
        host: &mut dyn Host,
        cp: &Cp,
        state: u64,
    ) -> Result<bool, Fault> {
        let Instr::CallHost(name, arity, id) = self.code.code[cp.pc as usize - 1] else {
            unreachable!("a host choicepoint follows its call")
        };
        let s = cp.saved as usize;
        let n = arity as usize;
        let args: Vec<Cell> = self.saved[s..s + n].to_vec();
        self.pop_cp();
        self.inferences += 1;
        self.last_call = (name, arity);
        if self.inferences > self.limits.max_inferences {
            return Err(self.budget("inferences", self.limits.max_inferences));
        }
        self.host_answer(host, id, name, &args, Some(state), cp.pc)
    }

    /// The query has no (more) answers: the host effects of its last branch are undone, as
    /// the interpreter's `Machine::undo_host_effects` does.
    pub(super) fn undo_host_effects(&mut self, host: &mut dyn Host) {
        let base = self.store.trail.len().min(self.base_trail);
        self.store.undo_to(base, |n| undo(host, n));
    }
}

/// Is the call `name(args)` of user predicate `p` a call of the library's `once/1` whose goal
/// the core can compile in place (not a variable: that is `call/1` of a goal known only at
/// run time)? Not a copy of `once/1` made by `solve::specialise` (its `call(G)` is the
/// direct goal there, counted once): the core compiles a copy as any predicate.
pub(super) fn is_library_once(
    data: &crate::solve::program::ProgramData,
    p: u32,
    name: Atom,
    args: &[Cell],
) -> bool {
    args.len() == 1
        && data.preds[p as usize].library
        && data.by_key.get(&(name, 1)) == Some(&p)
        && name.name() == "once"
        && !matches!(args[0], Cell::Var(_) | Cell::Ref(_))
}
