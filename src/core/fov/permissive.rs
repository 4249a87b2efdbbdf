//! `permissive`: precise permissive FOV, Jonathon Duerig's algorithm (libtcod FOV_PERMISSIVE_8).
//!
//! Definition: a cell is visible when some unobstructed line joins a point of the origin's square
//! to a point of the cell's square (RogueBasin, "Precise Permissive Field of View"). Duerig's
//! corner rules hold: the extreme corners of walls are open (lines may graze wall corners and
//! edges); a target must be crossed in its interior, not touched at a corner; a zero-width view
//! through an extremity of the source square is dropped.
//!
//! Source: Duerig's `permissive-fov.cc` (2007) and libtcod `src/libtcod/fov_permissive2.c` at
//! permissiveness 8, which this follows: per quadrant, in units of 16 per cell, cells are tested
//! against a list of active views (each a shallow and a steep line with the chains of wall
//! corners — "bumps" — that bent them); an opaque cell narrows, splits or removes the view it
//! falls in. All arithmetic is integer. They visit cells by anti-diagonals of growing Manhattan
//! distance; we go a map row at a time and, within a view, a run of cells at a time (see
//! `quadrant`), which the tests check gives their view on every 4 × 4 map and 2 500 random ones.
//! Before a quadrant is scanned, its rows up to the first that holds a wall are lit, as the
//! octant scans' open rows are (`open_rows.rs`), but by map rows shared by two quadrants
//! (`light_open_rows`): an open map is lit without a view's arithmetic.
//!
//! Radius: libtcod and Duerig limit the view to a square; we limit each quadrant to the radius'
//! square and then keep the cells with `dx² + dy² ≤ r²`, which keeps the result symmetric.
//! A map one cell high or wide is the one place where we leave Duerig's scan for the definition:
//! every quadrant there has no rows or no columns past the origin's, its first view has no
//! width, and libtcod sees only the origin. The lines from the origin's square run along the
//! map, so we see along it up to the first wall each way (`along_the_map`).
//! Properties: symmetric; no blind corners; expansive walls; very permissive around corners; no
//! expanding pillar shadows.

use std::cell::RefCell;

use super::{Axis, FovContext, OctantLines, Opacity, RadiusCols, with_radius_cols};

const STEP: i64 = 16;
const NO_BUMP: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Line {
    xi: i64,
    yi: i64,
    xf: i64,
    yf: i64,
}

impl Line {
    /// Positive when the line passes below the point `(px, py)`.
    #[inline]
    fn relative_slope(&self, px: i64, py: i64) -> i64 {
        (self.yf - self.yi) * (self.xf - px) - (self.xf - self.xi) * (self.yf - py)
    }
    #[inline]
    fn below(&self, p: (i64, i64)) -> bool {
        self.relative_slope(p.0, p.1) > 0
    }
    #[cfg(test)]
    fn below_or_colinear(&self, p: (i64, i64)) -> bool {
        self.relative_slope(p.0, p.1) >= 0
    }
    #[inline]
    fn above(&self, p: (i64, i64)) -> bool {
        self.relative_slope(p.0, p.1) < 0
    }
    #[cfg(test)]
    fn above_or_colinear(&self, p: (i64, i64)) -> bool {
        self.relative_slope(p.0, p.1) <= 0
    }
    #[inline]
    fn colinear(&self, p: (i64, i64)) -> bool {
        self.relative_slope(p.0, p.1) == 0
    }
    fn line_colinear(&self, other: &Line) -> bool {
        self.colinear((other.xi, other.yi)) && self.colinear((other.xf, other.yf))
    }
}

#[derive(Clone, Copy, Debug)]
struct Bump {
    x: i64,
    y: i64,
    parent: u32,
}

#[derive(Clone, Copy, Debug)]
struct View {
    shallow: Line,
    steep: Line,
    shallow_bump: u32,
    steep_bump: u32,
}

