//! The machinery the scans share: the context each algorithm gets ([`FovContext`]), the
//! radius's extent per depth ([`RadiusCols`]), an octant's lines of tiles ([`OctantLines`],
//! [`ColumnWords`]), exact slopes ([`Ratio`]) and the eight octants' transforms.

use super::*;

/// What every algorithm gets: the grid, the origin, the radius test and where to write.
pub(crate) struct FovContext<'a, O: Opacity> {
    pub grid: &'a O,
    pub ox: i32,
    pub oy: i32,
    /// `r²`, or `i64::MAX` when unlimited.
    pub radius_squared: i64,
    /// The largest |dx| or |dy| any visible cell can have.
    pub reach: i32,
    pub light_walls: bool,
    pub visible: &'a mut VisibleSet,
}

impl<O: Opacity> FovContext<'_, O> {
    #[inline]
    pub(crate) fn in_radius(&self, dx: i32, dy: i32) -> bool {
        i64::from(dx) * i64::from(dx) + i64::from(dy) * i64::from(dy) <= self.radius_squared
    }

    /// Whether every cell within the reach of the origin, along both axes, lies on the map.
    #[inline]
    pub(crate) fn reach_on_map(&self) -> bool {
        let (w, h) = (self.grid.width(), self.grid.height());
        self.ox >= self.reach && self.oy >= self.reach && self.ox < w - self.reach && self.oy < h - self.reach
    }

    /// Marks `(x, y)` visible, unless it is opaque and walls are not lit.
    #[inline]
    pub(crate) fn reveal(&mut self, x: i32, y: i32) {
        if self.light_walls || !self.grid.is_opaque(x, y) {
            self.visible.mark(x, y);
        }
    }

    #[inline]
    pub(crate) fn is_opaque(&self, x: i32, y: i32) -> bool {
        self.grid.is_opaque(x, y)
    }

    /// Marks the cells `from + i` along `axis` at `fixed` visible for each bit `i` set in
    /// `bits` (they must be in the declared rectangle or off the map; the caller has applied
    /// `light_walls`).
    #[inline(always)]
    pub(crate) fn mark_bits(&mut self, axis: Axis, fixed: i32, from: i32, bits: u64) {
        match axis {
            Axis::Row => self.visible.mark_row_bits(fixed, from, bits),
            Axis::Column => {
                let mut bits = bits;
                while bits != 0 {
                    let first = bits.trailing_zeros();
                    let len = (bits >> first).trailing_ones();
                    self.visible.mark_column(fixed, from + first as i32, from + (first + len) as i32 - 1);
                    // Clears the lowest run of ones.
                    bits &= bits.wrapping_add(bits & bits.wrapping_neg());
                }
            }
        }
    }

    /// Marks cells `from..=to` along `axis` at `fixed` visible (they must be in the declared
    /// rectangle; the caller has applied `light_walls`).
    #[inline(always)]
    pub(crate) fn mark_run(&mut self, axis: Axis, fixed: i32, from: i32, to: i32) {
        match axis {
            Axis::Row => self.visible.mark_row(fixed, from, to),
            Axis::Column => self.visible.mark_column(fixed, from, to),
        }
    }
}

/// `floor(a / b)` for `b > 0`: a shift when `b` is a power of two (the slopes' divisors while
/// they are 0 and ±1, every row of an open map), a 32-bit division when the values fit (several
/// times faster than a 64-bit one).
#[inline]
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    if b & (b - 1) == 0 {
        a >> b.trailing_zeros()
    } else if let (Ok(a), Ok(b)) = (i32::try_from(a), i32::try_from(b)) {
        i64::from(a.div_euclid(b))
    } else {
        a.div_euclid(b)
    }
}

/// For each depth, the largest |col| with depth² + col² ≤ r² (negative: none), computed as the
/// scan first reaches each depth: the width only shrinks as depth grows, so each entry costs a
/// few integer steps from the previous one.
#[derive(Default)]
pub(crate) struct RadiusCols {
    radius_squared: i64,
    cols: Vec<i32>,
}

