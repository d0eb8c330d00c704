//! The experimenter's actions on a live session (the monitor, `crate::monitor`): pause and resume,
//! "advance now", replacing a seat's participant by an AI, and the monitor's view of the session
//! (the designer's view: admin only, never sent to a seat).
//!
//! Every action is stored before it is answered: `paused`/`resumed`/`advanced`/`replaced` rows in
//! the event log (`EventRow`), and the session's state in the same order as play's commits. A
//! pause keeps the time left to the deadline in its event (`remaining_ms`); the resume sets the
//! deadline that far after it, so a paused session's countdown stops and continues, also across a
//! restart (the status `paused` is in the session's row). A replacement is applied again on every
//! load ([`super::Actor::load`] reads the `replaced` events).

use super::{now_ms, Actor, Commit, Sender};
use crate::error::ApiError;
use serde_json::{json, Value};
use sidl_engine::game::present::{present, Presentation, Presenter};
use sidl_engine::seats::{self, Seat};

/// How many of the last chronons' events the monitor shows.
const MONITOR_CHRONONS: usize = 12;

impl Actor {
    /// The seat number of the event log's session-wide rows (past the last seat: no seat).
    fn no_seat(&self) -> usize {
        self.names.len()
    }

    fn not_state(&self, want: &str) -> ApiError {
        ApiError::new(
            409,
            if want == "paused" {
                "not_paused"
            } else {
                "not_running"
            },
            format!("the session is {}, not {want}", self.state.status),
        )
    }

    /// One experimenter's action (a [`super::Cmd::Admin`] message), on the driving process.
    pub(super) fn admin(&mut self, msg: &Value) -> Result<Value, ApiError> {
        match msg["op"].as_str().unwrap_or_default() {
            "pause" => self.pause(),
            "resume" => self.resume(),
            "advance" => self.advance_now(),
            "replace" => {
                let seat = msg["seat"]
                    .as_u64()
                    .ok_or_else(|| ApiError::bad_request("bad_message", "no seat number"))?;
                let spec = msg["ai"].as_str().unwrap_or_default();
                self.replace(seat as usize, spec)
            }
            "submit" => {
                let seat = msg["seat"]
                    .as_u64()
                    .ok_or_else(|| ApiError::bad_request("bad_message", "no seat number"))?
                    as usize;
                self.experimenter_submit(seat, msg)
            }
            op => Err(ApiError::bad_request(
                "bad_message",
                format!("unknown action {op:?}"),
            )),
        }
    }

    /// The experimenter's submission for a seat it plays (`experimenter`), from the monitor:
    /// `{"switch", "action"}` or `{"switch", "template", "values"}`, for the current chronon
    /// (or `chronon`, checked as a participant's is). Stored with the source `experimenter`.
    fn experimenter_submit(&mut self, seat: usize, msg: &Value) -> Result<Value, ApiError> {
        if seat >= self.names.len() {
            return Err(ApiError::not_found(
                "unknown_seat",
                format!("the session has no seat {seat}"),
            ));
        }
        if !self.plan.experimenter[seat] {
            return Err(ApiError::new(
                409,
                "not_experimenter",
                format!(
                    "seat {seat} ({}) is not played by the experimenter",
                    self.names[seat]
                ),
            ));
        }
        let chronon = msg["chronon"]
            .as_u64()
            .unwrap_or(self.session.history().len() as u64);
        let switch = msg["switch"]
            .as_str()
            .ok_or_else(|| ApiError::bad_request("bad_message", "no \"switch\""))?;
        let action =
            match (
                msg["action"].as_str(),
                msg["template"].as_u64(),
                msg["values"].as_array(),
            ) {
                (Some(a), None, None) => super::ActionIn::Text(a.to_string()),
                (None, Some(t), Some(vs)) => super::ActionIn::Fill {
                    template: t as usize,
                    values: vs
                        .iter()
                        .map(|v| v.as_str().unwrap_or_default().to_string())
                        .collect(),
                },
                _ => return Err(ApiError::bad_request(
                    "bad_message",
                    "an experimenter's submission has \"action\", or \"template\" and \"values\"",
                )),
            };
        let ack = self.submit_as(seat, chronon, switch, &action, "experimenter")?;
        self.broadcast(0);
        self.advance();
        Ok(ack)
    }

    fn pause(&mut self) -> Result<Value, ApiError> {
        if !self.running() {
            return Err(self.not_state("running"));
        }
        let now = now_ms();
        let remaining = self.state.deadline_ms.map(|d| (d - now).max(0));
        let event = self.event_row(
            self.no_seat(),
            "paused",
            json!({ "remaining_ms": remaining }),
        );
        self.state.status = "paused".into();
        // the event and the state in one transaction (a failed commit reloads both from the store)
        self.persist(Commit {
            state: Some(self.state.clone()),
            events: vec![event],
            ..Commit::default()
        })?;
        self.broadcast(0);
        Ok(json!({ "status": "paused", "remaining_ms": remaining }))
    }

