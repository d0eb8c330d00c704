//! Seats: who decides a player's actions. A seat kind is one variant of [`SeatKind`]; a new kind
//! (a search player, say) is a new variant, a line in [`SeatKind::parse`] and [`SeatKind::name`],
//! and an arm in [`SeatKind::auto_move`].

use super::Res;
use sidl_engine::ai::{self, AiSpec, Observation};
use sidl_engine::game::{Actions, Session, Submission};
use sidl_engine::syntax::parse_term;
use sidl_engine::term::Term;
use sidl_engine::write::writeq;

/// How a player's actions are decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person at the terminal.
    Human,
    /// Uniformly random actions from the session's seeded RNG (unlimited switches are left to their
    /// default: a random seat cannot invent a bid).
    Random,
    /// A search player (`minimax:DEPTH`, `mcts:ITERATIONS`) of `sidl_engine::ai`: it decides from its
    /// own observation only, with a seed drawn from the session's drivers' RNG.
    Ai(AiSpec),
}

/// The kinds `--seat` accepts, as written on the command line.
pub const KINDS: &[&str] = &["human", "random", "minimax:DEPTH", "mcts:ITERATIONS"];

impl SeatKind {
    /// Reads a seat kind as written after `PLAYER=`.
    pub fn parse(text: &str) -> Result<SeatKind, String> {
        match text.trim() {
            "human" => Ok(SeatKind::Human),
            "random" => Ok(SeatKind::Random),
            t if t.starts_with("minimax") || t.starts_with("mcts") => {
                AiSpec::parse(t).map(SeatKind::Ai)
            }
            other => Err(format!(
                "unknown seat kind '{other}': the seat kinds are {}",
                KINDS.join(", ")
            )),
        }
    }

    /// The kind as `--seat` writes it.
    pub fn name(&self) -> String {
        match self {
            SeatKind::Human => "human".to_string(),
            SeatKind::Random => "random".to_string(),
            SeatKind::Ai(spec) => spec.to_string(),
        }
    }

    pub fn is_human(&self) -> bool {
        matches!(self, SeatKind::Human)
    }

    /// An automatic seat submits its actions for the current state. With `one` (interrupt mode, where
    /// every accepted submission runs a transition) it stops after the first accepted submission.
    /// Returns the accepted submissions. A human seat submits nothing here.
    pub fn auto_move(&self, s: &mut Session, player: &Term, one: bool) -> Res<Vec<Submission>> {
        match self {
            SeatKind::Human => Ok(Vec::new()),
            SeatKind::Ai(spec) => {
                let mut accepted = Vec::new();
                if s.switches_of(player)?.is_empty() {
                    return Ok(accepted);
                }
                let obs = Observation::of(s, player)?;
                let seed = s.rng().next_u64();
                let choice = ai::choose(s.game(), &obs, *spec, seed)?;
                for sub in choice.submissions {
                    if s.submit(&sub.player, &sub.switch, &sub.action)?.is_ok() {
                        accepted.push(sub);
                        if one {
                            break;
                        }
                    }
                }
                Ok(accepted)
            }
            SeatKind::Random => {
                let mut accepted = Vec::new();
                for sw in s.switches_of(player)? {
                    let Actions::Finite(acts) = &sw.actions else {
                        continue;
                    };
                    if acts.is_empty() {
                        continue;
                    }
                    let i = s.rng().below(acts.len() as u64) as usize;
                    let Some(a) = acts.get(i) else { continue };
                    if s.submit(player, &sw.id, a)?.is_ok() {
                        accepted.push(Submission {
                            player: player.clone(),
                            switch: sw.id.clone(),
                            action: a.clone(),
                        });
                        if one {
                            break;
                        }
                    }
                }
                Ok(accepted)
            }
        }
    }
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
            e.contains("human, random, minimax:DEPTH, mcts:ITERATIONS"),
            "{e}"
        );
        let e = assign(&players(), &["[bob]=minimax:0".to_string()]).unwrap_err();
        assert!(e.contains("DEPTH must be a positive integer"), "{e}");
        let k = assign(&players(), &["[bob]=mcts:50".to_string()]);
        assert_eq!(
            k,
            Ok(vec![
                SeatKind::Human,
                SeatKind::Ai(AiSpec::Mcts { iterations: 50 })
            ])
        );
        let e = assign(&players(), &["[bob]".to_string()]).unwrap_err();
        assert!(e.contains("PLAYER=KIND"), "{e}");
        let e = assign(&players(), &["[bob=human".to_string()]).unwrap_err();
        assert!(e.contains("cannot read the player"), "{e}");
        let twice = ["[bob]=human".to_string(), "bob=random".to_string()];
        let e = assign(&players(), &twice).unwrap_err();
        assert!(e.contains("given twice"), "{e}");
    }
}
