//! Depth-bounded game-tree search with iterative deepening, so that it can be stopped at any node.
//! What it maximises is its [`Objective`]:
//! - `own` (the default): max-n. A state's value is every player's standing; each player, in turn,
//!   picks the choice best for its own standing (a tie goes against the searching AI: among the
//!   choices equally good for another player, the one worst for the AI), chance is the expectation
//!   of every standing. In a game of two players whose accounts always sum to the same amount this
//!   is minimax; in other games it is what rational players who care for their own account do
//!   (backward induction: the subgame-perfect play of a game of perfect information).
//! - `relative`: alpha-beta minimax of the AI's standing minus the best other standing, every other
//!   player minimising it (paranoid).
//! - `paranoid`: alpha-beta minimax of the AI's own standing, every other player minimising it.
//!
//! - Depth counts the chronons in which some player chooses; chronons where only chance switches and
//!   defaults act are simulated through without using depth (at most [`MAX_IDLE`] in a row).
//! - In a chronon where several players choose, the AI chooses first and the others after it, each in
//!   player order, as if they saw the earlier choices (pessimistic for the AI). A player owning
//!   several switches chooses a combination: all combinations in order, the first switch varying
//!   slowest.
//! - Chance: the expectation over the joint outcomes of the chronon's chance switches (exact up to
//!   [`sim::MAX_CHANCE_OUTCOMES`] outcomes, else sampled with the search's RNG); no pruning across
//!   a chance node.
//! - Standing of a player: at a terminal state its account; at the depth bound the game's
//!   `heuristic(Player, Value)` when the game defines it, else its account.
//! - Move order is the switch's action order; ties go to the first best move.

use super::determinize;
use super::sim::{self, Decision};
use super::{AiError, Choice, Objective, Observation, Stats};
use crate::game::{Game, RuntimeError, Session, Submission};
use crate::rng::Rng;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The most chronons in a row in which no player chooses before the state is evaluated.
pub const MAX_IDLE: u32 = 1000;

