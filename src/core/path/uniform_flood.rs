//! Dijkstra maps on grids where one cost lies on every passable cell (the usual roguelike map:
//! floor or wall), without a heap.
//!
//! A step then costs one of two amounts, `c` straight and `c · diagonal length` diagonally:
//! - [`breadth_first`]: when both amounts are equal (4 moves, or king moves of length 1) and the
//!   sources start level, the map is a breadth-first search: a cell is final when first reached,
//!   and one queue holds the cells in layer order (Moore 1959).
//! - [`sweeps`]: otherwise, three sweeps over the rows (up, down, up), each row lowered from the
//!   row before it and then along itself, find the values of most cells at a few nanoseconds a
//!   cell with no queue at all (the raster scans of distance transforms, Rosenfeld and Pfaltz,
//!   "Sequential operations in digital picture processing", J. ACM 13, 1966, here repeated only
//!   over the rows the values reach). The last sweep checks which cells can still lower a
//!   neighbour, and [`step_queues`] finishes from them: Dijkstra's algorithm with one queue a
//!   step length. Cells leave in order of value, so the entries a step length adds to its queue
//!   (the leaving value plus that length) arrive in order too: each queue is sorted without
//!   being sorted, and the next cell to leave is the least of the queues' heads (the idea behind
//!   Orlin, Madduri, Subramani and Williamson, "A faster algorithm for the single source
//!   shortest path problem with few distinct positive lengths", J. Discrete Algorithms 8, 2010).
//!
//! All work on a copy of the values with a one-cell border all round, in which walls and the
//! border hold [`WALL`], a NaN: a neighbour is then a fixed offset away, with no bounds test, no
//! wrap between rows and no passability test (no comparison with a NaN is true, so no step lowers
//! a wall, and a wall's sum, NaN too, lowers nothing past it along a row), and the corner rule
//! for a diagonal reads the two orthogonal neighbours the straight steps have just read. Every neighbour is visited
//! without a branch that depends on the map: a queue's free end is written for every direction
//! and advances only for the cells that were lowered, and a sweep selects instead of branching.
//!
//! The values are the sums the heap relaxation makes (a neighbour's value plus `c`, or plus
//! `c · diagonal length`), and the relaxation has one fixed point, so they are the same to the
//! bit (`dijkstra_map`'s tests compare them on random grids and every small wall pattern; this
//! module's, the sweeps, as compiled for each instruction set, against the queues alone).

use super::neighbourhood::NEIGHBOURS;
use super::{CostGrid, DiagonalPolicy, MoveRules, Moves};

/// What walls and the border hold in the padded values (see the module's documentation): the
/// quiet NaN that differs from +∞ (an unreached floor) in one bit, the top one of the mantissa
/// (spelt out: `f64::NAN`'s bits are not promised).
const WALL: f64 = f64::from_bits(0x7ff8_0000_0000_0000);
const _: () = assert!((WALL.to_bits() ^ f64::INFINITY.to_bits()).count_ones() == 1);

/// Whether a padded value is a floor's (reached or not), not a wall's.
#[inline(always)]
fn open(value: f64) -> bool {
    // One comparison (of the value with itself), which the loops vectorise.
    !value.is_nan()
}

/// Which diagonal steps a flood takes (a const parameter, so that each rule gets its own loop).
const NO_DIAGONALS: u8 = 0;
const ALWAYS: u8 = 1;
const NO_CORNER_CUT: u8 = 2;
const ONE_BLOCKED: u8 = 3;

/// Which flood filled a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flood {
    BreadthFirst,
    Sweeps,
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
    let (mut padded, starts) = Padded::with_seeds(grid, seeds);
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
            NO_DIAGONALS => sweeps::<NO_DIAGONALS>(&mut padded, &starts, steps),
            ALWAYS => sweeps::<ALWAYS>(&mut padded, &starts, steps),
            NO_CORNER_CUT => sweeps::<NO_CORNER_CUT>(&mut padded, &starts, steps),
            _ => sweeps::<ONE_BLOCKED>(&mut padded, &starts, steps),
        }
        Flood::Sweeps
    };
    Some((padded.into_values(), kind))
}

