//! `sidl-serve`: the same as `sidl serve` (`ServeArgs`), as a binary of its own.

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "sidl-serve",
    about = "Serve sessions of SIDL3.0 games (docs/serve.md)"
)]
struct Cli {
    #[command(flatten)]
    serve: sidl_server::ServeArgs,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = sidl_server::run(cli.serve) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
