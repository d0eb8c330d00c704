//! A seat's observation over the wire: what the engine's AI players decide from
//! ([`sidl_engine::ai::Observation`]: the player's view now and after every past chronon, its own
//! submissions and events, the accounts and its own legal switches; no hidden fact, by the engine's
//! construction). The seat's WebSocket answers `{"type": "observe"}` with it (docs/serve.md,
//! "WebSocket protocol"), so that `sidl serve bots --participants ai:SPEC` decides as the server's
//! own AI seats would, from that seat's information alone. Terms are canonical text both ways.

use crate::config::show;
use crate::dto;
use serde_json::{json, Value};
use sidl_engine::ai::{Observation, ObservedChronon};
use sidl_engine::game::session::ActionSource;
use sidl_engine::game::{Actions, Event, Owner, Settings, Submission, SwitchInfo};
use sidl_engine::term::Term;

/// The `observation` frame.
pub fn frame(obs: &Observation) -> Value {
    let terms = |ts: &[Term]| ts.iter().map(show).collect::<Vec<_>>();
    json!({
        "type": "observation",
        "player": show(&obs.player),
        "players": terms(&obs.players),
        "interrupt": obs.interrupt,
        "chronon": obs.chronon,
        "replayed": obs.replayed,
        "initial_view": terms(&obs.initial_view),
        "past": obs.past.iter().map(|c| json!({
            "submissions": c.submissions.iter().map(|s| [show(&s.switch), show(&s.action)]).collect::<Vec<_>>(),
            "events": c.events.iter().map(dto::event).collect::<Vec<_>>(),
            "view": terms(&c.view),
        })).collect::<Vec<_>>(),
        "view": terms(&obs.view),
        "accounts": terms(&obs.accounts),
        "switches": obs.switches.iter().map(|s| {
            let mut v = dto::switch(s);
            v["owner"] = json!(s.owner_term.as_ref().map(show));
            v
        }).collect::<Vec<_>>(),
    })
}

fn term(v: &Value) -> Result<Term, String> {
    let text = v
        .as_str()
        .ok_or_else(|| format!("not a term's text: {v}"))?;
    sidl_engine::syntax::parse_term(text)
        .map(|r| r.term)
        .map_err(|_| format!("{text:?} does not parse as a term"))
}

fn terms(v: &Value) -> Result<Vec<Term>, String> {
    v.as_array()
        .ok_or_else(|| format!("not a list of terms: {v}"))?
        .iter()
        .map(term)
        .collect()
}

fn event(v: &Value) -> Result<Event, String> {
    Ok(match v["kind"].as_str() {
        Some("created") => Event::Created(term(&v["fact"])?),
        Some("deleted") => Event::Deleted(term(&v["fact"])?),
        Some("account") => Event::Account {
            player: term(&v["player"])?,
            amount: term(&v["amount"])?,
        },
        Some("switch") => Event::Switch {
            switch: term(&v["switch"])?,
            action: term(&v["action"])?,
            how: match v["how"].as_str() {
                Some("submitted") => ActionSource::Submitted,
                Some("drawn") => ActionSource::Drawn,
                _ => ActionSource::Default,
            },
            ok: v["ok"].as_bool().unwrap_or(false),
        },
        _ => return Err(format!("not an event: {v}")),
    })
}

/// The observation of an `observation` frame; `settings`: the session's (its interrupt mode; the
/// server's default budgets).
pub fn parse(v: &Value, mut settings: Settings) -> Result<Observation, String> {
    let player = term(&v["player"])?;
    settings.interrupt = v["interrupt"].as_bool().unwrap_or(false);
    let past = v["past"]
        .as_array()
        .ok_or("no past")?
        .iter()
        .map(|c| {
            let submissions = c["submissions"]
                .as_array()
                .ok_or("no submissions")?
                .iter()
                .map(|s| {
                    Ok(Submission {
                        player: player.clone(),
                        switch: term(&s[0])?,
                        action: term(&s[1])?,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let events = c["events"]
                .as_array()
                .ok_or("no events")?
                .iter()
                .map(event)
                .collect::<Result<Vec<_>, String>>()?;
            Ok(ObservedChronon {
                submissions,
                events,
                view: terms(&c["view"])?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let switches = v["switches"]
        .as_array()
        .ok_or("no switches")?
        .iter()
        .map(|s| {
            let acts = terms(&s["actions"])?;
            Ok(SwitchInfo {
                id: term(&s["switch"])?,
                owner_term: s["owner"].as_str().map(|_| term(&s["owner"])).transpose()?,
                owner: Owner::Player(player.clone()),
                actions: if s["unlimited"] == true {
                    Actions::Unlimited(acts)
                } else {
                    Actions::Finite(acts)
                },
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Observation {
        player: player.clone(),
        players: terms(&v["players"])?,
        limits: settings.limits,
        interrupt: settings.interrupt,
        chronon: v["chronon"].as_u64().ok_or("no chronon")?,
        replayed: v["replayed"].as_bool().unwrap_or(false),
        initial_view: terms(&v["initial_view"])?,
        past,
        view: terms(&v["view"])?,
        accounts: terms(&v["accounts"])?,
        switches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sidl_engine::game::{Game, Session};
    use std::sync::Arc;

    /// The frame parses back to the observation it was made of (kuhn: hidden cards, float
    /// accounts, events of every kind).
    #[test]
    fn round_trip() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/kuhn.sidl"))
                .unwrap();
        let game = Arc::new(Game::load(&text).unwrap().0);
        let mut s = Session::new(game, 5, Settings::default()).unwrap();
        s.run_chronon().unwrap();
        let p1 = s.players()[0].clone();
        let sw = s.switches_of(&p1).unwrap()[0].clone();
        let Actions::Finite(a) = &sw.actions else {
            panic!()
        };
        assert!(s.submit(&p1, &sw.id, &a[0]).unwrap().is_ok());
        s.run_chronon().unwrap();
        for p in s.players() {
            let obs = Observation::of(&mut s, &p).unwrap();
            let back = parse(&frame(&obs), Settings::default()).unwrap();
            assert_eq!(back, obs);
        }
    }
}
