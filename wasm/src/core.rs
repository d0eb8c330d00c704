//! The playground's logic without the browser: a loaded game and its session behind plain Rust
//! methods that return the DTOs of [`crate::dto`] or an error message. Every rule is the engine's
//! (seats, events, keywords, accounts, slots, snapshots); this file calls it and converts. `lib.rs`
//! only converts to JavaScript. Terms cross as canonical text; text coming in is parsed with
//! `sidl_engine::syntax::parse_term`.

pub use crate::dto::*;
use rustc_hash::FxHashMap;
use sidl_engine::ai::AiSpec;
use sidl_engine::analysis::hidden_dynamic::{self, ExploreOptions, Progress};
use sidl_engine::atom::Atom;
use sidl_engine::diag::ColumnUnit;
use sidl_engine::game::host::{KeywordHost, Placement};
use sidl_engine::game::session::{
    slot_type_description, slot_value, submission_text, SnapshotChronon,
};
use sidl_engine::game::trace::{parse_script, random_play, run_trace, PlayStats};
use sidl_engine::game::why::{self, WhyLimits};
use sidl_engine::game::{
    account_value, fill_template, template_slots, Actions, Game, RuntimeError, Session, Settings,
    Submission, SwitchInfo,
};
use sidl_engine::seats::{self, Seat};
use sidl_engine::solve::errors::codes;
use sidl_engine::solve::query::answer_text;
use sidl_engine::solve::Query;
use sidl_engine::term::Term;
use std::sync::Arc;

mod layout;
mod wire;

pub use wire::{decode as wire_decode, WireOut};

/// Every failure of [`Core`]: a message, and where in the game source it happened when known.
#[derive(Clone, Debug, PartialEq)]
pub struct CoreError {
    pub message: String,
    pub location: Option<Box<ErrorLocation>>,
    /// The diagnostics of a source that does not load (the message lists them as text).
    pub diagnostics: Vec<DiagnosticDto>,
}

impl std::fmt::Display for CoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for CoreError {
    fn from(message: String) -> CoreError {
        CoreError {
            message,
            location: None,
            diagnostics: Vec::new(),
        }
    }
}

impl From<&str> for CoreError {
    fn from(message: &str) -> CoreError {
        CoreError::from(message.to_string())
    }
}

/// The limit on answers of one `query`.
pub const MAX_ANSWERS: usize = 100;

/// Every diagnostic of a source, exactly those of `sidl check` (the engine's
/// [`sidl_engine::analysis::check`]): syntax and load errors, placement errors (`E03xx`), lints
/// (`W04xx`/`E04xx`) and the static hidden-information analysis (`W0501`), sorted by position.
pub fn check(source: &str) -> Vec<DiagnosticDto> {
    diagnostics(source, &sidl_engine::analysis::check(source))
}

pub fn parse(text: &str, what: &str) -> Result<Term, String> {
    match sidl_engine::syntax::parse_term(text) {
        Ok(r) => Ok(r.term),
        Err(d) => {
            let first = d.first().map(|d| d.message.clone()).unwrap_or_default();
            Err(format!("{what} {text:?} does not parse: {first}"))
        }
    }
}

/// What `sidl trace GAME --seed SEED [--script FILE] --max-chronons MAX` prints on stdout: one line
/// each, `\n`-terminated. `script`: the script's text; `None` plays randomly. `Err`: the game or the
/// script does not load.
pub fn trace(
    source: &str,
    script: Option<&str>,
    seed: u64,
    max_chronons: u64,
    interrupt: bool,
) -> Result<String, CoreError> {
    let (game, _) = Game::load(source).map_err(|d| diagnostics_text(&diagnostics(source, &d)))?;
    let items = match script {
        Some(text) => Some(
            parse_script(text)
                .map_err(|d| format!("the script: {}", diagnostics_text(&diagnostics(text, &d))))?
                .into_iter()
                .map(|(i, _)| i)
                .collect::<Vec<_>>(),
        ),
        None => None,
    };
    let settings = Settings {
        interrupt,
        ..Settings::default()
    };
    let out = run_trace(
        Arc::new(game),
        seed,
        items.as_deref(),
        max_chronons,
        settings,
    );
    let mut text = String::new();
    for l in &out.lines {
        text.push_str(l);
        text.push('\n');
    }
    Ok(text)
}

