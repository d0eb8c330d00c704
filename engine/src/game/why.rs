//! "Why (not)?": explanations of a game's answers in terms of its own clauses (`sidl why`, the
//! playground's "why?" buttons, the language server's `sidl.why` command; guide: `docs/why.md`).
//!
//! A [`Question`] about a session (is a switch legal, is an action among a switch's actions and who
//! owns the switch, why a submission is accepted or rejected, why a fact was created or deleted in a
//! chronon, why a payoff was paid, why a switch's `do/1` succeeded or failed) is answered by an
//! [`Answer`]: whether it holds, a one-line summary and a tree of [`WhyNode`]s.
//!
//! Method: every question is a goal of a head keyword (`legal(S)`, `owned(S, O)`, `switch(S, A)`,
//! `do(A)`, `payoff(P, X)`). For a goal of the game's own predicates, each clause whose head unifies
//! is tried with the engine's own machine in the keyword's host context (so cut, negation and
//! `findall/3` behave exactly as in play): the head unification and the whole body first; when that
//! has no solution, growing prefixes of the body until one has none: that goal is the first failing
//! goal, shown with the bindings of the first solution of the goals before it, and explained in turn
//! when it is a game predicate. A clause that succeeds shows its first proof: each body goal
//! instantiated by the clause's first solution, game predicates explained in turn, built-ins and
//! library predicates as single (folded) nodes. A clause that reached its cut stops the later clauses.
//! Budgets ([`WhyLimits`]): inferences over the whole explanation, depth and node count; hitting one
//! gives a node with outcome [`Outcome::Budget`], never a hang.
//!
//! Viewers: the designer's view (`None`) explains with every fact. A player's view explains on the
//! state that player sees (its visible facts, and in a chronon only its own switches run):
//! nothing hidden is ever read. When that explanation does not reach the answer of the real state
//! (the answer depends on something hidden from the player), the answer says so and shows no tree.

use super::facts::{FactSet, Ground};
use super::host::KeywordHost;
use super::session::{instantiate_template, ActionSource, Actions, Event, Owner, Session, State};
use super::{Game, RuntimeError};
use crate::atom::{self, Atom};
use crate::diag::{ColumnUnit, LineIndex, Span};
use crate::solve::machine::ErrorKind;
use crate::solve::program::split_clause;
use crate::solve::store::Cell;
use crate::solve::{Limits, Machine};
use crate::syntax::NodeKind;
use crate::term::Term;
use std::sync::Arc;

/// What to explain.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// Is the switch legal (`legal/1`)?
    Legal { switch: Term },
    /// Is the action among the switch's actions (with: is the switch legal, who owns it)?
    Action { switch: Term, action: Term },
    /// Would `submit(player, switch, action)` be accepted now, and why (not)?
    Submission {
        player: Term,
        switch: Term,
        action: Term,
    },
    /// Why was the fact created or deleted in a chronon (default: the last one), or why not?
    Fact { fact: Term, chronon: Option<u64> },
    /// Why was the player paid (or not) in a chronon (default: the last one)?
    Payoff { player: Term, chronon: Option<u64> },
    /// What did a switch's `do/1` do in a chronon (default: the last one): why did it succeed or
    /// fail (a switch event)?
    Do { switch: Term, chronon: Option<u64> },
}

impl Question {
    /// The kinds of question, as [`Question::from_parts`] reads them.
    pub const KINDS: &'static [&'static str] =
        &["legal", "action", "submission", "fact", "payoff", "do"];

    /// A question from its parts as text (terms in SIDL syntax): the one parser of the CLI, the
    /// language server and the WASM API. `kind` is one of [`Question::KINDS`].
    pub fn from_parts(
        kind: &str,
        switch: Option<&str>,
        action: Option<&str>,
        player: Option<&str>,
        fact: Option<&str>,
        chronon: Option<u64>,
    ) -> Result<Question, String> {
        let need = |v: Option<&str>, what: &str| -> Result<Term, String> {
            let text = v.ok_or_else(|| format!("a `{kind}` question needs a {what}"))?;
            parse_term(text, what)
        };
        Ok(match kind {
            "legal" => Question::Legal {
                switch: need(switch, "switch")?,
            },
            "action" => Question::Action {
                switch: need(switch, "switch")?,
                action: need(action, "action")?,
            },
            "submission" => Question::Submission {
                player: need(player, "player")?,
                switch: need(switch, "switch")?,
                action: need(action, "action")?,
            },
            "fact" => Question::Fact {
                fact: need(fact, "fact")?,
                chronon,
            },
            "payoff" => Question::Payoff {
                player: need(player, "player")?,
                chronon,
            },
            "do" => Question::Do {
                switch: need(switch, "switch")?,
                chronon,
            },
            other => {
                let (last, rest) = Question::KINDS.split_last().expect("kinds");
                return Err(format!(
                    "unknown question kind `{other}` ({} or {last})",
                    rest.join(", ")
                ));
            }
        })
    }

    /// The question as a sentence.
    pub fn describe(&self) -> String {
        let at = |c: &Option<u64>| match c {
            Some(n) => format!("chronon {n}"),
            None => "the last chronon".to_string(),
        };
        match self {
            Question::Legal { switch } => format!("is switch {} legal?", show(switch)),
            Question::Action { switch, action } => {
                format!("is {} an action of switch {}?", show(action), show(switch))
            }
            Question::Submission {
                player,
                switch,
                action,
            } => format!(
                "is submit({}, {}, {}) accepted?",
                show(player),
                show(switch),
                show(action)
            ),
            Question::Fact { fact, chronon } => {
                format!("was {} created or deleted in {}?", show(fact), at(chronon))
            }
            Question::Payoff { player, chronon } => {
                format!("was {} paid in {}?", show(player), at(chronon))
            }
            Question::Do { switch, chronon } => {
                format!(
                    "did the do/1 of switch {} succeed in {}?",
                    show(switch),
                    at(chronon)
                )
            }
        }
    }
}

/// A question as its parts in text (terms in SIDL syntax), as the language server's `sidl/why` and
/// the WASM API's `why()` receive it (JSON, camelCase): `kind` is one of [`Question::KINDS`];
/// `chronon` for `fact`, `payoff` and `do` (default: the last one); `viewer` a player (default: the
/// designer).
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuestionText {
    pub kind: String,
    pub switch: Option<String>,
    pub action: Option<String>,
    pub player: Option<String>,
    pub fact: Option<String>,
    pub chronon: Option<u64>,
    pub viewer: Option<String>,
}

impl QuestionText {
    /// The question and whose eyes it is asked with (`None`: the designer's).
    pub fn parse(&self) -> Result<(Question, Option<Term>), String> {
        let question = Question::from_parts(
            &self.kind,
            self.switch.as_deref(),
            self.action.as_deref(),
            self.player.as_deref(),
            self.fact.as_deref(),
            self.chronon,
        )?;
        let viewer = self
            .viewer
            .as_deref()
            .map(|v| parse_term(v, "viewer"))
            .transpose()?;
        Ok((question, viewer))
    }
}

