//! AI players for any SIDL game (issue 7): uniform random, depth-bounded minimax with alpha-beta, and
//! MCTS (decoupled UCT with determinization). Pure and deterministic given a seed; budgeted by depth,
//! nodes or iterations; anytime (a stop callback polled at every node, or [`Search::step`]).
//!
//! A player never reads facts hidden from it: the entry points take an [`Observation`] (what the
//! player may see: its view, its own submissions and events, the accounts, its legal switches), the
//! [`Game`] and a seed, never a [`Session`]'s full state. Searches run on states *sampled* from the
//! observation ([`determinize`]). See `docs/ai.md`.

pub mod determinize;
pub mod mcts;
pub mod minimax;
pub mod sim;

#[cfg(test)]
mod tests;

use crate::game::session::{Event, RuntimeError, Session, Settings, Submission, SwitchInfo};
use crate::game::{Actions, Game};
use crate::rng::Rng;
use crate::solve::Limits;
use crate::term::Term;
use std::fmt;
use std::sync::Arc;

/// What a searching AI maximises (docs/ai.md, "Objectives"), written after its budget:
/// `minimax:4:relative`, `mcts:500:paranoid`; without it, [`Objective::Own`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Objective {
    /// Its own account. Every player is assumed to maximise its own account too: max-n in minimax
    /// (expectation over chance; a tie among another player's choices goes against the searching
    /// AI), each player's own account as its reward in MCTS.
    #[default]
    Own,
    /// Its account minus the best other account, against players who minimise that: right for
    /// games that are only won or lost.
    Relative,
    /// Its own account, against players who minimise it: the floor it can guarantee (zero-sum
    /// pessimism).
    Paranoid,
}

impl Objective {
    pub const ALL: [Objective; 3] = [Objective::Own, Objective::Relative, Objective::Paranoid];

    pub fn name(self) -> &'static str {
        match self {
            Objective::Own => "own",
            Objective::Relative => "relative",
            Objective::Paranoid => "paranoid",
        }
    }

    pub fn parse(text: &str) -> Option<Objective> {
        Objective::ALL.into_iter().find(|o| o.name() == text)
    }

    /// The reward of player `i` given every player's standing, from the point of view of the
    /// searching player `me`.
    pub fn reward(self, values: &[f64], i: usize, me: usize) -> f64 {
        match self {
            Objective::Own => values.get(i).copied().unwrap_or(0.0),
            Objective::Relative => sim::relative(values, i),
            Objective::Paranoid => {
                let mine = values.get(me).copied().unwrap_or(0.0);
                if i == me {
                    mine
                } else {
                    -mine
                }
            }
        }
    }
}

/// Which AI plays, as written `random`, `minimax:DEPTH[:OBJECTIVE]` or
/// `mcts:ITERATIONS[:OBJECTIVE]` (OBJECTIVE `own`, `relative` or `paranoid`; without it the
/// game's default: its `objective/1` hook, else `own`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiSpec {
    Random,
    Minimax {
        depth: u32,
        objective: Option<Objective>,
    },
    Mcts {
        iterations: u64,
        objective: Option<Objective>,
    },
}

impl AiSpec {
    /// Minimax to `depth` with the game's default objective.
    pub fn minimax(depth: u32) -> AiSpec {
        AiSpec::Minimax {
            depth,
            objective: None,
        }
    }

    /// MCTS with `iterations` with the game's default objective.
    pub fn mcts(iterations: u64) -> AiSpec {
        AiSpec::Mcts {
            iterations,
            objective: None,
        }
    }

    /// The same AI with the objective `objective`.
    pub fn with_objective(self, objective: Objective) -> AiSpec {
        match self {
            AiSpec::Random => AiSpec::Random,
            AiSpec::Minimax { depth, .. } => AiSpec::Minimax {
                depth,
                objective: Some(objective),
            },
            AiSpec::Mcts { iterations, .. } => AiSpec::Mcts {
                iterations,
                objective: Some(objective),
            },
        }
    }

    /// The objective the spec names (none: the game's default).
    pub fn objective(&self) -> Option<Objective> {
        match *self {
            AiSpec::Random => None,
            AiSpec::Minimax { objective, .. } | AiSpec::Mcts { objective, .. } => objective,
        }
    }

