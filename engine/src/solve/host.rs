//! Predicates provided by the program's host (the game manager's `fact/1`, `create/1`, ...).
//!
//! The host declares them when the program is built (`ProgramBuilder::host_predicates`), and the machine
//! calls [`Host::call`] with the host id. Effects that must be undone on backtracking are recorded by
//! pushing `TrailEntry::Host(n)` (with `n < 2^31`) on the store's trail; the machine calls
//! [`Host::undo`] with `n` when it backtracks over that entry.

use crate::rng::Rng;
use crate::solve::builtins::Det;
use crate::solve::store::{Cell, Store};
use crate::term::Term;

pub trait Host {
    fn call(
        &mut self,
        id: u32,
        store: &mut Store,
        rng: &mut Rng,
        args: &[Cell],
        redo: Option<u64>,
    ) -> Result<Det, Term>;
    /// [`Host::call`] of host predicate `id` (no retry) whose one argument is the proper list of
    /// `elems` (1 to [`HOST_LIST_MAX`](super::program::HOST_LIST_MAX) cells, each atomic or an
    /// unbound variable `Ref`), handed over without the list being built
    /// ([`super::program::GoalT::host_list`]): the same answer, bindings and effects as `call`
    /// would give with that list, or `None` (the default), having changed nothing, when the host
    /// leaves the call to `call` (every call that would raise an error is left to it, so the
    /// answer is a [`Det`]: 16 bytes, returned in registers). A retry state it returns is given
    /// to `call` with the list.
    fn call_list(&mut self, _id: u32, _store: &mut Store, _elems: &[Cell]) -> Option<Det> {
        None
    }
    fn undo(&mut self, entry: u32);
    /// An identity of the state that the host predicates declared with
    /// [`ProgramBuilder::state_hosts`](super::build::ProgramBuilder::state_hosts) read: two
    /// queries with the same non-zero id see the same answers from them. `0`: unknown (no
    /// per-state tabling).
    fn state_id(&self) -> u64 {
        0
    }
    /// An identity of what the host predicates declared with
    /// [`ProgramBuilder::context_hosts`](super::build::ProgramBuilder::context_hosts) read (e.g.
    /// a chronon's schedules and actions), together with the state: two calls with the same
    /// non-zero id (and the same [`Host::state_id`]) see the same answers from them. It must change
    /// whenever those answers may change, including when an effect is undone on backtracking. `0`:
    /// unknown (no per-context tabling).
    fn context_id(&self) -> u64 {
        0
    }
    /// The host predicates (bits by host id, as in [`super::program::Pred::reaches`]) that the
    /// running goal may not call: a predicate that reaches one of them is neither served from nor
    /// filled into the per-state tables ([`super::statememo`]), so that a call raises exactly as
    /// without them. `0`: every host predicate may be called.
    fn forbidden(&self) -> u64 {
        0
    }
}

/// No host predicates.
pub struct NoHost;

impl Host for NoHost {
    fn call(
        &mut self,
        _id: u32,
        _store: &mut Store,
        _rng: &mut Rng,
        _args: &[Cell],
        _redo: Option<u64>,
    ) -> Result<Det, Term> {
        Ok(Det::Fail)
    }
    fn undo(&mut self, _entry: u32) {}
}
