//! `symmetric`: Albert Ford's symmetric shadowcasting, exact.
//!
//! Source: Albert Ford, "Symmetric Shadowcasting" (2020, albertford.com/shadowcasting), and his
//! Python reference implementation, which this follows step for step with the same rational
//! arithmetic, in integers instead of `Fraction`s:
//! - The view is scanned in four quadrants (north, east, south, west), row by row outwards; a row
//!   at depth `d` covers the columns from `round_ties_up(d · start)` to `round_ties_down(d · end)`,
//!   where `start` and `end` are the row's slopes, starting at -1 and 1.
//! - A tile at (depth `d`, column `c`) has slope `(2c - 1) / 2d` (its left edge).
//! - A wall is always revealed (expansive walls); a floor tile only if it is *symmetric*:
//!   `d · start ≤ c ≤ d · end` (its centre is inside the row's sector, borders included).
//! - Floor after wall moves the row's start slope to the floor tile's slope; wall after floor
//!   scans the next row with its end slope at the wall's slope; a row ending on floor continues.
//!
//! Properties (Ford): symmetric for floor tiles (A sees B ⇔ B sees A); expansive walls; expanding
//! pillar shadows; no blind corners; and a floor tile is visible exactly when a straight line
//! from the origin's centre to the tile's centre passes through no wall (counting, on a row where
//! the line crosses two tiles at a half, both). Radius `r` keeps tiles with `dx² + dy² ≤ r²`;
//! rows beyond the radius are not scanned (they could hold no visible tile).
//!
//! libtcod's `FOV_SYMMETRIC_SHADOWCAST` computes the slopes in floats and so differs from this
//! definition on ties; this implementation never rounds.

use super::{FovContext, Opacity};

/// A slope `num / den` with `den > 0`.
#[derive(Clone, Copy)]
struct Slope {
    num: i32,
    den: i32,
}

/// `floor(a / b)` for `b > 0`.
#[inline]
fn floor_div(a: i32, b: i32) -> i32 {
    a.div_euclid(b)
}

struct Quadrant<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    radius_cols: &'c mut RadiusCols,
    /// Maps (depth, col) to map offsets: dx = col*cx + depth*rx, dy = col*cy + depth*ry.
    cx: i32,
    cy: i32,
    rx: i32,
    ry: i32,
}

impl<O: Opacity> Quadrant<'_, '_, O> {
    #[inline]
    fn cell(&self, depth: i32, col: i32) -> (i32, i32) {
        (self.ctx.ox + col * self.cx + depth * self.rx, self.ctx.oy + col * self.cy + depth * self.ry)
    }

    fn scan(&mut self, depth: i32, mut start: Slope, end: Slope) {
        if depth > self.ctx.reach {
            return;
        }
        // round_ties_up(depth * start) = floor(depth*start + 1/2); round_ties_down = ceil(depth*end - 1/2).
        let min_col = floor_div(2 * depth * start.num + start.den, 2 * start.den);
        let max_col = -floor_div(end.den - 2 * depth * end.num, 2 * end.den);
        let radius_cols = self.radius_cols.get(depth);
        let mut prev_wall: Option<bool> = None;
        for col in min_col..=max_col {
            let (x, y) = self.cell(depth, col);
            let wall = self.ctx.is_opaque(x, y);
            // Walls always; floor when symmetric: depth*start <= col <= depth*end.
            if (wall || (col * start.den >= depth * start.num && col * end.den <= depth * end.num))
                && col.abs() <= radius_cols
            {
                self.ctx.reveal(x, y);
            }
            match prev_wall {
                Some(true) if !wall => start = Slope { num: 2 * col - 1, den: 2 * depth },
                Some(false) if wall => self.scan(depth + 1, start, Slope { num: 2 * col - 1, den: 2 * depth }),
                _ => {}
            }
            prev_wall = Some(wall);
        }
        if prev_wall == Some(false) {
            self.scan(depth + 1, start, end);
        }
    }
}

/// For each depth, the largest |col| with depth² + col² ≤ r² (negative: none), computed as the
/// scan first reaches each depth: the width only shrinks as depth grows, so each entry costs a
/// few integer steps from the previous one.
#[derive(Default)]
struct RadiusCols {
    radius_squared: i64,
    cols: Vec<i32>,
}

impl RadiusCols {
    fn reset(&mut self, radius_squared: i64) {
        self.radius_squared = radius_squared;
        self.cols.clear();
    }

    #[inline]
    fn get(&mut self, depth: i32) -> i32 {
        if self.radius_squared == i64::MAX {
            return i32::MAX;
        }
        while self.cols.len() <= depth as usize {
            let d = self.cols.len() as i64;
            let mut c = match self.cols.last() {
                Some(&c) => i64::from(c.max(0)),
                None => (self.radius_squared as f64).sqrt() as i64 + 1,
            };
            while c >= 0 && c * c + d * d > self.radius_squared {
                c -= 1;
            }
            self.cols.push(c as i32);
        }
        self.cols[depth as usize]
    }
}

thread_local! {
    static RADIUS_COLS: std::cell::RefCell<RadiusCols> = std::cell::RefCell::new(RadiusCols::default());
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    RADIUS_COLS.with(|cell| {
        let mut radius_cols = cell.borrow_mut();
        radius_cols.reset(ctx.radius_squared);
        // North, east, south, west: (col axis, depth axis).
        for (cx, cy, rx, ry) in [(1, 0, 0, -1), (0, 1, 1, 0), (1, 0, 0, 1), (0, 1, -1, 0)] {
            let mut q = Quadrant { ctx, radius_cols: &mut radius_cols, cx, cy, rx, ry };
            q.scan(1, Slope { num: -1, den: 1 }, Slope { num: 1, den: 1 });
        }
    });
}
