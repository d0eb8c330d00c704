//! A session's configuration: what an experimenter gives at creation ([`SessionConfig`], JSON), and
//! its checked form ([`Plan`]) that the session thread follows. Seat kinds are the engine's
//! ([`Seat::parse`]: `human`, `random`, `minimax:…`, `mcts:…`), players are the game's.

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use sidl_engine::ai::AiSpec;
use sidl_engine::diag::{ColumnUnit, LineIndex};
use sidl_engine::game::{Game, Session, Settings};
use sidl_engine::seats::Seat;
use sidl_engine::term::Term;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The longest chronon or timeout accepted (a day), in seconds.
pub const MAX_SECONDS: f64 = 86_400.0;

/// What happens when the deadline of a chronon passes and a human seat has not acted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TimeoutSpec {
    /// `"default"`: the chronon closes at `chronon_seconds` and the game's defaults apply
    /// (`default/2`, else the first action); `"wait"`: there is no deadline, the chronon closes
    /// when every human seat has acted.
    Named(String),
    /// `{"ai": SPEC, "after": SECONDS}`: `after` seconds into a chronon an AI (`SPEC`) submits for
    /// each human seat that has not, and the chronon closes.
    Ai { ai: String, after: f64 },
}

impl Default for TimeoutSpec {
    fn default() -> TimeoutSpec {
        TimeoutSpec::Named("default".into())
    }
}

/// How many groups a session has (docs/serve.md, "Groups").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GroupsSpec {
    /// A fixed number of groups, all created with the session.
    Count(u32),
    /// `"arrival"`: as many as arrive: a new group whenever a participant arrives through the
    /// room and every seat is taken.
    Named(String),
}

/// What happens to a human seat whose participant is disconnected (no open WebSocket).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DisconnectSpec {
    /// `"wait"`: nothing: the seat is waited for as if it were connected (the deadline policy
    /// still applies).
    Named(String),
    /// `{"ai": SPEC, "after": SECONDS}`: after `after` seconds of disconnection an AI acts for
    /// the seat, every chronon, until the participant is back.
    Ai { ai: String, after: f64 },
    /// `{"after": SECONDS}`: after `after` seconds of disconnection the seat is not waited for:
    /// the chronon closes without it and the game's default applies to its switches.
    Default { after: f64 },
}

