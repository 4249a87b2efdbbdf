//! `circle`: every cell within the radius is visible; nothing occludes.
//!
//! Source: the simplest FOV there is, as in the Picotron roguelike tutorial (a distance check,
//! no walls). Properties: symmetric; the superset of every other algorithm here (each of them only
//! removes cells from this disc); with `light_walls = false` opaque cells are left out.

use super::{FovContext, Opacity};

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let r = ctx.reach;
    for dy in -r..=r {
        let y = ctx.oy + dy;
        if y < 0 || y >= ctx.grid.height() {
            continue;
        }
        for dx in -r..=r {
            let x = ctx.ox + dx;
            if x >= 0 && x < ctx.grid.width() && ctx.in_radius(dx, dy) {
                ctx.reveal(x, y);
            }
        }
    }
}
