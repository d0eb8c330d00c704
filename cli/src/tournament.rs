//! `sidl tournament` (AI seats play N games; a win/draw/loss table) and `sidl bench --ai` (the speed
//! of an AI player on a game).

use crate::play::seat::{self, SeatKind};
use crate::render;
use sidl_engine::ai::{AiSpec, Stats};
use sidl_engine::game::record::Record;
use sidl_engine::game::{RuntimeError, Session, Settings};
use sidl_engine::seats::{self, Idle, Round};
use sidl_engine::write::writeq;
use std::path::Path;
use std::sync::Arc;

/// The outcome of one game per player: 0 win (strictly highest final account), 1 draw (tied for the
/// highest), 2 loss.
pub fn outcomes(accounts: &[f64]) -> Vec<usize> {
    let best = accounts.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied = accounts.iter().filter(|&&a| a == best).count();
    accounts
        .iter()
        .map(|&a| match (a == best, tied) {
            (true, 1) => 0,
            (true, _) => 1,
            _ => 2,
        })
        .collect()
}

/// Plays one game with the seats (the engine's seat driver, [`seats::round`]); returns the final
/// accounts, the number of chronons and, for a game stopped because no seat could act, why.
type Played = (Vec<f64>, u64, Option<Idle>, Session);

fn play_one(
    game: &Arc<sidl_engine::game::Game>,
    seed: u64,
    seats: &[SeatKind],
    max_chronons: u64,
) -> Result<Played, Box<RuntimeError>> {
    let mut s = Session::new(game.clone(), seed, Settings::default())?;
    let mut idle = None;
    while !s.is_terminal()? && s.chronon() < max_chronons {
        if let Round::Idle(why) = seats::round(&mut s, seats, max_chronons)? {
            idle = Some(why);
            break;
        }
    }
    let accounts = s.state().account_values();
    let c = s.chronon();
    Ok((accounts, c, idle, s))
}

/// `sidl tournament GAME --seat P=KIND ... --games N`: exit 0, 1 (load error, bad seat), 2 (a runtime
/// error of the game).
pub fn tournament(
    file: &Path,
    seats: &[String],
    games: u64,
    seed: u64,
    max_chronons: u64,
    record: Option<&Path>,
) -> u8 {
    let name = file.display().to_string();
    let (game, src) = match crate::commands::load_game(file) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let players = match Session::new(game.clone(), seed, Settings::default()) {
        Ok(s) => s.players(),
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            return 2;
        }
    };
    // unnamed seats play at random
    let kinds: Vec<SeatKind> =
        match seat::automatic(&players, seats, "a tournament has no human seats") {
            Ok(k) => k,
            Err(m) => {
                eprintln!("error: {m}");
                return 1;
            }
        };
    let kind_names: Vec<String> = kinds.iter().map(SeatKind::name).collect();
    let mut records = match record.map(crate::commands::RecordWriter::open).transpose() {
        Ok(w) => w,
        Err(c) => return c,
    };
    let n = players.len();
    let mut table = vec![[0u64; 3]; n];
    let mut sums = vec![0.0; n];
    let mut chronons = 0;
    let mut idle: Vec<(u64, u64, Idle)> = Vec::new();
    for g in 0..games {
        let (accounts, c, stuck, mut s) =
            match play_one(&game, seed.wrapping_add(g), &kinds, max_chronons) {
                Ok(r) => r,
                Err(e) => {
                    let at = format!("game {} (seed {}): ", g + 1, seed.wrapping_add(g));
                    render::runtime_error(&name, &src, &e, &at);
                    return 2;
                }
            };
        if let Some(w) = records.as_mut() {
            let r = Record::of_session(
                &mut s,
                &crate::commands::game_name(file),
                &src,
                &kind_names,
                &[],
                None,
            );
            if let Err(c) = w.write(&r) {
                return c;
            }
        }
        chronons += c;
        if let Some(why) = stuck {
            idle.push((g, c, why));
        }
        for (i, o) in outcomes(&accounts).into_iter().enumerate() {
            table[i][o] += 1;
            sums[i] += accounts[i];
        }
    }
    println!(
        "{}: {games} games, seeds {seed}..{}, at most {max_chronons} chronons each (mean {:.1})",
        file.display(),
        seed.wrapping_add(games.saturating_sub(1)),
        chronons as f64 / games.max(1) as f64
    );
    if let Some((g, c, why)) = idle.first() {
        let n = idle.len();
        let games_word = if n == 1 { "game" } else { "games" };
        eprintln!(
            "note: {n} {games_word} stopped because no seat could act; the first, game {} (seed {}), after {c} chronons: {why}",
            g + 1,
            seed.wrapping_add(*g)
        );
    }
    let names: Vec<String> = players.iter().map(|p| writeq(p, None)).collect();
    let kinds: Vec<String> = kinds.iter().map(SeatKind::name).collect();
    let w = names.iter().map(String::len).max().unwrap_or(6).max(6);
    let k = kinds.iter().map(String::len).max().unwrap_or(4).max(4);
    println!(
        "{:<w$}  {:<k$}  {:>6}  {:>6}  {:>6}  {:>12}",
        "player", "seat", "wins", "draws", "losses", "mean account"
    );
    for i in 0..n {
        println!(
            "{:<w$}  {:<k$}  {:>6}  {:>6}  {:>6}  {:>12.3}",
            names[i],
            kinds[i],
            table[i][0],
            table[i][1],
            table[i][2],
            sums[i] / games.max(1) as f64
        );
    }
    0
}

