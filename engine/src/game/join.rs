//! Legal switches answered by the host: `legal/1` and `switch/2` whose every clause is a join over
//! the state's facts, answered by nested loops over the fact index instead of the logic machine.
//! (And [`Guards`]: `payoff/2` whose every clause begins with `tocreate/1` or `todelete/1`, which
//! the session skips when no scheduled word can match those goals.)
//!
//! Many games write their legal switches as `switch([P], [drop, C]) :- fact([control, P]),
//! fact([height, C, H]), H < 6.`: a body of keyword `fact/1` calls, negated ones, `player/1`, and
//! comparisons of integers. Such a body needs no resolution: [`plan`] recognises, at load time, the
//! predicates whose **every** clause has this shape (anything else keeps the interpreter, never a
//! partial fast path):
//!
//! - head arguments made of atoms, integers, variables, and lists and compound terms of them; every
//!   variable of the answer (`legal/1`'s argument, `switch/2`'s second) bound by the body or by
//!   `switch/2`'s first argument;
//! - a body that is a conjunction of `fact(P)` and `player(P)` (`P` a proper list of 1 to
//!   [`INDEXED`] atoms, integers and variables), `once(...)`, `not(...)` and `\+ ...` of those,
//!   `true`, and the comparisons `<`, `=<`, `>`, `>=`, `=:=`, `=\=`, `==`, `\==` between integer
//!   constants (atoms too for `==` and `\==`) and variables bound by an earlier goal, `=` and
//!   `\=` between such atoms and integers, and `not/1` or `\+` of any of these comparisons;
//! - `member(X, List)` with `List` a proper list of atoms and integers written in the clause or
//!   bound by an earlier call of a game predicate defined by one fact, and `between(Lo, Hi, X)`
//!   with `Lo` and `Hi` integers or bound variables (`X`: a new variable, `_`, or an integer or
//!   a bound variable to test);
//! - calls of a game predicate defined by one fact with ground arguments (`cards([j, q, k]).`,
//!   `pie(100).`), every argument of the call a new variable: the atoms and integers bind it, a
//!   list of atoms and integers becomes known for `member/2` (and nothing else);
//! - the body keywords allowed where the predicate is evaluated (docs/semantics.md §2.2), and the
//!   comparisons, `once/1`, `member/2` and `between/3` not redefined by the game.
//!
//! [`Join::answers`] then gives the answers in exactly the interpreter's order: clause order, and
//! in each `fact/1` goal the facts in the order the keyword enumerates them (the candidates of the
//! same index lookup, [`FactSet::candidates_of`], in insertion order), in `member/2` the list's
//! order (duplicates included: the session deduplicates the answers), in `between/3` ascending. It
//! gives up (`false`: the session then asks the interpreter, which has no side effect to repeat)
//! wherever the interpreter could do something a join does not: a variable bound to a float, a
//! string or a compound term (a comparison would raise a type error or compare floats; such values
//! are rare in switch joins), a bound of `between/3` or a value it tests that is not an integer (a
//! type error), an input argument with a variable, or more work than the inference budget would
//! allow the interpreter (see [`Join::max_work`]). The session also asks the interpreter whenever a
//! query must count its calls (profiling), runs under the chronon's shared budget, or runs under
//! heap, choicepoint or frame limits below [`MIN_CELLS`] and [`MIN_DEPTH`] (a join's query uses a
//! few hundred cells and a few frames at most: see [`plan`]'s size limits). So no budget error and
//! no other error of the interpreter is ever skipped: the fast path is not a visible rule.

use crate::atom::{self, Atom};
use crate::game::facts::{FactSet, Ground, INDEXED};
use crate::game::host::{self, Placement};
use crate::solve::host::ListKeys;
use crate::solve::store::{Cell, Store};
use crate::solve::Program;
use crate::term::Term;
use std::sync::Arc;

/// At most this many variables in a clause.
const MAX_VARS: usize = 32;
/// At most this many body goals in a clause.
const MAX_GOALS: usize = 16;
/// At most this many nodes in a clause and in `switch/2`'s input.
const MAX_NODES: usize = 256;
/// The heap budget under which the interpreter answers (a join's query, a clause of at most
/// [`MAX_NODES`] nodes and an input of as many, uses far fewer cells).
pub(crate) const MIN_CELLS: usize = 1 << 16;
/// The choicepoint and frame budgets under which the interpreter answers (a join's query opens
/// a few per goal, at most [`MAX_GOALS`] goals).
pub(crate) const MIN_DEPTH: usize = 1 << 10;

/// A head argument: `Var(v, first)` binds variable `v` at its first occurrence in an input and
/// compares it at the others (in an output every variable is bound).
#[derive(Debug, Clone)]
pub(crate) enum Tpl {
    Const(Cell),
    Var(u8, bool),
    /// An input's variable occurring nowhere else in the clause.
    Any,
    /// Elements and tail.
    List(Box<[Tpl]>, Box<Tpl>),
    Comp(Atom, Box<[Tpl]>),
}

