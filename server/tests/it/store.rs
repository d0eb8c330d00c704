//! The SQLite store on its own: migrations on an existing file change nothing, a commit is all or
//! nothing, rows come back as written (u64 seeds and RNG words beyond i64 included).

use sidl_server::store::sqlite::SqliteStore;
use sidl_server::store::{
    ChrononRow, Commit, SeatRow, SessionRow, SessionState, Store, SubmissionRow,
};

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

#[test]
fn commits_are_atomic_and_rows_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sidl.db");
    let store = SqliteStore::open(&path).unwrap();
    let seat = SeatRow {
        session: "s1".into(),
        index: 0,
        player: "[p]".into(),
        kind: "human".into(),
        token: "t".into(),
        joined_ms: None,
    };
    store
        .create_session(&session("s1"), std::slice::from_ref(&seat))
        .unwrap();
    assert_eq!(store.session("s1").unwrap().unwrap(), session("s1"));
    assert_eq!(store.seat_by_token("t").unwrap().unwrap(), seat);
    assert_eq!(store.seat_by_token("").unwrap(), None);

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
    };
    assert!(store.commit("s1", &bad).is_err());
    assert_eq!(store.submissions("s1").unwrap(), vec![sub(1, 0)]);
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
    let store = SqliteStore::open(&path).unwrap();
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
