//! Unit tests of the session: templates and submissions, snapshots, replay.

use super::*;

/// The games of games/ and games/paper/, sorted.
fn shipped_game_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("paper")] {
        for e in std::fs::read_dir(&dir).expect("games dir") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "sidl") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

mod basics {
    use super::*;

    use crate::syntax::test_term as t;

    #[test]
    fn template_slots_in_order() {
        let tpl = t("[bid, (price, double), f((n, integer), X), (who, atom)]");
        let slots = template_slots(&tpl);
        let shown: Vec<(Option<String>, &str)> = slots
            .iter()
            .map(|s| (s.name.as_ref().map(crate::write::canonical), s.ty.name()))
            .collect();
        assert_eq!(
            shown,
            [
                (Some("price".to_string()), "double"),
                (Some("n".to_string()), "integer"),
                (None, "term"),
                (Some("who".to_string()), "atom"),
            ]
        );
        assert!(template_slots(&t("[wait]")).is_empty());
    }

    #[test]
    fn fill_template_round_trips_with_instantiate() {
        let tpl = t("[bid, (price, double), f((n, integer), X)]");
        let values = [Term::Float(12.5), Term::Int(3), t("g(a)")];
        let filled = fill_template(&tpl, &values).expect("three holes");
        assert_eq!(filled, t("[bid, 12.5, f(3, g(a))]"));
        assert_eq!(instantiate_template(&tpl, &filled), Some(filled.clone()));
        assert_eq!(fill_template(&tpl, &values[..2]), None);
        assert_eq!(
            fill_template(&tpl, &[values.to_vec(), vec![Term::Int(1)]].concat()),
            None
        );
        assert_eq!(fill_template(&t("[wait]"), &[]), Some(t("[wait]")));
    }

    #[test]
    fn slot_values_follow_the_amended_rule() {
        // docs/semantics.md §4.4: (type, typed value, held value or refused)
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("double", "1.5", Some("1.5")),
            ("double", "2", Some("2.0")),
            ("double", "-3", Some("-3.0")),
            ("double", "9007199254740992", Some("9007199254740992.0")),
            ("double", "9007199254740993", None), // no float equals it
            ("double", "a", None),
            ("integer", "2", Some("2")),
            ("integer", "2.0", None),
            ("number", "2", Some("2")),
            ("number", "2.0", Some("2.0")),
            ("atom", "1", None),
            ("atom", "red", Some("red")),
            ("term", "f(a)", Some("f(a)")),
        ];
        for (ty, v, want) in cases {
            let got = slot_value(Atom::new(ty), &t(v));
            assert_eq!(got, want.map(t), "{ty} {v}");
            if let (Some(Term::Float(_)), Some(w)) = (&got, want) {
                assert!(w.contains('.'), "{ty} {v}: a float");
            }
        }
    }

    #[test]
    fn instantiate_template_holds_each_slot_value_by_its_type() {
        let tpl = t("[bid, (price, double), f((n, integer), X), X]");
        assert_eq!(
            instantiate_template(&tpl, &t("[bid, 2, f(3, g), g]")),
            Some(t("[bid, 2.0, f(3, g), g]"))
        );
        assert_eq!(
            instantiate_template(&tpl, &t("[bid, 2.5, f(3, g), g]")),
            Some(t("[bid, 2.5, f(3, g), g]"))
        );
        assert_eq!(
            instantiate_template(&tpl, &t("[bid, 2, f(3.0, g), g]")),
            None
        );
        assert_eq!(instantiate_template(&tpl, &t("[bid, 2, f(3, g), h]")), None);
        // a pair with a type the engine does not know is not a slot (and a load error, E0419)
        assert_eq!(
            instantiate_template(&t("[a, (x, float)]"), &t("[a, 2.0]")),
            None
        );
    }

    #[test]
    fn an_integer_in_a_double_slot_is_the_equal_float_in_the_action_does_facts_and_history() {
        let src = include_str!("../../../../tests/games/slots.sidl");
        let (g, _) = Game::load(src).expect("loads");
        let mut s = Session::new(Arc::new(g), 0, Settings::default()).expect("starts");
        let cat = t("[cat]");
        assert_eq!(s.submit(&cat, &cat, &t("[cat, 2]")), Ok(Ok(())));
        assert_eq!(s.pending()[0].action, t("[cat, 2.0]"));
        let rec = s.run_chronon().expect("runs");
        assert_eq!(rec.submissions[0].action, t("[cat, 2.0]"));
        assert_eq!(s.history()[0].submissions[0].action, t("[cat, 2.0]"));
        assert_eq!(s.view(None).expect("view"), vec![t("[did, [cat, 2.0]]")]);
        // payoff([cat], 1) :- does([cat], [cat, 2.0]): does/2 held 2.0
        assert_eq!(s.accounts(), vec![(cat.clone(), Term::Int(1))]);
        // an integer slot refuses 2.0; a number keeps what was written
        assert!(s
            .submit(&cat, &cat, &t("[count, 2.0]"))
            .expect("no error")
            .is_err());
        assert_eq!(s.submit(&cat, &cat, &t("[any, 4]")), Ok(Ok(())));
        assert_eq!(s.pending()[0].action, t("[any, 4]"));
    }

    #[test]
    fn clear_pending_withdraws_submissions() {
        let src = "init([n, 0]). init([p], 0). legal([s]) :- fact([n, 0]). owned([s], [p]).\n\
                   switch([s], [a]). switch([s], [b]). default([s], [a]).\n\
                   do([A]) :- delete([n, 0]), create([n, A]).";
        let (g, _) = Game::load(src).expect("loads");
        let mut s = Session::new(Arc::new(g), 0, Settings::default()).expect("starts");
        let p = t("[p]");
        assert_eq!(s.submit(&p, &t("[s]"), &t("[b]")), Ok(Ok(())));
        s.run_chronon().expect("runs");
        assert_eq!(s.view(None).expect("view"), vec![t("[n, b]")]);
        assert!(s.undo());
        assert_eq!(s.pending().len(), 1);
        s.clear_pending();
        assert!(s.pending().is_empty());
        s.run_chronon().expect("runs");
        assert_eq!(s.view(None).expect("view"), vec![t("[n, a]")]);
    }
}

