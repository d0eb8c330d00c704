//! The data of the playground's API loop as JavaScript values: chronons (`{chronon, submissions,
//! events, playerEvents, terminal}`, as [`crate::dto::ChrononDto`]'s `Serialize` writes them) and
//! views (their facts' texts) from the numbers of `core/wire.rs`, and a player's switches from one
//! JSON text. `serde-wasm-bindgen` crosses the boundary once per field and decodes each string on
//! its own (`TextDecoder`), which made these calls several times dearer than the engine's work
//! behind them (docs/performance.md, "The API loop in the browser, third round"). Here each game
//! keeps a table of the values handed over (texts and event objects) on the JavaScript side; a
//! call hands over where its ids are in the wasm memory (read through one `Float64Array` over the
//! memory that the table keeps: making a view per call was a tenth of `chronon()`'s JavaScript) and
//! the JSON of its new values only, and the small module below (a wasm-bindgen snippet, shipped beside `sidl_wasm.js`)
//! builds the arrays and objects. A player's events are the designer's event objects, and an event
//! that recurs (in a later chronon) is the same object again: read them, do not change them. The
//! table also keeps the last player list `randomMoves` was given, so that the same list again
//! (the playground passes `players()` every chronon) crosses as one comparison instead of a string
//! each (`lib.rs`).

use crate::core::WireOut;
use crate::dto::SwitchDto;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
// a game's table (core/wire.rs): `values` the values handed over; `f64` a Float64Array over the wasm
// memory (made again when the memory has grown: the old buffer is detached, its length 0), from which
// a call's numbers are read in place at `at` (no typed array made per call); `players` the last
// player list `randomMoves` was given (a copy)
export function table(memory) { return { values: [], memory, f64: null, players: null }; }
// the numbers of a call: nums[at] is the reset flag; `fresh` the JSON array of the values to append
// (undefined: none)
function take(st, at, fresh) {
  let f = st.f64;
  if (f === null || f.length === 0) f = st.f64 = new Float64Array(st.memory.buffer);
  if (f[at] !== 0) st.values.length = 0;
  if (fresh !== undefined) for (const v of JSON.parse(fresh)) st.values.push(v);
  return f;
}
// [reset, n, id * n]
export function view(st, at, fresh) {
  const nums = take(st, at, fresh), table = st.values;
  const n = nums[at + 1], out = new Array(n);
  for (let i = 0, k = at + 2; i < n; i++) out[i] = table[nums[k++]];
  return out;
}
// a record [chronon, terminal, s, (player, switch, action) * s, e, event * e, players,
// (k, event * k) * players] at nums[st.at]; st.at moves past it
function record(st, nums, table) {
  let at = st.at;
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
  st.at = at;
  return { chronon, submissions, events, playerEvents, terminal };
}
// [reset, count, record * count]
export function chronons(st, at, fresh) {
  const nums = take(st, at, fresh), table = st.values;
  const count = nums[at + 1], out = new Array(count);
  st.at = at + 2;
  for (let c = 0; c < count; c++) out[c] = record(st, nums, table);
  return out;
}
// [reset, 1, record]
export function chronon(st, at, fresh) {
  const nums = take(st, at, fresh);
  st.at = at + 2;
  return record(st, nums, st.values);
}
// [reset, s, list * s, v, (k, id * k) * v]: each player's switches, each viewer's facts; a list
// is its id, or -1 - id and the new list's texts: c, (switch, owner or -1, nature, a, action * a) * c
export function switchesAndViews(st, at, fresh) {
  const nums = take(st, at, fresh), table = st.values;
  let k = at + 1;
  const switches = new Array(nums[k++]);
  for (let i = 0; i < switches.length; i++) {
    let id = nums[k++];
    if (id < 0) {
      id = -1 - id;
      const list = new Array(nums[k++]);
      for (let j = 0; j < list.length; j++) {
        const sw = table[nums[k++]], o = nums[k++], owner = o < 0 ? null : table[o];
        const nature = nums[k++] !== 0, actions = new Array(nums[k++]), slots = new Array(actions.length);
        for (let m = 0; m < actions.length; m++) {
          actions[m] = table[nums[k++]];
          slots[m] = [];
        }
        list[j] = { switch: sw, owner, nature, unlimited: false, actions, slots };
      }
      table[id] = list;
    }
    switches[i] = table[id];
  }
  const views = new Array(nums[k++]);
  for (let v = 0; v < views.length; v++) {
    const n = nums[k++], out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = table[nums[k++]];
    views[v] = out;
  }
  return { switches, views };
}
export function parse(json) { return JSON.parse(json); }
// whether `ps` holds the same strings, in order, as the list kept by keepPlayers
export function samePlayers(st, ps) {
  const last = st.players;
  if (last === null || !Array.isArray(ps) || ps.length !== last.length) return false;
  for (let i = 0; i < ps.length; i++) if (ps[i] !== last[i]) return false;
  return true;
}
export function keepPlayers(st, ps) { st.players = ps === null ? null : Array.from(ps); }
// the lists switchesAndViews was last given (copies), in st.seats: 1 when `ps` holds the same
// elements as the players' list, in order, plus 2 when `vs` holds those of the viewers'
function same(last, xs) {
  if (last === null || !Array.isArray(xs) || xs.length !== last.length) return false;
  for (let i = 0; i < xs.length; i++) if (xs[i] !== last[i]) return false;
  return true;
}
export function sameSeats(st, ps, vs) {
  const kept = st.seats;
  if (kept === undefined) return 0;
  return (same(kept[0], ps) ? 1 : 0) | (same(kept[1], vs) ? 2 : 0);
}
export function keepSeats(st, ps, vs) {
  st.seats = ps === null ? undefined : [Array.from(ps), Array.from(vs)];
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = table)]
    fn new_table(memory: JsValue) -> JsValue;
    #[wasm_bindgen(js_name = view)]
    fn view_of(table: &JsValue, at: u32, fresh: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = chronons)]
    fn chronons_of(table: &JsValue, at: u32, fresh: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = chronon)]
    fn chronon_of(table: &JsValue, at: u32, fresh: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = switchesAndViews)]
    fn switches_and_views_of(table: &JsValue, at: u32, fresh: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = sameSeats)]
    fn same_seats(table: &JsValue, players: &JsValue, viewers: &JsValue) -> u32;
    #[wasm_bindgen(js_name = keepSeats)]
    fn keep_seats(table: &JsValue, players: &JsValue, viewers: &JsValue);
    #[wasm_bindgen(js_name = parse)]
    fn parse_json(json: &str) -> JsValue;
    #[wasm_bindgen(js_name = samePlayers)]
    fn same_players(table: &JsValue, players: &JsValue) -> bool;
    #[wasm_bindgen(js_name = keepPlayers)]
    fn keep_players(table: &JsValue, players: &JsValue);
}

