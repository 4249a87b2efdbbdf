//! `shadowline`: Bob Nystrom's shadow-line shadowcasting, over eight octants.
//!
//! Source: Bob Nystrom, "What the Hero Sees: Field-of-View for Roguelikes" (journal.stuffwithstuff.com,
//! 2015) and Hauberk's `fov.dart`; the FOV of the jsrlt tutorial. Each octant is scanned row by
//! row (row ≥ 1, columns 0 to row). A tile at (row, col) projects onto the shadow line as the
//! interval `[col / (row + 2), (col + 1) / (row + 1)]`. A tile is visible unless one shadow
//! already on the line contains its whole projection; a visible opaque tile adds its projection to
//! the line (merged with the shadows it overlaps). Once one shadow covers `[0, 1]` the octant is
//! done. Slopes are compared as exact rationals.
//!
//! Properties: not symmetric; opaque tiles bounding the view are visible; fairly permissive
//! around corners (a tile is hidden only when fully covered).
//!
//! How it is computed: Nystrom tests each tile against each shadow. Here a row is read as 64-tile
//! opacity words and lit as spans: before the first wall nothing is hidden; after it, each shadow
//! hides one interval of the row's columns, found with two divisions (see [`obstructed_row`]).
//! The order of Nystrom's loop is kept (a wall's shadow joins the line before the next tile is
//! tested), and `runs_give_the_tile_by_tile_view` tests the result against his loop. The rows
//! before an octant's first wall within the radius are found and lit for all eight octants at
//! once (`open_rows.rs`), and its scan starts after them.

use std::cell::RefCell;

use super::open_rows::{RowExtent, light_open_rows};
use super::{Axis, FovContext, OCTANTS, OctantLines, Opacity, Ratio, floor_div, with_radius_cols};

#[derive(Clone, Copy, Debug)]
struct Shadow {
    start: Ratio,
    end: Ratio,
}

impl Shadow {
    #[inline]
    fn contains(&self, other: &Shadow) -> bool {
        self.start.le(other.start) && other.end.le(self.end)
    }
}

thread_local! {
    /// The shadow line, reused between calls so a computation allocates nothing once warm.
    static SHADOWS: RefCell<Vec<Shadow>> = const { RefCell::new(Vec::new()) };
}

/// Adds a shadow to a sorted, disjoint line, merging it with the shadows it overlaps. Returns the
/// index of the shadow it went into: the line's shadows before that index are unchanged.
fn add(line: &mut Vec<Shadow>, shadow: Shadow) -> usize {
    let index = line.iter().position(|s| shadow.start.lt(s.start)).unwrap_or(line.len());
    let overlaps_previous = index > 0 && shadow.start.lt(line[index - 1].end);
    let overlaps_next = index < line.len() && line[index].start.lt(shadow.end);
    match (overlaps_previous, overlaps_next) {
        (true, true) => {
            line[index - 1].end = line[index].end;
            line.remove(index);
            index - 1
        }
        (true, false) => {
            if line[index - 1].end.lt(shadow.end) {
                line[index - 1].end = shadow.end;
            }
            index - 1
        }
        (false, true) => {
            line[index].start = shadow.start;
            index
        }
        (false, false) => {
            line.insert(index, shadow);
            index
        }
    }
}

/// The columns of row `row` whose whole projection `[col / (row + 2), (col + 1) / (row + 1)]`
/// lies in `shadow`: from `ceil(start · (row + 2))` to `floor(end · (row + 1)) − 1` (empty when
/// the first exceeds the second).
#[inline]
fn hidden_columns(shadow: &Shadow, row: i64) -> (i64, i64) {
    let (start, end) = (shadow.start, shadow.end);
    // Every slope is a tile's corner, `col / (row + 2)` or `(col + 1) / (row + 1)`, with
    // 0 ≤ col ≤ row: no sign to correct for, and 32 bits unless rows reach tens of thousands.
    let (a, b) = (start.num * (row + 2) + start.den - 1, end.num * (row + 1));
    let fits = |n: i64| u32::try_from(n).is_ok();
    if fits(a) && fits(b) && fits(start.den) && fits(end.den) {
        let first = (a as u32 / start.den as u32) as i64;
        let last = (b as u32 / end.den as u32) as i64 - 1;
        (first, last)
    } else {
        (floor_div(a, start.den), floor_div(b, end.den) - 1)
    }
}

