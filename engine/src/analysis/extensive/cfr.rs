//! CFR+ (Tammelin 2014): alternating updates, regrets floored at zero, the average strategy weighted
//! linearly by iteration. For any number of players; in two-player zero-sum games the average
//! profile converges to a Nash equilibrium (NashConv → 0, checked by [`super::br::nash_conv`]); in
//! other games it is a heuristic and its NashConv says how far it is from one.
//!
//! The tree is first flattened to `f64` arrays ([`Flat`]); a [`Cfr`] solver runs iterations on it
//! and can be stopped and resumed at any iteration (the CLI's progress bar, the playground's Stop).

use super::{q_to_f64, Node, Tree};

/// A behavioural profile: for each information set, its actions' probabilities.
pub type Profile = Vec<Vec<f64>>;

/// The tree in flat `f64` arrays.
#[derive(Clone, Debug)]
pub struct Flat {
    pub players: usize,
    /// Per node: `kind` 0 terminal, 1 chance, 2 decision.
    kind: Vec<u8>,
    /// Per node: the player (decision) .
    player: Vec<u32>,
    /// Per node: the information set (decision) or the terminal's payoff row.
    info: Vec<u32>,
    /// Per node: its children `children[start..start + len]`.
    start: Vec<u32>,
    len: Vec<u32>,
    children: Vec<u32>,
    /// Chance probabilities, aligned with `children`.
    prob: Vec<f64>,
    /// Terminal payoffs, `players` per row.
    payoffs: Vec<f64>,
    pub root: u32,
    /// Per information set: its first action's index in the action arrays, and its player.
    pub offset: Vec<usize>,
    pub actions: Vec<usize>,
    pub owner: Vec<usize>,
    /// Per information set, its nodes.
    pub members: Vec<Vec<u32>>,
}

impl Flat {
    pub fn new(t: &Tree) -> Flat {
        let n = t.nodes.len();
        let mut f = Flat {
            players: t.players.len(),
            kind: Vec::with_capacity(n),
            player: Vec::with_capacity(n),
            info: Vec::with_capacity(n),
            start: Vec::with_capacity(n),
            len: Vec::with_capacity(n),
            children: Vec::new(),
            prob: Vec::new(),
            payoffs: Vec::new(),
            root: t.root as u32,
            offset: Vec::with_capacity(t.infosets.len()),
            actions: Vec::with_capacity(t.infosets.len()),
            owner: Vec::with_capacity(t.infosets.len()),
            members: t
                .infosets
                .iter()
                .map(|i| i.nodes.iter().map(|&x| x as u32).collect())
                .collect(),
        };
        let mut total = 0;
        for is in &t.infosets {
            f.offset.push(total);
            f.actions.push(is.actions.len());
            f.owner.push(is.player);
            total += is.actions.len();
        }
        for node in &t.nodes {
            f.start.push(f.children.len() as u32);
            match node {
                Node::Terminal { payoffs } => {
                    f.kind.push(0);
                    f.player.push(0);
                    f.info.push((f.payoffs.len() / f.players.max(1)) as u32);
                    f.payoffs.extend(payoffs.iter().map(q_to_f64));
                    f.len.push(0);
                }
                Node::Chance { outcomes, .. } => {
                    f.kind.push(1);
                    f.player.push(0);
                    f.info.push(0);
                    for (_, q, c) in outcomes {
                        f.children.push(*c as u32);
                        f.prob.push(q_to_f64(q));
                    }
                    f.len.push(outcomes.len() as u32);
                }
                Node::Decision {
                    player,
                    infoset,
                    children,
                } => {
                    f.kind.push(2);
                    f.player.push(*player as u32);
                    f.info.push(*infoset as u32);
                    for c in children {
                        f.children.push(*c as u32);
                        f.prob.push(0.0);
                    }
                    f.len.push(children.len() as u32);
                }
            }
        }
        f
    }

