//! What the algorithms read: the [`Opacity`] of a map's cells, and [`OpacityGrid`], the bitset
//! form of it that every algorithm reads by rows and columns of 64 cells.

use super::*;

/// What an FOV algorithm needs to know of a map: which cells block sight.
pub trait Opacity {
    /// Whether a view may read cells its algorithm does not look at, to read a block at once
    /// (MRPAS's small views read their whole square). A grid that records which cells a view
    /// read (the LOS cache's) keeps `false`, so that a view reads only what its definition
    /// looks at.
    const BLOCK_READS: bool = false;

    fn width(&self) -> i32;
    fn height(&self) -> i32;
    /// Whether `(x, y)` blocks sight; out of bounds is opaque.
    fn is_opaque(&self, x: i32, y: i32) -> bool;

    /// The opacity of the first cell of `from..=to` along `axis` at `fixed` (a row: cells
    /// `(i, fixed)`; a column: cells `(fixed, i)`), and the last `i ≤ to` up to which every cell
    /// has that same opacity. Cells off the map are opaque. The default asks cell by cell (and so
    /// reads exactly the cells up to the first that differs); [`OpacityGrid`] answers from
    /// bitsets, a word of 64 cells at a time.
    #[inline]
    fn run(&self, axis: Axis, fixed: i32, from: i32, to: i32) -> (bool, i32) {
        let at = |i: i32| match axis {
            Axis::Row => self.is_opaque(i, fixed),
            Axis::Column => self.is_opaque(fixed, i),
        };
        let first = at(from);
        let mut end = from;
        while end < to && at(end + 1) == first {
            end += 1;
        }
        (first, end)
    }

    /// The opacity of the `len ≤ 64` cells from `from` along `axis` at `fixed`, bit `i` for cell
    /// `from + i` (off the map: opaque); bits from `len` on are unspecified. The default reads
    /// exactly those cells.
    #[inline]
    fn line_bits(&self, axis: Axis, fixed: i32, from: i32, len: u32) -> u64 {
        debug_assert!(len <= 64);
        (0..len as i32).fold(0, |bits, i| {
            let opaque = match axis {
                Axis::Row => self.is_opaque(from + i, fixed),
                Axis::Column => self.is_opaque(fixed, from + i),
            };
            bits | u64::from(opaque) << i
        })
    }

    /// The opacity of the `len ≤ 64` cells from `to` back along `axis` at `fixed`, bit `i` for
    /// cell `to − i` (off the map: opaque); bits from `len` on are unspecified. What
    /// [`Opacity::line_bits`] gives, reversed, for the octants that run against the map's order.
    /// The default reads exactly those cells.
    #[inline]
    fn line_bits_back(&self, axis: Axis, fixed: i32, to: i32, len: u32) -> u64 {
        debug_assert!(len <= 64);
        (0..len as i32).fold(0, |bits, i| {
            let opaque = match axis {
                Axis::Row => self.is_opaque(to - i, fixed),
                Axis::Column => self.is_opaque(fixed, to - i),
            };
            bits | u64::from(opaque) << i
        })
    }

    /// The grid's opacity as lines of bits along `axis` (backwards: bit `len − 1 − i` for cell
    /// `i`), if it keeps them: what lets a scan read line after line without the arithmetic of
    /// [`Opacity::line_bits`] each time (`OctantLines::column_words`). `None` by default.
    #[inline]
    fn bit_lines(&self, _axis: Axis, _back: bool) -> Option<BitLines<'_>> {
        None
    }

    /// The opacity of the cells `from + i` along `axis` at `fixed` for the bits `i` set in
    /// `mask`, as bit `i` (off the map: opaque); the other bits are clear. The default reads
    /// exactly those cells, so that a recording grid records no more than a view looks at;
    /// [`OpacityGrid`] reads the word.
    #[inline]
    fn line_bits_masked(&self, axis: Axis, fixed: i32, from: i32, mask: u64) -> u64 {
        let mut bits = 0;
        let mut rest = mask;
        while rest != 0 {
            let i = rest.trailing_zeros();
            let opaque = match axis {
                Axis::Row => self.is_opaque(from + i as i32, fixed),
                Axis::Column => self.is_opaque(fixed, from + i as i32),
            };
            bits |= u64::from(opaque) << i;
            rest &= rest - 1;
        }
        bits
    }
}

/// A grid's opacity as lines of bits ([`Opacity::bit_lines`]): line `i` is `words[i · stride ..]`,
/// bit `k` its cell `k` (or `len − 1 − k`, backwards). The bits past the line's cells are set,
/// and a line's last word holds no cell, so that the two words from any cell's word are on the
/// line.
#[derive(Clone, Copy, Debug)]
pub struct BitLines<'g> {
    pub words: &'g [u64],
    pub stride: usize,
    /// How many lines, and how many cells a line.
    pub lines: i32,
    pub len: i32,
}

/// Along which axis a run of cells goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Cells `(i, fixed)`: part of a map row.
    Row,
    /// Cells `(fixed, i)`: part of a map column.
    Column,
}

