//! The extensive form of a game (issue 15, `docs/analysis.md`): the game unrolled from its initial
//! state into a tree by the engine's own [`Session`] (submit, run a chronon, undo), and the solvers and
//! exports over it.
//!
//! - Chance nodes: a nature switch's `equal(N)` (each outcome `1/N`) or probability list (each number
//!   read as the decimal fraction it is written as, `0.1` is `1/10`, then normalised to sum 1). Zero
//!   probabilities are left out; a switch with one outcome is no node.
//! - The decisions of one chronon are a sequence of decision nodes, player by player in player order,
//!   then the chance nodes of the chronon; nobody sees what the others chose in the same chronon
//!   because an information set is keyed by what the player observed *before* the chronon.
//! - A player's information set: its view of the initial state, then for every chronon so far the
//!   events it may see (its own switches' actions, visible fact changes, accounts) and its view after
//!   it, and the actions it may choose now. Perfect recall holds by construction.
//! - A player's choice in a chronon is one action for each of its legal switches; several switches
//!   make a combination. Unlimited switches take the game's `candidate/2` answers, or the build stops
//!   (E0961) naming the switch. A choice with one option is no node.
//! - Payoffs: each player's account at a terminal state minus its initial account, exactly (accounts
//!   that are floats are read as the decimal fractions they print as).
//! - Budgets: at most `max_nodes` nodes (E0960) and plays of at most `max_chronons` chronons (E0963,
//!   a game that never ends). A game without payoffs is E0962. Before the build, Knuth's estimate
//!   of the node count ([`estimate_nodes`]) over [`ESTIMATE_FACTOR`] times the budget is E0960 at
//!   once, and a random play longer than `max_chronons` is E0963 at once.
//!
//! The build is iterative (an explicit stack of chronons), so a deep game cannot overflow the Rust stack.

pub mod br;
pub mod cfr;
pub mod efg;
pub mod exploit;
pub mod lp;
pub mod nfg;
pub mod readable;
pub mod solve;
#[cfg(test)]
mod tests;

use crate::ai::sim::{self, Decision};
use crate::atom::Atom;
use crate::game::session::{
    Actions, ChrononRecord, Event, Owner, RuntimeError, Session, Settings, Submission,
};
use crate::game::Game;
use crate::solve::errors::codes;
use crate::term::Term;
use crate::write::canonical;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Exact numbers of the extensive form (probabilities and payoffs).
pub type Q = BigRational;

/// The default node budget.
pub const DEFAULT_MAX_NODES: usize = 1_000_000;
/// The default length limit of a play, in chronons.
pub const DEFAULT_MAX_CHRONONS: usize = 1_000;

/// Limits of a build.
#[derive(Clone, Copy, Debug)]
pub struct BuildLimits {
    pub max_nodes: usize,
    pub max_chronons: usize,
}

impl Default for BuildLimits {
    fn default() -> BuildLimits {
        BuildLimits {
            max_nodes: DEFAULT_MAX_NODES,
            max_chronons: DEFAULT_MAX_CHRONONS,
        }
    }
}

/// A node of the tree. Children are node indices.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// Each player's payoff (account change), in player order.
    Terminal { payoffs: Vec<Q> },
    /// A nature switch: `(action label, probability, child)`.
    Chance {
        switch: String,
        outcomes: Vec<(String, Q, usize)>,
    },
    /// A player's choice; `children[k]` follows the information set's `k`-th action.
    Decision {
        player: usize,
        infoset: usize,
        children: Vec<usize>,
    },
}

/// An information set: the decision nodes a player cannot tell apart.
#[derive(Clone, Debug, PartialEq)]
pub struct Infoset {
    pub player: usize,
    /// What the player has seen (its own earlier choices, then its view now).
    pub label: String,
    /// The actions (a combination of several switches' actions is joined with `; `).
    pub actions: Vec<String>,
    /// With the game's labels (docs/reference.md "Labels"; the player's own, from its view): the
    /// information set as the player reads it (its own earlier choices as in `label`, then its
    /// labelled view) and each action's text, in `actions` order. `None` without labels.
    pub text: Option<String>,
    pub action_texts: Option<Vec<String>>,
    /// The decision nodes, in the order they were built.
    pub nodes: Vec<usize>,
    /// The play that reaches the first node from the initial state: each chronon's accepted
    /// submissions and nature draws (for [`exploit`]: an AI's choice there).
    pub path: Vec<PathChronon>,
}

/// One chronon of a path through the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct PathChronon {
    pub submissions: Vec<Submission>,
    pub draws: Vec<(Term, Term)>,
}

/// The extensive form of a game.
#[derive(Clone, Debug)]
pub struct Tree {
    /// The game's name (`game/1`), for file titles.
    pub title: String,
    /// Players' canonical texts, in player order.
    pub players: Vec<String>,
    /// Players' labels (the designer's, in the initial state), in player order; empty without
    /// labels (docs/reference.md "Labels").
    pub player_texts: Vec<Option<String>>,
    pub nodes: Vec<Node>,
    pub root: usize,
    pub infosets: Vec<Infoset>,
    /// The longest play, in chronons.
    pub depth: usize,
    /// The unlimited switches whose actions were taken from the game's `candidate/2` (canonical
    /// texts, sorted): the tree is the game discretised by those candidates.
    pub discretised: Vec<String>,
    /// With the game's labels (docs/reference.md "Labels"): each of `discretised`'s label, in its
    /// order, as its owner reads it where the build first met it; `None` for a switch without one.
    /// Empty without labels.
    pub discretised_texts: Vec<Option<String>>,
}

