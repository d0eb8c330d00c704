//! The exact sequence-form linear program of a two-player zero-sum game (Koller, Megiddo and von
//! Stengel 1996), solved by a dense two-phase simplex with Bland's rule over exact rationals.
//!
//! Hand-written: the value must come out exactly (Kuhn poker's −1/18), and the maintained pure-Rust LP
//! solvers that build for wasm32 (`minilp`/`microlp` behind `good_lp`) work in `f64`. The program is
//! small for small games (a row per sequence of one player, a column per sequence of the other) but the
//! dense rational tableau grows fast: [`solve`] refuses games with more than
//! [`MAX_SEQUENCES`] sequences of one player (use CFR+ there).
//!
//! Player 1 (index 0) with realization plan `x` (`E x = e, x ≥ 0`) maximises `min_y xᵀ A y` over the
//! second player's plans `y` (`F y = f, y ≥ 0`); by duality that is `max f·q` subject to
//! `Fᵀ q − Aᵀ x ≤ 0`, `E x = e`, `x ≥ 0`, `q` free. The second player's plan comes from the same
//! program with the roles exchanged (payoffs `−Aᵀ`).

use super::{AnalysisError, Node, Tree, Q};
use crate::solve::errors::codes;
use num_traits::{One, Signed, Zero};

/// The most sequences of one player [`solve`] takes on.
pub const MAX_SEQUENCES: usize = 400;

/// The sequence form of a two-player game.
struct SequenceForm {
    /// Per player: the number of sequences (0 is the empty sequence).
    seqs: [usize; 2],
    /// Per player: for each of its information sets (local order), the parent sequence and the first
    /// sequence of its actions.
    sets: [Vec<(usize, usize, usize)>; 2],
    /// Per player: the tree's information set → local index.
    local: Vec<Option<usize>>,
    /// `a[s1][s2]`: player 1's expected payoff of the leaves with those sequences (chance included).
    a: Vec<Vec<Q>>,
}

fn sequence_form(t: &Tree) -> SequenceForm {
    let mut seqs = [1usize, 1usize];
    let mut sets: [Vec<(usize, usize, usize)>; 2] = [Vec::new(), Vec::new()];
    let mut local = vec![None; t.infosets.len()];
    // first sequence of each information set's actions, by its parent sequence (found on the way down)
    let mut first: Vec<Option<usize>> = vec![None; t.infosets.len()];
    let mut leaves: Vec<(usize, usize, Q, Q)> = Vec::new();
    let mut stack = vec![(t.root, 0usize, 0usize, Q::one())];
    while let Some((id, s1, s2, w)) = stack.pop() {
        match &t.nodes[id] {
            Node::Terminal { payoffs } => {
                leaves.push((s1, s2, w, payoffs[0].clone()));
            }
            Node::Chance { outcomes, .. } => {
                for (_, q, c) in outcomes {
                    stack.push((*c, s1, s2, &w * q));
                }
            }
            Node::Decision {
                player,
                infoset,
                children,
            } => {
                let p = *player;
                let parent = if p == 0 { s1 } else { s2 };
                let base = *first[*infoset].get_or_insert_with(|| {
                    let b = seqs[p];
                    seqs[p] += children.len();
                    local[*infoset] = Some(sets[p].len());
                    sets[p].push((parent, b, children.len()));
                    b
                });
                for (k, c) in children.iter().enumerate() {
                    if p == 0 {
                        stack.push((*c, base + k, s2, w.clone()));
                    } else {
                        stack.push((*c, s1, base + k, w.clone()));
                    }
                }
            }
        }
    }
    let mut a = vec![vec![Q::zero(); seqs[1]]; seqs[0]];
    for (s1, s2, w, u) in leaves {
        a[s1][s2] += w * u;
    }
    SequenceForm {
        seqs,
        sets,
        local,
        a,
    }
}

