//! `milazzo`: Adam Milazzo's algorithm with beveled walls.
//!
//! Source: Adam Milazzo, "Roguelike Vision Algorithms" (adammil.net, 2014), "My algorithm", his
//! C# `MyVisibility.Compute`, which this follows with its default visibility rule. It is shadow
//! casting from the centre of the origin's tile, column by column in eight octants, with two
//! changes: a wall's corner is beveled (cut diagonally to the edge midpoints) when both
//! orthogonal neighbours sharing that corner are clear, and a clear tile at the top or bottom of a
//! column's lit span is visible only if the sector reaches its inner square (the centred square of
//! half its width). Slopes are integer pairs compared by cross-multiplication.
//!
//! Distance: Milazzo leaves it to the caller; we use `dx² + dy² ≤ r²`, and the column at `x = r`
//! updates no sector, as in his code. (`adam_fov_rs` 0.5 uses his "mostly symmetrical" variant,
//! testing tile centres, so it differs from this on purpose.)
//!
//! Properties: not symmetric, but close; expansive walls; expanding pillar shadows; no blind
//! corners; sees through diagonal gaps between walls (the cut corners).
//!
//! How it is computed: within a column the tiles are read as 64-tile opacity words and handled
//! run by run (see [`Octant::compute`]). An octant's columns before its first wall within the
//! radius are found and lit for all eight octants at once (`open_rows.rs`), and its scan starts
//! after them.

use super::open_rows::{RowExtent, light_open_rows};
use super::{FovContext, OctantLines, Opacity, RadiusCols, with_radius_cols};

/// `y / x`.
#[derive(Clone, Copy, Debug)]
struct Slope {
    y: i64,
    x: i64,
}

impl Slope {
    /// `self > y / x`.
    #[inline]
    fn greater(self, y: i64, x: i64) -> bool {
        self.y * x > self.x * y
    }
    #[inline]
    fn greater_or_equal(self, y: i64, x: i64) -> bool {
        self.y * x >= self.x * y
    }
    /// `self < y / x`.
    #[inline]
    fn less(self, y: i64, x: i64) -> bool {
        self.y * x < self.x * y
    }
}

/// Octant-local (x, y) → map offset, Milazzo's octants 0..8.
const TRANSFORMS: [(i32, i32, i32, i32); 8] = [
    (1, 0, 0, -1),
    (0, 1, -1, 0),
    (0, -1, -1, 0),
    (-1, 0, 0, -1),
    (-1, 0, 0, 1),
    (0, -1, 1, 0),
    (0, 1, 1, 0),
    (1, 0, 0, 1),
];

struct Octant<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    radius_cols: &'c mut RadiusCols,
    t: (i32, i32, i32, i32),
    lines: OctantLines,
    /// The last column (`x = r`); `None` when unlimited.
    range_limit: Option<i64>,
    last_column: i64,
}

impl<O: Opacity> Octant<'_, '_, O> {
    #[inline]
    fn offset(&self, x: i64, y: i64) -> (i32, i32) {
        let (x, y) = (x as i32, y as i32);
        let (a, b, c, d) = self.t;
        (x * a + y * b, x * c + y * d)
    }

    #[inline]
    fn blocks_light(&self, x: i64, y: i64) -> bool {
        let (dx, dy) = self.offset(x, y);
        self.ctx.is_opaque(self.ctx.ox + dx, self.ctx.oy + dy)
    }

