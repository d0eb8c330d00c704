//! End-to-end: the real `sidl-lsp` binary over stdio, driven by a small JSON-RPC client (framing by
//! hand; the messages are `serde_json` values). Every wait has a timeout, so a broken server fails
//! the test instead of hanging it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

fn file_uri(path: &str) -> String {
    let p = repo(path).canonicalize().unwrap();
    format!("file://{}", p.display())
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Notifications and server requests received so far, in order.
    seen: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sidl-lsp"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    // stdout carries the protocol only: anything else is a failure
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    } else if !line.starts_with("Content-Type: ") {
                        panic!("not a protocol header on stdout: {line:?}");
                    }
                }
                let mut buf = vec![0; len.expect("Content-Length header")];
                if r.read_exact(&mut buf).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&buf).expect("a JSON message");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            rx,
            next_id: 1,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, v: Value) {
        let body = serde_json::to_string(&v).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request_async(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The next message, answering server requests (`window/workDoneProgress/create`) on the way.
    fn recv(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(v) => {
                if v.get("method").is_some() && v.get("id").is_some() {
                    let id = v["id"].clone();
                    self.send(json!({"jsonrpc": "2.0", "id": id, "result": null}));
                }
                if v.get("method").is_some() {
                    self.seen.push(v.clone());
                }
                v
            }
            Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for the server"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// The whole response (`result` or `error`) to request `id`.
    fn response(&mut self, id: i64) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let v = self.recv(deadline);
            if v.get("method").is_none() && v["id"] == json!(id) {
                return v;
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.request_async(method, params);
        let r = self.response(id);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// Waits for diagnostics of `uri` at `version`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let v = self.recv(deadline);
            if v["method"] == "textDocument/publishDiagnostics"
                && v["params"]["uri"] == uri
                && v["params"]["version"] == json!(version)
            {
                return v["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn initialize(&mut self, encodings: Option<&[&str]>) -> Value {
        let mut caps = json!({
            "window": {"workDoneProgress": true},
            "textDocument": {"completion": {"completionItem": {"snippetSupport": true}}}
        });
        if let Some(e) = encodings {
            caps["general"] = json!({"positionEncodings": e});
        }
        let r = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": caps}),
        );
        self.notify("initialized", json!({}));
        r
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "sidl", "version": 1, "text": text}}),
        );
    }

    fn shutdown(mut self) {
        self.request("shutdown", json!(null));
        self.notify("exit", json!(null));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Column of byte offset `at` of `line` in UTF-16 units or UTF-8 bytes.
fn col(line: &str, at: usize, utf8: bool) -> u64 {
    if utf8 {
        at as u64
    } else {
        line[..at].encode_utf16().count() as u64
    }
}

fn pos(line: u64, character: u64) -> Value {
    json!({"line": line, "character": character})
}

const GAME: &str = "% tábla 🎲 játék\n\
game(tábla).\n\
init([tábla, 3]).\n\
init([én], 0).\n\
legal([lép]) :- fact([tábla, N]), N > 0, \"🎲\" \\== x, nagy(N), fac(N).\n\
nagy(Szám) :- Szám > 1.\n";

fn line4() -> &'static str {
    GAME.lines().nth(4).unwrap()
}

