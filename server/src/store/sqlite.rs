//! The SQLite backend of [`Store`]: one file (`sidl.db` in the data folder) in WAL mode, one
//! connection behind a mutex (SQLite has one writer anyway; the writes are small), migrations by
//! `PRAGMA user_version` on open. `synchronous=FULL`: a commit is on disk when it returns, so an
//! acknowledged submission survives a power cut, not only a crash of the process.
//!
//! 64-bit unsigned values (seeds, RNG words) are stored as decimal text: SQLite integers are signed.

use super::*;
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::path::Path;
use std::sync::Mutex;

/// The schema, one script per version; a database at version `n` runs the scripts after `n`.
const MIGRATIONS: &[&str] = &[
    // 1: sessions, seats, submissions, chronons
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        config TEXT NOT NULL,
        seed TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        status TEXT NOT NULL,
        message TEXT,
        chronons INTEGER NOT NULL,
        chronon_started_ms INTEGER NOT NULL,
        deadline_ms INTEGER,
        auto_done INTEGER,
        driver_rng TEXT NOT NULL
     );
     CREATE TABLE seats (
        session TEXT NOT NULL REFERENCES sessions(id),
        idx INTEGER NOT NULL,
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT NOT NULL,
        joined_ms INTEGER,
        PRIMARY KEY (session, idx)
     );
     CREATE UNIQUE INDEX seats_token ON seats(token) WHERE token <> '';
     CREATE TABLE submissions (
        session TEXT NOT NULL REFERENCES sessions(id),
        seq INTEGER NOT NULL,
        chronon INTEGER NOT NULL,
        player TEXT NOT NULL,
        switch TEXT NOT NULL,
        action TEXT NOT NULL,
        source TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (session, seq)
     );
     CREATE TABLE chronons (
        session TEXT NOT NULL REFERENCES sessions(id),
        chronon INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (session, chronon)
     );",
    // 2: the event log's rejections and connection events
    "CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session TEXT NOT NULL REFERENCES sessions(id),
        chronon INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,
        at_ms INTEGER NOT NULL
     );
     CREATE INDEX events_session ON events(session, id);",
    // 3: groups (one row per group, groups 2, 3, … naming group 1's row), rooms, participant labels
    "ALTER TABLE sessions ADD COLUMN grp INTEGER NOT NULL DEFAULT 1;
     ALTER TABLE sessions ADD COLUMN parent TEXT REFERENCES sessions(id);
     ALTER TABLE sessions ADD COLUMN room TEXT;
     ALTER TABLE sessions ADD COLUMN started_ms INTEGER;
     ALTER TABLE seats ADD COLUMN label TEXT;
     CREATE INDEX sessions_parent ON sessions(parent, grp);
     CREATE INDEX sessions_room ON sessions(room, created_ms);",
];

/// The SQLite store.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

fn err(e: rusqlite::Error) -> StoreError {
    StoreError(e.to_string())
}

impl SqliteStore {
    /// Opens (or creates) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> StoreResult<SqliteStore> {
        let conn = Connection::open(path).map_err(err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(err)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(err)?;
        let store = SqliteStore {
            conn: Mutex::new(conn),
        };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&self) -> StoreResult<()> {
        let mut conn = self.lock();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(err)?;
        if version as usize > MIGRATIONS.len() {
            return Err(StoreError(format!(
                "the database has schema version {version}, newer than this sidl ({})",
                MIGRATIONS.len()
            )));
        }
        for (i, script) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = conn.transaction().map_err(err)?;
            tx.execute_batch(script).map_err(err)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)
                .map_err(err)?;
            tx.commit().map_err(err)?;
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // a panic while holding the lock cannot leave a half-written transaction (it rolls back
        // on drop), so a poisoned lock is still usable
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn parse_u64(text: String) -> rusqlite::Result<u64> {
    text.parse().map_err(|_| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("not a u64: {text}").into(),
        )
    })
}

fn rng_text(rng: &[u64; 4]) -> String {
    rng.iter()
        .map(|w| w.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_rng(text: String) -> rusqlite::Result<[u64; 4]> {
    let words: Vec<u64> = text
        .split(',')
        .map(|w| parse_u64(w.to_string()))
        .collect::<rusqlite::Result<_>>()?;
    words.try_into().map_err(|_| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            "an RNG state is four words".into(),
        )
    })
}