/// A loaded game and one session of it.
pub struct Core {
    game: Arc<Game>,
    source: String,
    warnings: Vec<DiagnosticDto>,
    settings: Settings,
    session: Session,
    shown: Written,
    shown_switches: ShownSwitches,
    snapshot_text: SnapshotText,
    accounts_text: AccountsText,
    /// The labelled event lines of the history (`labels`), kept from call to call.
    event_lines: sidl_engine::game::present::EventLines,
    players_read: ReadTerms,
    /// The table of values handed to JavaScript (`wire.rs`).
    wire: wire::Wire,
}

/// The terms of the player texts read so far, by text ([`parse`] is a function of the text): the
/// playground names players in every `view`, `switches` and `randomMoves` call. Emptied when it
/// outgrows [`ReadTerms::MAX`].
#[derive(Default)]
struct ReadTerms {
    by_text: FxHashMap<String, Term>,
}

impl ReadTerms {
    const MAX: usize = 256;

    fn player(&mut self, text: &str) -> Result<Term, String> {
        if let Some(t) = self.by_text.get(text) {
            return Ok(t.clone());
        }
        let t = parse(text, "player")?;
        if self.by_text.len() >= Self::MAX {
            self.by_text.clear();
        }
        self.by_text.insert(text.to_string(), t.clone());
        Ok(t)
    }
}

/// The switch DTOs of legal switches asked for, by the engine's `Arc` of switches, then by player
/// (`None`: all): the engine shares one `Arc` of switches while the state's legal switches stay
/// the same (within a state, across states with the same legal switches when their rows are
/// constant, and when a state comes again: `Session`'s table by state), so asking every player's
/// switches again, or in a state seen before, shows nothing again. Each entry holds its `Arc`,
/// which keeps its address from being reused while it is a key; the table is emptied past
/// [`ShownSwitches::MAX`] entries.
#[derive(Default)]
struct ShownSwitches {
    by_arc: FxHashMap<usize, ShownOf>,
    /// Entries made so far.
    entries: u64,
}

struct ShownOf {
    _all: Arc<Vec<SwitchInfo>>,
    /// Player, entry number ([`Core::switches_shared`]), switches.
    by_player: Vec<(Option<String>, u64, Arc<[SwitchDto]>)>,
}

impl ShownSwitches {
    const MAX: usize = 1024;
}

/// [`Core::snapshot`]'s JSON (`dto::snapshot_json` of the session's snapshot, byte for byte) with
/// the history's chronons written once: each chronon's part is kept with the submissions and
/// overrides it was written from, and written again only when the record at its place has other
/// ones (a kept chronon shares its terms with the history, so comparing them is mostly comparing
/// addresses). Run in the playground asks for a snapshot after every chronon, and writing the whole
/// history each time made a long game quadratic (chess: a third of a step at chronon 100). The
/// text itself is kept too: the head (seed, interrupt mode), the kept parts and the tail (the
/// pending submissions); a call cuts it after the parts that still hold, appends the new ones and
/// the tail, so a step copies only its own chronon's part (run29).
#[derive(Default)]
struct SnapshotText {
    chronons: Vec<SnapshotPart>,
    /// The last JSON: `head`, the parts joined by commas, the tail.
    text: String,
    /// The head's length in `text` (`{"seed":…,"interrupt":…,"chronons":[`).
    head: usize,
}

/// A chronon's submissions and overrides, and the end of its part of the JSON in
/// [`SnapshotText::text`].
type SnapshotPart = (Vec<Submission>, Vec<(Term, Term)>, usize);

impl SnapshotText {
    /// The text of each chronon's part from `from` on, as the last [`SnapshotText::json`] wrote it.
    fn parts(&self, from: usize) -> Vec<String> {
        (from..self.chronons.len())
            .map(|k| {
                let start = if k == 0 {
                    self.head
                } else {
                    self.chronons[k - 1].2 + 1
                };
                self.text[start..self.chronons[k].2].to_string()
            })
            .collect()
    }