/// Counts of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TreeStats {
    pub nodes: usize,
    pub decision_nodes: usize,
    pub chance_nodes: usize,
    pub terminal_nodes: usize,
    pub infosets: usize,
}

impl Tree {
    pub fn stats(&self) -> TreeStats {
        let mut s = TreeStats {
            nodes: self.nodes.len(),
            decision_nodes: 0,
            chance_nodes: 0,
            terminal_nodes: 0,
            infosets: self.infosets.len(),
        };
        for n in &self.nodes {
            match n {
                Node::Terminal { .. } => s.terminal_nodes += 1,
                Node::Chance { .. } => s.chance_nodes += 1,
                Node::Decision { .. } => s.decision_nodes += 1,
            }
        }
        s
    }

    /// What the tree is of when unlimited switches were discretised by `candidate/2` (for the
    /// adapters to show next to a solution or an export), else `None`.
    pub fn discretised_note(&self) -> Option<String> {
        Self::note_of(&self.discretised)
    }

    /// [`Tree::discretised_note`] naming each switch by its label where the game gives one (as the
    /// rest of `sidl solve`'s output does), else by its canonical text.
    pub fn discretised_text_note(&self) -> Option<String> {
        let names: Vec<String> = self
            .discretised
            .iter()
            .enumerate()
            .map(|(i, c)| match self.discretised_texts.get(i) {
                Some(Some(t)) => t.clone(),
                _ => c.clone(),
            })
            .collect();
        Self::note_of(&names)
    }

    fn note_of(names: &[String]) -> Option<String> {
        match names {
            [] => None,
            [one] => Some(format!(
                "the unlimited switch {one} takes its actions from candidate/2: this is the analysis of the game so discretised"
            )),
            many => Some(format!(
                "the unlimited switches {} take their actions from candidate/2: this is the analysis of the game so discretised",
                many.join(", ")
            )),
        }
    }

    /// Is every terminal payoff vector summing to zero?
    pub fn is_zero_sum(&self) -> bool {
        self.nodes.iter().all(|n| match n {
            Node::Terminal { payoffs } => payoffs.iter().fold(Q::zero(), |a, b| a + b).is_zero(),
            _ => true,
        })
    }

    /// The largest absolute payoff of a terminal node, at least 1: the scale against which
    /// NashConv is read ([`solve::EQUILIBRIUM_TOLERANCE`]).
    pub fn payoff_scale(&self) -> f64 {
        self.nodes
            .iter()
            .filter_map(|n| match n {
                Node::Terminal { payoffs } => Some(
                    payoffs
                        .iter()
                        .map(|q| q_to_f64(q).abs())
                        .fold(0.0, f64::max),
                ),
                _ => None,
            })
            .fold(1.0, f64::max)
    }

    /// The children of a node, in order.
    pub fn children(&self, node: usize) -> Vec<usize> {
        match &self.nodes[node] {
            Node::Terminal { .. } => Vec::new(),
            Node::Chance { outcomes, .. } => outcomes.iter().map(|o| o.2).collect(),
            Node::Decision { children, .. } => children.clone(),
        }
    }
}

/// An error of the analysis (a [`RuntimeError`] of the game, or one of the builder's own codes).
pub type AnalysisError = RuntimeError;

fn err(code: &'static str, msg: impl Into<String>) -> AnalysisError {
    RuntimeError::new(code, "the extensive form", msg)
}

/// `f` as the decimal fraction it prints as (`0.1` is `1/10`).
pub fn decimal_to_q(f: f64) -> Option<Q> {
    if !f.is_finite() {
        return None;
    }
    let text = format!("{f}");
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.as_str()),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let num: BigInt = format!("{int}{frac}").parse().ok()?;
    let den = num_traits::pow(BigInt::from(10), frac.len());
    let q = Q::new(num, den);
    Some(if neg { -q } else { q })
}

/// An account (an `Int` or `Float` term) as an exact number.
pub fn term_to_q(t: &Term) -> Option<Q> {
    match t {
        Term::Int(i) => Some(Q::from_integer(BigInt::from(*i))),
        Term::Float(f) => decimal_to_q(*f),
        _ => None,
    }
}

/// `q` as an `f64`.
pub fn q_to_f64(q: &Q) -> f64 {
    use num_traits::ToPrimitive;
    q.to_f64().unwrap_or(f64::NAN)
}

/// Each player's exact expected payoff under an exact behavioural profile.
pub fn exact_values(t: &Tree, profile: &[Vec<Q>]) -> Vec<Q> {
    let mut out = vec![Q::zero(); t.players.len()];
    let mut stack = vec![(t.root, Q::one())];
    while let Some((id, w)) = stack.pop() {
        match &t.nodes[id] {
            Node::Terminal { payoffs } => {
                for (o, p) in out.iter_mut().zip(payoffs) {
                    *o += &w * p;
                }
            }
            Node::Chance { outcomes, .. } => {
                for (_, q, c) in outcomes {
                    stack.push((*c, &w * q));
                }
            }
            Node::Decision {
                infoset, children, ..
            } => {
                for (c, p) in children.iter().zip(&profile[*infoset]) {
                    if !p.is_zero() {
                        stack.push((*c, &w * p));
                    }
                }
            }
        }
    }
    out
}