#[derive(Default)]
struct Scratch {
    views: Vec<View>,
    bumps: Vec<Bump>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The source square's two extremities that a degenerate view may not pass through.
const SOURCE_TOP_LEFT: (i64, i64) = (0, STEP);
const SOURCE_BOTTOM_RIGHT: (i64, i64) = (STEP, 0);

fn add_shallow_bump(s: &mut Scratch, view: usize, p: (i64, i64)) {
    let v = &mut s.views[view];
    v.shallow.xf = p.0;
    v.shallow.yf = p.1;
    s.bumps.push(Bump { x: p.0, y: p.1, parent: v.shallow_bump });
    v.shallow_bump = (s.bumps.len() - 1) as u32;
    let mut b = v.steep_bump;
    while b != NO_BUMP {
        let bump = s.bumps[b as usize];
        if v.shallow.above((bump.x, bump.y)) {
            v.shallow.xi = bump.x;
            v.shallow.yi = bump.y;
        }
        b = bump.parent;
    }
}

fn add_steep_bump(s: &mut Scratch, view: usize, p: (i64, i64)) {
    let v = &mut s.views[view];
    v.steep.xf = p.0;
    v.steep.yf = p.1;
    s.bumps.push(Bump { x: p.0, y: p.1, parent: v.steep_bump });
    v.steep_bump = (s.bumps.len() - 1) as u32;
    let mut b = v.shallow_bump;
    while b != NO_BUMP {
        let bump = s.bumps[b as usize];
        if v.steep.below((bump.x, bump.y)) {
            v.steep.xi = bump.x;
            v.steep.yi = bump.y;
        }
        b = bump.parent;
    }
}

/// Drops a view that has become a line through an extremity of the source; true if it stays.
fn check_view(s: &mut Scratch, view: usize) -> bool {
    let v = &s.views[view];
    if v.shallow.line_colinear(&v.steep)
        && (v.shallow.colinear(SOURCE_TOP_LEFT) || v.shallow.colinear(SOURCE_BOTTOM_RIGHT))
    {
        s.views.remove(view);
        return false;
    }
    true
}

/// An opaque cell with corners `top_left` and `bottom_right` inside view `view`: it narrows the
/// view (a bump on the side it touches), splits it (a shallower copy below it, the original
/// above it), or removes it when it fills it. (Inlined: called apart, the scan measured 5–7%
/// slower even on the open map, where it is never called.)
#[inline(always)]
fn block_view(s: &mut Scratch, view: usize, top_left: (i64, i64), bottom_right: (i64, i64)) {
    let above = s.views[view].shallow.above(bottom_right);
    let below = s.views[view].steep.below(top_left);
    if above && below {
        s.views.remove(view);
    } else if above {
        add_shallow_bump(s, view, top_left);
        check_view(s, view);
    } else if below {
        add_steep_bump(s, view, bottom_right);
        check_view(s, view);
    } else {
        let copy = s.views[view];
        s.views.insert(view, copy);
        add_steep_bump(s, view, bottom_right);
        let steeper = if check_view(s, view) { view + 1 } else { view };
        add_shallow_bump(s, steeper, top_left);
        check_view(s, steeper);
    }
}

/// Empties the scratch and starts a quadrant `ext_x` by `ext_y` cells with one view: the whole
/// quadrant, seen from the origin's square. (Inlined: called apart, the scan measured 7–9%
/// slower on the open map at r = 20 and 60.)
#[inline(always)]
fn start_views(s: &mut Scratch, ext_x: i32, ext_y: i32) {
    s.views.clear();
    s.bumps.clear();
    s.views.push(View {
        shallow: Line { xi: 0, yi: STEP, xf: STEP * i64::from(ext_x), yf: 0 },
        steep: Line { xi: STEP, yi: 0, xf: 0, yf: STEP * i64::from(ext_y) },
        shallow_bump: NO_BUMP,
        steep_bump: NO_BUMP,
    });
}

/// The smallest `b` in `from .. limit` with `f0 + m·b ≥ 0`, or `limit` if there is none.
#[inline]
fn first_non_negative(f0: i64, m: i64, from: i64, limit: i64) -> i64 {
    if f0 + m * from >= 0 {
        from
    } else if m <= 0 || f0 + m * (limit - 1) < 0 {
        // (Tested first, the usual case on open ground costs a product, not a division.)
        limit
    } else {
        // f0 + m·b ≥ 0 ⟺ b ≥ ⌈−f0 / m⌉ = −⌊f0 / m⌋.
        -f0.div_euclid(m)
    }
}

/// A line's relative slope to the points `(px, c + STEP·b)` of a column, as `f0 + m·b`.
#[inline]
fn along_column(l: &Line, px: i64, c: i64) -> (i64, i64) {
    (l.relative_slope(px, c), (l.xf - l.xi) * STEP)
}

/// One quadrant, a column at a time: column `a` (the scan's x) is the map row `a` rows from the
/// origin towards `dy`, its cell `b` (the scan's y) the one `b` cells from the origin towards
/// `dx`, so a column is read and lit as part of a map row.
///
/// Why columns: a cell can be hidden only by cells with both coordinates no larger (every line
/// from the origin's square to it stays in that box). Duerig's anti-diagonals reach a cell after
/// all of those, and so do columns taken in turn from `b = 0` up, which meet the views in the
/// order the list keeps them, shallowest first, as a diagonal does. The tests check that this
/// order gives the diagonal scan's views. For the same reason cells past the radius are not
/// scanned: they hide only cells further out.
///
/// Between two opaque cells in a view nothing changes, and a view's lines move by a constant
/// from one cell of a column to the next. So the cells a view holds, or passes over, are a run
/// found with at most one division, its clear cells are marked as one span, and only its first
/// wall is visited, found in the opacity word of the run.
///
/// The scan starts at row `first_row`, the rows before it open and lit ([`light_open_rows`]).
fn quadrant<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    s: &mut Scratch,
    radius_cols: &mut RadiusCols,
    (dx, dy, ext_x, ext_y): (i32, i32, i32, i32),
    first_row: i32,
) {
    let (ext_a, ext_b) = (ext_y, ext_x);
    if first_row > ext_a {
        return;
    }
    start_views(s, ext_a, ext_b);
    let lines = OctantLines { axis: Axis::Row, base: ctx.ox, sign: dx, line0: ctx.oy, line_step: dy };
    for a in first_row..=ext_a {
        // Only cells within the radius are scanned: a cell is hidden only by cells between it
        // and the origin, which are nearer.
        let last_b = i64::from(radius_cols.get(a).min(ext_b));
        if last_b < 0 {
            break;
        }
        let x = i64::from(a) * STEP;
        let mut b = i64::from(a == 0);
        let mut cur = 0;
        while b <= last_b && cur < s.views.len() {
            let view = &s.views[cur];
            // The cell's bottom-right corner against the steep line: at or above it, the view
            // is behind this cell and every later one.
            let (s0, sm) = along_column(&view.steep, x + STEP, 0);
            let end = first_non_negative(s0, sm, b, last_b + 1);
            if end == b {
                cur += 1;
                continue;
            }
            // The cell's top-left corner against the shallow line: at or below it, the cell
            // is under the view.
            let (h0, hm) = along_column(&view.shallow, x, STEP);
            if h0 + hm * b <= 0 {
                b = first_non_negative(h0 - 1, hm, b, end);
                continue;
            }
            let leaves = first_non_negative(-h0, -hm, b, end);
            // Cells b .. leaves are in the view: clear up to the first wall.
            let wall = lines.first_opaque_between(ctx.grid, a, b as i32, (leaves - 1) as i32).map(i64::from);
            let clear_to = wall.unwrap_or(leaves) - 1;
            if b <= clear_to {
                lines.mark(ctx, a, b as i32, clear_to as i32);
            }
            let Some(w) = wall else {
                b = leaves;
                continue;
            };
            if ctx.light_walls {
                lines.mark(ctx, a, w as i32, w as i32);
            }
            let y = w * STEP;
            block_view(s, cur, (x, y + STEP), (x + STEP, y));
            b = w + 1;
        }
    }
}

