//! Text of terms, templates, events, accounts and rankings for `sidl play` (pure: no I/O); an
//! event's line is the engine's ([`Event::text`]).

use sidl_engine::game::present::Presenter;
use sidl_engine::game::session::{slot, ActionSource};
use sidl_engine::game::{account_value, ChrononRecord, Event, Submission};
use sidl_engine::term::Term;
use sidl_engine::write::writeq;

/// A term as `writeq/1` writes it.
pub fn term(t: &Term) -> String {
    writeq(t, None)
}

/// A template with every slot `(Name, Type)` written as `<Name:Type>` and every variable as `_`.
pub fn template(t: &Term) -> String {
    let mut names: Vec<String> = Vec::new();
    let shown = mark_holes(t, &mut names);
    writeq(&shown, Some(&names))
}

/// Replaces the holes of a template by fresh variables named in `names`.
fn mark_holes(t: &Term, names: &mut Vec<String>) -> Term {
    if let Some((name, ty)) = slot(t) {
        names.push(format!("<{}:{}>", writeq(name, None), ty.name()));
        return Term::Var(names.len() as u32 - 1);
    }
    match t {
        Term::Var(_) => {
            names.push("_".to_string());
            Term::Var(names.len() as u32 - 1)
        }
        Term::Compound(f, args) => {
            let args: Vec<Term> = args.iter().map(|a| mark_holes(a, names)).collect();
            Term::Compound(*f, args.into())
        }
        other => other.clone(),
    }
}

/// An account as `f64` (the engine's [`account_value`]).
pub fn number(t: &Term) -> f64 {
    account_value(t)
}

/// `[alice] 0.0, [bob] 1.0` (or the game's account labels).
pub fn accounts(accounts: &[(Term, Term)], pr: &mut Presenter) -> String {
    let parts: Vec<String> = accounts.iter().map(|(p, a)| pr.account(p, a)).collect();
    parts.join(", ")
}

/// `accounts: [a] 1, [b] 2` on one line when it fits in 72 columns, else one account per line.
pub fn accounts_block(accounts_: &[(Term, Term)], pr: &mut Presenter) -> Vec<String> {
    let one = format!("accounts: {}", accounts(accounts_, pr));
    if one.chars().count() <= 72 {
        return vec![one];
    }
    let mut lines = vec!["accounts:".to_string()];
    lines.extend(
        accounts_
            .iter()
            .map(|(p, a)| format!("  {}", pr.account(p, a))),
    );
    lines
}

/// The lines a player sees about one chronon of the history: its own submissions, the events it may
/// see (`player_events`), and the accounts when they changed (`before`: the accounts before it);
/// terms through the game's labels for this player (`pr`, raw without them).
pub fn chronon_lines(
    rec: &ChrononRecord,
    pi: usize,
    player: &Term,
    before: &[(Term, Term)],
    pr: &mut Presenter,
) -> Vec<String> {
    let mut lines = Vec::new();
    let own: Vec<&Submission> = rec
        .submissions
        .iter()
        .filter(|s| &s.player == player)
        .collect();
    for s in &own {
        lines.push(format!(
            "you chose {} for {}",
            pr.action(&s.switch, &s.action),
            pr.switch(&s.switch)
        ));
    }
    let mut after: Vec<(Term, Term)> = Vec::new();
    for e in rec.events_of(pi) {
        match e {
            Event::Created(_) | Event::Deleted(_) => lines.push(e.text(&mut *pr)),
            Event::Account { player, amount } => after.push((player.clone(), amount.clone())),
            // a submitted action that worked is left out: the player's own are the "you chose"
            // lines above, the others' show by their effects
            Event::Switch {
                how: ActionSource::Submitted,
                ok: true,
                ..
            } => {}
            Event::Switch { .. } => lines.push(e.text(&mut *pr)),
        }
    }
    if !after.is_empty() && after.as_slice() != before {
        lines.extend(accounts_block(&after, pr));
    }
    if lines.is_empty() {
        lines.push("(nothing you can see changed)".to_string());
    }
    lines
}

/// The accounts after a chronon, from its designer events.
pub fn accounts_after(rec: &ChrononRecord) -> Vec<(Term, Term)> {
    rec.events
        .iter()
        .filter_map(|e| match e {
            Event::Account { player, amount } => Some((player.clone(), amount.clone())),
            _ => None,
        })
        .collect()
}

