//! `sidl play`: play a game at the terminal, chronon by chronon. Every human seat sees only its own
//! view (docs/semantics.md §6.1); automatic seats (`random`) submit from the session's seeded RNG.

pub mod seat;
mod show;

use crate::render;
use seat::SeatKind;
use sidl_engine::game::layout;
use sidl_engine::game::present::Presenter;
use sidl_engine::game::session::{slot_type_description, slot_value};
use sidl_engine::game::{
    fill_template, template_slots, Actions, RuntimeError, Session, Settings, SwitchInfo,
};
use sidl_engine::seats::{self, Idle, Round};
use sidl_engine::syntax::parse_term;
use sidl_engine::term::Term;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// A game runtime error, boxed (it is large and travels through every step of the loop).
pub type Res<T> = Result<T, Box<RuntimeError>>;

const AFTER_HELP: &str = "\
Seats: every player is `human` unless --seat says otherwise. PLAYER is the player term as the
game writes it (`--seat '[bob]=random'`; a bare atom `bob` also names `[bob]`). Seat kinds:
  human    a person at this terminal; several humans share it, and each one is shown only
           its own view (with a 'hand the terminal to ...' separator between players)
  random   uniformly random actions from the game's seeded RNG (same --seed, same play);
           an unlimited switch draws from the game's candidate/2 (docs/ai.md), and without
           candidate/2 it is left to its default
  minimax:DEPTH     depth-bounded game-tree search (docs/ai.md)
  mcts:ITERATIONS   Monte Carlo tree search (decoupled UCT, determinization for hidden facts)
           an AI maximises its own account; add :relative (its account minus the best other
           account) or :paranoid (its account, against players who minimise it): minimax:4:relative
           AI seats decide from their own view only, with seeds from --seed (same seed, same play)

A human seat is shown only what its player may see: its view, the accounts and its own events.
What the other seats chose shows only through those (never as a move of theirs). With no human
seat, every move of the automatic seats is printed, with the accounts after each chronon.
When no seat can act (nothing would happen in the next chronon: no submission, no default, no
chance switch), the game stops with a message saying which switches wait and why.

Each chronon, every human seat that owns a legal switch sees its visible facts, the accounts,
the events it may see since its last turn, and its switches: choose an action by number, type
an action term, or type `wait` (or `skip`) to leave the switch to the game's default. For an
unlimited switch choose a template, then type each slot value (an integer typed for a `double`
slot is taken as the equal float, as everywhere: docs/semantics.md §4.4). Commands at any prompt: undo, history, view, help, quit. End of
input ends the game (exit status 0).

Labels: a game that defines label/2 or label/3 (docs/reference.md, Labels) is shown in its own
words (facts, switches, actions, accounts, events, its description, the player's role and the
result lines), each seat's labels built from its own view only; --lang picks label/3's language,
--raw shows the raw terms instead (for designers).

--interrupt: interrupt mode (paper §4). Every accepted submission immediately runs its own
transition, in which only that switch acts (no defaults, no chance switches). So each seat
makes at most one submission per turn and the players after it see the new state. When no
seat submits anything in a round, a chronon runs in which only the chance switches act.

Exit status: 0 when the game ends, stops, is quit or input ends; 1 for a game that does not
load or a bad --seat; 2 for a runtime error of the game with no human seat to decide.";

/// The arguments of `sidl play`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct PlayArgs {
    /// The game file.
    pub game: PathBuf,
    /// PLAYER=KIND: who plays PLAYER, KIND `human` (the default), `random`, `minimax:DEPTH` or
    /// `mcts:ITERATIONS`, optionally followed by `:relative` or `:paranoid`. Repeat per player.
    #[arg(long = "seat", value_name = "PLAYER=KIND")]
    pub seats: Vec<String>,
    /// Seed of the game's RNG (chance switches and random seats).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Interrupt mode: every accepted submission triggers its own transition (see --help).
    #[arg(long)]
    pub interrupt: bool,
    /// Stop after this many chronons (as `sidl run`, `trace` and `tournament`).
    #[arg(long, default_value_t = 1000)]
    pub max_chronons: u64,
    /// The language of the game's labels (`label/3`, docs/reference.md "Labels"), e.g. `de`;
    /// without it the game's default labels (`label/2`).
    #[arg(long, conflicts_with = "raw")]
    pub lang: Option<String>,
    /// Show the raw terms, not the game's labels (for designers, as the playground's toggle).
    #[arg(long)]
    pub raw: bool,
}

