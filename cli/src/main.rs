//! The `sidl` command line: run, trace, play, query, check, benchmark and serve SIDL games.

mod analyse;
mod color;
mod commands;
mod explore;
mod play;
mod plot;
mod render;
mod stats;
mod tournament;
mod why;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The engine allocates and frees many small blocks (heap words, answers, states, schedules):
/// mimalloc does this in fewer instructions than the system allocator (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "sidl",
    version,
    about = "Run, trace, play, query, check and benchmark SIDL3.0 games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load a file's clauses and print every answer of a goal, like a Prolog top level without I/O.
    Query {
        /// A SIDL or Prolog file.
        file: PathBuf,
        /// The goal, e.g. 'append(X, Y, [1,2])'.
        goal: String,
        /// Stop after this many answers.
        #[arg(long, default_value_t = 1000)]
        max_answers: usize,
        /// Inference step budget.
        #[arg(long, default_value_t = 10_000_000)]
        max_inferences: u64,
        /// Print the time and inferences of the whole query to stderr.
        #[arg(long)]
        time: bool,
        /// Do not memoize predicates that depend on their arguments only.
        #[arg(long)]
        no_memo: bool,
        /// Experimental: `compiled` runs the query on the compiled core (engine/src/solve/wam;
        /// control constructs, call/N, findall, catch/throw and the built-ins; no memoization, no
        /// garbage collector), which gives the interpreter's answers and inference counts;
        /// `interpreter` (default).
        #[arg(long, value_parser = ["interpreter", "compiled"], default_value = "interpreter")]
        core: String,
        /// With `--core compiled`: print the compiled instructions instead of running the query.
        #[arg(long)]
        listing: bool,
    },
    /// Play a game and print its trajectory in the machine-readable trace format.
    Trace {
        game: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A script of submit/3, nature/2 and chronon/0 lines; without it, random play.
        #[arg(long)]
        script: Option<PathBuf>,
        #[arg(long, default_value_t = 1000)]
        max_chronons: u64,
        /// Interrupt mode: every accepted submission runs its own transition (paper §4).
        #[arg(long)]
        interrupt: bool,
        /// Append the game's record to FILE (docs/records.md): seed, mode, seats, submissions and
        /// nature draws, final accounts.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Print the trace of a record of FILE replayed on GAME instead of playing (the record
        /// must be of this very source: its SHA-256 is checked).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["script", "record", "seed", "interrupt"])]
        replay: Option<PathBuf>,
        /// With --replay: which record of the file (1 = the first).
        #[arg(long, default_value_t = 1, requires = "replay")]
        index: usize,
    },
    /// Play a game at the terminal: human seats choose, random seats draw (see --help).
    Play(play::PlayArgs),
    /// Check a game without running it: syntax, load, keyword placement and lints. Exit 1 if there
    /// is an error.
    Check {
        game: PathBuf,
        /// `human` (source snippets on stderr) or `json` (one object per line on stdout).
        #[arg(long, value_enum, default_value_t = commands::CheckFormat::Human)]
        format: commands::CheckFormat,
        /// Also run the dynamic Def.1 §11 check (as `sidl explore`) when the game has no errors.
        #[arg(long)]
        explore: bool,
        /// The most states `--explore` visits.
        #[arg(long, default_value_t = 20_000)]
        max_states: usize,
    },
    /// Random play with a readable line per chronon.
    Run {
        game: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, default_value_t = 1000)]
        max_chronons: u64,
        /// Interrupt mode: every accepted submission runs its own transition (paper §4).
        #[arg(long)]
        interrupt: bool,
        /// Show the raw terms, not the game's labels (docs/reference.md "Labels").
        #[arg(long)]
        raw: bool,
    },
    /// Random games back to back until N chronons have run (single thread): chronons per second and
    /// legal-action computations per second.
    Bench {
        game: PathBuf,
        #[arg(long, default_value_t = 10_000)]
        chronons: u64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Also count calls per predicate and print the most called ones.
        #[arg(long)]
        profile: bool,
        /// Per chronon, also the work of a page or `sidl serve`: random moves for every player
        /// (unlimited switches from `candidate/2`), the chronon's record with its events, then
        /// every player's legal switches and view (the playground's API loop, natively).
        #[arg(long, conflicts_with = "ai")]
        views: bool,
        /// Time an AI player instead (`random`, `minimax:DEPTH[:OBJECTIVE]`, `mcts:ITERATIONS[:OBJECTIVE]`): it decides at
        /// --decisions positions of random games; prints playouts (or nodes) and chronons per second.
        #[arg(long, value_name = "SPEC")]
        ai: Option<String>,
        /// With --ai: how many decisions to time.
        #[arg(long, default_value_t = 5)]
        decisions: u64,
    },
    /// AI seats play N games: a win/draw/loss table per player (win = strictly highest final
    /// account, draw = tied for the highest) and the mean final accounts.
    Tournament {
        game: PathBuf,
        /// PLAYER=KIND with KIND `random`, `minimax:DEPTH[:OBJECTIVE]` or `mcts:ITERATIONS[:OBJECTIVE]` (OBJECTIVE: `own`, the default, `relative` or `paranoid`; docs/ai.md); unnamed players
        /// play at random.
        #[arg(long = "seat", value_name = "PLAYER=KIND")]
        seats: Vec<String>,
        #[arg(long, default_value_t = 10)]
        games: u64,
        /// Game i (from 0) uses seed SEED + i.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, default_value_t = 1000)]
        max_chronons: u64,
        /// Append each game's record to FILE as it ends (docs/records.md).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Explore reachable states for a Def.1 §11 leak (hidden facts revealed by a player's switches);
    /// prints each counterexample, exit 1 if one is found.
    Explore {
        game: PathBuf,
        /// The most states visited.
        #[arg(long, default_value_t = 10_000)]
        max_states: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// `human` (text) or `json` (one object per line on stdout).
        #[arg(long, value_enum, default_value_t = commands::CheckFormat::Human)]
        format: commands::CheckFormat,
    },
    /// Statistics of many games, simulated with the given seats or read from records: length,
    /// outcomes, accounts, the game's own metric/2 measures (docs/stats.md).
    Stats(stats::StatsArgs),
    /// Explain in terms of the game's clauses why a switch is (not) legal, an action (not) among its
    /// actions, a submission accepted or rejected, a fact created or deleted, a payoff (not) paid.
    Why(why::WhyArgs),
    /// Serve sessions to participants on other machines: HTTP, WebSockets and a SQLite database
    /// (docs/serve.md). Prints the admin URL with its token (or set it with SIDL_ADMIN_TOKEN).
    Serve(Box<sidl_server::ServeArgs>),
    /// Write the game's extensive form as a Gambit .efg file (--efg), or the strategic form of a
    /// one-shot game as a .nfg file (--nfg); docs/analysis.md.
    Export {
        game: PathBuf,
        /// Gambit extensive form (format version 2, rational numbers): the default.
        #[arg(long, conflicts_with = "nfg")]
        efg: bool,
        /// Gambit strategic form, for games in which every player chooses once.
        #[arg(long)]
        nfg: bool,
        /// Write to FILE instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// The most nodes of the tree (estimated before the build: a tree over 20 times this stops at
        /// once).
        #[arg(long, default_value_t = sidl_engine::analysis::extensive::DEFAULT_MAX_NODES)]
        max_nodes: usize,
    },
    /// Solve the game's extensive form: each player's value, NashConv and an equilibrium profile per
    /// information set (docs/analysis.md).
    Solve {
        game: PathBuf,
        /// `auto` (the exact LP for two-player zero-sum games, support enumeration for two-player
        /// one-shot games, else CFR+), `cfr`, `lp` or `support`.
        #[arg(long, default_value = "auto")]
        method: String,
        /// CFR+ iterations.
        #[arg(long, default_value_t = 10_000)]
        iterations: u64,
        /// The most nodes of the tree (estimated before the build: a tree over 20 times this stops at
        /// once).
        #[arg(long, default_value_t = sidl_engine::analysis::extensive::DEFAULT_MAX_NODES)]
        max_nodes: usize,
        /// `human` (a table) or `json` (one object on the last line of stdout).
        #[arg(long, value_enum, default_value_t = commands::CheckFormat::Human)]
        format: commands::CheckFormat,
        /// PLAYER=KIND (`random`, `minimax:DEPTH[:OBJECTIVE]`, `mcts:ITERATIONS[:OBJECTIVE]`): how
        /// much a best response gains against that AI seat (seed 0) when the others play the
        /// computed profile. Small games: the AI decides once per information set.
        #[arg(long, value_name = "PLAYER=KIND")]
        exploit: Option<String>,
    },
}

