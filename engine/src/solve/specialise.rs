//! Build-time specialisation of meta-calls.
//!
//! A predicate such as `lineon(B, M) :- ..., call(B, I, 1, M), ...` called as `lineon(cell, M)`
//! runs `call/4` on every use: the goal `cell(I, 1, M)` is built on the heap and resolved at run
//! time, and the static analyses (reach, memo, per-state tables) must assume that the call can do
//! anything. When every clause of the callee has a plain variable at an argument position and that
//! variable is used only as the goal of top-level `call/N` goals of the clause body (a *meta
//! position*), a call site that passes an atom `f` (or a compound `f(A1, ..., Ak)`) there can call
//! a copy of the callee in which each `call(B, X1, ..., Xn)` is the direct goal `f(X1, ..., Xn)` (or
//! `f(Y1, ..., Yk, X1, ..., Xn)`, with the head's argument `f(Y1, ..., Yk)` binding the `Yi`).
//!
//! That is exact: `call/N` of a goal that resolves to a user or host predicate runs that
//! predicate's clauses with the same arguments, and a cut inside them is local to them in both
//! cases. Copies are made only when every rewritten goal resolves to a user predicate or a host
//! predicate (not to a control construct, a built-in or nothing, whose `call/N` behaviour may
//! differ in errors or cut scope).
//!
//! The copies keep the callee's name, arity, clause terms and spans, so errors, call paths and
//! profiles name the predicate the user wrote. They are not in [`ProgramData::by_key`]: a goal
//! resolved by name (a meta-call, `Program::pred`) finds the original, and only the rewritten call
//! sites reach the copies.

use super::compile::{count_vars, resolve};
use super::program::{Control, Dispatch, ProgramData};
use super::store::Cell;
use crate::atom::Atom;
use rustc_hash::FxHashMap;

/// At most this many copies are made per program.
const MAX_COPIES: usize = 256;

/// A specialisation: (argument position, functor, number of the functor's arguments) per meta
/// position given a callable at the call site, in position order.
type Spec = Vec<(u32, Atom, u32)>;

/// Rewrites call sites that pass a callable to a meta position (see the module documentation).
/// Appends the copies to `data.preds`; their first-argument indexes must be built afterwards.
pub fn specialise(data: &mut ProgramData) {
    let mut meta: Vec<u64> = data.preds.iter().map(meta_positions).collect();
    let mut copies: FxHashMap<(u32, Spec), Option<u32>> = FxHashMap::default();
    let mut made = 0usize;
    let mut work: Vec<u32> = (0..data.preds.len() as u32).rev().collect();
    while let Some(p) = work.pop() {
        let nclauses = data.preds[p as usize].clauses.len();
        for ci in 0..nclauses {
            let ngoals = data.preds[p as usize].clauses[ci].body.len();
            for gi in 0..ngoals {
                let (q, spec) = {
                    let c = &data.preds[p as usize].clauses[ci];
                    let g = &c.body[gi];
                    let Dispatch::User(q) = g.disp else { continue };
                    let m = meta[q as usize];
                    if m == 0 {
                        continue;
                    }
                    let mut spec = Spec::new();
                    for (j, &a) in g.args.iter().enumerate() {
                        if j >= 64 || m & (1 << j) == 0 {
                            continue;
                        }
                        match a {
                            Cell::Atom(f) => spec.push((j as u32, f, 0)),
                            Cell::Struct(s) => {
                                if let Cell::Functor(f, k) = c.cells[s as usize] {
                                    spec.push((j as u32, f, k));
                                }
                            }
                            _ => {}
                        }
                    }
                    if spec.is_empty() {
                        continue;
                    }
                    (q, spec)
                };
                let key = (q, spec);
                let copy = match copies.get(&key) {
                    Some(&c) => c,
                    None => {
                        let c = if made < MAX_COPIES {
                            make_copy(data, q, &key.1)
                        } else {
                            None
                        };
                        if let Some(c) = c {
                            made += 1;
                            meta.push(meta_positions(&data.preds[c as usize]));
                            work.push(c);
                        }
                        copies.insert(key, c);
                        c
                    }
                };
                if let Some(c) = copy {
                    data.preds[p as usize].clauses[ci].body[gi].disp = Dispatch::User(c);
                }
            }
        }
    }
}

