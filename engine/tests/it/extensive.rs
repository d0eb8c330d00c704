//! The extensive form, its solvers and its exports over the fixtures of `engine/tests/extensive/`
//! (one `.expect` file per case; the format is in that folder's README.md).

use sidl_engine::analysis::extensive::{
    self, br, cfr, efg, lp, nfg, q_to_f64, BuildLimits, Estimate, Tree, Q,
};
use sidl_engine::game::{Game, Session, Settings};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/extensive")
}

struct Case {
    name: String,
    lines: Vec<(String, String)>,
}

impl Case {
    fn get(&self, key: &str) -> Option<&str> {
        self.lines
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    fn all(&self, key: &str) -> Vec<&str> {
        self.lines
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }
    fn num<T: std::str::FromStr>(&self, key: &str) -> Option<T> {
        self.get(key).map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{}: bad {key}: {v}", self.name))
        })
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("fixtures")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "expect"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let (k, v) = l.split_once(':').expect("key: value");
                (k.trim().to_string(), v.trim().to_string())
            })
            .collect();
        out.push(Case {
            name: f.file_stem().unwrap().to_string_lossy().into_owned(),
            lines,
        });
    }
    assert!(out.len() >= 10, "the fixtures are there");
    out
}

fn q(text: &str) -> Q {
    let (n, d) = text.split_once('/').unwrap_or((text, "1"));
    Q::new(n.parse().unwrap(), d.parse().unwrap())
}

