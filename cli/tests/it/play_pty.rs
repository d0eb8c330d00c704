//! `sidl play` at a real (pseudo-)terminal: bold headers, no input echo by the program, and between
//! two human seats a cleared screen and an Enter from the next player.
#![cfg(unix)]

use expectrl::{Eof, Expect, Session};
use std::process::Command;
use std::time::Duration;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn two_humans_share_a_terminal() {
    let nim = format!("{}/../games/nim.sidl", env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidl"));
    cmd.args(["play", "--raw", &nim])
        .env("SIDL_QUIET", "1")
        .env_remove("NO_COLOR");
    let mut p = Session::spawn(cmd).expect("sidl starts in a pseudo-terminal");
    p.set_expect_timeout(Some(Duration::from_secs(20)));

    // the screen is cleared and alice is asked to take the terminal
    let c = p
        .expect("[alice] presses Enter to go on> ")
        .expect("hand-over to alice");
    let before = text(c.before());
    assert!(before.contains("\x1b[2J\x1b[H"), "{before:?}");
    assert!(
        before.contains("hand the terminal to [alice]"),
        "{before:?}"
    );
    p.send_line("").expect("enter");

    let c = p
        .expect("[alice] [main] 1-3/wait> ")
        .expect("alice's prompt");
    let view = text(c.before());
    assert!(
        view.contains("\x1b[1m── chronon 1 · [alice] ──\x1b[0m"),
        "{view:?}"
    );
    assert!(view.contains("  [alice,10]"), "{view:?}");
    p.send_line("3").expect("alice plays");

    // bob's turn: alice's view is cleared away before bob presses Enter
    let c = p
        .expect("[bob] presses Enter to go on> ")
        .expect("hand-over to bob");
    let before = text(c.before());
    assert!(before.contains("ok: [3] for [main]"), "{before:?}");
    assert!(before.contains("\x1b[2J\x1b[H"), "{before:?}");
    p.send_line("").expect("enter");
    let c = p.expect("[bob] [main] 1-3/wait> ").expect("bob's prompt");
    let view = text(c.before());
    assert!(view.contains("  [bob,7]"), "{view:?}");
    assert!(!view.contains("· [alice]"), "{view:?}");

    p.send_line("quit").expect("bob quits");
    let c = p.expect(Eof).expect("sidl ends");
    let end = text(c.as_bytes());
    assert!(end.contains("quit after 1 chronon"), "{end:?}");
    let status = p.get_process().wait().expect("exit status");
    assert_eq!(
        format!("{status:?}"),
        format!("Exited(Pid({}), 0)", p.get_process().pid())
    );
}
