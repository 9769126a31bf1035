//! What the Escoba unit tests share: cards and sets written as text, options from JSON, and
//! capture options compared as sets.

use serde_json::Value;

use super::options::EscobaOptions;
use super::rules;
use crate::cards::{Card, CardSet};

pub(super) fn c(s: &str) -> Card {
    Card::parse(s).unwrap()
}
pub(super) fn set(s: &str) -> CardSet {
    s.split_whitespace().map(c).collect()
}
pub(super) fn opts(v: Value) -> EscobaOptions {
    EscobaOptions::resolve(&v).unwrap()
}

/// `capture_options` as sets of card sets (order-free comparison).
pub(super) fn caps(o: &EscobaOptions, played: &str, table: &str) -> Vec<CardSet> {
    let mut v: Vec<CardSet> = rules::capture_options(o, c(played), set(table))
        .into_iter()
        .map(|cs| cs.into_iter().collect())
        .collect();
    v.sort_by_key(|s| s.0);
    v
}
pub(super) fn expect(sets: &[&str]) -> Vec<CardSet> {
    let mut v: Vec<CardSet> = sets.iter().map(|s| set(s)).collect();
    v.sort_by_key(|s| s.0);
    v
}