impl Default for DisconnectSpec {
    fn default() -> DisconnectSpec {
        DisconnectSpec::Named("wait".into())
    }
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

/// The most groups a session may have (a bound on what one request creates).
pub const MAX_GROUPS: u32 = 1000;

/// The seed of group `group` (1 for the first) of a session with seed `seed`: group 1 plays with
/// the session's seed itself, group k with `seed + (k-1) * 0x9E3779B97F4A7C15` (wrapping; the
/// golden-ratio increment of SplitMix64), so that every group is reproducible from the session's
/// seed and its number alone.
pub fn group_seed(seed: u64, group: u32) -> u64 {
    seed.wrapping_add(u64::from(group.saturating_sub(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A session's configuration as given (and stored).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionConfig {
    /// A name for people (default: the game's `game/1` name or "session").
    #[serde(default)]
    pub name: Option<String>,
    /// The game's seed (default: drawn at random and stored).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Player (canonical text, e.g. `p1` or `[p1]`) → seat kind; a player not named is `human`.
    #[serde(default)]
    pub seats: BTreeMap<String, String>,
    /// Interrupt mode (paper §4): every accepted submission runs its own transition.
    #[serde(default)]
    pub interrupt: bool,
    /// The length of a chronon in seconds (`None`: no deadline).
    #[serde(default)]
    pub chronon_seconds: Option<f64>,
    #[serde(default)]
    pub timeout: TimeoutSpec,
    /// How many groups: a number, or `"arrival"` (as many as arrive through the room). Default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<GroupsSpec>,
    /// The room's name: participants join through `/room/NAME` (letters, digits, `-`, `_`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    /// The participant labels expected in the room (`?participant_label=`); when given, only
    /// these are admitted. Empty: any label, or none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// What happens to a disconnected human seat.
    #[serde(default, skip_serializing_if = "is_default")]
    pub disconnect: DisconnectSpec,
    /// The language of the game's labels (`label/3`) on the participants' pages (default: the
    /// game's default language).
    #[serde(default)]
    pub lang: Option<String>,
}

/// A request to create a session: the game's text and the configuration.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub game: String,
    #[serde(default)]
    pub config: SessionConfig,
}

/// What to do when a deadline passes.
#[derive(Clone, Debug, PartialEq)]
pub enum OnDeadline {
    /// Close the chronon (the game's defaults apply).
    Close,
    /// An AI submits for the human seats that did not, then the chronon closes.
    Ai(AiSpec),
}

/// What to do with a human seat whose participant is disconnected.
#[derive(Clone, Debug, PartialEq)]
pub enum OnDisconnect {
    /// Wait for it as for a connected one.
    Wait,
    /// After `after_ms` of disconnection: the chronon does not wait for it (the game's default).
    Default { after_ms: i64 },
    /// After `after_ms` of disconnection an AI acts for it.
    Ai { spec: AiSpec, after_ms: i64 },
}

/// A checked configuration.
#[derive(Clone, Debug)]
pub struct Plan {
    pub game: Arc<Game>,
    pub name: String,
    pub seed: u64,
    pub interrupt: bool,
    /// The language of the labels (`None`: the game's default).
    pub lang: Option<String>,
    /// Player terms in player order, and their seats.
    pub players: Vec<Term>,
    pub seats: Vec<Seat>,
    /// Per seat: played by the experimenter from the monitor (`experimenter` in `seats`, and by
    /// default a player named `experimenter`): a human seat without a link, never absent.
    pub experimenter: Vec<bool>,
    /// Seconds from the start of a chronon to its deadline (`None`: wait).
    pub deadline_seconds: Option<f64>,
    pub on_deadline: OnDeadline,
    pub on_disconnect: OnDisconnect,
    /// A fixed number of groups (`None`: as many as arrive).
    pub groups: Option<u32>,
    pub room: Option<String>,
    pub labels: Vec<String>,
}

/// The seat kind of a seat played from the monitor.
pub const EXPERIMENTER: &str = "experimenter";

impl Plan {
    /// The stored kind of seat `i` (`human`, `random`, an AI spec, `experimenter`).
    pub fn kind(&self, i: usize) -> String {
        if self.experimenter[i] {
            EXPERIMENTER.to_string()
        } else {
            self.seats[i].name()
        }
    }

    /// Does seat `i` get a participant link (a human seat not played by the experimenter)?
    pub fn has_link(&self, i: usize) -> bool {
        self.seats[i].is_human() && !self.experimenter[i]
    }
}

/// The longest participant label accepted, in bytes.
pub const MAX_LABEL: usize = 100;

/// Checks a participant label: 1 to [`MAX_LABEL`] bytes, no control characters.
pub fn check_label(label: &str) -> Result<(), ApiError> {
    if label.is_empty() || label.len() > MAX_LABEL || label.chars().any(char::is_control) {
        return Err(bad(
            "bad_label",
            format!("a participant label is 1 to {MAX_LABEL} bytes without control characters"),
        ));
    }
    Ok(())
}

impl Plan {
    pub fn settings(&self) -> Settings {
        Settings {
            interrupt: self.interrupt,
            ..Settings::default()
        }
    }
}

fn bad(code: &str, message: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, message)
}

fn seconds(what: &str, s: f64) -> Result<f64, ApiError> {
    if s.is_finite() && s > 0.0 && s <= MAX_SECONDS {
        Ok(s)
    } else {
        Err(bad(
            "bad_config",
            format!("{what} must be a number of seconds in (0, {MAX_SECONDS}], not {s}"),
        ))
    }
}

/// Loads the game and checks the configuration against it. `seed` is the seed to use when the
/// configuration names none.
pub fn plan(game_text: &str, config: &SessionConfig, seed: u64) -> Result<Plan, ApiError> {
    let game = match Game::load(game_text) {
        Ok((g, _warnings)) => Arc::new(g),
        Err(diags) => {
            let index = LineIndex::new(game_text);
            let list: Vec<serde_json::Value> = diags
                .iter()
                .map(|d| {
                    let at = index.line_col(game_text, d.span.start, ColumnUnit::Utf8);
                    serde_json::json!({
                        "code": d.code,
                        "severity": d.severity.as_str(),
                        "message": d.message,
                        "line": at.line + 1,
                        "column": at.col + 1,
                        "help": d.help,
                    })
                })
                .collect();
            let first = diags
                .first()
                .map(|d| format!("{}: {}", d.code, d.message))
                .unwrap_or_default();
            return Err(bad(
                "game_does_not_load",
                format!("the game does not load: {first}"),
            )
            .with_details(serde_json::Value::Array(list)));
        }
    };
    let seed = config.seed.unwrap_or(seed);
    let settings = Settings {
        interrupt: config.interrupt,
        ..Settings::default()
    };
    let session = Session::new(game.clone(), seed, settings)
        .map_err(|e| ApiError::runtime(&e).with_status(400))?;
    let players = session.players();
    let mut seats = vec![Seat::Human; players.len()];
    // a game asks for the experimenter's input by naming a player `experimenter`
    let mut experimenter: Vec<bool> = players
        .iter()
        .map(|p| {
            let t = show(p);
            t == "experimenter" || t == "[experimenter]"
        })
        .collect();
    for (name, kind) in &config.seats {
        let term = sidl_engine::syntax::parse_term(name)
            .map(|r| r.term)
            .map_err(|_| bad("bad_config", format!("seat {name:?} is not a term")))?;
        // `p1` names the player `[p1]` as well
        let i = players
            .iter()
            .position(|p| *p == term || *p == Term::list(vec![term.clone()]))
            .ok_or_else(|| {
                let names: Vec<String> = players.iter().map(show).collect();
                ApiError::bad_request(
                    "E0943",
                    format!(
                        "{name} is not a player of the game (its players: {})",
                        names.join(", ")
                    ),
                )
            })?;
        experimenter[i] = kind == EXPERIMENTER;
        seats[i] = if experimenter[i] {
            Seat::Human
        } else {
            Seat::parse(kind).map_err(|e| bad("bad_config", e))?
        };
    }
    let chronon = config
        .chronon_seconds
        .map(|s| seconds("chronon_seconds", s))
        .transpose()?;
    let (deadline_seconds, on_deadline) = match &config.timeout {
        TimeoutSpec::Named(n) if n == "default" => (chronon, OnDeadline::Close),
        TimeoutSpec::Named(n) if n == "wait" => (None, OnDeadline::Close),
        TimeoutSpec::Named(n) => {
            return Err(bad(
                "bad_config",
                format!(
                    "unknown timeout policy {n:?}: \"default\", \"wait\" or {{\"ai\": SPEC, \"after\": SECONDS}}"
                ),
            ))
        }
        TimeoutSpec::Ai { ai, after } => {
            let spec = AiSpec::parse(ai).map_err(|e| bad("bad_config", e))?;
            (Some(seconds("timeout.after", *after)?), OnDeadline::Ai(spec))
        }
    };
    let on_disconnect = match &config.disconnect {
        DisconnectSpec::Named(n) if n == "wait" => OnDisconnect::Wait,
        DisconnectSpec::Named(n) => {
            return Err(bad(
                "bad_config",
                format!(
                    "unknown disconnection policy {n:?}: \"wait\", {{\"after\": SECONDS}} or {{\"ai\": SPEC, \"after\": SECONDS}}"
                ),
            ))
        }
        DisconnectSpec::Default { after } => OnDisconnect::Default {
            after_ms: (seconds("disconnect.after", *after)? * 1000.0) as i64,
        },
        DisconnectSpec::Ai { ai, after } => OnDisconnect::Ai {
            spec: AiSpec::parse(ai).map_err(|e| bad("bad_config", e))?,
            after_ms: (seconds("disconnect.after", *after)? * 1000.0) as i64,
        },
    };
    let groups = match &config.groups {
        None => Some(1),
        Some(GroupsSpec::Count(n)) if (1..=MAX_GROUPS).contains(n) => Some(*n),
        Some(GroupsSpec::Count(n)) => {
            return Err(bad(
                "bad_config",
                format!("groups must be 1 to {MAX_GROUPS}, not {n}"),
            ))
        }
        Some(GroupsSpec::Named(n)) if n == "arrival" => None,
        Some(GroupsSpec::Named(n)) => {
            return Err(bad(
                "bad_config",
                format!("groups is a number or \"arrival\", not {n:?}"),
            ))
        }
    };
    if let Some(r) = &config.room {
        let ok = !r.is_empty()
            && r.len() <= 64
            && r.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            return Err(bad(
                "bad_config",
                format!("room {r:?}: 1 to 64 letters, digits, '-' or '_'"),
            ));
        }
    } else if groups.is_none() {
        return Err(bad(
            "bad_config",
            "groups \"arrival\" needs a room (participants arrive through it)",
        ));
    }
    for l in &config.labels {
        check_label(l)?;
    }
    if !config.labels.is_empty() && config.room.is_none() {
        return Err(bad("bad_config", "labels need a room"));
    }
    let name = config
        .name
        .clone()
        .unwrap_or_else(|| game_name(&game).unwrap_or_else(|| "session".to_string()));
    Ok(Plan {
        game,
        name,
        seed,
        interrupt: config.interrupt,
        lang: config.lang.clone().filter(|l| !l.is_empty()),
        players,
        seats,
        experimenter,
        deadline_seconds,
        on_deadline,
        on_disconnect,
        groups,
        room: config.room.clone(),
        labels: config.labels.clone(),
    })
}

/// The game's `game(Name)` fact, if it has one.
pub fn game_name(game: &Arc<Game>) -> Option<String> {
    let v = Term::Var(0);
    let goal = Term::compound("game", vec![v.clone()]);
    let mut s = Session::new(game.clone(), 0, Settings::default()).ok()?;
    let answers = s.query_state(&goal, &v, 1, "game/1").ok()?;
    answers.first().map(show)
}

/// A term as canonical text (what crosses every boundary of the server).
pub fn show(t: &Term) -> String {
    sidl_engine::write::canonical(t)
}
