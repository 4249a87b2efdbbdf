//! The 9 × 9 box around a view's origin, whose cells shadowcast's first four rows and
//! milazzo's first columns look up in tables instead of scanning, and MRPAS's views up to
//! radius 4 whole (see their modules).
//!
//! The box is kept as two overlapping halves of six rows, each one word, and an octant's cells
//! are taken out of a half, or put back, in one step by a bit gather (BMI2's `pext` and `pdep`,
//! with a portable fallback): no loop over an octant's rows, no reversed lines, and no turning
//! of columns into rows. A half's cells are bits `9 · row + column`, the origin at column 4: the
//! top half holds rows −4 to +1 from the origin, the bottom half rows −1 to +4. Every octant's
//! cells within four rows and columns of the origin lie in one of them, one step across its
//! axis included.
//!
//! Reading the box's rows and columns as 9-bit lines instead, and reversing and turning them
//! (the way before session 50), took twice as long for a looked-up view of shadowcast at
//! radius 4 (222 → 106 ns on the 30% map, a scratch program, alternated builds).
//!
//! On processors whose `pext` is microcoded (AMD before Zen 3) a gather costs tens of cycles;
//! the views stay exact, only slower.

use super::{Axis, FovContext, Opacity};

/// The box's side: a half's row is 9 bits.
pub(super) const SIDE: u32 = 9;