/// Parses one term of a question (`what` names it in the error).
pub fn parse_term(text: &str, what: &str) -> Result<Term, String> {
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    crate::syntax::parse_term(text)
        .map(|r| r.term)
        .map_err(|_| format!("the {what} `{text}` is not a term"))
}

/// How a node's goal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Proved,
    Failed,
    /// The goal raised an error (the note says which).
    Error,
    /// A library predicate that succeeded, shown as one node.
    Folded,
    /// A budget of the explanation (or of the query) was exhausted here.
    Budget,
}

impl Outcome {
    pub const ALL: [Outcome; 5] = [
        Outcome::Proved,
        Outcome::Failed,
        Outcome::Error,
        Outcome::Folded,
        Outcome::Budget,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Proved => "proved",
            Outcome::Failed => "failed",
            Outcome::Error => "error",
            Outcome::Folded => "folded",
            Outcome::Budget => "budget",
        }
    }
}

/// One node of an explanation.
#[derive(Clone, Debug, PartialEq)]
pub struct WhyNode {
    /// The goal (or clause head) as instantiated, written with operators (`writeq`).
    pub goal: String,
    pub outcome: Outcome,
    pub note: Option<String>,
    /// Where it is in the game: the clause of a clause node, the goal of a body-goal node.
    pub span: Option<Span>,
    /// The clause's named variables and their values at that point (unbound ones left out).
    pub bindings: Vec<(String, String)>,
    pub children: Vec<WhyNode>,
}

impl WhyNode {
    fn new(goal: String, outcome: Outcome) -> WhyNode {
        WhyNode {
            goal,
            outcome,
            note: None,
            span: None,
            bindings: Vec::new(),
            children: Vec::new(),
        }
    }
    fn note(mut self, n: impl Into<String>) -> WhyNode {
        self.note = Some(n.into());
        self
    }
    /// This node and its descendants, depth first.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a WhyNode)) {
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            f(n);
            stack.extend(n.children.iter().rev());
        }
    }
}

/// The answer to a [`Question`].
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub question: String,
    pub holds: bool,
    pub summary: String,
    pub nodes: Vec<WhyNode>,
}

/// Budgets of one explanation.
#[derive(Clone, Copy, Debug)]
pub struct WhyLimits {
    /// Inferences of all the explanation's queries together.
    pub max_inferences: u64,
    /// Nesting of explained game predicates.
    pub max_depth: usize,
    /// Nodes of the tree.
    pub max_nodes: usize,
}

impl Default for WhyLimits {
    fn default() -> WhyLimits {
        WhyLimits {
            max_inferences: 20_000_000,
            max_depth: 16,
            max_nodes: 2_000,
        }
    }
}

/// A term as `writeq` writes it, its variables as `_`.
fn show(t: &Term) -> String {
    let n = t.var_count() as usize;
    if n == 0 {
        return crate::write::writeq(t, None);
    }
    crate::write::writeq(t, Some(&vec!["_".to_string(); n]))
}

fn call(name: Atom, args: Vec<Term>) -> Term {
    Term::new_compound(name, args)
}

/// A query that did not answer.
enum QErr {
    Error(String),
    Budget(String),
}

/// Explanation mode of a game predicate's goal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Clauses up to the first that proves the goal (the first proof).
    First,
    /// Every clause (all solutions count, as for `payoff/2`).
    All,
}

/// The explainer: a machine of its own over the game's program, budgets, the parsed source.
struct Explainer<'g> {
    game: &'g Game,
    parsed: crate::syntax::ParsedFile,
    machine: Machine,
    query_limits: Limits,
    limits: WhyLimits,
    inferences: u64,
    nodes: usize,
}

/// A clause split for [`Explainer::clause_query`]: head, body goals, number of variables.
struct ClauseParts<'a> {
    head: &'a Term,
    body: &'a [&'a Term],
    nvars: usize,
}

/// One query's result: up to `max` instances of the template.
type Sols = Result<Vec<Term>, QErr>;