/// An element of a `fact/1` or `player/1` pattern.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// An atom or an integer.
    Const(Cell),
    /// A variable bound before the goal.
    Bound(u8),
    /// A variable's first occurrence: bound by the match.
    Free(u8),
    /// A later occurrence of a variable `Free` earlier in the same pattern.
    Again(u8),
    /// A variable occurring nowhere else in the clause.
    Any,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Facts,
    Players,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every match, in order.
    All,
    /// `once(...)`: the first match.
    Once,
    /// `not(...)`, `\+ ...`: no match.
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    Same,
    NotSame,
}

impl Op {
    fn of(name: &str) -> Option<Op> {
        Some(match name {
            "<" => Op::Lt,
            "=<" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            "=:=" => Op::Eq,
            "=\\=" => Op::Ne,
            "==" | "=" => Op::Same,
            "\\==" | "\\=" => Op::NotSame,
            _ => return None,
        })
    }
    fn arithmetic(self) -> bool {
        !matches!(self, Op::Same | Op::NotSame)
    }
    /// The comparison that succeeds where `self` fails (raising the same errors).
    fn negated(self) -> Op {
        match self {
            Op::Lt => Op::Ge,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            Op::Ge => Op::Lt,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
            Op::Same => Op::NotSame,
            Op::NotSame => Op::Same,
        }
    }
}

/// A comparison's operand: an atom or integer, or a bound variable.
#[derive(Debug, Clone, Copy)]
enum Operand {
    Const(Cell),
    Var(u8),
}

/// The element argument of `member/2` or `between/3`.
#[derive(Debug, Clone, Copy)]
enum Elem {
    /// A variable's first occurrence: bound to each element.
    Free(u8),
    /// An atom or integer, or a bound variable: compared with each element.
    Test(Operand),
    /// A variable occurring nowhere else in the clause.
    Any,
}

#[derive(Debug, Clone)]
enum Goal {
    Match {
        src: Source,
        mode: Mode,
        pat: Box<[Slot]>,
        /// The index keys of the pattern's leading constants, computed once (as the
        /// interpreter's call sites do).
        keys: ListKeys,
    },
    Cmp {
        op: Op,
        a: Operand,
        b: Operand,
    },
    /// A call of a game predicate defined by one fact with ground arguments: binds variables
    /// to its atoms and integers (its lists are known when planning).
    Set(Box<[(u8, Cell)]>),
    /// `member(X, List)` over a proper list of atoms and integers known when planning.
    Member {
        elem: Elem,
        list: Box<[Cell]>,
    },
    /// `between(Lo, Hi, X)`.
    Between {
        lo: Operand,
        hi: Operand,
        x: Elem,
    },
}

#[derive(Debug, Clone)]
struct Clause {
    /// `switch/2`'s first argument.
    input: Option<Tpl>,
    /// The answer: `legal/1`'s argument, `switch/2`'s second.
    output: Tpl,
    goals: Box<[Goal]>,
}

/// A predicate answered by the host: its clauses as joins.
#[derive(Debug, Clone)]
pub(crate) struct Join {
    clauses: Box<[Clause]>,
}

/// The predicates of a game answered by the host ([`plan`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Joins {
    pub(crate) legal: Option<Join>,
    pub(crate) switch: Option<Join>,
    /// `payoff/2` when every clause of it begins with a `tocreate/1` or `todelete/1` goal.
    pub(crate) payoff: Option<Guards>,
}

/// A predicate whose every clause's body begins with `tocreate(W)` or `todelete(W)`, `W` a proper
/// list (Connect Four's `payoff([P], 1) :- tocreate([winner, P]).`): when no scheduled word can
/// unify with any clause's first goal ([`Guards::fail`]), each clause fails at that goal after
/// its head unified (which raises nothing), so the query has no answer and no effect but the few
/// inferences it counts ([`Guards::max_inferences`]).
#[derive(Debug, Clone)]
pub(crate) struct Guards {
    clauses: Box<[Guard]>,
}

/// A clause's first goal: `tocreate/1` or `todelete/1` (host id) and its list's elements (`Some`:
/// an atom or an integer; `None`: anything else, which might unify with any element).
#[derive(Debug, Clone)]
struct Guard {
    id: u32,
    elems: Box<[Option<Cell>]>,
}

impl Guards {
    /// Does every clause's first goal certainly fail with these scheduled creations and
    /// deletions (no word is a list of the goal's length agreeing with its atoms and integers)?
    pub(crate) fn fail<'a>(
        &self,
        creates: impl Iterator<Item = &'a Ground> + Clone,
        deletes: impl Iterator<Item = &'a Ground> + Clone,
    ) -> bool {
        self.clauses.iter().all(|g| {
            if g.id == host::TOCREATE {
                !creates.clone().any(|w| g.may_unify(w))
            } else {
                !deletes.clone().any(|w| g.may_unify(w))
            }
        })
    }

    /// More than the inferences the query `payoff(P, X)` counts when every clause fails at its
    /// first goal (the call, one per clause tried and its first goal, a retry each).
    pub(crate) fn max_inferences(&self) -> u64 {
        16 + 8 * self.clauses.len() as u64
    }
}

