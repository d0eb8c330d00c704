//! `sidl stats`: statistics of many games, simulated with the given seats or read from records
//! (docs/stats.md). The numbers and their text, CSV and JSON forms come from the engine
//! ([`sidl_engine::stats`]); this file reads the files, runs the progress bar and prints.

use crate::commands::{game_name, load_game, RecordWriter};
use crate::play::seat::{self, SeatKind};
use crate::plot;
use crate::render;
use sidl_engine::game::record::{read_records, Record};
use sidl_engine::game::Game;
use sidl_engine::game::{Session, Settings};
use sidl_engine::stats::plot::{histograms, sweep_series};
use sidl_engine::stats::sweep::{Sweep, SweepReport};
use sidl_engine::stats::{self, GameStats, Report};
use sidl_engine::write::canonical;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    pub game: PathBuf,
    /// Simulate N games (ignored with --records).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// PLAYER=KIND with KIND `random`, `minimax:DEPTH[:OBJECTIVE]` or `mcts:ITERATIONS[:OBJECTIVE]`
    /// (docs/ai.md); unnamed players play at random.
    #[arg(long = "seat", value_name = "PLAYER=KIND")]
    pub seats: Vec<String>,
    /// Game i (from 0) uses seed SEED + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[arg(long, default_value_t = 1000)]
    pub max_chronons: u64,
    /// Interrupt mode: every accepted submission runs its own transition (paper §4).
    #[arg(long)]
    pub interrupt: bool,
    /// Read the games from records files (docs/records.md) instead of simulating: every record of
    /// every file, replayed on GAME (records of another source are reported and left out).
    #[arg(long = "records", value_name = "FILE", num_args = 1..)]
    pub records: Vec<PathBuf>,
    /// Also append the simulated games' records to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "records")]
    pub record: Option<PathBuf>,
    /// `human` (a table) or `json` (one object on stdout).
    #[arg(long, value_enum, default_value_t = crate::commands::CheckFormat::Human)]
    pub format: crate::commands::CheckFormat,
    /// CSV rows on stdout instead (group, statistic, subject, n, value, sd, CI, min, median, max).
    #[arg(long, conflicts_with = "format")]
    pub csv: bool,
    /// Vary a fact of the game: `PATTERN=V1,V2,…` with one variable in the pattern, e.g.
    /// `reserve(R)=0,5,10,15`; the games are simulated for each value with the same seeds.
    #[arg(long, value_name = "PATTERN=VALUES", conflicts_with_all = ["records", "record"])]
    pub sweep: Option<String>,
    /// Also write SVG plots into DIR: histograms of game length, each account and each metric;
    /// with --sweep, each of them against the swept value.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
}

fn bar(len: u64, what: &str) -> indicatif::ProgressBar {
    let pb = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} games, {eta} left")
    {
        pb.set_style(style);
    }
    pb.set_message(what.to_string());
    pb
}

