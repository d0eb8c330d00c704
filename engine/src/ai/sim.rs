//! What the searches share: the decisions of a state (who chooses what), chance outcomes, candidate
//! actions of unlimited switches, and the evaluation of a state.

use super::Observation;
use crate::atom::Atom;
use crate::game::session::{fill_template, instantiate_template, template_slots};
use crate::game::{Actions, Owner, RuntimeError, Session, Submission, SwitchInfo};
use crate::rng::Rng;
use crate::term::Term;

/// `candidate(Switch, Action)`: the actions a search tries for an unlimited switch (docs/ai.md).
pub const CANDIDATE: (&str, u32) = ("candidate", 2);
/// `heuristic(Player, Value)`: a player's standing in a state that is not terminal (docs/ai.md).
pub const HEURISTIC: (&str, u32) = ("heuristic", 2);
/// `objective(O)`: what the game's AI seats maximise when their spec names no objective (`own`,
/// `relative` or `paranoid`; docs/ai.md "Objectives").
pub const OBJECTIVE: (&str, u32) = ("objective", 1);
/// Every hook a game may define for the tools (AI players, statistics, labels: `label/2` and
/// `label/3`, [`crate::game::present`]; layouts: `layout/1`, `piece/2`, [`crate::game::layout`]). The game manager never calls them, the tools do: the
/// analyses count them as entry points (W0406 does not call them unused). A new hook is added here
/// once.
pub const HOOKS: &[(&str, u32)] = &[
    CANDIDATE,
    HEURISTIC,
    OBJECTIVE,
    METRIC,
    crate::game::present::LABEL,
    crate::game::present::LABEL_LANG,
    crate::game::layout::LAYOUT,
    crate::game::layout::PIECE,
];
/// `metric(Name, Value)`: a game's own measures, read at the end of each game by `sidl stats`
/// ([`crate::stats`], docs/stats.md).
pub const METRIC: (&str, u32) = ("metric", 2);

/// The most candidate actions sampled for one unlimited switch (without `candidate/2`).
pub const MAX_UNLIMITED_SAMPLES: usize = 4;
/// The most action combinations of one player's switches in one chronon (the rest are not searched).
pub const MAX_COMBOS: usize = 4096;
/// Chance: the expectation is exact up to this many joint outcomes, else [`CHANCE_SAMPLES`] samples.
pub const MAX_CHANCE_OUTCOMES: usize = 64;
pub const CHANCE_SAMPLES: usize = 8;

/// A few values of a slot type: `integer` 0, 1, 2, 10; `double` 0.0, 1.0, 2.5, 10.0; `number` 0, 1,
/// 2.5, 10; `atom`/`term`: none (an unlimited switch with such a slot needs `candidate/2`).
fn slot_values(ty: Atom) -> Vec<Term> {
    match ty.name() {
        "integer" => vec![Term::Int(0), Term::Int(1), Term::Int(2), Term::Int(10)],
        "double" => vec![
            Term::Float(0.0),
            Term::Float(1.0),
            Term::Float(2.5),
            Term::Float(10.0),
        ],
        "number" => vec![Term::Int(0), Term::Int(1), Term::Float(2.5), Term::Int(10)],
        _ => Vec::new(),
    }
}

/// The most solutions of `candidate/2` taken for one switch.
pub const MAX_CANDIDATES: usize = 256;

/// Does the game define `candidate/2`?
pub fn has_candidates(s: &Session) -> bool {
    s.game()
        .program
        .pred(Atom::new(CANDIDATE.0), CANDIDATE.1)
        .is_some()
}

