//! Where an ISMCTS iteration's time goes, counted by parts under callgrind:
//! `ismcts_parts PART ITERATIONS GAME`, with PART one of
//!   `search`    one search of ITERATIONS iterations (random rollouts, horizon deal)
//!   `resample`  ITERATIONS resamples of the root for its seat to act, into a reused state, with
//!               the seeds the search draws
//!   `rollout`   ITERATIONS resamples and a random rollout from each to the search's horizon
//! from a position a few decisions into a match of GAME (escoba, mosca, musta_maija, burako) at
//! its bench option set. The instructions of two runs of ITERATIONS and 2·ITERATIONS apart give
//! an iteration's: `rollout` minus `resample` is the rollout, `search` minus `rollout` the tree's
//! own walk (net of the rollout's first moves, which the tree plays instead).
use std::hint::black_box;

use tapete_core::bots::{search, IsmctsConfig};
use tapete_core::games::*;
use tapete_core::{Game, SplitMix64, State};

fn root<G: Game>(game: &G, steps: usize) -> G::State {
    let mut s = game.new_state(11);
    let mut rng = SplitMix64::new(7);
    let mut legal = Vec::new();
    for _ in 0..steps {
        s.legal_actions_into(&mut legal);
        if legal.len() > 1 && s.decisions() >= steps / 2 {
            break;
        }
        s.apply_unchecked(legal[(rng.next_u64() % legal.len() as u64) as usize]);
    }
    s
}

fn run<G: Game>(options: &str, steps: usize, part: &str, iterations: u64) {
    let game = G::from_options_json(options).expect("options");
    let root = root(&game, steps);
    let seat = root.current_player().expect("a seat to act");
    match part {
        "search" => {
            let cfg = IsmctsConfig {
                iterations: Some(iterations),
                ..IsmctsConfig::default()
            };
            black_box(search(&cfg, &root, 1).expect("search"));
        }
        _ => {
            let rollout = part == "rollout";
            let deals = root.deals();
            let mut master = SplitMix64::new(1);
            let mut det = root.clone();
            let mut legal = Vec::new();
            for _ in 0..iterations {
                let det_seed = master.next_u64();
                let mut rng = SplitMix64::new(master.next_u64());
                root.resample_into(seat, det_seed, &mut det);
                if rollout {
                    while !det.is_over() && det.deals() == deals {
                        det.legal_actions_into(&mut legal);
                        let k = (rng.next_u64() % legal.len() as u64) as usize;
                        det.apply_unchecked(legal[k]);
                    }
                }
                black_box(&det);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let part = args.get(1).map_or("search", String::as_str);
    let iterations: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    match args.get(3).map_or("burako", String::as_str) {
        "escoba" => run::<escoba::EscobaGame>(r#"{"variant":"scopa"}"#, 8, part, iterations),
        "mosca" => run::<mosca::MoscaGame>(r#"{"players":4}"#, 8, part, iterations),
        "musta_maija" => {
            run::<musta_maija::MustaMaijaGame>(r#"{"players":4}"#, 12, part, iterations)
        }
        _ => run::<burako::BurakoGame>(
            r#"{"players":4,"match":"single_hand"}"#,
            24,
            part,
            iterations,
        ),
    }
}
