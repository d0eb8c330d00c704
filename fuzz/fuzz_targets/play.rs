//! Plays arbitrary games: the input is a game text, a NUL byte, and the bytes that drive the play
//! (`sidl_fuzz::play`: submissions among the legal actions and edge values, chance actions,
//! chronons, undo, views, replay, snapshots), with small budgets. A game that does not load is skipped.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, driver) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(src) = std::str::from_utf8(text) else {
        return;
    };
    sidl_fuzz::play(src, driver, 50_000);
});
