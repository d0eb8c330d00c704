//! Compilation: clause terms to templates (`ClauseT`: preorder cells, each compound's subtree
//! contiguous), the head and goal layout the machine relies on (first occurrences, void head
//! arguments, goal blocks), and goal resolution (`control`, `resolve`). Resolution order for a goal
//! `name/arity`: control constructs, then the game's own predicates, then native built-ins, then
//! the Prolog prelude. A game's predicate with a library name replaces the library one (with a
//! warning, `build.rs`).
//!
//! Uses the program data (`program.rs`) only.

use super::program::{
    ANode, AOp, AVal, ArithCode, ArithOp, ClauseT, Control, Dispatch, GoalT, Pred, PredIndex,
    Program, ProgramData, SubGoal, HOST_LIST_MAX, LEAD_MAX,
};
use crate::atom::{self, Atom};
use crate::diag::{Diagnostic, Span};
use crate::solve::builtins;
use crate::solve::store::Cell;
use crate::term::Term;
use std::sync::Arc;

/// A clause given to the program builder.
#[derive(Clone, Debug)]
pub struct SourceClause {
    pub term: Term,
    pub span: Span,
    pub var_names: Arc<[String]>,
}

pub fn control(name: Atom, arity: u32) -> Option<Control> {
    Some(match (name, arity) {
        (atom::COMMA, 2) => Control::Conj,
        (atom::SEMI, 2) | (atom::BAR, 2) => Control::Disj,
        (atom::ARROW, 2) => Control::IfThen,
        (atom::SOFT_ARROW, 2) => Control::SoftIfThen,
        (atom::NOT_PROVABLE, 1) | (atom::NOT, 1) => Control::Not,
        (atom::CALL, n @ 1..=8) => Control::Call((n - 1) as u8),
        (atom::CUT, 0) => Control::Cut,
        (atom::TRUE, 0) => Control::True,
        (atom::FAIL, 0) | (atom::FALSE, 0) => Control::Fail,
        _ => {
            let n = name.name();
            match (n, arity) {
                ("catch", 3) => Control::Catch,
                ("throw", 1) => Control::Throw,
                ("findall", 3) => Control::Findall,
                ("findall", 4) => Control::Findall4,
                _ => return None,
            }
        }
    })
}

/// Resolves `name/arity` in a program being built or built.
pub fn resolve(data: &ProgramData, name: Atom, arity: u32) -> Dispatch {
    if let Some(c) = control(name, arity) {
        return Dispatch::Control(c);
    }
    if let Some(&h) = data.host.get(&(name, arity)) {
        return Dispatch::Host(h);
    }
    if let Some(&p) = data.by_key.get(&(name, arity)) {
        if !data.preds[p as usize].library {
            return Dispatch::User(p);
        }
        if let Some(b) = builtins::lookup(name, arity) {
            return Dispatch::Native(b);
        }
        return Dispatch::User(p);
    }
    if let Some(b) = builtins::lookup(name, arity) {
        return Dispatch::Native(b);
    }
    Dispatch::Unknown
}

/// `(Head, Body)` of a clause term; `None` for a directive.
pub fn split_clause(t: &Term) -> Option<(&Term, Option<&Term>)> {
    match t {
        Term::Compound(f, args) if *f == atom::NECK && args.len() == 2 => {
            Some((&args[0], Some(&args[1])))
        }
        Term::Compound(f, args) if *f == atom::NECK && args.len() == 1 => None,
        _ => Some((t, None)),
    }
}

