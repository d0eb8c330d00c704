//! `sidl export GAME --efg|--nfg` and `sidl solve GAME`: the extensive form of a game
//! (`sidl_engine::analysis::extensive`, docs/analysis.md) written in Gambit's formats, and its
//! equilibria.

use crate::commands::load_game;
use crate::render;
use sidl_engine::analysis::extensive::{self, efg, nfg, BuildLimits, Tree};
use std::path::Path;
use std::sync::Arc;

/// On a terminal, a line on stderr rewritten as the tree grows (cleared when the build ends).
fn build_progress() -> impl FnMut(usize) -> bool {
    use std::io::{IsTerminal, Write};
    let tty = std::io::stderr().is_terminal();
    let mut last = std::time::Instant::now();
    move |nodes| {
        if tty && last.elapsed().as_millis() >= 100 {
            last = std::time::Instant::now();
            eprint!("\rbuilding the extensive form: {nodes} nodes");
            let _ = std::io::stderr().flush();
        }
        true
    }
}

/// Clears the progress line of [`build_progress`] (spaces, no escapes).
fn clear_progress() {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprint!("\r{:60}\r", "");
    }
}

/// Loads the game and builds its tree; on an error prints it and returns the exit code.
fn tree(path: &Path, limits: BuildLimits) -> Result<Tree, u8> {
    let name = path.display().to_string();
    let (game, src) = load_game(path)?;
    let t = extensive::build_with_progress(Arc::clone(&game), limits, &mut build_progress());
    clear_progress();
    t.map_err(|e| {
        render::runtime_error(&name, &src, &e, "");
        2
    })
}

/// `sidl export`: the `.efg` (or with `nfg` the `.nfg`) to `out` or stdout. Exit 0, 1 (load error or
/// an unwritable file), 2 (the tree cannot be built, or `--nfg` of a game that is not one-shot).
pub fn export(path: &Path, nfg_form: bool, out: Option<&Path>, max_nodes: usize) -> u8 {
    let limits = BuildLimits {
        max_nodes,
        ..BuildLimits::default()
    };
    let t = match tree(path, limits) {
        Ok(t) => t,
        Err(c) => return c,
    };
    let text = if nfg_form {
        match nfg::strategic(&t) {
            Ok(g) => efg::to_nfg(&g),
            Err(e) => {
                let src = std::fs::read_to_string(path).unwrap_or_default();
                render::runtime_error(&path.display().to_string(), &src, &e, "");
                return 2;
            }
        }
    } else {
        efg::to_efg(&t)
    };
    if let Some(note) = t.discretised_text_note() {
        eprintln!("note: {note}");
    }
    match out {
        None => {
            print!("{text}");
            0
        }
        Some(o) => match std::fs::write(o, text) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", o.display());
                1
            }
        },
    }
}

/// `--exploit PLAYER=KIND`: the player's index and the AI spec.
fn exploit_seat(
    game: &Arc<sidl_engine::game::Game>,
    spec: &str,
) -> Result<(usize, sidl_engine::ai::AiSpec), String> {
    use crate::play::seat::{self, SeatKind};
    let players = sidl_engine::game::Session::new(
        Arc::clone(game),
        0,
        sidl_engine::game::Settings::default(),
    )
    .map_err(|e| e.message)?
    .players();
    let kinds = seat::assign(&players, &[spec.to_string()])?;
    for (i, k) in kinds.iter().enumerate() {
        match k {
            SeatKind::Ai(s) => return Ok((i, *s)),
            SeatKind::Random => return Ok((i, sidl_engine::ai::AiSpec::Random)),
            SeatKind::Human => {}
        }
    }
    Err(format!("'{spec}': name an AI seat, e.g. '[p1]=minimax:4'"))
}

