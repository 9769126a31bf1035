//! Quick timing of the batch loop: `cargo run --release --example escoba_speed [games] [threads]`.
use std::time::Instant;

use tapete_core::games::escoba::EscobaGame;
use tapete_core::play::simulate;
use tapete_core::Game;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let opts = args.get(3).cloned().unwrap_or_else(|| "{}".into());
    let g = EscobaGame::from_options_json(&opts).expect("options");
    let t = Instant::now();
    let r = simulate(&g, games, 1, threads).expect("simulate");
    let dt = t.elapsed().as_secs_f64();
    let decisions: i64 = r.decisions.iter().sum();
    println!(
        "{games} games, {decisions} decisions, {:.3} s, {:.1} ns/decision, {:.0} games/s",
        dt,
        dt * 1e9 / decisions as f64,
        games as f64 / dt
    );
}
