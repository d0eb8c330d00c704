//! The data of the playground's API loop as JavaScript values: chronons (`{chronon, submissions,
//! events, playerEvents, terminal}`, as [`crate::dto::ChrononDto`]'s `Serialize` writes them) and
//! views (their facts' texts) from the numbers of `core/wire.rs`, and a player's switches from one
//! JSON text. `serde-wasm-bindgen` crosses the boundary once per field and decodes each string on
//! its own (`TextDecoder`), which made these calls several times dearer than the engine's work
//! behind them (docs/performance.md, "The API loop in the browser, third round"). Here each game
//! keeps a table of the values handed over (texts and event objects) on the JavaScript side; a
//! call hands over its ids (a `Float64Array` view of the wasm memory) and the JSON of its new
//! values only, and the small module below (a wasm-bindgen snippet, shipped beside `sidl_wasm.js`)
//! builds the arrays and objects. A player's events are the designer's event objects, and an event
//! that recurs (in a later chronon) is the same object again: read them, do not change them.

use crate::core::WireOut;
use crate::dto::SwitchDto;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
// the table of a game (core/wire.rs): nums[0] says whether to empty it first; `fresh` is the JSON
// array of the values to append (undefined: none)
function take(table, nums, fresh) {
  if (nums[0] !== 0) table.length = 0;
  if (fresh !== undefined) for (const v of JSON.parse(fresh)) table.push(v);
}
export function table() { return []; }
// [reset, n, id * n]
export function view(table, nums, fresh) {
  take(table, nums, fresh);
  const n = nums[1], out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = table[nums[2 + i]];
  return out;
}
// [reset, count, record * count]; a record [chronon, terminal, s, (player, switch, action) * s,
// e, event * e, players, (k, event * k) * players]
export function chronons(table, nums, fresh) {
  take(table, nums, fresh);
  const count = nums[1], out = new Array(count);
  let at = 2;
  for (let c = 0; c < count; c++) {
    const chronon = nums[at++], terminal = nums[at++] !== 0;
    const submissions = new Array(nums[at++]);
    for (let i = 0; i < submissions.length; i++) {
      submissions[i] = [table[nums[at]], table[nums[at + 1]], table[nums[at + 2]]];
      at += 3;
    }
    const events = new Array(nums[at++]);
    for (let i = 0; i < events.length; i++) events[i] = table[nums[at++]];
    const playerEvents = new Array(nums[at++]);
    for (let p = 0; p < playerEvents.length; p++) {
      const es = new Array(nums[at++]);
      for (let i = 0; i < es.length; i++) es[i] = table[nums[at++]];
      playerEvents[p] = es;
    }
    out[c] = { chronon, submissions, events, playerEvents, terminal };
  }
  return out;
}
export function chronon(table, nums, fresh) { return chronons(table, nums, fresh)[0]; }
export function parse(json) { return JSON.parse(json); }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = table)]
    fn new_table() -> JsValue;
    #[wasm_bindgen(js_name = view)]
    fn view_of(table: &JsValue, nums: &[f64], fresh: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = chronons)]
    fn chronons_of(table: &JsValue, nums: &[f64], fresh: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = chronon)]
    fn chronon_of(table: &JsValue, nums: &[f64], fresh: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = parse)]
    fn parse_json(json: &str) -> JsValue;
}

/// The new values' JSON, `None` when there are none (no string crosses then).
fn fresh(w: &WireOut) -> Option<&str> {
    (w.fresh.len() > 2).then_some(w.fresh.as_str())
}

/// A game's table of values handed to JavaScript (created on first use).
#[derive(Default)]
pub(crate) struct Table(Option<JsValue>);

impl Table {
    fn get(&mut self) -> &JsValue {
        self.0.get_or_insert_with(new_table)
    }

    /// A view (`Core::view_wire`) as an array of strings.
    pub(crate) fn view(&mut self, w: &WireOut) -> JsValue {
        view_of(self.get(), &w.nums, fresh(w))
    }

    /// Chronons (`Core::chronons_wire`) as an array of chronon objects.
    pub(crate) fn chronons(&mut self, w: &WireOut) -> JsValue {
        chronons_of(self.get(), &w.nums, fresh(w))
    }

    /// The one chronon of `w` (`Core::run_chronon_wire`).
    pub(crate) fn chronon(&mut self, w: &WireOut) -> JsValue {
        chronon_of(self.get(), &w.nums, fresh(w))
    }
}

/// The switch arrays handed out, by their content: the same switches (a player's turn that comes
/// again, no switch at all) are the same array again, built once (from their JSON, one
/// `JSON.parse`). Looked up by the DTOs' hash, not their JSON: writing the JSON for every new
/// state's switches only to find them again was a third to a half of `switches()` (Node profiles
/// of the API loop on nim, tictactoe, connect4; docs/performance.md, wasmopt17).
#[derive(Default)]
pub(crate) struct SwitchArrays(rustc_hash::FxHashMap<Arc<[SwitchDto]>, JsValue>);

impl SwitchArrays {
    /// Entries after which the map is emptied.
    const MAX: usize = 256;

    /// Switches as their objects.
    pub(crate) fn get(&mut self, s: &Arc<[SwitchDto]>) -> Result<JsValue, js_sys::Error> {
        if let Some(v) = self.0.get(&**s) {
            return Ok(v.clone());
        }
        let json = serde_json::to_string(&**s).map_err(|e| js_sys::Error::new(&e.to_string()))?;
        if self.0.len() >= Self::MAX {
            self.0.clear();
        }
        let v = parse_json(&json);
        self.0.insert(s.clone(), v.clone());
        Ok(v)
    }
}
