//! Tests of the AI players on the games of `games/`.

use super::*;
use crate::game::Session;

pub(crate) fn load(name: &str) -> Arc<Game> {
    let path = format!("{}/../games/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("game file");
    let (g, _) = Game::load(&src).expect("loads");
    Arc::new(g)
}

fn t(src: &str) -> Term {
    crate::syntax::parse_term(src).expect("term").term
}

fn account(s: &Session, p: &Term) -> f64 {
    let st = s.state();
    let i = st.player_index(p).expect("player");
    match &st.accounts[i] {
        Term::Int(x) => *x as f64,
        Term::Float(x) => *x,
        _ => 0.0,
    }
}

#[test]
fn specs_parse_and_display() {
    for text in ["random", "minimax:4", "mcts:200"] {
        let spec = AiSpec::parse(text).expect(text);
        assert_eq!(spec.to_string(), text);
    }
    assert_eq!(
        AiSpec::parse(" minimax : 3 "),
        Ok(AiSpec::Minimax { depth: 3 })
    );
    for bad in [
        "minimax",
        "minimax:0",
        "mcts:x",
        "random:3",
        "alphabeta:2",
        "",
    ] {
        assert!(AiSpec::parse(bad).is_err(), "{bad}");
    }
}

/// Every opponent reply sequence: the minimax player (the `ai` seat) never ends with a lower account.
fn never_loses(
    game: &Arc<Game>,
    s: &mut Session,
    ai: &Term,
    opp: &Term,
    depth: u32,
    games: &mut u32,
) {
    if s.is_terminal().expect("legal") {
        *games += 1;
        assert!(
            account(s, ai) >= account(s, opp),
            "minimax lost: {:?}",
            s.view(None).expect("view")
        );
        return;
    }
    let ai_moves = !s.switches_of(ai).expect("switches").is_empty();
    if ai_moves {
        let obs = Observation::of(s, ai).expect("observation");
        let c = choose(game, &obs, AiSpec::Minimax { depth }, 1).expect("choice");
        assert_eq!(c.submissions.len(), 1);
        submit_choice(s, &c).expect("submits");
        s.run_chronon().expect("runs");
        never_loses(game, s, ai, opp, depth, games);
        s.undo();
        s.clear_pending();
        return;
    }
    let sw = s.switches_of(opp).expect("switches");
    let Actions::Finite(acts) = &sw[0].actions else {
        panic!("finite")
    };
    for a in acts.clone() {
        s.submit(opp, &sw[0].id, &a).expect("ok").expect("accepted");
        s.run_chronon().expect("runs");
        never_loses(game, s, ai, opp, depth, games);
        s.undo();
        s.clear_pending();
    }
}

#[test]
fn minimax_never_loses_tictactoe() {
    let game = load("tictactoe.sidl");
    let (x, o) = (t("[xplayer]"), t("[oplayer]"));
    for (ai, opp) in [(&x, &o), (&o, &x)] {
        let mut s = Session::new(game.clone(), 0, Settings::default()).expect("starts");
        let mut games = 0;
        never_loses(&game, &mut s, ai, opp, 9, &mut games);
        assert!(games > 50, "{games} games");
    }
}
