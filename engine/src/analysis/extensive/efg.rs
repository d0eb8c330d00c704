//! Gambit's file formats: the extensive form as `.efg` (format version 2, rational numbers: `EFG 2 R`)
//! and a one-shot game's strategic form as `.nfg` (`NFG 1 R`, payoff version with strategy names).
//! Gambit (`pygambit.read_efg`) and OpenSpiel (`pyspiel.load_efg_game`) read both as written here
//! (`scripts/oracles.sh`).

use super::nfg::Strategic;
use super::{Node, Tree, Q};
use num_traits::{One, Zero};
use std::fmt::Write;

/// `text` as a Gambit string literal (quotes and backslashes escaped).
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A rational as Gambit writes it: `3`, `-1/18`.
pub fn rational(q: &Q) -> String {
    if q.denom().is_one() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// The tree as a Gambit `.efg` file (nodes in preorder; each player's information sets numbered from
/// 1 in order of first appearance, each chance node an information set of its own; each terminal
/// node an outcome of its own).
pub fn to_efg(t: &Tree) -> String {
    let mut out = String::new();
    let players: Vec<String> = t.players.iter().map(|p| quoted(p)).collect();
    let _ = writeln!(
        out,
        "EFG 2 R {} {{ {} }}",
        quoted(&t.title),
        players.join(" ")
    );
    let _ = writeln!(
        out,
        "{}",
        quoted(&format!(
            "The extensive form of the SIDL game {} (sidl export --efg); payoffs are account changes.",
            t.title
        ))
    );
    out.push('\n');
    let mut number: Vec<Option<usize>> = vec![None; t.infosets.len()];
    let mut next_number = vec![0usize; t.players.len()];
    let (mut chance_no, mut outcome_no) = (0usize, 0usize);
    let mut chance_labels: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::new();
    let mut stack = vec![t.root];
    while let Some(id) = stack.pop() {
        match &t.nodes[id] {
            Node::Terminal { payoffs } => {
                outcome_no += 1;
                let p: Vec<String> = payoffs.iter().map(rational).collect();
                let _ = writeln!(out, "t \"\" {outcome_no} \"\" {{ {} }}", p.join(", "));
            }
            Node::Chance { switch, outcomes } => {
                chance_no += 1;
                // Gambit wants each chance information set's label unique: `[deal]`, `[deal] #2`
                let n = chance_labels.entry(switch.as_str()).or_insert(0usize);
                *n += 1;
                let label = if *n == 1 {
                    switch.clone()
                } else {
                    format!("{switch} #{n}")
                };
                let acts: Vec<String> = outcomes
                    .iter()
                    .map(|(a, p, _)| format!("{} {}", quoted(a), rational(p)))
                    .collect();
                let _ = writeln!(
                    out,
                    "c \"\" {chance_no} {} {{ {} }} 0",
                    quoted(&label),
                    acts.join(" ")
                );
                stack.extend(outcomes.iter().rev().map(|o| o.2));
            }
            Node::Decision {
                player,
                infoset,
                children,
            } => {
                let n = *number[*infoset].get_or_insert_with(|| {
                    next_number[*player] += 1;
                    next_number[*player]
                });
                let is = &t.infosets[*infoset];
                let acts: Vec<String> = is.actions.iter().map(|a| quoted(a)).collect();
                let _ = writeln!(
                    out,
                    "p \"\" {} {n} {} {{ {} }} 0",
                    player + 1,
                    quoted(&is.label),
                    acts.join(" ")
                );
                stack.extend(children.iter().rev());
            }
        }
    }
    out
}

/// A strategic form as a Gambit `.nfg` file (payoff version: for each profile, the first player's
/// strategy varying fastest, every player's payoff).
pub fn to_nfg(g: &Strategic) -> String {
    let mut out = String::new();
    let players: Vec<String> = g.players.iter().map(|p| quoted(p)).collect();
    let _ = writeln!(
        out,
        "NFG 1 R {} {{ {} }}",
        quoted(&g.title),
        players.join(" ")
    );
    out.push('\n');
    out.push('{');
    for s in &g.strategies {
        let names: Vec<String> = s.iter().map(|a| quoted(a)).collect();
        let _ = write!(out, "\n{{ {} }}", names.join(" "));
    }
    out.push_str("\n}\n");
    let _ = writeln!(
        out,
        "{}",
        quoted(&format!(
            "The strategic form of the SIDL game {} (sidl export --nfg); payoffs are expected account changes.",
            g.title
        ))
    );
    out.push('\n');
    let mut line: Vec<String> = Vec::new();
    for profile in 0..g.profiles() {
        for p in g.payoff(profile) {
            line.push(if p.is_zero() { "0".into() } else { rational(p) });
        }
    }
    out.push_str(&line.join(" "));
    out.push('\n');
    out
}