    pub fn nodes(&self) -> usize {
        self.kind.len()
    }
    pub fn infosets(&self) -> usize {
        self.offset.len()
    }
    pub fn is_terminal(&self, n: u32) -> bool {
        self.kind[n as usize] == 0
    }
    pub fn is_chance(&self, n: u32) -> bool {
        self.kind[n as usize] == 1
    }
    /// The information set of a decision node.
    pub fn infoset(&self, n: u32) -> usize {
        self.info[n as usize] as usize
    }
    pub fn player(&self, n: u32) -> usize {
        self.player[n as usize] as usize
    }
    pub fn children(&self, n: u32) -> &[u32] {
        let s = self.start[n as usize] as usize;
        &self.children[s..s + self.len[n as usize] as usize]
    }
    /// A chance node's probabilities, aligned with [`Flat::children`].
    pub fn probs(&self, n: u32) -> &[f64] {
        let s = self.start[n as usize] as usize;
        &self.prob[s..s + self.len[n as usize] as usize]
    }
    pub fn payoffs(&self, n: u32) -> &[f64] {
        let r = self.info[n as usize] as usize * self.players;
        &self.payoffs[r..r + self.players]
    }

    /// The uniform profile.
    pub fn uniform(&self) -> Profile {
        self.actions
            .iter()
            .map(|&k| vec![1.0 / k as f64; k])
            .collect()
    }

    /// Each player's expected payoff under `profile`.
    pub fn expected(&self, profile: &Profile) -> Vec<f64> {
        let mut out = vec![0.0; self.players];
        let mut stack = vec![(self.root, 1.0f64)];
        while let Some((n, w)) = stack.pop() {
            match self.kind[n as usize] {
                0 => {
                    for (o, p) in out.iter_mut().zip(self.payoffs(n)) {
                        *o += w * p;
                    }
                }
                1 => {
                    for (c, p) in self.children(n).iter().zip(self.probs(n)) {
                        stack.push((*c, w * p));
                    }
                }
                _ => {
                    let s = &profile[self.infoset(n)];
                    for (c, p) in self.children(n).iter().zip(s) {
                        if *p > 0.0 {
                            stack.push((*c, w * p));
                        }
                    }
                }
            }
        }
        out
    }
}

/// The numbers of a [`Cfr`] between steps (regrets, strategy sums, the iteration count).
#[derive(Clone, Debug)]
pub struct CfrState {
    regret: Vec<f64>,
    delta: Vec<f64>,
    strategy_sum: Vec<f64>,
    current: Vec<f64>,
    iterations: u64,
}

/// A CFR+ solver over a flattened tree.
pub struct Cfr<'a> {
    flat: &'a Flat,
    regret: Vec<f64>,
    delta: Vec<f64>,
    strategy_sum: Vec<f64>,
    /// The current strategy (regret matching+ of `regret`).
    current: Vec<f64>,
    iterations: u64,
}

