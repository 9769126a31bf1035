//! `play(text)`: a full move as written (docs/escoba_engine.md §4), checked against the outcomes
//! of the one capture search the step protocol uses, then applied as its steps.

use super::*;

/// A move as written (docs/escoba_engine.md §4) after the played card: nothing, `x` and the
/// items taken ascending (a twin twice), or `on` a build target.
#[derive(PartialEq, Eq)]
pub(super) enum Written {
    Plain,
    Take(Vec<Card>),
    On(Card),
}

impl Written {
    pub(super) fn text(&self, c: Card) -> String {
        match self {
            Written::Plain => c.to_string(),
            Written::Take(t) => {
                let items: Vec<String> = t.iter().map(|x| piles::item_text(x.0)).collect();
                format!("{c} x {}", items.join(" "))
            }
            Written::On(t) => format!("{c} on {t}"),
        }
    }
}

impl EscobaState {
    /// A full move `Qh x Ah 3s 5d` / `Kc` (docs/escoba_engine.md §4), applied atomically.
    pub(super) fn play_move(&mut self, text: &str) -> Result<()> {
        if text.trim_start().to_ascii_lowercase().starts_with("claim") {
            // a fidasse claim is one action (docs/escoba_engine.md §4)
            return self.apply_str(text);
        }
        let (c, taken, on) = notation::parse_move(text)?;
        if self.terminal {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: the game is over"
            )));
        }
        if self.pending >= 0 {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: {} is already played and waits for take/done",
                Card(self.pending as u8)
            )));
        }
        if self.knock_turn() {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: the hand's declaration comes first (knock or no knock)"
            )));
        }
        if self.fidasse.claim >= 0 {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: a claim waits for trust or doubt"
            )));
        }
        // the written move against the outcomes of the one search that `legal_actions` steps
        // through (docs/escoba_engine.md §4): trail/self-capture, a build, or a capture of items
        let mut taken = taken;
        taken.sort_unstable_by_key(|t| t.0);
        let wanted = match on {
            Some(t) => Written::On(t),
            None if taken.is_empty() => Written::Plain,
            None => Written::Take(taken.clone()),
        };
        let hand = self.hands[self.to_move as usize];
        let mut found = false;
        if hand.contains(c) && (c.0 as usize) < 52 && self.is_legal(c.0 as Action) {
            self.for_each_written(c, |w| found |= w == wanted);
        }
        if !found {
            let mut legal: Vec<String> = Vec::new();
            for a in self.legal_actions().into_iter().filter(|&a| a < TAKE) {
                let q = Card(a as u8);
                self.for_each_written(q, |w| legal.push(w.text(q)));
            }
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: legal moves are {}",
                legal.join(", ")
            )));
        }
        self.apply_unchecked(c.0 as Action);
        if let Some(t) = on {
            if self.pending >= 0 {
                self.apply_unchecked(BUILD_ON + t.0 as Action);
            }
            return Ok(());
        }
        for t in taken {
            if self.pending < 0 {
                break;
            }
            self.apply_unchecked(TAKE + t.0 as Action);
        }
        if self.pending >= 0 && !self.terminal {
            self.apply_unchecked(DONE);
        }
        Ok(())
    }

    /// Each outcome of playing `c` now, as a written move: the capture search of the step
    /// protocol (the multiset one on the double pack), so that `play` accepts what it steps.
    pub(super) fn for_each_written<F: FnMut(Written)>(&self, c: Card, mut f: F) {
        if self.cfg.twins {
            self.twin_outcomes(c, |out| match out {
                twins::TwinOutcome::Capture { cards, .. } => {
                    f(Written::Take(cards.iter().collect()))
                }
                _ => f(Written::Plain),
            });
            return;
        }
        let hand = self.hands[self.to_move as usize];
        let first = self.opts().forbid_ace_first_play && self.is_first_play();
        self.for_each_outcome(c, hand, first, |out| match out {
            Outcome::Trail | Outcome::SelfCapture => f(Written::Plain),
            Outcome::Capture { cards, .. } => f(Written::Take(cards.iter().collect())),
            Outcome::Build { on } => f(Written::On(on)),
        });
    }
}
