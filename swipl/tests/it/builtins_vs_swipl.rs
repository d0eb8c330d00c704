//! Differential tests of the native built-ins against SWI-Prolog 9.
//!
//! `tests/builtins/cases.txt` holds one goal per line. `tests/builtins/driver.pl` runs every goal in
//! one `swipl` process and prints, per goal, its canonical form and `r(Solutions, Outcome)` (the values
//! of the goal's variables for at most 8 solutions; `ok`, `more` or `error(Formal)`). This test reads
//! the goal back (a small reader for canonical text), runs it on the native built-ins directly (a
//! conjunction of built-in calls, redone through `Det::Retry` with the trail undone between
//! solutions), and compares the canonical text of the same result term. Goals listed in
//! `tests/builtins/differences.txt` must instead give the output written there (and SWI-Prolog must
//! still disagree with it, so stale entries are caught).
//!
//! SWI-Prolog is required: without `swipl` on the PATH this test fails.
//!
//! Checks docs/semantics.md §8.2.

use sidl_engine::atom::Atom;
use sidl_engine::rng::Rng;
use sidl_engine::solve::builtins::{lookup, Ctx, Det};
use sidl_engine::solve::store::{Cell, Store};
use sidl_engine::term::Term;
use sidl_engine::write;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

const MAX_SOLUTIONS: usize = 8;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/builtins")
}

// ---------------------------------------------------------------------------------------------
// A reader for SWI-Prolog's write_canonical output.

struct Reader<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
    vars: HashMap<String, u32>,
    nvars: u32,
}

fn is_symbol(c: u8) -> bool {
    b"#$&*+-./:<=>?@^~\\".contains(&c)
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Reader<'a> {
        Reader {
            s: src.as_bytes(),
            src,
            i: 0,
            vars: HashMap::new(),
            nvars: 0,
        }
    }
    fn peek(&self) -> u8 {
        *self.s.get(self.i).unwrap_or(&0)
    }
    fn expect(&mut self, c: u8) {
        assert_eq!(
            self.peek() as char,
            c as char,
            "at {} in {}",
            self.i,
            self.src
        );
        self.i += 1;
    }
    fn term(&mut self) -> Term {
        let c = self.peek();
        if c.is_ascii_digit()
            || (c == b'-' && self.s.get(self.i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            return self.number();
        }
        if c == b'_' || c.is_ascii_uppercase() {
            let st = self.i;
            while self.peek().is_ascii_alphanumeric() || self.peek() == b'_' {
                self.i += 1;
            }
            let name = &self.src[st..self.i];
            if name == "_" {
                self.nvars += 1;
                return Term::Var(self.nvars - 1);
            }
            let next = self.nvars;
            let v = *self.vars.entry(name.to_string()).or_insert(next);
            if v == next {
                self.nvars += 1;
            }
            return Term::Var(v);
        }
        if c == b'"' {
            let s = self.quoted(b'"');
            return Term::Str(Atom::new(&s));
        }
        if c == b'[' {
            self.i += 1;
            if self.peek() == b']' {
                self.i += 1;
                return self.maybe_args("[]");
            }
            let mut items = vec![self.term()];
            while self.peek() == b',' {
                self.i += 1;
                items.push(self.term());
            }
            let tail = if self.peek() == b'|' {
                self.i += 1;
                self.term()
            } else {
                Term::nil()
            };
            self.expect(b']');
            return Term::list_with_tail(items, tail);
        }
        let name: String = if c == b'\'' {
            self.quoted(b'\'')
        } else if c == b'{' {
            self.i += 1;
            self.expect(b'}');
            "{}".into()
        } else if c.is_ascii_lowercase() || c >= 0x80 {
            let st = self.i;
            while let Some(ch) = self.src[self.i..]
                .chars()
                .next()
                .filter(|ch| ch.is_alphanumeric() || *ch == '_')
            {
                self.i += ch.len_utf8();
            }
            self.src[st..self.i].to_string()
        } else if is_symbol(c) {
            let st = self.i;
            while is_symbol(self.peek()) {
                self.i += 1;
            }
            self.src[st..self.i].to_string()
        } else if c == b'!' || c == b';' {
            self.i += 1;
            (c as char).to_string()
        } else {
            panic!("unexpected {:?} at {} in {}", c as char, self.i, self.src)
        };
        self.maybe_args(&name)
    }
    fn maybe_args(&mut self, name: &str) -> Term {
        if self.peek() != b'(' {
            return Term::atom(name);
        }
        self.i += 1;
        let mut args = vec![self.term()];
        while self.peek() == b',' {
            self.i += 1;
            args.push(self.term());
        }
        self.expect(b')');
        Term::compound(name, args)
    }
    fn number(&mut self) -> Term {
        let st = self.i;
        if self.peek() == b'-' {
            self.i += 1;
        }
        while self.peek().is_ascii_alphanumeric() || self.peek() == b'.' || self.peek() == b'_' {
            if (self.peek() == b'e') && matches!(self.s.get(self.i + 1), Some(b'+' | b'-')) {
                self.i += 2;
                continue;
            }
            if self.peek() == b'.' && !self.s.get(self.i + 1).is_some_and(|d| d.is_ascii_digit()) {
                break;
            }
            self.i += 1;
        }
        let text = &self.src[st..self.i];
        match text {
            "1.0Inf" => return Term::Float(f64::INFINITY),
            "-1.0Inf" => return Term::Float(f64::NEG_INFINITY),
            "1.5NaN" | "-1.5NaN" => return Term::Float(f64::NAN),
            _ => {}
        }
        if text.contains('.') || text.contains("e") {
            Term::Float(text.parse().unwrap_or_else(|_| panic!("bad float {text}")))
        } else {
            match text.parse::<i64>() {
                Ok(i) => Term::Int(i),
                // big integers (SWI-Prolog results only): kept as an atom so they print the same
                Err(_) => Term::atom(&format!("$big({text})")),
            }
        }
    }
    fn quoted(&mut self, q: u8) -> String {
        self.expect(q);
        let mut out = String::new();
        loop {
            let rest = &self.src[self.i..];
            let ch = rest.chars().next().expect("unterminated quote");
            self.i += ch.len_utf8();
            if ch as u32 == q as u32 {
                return out;
            }
            if ch != '\\' {
                out.push(ch);
                continue;
            }
            let e = self.src[self.i..].chars().next().expect("escape");
            self.i += e.len_utf8();
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'a' => out.push('\u{7}'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'v' => out.push('\u{b}'),
                '0' => out.push('\0'),
                'x' => {
                    let end = self.src[self.i..].find('\\').expect("\\x..\\");
                    let v = u32::from_str_radix(&self.src[self.i..self.i + end], 16).expect("hex");
                    out.push(char::from_u32(v).expect("char"));
                    self.i += end + 1;
                }
                other => out.push(other),
            }
        }
    }
}