fn game(c: &Case) -> (Arc<Game>, BuildLimits) {
    let path = dir().join(c.get("game").expect("game:"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (game, _) = Game::load(&src).unwrap_or_else(|d| panic!("{}: {d:?}", c.name));
    let mut limits = BuildLimits::default();
    if let Some(n) = c.num("max_nodes") {
        limits.max_nodes = n;
    }
    (Arc::new(game), limits)
}

fn build(c: &Case) -> Result<Tree, sidl_engine::game::RuntimeError> {
    let (game, limits) = game(c);
    extensive::build(game, limits)
}

/// The estimate of the tree's size the build makes first (Knuth's, from the initial state).
fn estimate(c: &Case) -> Estimate {
    let (game, limits) = game(c);
    let mut s = Session::new(game, 0, Settings::default()).expect("init");
    let before = s.history().len();
    let e = extensive::estimate_nodes(
        &mut s,
        limits,
        extensive::ESTIMATE_PLAYS,
        extensive::ESTIMATE_SEED,
    );
    assert_eq!(s.history().len(), before, "{}: the session is back", c.name);
    e
}

/// Every fixture: the build's counts or its error, the exact solution, and CFR+ convergence.
#[test]
fn fixtures() {
    for c in cases() {
        let t = build(&c);
        if let Some(code) = c.get("error") {
            let e = t
                .err()
                .unwrap_or_else(|| panic!("{}: builds, expected {code}", c.name));
            assert_eq!(e.code, code, "{}: {e}", c.name);
            let msg = c.get("message").unwrap_or("");
            assert!(
                e.message.contains(msg),
                "{}: {:?} lacks {msg:?}",
                c.name,
                e.message
            );
            // an error is a diagnostic with that code
            assert_eq!(e.to_diagnostic().code, code);
            continue;
        }
        let t = t.unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let s = t.stats();
        // the estimate before the build: exact where every play meets the same branching factors,
        // else within the fixture's factor of the count
        let e = estimate(&c);
        match c.get("estimate") {
            Some("exact") => {
                assert!(e.complete, "{}: {e:?}", c.name);
                assert_eq!(e.nodes, s.nodes as f64, "{}: estimate", c.name);
            }
            Some(f) => {
                let f: f64 = f
                    .strip_prefix("within ")
                    .and_then(|f| f.parse().ok())
                    .unwrap_or_else(|| panic!("{}: estimate: exact | within F", c.name));
                let r = e.nodes / s.nodes as f64;
                assert!(
                    e.complete && r <= f && r >= 1.0 / f,
                    "{}: estimate {} for {} nodes",
                    c.name,
                    e.nodes,
                    s.nodes
                );
            }
            None => {}
        }
        for (key, got) in [
            ("decision_nodes", s.decision_nodes),
            ("chance_nodes", s.chance_nodes),
            ("terminal_nodes", s.terminal_nodes),
            ("infosets", s.infosets),
        ] {
            if let Some(want) = c.num::<usize>(key) {
                assert_eq!(got, want, "{}: {key}", c.name);
            }
        }
        // the unlimited switches discretised by candidate/2 (none unless the fixture says)
        let want: Vec<String> = c
            .get("discretised")
            .map(|d| d.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        assert_eq!(t.discretised, want, "{}: discretised", c.name);
        assert_eq!(
            t.discretised_note().is_some(),
            !want.is_empty(),
            "{}",
            c.name
        );
        // every exported file names each node once and starts with the version-2 rational header
        let text = efg::to_efg(&t);
        assert!(text.starts_with("EFG 2 R "), "{}", c.name);
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with(['p', 'c', 't']))
                .count(),
            s.nodes
        );
        let flat = cfr::Flat::new(&t);
        let exact: Option<(Vec<Q>, Vec<Vec<Q>>)> = match c.get("method") {
            Some("lp") => {
                let sol = lp::solve(&t).unwrap_or_else(|e| panic!("{}: {e}", c.name));
                // the float run first finds the vertex the exact simplex alone ends at: the
                // exact simplex's whole profile, run here or written in the fixture's file
                match c.get("exact_profile") {
                    None => {
                        let exact =
                            lp::solve_exact(&t).unwrap_or_else(|e| panic!("{}: {e}", c.name));
                        assert_eq!(sol.values, exact.values, "{}: values", c.name);
                        assert_eq!(sol.profile, exact.profile, "{}: profile", c.name);
                    }
                    Some(file) => {
                        let text = std::fs::read_to_string(dir().join(file)).unwrap();
                        let mut seen = 0;
                        for line in text.lines().filter(|l| !l.starts_with('#')) {
                            let (head, probs) = line.split_once(" = ").expect("LABEL = ...");
                            let (player, label) = head.split_once(' ').expect("PLAYER LABEL");
                            let i = t
                                .infosets
                                .iter()
                                .position(|is| t.players[is.player] == player && is.label == label)
                                .unwrap_or_else(|| panic!("{}: no information set {head}", c.name));
                            let want: Vec<Q> = probs.split_whitespace().map(q).collect();
                            assert_eq!(sol.profile[i], want, "{}: strategy at {head}", c.name);
                            seen += 1;
                        }
                        assert_eq!(seen, t.infosets.len(), "{}: every information set", c.name);
                    }
                }
                Some((sol.values.to_vec(), sol.profile))
            }
            Some("support") => {
                let g = nfg::strategic(&t).unwrap();
                let e = nfg::support_enumeration(&g).unwrap().remove(0);
                let mut profile = vec![Vec::new(); t.infosets.len()];
                for (p, is) in g.infosets.iter().enumerate() {
                    profile[is.unwrap()] = e.strategies[p].clone();
                }
                Some((e.values.to_vec(), profile))
            }
            Some(m) => panic!("{}: unknown method {m}", c.name),
            None => None,
        };
        let want: Option<Vec<Q>> = c
            .get("values")
            .map(|v| v.split_whitespace().map(q).collect());
        if let Some((values, profile)) = &exact {
            if let Some(want) = &want {
                assert_eq!(values, want, "{}: exact values", c.name);
                assert_eq!(&extensive::exact_values(&t, profile), want, "{}", c.name);
            }
            let fp: cfr::Profile = profile
                .iter()
                .map(|p| p.iter().map(q_to_f64).collect())
                .collect();
            let (nc, _) = br::nash_conv(&flat, &fp);
            assert!(
                nc.abs() < 1e-9,
                "{}: the exact profile has NashConv {nc}",
                c.name
            );
            for line in c.all("strategy") {
                let (head, probs) = line.split_once('=').expect("strategy: ... = ...");
                let head = head.trim();
                let (player, prefix) = head.split_once(' ').unwrap_or((head, ""));
                let i = t
                    .infosets
                    .iter()
                    .position(|is| {
                        t.players[is.player] == player && is.label.starts_with(prefix.trim())
                    })
                    .unwrap_or_else(|| panic!("{}: no information set {head}", c.name));
                let want: Vec<Q> = probs.split_whitespace().map(q).collect();
                assert_eq!(profile[i], want, "{}: strategy at {head}", c.name);
            }
        }
        if let Some(n) = c.num::<u64>("cfr_iterations") {
            let mut solver = cfr::Cfr::new(&flat);
            solver.run(n);
            let avg = solver.average();
            let (nc, _) = br::nash_conv(&flat, &avg);
            let bound: f64 = c.num("nash_conv_below").expect("nash_conv_below");
            assert!(
                nc < bound,
                "{}: NashConv {nc} after {n} CFR+ iterations",
                c.name
            );
            if let (Some(want), Some(tol)) = (&want, c.num::<f64>("value_tolerance")) {
                let v = flat.expected(&avg);
                for (a, b) in v.iter().zip(want) {
                    assert!(
                        (a - q_to_f64(b)).abs() < tol,
                        "{}: CFR+ value {a} vs {b}",
                        c.name
                    );
                }
            }
        }
    }
}

/// The strategic form of the one-shot fixtures, as the `.nfg` file Gambit reads.
#[test]
fn nfg_of_one_shot_games() {
    let c = cases().into_iter().find(|c| c.name == "unequal").unwrap();
    let t = build(&c).unwrap();
    let g = nfg::strategic(&t).unwrap();
    let text = efg::to_nfg(&g);
    assert!(
        text.starts_with("NFG 1 R \"unequal\" { \"[row]\" \"[col]\" }"),
        "{text}"
    );
    assert!(text.contains("{ \"[row,up]\" \"[row,down]\" }"), "{text}");
    // profiles: (up, up), (down, up), (up, down), (down, down); payoffs of row then col
    assert!(text.trim_end().ends_with("3 -3 -2 2 -2 2 1 -1"), "{text}");
    // Kuhn is no one-shot game
    let k = cases().into_iter().find(|c| c.name == "kuhn").unwrap();
    let e = nfg::strategic(&build(&k).unwrap()).unwrap_err();
    assert_eq!(e.code, "E0965");
}
