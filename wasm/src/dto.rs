//! The data that crosses to JavaScript: plain structs and enums with serde, and the conversions
//! from the engine's types (positions to 1-based lines and UTF-16 columns, terms to canonical text).
//! No game rule lives here: what a value means is the engine's ([`crate::core`] calls it). Enums
//! cross as strings; `types.d.ts` declares them as TypeScript string unions, and a test
//! (`wasm/tests/core.rs`, `ts_unions_match_the_rust_enums`) fails when the two disagree.

use serde::{Deserialize, Serialize};
use sidl_engine::atom::Atom;
use sidl_engine::diag::{self, ColumnUnit, Diagnostic, LineIndex, Span};
use sidl_engine::game::events;
use sidl_engine::game::session::{slot_type_description, ActionSource};
use sidl_engine::game::why;
use sidl_engine::game::{template_slots, ChrononRecord, Event, SessionSnapshot};
use sidl_engine::ide::keywords;
use sidl_engine::term::Term;
use sidl_engine::write;

/// The TypeScript declarations of the DTOs (the `typescript_custom_section` of `sidl_wasm.d.ts`).
pub const TS_TYPES: &str = include_str!("types.d.ts");

/// A DTO enum: serialised as its string, with every variant in `ALL` (the test against
/// `types.d.ts` reads it) and comparable with a `&str`. Written by hand rather than with `strum`:
/// one string per variant serves serde, `as_str` and the test.
macro_rules! string_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $v),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$v),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s),+
                }
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum! {
    /// A diagnostic's severity (the engine's [`diag::Severity`]).
    Severity { Error = "error", Warning = "warning", Info = "info", Hint = "hint" }
}

impl From<diag::Severity> for Severity {
    fn from(s: diag::Severity) -> Severity {
        match s {
            diag::Severity::Error => Severity::Error,
            diag::Severity::Warning => Severity::Warning,
            diag::Severity::Info => Severity::Info,
            diag::Severity::Hint => Severity::Hint,
        }
    }
}

string_enum! {
    /// What an event is about (the engine's [`events::EventKind`]).
    EventKind { Created = "created", Deleted = "deleted", Account = "account", Switch = "switch" }
}

impl From<events::EventKind> for EventKind {
    fn from(k: events::EventKind) -> EventKind {
        match k {
            events::EventKind::Created => EventKind::Created,
            events::EventKind::Deleted => EventKind::Deleted,
            events::EventKind::Account => EventKind::Account,
            events::EventKind::Switch => EventKind::Switch,
        }
    }
}

string_enum! {
    /// How a switch's action came about (the engine's [`ActionSource`]).
    ActionHow { Submitted = "submitted", Drawn = "drawn", Default = "default" }
}

impl From<ActionSource> for ActionHow {
    fn from(h: ActionSource) -> ActionHow {
        match h {
            ActionSource::Submitted => ActionHow::Submitted,
            ActionSource::Drawn => ActionHow::Drawn,
            ActionSource::Default => ActionHow::Default,
        }
    }
}

string_enum! {
    /// Where a keyword is written (the engine's [`keywords::Position`]).
    KeywordPosition { Head = "head", Body = "body", Both = "both" }
}

impl From<keywords::Position> for KeywordPosition {
    fn from(p: keywords::Position) -> KeywordPosition {
        match p {
            keywords::Position::Head => KeywordPosition::Head,
            keywords::Position::Body => KeywordPosition::Body,
            keywords::Position::Both => KeywordPosition::Both,
        }
    }
}

string_enum! {
    /// A phase of the dynamic Def.1 §11 check (the engine's `hidden_dynamic::Phase`).
    HiddenPhase { Breadth = "breadth", Playouts = "playouts", Done = "done" }
}

impl From<sidl_engine::analysis::hidden_dynamic::Phase> for HiddenPhase {
    fn from(p: sidl_engine::analysis::hidden_dynamic::Phase) -> HiddenPhase {
        use sidl_engine::analysis::hidden_dynamic::Phase as P;
        match p {
            P::Breadth => HiddenPhase::Breadth,
            P::Playouts => HiddenPhase::Playouts,
            P::Done => HiddenPhase::Done,
        }
    }
}

string_enum! {
    /// The type of a template slot (the engine's `SLOT_TYPES`, docs/semantics.md §4.4).
    SlotType { Double = "double", Integer = "integer", Number = "number", Atom = "atom", Term = "term" }
}