fn read_canonical(src: &str) -> Term {
    let mut r = Reader::new(src);
    let t = r.term();
    assert_eq!(r.i, src.len(), "trailing text in {src}");
    t
}

// ---------------------------------------------------------------------------------------------
// Running a goal on the native built-ins.

enum Flow {
    Continue,
    Stop,
}

struct Run {
    sols: Vec<Term>,
    vars: Cell,
}

fn renumber(t: &Term, offset: u32) -> Term {
    match t {
        Term::Var(v) => Term::Var(v + offset),
        Term::Compound(f, args) => Term::Compound(
            *f,
            args.iter()
                .map(|a| renumber(a, offset))
                .collect::<Vec<_>>()
                .into(),
        ),
        other => other.clone(),
    }
}

fn conjuncts(store: &Store, c: Cell, out: &mut Vec<Cell>) {
    let d = store.deref(c);
    if let Some((f, 2)) = store.functor(d) {
        if f.name() == "," {
            conjuncts(store, store.arg(d, 0), out);
            conjuncts(store, store.arg(d, 1), out);
            return;
        }
    }
    out.push(d);
}

fn call_goal(ctx: &mut Ctx<'_>, goal: Cell, redo: Option<u64>) -> Result<Det, Term> {
    let (name, arity) = ctx
        .store
        .functor(goal)
        .unwrap_or_else(|| panic!("goal is not callable"));
    let args: Vec<Cell> = (0..arity).map(|i| ctx.store.arg(goal, i)).collect();
    match (name.name(), arity) {
        ("true", 0) => return Ok(Det::True),
        ("fail", 0) | ("false", 0) => return Ok(Det::Fail),
        ("wq", 2) | ("wc", 2) => {
            let t = ctx.store.to_term(args[0]);
            let s = if name.name() == "wq" {
                write::writeq(&t, None)
            } else {
                write::canonical(&t)
            };
            let a = Cell::Atom(Atom::new(&s));
            return Ok(if ctx.store.unify(args[1], a) {
                Det::True
            } else {
                Det::Fail
            });
        }
        _ => {}
    }
    let f = lookup(name, arity)
        .unwrap_or_else(|| panic!("no native built-in {}/{}", name.name(), arity));
    f(ctx, &args, redo)
}