/// For each `r²` up to 32 (from which the whole box is within the radius), the cells of a
/// 9-bit box row `|dy|` rows from the origin within the radius: bit `b` for `dx = b − 4`.
pub(super) const BOX_DISCS: [[u16; 5]; 33] = {
    let mut discs = [[0; 5]; 33];
    let mut r2: usize = 0;
    while r2 < 33 {
        let mut dy: usize = 0;
        while dy <= 4 {
            let mut b: usize = 0;
            while b < SIDE as usize {
                let dx = b.abs_diff(4);
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

/// Whether the box around the view's origin lies on the map.
#[inline(always)]
pub(super) fn on_map<O: Opacity>(ctx: &FovContext<'_, O>) -> bool {
    let (w, h) = (ctx.grid.width(), ctx.grid.height());
    (4..w - 4).contains(&ctx.ox) && (4..h - 4).contains(&ctx.oy)
}

/// Whether a cell within `reach` of the view's origin along both axes is opaque (the origin's
/// own counted), read a row at a time.
#[inline(always)]
pub(super) fn wall_within<O: Opacity>(ctx: &FovContext<'_, O>, reach: i32) -> bool {
    let side = 2 * reach as u32 + 1;
    (-reach..=reach).any(|dy| ctx.grid.line_bits(Axis::Row, ctx.oy + dy, ctx.ox - reach, side) & ((1 << side) - 1) != 0)
}

/// Rows in each half.
const HALF_ROWS: i32 = 6;

/// The three rows both halves hold: the top's last three, the bottom's first three.
const SHARED: u64 = (1 << (3 * SIDE)) - 1;

/// The bit of map offset `(dx, dy)` from the origin in a half.
pub(super) fn half_bit(bottom: bool, (dx, dy): (i32, i32)) -> u32 {
    let row = if bottom { dy + 1 } else { dy + 4 };
    debug_assert!((0..HALF_ROWS).contains(&row) && (-4..=4).contains(&dx));
    row as u32 * SIDE + (dx + 4) as u32
}

/// Whether cells at offsets `dy` all lie in the bottom half (else they must all lie in the top).
pub(super) fn in_bottom(mut dys: impl Iterator<Item = i32> + Clone) -> bool {
    let bottom = dys.clone().all(|dy| dy >= -1);
    debug_assert!(bottom || dys.all(|dy| dy <= 1));
    bottom
}

/// The box around a view's origin (on the map) as halves: its cells' opacity, or the cells seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct BoxHalves {
    top: u64,
    bottom: u64,
}

impl BoxHalves {
    /// The opacity of the box around the view's origin, which must lie on the map.
    #[inline(always)]
    pub(super) fn read<O: Opacity>(ctx: &FovContext<'_, O>) -> Self {
        let (ox, oy) = (ctx.ox, ctx.oy);
        Self::from_rows(&std::array::from_fn(|i| {
            ctx.grid.line_bits(Axis::Row, oy - 4 + i as i32, ox - 4, SIDE) & 0x1ff
        }))
    }

    /// A box given as nine 9-bit rows (row `i` for `dy = i − 4`).
    #[inline(always)]
    pub(super) fn from_rows(rows: &[u64; SIDE as usize]) -> Self {
        let half =
            |first: usize| (0..HALF_ROWS as usize).fold(0, |half, i| half | rows[first + i] << (i as u32 * SIDE));
        Self { top: half(0), bottom: half(3) }
    }

    /// Row `i` (`dy = i − 4`), as 9 bits.
    #[inline(always)]
    pub(super) fn row(&self, i: u32) -> u64 {
        let row = if i < HALF_ROWS as u32 { self.top >> (i * SIDE) } else { self.bottom >> ((i - 3) * SIDE) };
        row & ((1 << SIDE) - 1)
    }

    /// The half holding the cells of an octant in the bottom half or not.
    #[inline(always)]
    pub(super) fn half(&self, bottom: bool) -> u64 {
        if bottom { self.bottom } else { self.top }
    }

    /// Adds cells of the bottom half (`bottom`) or the top, keeping the rows both hold alike.
    #[inline(always)]
    pub(super) fn add(&mut self, bottom: bool, cells: u64) {
        if bottom {
            self.bottom |= cells;
            self.top |= (cells & SHARED) << (3 * SIDE);
        } else {
            self.top |= cells;
            self.bottom |= cells >> (3 * SIDE);
        }
    }

    /// Lights the cells seen, those of each row `dy` from the origin cut to `disc[|dy|]`.
    #[inline(always)]
    pub(super) fn light<O: Opacity>(&self, ctx: &mut FovContext<'_, O>, disc: &[u16; 5]) {
        let (ox, oy) = (ctx.ox, ctx.oy);
        for i in 0..SIDE {
            let seen = self.row(i) & u64::from(disc[(i as i32 - 4).unsigned_abs() as usize]);
            ctx.visible.mark_row_bits(oy - 4 + i as i32, ox - 4, seen);
        }
    }
}

/// An octant's cells in the box, for a table indexed by a pattern of some of them and giving
/// the view of some of them: where they lie in the halves, and the lookups that put the order a
/// gather gives the pattern's cells in into the pattern's, and the view's bits into the order a
/// scatter takes them in.
pub(super) struct OctantCells {
    /// In the bottom half (else the top).
    pub bottom: bool,
    pattern_cells: u64,
    to_pattern: [[u16; 128]; 2],
    view_cells: u64,
    to_view_cells: [[u16; 128]; 2],
}

impl OctantCells {
    /// The cells of a pattern and of a view, as map offsets from the origin in the order of
    /// their bits (at most 14 each).
    pub(super) fn new(pattern: &[(i32, i32)], view: &[(i32, i32)]) -> Self {
        debug_assert!(pattern.len() <= 14 && view.len() <= 14);
        let bottom = in_bottom(pattern.iter().chain(view).map(|&(_, dy)| dy));
        let bit = |offset| half_bit(bottom, offset);
        let mask = |cells: &[(i32, i32)]| cells.iter().fold(0u64, |mask, &offset| mask | 1 << bit(offset));
        // A gather gives a mask's cells in the order of their bits in the half: the rank of
        // each cell's bit among the mask's.
        let rank =
            |cells: &[(i32, i32)], offset| cells.iter().filter(|&&other| bit(other) < bit(offset)).count() as u32;
        let mut to_pattern = vec![0; pattern.len()];
        for (i, &offset) in pattern.iter().enumerate() {
            to_pattern[rank(pattern, offset) as usize] = i as u32;
        }
        let to_view_cells: Vec<u32> = view.iter().map(|&offset| rank(view, offset)).collect();
        Self {
            bottom,
            pattern_cells: mask(pattern),
            to_pattern: permutation(&to_pattern, 7),
            view_cells: mask(view),
            to_view_cells: permutation(&to_view_cells, 7),
        }
    }

    /// The octant's pattern in a box's opacity: bit `i` for the pattern's cell `i`, set when
    /// opaque.
    #[inline(always)]
    pub(super) fn pattern<G: BitGather>(&self, opacity: &BoxHalves) -> u16 {
        let cells = G::gather(opacity.half(self.bottom), self.pattern_cells);
        self.to_pattern[0][(cells & 127) as usize] | self.to_pattern[1][(cells >> 7) as usize]
    }

    /// Adds the view's cells whose bit is set in `view` to the cells `seen`.
    #[inline(always)]
    pub(super) fn see<G: BitGather>(&self, view: u64, seen: &mut BoxHalves) {
        let cells = self.to_view_cells[0][(view & 127) as usize] | self.to_view_cells[1][(view >> 7 & 127) as usize];
        seen.add(self.bottom, G::scatter(u64::from(cells), self.view_cells));
    }
}

/// Lights each of eight octants' looked-up cells as the table `views` has them, cut to `disc`,
/// and returns the octants' entries and the mask of those that are open. An octant is given
/// by its cells (patterns index `views`) and its bit in the open octants' mask; an entry's bits
/// `view_bits` are the view's cells it sees (walls lit), and an octant is open when its pattern
/// holds no wall among the view's cells. BMI2's gathers where the processor has them.
pub(super) fn look_up<E: Copy + Into<u64>, O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    octants: &[(OctantCells, u8); 8],
    views: &[E],
    view_bits: u64,
    disc: &[u16; 5],
) -> ([u64; 8], u8) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has BMI2, the one feature `look_up_bmi2` is compiled for.
        return unsafe { look_up_bmi2(ctx, octants, views, view_bits, disc) };
    }
    look_up_with::<Portable, E, O>(ctx, octants, views, view_bits, disc)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn look_up_bmi2<E: Copy + Into<u64>, O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    octants: &[(OctantCells, u8); 8],
    views: &[E],
    view_bits: u64,
    disc: &[u16; 5],
) -> ([u64; 8], u8) {
    look_up_with::<Bmi2, E, O>(ctx, octants, views, view_bits, disc)
}

