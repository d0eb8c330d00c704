//! The playground's Analyse panel (docs/analysis.md "In the playground"): the extensive form of
//! the loaded game, solved in steps so that the worker reports progress and can stop between calls
//! (the engine's [`Solver`]), the strategy table in the game's own words
//! ([`extensive::readable`]), the exploitability of AI seats ([`extensive::exploit`]) and the
//! `.efg` text. [`AnalysisCore`] is plain Rust (tested natively in `wasm/tests/core.rs`);
//! [`Analysis`] and `SidlGame.analyse` only convert to JavaScript. Errors are the engine's
//! diagnostics (E0960 node budget, E0961 unlimited switch without `candidate/2`, E0962 no payoffs,
//! E0963 a play too long, E0965 a method that does not apply) as `error.sidl`.

use crate::core::{runtime, Core, CoreError};
use crate::SidlGame;
use serde::{Deserialize, Serialize};
use sidl_engine::ai::AiSpec;
use sidl_engine::analysis::extensive::readable::{player_names, readable, ReadableInfoset};
use sidl_engine::analysis::extensive::solve::{Method, SolveOptions, Solver, StepProgress};
use sidl_engine::analysis::extensive::{self, efg, exploit, BuildLimits};
use sidl_engine::game::Game;
use sidl_engine::seats::Seat;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// What `SidlGame.analyse` takes; every field is optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnalyseOptionsDto {
    /// `auto` (default), `cfr`, `lp` or `support` (`sidl solve --method`).
    pub method: Option<String>,
    /// CFR+ iterations (default 10,000).
    pub iterations: Option<f64>,
    /// The node budget (default 1,000,000).
    pub max_nodes: Option<f64>,
}

/// Progress of the tree's build: nodes so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildProgressDto {
    pub nodes: usize,
}

/// How far the solve is (`done`/`total` CFR+ iterations; an exact method is `0/1`, then `1/1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveStepDto {
    pub done: u64,
    pub total: u64,
    pub finished: bool,
}

impl From<StepProgress> for SolveStepDto {
    fn from(p: StepProgress) -> SolveStepDto {
        SolveStepDto {
            done: p.done,
            total: p.total,
            finished: p.finished,
        }
    }
}

/// One player's expected account change under the computed profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerValueDto {
    pub player: String,
    /// The player's label (`label(player(P), Text)`), else its canonical text.
    pub name: String,
    pub value: f64,
    /// The exact value (`-1/18`) when the method is exact.
    pub exact: Option<String>,
}

/// One action's probability at an information set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActionProbabilityDto {
    /// The action's canonical text (a combination of switches joined with `; `), as in the `.efg`.
    pub action: String,
    /// The action as the player reads it (the game's labels, else `action`).
    pub label: String,
    pub probability: f64,
    pub exact: Option<String>,
}

/// The computed strategy at one information set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InfosetStrategyDto {
    pub infoset: usize,
    pub player: String,
    /// What the player has seen, in the game's labels when it has them.
    pub label: String,
    /// The same in canonical terms (the `.efg`'s information-set label).
    pub raw: String,
    pub actions: Vec<ActionProbabilityDto>,
}

/// The Analyse panel's result: the tree's size, the method, values, NashConv and strategies.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisResultDto {
    /// The game's name (`game/1`).
    pub title: String,
    pub nodes: usize,
    pub decision_nodes: usize,
    pub chance_nodes: usize,
    pub terminal_nodes: usize,
    pub infosets: usize,
    /// `cfr+`, `lp` or `support`.
    pub method: String,
    /// CFR+ iterations run (`null` for an exact method).
    pub iterations: Option<u64>,
    pub exact: bool,
    pub zero_sum: bool,
    pub values: Vec<PlayerValueDto>,
    pub nash_conv: f64,
    /// What NashConv says about the profile, in words (the engine's `verdict`).
    pub verdict: String,
    pub strategies: Vec<InfosetStrategyDto>,
    /// The unlimited switches `candidate/2` discretised (the analysis is of that game), in the
    /// engine's words (`Tree::discretised_text_note`: switches by their labels), or `null`.
    pub note: Option<String>,
}

/// What a best-responding player gains against an AI seat's policy.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExploitResponseDto {
    pub player: String,
    /// Its value in the computed profile.
    pub reference: f64,
    /// Its value when it best-responds to the AI (the rest as in the profile).
    pub best_response: f64,
    pub gain: f64,
}

/// `sidl solve --exploit SEAT=SPEC` for one AI seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExploitDto {
    pub player: String,
    pub spec: String,
    /// The AI's expected payoff against the computed profile.
    pub ai_value: f64,
    pub responses: Vec<ExploitResponseDto>,
    /// The largest gain of one best-responding player.
    pub gain: f64,
}

