//! `shadowcast`: recursive shadowcasting, Björn Bergström's, as libtcod's FOV_SHADOW runs it.
//!
//! Source: Björn Bergström, "FOV using recursive shadowcasting" (RogueBasin, 2001), and libtcod
//! `src/libtcod/fov_recursive_shadowcasting.c` (`cast_light`). In each of the eight octants, row
//! `j` (1, 2, …) is scanned from the column furthest from the octant's axis (`c = j`) towards it
//! (`c = 0`). Cell (j, c) spans slopes from `r = (c - ½) / (j + ½)` to `l = (c + ½) / (j - ½)`
//! (slope = column / row). With the octant's lit sector `[end, start]` (starting `[0, 1]`): a cell
//! with `start < r` is skipped, one with `end > l` ends the row; any other cell is lit (if within
//! the radius). A wall after floor recurses into row `j + 1` with sector `[l, start]`; floor after
//! wall narrows `start` to the last wall's `r`; a row ending on wall ends the octant.
//!
//! This is libtcod ≥ 1.16 (commit eaf9f2df), which checks that the sector is not reversed on
//! every row; libtcod ≤ 1.15 and doryen-fov check only when a scan starts and so light a few more
//! cells. libtcod computes the slopes in `f32`; we compare the same rationals exactly, in integers,
//! which gives libtcod's result wherever `f32` keeps distinct slopes apart (rows up to about 1000). Properties: not symmetric; lights walls generously; thin pillars
//! cast narrowing shadows.

use super::{FovContext, OCTANTS, Opacity, Ratio};

struct Octant<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    m: (i32, i32, i32, i32),
}

impl<O: Opacity> Octant<'_, '_, O> {
    fn cast_light(&mut self, row: i32, mut start: Ratio, end: Ratio) {
        if start.lt(end) {
            return;
        }
        let (xx, xy, yx, yy) = self.m;
        let mut new_start = start;
        for j in row..=self.ctx.reach {
            // libtcod ≥ 1.16 checks the sector on every row (1.15 and doryen-fov only on entry,
            // which lets a reversed sector light a few cells it should not).
            if start.lt(end) {
                return;
            }
            let mut blocked = false;
            for c in (0..=j).rev() {
                let (dx, dy) = (c * xx + j * xy, c * yx + j * yy);
                let (x, y) = (self.ctx.ox + dx, self.ctx.oy + dy);
                if x < 0 || y < 0 || x >= self.ctx.grid.width() || y >= self.ctx.grid.height() {
                    continue;
                }
                let (c64, j64) = (i64::from(c), i64::from(j));
                let l_slope = Ratio::new(2 * c64 + 1, 2 * j64 - 1);
                let r_slope = Ratio::new(2 * c64 - 1, 2 * j64 + 1);
                if start.lt(r_slope) {
                    continue;
                } else if l_slope.lt(end) {
                    break;
                }
                if self.ctx.in_radius(dx, dy) {
                    self.ctx.reveal(x, y);
                }
                let wall = self.ctx.is_opaque(x, y);
                if blocked {
                    if wall {
                        new_start = r_slope;
                        continue;
                    }
                    blocked = false;
                    start = new_start;
                } else if wall && j < self.ctx.reach {
                    blocked = true;
                    self.cast_light(j + 1, start, l_slope);
                    new_start = r_slope;
                }
            }
            if blocked {
                break;
            }
        }
    }
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    for m in OCTANTS {
        let mut octant = Octant { ctx, m };
        octant.cast_light(1, Ratio::new(1, 1), Ratio::new(0, 1));
    }
}
