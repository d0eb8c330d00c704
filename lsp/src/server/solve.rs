//! The custom request `sidl/solve` (and the command `sidl.solve` taking `[uri]`): the game's
//! extensive form and its equilibrium (`sidl solve`, docs/analysis.md) on a blocking thread, with
//! `$/progress` reports (nodes built, then CFR+ iterations) and cancellation (`longrun`:
//! `$/cancelRequest` raises the flag the build's and the solver's progress callbacks read).
//! The result carries the numbers and the strategy table in the game's own words
//! (`extensive::readable`); the VS Code command shows it as a read-only report.

use super::diagnostics::to_lsp;
use super::documents::Snapshot;
use super::source::{self, failed};
use super::{longrun, Backend};
use serde::{Deserialize, Serialize};
use sidl_engine::analysis::extensive::readable::{player_names, readable};
use sidl_engine::analysis::extensive::solve::{self, Method, SolveOptions};
use sidl_engine::analysis::extensive::{self, BuildLimits};
use sidl_engine::game::{Game, RuntimeError};
use sidl_engine::seats::Seat;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    ExecuteCommandParams, LSPAny, ProgressToken, TextDocumentIdentifier, Uri,
};

pub const METHOD: &str = "sidl/solve";
pub const COMMAND: &str = "sidl.solve";
/// The default node budget of the editor's solve (smaller than the CLI's: an editor waits).
pub const DEFAULT_MAX_NODES: usize = 200_000;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SolveParams {
    pub text_document: TextDocumentIdentifier,
    /// `auto` (default), `cfr`, `lp`, `support`.
    pub method: Option<String>,
    /// CFR+ iterations (default 10,000).
    pub iterations: Option<u64>,
    pub max_nodes: Option<usize>,
    /// `PLAYER=KIND` (`[p1]=minimax:3`): how much a best response gains against that AI seat.
    pub exploit: Option<String>,
    pub work_done_token: Option<ProgressToken>,
}

#[derive(Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlayerValue {
    pub player: String,
    pub name: String,
    pub value: f64,
    pub exact: Option<String>,
}

#[derive(Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Action {
    pub action: String,
    pub label: String,
    pub probability: f64,
    pub exact: Option<String>,
}

#[derive(Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Strategy {
    pub player: String,
    /// What the player has seen, in the game's labels when it has them.
    pub label: String,
    /// The same as canonical terms (the `.efg`'s label).
    pub raw: String,
    pub actions: Vec<Action>,
}

#[derive(Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Exploit {
    pub player: String,
    pub spec: String,
    pub ai_value: f64,
    /// `[player, value in the profile, best-response value]`.
    pub responses: Vec<(String, f64, f64)>,
    pub gain: f64,
}

#[derive(Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SolveResult {
    pub title: String,
    pub nodes: usize,
    pub decision_nodes: usize,
    pub chance_nodes: usize,
    pub terminal_nodes: usize,
    pub infosets: usize,
    pub method: String,
    pub iterations: Option<u64>,
    pub zero_sum: bool,
    pub values: Vec<PlayerValue>,
    pub nash_conv: f64,
    /// What NashConv says about the profile, in words, as `sidl solve` prints it (the engine's
    /// `verdict`).
    pub verdict: String,
    pub strategies: Vec<Strategy>,
    pub exploit: Option<Exploit>,
    /// The unlimited switches discretised by `candidate/2`, worded by the engine (or `None`).
    pub note: Option<String>,
}

pub async fn execute_command(
    backend: &Backend,
    params: ExecuteCommandParams,
) -> Result<Option<LSPAny>> {
    let uri: Uri = params
        .arguments
        .first()
        .and_then(|a| a.as_str())
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| Error::invalid_params(format!("{COMMAND} takes [uri]")))?;
    let r = solve_request(
        backend,
        SolveParams {
            text_document: TextDocumentIdentifier { uri },
            method: None,
            iterations: None,
            max_nodes: None,
            exploit: None,
            work_done_token: params.work_done_progress_params.work_done_token,
        },
    )
    .await?;
    serde_json::to_value(r)
        .map(Some)
        .map_err(|e| Error::invalid_params(e.to_string()))
}

/// What the blocking part ends with.
enum Outcome {
    Solved(Box<SolveResult>),
    /// A runtime error of the game or the analysis (with its code), a usage error, or Stop.
    Failed(RuntimeError),
    Usage(String),
    Cancelled,
}

