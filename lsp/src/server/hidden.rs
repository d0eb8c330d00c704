//! The custom request `sidl/checkHiddenInformation` (and the command `sidl.checkHiddenInformation`
//! taking `[uri]`): the dynamic Def.1 §11 check (`explore_until`) on a blocking thread, with a
//! state budget, `$/progress` reports and cancellation (`longrun`: `$/cancelRequest` raises the
//! flag the exploration's progress callback reads).

use super::diagnostics::to_lsp;
use super::documents::Snapshot;
use super::source::{self, failed};
use super::{longrun, Backend};
use serde::{Deserialize, Serialize};
use sidl_engine::analysis::hidden_dynamic::{explore_until, ExploreOptions, Phase};
use sidl_engine::write::canonical;
use std::ops::ControlFlow;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    self as lsp, ExecuteCommandParams, LSPAny, ProgressToken, TextDocumentIdentifier, Uri,
};

pub const METHOD: &str = "sidl/checkHiddenInformation";
pub const COMMAND: &str = "sidl.checkHiddenInformation";
/// The default state budget (`maxStates`), and the largest accepted.
pub const DEFAULT_MAX_STATES: usize = 10_000;
pub const MAX_MAX_STATES: usize = 2_000_000;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckParams {
    pub text_document: TextDocumentIdentifier,
    pub max_states: Option<usize>,
    pub work_done_token: Option<ProgressToken>,
}

#[derive(Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    /// No violation was found.
    pub consistent: bool,
    /// Every reachable state was explored (so `consistent` is a proof, not a bounded search).
    pub complete: bool,
    pub states: usize,
    pub chronons: u64,
    /// How many violations were found (at most 10 are searched for).
    pub violations: usize,
    /// One line for people.
    pub message: String,
    pub counterexample: Option<Counterexample>,
    /// Runtime errors met during the exploration (their successor states were skipped), one line
    /// each: `error[E0921]: <message>`.
    pub errors: Vec<String>,
    /// The same errors as diagnostics of the document (code, range of the clause, call path as
    /// related information, help in the message); an error outside the game's clauses has an empty
    /// range at the start.
    pub diagnostics: Vec<lsp::Diagnostic>,
}

#[derive(Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Counterexample {
    pub player: String,
    pub switch: String,
    /// What differs, and what the player sees in both states.
    pub description: String,
    /// The two histories, one line per chronon, each prefixed with `first:` or `second:`.
    pub steps: Vec<String>,
}

pub async fn execute_command(
    backend: &Backend,
    params: ExecuteCommandParams,
) -> Result<Option<LSPAny>> {
    if params.command != COMMAND {
        return Err(Error::invalid_params(format!(
            "unknown command {}",
            params.command
        )));
    }
    let uri: Uri = params
        .arguments
        .first()
        .and_then(|a| a.as_str())
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| Error::invalid_params(format!("{COMMAND} takes [uri]")))?;
    let max_states = params
        .arguments
        .get(1)
        .and_then(|v| v.as_u64())
        .map(|n| n as usize);
    let r = check(
        backend,
        CheckParams {
            text_document: TextDocumentIdentifier { uri },
            max_states,
            work_done_token: params.work_done_progress_params.work_done_token,
        },
    )
    .await?;
    serde_json::to_value(r)
        .map(Some)
        .map_err(|e| Error::invalid_params(e.to_string()))
}

/// Runtime errors as diagnostics of the document at `uri` (the engine's one conversion).
fn runtime_diagnostics(
    snap: &Snapshot,
    uri: &Uri,
    errors: &[sidl_engine::game::RuntimeError],
) -> Vec<lsp::Diagnostic> {
    errors
        .iter()
        .map(|e| to_lsp(snap, uri, &e.to_diagnostic()))
        .collect()
}

pub async fn check(backend: &Backend, params: CheckParams) -> Result<CheckResult> {
    let uri = params.text_document.uri;
    let text = source::text_of(backend, &uri)?;
    let game = source::load(&text)?;
    let max_states = params
        .max_states
        .unwrap_or(DEFAULT_MAX_STATES)
        .min(MAX_MAX_STATES);

    let (outcome, finish) = longrun::run(
        backend,
        params.work_done_token,
        "check",
        "SIDL: hidden-information check",
        format!("exploring up to {max_states} states"),
        "the hidden-information check",
        move |ctx| {
            let opts = ExploreOptions {
                max_states,
                ..ExploreOptions::default()
            };
            explore_until(game, &opts, &mut |p| {
                if ctx.cancelled() {
                    return ControlFlow::Break(());
                }
                if p.phase != Phase::Done {
                    ctx.report(|| {
                        let phase = match p.phase {
                            Phase::Breadth => "breadth-first",
                            Phase::Playouts => "random playouts",
                            Phase::Done => "done",
                        };
                        format!(
                            "{phase}: {} states, {} queued, {} violations",
                            p.states, p.queue, p.violations
                        )
                    });
                }
                ControlFlow::Continue(())
            })
        },
    )
    .await?;
    let report = match outcome {
        Ok(r) => r,
        Err(e) => {
            finish.with("the initial state cannot be computed").await;
            let snap = Snapshot::of_text(&text, backend.unit());
            let mut err = failed(format!("the initial state cannot be computed: {e}"));
            err.data = serde_json::to_value(runtime_diagnostics(&snap, &uri, &[e]))
                .ok()
                .and_then(|v| v.as_array().and_then(|a| a.first().cloned()));
            return Err(err);
        }
    };
    if report.cancelled {
        finish.with("cancelled").await;
        return Err(Error::request_cancelled());
    }
    let mut result = to_result(&report);
    result.diagnostics = runtime_diagnostics(
        &Snapshot::of_text(&text, backend.unit()),
        &uri,
        &report.errors,
    );
    finish.with(result.message.clone()).await;
    Ok(result)
}

fn to_result(r: &sidl_engine::analysis::hidden_dynamic::ExploreReport) -> CheckResult {
    let message = r.summary();
    let counterexample = r.violations.first().map(|v| Counterexample {
        player: canonical(&v.player),
        switch: canonical(&v.switch),
        description: v.reason().map(|l| l.trim().to_string()).join("\n"),
        steps: v.steps(),
    });
    CheckResult {
        consistent: r.violations.is_empty(),
        complete: r.complete,
        states: r.states,
        chronons: r.chronons,
        violations: r.violations.len(),
        message,
        counterexample,
        errors: r
            .errors
            .iter()
            .map(|e| e.to_diagnostic().to_string())
            .collect(),
        diagnostics: Vec::new(),
    }
}
