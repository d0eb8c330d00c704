//! The memoizability pass: what each predicate can reach (host predicates, unknown goals, random
//! numbers), which predicates are recursive, and so which may be memoized by their arguments
//! ([`Pred::memo`](super::program::Pred::memo), [`Pred::reaches`](super::program::Pred::reaches)).

use super::compile::resolve;
use super::program::{ClauseT, Control, Dispatch, ProgramData, REACHES_UNKNOWN};
use crate::atom::{self, Atom};
use crate::solve::store::Cell;

/// What a predicate's clauses call, as far as static analysis can tell.
#[derive(Default)]
struct Calls {
    preds: Vec<u32>,
    /// Reaches host predicates, an unknown goal, or random numbers (bits as in
    /// [`Pred::reaches`](super::program::Pred::reaches)).
    impure: u64,
}

/// The calls of goal template `cell` (a control construct's goals are followed statically).
fn goal_calls(data: &ProgramData, cells: &[Cell], cell: Cell, out: &mut Calls) {
    let mut stack = vec![cell];
    while let Some(c) = stack.pop() {
        let (name, args): (Atom, Vec<Cell>) = match c {
            Cell::Atom(a) => (a, Vec::new()),
            Cell::Struct(p) => match cells[p as usize] {
                Cell::Functor(f, n) => (f, (1..=n).map(|i| cells[(p + i) as usize]).collect()),
                _ => {
                    out.impure |= REACHES_UNKNOWN;
                    continue;
                }
            },
            Cell::List(p) => (atom::DOT, vec![cells[p as usize], cells[p as usize + 1]]),
            _ => {
                out.impure |= REACHES_UNKNOWN;
                continue;
            }
        };
        let disp = resolve(data, name, args.len() as u32);
        call_effects(cells, &args, disp, out, &mut stack);
    }
}

fn call_effects(
    cells: &[Cell],
    args: &[Cell],
    disp: Dispatch,
    out: &mut Calls,
    stack: &mut Vec<Cell>,
) {
    if args.iter().any(|&a| mentions_random(cells, a)) {
        out.impure |= REACHES_UNKNOWN;
    }
    match disp {
        Dispatch::Control(c) => match c {
            Control::Conj
            | Control::Disj
            | Control::IfThen
            | Control::SoftIfThen
            | Control::Not => stack.extend_from_slice(args),
            Control::Call(0) => stack.push(args[0]),
            Control::Findall | Control::Findall4 => stack.push(args[1]),
            Control::Catch => {
                stack.push(args[0]);
                stack.push(args[2]);
            }
            Control::Call(_) => out.impure |= REACHES_UNKNOWN,
            Control::Cut | Control::True | Control::Fail | Control::Throw => {}
        },
        Dispatch::User(q) => out.preds.push(q),
        Dispatch::Native(_) => {}
        Dispatch::Host(id) => out.impure |= 1 << id.min(62),
        Dispatch::Unknown => out.impure |= REACHES_UNKNOWN,
    }
}

/// Does a template term mention a random-number function?
fn mentions_random(cells: &[Cell], c: Cell) -> bool {
    let mut stack = vec![c];
    while let Some(c) = stack.pop() {
        match c {
            Cell::Atom(a) if a.name().starts_with("random") => return true,
            Cell::Struct(p) => {
                if let Cell::Functor(f, n) = cells[p as usize] {
                    if f.name().starts_with("random") {
                        return true;
                    }
                    stack.extend((1..=n).map(|i| cells[(p + i) as usize]));
                }
            }
            Cell::List(p) => {
                stack.push(cells[p as usize]);
                stack.push(cells[p as usize + 1]);
            }
            _ => {}
        }
    }
    false
}

/// The calls of `cl`'s body, added to `c`.
fn clause_calls(data: &ProgramData, cl: &ClauseT, c: &mut Calls) {
    for g in cl.body.iter() {
        let mut stack = Vec::new();
        // a body goal's own dispatch: specialised call sites call their copies
        call_effects(&cl.cells, &g.args, g.disp, c, &mut stack);
        for sub in stack {
            goal_calls(data, &cl.cells, sub, c);
        }
    }
}

/// What clause `cl`'s body can reach, once [`memoizable`]'s `reaches` are in the program (see
/// [`Program::clause_reaches`](super::program::Program::clause_reaches)).
pub(super) fn clause_reaches(data: &ProgramData, cl: &ClauseT) -> u64 {
    let mut c = Calls::default();
    clause_calls(data, cl, &mut c);
    c.preds
        .iter()
        .fold(c.impure, |r, &q| r | data.preds[q as usize].reaches)
}

/// Which predicates may be memoized (see [`Pred::memo`](super::program::Pred::memo)).
pub(super) fn memoizable(data: &ProgramData) -> (Vec<bool>, Vec<u64>, Vec<bool>) {
    let n = data.preds.len();
    let mut calls: Vec<Calls> = Vec::with_capacity(n);
    for p in &data.preds {
        let mut c = Calls::default();
        for cl in &p.clauses {
            clause_calls(data, cl, &mut c);
        }
        calls.push(c);
    }
    // impurity flows from callees to callers
    let mut impure: Vec<u64> = calls.iter().map(|c| c.impure).collect();
    loop {
        let mut changed = false;
        for i in 0..n {
            let r = calls[i]
                .preds
                .iter()
                .fold(impure[i], |r, &q| r | impure[q as usize]);
            if r != impure[i] {
                impure[i] = r;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // recursive predicates (on a cycle of the call graph) are not memoized themselves
    let recursive: Vec<bool> = (0..n)
        .map(|i| {
            let mut seen = vec![false; n];
            let mut stack: Vec<u32> = calls[i].preds.clone();
            while let Some(q) = stack.pop() {
                if q as usize == i {
                    return true;
                }
                if !std::mem::replace(&mut seen[q as usize], true) {
                    stack.extend_from_slice(&calls[q as usize].preds);
                }
            }
            false
        })
        .collect();
    let memo = (0..n)
        .map(|i| {
            impure[i] == 0 && !recursive[i] && !data.preds[i].library && data.preds[i].arity > 0
        })
        .collect();
    (memo, impure, recursive)
}
