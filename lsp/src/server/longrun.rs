//! What the long requests (`sidl/checkHiddenInformation`, `sidl/solve`) share: a `$/progress`
//! stream (the client's token, or one the server creates when the client supports that), a cancel
//! flag raised when the request's future is dropped (`$/cancelRequest`), the work on a blocking
//! thread under the panic guard with its progress messages forwarded at most every 100 ms, and a
//! panic turned into an internal error that is logged and leaves the server serving.

use super::source::failed;
use super::{guard, Backend};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{MessageType, NumberOrString, ProgressToken};
use tower_lsp_server::{NotCancellable, OngoingProgress, Unbounded};

/// How often the work's progress messages reach the client at most.
const EVERY: Duration = Duration::from_millis(100);

/// Raises the cancel flag when dropped (the request's future is dropped on `$/cancelRequest`).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// What the work sees: the cancel flag and a throttled progress channel.
pub struct Ctx {
    cancel: Arc<AtomicBool>,
    tx: tokio::sync::mpsc::UnboundedSender<String>,
    last: Instant,
}

impl Ctx {
    /// The request was cancelled (or its client went away).
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    /// Reports `message()` if the last report is at least 100 ms old (the text is only built then).
    pub fn report(&mut self, message: impl FnOnce() -> String) {
        if self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            let _ = self.tx.send(message());
        }
    }
}

/// The progress stream after the work, to be ended with the request's own last message.
pub struct Finish(Option<OngoingProgress<Unbounded, NotCancellable>>);

impl Finish {
    pub async fn with(self, message: impl Into<String>) {
        if let Some(p) = self.0 {
            p.finish_with_message(message).await;
        }
    }
}

/// Runs `work` on a blocking thread with progress titled `title` (first message `message`) and
/// cancellation. `kind` names the created progress tokens (`sidl-KIND-N`); `what` names the work
/// in an internal error ("the solve").
pub async fn run<T: Send + 'static>(
    backend: &Backend,
    token: Option<ProgressToken>,
    kind: &str,
    title: &str,
    message: String,
    what: &str,
    work: impl FnOnce(&mut Ctx) -> T + Send + 'static,
) -> Result<(T, Finish)> {
    let token = match token {
        Some(t) => Some(t),
        None if backend.state.work_done_progress.load(Ordering::SeqCst) => {
            let n = backend.state.next_token.fetch_add(1, Ordering::SeqCst);
            let t = NumberOrString::String(format!("sidl-{kind}-{n}"));
            backend
                .client
                .create_work_done_progress(t.clone())
                .await
                .ok()
                .map(|_| t)
        }
        None => None,
    };
    let progress = match token {
        Some(t) => Some(
            backend
                .client
                .progress(t, title)
                .with_message(message)
                .begin()
                .await,
        ),
        None => None,
    };

    let cancel = Arc::new(AtomicBool::new(false));
    let _on_drop = CancelOnDrop(cancel.clone());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut ctx = Ctx {
        cancel,
        tx,
        last: Instant::now(),
    };
    let task = tokio::task::spawn_blocking(move || guard::catch(move || work(&mut ctx)));
    while let Some(msg) = rx.recv().await {
        if let Some(p) = &progress {
            p.report(msg).await;
        }
    }
    let finish = Finish(progress);
    match task.await {
        Ok(Ok(t)) => Ok((t, finish)),
        Ok(Err(panic)) => {
            let m = format!("sidl-lsp: internal error in {what}: {panic}");
            eprintln!("{m}");
            backend.client.log_message(MessageType::ERROR, &m).await;
            finish.with("internal error").await;
            Err(failed(m))
        }
        Err(e) => {
            finish.with("failed").await;
            Err(failed(format!("{what} failed: {e}")))
        }
    }
}
