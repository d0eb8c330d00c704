//! Statistics of many games in the browser (the playground's Statistics panel, docs/stats.md) and
//! records of played games (docs/records.md). Every number is the engine's
//! ([`sidl_engine::stats`], the code of `sidl stats`); every record is written and read by the
//! engine's [`Record`]. This file keeps a run's state between the steps the page asks for, so that
//! the worker can report progress and the page can stop between steps, and converts.
//!
//! A run ([`StatsRun`]) either simulates games with automatic seats (seeds `seed`, `seed + 1`, ...,
//! as `sidl stats GAME --games N --seed S --seat P=KIND ...`) or replays the records of a records
//! file (as `sidl stats GAME --records FILE`); [`StatsRun::step`] plays or replays the next few
//! games, [`StatsRun::result`] reports on the games done so far.

use crate::core::{runtime, Core, CoreError};
#[cfg(feature = "analyse")]
use crate::{count_of, seed_of, to_js};
use crate::{err, SidlGame};
use serde::Serialize;
use sidl_engine::game::record::{read_records, Record};
use sidl_engine::game::{Game, Settings};
use sidl_engine::seats::Seat;
use sidl_engine::stats::{self, GameStats, Report};
use sidl_engine::write::canonical;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// Where a run's games come from.
enum Games {
    /// Simulated with these seats (player order), `total` games from seed `seed`.
    Simulate {
        name: String,
        seats: Vec<Seat>,
        kinds: Vec<String>,
        seed: u64,
        max_chronons: u64,
    },
    /// The records of a records file, with their 1-based line numbers.
    Records(Vec<(usize, Record)>),
}

/// A run of many games: its source of games, the games counted so far, the problems met (a line
/// that is not a record, a record that does not replay), and the records of the simulated games.
pub struct StatsRun {
    game: Arc<Game>,
    source: String,
    settings: Settings,
    players: Vec<String>,
    games: Games,
    total: u64,
    next: u64,
    done: Vec<GameStats>,
    problems: Vec<String>,
    records: Vec<String>,
}

/// How far a run is: `done` of `total` games (or records) played or replayed, `counted` of them in
/// the report (a record that does not replay is left out), the problems met so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatsProgressDto {
    pub done: u64,
    pub total: u64,
    pub counted: u64,
    pub finished: bool,
    pub problems: Vec<String>,
}

/// One game's numbers, for the plots: its group, chronons, final accounts (player order) and the
/// numeric answers of `metric/2` (`[name, value]`; answers that are not numbers are left out).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatsGameDto {
    pub group: String,
    pub chronons: u64,
    pub terminal: bool,
    pub error: Option<String>,
    pub accounts: Vec<f64>,
    pub metrics: Vec<(String, f64)>,
}

/// The report of the games done so far: `report` is the engine's [`Report`] exactly as `sidl stats
/// --format json` prints it; `text` and `csv` its table and CSV forms (`sidl stats`, `sidl stats
/// --csv`); `games` each game's numbers (for the histograms).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatsResultDto {
    pub players: Vec<String>,
    pub report: Report,
    pub text: String,
    pub csv: String,
    pub games: Vec<StatsGameDto>,
    pub progress: StatsProgressDto,
}

/// The index of the player written `text` (its term; a bare atom `bob` also names `[bob]`, as
/// `sidl stats --seat` reads it) and its canonical text.
fn player_index(players: &[String], text: &str) -> Result<(usize, String), CoreError> {
    let t = crate::core::parse(text, "player")?;
    let name = canonical(&t);
    let listed = canonical(&sidl_engine::term::Term::list(vec![t.clone()]));
    let found = players.iter().position(|q| *q == name).or_else(|| {
        matches!(t, sidl_engine::term::Term::Atom(_))
            .then(|| players.iter().position(|q| *q == listed))
            .flatten()
    });
    match found {
        Some(i) => Ok((i, players[i].clone())),
        None => Err(format!(
            "{name} is not a player; the players are {}",
            players.join(", ")
        )
        .into()),
    }
}

/// The seats of simulated games from `[player, kind]` pairs: players not named play at random (as
/// `sidl stats` without `--seat`); a human seat is refused (simulated games have no people).
fn automatic_seats(players: &[String], pairs: &[[String; 2]]) -> Result<Vec<Seat>, CoreError> {
    let mut seats = vec![Seat::Random; players.len()];
    for [p, k] in pairs {
        let (i, name) = player_index(players, p)?;
        let seat = Seat::parse(k)?;
        if seat.is_human() {
            return Err(format!(
                "{name}: simulated games have no human seats (open a records file to count games \
                 people played)"
            )
            .into());
        }
        seats[i] = seat;
    }
    Ok(seats)
}

