//! `sidl trace`: the machine-readable trajectory format (`../shared/trace-format.md`). Pure: the
//! caller prints the lines.

use super::session::{Actions, Owner, RuntimeError, Session, Settings};
use super::Game;
use crate::diag::{Diagnostic, Span};
use crate::term::Term;
use crate::write::canonical;
use std::sync::Arc;

/// One line of a trace script.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptItem {
    Submit {
        player: Term,
        switch: Term,
        action: Term,
    },
    Nature {
        switch: Term,
        action: Term,
    },
    Chronon,
}

/// Parses a script: `submit(P, S, A).`, `nature(S, A).`, `chronon.`; `%` comments.
pub fn parse_script(src: &str) -> Result<Vec<(ScriptItem, Span)>, Vec<Diagnostic>> {
    let parsed = crate::syntax::parse_file(src);
    let mut diags = parsed.diagnostics;
    let mut items = Vec::new();
    for c in parsed.clauses {
        let t = &c.term;
        let item = match (t.functor().map(|(n, a)| (n.name(), a)), t.args()) {
            (Some(("submit", 3)), [p, s, a]) => ScriptItem::Submit {
                player: p.clone(),
                switch: s.clone(),
                action: a.clone(),
            },
            (Some(("nature", 2)), [s, a]) => ScriptItem::Nature {
                switch: s.clone(),
                action: a.clone(),
            },
            (Some(("chronon", 0)), _) => ScriptItem::Chronon,
            _ => {
                diags.push(
                    Diagnostic::error("E0901", format!("unknown script command {}", canonical(t)), c.span)
                        .with_help("a script has submit(Player, Switch, Action)., nature(Switch, Action). and chronon. lines"),
                );
                continue;
            }
        };
        items.push((item, c.span));
    }
    if diags.iter().any(|d| d.is_error()) {
        return Err(diags);
    }
    Ok(items)
}

/// What `sidl trace` prints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceOutput {
    /// JSON state lines (stdout).
    pub lines: Vec<String>,
    /// Messages for stderr (rejected submissions).
    pub messages: Vec<String>,
    /// 0: ran to the end; 2: a runtime error (the last line is the error line).
    pub exit_code: i32,
    /// The runtime error that ended the trace (for its diagnostic).
    pub error: Option<RuntimeError>,
}

/// Escapes a JSON string body: only `"`, `\` and control characters (`\u00XX`, lower-case hex).
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    crate::stable_sort::sort(&mut v);
    v
}

fn json_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| json_string(s)).collect();
    format!("[{}]", parts.join(","))
}

/// The state line of the session's current state.
pub fn state_line(s: &mut Session) -> Result<String, RuntimeError> {
    let st = s.state().clone();
    let facts = sorted(st.facts.terms().map(canonical).collect());
    let mut accounts: Vec<(String, String)> = st
        .player_terms()
        .zip(&st.accounts)
        .map(|(p, a)| (canonical(p), canonical(a)))
        .collect();
    crate::stable_sort::sort(&mut accounts);
    let switches = s.switches()?;
    let mut legal: Vec<(String, String)> = switches
        .iter()
        .map(|sw| {
            let owner = match &sw.owner_term {
                Some(t) => json_string(&canonical(t)),
                None => "null".to_string(),
            };
            let body = match &sw.actions {
                Actions::Finite(a) => format!(
                    "\"actions\":{}",
                    json_list(&sorted(a.iter().map(canonical).collect()))
                ),
                Actions::Unlimited(t) => format!(
                    "\"unlimited\":{}",
                    json_list(&sorted(t.iter().map(canonical).collect()))
                ),
            };
            let id = canonical(&sw.id);
            (
                id.clone(),
                format!(
                    "{{\"switch\":{},\"owner\":{},{}}}",
                    json_string(&id),
                    owner,
                    body
                ),
            )
        })
        .collect();
    crate::stable_sort::sort(&mut legal);
    let players: Vec<Term> = st.player_terms().cloned().collect();
    let mut visible: Vec<(String, Vec<String>)> = Vec::new();
    for p in &players {
        let v = s.view(Some(p))?;
        visible.push((canonical(p), sorted(v.iter().map(canonical).collect())));
    }
    crate::stable_sort::sort(&mut visible);
    let accounts_json: Vec<String> = accounts
        .iter()
        .map(|(k, v)| format!("{}:{}", json_string(k), v))
        .collect();
    let legal_json: Vec<String> = legal.into_iter().map(|(_, j)| j).collect();
    let visible_json: Vec<String> = visible
        .iter()
        .map(|(k, v)| format!("{}:{}", json_string(k), json_list(v)))
        .collect();
    Ok(format!(
        "{{\"chronon\":{},\"facts\":{},\"accounts\":{{{}}},\"legal\":[{}],\"visible\":{{{}}},\"terminal\":{}}}",
        st.chronon,
        json_list(&facts),
        accounts_json.join(","),
        legal_json.join(","),
        visible_json.join(","),
        switches.is_empty()
    ))
}

