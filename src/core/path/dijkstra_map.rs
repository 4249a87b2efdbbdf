//! Dijkstra maps: the cost from every cell to the nearest of several sources.
//!
//! Source: Brian Walker, "The Incredible Power of Dijkstra Maps" (RogueBasin, 2012). A map is
//! computed from sources that each start at a value (0 for a goal; other values weight them:
//! a lower start makes a source more attractive); every other cell gets the least, over the
//! sources, of the source's value plus the cost of the cheapest walk to it, under the same
//! [`MoveRules`] and costs as [`super::find_path`]. Walking downhill leads to the nearest
//! (cheapest) source. A **flee map** multiplies a map by a negative factor (Walker uses −1.2)
//! and relaxes it again, so that walking downhill leads away from the sources but around, not
//! into, dead ends.

use std::collections::BinaryHeap;

use super::neighbourhood::NEIGHBOURS;
use super::neighbourhood::StepTable;
use super::open_entry::OpenEntry;
use super::uniform_flood;
use super::{CostGrid, MoveRules, Moves};
use crate::core::model::geometry::Cell;

/// The value of every cell (`f64::INFINITY`: no source can be reached from it).
#[derive(Clone, Debug, PartialEq)]
pub struct DijkstraMap {
    width: i32,
    height: i32,
    values: Vec<f64>,
}

impl DijkstraMap {
    /// The map for `sources`, each `(cell, starting value)`. Impassable or off-grid sources, and
    /// sources whose value is not finite, are ignored.
    pub fn new(grid: &CostGrid, rules: &MoveRules, sources: &[(Cell, f64)]) -> Self {
        let mut seeds: Vec<(usize, f64)> = sources
            .iter()
            .filter_map(|&(cell, value)| {
                let i = grid.index(cell.x, cell.y)?;
                (grid.passable(cell.x, cell.y) && value.is_finite()).then_some((i, value))
            })
            .collect();
        // A cell given twice starts at the lesser value.
        seeds.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        seeds.dedup_by_key(|s| s.0);
        let (width, height) = (grid.width(), grid.height());
        if let Some((values, _)) = uniform_flood::flood(grid, rules, &seeds) {
            return Self { width, height, values };
        }
        let mut map = Self { width, height, values: vec![f64::INFINITY; grid.len()] };
        for &(i, value) in &seeds {
            map.values[i] = value;
        }
        map.relax(grid, rules);
        map
    }

    /// Lowers every value to the cheapest neighbour's value plus the step's cost, until nothing
    /// changes (Dijkstra's algorithm with every finite cell as a source).
    fn relax(&mut self, grid: &CostGrid, rules: &MoveRules) {
        if !self.relax_with_buckets(grid, rules) {
            self.relax_with_heap(grid, rules);
        }
    }

