//! The generic random-playout test every game passes (OpenSpiel's RandomSimTest;
//! docs/design.md §7.3), written once over the traits. Each game's `tests/playouts/<game>.rs`
//! calls [`random_sim_test`] over its option grid and adds only the invariants of its own
//! (cards, tiles or chips conserved).

use serde_json::Value;

use crate::error::Result;
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;

/// The share of a sweep that CI plays: its configurations all run, each for a tenth of the games
/// and a tenth of the games checked deeply at every step.
pub const SAMPLE: usize = 10;

/// `full` with `TAPETE_PLAYOUTS` set, else CI's sample of it, `full / SAMPLE` (at least 1).
pub fn sampled(full: usize) -> usize {
    if std::env::var_os("TAPETE_PLAYOUTS").is_some() {
        full
    } else {
        full.div_ceil(SAMPLE)
    }
}

/// How many games a sweep plays per configuration, `full` being its whole size: with
/// `TAPETE_PLAYOUTS=full` all of them, with `TAPETE_PLAYOUTS=N` N, else CI's [`sampled`] share
/// (every configuration still plays, its first games with the deep checks at every step).
pub fn games_from_env(full: usize) -> usize {
    match std::env::var("TAPETE_PLAYOUTS").as_deref() {
        Ok("full") => full,
        Ok(v) => v.parse().unwrap_or_else(|_| {
            panic!("TAPETE_PLAYOUTS={v:?}: expected `full` or a number of games")
        }),
        Err(_) => sampled(full),
    }
}

/// What one sweep checks and for how long.
#[derive(Clone, Copy, Debug)]
pub struct Sweep {
    /// Games to play.
    pub games: usize,
    pub seed: u64,
    /// The first `deep_games` games run the dear checks at every step (JSON round trip, views,
    /// observations, notation, every legal action on a clone); later games every `deep_every`
    /// steps and at the end. [`Sweep::new`] sets 20 ([`sampled`] in CI).
    pub deep_games: usize,
    pub deep_every: usize,
    /// A game longer than this many actions fails the sweep (the game never ends).
    pub max_actions: usize,
}

impl Sweep {
    pub fn new(games: usize, seed: u64) -> Sweep {
        Sweep {
            games,
            seed,
            deep_games: sampled(20),
            deep_every: 64,
            max_actions: 2_000_000,
        }
    }
}

/// Plays `sweep.games` random games of `game` and checks the API's invariants at every step;
/// `extra(state)` adds the game's own. Panics (a test failure) naming the options, the game and
/// the step on the first violation. Returns the number of actions played.
pub fn random_sim_test<G: Game>(game: &G, sweep: Sweep, mut extra: impl FnMut(&G::State)) -> u64 {
    let name = format!("{}{}", G::NAME, game.options_json());
    let seats = game.num_players();
    let num = G::NUM_ACTIONS;
    let mut rng = SplitMix64::new(sweep.seed);
    let mut legal: Vec<Action> = Vec::new();
    let mut mask = vec![false; num as usize];
    let mut obs = vec![0.0f32; game.observation_size()];
    let mut total = 0u64;
    for g in 0..sweep.games {
        let mut state = game.new_state(rng.next_u64());
        let mut steps = 0usize;
        let mut deals = state.deals();
        loop {
            let at = || format!("{name} game {g} step {steps}");
            extra(&state);
            state.legal_actions_into(&mut legal);
            assert!(
                legal.windows(2).all(|w| w[0] < w[1]) && legal.iter().all(|&a| a < num),
                "{}: legal actions not sorted, unique and in range: {legal:?}",
                at()
            );
            state.legal_mask(&mut mask);
            assert_eq!(
                mask.iter().filter(|&&m| m).count(),
                legal.len(),
                "{}: the legal mask disagrees",
                at()
            );
            assert!(state.deals() >= deals, "{}: deals went down", at());
            deals = state.deals();
            let returns = state.returns();
            assert_eq!(returns.len(), seats);
            assert_eq!(state.scores().len(), seats);
            let deep = g < sweep.deep_games || steps % sweep.deep_every == 0 || state.is_terminal();
            if deep {
                deep_checks(game, &state, &legal, &mut obs, &mut rng, &at);
            }
            if state.is_terminal() {
                assert!(
                    legal.is_empty(),
                    "{}: a terminal state has legal actions",
                    at()
                );
                assert_eq!(state.current_player(), None);
                assert!(
                    returns.iter().sum::<f64>().abs() < 1e-9,
                    "{}: returns are not zero-sum: {returns:?}",
                    at()
                );
                break;
            }
            assert!(
                !legal.is_empty(),
                "{}: no legal action\n{}",
                at(),
                state.to_json()
            );
            assert!(
                state.current_player().is_some_and(|p| p < seats),
                "{}: no seat to move",
                at()
            );
            assert!(
                returns.iter().all(|&r| r == 0.0),
                "{}: returns before the end",
                at()
            );
            let a = legal[crate::rng::mod_small(rng.next_u64(), legal.len() as u64) as usize];
            state.apply_unchecked(a);
            steps += 1;
            assert!(
                steps < sweep.max_actions,
                "{name} game {g}: no end after {} actions",
                sweep.max_actions
            );
        }
        total += steps as u64;
    }
    total
}

