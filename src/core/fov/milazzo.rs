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

use super::{FovContext, Opacity};

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
    t: (i32, i32, i32, i32),
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

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let range_limit = (ctx.radius_squared != i64::MAX).then_some(i64::from(ctx.reach));
    // Past the map every tile blocks light, so one column beyond the reach ends every octant.
    let last_column = i64::from(ctx.reach) + i64::from(range_limit.is_none());
    for t in TRANSFORMS {
        let mut octant = Octant { ctx, t, range_limit, last_column };
        octant.compute(1, Slope { y: 1, x: 1 }, Slope { y: 0, x: 1 });
    }
}
