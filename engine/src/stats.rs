//! Statistics of many played games (`sidl stats`, docs/stats.md): what happened in games simulated
//! with given seats or read from records ([`crate::game::record`]). Pure: the caller plays or reads
//! the games and prints the report.
//!
//! One game's numbers are a [`GameStats`], gathered by a [`Tracker`] while the game is played or
//! replayed; [`Report::of`] aggregates them. The play statistics follow Ludii's outcome metrics
//! (`Evaluation/src/metrics/single/outcome/` of Ludeme/Ludii: Completion, Drawishness, Timeouts,
//! AdvantageP1, Balance), with "the winner" being the player with the strictly highest final
//! account, as `sidl tournament` counts wins.

pub mod plot;
pub mod sweep;

use crate::ai::sim::METRIC;
use crate::atom::Atom;
use crate::game::record::Record;
use crate::game::{Actions, Owner, RuntimeError, Session, Settings};
use crate::seats::{self, Round, Seat};
use crate::term::Term;
use crate::write::canonical;
use serde::Serialize;
use std::sync::Arc;

/// The most answers of `metric/2` read at the end of a game.
pub const MAX_METRICS: usize = 64;

/// One game's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct GameStats {
    /// The group the game belongs to (a record's `group`, else its seats, e.g. `[p1]=mcts:200`).
    pub group: String,
    pub chronons: u64,
    /// The final state is terminal (no legal switch).
    pub terminal: bool,
    /// The game stopped on a runtime error (its message).
    pub error: Option<String>,
    /// Final accounts in player order (numbers; a non-number amount counts as 0).
    pub accounts: Vec<f64>,
    /// Per player: decisions (a legal finite switch the player owns, in a state where it chose) and
    /// the total number of actions those switches offered.
    pub decisions: Vec<(u64, u64)>,
    /// The answers of the game's `metric(Name, Value)` at the end, by name; an answer that is not a
    /// number, or a hook that threw, is an `Err` with the reason.
    pub metrics: Vec<(String, Result<f64, String>)>,
}

/// Gathers a game's numbers while it is played: call [`Tracker::before_chronon`] in every state in
/// which the players choose, then [`Tracker::finish`].
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    decisions: Vec<(u64, u64)>,
}

impl Tracker {
    /// Counts the decisions of the state: every legal finite switch owned by a player, with its
    /// number of actions (unlimited switches have no count and are left out).
    pub fn before_chronon(&mut self, s: &mut Session) -> Result<(), RuntimeError> {
        let players = s.players();
        if self.decisions.len() < players.len() {
            self.decisions.resize(players.len(), (0, 0));
        }
        for sw in s.switches()?.iter() {
            let (Owner::Player(p), Actions::Finite(a)) = (&sw.owner, &sw.actions) else {
                continue;
            };
            if let Some(i) = players.iter().position(|q| q == p) {
                self.decisions[i].0 += 1;
                self.decisions[i].1 += a.len() as u64;
            }
        }
        Ok(())
    }

    /// The game's numbers at its end (`error`: the runtime error that stopped it, if one did).
    pub fn finish(self, s: &mut Session, group: &str, error: Option<&RuntimeError>) -> GameStats {
        let n = s.players().len();
        let mut decisions = self.decisions;
        decisions.resize(n, (0, 0));
        let terminal = s.switches().map(|sw| sw.is_empty()).unwrap_or(false);
        GameStats {
            group: group.to_string(),
            chronons: s.chronon(),
            terminal,
            error: error.map(|e| format!("{}: {}", e.code, e.message)),
            accounts: s.state().account_values(),
            decisions,
            metrics: metrics(s),
        }
    }
}

