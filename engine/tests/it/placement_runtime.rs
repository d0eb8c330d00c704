//! Placement of body keywords (docs/semantics.md §2.2) for goals built in variables, statically and at run
//! time: data-driven fixtures in `tests/placement/`, one game each. Markers at the end of a line:
//! - `%! CODE ...`: the diagnostics of `analysis::check` that start on this line (the file must
//!   report exactly this set of (line, code));
//! - `%> CODE`: playing the game (`Session::new`, then up to four chronons with default actions, the
//!   legal switches and the hidden facts of each state asked first) ends in runtime error `CODE`,
//!   whose diagnostic's primary span starts on this line; the state is then left as it was. No `%>`:
//!   the game plays without error;
//! - `%@ MESSAGE`: a label of that runtime error's diagnostic on this line.
//!
//! A whole line `%? GOAL => ok|CODE` runs `Session::query_state(GOAL)` in the initial state (the
//! queries of a file in order, on one session): no error, or a runtime error with that code.

use sidl_engine::analysis;
use sidl_engine::diag::{ColumnUnit, LineIndex};
use sidl_engine::game::{Game, RuntimeError, Session, Settings};
use sidl_engine::solve::errors::codes;
use sidl_engine::term::Term;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// The marked texts of a line: (marker, text up to the next marker).
fn markers(line: &str) -> Vec<(char, String)> {
    let starts: Vec<(usize, char)> = line
        .match_indices('%')
        .filter_map(|(i, _)| {
            let m = line[i + 1..].chars().next()?;
            (matches!(m, '!' | '>' | '@') && line[i + 2..].starts_with(' ')).then_some((i, m))
        })
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &(i, m))| {
            let end = starts.get(k + 1).map_or(line.len(), |s| s.0);
            (m, line[i + 2..end].trim().to_string())
        })
        .collect()
}

fn line_of(src: &str, offset: u32) -> usize {
    src[..offset as usize].matches('\n').count() + 1
}

/// Plays the game as the module documentation says; on a runtime error, also whether the state
/// (chronon and facts) is the one before the failing step.
fn play(game: Arc<Game>) -> Result<(), (RuntimeError, bool)> {
    let mut s = Session::new(game, 0, Settings::default()).map_err(|e| (e, true))?;
    for _ in 0..4 {
        let before: (u64, Vec<Term>) = (s.chronon(), s.state().facts.terms().cloned().collect());
        let unchanged =
            |s: &Session| (s.chronon(), s.state().facts.terms().cloned().collect()) == before;
        let step = (|| {
            let terminal = s.is_terminal()?;
            s.hidden_matrix()?;
            if !terminal {
                s.run_chronon()?;
            }
            Ok(terminal)
        })();
        match step {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => return Err((e, unchanged(&s))),
        }
    }
    Ok(())
}

#[test]
fn goals_built_in_variables_are_placed_statically_and_at_run_time() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/placement");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    let mut failures = Vec::new();
    let mut raised = 0;
    for entry in &entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(entry.path()).unwrap();
        let (mut want_static, mut want_labels) = (BTreeSet::new(), Vec::new());
        let mut want_error = None;
        let mut queries = Vec::new();
        for (i, l) in src.lines().enumerate() {
            if let Some(q) = l.strip_prefix("%? ") {
                let (goal, want) = q.split_once(" => ").expect("%? GOAL => RESULT");
                queries.push((goal.to_string(), want.trim().to_string()));
                continue;
            }
            for (m, text) in markers(l) {
                match m {
                    '!' => {
                        want_static.extend(text.split_whitespace().map(|c| (i + 1, c.to_string())))
                    }
                    '>' => want_error = Some((text, i + 1)),
                    _ => want_labels.push((i + 1, text)),
                }
            }
        }
        // statically
        let idx = LineIndex::new(&src);
        let diags = analysis::check(&src);
        let got: BTreeSet<(usize, String)> = diags
            .iter()
            .map(|d| {
                let lc = idx.line_col(&src, d.span.start, ColumnUnit::Char);
                (lc.line as usize + 1, d.code.to_string())
            })
            .collect();
        if got != want_static {
            let all: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
            failures.push(format!(
                "{name}: static: expected {want_static:?}, got {got:?}: {all:?}"
            ));
        }
        // at run time
        let game = match Game::load(&src) {
            Ok((g, _)) => Arc::new(g),
            Err(d) => panic!("{name} does not load: {d:?}"),
        };
        match (play(game.clone()), &want_error) {
            (Ok(()), None) => {}
            (Ok(()), Some(w)) => failures.push(format!("{name}: no runtime error, expected {w:?}")),
            (Err((e, unchanged)), want) => {
                let d = e.to_diagnostic();
                let got = (d.code.to_string(), line_of(&src, d.span.start));
                let labels: Vec<(usize, String)> = d
                    .labels
                    .iter()
                    .map(|l| (line_of(&src, l.span.start), l.message.clone()))
                    .collect();
                if want.as_ref() != Some(&got) || labels != want_labels || !d.located {
                    failures.push(format!(
                        "{name}: expected {want:?} with labels {want_labels:?}, got {got:?} with {labels:?}: {d}"
                    ));
                }
                if !unchanged {
                    failures.push(format!("{name}: the failing step changed the state"));
                }
                if d.code == codes::PLACEMENT {
                    raised += 1;
                    assert!(d.help.is_some(), "{name}: {d:?}");
                    assert!(
                        d.message.contains("cannot be used in the condition of"),
                        "{name}: {}",
                        d.message
                    );
                }
            }
        }
        // queries of the initial state
        let mut s = Session::new(game, 0, Settings::default());
        for (goal, want) in queries {
            let s = match &mut s {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name}: {goal}: no session: {e}"));
                    break;
                }
            };
            let g = sidl_engine::syntax::parse_term(&goal)
                .expect("the goal parses")
                .term;
            let got = match s.query_state(&g, &Term::atom("true"), 100, "query") {
                Ok(_) => "ok".to_string(),
                Err(e) => e.code.to_string(),
            };
            if got != want {
                failures.push(format!("{name}: {goal}: expected {want}, got {got}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(raised >= 10, "{raised} fixtures raised E0946");
}
