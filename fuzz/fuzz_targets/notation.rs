//! Notation parsers: arbitrary text read as an action, a whole move, a card and a tile, against
//! a dealt state of every game. A refusal leaves the state unchanged; nothing panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tapete_core::game::{Game, State};
use tapete_fuzz::with_game;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let Ok(text) = std::str::from_utf8(&data[2..]) else {
        return;
    };
    let _ = tapete_core::cards::Card::parse(text);
    let _ = tapete_core::tiles::parse_tile(text);
    with_game!(data[0], |game| {
        let state = game.new_state(data[1] as u64);
        let before = state.to_json();
        let _ = state.string_to_action(text);
        let mut s = state.clone();
        if s.play(text).is_err() {
            assert_eq!(s.to_json(), before, "a refused move changed the state");
        }
        let mut s = state.clone();
        if s.apply_str(text).is_err() {
            assert_eq!(s.to_json(), before, "a refused action changed the state");
        }
    });
});
