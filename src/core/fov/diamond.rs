//! `diamond`: diamond-walls ray casting, libtcod's FOV_DIAMOND.
//!
//! Source: Isaac Kuo's "los_rays" as libtcod implements it in
//! `src/libtcod/fov_diamond_raycasting.c`. Tiles are visited breadth first in rings of growing
//! Manhattan distance; each carries a discrete shadow (an obscurity vector `(xob, yob)`, set by the
//! wall that casts it, and Bresenham-like error terms `(xerr, yerr)`) inherited from at most two
//! inner neighbours: `(x − sgn x, y)` and `(x, y − sgn y)`. A tile is obscured when
//! `0 < xerr ≤ xob` or `0 < yerr ≤ yob`; one whose every input is obscured is ignored and passes
//! nothing on; a transparent tile that is neither is visible; a wall that is not ignored starts a
//! new shadow `(|x|, |y|)`. Walls are lit afterwards by the same outward-neighbour pass as `ray`
//! (kept within the radius).
//!
//! Properties: not symmetric; very permissive (a lone pillar hides only the cells straight behind
//! it along an axis); walls come only from the lighting pass.
//!
//! How it is computed: a tile's state depends only on its two inner neighbours' (those that pass
//! something on), so libtcod's breadth-first queue can be replaced by a scan of each quadrant row
//! by row away from the origin, each row away from the origin's column, with two rows of state.
//! The tiles of a quadrant's axes (the origin's row and column) have one inner neighbour, on the
//! axis, and are computed alike by the two quadrants that share them. Where no shadow reaches
//! (the state is the zero vector: all of an open map), a row's stretches of such tiles are found
//! as runs of bits, not tile by tile; only tiles a shadow reaches are merged one by one.
//! `scan_gives_the_queue_view` tests this against the queue. A quadrant's rows before the first
//! with a wall within the radius are lit whole, with no tile state at all.

use std::cell::RefCell;

use super::{Axis, FovContext, OctantLines, Opacity, RadiusCols, set_bit_range};

/// A tile's discrete shadow: the obscurity vector `(xob, yob)` of the wall that casts it and the
/// error terms `(xerr, yerr)`. The zero vector (no shadow) is every tile's state until a wall's
/// shadow reaches it.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Shadow {
    xob: i32,
    yob: i32,
    xerr: i32,
    yerr: i32,
}

impl Shadow {
    const NONE: Shadow = Shadow { xob: 0, yob: 0, xerr: 0, yerr: 0 };

    #[inline]
    fn is_obscured(&self) -> bool {
        (self.xerr > 0 && self.xerr <= self.xob) || (self.yerr > 0 && self.yerr <= self.yob)
    }

    #[inline]
    fn casts(&self) -> bool {
        self.xob != 0 || self.yob != 0
    }

    /// libtcod's `process_ray` for a tile at `(|x|, |y|)` from its inner neighbours that pass
    /// something on: `along_x` is `(|x| − 1, |y|)`, `along_y` is `(|x|, |y| − 1)`, at least one
    /// of them. `None`: the tile is ignored (every input obscured) and passes nothing on.
    #[inline]
    fn merge(along_x: Option<Shadow>, along_y: Option<Shadow>, opaque: bool, x: i32, y: i32) -> Option<Shadow> {
        let mut s = Shadow::NONE;
        if let Some(i) = along_x {
            // libtcod also takes it when `yerr ≤ 0 < yob` and `xerr > 0`, which `xerr > 0`
            // already covers: the tile's own vector is still zero here.
            if i.casts() && i.xerr > 0 {
                s = Shadow { xerr: i.xerr - i.yob, yerr: i.yerr + i.yob, xob: i.xob, yob: i.yob };
            }
        }
        if let Some(i) = along_y
            && i.casts()
            && ((i.yerr > 0 && s.yob == 0) || (i.xerr <= 0 && i.xob > 0 && i.yerr > 0))
        {
            s = Shadow { yerr: i.yerr - i.xob, xerr: i.xerr + i.xob, xob: i.xob, yob: i.yob };
        }
        let ignore = match (along_x, along_y) {
            (Some(a), Some(b)) => a.is_obscured() && b.is_obscured(),
            (Some(a), None) | (None, Some(a)) => a.is_obscured(),
            (None, None) => true,
        };
        if ignore {
            return None;
        }
        if opaque {
            s = Shadow { xerr: x, xob: x, yerr: y, yob: y };
        }
        Some(s)
    }
}

