//! Seats: who decides a player's actions. The seat kinds and the driver of the automatic seats
//! (random and AI) are the engine's ([`sidl_engine::seats`]), shared with `sidl run`, `sidl
//! tournament` and the WASM core; this module reads the `--seat` options.

pub use sidl_engine::seats::Seat as SeatKind;
use sidl_engine::syntax::parse_term;
use sidl_engine::term::Term;
use sidl_engine::write::writeq;

/// The seats of games played without people (`sidl tournament`, `sidl stats`): [`assign`], with
/// the unnamed players at random; a `human` seat is an error whose text ends with `why`.
pub fn automatic(players: &[Term], specs: &[String], why: &str) -> Result<Vec<SeatKind>, String> {
    if specs.iter().any(|s| s.trim_end().ends_with("=human")) {
        return Err(why.to_string());
    }
    Ok(assign(players, specs)?
        .into_iter()
        .map(|k| if k.is_human() { SeatKind::Random } else { k })
        .collect())
}

/// Reads the `--seat PLAYER=KIND` options against the game's players: one kind per player, in player
/// order, `human` unless a seat says otherwise. `PLAYER` is the player term as text (`[bob]`); a bare
/// atom `bob` also names the player `[bob]`.
pub fn assign(players: &[Term], specs: &[String]) -> Result<Vec<SeatKind>, String> {
    let mut kinds: Vec<Option<SeatKind>> = vec![None; players.len()];
    let list = || {
        let names: Vec<String> = players.iter().map(|p| writeq(p, None)).collect();
        if names.is_empty() {
            "this game has no players".to_string()
        } else {
            format!("the players are {}", names.join(", "))
        }
    };
    for spec in specs {
        let Some((who, kind)) = spec.rsplit_once('=') else {
            return Err(format!(
                "--seat '{spec}': write PLAYER=KIND, e.g. --seat '[bob]=random'"
            ));
        };
        let kind = SeatKind::parse(kind).map_err(|m| format!("--seat '{spec}': {m}"))?;
        let term = match parse_term(who.trim()) {
            Ok(r) => r.term,
            Err(d) => {
                let why = d
                    .first()
                    .map(|d| d.message.clone())
                    .unwrap_or_else(|| "not a term".to_string());
                return Err(format!(
                    "--seat '{spec}': cannot read the player '{}': {why}",
                    who.trim()
                ));
            }
        };
        let index = players.iter().position(|p| p == &term).or_else(|| {
            matches!(term, Term::Atom(_))
                .then(|| Term::list(vec![term.clone()]))
                .and_then(|l| players.iter().position(|p| p == &l))
        });
        let Some(i) = index else {
            return Err(format!(
                "--seat '{spec}': {} is not a player; {}",
                writeq(&term, None),
                list()
            ));
        };
        if kinds[i].is_some() {
            return Err(format!(
                "--seat '{spec}': the seat of {} is given twice",
                writeq(&players[i], None)
            ));
        }
        kinds[i] = Some(kind);
    }
    Ok(kinds
        .into_iter()
        .map(|k| k.unwrap_or(SeatKind::Human))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sidl_engine::ai::AiSpec;

    fn players() -> Vec<Term> {
        ["alice", "bob"]
            .iter()
            .map(|n| Term::list(vec![Term::atom(n)]))
            .collect()
    }

    #[test]
    fn seats_default_to_human() {
        let k = assign(&players(), &["[bob]=random".to_string()]);
        assert_eq!(k, Ok(vec![SeatKind::Human, SeatKind::Random]));
        let k = assign(&players(), &["alice=random".to_string()]);
        assert_eq!(k, Ok(vec![SeatKind::Random, SeatKind::Human]));
    }

    #[test]
    fn bad_seats_are_explained() {
        let e = assign(&players(), &["[carol]=random".to_string()]).unwrap_err();
        assert!(e.contains("[carol] is not a player"), "{e}");
        assert!(e.contains("[alice], [bob]"), "{e}");
        let e = assign(&players(), &["[bob]=alphabeta".to_string()]).unwrap_err();
        assert!(e.contains("unknown seat kind 'alphabeta'"), "{e}");
        assert!(
            e.contains("human, random, minimax:DEPTH[:OBJECTIVE], mcts:ITERATIONS[:OBJECTIVE]"),
            "{e}"
        );
        let e = assign(&players(), &["[bob]=minimax:0".to_string()]).unwrap_err();
        assert!(e.contains("DEPTH must be a positive integer"), "{e}");
        let k = assign(&players(), &["[bob]=mcts:50".to_string()]);
        assert_eq!(k, Ok(vec![SeatKind::Human, SeatKind::Ai(AiSpec::mcts(50))]));
        let e = assign(&players(), &["[bob]".to_string()]).unwrap_err();
        assert!(e.contains("PLAYER=KIND"), "{e}");
        let e = assign(&players(), &["[bob=human".to_string()]).unwrap_err();
        assert!(e.contains("cannot read the player"), "{e}");
        let twice = ["[bob]=human".to_string(), "bob=random".to_string()];
        let e = assign(&players(), &twice).unwrap_err();
        assert!(e.contains("given twice"), "{e}");
    }
}