    /// Dijkstra's algorithm with buckets as wide as the cheapest step (Dinitz 1978; Dial's
    /// buckets generalised to real costs): a cell whose value lies in bucket k
    /// (`[low + k·w, low + (k + 1)·w)`) is final once the buckets before k are done, because the
    /// cell before it on its cheapest walk is at least one step, w, cheaper — so it lies in an
    /// earlier bucket and has already relaxed it. Cells within a bucket need no order: no heap,
    /// a `Vec` push a relaxation. A relaxation lands at most `max step / w` buckets ahead, so a
    /// ring of that many buckets holds them all; the starting values, which may spread wider (a
    /// flee map starts from every cell), wait in buckets of their own. Returns false (doing
    /// nothing) when the steps' costs differ more than 64-fold, a step can cost 0, or the
    /// starting values span too many buckets; the heap version then runs.
    fn relax_with_buckets(&mut self, grid: &CostGrid, rules: &MoveRules) -> bool {
        // Every step costs at least the cheapest cell's cost (a diagonal is at least as long).
        let width = f64::from(grid.min_cost());
        let (low, high) = self
            .values
            .iter()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        if !low.is_finite() {
            return true; // no finite value: nothing to relax
        }
        let diagonal = rules.diagonal_length.value();
        let max_step = f64::from(grid.max_cost()) * diagonal.max(1.0);
        if !(width > 0.0 && width.is_finite() && max_step.is_finite()) {
            return false;
        }
        let scale = 1.0 / width;
        let ahead = (max_step * scale).ceil();
        let starting_buckets = (high - low) * scale;
        if ahead > 64.0 || starting_buckets > (4.0 * self.values.len() as f64 + 1024.0).min(f64::from(1u32 << 20)) {
            return false;
        }
        let bucket_of = |v: f64| ((v - low) * scale) as usize;
        // Entries are cells as `y << 32 | x`: the index is then a multiply away, where the
        // coordinates from an index would take a division.
        let w = grid.width() as usize;
        let mut starting: Vec<Vec<u64>> = vec![Vec::new(); bucket_of(high) + 1];
        for (i, &v) in self.values.iter().enumerate() {
            if v.is_finite() {
                starting[bucket_of(v)].push(((i / w) as u64) << 32 | (i % w) as u64);
            }
        }
        // A power of two: the slot of a bucket is a mask, not a division.
        let ring_len = (ahead as usize + 2).next_power_of_two();
        let slot = ring_len - 1;
        let mut ring: Vec<Vec<u64>> = vec![Vec::new(); ring_len];
        let mut in_ring = 0usize;
        let table = StepTable::of(rules);
        let bits = grid.passable_bits();
        let moves: [u64; 8] =
            std::array::from_fn(|d| ((NEIGHBOURS[d].1 as i64) << 32).wrapping_add(NEIGHBOURS[d].0 as i64) as u64);
        let uniform = grid.uniform_cost().map(f64::from);
        let mut done = vec![0u64; self.values.len().div_ceil(64)];
        let values = &mut self.values[..];
        let mut k = 0;
        while k < starting.len() || in_ring > 0 {
            loop {
                let cell = match starting.get_mut(k).and_then(Vec::pop) {
                    Some(cell) => cell,
                    None => match ring[k & slot].pop() {
                        Some(cell) => {
                            in_ring -= 1;
                            cell
                        }
                        None => break,
                    },
                };
                let (x, y) = ((cell & 0xffff_ffff) as usize, (cell >> 32) as usize);
                let i = y * w + x;
                if done[i / 64] >> (i % 64) & 1 != 0 {
                    continue;
                }
                done[i / 64] |= 1 << (i % 64);
                let c = Cell::new(x as i32, y as i32);
                // A wall spreads nothing (a map made on another grid may hold values there).
                if !bits.get(c.x, c.y) {
                    continue;
                }
                let value = values[i];
                // Walking from a neighbour n into c costs c's cost (times the diagonal length);
                // the rules allow n → c exactly when they allow c → n.
                let cost = uniform.unwrap_or_else(|| f64::from(grid.cost(c.x, c.y)));
                let steps = [value + cost, value + cost * diagonal];
                let mut allowed = table.allowed(bits.block(c.x, c.y));
                while allowed != 0 {
                    let d = allowed.trailing_zeros() as usize;
                    allowed &= allowed - 1;
                    let next = cell.wrapping_add(moves[d]);
                    let ni = (next >> 32) as usize * w + (next & 0xffff_ffff) as usize;
                    let nv = steps[d / 4];
                    if nv < values[ni] {
                        values[ni] = nv;
                        // Never before the bucket being emptied nor past the ring, whatever
                        // the rounding.
                        let b = bucket_of(nv).clamp(k, k + ring_len - 1);
                        ring[b & slot].push(next);
                        in_ring += 1;
                    }
                }
            }
            if let Some(bucket) = starting.get_mut(k) {
                *bucket = Vec::new();
            }
            k += 1;
        }
        true
    }

