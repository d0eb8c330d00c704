//! Compiling clauses (the interpreter's [`ClauseT`] templates) and query goals to [`Instr`]s.
//!
//! Per clause: the variables used in one chunk only (the head and the goals up to the first
//! user call, or the goals between two user calls) live in argument/temporary registers (`X`);
//! the others in the environment (`Y`), as in the WAM. Built-ins do not end a chunk: they take
//! their arguments from the argument registers and leave the registers alone. A clause with a
//! control construct (`;`, `->`, `\+`) keeps every variable in its environment.

use super::{Instr, Native, Reg};
use crate::atom::{self, Atom};
use crate::solve::builtins;
use crate::solve::compile::{resolve, VOID_ARG};
use crate::solve::program::{ClauseT, Control, Dispatch, ProgramData};
use crate::solve::store::Cell;

/// A goal of a body, as the core runs it.
#[derive(Clone, Debug)]
pub(super) enum Node {
    /// A plain goal: its dispatch, name and argument templates.
    Goal(Dispatch, Atom, Vec<Cell>),
    /// `,`/2 met as a goal (counted, as a meta-call counts it).
    Conj(Box<Node>, Box<Node>),
    /// `;`/2 (or `|`/2) whose left side is not an if-then.
    Disj(Atom, Box<Node>, Box<Node>),
    /// `(C -> T ; E)`: the name of the disjunction, C, T, E.
    Ite(Atom, Box<Node>, Box<Node>, Box<Node>),
    /// `(C -> T)`.
    IfThen(Box<Node>, Box<Node>),
    /// `(C *-> T ; E)`: the name of the disjunction, C, T, E.
    SoftIte(Atom, Box<Node>, Box<Node>, Box<Node>),
    /// `(C *-> T)`.
    SoftIfThen(Box<Node>, Box<Node>),
    /// `\+ G` or `not(G)`.
    Not(Atom, Box<Node>),
    /// A control construct run at run time on its arguments (`call/N`, `findall/3,4`,
    /// `catch/3`, `throw/1`, a negation of a goal known only then): [`super::meta`].
    Meta(Control, Atom, Vec<Cell>),
    /// A variable goal run as it is bound then, without a count (the query's own variable goal,
    /// the variable of `not(G)`).
    Direct(Cell),
    /// `once(G)` of the library (`once(G) :- call(G), !.`) with `G` known at compile time.
    Once(Atom, Box<Node>),
}

/// Why [`decode`] refused: a variable in a goal position that no `call/1` wraps.
pub(super) const VAR_GOAL: &str = "a variable as a goal";
const NOT_CALLABLE: &str = "a number or string as a goal";

/// Where a `!` cuts to.
#[derive(Clone, Copy)]
enum CutTo {
    /// The clause's barrier.
    Clause,
    /// The height saved in environment slot `y`, plus `off`.
    Local(u32, u32),
}

/// The query's goal: as [`decode`] with the ISO body conversion (`conv`), a variable goal run
/// directly.
pub(super) fn decode_query(data: &ProgramData, cells: &[Cell], t: Cell) -> Result<Node, String> {
    match t {
        Cell::Var(_) | Cell::Ref(_) => Ok(Node::Direct(t)),
        _ => match decode(data, cells, t, true) {
            // a number in a goal position: the query as a meta-call (its type error)
            Err(e) if e == NOT_CALLABLE => Ok(Node::Direct(t)),
            r => r,
        },
    }
}

/// The goal at template cell `t` of `cells`, resolved as a meta-call resolves it; `conv`: a
/// variable goal is `call(G)` (the ISO body conversion of a meta-called goal), else refused.
pub(super) fn decode(
    data: &ProgramData,
    cells: &[Cell],
    t: Cell,
    conv: bool,
) -> Result<Node, String> {
    let (name, args): (Atom, Vec<Cell>) = match t {
        Cell::Atom(a) => (a, Vec::new()),
        Cell::Struct(p) => match cells[p as usize] {
            Cell::Functor(f, n) => (f, cells[p as usize + 1..=(p + n) as usize].to_vec()),
            _ => return Err("a malformed goal".into()),
        },
        Cell::List(p) => (atom::DOT, cells[p as usize..p as usize + 2].to_vec()),
        Cell::Var(_) | Cell::Ref(_) if conv => {
            return Ok(Node::Meta(Control::Call(0), atom::CALL, vec![t]))
        }
        Cell::Var(_) | Cell::Ref(_) => return Err(VAR_GOAL.into()),
        _ => return Err(NOT_CALLABLE.into()),
    };
    let disp = resolve(data, name, args.len() as u32);
    node(data, cells, disp, name, args, conv)
}

