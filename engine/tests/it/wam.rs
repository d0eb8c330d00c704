//! The compiled core (`engine/src/solve/wam/`) against the interpreter: every query of a corpus
//! runs through both, memoization off, and everything is compared: each answer (as `sidl
//! query` prints it), their order, whether more may follow, the error that ended the query (kind,
//! ball, message, predicate) and the inference count after each answer. Corpus: the core's own
//! cases (`tests/wam/cases.pl`), the SWI differential corpus (`tests/differential/corpus`, the
//! queries in the core's subset), bench/nrev.pl and bench/chesslike.pl.

use sidl_engine::atom::Atom;
use sidl_engine::rng::Rng;
use sidl_engine::solve::builtins::Det;
use sidl_engine::solve::host::Host;
use sidl_engine::solve::query::answer_text;
use sidl_engine::solve::store::{Cell, Store, TrailEntry};
use sidl_engine::solve::wam::CoreQuery;
use sidl_engine::solve::{Limits, Program, ProgramBuilder, SolveError, SourceClause};
use sidl_engine::term::Term;

/// What a query did, step by step: per answer its text, the inference count, whether more may
/// follow; the error's kind, ball, message and predicate.
type Run = Vec<String>;

fn show_err(e: &SolveError) -> String {
    format!(
        "error {:?} {} | {} | {:?}",
        e.kind,
        sidl_engine::write::canonical(&e.ball),
        e.message,
        e.predicate
    )
}

fn interp(p: &Program, goal: &str, limits: Limits, max: usize) -> Run {
    let mut q = p.query(goal, limits).expect("goal parses");
    q.machine().memoize = false;
    let names = q.var_names().to_vec();
    let mut out = Vec::new();
    for _ in 0..max {
        match q.next_answer() {
            Some(Ok(v)) => out.push(format!(
                "{} @{} more={}",
                answer_text(&names, &v),
                q.inferences(),
                q.may_have_more()
            )),
            Some(Err(e)) => {
                out.push(format!("{} @{}", show_err(&e), q.inferences()));
                return out;
            }
            None => {
                out.push(format!("false @{}", q.inferences()));
                return out;
            }
        }
    }
    out
}

/// `None`: the core refuses the query (outside its subset).
fn core(p: &Program, goal: &str, limits: Limits, max: usize) -> Option<Run> {
    let mut q = CoreQuery::parse(p, goal, limits).ok()?;
    let names = q.var_names().to_vec();
    let mut out = Vec::new();
    for _ in 0..max {
        match q.next_answer() {
            Some(Ok(v)) => out.push(format!(
                "{} @{} more={}",
                answer_text(&names, &v),
                q.inferences,
                q.may_have_more()
            )),
            Some(Err(e)) => {
                if q.refused().is_some() {
                    // stopped at run time: a goal outside the subset
                    return None;
                }
                out.push(format!("{} @{}", show_err(&e), q.inferences));
                return Some(out);
            }
            None => {
                out.push(format!("false @{}", q.inferences));
                return Some(out);
            }
        }
    }
    Some(out)
}

fn limits(max_inferences: u64) -> Limits {
    Limits {
        max_inferences,
        ..Limits::default()
    }
}

/// Compares one query; `false` if the core refused it.
fn same(p: &Program, goal: &str, lim: Limits, failures: &mut Vec<String>) -> bool {
    let Some(c) = core(p, goal, lim, 50) else {
        return false;
    };
    let i = interp(p, goal, lim, 50);
    if i != c {
        failures.push(format!(
            "{goal}\n  interpreter: {i:?}\n  core:        {c:?}"
        ));
    }
    true
}

fn load(src: &str) -> Program {
    let (p, d) = Program::from_source(src);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    p
}