/// The winner line and the ranking line (best account first; equal accounts share a rank).
pub fn ranking(accounts: &[(Term, Term)], pr: &mut Presenter) -> Vec<String> {
    if accounts.is_empty() {
        return vec!["no players".to_string()];
    }
    let mut order: Vec<&(Term, Term)> = accounts.iter().collect();
    order.sort_by(|a, b| number(&b.1).total_cmp(&number(&a.1)));
    let best = number(&order[0].1);
    let top: Vec<String> = order
        .iter()
        .filter(|(_, a)| number(a) == best)
        .map(|(p, _)| pr.player(p))
        .collect();
    let first = if top.len() == accounts.len() && accounts.len() > 1 {
        format!("draw: every player has {}", term(&order[0].1))
    } else if top.len() == 1 {
        format!("winner: {} ({})", top[0], term(&order[0].1))
    } else {
        format!("shared win: {} ({})", top.join(", "), term(&order[0].1))
    };
    let mut parts = Vec::new();
    let mut rank = 0;
    let mut prev: Option<f64> = None;
    for (i, (p, a)) in order.iter().enumerate() {
        let v = number(a);
        if prev != Some(v) {
            rank = i + 1;
            prev = Some(v);
        }
        parts.push(format!("{rank}. {} {}", pr.player(p), term(a)));
    }
    vec![first, format!("ranking: {}", parts.join(", "))]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: &str) -> Term {
        Term::list(vec![Term::atom(n)])
    }

    #[test]
    fn templates_show_slots() {
        let t = Term::list(vec![
            Term::atom("alice"),
            Term::compound(",", vec![Term::atom("price"), Term::atom("double")]),
        ]);
        assert_eq!(template(&t), "[alice,<price:double>]");
    }

    /// The events a player sees are the engine's lines (`Event::text`), not a copy of them; only
    /// a submitted action that worked is left out (the player's own is "you chose").
    #[test]
    fn event_lines_are_the_engines() {
        let ev = |how, ok| Event::Switch {
            switch: p("deal"),
            action: Term::list(vec![Term::atom("deal"), Term::Int(3)]),
            how,
            ok,
        };
        let shown = vec![
            Event::Created(p("x")),
            Event::Deleted(p("y")),
            ev(ActionSource::Drawn, true),
            ev(ActionSource::Default, true),
            ev(ActionSource::Submitted, false),
        ];
        let mut events = shown.clone();
        events.push(ev(ActionSource::Submitted, true));
        let rec = ChrononRecord {
            submissions: Vec::new(),
            overrides: Vec::new(),
            draws: Vec::new(),
            events: events.clone(),
            player_events: sidl_engine::game::PlayerEvents::from_lists(&[
                (0..events.len() as u32).collect::<Vec<_>>()
            ]),
        };
        let want: Vec<String> = shown
            .iter()
            .map(|e| e.text(sidl_engine::game::events::Notation::Writeq))
            .collect();
        // without labels, the labelled text is the raw one
        assert_eq!(
            chronon_lines(&rec, 0, &p("a"), &[], &mut Presenter::raw()),
            want
        );
        assert_eq!(want[2], "[deal] ← [deal,3] (drawn)");
    }

    #[test]
    fn rankings() {
        let acc = vec![
            (p("a"), Term::Float(-1.0)),
            (p("b"), Term::Float(1.0)),
            (p("c"), Term::Float(-1.0)),
        ];
        assert_eq!(
            ranking(&acc, &mut Presenter::raw()),
            [
                "winner: [b] (1.0)",
                "ranking: 1. [b] 1.0, 2. [a] -1.0, 2. [c] -1.0"
            ]
        );
        let tie = vec![(p("a"), Term::Int(0)), (p("b"), Term::Int(0))];
        assert_eq!(
            ranking(&tie, &mut Presenter::raw())[0],
            "draw: every player has 0"
        );
        let shared = vec![
            (p("a"), Term::Int(2)),
            (p("b"), Term::Int(2)),
            (p("c"), Term::Int(0)),
        ];
        assert_eq!(
            ranking(&shared, &mut Presenter::raw())[0],
            "shared win: [a], [b] (2)"
        );
    }
}
