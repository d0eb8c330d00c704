//! Plays the shipped games: the first byte chooses the game, the rest drive the play
//! (`sidl_fuzz::play`), so the fuzzer reaches deep states of real games at once.
#![no_main]

use libfuzzer_sys::fuzz_target;

const GAMES: &[&str] = &[
    include_str!("../../games/chess.sidl"),
    include_str!("../../games/go.sidl"),
    include_str!("../../games/kalah.sidl"),
    include_str!("../../games/kuhn.sidl"),
    include_str!("../../games/mcp.sidl"),
    include_str!("../../games/nim.sidl"),
    include_str!("../../games/priceNegotiation.sidl"),
    include_str!("../../games/rps.sidl"),
    include_str!("../../games/tictactoe.sidl"),
    include_str!("../../games/tutorial.sidl"),
    include_str!("../../games/paper/chess.sidl"),
    include_str!("../../games/paper/mcp.sidl"),
    include_str!("../../games/paper/nim.sidl"),
    include_str!("../../games/paper/priceNegotiation.sidl"),
    include_str!("../../games/paper/rps.sidl"),
    // added later: appended, so that the corpus's first bytes keep choosing the same games
    include_str!("../../games/english.sidl"),
    include_str!("../../games/ultimatum.sidl"),
    include_str!("../../games/connect4.sidl"),
    include_str!("../../games/leduc.sidl"),
    include_str!("../../games/pennies.sidl"),
    include_str!("../../games/firstprice.sidl"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, driver)) = data.split_first() else {
        return;
    };
    sidl_fuzz::play(GAMES[which as usize % GAMES.len()], driver, 1_000_000);
});
