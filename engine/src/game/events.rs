//! The texts of a chronon's events, the one place that turns an [`Event`] into words: the line per
//! event that the playground (`SidlEvent.text`) and `sidl play` show ([`Event::text`]), and the
//! one-line chronon of `sidl run` ([`chronon_line`], `docs/reference.md`). Adapters choose only how
//! terms are written ([`Notation`]): canonical text where terms cross to code (the browser), `writeq`
//! for people at a terminal.

use super::session::{ActionSource, ChrononRecord, Event};
use crate::term::Term;
use crate::write;

/// How the terms of a text are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// [`write::canonical`]: the trace format's writing (the WASM API: terms cross as canonical text).
    Canonical,
    /// [`write::writeq`]: SWI-Prolog's `writeq/1` (the terminal).
    Writeq,
}

impl Notation {
    pub fn write(self, t: &Term) -> String {
        match self {
            Notation::Canonical => write::canonical(t),
            Notation::Writeq => write::writeq(t, None),
        }
    }
}

/// How the parts of an event are written: raw terms ([`Notation`]) or a game's labels for one viewer
/// ([`super::present::Presenter`], which falls back to the raw term). The event texts below are the
/// same whichever writes the parts.
pub trait Words {
    fn player(&mut self, p: &Term) -> String;
    fn switch(&mut self, s: &Term) -> String;
    fn action(&mut self, switch: &Term, action: &Term) -> String;
    /// A fact of an event (it may be gone from the state, or not there yet).
    fn fact(&mut self, f: &Term) -> String;
    fn amount(&mut self, a: &Term) -> String;
}

impl Words for Notation {
    fn player(&mut self, p: &Term) -> String {
        self.write(p)
    }
    fn switch(&mut self, s: &Term) -> String {
        self.write(s)
    }
    fn action(&mut self, _switch: &Term, action: &Term) -> String {
        self.write(action)
    }
    fn fact(&mut self, f: &Term) -> String {
        self.write(f)
    }
    fn amount(&mut self, a: &Term) -> String {
        self.write(a)
    }
}

/// What an event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    Created,
    Deleted,
    Account,
    Switch,
}

impl EventKind {
    pub const ALL: [EventKind; 4] = [
        EventKind::Created,
        EventKind::Deleted,
        EventKind::Account,
        EventKind::Switch,
    ];

    /// `created`, `deleted`, `account`, `switch`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Created => "created",
            EventKind::Deleted => "deleted",
            EventKind::Account => "account",
            EventKind::Switch => "switch",
        }
    }
}

impl ActionSource {
    pub const ALL: [ActionSource; 3] = [
        ActionSource::Submitted,
        ActionSource::Drawn,
        ActionSource::Default,
    ];

    /// `submitted`, `drawn`, `default`.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionSource::Submitted => "submitted",
            ActionSource::Drawn => "drawn",
            ActionSource::Default => "default",
        }
    }
}

impl Event {
    pub fn kind(&self) -> EventKind {
        match self {
            Event::Created(_) => EventKind::Created,
            Event::Deleted(_) => EventKind::Deleted,
            Event::Account { .. } => EventKind::Account,
            Event::Switch { .. } => EventKind::Switch,
        }
    }

    /// The event in one line: `+ FACT`, `- FACT`, `PLAYER gets AMOUNT`, `SWITCH ← ACTION (HOW)` with
    /// `, do/1 failed` after HOW when the action's `do/1` failed (it had no effect).
    pub fn text(&self, mut w: impl Words) -> String {
        match self {
            Event::Created(f) => format!("+ {}", w.fact(f)),
            Event::Deleted(f) => format!("- {}", w.fact(f)),
            Event::Account { player, amount } => {
                format!("{} gets {}", w.player(player), w.amount(amount))
            }
            Event::Switch {
                switch,
                action,
                how,
                ok,
            } => format!(
                "{} ← {} ({}{})",
                w.switch(switch),
                w.action(switch, action),
                how.as_str(),
                if *ok { "" } else { ", do/1 failed" }
            ),
        }
    }
}

/// The designer's events of a chronon in one line, as `sidl run` prints them after `chronon N: `:
/// `SWITCH: ACTION` per switch (` (failed)` when its `do/1` failed), `+FACT`, `-FACT`, separated by
/// two spaces; account events are left out (`sidl run` prints the final accounts).
pub fn chronon_line(rec: &ChrononRecord, mut w: impl Words) -> String {
    let parts: Vec<String> = rec
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Switch {
                switch, action, ok, ..
            } => Some(format!(
                "{}: {}{}",
                w.switch(switch),
                w.action(switch, action),
                if *ok { "" } else { " (failed)" }
            )),
            Event::Created(f) => Some(format!("+{}", w.fact(f))),
            Event::Deleted(f) => Some(format!("-{}", w.fact(f))),
            Event::Account { .. } => None,
        })
        .collect();
    parts.join("  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Term {
        crate::syntax::parse_term(s).expect("parses").term
    }

    #[test]
    fn one_line_per_event() {
        let sw = |how, ok| Event::Switch {
            switch: t("[offer]"),
            action: t("[offer,4]"),
            how,
            ok,
        };
        let n = Notation::Canonical;
        assert_eq!(Event::Created(t("[bob,7]")).text(n), "+ [bob,7]");
        assert_eq!(Event::Deleted(t("[alice,10]")).text(n), "- [alice,10]");
        let acc = Event::Account {
            player: t("[bob]"),
            amount: t("2.5"),
        };
        assert_eq!(acc.text(n), "[bob] gets 2.5");
        assert_eq!(
            sw(ActionSource::Submitted, true).text(n),
            "[offer] ← [offer,4] (submitted)"
        );
        assert_eq!(
            sw(ActionSource::Default, false).text(n),
            "[offer] ← [offer,4] (default, do/1 failed)"
        );
        // the notation only changes how terms are written
        assert_eq!(Event::Created(t("[a-b]")).text(n), "+ [-(a,b)]");
        assert_eq!(Event::Created(t("[a-b]")).text(Notation::Writeq), "+ [a-b]");
    }

    #[test]
    fn sidl_run_line() {
        let rec = ChrononRecord {
            submissions: Vec::new(),
            overrides: Vec::new(),
            draws: Vec::new(),
            events: vec![
                Event::Switch {
                    switch: t("[p]"),
                    action: t("[p,take,5]"),
                    how: ActionSource::Submitted,
                    ok: false,
                },
                Event::Switch {
                    switch: t("[end]"),
                    action: t("[end]"),
                    how: ActionSource::Default,
                    ok: true,
                },
                Event::Deleted(t("[open]")),
                Event::Created(t("[taken,q,a]")),
                Event::Account {
                    player: t("[p]"),
                    amount: t("1"),
                },
            ],
            player_events: crate::game::PlayerEvents::new(),
        };
        assert_eq!(
            chronon_line(&rec, Notation::Writeq),
            "[p]: [p,take,5] (failed)  [end]: [end]  -[open]  +[taken,q,a]"
        );
    }
}
