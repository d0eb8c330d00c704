//! Storage: the one interface ([`Store`]) between the sessions and a database, and the rows it
//! reads and writes. The session logic (`session.rs`) and the routes (`api.rs`) only see this trait;
//! the SQLite backend is `store/sqlite.rs`, the PostgreSQL backend `store/postgres.rs` (each method
//! is one statement or one transaction; [`Store::commit`] is the only write during play).
//!
//! Several processes may share one PostgreSQL database: then the store also offers [`Cluster`]
//! (which process drives which session, and the submissions forwarded to the driver).
//!
//! The methods are synchronous: they are called from the session threads and, in the routes, through
//! `tokio::task::spawn_blocking`.

pub mod postgres;
pub mod sqlite;

use serde::{Deserialize, Serialize};

/// A storage error (the backend's message).
#[derive(Clone, Debug, PartialEq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "storage error: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

pub type StoreResult<T> = Result<T, StoreError>;

/// A session as stored: one game instance. A session of several groups is one row per group:
/// group 1's row carries the session's id, the others name it as their `parent`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionRow {
    pub id: String,
    pub name: String,
    /// The game's text (the session replays from it; a later edit of the file changes nothing).
    pub game: String,
    /// The configuration as given at creation (`config::SessionConfig` as JSON).
    pub config: String,
    pub seed: u64,
    pub created_ms: i64,
    pub state: SessionState,
    /// The group's number in its session, 1 for the first (docs/serve.md, "Groups").
    pub group: u32,
    /// For groups 2, 3, …: the session (the id of group 1) they belong to; `None` for group 1.
    pub parent: Option<String>,
    /// The session's room (`/room/NAME`), on group 1's row; `None` without one.
    pub room: Option<String>,
    /// When its first chronon started: at creation, or for a group that waited for its
    /// participants when it was full (`None`: still waiting, or stored before groups existed).
    pub started_ms: Option<i64>,
}

/// The part of a session row that changes during play.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionState {
    /// `waiting` (a group of a room not yet full: nothing runs), `running`, `paused` (by the
    /// experimenter: nothing runs, the deadline waits; docs/serve.md "Monitor"), `finished` (terminal
    /// state), `stalled` (no seat can act) or `error` (a runtime error of the game; `message` says
    /// which).
    pub status: String,
    pub message: Option<String>,
    /// How many chronons have run.
    pub chronons: u64,
    /// When the current chronon started (server clock, ms since the Unix epoch).
    pub chronon_started_ms: i64,
    /// When the current chronon ends (`None`: no deadline).
    pub deadline_ms: Option<i64>,
    /// The chronon (number of chronons run) whose automatic seats have already submitted.
    pub auto_done: Option<u64>,
    /// The drivers' RNG (`Session::rng`) after the last stored step, so that random and AI seats
    /// draw after a restart exactly as they would have without it.
    pub driver_rng: [u64; 4],
}

/// A seat: one player of a session and who plays it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatRow {
    pub session: String,
    pub index: usize,
    /// The player as canonical text.
    pub player: String,
    /// `human`, `random` or an AI spec (`engine::seats::Seat::parse`).
    pub kind: String,
    /// The secret of the seat's link (human seats; empty for automatic ones).
    pub token: String,
    /// When the participant pressed "join" (ms), or `None`.
    pub joined_ms: Option<i64>,
    /// The participant label it was given through the room link (`?participant_label=`), or
    /// `None`.
    pub label: Option<String>,
}

/// An accepted submission. Submissions are stored in order (`seq`); `chronon` is the number of
/// chronons that had run when it was made, so the ones of chronon `c` are replayed before the
/// `c+1`-th transition (a later one to the same switch replaces an earlier one, as in the engine).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmissionRow {
    pub seq: i64,
    pub chronon: u64,
    pub player: String,
    pub switch: String,
    pub action: String,
    /// `human`, `random`, `ai` or `timeout-ai` (an AI that took over a seat at its deadline).
    pub source: String,
    pub at_ms: i64,
}

/// A chronon that ran: its number (1 for the first), when, and its designer's record as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChrononRow {
    pub chronon: u64,
    pub at_ms: i64,
    pub record: String,
}

/// Something that happened to a session and changed nothing of its play, kept for the event log
/// (docs/serve.md, exports): a refused submission (`kind` `rejected`, `detail` the message as JSON:
/// `switch`, `action` or `template`/`values`, `code`, `reason`) or a seat's WebSocket opening or
/// closing (`connected`, `disconnected`; `detail` `{}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRow {
    /// Order of storing (set by the store; ignored by [`Store::log_event`]).
    pub id: i64,
    /// The number of chronons run when it happened.
    pub chronon: u64,
    pub seat: usize,
    pub kind: String,
    pub detail: String,
    pub at_ms: i64,
}

/// One atomic write of a session's progress: new submissions, new chronons and the new state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Commit {
    pub submissions: Vec<SubmissionRow>,
    pub chronons: Vec<ChrononRow>,
    pub state: Option<SessionState>,
    /// Event-log rows that belong to this change (e.g. `paused` with the time left): stored in the
    /// same transaction, so the log never says what the state does not.
    pub events: Vec<EventRow>,
    /// Forwarded submissions ([`Cluster::forward`]) answered by this commit: inbox id and the
    /// frame for the participant (always empty with one process).
    pub replies: Vec<(i64, String)>,
}

