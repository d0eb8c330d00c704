//! One function per subcommand: read files, call the engine, print.

use crate::render;
use sidl_engine::game::events::chronon_line;
use sidl_engine::game::present::Presenter;
use sidl_engine::game::record::Record;
use sidl_engine::game::trace::{parse_script, run_trace_session};
use sidl_engine::game::{Game, Session, Settings};
use sidl_engine::seats::{self, Round, Seat};
use sidl_engine::solve::query::answer_text;
use sidl_engine::solve::{Limits, Program};
use std::path::Path;
use std::sync::Arc;

fn read(path: &Path) -> Result<String, u8> {
    std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
        1
    })
}

/// A file's text, its name for messages and its clauses as a program; exit 1 after printing the
/// read or load errors (`sidl query` on either core).
fn load_program(file: &Path) -> Result<(String, String, Program), u8> {
    let src = read(file)?;
    let name = file.display().to_string();
    let (program, diags) = Program::from_source(&src);
    if diags.iter().any(|d| d.is_error()) {
        render::diagnostics(&name, &src, &diags);
        return Err(1);
    }
    Ok((src, name, program))
}

/// `sidl query FILE GOAL`: each answer on its own line as `X = <canonical>, Y = <canonical>.`
/// (`true.` without variables), `false.` when there is none. Exit 0, 1 (load/goal error), 2 (runtime).
pub fn query(
    file: &Path,
    goal: &str,
    max_answers: usize,
    max_inferences: u64,
    time: bool,
    memoize: bool,
) -> u8 {
    let (src, name, program) = match load_program(file) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let limits = Limits {
        max_inferences,
        ..Limits::default()
    };
    let mut q = match program.query(goal, limits) {
        Ok(q) => q,
        Err(d) => {
            render::diagnostics("<goal>", goal, &d);
            return 1;
        }
    };
    q.machine().memoize = memoize;
    let names: Vec<String> = q.var_names().to_vec();
    print_answers(&name, &src, &names, max_answers, time, || {
        (q.next_answer(), q.inferences())
    })
}

/// `sidl query FILE GOAL --core compiled`: [`query`] on the experimental compiled core
/// (`sidl_engine::solve::wam`); a goal outside its subset is an error (exit 1). `listing`: print
/// the compiled instructions instead.
pub fn query_compiled(
    file: &Path,
    goal: &str,
    max_answers: usize,
    max_inferences: u64,
    time: bool,
    listing: bool,
) -> u8 {
    use sidl_engine::solve::wam::{listing as code_listing, CoreQuery};
    let (src, name, program) = match load_program(file) {
        Ok(x) => x,
        Err(c) => return c,
    };
    if listing {
        return match code_listing(&program, goal) {
            Ok(text) => {
                print!("{text}");
                0
            }
            Err(e) => {
                eprintln!("error: the compiled core cannot run this query: {e}");
                1
            }
        };
    }
    let limits = Limits {
        max_inferences,
        ..Limits::default()
    };
    let mut q = match CoreQuery::parse(&program, goal, limits) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("error: the compiled core cannot run this query: {e}");
            return 1;
        }
    };
    let names: Vec<String> = q.var_names().to_vec();
    print_answers(&name, &src, &names, max_answers, time, || {
        (q.next_answer(), q.inferences)
    })
}

/// Prints the answers of a query (`next`: the next answer and the inference count after it) as
/// `sidl query` does, for the interpreter and the compiled core alike: exit 0, or 2 on a runtime
/// error; with `time`, the inferences and the rate on stderr.
fn print_answers(
    name: &str,
    src: &str,
    names: &[String],
    max_answers: usize,
    time: bool,
    mut next: impl FnMut() -> (
        Option<Result<Vec<sidl_engine::term::Term>, sidl_engine::solve::SolveError>>,
        u64,
    ),
) -> u8 {
    let started = std::time::Instant::now();
    let mut any = false;
    let mut inferences = 0;
    for _ in 0..max_answers {
        let (answer, n) = next();
        inferences = n;
        match answer {
            Some(Ok(values)) => {
                any = true;
                println!("{}", answer_text(names, &values));
            }
            Some(Err(e)) => {
                render::diagnostics(name, src, &[e.to_diagnostic()]);
                return 2;
            }
            None => break,
        }
    }
    if !any {
        println!("false.");
    }
    if time {
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "% {inferences} inferences in {secs:.3} seconds ({:.0} inferences per second)",
            inferences as f64 / secs
        );
    }
    0
}