impl RadiusCols {
    /// Keeps the widths when the radius is the last call's (the common case: one actor's
    /// radius, view after view).
    pub(super) fn reset(&mut self, radius_squared: i64) {
        if radius_squared != self.radius_squared {
            self.radius_squared = radius_squared;
            self.cols.clear();
        }
    }

    /// Every scan asks once a row, so the widths already found are one load.
    #[inline]
    pub(crate) fn get(&mut self, depth: i32) -> i32 {
        match self.cols.get(depth as usize) {
            Some(&cols) => cols,
            None => self.extend_to(depth),
        }
    }

    /// Finds the widths of the depths up to `depth` and returns its own; an unlimited radius
    /// stores `i32::MAX` for each, so that [`RadiusCols::get`] need not test for it.
    #[cold]
    #[inline(never)]
    pub(super) fn extend_to(&mut self, depth: i32) -> i32 {
        while self.cols.len() <= depth as usize {
            if self.radius_squared == i64::MAX {
                self.cols.push(i32::MAX);
                continue;
            }
            let d = self.cols.len() as i64;
            let mut c = match self.cols.last() {
                Some(&c) => i64::from(c.max(0)),
                None => (self.radius_squared as f64).sqrt() as i64 + 1,
            };
            while c >= 0 && c * c + d * d > self.radius_squared {
                c -= 1;
            }
            // A radius beyond i32 covers any map: clamp rather than wrap.
            self.cols.push(c.min(i64::from(i32::MAX)) as i32);
        }
        self.cols[depth as usize]
    }
}

thread_local! {
    static RADIUS_COLS: std::cell::RefCell<RadiusCols> = std::cell::RefCell::new(RadiusCols::default());
}

/// Runs `f` with this thread's radius widths for `radius_squared` (`i64::MAX`: unlimited).
pub(crate) fn with_radius_cols<R>(radius_squared: i64, f: impl FnOnce(&mut RadiusCols) -> R) -> R {
    RADIUS_COLS.with(|cell| {
        let mut cols = cell.borrow_mut();
        cols.reset(radius_squared);
        f(&mut cols)
    })
}

/// The rows of one octant as map lines: column `c` of the octant's row `j` is cell
/// `base + c · sign` of map line `line0 + j · line_step` along `axis` (part of a map row or of a
/// map column). Through it the octant scans read a row's opacity as one word and light it as
/// spans.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OctantLines {
    pub axis: Axis,
    pub base: i32,
    pub sign: i32,
    pub line0: i32,
    pub line_step: i32,
}

impl OctantLines {
    /// The octant whose column `c` of row `j` is at `(c·xx + j·xy, c·yx + j·yy)` from `origin`.
    pub(crate) fn new(origin: (i32, i32), (xx, xy, yx, yy): (i32, i32, i32, i32)) -> Self {
        if xx != 0 {
            Self { axis: Axis::Row, base: origin.0, sign: xx, line0: origin.1, line_step: yy }
        } else {
            Self { axis: Axis::Column, base: origin.1, sign: yx, line0: origin.0, line_step: xy }
        }
    }

    #[inline(always)]
    pub(crate) fn line(&self, j: i32) -> i32 {
        self.line0 + j * self.line_step
    }

    /// The opacity of columns `low ..= high` (at most 64) of row `j`: bit `c − low` for column
    /// `c`; bits above are clear. An octant that runs against the map's order reads the map's
    /// line backwards ([`Opacity::line_bits_back`]), so no word is reversed.
    #[inline]
    pub(crate) fn read<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> u64 {
        let count = (high - low + 1) as u32;
        let mask = if count == 64 { u64::MAX } else { (1u64 << count) - 1 };
        let bits = if self.sign > 0 {
            grid.line_bits(self.axis, self.line(j), self.base + low, count)
        } else {
            grid.line_bits_back(self.axis, self.line(j), self.base - low, count)
        };
        bits & mask
    }

