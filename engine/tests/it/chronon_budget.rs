//! The inference budget of `Settings::limits` covers a chronon as a whole, and `Session::recycle`
//! (what `sidl bench` uses between games) and `Session::restart` (the same in place, the
//! playground's `start`) play exactly as a fresh `Session::new`.
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
fn play(game: &Arc<Game>, seed: u64, games: u64, how: How) -> Vec<String> {
    let mut out = Vec::new();
    let mut last: Option<Session> = None;
    for k in 0..games {
        let mut s = match (how, last.take()) {
            (How::Recycle, Some(prev)) => prev.recycle(seed + k).expect("recycle"),
            (How::Restart, Some(mut prev)) => {
                prev.restart(seed + k).expect("restart");
                prev
            }
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
        let new = play(&game, 7, 6, How::New);
        assert_eq!(play(&game, 7, 6, How::Recycle), new, "{g}");
        assert_eq!(play(&game, 7, 6, How::Restart), new, "{g}");
    }
}

#[derive(Clone, Copy)]
enum How {
    New,
    Recycle,
    Restart,
}

/// `init/1` draws a random number, so it runs again at each restart; on the seeds where it makes a
/// non-ground word the restart fails and the session stays as it was.
#[test]
fn a_failed_restart_leaves_the_session_as_it_was() {
    let src = "init(W) :- X is random(2), w(X, W).\nw(0, ok).\nw(1, f(_)).\n";
    let (game, _) = Game::load(src).expect("the game loads");
    let game = Arc::new(game);
    let new = |seed| Session::new(game.clone(), seed, Settings::default());
    let good = (0..64)
        .find(|&k| new(k).is_ok())
        .expect("a seed where init/1 succeeds");
    let bad = (0..64)
        .find(|&k| new(k).is_err())
        .expect("a seed where init/1 fails");
    let mut s = new(good).expect("init");
    let before = format!("{:?}", s.state());
    let want = new(bad).err().map(|e| e.message);
    let got = s.restart(bad).err().map(|e| e.message);
    assert!(got.is_some(), "the restart fails as a new session does");
    assert_eq!(got, want);
    assert_eq!((s.seed(), format!("{:?}", s.state())), (good, before));
    s.restart(good).expect("a restart with a good seed");
    assert_eq!(s.seed(), good);
}
