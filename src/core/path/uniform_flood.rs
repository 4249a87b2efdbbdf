//! Dijkstra maps on grids where one cost lies on every passable cell (the usual roguelike map:
//! floor or wall), without a heap.
//!
//! A step then costs one of two amounts, `c` straight and `c · diagonal length` diagonally, and
//! the cells can be met in order of value with first-in first-out queues alone:
//! - [`breadth_first`]: when both amounts are equal (4 moves, or king moves of length 1) and the
//!   sources start level, the map is a breadth-first search: a cell is final when first reached,
//!   and one queue holds the cells in layer order (Moore 1959).
//! - [`step_queues`]: otherwise, one queue a step length. Cells leave in order of value, so the
//!   entries a step length adds to its queue (the leaving value plus that length) arrive in order
//!   too: each queue is sorted without being sorted, and the next cell to leave is the least of
//!   the queues' heads (the idea behind Orlin, Madduri, Subramani and Williamson, "A faster
//!   algorithm for the single source shortest path problem with few distinct positive lengths",
//!   J. Discrete Algorithms 8, 2010).
//!
//! Both work on a copy of the values with a one-cell border all round, in which walls and the
//! border hold −∞: a neighbour is then a fixed offset away, with no bounds test, no wrap between
//! rows and no passability test (no step lowers −∞), and the corner rule for a diagonal reads the
//! two orthogonal neighbours the straight steps have just read. Every neighbour is visited
//! without a branch that depends on the map: a queue's free end is written for every direction
//! and advances only for the cells that were lowered.
//!
//! The values are the sums the heap relaxation makes (the leaving value plus `c`, or plus
//! `c · diagonal length`), and the relaxation has one fixed point, so they are the same to the
//! bit (`dijkstra_map`'s tests compare them on random grids).

use super::search::NEIGHBOURS;
use super::{CostGrid, DiagonalPolicy, MoveRules, Moves};

/// Which diagonal steps a flood takes (a const parameter, so that each rule gets its own loop).
const NO_DIAGONALS: u8 = 0;
const ALWAYS: u8 = 1;
const NO_CORNER_CUT: u8 = 2;
const ONE_BLOCKED: u8 = 3;

/// Which flood filled a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flood {
    BreadthFirst,
    StepQueues,
}

/// The map for `seeds`, each `(grid index, starting value)`: passable cells, each given once, at
/// finite values; by one of this module's floods, with which one. `None` when none applies:
/// costs that differ between cells, a step that costs 0, or a grid too big for 32-bit queue
/// entries.
pub(super) fn flood(grid: &CostGrid, rules: &MoveRules, seeds: &[(usize, f64)]) -> Option<(Vec<f64>, Flood)> {
    let cost = f64::from(grid.uniform_cost()?);
    let steps = [cost, cost * rules.diagonal_length.value()];
    let (w, h) = (grid.width() as u64, grid.height() as u64);
    let fits = (w + 2) * (h + 2) < 1 << 32;
    if !(cost > 0.0 && steps[1] > 0.0 && steps[1].is_finite() && fits) {
        return None;
    }
    let policy = match (rules.moves, rules.diagonal) {
        (Moves::Four, _) | (Moves::Eight, DiagonalPolicy::Never) => NO_DIAGONALS,
        (Moves::Eight, DiagonalPolicy::Always) => ALWAYS,
        (Moves::Eight, DiagonalPolicy::NoCornerCut) => NO_CORNER_CUT,
        (Moves::Eight, DiagonalPolicy::OneBlocked) => ONE_BLOCKED,
    };
    let mut padded = Padded::new(grid);
    let starts: Vec<u32> = seeds
        .iter()
        .map(|&(i, value)| {
            let p = padded.index_of(i);
            padded.cells[p as usize] = value;
            p
        })
        .collect();
    let start = seeds.first().map_or(0.0, |s| s.1);
    let level = seeds.iter().all(|s| s.1 == start);
    let kind = if level && (policy == NO_DIAGONALS || steps[1] == steps[0]) {
        let reachable = grid.passable_bits().count();
        match policy {
            NO_DIAGONALS => breadth_first::<NO_DIAGONALS>(&mut padded, &starts, reachable, start, cost),
            ALWAYS => breadth_first::<ALWAYS>(&mut padded, &starts, reachable, start, cost),
            NO_CORNER_CUT => breadth_first::<NO_CORNER_CUT>(&mut padded, &starts, reachable, start, cost),
            _ => breadth_first::<ONE_BLOCKED>(&mut padded, &starts, reachable, start, cost),
        }
        Flood::BreadthFirst
    } else {
        match policy {
            NO_DIAGONALS => step_queues::<NO_DIAGONALS>(&mut padded, starts, steps),
            ALWAYS => step_queues::<ALWAYS>(&mut padded, starts, steps),
            NO_CORNER_CUT => step_queues::<NO_CORNER_CUT>(&mut padded, starts, steps),
            _ => step_queues::<ONE_BLOCKED>(&mut padded, starts, steps),
        }
        Flood::StepQueues
    };
    Some((padded.into_values(), kind))
}