    /// Dijkstra's algorithm with a binary heap: for costs of 0, or values too far apart for
    /// buckets.
    fn relax_with_heap(&mut self, grid: &CostGrid, rules: &MoveRules) {
        let mut heap: BinaryHeap<OpenEntry> = self
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, &value)| OpenEntry { priority: value, g: 0.0, index: i as u32 })
            .collect();
        let neighbours = match rules.moves {
            Moves::Four => &NEIGHBOURS[..4],
            Moves::Eight => &NEIGHBOURS[..],
        };
        while let Some(OpenEntry { priority: value, index, .. }) = heap.pop() {
            let i = index as usize;
            if value > self.values[i] {
                continue;
            }
            let c = grid.cell_at(i);
            // Walking from a neighbour n into c costs step_cost(c); so n's value is at most
            // value + that cost, when the step n → c is allowed.
            for &(dx, dy) in neighbours {
                let (nx, ny) = (c.x + dx, c.y + dy);
                if !grid.passable(nx, ny) || !rules.can_step(grid, nx, ny, -dx, -dy) {
                    continue;
                }
                let ni = (ny * grid.width() + nx) as usize;
                let nv = value + rules.step_cost(grid, c.x, c.y, dx != 0 && dy != 0);
                if nv < self.values[ni] {
                    self.values[ni] = nv;
                    heap.push(OpenEntry { priority: nv, g: 0.0, index: ni as u32 });
                }
            }
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// The value at a cell; `None` off the map or where no source can be reached.
    pub fn value(&self, cell: Cell) -> Option<f64> {
        let in_map = (cell.x as u32) < self.width as u32 && (cell.y as u32) < self.height as u32;
        in_map.then(|| self.values[(cell.y * self.width + cell.x) as usize]).filter(|v| v.is_finite())
    }

    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The flee map: every value times `factor` (negative; Walker uses −1.2), relaxed again.
    pub fn flee(&self, grid: &CostGrid, rules: &MoveRules, factor: f64) -> DijkstraMap {
        let mut map = self.clone();
        for v in map.values.iter_mut().filter(|v| v.is_finite()) {
            *v *= factor;
        }
        map.relax(grid, rules);
        map
    }

    /// The neighbour to step to from `from`: the lowest value among the allowed steps, if lower
    /// than `from`'s own (ties: the first in the order E, S, W, N, then diagonals).
    pub fn downhill(&self, grid: &CostGrid, rules: &MoveRules, from: Cell) -> Option<Cell> {
        let here = self.value(from)?;
        let neighbours = match rules.moves {
            Moves::Four => &NEIGHBOURS[..4],
            Moves::Eight => &NEIGHBOURS[..],
        };
        let mut best: Option<(f64, Cell)> = None;
        for &(dx, dy) in neighbours {
            let n = Cell::new(from.x + dx, from.y + dy);
            if !rules.can_step(grid, from.x, from.y, dx, dy) {
                continue;
            }
            if let Some(v) = self.value(n)
                && v < here
                && best.is_none_or(|(b, _)| v < b)
            {
                best = Some((v, n));
            }
        }
        best.map(|(_, n)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::path::{DiagonalLength, DiagonalPolicy};
    use crate::core::rng::Rng;

    /// Costs 30 orders of magnitude apart, or a millionfold, do not make buckets without end:
    /// the heap runs instead, with the same values.
    #[test]
    fn extreme_cost_ratios_fall_back_to_the_heap() {
        let mut tiny = CostGrid::open(2, 1);
        tiny.set_cost(1, 0, 1e-30);
        let map = DijkstraMap::new(&tiny, &MoveRules::MOVINGAI, &[(Cell::new(0, 0), 0.0)]);
        assert_eq!(map.values(), &[0.0, 1.0]);

        let mut corridor = CostGrid::open(3000, 1);
        for x in 0..3000 {
            corridor.set_cost(x, 0, if x % 2 == 0 { 1.0 } else { 1e-6 });
        }
        corridor.update_min_cost();
        let map = DijkstraMap::new(&corridor, &MoveRules::MOVINGAI, &[(Cell::new(0, 0), 0.0)]);
        let mut heap = DijkstraMap { width: 3000, height: 1, values: vec![f64::INFINITY; 3000] };
        heap.values[0] = 0.0;
        heap.relax_with_heap(&corridor, &MoveRules::MOVINGAI);
        assert_eq!(map.values(), heap.values());
        // Walking from cell 2999 enters cells 2998 ..= 0: 1 500 costing 1, 1 499 costing 1e-6.
        assert!((map.values()[2999] - (1500.0 + 1499.0 * 1e-6)).abs() < 1e-6);
    }

    /// A map made on one grid and fled on another where a reached cell became a wall: the wall
    /// spreads nothing, as in the heap version.
    #[test]
    fn a_cell_walled_since_spreads_nothing() {
        let mut grid = CostGrid::from_ascii(&["......", "......", "......"]);
        let map = DijkstraMap::new(&grid, &MoveRules::MOVINGAI, &[(Cell::new(0, 1), 0.0)]);
        grid.set_cost(3, 1, f32::INFINITY);
        let fled = map.flee(&grid, &MoveRules::MOVINGAI, -1.2);
        let mut heap = map.clone();
        for v in heap.values.iter_mut().filter(|v| v.is_finite()) {
            *v *= -1.2;
        }
        heap.relax_with_heap(&grid, &MoveRules::MOVINGAI);
        assert_eq!(fled.values(), heap.values());
    }

    /// Where one cost lies on every floor, the uniform floods give the heap relaxation's values
    /// to the bit: random grids with walls, a cost not always 1, every rule and diagonal length,
    /// sources starting level (the breadth-first flood, when the steps cost the same) or not
    /// (the sweeps, then the step queues), some on walls, repeated, or reached more cheaply from
    /// another source than they start.
    #[test]
    fn uniform_floods_give_the_heap_values() {
        let mut rng = Rng::new(11);
        let (mut breadth_first, mut sweeps, mut lowered_sources) = (0, 0, 0);
        for round in 0..800 {
            let (w, h) = (1 + rng.below(70), 1 + rng.below(40));
            let cost = [1.0, 0.7, 3.0][round % 3];
            let mut grid = CostGrid::open(w, h);
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    grid.set_cost(x, y, if rng.chance([0.1, 0.3, 0.45][round % 3]) { f32::INFINITY } else { cost });
                }
            }
            grid.update_min_cost();
            let rules = MoveRules {
                moves: if round % 4 == 0 { Moves::Four } else { Moves::Eight },
                diagonal: DiagonalPolicy::ALL[rng.below(4) as usize],
                diagonal_length: DiagonalLength::ALL[rng.below(3) as usize],
            };
            let level = round % 2 == 0;
            let mut sources: Vec<(Cell, f64)> = (0..1 + rng.below(5))
                .map(|_| {
                    let start = if level { -2.5 } else { f64::from(rng.below(40)) * 0.7 - 5.0 };
                    (Cell::new(rng.below(w) as i32, rng.below(h) as i32), start)
                })
                .collect();
            sources.push(sources[0]);
            let mut start = vec![f64::INFINITY; grid.len()];
            let mut seeds = Vec::new();
            for &(c, v) in &sources {
                let i = grid.index(c.x, c.y).unwrap();
                if grid.passable(c.x, c.y) && v <= start[i] {
                    start[i] = v;
                    seeds.push(i);
                }
            }
            let mut heap = DijkstraMap { width: w as i32, height: h as i32, values: start.clone() };
            heap.relax_with_heap(&grid, &rules);
            seeds.sort();
            seeds.dedup();
            let starting: Vec<(usize, f64)> = seeds.iter().map(|&i| (i, start[i])).collect();
            let flooded = match uniform_flood::flood(&grid, &rules, &starting) {
                Some((values, uniform_flood::Flood::BreadthFirst)) => {
                    breadth_first += 1;
                    values
                }
                Some((values, uniform_flood::Flood::Sweeps)) => {
                    sweeps += 1;
                    values
                }
                None => panic!("round {round}: no uniform flood"),
            };
            assert_eq!(flooded, heap.values, "round {round}, {rules:?}, cost {cost}");
            lowered_sources += seeds.iter().filter(|&&i| heap.values[i] < start[i]).count();
            let map = DijkstraMap::new(&grid, &rules, &sources);
            assert_eq!(map.values(), heap.values(), "round {round}, {rules:?}, cost {cost}");
        }
        assert!(breadth_first > 300 && sweeps > 300, "{breadth_first} {sweeps}");
        assert!(lowered_sources > 50, "{lowered_sources}");
        // Mixed costs: the buckets.
        let mut grid = CostGrid::open(3, 1);
        grid.set_cost(1, 0, 2.0);
        assert_eq!(uniform_flood::flood(&grid, &MoveRules::FOUR, &[(0, 0.0)]), None);
        let map = DijkstraMap::new(&grid, &MoveRules::FOUR, &[(Cell::new(0, 0), 0.0)]);
        // Walking from a cell costs the cells it enters: 1 from cell 1, 2 + 1 from cell 2.
        assert_eq!(map.values(), &[0.0, 1.0, 3.0]);
        // Sources at no finite value are ignored, by the floods and the buckets alike.
        for grid in [CostGrid::open(3, 1), grid] {
            let odd = [(Cell::new(2, 0), f64::NEG_INFINITY), (Cell::new(1, 0), f64::NAN), (Cell::new(0, 0), 0.0)];
            let map = DijkstraMap::new(&grid, &MoveRules::FOUR, &odd);
            assert_eq!(map.values(), DijkstraMap::new(&grid, &MoveRules::FOUR, &odd[2..]).values());
        }
    }

    /// Every wall pattern of a 4×3 grid (4 096), under every rule and diagonal length, from one
    /// source or from two at different values: the uniform floods give the heap relaxation's
    /// values to the bit (corners, edges, single cells, walled-in sources).
    #[test]
    fn uniform_floods_on_every_small_wall_pattern() {
        let mut rules = vec![MoveRules::FOUR];
        for diagonal in DiagonalPolicy::ALL {
            for diagonal_length in DiagonalLength::ALL {
                rules.push(MoveRules { moves: Moves::Eight, diagonal, diagonal_length });
            }
        }
        let mut cases = 0;
        for pattern in 0u32..1 << 12 {
            let mut grid = CostGrid::open(4, 3);
            for i in 0..12 {
                if pattern >> i & 1 != 0 {
                    grid.set_cost(i % 4, i / 4, f32::INFINITY);
                }
            }
            grid.update_min_cost();
            let floor: Vec<usize> = (0..12).filter(|&i| pattern >> i & 1 == 0).collect();
            let (Some(&first), Some(&last)) = (floor.first(), floor.last()) else { continue };
            for seeds in [vec![(first, 0.0)], vec![(first, 0.0), (last, 1.5)]] {
                let seeds = if first == last { vec![(first, 0.0)] } else { seeds };
                for rules in &rules {
                    let mut heap = DijkstraMap { width: 4, height: 3, values: vec![f64::INFINITY; 12] };
                    for &(i, v) in &seeds {
                        heap.values[i] = v;
                    }
                    heap.relax_with_heap(&grid, rules);
                    let (flooded, _) = uniform_flood::flood(&grid, rules, &seeds).expect("one cost on every floor");
                    assert_eq!(flooded, heap.values, "pattern {pattern:012b}, {rules:?}, {seeds:?}");
                    cases += 1;
                }
            }
        }
        assert!(cases > 100_000, "{cases}");
    }

    /// The bucket relaxation gives the heap relaxation's values, on random grids with walls and
    /// varied costs, several weighted sources, every rule, and on the flee maps made from them.
    #[test]
    fn buckets_relax_to_the_heap_values() {
        let mut rng = Rng::new(5);
        for round in 0..300 {
            let (w, h) = (1 + rng.below(50), 1 + rng.below(40));
            let mut grid = CostGrid::open(w, h);
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let cost = if rng.chance(0.3) {
                        f32::INFINITY
                    } else if round % 2 == 0 {
                        1.0
                    } else {
                        [0.5, 1.0, 3.0, 7.25][rng.below(4) as usize]
                    };
                    grid.set_cost(x, y, cost);
                }
            }
            grid.update_min_cost();
            let rules = MoveRules {
                moves: if rng.chance(0.5) { Moves::Four } else { Moves::Eight },
                diagonal: DiagonalPolicy::ALL[rng.below(4) as usize],
                diagonal_length: DiagonalLength::ALL[rng.below(3) as usize],
            };
            let sources: Vec<(Cell, f64)> = (0..1 + rng.below(4))
                .map(|_| (Cell::new(rng.below(w) as i32, rng.below(h) as i32), f64::from(rng.below(20)) * 0.7 - 3.0))
                .collect();
            let mut start = DijkstraMap { width: w as i32, height: h as i32, values: vec![f64::INFINITY; grid.len()] };
            for &(c, v) in &sources {
                let i = grid.index(c.x, c.y).unwrap();
                if grid.passable(c.x, c.y) && v < start.values[i] {
                    start.values[i] = v;
                }
            }
            let (mut buckets, mut heap) = (start.clone(), start);
            assert!(buckets.relax_with_buckets(&grid, &rules));
            heap.relax_with_heap(&grid, &rules);
            let close = |a: &DijkstraMap, b: &DijkstraMap| {
                a.values.iter().zip(&b.values).all(|(x, y)| x == y || (x - y).abs() < 1e-9)
            };
            assert!(close(&buckets, &heap), "round {round}, {rules:?}");
            for map in [&mut buckets, &mut heap] {
                for v in map.values.iter_mut().filter(|v| v.is_finite()) {
                    *v *= -1.2;
                }
            }
            assert!(buckets.relax_with_buckets(&grid, &rules));
            heap.relax_with_heap(&grid, &rules);
            assert!(close(&buckets, &heap), "flee, round {round}, {rules:?}");
        }
    }
}
