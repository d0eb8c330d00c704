//! Diagnostics on open and change: debounced, computed on a blocking thread (what `sidl check`
//! prints: `sidl_engine::analysis::check`), published with the document version, and never for a
//! version that is no longer current.

use super::documents::Snapshot;
use super::{guard, Backend};
use sidl_engine::diag::{Diagnostic, Severity};
use std::time::Duration;
use tower_lsp_server::ls_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, MessageType,
    NumberOrString, Uri,
};

/// Quiet time after a change before the document is checked.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Checks `uri` at `version` after [`DEBOUNCE`] unless a newer version arrives first.
pub fn schedule(backend: &Backend, uri: Uri, version: i32) {
    let client = backend.client.clone();
    let state = backend.state.clone();
    let unit = backend.unit();
    tokio::spawn(async move {
        tokio::time::sleep(DEBOUNCE).await;
        let Some(snap) = state.docs.snapshot(&uri, unit) else {
            return;
        };
        if snap.version != version {
            return;
        }
        let text = snap.text.clone();
        let result = tokio::task::spawn_blocking(move || {
            guard::catch(|| sidl_engine::analysis::check(&text))
        })
        .await;
        let diags = match result {
            Ok(Ok(d)) => d,
            Ok(Err(panic)) => {
                let m = format!(
                    "sidl-lsp: internal error while checking {}: {panic}",
                    uri.as_str()
                );
                eprintln!("{m}");
                client.log_message(MessageType::ERROR, m).await;
                return;
            }
            Err(e) => {
                eprintln!("sidl-lsp: check task failed: {e}");
                return;
            }
        };
        let lsp_diags: Vec<lsp::Diagnostic> =
            diags.iter().map(|d| to_lsp(&snap, &uri, d)).collect();
        // the version is checked and the notification sent under one lock: a stale result can
        // never be published after the current one
        let _g = state.publish.lock().await;
        if state.docs.version(&uri) != Some(version) {
            return;
        }
        client
            .publish_diagnostics(uri, lsp_diags, Some(version))
            .await;
    });
}

/// An engine diagnostic as an LSP diagnostic (help text appended to the message; labels as
/// related information).
pub fn to_lsp(snap: &Snapshot, uri: &Uri, d: &Diagnostic) -> lsp::Diagnostic {
    let severity = match d.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    };
    let mut message = d.message.clone();
    if let Some(h) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), snap.range(l.span)),
            message: l.message.clone(),
        })
        .collect();
    lsp::Diagnostic {
        range: snap.range(d.span),
        severity: Some(severity),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("sidl".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}