/// While the shadow line is empty nothing is hidden: the clear tiles of a row up to its first
/// wall are lit as one span, found a 64-tile word at a time. From the first wall on, the line
/// holds shadows (none is ever taken off) and the rows are [`obstructed_row`]'s. The two phases
/// are two loops, so that the first stays small: in one loop, the open map's rows measured 3–6%
/// slower.
pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    SHADOWS.with(|cell| {
        with_radius_cols(ctx.radius_squared, |radius_cols| {
            let mut line = cell.borrow_mut();
            let open = light_open_rows(ctx, radius_cols, u8::MAX, 1, RowExtent::WithinRadius);
            for octant in OCTANTS {
                line.clear();
                let lines = OctantLines::new((ctx.ox, ctx.oy), octant);
                let (along, across) = match lines.axis {
                    Axis::Row => (ctx.grid.width(), ctx.grid.height()),
                    Axis::Column => (ctx.grid.height(), ctx.grid.width()),
                };
                // The last column on the map (the origin's, column 0, always is).
                let last_on_map = if lines.sign > 0 { along - 1 - lines.base } else { lines.base };
                // The last row on the map (past it, column 0 is off the map, and so every row).
                let rows_on_map = if lines.line_step > 0 { across - 1 - lines.line0 } else { lines.line0 };
                let last_row = ctx.reach.min(rows_on_map);
                // While the line is empty: lit up to each row's first wall.
                let mut row = open.first_closed(&lines);
                while row <= last_row {
                    let last = row.min(last_on_map);
                    let radius_col = radius_cols.get(row);
                    let first = lines.first_opaque_between(ctx.grid, row, 0, last);
                    let lit = first.map_or(last, |w| w - 1).min(radius_col);
                    if lit >= 0 {
                        lines.mark(ctx, row, 0, lit);
                    }
                    row += 1;
                    if let Some(first) = first {
                        if obstructed_row(ctx, &lines, &mut line, row - 1, first, last, radius_col) {
                            row = last_row + 1;
                        }
                        break;
                    }
                }
                // The line holds shadows from here on (they are never taken off).
                while row <= last_row {
                    let last = row.min(last_on_map);
                    if obstructed_row(ctx, &lines, &mut line, row, 0, last, radius_cols.get(row)) {
                        break;
                    }
                    row += 1;
                }
            }
        })
    });
}

/// Columns `first ..= last` of row `row` (`first` a wall when the line is empty); whether the
/// line is then full (the octant is done).
///
/// Each shadow hides one interval of the row's columns (those whose projection it contains, see
/// [`hidden_columns`]); the line is sorted and disjoint, so these intervals are too, and the
/// stretches between them are lit as spans up to their first wall. A visible wall changes the
/// line at once, as in Nystrom's tile-by-tile loop (a merged shadow can hide the tiles after it
/// on the same row), so the scan goes on from the shadow it went into. Rows before
/// [`SHORT_ROW`] are tested tile by tile, as Nystrom does.
#[inline(always)]
fn obstructed_row<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    lines: &OctantLines,
    line: &mut Vec<Shadow>,
    row: i32,
    first: i32,
    last: i32,
    radius_col: i32,
) -> bool {
    let r = i64::from(row);
    let projection = |col: i32| {
        let c = i64::from(col);
        Shadow { start: Ratio::new(c, r + 2), end: Ratio::new(c + 1, r + 1) }
    };
    if row < SHORT_ROW {
        for col in first..=last {
            let projection = projection(col);
            if line.iter().any(|s| s.contains(&projection)) {
                continue;
            }
            let (x, y) = lines.cell(row, col);
            if col <= radius_col {
                ctx.reveal(x, y);
            }
            if ctx.is_opaque(x, y) {
                add(line, projection);
                if is_full(line) {
                    return true;
                }
            }
        }
        return false;
    }
    // The next column to scan, and the first shadow whose hidden columns may reach it.
    let (mut col, mut shadow) = (first, 0);
    while col <= last {
        // The columns from `col` up to the next shadow's hidden ones are visible.
        let mut stop = last;
        if shadow < line.len() {
            let (hidden_first, hidden_last) = hidden_columns(&line[shadow], r);
            if hidden_last < hidden_first.max(i64::from(col)) {
                // It hides nothing from `col` on.
                shadow += 1;
                continue;
            }
            if hidden_first <= i64::from(col) {
                col = (hidden_last + 1).min(i64::from(last) + 1) as i32;
                shadow += 1;
                continue;
            }
            stop = (hidden_first - 1).min(i64::from(last)) as i32;
        }
        let wall = lines.first_opaque_between(ctx.grid, row, col, stop);
        let lit = wall.map_or(stop, |w| w - 1).min(radius_col);
        if col <= lit {
            lines.mark(ctx, row, col, lit);
        }
        let Some(wall) = wall else {
            col = stop + 1;
            continue;
        };
        if wall <= radius_col {
            let (x, y) = lines.cell(row, wall);
            ctx.reveal(x, y);
        }
        shadow = add(line, projection(wall));
        if is_full(line) {
            return true;
        }
        col = wall + 1;
    }
    false
}

