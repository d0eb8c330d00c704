//! Which predicates may be tabled per state, and in which general mode (see
//! [`Pred::state_memo`](super::program::Pred::state_memo)).
//!
//! A predicate that reads the state (host predicates declared with
//! [`ProgramBuilder::state_hosts`](super::build::ProgramBuilder::state_hosts), e.g. `fact/1` and
//! `player/1`) but nothing else that changes (no schedules, `does/2`, random numbers or unknown
//! meta-calls), and is not recursive, has the same answers, in the same order, for as long as the
//! host reports the same [`Host::state_id`](super::host::Host::state_id). The machine then computes
//! the answers of a *general* call once per state and serves more specific calls by unifying each
//! general answer with the call's arguments, in order.
//!
//! That is exact when the predicate behaves logically in the arguments it generalises: running it
//! with an argument bound must give the answers of running it with that argument free, filtered by
//! unification, in the same order and number (the lifting lemma of SLD resolution). Non-logical
//! goals break this when they see a variable that the general call leaves free but the specific call
//! binds: negation, if-then-else conditions, cuts after such goals, type tests, `findall/3`, meta-calls.
//! The analysis below is a left-to-right groundness analysis of the general mode: every non-logical
//! goal must see only variables that are ground in the general mode (then they have the same values
//! in the specific call) or that occur once in their clause (free in both); a clause with a cut needs
//! plain variables in the generalised head positions and only such clean goals before the cut. Arithmetic
//! on a free variable throws in the general mode; the machine then abandons the table and runs the
//! call directly, as it does for a general call that runs too long or has too many answers.

use super::compile::{count_vars, resolve};
use super::program::{Control, Dispatch, ProgramData};
use super::store::Cell;
use crate::atom::Atom;
use rustc_hash::FxHashMap;

/// Modes (bit sets of ground argument positions) analysed for each candidate: all arguments
/// generalised, or all but the first.
pub const MODE_NONE: u8 = 1;
pub const MODE_FIRST: u8 = 2;
/// Not a mode: the predicate reaches a context host predicate (the schedules, `does/2`), so its
/// tables are valid per context ([`Host::context_id`](super::host::Host::context_id)), not per state.
pub const MODE_CONTEXT: u8 = 4;

/// Analysis result of a predicate in a mode: `None` if not safe, else the argument positions that are
/// ground in every answer.
type Result = Option<u64>;

struct Analysis<'a> {
    data: &'a ProgramData,
    /// State and context host predicates.
    state_hosts: u64,
    /// (pred, mode) -> (result, iteration it was computed in).
    table: FxHashMap<(u32, u64), (Result, u32)>,
    /// Results of converged analyses.
    done: FxHashMap<(u32, u64), Result>,
    iter: u32,
    in_progress: Vec<(u32, u64)>,
    /// Assumptions read for calls in progress (recursion).
    assumed: FxHashMap<(u32, u64), Result>,
    changed: bool,
}

/// For each predicate, the [`MODE_NONE`] / [`MODE_FIRST`] bits of the general modes in which it may be
/// tabled per state (0: never), with [`MODE_CONTEXT`] when it also reaches one of `context_hosts`
/// (its tables are then valid per context). `reaches` and `recursive` as computed by the memo analysis.
pub fn state_memo_modes(
    data: &ProgramData,
    reaches: &[u64],
    recursive: &[bool],
    state_hosts: u64,
    context_hosts: u64,
) -> Vec<u8> {
    let mut out = vec![0u8; data.preds.len()];
    if state_hosts == 0 {
        return out;
    }
    let context_hosts = context_hosts & !state_hosts;
    let state_hosts = state_hosts | context_hosts;
    let mut an = Analysis {
        data,
        state_hosts,
        table: FxHashMap::default(),
        done: FxHashMap::default(),
        iter: 0,
        in_progress: Vec::new(),
        assumed: FxHashMap::default(),
        changed: false,
    };
    for (i, p) in data.preds.iter().enumerate() {
        let r = reaches[i];
        if p.library || recursive[i] || r == 0 || r & !state_hosts != 0 {
            continue;
        }
        let mut bits = 0;
        for (bit, mode) in [(MODE_NONE, 0u64), (MODE_FIRST, 1u64)] {
            // an arity-0 predicate has one mode: the call itself
            if (mode == 0 || p.arity > 0) && an.solve(i as u32, mode).is_some() {
                bits |= bit;
            }
        }
        if bits != 0 && r & context_hosts != 0 {
            bits |= MODE_CONTEXT;
        }
        out[i] = bits;
    }
    out
}

