//! `sidl COMMAND | head`: a reader that closes the pipe early ends `sidl` quietly (as it ends `cat`
//! or `grep`), never with a panic and a backtrace on stderr.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `sidl ARGS`, reads `keep` bytes of its stdout, closes the pipe, and returns its stderr and
/// whether it ended by a signal or an exit code other than a panic's (101).
fn closed_after(args: &[&str], keep: usize) -> (String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sidl runs");
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; keep];
    out.read_exact(&mut buf)
        .expect("sidl prints something first");
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    (err, status.code())
}

#[test]
fn a_closed_pipe_ends_sidl_without_a_panic() {
    // each prints far more than a pipe buffer holds, so it writes after the reader is gone
    let runs: &[&[&str]] = &[
        &["run", "games/paper/rps.sidl", "--max-chronons", "1000000"],
        &[
            "query",
            "cli/tests/data/family.pl",
            "between(1, 10000000, X)",
        ],
    ];
    for args in runs {
        let (err, code) = closed_after(args, 16);
        assert!(!err.contains("panicked"), "sidl {args:?} panicked: {err}");
        assert_ne!(code, Some(101), "sidl {args:?} ended as a panic: {err}");
    }
}