mod snapshot {
    use super::*;

    #[test]
    fn a_snapshot_restores_the_same_state() {
        let src =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/kuhn.sidl"))
                .expect("kuhn.sidl");
        let (game, _) = Game::load(&src).expect("loads");
        let game = Arc::new(game);
        let mut s = Session::new(game.clone(), 7, Settings::default()).expect("starts");
        for _ in 0..3 {
            if s.is_terminal().expect("legal") {
                break;
            }
            crate::game::trace::random_submissions(&mut s).expect("submits");
            s.run_chronon().expect("runs");
        }
        let mut r = Session::restore(game, &s.snapshot(), Settings::default()).expect("restores");
        assert_eq!(r.chronon(), s.chronon());
        assert_eq!(r.accounts(), s.accounts());
        assert_eq!(r.view(None).expect("view"), s.view(None).expect("view"));
        assert_eq!(r.pending(), s.pending());
        assert_eq!(r.snapshot(), s.snapshot());
    }
}

mod replay {
    use super::*;

    /// A driver drawing random actions must not shift the chance draws: replaying the history gives
    /// the same states.
    #[test]
    fn replay_after_random_drivers_gives_the_same_states() {
        let src = "legal([p]). legal([coin]). owned([p], [p]). owned([coin], equal(2)).\n\
                   switch([p], [p, a]). switch([p], [p, b]). switch([coin], [heads]). switch([coin], [tails]).\n\
                   init([p], 0). do([heads]) :- create([heads]). do([tails]). do([p, _]).\n";
        let (game, _) = Game::load(src).expect("loads");
        let game = Arc::new(game);
        for seed in 0..10 {
            let mut s = Session::new(game.clone(), seed, Settings::default()).expect("starts");
            let mut states = Vec::new();
            for _ in 0..6 {
                crate::game::trace::random_submissions(&mut s).expect("submits");
                s.run_chronon().expect("runs");
                states.push(s.view(None).expect("view"));
            }
            let history = s.history().to_vec();
            let mut r = Session::new(game.clone(), seed, Settings::default()).expect("starts");
            for (rec, want) in history.iter().zip(&states) {
                for sub in &rec.submissions {
                    r.submit(&sub.player, &sub.switch, &sub.action)
                        .expect("no error")
                        .expect("accepted");
                }
                r.run_chronon().expect("runs");
                assert_eq!(&r.view(None).expect("view"), want, "seed {seed}");
            }
        }
    }
}

