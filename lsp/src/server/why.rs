//! The command `sidl.why` (`workspace/executeCommand`): "why (not)?" about a state of the game given
//! by a script, answered by the engine's `game::why` (docs/why.md). Arguments: one object
//! `{uri, script?, after?, seed?, question}` with `question` as the WASM API's `WhyQuestion`
//! (`{kind, switch?, action?, player?, fact?, chronon?, viewer?}`); `script` is a path (absolute or
//! relative to the game's directory) or the script's text. The result is the engine's JSON answer
//! `{question, holds, summary, text, nodes}` (ranges: 1-based lines and columns, columns in the
//! negotiated position encoding).

use super::source::{self, failed};
use super::{guard, Backend};
use serde::Deserialize;
use sidl_engine::game::trace::{parse_script, session_after};
use sidl_engine::game::why::{self, WhyLimits};
use sidl_engine::game::{Game, Settings};
use std::sync::Arc;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{ExecuteCommandParams, LSPAny, Uri};

pub const COMMAND: &str = "sidl.why";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WhyParams {
    pub uri: String,
    pub script: Option<String>,
    pub after: Option<u64>,
    pub seed: Option<u64>,
    pub question: why::QuestionText,
}

pub async fn execute_command(
    backend: &Backend,
    params: ExecuteCommandParams,
) -> Result<Option<LSPAny>> {
    let arg = params.arguments.into_iter().next().ok_or_else(|| {
        Error::invalid_params(format!(
            "{COMMAND} takes [{{uri, script?, after?, question}}]"
        ))
    })?;
    let p: WhyParams = serde_json::from_value(arg)
        .map_err(|e| Error::invalid_params(format!("{COMMAND}: {e}")))?;
    let uri: Uri = p
        .uri
        .parse()
        .map_err(|_| Error::invalid_params(format!("{COMMAND}: bad uri {}", p.uri)))?;
    let dir = uri
        .to_file_path()
        .and_then(|f| f.parent().map(|d| d.to_path_buf()));
    let text = source::text_of(backend, &uri)?;
    // the script: a file (absolute, or relative to the game's directory) if there is one, else text
    let script = match p.script.as_deref() {
        None => String::new(),
        Some(s) => {
            let path = std::path::Path::new(s);
            let path = match &dir {
                Some(d) if path.is_relative() => d.join(path),
                _ => path.to_path_buf(),
            };
            if !s.contains('\n') && path.is_file() {
                std::fs::read_to_string(&path)
                    .map_err(|e| failed(format!("cannot read {}: {e}", path.display())))?
            } else {
                s.to_string()
            }
        }
    };
    let name = uri
        .to_file_path()
        .and_then(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "game".to_string());
    let unit = backend.unit();
    let outcome = tokio::task::spawn_blocking(move || {
        guard::catch(move || -> std::result::Result<LSPAny, String> {
            let game = match Game::load(&text) {
                Ok((g, _)) => Arc::new(g),
                Err(diags) => {
                    let first = diags
                        .iter()
                        .find(|d| d.is_error())
                        .map(|d| d.to_string())
                        .unwrap_or_default();
                    return Err(format!(
                        "the game does not load ({first}); fix its errors first"
                    ));
                }
            };
            let items = parse_script(&script)
                .map_err(|d| {
                    let first = d.first().map(|d| d.to_string()).unwrap_or_default();
                    format!("the script does not parse: {first}")
                })?
                .into_iter()
                .map(|(i, _)| i)
                .collect::<Vec<_>>();
            let (question, viewer) = p.question.parse()?;
            let (mut session, _) = session_after(
                game,
                p.seed.unwrap_or(0),
                &items,
                p.after,
                Settings::default(),
            )
            .map_err(|e| e.to_diagnostic().to_string())?;
            let answer = why::explain(
                &mut session,
                &question,
                viewer.as_ref(),
                WhyLimits::default(),
            )
            .map_err(|e| e.to_diagnostic().to_string())?;
            serde_json::to_value(why::to_json(&answer, &text, &name, unit))
                .map_err(|e| e.to_string())
        })
    })
    .await
    .unwrap_or_else(|e| Err(e.to_string()));
    match outcome {
        Ok(Ok(v)) => Ok(Some(v)),
        Ok(Err(m)) => Err(failed(m)),
        Err(panic) => Err(failed(format!("internal error in {COMMAND}: {panic}"))),
    }
}
