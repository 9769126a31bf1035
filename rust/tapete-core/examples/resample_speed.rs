//! Time of one `resample_into` (into a reused state, as search does) from mid-deal positions of
//! every game: `cargo run --release --example resample_speed [iterations] [game options...]
//! [only=game]`, where a game's options are `name={json}` (defaults otherwise) and `only` times
//! one game (for counting its instructions under callgrind). `bench/resample.py` runs it.
use std::hint::black_box;
use std::time::Instant;

use tapete_core::games::*;
use tapete_core::{Game, SplitMix64, State};

/// Mid-deal positions: `steps` random decisions from 64 seeded deals, skipping matches that end.
fn positions<G: Game>(game: &G, steps: usize) -> Vec<G::State> {
    let mut found = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..64u64 {
        let mut s = game.new_state(seed);
        let mut rng = SplitMix64::new(seed ^ 0x5EED);
        for _ in 0..steps {
            if s.is_terminal() {
                break;
            }
            s.legal_actions_into(&mut legal);
            let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
            s.apply_unchecked(a);
        }
        if !s.is_terminal() {
            found.push(s);
        }
    }
    found
}

fn time<G: Game>(name: &str, options: &str, steps: usize, iterations: usize) {
    let only = std::env::args().find_map(|a| a.strip_prefix("only=").map(str::to_string));
    if only.is_some_and(|o| o != name) {
        return;
    }
    let game = G::from_options_json(options).expect("options");
    let states = positions(&game, steps);
    let mut out = states[0].clone();
    let start = Instant::now();
    for i in 0..iterations {
        let s = &states[i % states.len()];
        s.resample_into(i % s.num_players(), i as u64, &mut out);
        black_box(&out);
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / iterations as f64;
    println!("{name}\t{options}\t{steps}\t{ns:.0}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iterations: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let option = |name: &str, default: &str| -> String {
        args.iter()
            .skip(2)
            .find_map(|a| a.strip_prefix(&format!("{name}=")).map(str::to_string))
            .unwrap_or_else(|| default.to_string())
    };
    println!("game\toptions\tdecisions in\tns per resample");
    // Mid-deal: about half of a deal's decisions played.
    time::<escoba::EscobaGame>(
        "escoba",
        &option("escoba", r#"{"variant":"scopa"}"#),
        18,
        iterations,
    );
    time::<mosca::MoscaGame>("mosca", &option("mosca", "{}"), 12, iterations);
    time::<musta_maija::MustaMaijaGame>(
        "musta_maija",
        &option("musta_maija", r#"{"players":2}"#),
        20,
        iterations,
    );
    time::<burako::BurakoGame>(
        "burako",
        &option("burako", r#"{"match":"single_hand"}"#),
        30,
        iterations,
    );
}
