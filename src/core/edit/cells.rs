//! The cells a stroke, line, rectangle or square brush covers, and the cells a bucket fill reaches.

use std::collections::VecDeque;

use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;

/// The cells of a straight line from `a` to `b`, both included (Bresenham, every step a king
/// move), for strokes that skip cells when the pointer moves fast and for the line tool.
pub fn line_cells(a: Cell, b: Cell) -> Vec<Cell> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let n = dx.abs().max(dy.abs());
    if n == 0 {
        return vec![a];
    }
    (0..=n)
        .map(|i| {
            // i·d/n rounded half away from zero.
            let round = |d: i32| d.signum() * ((2 * i * d.abs() + n) / (2 * n));
            Cell::new(a.x + round(dx), a.y + round(dy))
        })
        .collect()
}

/// The square stamp of a brush `size` cells wide centred on `c` (for even sizes the extra column
/// and row go right and down, as Tiled does).
pub fn square_around(c: Cell, size: u32) -> Vec<Cell> {
    let size = size.max(1) as i32;
    let lo = (size - 1) / 2;
    let mut out = Vec::with_capacity((size * size) as usize);
    for dy in -lo..size - lo {
        for dx in -lo..size - lo {
            out.push(Cell::new(c.x + dx, c.y + dy));
        }
    }
    out
}

/// Every cell of `path` stamped with a brush `size` cells wide, each cell once, in path order.
pub fn stamp_along(path: &[Cell], size: u32) -> Vec<Cell> {
    if size <= 1 {
        return path.to_vec();
    }
    let mut seen = std::collections::HashSet::new();
    path.iter().flat_map(|&c| square_around(c, size)).filter(|c| seen.insert(*c)).collect()
}

/// The cells of the rectangle with corners `a` and `b`: all of them, or its outline.
pub fn rect_cells(a: Cell, b: Cell, filled: bool) -> Vec<Cell> {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    let mut out = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            if filled || x == x0 || x == x1 || y == y0 || y == y1 {
                out.push(Cell::new(x, y));
            }
        }
    }
    out
}

/// The cells a bucket fill from `start` reaches on `layer`: connected (4 or 8 ways) cells
/// holding the same tile as `start`.
pub fn fill_cells(map: &Map, layer: usize, start: Cell, eight: bool) -> Vec<Cell> {
    let Some(target) = map.tile(layer, start) else { return Vec::new() };
    flood_cells(map, start, eight, |c| map.tile(layer, c) == Some(target))
}

/// The cells of the map joined to `start` through cells for which `joins` holds (`start`
/// included when it holds there), breadth first; edge-adjacent steps, or king moves when
/// `eight`. The bucket fill's region and the magic wand's selection.
pub fn flood_cells(map: &Map, start: Cell, eight: bool, joins: impl Fn(Cell) -> bool) -> Vec<Cell> {
    let Some(first) = map.index(start).filter(|_| joins(start)) else { return Vec::new() };
    let mut seen = vec![false; map.len()];
    let mut out = Vec::new();
    let mut queue = VecDeque::from([start]);
    seen[first] = true;
    let steps: &[(i32, i32)] = if eight {
        &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    } else {
        &[(1, 0), (-1, 0), (0, 1), (0, -1)]
    };
    while let Some(c) = queue.pop_front() {
        out.push(c);
        for &(dx, dy) in steps {
            let n = Cell::new(c.x + dx, c.y + dy);
            if let Some(i) = map.index(n)
                && !seen[i]
                && joins(n)
            {
                seen[i] = true;
                queue.push_back(n);
            }
        }
    }
    out
}