impl SlotType {
    /// The slot type named `ty` (a template slot's type is always one of them: any other is the
    /// load error E0419; `term` otherwise).
    pub fn of(ty: Atom) -> SlotType {
        SlotType::ALL
            .iter()
            .copied()
            .find(|t| t.as_str() == ty.name())
            .unwrap_or(SlotType::Term)
    }
}

/// A diagnostic placed in the source: 1-based line and column, columns and offsets in UTF-16 code
/// units (JavaScript string indices). The same as `sidl check` reports: code, severity, message,
/// span, secondary labels and help.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticDto {
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub help: Option<String>,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// UTF-16 offsets of the span in the whole text.
    pub from: u32,
    pub to: u32,
    /// Secondary locations (e.g. each call on the way from a head keyword's rule to a misplaced
    /// body keyword in a helper).
    pub labels: Vec<LabelDto>,
}

/// A secondary location of a diagnostic, placed as [`DiagnosticDto`]'s span, with its message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelDto {
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub from: u32,
    pub to: u32,
}

/// A typed hole of an unlimited action template: `name` is the slot's name as canonical text (`_`
/// for a bare variable), `type` its type, `description` what a value of that type is, for people.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SlotDto {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: SlotType,
    /// What a value of the type is, for people (the engine's `slot_type_description`).
    pub description: String,
}

/// A legal switch: its owner (`null`: none), whether chance owns it, and its actions (templates when
/// `unlimited`, each with its slots in fill order; `[]` per action otherwise).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SwitchDto {
    pub switch: String,
    pub owner: Option<String>,
    pub nature: bool,
    pub unlimited: bool,
    pub actions: Vec<String>,
    pub slots: Vec<Vec<SlotDto>>,
}

/// The result of a submission. In interrupt mode an accepted submission runs its own transition,
/// which is in `chronon`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubmitDto {
    pub ok: bool,
    pub reason: Option<String>,
    pub chronon: Option<ChrononDto>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AccountDto {
    pub player: String,
    /// Canonical text of the amount.
    pub amount: String,
    /// The amount as a number (the engine's `account_value`).
    pub value: f64,
}

/// An event: its kind, `text` the engine's one-line rendering ([`Event::text`], canonical terms),
/// and its parts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventDto {
    pub kind: EventKind,
    pub text: String,
    pub fact: Option<String>,
    pub player: Option<String>,
    pub amount: Option<String>,
    pub switch: Option<String>,
    pub action: Option<String>,
    pub how: Option<ActionHow>,
    pub ok: Option<bool>,
}

/// A chronon. It crosses as `{chronon, submissions, events, playerEvents, terminal}`: a player's
/// events are written once, as the designer's events they are (see [`ChrononDto::player_events`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChrononDto {
    /// The chronon number after this one ran.
    pub chronon: u64,
    pub submissions: Vec<[String; 3]>,
    /// The designer's events.
    pub events: Vec<EventDto>,
    /// Per player (in `players()` order), the events that player may see, by their index into
    /// `events` (the engine's [`ChrononRecord::player_events`]): a player's events are the
    /// chronon's it may see, in order, so they are not written again (and `lib.rs` hands
    /// JavaScript the same event objects instead of converting them again).
    pub player_events: Vec<Vec<usize>>,
    /// Whether the game ended with this chronon.
    pub terminal: bool,
}

impl ChrononDto {
    /// Event `k` of [`ChrononDto::player_events`].
    pub fn event(&self, k: usize) -> &EventDto {
        &self.events[k]
    }

    /// Player `i`'s events.
    pub fn events_of(&self, i: usize) -> Vec<&EventDto> {
        self.player_events[i]
            .iter()
            .map(|&k| self.event(k))
            .collect()
    }
}

impl Serialize for ChrononDto {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let player_events: Vec<Vec<&EventDto>> = (0..self.player_events.len())
            .map(|i| self.events_of(i))
            .collect();
        let mut st = s.serialize_struct("Chronon", 5)?;
        st.serialize_field("chronon", &self.chronon)?;
        st.serialize_field("submissions", &self.submissions)?;
        st.serialize_field("events", &self.events)?;
        st.serialize_field("playerEvents", &player_events)?;
        st.serialize_field("terminal", &self.terminal)?;
        st.end()
    }
}

