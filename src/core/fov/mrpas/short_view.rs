//! MRPAS in short views: reach up to [`MAX_REACH`] (a radius of 30 and less: the sight of a
//! roguelike's actors, and most lit areas), whose square with a border of one cell fits a word a
//! row.
//!
//! The same definition as the long views' scan (the module above), with its bookkeeping cut to
//! what such views need. The record of the cells seen so far is the radius' square and a border
//! of one cell as rows of bits; the record of those seen and clear, which the "behind" test reads
//! (by any octant: the test of a cell next to the axis or the diagonal reads what the octants
//! before it saw), is kept twice, as rows and as columns, so that each octant finds its previous
//! line as one word. A line's candidates (the cells whose cell behind or diagonally behind is
//! seen and clear) are then that word or'ed with itself shifted by a cell, and their opacity is
//! one masked read of the map: only the candidates are read, as when the scan read them one by
//! one (the LOS cache records which cells a view read, and recomputes a view only when one of
//! those changes). The border holds the cells beside the lines' ends, never seen, so no bounds
//! are tested. Every angle of such a view, `(2k ± 1) / 2n` and `k / n` for lines `n ≤ 30`, is a
//! whole multiple of `1 / SCALE`, so angles are integers compared exactly, as the rationals are.
//! The octants light nothing: the cells seen within the radius are lit at the end, a row of the
//! square at a time.

use super::super::{Axis, FovContext, Opacity, RadiusCols};

/// The longest reach a short view takes: its square and border, `2 · 30 + 3` cells, fit a word.
pub(super) const MAX_REACH: i32 = 30;

/// `2n` divides this for every line `n ≤ MAX_REACH` (it is twice lcm(1, …, 30)). The largest
/// product the scan makes, `2 · min_angle · n` with `min_angle ≤ 1.5 · SCALE`, is under 2⁴⁹.
const SCALE: i64 = 4_658_179_125_600;

/// Cells `k` of line `n` span the angles `((2k − 1) · unit, (2k + 1) · unit)` around `2k · unit`,
/// with `unit = UNIT[n] = SCALE / 2n`.
const UNIT: [i64; MAX_REACH as usize + 1] = {
    let mut unit = [0; MAX_REACH as usize + 1];
    let mut n = 1;
    while n <= MAX_REACH as usize {
        unit[n] = SCALE / (2 * n as i64);
        assert!(unit[n] * 2 * n as i64 == SCALE);
        n += 1;
    }
    unit
};

/// The square and its border: bit `lx` of row `ly` is cell `(x0 + lx, y0 + ly)`, the origin at
/// `(reach + 1, reach + 1)`.
pub(super) struct ShortBox {
    /// Cells seen by the octants so far (lit or not: MRPAS scans the radius' square).
    pub(super) seen: [u64; 64],
    /// Of those, the clear ones, as rows (bit `lx` of word `ly`) and as columns (bit `ly` of word
    /// `lx`).
    clear_rows: [u64; 64],
    clear_columns: [u64; 64],
    starts: Vec<i64>,
    ends: Vec<i64>,
}

impl ShortBox {
    /// Nothing seen, over a square of `side` words.
    pub(super) fn clear(&mut self, side: usize) {
        self.seen[..side].fill(0);
        self.clear_rows[..side].fill(0);
        self.clear_columns[..side].fill(0);
    }

    /// Records cell `(lx, ly)` of the square as seen and clear for the behind tests of the
    /// octants after (without marking it seen).
    pub(super) fn record_clear(&mut self, lx: i32, ly: i32) {
        self.clear_rows[ly as usize] |= 1 << lx;
        self.clear_columns[lx as usize] |= 1 << ly;
    }
}

impl Default for ShortBox {
    fn default() -> Self {
        Self { seen: [0; 64], clear_rows: [0; 64], clear_columns: [0; 64], starts: Vec::new(), ends: Vec::new() }
    }
}

/// The view of `ctx` (reach 1 ..= [`MAX_REACH`]), each octant's lines before
/// `first(vertical, dm, dc)` already lit (open: no wall on the whole line, see `open_rows.rs`).
pub(super) fn scan<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    radius_cols: &mut RadiusCols,
    b: &mut ShortBox,
    first: impl Fn(bool, i32, i32) -> i32,
) {
    let reach = ctx.reach;
    debug_assert!((1..=MAX_REACH).contains(&reach));
    let side = 2 * reach + 3;
    let (x0, y0) = (ctx.ox - reach - 1, ctx.oy - reach - 1);
    b.clear(side as usize);
    // (Never asked about: an octant's line 1 is open, with no behind test.)
    b.seen[reach as usize + 1] = 1 << (reach + 1);
    for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        octant::<true, O>(ctx, b, dy, dx > 0, first(true, dy, dx));
        octant::<false, O>(ctx, b, dx, dy > 0, first(false, dx, dy));
    }
    // The cells seen within the radius are lit (the clear ones only, when walls are not).
    let c = reach + 1;
    for dy in -reach..=reach {
        let ly = (c + dy) as usize;
        let w = radius_cols.get(dy.abs()).min(reach);
        if w < 0 {
            continue;
        }
        let disc = (u64::MAX >> (63 - 2 * w)) << (c - w);
        let mut lit = b.seen[ly] & disc;
        if !ctx.light_walls {
            lit &= b.clear_rows[ly];
        }
        if lit != 0 {
            ctx.visible.mark_row_bits(y0 + ly as i32, x0, lit);
        }
    }
}