impl StatsRun {
    fn new(core: &Core, games: Games, total: u64) -> Result<StatsRun, CoreError> {
        let game = core.game().clone();
        let settings = core.settings().clone();
        // the players as the game's initial state has them (the report's rows)
        let s = sidl_engine::game::Session::new(game.clone(), 0, settings.clone())
            .map_err(|e| runtime(core.source(), &e))?;
        Ok(StatsRun {
            players: s.players().iter().map(canonical).collect(),
            game,
            source: core.source().to_string(),
            settings,
            games,
            total,
            next: 0,
            done: Vec::new(),
            problems: Vec::new(),
            records: Vec::new(),
        })
    }

    /// A run that simulates `games` games of the loaded game (named `name` in their records) with
    /// the seats (`[player, kind]` pairs; players not named are random), seeds `seed`, `seed + 1`,
    /// ..., at most `max_chronons` each, in the session's mode and budgets.
    pub fn simulate(
        core: &Core,
        name: &str,
        seats: &[[String; 2]],
        games: u64,
        seed: u64,
        max_chronons: u64,
    ) -> Result<StatsRun, CoreError> {
        let players: Vec<String> = core.players();
        let seats = automatic_seats(&players, seats)?;
        let kinds = seats.iter().map(Seat::name).collect();
        let g = Games::Simulate {
            name: name.to_string(),
            seats,
            kinds,
            seed,
            max_chronons,
        };
        StatsRun::new(core, g, games)
    }

    /// A run over the records of a records file (its text): a line that is not a record is a
    /// problem naming it, the others are replayed step by step.
    pub fn read(core: &Core, text: &str) -> Result<StatsRun, CoreError> {
        let (records, errors) = read_records(text);
        let total = records.len() as u64;
        let mut run = StatsRun::new(core, Games::Records(records), total)?;
        run.problems = errors.iter().map(|e| format!("{e}; left out")).collect();
        Ok(run)
    }

    /// Plays (or replays) the next `max_games` games at most.
    pub fn step(&mut self, max_games: u64) -> Result<StatsProgressDto, CoreError> {
        let end = self.total.min(self.next.saturating_add(max_games.max(1)));
        while self.next < end {
            let k = self.next;
            match &self.games {
                Games::Simulate {
                    name,
                    seats,
                    kinds,
                    seed,
                    max_chronons,
                } => {
                    let (source, records) = (&self.source, &mut self.records);
                    let g = stats::simulate_with(
                        self.game.clone(),
                        seats,
                        seed.wrapping_add(k),
                        *max_chronons,
                        &self.settings,
                        |s, error| {
                            let r = Record::of_session(s, name, source, kinds, &[], error);
                            records.push(r.to_line());
                        },
                    )
                    .map_err(|e| runtime(&self.source, &e))?;
                    self.done.push(g);
                }
                Games::Records(records) => {
                    let (line, r) = &records[k as usize];
                    match stats::of_record(self.game.clone(), &self.source, r, &self.settings) {
                        Ok(g) => self.done.push(g),
                        Err(e) => self
                            .problems
                            .push(format!("record on line {line}: {e}; left out")),
                    }
                }
            }
            self.next += 1;
        }
        Ok(self.progress())
    }

    pub fn progress(&self) -> StatsProgressDto {
        StatsProgressDto {
            done: self.next,
            total: self.total,
            counted: self.done.len() as u64,
            finished: self.next >= self.total,
            problems: self.problems.clone(),
        }
    }

    /// The report of the games done so far (all of them once finished; fewer after a stop).
    pub fn result(&self) -> StatsResultDto {
        let mut report = Report::of(&self.players, &self.done);
        // the players' labels, as `sidl stats` gives them (the canonical terms stay the keys)
        let seed = match &self.games {
            Games::Simulate { seed, .. } => *seed,
            Games::Records(_) => 0,
        };
        report.label_players(&sidl_engine::game::present::player_labels(
            &self.game, seed, None,
        ));
        StatsResultDto {
            players: self.players.clone(),
            text: report.to_text(),
            csv: report.to_csv(),
            report,
            games: self
                .done
                .iter()
                .map(|g| StatsGameDto {
                    group: g.group.clone(),
                    chronons: g.chronons,
                    terminal: g.terminal,
                    error: g.error.clone(),
                    accounts: g.accounts.clone(),
                    metrics: g
                        .metrics
                        .iter()
                        .filter_map(|(n, v)| v.as_ref().ok().map(|v| (n.clone(), *v)))
                        .collect(),
                })
                .collect(),
            progress: self.progress(),
        }
    }

    /// The records of the simulated games so far, one line each (`\n`-terminated): a records file.
    pub fn records(&self) -> String {
        let mut out = String::new();
        for r in &self.records {
            out.push_str(r);
            out.push('\n');
        }
        out
    }
}