/// Exit 0; 1 for a game that does not load, a bad seat or an unreadable file; 2 when no game could
/// be counted.
pub fn run(a: &StatsArgs) -> u8 {
    let name = a.game.display().to_string();
    let (game, src) = match load_game(&a.game) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let settings = Settings {
        interrupt: a.interrupt,
        ..Settings::default()
    };
    let players = match Session::new(game.clone(), a.seed, settings.clone()) {
        Ok(s) => s.players(),
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            return 2;
        }
    };
    let player_names: Vec<String> = players.iter().map(canonical).collect();
    let mut problems = 0usize;
    if let Some(spec) = &a.sweep {
        return run_sweep(a, spec, &src, &settings);
    }
    let games: Vec<GameStats> = if a.records.is_empty() {
        let kinds = match kinds_of(&players, a) {
            Ok(k) => k,
            Err(c) => return c,
        };
        let pb = bar(a.games, "simulating");
        let mut writer = match a.record.as_deref().map(RecordWriter::open).transpose() {
            Ok(w) => w,
            Err(c) => return c,
        };
        let r = simulate(
            &game,
            &src,
            &name,
            &kinds,
            a,
            &settings,
            writer.as_mut(),
            &mut problems,
            &pb,
        );
        pb.finish_and_clear();
        match r {
            Ok(g) => g,
            Err(c) => return c,
        }
    } else {
        let mut out = Vec::new();
        for file in &a.records {
            let text = match std::fs::read_to_string(file) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: cannot read {}: {e}", file.display());
                    return 1;
                }
            };
            let (records, errors) = read_records(&text);
            for e in errors {
                eprintln!("warning: {}: {e}; left out", file.display());
                problems += 1;
            }
            let pb = bar(
                records.len() as u64,
                &format!("replaying {}", file.display()),
            );
            for (line, r) in records {
                match stats::of_record(game.clone(), &src, &r, &Settings::default()) {
                    Ok(g) => out.push(g),
                    Err(e) => {
                        pb.suspend(|| {
                            eprintln!(
                                "warning: {}: record on line {line}: {e}; left out",
                                file.display()
                            )
                        });
                        problems += 1;
                    }
                }
                pb.inc(1);
            }
            pb.finish_and_clear();
        }
        out
    };
    if games.is_empty() {
        eprintln!("error: no game to count");
        return 2;
    }
    let mut report = Report::of(&player_names, &games);
    // the players' labels (docs/reference.md "Labels"), the canonical terms stay the keys
    report.label_players(&sidl_engine::game::present::player_labels(
        &game, a.seed, None,
    ));
    if let Some(dir) = &a.plot {
        if let Err(e) = write_histograms(dir, &player_names, &games) {
            eprintln!("error: {e}");
            return 1;
        }
    }
    let heading = format!("{}: {}", name, describe(a, &games));
    if let Some(code) = print_report(
        a,
        &report,
        || report.to_csv(),
        &heading,
        || report.to_text(),
    ) {
        return code;
    }
    if problems > 0 {
        eprintln!("note: {problems} record(s) or line(s) left out (see the warnings above)");
    }
    0
}

fn describe(a: &StatsArgs, games: &[GameStats]) -> String {
    if a.records.is_empty() {
        format!(
            "{} simulated games, seeds {}..{}, at most {} chronons each",
            games.len(),
            a.seed,
            a.seed.wrapping_add(a.games.saturating_sub(1)),
            a.max_chronons
        )
    } else {
        let files: Vec<String> = a.records.iter().map(|p| p.display().to_string()).collect();
        format!("{} recorded games from {}", games.len(), files.join(", "))
    }
}

fn kinds_of(players: &[sidl_engine::term::Term], a: &StatsArgs) -> Result<Vec<SeatKind>, u8> {
    seat::automatic(
        players,
        &a.seats,
        "simulated games have no human seats (read human games with --records)",
    )
    .map_err(|m| {
        eprintln!("error: {m}");
        1
    })
}

/// Plays `a.games` games of `game` (seeds `a.seed`, `a.seed + 1`, …) one at a time, so that each
/// record is written as its game ends; the bar advances by one per game.
#[allow(clippy::too_many_arguments)]
fn simulate(
    game: &Arc<Game>,
    src: &str,
    name: &str,
    kinds: &[SeatKind],
    a: &StatsArgs,
    settings: &Settings,
    mut writer: Option<&mut RecordWriter>,
    problems: &mut usize,
    pb: &indicatif::ProgressBar,
) -> Result<Vec<GameStats>, u8> {
    let kind_names: Vec<String> = kinds.iter().map(SeatKind::name).collect();
    let mut out = Vec::with_capacity(a.games as usize);
    let mut sim = stats::Simulator::new(game.clone(), settings);
    for g in 0..a.games {
        let r = sim.play(kinds, a.seed.wrapping_add(g), a.max_chronons, |s, error| {
            if let Some(w) = writer.as_mut() {
                let rec = Record::of_session(s, &game_name(&a.game), src, &kind_names, &[], error);
                if w.write(&rec).is_err() {
                    *problems += 1;
                }
            }
        });
        match r {
            Ok(gs) => out.push(gs),
            Err(e) => {
                pb.finish_and_clear();
                render::runtime_error(name, src, &e, "");
                return Err(2);
            }
        }
        pb.inc(1);
    }
    Ok(out)
}

