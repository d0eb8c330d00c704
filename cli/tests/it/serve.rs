//! `sidl serve` is wired to the server: it starts, creates a session from `--create`, prints its
//! links and the admin URL, and keeps its database in `--data`. (The server's behaviour is tested
//! in `server/tests/it/`.)

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn serve_creates_a_session_and_prints_its_links() {
    let dir = tempfile::tempdir().unwrap();
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/kuhn.sidl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .args(["serve", "--port", "0", "--data"])
        .arg(dir.path())
        .arg("--create")
        .arg(&game)
        .args(["--seat", "p2=random", "--seed", "3"])
        .env("SIDL_ADMIN_TOKEN", "cli-test-token")
        .stdout(Stdio::piped())
        .spawn()
        .expect("sidl serve starts");
    let mut lines = Vec::new();
    {
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        while out.read_line(&mut line).unwrap() > 0 {
            let done = line.starts_with("admin: ");
            lines.push(std::mem::take(&mut line));
            if done {
                break;
            }
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = lines.concat();
    assert!(text.contains("sidl serve: created session "), "{text}");
    assert!(
        lines.iter().any(|l| l
            .trim_start()
            .starts_with("[p1] (human): http://127.0.0.1:")),
        "{text}"
    );
    assert!(lines.iter().any(|l| l.trim() == "[p2] (random)"), "{text}");
    assert!(
        lines
            .last()
            .unwrap()
            .trim()
            .ends_with("/admin#token=cli-test-token"),
        "{text}"
    );
    assert!(dir.path().join("sidl.db").exists());
}

/// A session served, played by scripted bots over the real API (`sidl serve bots`), exported as a
/// record (`sidl serve export --format record.jsonl`): `sidl trace GAME --replay` of it prints
/// byte for byte the trace of the same play run locally (`sidl trace --seed --script`).
#[test]
fn a_served_session_replays_from_its_exported_record() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let game = root.join("games/kuhn.sidl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .args(["serve", "--port", "0", "--data"])
        .arg(dir.path())
        .arg("--create")
        .arg(&game)
        .args(["--seed", "11", "--timeout", "wait"])
        .env("SIDL_ADMIN_TOKEN", "cli-test-token")
        .stdout(Stdio::piped())
        .spawn()
        .expect("sidl serve starts");
    let (mut id, mut url) = (String::new(), String::new());
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 {
        if let Some(rest) = line.strip_prefix("sidl serve: created session ") {
            id = rest.split(' ').next().unwrap().to_string();
        }
        if let Some(u) = line.trim().strip_prefix("sidl serve: listening on ") {
            url = u.to_string();
            break;
        }
        line.clear();
    }
    std::thread::spawn(move || {
        let mut sink = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut sink);
    });
    let script = root.join("server/tests/it/export/kuhn.script.jsonl");
    let bots = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .args(["serve", "bots", &url, &id, "--token", "cli-test-token"])
        .arg("--participants")
        .arg(format!("script:{}", script.display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&bots.stdout).to_string();
    assert!(
        bots.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&bots.stderr)
    );
    let record = dir.path().join("record.jsonl");
    let export = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .args(["serve", "export", &id, "--format", "record.jsonl", "--data"])
        .arg(dir.path())
        .output()
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    std::fs::write(&record, &export.stdout).unwrap();
    // the same play locally: the deal drawn from the seed, then p1 bets and p2 calls
    let local = dir.path().join("kuhn.script");
    std::fs::write(
        &local,
        "chronon.\nsubmit([p1], [p1], [p1, bet]).\nchronon.\nsubmit([p2], [p2], [p2, call]).\nchronon.\n",
    )
    .unwrap();
    let g = game.to_str().unwrap();
    let (played, e1, c1) = crate::common::sidl_in(
        ".",
        &[
            "trace",
            g,
            "--seed",
            "11",
            "--script",
            local.to_str().unwrap(),
        ],
    );
    assert_eq!(c1, 0, "{e1}");
    let (replayed, e2, c2) =
        crate::common::sidl_in(".", &["trace", g, "--replay", record.to_str().unwrap()]);
    assert_eq!(c2, 0, "{e2}");
    assert_eq!(played.lines().count(), 4, "{played}");
    assert_eq!(replayed, played);
}