/// The answers of the game's `metric(Name, Value)` hook in the current state (none without it). A
/// clause that throws gives an error answer in its place (the answers before it are kept); a
/// budget error, which `catch/3` cannot catch, gives one error answer. When every clause names its
/// metric (a ground first argument), each name is asked on its own, so an error is reported under
/// the metric's name; otherwise under `metric/2`.
pub fn metrics(s: &mut Session) -> Vec<(String, Result<f64, String>)> {
    let m = Atom::new(METRIC.0);
    let Some(pred) = s.game().program.pred(m, METRIC.1) else {
        return Vec::new();
    };
    let mut names: Vec<Term> = Vec::new();
    let mut all_named = true;
    for c in &pred.clauses {
        let head = match &c.term {
            Term::Compound(f, args) if f.name() == ":-" && args.len() == 2 => &args[0],
            t => t,
        };
        match head.args().first() {
            Some(n) if n.is_ground() => {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
            _ => all_named = false,
        }
    }
    if !all_named {
        return metric_answers(s, Term::Var(0), "metric/2");
    }
    let mut out = Vec::new();
    for n in names {
        let shown = metric_name(&n);
        out.extend(metric_answers(s, n, &shown));
        if out.len() >= MAX_METRICS {
            out.truncate(MAX_METRICS);
            break;
        }
    }
    out
}

fn metric_name(name: &Term) -> String {
    match name {
        Term::Atom(a) => a.name().to_string(),
        t => canonical(t),
    }
}

/// The answers of `catch(metric(Name, V), E, true)`; an error is reported under `owner`.
fn metric_answers(s: &mut Session, name: Term, owner: &str) -> Vec<(String, Result<f64, String>)> {
    let m = Atom::new(METRIC.0);
    let (v, e) = (Term::Var(1), Term::Var(2));
    let call = Term::new_compound(m, vec![name.clone(), v.clone()]);
    let goal = Term::new_compound(
        Atom::new("catch"),
        vec![call, e.clone(), Term::atom("true")],
    );
    let answer = Term::new_compound(m, vec![name, v, e]);
    let what = if owner == "metric/2" {
        "metric/2".to_string()
    } else {
        format!("metric {owner}")
    };
    match s.query_state(&goal, &answer, MAX_METRICS, "metric/2") {
        Ok(answers) => answers
            .iter()
            .map(|a| {
                let [name, value, error] = a.args() else {
                    return (owner.to_string(), Err("a malformed answer".to_string()));
                };
                if !matches!(error, Term::Var(_)) {
                    return (
                        owner.to_string(),
                        Err(format!("{what} threw {}", canonical(error))),
                    );
                }
                let name = metric_name(name);
                let value = value
                    .as_f64()
                    .ok_or_else(|| format!("metric {name}: {} is not a number", canonical(value)));
                (name, value)
            })
            .collect(),
        Err(e) => vec![(
            owner.to_string(),
            Err(format!("{what} raised {}: {}", e.code, e.message)),
        )],
    }
}

/// Plays `games` games with the seats (seeds `seed`, `seed + 1`, …; at most `max_chronons` each) and
/// gathers their numbers; `progress` is called after each game with the number done. A runtime
/// error stops that game (it is counted with its error), not the others.
pub fn simulate(
    game: Arc<crate::game::Game>,
    seats: &[Seat],
    games: u64,
    seed: u64,
    max_chronons: u64,
    settings: &Settings,
    mut progress: impl FnMut(u64),
) -> Result<Vec<GameStats>, RuntimeError> {
    let mut sim = Simulator::new(game, settings);
    let mut out = Vec::with_capacity(games as usize);
    for g in 0..games {
        out.push(sim.play(seats, seed.wrapping_add(g), max_chronons, |_, _| {})?);
        progress(g + 1);
    }
    Ok(out)
}

/// Plays one game with the seats and gathers its numbers; `at_end` sees the session at the end
/// with the runtime error that stopped it, if one did (to write its record). Only an error of
/// the initial state is returned as an error. [`Simulator::play`] does the same for many games,
/// faster.
pub fn simulate_with(
    game: Arc<crate::game::Game>,
    seats: &[Seat],
    seed: u64,
    max_chronons: u64,
    settings: &Settings,
    at_end: impl FnMut(&mut Session, Option<&RuntimeError>),
) -> Result<GameStats, RuntimeError> {
    Simulator::new(game, settings).play(seats, seed, max_chronons, at_end)
}

/// Plays games of one game one after the other, each on the logic machine of the one before
/// ([`Session::recycle`]: its memo table and allocations; the same games as with a new
/// [`Session`] each, docs/performance.md "Statistics").
pub struct Simulator {
    game: Arc<crate::game::Game>,
    settings: Settings,
    last: Option<Session>,
}

impl Simulator {
    pub fn new(game: Arc<crate::game::Game>, settings: &Settings) -> Simulator {
        Simulator {
            game,
            settings: settings.clone(),
            last: None,
        }
    }

    /// Plays one game with the seats (seed `seed`, at most `max_chronons`) and gathers its
    /// numbers, as [`simulate_with`].
    pub fn play(
        &mut self,
        seats: &[Seat],
        seed: u64,
        max_chronons: u64,
        mut at_end: impl FnMut(&mut Session, Option<&RuntimeError>),
    ) -> Result<GameStats, RuntimeError> {
        let mut s = match self.last.take() {
            Some(prev) => prev.recycle(seed)?,
            None => Session::new(self.game.clone(), seed, self.settings.clone())?,
        };
        let group = s
            .players()
            .iter()
            .zip(seats)
            .map(|(p, k)| format!("{}={}", canonical(p), k.name()))
            .collect::<Vec<_>>()
            .join(" ");
        let mut t = Tracker::default();
        let mut error = None;
        loop {
            match s.is_terminal() {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
            if s.chronon() >= max_chronons {
                break;
            }
            if let Err(e) = t.before_chronon(&mut s) {
                error = Some(e);
                break;
            }
            match seats::round(&mut s, seats, max_chronons) {
                Ok(Round::Ran { .. }) => {}
                Ok(Round::Idle(_)) => break,
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        at_end(&mut s, error.as_ref());
        let stats = t.finish(&mut s, &group, error.as_ref());
        self.last = Some(s);
        Ok(stats)
    }
}

/// Replays a record (on `game`, whose source is `src`) and gathers its numbers; its group is the
/// record's `group`, else its seats.
pub fn of_record(
    game: Arc<crate::game::Game>,
    src: &str,
    record: &Record,
    settings: &Settings,
) -> Result<GameStats, String> {
    let mut t = Tracker::default();
    let mut s = record
        .replay_with(game, src, settings, |s| {
            if s.is_terminal().unwrap_or(true) {
                return Ok(());
            }
            t.before_chronon(s).map_err(|e| e.message)
        })
        .map_err(|e| e.message)?;
    let group = record.group.clone().unwrap_or_else(|| {
        record
            .seats
            .iter()
            .map(|k| format!("{}={}", k.player, k.kind))
            .collect::<Vec<_>>()
            .join(" ")
    });
    let error = record
        .end
        .error
        .as_ref()
        .map(|e| RuntimeError::new("E0944", "record", e.clone()));
    let mut g = t.finish(&mut s, &group, None);
    if let Some(e) = error {
        g.error = Some(e.message);
    }
    Ok(g)
}

/// Mean, sample standard deviation, extremes, median and a 95 % interval of the mean (normal
/// approximation, mean ± 1.96·sd/√n; the mean itself for fewer than two values).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub median: f64,
    pub max: f64,
    pub ci95: [f64; 2],
}

impl Summary {
    pub fn of(values: &[f64]) -> Option<Summary> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let mut sorted = values.to_vec();
        crate::stable_sort::sort_by(&mut sorted, f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let half = if n > 1 {
            1.96 * sd / (n as f64).sqrt()
        } else {
            0.0
        };
        Some(Summary {
            n,
            mean,
            sd,
            min: sorted[0],
            median,
            max: sorted[n - 1],
            ci95: [mean - half, mean + half],
        })
    }
}

/// A share of games with its 95 % Wilson score interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Share {
    pub count: usize,
    pub of: usize,
    pub share: f64,
    pub ci95: [f64; 2],
}

impl Share {
    pub fn of(count: usize, of: usize) -> Share {
        if of == 0 {
            return Share {
                count,
                of,
                share: 0.0,
                ci95: [0.0, 0.0],
            };
        }
        let n = of as f64;
        let p = count as f64 / n;
        let z = 1.96f64;
        let d = 1.0 + z * z / n;
        let c = (p + z * z / (2.0 * n)) / d;
        let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
        Share {
            count,
            of,
            share: p,
            ci95: [(c - h).max(0.0), (c + h).min(1.0)],
        }
    }
}

/// One `metric/2` name over the games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricReport {
    pub name: String,
    pub summary: Option<Summary>,
    /// Games without an answer for this name.
    pub missing: usize,
    /// The first few reasons an answer was not used (not a number, the hook threw).
    pub errors: Vec<String>,
}

/// A player's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerReport {
    pub player: String,
    /// The player's label (`label(player(P), Text)`, docs/reference.md "Labels"), when the game
    /// has one ([`Report::label_players`]); `player` stays the canonical key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub wins: Share,
    pub account: Option<Summary>,
    /// Legal actions per decision (Ludii's branching factor, per player).
    pub branching: Option<f64>,
    pub decisions: u64,
}

