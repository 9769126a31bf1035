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
    /// Buffers whose first `len` places hold the entries; past them, room for the next.
    index: Vec<u32>,
    value: Vec<f32>,
    len: usize,
    /// The least index that keeps the entries ascending, and whether one came below it or an
    /// add may have summed to 0: else `finish` has nothing to do.
    next: u32,
    disordered: bool,
    /// The dense row of `read_dense`, all zeros between calls.
    dense: Vec<f32>,
}

impl Sink for Entries {
    #[inline]
    fn set(&mut self, i: usize, v: f32) {
        self.room();
        // written always, kept when nonzero: no branch on the value
        self.index[self.len] = i as u32;
        self.value[self.len] = v;
        self.len += (v != 0.0) as usize;
        self.disordered |= (i as u32) < self.next;
        self.next = i as u32 + 1;
    }
    #[inline]
    fn add(&mut self, i: usize, v: f32) {
        self.disordered = true;
        // a count's repeated adds come one after another: merged here, in the writer's order
        if self.len > 0 && self.index[self.len - 1] == i as u32 {
            self.value[self.len - 1] += v;
        } else {
            self.room();
            self.index[self.len] = i as u32;
            self.value[self.len] = v;
            self.len += 1;
        }
    }
}

impl Entries {
    /// Room for one more entry.
    #[inline]
    fn room(&mut self) {
        if self.len == self.index.len() {
            let more = self.index.len().max(32);
            self.index.resize(self.len + more, 0);
            self.value.resize(self.len + more, 0.0);
        }
    }
    #[inline]
    fn push(&mut self, i: usize, v: f32) {
        self.room();
        self.index[self.len] = i as u32;
        self.value[self.len] = v;
        self.len += 1;
        self.disordered |= (i as u32) < self.next;
        self.next = i as u32 + 1;
    }
    pub fn clear(&mut self) {
        self.len = 0;
        self.next = 0;
        self.disordered = false;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn index(&self) -> &[u32] {
        &self.index[..self.len]
    }
    pub fn value(&self) -> &[f32] {
        &self.value[..self.len]
    }

    /// Sorts the entries by index (stably, in place: an index's adds are summed in the writer's
    /// order, as the dense row sums them), merges repeated indices and drops zeros.
    pub fn finish(&mut self) {
        if !self.disordered {
            return;
        }
        self.disordered = false;
        let n = self.len;
        let (index, value) = (&mut self.index[..n], &mut self.value[..n]);
        let mut k = n;
        if !index.windows(2).all(|w| w[0] < w[1]) {
            // insertion sort: a writer's entries come nearly in order
            for j in 1..n {
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
            k = 0;
            for j in 0..n {
                if k > 0 && index[k - 1] == index[j] {
                    value[k - 1] += value[j];
                } else {
                    index[k] = index[j];
                    value[k] = value[j];
                    k += 1;
                }
            }
        }
        if value[..k].contains(&0.0) {
            let mut m = 0;
            for j in 0..k {
                if value[j] != 0.0 {
                    index[m] = index[j];
                    value[m] = value[j];
                    m += 1;
                }
            }
            k = m;
        }
        self.len = k;
    }

    /// The entries of a row of `size` that `write` writes densely (into zeros): written into a
    /// scratch row kept in cache, then read back 16 entries at a time, by a mask of the nonzero
    /// ones (branch-free, so that scattered entries cost no mispredicted branches).
    pub fn read_dense(&mut self, size: usize, write: impl FnOnce(&mut [f32])) {
        const W: usize = 16;
        let padded = size.div_ceil(W) * W;
        if self.dense.len() != padded {
            self.dense.clear();
            self.dense.resize(padded, 0.0);
        }
        let mut dense = std::mem::take(&mut self.dense);
        write(&mut dense[..size]);
        for (c, chunk) in dense.chunks_exact_mut(W).enumerate() {
            let mut nonzero = 0u32;
            for (k, &x) in chunk.iter().enumerate() {
                nonzero |= ((x != 0.0) as u32) << k;
            }
            if nonzero != 0 {
                while nonzero != 0 {
                    let k = nonzero.trailing_zeros() as usize;
                    let v = chunk[k];
                    self.push(c * W + k, v);
                    nonzero &= nonzero - 1;
                }
                chunk.fill(0.0);
            }
        }
        self.dense = dense;
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