    fn json(&mut self, session: &Session) -> &str {
        let head = format!(
            "{{\"seed\":{},\"interrupt\":{},\"chronons\":[",
            session.seed(),
            session.settings().interrupt
        );
        if self.text.get(..self.head) != Some(head.as_str()) {
            self.chronons.clear();
            self.text.clear();
            self.text.push_str(&head);
            self.head = head.len();
        }
        let history = session.history();
        self.chronons.truncate(history.len());
        let same = self
            .chronons
            .iter()
            .zip(history)
            .take_while(|((s, o, _), r)| *s == r.submissions && *o == r.overrides)
            .count();
        self.chronons.truncate(same);
        let end = self.chronons.last().map_or(self.head, |(_, _, e)| *e);
        self.text.truncate(end);
        for r in &history[same..] {
            let part = SnapshotChronon::of(r);
            let part = SnapshotChrononDto {
                submissions: part.submissions,
                overrides: part.overrides,
            };
            if !self.chronons.is_empty() {
                self.text.push(',');
            }
            self.text
                .push_str(&serde_json::to_string(&part).unwrap_or_default());
            self.chronons
                .push((r.submissions.clone(), r.overrides.clone(), self.text.len()));
        }
        let pending: Vec<[String; 3]> = session.pending().iter().map(submission_text).collect();
        self.text.push_str("],\"pending\":");
        self.text
            .push_str(&serde_json::to_string(&pending).unwrap_or_default());
        self.text.push('}');
        &self.text
    }
}

/// [`Core::accounts_json`]'s text, kept with the accounts it was written from: Run asks for the
/// accounts after every chronon, and they mostly stay as they were (run29).
#[derive(Default)]
struct AccountsText {
    accounts: Vec<(Term, Term)>,
    /// `None` before the first call, and when a value is not a finite number (JSON has no NaN).
    json: Option<String>,
    written: bool,
}

/// The canonical text of compound terms written before, by term: a chronon shares the facts it
/// leaves unchanged with the next state (the same `Arc<Ground>` and so the same arguments), a
/// created fact's event has the term the next state holds, and switch ids and actions are shared
/// across states, so a view or a chronon's events write only the terms that are new instead of
/// writing every one again. A compound is known by its functor and the address of its arguments;
/// each entry holds its term, so an address is never reused while it is a key. Atomic terms are
/// written afresh (cheap). The table is emptied when it outgrows [`Written::MAX`].
#[derive(Default)]
struct Written {
    by_term: FxHashMap<(Atom, usize), (Term, String)>,
}

impl Written {
    const MAX: usize = 4096;

    fn text(&mut self, t: &Term) -> String {
        let mut out = String::new();
        self.with_text(t, &mut |w| out.push_str(w));
        out
    }

    /// Hands `f` the canonical text of `t`, from the table when it was written before (no copy).
    fn with_text(&mut self, t: &Term, f: &mut dyn FnMut(&str)) {
        let Term::Compound(name, args) = t else {
            return f(&show(t));
        };
        let key = (*name, Arc::as_ptr(args) as *const Term as usize);
        if let Some((_, w)) = self.by_term.get(&key) {
            return f(w);
        }
        if self.by_term.len() >= Self::MAX {
            self.by_term.clear();
        }
        let w = show(t);
        f(&w);
        self.by_term.insert(key, (t.clone(), w));
    }
}

impl Core {
    /// Loads a game and starts a session with seed 1. `Err`: the diagnostics as text (errors block).
    pub fn new(source: &str) -> Result<Core, CoreError> {
        let (game, diags) = match Game::load(source) {
            Ok(g) => g,
            Err(d) => {
                let diagnostics = diagnostics(source, &d);
                return Err(CoreError {
                    message: diagnostics_text(&diagnostics),
                    location: None,
                    diagnostics,
                });
            }
        };
        let game = Arc::new(game);
        let settings = Settings::default();
        let session =
            Session::new(game.clone(), 1, settings.clone()).map_err(|e| runtime(source, &e))?;
        Ok(Core {
            game,
            source: source.to_string(),
            warnings: diagnostics(source, &diags),
            settings,
            session,
            shown: Written::default(),
            shown_switches: ShownSwitches::default(),
            snapshot_text: SnapshotText::default(),
            accounts_text: AccountsText::default(),
            event_lines: Default::default(),
            players_read: ReadTerms::default(),
            wire: wire::Wire::default(),
        })
    }

    /// The loaded game (the Analyse panel's tree is built from it, `crate::analyse`; `crate::stats`).
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    /// The loaded game's source text.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The session and the game's source (for `labels.rs`).
    /// The session, the source (for errors) and the kept event lines of `labels`.
    pub(crate) fn session_source_lines(
        &mut self,
    ) -> (
        &mut Session,
        &str,
        &mut sidl_engine::game::present::EventLines,
    ) {
        (&mut self.session, &self.source, &mut self.event_lines)
    }