    /// Reads `random`, `minimax:DEPTH` (DEPTH ≥ 1) or `mcts:ITERATIONS` (ITERATIONS ≥ 1), each
    /// optionally followed by `:own`, `:relative` or `:paranoid`.
    pub fn parse(text: &str) -> Result<AiSpec, String> {
        let text = text.trim();
        let (kind, arg) = match text.split_once(':') {
            Some((k, a)) => (k.trim(), Some(a.trim())),
            None => (text, None),
        };
        let (arg, objective) = match arg.map(|a| a.split_once(':')) {
            Some(Some((a, o))) => {
                let o = o.trim();
                let objective = Objective::parse(o).ok_or_else(|| {
                    format!(
                        "'{text}': unknown objective '{o}': the objectives are own (the default), relative and paranoid"
                    )
                })?;
                (Some(a.trim()), Some(objective))
            }
            _ => (arg, None),
        };
        let number = |what: &str| -> Result<u64, String> {
            let Some(a) = arg else {
                return Err(format!("'{text}': write {kind}:{what}, e.g. {kind}:4"));
            };
            match a.parse::<u64>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(format!(
                    "'{text}': {what} must be a positive integer, not '{a}'"
                )),
            }
        };
        match kind {
            "random" if arg.is_none() => Ok(AiSpec::Random),
            "random" => Err(format!("'{text}': random takes no argument")),
            "minimax" => {
                let d = number("DEPTH")?;
                let depth = u32::try_from(d).map_err(|_| format!("'{text}': depth too large"))?;
                Ok(AiSpec::Minimax { depth, objective })
            }
            "mcts" => Ok(AiSpec::Mcts {
                iterations: number("ITERATIONS")?,
                objective,
            }),
            _ => Err(format!(
                "unknown AI '{text}': the AIs are random, minimax:DEPTH[:OBJECTIVE], mcts:ITERATIONS[:OBJECTIVE]"
            )),
        }
    }
}

impl fmt::Display for AiSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiSpec::Random => return f.write_str("random"),
            AiSpec::Minimax { depth, .. } => write!(f, "minimax:{depth}")?,
            AiSpec::Mcts { iterations, .. } => write!(f, "mcts:{iterations}")?,
        }
        match self.objective() {
            None => Ok(()),
            Some(o) => write!(f, ":{}", o.name()),
        }
    }
}

impl std::str::FromStr for AiSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<AiSpec, String> {
        AiSpec::parse(s)
    }
}

/// One past chronon as a player saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedChronon {
    /// The player's own accepted submissions.
    pub submissions: Vec<Submission>,
    /// The events the player may see (its own switches, visible fact changes, accounts).
    pub events: Vec<Event>,
    /// The player's view after the chronon.
    pub view: Vec<Term>,
}

/// Everything a player may know when it decides: the only input of the AI players besides the game
/// and a seed. Built by [`Observation::of`] from what [`Session::view`], the player's own events and
/// legal switches show; it holds no hidden fact.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    pub player: Term,
    /// All players, in order (public: `player/1`).
    pub players: Vec<Term>,
    /// The session's query budgets and mode.
    pub limits: Limits,
    pub interrupt: bool,
    pub chronon: u64,
    /// Are the past views known (`initial_view`, `ObservedChronon::view`)? False for a session that
    /// did not start at the game's `init` (e.g. [`Session::from_state`]): then they are empty and a
    /// search uses the view-only state.
    pub replayed: bool,
    /// The player's view of the initial state.
    pub initial_view: Vec<Term>,
    /// Every past chronon as the player saw it.
    pub past: Vec<ObservedChronon>,
    /// The player's view now.
    pub view: Vec<Term>,
    /// The accounts now, in player order (public: every player sees every account event).
    pub accounts: Vec<Term>,
    /// The player's own legal switches now.
    pub switches: Vec<SwitchInfo>,
}