/// Rows before this one (rows 1 to 3, of 2 to 4 tiles) are scanned tile by tile once the line
/// holds a shadow: the hidden columns cost two divisions a shadow, more than testing a few tiles.
const SHORT_ROW: i32 = 4;

/// Whether one shadow covers the whole line, `[0, 1]`: the octant is done.
#[inline]
fn is_full(line: &[Shadow]) -> bool {
    line.len() == 1 && line[0].start.num == 0 && line[0].end.num >= line[0].end.den
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::Algorithm;
    use crate::core::fov::reference::{assert_same_views, view_of};

    // The shadow line tile by tile (the implementation before runs): the definition the
    // run-based scan must reproduce.
    fn reference<O: Opacity>(ctx: &mut FovContext<'_, O>) {
        SHADOWS.with(|cell| {
            let mut line = cell.borrow_mut();
            for (xx, xy, yx, yy) in OCTANTS {
                line.clear();
                let mut full_shadow = false;
                'rows: for row in 1..=ctx.reach {
                    for col in 0..=row {
                        let (dx, dy) = (col * xx + row * xy, col * yx + row * yy);
                        let (x, y) = (ctx.ox + dx, ctx.oy + dy);
                        if x < 0 || y < 0 || x >= ctx.grid.width() || y >= ctx.grid.height() {
                            if col == 0 {
                                break 'rows;
                            }
                            break;
                        }
                        let (c, r) = (i64::from(col), i64::from(row));
                        let projection = Shadow { start: Ratio::new(c, r + 2), end: Ratio::new(c + 1, r + 1) };
                        if line.iter().any(|s| s.contains(&projection)) {
                            continue;
                        }
                        if ctx.in_radius(dx, dy) {
                            ctx.reveal(x, y);
                        }
                        if ctx.is_opaque(x, y) {
                            add(&mut line, projection);
                            full_shadow =
                                line.len() == 1 && line[0].start.num == 0 && line[0].end.num >= line[0].end.den;
                            if full_shadow {
                                break 'rows;
                            }
                        }
                    }
                }
                let _ = full_shadow;
            }
        });
    }

    /// The faster version gives the earlier one's view.
    #[test]
    fn runs_give_the_tile_by_tile_view() {
        assert_same_views(Algorithm::Shadowline, 43, [0.0, 0.03, 0.15, 0.4], |grid, params| {
            view_of(grid, params, reference)
        });
    }

    /// On maps with a few walls far apart, octants open for tens of rows end at a lone wall
    /// (or the map's edge): the open rows found and lit at once (`open_rows.rs`) give the
    /// scan's view.
    #[test]
    fn open_rows_up_to_a_lone_wall_give_the_scans_view() {
        assert_same_views(Algorithm::Shadowline, 47, [0.0005, 0.001, 0.002, 0.004], |grid, params| {
            view_of(grid, params, reference)
        });
    }
}