/// [`look_up`] with the gathers of `G`.
#[inline(always)]
pub(super) fn look_up_with<G: BitGather, E: Copy + Into<u64>, O: Opacity>(
    ctx: &mut FovContext<'_, O>,
    octants: &[(OctantCells, u8); 8],
    views: &[E],
    view_bits: u64,
    disc: &[u16; 5],
) -> ([u64; 8], u8) {
    let opacity = BoxHalves::read(ctx);
    let mut seen = BoxHalves::default();
    let mut entries = [0; 8];
    let mut open_octants = 0;
    for (entry, (cells, open_bit)) in entries.iter_mut().zip(octants) {
        let pattern = u64::from(cells.pattern::<G>(&opacity));
        *entry = views[pattern as usize].into();
        if pattern & view_bits == 0 {
            open_octants |= open_bit;
        }
        let mut view = *entry & view_bits;
        if !ctx.light_walls {
            // A pattern's set bits are its walls.
            view &= !pattern;
        }
        cells.see::<G>(view, &mut seen);
    }
    seen.light(ctx, disc);
    (entries, open_octants)
}

/// Two lookups that move bit `i` of a value to bit `map[i]`: the first indexed by the value's
/// bits `0..half`, the second by its bits `half..2 · half`.
pub(super) fn permutation<const N: usize>(map: &[u32], half: usize) -> [[u16; N]; 2] {
    let mut table = [[0; N]; 2];
    for (part, entries) in table.iter_mut().enumerate() {
        for (value, entry) in entries.iter_mut().enumerate() {
            for (i, &to) in map.iter().enumerate().skip(part * half).take(half) {
                if value >> (i - part * half) & 1 != 0 {
                    *entry |= 1 << to;
                }
            }
        }
    }
    table
}