/// A chance outcome: the nature switch, the action, its canonical text, its probability.
type Outcome = (Term, Term, String, Q);

/// One level of a chronon's choices.
enum Level {
    /// A player's choice: the options as submissions and their labels.
    Decision {
        player: usize,
        infoset: usize,
        options: Vec<Vec<Submission>>,
    },
    Chance {
        switch: String,
        outcomes: Vec<Outcome>,
    },
}

impl Level {
    fn len(&self) -> usize {
        match self {
            Level::Decision { options, .. } => options.len(),
            Level::Chance { outcomes, .. } => outcomes.len(),
        }
    }
}

enum Phase {
    Fresh,
    Descend,
    Returned,
}

/// One chronon on the builder's stack: the state's levels, the current pick of each, and the node of
/// each level for the current prefix.
struct Frame {
    /// The node that receives this state's first node as its next child (`None`: the root).
    parent: Option<usize>,
    phase: Phase,
    levels: Vec<Level>,
    forced: Vec<Submission>,
    forced_draws: Vec<(Term, Term)>,
    pick: Vec<usize>,
    nodes: Vec<usize>,
}

impl Frame {
    fn new(parent: Option<usize>) -> Frame {
        Frame {
            parent,
            phase: Phase::Fresh,
            levels: Vec::new(),
            forced: Vec::new(),
            forced_draws: Vec::new(),
            pick: Vec::new(),
            nodes: Vec::new(),
        }
    }
}

struct Builder<'p> {
    limits: BuildLimits,
    /// Called with the node count every [`PROGRESS_EVERY`] nodes; `false` stops the build (E0966).
    progress: &'p mut dyn FnMut(usize) -> bool,
    nodes: Vec<Node>,
    root: Option<usize>,
    infosets: Vec<Infoset>,
    infoset_ids: FxHashMap<(usize, Vec<u32>, Vec<String>), usize>,
    labels: FxHashMap<(usize, String), usize>,
    /// Does the game define labels?
    labelled: bool,
    chunks: FxHashMap<String, u32>,
    /// Per player, the observation so far (chunk ids: initial view, then one per chronon).
    obs: Vec<Vec<u32>>,
    /// Per player, its own choices so far (one per chronon where it chose).
    own: Vec<Vec<Option<String>>>,
    initial: Vec<Q>,
    depth: usize,
    /// The session's history length when the build started.
    base: usize,
    /// The unlimited switches given actions by `candidate/2` (canonical texts).
    discretised: Discretised,
}

/// The unlimited switches given their actions by `candidate/2`: canonical text to label (`None`
/// without one, or in a build without labels).
type Discretised = std::collections::BTreeMap<String, Option<String>>;