const SESSION_COLUMNS: &str =
    "id, name, game, config, seed, created_ms, status, message, chronons, \
     chronon_started_ms, deadline_ms, auto_done, driver_rng, grp, parent, room, started_ms";

fn session_row(r: &Row) -> rusqlite::Result<SessionRow> {
    Ok(SessionRow {
        id: r.get(0)?,
        name: r.get(1)?,
        game: r.get(2)?,
        config: r.get(3)?,
        seed: parse_u64(r.get(4)?)?,
        created_ms: r.get(5)?,
        state: SessionState {
            status: r.get(6)?,
            message: r.get(7)?,
            chronons: r.get::<_, i64>(8)? as u64,
            chronon_started_ms: r.get(9)?,
            deadline_ms: r.get(10)?,
            auto_done: r.get::<_, Option<i64>>(11)?.map(|n| n as u64),
            driver_rng: parse_rng(r.get(12)?)?,
        },
        group: r.get::<_, i64>(13)? as u32,
        parent: r.get(14)?,
        room: r.get(15)?,
        started_ms: r.get(16)?,
    })
}

fn seat_row(r: &Row) -> rusqlite::Result<SeatRow> {
    Ok(SeatRow {
        session: r.get(0)?,
        index: r.get::<_, i64>(1)? as usize,
        player: r.get(2)?,
        kind: r.get(3)?,
        token: r.get(4)?,
        joined_ms: r.get(5)?,
        label: r.get(6)?,
    })
}

const SEAT_COLUMNS: &str = "session, idx, player, kind, token, joined_ms, label";

impl Store for SqliteStore {
    fn meta(&self, key: &str) -> StoreResult<Option<String>> {
        self.lock()
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(err)
    }

