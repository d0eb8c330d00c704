//! `sidl-wasm`: the SIDL3.0 engine in the browser, as one class `SidlGame` (wasm-bindgen). Terms
//! cross as canonical text; every failure is thrown as a JavaScript `Error`. The logic lives in
//! [`core`] (plain Rust over the engine, tested natively), the data that crosses in [`dto`] (with its
//! TypeScript types, `src/types.d.ts`); this file converts to and from JavaScript.

#[cfg(feature = "analyse")]
pub mod analyse;
mod chronon_js;
pub mod core;
pub mod dto;
pub mod labels;
pub mod stats;

use crate::core::{Core, CoreError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = dto::TS_TYPES;
#[wasm_bindgen(typescript_custom_section)]
const TS_LABELS: &str = labels::TS_TYPES;

/// Runs when the module is instantiated: a Rust panic is reported on the browser console with its
/// message and place (`console_error_panic_hook`) instead of only "unreachable executed".
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, js_sys::Error> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::Error::new(&e.to_string()))
}

/// A JavaScript `Error` with the message, `sidl` set to the location when there is one, and
/// `diagnostics` when a source does not load.
fn err(e: impl Into<CoreError>) -> js_sys::Error {
    let e: CoreError = e.into();
    let out = js_sys::Error::new(&e.message);
    if let Some(loc) = &e.location {
        if let Ok(v) = to_js(loc) {
            let _ = js_sys::Reflect::set(&out, &JsValue::from_str("sidl"), &v);
        }
    }
    if !e.diagnostics.is_empty() {
        if let Ok(v) = to_js(&e.diagnostics) {
            let _ = js_sys::Reflect::set(&out, &JsValue::from_str("diagnostics"), &v);
        }
    }
    out
}

/// wasm-bindgen's error for a `Vec<String>` argument with an element that is not a string.
const WRONG_TYPE: &str = "array contains a value of the wrong type";

/// A seed from JavaScript: a non-negative integer below 2^53.
fn seed_of(seed: f64) -> Result<u64, js_sys::Error> {
    if seed.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&seed) {
        Ok(seed as u64)
    } else {
        Err(err(format!(
            "the seed must be a non-negative integer below 2^53, got {seed}"
        )))
    }
}

fn count_of(n: f64, what: &str) -> Result<u64, js_sys::Error> {
    if n.fract() == 0.0 && n >= 0.0 && n <= u64::MAX as f64 {
        Ok(n as u64)
    } else {
        Err(err(format!(
            "{what} must be a non-negative integer, got {n}"
        )))
    }
}

/// Every keyword of SIDL3.0 (for editor completion).
#[wasm_bindgen(unchecked_return_type = "Keyword[]")]
pub fn keywords() -> Result<JsValue, js_sys::Error> {
    to_js(&dto::keywords())
}

/// A loaded game and one session of it.
#[wasm_bindgen]
pub struct SidlGame {
    core: Core,
    /// The switch arrays handed out, by the core's entry number (`Core::switches_shared`).
    switches_shown: Vec<(u64, JsValue)>,
    /// The switch arrays handed out, by content (`chronon_js.rs`).
    switch_arrays: chronon_js::SwitchArrays,
    /// The values handed out by views and chronons (`chronon_js.rs`, `core/wire.rs`).
    table: chronon_js::Table,
    /// The player list `randomMoves` was last given (the table keeps its JavaScript copy).
    random_players: Vec<String>,
    /// The players and viewers `switchesAndViews` was last given (the table keeps copies).
    seat_players: Vec<String>,
    seat_viewers: Vec<Option<String>>,
    /// The statistics run of the Statistics panel (`stats.rs`, on-demand build only), if one was
    /// started.
    #[cfg(feature = "analyse")]
    stats: Option<stats::StatsRun>,
}

impl SidlGame {
    /// The plain-Rust core (for the other files' `#[wasm_bindgen] impl SidlGame`: `analyse.rs`).
    #[cfg(feature = "analyse")]
    pub(crate) fn core(&self) -> &Core {
        &self.core
    }
}

#[wasm_bindgen]
impl SidlGame {
    /// Loads a game and starts a session (seed 1). Throws an `Error` whose message lists the
    /// diagnostics (`line:column: error[code]: message`) when the source does not load.
    #[wasm_bindgen(constructor)]
    pub fn new(source: &str) -> Result<SidlGame, js_sys::Error> {
        Core::new(source)
            .map(|core| SidlGame {
                core,
                switches_shown: Vec::new(),
                table: chronon_js::Table::default(),
                random_players: Vec::new(),
                seat_players: Vec::new(),
                seat_viewers: Vec::new(),
                switch_arrays: chronon_js::SwitchArrays::default(),
                #[cfg(feature = "analyse")]
                stats: None,
            })
            .map_err(err)
    }