/// The four quadrants: each one's direction `(dx, dy)` and extent `(ext_x, ext_y)` (the reach,
/// cut at the map's edge).
fn quadrants<O: Opacity>(ctx: &FovContext<'_, O>) -> [(i32, i32, i32, i32); 4] {
    let r = ctx.reach;
    let min_x = ctx.ox.min(r);
    let max_x = (ctx.grid.width() - 1 - ctx.ox).min(r);
    let min_y = ctx.oy.min(r);
    let max_y = (ctx.grid.height() - 1 - ctx.oy).min(r);
    [(1, 1, max_x, max_y), (1, -1, max_x, min_y), (-1, -1, min_x, min_y), (-1, 1, min_x, max_y)]
}

/// Which of the `asked` sides of map row `y` hold no wall among their cells `b = from ..= m[side]`
/// counted from the origin's column (`side` 0 to the left, 1 to the right), and lights those
/// sides as one span (column 0 with them). A side not asked answers false, and only the cells
/// asked about are read; both sides are one word when they fit in one.
#[inline(always)]
fn light_open_sides<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    y: i32,
    from: i32,
    m: [i32; 2],
    asked: [bool; 2],
) -> [bool; 2] {
    let (grid, ox) = (ctx.grid, ctx.ox);
    // The row's cells, m[0] + 1 + m[1] of them, in one word?
    let walled = if m[0] + m[1] < 64 {
        // Bit i is column ox − m[0] + i: the left side's cells are bits 0 ..= m[0] − from, the
        // right side's bits m[0] + from ..= m[0] + m[1].
        let bits_from = |low: i32, high: i32| if low > high { 0 } else { u64::MAX >> (63 - (high - low)) << low };
        let left = if asked[0] { bits_from(0, m[0] - from) } else { 0 };
        let right = if asked[1] { bits_from(m[0] + from, m[0] + m[1]) } else { 0 };
        let bits = grid.line_bits_masked(Axis::Row, y, ox - m[0], left | right);
        [bits & left != 0, bits & right != 0]
    } else {
        let side = |k: usize, sign: i32| {
            let lines = OctantLines { axis: Axis::Row, base: ox, sign, line0: y, line_step: 0 };
            asked[k] && lines.first_opaque_between(grid, 0, from, m[k]).is_some()
        };
        [side(0, -1), side(1, 1)]
    };
    let open = [0, 1].map(|side| asked[side] && !walled[side]);
    if open != [false, false] {
        let reach = |side: usize| if open[side] { m[side] } else { 0 };
        ctx.visible.mark_row(y, ox - reach(0), ox + reach(1));
    }
    open
}

