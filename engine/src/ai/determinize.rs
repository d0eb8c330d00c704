//! Determinization: complete states consistent with what a player has seen, sampled without ever
//! reading the real state.
//!
//! Method (sequential rejection sampling): replay the game from its start with a sampled seed; in
//! each past chronon submit the player's own recorded submissions, give every other player's switch a
//! uniformly random candidate and every chance switch a draw from its distribution (the search's RNG),
//! run the chronon, and keep it only if the player's events and view after it equal the observed ones
//! (the view compared as a set of facts); otherwise undo and try again, up to [`TRIES_PER_CHRONON`]
//! times, then restart from the beginning, up to [`RESTARTS`] times. A game without `hidden/2` needs
//! none of this: the view is the whole state ([`view_session`]). When no consistent history is found
//! (or in interrupt mode, or without a view history), the search falls back to the view-only state.

use super::sim;
use super::Observation;
use crate::atom;
use crate::game::facts::{FactSet, Ground};
use crate::game::session::{Settings, State};
use crate::game::{Game, RuntimeError, Session, Submission};
use crate::rng::Rng;
use crate::term::Term;
use std::sync::Arc;

pub const TRIES_PER_CHRONON: usize = 50;
pub const RESTARTS: usize = 8;

/// Settings of a search session: the observed budgets, never interrupt mode (a search submits all
/// choices of a chronon, then runs it).
pub fn search_settings(obs: &Observation) -> Settings {
    Settings {
        limits: obs.limits,
        interrupt: false,
    }
}

/// A session at the player's view: its visible facts, the players and the accounts (the whole state
/// when nothing is hidden from the player).
pub fn view_session(game: &Arc<Game>, obs: &Observation, seed: u64) -> Session {
    let state = State {
        chronon: obs.chronon,
        facts: Arc::new(FactSet::from_grounds(
            obs.view
                .iter()
                .map(|f| Arc::new(Ground::new(f.clone())))
                .collect(),
        )),
        players: obs
            .players
            .iter()
            .map(|p| Arc::new(Ground::new(p.clone())))
            .collect(),
        accounts: obs.accounts.clone(),
    };
    Session::from_state(game.clone(), state, seed, search_settings(obs))
}

/// Can facts be hidden in this game at all?
pub fn has_hidden(game: &Game) -> bool {
    game.program.pred(atom::HIDDEN, 2).is_some()
}

fn same_view(a: &[Term], b: &[Term]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let set: rustc_hash::FxHashSet<&Term> = a.iter().collect();
    b.iter().all(|t| set.contains(t))
}

/// Samples one complete state consistent with the observation (see the module doc); `None` when the
/// tries run out.
pub fn sample(
    game: &Arc<Game>,
    obs: &Observation,
    rng: &mut Rng,
) -> Result<Option<Session>, RuntimeError> {
    let me = &obs.player;
    let pi = obs.player_index();
    'restart: for _ in 0..RESTARTS {
        let mut s = Session::new(game.clone(), rng.next_u64(), search_settings(obs))?;
        if s.players() != obs.players || !same_view(&s.view(Some(me))?, &obs.initial_view) {
            continue;
        }
        for past in &obs.past {
            let mut ok = false;
            for _ in 0..TRIES_PER_CHRONON {
                let mut subs: Vec<Submission> = past.submissions.clone();
                for d in sim::decisions(&mut s)? {
                    if d.player == pi {
                        continue;
                    }
                    let p = obs.players[d.player].clone();
                    let i = rng.below(d.count() as u64) as usize;
                    subs.extend(d.combo(&p, i));
                }
                let chance = sim::chance_switches(&mut s)?;
                let draws = sim::sample_chance(&chance, rng);
                s.clear_pending();
                let mut refused = false;
                for sub in &subs {
                    if s.submit(&sub.player, &sub.switch, &sub.action)?.is_err()
                        && &sub.player == me
                    {
                        refused = true;
                    }
                }
                if refused {
                    // the player's own move is impossible here: this history is inconsistent
                    continue 'restart;
                }
                for (sw, a) in &draws {
                    let _ = s.set_nature(sw, a)?;
                }
                if s.run_chronon().is_err() {
                    s.clear_pending();
                    continue;
                }
                let same_events = match s.history().last() {
                    Some(r) => r.events_of(pi).eq(past.events.iter()),
                    None => past.events.is_empty(),
                };
                if same_events && same_view(&s.view(Some(me))?, &past.view) {
                    s.clear_pending();
                    ok = true;
                    break;
                }
                sim::retreat(&mut s);
            }
            if !ok {
                continue 'restart;
            }
        }
        if s.chronon() != obs.chronon || !same_view(&s.view(Some(me))?, &obs.view) {
            continue;
        }
        return Ok(Some(s.fork()));
    }
    Ok(None)
}

/// Up to `n` states to search: the view state when the game hides nothing (one state: it is exact);
/// else `n` samples (fewer if sampling fails; the view state if none is found). Returns the sessions
/// and how many were real samples.
pub fn states(
    game: &Arc<Game>,
    obs: &Observation,
    n: usize,
    rng: &mut Rng,
) -> Result<(Vec<Session>, usize), RuntimeError> {
    if !has_hidden(game) || obs.interrupt || !obs.replayed {
        return Ok((vec![view_session(game, obs, rng.next_u64())], 0));
    }
    let mut out = Vec::new();
    for _ in 0..n.max(1) {
        if let Some(s) = sample(game, obs, rng)? {
            out.push(s);
        }
    }
    let k = out.len();
    if out.is_empty() {
        out.push(view_session(game, obs, rng.next_u64()));
    }
    Ok((out, k))
}