/// The values on the grid with a border: row `y + 1`, column `x + 1` hold cell `(x, y)`; walls
/// and the border hold [`WALL`], the other cells +∞ until reached.
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
        let mut cells = vec![WALL; stride * (height + 2)];
        let bits = grid.passable_bits();
        // +∞ and the wall's NaN differ in the top bit of the mantissa alone.
        let shift = (WALL.to_bits() ^ f64::INFINITY.to_bits()).trailing_zeros();
        for (y, padded) in cells.chunks_exact_mut(stride).skip(1).take(height).enumerate() {
            // The bit row has the same border: bit b is padded column b. A cell is the wall with
            // that bit cleared when passable.
            for (columns, &word) in padded.chunks_mut(64).zip(bits.row(y)) {
                for (k, cell) in columns.iter_mut().enumerate() {
                    *cell = f64::from_bits(WALL.to_bits() ^ (word >> k & 1) << shift);
                }
            }
        }
        Self { width, height, stride, cells }
    }

    /// The padded values with `seeds` (grid index, value) set, and the seeds' padded indices.
    fn with_seeds(grid: &CostGrid, seeds: &[(usize, f64)]) -> (Self, Vec<u32>) {
        let mut padded = Self::new(grid);
        let starts = seeds
            .iter()
            .map(|&(i, value)| {
                let p = padded.index_of(i);
                padded.cells[p as usize] = value;
                p
            })
            .collect();
        (padded, starts)
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
                *value = if open(cell) { cell } else { f64::INFINITY };
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
/// and `b` ([`WALL`]: a wall; a step's value changes +∞ to a finite value, never a wall's).
#[inline(always)]
fn diagonal_open<const POLICY: u8>(a: f64, b: f64) -> bool {
    // `&&` and `||`, not `corner_open`: through the queues' loop, the 8-neighbour flood measured
    // 6–8% slower with it.
    match POLICY {
        ALWAYS => true,
        NO_CORNER_CUT => open(a) && open(b),
        ONE_BLOCKED => open(a) || open(b),
        _ => false,
    }
}

/// [`diagonal_open`] on the orthogonal neighbours' passability, with `&` and `|`, so that the
/// sweeps' loops stay free of branches and are vectorised.
#[inline(always)]
fn corner_open<const POLICY: u8>(a: bool, b: bool) -> bool {
    match POLICY {
        ALWAYS => true,
        NO_CORNER_CUT => a & b,
        ONE_BLOCKED => a | b,
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
/// `seeds` at any finite starting values, every other cell as it stands (+∞, or a value some
/// walk reaches, as the sweeps leave them). The queues are rings of (value when queued, cell).
/// A cell queued again after its value dropped leaves once for each entry, but from the second
/// time on finds every neighbour as cheap as it can make it, so it changes nothing.
fn step_queues<const POLICY: u8>(padded: &mut Padded, mut seeds: Vec<u32>, steps: [f64; 2]) {
    let offsets = padded.offsets();
    let stride = padded.stride;
    let cells = &mut padded.cells[..];
    // The sources, least last.
    seeds.sort_unstable_by(|&a, &b| cells[b as usize].total_cmp(&cells[a as usize]));
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

/// Dijkstra's values by sweeps over the rows, then the step queues from the cells the sweeps
/// leave able to lower a neighbour.
///
/// A sweep takes the rows in order, each row lowered first by the steps from the row before it
/// in the sweep (straight and both diagonals, under `POLICY`), then by the straight steps along
/// itself, left to right and right to left. One sweep down finds every walk that never steps
/// up; the three sweeps (up from the lowest source, down, up) find every walk made of a stretch
/// up, a stretch down and a stretch up (any of them empty), which on an open or noisy map is the
/// best walk to most cells. The last sweep checks each row's steps into the row it has just
/// left, and the cells that could still lower a neighbour there start [`step_queues`].
///
/// Exact, to the bit: every write is the least of a cell's value and a neighbour's value plus
/// a step, the same sums the heap relaxation makes, so every value stays the value of some
/// walk. When the sweeps end, a step can lower a cell only from a cell the last sweep checked
/// (a row's own steps and those from the row before it were taken after that row last changed),
/// and Dijkstra's algorithm from those cells, with every other value as it stands, ends with no
/// step able to lower any cell: the one fixed point.
///
/// The sweeps cover only the rows the values have reached: a sweep stops at the first row
/// beyond them that it does not reach (the queues take any cell a later turn reaches).
fn sweeps<const POLICY: u8>(padded: &mut Padded, seeds: &[u32], steps: [f64; 2]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx512() {
        // SAFETY: the processor has the features `sweeps_avx512` is compiled for.
        unsafe { sweeps_avx512::<POLICY>(padded, seeds, steps) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, the one feature `sweeps_avx2` is compiled for.
        unsafe { sweeps_avx2::<POLICY>(padded, seeds, steps) };
        return;
    }
    sweeps_portable::<POLICY>(padded, seeds, steps);
}

/// [`sweeps_portable`] compiled for AVX2: four values an instruction in the steps between rows
/// and the checks, instead of two (about 20% less time for a whole map, measured on 1000²), and
/// a row's own steps taken sixteen stretches at once in the lanes of vectors ([`scan`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn sweeps_avx2<const POLICY: u8>(padded: &mut Padded, seeds: &[u32], steps: [f64; 2]) {
    sweeps_with::<POLICY, true>(padded, seeds, steps);
}

/// [`sweeps_avx2`] compiled for AVX-512 too: the steps between rows and the checks eight values
/// an instruction (the flood on 1000² 5% faster in criterion, on 256² unchanged); a row's own
/// steps as in [`sweeps_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn sweeps_avx512<const POLICY: u8>(padded: &mut Padded, seeds: &[u32], steps: [f64; 2]) {
    sweeps_with::<POLICY, true>(padded, seeds, steps);
}

/// Whether the processor has what [`sweeps_avx512`] is compiled for.
#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
}

#[inline(always)]
fn sweeps_portable<const POLICY: u8>(padded: &mut Padded, seeds: &[u32], steps: [f64; 2]) {
    sweeps_with::<POLICY, false>(padded, seeds, steps);
}

/// The sweeps then the queues; `AVX2`: only ever instantiated inside [`sweeps_avx2`] and
/// [`sweeps_avx512`].
#[inline(always)]
fn sweeps_with<const POLICY: u8, const AVX2: bool>(padded: &mut Padded, seeds: &[u32], steps: [f64; 2]) {
    let Some(mut sweep) = Sweep::new(seeds, padded.stride) else {
        return;
    };
    sweep.up_down_up::<POLICY, AVX2>(padded, steps);
    if !sweep.to_queue.is_empty() {
        step_queues::<POLICY>(padded, sweep.to_queue, steps);
    }
}

/// The state of [`sweeps`]: the rows the values have reached, and the scratch rows.
struct Sweep {
    /// The first and last padded rows that may hold a finite value; every other row holds
    /// none.
    band: (usize, usize),
    /// A row lowered by the steps from the row before it, before its own steps.
    relaxed: Vec<f64>,
    /// For each cell of a checked row, 1 when a step from it lowers a cell of the row before.
    checked: Vec<u8>,
    /// The cells found by the checks, as padded indices.
    to_queue: Vec<u32>,
}

impl Sweep {
    /// Before the sweeps from `seeds` (padded indices on rows `stride` long); `None` without
    /// seeds.
    fn new(seeds: &[u32], stride: usize) -> Option<Self> {
        let rows = seeds.iter().map(|&s| s as usize / stride);
        let band = (rows.clone().min()?, rows.max()?);
        Some(Self { band, relaxed: vec![0.0; stride], checked: vec![0; stride], to_queue: Vec::new() })
    }

    /// The three sweeps, leaving in `to_queue` the cells that can still lower a neighbour.
    #[inline(always)]
    fn up_down_up<const POLICY: u8, const AVX2: bool>(&mut self, padded: &mut Padded, steps: [f64; 2]) {
        self.run::<POLICY, true, false, AVX2>(padded, steps);
        self.run::<POLICY, false, false, AVX2>(padded, steps);
        self.run::<POLICY, true, true, AVX2>(padded, steps);
    }

    /// One sweep, up (from the band's last row to the first row) or down, stopping at the first
    /// row beyond the band that it does not reach; with `CHECK`, each row's steps into the row
    /// before it are checked once the row is done.
    #[inline(always)]
    fn run<const POLICY: u8, const UP: bool, const CHECK: bool, const AVX2: bool>(
        &mut self,
        padded: &mut Padded,
        steps: [f64; 2],
    ) {
        let (width, height, stride) = (padded.width, padded.height, padded.stride);
        let (top, bottom) = self.band;
        let mut r = if UP { bottom } else { top };
        while (1..=height).contains(&r) {
            // The row before in the sweep may be the border (all walls).
            let before = if UP { r + 1 } else { r - 1 };
            let (row, previous) = if UP {
                let (upper, lower) = padded.cells.split_at_mut(before * stride);
                (&mut upper[r * stride..], &lower[..stride])
            } else {
                let (upper, lower) = padded.cells.split_at_mut(r * stride);
                (&mut lower[..stride], &upper[before * stride..])
            };
            let reached = relax_row::<POLICY>(previous, row, &mut self.relaxed, steps);
            if !(top..=bottom).contains(&r) {
                if !reached {
                    break;
                }
                self.band = (self.band.0.min(r), self.band.1.max(r));
            }
            scan_row::<AVX2>(&self.relaxed, row, steps[0], width);
            if CHECK && (1..=height).contains(&before) {
                check_row::<POLICY>(row, previous, steps, r * stride, &mut self.checked, &mut self.to_queue);
            }
            r = if UP { r - 1 } else { r + 1 };
        }
    }
}

/// `relaxed[x]`: `row[x]` lowered by the steps from `previous` (the row above or below it), for
/// every cell but the border; whether any of them is finite.
#[inline(always)]
fn relax_row<const POLICY: u8>(previous: &[f64], row: &[f64], relaxed: &mut [f64], steps: [f64; 2]) -> bool {
    let n = row.len();
    let (previous, row, relaxed) = (&previous[..n], &row[..n], &mut relaxed[..n]);
    // Whether any value is finite, as an integer (a floating-point reduction would stop the
    // loop being vectorised).
    let mut reached = 0u64;
    for x in 1..n - 1 {
        // Branch-free, so that the loop is vectorised: `&`, not `&&`, and selects.
        let straight = previous[x];
        let straight_open = open(straight);
        let mut least = straight + steps[0];
        if POLICY == NO_CORNER_CUT {
            // A wall straight ahead blocks both diagonals too, so its NaN may stand as the least
            // (it lowers nothing); a diagonal from a wall is NaN and never less; only the wall
            // beside the row's own cell is selected out.
            let from_left = select(open(row[x - 1]), previous[x - 1] + steps[1], f64::INFINITY);
            let from_right = select(open(row[x + 1]), previous[x + 1] + steps[1], f64::INFINITY);
            least = if from_left < least { from_left } else { least };
            least = if from_right < least { from_right } else { least };
        } else if POLICY != NO_DIAGONALS {
            // A diagonal may be open past a wall straight ahead: that wall's NaN must not stand
            // as the least.
            least = select(straight_open, least, f64::INFINITY);
            let (left, right) = (previous[x - 1], previous[x + 1]);
            let left_open = open(left) & corner_open::<POLICY>(straight_open, open(row[x - 1]));
            let right_open = open(right) & corner_open::<POLICY>(straight_open, open(row[x + 1]));
            let from_left = select(left_open, left + steps[1], f64::INFINITY);
            let from_right = select(right_open, right + steps[1], f64::INFINITY);
            least = if from_left < least { from_left } else { least };
            least = if from_right < least { from_right } else { least };
        }
        let value = row[x];
        let value = if least < value { least } else { value };
        relaxed[x] = value;
        // Finite: neither a wall's NaN nor an unreached +∞.
        reached |= u64::from(value < f64::INFINITY);
    }
    reached != 0
}

/// `a` if `condition`, else `b`, without a branch.
#[inline(always)]
fn select(condition: bool, a: f64, b: f64) -> f64 {
    let mask = u64::from(condition).wrapping_neg();
    f64::from_bits((a.to_bits() & mask) | (b.to_bits() & !mask))
}

/// The straight steps along a row, left to right then right to left, from `relaxed` into `row`.
#[inline(always)]
fn scan_row<const AVX2: bool>(relaxed: &[f64], row: &mut [f64], step: f64, width: usize) {
    scan::<false, AVX2>(relaxed, row, step, width);
    scan::<true, AVX2>(relaxed, row, step, width);
}

/// The straight steps along `row[1..=width]` in one direction. Each step waits for the one
/// before (a comparison and an addition, about 8 cycles), so stretches of the row are taken at
/// once, as independent chains: eight in scalar registers (four measured 16% slower over the
/// whole flood, sixteen 10% slower: their carries no longer fit in registers), or with `AVX2`
/// sixteen, four to a vector ([`stretches_avx2`]). Then each stretch's first cells are lowered
/// from the end of the stretch before it, for as long as that lowers them (the same sums, in the
/// same order, as one pass along the row), and the cells left over after the last stretch are
/// taken last. Left to right, the values are read from `relaxed` (which the row is then
/// written over, without a copy first); right to left, from the row.
#[inline(always)]
fn scan<const BACKWARDS: bool, const AVX2: bool>(relaxed: &[f64], row: &mut [f64], step: f64, width: usize) {
    let stretches = if AVX2 { 4 * GROUPS } else { 8 };
    let len = width / stretches;
    // The i-th cell of stretch k (stretch `stretches` holds the cells left over).
    let at = |k: usize, i: usize| if BACKWARDS { width - (k * len + i) } else { 1 + k * len + i };
    // What a cell passes on: a wall's NaN plus the step is NaN, which lowers nothing.
    let carry = |value: f64| value + step;
    let mut carried = [f64::INFINITY; 4 * GROUPS];
    let carried = &mut carried[..stretches];
    // SAFETY: `AVX2` is true only in the sweeps compiled for AVX2 (and AVX-512), which run only
    // on a processor that has it (see `sweeps`).
    #[cfg(target_arch = "x86_64")]
    let done = if AVX2 { unsafe { stretches_avx2::<BACKWARDS>(relaxed, row, step, width, len, carried) } } else { 0 };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for i in done..len {
        for (k, carried) in carried.iter_mut().enumerate() {
            let x = at(k, i);
            let old = if BACKWARDS { row[x] } else { relaxed[x] };
            let value = if *carried < old { *carried } else { old };
            row[x] = value;
            *carried = carry(value);
        }
    }
    if !BACKWARDS {
        row[1 + stretches * len..=width].copy_from_slice(&relaxed[1 + stretches * len..=width]);
    }
    for k in 1..=stretches {
        let count = if k == stretches { width - stretches * len } else { len };
        let first = at(k, 0);
        let mut carried = carry(row[if BACKWARDS { first + 1 } else { first - 1 }]);
        for i in 0..count {
            let x = at(k, i);
            if carried < row[x] {
                row[x] = carried;
            } else if k < stretches {
                // The rest of the stretch already holds what the join would give it.
                break;
            }
            carried = carry(row[x]);
        }
    }
}

/// How many vectors of four stretches [`stretches_avx2`] carries at once: four (sixteen
/// stretches) measured fastest over the whole flood on 1000², against two (3% slower) and six or
/// eight (4–5% slower: their carries and blocks no longer fit in the sixteen registers).
const GROUPS: usize = 4;

/// The first part of [`scan`] for sixteen stretches of `len` cells (`carried`: what each
/// carries in), four stretches to a vector: four cells of each of four stretches are read
/// (from `relaxed` left to right, else from `row`),
/// turned so that each vector holds one cell of each stretch, carried along (a `min` and an
/// addition a vector: `_mm256_min_pd(a, b)` is `a < b ? a : b`, the scalar comparison, NaN
/// included), turned back and written. Returns how many cells of each stretch it took (a
/// multiple of four); the scalar loop takes the rest, from `carried`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn stretches_avx2<const BACKWARDS: bool>(
    relaxed: &[f64],
    row: &mut [f64],
    step: f64,
    width: usize,
    len: usize,
    carried: &mut [f64],
) -> usize {
    use std::arch::x86_64::*;
    /// A 4×4 block turned over its diagonal (its own inverse).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn transpose(r: [__m256d; 4]) -> [__m256d; 4] {
        let (t0, t1) = (_mm256_unpacklo_pd(r[0], r[1]), _mm256_unpackhi_pd(r[0], r[1]));
        let (t2, t3) = (_mm256_unpacklo_pd(r[2], r[3]), _mm256_unpackhi_pd(r[2], r[3]));
        [
            _mm256_permute2f128_pd::<0x20>(t0, t2),
            _mm256_permute2f128_pd::<0x20>(t1, t3),
            _mm256_permute2f128_pd::<0x31>(t0, t2),
            _mm256_permute2f128_pd::<0x31>(t1, t3),
        ]
    }
    assert!(carried.len() == 4 * GROUPS && 4 * GROUPS * len <= width);
    let blocks = len / 4;
    let steps = _mm256_set1_pd(step);
    let mut carry: [__m256d; GROUPS] = std::array::from_fn(|g| {
        // SAFETY: four of the sixteen carried values.
        unsafe { _mm256_loadu_pd(carried[4 * g..4 * g + 4].as_ptr()) }
    });
    // Where the four cells `4b .. 4b + 4` of stretch k start in the row (the lowest address).
    let start = |k: usize, b: usize| if BACKWARDS { width - (k * len + 4 * b + 3) } else { 1 + k * len + 4 * b };
    for b in 0..blocks {
        for (g, carry) in carry.iter_mut().enumerate() {
            let cells: [__m256d; 4] = std::array::from_fn(|j| {
                let at = start(4 * g + j, b);
                let from = if BACKWARDS { &row[at..at + 4] } else { &relaxed[at..at + 4] };
                // SAFETY: four values (a bounds-checked slice).
                unsafe { _mm256_loadu_pd(from.as_ptr()) }
            });
            // Lane j of `cells[i]`: cell i of the four read from stretch 4g + j, lowest
            // address first (backwards, the stretch's own order is 3, 2, 1, 0).
            let mut cells = transpose(cells);
            for i in 0..4 {
                let cell = &mut cells[if BACKWARDS { 3 - i } else { i }];
                *cell = _mm256_min_pd(*carry, *cell);
                *carry = _mm256_add_pd(*cell, steps);
            }
            for (j, cells) in transpose(cells).into_iter().enumerate() {
                let at = start(4 * g + j, b);
                // SAFETY: as the read.
                unsafe { _mm256_storeu_pd(row[at..at + 4].as_mut_ptr(), cells) };
            }
        }
    }
    for (g, carry) in carry.into_iter().enumerate() {
        // SAFETY: four of the sixteen carried values.
        unsafe { _mm256_storeu_pd(carried[4 * g..4 * g + 4].as_mut_ptr(), carry) };
    }
    4 * blocks
}