/// `sidl play`: exit 0 (game over, stopped, quit, end of input), 1 (load error, bad seat), 2 (a
/// runtime error with no human to decide what to do).
pub fn run(args: &PlayArgs) -> u8 {
    let (game, _src) = match crate::commands::load_game(&args.game) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let settings = Settings {
        interrupt: args.interrupt,
        ..Settings::default()
    };
    let session = match Session::new(game.clone(), args.seed, settings) {
        Ok(s) => s,
        Err(e) => {
            render::runtime_error(&args.game.display().to_string(), &game.source, &e, "");
            return 2;
        }
    };
    let players = session.players();
    let seats = match seat::assign(&players, &args.seats) {
        Ok(s) => s,
        Err(m) => {
            eprintln!("error: {m}");
            return 1;
        }
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let (term_in, term_out) = (stdin.is_terminal(), stdout.is_terminal());
    let mut play = Play {
        initial_accounts: session.accounts(),
        s: session,
        name: args.game.display().to_string(),
        src: game.source.clone(),
        seen: vec![0; players.len()],
        turn_from: vec![0; players.len()],
        players,
        seats,
        interrupt: args.interrupt,
        max: args.max_chronons,
        seed: args.seed,
        input: Box::new(stdin.lock()),
        out: Box::new(stdout.lock()),
        echo: !term_in,
        color: crate::color::stdout(),
        pause: term_in && term_out,
        last_human: None,
        lang: args.lang.clone(),
        raw: args.raw,
    };
    play.main()
}

/// What the game loop does next.
enum Flow {
    Go,
    Undo,
    Quit,
    Eof,
    /// A runtime error and nobody to ask: exit 2.
    Abort,
    /// No seat can act: the game stops.
    Idle(Idle),
}

/// The answer to one switch.
enum Pick {
    Submitted,
    Wait,
    Flow(Flow),
}

/// The result of typing a template's slot values.
enum Fill {
    Action(Term),
    Back,
    Wait,
    Flow(Flow),
}

enum End {
    Terminal,
    Limit,
    Idle(Idle),
    Quit,
    Eof,
}

/// A command typed at a prompt.
enum Cmd {
    Wait,
    Undo,
    History,
    View,
    Help,
    Quit,
}

fn command(text: &str) -> Option<Cmd> {
    Some(match text.trim().trim_end_matches('.').trim_end() {
        "wait" | "skip" => Cmd::Wait,
        "undo" => Cmd::Undo,
        "history" => Cmd::History,
        "view" => Cmd::View,
        "help" | "?" => Cmd::Help,
        "quit" | "exit" => Cmd::Quit,
        _ => return None,
    })
}

/// A choice by number (`3`, `3.`).
fn index(text: &str) -> Option<i64> {
    text.trim().trim_end_matches('.').trim_end().parse().ok()
}

/// Reads a typed term; the error is the parser's first message.
fn read_term(text: &str) -> Result<Term, String> {
    match parse_term(text) {
        Ok(r) => Ok(r.term),
        Err(d) => Err(d
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_else(|| "not a term".to_string())),
    }
}

const HELP: &str = "\
at a switch:
  NUMBER      choose the action (or the template) with this number
  TERM        type the action itself, e.g. [alice,12.5]
  wait, skip  leave this switch to the game's default
at a slot value (unlimited switches):
  VALUE       a value of the slot's type; back: choose another template
  quote an atom that is also a command: 'wait'
at any prompt:
  undo        undo the last chronon (and the automatic ones before it)
  history     your submissions and the events you saw, chronon by chronon
  view        show your view again
  help        this text
  quit        end the game";

struct Play<'a> {
    s: Session,
    /// The game file's name and text, for error locations.
    name: String,
    src: Arc<str>,
    players: Vec<Term>,
    seats: Vec<SeatKind>,
    interrupt: bool,
    max: u64,
    seed: u64,
    input: Box<dyn BufRead + 'a>,
    out: Box<dyn Write + 'a>,
    /// Echo input lines (stdin is not a terminal): the transcript then reads like a session.
    echo: bool,
    /// Bold headers and a cleared screen by escape sequences (`crate::color::stdout`).
    color: bool,
    /// Clear the screen and wait for Enter when the terminal changes hands (stdin and stdout are
    /// terminals).
    pause: bool,
    /// Per player, how many chronons of the history it has been shown.
    seen: Vec<usize>,
    /// Per player, where the events of its current turn's view started (for `view`).
    turn_from: Vec<usize>,
    initial_accounts: Vec<(Term, Term)>,
    /// The human seat that saw the terminal last.
    last_human: Option<usize>,
    /// The language of the labels (`--lang`).
    lang: Option<String>,
    /// `--raw`: no labels.
    raw: bool,
}

