//! Field of view: nine algorithms behind one entry point, [`compute`], as libtcod has one
//! `fov_*.c` per algorithm behind `TCOD_map_compute_fov`.
//!
//! ## The shared contract
//! - **Input**: a narrow [`Opacity`] view of the map (out of bounds is opaque), the origin, an
//!   optional radius and `light_walls`.
//! - **Radius**: radius `r` keeps the cells with `dx² + dy² ≤ r²` (integers, so exact); `None` is
//!   unlimited (the whole map).
//! - **light_walls**: when true (the default), opaque cells that bound the view are reported
//!   visible, as a player sees the wall in front of them; when false only transparent cells are.
//! - **Output**: a [`VisibleSet`], a bitset the caller owns and reuses: a computation clears only
//!   the rectangle the previous one touched, and allocates nothing.
//! - The origin is always visible (when it is on the map), whatever its opacity.

mod circle;
mod diamond;
mod milazzo;
mod mrpas;
mod open_rows;
mod permissive;
mod ray;
mod shadowcast;
mod shadowline;
mod small_box;
mod symmetric;
pub mod targeting;

use serde::{Deserialize, Serialize};

use crate::core::model::geometry::Cell;
use crate::core::model::map::Map;

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
    /// [`Opacity::line_bits`] each time ([`OctantLines::column_words`]). `None` by default.
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
fn set_bit(line: &mut [u64], i: usize, value: bool) {
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
fn bits_in_line(line: &[u64], from: i32) -> u64 {
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
fn run_in_line(line: &[u64], len: i32, from: i32, to: i32) -> (bool, i32) {
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

/// The visible cells of one FOV computation: a bitset over the map, one row of 64-bit words per
/// map row. Reused across calls: [`compute`] clears only the rectangle it last wrote.
#[derive(Clone, Debug, Default)]
pub struct VisibleSet {
    width: i32,
    height: i32,
    words_per_row: usize,
    words: Vec<u64>,
    /// Inclusive rectangle `(x0, y0, x1, y1)` that may hold set bits.
    touched: Option<(i32, i32, i32, i32)>,
    /// Column spans of the computation under way, kept transposed until it ends.
    columns: ColumnSpans,
}

/// Column spans, transposed: one line of bits a map column of the declared rectangle, bit `i`
/// for its row `y0 + i`. A span down a column is then a few word writes (as a row span is in the
/// set itself) instead of one read-modify-write a cell; when the computation ends, the lines are
/// transposed 64 × 64 bits at a time and merged into the set's rows
/// ([`VisibleSet::merge_columns`]).
#[derive(Clone, Debug, Default)]
struct ColumnSpans {
    x0: i32,
    y0: i32,
    /// Lines (columns of the rectangle) and words a line.
    lines: usize,
    words: usize,
    bits: Vec<u64>,
    /// Range of lines holding bits.
    dirty: Option<(usize, usize)>,
    /// Cells still to mark directly in the set before spans go to the lines: a merge costs
    /// a few hundred nanoseconds, which only pays once many cells are marked this way.
    direct_budget: usize,
}

/// Column cells a computation marks straight into the set before it uses the transposed lines.
/// A view at r = 20 marks about 630 cells down columns, one at r = 60 about 5 600: 768 keeps the
/// first direct (256 or 384 measured 7–22% slower there) and the second merged (see BENCHMARKS.md).
const DIRECT_COLUMN_CELLS: usize = 768;

/// Transposes a 64 × 64 bit matrix in place: bit `j` of word `i` goes to bit `i` of word `j`
/// (the recursive block swap of Hacker's Delight §7-3, least significant bit first).
fn transpose_64(m: &mut [u64; 64]) {
    swap_blocks::<32>(m, 0x0000_0000_FFFF_FFFF);
    swap_blocks::<16>(m, 0x0000_FFFF_0000_FFFF);
    swap_blocks::<8>(m, 0x00FF_00FF_00FF_00FF);
    swap_blocks::<4>(m, 0x0F0F_0F0F_0F0F_0F0F);
    swap_blocks::<2>(m, 0x3333_3333_3333_3333);
    swap_blocks::<1>(m, 0x5555_5555_5555_5555);
}

/// One step of [`transpose_64`]: in each pair of `WIDTH`-word blocks, the high `WIDTH` bits of
/// each word of the first block change places with the low bits of the word `WIDTH` after it.
/// (A loop over whole blocks, with the width a constant, so that it is vectorised: SSE2, two
/// words an instruction.)
#[inline(always)]
fn swap_blocks<const WIDTH: usize>(m: &mut [u64; 64], mask: u64) {
    for pair in m.chunks_exact_mut(2 * WIDTH) {
        let (low, high) = pair.split_at_mut(WIDTH);
        for (a, b) in low.iter_mut().zip(high) {
            let t = ((*a >> WIDTH) ^ *b) & mask;
            *b ^= t;
            *a ^= t << WIDTH;
        }
    }
}

impl VisibleSet {
    pub fn new(width: u32, height: u32) -> Self {
        let words_per_row = (width as usize).div_ceil(64);
        Self {
            width: width as i32,
            height: height as i32,
            words_per_row,
            words: vec![0; words_per_row * height as usize],
            touched: None,
            columns: ColumnSpans::default(),
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// Empties the set, touching only the words the last computation may have set.
    pub fn clear(&mut self) {
        if let Some((x0, y0, x1, y1)) = self.touched.take() {
            let (w0, w1) = (x0 as usize / 64, x1 as usize / 64);
            let (wpr, span) = (self.words_per_row, w1 - w0 + 1);
            if 2 * span >= wpr {
                // The rectangle's words are most of each row: one memset from its first word to
                // its last (the words between the rows, outside it, hold nothing).
                self.words[y0 as usize * wpr + w0..=y1 as usize * wpr + w1].fill(0);
                return;
            }
            let rows = &mut self.words[y0 as usize * wpr..(y1 as usize + 1) * wpr];
            for row in rows.chunks_exact_mut(wpr) {
                // A view's rows are a few words: stores, and memset (which the compiler makes of
                // any loop of stores, and which costs a call a row) only beyond four.
                row[w0] = 0;
                row[w1] = 0;
                if span >= 3 {
                    row[w0 + 1] = 0;
                    if span >= 4 {
                        row[w0 + 2] = 0;
                        if span > 4 {
                            row[w0 + 3..w1].fill(0);
                        }
                    }
                }
            }
        }
    }

    /// Declares the rectangle the next computation will write in (clamped to the set).
    fn begin(&mut self, x0: i32, y0: i32, x1: i32, y1: i32) {
        self.clear();
        let r = (x0.max(0), y0.max(0), x1.min(self.width - 1), y1.min(self.height - 1));
        if r.0 <= r.2 && r.1 <= r.3 {
            self.touched = Some(r);
            let columns = &mut self.columns;
            // Merged at the end of every computation; one cut short (a panic) leaves bits behind.
            if let Some((first, last)) = columns.dirty.take() {
                columns.bits[first * columns.words..(last + 1) * columns.words].fill(0);
            }
            columns.x0 = r.0;
            columns.y0 = r.1;
            columns.direct_budget = DIRECT_COLUMN_CELLS;
            columns.lines = (r.2 - r.0 + 1) as usize;
            columns.words = ((r.3 - r.1 + 1) as usize).div_ceil(64);
            let needed = columns.lines * columns.words;
            if columns.bits.len() < needed {
                columns.bits.resize(needed, 0);
            }
        }
    }

    /// Merges the column spans marked since [`VisibleSet::begin`] into the set's rows.
    pub(crate) fn merge_columns(&mut self) {
        let Some((first, last)) = self.columns.dirty.take() else { return };
        let c = &mut self.columns;
        let mut block = [0u64; 64];
        for line0 in (first / 64 * 64..=last).step_by(64) {
            for word in 0..c.words {
                let mut any = 0;
                for (k, slot) in block.iter_mut().enumerate() {
                    let line = line0 + k;
                    *slot = if line <= last && line >= first { c.bits[line * c.words + word] } else { 0 };
                    any |= *slot;
                }
                if any == 0 {
                    continue;
                }
                transpose_64(&mut block);
                // Word k now holds row y0 + 64·word + k, bit i for column x0 + line0 + i.
                let x = c.x0 as usize + line0;
                let (at, shift) = (x / 64, x % 64);
                for (k, &bits) in block.iter().enumerate() {
                    if bits == 0 {
                        continue;
                    }
                    let row = (c.y0 as usize + 64 * word + k) * self.words_per_row;
                    self.words[row + at] |= bits << shift;
                    if shift != 0 && bits >> (64 - shift) != 0 {
                        self.words[row + at + 1] |= bits >> (64 - shift);
                    }
                }
            }
        }
        c.bits[first * c.words..(last + 1) * c.words].fill(0);
    }

    /// Marks a cell inside the rectangle the computation declared (the algorithms' fast path:
    /// `count`, `iter` and `clear` only look inside that rectangle); cells off the set are ignored.
    #[inline]
    pub(crate) fn mark(&mut self, x: i32, y: i32) {
        if (x as u32) < self.width as u32 && (y as u32) < self.height as u32 {
            self.words[y as usize * self.words_per_row + x as usize / 64] |= 1 << (x % 64);
        }
    }

    /// Marks the cells `x0..=x1` of row `y` (clipped to the set), a word at a time.
    #[inline(always)]
    pub(crate) fn mark_row(&mut self, y: i32, x0: i32, x1: i32) {
        let (x0, x1) = (x0.max(0), x1.min(self.width - 1));
        if x0 > x1 || (y as u32) >= self.height as u32 {
            return;
        }
        let row = y as usize * self.words_per_row;
        set_bit_range(&mut self.words[row..], x0 as usize, x1 as usize);
    }

    /// [`VisibleSet::mark_row`] for cells on the set, without clipping (a view whose reach
    /// lies on the map).
    #[inline(always)]
    pub(crate) fn mark_row_on_set(&mut self, y: i32, x0: i32, x1: i32) {
        debug_assert!(0 <= x0 && x0 <= x1 && x1 < self.width && (0..self.height).contains(&y));
        let row = y as usize * self.words_per_row;
        set_bit_range(&mut self.words[row..], x0 as usize, x1 as usize);
    }

    /// Marks the cells `y0..=y1` of column `x`, all in the declared rectangle, a cell at a time
    /// (for short spans: see [`VisibleSet::mark_column`]).
    #[inline(always)]
    pub(crate) fn mark_column_on_set(&mut self, x: i32, y0: i32, y1: i32) {
        debug_assert!(
            self.touched.is_some_and(|(rx0, ry0, rx1, ry1)| (rx0..=rx1).contains(&x) && ry0 <= y0 && y1 <= ry1)
        );
        let bit = 1u64 << (x % 64);
        let mut i = y0 as usize * self.words_per_row + x as usize / 64;
        for _ in y0..=y1 {
            self.words[i] |= bit;
            i += self.words_per_row;
        }
    }

    /// Marks the cells `x0 + i` of row `y` for each bit `i` of `bits` (clipped to the set), as
    /// one or two word writes.
    #[inline(always)]
    pub(crate) fn mark_row_bits(&mut self, y: i32, x0: i32, bits: u64) {
        if (y as u32) >= self.height as u32 || x0 >= self.width || x0 <= -64 {
            return;
        }
        let (x0, mut bits) = if x0 < 0 { (0, bits >> -x0) } else { (x0, bits) };
        let room = self.width - x0;
        if room < 64 {
            bits &= (1 << room) - 1;
        }
        let (word, shift) = (x0 as usize / 64, x0 % 64);
        let row = &mut self.words[y as usize * self.words_per_row..][..self.words_per_row];
        row[word] |= bits << shift;
        // The bits past the word (none when `shift` is 0), written without a test of whether
        // there are any: where a row's cells fall across a word is as good as random.
        if word + 1 < row.len() {
            row[word + 1] |= (bits >> 1) >> (63 - shift);
        }
    }

    /// Marks the cells `y0..=y1` of column `x` (clipped to the declared rectangle), as bits of
    /// the transposed column lines: [`compute`] merges them into the rows when it ends.
    #[inline(always)]
    pub(crate) fn mark_column(&mut self, x: i32, y0: i32, y1: i32) {
        let Some((rx0, ry0, rx1, ry1)) = self.touched else { return };
        let (y0, y1) = (y0.max(ry0), y1.min(ry1));
        if x < rx0 || x > rx1 || y0 > y1 {
            return;
        }
        let cells = (y1 - y0 + 1) as usize;
        if cells <= self.columns.direct_budget {
            self.columns.direct_budget -= cells;
            let bit = 1u64 << (x % 64);
            let mut i = y0 as usize * self.words_per_row + x as usize / 64;
            for _ in 0..cells {
                self.words[i] |= bit;
                i += self.words_per_row;
            }
            return;
        }
        self.mark_column_line(x - rx0, y0 - ry0, y1 - ry0);
    }

    /// Sets bits `b0..=b1` of column line `line` (coordinates relative to the rectangle).
    #[inline(never)]
    fn mark_column_line(&mut self, line: i32, b0: i32, b1: i32) {
        let c = &mut self.columns;
        let line = line as usize;
        let (b0, b1) = (b0 as usize, b1 as usize);
        set_bit_range(&mut c.bits[line * c.words..], b0, b1);
        c.dirty = Some(match c.dirty {
            Some((a, b)) => (a.min(line), b.max(line)),
            None => (line, line),
        });
    }

    /// The 64 cells of row `y` from `x0` (`0 ≤ x0 < width`), bit `i` for cell `x0 + i`; bits
    /// past the row's end are clear. Column spans not yet merged are not seen.
    #[inline]
    pub(crate) fn row_bits(&self, y: i32, x0: i32) -> u64 {
        let row = &self.words[y as usize * self.words_per_row..][..self.words_per_row];
        let (word, shift) = (x0 as usize / 64, x0 % 64);
        let high = row.get(word + 1).map_or(0, |&next| (next << 1) << (63 - shift));
        row[word] >> shift | high
    }

    /// Adds a cell (cells off the set are ignored).
    pub fn insert(&mut self, x: i32, y: i32) {
        if (x as u32) < self.width as u32 && (y as u32) < self.height as u32 {
            self.mark(x, y);
            self.touched = Some(match self.touched {
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                None => (x, y, x, y),
            });
        }
    }

    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.width as u32
            && (y as u32) < self.height as u32
            && self.words[y as usize * self.words_per_row + x as usize / 64] & (1 << (x % 64)) != 0
    }

    pub fn contains_cell(&self, cell: Cell) -> bool {
        self.contains(cell.x, cell.y)
    }

    /// Number of visible cells.
    pub fn count(&self) -> usize {
        let Some((_, y0, _, y1)) = self.touched else { return 0 };
        (y0..=y1)
            .map(|y| {
                let row = y as usize * self.words_per_row;
                self.words[row..row + self.words_per_row].iter().map(|w| w.count_ones() as usize).sum::<usize>()
            })
            .sum()
    }

    /// Visible cells, row by row (sorted by y, then x): each row's words of the touched
    /// rectangle, a set bit at a time (not a test a cell: the hundreds of views a game's turn
    /// remembers are mostly empty squares around a few cells).
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        let (x0, y0, x1, y1) = self.touched.unwrap_or((0, 0, -1, -1));
        // (Nothing touched: no rows, whatever the words.)
        let words = x0.max(0) as usize / 64..=x1.max(0) as usize / 64;
        (y0..=y1).flat_map(move |y| {
            let row = y as usize * self.words_per_row;
            words.clone().flat_map(move |w| {
                let mut bits = self.words[row + w];
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let b = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        Cell::new((w * 64 + b) as i32, y)
                    })
                })
            })
        })
    }
}

