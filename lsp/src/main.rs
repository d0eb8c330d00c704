//! `sidl-lsp`: the SIDL language server on stdio (see `docs/lsp.md`).
//!
//! `sidl-lsp --version` prints `sidl-lsp <version>`; `sidl-lsp` or `sidl-lsp --stdio` serves the
//! Language Server Protocol on stdin/stdout. Nothing but the protocol goes to stdout: logs go to
//! stderr and to the client (`window/logMessage`).

use sidl_lsp::server::Backend;
use tower_lsp_server::{LspService, Server};

const USAGE: &str = "usage: sidl-lsp [--stdio | --version | --help]\n\
The SIDL language server: speaks the Language Server Protocol on stdin/stdout.";

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | ["--stdio"] => {}
        ["--version" | "-V"] => {
            println!("sidl-lsp {}", env!("CARGO_PKG_VERSION"));
            return std::process::ExitCode::SUCCESS;
        }
        ["--help" | "-h"] => {
            println!("{USAGE}");
            return std::process::ExitCode::SUCCESS;
        }
        other => {
            eprintln!("sidl-lsp: unexpected arguments {other:?}\n{USAGE}");
            return std::process::ExitCode::from(2);
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("sidl-lsp: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let (service, socket) = LspService::build(Backend::new)
            .custom_method(
                sidl_lsp::server::hidden::METHOD,
                Backend::check_hidden_information,
            )
            .custom_method(sidl_lsp::server::solve::METHOD, Backend::solve)
            .finish();
        Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
            .serve(service)
            .await;
    });
    // blocking work (an exploration being cancelled) must not keep the process alive
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    std::process::ExitCode::SUCCESS
}
