//! Records of played games (docs/records.md): one JSON object per game, one game per line, many
//! games per file. A record holds what is needed to replay the game to its exact trajectory (the
//! game's source hash, the seed, the mode, every accepted submission and every nature draw) and
//! what a reader wants without replaying (the seats, timestamps, the final accounts). Written by
//! `sidl trace --record`, `sidl tournament --record` (and, through the same functions, the
//! playground and the server); read by `sidl trace --replay` and `sidl stats --records`.
//!
//! Pure: the caller reads and writes the files. Terms are held as canonical text
//! ([`crate::write::canonical`]), read back with the engine's parser, so typed values keep their
//! type (`2` and `2.0` differ).

use super::session::{ChrononRecord, PlayerEvents, RuntimeError, Session, Settings, Submission};
use super::Game;
use crate::solve::errors::codes;
use crate::syntax::parse_term;
use crate::term::Term;
use crate::write::canonical;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// The value of the `format` field of every record this version writes.
pub const FORMAT: &str = "sidl-record/1";

/// One played game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// The game's name as the writer knows it (its file name without `.sidl`, or `game/1`).
    pub game: String,
    /// SHA-256 of the game's source text, lower-case hex ([`source_hash`]).
    pub source_sha256: String,
    pub seed: u64,
    /// `"chronons"` (submissions wait for the chronon) or `"interrupt"` (paper §4).
    pub mode: String,
    /// The players in player order, with what sat in each seat.
    pub seats: Vec<Seat>,
    /// A label the writer gives a group of records (a lab session, a treatment); statistics
    /// compare groups side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Every chronon that ran, in order.
    pub chronons: Vec<Chronon>,
    /// How the game ended.
    pub end: End,
}

/// A seat: the player's term and who or what played it: `human`, `random`, `script`, or an AI
/// spec as the command line spells it (`minimax:4`, `mcts:200:relative`, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    pub player: String,
    pub kind: String,
    /// A participant label (for lab sessions), if the writer knows one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// One chronon: the accepted submissions and the nature actions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Chronon {
    pub submissions: Vec<Move>,
    /// Every nature action of the chronon, in the order the chronon took them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nature: Vec<Draw>,
}

/// An accepted submission, with its times when the writer knows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Move {
    pub player: String,
    pub switch: String,
    pub action: String,
    /// Milliseconds since the Unix epoch when the submission was accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
    /// Milliseconds the player took (from the start of the chronon to the submission).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_ms: Option<u64>,
}

/// A nature action: drawn from the seeded RNG, or `fixed` by the writer (a script's `nature/2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draw {
    pub switch: String,
    pub action: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fixed: bool,
}

