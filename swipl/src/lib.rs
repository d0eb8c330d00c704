//! Empty: this package only holds the tests in `tests/it/` (see its `main.rs`).
