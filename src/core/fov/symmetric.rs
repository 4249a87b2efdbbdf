//! `symmetric`: Albert Ford's symmetric shadowcasting, exact.
//!
//! Source: Albert Ford, "Symmetric Shadowcasting" (2020, albertford.com/shadowcasting), and his
//! Python reference implementation, which this follows step for step with the same rational
//! arithmetic, in integers instead of `Fraction`s:
//! - The view is scanned in four quadrants (north, east, south, west), row by row outwards; a row
//!   at depth `d` covers the columns from `round_ties_up(d · start)` to `round_ties_down(d · end)`,
//!   where `start` and `end` are the row's slopes, starting at -1 and 1.
//! - A tile at (depth `d`, column `c`) has slope `(2c - 1) / 2d` (its left edge).
//! - A wall is always revealed (expansive walls); a floor tile only if it is *symmetric*:
//!   `d · start ≤ c ≤ d · end` (its centre is inside the row's sector, borders included).
//! - Floor after wall moves the row's start slope to the floor tile's slope; wall after floor
//!   scans the next row with its end slope at the wall's slope; a row ending on floor continues.
//!
//! Properties (Ford): symmetric for floor tiles (A sees B ⇔ B sees A); expansive walls; expanding
//! pillar shadows; no blind corners; and a floor tile is visible exactly when a straight line
//! from the origin's centre to the tile's centre passes through no wall (counting, on a row where
//! the line crosses two tiles at a half, both). Radius `r` keeps tiles with `dx² + dy² ≤ r²`;
//! rows beyond the radius are not scanned (they could hold no visible tile).
//!
//! The east and west quadrants' rows are map columns; their rows before the first that holds a
//! wall are lit as map rows before the scan (`light_open_columns`), which starts after them.
//!
//! libtcod's `FOV_SYMMETRIC_SHADOWCAST` computes the slopes in floats and so differs from this
//! definition on ties; this implementation never rounds.

use super::{Axis, FovContext, Opacity, RadiusCols, with_radius_cols};

/// `floor(a / b)` for `b > 0`, in 32 bits: [`super::floor_div`] without its 64-bit fallback,
/// whose range test costs this scan 5% on a noisy map (its values always fit 32 bits).
#[inline]
fn floor_div(a: i32, b: i32) -> i32 {
    if b & (b - 1) == 0 { a >> b.trailing_zeros() } else { a.div_euclid(b) }
}

/// Bits `lo..=hi` of a word (none when `hi < lo`); `0 ≤ lo`, `hi ≤ 63`.
#[inline(always)]
fn bits_between(lo: i32, hi: i32) -> u64 {
    if hi < lo { 0 } else { (u64::MAX >> (63 - hi)) & (u64::MAX << lo) }
}

/// A slope `num / den` with `den > 0`.
#[derive(Clone, Copy)]
struct Slope {
    num: i32,
    den: i32,
}

struct Quadrant<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    radius_cols: &'c mut RadiusCols,
    /// A row of the quadrant is a map row (north, south) or a map column (east, west).
    axis: Axis,
    /// The map coordinate along the row of column 0 (the origin's).
    base: i32,
    /// The row at `depth` is map line `line0 + depth · line_step`.
    line0: i32,
    line_step: i32,
}

