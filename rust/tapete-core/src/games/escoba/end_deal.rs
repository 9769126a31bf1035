//! The end of a deal (docs/escoba_engine.md §6): the rest of the table, the scoring, the match
//! decision, and the next deal.

use super::*;

impl EscobaState {
    /// docs/escoba_engine.md §6: the rest of the table, scoring, and the match decision.
    pub(super) fn end_deal(&mut self) {
        let cfg = self.cfg.clone();
        let o = &cfg.opts;
        let ns = cfg.sides;
        // the trusted claim cards are shown at the scoring (docs/rules/escoba.md §2.19)
        self.fidasse.claimed = [CardSet::EMPTY; MAX_SEATS];
        if cfg.twins {
            self.twin_take_rest();
        } else if o.last_capturer_takes_rest && self.last_capturer >= 0 {
            let lc = self.last_capturer as usize;
            self.piles[lc] = self.piles[lc].union(self.table).union(self.builds.cards());
        }
        self.table = CardSet::EMPTY;
        self.builds.clear();
        let before = self.scores;
        let target = o.target;
        // Count-out replay runs alongside the scoring; used only if ≥ 2 sides end at the target.
        let mut run = before;
        let mut count_out: Option<Option<usize>> = None;
        let mut decls = [rules::Decl::default(); MAX_DECLS];
        for (slot, &[seat, kind, at]) in decls.iter_mut().zip(self.declarations()) {
            *slot = rules::Decl {
                side: self.side(seat as usize) as u8,
                points: knock::decl_points(o, kind),
                at,
            };
        }
        let decls = &decls[..self.decls.n as usize];
        let n = cfg.n;
        let sides_in: u32 = (0..n)
            .filter(|&s| self.elimination.in_play >> s & 1 != 0)
            .fold(0, |m, s| m | 1 << self.side(s));
        let count = |a: &rules::Points| {
            if count_out.is_some() {
                return;
            }
            let mut cross = 0u32;
            for s in 0..ns {
                run[s] = run[s].saturating_add(a[s]);
                if run[s] >= target {
                    cross |= 1 << s;
                }
            }
            if cross != 0 {
                count_out = Some(if cross.count_ones() == 1 {
                    Some(cross.trailing_zeros() as usize)
                } else {
                    None
                });
            }
        };
        let pts = if sides_in != (1u32 << ns) - 1 {
            self.score_sides_in(sides_in, decls)
        } else if cfg.twins {
            let piles = self.twin_piles();
            twins::score_deal_awards(
                o,
                &piles[..ns],
                self.sweeps(),
                self.maresciallo.ks_sweeps,
                self.twin.sweeps,
                count,
            )
        } else {
            let deal = rules::Deal {
                piles: &self.piles[..ns],
                sweeps: self.sweeps(),
                decls,
                ks_at: self.maresciallo.ks_sweeps,
                ks_sides: self.ks_sides(),
            };
            rules::score_steps(&cfg.awards, o, &deal, count)
        };
        for (s, &p) in pts.iter().enumerate().take(ns) {
            self.deal_points.push(p);
            self.scores[s] = self.scores[s].saturating_add(p);
        }
        let scores = &self.scores[..ns];
        let unique_max = |v: &[i64]| -> Option<(usize, i64, i64)> {
            let m = *v.iter().max()?;
            let mut at = v.iter().enumerate().filter(|(_, &x)| x == m);
            let (i, _) = at.next()?;
            if at.next().is_some() {
                return None;
            }
            let second = v
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &x)| x)
                .max();
            Some((i, m, second.unwrap_or(i64::MIN)))
        };
        let mut winner: Option<usize> = None;
        let mut loser: Option<usize> = None;
        let mut in_play = self.elimination.in_play;
        if o.napola_all_coins_wins {
            winner = (0..ns).find(|&s| o.deck.suit(1).is_subset(self.piles[s]));
        }
        if winner.is_none() && o.all_swords_wins {
            winner = cicera::all_swords(o, &self.piles[..ns]);
        }
        if winner.is_none() {
            if o.game == GameMode::SingleDeal {
                winner = unique_max(&pts[..ns]).map(|(i, _, _)| i);
                if winner.is_none() && o.frac_single_deal {
                    // docs/rules/escoba.md §2.16: a tie for the most goes to the tied side holding Kd
                    let best = pts[..ns].iter().copied().max().unwrap_or(0);
                    winner = (0..ns).find(|&s| pts[s] == best && self.piles[s].contains(Card(KD)));
                }
            } else if o.target_mode == TargetMode::Eliminate {
                let side_of = cfg.side_of;
                (winner, in_play) = elimination::decide(
                    scores,
                    target,
                    self.elimination.in_play,
                    sides_in,
                    |set| {
                        (0..n)
                            .filter(|&s| set >> side_of[s] & 1 != 0)
                            .fold(0u8, |m, s| m | 1 << s)
                    },
                );
            } else if o.target_mode == TargetMode::Lose {
                if let Some((i, m, _)) = unique_max(scores) {
                    if m >= target {
                        loser = Some(i);
                    }
                }
            } else {
                let at = scores.iter().filter(|&&x| x >= target).count();
                if at >= 2 && o.win_check == WinCheck::CountOut {
                    winner = count_out.flatten();
                }
                // several sides crossing at one award fall through to the highest-unique test
                if winner.is_none() {
                    if let Some((i, m, second)) = unique_max(scores) {
                        let margin_ok = o
                            .win_margin
                            .is_none_or(|w| (m as i128 - second as i128) >= w as i128);
                        if m >= target && margin_ok {
                            winner = Some(i);
                        }
                    }
                }
            }
        }
        let drawn = winner.is_none()
            && loser.is_none()
            && o.max_deals.is_some_and(|m| self.deal as i64 >= m);
        if let (Some(w), TargetMode::Eliminate) = (winner, o.target_mode) {
            // whatever decided it, only the winner's seats are left in the match
            in_play = (0..n)
                .filter(|&s| cfg.side_of[s] as usize == w)
                .fold(0u8, |m, s| m | 1 << s);
        }
        self.elimination.in_play = in_play;
        if winner.is_some() || loser.is_some() || drawn {
            self.winner = winner.map_or(-1, |w| w as i8);
            self.loser = loser.map_or(-1, |l| l as i8);
            self.terminal = true;
            self.to_move = -1;
            return;
        }
        self.dealer = elimination::next_in(self.elimination.in_play, self.dealer as usize, n) as u8;
        self.deal = self.deal.saturating_add(1);
        self.start_deal(None);
    }

    /// Scores the deal among the sides still in play only (docs/rules/escoba.md §2.11: the players out take no
    /// part, so they tie for nothing); points per side, 0 for the others.
    pub(super) fn score_sides_in(&self, sides_in: u32, decls: &[rules::Decl]) -> rules::Points {
        let ns = self.cfg.sides;
        let mut idx = [0u8; MAX_SIDES];
        let mut piles = Vec::with_capacity(ns);
        for s in (0..ns).filter(|&s| sides_in >> s & 1 != 0) {
            idx[s] = piles.len() as u8;
            piles.push(self.piles[s]);
        }
        let inside = |s: u8| sides_in >> s & 1 != 0;
        let sweeps: Vec<u8> = self
            .sweeps()
            .iter()
            .filter(|&&s| inside(s))
            .map(|&s| idx[s as usize])
            .collect();
        // the Ks sweeps (maresciallo) renumbered like the sweeps kept
        let (mut ks_at, mut ks_sides, mut j) = (0u128, 0u32, 0usize);
        for (i, &s) in self.sweeps().iter().enumerate() {
            if inside(s) {
                if self.maresciallo.ks_sweeps >> i & 1 != 0 {
                    ks_at |= 1u128 << j;
                    ks_sides |= 1 << idx[s as usize];
                }
                j += 1;
            }
        }
        let decls: Vec<rules::Decl> = decls
            .iter()
            .filter(|d| inside(d.side))
            .map(|d| rules::Decl {
                side: idx[d.side as usize],
                ..*d
            })
            .collect();
        let deal = rules::Deal {
            piles: &piles,
            sweeps: &sweeps,
            decls: &decls,
            ks_at,
            ks_sides,
        };
        let part = rules::score_steps(&self.cfg.awards, self.opts(), &deal, |_| {});
        let mut pts: rules::Points = [0; MAX_SIDES];
        for s in (0..ns).filter(|&s| sides_in >> s & 1 != 0) {
            pts[s] = part[idx[s] as usize];
        }
        pts
    }
}