fn session(encodings: Option<&[&str]>, utf8: bool) {
    let mut c = Client::start();
    let init = c.initialize(encodings);
    let want = if utf8 { "utf-8" } else { "utf-16" };
    assert_eq!(init["capabilities"]["positionEncoding"], want);
    assert_eq!(init["serverInfo"]["name"], "sidl-lsp");
    let uri = "file:///tmp/sidl-lsp-test/t%C3%A1bla.sidl";
    c.open(uri, GAME);
    let diags = c.diagnostics(uri, 1);
    let l4 = line4();
    let fac = l4.rfind("fac(").unwrap();
    let d = diags
        .iter()
        .find(|d| d["code"] == "W0401")
        .unwrap_or_else(|| panic!("no W0401 in {diags:?}"));
    assert_eq!(d["range"]["start"], pos(4, col(l4, fac, utf8)));
    assert_eq!(
        d["range"]["end"],
        pos(4, col(l4, fac + "fac(N)".len(), utf8))
    );
    assert_eq!(d["source"], "sidl");

    // hover on the keyword, on a user predicate
    let tdoc = json!({"uri": uri});
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": tdoc, "position": pos(4, 1)}),
    );
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("legal(Switch)") && md.contains("`fact/1`"),
        "{md}"
    );
    let nagy = l4.find("nagy").unwrap();
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": tdoc, "position": pos(4, col(l4, nagy + 1, utf8))}),
    );
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("nagy(Szám) :- Szám > 1."), "{md}");
    assert_eq!(h["range"]["start"], pos(4, col(l4, nagy, utf8)));

    // completion in the body: keywords as snippets, the helper, built-ins, fact words
    let r = c.request(
        "textDocument/completion",
        json!({"textDocument": tdoc, "position": pos(4, col(l4, nagy, utf8))}),
    );
    let items = r.as_array().unwrap();
    let labels: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    for l in ["fact", "create", "nagy", "between", "tábla", "N"] {
        assert!(labels.contains(&l), "{l} missing from {labels:?}");
    }
    assert!(
        !labels.contains(&"legal"),
        "a head keyword offered in a body"
    );
    let fact = items.iter().find(|i| i["label"] == "fact").unwrap();
    assert_eq!(fact["insertTextFormat"], 2);

    // definition and references of nagy/1
    let at_nagy = json!({"textDocument": tdoc, "position": pos(4, col(l4, nagy + 2, utf8))});
    let defs = c.request("textDocument/definition", at_nagy.clone());
    assert_eq!(defs[0]["range"]["start"], pos(5, 0));
    assert_eq!(defs[0]["uri"], uri);
    let mut refs_params = at_nagy.clone();
    refs_params["context"] = json!({"includeDeclaration": true});
    let refs = c.request("textDocument/references", refs_params);
    let starts: Vec<Value> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["range"]["start"].clone())
        .collect();
    assert_eq!(starts, vec![pos(4, col(l4, nagy, utf8)), pos(5, 0)]);

    // rename the variable Szám (clause-local), then the predicate
    let l5 = GAME.lines().nth(5).unwrap();
    let szam2 = l5.rfind("Szám").unwrap();
    let prep = c.request(
        "textDocument/prepareRename",
        json!({"textDocument": tdoc, "position": pos(5, col(l5, szam2, utf8))}),
    );
    assert_eq!(prep["placeholder"], "Szám");
    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": tdoc, "position": pos(5, col(l5, szam2, utf8)), "newName": "Érték"}),
    );
    let edits = edit["changes"][uri].as_array().unwrap();
    assert_eq!(edits.len(), 2);
    assert!(edits.iter().all(|e| e["newText"] == "Érték"));
    assert_eq!(edits[1]["range"]["start"], pos(5, col(l5, szam2, utf8)));
    let mut p = at_nagy.clone();
    p["newName"] = json!("nagyobb");
    let edit = c.request("textDocument/rename", p);
    assert_eq!(edit["changes"][uri].as_array().unwrap().len(), 2);
    // renaming a keyword is refused with a message
    let id = c.request_async(
        "textDocument/rename",
        json!({"textDocument": tdoc, "position": pos(4, 1), "newName": "x"}),
    );
    let r = c.response(id);
    assert!(
        r["error"]["message"].as_str().unwrap().contains("keyword"),
        "{r}"
    );

    // semantic tokens: decode and find the string after the emoji and the variable N
    let toks = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": tdoc}),
    );
    let data: Vec<u64> = toks["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let legend: Vec<String> = init["capabilities"]["semanticTokensProvider"]["legend"]
        ["tokenTypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let (mut line, mut start) = (0, 0);
    let mut decoded = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            line += t[0];
            start = t[1];
        } else {
            start += t[1];
        }
        decoded.push((line, start, t[2], legend[t[3] as usize].clone()));
    }
    let q = l4.find('"').unwrap();
    let string_len = col(l4, q + "\"🎲\"".len(), utf8) - col(l4, q, utf8);
    assert!(
        decoded.contains(&(4, col(l4, q, utf8), string_len, "string".into())),
        "{decoded:?}"
    );
    assert!(decoded.contains(&(
        0,
        0,
        col(
            GAME.lines().next().unwrap(),
            GAME.lines().next().unwrap().len(),
            utf8
        ),
        "comment".into()
    )));
    assert!(decoded.contains(&(4, 0, 5, "keyword".into())));
    assert!(decoded.contains(&(5, 0, 4, "function".into())));

    // code action: the typo fix for fac, applied as an incremental change
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": tdoc, "range": {"start": pos(4, col(l4, fac, utf8)), "end": pos(4, col(l4, fac, utf8))},
               "context": {"diagnostics": []}}),
    );
    let fix = r
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "replace with `fact`")
        .unwrap_or_else(|| panic!("no typo fix in {r}"))
        .clone();
    assert_eq!(fix["kind"], "quickfix");
    let e = &fix["edit"]["changes"][uri][0];
    assert_eq!(e["newText"], "fact");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": e["range"], "text": e["newText"]}]}),
    );
    let diags = c.diagnostics(uri, 2);
    assert!(diags.iter().all(|d| d["code"] != "W0401"), "{diags:?}");
    c.shutdown();
}