/// The end of a record: the last chronon number, whether the state is terminal, the final accounts
/// (as JSON numbers, in player order) and the runtime error that stopped the game, if one did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct End {
    pub chronon: u64,
    pub terminal: bool,
    pub accounts: Vec<(String, serde_json::Value)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Why a record cannot be read or replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordError {
    /// 1-based line of the records file (0 when not read from a file).
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "record on line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

/// SHA-256 of a game's source text, lower-case hex: the identity a record is checked against.
pub fn source_hash(src: &str) -> String {
    let digest = Sha256::digest(src.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// An account amount as a JSON number (an integer stays an integer); any other term as its text.
fn amount_json(t: &Term) -> serde_json::Value {
    match t {
        Term::Int(i) => serde_json::Value::from(*i),
        Term::Float(f) => serde_json::Number::from_f64(*f)
            .map(serde_json::Value::Number)
            .unwrap_or_else(|| serde_json::Value::String(canonical(t))),
        _ => serde_json::Value::String(canonical(t)),
    }
}

fn text_term(text: &str, what: &str) -> Result<Term, String> {
    parse_term(text)
        .map(|p| p.term)
        .map_err(|_| format!("{what} `{text}` is not a term"))
}

impl Record {
    /// The record of `s` so far (every chronon of its history). `seats` gives each player's kind in
    /// player order (missing ones are `unknown`); `times` gives, per chronon and submission, the
    /// `(at_ms, decision_ms)` the writer measured (empty: none known).
    pub fn of_session(
        s: &mut Session,
        game: &str,
        src: &str,
        seats: &[String],
        times: &[Vec<(Option<u64>, Option<u64>)>],
        error: Option<&RuntimeError>,
    ) -> Record {
        let players = s.players();
        let chronons = s
            .history()
            .iter()
            .enumerate()
            .map(|(k, rec)| Chronon {
                submissions: rec
                    .submissions
                    .iter()
                    .enumerate()
                    .map(|(i, sub)| {
                        let (at_ms, decision_ms) = times
                            .get(k)
                            .and_then(|t| t.get(i))
                            .copied()
                            .unwrap_or((None, None));
                        Move {
                            player: canonical(&sub.player),
                            switch: canonical(&sub.switch),
                            action: canonical(&sub.action),
                            at_ms,
                            decision_ms,
                        }
                    })
                    .collect(),
                nature: rec
                    .draws
                    .iter()
                    .map(|(sw, a)| Draw {
                        switch: canonical(sw),
                        action: canonical(a),
                        fixed: rec.overrides.iter().any(|(o, _)| o == sw),
                    })
                    .collect(),
            })
            .collect();
        let terminal = s.switches().map(|sw| sw.is_empty()).unwrap_or(false);
        Record {
            format: FORMAT.to_string(),
            game: game.to_string(),
            source_sha256: source_hash(src),
            seed: s.seed(),
            mode: if s.settings().interrupt {
                "interrupt"
            } else {
                "chronons"
            }
            .to_string(),
            seats: players
                .iter()
                .enumerate()
                .map(|(i, p)| Seat {
                    player: canonical(p),
                    kind: seats.get(i).cloned().unwrap_or_else(|| "unknown".into()),
                    label: None,
                })
                .collect(),
            group: None,
            chronons,
            end: End {
                chronon: s.chronon(),
                terminal,
                accounts: s
                    .accounts()
                    .iter()
                    .map(|(p, a)| (canonical(p), amount_json(a)))
                    .collect(),
                error: error.map(|e| format!("{}: {}", e.code, e.message)),
            },
        }
    }

    /// The record as one line of JSON (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }

    /// Reads one line of a records file (`line` is its 1-based number, for the error).
    pub fn from_line(text: &str, line: usize) -> Result<Record, RecordError> {
        let r: Record = serde_json::from_str(text).map_err(|e| RecordError {
            line,
            message: format!("not a record: {e}"),
        })?;
        if r.format != FORMAT {
            return Err(RecordError {
                line,
                message: format!(
                    "format `{}` is not `{FORMAT}` (written by another version of sidl?)",
                    r.format
                ),
            });
        }
        if r.mode != "chronons" && r.mode != "interrupt" {
            return Err(RecordError {
                line,
                message: format!("mode `{}` is neither `chronons` nor `interrupt`", r.mode),
            });
        }
        Ok(r)
    }

    /// The session settings the record was played with (`base` gives the budgets).
    pub fn settings(&self, base: &Settings) -> Settings {
        Settings {
            interrupt: self.mode == "interrupt",
            ..base.clone()
        }
    }

    /// The history to replay: the submissions and the fixed nature actions of every chronon.
    fn history(&self) -> Result<Vec<ChrononRecord>, String> {
        let mut out = Vec::with_capacity(self.chronons.len());
        for (k, c) in self.chronons.iter().enumerate() {
            let chronon = k + 1;
            let mut submissions = Vec::new();
            for m in &c.submissions {
                submissions.push(Submission {
                    player: text_term(&m.player, &format!("chronon {chronon}: player"))?,
                    switch: text_term(&m.switch, &format!("chronon {chronon}: switch"))?,
                    action: text_term(&m.action, &format!("chronon {chronon}: action"))?,
                });
            }
            let mut overrides = Vec::new();
            for d in c.nature.iter().filter(|d| d.fixed) {
                overrides.push((
                    text_term(&d.switch, &format!("chronon {chronon}: nature switch"))?,
                    text_term(&d.action, &format!("chronon {chronon}: nature action"))?,
                ));
            }
            out.push(ChrononRecord {
                submissions,
                overrides,
                draws: Vec::new(),
                events: Vec::new(),
                player_events: PlayerEvents::new(),
            });
        }
        Ok(out)
    }

    /// Replays the record on `game` (whose source is `src`): the session after its last chronon.
    /// A record of another source is refused before anything runs; a replay whose submissions are
    /// refused, or whose nature draws or final accounts differ from the record's, is an error naming
    /// the chronon (`E0944`, the replay error).
    pub fn replay(
        &self,
        game: Arc<Game>,
        src: &str,
        base: &Settings,
    ) -> Result<Session, RecordError> {
        self.replay_with(game, src, base, |_| Ok(()))
    }

    /// [`Record::replay`], calling `each` on the session at the start and after every chronon (how
    /// `sidl trace --replay` prints the trace lines). An error `each` returns ends the replay.
    pub fn replay_with(
        &self,
        game: Arc<Game>,
        src: &str,
        base: &Settings,
        mut each: impl FnMut(&mut Session) -> Result<(), String>,
    ) -> Result<Session, RecordError> {
        let err = |message: String| RecordError { line: 0, message };
        let hash = source_hash(src);
        if hash != self.source_sha256 {
            return Err(err(format!(
                "the record was made with another version of the game `{}` (source SHA-256 {}…, \
                 this file's is {}…)",
                self.game,
                self.source_sha256.get(..12).unwrap_or(&self.source_sha256),
                &hash[..12]
            )));
        }
        let history = self.history().map_err(err)?;
        let rt = |e: RuntimeError| err(format!("{}: {}", e.code, e.message));
        let mut s = Session::new(game, self.seed, self.settings(base)).map_err(rt)?;
        s.replaying = true;
        each(&mut s).map_err(err)?;
        for (k, (h, c)) in history.iter().zip(&self.chronons).enumerate() {
            let diverged = |what: String| {
                err(format!(
                    "{}: replay diverged in chronon {}: {what}",
                    codes::REPLAY,
                    k + 1
                ))
            };
            for sub in &h.submissions {
                if let Err(r) = s
                    .submit(&sub.player, &sub.switch, &sub.action)
                    .map_err(rt)?
                {
                    return Err(diverged(format!("a submission was refused: {r}")));
                }
            }
            for (sw, a) in &h.overrides {
                if let Err(r) = s.set_nature(sw, a).map_err(rt)? {
                    return Err(diverged(format!("a nature action was refused: {r}")));
                }
            }
            let rec = s.run_chronon().map_err(rt)?;
            let drew: Vec<(String, String)> = rec
                .draws
                .iter()
                .map(|(sw, a)| (canonical(sw), canonical(a)))
                .collect();
            let want: Vec<(String, String)> = c
                .nature
                .iter()
                .map(|d| (d.switch.clone(), d.action.clone()))
                .collect();
            if drew != want {
                return Err(diverged(format!(
                    "nature drew {drew:?}, the record says {want:?}"
                )));
            }
            each(&mut s).map_err(err)?;
        }
        s.replaying = false;
        let accounts: Vec<(String, serde_json::Value)> = s
            .accounts()
            .iter()
            .map(|(p, a)| (canonical(p), amount_json(a)))
            .collect();
        if self.end.error.is_none() && accounts != self.end.accounts {
            return Err(err(format!(
                "{}: replay diverged: final accounts {:?}, the record says {:?}",
                codes::REPLAY,
                accounts,
                self.end.accounts
            )));
        }
        Ok(s)
    }
}

/// Reads a records file: every non-empty line a record; a bad line is an error naming it, the
/// others are still read.
pub fn read_records(text: &str) -> (Vec<(usize, Record)>, Vec<RecordError>) {
    let mut ok = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match Record::from_line(line, i + 1) {
            Ok(r) => ok.push((i + 1, r)),
            Err(e) => errors.push(e),
        }
    }
    (ok, errors)
}
