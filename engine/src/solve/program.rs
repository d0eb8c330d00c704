//! Program data: clauses compiled to templates (`ClauseT`, `GoalT`), grouped into predicates
//! (`Pred`) with first-argument indexes, in an immutable `Program`. Made by [`ProgramBuilder`]
//! (`build.rs`) from clauses compiled by `compile.rs`, and annotated by the passes
//! (`specialise.rs`, `memoizable.rs`, `statememo.rs`).
//!
//! Invariants:
//! - A `Program` is immutable once built and cheap to clone (`Arc`); queries own a clone.
//! - Template cells use `Cell::Var(slot)` for clause variables; `Struct`/`List` addresses index the
//!   clause's own `cells` array; every compound's subtree occupies the contiguous range
//!   `p..ends[p]`, so instantiating it is one pass of relocation.
//!
//! Dependencies go one way: program data (this file) ← compilation (`compile.rs`) ← passes
//! (`specialise.rs`, `memoizable.rs`, `statememo.rs`) ← the builder (`build.rs`). The re-exports
//! below keep the paths `solve::program::{control, compile_term, split_clause, ProgramBuilder}`
//! that the rest of the crate uses.

use crate::atom::{self, Atom};
use crate::diag::Span;
use crate::solve::builtins::Builtin;
use crate::solve::store::Cell;
use crate::term::Term;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::Arc;

pub use super::build::ProgramBuilder;
pub use super::compile::{compile_term, control, split_clause};

/// Control constructs, executed by the machine itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Conj,
    Disj,
    IfThen,
    SoftIfThen,
    Not,
    /// `call/(N+1)`: N extra arguments.
    Call(u8),
    Cut,
    True,
    Fail,
    Catch,
    Throw,
    Findall,
    Findall4,
}

/// What a goal calls.
#[derive(Clone, Copy)]
pub enum Dispatch {
    Control(Control),
    User(u32),
    Native(Builtin),
    /// A predicate provided by the host (the game manager's `fact/1`, `create/1`, ...), by host id.
    Host(u32),
    Unknown,
}

impl std::fmt::Debug for Dispatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dispatch::Control(c) => write!(f, "Control({c:?})"),
            Dispatch::User(p) => write!(f, "User({p})"),
            Dispatch::Native(_) => write!(f, "Native"),
            Dispatch::Host(h) => write!(f, "Host({h})"),
            Dispatch::Unknown => write!(f, "Unknown"),
        }
    }
}

/// A body goal of a compiled clause.
#[derive(Clone, Debug)]
pub struct GoalT {
    pub disp: Dispatch,
    pub name: Atom,
    pub arity: u32,
    /// Argument roots (template cells).
    pub args: Box<[Cell]>,
    /// The template cells of the compound arguments, one after the other in argument order
    /// (`cells[block.0..block.1]`; empty without compound arguments), or `block.0 == u32::MAX`
    /// when they are not contiguous (set by `goal_blocks`) and for the goals with `arith` (then
    /// `block.1` is the number of those cells, set by `arith_goals`).
    pub block: (u32, u32),
    /// The built-in arithmetic goal (`is/2` or a comparison, [`ArithOp`]) the machine may run from
    /// the templates when its operands are integers (set by `arith_goals`; `None` otherwise).
    pub arith: Option<ArithOp>,
    /// A goal with `arith` whose operands are small integer expressions, decoded
    /// (`compile::arith_code`): what the machine evaluates instead of walking the templates
    /// (`None`: the templates are walked, e.g. for deeper expressions).
    pub code: Option<Box<ArithCode>>,
    /// The root of this goal's compiled control construct in [`ProgramData::subs`] (`u32::MAX`: none;
    /// set by `compile::control_subs`): an if-then-else, disjunction or negation run from the
    /// clause's templates instead of being built as a term and meta-called.
    pub sub: u32,
    /// A goal of a list host predicate ([`ProgramData::list_hosts`]) whose one argument is a proper list of at most
    /// [`HOST_LIST_MAX`] elements, each an atomic constant or a variable (set by `arith_goals`;
    /// then `block` is as for `arith`): the machine may hand the host the elements
    /// ([`crate::solve::host::Host::call_list`]) instead of building the list.
    pub host_list: bool,
    /// A `host_list` goal's list decided at load time (set with `host_list` by `arith_goals`;
    /// `None` for the other goals): what [`crate::solve::host::Host::call_site`] is given.
    pub site: Option<Box<crate::solve::host::HostSite>>,
}

/// The longest list of a [`GoalT::host_list`] goal.
pub const HOST_LIST_MAX: usize = 4;

