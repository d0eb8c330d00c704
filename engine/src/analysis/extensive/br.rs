//! Best responses and NashConv. A player's best response to the others' behavioural strategies
//! chooses at each of its information sets the action with the highest expected payoff, weighting
//! each node by the probability that chance and the other players reach it (perfect recall makes the
//! choice per information set well defined). NashConv is the sum over players of what a best
//! response gains over the profile; it is 0 exactly at a Nash equilibrium; in a two-player zero-sum
//! game the exploitability is NashConv / 2.

use super::cfr::{Flat, Profile};

/// A best response of one player and its value.
#[derive(Clone, Debug)]
pub struct BestResponse {
    pub player: usize,
    /// The player's expected payoff when it best responds.
    pub value: f64,
    /// The chosen action per information set of the player (`None` for other players' sets).
    pub choice: Vec<Option<usize>>,
}

struct Br<'a> {
    f: &'a Flat,
    profile: &'a Profile,
    player: usize,
    reach: Vec<f64>,
    value: Vec<Option<f64>>,
    choice: Vec<Option<usize>>,
}

impl Br<'_> {
    fn node(&mut self, n: u32) -> f64 {
        if let Some(v) = self.value[n as usize] {
            return v;
        }
        let f = self.f;
        let v = if f.is_terminal(n) {
            f.payoffs(n)[self.player]
        } else if f.is_chance(n) {
            let mut v = 0.0;
            for (c, p) in f.children(n).iter().zip(f.probs(n)) {
                v += p * self.node(*c);
            }
            v
        } else if f.player(n) != self.player {
            let s = &self.profile[f.infoset(n)];
            let mut v = 0.0;
            for (c, p) in f.children(n).iter().zip(s) {
                if *p > 0.0 {
                    v += p * self.node(*c);
                }
            }
            v
        } else {
            let a = self.best(f.infoset(n));
            self.node(f.children(n)[a])
        };
        self.value[n as usize] = Some(v);
        v
    }

    fn best(&mut self, is: usize) -> usize {
        if let Some(a) = self.choice[is] {
            return a;
        }
        let f = self.f;
        let k = f.actions[is];
        let mut totals = vec![0.0; k];
        for &n in &f.members[is] {
            let w = self.reach[n as usize];
            for (a, c) in f.children(n).iter().enumerate() {
                totals[a] += w * self.node(*c);
            }
        }
        let mut best = 0;
        for a in 1..k {
            if totals[a] > totals[best] + 1e-12 {
                best = a;
            }
        }
        self.choice[is] = Some(best);
        best
    }
}

/// `player`'s best response to `profile` (the other players' parts of it).
pub fn best_response(f: &Flat, profile: &Profile, player: usize) -> BestResponse {
    // the reach probability of every node by chance and the other players
    let mut reach = vec![0.0; f.nodes()];
    let mut stack = vec![(f.root, 1.0f64)];
    while let Some((n, w)) = stack.pop() {
        reach[n as usize] = w;
        if f.is_terminal(n) {
            continue;
        }
        if f.is_chance(n) {
            for (c, p) in f.children(n).iter().zip(f.probs(n)) {
                stack.push((*c, w * p));
            }
        } else if f.player(n) == player {
            for c in f.children(n) {
                stack.push((*c, w));
            }
        } else {
            let s = &profile[f.infoset(n)];
            for (c, p) in f.children(n).iter().zip(s) {
                stack.push((*c, w * p));
            }
        }
    }
    let mut br = Br {
        f,
        profile,
        player,
        reach,
        value: vec![None; f.nodes()],
        choice: vec![None; f.infosets()],
    };
    let value = br.node(f.root);
    // a choice at every information set of the player, reached or not
    for is in 0..f.infosets() {
        if f.owner[is] == player {
            br.best(is);
        }
    }
    BestResponse {
        player,
        value,
        choice: br.choice,
    }
}

/// NashConv of `profile`: Σ over players of (best-response value − the profile's value), and the
/// per-player gains.
pub fn nash_conv(f: &Flat, profile: &Profile) -> (f64, Vec<f64>) {
    let values = f.expected(profile);
    let gains: Vec<f64> = (0..f.players)
        .map(|p| (best_response(f, profile, p).value - values[p]).max(0.0))
        .collect();
    (gains.iter().sum(), gains)
}
