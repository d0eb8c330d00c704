//! The PostgreSQL backend of [`Store`] (`sidl serve --database postgres://…`), with [`Cluster`]:
//! several `sidl serve` processes on one database.
//!
//! rust-postgres' synchronous client (`postgres`), like rusqlite for SQLite: the session threads are
//! synchronous, and the client brings no pool or compile-time database. One connection behind a
//! mutex for the store's statements (reconnected when it broke), one more per process for
//! notifications ([`Listener`]). Migrations run on open under an advisory transaction lock, so
//! processes starting together migrate once. The same columns as SQLite (64-bit unsigned values as
//! decimal text), plus:
//!
//! - `sessions.driver`, `sessions.lease_until`: the process that drives a running session and until
//!   when (the database's clock). [`Cluster::leases`] renews and claims; every [`Store::commit`]
//!   first locks the session's row and checks that this process holds an unexpired lease, so a
//!   process that lost its lease (or was thought dead) writes nothing.
//! - `inbox`: submissions that a process forwarded to the driver ([`Cluster::forward`]) and, once
//!   the driver decided, the frame to send back (`reply`), written in the same transaction as the
//!   submission it acknowledges.
//!
//! Notifications (channel `sidl`, `LISTEN`/`NOTIFY`, sent at commit): `e:SESSION` after every commit
//! or answer (followers reload, relays deliver acknowledgements), `i:SESSION` after a forward (the
//! driver takes its inbox).

use super::*;
use ::postgres::fallible_iterator::FallibleIterator;
use ::postgres::{Client, NoTls, Row};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// How long a lease lasts without renewal. A process renews its leases every
/// [`LEASE_TICK`]; when it dies, another claims its sessions after at most `LEASE + LEASE_TICK`.
pub const LEASE: Duration = Duration::from_secs(5);
/// How often a process renews its leases and looks for sessions without a live driver.
pub const LEASE_TICK: Duration = Duration::from_secs(1);
/// The notification channel.
pub const CHANNEL: &str = "sidl";

/// The schema, one script per version (the same tables as SQLite's, plus the cluster's).
const MIGRATIONS: &[&str] = &[
    // 1: sessions, seats, submissions, chronons; leases and the inbox
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        config TEXT NOT NULL,
        seed TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        status TEXT NOT NULL,
        message TEXT,
        chronons BIGINT NOT NULL,
        chronon_started_ms BIGINT NOT NULL,
        deadline_ms BIGINT,
        auto_done BIGINT,
        driver_rng TEXT NOT NULL,
        driver TEXT,
        lease_until TIMESTAMPTZ
     );
     CREATE TABLE seats (
        session TEXT NOT NULL REFERENCES sessions(id),
        idx BIGINT NOT NULL,
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT NOT NULL,
        joined_ms BIGINT,
        PRIMARY KEY (session, idx)
     );
     CREATE UNIQUE INDEX seats_token ON seats(token) WHERE token <> '';
     CREATE TABLE submissions (
        session TEXT NOT NULL REFERENCES sessions(id),
        seq BIGINT NOT NULL,
        chronon BIGINT NOT NULL,
        player TEXT NOT NULL,
        switch TEXT NOT NULL,
        action TEXT NOT NULL,
        source TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (session, seq)
     );
     CREATE TABLE chronons (
        session TEXT NOT NULL REFERENCES sessions(id),
        chronon BIGINT NOT NULL,
        at_ms BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (session, chronon)
     );
     CREATE TABLE inbox (
        id BIGSERIAL PRIMARY KEY,
        session TEXT NOT NULL REFERENCES sessions(id),
        seat BIGINT NOT NULL,
        message TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        reply TEXT
     );
     CREATE INDEX inbox_open ON inbox(session, id) WHERE reply IS NULL;",
    // 2: the event log's rejections and connection events
    "CREATE TABLE events (
        id BIGSERIAL PRIMARY KEY,
        session TEXT NOT NULL REFERENCES sessions(id),
        chronon BIGINT NOT NULL,
        seat BIGINT NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,
        at_ms BIGINT NOT NULL
     );
     CREATE INDEX events_session ON events(session, id);",
    // 3: groups (one row per group, groups 2, 3, … naming group 1's row), rooms, participant labels
    "ALTER TABLE sessions ADD COLUMN grp INTEGER NOT NULL DEFAULT 1;
     ALTER TABLE sessions ADD COLUMN parent TEXT REFERENCES sessions(id);
     ALTER TABLE sessions ADD COLUMN room TEXT;
     ALTER TABLE sessions ADD COLUMN started_ms BIGINT;
     ALTER TABLE seats ADD COLUMN label TEXT;
     CREATE INDEX sessions_parent ON sessions(parent, grp);
     CREATE INDEX sessions_room ON sessions(room, created_ms);",
    // 4: the processes' heartbeats (a participant connected to a dead process is disconnected)
    "CREATE TABLE nodes (
        node TEXT PRIMARY KEY,
        alive_until TIMESTAMPTZ NOT NULL,
        seen_ms BIGINT NOT NULL
     );",
];