impl Guard {
    /// May the word `w` unify with the goal's list? `false` only when `w` is a short word of
    /// atomic elements ([`Ground::flat_elems`]: read from its cells, its term is not built) of
    /// another length, or with an atom or an integer where the goal's list has another one.
    fn may_unify(&self, w: &Ground) -> bool {
        let Some(elems) = w.flat_elems() else {
            return true;
        };
        elems.len() == self.elems.len()
            && elems.iter().zip(&self.elems).all(|(e, p)| match p {
                Some(p) => !matches!(e, Cell::Atom(_) | Cell::Int(_)) || e == p,
                None => true,
            })
    }
}

/// [`Guards`] of `payoff/2`, when every clause of it (at least one) qualifies.
fn plan_guards(all: &[&Term], prog: &Program) -> Option<Guards> {
    let pred = prog.pred(atom::PAYOFF, 2)?;
    if pred.library {
        return None;
    }
    let placement = Placement::keyword(atom::PAYOFF, 2);
    let mut out = Vec::new();
    for t in all {
        let (head, body) = split(t);
        if head.functor() != Some((atom::PAYOFF, 2)) {
            continue;
        }
        let mut goals = Vec::new();
        conjuncts(body?, &mut goals);
        let (id, arg) = match goals.first()? {
            Term::Compound(f, a) if a.len() == 1 && *f == atom::TOCREATE => (host::TOCREATE, &a[0]),
            Term::Compound(f, a) if a.len() == 1 && *f == atom::TODELETE => (host::TODELETE, &a[0]),
            _ => return None,
        };
        if !placement.allows(id) {
            return None;
        }
        let elems = arg
            .as_list()?
            .into_iter()
            .map(|e| match e {
                Term::Atom(a) => Some(Cell::Atom(*a)),
                Term::Int(i) => Some(Cell::Int(*i)),
                _ => None,
            })
            .collect();
        out.push(Guard { id, elems });
    }
    // (the program's clauses are the game's, in the same order)
    (out.len() == pred.clauses.len() && !out.is_empty()).then(|| Guards {
        clauses: out.into(),
    })
}

/// Recognises `legal/1` and `switch/2` when every clause of theirs (the terms of the game's
/// clauses, in source order) is a join of the shapes the module documentation lists.
pub(crate) fn plan<'a>(clauses: impl Iterator<Item = &'a Term> + Clone, prog: &Program) -> Joins {
    let all: Vec<&Term> = clauses.collect();
    Joins {
        legal: plan_pred(&all, prog, atom::LEGAL, 1),
        switch: plan_pred(&all, prog, atom::SWITCH, 2),
        payoff: plan_guards(&all, prog),
    }
}

fn split(t: &Term) -> (&Term, Option<&Term>) {
    match t {
        Term::Compound(f, a) if *f == atom::NECK && a.len() == 2 => (&a[0], Some(&a[1])),
        _ => (t, None),
    }
}

fn plan_pred(all: &[&Term], prog: &Program, name: Atom, arity: usize) -> Option<Join> {
    let pred = prog.pred(name, arity as u32)?;
    if pred.library {
        return None;
    }
    let placement = Placement::keyword(name, arity as u32);
    let mut out = Vec::new();
    for t in all {
        let (head, _) = split(t);
        if head.functor() != Some((name, arity)) {
            continue;
        }
        out.push(plan_clause(t, arity, prog, all, placement)?);
    }
    // (the program's clauses are the game's, in the same order)
    (out.len() == pred.clauses.len() && !out.is_empty()).then(|| Join {
        clauses: out.into(),
    })
}

/// Is `name/arity` the built-in (not redefined by the game)?
fn builtin(prog: &Program, name: Atom, arity: u32) -> bool {
    prog.pred(name, arity).is_none_or(|p| p.library)
}

/// The ground arguments of the game predicate `name/arity` when it is defined by one fact.
fn unit_fact<'t>(all: &[&'t Term], prog: &Program, name: Atom, arity: usize) -> Option<&'t [Term]> {
    let pred = prog.pred(name, arity as u32)?;
    if pred.library || pred.clauses.len() != 1 {
        return None;
    }
    let mut found = None;
    for t in all {
        if t.functor() == Some((name, arity)) {
            if found.is_some() {
                return None;
            }
            found = Some(t.args());
        } else if split(t).0.functor() == Some((name, arity)) {
            // a rule
            return None;
        }
    }
    let args = found?;
    args.iter().all(|a| a.is_ground()).then_some(args)
}