#[test]
fn own_corpus() {
    let src = include_str!("../wam/cases.pl");
    let p = load(src);
    let mut failures = Vec::new();
    let (mut run, mut refused) = (0, Vec::new());
    for line in src.lines() {
        let (goal, lim) = if let Some(g) = line.strip_prefix("% query ") {
            (g.to_string(), limits(10_000_000))
        } else if let Some(rest) = line.strip_prefix("% budget ") {
            let (n, g) = rest.split_once(' ').expect("% budget N G");
            (g.to_string(), limits(n.parse().expect("a budget")))
        } else {
            continue;
        };
        if same(&p, &goal, lim, &mut failures) {
            run += 1;
        } else {
            refused.push(goal);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // every query of the own corpus is in the subset
    assert!(refused.is_empty(), "refused: {refused:?}");
    assert!(run >= 190, "{run}");
}

#[test]
fn swi_differential_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential");
    let mut files: Vec<_> = std::fs::read_dir(dir.join("corpus"))
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let (mut run, mut refused) = (0, 0);
    for f in files {
        for line in std::fs::read_to_string(&f).expect("corpus file").lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('%') {
                continue;
            }
            let (progs, goal) = match (t.strip_prefix('@'), t.find(':')) {
                (Some(rest), Some(colon)) => (&rest[..colon - 1], t[colon + 1..].trim()),
                _ => ("", t),
            };
            let mut src = String::new();
            for name in progs.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let path = dir.join("programs").join(format!("{name}.pl"));
                src.push_str(&std::fs::read_to_string(path).expect("program"));
                src.push('\n');
            }
            let (p, d) = Program::from_source(&src);
            if d.iter().any(|d| d.is_error()) {
                continue;
            }
            let goal = goal.strip_suffix('.').unwrap_or(goal);
            if p.query(goal, limits(1)).is_err() {
                continue;
            }
            if same(&p, goal, limits(2_000_000), &mut failures) {
                run += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n({} differ)",
        failures.join("\n"),
        failures.len()
    );
    eprintln!("swi corpus: {run} compared, {refused} outside the subset");
    assert!(run >= 300, "only {run} queries compared");
}

#[test]
fn bench_programs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let nrev = load(&std::fs::read_to_string(root.join("bench/nrev.pl")).expect("nrev"));
    let mut failures = Vec::new();
    assert!(same(
        &nrev,
        "range(1, 30, L), loop(50, L)",
        limits(u64::MAX),
        &mut failures
    ));
    assert!(same(&nrev, "bench", limits(300_000), &mut failures));
    let chess = load(&std::fs::read_to_string(root.join("bench/chesslike.pl")).expect("chess"));
    assert!(same(&chess, "bench", limits(u64::MAX), &mut failures));
    assert!(same(&chess, "bench", limits(1_000_000), &mut failures));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The test host of `host_corpus` (see `tests/wam/host_cases.pl`): facts with retries, an
/// undoable effect and a log of every call, retry and undo (compared between the engines).
#[derive(Default)]
struct TestHost {
    made: Vec<Cell>,
    log: Vec<String>,
}

const FACTS: [i64; 3] = [1, 2, 3];

impl TestHost {
    /// Unifies `arg` with the `i`-th of `items` onward: the first that unifies, and a retry
    /// state when more follow.
    fn enumerate(store: &mut Store, arg: Cell, items: &[Cell], from: usize, high: u64) -> Det {
        for i in from..items.len() {
            let mark = store.trail.len();
            if store.unify(arg, items[i]) {
                return if i + 1 < items.len() {
                    Det::Retry(high | (i as u64 + 1))
                } else {
                    Det::True
                };
            }
            store.undo_to(mark, |_| {});
        }
        Det::Fail
    }
}

impl Host for TestHost {
    fn call(
        &mut self,
        id: u32,
        store: &mut Store,
        _rng: &mut Rng,
        args: &[Cell],
        redo: Option<u64>,
    ) -> Result<Det, Term> {
        let arg = store.deref(args[0]);
        let from = redo.map_or(0, |s| (s & 0xffff_ffff) as usize);
        self.log.push(format!("call {id} {redo:?}"));
        Ok(match id {
            0 => {
                let facts: Vec<Cell> = FACTS.iter().map(|&i| Cell::Int(i)).collect();
                Self::enumerate(store, arg, &facts, from, 0)
            }
            1 => {
                if !arg.is_atomic() {
                    return Err(Term::compound(
                        "error",
                        vec![Term::atom("instantiation_error"), Term::Var(0)],
                    ));
                }
                self.made.push(arg);
                store.trail.push(TrailEntry::Host(7));
                Det::True
            }
            2 => {
                let made = self.made.clone();
                Self::enumerate(store, arg, &made, from, 0)
            }
            3 => {
                let facts: Vec<Cell> = (1..=5).map(Cell::Int).collect();
                Self::enumerate(store, arg, &facts, from, 1 << 32)
            }
            _ => {
                if matches!(arg, Cell::Ref(_)) {
                    return Err(Term::compound(
                        "error",
                        vec![
                            Term::compound(
                                "type_error",
                                vec![Term::atom("integer"), Term::atom("unbound")],
                            ),
                            Term::Var(0),
                        ],
                    ));
                }
                Det::True
            }
        })
    }
    fn retry_kept(&mut self, id: u32, _store: &mut Store, state: u64) -> Option<Det> {
        self.log.push(format!("kept {id} {state}"));
        // the fourth answer of hkept/1 is refused from what the host kept (it ends there)
        (state & 0xffff_ffff >= 3).then_some(Det::Fail)
    }
    fn undo(&mut self, entry: u32) {
        self.log.push(format!("undo {entry}"));
        self.made.pop();
    }
}

fn host_program(src: &str) -> Program {
    let parsed = sidl_engine::syntax::parse_file(src);
    let clauses = parsed.clauses.into_iter().map(|c| SourceClause {
        term: c.term,
        span: c.span,
        var_names: c.var_names.into(),
    });
    let hosts: Vec<(Atom, u32)> = ["hfact", "hmake", "hmade", "hkept", "hbad"]
        .iter()
        .map(|n| (Atom::new(n), 1))
        .collect();
    let (p, d) = ProgramBuilder::new()
        .host_predicates(&hosts)
        .clauses(clauses)
        .build();
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    p
}

#[test]
fn host_corpus() {
    let src = include_str!("../wam/host_cases.pl");
    let p = host_program(src);
    let mut failures = Vec::new();
    let mut run = 0;
    for line in src.lines() {
        let Some(goal) = line.strip_prefix("% query ") else {
            continue;
        };
        let lim = limits(1_000_000);
        // the interpreter
        let mut ih = TestHost::default();
        let mut q = p.query(goal, lim).expect("goal parses");
        q.machine().memoize = false;
        let names = q.var_names().to_vec();
        let mut i = Vec::new();
        for _ in 0..20 {
            match q.next_answer_with(&mut ih) {
                Some(Ok(v)) => i.push(format!(
                    "{} @{} more={} made={:?}",
                    answer_text(&names, &v),
                    q.inferences(),
                    q.may_have_more(),
                    ih.made
                )),
                Some(Err(e)) => {
                    i.push(format!("{} @{}", show_err(&e), q.inferences()));
                    break;
                }
                None => {
                    i.push(format!("false @{}", q.inferences()));
                    break;
                }
            }
        }
        i.push(format!("{:?}", ih.log));
        // the core
        let mut ch = TestHost::default();
        let mut cq = match CoreQuery::parse(&p, goal, lim) {
            Ok(q) => q,
            Err(e) => {
                failures.push(format!("{goal}: refused by the core: {e}"));
                continue;
            }
        };
        let names = cq.var_names().to_vec();
        let mut c = Vec::new();
        for _ in 0..20 {
            match cq.next_answer_with(&mut ch) {
                Some(Ok(v)) => c.push(format!(
                    "{} @{} more={} made={:?}",
                    answer_text(&names, &v),
                    cq.inferences,
                    cq.may_have_more(),
                    ch.made
                )),
                Some(Err(e)) => {
                    c.push(format!("{} @{}", show_err(&e), cq.inferences));
                    break;
                }
                None => {
                    c.push(format!("false @{}", cq.inferences));
                    break;
                }
            }
        }
        c.push(format!("{:?}", ch.log));
        if i != c {
            failures.push(format!(
                "{goal}\n  interpreter: {i:?}\n  core:        {c:?}"
            ));
        }
        run += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(run >= 25, "{run}");
}

/// The core wired into the machine (`solve::machine::core`, switched on for this thread's
/// machines): `sidl trace` of games whose queries run on it in part, the same trace as on the
/// interpreter alone, and queries counted on the core.
#[cfg(feature = "compiled-core")]
#[test]
fn games_on_the_core_trace_the_same() {
    use sidl_engine::game::{trace::run_trace, Game, Settings};
    use sidl_engine::solve::wam::{core_counts, set_compiled_core_default};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut on_core = 0;
    for g in [
        "games/nim.sidl",
        "games/tutorial.sidl",
        "games/paper/priceNegotiation.sidl",
        "games/paper/mcp.sidl",
        "games/econ/public_goods.sidl",
        "games/kalah.sidl",
    ] {
        let src = std::fs::read_to_string(root.join(g)).expect("game");
        let game = std::sync::Arc::new(Game::load(&src).expect("loads").0);
        for seed in [1, 2] {
            set_compiled_core_default(false);
            let base = run_trace(game.clone(), seed, None, 60, Settings::default());
            set_compiled_core_default(true);
            let before = core_counts().0[0];
            let core = run_trace(game.clone(), seed, None, 60, Settings::default());
            set_compiled_core_default(false);
            on_core += core_counts().0[0] - before;
            assert_eq!(base.lines, core.lines, "{g} seed {seed}");
            assert_eq!(base.exit_code, core.exit_code, "{g} seed {seed}");
        }
    }
    assert!(on_core >= 100, "{on_core} queries on the core");
}