impl Observation {
    /// What `player` may see of the session: its view now and after every past chronon (the views of
    /// the past are recomputed by replaying the session's history from its seed), its own submissions
    /// and events, the accounts and its own legal switches.
    pub fn of(session: &mut Session, player: &Term) -> Result<Observation, RuntimeError> {
        let players = session.players();
        let Some(pi) = players.iter().position(|p| p == player) else {
            return Err(RuntimeError::new(
                crate::solve::errors::codes::NOT_A_PLAYER,
                "ai",
                format!("{} is not a player", crate::write::canonical(player)),
            ));
        };
        let history = session.history().to_vec();
        // the views of the past, by replaying the history from the seed (resumed from where this
        // player's last observation left it, when the history it replayed is still a prefix of
        // this one: the same replay, not started again); a session that did not start at the
        // game's init (or whose replay diverges) has no view history
        let mut replayed = true;
        let mut initial_view = Vec::new();
        let mut views: Vec<Vec<Term>> = Vec::new();
        match ObservedReplay::resume(session, player) {
            Ok(mut r) => {
                let mut ok = true;
                for rec in &history[r.views.len()..] {
                    for sub in &rec.submissions {
                        ok &= r
                            .replay
                            .submit(&sub.player, &sub.switch, &sub.action)?
                            .is_ok();
                    }
                    for (sw, a) in &rec.overrides {
                        ok &= r.replay.set_nature(sw, a)?.is_ok();
                    }
                    if !ok || r.replay.run_chronon().is_err() {
                        ok = false;
                        break;
                    }
                    r.views.push(r.replay.view(Some(player))?);
                    r.inputs
                        .push((rec.submissions.clone(), rec.overrides.clone()));
                }
                // the replay must arrive at the session's own state
                let now: Vec<Term> = session.view(None)?;
                let end: rustc_hash::FxHashSet<Term> = r.replay.view(None)?.into_iter().collect();
                if !ok
                    || r.replay.chronon() != session.chronon()
                    || now.len() != end.len()
                    || !now.iter().all(|f| end.contains(f))
                {
                    replayed = false;
                } else {
                    initial_view = r.initial_view.clone();
                    views = r.views.clone();
                    session.observed.push(r);
                }
            }
            Err(Some(e)) => return Err(e),
            Err(None) => replayed = false,
        }
        if !replayed {
            initial_view.clear();
            views.clear();
        }
        let past = history
            .iter()
            .enumerate()
            .map(|(i, rec)| ObservedChronon {
                submissions: rec
                    .submissions
                    .iter()
                    .filter(|s| &s.player == player)
                    .cloned()
                    .collect(),
                events: rec.events_of(pi).cloned().collect(),
                view: views.get(i).cloned().unwrap_or_default(),
            })
            .collect();
        Ok(Observation {
            player: player.clone(),
            players,
            limits: session.settings().limits,
            interrupt: session.settings().interrupt,
            chronon: session.chronon(),
            replayed,
            initial_view,
            past,
            view: session.view(Some(player))?,
            accounts: session.state().accounts.clone(),
            switches: session.switches_of(player)?,
        })
    }

    /// Does the player own a legal switch with something to choose now?
    pub fn must_decide(&self) -> bool {
        self.switches.iter().any(|sw| match &sw.actions {
            Actions::Finite(a) => !a.is_empty(),
            Actions::Unlimited(t) => !t.is_empty(),
        })
    }

    /// The session settings of the observed play.
    pub fn settings(&self) -> Settings {
        Settings {
            limits: self.limits,
            interrupt: self.interrupt,
        }
    }

    pub fn player_index(&self) -> usize {
        self.players
            .iter()
            .position(|p| p == &self.player)
            .unwrap_or(0)
    }
}

/// A player's replay of a session's history, kept in the session between that player's
/// observations ([`Observation::of`]): the replaying session, the player's view of the initial
/// state and after each replayed chronon, and the inputs replayed (each chronon's submissions and
/// fixed nature actions). A later observation resumes it when those inputs are still the first
/// ones of the session's history (and the seed and settings the same), so that a decision replays
/// only the chronons since the player's last one; otherwise the replay starts again.
pub struct ObservedReplay {
    player: Term,
    replay: Session,
    initial_view: Vec<Term>,
    views: Vec<Vec<Term>>,
    inputs: Vec<ChrononInputs>,
}