/// The actions the game proposes for an unlimited switch: the distinct solutions of its
/// `candidate(Switch, Action)` (up to [`MAX_CANDIDATES`], in order) that fit one of `templates`.
/// `None` when the game does not define `candidate/2`. The automatic seats (random and AI) fill
/// unlimited switches from these; `switch/2` still checks each one on submission.
pub fn game_candidates(
    s: &mut Session,
    switch: &Term,
    templates: &[Term],
) -> Result<Option<Vec<Term>>, RuntimeError> {
    if !has_candidates(s) {
        return Ok(None);
    }
    let v = Term::Var(0);
    let goal = Term::new_compound(Atom::new(CANDIDATE.0), vec![switch.clone(), v.clone()]);
    let mut out: Vec<Term> = Vec::new();
    for a in s.query_state(&goal, &v, MAX_CANDIDATES, "candidate/2")? {
        // the action as the session holds it (an integer in a `double` slot is a float)
        if let Some(a) = templates.iter().find_map(|t| instantiate_template(t, &a)) {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    Ok(Some(out))
}

/// The actions a search considers for a switch, in order: a finite switch's actions; for an unlimited
/// switch the solutions of the game's `candidate(Switch, Action)` that fit one of its templates, or
/// without `candidate/2`, each template with all its slots given the i-th of a few values of their
/// types (at most [`MAX_UNLIMITED_SAMPLES`]). The session only checks `switch/2` on submission: a
/// refused candidate leaves the switch to its default.
pub fn candidates(s: &mut Session, sw: &SwitchInfo) -> Result<Vec<Term>, RuntimeError> {
    let templates = match &sw.actions {
        Actions::Finite(a) => return Ok(a.clone()),
        Actions::Unlimited(t) => t,
    };
    if let Some(out) = game_candidates(s, &sw.id, templates)? {
        return Ok(out);
    }
    let mut out = Vec::new();
    for t in templates {
        let slots = template_slots(t);
        if slots.is_empty() {
            out.push(t.clone());
            continue;
        }
        let vals: Vec<Vec<Term>> = slots.iter().map(|s| slot_values(s.ty)).collect();
        let n = vals.iter().map(Vec::len).min().unwrap_or(0);
        for i in 0..n {
            let pick: Vec<Term> = vals.iter().map(|v| v[i].clone()).collect();
            if let Some(a) = fill_template(t, &pick) {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
    }
    out.truncate(MAX_UNLIMITED_SAMPLES);
    Ok(out)
}

/// One player's decision in a chronon: an action for each of its switches (with candidates).
#[derive(Clone, Debug)]
pub struct Decision {
    pub player: usize,
    /// `(switch, candidate actions)`, switches in legal order.
    pub switches: Vec<(Term, Vec<Term>)>,
}

/// Sorts decisions by their players (one instantiation of the standard library's sort for every
/// caller: the wasm's size).
pub fn sort_by_player(decisions: &mut [Decision]) {
    crate::stable_sort::sort_by_key(decisions, |d| d.player);
}

impl Decision {
    /// The number of action combinations (capped at [`MAX_COMBOS`]).
    pub fn count(&self) -> usize {
        let mut n: usize = 1;
        for (_, a) in &self.switches {
            n = n.saturating_mul(a.len());
        }
        n.min(MAX_COMBOS)
    }

    /// The `i`-th combination in order (the first switch varies slowest), as submissions.
    pub fn combo(&self, player: &Term, mut i: usize) -> Vec<Submission> {
        let mut picks = vec![0; self.switches.len()];
        for (k, (_, acts)) in self.switches.iter().enumerate().rev() {
            picks[k] = i % acts.len();
            i /= acts.len();
        }
        self.switches
            .iter()
            .zip(picks)
            .map(|((sw, acts), j)| Submission {
                player: player.clone(),
                switch: sw.clone(),
                action: acts[j].clone(),
            })
            .collect()
    }
}

/// The decisions of the current state: one per player owning a legal switch with candidates, in
/// player order.
pub fn decisions(s: &mut Session) -> Result<Vec<Decision>, RuntimeError> {
    let switches = s.switches()?;
    let players = s.players();
    let mut out: Vec<Decision> = Vec::new();
    for sw in switches.iter() {
        let Owner::Player(p) = &sw.owner else {
            continue;
        };
        let Some(pi) = players.iter().position(|q| q == p) else {
            continue;
        };
        let acts = candidates(s, sw)?;
        if acts.is_empty() {
            continue;
        }
        match out.iter_mut().find(|d| d.player == pi) {
            Some(d) => d.switches.push((sw.id.clone(), acts)),
            None => out.push(Decision {
                player: pi,
                switches: vec![(sw.id.clone(), acts)],
            }),
        }
    }
    sort_by_player(&mut out);
    Ok(out)
}

/// A chance switch: `(switch, actions, probabilities)`.
pub type Chance = (Term, Vec<Term>, Vec<f64>);

/// The chance switches of the current state.
pub fn chance_switches(s: &mut Session) -> Result<Vec<Chance>, RuntimeError> {
    let switches = s.switches()?;
    let mut out = Vec::new();
    for sw in switches.iter() {
        let Actions::Finite(acts) = &sw.actions else {
            continue;
        };
        let probs = match &sw.owner {
            Owner::Equal(n) if *n as usize == acts.len() && !acts.is_empty() => {
                vec![1.0 / acts.len() as f64; acts.len()]
            }
            Owner::Probs(p) if p.len() == acts.len() => p.clone(),
            // a bad distribution: the chronon raises the error itself
            _ => continue,
        };
        out.push((sw.id.clone(), acts.clone(), probs));
    }
    Ok(out)
}

/// One draw per chance switch from `rng` (the search's own RNG, never the game's).
pub fn sample_chance(chance: &[Chance], rng: &mut Rng) -> Vec<(Term, Term)> {
    chance
        .iter()
        .map(|(sw, acts, ps)| {
            let u = rng.next_f64();
            let mut acc = 0.0;
            let mut pick = acts.len() - 1;
            for (i, p) in ps.iter().enumerate() {
                acc += p;
                if u < acc {
                    pick = i;
                    break;
                }
            }
            (sw.clone(), acts[pick].clone())
        })
        .collect()
}

/// The joint chance outcomes with their probabilities: all of them (zero-probability ones left out)
/// when there are at most [`MAX_CHANCE_OUTCOMES`], else [`CHANCE_SAMPLES`] samples of weight
/// `1/CHANCE_SAMPLES` each.
pub fn chance_outcomes(chance: &[Chance], rng: &mut Rng) -> Vec<(Vec<(Term, Term)>, f64)> {
    let mut total: usize = 1;
    for (_, a, _) in chance {
        total = total.saturating_mul(a.len());
    }
    if total > MAX_CHANCE_OUTCOMES {
        return (0..CHANCE_SAMPLES)
            .map(|_| (sample_chance(chance, rng), 1.0 / CHANCE_SAMPLES as f64))
            .collect();
    }
    let mut out = vec![(Vec::new(), 1.0)];
    for (sw, acts, ps) in chance {
        let mut next = Vec::with_capacity(out.len() * acts.len());
        for (draws, p) in &out {
            for (a, q) in acts.iter().zip(ps) {
                if *q <= 0.0 {
                    continue;
                }
                let mut d: Vec<(Term, Term)> = draws.clone();
                d.push((sw.clone(), a.clone()));
                next.push((d, p * q));
            }
        }
        out = next;
    }
    out
}

/// Submits `subs`, fixes the chance actions `draws`, runs the chronon.
pub fn advance(
    s: &mut Session,
    subs: &[Submission],
    draws: &[(Term, Term)],
) -> Result<(), RuntimeError> {
    s.clear_pending();
    for sub in subs {
        // a refused candidate (unlimited switch) leaves the switch to its default
        let _ = s.submit(&sub.player, &sub.switch, &sub.action)?;
    }
    for (sw, a) in draws {
        let _ = s.set_nature(sw, a)?;
    }
    // searches read no history or events; `retreat` steps back
    s.advance(true)
}

/// Steps back one chronon and withdraws its submissions.
pub fn retreat(s: &mut Session) {
    s.undo();
    s.clear_pending();
}

/// The objective of an AI whose spec names `spec` (none: the game's `objective/1`, its first
/// solution, else `own`). An `objective/1` answer that is no objective is a runtime error.
pub fn objective(
    s: &mut Session,
    spec: Option<super::Objective>,
) -> Result<super::Objective, RuntimeError> {
    if let Some(o) = spec {
        return Ok(o);
    }
    let o = Atom::new(OBJECTIVE.0);
    if s.game().program.pred(o, OBJECTIVE.1).is_none() {
        return Ok(super::Objective::Own);
    }
    let v = Term::Var(0);
    let goal = Term::new_compound(o, vec![v.clone()]);
    let Some(answer) = s
        .query_state(&goal, &v, 1, "objective/1")?
        .into_iter()
        .next()
    else {
        return Ok(super::Objective::Own);
    };
    match &answer {
        Term::Atom(a) => super::Objective::parse(a.name()),
        _ => None,
    }
    .ok_or_else(|| {
        RuntimeError::new(
            crate::solve::errors::codes::BAD_OBJECTIVE,
            "objective/1",
            format!(
                "objective/1 gives {}: the objectives are own, relative and paranoid",
                crate::write::writeq(&answer, None)
            ),
        )
    })
}

/// Does the game define `heuristic/2`?
pub fn has_heuristic(s: &Session) -> bool {
    s.game()
        .program
        .pred(Atom::new(HEURISTIC.0), HEURISTIC.1)
        .is_some()
}

/// Each player's standing in the current state: with `heuristic`, the first numeric solution of the
/// game's `heuristic(Player, Value)` (the account when it has none); else the account.
pub fn standings(s: &mut Session, heuristic: bool) -> Result<Vec<f64>, RuntimeError> {
    let state = s.state().clone();
    let mut out: Vec<f64> = state.account_values();
    if heuristic {
        let h = Atom::new(HEURISTIC.0);
        for (i, p) in state.player_terms().enumerate() {
            let v = Term::Var(0);
            let goal = Term::new_compound(h, vec![p.clone(), v.clone()]);
            if let Some(x) = s
                .query_state(&goal, &v, 1, "heuristic/2")?
                .first()
                .and_then(Term::as_f64)
            {
                out[i] = x;
            }
        }
    }
    Ok(out)
}

/// Player `i`'s value of standings: its own minus the best other player's (its own alone in a
/// one-player game).
pub fn relative(values: &[f64], i: usize) -> f64 {
    let best_other = values
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, v)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other == f64::NEG_INFINITY {
        values.get(i).copied().unwrap_or(0.0)
    } else {
        values.get(i).copied().unwrap_or(0.0) - best_other
    }
}

/// The first candidate of each of the player's switches (the fallback choice before any search).
pub fn first_moves(obs: &Observation) -> Vec<Submission> {
    obs.switches
        .iter()
        .filter_map(|sw| {
            let a = match &sw.actions {
                Actions::Finite(a) => a.first()?.clone(),
                Actions::Unlimited(_) => return None,
            };
            Some(Submission {
                player: obs.player.clone(),
                switch: sw.id.clone(),
                action: a,
            })
        })
        .collect()
}
