//! A live session: one thread owns the engine's `Session` and is the only writer of its rows. The
//! routes talk to it through [`Live`] (a channel of [`Cmd`]s); it talks to the participants through
//! one channel per WebSocket, each belonging to one seat, and sends a seat only what its player may
//! see (its view, its switches, its own pending submissions and its events).
//!
//! The order of every step is: the engine decides, the store commits, then (only then) the reply
//! or the broadcast. A failed commit rebuilds the session from the store, so memory never holds
//! what the database does not.
//!
//! Recovery ([`Actor::load`]): the game text, seed and submissions are in the store; the session is
//! rebuilt with `Session::replay` (the stored submissions of each chronon, then the transition), the
//! submissions of the current chronon are submitted again (pending), and the drivers' RNG, the
//! deadline and whether the automatic seats already acted come from the session row.
//!
//! Several processes on one database ([`crate::store::Cluster`], PostgreSQL): a session's thread
//! in each process that has participants for it, exactly one of them *driving* (the lease holder:
//! it decides, commits, times the deadlines and plays the automatic seats). The others *follow*:
//! they forward their seats' submissions to the driver through the database ([`Cmd::Submit`] →
//! `Cluster::forward`), and on each of its commits ([`Cmd::Refresh`]) reload the session from the
//! store, hand their seats the acknowledgements the driver wrote, then the new records and state.
//! When a follower's process wins the lease ([`Cmd::Drive`]) it reloads from the store and drives.

use crate::config::{plan, show, OnDeadline, OnDisconnect, Plan, SessionConfig};
use crate::dto;
use crate::error::ApiError;
use crate::store::{ChrononRow, Commit, EventRow, SessionState, Store, SubmissionRow};
use serde_json::{json, Value};
use sidl_engine::game::present::{present, Presenter};
use sidl_engine::game::{
    fill_template, Actions, ChrononRecord, Owner, PlayerEvents, RuntimeError, Session, Submission,
};
use sidl_engine::rng::Rng;
use sidl_engine::seats::{self, Seat};
use sidl_engine::term::Term;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::mpsc::Sender;

mod admin;

/// How many frames may wait for a slow WebSocket; when its queue is full the seat's subscription
/// is dropped, its socket closes, and the page reconnects and gets the whole state anew.
pub const SEAT_QUEUE: usize = 1024;

/// Milliseconds since the Unix epoch (the server clock; every stored time is in it).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A message to a session's thread.
pub enum Cmd {
    /// A seat's WebSocket: it gets the seat's history and state now and every change later.
    Subscribe { seat: usize, out: Sender<String> },
    /// A human seat's submission for chronon `chronon` (the number of chronons run, as the seat's
    /// last state said). The acknowledgement (or the error) goes to `out` before any broadcast.
    Submit {
        seat: usize,
        chronon: u64,
        switch: String,
        action: ActionIn,
        out: Sender<String>,
    },
    /// A seat asks for its observation (`crate::observe`: what an AI decides from, its player's
    /// information only); the `observation` frame goes to `out`.
    Observe { seat: usize, out: Sender<String> },
    /// A seat's WebSocket closed (for the event log; its opening is its [`Cmd::Subscribe`]).
    Disconnected { seat: usize },
    /// The session's state for the admin API.
    Status { reply: mpsc::Sender<Value> },
    /// The driver (another process) committed something: reload from the store, deliver the
    /// acknowledgements of forwarded submissions, broadcast (followers only).
    Refresh,
    /// Forwarded submissions wait in the inbox (the driver takes them).
    Inbox,
    /// This process now holds the session's lease: reload from the store and drive.
    Drive,
    /// This process no longer holds the lease: follow.
    Follow,
    /// The session's row changed outside play (a waiting group started): reload it from the
    /// store, play on and show it.
    Reload,
    /// An experimenter's action from the monitor (`crate::monitor`): `{"type": "admin", "op":
    /// "pause" | "resume" | "advance" | "replace", "seat", "ai"}`. Its answer (a JSON object, or
    /// an `error` frame) goes to `out`; a follower forwards it to the driver like a submission.
    Admin { msg: Value, out: Sender<String> },
    /// The monitor's view of the session (the designer's view included: admin only).
    Monitor { reply: mpsc::Sender<Value> },
}

/// A submitted action: its canonical text, or the values of a template's slots (in fill order) for
/// the engine to fill (`fill_template`).
pub enum ActionIn {
    Text(String),
    Fill {
        template: usize,
        values: Vec<String>,
    },
}

/// The handle of a live session.
#[derive(Clone)]
pub struct Live {
    pub tx: mpsc::Sender<Cmd>,
    /// Whether this process drives the session (always, with one process).
    pub driving: Arc<AtomicBool>,
    /// A [`Cmd::Refresh`] is queued and not yet handled (notifications coalesce into one).
    pub refresh_queued: Arc<AtomicBool>,
}

impl Live {
    /// Queues a refresh unless one is queued already.
    pub fn refresh(&self) {
        if !self.refresh_queued.swap(true, Ordering::SeqCst) {
            let _ = self.tx.send(Cmd::Refresh);
        }
    }
}

/// Starts the thread of a stored session (a new one, or one found at start-up); `drive`: this
/// process drives it (else it follows until [`Cmd::Drive`]).
pub fn spawn(store: Arc<dyn Store>, id: &str, drive: bool) -> Result<Live, String> {
    let mut actor = Actor::load(store, id)?;
    let driving = Arc::new(AtomicBool::new(drive));
    let refresh_queued = Arc::new(AtomicBool::new(false));
    actor.driving = driving.clone();
    actor.refresh_queued = refresh_queued.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("session-{id}"))
        .spawn(move || {
            if actor.is_driving() {
                actor.take_inbox();
                actor.advance();
            }
            actor.run(rx);
        })
        .map_err(|e| e.to_string())?;
    Ok(Live {
        tx,
        driving,
        refresh_queued,
    })
}