/// The values on the grid with a border: row `y + 1`, column `x + 1` hold cell `(x, y)`; walls
/// and the border hold −∞, the other cells +∞ until reached.
struct Padded {
    width: usize,
    height: usize,
    stride: usize,
    cells: Vec<f64>,
}

impl Padded {
    fn new(grid: &CostGrid) -> Self {
        let (width, height) = (grid.width() as usize, grid.height() as usize);
        let stride = width + 2;
        let mut cells = vec![f64::NEG_INFINITY; stride * (height + 2)];
        let bits = grid.passable_bits();
        for (y, padded) in cells.chunks_exact_mut(stride).skip(1).take(height).enumerate() {
            // The bit row has the same border: bit b is padded column b. +∞ and −∞ differ in
            // the sign bit alone, so a cell is −∞ with its sign bit cleared when passable.
            for (columns, &word) in padded.chunks_mut(64).zip(bits.row(y)) {
                for (k, cell) in columns.iter_mut().enumerate() {
                    *cell = f64::from_bits(f64::NEG_INFINITY.to_bits() ^ (word >> k & 1) << 63);
                }
            }
        }
        Self { width, height, stride, cells }
    }

    /// The padded index of grid index `i`.
    fn index_of(&self, i: usize) -> u32 {
        ((i / self.width + 1) * self.stride + i % self.width + 1) as u32
    }

    /// The offsets of the neighbours, in the order of [`NEIGHBOURS`] (a negative one wraps).
    fn offsets(&self) -> [u32; 8] {
        NEIGHBOURS.map(|(dx, dy)| (i64::from(dy) * self.stride as i64 + i64::from(dx)) as u32)
    }

    /// The values without the border, in the same allocation (each row moves towards the start,
    /// never past a row still to move); walls +∞, as unreached cells.
    fn into_values(self) -> Vec<f64> {
        let Self { width, height, stride, mut cells } = self;
        for y in 0..height {
            let (to, from) = cells.split_at_mut((y + 1) * stride + 1);
            for (value, &cell) in to[y * width..(y + 1) * width].iter_mut().zip(&from[..width]) {
                *value = if cell == f64::NEG_INFINITY { f64::INFINITY } else { cell };
            }
        }
        cells.truncate(width * height);
        if cells.capacity() > 2 * cells.len() {
            cells.shrink_to_fit();
        }
        cells
    }
}

/// Whether the rule `POLICY` allows a diagonal step beside orthogonal neighbours holding `a`
/// and `b` (−∞: a wall; a step's value changes +∞ to a finite value, never a wall's).
#[inline(always)]
fn diagonal_open<const POLICY: u8>(a: f64, b: f64) -> bool {
    match POLICY {
        ALWAYS => true,
        NO_CORNER_CUT => a != f64::NEG_INFINITY && b != f64::NEG_INFINITY,
        ONE_BLOCKED => a != f64::NEG_INFINITY || b != f64::NEG_INFINITY,
        _ => false,
    }
}

/// The two orthogonal neighbours beside each diagonal of [`NEIGHBOURS`] (SE: E and S, …).
const BESIDE: [(usize, usize); 4] = [(0, 1), (2, 1), (2, 3), (0, 3)];

/// Breadth-first search from `seeds`, all starting at `start`, every step costing `cost`, on a
/// grid of `reachable` passable cells. A cell's value is set when it is first reached (a cell
/// still at +∞), to the value of the layer after the one being emptied, so each cell is queued
/// once.
fn breadth_first<const POLICY: u8>(padded: &mut Padded, seeds: &[u32], reachable: usize, start: f64, cost: f64) {
    let offsets = padded.offsets();
    let cells = &mut padded.cells[..];
    // Each of the `reachable` cells is queued once; room past the end for the writes that do
    // not count.
    let mut queue = vec![0u32; reachable + seeds.len() + 8];
    queue[..seeds.len()].copy_from_slice(seeds);
    let (mut head, mut tail) = (0, seeds.len());
    let (mut next, mut layer_end) = (start + cost, tail);
    while head < tail {
        if head == layer_end {
            next += cost;
            layer_end = tail;
        }
        let cell = queue[head];
        head += 1;
        let mut beside = [0.0; 4];
        for (d, &offset) in offsets.iter().enumerate().take(if POLICY == NO_DIAGONALS { 4 } else { 8 }) {
            let neighbour = cell.wrapping_add(offset);
            let old = cells[neighbour as usize];
            let reached = if d < 4 {
                beside[d] = old;
                old == f64::INFINITY
            } else {
                let (a, b) = BESIDE[d - 4];
                old == f64::INFINITY && diagonal_open::<POLICY>(beside[a], beside[b])
            };
            cells[neighbour as usize] = if reached { next } else { old };
            queue[tail] = neighbour;
            tail += usize::from(reached);
        }
    }
}