/// [`Session::advance`] (no record) against [`Session::run_chronon`].
mod advance {
    use super::*;

    /// Two sessions of the same game and seed, one running chronons with records and one without:
    /// the same states, accounts, errors and random numbers chronon by chronon.
    fn same_play(game: &Arc<Game>, seed: u64, chronons: usize, what: &str) {
        let mut a = Session::new(game.clone(), seed, Settings::default()).expect("starts");
        let mut b = Session::new(game.clone(), seed, Settings::default()).expect("starts");
        for n in 0..chronons {
            if a.is_terminal().expect("legal") {
                assert!(b.is_terminal().expect("legal"), "{what}: chronon {n}");
                break;
            }
            crate::game::trace::random_submissions(&mut a).expect("submits");
            crate::game::trace::random_submissions(&mut b).expect("submits");
            assert_eq!(a.pending(), b.pending(), "{what}: chronon {n}");
            match (a.run_chronon().map(|_| ()), b.advance(false)) {
                (Ok(()), Ok(())) => {}
                (Err(x), Err(y)) => {
                    assert_eq!(x, y, "{what}: chronon {n}");
                    break;
                }
                (x, y) => panic!("{what}: chronon {n}: {x:?} vs {y:?}"),
            }
            assert_eq!(
                a.view(None).expect("view"),
                b.view(None).expect("view"),
                "{what}: chronon {n}"
            );
            assert_eq!(a.accounts(), b.accounts(), "{what}: chronon {n}");
            assert_eq!(a.chronon(), b.chronon(), "{what}: chronon {n}");
            assert_eq!(a.machine.rng, b.machine.rng, "{what}: chronon {n}");
            assert_eq!(a.driver_rng, b.driver_rng, "{what}: chronon {n}");
            assert!(b.history().is_empty(), "{what}: no record kept");
        }
    }

    #[test]
    fn advance_plays_every_shipped_game_as_run_chronon_does() {
        let files = shipped_game_files();
        assert!(files.len() >= 10, "found {} games", files.len());
        for f in files {
            let src = std::fs::read_to_string(&f).expect("reads");
            let (game, _) = Game::load(&src).expect("loads");
            let game = Arc::new(game);
            for seed in 1..=3 {
                same_play(&game, seed, 40, &format!("{} seed {seed}", f.display()));
            }
        }
    }

    #[test]
    fn advance_asks_hidden_and_reports_its_error() {
        // hidden/2 fails with a type error on the created word: the chronon is a runtime error in
        // both modes, and the state stays as it was
        let src =
            "legal([p]) :- not(fact([x])). owned([p], [p]). switch([p], [go]). init([p], 0).\n\
                   do([go]) :- create([x]). hidden(_, _) :- _ is foo + 1.\n";
        let (game, _) = Game::load(src).expect("loads");
        let game = Arc::new(game);
        same_play(&game, 1, 3, "hidden error");
        let mut s = Session::new(game, 1, Settings::default()).expect("starts");
        let e = s.advance(false).expect_err("hidden/2 raises");
        assert_eq!(e.during, "hidden/2");
        assert_eq!(s.chronon(), 0);
        assert!(s.view(None).expect("view").is_empty());
    }

    #[test]
    fn advance_empties_the_undo_stack() {
        let src = "legal([p]). owned([p], [p]). switch([p], [go]). init([p], 0). do([go]).\n";
        let (game, _) = Game::load(src).expect("loads");
        let mut s = Session::new(Arc::new(game), 1, Settings::default()).expect("starts");
        s.run_chronon().expect("runs");
        s.advance(false).expect("runs");
        assert_eq!(s.chronon(), 2);
        assert_eq!(s.history().len(), 1);
        assert!(!s.undo(), "no undo over an unrecorded chronon");
        assert_eq!(s.chronon(), 2);
    }

