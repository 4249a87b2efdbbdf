//! MRPAS in short views: reach below [`SHORT_LINE`] (radius 11 and less, the usual sight of a
//! roguelike's actors), where no line has 12 cells and the view is a few dozen cells.
//!
//! The same definition as the long views' scan (the module above), with its bookkeeping cut to
//! what such views need. The record of the cells seen so far (by any octant: the "behind" test of
//! a cell next to the axis or the diagonal reads what the octants before it saw) is the radius'
//! square and a border of one cell as rows of bits, and so is the record of those also clear,
//! which the "behind" test reads: a cell is one shift and mask away in either orientation, with
//! no bounds test (the border holds the cells beside the lines' ends, never seen). A cell's
//! opacity is read when the scan reaches it, as before: the LOS cache records which cells a view
//! read, and recomputes a view only when one of those changes. Every angle of such a view,
//! `(2k ± 1) / 2n` and `k / n` for lines `n ≤ 11`, is a whole multiple of `1 / SCALE`, so angles
//! are integers compared exactly, as the rationals are. The octants light nothing: the cells
//! seen within the radius are lit at the end, a row of the square at a time.

use super::super::{FovContext, Opacity, RadiusCols};
use super::SHORT_LINE;

/// `2n` divides this for every line `n` below [`SHORT_LINE`] (it is twice lcm(1, …, 11)).
const SCALE: i32 = 55_440;

/// Cells `k` of line `n` span the angles `((2k − 1) · unit, (2k + 1) · unit)` around `2k · unit`,
/// with `unit = UNIT[n] = SCALE / 2n`.
const UNIT: [i32; SHORT_LINE as usize] = {
    let mut unit = [0; SHORT_LINE as usize];
    let mut n = 1;
    while n < SHORT_LINE as usize {
        unit[n] = SCALE / (2 * n as i32);
        assert!(unit[n] * 2 * n as i32 == SCALE);
        n += 1;
    }
    unit
};

/// The square and its border: bit `lx` of row `ly` is cell `(x0 + lx, y0 + ly)`, the origin at
/// `(reach + 1, reach + 1)`.
#[derive(Default)]
pub(super) struct ShortBox {
    /// Cells seen by the octants so far (lit or not: MRPAS scans the radius' square).
    pub(super) seen: [u32; 32],
    /// Of those, the clear ones.
    seen_clear: [u32; 32],
    starts: Vec<i32>,
    ends: Vec<i32>,
}

/// The view of `ctx` (reach 1 ..= 11), each octant's lines before `first(vertical, dm, dc)`
/// already lit (open: no wall on the whole line, see `open_rows.rs`).
pub(super) fn scan<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    radius_cols: &mut RadiusCols,
    b: &mut ShortBox,
    first: impl Fn(bool, i32, i32) -> i32,
) {
    let reach = ctx.reach;
    debug_assert!((1..SHORT_LINE as i32).contains(&reach));
    let side = 2 * reach + 3;
    let (x0, y0) = (ctx.ox - reach - 1, ctx.oy - reach - 1);
    b.seen[..side as usize].fill(0);
    b.seen_clear[..side as usize].fill(0);
    // (Never asked about: an octant's line 1 is open, with no behind test.)
    b.seen[reach as usize + 1] = 1 << (reach + 1);
    for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        octant::<true, O>(ctx, b, dy, dx, first(true, dy, dx));
        octant::<false, O>(ctx, b, dx, dy, first(false, dx, dy));
    }
    // The cells seen within the radius are lit (the clear ones only, when walls are not).
    let c = reach + 1;
    for dy in -reach..=reach {
        let ly = (c + dy) as usize;
        let w = radius_cols.get(dy.abs()).min(reach);
        if w < 0 {
            continue;
        }
        let disc = (u32::MAX >> (31 - 2 * w)) << (c - w);
        let mut lit = b.seen[ly] & disc;
        if !ctx.light_walls {
            lit &= b.seen_clear[ly];
        }
        if lit != 0 {
            ctx.visible.mark_row_bits(y0 + ly as i32, x0, u64::from(lit));
        }
    }
}

