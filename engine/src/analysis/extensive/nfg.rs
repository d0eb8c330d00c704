//! The strategic form of a one-shot game (every player has at most one information set) and, for two
//! players, its Nash equilibria by support enumeration in exact rationals.

use super::{AnalysisError, Node, Tree, Q};
use crate::solve::errors::codes;
use num_traits::{One, Zero};

/// A strategic-form game: each player's strategies (its one information set's actions) and each
/// profile's expected payoffs.
#[derive(Clone, Debug)]
pub struct Strategic {
    pub title: String,
    pub players: Vec<String>,
    /// Per player, the strategies' labels (one empty-named strategy for a player without a choice).
    pub strategies: Vec<Vec<String>>,
    /// Per player, its information set in the tree (`None`: no choice).
    pub infosets: Vec<Option<usize>>,
    /// Per profile (the first player's strategy varying fastest), every player's payoff.
    pub payoffs: Vec<Vec<Q>>,
}

impl Strategic {
    pub fn profiles(&self) -> usize {
        self.payoffs.len()
    }
    pub fn payoff(&self, profile: usize) -> &[Q] {
        &self.payoffs[profile]
    }
    /// The profile index of the strategies `s` (one per player).
    pub fn index(&self, s: &[usize]) -> usize {
        let mut i = 0;
        for p in (0..self.players.len()).rev() {
            i = i * self.strategies[p].len() + s[p];
        }
        i
    }
}

/// The strategic form of a tree in which every player has at most one information set (a one-shot
/// game: the players choose once, simultaneously; chance may come before or after). Else
/// `SOLVER_NOT_APPLICABLE`.
pub fn strategic(t: &Tree) -> Result<Strategic, AnalysisError> {
    let n = t.players.len();
    let mut infosets: Vec<Option<usize>> = vec![None; n];
    for (i, is) in t.infosets.iter().enumerate() {
        if let Some(j) = infosets[is.player] {
            return Err(AnalysisError::new(
                codes::SOLVER_NOT_APPLICABLE,
                "the strategic form",
                format!(
                    "{} chooses at more than one information set ({:?} and {:?}): the strategic form is written for one-shot games only; use --efg",
                    t.players[is.player], t.infosets[j].label, is.label
                ),
            ));
        }
        infosets[is.player] = Some(i);
    }
    let strategies: Vec<Vec<String>> = infosets
        .iter()
        .map(|i| match i {
            Some(i) => t.infosets[*i].actions.clone(),
            None => vec![String::new()],
        })
        .collect();
    let count: usize = strategies.iter().map(Vec::len).product();
    let mut payoffs = Vec::with_capacity(count);
    for profile in 0..count {
        let mut pick = vec![0usize; n];
        let mut r = profile;
        for p in 0..n {
            pick[p] = r % strategies[p].len();
            r /= strategies[p].len();
        }
        // the expected payoff of the pure profile
        let mut total = vec![Q::zero(); n];
        let mut stack = vec![(t.root, Q::one())];
        while let Some((id, w)) = stack.pop() {
            match &t.nodes[id] {
                Node::Terminal { payoffs } => {
                    for (a, b) in total.iter_mut().zip(payoffs) {
                        *a += &w * b;
                    }
                }
                Node::Chance { outcomes, .. } => {
                    for (_, q, c) in outcomes {
                        stack.push((*c, &w * q));
                    }
                }
                Node::Decision {
                    player, children, ..
                } => stack.push((children[pick[*player]], w)),
            }
        }
        payoffs.push(total);
    }
    Ok(Strategic {
        title: t.title.clone(),
        players: t.players.clone(),
        strategies,
        infosets,
        payoffs,
    })
}
