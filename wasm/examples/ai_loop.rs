//! The AI decisions of `scripts/bench-wasm/loops.mjs`'s `aiLoop` run natively through
//! [`sidl_wasm::core::Core`] (the Rust half of `SidlGame.aiMoves`: the player and the spec read,
//! the observation, the search, the submission), for comparing its instruction counts with
//! `sidl bench GAME --ai SPEC --decisions K` (the observation and the search alone):
//!
//! ```sh
//! cargo build --release -p sidl-wasm --example ai_loop
//! valgrind --tool=callgrind target/release/examples/ai_loop games/nim.sidl minimax:4 1000 1
//! ```
use sidl_wasm::core::Core;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, spec, decisions, seed] = &args[..] else {
        return Err("usage: ai_loop GAME SPEC DECISIONS SEED".into());
    };
    let source = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let decisions: u64 = decisions.parse().map_err(|e| format!("DECISIONS: {e}"))?;
    let mut seed: u64 = seed.parse().map_err(|e| format!("SEED: {e}"))?;
    let mut g = Core::new(&source).map_err(|e| e.message)?;
    let players = g.players();
    let mut done = 0;
    g.start(seed, false).map_err(|e| e.message)?;
    while done < decisions {
        if g.is_terminal().map_err(|e| e.message)? {
            seed += 1;
            g.start(seed, false).map_err(|e| e.message)?;
            continue;
        }
        let mut deciding = None;
        for p in &players {
            if !g.switches(Some(p)).map_err(|e| e.message)?.is_empty() {
                deciding = Some(p.clone());
                break;
            }
        }
        if let Some(p) = deciding {
            g.ai_moves(&p, spec, done).map_err(|e| e.message)?;
            done += 1;
        }
        g.random_moves(None).map_err(|e| e.message)?;
        g.run_chronon().map_err(|e| e.message)?;
    }
    println!("decisions={done}");
    Ok(())
}