/// What happened in a set of games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub games: usize,
    /// Chronons per game.
    pub length: Option<Summary>,
    /// Games that ended in a terminal state (the rest hit the chronon limit, had no seat that
    /// could act, or stopped on an error).
    pub terminal: Share,
    /// Ludii's Timeouts: games that did not reach a terminal state and did not stop on an error.
    pub timeouts: Share,
    /// Games stopped by a runtime error.
    pub errors: Share,
    /// Ludii's Completion: terminal games with a winner.
    pub completion: Share,
    /// Ludii's Drawishness: terminal games without a winner (several tied for the highest account).
    pub drawishness: Share,
    /// Ludii's AdvantageP1: games the first player won.
    pub advantage_first: Share,
    /// Ludii's Balance: 1 − the largest difference between two players' win shares.
    pub balance: f64,
    pub players: Vec<PlayerReport>,
    /// The sum of the final accounts of a game (what the players won or paid in total).
    pub total: Option<Summary>,
    /// The total of every game, when it is the same in all (a constant-sum game in practice).
    pub constant_sum: Option<f64>,
    /// The Gini coefficient of a game's final accounts (games whose accounts are all ≥ 0).
    pub gini: Option<Summary>,
    pub metrics: Vec<MetricReport>,
    /// The same report per group, when the games belong to more than one group.
    pub groups: Vec<(String, Report)>,
    /// The first few errors that stopped games.
    pub error_messages: Vec<String>,
}

