//! Def.1 §11, dynamically: explore reachable states and find two that a player cannot tell apart
//! (the same visible facts) but in which a switch it owns has a different owner, action list or
//! legality. A violation comes with a counterexample: the two histories, replayable with
//! [`replay`].
//!
//! [`ExploreOptions::max_states`] is the most distinct states visited in all (a state is its set of
//! facts; accounts never decide legality; visiting a state computes its switches and every player's
//! view). Exploration is breadth-first from the initial state. From each state every
//! combination of actions is tried: each player-owned switch with a finite action list branches over
//! its actions, each chance switch over its actions (fixed with `set_nature`, so histories replay
//! exactly); each unlimited switch over a few sampled values (`unlimited_samples`: a refused value
//! leaves it to its default); switches without an owner take their default. More than
//! [`ExploreOptions::max_joint`] combinations are sampled. If the breadth-first phase has not seen
//! every state when half the budget is used, [`ExploreOptions::playouts`] random playouts from the
//! initial state may visit a quarter of it (deep states), and the breadth-first phase then goes on with
//! what is left, also from the states the playouts found. The report is complete when no state is left
//! to expand: a game with at most `max_states` reachable states is always explored completely.
//!
//! Pure: the caller measures time (states per second = `states` / its own clock).

use crate::game::{Actions, Game, Owner, RuntimeError, Session, Settings, Submission, SwitchInfo};
use crate::rng::Rng;
use crate::term::Term;
use crate::write::canonical;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::Arc;

/// What to explore.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The most distinct states visited (both phases together; 0 visits none).
    pub max_states: usize,
    /// Random playouts when half the budget did not suffice for the breadth-first phase (they stop
    /// early once a quarter of the budget is used for them).
    pub playouts: usize,
    /// Chronons per playout.
    pub playout_chronons: usize,
    /// Action combinations tried per state (sampled beyond).
    pub max_joint: usize,
    /// Stop after this many violations (each a different player and switch).
    pub max_violations: usize,
    /// Seed of every session (for `random/1` in rules) and of the sampling.
    pub seed: u64,
    pub settings: Settings,
}

impl Default for ExploreOptions {
    fn default() -> ExploreOptions {
        ExploreOptions {
            max_states: 10_000,
            playouts: 100,
            playout_chronons: 200,
            max_joint: 256,
            max_violations: 10,
            seed: 0,
            settings: Settings::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Breadth,
    Playouts,
    Done,
}

/// Reported now and then during exploration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub phase: Phase,
    /// Distinct states seen.
    pub states: usize,
    /// States waiting to be expanded (breadth-first phase).
    pub queue: usize,
    pub chronons: u64,
    pub violations: usize,
}

/// One chronon of a history: the accepted submissions and the fixed chance actions.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub submissions: Vec<Submission>,
    /// `(switch, action)` of chance switches.
    pub nature: Vec<(Term, Term)>,
}

/// What differs for the switch between the two states.
#[derive(Clone, Debug, PartialEq)]
pub enum Difference {
    /// Legal in the first state only (`true`) or the second only (`false`).
    Legality {
        legal_in_first: bool,
    },
    Owner {
        first: Owner,
        second: Owner,
    },
    Actions {
        first: Actions,
        second: Actions,
    },
    /// Both states have the switch with the same templates, but `switch/2` accepts `action` in the
    /// first state only (`true`) or the second only (`false`).
    Accepts {
        action: Term,
        accepted_in_first: bool,
    },
}

/// A definite Def.1 §11 violation.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The player that cannot tell the two states apart and owns the switch in one of them.
    pub player: Term,
    pub switch: Term,
    pub difference: Difference,
    /// The history to the first state, then to the second (from the initial state, same seed).
    pub first: Vec<Step>,
    pub second: Vec<Step>,
    /// The facts the player sees in both (in the first state's order).
    pub view: Vec<Term>,
}

