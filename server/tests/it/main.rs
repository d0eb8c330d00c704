//! `sidl serve`'s integration tests: one test crate, one module per feature, each starting the real
//! binary (`sidl-serve`, the same as `sidl serve`) on 127.0.0.1 with SQLite in a temporary folder
//! and talking to it over HTTP and WebSockets as participants and the experimenter do.

mod support;

mod bots;
mod cluster;
mod export;
mod groups;
mod monitor;
mod play;
mod recovery;
mod seats;
mod security;
mod store;
