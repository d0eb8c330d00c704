//! One entry point for the adapters (`sidl solve`, the playground's Analyse panel, the language
//! server's `sidl/solve`): choose a method, solve (at once with [`solve`], or in steps with a
//! [`Solver`]), and report values, NashConv and the strategies as plain serialisable data.

use super::cfr::{Cfr, CfrState, Flat, Profile};
use super::efg::rational;
use super::{br, lp, nfg, q_to_f64, AnalysisError, Tree, Q};
use crate::solve::errors::codes;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// CFR+ (any game).
    Cfr,
    /// The exact sequence-form LP (two-player zero-sum).
    Lp,
    /// Support enumeration of the strategic form (two-player one-shot games).
    Support,
    /// The LP for small two-player zero-sum games, support enumeration for small two-player one-shot
    /// games, else CFR+.
    Auto,
}

impl Method {
    pub fn parse(text: &str) -> Option<Method> {
        match text {
            "cfr" => Some(Method::Cfr),
            "lp" => Some(Method::Lp),
            "support" => Some(Method::Support),
            "auto" => Some(Method::Auto),
            _ => None,
        }
    }
}

/// One action's probability at an information set.
#[derive(Clone, Debug, Serialize)]
pub struct ActionProbability {
    pub action: String,
    /// The action's label, when the game has labels (docs/reference.md "Labels").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub probability: f64,
    /// The exact probability (`-1/3`) when the method is exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
}

/// The computed strategy at one information set.
#[derive(Clone, Debug, Serialize)]
pub struct InfosetStrategy {
    pub infoset: usize,
    pub player: String,
    /// The player's label, when the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_text: Option<String>,
    pub label: String,
    /// The information set as the player reads it (the game's labels), when the game has labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub actions: Vec<ActionProbability>,
}

/// What a solve found.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// `cfr+`, `lp` or `support`.
    pub method: &'static str,
    /// Each player's expected account change under the profile, in player order.
    #[serde(serialize_with = "ordered")]
    pub values: Vec<(String, f64)>,
    /// The same exactly, when the method is exact.
    #[serde(
        serialize_with = "ordered_opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub exact_values: Option<Vec<(String, String)>>,
    /// Σ over players of what a best response gains (0 at an equilibrium).
    pub nash_conv: f64,
    /// CFR+ iterations run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u64>,
    pub nodes: usize,
    pub infosets: usize,
    pub zero_sum: bool,
    /// What NashConv says about the profile, in words ([`verdict`]): the CLI prints it after
    /// NashConv, the playground's Analyse panel shows it.
    pub verdict: &'static str,
    pub strategies: Vec<InfosetStrategy>,
}

/// Below this NashConv, relative to the game's payoff scale ([`Tree::payoff_scale`]: the largest
/// absolute payoff, at least 1), a profile is reported as an ε-equilibrium (CFR+ gets there in a
/// game whose payoffs are in the hundreds as in one whose payoffs are ±1), and below a thousandth
/// of it as an equilibrium (the exact methods give 0 up to the floating-point evaluation of their
/// rational profile).
pub const EQUILIBRIUM_TOLERANCE: f64 = 1e-6;

/// What NashConv `nash_conv` says about a profile of a game with `players` players whose payoffs
/// are at most `scale` in absolute value ([`Tree::payoff_scale`]): an equilibrium, or how far from
/// one and whether CFR+ is known to get there (docs/analysis.md, "Solvers and their guarantees":
/// only in two-player zero-sum games).
pub fn verdict(nash_conv: f64, players: usize, zero_sum: bool, scale: f64) -> &'static str {
    let scale = scale.max(1.0);
    if nash_conv < 1e-9 * scale {
        "an equilibrium: no player gains by deviating alone"
    } else if nash_conv < EQUILIBRIUM_TOLERANCE * scale {
        "an ε-equilibrium: no player gains more than a millionth of the largest payoff by \
         deviating alone"
    } else if players == 2 && zero_sum {
        "not yet an equilibrium: this is what best-responding players would gain in total; \
         CFR+ converges here, so more iterations bring it down"
    } else {
        "not an equilibrium: this is what best-responding players would gain in total; CFR+ \
         need not converge with more than two players or general-sum payoffs"
    }
}

fn ordered<S: Serializer, V: Serialize>(v: &[(String, V)], s: S) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(v.len()))?;
    for (k, x) in v {
        m.serialize_entry(k, x)?;
    }
    m.end()
}