impl Violation {
    /// What the player cannot tell apart and what differs, and what it sees: two lines (the
    /// language server's counterexample description).
    pub fn reason(&self) -> [String; 2] {
        let p = canonical(&self.player);
        let sw = canonical(&self.switch);
        let what = match &self.difference {
            Difference::Legality { legal_in_first } => format!(
                "switch {sw} is legal in the {} state only",
                if *legal_in_first { "first" } else { "second" }
            ),
            Difference::Owner { first, second } => format!(
                "switch {sw} is owned by {} in the first state and by {} in the second",
                show_owner(first),
                show_owner(second)
            ),
            Difference::Actions { first, second } => format!(
                "switch {sw} has actions {} in the first state and {} in the second",
                show_actions(first),
                show_actions(second)
            ),
            Difference::Accepts {
                action,
                accepted_in_first,
            } => format!(
                "switch {sw} accepts {} in the {} state only (switch/2)",
                canonical(action),
                if *accepted_in_first {
                    "first"
                } else {
                    "second"
                }
            ),
        };
        [
            format!("player {p} cannot tell two states apart, but {what}"),
            format!(
                "{p} sees: {}",
                self.view
                    .iter()
                    .map(canonical)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        ]
    }

    /// A readable multi-line description: [`Violation::reason`], then the two histories.
    pub fn describe(&self) -> String {
        let [why, sees] = self.reason();
        let mut s = format!("{why}\n  {sees}\n");
        for (name, h) in [("first", &self.first), ("second", &self.second)] {
            s.push_str(&format!("  {name} history:\n"));
            s.push_str(&show_history(h));
        }
        s
    }

    /// The two histories one line per chronon: `first: chronon 1: ...` (or `first: (the initial
    /// state)`), then `second: ...`.
    pub fn steps(&self) -> Vec<String> {
        let mut steps = Vec::new();
        for (name, h) in [("first", &self.first), ("second", &self.second)] {
            for line in show_history(h).lines() {
                steps.push(format!("{name}: {}", line.trim()));
            }
        }
        steps
    }
}

/// A violation as data for tools, terms as canonical text (`sidl check --explore --format json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ViolationData {
    pub player: String,
    pub switch: String,
    pub difference: DifferenceData,
    /// The facts the player sees in both states.
    pub view: Vec<String>,
    /// The histories to the first and the second state, from the initial state.
    pub first: Vec<StepData>,
    pub second: Vec<StepData>,
}

/// What differs: `what` is `legality` (`legal_in`: `first` or `second`), `owner` (`first`/`second`:
/// the owners, `null` for nobody), `actions` (`first`/`second`: the action lists, or templates
/// of an unlimited switch) or `accepts` (`action`, accepted by `switch/2` in `accepted_in`: `first`
/// or `second` only).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "what", rename_all = "lowercase")]
pub enum DifferenceData {
    Legality {
        legal_in: &'static str,
    },
    Owner {
        first: Option<String>,
        second: Option<String>,
    },
    Actions {
        first: Vec<String>,
        second: Vec<String>,
    },
    Accepts {
        action: String,
        accepted_in: &'static str,
    },
}