/// The Gini coefficient of non-negative values: Σᵢ Σⱼ |xᵢ − xⱼ| / (2 n² mean); 0 when all are 0.
pub fn gini(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| *v < 0.0) {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if mean == 0.0 {
        return Some(0.0);
    }
    let diff: f64 = values
        .iter()
        .flat_map(|a| values.iter().map(move |b| (a - b).abs()))
        .sum();
    Some(diff / (2.0 * n * n * mean))
}

/// The winner of a game: the index of the strictly highest account, if one is.
fn winner(accounts: &[f64]) -> Option<usize> {
    let best = accounts.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut it = accounts.iter().enumerate().filter(|(_, a)| **a == best);
    match (it.next(), it.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

impl Report {
    /// Names the players by their labels (in player order; `None`: no label), here and in every
    /// group: the text names them so, the JSON adds a `label` field.
    pub fn label_players(&mut self, labels: &[Option<String>]) {
        for (p, l) in self.players.iter_mut().zip(labels) {
            p.label = l.clone();
        }
        for (_, g) in &mut self.groups {
            g.label_players(labels);
        }
    }

    /// The report of `games` (`players`: the player terms' text in player order).
    pub fn of(players: &[String], games: &[GameStats]) -> Report {
        let mut report = Report::flat(players, games);
        let mut groups: Vec<&str> = Vec::new();
        for g in games {
            if !groups.contains(&g.group.as_str()) {
                groups.push(&g.group);
            }
        }
        if groups.len() > 1 {
            report.groups = groups
                .iter()
                .map(|name| {
                    let these: Vec<GameStats> =
                        games.iter().filter(|g| g.group == *name).cloned().collect();
                    (name.to_string(), Report::flat(players, &these))
                })
                .collect();
        }
        report
    }

    fn flat(players: &[String], games: &[GameStats]) -> Report {
        let n = games.len();
        let count = |f: &dyn Fn(&GameStats) -> bool| games.iter().filter(|g| f(g)).count();
        let terminal = count(&|g| g.terminal && g.error.is_none());
        let errors = count(&|g| g.error.is_some());
        let won = |g: &GameStats| winner(&g.accounts);
        let completion = count(&|g| g.terminal && g.error.is_none() && won(g).is_some());
        let draws = count(&|g| g.terminal && g.error.is_none() && won(g).is_none());
        let wins: Vec<usize> = (0..players.len())
            .map(|i| count(&|g| won(g) == Some(i)))
            .collect();
        let rates: Vec<f64> = wins.iter().map(|w| *w as f64 / n.max(1) as f64).collect();
        let mut balance = 1.0f64;
        for a in 0..rates.len() {
            for b in a + 1..rates.len() {
                balance = balance.min(1.0 - (rates[a] - rates[b]).abs());
            }
        }
        let totals: Vec<f64> = games.iter().map(|g| g.accounts.iter().sum()).collect();
        let constant_sum = totals
            .first()
            .filter(|t0| totals.iter().all(|t| (t - **t0).abs() <= 1e-9))
            .copied();
        let ginis: Vec<f64> = games.iter().filter_map(|g| gini(&g.accounts)).collect();
        let mut names: Vec<String> = Vec::new();
        for g in games {
            for (m, _) in &g.metrics {
                if !names.contains(m) {
                    names.push(m.clone());
                }
            }
        }
        let metrics = names
            .into_iter()
            .map(|name| {
                let mut values = Vec::new();
                let mut errors = Vec::new();
                let mut missing = 0;
                for g in games {
                    let mut any = false;
                    for (m, v) in &g.metrics {
                        if *m == name {
                            any = true;
                            match v {
                                Ok(x) => values.push(*x),
                                Err(e) if errors.len() < 3 && !errors.contains(e) => {
                                    errors.push(e.clone())
                                }
                                Err(_) => {}
                            }
                        }
                    }
                    missing += usize::from(!any);
                }
                MetricReport {
                    summary: Summary::of(&values),
                    name,
                    missing,
                    errors,
                }
            })
            .collect();
        Report {
            games: n,
            length: Summary::of(&games.iter().map(|g| g.chronons as f64).collect::<Vec<_>>()),
            terminal: Share::of(terminal, n),
            timeouts: Share::of(n - terminal - errors, n),
            errors: Share::of(errors, n),
            completion: Share::of(completion, n),
            drawishness: Share::of(draws, n),
            advantage_first: Share::of(wins.first().copied().unwrap_or(0), n),
            balance,
            players: players
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let (d, a) = games.iter().fold((0, 0), |(d, a), g| {
                        let (gd, ga) = g.decisions.get(i).copied().unwrap_or((0, 0));
                        (d + gd, a + ga)
                    });
                    PlayerReport {
                        player: p.clone(),
                        label: None,
                        wins: Share::of(wins[i], n),
                        account: Summary::of(
                            &games
                                .iter()
                                .filter_map(|g| g.accounts.get(i).copied())
                                .collect::<Vec<_>>(),
                        ),
                        branching: (d > 0).then(|| a as f64 / d as f64),
                        decisions: d,
                    }
                })
                .collect(),
            total: Summary::of(&totals),
            constant_sum,
            gini: Summary::of(&ginis),
            metrics,
            groups: Vec::new(),
            error_messages: games
                .iter()
                .filter_map(|g| g.error.clone())
                .take(3)
                .collect(),
        }
    }

    /// The report as a table for people.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.text_into(&mut out, "");
        for (name, r) in &self.groups {
            out.push_str(&format!("\ngroup {name}\n"));
            r.text_into(&mut out, "  ");
        }
        out
    }

    fn text_into(&self, out: &mut String, ind: &str) {
        let f = |x: f64| fmt_num(x);
        let share = |s: &Share| {
            format!(
                "{} of {} ({:.1} %, 95 % CI {:.1}–{:.1} %)",
                s.count,
                s.of,
                100.0 * s.share,
                100.0 * s.ci95[0],
                100.0 * s.ci95[1]
            )
        };
        let summary = |s: &Option<Summary>| match s {
            Some(s) => format!(
                "mean {} (sd {}, 95 % CI {} to {}), min {}, median {}, max {}",
                f(s.mean),
                f(s.sd),
                f(s.ci95[0]),
                f(s.ci95[1]),
                f(s.min),
                f(s.median),
                f(s.max)
            ),
            None => "–".to_string(),
        };
        let mut line = |k: &str, v: String| out.push_str(&format!("{ind}{k:<22}{v}\n"));
        line("games", self.games.to_string());
        line("chronons per game", summary(&self.length));
        line("terminal", share(&self.terminal));
        line("timeouts", share(&self.timeouts));
        if self.errors.count > 0 {
            line("errors", share(&self.errors));
        }
        line("completion (a winner)", share(&self.completion));
        line("draws", share(&self.drawishness));
        line("first player wins", share(&self.advantage_first));
        line("balance", f(self.balance));
        line("total paid per game", summary(&self.total));
        if let Some(c) = self.constant_sum {
            line("constant sum", f(c));
        }
        line("Gini of accounts", summary(&self.gini));
        for m in &self.metrics {
            let mut v = summary(&m.summary);
            if m.missing > 0 {
                v.push_str(&format!("; {} game(s) without it", m.missing));
            }
            line(&format!("metric {}", m.name), v);
            for e in &m.errors {
                line("", format!("not used: {e}"));
            }
        }
        for e in &self.error_messages {
            line("error", e.clone());
        }
        let w = self
            .players
            .iter()
            .map(|p| p.label.as_ref().unwrap_or(&p.player).chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        out.push_str(&format!(
            "{ind}{:<w$}  {:>6}  {:>7}  {:>12}  {:>10}  {:>22}  {:>9}\n",
            "player", "wins", "share", "mean account", "sd", "95 % CI", "branching"
        ));
        for p in &self.players {
            let (mean, sd, ci) = match &p.account {
                Some(s) => (
                    f(s.mean),
                    f(s.sd),
                    format!("{} to {}", f(s.ci95[0]), f(s.ci95[1])),
                ),
                None => ("–".into(), "–".into(), "–".into()),
            };
            out.push_str(&format!(
                "{ind}{:<w$}  {:>6}  {:>6.1}%  {:>12}  {:>10}  {:>22}  {:>9}\n",
                p.label.as_ref().unwrap_or(&p.player),
                p.wins.count,
                100.0 * p.wins.share,
                mean,
                sd,
                ci,
                p.branching.map(f).unwrap_or_else(|| "–".into())
            ));
        }
    }

    /// The report as CSV rows `group,statistic,subject,n,value,sd,ci_low,ci_high,min,median,max`
    /// (empty cells where a statistic has no such field; group empty for all games).
    pub fn to_csv(&self) -> String {
        let mut out =
            String::from("group,statistic,subject,n,value,sd,ci_low,ci_high,min,median,max\n");
        self.csv_into(&mut out, "");
        for (name, r) in &self.groups {
            r.csv_into(&mut out, name);
        }
        out
    }

    fn csv_into(&self, out: &mut String, group: &str) {
        let q = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let mut row = |stat: &str, subject: &str, cells: [String; 8]| {
            out.push_str(&format!(
                "{},{},{},{}\n",
                q(group),
                stat,
                q(subject),
                cells.join(",")
            ));
        };
        let s_cells = |s: &Summary| {
            [
                s.n.to_string(),
                fmt_num(s.mean),
                fmt_num(s.sd),
                fmt_num(s.ci95[0]),
                fmt_num(s.ci95[1]),
                fmt_num(s.min),
                fmt_num(s.median),
                fmt_num(s.max),
            ]
        };
        let sh_cells = |s: &Share| {
            [
                s.of.to_string(),
                fmt_num(s.share),
                String::new(),
                fmt_num(s.ci95[0]),
                fmt_num(s.ci95[1]),
                String::new(),
                String::new(),
                String::new(),
            ]
        };
        if let Some(s) = &self.length {
            row("chronons", "", s_cells(s));
        }
        row("terminal", "", sh_cells(&self.terminal));
        row("timeouts", "", sh_cells(&self.timeouts));
        row("errors", "", sh_cells(&self.errors));
        row("completion", "", sh_cells(&self.completion));
        row("drawishness", "", sh_cells(&self.drawishness));
        row("advantage_first", "", sh_cells(&self.advantage_first));
        let one = |v: f64| {
            let mut c: [String; 8] = Default::default();
            c[0] = self.games.to_string();
            c[1] = fmt_num(v);
            c
        };
        row("balance", "", one(self.balance));
        if let Some(s) = &self.total {
            row("total", "", s_cells(s));
        }
        if let Some(s) = &self.gini {
            row("gini", "", s_cells(s));
        }
        for p in &self.players {
            row("wins", &p.player, sh_cells(&p.wins));
            if let Some(s) = &p.account {
                row("account", &p.player, s_cells(s));
            }
            if let Some(b) = p.branching {
                row("branching", &p.player, one(b));
            }
        }
        for m in &self.metrics {
            if let Some(s) = &m.summary {
                row("metric", &m.name, s_cells(s));
            }
        }
    }
}

