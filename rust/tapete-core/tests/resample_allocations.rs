//! Search calls `resample_into` once an iteration, into a state it reuses: after a first pass has
//! grown the reused buffers, a call allocates nothing (docs/design.md §6). Counted by a global
//! allocator that tallies this thread's allocations, over mid-deal positions of Burako, Mosca and Musta Maija, the
//! option sets whose resampling reads the most (Burako's rack inference and its take checks).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tapete_core::games::{burako, mosca, musta_maija};
use tapete_core::{Game, SplitMix64, State};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

/// Positions after 0..`steps` random decisions of 24 seeded matches.
fn positions<G: Game>(game: &G, steps: usize) -> Vec<G::State> {
    let mut found = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..24u64 {
        let mut s = game.new_state(seed);
        let mut rng = SplitMix64::new(seed ^ 0xA110C);
        for k in 0..steps {
            if s.is_terminal() {
                break;
            }
            if k % 7 == 3 {
                found.push(s.clone());
            }
            s.legal_actions_into(&mut legal);
            let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
            s.apply_unchecked(a);
        }
    }
    found
}

/// Allocations of a second pass of resamples over every position and seat.
fn second_pass<G: Game>(options: &str, steps: usize) -> u64 {
    let game = G::from_options_json(options).unwrap();
    let states = positions(&game, steps);
    assert!(!states.is_empty());
    let mut out = states[0].clone();
    let mut pass = |seed: u64| {
        for (i, s) in states.iter().enumerate() {
            for p in 0..s.num_players() {
                s.resample_into(p, seed ^ i as u64, &mut out);
            }
        }
    };
    pass(1);
    let before = allocations();
    pass(2);
    allocations() - before
}

#[test]
fn burako_resample_allocates_nothing() {
    for options in [
        r#"{"players":4,"match":"single_hand"}"#,
        r#"{"players":2,"match":"single_hand"}"#,
        r#"{"players":4,"match":"single_hand","pozo_take_requirement":"must_use_top_tile_now","single_tile_pozo_rediscard":"forbidden"}"#,
        r#"{"players":4,"pozo_visibility":"top_only","max_turns":60,"max_hands":2}"#,
    ] {
        let got = second_pass::<burako::BurakoGame>(options, 120);
        assert_eq!(
            got, 0,
            "{got} allocations in a pass of resamples, {options}"
        );
    }
}

#[test]
fn mosca_and_musta_maija_resample_allocate_nothing() {
    let got = [
        second_pass::<mosca::MoscaGame>(r#"{"players":4}"#, 40),
        second_pass::<musta_maija::MustaMaijaGame>(r#"{"players":4}"#, 60),
    ];
    assert_eq!(got, [0, 0], "allocations in a pass of resamples");
}