/// What the planner knows of a clause's variables: bound before the current goal, and those
/// holding a list known when planning (usable only as `member/2`'s list).
struct Known {
    bound: [bool; MAX_VARS],
    lists: Vec<Option<Box<[Cell]>>>,
}

/// The atoms and integers of a proper list of at most [`MAX_NODES`] elements (the interpreter
/// puts a game predicate's list on the heap: see [`MIN_CELLS`]).
fn atomic_list(t: &Term) -> Option<Box<[Cell]>> {
    let items = t.as_list()?;
    if items.len() > MAX_NODES {
        return None;
    }
    items
        .into_iter()
        .map(|e| match e {
            Term::Atom(a) => Some(Cell::Atom(*a)),
            Term::Int(i) => Some(Cell::Int(*i)),
            _ => None,
        })
        .collect()
}

fn plan_clause(
    t: &Term,
    arity: usize,
    prog: &Program,
    all: &[&Term],
    placement: Placement,
) -> Option<Clause> {
    let mut nodes = 0;
    t.walk(|_| nodes += 1);
    if nodes > MAX_NODES || t.var_count() as usize > MAX_VARS {
        return None;
    }
    let (head, body) = split(t);
    let args = head.args();
    // occurrences of each variable in the clause
    let mut count = [0u32; MAX_VARS];
    t.walk(|x| {
        if let Term::Var(v) = x {
            count[*v as usize] += 1;
        }
    });
    let mut bound = [false; MAX_VARS];
    let input = if arity == 2 {
        Some(template(&args[0], Some((&mut bound, &count)))?)
    } else {
        None
    };
    let mut body_goals = Vec::new();
    if let Some(b) = body {
        conjuncts(b, &mut body_goals);
    }
    if body_goals.len() > MAX_GOALS {
        return None;
    }
    let mut known = Known {
        bound,
        lists: vec![None; MAX_VARS],
    };
    let mut goals = Vec::new();
    for g in body_goals {
        if let Term::Atom(a) = g {
            if *a == atom::TRUE {
                continue;
            }
        }
        goals.push(plan_goal(g, prog, all, placement, &mut known, &count)?);
    }
    let bound = known.bound;
    let out = &args[arity - 1];
    let mut all_bound = true;
    out.walk(|x| {
        if let Term::Var(v) = x {
            all_bound &= bound[*v as usize];
        }
    });
    if !all_bound {
        return None;
    }
    Some(Clause {
        input,
        output: template(out, None)?,
        goals: goals.into(),
    })
}

fn conjuncts<'a>(t: &'a Term, out: &mut Vec<&'a Term>) {
    match t {
        Term::Compound(f, a) if *f == atom::COMMA && a.len() == 2 => {
            conjuncts(&a[0], out);
            conjuncts(&a[1], out);
        }
        _ => out.push(t),
    }
}

/// A head argument as a template; with `bound` (an input, and the clause's variable counts), its
/// variables' first occurrences bind them.
fn template(t: &Term, mut bound: Option<(&mut [bool; MAX_VARS], &[u32; MAX_VARS])>) -> Option<Tpl> {
    Some(match t {
        Term::Atom(a) => Tpl::Const(Cell::Atom(*a)),
        Term::Int(i) => Tpl::Const(Cell::Int(*i)),
        Term::Var(v) => {
            let first = match bound.as_mut() {
                Some((_, count)) if count[*v as usize] == 1 => return Some(Tpl::Any),
                Some((b, _)) => !std::mem::replace(&mut b[*v as usize], true),
                None => false,
            };
            Tpl::Var(*v as u8, first)
        }
        Term::Compound(f, a) if *f == atom::DOT && a.len() == 2 => {
            let mut items = Vec::new();
            let mut x = t;
            while let Term::Compound(f, a) = x {
                if *f != atom::DOT || a.len() != 2 {
                    break;
                }
                items.push(template(
                    &a[0],
                    bound.as_mut().map(|(b, c)| (&mut **b, *c)),
                )?);
                x = &a[1];
            }
            let tail = template(x, bound)?;
            Tpl::List(items.into(), Box::new(tail))
        }
        Term::Compound(f, a) => {
            let mut args = Vec::with_capacity(a.len());
            for x in a.iter() {
                args.push(template(x, bound.as_mut().map(|(b, c)| (&mut **b, *c)))?);
            }
            Tpl::Comp(*f, args.into())
        }
        Term::Float(_) | Term::Str(_) => return None,
    })
}