/// One octant, as the long views' `Run::octant`: `VERTICAL` when its lines are rows, `dm` and
/// `dc` the steps along the main and cross axes, `first` its first line not open.
fn octant<const VERTICAL: bool, O: Opacity>(ctx: &FovContext<'_, O>, b: &mut ShortBox, dm: i32, dc: i32, first: i32) {
    let c = ctx.reach + 1;
    let (x0, y0) = (ctx.ox - c, ctx.oy - c);
    // Cell k of line n in the box: (lx, ly).
    let at = |n: i32, k: i32| if VERTICAL { (c + dc * k, c + dm * n) } else { (c + dm * n, c + dc * k) };
    // The open lines: every cell seen, and clear (the octants after this one read them).
    for n in 1..first {
        if VERTICAL {
            let (lx, ly) = at(n, if dc > 0 { 0 } else { n });
            let line = (u32::MAX >> (31 - n)) << lx;
            b.seen[ly as usize] |= line;
            b.seen_clear[ly as usize] |= line;
        } else {
            for k in 0..=n {
                let (lx, ly) = at(n, k);
                b.seen[ly as usize] |= 1 << lx;
                b.seen_clear[ly as usize] |= 1 << lx;
            }
        }
    }
    let (pov_main, pov_cross) = if VERTICAL { (ctx.oy, ctx.ox) } else { (ctx.ox, ctx.oy) };
    let (size_main, size_cross) =
        if VERTICAL { (ctx.grid.height(), ctx.grid.width()) } else { (ctx.grid.width(), ctx.grid.height()) };
    // Seen and clear: the "behind" test.
    let lit_and_clear = |b: &ShortBox, (lx, ly): (i32, i32)| b.seen_clear[ly as usize] >> lx & 1 != 0;
    b.starts.clear();
    b.ends.clear();
    let mut in_last = 0;
    let mut min_angle = 0;
    let mut n = first;
    let mut line = pov_main + dm * first;
    let mut done = !(0..size_main).contains(&line) || first > ctx.reach;
    while !done {
        let unit = UNIT[n as usize];
        // First cell: trunc(min_angle · n + ½), min_angle ≥ 0.
        let k0 = (2 * min_angle * n + SCALE) / (2 * SCALE);
        let last_k =
            if dc > 0 { (pov_cross + n).min(size_cross - 1) - pov_cross } else { pov_cross - (pov_cross - n).max(0) };
        done = true;
        for k in k0..=last_k {
            let (lx, ly) = at(n, k);
            // Once an obstacle is known, the cell behind or diagonally behind must be seen and clear.
            if in_last > 0 && !lit_and_clear(b, at(n - 1, k)) && !lit_and_clear(b, at(n - 1, k - 1)) {
                continue;
            }
            let opaque = ctx.grid.is_opaque(x0 + lx, y0 + ly);
            let centre = 2 * k * unit;
            let (start, end) = (centre - unit, centre + unit);
            if !opaque {
                // Hidden when its centre lies strictly inside an obstacle.
                let inside = |(&sa, &ea): (&i32, &i32)| sa < centre && centre < ea;
                if b.starts[..in_last].iter().zip(&b.ends[..in_last]).any(inside) {
                    continue;
                }
                done = false;
            } else {
                // Hidden when one obstacle holds its whole range; else it widens those it
                // overlaps, raises the minimum angle, or becomes an obstacle.
                let mut extended = false;
                let mut hidden = false;
                for idx in 0..in_last {
                    let (sa, ea) = (b.starts[idx], b.ends[idx]);
                    if start <= ea && sa <= end {
                        if sa <= start && end <= ea {
                            hidden = true;
                            break;
                        }
                        b.starts[idx] = sa.min(start);
                        b.ends[idx] = ea.max(end);
                        extended = true;
                    }
                }
                if hidden {
                    continue;
                }
                done = false;
                if start <= min_angle {
                    min_angle = end;
                    done = k == n;
                } else if !extended {
                    b.starts.push(start);
                    b.ends.push(end);
                }
            }
            b.seen[ly as usize] |= 1 << lx;
            b.seen_clear[ly as usize] |= u32::from(!opaque) << lx;
        }
        if n >= ctx.reach {
            done = true;
        }
        n += 1;
        in_last = b.starts.len();
        line += dm;
        if !(0..size_main).contains(&line) {
            done = true;
        }
    }
}