    #[test]
    fn undo_steps_back_over_undoable_advances() {
        let src = "legal([p]). legal([coin]). owned([p], [p]). owned([coin], equal(2)).\n\
                   switch([p], [p, a]). switch([p], [p, b]). switch([coin], [heads]). switch([coin], [tails]).\n\
                   init([p], 0). do([heads]) :- create([heads]). do([tails]). do([p, X]) :- create([X]).\n";
        let (game, _) = Game::load(src).expect("loads");
        let game = Arc::new(game);
        for seed in 0..6 {
            let mut a = Session::new(game.clone(), seed, Settings::default()).expect("starts");
            let mut b = Session::new(game.clone(), seed, Settings::default()).expect("starts");
            // recorded and unrecorded chronons mixed: the same states, pending submissions and RNG
            // after each undo
            let mut states = vec![(a.view(None).expect("view"), a.machine.rng.clone())];
            for n in 0..4 {
                crate::game::trace::random_submissions(&mut a).expect("submits");
                crate::game::trace::random_submissions(&mut b).expect("submits");
                a.run_chronon().expect("runs");
                if n == 1 {
                    b.run_chronon().expect("runs");
                } else {
                    b.advance(true).expect("runs");
                }
                states.push((a.view(None).expect("view"), a.machine.rng.clone()));
            }
            assert_eq!(b.history().len(), 1);
            for (view, rng) in states.iter().rev().skip(1) {
                assert!(a.undo() && b.undo(), "seed {seed}");
                assert_eq!(a.pending(), b.pending(), "seed {seed}");
                assert!(!a.pending().is_empty(), "seed {seed}");
                assert_eq!(&b.view(None).expect("view"), view, "seed {seed}");
                assert_eq!(&b.machine.rng, rng, "seed {seed}");
                assert_eq!(b.chronon(), a.chronon(), "seed {seed}");
            }
            assert!(!b.undo());
            assert!(b.history().is_empty());
        }
    }
}

mod by_state {
    use super::*;

    fn shipped_games() -> Vec<(String, Arc<Game>)> {
        let files = shipped_game_files();
        files
            .into_iter()
            .map(|f| {
                let src = std::fs::read_to_string(&f).expect("reads");
                let (game, _) = Game::load(&src).expect("loads");
                (f.display().to_string(), Arc::new(game))
            })
            .collect()
    }

    /// Random games back to back in recycled sessions (as `sidl bench` plays them, so states
    /// recur), one session with the switches-by-facts table and one without: the same switches,
    /// submissions, states and errors in every chronon.
    #[test]
    fn switches_by_facts_are_those_asked_again() {
        let mut games_on = 0;
        for (what, game) in shipped_games() {
            games_on += usize::from(StateSwitches::new(&game).is_on());
            let mut a = Session::new(game.clone(), 1, Settings::default()).expect("starts");
            let mut b = Session::new(game.clone(), 1, Settings::default()).expect("starts");
            b.by_state = StateSwitches::default();
            for seed in 2..6 {
                for n in 0..25 {
                    let (x, y) = (a.switches(), b.switches());
                    assert_eq!(x, y, "{what}: game {seed} chronon {n}");
                    if x.map_or(true, |s| s.is_empty()) {
                        break;
                    }
                    crate::game::trace::random_submissions(&mut a).expect("submits");
                    crate::game::trace::random_submissions(&mut b).expect("submits");
                    assert_eq!(a.pending(), b.pending(), "{what}: game {seed} chronon {n}");
                    let (x, y) = (a.advance(false), b.advance(false));
                    assert_eq!(x, y, "{what}: game {seed} chronon {n}");
                    if x.is_err() {
                        break;
                    }
                    assert_eq!(
                        a.state().facts.iter().count(),
                        b.state().facts.iter().count()
                    );
                    assert!(
                        a.state().facts.terms().eq(b.state().facts.terms()),
                        "{what}: game {seed} chronon {n}"
                    );
                    assert_eq!(
                        a.accounts(),
                        b.accounts(),
                        "{what}: game {seed} chronon {n}"
                    );
                }
                a = a.recycle(seed).expect("recycles");
                b = b.recycle(seed).expect("recycles");
                assert!(!b.by_state.is_on(), "{what}: stays off");
            }
        }
        assert!(games_on >= 5, "the table serves {games_on} shipped games");
    }