/// The key of the advisory lock that serialises migrations.
const MIGRATION_LOCK: i64 = 0x5349_444c_0001;

fn err(e: ::postgres::Error) -> StoreError {
    StoreError(e.to_string())
}

/// The PostgreSQL store.
pub struct PgStore {
    url: String,
    node: String,
    client: Mutex<Option<Client>>,
}

impl PgStore {
    /// Connects, brings the schema up to date; `node` names this process in the cluster.
    pub fn open(url: &str, node: &str) -> StoreResult<PgStore> {
        let store = PgStore {
            url: url.to_string(),
            node: node.to_string(),
            client: Mutex::new(None),
        };
        store.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
            tx.batch_execute("CREATE TABLE IF NOT EXISTS sidl_schema (version INTEGER NOT NULL)")?;
            let version: i32 = tx
                .query_opt("SELECT version FROM sidl_schema", &[])?
                .map_or(0, |r| r.get(0));
            if version as usize > MIGRATIONS.len() {
                return Ok(Err(StoreError(format!(
                    "the database has schema version {version}, newer than this sidl ({})",
                    MIGRATIONS.len()
                ))));
            }
            for script in MIGRATIONS.iter().skip(version as usize) {
                tx.batch_execute(script)?;
            }
            let now = MIGRATIONS.len() as i32;
            if version == 0 {
                tx.execute("INSERT INTO sidl_schema (version) VALUES ($1)", &[&now])?;
            } else {
                tx.execute("UPDATE sidl_schema SET version = $1", &[&now])?;
            }
            tx.commit()?;
            Ok(Ok(()))
        })??;
        Ok(store)
    }

    /// A new connection to the same database (for [`Listener`]).
    fn connect(&self) -> StoreResult<Client> {
        Client::connect(&self.url, NoTls).map_err(err)
    }

    /// Runs `f` on the store's connection, connecting first when there is none or it broke.
    fn with<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, ::postgres::Error>,
    ) -> StoreResult<T> {
        let mut guard: MutexGuard<'_, Option<Client>> =
            self.client.lock().unwrap_or_else(|p| p.into_inner());
        if guard.as_ref().is_none_or(|c| c.is_closed()) {
            *guard = Some(self.connect()?);
        }
        let client = guard.as_mut().expect("connected above");
        let out = f(client);
        if client.is_closed() {
            *guard = None;
        }
        out.map_err(err)
    }

    /// A connection that listens on [`CHANNEL`].
    pub fn listen(&self) -> StoreResult<Listener> {
        let mut client = self.connect()?;
        client
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .map_err(err)?;
        Ok(Listener { client })
    }
}

/// A connection that receives the cluster's notifications.
pub struct Listener {
    client: Client,
}

impl Listener {
    /// The payloads that arrive within `timeout` (waits for the first one at most that long, then
    /// takes what else is there). An error when the connection broke.
    pub fn wait(&mut self, timeout: Duration) -> StoreResult<Vec<String>> {
        let mut out = Vec::new();
        let mut n = self.client.notifications();
        let first = n.timeout_iter(timeout).next().map_err(err)?;
        if let Some(first) = first {
            out.push(first.payload().to_string());
            let mut rest = n.iter();
            while let Some(more) = rest.next().map_err(err)? {
                out.push(more.payload().to_string());
            }
        }
        Ok(out)
    }
}

fn parse_u64(text: &str) -> StoreResult<u64> {
    text.parse()
        .map_err(|_| StoreError(format!("not a u64: {text}")))
}

