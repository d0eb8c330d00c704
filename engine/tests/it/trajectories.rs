//! Data-driven trajectory tests: every `tests/trajectories/**/GAME.script` (header lines
//! `% game: PATH` and optionally `% options: --max-chronons N --seed S`) is played by the engine and
//! must print exactly the lines of the `.trace.jsonl` beside it. The expected traces were produced
//! by the independent reference manager (`tests/reference/gm.pl`) and reviewed by hand; the two
//! trajectories in `../shared/examples` come from a third implementation.
//!
//! Checks docs/semantics.md §3.1, §3.2, §3.3, §4.1, §4.3, §5.1, §5.2, §5.3, §5.4, §5.6, §10 and §11: the traces of scripted runs, the same as the independent reference manager prints.

use sidl_engine::game::trace::{parse_script, run_trace};
use sidl_engine::game::{Game, Settings};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repo root")
        .to_path_buf()
}

fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scripts(&p, out);
        } else if p.extension().is_some_and(|e| e == "script") {
            out.push(p);
        }
    }
}

/// Runs one script against a game and compares with the expected trace; returns a mismatch report.
fn check(
    game_path: &Path,
    script_path: &Path,
    expected_path: &Path,
    seed: u64,
    max_chronons: u64,
) -> Option<String> {
    let src = std::fs::read_to_string(game_path)
        .unwrap_or_else(|e| panic!("{}: {e}", game_path.display()));
    let game = match Game::load(&src) {
        Ok((g, _)) => Arc::new(g),
        Err(d) => return Some(format!("{} does not load: {:?}", game_path.display(), d)),
    };
    let script = std::fs::read_to_string(script_path).expect("script");
    let items = match parse_script(&script) {
        Ok(items) => items.into_iter().map(|(i, _)| i).collect::<Vec<_>>(),
        Err(d) => return Some(format!("{}: bad script {:?}", script_path.display(), d)),
    };
    let out = run_trace(game, seed, Some(&items), max_chronons, Settings::default());
    let expected = std::fs::read_to_string(expected_path).expect("expected trace");
    let expected: Vec<&str> = expected.lines().collect();
    for (i, (got, want)) in out.lines.iter().zip(expected.iter()).enumerate() {
        if got != want {
            return Some(format!(
                "{}: line {} differs\n  got:  {got}\n  want: {want}",
                script_path.display(),
                i + 1
            ));
        }
    }
    if out.lines.len() != expected.len() {
        return Some(format!(
            "{}: {} lines, expected {}",
            script_path.display(),
            out.lines.len(),
            expected.len()
        ));
    }
    None
}

#[test]
fn every_scripted_trajectory_matches_its_trace() {
    let root = repo();
    let mut all = Vec::new();
    scripts(&root.join("tests/trajectories"), &mut all);
    assert!(
        all.len() >= 17,
        "expected the scripted trajectories, found {}",
        all.len()
    );
    let mut failures = Vec::new();
    for script in &all {
        let text = std::fs::read_to_string(script).expect("script");
        let game = text
            .lines()
            .find_map(|l| l.strip_prefix("% game:"))
            .unwrap_or_else(|| panic!("{} has no '% game:' header", script.display()))
            .trim();
        let mut seed = 0;
        let mut max = 1000;
        if let Some(opts) = text.lines().find_map(|l| l.strip_prefix("% options:")) {
            let words: Vec<&str> = opts.split_whitespace().collect();
            for w in words.windows(2) {
                match w[0] {
                    "--max-chronons" => max = w[1].parse().expect("number"),
                    "--seed" => seed = w[1].parse().expect("number"),
                    _ => {}
                }
            }
        }
        let expected = script.with_extension("trace.jsonl");
        if let Some(f) = check(&root.join(game), script, &expected, seed, max) {
            failures.push(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} trajectories differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn shared_reference_examples_are_reproduced_byte_for_byte() {
    // a copy of ../shared/examples (the contract), kept in the repo so a clone anywhere tests it
    let shared = repo().join("tests/shared-examples");
    for game in ["nim", "mcp"] {
        let r = check(
            &shared.join(format!("{game}.sidl")),
            &shared.join(format!("{game}.script")),
            &shared.join(format!("{game}.trace.jsonl")),
            0,
            1000,
        );
        assert!(r.is_none(), "{}", r.unwrap_or_default());
    }
}