    /// A runtime error of the engine, with its diagnostic.
    fn rt(&self, e: RuntimeError) -> CoreError {
        runtime(&self.source, &e)
    }

    /// `sidl bench`'s loop on this game: random games back to back (seeds `seed`, `seed + 1`, ...)
    /// with default settings until `chronons` chronons have run. The caller times it (the engine has
    /// no clock). Leaves this session as it was.
    pub fn bench(&self, chronons: u64, seed: u64) -> Result<PlayStats, CoreError> {
        random_play(
            self.game.clone(),
            seed,
            chronons,
            Settings::default(),
            false,
        )
        .map_err(|e| self.rt(e))
    }

    /// The session's settings (mode and budgets).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The session itself, for [`crate::stats`] (the record of the session).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The load's non-blocking diagnostics.
    pub fn warnings(&self) -> &[DiagnosticDto] {
        &self.warnings
    }

    /// Restarts the game with a seed, in interrupt mode (paper §4) or not.
    pub fn start(&mut self, seed: u64, interrupt: bool) -> Result<(), CoreError> {
        if interrupt == self.settings.interrupt {
            // the same settings: the engine's recycling (`sidl bench`'s), which keeps the logic
            // machine's memo table and the initial state; on an error the session is unchanged
            return self
                .session
                .restart(seed)
                .map_err(|e| runtime(&self.source, &e));
        }
        let settings = Settings {
            interrupt,
            ..self.settings.clone()
        };
        self.session =
            Session::new(self.game.clone(), seed, settings.clone()).map_err(|e| self.rt(e))?;
        self.settings = settings;
        Ok(())
    }

    /// Sets the per-query budgets and rebuilds the session under them (same seed, same history).
    /// On an error (the history does not replay under the new budgets) nothing changes.
    pub fn set_limits(&mut self, l: &LimitsDto) -> Result<(), CoreError> {
        let mut settings = self.settings.clone();
        let lim = &mut settings.limits;
        lim.max_inferences = l.inferences.unwrap_or(lim.max_inferences);
        lim.max_heap_cells = l.heap_cells.unwrap_or(lim.max_heap_cells);
        lim.max_choicepoints = l.choicepoints.unwrap_or(lim.max_choicepoints);
        lim.max_frames = l.frames.unwrap_or(lim.max_frames);
        let snap = self.session.snapshot();
        self.session =
            Session::restore(self.game.clone(), &snap, settings.clone()).map_err(|e| self.rt(e))?;
        self.settings = settings;
        Ok(())
    }

    pub fn seed(&self) -> u64 {
        self.session.seed()
    }

    pub fn interrupt(&self) -> bool {
        self.settings.interrupt
    }

    pub fn chronon(&self) -> u64 {
        self.session.chronon()
    }

    pub fn players(&self) -> Vec<String> {
        self.session.players().iter().map(show).collect()
    }

    pub fn view(&mut self, player: Option<&str>) -> Result<Vec<String>, CoreError> {
        let mut out = Vec::new();
        self.view_with(player, &mut |f| out.push(f.to_string()))?;
        Ok(out)
    }

    /// [`Core::view`], each fact's text handed to `f` in order instead of collected (`lib.rs`
    /// writes them straight into the JSON it hands JavaScript).
    pub fn view_with(
        &mut self,
        player: Option<&str>,
        f: &mut dyn FnMut(&str),
    ) -> Result<(), CoreError> {
        let p = player.map(|p| self.players_read.player(p)).transpose()?;
        // the engine's view (Session::view: every fact, or those hidden/2 leaves to the player),
        // written through the table of shown facts
        let state = self.session.state().clone();
        let hidden = match &p {
            None => None,
            Some(t) => match state.player_index(t) {
                Some(pi) => Some((pi, self.session.hidden_matrix().map_err(|e| self.rt(e))?)),
                // not a player: the engine's error
                None => {
                    return match self.session.view(Some(t)) {
                        Err(e) => Err(self.rt(e)),
                        Ok(facts) => {
                            facts.iter().for_each(|t| f(&show(t)));
                            Ok(())
                        }
                    }
                }
            },
        };
        for (i, fact) in state.facts.iter().enumerate() {
            if hidden.as_ref().is_none_or(|(pi, h)| !h[*pi][i]) {
                self.shown.with_text(fact.term(), f);
            }
        }
        Ok(())
    }