pub struct Minimax {
    game: Arc<Game>,
    obs: Observation,
    depth: u32,
    rng: Rng,
    root: Option<Session>,
    me: usize,
    /// The objective the spec names (none: the game's), and the one searched (set at the root).
    spec_objective: Option<Objective>,
    objective: Objective,
    heuristic: bool,
    best: Option<Choice>,
    stats: Stats,
    /// The stop callback asked to stop.
    pub stopped: bool,
    /// Iterative deepening (depth 1, 2, …): on for the anytime interface, off for [`super::choose`].
    pub deepen: bool,
    /// Transposition table of the current depth: state key → (value, bound).
    table: FxHashMap<u64, (f64, Bound)>,
    /// Max-n's transposition table of the current depth: state key → every player's value.
    table_n: FxHashMap<u64, Vec<f64>>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The most transposition table entries.
pub const MAX_TABLE: usize = 1 << 20;

/// A state's key: the set of facts (order-insensitive), the accounts and the remaining depth.
fn state_key(s: &Session, depth: u32) -> u64 {
    let st = s.state();
    let mut sum: u64 = 0;
    let mut xor: u64 = 0;
    for f in st.facts.terms() {
        let mut h = FxHasher::default();
        f.hash(&mut h);
        let v = h.finish();
        sum = sum.wrapping_add(v.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        xor ^= v.rotate_left(17);
    }
    let mut h = FxHasher::default();
    (sum, xor, st.facts.len(), depth).hash(&mut h);
    for a in &st.accounts {
        a.hash(&mut h);
    }
    h.finish()
}

type StopFn<'a> = &'a mut dyn FnMut(&Stats) -> bool;

impl Minimax {
    pub fn new(
        game: Arc<Game>,
        obs: Observation,
        depth: u32,
        objective: Option<Objective>,
        seed: u64,
    ) -> Minimax {
        let me = obs.player_index();
        Minimax {
            game,
            obs,
            depth,
            rng: Rng::new(seed),
            root: None,
            me,
            spec_objective: objective,
            objective: objective.unwrap_or_default(),
            heuristic: false,
            best: None,
            stats: Stats::default(),
            stopped: false,
            deepen: true,
            table: FxHashMap::default(),
            table_n: FxHashMap::default(),
        }
    }

    /// Searches the next depth (1, 2, … up to the depth bound). Returns true when the full depth is
    /// done, the player has nothing to choose, or the search was stopped.
    pub fn step(&mut self, should_stop: StopFn<'_>) -> Result<bool, RuntimeError> {
        if self.stopped || self.stats.depth >= self.depth || !self.obs.must_decide() {
            return Ok(true);
        }
        if self.root.is_none() {
            let (mut states, k) = determinize::states(&self.game, &self.obs, 1, &mut self.rng)?;
            self.stats.determinizations = k as u64;
            let mut s = states.swap_remove(0);
            self.heuristic = sim::has_heuristic(&s);
            self.objective = sim::objective(&mut s, self.spec_objective)?;
            self.root = Some(s);
        }
        let d = if self.deepen {
            self.stats.depth + 1
        } else {
            self.depth
        };
        self.table.clear();
        self.table_n.clear();
        let mut s = match &self.root {
            Some(r) => r.fork(),
            None => return Ok(true),
        };
        let found = if self.objective == Objective::Own {
            self.root_search_n(&mut s, d, should_stop)
        } else {
            self.root_search(&mut s, d, should_stop)
        };
        match found {
            Ok((subs, value)) => {
                self.stats.depth = d;
                self.best = Some(Choice {
                    submissions: subs,
                    value,
                    stats: self.stats.clone(),
                });
                Ok(d >= self.depth)
            }
            Err(AiError::Stopped) => {
                self.stopped = true;
                Ok(true)
            }
            Err(AiError::Runtime(e)) => Err(e),
        }
    }

    /// The choice of the deepest completed depth (the first legal move before any).
    pub fn best_so_far(&self) -> Choice {
        let mut c = self.best.clone().unwrap_or_else(|| Choice {
            submissions: sim::first_moves(&self.obs),
            value: 0.0,
            stats: Stats::default(),
        });
        c.stats = self.stats.clone();
        c
    }

    fn root_search(
        &mut self,
        s: &mut Session,
        depth: u32,
        stop: StopFn<'_>,
    ) -> Result<(Vec<Submission>, f64), AiError> {
        let decisions = self.ordered(s)?;
        let Some(mine) = decisions.first().filter(|d| d.player == self.me).cloned() else {
            return Ok((Vec::new(), self.evaluate(s, false)?));
        };
        let me = self.obs.player.clone();
        let mut alpha = f64::NEG_INFINITY;
        let beta = f64::INFINITY;
        let mut best: Option<(usize, f64)> = None;
        for i in 0..mine.count() {
            let mut subs = mine.combo(&me, i);
            let v = self.choose_rest(s, &decisions, 1, &mut subs, depth, alpha, beta, stop)?;
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
            }
            alpha = alpha.max(v);
        }
        let (i, v) = best.unwrap_or((0, 0.0));
        Ok((mine.combo(&me, i), v))
    }

    /// The decisions of the state, the AI's first, then the others in player order.
    fn ordered(&mut self, s: &mut Session) -> Result<Vec<Decision>, AiError> {
        let mut d = sim::decisions(s)?;
        if let Some(k) = d.iter().position(|x| x.player == self.me) {
            let mine = d.remove(k);
            d.insert(0, mine);
        }
        Ok(d)
    }

    /// The AI's value of a state under the `relative` or `paranoid` objective.
    fn evaluate(&mut self, s: &mut Session, heuristic: bool) -> Result<f64, AiError> {
        let v = sim::standings(s, heuristic)?;
        Ok(self.objective.reward(&v, self.me, self.me))
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        s: &mut Session,
        depth: u32,
        idle: u32,
        alpha: f64,
        beta: f64,
        stop: StopFn<'_>,
    ) -> Result<f64, AiError> {
        self.stats.nodes += 1;
        if stop(&self.stats) {
            return Err(AiError::Stopped);
        }
        if s.is_terminal()? {
            return self.evaluate(s, false);
        }
        let decisions = self.ordered(s)?;
        if decisions.is_empty() {
            if idle >= MAX_IDLE {
                return self.evaluate(s, self.heuristic);
            }
            return self.chance_then_run(s, &[], depth, idle + 1, alpha, beta, stop);
        }
        if depth == 0 {
            return self.evaluate(s, self.heuristic);
        }
        let key = state_key(s, depth);
        let (mut alpha, mut beta) = (alpha, beta);
        if let Some(&(v, bound)) = self.table.get(&key) {
            match bound {
                Bound::Exact => return Ok(v),
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
            if alpha >= beta {
                return Ok(v);
            }
        }
        let (a0, b0) = (alpha, beta);
        let mut subs = Vec::new();
        let v = self.choose_rest(s, &decisions, 0, &mut subs, depth, alpha, beta, stop)?;
        let bound = if v <= a0 {
            Bound::Upper
        } else if v >= b0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() < MAX_TABLE {
            self.table.insert(key, (v, bound));
        }
        Ok(v)
    }

    /// Decision `k` onwards of the chronon (submissions so far in `subs`), then the chronon.
    #[allow(clippy::too_many_arguments)]
    fn choose_rest(
        &mut self,
        s: &mut Session,
        decisions: &[Decision],
        k: usize,
        subs: &mut Vec<Submission>,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        stop: StopFn<'_>,
    ) -> Result<f64, AiError> {
        let Some(d) = decisions.get(k) else {
            let subs = subs.clone();
            return self.chance_then_run(s, &subs, depth - 1, 0, alpha, beta, stop);
        };
        let maximise = d.player == self.me;
        let p = self.obs.players[d.player].clone();
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for i in 0..d.count() {
            let n = subs.len();
            subs.extend(d.combo(&p, i));
            let v = self.choose_rest(s, decisions, k + 1, subs, depth, alpha, beta, stop);
            subs.truncate(n);
            let v = v?;
            if maximise {
                if v > best {
                    best = v;
                }
                alpha = alpha.max(best);
            } else {
                if v < best {
                    best = v;
                }
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }

    #[allow(clippy::too_many_arguments)]
    fn chance_then_run(
        &mut self,
        s: &mut Session,
        subs: &[Submission],
        depth: u32,
        idle: u32,
        alpha: f64,
        beta: f64,
        stop: StopFn<'_>,
    ) -> Result<f64, AiError> {
        let chance = sim::chance_switches(s)?;
        if chance.is_empty() {
            sim::advance(s, subs, &[])?;
            self.stats.chronons += 1;
            let v = self.node(s, depth, idle, alpha, beta, stop)?;
            sim::retreat(s);
            return Ok(v);
        }
        let mut total = 0.0;
        for (draws, p) in sim::chance_outcomes(&chance, &mut self.rng) {
            sim::advance(s, subs, &draws)?;
            self.stats.chronons += 1;
            let v = self.node(s, depth, idle, f64::NEG_INFINITY, f64::INFINITY, stop)?;
            sim::retreat(s);
            total += p * v;
        }
        Ok(total)
    }
}

// --- max-n: the `own` objective --------------------------------------------------------------------
impl Minimax {
    fn root_search_n(
        &mut self,
        s: &mut Session,
        depth: u32,
        stop: StopFn<'_>,
    ) -> Result<(Vec<Submission>, f64), AiError> {
        let decisions = self.ordered(s)?;
        let Some(mine) = decisions.first().filter(|d| d.player == self.me).cloned() else {
            let v = sim::standings(s, false)?;
            return Ok((Vec::new(), v.get(self.me).copied().unwrap_or(0.0)));
        };
        let me = self.obs.player.clone();
        let mut best: Option<(usize, f64)> = None;
        for i in 0..mine.count() {
            let mut subs = mine.combo(&me, i);
            let v = self.choose_rest_n(s, &decisions, 1, &mut subs, depth, stop)?;
            let mine_v = v.get(self.me).copied().unwrap_or(0.0);
            if best.is_none_or(|(_, b)| mine_v > b) {
                best = Some((i, mine_v));
            }
        }
        let (i, v) = best.unwrap_or((0, 0.0));
        Ok((mine.combo(&me, i), v))
    }

    fn node_n(
        &mut self,
        s: &mut Session,
        depth: u32,
        idle: u32,
        stop: StopFn<'_>,
    ) -> Result<Vec<f64>, AiError> {
        self.stats.nodes += 1;
        if stop(&self.stats) {
            return Err(AiError::Stopped);
        }
        if s.is_terminal()? {
            return Ok(sim::standings(s, false)?);
        }
        let decisions = self.ordered(s)?;
        if decisions.is_empty() {
            if idle >= MAX_IDLE {
                return Ok(sim::standings(s, self.heuristic)?);
            }
            return self.chance_then_run_n(s, &[], depth, idle + 1, stop);
        }
        if depth == 0 {
            return Ok(sim::standings(s, self.heuristic)?);
        }
        let key = state_key(s, depth);
        if let Some(v) = self.table_n.get(&key) {
            return Ok(v.clone());
        }
        let mut subs = Vec::new();
        let v = self.choose_rest_n(s, &decisions, 0, &mut subs, depth, stop)?;
        if self.table_n.len() < MAX_TABLE {
            self.table_n.insert(key, v.clone());
        }
        Ok(v)
    }

    /// Decision `k` onwards of the chronon: its player picks the choice best for itself (ties: the
    /// one worst for the AI, then the first), seeing the choices before it.
    fn choose_rest_n(
        &mut self,
        s: &mut Session,
        decisions: &[Decision],
        k: usize,
        subs: &mut Vec<Submission>,
        depth: u32,
        stop: StopFn<'_>,
    ) -> Result<Vec<f64>, AiError> {
        let Some(d) = decisions.get(k) else {
            let subs = subs.clone();
            return self.chance_then_run_n(s, &subs, depth - 1, 0, stop);
        };
        let p = self.obs.players[d.player].clone();
        let at = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(0.0);
        let mut best: Option<Vec<f64>> = None;
        for i in 0..d.count() {
            let n = subs.len();
            subs.extend(d.combo(&p, i));
            let v = self.choose_rest_n(s, decisions, k + 1, subs, depth, stop);
            subs.truncate(n);
            let v = v?;
            let better = match &best {
                None => true,
                Some(b) => {
                    let (mine, theirs) = (at(&v, d.player), at(b, d.player));
                    mine > theirs
                        || (mine == theirs
                            && d.player != self.me
                            && at(&v, self.me) < at(b, self.me))
                }
            };
            if better {
                best = Some(v);
            }
        }
        Ok(best.unwrap_or_else(|| vec![0.0; self.obs.players.len()]))
    }

    fn chance_then_run_n(
        &mut self,
        s: &mut Session,
        subs: &[Submission],
        depth: u32,
        idle: u32,
        stop: StopFn<'_>,
    ) -> Result<Vec<f64>, AiError> {
        let chance = sim::chance_switches(s)?;
        if chance.is_empty() {
            sim::advance(s, subs, &[])?;
            self.stats.chronons += 1;
            let v = self.node_n(s, depth, idle, stop);
            sim::retreat(s);
            return v;
        }
        let mut total = vec![0.0; self.obs.players.len()];
        for (draws, p) in sim::chance_outcomes(&chance, &mut self.rng) {
            sim::advance(s, subs, &draws)?;
            self.stats.chronons += 1;
            let v = self.node_n(s, depth, idle, stop);
            sim::retreat(s);
            for (t, x) in total.iter_mut().zip(v?) {
                *t += p * x;
            }
        }
        Ok(total)
    }
}