/// The rows that the two quadrants towards `dy` (`dx = −1`, then `dx = 1`) hold without a wall
/// among the cells they scan, lit a map row at a time; returns the row each quadrant's scan
/// starts at, its first row with a wall (past its last row when it has none).
///
/// Why the scan may start there: a quadrant's views change only at a wall, so up to that row it
/// holds its first view, the whole quadrant seen from the origin's square, which holds every
/// cell of those rows. From that row the scan goes on from its first state. The two quadrants
/// of a half share their map rows, so a row is read as one word and lit as one span, not
/// scanned twice with the arithmetic of a view's lines (about 15 ns a row on an open map).
///
/// Row 0, the origin's, belongs to all four quadrants: `row_0_open` says, for each side, whether
/// its cells hold no wall (read and lit once, by [`compute`]).
///
/// The cells read are those the scan would read in the same rows: a row that one view holds
/// whole is read whole, and the first row with a wall, where the scan starts, is read again.
fn light_open_rows<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    radius_cols: &mut RadiusCols,
    dy: i32,
    (ext_a, ext_left, ext_right): (i32, i32, i32),
    row_0_open: [bool; 2],
) -> [i32; 2] {
    let mut open = row_0_open;
    let mut first_closed = row_0_open.map(i32::from);
    for a in 1..=ext_a {
        let cols = radius_cols.get(a);
        if open == [false, false] || cols < 0 {
            break;
        }
        let m = [cols.min(ext_left), cols.min(ext_right)];
        open = light_open_sides(ctx, ctx.oy + a * dy, 0, m, open);
        for side in (0..2).filter(|&side| open[side]) {
            first_closed[side] = a + 1;
        }
    }
    first_closed
}