/// One chronon of a history: the fixed chance actions, then the submissions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepData {
    pub chronon: usize,
    /// `{switch, action}` of chance switches.
    pub nature: Vec<NatureData>,
    pub submissions: Vec<SubmissionData>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NatureData {
    pub switch: String,
    pub action: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubmissionData {
    pub player: String,
    pub switch: String,
    pub action: String,
}

impl Violation {
    /// The violation as data (see [`ViolationData`]).
    pub fn data(&self) -> ViolationData {
        let owner = |o: &Owner| o.term().map(|t| canonical(&t));
        let actions = |a: &Actions| {
            let (Actions::Finite(v) | Actions::Unlimited(v)) = a;
            v.iter().map(canonical).collect()
        };
        let history = |h: &[Step]| {
            h.iter()
                .enumerate()
                .map(|(i, st)| StepData {
                    chronon: i + 1,
                    nature: st
                        .nature
                        .iter()
                        .map(|(sw, a)| NatureData {
                            switch: canonical(sw),
                            action: canonical(a),
                        })
                        .collect(),
                    submissions: st
                        .submissions
                        .iter()
                        .map(|x| SubmissionData {
                            player: canonical(&x.player),
                            switch: canonical(&x.switch),
                            action: canonical(&x.action),
                        })
                        .collect(),
                })
                .collect()
        };
        ViolationData {
            player: canonical(&self.player),
            switch: canonical(&self.switch),
            difference: match &self.difference {
                Difference::Legality { legal_in_first } => DifferenceData::Legality {
                    legal_in: if *legal_in_first { "first" } else { "second" },
                },
                Difference::Owner { first, second } => DifferenceData::Owner {
                    first: owner(first),
                    second: owner(second),
                },
                Difference::Actions { first, second } => DifferenceData::Actions {
                    first: actions(first),
                    second: actions(second),
                },
                Difference::Accepts {
                    action,
                    accepted_in_first,
                } => DifferenceData::Accepts {
                    action: canonical(action),
                    accepted_in: if *accepted_in_first {
                        "first"
                    } else {
                        "second"
                    },
                },
            },
            view: self.view.iter().map(canonical).collect(),
            first: history(&self.first),
            second: history(&self.second),
        }
    }
}

fn show_owner(o: &Owner) -> String {
    o.term()
        .map(|t| canonical(&t))
        .unwrap_or_else(|| "nobody".into())
}

fn show_actions(a: &Actions) -> String {
    let (Actions::Finite(v) | Actions::Unlimited(v)) = a;
    format!(
        "[{}]",
        v.iter().map(canonical).collect::<Vec<_>>().join(", ")
    )
}

/// A history, one chronon a line.
pub fn show_history(h: &[Step]) -> String {
    let mut s = String::new();
    if h.is_empty() {
        s.push_str("    (the initial state)\n");
    }
    for (i, st) in h.iter().enumerate() {
        let mut parts: Vec<String> = st
            .nature
            .iter()
            .map(|(sw, a)| format!("nature plays {} at {}", canonical(a), canonical(sw)))
            .collect();
        parts.extend(st.submissions.iter().map(|x| {
            format!(
                "{} plays {} at {}",
                canonical(&x.player),
                canonical(&x.action),
                canonical(&x.switch)
            )
        }));
        if parts.is_empty() {
            parts.push("(defaults)".into());
        }
        s.push_str(&format!("    chronon {}: {}\n", i + 1, parts.join("; ")));
    }
    s
}

/// The result of an exploration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExploreReport {
    pub violations: Vec<Violation>,
    /// Distinct states visited (at most [`ExploreOptions::max_states`]).
    pub states: usize,
    /// Chronons run (transitions tried).
    pub chronons: u64,
    /// Whether every reachable state was visited and expanded (nothing was left when the exploration
    /// ended).
    pub complete: bool,
    /// Runtime errors of transitions (the first few different ones), whose successor states were
    /// skipped.
    pub errors: Vec<RuntimeError>,
    /// The progress callback of [`explore_until`] asked to stop: the report covers what was seen.
    pub cancelled: bool,
}

impl ExploreReport {
    /// The result in one line, as the language server's `sidl/checkHiddenInformation` and the
    /// playground's `checkHidden` report it: `no Def.1 §11 violation found in N states (SCOPE)` or
    /// `Def.1 §11 violation: player P can tell hidden facts from switch S (N states, SCOPE)`, the
    /// scope `every reachable state` when the exploration was complete, else `bounded search`.
    pub fn summary(&self) -> String {
        let scope = if self.complete {
            "every reachable state"
        } else {
            "bounded search"
        };
        match self.violations.first() {
            None => format!(
                "no Def.1 §11 violation found in {} states ({scope})",
                self.states
            ),
            Some(v) => format!(
                "Def.1 §11 violation: player {} can tell hidden facts from switch {} ({} states, {scope})",
                canonical(&v.player),
                canonical(&v.switch),
                self.states
            ),
        }
    }
}

