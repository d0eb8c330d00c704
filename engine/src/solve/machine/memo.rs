//! Memoized calls: argument-keyed and per-state tables (filling, serving answers, giving up),
//! and the per-state trial statistics.

use super::*;

/// A memo entry being filled.
#[derive(Debug)]
pub(super) struct Fill {
    pub(super) key: MemoKey,
    pub(super) answers: Answers,
    /// Inference count when the fill started.
    pub(super) start: u64,
    /// Index of its `MemoFill` choicepoint.
    pub(super) cp: u32,
    /// A per-state table entry (see [`crate::solve::statememo`]).
    pub(super) state: bool,
    /// For a per-state entry: generalised (`true`) or the call itself (`false`).
    pub(super) general: bool,
}

/// Per predicate tabled per state: the cost of each kind of table (inferences spent filling,
/// answers stored and tried, calls answered), measured on the first [`STATE_TRIAL`] fills of each
/// (or [`STATE_EARLY`] when one kind is far cheaper), after which the cheaper kind per call is
/// kept. Both kinds give the answers of the call itself, so the choice changes only speed.
#[derive(Default, Clone, Copy, Debug)]
pub(super) struct StateStat {
    /// [general, variant]: fills, inferences of the fills, calls answered.
    pub(super) fills: [u32; 2],
    pub(super) steps: [u64; 2],
    pub(super) calls: [u64; 2],
    /// [general, variant]: answers stored by the fills, and answers tried by the calls served.
    pub(super) stored: [u64; 2],
    pub(super) tried: [u64; 2],
}

impl StateStat {
    /// The measured cost of kind `k`, in inferences: an answer stored (copied out of the heap)
    /// costs about one inference, an answer tried (unified in place) about a quarter.
    pub(super) fn cost(&self, k: usize) -> u128 {
        (self.steps[k] + self.stored[k] + self.tried[k] / 4) as u128
    }

    /// Is kind `a`'s cost per call at least four times kind `b`'s?
    pub(super) fn far_above(&self, a: usize, b: usize) -> bool {
        self.cost(a) * (self.calls[b] as u128) >= 4 * self.cost(b) * (self.calls[a] as u128)
    }

    /// Both kinds measured (the trial is over)?
    pub(super) fn settled(&self) -> bool {
        let early = self.fills[0] >= STATE_EARLY && self.fills[1] >= STATE_EARLY;
        (self.fills[0] >= STATE_TRIAL && self.fills[1] >= STATE_TRIAL)
            || (early && (self.far_above(0, 1) || self.far_above(1, 0)))
    }

    /// Generalise the next call?
    pub(super) fn general(&self) -> bool {
        if self.fills[0] < STATE_EARLY {
            return true;
        }
        if self.fills[1] < STATE_EARLY {
            return false;
        }
        if !self.settled() {
            return self.fills[0] < STATE_TRIAL;
        }
        // per call: cost[0] / calls[0] <= cost[1] / calls[1]
        self.cost(0) * (self.calls[1] as u128) <= self.cost(1) * (self.calls[0] as u128)
    }

    /// After the trials: are the tables of the cheaper kind rarely asked again (fewer than 1.5
    /// calls per fill; then a direct call, which may stop at the first answer and fills nothing,
    /// is cheaper: a fill costs far more than its inferences, e.g. tic-tac-toe's `cell/3` at 1.4
    /// calls per fill), or are their answers rarely used again (fewer than 1.5 tries per answer
    /// stored, e.g. chess's `move/2`, whose table `once(move(C, _))` fills and one more call reads
    /// once: a direct call computes each answer about as often, and copies none)?
    #[inline]
    pub(super) fn useless(&self) -> bool {
        if !self.settled() {
            return false;
        }
        let k = usize::from(!self.general());
        self.calls[k] * 2 < self.fills[k] as u64 * 3 || self.tried[k] * 2 < self.stored[k] * 3
    }
}

/// Per predicate memoized by its arguments (indexed by predicate): calls (those that reach
/// [`Machine::call_memo`]), completed fills, the inferences of the fills, the answers they stored,
/// and the cells of their answers and general keys.
#[derive(Default, Clone, Copy, Debug)]
pub(super) struct ArgStat {
    pub(super) calls: u64,
    pub(super) fills: u64,
    pub(super) steps: u64,
    pub(super) stored: u64,
    pub(super) cells: u64,
    pub(super) keywords: u64,
    /// A fill had a flat key ([`memo_key_flat`]): then hits are not all counted (those served by
    /// [`Machine::call_memo_args`] from the table's cache are not), and the table is kept.
    pub(super) flat: bool,
}