fn rng_text(rng: &[u64; 4]) -> String {
    rng.iter()
        .map(|w| w.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_rng(text: &str) -> StoreResult<[u64; 4]> {
    let words: Vec<u64> = text.split(',').map(parse_u64).collect::<StoreResult<_>>()?;
    words
        .try_into()
        .map_err(|_| StoreError("an RNG state is four words".into()))
}

const SESSION_COLUMNS: &str =
    "id, name, game, config, seed, created_ms, status, message, chronons, \
     chronon_started_ms, deadline_ms, auto_done, driver_rng, grp, parent, room, started_ms";

fn session_row(r: &Row) -> StoreResult<SessionRow> {
    Ok(SessionRow {
        id: r.get(0),
        name: r.get(1),
        game: r.get(2),
        config: r.get(3),
        seed: parse_u64(r.get(4))?,
        created_ms: r.get(5),
        state: SessionState {
            status: r.get(6),
            message: r.get(7),
            chronons: r.get::<_, i64>(8) as u64,
            chronon_started_ms: r.get(9),
            deadline_ms: r.get(10),
            auto_done: r.get::<_, Option<i64>>(11).map(|n| n as u64),
            driver_rng: parse_rng(r.get(12))?,
        },
        group: r.get::<_, i32>(13) as u32,
        parent: r.get(14),
        room: r.get(15),
        started_ms: r.get(16),
    })
}

const SEAT_COLUMNS: &str = "session, idx, player, kind, token, joined_ms, label";

fn seat_row(r: &Row) -> SeatRow {
    SeatRow {
        session: r.get(0),
        index: r.get::<_, i64>(1) as usize,
        player: r.get(2),
        kind: r.get(3),
        token: r.get(4),
        joined_ms: r.get(5),
        label: r.get(6),
    }
}

/// The lease as an SQL interval.
fn lease_sql() -> String {
    format!("interval '{} milliseconds'", LEASE.as_millis())
}

impl Store for PgStore {
    fn meta(&self, key: &str) -> StoreResult<Option<String>> {
        self.with(|c| {
            c.query_opt("SELECT value FROM meta WHERE key = $1", &[&key])
                .map(|r| r.map(|r| r.get(0)))
        })
    }

    fn set_meta(&self, key: &str, value: &str) -> StoreResult<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&key, &value],
            )
            .map(|_| ())
        })
    }

    fn init_meta(&self, key: &str, value: &str) -> StoreResult<String> {
        self.with(|c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                &[&key, &value],
            )?;
            c.query_one("SELECT value FROM meta WHERE key = $1", &[&key])
                .map(|r| r.get(0))
        })
    }

    /// The new session is driven by this process (it starts its thread at once).
    fn create_session(&self, s: &SessionRow, seats: &[SeatRow]) -> StoreResult<()> {
        let lease = lease_sql();
        self.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                &format!(
                    "INSERT INTO sessions ({SESSION_COLUMNS}, driver, lease_until)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $15,
                             $16, $17, $18, $14, clock_timestamp() + {lease})"
                ),
                &[
                    &s.id,
                    &s.name,
                    &s.game,
                    &s.config,
                    &s.seed.to_string(),
                    &s.created_ms,
                    &s.state.status,
                    &s.state.message,
                    &(s.state.chronons as i64),
                    &s.state.chronon_started_ms,
                    &s.state.deadline_ms,
                    &s.state.auto_done.map(|n| n as i64),
                    &rng_text(&s.state.driver_rng),
                    &self.node,
                    &(s.group as i32),
                    &s.parent,
                    &s.room,
                    &s.started_ms,
                ],
            )?;
            for seat in seats {
                tx.execute(
                    &format!(
                        "INSERT INTO seats ({SEAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                    ),
                    &[
                        &seat.session,
                        &(seat.index as i64),
                        &seat.player,
                        &seat.kind,
                        &seat.token,
                        &seat.joined_ms,
                        &seat.label,
                    ],
                )?;
            }
            tx.commit()
        })
    }

    fn sessions(&self) -> StoreResult<Vec<SessionRow>> {
        let rows = self.with(|c| {
            c.query(
                &format!("SELECT {SESSION_COLUMNS} FROM sessions ORDER BY created_ms, id"),
                &[],
            )
        })?;
        rows.iter().map(session_row).collect()
    }

    fn session(&self, id: &str) -> StoreResult<Option<SessionRow>> {
        let row = self.with(|c| {
            c.query_opt(
                &format!("SELECT {SESSION_COLUMNS} FROM sessions WHERE id = $1"),
                &[&id],
            )
        })?;
        row.as_ref().map(session_row).transpose()
    }

    fn seats(&self, session: &str) -> StoreResult<Vec<SeatRow>> {
        let rows = self.with(|c| {
            c.query(
                &format!("SELECT {SEAT_COLUMNS} FROM seats WHERE session = $1 ORDER BY idx"),
                &[&session],
            )
        })?;
        Ok(rows.iter().map(seat_row).collect())
    }

    fn seat_by_token(&self, token: &str) -> StoreResult<Option<SeatRow>> {
        if token.is_empty() {
            return Ok(None);
        }
        let row = self.with(|c| {
            c.query_opt(
                &format!("SELECT {SEAT_COLUMNS} FROM seats WHERE token = $1"),
                &[&token],
            )
        })?;
        Ok(row.as_ref().map(seat_row))
    }

    fn join_seat(&self, session: &str, index: usize, at_ms: i64) -> StoreResult<()> {
        self.with(|c| {
            c.execute(
                "UPDATE seats SET joined_ms = $3
                 WHERE session = $1 AND idx = $2 AND joined_ms IS NULL",
                &[&session, &(index as i64), &at_ms],
            )
            .map(|_| ())
        })
    }

    fn submissions(&self, session: &str) -> StoreResult<Vec<SubmissionRow>> {
        let rows = self.with(|c| {
            c.query(
                "SELECT seq, chronon, player, switch, action, source, at_ms FROM submissions
                 WHERE session = $1 ORDER BY seq",
                &[&session],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| SubmissionRow {
                seq: r.get(0),
                chronon: r.get::<_, i64>(1) as u64,
                player: r.get(2),
                switch: r.get(3),
                action: r.get(4),
                source: r.get(5),
                at_ms: r.get(6),
            })
            .collect())
    }

    fn chronons(&self, session: &str) -> StoreResult<Vec<ChrononRow>> {
        let rows = self.with(|c| {
            c.query(
                "SELECT chronon, at_ms, record FROM chronons WHERE session = $1 ORDER BY chronon",
                &[&session],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| ChrononRow {
                chronon: r.get::<_, i64>(0) as u64,
                at_ms: r.get(1),
                record: r.get(2),
            })
            .collect())
    }

    fn log_event(&self, session: &str, e: &EventRow) -> StoreResult<()> {
        self.with(|c| insert_event(c, session, e))
    }

    fn events(&self, session: &str) -> StoreResult<Vec<EventRow>> {
        let rows = self.with(|c| {
            c.query(
                "SELECT id, chronon, seat, kind, detail, at_ms FROM events
                 WHERE session = $1 ORDER BY id",
                &[&session],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| EventRow {
                id: r.get(0),
                chronon: r.get::<_, i64>(1) as u64,
                seat: r.get::<_, i64>(2) as usize,
                kind: r.get(3),
                detail: r.get(4),
                at_ms: r.get(5),
            })
            .collect())
    }

    fn groups(&self, session: &str) -> StoreResult<Vec<SessionRow>> {
        let rows = self.with(|c| {
            c.query(
                &format!(
                    "SELECT {SESSION_COLUMNS} FROM sessions WHERE id = $1 OR parent = $1
                     ORDER BY grp"
                ),
                &[&session],
            )
        })?;
        rows.iter().map(session_row).collect()
    }

    fn session_by_room(&self, room: &str) -> StoreResult<Option<SessionRow>> {
        let row = self.with(|c| {
            c.query_opt(
                &format!(
                    "SELECT {SESSION_COLUMNS} FROM sessions WHERE room = $1 AND parent IS NULL
                     ORDER BY created_ms DESC, id DESC LIMIT 1"
                ),
                &[&room],
            )
        })?;
        row.as_ref().map(session_row).transpose()
    }

    /// Locks group 1's row first: the arrivals at a session are serialised across processes.
    fn claim_seat(
        &self,
        session: &str,
        label: Option<&str>,
        at_ms: i64,
    ) -> StoreResult<Option<SeatRow>> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE",
                &[&session],
            )?;
            let cols = "s.session, s.idx, s.player, s.kind, s.token, s.joined_ms, s.label";
            let from = "FROM seats s JOIN sessions g ON s.session = g.id
                        WHERE (g.id = $1 OR g.parent = $1)";
            if let Some(l) = label {
                let held = tx.query_opt(
                    &format!("SELECT {cols} {from} AND s.label = $2"),
                    &[&session, &l],
                )?;
                if let Some(r) = held {
                    tx.commit()?;
                    return Ok(Some(seat_row(&r)));
                }
            }
            let free = tx.query_opt(
                &format!(
                    "SELECT {cols} {from} AND s.token <> '' AND s.joined_ms IS NULL
                     AND s.label IS NULL ORDER BY g.grp, s.idx LIMIT 1"
                ),
                &[&session],
            )?;
            let Some(r) = free else {
                return Ok(None);
            };
            let mut seat = seat_row(&r);
            tx.execute(
                "UPDATE seats SET joined_ms = $3, label = $4 WHERE session = $1 AND idx = $2",
                &[&seat.session, &(seat.index as i64), &at_ms, &label],
            )?;
            tx.commit()?;
            seat.joined_ms = Some(at_ms);
            seat.label = label.map(str::to_string);
            Ok(Some(seat))
        })
    }

    /// Notifies like a commit, so that the processes with participants of the group reload it;
    /// the group gets a driver at the next lease round.
    fn start_group(
        &self,
        session: &str,
        at_ms: i64,
        deadline_ms: Option<i64>,
    ) -> StoreResult<bool> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            let n = tx.execute(
                "UPDATE sessions SET status = 'running', chronon_started_ms = $2, deadline_ms = $3,
                    started_ms = $2
                 WHERE id = $1 AND status = 'waiting'",
                &[&session, &at_ms, &deadline_ms],
            )?;
            if n == 1 {
                tx.execute(
                    "SELECT pg_notify($1, $2)",
                    &[&CHANNEL, &format!("e:{session}")],
                )?;
            }
            tx.commit()?;
            Ok(n == 1)
        })
    }

    /// Locks the session's row and checks the lease first: only the process that drives the
    /// session writes, and nobody claims the session while the commit is under way.
    fn commit(&self, session: &str, c: &Commit) -> StoreResult<()> {
        let out = self.with(|client| {
            let mut tx = client.transaction()?;
            let held = tx.execute(
                "UPDATE sessions SET driver = driver
                 WHERE id = $1 AND driver = $2 AND lease_until > clock_timestamp()",
                &[&session, &self.node],
            )?;
            if held != 1 {
                return Ok(false);
            }
            for s in &c.submissions {
                tx.execute(
                    "INSERT INTO submissions
                        (session, seq, chronon, player, switch, action, source, at_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    &[
                        &session,
                        &s.seq,
                        &(s.chronon as i64),
                        &s.player,
                        &s.switch,
                        &s.action,
                        &s.source,
                        &s.at_ms,
                    ],
                )?;
            }
            for ch in &c.chronons {
                tx.execute(
                    "INSERT INTO chronons (session, chronon, at_ms, record)
                     VALUES ($1, $2, $3, $4)",
                    &[&session, &(ch.chronon as i64), &ch.at_ms, &ch.record],
                )?;
            }
            for e in &c.events {
                insert_event(&mut tx, session, e)?;
            }
            if let Some(st) = &c.state {
                tx.execute(
                    "UPDATE sessions SET status = $2, message = $3, chronons = $4,
                        chronon_started_ms = $5, deadline_ms = $6, auto_done = $7,
                        driver_rng = $8
                     WHERE id = $1",
                    &[
                        &session,
                        &st.status,
                        &st.message,
                        &(st.chronons as i64),
                        &st.chronon_started_ms,
                        &st.deadline_ms,
                        &st.auto_done.map(|n| n as i64),
                        &rng_text(&st.driver_rng),
                    ],
                )?;
            }
            for (id, reply) in &c.replies {
                tx.execute(
                    "UPDATE inbox SET reply = $3 WHERE id = $1 AND session = $2",
                    &[id, &session, reply],
                )?;
            }
            tx.execute(
                "SELECT pg_notify($1, $2)",
                &[&CHANNEL, &format!("e:{session}")],
            )?;
            tx.commit()?;
            Ok(true)
        })?;
        if out {
            Ok(())
        } else {
            Err(StoreError(format!(
                "session {session}: this process does not drive it (no session, or its lease \
                 passed to another process)"
            )))
        }
    }

    fn cluster(&self) -> Option<&dyn Cluster> {
        Some(self)
    }
}

