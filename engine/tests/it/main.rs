//! The engine's integration tests: one test crate, one module per feature. Their data (fixtures with
//! the expectations written in them) stays beside this folder in `engine/tests/`. The tests that need
//! SWI-Prolog are in the package `sidl-swipl-tests` (`swipl/`).

#[path = "../syntax/common.rs"]
mod syntax_common;

mod analysis;
mod architecture_paths;
mod builtins_native;
mod chronon_budget;
mod context_tables;
mod control;
mod diagnostic_codes;
mod extensive;
mod extensive_steps;
mod game_properties;
mod hidden;
mod host_joins;
mod ide;
mod keyword_calls;
mod keyword_docs;
mod layout;
mod library_fast;
mod memo;
mod placement_runtime;
mod present;
mod runtime_errors;
mod semantics_sections;
mod session_scripts;
mod shipped_games;
mod statememo;
mod syntax;
mod syntax_props;
mod trajectories;
mod wam;