fn ordered_opt<S: Serializer>(v: &Option<Vec<(String, String)>>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => ordered(v, s),
        None => s.serialize_none(),
    }
}

/// Options of [`solve`].
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    pub method: Method,
    /// CFR+ iterations.
    pub iterations: u64,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            method: Method::Auto,
            iterations: 10_000,
        }
    }
}

/// The method [`Method::Auto`] stands for in `t`: the LP for two-player zero-sum games, support
/// enumeration for small two-player one-shot games, else CFR+.
pub fn resolve(t: &Tree, method: Method) -> Method {
    match method {
        Method::Auto => {
            if lp::solve_applies(t) {
                Method::Lp
            } else if t.players.len() == 2
                && nfg::strategic(t)
                    .map(|g| g.strategies.iter().all(|s| s.len() <= nfg::MAX_STRATEGIES))
                    .unwrap_or(false)
            {
                Method::Support
            } else {
                Method::Cfr
            }
        }
        m => m,
    }
}

/// The exact profile of an exact method (`lp`, `support`), with the method's name.
fn exact_profile(t: &Tree, method: Method) -> Result<(&'static str, Vec<Vec<Q>>), AnalysisError> {
    match method {
        Method::Lp => Ok(("lp", lp::solve(t)?.profile)),
        _ => {
            let g = nfg::strategic(t)?;
            let eqs = nfg::support_enumeration(&g)?;
            let Some(e) = eqs.into_iter().next() else {
                return Err(AnalysisError::new(
                    codes::SOLVER_NOT_APPLICABLE,
                    "support enumeration",
                    "support enumeration found no equilibrium (a degenerate game): use --method cfr",
                ));
            };
            let mut profile: Vec<Vec<Q>> = t
                .infosets
                .iter()
                .map(|is| vec![Q::from_integer(0.into()); is.actions.len()])
                .collect();
            for (p, is) in g.infosets.iter().enumerate() {
                if let Some(i) = is {
                    profile[*i] = e.strategies[p].clone();
                }
            }
            Ok(("support", profile))
        }
    }
}

/// CFR+'s average profile, as exact numbers only for [`solution_of`].
fn cfr_profile(avg: &Profile) -> Vec<Vec<Q>> {
    avg.iter()
        .map(|p| {
            p.iter()
                .map(|&x| super::decimal_to_q(x).unwrap_or_default())
                .collect()
        })
        .collect()
}

/// The [`Solution`] of `profile` in `t`: values, NashConv and the strategy table.
fn solution_of(
    t: &Tree,
    flat: &Flat,
    name: &'static str,
    profile: &[Vec<Q>],
    exact: bool,
    iterations: Option<u64>,
) -> Solution {
    let fprofile: Profile = profile
        .iter()
        .map(|p| p.iter().map(q_to_f64).collect())
        .collect();
    let (nash_conv, _) = br::nash_conv(flat, &fprofile);
    let values_f = flat.expected(&fprofile);
    let exact_values = if exact {
        Some(
            t.players
                .iter()
                .zip(super::exact_values(t, profile))
                .map(|(p, v)| (p.clone(), rational(&v)))
                .collect(),
        )
    } else {
        None
    };
    let player_texts = &t.player_texts;
    let strategies = t
        .infosets
        .iter()
        .enumerate()
        .map(|(i, is)| InfosetStrategy {
            infoset: i,
            player: t.players[is.player].clone(),
            player_text: player_texts.get(is.player).cloned().flatten(),
            label: is.label.clone(),
            text: is.text.clone(),
            actions: is
                .actions
                .iter()
                .enumerate()
                .map(|(k, a)| ActionProbability {
                    action: a.clone(),
                    text: is.action_texts.as_ref().and_then(|t| t.get(k).cloned()),
                    probability: fprofile[i][k],
                    exact: exact.then(|| rational(&profile[i][k])),
                })
                .collect(),
        })
        .collect();
    let zero_sum = t.is_zero_sum();
    Solution {
        method: name,
        values: t.players.iter().cloned().zip(values_f).collect(),
        exact_values,
        nash_conv,
        iterations,
        nodes: t.nodes.len(),
        infosets: t.infosets.len(),
        zero_sum,
        verdict: verdict(nash_conv, t.players.len(), zero_sum, t.payoff_scale()),
        strategies,
    }
}