/// The meta positions of a predicate (bit `j` for argument `j`): every clause has a variable there
/// that occurs once in the head and, in the body, only as the goal of top-level `call/N` goals.
fn meta_positions(p: &super::program::Pred) -> u64 {
    if p.clauses.is_empty() || p.arity == 0 {
        return 0;
    }
    let mut out: u64 = if p.arity >= 64 {
        u64::MAX
    } else {
        (1u64 << p.arity) - 1
    };
    for c in &p.clauses {
        let mut head = vec![0u32; c.nvars as usize];
        for &h in c.head_args.iter() {
            count_vars(&c.cells, h, &mut head);
        }
        let mut body = vec![0u32; c.nvars as usize];
        let mut as_goal = vec![0u32; c.nvars as usize];
        for g in c.body.iter() {
            for &a in g.args.iter() {
                count_vars(&c.cells, a, &mut body);
            }
            if let (Dispatch::Control(Control::Call(_)), Some(&Cell::Var(v))) =
                (g.disp, g.args.first())
            {
                if let Some(n) = as_goal.get_mut(v as usize) {
                    *n += 1;
                }
            }
        }
        for (j, &h) in c.head_args.iter().enumerate().take(64) {
            let ok = match h {
                Cell::Var(v) => {
                    let v = v as usize;
                    head[v] == 1 && body[v] == as_goal[v] && as_goal[v] > 0
                }
                _ => false,
            };
            if !ok {
                out &= !(1 << j);
            }
        }
        if out == 0 {
            return 0;
        }
    }
    out
}

/// A copy of predicate `q` with the meta positions of `spec` fixed; `None` if a rewritten goal
/// would not resolve to a user or host predicate.
fn make_copy(data: &mut ProgramData, q: u32, spec: &Spec) -> Option<u32> {
    let mut pred = data.preds[q as usize].clone();
    for c in pred.clauses.iter_mut() {
        let mut cells = c.cells.to_vec();
        let mut ends = c.ends.to_vec();
        let mut head = c.head_args.to_vec();
        let mut nvars = c.nvars;
        // meta variable -> (functor, first fresh variable, k)
        let mut goal_of: Vec<(u32, Atom, u32, u32)> = Vec::new();
        for &(j, f, k) in spec {
            let Cell::Var(v) = head[j as usize] else {
                return None;
            };
            if k == 0 {
                head[j as usize] = Cell::Atom(f);
                goal_of.push((v, f, nvars, 0));
            } else {
                let s = cells.len();
                cells.push(Cell::Functor(f, k));
                cells.extend((0..k).map(|i| Cell::Var(nvars + i)));
                ends.resize(cells.len(), 0);
                ends[s] = cells.len() as u32;
                head[j as usize] = Cell::Struct(s as u32);
                goal_of.push((v, f, nvars, k));
                nvars += k;
            }
        }
        let mut body = c.body.to_vec();
        for g in body.iter_mut() {
            let (Dispatch::Control(Control::Call(n)), Some(&Cell::Var(v))) =
                (g.disp, g.args.first())
            else {
                continue;
            };
            let Some(&(_, f, first, k)) = goal_of.iter().find(|x| x.0 == v) else {
                continue;
            };
            let arity = k + n as u32;
            let disp = resolve(data, f, arity);
            if !matches!(disp, Dispatch::User(_) | Dispatch::Host(_)) {
                return None;
            }
            let args: Vec<Cell> = (0..k)
                .map(|i| Cell::Var(first + i))
                .chain(g.args[1..].iter().copied())
                .collect();
            g.disp = disp;
            g.name = f;
            g.arity = arity;
            g.args = args.into_boxed_slice();
        }
        c.cells = cells.into_boxed_slice();
        c.ends = ends.into_boxed_slice();
        c.head_args = head.into_boxed_slice();
        c.nvars = nvars;
        c.body = body.into_boxed_slice();
    }
    data.preds.push(pred);
    Some((data.preds.len() - 1) as u32)
}