impl Analysis<'_> {
    /// The fixpoint of `analyse(p, mode)`, starting from the optimistic assumption for recursive
    /// calls and iterating until no assumption changes.
    fn solve(&mut self, p: u32, mode: u64) -> Result {
        if let Some(&r) = self.done.get(&(p, mode)) {
            return r;
        }
        for _ in 0..16 {
            self.iter += 1;
            self.changed = false;
            self.assumed.clear();
            let r = self.call(p, mode);
            if !self.changed {
                let it = self.iter;
                for (k, (r, i)) in self.table.drain() {
                    if i == it {
                        self.done.insert(k, r);
                    }
                }
                return r;
            }
        }
        self.table.clear();
        None
    }

    fn call(&mut self, p: u32, mode: u64) -> Result {
        let key = (p, mode);
        if let Some(&r) = self.done.get(&key) {
            return r;
        }
        if self.in_progress.contains(&key) {
            let a = self.table.get(&key).map_or(Some(u64::MAX), |x| x.0);
            self.assumed.entry(key).or_insert(a);
            return a;
        }
        if let Some(&(r, i)) = self.table.get(&key) {
            if i == self.iter {
                return r;
            }
        }
        if self.in_progress.len() > 64 {
            self.changed = true;
            return None;
        }
        self.in_progress.push(key);
        let r = self.analyse(p, mode);
        self.in_progress.pop();
        if let Some(a) = self.assumed.remove(&key) {
            if a != r {
                self.changed = true;
            }
        }
        self.table.insert(key, (r, self.iter));
        r
    }

    fn analyse(&mut self, p: u32, mode: u64) -> Result {
        let data = self.data;
        let pred = &data.preds[p as usize];
        let arity = pred.arity as usize;
        let mut out: u64 = if arity >= 64 {
            return None;
        } else {
            (1u64 << arity) - 1
        };
        for c in pred.clauses.iter() {
            let cells = &c.cells[..];
            let mut count = vec![0u32; c.nvars as usize];
            for &h in c.head_args.iter() {
                count_vars(cells, h, &mut count);
            }
            for g in c.body.iter() {
                for &a in g.args.iter() {
                    count_vars(cells, a, &mut count);
                }
            }
            let mut cl = Clause {
                cells,
                ground: vec![false; c.nvars as usize],
                seen: vec![false; c.nvars as usize],
                count,
                clean: true,
            };
            for &h in c.head_args.iter() {
                cl.see(h);
            }
            for (j, &h) in c.head_args.iter().enumerate() {
                if mode & (1 << j) != 0 {
                    cl.mark(h);
                }
            }
            // generalised head positions that are distinct plain variables (for cuts)
            let mut head_count = vec![0u32; c.nvars as usize];
            for &h in c.head_args.iter() {
                count_vars(cells, h, &mut head_count);
            }
            let plain_head = c.head_args.iter().enumerate().all(|(j, &h)| {
                mode & (1 << j) != 0 || matches!(h, Cell::Var(v) if head_count[v as usize] == 1)
            });
            cl.clean = plain_head;
            for g in c.body.iter() {
                self.goal(&mut cl, g.name, &g.args, Some(g.disp))?;
            }
            for (j, &h) in c.head_args.iter().enumerate() {
                if !cl.is_ground(h) {
                    out &= !(1 << j);
                }
            }
        }
        Some(out | mode)
    }

    /// Analyses one goal; `None` when it makes the predicate unsafe.
    fn goal(
        &mut self,
        cl: &mut Clause,
        name: Atom,
        args: &[Cell],
        disp: Option<Dispatch>,
    ) -> Option<()> {
        self.goal_inner(cl, name, args, disp)?;
        for &a in args {
            cl.see(a);
        }
        Some(())
    }

    fn goal_inner(
        &mut self,
        cl: &mut Clause,
        name: Atom,
        args: &[Cell],
        disp: Option<Dispatch>,
    ) -> Option<()> {
        let disp = disp.unwrap_or_else(|| resolve(self.data, name, args.len() as u32));
        match disp {
            Dispatch::Control(c) => match c {
                Control::Conj => {
                    self.sub(cl, args[0])?;
                    self.sub(cl, args[1])
                }
                Control::Disj => {
                    let before = cl.ground.clone();
                    match decode(cl.cells, args[0]) {
                        Some((n, a))
                            if matches!(
                                resolve(self.data, n, a.len() as u32),
                                Dispatch::Control(Control::IfThen | Control::SoftIfThen)
                            ) =>
                        {
                            self.condition(cl, a[0])?;
                            self.sub(cl, a[1])?;
                        }
                        _ => self.sub(cl, args[0])?,
                    }
                    let left = std::mem::replace(&mut cl.ground, before);
                    self.sub(cl, args[1])?;
                    for (g, l) in cl.ground.iter_mut().zip(left) {
                        *g = *g && l;
                    }
                    Some(())
                }
                Control::IfThen | Control::SoftIfThen => {
                    self.condition(cl, args[0])?;
                    self.sub(cl, args[1])
                }
                Control::Cut => cl.clean.then_some(()),
                Control::True | Control::Fail | Control::Throw => Some(()),
                Control::Not | Control::Call(_) | Control::Findall | Control::Findall4 => {
                    for &a in args {
                        cl.check(a)?;
                    }
                    Some(())
                }
                Control::Catch => None,
            },
            Dispatch::Host(id) => {
                if id >= 63 || self.state_hosts & (1 << id) == 0 {
                    return None;
                }
                // state words and players are ground
                for &a in args {
                    cl.mark_after(a);
                }
                Some(())
            }
            Dispatch::User(q) => {
                let mut mode = 0u64;
                for (j, &a) in args.iter().enumerate() {
                    if j < 63 && cl.is_ground(a) {
                        mode |= 1 << j;
                    } else {
                        cl.clean = false;
                    }
                }
                let r = self.call(q, mode)?;
                for (j, &a) in args.iter().enumerate() {
                    if j < 63 && r & (1 << j) != 0 {
                        cl.mark(a);
                    }
                }
                Some(())
            }
            Dispatch::Native(_) => {
                let n = name.name();
                match (n, args.len()) {
                    ("=", 2) => {
                        let (l, r) = (cl.is_ground(args[0]), cl.is_ground(args[1]));
                        if !(l && r) {
                            cl.clean = false;
                        }
                        if l {
                            cl.mark(args[1]);
                        } else if r {
                            cl.mark(args[0]);
                        }
                        Some(())
                    }
                    ("between", 3) => {
                        // bounds as for any goal; the value is an integer afterwards
                        for &a in args {
                            cl.check(a)?;
                        }
                        cl.mark(args[2]);
                        Some(())
                    }
                    ("is", 2)
                    | ("<", 2)
                    | (">", 2)
                    | ("=<", 2)
                    | (">=", 2)
                    | ("=:=", 2)
                    | ("=\\=", 2) => {
                        // evaluation of a free variable throws (the table is then abandoned)
                        for &a in args {
                            cl.mark_after(a);
                        }
                        Some(())
                    }
                    _ => {
                        for &a in args {
                            cl.check(a)?;
                        }
                        Some(())
                    }
                }
            }
            Dispatch::Unknown => None,
        }
    }

    /// A goal given as a template term (inside a control construct).
    fn sub(&mut self, cl: &mut Clause, t: Cell) -> Option<()> {
        let (n, a) = decode(cl.cells, t)?;
        self.goal(cl, n, &a, None)
    }

    /// An if-then-else condition: run the same way in both modes when it sees only ground (or
    /// clause-local) variables; its bindings hold in the then-branch.
    fn condition(&mut self, cl: &mut Clause, t: Cell) -> Option<()> {
        cl.check(t)?;
        let clean = cl.clean;
        if self.sub(cl, t).is_none() {
            // the condition is not analysable: no groundness from it, but it runs identically
            cl.clean = clean;
        }
        Some(())
    }
}