impl Builder<'_> {
    fn push(&mut self, node: Node, parent: Option<usize>) -> Result<usize, AnalysisError> {
        if self.nodes.len() % PROGRESS_EVERY == PROGRESS_EVERY - 1
            && !(self.progress)(self.nodes.len() + 1)
        {
            return Err(err(
                codes::ANALYSIS_STOPPED,
                format!("stopped after {} nodes", self.nodes.len()),
            ));
        }
        if self.nodes.len() >= self.limits.max_nodes {
            return Err(err(
                codes::EFG_NODE_BUDGET,
                format!(
                    "the extensive form has more than {} nodes (the node budget; {} information sets so far): give a larger budget (--max-nodes) or make the game smaller",
                    self.limits.max_nodes,
                    self.infosets.len()
                ),
            ));
        }
        let id = self.nodes.len();
        self.nodes.push(node);
        match parent {
            None => self.root = Some(id),
            Some(p) => {
                if let Node::Decision { children, .. } = &mut self.nodes[p] {
                    children.push(id);
                } else if let Node::Chance { outcomes, .. } = &mut self.nodes[p] {
                    // the chance outcome's slot was pushed with a placeholder child
                    if let Some(o) = outcomes.iter_mut().find(|o| o.2 == usize::MAX) {
                        o.2 = id;
                    }
                }
            }
        }
        Ok(id)
    }

    fn chunk(&mut self, text: String) -> u32 {
        let n = self.chunks.len() as u32;
        *self.chunks.entry(text).or_insert(n)
    }

    /// Records each player's observation of the chronon just run (`None`: the initial state).
    fn observe(&mut self, s: &mut Session, events: Option<&[String]>) -> Result<(), AnalysisError> {
        let players = s.players();
        for (pi, p) in players.iter().enumerate() {
            let mut text = events.and_then(|t| t.get(pi)).cloned().unwrap_or_default();
            text.push('|');
            for f in s.view(Some(p))? {
                text.push_str(&canonical(&f));
                text.push(' ');
            }
            let c = self.chunk(text);
            self.obs[pi].push(c);
        }
        Ok(())
    }

    /// Per player, the text of the events of `rec` it may see, as [`Builder::observe`] records them.
    fn event_texts(rec: &ChrononRecord) -> Vec<String> {
        (0..rec.player_events.len())
            .map(|pi| {
                let mut text = String::new();
                for e in rec.events_of(pi) {
                    match e {
                        Event::Created(t) => text.push_str(&format!("+{} ", canonical(t))),
                        Event::Deleted(t) => text.push_str(&format!("-{} ", canonical(t))),
                        Event::Account { player, amount } => {
                            text.push_str(&format!("${}={} ", canonical(player), canonical(amount)))
                        }
                        Event::Switch {
                            switch, action, ok, ..
                        } => text.push_str(&format!(
                            "!{}:{}:{} ",
                            canonical(switch),
                            canonical(action),
                            ok
                        )),
                    }
                }
                text
            })
            .collect()
    }

    fn infoset(
        &mut self,
        s: &mut Session,
        player: usize,
        actions: Vec<String>,
        options: &[Vec<Submission>],
    ) -> Result<usize, AnalysisError> {
        let key = (player, self.obs[player].clone(), actions);
        if let Some(&i) = self.infoset_ids.get(&key) {
            return Ok(i);
        }
        let p = s.players()[player].clone();
        let mut label = String::new();
        let past: Vec<&str> = self.own[player]
            .iter()
            .flatten()
            .map(String::as_str)
            .collect();
        if !past.is_empty() {
            label.push_str(&past.join(", "));
            label.push_str(" -> ");
        }
        let view: Vec<String> = s.view(Some(&p))?.iter().map(canonical).collect();
        label.push_str(&view.join(" "));
        // the same as the player reads it, with the game's labels from its view
        let mut text = None;
        let mut action_texts = None;
        if self.labelled {
            let mut pr = crate::game::present::Presenter::new(s, Some(&p), None)?;
            let facts = s.view(Some(&p))?;
            let view: Vec<String> = facts.iter().map(|f| pr.fact(f)).collect();
            let mut t = String::new();
            if !past.is_empty() {
                t.push_str(&past.join(", "));
                t.push_str(" -> ");
            }
            t.push_str(&view.join("; "));
            text = Some(t);
            action_texts = Some(
                options
                    .iter()
                    .map(|o| {
                        o.iter()
                            .map(|x| pr.action(&x.switch, &x.action))
                            .collect::<Vec<_>>()
                            .join("; ")
                    })
                    .collect(),
            );
        }
        let n = self.labels.entry((player, label.clone())).or_insert(0);
        *n += 1;
        if *n > 1 {
            label.push_str(&format!(" #{n}"));
            if let Some(t) = &mut text {
                t.push_str(&format!(" #{n}"));
            }
        }
        let id = self.infosets.len();
        let path = s.history()[self.base..]
            .iter()
            .map(|r| PathChronon {
                submissions: r.submissions.clone(),
                draws: r.overrides.clone(),
            })
            .collect();
        self.infosets.push(Infoset {
            player,
            label,
            actions: key.2.clone(),
            text,
            action_texts,
            nodes: Vec::new(),
            path,
        });
        self.infoset_ids.insert(key, id);
        Ok(id)
    }

    /// The levels of the current state (`None`: terminal).
    fn expand(&mut self, s: &mut Session, f: &mut Frame) -> Result<bool, AnalysisError> {
        let Some(shape) = chronon_shape(s, Some(&mut self.discretised), self.labelled)? else {
            return Ok(false);
        };
        f.levels.clear();
        f.forced = shape.forced;
        f.forced_draws = shape.forced_draws;
        for (player, options) in shape.decisions {
            let labels: Vec<String> = options.iter().map(|o| option_label(o)).collect();
            let infoset = self.infoset(s, player, labels, &options)?;
            f.levels.push(Level::Decision {
                player,
                infoset,
                options,
            });
        }
        for (switch, outcomes) in shape.chances {
            f.levels.push(Level::Chance { switch, outcomes });
        }
        f.pick = vec![0; f.levels.len()];
        f.nodes.clear();
        self.open_levels(f, 0)?;
        Ok(true)
    }

    /// Creates the nodes of levels `from..` for the current pick.
    fn open_levels(&mut self, f: &mut Frame, from: usize) -> Result<(), AnalysisError> {
        f.nodes.truncate(from);
        for k in from..f.levels.len() {
            let parent = if k == 0 {
                f.parent
            } else {
                Some(f.nodes[k - 1])
            };
            self.reserve_chance_slot(parent, f, k);
            let node = match &f.levels[k] {
                Level::Decision {
                    player, infoset, ..
                } => Node::Decision {
                    player: *player,
                    infoset: *infoset,
                    children: Vec::new(),
                },
                Level::Chance { switch, .. } => Node::Chance {
                    switch: switch.clone(),
                    outcomes: Vec::new(),
                },
            };
            let id = self.push(node, parent)?;
            if let Level::Decision { infoset, .. } = &f.levels[k] {
                self.infosets[*infoset].nodes.push(id);
            }
            f.nodes.push(id);
        }
        Ok(())
    }

    /// Before a child of a chance node at level `k - 1` is pushed, its outcome slot.
    fn reserve_chance_slot(&mut self, parent: Option<usize>, f: &Frame, k: usize) {
        if k == 0 {
            return;
        }
        let pick = f.pick[k - 1];
        if let (Some(p), Level::Chance { outcomes, .. }) = (parent, &f.levels[k - 1]) {
            if let Node::Chance { outcomes: o, .. } = &mut self.nodes[p] {
                o.push((
                    outcomes[pick].2.clone(),
                    outcomes[pick].3.clone(),
                    usize::MAX,
                ));
            }
        }
    }

    /// The parent link of the state reached by the current pick, reserving a chance slot.
    fn child_link(&mut self, f: &Frame) -> Option<usize> {
        let k = f.levels.len();
        if k == 0 {
            return f.parent;
        }
        let parent = Some(f.nodes[k - 1]);
        self.reserve_chance_slot(parent, f, k);
        parent
    }
}

