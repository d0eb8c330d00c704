//! Every shipped game reads well (issue 20, docs/reference.md "Labels" and "Layouts"): each game
//! of `games/`, `games/econ/` and `games/paper/` declares labels (a description, every player's
//! label, every fact of its first state and every action of its first legal switches labelled, in
//! its default language and in each language it declares) and the layout written for it in
//! `engine/tests/present/shipped.txt`. The list must name exactly the shipped games, so a new
//! game needs a line there (and its labels). Random play (seeds 1 to 3, as `sidl run` plays) then
//! checks that every later state and every chronon's events read in labels too.

use sidl_engine::game::events::Words;
use sidl_engine::game::layout::{layout, Part};
use sidl_engine::game::present::{self, languages, Presenter, Thing};
use sidl_engine::game::{Actions, Game, Session, Settings};
use sidl_engine::seats::{self, Round, Seat};
use sidl_engine::term::Term;
use sidl_engine::write::writeq;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate lives in the repository root")
        .to_path_buf()
}

/// The `.sidl` files of the shipped game folders, as repository paths.
pub(crate) fn shipped() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for dir in ["games", "games/econ", "games/paper"] {
        for e in std::fs::read_dir(repo().join(dir)).expect("a game folder") {
            let p = e.expect("an entry").path();
            if p.extension().is_some_and(|x| x == "sidl") {
                let name = p.file_name().expect("a name").to_string_lossy().to_string();
                out.insert(format!("{dir}/{name}"));
            }
        }
    }
    out
}

/// A line of the list: the path, the languages of its `label/3` clauses, the kinds of its layout's
/// parts in the first state (for the designer), whether a step keeps the event lines.
struct Expect {
    path: String,
    languages: Vec<String>,
    parts: Vec<String>,
    /// LINES: `kept` (true) or `rebuilt`.
    kept: bool,
}

/// Per shipped game, the fourth column of the list: whether a step keeps the event lines of the
/// earlier chronons (`kept`) or builds every line again (`rebuilt`: a label rule an event line
/// asks reads the state; checked by engine/tests/it/present.rs).
pub(crate) fn lines_kept() -> Vec<(String, bool)> {
    expectations()
        .into_iter()
        .map(|e| (e.path, e.kept))
        .collect()
}

fn expectations() -> Vec<Expect> {
    let text = std::fs::read_to_string(repo().join("engine/tests/present/shipped.txt"))
        .expect("engine/tests/present/shipped.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(cols.len(), 4, "PATH LANGUAGES PARTS LINES: {l}");
            let list = |c: &str| -> Vec<String> {
                if c == "-" {
                    Vec::new()
                } else {
                    c.split(',').map(str::to_string).collect()
                }
            };
            let kept = match cols[3] {
                "kept" => true,
                "rebuilt" => false,
                _ => panic!("LINES is kept or rebuilt: {l}"),
            };
            Expect {
                path: cols[0].to_string(),
                languages: list(cols[1]),
                parts: list(cols[2]),
                kept,
            }
        })
        .collect()
}

fn kind(p: &Part) -> &'static str {
    match p {
        Part::Board { .. } => "board",
        Part::Table { .. } => "table",
        Part::Hand { .. } => "hand",
    }
}

