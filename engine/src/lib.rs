//! `sidl-engine`: the pure core of sidl. Parsing, the logic engine, the game manager and the analyses.
//! No I/O, no clock, no OS randomness: adapters (CLI, LSP, WASM) do that.

pub mod ai;
pub mod analysis;
pub mod atom;
pub mod diag;
pub mod game;
pub mod ide;
pub mod rng;
pub mod seats;
pub mod solve;
pub mod stable_sort;
pub mod stats;
pub mod syntax;
pub mod term;
pub mod write;