/// Solves `t`. `progress(done, total)` is called between chunks of CFR+ iterations; returning
/// `false` stops early (the average so far is reported).
pub fn solve(
    t: &Tree,
    opts: SolveOptions,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Solution, AnalysisError> {
    let flat = Flat::new(t);
    match resolve(t, opts.method) {
        Method::Cfr | Method::Auto => {
            let mut c = Cfr::new(&flat);
            let total = opts.iterations.max(1);
            let chunk = chunk_of(total);
            while c.iterations() < total {
                c.run(chunk.min(total - c.iterations()));
                if !progress(c.iterations(), total) {
                    break;
                }
            }
            let profile = cfr_profile(&c.average());
            Ok(solution_of(
                t,
                &flat,
                "cfr+",
                &profile,
                false,
                Some(c.iterations()),
            ))
        }
        m => {
            let (name, profile) = exact_profile(t, m)?;
            Ok(solution_of(t, &flat, name, &profile, true, None))
        }
    }
}

/// The iterations between two calls of [`solve`]'s progress callback: a hundredth of `total`, at
/// most 10 (a caller that stops, a cancelled request, must not wait for a million iterations).
pub fn chunk_of(total: u64) -> u64 {
    (total / 100).clamp(1, 10)
}

/// How far a [`Solver`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StepProgress {
    /// CFR+ iterations run (for an exact method: 0, then 1 when solved).
    pub done: u64,
    /// CFR+ iterations asked for (1 for an exact method).
    pub total: u64,
    /// Whether [`Solver::solution`] is the final one.
    pub finished: bool,
}

enum SolverState {
    Cfr(CfrState),
    Exact(&'static str, Vec<Vec<Q>>),
    Waiting,
}

/// [`solve`] in steps, over a tree it owns: a caller that cannot be interrupted inside a call (the
/// playground's worker) runs [`Solver::step`] until [`StepProgress::finished`], reports progress
/// between steps and may stop at any step; [`Solver::solution`] is the profile so far (CFR+'s
/// average after the iterations run).
pub struct Solver {
    tree: Tree,
    flat: Flat,
    method: Method,
    total: u64,
    state: SolverState,
}

impl Solver {
    /// A solver of `tree` by `opts.method` (resolved as [`resolve`] does).
    pub fn new(tree: Tree, opts: SolveOptions) -> Solver {
        let flat = Flat::new(&tree);
        let method = resolve(&tree, opts.method);
        let state = match method {
            Method::Cfr | Method::Auto => SolverState::Cfr(Cfr::new(&flat).into_state()),
            _ => SolverState::Waiting,
        };
        Solver {
            tree,
            flat,
            method,
            total: opts.iterations.max(1),
            state,
        }
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    pub fn flat(&self) -> &Flat {
        &self.flat
    }

    /// The method in use (never [`Method::Auto`]).
    pub fn method(&self) -> Method {
        self.method
    }

    pub fn progress(&self) -> StepProgress {
        match &self.state {
            SolverState::Cfr(c) => {
                let done = c.iterations();
                StepProgress {
                    done,
                    total: self.total,
                    finished: done >= self.total,
                }
            }
            SolverState::Exact(..) => StepProgress {
                done: 1,
                total: 1,
                finished: true,
            },
            SolverState::Waiting => StepProgress {
                done: 0,
                total: 1,
                finished: false,
            },
        }
    }

    /// Runs at most `iterations` more CFR+ iterations (an exact method solves the whole game in
    /// its first step).
    pub fn step(&mut self, iterations: u64) -> Result<StepProgress, AnalysisError> {
        match std::mem::replace(&mut self.state, SolverState::Waiting) {
            SolverState::Cfr(st) => {
                let mut c = Cfr::resume(&self.flat, st);
                let left = self.total.saturating_sub(c.iterations());
                c.run(iterations.max(1).min(left));
                self.state = SolverState::Cfr(c.into_state());
            }
            SolverState::Waiting => {
                let (name, profile) = exact_profile(&self.tree, self.method)?;
                self.state = SolverState::Exact(name, profile);
            }
            done => self.state = done,
        }
        Ok(self.progress())
    }

    /// The solution so far (`None` before an exact method's first step).
    pub fn solution(&self) -> Option<Solution> {
        match &self.state {
            SolverState::Cfr(st) => {
                let profile = cfr_profile(&st.average(&self.flat));
                Some(solution_of(
                    &self.tree,
                    &self.flat,
                    "cfr+",
                    &profile,
                    false,
                    Some(st.iterations()),
                ))
            }
            SolverState::Exact(name, profile) => Some(solution_of(
                &self.tree, &self.flat, name, profile, true, None,
            )),
            SolverState::Waiting => None,
        }
    }
}