    pub fn switches(&mut self, player: Option<&str>) -> Result<Vec<SwitchDto>, CoreError> {
        self.switches_shared(player).map(|(_, dtos)| dtos.to_vec())
    }

    /// [`Core::switches`] as the table of shown switches holds them, with the number of that
    /// entry: the same number means the same switches (`lib.rs` hands JavaScript the same object
    /// again then). Numbers are not reused within a `Core`.
    pub fn switches_shared(
        &mut self,
        player: Option<&str>,
    ) -> Result<(u64, Arc<[SwitchDto]>), CoreError> {
        let all = self.session.switches().map_err(|e| self.rt(e))?;
        let key = Arc::as_ptr(&all) as usize;
        let cache = &mut self.shown_switches;
        if let Some(of) = cache.by_arc.get(&key) {
            if let Some((_, n, dtos)) = of.by_player.iter().find(|(k, _, _)| k.as_deref() == player)
            {
                return Ok((*n, dtos.clone()));
            }
        }
        let p = player.map(|p| self.players_read.player(p)).transpose()?;
        let shown = &mut self.shown;
        let mut show_term = |t: &Term| shown.text(t);
        let dtos: Vec<SwitchDto> = all
            .iter()
            .filter(|s| p.as_ref().is_none_or(|p| wire::owned_by(s, p)))
            .map(|s| {
                let (unlimited, acts) = match &s.actions {
                    Actions::Finite(a) => (false, a),
                    Actions::Unlimited(t) => (true, t),
                };
                let slots = acts
                    .iter()
                    .map(|a| if unlimited { slots_of(a) } else { Vec::new() })
                    .collect();
                SwitchDto {
                    switch: show_term(&s.id),
                    owner: s.owner_term.as_ref().map(&mut show_term),
                    nature: s.owner.is_nature(),
                    unlimited,
                    actions: acts.iter().map(&mut show_term).collect(),
                    slots,
                }
            })
            .collect();
        let dtos: Arc<[SwitchDto]> = dtos.into();
        let cache = &mut self.shown_switches;
        if cache.by_arc.len() >= ShownSwitches::MAX && !cache.by_arc.contains_key(&key) {
            cache.by_arc.clear();
        }
        cache.entries += 1;
        let n = cache.entries;
        cache
            .by_arc
            .entry(key)
            .or_insert_with(|| ShownOf {
                _all: all.clone(),
                by_player: Vec::new(),
            })
            .by_player
            .push((player.map(str::to_string), n, dtos.clone()));
        Ok((n, dtos))
    }

    pub fn submit(
        &mut self,
        player: &str,
        switch: &str,
        action: &str,
    ) -> Result<SubmitDto, CoreError> {
        let p = parse(player, "player")?;
        let s = parse(switch, "switch")?;
        let refused = |reason: String| SubmitDto {
            ok: false,
            reason: Some(reason),
            chronon: None,
        };
        let a = match parse(action, "action") {
            Ok(a) => a,
            Err(reason) => return Ok(refused(reason)),
        };
        let before = self.session.history().len();
        match self.session.submit(&p, &s, &a).map_err(|e| self.rt(e))? {
            Ok(()) => {
                // interrupt mode: the submission ran its own transition
                let chronon = if self.session.history().len() > before {
                    let i = self.session.history().len() - 1;
                    Some(self.record(i)?)
                } else {
                    None
                };
                Ok(SubmitDto {
                    ok: true,
                    reason: None,
                    chronon,
                })
            }
            Err(r) => Ok(refused(r.0)),
        }
    }

    /// Pending submissions `[player, switch, action]`.
    pub fn pending(&self) -> Vec<[String; 3]> {
        self.session
            .pending()
            .iter()
            .map(|s| [show(&s.player), show(&s.switch), show(&s.action)])
            .collect()
    }

