//! Escape sequences only on a terminal: never on a pipe (what tests capture), never with `NO_COLOR`
//! set to a non-empty value or `TERM=dumb`, in every command and in error output. Drives the real
//! binary; the terminal case through a pseudo-terminal.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `sidl ARGS` from the repository root with stdout and stderr on pipes, `TERM` set to a
/// colour terminal and `env` added; stdout and stderr together.
fn piped(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidl"));
    cmd.args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("sidl runs");
    // a command that does not read its input may have ended already: a broken pipe is fine
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().expect("sidl ends");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every command, with warnings, errors and runtime errors in its output.
const COMMANDS: &[&[&str]] = &[
    &["check", "games/paper/mcp.sidl"],
    &[
        "check",
        "tests/analysis/kuhn_leaky.sidl",
        "--explore",
        "--max-states",
        "300",
    ],
    &[
        "explore",
        "cli/tests/games/faulty.sidl",
        "--max-states",
        "5",
    ],
    &["query", "cli/tests/data/family.pl", "boom(1)"],
    &["trace", "cli/tests/games/faulty.sidl", "--seed", "2"],
    &["run", "cli/tests/games/faulty.sidl", "--seed", "2"],
    &["play", "cli/tests/games/faulty.sidl"],
    &["tournament", "cli/tests/games/faulty.sidl", "--games", "3"],
    &["check", "no/such/file.sidl"],
    &["run", "engine/tests/analysis/syntax_errors.sidl"],
];

#[test]
fn no_escape_sequences_on_pipes() {
    for args in COMMANDS {
        let out = piped(args, "2\nquit\n", &[]);
        assert!(!out.is_empty(), "{args:?}");
        assert!(!out.contains('\x1b'), "{args:?}: {out:?}");
    }
}

#[test]
fn no_escape_sequences_with_no_color_or_a_dumb_terminal() {
    for env in [("NO_COLOR", "1"), ("TERM", "dumb")] {
        for args in COMMANDS {
            let out = piped(args, "2\nquit\n", &[env]);
            assert!(!out.contains('\x1b'), "{env:?} {args:?}: {out:?}");
        }
    }
}

#[cfg(unix)]
mod terminal {
    use expectrl::{Eof, Expect, Session};
    use std::process::Command;
    use std::time::Duration;

    /// What `sidl check` writes to a pseudo-terminal with `env` set.
    fn check_at_a_terminal(env: &[(&str, &str)]) -> String {
        let game = format!("{}/../games/paper/mcp.sidl", env!("CARGO_MANIFEST_DIR"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidl"));
        cmd.args(["check", &game])
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut p = Session::spawn(cmd).expect("sidl starts in a pseudo-terminal");
        p.set_expect_timeout(Some(Duration::from_secs(20)));
        let c = p.expect(Eof).expect("sidl ends");
        String::from_utf8_lossy(c.as_bytes()).into_owned()
    }

    #[test]
    fn colours_at_a_terminal_unless_no_color_or_dumb() {
        let out = check_at_a_terminal(&[]);
        assert!(out.contains("W0413") && out.contains("\x1b["), "{out:?}");
        // an empty NO_COLOR does not count (no-color.org)
        let out = check_at_a_terminal(&[("NO_COLOR", "")]);
        assert!(out.contains("\x1b["), "{out:?}");
        for env in [("NO_COLOR", "1"), ("TERM", "dumb")] {
            let out = check_at_a_terminal(&[env]);
            assert!(
                out.contains("W0413") && !out.contains('\x1b'),
                "{env:?}: {out:?}"
            );
        }
    }
}