/// The node of goal `name(args)` with dispatch `disp`.
pub(super) fn node(
    data: &ProgramData,
    cells: &[Cell],
    disp: Dispatch,
    name: Atom,
    args: Vec<Cell>,
    conv: bool,
) -> Result<Node, String> {
    let sub = |i: usize| decode(data, cells, args[i], conv).map(Box::new);
    Ok(match disp {
        Dispatch::Control(Control::Conj) => Node::Conj(sub(0)?, sub(1)?),
        Dispatch::Control(Control::Disj) => {
            let left = decode(data, cells, args[0], conv)?;
            match left {
                Node::IfThen(c, t) => Node::Ite(name, c, t, sub(1)?),
                Node::SoftIfThen(c, t) => Node::SoftIte(name, c, t, sub(1)?),
                l => Node::Disj(name, Box::new(l), sub(1)?),
            }
        }
        Dispatch::Control(Control::IfThen) => Node::IfThen(sub(0)?, sub(1)?),
        Dispatch::Control(Control::SoftIfThen) => Node::SoftIfThen(sub(0)?, sub(1)?),
        Dispatch::Control(Control::Not) => {
            // `not/1`'s goal is not converted; a variable goal inside: run at run time
            match decode(data, cells, args[0], conv && name == atom::NOT_PROVABLE) {
                Ok(g) => Node::Not(name, Box::new(g)),
                Err(e) if e == VAR_GOAL => Node::Meta(Control::Not, name, args),
                Err(e) => return Err(e),
            }
        }
        Dispatch::Control(
            c @ (Control::Call(_)
            | Control::Findall
            | Control::Findall4
            | Control::Catch
            | Control::Throw),
        ) => Node::Meta(c, name, args),
        Dispatch::Control(Control::True | Control::Fail | Control::Cut) => {
            Node::Goal(disp, name, args)
        }
        Dispatch::User(p) if super::host::is_library_once(data, p, name, &args) => {
            Node::Once(name, sub(0)?)
        }
        Dispatch::Native(_)
            if builtins::library_fast(name, args.len() as u32).is_some()
                && builtins::lookup(name, args.len() as u32).is_none() =>
        {
            // a library fast path: the core runs the library clauses, as the fast path counts
            match data.by_key.get(&(name, args.len() as u32)) {
                Some(&p) => Node::Goal(Dispatch::User(p), name, args),
                None => return Err(format!("library predicate {name}/{}", args.len())),
            }
        }
        Dispatch::User(_) | Dispatch::Native(_) | Dispatch::Host(_) | Dispatch::Unknown => {
            Node::Goal(disp, name, args)
        }
    })
}

/// The body of a program clause as nodes.
pub(super) fn clause_body(data: &ProgramData, c: &ClauseT) -> Result<Vec<Node>, String> {
    c.body
        .iter()
        .map(|g| node(data, &c.cells, g.disp, g.name, g.args.to_vec(), false))
        .collect()
}

/// The user predicates a body calls.
pub(super) fn callees(nodes: &[Node], out: &mut Vec<u32>) {
    for n in nodes {
        match n {
            Node::Goal(Dispatch::User(p), ..) => out.push(*p),
            Node::Goal(..) | Node::Meta(..) | Node::Direct(_) => {}
            Node::Conj(a, b)
            | Node::Disj(_, a, b)
            | Node::IfThen(a, b)
            | Node::SoftIfThen(a, b) => {
                callees(std::slice::from_ref(a.as_ref()), out);
                callees(std::slice::from_ref(b.as_ref()), out);
            }
            Node::Ite(_, a, b, c) | Node::SoftIte(_, a, b, c) => {
                callees(std::slice::from_ref(a.as_ref()), out);
                callees(std::slice::from_ref(b.as_ref()), out);
                callees(std::slice::from_ref(c.as_ref()), out);
            }
            Node::Not(_, a) | Node::Once(_, a) => callees(std::slice::from_ref(a.as_ref()), out),
        }
    }
}