/// The record of `core`'s session as it is now (every chronon of its history), written by the
/// engine's [`Record::of_session`]: `name` is the game's name, `seats` the `[player, kind]` pairs
/// of the seats (`human`, `random`, an AI spec; players not named are `human`). One line, no
/// newline.
pub fn session_record(
    core: &mut Core,
    name: &str,
    seats: &[[String; 2]],
) -> Result<String, CoreError> {
    let players = core.players();
    let mut kinds = vec!["human".to_string(); players.len()];
    for [p, k] in seats {
        let (i, _) = player_index(&players, p)?;
        kinds[i] = Seat::parse(k)?.name();
    }
    let source = core.source().to_string();
    let r = Record::of_session(core.session_mut(), name, &source, &kinds, &[], None);
    Ok(r.to_line())
}

fn pairs(seats: JsValue, what: &str) -> Result<Vec<[String; 2]>, js_sys::Error> {
    if seats.is_null() || seats.is_undefined() {
        return Ok(Vec::new());
    }
    serde_wasm_bindgen::from_value(seats).map_err(|e| err(format!("{what}: {e}")))
}

/// The runs of the Statistics panel: in the on-demand build only (the worker loads it the first
/// time the panel runs, as for Analyse: docs/wasm.md).
#[cfg(feature = "analyse")]
#[wasm_bindgen]
impl SidlGame {
    /// Starts a run of `games` simulated games of this game (`name`: the game's name in their
    /// records), seats `[player, kind]` (kind `random`, `minimax:DEPTH`, `mcts:ITERATIONS`, with an
    /// optional objective; players not named play at random; `human` throws), seeds `seed`, `seed +
    /// 1`, ..., at most `maxChronons` chronons each, in the session's mode. Nothing runs yet: call
    /// `statsStep` until it is `finished`. Replaces any earlier run.
    #[wasm_bindgen(js_name = statsSimulate, unchecked_return_type = "StatsProgress")]
    pub fn stats_simulate(
        &mut self,
        name: &str,
        #[wasm_bindgen(unchecked_param_type = "[string, string][]")] seats: JsValue,
        games: f64,
        seed: f64,
        #[wasm_bindgen(js_name = maxChronons)] max_chronons: f64,
    ) -> Result<JsValue, js_sys::Error> {
        let seats = pairs(seats, "statsSimulate")?;
        let run = StatsRun::simulate(
            &self.core,
            name,
            &seats,
            count_of(games, "games")?,
            seed_of(seed)?,
            count_of(max_chronons, "maxChronons")?,
        )
        .map_err(err)?;
        let p = run.progress();
        self.stats = Some(run);
        to_js(&p)
    }

    /// Starts a run over the records of a records file (its text, JSON lines: docs/records.md),
    /// replayed on this game; lines that are not records are `problems` naming their line. Call
    /// `statsStep` until it is `finished`. Replaces any earlier run.
    #[wasm_bindgen(js_name = statsRead, unchecked_return_type = "StatsProgress")]
    pub fn stats_read(&mut self, text: &str) -> Result<JsValue, js_sys::Error> {
        let run = StatsRun::read(&self.core, text).map_err(err)?;
        let p = run.progress();
        self.stats = Some(run);
        to_js(&p)
    }

    /// Plays (or replays) the next `maxGames` games of the run at most; how far it is. A record
    /// that does not replay is a problem naming its line (the run goes on); a runtime error in a
    /// game's initial state throws.
    #[wasm_bindgen(js_name = statsStep, unchecked_return_type = "StatsProgress")]
    pub fn stats_step(&mut self, max_games: f64) -> Result<JsValue, js_sys::Error> {
        let n = count_of(max_games, "maxGames")?;
        let run = self
            .stats
            .as_mut()
            .ok_or_else(|| err("no statistics run was started"))?;
        to_js(&run.step(n).map_err(err)?)
    }

    /// The report of the run's games done so far (the engine's, as `sidl stats` makes it).
    #[wasm_bindgen(js_name = statsResult, unchecked_return_type = "StatsResult")]
    pub fn stats_result(&self) -> Result<JsValue, js_sys::Error> {
        let run = self
            .stats
            .as_ref()
            .ok_or_else(|| err("no statistics run was started"))?;
        to_js(&run.result())
    }

    /// The records (sidl-record/1, one JSON line each) of the run's simulated games so far (`""`
    /// for a run over a records file).
    #[wasm_bindgen(js_name = statsRecords)]
    pub fn stats_records(&self) -> Result<String, js_sys::Error> {
        let run = self
            .stats
            .as_ref()
            .ok_or_else(|| err("no statistics run was started"))?;
        Ok(run.records())
    }
}

#[wasm_bindgen]
impl SidlGame {
    /// The record (sidl-record/1, one JSON line, no newline) of the session as it is now: `name`
    /// is the game's name, `seats` the `[player, kind]` pairs of its seats (players not named are
    /// `human`). `sidl trace GAME --replay FILE` replays it.
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn record(
        &mut self,
        name: &str,
        #[wasm_bindgen(unchecked_param_type = "[string, string][]")] seats: JsValue,
    ) -> Result<String, js_sys::Error> {
        let seats = pairs(seats, "record")?;
        session_record(&mut self.core, name, &seats).map_err(err)
    }
}