impl<'a> Cfr<'a> {
    pub fn new(flat: &'a Flat) -> Cfr<'a> {
        let total: usize = flat.actions.iter().sum();
        let mut c = Cfr {
            flat,
            regret: vec![0.0; total],
            delta: vec![0.0; total],
            strategy_sum: vec![0.0; total],
            current: vec![0.0; total],
            iterations: 0,
        };
        for i in 0..flat.infosets() {
            c.match_regrets(i);
        }
        c
    }

    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// A solver that goes on from `state` (from [`Cfr::into_state`] over the same `flat`): a caller
    /// that owns the tree keeps the state between steps (the playground's Analyse panel).
    pub fn resume(flat: &'a Flat, state: CfrState) -> Cfr<'a> {
        let CfrState {
            regret,
            delta,
            strategy_sum,
            current,
            iterations,
        } = state;
        Cfr {
            flat,
            regret,
            delta,
            strategy_sum,
            current,
            iterations,
        }
    }

    /// The solver's state without the tree it borrows.
    pub fn into_state(self) -> CfrState {
        CfrState {
            regret: self.regret,
            delta: self.delta,
            strategy_sum: self.strategy_sum,
            current: self.current,
            iterations: self.iterations,
        }
    }

    fn match_regrets(&mut self, infoset: usize) {
        let (o, k) = (self.flat.offset[infoset], self.flat.actions[infoset]);
        let sum: f64 = self.regret[o..o + k].iter().map(|r| r.max(0.0)).sum();
        for a in 0..k {
            self.current[o + a] = if sum > 0.0 {
                self.regret[o + a].max(0.0) / sum
            } else {
                1.0 / k as f64
            };
        }
    }

    /// Runs `n` more iterations (each: one traversal per player).
    pub fn run(&mut self, n: u64) {
        let mut scratch = Vec::new();
        for _ in 0..n {
            self.iterations += 1;
            let t = self.iterations as f64;
            for i in 0..self.flat.players {
                self.walk(self.flat.root, i, 1.0, 1.0, t, &mut scratch);
                for is in 0..self.flat.infosets() {
                    if self.flat.owner[is] != i {
                        continue;
                    }
                    let (o, k) = (self.flat.offset[is], self.flat.actions[is]);
                    for a in o..o + k {
                        self.regret[a] = (self.regret[a] + self.delta[a]).max(0.0);
                        self.delta[a] = 0.0;
                    }
                    self.match_regrets(is);
                }
            }
        }
    }

    /// Player `i`'s value of the subtree at `n` under the current strategies.
    fn walk(
        &mut self,
        n: u32,
        i: usize,
        pi_i: f64,
        pi_o: f64,
        t: f64,
        scratch: &mut Vec<f64>,
    ) -> f64 {
        let f = self.flat;
        match f.kind[n as usize] {
            0 => f.payoffs(n)[i],
            1 => {
                let mut v = 0.0;
                for (c, p) in f.children(n).iter().zip(f.probs(n)) {
                    v += p * self.walk(*c, i, pi_i, pi_o * p, t, scratch);
                }
                v
            }
            _ => {
                let is = f.infoset(n);
                let (o, k) = (f.offset[is], f.actions[is]);
                let kids = f.children(n);
                if pi_o == 0.0 {
                    // the others never play here now: no regret below, only player `i`'s
                    // strategy weights (the value is multiplied by 0 above)
                    if pi_i > 0.0 {
                        self.weigh(n, i, pi_i, t);
                    }
                    return 0.0;
                }
                if f.player(n) != i {
                    // every action, also one the opponents never play now: player `i`'s average
                    // strategy below it is weighted by `i`'s own reach only (Zinkevich et al.), and
                    // a best response of an opponent may go there (skipping it froze that average
                    // at its early iterations: NashConv stalled at 0.5 on a centipede game)
                    let mut v = 0.0;
                    for (a, c) in kids.iter().enumerate() {
                        let s = self.current[o + a];
                        let va = self.walk(*c, i, pi_i, pi_o * s, t, scratch);
                        v += s * va;
                    }
                    return v;
                }
                let base = scratch.len();
                scratch.resize(base + k, 0.0);
                let mut v = 0.0;
                for (a, c) in kids.iter().enumerate() {
                    let s = self.current[o + a];
                    let va = self.walk(*c, i, pi_i * s, pi_o, t, scratch);
                    scratch[base + a] = va;
                    v += s * va;
                }
                for a in 0..k {
                    self.delta[o + a] += pi_o * (scratch[base + a] - v);
                    self.strategy_sum[o + a] += t * pi_i * self.current[o + a];
                }
                scratch.truncate(base);
                v
            }
        }
    }

    /// [`Cfr::walk`] below a node the others reach with probability 0: only the strategy sums of
    /// player `i`'s information sets, weighted by `i`'s own reach `pi_i`.
    fn weigh(&mut self, n: u32, i: usize, pi_i: f64, t: f64) {
        let f = self.flat;
        match f.kind[n as usize] {
            0 => {}
            1 => {
                for c in f.children(n) {
                    self.weigh(*c, i, pi_i, t);
                }
            }
            _ => {
                let o = f.offset[f.infoset(n)];
                let mine = f.player(n) == i;
                for (a, c) in f.children(n).iter().enumerate() {
                    if mine {
                        let s = self.current[o + a];
                        self.strategy_sum[o + a] += t * pi_i * s;
                        if s > 0.0 {
                            self.weigh(*c, i, pi_i * s, t);
                        }
                    } else {
                        self.weigh(*c, i, pi_i, t);
                    }
                }
            }
        }
    }

    /// The average strategy (uniform at an information set never reached).
    pub fn average(&self) -> Profile {
        average_of(self.flat, &self.strategy_sum)
    }
}

impl CfrState {
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [`Cfr::average`] of the solver this state came from (over the same `flat`).
    pub fn average(&self, flat: &Flat) -> Profile {
        average_of(flat, &self.strategy_sum)
    }
}

fn average_of(f: &Flat, strategy_sum: &[f64]) -> Profile {
    (0..f.infosets())
        .map(|is| {
            let (o, k) = (f.offset[is], f.actions[is]);
            let sum: f64 = strategy_sum[o..o + k].iter().sum();
            (0..k)
                .map(|a| {
                    if sum > 0.0 {
                        strategy_sum[o + a] / sum
                    } else {
                        1.0 / k as f64
                    }
                })
                .collect()
        })
        .collect()
}
