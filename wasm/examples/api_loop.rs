//! The playground's API loop (`scripts/bench-wasm/loops.mjs`'s `apiLoop`) run natively through
//! [`sidl_wasm::core::Core`], the Rust half of every `SidlGame` call (the wire of views and
//! chronons, `wasm/src/core/wire.rs`, and the shared switches), for profiling it with instruction
//! counts (the JavaScript side of the conversion is not in it):
//!
//! ```sh
//! cargo build --release -p sidl-wasm --example api_loop
//! valgrind --tool=callgrind target/release/examples/api_loop games/kuhn.sidl 2000 1
//! ```
//!
//! A fourth argument `dto` runs the DTO methods instead (`Core::random_moves`, `run_chronon`,
//! `switches`, `view`: the Rust half before the wire).
use sidl_wasm::core::Core;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (path, chronons, seed, dto) = match &args[..] {
        [_, path, chronons, seed] => (path, chronons, seed, false),
        [_, path, chronons, seed, d] if d == "dto" => (path, chronons, seed, true),
        _ => return Err("usage: api_loop GAME CHRONONS SEED [dto]".into()),
    };
    let source = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let chronons: u64 = chronons.parse().map_err(|e| format!("CHRONONS: {e}"))?;
    let mut seed: u64 = seed.parse().map_err(|e| format!("SEED: {e}"))?;
    let mut g = Core::new(&source).map_err(|e| e.message)?;
    let players = g.players();
    let viewers: Vec<Option<&str>> = players.iter().map(|p| Some(p.as_str())).collect();
    let (mut n, mut games) = (0, 1);
    g.start(seed, false).map_err(|e| e.message)?;
    while n < chronons {
        if g.is_terminal().map_err(|e| e.message)? {
            seed += 1;
            games += 1;
            g.start(seed, false).map_err(|e| e.message)?;
            continue;
        }
        if dto {
            g.random_moves(Some(&players)).map_err(|e| e.message)?;
            g.run_chronon().map_err(|e| e.message)?;
            for p in &players {
                g.switches(Some(p)).map_err(|e| e.message)?;
                g.view(Some(p)).map_err(|e| e.message)?;
            }
        } else {
            // each WireOut handed back, as `SidlGame` does once its values have crossed
            let w = g.random_moves_wire(Some(&players)).map_err(|e| e.message)?;
            g.recycle_wire(w);
            let w = g.run_chronon_wire().map_err(|e| e.message)?;
            g.recycle_wire(w);
            // every player's switches and view in one call, as apiLoop asks them
            let w = g
                .switches_and_views_wire(&players, &viewers)
                .map_err(|e| e.message)?;
            g.recycle_wire(w);
        }
        n += 1;
    }
    println!("chronons={n} games={games}");
    Ok(())
}
