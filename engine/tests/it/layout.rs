//! Layouts (`game::layout`, docs/reference.md "Layouts"): a hidden piece is never placed on
//! another player's board or in a hand it may not see (docs/semantics.md §6.1), the parts as the
//! game declares them, the deprecated `% board:` hint converted to a board by the same rule, and
//! the text form `sidl play` prints.

use sidl_engine::game::layout::{layout, Layout, Part};
use sidl_engine::game::{Game, Session, Settings};
use sidl_engine::term::Term;
use std::sync::Arc;

fn session(src: &str) -> Session {
    let game = Arc::new(Game::load(src).expect("loads").0);
    Session::new(game, 1, Settings::default()).expect("session")
}

fn fog() -> String {
    let path = format!("{}/tests/layout/fog.sidl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("fixture")
}

fn of(s: &mut Session, viewer: Option<&str>) -> Layout {
    let v = viewer.map(|p| Term::list(vec![Term::atom(p)]));
    layout(s, v.as_ref(), None).expect("layout")
}

#[test]
fn a_hidden_piece_is_never_placed_for_a_player_who_may_not_see_it() {
    // docs/semantics.md §6.1: the layout is built from the viewer's view only
    let mut s = session(&fog());
    let ann = of(&mut s, Some("ann"));
    let bob = of(&mut s, Some("bob"));
    let designer = of(&mut s, None);
    assert!(
        ann.errors.is_empty() && bob.errors.is_empty(),
        "{:?}",
        ann.errors
    );
    assert_eq!(
        ann.text(),
        "  1 2 3\n2 · · ·\n1 A · ·\n  1 2 3\n2 · · ·\n1 · ● ·\nhand of Ann: ace of ann\nScores\n  Ann  3\n",
    );
    assert_eq!(
        bob.text(),
        "  1 2 3\n2 · · B\n1 · · ·\n  1 2 3\n2 · · ·\n1 · ● ·\nhand of [bob]: two\nScores\n  Ann  3\n",
    );
    assert_eq!(
        designer.text(),
        "  1 2 3\n2 · · B\n1 A · ·\n  1 2 3\n2 · · ·\n1 · ● ·\nhand of Ann: ace of ann\nhand of [bob]: two\nScores\n  Ann  3\n",
    );
    // nothing of the other player's scout or card reaches a viewer, in any field
    let json = |l: &Layout| serde_json::to_string(l).expect("json");
    assert!(!json(&ann).contains("bob.svg") && !json(&ann).contains("two"));
    assert!(!json(&bob).contains("ace") && !json(&bob).contains("\"A\""));
    assert!(json(&designer).contains("\"image\":\"img/bob.svg\""));
    // `facts` shows what no other part shows: here nothing is left
    assert!(!designer
        .parts
        .iter()
        .any(|p| matches!(p, Part::Table { title, .. } if title == "flag")));
}

#[test]
fn the_layout_follows_the_state() {
    let mut s = session(&fog());
    let l = |a: &str| Term::list(vec![Term::atom(a)]);
    s.submit(&l("ann"), &l("move"), &l("wait"))
        .expect("submit")
        .expect("accepted");
    s.run_chronon().expect("chronon");
    let ann = of(&mut s, Some("ann"));
    let Part::Board { squares, .. } = &ann.parts[1] else {
        panic!("a board")
    };
    assert!(
        squares.iter().flatten().all(Option::is_none),
        "the flag is gone"
    );
}

#[test]
fn the_board_hint_is_a_board_part() {
    let src = "/* t\n   board: [cell, Y, X, M] x 1..2 y 2..1 blank blank */\ngame(t).\n\
               init([cell, 1, 1, x]).\ninit([cell, 1, 2, blank]).\ninit([cell, 2, 2, o]).\ninit([p], 0).\n";
    let mut s = session(src);
    assert_eq!(of(&mut s, None).text(), "  1 2\n2 · o\n1 x ·\n");
    // a layout/1 rule replaces the hint
    let mut s = session(&format!("{src}layout(facts).\n"));
    assert_eq!(
        of(&mut s, None).text(),
        "cell\n  1  1  x\n  1  2  blank\n  2  2  o\n"
    );
}

#[test]
fn bad_parts_and_throwing_rules_leave_parts_out_never_an_error() {
    let src = "game(t).\ninit([a, 1]).\ninit([p], 0).\n\
               layout(board([a, X], X-[1], _-[1])).\nlayout(grid).\n\
               layout(table(t, [a, N], [N])).\npiece(_, image('../x.png')).\n";
    let mut s = session(src);
    let l = of(&mut s, None);
    assert_eq!(l.text(), "t\n  1\n");
    assert_eq!(l.errors.len(), 2, "{:?}", l.errors);
    let mut s = session("game(t).\ninit([p], 0).\nlayout(facts) :- throw(x).\n");
    let l = of(&mut s, None);
    assert!(
        l.parts.is_empty() && l.errors[0].contains("layout/1"),
        "{:?}",
        l.errors
    );
}

#[test]
fn raw_terms_draw_the_same_parts_without_labels_or_drawings() {
    // the designer's "labels / raw terms" toggle (docs/reference.md "Layouts", "Raw terms")
    use sidl_engine::game::layout::{layout_with, Texts};
    let src = "game(t).\ninit([cell, 1, 1, x]).\ninit([cell, 1, 2, blank]).\ninit([card, p, k]).\n\
               init([p], 0).\nlayout(board([cell, Y, X, _], X-[1, 2], Y-[1])).\n\
               layout(hand([card, P, C], [P], C)).\nlayout(table('Cards', [card, P, C], [label(player([P])), C])).\n\
               piece([cell, _, _, blank], none).\npiece([cell, _, _, x], \"X\").\npiece([card, _, k], \"K\").\n\
               label(player([p]), 'Pat').\nlabel(fact([cell, _, _, M]), ['mark ', M]).\n";
    let mut s = session(src);
    let labels = of(&mut s, None);
    assert_eq!(
        labels.text(),
        "  1 2\n1 X ·\nhand of Pat: K\nCards\n  Pat  k\n"
    );
    let raw = layout_with(&mut s, None, None, Texts::Raw).expect("layout");
    // the same squares (the blank cell is still not drawn), raw texts and titles
    assert_eq!(
        raw.text(),
        "  1 2\n1 x ·\nhand of [p]: k\nCards\n  [p]  k\n"
    );
    let Part::Board { squares, .. } = &raw.parts[0] else {
        panic!("a board")
    };
    assert_eq!(squares[0][0].as_ref().expect("x").title, "[cell,1,1,x]");
    let Part::Board { squares, .. } = &labels.parts[0] else {
        panic!("a board")
    };
    assert_eq!(squares[0][0].as_ref().expect("x").title, "mark x");
}