/// Two rows of one quadrant. A row's tiles as bits (bit `i` for column `i`): those that pass
/// something on, and among them those whose state is not the zero vector, whose states are kept
/// in `states`; tiles whose state is zero need no more than their bit.
#[derive(Default)]
struct Row {
    passes: Vec<u64>,
    shadowed: Vec<u64>,
    states: Vec<Shadow>,
}

impl Row {
    fn reset(&mut self, words: usize, tiles: usize) {
        self.passes.clear();
        self.passes.resize(words, 0);
        self.shadowed.clear();
        self.shadowed.resize(words, 0);
        if self.states.len() < tiles {
            self.states.resize(tiles, Shadow::NONE);
        }
    }
}

#[derive(Default)]
struct Rows {
    before: Row,
    this: Row,
    opaque: Vec<u64>,
    lit: Vec<u64>,
}

thread_local! {
    static ROWS: RefCell<Rows> = RefCell::new(Rows::default());
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let (bx0, by0, bx1, by1) = super::ray::ray_box(ctx);
    let (ox, oy) = (ctx.ox, ctx.oy);
    let box_open = ROWS.with(|rows| {
        super::with_radius_cols(ctx.radius_squared, |radius_cols| {
            let mut rows = rows.borrow_mut();
            let mut box_open = true;
            for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let width = if sx > 0 { bx1 - ox } else { ox - bx0 };
                let height = if sy > 0 { by1 - oy } else { oy - by0 };
                box_open &= quadrant(ctx, &mut rows, radius_cols, (sx, sy), width, height);
            }
            box_open
        })
    });
    // With no wall within the radius (in the box) there is none to light.
    if ctx.light_walls && !box_open {
        super::ray::light_walls_outward(ctx, (bx0, by0, bx1, by1));
    }
}

#[inline(always)]
fn bit(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 != 0
}