/// The choices of a chronon in the session's current state, before information sets: the players
/// with more than one option (player order), the chance switches with more than one outcome, and what
/// is forced (a choice with one option, a draw with one outcome: no node). `None`: the state is
/// terminal. Shared by the build and [`estimate_nodes`], so both count the same nodes.
struct Shape {
    decisions: Vec<(usize, Vec<Vec<Submission>>)>,
    chances: Vec<(String, Vec<Outcome>)>,
    forced: Vec<Submission>,
    forced_draws: Vec<(Term, Term)>,
}

/// The [`Shape`] of the current state; `discretised` receives the unlimited switches given actions by
/// `candidate/2` (with `labelled`, each one's label as its owner reads it here).
fn chronon_shape(
    s: &mut Session,
    mut discretised: Option<&mut Discretised>,
    labelled: bool,
) -> Result<Option<Shape>, AnalysisError> {
    let switches = s.switches()?;
    if switches.is_empty() {
        return Ok(None);
    }
    let players = s.players();
    // players' choices
    let mut decisions: Vec<Decision> = Vec::new();
    for sw in switches.iter() {
        let Owner::Player(p) = &sw.owner else {
            continue;
        };
        let Some(pi) = players.iter().position(|q| q == p) else {
            continue;
        };
        let acts = match &sw.actions {
                Actions::Finite(a) => a.clone(),
                Actions::Unlimited(t) => match sim::game_candidates(s, &sw.id, t)? {
                    Some(c) if !c.is_empty() => {
                        if let Some(d) = discretised.as_deref_mut() {
                            if let std::collections::btree_map::Entry::Vacant(v) =
                                d.entry(canonical(&sw.id))
                            {
                                let text = if labelled {
                                    crate::game::present::Presenter::new(s, Some(p), None)?
                                        .label(&crate::game::present::Thing::Switch(sw.id.clone()))
                                } else {
                                    None
                                };
                                v.insert(text);
                            }
                        }
                        c
                    }
                    Some(_) => {
                        return Err(err(
                            codes::EFG_UNLIMITED,
                            format!(
                                "the unlimited switch {} has no candidate/2 answer here: the extensive form needs its actions listed by candidate(Switch, Action)",
                                canonical(&sw.id)
                            ),
                        ))
                    }
                    None => {
                        return Err(err(
                            codes::EFG_UNLIMITED,
                            format!(
                                "the switch {} is unlimited and the game defines no candidate/2: the extensive form needs its actions listed, e.g. candidate({}, Action) :- ...",
                                canonical(&sw.id),
                                canonical(&sw.id)
                            ),
                        ))
                    }
                },
            };
        if acts.is_empty() {
            continue;
        }
        match decisions.iter_mut().find(|d| d.player == pi) {
            Some(d) => d.switches.push((sw.id.clone(), acts)),
            None => decisions.push(Decision {
                player: pi,
                switches: vec![(sw.id.clone(), acts)],
            }),
        }
    }
    crate::stable_sort::sort_by_key(&mut decisions, |d| d.player);
    let mut shape = Shape {
        decisions: Vec::new(),
        chances: Vec::new(),
        forced: Vec::new(),
        forced_draws: Vec::new(),
    };
    for d in &decisions {
        let mut n: usize = 1;
        for (_, a) in &d.switches {
            n = n.saturating_mul(a.len());
        }
        if n > sim::MAX_COMBOS {
            return Err(err(
                    codes::EFG_SHAPE,
                    format!(
                        "{} chooses among {n} combinations of its switches' actions in one chronon (at most {})",
                        canonical(&players[d.player]),
                        sim::MAX_COMBOS
                    ),
                ));
        }
        let p = &players[d.player];
        let options: Vec<Vec<Submission>> = (0..n).map(|i| d.combo(p, i)).collect();
        if n == 1 {
            shape.forced.extend(options.into_iter().flatten());
            continue;
        }
        shape.decisions.push((d.player, options));
    }
    // chance
    for sw in switches.iter() {
        if !sw.owner.is_nature() {
            continue;
        }
        // a bad distribution or unlimited actions: the chronon raises the error itself
        let Actions::Finite(acts) = &sw.actions else {
            continue;
        };
        let probs: Vec<Q> = match &sw.owner {
            Owner::Equal(n) if *n as usize == acts.len() && !acts.is_empty() => {
                vec![Q::new(BigInt::one(), BigInt::from(acts.len())); acts.len()]
            }
            Owner::Probs(ps) if ps.len() == acts.len() => {
                let qs: Option<Vec<Q>> = ps.iter().map(|&p| decimal_to_q(p)).collect();
                let Some(qs) = qs else { continue };
                let sum = qs.iter().fold(Q::zero(), |a, b| a + b);
                if sum.is_zero() {
                    continue;
                }
                qs.into_iter().map(|q| q / &sum).collect()
            }
            _ => continue,
        };
        let outcomes: Vec<Outcome> = acts
            .iter()
            .zip(probs)
            .filter(|(_, q)| !q.is_zero())
            .map(|(a, q)| (sw.id.clone(), a.clone(), canonical(a), q))
            .collect();
        if outcomes.len() == 1 {
            shape
                .forced_draws
                .push((outcomes[0].0.clone(), outcomes[0].1.clone()));
            continue;
        }
        shape.chances.push((canonical(&sw.id), outcomes));
    }
    Ok(Some(shape))
}