#[test]
fn utf16_session() {
    session(None, false);
}

#[test]
fn utf16_when_utf8_is_not_offered() {
    session(Some(&["utf-16"]), false);
}

#[test]
fn utf8_session() {
    session(Some(&["utf-8", "utf-16"]), true);
}

#[test]
fn version_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_sidl-lsp"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("sidl-lsp {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn hidden_information_check() {
    let mut c = Client::start();
    c.initialize(None);
    // a leaky game (read from disk: not open), with progress on a server-created token
    let leaky = file_uri("tests/analysis/kuhn_leaky.sidl");
    let r = c.request(
        "sidl/checkHiddenInformation",
        json!({"textDocument": {"uri": leaky}}),
    );
    assert_eq!(r["consistent"], false, "{r}");
    let ce = &r["counterexample"];
    assert_eq!(ce["player"], "[p2]");
    assert!(
        ce["description"].as_str().unwrap().contains("cannot tell"),
        "{ce}"
    );
    assert!(!ce["steps"].as_array().unwrap().is_empty());
    assert!(c
        .seen
        .iter()
        .any(|m| m["method"] == "window/workDoneProgress/create"));
    let kinds: Vec<&str> = c
        .seen
        .iter()
        .filter(|m| m["method"] == "$/progress")
        .map(|m| m["params"]["value"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.first(), Some(&"begin"), "{kinds:?}");
    // the end of the progress may arrive just after the response
    let deadline = Instant::now() + TIMEOUT;
    while !c
        .seen
        .iter()
        .any(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end")
    {
        c.recv(deadline);
    }

    // a consistent game, open in the editor, through the command
    let nim = file_uri("games/nim.sidl");
    let text = std::fs::read_to_string(repo("games/nim.sidl")).unwrap();
    c.open(&nim, &text);
    let r = c.request(
        "workspace/executeCommand",
        json!({"command": "sidl.checkHiddenInformation", "arguments": [nim]}),
    );
    assert_eq!(r["consistent"], true, "{r}");
    assert_eq!(r["complete"], true, "{r}");
    assert!(r["states"].as_u64().unwrap() > 10);
    assert_eq!(r["counterexample"], Value::Null);
    // the budget is the most states visited (the engine's meaning, passed through)
    let reachable = r["states"].as_u64().unwrap();
    for n in [0, 1, 5, reachable - 1, reachable] {
        let r = c.request(
            "sidl/checkHiddenInformation",
            json!({"textDocument": {"uri": nim}, "maxStates": n}),
        );
        assert_eq!(r["states"].as_u64(), Some(n), "{r}");
        assert_eq!(r["complete"], n == reachable, "{r}");
    }

    // runtime errors met while exploring come back as diagnostics of the document
    let faulty = "file:///tmp/sidl-lsp-test/faulty.sidl";
    c.open(
        faulty,
        "game(e).\ninit([open]).\ninit([p], 0).\nlegal([p]) :- fact([open]).\nowned([p], [p]).\n\
         switch([p], [bad]).\ndo([bad]) :- fact([open]), price(X), X > 0.\n\
         price(X) :- X is 10 + tax, X > 1.\n",
    );
    let r = c.request(
        "sidl/checkHiddenInformation",
        json!({"textDocument": {"uri": faulty}}),
    );
    let d = &r["diagnostics"][0];
    assert_eq!(d["code"], "E0921", "{r}");
    assert_eq!(d["range"]["start"]["line"], 7, "{r}");
    let call = &d["relatedInformation"][0];
    assert_eq!(call["message"], "`do/1` calls `price/1`", "{r}");
    assert_eq!(call["location"]["range"]["start"]["line"], 6, "{r}");
    assert!(
        r["errors"][0]
            .as_str()
            .unwrap()
            .starts_with("error[E0921]: "),
        "{r}"
    );
    // an initial state that cannot be computed: the error's data is the diagnostic
    let broken = "file:///tmp/sidl-lsp-test/broken.sidl";
    c.open(
        broken,
        "game(b).\ninit([p], X) :- X is foo.\nlegal([p]).\nowned([p], [p]).\nswitch([p], [a]).\n",
    );
    let id = c.request_async(
        "sidl/checkHiddenInformation",
        json!({"textDocument": {"uri": broken}}),
    );
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32803, "{r}");
    assert_eq!(r["error"]["data"]["code"], "E0921", "{r}");
    assert_eq!(r["error"]["data"]["range"]["start"]["line"], 1, "{r}");

    // cancellation of a long exploration (client token)
    let chess = file_uri("games/chess.sidl");
    let id = c.request_async(
        "sidl/checkHiddenInformation",
        json!({"textDocument": {"uri": chess}, "maxStates": 2000000, "workDoneToken": "chess"}),
    );
    // wait until the exploration reports progress, then cancel
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let v = c.recv(deadline);
        if v["method"] == "$/progress"
            && v["params"]["token"] == "chess"
            && v["params"]["value"]["kind"] == "report"
        {
            break;
        }
        assert!(
            v["id"] != json!(id),
            "finished before it could be cancelled: {v}"
        );
    }
    c.notify("$/cancelRequest", json!({"id": id}));
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32800, "{r}");
    // the server still answers
    let r = c.request(
        "sidl/checkHiddenInformation",
        json!({"textDocument": {"uri": leaky}, "maxStates": 1000}),
    );
    assert_eq!(r["consistent"], false);
    c.shutdown();
}