    /// Random seats ([`seats::random_moves`], the engine's one random driver, as `sidl run`,
    /// `sidl play` and `sidl tournament`): a uniformly random action for every legal switch owned by
    /// one of `players` (all players for `None`), drawn from the session's driver RNG (same seed,
    /// same choices). Finite switches draw from their actions, unlimited switches from the game's
    /// `candidate/2` (none without it: their default applies; a candidate that `switch/2` refuses
    /// is replaced by another). In interrupt mode only the first accepted submission (it runs a
    /// chronon, after which the others may no longer be legal). The chronons that ran (interrupt
    /// mode), else `[]`.
    pub fn random_moves(
        &mut self,
        players: Option<&[String]>,
    ) -> Result<Vec<ChrononDto>, CoreError> {
        let before = self.session.history().len();
        self.random_moves_only(players)?;
        (before..self.session.history().len())
            .map(|i| self.record(i))
            .collect()
    }

    /// [`Core::random_moves`] without the records of the chronons that ran.
    fn random_moves_only(&mut self, players: Option<&[String]>) -> Result<(), CoreError> {
        let only = players
            .map(|ps| {
                ps.iter()
                    .map(|p| self.players_read.player(p))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let one = self.settings.interrupt;
        seats::random_moves(&mut self.session, only.as_deref(), true, one)
            .map_err(|e| self.rt(e))?;
        Ok(())
    }

    /// Submits the moves an AI player (`random`, `minimax:DEPTH` or `mcts:ITERATIONS`) chooses for
    /// `player` in the current chronon ([`seats::ai_moves`]), from what that player may see only
    /// (its observation) and `seed` (same state, spec and seed: same moves). Unlimited switches get
    /// the game's `candidate/2` actions (docs/ai.md); one that `switch/2` refuses leaves its switch
    /// to its default. In interrupt mode only the first (it runs its chronon). The chronons that ran
    /// (interrupt mode), else `[]`.
    pub fn ai_moves(
        &mut self,
        player: &str,
        spec: &str,
        seed: u64,
    ) -> Result<Vec<ChrononDto>, CoreError> {
        let before = self.session.history().len();
        self.ai_moves_only(player, spec, seed)?;
        (before..self.session.history().len())
            .map(|i| self.record(i))
            .collect()
    }

    /// [`Core::ai_moves`] without the records of the chronons that ran.
    fn ai_moves_only(&mut self, player: &str, spec: &str, seed: u64) -> Result<(), CoreError> {
        let p = parse(player, "player")?;
        let spec = AiSpec::parse(spec)?;
        if !self.session.players().contains(&p) {
            return Err(format!("{} is not a player", show(&p)).into());
        }
        let one = self.settings.interrupt;
        seats::ai_moves(&mut self.session, &p, spec, seed, one).map_err(|e| self.rt(e))?;
        Ok(())
    }

    /// After the seats have submitted for the coming chronon: why no seat can act, or `None`
    /// ([`seats::idle`]). `seats`: `[player, kind]` pairs, kind `human`, `random`,
    /// `minimax:DEPTH` or `mcts:ITERATIONS`; a player not named is human. `moved`: the submissions
    /// accepted since the last chronon (in interrupt mode they ran their own chronons). `Some`:
    /// nothing would happen in the next chronon (no submission, no default, no chance switch, and
    /// no human seat owns a legal switch), so a driver should stop and show the message (its first
    /// line says why, one more line per waiting switch).
    pub fn idle(
        &mut self,
        seats: &[[String; 2]],
        moved: usize,
    ) -> Result<Option<String>, CoreError> {
        let players = self.session.players();
        let mut kinds = vec![Seat::Human; players.len()];
        for [p, k] in seats {
            let t = parse(p, "player")?;
            let Some(i) = players.iter().position(|q| q == &t) else {
                return Err(format!("{} is not a player", show(&t)).into());
            };
            kinds[i] = Seat::parse(k)?;
        }
        let why = seats::idle(&mut self.session, &kinds, moved).map_err(|e| self.rt(e))?;
        Ok(why.map(|w| w.to_string()))
    }

    /// The DTO of history record `i` (chronon `i + 1`).
    fn record(&mut self, i: usize) -> Result<ChrononDto, CoreError> {
        let last = i + 1 == self.session.history().len();
        let terminal = last && self.is_terminal()?;
        let shown = &mut self.shown;
        Ok(chronon_dto_with(
            &self.session.history()[i],
            i as u64 + 1,
            terminal,
            &mut |t| shown.text(t),
        ))
    }

    pub fn run_chronon(&mut self) -> Result<ChrononDto, CoreError> {
        if let Err(e) = self.session.run_chronon().map(|_| ()) {
            return Err(self.rt(e));
        }
        let i = self.session.history().len() - 1;
        self.record(i)
    }

    /// Every chronon so far, oldest first.
    pub fn history(&mut self) -> Result<Vec<ChrononDto>, CoreError> {
        (0..self.session.history().len())
            .map(|i| self.record(i))
            .collect()
    }

    /// [`Core::accounts`] as JSON (`serde_json` of the DTOs), written again only when the accounts
    /// changed; `None` when a value is not finite (JSON would write `null` for it).
    pub fn accounts_json(&mut self) -> Option<&str> {
        let now = self.session.accounts();
        if !self.accounts_text.written || now != self.accounts_text.accounts {
            let dtos = self.accounts();
            self.accounts_text.json = if dtos.iter().all(|a| a.value.is_finite()) {
                serde_json::to_string(&dtos).ok()
            } else {
                None
            };
            self.accounts_text.accounts = now;
            self.accounts_text.written = true;
        }
        self.accounts_text.json.as_deref()
    }

    pub fn accounts(&self) -> Vec<AccountDto> {
        self.session
            .accounts()
            .iter()
            .map(|(p, a)| AccountDto {
                player: show(p),
                amount: show(a),
                value: account_value(a),
            })
            .collect()
    }

    /// Back to the state before the last chronon; its submissions are withdrawn. `false`: nothing
    /// to undo.
    pub fn undo(&mut self) -> bool {
        let done = self.session.undo();
        if done {
            self.session.clear_pending();
        }
        done
    }

    pub fn is_terminal(&mut self) -> Result<bool, CoreError> {
        self.session.is_terminal().map_err(|e| self.rt(e))
    }

    /// The session as JSON ([`SnapshotDto`]).
    pub fn snapshot(&mut self) -> String {
        self.snapshot_str().to_owned()
    }

    /// [`Core::snapshot`]'s text, kept until the next call (no copy).
    pub fn snapshot_str(&mut self) -> &str {
        self.snapshot_text.json(&self.session)
    }

    /// The JSON text of each chronon of [`Core::snapshot`]'s `chronons` from `from` (0-based) on,
    /// exactly as the snapshot writes it (its kept parts: no chronon is written again).
    pub fn snapshot_parts(&mut self, from: usize) -> Vec<String> {
        self.snapshot_text.json(&self.session);
        self.snapshot_text.parts(from)
    }

    /// Replaces the session with one rebuilt from [`Core::snapshot`] text (its seed, interrupt mode
    /// and history).
    pub fn restore(&mut self, json: &str) -> Result<(), CoreError> {
        let snap = snapshot_from_json(json).map_err(|e| {
            self.rt(RuntimeError::new(
                codes::REPLAY,
                "restore",
                format!("not a session snapshot: {e}"),
            ))
        })?;
        self.session = Session::restore(self.game.clone(), &snap, self.settings.clone())
            .map_err(|e| self.rt(e))?;
        self.settings.interrupt = self.session.settings().interrupt;
        Ok(())
    }

    /// Explains a "why (not)?" question about the current session (for `fact` and `payoff`, a
    /// chronon of its history) with the game's clauses (the engine's `game::why`).
    pub fn why(&mut self, q: &WhyQuestionDto) -> Result<WhyDto, CoreError> {
        let (question, viewer) = q.parse()?;
        let answer = why::explain(
            &mut self.session,
            &question,
            viewer.as_ref(),
            WhyLimits::default(),
        )
        .map_err(|e| self.rt(e))?;
        Ok(why::to_json(
            &answer,
            &self.source,
            "game",
            ColumnUnit::Utf16,
        ))
    }

    /// Every answer (up to [`MAX_ANSWERS`]) of a goal against the game's rules, the keyword
    /// predicates (`fact/1`, `player/1`, ...) reading the current state; placement as
    /// [`Placement::query`] (a call of a body keyword the goal may not use is an error, `E0946`).
    pub fn query(&self, goal: &str) -> Result<QueryDto, CoreError> {
        let read = sidl_engine::syntax::parse_term(goal)
            .map_err(|d| diagnostics_text(&diagnostics(goal, &d)))?;
        let mut q = Query::new(
            &self.game.program,
            &read.term,
            &read.var_names,
            self.settings.limits,
        );
        let state = self.session.state().clone();
        let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
        // the body keywords the goal may call: a head keyword's row of the table, else a state query's
        host.placement = Placement::query(&read.term);
        let vars = q.var_names().to_vec();
        let mut out = QueryDto {
            vars: vars.clone(),
            answers: Vec::new(),
            error: None,
            location: None,
            truncated: false,
        };
        while out.answers.len() < MAX_ANSWERS {
            match q.next_answer_with(&mut host) {
                Some(Ok(values)) => out.answers.push(answer_text(&vars, &values)),
                Some(Err(e)) => {
                    out.error = Some(e.message.clone());
                    out.location = Some(error_location(&self.source, &e.to_diagnostic(), &e.path));
                    break;
                }
                None => break,
            }
        }
        if out.error.is_none() && out.answers.len() == MAX_ANSWERS {
            out.truncated = q.may_have_more();
        }
        Ok(out)
    }

    /// Fills an unlimited action template with values (text, one per slot of [`slots_of`], in
    /// order), each checked and held by the engine's slot rule (`slot_value`: `12` for a `double`
    /// slot is `12.0`, `2.0` for an `integer` slot is refused); the action as canonical text.
    pub fn fill_template(&self, template: &str, values: &[String]) -> Result<String, CoreError> {
        let t = parse(template, "template")?;
        let slots = template_slots(&t);
        if slots.len() != values.len() {
            return Err(format!(
                "template {} has {} slot(s), got {} value(s)",
                show(&t),
                slots.len(),
                values.len()
            )
            .into());
        }
        let mut terms = Vec::with_capacity(values.len());
        for (i, (slot, text)) in slots.iter().zip(values).enumerate() {
            let name = slot.name.as_ref().map(show).unwrap_or_else(|| "_".into());
            let what = format!("value {} for slot {name} ({})", i + 1, slot.ty.name());
            let v = parse(text, &what)?;
            let Some(v) = slot_value(slot.ty, &v) else {
                let want = slot_type_description(slot.ty);
                return Err(format!("{what}: {} is not {want}", show(&v)).into());
            };
            terms.push(v);
        }
        fill_template(&t, &terms)
            .map(|a| show(&a))
            .ok_or_else(|| CoreError::from("the values do not fit the template"))
    }

    /// [`trace`] of this game (not in interrupt mode: `sidl trace` without `--interrupt`).
    pub fn trace(
        &self,
        script: Option<&str>,
        seed: u64,
        max_chronons: u64,
    ) -> Result<String, CoreError> {
        trace(&self.source, script, seed, max_chronons, false)
    }

    /// The dynamic Def.1 §11 check from the initial state (this session's seed and mode), exploring
    /// at most `max_states` states; `progress` is called now and then.
    pub fn check_hidden(
        &self,
        max_states: usize,
        progress: &mut dyn FnMut(&ProgressDto),
    ) -> Result<HiddenReportDto, CoreError> {
        let opts = ExploreOptions {
            max_states,
            seed: self.session.seed(),
            settings: self.settings.clone(),
            ..ExploreOptions::default()
        };
        let mut report_progress = |p: &Progress| {
            progress(&ProgressDto {
                phase: p.phase.into(),
                states: p.states,
                frontier: p.queue,
            })
        };
        let r = hidden_dynamic::explore(self.game.clone(), &opts, &mut report_progress)
            .map_err(|e| self.rt(e))?;
        let mut message = r.summary();
        for e in &r.errors {
            message.push_str(&format!(
                "\nruntime error during exploration (successor skipped): {e}"
            ));
        }
        let counterexample = r.violations.first().map(|v| CounterexampleDto {
            player: show(&v.player),
            switch: show(&v.switch),
            description: v.describe(),
            steps: v.steps(),
        });
        Ok(HiddenReportDto {
            consistent: r.violations.is_empty(),
            complete: r.complete,
            states: r.states,
            message,
            counterexample,
        })
    }
}

/// A runtime error: its message, and its diagnostic placed in `source`.
pub(crate) fn runtime(source: &str, e: &RuntimeError) -> CoreError {
    let path = e.solve.as_ref().map_or(&[][..], |s| &s.path[..]);
    CoreError {
        message: e.message.clone(),
        location: Some(Box::new(error_location(source, &e.to_diagnostic(), path))),
        diagnostics: Vec::new(),
    }
}
