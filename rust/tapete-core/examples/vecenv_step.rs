//! Steps of a `VecEnv` of 1,024 envs on one thread with sampled actions, for profiling:
//! `vecenv_step STEPS GAME_OPTIONS_JSON [index]`, Mosca's options by default.
use tapete_core::games::mosca::MoscaGame;
use tapete_core::vecenv::*;
use tapete_core::Game;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let steps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let index = args.get(2).is_some_and(|a| a == "index");
    let game = MoscaGame::from_options_json("{}").unwrap();
    let n = 1024;
    let cfg = Config {
        num_envs: n,
        seed: 3,
        mode: Mode::MultiAgent,
        opponent: Opponent::Random,
        obs_format: if index {
            ObsFormat::Index
        } else {
            ObsFormat::Float32
        },
        mask_format: if index {
            MaskFormat::Bits
        } else {
            MaskFormat::Bool
        },
        max_decisions: None,
        threads: 1,
    };
    let mut env = VecEnv::new(game, cfg).unwrap();
    let s = env.shape();
    let w = if index { 64 } else { s.obs };
    let mw = mask_width(cfg.mask_format, s.actions);
    let mut v = [vec![0f32; n * w], vec![0f32; n * w]];
    let mut ix = [vec![s.obs as i32; n * w], vec![s.obs as i32; n * w]];
    let mut m = [vec![false; n * mw], vec![false; n * mw]];
    let mut bits = [vec![0u8; n * mw], vec![0u8; n * mw]];
    let (mut p, mut r, mut t, mut u, mut a, mut er, mut el) = (
        vec![0i64; n],
        vec![0f32; n * s.players],
        vec![false; n],
        vec![false; n],
        vec![0i64; n],
        vec![0f32; n * s.players],
        vec![0i64; n],
    );
    let mut acts = vec![0i64; n];
    for k in 0..=steps {
        let [v0, v1] = &mut v;
        let [i0, i1] = &mut ix;
        let [m0, m1] = &mut m;
        let [b0, b1] = &mut bits;
        let (obs, final_obs, mask, final_mask) = if index {
            (
                ObsRows::Index {
                    index: i0,
                    value: v0,
                    width: w,
                },
                ObsRows::Index {
                    index: i1,
                    value: v1,
                    width: w,
                },
                MaskRows::Bits(b0),
                MaskRows::Bits(b1),
            )
        } else {
            (
                ObsRows::Float32(v0),
                ObsRows::Float32(v1),
                MaskRows::Bool(m0),
                MaskRows::Bool(m1),
            )
        };
        let bufs = Buffers {
            obs,
            mask,
            player: &mut p,
            rewards: &mut r,
            terminated: &mut t,
            truncated: &mut u,
            actor: &mut a,
            final_obs,
            final_mask,
            episode_return: &mut er,
            episode_length: &mut el,
        };
        if k == 0 {
            env.reset(None, bufs).unwrap();
        } else {
            env.sample_actions(&mut acts).unwrap();
            env.step(&acts, bufs).unwrap();
        }
    }
}