#[test]
fn burst_of_edits_ends_without_stale_diagnostics() {
    let mut c = Client::start();
    c.initialize(None);
    let uri = "file:///tmp/sidl-lsp-test/burst.sidl";
    let full = std::fs::read_to_string(repo("games/nim.sidl")).unwrap();
    // the rules without the labels at the end of the file: the last clause is a payoff/2 rule
    let full = full.split("\n% --- labels").next().unwrap().to_string();
    let last = full.trim_end().lines().last().unwrap().to_string();
    let start = full.trim_end().strip_suffix(&last).unwrap().to_string();
    c.open(uri, &start);
    let line = start.lines().count() as u64;
    // type the last clause character by character (broken until its `.`), then break and
    // repair it until 200 edits were sent
    let mut version = 1;
    let mut edits = Vec::new();
    for (i, ch) in last.chars().enumerate() {
        edits.push((pos(line, i as u64), pos(line, i as u64), ch.to_string()));
    }
    edits.push((
        pos(line, last.len() as u64),
        pos(line, last.len() as u64),
        "\n".into(),
    ));
    if edits.len() % 2 == 1 {
        edits.push((pos(line + 1, 0), pos(line + 1, 0), "\n".into()));
    }
    while edits.len() < 200 {
        edits.push((pos(line, 6), pos(line, 6), " (".into()));
        edits.push((pos(line, 6), pos(line, 8), String::new()));
    }
    assert_eq!(edits.len(), 200);
    for (a, b, text) in edits {
        version += 1;
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"range": {"start": a, "end": b}, "text": text}]}),
        );
    }
    let diags = c.diagnostics(uri, version);
    assert!(diags.is_empty(), "{diags:?}");
    // the text is what was typed: hover sees the last clause
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos(line, 1)}),
    );
    assert!(h["contents"]["value"].as_str().unwrap().contains("payoff"));
    // nothing stale arrives afterwards
    let deadline = Instant::now() + Duration::from_millis(600);
    while let Ok(v) =
        c.rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        if v["method"] == "textDocument/publishDiagnostics" {
            assert_eq!(
                v["params"]["version"],
                json!(version),
                "stale diagnostics: {v}"
            );
        }
    }
    c.shutdown();
}

