//! Sessions driven step by step: data-driven fixtures in `tests/session/`. Each `%> COMMAND => WANT`
//! line of a fixture is run in order against a session of the fixture's game (a first line
//! `%> interrupt` turns interrupt mode on) and its outcome compared with `WANT` (both read as terms):
//!
//! - `submit(P, S, A)`: `ok`, `rejected` or `error(Code)`;
//! - `step` (run a chronon): `ok` or `error(Code)`;
//! - `undo`: `ok` or `nothing` (no chronon to undo);
//! - `pending`: the pending submissions, `[submit(P, S, A), ...]`;
//! - `chronon`: the current chronon number.
//!
//! In the terms of a command, `float(inf)`, `float(-inf)` and `float(nan)` stand for the floats +inf,
//! -inf and NaN, which the syntax cannot write (only the Rust API can submit them).
//!
//! Regressions found by the fuzz targets (`fuzz/README.md`) live here.

use sidl_engine::game::{Game, Session, Settings};
use sidl_engine::syntax::parse_term;
use sidl_engine::term::Term;
use sidl_engine::write::canonical;
use std::path::Path;
use std::sync::Arc;

fn term(text: &str) -> Term {
    let t = parse_term(text)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"))
        .term;
    non_finite(&t)
}

/// `float(inf)`, `float(-inf)`, `float(nan)` → the non-finite floats, anywhere in `t`.
fn non_finite(t: &Term) -> Term {
    match t {
        Term::Compound(f, args) if f.name() == "float" && args.len() == 1 => {
            match canonical(&args[0]).as_str() {
                "inf" => Term::Float(f64::INFINITY),
                "-inf" | "-(inf)" => Term::Float(f64::NEG_INFINITY),
                "nan" => Term::Float(f64::NAN),
                _ => t.clone(),
            }
        }
        Term::Compound(f, args) => Term::Compound(*f, args.iter().map(non_finite).collect()),
        _ => t.clone(),
    }
}

fn error(code: &str) -> Term {
    Term::compound("error", vec![Term::atom(code)])
}

fn outcome(s: &mut Session, cmd: &Term) -> Term {
    match (cmd.functor().map(|(n, a)| (n.name(), a)), cmd.args()) {
        (Some(("submit", 3)), [p, sw, a]) => match s.submit(p, sw, a) {
            Ok(Ok(())) => Term::atom("ok"),
            Ok(Err(_)) => Term::atom("rejected"),
            Err(e) => error(e.code),
        },
        (Some(("step", 0)), _) => match s.run_chronon() {
            Ok(_) => Term::atom("ok"),
            Err(e) => error(e.code),
        },
        (Some(("undo", 0)), _) => Term::atom(if s.undo() { "ok" } else { "nothing" }),
        (Some(("pending", 0)), _) => Term::list(
            s.pending()
                .iter()
                .map(|p| {
                    Term::compound(
                        "submit",
                        vec![p.player.clone(), p.switch.clone(), p.action.clone()],
                    )
                })
                .collect(),
        ),
        (Some(("chronon", 0)), _) => Term::Int(s.chronon() as i64),
        _ => panic!("unknown command {}", canonical(cmd)),
    }
}

#[test]
fn session_scripts_give_the_outcomes_written_in_the_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/session");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    let mut failures = Vec::new();
    let mut steps = 0;
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(entry.path()).unwrap();
        let (game, _) = Game::load(&src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let lines: Vec<(usize, &str)> = src
            .lines()
            .enumerate()
            .filter_map(|(i, l)| l.strip_prefix("%> ").map(|c| (i + 1, c.trim())))
            .collect();
        let interrupt = lines.first().is_some_and(|(_, c)| *c == "interrupt");
        let settings = Settings {
            interrupt,
            ..Settings::default()
        };
        let mut s = Session::new(Arc::new(game), 1, settings).unwrap();
        for (line, text) in lines.iter().skip(interrupt as usize) {
            let (cmd, want) = text
                .split_once(" => ")
                .unwrap_or_else(|| panic!("{name}:{line}: COMMAND => WANT"));
            let got = canonical(&outcome(&mut s, &term(cmd)));
            let want = canonical(&term(want));
            steps += 1;
            if got != want {
                failures.push(format!("{name}:{line}: {cmd}: got {got}, want {want}"));
            }
        }
    }
    assert!(steps >= 20, "the fixtures ran only {steps} steps");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