/// `sidl solve`: solves the game and prints a table (human) or one JSON object on the last line of
/// stdout (json). Progress on stderr on a terminal. Exit 0, 1 (load error), 2 (the tree cannot be
/// built, or the method does not apply).
pub fn solve(
    path: &Path,
    method: &str,
    iterations: u64,
    max_nodes: usize,
    format: crate::commands::CheckFormat,
    exploit: Option<&str>,
) -> u8 {
    use sidl_engine::analysis::extensive::solve::{self, Method, SolveOptions};
    use std::io::{IsTerminal, Write};
    let Some(method) = Method::parse(method) else {
        eprintln!("error: unknown method '{method}': the methods are auto, cfr, lp and support");
        return 1;
    };
    let name = path.display().to_string();
    let limits = BuildLimits {
        max_nodes,
        ..BuildLimits::default()
    };
    let start = std::time::Instant::now();
    let (game, src) = match load_game(path) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let t = extensive::build_with_progress(Arc::clone(&game), limits, &mut build_progress());
    clear_progress();
    let t = match t {
        Ok(t) => t,
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            return 2;
        }
    };
    // the AI seat to exploit: (player index, spec)
    let exploit_seat = match exploit {
        None => None,
        Some(spec) => match exploit_seat(&game, spec) {
            Ok(x) => Some(x),
            Err(m) => {
                eprintln!("error: --exploit {m}");
                return 1;
            }
        },
    };
    let built = start.elapsed();
    let tty = std::io::stderr().is_terminal();
    let mut last = std::time::Instant::now();
    let mut progress = |done: u64, total: u64| {
        if tty && (done == total || last.elapsed().as_millis() >= 100) {
            last = std::time::Instant::now();
            let width = 30;
            let filled = (done * width / total.max(1)) as usize;
            eprint!(
                "\rCFR+ [{}{}] {done}/{total} iterations",
                "#".repeat(filled),
                "-".repeat(width as usize - filled)
            );
            if done == total {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
        true
    };
    let opts = SolveOptions { method, iterations };
    let sol = match solve::solve(&t, opts, &mut progress) {
        Ok(s) => s,
        Err(e) => {
            let src = std::fs::read_to_string(path).unwrap_or_default();
            render::runtime_error(&name, &src, &e, "");
            return 2;
        }
    };
    let solved = start.elapsed() - built;
    let exploited = match exploit_seat {
        None => None,
        Some((player, spec)) => {
            let flat = extensive::cfr::Flat::new(&t);
            let reference: extensive::cfr::Profile = sol
                .strategies
                .iter()
                .map(|s| s.actions.iter().map(|a| a.probability).collect())
                .collect();
            match extensive::exploit::exploit(&game, &t, &flat, &reference, player, spec, 0) {
                Ok(x) => Some(x),
                Err(e) => {
                    render::runtime_error(&name, &src, &e, "");
                    return 2;
                }
            }
        }
    };
    match format {
        crate::commands::CheckFormat::Json => {
            // the engine has no clock: the timings are the adapter's, put first
            let json = serde_json::to_string(&sol).unwrap_or_default();
            let exploit = match &exploited {
                Some(x) => format!(
                    "\"exploit\":{},",
                    serde_json::to_string(x).unwrap_or_default()
                ),
                None => String::new(),
            };
            let discretised = serde_json::to_string(&t.discretised).unwrap_or_default();
            println!(
                "{{\"build_seconds\":{},\"solve_seconds\":{},\"discretised\":{discretised},{exploit}{}",
                built.as_secs_f64(),
                solved.as_secs_f64(),
                json.strip_prefix('{').unwrap_or(&json)
            );
        }
        crate::commands::CheckFormat::Human => {
            let stats = t.stats();
            println!(
                "{}: {} nodes ({} decision, {} chance, {} terminal), {} information sets, {} players{}",
                t.title,
                stats.nodes,
                stats.decision_nodes,
                stats.chance_nodes,
                stats.terminal_nodes,
                stats.infosets,
                t.players.len(),
                if sol.zero_sum { ", zero-sum" } else { "" }
            );
            let how = match sol.iterations {
                Some(n) => format!("{} ({n} iterations)", sol.method),
                None => format!("{} (exact)", sol.method),
            };
            println!(
                "method: {how}; tree built in {:.3} s, solved in {:.3} s",
                built.as_secs_f64(),
                solved.as_secs_f64()
            );
            if let Some(note) = t.discretised_text_note() {
                println!("note: {note}");
            }
            println!("values (expected account change):");
            for (i, (p, v)) in sol.values.iter().enumerate() {
                match &sol.exact_values {
                    Some(e) => println!("  {p:<12} {:>12}  ({v:.6})", e[i].1),
                    None => println!("  {p:<12} {v:>12.6}"),
                }
            }
            // a NashConv under a millionth is shown, not rounded to 0.000000
            let nc = sol.nash_conv;
            let nc = if nc > 0.0 && nc < 5e-7 {
                format!("{nc:.1e}")
            } else {
                format!("{nc:.6}")
            };
            println!("NashConv: {nc} ({})", sol.verdict);
            if let Some(x) = &exploited {
                println!(
                    "exploit {}={}: the AI gets {:.6} against the profile above",
                    x.player, x.spec, x.ai_value
                );
                for (p, reference, br) in &x.responses {
                    println!(
                        "  {p} best-responding gets {br:.6} (profile: {reference:.6}, gain {:.6})",
                        br - reference
                    );
                }
            }
            println!("strategies (information set: what the player has seen):");
            // with the game's labels (docs/reference.md "Labels") the sets and actions read as
            // the player reads them; the JSON keeps the terms and adds the texts
            for s in &sol.strategies {
                let who = s.player_text.as_deref().unwrap_or(&s.player);
                println!("  {} at {}", who, s.text.as_deref().unwrap_or(&s.label));
                for a in &s.actions {
                    let what = a.text.as_deref().unwrap_or(&a.action);
                    match &a.exact {
                        Some(x) => println!("      {:<24} {:>8.4}  ({x})", what, a.probability),
                        None => println!("      {:<24} {:>8.4}", what, a.probability),
                    }
                }
            }
        }
    }
    0
}