/// A runtime error as the engine's diagnostic (`RuntimeError::to_diagnostic`, the one conversion
/// the CLI and the language server render too): its stable `code` (`E09xx`, docs/diagnostics.md),
/// `message` and `help`; the clause of the game where it happened (1-based lines, UTF-16 columns,
/// `from`/`to` UTF-16 offsets), all `null` when it is not in a clause of the game; `labels`: each
/// clause of the call path that called the next predicate; `path`: the user predicates on the call
/// stack, outermost first.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorLocation {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub end_line: Option<u32>,
    pub end_column: Option<u32>,
    pub from: Option<u32>,
    pub to: Option<u32>,
    pub labels: Vec<ErrorLabel>,
    pub path: Vec<String>,
}

/// A secondary place of a runtime error (positions as in [`ErrorLocation`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorLabel {
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub from: u32,
    pub to: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryDto {
    pub vars: Vec<String>,
    /// One line per answer: `X = t, Y = u.` or `true.`
    pub answers: Vec<String>,
    /// The error that ended the query, if any.
    pub error: Option<String>,
    /// Where that error happened in the game source, when known.
    pub location: Option<ErrorLocation>,
    /// Stopped at the answer limit with choicepoints left.
    pub truncated: bool,
}

/// Progress of the dynamic Def.1 §11 check: its phase; `frontier` the states waiting to be
/// expanded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProgressDto {
    pub phase: HiddenPhase,
    pub states: usize,
    pub frontier: usize,
}

/// A Def.1 §11 counterexample: the player, a readable description, and the two histories one line
/// per chronon (`first: chronon 1: ...`, then `second: ...`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterexampleDto {
    pub player: String,
    pub switch: String,
    pub description: String,
    pub steps: Vec<String>,
}

/// The dynamic Def.1 §11 check: `consistent` (no violation found), `complete` (every reachable
/// state was seen, so `consistent` is a proof), the states seen, a summary `message`, and the first
/// counterexample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HiddenReportDto {
    pub consistent: bool,
    pub complete: bool,
    pub states: usize,
    pub message: String,
    pub counterexample: Option<CounterexampleDto>,
}

/// A keyword for editor completion: where it is written, and the engine's documentation
/// (`ide::keywords`: signature and summary).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeywordDto {
    pub name: String,
    pub arity: u32,
    pub position: KeywordPosition,
    pub doc: String,
}

/// Per-query budgets (each keyword call of the manager, each `query`); omitted fields keep their value.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitsDto {
    pub inferences: Option<u64>,
    pub heap_cells: Option<usize>,
    pub choicepoints: Option<usize>,
    pub frames: Option<usize>,
}

/// A "why (not)?" question (`docs/why.md`): the engine's parts as text (`kind` is `legal`,
/// `action`, `submission`, `fact`, `payoff` or `do`), shared with the language server.
pub type WhyQuestionDto = why::QuestionText;

/// The answer of a "why (not)?" question: the engine's JSON form (ranges with 1-based lines and
/// UTF-16 columns), shared with `sidl why --format json` and the language server.
pub type WhyDto = why::AnswerJson;

/// The JSON of `snapshot()` / `restore(json)`: the engine's [`SessionSnapshot`] (terms as canonical
/// text) as `{seed, interrupt, chronons: [{submissions, overrides}], pending}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SnapshotDto {
    pub seed: u64,
    pub interrupt: bool,
    pub chronons: Vec<SnapshotChrononDto>,
    /// Submissions made after the last chronon.
    pub pending: Vec<[String; 3]>,
}

/// One chronon of a snapshot: accepted submissions `[player, switch, action]` and fixed nature
/// actions `[switch, action]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SnapshotChrononDto {
    pub submissions: Vec<[String; 3]>,
    pub overrides: Vec<[String; 2]>,
}

impl From<&SessionSnapshot> for SnapshotDto {
    fn from(s: &SessionSnapshot) -> SnapshotDto {
        SnapshotDto {
            seed: s.seed,
            interrupt: s.interrupt,
            chronons: s
                .chronons
                .iter()
                .map(|c| SnapshotChrononDto {
                    submissions: c.submissions.clone(),
                    overrides: c.overrides.clone(),
                })
                .collect(),
            pending: s.pending.clone(),
        }
    }
}

