//! The inference budget of `Settings::limits` covers a chronon as a whole, and `Session::recycle`
//! (what `sidl bench` uses between games) plays exactly as a fresh `Session::new`.
//!
//! Checks docs/semantics.md §5.7.

use sidl_engine::game::trace::random_submissions;
use sidl_engine::game::{Game, Session, Settings};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate lives in the repository root")
        .to_path_buf()
}

fn load(rel: &str) -> Arc<Game> {
    let src = std::fs::read_to_string(repo().join(rel)).expect("game file");
    let (game, _) = Game::load(&src).expect("the game loads");
    Arc::new(game)
}

fn with_inferences(n: u64) -> Settings {
    let mut s = Settings::default();
    s.limits.max_inferences = n;
    s
}

#[test]
fn the_inference_budget_covers_the_whole_chronon() {
    let game = load("tests/games/chronon_budget.sidl");
    // each do/1 alone fits in 3 000 steps (legal/1 and the switches are computed within it)
    let mut s = Session::new(game.clone(), 1, with_inferences(3_000)).expect("init");
    assert_eq!(s.switches().expect("legal switches").len(), 2);
    let e = s
        .run_chronon()
        .expect_err("both do/1 together exceed the budget");
    assert!(
        e.message
            .contains("budget of 3000 inference steps exhausted"),
        "{}",
        e.message
    );
    assert_eq!(e.during, "do/1");
    // the state is untouched and a larger budget runs the chronon
    assert_eq!(s.chronon(), 0);
    let mut s = Session::new(game, 1, with_inferences(5_000)).expect("init");
    s.run_chronon().expect("the chronon fits in 5 000 steps");
    assert_eq!(s.chronon(), 1);
}

/// Plays `games` random games from seeds `seed..`, recycling one session or making new ones, and
/// returns every chronon record and final state.
fn play(game: &Arc<Game>, seed: u64, games: u64, recycle: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut last: Option<Session> = None;
    for k in 0..games {
        let mut s = match (recycle, last.take()) {
            (true, Some(prev)) => prev.recycle(seed + k).expect("recycle"),
            _ => Session::new(game.clone(), seed + k, Settings::default()).expect("new"),
        };
        let mut n = 0;
        while n < 400 && !s.switches().expect("switches").is_empty() {
            random_submissions(&mut s).expect("submissions");
            s.run_chronon().expect("chronon");
            n += 1;
        }
        out.push(format!("{:?}", s.history()));
        out.push(format!(
            "{:?} {:?}",
            s.state().facts.terms().collect::<Vec<_>>(),
            s.accounts()
        ));
        last = Some(s);
    }
    out
}

#[test]
fn a_recycled_session_plays_as_a_new_one() {
    for g in [
        "games/mcp.sidl",
        "games/rps.sidl",
        "games/tictactoe.sidl",
        "games/kuhn.sidl",
    ] {
        let game = load(g);
        assert_eq!(play(&game, 7, 6, true), play(&game, 7, 6, false), "{g}");
    }
}
