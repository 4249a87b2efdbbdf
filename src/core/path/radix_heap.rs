//! A radix heap: a monotone priority queue on `u64` keys.
//!
//! Source: Ahuja, Mehlhorn, Orlin & Tarjan, "Faster algorithms for the shortest path problem"
//! (J. ACM 37(2), 1990), in the one-bucket-per-bit form. It requires every pushed key to be at
//! least the last popped key — true of Dijkstra, and of A* with a consistent heuristic computed
//! exactly (integers), where f never decreases along the search. An entry goes into the bucket
//! of the highest bit in which its key differs from the last popped key; popping empties the
//! lowest non-empty bucket into lower ones around its minimum. A push is a leading-zero count and
//! a `Vec` push; each entry moves down at most 64 times in all, and in a grid search (keys close
//! together) once or twice.
//!
//! Entries with the same key as the last popped one sit in bucket 0 and come out last in, first
//! out: of equal-f nodes of an A* search, the one opened last (the deeper one) is expanded first.

/// A min-queue of `(key, value)` for keys that never go below the last popped key.
pub(crate) struct RadixHeap<T: Copy> {
    last: u64,
    len: usize,
    /// Bit `b` set: bucket `b` is not empty.
    occupied: u64,
    /// Bucket 63 also holds the keys that differ from the last popped in bit 63 (65 buckets
    /// otherwise): they are all larger than the lower buckets' keys, which is all a bucket needs.
    buckets: [Vec<(u64, T)>; 64],
}

impl<T: Copy> Default for RadixHeap<T> {
    fn default() -> Self {
        Self { last: 0, len: 0, occupied: 0, buckets: std::array::from_fn(|_| Vec::new()) }
    }
}

impl<T: Copy> RadixHeap<T> {
    /// Empties the heap (keeping its memory); the next keys may start anywhere.
    pub(crate) fn clear(&mut self) {
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        self.last = 0;
        self.len = 0;
        self.occupied = 0;
    }

    #[inline(always)]
    fn bucket_of(key: u64, last: u64) -> usize {
        ((64 - (key ^ last).leading_zeros()) as usize).min(63)
    }

    /// Adds an entry. `key` must be at least the last popped key (debug builds check); a smaller
    /// key is treated as equal to it.
    #[inline(always)]
    pub(crate) fn push(&mut self, key: u64, value: T) {
        debug_assert!(key >= self.last, "radix heap: key {key} below the last popped {}", self.last);
        let key = key.max(self.last);
        let b = Self::bucket_of(key, self.last);
        self.buckets[b].push((key, value));
        self.occupied |= 1 << b;
        self.len += 1;
    }

    /// Takes an entry with the smallest key.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, T)> {
        if self.occupied & 1 == 0 {
            if self.occupied == 0 {
                return None;
            }
            self.refill();
        }
        let entry = self.buckets[0].pop();
        if self.buckets[0].is_empty() {
            self.occupied &= !1;
        }
        self.len -= 1;
        entry
    }

    /// Moves the lowest non-empty bucket's entries down around its smallest key, which becomes
    /// the last popped key: at least that one lands in bucket 0.
    #[cold]
    fn refill(&mut self) {
        let b = self.occupied.trailing_zeros() as usize;
        let mut moving = std::mem::take(&mut self.buckets[b]);
        self.last = moving.iter().map(|e| e.0).min().expect("an occupied bucket has entries");
        self.occupied &= !(1 << b);
        for &(key, value) in &moving {
            let to = Self::bucket_of(key, self.last);
            self.buckets[to].push((key, value));
            self.occupied |= 1 << to;
        }
        moving.clear();
        // Keep the allocation for the next time this bucket fills.
        self.buckets[b] = moving;
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    /// Against a sorted list: a monotone sequence of pushes and pops gives the keys in order.
    #[test]
    fn pops_in_key_order_under_monotone_use() {
        let mut rng = Rng::new(11);
        let mut heap = RadixHeap::default();
        let mut reference: Vec<u64> = Vec::new();
        let mut last = 0u64;
        for round in 0..20_000 {
            if rng.chance(0.55) || reference.is_empty() {
                let key = last + u64::from(rng.below(1000)) * if round % 7 == 0 { 1 << 30 } else { 1 };
                heap.push(key, round);
                reference.push(key);
            } else {
                reference.sort_unstable_by(|a, b| b.cmp(a));
                let want = reference.pop().unwrap();
                let (got, _) = heap.pop().unwrap();
                assert_eq!(got, want);
                last = got;
            }
            assert_eq!(heap.len(), reference.len());
        }
        heap.clear();
        assert!(heap.pop().is_none());
    }

    /// Equal keys come out last in, first out.
    #[test]
    fn equal_keys_are_last_in_first_out() {
        let mut heap = RadixHeap::default();
        heap.push(5, 'a');
        let _ = heap.pop();
        heap.push(5, 'b');
        heap.push(5, 'c');
        heap.push(6, 'd');
        assert_eq!(heap.pop(), Some((5, 'c')));
        assert_eq!(heap.pop(), Some((5, 'b')));
        assert_eq!(heap.pop(), Some((6, 'd')));
        assert_eq!(heap.pop(), None);
    }
}