impl Play<'_> {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
    }

    fn bold(&self, s: &str) -> String {
        if self.color {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }

    /// Prints `prompt`, reads a line; `None` at the end of input.
    fn read(&mut self, prompt: &str) -> Option<String> {
        let _ = write!(self.out, "{prompt}");
        let _ = self.out.flush();
        let mut buf = Vec::new();
        match self.input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                self.say("");
                None
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                if self.echo {
                    self.say(&line);
                }
                Some(line)
            }
        }
    }

    /// The game's labels for player `pi` (`None`: the designer) in the current state; raw terms
    /// when the game has none (or its `hidden/2` fails here: the error shows where the view does).
    fn pr(&mut self, pi: Option<usize>) -> Presenter {
        if self.raw {
            return Presenter::raw();
        }
        let viewer = pi.map(|i| self.players[i].clone());
        Presenter::new(&mut self.s, viewer.as_ref(), self.lang.as_deref())
            .unwrap_or_else(|_| Presenter::raw())
    }

    fn humans(&self) -> usize {
        self.seats.iter().filter(|k| k.is_human()).count()
    }

    /// Does some human seat own a legal switch now?
    fn human_decides(&mut self) -> Res<bool> {
        for pi in 0..self.players.len() {
            if self.seats[pi].is_human() {
                let p = self.players[pi].clone();
                if !self.s.switches_of(&p)?.is_empty() {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    fn main(&mut self) -> u8 {
        self.intro();
        loop {
            let flow = match self.ended() {
                Ok(Some(end)) => return self.finish(end),
                Ok(None) => match self.round() {
                    Ok(f) => f,
                    Err(e) => self.on_error(&e),
                },
                Err(e) => self.on_error(&e),
            };
            match flow {
                Flow::Go => {}
                Flow::Undo => self.undo(),
                Flow::Quit => return self.finish(End::Quit),
                Flow::Eof => return self.finish(End::Eof),
                Flow::Abort => return 2,
                Flow::Idle(why) => return self.finish(End::Idle(why)),
            }
        }
    }

    fn intro(&mut self) {
        let title = self.bold(&format!("sidl play: {} (seed {})", self.name, self.seed));
        self.say(&title);
        let mut pr = self.pr(None);
        if let Some(d) = pr.description() {
            self.say(&d);
        }
        let seats: Vec<String> = self
            .players
            .iter()
            .zip(&self.seats)
            .map(|(p, k)| format!("{} {}", pr.player(p), k.name()))
            .collect();
        self.say(&format!("players: {}", seats.join(", ")));
        if self.interrupt {
            self.say("interrupt mode: every accepted submission runs its own transition");
        }
        if self.humans() > 0 {
            self.say("type help at any prompt for the commands");
        }
    }

    fn ended(&mut self) -> Res<Option<End>> {
        if self.s.is_terminal()? {
            return Ok(Some(End::Terminal));
        }
        if self.s.chronon() >= self.max {
            return Ok(Some(End::Limit));
        }
        Ok(None)
    }

    /// One chronon. Without human seats: one round of the engine's seat driver
    /// ([`seats::round`]), every move printed. Otherwise, normal mode: the automatic seats submit
    /// (sealed until the chronon runs: a human never sees their moves), then each human seat in
    /// player order, then the chronon runs; interrupt mode: every seat in player order, each
    /// accepted submission running its own transition, and a chronon (chance only) when nobody
    /// submitted. When no seat can act, the game stops ([`seats::idle`]).
    fn round(&mut self) -> Res<Flow> {
        if self.humans() == 0 {
            let before = self.s.history().len();
            let moves = match seats::round(&mut self.s, &self.seats, self.max)? {
                Round::Idle(why) => return Ok(Flow::Idle(why)),
                Round::Ran { moves, .. } => moves,
            };
            let mut pr = self.pr(None);
            for (i, sub) in moves.iter().enumerate() {
                let at = before + if self.interrupt { i } else { 0 };
                let kind = self
                    .players
                    .iter()
                    .position(|p| p == &sub.player)
                    .map(|pi| self.seats[pi].name())
                    .unwrap_or_default();
                let line = format!(
                    "chronon {}: {} ({kind}) plays {} at {}",
                    at + 1,
                    pr.player(&sub.player),
                    pr.action(&sub.switch, &sub.action),
                    pr.switch(&sub.switch)
                );
                self.say(&line);
            }
            let line = format!(
                "chronon {}: accounts: {}",
                self.s.chronon(),
                show::accounts(&self.s.accounts(), &mut self.pr(None))
            );
            self.say(&line);
            return Ok(Flow::Go);
        }
        let mut moved = 0;
        if !self.interrupt {
            moved += seats::automatic_moves(&mut self.s, &self.seats)?.len();
        }
        for pi in 0..self.players.len() {
            if self.interrupt && moved > 0 && self.ended()?.is_some() {
                return Ok(Flow::Go);
            }
            let kind = self.seats[pi].clone();
            if kind.is_human() {
                let (flow, n) = self.human_turn(pi)?;
                moved += n;
                if !matches!(flow, Flow::Go) {
                    return Ok(flow);
                }
            } else if self.interrupt {
                let p = self.players[pi].clone();
                moved += seats::seat_moves(&mut self.s, &p, &kind, true)?.len();
            }
        }
        if let Some(why) = seats::idle(&mut self.s, &self.seats, moved)? {
            return Ok(Flow::Idle(why));
        }
        if !self.interrupt || moved == 0 {
            self.s.run_chronon()?;
        }
        Ok(Flow::Go)
    }

    /// A human seat's turn: its view, then each of its switches. Returns the flow and the number of
    /// accepted submissions.
    fn human_turn(&mut self, pi: usize) -> Res<(Flow, usize)> {
        let p = self.players[pi].clone();
        let switches = self.s.switches_of(&p)?;
        if switches.is_empty() {
            return Ok((Flow::Go, 0));
        }
        if self.humans() > 1 && self.last_human != Some(pi) {
            if let Some(f) = self.hand_over(&p) {
                return Ok((f, 0));
            }
        }
        self.last_human = Some(pi);
        let name = self.pr(Some(pi)).player(&p);
        let header = format!("── chronon {} · {name} ──", self.s.chronon() + 1);
        self.turn_from[pi] = self.seen[pi];
        self.show_view(pi, &header, self.seen[pi])?;
        let n = switches.len();
        let mut moved = 0;
        for (k, sw) in switches.iter().enumerate() {
            self.show_switch(pi, sw, k, n);
            match self.ask_switch(pi, sw, k, n)? {
                Pick::Submitted => {
                    moved += 1;
                    if self.interrupt {
                        break;
                    }
                }
                Pick::Wait => {}
                Pick::Flow(f) => return Ok((f, moved)),
            }
        }
        Ok((Flow::Go, moved))
    }

    /// Between two human seats: a separator (and, at a real terminal, a cleared screen and Enter).
    fn hand_over(&mut self, p: &Term) -> Option<Flow> {
        if self.pause {
            // without escape sequences, blank lines push the last player's view off the screen
            let clear = if self.color {
                "\x1b[2J\x1b[H".to_string()
            } else {
                "\n".repeat(100)
            };
            let _ = write!(self.out, "{clear}");
        }
        let pi = self.players.iter().position(|q| q == p);
        let name = self.pr(pi).player(p);
        let line = self.bold(&format!("════ hand the terminal to {name} ════"));
        self.say("");
        self.say(&line);
        if self.pause {
            let prompt = format!("{} presses Enter to go on> ", show::term(p));
            match self.read(&prompt) {
                None => return Some(Flow::Eof),
                Some(l) if matches!(command(&l), Some(Cmd::Quit)) => return Some(Flow::Quit),
                Some(_) => {}
            }
        }
        None
    }

    /// The player's view: events since its last turn, visible facts, accounts.
    fn show_view(&mut self, pi: usize, header: &str, from: usize) -> Res<()> {
        let p = self.players[pi].clone();
        let header = self.bold(header);
        self.say(&header);
        let len = self.s.history().len();
        let from = from.min(len);
        if from < len {
            let start = from.max(len.saturating_sub(5));
            if start > from {
                self.say(&format!(
                    "({} earlier chronons: type history)",
                    start - from
                ));
            }
            self.say("since your last turn:");
            let mut pr = self.pr(Some(pi));
            for i in start..len {
                self.say(&format!("  chronon {}:", i + 1));
                for l in self.chronon_lines(i, pi, &mut pr) {
                    self.say(&format!("    {l}"));
                }
            }
        }
        self.seen[pi] = len;
        let facts = self.s.view(Some(&p))?;
        let mut pr = self.pr(Some(pi));
        if let Some(role) = pr.role(&p) {
            self.say(&format!("your role: {role}"));
        }
        // the game's layout (docs/reference.md "Layouts"), built from this seat's view only
        if let Ok(l) = layout::layout(&mut self.s, Some(&p), self.lang.as_deref()) {
            for line in l.text().lines() {
                self.say(&format!("  {line}"));
            }
        }
        match facts.len() {
            0 => self.say("you see no facts"),
            1 => self.say("you see 1 fact:"),
            n => self.say(&format!("you see {n} facts:")),
        }
        for f in &facts {
            self.say(&format!("  {}", pr.fact(f)));
        }
        for l in show::accounts_block(&self.s.accounts(), &mut pr) {
            self.say(&l);
        }
        Ok(())
    }

    fn chronon_lines(&self, i: usize, pi: usize, pr: &mut Presenter) -> Vec<String> {
        let history = self.s.history();
        let Some(rec) = history.get(i) else {
            return Vec::new();
        };
        let before = match i.checked_sub(1).and_then(|j| history.get(j)) {
            Some(prev) => show::accounts_after(prev),
            None => self.initial_accounts.clone(),
        };
        show::chronon_lines(rec, pi, &self.players[pi], &before, pr)
    }

    fn show_history(&mut self, pi: usize) {
        let p = show::term(&self.players[pi]);
        let len = self.s.history().len();
        if len == 0 {
            self.say(&format!("history of {p}: no chronon has run yet"));
            return;
        }
        self.say(&format!("history of {p} ({len} chronons):"));
        let mut pr = self.pr(Some(pi));
        for i in 0..len {
            self.say(&format!("  chronon {}:", i + 1));
            for l in self.chronon_lines(i, pi, &mut pr) {
                self.say(&format!("    {l}"));
            }
        }
    }

    fn show_switch(&mut self, pi: usize, sw: &SwitchInfo, k: usize, n: usize) {
        let mut pr = self.pr(Some(pi));
        let id = pr.switch(&sw.id);
        let head = if n > 1 {
            format!("switch {id} ({} of {n})", k + 1)
        } else {
            format!("switch {id}")
        };
        match &sw.actions {
            Actions::Finite(acts) => {
                self.say(&format!("{head}: choose an action"));
                for (i, a) in acts.iter().enumerate() {
                    let text = pr.action(&sw.id, a);
                    self.say(&format!("  {}) {text}", i + 1));
                }
            }
            Actions::Unlimited(tpls) => {
                self.say(&format!("{head}: choose a template, then type its values"));
                for (i, t) in tpls.iter().enumerate() {
                    self.say(&format!("  {}) {}", i + 1, show::template(t)));
                }
            }
        }
        self.say("  or wait (the game's default); help lists the commands");
    }

    /// Asks for one switch until the player submits an accepted action, waits, or leaves the turn.
    fn ask_switch(&mut self, pi: usize, sw: &SwitchInfo, k: usize, n: usize) -> Res<Pick> {
        let p = self.players[pi].clone();
        let count = match &sw.actions {
            Actions::Finite(a) => a.len(),
            Actions::Unlimited(t) => t.len(),
        };
        if count == 0 {
            self.say("(no actions: the switch is left to its default)");
            return Ok(Pick::Wait);
        }
        let prompt = if sw.id == p {
            format!("{} 1-{count}/wait> ", show::term(&p))
        } else {
            format!("{} {} 1-{count}/wait> ", show::term(&p), show::term(&sw.id))
        };
        let hint = format!("type a number from 1 to {count}, an action term, wait, or help");
        loop {
            let Some(line) = self.read(&prompt) else {
                return Ok(Pick::Flow(Flow::Eof));
            };
            let text = line.trim();
            if text.is_empty() {
                self.say(&hint);
                continue;
            }
            match command(text) {
                Some(Cmd::Wait) => {
                    self.say(&format!("{} is left to its default", show::term(&sw.id)));
                    return Ok(Pick::Wait);
                }
                Some(cmd) => {
                    if let Some(f) = self.common(cmd, pi)? {
                        return Ok(Pick::Flow(f));
                    }
                    self.show_switch(pi, sw, k, n);
                    continue;
                }
                None => {}
            }
            let action = if let Some(i) = index(text) {
                let chosen = usize::try_from(i)
                    .ok()
                    .and_then(|i| i.checked_sub(1))
                    .filter(|&i| i < count);
                let Some(i) = chosen else {
                    self.say(&format!(
                        "there is no choice {i}: type a number from 1 to {count}"
                    ));
                    continue;
                };
                match &sw.actions {
                    Actions::Finite(acts) => acts[i].clone(),
                    Actions::Unlimited(tpls) => {
                        let tpl = tpls[i].clone();
                        match self.fill(pi, &tpl)? {
                            Fill::Action(a) => a,
                            Fill::Back => {
                                self.show_switch(pi, sw, k, n);
                                continue;
                            }
                            Fill::Wait => {
                                self.say(&format!("{} is left to its default", show::term(&sw.id)));
                                return Ok(Pick::Wait);
                            }
                            Fill::Flow(f) => return Ok(Pick::Flow(f)),
                        }
                    }
                }
            } else {
                match read_term(text) {
                    Ok(t) => t,
                    Err(m) => {
                        self.say(&format!("cannot read that: {m}"));
                        self.say(&hint);
                        continue;
                    }
                }
            };
            match self.s.submit(&p, &sw.id, &action)? {
                Ok(()) => {
                    // the action as the engine holds it (`12` typed for a double slot is `12.0`);
                    // in interrupt mode it already ran
                    let held = self.s.pending().iter().chain(
                        self.s
                            .history()
                            .last()
                            .into_iter()
                            .flat_map(|r| &r.submissions),
                    );
                    let mut held = held.filter(|s| s.switch == sw.id).map(|s| &s.action);
                    let action = held.next().unwrap_or(&action);
                    let action = action.clone();
                    let mut pr = self.pr(Some(pi));
                    let mut msg = format!(
                        "ok: {} for {}",
                        pr.action(&sw.id, &action),
                        pr.switch(&sw.id)
                    );
                    if self.interrupt {
                        msg.push_str("; it ran at once (interrupt mode)");
                    }
                    self.say(&msg);
                    return Ok(Pick::Submitted);
                }
                Err(r) => {
                    self.say(&format!("rejected: {r}"));
                    self.say(&hint);
                }
            }
        }
    }

    /// Asks for the slot values of a template one by one.
    fn fill(&mut self, pi: usize, tpl: &Term) -> Res<Fill> {
        let slots = template_slots(tpl);
        if !slots.is_empty() {
            self.say(&format!(
                "type the values of {} (back: choose again)",
                show::template(tpl)
            ));
            for slot in &slots {
                let name = slot.name.as_ref().map_or("_".into(), show::term);
                let (ty, what) = (slot.ty.name(), slot_type_description(slot.ty));
                self.say(&format!("  {name} ({ty}): {what}"));
            }
        }
        let mut values = Vec::with_capacity(slots.len());
        while let Some(slot) = slots.get(values.len()) {
            let name = match &slot.name {
                Some(n) => show::term(n),
                None => "_".to_string(),
            };
            let prompt = format!("{name} ({})> ", slot.ty.name());
            let Some(line) = self.read(&prompt) else {
                return Ok(Fill::Flow(Flow::Eof));
            };
            let text = line.trim();
            if text.trim_end_matches('.') == "back" {
                return Ok(Fill::Back);
            }
            match command(text) {
                Some(Cmd::Wait) => return Ok(Fill::Wait),
                Some(cmd) => {
                    if let Some(f) = self.common(cmd, pi)? {
                        return Ok(Fill::Flow(f));
                    }
                    continue;
                }
                None => {}
            }
            let v = match read_term(text) {
                Ok(v) => v,
                Err(m) => {
                    self.say(&format!("cannot read that: {m}"));
                    continue;
                }
            };
            match slot_value(slot.ty, &v) {
                Some(v) => values.push(v),
                None => self.say(&format!(
                    "{} is not a value of type {}: type {}",
                    show::term(&v),
                    slot.ty.name(),
                    slot_type_description(slot.ty)
                )),
            }
        }
        match fill_template(tpl, &values) {
            Some(a) => Ok(Fill::Action(a)),
            None => {
                self.say("the values do not fit the template: choose again");
                Ok(Fill::Back)
            }
        }
    }

    /// The commands of every prompt (`undo`, `history`, `view`, `help`, `quit`). `Some` ends the turn.
    fn common(&mut self, cmd: Cmd, pi: usize) -> Res<Option<Flow>> {
        match cmd {
            Cmd::Undo => {
                if self.s.history().is_empty() {
                    self.say("nothing to undo: this is the start of the game");
                    return Ok(None);
                }
                Ok(Some(Flow::Undo))
            }
            Cmd::Quit => Ok(Some(Flow::Quit)),
            Cmd::History => {
                self.show_history(pi);
                Ok(None)
            }
            Cmd::View => {
                let p = show::term(&self.players[pi]);
                let header = format!("── chronon {} · {p} ──", self.s.chronon() + 1);
                self.show_view(pi, &header, self.turn_from[pi])?;
                Ok(None)
            }
            Cmd::Help => {
                self.say(HELP);
                Ok(None)
            }
            Cmd::Wait => Ok(None),
        }
    }

    /// Undoes the last chronon, and the ones before it in which no human seat had a decision (the
    /// automatic seats would otherwise replay them at once). The players choose again.
    fn undo(&mut self) {
        let mut undone = 0;
        while self.s.undo() {
            undone += 1;
            if !matches!(self.human_decides(), Ok(false)) {
                break;
            }
        }
        self.s.clear_pending();
        let len = self.s.history().len();
        for s in self.seen.iter_mut().chain(self.turn_from.iter_mut()) {
            *s = (*s).min(len);
        }
        if undone == 0 {
            self.say("nothing to undo");
        } else {
            let what = if undone == 1 {
                "1 chronon".to_string()
            } else {
                format!("{undone} chronons")
            };
            self.say(&format!(
                "undid {what}: back at the start of chronon {}",
                self.s.chronon() + 1
            ));
        }
    }

    fn print_error(&mut self, e: &RuntimeError) {
        let text = render::to_string(&self.name, &self.src, &[e.to_diagnostic()], self.color);
        let _ = write!(self.out, "{text}");
    }

    /// A runtime error: the state is as before. Humans choose undo, retry or quit.
    fn on_error(&mut self, e: &RuntimeError) -> Flow {
        self.print_error(e);
        if self.humans() == 0 {
            return Flow::Abort;
        }
        let hint = format!(
            "the game stays at chronon {}: type undo, retry (choose again) or quit",
            self.s.chronon() + 1
        );
        self.say(&hint);
        loop {
            let Some(line) = self.read("error> ") else {
                return Flow::Eof;
            };
            match line.trim().trim_end_matches('.') {
                "undo" if self.s.history().is_empty() => {
                    self.say("nothing to undo: this is the start of the game")
                }
                "undo" => return Flow::Undo,
                "retry" => {
                    self.s.clear_pending();
                    return Flow::Go;
                }
                "quit" | "exit" => return Flow::Quit,
                _ => self.say(&hint),
            }
        }
    }

    fn finish(&mut self, end: End) -> u8 {
        let n = self.s.chronon();
        let over = matches!(end, End::Terminal | End::Limit | End::Idle(_));
        let n = if n == 1 {
            "1 chronon".to_string()
        } else {
            format!("{n} chronons")
        };
        match end {
            End::Terminal => self.say(&format!("game over after {n}")),
            End::Limit => self.say(&format!("stopped after {n} (--max-chronons)")),
            End::Idle(why) => self.say(&format!("stopped after {n}: {why}")),
            End::Quit => self.say(&format!("quit after {n}")),
            End::Eof => self.say(&format!("end of input: the game is left after {n}")),
        }
        // a single human seat sees how its game ended (several humans share no private view)
        let humans: Vec<usize> = (0..self.players.len())
            .filter(|&i| self.seats[i].is_human())
            .collect();
        if over && humans.len() == 1 {
            let pi = humans[0];
            let header = format!("── final view of {} ──", show::term(&self.players[pi]));
            if let Err(e) = self.show_view(pi, &header, self.seen[pi]) {
                self.print_error(&e);
            }
        }
        // the labels of the end screen: the single human's view; the designer's without humans or
        // when nothing can be hidden; else raw (several humans share the terminal: none of their
        // private views)
        let hides = sidl_engine::ai::determinize::has_hidden(self.s.game());
        let mut pr = match humans.as_slice() {
            [pi] => self.pr(Some(*pi)),
            [] => self.pr(None),
            _ if !hides => self.pr(None),
            _ => Presenter::raw(),
        };
        if over {
            for l in pr.result() {
                self.say(&l);
            }
        }
        let accounts = self.s.accounts();
        let header = self.bold(if over { "final accounts:" } else { "accounts:" });
        self.say(&header);
        for (p, a) in &accounts {
            self.say(&format!("  {}", pr.account(p, a)));
        }
        if over {
            for l in show::ranking(&accounts, &mut pr) {
                self.say(&l);
            }
        }
        let _ = self.out.flush();
        0
    }
}