/// Sets bits `b0..=b1` of `words` (bit `b` is bit `b % 64` of word `b / 64`), a word at a time
/// (also diamond's rows of tile bits).
#[inline(always)]
pub(crate) fn set_bit_range(words: &mut [u64], b0: usize, b1: usize) {
    let (w0, w1) = (b0 / 64, b1 / 64);
    let (low, high) = (u64::MAX << (b0 % 64), u64::MAX >> (63 - b1 % 64));
    if w0 == w1 {
        words[w0] |= low & high;
    } else {
        words[w0] |= low;
        words[w1] |= high;
        // Most spans cover one word or two: no call to memset for an empty middle.
        if w1 > w0 + 1 {
            words[w0 + 1..w1].fill(u64::MAX);
        }
    }
}

/// The FOV algorithms. See each module for its definition, source and properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Algorithm {
    /// Every cell within the radius; no occlusion.
    Circle,
    /// Bresenham rays to the radius perimeter (libtcod FOV_BASIC).
    Ray,
    /// Diamond-walls ray casting (libtcod FOV_DIAMOND).
    Diamond,
    /// Recursive shadowcasting, Björn Bergström's (libtcod FOV_SHADOW).
    Shadowcast,
    /// Bob Nystrom's shadow-line shadowcasting (Hauberk).
    Shadowline,
    /// Albert Ford's symmetric shadowcasting, exact.
    Symmetric,
    /// Precise permissive FOV (libtcod FOV_PERMISSIVE_8).
    Permissive,
    /// Adam Milazzo's beveled-wall algorithm.
    Milazzo,
    /// Restrictive precise angle shadowcasting, mingos' (libtcod FOV_RESTRICTIVE).
    Mrpas,
}