fn error_line(chronon: u64, e: &RuntimeError) -> String {
    format!(
        "{{\"chronon\":{},\"error\":{}}}",
        chronon,
        json_string(&e.message)
    )
}

impl TraceOutput {
    /// Ends the trace with runtime error `e` in chronon `chronon`.
    fn fail(&mut self, chronon: u64, e: RuntimeError) {
        self.lines.push(error_line(chronon, &e));
        self.exit_code = 2;
        self.error = Some(e);
    }
}

/// Plays `game` as `sidl trace` does: scripted if `script` is given, else random play.
pub fn run_trace(
    game: Arc<Game>,
    seed: u64,
    script: Option<&[ScriptItem]>,
    max_chronons: u64,
    settings: Settings,
) -> TraceOutput {
    run_trace_session(game, seed, script, max_chronons, settings).0
}

/// [`run_trace`], also giving the session at the end (`None` if the game did not start): what
/// `sidl trace --record` makes its record of.
pub fn run_trace_session(
    game: Arc<Game>,
    seed: u64,
    script: Option<&[ScriptItem]>,
    max_chronons: u64,
    settings: Settings,
) -> (TraceOutput, Option<Session>) {
    let mut out = TraceOutput::default();
    let mut s = match Session::new(game, seed, settings) {
        Ok(s) => s,
        Err(e) => {
            out.fail(0, e);
            return (out, None);
        }
    };
    trace_into(&mut s, &mut out, script, max_chronons);
    (out, Some(s))
}

/// The trace of a record ([`super::record::Record`]) replayed on `game` (whose source is `src`):
/// the same lines `sidl trace` printed when the record was made. A record that does not fit the game
/// ends the output with its error.
pub fn replay_trace(
    game: Arc<Game>,
    src: &str,
    record: &super::record::Record,
    base: &Settings,
) -> Result<TraceOutput, super::record::RecordError> {
    let mut out = TraceOutput::default();
    // in interrupt mode `sidl trace` prints a line after each chronon it runs itself (`chronon.`,
    // or random play's clock), which has no submission, and none after the transitions that
    // submissions trigger
    let interrupt = record.mode == "interrupt";
    record.replay_with(game, src, base, |s| {
        let triggered = s
            .history()
            .last()
            .is_some_and(|h| !h.submissions.is_empty());
        if !(interrupt && triggered) {
            let line = state_line(s).map_err(|e| format!("{}: {}", e.code, e.message))?;
            out.lines.push(line);
        }
        Ok(())
    })?;
    Ok(out)
}

fn trace_into(
    s: &mut Session,
    out: &mut TraceOutput,
    script: Option<&[ScriptItem]>,
    max_chronons: u64,
) {
    macro_rules! emit {
        () => {
            match state_line(s) {
                Ok(l) => out.lines.push(l),
                Err(e) => {
                    out.fail(s.chronon(), e);
                    return;
                }
            }
        };
    }
    macro_rules! chronon {
        () => {{
            if let Err(e) = s.run_chronon() {
                out.fail(s.chronon() + 1, e);
                return;
            }
            emit!();
        }};
    }
    emit!();
    let terminal = |s: &mut Session| s.switches().map(|sw| sw.is_empty()).unwrap_or(true);
    match script {
        Some(items) => {
            for item in items {
                if terminal(s) || s.chronon() >= max_chronons {
                    break;
                }
                let r = match item {
                    ScriptItem::Submit {
                        player,
                        switch,
                        action,
                    } => s.submit(player, switch, action),
                    ScriptItem::Nature { switch, action } => s.set_nature(switch, action),
                    ScriptItem::Chronon => {
                        chronon!();
                        continue;
                    }
                };
                match r {
                    Ok(Ok(())) => {}
                    Ok(Err(rej)) => {
                        out.messages
                            .push(format!("chronon {}: rejected: {}", s.chronon(), rej))
                    }
                    Err(e) => {
                        out.fail(s.chronon(), e);
                        return;
                    }
                }
            }
        }
        None => {
            while s.chronon() < max_chronons && !terminal(s) {
                if let Err(e) = random_submissions(s) {
                    out.fail(s.chronon(), e);
                    return;
                }
                chronon!();
            }
        }
    }
}

/// Random play: every player-owned legal switch with a finite, non-empty action list gets a uniformly
/// random action (`rng.below(n)`, switches in legal order) from the session's RNG; unlimited switches
/// get none. The random seats' driver ([`crate::seats::random_moves`]) without filling unlimited
/// switches, as the trace format specifies.
pub fn random_submissions(s: &mut Session) -> Result<(), RuntimeError> {
    crate::seats::draw_moves(s, None, false, false, None)
}

/// Counts of a random-play benchmark run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayStats {
    pub chronons: u64,
    pub games: u64,
    /// Evaluations of a state's legal switches with their owners and actions.
    pub legal_computations: u64,
    /// [`PlayWork::Views`]: the switches and facts shown to the players, summed over the states.
    pub shown: u64,
    /// Calls per predicate (most called first), when profiling was asked for.
    pub profile: Vec<((crate::atom::Atom, u32), u64)>,
}