pub(super) fn add_clause(
    data: &mut ProgramData,
    c: SourceClause,
    library: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let Some((head, body)) = split_clause(&c.term) else {
        diags.push(
            Diagnostic::error("E0101", "directives are not supported", c.span)
                .with_help("SIDL games are declarative: write the goal as a rule or remove it"),
        );
        return;
    };
    let Some((name, arity)) = head.functor().filter(|_| head.is_callable()) else {
        diags.push(Diagnostic::error(
            "E0102",
            "a clause head must be an atom or a compound term",
            c.span,
        ));
        return;
    };
    let arity = arity as u32;
    if control(name, arity).is_some() {
        diags.push(Diagnostic::error(
            "E0103",
            format!("{name}/{arity} is a control construct and cannot be redefined"),
            c.span,
        ));
        return;
    }
    if data.host.contains_key(&(name, arity)) {
        diags.push(Diagnostic::error(
            "E0105",
            format!(
                "{name}/{arity} is provided by the game manager and cannot be defined by the game"
            ),
            c.span,
        ));
        return;
    }
    let mut goals = Vec::new();
    let body = body.map(convert_body);
    if let Some(b) = body.as_deref() {
        if let Err(msg) = flatten_body(b, &mut goals) {
            diags.push(Diagnostic::error("E0106", msg, c.span));
            return;
        }
    }
    let clause = compile_clause(head, &goals, &c);
    let idx = *data.by_key.entry((name, arity)).or_insert_with(|| {
        data.preds.push(Pred {
            name,
            arity,
            clauses: Vec::new(),
            library,
            index: PredIndex::default(),
            memo: false,
            reaches: 0,
            state_memo: 0,
        });
        (data.preds.len() - 1) as u32
    });
    data.preds[idx as usize].clauses.push(clause);
}

/// ISO 7.6.2 (converting a term to a body): a variable in the place of a goal inside the control
/// constructs `,`, `;` (`|`), `->` and `*->` becomes `call(G)`, so that a `!` it is bound to
/// later cuts only itself (`p :- G = !, (G ; true)` has two answers, as in SWI-Prolog). The body
/// is borrowed as it is when it has no such variable.
fn convert_body(b: &Term) -> std::borrow::Cow<'_, Term> {
    use std::borrow::Cow;
    match b {
        Term::Var(_) => Cow::Owned(Term::new_compound(atom::CALL, vec![b.clone()])),
        Term::Compound(f, args)
            if args.len() == 2
                && matches!(
                    *f,
                    atom::COMMA | atom::SEMI | atom::BAR | atom::ARROW | atom::SOFT_ARROW
                ) =>
        {
            match (convert_body(&args[0]), convert_body(&args[1])) {
                (Cow::Borrowed(_), Cow::Borrowed(_)) => Cow::Borrowed(b),
                (l, r) => Cow::Owned(Term::new_compound(*f, vec![l.into_owned(), r.into_owned()])),
            }
        }
        _ => Cow::Borrowed(b),
    }
}

/// Splits a body into its top-level conjuncts; a variable goal `G` becomes `call(G)`.
fn flatten_body<'a>(b: &'a Term, out: &mut Vec<GoalSrc<'a>>) -> Result<(), String> {
    let mut stack = vec![b];
    while let Some(t) = stack.pop() {
        match t {
            Term::Compound(f, args) if *f == atom::COMMA && args.len() == 2 => {
                stack.push(&args[1]);
                stack.push(&args[0]);
            }
            Term::Var(_) => out.push(GoalSrc {
                name: atom::CALL,
                args: std::slice::from_ref(t),
            }),
            Term::Atom(a) => out.push(GoalSrc {
                name: *a,
                args: &[],
            }),
            Term::Compound(f, args) => out.push(GoalSrc { name: *f, args }),
            other => {
                return Err(format!(
                    "{} is not a callable goal",
                    crate::write::canonical(other)
                ))
            }
        }
    }
    Ok(())
}

struct GoalSrc<'a> {
    name: Atom,
    args: &'a [Term],
}

