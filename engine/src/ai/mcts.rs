//! MCTS: decoupled UCT over determinized states, open loop.
//!
//! - The search runs on up to [`DETERMINIZATIONS`] states sampled from the player's observation
//!   ([`super::determinize`]); iteration `i` uses state `i mod k`.
//! - A tree node stands for a sequence of joint player choices from the root (open loop: chance
//!   outcomes are not part of the tree; every pass draws them anew from the game's distributions with
//!   the search's own RNG).
//! - Decoupled UCT: in a node, every player who chooses in that chronon picks its own combination of
//!   actions (one per switch) from its own statistics: first a not yet tried one (uniformly at random),
//!   then the one maximising `mean + C·sqrt(ln N / n)` with rewards normalised to [0, 1] by the
//!   smallest and largest reward seen so far.
//! - One node is added per iteration; from it a playout chooses uniformly at random for every player
//!   until the game ends or [`PLAYOUT_LIMIT`] chronons from the root have run.
//! - Reward of player `p` ([`Objective::reward`]): by default its own account at a terminal state
//!   (`relative`: its account minus the best other account; `paranoid`: the searching AI's account
//!   for it, its negation for the others); at the playout limit the same with `heuristic/2` when the
//!   game defines it.
//! - The choice: the AI's most visited root combination (ties: the first in order).

use super::determinize;
use super::sim::{self, Decision};
use super::{Choice, Objective, Observation, Stats};
use crate::game::{Game, RuntimeError, Session, Submission};
use crate::rng::Rng;
use crate::term::Term;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The most determinized states a search samples.
pub const DETERMINIZATIONS: usize = 8;
/// Chronons from the root after which a playout stops and evaluates the state.
pub const PLAYOUT_LIMIT: u64 = 500;
/// The exploration constant of UCB1 (rewards in [0, 1]).
pub const EXPLORATION: f64 = 1.0;

#[derive(Clone, Debug, Default)]
struct Arm {
    visits: u64,
    total: f64,
}

#[derive(Default)]
struct Node {
    visits: u64,
    /// Per player: the statistics of each tried combination, by key.
    arms: Vec<FxHashMap<Vec<Term>, Arm>>,
    children: FxHashMap<Vec<Term>, usize>,
}

pub struct Mcts {
    game: Arc<Game>,
    obs: Observation,
    budget: u64,
    rng: Rng,
    work: Vec<Session>,
    nodes: Vec<Node>,
    me: usize,
    /// The objective the spec names (none: the game's), and the one searched (set by `start`).
    spec_objective: Option<Objective>,
    objective: Objective,
    heuristic: bool,
    lo: f64,
    hi: f64,
    /// The AI's own decision at the root.
    mine: Option<Decision>,
    stats: Stats,
    /// The stop callback asked to stop.
    pub stopped: bool,
}

/// The combinations the players picked in a node: `(player, combination key)`.
type Picks = Vec<(usize, Vec<Term>)>;

fn key(subs: &[Submission]) -> Vec<Term> {
    let mut k = Vec::with_capacity(subs.len() * 2);
    for s in subs {
        k.push(s.switch.clone());
        k.push(s.action.clone());
    }
    k
}

impl Mcts {
    pub fn new(
        game: Arc<Game>,
        obs: Observation,
        iterations: u64,
        objective: Option<Objective>,
        seed: u64,
    ) -> Mcts {
        let me = obs.player_index();
        Mcts {
            game,
            obs,
            budget: iterations,
            rng: Rng::new(seed),
            work: Vec::new(),
            nodes: Vec::new(),
            me,
            spec_objective: objective,
            objective: objective.unwrap_or_default(),
            heuristic: false,
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            mine: None,
            stats: Stats::default(),
            stopped: false,
        }
    }

    fn start(&mut self) -> Result<(), RuntimeError> {
        let n = DETERMINIZATIONS.min(self.budget as usize).max(1);
        let (work, k) = determinize::states(&self.game, &self.obs, n, &mut self.rng)?;
        self.stats.determinizations = k as u64;
        self.work = work;
        self.heuristic = sim::has_heuristic(&self.work[0]);
        self.objective = sim::objective(&mut self.work[0], self.spec_objective)?;
        self.nodes.push(self.new_node());
        // the AI's root decision: its own legal switches, as it sees them
        let mut mine = Decision {
            player: self.me,
            switches: Vec::new(),
        };
        for sw in &self.obs.switches {
            let acts = sim::candidates(&mut self.work[0], sw)?;
            if !acts.is_empty() {
                mine.switches.push((sw.id.clone(), acts));
            }
        }
        self.mine = (!mine.switches.is_empty()).then_some(mine);
        Ok(())
    }

    fn new_node(&self) -> Node {
        Node {
            arms: vec![FxHashMap::default(); self.obs.players.len()],
            ..Node::default()
        }
    }

    /// Runs up to `n` more iterations (within the budget). Returns true when the budget is used, the
    /// player has nothing to choose, or the search was stopped.
    pub fn step(
        &mut self,
        n: u64,
        should_stop: &mut dyn FnMut(&Stats) -> bool,
    ) -> Result<bool, RuntimeError> {
        if self.stopped || !self.obs.must_decide() {
            return Ok(true);
        }
        if self.work.is_empty() {
            self.start()?;
        }
        if self.mine.is_none() {
            return Ok(true);
        }
        let mut done = 0;
        while done < n && self.stats.nodes < self.budget {
            if should_stop(&self.stats) {
                self.stopped = true;
                return Ok(true);
            }
            self.iterate()?;
            done += 1;
        }
        Ok(self.stats.nodes >= self.budget)
    }