/// A comparison `g` (negated with `not`) whose operands are atoms, integers and bound variables.
fn plan_cmp(g: &Term, prog: &Program, bound: &[bool; MAX_VARS], not: bool) -> Option<Goal> {
    let (name, arity) = g.functor()?;
    if arity != 2 {
        return None;
    }
    let args = g.args();
    let op = Op::of(name.name())?;
    if !builtin(prog, name, 2) {
        return None;
    }
    let operand = |t: &Term| -> Option<Operand> {
        match t {
            Term::Int(i) => Some(Operand::Const(Cell::Int(*i))),
            Term::Atom(a) if !op.arithmetic() => Some(Operand::Const(Cell::Atom(*a))),
            Term::Var(v) if bound[*v as usize] => Some(Operand::Var(*v as u8)),
            _ => None,
        }
    };
    Some(Goal::Cmp {
        op: if not { op.negated() } else { op },
        a: operand(&args[0])?,
        b: operand(&args[1])?,
    })
}

fn plan_goal(
    g: &Term,
    prog: &Program,
    all: &[&Term],
    placement: Placement,
    known: &mut Known,
    count: &[u32; MAX_VARS],
) -> Option<Goal> {
    let (name, arity) = g.functor()?;
    let args = g.args();
    if arity == 2 && Op::of(name.name()).is_some() {
        return plan_cmp(g, prog, &known.bound, false);
    }
    if (name == atom::NOT || name == atom::NOT_PROVABLE) && arity == 1 {
        if let Some((f, 2)) = args[0].functor() {
            if Op::of(f.name()).is_some() {
                return plan_cmp(&args[0], prog, &known.bound, true);
            }
        }
    }
    // a variable of the clause not bound yet, nor a known list
    let fresh = |k: &Known, v: u32| !k.bound[v as usize] && k.lists[v as usize].is_none();
    // member/2's element and between/3's third argument
    let elem = |k: &Known, t: &Term, int: bool| -> Option<Elem> {
        Some(match t {
            Term::Int(i) => Elem::Test(Operand::Const(Cell::Int(*i))),
            Term::Atom(a) if !int => Elem::Test(Operand::Const(Cell::Atom(*a))),
            Term::Var(v) if k.bound[*v as usize] => Elem::Test(Operand::Var(*v as u8)),
            Term::Var(v) if fresh(k, *v) && count[*v as usize] == 1 => Elem::Any,
            Term::Var(v) if fresh(k, *v) => Elem::Free(*v as u8),
            _ => return None,
        })
    };
    if name.name() == "member" && arity == 2 && builtin(prog, name, 2) {
        let list = match &args[1] {
            Term::Var(v) => known.lists[*v as usize].clone()?,
            t => atomic_list(t)?,
        };
        let e = elem(known, &args[0], false)?;
        if let Elem::Free(v) = e {
            known.bound[v as usize] = true;
        }
        return Some(Goal::Member { elem: e, list });
    }
    if name.name() == "between" && arity == 3 && builtin(prog, name, 3) {
        let bound = |t: &Term| match t {
            Term::Int(i) => Some(Operand::Const(Cell::Int(*i))),
            Term::Var(v) if known.bound[*v as usize] => Some(Operand::Var(*v as u8)),
            _ => None,
        };
        let (lo, hi) = (bound(&args[0])?, bound(&args[1])?);
        let x = elem(known, &args[2], true)?;
        if let Elem::Free(v) = x {
            known.bound[v as usize] = true;
        }
        return Some(Goal::Between { lo, hi, x });
    }
    if let Some(fact) = unit_fact(all, prog, name, arity) {
        // every argument a distinct fresh variable
        let mut sets = Vec::new();
        let mut seen = [false; MAX_VARS];
        for (a, x) in args.iter().zip(fact) {
            let Term::Var(v) = a else {
                return None;
            };
            let v = *v as usize;
            if !fresh(known, v as u32) || std::mem::replace(&mut seen[v], true) {
                return None;
            }
            if count[v] == 1 {
                continue;
            }
            match x {
                Term::Atom(c) => sets.push((v as u8, Cell::Atom(*c))),
                Term::Int(i) => sets.push((v as u8, Cell::Int(*i))),
                x => {
                    known.lists[v] = Some(atomic_list(x)?);
                    continue;
                }
            }
            known.bound[v] = true;
        }
        return Some(Goal::Set(sets.into()));
    }
    if arity != 1 {
        return None;
    }
    let bound = &mut known.bound;
    let lists = &known.lists;
    let (mode, inner) = if name == atom::NOT || name == atom::NOT_PROVABLE {
        (Mode::Not, &args[0])
    } else if name.name() == "once" {
        if !builtin(prog, name, 1) {
            return None;
        }
        (Mode::Once, &args[0])
    } else {
        (Mode::All, g)
    };
    let (src, pat) = match inner {
        Term::Compound(f, a) if a.len() == 1 && *f == atom::FACT => (Source::Facts, &a[0]),
        Term::Compound(f, a) if a.len() == 1 && *f == atom::PLAYER => (Source::Players, &a[0]),
        _ => return None,
    };
    let id = match src {
        Source::Facts => host::FACT,
        Source::Players => host::PLAYER,
    };
    if !placement.allows(id) {
        return None;
    }
    let elems = pat.as_list()?;
    if elems.is_empty() || elems.len() > INDEXED {
        return None;
    }
    // a negation's bindings do not outlive it
    let before = *bound;
    let mut slots = Vec::with_capacity(elems.len());
    let mut here = [false; MAX_VARS];
    for e in elems {
        slots.push(match e {
            Term::Atom(a) => Slot::Const(Cell::Atom(*a)),
            Term::Int(i) => Slot::Const(Cell::Int(*i)),
            Term::Var(v) => {
                let v = *v as usize;
                if lists[v].is_some() {
                    return None;
                }
                if bound[v] {
                    if here[v] {
                        Slot::Again(v as u8)
                    } else {
                        Slot::Bound(v as u8)
                    }
                } else if count[v] == 1 {
                    Slot::Any
                } else {
                    bound[v] = true;
                    here[v] = true;
                    Slot::Free(v as u8)
                }
            }
            _ => return None,
        });
    }
    if mode == Mode::Not {
        *bound = before;
    }
    let lead: Vec<Cell> = slots
        .iter()
        .map_while(|s| match s {
            Slot::Const(c) => Some(*c),
            _ => None,
        })
        .collect();
    Some(Goal::Match {
        src,
        mode,
        pat: slots.into(),
        keys: ListKeys::of_prefix(&lead),
    })
}

