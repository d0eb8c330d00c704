//! A chronon as a JavaScript object, `{chronon, submissions, events, playerEvents, terminal}` as
//! [`ChrononDto`]'s `Serialize` writes it, but each of a player's events is the same object as the
//! designer's event it is ([`ChrononDto::player_events`]): the events cross the boundary once, not
//! once more per player.

use crate::dto::ChrononDto;
use crate::to_js;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

pub(crate) fn chronon(c: &ChrononDto) -> Result<JsValue, js_sys::Error> {
    let events = Array::from(&to_js(&c.events)?);
    let own = Array::from(&to_js(&c.own)?);
    let n = c.events.len();
    let player_events: Array = c
        .player_events
        .iter()
        .map(|ks| -> Array {
            ks.iter()
                .map(|&k| {
                    if k < n {
                        events.get(k as u32)
                    } else {
                        own.get((k - n) as u32)
                    }
                })
                .collect()
        })
        .collect();
    let o = Object::new();
    let set = |key: &str, v: &JsValue| Reflect::set(&o, &JsValue::from_str(key), v).map(|_| ());
    let fail = |_| js_sys::Error::new("a chronon object could not be built");
    set("chronon", &JsValue::from_f64(c.chronon as f64)).map_err(fail)?;
    set("submissions", &to_js(&c.submissions)?).map_err(fail)?;
    set("events", &events).map_err(fail)?;
    set("playerEvents", &player_events).map_err(fail)?;
    set("terminal", &JsValue::from_bool(c.terminal)).map_err(fail)?;
    Ok(o.into())
}

pub(crate) fn chronons(cs: &[ChrononDto]) -> Result<JsValue, js_sys::Error> {
    cs.iter()
        .map(chronon)
        .collect::<Result<Array, _>>()
        .map(JsValue::from)
}