/// The label of a choice made of `subs` for `player` in the session's current state: for each of
/// the player's legal switches in order, the submitted action, else the switch's default as the
/// chronon would run it (the first action when the game has no `default/2`).
pub fn option_label_of(
    s: &mut Session,
    player: &Term,
    subs: &[Submission],
) -> Result<String, AnalysisError> {
    let mut parts = Vec::new();
    for sw in s.switches_of(player)? {
        let acts = match &sw.actions {
            Actions::Finite(a) => a.clone(),
            Actions::Unlimited(t) => sim::game_candidates(s, &sw.id, t)?.unwrap_or_default(),
        };
        if acts.is_empty() {
            continue;
        }
        let a = match subs.iter().find(|x| x.switch == sw.id) {
            Some(x) => x.action.clone(),
            None => {
                let v = Term::Var(0);
                let goal = Term::new_compound(crate::atom::DEFAULT, vec![sw.id.clone(), v.clone()]);
                let d = if s.game().program.pred(crate::atom::DEFAULT, 2).is_some() {
                    s.query_state(&goal, &v, 1, "default/2")?.pop()
                } else {
                    None
                };
                d.unwrap_or_else(|| acts[0].clone())
            }
        };
        parts.push(canonical(&a));
    }
    Ok(parts.join("; "))
}

/// A choice's label: its actions' canonical texts joined with `; `.
fn option_label(subs: &[Submission]) -> String {
    subs.iter()
        .map(|s| canonical(&s.action))
        .collect::<Vec<_>>()
        .join("; ")
}

/// How often (in nodes) a build reports its progress.
pub const PROGRESS_EVERY: usize = 4096;

/// Builds the extensive form of `game` from its initial state (seed 0; the tree does not depend on
/// the seed unless the rules call `random/1`).
pub fn build(game: Arc<Game>, limits: BuildLimits) -> Result<Tree, AnalysisError> {
    build_with_progress(game, limits, &mut |_| true)
}

