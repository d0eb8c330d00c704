//! `sidl explore GAME`: the dynamic Def.1 §11 check (hidden facts must not leak through the switches a
//! player owns). Progress on stderr, each counterexample and the rate on stdout; exit 1 if a
//! violation is found, 2 on a runtime error in the initial state.

use crate::commands::load_game;
use sidl_engine::analysis::hidden_dynamic::{explore, ExploreOptions, Phase, Progress};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

pub fn run(game: &Path, max_states: usize, seed: u64) -> u8 {
    let (game, _src) = match load_game(game) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let opts = ExploreOptions {
        max_states,
        seed,
        ..ExploreOptions::default()
    };
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut last = Instant::now();
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
            let _ = write!(e, "\r\x1b[2K{line}");
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
            eprintln!("error: {e}");
            return 2;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    for v in &report.violations {
        println!("Def.1 §11 violation: {}", v.describe());
    }
    for e in &report.errors {
        println!("runtime error during exploration (successor skipped): {e}");
    }
    println!(
        "{} states ({}), {} chronons in {:.2} s: {:.0} states/s",
        report.states,
        if report.complete {
            "every reachable state"
        } else {
            "bounded: breadth-first then random playouts"
        },
        report.chronons,
        secs,
        report.states as f64 / secs.max(1e-9)
    );
    if report.violations.is_empty() {
        println!("no Def.1 §11 violation found");
        0
    } else {
        1
    }
}