fn solve(ctx: &mut Ctx<'_>, goals: &[Cell], i: usize, run: &mut Run) -> Result<Flow, Term> {
    if i == goals.len() {
        let t = ctx.store.to_term(run.vars);
        let offset = 1000 * run.sols.len() as u32;
        run.sols.push(renumber(&t, offset));
        return Ok(if run.sols.len() >= MAX_SOLUTIONS {
            Flow::Stop
        } else {
            Flow::Continue
        });
    }
    let mut redo = None;
    loop {
        let tl = ctx.store.trail.len();
        ctx.store.mark = ctx.store.len();
        let r = call_goal(ctx, goals[i], redo);
        match r? {
            Det::Fail => {
                ctx.store.undo_to(tl, |_| {});
                return Ok(Flow::Continue);
            }
            Det::True => {
                let f = solve(ctx, goals, i + 1, run)?;
                ctx.store.undo_to(tl, |_| {});
                return Ok(f);
            }
            Det::Retry(s) => {
                let f = solve(ctx, goals, i + 1, run)?;
                ctx.store.undo_to(tl, |_| {});
                if let Flow::Stop = f {
                    return Ok(Flow::Stop);
                }
                redo = Some(s);
            }
        }
    }
}

fn run_native(goal_and_vars: &Term) -> Term {
    let mut store = Store::new();
    let mut rng = Rng::new(0);
    let c = store.build(goal_and_vars, &mut Vec::new());
    let goal = store.arg(c, 0);
    let vars = store.arg(c, 1);
    let mut goals = Vec::new();
    conjuncts(&store, goal, &mut goals);
    let mut run = Run {
        sols: Vec::new(),
        vars,
    };
    let mut ctx = Ctx::new(&mut store, &mut rng);
    let out = match solve(&mut ctx, &goals, 0, &mut run) {
        Ok(Flow::Continue) => Term::atom("ok"),
        Ok(Flow::Stop) => Term::atom("more"),
        Err(ball) => match &ball {
            Term::Compound(f, args) if f.name() == "error" && args.len() == 2 => {
                Term::compound("error", vec![args[0].clone()])
            }
            _ => Term::compound("throw", vec![ball.clone()]),
        },
    };
    Term::Compound(Atom::new("r"), Arc::from(vec![Term::list(run.sols), out]))
}

// ---------------------------------------------------------------------------------------------

struct Case {
    line: String,
    goal: String,
    res: String,
}

fn swipl_results() -> Vec<Case> {
    let out = Command::new("swipl")
        .arg(dir().join("driver.pl"))
        .arg(dir().join("cases.txt"))
        .output()
        .unwrap_or_else(|e| {
            panic!("this test needs SWI-Prolog 9 (`swipl`) on the PATH to compute the reference results: {e}")
        });
    assert!(
        out.status.success(),
        "swipl failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut cases = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let line = l
            .strip_prefix("CASE ")
            .unwrap_or_else(|| panic!("bad driver line {l}"))
            .to_string();
        let goal = lines
            .next()
            .and_then(|g| g.strip_prefix("GOAL "))
            .expect("GOAL line")
            .to_string();
        let res = lines
            .next()
            .and_then(|g| g.strip_prefix("RES "))
            .expect("RES line")
            .to_string();
        cases.push(Case { line, goal, res });
    }
    cases
}

/// `differences.txt`: `CASE <goal line>` then `OURS <our result>`; `%` lines give the reason.
fn differences() -> HashMap<String, String> {
    let text = std::fs::read_to_string(dir().join("differences.txt")).expect("differences.txt");
    let mut map = HashMap::new();
    let mut case: Option<String> = None;
    for l in text.lines() {
        if let Some(c) = l.strip_prefix("CASE ") {
            case = Some(c.to_string());
        } else if let Some(o) = l.strip_prefix("OURS ") {
            let c = case.take().expect("OURS without CASE");
            map.insert(c, o.to_string());
        }
    }
    map
}

#[test]
fn builtins_agree_with_swipl() {
    let cases = swipl_results();
    let diffs = differences();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let mut failures = Vec::new();
    let mut used = 0;
    for case in &cases {
        assert_ne!(
            case.goal, "syntax_error",
            "SWI-Prolog cannot read case {:?}",
            case.line
        );
        if std::env::var_os("SIDL_TRACE_CASES").is_some() {
            eprintln!("case: {}", case.line);
        }
        let goal = read_canonical(&case.goal);
        let ours = write::canonical(&run_native(&goal));
        match diffs.get(&case.line) {
            Some(expected) => {
                used += 1;
                if &ours != expected {
                    failures.push(format!(
                        "{}\n   ours:     {ours}\n   expected: {expected} (differences.txt)",
                        case.line
                    ));
                }
                if &case.res == expected {
                    failures.push(format!(
                        "{}\n   listed as a difference but SWI-Prolog agrees: {expected}",
                        case.line
                    ));
                }
            }
            None => {
                if ours != case.res {
                    failures.push(format!(
                        "{}\n   ours: {ours}\n   swi:  {}",
                        case.line, case.res
                    ));
                }
            }
        }
    }
    assert_eq!(
        used,
        diffs.len(),
        "differences.txt lists goals that are not in cases.txt"
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    println!(
        "{} cases agree with SWI-Prolog ({} deliberate differences)",
        cases.len(),
        diffs.len()
    );
}
