//! Seats: who decides each player's actions, and the one driver of the automatic seats. `sidl run`,
//! `sidl play`, `sidl tournament`, the WASM core (playground, embed element) and `sidl trace`/`sidl
//! bench` (random play) all submit the automatic seats' actions through these functions, so a seat
//! behaves the same everywhere:
//!
//! - [`random_moves`]: a uniformly random action, from the session's driver RNG
//!   ([`Session::rng`]), for each legal switch of the given players, switches in legal order. An
//!   unlimited switch draws from the game's `candidate/2` ([`sim::game_candidates`]) when the game
//!   defines it and `fill_unlimited` is asked (`sidl trace` and `sidl bench` keep the trace
//!   format's "unlimited switches get none": their default applies).
//! - [`ai_moves`]: what an AI player ([`AiSpec`]) chooses from the player's own [`Observation`].
//! - [`seat_moves`]: one seat's moves; [`round`]: one round of automatic seats and its chronon.
//! - [`idle`]: when no seat can act, nothing would happen in the next chronon, forever: it says
//!   which switches wait and why, and the drivers stop with that message instead of running empty
//!   chronons.

use crate::ai::{self, sim, AiSpec, Observation};
use crate::game::{Actions, Owner, RuntimeError, Session, Submission, SwitchInfo};
use crate::term::Term;
use crate::write::writeq;
use std::fmt;

/// How a player's actions are decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person (at a terminal, in a browser): the drivers submit nothing for it.
    Human,
    /// Uniformly random actions from the session's driver RNG ([`random_moves`]).
    Random,
    /// A search player (`minimax:DEPTH`, `mcts:ITERATIONS`, ...): it decides from its own
    /// observation only, with a seed drawn from the session's driver RNG ([`ai_moves`]).
    Ai(AiSpec),
}

/// The seat kinds as written (`--seat PLAYER=KIND`).
pub const KINDS: &[&str] = &[
    "human",
    "random",
    "minimax:DEPTH[:OBJECTIVE]",
    "mcts:ITERATIONS[:OBJECTIVE]",
];

impl Seat {
    /// Reads a seat kind: `human`, `random`, `minimax:DEPTH[:OBJECTIVE]` or
    /// `mcts:ITERATIONS[:OBJECTIVE]` ([`AiSpec::parse`]).
    pub fn parse(text: &str) -> Result<Seat, String> {
        match text.trim() {
            "human" => Ok(Seat::Human),
            "random" => Ok(Seat::Random),
            t if t.starts_with("minimax") || t.starts_with("mcts") => {
                AiSpec::parse(t).map(Seat::Ai)
            }
            other => Err(format!(
                "unknown seat kind '{other}': the seat kinds are {}",
                KINDS.join(", ")
            )),
        }
    }