/// A goal that calls on (a user predicate or a meta-call): it ends a chunk.
fn is_call(n: &Node) -> bool {
    matches!(
        n,
        Node::Goal(Dispatch::User(_), ..) | Node::Meta(..) | Node::Direct(_)
    )
}

fn slot(c: Cell) -> Option<u32> {
    match c {
        Cell::Var(s) | Cell::Ref(s) => Some(s),
        _ => None,
    }
}

/// The temporary variables that can stay in the argument register of the head argument they
/// are (`Some(a)`): first met as head argument `a` itself, and until the chunk's call writes
/// register `a` used no more (the chunk's call is the first body goal, and takes the variable
/// only before argument `a` or as argument `a` itself), or met in the head only. Then the head
/// does not move it out and the call does not move it back (`app(T, L, R)` with `L` in
/// register 1).
fn in_arg_register(
    cells: &[Cell],
    head: &[Cell],
    body: &[Node],
    perm: &[bool],
) -> Vec<Option<u32>> {
    let mut out = vec![None; perm.len()];
    let mut before = vec![false; perm.len()];
    for (a, &t) in head.iter().enumerate() {
        if let Some(s) = slot(t) {
            let s = s as usize;
            if !before[s] && !perm[s] {
                out[s] = Some(a as u32);
            }
        }
        if t != VOID_ARG {
            vars_of(cells, t, &mut |s| before[s as usize] = true);
        }
    }
    for (i, g) in body.iter().enumerate() {
        let args: &[Cell] = match g {
            Node::Goal(_, _, args) if i == 0 && is_call(g) => args,
            other => {
                // any other goal may write every argument register
                node_vars(cells, other, &mut |s| out[s as usize] = None);
                continue;
            }
        };
        for (j, &t) in args.iter().enumerate() {
            vars_of(cells, t, &mut |s| {
                if let Some(a) = out[s as usize] {
                    let ok = (j as u32) < a || (j as u32 == a && slot(t) == Some(s));
                    if !ok {
                        out[s as usize] = None;
                    }
                }
            });
        }
    }
    out
}

/// The clause compiler's state.
pub(super) struct Comp<'a> {
    cells: &'a [Cell],
    pub(super) code: &'a mut Vec<Instr>,
    pub(super) natives: &'a mut Vec<Native>,
    regs: Vec<Reg>,
    seen: Vec<bool>,
    count: Vec<u32>,
    next_x: u32,
    ny: u32,
    env: bool,
    called: bool,
    /// The highest register number used (plus one).
    pub(super) max_x: u32,
}

/// Walks the variables of template `t`, calling `f(slot)` for each occurrence (preorder).
fn vars_of(cells: &[Cell], t: Cell, f: &mut dyn FnMut(u32)) {
    let mut stack = vec![t];
    while let Some(c) = stack.pop() {
        match c {
            Cell::Var(s) | Cell::Ref(s) => f(s),
            Cell::Struct(p) => {
                if let Cell::Functor(_, n) = cells[p as usize] {
                    stack.extend((1..=n).rev().map(|k| cells[(p + k) as usize]));
                }
            }
            Cell::List(p) => stack.extend([cells[p as usize + 1], cells[p as usize]]),
            _ => {}
        }
    }
}

fn node_vars(cells: &[Cell], n: &Node, f: &mut dyn FnMut(u32)) {
    match n {
        Node::Goal(_, _, args) | Node::Meta(_, _, args) => {
            for &a in args {
                vars_of(cells, a, f);
            }
        }
        Node::Direct(t) => vars_of(cells, *t, f),
        Node::Conj(a, b) | Node::Disj(_, a, b) | Node::IfThen(a, b) | Node::SoftIfThen(a, b) => {
            node_vars(cells, a, f);
            node_vars(cells, b, f);
        }
        Node::Ite(_, a, b, c) | Node::SoftIte(_, a, b, c) => {
            node_vars(cells, a, f);
            node_vars(cells, b, f);
            node_vars(cells, c, f);
        }
        Node::Not(_, a) | Node::Once(_, a) => node_vars(cells, a, f),
    }
}

