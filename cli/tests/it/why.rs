//! `sidl why`: the cases of `cli/tests/why/cases.txt` (format in its header) and the worked example
//! of `docs/why.md`.

use crate::common;

use common::sidl_in;

/// Splits a command line: whitespace separates, `'...'` quotes.
fn split(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for ch in line.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// The source text of a range with 1-based lines and columns (in characters).
fn range_text(src: &str, r: &serde_json::Value) -> String {
    let at = |line: &str, col: &str| -> usize {
        let (l, c) = (r[line].as_u64().unwrap_or(1), r[col].as_u64().unwrap_or(1));
        let start: usize = src
            .split_inclusive('\n')
            .take(l as usize - 1)
            .map(str::len)
            .sum();
        src[start..]
            .char_indices()
            .nth(c as usize - 1)
            .map(|(i, _)| start + i)
            .unwrap_or(src.len())
    };
    src[at("startLine", "startColumn")..at("endLine", "endColumn")].to_string()
}

struct Case {
    at: String,
    args: Vec<String>,
    checks: Vec<(String, String)>,
}

fn check(case: &Case) -> usize {
    let dir = "tests/why";
    let exit: i32 = case
        .checks
        .iter()
        .find(|(k, _)| k == "exit")
        .map(|(_, v)| v.parse().expect("exit N"))
        .unwrap_or(0);
    let mut args: Vec<&str> = vec!["why"];
    args.extend(case.args.iter().map(String::as_str));
    let (text, err, code) = sidl_in(dir, &args);
    assert_eq!(code, exit, "{}: exit code\n{text}{err}", case.at);
    let mut json_args = args.clone();
    json_args.splice(2..2, ["--format", "json"]);
    let (json, _, jcode) = sidl_in(dir, &json_args);
    assert_eq!(jcode, exit, "{}: exit code (json)", case.at);
    let game = std::fs::read_to_string(format!("{dir}/{}", case.args[0])).expect("game");
    let answer: serde_json::Value = if exit == 0 {
        serde_json::from_str(&json).expect("one JSON object")
    } else {
        serde_json::Value::Null
    };
    assert!(
        exit != 0 || answer["text"] == text.as_str(),
        "{}: text is the JSON's text",
        case.at
    );
    for (k, v) in &case.checks {
        let at = format!("{}: {k} {v}", case.at);
        match k.as_str() {
            "exit" => {}
            "stderr" => assert!(err.contains(v.as_str()), "{at}\n{err}"),
            "holds" => assert_eq!(answer["holds"].to_string(), *v, "{at}\n{text}"),
            "summary" => assert!(
                answer["summary"]
                    .as_str()
                    .unwrap_or("")
                    .contains(v.as_str()),
                "{at}\n{text}"
            ),
            "nodes" => assert_eq!(
                answer["nodes"]
                    .as_array()
                    .map(Vec::len)
                    .unwrap_or(0)
                    .to_string(),
                *v,
                "{at}\n{text}"
            ),
            "text" => assert!(text.contains(v.as_str()), "{at}\n{text}"),
            "failing" => {
                let mut found = Vec::new();
                let mut stack: Vec<&serde_json::Value> =
                    answer["nodes"].as_array().into_iter().flatten().collect();
                while let Some(n) = stack.pop() {
                    let failing = n["note"]
                        .as_str()
                        .is_some_and(|x| x.starts_with("first failing goal"));
                    if failing && !n["clause"].is_null() {
                        found.push(range_text(&game, &n["clause"]));
                    }
                    stack.extend(n["children"].as_array().into_iter().flatten());
                }
                assert!(found.iter().any(|f| f == v), "{at}: {found:?}\n{text}");
            }
            other => panic!("{at}: unknown expectation {other}"),
        }
    }
    case.checks.len()
}

#[test]
fn why_answers_the_cases() {
    let src = std::fs::read_to_string("tests/why/cases.txt").expect("cases");
    let mut cases: Vec<Case> = Vec::new();
    for (no, line) in src.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) = line.split_once(' ').unwrap_or((line, ""));
        if k == "run" {
            cases.push(Case {
                at: format!("cases.txt:{}: {line}", no + 1),
                args: split(v),
                checks: Vec::new(),
            });
        } else {
            let case = cases.last_mut().expect("a run line first");
            case.checks.push((k.to_string(), v.to_string()));
        }
    }
    let checked: usize = cases.iter().map(check).sum();
    assert!(
        cases.len() >= 15 && checked >= 35,
        "{} cases, {checked} checks",
        cases.len()
    );
}

/// The `console` blocks of docs/why.md: each `$ sidl ...` line, run in `cli/tests/why/`, prints
/// exactly the lines below it.
#[test]
fn the_guides_examples_print_what_it_shows() {
    let doc = std::fs::read_to_string("../docs/why.md").expect("docs/why.md");
    let mut examples: Vec<(String, String)> = Vec::new();
    let mut in_block = false;
    for line in doc.lines() {
        if line == "```console" {
            in_block = true;
        } else if line == "```" {
            in_block = false;
        } else if in_block {
            if let Some(cmd) = line.strip_prefix("$ sidl ") {
                examples.push((cmd.to_string(), String::new()));
            } else if let Some((_, out)) = examples.last_mut() {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    assert!(examples.len() >= 3, "{} examples", examples.len());
    for (cmd, expected) in &examples {
        let args = split(cmd);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (out, err, code) = sidl_in("tests/why", &args);
        assert_eq!(code, 0, "{cmd}: {err}");
        assert_eq!(&out, expected, "{cmd}");
    }
}
