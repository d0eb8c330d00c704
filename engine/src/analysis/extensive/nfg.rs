//! The strategic form of a one-shot game (every player has at most one information set) and, for two
//! players, its Nash equilibria by support enumeration in exact rationals.

use super::{AnalysisError, Node, Tree, Q};
use crate::solve::errors::codes;
use num_traits::{One, Signed, Zero};

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

/// The most strategy profiles of a strategic form.
pub const MAX_PROFILES: usize = 1_000_000;

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
    let count = strategies
        .iter()
        .try_fold(1usize, |a, s| a.checked_mul(s.len()))
        .filter(|&c| c <= MAX_PROFILES)
        .ok_or_else(|| {
            AnalysisError::new(
                codes::SOLVER_NOT_APPLICABLE,
                "the strategic form",
                format!("the strategic form would have more than {MAX_PROFILES} strategy profiles: use --efg"),
            )
        })?;
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

/// The most strategies per player [`support_enumeration`] takes on.
pub const MAX_STRATEGIES: usize = 10;

/// A mixed equilibrium of a two-player strategic form: each player's probabilities and payoff.
#[derive(Clone, Debug, PartialEq)]
pub struct MixedEquilibrium {
    pub strategies: [Vec<Q>; 2],
    pub values: [Q; 2],
}

/// Solves `m z = rhs` exactly (a square system); `None` when singular.
fn gauss(mut m: Vec<Vec<Q>>, mut rhs: Vec<Q>) -> Option<Vec<Q>> {
    let n = rhs.len();
    for c in 0..n {
        let p = (c..n).find(|&r| !m[r][c].is_zero())?;
        m.swap(c, p);
        rhs.swap(c, p);
        let pv = m[c][c].clone();
        for v in m[c].iter_mut() {
            *v /= &pv;
        }
        rhs[c] /= &pv;
        for r in 0..n {
            if r != c && !m[r][c].is_zero() {
                let f = m[r][c].clone();
                let pivot_row = m[c].clone();
                for (x, pv) in m[r].iter_mut().zip(&pivot_row) {
                    *x -= &f * pv;
                }
                let d = &f * &rhs[c];
                rhs[r] -= d;
            }
        }
    }
    Some(rhs)
}

/// The subsets of `0..n` with `k` elements, in lexicographic order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(cur.clone());
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if cur[i] < n - k + i {
                cur[i] += 1;
                for j in i + 1..k {
                    cur[j] = cur[j - 1] + 1;
                }
                break;
            }
        }
    }
}

/// The mixture on `support` (of the player choosing among `n`) that makes the other player
/// indifferent among `other`, where `pay(mine, theirs)` is the other player's payoff; with that
/// payoff.
fn indifference(
    support: &[usize],
    other: &[usize],
    n: usize,
    pay: &dyn Fn(usize, usize) -> Q,
) -> Option<(Vec<Q>, Q)> {
    let k = support.len();
    // unknowns: the k probabilities, then the payoff
    let mut m = Vec::with_capacity(k + 1);
    let mut rhs = Vec::with_capacity(k + 1);
    for &o in other {
        let mut row: Vec<Q> = support.iter().map(|&s| pay(s, o)).collect();
        row.push(-Q::one());
        m.push(row);
        rhs.push(Q::zero());
    }
    let mut row = vec![Q::one(); k];
    row.push(Q::zero());
    m.push(row);
    rhs.push(Q::one());
    let z = gauss(m, rhs)?;
    let mut full = vec![Q::zero(); n];
    for (i, &s) in support.iter().enumerate() {
        if z[i].is_negative() {
            return None;
        }
        full[s] = z[i].clone();
    }
    Some((full, z[k].clone()))
}

/// Every Nash equilibrium of a two-player strategic form found by support enumeration (supports of
/// equal size: all of them in a nondegenerate game, at least one in any game), exactly.
pub fn support_enumeration(g: &Strategic) -> Result<Vec<MixedEquilibrium>, AnalysisError> {
    if g.players.len() != 2 {
        return Err(AnalysisError::new(
            codes::SOLVER_NOT_APPLICABLE,
            "support enumeration",
            format!(
                "support enumeration solves two-player games; this one has {} players",
                g.players.len()
            ),
        ));
    }
    let (n1, n2) = (g.strategies[0].len(), g.strategies[1].len());
    if n1 > MAX_STRATEGIES || n2 > MAX_STRATEGIES {
        return Err(AnalysisError::new(
            codes::SOLVER_NOT_APPLICABLE,
            "support enumeration",
            format!("support enumeration takes at most {MAX_STRATEGIES} strategies per player; this game has {n1} and {n2}"),
        ));
    }
    let a = |i: usize, j: usize| g.payoffs[g.index(&[i, j])][0].clone();
    let b = |i: usize, j: usize| g.payoffs[g.index(&[i, j])][1].clone();
    let mut out: Vec<MixedEquilibrium> = Vec::new();
    for k in 1..=n1.min(n2) {
        for s1 in subsets(n1, k) {
            for s2 in subsets(n2, k) {
                // y on s2 makes player 1 indifferent on s1; x on s1 makes player 2 indifferent on s2
                let Some((y, v1)) = indifference(&s2, &s1, n2, &|j, i| a(i, j)) else {
                    continue;
                };
                let Some((x, v2)) = indifference(&s1, &s2, n1, &|i, j| b(i, j)) else {
                    continue;
                };
                let best1 = (0..n1).all(|i| {
                    let u = (0..n2).fold(Q::zero(), |acc, j| acc + a(i, j) * &y[j]);
                    u <= v1
                });
                let best2 = (0..n2).all(|j| {
                    let u = (0..n1).fold(Q::zero(), |acc, i| acc + b(i, j) * &x[i]);
                    u <= v2
                });
                if best1 && best2 {
                    let e = MixedEquilibrium {
                        strategies: [x, y],
                        values: [v1, v2],
                    };
                    if !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
    }
    Ok(out)
}
