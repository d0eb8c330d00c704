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
