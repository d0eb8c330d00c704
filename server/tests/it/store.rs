//! The stores on their own (SQLite and PostgreSQL): migrations on an existing database change
//! nothing, a commit is all or nothing, rows come back as written (u64 seeds and RNG words beyond
//! i64 included); on PostgreSQL, only the process holding a session's lease commits, and the
//! inbox of forwarded submissions.

use crate::support::Db;
use sidl_server::store::{
    ChrononRow, Commit, EventRow, SeatRow, SessionRow, SessionState, SubmissionRow,
};

fn event(kind: &str) -> EventRow {
    EventRow {
        id: 0,
        chronon: 1,
        seat: 0,
        kind: kind.into(),
        detail: "{}".into(),
        at_ms: 3,
    }
}

fn session(id: &str) -> SessionRow {
    SessionRow {
        id: id.into(),
        name: "n".into(),
        game: "game(g).".into(),
        config: "{}".into(),
        seed: u64::MAX - 1,
        created_ms: 1,
        state: SessionState {
            status: "running".into(),
            message: None,
            chronons: 0,
            chronon_started_ms: 1,
            deadline_ms: Some(5),
            auto_done: None,
            driver_rng: [u64::MAX, 0, 1, 1 << 63],
        },
        group: 1,
        ..SessionRow::default()
    }
}

fn sub(seq: i64, chronon: u64) -> SubmissionRow {
    SubmissionRow {
        seq,
        chronon,
        player: "[p]".into(),
        switch: "[s]".into(),
        action: "[a]".into(),
        source: "human".into(),
        at_ms: 2,
    }
}

mod commits_are_atomic_and_rows_round_trip {
    #[test]
    fn sqlite() {
        super::commits_are_atomic_and_rows_round_trip(crate::support::Db::sqlite())
    }
    #[test]
    fn postgres() {
        if let Some(db) = crate::support::Db::postgres() {
            super::commits_are_atomic_and_rows_round_trip(db)
        }
    }
}

fn commits_are_atomic_and_rows_round_trip(db: Db) {
    let store = db.store("node-a");
    let seat = SeatRow {
        session: "s1".into(),
        index: 0,
        player: "[p]".into(),
        kind: "human".into(),
        token: "t".into(),
        joined_ms: None,
        label: None,
    };
    store
        .create_session(&session("s1"), std::slice::from_ref(&seat))
        .unwrap();
    assert_eq!(store.session("s1").unwrap().unwrap(), session("s1"));
    assert_eq!(store.seat_by_token("t").unwrap().unwrap(), seat);
    assert_eq!(store.seat_by_token("").unwrap(), None);
    // a setting is stored once: a later init keeps the first value
    assert_eq!(store.init_meta("k", "first").unwrap(), "first");
    assert_eq!(store.init_meta("k", "second").unwrap(), "first");
    store.set_meta("k", "third").unwrap();
    assert_eq!(store.meta("k").unwrap().as_deref(), Some("third"));

    let mut state = session("s1").state;
    state.chronons = 1;
    let ok = Commit {
        submissions: vec![sub(1, 0)],
        chronons: vec![ChrononRow {
            chronon: 1,
            at_ms: 3,
            record: "{}".into(),
        }],
        state: Some(state.clone()),
        events: vec![event("paused")],
        replies: Vec::new(),
    };
    store.commit("s1", &ok).unwrap();
    // a commit whose second submission repeats a sequence number fails whole: the new chronon, the
    // first submission and the state change are not written
    let mut later = state.clone();
    later.chronons = 2;
    let bad = Commit {
        submissions: vec![sub(2, 1), sub(1, 1)],
        chronons: vec![ChrononRow {
            chronon: 2,
            at_ms: 4,
            record: "{}".into(),
        }],
        state: Some(later),
        events: vec![event("resumed")],
        replies: Vec::new(),
    };
    assert!(store.commit("s1", &bad).is_err());
    assert_eq!(store.submissions("s1").unwrap(), vec![sub(1, 0)]);
    // the event of the failed commit is not written either
    let kinds: Vec<String> = store
        .events("s1")
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(kinds, ["paused"]);
    assert_eq!(store.chronons("s1").unwrap().len(), 1);
    assert_eq!(store.session("s1").unwrap().unwrap().state, state);
    // a commit for a session that does not exist writes nothing either
    assert!(store
        .commit(
            "nosuch",
            &Commit {
                state: Some(state.clone()),
                ..Commit::default()
            }
        )
        .is_err());

    drop(store);
    // reopening runs no migration again and keeps everything
    let store = db.store("node-a");
    assert_eq!(store.sessions().unwrap().len(), 1);
    assert_eq!(store.submissions("s1").unwrap(), vec![sub(1, 0)]);
    store.join_seat("s1", 0, 9).unwrap();
    store.join_seat("s1", 0, 10).unwrap();
    assert_eq!(
        store.seats("s1").unwrap()[0].joined_ms,
        Some(9),
        "the first join counts"
    );
}

/// Two processes on one PostgreSQL: the lease decides who commits; a dead driver's sessions pass
/// to another after the lease; forwarded submissions wait in the inbox until the driver answers.
#[test]
fn postgres_leases_and_inbox() {
    let Some(db) = Db::postgres() else {
        return;
    };
    let a = db.store("node-a");
    let b = db.store("node-b");
    let (ca, cb) = (a.cluster().unwrap(), b.cluster().unwrap());
    a.create_session(&session("s1"), &[]).unwrap();
    // the creator drives; b claims nothing while a's lease runs
    assert_eq!(ca.leases().unwrap(), vec!["s1".to_string()]);
    assert_eq!(cb.leases().unwrap(), Vec::<String>::new());
    let step = |seq| Commit {
        submissions: vec![sub(seq, 0)],
        ..Commit::default()
    };
    assert!(
        b.commit("s1", &step(1)).is_err(),
        "b does not hold the lease"
    );
    a.commit("s1", &step(1)).unwrap();

    // a forward from b waits for the driver; only the driver answers it
    let id = cb.forward("s1", 0, "{\"type\":\"ping\"}").unwrap();
    assert_eq!(ca.inbox("s1").unwrap().len(), 1);
    assert!(!cb.answer("s1", id, "no").unwrap());
    assert_eq!(cb.answers(&[id]).unwrap(), vec![]);
    let mut with_reply = step(2);
    with_reply.replies = vec![(id, "ack".into())];
    a.commit("s1", &with_reply).unwrap();
    assert_eq!(cb.answers(&[id]).unwrap(), vec![(id, "ack".to_string())]);
    assert!(ca.inbox("s1").unwrap().is_empty());

    // a gives its leases up (as at shutdown): b claims the session and a can write no more
    ca.release().unwrap();
    assert_eq!(cb.leases().unwrap(), vec!["s1".to_string()]);
    assert!(a.commit("s1", &step(3)).is_err());
    b.commit("s1", &step(3)).unwrap();
    assert_eq!(a.submissions("s1").unwrap().len(), 3);
    // a finished session has no driver to claim
    let mut done = session("s1").state;
    done.status = "finished".into();
    b.commit(
        "s1",
        &Commit {
            state: Some(done),
            ..Commit::default()
        },
    )
    .unwrap();
    assert_eq!(ca.leases().unwrap(), Vec::<String>::new());
}
