//! What the games' `heuristic` bots share: choosing among candidates with `rng` breaking ties
//! (docs/bots.md §1).

use crate::rng::SplitMix64;

/// The item of `items` with the least `key`, ties broken uniformly: the k-th item to tie the
/// least key so far replaces the choice when `rng.below(k) == 0`, so `rng` is drawn only on
/// ties. `None` when `items` is empty.
pub fn least_by_key<T, K: PartialOrd>(
    items: impl IntoIterator<Item = T>,
    rng: &mut SplitMix64,
    mut key: impl FnMut(&T) -> K,
) -> Option<T> {
    let mut best: Option<(T, K)> = None;
    let mut ties = 0u64;
    for item in items {
        let k = key(&item);
        if best.as_ref().is_none_or(|(_, least)| k < *least) {
            best = Some((item, k));
            ties = 1;
        } else if let Some((choice, least)) = &mut best {
            if k == *least {
                ties += 1;
                if rng.below(ties) == 0 {
                    *choice = item;
                }
            }
        }
    }
    best.map(|(item, _)| item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_key_wins_and_ties_draw_only_on_ties() {
        let mut rng = SplitMix64::new(7);
        assert_eq!(least_by_key([5, 3, 8], &mut rng, |&x| x), Some(3));
        // no tie: nothing drawn
        assert_eq!(rng.next_u64(), SplitMix64::new(7).next_u64());
        assert_eq!(least_by_key(Vec::<u8>::new(), &mut rng, |&x| x), None);
        // 2 and 4 tie for the least key (even): one draw, below(2), says whether 4 replaces 2
        let mut rng = SplitMix64::new(1);
        let mut expect = SplitMix64::new(1);
        let picked = least_by_key([2, 5, 4], &mut rng, |&x| x % 2);
        assert_eq!(picked, Some(if expect.below(2) == 0 { 4 } else { 2 }));
        assert_eq!(rng.next_u64(), expect.next_u64());
    }
}