/// A replayed chronon's inputs: its submissions and its fixed nature actions.
type ChrononInputs = (Vec<Submission>, Vec<(Term, Term)>);

impl ObservedReplay {
    /// `player`'s replay taken out of `session`, when it is still a prefix of the session's
    /// play; else a new one from the seed. `Err(None)`: the game cannot start again from the
    /// seed (no view history); `Err(Some(e))`: the player's initial view failed.
    fn resume(
        session: &mut Session,
        player: &Term,
    ) -> Result<ObservedReplay, Option<RuntimeError>> {
        if let Some(i) = session.observed.iter().position(|r| &r.player == player) {
            let r = session.observed.swap_remove(i);
            let history = session.history();
            let fits = r.replay.seed() == session.seed()
                && r.replay.settings() == session.settings()
                && Arc::ptr_eq(r.replay.game(), session.game())
                && r.inputs.len() <= history.len()
                && r.inputs
                    .iter()
                    .zip(history)
                    .all(|((subs, over), rec)| subs == &rec.submissions && over == &rec.overrides);
            if fits {
                return Ok(r);
            }
        }
        let mut replay = Session::new(
            session.game().clone(),
            session.seed(),
            session.settings().clone(),
        )
        .map_err(|_| None)?;
        let initial_view = replay.view(Some(player)).map_err(Some)?;
        Ok(ObservedReplay {
            player: player.clone(),
            replay,
            initial_view,
            views: Vec::new(),
            inputs: Vec::new(),
        })
    }
}

/// An AI failure: the game raised a runtime error during the search.
#[derive(Clone, Debug, PartialEq)]
pub enum AiError {
    Runtime(RuntimeError),
    /// The stop callback asked to stop (internal: the searches turn it into their best move so far).
    Stopped,
}

impl From<RuntimeError> for AiError {
    fn from(e: RuntimeError) -> AiError {
        AiError::Runtime(e)
    }
}

impl fmt::Display for AiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiError::Runtime(e) => write!(f, "{e}"),
            AiError::Stopped => f.write_str("the search was stopped"),
        }
    }
}

/// Counters of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Chronons simulated (minimax nodes, MCTS tree steps and playout chronons).
    pub chronons: u64,
    /// Minimax: nodes visited; MCTS: iterations (playouts) run.
    pub nodes: u64,
    /// Minimax: the deepest completed depth.
    pub depth: u32,
    /// Determinized states searched.
    pub determinizations: u64,
}

/// The choice of an AI player for the current chronon.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// One submission per switch the AI decides (switches in legal order). Empty when the player
    /// has nothing to choose.
    pub submissions: Vec<Submission>,
    /// The search's value of the choice (minimax: the evaluation; MCTS: the mean normalised reward;
    /// random: 0).
    pub value: f64,
    pub stats: Stats,
}

/// Chooses `obs.player`'s submissions for the current chronon with the AI `spec`: the one entry point
/// (no stop). Same game, observation, spec and seed: same choice.
pub fn choose(
    game: &Arc<Game>,
    obs: &Observation,
    spec: AiSpec,
    seed: u64,
) -> Result<Choice, RuntimeError> {
    let mut search = Search::new(game.clone(), obs.clone(), spec, seed);
    if let SearchKind::Minimax(m) = &mut search.inner {
        // nothing can stop it: the full depth at once
        m.deepen = false;
    }
    search.run(&mut |_| false)?;
    Ok(search.best_so_far())
}

/// [`choose`] with a stop callback, polled at every node (minimax) or iteration (MCTS) with the
/// counters so far: when it returns true the search stops and returns its best choice so far (minimax:
/// the choice of the deepest completed iterative-deepening depth, or the first legal move).
pub fn choose_until(
    game: &Arc<Game>,
    obs: &Observation,
    spec: AiSpec,
    seed: u64,
    should_stop: &mut dyn FnMut(&Stats) -> bool,
) -> Result<Choice, RuntimeError> {
    let mut search = Search::new(game.clone(), obs.clone(), spec, seed);
    search.run(should_stop)?;
    Ok(search.best_so_far())
}

/// A search that can be stepped and stopped (for an interactive UI): [`Search::step`] runs a slice of
/// work, [`Search::best_so_far`] gives the current choice at any time.
pub struct Search {
    inner: SearchKind,
}