/// Replays a history from the initial state (the exploration's seed and settings).
pub fn replay(
    game: Arc<Game>,
    opts: &ExploreOptions,
    history: &[Step],
) -> Result<Session, RuntimeError> {
    let mut s = Session::new(game, opts.seed, opts.settings.clone())?;
    for st in history {
        apply(&mut s, st)?;
        s.run_chronon()?;
    }
    Ok(s)
}

fn apply(s: &mut Session, st: &Step) -> Result<(), RuntimeError> {
    for (sw, a) in &st.nature {
        s.set_nature(sw, a)?.map_err(|r| {
            RuntimeError::new(
                crate::solve::errors::codes::REPLAY,
                "replay",
                format!("replay diverged: {r}"),
            )
        })?;
    }
    for x in &st.submissions {
        // a sampled value of an unlimited switch may be refused by its switch/2 in this state: then
        // the switch's default applies, as for a player who typed nothing
        let _ = s.submit(&x.player, &x.switch, &x.action)?;
    }
    Ok(())
}

struct Node {
    parent: Option<usize>,
    step: Option<Step>,
    switches: Arc<Vec<SwitchInfo>>,
    views: Vec<Vec<Term>>,
    /// For each unlimited switch a player owns: the probed actions and whether `switch/2` accepts
    /// each ([`Explorer::probe`]).
    accepts: Vec<Probed>,
}

/// An unlimited switch, and the actions probed with `switch/2` with whether each was accepted.
type Probed = (Term, Vec<(Term, bool)>);

/// What [`Explorer::register`] did with a state.
enum Visit {
    /// A new state: its node.
    New(usize),
    /// Seen before.
    Known,
    /// New, but the budget is used up: not visited.
    OverBudget,
}

struct Explorer {
    game: Arc<Game>,
    /// The most nodes of the current phase (never more than `opts.max_states`).
    limit: usize,
    opts: ExploreOptions,
    players: Vec<Term>,
    nodes: Vec<Node>,
    by_facts: FxHashMap<Vec<String>, usize>,
    /// `(player index, sorted visible facts)` → the first node seen.
    groups: FxHashMap<(usize, Vec<String>), usize>,
    report: ExploreReport,
    rng: Rng,
    /// A session at a node, kept between the expansions of siblings.
    cache: Option<(usize, Session)>,
}

fn sorted_key(facts: &[Term]) -> Vec<String> {
    let mut v: Vec<String> = facts.iter().map(canonical).collect();
    crate::stable_sort::sort(&mut v);
    v
}

fn same_actions(a: &Actions, b: &Actions) -> bool {
    match (a, b) {
        (Actions::Finite(x), Actions::Finite(y))
        | (Actions::Unlimited(x), Actions::Unlimited(y)) => sorted_key(x) == sorted_key(y),
        _ => false,
    }
}

