//! `sidl play` draws a game's layout (docs/reference.md "Layouts") as text, from the seat's own
//! view only (docs/semantics.md §6.1), driven through the real binary with piped standard input.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(game: &str, args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .arg("play")
        .arg(format!("{}/../{game}", env!("CARGO_MANIFEST_DIR")))
        .args(args)
        .env("SIDL_QUIET", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sidl starts");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("sidl runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn tictactoe_is_drawn_as_a_grid_after_each_move() {
    let out = play("games/tictactoe.sidl", &[], "5\n1\n");
    let o_turn = out.split("── chronon 2").nth(1).expect("o's turn");
    assert!(
        o_turn.contains("    1 2 3\n  1 · · ·\n  2 · X ·\n  3 · · ·\n"),
        "{out}"
    );
    // the first view, before any move: an empty grid
    assert!(out.contains("  1 · · ·\n  2 · · ·\n  3 · · ·\n"), "{out}");
}

#[test]
fn a_seat_sees_its_own_hidden_piece_and_hand_never_the_others() {
    // engine/tests/layout/fog.sidl: each scout and card is hidden from the other player
    let out = play(
        "engine/tests/layout/fog.sidl",
        &["--seat", "[bob]=random"],
        "1\n",
    );
    assert!(out.contains("    1 2 3\n  2 · · ·\n  1 A · ·\n"), "{out}");
    assert!(out.contains("  hand of Ann: ace of ann\n"), "{out}");
    assert!(!out.contains('B') && !out.contains("two"), "{out}");
}
