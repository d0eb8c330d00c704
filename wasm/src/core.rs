//! The playground's logic without the browser: a loaded game and its session behind plain Rust
//! methods that return serialisable DTOs or an error message. `lib.rs` only converts to JavaScript.
//! Terms cross as canonical text; text coming in is parsed with `sidl_engine::syntax::parse_term`.

use serde::Serialize;
use sidl_engine::diag::{ColumnUnit, Diagnostic, LineIndex};
use sidl_engine::game::host::KeywordHost;
use sidl_engine::game::session::ActionSource;
use sidl_engine::game::{Actions, Event, Game, Owner, Session, Settings};
use sidl_engine::solve::{Limits, Query};
use sidl_engine::term::Term;
use sidl_engine::write;
use std::sync::Arc;

/// A diagnostic placed in the source: 1-based line and column, columns and offsets in UTF-16 code
/// units (JavaScript string indices).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticDto {
    pub severity: String,
    pub code: String,
    pub message: String,
    pub help: Option<String>,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// UTF-16 offsets of the span in the whole text.
    pub from: u32,
    pub to: u32,
}

/// A legal switch: its owner (`null`: none), whether chance owns it, and its actions (templates when
/// `unlimited`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwitchDto {
    pub switch: String,
    pub owner: Option<String>,
    pub nature: bool,
    pub unlimited: bool,
    pub actions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubmitDto {
    pub ok: bool,
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AccountDto {
    pub player: String,
    /// Canonical text of the amount.
    pub amount: String,
    pub value: f64,
}

/// An event: `kind` is `created`, `deleted`, `account` or `switch`; `text` a one-line rendering.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventDto {
    pub kind: String,
    pub text: String,
    pub fact: Option<String>,
    pub player: Option<String>,
    pub amount: Option<String>,
    pub switch: Option<String>,
    pub action: Option<String>,
    /// `submitted`, `drawn` or `default`.
    pub how: Option<String>,
    pub ok: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChrononDto {
    /// The chronon number after this one ran.
    pub chronon: u64,
    pub submissions: Vec<[String; 3]>,
    /// The designer's events.
    pub events: Vec<EventDto>,
    /// Per player (in `players()` order), the events that player may see.
    pub player_events: Vec<Vec<EventDto>>,
    pub terminal: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryDto {
    pub vars: Vec<String>,
    /// One line per answer: `X = t, Y = u.` or `true.`
    pub answers: Vec<String>,
    /// The error that ended the query, if any.
    pub error: Option<String>,
    /// Stopped at the answer limit with choicepoints left.
    pub truncated: bool,
}

/// The limit on answers of one `query`.
pub const MAX_ANSWERS: usize = 100;

pub fn diagnostics(source: &str, diags: &[Diagnostic]) -> Vec<DiagnosticDto> {
    let index = LineIndex::new(source);
    let utf16_offset = |byte: u32| -> u32 {
        let mut b = (byte as usize).min(source.len());
        while !source.is_char_boundary(b) {
            b -= 1;
        }
        source[..b].encode_utf16().count() as u32
    };
    diags
        .iter()
        .map(|d| {
            let s = index.line_col(source, d.span.start, ColumnUnit::Utf16);
            let e = index.line_col(source, d.span.end, ColumnUnit::Utf16);
            DiagnosticDto {
                severity: d.severity.as_str().to_string(),
                code: d.code.to_string(),
                message: d.message.clone(),
                help: d.help.clone(),
                line: s.line + 1,
                column: s.col + 1,
                end_line: e.line + 1,
                end_column: e.col + 1,
                from: utf16_offset(d.span.start),
                to: utf16_offset(d.span.end),
            }
        })
        .collect()
}

/// Diagnostics as text, one per line: `line:column: severity[code]: message`.
pub fn diagnostics_text(dtos: &[DiagnosticDto]) -> String {
    dtos.iter()
        .map(|d| {
            format!(
                "{}:{}: {}[{}]: {}",
                d.line, d.column, d.severity, d.code, d.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every diagnostic of a source (errors and warnings).
pub fn check(source: &str) -> Vec<DiagnosticDto> {
    match Game::load(source) {
        Ok((_, d)) | Err(d) => diagnostics(source, &d),
    }
}

pub fn parse(text: &str, what: &str) -> Result<Term, String> {
    match sidl_engine::syntax::parse_term(text) {
        Ok(r) => Ok(r.term),
        Err(d) => {
            let first = d.first().map(|d| d.message.clone()).unwrap_or_default();
            Err(format!("{what} {text:?} does not parse: {first}"))
        }
    }
}

fn show(t: &Term) -> String {
    write::canonical(t)
}

fn event(e: &Event) -> EventDto {
    let mut d = EventDto {
        kind: String::new(),
        text: String::new(),
        fact: None,
        player: None,
        amount: None,
        switch: None,
        action: None,
        how: None,
        ok: None,
    };
    match e {
        Event::Created(f) => {
            d.kind = "created".into();
            d.text = format!("+ {}", show(f));
            d.fact = Some(show(f));
        }
        Event::Deleted(f) => {
            d.kind = "deleted".into();
            d.text = format!("- {}", show(f));
            d.fact = Some(show(f));
        }
        Event::Account { player, amount } => {
            d.kind = "account".into();
            d.text = format!("{} gets {}", show(player), show(amount));
            d.player = Some(show(player));
            d.amount = Some(show(amount));
        }
        Event::Switch {
            switch,
            action,
            how,
            ok,
        } => {
            let how = match how {
                ActionSource::Submitted => "submitted",
                ActionSource::Drawn => "drawn",
                ActionSource::Default => "default",
            };
            d.kind = "switch".into();
            d.text = format!(
                "{} ← {} ({how}{})",
                show(switch),
                show(action),
                if *ok { "" } else { ", do/1 failed" }
            );
            d.switch = Some(show(switch));
            d.action = Some(show(action));
            d.how = Some(how.into());
            d.ok = Some(*ok);
        }
    }
    d
}

fn amount_value(t: &Term) -> f64 {
    match t {
        Term::Int(i) => *i as f64,
        Term::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// A loaded game and one session of it.
pub struct Core {
    game: Arc<Game>,
    warnings: Vec<DiagnosticDto>,
    session: Session,
}

impl Core {
    /// Loads a game and starts a session with seed 1. `Err`: the diagnostics as text (errors block).
    pub fn new(source: &str) -> Result<Core, String> {
        let (game, diags) = match Game::load(source) {
            Ok(g) => g,
            Err(d) => return Err(diagnostics_text(&diagnostics(source, &d))),
        };
        let game = Arc::new(game);
        let session = Session::new(game.clone(), 1, Settings::default()).map_err(|e| e.message)?;
        Ok(Core {
            game,
            warnings: diagnostics(source, &diags),
            session,
        })
    }

    /// The load's non-blocking diagnostics.
    pub fn warnings(&self) -> &[DiagnosticDto] {
        &self.warnings
    }

    /// Restarts the game with a seed.
    pub fn start(&mut self, seed: u64) -> Result<(), String> {
        self.session =
            Session::new(self.game.clone(), seed, Settings::default()).map_err(|e| e.message)?;
        Ok(())
    }

    pub fn chronon(&self) -> u64 {
        self.session.chronon()
    }

    pub fn players(&self) -> Vec<String> {
        self.session.players().iter().map(show).collect()
    }

    pub fn view(&mut self, player: Option<&str>) -> Result<Vec<String>, String> {
        let p = player.map(|p| parse(p, "player")).transpose()?;
        let facts = self.session.view(p.as_ref()).map_err(|e| e.message)?;
        Ok(facts.iter().map(show).collect())
    }

    pub fn switches(&mut self, player: Option<&str>) -> Result<Vec<SwitchDto>, String> {
        let p = player.map(|p| parse(p, "player")).transpose()?;
        let all = self.session.switches().map_err(|e| e.message)?;
        Ok(all
            .iter()
            .filter(|s| match &p {
                Some(p) => s.owner == Owner::Player(p.clone()),
                None => true,
            })
            .map(|s| {
                let (unlimited, acts) = match &s.actions {
                    Actions::Finite(a) => (false, a),
                    Actions::Unlimited(t) => (true, t),
                };
                SwitchDto {
                    switch: show(&s.id),
                    owner: s.owner_term.as_ref().map(show),
                    nature: s.owner.is_nature(),
                    unlimited,
                    actions: acts.iter().map(show).collect(),
                }
            })
            .collect())
    }

    pub fn submit(
        &mut self,
        player: &str,
        switch: &str,
        action: &str,
    ) -> Result<SubmitDto, String> {
        let p = parse(player, "player")?;
        let s = parse(switch, "switch")?;
        let a = match parse(action, "action") {
            Ok(a) => a,
            Err(reason) => {
                return Ok(SubmitDto {
                    ok: false,
                    reason: Some(reason),
                })
            }
        };
        Ok(
            match self.session.submit(&p, &s, &a).map_err(|e| e.message)? {
                Ok(()) => SubmitDto {
                    ok: true,
                    reason: None,
                },
                Err(r) => SubmitDto {
                    ok: false,
                    reason: Some(r.0),
                },
            },
        )
    }

    /// Pending submissions `[player, switch, action]`.
    pub fn pending(&self) -> Vec<[String; 3]> {
        self.session
            .pending()
            .iter()
            .map(|s| [show(&s.player), show(&s.switch), show(&s.action)])
            .collect()
    }

    /// Random actions for every finite switch owned by one of `players` (all players for `None`),
    /// drawn from the session's RNG (same seed, same choices).
    pub fn random_moves(&mut self, players: Option<&[String]>) -> Result<(), String> {
        let only = players
            .map(|ps| {
                ps.iter()
                    .map(|p| parse(p, "player"))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let switches = self.session.switches().map_err(|e| e.message)?;
        for sw in switches.iter() {
            let (Owner::Player(p), Actions::Finite(acts)) = (&sw.owner, &sw.actions) else {
                continue;
            };
            if acts.is_empty() || only.as_ref().is_some_and(|o| !o.contains(p)) {
                continue;
            }
            let i = self.session.rng().below(acts.len() as u64) as usize;
            let a = acts[i].clone();
            if let Err(r) = self.session.submit(p, &sw.id, &a).map_err(|e| e.message)? {
                return Err(r.0);
            }
        }
        Ok(())
    }

    pub fn run_chronon(&mut self) -> Result<ChrononDto, String> {
        let rec = self.session.run_chronon().map_err(|e| e.message)?;
        let submissions = rec
            .submissions
            .iter()
            .map(|s| [show(&s.player), show(&s.switch), show(&s.action)])
            .collect();
        let events = rec.events.iter().map(event).collect();
        let player_events = rec
            .player_events
            .iter()
            .map(|es| es.iter().map(event).collect())
            .collect();
        let terminal = self.is_terminal()?;
        Ok(ChrononDto {
            chronon: self.session.chronon(),
            submissions,
            events,
            player_events,
            terminal,
        })
    }

    pub fn accounts(&self) -> Vec<AccountDto> {
        self.session
            .accounts()
            .iter()
            .map(|(p, a)| AccountDto {
                player: show(p),
                amount: show(a),
                value: amount_value(a),
            })
            .collect()
    }

    /// Back to the state before the last chronon; its submissions are withdrawn. `false`: nothing
    /// to undo.
    pub fn undo(&mut self) -> bool {
        let done = self.session.undo();
        if done {
            self.session.clear_pending();
        }
        done
    }

    pub fn is_terminal(&mut self) -> Result<bool, String> {
        self.session.is_terminal().map_err(|e| e.message)
    }

    pub fn snapshot(&self) -> String {
        self.session.snapshot_json()
    }

    pub fn restore(&mut self, json: &str) -> Result<(), String> {
        self.session = Session::restore_json(self.game.clone(), json, Settings::default())
            .map_err(|e| e.message)?;
        Ok(())
    }

    /// Every answer (up to [`MAX_ANSWERS`]) of a goal against the game's rules, the keyword
    /// predicates (`fact/1`, `player/1`, ...) reading the current state.
    pub fn query(&self, goal: &str) -> Result<QueryDto, String> {
        let read = sidl_engine::syntax::parse_term(goal)
            .map_err(|d| diagnostics_text(&diagnostics(goal, &d)))?;
        let limits = Limits {
            max_inferences: 5_000_000,
            ..Limits::default()
        };
        let mut q = Query::new(&self.game.program, &read.term, &read.var_names, limits);
        let state = self.session.state().clone();
        let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
        let vars = q.var_names().to_vec();
        let mut out = QueryDto {
            vars: vars.clone(),
            answers: Vec::new(),
            error: None,
            truncated: false,
        };
        while out.answers.len() < MAX_ANSWERS {
            match q.next_answer_with(&mut host) {
                Some(Ok(values)) => out.answers.push(answer_text(&vars, &values)),
                Some(Err(e)) => {
                    out.error = Some(e.message);
                    break;
                }
                None => break,
            }
        }
        if out.error.is_none() && out.answers.len() == MAX_ANSWERS {
            out.truncated = q.may_have_more();
        }
        Ok(out)
    }
}

fn answer_text(names: &[String], values: &[Term]) -> String {
    let shown: Vec<String> = names
        .iter()
        .zip(values)
        .filter(|(n, v)| !matches!(v, Term::Var(_)) || !n.starts_with('_'))
        .map(|(n, v)| format!("{} = {}", n, write::canonical_shared(v)))
        .collect();
    if shown.is_empty() {
        "true.".to_string()
    } else {
        format!("{}.", shown.join(", "))
    }
}
