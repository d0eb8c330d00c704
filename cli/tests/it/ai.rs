//! `sidl play` with AI seats, `sidl tournament` and `sidl bench --ai` through the real binary.

use crate::common;

use common::sidl_in;

/// The rows of a tournament table: (player, seat, wins, draws, losses, mean account).
fn rows(out: &str) -> Vec<(String, String, u64, u64, u64, f64)> {
    out.lines()
        .skip_while(|l| !l.starts_with("player"))
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 6, "{l}");
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().expect("wins"),
                f[3].parse().expect("draws"),
                f[4].parse().expect("losses"),
                f[5].parse().expect("mean"),
            )
        })
        .collect()
}

#[test]
fn a_tournament_prints_a_win_draw_loss_table() {
    let (out, err, code) = sidl_in(
        "..",
        &[
            "tournament",
            "games/tictactoe.sidl",
            "--seat",
            "xplayer=minimax:2",
            "--games",
            "4",
            "--seed",
            "3",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("4 games, seeds 3..6"), "{out}");
    let r = rows(&out);
    assert_eq!(r.len(), 2, "{out}");
    assert_eq!(
        (r[0].0.as_str(), r[0].1.as_str()),
        ("[xplayer]", "minimax:2")
    );
    assert_eq!((r[1].0.as_str(), r[1].1.as_str()), ("[oplayer]", "random"));
    for row in &r {
        assert_eq!(row.2 + row.3 + row.4, 4, "{out}");
    }
    // a win of one is a loss of the other; draws are shared
    assert_eq!(r[0].2, r[1].4);
    assert_eq!(r[0].3, r[1].3);
    // tic-tac-toe pays 100 + 0 or 50 + 50
    assert_eq!(r[0].5 + r[1].5, 100.0);
    // the same seeds give the same table
    let (again, _, _) = sidl_in(
        "..",
        &[
            "tournament",
            "games/tictactoe.sidl",
            "--seat",
            "xplayer=minimax:2",
            "--games",
            "4",
            "--seed",
            "3",
        ],
    );
    assert_eq!(again, out);
}

#[test]
fn tournament_seats_are_checked() {
    let (_, err, code) = sidl_in(
        "..",
        &["tournament", "games/nim.sidl", "--seat", "alice=human"],
    );
    assert_eq!(code, 1);
    assert!(err.contains("no human seats"), "{err}");
    let (_, err, code) = sidl_in(
        "..",
        &["tournament", "games/nim.sidl", "--seat", "alice=mcts:0"],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("ITERATIONS must be a positive integer"),
        "{err}"
    );
}

/// Seats that maximise their own account play the ultimatum game's subgame-perfect outcome
/// (4 and 1 of a pie of 5) in every game; the `relative` objective leaves both with nothing.
#[test]
fn tournament_seats_take_an_objective() {
    for (objective, proposer, responder) in [("", 4.0, 1.0), (":relative", 0.0, 0.0)] {
        let p = format!("proposer=minimax:2{objective}");
        let r = format!("responder=minimax:2{objective}");
        let (out, err, code) = sidl_in(
            "..",
            &[
                "tournament",
                "games/ultimatum.sidl",
                "--seat",
                &p,
                "--seat",
                &r,
                "--games",
                "3",
            ],
        );
        assert_eq!(code, 0, "{err}");
        let rows = rows(&out);
        assert_eq!(rows[0].1, format!("minimax:2{objective}"), "{out}");
        assert_eq!((rows[0].5, rows[1].5), (proposer, responder), "{out}");
    }
    let (_, err, code) = sidl_in(
        "..",
        &[
            "tournament",
            "games/nim.sidl",
            "--seat",
            "alice=mcts:5:spiteful",
        ],
    );
    assert_eq!(code, 1);
    assert!(err.contains("unknown objective 'spiteful'"), "{err}");
}

#[test]
fn ai_seats_announce_their_moves() {
    let (out, err, code) = sidl_in(
        "..",
        &[
            "play",
            "--raw",
            "games/nim.sidl",
            "--seat",
            "alice=minimax:3",
            "--seat",
            "bob=mcts:20",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("players: [alice] minimax:3, [bob] mcts:20"),
        "{out}"
    );
    assert!(
        out.contains("chronon 1: [alice] (minimax:3) plays ["),
        "{out}"
    );
    assert!(out.contains("[bob] (mcts:20) plays ["), "{out}");
    assert!(out.contains("game over"), "{out}");
}

#[test]
fn bench_times_an_ai() {
    let (out, err, code) = sidl_in(
        "..",
        &[
            "bench",
            "games/nim.sidl",
            "--ai",
            "mcts:10",
            "--decisions",
            "2",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("ai=mcts:10 decisions=2 "), "{out}");
    assert!(out.contains(" playouts=20 "), "{out}");
    assert!(out.contains("playouts_per_sec="), "{out}");
    let (_, err, code) = sidl_in("..", &["bench", "games/nim.sidl", "--ai", "alphabeta"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown AI 'alphabeta'"), "{err}");
}