/// Where `w`'s numbers start in the wasm memory, in `f64`s (a `Vec<f64>` is 8-aligned).
fn at(w: &WireOut) -> u32 {
    (w.nums.as_ptr() as usize / std::mem::size_of::<f64>()) as u32
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
        self.0
            .get_or_insert_with(|| new_table(wasm_bindgen::memory()))
    }

    /// A view (`Core::view_wire`) as an array of strings.
    pub(crate) fn view(&mut self, w: &WireOut) -> JsValue {
        view_of(self.get(), at(w), fresh(w))
    }

    /// Chronons (`Core::chronons_wire`) as an array of chronon objects.
    pub(crate) fn chronons(&mut self, w: &WireOut) -> JsValue {
        chronons_of(self.get(), at(w), fresh(w))
    }

    /// The one chronon of `w` (`Core::run_chronon_wire`).
    pub(crate) fn chronon(&mut self, w: &WireOut) -> JsValue {
        chronon_of(self.get(), at(w), fresh(w))
    }

    /// Several players' switches and viewers' views (`Core::switches_and_views_wire`) as
    /// `{switches, views}`.
    pub(crate) fn switches_and_views(&mut self, w: &WireOut) -> JsValue {
        switches_and_views_of(self.get(), at(w), fresh(w))
    }

    /// Whether `players` and `viewers` hold the same elements, in order, as the lists last kept
    /// ([`Table::keep_seats`]): bit 1 for the players, bit 2 for the viewers.
    pub(crate) fn same_seats(&mut self, players: &JsValue, viewers: &JsValue) -> u32 {
        same_seats(self.get(), players, viewers)
    }

    /// Keeps copies of the lists `players` and `viewers` (`players` `null`: forgets both).
    pub(crate) fn keep_seats(&mut self, players: &JsValue, viewers: &JsValue) {
        keep_seats(self.get(), players, viewers)
    }

    /// Whether `players` holds the same strings, in order, as the list last kept
    /// ([`Table::keep_players`]).
    pub(crate) fn same_players(&mut self, players: &JsValue) -> bool {
        same_players(self.get(), players)
    }

    /// Keeps a copy of the list `players` (`null`: forgets the last one).
    pub(crate) fn keep_players(&mut self, players: &JsValue) {
        keep_players(self.get(), players)
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
