//! The rows an octant scan lights whole before it meets its first wall, found and lit for all
//! eight octants at once.
//!
//! An octant scan (Bergström's, Nystrom's, Milazzo's, mingos' MRPAS; ray's rings) starts with
//! the whole octant lit: sector `[0, 1]`, an empty shadow line, no obstacle. A row whose cells
//! within the radius are all clear (and on the map) is lit within the radius and leaves that
//! state as it was. So up to an octant's first row with a wall within the radius, its view is
//! known without running it: every cell within the radius. [`light_open_rows`] finds that row
//! for each octant, lights the rows before it, and the scan starts there, from its first state.
//!
//! Why only the cells within the radius: Milazzo's scan skips the others as if absent.
//! Bergström's and Nystrom's read whole rows, and there a wall beyond the radius does change the
//! scan's state, but only for cells beyond the radius: the radius' last column only shrinks
//! from row to row, so a wall at column `p` of row `j`, past it, shades in the later rows only
//! columns `p` and above. (Bergström: its new start slope `(2p − 1)/(2j + 1)` is above every
//! `(2c − 1)/(2j' + 1)` with `c < p`, `j' > j`. Nystrom: a tile `c < p` of a later row projects
//! to an end `(c + 1)/(j' + 1) ≤ p/(j + 2)`, the wall's start.) The comparisons with each scan's
//! cell-by-cell reference, on maps with sparse walls too, check it. MRPAS is the exception: it
//! scans the radius' square, a wall there beyond the radius becomes an obstacle or moves its
//! minimum angle, and its octants ask one another about what they saw; no argument like the
//! ones above covers all of that, so its rows must be clear whole ([`RowExtent::Whole`]).
//!
//! Why it pays: an octant whose rows run along map columns lights them as spans down columns
//! (a few nanoseconds a span, see `VisibleSet::mark_column`), and every octant spends a fixed
//! cost on each row. Here both octants that share a line read it as one word, and their open
//! lines are lit as map rows. An open map is all open rows; a room, the rows up to its walls;
//! a 30% noise map, hardly any, and there most octants are found closed by reading the
//! origin's 5 × 5 box.
//!
//! The cells read are within the radius (MRPAS: its square), in rows the scan reads too: row 1
//! of every octant, row 2 of those whose row 1 is open, then each octant's rows up to and
//! including its first closed one. So a recording grid (the LOS cache's read-sets) records
//! about what the scan alone would, and never a cell past the radius (the LOS cache's regions
//! of one door toggle, in BENCHMARKS.md, did not change).

use super::{Axis, FovContext, OctantLines, Opacity, RadiusCols};

/// The deepest row searched: its cells each side of the axis are one 64-bit word. A scan goes
/// on from the next row.
const DEEPEST_OPEN_ROW: i32 = 62;

/// Which cells of a row must be clear for it to be open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowExtent {
    /// Those within the radius (the scans that ignore walls beyond it, see the module's
    /// documentation).
    WithinRadius,
    /// The whole row, `0 ..= row` (MRPAS, which scans the radius' square: see the module's
    /// documentation).
    Whole,
}

/// For each octant, the first row that is not open (its scan starts there); past the reach
/// when every row is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenRows {
    first_closed: [i32; 8],
}

impl OpenRows {
    /// The first row the octant of `lines` must scan (1 when no row before it is open).
    #[inline]
    pub(super) fn first_closed(&self, lines: &OctantLines) -> i32 {
        self.first_closed_along(lines.axis, lines.line_step, lines.sign)
    }

    /// The same for the octant whose rows are the map lines along `axis`, `line_step` apart,
    /// its columns going `sign` from the origin's.
    #[inline]
    pub(super) fn first_closed_along(&self, axis: Axis, line_step: i32, sign: i32) -> i32 {
        self.first_closed[octant_index(axis, line_step, sign)]
    }

    /// Whether every octant is open to `reach` (which must be the context's): then no cell
    /// within the radius holds a wall ([`RowExtent::Whole`]: none within its square), the view
    /// is its open rows, no scan has a row left, and a pass that lights walls within the radius
    /// has nothing to light.
    #[inline]
    pub(super) fn all_open_to(&self, reach: i32) -> bool {
        self.first_closed.iter().all(|&first| first > reach)
    }
}

/// The bit of the octant of `lines` in the `octants` mask of [`light_open_rows`].
#[inline]
pub(crate) fn octant_bit(lines: &OctantLines) -> u8 {
    1 << octant_index(lines.axis, lines.line_step, lines.sign)
}

