//! What the algorithms write: [`VisibleSet`], the visible cells of one computation as a bitset,
//! marked by row and column spans and cleared only where the last computation wrote.

use super::*;

/// The visible cells of one FOV computation: a bitset over the map, one row of 64-bit words per
/// map row. Reused across calls: [`compute`] clears only the rectangle it last wrote.
#[derive(Clone, Debug, Default)]
pub struct VisibleSet {
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) words_per_row: usize,
    pub(super) words: Vec<u64>,
    /// Inclusive rectangle `(x0, y0, x1, y1)` that may hold set bits.
    pub(super) touched: Option<(i32, i32, i32, i32)>,
    /// Column spans of the computation under way, kept transposed until it ends.
    pub(super) columns: ColumnSpans,
}

/// Column spans, transposed: one line of bits a map column of the declared rectangle, bit `i`
/// for its row `y0 + i`. A span down a column is then a few word writes (as a row span is in the
/// set itself) instead of one read-modify-write a cell; when the computation ends, the lines are
/// transposed 64 × 64 bits at a time and merged into the set's rows
/// ([`VisibleSet::merge_columns`]).
#[derive(Clone, Debug, Default)]
pub(super) struct ColumnSpans {
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
pub(super) const DIRECT_COLUMN_CELLS: usize = 768;

/// Transposes a 64 × 64 bit matrix in place: bit `j` of word `i` goes to bit `i` of word `j`
/// (the recursive block swap of Hacker's Delight §7-3, least significant bit first).
pub(super) fn transpose_64(m: &mut [u64; 64]) {
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
pub(super) fn swap_blocks<const WIDTH: usize>(m: &mut [u64; 64], mask: u64) {
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
    pub(super) fn begin(&mut self, x0: i32, y0: i32, x1: i32, y1: i32) {
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
    pub(super) fn mark_column_line(&mut self, line: i32, b0: i32, b1: i32) {
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