impl<'g> Explainer<'g> {
    fn new(game: &'g Game, session: &Session, limits: WhyLimits) -> Explainer<'g> {
        let query_limits = session.settings().limits;
        let mut machine = Machine::new(game.program.clone(), query_limits);
        machine.rng = session.rng_state();
        Explainer {
            game,
            parsed: crate::syntax::parse_file(&game.source),
            machine,
            query_limits,
            limits,
            inferences: 0,
            nodes: 0,
        }
    }

    /// Runs a query built on the heap by `build` (returning goal and template) and collects up to
    /// `max` template instances. With `keep`, the schedules of the first answer stay (as a chronon's
    /// `do/1` commits them); otherwise the host's schedules are restored.
    fn run(
        &mut self,
        host: &mut KeywordHost,
        max: usize,
        keep: bool,
        build: impl FnOnce(&mut Machine) -> (Cell, Cell),
    ) -> Sols {
        let left = self.limits.max_inferences.saturating_sub(self.inferences);
        if left == 0 {
            return Err(QErr::Budget(format!(
                "the explanation's budget of {} inferences is spent",
                self.limits.max_inferences
            )));
        }
        let saved = host.schedules();
        let m = &mut self.machine;
        m.set_limits(Limits {
            max_inferences: self.query_limits.max_inferences.min(left),
            ..self.query_limits
        });
        m.reset();
        let (g, t) = build(m);
        m.start(g);
        let mut out = Vec::new();
        let mut redo = false;
        let mut err = None;
        while out.len() < max {
            match m.solve(redo, host) {
                Ok(true) => out.push(m.store.to_term(t)),
                Ok(false) => break,
                Err(e) => {
                    err = Some(match e.kind {
                        ErrorKind::Budget(_) => QErr::Budget(e.message),
                        ErrorKind::Uncaught => QErr::Error(e.message),
                    });
                    break;
                }
            }
            if !m.has_alternatives() {
                break;
            }
            redo = true;
        }
        self.inferences += m.inferences;
        if !(keep && err.is_none() && !out.is_empty()) {
            host.set_schedules(saved.0, saved.1);
        }
        match err {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// Up to `max` instances of `template` for `goal` (one term space).
    fn solve(&mut self, host: &mut KeywordHost, goal: &Term, template: &Term, max: usize) -> Sols {
        self.run(host, max, false, |m| {
            let mut vars = Vec::new();
            let g = m.store.build(goal, &mut vars);
            let t = m.store.build(template, &mut vars);
            (g, t)
        })
    }

    /// Runs `goal` to its first solution and keeps its schedules (a chronon's `do/1`).
    fn commit(&mut self, host: &mut KeywordHost, goal: &Term) -> Result<bool, QErr> {
        let r = self.run(host, 1, true, |m| {
            let mut vars = Vec::new();
            let g = m.store.build(goal, &mut vars);
            (g, Cell::Atom(atom::TRUE))
        })?;
        Ok(!r.is_empty())
    }

    /// Clause `clause` of a predicate against `goal`: the head unification followed by the first
    /// `k` body goals. The template is `t(ClauseVars, Goal, BodyGoals)`.
    fn clause_query(
        &mut self,
        host: &mut KeywordHost,
        goal: &Term,
        c: &ClauseParts,
        k: usize,
        max: usize,
    ) -> Sols {
        let (head, body, nvars) = (c.head, c.body, c.nvars);
        self.run(host, max, false, |m| {
            let mut gv = Vec::new();
            let mut cv = Vec::new();
            let g = m.store.build(goal, &mut gv);
            let h = m.store.build(head, &mut cv);
            let goals: Vec<Cell> = body.iter().map(|b| m.store.build(b, &mut cv)).collect();
            let vars: Vec<Cell> = (0..nvars)
                .map(|i| m.store.build(&Term::Var(i as u32), &mut cv))
                .collect();
            let mut q = m.store.make_compound(atom::EQUALS, &[g, h]);
            // eq, (b1, (b2, ...)) built from the right
            if k > 0 {
                let mut conj = goals[k - 1];
                for &b in goals[..k - 1].iter().rev() {
                    conj = m.store.make_compound(atom::COMMA, &[b, conj]);
                }
                q = m.store.make_compound(atom::COMMA, &[q, conj]);
            }
            let list = |m: &mut Machine, items: &[Cell]| {
                let mut l = Cell::Atom(atom::NIL);
                for &c in items.iter().rev() {
                    l = m.store.make_compound(atom::DOT, &[c, l]);
                }
                l
            };
            let vl = list(m, &vars);
            let gl = list(m, &goals);
            let t = m.store.make_compound(Atom::new("t"), &[vl, g, gl]);
            (q, t)
        })
    }

    fn budget_left(&self) -> bool {
        self.nodes < self.limits.max_nodes
    }

    /// Explains `goal` (a term with its own variables).
    fn explain(
        &mut self,
        host: &mut KeywordHost,
        goal: &Term,
        mode: Mode,
        depth: usize,
    ) -> WhyNode {
        self.nodes += 1;
        let Some((name, arity)) = goal.functor() else {
            return self.leaf(host, goal);
        };
        let pred = self.game.program.pred(name, arity as u32);
        let Some(pred) = pred.filter(|p| !p.library) else {
            return self.leaf(host, goal);
        };
        let clauses = pred.clauses.clone();
        // the goal's own outcome (its first solution, as the game manager asks)
        let mut node = match self.solve(host, goal, goal, 1) {
            Ok(s) if s.is_empty() => WhyNode::new(show(goal), Outcome::Failed),
            Ok(s) => WhyNode::new(show(&s[0]), Outcome::Proved),
            // the clauses show where the error comes from
            Err(QErr::Error(m)) => WhyNode::new(show(goal), Outcome::Error).note(m),
            Err(QErr::Budget(m)) => return WhyNode::new(show(goal), Outcome::Budget).note(m),
        };
        if depth >= self.limits.max_depth {
            node.outcome = Outcome::Budget;
            return node.note(format!(
                "not expanded: the depth limit ({}) is reached",
                self.limits.max_depth
            ));
        }
        let mut matched = 0;
        for (ci, c) in clauses.iter().enumerate() {
            if !self.budget_left() {
                node.children
                    .push(WhyNode::new("…".into(), Outcome::Budget).note(format!(
                        "the node limit ({}) is reached",
                        self.limits.max_nodes
                    )));
                break;
            }
            let Some((cn, proved, cut)) = self.clause(host, goal, c, ci, arity, depth) else {
                continue;
            };
            matched += 1;
            let budget = cn.outcome == Outcome::Budget;
            node.children.push(cn);
            if budget || (proved && mode == Mode::First) {
                break;
            }
            if cut && ci + 1 < clauses.len() {
                if let Some(last) = node.children.last_mut() {
                    let n = last
                        .note
                        .take()
                        .map(|n| format!("{n}; "))
                        .unwrap_or_default();
                    last.note = Some(format!(
                        "{n}its cut was reached: later clauses are not tried"
                    ));
                }
                break;
            }
        }
        if matched == 0 {
            node = node.note(format!(
                "no clause head of {}/{} matches",
                name.name(),
                arity
            ));
        }
        node
    }

    /// A goal that is not a game predicate: one node with its outcome.
    fn leaf(&mut self, host: &mut KeywordHost, goal: &Term) -> WhyNode {
        let library = goal
            .functor()
            .and_then(|(n, a)| self.game.program.pred(n, a as u32))
            .is_some_and(|p| p.library);
        match self.solve(host, goal, goal, 1) {
            Ok(s) if s.is_empty() => WhyNode::new(show(goal), Outcome::Failed),
            Ok(s) if library => {
                WhyNode::new(show(&s[0]), Outcome::Folded).note("library predicate")
            }
            Ok(s) => WhyNode::new(show(&s[0]), Outcome::Proved),
            Err(QErr::Error(m)) => WhyNode::new(show(goal), Outcome::Error).note(m),
            Err(QErr::Budget(m)) => WhyNode::new(show(goal), Outcome::Budget).note(m),
        }
    }

    /// The body goals' nodes in the source clause at `span` (parallel to the body terms).
    fn goal_spans(&self, span: Span, n: usize) -> Vec<Option<Span>> {
        let c = self
            .parsed
            .clauses
            .iter()
            .find(|c| c.span.start == span.start);
        let mut out = Vec::new();
        if let Some(body) = c.and_then(|c| c.body()) {
            let mut cur = body;
            loop {
                match &cur.kind {
                    NodeKind::Compound { name, args, .. }
                        if *name == atom::COMMA && args.len() == 2 =>
                    {
                        out.push(Some(args[0].span));
                        cur = &args[1];
                    }
                    _ => {
                        out.push(Some(cur.span));
                        break;
                    }
                }
            }
        }
        out.resize(n, None);
        out
    }

    /// Clause number `ci` of a predicate against `goal`: `None` when its head does not unify; else
    /// the node, whether the clause proves the goal and whether it reached a cut.
    fn clause(
        &mut self,
        host: &mut KeywordHost,
        goal: &Term,
        c: &crate::solve::program::ClauseT,
        ci: usize,
        arity: usize,
        depth: usize,
    ) -> Option<(WhyNode, bool, bool)> {
        let (head, body) = split_clause(&c.term)?;
        let mut goals: Vec<&Term> = Vec::new();
        if let Some(mut b) = body {
            loop {
                match b {
                    Term::Compound(f, a) if *f == atom::COMMA && a.len() == 2 => {
                        goals.push(&a[0]);
                        b = &a[1];
                    }
                    _ => {
                        goals.push(b);
                        break;
                    }
                }
            }
        }
        let names: Vec<String> = c.var_names.iter().cloned().collect();
        let nvars = names.len().max(c.nvars as usize);
        let spans = self.goal_spans(c.span, goals.len());
        let label = format!(
            "clause {} of {}/{}",
            ci + 1,
            head.functor().map(|(n, _)| n.name()).unwrap_or_default(),
            arity
        );
        let err_node = |e: QErr, label: &str| {
            let (o, m) = match e {
                QErr::Error(m) => (Outcome::Error, m),
                QErr::Budget(m) => (Outcome::Budget, m),
            };
            let mut n = WhyNode::new(label.to_string(), o).note(m);
            n.span = Some(c.span);
            n
        };
        let parts = ClauseParts {
            head,
            body: &goals,
            nvars,
        };
        let head_sols = match self.clause_query(host, goal, &parts, 0, 1) {
            Ok(s) if s.is_empty() => return None,
            Ok(s) => s,
            Err(e) => return Some((err_node(e, &label), false, false)),
        };
        let is_cut = |t: &Term| matches!(t, Term::Atom(a) if *a == atom::CUT);
        let full = match self.clause_query(host, goal, &parts, goals.len(), 1) {
            Ok(s) => s,
            Err(QErr::Budget(m)) => return Some((err_node(QErr::Budget(m), &label), false, false)),
            // the prefixes below find the goal that raises it
            Err(QErr::Error(_)) => Vec::new(),
        };
        if let Some(sol) = full.first() {
            let (bindings, texts, inst) = read_solution(sol, &names);
            let mut node = WhyNode::new(inst, Outcome::Proved).note(label);
            node.span = Some(c.span);
            node.bindings = bindings;
            for (i, g) in texts.iter().enumerate() {
                if !self.budget_left() {
                    break;
                }
                let mut child = if is_game_pred(self.game, g) {
                    self.explain(host, g, Mode::First, depth + 1)
                } else {
                    self.nodes += 1;
                    let library = g
                        .functor()
                        .and_then(|(n, a)| self.game.program.pred(n, a as u32))
                        .is_some_and(|p| p.library);
                    if library {
                        WhyNode::new(show_named(g, sol, &names), Outcome::Folded)
                            .note("library predicate")
                    } else {
                        WhyNode::new(show_named(g, sol, &names), Outcome::Proved)
                    }
                };
                child.span = spans[i];
                node.children.push(child);
            }
            let cut = goals.iter().any(|g| is_cut(g));
            return Some((node, true, cut));
        }
        // no solution: the first prefix of the body without one
        let mut before = head_sols;
        for k in 1..=goals.len() {
            let sols = match self.clause_query(host, goal, &parts, k, 2) {
                Ok(s) => s,
                Err(e) => {
                    let mut n = err_node(e, &label);
                    n.children = self.proved_prefix(&before[0], &names, &spans, k - 1);
                    let (bindings, texts, _) = read_solution(&before[0], &names);
                    n.bindings = bindings;
                    // the goal that raised it
                    self.nodes += 1;
                    let mut g =
                        WhyNode::new(show_named(&texts[k - 1], &before[0], &names), n.outcome);
                    g.note = Some(
                        match spans[k - 1].and_then(|sp| self.game.source.get(sp.range())) {
                            Some(t) => format!("this goal `{t}` raised it"),
                            None => "this goal raised it".to_string(),
                        },
                    );
                    g.span = spans[k - 1];
                    n.children.push(g);
                    return Some((n, false, false));
                }
            };
            if !sols.is_empty() {
                before = sols;
                continue;
            }
            let prev = &before[0];
            let (bindings, texts, inst) = read_solution(prev, &names);
            let mut node = WhyNode::new(inst, Outcome::Failed).note(label);
            node.span = Some(c.span);
            node.bindings = bindings;
            node.children = self.proved_prefix(prev, &names, &spans, k - 1);
            let g = &texts[k - 1];
            let mut failing = if is_game_pred(self.game, g) {
                self.explain(host, g, Mode::First, depth + 1)
            } else {
                self.nodes += 1;
                WhyNode::new(show_named(g, prev, &names), Outcome::Failed)
            };
            // the goal failed after the goals before it succeeded: it is the culprit even when its
            // own re-run says otherwise (e.g. it reads the schedules of an earlier goal)
            failing.outcome = match failing.outcome {
                Outcome::Error | Outcome::Budget => failing.outcome,
                _ => Outcome::Failed,
            };
            let mut note = "first failing goal".to_string();
            if let Some(text) = spans[k - 1].and_then(|sp| self.game.source.get(sp.range())) {
                note = format!("first failing goal `{text}`");
            }
            if before.len() > 1 {
                note.push_str(
                    " (for every solution of the goals before it; bindings of the first shown)",
                );
            }
            if let Some(n) = failing.note.take() {
                note = format!("{note}; {n}");
            }
            failing.note = Some(note);
            failing.span = spans[k - 1];
            node.children.push(failing);
            let cut = goals[..k - 1].iter().any(|g| is_cut(g));
            return Some((node, false, cut));
        }
        // every prefix has a solution but the whole body has none: cannot happen (the last prefix
        // is the whole body); report the clause as failed without a culprit
        let mut node = WhyNode::new(label.clone(), Outcome::Failed).note(label);
        node.span = Some(c.span);
        Some((node, false, false))
    }

    /// The first `k` body goals of a solution as proved leaves.
    fn proved_prefix(
        &mut self,
        sol: &Term,
        names: &[String],
        spans: &[Option<Span>],
        k: usize,
    ) -> Vec<WhyNode> {
        let (_, texts, _) = read_solution(sol, names);
        texts
            .iter()
            .take(k)
            .enumerate()
            .map(|(i, g)| {
                self.nodes += 1;
                let mut n = WhyNode::new(show_named(g, sol, names), Outcome::Proved);
                n.span = spans[i];
                n
            })
            .collect()
    }
}

fn is_game_pred(game: &Game, g: &Term) -> bool {
    g.functor()
        .and_then(|(n, a)| game.program.pred(n, a as u32))
        .is_some_and(|p| !p.library)
}

/// The variable names of a solution `t(Vars, Goal, Goals)`: answer variable `k` gets the name of
/// the clause variable bound to it.
fn answer_names(sol: &Term, names: &[String]) -> Vec<String> {
    let vals = sol
        .args()
        .first()
        .and_then(|l| l.as_list())
        .unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    for (i, v) in vals.iter().enumerate() {
        if let Term::Var(k) = v {
            let k = *k as usize;
            if out.len() <= k {
                out.resize(k + 1, "_".to_string());
            }
            if out[k] == "_" {
                if let Some(n) = names.get(i) {
                    out[k] = n.clone();
                }
            }
        }
    }
    // unnamed answer variables beyond the clause's are written `_`
    let mut max = 0;
    sol.walk(|t| {
        if let Term::Var(k) = t {
            max = max.max(*k as usize + 1);
        }
    });
    if out.len() < max {
        out.resize(max, "_".to_string());
    }
    out
}

fn show_named(t: &Term, sol: &Term, names: &[String]) -> String {
    let n = answer_names(sol, names);
    crate::write::writeq(t, Some(&n))
}

/// A clause solution `t(Vars, Goal, Goals)`: the bindings of its named variables, the body goals
/// as instantiated, and the goal (head instance) as text.
fn read_solution(sol: &Term, names: &[String]) -> (Vec<(String, String)>, Vec<Term>, String) {
    let a = sol.args();
    let an = answer_names(sol, names);
    let w = |t: &Term| crate::write::writeq(t, Some(&an));
    let mut bindings = Vec::new();
    if let Some(vals) = a.first().and_then(|l| l.as_list()) {
        for (i, v) in vals.iter().enumerate() {
            let Some(n) = names.get(i) else { continue };
            if n.starts_with('_') || matches!(v, Term::Var(_)) {
                continue;
            }
            bindings.push((n.clone(), w(v)));
        }
    }
    let goals: Vec<Term> = a
        .get(2)
        .and_then(|l| l.as_list())
        .unwrap_or_default()
        .into_iter()
        .cloned()
        .collect();
    let inst = a.get(1).map(w).unwrap_or_default();
    (bindings, goals, inst)
}

/// The state a viewer sees: all of it for the designer, else the facts not hidden from the player.
fn viewed_state(session: &mut Session, viewer: Option<&Term>) -> Result<Arc<State>, RuntimeError> {
    let state = session.state().clone();
    let Some(p) = viewer else { return Ok(state) };
    let visible = session.view(Some(p))?;
    let facts = FactSet::from_grounds(
        visible
            .into_iter()
            .map(|f| Arc::new(Ground::new(f)))
            .collect(),
    );
    Ok(Arc::new(State {
        chronon: state.chronon,
        facts: Arc::new(facts),
        players: state.players.clone(),
        accounts: state.accounts.clone(),
    }))
}

fn hidden_note(p: &Term) -> String {
    format!(
        "this answer depends on facts or actions hidden from {}: only the designer's view explains it",
        show(p)
    )
}

/// Answers a question about `session` (its current state; for facts and payoffs a chronon of its
/// history) for a viewer (`None`: the designer).
pub fn explain(
    session: &mut Session,
    question: &Question,
    viewer: Option<&Term>,
    limits: WhyLimits,
) -> Result<Answer, RuntimeError> {
    if let Some(p) = viewer {
        if session.state().player_index(p).is_none() {
            return Err(RuntimeError::new(
                crate::solve::errors::codes::NOT_A_PLAYER,
                "why",
                format!("{} is not a player", show(p)),
            ));
        }
    }
    let game = session.game().clone();
    let mut ex = Explainer::new(&game, session, limits);
    let mut answer = match question {
        Question::Legal { switch } => legal(&mut ex, session, switch, viewer)?,
        Question::Action { switch, action } => {
            action_answer(&mut ex, session, switch, action, viewer)?
        }
        Question::Submission {
            player,
            switch,
            action,
        } => submission(&mut ex, session, player, switch, action, viewer)?,
        Question::Fact { fact, chronon } => fact_answer(&mut ex, session, fact, *chronon, viewer)?,
        Question::Payoff { player, chronon } => {
            payoff_answer(&mut ex, session, player, *chronon, viewer)?
        }
        Question::Do { switch, chronon } => do_answer(&mut ex, session, switch, *chronon, viewer)?,
    };
    answer.question = question.describe();
    Ok(answer)
}

/// The legal switches of the session, or none and the error that computing them raised (an
/// explanation goes on: that error is often what the designer wants explained).
fn switch_infos(session: &mut Session) -> (Vec<super::session::SwitchInfo>, Option<String>) {
    match session.switches() {
        Ok(s) => (s.as_ref().clone(), None),
        Err(e) => (Vec::new(), Some(e.message)),
    }
}

fn empty_answer(holds: bool, summary: String, nodes: Vec<WhyNode>) -> Answer {
    Answer {
        question: String::new(),
        holds,
        summary,
        nodes,
    }
}

/// The `legal(S)` node on `state`.
fn legal_node(ex: &mut Explainer, state: &State, switch: &Term) -> WhyNode {
    let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
    ex.explain(
        &mut host,
        &call(atom::LEGAL, vec![switch.clone()]),
        Mode::All,
        0,
    )
}

fn legal(
    ex: &mut Explainer,
    session: &mut Session,
    switch: &Term,
    viewer: Option<&Term>,
) -> Result<Answer, RuntimeError> {
    let (infos, error) = switch_infos(session);
    let holds = infos.iter().any(|s| &s.id == switch);
    let state = viewed_state(session, viewer)?;
    let node = legal_node(ex, &state, switch);
    let summary = match error {
        Some(e) => format!("the legal switches cannot be computed: {e}"),
        None if holds => format!("switch {} is legal", show(switch)),
        None => format!(
            "switch {} is not legal: legal/1 does not prove it",
            show(switch)
        ),
    };
    if let Some(p) = viewer {
        if (node.outcome == Outcome::Proved) != holds {
            return Ok(empty_answer(
                holds,
                format!("{summary}; {}", hidden_note(p)),
                vec![],
            ));
        }
    }
    Ok(empty_answer(holds, summary, vec![node]))
}

/// The nodes of an action question: legal, owner, among the actions. Also whether the action is
/// among the actions (as the session sees it) and the owner's node outcome.
fn action_nodes(
    ex: &mut Explainer,
    session: &mut Session,
    state: &State,
    switch: &Term,
    action: &Term,
) -> Result<(Vec<WhyNode>, bool, bool), RuntimeError> {
    let (switches, _) = switch_infos(session);
    let info = switches.iter().find(|s| &s.id == switch).cloned();
    let legal = legal_node(ex, state, switch);
    let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
    let owned = call(atom::OWNED, vec![switch.clone(), Term::Var(0)]);
    let mut owner = ex.explain(&mut host, &owned, Mode::First, 0);
    let owner_text = info
        .as_ref()
        .and_then(|i| i.owner_term.as_ref().map(show))
        .unwrap_or_else(|| "nobody".into());
    owner.note = Some(match info.as_ref().map(|i| &i.owner) {
        Some(Owner::Nobody) => "owner: nobody (owned/2 has no solution)".into(),
        Some(_) => format!("owner: {owner_text} (the first solution of owned/2)"),
        // a switch that is not legal: the first solution as explained
        None => match ex.solve(&mut host, &owned, &Term::Var(0), 1) {
            Ok(o) if !o.is_empty() => format!(
                "owner: {} (the first solution of owned/2; the switch is not legal)",
                show(&o[0])
            ),
            _ => "owner: nobody (owned/2 has no solution)".into(),
        },
    });
    // templates: the session's, or (a switch that is not legal) unlimited/2 asked directly
    let templates = match info.as_ref().map(|i| &i.actions) {
        Some(Actions::Unlimited(t)) => t.clone(),
        Some(Actions::Finite(_)) => Vec::new(),
        None if ex.game.program.pred(atom::UNLIMITED, 2).is_some() => {
            let t = Term::Var(1);
            ex.solve(
                &mut host,
                &call(atom::UNLIMITED, vec![switch.clone(), t.clone()]),
                &t,
                100,
            )
            .unwrap_or_default()
        }
        None => Vec::new(),
    };
    let (actions, among) = if templates.is_empty() {
        let node = ex.explain(
            &mut host,
            &call(atom::SWITCH, vec![switch.clone(), action.clone()]),
            Mode::All,
            0,
        );
        let among = match &info {
            Some(i) => matches!(&i.actions, Actions::Finite(a) if a.contains(action)),
            None => node.outcome == Outcome::Proved,
        };
        (node, among)
    } else {
        let list: Vec<String> = templates.iter().map(show).collect();
        match templates
            .iter()
            .find_map(|t| instantiate_template(t, action))
        {
            None => {
                ex.nodes += 1;
                let n = WhyNode::new(show(action), Outcome::Failed).note(format!(
                    "fits no template of switch {} (templates: {})",
                    show(switch),
                    list.join(", ")
                ));
                (n, false)
            }
            Some(a) => {
                let mut node = ex.explain(
                    &mut host,
                    &call(atom::SWITCH, vec![switch.clone(), a.clone()]),
                    Mode::All,
                    0,
                );
                let among = node.outcome == Outcome::Proved;
                let n = node
                    .note
                    .take()
                    .map(|n| format!("; {n}"))
                    .unwrap_or_default();
                node.note = Some(format!(
                    "{} fits the template {}; switch/2 must accept it{n}",
                    show(&a),
                    list.join(", ")
                ));
                (node, among)
            }
        }
    };
    let owner_ok = owner.outcome == Outcome::Proved;
    Ok((vec![legal, owner, actions], among, owner_ok))
}

fn action_answer(
    ex: &mut Explainer,
    session: &mut Session,
    switch: &Term,
    action: &Term,
    viewer: Option<&Term>,
) -> Result<Answer, RuntimeError> {
    let (infos, error) = switch_infos(session);
    let legal = infos.iter().any(|s| &s.id == switch);
    let real_state = session.state().clone();
    let state = viewed_state(session, viewer)?;
    let (nodes, among, _) = action_nodes(ex, session, &state, switch, action)?;
    let holds = legal && among;
    let summary = match (legal, among) {
        _ if error.is_some() => format!(
            "the legal switches cannot be computed: {}",
            error.unwrap_or_default()
        ),
        (true, true) => format!("{} is an action of switch {}", show(action), show(switch)),
        (false, true) => format!(
            "switch {} is not legal ({} would be among its actions)",
            show(switch),
            show(action)
        ),
        (true, false) => format!(
            "{} is not among the actions of switch {}",
            show(action),
            show(switch)
        ),
        (false, false) => format!(
            "switch {} is not legal and {} is not among its actions",
            show(switch),
            show(action)
        ),
    };
    if let Some(p) = viewer {
        let mut real = Explainer::new(ex.game, session, ex.limits);
        let (rn, _, _) = action_nodes(&mut real, session, &real_state, switch, action)?;
        let outcomes = |ns: &[WhyNode]| ns.iter().map(|n| n.outcome).collect::<Vec<_>>();
        if outcomes(&rn) != outcomes(&nodes) || rn[1].goal != nodes[1].goal {
            return Ok(empty_answer(
                holds,
                format!("{summary}; {}", hidden_note(p)),
                vec![],
            ));
        }
    }
    Ok(empty_answer(holds, summary, nodes))
}

fn submission(
    ex: &mut Explainer,
    session: &mut Session,
    player: &Term,
    switch: &Term,
    action: &Term,
    viewer: Option<&Term>,
) -> Result<Answer, RuntimeError> {
    let verdict = match session.fork().submit(player, switch, action) {
        Ok(v) => v,
        Err(e) => Err(super::session::Rejection(format!(
            "it raises an error: {}",
            e.message
        ))),
    };
    let mut a = action_answer(ex, session, switch, action, viewer)?;
    a.holds = verdict.is_ok();
    let what = format!(
        "submit({}, {}, {})",
        show(player),
        show(switch),
        show(action)
    );
    let hidden = a.nodes.is_empty() && viewer.is_some();
    a.summary = match &verdict {
        Ok(()) => format!("{what} is accepted"),
        Err(r) => format!("{what} is rejected: {r}"),
    };
    if hidden {
        if let Some(p) = viewer {
            a.summary = format!("{}; {}", a.summary, hidden_note(p));
        }
    }
    Ok(a)
}

/// The session just before chronon `n` (1-based) of `session`'s history, by replay.
fn before_chronon(session: &Session, chronon: Option<u64>) -> Result<(u64, Session), RuntimeError> {
    let last = session.history().len() as u64;
    let n = chronon.unwrap_or(last);
    if n == 0 || n > last {
        return Err(RuntimeError::new(
            crate::solve::errors::codes::NO_SUCH_CHRONON,
            "why",
            if last == 0 {
                "no chronon has run yet: there is nothing to explain about facts or payoffs"
                    .to_string()
            } else {
                format!("chronon {n} has not run: chronons 1 to {last} have")
            },
        ));
    }
    let pre = Session::replay(
        session.game().clone(),
        session.seed(),
        session.settings().clone(),
        &session.history()[..n as usize - 1],
    )?;
    Ok((n, pre))
}

/// The switches of a chronon as its events record them: (switch, action, how).
fn chronon_switches(session: &Session, n: u64) -> Vec<(Term, Term, ActionSource)> {
    session.history()[n as usize - 1]
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Switch {
                switch,
                action,
                how,
                ..
            } => Some((switch.clone(), action.clone(), *how)),
            _ => None,
        })
        .collect()
}

/// Replays a chronon's `do/1` calls on `state` for the switches `own` accepts (a player knows the
/// actions of its own switches only: the others are neither run nor in `does/2`), calling
/// `each(ex, host, index)` before each one commits, then `after(ex, host)` with the schedules.
fn replay_dos(
    ex: &mut Explainer,
    state: &State,
    switches: &[(Term, Term, ActionSource)],
    own: &dyn Fn(&Term) -> bool,
    mut each: impl FnMut(&mut Explainer, &mut KeywordHost, usize),
    after: impl FnOnce(&mut Explainer, &mut KeywordHost),
) {
    let does: Vec<(Arc<Ground>, Arc<Ground>)> = switches
        .iter()
        .filter(|(s, _, how)| *how != ActionSource::Default && own(s))
        .map(|(s, a, _)| {
            (
                Arc::new(Ground::new(s.clone())),
                Arc::new(Ground::new(a.clone())),
            )
        })
        .collect();
    let mut host = KeywordHost::new(&state.facts, &state.players, &does);
    for (i, (s, a, _)) in switches.iter().enumerate() {
        // a player knows the actions of its own switches only: the others are not run
        if !own(s) {
            continue;
        }
        each(ex, &mut host, i);
        let _ = ex.commit(&mut host, &call(atom::DO, vec![a.clone()]));
    }
    after(ex, &mut host);
}

/// Who may see a switch's action: the designer, or the player owning it.
fn owner_filter(pre: &mut Session, viewer: Option<&Term>) -> Result<Vec<Term>, RuntimeError> {
    Ok(pre
        .switches()?
        .iter()
        .filter(|s| match viewer {
            None => true,
            Some(p) => s.owner == Owner::Player(p.clone()),
        })
        .map(|s| s.id.clone())
        .collect())
}

fn fact_answer(
    ex: &mut Explainer,
    session: &mut Session,
    fact: &Term,
    chronon: Option<u64>,
    viewer: Option<&Term>,
) -> Result<Answer, RuntimeError> {
    let (n, mut pre) = before_chronon(session, chronon)?;
    let events = &session.history()[n as usize - 1].events;
    let created = events.contains(&Event::Created(fact.clone()));
    let deleted = events.contains(&Event::Deleted(fact.clone()));
    let switches = chronon_switches(session, n);
    if let Some(p) = viewer {
        // a fact hidden from the player (in the state before the chronon, as its events) is not explained
        if fact.is_ground() {
            let st = pre.state().clone();
            let mut host = KeywordHost::new(&st.facts, &st.players, &[]);
            let h = call(atom::HIDDEN, vec![fact.clone(), p.clone()]);
            let hidden = ex.game.program.pred(atom::HIDDEN, 2).is_some()
                && matches!(ex.solve(&mut host, &h, &h, 1), Ok(s) if !s.is_empty());
            if hidden {
                return Ok(empty_answer(
                    false,
                    format!(
                        "{} is hidden from {}: only the designer's view explains it",
                        show(fact),
                        show(p)
                    ),
                    vec![],
                ));
            }
        }
    }
    let visible_ids = owner_filter(&mut pre, viewer)?;
    let own = |s: &Term| visible_ids.contains(s);
    let state = viewed_state(&mut pre, viewer)?;
    // which switch's do/1 scheduled it (on the viewed state)
    let mut by: Option<(usize, bool)> = None;
    let mut nodes: Vec<WhyNode> = Vec::new();
    let fact_id = state.facts.iter().position(|g| g.term() == fact);
    let switches_ref = &switches;
    replay_dos(
        ex,
        &state,
        &switches,
        &own,
        |ex, host, i| {
            if by.is_some() {
                return;
            }
            let (sw, a, how) = &switches_ref[i];
            let before = host.schedules();
            let mut node = ex.explain(host, &call(atom::DO, vec![a.clone()]), Mode::First, 0);
            // run it to see what it schedules (restored: replay_dos commits it)
            let _ = ex.commit(host, &call(atom::DO, vec![a.clone()]));
            let after = host.schedules();
            host.set_schedules(before.0.clone(), before.1.clone());
            let made = after
                .0
                .iter()
                .skip(before.0.len())
                .any(|g| g.term() == fact);
            let removed = fact_id.is_some_and(|id| {
                after
                    .1
                    .iter()
                    .skip(before.1.len())
                    .any(|&d| d as usize == id)
            });
            let how = how_text(*how);
            let mut note = format!("switch {} ran its {how} action {}", show(sw), show(a));
            if made || removed {
                note.push_str(&format!(
                    "; this do/1 {} {}",
                    if made { "created" } else { "deleted" },
                    show(fact)
                ));
                by = Some((i, made));
                // only the switch that did it is shown
                nodes.clear();
            }
            if let Some(m) = node.note.take() {
                note = format!("{note}; {m}");
            }
            node.note = Some(note);
            nodes.push(node);
        },
        |_, _| {},
    );
    let holds = created || deleted;
    let summary = match by {
        Some((i, made)) => format!(
            "{} was {} in chronon {n} by switch {} (do({}))",
            show(fact),
            if made { "created" } else { "deleted" },
            show(&switches[i].0),
            show(&switches[i].1)
        ),
        None => {
            let mut s = format!(
                "{} was neither created nor deleted in chronon {n}: no switch's do/1 scheduled it",
                show(fact)
            );
            if created || deleted {
                s = format!("{} was changed in chronon {n}", show(fact));
            } else if pre.state().facts.contains(fact) && !deleted {
                s.push_str(" (it was already a fact: create/1 fails on an existing fact)");
            }
            s
        }
    };

    if let Some(p) = viewer {
        if by.is_some() != holds {
            return Ok(empty_answer(
                holds,
                format!("{summary}; {}", hidden_note(p)),
                vec![],
            ));
        }
    }
    Ok(empty_answer(holds, summary, nodes))
}

fn payoff_answer(
    ex: &mut Explainer,
    session: &mut Session,
    player: &Term,
    chronon: Option<u64>,
    viewer: Option<&Term>,
) -> Result<Answer, RuntimeError> {
    let (n, mut pre) = before_chronon(session, chronon)?;
    if pre.state().player_index(player).is_none() {
        return Err(RuntimeError::new(
            crate::solve::errors::codes::NOT_A_PLAYER,
            "why",
            format!("{} is not a player", show(player)),
        ));
    }
    let switches = chronon_switches(session, n);
    let amounts_of = |ex: &mut Explainer, host: &mut KeywordHost| {
        let x = Term::Var(0);
        ex.solve(
            host,
            &call(atom::PAYOFF, vec![player.clone(), x.clone()]),
            &x,
            10_000,
        )
    };
    let mut real: Option<Vec<Term>> = None;
    if viewer.is_some() {
        let all = owner_filter(&mut pre, None)?;
        let st = pre.state().clone();
        let mut rex = Explainer::new(ex.game, session, ex.limits);
        replay_dos(
            &mut rex,
            &st,
            &switches,
            &|s| all.contains(s),
            |_, _, _| {},
            |ex, host| {
                real = amounts_of(ex, host).ok();
            },
        );
    }
    let visible_ids = owner_filter(&mut pre, viewer)?;
    let own = |s: &Term| visible_ids.contains(s);
    let state = viewed_state(&mut pre, viewer)?;
    let mut node = None;
    let mut amounts = None;
    let has_payoff = ex.game.program.pred(atom::PAYOFF, 2).is_some();
    replay_dos(
        ex,
        &state,
        &switches,
        &own,
        |_, _, _| {},
        |ex, host| {
            if has_payoff {
                amounts = Some(amounts_of(ex, host));
                node = Some(ex.explain(
                    host,
                    &call(atom::PAYOFF, vec![player.clone(), Term::Var(0)]),
                    Mode::All,
                    0,
                ));
            }
        },
    );
    let amounts: Vec<Term> = match amounts {
        Some(Ok(a)) => a,
        Some(Err(QErr::Error(m))) | Some(Err(QErr::Budget(m))) => {
            return Ok(empty_answer(
                false,
                format!(
                    "payoff({}, X) raised an error in chronon {n}: {m}",
                    show(player)
                ),
                node.into_iter().collect(),
            ))
        }
        None => Vec::new(),
    };
    let holds = !amounts.is_empty();
    let summary = if holds {
        let list: Vec<String> = amounts.iter().map(show).collect();
        format!(
            "{} was paid in chronon {n}: {} (one amount per solution of payoff/2)",
            show(player),
            list.join(" + ")
        )
    } else if has_payoff {
        format!(
            "{} was not paid in chronon {n}: payoff({}, X) has no solution",
            show(player),
            show(player)
        )
    } else {
        "the game has no payoff/2".to_string()
    };
    if let Some(p) = viewer {
        if real.as_ref() != Some(&amounts) {
            let paid = real.as_ref().is_some_and(|r| !r.is_empty());
            return Ok(empty_answer(
                paid,
                format!(
                    "{} was {}paid in chronon {n}; {}",
                    show(player),
                    if paid { "" } else { "not " },
                    hidden_note(p)
                ),
                vec![],
            ));
        }
    }
    Ok(empty_answer(holds, summary, node.into_iter().collect()))
}

/// The answer as indented text: one line per node (`+` proved, `-` failed, `!` error, `~` folded,
/// `?` budget), the clause's `file:line`, bindings and notes.
pub fn render_text(answer: &Answer, source: &str, file: &str) -> String {
    let index = LineIndex::new(source);
    let mut out = format!(
        "why: {}\n{}: {}\n",
        answer.question,
        if answer.holds { "yes" } else { "no" },
        answer.summary
    );
    let mut stack: Vec<(&WhyNode, usize)> = answer.nodes.iter().rev().map(|n| (n, 0)).collect();
    while let Some((n, d)) = stack.pop() {
        let mark = match n.outcome {
            Outcome::Proved => "+",
            Outcome::Failed => "-",
            Outcome::Error => "!",
            Outcome::Folded => "~",
            Outcome::Budget => "?",
        };
        out.push_str(&"  ".repeat(d + 1));
        out.push_str(&format!("{mark} {} [{}]", n.goal, n.outcome.as_str()));
        if let Some(s) = n.span {
            let lc = index.line_col(source, s.start, ColumnUnit::Char);
            out.push_str(&format!("  {file}:{}", lc.line + 1));
        }
        if !n.bindings.is_empty() {
            let b: Vec<String> = n
                .bindings
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            out.push_str(&format!("  {{{}}}", b.join(", ")));
        }
        if let Some(note) = &n.note {
            out.push_str(&format!("  ({note})"));
        }
        out.push('\n');
        stack.extend(n.children.iter().rev().map(|c| (c, d + 1)));
    }
    out
}

/// A source range: 1-based lines and columns (columns in the given unit).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RangeJson {
    pub start_line: u32,
    pub start_column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// A node as data (the JSON form of `sidl why --format json`, the WASM API and the language server).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeJson {
    pub goal: String,
    pub outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clause: Option<RangeJson>,
    pub bindings: Vec<(String, String)>,
    pub children: Vec<NodeJson>,
}