/// An octant by where its rows go: map rows or map columns (`axis`), the way the rows advance
/// (`line_step`) and the way its columns go from the axis (`sign`).
#[inline(always)]
fn octant_index(axis: Axis, line_step: i32, sign: i32) -> usize {
    usize::from(axis == Axis::Column) * 4 + usize::from(line_step > 0) * 2 + usize::from(sign > 0)
}

/// Fewer open rows than this an octant's scan lights itself: lighting them here costs more
/// than the scan's rows it saves.
const FEWEST_CLAIMED_ROWS: i32 = 2;

/// Finds the open rows of the octants in `octants` (a bit an [`octant_bit`]), from row `from`
/// on (the caller knows the rows before it open and lights them), lights them, and returns the
/// row each octant's scan starts at: `from` for the octants not in `octants` and those with
/// fewer than [`FEWEST_CLAIMED_ROWS`] open rows.
///
/// Out of line: inlined into a scan, it made the scan's own loops slower on maps with walls
/// (shadowline 6–9% at r = 4 with no octant searched).
#[inline(never)]
pub(crate) fn light_open_rows<O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    radius_cols: &mut RadiusCols,
    octants: u8,
    from: i32,
    extent: RowExtent,
) -> OpenRows {
    let deepest = ctx.reach.min(DEEPEST_OPEN_ROW);
    // Most octants of a map with walls close within two rows: found without a search.
    let (octants, search_from) =
        if from == 1 && ctx.reach >= 3 { (octants & first_two_rows_open(ctx), 3) } else { (octants, from) };
    let mut first_closed = [from; 8];
    if octants == 0 {
        return OpenRows { first_closed };
    }
    let mut claimed = false;
    for axis in [Axis::Row, Axis::Column] {
        for line_step in [-1, 1] {
            let pair = [octant_index(axis, line_step, -1), octant_index(axis, line_step, 1)];
            let wanted = pair.map(|k| octants >> k & 1 != 0);
            if wanted == [false, false] {
                continue;
            }
            let pair_lines = (axis, line_step);
            let found = match extent {
                RowExtent::WithinRadius => {
                    open_pair::<false, O>(ctx, radius_cols, pair_lines, search_from, deepest, wanted)
                }
                RowExtent::Whole => open_pair::<true, O>(ctx, radius_cols, pair_lines, search_from, deepest, wanted),
            };
            for ((k, first), wanted) in pair.into_iter().zip(found).zip(wanted) {
                if wanted && first - from >= FEWEST_CLAIMED_ROWS {
                    first_closed[k] = first;
                    claimed = true;
                }
            }
        }
    }
    if claimed {
        light(ctx, radius_cols, &first_closed, from);
    }
    OpenRows { first_closed }
}

/// The octants (a bit an [`octant_index`]) whose rows 1 and 2 hold no wall, for a reach of 3 or
/// more (the radius then holds both rows whole). Read as the scans read them: row 1 of every
/// octant (the origin's eight neighbours), and row 2 only of the octants whose row 1 is open.
fn first_two_rows_open<O: Opacity>(ctx: &FovContext<'_, O>) -> u8 {
    let (ox, oy, grid) = (ctx.ox, ctx.oy, ctx.grid);
    // Bit dx + 1 for the cell dx columns from the origin's.
    let row = |dy: i32, mask: u64| grid.line_bits_masked(Axis::Row, oy + dy, ox - 1, mask);
    let (above, level, below) = (row(-1, 0b111), row(0, 0b101), row(1, 0b111));
    // Row 1 of each octant, in `octant_index` order.
    let row_1 = [
        above & 0b011,
        above & 0b110,
        below & 0b011,
        below & 0b110,
        (level | above) & 0b001,
        (level | below) & 0b001,
        (level | above) & 0b100,
        (level | below) & 0b100,
    ];
    let mut open = 0;
    for (pair, (axis, line, from)) in [
        (Axis::Row, oy - 2, ox - 2),
        (Axis::Row, oy + 2, ox - 2),
        (Axis::Column, ox - 2, oy - 2),
        (Axis::Column, ox + 2, oy - 2),
    ]
    .into_iter()
    .enumerate()
    {
        // Row 2 of the pair's octants: the cells −2 ..= 0 from the axis (bits 0 to 2), then
        // 0 ..= 2 (bits 2 to 4).
        let halves = [0b00111, 0b11100];
        let row_1_open = [row_1[2 * pair] == 0, row_1[2 * pair + 1] == 0];
        let mask = (0..2).filter(|&side| row_1_open[side]).fold(0, |mask, side| mask | halves[side]);
        let walls = grid.line_bits_masked(axis, line, from, mask);
        for side in 0..2 {
            if row_1_open[side] && walls & halves[side] == 0 {
                open |= 1 << (2 * pair + side);
            }
        }
    }
    open
}

