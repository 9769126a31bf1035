//! A bot named by text, as the command line, `simulate(bots=...)` and the Python bots give it:
//! `random`, `heuristic`, `ismcts`, `ismcts:200` (iterations), or `ismcts:` followed by
//! `key=value` pairs separated by commas (docs/bots.md §1).

use std::fmt;

use crate::error::{GameError, Result};
use crate::json::excerpt;

use super::ismcts::{Horizon, IsmctsConfig, Rollout};

/// The most iterations one search may ask for.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;
/// The longest time budget one search may ask for, in milliseconds (10 minutes).
pub const MAX_TIME_MS: u64 = 600_000;
/// The most root-parallel trees one search may grow.
pub const MAX_THREADS: u64 = 1024;
/// The largest exploration constant.
pub const MAX_C: f64 = 1e6;

#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    Random,
    Heuristic,
    Ismcts(IsmctsConfig),
}

fn bad(text: &str, why: impl fmt::Display) -> GameError {
    GameError::InvalidOption(format!(
        "bad bot spec {:?}: {why} (expected random, heuristic, ismcts, ismcts:<iterations> or \
         ismcts:key=value,... with keys iterations, time_ms, c, rollout, horizon, threads)",
        excerpt(text)
    ))
}

fn count(text: &str, key: &str, value: &str, max: u64) -> Result<u64> {
    match value.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(bad(
            text,
            format!(
                "{key} must be an int in 1..={max}, got {:?}",
                excerpt(value)
            ),
        )),
    }
}

impl BotSpec {
    /// Reads a spec; anything else is an `InvalidOption` error saying what is wrong.
    pub fn parse(text: &str) -> Result<BotSpec> {
        let t = text.trim();
        let (name, rest) = match t.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (t, None),
        };
        match (name, rest) {
            ("random", None) => Ok(BotSpec::Random),
            ("heuristic", None) => Ok(BotSpec::Heuristic),
            ("random" | "heuristic", Some(_)) => Err(bad(text, format!("{name} takes no options"))),
            ("ismcts", None) => Ok(BotSpec::Ismcts(IsmctsConfig::default())),
            ("ismcts", Some(rest)) => Ok(BotSpec::Ismcts(parse_ismcts(text, rest)?)),
            _ => Err(bad(text, format!("unknown bot {:?}", excerpt(name)))),
        }
    }
}

fn parse_ismcts(text: &str, rest: &str) -> Result<IsmctsConfig> {
    let mut cfg = IsmctsConfig::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut iterations_given = false;
    for (i, item) in rest.split(',').enumerate() {
        let item = item.trim();
        let (key, value) = match item.split_once('=') {
            Some((k, v)) => (k.trim(), v.trim()),
            None if i == 0 => ("iterations", item),
            None => return Err(bad(text, format!("{:?} is not key=value", excerpt(item)))),
        };
        if seen.contains(&key) {
            return Err(bad(text, format!("{key} is given twice")));
        }
        seen.push(key);
        match key {
            "iterations" => {
                iterations_given = true;
                cfg.iterations = match value {
                    "none" => None,
                    v => Some(count(text, key, v, MAX_ITERATIONS)?),
                }
            }
            "time_ms" => {
                cfg.time_ms = match value {
                    "none" => None,
                    v => Some(count(text, key, v, MAX_TIME_MS)?),
                }
            }
            "threads" => cfg.threads = count(text, key, value, MAX_THREADS)? as usize,
            "c" => {
                cfg.c = match value.parse::<f64>() {
                    Ok(c) if c.is_finite() && (0.0..=MAX_C).contains(&c) => c,
                    _ => {
                        return Err(bad(
                            text,
                            format!(
                                "c must be a number in 0..={MAX_C}, got {:?}",
                                excerpt(value)
                            ),
                        ))
                    }
                }
            }
            "rollout" => {
                cfg.rollout = match value {
                    "random" => Rollout::Random,
                    "heuristic" => Rollout::Heuristic,
                    _ => return Err(bad(text, "rollout must be random or heuristic")),
                }
            }
            "horizon" => {
                cfg.horizon = match value {
                    "game" => Horizon::Game,
                    "deal" => Horizon::Deal,
                    _ => return Err(bad(text, "horizon must be game or deal")),
                }
            }
            _ => return Err(bad(text, format!("unknown option {:?}", excerpt(key)))),
        }
    }
    // a time budget alone runs until the time is spent
    if cfg.time_ms.is_some() && !iterations_given {
        cfg.iterations = None;
    }
    if cfg.iterations.is_none() && cfg.time_ms.is_none() {
        return Err(bad(text, "give iterations or time_ms (or both)"));
    }
    Ok(cfg)
}

impl std::str::FromStr for BotSpec {
    type Err = GameError;
    fn from_str(text: &str) -> Result<BotSpec> {
        BotSpec::parse(text)
    }
}

impl fmt::Display for BotSpec {
    /// The canonical text, which [`BotSpec::parse`] reads back to the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Ismcts(c) => {
                let opt = |x: Option<u64>| x.map_or("none".to_string(), |n| n.to_string());
                write!(
                    f,
                    "ismcts:iterations={},time_ms={},c={:?},rollout={},horizon={},threads={}",
                    opt(c.iterations),
                    opt(c.time_ms),
                    c.c,
                    match c.rollout {
                        Rollout::Random => "random",
                        Rollout::Heuristic => "heuristic",
                    },
                    match c.horizon {
                        Horizon::Game => "game",
                        Horizon::Deal => "deal",
                    },
                    c.threads
                )
            }
        }
    }
}
