//! The texts a person reads of the current state (docs/reference.md "Labels"): the engine's
//! [`present`] for one viewer in one language, converted to DTOs. Every text is built by the
//! engine's `Presenter` from that viewer's view only; a game without labels gets the raw terms
//! (`labelled: false`). The texts are plain: the playground inserts them as text, never as markup.

use crate::core::{Core, CoreError};
use crate::dto::show;
use serde::Serialize;
use sidl_engine::game::present::{present_from, Labelled, Presentation};

/// The TypeScript of the DTOs below, added to `sidl_wasm.d.ts` by `lib.rs`.
pub const TS_TYPES: &str = include_str!("labels.d.ts");

/// A term (canonical text) and what a person reads for it: its label, or (`labelled: false`) its
/// canonical text.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LabelDto {
    pub term: String,
    pub text: String,
    pub labelled: bool,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SwitchLabelsDto {
    pub switch: LabelDto,
    pub owner: Option<String>,
    /// The actions (for an unlimited switch its templates, unlabelled), in `switches()` order.
    pub actions: Vec<LabelDto>,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RoleDto {
    pub player: String,
    pub text: String,
}

/// `labels(viewer, lang)`: see [`Presentation`].
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LabelsDto {
    /// Does the game define labels?
    pub active: bool,
    pub lang: Option<String>,
    pub languages: Vec<String>,
    pub description: Option<String>,
    pub roles: Vec<RoleDto>,
    pub players: Vec<LabelDto>,
    /// The viewer's view, in `view()` order.
    pub facts: Vec<LabelDto>,
    /// The legal switches the viewer owns (all for the designer).
    pub switches: Vec<SwitchLabelsDto>,
    /// Per player (`term`: the player), its account.
    pub accounts: Vec<LabelDto>,
    /// Per chronon of the session's history from `events_from` on, the event lines the viewer saw.
    pub events: Vec<Vec<String>>,
    /// The chronon (0-based index in the history) of `events[0]`: the `from` asked for, or less
    /// (see [`Core::labels`]).
    pub events_from: usize,
    /// The result lines, in a terminal state.
    pub result: Vec<String>,
}

fn label(l: &Labelled) -> LabelDto {
    let term = show(&l.term);
    LabelDto {
        text: if l.labelled {
            l.text.clone()
        } else {
            term.clone()
        },
        term,
        labelled: l.labelled,
    }
}

pub fn labels_dto(p: &Presentation) -> LabelsDto {
    LabelsDto {
        active: p.active,
        lang: p.lang.clone(),
        languages: p.languages.clone(),
        description: p.description.clone(),
        roles: p
            .roles
            .iter()
            .map(|(pl, t)| RoleDto {
                player: show(pl),
                text: t.clone(),
            })
            .collect(),
        players: p.players.iter().map(label).collect(),
        facts: p.facts.iter().map(label).collect(),
        switches: p
            .switches
            .iter()
            .map(|s| SwitchLabelsDto {
                switch: label(&s.switch),
                owner: s.owner.as_ref().map(show),
                actions: s.actions.iter().map(label).collect(),
            })
            .collect(),
        accounts: p
            .accounts
            .iter()
            .map(|l| LabelDto {
                term: show(&l.term),
                text: l.text.clone(),
                labelled: l.labelled,
            })
            .collect(),
        events: p.events.clone(),
        events_from: p.events_from,
        result: p.result.clone(),
    }
}

impl Core {
    /// What `viewer` (`None`: the designer) reads of the current state in language `lang`
    /// (`None`: the game's default), with the event lines of the history from chronon `from`
    /// (0-based) on, or from an earlier one (`events_from`) when a line before `from` is not what
    /// the previous call gave (the engine's `present_from`): a caller that keeps the lines of
    /// every call and asks from the number it has gets only the new lines; `from` 0 gives them all.
    pub fn labels(
        &mut self,
        viewer: Option<&str>,
        lang: Option<&str>,
        from: usize,
    ) -> Result<LabelsDto, CoreError> {
        let v = viewer
            .map(|p| crate::core::parse(p, "player"))
            .transpose()?;
        let lang = lang.filter(|l| !l.is_empty());
        let (session, source, lines) = self.session_source_lines();
        let p = present_from(session, v.as_ref(), lang, Some(lines), from)
            .map_err(|e| crate::core::runtime(source, &e))?;
        Ok(labels_dto(&p))
    }
}