impl<O: Opacity> Quadrant<'_, '_, O> {
    /// Scans the row at `depth` between the slopes: its walls are revealed whole (expansive
    /// walls); its floor where it is symmetric, `depth · start ≤ col ≤ depth · end`, which is
    /// one interval; the transitions between floor and wall are where Ford's scan changes slopes
    /// or recurses. A row of up to 64 cells is one word of opacity bits, revealed with one write,
    /// its transitions found as bits (on an open map: one bitset query and one span write); a
    /// longer one is taken run by run.
    fn scan(&mut self, mut depth: i32, mut start: Slope, end: Slope) {
        // A row ending on floor goes on to the next depth with the same slopes: a loop (the
        // tail call of Ford's recursion); a floor run closed by a wall recurses.
        loop {
            if depth > self.ctx.reach {
                return;
            }
            // round_ties_up(depth * start) = floor(depth*start + 1/2); round_ties_down = ceil(depth*end - 1/2).
            let min_col = floor_div(2 * depth * start.num + start.den, 2 * start.den);
            let max_col = -floor_div(end.den - 2 * depth * end.num, 2 * end.den);
            let radius_cols = self.radius_cols.get(depth);
            let line = self.line0 + depth * self.line_step;
            // The symmetric columns, ceil(depth·start) .. floor(depth·end), are min_col or the next
            // and max_col or the one before (no division needed). `end` never changes in a row;
            // `start` changes only after a wall, when every column of the next floor run passes.
            let first_symmetric = min_col + i32::from(min_col * start.den < depth * start.num);
            let last_symmetric = max_col - i32::from(max_col * end.den > depth * end.num);
            let count = max_col - min_col + 1;
            if count <= 0 {
                return;
            }
            if count <= 64 {
                // A row of up to 64 cells, as words: one read of its opacity, one write of what
                // it reveals, and a branch only where floor turns to wall (a sector to scan) or
                // back (a new start slope).
                let range = u64::MAX >> (64 - count);
                let walls = self.ctx.grid.line_bits(self.axis, line, self.base + min_col, count as u32) & range;
                // Walls show within the radius; floor between the first and last symmetric
                // columns too (after a wall every floor column passes the start test, so the
                // row's first symmetric column is the only one that matters: see the run loop
                // below).
                let (lo, hi) = (first_symmetric.max(-radius_cols), last_symmetric.min(radius_cols));
                if walls == 0 {
                    // All floor (every row of an open map): one span, and on to the next row.
                    if lo <= hi {
                        self.ctx.mark_run(self.axis, line, self.base + lo, self.base + hi);
                    }
                    depth += 1;
                    continue;
                }
                let floors = !walls & range;
                let mut shown = floors & bits_between(lo - min_col, hi - min_col);
                if self.ctx.light_walls {
                    shown |=
                        walls & bits_between((-radius_cols).max(min_col) - min_col, radius_cols.min(max_col) - min_col);
                }
                if shown != 0 {
                    self.ctx.mark_bits(self.axis, line, self.base + min_col, shown);
                }
                // Bit i: a wall after floor (a sector ends at its left edge), or floor after a
                // wall (the start moves to its left edge).
                let mut turns = (walls & floors << 1) | (floors & walls << 1);
                while turns != 0 {
                    let i = turns.trailing_zeros() as i32;
                    turns &= turns - 1;
                    let edge = Slope { num: 2 * (min_col + i) - 1, den: 2 * depth };
                    if walls >> i & 1 != 0 {
                        self.scan(depth + 1, start, edge);
                    } else {
                        start = edge;
                    }
                }
                if walls >> (count - 1) & 1 != 0 {
                    return;
                }
                depth += 1;
                continue;
            }
            let mut prev_wall: Option<bool> = None;
            let mut col = min_col;
            while col <= max_col {
                let (wall, last) = self.ctx.grid.run(self.axis, line, self.base + col, self.base + max_col);
                let last = last - self.base;
                if wall {
                    let (lo, hi) = (col.max(-radius_cols), last.min(radius_cols));
                    if self.ctx.light_walls && lo <= hi {
                        self.ctx.mark_run(self.axis, line, self.base + lo, self.base + hi);
                    }
                    if prev_wall == Some(false) {
                        self.scan(depth + 1, start, Slope { num: 2 * col - 1, den: 2 * depth });
                    }
                } else {
                    // Symmetric floor: ceil(depth·start) ≤ col ≤ floor(depth·end). (After a wall,
                    // every col of the run passes the start test under the old start and the new.)
                    let lo = col.max(first_symmetric).max(-radius_cols);
                    let hi = last.min(last_symmetric).min(radius_cols);
                    if lo <= hi {
                        self.ctx.mark_run(self.axis, line, self.base + lo, self.base + hi);
                    }
                    if prev_wall == Some(true) {
                        start = Slope { num: 2 * col - 1, den: 2 * depth };
                    }
                }
                prev_wall = Some(wall);
                col = last + 1;
            }
            if prev_wall != Some(false) {
                return;
            }
            depth += 1;
        }
    }
}

/// The deepest row [`light_open_columns`] reads: its `2 · depth + 1` cells are one word.
const DEEPEST_OPEN_COLUMN: i32 = 31;