    /// Milazzo's column loop. Within a column the tiles between the two slopes are read as
    /// 64-tile opacity words and handled run by run: every tile of the span is visible except
    /// possibly a clear top or bottom tile (the inner-square test), and the sector changes only
    /// where clear turns to opaque or back.
    fn compute(&mut self, mut x: i64, mut top: Slope, mut bottom: Slope) {
        while x <= self.last_column {
            let top_y = if top.x == 1 {
                x
            } else {
                let mut top_y = ((2 * x - 1) * top.y + top.x) / (2 * top.x);
                if self.blocks_light(x, top_y) {
                    if top.greater_or_equal(2 * top_y + 1, 2 * x) && !self.blocks_light(x, top_y + 1) {
                        top_y += 1;
                    }
                } else {
                    let mut ax = 2 * x;
                    if self.blocks_light(x + 1, top_y + 1) {
                        ax += 1;
                    }
                    if top.greater(2 * top_y + 1, ax) {
                        top_y += 1;
                    }
                }
                top_y
            };
            let bottom_y = if bottom.y == 0 {
                0
            } else {
                let mut bottom_y = ((2 * x - 1) * bottom.y + bottom.x) / (2 * bottom.x);
                if bottom.greater_or_equal(2 * bottom_y + 1, 2 * x)
                    && self.blocks_light(x, bottom_y)
                    && !self.blocks_light(x, bottom_y + 1)
                {
                    bottom_y += 1;
                }
                bottom_y
            };
            let column = x as i32;
            // Tiles beyond the radius are skipped as if absent: they are the top of the span.
            let high_y = top_y.min(i64::from(self.radius_cols.get(column)));
            // -1: no tile yet, 0: clear, 1: opaque.
            let mut was_opaque = -1;
            let mut high = high_y;
            'column: while high >= bottom_y {
                let low = (high - 63).max(bottom_y);
                let bits = self.lines.read(self.ctx.grid, column, low as i32, high as i32);
                let wall_at = |y: i64| bits >> (y - low) & 1 != 0;
                // Visible: opaque tiles, and clear ones but for a top tile whose inner square the
                // sector misses, and likewise the bottom tile.
                let mut visible = (low, high);
                if high == top_y && !wall_at(high) && !top.greater(4 * high - 1, 4 * x + 1) {
                    visible.1 -= 1;
                }
                if low == bottom_y && !wall_at(low) && !bottom.less(4 * low + 1, 4 * x - 1) {
                    visible.0 += 1;
                }
                if visible.0 <= visible.1 {
                    let (a, b) = (visible.0 as i32, visible.1 as i32);
                    if self.ctx.light_walls {
                        self.lines.mark(self.ctx, column, a, b);
                    } else {
                        self.lines.mark_clear(self.ctx, column, bits, low as i32, a, b);
                    }
                }
                if Some(x) != self.range_limit {
                    let mut y = high;
                    while y >= low {
                        let p = (y - low) as u32;
                        let wall = bits >> p & 1 != 0;
                        let below = if p == 63 { u64::MAX } else { (2u64 << p) - 1 };
                        let differ = (if wall { !bits } else { bits }) & below;
                        let run_low = if differ == 0 { low } else { low + 64 - i64::from(differ.leading_zeros()) };
                        if wall {
                            if was_opaque == 0 {
                                // Clear to opaque: the wall's top centre. (Milazzo also tests
                                // the tile above for its corner, but that is the clear tile just
                                // passed.)
                                let (nx, ny) = (2 * x, 2 * y + 1);
                                if top.greater(ny, nx) {
                                    if y == bottom_y {
                                        bottom = Slope { y: ny, x: nx };
                                        break 'column;
                                    }
                                    self.compute(x + 1, top, Slope { y: ny, x: nx });
                                } else if y == bottom_y {
                                    return;
                                }
                            }
                            was_opaque = 1;
                        } else {
                            if was_opaque > 0 {
                                // Opaque to clear: the wall above's bottom centre or bottom-right corner.
                                let (mut nx, ny) = (2 * x, 2 * y + 1);
                                if self.blocks_light(x + 1, y + 1) {
                                    nx += 1;
                                }
                                if bottom.greater_or_equal(ny, nx) {
                                    return;
                                }
                                top = Slope { y: ny, x: nx };
                            }
                            was_opaque = 0;
                        }
                        y = run_low - 1;
                    }
                }
                high = low - 1;
            }
            if was_opaque != 0 {
                break;
            }
            x += 1;
        }
    }
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let range_limit = (ctx.radius_squared != i64::MAX).then_some(i64::from(ctx.reach));
    // Past the map every tile blocks light, so one column beyond the reach ends every octant.
    let last_column = i64::from(ctx.reach) + i64::from(range_limit.is_none());
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        let open = light_open_rows(ctx, radius_cols, u8::MAX, 1, RowExtent::WithinRadius);
        for t in TRANSFORMS {
            // Octant column x is the scan's row, its tile y the column along it.
            let lines = OctantLines::new((ctx.ox, ctx.oy), (t.1, t.0, t.3, t.2));
            let first = i64::from(open.first_closed(&lines));
            let mut octant = Octant { ctx, radius_cols, t, lines, range_limit, last_column };
            octant.compute(first, Slope { y: 1, x: 1 }, Slope { y: 0, x: 1 });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::Algorithm;
    use crate::core::fov::reference::{assert_same_views, view_of};

    // Milazzo's column loop tile by tile (the implementation before runs): the definition the
    // run-based loop must reproduce.
    struct Reference<'c, 'a, O: Opacity> {
        ctx: &'c mut FovContext<'a, O>,
        t: (i32, i32, i32, i32),
        /// The last column (`x = r`); `None` when unlimited.
        range_limit: Option<i64>,
        last_column: i64,
    }

    impl<O: Opacity> Reference<'_, '_, O> {
        #[inline]
        fn offset(&self, x: i64, y: i64) -> (i32, i32) {
            let (x, y) = (x as i32, y as i32);
            let (a, b, c, d) = self.t;
            (x * a + y * b, x * c + y * d)
        }

        #[inline]
        fn blocks_light(&self, x: i64, y: i64) -> bool {
            let (dx, dy) = self.offset(x, y);
            self.ctx.is_opaque(self.ctx.ox + dx, self.ctx.oy + dy)
        }

        fn compute(&mut self, mut x: i64, mut top: Slope, mut bottom: Slope) {
            while x <= self.last_column {
                let top_y = if top.x == 1 {
                    x
                } else {
                    let mut top_y = ((2 * x - 1) * top.y + top.x) / (2 * top.x);
                    if self.blocks_light(x, top_y) {
                        if top.greater_or_equal(2 * top_y + 1, 2 * x) && !self.blocks_light(x, top_y + 1) {
                            top_y += 1;
                        }
                    } else {
                        let mut ax = 2 * x;
                        if self.blocks_light(x + 1, top_y + 1) {
                            ax += 1;
                        }
                        if top.greater(2 * top_y + 1, ax) {
                            top_y += 1;
                        }
                    }
                    top_y
                };
                let bottom_y = if bottom.y == 0 {
                    0
                } else {
                    let mut bottom_y = ((2 * x - 1) * bottom.y + bottom.x) / (2 * bottom.x);
                    if bottom.greater_or_equal(2 * bottom_y + 1, 2 * x)
                        && self.blocks_light(x, bottom_y)
                        && !self.blocks_light(x, bottom_y + 1)
                    {
                        bottom_y += 1;
                    }
                    bottom_y
                };
                // -1: no tile yet, 0: clear, 1: opaque.
                let mut was_opaque = -1;
                let mut y = top_y;
                while y >= bottom_y {
                    let (dx, dy) = self.offset(x, y);
                    if self.ctx.in_radius(dx, dy) {
                        let is_opaque = self.blocks_light(x, y);
                        let is_visible = is_opaque
                            || ((y != top_y || top.greater(4 * y - 1, 4 * x + 1))
                                && (y != bottom_y || bottom.less(4 * y + 1, 4 * x - 1)));
                        if is_visible {
                            self.ctx.reveal(self.ctx.ox + dx, self.ctx.oy + dy);
                        }
                        if Some(x) != self.range_limit {
                            if is_opaque {
                                if was_opaque == 0 {
                                    // Clear to opaque: the wall's top centre (beveled) or top-left corner.
                                    let (mut nx, ny) = (2 * x, 2 * y + 1);
                                    if self.blocks_light(x, y + 1) {
                                        nx -= 1;
                                    }
                                    if top.greater(ny, nx) {
                                        if y == bottom_y {
                                            bottom = Slope { y: ny, x: nx };
                                            break;
                                        }
                                        self.compute(x + 1, top, Slope { y: ny, x: nx });
                                    } else if y == bottom_y {
                                        return;
                                    }
                                }
                                was_opaque = 1;
                            } else {
                                if was_opaque > 0 {
                                    // Opaque to clear: the wall above's bottom centre or bottom-right corner.
                                    let (mut nx, ny) = (2 * x, 2 * y + 1);
                                    if self.blocks_light(x + 1, y + 1) {
                                        nx += 1;
                                    }
                                    if bottom.greater_or_equal(ny, nx) {
                                        return;
                                    }
                                    top = Slope { y: ny, x: nx };
                                }
                                was_opaque = 0;
                            }
                        }
                    }
                    y -= 1;
                }
                if was_opaque != 0 {
                    break;
                }
                x += 1;
            }
        }
    }

    fn reference<O: Opacity>(ctx: &mut FovContext<'_, O>) {
        let range_limit = (ctx.radius_squared != i64::MAX).then_some(i64::from(ctx.reach));
        // Past the map every tile blocks light, so one column beyond the reach ends every octant.
        let last_column = i64::from(ctx.reach) + i64::from(range_limit.is_none());
        for t in TRANSFORMS {
            let mut octant = Reference { ctx, t, range_limit, last_column };
            octant.compute(1, Slope { y: 1, x: 1 }, Slope { y: 0, x: 1 });
        }
    }

    /// The faster version gives the earlier one's view.
    #[test]
    fn runs_give_the_tile_by_tile_view() {
        assert_same_views(Algorithm::Milazzo, 31, [0.0, 0.05, 0.2, 0.45], |grid, params| {
            view_of(grid, params, reference)
        });
    }

    /// On maps with a few walls far apart, octants open for tens of rows end at a lone wall
    /// (or the map's edge): the open rows found and lit at once (`open_rows.rs`) give the
    /// scan's view.
    #[test]
    fn open_rows_up_to_a_lone_wall_give_the_scans_view() {
        assert_same_views(Algorithm::Milazzo, 41, [0.0005, 0.001, 0.002, 0.004], |grid, params| {
            view_of(grid, params, reference)
        });
    }
}