/// A node of a control construct compiled into its clause (`compile::control_subs`): it runs as
/// the meta-call of the term the construct's subterm would be, step for step (the same frames,
/// choicepoints, inference counts and call names), without building the term or resolving it.
#[derive(Clone, Debug)]
pub enum SubGoal {
    /// A goal that is not one of the constructs below (its arguments are templates of the
    /// clause's cells), dispatched as a goal frame of its term would dispatch it.
    Goal(GoalT),
    /// `,`/2, `;`/2 (`name` `;` or `|`), `->`/2, `*->`/2 with the nodes of their arguments.
    Conj(u32, u32),
    Disj(Atom, u32, u32),
    IfThen(u32, u32),
    SoftIfThen(u32, u32),
    /// `\+`/1 or `not/1` (`name`) of a plain goal (a [`SubGoal::Goal`] node).
    Not(Atom, u32),
}

/// The arithmetic built-ins that the machine runs from a goal's templates when every operand is
/// an integer (`compile::arith_goals`, `Machine::arith_goal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Is,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
}

/// An arithmetic goal ([`GoalT::arith`]) decoded at compile time (`compile::arith_code`): its
/// two arguments, each an operation of two operands ([`AOp::Val`]: the first operand itself;
/// for `is/2` the left-hand side is a variable or an integer); the operations nested deeper are
/// `nodes`. The machine evaluates it with integers only and leaves everything else (unbound or
/// non-integer operands, overflow, division by zero) to the built-in, which then finds the same
/// value or raises the error.
#[derive(Clone, Debug, PartialEq)]
pub struct ArithCode {
    pub lhs: ANode,
    pub rhs: ANode,
    pub nodes: Box<[ANode]>,
}

/// An operand of [`ArithCode`]: a clause variable's slot, an integer, or the result of node `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AVal {
    Slot(u32),
    Int(i64),
    Node(u32),
}

/// An operation of [`ArithCode`] on its operands (`b` unused by the unary ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ANode {
    pub op: AOp,
    pub a: AVal,
    pub b: AVal,
}

/// The evaluable functions [`ArithCode`] computes (on integers, as `arith::eval` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AOp {
    /// The first operand (no operation).
    Val,
    /// `+/2`, `-/2`, `*/2`
    Add,
    Sub,
    Mul,
    /// `-/1`, `abs/1`
    Neg,
    Abs,
    /// `///2`, `div/2`, `mod/2`, `rem/2`
    IntDiv,
    FloorDiv,
    Mod,
    Rem,
    /// `min/2`, `max/2`
    Min,
    Max,
}

/// A compiled clause.
#[derive(Clone, Debug)]
pub struct ClauseT {
    pub cells: Box<[Cell]>,
    pub ends: Box<[u32]>,
    pub nvars: u32,
    pub head_args: Box<[Cell]>,
    /// The head's leading arguments that bind nothing (`compile::head_lead`): up to the first
    /// argument that is neither a variable's first occurrence nor void, the argument and slot of
    /// each first occurrence (at most [`LEAD_MAX`], 16 bits each: the argument in the low byte,
    /// the slot in the high one; `lead_n` of them). The machine copies their values into the
    /// environment in one loop (WAM `get_variable`s: no template reads, no dispatch per
    /// argument); the head's general loop starts at argument `lead_end`.
    pub lead: u64,
    pub lead_n: u32,
    pub lead_end: u32,
    /// Bit `i` set: head argument `i` (below 64) is a compound whose own arguments are all
    /// variables or atomic constants (`compile::head_flat`), unified by
    /// `Machine::unify_head_flat` in one loop instead of the general template walk.
    pub flat: u64,
    pub body: Box<[GoalT]>,
    pub span: Span,
    /// The clause as written (`Head :- Body` or `Head`).
    pub term: Term,
    pub var_names: Arc<[String]>,
}

/// The most leading first occurrences [`ClauseT::lead`] holds.
pub const LEAD_MAX: usize = 4;

/// First-argument index key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Atom(Atom),
    Int(i64),
    Float(u64),
    Str(Atom),
    Functor(Atom, u32),
}

