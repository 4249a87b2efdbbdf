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
//! which gives libtcod's result wherever `f32` keeps distinct slopes apart (rows up to about 1000).
//! Properties: not symmetric; lights walls generously; thin pillars cast narrowing shadows.
//!
//! Speed: the cells of a row the sector lights are one interval of columns (from the last whose
//! `r` is within `start` to the first whose `l` falls short of `end`), and the scan's decisions
//! happen only where wall turns to floor or back. So a row is read as 64-cell opacity words
//! (each octant's row is part of a map row or column) and lit as spans, and only its runs of
//! walls are visited, found in the word (a run of floor between them only moves `start`).

use super::{Axis, FovContext, OCTANTS, OctantLines, Opacity, RadiusCols, Ratio, floor_div, with_radius_cols};

struct Octant<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    radius_cols: &'c mut RadiusCols,
    lines: OctantLines,
    /// The map's extent along a line.
    length: i32,
}

impl<O: Opacity> Octant<'_, '_, O> {
    fn cast_light(&mut self, row: i32, mut start: Ratio, end: Ratio) {
        if start.lt(end) {
            return;
        }
        let mut new_start = start;
        for j in row..=self.ctx.reach {
            // libtcod ≥ 1.16 checks the sector on every row (1.15 and doryen-fov only on entry,
            // which lets a reversed sector light a few cells it should not).
            if start.lt(end) {
                return;
            }
            let j64 = i64::from(j);
            // The lit columns: r(c) = (2c − 1)/(2j + 1) ≤ start and l(c) = (2c + 1)/(2j − 1) ≥ end.
            let c_top = floor_div(start.num * (2 * j64 + 1) + start.den, 2 * start.den).min(j64) as i32;
            let c_bottom = floor_div(end.num * (2 * j64 - 1) + end.den - 1, 2 * end.den).max(0) as i32;
            // Cells off the map are skipped, as if absent: clip to the map.
            let (line, base) = (self.lines.line(j), self.lines.base);
            let across = match self.lines.axis {
                Axis::Row => self.ctx.grid.height(),
                Axis::Column => self.ctx.grid.width(),
            };
            let (mut c_top, mut c_bottom) = (c_top, c_bottom);
            if (line as u32) >= across as u32 {
                c_top = -1;
            } else if self.lines.sign > 0 {
                c_top = c_top.min(self.length - 1 - base);
                c_bottom = c_bottom.max(-base);
            } else {
                c_top = c_top.min(base);
                c_bottom = c_bottom.max(base - (self.length - 1));
            }
            let radius_cols = self.radius_cols.get(j);
            let mut blocked = false;
            // From the top column down, 64 at a time.
            let mut high = c_top;
            while high >= c_bottom {
                let low = (high - 63).max(c_bottom);
                let bits = self.lines.read(self.ctx.grid, j, low, high);
                let lit = high.min(radius_cols);
                if low <= lit {
                    if self.ctx.light_walls {
                        self.lines.mark(self.ctx, j, low, lit);
                    } else {
                        self.lines.mark_clear(self.ctx, j, bits, low, low, lit);
                    }
                }
                // The runs of walls, from the top, found as words; floor between them only
                // moves `start`. A row that continues a run of walls from the 64 columns above
                // (`blocked`) does not cast that run again.
                // (`read` leaves the bits past `high` clear.)
                let walls = bits;
                let top = (high - low) as u32;
                if blocked && walls >> top & 1 == 0 {
                    blocked = false;
                    start = new_start;
                }
                let mut tops = walls & !(walls >> 1);
                while tops != 0 {
                    let p = 63 - tops.leading_zeros();
                    tops &= !(1 << p);
                    // The run's bottom: one above the highest floor below it, or the word's end.
                    let floor_below = !walls & ((1 << p) - 1);
                    let b = 64 - floor_below.leading_zeros();
                    if !blocked && j < self.ctx.reach {
                        blocked = true;
                        self.cast_light(j + 1, start, Ratio::new(2 * i64::from(low + p as i32) + 1, 2 * j64 - 1));
                    }
                    if blocked {
                        new_start = Ratio::new(2 * i64::from(low + b as i32) - 1, 2 * j64 + 1);
                        if b > 0 {
                            // Floor follows.
                            blocked = false;
                            start = new_start;
                        }
                    }
                }
                high = low - 1;
            }
            if blocked {
                break;
            }
        }
    }
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        for (xx, xy, yx, yy) in OCTANTS {
            let lines = OctantLines::new((ctx.ox, ctx.oy), (xx, xy, yx, yy));
            let length = if lines.axis == Axis::Row { ctx.grid.width() } else { ctx.grid.height() };
            let mut octant = Octant { ctx, radius_cols, lines, length };
            octant.cast_light(1, Ratio::new(1, 1), Ratio::new(0, 1));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;
    use crate::core::fov::reference::assert_same_views;
    use crate::core::fov::{Algorithm, FovParams, OpacityGrid, VisibleSet};
    use crate::core::rng::Rng;

    /// libtcod's `cast_light` cell by cell (the implementation before runs): the definition the
    /// run-based scan must reproduce.
    fn reference(grid: &OpacityGrid, params: FovParams) -> Vec<(i32, i32)> {
        let r2 = params.radius.map_or(i64::MAX, |r| i64::from(r) * i64::from(r));
        let (ox, oy) = (params.origin.x, params.origin.y);
        let reach = params.radius.map_or(grid.width().max(grid.height()), |r| r as i32);
        let reach = reach.min((grid.width() - 1 - ox).max(ox).max((grid.height() - 1 - oy).max(oy)));
        let mut out = vec![(ox, oy)];
        struct Env<'g> {
            grid: &'g OpacityGrid,
            o: (i32, i32),
            r2: i64,
            reach: i32,
            light_walls: bool,
        }
        fn cast(env: &Env, out: &mut Vec<(i32, i32)>, m: (i32, i32, i32, i32), row: i32, mut start: Ratio, end: Ratio) {
            if start.lt(end) {
                return;
            }
            let (xx, xy, yx, yy) = m;
            let mut new_start = start;
            for j in row..=env.reach {
                if start.lt(end) {
                    return;
                }
                let mut blocked = false;
                for c in (0..=j).rev() {
                    let (dx, dy) = (c * xx + j * xy, c * yx + j * yy);
                    let (x, y) = (env.o.0 + dx, env.o.1 + dy);
                    if !env.grid.in_bounds(x, y) {
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
                    let wall = env.grid.is_opaque(x, y);
                    if i64::from(dx * dx) + i64::from(dy * dy) <= env.r2 && (env.light_walls || !wall) {
                        out.push((x, y));
                    }
                    if blocked {
                        if wall {
                            new_start = r_slope;
                            continue;
                        }
                        blocked = false;
                        start = new_start;
                    } else if wall && j < env.reach {
                        blocked = true;
                        cast(env, out, m, j + 1, start, l_slope);
                        new_start = r_slope;
                    }
                }
                if blocked {
                    break;
                }
            }
        }
        let env = Env { grid, o: (ox, oy), r2, reach, light_walls: params.light_walls };
        for m in OCTANTS {
            cast(&env, &mut out, m, 1, Ratio::new(1, 1), Ratio::new(0, 1));
        }
        out.sort_by_key(|&(x, y)| (y, x));
        out.dedup();
        out
    }

    /// The run-based scan gives the cell-by-cell scan's view.
    #[test]
    fn runs_give_the_cell_by_cell_view() {
        assert_same_views(Algorithm::Shadowcast, 29, [0.0, 0.05, 0.2, 0.45], reference);
    }

    /// Rows of more than 64 columns, read a word at a time, with walls across the words'
    /// joins: a run of walls that goes on into the next word must neither cast twice nor lose
    /// the start it leaves. (The random maps above rarely have a sector that wide.)
    #[test]
    fn wide_rows_give_the_cell_by_cell_view() {
        let mut rng = Rng::new(31);
        for round in 0..60 {
            let mut grid = OpacityGrid::new(230, 230);
            for _ in 0..3 + round % 12 {
                // A short wall across the rows, near the far end of the octants' rows.
                let (x, y) = (150 + rng.below(70) as i32, 60 + rng.below(150) as i32);
                for k in 0..1 + rng.below(6) as i32 {
                    grid.set(x + k, y, true);
                }
            }
            let origin = Cell::new(rng.below(6) as i32, rng.below(230) as i32);
            let params = FovParams { origin, radius: None, light_walls: round % 2 == 0 };
            let mut visible = VisibleSet::new(230, 230);
            crate::core::fov::compute(Algorithm::Shadowcast, &grid, params, &mut visible);
            let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
            assert_eq!(ours, reference(&grid, params), "round {round}: {params:?}");
        }
    }
}