    /// The kind as [`Seat::parse`] reads it.
    pub fn name(&self) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Random => "random".to_string(),
            Seat::Ai(spec) => spec.to_string(),
        }
    }

    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Random seats: for every legal switch (legal order) owned by one of `players` (every player for
/// `None`) with something to draw from, a uniformly random action (`rng.below(n)` of the session's
/// driver RNG), submitted at once. Finite switches draw from their actions; unlimited switches,
/// with `fill_unlimited`, from the game's `candidate/2` ([`sim::game_candidates`]), else they get
/// none (their default applies). A candidate that `switch/2` refuses is dropped and another one
/// drawn (uniformly among the rest); when all are refused the switch is left to its default. With `one`
/// (interrupt mode, where an accepted submission runs its own transition) it stops after the first
/// accepted submission. Returns the accepted submissions.
///
/// `sidl trace` without a script and `sidl bench` call it with every player, `fill_unlimited`
/// false and `one` false: the random play of the trace format.
pub fn random_moves(
    s: &mut Session,
    players: Option<&[Term]>,
    fill_unlimited: bool,
    one: bool,
) -> Result<Vec<Submission>, RuntimeError> {
    let mut accepted = Vec::new();
    draw_moves(s, players, fill_unlimited, one, Some(&mut accepted))?;
    Ok(accepted)
}

/// [`random_moves`], keeping the accepted submissions in `keep` when given (`sidl trace` and
/// `sidl bench` do not read them).
pub(crate) fn draw_moves(
    s: &mut Session,
    players: Option<&[Term]>,
    fill_unlimited: bool,
    one: bool,
    mut keep: Option<&mut Vec<Submission>>,
) -> Result<(), RuntimeError> {
    let switches = s.switches()?;
    let mut any = false;
    for sw in switches.iter() {
        let Owner::Player(p) = &sw.owner else {
            continue;
        };
        if players.is_some_and(|ps| !ps.contains(p)) {
            continue;
        }
        match &sw.actions {
            // a finite switch's action is drawn once from its actions (it is always accepted,
            // except for a switch that an earlier transition of this call made illegal)
            Actions::Finite(acts) => {
                if !acts.is_empty() {
                    let i = s.rng().below(acts.len() as u64) as usize;
                    if s.submit(p, &sw.id, &acts[i])?.is_ok() {
                        any = true;
                        if let Some(k) = keep.as_deref_mut() {
                            k.push(Submission {
                                player: p.clone(),
                                switch: sw.id.clone(),
                                action: acts[i].clone(),
                            });
                        }
                    }
                }
            }
            Actions::Unlimited(_) if !fill_unlimited => {}
            Actions::Unlimited(t) => {
                // the game's `candidate/2` actions (none without it); a candidate that switch/2
                // refuses is dropped and another one drawn
                let mut pool = sim::game_candidates(s, &sw.id, t)?.unwrap_or_default();
                while !pool.is_empty() {
                    let i = s.rng().below(pool.len() as u64) as usize;
                    if s.submit(p, &sw.id, &pool[i])?.is_ok() {
                        any = true;
                        if let Some(k) = keep.as_deref_mut() {
                            k.push(Submission {
                                player: p.clone(),
                                switch: sw.id.clone(),
                                action: pool.swap_remove(i),
                            });
                        }
                        break;
                    }
                    pool.remove(i);
                }
            }
        }
        if one && any {
            break;
        }
    }
    Ok(())
}

/// An AI seat: `player`'s choice by the AI `spec` ([`ai::choose`]) from the player's own
/// [`Observation`] and `seed`, submitted. A refused action (a candidate of an unlimited switch
/// that `switch/2` turns down) leaves its switch to its default. With `one` (interrupt mode) it
/// stops after the first accepted submission. Returns the accepted submissions.
pub fn ai_moves(
    s: &mut Session,
    player: &Term,
    spec: AiSpec,
    seed: u64,
    one: bool,
) -> Result<Vec<Submission>, RuntimeError> {
    ai_decision(s, player, spec, seed, one).map(|(accepted, _)| accepted)
}

/// [`ai_moves`] with the search's counters (`sidl bench GAME --ai SPEC` times exactly this: the
/// steps of the playground's `aiMoves`).
pub fn ai_decision(
    s: &mut Session,
    player: &Term,
    spec: AiSpec,
    seed: u64,
    one: bool,
) -> Result<(Vec<Submission>, ai::Stats), RuntimeError> {
    let mut accepted = Vec::new();
    if s.switches_of(player)?.is_empty() {
        return Ok((accepted, ai::Stats::default()));
    }
    let obs = Observation::of(s, player)?;
    let choice = ai::choose(s.game(), &obs, spec, seed)?;
    for sub in choice.submissions {
        if s.submit(&sub.player, &sub.switch, &sub.action)?.is_ok() {
            accepted.push(sub);
            if one {
                break;
            }
        }
    }
    Ok((accepted, choice.stats))
}

/// One automatic seat's moves for `player` now: a random seat as [`random_moves`] (unlimited
/// switches filled from `candidate/2`), an AI seat as [`ai_moves`] with a seed drawn from the
/// session's driver RNG (drawn only when the player owns a legal switch). A human seat submits
/// nothing. `one`: interrupt mode (at most one accepted submission).
pub fn seat_moves(
    s: &mut Session,
    player: &Term,
    seat: &Seat,
    one: bool,
) -> Result<Vec<Submission>, RuntimeError> {
    match seat {
        Seat::Human => Ok(Vec::new()),
        Seat::Random => random_moves(s, Some(std::slice::from_ref(player)), true, one),
        Seat::Ai(spec) => {
            if s.switches_of(player)?.is_empty() {
                return Ok(Vec::new());
            }
            let seed = s.rng().next_u64();
            ai_moves(s, player, *spec, seed, one)
        }
    }
}

/// The automatic seats' moves of a chronon in normal mode, where every submission waits for the
/// chronon: first every random seat at once ([`random_moves`] over their players, legal order),
/// then each AI seat in player order. `seats` is in player order (`Session::players`). Returns
/// the accepted submissions. (With only random seats and a game without `candidate/2`, this draws
/// exactly as `sidl trace` does.)
pub fn automatic_moves(s: &mut Session, seats: &[Seat]) -> Result<Vec<Submission>, RuntimeError> {
    let players = s.players();
    let random: Vec<Term> = players
        .iter()
        .zip(seats)
        .filter(|(_, k)| matches!(k, Seat::Random))
        .map(|(p, _)| p.clone())
        .collect();
    let mut accepted = Vec::new();
    if !random.is_empty() {
        accepted = random_moves(s, Some(&random), true, false)?;
    }
    for (p, k) in players.iter().zip(seats) {
        if let Seat::Ai(_) = k {
            accepted.extend(seat_moves(s, p, k, false)?);
        }
    }
    Ok(accepted)
}

/// Why no seat can act: nothing would happen in the next chronon (no submission, no default, no
/// chance switch), so the state would stay the same forever.
#[derive(Clone, Debug, PartialEq)]
pub struct Idle {
    /// The chronon that would run (the session's chronon + 1).
    pub chronon: u64,
    pub interrupt: bool,
    /// One line per legal switch: the switch, its owner and seat, and why it does not act.
    pub waiting: Vec<String>,
}

impl Idle {
    /// The first line of the message.
    pub fn summary(&self) -> String {
        let rule = if self.interrupt {
            "interrupt mode has no defaults"
        } else {
            "no switch has a default"
        };
        format!(
            "no seat can act at chronon {}: no seat submitted an action, {rule} and no chance \
             switch is legal, so nothing would ever change",
            self.chronon
        )
    }
}

impl fmt::Display for Idle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())?;
        for w in &self.waiting {
            write!(f, "\n  {w}")?;
        }
        Ok(())
    }
}

