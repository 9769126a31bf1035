//! What a seat may see (docs/escoba_engine.md §10), as JSON text.

use std::fmt::Write as _;

use super::notation::{action_to_string, CLAIM, NO_KNOCK};
use super::serial::push_deal_points;
use super::text::push_texts2;
use super::EscobaState;
use crate::cards::{Card, CardSet};
use crate::json::push_ints;

/// The seat the public view is written for (docs/escoba_engine.md §10): no seat, so that every
/// part hides from it what it hides from any seat other than the one who holds it.
pub(super) const NOBODY: usize = usize::MAX;

/// View of seat `p` (docs/escoba_engine.md §10), keys in the contract's order; the public view
/// for `p` = [`NOBODY`] (no `player`, no `hand`).
pub(super) fn view_json(st: &EscobaState, p: usize) -> String {
    let n = st.cfg.n;
    let ns = st.cfg.sides;
    let mut s = String::with_capacity(600);
    let cp = if st.terminal { -1 } else { st.to_move as i64 };
    let player = if p == NOBODY {
        "null".to_string()
    } else {
        p.to_string()
    };
    let _ = write!(
        s,
        "{{\"player\":{player},\"current_player\":{cp},\"dealer\":{},\"deal\":{},\"hand\":",
        st.dealer, st.deal
    );
    if p == NOBODY {
        s.push_str("null");
    } else {
        push_texts2(&mut s, st.hands[p], st.twin.hands[p]);
    }
    s.push_str(",\"hand_sizes\":");
    push_ints(&mut s, (0..n).map(|seat| st.hand_len(seat)));
    s.push_str(",\"table\":");
    push_texts2(&mut s, st.table, st.twin.table);
    s.push_str(",\"piles\":[");
    let hidden = st.hidden_from(p);
    for side in 0..ns {
        if side > 0 {
            s.push(',');
        }
        // a trusted claim card of another seat is a face-down "??" (docs/rules/escoba.md §2.19)
        let pile = st.piles[side];
        let two = st.twin.piles[side];
        let shown = pile
            .minus(hidden)
            .iter()
            .flat_map(|c| std::iter::repeat_n(format!("\"{c}\""), 1 + two.contains(c) as usize));
        let down = (0..pile.inter(hidden).len()).map(|_| "\"??\"".to_string());
        let _ = write!(s, "[{}]", shown.chain(down).collect::<Vec<_>>().join(","));
    }
    s.push(']');
    for f in &st.cfg.parts.view {
        f.view_piles(st, p, &mut s);
    }
    s.push_str(",\"scope\":");
    push_ints(
        &mut s,
        (0..ns).map(|side| st.sweeps().iter().filter(|&&x| x as usize == side).count()),
    );
    let _ = write!(s, ",\"stock_size\":{},\"pending\":", st.stock().len());
    match st.pending() {
        Some(c) => {
            let _ = write!(s, "\"{c}\"");
        }
        None => s.push_str("null"),
    }
    s.push_str(",\"selection\":[");
    for (i, c) in st.selection.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"{}\"", super::piles::item_text(c.0));
        if st.twin.selection.contains(c) {
            let _ = write!(s, ",\"{c}\"");
        }
    }
    s.push(']');
    s.push_str(",\"scores\":");
    push_ints(&mut s, st.scores[..ns].iter());
    s.push_str(",\"deal_points\":");
    push_deal_points(&mut s, st);
    let _ = write!(
        s,
        ",\"last_capturer\":{},\"terminal\":{},\"winner\":{},\"loser\":{}",
        st.last_capturer, st.terminal, st.winner, st.loser
    );
    for f in &st.cfg.parts.view {
        f.view(st, p, &mut s);
    }
    push_history(st, hidden, &mut s);
    s.push('}');
    s
}

/// The history as `p` records it (docs/escoba_engine.md §10): every action as text, but a declined
/// knock is left out (no seat sees it) and the claim of a card hidden from `p` reads `claim ??`
/// (the last `CLAIM` of a hidden card is this deal's).
fn push_history(st: &EscobaState, hidden: CardSet, s: &mut String) {
    s.push_str(",\"history\":[");
    let mut first = true;
    for (i, &a) in st.history.iter().enumerate() {
        let a = a as u32;
        if a == NO_KNOCK {
            continue;
        }
        if !first {
            s.push(',');
        }
        first = false;
        let c = a.wrapping_sub(CLAIM);
        let masked = c < 52
            && hidden.contains(Card(c as u8))
            && !st.history[i + 1..].iter().any(|&b| b as u32 == a);
        s.push('"');
        if masked {
            s.push_str("claim ??");
        } else {
            s.push_str(&action_to_string(a).unwrap_or_default());
        }
        s.push('"');
    }
    s.push(']');
}