#[test]
fn every_shipped_game_declares_labels_and_its_layout() {
    let want = expectations();
    let listed: BTreeSet<String> = want.iter().map(|e| e.path.clone()).collect();
    assert_eq!(
        listed,
        shipped(),
        "engine/tests/present/shipped.txt lists every shipped game, no other"
    );
    let mut problems: Vec<String> = Vec::new();
    for e in &want {
        let src = std::fs::read_to_string(repo().join(&e.path)).expect("the game");
        let game = Arc::new(Game::load(&src).expect("loads").0);
        if !present::has_labels(&game) {
            problems.push(format!("{}: no label/2 or label/3", e.path));
            continue;
        }
        if languages(&game) != e.languages {
            problems.push(format!(
                "{}: languages {:?}, the list says {:?}",
                e.path,
                languages(&game),
                e.languages
            ));
        }
        let mut s = Session::new(game.clone(), 1, Settings::default()).expect("starts");
        let unlimited: Vec<Term> = s
            .switches()
            .expect("switches")
            .iter()
            .filter(|sw| matches!(sw.actions, Actions::Unlimited(_)))
            .map(|sw| sw.id.clone())
            .collect();
        for lang in std::iter::once(None).chain(e.languages.iter().map(|l| Some(l.as_str()))) {
            let p = present::present(&mut s, None, lang, false).expect("presents");
            let at = format!("{} ({})", e.path, lang.unwrap_or("default"));
            if p.description.is_none() {
                problems.push(format!("{at}: no label(game, _)"));
            }
            for l in p.players.iter().chain(&p.facts).chain(&p.accounts) {
                if !l.labelled {
                    problems.push(format!("{at}: no label for {}", l.text));
                }
            }
            for sw in &p.switches {
                if !sw.switch.labelled {
                    problems.push(format!("{at}: no label for switch {}", sw.switch.text));
                }
                // (an unlimited switch's templates keep their raw text)
                if unlimited.contains(&sw.switch.term) {
                    continue;
                }
                for a in sw.actions.iter().filter(|a| !a.labelled) {
                    problems.push(format!("{at}: no label for action {}", a.text));
                }
            }
        }
        let l = layout(&mut s, None, None).expect("layout");
        let mut kinds: Vec<String> = Vec::new();
        for p in &l.parts {
            if !kinds.iter().any(|k| k == kind(p)) {
                kinds.push(kind(p).to_string());
            }
        }
        if kinds != e.parts || !l.errors.is_empty() {
            problems.push(format!(
                "{}: layout parts {kinds:?} (errors {:?}), the list says {:?}",
                e.path, l.errors, e.parts
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Seeds and chronons of the random games each shipped game plays in
/// [`every_state_of_random_play_reads_in_labels`].
const SEEDS: [u64; 3] = [1, 2, 3];
const CHRONONS: u64 = 60;

/// The words of a chronon's events, each asked of a [`Presenter`]; a thing without a label is
/// noted in `missing` (the text is the raw term, as the tools would show it).
struct Check<'a> {
    pr: &'a mut Presenter,
    missing: Vec<String>,
}

/// Does a label's text show a raw word, such as `[r]` from `label(player([r]))` of a term that is
/// no player (a nested label falls back to the raw term)?
fn shows_raw(text: &str) -> bool {
    text.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'[' && w[1].is_ascii_lowercase())
}

impl Check<'_> {
    fn ask(&mut self, thing: Thing) -> String {
        match self.pr.label(&thing) {
            Some(t) if shows_raw(&t) => {
                self.missing.push(format!(
                    "{} (its label {t:?} shows a raw word)",
                    thing.raw()
                ));
                t
            }
            Some(t) => t,
            None => {
                let raw = thing.raw();
                self.missing.push(raw.clone());
                raw
            }
        }
    }
}

impl Words for &mut Check<'_> {
    fn player(&mut self, p: &Term) -> String {
        self.ask(Thing::Player(p.clone()))
    }
    fn switch(&mut self, s: &Term) -> String {
        self.ask(Thing::Switch(s.clone()))
    }
    fn action(&mut self, switch: &Term, action: &Term) -> String {
        self.ask(Thing::Action {
            switch: switch.clone(),
            action: action.clone(),
        })
    }
    fn fact(&mut self, f: &Term) -> String {
        self.ask(Thing::Fact(f.clone()))
    }
    fn amount(&mut self, a: &Term) -> String {
        writeq(a, None)
    }
}

/// What the designer reads of `s`'s current state in `lang` without a label: facts, legal
/// switches and their finite actions.
fn unlabelled_state(s: &mut Session, lang: Option<&str>) -> Vec<String> {
    let p = present::present(s, None, lang, false).expect("presents");
    let mut out: Vec<String> = Vec::new();
    for l in &p.facts {
        if !l.labelled {
            out.push(format!("fact {}", l.text));
        } else if shows_raw(&l.text) {
            out.push(format!(
                "fact {} (its label {:?} shows a raw word)",
                writeq(&l.term, None),
                l.text
            ));
        }
    }
    let unlimited: Vec<Term> = s
        .switches()
        .expect("switches")
        .iter()
        .filter(|sw| matches!(sw.actions, Actions::Unlimited(_)))
        .map(|sw| sw.id.clone())
        .collect();
    for sw in &p.switches {
        if !sw.switch.labelled || shows_raw(&sw.switch.text) {
            out.push(format!("switch {}", sw.switch.text));
        }
        if unlimited.contains(&sw.switch.term) {
            continue;
        }
        for a in sw
            .actions
            .iter()
            .filter(|a| !a.labelled || shows_raw(&a.text))
        {
            out.push(format!("action {} of {}", a.text, sw.switch.text));
        }
    }
    out
}

/// Every shipped game, played at random (every seat [`Seat::Random`], driven by
/// [`seats::round`] as `sidl run` does) for seeds 1 to 3 and at most [`CHRONONS`] chronons, reads
/// in labels for the designer, in its default language and in every language it declares: every
/// fact of every visited state, every legal switch and its finite actions, and every word of every
/// chronon's events (switch, action, created and deleted fact, player of an account change); and
/// no label shows a raw word inside its text (a `label(Thing)` part that fell back).
#[test]
fn every_state_of_random_play_reads_in_labels() {
    let mut problems: Vec<String> = Vec::new();
    for e in &expectations() {
        let src = std::fs::read_to_string(repo().join(&e.path)).expect("the game");
        let game = Arc::new(Game::load(&src).expect("loads").0);
        let langs: Vec<Option<&str>> = std::iter::once(None)
            .chain(e.languages.iter().map(|l| Some(l.as_str())))
            .collect();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for seed in SEEDS {
            let mut s = Session::new(game.clone(), seed, Settings::default()).expect("starts");
            let seats = vec![Seat::Random; s.players().len()];
            let mut note = |at: String, what: String, problems: &mut Vec<String>| {
                // one line per game, language and term (the first chronon it shows in)
                if seen.insert(format!("{}{what}", at.split(" seed").next().unwrap_or(""))) {
                    problems.push(format!("{at}: no label for {what}"));
                }
            };
            loop {
                let chronon = s.chronon();
                for lang in &langs {
                    let at = format!(
                        "{} ({}) seed {seed} chronon {chronon}",
                        e.path,
                        lang.unwrap_or("default")
                    );
                    for what in unlabelled_state(&mut s, *lang) {
                        note(at.clone(), what, &mut problems);
                    }
                }
                if s.is_terminal().expect("terminal") || chronon >= CHRONONS {
                    break;
                }
                let before = s.history().len();
                match seats::round(&mut s, &seats, CHRONONS).expect("plays") {
                    Round::Ran { .. } => {}
                    Round::Idle(_) => break,
                }
                for lang in &langs {
                    let mut pr = Presenter::new(&mut s, None, *lang).expect("labels");
                    let mut check = Check {
                        pr: &mut pr,
                        missing: Vec::new(),
                    };
                    for (i, rec) in s.history().iter().enumerate().skip(before) {
                        for ev in &rec.events {
                            ev.text(&mut check);
                        }
                        let at = format!(
                            "{} ({}) seed {seed} chronon {}",
                            e.path,
                            lang.unwrap_or("default"),
                            i + 1
                        );
                        for what in std::mem::take(&mut check.missing) {
                            note(at.clone(), format!("event word {what}"), &mut problems);
                        }
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// docs/tutorial.md "Step 7: labels" adds labels to the tutorial's auction: every line of its
/// ```prolog block is a line of `games/tutorial.sidl`, whose labels the shipped-games list checks.
#[test]
fn the_tutorial_step_on_labels_is_the_tutorial_game() {
    let doc = std::fs::read_to_string(repo().join("docs/tutorial.md")).expect("the tutorial");
    let step = doc
        .split("## Step 7: labels")
        .nth(1)
        .expect("a step on labels")
        .split("\n## ")
        .next()
        .expect("its text");
    let block = step
        .split("```prolog\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a prolog block");
    let game = std::fs::read_to_string(repo().join("games/tutorial.sidl")).expect("the game");
    let lines: BTreeSet<&str> = game.lines().map(str::trim_end).collect();
    let mut n = 0;
    for l in block.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            lines.contains(l.trim_end()),
            "not in games/tutorial.sidl: {l}"
        );
        n += 1;
    }
    assert!(n >= 8, "the block has the label rules");
}