impl Cluster for PgStore {
    fn node(&self) -> &str {
        &self.node
    }

    fn leases(&self) -> StoreResult<Vec<String>> {
        let lease = lease_sql();
        self.with(|c| {
            // this process is alive for another lease: its participants' connections count
            c.execute(
                &format!(
                    "INSERT INTO nodes (node, alive_until, seen_ms)
                     VALUES ($1, clock_timestamp() + {lease}, $2)
                     ON CONFLICT (node) DO UPDATE
                        SET alive_until = EXCLUDED.alive_until, seen_ms = EXCLUDED.seen_ms"
                ),
                &[&self.node, &crate::session::now_ms()],
            )?;
            let rows = c.query(
                &format!(
                    "UPDATE sessions SET driver = $1, lease_until = clock_timestamp() + {lease}
                     WHERE status IN ('running', 'paused')
                       AND (driver = $1 OR driver IS NULL OR lease_until IS NULL
                            OR lease_until < clock_timestamp())
                     RETURNING id"
                ),
                &[&self.node],
            )?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn release(&self) -> StoreResult<()> {
        self.with(|c| {
            c.execute(
                "UPDATE sessions SET driver = NULL, lease_until = NULL WHERE driver = $1",
                &[&self.node],
            )
            .map(|_| ())
        })
    }

    fn node_gone(&self, node: &str) -> StoreResult<Option<i64>> {
        self.with(|c| {
            let row = c.query_opt(
                "SELECT seen_ms FROM nodes WHERE node = $1 AND alive_until < clock_timestamp()",
                &[&node],
            )?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn forward(&self, session: &str, seat: usize, message: &str) -> StoreResult<i64> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            let id: i64 = tx
                .query_one(
                    "INSERT INTO inbox (session, seat, message, created_ms)
                     VALUES ($1, $2, $3, $4) RETURNING id",
                    &[
                        &session,
                        &(seat as i64),
                        &message,
                        &crate::session::now_ms(),
                    ],
                )?
                .get(0);
            tx.execute(
                "SELECT pg_notify($1, $2)",
                &[&CHANNEL, &format!("i:{session}")],
            )?;
            tx.commit()?;
            Ok(id)
        })
    }

    fn inbox(&self, session: &str) -> StoreResult<Vec<InboxRow>> {
        let rows = self.with(|c| {
            c.query(
                "SELECT id, seat, message FROM inbox
                 WHERE session = $1 AND reply IS NULL ORDER BY id",
                &[&session],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| InboxRow {
                id: r.get(0),
                seat: r.get::<_, i64>(1) as usize,
                message: r.get(2),
            })
            .collect())
    }

    fn answer(&self, session: &str, id: i64, reply: &str) -> StoreResult<bool> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            let n = tx.execute(
                "UPDATE inbox SET reply = $3
                 WHERE id = $2 AND session = $1 AND reply IS NULL AND EXISTS (
                    SELECT 1 FROM sessions WHERE id = $1 AND driver = $4
                       AND lease_until > clock_timestamp())",
                &[&session, &id, &reply, &self.node],
            )?;
            tx.execute(
                "SELECT pg_notify($1, $2)",
                &[&CHANNEL, &format!("e:{session}")],
            )?;
            tx.commit()?;
            Ok(n == 1)
        })
    }

    fn answers(&self, ids: &[i64]) -> StoreResult<Vec<(i64, String)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids = ids.to_vec();
        let rows = self.with(|c| {
            c.query(
                "SELECT id, reply FROM inbox WHERE id = ANY($1) AND reply IS NOT NULL ORDER BY id",
                &[&ids],
            )
        })?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }
}

/// One row of the event log (alone, or inside a commit's transaction).
fn insert_event(
    c: &mut impl ::postgres::GenericClient,
    session: &str,
    e: &EventRow,
) -> Result<(), ::postgres::Error> {
    c.execute(
        "INSERT INTO events (session, chronon, seat, kind, detail, at_ms)
         VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            &session,
            &(e.chronon as i64),
            &(e.seat as i64),
            &e.kind,
            &e.detail,
            &e.at_ms,
        ],
    )
    .map(|_| ())
}
