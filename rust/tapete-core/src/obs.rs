//! Where an observation is written (docs/envs.md §1): the dense float32 row of the contract's
//! layout, or only its nonzero entries (`VecEnv`'s `index` form). A game's writer generic over
//! [`Sink`] serves both at the cost of the entries it writes; a writer for `&mut [f32]` alone is
//! read back from a dense scratch row ([`Entries::read_dense`]).

/// A row being written. It starts at 0; a writer sets an entry at most once, or adds to it.
pub trait Sink {
    fn set(&mut self, i: usize, v: f32);
    fn add(&mut self, i: usize, v: f32);
}

impl Sink for [f32] {
    #[inline]
    fn set(&mut self, i: usize, v: f32) {
        self[i] = v;
    }
    #[inline]
    fn add(&mut self, i: usize, v: f32) {
        self[i] += v;
    }
}

/// The nonzero entries of one observation: after [`Entries::finish`], ascending by index, each
/// index once.
#[derive(Clone, Debug, Default)]
pub struct Entries {
    index: Vec<u32>,
    value: Vec<f32>,
    /// The dense row of `read_dense`, all zeros between calls.
    dense: Vec<f32>,
}

impl Sink for Entries {
    #[inline]
    fn set(&mut self, i: usize, v: f32) {
        if v != 0.0 {
            self.index.push(i as u32);
            self.value.push(v);
        }
    }
    #[inline]
    fn add(&mut self, i: usize, v: f32) {
        // a count's repeated adds come one after another: merged here, in the writer's order
        match self.index.last() {
            Some(&last) if last == i as u32 => *self.value.last_mut().unwrap() += v,
            _ => {
                self.index.push(i as u32);
                self.value.push(v);
            }
        }
    }
}

impl Entries {
    pub fn clear(&mut self) {
        self.index.clear();
        self.value.clear();
    }
    pub fn len(&self) -> usize {
        self.index.len()
    }
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
    pub fn index(&self) -> &[u32] {
        &self.index
    }
    pub fn value(&self) -> &[f32] {
        &self.value
    }

    /// Sorts the entries by index (stably, in place: an index's adds are summed in the writer's
    /// order, as the dense row sums them), merges repeated indices and drops zeros.
    pub fn finish(&mut self) {
        let (index, value) = (&mut self.index, &mut self.value);
        if !index.windows(2).all(|w| w[0] < w[1]) {
            // insertion sort: a writer's entries come nearly in order
            for j in 1..index.len() {
                let (i, v) = (index[j], value[j]);
                let mut k = j;
                while k > 0 && index[k - 1] > i {
                    index[k] = index[k - 1];
                    value[k] = value[k - 1];
                    k -= 1;
                }
                index[k] = i;
                value[k] = v;
            }
            let mut k = 0;
            for j in 0..index.len() {
                if k > 0 && index[k - 1] == index[j] {
                    value[k - 1] += value[j];
                } else {
                    index[k] = index[j];
                    value[k] = value[j];
                    k += 1;
                }
            }
            index.truncate(k);
            value.truncate(k);
        }
        if value.contains(&0.0) {
            let mut k = 0;
            for j in 0..index.len() {
                if value[j] != 0.0 {
                    index[k] = index[j];
                    value[k] = value[j];
                    k += 1;
                }
            }
            index.truncate(k);
            value.truncate(k);
        }
    }

    /// The entries of a row of `size` that `write` writes densely (into zeros): written into a
    /// scratch row kept in cache, then read back block by block, skipping blocks of zeros.
    pub fn read_dense(&mut self, size: usize, write: impl FnOnce(&mut [f32])) {
        if self.dense.len() != size {
            self.dense.clear();
            self.dense.resize(size, 0.0);
        }
        write(&mut self.dense);
        const W: usize = 16;
        let mut base = 0;
        for chunk in self.dense.chunks_mut(W) {
            if chunk.iter().fold(0u32, |a, x| a | x.to_bits()) != 0 {
                for (k, x) in chunk.iter_mut().enumerate() {
                    if *x != 0.0 {
                        self.index.push((base + k) as u32);
                        self.value.push(*x);
                    }
                    *x = 0.0;
                }
            }
            base += W;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_the_dense_rows_nonzeros() {
        // writes in no order, repeated adds apart and together, a set to 0, a sum back to 0
        let write = |o: &mut dyn FnMut(bool, usize, f32)| {
            o(true, 40, 2.5);
            o(false, 3, 1.0);
            o(false, 3, 1.0);
            o(true, 0, 0.0);
            o(false, 17, 1.0);
            o(false, 3, 0.5);
            o(false, 9, -1.0);
            o(false, 9, 1.0);
            o(true, 33, -4.0);
        };
        let mut e = Entries::default();
        write(&mut |set, i, v| if set { e.set(i, v) } else { e.add(i, v) });
        e.finish();
        assert_eq!(e.index(), &[3, 17, 33, 40]);
        assert_eq!(e.value(), &[2.5, 1.0, -4.0, 2.5]);

        let mut dense = Entries::default();
        dense.read_dense(41, |d| {
            write(&mut |set, i, v| if set { d.set(i, v) } else { d.add(i, v) })
        });
        assert_eq!(dense.index(), e.index());
        assert_eq!(dense.value(), e.value());
        // the scratch row is zeros again for the next read
        dense.clear();
        dense.read_dense(41, |_| {});
        assert!(dense.is_empty());
    }
}