/// Every text of `texts` is refused by `read` as `InvalidNotation` (panics otherwise).
pub fn assert_bad_notation<T: std::fmt::Debug>(
    read: impl Fn(&str) -> crate::error::Result<T>,
    texts: &[&str],
) {
    for &text in texts {
        let got = read(text);
        assert!(
            matches!(got, Err(crate::error::GameError::InvalidNotation(_))),
            "{text:?}: {got:?}"
        );
    }
}

/// The position `spec` describes (the game's `setup`) under `options`; a refusal panics (the
/// test's own mistake).
pub fn setup<G: Game>(options: Value, spec: Value) -> G::State {
    G::from_options(&options)
        .and_then(|g| g.setup(&spec))
        .unwrap_or_else(|e| panic!("{options} {spec}: {e}"))
}

/// A rule primitive of the game under `options` (the game's options must be accepted).
pub fn primitive<G: Game>(options: Value, name: &str, args: Value) -> Result<Value> {
    G::from_options(&options)
        .unwrap_or_else(|e| panic!("{options}: {e}"))
        .primitive(name, &args)
}

/// Plays `state` to its end with the `heuristic` bot in every seat, drawing from `rng`: each
/// action it picks must be legal (panics naming `what` and the state otherwise).
pub fn heuristic_plays_legal<S: State>(mut state: S, rng: &mut SplitMix64, what: &str) {
    while state.player_to_act().is_some() {
        let a = state.heuristic_action(rng);
        assert!(
            state.is_legal(a),
            "{what}: {a} is not legal in {}",
            state.to_json()
        );
        state.apply_unchecked(a);
    }
}

/// [`heuristic_plays_legal`] on `matches` new matches under each of `option_sets`, the seeds
/// and the bot's draws from one stream seeded by `seed` per option set.
pub fn heuristic_plays_legal_to_the_end<G: Game>(option_sets: &[Value], seed: u64, matches: usize) {
    for options in option_sets {
        let game = G::from_options(options).unwrap_or_else(|e| panic!("{options}: {e}"));
        let mut rng = SplitMix64::new(seed);
        for _ in 0..matches {
            let state = game.new_state(rng.next_u64());
            heuristic_plays_legal(state, &mut rng, &options.to_string());
        }
    }
}

/// Reads `state`'s canonical JSON back with `game` and returns the state read, which must write
/// the same JSON (panics otherwise).
pub fn json_round_trip<G: Game>(game: &G, state: &G::State) -> G::State {
    let json = state.to_json();
    let back = game
        .state_from_json(&json)
        .unwrap_or_else(|e| panic!("the JSON round trip fails: {e}\n{json}"));
    assert_eq!(
        back.to_json(),
        json,
        "the JSON round trip changed the state"
    );
    back
}