/// Adds to `to_queue` the cells of `row` (as padded indices, the row starting at `start`) from
/// which a step lowers a cell of `before`, the row before it in the sweep.
#[inline(always)]
fn check_row<const POLICY: u8>(
    row: &[f64],
    before: &[f64],
    steps: [f64; 2],
    start: usize,
    checked: &mut [u8],
    to_queue: &mut Vec<u32>,
) {
    let n = row.len();
    let (row, before, checked) = (&row[..n], &before[..n], &mut checked[..n]);
    for x in 1..n - 1 {
        // A wall's NaN plus a step is NaN, less than nothing.
        let value = row[x];
        let mut lowers = value + steps[0] < before[x];
        if POLICY != NO_DIAGONALS {
            let straight_open = open(before[x]);
            let diagonal = value + steps[1];
            let left = corner_open::<POLICY>(open(row[x - 1]), straight_open);
            let right = corner_open::<POLICY>(open(row[x + 1]), straight_open);
            lowers |= left & (diagonal < before[x - 1]);
            lowers |= right & (diagonal < before[x + 1]);
        }
        checked[x] = u8::from(lowers);
    }
    // (`checked[0]` and `checked[n - 1]`, the border, stay 0.)
    // Eight cells a word: most words are 0 (testing each cell measured 2–4% slower over the flood).
    let words = checked.chunks_exact(8);
    let mut last = [0; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    let words = words.map(|word| u64::from_le_bytes(word.try_into().unwrap())).chain([u64::from_le_bytes(last)]);
    for (w, mut word) in words.enumerate() {
        while word != 0 {
            to_queue.push((start + 8 * w + word.trailing_zeros() as usize / 8) as u32);
            word &= word - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::path::{DiagonalLength, DiagonalPolicy, MoveRules};
    use crate::core::rng::Rng;

    /// The values of `grid` from `seeds` (grid index, value) by `run`, on the padded copy.
    fn flooded(grid: &CostGrid, seeds: &[(usize, f64)], run: impl FnOnce(&mut Padded, Vec<u32>)) -> Vec<f64> {
        let (mut padded, starts) = Padded::with_seeds(grid, seeds);
        run(&mut padded, starts);
        padded.into_values()
    }

    /// The sweeps (as `flood` runs them, compiled without AVX2, and for AVX2 and AVX-512 where
    /// the processor has them) and the step queues alone give the same values to the bit;
    /// returns how many cells the sweeps leave to the queues.
    fn compare<const POLICY: u8>(grid: &CostGrid, seeds: &[(usize, f64)], steps: [f64; 2]) -> usize {
        let queues = flooded(grid, seeds, |padded, starts| step_queues::<POLICY>(padded, starts, steps));
        let swept = flooded(grid, seeds, |padded, starts| sweeps::<POLICY>(padded, &starts, steps));
        let portable = flooded(grid, seeds, |padded, starts| sweeps_portable::<POLICY>(padded, &starts, steps));
        assert_eq!(swept, queues);
        assert_eq!(portable, queues);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            let avx2 = flooded(grid, seeds, |padded, starts| unsafe { sweeps_avx2::<POLICY>(padded, &starts, steps) });
            assert_eq!(avx2, queues);
        }
        #[cfg(target_arch = "x86_64")]
        if has_avx512() {
            // SAFETY: the processor has what `sweeps_avx512` needs.
            let avx512 =
                flooded(grid, seeds, |padded, starts| unsafe { sweeps_avx512::<POLICY>(padded, &starts, steps) });
            assert_eq!(avx512, queues);
        }
        // The sweeps alone, to count the cells they leave to the queues.
        let mut left = 0;
        flooded(grid, seeds, |padded, starts| {
            let mut sweep = Sweep::new(&starts, padded.stride).expect("seeds");
            sweep.up_down_up::<POLICY, false>(padded, steps);
            left = sweep.to_queue.len();
        });
        left
    }

    /// A corridor that turns down, up, down and up again between two sources (`A` at 0, `B`
    /// at 10; 4 moves): the sweeps leave cells to the queues, and the values, drawn in base 36,
    /// are the walk along the corridor from the nearer source.
    #[test]
    fn a_winding_corridor_is_finished_by_the_queues() {
        let grid = CostGrid::from_ascii(&[
            "A.#...#...", //
            "#.#.#.#.#.",
            "#.#.#.#.#.",
            "#...#...#B",
        ]);
        let seeds = [(0, 0.0), (39, 10.0)];
        let (values, kind) = flood(&grid, &MoveRules::FOUR, &seeds).expect("one cost on every floor");
        assert_eq!(kind, Flood::Sweeps);
        let drawn: Vec<String> = values
            .chunks(10)
            .map(|row| {
                row.iter().map(|&v| if v.is_finite() { char::from_digit(v as u32, 36).unwrap() } else { '#' }).collect()
            })
            .collect();
        assert_eq!(
            drawn,
            [
                "01#9ab#fed", //
                "#2#8#c#g#c",
                "#3#7#d#h#b",
                "#456#efg#a",
            ]
        );
        assert!(compare::<NO_DIAGONALS>(&grid, &seeds, [1.0, 1.0]) > 0);
    }

    /// On random grids larger than `dijkstra_map`'s (up to 300 × 120, walls from 10% to 55%, so
    /// some sources are walled in and some regions are reached only after several turns), under
    /// every rule and diagonal length, from one to four sources at different values: the sweeps
    /// give the step queues' values, compiled without AVX2 and for AVX2 and AVX-512, and the
    /// queues are needed.
    #[test]
    fn sweeps_give_the_step_queues_values() {
        let mut rng = Rng::new(5);
        let (mut needed_queues, mut rounds) = (0, 0);
        for round in 0..160 {
            let (w, h) = (1 + rng.below(300), 1 + rng.below(120));
            let density = [0.1, 0.25, 0.4, 0.55][round % 4];
            let mut grid = CostGrid::open(w, h);
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    if rng.chance(density) {
                        grid.set_cost(x, y, f32::INFINITY);
                    }
                }
            }
            let floors: Vec<usize> =
                (0..grid.len()).filter(|&i| grid.passable(i as i32 % w as i32, i as i32 / w as i32)).collect();
            if floors.is_empty() {
                continue;
            }
            let mut seeds: Vec<(usize, f64)> = (0..1 + rng.below(4))
                .map(|_| (floors[rng.below(floors.len() as u32) as usize], f64::from(rng.below(20)) * 0.5))
                .collect();
            seeds.sort_by_key(|s| s.0);
            seeds.dedup_by_key(|s| s.0);
            let diagonal = DiagonalLength::ALL[round % 3].value();
            let steps = [1.0, diagonal];
            needed_queues += usize::from(
                match DiagonalPolicy::ALL[(round / 3) % 4] {
                    _ if round % 5 == 0 => compare::<NO_DIAGONALS>(&grid, &seeds, steps),
                    DiagonalPolicy::Always => compare::<ALWAYS>(&grid, &seeds, steps),
                    DiagonalPolicy::NoCornerCut => compare::<NO_CORNER_CUT>(&grid, &seeds, steps),
                    DiagonalPolicy::OneBlocked => compare::<ONE_BLOCKED>(&grid, &seeds, steps),
                    DiagonalPolicy::Never => compare::<NO_DIAGONALS>(&grid, &seeds, steps),
                } > 0,
            );
            rounds += 1;
        }
        assert!(rounds > 150 && needed_queues > 80, "{rounds} {needed_queues}");
    }
}