impl Algorithm {
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Circle,
        Algorithm::Ray,
        Algorithm::Diamond,
        Algorithm::Shadowcast,
        Algorithm::Shadowline,
        Algorithm::Symmetric,
        Algorithm::Permissive,
        Algorithm::Milazzo,
        Algorithm::Mrpas,
    ];

    /// The lower-case name the CLI and files use.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Circle => "circle",
            Algorithm::Ray => "ray",
            Algorithm::Diamond => "diamond",
            Algorithm::Shadowcast => "shadowcast",
            Algorithm::Shadowline => "shadowline",
            Algorithm::Symmetric => "symmetric",
            Algorithm::Permissive => "permissive",
            Algorithm::Milazzo => "milazzo",
            Algorithm::Mrpas => "mrpas",
        }
    }

    pub fn from_name(name: &str) -> Option<Algorithm> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Whether the algorithm guarantees A sees B ⇔ B sees A for transparent A and B.
    pub fn is_symmetric(self) -> bool {
        matches!(self, Algorithm::Circle | Algorithm::Symmetric | Algorithm::Permissive)
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where to look from and how far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FovParams {
    pub origin: Cell,
    /// `None`: unlimited.
    pub radius: Option<u32>,
    pub light_walls: bool,
}

impl FovParams {
    pub fn new(origin: Cell, radius: Option<u32>) -> Self {
        Self { origin, radius, light_walls: true }
    }
}

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
    pub fn in_radius(&self, dx: i32, dy: i32) -> bool {
        i64::from(dx) * i64::from(dx) + i64::from(dy) * i64::from(dy) <= self.radius_squared
    }

    /// Whether every cell within the reach of the origin, along both axes, lies on the map.
    #[inline]
    pub fn reach_on_map(&self) -> bool {
        let (w, h) = (self.grid.width(), self.grid.height());
        self.ox >= self.reach && self.oy >= self.reach && self.ox < w - self.reach && self.oy < h - self.reach
    }

    /// Marks `(x, y)` visible, unless it is opaque and walls are not lit.
    #[inline]
    pub fn reveal(&mut self, x: i32, y: i32) {
        if self.light_walls || !self.grid.is_opaque(x, y) {
            self.visible.mark(x, y);
        }
    }

    #[inline]
    pub fn is_opaque(&self, x: i32, y: i32) -> bool {
        self.grid.is_opaque(x, y)
    }

    /// Marks the cells `from + i` along `axis` at `fixed` visible for each bit `i` set in
    /// `bits` (they must be in the declared rectangle or off the map; the caller has applied
    /// `light_walls`).
    #[inline(always)]
    pub fn mark_bits(&mut self, axis: Axis, fixed: i32, from: i32, bits: u64) {
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
    pub fn mark_run(&mut self, axis: Axis, fixed: i32, from: i32, to: i32) {
        match axis {
            Axis::Row => self.visible.mark_row(fixed, from, to),
            Axis::Column => self.visible.mark_column(fixed, from, to),
        }
    }
}

/// Computes the field of view of `algorithm` into `visible` (which is cleared first; it must
/// have the grid's size: see [`VisibleSet::new`]).
pub fn compute<O: Opacity>(algorithm: Algorithm, grid: &O, params: FovParams, visible: &mut VisibleSet) {
    scan_with(grid, params, visible, |ctx| match algorithm {
        Algorithm::Circle => circle::compute(ctx),
        Algorithm::Ray => ray::compute(ctx),
        Algorithm::Diamond => diamond::compute(ctx),
        Algorithm::Shadowcast => shadowcast::compute(ctx),
        Algorithm::Shadowline => shadowline::compute(ctx),
        Algorithm::Symmetric => symmetric::compute(ctx),
        Algorithm::Permissive => permissive::compute(ctx),
        Algorithm::Milazzo => milazzo::compute(ctx),
        Algorithm::Mrpas => mrpas::compute(ctx),
    });
}

/// `r²` for a radius of `r` cells. A radius so large that `r²` passes `i64` (over three billion
/// cells) keeps every cell of any map, as no radius does: `i64::MAX`, the "unlimited" the scans
/// test for.
pub fn radius_squared(r: u32) -> i64 {
    i64::from(r).saturating_mul(i64::from(r))
}

/// What every computation does around its algorithm's `scan`: clear the set and declare the
/// rectangle, clamp the reach to the map, mark the origin; afterwards merge the column spans.
fn scan_with<O: Opacity>(
    grid: &O,
    params: FovParams,
    visible: &mut VisibleSet,
    scan: impl FnOnce(&mut FovContext<'_, O>),
) {
    debug_assert_eq!((visible.width(), visible.height()), (grid.width(), grid.height()));
    let Cell { x: ox, y: oy } = params.origin;
    let (radius_squared, reach) = match params.radius {
        Some(r) => (radius_squared(r), r.min(i32::MAX as u32) as i32),
        None => (i64::MAX, grid.width().max(grid.height())),
    };
    visible.begin(
        ox.saturating_sub(reach),
        oy.saturating_sub(reach),
        ox.saturating_add(reach),
        oy.saturating_add(reach),
    );
    if !(0..grid.width()).contains(&ox) || !(0..grid.height()).contains(&oy) {
        return;
    }
    // Beyond the map nothing is visible: clamp the reach to the map's extent from the origin.
    let reach = reach.min((grid.width() - 1 - ox).max(ox).max((grid.height() - 1 - oy).max(oy)));
    let mut ctx = FovContext { grid, ox, oy, radius_squared, reach, light_walls: params.light_walls, visible };
    ctx.visible.mark(ox, oy);
    scan(&mut ctx);
    ctx.visible.merge_columns();
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

/// For the algorithms' tests against their earlier, cell-by-cell implementations.
#[cfg(test)]
pub(crate) mod reference {
    use super::*;
    use crate::core::rng::Rng;

    /// The view an algorithm body `scan` computes, through the same setup as [`compute`],
    /// sorted by y then x.
    pub(crate) fn view_of(
        grid: &OpacityGrid,
        params: FovParams,
        scan: impl FnOnce(&mut FovContext<'_, OpacityGrid>),
    ) -> Vec<(i32, i32)> {
        let mut visible = VisibleSet::new(grid.width() as u32, grid.height() as u32);
        scan_with(grid, params, &mut visible, scan);
        visible.iter().map(|c| (c.x, c.y)).collect()
    }

    /// A grid read through the trait's defaults, cell by cell, as one that records what a view
    /// reads is (it keeps [`Opacity::BLOCK_READS`] false).
    pub(crate) struct CellByCell<'a>(pub &'a OpacityGrid);

    impl Opacity for CellByCell<'_> {
        fn width(&self) -> i32 {
            self.0.width()
        }
        fn height(&self) -> i32 {
            self.0.height()
        }
        fn is_opaque(&self, x: i32, y: i32) -> bool {
            self.0.is_opaque(x, y)
        }
    }

    /// A `w × h` map whose cells are walls with probability `density`, drawn row by row.
    pub(crate) fn random_grid(rng: &mut Rng, w: u32, h: u32, density: f64) -> OpacityGrid {
        let mut grid = OpacityGrid::new(w, h);
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                grid.set(x, y, rng.chance(density));
            }
        }
        grid
    }

    /// Asserts that `algorithm` gives `reference`'s view on 500 random maps: one wall density of
    /// `densities` each in turn, sizes up to 160 × 90 (across word boundaries), any origin (the
    /// edges too), no radius or radii up to 100 and up to 9, walls lit on four maps in five.
    pub(crate) fn assert_same_views(
        algorithm: Algorithm,
        seed: u64,
        densities: [f64; 4],
        reference: impl Fn(&OpacityGrid, FovParams) -> Vec<(i32, i32)>,
    ) {
        let mut rng = Rng::new(seed);
        for round in 0..500 {
            let (w, h) = (1 + rng.below(160), 1 + rng.below(90));
            let grid = random_grid(&mut rng, w, h, densities[round % 4]);
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let radius = [None, Some(rng.below(100)), Some(rng.below(9))][round % 3];
            let params = FovParams { origin, radius, light_walls: round % 5 != 0 };
            let mut visible = VisibleSet::new(w, h);
            compute(algorithm, &grid, params, &mut visible);
            let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
            assert_eq!(ours, reference(&grid, params), "{algorithm}, round {round}: {w}×{h}, {params:?}");
        }
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
    fn reset(&mut self, radius_squared: i64) {
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
    fn extend_to(&mut self, depth: i32) -> i32 {
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
    pub fn new(origin: (i32, i32), (xx, xy, yx, yy): (i32, i32, i32, i32)) -> Self {
        if xx != 0 {
            Self { axis: Axis::Row, base: origin.0, sign: xx, line0: origin.1, line_step: yy }
        } else {
            Self { axis: Axis::Column, base: origin.1, sign: yx, line0: origin.0, line_step: xy }
        }
    }

    #[inline(always)]
    pub fn line(&self, j: i32) -> i32 {
        self.line0 + j * self.line_step
    }

    /// The opacity of columns `low ..= high` (at most 64) of row `j`: bit `c − low` for column
    /// `c`; bits above are clear. An octant that runs against the map's order reads the map's
    /// line backwards ([`Opacity::line_bits_back`]), so no word is reversed.
    #[inline]
    pub fn read<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> u64 {
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
    pub fn column_words<'g, O: Opacity>(&self, grid: &'g O) -> Option<ColumnWords<'g>> {
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
    pub fn read_forward<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> u64 {
        let bits = self.read_in_map_order(grid, j, low, high);
        if self.sign > 0 || bits == 0 { bits } else { bits.reverse_bits() >> (63 - (high - low)) }
    }

    /// The first opaque column among `low ..= high` (at most 64) of row `j`: what the lowest bit
    /// of [`OctantLines::read`] gives, without reversing the word where the map runs the other way.
    /// (Inlined: shadowline asks it on every row of an open map, and the call measured 5% of it.)
    #[inline(always)]
    pub fn first_opaque<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> Option<i32> {
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
    pub fn first_opaque_between<O: Opacity>(&self, grid: &O, j: i32, mut low: i32, high: i32) -> Option<i32> {
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
    fn read_in_map_order<O: Opacity>(&self, grid: &O, j: i32, low: i32, high: i32) -> u64 {
        let count = (high - low + 1) as u32;
        let mask = if count == 64 { u64::MAX } else { (1u64 << count) - 1 };
        grid.line_bits(self.axis, self.line(j), self.positions(low, high).0, count) & mask
    }

    /// The map positions along the line of columns `low ..= high`, in increasing order.
    #[inline(always)]
    pub fn positions(&self, low: i32, high: i32) -> (i32, i32) {
        if self.sign > 0 { (self.base + low, self.base + high) } else { (self.base - high, self.base - low) }
    }

    /// The map cell of column `c` of row `j`.
    #[inline(always)]
    pub fn cell(&self, j: i32, c: i32) -> (i32, i32) {
        let along = self.base + c * self.sign;
        match self.axis {
            Axis::Row => (along, self.line(j)),
            Axis::Column => (self.line(j), along),
        }
    }

    /// Marks columns `low ..= high` of row `j` visible.
    #[inline(always)]
    pub fn mark<O: Opacity>(&self, ctx: &mut FovContext<'_, O>, j: i32, low: i32, high: i32) {
        let (a, b) = self.positions(low, high);
        ctx.mark_run(self.axis, self.line(j), a, b);
    }

    /// [`OctantLines::mark`] for cells on the map and in the declared rectangle (within the
    /// reach of a view whose reach lies on the map: [`FovContext::reach_on_map`]), as short
    /// spans.
    #[inline(always)]
    pub fn mark_on_map<O: Opacity>(&self, ctx: &mut FovContext<'_, O>, j: i32, low: i32, high: i32) {
        let (a, b) = self.positions(low, high);
        match self.axis {
            Axis::Row => ctx.visible.mark_row_on_set(self.line(j), a, b),
            Axis::Column => ctx.visible.mark_column_on_set(self.line(j), a, b),
        }
    }

    /// Marks the clear cells among columns `low ..= high` of row `j`, whose opacity is `bits`
    /// from column `bits_low` on (for views that do not light walls).
    pub fn mark_clear<O: Opacity>(
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
    pub fn read(&self, j: i32) -> u64 {
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
    pub const fn new(num: i64, den: i64) -> Self {
        Self { num, den }
    }
    #[inline]
    pub fn lt(self, o: Ratio) -> bool {
        self.num * o.den < o.num * self.den
    }
    #[inline]
    pub fn le(self, o: Ratio) -> bool {
        self.num * o.den <= o.num * self.den
    }
    #[inline]
    pub fn min(self, o: Ratio) -> Ratio {
        if self.le(o) { self } else { o }
    }
    #[inline]
    pub fn max(self, o: Ratio) -> Ratio {
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

#[cfg(test)]
mod tests {
    use super::reference::CellByCell;
    use super::*;
    use crate::core::rng::Rng;

    /// `iter` gives the set's cells, each once, row by row: on sets of a few cells to most of
    /// the map, on maps of one word a row to several, at the words' edges too.
    #[test]
    fn iter_gives_every_cell_the_set_holds_in_reading_order() {
        let mut rng = Rng::new(5);
        for (w, h) in [(1, 1), (63, 4), (64, 3), (65, 5), (200, 40)] {
            let mut set = VisibleSet::new(w, h);
            assert_eq!(set.iter().count(), 0, "an empty set");
            for density in [0.01, 0.3, 0.9] {
                set.clear();
                for y in 0..h as i32 {
                    for x in 0..w as i32 {
                        if rng.chance(density) || (x, y) == (w as i32 - 1, 0) {
                            set.insert(x, y);
                        }
                    }
                }
                let expected: Vec<Cell> = (0..h as i32)
                    .flat_map(|y| (0..w as i32).map(move |x| Cell::new(x, y)))
                    .filter(|c| set.contains_cell(*c))
                    .collect();
                assert_eq!(set.iter().collect::<Vec<_>>(), expected, "{w}×{h} at {density}");
            }
        }
    }

    /// A set reused view after view holds what a fresh one does: its clearing covers every
    /// shape of rectangle (one word a row to most of a row, rows of one word to eleven).
    #[test]
    fn a_reused_set_holds_what_a_fresh_one_does() {
        let mut rng = Rng::new(17);
        for (w, h) in [(40, 30), (200, 150), (700, 90)] {
            let grid = reference::random_grid(&mut rng, w, h, 0.05);
            let mut reused = VisibleSet::new(w, h);
            for round in 0..60 {
                let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
                let radius = [Some(rng.below(12)), Some(rng.below(300)), None][round % 3];
                let algorithm = Algorithm::ALL[round % Algorithm::ALL.len()];
                let params = FovParams { origin, radius, light_walls: true };
                let mut fresh = VisibleSet::new(w, h);
                compute(algorithm, &grid, params, &mut fresh);
                compute(algorithm, &grid, params, &mut reused);
                let cells = |set: &VisibleSet| -> Vec<Cell> { set.iter().collect() };
                assert_eq!(cells(&reused), cells(&fresh), "{w}×{h}, round {round}, {algorithm}, {params:?}");
                assert_eq!(reused.words, fresh.words, "no bit left outside the rectangle");
            }
        }
    }

    #[test]
    fn transpose_64_moves_bit_j_of_word_i_to_bit_i_of_word_j() {
        let mut rng = Rng::new(1);
        let mut m = [0u64; 64];
        for w in &mut m {
            *w = u64::from(rng.below(u32::MAX)) << 32 | u64::from(rng.below(u32::MAX));
        }
        let before = m;
        transpose_64(&mut m);
        for (i, row) in before.iter().enumerate() {
            for (j, column) in m.iter().enumerate() {
                assert_eq!(row >> j & 1, column >> i & 1);
            }
        }
    }

    /// An octant's rows read through [`OctantLines::column_words`] are what
    /// [`OctantLines::read`] reads cell by cell, in all eight octants, from origins anywhere on
    /// maps of one word a line or several, for rows on the map and off it.
    #[test]
    fn column_words_read_what_cells_hold() {
        let mut rng = Rng::new(29);
        for round in 0..300 {
            let (w, h) = (1 + rng.below(150), 1 + rng.below(150));
            let grid = reference::random_grid(&mut rng, w, h, [0.02, 0.3, 0.9][round % 3]);
            let origin = (rng.below(w) as i32, rng.below(h) as i32);
            for (a, b) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                for turn in [1, -1] {
                    let lines = OctantLines::new(origin, (a, -b * turn, b, a * turn));
                    let words = lines.column_words(&grid).expect("the origin is on the map");
                    for j in -2..70 {
                        assert_eq!(
                            words.read(j),
                            lines.read(&CellByCell(&grid), j, 0, 63),
                            "{w}×{h} from {origin:?}, {lines:?}, row {j}"
                        );
                    }
                }
            }
        }
    }

    /// Bitset runs equal cell-by-cell runs, along rows and columns, from off the map on either
    /// side to off the other, across word boundaries; and span marking equals cell marking.
    #[test]
    fn bitset_runs_and_spans_equal_cell_by_cell() {
        let mut rng = Rng::new(23);
        for round in 0..300 {
            let (w, h) = (1 + rng.below(150), 1 + rng.below(150));
            let grid = reference::random_grid(&mut rng, w, h, [0.02, 0.3, 0.9][round % 3]);
            for _ in 0..50 {
                let axis = if rng.chance(0.5) { Axis::Row } else { Axis::Column };
                let (len, across) = match axis {
                    Axis::Row => (w as i32, h as i32),
                    Axis::Column => (h as i32, w as i32),
                };
                let fixed = rng.below(across as u32 + 4) as i32 - 2;
                let from = rng.below(len as u32 + 140) as i32 - 70;
                let to = from + rng.below(200) as i32;
                assert_eq!(
                    grid.run(axis, fixed, from, to),
                    CellByCell(&grid).run(axis, fixed, from, to),
                    "{w}×{h} {axis:?} {fixed} {from}..={to}"
                );
                let len = rng.below(65);
                let low = if len == 64 { u64::MAX } else { (1u64 << len) - 1 };
                assert_eq!(
                    grid.line_bits(axis, fixed, from, len) & low,
                    CellByCell(&grid).line_bits(axis, fixed, from, len),
                    "{w}×{h} {axis:?} {fixed} bits from {from}, {len}"
                );
                assert_eq!(
                    grid.line_bits_back(axis, fixed, from, len) & low,
                    CellByCell(&grid).line_bits_back(axis, fixed, from, len),
                    "{w}×{h} {axis:?} {fixed} bits back from {from}, {len}"
                );
                let mut spans = VisibleSet::new(w, h);
                let mut cells = VisibleSet::new(w, h);
                // A rectangle not aligned to words, with the span partly outside it.
                let (x0, y0) = (rng.below(w) as i32, rng.below(h) as i32);
                let (x1, y1) = (x0 + rng.below(w) as i32, y0 + rng.below(h) as i32);
                spans.begin(x0, y0, x1, y1);
                cells.begin(x0, y0, x1, y1);
                let inside = |x: i32, y: i32| x >= x0 && x <= x1 && y >= y0 && y <= y1;
                match axis {
                    Axis::Row => spans.mark_row(fixed, from, to),
                    Axis::Column => {
                        // Twice, to overlap.
                        spans.mark_column(fixed, from, to);
                        spans.mark_column(fixed, from + 3, to - 5);
                    }
                }
                spans.merge_columns();
                for i in from..=to {
                    match axis {
                        // Row spans are not clipped to the rectangle, only to the set.
                        Axis::Row => cells.mark(i, fixed),
                        Axis::Column if inside(fixed, i) => cells.mark(fixed, i),
                        Axis::Column => {}
                    }
                }
                assert_eq!(spans.words, cells.words, "{w}×{h} {axis:?} {fixed} {from}..={to}");
                // A row's cells as a word of bits, from anywhere on or off the map.
                let bits = rng.next_u64() & rng.next_u64();
                let (mut words, mut cells) = (VisibleSet::new(w, h), VisibleSet::new(w, h));
                words.mark_row_bits(fixed, from, bits);
                for i in (0..64).filter(|i| bits >> i & 1 != 0) {
                    cells.mark(from + i, fixed);
                }
                assert_eq!(words.words, cells.words, "{w}×{h} row {fixed}, {bits:#x} from {from}");
            }
        }
    }
}