    /// Every diagnostic of a source, without loading it: exactly those of `sidl check` (syntax,
    /// load, placement `E03xx`, lints `W04xx`/`E04xx`, static hidden information `W0501`).
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn check(source: &str) -> Result<JsValue, js_sys::Error> {
        to_js(&core::check(source))
    }

    /// The non-blocking diagnostics of the load.
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn warnings(&self) -> Result<JsValue, js_sys::Error> {
        to_js(&self.core.warnings())
    }

    /// Every keyword of SIDL3.0 (for editor completion); the same as the module's `keywords()`.
    #[wasm_bindgen(js_name = keywords, unchecked_return_type = "Keyword[]")]
    pub fn keyword_list(&self) -> Result<JsValue, js_sys::Error> {
        to_js(&dto::keywords())
    }

    /// Restarts the game with a seed, in interrupt mode (paper §4: every accepted submission runs
    /// its own chronon) when `interrupt` is true.
    pub fn start(&mut self, seed: f64, interrupt: Option<bool>) -> Result<(), js_sys::Error> {
        self.core
            .start(seed_of(seed)?, interrupt.unwrap_or(false))
            .map_err(err)
    }

    /// The session's seed.
    pub fn seed(&self) -> f64 {
        self.core.seed() as f64
    }

    /// Whether the session runs in interrupt mode.
    pub fn interrupt(&self) -> bool {
        self.core.interrupt()
    }

    /// Sets the per-query budgets (`{inferences, heapCells, choicepoints, frames}`, each optional)
    /// and rebuilds the session under them (same seed and history).
    #[wasm_bindgen(js_name = setLimits)]
    pub fn set_limits(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Limits")] limits: JsValue,
    ) -> Result<(), js_sys::Error> {
        // serde-wasm-bindgen reads only the known fields: refuse a misspelt one here
        const FIELDS: &[&str] = &["inferences", "heapCells", "choicepoints", "frames"];
        if let Some(obj) = limits.dyn_ref::<js_sys::Object>() {
            for k in js_sys::Object::keys(obj).iter() {
                let k = k.as_string().unwrap_or_default();
                if !FIELDS.contains(&k.as_str()) {
                    return Err(err(format!(
                        "setLimits: unknown field {k:?} (expected {})",
                        FIELDS.join(", ")
                    )));
                }
            }
        }
        let l: core::LimitsDto =
            serde_wasm_bindgen::from_value(limits).map_err(|e| err(format!("setLimits: {e}")))?;
        self.core.set_limits(&l).map_err(err)
    }

    /// The current chronon (0 before the first).
    #[wasm_bindgen(js_name = chrononNumber)]
    pub fn chronon_number(&self) -> f64 {
        self.core.chronon() as f64
    }

    pub fn players(&self) -> Vec<String> {
        self.core.players()
    }

    /// The facts a player sees (`null`: the designer, every fact).
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn view(&mut self, player: Option<String>) -> Result<JsValue, js_sys::Error> {
        let w = self.core.view_wire(player.as_deref()).map_err(err)?;
        let v = self.table.view(&w);
        self.core.recycle_wire(w);
        Ok(v)
    }

    /// The game's layout of the current state for a player (`null`: the designer), its texts in
    /// language `lang` (`null`: the game's default), or the raw terms with `raw` true (the
    /// "labels / raw terms" toggle): docs/reference.md "Layouts".
    #[wasm_bindgen(unchecked_return_type = "Layout")]
    pub fn layout(
        &mut self,
        player: Option<String>,
        lang: Option<String>,
        raw: Option<bool>,
    ) -> Result<JsValue, js_sys::Error> {
        to_js(
            &self
                .core
                .layout(player.as_deref(), lang.as_deref(), raw.unwrap_or(false))
                .map_err(err)?,
        )
    }

    /// What a viewer (`null`: the designer) reads of the current state in a language (`null` or
    /// `""`: the game's default): the game's labels, from that viewer's view only (`labels.rs`).
    /// The event lines are those of the chronons from `from` (0-based; omitted: 0) on, or from an
    /// earlier one (`eventsFrom`) when a line before `from` is not what the previous call gave: a
    /// page that keeps the lines it got and asks from their number gets only the new ones.
    #[wasm_bindgen(unchecked_return_type = "Labels")]
    pub fn labels(
        &mut self,
        viewer: Option<String>,
        lang: Option<String>,
        from: Option<u32>,
    ) -> Result<JsValue, js_sys::Error> {
        to_js(
            &self
                .core
                .labels(
                    viewer.as_deref(),
                    lang.as_deref(),
                    from.unwrap_or(0) as usize,
                )
                .map_err(err)?,
        )
    }