/// Variable values while a clause runs (atoms and integers).
pub(crate) type Vals = [Cell; MAX_VARS];

/// Why a join stopped without its answers: the interpreter answers.
struct GiveUp;

struct Run<'a, 'e> {
    facts: &'a FactSet,
    players: &'a [Arc<Ground>],
    work: u64,
    max_work: u64,
    emit: &'e mut dyn FnMut(&Tpl, &Vals),
}

impl Join {
    /// The work (goal entries and matches, [`Join::answers`]) under which the interpreter cannot
    /// spend `max_inferences`: it counts one inference per goal call and one per retry that
    /// finds an answer, a few for `not/1` and `once/1` (the call, the inner goal, the cut), one
    /// per clause tried, and one for the query: at most 4 per unit of work, 2 per clause and a
    /// few more (8 and 64 leave room).
    pub(crate) fn max_work(&self, max_inferences: u64) -> u64 {
        max_inferences.saturating_sub(64 + 8 * self.clauses.len() as u64) / 8
    }

    /// Calls `emit` with the answer template and the variables' values of every answer, in the
    /// interpreter's order (`input`: `switch/2`'s first argument); `false` where the join gave up
    /// (module documentation), some answers possibly given already.
    pub(crate) fn answers(
        &self,
        facts: &FactSet,
        players: &[Arc<Ground>],
        input: Option<&Term>,
        max_work: u64,
        emit: &mut dyn FnMut(&Tpl, &Vals),
    ) -> bool {
        let mut run = Run {
            facts,
            players,
            work: 0,
            max_work,
            emit,
        };
        let mut vals: Vals = [Cell::Atom(atom::NIL); MAX_VARS];
        for c in self.clauses.iter() {
            if let (Some(tpl), Some(x)) = (&c.input, input) {
                match match_term(tpl, x, &mut vals) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(GiveUp) => return false,
                }
            }
            if run.solve(&c.goals, &c.output, &mut vals).is_err() {
                return false;
            }
        }
        true
    }
}

/// Matches an input template with a term: `Ok(false)` where they do not unify.
fn match_term(t: &Tpl, x: &Term, vals: &mut Vals) -> Result<bool, GiveUp> {
    Ok(match t {
        Tpl::Any => true,
        Tpl::Const(c) => match (c, x) {
            (Cell::Atom(a), Term::Atom(b)) => a == b,
            (Cell::Int(a), Term::Int(b)) => a == b,
            (_, Term::Var(_)) => return Err(GiveUp),
            _ => false,
        },
        Tpl::Var(v, first) => {
            let c = match x {
                Term::Atom(a) => Cell::Atom(*a),
                Term::Int(i) => Cell::Int(*i),
                _ => return Err(GiveUp),
            };
            if *first {
                vals[*v as usize] = c;
                true
            } else {
                vals[*v as usize] == c
            }
        }
        Tpl::List(items, tail) => {
            let mut x = x;
            for it in items.iter() {
                match x {
                    Term::Compound(f, a) if *f == atom::DOT && a.len() == 2 => {
                        if !match_term(it, &a[0], vals)? {
                            return Ok(false);
                        }
                        x = &a[1];
                    }
                    Term::Var(_) => return Err(GiveUp),
                    _ => return Ok(false),
                }
            }
            return match_term(tail, x, vals);
        }
        Tpl::Comp(f, targs) => match x {
            Term::Compound(g, a) if g == f && a.len() == targs.len() => {
                for (t, x) in targs.iter().zip(a.iter()) {
                    if !match_term(t, x, vals)? {
                        return Ok(false);
                    }
                }
                true
            }
            Term::Var(_) => return Err(GiveUp),
            _ => false,
        },
    })
}