    fn set_meta(&self, key: &str, value: &str) -> StoreResult<()> {
        self.lock()
            .execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [key, value],
            )
            .map(|_| ())
            .map_err(err)
    }

    fn init_meta(&self, key: &str, value: &str) -> StoreResult<String> {
        let conn = self.lock();
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO NOTHING",
            [key, value],
        )
        .map_err(err)?;
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .map_err(err)
    }

    fn create_session(&self, s: &SessionRow, seats: &[SeatRow]) -> StoreResult<()> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(err)?;
        tx.execute(
            &format!(
                "INSERT INTO sessions ({SESSION_COLUMNS})
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"
            ),
            params![
                s.id,
                s.name,
                s.game,
                s.config,
                s.seed.to_string(),
                s.created_ms,
                s.state.status,
                s.state.message,
                s.state.chronons as i64,
                s.state.chronon_started_ms,
                s.state.deadline_ms,
                s.state.auto_done.map(|n| n as i64),
                rng_text(&s.state.driver_rng),
                s.group as i64,
                s.parent,
                s.room,
                s.started_ms,
            ],
        )
        .map_err(err)?;
        for seat in seats {
            tx.execute(
                &format!("INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
                params![
                    seat.session,
                    seat.index as i64,
                    seat.player,
                    seat.kind,
                    seat.token,
                    seat.joined_ms,
                    seat.label
                ],
            )
            .map_err(err)?;
        }
        tx.commit().map_err(err)
    }

    fn sessions(&self) -> StoreResult<Vec<SessionRow>> {
        let conn = self.lock();
        let mut st = conn
            .prepare(&format!(
                "SELECT {SESSION_COLUMNS} FROM sessions ORDER BY created_ms, id"
            ))
            .map_err(err)?;
        let rows = st.query_map([], session_row).map_err(err)?;
        rows.collect::<rusqlite::Result<_>>().map_err(err)
    }

    fn session(&self, id: &str) -> StoreResult<Option<SessionRow>> {
        self.lock()
            .query_row(
                &format!("SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?1"),
                [id],
                session_row,
            )
            .optional()
            .map_err(err)
    }

    fn seats(&self, session: &str) -> StoreResult<Vec<SeatRow>> {
        let conn = self.lock();
        let mut st = conn
            .prepare(&format!(
                "SELECT {SEAT_COLUMNS} FROM seats WHERE session = ?1 ORDER BY idx"
            ))
            .map_err(err)?;
        let rows = st.query_map([session], seat_row).map_err(err)?;
        rows.collect::<rusqlite::Result<_>>().map_err(err)
    }

    fn seat_by_token(&self, token: &str) -> StoreResult<Option<SeatRow>> {
        if token.is_empty() {
            return Ok(None);
        }
        self.lock()
            .query_row(
                &format!("SELECT {SEAT_COLUMNS} FROM seats WHERE token = ?1"),
                [token],
                seat_row,
            )
            .optional()
            .map_err(err)
    }

    fn join_seat(&self, session: &str, index: usize, at_ms: i64) -> StoreResult<()> {
        self.lock()
            .execute(
                "UPDATE seats SET joined_ms = ?3
                 WHERE session = ?1 AND idx = ?2 AND joined_ms IS NULL",
                params![session, index as i64, at_ms],
            )
            .map(|_| ())
            .map_err(err)
    }

    fn submissions(&self, session: &str) -> StoreResult<Vec<SubmissionRow>> {
        let conn = self.lock();
        let mut st = conn
            .prepare(
                "SELECT seq, chronon, player, switch, action, source, at_ms FROM submissions
                 WHERE session = ?1 ORDER BY seq",
            )
            .map_err(err)?;
        let rows = st
            .query_map([session], |r| {
                Ok(SubmissionRow {
                    seq: r.get(0)?,
                    chronon: r.get::<_, i64>(1)? as u64,
                    player: r.get(2)?,
                    switch: r.get(3)?,
                    action: r.get(4)?,
                    source: r.get(5)?,
                    at_ms: r.get(6)?,
                })
            })
            .map_err(err)?;
        rows.collect::<rusqlite::Result<_>>().map_err(err)
    }

    fn chronons(&self, session: &str) -> StoreResult<Vec<ChrononRow>> {
        let conn = self.lock();
        let mut st = conn
            .prepare(
                "SELECT chronon, at_ms, record FROM chronons WHERE session = ?1 ORDER BY chronon",
            )
            .map_err(err)?;
        let rows = st
            .query_map([session], |r| {
                Ok(ChrononRow {
                    chronon: r.get::<_, i64>(0)? as u64,
                    at_ms: r.get(1)?,
                    record: r.get(2)?,
                })
            })
            .map_err(err)?;
        rows.collect::<rusqlite::Result<_>>().map_err(err)
    }

    fn log_event(&self, session: &str, e: &EventRow) -> StoreResult<()> {
        insert_event(&self.lock(), session, e).map_err(err)
    }

    fn events(&self, session: &str) -> StoreResult<Vec<EventRow>> {
        let conn = self.lock();
        let mut st = conn
            .prepare(
                "SELECT id, chronon, seat, kind, detail, at_ms FROM events
                 WHERE session = ?1 ORDER BY id",
            )
            .map_err(err)?;
        let rows = st
            .query_map([session], |r| {
                Ok(EventRow {
                    id: r.get(0)?,
                    chronon: r.get::<_, i64>(1)? as u64,
                    seat: r.get::<_, i64>(2)? as usize,
                    kind: r.get(3)?,
                    detail: r.get(4)?,
                    at_ms: r.get(5)?,
                })
            })
            .map_err(err)?;
        rows.collect::<rusqlite::Result<_>>().map_err(err)
    }

    fn groups(&self, session: &str) -> StoreResult<Vec<SessionRow>> {
        let conn = self.lock();
        let mut st = conn
            .prepare(&format!(
                "SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?1 OR parent = ?1 ORDER BY grp"
            ))
            .map_err(err)?;
        let rows = st.query_map([session], session_row).map_err(err)?;
        rows.collect::<rusqlite::Result<_>>().map_err(err)
    }

    fn session_by_room(&self, room: &str) -> StoreResult<Option<SessionRow>> {
        self.lock()
            .query_row(
                &format!(
                    "SELECT {SESSION_COLUMNS} FROM sessions WHERE room = ?1 AND parent IS NULL
                     ORDER BY created_ms DESC, rowid DESC LIMIT 1"
                ),
                [room],
                session_row,
            )
            .optional()
            .map_err(err)
    }

    fn claim_seat(
        &self,
        session: &str,
        label: Option<&str>,
        at_ms: i64,
    ) -> StoreResult<Option<SeatRow>> {
        let mut conn = self.lock();
        // IMMEDIATE: the write lock first, so that two arrivals never take the same seat
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        let cols = "s.session, s.idx, s.player, s.kind, s.token, s.joined_ms, s.label";
        let from = "FROM seats s JOIN sessions g ON s.session = g.id
                    WHERE (g.id = ?1 OR g.parent = ?1)";
        if let Some(l) = label {
            let held = tx
                .query_row(
                    &format!("SELECT {cols} {from} AND s.label = ?2"),
                    params![session, l],
                    seat_row,
                )
                .optional()
                .map_err(err)?;
            if held.is_some() {
                tx.commit().map_err(err)?;
                return Ok(held);
            }
        }
        let free = tx
            .query_row(
                &format!(
                    "SELECT {cols} {from} AND s.token <> '' AND s.joined_ms IS NULL
                     AND s.label IS NULL ORDER BY g.grp, s.idx LIMIT 1"
                ),
                [session],
                seat_row,
            )
            .optional()
            .map_err(err)?;
        let Some(mut seat) = free else {
            return Ok(None);
        };
        tx.execute(
            "UPDATE seats SET joined_ms = ?3, label = ?4 WHERE session = ?1 AND idx = ?2",
            params![seat.session, seat.index as i64, at_ms, label],
        )
        .map_err(err)?;
        tx.commit().map_err(err)?;
        seat.joined_ms = Some(at_ms);
        seat.label = label.map(str::to_string);
        Ok(Some(seat))
    }

    fn start_group(
        &self,
        session: &str,
        at_ms: i64,
        deadline_ms: Option<i64>,
    ) -> StoreResult<bool> {
        self.lock()
            .execute(
                "UPDATE sessions SET status = 'running', chronon_started_ms = ?2, deadline_ms = ?3,
                    started_ms = ?2
                 WHERE id = ?1 AND status = 'waiting'",
                params![session, at_ms, deadline_ms],
            )
            .map(|n| n == 1)
            .map_err(err)
    }

    fn commit(&self, session: &str, c: &Commit) -> StoreResult<()> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(err)?;
        for s in &c.submissions {
            tx.execute(
                "INSERT INTO submissions (session, seq, chronon, player, switch, action, source, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    session,
                    s.seq,
                    s.chronon as i64,
                    s.player,
                    s.switch,
                    s.action,
                    s.source,
                    s.at_ms
                ],
            )
            .map_err(err)?;
        }
        for ch in &c.chronons {
            tx.execute(
                "INSERT INTO chronons (session, chronon, at_ms, record) VALUES (?1, ?2, ?3, ?4)",
                params![session, ch.chronon as i64, ch.at_ms, ch.record],
            )
            .map_err(err)?;
        }
        for e in &c.events {
            insert_event(&tx, session, e).map_err(err)?;
        }
        if let Some(st) = &c.state {
            let n = tx
                .execute(
                    "UPDATE sessions SET status = ?2, message = ?3, chronons = ?4,
                        chronon_started_ms = ?5, deadline_ms = ?6, auto_done = ?7, driver_rng = ?8
                     WHERE id = ?1",
                    params![
                        session,
                        st.status,
                        st.message,
                        st.chronons as i64,
                        st.chronon_started_ms,
                        st.deadline_ms,
                        st.auto_done.map(|n| n as i64),
                        rng_text(&st.driver_rng),
                    ],
                )
                .map_err(err)?;
            if n != 1 {
                return Err(StoreError(format!("no session {session}")));
            }
        }
        tx.commit().map_err(err)
    }
}

/// One row of the event log (alone, or inside a commit's transaction).
fn insert_event(conn: &Connection, session: &str, e: &EventRow) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO events (session, chronon, seat, kind, detail, at_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            session,
            e.chronon as i64,
            e.seat as i64,
            e.kind,
            e.detail,
            e.at_ms
        ],
    )
    .map(|_| ())
}
