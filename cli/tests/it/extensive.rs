//! `sidl export` and `sidl solve` (docs/analysis.md) from the command line. Drives the real binary.

use crate::common;

fn sidl(args: &[&str]) -> (String, String, i32) {
    common::sidl_in("..", args)
}

/// The JSON object on the last line of stdout.
fn last_json(out: &str) -> serde_json::Value {
    serde_json::from_str(out.lines().last().expect("a line")).expect("JSON")
}

#[test]
fn solve_kuhn_exactly_as_json() {
    let (out, err, code) = sidl(&["solve", "games/kuhn.sidl", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v = last_json(&out);
    assert_eq!(v["method"], "lp");
    assert_eq!(v["exact_values"]["[p1]"], "-1/18");
    assert_eq!(v["exact_values"]["[p2]"], "1/18");
    assert!((v["values"]["[p1]"].as_f64().unwrap() + 1.0 / 18.0).abs() < 1e-12);
    assert_eq!(v["nodes"], 55);
    assert_eq!(v["infosets"], 12);
    assert!(v["nash_conv"].as_f64().unwrap().abs() < 1e-9);
    // the players in player order
    let text = out.lines().last().unwrap();
    assert!(text.find("\"[p1]\"").unwrap() < text.find("\"[p2]\"").unwrap());
    let s = &v["strategies"].as_array().unwrap()[0];
    assert_eq!(s["player"], "[p1]");
    assert_eq!(s["actions"][0]["action"], "[p1,check]");
    // the game's labels next to the canonical keys (docs/analysis.md): the information set as
    // p1 reads it (its own card, never p2's)
    assert_eq!(s["player_text"], "Player 1");
    assert_eq!(s["actions"][0]["text"], "Player 1 checks");
    assert_eq!(
        s["label"],
        "[card,p1,j] [stake,p1,1] [stake,p2,1] [turn,p1,open]"
    );
    assert_eq!(
        s["text"],
        "Player 1 holds the Jack; Player 1 has 1 in the pot; Player 2 has 1 in the pot; Player 1 may check or bet"
    );
    for s in v["strategies"].as_array().unwrap() {
        let other = if s["player"] == "[p1]" {
            "Player 2 holds"
        } else {
            "Player 1 holds"
        };
        assert!(!s["text"].as_str().unwrap().contains(other), "{s}");
    }
    for s in v["strategies"].as_array().unwrap() {
        let total: f64 = s["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["probability"].as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{s}");
    }
}

#[test]
fn solve_with_cfr_prints_a_table() {
    let (out, err, code) = sidl(&[
        "solve",
        "games/pennies.sidl",
        "--method",
        "cfr",
        "--iterations",
        "2000",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("pennies: 7 nodes (3 decision, 0 chance, 4 terminal), 2 information sets, 2 players, zero-sum"), "{out}");
    assert!(out.contains("method: cfr+ (2000 iterations)"), "{out}");
    // the game's labels name the actions (docs/reference.md "Labels")
    assert!(
        out.contains(&format!("{:<24} {:>8.4}", "heads", 0.5)),
        "{out}"
    );
    assert!(out.contains("  Matcher at show your coin\n"), "{out}");
    assert!(out.contains("NashConv: 0.0000"), "{out}");
    assert!(
        out.contains("(an equilibrium: no player gains by deviating alone)"),
        "{out}"
    );
}

/// NashConv is read in words (the engine's `verdict`): a zero-sum game after few CFR+ iterations is
/// "not yet" an equilibrium, a general-sum game's profile has no convergence guarantee, and a small
/// NashConv is read against the payoffs' scale.
#[test]
fn solve_says_what_nashconv_means() {
    let solve = |game: &str, iterations: &str| {
        let (out, err, code) =
            sidl(&["solve", game, "--method", "cfr", "--iterations", iterations]);
        assert_eq!(code, 0, "{out}{err}");
        out.lines()
            .find(|l| l.starts_with("NashConv: "))
            .unwrap_or_else(|| panic!("no NashConv line: {out}"))
            .to_string()
    };
    let kuhn = solve("games/kuhn.sidl", "3");
    assert!(kuhn.contains("(not yet an equilibrium: "), "{kuhn}");
    assert!(kuhn.contains("more iterations bring it down"), "{kuhn}");
    let three = solve("games/econ/volunteer.sidl", "3");
    assert!(three.contains("(not an equilibrium: "), "{three}");
    assert!(three.contains("need not converge"), "{three}");
    // NashConv is read against the payoffs' scale: the trust game's payoffs are in the hundreds,
    // and 10 000 iterations leave a NashConv of a few millionths, an ε-equilibrium; 30 leave more
    let trust = solve("games/econ/trust.sidl", "10000");
    assert!(trust.contains("(an ε-equilibrium: "), "{trust}");
    let early = solve("games/econ/trust.sidl", "30");
    assert!(early.contains("(not an equilibrium: "), "{early}");
}

#[test]
fn export_efg_to_a_file() {
    let dir = std::env::temp_dir().join(format!("sidl-efg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kuhn.efg");
    let (out, err, code) = sidl(&[
        "export",
        "games/kuhn.sidl",
        "--efg",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("EFG 2 R \"kuhn\" { \"[p1]\" \"[p2]\" }"),
        "{text}"
    );
    assert!(
        text.contains("c \"\" 1 \"[deal]\" { \"[deal,j,q]\" 1/6 "),
        "{text}"
    );
    assert!(text.contains("p \"\" 1 1 \"[card,p1,j] [stake,p1,1] [stake,p2,1] [turn,p1,open]\" { \"[p1,check]\" \"[p1,bet]\" } 0"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("t ")).count(), 30);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_nfg_of_a_one_shot_game_and_refuses_others() {
    let (out, err, code) = sidl(&["export", "games/pennies.sidl", "--nfg"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("NFG 1 R \"pennies\" { \"[matcher]\" \"[mismatcher]\" }"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("1 -1 -1 1 -1 1 1 -1"), "{out}");
    let (out, err, code) = sidl(&["export", "games/kuhn.sidl", "--nfg"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("E0965"), "{err}");
}

/// Bad input: each a clear error with its code, exit 2, never a hang.
#[test]
fn errors_name_their_cause() {
    for (game, extra, code, text) in [
        (
            "games/rps.sidl",
            "1000",
            "E0960",
            "more than the node budget of 1000:",
        ),
        // the estimate is under 20 times the budget: the build stops at the budget
        (
            "games/leduc.sidl",
            "9000",
            "E0960",
            "more than 9000 nodes (the node budget",
        ),
        (
            "engine/tests/extensive/unlimited.sidl",
            "1000000",
            "E0961",
            "the switch [bid] is unlimited",
        ),
        (
            "engine/tests/extensive/no_payoff.sidl",
            "1000000",
            "E0962",
            "no payoff/2",
        ),
        (
            "engine/tests/extensive/forever.sidl",
            "1000000",
            "E0963",
            "may never end",
        ),
    ] {
        let (out, err, c) = sidl(&["solve", game, "--max-nodes", extra]);
        assert_eq!(c, 2, "{game}: {out}{err}");
        assert!(err.contains(code) && err.contains(text), "{game}: {err}");
    }
    let (out, err, c) = sidl(&["solve", "games/firstprice.sidl", "--method", "lp"]);
    assert_eq!(c, 2, "{out}{err}");
    assert!(
        err.contains("E0965") && err.contains("not zero-sum"),
        "{err}"
    );
}

/// `--exploit`: a best response against an AI seat gains at least what it gains against the
/// equilibrium (Kuhn: minimax:3 as p1 concedes 1/9 per game to a best-responding p2).
#[test]
fn exploit_an_ai_seat() {
    let (out, err, code) = sidl(&[
        "solve",
        "games/kuhn.sidl",
        "--exploit",
        "p1=minimax:3",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v = last_json(&out);
    let x = &v["exploit"];
    assert_eq!(x["player"], "[p1]");
    assert_eq!(x["spec"], "minimax:3");
    let gain = x["gain"].as_f64().unwrap();
    assert!((gain - 1.0 / 9.0).abs() < 1e-9, "{x}");
    assert_eq!(x["responses"][0][0], "[p2]");
    let (out, err, code) = sidl(&["solve", "games/kuhn.sidl", "--exploit", "p3=random"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("the players are [p1], [p2]"), "{err}");
}

/// The playground's "Download .efg" is compared with this file in the browser test
/// (tests/e2e/analyse.test.mjs): here, the file is what `sidl export --efg` writes.
#[test]
fn export_efg_is_the_playgrounds_fixture() {
    let (out, err, code) = sidl(&["export", "games/kuhn.sidl", "--efg"]);
    assert_eq!(code, 0, "{err}");
    let fixture = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/e2e/fixtures/kuhn.efg"),
    )
    .unwrap();
    assert_eq!(out, fixture);
}

/// An unlimited switch discretised by `candidate/2`: `sidl solve` and `sidl export` say that the
/// analysis is of the discretised game (human text, stderr of the export, JSON field); a game
/// without unlimited switches says nothing of it.
#[test]
fn solve_and_export_say_which_unlimited_switches_candidates_discretise() {
    let game = "engine/tests/extensive/unlimited_candidates.sidl";
    let note = "note: the unlimited switch [bid] takes its actions from candidate/2";
    let (out, err, code) = sidl(&["solve", game]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(note), "{out}");
    let (out, err, code) = sidl(&["solve", game, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(last_json(&out)["discretised"], serde_json::json!(["[bid]"]));
    let (out, err, code) = sidl(&["export", game]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("EFG 2 R "), "{out}");
    assert!(err.contains(note), "{err}");
    let (out, err, code) = sidl(&["solve", "games/kuhn.sidl"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("candidate/2"), "{out}");
    let (out, _, _) = sidl(&["solve", "games/kuhn.sidl", "--format", "json"]);
    assert_eq!(last_json(&out)["discretised"], serde_json::json!([]));
}

/// With the game's labels the note names the discretised switches as the rest of the output does
/// (games/econ/trust.sidl: `label(switch([trustee]), 'the return')`); the JSON keeps the terms.
#[test]
fn solve_note_names_discretised_switches_by_their_labels() {
    let game = "games/econ/trust.sidl";
    let (out, err, code) = sidl(&["solve", game]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("note: the unlimited switches the return, the transfer take their actions from candidate/2"),
        "{out}"
    );
    let (out, err, code) = sidl(&["solve", game, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        last_json(&out)["discretised"],
        serde_json::json!(["[trustee]", "[trustor]"])
    );
}

/// A tree far over the node budget stops before the build with E0960 and the estimate (Knuth's,
/// docs/analysis.md "The estimate before the build"): the six traders of the double auction, the
/// guessing game; the export says the same.
#[test]
fn solve_and_export_stop_at_once_on_a_game_too_big_to_unroll() {
    for game in [
        "games/econ/double_auction.sidl",
        "games/econ/guess_two_thirds.sidl",
    ] {
        for cmd in ["solve", "export"] {
            let (out, err, code) = sidl(&[cmd, game]);
            assert_eq!(code, 2, "{game}: {out}{err}");
            assert!(
                err.contains("error[E0960]: the extensive form would have about ")
                    && err.contains(
                        " nodes (estimated from 16 random plays before building), more than the node budget of 1000000: give a larger budget (--max-nodes)"
                    ),
                "{game}: {err}"
            );
        }
    }
    // a larger budget moves the bar: the estimate is compared with 20 times the budget
    let (_, err, code) = sidl(&["solve", "games/rps.sidl", "--max-nodes", "100000"]);
    assert_eq!(code, 2);
    assert!(err.contains("more than the node budget of 100000"), "{err}");
}