    /// A reader of the octant's rows `j` as [`OctantLines::read`]`(j, 0, 63)` gives them, where
    /// the grid keeps bit lines and the origin is on the map (`None` otherwise).
    #[inline]
    pub(crate) fn column_words<'g, O: Opacity>(&self, grid: &'g O) -> Option<ColumnWords<'g>> {
        let lines = grid.bit_lines(self.axis, self.sign < 0)?;
        let from = if self.sign > 0 { self.base } else { lines.len - 1 - self.base };
        (0..lines.len).contains(&from).then_some(ColumnWords {
            words: lines.words,
            stride: lines.stride,
            lines: lines.lines as u32,
            line0: self.line0,
            line_step: self.line_step,
            word: from as usize / 64,
            shift: from as u32 % 64,
        })
    }

    /// [`OctantLines::read`] from the map's lines in their own order only, reversing the word
    /// (unless it holds no wall) where the octant runs against the map: for MRPAS, whose views
    /// of caves at r = 8 and 20 took 3–4% longer reading the backward lines (a second set of
    /// lines in the cache, against a few instructions a word; measured in session 49).
    #[inline]
    pub(crate) fn read_forward<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> u64 {
        let bits = self.read_in_map_order(grid, j, low, high);
        if self.sign > 0 || bits == 0 { bits } else { bits.reverse_bits() >> (63 - (high - low)) }
    }

    /// The first opaque column among `low ..= high` (at most 64) of row `j`: what the lowest bit
    /// of [`OctantLines::read`] gives, without reversing the word where the map runs the other way.
    /// (Inlined: shadowline asks it on every row of an open map, and the call measured 5% of it.)
    #[inline(always)]
    pub(crate) fn first_opaque<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> Option<i32> {
        let bits = self.read_in_map_order(grid, j, low, high);
        (bits != 0).then(|| {
            if self.sign > 0 {
                low + bits.trailing_zeros() as i32
            } else {
                // Bit i is column high − i: the lowest column is the highest bit.
                high - 63 + bits.leading_zeros() as i32
            }
        })
    }

    /// [`OctantLines::first_opaque`] over columns `low ..= high` of any length (none when
    /// `low > high`), a 64-column word at a time.
    #[inline(always)]
    pub(crate) fn first_opaque_between<O: Opacity>(&self, grid: &O, j: i32, mut low: i32, high: i32) -> Option<i32> {
        while low <= high {
            let end = (low + 63).min(high);
            if let Some(wall) = self.first_opaque(grid, j, low, end) {
                return Some(wall);
            }
            low = end + 1;
        }
        None
    }

    /// The opacity of columns `low ..= high` (at most 64) of row `j` as the map holds them: bit
    /// `i` for the `i`-th of their map positions in increasing order; bits above are clear.
    #[inline(always)]
    pub(super) fn read_in_map_order<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> u64 {
        let count = (high - low + 1) as u32;
        let mask = if count == 64 { u64::MAX } else { (1u64 << count) - 1 };
        grid.line_bits(self.axis, self.line(j), self.positions(low, high).0, count) & mask
    }

    /// The map positions along the line of columns `low ..= high`, in increasing order.
    #[inline(always)]
    pub(crate) fn positions(&self, low: i32, high: i32) -> (i32, i32) {
        if self.sign > 0 { (self.base + low, self.base + high) } else { (self.base - high, self.base - low) }
    }

    /// The map cell of column `c` of row `j`.
    #[inline(always)]
    pub(crate) fn cell(&self, j: i32, c: i32) -> (i32, i32) {
        let along = self.base + c * self.sign;
        match self.axis {
            Axis::Row => (along, self.line(j)),
            Axis::Column => (self.line(j), along),
        }
    }

    /// Marks columns `low ..= high` of row `j` visible.
    #[inline(always)]
    pub(crate) fn mark<O: Opacity>(&self, ctx: &mut FovContext<'_, O>, j: i32, low: i32, high: i32) {
        let (a, b) = self.positions(low, high);
        ctx.mark_run(self.axis, self.line(j), a, b);
    }

    /// [`OctantLines::mark`] for cells on the map and in the declared rectangle (within the
    /// reach of a view whose reach lies on the map: [`FovContext::reach_on_map`]), as short
    /// spans.
    #[inline(always)]
    pub(crate) fn mark_on_map<O: Opacity>(&self, ctx: &mut FovContext<'_, O>, j: i32, low: i32, high: i32) {
        let (a, b) = self.positions(low, high);
        match self.axis {
            Axis::Row => ctx.visible.mark_row_on_set(self.line(j), a, b),
            Axis::Column => ctx.visible.mark_column_on_set(self.line(j), a, b),
        }
    }

    /// Marks the clear cells among columns `low ..= high` of row `j`, whose opacity is `bits`
    /// from column `bits_low` on (for views that do not light walls).
    pub(crate) fn mark_clear<O: Opacity>(
        &self,
        ctx: &mut FovContext<'_, O>,
        j: i32,
        bits: u64,
        bits_low: i32,
        low: i32,
        high: i32,
    ) {
        let mut c = low;
        while c <= high {
            let from = c + (!bits >> (c - bits_low) as u32).trailing_zeros() as i32;
            if from > high {
                break;
            }
            let run = (bits >> (from - bits_low) as u32).trailing_zeros() as i32;
            let to = (from + run - 1).min(high);
            self.mark(ctx, j, from, to);
            c = to + 1;
        }
    }
}