/// What [`random_play_with`] does in each chronon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayWork {
    /// `sidl bench`: random submissions for finite switches ([`random_submissions`]), the chronon
    /// without its record, the new state's legal switches.
    #[default]
    Bench,
    /// `sidl bench --views`: the work of a page (the playground's API loop with every seat random)
    /// or of `sidl serve` per chronon, natively. Random moves for every player, unlimited switches
    /// from `candidate/2` (as the playground's random seats); the chronon with its record (events,
    /// each player's events); then the new state's legal switches and every player's view.
    Views,
}

/// Plays random games back to back (a new game at each terminal state, seeds `seed`, `seed + 1`, ...)
/// until `chronons` chronons have run: what `sidl bench` times. Each chronon includes the random
/// decisions, the chronon and the legal switches of the new state.
pub fn random_play(
    game: Arc<Game>,
    seed: u64,
    chronons: u64,
    settings: Settings,
    profile: bool,
) -> Result<PlayStats, RuntimeError> {
    random_play_with(game, seed, chronons, settings, profile, PlayWork::Bench)
}

/// [`random_play`] doing `work` in each chronon.
pub fn random_play_with(
    game: Arc<Game>,
    seed: u64,
    chronons: u64,
    settings: Settings,
    profile: bool,
    work: PlayWork,
) -> Result<PlayStats, RuntimeError> {
    let mut stats = PlayStats::default();
    let mut game_seed = seed;
    let mut last: Option<Session> = None;
    while stats.chronons < chronons {
        // the next game reuses the machine (memo table, allocations) of the previous one
        let mut s = match last.take() {
            // in place when the initial state is known (no `init` query, no move of the session)
            Some(mut prev) if prev.restarts_in_place() => {
                prev.restart(game_seed)?;
                prev
            }
            Some(prev) => prev.recycle(game_seed)?,
            None => Session::new(game.clone(), game_seed, settings.clone())?,
        };
        s.set_profiling(profile);
        stats.games += 1;
        game_seed += 1;
        stats.legal_computations += 1;
        while stats.chronons < chronons && !s.switches()?.is_empty() {
            match work {
                PlayWork::Bench => {
                    random_submissions(&mut s)?;
                    // nothing reads the history or the events: no record is kept
                    s.advance(false)?;
                }
                PlayWork::Views => {
                    // every player's random moves (every owner of a player's switch is a player)
                    crate::seats::draw_moves(&mut s, None, true, false, None)?;
                    s.run_chronon()?;
                    show_every_player(&mut s, &mut stats)?;
                }
            }
            stats.chronons += 1;
            stats.legal_computations += 1;
        }
        for (k, n) in s.profile() {
            match stats.profile.iter_mut().find(|(j, _)| *j == k) {
                Some((_, m)) => *m += n,
                None => stats.profile.push((k, n)),
            }
        }
        if s.chronon() == 0 {
            // a game that is terminal at once would loop forever
            return Err(RuntimeError::new(
                crate::solve::errors::codes::TERMINAL_AT_START,
                "bench",
                "the game is terminal in its initial state",
            ));
        }
        last = Some(s);
    }
    crate::stable_sort::sort_by_key(&mut stats.profile, |e| std::cmp::Reverse(e.1));
    Ok(stats)
}

/// [`PlayWork::Views`]' work in a state: every player's legal switches and view (what a page
/// redraws), counted in `stats.shown`.
fn show_every_player(s: &mut Session, stats: &mut PlayStats) -> Result<(), RuntimeError> {
    let switches = s.switches()?;
    let players = s.state().players.clone();
    for p in players.iter().map(|p| p.term()) {
        let own = switches
            .iter()
            .filter(|sw| matches!(&sw.owner, Owner::Player(q) if q == p))
            .count();
        let view = s.view(Some(p))?;
        stats.shown += (own + view.len()) as u64;
    }
    Ok(())
}

/// The session after the first `after` chronons of a script (all of it when `None`), as
/// `sidl trace --script` plays it; a rejected submission or nature action is listed (as `sidl trace`
/// reports it) and changes nothing. `sidl why` and the language server's `sidl.why` start here.
pub fn session_after(
    game: Arc<Game>,
    seed: u64,
    script: &[ScriptItem],
    after: Option<u64>,
    settings: Settings,
) -> Result<(Session, Vec<String>), RuntimeError> {
    let mut s = Session::new(game, seed, settings)?;
    let mut messages = Vec::new();
    for item in script {
        if after.is_some_and(|n| s.chronon() >= n) {
            break;
        }
        let r = match item {
            ScriptItem::Submit {
                player,
                switch,
                action,
            } => s.submit(player, switch, action)?,
            ScriptItem::Nature { switch, action } => s.set_nature(switch, action)?,
            ScriptItem::Chronon => {
                if s.switches()?.is_empty() {
                    break;
                }
                s.run_chronon()?;
                continue;
            }
        };
        if let Err(rej) = r {
            messages.push(format!("chronon {}: rejected: {}", s.chronon(), rej));
        }
    }
    Ok((s, messages))
}
