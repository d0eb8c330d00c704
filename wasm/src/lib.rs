//! `sidl-wasm`: the SIDL3.0 engine in the browser, as one class `SidlGame` (wasm-bindgen). Terms
//! cross as canonical text; every failure is thrown as a JavaScript `Error`. The logic lives in
//! [`core`] (plain Rust, tested natively); this file converts to and from JavaScript.

pub mod core;

use crate::core::Core;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A diagnostic: 1-based line and column; columns and from/to offsets in UTF-16 code units. */
export interface Diagnostic {
  severity: "error" | "warning" | string;
  code: string;
  message: string;
  help: string | null;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  from: number;
  to: number;
}
/** A legal switch; `actions` are templates when `unlimited`. Terms are canonical text. */
export interface Switch {
  switch: string;
  owner: string | null;
  nature: boolean;
  unlimited: boolean;
  actions: string[];
}
export interface SubmitResult { ok: boolean; reason: string | null; }
export interface Account { player: string; amount: string; value: number; }
export interface SidlEvent {
  kind: "created" | "deleted" | "account" | "switch";
  text: string;
  fact: string | null;
  player: string | null;
  amount: string | null;
  switch: string | null;
  action: string | null;
  how: "submitted" | "drawn" | "default" | null;
  ok: boolean | null;
}
export interface Chronon {
  chronon: number;
  submissions: [string, string, string][];
  events: SidlEvent[];
  playerEvents: SidlEvent[][];
  terminal: boolean;
}
export interface QueryResult {
  vars: string[];
  answers: string[];
  error: string | null;
  truncated: boolean;
}
"#;

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, js_sys::Error> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::Error::new(&e.to_string()))
}

fn err(msg: String) -> js_sys::Error {
    js_sys::Error::new(&msg)
}

/// A loaded game and one session of it.
#[wasm_bindgen]
pub struct SidlGame {
    core: Core,
}

#[wasm_bindgen]
impl SidlGame {
    /// Loads a game and starts a session (seed 1). Throws an `Error` whose message lists the
    /// diagnostics (`line:column: error[code]: message`) when the source does not load.
    #[wasm_bindgen(constructor)]
    pub fn new(source: &str) -> Result<SidlGame, js_sys::Error> {
        Core::new(source).map(|core| SidlGame { core }).map_err(err)
    }

    /// Every diagnostic of a source, without loading it.
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn check(source: &str) -> Result<JsValue, js_sys::Error> {
        to_js(&core::check(source))
    }

    /// The non-blocking diagnostics of the load.
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn warnings(&self) -> Result<JsValue, js_sys::Error> {
        to_js(&self.core.warnings())
    }

    /// Restarts the game with a seed.
    pub fn start(&mut self, seed: u32) -> Result<(), js_sys::Error> {
        self.core.start(u64::from(seed)).map_err(err)
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
    pub fn view(&mut self, player: Option<String>) -> Result<Vec<String>, js_sys::Error> {
        self.core.view(player.as_deref()).map_err(err)
    }

    /// Legal switches (of one player, or all for `null`).
    #[wasm_bindgen(unchecked_return_type = "Switch[]")]
    pub fn switches(&mut self, player: Option<String>) -> Result<JsValue, js_sys::Error> {
        to_js(&self.core.switches(player.as_deref()).map_err(err)?)
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

    /// Random submissions for the switches of `players` (every player for `null`/omitted).
    #[wasm_bindgen(js_name = randomMoves)]
    pub fn random_moves(&mut self, players: Option<Vec<String>>) -> Result<(), js_sys::Error> {
        self.core.random_moves(players.as_deref()).map_err(err)
    }

    /// Runs one chronon with the pending submissions; its events.
    #[wasm_bindgen(unchecked_return_type = "Chronon")]
    pub fn chronon(&mut self) -> Result<JsValue, js_sys::Error> {
        to_js(&self.core.run_chronon().map_err(err)?)
    }

    #[wasm_bindgen(unchecked_return_type = "Account[]")]
    pub fn accounts(&self) -> Result<JsValue, js_sys::Error> {
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

    /// The session as JSON (seed and submissions; the source is not included).
    pub fn snapshot(&self) -> String {
        self.core.snapshot()
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
}