#[inline(always)]
fn set_bit(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

/// The first `i ≥ from` below `end` whose bit is set in `word(i / 64)`, or `end`.
#[inline]
fn next_set(word: impl Fn(usize) -> u64, from: usize, end: usize) -> usize {
    let mut w = from / 64;
    let mut bits = word(w) & (u64::MAX << (from % 64));
    loop {
        if bits != 0 {
            return (w * 64 + bits.trailing_zeros() as usize).min(end);
        }
        w += 1;
        if w * 64 >= end {
            return end;
        }
        bits = word(w);
    }
}

/// What a tile's neighbour along the row passes on.
#[derive(Clone, Copy)]
enum Along {
    Nothing,
    Zero,
    Shadow(Shadow),
}

/// One quadrant: tiles `(ox + sx·i, oy + sy·j)` for `0 ≤ i ≤ width`, `0 ≤ j ≤ height` within the
/// radius, row `j` after row `j − 1`. Stretches of tiles that get the zero vector from both
/// neighbours are found as runs of bits; only tiles a shadow reaches are merged one by one.
/// Returns whether the quadrant holds no wall (within the radius): then it is lit whole.
fn quadrant<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    rows: &mut Rows,
    radius_cols: &mut RadiusCols,
    (sx, sy): (i32, i32),
    width: i32,
    height: i32,
) -> bool {
    // Row `j` of the quadrant is a map row, column `i` the map's x outward.
    let lines = OctantLines::new((ctx.ox, ctx.oy), (sx, 0, 0, sy));
    let Rows { before, this, opaque, lit } = rows;
    let mut radius_cols = |j| radius_cols.get(j);
    let first_half = radius_cols(0);
    let words = (first_half.min(width) as usize + 1).div_ceil(64);
    // Until a wall is met every tile passes the zero vector on and is lit, so a row with no wall
    // (within the radius and the box) is lit whole, without merging. Row 0's first tile is the
    // origin, which passes the zero vector on whatever it is.
    let mut first_walled = 0;
    let mut open_last = -1;
    while first_walled <= height {
        let last = radius_cols(first_walled).min(width);
        if last < 0 {
            // Past the radius: no wall in the quadrant.
            return true;
        }
        let first = i32::from(first_walled == 0);
        if lines.first_opaque_between(ctx.grid, first_walled, first, last).is_some() {
            break;
        }
        lines.mark(ctx, first_walled, 0, last);
        open_last = last;
        first_walled += 1;
    }
    if first_walled > height {
        return true;
    }
    before.reset(words, 0);
    if open_last >= 0 {
        set_bit_range(&mut before.passes, 0, open_last as usize);
    }
    for j in first_walled..=height {
        // The tiles of this row within the radius and the box; the rest are ignored.
        let last = radius_cols(j).min(width);
        if last < 0 {
            break;
        }
        let n = last as usize + 1;
        let row_words = n.div_ceil(64);
        this.reset(words, n);
        opaque.clear();
        lit.clear();
        lit.resize(row_words, 0);
        for w in 0..row_words {
            let low = 64 * w as i32;
            opaque.push(lines.read(ctx.grid, j, low, (low + 63).min(last)));
        }
        let mut along = Along::Nothing;
        let mut i = 0;
        if j == 0 {
            // The origin passes the zero vector on, whatever it is.
            set_bit(&mut this.passes, 0);
            set_bit(lit, 0);
            along = Along::Zero;
            i = 1;
        }
        while i < n {
            let from_before = |i: usize| {
                if !bit(&before.passes, i) {
                    None
                } else if bit(&before.shadowed, i) {
                    Some(before.states[i])
                } else {
                    Some(Shadow::NONE)
                }
            };
            let state = match along {
                Along::Nothing => {
                    // Tiles nothing reaches are skipped: the next one the row before reaches.
                    i = next_set(|w| before.passes[w], i, n);
                    if i == n {
                        break;
                    }
                    Shadow::merge(None, from_before(i), bit(opaque, i), i as i32, j)
                }
                Along::Zero => {
                    // The zero vector runs on over clear tiles the row before does not shadow.
                    let end = next_set(|w| opaque[w] | before.shadowed[w], i, n);
                    if end > i {
                        set_bit_range(&mut this.passes, i, end - 1);
                        set_bit_range(lit, i, end - 1);
                        i = end;
                        if i == n {
                            break;
                        }
                    }
                    Shadow::merge(Some(Shadow::NONE), from_before(i), bit(opaque, i), i as i32, j)
                }
                Along::Shadow(s) => Shadow::merge(Some(s), from_before(i), bit(opaque, i), i as i32, j),
            };
            along = match state {
                None => Along::Nothing,
                Some(s) => {
                    set_bit(&mut this.passes, i);
                    if !s.is_obscured() {
                        set_bit(lit, i);
                    }
                    if s.casts() {
                        set_bit(&mut this.shadowed, i);
                        this.states[i] = s;
                        Along::Shadow(s)
                    } else {
                        Along::Zero
                    }
                }
            };
            i += 1;
        }
        for (w, &bits) in lit.iter().enumerate() {
            if bits != 0 {
                let low = 64 * w as i32;
                mark_bits(ctx, &lines, j, low, (low + 63).min(last), bits);
            }
        }
        if this.passes.iter().all(|&w| w == 0) {
            break;
        }
        std::mem::swap(before, this);
    }
    false
}

/// Marks the tiles `low + t` of row `j` for each bit `t` of `bits` (tiles `low..=high`).
#[inline]
fn mark_bits<O: Opacity>(ctx: &mut FovContext<'_, O>, lines: &OctantLines, j: i32, low: i32, high: i32, bits: u64) {
    let (from, _) = lines.positions(low, high);
    let word = if lines.sign > 0 { bits } else { bits.reverse_bits() >> (63 - (high - low)) };
    ctx.mark_bits(Axis::Row, lines.line(j), from, word);
}

#[cfg(test)]
mod tests {
    //! libtcod's breadth-first queue, as this file computed the view before the row scan.
    use std::cell::RefCell;

    use crate::core::fov::reference::{assert_same_views, view_of};
    use crate::core::fov::{Algorithm, FovContext, OpacityGrid};

    const NONE: u32 = u32::MAX;

    #[derive(Clone, Copy, Default)]
    struct RayState {
        xob: i32,
        yob: i32,
        xerr: i32,
        yerr: i32,
        xin: u32,
        yin: u32,
        touched: bool,
        ignore: bool,
    }

    impl RayState {
        const FRESH: RayState =
            RayState { xob: 0, yob: 0, xerr: 0, yerr: 0, xin: NONE, yin: NONE, touched: false, ignore: false };

        #[inline]
        fn is_obscured(&self) -> bool {
            (self.xerr > 0 && self.xerr <= self.xob) || (self.yerr > 0 && self.yerr <= self.yob)
        }
    }

