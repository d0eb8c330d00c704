//! Search support for the AI players: forks of a session and queries on its state.

use super::*;

/// Search support for the AI players (`crate::ai`): cheap copies of a session and goals on its state.
impl Session {
    /// A copy of the session at its current state, for search: the same game (not re-parsed), settings,
    /// seed, state, cached legal switches, pending submissions and both RNGs; an empty history and undo
    /// stack, and a fresh machine (`init/1`, `init/2` are not run again).
    pub fn fork(&self) -> Session {
        let mut machine = Machine::new(self.game.program.clone(), self.settings.limits);
        machine.rng = self.machine.rng.clone();
        Session {
            game: self.game.clone(),
            settings: self.settings.clone(),
            seed: self.seed,
            state: self.state.clone(),
            switches: self.switches.clone(),
            hidden: self.hidden.clone(),
            pending: self.pending.clone(),
            overrides: self.overrides.clone(),
            history: Vec::new(),
            undo: Vec::new(),
            machine,
            replaying: false,
            driver_rng: self.driver_rng.clone(),
            // the same players: answers that depend on the players only stay valid
            consts: self.consts.clone(),
            initial: self.initial.clone(),
            scratch: Scratch::default(),
            interned: Interner::without_recent(),
            by_state: self.by_state.clone(),
            bufs: Buffers::default(),
            observed: Vec::new(),
            host_joins: self.host_joins,
        }
    }

    /// A session that starts at `state` instead of the game's `init/1` and `init/2` (a state assembled
    /// by a search, e.g. from a player's view). The game's RNG and the drivers' RNG are seeded from
    /// `seed` as in [`Session::new`].
    pub fn from_state(game: Arc<Game>, state: State, seed: u64, settings: Settings) -> Session {
        let mut machine = Machine::new(game.program.clone(), settings.limits);
        machine.rng = Rng::new(seed);
        Session::assemble(game, settings, seed, Arc::new(state), machine)
    }

    /// The game's RNG as it is now (an explanation replays `random/1` from it without drawing).
    pub fn rng_state(&self) -> Rng {
        self.machine.rng.clone()
    }

    /// Runs a goal of the game's own predicates on the current state (`fact/1` and `player/1` see the
    /// state; nothing is scheduled) and collects `template` for up to `max` solutions. The AI players
    /// evaluate `heuristic/2` and `candidate/2` with it. The body keywords it may call follow
    /// [`Placement::query`]: a head keyword's goal its row of the table, any other goal `player/1`
    /// and `fact/1`.
    pub fn query_state(
        &mut self,
        goal: &Term,
        template: &Term,
        max: usize,
        during: &str,
    ) -> Result<Vec<Term>, RuntimeError> {
        let state = self.state.clone();
        let mut host = KeywordHost::new(&state.facts, &state.players, &[]);
        host.placement = Placement::query(goal);
        solutions(&mut self.machine, &mut host, goal, template, max, during)
    }
}