/// The analysis of one game: its tree, a step-by-step solver and the readable labels.
pub struct AnalysisCore {
    game: Arc<Game>,
    source: String,
    solver: Solver,
    readable: Vec<ReadableInfoset>,
    names: Vec<String>,
}

fn count(n: Option<f64>, what: &str, default: u64) -> Result<u64, CoreError> {
    match n {
        None => Ok(default),
        Some(n) if n.fract() == 0.0 && n >= 1.0 && n <= u64::MAX as f64 => Ok(n as u64),
        Some(n) => Err(format!("{what} must be a positive integer, got {n}").into()),
    }
}

impl AnalysisCore {
    /// Builds the extensive form of `core`'s game from its initial state (`progress` every few
    /// thousand nodes) and prepares its solver; nothing is solved yet ([`AnalysisCore::step`]).
    pub fn new(
        core: &Core,
        opts: &AnalyseOptionsDto,
        progress: &mut dyn FnMut(&BuildProgressDto),
    ) -> Result<AnalysisCore, CoreError> {
        let m = opts.method.as_deref().unwrap_or("auto");
        let method = Method::parse(m).ok_or_else(|| {
            CoreError::from(format!(
                "unknown method '{m}': the methods are auto, cfr, lp and support"
            ))
        })?;
        let iterations = count(opts.iterations, "iterations", 10_000)?;
        let max_nodes = count(
            opts.max_nodes,
            "maxNodes",
            extensive::DEFAULT_MAX_NODES as u64,
        )? as usize;
        let game = core.game().clone();
        let source = core.source().to_string();
        let rt = |e| runtime(&source, &e);
        let limits = BuildLimits {
            max_nodes,
            ..BuildLimits::default()
        };
        let tree = extensive::build_with_progress(game.clone(), limits, &mut |nodes| {
            progress(&BuildProgressDto { nodes });
            true
        })
        .map_err(rt)?;
        let readable = readable(&game, &tree).map_err(rt)?;
        let names = player_names(&game).map_err(rt)?;
        let solver = Solver::new(tree, SolveOptions { method, iterations });
        Ok(AnalysisCore {
            game,
            source,
            solver,
            readable,
            names,
        })
    }

    pub fn progress(&self) -> SolveStepDto {
        self.solver.progress().into()
    }

    /// Runs at most `iterations` more CFR+ iterations (an exact method solves in its first step).
    pub fn step(&mut self, iterations: u64) -> Result<SolveStepDto, CoreError> {
        let p = self
            .solver
            .step(iterations)
            .map_err(|e| runtime(&self.source, &e))?;
        Ok(p.into())
    }

    /// The result so far (CFR+: the average after the iterations run); solves an exact method
    /// first when no step ran yet.
    pub fn result(&mut self) -> Result<AnalysisResultDto, CoreError> {
        if self.solver.solution().is_none() {
            self.step(1)?;
        }
        let sol = self
            .solver
            .solution()
            .ok_or_else(|| CoreError::from("the solver has no solution"))?;
        let stats = self.solver.tree().stats();
        let values = sol
            .values
            .iter()
            .enumerate()
            .map(|(i, (p, v))| PlayerValueDto {
                player: p.clone(),
                name: self.names.get(i).cloned().unwrap_or_else(|| p.clone()),
                value: *v,
                exact: sol.exact_values.as_ref().map(|e| e[i].1.clone()),
            })
            .collect();
        let strategies = sol
            .strategies
            .iter()
            .zip(&self.readable)
            .map(|(s, r)| InfosetStrategyDto {
                infoset: s.infoset,
                player: s.player.clone(),
                label: r.label.clone(),
                raw: s.label.clone(),
                actions: s
                    .actions
                    .iter()
                    .zip(&r.actions)
                    .map(|(a, l)| ActionProbabilityDto {
                        action: a.action.clone(),
                        label: l.clone(),
                        probability: a.probability,
                        exact: a.exact.clone(),
                    })
                    .collect(),
            })
            .collect();
        Ok(AnalysisResultDto {
            title: self.solver.tree().title.clone(),
            nodes: stats.nodes,
            decision_nodes: stats.decision_nodes,
            chance_nodes: stats.chance_nodes,
            terminal_nodes: stats.terminal_nodes,
            infosets: stats.infosets,
            method: sol.method.to_string(),
            iterations: sol.iterations,
            exact: sol.exact_values.is_some(),
            zero_sum: sol.zero_sum,
            values,
            nash_conv: sol.nash_conv,
            verdict: sol.verdict.to_string(),
            strategies,
            note: self.solver.tree().discretised_text_note(),
        })
    }

