//! `sidl explore GAME`: the dynamic Def.1 §11 check (hidden facts must not leak through the switches a
//! player owns). Progress on stderr; each counterexample, the runtime errors met and the summary as
//! text (human) or as JSON lines on stdout (json); exit 1 if a violation is found, 2 on a runtime
//! error in the initial state.

use crate::commands::{load_game, CheckFormat};
use crate::render;
use serde::Serialize;
use sidl_engine::analysis::hidden_dynamic::{explore, ExploreOptions, Phase, Progress};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

/// The last JSON line: what was explored.
#[derive(Serialize)]
struct Summary {
    kind: &'static str,
    states: usize,
    /// Every reachable state was explored (no violation then is a proof).
    complete: bool,
    chronons: u64,
    violations: usize,
    seconds: f64,
    states_per_second: f64,
}

/// A counterexample line: `kind` and the engine's violation data.
#[derive(Serialize)]
struct Counterexample<'a> {
    kind: &'static str,
    #[serde(flatten)]
    violation: &'a sidl_engine::analysis::hidden_dynamic::ViolationData,
}

pub fn run(path: &Path, max_states: usize, seed: u64, format: CheckFormat) -> u8 {
    let name = path.display().to_string();
    let (game, src) = match load_game(path) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let opts = ExploreOptions {
        max_states,
        seed,
        ..ExploreOptions::default()
    };
    // on a terminal the progress line is rewritten in place (a carriage return, no escapes)
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut last = Instant::now();
    let mut width = 0;
    let mut show = |p: &Progress| {
        if p.phase != Phase::Done && last.elapsed().as_millis() < 200 {
            return;
        }
        last = Instant::now();
        let phase = match p.phase {
            Phase::Breadth => "breadth-first",
            Phase::Playouts => "random playouts",
            Phase::Done => "done",
        };
        let line = format!(
            "{phase}: {} states, {} queued, {} chronons, {} violations",
            p.states, p.queue, p.chronons, p.violations
        );
        let mut e = std::io::stderr();
        if tty {
            let _ = write!(e, "\r{line:width$}");
            width = width.max(line.chars().count());
            if p.phase == Phase::Done {
                let _ = writeln!(e);
            }
        } else {
            let _ = writeln!(e, "{line}");
        }
    };
    let report = match explore(game, &opts, &mut show) {
        Ok(r) => r,
        Err(e) => {
            match format {
                CheckFormat::Human => render::runtime_error(&name, &src, &e, ""),
                CheckFormat::Json => println!("{}", render::json(&src, &e.to_diagnostic())),
            }
            return 2;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    let rate = report.states as f64 / secs.max(1e-9);
    match format {
        CheckFormat::Human => {
            for v in &report.violations {
                println!("Def.1 §11 violation: {}", v.describe());
            }
            for e in &report.errors {
                render::runtime_error(&name, &src, e, "during exploration (successor skipped): ");
            }
            println!(
                "{} states ({}), {} chronons in {:.2} s: {:.0} states/s",
                report.states,
                if report.complete {
                    "every reachable state"
                } else {
                    "bounded: the state budget ran out"
                },
                report.chronons,
                secs,
                rate
            );
            if report.violations.is_empty() {
                println!("no Def.1 §11 violation found");
            }
        }
        CheckFormat::Json => {
            for v in &report.violations {
                json_line(&Counterexample {
                    kind: "counterexample",
                    violation: &v.data(),
                });
            }
            for e in &report.errors {
                println!("{}", render::json(&src, &e.to_diagnostic()));
            }
            json_line(&Summary {
                kind: "summary",
                states: report.states,
                complete: report.complete,
                chronons: report.chronons,
                violations: report.violations.len(),
                seconds: secs,
                states_per_second: rate,
            });
        }
    }
    u8::from(!report.violations.is_empty())
}

/// `v` as one line of JSON on stdout.
fn json_line<T: Serialize>(v: &T) {
    println!(
        "{}",
        serde_json::to_string(v).expect("plain data serialises")
    );
}