/// Numbers in reports: at most 4 decimals, without trailing zeros (`0.5`, `-1`, `12.3457`).
pub fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_shares_and_gini_match_hand_computations() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!((s.mean, s.median, s.min, s.max), (2.5, 2.5, 1.0, 4.0));
        assert!((s.sd - 1.290_994_448_7).abs() < 1e-9);
        let half = 1.96 * s.sd / 2.0;
        assert!((s.ci95[0] - (2.5 - half)).abs() < 1e-12);
        // Wilson interval of 50 of 100: 0.4038 to 0.5962
        let w = Share::of(50, 100);
        assert!((w.ci95[0] - 0.403_831).abs() < 1e-5, "{w:?}");
        assert!((w.ci95[1] - 0.596_169).abs() < 1e-5, "{w:?}");
        assert_eq!(Share::of(0, 10).ci95[0], 0.0);
        // Gini: (0, 0, 10) → ΣΣ|d| = 40, 2·9·(10/3) = 60 → 2/3
        assert!((gini(&[0.0, 0.0, 10.0]).unwrap() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(gini(&[5.0, 5.0]), Some(0.0));
        assert_eq!(gini(&[-1.0, 1.0]), None);
        assert_eq!(fmt_num(0.50), "0.5");
        assert_eq!(fmt_num(-1.0), "-1");
        assert_eq!(fmt_num(-0.00001), "0");
    }
}