/// Writes the histograms of `games` into `dir`.
fn write_histograms(dir: &Path, players: &[String], games: &[GameStats]) -> Result<(), String> {
    for h in histograms(players, games) {
        plot::write(dir, &h.name, &plot::histogram_svg(&h)?)?;
    }
    Ok(())
}

/// `--sweep`: the games simulated for each value of the swept fact, with the same seeds and seats.
fn run_sweep(a: &StatsArgs, spec: &str, src: &str, settings: &Settings) -> u8 {
    let name = a.game.display().to_string();
    let sweep = match Sweep::parse(spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --sweep: {e}");
            return 1;
        }
    };
    // rewrite and load every version first, so that a bad value stops the run before it starts
    let mut versions = Vec::new();
    for v in &sweep.values {
        let version = format!("{name} with {}", render_term(&sweep.instance(v)));
        let text = match sweep.substitute(src, v) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: --sweep: {e}");
                return 1;
            }
        };
        let game = match Game::load(&text) {
            Ok((g, _)) => Arc::new(g),
            Err(diags) => {
                render::diagnostics(&version, &text, &diags);
                return 1;
            }
        };
        versions.push((version, text, game));
    }
    let pb = bar(a.games * versions.len() as u64, "simulating");
    let mut reports = Vec::new();
    let mut all_games = Vec::new();
    for (version, text, game) in &versions {
        let players = match Session::new(game.clone(), a.seed, settings.clone()) {
            Ok(s) => s.players(),
            Err(e) => {
                pb.finish_and_clear();
                render::runtime_error(version, text, &e, "");
                return 2;
            }
        };
        let kinds = match kinds_of(&players, a) {
            Ok(k) => k,
            Err(c) => return c,
        };
        let mut problems = 0;
        let games = match simulate(
            game,
            text,
            version,
            &kinds,
            a,
            settings,
            None,
            &mut problems,
            &pb,
        ) {
            Ok(g) => g,
            Err(c) => return c,
        };
        let names: Vec<String> = players.iter().map(canonical).collect();
        reports.push(Report::of(&names, &games));
        all_games.push((names, games));
    }
    pb.finish_and_clear();
    let report = SweepReport::new(&sweep, reports);
    if let Some(dir) = &a.plot {
        let r = (|| -> Result<(), String> {
            for s in sweep_series(&report) {
                plot::write(dir, &s.name, &plot::series_svg(&s)?)?;
            }
            let mut used: Vec<String> = Vec::new();
            for (p, (names, games)) in report.points.iter().zip(&all_games) {
                let mut sub = sidl_engine::stats::plot::file_name(&format!(
                    "{}={}",
                    report.variable, p.value
                ));
                while used.contains(&sub) {
                    sub.push('_');
                }
                used.push(sub.clone());
                write_histograms(&dir.join(&sub), names, games)?;
            }
            Ok(())
        })();
        if let Err(e) = r {
            eprintln!("error: {e}");
            return 1;
        }
    }
    let heading = format!(
        "{name}: {} simulated games per value, seeds {}..{}, at most {} chronons each",
        a.games,
        a.seed,
        a.seed.wrapping_add(a.games.saturating_sub(1)),
        a.max_chronons
    );
    print_report(
        a,
        &report,
        || report.to_csv(),
        &heading,
        || report.to_text(),
    )
    .unwrap_or(0)
}

/// Prints a report as `--csv`, `--format json` or text (`heading`, then `text`); `Some(exit code)`
/// when it cannot be written.
fn print_report(
    a: &StatsArgs,
    report: &impl serde::Serialize,
    csv: impl FnOnce() -> String,
    heading: &str,
    text: impl FnOnce() -> String,
) -> Option<u8> {
    if a.csv {
        print!("{}", csv());
        return None;
    }
    match a.format {
        crate::commands::CheckFormat::Json => match serde_json::to_string(report) {
            Ok(j) => println!("{j}"),
            Err(e) => {
                eprintln!("error: {e}");
                return Some(2);
            }
        },
        crate::commands::CheckFormat::Human => {
            println!("{heading}");
            print!("{}", text());
        }
    }
    None
}

fn render_term(t: &sidl_engine::term::Term) -> String {
    sidl_engine::write::writeq(t, None)
}