/// Opacity of every cell, row-major, one byte each (`1` opaque), plus the same as bitsets, by
/// rows and by columns, each both ways, so that a run of equal cells along either axis is found
/// a word at a time ([`Opacity::run`]), and an octant that runs against the map's order reads
/// its cells in its own order without reversing a word ([`Opacity::line_bits_back`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpacityGrid {
    width: i32,
    height: i32,
    cells: Vec<u8>,
    /// Row `y` is words `y · row_words ..`; bit `x` set: opaque. The bits past the width are set
    /// (off the map is opaque), which ends a transparent run at the edge without a test, and
    /// the last word of a row holds only those, so that 64 bits from any cell of the row are
    /// two words of the row ([`bits_in_line`]'s fast case).
    rows: Vec<u64>,
    /// The rows backwards: bit `width − 1 − x` of row `y` for cell `(x, y)`; padding set likewise.
    rows_back: Vec<u64>,
    row_words: usize,
    /// Column `x` is words `x · column_words ..`; bit `y` set: opaque; padding set likewise.
    columns: Vec<u64>,
    /// The columns backwards, as `rows_back`.
    columns_back: Vec<u64>,
    column_words: usize,
}

impl OpacityGrid {
    /// All transparent.
    pub fn new(width: u32, height: u32) -> Self {
        let (row_words, column_words) = ((width as usize).div_ceil(64) + 1, (height as usize).div_ceil(64) + 1);
        let padding = |len: u32, words: usize| -> Vec<u64> {
            let mut line = vec![0u64; words];
            for i in len as usize..words * 64 {
                line[i / 64] |= 1 << (i % 64);
            }
            line
        };
        let (row, column) = (padding(width, row_words), padding(height, column_words));
        Self {
            width: width as i32,
            height: height as i32,
            cells: vec![0; width as usize * height as usize],
            rows: row.iter().copied().cycle().take(row_words * height as usize).collect(),
            rows_back: row.iter().copied().cycle().take(row_words * height as usize).collect(),
            row_words,
            columns: column.iter().copied().cycle().take(column_words * width as usize).collect(),
            columns_back: column.iter().copied().cycle().take(column_words * width as usize).collect(),
            column_words,
        }
    }

    /// The opacity of every cell of a map, by its [rules](crate::core::model::rules).
    pub fn from_map(map: &Map) -> Self {
        let rules = map.rules_grid();
        let mut grid = Self::new(map.width(), map.height());
        for (i, &opaque) in rules.opaque.iter().enumerate() {
            if opaque {
                grid.set(i as i32 % grid.width, i as i32 / grid.width, true);
            }
        }
        grid
    }

    /// From rows of an ASCII picture: `#` (and any of `+"`) opaque, anything else transparent.
    pub fn from_ascii(rows: &[&str]) -> Self {
        let height = rows.len();
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        let mut grid = Self::new(width as u32, height as u32);
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                grid.set(x as i32, y as i32, matches!(ch, '#' | '+' | '"'));
            }
        }
        grid
    }

    pub fn set(&mut self, x: i32, y: i32, opaque: bool) {
        if self.in_bounds(x, y) {
            self.cells[(y * self.width + x) as usize] = u8::from(opaque);
            let (x, y) = (x as usize, y as usize);
            let (x_back, y_back) = (self.width as usize - 1 - x, self.height as usize - 1 - y);
            set_bit(&mut self.rows[y * self.row_words..], x, opaque);
            set_bit(&mut self.rows_back[y * self.row_words..], x_back, opaque);
            set_bit(&mut self.columns[x * self.column_words..], y, opaque);
            set_bit(&mut self.columns_back[x * self.column_words..], y_back, opaque);
        }
    }

    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.width as u32 && (y as u32) < self.height as u32
    }

    /// The cells whose opacity differs in `other`, row by row (a word of 64 cells at a time).
    /// Grids of two sizes have no cells to compare: then every cell of this one is listed, and
    /// what was computed on it (a lighting, say) is better computed again for the other.
    pub fn changed_cells(&self, other: &OpacityGrid) -> Vec<Cell> {
        if (self.width, self.height) != (other.width, other.height) {
            return (0..self.height).flat_map(|y| (0..self.width).map(move |x| Cell::new(x, y))).collect();
        }
        let mut changed = Vec::new();
        for (i, (&a, &b)) in self.rows.iter().zip(&other.rows).enumerate() {
            let mut differ = a ^ b;
            while differ != 0 {
                let bit = differ.trailing_zeros() as usize;
                differ &= differ - 1;
                let (y, w) = (i / self.row_words, i % self.row_words);
                changed.push(Cell::new((w * 64 + bit) as i32, y as i32));
            }
        }
        changed
    }
}

/// Sets or clears bit `i` of a line of words.
pub(super) fn set_bit(line: &mut [u64], i: usize, value: bool) {
    let (word, bit) = (&mut line[i / 64], 1 << (i % 64));
    if value {
        *word |= bit;
    } else {
        *word &= !bit;
    }
}