/// `sidl bench GAME --ai SPEC`: the AI decides for the first deciding player at `decisions` positions
/// of a random game (seed `seed`); prints the time (of the player's observation, the search and the
/// submission: [`seats::ai_decision`]), the AI's playouts (MCTS iterations) or nodes (minimax) and
/// simulated chronons per second.
pub fn bench_ai(file: &Path, spec: &str, decisions: u64, seed: u64) -> u8 {
    let spec = match AiSpec::parse(spec) {
        Ok(s) => s,
        Err(m) => {
            eprintln!("error: --ai {m}");
            return 1;
        }
    };
    let name = file.display().to_string();
    let (game, src) = match crate::commands::load_game(file) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let run = || -> Result<(Stats, u64, f64), RuntimeError> {
        let mut total = Stats::default();
        let mut done = 0;
        let mut secs = 0.0;
        let mut game_seed = seed;
        while done < decisions {
            let mut s = Session::new(game.clone(), game_seed, Settings::default())?;
            game_seed += 1;
            while done < decisions && !s.is_terminal()? {
                let deciding = s
                    .players()
                    .into_iter()
                    .find(|p| s.switches_of(p).is_ok_and(|v| !v.is_empty()));
                if let Some(p) = deciding {
                    // a decision as a seat makes it: the player's observation, the search and
                    // the submission (what the playground's `aiMoves` and `sidl play`'s AI seats
                    // do; the random submissions below then replace it, as `loops.mjs` does)
                    let start = std::time::Instant::now();
                    let (_, stats) = seats::ai_decision(&mut s, &p, spec, done, false)?;
                    secs += start.elapsed().as_secs_f64();
                    total.nodes += stats.nodes;
                    total.chronons += stats.chronons;
                    total.determinizations += stats.determinizations;
                    done += 1;
                }
                sidl_engine::game::trace::random_submissions(&mut s)?;
                s.run_chronon()?;
            }
            if s.chronon() == 0 {
                return Err(RuntimeError::new(
                    sidl_engine::solve::errors::codes::TERMINAL_AT_START,
                    "bench",
                    "the game is terminal in its initial state",
                ));
            }
        }
        Ok((total, done, secs))
    };
    // what a search saves by forking a session instead of starting a new one (init/1, init/2)
    let copies = || -> Result<(f64, f64), RuntimeError> {
        let n = 200;
        let start = std::time::Instant::now();
        let mut s = Session::new(game.clone(), seed, Settings::default())?;
        for _ in 1..n {
            s = Session::new(game.clone(), seed, Settings::default())?;
        }
        let new_us = start.elapsed().as_secs_f64() * 1e6 / n as f64;
        let start = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(s.fork());
        }
        Ok((new_us, start.elapsed().as_secs_f64() * 1e6 / n as f64))
    };
    match run().and_then(|r| copies().map(|c| (r, c))) {
        Ok(((st, done, secs), (new_us, fork_us))) => {
            let what = match spec {
                AiSpec::Mcts { .. } => "playouts",
                _ => "nodes",
            };
            println!(
                "ai={spec} decisions={done} seconds={secs:.3} seconds_per_decision={:.4} {what}={} {what}_per_sec={:.0} chronons={} chronons_per_sec={:.0} determinizations={} session_new_us={new_us:.1} fork_us={fork_us:.1}",
                secs / done.max(1) as f64,
                st.nodes,
                st.nodes as f64 / secs.max(1e-9),
                st.chronons,
                st.chronons as f64 / secs.max(1e-9),
                st.determinizations
            );
            0
        }
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::outcomes;

    #[test]
    fn wins_draws_losses() {
        assert_eq!(outcomes(&[100.0, 0.0]), [0, 2]);
        assert_eq!(outcomes(&[50.0, 50.0]), [1, 1]);
        assert_eq!(outcomes(&[1.0, 3.0, 3.0]), [2, 1, 1]);
    }
}
