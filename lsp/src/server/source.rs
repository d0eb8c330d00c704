//! The text and the loaded game of a document, for the requests that run the game (the
//! hidden-information check, the solve, why): the open document's text, else the file's; one error
//! shape (`-32803`, request failed) for a file that cannot be read or a game that does not load.

use super::{guard, Backend};
use sidl_engine::game::Game;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::Uri;

/// A request that could not be carried out (LSP's RequestFailed).
pub(crate) fn failed(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(-32803),
        message: message.into(),
        data: None,
    }
}

/// The document's text as the editor has it, or the file's when it is not open.
pub(crate) fn text_of(backend: &Backend, uri: &Uri) -> Result<String> {
    match backend.state.docs.snapshot(uri, backend.unit()) {
        Some(s) => Ok(s.text.to_string()),
        None => {
            let path = uri
                .to_file_path()
                .ok_or_else(|| Error::invalid_params("not open and not a file URI"))?;
            std::fs::read_to_string(&path)
                .map_err(|e| failed(format!("cannot read {}: {e}", path.display())))
        }
    }
}

/// The game of `text`, or the first error that keeps it from loading.
pub(crate) fn load(text: &str) -> Result<Arc<Game>> {
    match guard::catch(|| Game::load(text)) {
        Ok(Ok((g, _))) => Ok(Arc::new(g)),
        Ok(Err(diags)) => {
            let first = diags
                .iter()
                .find(|d| d.is_error())
                .map(|d| d.to_string())
                .unwrap_or_default();
            Err(failed(format!(
                "the game does not load ({first}); fix its errors first"
            )))
        }
        Err(p) => Err(failed(format!("internal error while loading: {p}"))),
    }
}
