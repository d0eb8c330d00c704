//! `sidl stats`: statistics of many games, simulated with the given seats or read from records
//! (docs/stats.md). The numbers and their text, CSV and JSON forms come from the engine
//! ([`sidl_engine::stats`]); this file reads the files, runs the progress bar and prints.

use crate::commands::{game_name, load_game, RecordWriter};
use crate::play::seat::{self, SeatKind};
use crate::render;
use sidl_engine::game::record::{read_records, Record};
use sidl_engine::game::{Session, Settings};
use sidl_engine::stats::{self, GameStats, Report};
use sidl_engine::write::canonical;
use std::path::PathBuf;

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
    let games: Vec<GameStats> = if a.records.is_empty() {
        let kinds: Vec<SeatKind> = match seat::automatic(
            &players,
            &a.seats,
            "simulated games have no human seats (read human games with --records)",
        ) {
            Ok(k) => k,
            Err(m) => {
                eprintln!("error: {m}");
                return 1;
            }
        };
        let pb = bar(a.games, "simulating");
        let mut writer = match a.record.as_deref().map(RecordWriter::open).transpose() {
            Ok(w) => w,
            Err(c) => return c,
        };
        let kind_names: Vec<String> = kinds.iter().map(SeatKind::name).collect();
        let mut out = Vec::new();
        for g in 0..a.games {
            // one game at a time, so that its record can be written as it ends
            let r = stats::simulate_with(
                game.clone(),
                &kinds,
                a.seed.wrapping_add(g),
                a.max_chronons,
                &settings,
                |s, error| {
                    if let Some(w) = writer.as_mut() {
                        let rec = Record::of_session(
                            s,
                            &game_name(&a.game),
                            &src,
                            &kind_names,
                            &[],
                            error,
                        );
                        if w.write(&rec).is_err() {
                            problems += 1;
                        }
                    }
                },
            );
            match r {
                Ok(gs) => out.push(gs),
                Err(e) => {
                    pb.finish_and_clear();
                    render::runtime_error(&name, &src, &e, "");
                    return 2;
                }
            }
            pb.inc(1);
        }
        pb.finish_and_clear();
        out
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
    if a.csv {
        print!("{}", report.to_csv());
    } else {
        match a.format {
            crate::commands::CheckFormat::Json => match serde_json::to_string(&report) {
                Ok(j) => println!("{j}"),
                Err(e) => {
                    eprintln!("error: {e}");
                    return 2;
                }
            },
            crate::commands::CheckFormat::Human => {
                println!("{}: {}", name, describe(a, &games));
                print!("{}", report.to_text());
            }
        }
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
