//! `sidl why`: explains, in terms of the game's clauses, why a switch is (not) legal, an action (not)
//! among its actions, a submission accepted or rejected, a fact created or deleted, a payoff paid.
//! The explanation is the engine's (`sidl_engine::game::why`); this file reads files and prints.

use crate::commands::{load_game, CheckFormat};
use crate::render;
use sidl_engine::diag::ColumnUnit;
use sidl_engine::game::trace::{parse_script, session_after};
use sidl_engine::game::why::{self, Question, WhyLimits};
use sidl_engine::game::Settings;
use std::path::PathBuf;

/// The question of `sidl why`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum Ask {
    /// Is SWITCH legal (legal/1)?
    Legal { switch: String },
    /// Is ACTION among the actions of SWITCH (and is the switch legal, who owns it)?
    Action { switch: String, action: String },
    /// Would submit(PLAYER, SWITCH, ACTION) be accepted, and why (not)?
    Submission {
        player: String,
        switch: String,
        action: String,
    },
    /// Why was FACT created or deleted in a chronon (default: the last one), or why not?
    Fact {
        fact: String,
        #[arg(long)]
        chronon: Option<u64>,
    },
    /// Why was PLAYER paid (or not) in a chronon (default: the last one)?
    Payoff {
        player: String,
        #[arg(long)]
        chronon: Option<u64>,
    },
    /// Why did the do/1 of SWITCH succeed or fail in a chronon (default: the last one)?
    Do {
        switch: String,
        #[arg(long)]
        chronon: Option<u64>,
    },
}

/// The options of `sidl why`.
#[derive(clap::Args, Clone, Debug)]
pub struct WhyArgs {
    pub game: PathBuf,
    /// A script of submit/3, nature/2 and chronon/0 lines (as `sidl trace --script`); without it,
    /// the initial state.
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// The state after this many chronons of the script (default: the whole script).
    #[arg(long)]
    pub after: Option<u64>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Interrupt mode: every accepted submission runs its own transition (paper §4).
    #[arg(long)]
    pub interrupt: bool,
    /// Explain as this player sees the game (hidden facts are never read); default: the designer.
    #[arg(long)]
    pub player: Option<String>,
    /// `human` (an indented tree) or `json` (one object).
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub format: CheckFormat,
    #[command(subcommand)]
    pub ask: Ask,
}

/// Exit 0 with the explanation (whether or not the answer is yes), 1 if a file does not load or the
/// question does not parse, 2 on a runtime error.
pub fn run(args: &WhyArgs) -> u8 {
    let name = args.game.display().to_string();
    let (game, src) = match load_game(&args.game) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let items = match &args.script {
        Some(p) => {
            let text = match std::fs::read_to_string(p) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: cannot read {}: {e}", p.display());
                    return 1;
                }
            };
            match parse_script(&text) {
                Ok(items) => items.into_iter().map(|(i, _)| i).collect(),
                Err(d) => {
                    render::diagnostics(&p.display().to_string(), &text, &d);
                    return 1;
                }
            }
        }
        None => Vec::new(),
    };
    let question = match &args.ask {
        Ask::Legal { switch } => {
            Question::from_parts("legal", Some(switch), None, None, None, None)
        }
        Ask::Action { switch, action } => {
            Question::from_parts("action", Some(switch), Some(action), None, None, None)
        }
        Ask::Submission {
            player,
            switch,
            action,
        } => Question::from_parts(
            "submission",
            Some(switch),
            Some(action),
            Some(player),
            None,
            None,
        ),
        Ask::Fact { fact, chronon } => {
            Question::from_parts("fact", None, None, None, Some(fact), *chronon)
        }
        Ask::Payoff { player, chronon } => {
            Question::from_parts("payoff", None, None, Some(player), None, *chronon)
        }
        Ask::Do { switch, chronon } => {
            Question::from_parts("do", Some(switch), None, None, None, *chronon)
        }
    };
    let question = match question {
        Ok(q) => q,
        Err(m) => {
            eprintln!("error: {m}");
            return 1;
        }
    };
    let viewer = match args.player.as_deref().map(|p| why::parse_term(p, "player")) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(m)) => {
            eprintln!("error: {m}");
            return 1;
        }
    };
    let settings = Settings {
        interrupt: args.interrupt,
        ..Settings::default()
    };
    let (mut session, messages) = match session_after(game, args.seed, &items, args.after, settings)
    {
        Ok(s) => s,
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            return 2;
        }
    };
    for m in &messages {
        eprintln!("{m}");
    }
    let answer = match why::explain(
        &mut session,
        &question,
        viewer.as_ref(),
        WhyLimits::default(),
    ) {
        Ok(a) => a,
        Err(e) => {
            render::runtime_error(&name, &src, &e, "");
            return 2;
        }
    };
    match args.format {
        CheckFormat::Human => print!("{}", why::render_text(&answer, &src, &name)),
        CheckFormat::Json => {
            let j = why::to_json(&answer, &src, &name, ColumnUnit::Char);
            println!("{}", serde_json::to_string(&j).unwrap_or_default());
        }
    }
    0
}
