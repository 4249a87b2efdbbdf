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

use std::cell::RefCell;

use super::{Axis, FovContext, OCTANTS, OctantLines, Opacity, Ratio, with_radius_cols};

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

/// Adds a shadow to a sorted, disjoint line, merging it with the shadows it overlaps.
fn add(line: &mut Vec<Shadow>, shadow: Shadow) {
    let index = line.iter().position(|s| shadow.start.lt(s.start)).unwrap_or(line.len());
    let overlaps_previous = index > 0 && shadow.start.lt(line[index - 1].end);
    let overlaps_next = index < line.len() && line[index].start.lt(shadow.end);
    match (overlaps_previous, overlaps_next) {
        (true, true) => {
            line[index - 1].end = line[index].end;
            line.remove(index);
        }
        (true, false) => {
            if line[index - 1].end.lt(shadow.end) {
                line[index - 1].end = shadow.end;
            }
        }
        (false, true) => line[index].start = shadow.start,
        (false, false) => line.insert(index, shadow),
    }
}

/// While the shadow line is empty nothing is hidden: the clear tiles of a row up to its first
/// wall are lit as one span, found a 64-tile word at a time; from the first wall on (and on every
/// row once the line holds a shadow) the tiles are tested one by one, as Nystrom does.
pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    SHADOWS.with(|cell| {
        with_radius_cols(ctx.radius_squared, |radius_cols| {
            let mut line = cell.borrow_mut();
            for octant in OCTANTS {
                line.clear();
                let lines = OctantLines::new((ctx.ox, ctx.oy), octant);
                let (along, across) = match lines.axis {
                    Axis::Row => (ctx.grid.width(), ctx.grid.height()),
                    Axis::Column => (ctx.grid.height(), ctx.grid.width()),
                };
                // The last column on the map (the origin's, column 0, always is).
                let last_on_map = if lines.sign > 0 { along - 1 - lines.base } else { lines.base };
                'rows: for row in 1..=ctx.reach {
                    if (lines.line(row) as u32) >= across as u32 {
                        // Column 0 is off the map: so is every further row.
                        break;
                    }
                    let last = row.min(last_on_map);
                    let radius_col = radius_cols.get(row);
                    let mut first = 0;
                    if line.is_empty() {
                        // The first wall of the row (or one past the end).
                        let mut low = 0;
                        first = last + 1;
                        while low <= last {
                            let high = (low + 63).min(last);
                            if let Some(wall) = lines.first_opaque(ctx.grid, row, low, high) {
                                first = wall;
                                break;
                            }
                            low = high + 1;
                        }
                        let lit = (first - 1).min(radius_col);
                        if lit >= 0 {
                            lines.mark(ctx, row, 0, lit);
                        }
                    }
                    let r = i64::from(row);
                    for col in first..=last {
                        let (x, y) = lines.cell(row, col);
                        let c = i64::from(col);
                        let projection = Shadow { start: Ratio::new(c, r + 2), end: Ratio::new(c + 1, r + 1) };
                        if line.iter().any(|s| s.contains(&projection)) {
                            continue;
                        }
                        if col <= radius_col {
                            ctx.reveal(x, y);
                        }
                        if ctx.is_opaque(x, y) {
                            add(&mut line, projection);
                            let full = line.len() == 1 && line[0].start.num == 0 && line[0].end.num >= line[0].end.den;
                            if full {
                                break 'rows;
                            }
                        }
                    }
                }
            }
        })
    });
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
}