/// 64 cells of a line of a bitset of `len` cells (padding bits set) from `from`, off the line
/// opaque.
#[inline]
pub(super) fn bits_in_line(line: &[u64], from: i32) -> u64 {
    let w = i64::from(from.div_euclid(64));
    let shift = from.rem_euclid(64) as u32;
    if w >= 0 && (w as usize + 1) < line.len() {
        // Both words on the line (the common case): two loads, no tests. `b << 1 << (63 − s)` is
        // `b << (64 − s)` for s > 0, and 0 for s = 0, which a single shift by 64 is not.
        let (a, b) = (line[w as usize], line[w as usize + 1]);
        return a >> shift | b << 1 << (63 - shift);
    }
    let word = |w: i64| -> u64 { if (0..line.len() as i64).contains(&w) { line[w as usize] } else { u64::MAX } };
    if shift == 0 { word(w) } else { word(w) >> shift | word(w + 1) << (64 - shift) }
}

/// [`Opacity::run`] over one line of a bitset of `len` cells (padding bits set).
#[inline]
pub(super) fn run_in_line(line: &[u64], len: i32, from: i32, to: i32) -> (bool, i32) {
    let first = from < 0 || from >= len || line[from as usize / 64] >> (from % 64) & 1 != 0;
    let mut i = from + 1;
    if i < 0 {
        // Off the map to the left: opaque up to -1.
        if to < 0 {
            return (true, to);
        }
        i = 0;
    }
    while i <= to {
        if i >= len {
            // Off the map to the right: opaque.
            return if first { (true, to) } else { (false, i - 1) };
        }
        let w = i as usize / 64;
        // Bits that differ from the first cell, from i on.
        let differ = (if first { !line[w] } else { line[w] }) & (u64::MAX << (i % 64));
        if differ != 0 {
            let at = (w * 64) as i32 + differ.trailing_zeros() as i32;
            return (first, (at - 1).min(to));
        }
        i = (w as i32 + 1) * 64;
    }
    (first, to)
}

impl Opacity for OpacityGrid {
    const BLOCK_READS: bool = true;

    #[inline]
    fn width(&self) -> i32 {
        self.width
    }

    #[inline]
    fn height(&self) -> i32 {
        self.height
    }

    #[inline]
    fn is_opaque(&self, x: i32, y: i32) -> bool {
        // One unsigned comparison per axis covers negative coordinates too.
        if (x as u32) < self.width as u32 && (y as u32) < self.height as u32 {
            self.cells[(y * self.width + x) as usize] != 0
        } else {
            true
        }
    }

    #[inline]
    fn run(&self, axis: Axis, fixed: i32, from: i32, to: i32) -> (bool, i32) {
        match axis {
            Axis::Row if (fixed as u32) < self.height as u32 => {
                let start = fixed as usize * self.row_words;
                run_in_line(&self.rows[start..start + self.row_words], self.width, from, to)
            }
            Axis::Column if (fixed as u32) < self.width as u32 => {
                let start = fixed as usize * self.column_words;
                run_in_line(&self.columns[start..start + self.column_words], self.height, from, to)
            }
            // A whole line off the map.
            _ => (true, to),
        }
    }

    #[inline(always)]
    fn line_bits(&self, axis: Axis, fixed: i32, from: i32, _len: u32) -> u64 {
        match axis {
            Axis::Row if (fixed as u32) < self.height as u32 => {
                let start = fixed as usize * self.row_words;
                bits_in_line(&self.rows[start..start + self.row_words], from)
            }
            Axis::Column if (fixed as u32) < self.width as u32 => {
                let start = fixed as usize * self.column_words;
                bits_in_line(&self.columns[start..start + self.column_words], from)
            }
            _ => u64::MAX,
        }
    }

    #[inline(always)]
    fn line_bits_back(&self, axis: Axis, fixed: i32, to: i32, _len: u32) -> u64 {
        match axis {
            Axis::Row if (fixed as u32) < self.height as u32 => {
                let start = fixed as usize * self.row_words;
                bits_in_line(&self.rows_back[start..start + self.row_words], self.width - 1 - to)
            }
            Axis::Column if (fixed as u32) < self.width as u32 => {
                let start = fixed as usize * self.column_words;
                bits_in_line(&self.columns_back[start..start + self.column_words], self.height - 1 - to)
            }
            _ => u64::MAX,
        }
    }

    #[inline(always)]
    fn line_bits_masked(&self, axis: Axis, fixed: i32, from: i32, mask: u64) -> u64 {
        self.line_bits(axis, fixed, from, 64) & mask
    }

    #[inline]
    fn bit_lines(&self, axis: Axis, back: bool) -> Option<BitLines<'_>> {
        let (words, stride, lines, len) = match (axis, back) {
            (Axis::Row, false) => (&self.rows, self.row_words, self.height, self.width),
            (Axis::Row, true) => (&self.rows_back, self.row_words, self.height, self.width),
            (Axis::Column, false) => (&self.columns, self.column_words, self.width, self.height),
            (Axis::Column, true) => (&self.columns_back, self.column_words, self.width, self.height),
        };
        Some(BitLines { words, stride, lines, len })
    }
}
