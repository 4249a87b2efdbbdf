//! `ray`: Bresenham rays from the origin to every cell on the perimeter of the radius' square,
//! each stopping at the first opaque cell; then walls next to lit floor are lit.
//!
//! Source: libtcod FOV_BASIC, `src/libtcod/fov_circular_raycasting.c` (libtcod ≥ 1.16, after
//! issue #77), the FOV of the Terminus and Caves of Zircon tutorials:
//! - Rays go to every cell on the perimeter of the box `[ox - r, ox + r] × [oy - r, oy + r]`
//!   clipped to the map (with no radius: the map's border).
//! - Lines are libtcod's `TCOD_line`: the major axis is the strictly longer one (x only when
//!   |dx| > |dy|), and after `k` major steps the minor offset is `ceil(k·|minor|/|major| − ½)`:
//!   exact halves round toward the start. The origin is not part of the line.
//! - A ray stops beyond the radius (`dx² + dy² > r²`) or at the first opaque cell, which is lit
//!   when walls are.
//! - With `light_walls`, libtcod's post-processing then lights every opaque cell that is the
//!   outward horizontal, vertical or diagonal neighbour (away from the origin, in the same
//!   quadrant) of a lit transparent cell. libtcod does that without a radius test; we keep it
//!   within the radius, as the shared contract requires.
//!
//! Properties: not symmetric (lines are not reversible); ray gaps: some floor cells no ray passes
//! through stay dark, and which ones depends on the radius; pillars cast ragged shadows.

use super::{FovContext, Opacity};

/// The minor-axis offset after `k` steps along a `TCOD_line` with `major` steps and `minor`
/// offset in all (`|minor| ≤ major`): `ceil(k·|minor|/major − ½)`, signed like `minor`.
#[inline]
pub(crate) fn tcod_line_minor(k: i32, minor: i32, major: i32) -> i32 {
    let m = minor.abs();
    let v = (2 * k * m + major - 1).div_euclid(2 * major);
    if minor < 0 { -v } else { v }
}

fn cast<O: Opacity>(ctx: &mut FovContext<'_, O>, tx: i32, ty: i32) {
    let x_major = tx.abs() > ty.abs();
    let n = if x_major { tx.abs() } else { ty.abs() };
    for k in 1..=n {
        let (dx, dy) = if x_major {
            (k * tx.signum(), tcod_line_minor(k, ty, n))
        } else {
            (tcod_line_minor(k, tx, n), k * ty.signum())
        };
        if !ctx.in_radius(dx, dy) {
            return;
        }
        let (x, y) = (ctx.ox + dx, ctx.oy + dy);
        if ctx.is_opaque(x, y) {
            ctx.reveal(x, y);
            return;
        }
        ctx.visible.mark(x, y);
    }
}

/// The box rays aim at: the radius' square clipped to the map, inclusive.
pub(crate) fn ray_box<O: Opacity>(ctx: &FovContext<'_, O>) -> (i32, i32, i32, i32) {
    let r = ctx.reach;
    (
        (ctx.ox - r).max(0),
        (ctx.oy - r).max(0),
        (ctx.ox + r).min(ctx.grid.width() - 1),
        (ctx.oy + r).min(ctx.grid.height() - 1),
    )
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let (x0, y0, x1, y1) = ray_box(ctx);
    let (ox, oy) = (ctx.ox, ctx.oy);
    for x in x0..=x1 {
        cast(ctx, x - ox, y0 - oy);
        cast(ctx, x - ox, y1 - oy);
    }
    for y in y0 + 1..y1 {
        cast(ctx, x0 - ox, y - oy);
        cast(ctx, x1 - ox, y - oy);
    }
    if ctx.light_walls {
        light_walls_outward(ctx, (x0, y0, x1, y1));
    }
}

/// libtcod's `TCOD_map_postprocess`, kept within the radius: in each quadrant box (sharing the
/// origin's row and column), an opaque cell next to a lit transparent cell, on the side away from
/// the origin (horizontally, vertically or diagonally), is lit.
pub(crate) fn light_walls_outward<O: Opacity>(ctx: &mut FovContext<'_, O>, (x0, y0, x1, y1): (i32, i32, i32, i32)) {
    let (ox, oy) = (ctx.ox, ctx.oy);
    for (bx0, by0, bx1, by1, sx, sy) in
        [(x0, y0, ox, oy, -1, -1), (ox, y0, x1, oy, 1, -1), (x0, oy, ox, y1, -1, 1), (ox, oy, x1, y1, 1, 1)]
    {
        for cx in bx0..=bx1 {
            for cy in by0..=by1 {
                if !ctx.visible.contains(cx, cy) || ctx.is_opaque(cx, cy) {
                    continue;
                }
                let (nx, ny) = (cx + sx, cy + sy);
                let x_in = (bx0..=bx1).contains(&nx);
                let y_in = (by0..=by1).contains(&ny);
                for (ok, x, y) in [(x_in, nx, cy), (y_in, cx, ny), (x_in && y_in, nx, ny)] {
                    if ok && ctx.is_opaque(x, y) && ctx.in_radius(x - ox, y - oy) {
                        ctx.visible.mark(x, y);
                    }
                }
            }
        }
    }
}