impl From<SnapshotDto> for SessionSnapshot {
    fn from(s: SnapshotDto) -> SessionSnapshot {
        SessionSnapshot {
            seed: s.seed,
            interrupt: s.interrupt,
            chronons: s
                .chronons
                .into_iter()
                .map(|c| sidl_engine::game::session::SnapshotChronon {
                    submissions: c.submissions,
                    overrides: c.overrides,
                })
                .collect(),
            pending: s.pending,
        }
    }
}

/// A snapshot as JSON text.
pub fn snapshot_json(s: &SessionSnapshot) -> String {
    serde_json::to_string(&SnapshotDto::from(s)).unwrap_or_default()
}

/// A snapshot from [`snapshot_json`] text; `Err`: why it is not one.
pub fn snapshot_from_json(json: &str) -> Result<SessionSnapshot, String> {
    serde_json::from_str::<SnapshotDto>(json)
        .map(SessionSnapshot::from)
        .map_err(|e| e.to_string())
}

/// A term as it crosses: canonical text.
pub fn show(t: &Term) -> String {
    write::canonical(t)
}

/// UTF-16 offset of a byte offset of `source` (a byte inside a character counts as its start).
fn utf16_offset(source: &str, byte: u32) -> u32 {
    let mut b = (byte as usize).min(source.len());
    while !source.is_char_boundary(b) {
        b -= 1;
    }
    source[..b].encode_utf16().count() as u32
}

/// 1-based (line, column, end line, end column, from, to) of a span, columns and offsets in UTF-16.
fn place(source: &str, index: &LineIndex, span: Span) -> (u32, u32, u32, u32, u32, u32) {
    let s = index.line_col(source, span.start, ColumnUnit::Utf16);
    let e = index.line_col(source, span.end, ColumnUnit::Utf16);
    (
        s.line + 1,
        s.col + 1,
        e.line + 1,
        e.col + 1,
        utf16_offset(source, span.start),
        utf16_offset(source, span.end),
    )
}

