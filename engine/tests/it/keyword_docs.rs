//! The keyword documentation has one table, the engine's (`engine/src/ide/keywords.rs`): the
//! language server's hover and completion and the WASM `keywords()` read it, and the VS Code
//! snippets (`vscode-extension/snippets/sidl.json`) are generated from it. This test fails when the
//! snippets file is not what the table gives; `SIDL_UPDATE=1 cargo test -p sidl-engine --test it
//! keyword_docs` writes it.

use sidl_engine::analysis::placement::HEAD_KEYWORDS;
use sidl_engine::game::trace::json_string;
use sidl_engine::ide::keywords::{self, Position};
use std::path::Path;

const SNIPPETS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../vscode-extension/snippets/sidl.json"
);

/// The VS Code snippets: one per head keyword (a rule to write) but the paper's old spelling
/// `name/1`; the prefix is the name (`init2` for the second arity of a name), the body the engine's
/// snippet, the description the signature, summary and placement of the engine's table.
fn snippets() -> String {
    let mut entries = Vec::new();
    for (key, position, doc) in keywords::listing() {
        if position == Position::Body || key.0.name() == "name" {
            continue;
        }
        let prefix = if HEAD_KEYWORDS.iter().any(|k| k.0 == key.0 && k.1 < key.1) {
            format!("{}{}", doc.name, doc.arity)
        } else {
            doc.name.to_string()
        };
        let mut description = doc.text();
        if let Some(p) = keywords::placement(key) {
            description.push(' ');
            description.push_str(&p);
        }
        let body: Vec<String> = doc
            .snippet
            .lines()
            .map(|l| format!("      {}", json_string(l)))
            .collect();
        entries.push(format!(
            "  {}: {{\n    \"prefix\": {},\n    \"body\": [\n{}\n    ],\n    \"description\": {}\n  }}",
            json_string(&format!("{}/{}", doc.name, doc.arity)),
            json_string(&prefix),
            body.join(",\n"),
            json_string(&description)
        ));
    }
    format!("{{\n{}\n}}\n", entries.join(",\n"))
}

#[test]
fn vscode_snippets_are_generated_from_the_engine_table() {
    let want = snippets();
    if std::env::var_os("SIDL_UPDATE").is_some() {
        std::fs::write(SNIPPETS, &want).expect("writes the snippets");
    }
    let have = std::fs::read_to_string(Path::new(SNIPPETS)).expect("the snippets file");
    assert!(
        have == want,
        "vscode-extension/snippets/sidl.json is not the engine's keyword table: run \
         `SIDL_UPDATE=1 cargo test -p sidl-engine --test it keyword_docs`"
    );
}

#[test]
fn every_head_keyword_but_name_has_a_snippet() {
    let text = snippets();
    for (name, arity) in HEAD_KEYWORDS {
        if name.name() == "name" {
            continue;
        }
        let key = format!("\"{}/{arity}\": {{", name.name());
        assert!(text.contains(&key), "no snippet for {key}");
    }
}
