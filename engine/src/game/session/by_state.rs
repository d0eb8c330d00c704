//! The legal switches of states seen before, by the states' facts: a play revisits states (Nim's
//! positions, the first moves of every random game, an AI's simulations), and when `legal/1`,
//! `owned/2`, `switch/2` and `unlimited/2` reach no host predicate but `fact/1` and `player/1`
//! their answers follow from the facts (in order) and the players alone.

use super::*;
use std::hash::Hasher;
use std::sync::Mutex;

/// The table is emptied when its switches and actions number more than this.
const MAX_ITEMS: usize = 1 << 16;

/// [`Session::switches`] by state, shared by a session, its forks and its recycled successors with
/// the same players (`None`: the game's switch keywords reach more than the facts and players).
#[derive(Clone, Default)]
pub(super) struct StateSwitches(Option<Arc<Mutex<Table>>>);

/// A state's facts (in order) and its switches.
type Row = (Vec<Arc<Ground>>, Arc<Vec<SwitchInfo>>);

#[derive(Default)]
struct Table {
    /// Hash of the facts (see [`facts_hash`]) -> the facts and their switches.
    rows: rustc_hash::FxHashMap<u64, Vec<Row>>,
    /// Switches and actions held (bounds the memory).
    items: usize,
    /// Lookups and hits so far: a table that is rarely hit is given up ([`GIVE_UP_AFTER`]).
    lookups: u64,
    hits: u64,
    /// Given up: every lookup misses and nothing is stored.
    off: bool,
}

/// After this many lookups (and at every multiple), the table is given up when fewer than one
/// lookup in [`MIN_HIT_RATIO`] was a hit: in a game whose random plays rarely meet a state twice
/// (Connect Four: 2 360 games of 50 000 chronons) storing every state's facts costs more than the
/// hits save (measured 2026-11-26: 5 % of Connect Four's time).
const GIVE_UP_AFTER: u64 = 1024;
const MIN_HIT_RATIO: u64 = 8;

/// The hash of the facts in order (equal fact sequences have equal hashes).
fn facts_hash(facts: &FactSet) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write_usize(facts.len());
    for g in facts.iter() {
        h.write_u64(g.hash_value());
    }
    h.finish()
}

fn same_facts(a: &[Arc<Ground>], b: &FactSet) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b.iter())
            .all(|(x, y)| Arc::ptr_eq(x, y) || x.same(y))
}

impl StateSwitches {
    /// A table for `game` if its switches follow from the facts and players alone.
    pub(super) fn new(game: &Game) -> StateSwitches {
        let only = (1u64 << super::super::host::FACT) | (1u64 << super::super::host::PLAYER);
        let fixed = |name, arity| {
            game.program
                .pred(name, arity)
                .is_none_or(|p| p.reaches & !only == 0)
        };
        let ok = fixed(atom::LEGAL, 1)
            && fixed(atom::OWNED, 2)
            && fixed(atom::SWITCH, 2)
            && fixed(atom::UNLIMITED, 2);
        StateSwitches(ok.then(Default::default))
    }

    /// Is the table on (do the game's switches follow from the facts and players)?
    #[cfg(test)]
    pub(super) fn is_on(&self) -> bool {
        self.0.is_some()
    }

    /// Was the table given up (rarely hit)?
    #[cfg(test)]
    pub(super) fn given_up(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|t| t.lock().unwrap_or_else(|e| e.into_inner()).off)
    }

    /// The switches stored for `facts`, and the key to [`StateSwitches::insert`] them under on
    /// a miss (`None`: the table is off or given up; nothing is hashed then).
    pub(super) fn get(&self, facts: &FactSet) -> (Option<u64>, Option<Arc<Vec<SwitchInfo>>>) {
        let Some(t) = &self.0 else {
            return (None, None);
        };
        let mut t = t.lock().unwrap_or_else(|e| e.into_inner());
        if t.off {
            return (None, None);
        }
        let key = facts_hash(facts);
        t.lookups += 1;
        let found = t
            .rows
            .get(&key)
            .and_then(|rows| rows.iter().find(|(f, _)| same_facts(f, facts)))
            .map(|(_, s)| s.clone());
        if found.is_some() {
            t.hits += 1;
        } else if t.lookups % GIVE_UP_AFTER == 0 && t.hits * MIN_HIT_RATIO < t.lookups {
            t.off = true;
            t.rows = Default::default();
            t.items = 0;
        }
        (Some(key), found)
    }

    pub(super) fn insert(&self, key: u64, facts: &FactSet, switches: Arc<Vec<SwitchInfo>>) {
        let Some(t) = &self.0 else { return };
        let mut t = t.lock().unwrap_or_else(|e| e.into_inner());
        if t.off {
            return;
        }
        let items = switches.len()
            + switches
                .iter()
                .map(|s| match &s.actions {
                    Actions::Finite(a) | Actions::Unlimited(a) => a.len(),
                })
                .sum::<usize>()
            + facts.len();
        if t.items + items > MAX_ITEMS {
            t.rows.clear();
            t.items = 0;
        }
        t.items += items;
        t.rows
            .entry(key)
            .or_default()
            .push((facts.iter().cloned().collect(), switches));
    }
}