    /// Random plays of Connect Four rarely meet a state twice: the table is given up after its
    /// first lookups, and play goes on with the same switches as without it. Nim's plays meet
    /// their states again and again: its table stays.
    #[test]
    fn a_table_that_is_rarely_hit_is_given_up() {
        let games = shipped_games();
        let game = |name: &str| {
            games
                .iter()
                .find(|(f, _)| f.ends_with(&format!("games/{name}.sidl")))
                .map(|(_, g)| g.clone())
                .expect("shipped")
        };
        for (name, gives_up) in [("connect4", true), ("nim", false)] {
            let g = game(name);
            let mut a = Session::new(g.clone(), 1, Settings::default()).expect("starts");
            let mut b = Session::new(g.clone(), 1, Settings::default()).expect("starts");
            b.by_state = StateSwitches::default();
            assert!(a.by_state.is_on(), "{name}");
            let mut seed = 1;
            for n in 0..3000 {
                let (x, y) = (a.switches(), b.switches());
                assert_eq!(x, y, "{name}: chronon {n}");
                if x.expect("switches").is_empty() {
                    seed += 1;
                    a = a.recycle(seed).expect("recycles");
                    b = b.recycle(seed).expect("recycles");
                    continue;
                }
                crate::game::trace::random_submissions(&mut a).expect("submits");
                crate::game::trace::random_submissions(&mut b).expect("submits");
                assert_eq!(a.advance(false), b.advance(false), "{name}: chronon {n}");
            }
            assert_eq!(a.by_state.given_up(), gives_up, "{name}");
        }
    }

    #[test]
    fn only_where_the_switches_follow_from_the_facts_and_players() {
        let on = |src: &str| {
            let (g, _) = Game::load(src).expect("loads");
            StateSwitches::new(&g).is_on()
        };
        let base = "game(g).\ninit([n, 0]).\ninit([p], 0).\nowned([s], [p]).\n";
        assert!(on(&format!(
            "{base}legal([s]) :- fact([n, N]), N < 3.\nswitch([s], [a]).\ndo([a])."
        )));
        // random numbers, the schedule or an unknown meta-call: asked in every state
        assert!(!on(&format!(
            "{base}legal([s]) :- X is random(2), X >= 0.\nswitch([s], [a]).\ndo([a])."
        )));
        assert!(!on(&format!(
            "{base}legal([s]).\nswitch([s], [A]) :- member(A, [a, b]), tocreate([A]).\ndo([a])."
        )));
        assert!(!on(&format!(
            "{base}legal([s]) :- G = true, call(G).\nswitch([s], [a]).\ndo([a])."
        )));
    }
}

mod views {
    use super::*;

    /// The hidden matrix a chronon carries over to the next state (`Session::next_hidden`, when
    /// `hidden/2` is constant) is the one asked afresh, and so are the players' views: every
    /// shipped game, random plays (every player's moves, unlimited switches from `candidate/2`),
    /// views asked in every state as the playground does.
    #[test]
    fn carried_hidden_matrices_are_the_fresh_ones() {
        let mut carried = 0;
        for f in shipped_game_files() {
            let src = std::fs::read_to_string(&f).expect("reads");
            let (game, _) = Game::load(&src).expect("loads");
            let game = Arc::new(game);
            for seed in 1..=3 {
                let what = format!("{} seed {seed}", f.display());
                let mut s = Session::new(game.clone(), seed, Settings::default()).expect("starts");
                for n in 0..40 {
                    let players = s.players();
                    let kept = s.hidden.clone();
                    let views: Vec<_> = players.iter().map(|p| s.view(Some(p))).collect();
                    s.hidden = None;
                    let fresh: Vec<_> = players.iter().map(|p| s.view(Some(p))).collect();
                    assert_eq!(views, fresh, "{what}: chronon {n}");
                    if let Some(k) = kept {
                        carried += 1;
                        assert_eq!(Ok(k), s.hidden_matrix(), "{what}: chronon {n}");
                    }
                    if s.is_terminal().expect("legal") {
                        break;
                    }
                    crate::seats::random_moves(&mut s, None, true, false).expect("moves");
                    if s.run_chronon().is_err() {
                        break;
                    }
                }
            }
        }
        assert!(carried > 0, "no matrix carried over");
    }
}