    #[derive(Default)]
    struct Scratch {
        rays: Vec<RayState>,
        queue: Vec<u32>,
    }

    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    }

    fn queue_compute(ctx: &mut FovContext<'_, OpacityGrid>) {
        let (bx0, by0, bx1, by1) = crate::core::fov::ray::ray_box(ctx);
        let (bw, bh) = (bx1 - bx0 + 1, by1 - by0 + 1);
        let (ox, oy) = (ctx.ox, ctx.oy);
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let Scratch { rays, queue } = &mut *scratch;
            rays.clear();
            rays.resize((bw * bh) as usize, RayState::FRESH);
            queue.clear();
            // Index of the tile at relative (x, y), if it is in the box.
            let index = |x: i32, y: i32| -> Option<u32> {
                let (ax, ay) = (ox + x - bx0, oy + y - by0);
                ((0..bw).contains(&ax) && (0..bh).contains(&ay)).then(|| (ay * bw + ax) as u32)
            };
            let rel = |i: u32| -> (i32, i32) { (i as i32 % bw + bx0 - ox, i as i32 / bw + by0 - oy) };
            let origin = index(0, 0).expect("the origin is in its own box");
            rays[origin as usize].touched = true;
            queue.push(origin);
            let mut head = 0;
            while head < queue.len() {
                let cur = queue[head];
                let (x, y) = rel(cur);
                if head > 0 {
                    if ctx.in_radius(x, y) {
                        merge(rays, cur, ctx.is_opaque(ox + x, oy + y), x, y);
                    } else {
                        rays[cur as usize].ignore = true;
                    }
                }
                head += 1;
                if rays[cur as usize].ignore {
                    continue;
                }
                // Expand outwards, in libtcod's order.
                let mut add = |nx: i32, ny: i32| {
                    let Some(n) = index(nx, ny) else { return };
                    let new = &mut rays[n as usize];
                    if ny == y {
                        new.xin = cur;
                    } else {
                        new.yin = cur;
                    }
                    if !new.touched {
                        new.touched = true;
                        queue.push(n);
                    }
                };
                if x >= 0 {
                    add(x + 1, y);
                }
                if x <= 0 {
                    add(x - 1, y);
                }
                if y >= 0 {
                    add(x, y + 1);
                }
                if y <= 0 {
                    add(x, y - 1);
                }
                if cur != origin && !rays[cur as usize].is_obscured() {
                    ctx.visible.mark(ox + x, oy + y);
                }
            }
        });
        if ctx.light_walls {
            crate::core::fov::ray::light_walls_outward(ctx, (bx0, by0, bx1, by1));
        }
    }

    fn merge(rays: &mut [RayState], cur: u32, opaque: bool, x: i32, y: i32) {
        let mut r = rays[cur as usize];
        if r.xin != NONE {
            let i = rays[r.xin as usize];
            if !(i.xob == 0 && i.yob == 0) && ((i.xerr > 0 && r.xob == 0) || (i.yerr <= 0 && i.yob > 0 && i.xerr > 0)) {
                r.xerr = i.xerr - i.yob;
                r.yerr = i.yerr + i.yob;
                r.xob = i.xob;
                r.yob = i.yob;
            }
        }
        if r.yin != NONE {
            let i = rays[r.yin as usize];
            if !(i.xob == 0 && i.yob == 0) && ((i.yerr > 0 && r.yob == 0) || (i.xerr <= 0 && i.xob > 0 && i.yerr > 0)) {
                r.yerr = i.yerr - i.xob;
                r.xerr = i.xerr + i.xob;
                r.xob = i.xob;
                r.yob = i.yob;
            }
        }
        let obscured = |i: u32| rays[i as usize].is_obscured();
        if r.xin == NONE {
            r.ignore = obscured(r.yin);
        } else if r.yin == NONE {
            r.ignore = obscured(r.xin);
        } else {
            r.ignore = obscured(r.xin) && obscured(r.yin);
        }
        if !r.ignore && opaque {
            r.xerr = x.abs();
            r.xob = x.abs();
            r.yerr = y.abs();
            r.yob = y.abs();
        }
        rays[cur as usize] = r;
    }

    #[test]
    fn scan_gives_the_queue_view() {
        // The third: a few walls far apart, so that rows open for tens of rows end at a lone wall.
        for (seed, densities) in
            [(51, [0.0, 0.05, 0.2, 0.35]), (52, [0.1, 0.3, 0.45, 0.6]), (53, [0.0005, 0.001, 0.002, 0.004])]
        {
            assert_same_views(Algorithm::Diamond, seed, densities, |grid, params| view_of(grid, params, queue_compute));
        }
    }
}