/// The rows of the east or west quadrant (map columns `ox + line_step · depth`) before the first
/// that holds a wall, lit as map rows; returns the depth its scan starts at.
///
/// Why: the scan takes a row with no wall among its cells `−depth ..= depth` as it found the
/// first, with the slopes unchanged, lighting its cells within the radius; so up to the first
/// row with a wall it needs no scan. Those rows are map columns, lit cell-column by
/// cell-column (`VisibleSet::mark_column`) when scanned; here a map row `dy` takes their cells
/// `|dy|` and further from the origin's column in one span. The cells read are the scan's.
fn light_open_columns<O: Opacity>(ctx: &mut FovContext<'_, O>, radius_cols: &mut RadiusCols, line_step: i32) -> i32 {
    let (ox, oy) = (ctx.ox, ctx.oy);
    let mut first_closed = 1;
    while first_closed <= ctx.reach.min(DEEPEST_OPEN_COLUMN) {
        let d = first_closed;
        let count = 2 * d + 1;
        let walls =
            ctx.grid.line_bits(Axis::Column, ox + line_step * d, oy - d, count as u32) & bits_between(0, count - 1);
        if walls != 0 {
            break;
        }
        first_closed += 1;
    }
    let last_open = first_closed - 1;
    for dy in -last_open..=last_open {
        let c = dy.abs();
        let (near, far) = (c.max(1), last_open.min(radius_cols.get(c)));
        if near <= far {
            let (a, b) = (ox + line_step * near, ox + line_step * far);
            ctx.visible.mark_row(oy + dy, a.min(b), a.max(b));
        }
    }
    first_closed
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        // North, east, south, west: rows are map rows above and below, map columns right and
        // left; columns run with increasing x or y.
        let (ox, oy) = (ctx.ox, ctx.oy);
        for (axis, base, line0, line_step) in
            [(Axis::Row, ox, oy, -1), (Axis::Column, oy, ox, 1), (Axis::Row, ox, oy, 1), (Axis::Column, oy, ox, -1)]
        {
            let first = if axis == Axis::Column { light_open_columns(ctx, radius_cols, line_step) } else { 1 };
            let mut q = Quadrant { ctx, radius_cols, axis, base, line0, line_step };
            q.scan(first, Slope { num: -1, den: 1 }, Slope { num: 1, den: 1 });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::reference::assert_same_views;
    use crate::core::fov::{Algorithm, FovParams, OpacityGrid};

    /// Ford's scan cell by cell, as his Python reference runs it: the definition the run-based
    /// scan must reproduce.
    fn reference(grid: &OpacityGrid, params: FovParams) -> Vec<(i32, i32)> {
        let r2 = params.radius.map_or(i64::MAX, |r| i64::from(r) * i64::from(r));
        let reach = params.radius.map_or(grid.width().max(grid.height()), |r| r as i32);
        let (ox, oy) = (params.origin.x, params.origin.y);
        let mut out = vec![(ox, oy)];
        #[allow(clippy::too_many_arguments)]
        fn scan(
            grid: &OpacityGrid,
            out: &mut Vec<(i32, i32)>,
            q: (i32, i32, i32, i32),
            o: (i32, i32),
            r2: i64,
            reach: i32,
            light_walls: bool,
            depth: i32,
            mut start: Slope,
            end: Slope,
        ) {
            if depth > reach {
                return;
            }
            let min_col = floor_div(2 * depth * start.num + start.den, 2 * start.den);
            let max_col = -floor_div(end.den - 2 * depth * end.num, 2 * end.den);
            let mut prev_wall = None;
            for col in min_col..=max_col {
                let (x, y) = (o.0 + col * q.0 + depth * q.2, o.1 + col * q.1 + depth * q.3);
                let wall = grid.is_opaque(x, y);
                let symmetric = col * start.den >= depth * start.num && col * end.den <= depth * end.num;
                let in_radius = i64::from(col) * i64::from(col) + i64::from(depth) * i64::from(depth) <= r2;
                if (wall || symmetric) && in_radius && (light_walls || !wall) && grid.in_bounds(x, y) {
                    out.push((x, y));
                }
                match prev_wall {
                    Some(true) if !wall => start = Slope { num: 2 * col - 1, den: 2 * depth },
                    Some(false) if wall => scan(
                        grid,
                        out,
                        q,
                        o,
                        r2,
                        reach,
                        light_walls,
                        depth + 1,
                        start,
                        Slope { num: 2 * col - 1, den: 2 * depth },
                    ),
                    _ => {}
                }
                prev_wall = Some(wall);
            }
            if prev_wall == Some(false) {
                scan(grid, out, q, o, r2, reach, light_walls, depth + 1, start, end);
            }
        }
        for q in [(1, 0, 0, -1), (0, 1, 1, 0), (1, 0, 0, 1), (0, 1, -1, 0)] {
            let (start, end) = (Slope { num: -1, den: 1 }, Slope { num: 1, den: 1 });
            scan(grid, &mut out, q, (ox, oy), r2, reach, params.light_walls, 1, start, end);
        }
        out.sort_by_key(|&(x, y)| (y, x));
        out.dedup();
        out
    }

    /// The run-based scan (bitset runs, span writes) gives the cell-by-cell scan's view.
    #[test]
    fn runs_give_the_cell_by_cell_view() {
        assert_same_views(Algorithm::Symmetric, 17, [0.0, 0.1, 0.3, 0.5], reference);
    }

    /// Maps with a few walls, far apart: the east and west quadrants' rows up to the first that
    /// holds a wall (or the map's edge) are lit by `light_open_columns`, and the scan goes on
    /// from there, also past the deepest row it reads.
    #[test]
    fn open_columns_up_to_a_lone_wall_give_the_cell_by_cell_view() {
        for seed in [18, 19] {
            assert_same_views(Algorithm::Symmetric, seed, [0.0005, 0.001, 0.002, 0.004], reference);
        }
    }
}
