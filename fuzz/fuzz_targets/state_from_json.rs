//! `state_from_json` on arbitrary text: a refusal is an error, never a panic; an accepted state
//! round-trips, passes every position check and plays on without getting stuck.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tapete_core::game::Game;
use tapete_fuzz::{checked_playout, round_trips, with_game};

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let Ok(text) = std::str::from_utf8(&data[1..]) else {
        return;
    };
    with_game!(data[0], |game| {
        if let Ok(state) = game.state_from_json(text) {
            round_trips(&game, &state);
            checked_playout(&game, state, data.len() as u64);
        }
    });
});
