//! The editor features of `sidl_engine::ide`, driven by the fixture files `tests/ide/*.sidl`.
//!
//! A fixture is a SIDL text with expectations in comment lines. A marker line `%   ^ CHECK` points
//! (its `^`, counted in characters) at a column of the nearest line above it that is not a marker
//! line; `%! CHECK` lines are about the whole file. Positions in expectations are `LINE:COL`, 1-based,
//! COL in characters. Checks:
//!
//! - `^ hover contains TEXT` / `^ hover none`
//! - `^ definition L:C ...` (the starts of the definition spans; none for no definition)
//! - `^ references L:C ...` (with the definitions)
//! - `^ rename NEW L:C ...` (the starts of the edits) / `^ rename NEW error TEXT`
//! - `^ complete head|body|none has A,B lacks C,D` (item labels; `has`/`lacks` optional)
//! - `^ complete-first LABEL` (the first item by rank, then label)
//! - `^ token CLASS` (the class of the semantic token at the cursor: keyword, predicate, variable,
//!   atom, number, string, comment; `CLASS+def`, `CLASS+lib` for the modifiers)
//! - `^ action TITLE => LINE` (apply the first code action at the cursor whose title contains TITLE;
//!   the marked line then reads LINE; with `=>>`, the last line but one)
//! - `%! symbols NAME[N] ...` (the outline: `name/arity` and clause count, in order)
//! - `%! words A,B` (the first words of facts)

use sidl_engine::diag::{ColumnUnit, LineCol, LineIndex, Span};
use sidl_engine::ide::completion::{completions, Position};
use sidl_engine::ide::semantic_tokens::{semantic_tokens, TokenClass};
use sidl_engine::ide::{code_actions, hover, navigation, rename, symbols, Document};
use std::path::Path;

struct Ctx<'a> {
    doc: &'a Document,
    index: LineIndex,
}