    /// How much a best response gains against each AI (or random) seat of `seats` (`[player,
    /// kind]` pairs as `idle` takes them; human seats are skipped), the others playing the profile
    /// so far; the AI's seed is 0, as in `sidl solve --exploit`.
    pub fn exploit(&mut self, seats: &[[String; 2]]) -> Result<Vec<ExploitDto>, CoreError> {
        let reference = match self.solver.solution() {
            Some(s) => s,
            None => {
                self.step(1)?;
                self.solver
                    .solution()
                    .ok_or_else(|| CoreError::from("the solver has no solution"))?
            }
        };
        let profile: extensive::cfr::Profile = reference
            .strategies
            .iter()
            .map(|s| s.actions.iter().map(|a| a.probability).collect())
            .collect();
        let tree = self.solver.tree();
        let mut out = Vec::new();
        for [player, kind] in seats {
            let spec = match Seat::parse(kind)? {
                Seat::Human => continue,
                Seat::Random => AiSpec::Random,
                Seat::Ai(s) => s,
            };
            let who = crate::core::parse(player, "player")?;
            let who = sidl_engine::write::canonical(&who);
            let Some(index) = tree.players.iter().position(|p| *p == who) else {
                return Err(format!("{player} is not a player of this game").into());
            };
            let x = exploit::exploit(
                &self.game,
                tree,
                self.solver.flat(),
                &profile,
                index,
                spec,
                0,
            )
            .map_err(|e| runtime(&self.source, &e))?;
            out.push(ExploitDto {
                player: x.player,
                spec: x.spec,
                ai_value: x.ai_value,
                gain: x.gain,
                responses: x
                    .responses
                    .into_iter()
                    .map(|(player, reference, best_response)| ExploitResponseDto {
                        player,
                        reference,
                        best_response,
                        gain: best_response - reference,
                    })
                    .collect(),
            });
        }
        Ok(out)
    }

    /// The tree as a Gambit `.efg` file: exactly `sidl export GAME --efg`.
    pub fn efg(&self) -> String {
        efg::to_efg(self.solver.tree())
    }
}

/// The extensive form of a game and its solver, from `SidlGame.analyse` (docs/wasm.md).
#[wasm_bindgen]
pub struct Analysis {
    core: AnalysisCore,
}

#[wasm_bindgen]
impl Analysis {
    /// How far the solve is.
    #[wasm_bindgen(unchecked_return_type = "SolveStep")]
    pub fn progress(&self) -> Result<JsValue, js_sys::Error> {
        crate::to_js(&self.core.progress())
    }

    /// Runs at most `iterations` more CFR+ iterations (an exact method solves in its first step);
    /// call it until `finished`, or stop calling it to stop.
    #[wasm_bindgen(unchecked_return_type = "SolveStep")]
    pub fn step(&mut self, iterations: f64) -> Result<JsValue, js_sys::Error> {
        let n = crate::count_of(iterations, "iterations")?;
        crate::to_js(&self.core.step(n).map_err(crate::err)?)
    }

    /// The result so far: tree size, method, values, NashConv, the strategy table.
    #[wasm_bindgen(unchecked_return_type = "AnalysisResult")]
    pub fn result(&mut self) -> Result<JsValue, js_sys::Error> {
        crate::to_js(&self.core.result().map_err(crate::err)?)
    }

    /// The exploitability of the AI seats of `seats` (`[player, kind]` pairs; human seats skipped).
    #[wasm_bindgen(unchecked_return_type = "ExploitResult[]")]
    pub fn exploit(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "[string, string][]")] seats: JsValue,
    ) -> Result<JsValue, js_sys::Error> {
        let seats: Vec<[String; 2]> = serde_wasm_bindgen::from_value(seats)
            .map_err(|e| crate::err(format!("exploit: {e}")))?;
        crate::to_js(&self.core.exploit(&seats).map_err(crate::err)?)
    }

    /// The `.efg` text (Gambit's extensive form, exactly `sidl export GAME --efg`).
    pub fn efg(&self) -> String {
        self.core.efg()
    }
}

#[wasm_bindgen]
impl SidlGame {
    /// The extensive form of the game from its initial state, ready to be solved in steps
    /// (`Analysis.step`); `progress` is called with the node count while the tree is built. Throws
    /// the engine's diagnostic (`error.sidl`) when the tree cannot be built.
    pub fn analyse(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AnalyseOptions | null")] options: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "(p: BuildProgress) => void")]
        progress: Option<js_sys::Function>,
    ) -> Result<Analysis, js_sys::Error> {
        let opts: AnalyseOptionsDto = if options.is_null() || options.is_undefined() {
            AnalyseOptionsDto::default()
        } else {
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| crate::err(format!("analyse: {e}")))?
        };
        let mut report = |p: &BuildProgressDto| {
            if let (Some(f), Ok(v)) = (&progress, crate::to_js(p)) {
                let _ = f.call1(&JsValue::NULL, &v);
            }
        };
        AnalysisCore::new(self.core(), &opts, &mut report)
            .map(|core| Analysis { core })
            .map_err(crate::err)
    }
}
