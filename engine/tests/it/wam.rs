//! The compiled core (`engine/src/solve/wam/`) against the interpreter: every query of a corpus
//! runs through both, memoization off, and everything is compared: each answer (as `sidl
//! query` prints it), their order, whether more may follow, the error that ended the query (kind,
//! ball, message, predicate) and the inference count after each answer. Corpus: the core's own
//! cases (`tests/wam/cases.pl`), the SWI differential corpus (`tests/differential/corpus`, the
//! queries in the core's subset), bench/nrev.pl and bench/chesslike.pl.

use sidl_engine::solve::query::answer_text;
use sidl_engine::solve::wam::CoreQuery;
use sidl_engine::solve::{Limits, Program, SolveError};

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