/// `max c·z` subject to `m z = b`, `z ≥ 0` (`b ≥ 0`): the optimum and a solution. `None` when
/// infeasible or unbounded.
fn simplex(m: &[Vec<Q>], b: &[Q], c: &[Q]) -> Option<(Q, Vec<Q>)> {
    let rows = m.len();
    let n = c.len();
    // tableau: n real columns, rows artificial columns, the right-hand side
    let width = n + rows + 1;
    let mut tab: Vec<Vec<Q>> = (0..rows)
        .map(|r| {
            let mut row = vec![Q::zero(); width];
            row[..n].clone_from_slice(&m[r]);
            row[n + r] = Q::one();
            row[width - 1] = b[r].clone();
            row
        })
        .collect();
    let mut basis: Vec<usize> = (n..n + rows).collect();
    // phase 1: maximise −Σ artificials
    let mut cost1 = vec![Q::zero(); width - 1];
    for v in cost1.iter_mut().skip(n) {
        *v = -Q::one();
    }
    run(&mut tab, &mut basis, &cost1, width - 1)?;
    let infeasible = basis
        .iter()
        .enumerate()
        .any(|(r, &j)| j >= n && !tab[r][width - 1].is_zero());
    if infeasible {
        return None;
    }
    // drive artificials out of the basis (or drop their redundant rows)
    let mut r = 0;
    while r < tab.len() {
        if basis[r] >= n {
            match (0..n).find(|&j| !tab[r][j].is_zero()) {
                Some(j) => pivot(&mut tab, &mut basis, r, j),
                None => {
                    tab.remove(r);
                    basis.remove(r);
                    continue;
                }
            }
        }
        r += 1;
    }
    // phase 2 over the real columns
    let mut cost2 = vec![Q::zero(); width - 1];
    cost2[..n].clone_from_slice(c);
    run(&mut tab, &mut basis, &cost2, n)?;
    let mut z = vec![Q::zero(); n];
    for (r, &j) in basis.iter().enumerate() {
        if j < n {
            z[j] = tab[r][width - 1].clone();
        }
    }
    let value = c.iter().zip(&z).fold(Q::zero(), |a, (x, y)| a + x * y);
    Some((value, z))
}

fn pivot(tab: &mut [Vec<Q>], basis: &mut [usize], r: usize, j: usize) {
    let p = tab[r][j].clone();
    for v in tab[r].iter_mut() {
        *v /= &p;
    }
    let prow = tab[r].clone();
    for (i, row) in tab.iter_mut().enumerate() {
        if i == r || row[j].is_zero() {
            continue;
        }
        let f = row[j].clone();
        for (v, pv) in row.iter_mut().zip(&prow) {
            if !pv.is_zero() {
                *v -= &f * pv;
            }
        }
    }
    basis[r] = j;
}

/// Maximises `cost·z` from the current basic feasible solution, entering only columns `< cols`
/// (Bland's rule). `None` when unbounded.
///
/// The reduced costs (`cost_j − Σ_r cost_{basis r} tab[r][j]`) are computed once and then kept as
/// an objective row updated by each pivot, as a textbook tableau does: the same exact values, so
/// the same pivots, for one row operation per pivot instead of a pass over the whole tableau.
fn run(tab: &mut [Vec<Q>], basis: &mut [usize], cost: &[Q], cols: usize) -> Option<()> {
    let rhs = tab.first().map(|r| r.len() - 1).unwrap_or(0);
    let mut reduced: Vec<Q> = (0..cols)
        .map(|j| {
            let mut rc = cost[j].clone();
            for (r, &bj) in basis.iter().enumerate() {
                if !cost[bj].is_zero() && !tab[r][j].is_zero() {
                    rc -= &cost[bj] * &tab[r][j];
                }
            }
            rc
        })
        .collect();
    loop {
        // a basic column's reduced cost is exactly 0
        let entering = (0..cols).find(|&j| reduced[j].is_positive());
        let Some(j) = entering else { return Some(()) };
        let mut leave: Option<(usize, Q)> = None;
        for (r, row) in tab.iter().enumerate() {
            if row[j].is_positive() {
                let ratio = &row[rhs] / &row[j];
                let better = match &leave {
                    None => true,
                    Some((lr, lq)) => ratio < *lq || (ratio == *lq && basis[r] < basis[*lr]),
                };
                if better {
                    leave = Some((r, ratio));
                }
            }
        }
        let (r, _) = leave?;
        pivot(tab, basis, r, j);
        // the pivot row is now normalised (1 at column j): take it out of the objective row
        let f = reduced[j].clone();
        for (v, pv) in reduced.iter_mut().zip(&tab[r][..cols]) {
            if !pv.is_zero() {
                *v -= &f * pv;
            }
        }
    }
}

