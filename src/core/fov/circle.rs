//! `circle`: every cell within the radius is visible; nothing occludes.
//!
//! Source: the simplest FOV there is, as in the Picotron roguelike tutorial (a distance check,
//! no walls). Properties: symmetric; the superset of every other algorithm here (each of them only
//! removes cells from this disc); with `light_walls = false` opaque cells are left out.
//!
//! Each row of the disc is one span, written a word at a time (without lit walls, the clear runs
//! of the row, found a word of opacity at a time).

use super::{Axis, FovContext, Opacity, with_radius_cols};

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        let r = ctx.reach;
        for dy in -r..=r {
            let y = ctx.oy + dy;
            if y < 0 || y >= ctx.grid.height() {
                continue;
            }
            let half = radius_cols.get(dy.abs()).min(r);
            if half < 0 {
                continue;
            }
            let (from, to) = ((ctx.ox - half).max(0), (ctx.ox + half).min(ctx.grid.width() - 1));
            if ctx.light_walls {
                ctx.mark_run(Axis::Row, y, from, to);
                continue;
            }
            let mut x = from;
            while x <= to {
                let (opaque, last) = ctx.grid.run(Axis::Row, y, x, to);
                if !opaque {
                    ctx.mark_run(Axis::Row, y, x, last);
                }
                x = last + 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::core::fov::reference::random_grid;
    use crate::core::fov::{Algorithm, FovParams, Opacity, OpacityGrid, VisibleSet, compute};
    use crate::core::model::geometry::Cell;
    use crate::core::rng::Rng;

    /// A radius past i32 (its square still fits i64) is as good as unlimited.
    #[test]
    fn a_huge_radius_sees_the_whole_map() {
        let grid = OpacityGrid::new(70, 3);
        for algorithm in Algorithm::ALL {
            let mut visible = VisibleSet::new(70, 3);
            compute(algorithm, &grid, FovParams::new(Cell::new(1, 1), Some(3_000_000_000)), &mut visible);
            assert_eq!(visible.count(), 210, "{algorithm}");
        }
    }

    /// The view is exactly the disc dx² + dy² ≤ r² on the map (less its opaque cells when walls
    /// are not lit), for origins anywhere, radii across word sizes, and no radius.
    #[test]
    fn the_view_is_the_disc() {
        let mut rng = Rng::new(41);
        for round in 0..300 {
            let (w, h) = (1 + rng.below(140), 1 + rng.below(70));
            let grid = random_grid(&mut rng, w, h, 0.3);
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let radius = [None, Some(rng.below(90))][round % 2];
            let params = FovParams { origin, radius, light_walls: round % 3 != 0 };
            let mut visible = VisibleSet::new(w, h);
            compute(Algorithm::Circle, &grid, params, &mut visible);
            let r2 = radius.map_or(i64::MAX, |r| i64::from(r) * i64::from(r));
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let (dx, dy) = (i64::from(x - origin.x), i64::from(y - origin.y));
                    let expected = (x, y) == (origin.x, origin.y)
                        || (dx * dx + dy * dy <= r2 && (params.light_walls || !grid.is_opaque(x, y)));
                    assert_eq!(visible.contains(x, y), expected, "round {round}: ({x}, {y}) {params:?}");
                }
            }
        }
    }
}