/// A submission forwarded to a session's driver by another process: the participant's seat and
/// its `submit` message (JSON, as the WebSocket received it).
#[derive(Clone, Debug, PartialEq)]
pub struct InboxRow {
    pub id: i64,
    pub seat: usize,
    pub message: String,
}

/// Several `sidl serve` processes on one database (PostgreSQL). Exactly one process drives a
/// running session (holds its lease); [`Store::commit`] succeeds only for the holder, so a process
/// that lost its lease can write nothing. The others forward their participants' submissions
/// through the database and follow the driver's commits.
pub trait Cluster: Send + Sync {
    /// This process's id in the cluster (random per start).
    fn node(&self) -> &str;
    /// Renews the leases this process holds and claims every running (or paused) session whose
    /// lease expired (or that has none). Returns the sessions this process drives now.
    fn leases(&self) -> StoreResult<Vec<String>>;
    /// Gives up every lease (at shutdown), so that another process takes over at once.
    fn release(&self) -> StoreResult<()>;
    /// `Some(when it was last alive)` when process `node` stopped renewing its heartbeat (it died:
    /// its participants' connections are gone without a `disconnected` event); `None` while it
    /// lives (or when it is unknown).
    fn node_gone(&self, node: &str) -> StoreResult<Option<i64>>;
    /// Stores a participant's submission for the driver of `session` and notifies it; its id.
    fn forward(&self, session: &str, seat: usize, message: &str) -> StoreResult<i64>;
    /// The forwarded submissions of a session not yet answered, oldest first.
    fn inbox(&self, session: &str) -> StoreResult<Vec<InboxRow>>;
    /// Answers a forwarded submission without a commit (a refusal). Only the lease holder can:
    /// false when this process does not hold it.
    fn answer(&self, session: &str, id: i64, reply: &str) -> StoreResult<bool>;
    /// The answers given so far to some forwarded submissions.
    fn answers(&self, ids: &[i64]) -> StoreResult<Vec<(i64, String)>>;
}

/// The storage interface.
pub trait Store: Send + Sync {
    /// The value of a server-wide setting (e.g. `admin_token`).
    fn meta(&self, key: &str) -> StoreResult<Option<String>>;
    fn set_meta(&self, key: &str, value: &str) -> StoreResult<()>;
    /// Stores `value` unless the setting has one already; the stored value.
    fn init_meta(&self, key: &str, value: &str) -> StoreResult<String>;
    /// Stores a new session and its seats (one transaction).
    fn create_session(&self, session: &SessionRow, seats: &[SeatRow]) -> StoreResult<()>;
    /// Every session, oldest first.
    fn sessions(&self) -> StoreResult<Vec<SessionRow>>;
    fn session(&self, id: &str) -> StoreResult<Option<SessionRow>>;
    /// A session's seats in player order.
    fn seats(&self, session: &str) -> StoreResult<Vec<SeatRow>>;
    /// The seat a link's token opens.
    fn seat_by_token(&self, token: &str) -> StoreResult<Option<SeatRow>>;
    /// Marks a seat as joined (the first time only).
    fn join_seat(&self, session: &str, index: usize, at_ms: i64) -> StoreResult<()>;
    /// A session's submissions in order.
    fn submissions(&self, session: &str) -> StoreResult<Vec<SubmissionRow>>;
    /// A session's chronons in order.
    fn chronons(&self, session: &str) -> StoreResult<Vec<ChrononRow>>;
    /// Stores one event (one statement).
    fn log_event(&self, session: &str, event: &EventRow) -> StoreResult<()>;
    /// A session's events in the order they were stored.
    fn events(&self, session: &str) -> StoreResult<Vec<EventRow>>;
    /// A session's groups in order: the session (group 1) and the rows naming it as their parent.
    /// For a group 2, 3, … only that group.
    fn groups(&self, session: &str) -> StoreResult<Vec<SessionRow>>;
    /// The newest session (group 1's row) whose room is `room`.
    fn session_by_room(&self, room: &str) -> StoreResult<Option<SessionRow>>;
    /// A seat for a participant arriving through the room of `session` (one transaction,
    /// serialised with every other arrival at the session): the seat already holding `label`, if
    /// any; else the first human seat nobody joined, in group order then seat order, which is
    /// marked as joined at `at_ms` with `label`. `None` when every seat is taken.
    fn claim_seat(
        &self,
        session: &str,
        label: Option<&str>,
        at_ms: i64,
    ) -> StoreResult<Option<SeatRow>>;
    /// A `waiting` group starts (its human seats are all joined): `running`, its first chronon
    /// starting at `at_ms` with the deadline `deadline_ms`. False when it was not waiting.
    fn start_group(&self, session: &str, at_ms: i64, deadline_ms: Option<i64>)
        -> StoreResult<bool>;
    /// Writes one step of play atomically: all of it or nothing.
    fn commit(&self, session: &str, commit: &Commit) -> StoreResult<()>;
    /// The multi-process part, for a store that several processes share (`None`: this process
    /// is the only one and drives every session).
    fn cluster(&self) -> Option<&dyn Cluster> {
        None
    }
}