/// Matches a fact (or player) with a pattern whose elements `elems` hold the constants and bound
/// values: `Ok(false)` where they do not unify; the `Free` variables bound on success.
#[inline]
fn match_ground(g: &Ground, pat: &[Slot], elems: &[Cell], vals: &mut Vals) -> Result<bool, GiveUp> {
    if let Some(es) = g.flat_elems() {
        if es.len() != pat.len() {
            return Ok(false);
        }
        for (i, s) in pat.iter().enumerate() {
            let e = es[i];
            match *s {
                Slot::Const(_) | Slot::Bound(_) => {
                    if e != elems[i] {
                        return Ok(false);
                    }
                }
                Slot::Free(v) => {
                    if !matches!(e, Cell::Atom(_) | Cell::Int(_)) {
                        return Err(GiveUp);
                    }
                    vals[v as usize] = e;
                }
                Slot::Again(v) => {
                    if !matches!(e, Cell::Atom(_) | Cell::Int(_)) {
                        return Err(GiveUp);
                    }
                    if e != vals[v as usize] {
                        return Ok(false);
                    }
                }
                Slot::Any => {}
            }
        }
        return Ok(true);
    }
    match_term_elems(g.term(), pat, elems, vals)
}

/// [`match_ground`] of a fact that is not a short word of atomic elements.
#[cold]
#[inline(never)]
fn match_term_elems(
    t: &Term,
    pat: &[Slot],
    elems: &[Cell],
    vals: &mut Vals,
) -> Result<bool, GiveUp> {
    let Some(items) = t.as_list() else {
        return Ok(false);
    };
    if items.len() != pat.len() {
        return Ok(false);
    }
    for (i, s) in pat.iter().enumerate() {
        let x = items[i];
        let c = match x {
            Term::Atom(a) => Some(Cell::Atom(*a)),
            Term::Int(i) => Some(Cell::Int(*i)),
            _ => None,
        };
        match *s {
            Slot::Const(_) | Slot::Bound(_) => {
                // (a constant or bound value is an atom or an integer)
                if c != Some(elems[i]) {
                    return Ok(false);
                }
            }
            Slot::Free(v) => vals[v as usize] = c.ok_or(GiveUp)?,
            Slot::Again(v) => {
                if c.ok_or(GiveUp)? != vals[v as usize] {
                    return Ok(false);
                }
            }
            Slot::Any => {}
        }
    }
    Ok(true)
}

