pub mod builtins;
pub mod store;
