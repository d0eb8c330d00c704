//! The game manager: SIDL3.0 games chronon by chronon (Def.1 and Algorithm 1 of the paper, with every
//! open point fixed by docs/semantics.md §2–§7). Pure: no I/O, randomness from the session's seeded RNG.
//!
//! - [`Game`]: a loaded game (program with the keyword predicates provided by the manager).
//! - [`Session`]: one play of a game: state, submissions, chronons, views, events, history, undo.
//! - [`events`]: the texts of events (the playground, `sidl play`, `sidl run`).

pub mod events;
pub mod facts;
pub mod host;
mod intern;
mod join;
pub mod layout;
pub mod present;
pub mod record;
pub mod session;
pub mod trace;
pub mod why;

pub use session::{
    account_value, fill_template, template_slots, Actions, ChrononRecord, Event, Owner,
    PlayerEvents, RuntimeError, Session, SessionSnapshot, Settings, State, Submission, SwitchInfo,
    TemplateSlot,
};

use crate::diag::Diagnostic;
use crate::solve::{Program, ProgramBuilder, SourceClause};
use std::sync::Arc;

/// A loaded game.
#[derive(Clone, Debug)]
pub struct Game {
    pub program: Program,
    pub source: Arc<str>,
    /// `legal/1` and `switch/2` when they are joins the host answers ([`join`]).
    pub(crate) joins: join::Joins,
}

impl Game {
    /// Loads a game. Syntax errors (and load errors such as a game defining `fact/1`) block: the result
    /// is `Err` with every diagnostic. Otherwise the game and its (non-blocking) diagnostics.
    pub fn load(src: &str) -> Result<(Game, Vec<Diagnostic>), Vec<Diagnostic>> {
        let parsed = crate::syntax::parse_file(src);
        Game::from_parsed(&parsed, src)
    }

    /// Whether `legal/1` and `switch/2` are joins the host answers (`crate::game::join`): for the
    /// tests and the performance notes.
    #[doc(hidden)]
    pub fn host_joins(&self) -> (bool, bool) {
        (self.joins.legal.is_some(), self.joins.switch.is_some())
    }

    /// [`Game::load`] of an already parsed source (the analyses and the language server keep it).
    pub fn from_parsed(
        parsed: &crate::syntax::ParsedFile,
        src: &str,
    ) -> Result<(Game, Vec<Diagnostic>), Vec<Diagnostic>> {
        let mut diags = parsed.diagnostics.clone();
        let clauses = parsed.clauses.iter().map(|c| SourceClause {
            term: c.term.clone(),
            span: c.span,
            var_names: c.var_names.clone().into(),
        });
        let (program, mut d) = ProgramBuilder::new()
            .host_predicates(&host::keyword_predicates())
            .state_hosts((1 << host::PLAYER) | (1 << host::FACT))
            .context_hosts((1 << host::TOCREATE) | (1 << host::TODELETE) | (1 << host::DOES))
            .list_hosts(
                (1 << host::FACT)
                    | (1 << host::CREATE)
                    | (1 << host::DELETE)
                    | (1 << host::TOCREATE)
                    | (1 << host::TODELETE),
            )
            .clauses(clauses)
            .build();
        diags.append(&mut d);
        diags.extend(crate::analysis::lints::unknown_slot_types(&parsed.clauses));
        crate::diag::sort_by_start(&mut diags);
        if diags.iter().any(|d| d.is_error()) {
            return Err(diags);
        }
        Ok((
            Game {
                joins: join::plan(parsed.clauses.iter().map(|c| &c.term), &program),
                program,
                source: src.into(),
            },
            diags,
        ))
    }
}
