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

use std::cell::RefCell;

use super::{FovContext, Opacity};

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

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let (bx0, by0, bx1, by1) = super::ray::ray_box(ctx);
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
        super::ray::light_walls_outward(ctx, (bx0, by0, bx1, by1));
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
