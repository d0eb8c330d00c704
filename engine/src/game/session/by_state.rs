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
}

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
        && a.iter().zip(b.iter()).all(|(x, y)| {
            Arc::ptr_eq(x, y) || (x.hash_value() == y.hash_value() && x.term == y.term)
        })
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

    /// The key of `facts` when the table is on.
    pub(super) fn key(&self, facts: &FactSet) -> Option<u64> {
        self.0.as_ref().map(|_| facts_hash(facts))
    }

    pub(super) fn get(&self, key: u64, facts: &FactSet) -> Option<Arc<Vec<SwitchInfo>>> {
        let t = self.0.as_ref()?.lock().unwrap_or_else(|e| e.into_inner());
        t.rows
            .get(&key)?
            .iter()
            .find(|(f, _)| same_facts(f, facts))
            .map(|(_, s)| s.clone())
    }

    pub(super) fn insert(&self, key: u64, facts: &FactSet, switches: Arc<Vec<SwitchInfo>>) {
        let Some(t) = &self.0 else { return };
        let mut t = t.lock().unwrap_or_else(|e| e.into_inner());
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
