//! The exact sequence-form linear program of a two-player zero-sum game (Koller, Megiddo and von
//! Stengel 1996), solved by a dense two-phase simplex with Bland's rule over exact rationals.
//!
//! Hand-written: the value must come out exactly (Kuhn poker's −1/18), and the maintained pure-Rust LP
//! solvers that build for wasm32 (`minilp`/`microlp` behind `good_lp`) work in `f64`. The program is
//! small for small games (a row per sequence of one player, a column per sequence of the other) but the
//! dense rational tableau grows fast: [`solve`] refuses games with more than
//! [`MAX_SEQUENCES`] sequences of one player (use CFR+ there).
//!
//! The same simplex runs first in `f64` ([`float_basis`]: the same phases and Bland's rule, with a
//! tolerance), which names the optimal basis; its primal and dual solutions, read back as rationals
//! of small denominators, are then *verified exactly* ([`verified_vertex`]: `m z = b`, `z ≥ 0`, the
//! duals price the basic columns at their costs and no column above). A verified vertex is optimal,
//! and it is the vertex the exact simplex ends at whenever the float run took the same pivots (on every
//! shipped game: `lp::tests`). When anything does not verify, the exact simplex runs as before, so the
//! answer is always exact; the float run only saves the rational pivots (3 s → under 0.1 s on a
//! 3-card Goofspiel of 114 information sets).
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
/// infeasible or unbounded. The float run's vertex when it verifies exactly, else the exact simplex.
/// `float_first: false` runs the exact simplex alone ([`solve_exact`]).
fn simplex(m: &[Vec<Q>], b: &[Q], c: &[Q], float_first: bool) -> Option<(Q, Vec<Q>)> {
    if float_first {
        if let Some(found) = float_basis(m, b, c).and_then(|f| verified_vertex(m, b, c, &f)) {
            return Some(found);
        }
    }
    simplex_exact(m, b, c)
}

/// What the float simplex ends with: the rows it kept (the others were redundant), the basic
/// column of each kept row, the primal values of the columns and the duals of the kept rows.
struct FloatVertex {
    rows: Vec<usize>,
    basis: Vec<usize>,
    z: Vec<f64>,
    y: Vec<f64>,
}

/// Pivot tolerance of the float run: smaller entries count as zero.
const EPS: f64 = 1e-9;
/// The largest denominator a float value is read back with (a larger one falls back to the exact
/// simplex).
const MAX_DENOMINATOR: i64 = 1 << 24;

/// [`simplex_exact`] in `f64`: the same tableau, phases, artificial removal and Bland's rule, with
/// [`EPS`] as zero. `None` when it finds the program infeasible or unbounded (the exact run decides).
fn float_basis(m: &[Vec<Q>], b: &[Q], c: &[Q]) -> Option<FloatVertex> {
    use num_traits::ToPrimitive;
    let f = |q: &Q| q.to_f64().filter(|v| v.is_finite());
    let rows = m.len();
    let n = c.len();
    let width = n + rows + 1;
    let mut tab: Vec<Vec<f64>> = Vec::with_capacity(rows);
    for r in 0..rows {
        let mut row = vec![0.0; width];
        for (v, q) in row.iter_mut().zip(&m[r]) {
            *v = f(q)?;
        }
        row[n + r] = 1.0;
        row[width - 1] = f(&b[r])?;
        tab.push(row);
    }
    let mut basis: Vec<usize> = (n..n + rows).collect();
    let mut kept: Vec<usize> = (0..rows).collect();
    let mut cost1 = vec![0.0; width - 1];
    for v in cost1.iter_mut().skip(n) {
        *v = -1.0;
    }
    run_f64(&mut tab, &mut basis, &cost1, width - 1)?;
    if basis
        .iter()
        .enumerate()
        .any(|(r, &j)| j >= n && tab[r][width - 1].abs() > EPS)
    {
        return None;
    }
    let mut r = 0;
    while r < tab.len() {
        if basis[r] >= n {
            match (0..n).find(|&j| tab[r][j].abs() > EPS) {
                Some(j) => pivot_f64(&mut tab, &mut basis, r, j),
                None => {
                    tab.remove(r);
                    basis.remove(r);
                    kept.remove(r);
                    continue;
                }
            }
        }
        r += 1;
    }
    let mut cost2 = vec![0.0; width - 1];
    for (v, q) in cost2.iter_mut().zip(c) {
        *v = f(q)?;
    }
    run_f64(&mut tab, &mut basis, &cost2, n)?;
    let mut z = vec![0.0; n];
    for (r, &j) in basis.iter().enumerate() {
        z[j] = tab[r][width - 1];
    }
    // the duals solve yᵀ B = c_B over the kept rows (B: the basic columns of the original rows)
    let k = kept.len();
    let mut a: Vec<Vec<f64>> = (0..k)
        .map(|i| {
            let j = basis[i];
            let mut row: Vec<f64> = kept.iter().map(|&r| f(&m[r][j]).unwrap_or(0.0)).collect();
            row.push(cost2[j]);
            row
        })
        .collect();
    let y = gauss_f64(&mut a)?;
    Some(FloatVertex {
        rows: kept,
        basis,
        z,
        y,
    })
}

