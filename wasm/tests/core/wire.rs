//! `Core`'s wire (`wasm/src/core/wire.rs`, what `randomMoves`, `chronon`, `view`, `aiMoves` and
//! `history` hand JavaScript): decoded as the page's snippet decodes it, it is exactly the DTOs of
//! the same calls as they serialise, on games with hidden information, simultaneous moves, chance,
//! unlimited switches and accounts, with the table emptied now and then and in interrupt mode.

use serde_json::Value;
use sidl_wasm::core::{wire_decode, Core};

fn file(rel: &str) -> String {
    std::fs::read_to_string(format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))).expect(rel)
}

/// Plays `chronons` random chronons of `game` twice, through the DTOs and through the wire (same
/// seeds, so the same play), comparing every chronon and every player's and the designer's view.
fn same_play(game: &str, chronons: u64, limit: usize, interrupt: bool) {
    let src = file(game);
    let mut dto = Core::new(&src).expect("loads");
    let mut wire = Core::new(&src).expect("loads");
    wire.set_wire_limit(limit);
    let mut table: Vec<Value> = Vec::new();
    let players = dto.players();
    let mut viewers: Vec<Option<&str>> = players.iter().map(|p| Some(p.as_str())).collect();
    viewers.push(None);
    let (mut seed, mut n) = (1, 0);
    dto.start(seed, interrupt).expect("start");
    wire.start(seed, interrupt).expect("start");
    while n < chronons {
        if dto.is_terminal().expect("terminal") {
            assert!(wire.is_terminal().expect("terminal"));
            seed += 1;
            dto.start(seed, interrupt).expect("start");
            wire.start(seed, interrupt).expect("start");
            continue;
        }
        let a = dto.random_moves(Some(&players)).expect("moves");
        // each WireOut handed back once decoded, as `lib.rs` does: its buffers serve the next call
        let w = wire.random_moves_wire(Some(&players)).expect("moves");
        let b = wire_decode::chronons(&mut table, &w);
        wire.recycle_wire(w);
        assert_eq!(
            serde_json::to_value(&a).expect("json"),
            Value::Array(b),
            "{game}"
        );
        if !interrupt {
            let a = dto.run_chronon().expect("chronon");
            let w = wire.run_chronon_wire().expect("chronon");
            let b = wire_decode::chronons(&mut table, &w);
            wire.recycle_wire(w);
            assert_eq!(b.len(), 1);
            assert_eq!(
                serde_json::to_value(&a).expect("json"),
                b[0],
                "{game} chronon {n}"
            );
        }
        for v in &viewers {
            let a = dto.view(*v).expect("view");
            let w = wire.view_wire(*v).expect("view");
            let b = wire_decode::view(&mut table, &w);
            wire.recycle_wire(w);
            assert_eq!(a, b, "{game} {v:?}");
        }
        // every player's switches and every viewer's view in one call: each the per-player
        // call's answer (a player's switches and view show only what that player may see)
        let w = wire
            .switches_and_views_wire(&players, &viewers)
            .expect("switches and views");
        let (switches, views) = wire_decode::switches_and_views(&mut table, &w);
        wire.recycle_wire(w);
        let want: Vec<Value> = players
            .iter()
            .map(|p| serde_json::to_value(dto.switches(Some(p)).expect("switches")).expect("json"))
            .collect();
        assert_eq!(switches, want, "{game} chronon {n}");
        for (v, facts) in viewers.iter().zip(&views) {
            assert_eq!(&dto.view(*v).expect("view"), facts, "{game} {v:?}");
        }
        n += 1;
    }
    let a = dto.history().expect("history");
    let b = wire_decode::chronons(&mut table, &wire.history_wire().expect("history"));
    assert_eq!(serde_json::to_value(&a).expect("json"), Value::Array(b));
    assert!(dto.view(Some("[nobody]")).is_err() && wire.view_wire(Some("[nobody]")).is_err());
    // an error (a viewer that is not a player, a text that does not parse) writes nothing to the
    // table: the next call decodes as before
    let first = [players[0].as_str()];
    assert!(wire
        .switches_and_views_wire(&first, &[Some("[nobody]")])
        .is_err());
    assert!(wire
        .switches_and_views_wire(&["[unclosed"], &[None::<&str>])
        .is_err());
    let w = wire
        .switches_and_views_wire(&first, &[Some(first[0])])
        .expect("switches and views");
    let (switches, views) = wire_decode::switches_and_views(&mut table, &w);
    let want = serde_json::to_value(dto.switches(Some(first[0])).expect("switches")).expect("json");
    assert_eq!(switches, vec![want]);
    assert_eq!(views, vec![dto.view(Some(first[0])).expect("view")]);
}

#[test]
fn the_wire_decodes_to_the_dtos() {
    for game in [
        "games/kuhn.sidl",
        "games/rps.sidl",
        "games/priceNegotiation.sidl",
        "games/nim.sidl",
        "games/leduc.sidl",
        "games/connect4.sidl",
        "games/tictactoe.sidl",
    ] {
        same_play(game, 60, 8192, false);
        // a small table: emptied many times, within a call's values too
        same_play(game, 60, 7, false);
    }
}

#[test]
fn the_wire_decodes_to_the_dtos_in_interrupt_mode() {
    same_play("games/nim.sidl", 30, 8192, true);
    same_play("games/kuhn.sidl", 30, 5, true);
}

#[test]
fn ai_moves_hand_over_the_chronons_they_ran() {
    let src = file("games/nim.sidl");
    let mut dto = Core::new(&src).expect("loads");
    let mut wire = Core::new(&src).expect("loads");
    let mut table = Vec::new();
    for g in [&mut dto, &mut wire] {
        g.start(1, true).expect("interrupt mode");
    }
    let a = dto.ai_moves("[alice]", "minimax:2", 3).expect("ai");
    let b = wire_decode::chronons(
        &mut table,
        &wire.ai_moves_wire("[alice]", "minimax:2", 3).expect("ai"),
    );
    assert_eq!(a.len(), 1, "interrupt mode: the AI's move ran its chronon");
    assert_eq!(serde_json::to_value(&a).expect("json"), Value::Array(b));
    assert!(wire.ai_moves_wire("[nobody]", "minimax:2", 3).is_err());
}
