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

use super::{FovContext, OCTANTS, Opacity, Ratio};

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

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
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
                        full_shadow = line.len() == 1 && line[0].start.num == 0 && line[0].end.num >= line[0].end.den;
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
