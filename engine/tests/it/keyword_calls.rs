//! `fact/1`, `create/1`, `delete/1`, `tocreate/1` and `todelete/1` goals answered from their
//! list's elements (`Host::call_list`, docs/performance.md "Keyword calls from the clause" and
//! "Built-ins, arithmetic and keyword calls") give the answers of the same call with the list
//! built: the fixtures in `tests/keyword_calls/` (see the comment at the top of each) list a fast
//! goal, the general one and the answers both must give, in order.

use sidl_engine::game::{Game, Session, Settings};
use sidl_engine::term::Term;
use std::path::Path;
use std::sync::Arc;

#[test]
fn short_list_calls_answer_as_the_general_path() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/keyword_calls");
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the fixture directory") {
        let path = entry.expect("an entry").path();
        let src = std::fs::read_to_string(&path).expect("a fixture");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let game = match Game::load(&src) {
            Ok((g, _)) => Arc::new(g),
            Err(d) => panic!("{name} does not load: {d:?}"),
        };
        for line in src.lines() {
            let Some(case) = line.strip_prefix("%= ") else {
                continue;
            };
            let t = sidl_engine::syntax::parse_term(&format!("q({case})"))
                .unwrap_or_else(|e| panic!("{name}: {case}: {e:?}"))
                .term;
            let Term::Compound(_, args) = &t else {
                panic!("{name}: {case}: not a case");
            };
            let [template, fast, slow, want] = &args[..] else {
                panic!("{name}: {case}: four arguments expected");
            };
            let want: Vec<Term> = match want.as_list() {
                Some(l) => l.into_iter().cloned().collect(),
                None if *want == Term::atom("[]") => Vec::new(),
                None => panic!("{name}: {case}: answers are a list"),
            };
            for goal in [fast, slow] {
                let mut s = Session::new(game.clone(), 0, Settings::default())
                    .unwrap_or_else(|e| panic!("{name}: no session: {e}"));
                match s.query_state(goal, template, 100, "query") {
                    Ok(got) if got == want => {}
                    Ok(got) => {
                        failures.push(format!("{name}: {goal:?}: expected {want:?}, got {got:?}"))
                    }
                    Err(e) => failures.push(format!("{name}: {goal:?}: error {e}")),
                }
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 10, "{checked} cases");
}
