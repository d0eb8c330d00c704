//! The strategy table in the game's own words (the playground's Analyse panel, the language
//! server's `sidl/solve` report): for a game with labels (`label/2`, docs/reference.md "Labels"),
//! each information set's view facts and actions as its player reads them ([`Presenter`], from that
//! player's view at the set's first node, reached by replaying the set's path); for a game without
//! labels the tree's own texts (canonical terms).

use super::{AnalysisError, Infoset, Tree};
use crate::ai::sim;
use crate::game::present::{has_labels, Presenter};
use crate::game::session::{Actions, Session, Settings};
use crate::game::Game;
use crate::write::canonical;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// One information set as a person reads it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReadableInfoset {
    /// What the player has seen: its own earlier choices (raw), then its view now (labelled).
    pub label: String,
    /// The actions, in the tree's order (a combination's parts joined with `; `).
    pub actions: Vec<String>,
}

/// The session at the state where information set `is` is decided (the chronon before its
/// decisions): the initial state of `game` (seed 0) with the set's path replayed.
pub fn session_at(game: &Arc<Game>, is: &Infoset) -> Result<Session, AnalysisError> {
    let mut s = Session::new(game.clone(), 0, Settings::default())?;
    for c in &is.path {
        for sub in &c.submissions {
            let _ = s.submit(&sub.player, &sub.switch, &sub.action)?;
        }
        for (sw, a) in &c.draws {
            let _ = s.set_nature(sw, a)?;
        }
        s.run_chronon()?;
    }
    Ok(s)
}

/// Each information set of `tree` (built from `game`) as its player reads it, in the tree's order.
pub fn readable(game: &Arc<Game>, tree: &Tree) -> Result<Vec<ReadableInfoset>, AnalysisError> {
    if !has_labels(game) {
        return Ok(tree
            .infosets
            .iter()
            .map(|is| ReadableInfoset {
                label: is.label.clone(),
                actions: is.actions.clone(),
            })
            .collect());
    }
    let mut out = Vec::with_capacity(tree.infosets.len());
    for is in &tree.infosets {
        let mut s = session_at(game, is)?;
        let who = s.players()[is.player].clone();
        let mut pr = Presenter::new(&mut s, Some(&who), None)?;
        let view: Vec<String> = s.view(Some(&who))?.iter().map(|f| pr.fact(f)).collect();
        let mut label = match is.label.split_once(" -> ") {
            Some((past, _)) => format!("{past} -> "),
            None => String::new(),
        };
        label.push_str(&view.join("; "));
        if let Some((_, n)) = is.label.rsplit_once(" #") {
            if n.chars().all(|c| c.is_ascii_digit()) {
                label.push_str(&format!(" #{n}"));
            }
        }
        // each action's canonical text to its label, over the player's switches here
        let mut names: FxHashMap<String, String> = FxHashMap::default();
        for sw in s.switches_of(&who)? {
            let acts = match &sw.actions {
                Actions::Finite(a) => a.clone(),
                Actions::Unlimited(t) => {
                    sim::game_candidates(&mut s, &sw.id, t)?.unwrap_or_default()
                }
            };
            for a in acts {
                let text = pr.action(&sw.id, &a);
                names.insert(canonical(&a), text);
            }
        }
        let actions = is
            .actions
            .iter()
            .map(|a| {
                a.split("; ")
                    .map(|part| names.get(part).cloned().unwrap_or_else(|| part.to_string()))
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .collect();
        out.push(ReadableInfoset { label, actions });
    }
    Ok(out)
}

/// Each player's name as the game labels it (`label(player(P), Text)`), else its canonical text,
/// in player order.
pub fn player_names(game: &Arc<Game>) -> Result<Vec<String>, AnalysisError> {
    let mut s = Session::new(game.clone(), 0, Settings::default())?;
    let mut pr = Presenter::new(&mut s, None, None)?;
    Ok(s.players().iter().map(|p| pr.player(p)).collect())
}