/// Would the switch act by its default in a normal-mode chronon (a `default/2` action, else the
/// first of a finite switch's actions)?
fn has_default(s: &mut Session, sw: &SwitchInfo) -> Result<bool, RuntimeError> {
    let d = crate::atom::Atom::new("default");
    if s.game().program.pred(d, 2).is_some() {
        let v = Term::Var(0);
        let goal = Term::new_compound(d, vec![sw.id.clone(), v.clone()]);
        if !s.query_state(&goal, &v, 1, "default/2")?.is_empty() {
            return Ok(true);
        }
    }
    Ok(matches!(&sw.actions, Actions::Finite(a) if !a.is_empty()))
}

/// After the seats of a round have submitted (`moved`: the accepted submissions of the round; in
/// interrupt mode they already ran their transitions): `Some` when no seat can act, i.e. nothing
/// would happen in the next chronon: no submission is pending or was made, no chance switch is
/// legal, and no legal switch acts by default (interrupt mode has no defaults). `seats` in player
/// order. A human seat that owns a legal switch can always act (it may choose another time), so
/// then this is `None`.
pub fn idle(s: &mut Session, seats: &[Seat], moved: usize) -> Result<Option<Idle>, RuntimeError> {
    if moved > 0 || !s.pending().is_empty() {
        return Ok(None);
    }
    let switches = s.switches()?;
    if switches.is_empty() || switches.iter().any(|sw| sw.owner.is_nature()) {
        return Ok(None);
    }
    let players = s.players();
    let seat_of = |p: &Term| -> Option<&Seat> {
        players
            .iter()
            .position(|q| q == p)
            .and_then(|i| seats.get(i))
    };
    let interrupt = s.settings().interrupt;
    for sw in switches.iter() {
        if let Owner::Player(p) = &sw.owner {
            if seat_of(p).is_some_and(Seat::is_human) {
                return Ok(None);
            }
        }
        if !interrupt && has_default(s, sw)? {
            return Ok(None);
        }
    }
    let mut waiting = Vec::new();
    for sw in switches.iter() {
        let id = writeq(&sw.id, None);
        let no_default = if interrupt {
            "interrupt mode has no defaults"
        } else {
            "it has no default/2 action"
        };
        let line = match &sw.owner {
            Owner::Player(p) => {
                let seat = seat_of(p).cloned().unwrap_or(Seat::Random);
                let who = format!("{} ({seat})", writeq(p, None));
                let why = match (&sw.actions, &seat) {
                    (Actions::Finite(a), _) if a.is_empty() => "it has no actions".to_string(),
                    (Actions::Finite(_), _) => "its seat submitted none of its actions".to_string(),
                    (Actions::Unlimited(t), seat) => match sim::game_candidates(s, &sw.id, t)? {
                        None if matches!(seat, Seat::Random) => {
                            "it is unlimited (typed templates) and the game has no candidate/2, \
                             from which random seats fill templates (docs/ai.md)"
                                .to_string()
                        }
                        None => {
                            if sim::candidates(s, sw)?.is_empty() {
                                "it is unlimited and the game has no candidate/2 to propose actions \
                                 for its atom or term slots (docs/ai.md)"
                                    .to_string()
                            } else {
                                "switch/2 refused the action its seat chose".to_string()
                            }
                        }
                        Some(c) if c.is_empty() => {
                            "candidate/2 gives no action that fits its templates now".to_string()
                        }
                        Some(_) if matches!(seat, Seat::Random) => {
                            "switch/2 refuses every candidate/2 action for it now".to_string()
                        }
                        Some(_) => "switch/2 refused the candidate its seat chose".to_string(),
                    },
                };
                format!("switch {id} of {who}: {why}; {no_default}")
            }
            Owner::Nobody => format!("switch {id} has no owner; {no_default}"),
            Owner::Other(o) => format!(
                "switch {id} is owned by {}, which is not a player; {no_default}",
                writeq(o, None)
            ),
            // a chance switch would act: not reached
            Owner::Equal(_) | Owner::Probs(_) | Owner::BadDistribution(_) => continue,
        };
        waiting.push(line);
    }
    Ok(Some(Idle {
        chronon: s.chronon() + 1,
        interrupt,
        waiting,
    }))
}

