//! The 9 × 9 box around a view's origin, read as 9-bit lines: the first columns of every
//! octant, which milazzo looks up in a table instead of scanning (see its module). shadowcast
//! looks up its first four rows too, but reads the box as halves (`box_halves.rs`); it shares
//! [`BOX_DISCS`] with this module.
//!
//! The box's map rows are read for the octants whose rows are map rows, its map columns for
//! the others. An octant's row `j` (1 to 4) is then one 9-bit line, reversed when the octant's
//! columns run against the map ([`SmallBox::line`]); what the octant sees goes back the same way
//! ([`SmallBox::see`]), and what the column octants saw is turned into rows before the box is
//! lit as nine row words ([`SmallBox::light`]).

use super::{Axis, FovContext, OctantLines, Opacity};

/// How far the box reaches from the origin: its lines run from `−HALF` to `HALF`.
pub(super) const HALF: i32 = 4;

/// The box's side.
const SIDE: usize = 2 * HALF as usize + 1;

/// For each `r²` up to 32 (from which the whole box is within the radius), the cells of a
/// 9-bit box row `|dy|` rows from the origin within the radius: bit `b` for `dx = b − 4`.
pub(super) const BOX_DISCS: [[u16; HALF as usize + 1]; 33] = {
    let mut discs = [[0; HALF as usize + 1]; 33];
    let mut r2: usize = 0;
    while r2 < 33 {
        let mut dy: usize = 0;
        while dy <= HALF as usize {
            let mut b: usize = 0;
            while b < SIDE {
                let dx = b.abs_diff(HALF as usize);
                if dx * dx + dy * dy <= r2 {
                    discs[r2][dy] |= 1 << b;
                }
                b += 1;
            }
            dy += 1;
        }
        r2 += 1;
    }
    discs
};

/// Bit `8 − i` of each 9-bit line set where bit `i` is.
pub(super) const REVERSED_9: [u16; 512] = {
    let mut table = [0; 512];
    let mut line = 0;
    while line < 512 {
        table[line] = (line as u16).reverse_bits() >> 7;
        line += 1;
    }
    table
};

/// The box's opacity and the cells seen in it, as rows (`[0]`: row `oy − 4 + i`, bit `b` for
/// `x = ox − 4 + b`) and as columns (`[1]`: column `ox − 4 + i`, bit `b` for `y = oy − 4 + b`).
pub(super) struct SmallBox {
    origin: (i32, i32),
    opacity: [[usize; SIDE]; 2],
    seen: [[u16; SIDE]; 2],
}

impl SmallBox {
    /// Whether the box around the view's origin lies on the map.
    #[inline(always)]
    pub fn on_map<O: Opacity>(ctx: &FovContext<'_, O>) -> bool {
        let (w, h) = (ctx.grid.width(), ctx.grid.height());
        (HALF..w - HALF).contains(&ctx.ox) && (HALF..h - HALF).contains(&ctx.oy)
    }

    /// Reads the box of a view whose box lies on the map ([`SmallBox::on_map`]).
    #[inline(always)]
    pub fn read<O: Opacity>(ctx: &FovContext<'_, O>) -> Self {
        let read = |axis, centre: i32, across: i32| {
            let mut lines = [0; SIDE];
            for (i, line) in lines.iter_mut().enumerate() {
                *line = ctx.grid.line_bits(axis, centre - HALF + i as i32, across - HALF, SIDE as u32) as usize & 0x1ff;
            }
            lines
        };
        let (ox, oy) = (ctx.ox, ctx.oy);
        Self { origin: (ox, oy), opacity: [read(Axis::Row, oy, ox), read(Axis::Column, ox, oy)], seen: [[0; SIDE]; 2] }
    }

    /// Whether a cell within `reach` of the view's origin along both axes is opaque (the
    /// origin's own counted), read a row at a time.
    #[inline(always)]
    pub fn wall_within<O: Opacity>(ctx: &FovContext<'_, O>, reach: i32) -> bool {
        let side = 2 * reach as u32 + 1;
        (-reach..=reach)
            .any(|dy| ctx.grid.line_bits(Axis::Row, ctx.oy + dy, ctx.ox - reach, side) & ((1 << side) - 1) != 0)
    }

    /// Where the octant's row `j` is among the box's lines: rows or columns, and which.
    #[inline(always)]
    fn place(&self, lines: &OctantLines, j: i32) -> (usize, usize) {
        let (along, centre) = if lines.axis == Axis::Row { (0, self.origin.1) } else { (1, self.origin.0) };
        (along, (lines.line(j) - centre + HALF) as usize)
    }

    /// The opacity of the octant's row `j` (1 to 4) in the octant's order: bit `HALF + c` for
    /// its column `c`, from `−HALF` to `HALF`.
    #[inline(always)]
    pub fn line(&self, lines: &OctantLines, j: i32) -> usize {
        let (along, i) = self.place(lines, j);
        let line = self.opacity[along][i];
        if lines.sign > 0 { line } else { usize::from(REVERSED_9[line]) }
    }

    /// Marks the octant's row `j` seen at its columns `c` (0 to 4) whose bit `c` is set.
    #[inline(always)]
    pub fn see(&mut self, lines: &OctantLines, j: i32, cells: u16) {
        let (along, i) = self.place(lines, j);
        let cells = cells << HALF;
        self.seen[along][i] |= if lines.sign > 0 { cells } else { REVERSED_9[usize::from(cells)] };
    }

    /// Lights the cells seen, those of each row `dy` from the origin cut to `disc[|dy|]`.
    #[inline(always)]
    pub fn light<O: Opacity>(&self, ctx: &mut FovContext<'_, O>, disc: &[u16; HALF as usize + 1]) {
        let [mut rows, columns] = self.seen;
        for (i, &column) in columns.iter().enumerate() {
            let mut bits = column;
            while bits != 0 {
                rows[bits.trailing_zeros() as usize] |= 1 << i;
                bits &= bits - 1;
            }
        }
        let (ox, oy) = self.origin;
        for (i, &row) in rows.iter().enumerate() {
            let dy = (i as i32 - HALF).unsigned_abs() as usize;
            ctx.visible.mark_row_bits(oy - HALF + i as i32, ox - HALF, u64::from(row & disc[dy]));
        }
    }
}