/// The first closed row of the two octants whose rows are the lines `line_step` apart along
/// `axis` (the one whose columns go down the line, then up), each searched if `wanted`: rows
/// `from` to `deepest`, and `deepest + 1` when all of them are open. `WHOLE`: rows must be
/// clear whole ([`RowExtent::Whole`]; a constant, so that the search's loop has no test of it).
fn open_pair<const WHOLE: bool, O: Opacity>(
    ctx: &FovContext<'_, O>,
    radius_cols: &mut RadiusCols,
    (axis, line_step): (Axis, i32),
    from: i32,
    deepest: i32,
    wanted: [bool; 2],
) -> [i32; 2] {
    let (base, line0) = match axis {
        Axis::Row => (ctx.ox, ctx.oy),
        Axis::Column => (ctx.oy, ctx.ox),
    };
    let mut first_closed = [from, from];
    let mut open = wanted;
    for j in from..=deepest {
        let line = line0 + j * line_step;
        // The columns read, `-m ..= m` (bit `m` is column 0).
        let m = if WHOLE { j } else { j.min(radius_cols.get(j)) };
        let half = (1u64 << (m + 1)) - 1;
        let walled = if m < 32 {
            let mask = if open[0] { half } else { 0 } | if open[1] { half << m } else { 0 };
            let bits = ctx.grid.line_bits_masked(axis, line, base - m, mask);
            [bits & half != 0, bits >> m & half != 0]
        } else {
            let read = |at: i32, open: bool| open && ctx.grid.line_bits_masked(axis, line, at, half) != 0;
            [read(base - m, open[0]), read(base, open[1])]
        };
        for side in 0..2 {
            if open[side] {
                if walled[side] {
                    open[side] = false;
                } else {
                    first_closed[side] = j + 1;
                }
            }
        }
        if open == [false, false] {
            break;
        }
    }
    first_closed
}

/// Lights the open rows: those of each octant from row `from` up to its `first_closed`. Each
/// pair of octants that share their lines is lit a map row at a time, so that the cost is the
/// open rows' count, whichever octants have them: an open line of the octants along map rows
/// is one span across both; the octants along map columns light, in map row `dy` from the
/// origin's, their rows from `|dy|` on, one span.
fn light<O: Opacity>(ctx: &mut FovContext<'_, O>, radius_cols: &mut RadiusCols, first_closed: &[i32; 8], from: i32) {
    let (ox, oy) = (ctx.ox, ctx.oy);
    for line_step in [-1, 1] {
        // Along map rows: line j is map row `oy + line_step · j`, the two octants its columns
        // left and right of the origin's.
        let [left, right] = [-1, 1].map(|sign| first_closed[octant_index(Axis::Row, line_step, sign)]);
        for j in from..left.max(right) {
            let m = j.min(radius_cols.get(j));
            let x0 = if j < left { ox - m } else { ox };
            let x1 = if j < right { ox + m } else { ox };
            ctx.visible.mark_row(oy + line_step * j, x0, x1);
        }
        // Along map columns: line j is map column `ox + line_step · j`, the two octants its
        // cells above and below the origin's row. Map row `dy` holds their lines' cells `|dy|`
        // from the axis: lines `|dy| ..` up to the octant's first closed one, within the radius.
        let [up, down] = [-1, 1].map(|sign| first_closed[octant_index(Axis::Column, line_step, sign)]);
        if up.max(down) <= from {
            continue;
        }
        for dy in 1 - up.max(from)..down.max(from) {
            let closed = match dy.signum() {
                -1 => up,
                1 => down,
                _ => up.max(down),
            };
            let c = dy.abs();
            let (near, far) = (c.max(from), (closed - 1).min(radius_cols.get(c)));
            if near <= far {
                let (a, b) = (ox + line_step * near, ox + line_step * far);
                ctx.visible.mark_row(oy + dy, a.min(b), a.max(b));
            }
        }
    }
}