pub async fn solve_request(backend: &Backend, params: SolveParams) -> Result<SolveResult> {
    let uri = params.text_document.uri.clone();
    let text = source::text_of(backend, &uri)?;
    let game = source::load(&text)?;
    let method_text = params.method.clone().unwrap_or_else(|| "auto".into());
    let Some(method) = Method::parse(&method_text) else {
        return Err(Error::invalid_params(format!(
            "unknown method '{method_text}': the methods are auto, cfr, lp and support"
        )));
    };
    let opts = SolveOptions {
        method,
        iterations: params.iterations.unwrap_or(10_000).max(1),
    };
    let limits = BuildLimits {
        max_nodes: params.max_nodes.unwrap_or(DEFAULT_MAX_NODES),
        ..BuildLimits::default()
    };

    let exploit = params.exploit.clone();
    let (outcome, finish) = longrun::run(
        backend,
        params.work_done_token,
        "solve",
        "SIDL: solving the game",
        "building the extensive form".into(),
        "the solve",
        move |ctx| run(game, limits, opts, exploit.as_deref(), ctx),
    )
    .await?;
    match outcome {
        Outcome::Solved(r) => {
            finish
                .with(format!(
                    "{}: {} nodes, {} information sets, NashConv {:.6}",
                    r.title, r.nodes, r.infosets, r.nash_conv
                ))
                .await;
            Ok(*r)
        }
        Outcome::Cancelled => {
            finish.with("cancelled").await;
            Err(Error::request_cancelled())
        }
        Outcome::Usage(m) => {
            finish.with(m.clone()).await;
            Err(Error::invalid_params(m))
        }
        Outcome::Failed(e) => {
            finish.with(e.message.clone()).await;
            // the engine's diagnostic (code, range, help) as the error's data
            let snap = Snapshot::of_text(&text, backend.unit());
            let d = e.to_diagnostic();
            let mut err = failed(format!("error[{}]: {}", d.code, e.message));
            err.data = serde_json::to_value(to_lsp(&snap, &uri, &d)).ok();
            Err(err)
        }
    }
}

/// The blocking part: build, solve, label, exploit.
fn run(
    game: Arc<Game>,
    limits: BuildLimits,
    opts: SolveOptions,
    exploit: Option<&str>,
    ctx: &mut longrun::Ctx,
) -> Outcome {
    let built = extensive::build_with_progress(game.clone(), limits, &mut |nodes| {
        ctx.report(|| format!("building the extensive form: {nodes} nodes"));
        !ctx.cancelled()
    });
    if ctx.cancelled() {
        return Outcome::Cancelled;
    }
    let tree = match built {
        Ok(t) => t,
        Err(e) => return Outcome::Failed(e),
    };
    let sol = match solve::solve(&tree, opts, &mut |done, total| {
        ctx.report(|| format!("CFR+: {done} of {total} iterations"));
        !ctx.cancelled()
    }) {
        Ok(s) => s,
        Err(e) => return Outcome::Failed(e),
    };
    if ctx.cancelled() {
        return Outcome::Cancelled;
    }
    let (labels, names) = match (readable(&game, &tree), player_names(&game)) {
        (Ok(l), Ok(n)) => (l, n),
        (Err(e), _) | (_, Err(e)) => return Outcome::Failed(e),
    };
    let exploit = match exploit {
        None => None,
        Some(text) => {
            let Some((player, kind)) = text.split_once('=') else {
                return Outcome::Usage(format!("exploit: '{text}' is not PLAYER=KIND"));
            };
            let spec = match Seat::parse(kind) {
                Ok(Seat::Ai(s)) => s,
                Ok(Seat::Random) => sidl_engine::ai::AiSpec::Random,
                Ok(Seat::Human) => {
                    return Outcome::Usage(format!("exploit: '{text}' names no AI seat"))
                }
                Err(m) => return Outcome::Usage(format!("exploit: {m}")),
            };
            let Some(index) = tree.players.iter().position(|p| p == player.trim()) else {
                return Outcome::Usage(format!(
                    "exploit: {player} is not a player (the players are {})",
                    tree.players.join(", ")
                ));
            };
            let reference: extensive::cfr::Profile = sol
                .strategies
                .iter()
                .map(|s| s.actions.iter().map(|a| a.probability).collect())
                .collect();
            let flat = extensive::cfr::Flat::new(&tree);
            match extensive::exploit::exploit(&game, &tree, &flat, &reference, index, spec, 0) {
                Ok(x) => Some(Exploit {
                    player: x.player,
                    spec: x.spec,
                    ai_value: x.ai_value,
                    responses: x.responses,
                    gain: x.gain,
                }),
                Err(e) => return Outcome::Failed(e),
            }
        }
    };
    let stats = tree.stats();
    let note = tree.discretised_text_note();
    Outcome::Solved(Box::new(SolveResult {
        note,
        title: tree.title.clone(),
        nodes: stats.nodes,
        decision_nodes: stats.decision_nodes,
        chance_nodes: stats.chance_nodes,
        terminal_nodes: stats.terminal_nodes,
        infosets: stats.infosets,
        method: sol.method.to_string(),
        iterations: sol.iterations,
        zero_sum: sol.zero_sum,
        values: sol
            .values
            .iter()
            .enumerate()
            .map(|(i, (p, v))| PlayerValue {
                player: p.clone(),
                name: names.get(i).cloned().unwrap_or_else(|| p.clone()),
                value: *v,
                exact: sol.exact_values.as_ref().map(|e| e[i].1.clone()),
            })
            .collect(),
        nash_conv: sol.nash_conv,
        verdict: sol.verdict.to_string(),
        strategies: sol
            .strategies
            .iter()
            .zip(labels)
            .map(|(s, r)| Strategy {
                player: s.player.clone(),
                label: r.label,
                raw: s.label.clone(),
                actions: s
                    .actions
                    .iter()
                    .zip(r.actions)
                    .map(|(a, l)| Action {
                        action: a.action.clone(),
                        label: l,
                        probability: a.probability,
                        exact: a.exact.clone(),
                    })
                    .collect(),
            })
            .collect(),
        exploit,
    }))
}