enum SearchKind {
    Random(Box<(Option<Choice>, Arc<Game>, Observation, u64)>),
    Minimax(Box<minimax::Minimax>),
    Mcts(Box<mcts::Mcts>),
}

impl Search {
    pub fn new(game: Arc<Game>, obs: Observation, spec: AiSpec, seed: u64) -> Search {
        let inner = match spec {
            AiSpec::Random => SearchKind::Random(Box::new((None, game, obs, seed))),
            AiSpec::Minimax { depth, objective } => SearchKind::Minimax(Box::new(
                minimax::Minimax::new(game, obs, depth, objective, seed),
            )),
            AiSpec::Mcts {
                iterations,
                objective,
            } => SearchKind::Mcts(Box::new(mcts::Mcts::new(
                game, obs, iterations, objective, seed,
            ))),
        };
        Search { inner }
    }

    /// Runs one slice of the search: random, the whole choice; minimax, the next iterative-deepening
    /// depth; MCTS, up to `n` iterations. Returns true when the search has used its whole budget.
    pub fn step(&mut self, n: u64) -> Result<bool, RuntimeError> {
        match &mut self.inner {
            SearchKind::Random(r) => {
                let (c, game, obs, seed) = &mut **r;
                if c.is_none() {
                    *c = Some(random_choice(game, obs, *seed)?);
                }
                Ok(true)
            }
            SearchKind::Minimax(m) => m.step(&mut |_| false),
            SearchKind::Mcts(m) => m.step(n, &mut |_| false),
        }
    }

    /// Runs to the end of the budget or until `should_stop` says so (polled at every node/iteration).
    pub fn run(&mut self, should_stop: &mut dyn FnMut(&Stats) -> bool) -> Result<(), RuntimeError> {
        loop {
            let done = match &mut self.inner {
                SearchKind::Random(..) => self.step(1)?,
                SearchKind::Minimax(m) => m.step(should_stop)?,
                SearchKind::Mcts(m) => m.step(u64::MAX, should_stop)?,
            };
            if done || self.stopped() {
                return Ok(());
            }
        }
    }

    fn stopped(&self) -> bool {
        match &self.inner {
            SearchKind::Random(..) => false,
            SearchKind::Minimax(m) => m.stopped,
            SearchKind::Mcts(m) => m.stopped,
        }
    }

    /// The best choice found so far (always a legal choice of the player's switches).
    pub fn best_so_far(&self) -> Choice {
        match &self.inner {
            SearchKind::Random(r) => r.0.clone().unwrap_or_else(|| Choice {
                submissions: sim::first_moves(&r.2),
                value: 0.0,
                stats: Stats::default(),
            }),
            SearchKind::Minimax(m) => m.best_so_far(),
            SearchKind::Mcts(m) => m.best_so_far(),
        }
    }
}

/// Uniform random: for each of the player's switches (legal order) a uniformly random action of its
/// candidate list ([`sim::candidates`]), drawn from `Rng::new(seed)`.
pub fn random_choice(
    game: &Arc<Game>,
    obs: &Observation,
    seed: u64,
) -> Result<Choice, RuntimeError> {
    let mut rng = Rng::new(seed);
    let mut session = determinize::view_session(game, obs, seed);
    let mut subs = Vec::new();
    for sw in &obs.switches {
        let acts = sim::candidates(&mut session, sw)?;
        if acts.is_empty() {
            continue;
        }
        let i = rng.below(acts.len() as u64) as usize;
        subs.push(Submission {
            player: obs.player.clone(),
            switch: sw.id.clone(),
            action: acts[i].clone(),
        });
    }
    Ok(Choice {
        submissions: subs,
        value: 0.0,
        stats: Stats::default(),
    })
}

/// Submits a choice to a session (for drivers: the CLI seats, tournaments). Returns the number of
/// accepted submissions.
pub fn submit_choice(session: &mut Session, choice: &Choice) -> Result<usize, RuntimeError> {
    let mut n = 0;
    for s in &choice.submissions {
        if session.submit(&s.player, &s.switch, &s.action)?.is_ok() {
            n += 1;
        }
    }
    Ok(n)
}