    fn resume(&mut self) -> Result<Value, ApiError> {
        if self.state.status != "paused" {
            return Err(self.not_state("paused"));
        }
        let events = self.store.events(&self.id).map_err(ApiError::storage)?;
        let remaining = events
            .iter()
            .rfind(|e| e.kind == "paused")
            .and_then(|e| serde_json::from_str::<Value>(&e.detail).ok())
            .and_then(|d| d["remaining_ms"].as_i64());
        let now = now_ms();
        if self.state.deadline_ms.is_some() {
            // the pause's event is stored with its state; a session paused by an older version
            // without one keeps its old deadline
            if let Some(r) = remaining {
                self.state.deadline_ms = Some(now + r);
            }
        }
        let event = self.event_row(
            self.no_seat(),
            "resumed",
            json!({ "remaining_ms": remaining }),
        );
        self.state.status = "running".into();
        self.persist(Commit {
            state: Some(self.state.clone()),
            events: vec![event],
            ..Commit::default()
        })?;
        self.check_deadline();
        self.advance();
        self.broadcast(0);
        Ok(json!({ "status": self.state.status, "deadline_ms": self.state.deadline_ms }))
    }

    /// Closes the current chronon now, as its deadline would (the `timeout` policy applies).
    fn advance_now(&mut self) -> Result<Value, ApiError> {
        if !self.running() {
            return Err(self.not_state("running"));
        }
        let before = self.session.history().len() as u64;
        self.log(self.no_seat(), "advanced", json!({}));
        if let Err(e) = self.deadline() {
            self.fail(e);
        }
        self.advance();
        self.broadcast(0);
        Ok(json!({
            "closed": before + 1,
            "chronon": self.session.history().len(),
            "status": self.state.status,
        }))
    }

    /// Gives human seat `seat` to the AI (or random player) `spec` for the rest of the session;
    /// it acts at once if the seat is still to act in the current chronon.
    fn replace(&mut self, seat: usize, spec: &str) -> Result<Value, ApiError> {
        if seat >= self.names.len() {
            return Err(ApiError::not_found(
                "unknown_seat",
                format!("the session has {} seats", self.names.len()),
            ));
        }
        if !self.plan.seats[seat].is_human() {
            return Err(ApiError::new(
                409,
                "not_human",
                format!(
                    "seat {} is played by {}",
                    seat + 1,
                    self.plan.seats[seat].name()
                ),
            ));
        }
        let ai = match Seat::parse(spec) {
            Ok(Seat::Human) | Err(_) => {
                return Err(ApiError::bad_request(
                    "bad_config",
                    format!("{spec:?} is not an AI spec (random, minimax:DEPTH, mcts:ITERATIONS)"),
                ))
            }
            Ok(s) => s,
        };
        self.log(seat, "replaced", json!({ "ai": spec }));
        self.plan.seats[seat] = ai.clone();
        self.replaced[seat] = Some(spec.to_string());
        if self.running() {
            let n = self.session.history().len() as u64;
            let to_act = self.still_to_act().unwrap_or_default().contains(&seat);
            if to_act {
                let p = self.plan.players[seat].clone();
                match seats::seat_moves(&mut self.session, &p, &ai, self.plan.interrupt) {
                    Ok(subs) => {
                        let mut commit = Commit::default();
                        for s in &subs {
                            let source = if matches!(ai, Seat::Random) {
                                "random"
                            } else {
                                "ai"
                            };
                            let row = self.sub_row(n, &s.player, &s.switch, &s.action, source);
                            commit.submissions.push(row);
                        }
                        let ran = self.session.history().len() as u64 > n;
                        if ran {
                            self.chronon_ran(&mut commit);
                        }
                        commit.state = Some(self.state.clone());
                        if self.persist(commit).is_ok() && ran {
                            self.broadcast_chronons(n);
                        }
                    }
                    Err(e) => self.fail(e),
                }
            }
            self.advance();
        }
        self.broadcast(0);
        Ok(json!({ "seat": seat, "player": self.names[seat], "kind": spec }))
    }

    /// A follower: sends an experimenter's action to the driver through the store (its answer
    /// comes with a later refresh, as a forwarded submission's does).
    pub(super) fn forward_admin(&mut self, msg: Value, out: Sender<String>) {
        let Some(c) = self
            .store
            .clone()
            .cluster()
            .map(|c| c.forward(&self.id, 0, &msg.to_string()))
        else {
            return;
        };
        match c {
            Ok(id) => self.waiting.push((id, out)),
            Err(e) => {
                let _ = out.try_send(ApiError::storage(e).frame());
            }
        }
    }

