//! The backend: document store, position conversion, and the `LanguageServer` implementation that
//! dispatches to one module per request kind.

pub mod code_action;
pub mod completion;
pub mod definition;
pub mod diagnostics;
pub mod documents;
pub mod guard;
pub mod hidden;
pub mod hover;
pub mod longrun;
pub mod rename;
pub mod semantic_tokens;
pub mod solve;
pub mod source;
pub mod symbols;
pub mod why;

use documents::{Documents, Snapshot};
use sidl_engine::diag::ColumnUnit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

/// State shared by the handlers and the background tasks.
pub struct State {
    pub docs: Documents,
    pub unit: RwLock<ColumnUnit>,
    /// The client can be asked to create work-done progress tokens.
    pub work_done_progress: AtomicBool,
    /// Serialises the publication of diagnostics (the version is checked under it).
    pub publish: tokio::sync::Mutex<()>,
    pub next_token: AtomicU64,
}

pub struct Backend {
    pub client: Client,
    pub state: Arc<State>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Arc::new(State {
                docs: Documents::default(),
                unit: RwLock::new(ColumnUnit::Utf16),
                work_done_progress: AtomicBool::new(false),
                publish: tokio::sync::Mutex::new(()),
                next_token: AtomicU64::new(1),
            }),
        }
    }

    fn unit(&self) -> ColumnUnit {
        self.state
            .unit
            .read()
            .map(|u| *u)
            .unwrap_or(ColumnUnit::Utf16)
    }

    fn snapshot(&self, uri: &Uri) -> Result<Snapshot> {
        self.state
            .docs
            .snapshot(uri, self.unit())
            .ok_or_else(|| Error::invalid_params(format!("document not open: {}", uri.as_str())))
    }

    /// Runs a request's engine work on an open document, on a blocking thread (the message loop
    /// stays free), turning a panic into an error response and a log message: the server keeps
    /// serving.
    async fn with_doc<T: Send + 'static>(
        &self,
        what: &str,
        uri: &Uri,
        f: impl FnOnce(&Snapshot) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let snap = self.snapshot(uri)?;
        let outcome = tokio::task::spawn_blocking(move || guard::catch(|| f(&snap)))
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
        match outcome {
            Ok(r) => r,
            Err(msg) => {
                let m = format!("sidl-lsp: internal error in {what}: {msg}");
                eprintln!("{m}");
                self.client.log_message(MessageType::ERROR, &m).await;
                Err(Error {
                    code: tower_lsp_server::jsonrpc::ErrorCode::InternalError,
                    message: m.into(),
                    data: None,
                })
            }
        }
    }

    pub async fn check_hidden_information(
        &self,
        params: hidden::CheckParams,
    ) -> Result<hidden::CheckResult> {
        hidden::check(self, params).await
    }

    pub async fn solve(&self, params: solve::SolveParams) -> Result<solve::SolveResult> {
        solve::solve_request(self, params).await
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref());
        let utf8 = offered.is_some_and(|v| v.contains(&PositionEncodingKind::UTF8));
        let (unit, kind) = if utf8 {
            (ColumnUnit::Utf8, PositionEncodingKind::UTF8)
        } else {
            (ColumnUnit::Utf16, PositionEncodingKind::UTF16)
        };
        if let Ok(mut u) = self.state.unit.write() {
            *u = unit;
        }
        let wdp = params
            .capabilities
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false);
        self.state.work_done_progress.store(wdp, Ordering::SeqCst);
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(kind),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        ..Default::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec!["[".into(), "(".into()]),
                    ..Default::default()
                }),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: Default::default(),
                })),
                semantic_tokens_provider: Some(
                    SemanticTokensServerCapabilities::SemanticTokensOptions(
                        SemanticTokensOptions {
                            legend: semantic_tokens::legend(),
                            full: Some(SemanticTokensFullOptions::Bool(true)),
                            range: None,
                            ..Default::default()
                        },
                    ),
                ),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                        ..Default::default()
                    },
                )),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: vec![
                        hidden::COMMAND.to_string(),
                        why::COMMAND.to_string(),
                        solve::COMMAND.to_string(),
                    ],
                    ..Default::default()
                }),
                ..Default::default()
            },
            server_info: Some(ServerInfo {
                name: "sidl-lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let unit = match self.unit() {
            ColumnUnit::Utf8 => "utf-8",
            _ => "utf-16",
        };
        self.client
            .log_message(
                MessageType::INFO,
                format!(
                    "sidl-lsp {} ready ({unit} positions)",
                    env!("CARGO_PKG_VERSION")
                ),
            )
            .await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let d = params.text_document;
        self.state.docs.open(d.uri.clone(), d.text, d.version);
        diagnostics::schedule(self, d.uri, d.version);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        // applied before any await: notifications are handled in the order they arrive
        match self
            .state
            .docs
            .change(&uri, version, params.content_changes, self.unit())
        {
            Ok(()) => diagnostics::schedule(self, uri, version),
            Err(e) => {
                eprintln!("sidl-lsp: {e}");
                self.client.log_message(MessageType::WARNING, e).await;
            }
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.state.docs.close(&uri);
        let _g = self.state.publish.lock().await;
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        self.with_doc("hover", &p.text_document.uri, move |s| {
            Ok(hover::hover(s, p.position))
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        self.with_doc("completion", &p.text_document.uri, move |s| {
            Ok(completion::completion(s, p.position))
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let uri = p.text_document.uri.clone();
        self.with_doc("definition", &p.text_document.uri, move |s| {
            Ok(definition::definition(s, &uri, p.position))
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri.clone();
        let decl = params.context.include_declaration;
        self.with_doc("references", &p.text_document.uri, move |s| {
            Ok(definition::references(s, &uri, p.position, decl))
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.with_doc("documentSymbol", &params.text_document.uri, move |s| {
            Ok(symbols::document_symbols(s))
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        self.with_doc("prepareRename", &params.text_document.uri, move |s| {
            rename::prepare(s, params.position)
        })
        .await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri.clone();
        self.with_doc("rename", &p.text_document.uri, move |s| {
            rename::rename(s, &uri, p.position, &params.new_name)
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        self.with_doc("semanticTokens", &params.text_document.uri, move |s| {
            Ok(Some(semantic_tokens::full(s)))
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        self.with_doc("codeAction", &params.text_document.uri, move |s| {
            Ok(code_action::code_actions(s, &uri, params.range))
        })
        .await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        if params.command == why::COMMAND {
            return why::execute_command(self, params).await;
        }
        if params.command == solve::COMMAND {
            return solve::execute_command(self, params).await;
        }
        hidden::execute_command(self, params).await
    }
}