    /// UCB1 pick among the decision's combinations in node `node`.
    fn select(&mut self, node: usize, d: &Decision, p: &Term) -> Vec<Submission> {
        let count = d.count();
        let arms = &self.nodes[node].arms[d.player];
        let untried: Vec<usize> = (0..count)
            .filter(|&i| !arms.contains_key(&key(&d.combo(p, i))))
            .collect();
        if !untried.is_empty() {
            let i = untried[self.rng.below(untried.len() as u64) as usize];
            return d.combo(p, i);
        }
        let ln = (self.nodes[node].visits.max(1) as f64).ln();
        let span = if self.hi > self.lo {
            self.hi - self.lo
        } else {
            1.0
        };
        let mut best = (0, f64::NEG_INFINITY);
        for i in 0..count {
            let Some(a) = arms.get(&key(&d.combo(p, i))) else {
                continue;
            };
            let mean = (a.total / a.visits.max(1) as f64 - self.lo) / span;
            let u = mean + EXPLORATION * (ln / a.visits.max(1) as f64).sqrt();
            if u > best.1 {
                best = (i, u);
            }
        }
        d.combo(p, best.0)
    }

    fn iterate(&mut self) -> Result<(), RuntimeError> {
        let k = (self.stats.nodes % self.work.len() as u64) as usize;
        let mut work = std::mem::take(&mut self.work);
        let r = self.descend(&mut work[k]);
        self.work = work;
        self.stats.nodes += 1;
        r
    }

    fn descend(&mut self, s: &mut Session) -> Result<(), RuntimeError> {
        let mut node = Some(0usize);
        // (node, [(player, combination key)])
        let mut path: Vec<(usize, Picks)> = Vec::new();
        let mut steps: u64 = 0;
        let players = self.obs.players.clone();
        while steps < PLAYOUT_LIMIT && !s.is_terminal()? {
            let mut decisions = sim::decisions(s)?;
            if steps == 0 {
                // the root: the AI decides from its own view of its switches
                if let Some(m) = &self.mine {
                    decisions.retain(|d| d.player != self.me);
                    decisions.push(m.clone());
                    sim::sort_by_player(&mut decisions);
                }
            }
            let mut joint: Vec<Submission> = Vec::new();
            let mut picks = Vec::new();
            for d in &decisions {
                let p = &players[d.player];
                let combo = match node {
                    Some(n) => self.select(n, d, p),
                    None => d.combo(p, self.rng.below(d.count() as u64) as usize),
                };
                if node.is_some() {
                    picks.push((d.player, key(&combo)));
                }
                joint.extend(combo);
            }
            let chance = sim::chance_switches(s)?;
            let draws = sim::sample_chance(&chance, &mut self.rng);
            sim::advance(s, &joint, &draws)?;
            steps += 1;
            self.stats.chronons += 1;
            if let Some(n) = node {
                path.push((n, picks));
                let jk = key(&joint);
                node = match self.nodes[n].children.get(&jk) {
                    Some(&c) => Some(c),
                    None => {
                        let c = self.nodes.len();
                        let fresh = self.new_node();
                        self.nodes.push(fresh);
                        self.nodes[n].children.insert(jk, c);
                        // the new node is the last one in the tree this iteration
                        path.push((c, Vec::new()));
                        None
                    }
                };
            }
        }
        let terminal = s.is_terminal()?;
        let values = sim::standings(s, self.heuristic && !terminal)?;
        for _ in 0..steps {
            sim::retreat(s);
        }
        let rewards: Vec<f64> = (0..players.len())
            .map(|i| self.objective.reward(&values, i, self.me))
            .collect();
        for &r in &rewards {
            self.lo = self.lo.min(r);
            self.hi = self.hi.max(r);
        }
        for (n, picks) in path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            for (p, k) in picks {
                let arm = node.arms[p].entry(k).or_default();
                arm.visits += 1;
                arm.total += rewards[p];
            }
        }
        Ok(())
    }

    /// The AI's most visited root combination so far (ties: the first in order).
    pub fn best_so_far(&self) -> Choice {
        let mut c = Choice {
            submissions: sim::first_moves(&self.obs),
            value: 0.0,
            stats: self.stats.clone(),
        };
        let (Some(mine), Some(root)) = (&self.mine, self.nodes.first()) else {
            return c;
        };
        let p = &self.obs.player;
        let span = if self.hi > self.lo {
            self.hi - self.lo
        } else {
            1.0
        };
        let mut best: Option<(usize, u64, f64)> = None;
        for i in 0..mine.count() {
            let Some(a) = root.arms[self.me].get(&key(&mine.combo(p, i))) else {
                continue;
            };
            if best.is_none_or(|(_, n, _)| a.visits > n) {
                let mean = (a.total / a.visits.max(1) as f64 - self.lo) / span;
                best = Some((i, a.visits, mean));
            }
        }
        if let Some((i, _, v)) = best {
            c.submissions = mine.combo(p, i);
            c.value = v;
        }
        c
    }
}
