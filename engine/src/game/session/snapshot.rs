//! Snapshots of a session ([`SessionSnapshot`], plain data: terms as canonical text) and restoring a
//! session from one. Their serialisation belongs to the adapters (the WASM API's JSON is
//! `wasm/src/dto.rs`).

use super::*;

/// A snapshot of a session: everything needed to rebuild it exactly with
/// [`Session::restore`] (the game source is not included; the caller keeps it). Terms are stored as
/// canonical text.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionSnapshot {
    pub seed: u64,
    pub interrupt: bool,
    pub chronons: Vec<SnapshotChronon>,
    /// Submissions made after the last chronon.
    pub pending: Vec<[String; 3]>,
}

/// One chronon of a snapshot: accepted submissions `[player, switch, action]` and fixed nature
/// actions `[switch, action]`.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotChronon {
    pub submissions: Vec<[String; 3]>,
    pub overrides: Vec<[String; 2]>,
}

fn parse_canonical(text: &str) -> Result<Term, RuntimeError> {
    crate::syntax::parse_term(text)
        .map(|r| r.term)
        .map_err(|_| {
            RuntimeError::new(
                codes::REPLAY,
                "restore",
                format!("snapshot term {text:?} does not parse"),
            )
        })
}

impl SnapshotChronon {
    /// A history record's part of a snapshot.
    pub fn of(r: &ChrononRecord) -> SnapshotChronon {
        SnapshotChronon {
            submissions: r.submissions.iter().map(submission_text).collect(),
            overrides: r
                .overrides
                .iter()
                .map(|(s, a)| [show(s), show(a)])
                .collect(),
        }
    }
}

/// A submission as a snapshot holds it: `[player, switch, action]`, canonical text.
pub fn submission_text(s: &Submission) -> [String; 3] {
    [show(&s.player), show(&s.switch), show(&s.action)]
}

impl Session {
    /// The session as a snapshot.
    pub fn snapshot(&self) -> SessionSnapshot {
        SessionSnapshot {
            seed: self.seed,
            interrupt: self.settings.interrupt,
            chronons: self.history.iter().map(SnapshotChronon::of).collect(),
            pending: self.pending.iter().map(submission_text).collect(),
        }
    }

    /// Rebuilds a session from a snapshot by replaying it (same seed, same submissions: same states).
    pub fn restore(
        game: Arc<Game>,
        snap: &SessionSnapshot,
        settings: Settings,
    ) -> Result<Session, RuntimeError> {
        let settings = Settings {
            interrupt: snap.interrupt,
            ..settings
        };
        let mut history = Vec::with_capacity(snap.chronons.len());
        for c in &snap.chronons {
            let mut submissions = Vec::new();
            for [p, s, a] in &c.submissions {
                submissions.push(Submission {
                    player: parse_canonical(p)?,
                    switch: parse_canonical(s)?,
                    action: parse_canonical(a)?,
                });
            }
            let mut overrides = Vec::new();
            for [s, a] in &c.overrides {
                overrides.push((parse_canonical(s)?, parse_canonical(a)?));
            }
            history.push(ChrononRecord {
                submissions,
                overrides,
                draws: Vec::new(),
                events: Vec::new(),
                player_events: PlayerEvents::new(),
            });
        }
        let mut s = Session::replay(game, snap.seed, settings, &history)?;
        s.replaying = true;
        for [p, sw, a] in &snap.pending {
            let (p, sw, a) = (
                parse_canonical(p)?,
                parse_canonical(sw)?,
                parse_canonical(a)?,
            );
            if let Err(r) = s.submit(&p, &sw, &a)? {
                return Err(RuntimeError::new(
                    codes::REPLAY,
                    "restore",
                    format!("a pending submission is rejected: {r}"),
                ));
            }
        }
        s.replaying = false;
        Ok(s)
    }
}