/// Player `me`'s optimal realization plan and its guaranteed value, with `a` its payoff matrix
/// (`a[my sequence][other's sequence]`).
fn solve_side(
    a: &[Vec<Q>],
    me: &[(usize, usize, usize)],
    other: &[(usize, usize, usize)],
    n_me: usize,
    n_other: usize,
) -> Option<(Q, Vec<Q>)> {
    let rows_f = other.len() + 1; // q has one component per row of F
                                  // columns: x (n_me), q+ (rows_f), q− (rows_f), slacks (n_other)
    let cols = n_me + 2 * rows_f + n_other;
    let mut m: Vec<Vec<Q>> = Vec::new();
    let mut b: Vec<Q> = Vec::new();
    // Fᵀ q − Aᵀ x + s = 0: one row per sequence of the other player
    for s2 in 0..n_other {
        let mut row = vec![Q::zero(); cols];
        for (s1, r) in a.iter().enumerate() {
            row[s1] = -r[s2].clone();
        }
        // F: row 0 is the empty sequence (coefficient 1 at sequence 0); row k+1 is set k:
        // −parent + Σ actions
        let mut add = |fr: usize, v: Q| {
            row[n_me + fr] += v.clone();
            row[n_me + rows_f + fr] -= v;
        };
        if s2 == 0 {
            add(0, Q::one());
        }
        for (k, &(parent, first, len)) in other.iter().enumerate() {
            if parent == s2 {
                add(k + 1, -Q::one());
            }
            if s2 >= first && s2 < first + len {
                add(k + 1, Q::one());
            }
        }
        row[n_me + 2 * rows_f + s2] = Q::one();
        m.push(row);
        b.push(Q::zero());
    }
    // E x = e
    let mut row0 = vec![Q::zero(); cols];
    row0[0] = Q::one();
    m.push(row0);
    b.push(Q::one());
    for &(parent, first, len) in me {
        let mut row = vec![Q::zero(); cols];
        row[parent] = -Q::one();
        for v in &mut row[first..first + len] {
            *v = Q::one();
        }
        m.push(row);
        b.push(Q::zero());
    }
    // maximise f·q = q_0
    let mut c = vec![Q::zero(); cols];
    c[n_me] = Q::one();
    c[n_me + rows_f] = -Q::one();
    let (v, z) = simplex(&m, &b, &c)?;
    Some((v, z[..n_me].to_vec()))
}

/// The exact solution of a two-player zero-sum game.
#[derive(Clone, Debug)]
pub struct LpSolution {
    /// Each player's value (the first player's is minus the second's).
    pub values: [Q; 2],
    /// A behavioural equilibrium profile, exact, per information set of the tree.
    pub profile: Vec<Vec<Q>>,
}

/// Does [`solve`] apply: two players, zero-sum, at most [`MAX_SEQUENCES`] sequences each?
pub fn solve_applies(t: &Tree) -> bool {
    if t.players.len() != 2 || !t.is_zero_sum() {
        return false;
    }
    let mut seqs = [1usize, 1];
    for is in &t.infosets {
        seqs[is.player] += is.actions.len();
    }
    seqs.iter().all(|&n| n <= MAX_SEQUENCES)
}

/// Solves a two-player zero-sum tree exactly.
pub fn solve(t: &Tree) -> Result<LpSolution, AnalysisError> {
    let not =
        |msg: String| AnalysisError::new(codes::SOLVER_NOT_APPLICABLE, "the sequence-form LP", msg);
    if t.players.len() != 2 || !t.is_zero_sum() {
        return Err(not(format!(
            "the exact LP solves two-player zero-sum games; this one has {} players{}: use --method cfr",
            t.players.len(),
            if t.is_zero_sum() { "" } else { " and is not zero-sum" }
        )));
    }
    let sf = sequence_form(t);
    if sf.seqs.iter().any(|&n| n > MAX_SEQUENCES) {
        return Err(not(format!(
            "the exact LP takes at most {MAX_SEQUENCES} sequences per player; this game has {} and {}: use --method cfr",
            sf.seqs[0], sf.seqs[1]
        )));
    }
    let failed = || not("the sequence-form LP has no optimum (this is a bug)".to_string());
    let (v1, x) =
        solve_side(&sf.a, &sf.sets[0], &sf.sets[1], sf.seqs[0], sf.seqs[1]).ok_or_else(failed)?;
    // the second player: payoffs −Aᵀ
    let at: Vec<Vec<Q>> = (0..sf.seqs[1])
        .map(|s2| (0..sf.seqs[0]).map(|s1| -sf.a[s1][s2].clone()).collect())
        .collect();
    let (v2, y) =
        solve_side(&at, &sf.sets[1], &sf.sets[0], sf.seqs[1], sf.seqs[0]).ok_or_else(failed)?;
    let plans = [x, y];
    let profile = t
        .infosets
        .iter()
        .enumerate()
        .map(|(i, is)| {
            let p = is.player;
            let (parent, first, len) = sf.sets[p][sf.local[i].unwrap_or(0)];
            let reach = &plans[p][parent];
            if reach.is_zero() {
                vec![Q::new(1.into(), (len as i64).into()); len]
            } else {
                (first..first + len).map(|s| &plans[p][s] / reach).collect()
            }
        })
        .collect();
    Ok(LpSolution {
        values: [v1, v2],
        profile,
    })
}
