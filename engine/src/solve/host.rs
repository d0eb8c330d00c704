//! Predicates provided by the program's host (the game manager's `fact/1`, `create/1`, ...).
//!
//! The host declares them when the program is built (`ProgramBuilder::host_predicates`), and the machine
//! calls [`Host::call`] with the host id. Effects that must be undone on backtracking are recorded by
//! pushing `TrailEntry::Host(n)` (with `n < 2^31`) on the store's trail; the machine calls
//! [`Host::undo`] with `n` when it backtracks over that entry.

use crate::rng::Rng;
use crate::solve::builtins::Det;
use crate::solve::program::HOST_LIST_MAX;
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
    /// [`Host::call_list`] from a call site whose leading constant elements' keys were computed
    /// at load time ([`HostSite::keys`]: they are the keys of `elems[..keys.n]`): the same answer,
    /// bindings and effects. The default ignores them.
    fn call_site(
        &mut self,
        id: u32,
        store: &mut Store,
        elems: &[Cell],
        _keys: &ListKeys,
    ) -> Option<Det> {
        self.call_list(id, store, elems)
    }
    /// A retry of host predicate `id` with the retry state `state` it gave, answered without
    /// its arguments (e.g. from what the host kept of the call): the answer [`Host::call`] would
    /// give with `Some(state)`, or `None` (the default), having changed nothing, when the host
    /// leaves the retry to `call`. Asked only for states with some of their high 32 bits set
    /// (a host that keeps something for a retry says so in its state; the machine does not ask
    /// for the others).
    fn retry_kept(&mut self, _id: u32, _store: &mut Store, _state: u64) -> Option<Det> {
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

/// The tag (atom 1, integer 2, float 3, string 4; 0 for any other cell) and value word of an
/// atomic cell's index key (the game manager's fact index, `game::facts`, keys a list's leading
/// elements by them; defined here so that load time can compute them for a call site's
/// constants: [`ListKeys`]).
#[inline(always)]
pub fn atomic_part(e: Cell) -> (u32, u64) {
    match e {
        Cell::Atom(a) => (1, u64::from(a.0)),
        Cell::Int(i) => (2, i as u64),
        Cell::Float(f) => (3, f.to_bits()),
        Cell::Str(s) => (4, u64::from(s.0)),
        _ => (0, 0),
    }
}

/// The hash word of an index key given by its tag and value ([`atomic_part`]).
#[inline]
pub fn parts_word(tag: u32, v: u64) -> u64 {
    (v ^ (u64::from(tag) << 59)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Mixes the next keyed position's [`parts_word`] into a composite key hash.
#[inline]
pub fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(26) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95)
}

/// The keys of the leading `n` elements of a host list, all atomic constants, as the fact index
/// keys them: tag bytes (position `i` in bits `8 i ..`), value words, and the composite hash
/// (not shifted) mixed over them in order. [`ListKeys::EMPTY`]: none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ListKeys {
    pub n: u8,
    pub tags: u32,
    pub vals: [u64; HOST_LIST_MAX],
    pub hash: u64,
}

impl ListKeys {
    pub const EMPTY: ListKeys = ListKeys {
        n: 0,
        tags: 0,
        vals: [0; HOST_LIST_MAX],
        hash: 0,
    };

    /// The keys of the leading atomic elements of `elems` (up to the first that is not atomic).
    pub fn of_prefix(elems: &[Cell]) -> ListKeys {
        let mut k = ListKeys::EMPTY;
        for (n, &e) in elems.iter().enumerate().take(HOST_LIST_MAX) {
            if !e.is_atomic() {
                break;
            }
            let (tag, v) = atomic_part(e);
            k.tags |= tag << (8 * n);
            k.vals[n] = v;
            k.hash = mix(k.hash, parts_word(tag, v));
            k.n += 1;
        }
        k
    }
}

/// A [`GoalT::host_list`](super::program::GoalT::host_list) goal's list as load time knows it
/// ([`super::program::GoalT::site`]): its elements (the constants as they are; at the positions
/// of `vars`, the clause's variable slots `slots`), and the keys of its leading constants.
#[derive(Clone, Debug)]
pub struct HostSite {
    pub elems: [Cell; HOST_LIST_MAX],
    pub slots: [u32; HOST_LIST_MAX],
    /// Bit `i`: element `i` is a variable (its value is the environment's slot `slots[i]`).
    pub vars: u8,
    pub len: u8,
    pub keys: ListKeys,
}

impl HostSite {
    /// The site of the list template `t` over the clause's template `cells` (a proper list of 1
    /// to [`HOST_LIST_MAX`] elements, each atomic or a variable `Var`/`Ref` slot).
    pub fn of(cells: &[Cell], mut t: Cell) -> HostSite {
        let mut site = HostSite {
            elems: [Cell::Atom(crate::atom::NIL); HOST_LIST_MAX],
            slots: [0; HOST_LIST_MAX],
            vars: 0,
            len: 0,
            keys: ListKeys::EMPTY,
        };
        let mut n = 0;
        while let Cell::List(p) = t {
            match cells[p as usize] {
                Cell::Var(s) | Cell::Ref(s) => {
                    site.slots[n] = s;
                    site.vars |= 1 << n;
                }
                other => site.elems[n] = other,
            }
            n += 1;
            t = cells[p as usize + 1];
        }
        site.len = n as u8;
        // the constants before the first variable (whose cell above is a placeholder)
        let first_var = (site.vars.trailing_zeros() as usize).min(n);
        site.keys = ListKeys::of_prefix(&site.elems[..first_var]);
        site
    }
}
