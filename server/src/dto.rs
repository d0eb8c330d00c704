//! What crosses the wire about a game, as JSON: switches with typed slots, events, chronon
//! records. Terms are canonical text (`sidl_engine::write::canonical`), as in the playground's DTOs
//! (`wasm/src/core.rs`), so the participant page reads them the same way.

use crate::config::show;
use serde_json::{json, Value};
use sidl_engine::game::events::Notation;
use sidl_engine::game::present::{Labelled, Presentation, Presenter};
use sidl_engine::game::session::{slot_type_description, ActionSource};
use sidl_engine::game::{template_slots, Actions, ChrononRecord, Event, SwitchInfo};

/// A legal switch of the seat's player: its actions, or for an unlimited switch its templates with
/// their typed slots (name, type, description) in fill order.
pub fn switch(s: &SwitchInfo) -> Value {
    let (unlimited, acts) = match &s.actions {
        Actions::Finite(a) => (false, a),
        Actions::Unlimited(t) => (true, t),
    };
    let slots: Vec<Value> = acts
        .iter()
        .map(|a| {
            if !unlimited {
                return json!([]);
            }
            Value::Array(
                template_slots(a)
                    .iter()
                    .map(|sl| {
                        json!({
                            "name": sl.name.as_ref().map(show).unwrap_or_else(|| "_".into()),
                            "type": sl.ty.name(),
                            "description": slot_type_description(sl.ty),
                        })
                    })
                    .collect(),
            )
        })
        .collect();
    json!({
        "switch": show(&s.id),
        "unlimited": unlimited,
        "actions": acts.iter().map(show).collect::<Vec<_>>(),
        "slots": slots,
    })
}

pub fn event(e: &Event) -> Value {
    match e {
        Event::Created(f) => json!({"kind": "created", "fact": show(f)}),
        Event::Deleted(f) => json!({"kind": "deleted", "fact": show(f)}),
        Event::Account { player, amount } => {
            json!({"kind": "account", "player": show(player), "amount": show(amount)})
        }
        Event::Switch {
            switch,
            action,
            how,
            ok,
        } => json!({
            "kind": "switch",
            "switch": show(switch),
            "action": show(action),
            "how": match how {
                ActionSource::Submitted => "submitted",
                ActionSource::Drawn => "drawn",
                ActionSource::Default => "default",
            },
            "ok": ok,
        }),
    }
}

/// The designer's record of a chronon (stored with it; never sent to a participant).
pub fn designer_record(rec: &ChrononRecord, chronon: u64) -> Value {
    json!({
        "chronon": chronon,
        "submissions": rec.submissions.iter()
            .map(|s| [show(&s.player), show(&s.switch), show(&s.action)])
            .collect::<Vec<_>>(),
        "draws": rec.draws.iter().map(|(s, a)| [show(s), show(a)]).collect::<Vec<_>>(),
        "events": rec.events.iter().map(event).collect::<Vec<_>>(),
    })
}

/// The game's labels as seat's player reads them (the engine's `present`, from that player's view
/// only), or `null` for a game without labels: the description, the player's role, the result
/// lines, and raw term → text maps of the players, the visible facts, the player's switches and
/// actions (key `SWITCH ACTION`) and the accounts (key: the player). Plain text: the page inserts
/// it as text.
pub fn seat_labels(p: &Presentation) -> Value {
    if !p.active {
        return Value::Null;
    }
    let map = |ls: &[Labelled]| -> serde_json::Map<String, Value> {
        ls.iter()
            .filter(|l| l.labelled)
            .map(|l| (show(&l.term), json!(l.text)))
            .collect()
    };
    let mut switches = serde_json::Map::new();
    let mut actions = serde_json::Map::new();
    for s in &p.switches {
        let id = show(&s.switch.term);
        if s.switch.labelled {
            switches.insert(id.clone(), json!(s.switch.text));
        }
        for a in s.actions.iter().filter(|a| a.labelled) {
            actions.insert(format!("{id} {}", show(&a.term)), json!(a.text));
        }
    }
    json!({
        "lang": p.lang,
        "description": p.description,
        "role": p.roles.first().map(|(_, r)| r),
        "players": map(&p.players),
        "facts": map(&p.facts),
        "switches": switches,
        "actions": actions,
        "accounts": map(&p.accounts),
        "result": p.result,
    })
}

/// Seat `seat`'s record of a chronon: its own submissions and the events its player may see, with
/// `texts` (one line per event: the game's labels by `pr`, the seat's presenter, when the game has
/// labels, else the engine's raw event text) and, with labels, `chosen` (its choices in labels).
/// Pages show `texts`: no event text is made anywhere but in the engine.
pub fn seat_record(
    rec: &ChrononRecord,
    chronon: u64,
    seat: usize,
    player: &str,
    pr: &mut Presenter,
) -> Value {
    let own: Vec<[String; 2]> = rec
        .submissions
        .iter()
        .filter(|s| show(&s.player) == player)
        .map(|s| [show(&s.switch), show(&s.action)])
        .collect();
    let events: Vec<Value> = rec.events_of(seat).map(event).collect();
    let mut out = json!({"chronon": chronon, "submissions": own, "events": events});
    if pr.active() {
        let chosen: Vec<[String; 2]> = rec
            .submissions
            .iter()
            .filter(|s| show(&s.player) == player)
            .map(|s| [pr.switch(&s.switch), pr.action(&s.switch, &s.action)])
            .collect();
        out["chosen"] = json!(chosen);
        let texts: Vec<String> = rec.events_of(seat).map(|e| pr.event(e)).collect();
        out["texts"] = json!(texts);
    } else {
        let texts: Vec<String> = rec
            .events_of(seat)
            .map(|e| e.text(Notation::Canonical))
            .collect();
        out["texts"] = json!(texts);
    }
    out
}
