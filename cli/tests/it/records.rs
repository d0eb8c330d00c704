//! Records (docs/records.md): what `sidl trace --record` and `sidl tournament --record` write replays
//! (`sidl trace --replay`) to the very trace the run printed, for every shipped game and every
//! hand-written trajectory, in both modes; a record that does not fit is a clear error naming it.

use crate::common::sidl_in;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repo root")
        .to_path_buf()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sidl-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn games() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["games", "games/paper", "games/econ"] {
        for e in std::fs::read_dir(repo().join(dir)).expect("games") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "sidl") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `sidl trace ARGS --record FILE`, then `sidl trace GAME --replay FILE`: the same stdout.
fn round_trip(game: &Path, args: &[&str], tag: &str) -> Result<(), String> {
    let file = tmp(&format!("{tag}.jsonl"));
    let g = game.to_str().expect("utf-8 path");
    let f = file.to_str().expect("utf-8 path");
    let mut a = vec!["trace", g];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--record", f]);
    let (played, _, _) = sidl_in(".", &a);
    let (replayed, err, code) = sidl_in(".", &["trace", g, "--replay", f]);
    if code != 0 || played != replayed {
        return Err(format!(
            "{tag}: replay differs (exit {code}, {err}):\n  played {} lines, replayed {} lines",
            played.lines().count(),
            replayed.lines().count()
        ));
    }
    Ok(())
}

#[test]
fn every_game_replays_from_its_record_in_both_modes() {
    let mut failures = Vec::new();
    let mut n = 0;
    for game in games() {
        let stem = game.file_stem().unwrap().to_string_lossy().into_owned();
        let parent = game
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (mode, extra) in [("chronons", &[][..]), ("interrupt", &["--interrupt"][..])] {
            let mut args = vec!["--seed", "3", "--max-chronons", "60"];
            args.extend_from_slice(extra);
            let tag = format!("{parent}-{stem}-{mode}");
            n += 1;
            if let Err(e) = round_trip(&game, &args, &tag) {
                failures.push(e);
            }
        }
    }
    assert!(n >= 30, "expected the shipped games, found {n} runs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_trajectory_script_replays_from_its_record() {
    let mut failures = Vec::new();
    let mut n = 0;
    let mut dirs = vec![repo().join("tests/trajectories")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).expect("trajectories") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "script") {
                continue;
            }
            let text = std::fs::read_to_string(&p).expect("script");
            let Some(game) = text.lines().find_map(|l| l.strip_prefix("% game: ")) else {
                continue;
            };
            if text.lines().any(|l| l.starts_with("% options:")) {
                continue; // seeds and budgets of their own: covered by the games above
            }
            let tag = p.file_stem().unwrap().to_string_lossy().into_owned();
            n += 1;
            let script = p.to_str().unwrap().to_string();
            if let Err(e) = round_trip(&repo().join(game.trim()), &["--script", &script], &tag) {
                failures.push(e);
            }
        }
    }
    assert!(n >= 20, "expected the trajectory scripts, found {n}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tournament_records_replay_to_their_final_accounts() {
    let file = tmp("tournament.jsonl");
    let f = file.to_str().unwrap();
    let (out, err, code) = sidl_in(
        ".",
        &[
            "tournament",
            "../games/kuhn.sidl",
            "--games",
            "4",
            "--seed",
            "7",
            "--seat",
            "p1=mcts:30",
            "--record",
            f,
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&file).expect("records");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "one record per game:\n{text}");
    for (i, line) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        assert_eq!(v["format"], "sidl-record/1");
        assert_eq!(v["seed"], 7 + i as u64);
        assert_eq!(v["seats"][0]["kind"], "mcts:30");
        assert_eq!(v["seats"][1]["kind"], "random");
        let idx = (i + 1).to_string();
        let (trace, err, code) = sidl_in(
            ".",
            &[
                "trace",
                "../games/kuhn.sidl",
                "--replay",
                f,
                "--index",
                &idx,
            ],
        );
        assert_eq!(code, 0, "record {idx}: {err}");
        let last: serde_json::Value =
            serde_json::from_str(trace.lines().last().expect("a line")).expect("JSON");
        for acc in v["end"]["accounts"].as_array().unwrap() {
            let p = acc[0].as_str().unwrap();
            assert_eq!(
                last["accounts"][p].as_f64(),
                acc[1].as_f64(),
                "record {idx}: account of {p}"
            );
        }
    }
}

/// Each case changes a good record and names the error `sidl trace --replay` must give (exit 1 for
/// an unreadable file, 2 for a record that does not fit the game).
#[test]
fn a_record_that_does_not_fit_is_a_clear_error() {
    let file = tmp("good.jsonl");
    let f = file.to_str().unwrap();
    let (_, err, code) = sidl_in(
        ".",
        &["trace", "../games/kuhn.sidl", "--seed", "2", "--record", f],
    );
    assert_eq!(code, 0, "{err}");
    let good = std::fs::read_to_string(&file).unwrap();
    let good = good.trim_end();
    let cases: &[(&str, String, i32, &str)] = &[
        (
            "truncated",
            good[..good.len() / 2].to_string(),
            1,
            "record on line 1: not a record",
        ),
        (
            "format",
            good.replace("sidl-record/1", "sidl-record/9"),
            1,
            "format `sidl-record/9` is not `sidl-record/1`",
        ),
        (
            "other source",
            good.replace("\"source_sha256\":\"", "\"source_sha256\":\"00"),
            2,
            "another version of the game `kuhn`",
        ),
        (
            "a draw changed",
            good.replacen("\"action\":\"[deal,", "\"action\":\"[deal,x,", 1),
            2,
            "E0944: replay diverged in chronon 1: nature drew",
        ),
        (
            "an action changed",
            good.replacen(
                "\"switch\":\"[p1]\",\"action\":\"[p1,",
                "\"switch\":\"[p1]\",\"action\":\"[p1,z",
                1,
            ),
            2,
            "a submission was refused",
        ),
        (
            "accounts changed",
            {
                let mut v: serde_json::Value = serde_json::from_str(good).unwrap();
                v["end"]["accounts"][0][1] = serde_json::json!(99);
                v.to_string()
            },
            2,
            "E0944: replay diverged: final accounts",
        ),
    ];
    for (what, text, want_code, want) in cases {
        let bad = tmp(&format!("bad-{}.jsonl", what.replace(' ', "-")));
        std::fs::write(&bad, format!("{text}\n")).unwrap();
        let (_, err, code) = sidl_in(
            ".",
            &[
                "trace",
                "../games/kuhn.sidl",
                "--replay",
                bad.to_str().unwrap(),
            ],
        );
        assert_eq!(code, *want_code, "{what}: {err}");
        assert!(err.contains(want), "{what}: want `{want}` in:\n{err}");
    }
}