/// The bits `c + step · i` for `i` in `from ..= to` (`step` ±1).
#[inline]
fn steps(c: i32, step: i32, from: i32, to: i32) -> u64 {
    let bits = u64::MAX >> (63 - (to - from));
    if step > 0 { bits << (c + from) } else { bits << (c - to) }
}

/// One octant, as the long views' `Run::octant`: `VERTICAL` when its lines are rows, `dm` the
/// step along the main axis, `across` whether the step across is +1, `first` its first line not
/// open.
///
/// In the octant's own terms, line `n` is word `c + dm · n` of the record along its lines (rows
/// when `VERTICAL`, else columns), and its cell `k` is bit `c + dc · k`, `c` the origin's.
pub(super) fn octant<const VERTICAL: bool, O: Opacity>(
    ctx: &FovContext<'_, O>,
    b: &mut ShortBox,
    dm: i32,
    across: bool,
    first: i32,
) {
    let dc = if across { 1 } else { -1 };
    let c = ctx.reach + 1;
    let (pov_main, pov_cross) = if VERTICAL { (ctx.oy, ctx.ox) } else { (ctx.ox, ctx.oy) };
    let (size_main, size_cross) =
        if VERTICAL { (ctx.grid.height(), ctx.grid.width()) } else { (ctx.grid.width(), ctx.grid.height()) };
    let axis = if VERTICAL { Axis::Row } else { Axis::Column };
    // Map position of bit 0 across the lines.
    let cross0 = pov_cross - c;
    // Bit `p` of word `w` of the record along the lines is seen (and clear, if `clear`).
    let record = |b: &mut ShortBox, w: i32, p: i32, clear: bool| {
        let (lx, ly) = if VERTICAL { (p, w) } else { (w, p) };
        b.seen[ly as usize] |= 1 << lx;
        b.clear_rows[ly as usize] |= u64::from(clear) << lx;
        b.clear_columns[lx as usize] |= u64::from(clear) << ly;
    };
    // The bits of cells `from ..= to` of a line.
    let span = |from: i32, to: i32| steps(c, dc, from, to);
    // The open lines: every cell seen, and clear (the octants after this one read them). They
    // make a triangle: line n holds cells 0 ..= n, and cell k's line across them holds lines
    // max(k, 1) .. first.
    if first > 1 {
        for n in 1..first {
            let w = (c + dm * n) as usize;
            let line = span(0, n);
            if VERTICAL {
                b.seen[w] |= line;
                b.clear_rows[w] |= line;
            } else {
                b.clear_columns[w] |= line;
            }
        }
        for k in 0..first {
            let p = (c + dc * k) as usize;
            let lines = steps(c, dm, k.max(1), first - 1);
            if VERTICAL {
                b.clear_columns[p] |= lines;
            } else {
                b.seen[p] |= lines;
                b.clear_rows[p] |= lines;
            }
        }
    }
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
        let k0 = ((2 * min_angle * i64::from(n) + SCALE) / (2 * SCALE)) as i32;
        let last_k =
            if across { (pov_cross + n).min(size_cross - 1) - pov_cross } else { pov_cross - (pov_cross - n).max(0) };
        done = true;
        if k0 > last_k {
            break;
        }
        let w = c + dm * n;
        let mut candidates = span(k0, last_k);
        if in_last > 0 {
            // The cell behind (bit p of the previous line) or diagonally behind (bit p − dc)
            // seen and clear.
            let previous = if VERTICAL { b.clear_rows[(w - dm) as usize] } else { b.clear_columns[(w - dm) as usize] };
            candidates &= previous | if across { previous << 1 } else { previous >> 1 };
        }
        let opaque_bits = ctx.grid.line_bits_masked(axis, line, cross0, candidates);
        // In the order of k: the obstacles a wall widens are those the next cells meet.
        while candidates != 0 {
            let p = if across { candidates.trailing_zeros() } else { 63 - candidates.leading_zeros() };
            candidates &= !(1 << p);
            let p = p as i32;
            let k = (p - c) * dc;
            let opaque = opaque_bits >> p & 1 != 0;
            let centre = 2 * i64::from(k) * unit;
            let (start, end) = (centre - unit, centre + unit);
            if !opaque {
                // Hidden when its centre lies strictly inside an obstacle.
                let inside = |(&sa, &ea): (&i64, &i64)| sa < centre && centre < ea;
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
            record(b, w, p, !opaque);
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