/// Solves the square system whose rows are `a`'s (the right-hand side last) by Gaussian
/// elimination with partial pivoting. `None` when singular.
fn gauss_f64(a: &mut [Vec<f64>]) -> Option<Vec<f64>> {
    let k = a.len();
    for col in 0..k {
        let p = (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[p][col].abs() < EPS {
            return None;
        }
        a.swap(col, p);
        let pr = a[col].clone();
        for row in a.iter_mut().skip(col + 1) {
            let f = row[col] / pr[col];
            if f != 0.0 {
                for (v, pv) in row.iter_mut().zip(&pr).skip(col) {
                    *v -= f * pv;
                }
            }
        }
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        let s: f64 = (i + 1..k).map(|j| a[i][j] * x[j]).sum();
        x[i] = (a[i][k] - s) / a[i][i];
    }
    Some(x)
}

fn pivot_f64(tab: &mut [Vec<f64>], basis: &mut [usize], r: usize, j: usize) {
    let p = tab[r][j];
    for v in tab[r].iter_mut() {
        *v /= p;
    }
    let prow = tab[r].clone();
    for (i, row) in tab.iter_mut().enumerate() {
        if i == r || row[j] == 0.0 {
            continue;
        }
        let f = row[j];
        for (v, pv) in row.iter_mut().zip(&prow) {
            if *pv != 0.0 {
                *v -= f * pv;
            }
        }
        row[j] = 0.0;
    }
    basis[r] = j;
}

/// [`run`] in `f64`.
fn run_f64(tab: &mut [Vec<f64>], basis: &mut [usize], cost: &[f64], cols: usize) -> Option<()> {
    let rhs = tab.first().map(|r| r.len() - 1).unwrap_or(0);
    let mut reduced: Vec<f64> = (0..cols)
        .map(|j| {
            cost[j]
                - basis
                    .iter()
                    .enumerate()
                    .map(|(r, &bj)| cost[bj] * tab[r][j])
                    .sum::<f64>()
        })
        .collect();
    // a guard against cycling through the tolerance (Bland's rule does not cycle in exact arithmetic)
    let mut pivots = 0usize;
    let limit = 50 * (tab.len() + cols) + 1000;
    loop {
        let entering = (0..cols).find(|&j| reduced[j] > EPS);
        let Some(j) = entering else { return Some(()) };
        let mut leave: Option<(usize, f64)> = None;
        for (r, row) in tab.iter().enumerate() {
            if row[j] > EPS {
                let ratio = row[rhs] / row[j];
                let better = match leave {
                    None => true,
                    Some((lr, lq)) => {
                        ratio < lq - EPS || ((ratio - lq).abs() <= EPS && basis[r] < basis[lr])
                    }
                };
                if better {
                    leave = Some((r, ratio));
                }
            }
        }
        let (r, _) = leave?;
        pivot_f64(tab, basis, r, j);
        let f = reduced[j];
        for (v, pv) in reduced.iter_mut().zip(&tab[r][..cols]) {
            *v -= f * pv;
        }
        reduced[j] = 0.0;
        pivots += 1;
        if pivots > limit {
            return None;
        }
    }
}

/// The rational of denominator at most [`MAX_DENOMINATOR`] nearest to `x` (continued fractions),
/// when it is within 1e-10 of `x` (relative for large `x`): the smallest such denominator, so a
/// value computed with float noise comes back as the small fraction it is.
fn rational_near(x: f64) -> Option<Q> {
    use num_bigint::BigInt;
    if !x.is_finite() || x.abs() > 1e12 {
        return None;
    }
    let tol = 1e-10 * x.abs().max(1.0);
    let (mut h0, mut h1, mut k0, mut k1) = (0i64, 1i64, 1i64, 0i64);
    let mut v = x;
    for _ in 0..64 {
        let a = v.floor();
        let ai = a as i64;
        let (h2, k2) = (
            ai.checked_mul(h1)?.checked_add(h0)?,
            ai.checked_mul(k1)?.checked_add(k0)?,
        );
        if k2 > MAX_DENOMINATOR {
            return None;
        }
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        if (h1 as f64 / k1 as f64 - x).abs() <= tol {
            return Some(Q::new(BigInt::from(h1), BigInt::from(k1)));
        }
        let frac = v - a;
        if frac.abs() < 1e-15 {
            break;
        }
        v = 1.0 / frac;
    }
    None
}

/// The float run's vertex, read back as rationals and checked exactly: primal feasible
/// (`m z = b` on every row, the dropped ones too, and `z ≥ 0`, zero off the basis) and dual
/// feasible (the duals `y` of the kept rows price every basic column at its cost and no column
/// above its cost). Such a vertex is optimal; `None` when a check fails.
fn verified_vertex(m: &[Vec<Q>], b: &[Q], c: &[Q], v: &FloatVertex) -> Option<(Q, Vec<Q>)> {
    let n = c.len();
    let mut z = vec![Q::zero(); n];
    for &j in &v.basis {
        z[j] = rational_near(v.z[j])?;
        if z[j].is_negative() {
            return None;
        }
    }
    for (row, rhs) in m.iter().zip(b) {
        let lhs = v
            .basis
            .iter()
            .filter(|&&j| !row[j].is_zero() && !z[j].is_zero())
            .fold(Q::zero(), |acc, &j| acc + &row[j] * &z[j]);
        if lhs != *rhs {
            return None;
        }
    }
    let y: Vec<Q> =
        v.y.iter()
            .map(|&x| rational_near(x))
            .collect::<Option<_>>()?;
    let mut is_basic = vec![false; n];
    for &j in &v.basis {
        is_basic[j] = true;
    }
    for j in 0..n {
        let price = v
            .rows
            .iter()
            .zip(&y)
            .filter(|(&r, yr)| !m[r][j].is_zero() && !yr.is_zero())
            .fold(Q::zero(), |acc, (&r, yr)| acc + &m[r][j] * yr);
        let ok = if is_basic[j] {
            price == c[j]
        } else {
            price >= c[j]
        };
        if !ok {
            return None;
        }
    }
    let value = c.iter().zip(&z).fold(Q::zero(), |a, (x, y)| a + x * y);
    Some((value, z))
}

/// The exact two-phase simplex over rationals (Bland's rule): [`simplex`]'s fallback.
fn simplex_exact(m: &[Vec<Q>], b: &[Q], c: &[Q]) -> Option<(Q, Vec<Q>)> {
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
    float_first: bool,
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
    let (v, z) = simplex(&m, &b, &c, float_first)?;
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
    solve_with(t, true)
}

/// [`solve`] by the exact simplex alone, without the float run first: the same answer, slower
/// (the tests compare the two).
pub fn solve_exact(t: &Tree) -> Result<LpSolution, AnalysisError> {
    solve_with(t, false)
}

fn solve_with(t: &Tree, float_first: bool) -> Result<LpSolution, AnalysisError> {
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
    let (v1, x) = solve_side(
        &sf.a,
        &sf.sets[0],
        &sf.sets[1],
        sf.seqs[0],
        sf.seqs[1],
        float_first,
    )
    .ok_or_else(failed)?;
    // the second player: payoffs −Aᵀ
    let at: Vec<Vec<Q>> = (0..sf.seqs[1])
        .map(|s2| (0..sf.seqs[0]).map(|s1| -sf.a[s1][s2].clone()).collect())
        .collect();
    let (v2, y) = solve_side(
        &at,
        &sf.sets[1],
        &sf.sets[0],
        sf.seqs[1],
        sf.seqs[0],
        float_first,
    )
    .ok_or_else(failed)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    /// `max 3 z0 + 2 z1` subject to `z0 + z1 + z2 = 4`, `z0 + 3 z1 + z3 = 6`: `z0 = 4`, value 12.
    fn small_program() -> (Vec<Vec<Q>>, Vec<Q>, Vec<Q>) {
        let m = vec![
            vec![q(1, 1), q(1, 1), q(1, 1), q(0, 1)],
            vec![q(1, 1), q(3, 1), q(0, 1), q(1, 1)],
        ];
        let b = vec![q(4, 1), q(6, 1)];
        let c = vec![q(3, 1), q(2, 1), q(0, 1), q(0, 1)];
        (m, b, c)
    }

    /// A small program solved both ways gives the same vertex.
    #[test]
    fn float_first_finds_the_exact_vertex() {
        let (m, b, c) = small_program();
        let f = float_basis(&m, &b, &c).expect("the float run ends");
        let fast = verified_vertex(&m, &b, &c, &f).expect("its vertex verifies");
        assert_eq!(fast, simplex_exact(&m, &b, &c).unwrap());
        assert_eq!(fast.0, q(12, 1));
    }

    /// A vertex whose values need a denominator above `MAX_DENOMINATOR` is not read back from
    /// floats: the exact simplex answers, exactly.
    #[test]
    fn large_denominators_fall_back_to_the_exact_simplex() {
        let big = (1i64 << 25) + 1;
        // max z0 subject to big z0 + z1 = 1: z0 = 1 / big
        let m = vec![vec![q(big, 1), q(1, 1)]];
        let b = vec![q(1, 1)];
        let c = vec![q(1, 1), q(0, 1)];
        let f = float_basis(&m, &b, &c).expect("the float run ends");
        assert!(verified_vertex(&m, &b, &c, &f).is_none());
        let (v, z) = simplex(&m, &b, &c, true).unwrap();
        assert_eq!(v, q(1, big));
        assert_eq!(z, vec![q(1, big), q(0, 1)]);
    }

    /// A vertex that is feasible but not optimal (its duals price a column below its cost) is
    /// refused by the exact check.
    #[test]
    fn a_suboptimal_vertex_does_not_verify() {
        let (m, b, c) = small_program();
        // the slack basis: z2 = 4, z3 = 6, duals 0: column 0 priced 0 < 3
        let v = FloatVertex {
            rows: vec![0, 1],
            basis: vec![2, 3],
            z: vec![0.0, 0.0, 4.0, 6.0],
            y: vec![0.0, 0.0],
        };
        assert!(verified_vertex(&m, &b, &c, &v).is_none());
        // an infeasible one (z2 = 5 breaks the first row) neither
        let v = FloatVertex {
            rows: vec![0, 1],
            basis: vec![0, 3],
            z: vec![5.0, 0.0, 0.0, 2.0],
            y: vec![3.0, 0.0],
        };
        assert!(verified_vertex(&m, &b, &c, &v).is_none());
    }

    #[test]
    fn rationals_read_back_from_floats() {
        assert_eq!(rational_near(-1.0 / 18.0), Some(q(-1, 18)));
        assert_eq!(rational_near(0.0), Some(q(0, 1)));
        assert_eq!(rational_near(2.0 / 3.0 + 1e-13), Some(q(2, 3)));
        assert_ne!(rational_near(1.0 / 3.0 + 1e-6), Some(q(1, 3)));
        assert_eq!(rational_near(1e13), None);
        assert_eq!(rational_near(f64::NAN), None);
    }
}