/// What [`round`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Round {
    /// Chronons ran (in interrupt mode one per accepted submission, or one in which only the chance
    /// switches acted); their records are the last `chronons` of the session's history.
    Ran {
        chronons: usize,
        moves: Vec<Submission>,
    },
    /// No seat can act: nothing ran.
    Idle(Idle),
}

/// One round of automatic seats (every seat random or AI; a human seat submits nothing), as `sidl
/// run`, `sidl play` without human seats and `sidl tournament` play it. Normal mode:
/// [`automatic_moves`], then the chronon. Interrupt mode: each seat in player order makes at most
/// one submission, which runs its own transition (the round stops early when the game ends or the
/// session reaches chronon `max_chronons`); when nobody submitted, a chronon runs in which only the
/// chance switches act. Either way, when no seat can act ([`idle`]) nothing runs and the result
/// says why.
pub fn round(s: &mut Session, seats: &[Seat], max_chronons: u64) -> Result<Round, RuntimeError> {
    let before = s.history().len();
    let moves = if s.settings().interrupt {
        let players = s.players();
        let mut moves = Vec::new();
        for (p, k) in players.iter().zip(seats) {
            if !moves.is_empty() && (s.chronon() >= max_chronons || s.is_terminal()?) {
                break;
            }
            moves.extend(seat_moves(s, p, k, true)?);
        }
        moves
    } else {
        automatic_moves(s, seats)?
    };
    if let Some(why) = idle(s, seats, moves.len())? {
        return Ok(Round::Idle(why));
    }
    if !s.settings().interrupt || moves.is_empty() {
        s.run_chronon()?;
    }
    Ok(Round::Ran {
        chronons: s.history().len() - before,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Settings};
    use std::sync::Arc;

    const TYPED: &str = "game(typed).\ninit([total, 0]).\ninit([solo], 0).\n\
        legal([main]) :- fact([total, N]), N < 100.\nowned([main], [solo]).\n\
        unlimited([main], [add, (n, integer)]).\n\
        switch([main], [add, N]) :- integer(N), N > 0, N < 50.\n\
        do([add, N]) :- fact([total, T]), T1 is T + N, delete([total, T]), create([total, T1]).\n";

    fn session(src: &str, interrupt: bool) -> Session {
        let (g, _) = Game::load(src).expect("loads");
        let settings = Settings {
            interrupt,
            ..Settings::default()
        };
        Session::new(Arc::new(g), 7, settings).expect("session")
    }

    fn nim() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/nim.sidl"))
            .expect("nim")
    }

    #[test]
    fn random_seats_fill_unlimited_switches_from_candidate_only() {
        let mut s = session(TYPED, false);
        assert!(random_moves(&mut s, None, true, false)
            .expect("moves")
            .is_empty());
        let with = format!("{TYPED}candidate([main], [add, N]) :- between(1, 60, N).\n");
        let mut s = session(&with, false);
        // the trace format's random play leaves unlimited switches alone
        assert!(random_moves(&mut s, None, false, false)
            .expect("moves")
            .is_empty());
        for _ in 0..10 {
            let m = random_moves(&mut s, None, true, false).expect("moves");
            assert_eq!(m.len(), 1);
            // 50..60 are refused by switch/2 and drawn again
            let n = m[0].action.as_list().and_then(|l| match l.get(1) {
                Some(Term::Int(n)) => Some(*n),
                _ => None,
            });
            assert!(n.is_some_and(|n| (1..50).contains(&n)), "{:?}", m[0].action);
            s.clear_pending();
        }
    }

    #[test]
    fn idle_explains_which_switch_waits_and_why() {
        for interrupt in [false, true] {
            let mut s = session(TYPED, interrupt);
            let seats = [Seat::Random];
            let Round::Idle(why) = round(&mut s, &seats, 1000).expect("round") else {
                panic!("the random seat cannot act")
            };
            assert_eq!(s.chronon(), 0);
            assert_eq!(why.chronon, 1);
            assert_eq!(why.waiting.len(), 1);
            let text = why.to_string();
            assert!(text.contains("switch [main] of [solo] (random)"), "{text}");
            assert!(text.contains("no candidate/2"), "{text}");
            assert_eq!(
                text.contains("interrupt mode has no defaults"),
                interrupt,
                "{text}"
            );
            // a human seat owning a legal switch can always act
            assert_eq!(idle(&mut s, &[Seat::Human], 0).expect("idle"), None);
        }
    }

    #[test]
    fn random_rounds_play_as_the_trace_does() {
        // every seat random, no candidate/2: the same draws as `sidl trace` without a script
        let mut a = session(&nim(), false);
        let mut b = session(&nim(), false);
        let seats = [Seat::Random, Seat::Random];
        while !a.is_terminal().expect("terminal") {
            assert!(matches!(
                round(&mut a, &seats, 1000).expect("round"),
                Round::Ran { .. }
            ));
            crate::game::trace::random_submissions(&mut b).expect("random");
            b.run_chronon().expect("chronon");
        }
        assert!(b.is_terminal().expect("terminal"));
        assert_eq!(a.history(), b.history());
    }
}