/// [`build`] with `progress(nodes so far)` called every [`PROGRESS_EVERY`] nodes; when it returns
/// `false` the build stops with E0966.
pub fn build_with_progress(
    game: Arc<Game>,
    limits: BuildLimits,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Tree, AnalysisError> {
    let settings = Settings::default();
    let mut s = Session::new(game.clone(), 0, settings)?;
    build_from(&mut s, limits, progress)
}

/// Builds the extensive form from the session's current state (its history is not part of the
/// tree), reporting progress as [`build_with_progress`].
pub fn build_from(
    s: &mut Session,
    limits: BuildLimits,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Tree, AnalysisError> {
    if s.settings().interrupt {
        return Err(err(
            codes::EFG_SHAPE,
            "the extensive form is built for the synchronous mode, not interrupt mode",
        ));
    }
    if s.game().program.pred(crate::atom::PAYOFF, 2).is_none() {
        return Err(err(
            codes::EFG_NO_PAYOFF,
            "the game defines no payoff/2: without payoffs there is nothing to analyse",
        ));
    }
    // a tree far over the budget stops before the build (docs/analysis.md "The estimate")
    let estimate = estimate_nodes(s, limits, ESTIMATE_PLAYS, ESTIMATE_SEED);
    if estimate.too_long {
        // a play the build would meet too: the same error, at once
        return Err(too_long(limits));
    }
    if estimate.nodes > ESTIMATE_FACTOR * limits.max_nodes as f64 {
        return Err(err(
            codes::EFG_NODE_BUDGET,
            format!(
                "the extensive form would have {} nodes ({} before building), more than the node budget of {}: give a larger budget (--max-nodes) or make the game smaller",
                if estimate.complete {
                    format!("about {:.1e}", estimate.nodes.min(f64::MAX))
                } else {
                    format!("at least about {:.1e}", estimate.nodes.min(f64::MAX))
                },
                if estimate.complete {
                    format!("estimated from {} random plays", estimate.plays)
                } else {
                    "estimated from random plays".to_string()
                },
                limits.max_nodes
            ),
        ));
    }
    let title = game_name(s);
    let players: Vec<String> = s.players().iter().map(canonical).collect();
    let player_texts = if crate::game::present::has_labels(s.game()) {
        let mut pr = crate::game::present::Presenter::new(s, None, None)?;
        s.players()
            .iter()
            .map(|p| pr.label(&crate::game::present::Thing::Player(p.clone())))
            .collect()
    } else {
        Vec::new()
    };
    let initial: Vec<Q> = s
        .state()
        .accounts
        .iter()
        .map(|a| term_to_q(a).unwrap_or_else(Q::zero))
        .collect();
    let n = players.len();
    let mut b = Builder {
        limits,
        progress,
        nodes: Vec::new(),
        root: None,
        infosets: Vec::new(),
        infoset_ids: FxHashMap::default(),
        labels: FxHashMap::default(),
        labelled: crate::game::present::has_labels(s.game()),
        chunks: FxHashMap::default(),
        obs: vec![Vec::new(); n],
        own: vec![Vec::new(); n],
        initial,
        depth: 0,
        base: s.history().len(),
        discretised: Default::default(),
    };
    b.observe(s, None)?;
    let mut stack: Vec<Frame> = vec![Frame::new(None)];
    let result = run(&mut b, s, &mut stack);
    // leave the session where it started
    for _ in 0..stack.len() {
        sim::retreat(s);
    }
    s.clear_pending();
    result?;
    if !b.nodes.iter().any(|n| match n {
        Node::Terminal { payoffs } => payoffs.iter().any(|q| !q.is_zero()),
        _ => false,
    }) {
        return Err(err(
            codes::EFG_NO_PAYOFF,
            "no play of the game changes an account: without payoffs there is nothing to analyse",
        ));
    }
    Ok(Tree {
        title,
        players,
        player_texts,
        root: b.root.unwrap_or(0),
        nodes: b.nodes,
        infosets: b.infosets,
        depth: b.depth,
        discretised_texts: if b.labelled {
            b.discretised.values().cloned().collect()
        } else {
            Vec::new()
        },
        discretised: b.discretised.into_keys().collect(),
    })
}

/// How many random plays [`build_from`] estimates the tree's size from.
pub const ESTIMATE_PLAYS: usize = 16;
/// The seed of the estimate's plays (fixed: the same game always gets the same estimate).
pub const ESTIMATE_SEED: u64 = 0x5EED_5EED;
/// The build stops before it starts when the estimate is more than this many times the node budget.
/// Knuth's estimate is unbiased but heavy-tailed: its typical error is an *under*estimate (most plays
/// miss the rare big subtrees), and by Markov's inequality the mean of the plays exceeds 20 times the
/// true count with probability at most 1/20 whatever the tree's shape; a tree that fits the budget is
/// stopped only when the estimate is 20 times over the budget, so at least 20 times over its own size.
/// A false stop (a game that would have built) is worse than a late one (the budget stops the build
/// anyway), hence the wide margin; the shipped games' estimates are in docs/analysis.md.
pub const ESTIMATE_FACTOR: f64 = 20.0;

/// Knuth's estimate of a tree's node count ([`estimate_nodes`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean over the plays of each play's estimate.
    pub nodes: f64,
    /// The number of plays.
    pub plays: usize,
    /// `false` when the plays stopped early: an error of the game, a play longer than
    /// `max_chronons`, or a product of branching factors beyond `f64`. `nodes` is then a lower bound
    /// of the full estimate (the plays not made count 0, a cut play the part made).
    pub complete: bool,
    /// A play was still going after `max_chronons` chronons (the build would stop with E0963).
    pub too_long: bool,
}

/// Knuth's estimator (D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
/// Computation 29, 1975) of the number of nodes [`build_from`] would make from the session's current
/// state: `plays` random plays, each choosing every decision and chance level uniformly at random
/// (seeded by `seed`) through the same [`Session`] submit/chronon/undo and the same [`chronon_shape`]
/// as the build. Along a play, a node met at depth `d` stands for the product of the branching factors
/// of the levels above it; the play's estimate is the sum of those products over its nodes (the
/// levels of each chronon, then its terminal), and the mean over the plays is an unbiased estimate of
/// the node count, exact when every play meets the same branching factors. The session is left where
/// it was.
pub fn estimate_nodes(s: &mut Session, limits: BuildLimits, plays: usize, seed: u64) -> Estimate {
    let mut rng = crate::rng::Rng::new(seed);
    let mut total = 0.0f64;
    let mut complete = true;
    let mut too_long = false;
    'plays: for _ in 0..plays {
        let mut weight = 1.0f64;
        let mut chronons = 0;
        loop {
            if !total.is_finite() {
                complete = false;
                break;
            }
            let shape = match chronon_shape(s, None, false) {
                Ok(Some(shape)) => shape,
                Ok(None) => {
                    total += weight;
                    break;
                }
                Err(_) => {
                    complete = false;
                    break;
                }
            };
            if chronons >= limits.max_chronons {
                complete = false;
                too_long = true;
                break;
            }
            let mut subs = shape.forced;
            let mut draws = shape.forced_draws;
            for (_, options) in shape.decisions {
                total += weight;
                weight *= options.len() as f64;
                let k = rng.below(options.len() as u64) as usize;
                subs.extend(options.into_iter().nth(k).unwrap_or_default());
            }
            for (_, outcomes) in shape.chances {
                total += weight;
                weight *= outcomes.len() as f64;
                let k = rng.below(outcomes.len() as u64) as usize;
                if let Some((sw, a, _, _)) = outcomes.into_iter().nth(k) {
                    draws.push((sw, a));
                }
            }
            s.clear_pending();
            let mut ok = true;
            for sub in &subs {
                if !matches!(s.submit(&sub.player, &sub.switch, &sub.action), Ok(Ok(_))) {
                    ok = false;
                    break;
                }
            }
            for (sw, a) in &draws {
                if ok && s.set_nature(sw, a).is_err() {
                    ok = false;
                }
            }
            if !ok || s.run_chronon().is_err() {
                complete = false;
                break;
            }
            chronons += 1;
        }
        for _ in 0..chronons {
            sim::retreat(s);
        }
        s.clear_pending();
        if !complete {
            break 'plays;
        }
    }
    Estimate {
        nodes: total / plays.max(1) as f64,
        plays,
        complete,
        too_long,
    }
}