struct Actor {
    id: String,
    store: Arc<dyn Store>,
    plan: Plan,
    session: Session,
    /// Player names (canonical text) in player order.
    names: Vec<String>,
    state: SessionState,
    next_seq: i64,
    subs: Vec<Vec<Sender<String>>>,
    /// Whether this process drives the session (shared with [`Live`]).
    driving: Arc<AtomicBool>,
    refresh_queued: Arc<AtomicBool>,
    /// Forwarded submissions (inbox ids) whose answer goes to a seat's queue here.
    waiting: Vec<(i64, Sender<String>)>,
    /// While the driver handles a forwarded submission: its inbox id (the acknowledgement is
    /// written with the submission's commit).
    reply_to: Option<i64>,
    /// Open WebSockets per seat (this process's).
    connections: Vec<usize>,
    /// Per seat: since when it has had no open WebSocket (from the thread's start until its
    /// first connection), for the disconnection policy.
    absent_since: Vec<Option<i64>>,
    /// Per seat: the AI spec that replaced its participant (the monitor's "replace"; stored as a
    /// `replaced` event and applied again on every load).
    replaced: Vec<Option<String>>,
}

impl Actor {
    /// Rebuilds a session from the store.
    fn load(store: Arc<dyn Store>, id: &str) -> Result<Actor, String> {
        let row = store
            .session(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no session {id}"))?;
        let config: SessionConfig =
            serde_json::from_str(&row.config).map_err(|e| format!("stored configuration: {e}"))?;
        let plan = plan(&row.game, &config, row.seed).map_err(|e| e.to_string())?;
        let subs = store.submissions(id).map_err(|e| e.to_string())?;
        let n = row.state.chronons;
        let parse = |t: &str| -> Result<Term, String> {
            sidl_engine::syntax::parse_term(t)
                .map(|r| r.term)
                .map_err(|_| format!("stored term {t:?} does not parse"))
        };
        let sub = |s: &SubmissionRow| -> Result<Submission, String> {
            Ok(Submission {
                player: parse(&s.player)?,
                switch: parse(&s.switch)?,
                action: parse(&s.action)?,
            })
        };
        let mut history: Vec<ChrononRecord> = (0..n)
            .map(|_| ChrononRecord {
                submissions: Vec::new(),
                overrides: Vec::new(),
                draws: Vec::new(),
                events: Vec::new(),
                player_events: PlayerEvents::new(),
            })
            .collect();
        let mut pending = Vec::new();
        for s in &subs {
            if s.chronon < n {
                history[s.chronon as usize].submissions.push(sub(s)?);
            } else {
                pending.push(sub(s)?);
            }
        }
        let mut session = Session::replay(plan.game.clone(), plan.seed, plan.settings(), &history)
            .map_err(|e| format!("session {id} does not replay: {}", e.message))?;
        for p in &pending {
            if let Err(r) = session
                .submit(&p.player, &p.switch, &p.action)
                .map_err(|e| e.message)?
            {
                return Err(format!("a stored pending submission is refused: {r}"));
            }
        }
        if session.chronon() != n && !plan.interrupt {
            return Err(format!(
                "session {id} replays to chronon {}, not {n}",
                session.chronon()
            ));
        }
        *session.rng() = Rng {
            state: row.state.driver_rng,
        };
        let names = plan.players.iter().map(show).collect::<Vec<_>>();
        let seats = names.len();
        let mut plan = plan;
        let mut replaced = vec![None; seats];
        for e in store.events(id).map_err(|e| e.to_string())? {
            if e.kind == "replaced" && e.seat < seats {
                let d: Value = serde_json::from_str(&e.detail).unwrap_or(Value::Null);
                let spec = d["ai"].as_str().unwrap_or_default().to_string();
                plan.seats[e.seat] =
                    Seat::parse(&spec).map_err(|m| format!("stored replacement: {m}"))?;
                replaced[e.seat] = Some(spec);
            }
        }
        Ok(Actor {
            id: id.to_string(),
            store,
            plan,
            session,
            names,
            state: row.state,
            next_seq: subs.last().map_or(1, |s| s.seq + 1),
            subs: vec![Vec::new(); seats],
            driving: Arc::new(AtomicBool::new(true)),
            refresh_queued: Arc::new(AtomicBool::new(false)),
            waiting: Vec::new(),
            reply_to: None,
            connections: vec![0; seats],
            absent_since: vec![Some(now_ms()); seats],
            replaced,
        })
    }

    fn is_driving(&self) -> bool {
        self.driving.load(Ordering::SeqCst)
    }

    /// Rebuilds the session from the store, keeping the subscriptions and the waiting answers.
    fn reload(&mut self) -> Result<(), String> {
        let fresh = Actor::load(self.store.clone(), &self.id)?;
        let subs = std::mem::take(&mut self.subs);
        let waiting = std::mem::take(&mut self.waiting);
        let connections = std::mem::take(&mut self.connections);
        let absent_since = std::mem::take(&mut self.absent_since);
        let (driving, queued) = (self.driving.clone(), self.refresh_queued.clone());
        *self = fresh;
        self.subs = subs;
        self.waiting = waiting;
        self.connections = connections;
        self.absent_since = absent_since;
        self.driving = driving;
        self.refresh_queued = queued;
        Ok(())
    }

    /// Sends a forwarded submission's answer to its seat, if it waits here.
    fn deliver(&mut self, id: i64, frame: &str) {
        if let Some(i) = self.waiting.iter().position(|w| w.0 == id) {
            let (_, out) = self.waiting.remove(i);
            let _ = out.try_send(frame.to_string());
        }
    }

    /// A follower: the driver committed. Acknowledgements first, then records and state.
    fn refresh(&mut self) {
        self.refresh_queued.store(false, Ordering::SeqCst);
        if self.is_driving() {
            return;
        }
        if let Some(c) = self.store.clone().cluster() {
            let ids: Vec<i64> = self.waiting.iter().map(|w| w.0).collect();
            match c.answers(&ids) {
                Ok(answers) => {
                    for (id, frame) in answers {
                        self.deliver(id, &frame);
                    }
                }
                Err(e) => eprintln!("sidl serve: session {}: {e}", self.id),
            }
        }
        let before = self.session.history().len() as u64;
        if let Err(e) = self.reload() {
            eprintln!("sidl serve: session {}: {e}", self.id);
            return;
        }
        let after = self.session.history().len() as u64;
        self.broadcast(if after > before { before + 1 } else { 0 });
    }

    /// The driver: handles the forwarded submissions in order, each as a [`Cmd::Submit`] whose
    /// acknowledgement is committed with it (a refusal is written on its own).
    fn take_inbox(&mut self) {
        let store = self.store.clone();
        let Some(c) = store.cluster() else {
            return;
        };
        let rows = match c.inbox(&self.id) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("sidl serve: session {}: {e}", self.id);
                return;
            }
        };
        for row in rows {
            if !self.is_driving() {
                return;
            }
            self.check_deadline();
            if let Some(msg) = serde_json::from_str::<Value>(&row.message)
                .ok()
                .filter(|m| m["type"] == "admin")
            {
                let frame = match self.admin(&msg) {
                    Ok(v) => v.to_string(),
                    Err(e) => e.frame(),
                };
                match c.answer(&self.id, row.id, &frame) {
                    Ok(true) => self.deliver(row.id, &frame),
                    Ok(false) => return,
                    Err(e) => {
                        eprintln!("sidl serve: session {}: {e}", self.id);
                        return;
                    }
                }
                continue;
            }
            let result = match crate::api::parse_message(&row.message) {
                Ok(crate::api::Incoming::Submit {
                    chronon,
                    switch,
                    action,
                }) => {
                    self.reply_to = Some(row.id);
                    let r = self.submit(row.seat, chronon, &switch, &action);
                    self.reply_to = None;
                    if let Err(e) = &r {
                        if e.code != "storage" {
                            self.log_refusal(row.seat, chronon, &switch, &action, e);
                        }
                    }
                    r
                }
                Ok(_) => Err(ApiError::bad_request("bad_message", "not a submission")),
                Err(e) => Err(e),
            };
            match result {
                Ok(ack) => self.deliver(row.id, &ack.to_string()),
                // not stored: the submission stays in the inbox for whoever drives next
                Err(e) if e.code == "storage" => return,
                Err(e) => {
                    let frame = e.frame();
                    match c.answer(&self.id, row.id, &frame) {
                        Ok(true) => self.deliver(row.id, &frame),
                        Ok(false) => return,
                        Err(e) => {
                            eprintln!("sidl serve: session {}: {e}", self.id);
                            return;
                        }
                    }
                }
            }
            self.broadcast(0);
            self.advance();
        }
    }

    fn run(&mut self, rx: mpsc::Receiver<Cmd>) {
        loop {
            let next = [self.state.deadline_ms, self.next_absence()]
                .into_iter()
                .flatten()
                .min();
            let wait = match next {
                Some(d) if self.state.status == "running" && self.is_driving() => {
                    Duration::from_millis((d - now_ms()).max(0) as u64)
                }
                _ => Duration::from_secs(3600),
            };
            match rx.recv_timeout(wait) {
                Ok(cmd) => self.handle(cmd),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
            self.check_deadline();
            self.check_absent();
        }
    }

    /// The disconnection policy's delay (`None`: `wait`).
    fn absence_after(&self) -> Option<i64> {
        match &self.plan.on_disconnect {
            OnDisconnect::Wait => None,
            OnDisconnect::Default { after_ms } | OnDisconnect::Ai { after_ms, .. } => {
                Some(*after_ms)
            }
        }
    }

    /// Since when human seat `i` has had no open WebSocket (`None`: it has one). With several
    /// processes a seat without a connection here may have one to another process: the last
    /// connection event stored for it decides (`connected`: it has, unless that process died:
    /// then since its last heartbeat, and the driver logs the `disconnected` the dead process
    /// could not; `disconnected`: since then).
    fn disconnected_since(&self, i: usize) -> Option<i64> {
        if self.connections[i] > 0 {
            return None;
        }
        let local = self.absent_since[i]?;
        let Some(cluster) = self.store.cluster() else {
            return Some(local);
        };
        let events = self.store.events(&self.id).ok()?;
        match events
            .iter()
            .rfind(|e| e.seat == i && (e.kind == "connected" || e.kind == "disconnected"))
        {
            Some(e) if e.kind == "connected" => {
                let node = serde_json::from_str::<Value>(&e.detail)
                    .ok()
                    .and_then(|d| d["node"].as_str().map(str::to_string))?;
                if node == cluster.node() {
                    return Some(e.at_ms.max(local));
                }
                let seen = cluster.node_gone(&node).ok()??;
                if self.is_driving() {
                    self.log(
                        i,
                        "disconnected",
                        json!({ "node": node, "reason": "its server process stopped" }),
                    );
                }
                Some(seen.max(e.at_ms))
            }
            Some(e) => Some(e.at_ms.max(local)),
            None => Some(local),
        }
    }

    /// The detail of a connection event: the process it is to (several processes only).
    fn connection_detail(&self) -> Value {
        match self.store.cluster() {
            Some(c) => json!({ "node": c.node() }),
            None => json!({}),
        }
    }

    /// Whether human seat `i` has been disconnected for longer than the policy's delay.
    fn absent(&self, i: usize) -> bool {
        let Some(after) = self.absence_after() else {
            return false;
        };
        self.plan.has_link(i)
            && self
                .disconnected_since(i)
                .is_some_and(|t| t + after <= now_ms())
    }

    /// When the next disconnected seat becomes absent (for the thread's timer).
    fn next_absence(&self) -> Option<i64> {
        let after = self.absence_after()?;
        if !self.running() || !self.is_driving() {
            return None;
        }
        let now = now_ms();
        (0..self.plan.seats.len())
            .filter(|&i| self.plan.has_link(i))
            .filter_map(|i| self.disconnected_since(i).map(|t| t + after))
            .filter(|&t| t > now)
            .min()
    }

    /// Plays on when an absent seat holds the chronon up.
    fn check_absent(&mut self) {
        if self.absence_after().is_none() || !self.running() || !self.is_driving() {
            return;
        }
        // interrupt mode has no defaults: an absent seat is waited for (only an AI acts for it)
        if self.plan.interrupt && matches!(self.plan.on_disconnect, OnDisconnect::Default { .. }) {
            return;
        }
        let Ok(to_act) = self.still_to_act() else {
            return;
        };
        if to_act.iter().any(|&i| self.absent(i)) {
            self.advance();
        }
    }

    fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Subscribe { seat, out } => {
                if seat < self.subs.len() {
                    // counted whatever happens below: its Disconnected comes in any case
                    self.connections[seat] += 1;
                    self.absent_since[seat] = None;
                    let hello = self.hello(seat);
                    let state = self.seat_state(seat);
                    if out.try_send(hello).is_ok() && out.try_send(state).is_ok() {
                        self.subs[seat].push(out);
                        self.log(seat, "connected", self.connection_detail());
                    }
                }
            }
            Cmd::Disconnected { seat } => {
                if seat < self.subs.len() {
                    self.connections[seat] = self.connections[seat].saturating_sub(1);
                    if self.connections[seat] == 0 {
                        self.absent_since[seat] = Some(now_ms());
                    }
                    self.log(seat, "disconnected", self.connection_detail());
                }
            }
            Cmd::Submit {
                seat,
                chronon,
                switch,
                action,
                out,
            } if !self.is_driving() => self.forward(seat, chronon, &switch, &action, out),
            Cmd::Submit {
                seat,
                chronon,
                switch,
                action,
                out,
            } => {
                self.check_deadline();
                let frame = match self.submit(seat, chronon, &switch, &action) {
                    Ok(v) => v.to_string(),
                    Err(e) => {
                        self.log_refusal(seat, chronon, &switch, &action, &e);
                        e.frame()
                    }
                };
                let _ = out.try_send(frame);
                self.broadcast(0);
                self.advance();
            }
            Cmd::Status { reply } => {
                let _ = reply.send(self.status());
            }
            Cmd::Observe { seat, out } => {
                let frame = match self.session.players().get(seat).cloned() {
                    Some(p) => match sidl_engine::ai::Observation::of(&mut self.session, &p) {
                        Ok(obs) => crate::observe::frame(&obs).to_string(),
                        Err(e) => ApiError::runtime(&e).frame(),
                    },
                    None => ApiError::not_found("unknown_seat", "no such seat").frame(),
                };
                let _ = out.try_send(frame);
            }
            Cmd::Monitor { reply } => {
                let _ = reply.send(self.monitor());
            }
            Cmd::Admin { msg, out } if !self.is_driving() => self.forward_admin(msg, out),
            Cmd::Admin { msg, out } => {
                self.check_deadline();
                let frame = match self.admin(&msg) {
                    Ok(v) => v.to_string(),
                    Err(e) => e.frame(),
                };
                let _ = out.try_send(frame);
            }
            Cmd::Refresh => self.refresh(),
            Cmd::Inbox => {
                if self.is_driving() {
                    self.take_inbox();
                }
            }
            Cmd::Drive => {
                if !self.is_driving() {
                    if let Err(e) = self.reload() {
                        eprintln!("sidl serve: session {}: cannot take it over: {e}", self.id);
                        return;
                    }
                    self.driving.store(true, Ordering::SeqCst);
                    eprintln!("sidl serve: session {}: driving it now", self.id);
                    self.take_inbox();
                    self.check_deadline();
                    self.advance();
                    self.broadcast(0);
                }
            }
            Cmd::Reload => {
                if let Err(e) = self.reload() {
                    eprintln!("sidl serve: session {}: {e}", self.id);
                    return;
                }
                if self.is_driving() {
                    self.take_inbox();
                    self.check_deadline();
                    self.advance();
                }
                self.broadcast(0);
            }
            Cmd::Follow => {
                if self.is_driving() {
                    self.driving.store(false, Ordering::SeqCst);
                    self.refresh();
                }
            }
        }
    }

    /// A follower: sends a seat's submission to the driver through the store. Its answer comes
    /// with a later [`Cmd::Refresh`], after the driver committed it.
    fn forward(
        &mut self,
        seat: usize,
        chronon: u64,
        switch: &str,
        action: &ActionIn,
        out: Sender<String>,
    ) {
        let mut msg = json!({"type": "submit", "chronon": chronon, "switch": switch});
        match action {
            ActionIn::Text(t) => msg["action"] = json!(t),
            ActionIn::Fill { template, values } => {
                msg["template"] = json!(template);
                msg["values"] = json!(values);
            }
        }
        let Some(c) = self
            .store
            .clone()
            .cluster()
            .map(|c| c.forward(&self.id, seat, &msg.to_string()))
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

    /// An event-log row of the current chronon, now.
    fn event_row(&self, seat: usize, kind: &str, detail: Value) -> EventRow {
        EventRow {
            id: 0,
            chronon: self.session.history().len() as u64,
            seat,
            kind: kind.to_string(),
            detail: detail.to_string(),
            at_ms: now_ms(),
        }
    }

    /// Stores an event of the log (a failure is reported, not fatal: the event changes no play).
    /// An event that goes with a change of the state goes into that change's [`Commit`] instead.
    fn log(&self, seat: usize, kind: &str, detail: Value) {
        let row = self.event_row(seat, kind, detail);
        if let Err(e) = self.store.log_event(&self.id, &row) {
            eprintln!("sidl serve: session {}: event log: {e}", self.id);
        }
    }

    /// A refused submission, for the event log: what was sent and why it was refused.
    fn log_refusal(
        &self,
        seat: usize,
        chronon: u64,
        switch: &str,
        action: &ActionIn,
        e: &ApiError,
    ) {
        if seat >= self.names.len() {
            return;
        }
        let mut detail = json!({
            "for_chronon": chronon,
            "switch": switch,
            "code": e.code,
            "reason": e.message,
        });
        match action {
            ActionIn::Text(t) => detail["action"] = json!(t),
            ActionIn::Fill { template, values } => {
                detail["template"] = json!(template);
                detail["values"] = json!(values);
            }
        }
        self.log(seat, "rejected", detail);
    }

    fn running(&self) -> bool {
        self.state.status == "running"
    }

    fn parse(&self, text: &str, what: &str) -> Result<Term, ApiError> {
        sidl_engine::syntax::parse_term(text)
            .map(|r| r.term)
            .map_err(|_| {
                ApiError::bad_request("bad_term", format!("the {what} {text:?} is not a term"))
            })
    }

    /// A human seat's submission: checked by the engine, committed, then acknowledged.
    fn submit(
        &mut self,
        seat: usize,
        chronon: u64,
        switch: &str,
        action: &ActionIn,
    ) -> Result<Value, ApiError> {
        if seat < self.names.len() && self.plan.experimenter[seat] {
            return Err(ApiError::forbidden());
        }
        self.submit_as(seat, chronon, switch, action, "human")
    }

    /// A submission for human seat `seat` made by `source` (`human`: its participant;
    /// `experimenter`: the monitor, for a seat the experimenter plays).
    fn submit_as(
        &mut self,
        seat: usize,
        chronon: u64,
        switch: &str,
        action: &ActionIn,
        source: &str,
    ) -> Result<Value, ApiError> {
        if seat < self.replaced.len() && self.replaced[seat].is_some() {
            return Err(ApiError::new(
                409,
                "seat_replaced",
                "the experimenter gave this seat to an AI",
            ));
        }
        if seat >= self.names.len() || !self.plan.seats[seat].is_human() {
            return Err(ApiError::forbidden());
        }
        if !self.running() {
            return Err(ApiError::new(
                409,
                "not_running",
                format!("the session is {}", self.state.status),
            ));
        }
        let now = self.session.history().len() as u64;
        if chronon != now {
            return Err(ApiError::new(
                409,
                "stale_chronon",
                format!(
                    "the submission is for chronon {chronon}, but the session is at chronon {now}"
                ),
            ));
        }
        let sw = self.parse(switch, "switch")?;
        let player = self.plan.players[seat].clone();
        let act = match action {
            ActionIn::Text(t) => self.parse(t, "action")?,
            ActionIn::Fill { template, values } => {
                let templates = self
                    .session
                    .switches_of(&player)
                    .map_err(|e| ApiError::runtime(&e))?
                    .into_iter()
                    .find(|s| s.id == sw)
                    .and_then(|s| match s.actions {
                        Actions::Unlimited(t) => Some(t),
                        Actions::Finite(_) => None,
                    })
                    .ok_or_else(|| {
                        ApiError::bad_request(
                            "rejected",
                            format!("{switch} is not an unlimited switch of yours now"),
                        )
                    })?;
                let t = templates.get(*template).ok_or_else(|| {
                    ApiError::bad_request(
                        "rejected",
                        format!("the switch has no template {template}"),
                    )
                })?;
                let vals = values
                    .iter()
                    .map(|v| self.parse(v, "value"))
                    .collect::<Result<Vec<_>, _>>()?;
                fill_template(t, &vals).ok_or_else(|| {
                    ApiError::bad_request(
                        "rejected",
                        format!(
                            "{} values for a template with another number of slots",
                            vals.len()
                        ),
                    )
                })?
            }
        };
        match self.session.submit(&player, &sw, &act) {
            Err(e) => return Err(ApiError::runtime(&e)),
            Ok(Err(r)) => return Err(ApiError::bad_request("rejected", r.0)),
            Ok(Ok(())) => {}
        }
        // the accepted action as the engine holds it (a filled template)
        let accepted = self
            .session
            .pending()
            .iter()
            .find(|s| s.switch == sw)
            .map(|s| s.action.clone())
            .or_else(|| {
                self.session
                    .history()
                    .last()
                    .and_then(|r| r.submissions.iter().find(|s| s.switch == sw))
                    .map(|s| s.action.clone())
            })
            .unwrap_or(act);
        let row = self.sub_row(now, &player, &sw, &accepted, source);
        let ack = json!({
            "type": "ack",
            "chronon": chronon,
            "switch": show(&sw),
            "action": show(&accepted),
        });
        let mut commit = Commit {
            submissions: vec![row],
            replies: self
                .reply_to
                .map(|id| vec![(id, ack.to_string())])
                .unwrap_or_default(),
            ..Commit::default()
        };
        let ran = self.session.history().len() as u64 > now;
        if ran {
            self.chronon_ran(&mut commit);
        }
        commit.state = Some(self.state.clone());
        self.persist(commit)?;
        if ran {
            self.broadcast_chronons(now);
        }
        Ok(ack)
    }

    fn sub_row(
        &mut self,
        chronon: u64,
        player: &Term,
        switch: &Term,
        action: &Term,
        source: &str,
    ) -> SubmissionRow {
        let seq = self.next_seq;
        self.next_seq += 1;
        SubmissionRow {
            seq,
            chronon,
            player: show(player),
            switch: show(switch),
            action: show(action),
            source: source.to_string(),
            at_ms: now_ms(),
        }
    }

    /// After a transition: its row, the new chronon's start and deadline, the RNG.
    fn chronon_ran(&mut self, commit: &mut Commit) {
        let n = self.session.history().len() as u64;
        let rec = self.session.history().last().expect("a chronon ran");
        let at = now_ms();
        commit.chronons.push(ChrononRow {
            chronon: n,
            at_ms: at,
            record: dto::designer_record(rec, n).to_string(),
        });
        self.state.chronons = n;
        self.state.chronon_started_ms = at;
        self.state.deadline_ms = self.plan.deadline_seconds.map(|s| at + (s * 1000.0) as i64);
        if let Ok(true) = self.session.is_terminal() {
            self.state.status = "finished".into();
            self.state.deadline_ms = None;
        }
        self.state.driver_rng = self.session.rng().state;
    }

    /// Commits, or rebuilds the session from the store when the commit fails.
    fn persist(&mut self, mut commit: Commit) -> Result<(), ApiError> {
        if let Some(st) = &mut commit.state {
            st.driver_rng = self.session.rng().state;
        }
        match self.store.commit(&self.id, &commit) {
            Ok(()) => Ok(()),
            Err(e) => {
                eprintln!(
                    "sidl serve: session {}: {e}; reloading it from the store",
                    self.id
                );
                // with several processes, most likely the lease passed to another one: follow
                // until the lease comes back (`Cmd::Drive`)
                if self.store.cluster().is_some() {
                    self.driving.store(false, Ordering::SeqCst);
                }
                match self.reload() {
                    Ok(()) => {}
                    Err(e2) => {
                        eprintln!("sidl serve: session {}: {e2}", self.id);
                        self.state.status = "error".into();
                        self.state.message = Some(e2);
                    }
                }
                Err(ApiError::storage(e))
            }
        }
    }

    /// A runtime error of the game stops the session (state unchanged, stored with the message).
    fn fail(&mut self, e: RuntimeError) {
        let d = e.to_diagnostic();
        self.state.status = "error".into();
        self.state.message = Some(format!("{}: {}", d.code, d.message));
        self.state.deadline_ms = None;
        let _ = self.persist(Commit {
            state: Some(self.state.clone()),
            ..Commit::default()
        });
        self.broadcast(0);
    }

    /// Does every legal switch a human seat owns have a pending submission? And the human players
    /// (seat indices) still to act.
    fn still_to_act(&mut self) -> Result<Vec<usize>, RuntimeError> {
        let switches = self.session.switches()?;
        let pending = self.session.pending();
        let mut out = Vec::new();
        for sw in switches.iter() {
            if let Owner::Player(p) = &sw.owner {
                if let Some(i) = self.plan.players.iter().position(|q| q == p) {
                    if !out.contains(&i) && !pending.iter().any(|s| s.switch == sw.id) {
                        out.push(i);
                    }
                }
            }
        }
        out.sort();
        Ok(out)
    }

    /// Plays what needs no person: the automatic seats (once per chronon), and the chronon when
    /// nobody human has to act. Stops when a human must act, the game ended or nothing can happen.
    fn advance(&mut self) {
        if !self.is_driving() {
            return;
        }
        if let Err(e) = self.advance_inner() {
            self.fail(e);
        }
    }

    fn advance_inner(&mut self) -> Result<(), RuntimeError> {
        // a bound on the chronons run in one go (a game of automatic seats only ends on its own)
        for _ in 0..100_000 {
            if !self.running() || !self.is_driving() {
                return Ok(());
            }
            let n = self.session.history().len() as u64;
            if self.session.is_terminal()? {
                self.state.status = "finished".into();
                self.state.deadline_ms = None;
                let _ = self.persist(Commit {
                    state: Some(self.state.clone()),
                    ..Commit::default()
                });
                self.broadcast(0);
                return Ok(());
            }
            let mut moved = 0;
            if self.state.auto_done != Some(n) {
                if self.plan.interrupt {
                    if self.auto_interrupt(n)? {
                        continue;
                    }
                } else {
                    let subs = seats::automatic_moves(&mut self.session, &self.plan.seats)?;
                    moved = subs.len();
                    let mut commit = Commit::default();
                    for s in &subs {
                        let i = self.plan.players.iter().position(|p| *p == s.player);
                        let source = match i.map(|i| &self.plan.seats[i]) {
                            Some(Seat::Random) => "random",
                            _ => "ai",
                        };
                        let row = self.sub_row(n, &s.player, &s.switch, &s.action, source);
                        commit.submissions.push(row);
                    }
                    self.state.auto_done = Some(n);
                    commit.state = Some(self.state.clone());
                    if self.persist(commit).is_err() {
                        return Ok(());
                    }
                }
                self.state.auto_done = Some(n);
            }
            if self.absent_ai(n)? {
                continue;
            }
            // an absent seat is not waited for (the game's default applies to its switches;
            // interrupt mode has no defaults: there it is waited for)
            let humans_to_act: Vec<usize> = self
                .still_to_act()?
                .into_iter()
                .filter(|&i| {
                    self.plan.seats[i].is_human() && (self.plan.interrupt || !self.absent(i))
                })
                .collect();
            if !humans_to_act.is_empty() {
                // a human must act: wait (for the deadline, if there is one)
                if self.state.deadline_ms.is_none() {
                    if let Some(s) = self.plan.deadline_seconds {
                        self.state.deadline_ms =
                            Some(self.state.chronon_started_ms + (s * 1000.0) as i64);
                        let _ = self.persist(Commit {
                            state: Some(self.state.clone()),
                            ..Commit::default()
                        });
                    }
                }
                self.broadcast(0);
                return Ok(());
            }
            if self.plan.interrupt && !self.session.pending().is_empty() {
                return Ok(());
            }
            if let Some(idle) = seats::idle(&mut self.session, &self.plan.seats, moved)? {
                self.state.status = "stalled".into();
                self.state.message = Some(idle.to_string());
                self.state.deadline_ms = None;
                let _ = self.persist(Commit {
                    state: Some(self.state.clone()),
                    ..Commit::default()
                });
                self.broadcast(0);
                return Ok(());
            }
            if !self.close()? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The disconnection policy `ai`: an AI acts for each absent human seat still to act (source
    /// `disconnect-ai`). True when that ran a transition (interrupt mode: go on with the next
    /// chronon).
    fn absent_ai(&mut self, n: u64) -> Result<bool, RuntimeError> {
        let OnDisconnect::Ai { spec, .. } = self.plan.on_disconnect.clone() else {
            return Ok(false);
        };
        let absent: Vec<usize> = self
            .still_to_act()?
            .into_iter()
            .filter(|&i| self.absent(i))
            .collect();
        if absent.is_empty() {
            return Ok(false);
        }
        let mut commit = Commit::default();
        for i in absent {
            let p = self.plan.players[i].clone();
            let seed = self.session.rng().next_u64();
            let subs = seats::ai_moves(&mut self.session, &p, spec, seed, self.plan.interrupt)?;
            for s in &subs {
                let row = self.sub_row(n, &s.player, &s.switch, &s.action, "disconnect-ai");
                commit.submissions.push(row);
            }
            if self.session.history().len() as u64 > n {
                self.chronon_ran(&mut commit);
                commit.state = Some(self.state.clone());
                if self.persist(commit).is_ok() {
                    self.broadcast_chronons(n);
                }
                return Ok(true);
            }
        }
        if commit.submissions.is_empty() {
            return Ok(false);
        }
        commit.state = Some(self.state.clone());
        let _ = self.persist(commit);
        Ok(false)
    }

    /// Interrupt mode: each automatic seat in player order submits at most once; the first accepted
    /// submission ran a transition (true: go on with the next chronon).
    fn auto_interrupt(&mut self, n: u64) -> Result<bool, RuntimeError> {
        for i in 0..self.plan.seats.len() {
            let seat = self.plan.seats[i].clone();
            if seat.is_human() {
                continue;
            }
            let p = self.plan.players[i].clone();
            let subs = seats::seat_moves(&mut self.session, &p, &seat, true)?;
            if let Some(s) = subs.first() {
                let source = if matches!(seat, Seat::Random) {
                    "random"
                } else {
                    "ai"
                };
                let row = self.sub_row(n, &s.player, &s.switch, &s.action, source);
                let mut commit = Commit {
                    submissions: vec![row],
                    ..Commit::default()
                };
                if self.session.history().len() as u64 > n {
                    self.chronon_ran(&mut commit);
                }
                commit.state = Some(self.state.clone());
                if self.persist(commit).is_ok() {
                    self.broadcast_chronons(n);
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Runs the chronon, commits it, then shows it. False when it could not be stored.
    fn close(&mut self) -> Result<bool, RuntimeError> {
        let n = self.session.history().len() as u64;
        self.session.run_chronon()?;
        let mut commit = Commit::default();
        self.chronon_ran(&mut commit);
        commit.state = Some(self.state.clone());
        if self.persist(commit).is_err() {
            return Ok(false);
        }
        self.broadcast_chronons(n);
        Ok(true)
    }

    fn check_deadline(&mut self) {
        let Some(d) = self.state.deadline_ms else {
            return;
        };
        if !self.is_driving() {
            return;
        }
        if !self.running() || now_ms() < d {
            return;
        }
        if let Err(e) = self.deadline() {
            self.fail(e);
        }
        self.advance();
    }

    /// The deadline passed: an AI takes over the human seats that did not act (if so configured),
    /// then the chronon closes (defaults apply to whatever did not act).
    fn deadline(&mut self) -> Result<(), RuntimeError> {
        let n = self.session.history().len() as u64;
        self.state.deadline_ms = None;
        if let OnDeadline::Ai(spec) = self.plan.on_deadline {
            let mut commit = Commit::default();
            for i in self.still_to_act()? {
                if !self.plan.seats[i].is_human() {
                    continue;
                }
                let p = self.plan.players[i].clone();
                let seed = self.session.rng().next_u64();
                let subs = seats::ai_moves(&mut self.session, &p, spec, seed, self.plan.interrupt)?;
                for s in &subs {
                    let row = self.sub_row(n, &s.player, &s.switch, &s.action, "timeout-ai");
                    commit.submissions.push(row);
                }
                if self.session.history().len() as u64 > n {
                    self.chronon_ran(&mut commit);
                    commit.state = Some(self.state.clone());
                    if self.persist(commit).is_ok() {
                        self.broadcast_chronons(n);
                    }
                    return Ok(());
                }
            }
            commit.state = Some(self.state.clone());
            if self.persist(commit).is_err() {
                return Ok(());
            }
        }
        if self.session.history().len() as u64 == n {
            self.close()?;
        }
        Ok(())
    }

    /// Sends each subscribed seat the records of the chronons after `from` that it may see, then
    /// its state.
    fn broadcast_chronons(&mut self, from: u64) {
        self.broadcast(from + 1);
    }

    /// Sends every subscribed seat its records of chronons `from..` (none for 0) and its state.
    fn broadcast(&mut self, from: u64) {
        let n = self.session.history().len() as u64;
        for seat in 0..self.subs.len() {
            if self.subs[seat].is_empty() {
                continue;
            }
            let mut frames = Vec::new();
            if from > 0 {
                let mut pr = self.presenter(seat);
                for c in from..=n {
                    let rec = &self.session.history()[(c - 1) as usize];
                    frames.push(
                        json!({"type": "chronon", "record": dto::seat_record(rec, c, seat, &self.names[seat], &mut pr)})
                            .to_string(),
                    );
                }
            }
            frames.push(self.seat_state(seat));
            self.subs[seat].retain(|out| frames.iter().all(|f| out.try_send(f.clone()).is_ok()));
        }
    }

    /// The labels of seat `seat`'s player in the current state (raw text when the game has none
    /// or its view fails).
    fn presenter(&mut self, seat: usize) -> Presenter {
        let player = self.plan.players[seat].clone();
        Presenter::new(&mut self.session, Some(&player), self.plan.lang.as_deref())
            .unwrap_or_else(|_| Presenter::raw())
    }

    /// The first frame of a seat: who it is and its whole history.
    fn hello(&mut self, seat: usize) -> String {
        let mut pr = self.presenter(seat);
        let history: Vec<Value> = self
            .session
            .history()
            .iter()
            .enumerate()
            .map(|(i, r)| dto::seat_record(r, i as u64 + 1, seat, &self.names[seat], &mut pr))
            .collect();
        let player_label = pr.active().then(|| pr.player(&self.plan.players[seat]));
        json!({
            "type": "hello",
            "session": self.id,
            "name": self.plan.name,
            "player": self.names[seat],
            "player_label": player_label,
            "players": self.names,
            "interrupt": self.plan.interrupt,
            "history": history,
        })
        .to_string()
    }

    /// A seat's state: its view, its legal switches, its own pending submissions, who is still to
    /// act, the deadline and its account.
    fn seat_state(&mut self, seat: usize) -> String {
        let player = self.plan.players[seat].clone();
        let built = (|| -> Result<Value, RuntimeError> {
            let finished = self.state.status != "running";
            let view: Vec<String> = self.session.view(Some(&player))?.iter().map(show).collect();
            // the game's layout (docs/reference.md "Layouts"), from this seat's view only
            let layout = sidl_engine::game::layout::layout(&mut self.session, Some(&player), None)?;
            let switches: Vec<Value> = if finished {
                Vec::new()
            } else {
                self.session
                    .switches_of(&player)?
                    .iter()
                    .map(dto::switch)
                    .collect()
            };
            let pending: Vec<[String; 2]> = self
                .session
                .pending()
                .iter()
                .filter(|s| s.player == player)
                .map(|s| [show(&s.switch), show(&s.action)])
                .collect();
            let waiting: Vec<&String> = if finished {
                Vec::new()
            } else {
                self.still_to_act()?
                    .into_iter()
                    .map(|i| &self.names[i])
                    .collect()
            };
            let account = &self.session.state().accounts[seat];
            let account = account.clone();
            let labels = dto::seat_labels(&present(
                &mut self.session,
                Some(&player),
                self.plan.lang.as_deref(),
                false,
            )?);
            Ok(json!({
                "type": "state",
                "chronon": self.session.history().len(),
                "status": self.state.status,
                "message": self.state.message,
                "deadline_ms": self.state.deadline_ms,
                "now_ms": now_ms(),
                "view": view,
                "layout": layout,
                "switches": switches,
                "pending": pending,
                "waiting": waiting,
                "account": show(&account),
                "labels": labels,
            }))
        })();
        match built {
            Ok(v) => v.to_string(),
            Err(e) => ApiError::runtime(&e).frame(),
        }
    }

    /// For the admin API: the session's progress (no hidden facts, no pending actions).
    fn status(&mut self) -> Value {
        let to_act: Vec<String> = self
            .still_to_act()
            .unwrap_or_default()
            .into_iter()
            .map(|i| self.names[i].clone())
            .collect();
        json!({
            "status": self.state.status,
            "message": self.state.message,
            "chronon": self.session.history().len(),
            "deadline_ms": self.state.deadline_ms,
            "to_act": to_act,
            "pending": self.session.pending().len(),
            "driving": self.is_driving(),
            "connected": self.subs.iter().map(|s| s.iter().filter(|o| !o.is_closed()).count()).collect::<Vec<_>>(),
            "accounts": self.session.state().accounts.iter().map(show).collect::<Vec<_>>(),
            "labels": self.monitor_labels(),
        })
    }

    /// For the monitor: the game's description and the players' and accounts' labels in the
    /// session's language (the designer's labels: the admin sees every fact), `null` without labels.
    fn monitor_labels(&mut self) -> Value {
        let mut pr = Presenter::new(&mut self.session, None, self.plan.lang.as_deref())
            .unwrap_or_else(|_| Presenter::raw());
        if !pr.active() {
            return Value::Null;
        }
        let accounts = self.session.accounts();
        json!({
            "description": pr.description(),
            "players": accounts.iter().map(|(p, _)| pr.player(p)).collect::<Vec<_>>(),
            "accounts": accounts.iter().map(|(p, x)| pr.account(p, x)).collect::<Vec<_>>(),
        })
    }
}