/// An answer as data, with its text rendering.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerJson {
    pub question: String,
    pub holds: bool,
    pub summary: String,
    pub text: String,
    pub nodes: Vec<NodeJson>,
}

/// The answer as data: ranges with 1-based lines and columns in `unit`; `text` is
/// [`render_text`] with `file`.
pub fn to_json(answer: &Answer, source: &str, file: &str, unit: ColumnUnit) -> AnswerJson {
    let index = LineIndex::new(source);
    let range = |s: Span| {
        let a = index.line_col(source, s.start, unit);
        let b = index.line_col(source, s.end, unit);
        RangeJson {
            start_line: a.line + 1,
            start_column: a.col + 1,
            end_line: b.line + 1,
            end_column: b.col + 1,
        }
    };
    // converted bottom-up without recursion: post-order over an explicit stack
    fn convert(n: &WhyNode, range: &dyn Fn(Span) -> RangeJson) -> NodeJson {
        let mut done: Vec<NodeJson> = Vec::new();
        let mut stack: Vec<(&WhyNode, bool)> = vec![(n, false)];
        while let Some((n, expanded)) = stack.pop() {
            if !expanded {
                stack.push((n, true));
                stack.extend(n.children.iter().rev().map(|c| (c, false)));
                continue;
            }
            let k = n.children.len();
            let children = done.split_off(done.len() - k);
            done.push(NodeJson {
                goal: n.goal.clone(),
                outcome: n.outcome.as_str(),
                note: n.note.clone(),
                clause: n.span.map(range),
                bindings: n.bindings.clone(),
                children,
            });
        }
        done.pop().expect("one root")
    }
    AnswerJson {
        question: answer.question.clone(),
        holds: answer.holds,
        summary: answer.summary.clone(),
        text: render_text(answer, source, file),
        nodes: answer.nodes.iter().map(|n| convert(n, &range)).collect(),
    }
}

