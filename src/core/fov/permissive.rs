//! `permissive`: precise permissive FOV, Jonathon Duerig's algorithm (libtcod FOV_PERMISSIVE_8).
//!
//! Definition: a cell is visible when some unobstructed line joins a point of the origin's square
//! to a point of the cell's square (RogueBasin, "Precise Permissive Field of View"). Duerig's
//! corner rules hold: the extreme corners of walls are open (lines may graze wall corners and
//! edges); a target must be crossed in its interior, not touched at a corner; a zero-width view
//! through an extremity of the source square is dropped.
//!
//! Source: Duerig's `permissive-fov.cc` (2007) and libtcod `src/libtcod/fov_permissive2.c` at
//! permissiveness 8, which this follows: per quadrant, cells are visited by anti-diagonals of
//! growing Manhattan distance in units of 16 per cell, against a list of active views (each a
//! shallow and a steep line with the chains of wall corners — "bumps" — that bent them); an opaque
//! cell narrows, splits or removes the view it falls in. All arithmetic is integer.
//!
//! Radius: libtcod and Duerig limit the view to a square; we limit each quadrant to the radius'
//! square and then keep the cells with `dx² + dy² ≤ r²`, which keeps the result symmetric.
//! Properties: symmetric; no blind corners; expansive walls; very permissive around corners; no
//! expanding pillar shadows.

use std::cell::RefCell;

use super::{FovContext, Opacity};

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

fn quadrant<O: Opacity>(ctx: &mut FovContext<'_, O>, s: &mut Scratch, dx: i32, dy: i32, ext_x: i32, ext_y: i32) {
    start_views(s, ext_x, ext_y);
    for i in 1..=ext_x + ext_y {
        let mut cur = 0;
        // The relative slopes of view `cur`'s steep line to the cell's bottom-right corner and of
        // its shallow line to the cell's top-left corner, and their steps: along the diagonal
        // both corners move by (−STEP, +STEP) a cell, so the slopes change by a constant, and are
        // kept by an addition a cell until the view changes. `None`: to be computed.
        let mut kept: Option<Slopes> = None;
        'cells: for j in (i - ext_x).max(0)..=i.min(ext_y) {
            if s.views.is_empty() || cur == s.views.len() {
                break;
            }
            let (cx, cy) = (i - j, j);
            let (x, y) = (i64::from(cx) * STEP, i64::from(cy) * STEP);
            let top_left = (x, y + STEP);
            let bottom_right = (x + STEP, y);
            // Views whose steep line passes at or below the cell are behind it.
            let shallow = loop {
                let slopes = *kept.get_or_insert_with(|| Slopes::of(&s.views[cur], top_left, bottom_right));
                if slopes.steep < 0 {
                    break slopes.shallow;
                }
                cur += 1;
                kept = None;
                if cur == s.views.len() {
                    break 'cells;
                }
            };
            if shallow <= 0 {
                // The view's shallow line passes at or above the cell.
                advance(&mut kept);
                continue;
            }
            let (mx, my) = (ctx.ox + cx * dx, ctx.oy + cy * dy);
            let opaque = ctx.is_opaque(mx, my);
            if (ctx.light_walls || !opaque) && ctx.in_radius(cx * dx, cy * dy) {
                ctx.visible.mark(mx, my);
            }
            if !opaque {
                advance(&mut kept);
                continue;
            }
            kept = None;
            block_view(s, cur, top_left, bottom_right);
        }
    }
}

/// A view's lines against the cell under scan (see `quadrant`).
#[derive(Clone, Copy)]
struct Slopes {
    steep: i64,
    shallow: i64,
    steep_step: i64,
    shallow_step: i64,
}

impl Slopes {
    #[inline]
    fn of(view: &View, top_left: (i64, i64), bottom_right: (i64, i64)) -> Self {
        let step = |l: &Line| STEP * ((l.yf - l.yi) + (l.xf - l.xi));
        Slopes {
            steep: view.steep.relative_slope(bottom_right.0, bottom_right.1),
            shallow: view.shallow.relative_slope(top_left.0, top_left.1),
            steep_step: step(&view.steep),
            shallow_step: step(&view.shallow),
        }
    }
}

/// Moves the kept slopes on to the next cell of the diagonal.
#[inline(always)]
fn advance(kept: &mut Option<Slopes>) {
    if let Some(s) = kept {
        s.steep += s.steep_step;
        s.shallow += s.shallow_step;
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

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    SCRATCH.with(|scratch| {
        let mut s = scratch.borrow_mut();
        for (dx, dy, ext_x, ext_y) in quadrants(ctx) {
            quadrant(ctx, &mut s, dx, dy, ext_x, ext_y);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::reference::{assert_same_views, view_of};
    use crate::core::fov::{Algorithm, OpacityGrid};

    // The scan as it was before the slopes were kept, testing each cell's corners against the
    // view's lines with two products each.
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
        SCRATCH.with(|scratch| {
            let mut s = scratch.borrow_mut();
            for (dx, dy, ext_x, ext_y) in quadrants(ctx) {
                cell_by_cell_quadrant(ctx, &mut s, dx, dy, ext_x, ext_y);
            }
        });
    }

    #[test]
    fn kept_slopes_give_the_cell_by_cell_view() {
        for (seed, densities) in [(61, [0.0, 0.05, 0.2, 0.35]), (62, [0.1, 0.3, 0.45, 0.6])] {
            assert_same_views(Algorithm::Permissive, seed, densities, |grid, params| {
                view_of(grid, params, cell_by_cell)
            });
        }
    }
}