impl Run<'_, '_> {
    fn tick(&mut self) -> Result<(), GiveUp> {
        self.work += 1;
        if self.work > self.max_work {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// One candidate `g` of a `fact/1` or `player/1` goal: on a match, the rest of the clause
    /// (`found` set); `true` where the goal stops here (`once/1`, `not/1`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn matched(
        &mut self,
        g: &Ground,
        pat: &[Slot],
        elems: &[Cell],
        mode: Mode,
        rest: &[Goal],
        out: &Tpl,
        vals: &mut Vals,
        found: &mut bool,
    ) -> Result<bool, GiveUp> {
        if !match_ground(g, pat, elems, vals)? {
            return Ok(false);
        }
        *found = true;
        if mode == Mode::Not {
            return Ok(true);
        }
        self.tick()?;
        self.solve(rest, out, vals)?;
        Ok(mode == Mode::Once)
    }

    fn solve(&mut self, goals: &[Goal], out: &Tpl, vals: &mut Vals) -> Result<(), GiveUp> {
        self.tick()?;
        let Some((g, rest)) = goals.split_first() else {
            (self.emit)(out, vals);
            return Ok(());
        };
        match g {
            Goal::Cmp { op, a, b } => {
                let (x, y) = (operand(*a, vals), operand(*b, vals));
                let ok = match op {
                    Op::Same => x == y,
                    Op::NotSame => x != y,
                    _ => {
                        let (Cell::Int(x), Cell::Int(y)) = (x, y) else {
                            // a type error in the interpreter
                            return Err(GiveUp);
                        };
                        match op {
                            Op::Lt => x < y,
                            Op::Le => x <= y,
                            Op::Gt => x > y,
                            Op::Ge => x >= y,
                            Op::Eq => x == y,
                            _ => x != y,
                        }
                    }
                };
                if ok {
                    self.solve(rest, out, vals)?;
                }
                Ok(())
            }
            Goal::Set(sets) => {
                for &(v, c) in sets.iter() {
                    vals[v as usize] = c;
                }
                self.solve(rest, out, vals)
            }
            Goal::Member { elem, list } => {
                for &e in list.iter() {
                    self.tick()?;
                    match *elem {
                        Elem::Free(v) => vals[v as usize] = e,
                        Elem::Test(o) => {
                            if operand(o, vals) != e {
                                continue;
                            }
                        }
                        Elem::Any => {}
                    }
                    self.solve(rest, out, vals)?;
                }
                Ok(())
            }
            Goal::Between { lo, hi, x } => {
                // (a bound that is not an integer: an error in the interpreter)
                let int = |o: &Operand| match operand(*o, vals) {
                    Cell::Int(i) => Ok(i),
                    _ => Err(GiveUp),
                };
                let (lo, hi) = (int(lo)?, int(hi)?);
                let v = match *x {
                    Elem::Test(o) => {
                        let Cell::Int(i) = operand(o, vals) else {
                            return Err(GiveUp);
                        };
                        if lo <= i && i <= hi {
                            self.solve(rest, out, vals)?;
                        }
                        return Ok(());
                    }
                    Elem::Free(v) => Some(v),
                    Elem::Any => None,
                };
                for i in lo..=hi {
                    self.tick()?;
                    if let Some(v) = v {
                        vals[v as usize] = Cell::Int(i);
                    }
                    self.solve(rest, out, vals)?;
                }
                Ok(())
            }
            Goal::Match {
                src,
                mode,
                pat,
                keys,
            } => {
                let mut elems = [Cell::Atom(atom::NIL); INDEXED];
                for (i, s) in pat.iter().enumerate() {
                    elems[i] = match *s {
                        Slot::Const(c) => c,
                        Slot::Bound(v) => vals[v as usize],
                        _ => Cell::Ref(i as u32),
                    };
                }
                let elems = &elems[..pat.len()];
                let mut found = false;
                match src {
                    Source::Facts => {
                        let facts = self.facts;
                        let cands = facts.candidates_of_keyed(keys, elems).ok_or(GiveUp)?;
                        for pos in 0..cands.len() {
                            if !cands.agrees(facts, pos) {
                                continue;
                            }
                            let g = facts.get(cands.id(pos));
                            if self.matched(g, pat, elems, *mode, rest, out, vals, &mut found)? {
                                break;
                            }
                        }
                    }
                    Source::Players => {
                        for g in self.players {
                            if self.matched(g, pat, elems, *mode, rest, out, vals, &mut found)? {
                                break;
                            }
                        }
                    }
                }
                if *mode == Mode::Not && !found {
                    self.solve(rest, out, vals)?;
                }
                Ok(())
            }
        }
    }
}

/// The value of a comparison's operand.
#[inline]
fn operand(o: Operand, vals: &Vals) -> Cell {
    match o {
        Operand::Const(c) => c,
        Operand::Var(v) => vals[v as usize],
    }
}

/// Builds the answer of `out` with the values `vals` on the heap; its root.
pub(crate) fn build(store: &mut Store, out: &Tpl, vals: &Vals) -> Cell {
    match out {
        Tpl::Const(c) => *c,
        Tpl::Var(v, _) => vals[*v as usize],
        // (not in an answer: its variables are bound)
        Tpl::Any => Cell::Atom(atom::NIL),
        Tpl::List(items, tail) => {
            if items.is_empty() {
                return build(store, tail, vals);
            }
            let start = store.len() as usize;
            let n = items.len();
            store.heap.resize(start + 2 * n, Cell::Atom(atom::NIL));
            for (i, it) in items.iter().enumerate() {
                let c = build(store, it, vals);
                store.heap[start + 2 * i] = c;
                store.heap[start + 2 * i + 1] = if i + 1 < n {
                    Cell::List((start + 2 * i + 2) as u32)
                } else {
                    build(store, tail, vals)
                };
            }
            Cell::List(start as u32)
        }
        Tpl::Comp(f, args) => {
            let start = store.len() as usize;
            store.heap.push(Cell::Functor(*f, args.len() as u32));
            store
                .heap
                .resize(start + 1 + args.len(), Cell::Atom(atom::NIL));
            for (i, a) in args.iter().enumerate() {
                let c = build(store, a, vals);
                store.heap[start + 1 + i] = c;
            }
            Cell::Struct(start as u32)
        }
    }
}

/// The elements of the answer of `out` with the values `vals` into `buf` when it is a proper list
/// of at most [`INDEXED`] atoms and integers (their number), else `None`.
#[inline]
pub(crate) fn flat_answer(out: &Tpl, vals: &Vals, buf: &mut [Cell; INDEXED]) -> Option<usize> {
    let Tpl::List(items, tail) = out else {
        return None;
    };
    if items.len() > INDEXED || !matches!(**tail, Tpl::Const(Cell::Atom(atom::NIL))) {
        return None;
    }
    for (i, it) in items.iter().enumerate() {
        buf[i] = match it {
            Tpl::Const(c) => *c,
            Tpl::Var(v, _) => vals[*v as usize],
            _ => return None,
        };
    }
    Some(items.len())
}

/// Has `t` at most [`MAX_NODES`] nodes (an input a join's query puts on the heap)?
pub(crate) fn small(t: &Term) -> bool {
    let mut n = 0;
    t.walk(|_| n += 1);
    n <= MAX_NODES
}

#[cfg(test)]
mod tests;