/// An octant's rows read from the grid's bit lines ([`OctantLines::column_words`]): the word and
/// shift of the octant's first column in a line are found once, so that a row is two loads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ColumnWords<'g> {
    words: &'g [u64],
    stride: usize,
    lines: u32,
    line0: i32,
    line_step: i32,
    word: usize,
    shift: u32,
}

impl ColumnWords<'_> {
    /// Columns `0..64` of row `j`: bit `c` for column `c` (off the map: opaque).
    #[inline(always)]
    pub(crate) fn read(&self, j: i32) -> u64 {
        let line = self.line0 + j * self.line_step;
        if (line as u32) < self.lines {
            let at = line as usize * self.stride + self.word;
            // `b << 1 << (63 − s)`: `b << (64 − s)`, and 0 for s = 0 (see `bits_in_line`).
            self.words[at] >> self.shift | self.words[at + 1] << 1 << (63 - self.shift)
        } else {
            u64::MAX
        }
    }
}

/// A non-negative-denominator fraction `num / den`, compared exactly by cross-multiplication:
/// the slopes and angles of the shadowcasting algorithms, kept as rationals so that ties are ties.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ratio {
    pub num: i64,
    pub den: i64,
}

impl Ratio {
    #[inline]
    pub(crate) const fn new(num: i64, den: i64) -> Self {
        Self { num, den }
    }
    #[inline]
    pub(crate) fn lt(self, o: Ratio) -> bool {
        self.num * o.den < o.num * self.den
    }
    #[inline]
    pub(crate) fn le(self, o: Ratio) -> bool {
        self.num * o.den <= o.num * self.den
    }
    #[inline]
    pub(crate) fn min(self, o: Ratio) -> Ratio {
        if self.le(o) { self } else { o }
    }
    #[inline]
    pub(crate) fn max(self, o: Ratio) -> Ratio {
        if self.le(o) { o } else { self }
    }
}

/// The eight octants as `(xx, xy, yx, yy)`: a cell at (col, row) of an octant, with row ≥ 1
/// the distance from the origin along the octant's main axis and 0 ≤ col ≤ row, is at
/// `(ox + col*xx + row*xy, oy + col*yx + row*yy)`.
pub(crate) const OCTANTS: [(i32, i32, i32, i32); 8] = [
    (1, 0, 0, -1),
    (0, 1, -1, 0),
    (0, -1, -1, 0),
    (-1, 0, 0, -1),
    (-1, 0, 0, 1),
    (0, -1, 1, 0),
    (0, 1, 1, 0),
    (1, 0, 0, 1),
];