impl Ctx<'_> {
    fn pos(&self, s: Span) -> String {
        let lc = self
            .index
            .line_col(&self.doc.src, s.start, ColumnUnit::Char);
        format!("{}:{}", lc.line + 1, lc.col + 1)
    }
    fn positions(&self, spans: &[Span]) -> String {
        spans
            .iter()
            .map(|&s| self.pos(s))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn check_at(cx: &Ctx, offset: u32, line: usize, check: &str) -> Result<(), String> {
    let doc = cx.doc;
    let (cmd, rest) = check.split_once(' ').unwrap_or((check, ""));
    let rest = rest.trim();
    match cmd {
        "hover" => {
            let h = hover::hover(doc, offset);
            match (rest, h) {
                ("none", None) => Ok(()),
                ("none", Some(h)) => Err(format!("expected no hover, got {:?}", h.markdown)),
                (r, Some(h)) if r.starts_with("contains ") => {
                    let want = &r["contains ".len()..];
                    if h.markdown.contains(want) {
                        Ok(())
                    } else {
                        Err(format!("hover {:?} lacks {want:?}", h.markdown))
                    }
                }
                (r, h) => Err(format!("hover: bad check {r:?} (got {h:?})")),
            }
        }
        "definition" | "references" => {
            let spans = if cmd == "definition" {
                navigation::definition(doc, offset)
            } else {
                navigation::references(doc, offset, true)
            };
            let got = cx.positions(&spans);
            (got == rest)
                .then_some(())
                .ok_or(format!("{cmd}: expected [{rest}], got [{got}]"))
        }
        "rename" => {
            let (new, want) = rest.split_once(' ').unwrap_or((rest, ""));
            match rename::rename(doc, offset, new) {
                Ok(edits) => {
                    let spans: Vec<Span> = edits.iter().map(|e| e.span).collect();
                    let got = cx.positions(&spans);
                    if edits.iter().any(|e| e.new_text != new) {
                        return Err(format!("rename: edit texts {edits:?}"));
                    }
                    (got == want)
                        .then_some(())
                        .ok_or(format!("rename: expected [{want}], got [{got}]"))
                }
                Err(e) => match want.strip_prefix("error ") {
                    Some(w) if e.contains(w) => Ok(()),
                    _ => Err(format!(
                        "rename: unexpected error {e:?} (expected {want:?})"
                    )),
                },
            }
        }
        "complete" => {
            let c = completions(doc, offset);
            let mut words = rest.split_whitespace();
            let want_pos = match words.next() {
                Some("head") => Position::Head,
                Some("body") => Position::Body,
                Some("none") => Position::None,
                other => return Err(format!("complete: bad position {other:?}")),
            };
            if c.position != want_pos {
                return Err(format!("complete: position {:?}", c.position));
            }
            if want_pos == Position::None && !c.items.is_empty() {
                return Err(format!(
                    "complete: {} items inside a comment",
                    c.items.len()
                ));
            }
            let labels: Vec<&str> = c.items.iter().map(|i| i.label.as_str()).collect();
            while let Some(w) = words.next() {
                let list = words.next().unwrap_or("");
                for l in list.split(',').filter(|l| !l.is_empty()) {
                    let present = labels.contains(&l);
                    match w {
                        "has" if !present => {
                            return Err(format!("complete: no {l:?} in {labels:?}"))
                        }
                        "lacks" if present => return Err(format!("complete: unexpected {l:?}")),
                        "has" | "lacks" => {}
                        _ => return Err(format!("complete: bad word {w:?}")),
                    }
                }
            }
            Ok(())
        }
        "complete-first" => {
            let c = completions(doc, offset);
            let first = c
                .items
                .iter()
                .min_by_key(|i| (i.rank, i.label.clone()))
                .map(|i| i.label.as_str());
            (first == Some(rest))
                .then_some(())
                .ok_or(format!("complete-first: expected {rest}, got {first:?}"))
        }
        "token" => {
            let toks = semantic_tokens(doc);
            let t = toks
                .iter()
                .find(|t| t.span.start <= offset && offset < t.span.end)
                .ok_or("no semantic token here")?;
            let class = match t.class {
                TokenClass::Keyword => "keyword",
                TokenClass::Predicate => "predicate",
                TokenClass::Variable => "variable",
                TokenClass::Atom => "atom",
                TokenClass::Number => "number",
                TokenClass::String => "string",
                TokenClass::Comment => "comment",
            };
            let got = format!(
                "{class}{}{}",
                if t.definition { "+def" } else { "" },
                if t.library { "+lib" } else { "" }
            );
            (got == rest)
                .then_some(())
                .ok_or(format!("token: expected {rest}, got {got}"))
        }
        "action" => {
            let (title, want, last) = match rest.split_once(" =>> ") {
                Some((t, w)) => (t, w, true),
                None => {
                    let (t, w) = rest.split_once(" => ").ok_or("action: no ` => `")?;
                    (t, w, false)
                }
            };
            let diags = doc.diagnostics();
            let actions = code_actions::code_actions(
                doc,
                &diags,
                Span::new(offset as usize, offset as usize),
            );
            let a = actions
                .iter()
                .find(|a| a.title.contains(title))
                .ok_or(format!(
                    "action: no {title:?} in {:?} (diagnostics {:?})",
                    actions.iter().map(|a| &a.title).collect::<Vec<_>>(),
                    diags.iter().map(|d| d.to_string()).collect::<Vec<_>>()
                ))?;
            let mut text = doc.src.clone();
            let mut edits = a.edits.clone();
            edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
            for e in edits {
                text.replace_range(e.span.range(), &e.new_text);
            }
            let n = if last { text.lines().count() - 2 } else { line };
            let got = text.lines().nth(n).unwrap_or("");
            (got == want)
                .then_some(())
                .ok_or(format!("action: line reads {got:?}, expected {want:?}"))
        }
        _ => Err(format!("unknown check {cmd:?}")),
    }
}

fn check_file(cx: &Ctx, check: &str) -> Result<(), String> {
    let doc = cx.doc;
    let (cmd, rest) = check.split_once(' ').unwrap_or((check, ""));
    match cmd {
        "symbols" => {
            let got: Vec<String> = symbols::document_symbols(doc)
                .iter()
                .map(|s| format!("{}[{}]", s.name, s.children.len()))
                .collect();
            let got = got.join(" ");
            (got == rest.trim())
                .then_some(())
                .ok_or(format!("symbols: expected {rest}, got {got}"))
        }
        "words" => {
            let got = doc.fact_words().join(",");
            (got == rest.trim())
                .then_some(())
                .ok_or(format!("words: expected {rest}, got {got}"))
        }
        _ => Err(format!("unknown file check {cmd:?}")),
    }
}

fn run_fixture(path: &Path) -> Vec<String> {
    let src = std::fs::read_to_string(path).unwrap();
    let doc = Document::new(&src);
    let cx = Ctx {
        doc: &doc,
        index: LineIndex::new(&src),
    };
    let mut failures = Vec::new();
    let mut target: Option<usize> = None;
    let mut checks = 0;
    for (i, line) in src.lines().enumerate() {
        let fail = |e: String| format!("{}:{}: {e}", path.display(), i + 1);
        if let Some(rest) = line.strip_prefix("%!") {
            checks += 1;
            if let Err(e) = check_file(&cx, rest.trim()) {
                failures.push(fail(e));
            }
            continue;
        }
        let caret = line.starts_with('%') && line[1..].trim_start().starts_with('^');
        if !caret {
            target = Some(i);
            continue;
        }
        checks += 1;
        let Some(t) = target else {
            failures.push(fail("marker before any line".into()));
            continue;
        };
        let col = line.chars().position(|c| c == '^').unwrap();
        let offset = cx.index.offset(
            &src,
            LineCol {
                line: t as u32,
                col: col as u32,
            },
            ColumnUnit::Char,
        );
        let check = line[line.find('^').unwrap() + 1..].trim();
        if let Err(e) = check_at(&cx, offset, t, check) {
            failures.push(fail(e));
        }
    }
    if checks == 0 {
        failures.push(format!("{}: no checks", path.display()));
    }
    failures
}

#[test]
fn ide_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ide");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sidl"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let failures: Vec<String> = files.iter().flat_map(|f| run_fixture(f)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn exploration_stops_when_the_callback_breaks() {
    use sidl_engine::analysis::hidden_dynamic::{explore, explore_until, ExploreOptions};
    use std::ops::ControlFlow;
    use std::sync::Arc;
    let src =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/kuhn.sidl"))
            .unwrap();
    let game = Arc::new(sidl_engine::game::Game::load(&src).unwrap().0);
    let opts = ExploreOptions::default();
    let full = explore(game.clone(), &opts, &mut |_| {}).unwrap();
    assert!(full.complete && !full.cancelled);
    let mut calls = 0;
    let stopped = explore_until(game, &opts, &mut |_| {
        calls += 1;
        ControlFlow::Break(())
    })
    .unwrap();
    assert!(stopped.cancelled);
    assert!(!stopped.complete);
    assert!(
        stopped.states < full.states,
        "{} vs {}",
        stopped.states,
        full.states
    );
    // one call that broke, and the final report
    assert_eq!(calls, 2);
}

#[test]
fn the_clause_added_for_an_undefined_predicate_draws_no_new_diagnostic() {
    let src = "game(g).\ninit([p], 0).\nlegal([s]) :- ready(1, x).\nswitch([s], [a]).\nowned([s], [p]).\n";
    let doc = Document::new(src);
    let diags = doc.diagnostics();
    let at = src.find("ready").unwrap();
    let actions = code_actions::code_actions(&doc, &diags, Span::new(at, at));
    let add = actions
        .iter()
        .find(|a| a.title.starts_with("add a clause for"))
        .expect("the action");
    let mut text = src.to_string();
    for e in &add.edits {
        text.replace_range(e.span.range(), &e.new_text);
    }
    assert!(text.ends_with("ready(_, _) :-\n    true.\n"), "{text}");
    let after: Vec<_> = Document::new(&text)
        .diagnostics()
        .into_iter()
        .filter(|d| d.span.start as usize >= src.len())
        .map(|d| d.to_string())
        .collect();
    assert!(after.is_empty(), "{after:?}");
}
