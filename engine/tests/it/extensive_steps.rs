//! The step-by-step solver (`extensive::solve::Solver`, the playground's Analyse panel and the
//! language server's `sidl/solve`) and the strategy table in a game's own words
//! (`extensive::readable`).

use sidl_engine::analysis::extensive::readable::readable;
use sidl_engine::analysis::extensive::solve::{solve, Method, SolveOptions, Solver};
use sidl_engine::analysis::extensive::{self, BuildLimits, Tree};
use sidl_engine::game::Game;
use std::path::Path;
use std::sync::Arc;

fn game(name: &str) -> Arc<Game> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../games")
        .join(name);
    let src = std::fs::read_to_string(&path).unwrap();
    Arc::new(Game::load(&src).map_err(|d| format!("{d:?}")).unwrap().0)
}

fn tree(g: &Arc<Game>) -> Tree {
    extensive::build(g.clone(), BuildLimits::default()).unwrap()
}

#[test]
fn cfr_in_steps_is_cfr_at_once() {
    let t = tree(&game("kuhn.sidl"));
    let opts = SolveOptions {
        method: Method::Cfr,
        iterations: 300,
    };
    let once = solve(&t, opts, &mut |_, _| true).unwrap();
    let mut s = Solver::new(t.clone(), opts);
    assert_eq!(s.method(), Method::Cfr);
    let mut steps = 0;
    loop {
        let p = s.step(7).unwrap();
        steps += 1;
        assert!(p.done <= p.total && p.total == 300);
        if p.finished {
            assert_eq!(p.done, 300);
            break;
        }
    }
    assert_eq!(steps, 300usize.div_ceil(7));
    let stepped = s.solution().unwrap();
    assert_eq!(stepped.iterations, Some(300));
    assert_eq!(
        serde_json::to_string(&once).unwrap(),
        serde_json::to_string(&stepped).unwrap()
    );
    // the value of Kuhn poker for p1 is -1/18
    assert!((stepped.values[0].1 + 1.0 / 18.0).abs() < 1e-2);
}

#[test]
fn a_stopped_solver_reports_the_average_so_far() {
    let t = tree(&game("kuhn.sidl"));
    let mut s = Solver::new(
        t,
        SolveOptions {
            method: Method::Cfr,
            iterations: 1_000_000,
        },
    );
    let p = s.step(50).unwrap();
    assert_eq!((p.done, p.finished), (50, false));
    let sol = s.solution().unwrap();
    assert_eq!(sol.iterations, Some(50));
    assert_eq!(sol.strategies.len(), 12);
    for st in &sol.strategies {
        let sum: f64 = st.actions.iter().map(|a| a.probability).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{}: {sum}", st.label);
    }
}

#[test]
fn an_exact_method_solves_in_its_first_step() {
    let t = tree(&game("kuhn.sidl"));
    let mut s = Solver::new(t, SolveOptions::default());
    assert_eq!(s.method(), Method::Lp);
    assert!(s.solution().is_none());
    assert!(!s.progress().finished);
    assert!(s.step(1).unwrap().finished);
    let sol = s.solution().unwrap();
    assert_eq!(sol.method, "lp");
    let exact = sol.exact_values.unwrap();
    assert_eq!(exact[0], ("[p1]".to_string(), "-1/18".to_string()));
    assert!(sol.nash_conv.abs() < 1e-9);
}

#[test]
fn readable_labels_use_the_games_labels() {
    // ultimatum.sidl has label/2: the responder reads the offer in the game's words
    let g = game("ultimatum.sidl");
    let t = tree(&g);
    let r = readable(&g, &t).unwrap();
    assert_eq!(r.len(), t.infosets.len());
    let responder = t
        .infosets
        .iter()
        .position(|is| t.players[is.player] == "[responder]")
        .unwrap();
    assert!(
        r[responder].label.contains("the offer is"),
        "{:?}",
        r[responder]
    );
    assert_eq!(r[responder].actions, ["accept", "reject"]);
    let proposer = t
        .infosets
        .iter()
        .position(|is| t.players[is.player] == "[proposer]")
        .unwrap();
    assert!(
        r[proposer].actions[0].starts_with("offer "),
        "{:?}",
        r[proposer]
    );
    // a game without labels (kuhn with a leak, tests/analysis/): the tree's own texts
    let g = game("../tests/analysis/kuhn_leaky.sidl");
    let t = tree(&g);
    let r = readable(&g, &t).unwrap();
    for (x, is) in r.iter().zip(&t.infosets) {
        assert_eq!((&x.label, &x.actions), (&is.label, &is.actions));
    }
}