impl ArgStat {
    /// Should the table be given up? Once it has [`ARG_TRIAL`] fills (and after each doubling of
    /// them): when it has not paid for itself so far, and a call of the predicate costs at most
    /// four times what a fill costs besides the call (so that giving it up wrongly, e.g. for a
    /// table still warming up, costs at most that factor on its calls). Costs are in inferences:
    /// a fill costs about four (its key, a choicepoint and a frame, the insertion), one per
    /// answer stored and one per eight cells of its key and answers copied; a hit costs one per
    /// sixteen cells of its key and answer, and saves a fill's average inferences plus trying
    /// the predicate's `clauses` (a quarter of an inference each). Kalah's `stones/3` (keyed by
    /// the board, 2 inferences a call, 16 % hits) is given up. Tables with flat keys (atomic
    /// arguments: chess's `xvalue/3`, 30 calls a fill) are cheap and always kept.
    pub(super) fn useless(&self, clauses: usize) -> bool {
        if self.flat || self.fills < ARG_TRIAL || !self.fills.is_power_of_two() {
            return false;
        }
        let hits = self.calls.saturating_sub(self.fills) as u128;
        let fills = self.fills as u128;
        let size = (self.keywords + self.cells) as u128;
        // every figure times `fills` (a hit saves `steps / fills`)
        let overhead = fills * 4 + self.stored as u128 + size / 8;
        let saved = hits * (self.steps as u128 + fills * clauses as u128 / 4);
        let cost = fills * overhead + hits * size / 16;
        saved < cost && (self.steps as u128) <= 4 * overhead
    }
}

/// Completed fills of a predicate's argument table before it may be given up ([`ArgStat::useless`]).
pub(super) const ARG_TRIAL: u64 = 64;

/// Fills of each kind measured before a predicate's per-state tables settle on one kind.
pub(super) const STATE_TRIAL: u32 = 16;
/// Fills of each kind after which a kind far cheaper per call than the other is kept at once.
pub(super) const STATE_EARLY: u32 = 4;

/// A fill with more answers, or taking more inference steps, is given up (the call runs directly).
pub(super) const MEMO_MAX_ANSWERS: usize = 4096;
pub(super) const MEMO_MAX_STEPS: u64 = 200_000;
/// The memo table is emptied when it holds more cells than this.
pub(super) const MEMO_MAX_CELLS: usize = 4 << 20;

/// The memo fills in progress, keeping the inference count past which the innermost one is
/// given up ([`MEMO_MAX_STEPS`] after its start; `u64::MAX` when there is none). A fill's
/// `start` is never changed in place.
pub(super) type FillStack = TopStack<Fill>;

impl Top for Fill {
    #[inline]
    fn of_top(top: Option<&Self>) -> u64 {
        top.map_or(u64::MAX, |f| f.start.saturating_add(MEMO_MAX_STEPS))
    }
}

impl FillStack {
    /// Has the innermost fill run more than [`MEMO_MAX_STEPS`] inferences at `inferences`?
    #[inline]
    pub(super) fn overdue(&self, inferences: u64) -> bool {
        debug_assert_eq!(
            inferences > self.top,
            self.v
                .last()
                .is_some_and(|f| inferences - f.start > MEMO_MAX_STEPS)
        );
        inferences > self.top
    }
}

