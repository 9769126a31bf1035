use super::*;
use crate::error::GameError;
use crate::game::Game;
use crate::games::escoba::EscobaGame;
use crate::games::mosca::MoscaGame;

fn scopa() -> EscobaGame {
    EscobaGame::from_options(&serde_json::json!({"variant": "scopa"})).unwrap()
}

fn cfg(text: &str) -> IsmctsConfig {
    match BotSpec::parse(text).unwrap() {
        BotSpec::Ismcts(c) => c,
        other => panic!("{other:?}"),
    }
}

#[test]
fn specs_read_back_from_their_text() {
    for text in [
        "random",
        "heuristic",
        "ismcts",
        "ismcts:200",
        "ismcts:iterations=50,c=1.5,rollout=heuristic,horizon=game,threads=2",
        "ismcts:time_ms=20",
        "ismcts:iterations=10,time_ms=20",
    ] {
        let spec = BotSpec::parse(text).unwrap();
        assert_eq!(BotSpec::parse(&spec.to_string()).unwrap(), spec, "{text}");
    }
    assert_eq!(cfg("ismcts:200").iterations, Some(200));
    assert_eq!(cfg("ismcts:time_ms=20").iterations, None);
    assert_eq!(cfg("ismcts:10,time_ms=20").iterations, Some(10));
    for bad in [
        "",
        "mcts",
        "random:3",
        "ismcts:0",
        "ismcts:x",
        "ismcts:c=-1",
        "ismcts:c=nan",
        "ismcts:rollout=smart",
        "ismcts:horizon=trick",
        "ismcts:threads=0",
        "ismcts:iterations=5,iterations=6",
        "ismcts:iterations=none",
        "ismcts:depth=3",
        "ismcts:5,6",
    ] {
        assert!(
            matches!(BotSpec::parse(bad), Err(GameError::InvalidOption(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn deal_rewards_scale_margins() {
    let mut out = [0.0; 4];
    deal_rewards(&[0, 0], &[3, 1], 1, &mut out[..2]);
    assert_eq!(&out[..2], &[1.0, -1.0]);
    deal_rewards(&[0, 0], &[3, 1], -1, &mut out[..2]);
    assert_eq!(&out[..2], &[-1.0, 1.0]);
    deal_rewards(&[5, 5], &[7, 7], 1, &mut out[..2]);
    assert_eq!(&out[..2], &[0.0, 0.0]);
    // three seats: d = (3, 0, 0): margins 9-3, -3, -3 = 6, -3, -3
    deal_rewards(&[0, 0, 0], &[3, 0, 0], 1, &mut out[..3]);
    assert_eq!(&out[..3], &[1.0, -0.5, -0.5]);
}

#[test]
fn search_is_deterministic_and_counts_every_iteration() {
    let g = scopa();
    let s = g.new_state(11);
    for text in [
        "ismcts:300",
        "ismcts:300,threads=3",
        "ismcts:300,horizon=game",
    ] {
        let c = cfg(text);
        let a = search(&c, &s, 5).unwrap();
        let b = search(&c, &s, 5).unwrap();
        assert_eq!(a, b, "{text}");
        assert_eq!(a.iterations, 300);
        assert_eq!(a.stats.iter().map(|st| st.visits).sum::<u64>(), 300);
        let legal = s.legal_actions();
        assert!(a.stats.iter().all(|st| legal.contains(&st.action)));
        assert!(a.stats.iter().all(|st| st.avail >= st.visits));
    }
}

#[test]
fn every_bot_plays_whole_matches() {
    let g = MoscaGame::from_options(&serde_json::json!({"players": 3})).unwrap();
    let mut s = g.new_state(3);
    let specs = [
        BotSpec::Random,
        BotSpec::Heuristic,
        BotSpec::parse("ismcts:20").unwrap(),
    ];
    let mut rng = SplitMix64::new(1);
    let mut i = 0;
    while let Some(_p) = s.player_to_act() {
        let a = act_with_rng(&specs[i % 3], &s, &mut rng).unwrap();
        s.apply(a).unwrap();
        i += 1;
    }
    assert!(s.is_terminal());
    assert!(matches!(
        act(&BotSpec::Random, &s, 0),
        Err(GameError::IllegalAction(_))
    ));
}

/// Two states with the same view for the seat to act (a state and its resample; the view carries
/// the seat's record of the history) get the same action from every bot with the same seed
/// (docs/design.md §7.5). Other seats' private details in the full history may differ.
fn check_paired<G: Game>(g: &G) {
    let mut s = g.new_state(4);
    let mut rng = SplitMix64::new(4);
    for _ in 0..4 {
        if s.player_to_act().is_none() {
            break;
        }
        let a = act(&BotSpec::Random, &s, rng.next_u64()).unwrap();
        s.apply(a).unwrap();
    }
    let p = s.player_to_act().unwrap();
    let pair = [s.resample(p, 1).unwrap(), s.resample(p, 2).unwrap()];
    for t in &pair {
        assert_eq!(t.view_json(p), s.view_json(p), "{}", G::NAME);
        assert_eq!(t.decisions(), s.decisions(), "{}", G::NAME);
    }
    for spec in [
        "random",
        "heuristic",
        "ismcts:40",
        "ismcts:40,threads=2,horizon=game",
    ] {
        let spec = BotSpec::parse(spec).unwrap();
        let [a, b] = &pair;
        let (x, y) = (
            act_with_stats(&spec, a, &mut SplitMix64::new(9)).unwrap(),
            act_with_stats(&spec, b, &mut SplitMix64::new(9)).unwrap(),
        );
        assert_eq!(x, y, "{} {spec}", G::NAME);
    }
}

#[test]
fn bots_see_only_their_seat_in_every_game() {
    macro_rules! each {
        ($($module:ident :: $Game:ident, $State:ident;)*) => {
            $(check_paired(&crate::games::$module::$Game::from_options(&serde_json::json!({})).unwrap());)*
        };
    }
    crate::for_each_game!(each);
}

/// At every decision of random matches (half of the moves the heuristic's own, so that melds and
/// piles build up), a resample for the seat to act keeps its view, and the heuristic bot plays the
/// same action in both with the same tie-break stream: it reads only that seat's view.
fn check_heuristic_paired<G: Game>(options: &[serde_json::Value], rng: &mut SplitMix64) -> usize {
    let mut compared = 0;
    let mut legal = Vec::new();
    for opts in options {
        let g = G::from_options(opts).unwrap();
        let mut s = g.new_state(rng.next_u64());
        for _ in 0..400 {
            let Some(seat) = s.player_to_act() else { break };
            let other = s.resample(seat, rng.next_u64()).unwrap();
            assert_eq!(other.view_json(seat), s.view_json(seat), "{opts}");
            let seed = rng.next_u64();
            let a = s.heuristic_action(&mut SplitMix64::new(seed));
            let b = other.heuristic_action(&mut SplitMix64::new(seed));
            assert_eq!(a, b, "{opts}: {}", s.to_json());
            compared += 1;
            s.legal_actions_into(&mut legal);
            let r = legal[rng.below(legal.len() as u64) as usize];
            s.apply_unchecked(if rng.below(2) == 0 { a } else { r });
        }
    }
    compared
}

#[test]
fn the_heuristic_reads_only_its_seats_view_in_every_game() {
    use crate::games::{burako::BurakoGame, musta_maija::MustaMaijaGame};
    use serde_json::json;
    let mut rng = SplitMix64::new(23);
    let escoba: Vec<_> = [
        ("scopa", 2),
        ("escoba", 4),
        ("non_prendere", 4),
        ("rubamazzo", 3),
        ("cirulla", 3),
        ("granja", 2),
        ("tuzzulicchio", 2),
        ("cicera", 4),
    ]
    .iter()
    .map(|(v, p)| json!({"variant": v, "players": p}))
    .collect();
    let players = |ps: &[u32]| -> Vec<serde_json::Value> {
        ps.iter().map(|p| json!({ "players": p })).collect()
    };
    let counts = [
        check_heuristic_paired::<EscobaGame>(&escoba, &mut rng),
        check_heuristic_paired::<MoscaGame>(&players(&[2, 3, 4, 6]), &mut rng),
        check_heuristic_paired::<MustaMaijaGame>(&players(&[2, 3, 4, 6]), &mut rng),
        check_heuristic_paired::<BurakoGame>(&players(&[2, 4]), &mut rng),
    ];
    assert!(
        counts.iter().all(|&c| c > 100),
        "positions compared: {counts:?}"
    );
}