    /// Legal switches (of one player, or all for `null`). While they stay the same (within a
    /// state, and across states with the same legal switches) the same array is returned again:
    /// read it, do not change it.
    #[wasm_bindgen(unchecked_return_type = "Switch[]")]
    pub fn switches(&mut self, player: Option<String>) -> Result<JsValue, js_sys::Error> {
        let (n, dtos) = self.core.switches_shared(player.as_deref()).map_err(err)?;
        if let Some((_, v)) = self.switches_shown.iter().find(|(m, _)| *m == n) {
            return Ok(v.clone());
        }
        let v = self.switch_arrays.get(&dtos)?;
        // the entries of the players' switches of the last few states
        if self.switches_shown.len() >= 16 {
            self.switches_shown.clear();
        }
        self.switches_shown.push((n, v.clone()));
        Ok(v)
    }

    /// The legal switches of each of `players` and the view of each of `viewers` (`null`: the
    /// designer) in one call: `{switches, views}`, `switches[i]` what `switches(players[i])`
    /// returns and `views[j]` what `view(viewers[j])` returns (the playground's frame asks it for
    /// the human seats and the viewer; one crossing instead of one a player). The first error of
    /// those calls is thrown. While a player's switches stay the same its array is the same: read
    /// it, do not change it.
    #[wasm_bindgen(
        js_name = switchesAndViews,
        unchecked_return_type = "{ switches: Switch[][], views: string[][] }"
    )]
    pub fn switches_and_views(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] players: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(string | null)[]")] viewers: JsValue,
    ) -> Result<JsValue, js_sys::Error> {
        // the lists are read only when they differ from the last ones (the page passes the same
        // names every frame, apiLoop the same array every chronon)
        let same = self.table.same_seats(&players, &viewers);
        if same != 3 {
            self.table.keep_seats(&JsValue::NULL, &JsValue::NULL);
            let list = |v: &JsValue| -> Result<js_sys::Array, js_sys::Error> {
                if js_sys::Array::is_array(v) {
                    Ok(v.clone().unchecked_into())
                } else {
                    Err(js_sys::Error::new(WRONG_TYPE))
                }
            };
            self.seat_players = list(&players)?
                .iter()
                .map(|v| v.as_string())
                .collect::<Option<Vec<String>>>()
                .ok_or_else(|| js_sys::Error::new(WRONG_TYPE))?;
            self.seat_viewers = list(&viewers)?
                .iter()
                .map(|v| match v.as_string() {
                    Some(s) => Some(Some(s)),
                    None if v.is_null() || v.is_undefined() => Some(None),
                    None => None,
                })
                .collect::<Option<Vec<Option<String>>>>()
                .ok_or_else(|| js_sys::Error::new(WRONG_TYPE))?;
            self.table.keep_seats(&players, &viewers);
        }
        let w = self
            .core
            .switches_and_views_wire(&self.seat_players, &self.seat_viewers)
            .map_err(err)?;
        let v = self.table.switches_and_views(&w);
        self.core.recycle_wire(w);
        Ok(v)
    }

    /// Fills an unlimited template with one value (text) per slot, in `slots` order; throws on a
    /// value that does not parse or is not of its slot's type.
    #[wasm_bindgen(js_name = fillTemplate)]
    pub fn fill_template(
        &self,
        template: &str,
        values: Vec<String>,
    ) -> Result<String, js_sys::Error> {
        self.core.fill_template(template, &values).map_err(err)
    }

    /// Submits an action (text, parsed) for the next chronon. A rejection is `{ok: false, reason}`.
    #[wasm_bindgen(unchecked_return_type = "SubmitResult")]
    pub fn submit(
        &mut self,
        player: &str,
        switch: &str,
        action: &str,
    ) -> Result<JsValue, js_sys::Error> {
        to_js(&self.core.submit(player, switch, action).map_err(err)?)
    }

    /// Pending submissions `[player, switch, action]`.
    #[wasm_bindgen(unchecked_return_type = "[string, string, string][]")]
    pub fn pending(&self) -> Result<JsValue, js_sys::Error> {
        to_js(&self.core.pending())
    }

    /// Random submissions for the switches of `players` (every player for `null`/omitted): finite
    /// switches draw from their actions, unlimited ones from the game's `candidate/2` (none without
    /// it). In interrupt mode only one (it runs its chronon); the chronons that ran (`[]` otherwise).
    #[wasm_bindgen(js_name = randomMoves, unchecked_return_type = "Chronon[]")]
    pub fn random_moves(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "string[] | null")] players: Option<JsValue>,
    ) -> Result<JsValue, js_sys::Error> {
        // the list is read as wasm-bindgen reads a `Vec<String>` (any array-like, each element a
        // string), unless it holds the same strings as the last one read (`Table::same_players`:
        // the playground passes `players()` every chronon), which is then used again
        let w = match players {
            None => self.core.random_moves_wire(None),
            Some(ps) => {
                if !self.table.same_players(&ps) {
                    self.table.keep_players(&JsValue::NULL);
                    self.random_players = js_sys::Array::from(&ps)
                        .iter()
                        .map(|v| v.as_string())
                        .collect::<Option<Vec<String>>>()
                        .ok_or_else(|| js_sys::Error::new(WRONG_TYPE))?;
                    self.table.keep_players(&ps);
                }
                self.core.random_moves_wire(Some(&self.random_players))
            }
        }
        .map_err(err)?;
        let v = self.table.chronons(&w);
        self.core.recycle_wire(w);
        Ok(v)
    }

    /// Submits the moves of an AI player for `player` in the current chronon: `spec` is `random`,
    /// `minimax:DEPTH` or `mcts:ITERATIONS`; it sees only what `player` may see; same state, spec and
    /// seed, same moves. In interrupt mode only one (it runs its chronon); the chronons that ran.
    #[wasm_bindgen(js_name = aiMoves, unchecked_return_type = "Chronon[]")]
    pub fn ai_moves(
        &mut self,
        player: &str,
        spec: &str,
        seed: f64,
    ) -> Result<JsValue, js_sys::Error> {
        let w = self
            .core
            .ai_moves_wire(player, spec, seed_of(seed)?)
            .map_err(err)?;
        Ok(self.table.chronons(&w))
    }

    /// Why no seat can act (a message: first line the reason, then one line per waiting switch),
    /// or `null`: call it after the seats' moves and before `chronon()`, and stop on a message
    /// (the chronon would change nothing, forever). `seats`: `[player, kind]` pairs (kind
    /// `human`, `random`, `minimax:DEPTH`, `mcts:ITERATIONS`; players not named are human);
    /// `moved`: submissions accepted since the last chronon.
    #[wasm_bindgen(unchecked_return_type = "string | null")]
    pub fn idle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "[string, string][]")] seats: JsValue,
        moved: u32,
    ) -> Result<JsValue, js_sys::Error> {
        let seats: Vec<[String; 2]> =
            serde_wasm_bindgen::from_value(seats).map_err(|e| err(format!("idle: {e}")))?;
        to_js(&self.core.idle(&seats, moved as usize).map_err(err)?)
    }

    /// Runs one chronon with the pending submissions; its events.
    #[wasm_bindgen(unchecked_return_type = "Chronon")]
    pub fn chronon(&mut self) -> Result<JsValue, js_sys::Error> {
        let w = self.core.run_chronon_wire().map_err(err)?;
        let v = self.table.chronon(&w);
        self.core.recycle_wire(w);
        Ok(v)
    }

    /// Every chronon so far, oldest first (records equal to those `chronon()` returned, with the
    /// same event objects while the table of values has kept them).
    #[wasm_bindgen(unchecked_return_type = "Chronon[]")]
    pub fn history(&mut self) -> Result<JsValue, js_sys::Error> {
        let w = self.core.history_wire().map_err(err)?;
        Ok(self.table.chronons(&w))
    }

    #[wasm_bindgen(unchecked_return_type = "Account[]")]
    pub fn accounts(&mut self) -> Result<JsValue, js_sys::Error> {
        // one crossing and JSON.parse of the kept text instead of an object built field by field
        if let Some(json) = self.core.accounts_json() {
            return js_sys::JSON::parse(json).map_err(|e| js_sys::Error::new(&format!("{e:?}")));
        }
        to_js(&self.core.accounts())
    }

    /// Back one chronon (`false`: nothing to undo).
    pub fn undo(&mut self) -> bool {
        self.core.undo()
    }

    #[wasm_bindgen(js_name = isTerminal)]
    pub fn is_terminal(&mut self) -> Result<bool, js_sys::Error> {
        self.core.is_terminal().map_err(err)
    }

    /// The session as JSON (seed, interrupt mode and submissions; the source is not included).
    pub fn snapshot(&mut self) -> String {
        self.core.snapshot()
    }

    /// The parts of `snapshot()`'s `chronons` array from chronon `from` (0-based) on, each the
    /// JSON text of one chronon (`{"submissions":…,"overrides":…}`) as `snapshot()` writes it: a
    /// page keeps them one per chronon and joins them into the snapshot of any chronon it reached
    /// (`{"seed":…,"interrupt":…,"chronons":[` the parts up to it `],"pending":[]}`), without
    /// copying the whole history after every step.
    #[wasm_bindgen(js_name = snapshotParts)]
    pub fn snapshot_parts(&mut self, from: u32) -> Vec<String> {
        self.core.snapshot_parts(from as usize)
    }

    /// Replaces the session with one rebuilt from `snapshot()` text.
    pub fn restore(&mut self, json: &str) -> Result<(), js_sys::Error> {
        self.core.restore(json).map_err(err)
    }

    /// Every answer (at most 100) of a goal against the rules, over the current state.
    #[wasm_bindgen(unchecked_return_type = "QueryResult")]
    pub fn query(&self, goal: &str) -> Result<JsValue, js_sys::Error> {
        to_js(&self.core.query(goal).map_err(err)?)
    }

    /// Why is a switch (not) legal, an action (not) among its actions, a submission accepted or
    /// rejected, a fact created or deleted, a payoff paid? Explained with the game's clauses
    /// (docs/why.md).
    #[wasm_bindgen(unchecked_return_type = "WhyAnswer")]
    pub fn why(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "WhyQuestion")] question: JsValue,
    ) -> Result<JsValue, js_sys::Error> {
        let q: core::WhyQuestionDto =
            serde_wasm_bindgen::from_value(question).map_err(|e| err(format!("why: {e}")))?;
        to_js(&self.core.why(&q).map_err(err)?)
    }

    /// The dynamic Def.1 §11 check (hidden facts must not leak through owned switches), exploring
    /// at most `maxStates` states from the initial state; `progress` is called now and then.
    #[wasm_bindgen(js_name = checkHidden, unchecked_return_type = "HiddenReport")]
    pub fn check_hidden(
        &self,
        #[wasm_bindgen(js_name = maxStates)] max_states: f64,
        #[wasm_bindgen(unchecked_optional_param_type = "(p: HiddenProgress) => void")]
        progress: Option<js_sys::Function>,
    ) -> Result<JsValue, js_sys::Error> {
        let max = count_of(max_states, "maxStates")? as usize;
        let mut report = |p: &core::ProgressDto| {
            if let (Some(f), Ok(v)) = (&progress, to_js(p)) {
                let _ = f.call1(&JsValue::NULL, &v);
            }
        };
        to_js(&self.core.check_hidden(max, &mut report).map_err(err)?)
    }

    /// Times `sidl bench`'s loop in this engine: random games back to back (seeds `seed`, `seed +
    /// 1`, ...) until `chronons` chronons have run, measured with `performance.now()`. Leaves the
    /// session as it was (scripts/bench-wasm.sh; docs/performance.md).
    #[wasm_bindgen(unchecked_return_type = "BenchResult")]
    pub fn bench(&self, chronons: f64, seed: f64) -> Result<JsValue, js_sys::Error> {
        #[wasm_bindgen]
        extern "C" {
            #[wasm_bindgen(js_namespace = performance, js_name = now)]
            fn performance_now() -> f64;
        }
        let (chronons, seed) = (count_of(chronons, "chronons")?, seed_of(seed)?);
        let start = performance_now();
        let stats = self.core.bench(chronons, seed).map_err(err)?;
        let seconds = (performance_now() - start) / 1000.0;
        to_js(&dto::BenchResult {
            chronons: stats.chronons,
            games: stats.games,
            seconds,
        })
    }

    /// Exactly what `sidl trace GAME --seed SEED [--script FILE] --max-chronons MAX` prints for this
    /// game (`script`: the script's text; `null` plays randomly).
    pub fn trace(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | null")] script: Option<String>,
        seed: f64,
        #[wasm_bindgen(js_name = maxChronons)] max_chronons: f64,
    ) -> Result<String, js_sys::Error> {
        self.core
            .trace(
                script.as_deref(),
                seed_of(seed)?,
                count_of(max_chronons, "maxChronons")?,
            )
            .map_err(err)
    }
}