fn compile_clause(head: &Term, goals: &[GoalSrc<'_>], c: &SourceClause) -> ClauseT {
    let mut cells = Vec::new();
    let mut ends = Vec::new();
    let head_args: Box<[Cell]> = head
        .args()
        .iter()
        .map(|a| compile_term(a, &mut cells, &mut ends))
        .collect();
    let body: Box<[GoalT]> = goals
        .iter()
        .map(|g| GoalT {
            disp: Dispatch::Unknown,
            name: g.name,
            arity: g.args.len() as u32,
            args: g
                .args
                .iter()
                .map(|a| compile_term(a, &mut cells, &mut ends))
                .collect(),
            block: (u32::MAX, 0),
            arith: None,
            code: None,
            sub: u32::MAX,
            host_list: false,
            site: None,
        })
        .collect();
    ClauseT {
        cells: cells.into_boxed_slice(),
        ends: ends.into_boxed_slice(),
        nvars: c.term.var_count(),
        head_args,
        lead: 0,
        lead_n: 0,
        lead_end: 0,
        flat: 0,
        body,
        span: c.span,
        term: c.term.clone(),
        var_names: c.var_names.clone(),
    }
}

/// Sets [`GoalT::block`] of each body goal: its compound arguments' template subtrees, when they
/// follow each other in the clause's cells (as `compile_term` lays them out), so that the machine
/// copies them in one block.
pub(super) fn goal_blocks(c: &mut ClauseT) {
    for g in c.body.iter_mut() {
        g.block = args_block(&c.ends, &g.args);
    }
}

/// The [`GoalT::block`] of goal arguments `args` (see [`goal_blocks`]).
fn args_block(ends: &[u32], args: &[Cell]) -> (u32, u32) {
    let mut block: Option<(u32, u32)> = None;
    for &a in args.iter() {
        if let Cell::Struct(p) | Cell::List(p) = a {
            let end = ends[p as usize];
            block = match block {
                None => Some((p, end)),
                Some((start, prev)) if prev == p => Some((start, end)),
                Some(_) => return (u32::MAX, 0),
            };
        }
    }
    block.unwrap_or((0, 0))
}

/// Marks the goals that call the built-in `is/2` or an arithmetic comparison (not a predicate of
/// the game's of the same name: those resolve to `Dispatch::User`) with their [`ArithOp`], and
/// gives them the `block` `(u32::MAX, n)` (`n`: the cells of their compound arguments), so that
/// the step loop tests for them only on the path of goals without a contiguous block (after
/// `goal_blocks`).
pub(super) fn arith_goals(c: &mut ClauseT, list_hosts: u64) {
    for g in c.body.iter_mut() {
        arith_goal(&c.cells, &c.ends, g, list_hosts);
    }
}

/// Sets `g.arith` and `g.host_list` and, for such a goal, `g.block` (see [`arith_goals`]).
fn arith_goal(cells: &[Cell], ends: &[u32], g: &mut GoalT, list_hosts: u64) {
    g.arith = match (g.disp, g.arity) {
        (Dispatch::Native(_), 2) => match g.name.name() {
            "is" => Some(ArithOp::Is),
            "<" => Some(ArithOp::Lt),
            ">" => Some(ArithOp::Gt),
            "=<" => Some(ArithOp::Le),
            ">=" => Some(ArithOp::Ge),
            "=:=" => Some(ArithOp::Eq),
            "=\\=" => Some(ArithOp::Ne),
            _ => None,
        },
        _ => None,
    };
    g.host_list = matches!((g.disp, &*g.args), (Dispatch::Host(id), &[a])
        if id < 64 && list_hosts & (1 << id) != 0 && host_list_template(cells, a));
    g.site = g
        .host_list
        .then(|| Box::new(crate::solve::host::HostSite::of(cells, g.args[0])));
    if g.arith.is_some() || g.host_list {
        let size = g
            .args
            .iter()
            .map(|&a| match a {
                Cell::Struct(p) | Cell::List(p) => ends[p as usize] - p,
                _ => 0,
            })
            .sum();
        g.block = (u32::MAX, size);
    }
    g.code = g.arith.and_then(|op| arith_code(cells, op, &g.args));
}

/// The most operations of an [`ArithCode`], and how deeply they may nest.
const ARITH_NODES: usize = 8;
const ARITH_CODE_DEPTH: u32 = 4;

/// The [`ArithCode`] of an arithmetic goal (`op`, arguments `args`) whose arguments are integer
/// expressions of variables and integers with the operations of [`AOp`] (for `is/2` a left-hand
/// side that is a variable or an integer); `None` for anything else (the machine then walks the
/// templates or calls the built-in).
pub(super) fn arith_code(cells: &[Cell], op: ArithOp, args: &[Cell]) -> Option<Box<ArithCode>> {
    let mut nodes = Vec::new();
    let lhs = match (op, args[0]) {
        (ArithOp::Is, Cell::Var(s) | Cell::Ref(s)) => val_node(AVal::Slot(s)),
        (ArithOp::Is, Cell::Int(i)) => val_node(AVal::Int(i)),
        (ArithOp::Is, _) => return None,
        (_, t) => arith_node(cells, t, &mut nodes)?,
    };
    let rhs = arith_node(cells, args[1], &mut nodes)?;
    Some(Box::new(ArithCode {
        lhs,
        rhs,
        nodes: nodes.into_boxed_slice(),
    }))
}

/// The [`ANode`] of an operand that is a value.
fn val_node(a: AVal) -> ANode {
    ANode {
        op: AOp::Val,
        a,
        b: AVal::Int(0),
    }
}

/// The [`ANode`] of template cell `t`, an argument of an arithmetic goal (its nested operations
/// pushed onto `nodes`).
fn arith_node(cells: &[Cell], t: Cell, nodes: &mut Vec<ANode>) -> Option<ANode> {
    match arith_val(cells, t, nodes, 0)? {
        AVal::Node(i) if i as usize + 1 == nodes.len() => nodes.pop(),
        a => Some(val_node(a)),
    }
}

/// The operand of [`ArithCode`] for template cell `t` (its operations pushed onto `nodes`, the
/// operands before the operation).
fn arith_val(cells: &[Cell], t: Cell, nodes: &mut Vec<ANode>, depth: u32) -> Option<AVal> {
    match t {
        Cell::Var(s) | Cell::Ref(s) => Some(AVal::Slot(s)),
        Cell::Int(i) => Some(AVal::Int(i)),
        Cell::Struct(p) if depth < ARITH_CODE_DEPTH => {
            let p = p as usize;
            let Cell::Functor(f, n) = cells[p] else {
                return None;
            };
            let op = match (f.name(), n) {
                ("+", 2) => AOp::Add,
                ("-", 2) => AOp::Sub,
                ("*", 2) => AOp::Mul,
                ("-", 1) => AOp::Neg,
                ("abs", 1) => AOp::Abs,
                ("//", 2) => AOp::IntDiv,
                ("div", 2) => AOp::FloorDiv,
                ("mod", 2) => AOp::Mod,
                ("rem", 2) => AOp::Rem,
                ("min", 2) => AOp::Min,
                ("max", 2) => AOp::Max,
                _ => return None,
            };
            let a = arith_val(cells, cells[p + 1], nodes, depth + 1)?;
            let b = if n == 2 {
                arith_val(cells, cells[p + 2], nodes, depth + 1)?
            } else {
                AVal::Int(0)
            };
            if nodes.len() >= ARITH_NODES {
                return None;
            }
            nodes.push(ANode { op, a, b });
            Some(AVal::Node(nodes.len() as u32 - 1))
        }
        _ => None,
    }
}

/// Is template cell `t` a proper list of 1 to [`HOST_LIST_MAX`] elements, each an atomic constant
/// or a variable ([`GoalT::host_list`])?
fn host_list_template(cells: &[Cell], mut t: Cell) -> bool {
    let mut n = 0;
    while let Cell::List(p) = t {
        if n == HOST_LIST_MAX
            || !(cells[p as usize].is_atomic()
                || matches!(cells[p as usize], Cell::Var(_) | Cell::Ref(_)))
        {
            return false;
        }
        n += 1;
        t = cells[p as usize + 1];
    }
    n > 0 && t == Cell::Atom(atom::NIL)
}

/// The deepest nesting of control constructs compiled into a clause (deeper ones are meta-called).
const MAX_SUB_DEPTH: u32 = 64;

/// Compiles the body goals of `c` that are a disjunction (if-then-else) or an if-then, with the
/// constructs nested in them (negations of plain goals included), into [`SubGoal`] nodes (pushed to `subs`, the future [`ProgramData::subs`]; the body goals and
/// their root nodes are returned), so that the machine
/// runs them from the clause's templates. A construct is left to the meta-call when some part of
/// it would not run as its term would: a number or string as a goal, nesting deeper than
/// [`MAX_SUB_DEPTH`] (a variable goal is `call(G)` by then: `convert_body`); a negation of a variable or of a control construct (converted at run time)
/// stays a goal node whose argument is built. Resolution is `resolve`'s, as the meta-call's (not
/// the specialised call sites of `specialise.rs`). Last pass: reads `ends` and body templates.
pub(super) fn control_subs(
    data: &ProgramData,
    c: &ClauseT,
    subs: &mut Vec<SubGoal>,
) -> Vec<(usize, u32)> {
    let mut roots = Vec::new();
    for (gi, g) in c.body.iter().enumerate() {
        // (a body goal `\+ G` stays: `Machine::negation` decides it in place, as cheaply;
        // except when `G` is a host-list goal (`\+ fact([..])`), an argument-memo call or
        // `A = B` of variables and constants: its arguments are then not built,
        // `Machine::not_host_env`, `Machine::memo_exists_env` and `Machine::not_eq_env` take
        // them from the clause's environment)
        let not = matches!(g.disp, Dispatch::Control(Control::Not));
        if !not
            && !matches!(
                g.disp,
                Dispatch::Control(Control::Disj | Control::IfThen | Control::SoftIfThen)
            )
        {
            continue;
        }
        let mark = subs.len();
        match sub_node(data, &c.cells, &c.ends, g.name, &g.args, subs, 0) {
            Some(r) if !not || env_not(data, subs, r) => roots.push((gi, r)),
            _ => subs.truncate(mark),
        }
    }
    roots
}

/// Is node `r` of `subs` the negation of a host-list goal (`\+ fact([..])`) or of an
/// argument-memo call (decided from the clause's environment, see [`control_subs`])?
fn env_not(data: &ProgramData, subs: &[SubGoal], r: u32) -> bool {
    match subs[r as usize] {
        SubGoal::Not(_, g) => matches!(&subs[g as usize], SubGoal::Goal(g)
            if g.host_list
                || matches!(g.disp, Dispatch::User(p) if data.preds[p as usize].memo)
                || eq_of_simple(g)),
        _ => false,
    }
}

/// Is `g` the built-in `A = B` of two variables or atomic constants (`\+ A = B` is decided
/// from the clause's environment, `Machine::not_eq_env`)?
pub(super) fn eq_of_simple(g: &GoalT) -> bool {
    g.name == atom::EQUALS
        && g.arity == 2
        && matches!(g.disp, Dispatch::Native(_))
        && !g
            .args
            .iter()
            .any(|a| matches!(a, Cell::Struct(_) | Cell::List(_)))
}

/// Sets the [`GoalT::sub`] of the body goals `roots` (from [`control_subs`]).
pub(super) fn set_subs(c: &mut ClauseT, roots: Vec<(usize, u32)>) {
    for (gi, r) in roots {
        let g = &mut c.body[gi];
        g.sub = r;
        // the step loop tests `sub` only on the path of goals without a contiguous block
        g.block = (u32::MAX, 0);
    }
}

/// Is template cell `t` a goal that is neither a variable nor a control construct?
fn plain_goal(data: &ProgramData, cells: &[Cell], t: Cell) -> bool {
    let (f, n) = match t {
        Cell::Atom(a) => (a, 0),
        Cell::Struct(p) => match cells[p as usize] {
            Cell::Functor(f, n) => (f, n),
            _ => return false,
        },
        Cell::List(_) => (atom::DOT, 2),
        _ => return false,
    };
    !matches!(resolve(data, f, n), Dispatch::Control(_))
}

/// The node of goal `name(args..)` (templates of `cells`), its children pushed first.
fn sub_node(
    data: &ProgramData,
    cells: &[Cell],
    ends: &[u32],
    name: Atom,
    args: &[Cell],
    out: &mut Vec<SubGoal>,
    depth: u32,
) -> Option<u32> {
    if depth > MAX_SUB_DEPTH {
        return None;
    }
    let arity = args.len() as u32;
    let disp = resolve(data, name, arity);
    let node = match disp {
        Dispatch::Control(Control::Conj) => SubGoal::Conj(
            sub_cell(data, cells, ends, args[0], out, depth)?,
            sub_cell(data, cells, ends, args[1], out, depth)?,
        ),
        Dispatch::Control(Control::Disj) => SubGoal::Disj(
            name,
            sub_cell(data, cells, ends, args[0], out, depth)?,
            sub_cell(data, cells, ends, args[1], out, depth)?,
        ),
        Dispatch::Control(Control::IfThen) => SubGoal::IfThen(
            sub_cell(data, cells, ends, args[0], out, depth)?,
            sub_cell(data, cells, ends, args[1], out, depth)?,
        ),
        Dispatch::Control(Control::SoftIfThen) => SubGoal::SoftIfThen(
            sub_cell(data, cells, ends, args[0], out, depth)?,
            sub_cell(data, cells, ends, args[1], out, depth)?,
        ),
        Dispatch::Control(Control::Not) if plain_goal(data, cells, args[0]) => {
            SubGoal::Not(name, sub_cell(data, cells, ends, args[0], out, depth)?)
        }
        _ => {
            let mut g = GoalT {
                disp,
                name,
                arity,
                args: args.into(),
                block: args_block(ends, args),
                arith: None,
                code: None,
                sub: u32::MAX,
                host_list: false,
                site: None,
            };
            arith_goal(cells, ends, &mut g, data.list_hosts);
            SubGoal::Goal(g)
        }
    };
    out.push(node);
    Some((out.len() - 1) as u32)
}

/// The node of the goal at template cell `t`.
fn sub_cell(
    data: &ProgramData,
    cells: &[Cell],
    ends: &[u32],
    t: Cell,
    out: &mut Vec<SubGoal>,
    depth: u32,
) -> Option<u32> {
    match t {
        // (a variable goal was made `call(G)` when the clause was added: `convert_body`; a
        // variable here is left to the meta-call)
        Cell::Atom(a) => sub_node(data, cells, ends, a, &[], out, depth + 1),
        Cell::Struct(p) => match cells[p as usize] {
            Cell::Functor(f, n) => {
                let args = &cells[p as usize + 1..=(p + n) as usize];
                sub_node(data, cells, ends, f, args, out, depth + 1)
            }
            _ => None,
        },
        Cell::List(p) => {
            let args = &cells[p as usize..p as usize + 2];
            sub_node(data, cells, ends, atom::DOT, args, out, depth + 1)
        }
        _ => None,
    }
}

/// A head argument that is a variable met nowhere else in the clause (set by
/// `mark_first_occurrences`; a `Functor` cell is never a template root otherwise): head
/// unification skips it.
pub const VOID_ARG: Cell = Cell::Functor(atom::NIL, 0);

/// Marks the first occurrence of each variable in the clause head, in the order in which
/// [`super::machine`] unifies a head with a call's arguments (arguments left to right, each in
/// preorder), as `Cell::Ref(slot)` instead of `Cell::Var(slot)` (templates hold no `Ref`
/// otherwise). When the machine meets such a cell in read mode the variable's environment cell is
/// still unbound and referenced by nothing, so it takes the argument's value without being read,
/// compared or trailed (WAM `get_variable`); everywhere else (write mode, body arguments) the
/// marker is read like `Var`.
pub(super) fn mark_first_occurrences(c: &mut ClauseT) {
    // a variable met once in the whole clause, as a whole head argument, needs nothing
    let mut count = vec![0u32; c.nvars as usize];
    let roots = c.body.iter().flat_map(|g| g.args.iter());
    for cell in c.cells.iter().chain(c.head_args.iter()).chain(roots) {
        if let Cell::Var(s) = *cell {
            count[s as usize] += 1;
        }
    }
    for a in c.head_args.iter_mut() {
        if let Cell::Var(s) = *a {
            if count[s as usize] == 1 {
                *a = VOID_ARG;
            }
        }
    }
    let mut seen = vec![false; c.nvars as usize];
    let mut first = |cell: &mut Cell| {
        if let Cell::Var(s) = *cell {
            if let Some(b) = seen.get_mut(s as usize) {
                if !*b {
                    *b = true;
                    *cell = Cell::Ref(s);
                }
            }
        }
    };
    // pushes the cell positions of the arguments of compound `cell`, to be popped in order
    let push_args = |cells: &[Cell], cell: Cell, stack: &mut Vec<u32>| match cell {
        Cell::Struct(p) => {
            if let Cell::Functor(_, n) = cells[p as usize] {
                stack.extend((1..=n).rev().map(|k| p + k));
            }
        }
        Cell::List(p) => stack.extend([p + 1, p]),
        _ => {}
    };
    let mut stack: Vec<u32> = Vec::new();
    for i in 0..c.head_args.len() {
        let mut cell = c.head_args[i];
        first(&mut cell);
        c.head_args[i] = cell;
        // cell positions to visit, preorder
        stack.clear();
        push_args(&c.cells, cell, &mut stack);
        while let Some(k) = stack.pop() {
            let mut cell = c.cells[k as usize];
            first(&mut cell);
            c.cells[k as usize] = cell;
            push_args(&c.cells, cell, &mut stack);
        }
    }
}

/// Sets [`ClauseT::lead`] and [`ClauseT::lead_end`] (after [`mark_first_occurrences`]): the head
/// arguments before the first one that is not a first occurrence (`Ref`) or [`VOID_ARG`]. Unifying
/// them binds nothing, so copying their values first, in order, makes the same environment as the
/// head's loop would: the arguments after them are unified afterwards, as before.
pub(super) fn head_lead(c: &mut ClauseT) {
    let (mut lead, mut n, mut end) = (0u64, 0, 0);
    for (i, &a) in c.head_args.iter().enumerate() {
        match a {
            Cell::Ref(s) if n < LEAD_MAX && i < 256 && s < 256 => {
                lead |= (i as u64 | (s as u64) << 8) << (16 * n);
                n += 1;
            }
            a if a == VOID_ARG => {}
            _ => break,
        }
        end = i as u32 + 1;
    }
    c.lead = lead;
    c.lead_n = n as u32;
    c.lead_end = end;
}

/// Sets [`ClauseT::flat`] (after [`mark_first_occurrences`]): the head arguments (the first 64)
/// that are compounds whose own arguments are variables or atomic constants, none a compound or
/// a list (go's `at(put(R0, C0, X, Removed, B), R, C, V)`, kalah's `board(La, Na, Lb, Nb)`).
pub(super) fn head_flat(c: &mut ClauseT) {
    let mut flat = 0u64;
    for (i, &a) in c.head_args.iter().enumerate().take(64) {
        if let Cell::Struct(p) = a {
            let Cell::Functor(_, n) = c.cells[p as usize] else {
                continue;
            };
            let args = &c.cells[p as usize + 1..=(p + n) as usize];
            if args
                .iter()
                .all(|&t| t.is_atomic() || matches!(t, Cell::Ref(_) | Cell::Var(_)))
            {
                flat |= 1 << i;
            }
        }
    }
    c.flat = flat;
}

/// Lays out `t` in preorder so that each compound's subtree is contiguous; returns the root cell.
pub fn compile_term(t: &Term, cells: &mut Vec<Cell>, ends: &mut Vec<u32>) -> Cell {
    enum Job<'a> {
        Term(&'a Term, Option<usize>),
        End(usize),
    }
    let mut root = Cell::Atom(atom::NIL);
    let mut jobs = Vec::with_capacity(16);
    jobs.push(Job::Term(t, None));
    while let Some(job) = jobs.pop() {
        match job {
            Job::End(p) => ends[p] = cells.len() as u32,
            Job::Term(t, slot) => {
                let cell = match t {
                    Term::Var(v) => Cell::Var(*v),
                    Term::Atom(a) => Cell::Atom(*a),
                    Term::Int(i) => Cell::Int(*i),
                    Term::Float(f) => Cell::Float(*f),
                    Term::Str(s) => Cell::Str(*s),
                    Term::Compound(f, args) => {
                        let p = cells.len();
                        let list = *f == atom::DOT && args.len() == 2;
                        if !list {
                            cells.push(Cell::Functor(*f, args.len() as u32));
                        }
                        let first = cells.len();
                        cells.extend(std::iter::repeat_n(Cell::Atom(atom::NIL), args.len()));
                        ends.resize(cells.len(), 0);
                        jobs.push(Job::End(p));
                        for (i, a) in args.iter().enumerate().rev() {
                            jobs.push(Job::Term(a, Some(first + i)));
                        }
                        if list {
                            Cell::List(p as u32)
                        } else {
                            Cell::Struct(p as u32)
                        }
                    }
                };
                match slot {
                    Some(s) => cells[s] = cell,
                    None => root = cell,
                }
            }
        }
    }
    ends.resize(cells.len(), 0);
    root
}

/// Adds the occurrences of each clause variable in `t` to `count` (by variable number).
pub(super) fn count_vars(cells: &[Cell], t: Cell, count: &mut [u32]) {
    let mut stack = vec![t];
    while let Some(c) = stack.pop() {
        match c {
            Cell::Var(v) => {
                if let Some(n) = count.get_mut(v as usize) {
                    *n += 1;
                }
            }
            Cell::Struct(p) => {
                if let Cell::Functor(_, n) = cells[p as usize] {
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
}

impl Program {
    /// How a call of `name/arity` is dispatched.
    pub fn resolve(&self, name: Atom, arity: u32) -> Dispatch {
        resolve(&self.0, name, arity)
    }
}

/// [`ProgramData::direct_conds`] of `subs` (after the library fast paths were given to their
/// call sites): a node that is a goal calling a native built-in (not a library predicate's fast
/// path, which may run clauses; not a host predicate) or a conjunction of such (at most 8 goals)
/// counts its goals and conjunctions; any other node 0.
pub(super) fn direct_conds(subs: &[SubGoal]) -> Vec<u8> {
    fn calls(subs: &[SubGoal], node: u32, depth: u32) -> Option<u8> {
        match &subs[node as usize] {
            &SubGoal::Conj(a, b) if depth < 8 => {
                Some(1 + calls(subs, a, depth + 1)? + calls(subs, b, depth + 1)?)
            }
            SubGoal::Goal(g)
                if matches!(g.disp, Dispatch::Native(_))
                    && !g.host_list
                    && !(g.arity == 3 && builtins::has_library_fast(g.name)) =>
            {
                Some(1)
            }
            _ => None,
        }
    }
    (0..subs.len() as u32)
        .map(|n| calls(subs, n, 0).unwrap_or(0))
        .collect()
}