pub(crate) fn load_game(path: &Path) -> Result<(Arc<Game>, String), u8> {
    let src = read(path)?;
    match Game::load(&src) {
        Ok((g, diags)) => {
            let warnings: Vec<_> = diags.into_iter().filter(|d| !d.is_error()).collect();
            if !warnings.is_empty() && std::env::var_os("SIDL_QUIET").is_none() {
                render::diagnostics(&path.display().to_string(), &src, &warnings);
            }
            Ok((Arc::new(g), src))
        }
        Err(diags) => {
            render::diagnostics(&path.display().to_string(), &src, &diags);
            Err(1)
        }
    }
}

/// A game's name in its records: the file name without `.sidl`.
pub(crate) fn game_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Appends records to a records file (docs/records.md), one line each, written as each game ends
/// so that an interrupted run keeps the games it finished.
pub(crate) struct RecordWriter {
    path: std::path::PathBuf,
    file: std::fs::File,
}

impl RecordWriter {
    pub(crate) fn open(path: &Path) -> Result<RecordWriter, u8> {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(|file| RecordWriter {
                path: path.to_path_buf(),
                file,
            })
            .map_err(|e| {
                eprintln!("error: cannot write {}: {e}", path.display());
                1
            })
    }

    pub(crate) fn write(&mut self, r: &Record) -> Result<(), u8> {
        use std::io::Write;
        let mut line = r.to_line();
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", self.path.display());
            1
        })
    }
}

/// `sidl trace GAME --replay FILE [--index K]`: the trace of the K-th record of FILE (1-based),
/// replayed on GAME: byte for byte what `sidl trace --record` printed when it wrote the record.
pub fn replay(game_path: &Path, records: &Path, index: usize) -> u8 {
    let (game, src) = match load_game(game_path) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let text = match read(records) {
        Ok(s) => s,
        Err(c) => return c,
    };
    let (ok, errors) = sidl_engine::game::record::read_records(&text);
    let Some((line, record)) = ok.get(index.saturating_sub(1)) else {
        for e in &errors {
            eprintln!("error: {}: {e}", records.display());
        }
        eprintln!(
            "error: {} holds {} readable record(s), not a record number {index}",
            records.display(),
            ok.len()
        );
        return 1;
    };
    match sidl_engine::game::trace::replay_trace(game, &src, record, &Settings::default()) {
        Ok(out) => {
            let mut stdout = String::new();
            for l in &out.lines {
                stdout.push_str(l);
                stdout.push('\n');
            }
            print!("{stdout}");
            0
        }
        Err(e) => {
            eprintln!("error: {}: record on line {line}: {e}", records.display());
            2
        }
    }
}

/// `sidl trace`: the trace format of `../shared/trace-format.md`.
pub fn trace(
    game: &Path,
    seed: u64,
    script: Option<&Path>,
    max_chronons: u64,
    interrupt: bool,
    record: Option<&Path>,
) -> u8 {
    let path = game;
    let name = game.display().to_string();
    let (game, src) = match load_game(game) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let items = match script {
        Some(p) => {
            let src = match read(p) {
                Ok(s) => s,
                Err(c) => return c,
            };
            match parse_script(&src) {
                Ok(items) => Some(items.into_iter().map(|(i, _)| i).collect::<Vec<_>>()),
                Err(d) => {
                    render::diagnostics(&p.display().to_string(), &src, &d);
                    return 1;
                }
            }
        }
        None => None,
    };
    let settings = Settings {
        interrupt,
        ..Settings::default()
    };
    let mut writer = match record.map(RecordWriter::open).transpose() {
        Ok(w) => w,
        Err(c) => return c,
    };
    let (out, session) = run_trace_session(game, seed, items.as_deref(), max_chronons, settings);
    if let (Some(w), Some(mut s)) = (writer.as_mut(), session) {
        let kind = if items.is_some() { "script" } else { "random" };
        let kinds = vec![kind.to_string(); s.players().len()];
        let r = Record::of_session(
            &mut s,
            &game_name(path),
            &src,
            &kinds,
            &[],
            out.error.as_ref(),
        );
        if let Err(c) = w.write(&r) {
            return c;
        }
    }
    for m in &out.messages {
        eprintln!("{m}");
    }
    if let Some(e) = &out.error {
        render::runtime_error(&name, &src, e, "");
    }
    let mut stdout = String::new();
    for l in &out.lines {
        stdout.push_str(l);
        stdout.push('\n');
    }
    print!("{stdout}");
    out.exit_code as u8
}