pub fn diagnostics(source: &str, diags: &[Diagnostic]) -> Vec<DiagnosticDto> {
    let index = LineIndex::new(source);
    diags
        .iter()
        .map(|d| {
            let (line, column, end_line, end_column, from, to) = place(source, &index, d.span);
            DiagnosticDto {
                severity: d.severity.into(),
                code: d.code.to_string(),
                message: d.message.clone(),
                help: d.help.clone(),
                line,
                column,
                end_line,
                end_column,
                from,
                to,
                labels: d
                    .labels
                    .iter()
                    .map(|l| {
                        let (line, column, end_line, end_column, from, to) =
                            place(source, &index, l.span);
                        LabelDto {
                            message: l.message.clone(),
                            line,
                            column,
                            end_line,
                            end_column,
                            from,
                            to,
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Diagnostics as text, one per line: `line:column: severity[code]: message`.
pub fn diagnostics_text(dtos: &[DiagnosticDto]) -> String {
    dtos.iter()
        .map(|d| {
            format!(
                "{}:{}: {}[{}]: {}",
                d.line, d.column, d.severity, d.code, d.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A runtime error's diagnostic with UTF-16 positions in `source`, and its call path.
pub fn error_location(source: &str, d: &Diagnostic, path: &[(Atom, u32)]) -> ErrorLocation {
    let index = LineIndex::new(source);
    let at = d.located.then(|| place(source, &index, d.span));
    ErrorLocation {
        code: d.code.to_string(),
        severity: d.severity.into(),
        message: d.message.clone(),
        help: d.help.clone(),
        line: at.map(|p| p.0),
        column: at.map(|p| p.1),
        end_line: at.map(|p| p.2),
        end_column: at.map(|p| p.3),
        from: at.map(|p| p.4),
        to: at.map(|p| p.5),
        labels: d
            .labels
            .iter()
            .map(|l| {
                let p = place(source, &index, l.span);
                ErrorLabel {
                    message: l.message.clone(),
                    line: p.0,
                    column: p.1,
                    end_line: p.2,
                    end_column: p.3,
                    from: p.4,
                    to: p.5,
                }
            })
            .collect(),
        path: path.iter().map(|(n, a)| format!("{n}/{a}")).collect(),
    }
}

/// The words of an event's line in canonical text ([`events::Notation::Canonical`], through
/// `write`), each also kept in writing order, so that the event's fields reuse them instead of
/// writing the terms again.
struct Kept<'a, 'w> {
    words: &'a mut Vec<String>,
    write: &'a mut (dyn FnMut(&Term) -> String + 'w),
}

impl Kept<'_, '_> {
    fn keep(&mut self, t: &Term) -> String {
        let w = (self.write)(t);
        self.words.push(w.clone());
        w
    }
}

impl events::Words for Kept<'_, '_> {
    fn player(&mut self, p: &Term) -> String {
        self.keep(p)
    }
    fn switch(&mut self, s: &Term) -> String {
        self.keep(s)
    }
    fn action(&mut self, _switch: &Term, a: &Term) -> String {
        self.keep(a)
    }
    fn fact(&mut self, f: &Term) -> String {
        self.keep(f)
    }
    fn amount(&mut self, a: &Term) -> String {
        self.keep(a)
    }
}

/// An event with its parts as canonical text and the engine's line ([`Event::text`]).
pub fn event(e: &Event) -> EventDto {
    event_with(e, &mut show)
}

/// [`event`] with the terms written by `write` (canonical text, e.g. from a table of terms
/// written before); each term is written once, for the line, and its text reused for its field.
pub fn event_with(e: &Event, write: &mut dyn FnMut(&Term) -> String) -> EventDto {
    let mut words = Vec::with_capacity(2);
    let text = e.text(Kept {
        words: &mut words,
        write: &mut *write,
    });
    let mut words = words.into_iter();
    let mut word = |t: &Term| words.next().unwrap_or_else(|| write(t));
    let mut d = EventDto {
        kind: e.kind().into(),
        text,
        fact: None,
        player: None,
        amount: None,
        switch: None,
        action: None,
        how: None,
        ok: None,
    };
    // the fields in the order the line writes them (`Event::text`)
    match e {
        Event::Created(f) | Event::Deleted(f) => d.fact = Some(word(f)),
        Event::Account { player, amount } => {
            d.player = Some(word(player));
            d.amount = Some(word(amount));
        }
        Event::Switch {
            switch,
            action,
            how,
            ok,
        } => {
            d.switch = Some(word(switch));
            d.action = Some(word(action));
            d.how = Some((*how).into());
            d.ok = Some(*ok);
        }
    }
    d
}

pub fn chronon_dto(rec: &ChrononRecord, chronon: u64, terminal: bool) -> ChrononDto {
    chronon_dto_with(rec, chronon, terminal, &mut show)
}

/// [`chronon_dto`] with the terms written by `write` (canonical text).
pub fn chronon_dto_with(
    rec: &ChrononRecord,
    chronon: u64,
    terminal: bool,
    write: &mut dyn FnMut(&Term) -> String,
) -> ChrononDto {
    let events: Vec<EventDto> = rec.events.iter().map(|e| event_with(e, write)).collect();
    let player_events = rec
        .player_events
        .iter()
        .map(|es| es.iter().map(|&k| k as usize).collect())
        .collect();
    ChrononDto {
        chronon,
        submissions: rec
            .submissions
            .iter()
            .map(|s| [write(&s.player), write(&s.switch), write(&s.action)])
            .collect(),
        player_events,
        events,
        terminal,
    }
}

/// The typed slots of an unlimited action template.
pub fn slots_of(template: &Term) -> Vec<SlotDto> {
    template_slots(template)
        .iter()
        .map(|s| SlotDto {
            name: s.name.as_ref().map(show).unwrap_or_else(|| "_".into()),
            ty: SlotType::of(s.ty),
            description: slot_type_description(s.ty).to_string(),
        })
        .collect()
}

/// Every keyword with its arity, where it is written and its documentation (the engine's table,
/// [`keywords::listing`]).
pub fn keywords() -> Vec<KeywordDto> {
    keywords::listing()
        .into_iter()
        .map(|((name, arity), position, doc)| KeywordDto {
            name: name.name().to_string(),
            arity,
            position: position.into(),
            doc: doc.text(),
        })
        .collect()
}

/// `bench()`: chronons run, games started and wall-clock seconds (`performance.now()`).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct BenchResult {
    pub chronons: u64,
    pub games: u64,
    pub seconds: f64,
}