/// `sidl.why`: the engine's answer for a state given by a script (a path relative to the game, or
/// the script's text), the same as `sidl why` prints; errors as error responses.
#[test]
fn why_command() {
    let mut c = Client::start();
    let init = c.initialize(None);
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(
        commands.as_array().unwrap().contains(&json!("sidl.why")),
        "{commands}"
    );
    let ttt = file_uri("cli/tests/why/tictactoe.sidl");
    let text = std::fs::read_to_string(repo("cli/tests/why/tictactoe.sidl")).unwrap();
    c.open(&ttt, &text);
    let question = json!({"kind": "action", "switch": "o", "action": "[mark, 1, 1]"});
    let r = c.request(
        "workspace/executeCommand",
        json!({"command": "sidl.why", "arguments": [
            {"uri": ttt, "script": "tictactoe.script", "after": 1, "question": question}
        ]}),
    );
    assert_eq!(r["holds"], false, "{r}");
    // the text `sidl why` prints
    let text_answer = r["text"].as_str().unwrap();
    assert!(
        text_answer.contains("- fact([cell,1,1,blank]) [failed]  tictactoe.sidl:9"),
        "{text_answer}"
    );
    // the failing goal's range is the goal in the game (1-based lines and columns)
    let switch = &r["nodes"][2]["children"][0];
    let failing = &switch["children"][1];
    assert_eq!(failing["outcome"], "failed", "{r}");
    let range = &failing["clause"];
    let line = text
        .lines()
        .nth(range["startLine"].as_u64().unwrap() as usize - 1)
        .unwrap();
    let (a, b) = (
        range["startColumn"].as_u64().unwrap() as usize - 1,
        range["endColumn"].as_u64().unwrap() as usize - 1,
    );
    assert_eq!(&line[a..b], "fact([cell, I, J, blank])", "{range}");

    // the script as text; a legal action
    let r = c.request(
        "workspace/executeCommand",
        json!({"command": "sidl.why", "arguments": [{"uri": ttt,
            "script": "submit(x, x, [mark, 1, 1]).\nchronon.\n",
            "question": {"kind": "action", "switch": "o", "action": "[mark, 2, 2]"}}]}),
    );
    assert_eq!(r["holds"], true, "{r}");

    // errors: a question that does not parse, an unknown kind, a chronon that has not run
    for (q, msg) in [
        (json!({"kind": "legal", "switch": "o("}), "is not a term"),
        (json!({"kind": "wat"}), "unknown question kind"),
        (json!({"kind": "payoff", "player": "x"}), "E0947"),
    ] {
        let id = c.request_async(
            "workspace/executeCommand",
            json!({"command": "sidl.why", "arguments": [{"uri": ttt, "question": q}]}),
        );
        let r = c.response(id);
        let m = r["error"]["message"].as_str().unwrap_or_default();
        assert!(m.contains(msg), "{r}");
    }
    c.shutdown();
}

