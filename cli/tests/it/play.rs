//! `sidl play` driven through the real binary with piped standard input.
//!
//! Checks docs/semantics.md §4.4, §7.3.

use std::io::Write;
use std::process::{Command, Stdio};

struct Run {
    out: String,
    err: String,
    code: i32,
}

fn game(name: &str) -> String {
    format!("{}/../games/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn test_game(name: &str) -> String {
    format!("{}/tests/games/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `sidl play --raw ARGS` (the raw terms: the checks of the play loop are written with them).
fn play(args: &[&str], input: &str) -> Run {
    play_as(args, input, true)
}

/// `sidl play ARGS`: the game's labels, if it has any.
fn play_labelled(args: &[&str], input: &str) -> Run {
    play_as(args, input, false)
}

fn play_as(args: &[&str], input: &str, raw: bool) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sidl"))
        .arg("play")
        .args(if raw { &["--raw"][..] } else { &[][..] })
        .args(args)
        .env("SIDL_QUIET", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sidl starts");
    if let Some(mut stdin) = child.stdin.take() {
        // the game may end before it has read everything: a broken pipe is fine
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("sidl runs");
    Run {
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// The text after the first occurrence of `marker` (empty if it is missing).
fn after<'a>(text: &'a str, marker: &str) -> &'a str {
    text.find(marker)
        .map(|i| &text[i + marker.len()..])
        .unwrap_or("")
}

/// The text from `start` up to the next prompt line of `player`.
fn section<'a>(text: &'a str, start: &str, next: &str) -> &'a str {
    let s = after(text, start);
    s.find(next).map(|i| &s[..i]).unwrap_or(s)
}

#[test]
fn nim_two_humans_to_the_end() {
    // 10 -> alice takes 3 -> 7 -> bob 3 -> 4 -> alice 3 -> 1 -> bob takes the last one and loses
    let r = play(&[&game("nim.sidl")], "3\n3\n3\n1\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("players: [alice] human, [bob] human"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("════ hand the terminal to [bob] ════"),
        "{}",
        r.out
    );
    // bob's first view: the pool after alice's move, the accounts, his actions
    let bob = section(&r.out, "── chronon 2 · [bob] ──", "[bob] [main]");
    assert!(bob.contains("you see 1 fact:\n  [bob,7]\n"), "{bob}");
    assert!(bob.contains("accounts: [alice] 0.0, [bob] 0.0"), "{bob}");
    assert!(bob.contains("  1) [1]\n  2) [2]\n  3) [3]\n"), "{bob}");
    assert!(r.out.contains("you see 1 fact:\n  [bob,1]\n"), "{}", r.out);
    assert!(r.out.contains("game over after 4 chronons"), "{}", r.out);
    assert!(
        r.out
            .contains("final accounts:\n  [alice] 1.0\n  [bob] -1.0\nwinner: [alice] (1.0)\n"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("ranking: 1. [alice] 1.0, 2. [bob] -1.0"),
        "{}",
        r.out
    );
}

#[test]
fn one_human_against_a_random_seat() {
    let args = [game("nim.sidl"), "--seat".into(), "[bob]=random".into()];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let input = "1\n".repeat(10);
    let r = play(&args, &input);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("players: [alice] human, [bob] random"),
        "{}",
        r.out
    );
    // one human: no hand-over, and bob is never asked
    assert!(!r.out.contains("hand the terminal"), "{}", r.out);
    assert!(!r.out.contains("[bob] [main]"), "{}", r.out);
    assert!(r.out.contains("game over after"), "{}", r.out);
    assert!(r.out.contains("── final view of [alice] ──"), "{}", r.out);
    assert!(r.out.contains("winner: ["), "{}", r.out);
    // alice sees what bob's moves did: after her first move (10 -> 9) bob left her fewer items
    let second = section(&r.out, "── chronon 3 · [alice] ──", "[alice] [main]");
    assert!(second.contains("  chronon 2:\n    - [bob,9]\n"), "{second}");
    // the seed decides the random seat: the same seed gives the same game
    assert_eq!(play(&args, &input).out, r.out);
}

#[test]
fn bad_input_is_answered_and_the_game_goes_on() {
    let r = play(&[&game("nim.sidl")], "abc\n0\n7\n[1\n[9]\n\n2\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(
            "rejected: abc is not an action of switch [main] (its actions: [1], [2], [3])"
        ),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("there is no choice 0: type a number from 1 to 3"),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("there is no choice 7: type a number from 1 to 3"),
        "{}",
        r.out
    );
    assert!(r.out.contains("cannot read that: "), "{}", r.out);
    assert!(
        r.out
            .contains("rejected: [9] is not an action of switch [main]"),
        "{}",
        r.out
    );
    assert!(r.out.contains("ok: [2] for [main]"), "{}", r.out);
    // the game went on: bob sees the pool after alice's move
    let bob = section(&r.out, "── chronon 2 · [bob] ──", "[bob] [main]");
    assert!(bob.contains("  [bob,8]\n"), "{bob}");
    assert!(
        r.out
            .contains("end of input: the game is left after 1 chronon"),
        "{}",
        r.out
    );
}

#[test]
fn unlimited_bids_are_typed_slot_by_slot() {
    let mut args = vec![game("priceNegotiation.sidl")];
    for p in ["bob", "clara", "david", "seller"] {
        args.push("--seat".into());
        args.push(format!("[{p}]=random"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // a letter, an unbalanced term, a bid below the start price, then 12 (taken as 12.0)
    let r = play(&args, "2\nabc\n[\n5\n2\nfoo(\n12\nwait\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("  2) [alice,<price:double>]"), "{}", r.out);
    assert!(
        r.out.contains(
            "  price (double): a float such as 12.5 (an integer such as 12 is taken as 12.0)\nprice (double)> "
        ),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("abc is not a value of type double"),
        "{}",
        r.out
    );
    assert!(r.out.contains("cannot read that: "), "{}", r.out);
    assert!(
        r.out
            .contains("rejected: [alice,5.0] is not a valid action of switch [alice] now"),
        "{}",
        r.out
    );
    assert!(r.out.contains("ok: [alice,12.0] for [alice]"), "{}", r.out);
    assert!(r.out.contains("  [bid,alice,12.0]\n"), "{}", r.out);
    assert!(
        r.out.contains("[alice] is left to its default"),
        "{}",
        r.out
    );
    // the random bidders bid too (from the game's candidate/2); alice sees her own valuation
    // only (each valuation is hidden from the other players)
    let others = ["bob", "clara", "david"];
    assert!(
        others
            .iter()
            .any(|b| r.out.contains(&format!("+ [bid,{b},"))),
        "{}",
        r.out
    );
    assert!(r.out.contains("  [value,alice,25.0]\n"), "{}", r.out);
    for b in others {
        assert!(!r.out.contains(&format!("[value,{b},")), "{}", r.out);
    }
    assert!(
        r.out.contains("end of input: the game is left"),
        "{}",
        r.out
    );
}

#[test]
fn slot_values_follow_the_engine_rule_typed_whole_or_slot_by_slot() {
    // docs/semantics.md §4.4: [cat, 2] typed as a whole action is held as [cat, 2.0], as in a trace
    // script or the WASM API; an integer slot refuses 2.0
    let slots = format!("{}/../tests/games/slots.sidl", env!("CARGO_MANIFEST_DIR"));
    let r = play(&[&slots], "[cat, 2]\n3\n2.0\n3\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("ok: [cat,2.0] for [cat]"), "{}", r.out);
    assert!(
        r.out.contains("    you chose [cat,2.0] for [cat]\n"),
        "{}",
        r.out
    );
    assert!(r.out.contains("    + [did,[cat,2.0]]\n"), "{}", r.out);
    assert!(r.out.contains("accounts: [cat] 1\n"), "{}", r.out);
    assert!(
        r.out
            .contains("  n (integer): an integer such as 3 (not 3.0)\nn (integer)> "),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("2.0 is not a value of type integer: type an integer such as 3 (not 3.0)"),
        "{}",
        r.out
    );
    assert!(r.out.contains("ok: [count,3] for [cat]"), "{}", r.out);
    // interrupt mode: the submission runs at once, with the same held action
    let r = play(&["--interrupt", &slots], "[cat, 3]\n");
    assert!(
        r.out
            .contains("ok: [cat,3.0] for [cat]; it ran at once (interrupt mode)"),
        "{}",
        r.out
    );
    assert!(r.out.contains("[did,[cat,3.0]]"), "{}", r.out);
}

#[test]
fn undo_restores_the_previous_state() {
    let r = play(&[&game("nim.sidl")], "3\nundo\n1\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let bob = section(&r.out, "── chronon 2 · [bob] ──", "[bob] [main]");
    assert!(bob.contains("  [bob,7]\n"), "{bob}");
    let back = after(&r.out, "undid 1 chronon: back at the start of chronon 1");
    assert!(!back.is_empty(), "{}", r.out);
    // alice is asked again, with the pool as it was
    let alice = section(back, "── chronon 1 · [alice] ──", "[alice] [main]");
    assert!(alice.contains("you see 1 fact:\n  [alice,10]\n"), "{alice}");
    // and her new choice counts
    assert!(
        after(back, "ok: [1] for [main]").contains("  [bob,9]\n"),
        "{back}"
    );
    // nothing to undo at the start
    let r = play(&[&game("nim.sidl")], "undo\n");
    assert!(r.out.contains("nothing to undo"), "{}", r.out);
}

#[test]
fn kuhn_history_never_shows_the_opponents_card() {
    // p1 bets, p2 looks at its history, then input ends before the showdown
    let r = play(
        &[&game("kuhn.sidl"), "--seed", "3"],
        "history\n2\nhistory\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let p1 = section(&r.out, "history of [p1]", "[p1] 1-2/wait>");
    assert!(p1.contains("+ [card,p1,"), "{p1}");
    assert!(!p1.contains("[card,p2,"), "{p1}");
    let p2 = section(&r.out, "history of [p2]", "[p2] 1-2/wait>");
    assert!(p2.contains("chronon 2:"), "{p2}");
    assert!(p2.contains("+ [card,p2,"), "{p2}");
    assert!(p2.contains("+ [turn,p2,facing]"), "{p2}");
    assert!(!p2.contains("[card,p1,"), "{p2}");
    // neither view shows the other card either
    let p1_turn = section(
        &r.out,
        "── chronon 2 · [p1] ──",
        "hand the terminal to [p2]",
    );
    assert!(!p1_turn.contains("[card,p2,"), "{p1_turn}");
    let p2_turn = after(&r.out, "hand the terminal to [p2]");
    assert!(!p2_turn.contains("[card,p1,"), "{p2_turn}");
}

#[test]
fn end_of_input_ends_cleanly() {
    let r = play(&[&game("tictactoe.sidl")], "");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("  [cell,2,2,blank]\n"), "{}", r.out);
    assert!(
        r.out
            .contains("end of input: the game is left after 0 chronons"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("accounts:\n  [xplayer] 0\n  [oplayer] 0\n"),
        "{}",
        r.out
    );
    let r = play(&[&game("nim.sidl")], "quit\n");
    assert_eq!(r.code, 0);
    assert!(r.out.contains("quit after 0 chronons"), "{}", r.out);
}

#[test]
fn interrupt_mode_runs_each_submission_at_once() {
    let r = play(&[&game("nim.sidl"), "--interrupt"], "3\n2\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("interrupt mode: every accepted submission"),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("ok: [3] for [main]; it ran at once (interrupt mode)"),
        "{}",
        r.out
    );
    let bob = section(&r.out, "── chronon 2 · [bob] ──", "[bob] [main]");
    assert!(bob.contains("  [bob,7]\n"), "{bob}");
    assert!(r.out.contains("left after 2 chronons"), "{}", r.out);
}

#[test]
fn runtime_errors_keep_the_state_and_offer_undo() {
    let faulty = test_game("faulty.sidl");
    let r = play(&[&faulty], "1\n2\nwhat\nretry\n2\nundo\n1\n1\n1\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // the engine's diagnostic: code, the clause, the call path as a label
    assert!(r.out.contains("error[E0921]: Type error"), "{}", r.out);
    assert!(r.out.contains("faulty.sidl:12:1"), "{}", r.out);
    assert!(r.out.contains("`do/1` calls `explode/1`"), "{}", r.out);
    assert!(
        r.out.contains("type undo, retry (choose again) or quit"),
        "{}",
        r.out
    );
    let undone = after(&r.out, "undid 1 chronon: back at the start of chronon 1");
    assert!(undone.contains("  [count,0]\n"), "{}", r.out);
    assert!(r.out.contains("winner: [solo] (1)"), "{}", r.out);
    // no human to ask: exit 2
    let r = play(&[&faulty, "--seat", "solo=random", "--seed", "2"], "");
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.out.contains("`do/1` calls `explode/1`"), "{}", r.out);
}

#[test]
fn seats_are_validated() {
    let r = play(&[&game("nim.sidl"), "--seat", "[carol]=random"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.err
            .contains("[carol] is not a player; the players are [alice], [bob]"),
        "{}",
        r.err
    );
    let r = play(&[&game("nim.sidl"), "--seat", "[bob]=alphabeta:2"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("unknown seat kind 'alphabeta:2'"),
        "{}",
        r.err
    );
    assert!(r.err.contains("human, random"), "{}", r.err);
}

#[test]
fn random_seats_stop_at_the_limit() {
    let args = [
        &game("rps.sidl"),
        "--seat",
        "role1=random",
        "--seat",
        "role2=random",
        "--max-chronons",
        "3",
    ];
    let r = play(&args, "");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("chronon 3: accounts: "), "{}", r.out);
    assert!(
        r.out.contains("stopped after 3 chronons (--max-chronons)"),
        "{}",
        r.out
    );
    assert!(r.out.contains("ranking: 1. "), "{}", r.out);
}

/// A human's terminal shows only what its player may see: with any kind of automatic opponent,
/// bob's revisable choice ([chosen, bob, G], hidden from alice until the round closes) never
/// appears; bob's gestures show only through alice's events and view, when they are revealed as
/// [made, Round, bob, G].
#[test]
fn a_human_never_sees_what_the_other_seats_chose() {
    let sealed = test_game("sealed.sidl");
    // alice: paper, rock, scissors in round 1, then wait, wait, paper
    let input = "3\n2\n4\n1\n1\n3\n";
    for kind in ["random", "minimax:1", "mcts:30"] {
        for interrupt in [false, true] {
            let seat = format!("bob={kind}");
            let mut args = vec![sealed.as_str(), "--seat", &seat, "--seed", "3"];
            if interrupt {
                args.push("--interrupt");
            }
            let what = args.join(" ");
            let r = play(&args, input);
            assert_eq!(r.code, 0, "{what}\n{}{}", r.out, r.err);
            assert!(
                r.out.contains("players: [alice] human, [bob] "),
                "{what}\n{}",
                r.out
            );
            for line in r.out.lines() {
                assert!(!line.contains(" plays "), "{what}: {line}\n{}", r.out);
                if line.contains("bob,") {
                    assert!(line.contains("[made,"), "{what}: {line}\n{}", r.out);
                }
            }
            if interrupt {
                // bob moves every turn, so the clock never ticks and nothing is revealed
                assert!(!r.out.contains("bob,"), "{what}\n{}", r.out);
                continue;
            }
            // in normal mode both rounds close: the reveals are alice's events
            assert!(
                r.out.contains("game over after 6 chronons"),
                "{what}\n{}",
                r.out
            );
            let first = r.out.find("+ [made,1,bob,").expect("round 1 is revealed");
            assert!(!r.out[..first].contains("bob,"), "{what}\n{}", r.out);
            assert!(r.out.contains("+ [made,2,bob,"), "{what}\n{}", r.out);
        }
    }
}

#[test]
fn without_a_human_play_stops_at_the_default_limit() {
    // the paper's rps never ends: `sidl play` has --max-chronons 1000 like `sidl run`
    let args = [
        &game("paper/rps.sidl"),
        "--seat",
        "role1=random",
        "--seat",
        "role2=random",
    ];
    let r = play(&args, "");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("stopped after 1000 chronons (--max-chronons)"),
        "{}",
        r.out.lines().last().unwrap_or_default()
    );
    assert!(r.out.contains("chronon 1000: accounts: "));
    assert!(!r.out.contains("chronon 1001"));
    // every move of the automatic seats is shown when nobody plays at the terminal
    assert!(
        r.out.contains("chronon 1: [role1] (random) plays "),
        "{}",
        &r.out[..400]
    );
}

#[test]
fn seats_that_cannot_act_stop_the_game_and_say_why() {
    let typed = test_game("typed.sidl");
    for interrupt in [false, true] {
        let mut args = vec![typed.as_str(), "--seat", "solo=random"];
        if interrupt {
            args.push("--interrupt");
        }
        let r = play(&args, "");
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        assert!(
            r.out
                .contains("stopped after 0 chronons: no seat can act at chronon 1"),
            "{}",
            r.out
        );
        assert!(
            r.out
                .contains("  switch [main] of [solo] (random): it is unlimited"),
            "{}",
            r.out
        );
        assert!(r.out.contains("the game has no candidate/2"), "{}", r.out);
        let rule = if interrupt {
            "interrupt mode has no defaults"
        } else {
            "it has no default/2 action"
        };
        assert!(r.out.contains(rule), "{}", r.out);
    }
    // a human can always act: it is asked (and may type a value)
    let r = play(&[&typed], "1\n30\n");
    assert!(r.out.contains("ok: [add,30] for [main]"), "{}", r.out);
    assert!(!r.out.contains("no seat can act"), "{}", r.out);
}

#[test]
fn a_labelled_game_reads_in_its_labels_and_never_shows_a_hidden_value() {
    // games/tutorial.sidl declares labels (docs/reference.md, Labels); bob's values are hidden
    // from ann (docs/semantics.md §6.1), so no label of them reaches her terminal
    let args = [
        game("tutorial.sidl"),
        "--seat".into(),
        "[bob]=random".into(),
        "--seed".into(),
        "3".into(),
    ];
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = play_labelled(&args, "1\n2\n1\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    for line in [
        "A sealed-bid auction of three items: learn your value, then bid.\n",
        "players: Ann human, Bob random\n",
        "── chronon 2 · Ann ──\n",
        "    + Ann values this item at 20 EUR\n",
        "your role: You bid for each item; the higher bid wins it and earns value minus bid.\n",
        "  item 1 of 3 is on sale\n",
        "accounts: Ann: 0 EUR, Bob: 0 EUR\n",
        "switch Ann's bid: choose an action\n  1) Ann bids 0.00 EUR\n  2) Ann bids 5.00 EUR\n",
        "ok: Ann bids 0.00 EUR for Ann's bid\n",
        "    + Bob bid 20.00 EUR for item 1\n",
        "item 1 went to Bob for 20.00 EUR\n",
        "final accounts:\n  Ann: 0 EUR\n  Bob: 15 EUR\nwinner: Bob (15)\n",
    ] {
        assert!(r.out.contains(line), "missing {line:?} in\n{}", r.out);
    }
    assert!(!r.out.contains("Bob values"), "{}", r.out);
    assert!(!r.out.contains("[ann,bid"), "{}", r.out);
    // another language: label/3 where the game has it, label/2 elsewhere
    args.extend(["--lang", "de"]);
    let de = play_labelled(&args, "1\n2\n1\n");
    assert!(
        de.out.contains("Eine verdeckte Auktion von drei Dingen"),
        "{}",
        de.out
    );
    assert!(de.out.contains("  1) Ann bietet 0.00 EUR\n"), "{}", de.out);
    assert!(de.out.contains("  item 1 of 3 is on sale\n"), "{}", de.out);
}

#[test]
fn two_humans_read_the_ultimatum_game_in_german() {
    let r = play_labelled(&[&game("ultimatum.sidl"), "--lang", "de"], "3\n1\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    for line in [
        "players: Anbieter human, Empfänger human\n",
        "════ hand the terminal to Empfänger ════\n",
        "  3) 2 von 5 anbieten\n",
        "ok: 2 von 5 anbieten for das Angebot\n",
        "    + das Angebot ist 2 von 5\n",
        "  1) annehmen\n  2) ablehnen\n",
        // nothing is hidden in this game: the shared end screen reads the game's result
        "Einigung: der Empfänger bekommt 2, der Anbieter 3\nfinal accounts:\n  Anbieter: 3\n  Empfänger: 2\n",
    ] {
        assert!(r.out.contains(line), "missing {line:?} in\n{}", r.out);
    }
}
