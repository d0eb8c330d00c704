//! Shared by the command-line tests: run the real `sidl` binary.

use std::path::Path;
use std::process::Command;

/// Runs `sidl ARGS` in `dir` (relative to the `cli` crate) without colours; returns stdout, stderr
/// and the exit code.
pub fn sidl_in(dir: &str, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        .env("NO_COLOR", "1")
        .output()
        .expect("sidl runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}
