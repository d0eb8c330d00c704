//! The SIDL language server: a thin adapter from the Language Server Protocol (through
//! `tower-lsp-server`) to `sidl_engine::ide` and `sidl_engine::analysis`. Every request converts
//! positions to byte offsets (`LineIndex`, in the negotiated encoding), calls the engine, and
//! converts the plain result back. One file per request kind in [`server`].

pub mod server;
