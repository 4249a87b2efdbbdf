//! The entry of a best-first search's open list, shared by A* and its kin, JPS and the
//! Dijkstra maps, so that none of them imports another to get it.

use std::cmp::Ordering;

/// An open-list entry of the best-first searches (A* and friends, JPS, Dijkstra maps): a cell,
/// its priority and its cost so far. `BinaryHeap` is a max-heap, so the order is reversed: the
/// top is the smallest priority, then the largest `g` (the deeper node).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenEntry {
    pub priority: f64,
    pub g: f64,
    pub index: u32,
}

impl PartialEq for OpenEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for OpenEntry {}
impl PartialOrd for OpenEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OpenEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.priority.total_cmp(&self.priority).then_with(|| self.g.total_cmp(&other.g))
    }
}