/// `sidl run`: random play with a readable line per chronon. Every player has a random seat, driven
/// by the engine's seat driver ([`seats::round`]) as in `sidl play` and `sidl tournament`: unlimited
/// switches draw from the game's `candidate/2`; when no seat can act, the run stops and says why.
/// The designer's labels for `sidl run` (raw terms with `--raw` or without labels).
fn designer(s: &mut Session, raw: bool) -> Presenter {
    if raw {
        return Presenter::raw();
    }
    Presenter::new(s, None, None).unwrap_or_else(|_| Presenter::raw())
}

pub fn run(game: &Path, seed: u64, max_chronons: u64, interrupt: bool, raw: bool) -> u8 {
    let name = game.display().to_string();
    let (game, src) = match load_game(game) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let settings = Settings {
        interrupt,
        ..Settings::default()
    };
    let mut s = match Session::new(game, seed, settings) {
        Ok(s) => s,
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            return 2;
        }
    };
    let seats = vec![Seat::Random; s.players().len()];
    loop {
        match s.is_terminal() {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => {
                render::runtime_error(&name, &src, &e, "");
                return 2;
            }
        }
        if s.chronon() >= max_chronons {
            println!("stopped after {max_chronons} chronons");
            break;
        }
        let before = s.history().len();
        match seats::round(&mut s, &seats, max_chronons) {
            Ok(Round::Ran { .. }) => {}
            Ok(Round::Idle(why)) => {
                println!("stopped after {} chronons: {why}", s.chronon());
                break;
            }
            Err(e) => {
                let at = format!("in chronon {}: ", s.chronon() + 1);
                render::runtime_error(&name, &src, &e, &at);
                return 2;
            }
        }
        // the designer's labels (docs/reference.md, Labels), raw terms without them
        let mut pr = designer(&mut s, raw);
        for (i, rec) in s.history().iter().enumerate().skip(before) {
            println!("chronon {}: {}", i + 1, chronon_line(rec, &mut pr));
        }
    }
    let mut pr = designer(&mut s, raw);
    for l in pr.result() {
        println!("{l}");
    }
    let accounts: Vec<String> = s.accounts().iter().map(|(p, a)| pr.account(p, a)).collect();
    println!("final accounts: {}", accounts.join(", "));
    0
}

/// `sidl bench`: times random play.
pub fn bench(game: &Path, chronons: u64, seed: u64, profile: bool, views: bool) -> u8 {
    use sidl_engine::game::trace::{random_play_with, PlayWork};
    let name = game.display().to_string();
    let (game, src) = match load_game(game) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let work = if views {
        PlayWork::Views
    } else {
        PlayWork::Bench
    };
    let start = std::time::Instant::now();
    match random_play_with(game, seed, chronons, Settings::default(), profile, work) {
        Ok(st) => {
            let secs = start.elapsed().as_secs_f64();
            // with --views: the switches and facts shown, summed over the players and states
            let shown = if views {
                format!(" shown={}", st.shown)
            } else {
                String::new()
            };
            println!(
                "chronons={} games={} seconds={:.3} chronons_per_sec={:.0} legal_computations_per_sec={:.0}{shown}",
                st.chronons,
                st.games,
                secs,
                st.chronons as f64 / secs,
                st.legal_computations as f64 / secs
            );
            for ((name, arity), n) in st.profile.iter().take(25) {
                println!("{n:>12}  {name}/{arity}");
            }
            0
        }
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            2
        }
    }
}

/// Output format of `sidl check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Human,
    Json,
}

/// `sidl check GAME`: every diagnostic of the analyses. Human: codespan snippets on stderr and a
/// summary line. JSON: one object per line on stdout. Exit 1 if there is an error, else 0.
pub fn check(file: &Path, format: CheckFormat) -> u8 {
    let src = match read(file) {
        Ok(s) => s,
        Err(c) => return c,
    };
    let name = file.display().to_string();
    let diags = sidl_engine::analysis::check(&src);
    match format {
        CheckFormat::Human => {
            render::diagnostics(&name, &src, &diags);
            let errors = diags.iter().filter(|d| d.is_error()).count();
            let warnings = diags.len() - errors;
            eprintln!("{name}: {errors} error(s), {warnings} other diagnostic(s)");
        }
        CheckFormat::Json => {
            for d in &diags {
                println!("{}", render::json(&src, d));
            }
        }
    }
    u8::from(diags.iter().any(|d| d.is_error()))
}
