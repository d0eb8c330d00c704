use super::*;

fn tree_of(src: &str) -> Result<Tree, AnalysisError> {
    let (game, _) = Game::load(src).expect("loads");
    build(Arc::new(game), BuildLimits::default())
}

fn kuhn() -> Tree {
    tree_of(include_str!("../../../../games/kuhn.sidl")).expect("kuhn builds")
}

/// Kuhn poker: 6 deals (one chance node of 6 outcomes), 4 decision nodes and 5 terminal nodes per
/// deal, 12 information sets (OpenSpiel's kuhn_poker: 24 decision and 30 terminal histories).
#[test]
fn kuhn_counts() {
    let t = kuhn();
    let s = t.stats();
    assert_eq!(s.chance_nodes, 1);
    assert_eq!(s.decision_nodes, 24);
    assert_eq!(s.terminal_nodes, 30);
    assert_eq!(s.infosets, 12);
    assert_eq!(t.players, ["[p1]", "[p2]"]);
    assert!(t.is_zero_sum());
    let p1: Vec<&Infoset> = t.infosets.iter().filter(|i| i.player == 0).collect();
    assert_eq!(p1.len(), 6);
    for i in &t.infosets {
        assert_eq!(i.nodes.len(), 2, "{}", i.label);
        assert_eq!(i.actions.len(), 2, "{}", i.label);
    }
    let Node::Chance { outcomes, .. } = &t.nodes[t.root] else {
        panic!("the root is the deal")
    };
    assert_eq!(outcomes.len(), 6);
    assert!(outcomes.iter().all(|o| o.1 == Q::new(1.into(), 6.into())));
}

#[test]
fn decimals_are_exact() {
    assert_eq!(decimal_to_q(0.1), Some(Q::new(1.into(), 10.into())));
    assert_eq!(decimal_to_q(-2.5), Some(Q::new((-5).into(), 2.into())));
    assert_eq!(decimal_to_q(3.0), Some(Q::from_integer(3.into())));
    assert_eq!(decimal_to_q(f64::NAN), None);
}

/// CFR+ on Kuhn converges: the first player's value tends to −1/18 and NashConv to 0.
#[test]
fn kuhn_cfr_plus() {
    let t = kuhn();
    let f = cfr::Flat::new(&t);
    let mut c = cfr::Cfr::new(&f);
    let (nc0, _) = br::nash_conv(&f, &f.uniform());
    assert!(nc0 > 0.1, "uniform play is exploitable: {nc0}");
    c.run(2000);
    let avg = c.average();
    let v = f.expected(&avg);
    assert!((v[0] + 1.0 / 18.0).abs() < 2e-3, "{v:?}");
    let (nc, _) = br::nash_conv(&f, &avg);
    assert!(nc < 2e-3, "NashConv {nc}");
}

/// The sequence-form LP gives Kuhn's value exactly: −1/18 for the first player, 1/18 for the second;
/// its profile has NashConv 0.
#[test]
fn kuhn_lp_exact() {
    let t = kuhn();
    let s = lp::solve(&t).expect("solves");
    assert_eq!(s.values[0], Q::new((-1).into(), 18.into()));
    assert_eq!(s.values[1], Q::new(1.into(), 18.into()));
    let f = cfr::Flat::new(&t);
    let profile: cfr::Profile = s
        .profile
        .iter()
        .map(|p| p.iter().map(q_to_f64).collect())
        .collect();
    let (nc, _) = br::nash_conv(&f, &profile);
    assert!(nc < 1e-9, "NashConv {nc}");
}

