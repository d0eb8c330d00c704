//! Tests of the AI players on the games of `games/`.

use super::*;
use crate::game::Session;
use crate::rng::Rng;

pub(crate) fn load(name: &str) -> Arc<Game> {
    let path = format!("{}/../games/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("game file");
    let (g, _) = Game::load(&src).expect("loads");
    Arc::new(g)
}

use crate::syntax::test_term as t;

fn account(s: &Session, p: &Term) -> f64 {
    let st = s.state();
    let i = st.player_index(p).expect("player");
    crate::game::account_value(&st.accounts[i])
}

#[test]
fn specs_parse_and_display() {
    for text in [
        "random",
        "minimax:4",
        "mcts:200",
        "minimax:2:relative",
        "mcts:9:paranoid",
        "mcts:9:own",
    ] {
        let spec = AiSpec::parse(text).expect(text);
        assert_eq!(spec.to_string(), text);
    }
    assert_eq!(AiSpec::parse(" minimax : 3 "), Ok(AiSpec::minimax(3)));
    // `own` is the default, and is not written back
    // without an objective the game's default applies; a named one is written back
    assert_eq!(AiSpec::parse("mcts:7"), Ok(AiSpec::mcts(7)));
    assert_eq!(
        AiSpec::parse("mcts:7:own"),
        Ok(AiSpec::mcts(7).with_objective(Objective::Own))
    );
    assert_eq!(
        AiSpec::parse("minimax:3:paranoid").map(|s| s.objective()),
        Ok(Some(Objective::Paranoid))
    );
    for bad in [
        "minimax",
        "minimax:0",
        "mcts:x",
        "random:3",
        "alphabeta:2",
        "",
        "minimax:3:greedy",
        "mcts:5:",
        "random:relative",
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
        let c = choose(game, &obs, AiSpec::minimax(depth), 1).expect("choice");
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

/// Kuhn poker: `player`'s observation and choice after the deal `[deal, C1, C2]` (and, for p2, after
/// p1's `first` action).
fn kuhn_choice(
    game: &Arc<Game>,
    deal: &str,
    player: &str,
    first: Option<&str>,
    spec: AiSpec,
    seed: u64,
) -> (Observation, Choice) {
    let mut s = Session::new(game.clone(), 3, Settings::default()).expect("starts");
    s.set_nature(&t("[deal]"), &t(deal))
        .expect("ok")
        .expect("deal");
    s.run_chronon().expect("deals");
    if let Some(a) = first {
        s.submit(&t("[p1]"), &t("[p1]"), &t(a))
            .expect("ok")
            .expect("accepted");
        s.run_chronon().expect("runs");
    }
    let obs = Observation::of(&mut s, &t(player)).expect("observation");
    let c = choose(game, &obs, spec, seed).expect("choice");
    (obs, c)
}

#[test]
fn kuhn_choices_do_not_depend_on_the_opponents_hidden_card() {
    let game = load("kuhn.sidl");
    let specs = [AiSpec::mcts(40), AiSpec::minimax(2)];
    for spec in specs {
        for seed in 0..3 {
            // p1 holds the queen; p2 holds the jack or the king
            let (oa, ca) = kuhn_choice(&game, "[deal, q, j]", "[p1]", None, spec, seed);
            let (ob, cb) = kuhn_choice(&game, "[deal, q, k]", "[p1]", None, spec, seed);
            assert_eq!(oa, ob, "p1 sees the same");
            assert_eq!(ca.submissions, cb.submissions, "{spec} seed {seed}");
            assert_eq!(ca.submissions.len(), 1);
            // p2 holds the queen facing a bet or a check; p1 holds the jack or the king
            for first in ["[p1, bet]", "[p1, check]"] {
                let (oa, ca) = kuhn_choice(&game, "[deal, j, q]", "[p2]", Some(first), spec, seed);
                let (ob, cb) = kuhn_choice(&game, "[deal, k, q]", "[p2]", Some(first), spec, seed);
                assert_eq!(oa, ob, "p2 sees the same");
                assert!(!oa.view.iter().any(|f| f == &t("[card, p1, j]")));
                assert_eq!(ca.submissions, cb.submissions, "{spec} seed {seed} {first}");
            }
        }
    }
}

#[test]
fn kuhn_determinization_samples_consistent_states() {
    let game = load("kuhn.sidl");
    let mut s = Session::new(game.clone(), 5, Settings::default()).expect("starts");
    s.set_nature(&t("[deal]"), &t("[deal, j, q]"))
        .expect("ok")
        .expect("deal");
    s.run_chronon().expect("deals");
    s.submit(&t("[p1]"), &t("[p1]"), &t("[p1, bet]"))
        .expect("ok")
        .expect("bet");
    s.run_chronon().expect("runs");
    let obs = Observation::of(&mut s, &t("[p2]")).expect("observation");
    let mut rng = Rng::new(9);
    let mut p1_cards = Vec::new();
    for _ in 0..12 {
        let mut d = determinize::sample(&game, &obs, &mut rng)
            .expect("no error")
            .expect("a consistent state");
        let facts = d.view(None).expect("view");
        // p2's own card and p1's (visible) bet are as observed; p1's card is one of the others
        assert!(facts.contains(&t("[card, p2, q]")));
        assert!(facts.contains(&t("[turn, p2, facing]")));
        let c = facts
            .iter()
            .find(|f| {
                f.as_list()
                    .is_some_and(|l| l.len() == 3 && *l[0] == t("card") && *l[1] == t("p1"))
            })
            .cloned();
        let c = c.expect("p1 has a card");
        assert_ne!(c, t("[card, p1, q]"));
        if !p1_cards.contains(&c) {
            p1_cards.push(c);
        }
        assert_eq!(
            d.view(Some(&t("[p2]"))).expect("view").len(),
            obs.view.len()
        );
    }
    // both of p1's possible cards are sampled
    assert_eq!(p1_cards.len(), 2, "{p1_cards:?}");
}

#[test]
fn same_seed_same_choice() {
    let game = load("tictactoe.sidl");
    let mut s = Session::new(game.clone(), 0, Settings::default()).expect("starts");
    s.submit(&t("[xplayer]"), &t("[xplayer]"), &t("[mark, 1, 1]"))
        .expect("ok")
        .expect("accepted");
    s.run_chronon().expect("runs");
    let obs = Observation::of(&mut s, &t("[oplayer]")).expect("observation");
    for spec in [AiSpec::Random, AiSpec::mcts(30), AiSpec::minimax(2)] {
        let a = choose(&game, &obs, spec, 11).expect("choice");
        let b = choose(&game, &obs, spec, 11).expect("choice");
        assert_eq!(a, b, "{spec}");
        assert_eq!(a.submissions.len(), 1);
    }
    // different seeds let random play differ
    let picks: Vec<Vec<Submission>> = (0..8)
        .map(|seed| {
            choose(&game, &obs, AiSpec::Random, seed)
                .expect("choice")
                .submissions
        })
        .collect();
    assert!(picks.iter().any(|p| p != &picks[0]));
}

#[test]
fn minimax_takes_the_win_and_blocks() {
    // x: (1,1) (1,2); o: (2,1) (2,2); x to move: (1,3) wins at once
    let game = load("tictactoe.sidl");
    let mut s = Session::new(game.clone(), 0, Settings::default()).expect("starts");
    for (p, a) in [
        ("[xplayer]", "[mark, 1, 1]"),
        ("[oplayer]", "[mark, 2, 1]"),
        ("[xplayer]", "[mark, 1, 2]"),
        ("[oplayer]", "[mark, 2, 2]"),
    ] {
        s.submit(&t(p), &t(p), &t(a))
            .expect("ok")
            .expect("accepted");
        s.run_chronon().expect("runs");
    }
    let obs = Observation::of(&mut s, &t("[xplayer]")).expect("observation");
    for depth in [1, 3] {
        let c = choose(&game, &obs, AiSpec::minimax(depth), 0).expect("choice");
        assert_eq!(c.submissions[0].action, t("[mark, 1, 3]"), "depth {depth}");
        assert_eq!(c.value, 100.0);
    }
    // o to move after x (1,1) (1,2): o must block at (1,3)
    let mut s = Session::new(game.clone(), 0, Settings::default()).expect("starts");
    for (p, a) in [
        ("[xplayer]", "[mark, 1, 1]"),
        ("[oplayer]", "[mark, 3, 3]"),
        ("[xplayer]", "[mark, 1, 2]"),
    ] {
        s.submit(&t(p), &t(p), &t(a))
            .expect("ok")
            .expect("accepted");
        s.run_chronon().expect("runs");
    }
    let obs = Observation::of(&mut s, &t("[oplayer]")).expect("observation");
    let c = choose(&game, &obs, AiSpec::minimax(2), 0).expect("choice");
    assert_eq!(c.submissions[0].action, t("[mark, 1, 3]"));
}

#[test]
fn a_stopped_search_returns_a_legal_move() {
    let game = load("tictactoe.sidl");
    let mut s = Session::new(game.clone(), 0, Settings::default()).expect("starts");
    let obs = Observation::of(&mut s, &t("[xplayer]")).expect("observation");
    let legal = match &obs.switches[0].actions {
        Actions::Finite(a) => a.clone(),
        _ => panic!("finite"),
    };
    for spec in [AiSpec::minimax(9), AiSpec::mcts(100_000)] {
        let mut polls = 0;
        let c = choose_until(&game, &obs, spec, 0, &mut |_| {
            polls += 1;
            polls > 50
        })
        .expect("choice");
        assert!(legal.contains(&c.submissions[0].action), "{spec}");
        assert!(c.stats.nodes <= 60, "{spec}: {:?}", c.stats);
    }
    // stepping: MCTS 10 iterations at a time
    let mut search = Search::new(game.clone(), obs.clone(), AiSpec::mcts(30), 0);
    let mut steps = 0;
    while !search.step(10).expect("steps") {
        steps += 1;
    }
    assert_eq!(steps, 2);
    assert_eq!(search.best_so_far().stats.nodes, 30);
}

/// MCTS against uniform random on tic-tac-toe: a few short games each way (the 100-game table is
/// `sidl tournament`, see docs/ai.md).
#[test]
fn mcts_beats_random_at_tictactoe() {
    let game = load("tictactoe.sidl");
    let players = [t("[xplayer]"), t("[oplayer]")];
    let (mut wins, mut losses) = (0, 0);
    for g in 0..4u64 {
        let ai = (g % 2) as usize;
        let mut s = Session::new(game.clone(), g, Settings::default()).expect("starts");
        while !s.is_terminal().expect("legal") {
            for (i, p) in players.iter().enumerate() {
                if s.switches_of(p).expect("switches").is_empty() {
                    continue;
                }
                let obs = Observation::of(&mut s, p).expect("observation");
                let spec = if i == ai {
                    AiSpec::mcts(200)
                } else {
                    AiSpec::Random
                };
                let seed = s.rng().next_u64();
                let c = choose(&game, &obs, spec, seed).expect("choice");
                submit_choice(&mut s, &c).expect("submits");
            }
            s.run_chronon().expect("runs");
        }
        let (a, o) = (account(&s, &players[ai]), account(&s, &players[1 - ai]));
        if a > o {
            wins += 1;
        } else if a < o {
            losses += 1;
        }
    }
    assert!(wins >= 3, "wins {wins}, losses {losses}");
}

/// The observation holds no fact hidden from its player: not in the views, not in the events.
#[test]
fn observations_hold_no_hidden_fact() {
    let game = load("kuhn.sidl");
    let mut s = Session::new(game.clone(), 8, Settings::default()).expect("starts");
    s.set_nature(&t("[deal]"), &t("[deal, k, j]"))
        .expect("ok")
        .expect("deal");
    s.run_chronon().expect("deals");
    s.submit(&t("[p1]"), &t("[p1]"), &t("[p1, check]"))
        .expect("ok")
        .expect("ok");
    s.run_chronon().expect("runs");
    let obs = Observation::of(&mut s, &t("[p2]")).expect("observation");
    assert!(obs.replayed);
    let secret = t("[card, p1, k]");
    let mut seen = obs.view.clone();
    seen.extend(obs.initial_view.iter().cloned());
    for c in &obs.past {
        seen.extend(c.view.iter().cloned());
        for e in &c.events {
            match e {
                Event::Created(f) | Event::Deleted(f) => seen.push(f.clone()),
                Event::Switch { switch, .. } => assert_ne!(switch, &t("[p1]"), "p1's switch"),
                Event::Account { .. } => {}
            }
        }
    }
    assert!(seen.contains(&t("[card, p2, j]")));
    assert!(!seen.contains(&secret), "{seen:?}");
    // the designer's view has it
    assert!(s.view(None).expect("view").contains(&secret));
}

/// A session that starts at a given state has no view history: the AI searches the view state.
#[test]
fn a_session_from_a_state_is_searched_from_its_view() {
    let game = load("tictactoe.sidl");
    let mut s = Session::new(game.clone(), 0, Settings::default()).expect("starts");
    for (p, a) in [("[xplayer]", "[mark, 1, 1]"), ("[oplayer]", "[mark, 2, 1]")] {
        s.submit(&t(p), &t(p), &t(a))
            .expect("ok")
            .expect("accepted");
        s.run_chronon().expect("runs");
    }
    let state = (**s.state()).clone();
    let mut f = Session::from_state(game.clone(), state, 1, Settings::default());
    f.submit(&t("[xplayer]"), &t("[xplayer]"), &t("[mark, 3, 3]"))
        .expect("ok")
        .expect("accepted");
    f.run_chronon().expect("runs");
    let obs = Observation::of(&mut f, &t("[oplayer]")).expect("observation");
    assert!(!obs.replayed);
    assert_eq!(obs.past.len(), 1);
    let c = choose(&game, &obs, AiSpec::minimax(2), 0).expect("choice");
    assert_eq!(c.submissions.len(), 1);
    // forking keeps the state and needs no init
    let mut k = f.fork();
    assert_eq!(k.view(None).expect("view"), f.view(None).expect("view"));
    assert!(k.history().is_empty());
}

/// Plays `game` from seed `seed` with the seats as written (player order), round by round, until
/// it ends; `each` sees the state before every round and the moves the seats made in it.
fn play_seats(
    game: &Arc<Game>,
    seats: &[&str],
    seed: u64,
    mut each: impl FnMut(&[Term], &[Submission]),
) -> Session {
    let seats: Vec<crate::seats::Seat> = seats
        .iter()
        .map(|k| crate::seats::Seat::parse(k).expect("seat"))
        .collect();
    let mut s = Session::new(game.clone(), seed, Settings::default()).expect("starts");
    for _ in 0..100 {
        if s.is_terminal().expect("terminal") {
            return s;
        }
        let before = s.view(None).expect("view");
        match crate::seats::round(&mut s, &seats, 100).expect("round") {
            crate::seats::Round::Ran { moves, .. } => each(&before, &moves),
            crate::seats::Round::Idle(why) => panic!("idle: {}", why.summary()),
        }
    }
    panic!("no end within 100 rounds");
}

/// The number `N` of the first fact `[name, ..., N]` with the given leading elements.
fn fact_number(facts: &[Term], prefix: &[&str]) -> Option<f64> {
    facts.iter().find_map(|f| {
        let items = f.as_list()?;
        let n = items.len();
        let head = items.get(..n.checked_sub(1)?)?;
        let same = head.len() == prefix.len()
            && head
                .iter()
                .zip(prefix)
                .all(|(a, b)| crate::write::canonical(a) == *b);
        if same {
            items[n - 1].as_f64()
        } else {
            None
        }
    })
}

/// The ultimatum game: minimax seats that maximise their own account play the subgame-perfect
/// outcome in every game (the least positive offer, accepted); the `relative` objective does
/// not (it offers nothing and rejects, or accepts nothing: both end with 0).
#[test]
fn ultimatum_minimax_plays_the_subgame_perfect_outcome() {
    let game = load("ultimatum.sidl");
    let (proposer, responder) = (t("[proposer]"), t("[responder]"));
    for seed in 0..4 {
        let mut s = play_seats(&game, &["minimax:2", "minimax:2"], seed, |_, _| {});
        let facts = s.view(None).unwrap();
        assert!(facts.contains(&t("[offered,1]")), "seed {seed}: {facts:?}");
        assert!(facts.contains(&t("[accepted]")), "seed {seed}: {facts:?}");
        assert_eq!(account(&s, &proposer), 4.0, "seed {seed}");
        assert_eq!(account(&s, &responder), 1.0, "seed {seed}");
        // whatever the proposer offers, the responder accepts a positive offer (nothing is worth as
        // much to it as a rejection)
        let mut s = play_seats(&game, &["random", "minimax:1"], seed, |_, _| {});
        let facts = s.view(None).unwrap();
        let offered = fact_number(&facts, &["offered"]).expect("an offer");
        if offered > 0.0 {
            assert!(facts.contains(&t("[accepted]")), "seed {seed}: {facts:?}");
        }
    }
    let s = play_seats(
        &game,
        &["minimax:2:relative", "minimax:2:relative"],
        0,
        |_, _| {},
    );
    assert_eq!(account(&s, &proposer) + account(&s, &responder), 0.0);
}

/// The English auction with private values: MCTS bidders that maximise their own account never
/// stay in at a price above their value (they could win the item for more than it is worth to
/// them); the `relative` objective does, to hurt the other bidder.
#[test]
fn english_auction_mcts_bidders_never_stay_above_their_value() {
    let game = load("english.sidl");
    let stays_above = |spec: &str, seeds: std::ops::Range<u64>| {
        let mut n = 0;
        for seed in seeds {
            play_seats(&game, &[spec, spec], seed, |facts, moves| {
                let Some(price) = fact_number(facts, &["price"]) else {
                    return;
                };
                for m in moves.iter().filter(|m| m.action == t("[stay]")) {
                    let who = crate::write::canonical(&m.player);
                    let who = who.trim_start_matches('[').trim_end_matches(']');
                    let value = fact_number(facts, &["value", who]).expect("a value");
                    if price > value {
                        n += 1;
                    }
                }
            });
        }
        n
    };
    assert_eq!(stays_above("mcts:300", 0..12), 0);
    assert!(stays_above("mcts:300:relative", 0..3) > 0);
}

/// A game's `objective/1` is the default objective of its AI seats: the ultimatum game with
/// `objective(relative)` is played as with `minimax:2:relative` (an offer of nothing), a seat
/// that names `own` still plays for its own account, and an answer that is no objective is E0948.
#[test]
fn a_game_declares_the_default_objective() {
    let path = format!("{}/../games/ultimatum.sidl", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(path).expect("game file");
    let with = |line: &str| {
        let (g, _) = Game::load(&format!("{src}\n{line}\n")).expect("loads");
        Arc::new(g)
    };
    let offer = |game: &Arc<Game>, spec: &str| -> Result<Term, RuntimeError> {
        let mut s = Session::new(game.clone(), 0, Settings::default()).expect("starts");
        let obs = Observation::of(&mut s, &t("[proposer]")).expect("observation");
        let c = choose(game, &obs, AiSpec::parse(spec).expect(spec), 0)?;
        Ok(c.submissions[0].action.clone())
    };
    let relative = with("objective(relative).");
    assert_eq!(offer(&relative, "minimax:2"), Ok(t("[offer,0]")));
    assert_eq!(offer(&relative, "minimax:2:own"), Ok(t("[offer,1]")));
    assert_eq!(
        offer(&load("ultimatum.sidl"), "minimax:2"),
        Ok(t("[offer,1]"))
    );
    let e = offer(&with("objective(fair)."), "mcts:20").expect_err("no such objective");
    assert_eq!(e.code, crate::solve::errors::codes::BAD_OBJECTIVE, "{e}");
    assert!(e.to_string().contains("fair"), "{e}");
}

/// `Observation::of` resumes each player's replay from its last observation: along random plays
/// (with hidden facts: kuhn, leduc), through an undo and a restart, every observation equals the
/// one made by replaying the whole history again (a twin session, played the same way, whose kept
/// replays are dropped before each observation).
#[test]
fn resumed_observations_equal_a_full_replay() {
    for name in ["kuhn.sidl", "leduc.sidl", "tictactoe.sidl"] {
        let game = load(name);
        let mut a = Session::new(game.clone(), 7, Settings::default()).expect("starts");
        let mut b = Session::new(game.clone(), 7, Settings::default()).expect("starts");
        let players = a.players();
        let mut resumed = 0;
        for step in 0..60 {
            if a.is_terminal().expect("legal") {
                a.restart(7 + step).expect("restarts");
                b.restart(7 + step).expect("restarts");
            }
            for p in &players {
                let kept = a
                    .observed
                    .iter()
                    .find(|r| &r.player == p)
                    .map(|r| r.views.len());
                let got = Observation::of(&mut a, p).expect("observation");
                b.observed.clear();
                let full = Observation::of(&mut b, p).expect("observation");
                assert_eq!(got, full, "{name}, step {step}, {p:?}");
                assert!(got.replayed, "{name}, step {step}: replayed");
                if kept.is_some_and(|n| n > 0 && n <= a.history().len()) {
                    resumed += 1;
                }
            }
            if step % 9 == 4 && a.history().len() > 1 {
                assert!(a.undo() && b.undo(), "undo");
                continue;
            }
            crate::game::trace::random_submissions(&mut a).expect("moves");
            crate::game::trace::random_submissions(&mut b).expect("moves");
            a.run_chronon().expect("runs");
            b.run_chronon().expect("runs");
        }
        assert!(
            resumed > 20,
            "{name}: only {resumed} observations resumed a replay"
        );
    }
}