fn main() -> ExitCode {
    // A closed pipe (`sidl run GAME | head`) ends the process like other Unix tools do; without
    // this, Rust ignores SIGPIPE and the next `println!` panics.
    sigpipe::reset();
    let cli = Cli::parse();
    // experimental: the compiled core runs the queries it can (docs/reference.md, `SIDL_CORE`)
    let core = std::env::var("SIDL_CORE").is_ok_and(|v| v == "compiled");
    if core && !sidl_engine::solve::wam::WIRED {
        eprintln!(
            "sidl: SIDL_CORE=compiled is ignored: this sidl is built without the compiled core \
             (cargo build --release -p sidl-cli --features compiled-core)"
        );
    }
    sidl_engine::solve::wam::set_compiled_core_default(core);
    let code = match cli.command {
        Command::Query {
            file,
            goal,
            max_answers,
            max_inferences,
            time,
            no_memo,
            core,
            listing,
        } => {
            if core == "compiled" {
                commands::query_compiled(&file, &goal, max_answers, max_inferences, time, listing)
            } else {
                commands::query(&file, &goal, max_answers, max_inferences, time, !no_memo)
            }
        }
        Command::Trace {
            game,
            seed,
            script,
            max_chronons,
            interrupt,
            record,
            replay,
            index,
        } => match replay {
            Some(file) => commands::replay(&game, &file, index),
            None => commands::trace(
                &game,
                seed,
                script.as_deref(),
                max_chronons,
                interrupt,
                record.as_deref(),
            ),
        },
        Command::Play(args) => play::run(&args),
        Command::Check {
            game,
            format,
            explore,
            max_states,
        } => {
            let code = commands::check(&game, format);
            if explore && code == 0 {
                explore::run(&game, max_states, 0, format)
            } else {
                code
            }
        }
        Command::Run {
            game,
            seed,
            max_chronons,
            interrupt,
            raw,
        } => commands::run(&game, seed, max_chronons, interrupt, raw),
        Command::Bench {
            game,
            chronons,
            seed,
            profile,
            views,
            ai,
            decisions,
        } => match ai {
            Some(spec) => tournament::bench_ai(&game, &spec, decisions, seed),
            None => commands::bench(&game, chronons, seed, profile, views),
        },
        Command::Tournament {
            game,
            seats,
            games,
            seed,
            max_chronons,
            record,
        } => tournament::tournament(&game, &seats, games, seed, max_chronons, record.as_deref()),
        Command::Explore {
            game,
            max_states,
            seed,
            format,
        } => explore::run(&game, max_states, seed, format),
        Command::Stats(args) => stats::run(&args),
        Command::Why(args) => why::run(&args),
        Command::Serve(args) => match sidl_server::run(*args) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: {e}");
                1
            }
        },
        Command::Export {
            game,
            efg: _,
            nfg,
            output,
            max_nodes,
        } => analyse::export(&game, nfg, output.as_deref(), max_nodes),
        Command::Solve {
            game,
            method,
            iterations,
            max_nodes,
            format,
            exploit,
        } => analyse::solve(
            &game,
            &method,
            iterations,
            max_nodes,
            format,
            exploit.as_deref(),
        ),
    };
    if std::env::var_os("SIDL_CORE_COUNTS").is_some() {
        let ([core, not_user, outside, tables], refused) = sidl_engine::solve::wam::core_counts();
        eprintln!(
            "queries: {core} on the compiled core; on the interpreter: {not_user} not a user \
             predicate, {outside} outside the core's subset, {tables} memo/state tables"
        );
        for why in refused {
            eprintln!("  refused: {why}");
        }
    }
    ExitCode::from(code)
}
