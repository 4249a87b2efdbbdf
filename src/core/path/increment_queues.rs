//! A monotone priority queue for keys that are always the last popped key plus one of a few
//! fixed increments: one first-in first-out queue per increment.
//!
//! In A* on a grid of uniform cost with an estimate that is consistent in integers, a child's f
//! is its parent's f (the key just popped) plus the step's cost plus the change in the estimate,
//! and both come from a handful of values: under the octile estimate, a step of cost `c` changes
//! the larger and the smaller of |dx| and |dy| by −1, 0 or 1 each, so the increment is
//! `c + a · ONE + b · (D − ONE)` with `a, b ∈ {−1, 0, 1}` (at most eighteen values, five of them
//! positive on an 8-neighbour grid with √2 diagonals). Since the popped keys never decrease, the
//! keys pushed with one increment arrive in order, so each increment's queue is sorted without
//! being sorted, and the least key is the least of the queues' heads (the idea of Orlin,
//! Madduri, Subramani and Williamson, "A faster algorithm for the single source shortest path
//! problem with few distinct positive lengths", J. Discrete Algorithms 8, 2010, which the
//! Dijkstra maps' step queues use too). An entry is written once and read once, where the radix
//! heap this replaces (Ahuja, Mehlhorn, Orlin and Tarjan 1990) moved each entry between its
//! buckets about twice: A* 12% faster on 8 neighbours, 10% on 4 (BENCHMARKS.md, session 41).
//!
//! Entries equal to the last popped key (increment 0, and the heads that tie when the key moves
//! on) go on a stack and come out last in, first out: of equal-f nodes, the one opened last (the
//! deeper one) is expanded first. A key that is not the last
//! popped one plus a listed increment (an estimate this was not set up for) still comes out in
//! order, from a binary heap beside the queues.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The open list (see the module's documentation).
pub(crate) struct IncrementQueues<T: Copy + Ord> {
    last: u64,
    /// The positive increments, one queue each.
    increments: Vec<u64>,
    queues: Vec<VecDeque<(u64, T)>>,
    /// Bit `j` set: queue `j` is not empty.
    occupied: u32,
    /// Entries whose key is `last`, the latest last.
    level: Vec<T>,
    /// Which queue takes an increment `i`: `slot[(i >> shift) & mask]`, one past the queue's
    /// index (0: none).
    slot: Vec<u8>,
    shift: u32,
    mask: u64,
    /// Keys that are not the last popped key plus a listed increment.
    others: BinaryHeap<Reverse<(u64, T)>>,
    /// How many entries went to `others` since the last reset (tests check it stays 0 in the
    /// searches it was set up for).
    #[cfg(test)]
    pub(crate) unlisted: usize,
}

impl<T: Copy + Ord> Default for IncrementQueues<T> {
    fn default() -> Self {
        Self {
            last: 0,
            increments: Vec::new(),
            queues: Vec::new(),
            occupied: 0,
            level: Vec::new(),
            slot: vec![0],
            shift: 0,
            mask: 0,
            others: BinaryHeap::new(),
            #[cfg(test)]
            unlisted: 0,
        }
    }
}

impl<T: Copy + Ord> IncrementQueues<T> {
    /// Empties the queues (keeping their memory) for a search whose keys go up by `increments`
    /// (any order, repeats and 0 allowed; at most 31 positive ones are given queues) from a
    /// first key `first`, pushed with `value`.
    pub(crate) fn reset(&mut self, increments: &[u64], first: u64, value: T) {
        let mut positive: Vec<u64> = increments.iter().copied().filter(|&i| i > 0).collect();
        positive.sort_unstable();
        positive.dedup();
        positive.truncate(31);
        if positive != self.increments {
            self.increments = positive;
            self.queues = self.increments.iter().map(|_| VecDeque::new()).collect();
            (self.shift, self.mask, self.slot) = perfect_hash(&self.increments);
        }
        for queue in &mut self.queues {
            queue.clear();
        }
        self.occupied = 0;
        self.level.clear();
        self.others.clear();
        #[cfg(test)]
        {
            self.unlisted = 0;
        }
        self.last = first;
        self.level.push(value);
    }

    /// Adds an entry. `key` must be at least the last popped key (debug builds check); a smaller
    /// key is treated as equal to it.
    #[inline(always)]
    pub(crate) fn push(&mut self, key: u64, value: T) {
        debug_assert!(key >= self.last, "increment queues: key {key} below the last popped {}", self.last);
        let increment = key.saturating_sub(self.last);
        if increment == 0 {
            self.level.push(value);
            return;
        }
        let slot = self.slot[((increment >> self.shift) & self.mask) as usize] as usize;
        if slot != 0 && self.increments[slot - 1] == increment {
            self.queues[slot - 1].push_back((key, value));
            self.occupied |= 1 << (slot - 1);
        } else {
            #[cfg(test)]
            {
                self.unlisted += 1;
            }
            self.others.push(Reverse((key, value)));
        }
    }