impl Machine {
    /// A predicate tabled per state: the call's general form (every argument a fresh variable, or
    /// all but a ground first one) is looked up in, or filled into, the current state's table, and
    /// its answers are unified with the call's arguments in order. `ids`: the host's state id and,
    /// for a predicate tabled per context, its context id (else 0), which is part of the table key.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_state_memo(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        cutb: u32,
        next: u32,
        ids: (u64, u64),
        modes: u8,
    ) -> Result<Step, Fault> {
        let (sid, cid) = ids;
        use crate::solve::statememo::{MODE_FIRST, MODE_NONE};
        let stat = self.state_stats.entry(p).or_default();
        if stat.useless() {
            // settled: called directly from now on
            self.no_memo.insert(p);
            return self.call_user(data, p, args, arity, next);
        }
        let general = stat.general();
        if !stat.settled() {
            stat.calls[usize::from(!general)] += 1;
        }
        if sid != self.state_id {
            self.state_table.clear();
            self.state_entries.clear();
            self.state_id = sid;
        }
        if !general {
            return self.call_memo(data, p, args, arity, cutb, next, Some((args, false, cid)));
        }
        // an argument is kept only if another one is generalised (else the "general" table of a
        // call of arity 1 would be the call's own, and the two kinds measured the same)
        let keep = if modes & MODE_FIRST != 0
            && (arity > 1 || modes & MODE_NONE == 0)
            && arity > 0
            && self.store.is_ground(self.store.heap[args as usize])
        {
            1
        } else if modes & MODE_NONE != 0 {
            0
        } else {
            return self.call_memo(data, p, args, arity, cutb, next, Some((args, false, cid)));
        };
        let gen = self.store.len();
        for j in 0..arity {
            let c = if j < keep {
                self.store.heap[(args + j) as usize]
            } else {
                Cell::Ref(gen + j)
            };
            self.store.heap.push(c);
        }
        self.call_memo(data, p, args, arity, cutb, next, Some((gen, true, cid)))
    }

    /// An argument-memo call: the common hit (a flat key found in the table's cache whose entry
    /// is empty or one atomic answer) in a small frame, everything else by [`Machine::call_memo`]
    /// (which handles these cases the same way).
    #[inline(never)]
    pub(super) fn call_memo_args(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        let hit = match arity {
            1 => self.args_hit::<1>(p, args, next),
            2 => self.args_hit::<2>(p, args, next),
            3 => self.args_hit::<3>(p, args, next),
            4 => self.args_hit::<4>(p, args, next),
            5 => self.args_hit::<5>(p, args, next),
            _ => None,
        };
        match hit {
            Some(step) => Ok(step),
            None => self.call_memo_args_slow(data, p, args, arity, cutb, next),
        }
    }

    /// [`Machine::call_memo_args`] past the probe of the table's cache: the other arities'
    /// cache hits, then [`Machine::call_memo`].
    #[inline(never)]
    fn call_memo_args_slow(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        cutb: u32,
        next: u32,
    ) -> Result<Step, Fault> {
        if arity > 5 {
            let fc = memo_key_flat(&self.store, p, args, arity, 0);
            if let Some(step) = self.serve_cached(fc, arity as usize, next) {
                return Ok(step);
            }
        }
        self.call_memo(data, p, args, arity, cutb, next, None)
    }

    /// The flat key of the argument-memo call `p(args...)` of arity `N` (no context id), by
    /// [`key_cells`] unrolled for `N` arguments: the key [`memo_key_flat`] makes.
    #[inline(always)]
    fn flat_key<const N: usize>(&self, p: u32, args: u32) -> Option<FlatCall> {
        let a = args as usize;
        key_cells(&self.store, p, &self.store.heap[a..a + N], 0)
    }

    /// The argument table's entry of call `fc` (arity `n`) when its cache holds it.
    #[inline(always)]
    fn cached_entry(&self, fc: &FlatCall, n: usize) -> Option<u32> {
        let t = &self.memo_table;
        let s = t.cache.get(fc.key.hash as usize % MEMO_CACHE_SLOTS)?;
        (s.gen == t.gen && s.key.eq_first(&fc.key, n)).then_some(s.e)
    }

    /// The entry that the argument table's cache holds for the call `p(args...)` of arity `N`
    /// (no context id), with the call's first occurrences of unbound variables (positions and
    /// addresses, as [`FlatCall`]'s `first` and `refs`): what [`Machine::cached_entry`] of
    /// [`Machine::flat_key`] finds, compared word by word with the slot as the key is made
    /// (the same words and hash as [`key_cells`]), without making the key. `None`: not in the
    /// cache, or an argument is compound.
    #[inline(always)]
    fn probe<const N: usize>(&self, p: u32, args: u32) -> Option<(u32, u32, [u32; N])> {
        let a = args as usize;
        let cells: &[Cell; N] = self.store.heap.get(a..a + N)?.try_into().ok()?;
        self.probe_cells(p, cells)
    }

    /// [`Machine::probe`] of the call `p(cells...)` whose argument cells are given (not
    /// dereferenced yet, as on the heap).
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn probe_cells<const N: usize>(
        &self,
        p: u32,
        cells: &[Cell; N],
    ) -> Option<(u32, u32, [u32; N])> {
        let mut v = [0u64; N];
        let mut refs = [0u32; N];
        let (mut h, mut tags, mut first) = (0u64, 0u64, 0u32);
        for j in 0..N {
            let c = match cells[j] {
                c @ Cell::Ref(_) => self.store.deref(c),
                c => c,
            };
            // (tested in the order of their frequency, not through a jump table)
            let (tag, x): (u64, u64) = if let Cell::Atom(a) = c {
                (1, a.0 as u64)
            } else if let Cell::Int(i) = c {
                (2, i as u64)
            } else if let Cell::Ref(r) = c {
                // the variable's number: the number of the first position holding it
                let mut k = 0;
                let mut f = first;
                while f != 0 {
                    if refs[f.trailing_zeros() as usize] == r {
                        break;
                    }
                    k += 1;
                    f &= f - 1;
                }
                if f == 0 {
                    refs[j] = r;
                    first |= 1 << j;
                }
                (0, k)
            } else {
                match c {
                    Cell::Float(f) => (3, f.to_bits()),
                    Cell::Str(a) => (4, a.0 as u64),
                    _ => return None,
                }
            };
            tags |= tag << (3 * j);
            v[j] = x;
            h = mix(h, x);
        }
        let w0 = p as u64 | (tags << 32) | ((N as u64) << 56);
        let hash = mix(mix(h, w0), 0).rotate_left(26);
        let t = &self.memo_table;
        let s = t.cache.get(hash as usize % MEMO_CACHE_SLOTS)?;
        let mut d = (s.key.hash ^ hash)
            | (s.key.w[0] ^ w0)
            | s.key.w[FLAT_WORDS - 1]
            | u64::from(s.gen ^ t.gen);
        for j in 0..N {
            d |= s.key.w[j + 1] ^ v[j];
        }
        (d == 0).then_some((s.e, first, refs))
    }

    /// [`Machine::serve_cached`] of the call `p(args...)` of arity `N`, found by
    /// [`Machine::probe`] (one copy per arity, so that nothing is shared between them).
    #[inline(always)]
    fn args_hit<const N: usize>(&mut self, p: u32, args: u32, next: u32) -> Option<Step> {
        let (e, first, refs) = self.probe::<N>(p, args)?;
        if e == MEMO_THROWS {
            return None;
        }
        // the key is the call's own: its answers are instances of the call (as
        // `FlatCall::answer_at_once`)
        let entry = &self.memo_entries[e as usize];
        if entry.list.is_empty() {
            return Some(Step::Fail);
        }
        if !entry.single_atomic || entry.trial.is_some() {
            return None;
        }
        let vals: &[Cell; N] = entry.cells.get(1..1 + N)?.try_into().ok()?;
        // (unrolled for `N` positions: no bit scan, no bounds checks)
        for j in 0..N {
            if first & (1 << j) != 0 {
                self.store.bind(refs[j], vals[j]);
            }
        }
        self.cur = next;
        Some(Step::Go)
    }

    /// The hit of [`Machine::call_memo_args`]: call `fc` (arity `n`) found in the table's cache,
    /// its entry empty (`Step::Fail`) or one atomic answer (its variables bound, `Step::Go`);
    /// `None` for everything else.
    #[inline(always)]
    fn serve_cached(&mut self, fc: Option<FlatCall>, n: usize, next: u32) -> Option<Step> {
        let fc = fc?;
        let e = self.cached_entry(&fc, n)?;
        if e == MEMO_THROWS {
            return None;
        }
        // the key is the call's own: its answers are instances of the call
        let entry = &self.memo_entries[e as usize];
        if fc.answer_at_once(&mut self.store, entry)? {
            self.cur = next;
            Some(Step::Go)
        } else {
            Some(Step::Fail)
        }
    }

    /// [`Machine::entry_exists`] of the call `p(args...)` of arity `N`: its entry found in the
    /// table's cache by [`Machine::probe`], else keyed by [`Machine::flat_key`] and looked up
    /// out of line (one copy per arity).
    #[inline(always)]
    fn exists_n<const N: usize>(&mut self, p: u32, args: u32) -> Option<bool> {
        match self.probe::<N>(p, args) {
            Some((MEMO_THROWS, ..)) => None,
            // (per-state trials count served answers; argument-memo entries have none)
            Some((e, ..)) => Some(!self.memo_entries[e as usize].list.is_empty()),
            None => self.exists_slow::<N>(p, args),
        }
    }

    /// [`Machine::memo_answer_exists`] of the call `g` written in a clause (environment `env`):
    /// its arguments are the environment's cells of its variables (what `Machine::goal_args`
    /// would copy to the heap) and its atomic constants, pushed on the heap for the probe and
    /// popped again (the probe binds nothing, and nothing refers to them); for arity 3 the
    /// table's cache is probed from them in place, a miss left to the general path. `None`
    /// (nothing done) when `g` has a compound argument, or when `memo_answer_exists` (or the
    /// cache) does not know.
    pub(super) fn memo_exists_env(
        &mut self,
        data: &ProgramData,
        p: u32,
        g: &GoalT,
        env: u32,
    ) -> Option<bool> {
        if g.arity == 3 {
            // arity 3 (chess's `xvalue/3`, `yvalue/3`): the cache probed from the cells in
            // place (one copy of the probe; the other arities through the heap)
            let pr = &data.preds[p as usize];
            if !self.memoize || !pr.memo || self.no_memo.contains(&p) {
                return None;
            }
            let mut cells = [Cell::Atom(atom::NIL); 3];
            for (j, cell) in cells.iter_mut().enumerate() {
                *cell = match *g.args.get(j)? {
                    Cell::Var(s) | Cell::Ref(s) => self.store.heap[(env + s) as usize],
                    Cell::Struct(_) | Cell::List(_) => return None,
                    a => a,
                };
            }
            return match self.probe_cells::<3>(p, &cells)? {
                (MEMO_THROWS, ..) => None,
                (e, ..) => Some(!self.memo_entries[e as usize].list.is_empty()),
            };
        }
        if g.args
            .iter()
            .any(|a| matches!(a, Cell::Struct(_) | Cell::List(_)))
        {
            return None;
        }
        let args = self.store.len();
        for &a in g.args.iter() {
            let c = match a {
                Cell::Var(s) | Cell::Ref(s) => self.store.heap[(env + s) as usize],
                a => a,
            };
            self.store.heap.push(c);
        }
        let found = self.memo_answer_exists(data, p, args, g.arity);
        self.store.heap.truncate(args as usize);
        found
    }

    /// [`Machine::exists_n`] past the cache: the key made and looked up in the table's map.
    #[inline(never)]
    fn exists_slow<const N: usize>(&mut self, p: u32, args: u32) -> Option<bool> {
        let fc = self.flat_key::<N>(p, args);
        self.entry_exists(fc, N)
    }

    /// [`Machine::memo_answer_exists`] once the call is keyed (arity `n`): its entry from the
    /// table's cache or map.
    #[inline(always)]
    fn entry_exists(&mut self, fc: Option<FlatCall>, n: usize) -> Option<bool> {
        let fc = fc?;
        let e = match self.cached_entry(&fc, n) {
            Some(e) => e,
            None => self.memo_table.get_flat(&fc.key)?,
        };
        match e {
            MEMO_THROWS => None,
            // (per-state trials count served answers; argument-memo entries have none)
            e => Some(!self.memo_entries[e as usize].list.is_empty()),
        }
    }

    /// Does the argument-memo call `p(args...)` have an answer, known without running or serving
    /// it? `Some(b)` when its own flat key is in the table (its answers are instances of the call,
    /// so each unifies with it: there is one exactly when the entry is not empty); `None` when the
    /// call must run as usual (not memoized by its arguments, memoization off or given up, not
    /// keyed flat, not filled yet, or its fill threw). Meant for `\+ G` / `not(G)` on such a `G`:
    /// the caller still counts the inference of `G` (and its profile entry and budget checks) as
    /// `dispatch` would, then succeeds or fails at once without a negation choicepoint, binding
    /// nothing ([`Machine::negation`]).
    pub(crate) fn memo_answer_exists(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
    ) -> Option<bool> {
        let pr = &data.preds[p as usize];
        if !self.memoize || !pr.memo || self.no_memo.contains(&p) {
            return None;
        }
        match arity {
            1 => self.exists_n::<1>(p, args),
            2 => self.exists_n::<2>(p, args),
            3 => self.exists_n::<3>(p, args),
            4 => self.exists_n::<4>(p, args),
            _ => {
                let fc = memo_key_flat_cold(&self.store, p, args, arity, 0);
                self.entry_exists(fc, arity as usize)
            }
        }
    }

    /// A memoizable predicate: serve the call from the table, or fill the table entry first. With
    /// `gen`, a per-state table entry for the general call whose arguments start at `gen` (and, if
    /// its third element is not 0, for that context id).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn call_memo(
        &mut self,
        data: &ProgramData,
        p: u32,
        args: u32,
        arity: u32,
        cutb: u32,
        next: u32,
        gen: Option<(u32, bool, u64)>,
    ) -> Result<Step, Fault> {
        let state = gen.is_some();
        if !state {
            // (the hits of `call_memo_args` are not counted: a flat-keyed table is never given up)
            if self.arg_stats.len() <= p as usize {
                self.arg_stats.resize(p as usize + 1, ArgStat::default());
            }
            self.arg_stats[p as usize].calls += 1;
        }
        let (gen, general, cid) = gen.unwrap_or((args, false, 0));
        let key = if let Some(fc) = memo_key_flat(&self.store, p, gen, arity, cid) {
            let (table, entries) = if state {
                (&mut self.state_table, &self.state_entries)
            } else {
                (&mut self.memo_table, &self.memo_entries)
            };
            match table.get_flat(&fc.key) {
                Some(MEMO_THROWS) if !state => return self.call_user(data, p, args, arity, next),
                Some(e) if !general => {
                    // the key is the call's own (not a generalisation): its answers are instances
                    // of the call, equal to it in the positions bound to atomic values, and equal
                    // in the positions of one variable
                    let entry = &entries[(e & !STATE_ENTRY) as usize];
                    match fc.answer_at_once(&mut self.store, entry) {
                        Some(false) => return Ok(Step::Fail),
                        Some(true) => {
                            self.cur = next;
                            return Ok(Step::Go);
                        }
                        None => {}
                    }
                    return self.serve_memo(e, 0, args, arity, next, None, fc.bound);
                }
                Some(e) => return self.serve_memo(e, 0, args, arity, next, None, 0),
                None => MemoKey::Flat(fc.key),
            }
        } else {
            let mut words = std::mem::take(&mut self.memo_words);
            let mut vars = std::mem::take(&mut self.memo_vars);
            let mut stack = std::mem::take(&mut self.memo_stack);
            let small = memo_key(
                &self.store,
                p,
                gen,
                arity,
                &mut words,
                &mut vars,
                &mut stack,
            );
            if small && cid != 0 {
                // context ids are unique: entries of other contexts are never hit
                words.push(cid);
            }
            let table = if state {
                &self.state_table
            } else {
                &self.memo_table
            };
            let hit = if small {
                table.long.get(&words[..]).copied()
            } else {
                None
            };
            let key = (small && hit.is_none()).then(|| MemoKey::Long(words[..].into()));
            self.memo_words = words;
            self.memo_vars = vars;
            self.memo_stack = stack;
            if let Some(e) = hit {
                if e == MEMO_THROWS {
                    return self.call_user(data, p, args, arity, next);
                }
                return self.serve_memo(e, 0, args, arity, next, None, 0);
            }
            let Some(key) = key else {
                return self.call_user(data, p, args, arity, next);
            };
            key
        };
        let fill = self.fills.len() as u32;
        self.fills.push(Fill {
            key,
            answers: Answers::default(),
            start: self.inferences,
            cp: self.cps.len() as u32,
            state,
            general,
        });
        self.push_cp(
            CpKind::MemoFill {
                fill,
                pred: p,
                args,
                arity,
            },
            next,
            cutb,
        )?;
        let k = self.push_frame(
            FrameKind::MemoCollect {
                fill,
                args: gen,
                arity,
            },
            cutb,
            next,
        )?;
        self.call_user(data, p, gen, arity, k)
    }

    /// Unifies the call's arguments with the answers of memo entry `e` from answer `pos` on, leaving
    /// a choicepoint for the remaining ones at the first that unifies. `skip`: argument positions
    /// that equal every answer's (bound to atomic values in the entry's own key), not unified.
    /// `marks`: a retry of the call's `MemoServe` choicepoint (its heights), still the newest.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn serve_memo(
        &mut self,
        e: u32,
        pos: usize,
        args: u32,
        arity: u32,
        next: u32,
        marks: Option<(u32, u32, u32)>,
        skip: u32,
    ) -> Result<Step, Fault> {
        let entry = entry_of(&self.state_entries, &self.memo_entries, e);
        // a retry (`marks`): the call's `MemoServe` choicepoint is still the newest, popped here
        // (entries of atomic answers: moved on in place by `serve_atomic`, or popped)
        let in_place = marks.is_some();
        if entry.atomic && entry.trial.is_none() && arity as usize <= FLAT_KEY_ARITY {
            // (no trial: no answers to count)
            if pos >= entry.len() {
                if in_place {
                    self.pop_cp();
                }
                return Ok(Step::Fail);
            }
            let r = self.serve_atomic(e, pos, args, arity, next, marks, skip, in_place);
            if in_place && matches!(r, Ok(Step::Fail)) {
                self.pop_cp();
            }
            return r;
        }
        let trial = if e & STATE_ENTRY != 0 {
            entry.trial
        } else {
            None
        };
        if in_place {
            self.pop_cp();
        }
        let mut tried = 0u64;
        let r = self.serve_answers(e, pos, args, arity, next, marks, skip, &mut tried);
        if let Some((q, k)) = trial {
            if let Some(stat) = self.state_stats.get_mut(&q) {
                stat.tried[k] += tried;
            }
        }
        r
    }

    /// [`Machine::serve_memo`], counting the answers tried in `tried`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn serve_answers(
        &mut self,
        e: u32,
        pos: usize,
        args: u32,
        arity: u32,
        next: u32,
        marks: Option<(u32, u32, u32)>,
        skip: u32,
        tried: &mut u64,
    ) -> Result<Step, Fault> {
        let entry = entry_of(&self.state_entries, &self.memo_entries, e);
        let n = entry.len();
        if pos >= n {
            return Ok(Step::Fail);
        }
        // (entries of atomic answers not measured by a trial are served by `serve_atomic`)
        // the call's atomic arguments (not already equal by the key): an answer that differs
        // there is passed over without unifying it (and undoing that)
        let mut bound = [(0u32, Cell::Atom(atom::NIL)); FLAT_KEY_ARITY];
        let mut nb = 0;
        for j in 0..arity.min(FLAT_KEY_ARITY as u32) {
            if skip & (1 << j) != 0 {
                continue;
            }
            let b = self.store.deref(self.store.heap[(args + j) as usize]);
            if let Cell::Atom(_) | Cell::Int(_) | Cell::Str(_) | Cell::Float(_) = b {
                bound[nb] = (j, b);
                nb += 1;
            }
        }
        let bound = &bound[..nb];
        if pos + 1 == n {
            *tried += 1;
            // the last (often the only) answer: no choicepoint, and a failure is undone by
            // backtracking as for any other goal
            if entry.may_unify(pos, bound) && entry.unify(&mut self.store, pos, args, arity, skip) {
                self.cur = next;
                return Ok(Step::Go);
            }
            return Ok(Step::Fail);
        }
        let (heap, trail, frames) = self.heights(marks);
        // every binding is trailed, so that a failed answer can be undone here
        let saved_mark = self.store.mark;
        self.store.mark = heap;
        let mut k = pos;
        while k + 1 < n {
            *tried += 1;
            if !entry.may_unify(k, bound) {
                k += 1;
                continue;
            }
            let ok = entry.unify(&mut self.store, k, args, arity, skip);
            k += 1;
            if ok {
                // (the mark is `heap` already)
                self.push_cp_at(
                    CpKind::MemoServe {
                        entry: e,
                        pos: k as u32,
                        args,
                        arity,
                        skip,
                    },
                    (heap, trail, frames),
                    next,
                    0,
                )?;
                self.cur = next;
                return Ok(Step::Go);
            }
            self.store.undo_to(trail as usize, |_| {});
            self.store.heap.truncate(heap as usize);
        }
        // the last answer, as above
        self.store.mark = saved_mark;
        *tried += 1;
        if entry.may_unify(k, bound) && entry.unify(&mut self.store, k, args, arity, skip) {
            self.cur = next;
            return Ok(Step::Go);
        }
        Ok(Step::Fail)
    }

    /// [`Machine::serve_memo`] for an entry whose answers are all atomic tuples (not measured
    /// by a trial): the call's arguments are classified once (atomic values to compare, first
    /// occurrences of variables to bind, repeated variables to compare, compounds that match no
    /// answer), then each answer from `pos` on is compared cell by cell, and only a matching one is
    /// bound, which is what unifying the answers in order would bind. A choicepoint resumes at the
    /// next answer if any remain.
    /// `in_place`: the call's `MemoServe` choicepoint (heights `marks`) is still the newest
    /// (a retry): it is moved on to the next answer in place, or popped before the last answer
    /// is bound, instead of being popped before and pushed again; on failure it is left to the
    /// caller ([`Machine::serve_memo`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn serve_atomic(
        &mut self,
        e: u32,
        pos: usize,
        args: u32,
        arity: u32,
        next: u32,
        marks: Option<(u32, u32, u32)>,
        skip: u32,
        in_place: bool,
    ) -> Result<Step, Fault> {
        let a = arity as usize;
        // per argument position, as bit sets: `want` (atomic, its code in `code`), `vars` (the
        // first occurrence of an unbound variable, its address in `refs`), `same` (a repeated
        // variable, the position of its first occurrence in `at`)
        let mut code = [[0u64; 2]; FLAT_KEY_ARITY];
        let mut refs = [0u32; FLAT_KEY_ARITY];
        let mut at = [0u8; FLAT_KEY_ARITY];
        let (mut want, mut vars, mut same) = (0u32, 0u32, 0u32);
        let mut seen = 0u64;
        let argv = &self.store.heap[args as usize..args as usize + a];
        let mut todo = !skip & ((1u32 << a) - 1);
        while todo != 0 {
            let j = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            match self.store.deref(argv[j]) {
                Cell::Ref(r) => {
                    // (`seen`: a bit per variable address modulo 64, so that a variable not seen
                    // yet is known without comparing it with the others)
                    let mut f = if seen & (1 << (r & 63)) != 0 { vars } else { 0 };
                    seen |= 1 << (r & 63);
                    while f != 0 && refs[f.trailing_zeros() as usize] != r {
                        f &= f - 1;
                    }
                    if f == 0 {
                        refs[j] = r;
                        vars |= 1 << j;
                    } else {
                        at[j] = f.trailing_zeros() as u8;
                        same |= 1 << j;
                    }
                }
                // no atomic answer unifies with a compound
                Cell::Struct(_) | Cell::List(_) => return Ok(Step::Fail),
                b => {
                    code[j] = atomic_code(b);
                    want |= 1 << j;
                }
            }
        }
        let entry = entry_of(&self.state_entries, &self.memo_entries, e);
        let n = entry.len();
        let codes = &entry.codes[..n * a];
        let mut k = pos;
        loop {
            if k >= n {
                return Ok(Step::Fail);
            }
            let v = &codes[k * a..(k + 1) * a];
            let mut f = want;
            while f != 0 && v[f.trailing_zeros() as usize] == code[f.trailing_zeros() as usize] {
                f &= f - 1;
            }
            if f == 0 {
                let mut s = same;
                while s != 0 {
                    let j = s.trailing_zeros() as usize;
                    if v[j] != v[at[j] as usize] {
                        break;
                    }
                    s &= s - 1;
                }
                if s == 0 {
                    break;
                }
            }
            k += 1;
        }
        let stride = 1 + a;
        if in_place {
            if k + 1 < n {
                if let Some(ChoicePoint {
                    kind: CpKind::MemoServe { pos: p, .. },
                    ..
                }) = self.cps.v.last_mut()
                {
                    *p = k as u32 + 1;
                }
            } else {
                self.pop_cp();
            }
        } else if k + 1 < n {
            // answers remain: resumed at the next one (not looked for now: a caller that needs
            // one answer, e.g. under `\+`, would pay for the search)
            let heights = self.heights(marks);
            self.push_cp_at(
                CpKind::MemoServe {
                    entry: e,
                    pos: k as u32 + 1,
                    args,
                    arity,
                    skip,
                },
                heights,
                next,
                0,
            )?;
        }
        let entry = entry_of(&self.state_entries, &self.memo_entries, e);
        let v = &entry.cells[k * stride + 1..(k + 1) * stride];
        let mut f = vars;
        while f != 0 {
            let j = f.trailing_zeros() as usize;
            self.store.bind(refs[j], v[j]);
            f &= f - 1;
        }
        self.cur = next;
        Ok(Step::Go)
    }

    /// An argument-memo fill of predicate `p` is complete: counted, its cells added to the table's;
    /// the table is given up when it does not pay ([`ArgStat::useless`]).
    #[inline(never)]
    pub(super) fn arg_fill_done(&mut self, p: u32, f: &Fill) {
        self.memo_cells += f.answers.cells.len() + f.answers.len();
        let Some(st) = self.arg_stats.get_mut(p as usize) else {
            return;
        };
        st.fills += 1;
        st.steps += self.inferences - f.start;
        st.stored += f.answers.len() as u64;
        st.cells += f.answers.cells.len() as u64;
        match &f.key {
            MemoKey::Flat(_) => st.flat = true,
            MemoKey::Long(k) => st.keywords += k.len() as u64,
        }
        if st.useless(self.prog.data().preds[p as usize].clauses.len()) {
            // called directly from now on (its entries stay valid, and are no longer asked)
            self.no_memo.insert(p);
        }
    }

    /// Has the memoization of predicate `p` been given up (it is called directly)?
    #[cfg(test)]
    pub(crate) fn memo_given_up(&self, p: u32) -> bool {
        self.no_memo.contains(&p)
    }

    /// Gives up memoizing the innermost fill (too many answers or steps, or an exception): restores
    /// the state at its call and runs the predicate directly, never memoizing it again.
    pub(super) fn abort_fill(
        &mut self,
        data: &ProgramData,
        host: &mut dyn Host,
    ) -> Result<Step, Fault> {
        let Some(f) = self.fills.last() else {
            return Ok(Step::Fail);
        };
        let cpi = f.cp as usize;
        self.cut(cpi as u32 + 1);
        self.restore(cpi, host);
        let cp = self.cps[cpi];
        self.pop_cp();
        self.fills.pop();
        let CpKind::MemoFill {
            pred, args, arity, ..
        } = cp.kind
        else {
            return Ok(Step::Fail);
        };
        self.no_memo.insert(pred);
        self.call_user(data, pred, args, arity, cp.next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::host::NoHost;

    /// `Machine::probe` (the cache probe of `call_memo_args` and `memo_answer_exists`) finds what
    /// the key of `key_cells` finds in the table's cache, with the same first occurrences of
    /// variables: for calls of every argument kind (atoms, integers, floats, strings, repeated and
    /// distinct variables, a compound), filled and not.
    #[test]
    fn probe_agrees_with_the_flat_key() {
        let src = r#"
f(a, 1, x). f(b, 2, y). f(b, 3, z). f(1.5, "s", w). f(V, V, same).
g(A, B, C) :- f(A, B, C).
"#;
        let (p, d) = Program::from_source(src);
        assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
        let gp = *p.0.by_key.get(&(Atom::new("g"), 3)).expect("g/3");
        assert!(
            p.0.preds[gp as usize].memo,
            "g/3 is memoized by its arguments"
        );
        let mut m = Machine::new(p.clone(), Limits::default());
        let mut host = NoHost;
        let calls: Vec<[Term; 3]> = vec![
            [Term::atom("a"), Term::Var(0), Term::Var(1)],
            [Term::atom("b"), Term::Int(2), Term::Var(0)],
            [Term::atom("b"), Term::Var(0), Term::Var(0)],
            [Term::Var(0), Term::Var(0), Term::Var(1)],
            [Term::Var(0), Term::Var(1), Term::Var(2)],
            [Term::Float(1.5), Term::Var(0), Term::atom("w")],
            [Term::Var(0), Term::Str(Atom::new("s")), Term::Var(1)],
            [Term::atom("c"), Term::Var(0), Term::Var(1)],
            [
                Term::compound("h", vec![Term::Var(0)]),
                Term::Var(1),
                Term::Var(2),
            ],
        ];
        let goal = |args: &[Term; 3]| Term::compound("g", args.to_vec());
        // the call's arguments: the cells after the header of `g(..)` built on the heap
        let args_of = |m: &mut Machine, args: &[Term; 3]| {
            let mut vars = Vec::new();
            match m.store.build(&goal(args), &mut vars) {
                Cell::Struct(s) => s + 1,
                other => panic!("{other:?}"),
            }
        };
        // (returns the calls found in the cache: a slot may be taken by a later key)
        let check = |m: &mut Machine, filled: bool| {
            let mut hits = 0;
            for (i, call) in calls.iter().enumerate() {
                let args = args_of(m, call);
                let by_key = m
                    .flat_key::<3>(gp, args)
                    .map(|fc| (m.cached_entry(&fc, 3), fc.first, fc.refs));
                let probed = m.probe::<3>(gp, args);
                match (by_key, probed) {
                    (None, None) => assert_eq!(i, 8, "only the compound is not keyed flat"),
                    (Some((None, ..)), None) => {}
                    (Some((Some(e), first, refs)), Some((pe, pfirst, prefs))) => {
                        assert!(filled, "{i}");
                        hits += 1;
                        assert_eq!((e, first), (pe, pfirst), "{i}");
                        for j in 0..3 {
                            if first & (1 << j) != 0 {
                                assert_eq!(refs[j], prefs[j], "{i} {j}");
                            }
                        }
                    }
                    (k, pr) => panic!("{i}: key {:?}, probe {pr:?}", k.map(|k| k.0)),
                }
            }
            hits
        };
        assert_eq!(check(&mut m, false), 0);
        // fill the entries by running the calls (all answers)
        for call in &calls {
            m.reset();
            let mut vars = Vec::new();
            let g = m.store.build(&goal(call), &mut vars);
            m.start(g);
            let mut redo = false;
            while m.solve(redo, &mut host).unwrap() {
                redo = true;
            }
        }
        m.reset();
        assert!(check(&mut m, true) >= 6, "the filled calls are found");
    }
}
