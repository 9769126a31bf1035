//! What the fuzz targets share: the games under test (each game's default options and a few of
//! its main option sets), picked by the first byte of the input, and a bounded random playout
//! that checks every position it reaches.

use tapete_core::game::{Game, State};
use tapete_core::games::{burako, escoba, mosca, musta_maija};
use tapete_core::rng::SplitMix64;
use tapete_core::testing::check_position;

/// Decisions a playout from a fuzzed position may take before it is cut off (the fuzzer looks
/// for crashes and stuck positions, not for long games).
pub const PLAYOUT_CAP: usize = 400;

/// Plays random legal actions from `state`, checking every position (panics on a violation).
pub fn checked_playout<G: Game>(game: &G, mut state: G::State, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for step in 0..PLAYOUT_CAP {
        if step < 8 || step % 50 == 0 {
            check_position(game, &state, false);
        }
        let legal = state.legal_actions();
        if state.is_terminal() {
            return;
        }
        assert!(!legal.is_empty(), "stuck: {}", state.to_json());
        state.apply_unchecked(legal[(rng.next_u64() % legal.len() as u64) as usize]);
    }
}

/// Calls `$body` with `game` bound to the game chosen by `$pick` (a byte), as a generic block.
#[macro_export]
macro_rules! with_game {
    ($pick:expr, |$game:ident| $body:block) => {{
        match $pick % 8 {
            0 => { let $game = $crate::escoba_game($crate::json!({})); $body }
            1 => { let $game = $crate::escoba_game($crate::json!({"variant": "escoba", "players": 4})); $body }
            2 => { let $game = $crate::escoba_game($crate::json!({"variant": "rubamazzo", "players": 3})); $body }
            3 => { let $game = $crate::mosca_game($crate::json!({})); $body }
            4 => { let $game = $crate::mosca_game($crate::json!({"players": 5})); $body }
            5 => { let $game = $crate::musta_maija_game($crate::json!({})); $body }
            6 => { let $game = $crate::musta_maija_game($crate::json!({"players": 2})); $body }
            _ => { let $game = $crate::burako_game($crate::json!({})); $body }
        }
    }};
}

pub use serde_json::json;

pub fn escoba_game(o: serde_json::Value) -> escoba::EscobaGame {
    escoba::EscobaGame::from_options(&o).expect("escoba options")
}
pub fn mosca_game(o: serde_json::Value) -> mosca::MoscaGame {
    mosca::MoscaGame::from_options(&o).expect("mosca options")
}
pub fn musta_maija_game(o: serde_json::Value) -> musta_maija::MustaMaijaGame {
    musta_maija::MustaMaijaGame::from_options(&o).expect("musta_maija options")
}
pub fn burako_game(o: serde_json::Value) -> burako::BurakoGame {
    burako::BurakoGame::from_options(&o).expect("burako options")
}

/// `state.to_json()` read back gives the same state (panics otherwise).
pub fn round_trips<G: Game>(game: &G, state: &G::State) {
    let text = state.to_json();
    let back = game
        .state_from_json(&text)
        .expect("a state's own JSON is refused");
    assert_eq!(back.to_json(), text);
}

/// How a fuzz target reads a position from text.
#[derive(Clone, Copy)]
pub enum PositionReader {
    /// `Game::setup_json`, a partial description.
    Setup,
    /// `Game::state_from_json`, a state's canonical JSON.
    StateJson,
}

/// Reads `data[1..]` as a position of the game `data[0]` picks: a refusal is an error, never a
/// panic; an accepted position round-trips, passes every position check and plays on without
/// getting stuck.
pub fn read_position(data: &[u8], reader: PositionReader) {
    if data.is_empty() {
        return;
    }
    let Ok(text) = std::str::from_utf8(&data[1..]) else {
        return;
    };
    with_game!(data[0], |game| {
        let read = match reader {
            PositionReader::Setup => game.setup_json(text),
            PositionReader::StateJson => game.state_from_json(text),
        };
        if let Ok(state) = read {
            round_trips(&game, &state);
            checked_playout(&game, state, data.len() as u64);
        }
    });
}