impl Key {
    pub fn of_cell(c: Cell, functor_at: impl Fn(u32) -> Cell) -> Option<Key> {
        Some(match c {
            Cell::Atom(a) => Key::Atom(a),
            Cell::Int(i) => Key::Int(i),
            Cell::Float(f) => Key::Float(f.to_bits()),
            Cell::Str(s) => Key::Str(s),
            Cell::List(_) => Key::Functor(atom::DOT, 2),
            Cell::Struct(p) => match functor_at(p) {
                Cell::Functor(f, n) => Key::Functor(f, n),
                _ => return None,
            },
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, Default)]
pub struct PredIndex {
    /// `lists[0]`: every clause; `lists[1]`: clauses whose first argument is a variable; others: the
    /// clauses that can match one key (that key's clauses and the variable ones, in source order).
    pub lists: Vec<Box<[u32]>>,
    /// Key → list, for predicates with many distinct first-argument keys.
    pub by_key: FxHashMap<Key, u32>,
    /// Key → list, scanned linearly when there are few keys (cheaper than hashing).
    pub few: Vec<(Key, u32)>,
}

const FEW_KEYS: usize = 8;

#[derive(Clone, Debug)]
pub struct Pred {
    pub name: Atom,
    pub arity: u32,
    pub clauses: Vec<ClauseT>,
    /// Defined by the prelude rather than by the game.
    pub library: bool,
    pub index: PredIndex,
    /// Calls may be memoized: the predicate cannot reach the game state (`fact/1`, schedules,
    /// `does/2`), a meta-call of an unknown goal, or random numbers, and is not recursive. Its
    /// solutions depend on its arguments only.
    pub memo: bool,
    /// What the predicate can reach besides its arguments, calls of other predicates included: bit
    /// `i` (`i < 63`) for host predicate `i` (`min(i, 62)`), [`REACHES_UNKNOWN`] for a meta-call of
    /// an unknown goal or random numbers. `0`: its solutions depend on its arguments only.
    pub reaches: u64,
    /// Calls may be tabled per state ([`super::statememo`]): bit [`super::statememo::MODE_NONE`]
    /// with every argument generalised, [`super::statememo::MODE_FIRST`] with all but the first;
    /// with [`super::statememo::MODE_CONTEXT`] the tables are valid per context
    /// ([`super::host::Host::context_id`]) rather than per state.
    pub state_memo: u8,
}

/// The bit of [`Pred::reaches`] for meta-calls of unknown goals and random numbers.
pub const REACHES_UNKNOWN: u64 = 1 << 63;

impl Pred {
    pub(super) fn build_index(&mut self) {
        let all: Vec<u32> = (0..self.clauses.len() as u32).collect();
        let mut var_first = Vec::new();
        let mut per_key: Vec<(Key, Vec<u32>)> = Vec::new();
        let mut key_pos: HashMap<Key, usize> = HashMap::new();
        if self.arity > 0 {
            for (i, c) in self.clauses.iter().enumerate() {
                let i = i as u32;
                match Key::of_cell(c.head_args[0], |p| c.cells[p as usize]) {
                    None => {
                        var_first.push(i);
                        for (_, v) in per_key.iter_mut() {
                            v.push(i);
                        }
                    }
                    Some(k) => {
                        let pos = *key_pos.entry(k).or_insert_with(|| {
                            per_key.push((k, var_first.clone()));
                            per_key.len() - 1
                        });
                        per_key[pos].1.push(i);
                    }
                }
            }
        }
        let mut lists = vec![all.into_boxed_slice(), var_first.into_boxed_slice()];
        let mut by_key = FxHashMap::default();
        let mut few = Vec::new();
        let many = per_key.len() > FEW_KEYS;
        for (k, v) in per_key {
            if many {
                by_key.insert(k, lists.len() as u32);
            } else {
                few.push((k, lists.len() as u32));
            }
            lists.push(v.into_boxed_slice());
        }
        self.index = PredIndex { lists, by_key, few };
    }

    /// The candidate list for a call whose first argument (dereferenced) is `first`.
    #[inline]
    pub fn candidates(&self, first: Option<Key>) -> u32 {
        match first {
            None => 0,
            Some(k) => {
                if self.index.by_key.is_empty() {
                    for &(key, list) in &self.index.few {
                        if key == k {
                            return list;
                        }
                    }
                    1
                } else {
                    self.index.by_key.get(&k).copied().unwrap_or(1)
                }
            }
        }
    }
}

#[derive(Debug, Default)]
pub struct ProgramData {
    pub preds: Vec<Pred>,
    pub by_key: FxHashMap<(Atom, u32), u32>,
    /// Host predicates (name, arity) → host id.
    pub host: FxHashMap<(Atom, u32), u32>,
    /// The state and context host predicates (bits by host id): a query whose goal reaches no
    /// other host predicate changes no context, so per-context tables pay there.
    pub table_hosts: u64,
    /// The host predicates whose calls with a short list are handed to
    /// [`crate::solve::host::Host::call_list`] ([`GoalT::host_list`]; bits by host id).
    pub list_hosts: u64,
    /// The nodes of the control constructs compiled into clauses ([`GoalT::sub`]; kept out of
    /// [`ClauseT`], whose size the clause tries index by).
    pub subs: Vec<SubGoal>,
    /// Per node of [`ProgramData::subs`]: as the condition of an if-then-else, whether the
    /// machine decides it in place (`Machine::if_direct`), and then the calls it counts (1 to 15;
    /// 0: it does not; `compile::direct_conds`).
    pub direct_conds: Vec<u8>,
}

/// An immutable, shareable program.
#[derive(Clone, Debug, Default)]
pub struct Program(pub Arc<ProgramData>);

impl Program {
    pub fn data(&self) -> &ProgramData {
        &self.0
    }

    pub fn pred(&self, name: Atom, arity: u32) -> Option<&Pred> {
        self.0
            .by_key
            .get(&(name, arity))
            .map(|&i| &self.0.preds[i as usize])
    }

    /// What `clause`'s body can reach (bits as in [`Pred::reaches`]): its own calls and what the
    /// predicates it calls reach. A predicate's `reaches` is the union over its clauses; this says
    /// which clauses contribute.
    pub fn clause_reaches(&self, clause: &ClauseT) -> u64 {
        super::memoizable::clause_reaches(&self.0, clause)
    }
}