/// Explores `game` (see the module documentation). `Err` only when the initial state cannot be
/// computed.
pub fn explore(
    game: Arc<Game>,
    opts: &ExploreOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<ExploreReport, RuntimeError> {
    explore_until(game, opts, &mut |p| {
        progress(p);
        ControlFlow::Continue(())
    })
}

/// [`explore`] whose progress callback may stop the exploration (`ControlFlow::Break`): the report
/// then has `cancelled` set, `complete` unset, and what was found so far. The callback is called
/// every few expanded states, after every few playouts, and once at the end.
pub fn explore_until(
    game: Arc<Game>,
    opts: &ExploreOptions,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<ExploreReport, RuntimeError> {
    let max = opts.max_states;
    if max == 0 {
        let _ = progress(&Progress {
            phase: Phase::Done,
            states: 0,
            queue: 0,
            chronons: 0,
            violations: 0,
        });
        return Ok(ExploreReport::default());
    }
    let mut s = Session::new(game.clone(), opts.seed, opts.settings.clone())?;
    // half the budget breadth-first, a quarter for playouts, then breadth-first again with the rest
    let first = max.div_ceil(2);
    let playouts = first + (max - first) / 2;
    let mut ex = Explorer {
        game,
        limit: first,
        opts: opts.clone(),
        players: s.players(),
        nodes: Vec::new(),
        by_facts: FxHashMap::default(),
        groups: FxHashMap::default(),
        report: ExploreReport::default(),
        rng: Rng::new(opts.seed ^ 0x5eed_5eed),
        cache: None,
    };
    let root = match ex.register(&mut s, None, None)? {
        Visit::New(n) => n,
        Visit::Known | Visit::OverBudget => unreachable!("the first state is new and max > 0"),
    };
    let mut queue = VecDeque::from([root]);
    let mut tick = 0usize;
    let mut go = ex.breadth(&mut queue, &mut tick, progress);
    if go && !queue.is_empty() && !ex.done() {
        ex.limit = playouts;
        for i in 0..opts.playouts {
            if ex.done() || ex.nodes.len() >= ex.limit {
                break;
            }
            ex.playout(&mut queue);
            if i % 4 == 0 && progress(&ex.progress(Phase::Playouts, queue.len())).is_break() {
                go = false;
                break;
            }
        }
        ex.limit = max;
        if go {
            go = ex.breadth(&mut queue, &mut tick, progress);
        }
    }
    ex.report.cancelled = !go;
    ex.report.complete = queue.is_empty() && go;
    ex.report.states = ex.nodes.len();
    let _ = progress(&ex.progress(Phase::Done, 0));
    Ok(ex.report)
}

impl Explorer {
    fn done(&self) -> bool {
        self.report.violations.len() >= self.opts.max_violations
    }

    /// Expands queued nodes until the queue is empty, a new state is over the budget (that node
    /// stays first in the queue), enough violations are found, or the callback breaks (`false`).
    fn breadth(
        &mut self,
        queue: &mut VecDeque<usize>,
        tick: &mut usize,
        progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
    ) -> bool {
        while let Some(n) = queue.pop_front() {
            if self.done() || !self.expand(n, queue) {
                queue.push_front(n);
                break;
            }
            *tick += 1;
            if *tick % 16 == 0 && progress(&self.progress(Phase::Breadth, queue.len())).is_break() {
                return false;
            }
        }
        true
    }

    fn progress(&self, phase: Phase, queue: usize) -> Progress {
        Progress {
            phase,
            states: self.nodes.len(),
            queue,
            chronons: self.report.chronons,
            violations: self.report.violations.len(),
        }
    }

    fn error(&mut self, e: RuntimeError) {
        if self.report.errors.len() < 10 && !self.report.errors.contains(&e) {
            self.report.errors.push(e);
        }
    }

    fn history(&self, mut n: usize) -> Vec<Step> {
        let mut h = Vec::new();
        loop {
            let node = &self.nodes[n];
            if let Some(st) = &node.step {
                h.push(st.clone());
            }
            match node.parent {
                Some(p) => n = p,
                None => break,
            }
        }
        h.reverse();
        h
    }

    /// Visits the session's current state if it is new and the budget allows it.
    fn register(
        &mut self,
        s: &mut Session,
        parent: Option<usize>,
        step: Option<Step>,
    ) -> Result<Visit, RuntimeError> {
        let facts = s.view(None)?;
        let key = sorted_key(&facts);
        if self.by_facts.contains_key(&key) {
            return Ok(Visit::Known);
        }
        if self.nodes.len() >= self.limit {
            return Ok(Visit::OverBudget);
        }
        let switches = s.switches()?;
        let mut views = Vec::with_capacity(self.players.len());
        for p in self.players.clone() {
            views.push(s.view(Some(&p))?);
        }
        let accepts = Self::probe(s, &switches)?;
        let id = self.nodes.len();
        self.by_facts.insert(key, id);
        self.nodes.push(Node {
            parent,
            step,
            switches,
            views,
            accepts,
        });
        for pi in 0..self.players.len() {
            let vk = sorted_key(&self.nodes[id].views[pi]);
            match self.groups.get(&(pi, vk.clone())) {
                Some(&rep) => self.compare(pi, rep, id),
                None => {
                    self.groups.insert((pi, vk), id);
                }
            }
        }
        Ok(Visit::New(id))
    }

    /// Compares two states player `pi` cannot tell apart.
    fn compare(&mut self, pi: usize, a: usize, b: usize) {
        let p = self.players[pi].clone();
        let owner = Owner::Player(p.clone());
        for (x, y, x_first) in [(a, b, true), (b, a, false)] {
            let owned: Vec<SwitchInfo> = self.nodes[x]
                .switches
                .iter()
                .filter(|sw| sw.owner == owner)
                .cloned()
                .collect();
            for sw in owned {
                let other = self.nodes[y]
                    .switches
                    .iter()
                    .find(|o| o.id == sw.id)
                    .cloned();
                let diff = match other {
                    None => Some(Difference::Legality {
                        legal_in_first: x_first,
                    }),
                    Some(o) if o.owner != sw.owner => Some(if x_first {
                        Difference::Owner {
                            first: sw.owner.clone(),
                            second: o.owner,
                        }
                    } else {
                        Difference::Owner {
                            first: o.owner,
                            second: sw.owner.clone(),
                        }
                    }),
                    Some(o) if !same_actions(&o.actions, &sw.actions) => Some(if x_first {
                        Difference::Actions {
                            first: sw.actions.clone(),
                            second: o.actions,
                        }
                    } else {
                        Difference::Actions {
                            first: o.actions,
                            second: sw.actions.clone(),
                        }
                    }),
                    Some(_) => self.acceptance(&sw.id, x, y, x_first),
                };
                let Some(difference) = diff else { continue };
                if self.done()
                    || self
                        .report
                        .violations
                        .iter()
                        .any(|v| v.player == p && v.switch == sw.id)
                {
                    continue;
                }
                self.report.violations.push(Violation {
                    player: p.clone(),
                    switch: sw.id.clone(),
                    difference,
                    first: self.history(a),
                    second: self.history(b),
                    view: self.nodes[a].views[pi].clone(),
                });
            }
        }
    }

    /// The most actions probed with `switch/2` per unlimited switch and state.
    const MAX_PROBES: usize = 16;

    /// Which of a few actions `switch/2` accepts, for each unlimited switch a player owns: the actions
    /// the searches try ([`sim::candidates`]: the game's `candidate/2`, or a few values of each slot's
    /// type) and [`Explorer::unlimited_samples`], at most [`Explorer::MAX_PROBES`]. Two states a player
    /// cannot tell apart must accept the same of these (a typed switch's templates are the same in
    /// both, so only `switch/2`'s answer shows a leak through its body).
    fn probe(s: &mut Session, switches: &[SwitchInfo]) -> Result<Vec<Probed>, RuntimeError> {
        let mut out = Vec::new();
        for sw in switches {
            let (Owner::Player(p), Actions::Unlimited(templates)) = (&sw.owner, &sw.actions) else {
                continue;
            };
            let mut probes = crate::ai::sim::candidates(s, sw)?;
            for a in Self::unlimited_samples(templates) {
                if !probes.contains(&a) {
                    probes.push(a);
                }
            }
            probes.truncate(Self::MAX_PROBES);
            let mut answers = Vec::with_capacity(probes.len());
            for a in probes {
                let ok = s.accepts(p, &sw.id, &a)?.is_ok();
                answers.push((a, ok));
            }
            out.push((sw.id.clone(), answers));
        }
        Ok(out)
    }

    /// An action of `switch` probed in both states that `switch/2` accepts in one only.
    fn acceptance(&self, switch: &Term, x: usize, y: usize, x_first: bool) -> Option<Difference> {
        let of = |n: usize| {
            self.nodes[n]
                .accepts
                .iter()
                .find(|(id, _)| id == switch)
                .map(|(_, v)| v)
        };
        let (in_x, in_y) = (of(x)?, of(y)?);
        in_x.iter().find_map(|(a, ok)| {
            let (_, other) = in_y.iter().find(|(b, _)| b == a)?;
            (ok != other).then(|| Difference::Accepts {
                action: a.clone(),
                accepted_in_first: if x_first { *ok } else { *other },
            })
        })
    }

    /// A few actions of an unlimited switch: each template with every slot given one of a few values of
    /// its type (`double`: 1.0, 10.0, 100.0; `integer`: 1, 10, 100; `number`: 1, 10.0; `atom`: `a`;
    /// `term`: `a`), at most [`MAX_UNLIMITED_SAMPLES`] in all. A value the switch refuses leaves the
    /// switch to its default.
    fn unlimited_samples(templates: &[Term]) -> Vec<Term> {
        let values = |ty: &str| -> Vec<Term> {
            match ty {
                "double" => vec![Term::Float(1.0), Term::Float(10.0), Term::Float(100.0)],
                "integer" => vec![Term::Int(1), Term::Int(10), Term::Int(100)],
                "number" => vec![Term::Int(1), Term::Float(10.0)],
                _ => vec![Term::atom("a")],
            }
        };
        let mut out = Vec::new();
        for t in templates {
            let slots = crate::game::template_slots(t);
            if slots.is_empty() {
                out.push(t.clone());
                continue;
            }
            // the same sample index for every slot keeps the count small
            let n = slots
                .iter()
                .map(|s| values(s.ty.name()).len())
                .max()
                .unwrap_or(1);
            for i in 0..n {
                let vals: Vec<Term> = slots
                    .iter()
                    .map(|s| {
                        let v = values(s.ty.name());
                        v[i.min(v.len() - 1)].clone()
                    })
                    .collect();
                if let Some(a) = crate::game::fill_template(t, &vals) {
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
        out.truncate(Self::MAX_UNLIMITED_SAMPLES);
        out
    }

    /// The most sampled actions of one unlimited switch.
    const MAX_UNLIMITED_SAMPLES: usize = 4;

    /// The choices of each switch: `(is_nature, switch, actions)`; empty actions = default.
    fn choices(switches: &[SwitchInfo]) -> Vec<(Option<Term>, Term, Vec<Term>)> {
        switches
            .iter()
            .filter_map(|sw| match (&sw.owner, &sw.actions) {
                (Owner::Player(p), Actions::Finite(a)) if !a.is_empty() => {
                    Some((Some(p.clone()), sw.id.clone(), a.clone()))
                }
                (o, Actions::Finite(a)) if o.is_nature() && !a.is_empty() => {
                    Some((None, sw.id.clone(), a.clone()))
                }
                (Owner::Player(p), Actions::Unlimited(templates)) => {
                    let samples = Self::unlimited_samples(templates);
                    (!samples.is_empty()).then(|| (Some(p.clone()), sw.id.clone(), samples))
                }
                _ => None,
            })
            .collect()
    }

    fn step_of(choices: &[(Option<Term>, Term, Vec<Term>)], pick: &[usize]) -> Step {
        let mut st = Step {
            submissions: Vec::new(),
            nature: Vec::new(),
        };
        for ((owner, sw, acts), &i) in choices.iter().zip(pick) {
            let a = acts[i].clone();
            match owner {
                Some(p) => st.submissions.push(Submission {
                    player: p.clone(),
                    switch: sw.clone(),
                    action: a,
                }),
                None => st.nature.push((sw.clone(), a)),
            }
        }
        st
    }

    /// A session at node `k`: the cached one if it is there, else replayed from the initial state.
    fn session_at(&mut self, k: usize) -> Result<Session, RuntimeError> {
        if let Some((c, s)) = self.cache.take() {
            if c == k {
                return Ok(s);
            }
        }
        replay(self.game.clone(), &self.opts, &self.history(k))
    }

    /// Tries every action combination of node `n`. Siblings are expanded one after the other, so the
    /// session stays at their parent between them (one chronon and an undo instead of a replay).
    /// `false`: a new state was over the budget (or enough violations were found) before every
    /// combination was tried.
    fn expand(&mut self, n: usize, queue: &mut VecDeque<usize>) -> bool {
        if self.nodes[n].switches.is_empty() {
            return true;
        }
        let (mut s, base) = match (self.nodes[n].parent, self.nodes[n].step.clone()) {
            (Some(p), Some(st)) => {
                let mut s = match self.session_at(p) {
                    Ok(s) => s,
                    Err(e) => {
                        self.error(e);
                        return true;
                    }
                };
                if let Err(e) = apply(&mut s, &st) {
                    self.error(e);
                    return true;
                }
                if let Err(e) = s.run_chronon() {
                    self.error(e);
                    return true;
                }
                (s, p)
            }
            _ => match self.session_at(n) {
                Ok(s) => (s, n),
                Err(e) => {
                    self.error(e);
                    return true;
                }
            },
        };
        let all = self.expand_at(n, &mut s, queue);
        if base != n {
            s.undo();
            s.clear_pending();
        }
        self.cache = Some((base, s));
        all
    }

    fn expand_at(&mut self, n: usize, s: &mut Session, queue: &mut VecDeque<usize>) -> bool {
        let choices = Self::choices(&self.nodes[n].switches);
        let total: usize = choices
            .iter()
            .map(|c| c.2.len())
            .try_fold(1usize, |acc, k| acc.checked_mul(k))
            .unwrap_or(usize::MAX);
        let picks: Vec<Vec<usize>> = if total <= self.opts.max_joint {
            let mut all = vec![Vec::new()];
            for c in &choices {
                all = all
                    .into_iter()
                    .flat_map(|p| {
                        (0..c.2.len()).map(move |i| {
                            let mut q = p.clone();
                            q.push(i);
                            q
                        })
                    })
                    .collect();
            }
            all
        } else {
            (0..self.opts.max_joint)
                .map(|_| {
                    choices
                        .iter()
                        .map(|c| self.rng.below(c.2.len() as u64) as usize)
                        .collect()
                })
                .collect()
        };
        for pick in picks {
            if self.done() {
                return false;
            }
            let st = Self::step_of(&choices, &pick);
            if let Err(e) = apply(s, &st) {
                s.clear_pending();
                self.error(e);
                continue;
            }
            self.report.chronons += 1;
            if let Err(e) = s.run_chronon() {
                s.clear_pending();
                self.error(e);
                continue;
            }
            let visit = self.register(s, Some(n), Some(st));
            s.undo();
            s.clear_pending();
            match visit {
                Ok(Visit::New(c)) => queue.push_back(c),
                Ok(Visit::Known) => {}
                Ok(Visit::OverBudget) => return false,
                Err(e) => self.error(e),
            }
        }
        true
    }

    /// One random playout from the initial state; the new states it visits are queued to be
    /// expanded.
    fn playout(&mut self, queue: &mut VecDeque<usize>) {
        let mut s = match Session::new(
            self.game.clone(),
            self.opts.seed,
            self.opts.settings.clone(),
        ) {
            Ok(s) => s,
            Err(e) => return self.error(e),
        };
        let mut at = 0usize;
        for _ in 0..self.opts.playout_chronons {
            if self.done() {
                return;
            }
            let switches = match s.switches() {
                Ok(sw) => sw,
                Err(e) => return self.error(e),
            };
            if switches.is_empty() {
                return;
            }
            let choices = Self::choices(&switches);
            let pick: Vec<usize> = choices
                .iter()
                .map(|c| self.rng.below(c.2.len() as u64) as usize)
                .collect();
            let st = Self::step_of(&choices, &pick);
            if let Err(e) = apply(&mut s, &st) {
                return self.error(e);
            }
            self.report.chronons += 1;
            if let Err(e) = s.run_chronon() {
                return self.error(e);
            }
            let key = match s.view(None) {
                Ok(f) => sorted_key(&f),
                Err(e) => return self.error(e),
            };
            at = match self.by_facts.get(&key) {
                Some(&known) => known,
                None => match self.register(&mut s, Some(at), Some(st)) {
                    Ok(Visit::New(c)) => {
                        queue.push_back(c);
                        c
                    }
                    Ok(Visit::Known | Visit::OverBudget) => return,
                    Err(e) => return self.error(e),
                },
            };
        }
    }
}