/// A one-shot general-sum game (the battle of the sexes) has three equilibria: two pure ones and a
/// mixed one (2/3, 1/3) with payoffs 2/3 each.
#[test]
fn battle_of_the_sexes_support_enumeration() {
    let src = "game(bos).\n\
        init([go]).\n\
        init([P], 0) :- member(P, [he, she]).\n\
        legal([P]) :- fact([go]), member(P, [he, she]).\n\
        owned([P], [P]) :- member(P, [he, she]).\n\
        switch([P], [P, O]) :- member(P, [he, she]), member(O, [opera, football]).\n\
        do([_, _]) :- delete([go]).\n\
        do([_, _]).\n\
        payoff([he], 2) :- does([he], [he, opera]), does([she], [she, opera]).\n\
        payoff([she], 1) :- does([he], [he, opera]), does([she], [she, opera]).\n\
        payoff([he], 1) :- does([he], [he, football]), does([she], [she, football]).\n\
        payoff([she], 2) :- does([he], [he, football]), does([she], [she, football]).\n";
    let t = tree_of(src).expect("builds");
    let g = nfg::strategic(&t).expect("one-shot");
    assert_eq!(g.strategies[0], ["[he,opera]", "[he,football]"]);
    let eqs = nfg::support_enumeration(&g).expect("2 players");
    assert_eq!(eqs.len(), 3, "{eqs:?}");
    let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    assert!(eqs.iter().any(|e| e.strategies[0] == [q(2, 3), q(1, 3)]
        && e.strategies[1] == [q(1, 3), q(2, 3)]
        && e.values == [q(2, 3), q(2, 3)]));
}

/// Builds and solves `src` as the adapters do (load, build, solve).
fn analyse(
    src: &str,
    opts: solve::SolveOptions,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<(Tree, solve::Solution), String> {
    let (game, _) = Game::load(src).map_err(|d| d[0].code.to_string())?;
    let tree = build(Arc::new(game), BuildLimits::default()).map_err(|e| e.code.to_string())?;
    let sol = solve::solve(&tree, opts, progress).map_err(|e| e.code.to_string())?;
    Ok((tree, sol))
}

/// Kuhn from its source, solved exactly by `auto`, with its `.efg`; a game without payoffs is
/// E0962; CFR+ can be stopped from the progress callback.
#[test]
fn kuhn_from_source_solved_and_stoppable() {
    let src = include_str!("../../../../games/kuhn.sidl");
    let (tree, solution) =
        analyse(src, solve::SolveOptions::default(), &mut |_, _| true).expect("solves");
    assert_eq!(solution.method, "lp");
    assert_eq!(tree.stats().infosets, 12);
    assert!(efg::to_efg(&tree).starts_with("EFG 2 R \"kuhn\""));
    let json = serde_json::to_string(&solution).unwrap();
    assert!(
        json.contains("\"exact_values\":{\"[p1]\":\"-1/18\",\"[p2]\":\"1/18\"}"),
        "{json}"
    );
    let opts = solve::SolveOptions {
        method: solve::Method::Cfr,
        iterations: 10_000,
    };
    let mut calls = 0;
    let (_, solution) = analyse(src, opts, &mut |_, _| {
        calls += 1;
        calls < 3
    })
    .expect("solves");
    assert_eq!(
        solution.iterations,
        Some(3 * solve::chunk_of(10_000)),
        "stopped after three chunks"
    );
    let e = analyse("game(g).\ninit([a], 0).\n", opts, &mut |_, _| true).unwrap_err();
    assert_eq!(e, "E0962");
}

/// A build reports its progress every PROGRESS_EVERY nodes and stops (E0966) when told to;
/// the session it used is left at its start.
#[test]
fn a_build_can_be_stopped() {
    // Leduc: 9451 nodes, over two reports (the ten rounds of rps stop before the build: the estimate)
    let (game, _) = Game::load(include_str!("../../../../games/leduc.sidl")).expect("loads");
    let mut s = Session::new(Arc::new(game), 0, Settings::default()).expect("starts");
    let mut seen = Vec::new();
    let e = build_from(&mut s, BuildLimits::default(), &mut |n| {
        seen.push(n);
        n < 2 * PROGRESS_EVERY
    })
    .expect_err("stopped");
    assert_eq!(e.code, "E0966", "{e}");
    assert_eq!(seen, [PROGRESS_EVERY, 2 * PROGRESS_EVERY]);
    assert_eq!(s.chronon(), 0);
    assert!(s.pending().is_empty());
}
