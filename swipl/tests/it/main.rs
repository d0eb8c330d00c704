//! The tests that compare sidl with SWI-Prolog 9 (`swipl` on the PATH; `scripts/setup.sh` installs
//! it): the built-ins, the logic engine and the prelude (data in `engine/tests/builtins/` and
//! `engine/tests/differential/`), the game manager against `tests/reference/gm.pl`, and the seed's
//! Kalah program (`tests/seeds/`). They fail, not skip, without `swipl`; this package is outside the
//! workspace's `default-members`, so a plain `cargo test` does not run them and `scripts/test.sh`
//! (`cargo test --workspace`) does.

#[path = "../../../engine/tests/differential/gen.rs"]
mod gen;
#[path = "../../../engine/tests/differential/harness.rs"]
mod harness;

mod builtins_vs_swipl;
mod differential;
mod differential_gm;
mod prelude_swi;
mod seeds_kalah;