    /// The monitor's view: the session's progress, every seat's connection and activity, and the
    /// designer's view (every fact, every pending submission). Admin only.
    pub(super) fn monitor(&mut self) -> Value {
        let subs = self.store.submissions(&self.id).unwrap_or_default();
        let to_act = self.still_to_act().unwrap_or_default();
        let seats: Vec<Value> = (0..self.names.len())
            .map(|i| {
                let last = subs
                    .iter()
                    .filter(|s| s.player == self.names[i] && s.chronon == self.state.chronons)
                    .map(|s| s.at_ms)
                    .max();
                json!({
                    "index": i,
                    "player": self.names[i],
                    "kind": self.plan.kind(i),
                    // a seat the experimenter plays: its legal switches, for the monitor's forms
                    "switches": if self.plan.experimenter[i] && self.running() {
                        self.session
                            .switches_of(&self.plan.players[i])
                            .map(|sw| sw.iter().map(crate::dto::switch).collect::<Vec<_>>())
                            .unwrap_or_default()
                    } else {
                        Vec::new()
                    },
                    "replaced": self.replaced[i],
                    "connections": self.connections[i],
                    "disconnected_since": if self.plan.has_link(i) || self.replaced[i].is_some() {
                        self.disconnected_since(i)
                    } else {
                        None
                    },
                    // idle: no submission in the current chronon; since its start
                    "idle_since": if last.is_none() { Some(self.state.chronon_started_ms) } else { None },
                    "last_submission_ms": last,
                    "to_act": to_act.contains(&i),
                    "absent": self.absent(i),
                })
            })
            .collect();
        let view: Vec<String> = self
            .session
            .view(None)
            .map(|v| v.iter().map(super::show).collect())
            .unwrap_or_default();
        let pending: Vec<[String; 3]> = self
            .session
            .pending()
            .iter()
            .map(|s| {
                [
                    super::show(&s.player),
                    super::show(&s.switch),
                    super::show(&s.action),
                ]
            })
            .collect();
        json!({
            "id": self.id,
            "name": self.plan.name,
            "status": self.state.status,
            "message": self.state.message,
            "chronon": self.session.history().len(),
            "chronon_started_ms": self.state.chronon_started_ms,
            "deadline_ms": self.state.deadline_ms,
            "now_ms": now_ms(),
            "driving": self.is_driving(),
            "seats": seats,
            "designer": {
                "view": view,
                "pending": pending,
                "accounts": self.session.state().accounts.iter().map(super::show).collect::<Vec<_>>(),
                "events": self.monitor_events(&mut Presenter::raw()),
                "switches": self.monitor_switches(None),
            },
            "labels": self.monitor_texts(),
        })
    }

    /// The event lines of the last [`MONITOR_CHRONONS`] chronons (the designer's events), each as
    /// `[chronon, lines]`, in `pr`'s words (the engine's one event text, [`Event::text`]).
    fn monitor_events(&mut self, pr: &mut Presenter) -> Vec<Value> {
        let history = self.session.history();
        let from = history.len().saturating_sub(MONITOR_CHRONONS);
        history[from..]
            .iter()
            .enumerate()
            .map(|(k, rec)| {
                let lines: Vec<String> = rec.events.iter().map(|e| e.text(&mut *pr)).collect();
                json!([from + k + 1, lines])
            })
            .collect()
    }

    /// Per seat: its legal switches and their actions (`[switch, [action, ...]]`), raw
    /// (`labels: None`) or from the designer's [`Presentation`].
    fn monitor_switches(&mut self, labels: Option<&Presentation>) -> Vec<Vec<Value>> {
        let raw;
        let p = match labels {
            Some(p) => p,
            None => {
                raw = present(&mut self.session, None, None, false).unwrap_or_default();
                &raw
            }
        };
        let text = |l: &sidl_engine::game::present::Labelled| {
            if labels.is_some() {
                l.text.clone()
            } else {
                super::show(&l.term)
            }
        };
        self.plan
            .players
            .iter()
            .map(|player| {
                p.switches
                    .iter()
                    .filter(|s| s.owner.as_ref() == Some(player))
                    .map(|s| {
                        json!([
                            text(&s.switch),
                            s.actions.iter().map(text).collect::<Vec<_>>()
                        ])
                    })
                    .collect()
            })
            .collect()
    }

    /// The monitor's texts in the game's labels, in the session's language (`config.lang`): the
    /// designer's view, the pending submissions, the accounts, the seats' players and legal
    /// switches, the last chronons' events and the result, each built by the engine's `present`
    /// from the designer's view (the admin sees every fact). `null` for a game without labels.
    fn monitor_texts(&mut self) -> Value {
        let lang = self.plan.lang.clone();
        let Ok(p) = present(&mut self.session, None, lang.as_deref(), false) else {
            return Value::Null;
        };
        if !p.active {
            return Value::Null;
        }
        let Ok(mut pr) = Presenter::new(&mut self.session, None, lang.as_deref()) else {
            return Value::Null;
        };
        let pending: Vec<[String; 3]> = self
            .session
            .pending()
            .iter()
            .map(|s| {
                [
                    pr.player(&s.player),
                    pr.switch(&s.switch),
                    pr.action(&s.switch, &s.action),
                ]
            })
            .collect();
        let events = self.monitor_events(&mut pr);
        let switches = self.monitor_switches(Some(&p));
        let players: Vec<String> = self.plan.players.iter().map(|x| pr.player(x)).collect();
        json!({
            "lang": p.lang,
            "description": p.description,
            "players": players,
            "view": p.facts.iter().map(|f| &f.text).collect::<Vec<_>>(),
            "pending": pending,
            "accounts": p.accounts.iter().map(|a| &a.text).collect::<Vec<_>>(),
            "switches": switches,
            "events": events,
            "result": p.result,
        })
    }
}
