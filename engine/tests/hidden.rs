//! Def.1 §11 (hidden information must not leak through switches): the static check (`W0501`) and the
//! dynamic exploration, on the paper's games, the corrected games and a deliberately leaky Kuhn poker.

use sidl_engine::analysis::hidden_static::{check_static, HIDDEN_READ};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

const GAMES: &[&str] = &[
    "games/chess.sidl",
    "games/kuhn.sidl",
    "games/mcp.sidl",
    "games/nim.sidl",
    "games/priceNegotiation.sidl",
    "games/rps.sidl",
    "games/tictactoe.sidl",
    "games/tutorial.sidl",
    "games/paper/chess.sidl",
    "games/paper/mcp.sidl",
    "games/paper/nim.sidl",
    "games/paper/priceNegotiation.sidl",
    "games/paper/rps.sidl",
];

#[test]
fn static_no_report_on_shipped_games() {
    for g in GAMES {
        let d = check_static(&read(g));
        assert!(d.is_empty(), "{g}: {d:#?}");
    }
}

#[test]
fn static_reports_kuhn_leak() {
    let src = read("tests/analysis/kuhn_leaky.sidl");
    let d = check_static(&src);
    assert_eq!(d.len(), 1, "{d:#?}");
    let d = &d[0];
    assert_eq!(d.code, HIDDEN_READ);
    assert_eq!(&src[d.span.range()], "fact([card, p1, C])");
    assert!(d.message.contains("switch [p2]"), "{}", d.message);
    assert!(d.message.contains("[card,p1,_]"), "{}", d.message);
    assert!(d.message.contains("hides from [p2]"), "{}", d.message);
    for l in &d.labels {
        eprintln!("label {:?}: {}", &src[l.span.range()], l.message);
    }
    eprintln!("{}\n{:?}", d.message, d.help);
}

/// Prints how long the static check takes on the largest game (no timed assertion).
#[test]
fn static_timing_chess() {
    let src = read("games/chess.sidl");
    let _ = check_static(&src);
    let n = 20;
    let t = std::time::Instant::now();
    for _ in 0..n {
        assert!(check_static(&src).is_empty());
    }
    eprintln!(
        "static §11 check of games/chess.sidl: {:.3} ms per run (parse + load + init + analysis)",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
}

/// A reading through a helper, inside a negation, and one an owner may see: only the leak is reported.
#[test]
fn static_helpers_and_scopes() {
    let src = "game(t).
init([start]).
init([P], 0) :- member(P, [a, b]).
init([secret, a, 1]).
hidden([secret, P, _], [O]) :- player([O]), not(O = P).
legal([P]) :- player([P]), fact([start]).
owned([P], [P]) :- player([P]).
switch([P], [P, go]) :- mine(P).
switch([P], [P, peek]) :- not(theirs(P)).
mine(P) :- fact([secret, P, _]).
theirs(P) :- fact([secret, Q, _]), not(Q = P).
do(_).
";
    let d = check_static(src);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(&src[d[0].span.range()], "fact([secret, Q, _])");
    assert!(d[0]
        .help
        .as_deref()
        .unwrap_or("")
        .contains("switch/2 → theirs/1 → fact/1"));
}

/// The analysis alone on a loaded chess (what the editor pays per check when the game is loaded).
#[test]
fn static_timing_chess_analysis_only() {
    use sidl_engine::analysis::hidden_static::check_game;
    let src = read("games/chess.sidl");
    let (game, _) = sidl_engine::game::Game::load(&src).expect("chess loads");
    let parsed = sidl_engine::syntax::parse_file(&src);
    let n = 20;
    let t = std::time::Instant::now();
    for _ in 0..n {
        assert!(check_game(&game, &parsed.clauses).is_empty());
    }
    eprintln!(
        "static §11 analysis of loaded games/chess.sidl: {:.3} ms per run",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
}

/// Chess with something hidden, so that every keyword rule is analysed (move generation is unfolded
/// until the step budget, then summarised): the cost of the analysis proper on the largest game.
#[test]
fn static_timing_chess_with_hidden() {
    use sidl_engine::analysis::hidden_static::check_game;
    let src = read("games/chess.sidl") + "\nhidden([halfmoves, _], [black]).\n";
    let (game, _) = sidl_engine::game::Game::load(&src).expect("chess loads");
    let parsed = sidl_engine::syntax::parse_file(&src);
    // legal([C]) reads [halfmoves, N]: black's legality depends on a fact hidden from black
    let d = check_game(&game, &parsed.clauses);
    assert!(
        d.iter()
            .any(|d| d.message.contains("legality of switch [black]")),
        "{d:#?}"
    );
    let n = 20;
    let t = std::time::Instant::now();
    for _ in 0..n {
        let _ = check_game(&game, &parsed.clauses);
    }
    eprintln!(
        "static §11 analysis of loaded chess + a hidden/2 rule: {:.3} ms per run ({} reports)",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64,
        d.len()
    );
}
