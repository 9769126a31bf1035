//! Arbitrary action ids applied to a dealt state: each id (two bytes) is applied with the checked
//! `apply`; a refusal changes nothing, and every position reached passes every check.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tapete_core::game::{Action, Game, State};
use tapete_core::testing::check_position;
use tapete_fuzz::with_game;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let seed = u16::from_le_bytes([data[1], data[2]]) as u64;
    with_game!(data[0], |game| {
        let mut state = game.new_state(seed);
        let num = <_ as Game>::num_distinct_actions(&game) as u32;
        for (i, pair) in data[3..].chunks_exact(2).enumerate() {
            let raw = u16::from_le_bytes([pair[0], pair[1]]) as u32;
            // ids in range most of the time, so that games move on; some out of range
            let a: Action = if raw & 0x8000 == 0 { raw % num } else { raw };
            let before = state.clone();
            match state.apply(a) {
                Ok(()) => {
                    if i % 16 == 0 {
                        check_position(&game, &state, true);
                    }
                }
                Err(_) => assert_eq!(
                    state.to_json(),
                    before.to_json(),
                    "a refused action changed the state"
                ),
            }
            if state.is_terminal() {
                break;
            }
        }
        check_position(&game, &state, true);
    });
});