fn arity_max(n: &Node) -> u32 {
    match n {
        Node::Goal(_, _, a) | Node::Meta(_, _, a) => a.len() as u32,
        Node::Direct(_) => 1,
        Node::Conj(a, b) | Node::Disj(_, a, b) | Node::IfThen(a, b) | Node::SoftIfThen(a, b) => {
            arity_max(a).max(arity_max(b))
        }
        Node::Ite(_, a, b, c) | Node::SoftIte(_, a, b, c) => {
            arity_max(a).max(arity_max(b)).max(arity_max(c))
        }
        Node::Not(_, a) | Node::Once(_, a) => arity_max(a),
    }
}

/// Compiles a clause (`head` argument templates over `cells`, `nvars` variables, `body`) at the
/// end of `code`; `query`: the query's pseudo-clause (every variable permanent, no last call,
/// ends with `Stop`). Returns the clause's address.
#[allow(clippy::too_many_arguments)]
pub(super) fn clause(
    code: &mut Vec<Instr>,
    natives: &mut Vec<Native>,
    cells: &[Cell],
    head: &[Cell],
    nvars: u32,
    body: &[Node],
    query: bool,
    max_x: &mut u32,
) -> u32 {
    let addr = code.len() as u32;
    let nv = nvars as usize;
    let construct = query
        || body
            .iter()
            .any(|n| !matches!(n, Node::Goal(..) | Node::Meta(..) | Node::Direct(_)));
    // occurrences and chunks
    let mut count = vec![0u32; nv];
    let mut first_chunk = vec![u32::MAX; nv];
    let mut perm = vec![construct; nv];
    let mut chunk = 0u32;
    {
        let mut note = |s: u32, chunk: u32| {
            let s = s as usize;
            count[s] += 1;
            if first_chunk[s] == u32::MAX {
                first_chunk[s] = chunk;
            } else if first_chunk[s] != chunk {
                perm[s] = true;
            }
        };
        for &a in head {
            if a != VOID_ARG {
                vars_of(cells, a, &mut |s| note(s, 0));
            }
        }
        for n in body {
            node_vars(cells, n, &mut |s| note(s, chunk));
            if is_call(n) {
                chunk += 1;
            }
        }
    }
    let calls = body.iter().filter(|n| is_call(n)).count();
    let last_call = body
        .last()
        .is_some_and(|n| matches!(n, Node::Goal(Dispatch::User(_), ..)))
        && !query;
    let env = construct || calls >= 2 || (calls == 1 && !last_call);
    let max_a = body
        .iter()
        .map(arity_max)
        .max()
        .unwrap_or(0)
        .max(head.len() as u32);
    let mut c = Comp {
        cells,
        code,
        natives,
        regs: vec![Reg::X(0); nv],
        seen: vec![false; nv],
        count,
        next_x: max_a,
        ny: 0,
        env,
        called: false,
        max_x: max_a,
    };
    let in_a = in_arg_register(cells, head, body, &perm);
    for s in 0..nv {
        if perm[s] && c.count[s] > 1 {
            c.regs[s] = Reg::Y(c.ny);
            c.ny += 1;
        } else if let Some(a) = in_a[s] {
            c.regs[s] = Reg::X(a);
        } else {
            c.regs[s] = Reg::X(c.next_x);
            c.next_x += 1;
        }
    }
    if env {
        c.code.push(Instr::Allocate(0));
    }
    // head
    for (i, &a) in head.iter().enumerate() {
        c.get_arg(a, i as u32);
    }
    if construct {
        // every variable first met in the body gets its cell now (the branches of a construct
        // see one environment)
        for s in 0..nv {
            if !c.seen[s] && c.count[s] > 1 {
                c.seen[s] = true;
                if let Reg::Y(y) = c.regs[s] {
                    c.code.push(Instr::InitY(y));
                }
            }
        }
    }
    if query {
        c.code.push(Instr::Count(atom::CALL, 1));
    }
    let n = body.len();
    let mut tail = false;
    for (i, g) in body.iter().enumerate() {
        let last = i + 1 == n && !query;
        tail = c.goal(g, CutTo::Clause, last);
    }
    if query {
        c.code.push(Instr::Stop);
    } else if !tail {
        if env {
            c.code.push(Instr::Deallocate);
        }
        c.code.push(Instr::Proceed);
    }
    if env {
        c.code[addr as usize] = Instr::Allocate(c.ny);
    }
    *max_x = (*max_x).max(c.max_x).max(c.next_x);
    addr
}