/// E0963: a play longer than the limit.
fn too_long(limits: BuildLimits) -> AnalysisError {
    err(
        codes::EFG_TOO_LONG,
        format!(
            "a play is still going after {} chronons (the limit): the game may never end; give a larger limit or make every play end",
            limits.max_chronons
        ),
    )
}

fn game_name(s: &mut Session) -> String {
    let v = Term::Var(0);
    let goal = Term::new_compound(Atom::new("game"), vec![v.clone()]);
    match s.query_state(&goal, &v, 1, "game/1") {
        Ok(a) if !a.is_empty() => canonical(&a[0]),
        _ => "sidl game".to_string(),
    }
}

fn run(b: &mut Builder<'_>, s: &mut Session, stack: &mut Vec<Frame>) -> Result<(), AnalysisError> {
    while let Some(mut f) = stack.pop() {
        match f.phase {
            Phase::Fresh => {
                if !b.expand(s, &mut f)? {
                    let payoffs: Vec<Q> = s
                        .state()
                        .accounts
                        .iter()
                        .zip(&b.initial)
                        .map(|(a, i)| term_to_q(a).unwrap_or_else(Q::zero) - i)
                        .collect();
                    b.push(Node::Terminal { payoffs }, f.parent)?;
                    if let Some(parent) = stack.last_mut() {
                        parent.phase = Phase::Returned;
                        retreat(b, s);
                    }
                    continue;
                }
                f.phase = Phase::Descend;
                stack.push(f);
            }
            Phase::Descend => {
                if stack.len() >= b.limits.max_chronons {
                    return Err(too_long(b.limits));
                }
                let mut subs = f.forced.clone();
                let mut draws = f.forced_draws.clone();
                let mut choices: Vec<Option<String>> = vec![None; b.obs.len()];
                for (level, &pick) in f.levels.iter().zip(&f.pick) {
                    match level {
                        Level::Decision {
                            player, options, ..
                        } => {
                            subs.extend(options[pick].iter().cloned());
                            choices[*player] = Some(option_label(&options[pick]));
                        }
                        Level::Chance { outcomes, .. } => {
                            draws.push((outcomes[pick].0.clone(), outcomes[pick].1.clone()));
                        }
                    }
                }
                s.clear_pending();
                for sub in &subs {
                    if let Err(r) = s.submit(&sub.player, &sub.switch, &sub.action)? {
                        return Err(err(
                            codes::EFG_SHAPE,
                            format!(
                                "the action {} of {} is refused: {r} (every candidate/2 answer must be a legal action)",
                                canonical(&sub.action),
                                canonical(&sub.switch)
                            ),
                        ));
                    }
                }
                for (sw, a) in &draws {
                    let _ = s.set_nature(sw, a)?;
                }
                let events = Builder::event_texts(s.run_chronon()?);
                let link = b.child_link(&f);
                f.phase = Phase::Returned;
                stack.push(f);
                b.depth = b.depth.max(stack.len());
                b.observe(s, Some(&events))?;
                for (pi, c) in choices.into_iter().enumerate() {
                    b.own[pi].push(c);
                }
                stack.push(Frame::new(link));
            }
            Phase::Returned => {
                // the next pick: the deepest level that has another option
                let mut k = f.levels.len();
                let mut found = false;
                while k > 0 {
                    k -= 1;
                    if f.pick[k] + 1 < f.levels[k].len() {
                        f.pick[k] += 1;
                        for p in &mut f.pick[k + 1..] {
                            *p = 0;
                        }
                        b.open_levels(&mut f, k + 1)?;
                        found = true;
                        break;
                    }
                }
                if found {
                    f.phase = Phase::Descend;
                    stack.push(f);
                } else if let Some(parent) = stack.last_mut() {
                    parent.phase = Phase::Returned;
                    retreat(b, s);
                }
            }
        }
    }
    Ok(())
}

/// Undoes the last chronon and the observations of it.
fn retreat(b: &mut Builder<'_>, s: &mut Session) {
    sim::retreat(s);
    for o in &mut b.obs {
        o.pop();
    }
    for o in &mut b.own {
        o.pop();
    }
}