    /// Takes an entry with the smallest key.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(u64, T)> {
        if let Some(value) = self.level.pop() {
            return Some((self.last, value));
        }
        self.next_level()?;
        self.level.pop().map(|value| (self.last, value))
    }

    /// Moves the key on to the least head, and every entry at it to the level stack (queue by
    /// queue, each in its order, so the last one queued comes out first). `None` when empty.
    #[cold]
    fn next_level(&mut self) -> Option<()> {
        if self.occupied == 0 && self.others.is_empty() {
            return None;
        }
        let mut least = self.others.peek().map_or(u64::MAX, |e| e.0.0);
        let mut occupied = self.occupied;
        while occupied != 0 {
            let j = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            least = least.min(self.queues[j].front().expect("an occupied queue has entries").0);
        }
        self.last = least;
        let mut occupied = self.occupied;
        while occupied != 0 {
            let j = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let queue = &mut self.queues[j];
            while let Some(&(key, value)) = queue.front()
                && key == least
            {
                queue.pop_front();
                self.level.push(value);
            }
            if queue.is_empty() {
                self.occupied &= !(1 << j);
            }
        }
        while let Some(&Reverse((key, value))) = self.others.peek()
            && key == least
        {
            self.others.pop();
            self.level.push(value);
        }
        Some(())
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.level.len() + self.queues.iter().map(VecDeque::len).sum::<usize>() + self.others.len()
    }
}

/// A shift and a mask under which the increments fall in different slots, and the slots (one
/// past each increment's index; 0: none). Tries small tables first.
fn perfect_hash(increments: &[u64]) -> (u32, u64, Vec<u8>) {
    for bits in 5..=12 {
        let mask = (1u64 << bits) - 1;
        for shift in 0..64 {
            let mut slot = vec![0u8; 1 << bits];
            let fits = increments.iter().enumerate().all(|(j, &i)| {
                let s = &mut slot[((i >> shift) & mask) as usize];
                let free = *s == 0;
                *s = j as u8 + 1;
                free
            });
            if fits {
                return (shift, mask, slot);
            }
        }
    }
    // No table found: every key goes to the binary heap (still in order).
    (0, 0, vec![0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    /// Against a sorted list: keys that are the last popped key plus a listed increment (and,
    /// now and then, one that is not) come out in key order.
    #[test]
    fn pops_in_key_order_when_keys_go_up_by_the_increments() {
        let mut rng = Rng::new(3);
        let increments = [0, 7, 10, 17, 20, 1 << 36, (1 << 36) + 3];
        let mut queues = IncrementQueues::default();
        queues.reset(&increments, 1000, 0u32);
        let mut reference: Vec<u64> = vec![1000];
        let mut last = 1000;
        for round in 1..20_000u32 {
            if rng.chance(0.55) || reference.is_empty() {
                let key = if round % 50 == 0 {
                    last + u64::from(rng.below(1000))
                } else {
                    last + increments[rng.below(increments.len() as u32) as usize]
                };
                queues.push(key, round);
                reference.push(key);
            } else {
                reference.sort_unstable_by(|a, b| b.cmp(a));
                let want = reference.pop().unwrap();
                let (got, _) = queues.pop().unwrap();
                assert_eq!(got, want);
                last = got;
            }
            assert_eq!(queues.len(), reference.len());
        }
        while let Some((key, _)) = queues.pop() {
            reference.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(Some(key), reference.pop());
        }
        assert!(reference.is_empty());
    }

    /// Equal keys come out last in, first out, those pushed at the key and those that reach it.
    #[test]
    fn equal_keys_are_last_in_first_out() {
        let mut queues = IncrementQueues::default();
        queues.reset(&[0, 5], 10, 'a');
        assert_eq!(queues.pop(), Some((10, 'a')));
        queues.push(15, 'b');
        queues.push(15, 'c');
        queues.push(10, 'd');
        assert_eq!(queues.pop(), Some((10, 'd')));
        assert_eq!(queues.pop(), Some((15, 'c')));
        queues.push(15, 'e');
        assert_eq!(queues.pop(), Some((15, 'e')));
        assert_eq!(queues.pop(), Some((15, 'b')));
        assert_eq!(queues.pop(), None);
    }

    /// Every set of up to eighteen increments an A* search gives finds a table.
    #[test]
    fn the_increments_of_a_search_find_a_table() {
        let one = 1u64 << 36;
        for diagonal in [(std::f64::consts::SQRT_2 * one as f64).round() as u64, one, one + one / 16] {
            let mut increments = Vec::new();
            for c in [one, diagonal] {
                for a in [-1i128, 0, 1] {
                    for b in [-1i128, 0, 1] {
                        let v = i128::from(c) + a * i128::from(one) + b * i128::from(diagonal - one);
                        if v > 0 {
                            increments.push(v as u64);
                        }
                    }
                }
            }
            increments.sort_unstable();
            increments.dedup();
            let (shift, mask, slot) = perfect_hash(&increments);
            assert!(mask != 0, "no table for {increments:?}");
            for (j, &i) in increments.iter().enumerate() {
                assert_eq!(slot[((i >> shift) & mask) as usize] as usize, j + 1);
            }
        }
    }
}