/// The view on a map one cell high or wide (or of radius 0), whose extents `(left, right, above,
/// below)` are 0 across it: each way along the map, the cells up to the first wall, and the wall
/// if walls are lit. By the definition: a line from the origin's square into a cell's interior
/// stays in the map's one row (column), as every cell off the map is a wall, so it crosses the
/// interior of every cell between them.
fn along_the_map<O: Opacity>(ctx: &mut FovContext<'_, O>, radius_cols: &mut RadiusCols, extents: [i32; 4]) {
    let (ox, oy, cols) = (ctx.ox, ctx.oy, radius_cols.get(0));
    let ways = [(Axis::Row, ox, oy, -1), (Axis::Row, ox, oy, 1), (Axis::Column, oy, ox, -1), (Axis::Column, oy, ox, 1)];
    for ((axis, base, line0, sign), extent) in ways.into_iter().zip(extents) {
        let lines = OctantLines { axis, base, sign, line0, line_step: 0 };
        let last = cols.min(extent);
        let wall = lines.first_opaque_between(ctx.grid, 0, 1, last);
        let clear_to = wall.map_or(last, |w| w - 1);
        if clear_to >= 1 {
            lines.mark(ctx, 0, 1, clear_to);
        }
        if let Some(w) = wall.filter(|_| ctx.light_walls) {
            lines.mark(ctx, 0, w, w);
        }
    }
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    SCRATCH.with(|scratch| {
        let mut s = scratch.borrow_mut();
        with_radius_cols(ctx.radius_squared, |radius_cols| {
            let [(_, _, right, below), (_, _, _, above), (_, _, left, _), _] = quadrants(ctx);
            if above.max(below) == 0 || left.max(right) == 0 {
                along_the_map(ctx, radius_cols, [left, right, above, below]);
                return;
            }
            // A quadrant of no width (an origin on the map's left or right edge) starts with a
            // view of zero width, which sees none of its cells (as libtcod's scan): it has no
            // open row, and the quadrant beside it sees the origin's column. Row 0's side is
            // read and lit here only for a quadrant that has width (there are rows above or
            // below: the map is more than one cell high).
            let sides_read = [left > 0, right > 0];
            // Row 0: the cells 1 ..= m each side of the origin's.
            let cols = radius_cols.get(0);
            let m = [cols.min(left), cols.min(right)];
            let row_0_open = light_open_sides(ctx, ctx.oy, 1, m, sides_read);
            for (dy, ext_a) in [(1, below), (-1, above)] {
                let first_rows = light_open_rows(ctx, radius_cols, dy, (ext_a, left, right), row_0_open);
                for (dx, first_row) in [-1, 1].into_iter().zip(first_rows) {
                    let ext_b = if dx < 0 { left } else { right };
                    quadrant(ctx, &mut s, radius_cols, (dx, dy, ext_b, ext_a), first_row);
                }
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::reference::{assert_same_views, view_of};
    use crate::core::fov::{Algorithm, OpacityGrid};

    // Duerig's scan as libtcod runs it, by anti-diagonals a cell at a time, testing each cell's
    // corners against the view's lines with two products each: the definition the column runs
    // must reproduce.
    fn cell_by_cell_quadrant(
        ctx: &mut FovContext<'_, OpacityGrid>,
        s: &mut Scratch,
        dx: i32,
        dy: i32,
        ext_x: i32,
        ext_y: i32,
    ) {
        start_views(s, ext_x, ext_y);
        for i in 1..=ext_x + ext_y {
            let mut cur = 0;
            for j in (i - ext_x).max(0)..=i.min(ext_y) {
                if s.views.is_empty() || cur == s.views.len() {
                    break;
                }
                let (cx, cy) = (i - j, j);
                let (x, y) = (i64::from(cx) * STEP, i64::from(cy) * STEP);
                let top_left = (x, y + STEP);
                let bottom_right = (x + STEP, y);
                while cur < s.views.len() && s.views[cur].steep.below_or_colinear(bottom_right) {
                    cur += 1;
                }
                if cur == s.views.len() {
                    break;
                }
                if s.views[cur].shallow.above_or_colinear(top_left) {
                    continue;
                }
                let (mx, my) = (ctx.ox + cx * dx, ctx.oy + cy * dy);
                let (rx, ry) = (cx * dx, cy * dy);
                if ctx.in_radius(rx, ry) {
                    ctx.reveal(mx, my);
                }
                if !ctx.is_opaque(mx, my) {
                    continue;
                }
                block_view(s, cur, top_left, bottom_right);
            }
        }
    }

    fn cell_by_cell(ctx: &mut FovContext<'_, OpacityGrid>) {
        let [(_, _, right, below), (_, _, _, above), (_, _, left, _), _] = quadrants(ctx);
        if above.max(below) == 0 || left.max(right) == 0 {
            // A map one cell high or wide: libtcod's quadrants have no width and see nothing;
            // the definition sees along the map, cell by cell up to the first wall.
            for ((dx, dy), extent) in [(-1, 0), (1, 0), (0, -1), (0, 1)].into_iter().zip([left, right, above, below]) {
                for k in 1..=extent {
                    let (x, y) = (ctx.ox + k * dx, ctx.oy + k * dy);
                    if !ctx.in_radius(k, 0) {
                        break;
                    }
                    ctx.reveal(x, y);
                    if ctx.is_opaque(x, y) {
                        break;
                    }
                }
            }
            return;
        }
        SCRATCH.with(|scratch| {
            let mut s = scratch.borrow_mut();
            for (dx, dy, ext_x, ext_y) in quadrants(ctx) {
                cell_by_cell_quadrant(ctx, &mut s, dx, dy, ext_x, ext_y);
            }
        });
    }

    #[test]
    fn column_runs_give_the_diagonal_scan_view() {
        for (seed, densities) in
            [(61, [0.0, 0.05, 0.2, 0.35]), (62, [0.1, 0.3, 0.45, 0.6]), (63, [0.02, 0.15, 0.25, 0.5])]
        {
            assert_same_views(Algorithm::Permissive, seed, densities, |grid, params| {
                view_of(grid, params, cell_by_cell)
            });
        }
    }

    /// Maps with a few walls, far apart: each quadrant's rows up to its first wall (or the
    /// map's edge, or the radius) are lit by `light_open_rows` and the scan goes on from there.
    /// Maps of one row or one column are among them: there a quadrant has no open row.
    #[test]
    fn open_rows_up_to_a_lone_wall_give_the_diagonal_scan_view() {
        for seed in [64, 65] {
            assert_same_views(Algorithm::Permissive, seed, [0.0005, 0.001, 0.002, 0.004], |grid, params| {
                view_of(grid, params, cell_by_cell)
            });
        }
    }

    /// Every wall pattern of a 4 × 4 map from every origin: extents of 0 to 3 cells each way,
    /// the map's edges on every side, walls on the axes and diagonals.
    #[test]
    fn every_4x4_map_gives_the_diagonal_scan_view() {
        use crate::core::Cell;
        use crate::core::fov::{FovParams, VisibleSet, compute};
        let mut grid = OpacityGrid::new(4, 4);
        let mut visible = VisibleSet::new(4, 4);
        for pattern in 0u32..1 << 16 {
            for i in 0..16 {
                grid.set(i % 4, i / 4, pattern >> i & 1 != 0);
            }
            for i in 0..16 {
                let radius = [None, Some(2), Some(1)][(pattern as usize + i as usize) % 3];
                let params = FovParams { origin: Cell::new(i % 4, i / 4), radius, light_walls: pattern % 5 != 0 };
                compute(Algorithm::Permissive, &grid, params, &mut visible);
                let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
                assert_eq!(ours, view_of(&grid, params, cell_by_cell), "pattern {pattern:#06x}, {params:?}");
            }
        }
    }
}