/// A callable template term as (name, argument cells); `None` for variables and numbers.
fn decode(cells: &[Cell], t: Cell) -> Option<(Atom, Vec<Cell>)> {
    match t {
        Cell::Atom(a) => Some((a, Vec::new())),
        Cell::Struct(p) => match cells[p as usize] {
            Cell::Functor(f, n) => Some((f, (1..=n).map(|i| cells[(p + i) as usize]).collect())),
            _ => None,
        },
        Cell::List(p) => Some((
            crate::atom::DOT,
            vec![cells[p as usize], cells[p as usize + 1]],
        )),
        _ => None,
    }
}

struct Clause<'a> {
    cells: &'a [Cell],
    ground: Vec<bool>,
    /// Variables of the head and of the goals analysed so far: any other variable is still free
    /// in both modes.
    seen: Vec<bool>,
    count: Vec<u32>,
    /// Every goal so far saw ground (or clause-local) arguments only, and the generalised head
    /// positions are distinct plain variables: a cut here commits the same way in both modes.
    clean: bool,
}

impl Clause<'_> {
    fn vars(&self, t: Cell, out: &mut Vec<u32>) {
        let mut stack = vec![t];
        while let Some(c) = stack.pop() {
            match c {
                Cell::Var(v) => out.push(v),
                Cell::Struct(p) => {
                    if let Cell::Functor(_, n) = self.cells[p as usize] {
                        stack.extend((1..=n).map(|i| self.cells[(p + i) as usize]));
                    }
                }
                Cell::List(p) => {
                    stack.push(self.cells[p as usize]);
                    stack.push(self.cells[p as usize + 1]);
                }
                _ => {}
            }
        }
    }
    fn see(&mut self, t: Cell) {
        let mut vs = Vec::new();
        self.vars(t, &mut vs);
        for v in vs {
            if let Some(s) = self.seen.get_mut(v as usize) {
                *s = true;
            }
        }
    }
    fn mark(&mut self, t: Cell) {
        let mut vs = Vec::new();
        self.vars(t, &mut vs);
        for v in vs {
            if let Some(g) = self.ground.get_mut(v as usize) {
                *g = true;
            }
        }
    }
    /// After a goal that leaves `t` ground (or throws): a goal that saw it non-ground is not clean.
    fn mark_after(&mut self, t: Cell) {
        if !self.is_ground(t) {
            self.clean = false;
        }
        self.mark(t);
    }
    fn is_ground(&self, t: Cell) -> bool {
        let mut vs = Vec::new();
        self.vars(t, &mut vs);
        vs.iter()
            .all(|&v| self.ground.get(v as usize).copied().unwrap_or(false))
    }
    /// A non-logical goal's argument: every variable ground, or occurring once in the clause, or
    /// not seen yet (in neither the head nor an earlier goal: free in both modes).
    fn check(&mut self, t: Cell) -> Option<()> {
        let mut vs = Vec::new();
        self.vars(t, &mut vs);
        for v in vs {
            let g = self.ground.get(v as usize).copied().unwrap_or(false);
            let once = self.count.get(v as usize).copied().unwrap_or(0) <= 1;
            let fresh = !self.seen.get(v as usize).copied().unwrap_or(true);
            if !g && !once && !fresh {
                return None;
            }
            if !g {
                self.clean = false;
            }
        }
        Some(())
    }
}