impl Comp<'_> {
    fn temp(&mut self) -> u32 {
        let t = self.next_x;
        self.next_x += 1;
        self.max_x = self.max_x.max(self.next_x);
        t
    }

    fn y_slot(&mut self) -> u32 {
        let y = self.ny;
        self.ny += 1;
        y
    }

    /// Head argument `t` against argument register `a`.
    fn get_arg(&mut self, t: Cell, a: u32) {
        if t == VOID_ARG {
            return;
        }
        match t {
            Cell::Var(s) | Cell::Ref(s) => {
                let s = s as usize;
                if self.count[s] <= 1 {
                    return;
                }
                let r = self.regs[s];
                if self.seen[s] {
                    self.code.push(Instr::GetVal(r, a));
                } else {
                    self.seen[s] = true;
                    // (a variable kept in its argument register: nothing to move)
                    if r != Reg::X(a) {
                        self.code.push(Instr::GetVar(r, a));
                    }
                }
            }
            Cell::Struct(_) | Cell::List(_) => {
                let mut pending = std::collections::VecDeque::new();
                self.get_compound(t, a, &mut pending);
                while let Some((t, x)) = pending.pop_front() {
                    self.get_compound(t, x, &mut pending);
                }
            }
            constant => self.code.push(Instr::GetConst(constant, a)),
        }
    }

    fn get_compound(
        &mut self,
        t: Cell,
        a: u32,
        pending: &mut std::collections::VecDeque<(Cell, u32)>,
    ) {
        let args: Vec<Cell> = match t {
            Cell::Struct(p) => {
                let f = self.cells[p as usize];
                let Cell::Functor(_, n) = f else {
                    unreachable!("a compound template starts with its functor")
                };
                self.code.push(Instr::GetStruct(f, a));
                self.cells[p as usize + 1..=(p + n) as usize].to_vec()
            }
            Cell::List(p) => {
                let (h, t) = (self.cells[p as usize], self.cells[p as usize + 1]);
                // `[H|T]` of two new variables (or compounds, read later): one instruction
                if self.fresh(h) && self.fresh(t) {
                    let x = self.take_fresh(h, pending);
                    let y = self.take_fresh(t, pending);
                    self.code.push(Instr::GetListXX(a, x, y));
                    return;
                }
                self.code.push(Instr::GetList(a));
                vec![h, t]
            }
            _ => unreachable!("a compound"),
        };
        for t in args {
            match t {
                Cell::Struct(_) | Cell::List(_) => {
                    let x = self.temp();
                    self.code.push(Instr::UnifyVar(Reg::X(x)));
                    pending.push_back((t, x));
                }
                _ => self.unify_simple(t),
            }
        }
    }

    /// For [`Instr::GetListXX`]: is list argument `t` a temporary variable's first occurrence,
    /// a variable met once, or a compound (read later from a temporary)?
    fn fresh(&self, t: Cell) -> bool {
        match t {
            Cell::Var(s) | Cell::Ref(s) => {
                let s = s as usize;
                self.count[s] <= 1 || (matches!(self.regs[s], Reg::X(_)) && !self.seen[s])
            }
            Cell::Struct(_) | Cell::List(_) => true,
            _ => false,
        }
    }

    /// The register of a [`Comp::fresh`] list argument (a compound is pushed on `pending`).
    fn take_fresh(
        &mut self,
        t: Cell,
        pending: &mut std::collections::VecDeque<(Cell, u32)>,
    ) -> u32 {
        match t {
            Cell::Var(s) | Cell::Ref(s) => {
                let s = s as usize;
                match self.regs[s] {
                    Reg::X(x) if self.count[s] > 1 => {
                        self.seen[s] = true;
                        x
                    }
                    _ => self.temp(),
                }
            }
            _ => {
                let x = self.temp();
                pending.push_back((t, x));
                x
            }
        }
    }

    /// A variable or constant argument of a compound (read or write mode).
    fn unify_simple(&mut self, t: Cell) {
        match slot(t) {
            Some(s) => {
                let s = s as usize;
                if self.count[s] <= 1 {
                    self.code.push(Instr::UnifyVoid);
                    return;
                }
                let r = self.regs[s];
                if self.seen[s] {
                    self.code.push(Instr::UnifyVal(r));
                } else {
                    self.seen[s] = true;
                    self.code.push(Instr::UnifyVar(r));
                }
            }
            None => self.code.push(Instr::UnifyConst(t)),
        }
    }

    /// Body argument `t` into argument register `a`.
    fn put_arg(&mut self, t: Cell, a: u32) {
        match t {
            Cell::Var(s) | Cell::Ref(s) => {
                let s = s as usize;
                if self.count[s] <= 1 {
                    let x = self.temp();
                    self.code.push(Instr::PutVar(Reg::X(x), a));
                    return;
                }
                let r = self.regs[s];
                if self.seen[s] {
                    if r != Reg::X(a) {
                        self.code.push(Instr::PutVal(r, a));
                    }
                } else {
                    self.seen[s] = true;
                    self.code.push(Instr::PutVar(r, a));
                }
            }
            Cell::Struct(_) | Cell::List(_) => self.build(t, a),
            constant => self.code.push(Instr::PutConst(constant, a)),
        }
    }

    /// Builds compound `t` into register `a`, its compound arguments first (into temporaries).
    fn build(&mut self, t: Cell, a: u32) {
        let (head, args): (Instr, Vec<Cell>) = match t {
            Cell::Struct(p) => {
                let f = self.cells[p as usize];
                let Cell::Functor(_, n) = f else {
                    unreachable!("a compound template starts with its functor")
                };
                (
                    Instr::PutStruct(f, a),
                    self.cells[p as usize + 1..=(p + n) as usize].to_vec(),
                )
            }
            Cell::List(p) => (
                Instr::PutList(a),
                self.cells[p as usize..p as usize + 2].to_vec(),
            ),
            _ => unreachable!("a compound"),
        };
        let subs: Vec<Option<u32>> = args
            .iter()
            .map(|&t| match t {
                Cell::Struct(_) | Cell::List(_) => {
                    let x = self.temp();
                    self.build(t, x);
                    Some(x)
                }
                _ => None,
            })
            .collect();
        self.code.push(head);
        for (t, sub) in args.into_iter().zip(subs) {
            match sub {
                Some(x) => self.code.push(Instr::UnifyVal(Reg::X(x))),
                None => self.unify_simple(t),
            }
        }
    }

    fn cut(&mut self, to: CutTo) {
        self.code.push(match to {
            CutTo::Clause if !self.called => Instr::CutB0,
            CutTo::Clause => Instr::CutEnv,
            CutTo::Local(y, off) => Instr::CutY(y, off),
        });
    }

    /// Emits goal `g`; `last`: the clause's last goal (a user call becomes a last call).
    /// Returns whether the clause's code ended (a last call).
    fn goal(&mut self, g: &Node, cut: CutTo, last: bool) -> bool {
        match g {
            Node::Goal(disp, name, args) => {
                let arity = args.len() as u32;
                match *disp {
                    Dispatch::Control(Control::True) => self.code.push(Instr::Count(*name, 0)),
                    Dispatch::Control(Control::Fail) => {
                        self.code.push(Instr::Count(*name, 0));
                        self.code.push(Instr::Fail);
                    }
                    Dispatch::Control(Control::Cut) => {
                        self.code.push(Instr::Count(*name, 0));
                        self.cut(cut);
                    }
                    Dispatch::User(p) => {
                        for (i, &t) in args.iter().enumerate() {
                            self.put_arg(t, i as u32);
                        }
                        if last {
                            if self.env {
                                self.code.push(Instr::Deallocate);
                            }
                            self.code.push(Instr::Execute(p));
                            return true;
                        }
                        self.code.push(Instr::Call(p));
                        self.called = true;
                    }
                    Dispatch::Native(f) => {
                        for (i, &t) in args.iter().enumerate() {
                            self.put_arg(t, i as u32);
                        }
                        let k = self.natives.len() as u32;
                        self.natives.push(Native {
                            f,
                            name: *name,
                            arity,
                        });
                        self.code.push(Instr::CallNative(k));
                    }
                    Dispatch::Unknown => {
                        for (i, &t) in args.iter().enumerate() {
                            self.put_arg(t, i as u32);
                        }
                        self.code.push(Instr::Unknown(*name, arity));
                    }
                    Dispatch::Host(id) => {
                        for (i, &t) in args.iter().enumerate() {
                            self.put_arg(t, i as u32);
                        }
                        self.code.push(Instr::CallHost(*name, arity, id));
                    }
                    Dispatch::Control(_) => unreachable!("left out by `node`"),
                }
                false
            }
            Node::Conj(a, b) => {
                self.code.push(Instr::Count(atom::COMMA, 2));
                self.goal(a, cut, false);
                self.goal(b, cut, false);
                false
            }
            Node::Disj(name, a, b) => {
                self.code.push(Instr::Count(*name, 2));
                let try_at = self.code.len();
                self.code.push(Instr::TryElse(0));
                self.goal(a, cut, false);
                let jump_at = self.code.len();
                self.code.push(Instr::Jump(0));
                self.code[try_at] = Instr::TryElse(self.code.len() as u32);
                self.goal(b, cut, false);
                self.code[jump_at] = Instr::Jump(self.code.len() as u32);
                false
            }
            Node::Ite(name, c, t, e) => {
                self.code.push(Instr::Count(*name, 2));
                let y = self.y_slot();
                self.code.push(Instr::SaveB(y));
                let try_at = self.code.len();
                self.code.push(Instr::TryElse(0));
                self.goal(c, CutTo::Local(y, 1), false);
                self.code.push(Instr::CutY(y, 0));
                self.goal(t, cut, false);
                let jump_at = self.code.len();
                self.code.push(Instr::Jump(0));
                self.code[try_at] = Instr::TryElse(self.code.len() as u32);
                self.goal(e, cut, false);
                self.code[jump_at] = Instr::Jump(self.code.len() as u32);
                false
            }
            Node::SoftIte(name, c, t, e) => {
                // the else branch's choicepoint is disabled (not cut) when the condition
                // succeeds: the condition's other answers stay
                self.code.push(Instr::Count(*name, 2));
                let y = self.y_slot();
                self.code.push(Instr::SaveB(y));
                let try_at = self.code.len();
                self.code.push(Instr::TryElse(0));
                self.goal(c, CutTo::Local(y, 1), false);
                self.code.push(Instr::Meta(super::meta::Op::SoftCut(y)));
                self.goal(t, cut, false);
                let jump_at = self.code.len();
                self.code.push(Instr::Jump(0));
                self.code[try_at] = Instr::TryElse(self.code.len() as u32);
                self.goal(e, cut, false);
                self.code[jump_at] = Instr::Jump(self.code.len() as u32);
                false
            }
            Node::SoftIfThen(c, t) => {
                self.code.push(Instr::Count(atom::SOFT_ARROW, 2));
                let y = self.y_slot();
                self.code.push(Instr::SaveB(y));
                self.goal(c, CutTo::Local(y, 0), false);
                self.goal(t, cut, false);
                false
            }
            Node::IfThen(c, t) => {
                self.code.push(Instr::Count(atom::ARROW, 2));
                let y = self.y_slot();
                self.code.push(Instr::SaveB(y));
                self.goal(c, CutTo::Local(y, 0), false);
                self.code.push(Instr::CutY(y, 0));
                self.goal(t, cut, false);
                false
            }
            Node::Meta(c, name, args) => {
                for (i, &t) in args.iter().enumerate() {
                    self.put_arg(t, i as u32);
                }
                self.code.push(Instr::Meta(super::meta::Op::Ctl(
                    *c,
                    *name,
                    args.len() as u32,
                )));
                self.called = true;
                false
            }
            Node::Direct(t) => {
                self.put_arg(*t, 0);
                self.code.push(Instr::Meta(super::meta::Op::Direct));
                self.called = true;
                false
            }
            Node::Not(name, g) => {
                self.code.push(Instr::Count(*name, 1));
                let y = self.y_slot();
                self.code.push(Instr::SaveB(y));
                let try_at = self.code.len();
                self.code.push(Instr::TryElse(0));
                self.goal(g, CutTo::Local(y, 1), false);
                self.code.push(Instr::CutY(y, 0));
                self.code.push(Instr::Fail);
                self.code[try_at] = Instr::TryElse(self.code.len() as u32);
                false
            }
            Node::Once(name, g) => {
                // `once/1`'s call, its clause's `call(G)`, G (opaque to cut), its `!`
                self.code.push(Instr::Count(*name, 1));
                let y = self.y_slot();
                self.code.push(Instr::SaveB(y));
                self.code.push(Instr::Count(atom::CALL, 1));
                self.goal(g, CutTo::Local(y, 0), false);
                self.code.push(Instr::Count(atom::CUT, 0));
                self.code.push(Instr::CutY(y, 0));
                false
            }
        }
    }
}