fn how_text(how: ActionSource) -> &'static str {
    match how {
        ActionSource::Submitted => "submitted",
        ActionSource::Drawn => "drawn",
        ActionSource::Default => "default",
    }
}

fn do_answer(
    ex: &mut Explainer,
    session: &mut Session,
    switch: &Term,
    chronon: Option<u64>,
    viewer: Option<&Term>,
) -> Result<Answer, RuntimeError> {
    let (n, mut pre) = before_chronon(session, chronon)?;
    let switches = chronon_switches(session, n);
    let ok = session.history()[n as usize - 1]
        .events
        .iter()
        .find_map(|e| match e {
            Event::Switch { switch: s, ok, .. } if s == switch => Some(*ok),
            _ => None,
        });
    let Some(ok) = ok else {
        return Ok(empty_answer(
            false,
            format!(
                "switch {} did not act in chronon {n}: it was not legal, or it had no action",
                show(switch)
            ),
            vec![],
        ));
    };
    let visible_ids = owner_filter(&mut pre, viewer)?;
    if let Some(p) = viewer {
        if !visible_ids.contains(switch) {
            return Ok(empty_answer(
                ok,
                format!(
                    "switch {} is not owned by {}: what it did is hidden from {}",
                    show(switch),
                    show(p),
                    show(p)
                ),
                vec![],
            ));
        }
    }
    let own = |s: &Term| visible_ids.contains(s);
    let state = viewed_state(&mut pre, viewer)?;
    let mut node: Option<WhyNode> = None;
    let mut action = None;
    replay_dos(
        ex,
        &state,
        &switches,
        &own,
        |ex, host, i| {
            let (sw, a, how) = &switches[i];
            if node.is_some() || sw != switch {
                return;
            }
            let mut nd = ex.explain(host, &call(atom::DO, vec![a.clone()]), Mode::First, 0);
            let mut note = format!(
                "switch {} ran its {} action {}",
                show(sw),
                how_text(*how),
                show(a)
            );
            if let Some(m) = nd.note.take() {
                note = format!("{note}; {m}");
            }
            nd.note = Some(note);
            node = Some(nd);
            action = Some(a.clone());
        },
        |_, _| {},
    );
    let act = action.as_ref().map(show).unwrap_or_default();
    let summary = if ok {
        format!(
            "the do/1 of switch {} succeeded in chronon {n} (do({act}))",
            show(switch)
        )
    } else {
        format!(
            "the do/1 of switch {} failed in chronon {n} (do({act})): the switch had no effect",
            show(switch)
        )
    };
    if let Some(p) = viewer {
        if node.as_ref().map(|n| n.outcome == Outcome::Proved) != Some(ok) {
            return Ok(empty_answer(
                ok,
                format!("{summary}; {}", hidden_note(p)),
                vec![],
            ));
        }
    }
    Ok(empty_answer(ok, summary, node.into_iter().collect()))
}
