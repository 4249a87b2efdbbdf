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

use super::search::{NEIGHBOURS, OpenEntry};
use super::{CostGrid, MoveRules, Moves};
use crate::core::geometry::Cell;

/// The value of every cell (`f64::INFINITY`: no source can be reached from it).
#[derive(Clone, Debug, PartialEq)]
pub struct DijkstraMap {
    width: i32,
    height: i32,
    values: Vec<f64>,
}

impl DijkstraMap {
    /// The map for `sources`, each `(cell, starting value)`. Impassable or off-grid sources are
    /// ignored.
    pub fn new(grid: &CostGrid, rules: &MoveRules, sources: &[(Cell, f64)]) -> Self {
        let mut map = Self { width: grid.width(), height: grid.height(), values: vec![f64::INFINITY; grid.len()] };
        for &(cell, value) in sources {
            if let Some(i) = grid.index(cell.x, cell.y)
                && grid.passable(cell.x, cell.y)
                && value < map.values[i]
            {
                map.values[i] = value;
            }
        }
        map.relax(grid, rules);
        map
    }

    /// Lowers every value to the cheapest neighbour's value plus the step's cost, until nothing
    /// changes (Dijkstra's algorithm with every finite cell as a source).
    fn relax(&mut self, grid: &CostGrid, rules: &MoveRules) {
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