/// Gathering a mask's bits to the bottom of a word, in order, and scattering them back.
pub(super) trait BitGather {
    fn gather(x: u64, mask: u64) -> u64;
    fn scatter(x: u64, mask: u64) -> u64;
}

/// A bit at a time, for processors without BMI2.
pub(super) struct Portable;

impl BitGather for Portable {
    #[inline]
    fn gather(x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut i = 0;
        while mask != 0 {
            out |= (x >> mask.trailing_zeros() & 1) << i;
            mask &= mask - 1;
            i += 1;
        }
        out
    }

    #[inline]
    fn scatter(x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut i = 0;
        while mask != 0 {
            out |= (x >> i & 1) << mask.trailing_zeros();
            mask &= mask - 1;
            i += 1;
        }
        out
    }
}

/// BMI2's `pext` and `pdep`: only within a function compiled for BMI2.
#[cfg(target_arch = "x86_64")]
pub(super) struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl BitGather for Bmi2 {
    #[inline(always)]
    fn gather(x: u64, mask: u64) -> u64 {
        // SAFETY: only called from functions compiled for BMI2, which run on processors with it.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }

    #[inline(always)]
    fn scatter(x: u64, mask: u64) -> u64 {
        // SAFETY: as above.
        unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    /// The portable gather and scatter are `pext` and `pdep`: each other's inverse on the
    /// mask's bits, and the same as BMI2's where the processor has it.
    #[test]
    fn gather_and_scatter_take_and_put_back_a_masks_bits() {
        let mut rng = Rng::new(3);
        for _ in 0..10_000 {
            let (x, mask) = (rng.next_u64(), rng.next_u64() & rng.next_u64());
            let gathered = Portable::gather(x, mask);
            assert!(gathered >> mask.count_ones() == 0 || mask.count_ones() == 64);
            assert_eq!(Portable::scatter(gathered, mask), x & mask);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                // SAFETY: the processor has BMI2.
                let (pext, pdep) =
                    unsafe { (std::arch::x86_64::_pext_u64(x, mask), std::arch::x86_64::_pdep_u64(gathered, mask)) };
                assert_eq!((gathered, x & mask), (pext, pdep));
            }
        }
        // A small case drawn out: mask 0b1011_0100 takes bits 2, 4, 5, 7 of x in order.
        assert_eq!(Portable::gather(0b1010_0100, 0b1011_0100), 0b1101);
        assert_eq!(Portable::scatter(0b1101, 0b1011_0100), 0b1010_0100);
    }

    /// Halves and rows: a box's rows go into the halves and come back out, the shared rows
    /// alike in both, and a half's cells added come back out as rows.
    #[test]
    fn rows_go_into_halves_and_come_back() {
        let mut rng = Rng::new(9);
        let rows: [u64; 9] = std::array::from_fn(|_| rng.next_u64() & 0x1ff);
        let halves = BoxHalves::from_rows(&rows);
        for (i, &row) in rows.iter().enumerate() {
            assert_eq!(halves.row(i as u32), row, "row {i}");
        }
        assert_eq!(halves.top >> (3 * SIDE), halves.bottom & SHARED);
        let mut seen = BoxHalves::default();
        // The cell at (dx, dy) = (2, −1), in the bottom half, and (−3, 1), in the top.
        seen.add(true, 1 << half_bit(true, (2, -1)));
        seen.add(false, 1 << half_bit(false, (-3, 1)));
        assert_eq!(seen.row(3), 1 << 6);
        assert_eq!(seen.row(5), 1 << 1);
        assert_eq!((0..9).map(|i| seen.row(i).count_ones()).sum::<u32>(), 2);
    }
}
