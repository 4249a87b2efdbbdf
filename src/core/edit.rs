//! Map edits the editor's tools make: the cells a stroke, line or rectangle covers and the
//! cells a bucket fill reaches. The app turns pointer input into these; undo keeps whole-map
//! snapshots (the map is flat arrays, cheap to clone).

use std::collections::VecDeque;

use super::geometry::Cell;
use super::map::Map;
use super::tile::TileId;

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
    let mut seen = vec![false; map.len()];
    let mut out = Vec::new();
    let mut queue = VecDeque::from([start]);
    seen[map.index(start).expect("in bounds")] = true;
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
                && map.tile(layer, n) == Some(target)
            {
                seen[i] = true;
                queue.push_back(n);
            }
        }
    }
    out
}

/// Sets `tile` on `layer` at every in-bounds cell; returns how many cells changed.
pub fn paint(map: &mut Map, layer: usize, cells: &[Cell], tile: TileId) -> usize {
    let mut changed = 0;
    for &c in cells {
        if map.tile(layer, c).is_some_and(|t| t != tile) && map.set_tile(layer, c, tile) {
            changed += 1;
        }
    }
    changed
}
