pub mod arith;
pub mod builtins;
pub mod store;