/// The dear checks of one position.
fn deep_checks<G: Game>(
    game: &G,
    state: &G::State,
    legal: &[Action],
    obs: &mut [f32],
    rng: &mut SplitMix64,
    at: &dyn Fn() -> String,
) {
    let seats = game.num_players();
    let json = state.to_json();
    let back = game
        .state_from_json(&json)
        .unwrap_or_else(|e| panic!("{}: the JSON round trip fails: {e}\n{json}", at()));
    assert_eq!(
        back.to_json(),
        json,
        "{}: the JSON round trip changed the state",
        at()
    );
    for p in 0..seats {
        let view = state
            .view(p)
            .unwrap_or_else(|e| panic!("{}: view({p}): {e}", at()));
        assert!(
            serde_json::from_str::<serde_json::Value>(&view).is_ok_and(|v| v.is_object()),
            "{}: view({p}) is not a JSON object",
            at()
        );
        state
            .observation_into(p, obs)
            .unwrap_or_else(|e| panic!("{}: observation({p}): {e}", at()));
        assert!(
            obs.iter().all(|x| x.is_finite()),
            "{}: observation({p}) not finite",
            at()
        );
    }
    assert!(state.view(seats).is_err() && state.observation_into(seats, obs).is_err());
    let history = state.history().len();
    for &a in legal {
        let text = state
            .action_to_string(a)
            .unwrap_or_else(|e| panic!("{}: action {a} has no notation: {e}", at()));
        assert_eq!(
            state.string_to_action(&text).ok(),
            Some(a),
            "{}: notation {text:?} does not read back as {a}",
            at()
        );
        let mut child = state.clone();
        child
            .apply(a)
            .unwrap_or_else(|e| panic!("{}: legal action {a} ({text}) failed: {e}", at()));
        assert_eq!(child.history().len(), history + 1, "{}: history", at());
    }
    let num = G::NUM_ACTIONS;
    let mut probe = state.clone();
    for a in [(rng.next_u64() % num as u64) as Action, num, Action::MAX] {
        if !legal.contains(&a) {
            assert!(
                probe.apply(a).is_err(),
                "{}: illegal action {a} was accepted",
                at()
            );
        }
    }
    assert_eq!(
        probe.to_json(),
        json,
        "{}: a refused action changed the state",
        at()
    );
    assert_eq!(
        state.to_json(),
        json,
        "{}: a clone shares state with the original",
        at()
    );
}

/// Every check of one position that a sweep makes (legal actions sorted, unique and in range and
/// agreeing with the mask; a non-terminal state has a seat to move and a legal action; terminal
/// returns are zero-sum; the JSON round trip; views and observations; the notation of every legal
/// action; refused actions change nothing). Panics on the first violation: what the fuzz targets
/// call after each step of an arbitrary game. `dealt`: the state comes from `new_state`, so its
/// returns are zero-sum (a `setup` position may start from any chips or scores).
pub fn check_position<G: Game>(game: &G, state: &G::State, dealt: bool) {
    let num = G::NUM_ACTIONS;
    let seats = game.num_players();
    let legal = state.legal_actions();
    let at = || format!("{}{}: {}", G::NAME, game.options_json(), state.to_json());
    assert!(
        legal.windows(2).all(|w| w[0] < w[1]) && legal.iter().all(|&a| a < num),
        "{}: legal actions not sorted, unique and in range",
        at()
    );
    let mut mask = vec![false; num as usize];
    state.legal_mask(&mut mask);
    assert_eq!(mask.iter().filter(|&&m| m).count(), legal.len(), "{}", at());
    if state.is_terminal() {
        assert!(
            legal.is_empty() && state.current_player().is_none(),
            "{}",
            at()
        );
        assert!(
            !dealt || state.returns().iter().sum::<f64>().abs() < 1e-9,
            "{}: returns are not zero-sum",
            at()
        );
    } else {
        assert!(!legal.is_empty(), "{}: stuck: no legal action", at());
        assert!(
            state.current_player().is_some_and(|p| p < seats),
            "{}",
            at()
        );
    }
    let mut obs = vec![0.0f32; game.observation_size()];
    let mut rng = SplitMix64::new(legal.len() as u64);
    deep_checks(game, state, &legal, &mut obs, &mut rng, &at);
}