/// Dijkstra's algorithm with one queue a step length (see the module's documentation), from
/// `seeds` at any finite starting values. The queues are rings of (value when queued, cell).
/// A cell queued again after its value dropped leaves once for each entry, but from the second
/// time on finds every neighbour as cheap as it can make it, so it changes nothing.
fn step_queues<const POLICY: u8>(padded: &mut Padded, mut seeds: Vec<u32>, steps: [f64; 2]) {
    let offsets = padded.offsets();
    let stride = padded.stride;
    let cells = &mut padded.cells[..];
    // The sources, least last.
    seeds.sort_by(|&a, &b| cells[b as usize].total_cmp(&cells[a as usize]));
    // Heads and tails only grow; their low bits are the slots. Named locals, not arrays indexed
    // by a variable, so that they stay in registers.
    let (mut straight_ring, mut diagonal_ring) = (vec![(0.0, 0u32); 1024], vec![(0.0, 0u32); 1024]);
    let (mut straight_head, mut straight_tail, mut diagonal_head, mut diagonal_tail) = (0, 0, 0, 0);
    loop {
        if straight_tail - straight_head + 4 > straight_ring.len() {
            grow_ring(&mut straight_ring, straight_head, straight_tail);
        }
        if diagonal_tail - diagonal_head + 4 > diagonal_ring.len() {
            grow_ring(&mut diagonal_ring, diagonal_head, diagonal_tail);
        }
        let (straight_mask, diagonal_mask) = (straight_ring.len() - 1, diagonal_ring.len() - 1);
        let (mut straight, straight_cell) = straight_ring[straight_head & straight_mask];
        let (mut diagonal, diagonal_cell) = diagonal_ring[diagonal_head & diagonal_mask];
        if straight_head == straight_tail {
            straight = f64::INFINITY;
        }
        if diagonal_head == diagonal_tail {
            diagonal = f64::INFINITY;
        }
        let least = straight.min(diagonal);
        let cell = match seeds.last() {
            Some(&seed) if cells[seed as usize] <= least => {
                seeds.pop();
                seed
            }
            _ if least == f64::INFINITY => break,
            _ => {
                let take_diagonal = diagonal < straight;
                diagonal_head += usize::from(take_diagonal);
                straight_head += usize::from(!take_diagonal);
                if take_diagonal { diagonal_cell } else { straight_cell }
            }
        };
        // The 3×3 block around the cell, read and written back a row at a time.
        let p = cell as usize;
        let value = cells[p];
        let corners = [p - stride - 1, p - 1, p + stride - 1];
        let mut block: [[f64; 3]; 3] = corners.map(|c| cells[c..c + 3].try_into().unwrap());
        let beside = [block[1][2], block[2][1], block[1][0], block[0][1]];
        for (d, &offset) in offsets.iter().enumerate().take(4) {
            let (row, column) = block_position(d);
            let old = block[row][column];
            let new = value + steps[0];
            let lower = new < old;
            block[row][column] = if lower { new } else { old };
            straight_ring[straight_tail & straight_mask] = (new, cell.wrapping_add(offset));
            straight_tail += usize::from(lower);
        }
        if POLICY != NO_DIAGONALS {
            for (d, &offset) in offsets.iter().enumerate().skip(4) {
                let (row, column) = block_position(d);
                let old = block[row][column];
                let new = value + steps[1];
                let (a, b) = BESIDE[d - 4];
                let lower = new < old && diagonal_open::<POLICY>(beside[a], beside[b]);
                block[row][column] = if lower { new } else { old };
                diagonal_ring[diagonal_tail & diagonal_mask] = (new, cell.wrapping_add(offset));
                diagonal_tail += usize::from(lower);
            }
        }
        for (c, row) in corners.into_iter().zip(block) {
            cells[c..c + 3].copy_from_slice(&row);
        }
    }
}

/// Where `NEIGHBOURS[d]` lies in the 3×3 block around a cell: (row, column).
#[inline(always)]
fn block_position(d: usize) -> (usize, usize) {
    let (dx, dy) = NEIGHBOURS[d];
    ((dy + 1) as usize, (dx + 1) as usize)
}

/// Doubles a ring (its length a power of two) holding the entries from `head` to `tail`, each
/// kept at the slot its counter's low bits give.
#[cold]
fn grow_ring<T: Copy + Default>(ring: &mut Vec<T>, head: usize, tail: usize) {
    let mut grown = vec![T::default(); 2 * ring.len()];
    let (old, new) = (ring.len() - 1, grown.len() - 1);
    for k in head..tail {
        grown[k & new] = ring[k & old];
    }
    *ring = grown;
}
