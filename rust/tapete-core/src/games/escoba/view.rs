//! What a seat may see (docs/escoba_engine.md §10), as JSON text.

use std::fmt::Write as _;

use super::builds::build_value;
use super::notation::CLAIM;
use super::serial::{eliminate, has_decls, push_deal_points, push_texts, push_texts2};
use super::*;
use crate::json::push_ints;

/// View of seat `p` (docs/escoba_engine.md §10), keys in the contract's order.
pub(super) fn view_json(st: &EscobaState, p: usize) -> String {
    let n = st.cfg.n;
    let ns = st.cfg.sides;
    let mut s = String::with_capacity(600);
    let cp = if st.terminal { -1 } else { st.to_move as i64 };
    let _ = write!(
        s,
        "{{\"player\":{p},\"current_player\":{cp},\"dealer\":{},\"deal\":{},\"hand\":",
        st.dealer, st.deal
    );
    push_texts2(&mut s, st.hands[p], st.twin.hands[p]);
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
    if st.cfg.opts.steal {
        // docs/rules/escoba.md §2.21: the top card of every pile is public
        s.push_str(",\"pile_tops\":[");
        for side in 0..ns {
            if side > 0 {
                s.push(',');
            }
            match st.pile_top(side) {
                Some(c) => {
                    let _ = write!(s, "\"{c}\"");
                }
                None => s.push_str("null"),
            }
        }
        s.push(']');
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
    if has_decls(st.cfg.opts.tuzzoli, st.cfg.knocks) {
        // tuzzoli are announced, not shown (docs/rules/escoba.md §2.8): the seat, the kind and its points
        s.push_str(",\"declarations\":[");
        for (i, &[seat, kind, _]) in st.declarations().iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "{{\"seat\":{seat},\"declaration\":\"{}\",\"points\":{}}}",
                knock::decl_name(kind),
                knock::decl_points(&st.cfg.opts, kind)
            );
        }
        s.push(']');
    }
    if st.cfg.show {
        // a knocked hand (docs/rules/escoba.md §2.7), an open last hand (docs/rules/escoba.md §2.23) is played face up
        s.push_str(",\"shown\":[");
        for seat in 0..n {
            if seat > 0 {
                s.push(',');
            }
            push_texts(&mut s, st.shown(seat));
        }
        s.push(']');
    }
    if st.cfg.matta.bit != 0 {
        let _ = write!(s, ",\"matta_value\":{}", st.matta_value);
    }
    if st.cfg.opts.maresciallo_penalty {
        s.push_str(",\"ks_sweeps\":");
        push_ints(
            &mut s,
            (0..ns).map(|side| {
                st.ks_sweeps()
                    .filter(|&i| st.sweeps[i] as usize == side)
                    .count()
            }),
        );
    }
    if st.cfg.twins {
        s.push_str(",\"twin_sweeps\":");
        push_ints(
            &mut s,
            (0..ns).map(|side| {
                st.twin_sweeps()
                    .filter(|&i| st.sweeps[i] as usize == side)
                    .count()
            }),
        );
    }
    if st.cfg.opts.builds {
        // builds are public (docs/rules/escoba.md §2.20)
        s.push_str(",\"builds\":[");
        for (i, &b) in st.builds.as_slice().iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"cards\":");
            push_texts(&mut s, b);
            let _ = write!(s, ",\"value\":{}}}", build_value(b));
        }
        s.push(']');
    }
    if eliminate(st) {
        s.push_str(",\"in_play\":");
        push_ints(&mut s, (0..n).filter(|&p| st.in_play >> p & 1 != 0));
    }
    if st.cfg.opts.max_consecutive_sweeps.is_some() {
        // each side's streak of sweeps is public (docs/rules/escoba.md §1.5)
        s.push_str(",\"sweep_streak\":");
        push_ints(&mut s, st.streak[..ns].iter());
    }
    if st.cfg.opts.fidasse {
        s.push_str(",\"claim\":");
        if st.claim >= 0 {
            let c = Card(st.claim as u8);
            let card = if hidden.contains(c) {
                "??".to_string()
            } else {
                c.to_string()
            };
            let _ = write!(s, "{{\"seat\":{},\"card\":\"{card}\"}}", st.claimant);
        } else {
            s.push_str("null");
        }
        // the history, a hidden claim as "claim ??": the last CLAIM of a hidden card is this deal's
        s.push_str(",\"history\":[");
        for (i, &a) in st.history.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let a = a as u32;
            let c = a.wrapping_sub(CLAIM);
            let masked = c < 52
                && hidden.contains(Card(c as u8))
                && !st.history[i + 1..].iter().any(|&b| b as u32 == a);
            let text = if masked {
                "claim ??".to_string()
            } else {
                super::notation::action_to_string(a).unwrap_or_default()
            };
            let _ = write!(s, "\"{text}\"");
        }
        s.push(']');
    }
    s.push('}');
    s
}
