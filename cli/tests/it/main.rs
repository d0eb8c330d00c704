//! The `sidl` command line's integration tests: one test crate, one module per feature, each running
//! the real binary. Data: `cli/tests/data/`, `cli/tests/games/` and the repository's games.

mod common;

mod ai;
mod check;
mod color;
mod errors;
mod explore;
mod extensive;
mod pipe;
mod play;
mod play_layout;
mod play_pty;
mod query;
mod records;
mod seats;
mod seeds;
mod serve;
mod stats;
mod trace;
mod why;