#[test]
fn solve_request() {
    let mut c = Client::start();
    c.initialize(None);
    // Kuhn poker (not open: read from disk): the exact LP, -1/18 for p1, with progress
    let kuhn = file_uri("games/kuhn.sidl");
    let r = c.request("sidl/solve", json!({"textDocument": {"uri": kuhn}}));
    assert_eq!(r["method"], "lp", "{r}");
    assert_eq!(
        (r["nodes"].as_u64(), r["infosets"].as_u64()),
        (Some(55), Some(12))
    );
    assert_eq!(r["values"][0]["player"], "[p1]");
    assert_eq!(r["values"][0]["exact"], "-1/18");
    assert!(r["nashConv"].as_f64().unwrap().abs() < 1e-9);
    assert_eq!(
        r["verdict"], "an equilibrium: no player gains by deviating alone",
        "the engine's words"
    );
    assert_eq!(r["strategies"].as_array().unwrap().len(), 12);
    assert_eq!(r["strategies"][0]["actions"][0]["action"], "[p1,check]");
    assert_eq!(r["exploit"], Value::Null);
    assert!(c
        .seen
        .iter()
        .any(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin"));
    assert_eq!(r["note"], Value::Null);
    // an unlimited switch discretised by candidate/2: the engine's note says so
    let bid = file_uri("engine/tests/extensive/unlimited_candidates.sidl");
    let r = c.request("sidl/solve", json!({"textDocument": {"uri": bid}}));
    assert_eq!(
        r["note"],
        "the unlimited switch [bid] takes its actions from candidate/2: this is the analysis of the game so discretised",
        "{r}"
    );

    // CFR+ and an AI seat's exploitability; the game's labels in the strategy table
    let ult = file_uri("games/ultimatum.sidl");
    let r = c.request(
        "sidl/solve",
        json!({"textDocument": {"uri": ult}, "method": "cfr", "iterations": 500,
               "exploit": "[responder]=minimax:2"}),
    );
    assert_eq!(
        (r["method"].as_str(), r["iterations"].as_u64()),
        (Some("cfr+"), Some(500)),
        "{r}"
    );
    assert_eq!(r["values"][0]["name"], "Proposer");
    let resp = r["strategies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"] == "[responder]")
        .unwrap();
    assert!(
        resp["label"].as_str().unwrap().contains("the offer is"),
        "{resp}"
    );
    assert_eq!(resp["actions"][0]["label"], "accept");
    assert_eq!(r["exploit"]["player"], "[responder]", "{r}");
    assert_eq!(r["exploit"]["spec"], "minimax:2");
    assert_eq!(r["exploit"]["responses"][0][0], "[proposer]");

    // the command, as the VS Code extension sends it
    let r = c.request(
        "workspace/executeCommand",
        json!({"command": "sidl.solve", "arguments": [kuhn]}),
    );
    assert_eq!(r["values"][1]["exact"], "1/18", "{r}");

    // a tree too large: the engine's diagnostic as the error's data
    let id = c.request_async(
        "sidl/solve",
        json!({"textDocument": {"uri": kuhn}, "maxNodes": 20}),
    );
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32803, "{r}");
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("error[E0960]: the extensive form has more than 20 nodes"));
    assert_eq!(r["error"]["data"]["code"], "E0960", "{r}");
    // no payoffs
    let none = file_uri("engine/tests/extensive/no_payoff.sidl");
    let id = c.request_async("sidl/solve", json!({"textDocument": {"uri": none}}));
    let r = c.response(id);
    assert_eq!(r["error"]["data"]["code"], "E0962", "{r}");
    // a bad method
    let id = c.request_async(
        "sidl/solve",
        json!({"textDocument": {"uri": kuhn}, "method": "simplex"}),
    );
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32602, "{r}");

    // cancellation of a long CFR+ run on Leduc poker (client token)
    let leduc = file_uri("games/leduc.sidl");
    let id = c.request_async(
        "sidl/solve",
        json!({"textDocument": {"uri": leduc}, "method": "cfr", "iterations": 100000000u64,
               "workDoneToken": "leduc"}),
    );
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let v = c.recv(deadline);
        if v["method"] == "$/progress"
            && v["params"]["token"] == "leduc"
            && v["params"]["value"]["kind"] == "report"
            && v["params"]["value"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("CFR+: "))
        {
            break;
        }
        assert!(
            v["id"] != json!(id),
            "finished before it could be cancelled: {v}"
        );
    }
    c.notify("$/cancelRequest", json!({"id": id}));
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32800, "{r}");
    // the server still answers
    let r = c.request("sidl/solve", json!({"textDocument": {"uri": kuhn}}));
    assert_eq!(r["values"][0]["exact"], "-1/18");
    c.shutdown();
}
