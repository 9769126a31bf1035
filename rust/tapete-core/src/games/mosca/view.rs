//! What a seat sees (docs/mosca_engine.md §10): the view, keys in the contract's order, and the
//! flat observation. Nothing hidden from the seat enters either.

use crate::obs::Sink;
use std::fmt::Write as _;

use serde_json::Value;

use super::{MoscaState, Phase};
use crate::cards::{Card, SUIT_CHARS};

use crate::json::{card_texts, push_ints};

/// Null for the public view (`None`), else `f` of the seat.
fn own<T>(p: Option<usize>, f: impl Fn(usize) -> T) -> String
where
    T: std::fmt::Display,
{
    p.map_or_else(|| "null".to_string(), |p| f(p).to_string())
}

/// View of seat `p` (a seat of the game), keys in the contract's order; the public view for
/// `None` (docs/mosca_engine.md §10: no `player`, `hand` or `discards`, every exchange masked).
pub(super) fn view_json(x: &MoscaState, p: Option<usize>) -> String {
    let n = x.cfg.n;
    let mut s = String::with_capacity(700 + 4 * x.history.len());
    let end = x.phase == Phase::End;
    let cp = if end { -1 } else { x.to_move as i64 };
    let _ = write!(
        s,
        "{{\"player\":{},\"current_player\":{cp},\"phase\":\"{}\",\"dealer\":{},\"mano\":{},\"deals_played\":{},\"hand\":{}",
        own(p, |p| p),
        x.phase.as_str(),
        x.dealer,
        x.mano(),
        x.deals_played,
        own(p, |p| card_texts(x.hands[p]))
    );
    s.push_str(",\"hand_sizes\":");
    push_ints(&mut s, x.hands[..n].iter().map(|h| h.len()));
    let _ = write!(
        s,
        ",\"turnup\":\"{}\",\"trump\":\"{}\",\"turnup_taken\":{},\"declarations\":[",
        Card(x.turnup),
        SUIT_CHARS[x.trump() as usize] as char,
        x.turnup_taken
    );
    for seat in 0..n {
        if seat > 0 {
            s.push(',');
        }
        s.push_str(match x.declarations[seat] {
            1 => "\"play\"",
            0 => "\"pass\"",
            _ => "null",
        });
    }
    s.push_str("],\"exchanged\":");
    push_ints(&mut s, x.exchanged[..n].iter());
    let trick = &x.trick[..x.trick_len as usize];
    let trick_texts: Vec<Value> = trick
        .iter()
        .map(|&c| Value::String(Card(c).to_string()))
        .collect();
    let _ = write!(
        s,
        ",\"discards\":{},\"talon_size\":{},\"trick\":{}",
        own(p, |p| card_texts(x.discarded[p])),
        x.talon().len(),
        Value::Array(trick_texts)
    );
    s.push_str(",\"trick_seats\":");
    push_ints(&mut s, x.trick_seats[..x.trick_len as usize].iter());
    let _ = write!(
        s,
        ",\"leader\":{},\"trick_number\":{},\"played\":{}",
        x.leader,
        x.trick_number,
        card_texts(x.played)
    );
    s.push_str(",\"tricks_won\":");
    push_ints(&mut s, x.tricks_won[..n].iter());
    let _ = write!(s, ",\"pot\":{},\"balances\":", x.pot);
    push_ints(&mut s, x.balances[..n].iter());
    s.push_str(",\"eliminated\":");
    push_ints(&mut s, x.eliminated[..n].iter());
    let _ = write!(s, ",\"terminal\":{},\"history\":", end);
    super::resample::push_view_history(x, p, &mut s);
    s.push('}');
    s
}

/// Writes the observation of seat `p` (a seat of the game) into `out`.
pub(super) fn write_observation<O: Sink + ?Sized>(x: &MoscaState, p: usize, out: &mut O) {
    let n = x.cfg.n;
    let rot = |j: usize| (p + j) % n;
    for c in x.hands[p] {
        out.set(c.0 as usize, 1.0);
    }
    for c in x.discarded[p] {
        out.set(52 + c.0 as usize, 1.0);
    }
    out.set(104 + x.turnup as usize, 1.0);
    out.set(156 + x.trump() as usize, 1.0);
    out.set(160, x.turnup_taken as u8 as f32);
    for j in 0..n {
        let s = rot(j);
        let b = 161 + 3 * j;
        match x.declarations[s] {
            1 => out.set(b, 1.0),
            0 => out.set(b + 1, 1.0),
            _ => {}
        }
        if x.eliminated[s] {
            out.set(b + 2, 1.0);
        }
        out.set(161 + 3 * n + j, x.exchanged[s] as f32);
    }
    out.set(161 + 4 * n, (x.talon_len - x.talon_pos) as f32);
    let tb = 162 + 4 * n;
    for k in 0..x.trick_len as usize {
        let s = x.trick_seats[k] as usize;
        let j = (s + n - p) % n;
        out.set(tb + 52 * j + x.trick[k] as usize, 1.0);
    }
    if x.phase == Phase::Trick && x.leader >= 0 {
        let j = (x.leader as usize + n - p) % n;
        out.set(162 + 56 * n + j, 1.0);
    }
    for c in x.played {
        out.set(162 + 57 * n + c.0 as usize, 1.0);
    }
    for j in 0..n {
        let s = rot(j);
        out.set(214 + 57 * n + j, x.tricks_won[s] as f32);
        out.set(215 + 58 * n + j, x.balances[s] as f32);
    }
    out.set(214 + 58 * n, x.pot as f32);
    out.set(215 + 59 * n + (x.dealer as usize + n - p) % n, 1.0);
    out.set(215 + 60 * n, x.deals_played as f32);
}
