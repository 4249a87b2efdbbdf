//! `shadowcast`: recursive shadowcasting, Björn Bergström's, as libtcod's FOV_SHADOW runs it.
//!
//! Source: Björn Bergström, "FOV using recursive shadowcasting" (RogueBasin, 2001), and libtcod
//! `src/libtcod/fov_recursive_shadowcasting.c` (`cast_light`). In each of the eight octants, row
//! `j` (1, 2, …) is scanned from the column furthest from the octant's axis (`c = j`) towards it
//! (`c = 0`). Cell (j, c) spans slopes from `r = (c - ½) / (j + ½)` to `l = (c + ½) / (j - ½)`
//! (slope = column / row). With the octant's lit sector `[end, start]` (starting `[0, 1]`): a cell
//! with `start < r` is skipped, one with `end > l` ends the row; any other cell is lit (if within
//! the radius). A wall after floor recurses into row `j + 1` with sector `[l, start]`; floor after
//! wall narrows `start` to the last wall's `r`; a row ending on wall ends the octant.
//!
//! This is libtcod ≥ 1.16 (commit eaf9f2df), which checks that the sector is not reversed on
//! every row; libtcod ≤ 1.15 and doryen-fov check only when a scan starts and so light a few more
//! cells. libtcod computes the slopes in `f32`; we compare the same rationals exactly, in integers,
//! which gives libtcod's result wherever `f32` keeps distinct slopes apart (rows up to about 1000).
//! Properties: not symmetric; lights walls generously; thin pillars cast narrowing shadows.
//!
//! Speed: the cells of a row the sector lights are one interval of columns (from the last whose
//! `r` is within `start` to the first whose `l` falls short of `end`), and the scan's decisions
//! happen only where wall turns to floor or back. So a row is read as 64-cell opacity words
//! (each octant's row is part of a map row or column) and lit as spans, and only its runs of
//! walls are visited, found in the word (a run of floor between them only moves `start`).
//!
//! The first four rows are looked up rather than scanned, when the 9 × 9 box around the origin
//! lies on the map. An octant's rows 1 to 4 hold 14 cells, and its scan reads only its own
//! cells, a row at a time outward; so what those rows show, and the sectors the scan takes on
//! into row 5, are a function of their 14 opacity bits. [`small_views`] runs `cast_light` once
//! on each of the 16 384 patterns and keeps both. A view of radius ≤ 4 is then eight lookups;
//! a larger one scans from row 5 with the sectors its lookups give. An octant's 14 cells are
//! taken out of the box in one step and its view put back the same way (`small_box.rs`:
//! BMI2's `pext` and `pdep` where the processor has them), which halved the views of radius 4
//! against reading the box's rows and columns as lines (session 50: 222 → 106 ns a view on the
//! 30% map, 474 → 354 at r = 8).
//!
//! Rows 5 to 63 of a view whose reach lies on the map are scanned by words
//! ([`Octant::cast_words`]): a row is one word from column 0, nothing is clipped, and the
//! sector's first and last columns are followed from row to row without dividing.
//!
//! An octant's rows before its first wall within the radius are found and lit for all eight
//! octants at once (`open_rows.rs`), and its scan starts after them: from row 1 when the box is
//! not on the map, else from row 5 on for the octants whose first four rows hold no wall.

use std::sync::OnceLock;

use super::open_rows::{RowExtent, light_open_rows, octant_bit};
use super::small_box::{self, BOX_DISCS, OctantCells};
use super::{
    Axis, ColumnWords, FovContext, FovParams, OCTANTS, OctantLines, Opacity, OpacityGrid, RadiusCols, Ratio,
    VisibleSet, floor_div, scan_with, with_radius_cols,
};
use crate::core::Cell;

struct Octant<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    radius_cols: &'c mut RadiusCols,
    lines: OctantLines,
    /// The map's extent along a line.
    length: i32,
    /// Where a scan that stops before row `SMALL_ROWS + 1` leaves the sectors it would scan
    /// there (building [`small_views`] only).
    handoff: Option<&'c mut Vec<(Ratio, Ratio)>>,
}

impl<'c, 'a, O: Opacity> Octant<'c, 'a, O> {
    /// `octant` (one of [`OCTANTS`]) around the view's origin.
    fn new(ctx: &'c mut FovContext<'a, O>, radius_cols: &'c mut RadiusCols, octant: (i32, i32, i32, i32)) -> Self {
        let lines = OctantLines::new((ctx.ox, ctx.oy), octant);
        let length = if lines.axis == Axis::Row { ctx.grid.width() } else { ctx.grid.height() };
        Self { ctx, radius_cols, lines, length, handoff: None }
    }

    /// Scans rows `row ..` of the sector from slope `start` down to `end`. `HANDOFF`: stop
    /// before row `SMALL_ROWS + 1`, leaving the sector there in `handoff`.
    fn cast_light<const HANDOFF: bool>(&mut self, row: i32, mut start: Ratio, end: Ratio) {
        if start.lt(end) {
            return;
        }
        let mut new_start = start;
        for j in row..=self.ctx.reach {
            // libtcod ≥ 1.16 checks the sector on every row (1.15 and doryen-fov only on entry,
            // which lets a reversed sector light a few cells it should not).
            if start.lt(end) {
                return;
            }
            if HANDOFF && j == SMALL_ROWS + 1 {
                if let Some(handoff) = self.handoff.as_deref_mut() {
                    handoff.push((start, end));
                }
                return;
            }
            let j64 = i64::from(j);
            // The lit columns: r(c) = (2c − 1)/(2j + 1) ≤ start and l(c) = (2c + 1)/(2j − 1) ≥ end.
            let c_top = floor_div(start.num * (2 * j64 + 1) + start.den, 2 * start.den).min(j64) as i32;
            let c_bottom = floor_div(end.num * (2 * j64 - 1) + end.den - 1, 2 * end.den).max(0) as i32;
            // Cells off the map are skipped, as if absent: clip to the map.
            let (line, base) = (self.lines.line(j), self.lines.base);
            let across = match self.lines.axis {
                Axis::Row => self.ctx.grid.height(),
                Axis::Column => self.ctx.grid.width(),
            };
            let (mut c_top, mut c_bottom) = (c_top, c_bottom);
            if (line as u32) >= across as u32 {
                c_top = -1;
            } else if self.lines.sign > 0 {
                c_top = c_top.min(self.length - 1 - base);
                c_bottom = c_bottom.max(-base);
            } else {
                c_top = c_top.min(base);
                c_bottom = c_bottom.max(base - (self.length - 1));
            }
            let radius_cols = self.radius_cols.get(j);
            let mut blocked = false;
            // From the top column down, 64 at a time.
            let mut high = c_top;
            while high >= c_bottom {
                let low = (high - 63).max(c_bottom);
                let bits = self.lines.read(self.ctx.grid, j, low, high);
                let lit = high.min(radius_cols);
                if low <= lit {
                    if self.ctx.light_walls {
                        self.lines.mark(self.ctx, j, low, lit);
                    } else {
                        self.lines.mark_clear(self.ctx, j, bits, low, low, lit);
                    }
                }
                // The runs of walls, from the top, found as words; floor between them only
                // moves `start`. A row that continues a run of walls from the 64 columns above
                // (`blocked`) does not cast that run again.
                // (`read` leaves the bits past `high` clear.)
                let walls = bits;
                let top = (high - low) as u32;
                if blocked && walls >> top & 1 == 0 {
                    blocked = false;
                    start = new_start;
                }
                let mut tops = walls & !(walls >> 1);
                while tops != 0 {
                    let p = 63 - tops.leading_zeros();
                    tops &= !(1 << p);
                    // The run's bottom: one above the highest floor below it, or the word's end.
                    let floor_below = !walls & ((1 << p) - 1);
                    let b = 64 - floor_below.leading_zeros();
                    if !blocked && j < self.ctx.reach {
                        blocked = true;
                        self.cast_light::<HANDOFF>(
                            j + 1,
                            start,
                            Ratio::new(2 * i64::from(low + p as i32) + 1, 2 * j64 - 1),
                        );
                    }
                    if blocked {
                        new_start = Ratio::new(2 * i64::from(low + b as i32) - 1, 2 * j64 + 1);
                        if b > 0 {
                            // Floor follows.
                            blocked = false;
                            start = new_start;
                        }
                    }
                }
                high = low - 1;
            }
            if blocked {
                break;
            }
        }
    }
}

impl<'a, O: Opacity> Octant<'_, 'a, O> {
    /// The octant's rows as words, for [`Octant::cast_words`], in a view that can scan by
    /// words ([`by_words`]).
    fn words(&self, by_words: bool) -> Option<ColumnWords<'a>> {
        if by_words { self.lines.column_words(self.ctx.grid) } else { None }
    }

    /// Scans rows `row ..` of the sector from `start` down to `end`, whose first and last
    /// columns in row `row` are `tiles` ([`top_tile`] of `start`, [`bottom_tile`] of `end`): by
    /// words ([`Octant::cast_words`]) where there are `words`, else [`Octant::cast_light`].
    fn scan(&mut self, words: Option<&ColumnWords>, row: i32, start: Ratio, end: Ratio, tiles: (i64, i64)) {
        match words {
            Some(words) if row <= WORD_ROWS => {
                if !start.lt(end) {
                    self.cast_words(words, row, start, end, tiles.0, tiles.1);
                }
            }
            _ => self.cast_light::<false>(row, start, end),
        }
    }

    /// [`Octant::cast_light`] for the rows up to [`WORD_ROWS`], where a row's cells (columns
    /// `0 ..= j`) lie in one word from column 0, in a view whose reach lies on the map (so no
    /// cell is clipped). Each row is read once, as that word; the walls' runs are found in it
    /// as before. The sector's first and last columns are followed from row to row without
    /// dividing: `top` and `bottom` are [`top_tile`] of `start` and [`bottom_tile`] of `end`
    /// in row `row`. From row `WORD_ROWS + 1` on, the scan goes on in `cast_light`.
    fn cast_words(
        &mut self,
        words: &ColumnWords,
        mut j: i32,
        mut start: Ratio,
        end: Ratio,
        mut top: i64,
        mut bottom: i64,
    ) {
        let reach = self.ctx.reach;
        loop {
            if j > reach || start.lt(end) {
                return;
            }
            if j > WORD_ROWS {
                return self.cast_light::<false>(j, start, end);
            }
            let j64 = i64::from(j);
            debug_assert_eq!(top, top_tile(start, j64));
            debug_assert_eq!(bottom, bottom_tile(end, j64));
            // `top ≥ bottom ≥ 0` for a sector that is not reversed (`floor(x + ½) ≥
            // ceil(x − ½)`), and `bottom ≤ j` as `end ≤ start ≤ 1`.
            let (c_top, c_bottom) = (top.min(j64) as i32, bottom as i32);
            let here = words.read(j);
            let span = (u64::MAX >> (63 - c_top)) & (u64::MAX << c_bottom);
            let walls = here & span;
            let lit = c_top.min(self.radius_cols.get(j));
            if c_bottom <= lit {
                if self.ctx.light_walls {
                    self.lines.mark_on_map(self.ctx, j, c_bottom, lit);
                } else {
                    self.lines.mark_clear(self.ctx, j, here, 0, c_bottom, lit);
                }
            }
            // The tiles in row j + 1. Each moves by 0 or 1 from row to row, as both slopes are
            // at most 1; one product tells which.
            let mut next_top = top + i64::from(start.num * (2 * j64 + 3) + start.den >= 2 * start.den * (top + 1));
            let next_bottom = bottom + i64::from(end.num * (2 * j64 + 1) + end.den > 2 * end.den * (bottom + 1));
            let mut blocked = false;
            // The runs of walls, from the top (as in `cast_light`).
            let mut tops = walls & !(walls >> 1);
            while tops != 0 {
                let p = 63 - tops.leading_zeros();
                tops &= !(1 << p);
                if !blocked && j < reach {
                    blocked = true;
                    // The new end, l(p) = (2p + 1)/(2j − 1), has tile p + 1 in row j + 1:
                    // ((2p + 1)(2j + 1) + 2j − 2) div 2(2j − 1) = p + 1 + (4p + 1) div (4j − 2),
                    // and p < j (for p = j the new sector is reversed: l(j) > 1 ≥ start).
                    // A reversed sector is not called for: it would return at once.
                    let end = Ratio::new(2 * i64::from(p) + 1, 2 * j64 - 1);
                    if !start.lt(end) {
                        self.cast_words(words, j + 1, start, end, next_top, i64::from(p) + 1);
                    }
                }
                // The run's bottom: one above the highest floor below it in the span.
                let floor_below = !walls & span & ((1 << p) - 1);
                if blocked && floor_below != 0 {
                    // Floor follows: the new start, r(b) = (2b − 1)/(2j + 1), has tile b in row
                    // j + 1: ((2b − 1)(2j + 3) + 2j + 1) div 2(2j + 1) = b + (2b − 1) div (2j + 1),
                    // and 1 ≤ b ≤ j.
                    let b = i64::from(64 - floor_below.leading_zeros());
                    blocked = false;
                    start = Ratio::new(2 * b - 1, 2 * j64 + 1);
                    next_top = b;
                }
            }
            if blocked {
                return;
            }
            (top, bottom) = (next_top, next_bottom);
            j += 1;
        }
    }
}

/// The last row [`Octant::cast_words`] scans: its cells, columns `0 ..= j`, fit in a word.
const WORD_ROWS: i32 = 63;

/// The highest column of row `j` whose `r = (2c − 1)/(2j + 1)` is within `start` (before
/// clipping to `j`).
const fn top_tile(start: Ratio, j: i64) -> i64 {
    // A slope's denominator is positive, so this is the floor.
    (start.num * (2 * j + 1) + start.den).div_euclid(2 * start.den)
}

/// The lowest column of row `j` whose `l = (2c + 1)/(2j − 1)` reaches `end` (at least 0).
const fn bottom_tile(end: Ratio, j: i64) -> i64 {
    let tile = (end.num * (2 * j - 1) + end.den - 1).div_euclid(2 * end.den);
    if tile < 0 { 0 } else { tile }
}

/// Whether the view scans by words ([`Octant::cast_words`]): where the grid keeps bit lines
/// and the view's reach lies on the map.
fn by_words<O: Opacity>(ctx: &FovContext<'_, O>) -> bool {
    O::BLOCK_READS && ctx.reach_on_map()
}

/// The whole octant's sector, from `1` down to `0`, with its tiles in row `row`.
fn whole_sector(row: i32) -> (Ratio, Ratio, (i64, i64)) {
    (Ratio::new(1, 1), Ratio::new(0, 1), (i64::from(row) + 1, 0))
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    if small_box::on_map(ctx) {
        small_view(ctx, small_views());
        return;
    }
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        let open = light_open_rows(ctx, radius_cols, u8::MAX, 1, RowExtent::WithinRadius);
        let by_words = by_words(ctx);
        for octant in OCTANTS {
            let mut octant = Octant::new(ctx, radius_cols, octant);
            let first = open.first_closed(&octant.lines);
            let (start, end, tiles) = whole_sector(first);
            octant.scan(octant.words(by_words).as_ref(), first, start, end, tiles);
        }
    });
}

/// The first rows of an octant, which [`small_view`] looks up.
const SMALL_ROWS: i32 = 4;
/// Their cells: 2 + 3 + 4 + 5.
const SMALL_CELLS: u32 = 14;
/// Where row `j`'s cells start in a pattern of those cells: column `c` is bit `ROW_OFFSET[j] + c`.
const ROW_OFFSET: [u32; 5] = [0, 0, 2, 5, 9];

/// Every slope a sector entering row `SMALL_ROWS + 1` can have, as the scan makes them: the
/// first sector's `1` and `0`, a cell's `r = (2c − 1)/(2j + 1)` (a new start) and its
/// `l = (2c + 1)/(2j − 1)` (a new end), for rows `j ≤ SMALL_ROWS`. A looked-up view names a
/// sector by the indices of its slopes here.
const SLOPES: [Ratio; 30] = {
    let mut slopes = [Ratio::new(1, 1); 30];
    slopes[1] = Ratio::new(0, 1);
    let mut n = 2;
    let mut j = 1;
    while j <= SMALL_ROWS as i64 {
        let mut c = 0;
        while c <= j {
            slopes[n] = Ratio::new(2 * c - 1, 2 * j + 1);
            slopes[n + 1] = Ratio::new(2 * c + 1, 2 * j - 1);
            n += 2;
            c += 1;
        }
        j += 1;
    }
    slopes
};

/// Each of [`SLOPES`]' [`top_tile`] and [`bottom_tile`] in row `SMALL_ROWS + 1`, where the
/// scan of a looked-up view's sectors starts.
const SLOPE_TILES: [(i64, i64); 30] = {
    let mut tiles = [(0, 0); 30];
    let mut i = 0;
    while i < 30 {
        tiles[i] = (top_tile(SLOPES[i], SMALL_ROWS as i64 + 1), bottom_tile(SLOPES[i], SMALL_ROWS as i64 + 1));
        i += 1;
    }
    tiles
};

/// A looked-up view: bits `0..14` the visible cells of rows 1 to `SMALL_ROWS` (a pattern's
/// layout), bits `14..17` how many sectors go on into the next row, then each sector as two
/// 5-bit indices into [`SLOPES`] (start, then end), from bit `SECTORS_AT`.
const VIEW_BITS: u64 = (1 << SMALL_CELLS) - 1;
const SECTORS_AT: u32 = SMALL_CELLS + 3;
/// The most sectors an entry has room for (every pattern needs at most this many:
/// `small_views` checks as it builds).
const MAX_SECTORS: usize = 4;

/// An octant's first `SMALL_ROWS` rows for every pattern of their opacity (bit
/// `ROW_OFFSET[j] + c` for cell (j, c)): which of their cells are visible (walls lit, no
/// radius) and the sectors that go on into the next row, found by running
/// [`Octant::cast_light`] on each pattern, in octant 0 of an 11 × 11 map, stopping before row
/// `SMALL_ROWS + 1`. Every octant scans its own cells in its own (row, column) terms the same
/// way and reads no other cell, and what a row shows depends only on the rows before it, so
/// one table serves all eight octants and every radius (`small_views_are_the_scans_views`
/// checks every pattern in each octant). Built on first use, in a few milliseconds.
fn small_views() -> &'static [u64] {
    static VIEWS: OnceLock<Vec<u64>> = OnceLock::new();
    VIEWS.get_or_init(|| {
        let mut grid = OpacityGrid::new(11, 11);
        let mut visible = VisibleSet::new(11, 11);
        let mut sectors = Vec::new();
        let params = FovParams { origin: Cell::new(5, 5), radius: None, light_walls: true };
        let triangle = || (1..=SMALL_ROWS).flat_map(|j| (0..=j).map(move |c| (j, c)));
        let slope_index = |slope: Ratio| {
            let index = SLOPES.iter().position(|s| (s.num, s.den) == (slope.num, slope.den));
            index.expect("a sector's slope is one the first rows make") as u64
        };
        (0..1u32 << SMALL_CELLS)
            .map(|pattern| {
                for (j, c) in triangle() {
                    grid.set(5 + c, 5 - j, pattern >> (ROW_OFFSET[j as usize] + c as u32) & 1 != 0);
                }
                sectors.clear();
                scan_with(&grid, params, &mut visible, |ctx| {
                    with_radius_cols(ctx.radius_squared, |radius_cols| {
                        let mut octant = Octant::new(ctx, radius_cols, OCTANTS[0]);
                        octant.handoff = Some(&mut sectors);
                        octant.cast_light::<true>(1, Ratio::new(1, 1), Ratio::new(0, 1));
                    })
                });
                assert!(sectors.len() <= MAX_SECTORS, "pattern {pattern:#b}: {} sectors", sectors.len());
                let view = triangle()
                    .filter(|&(j, c)| visible.contains(5 + c, 5 - j))
                    .fold(0, |view, (j, c)| view | 1 << (ROW_OFFSET[j as usize] + c as u32));
                sectors.iter().enumerate().fold(
                    view | (sectors.len() as u64) << SMALL_CELLS,
                    |entry, (k, &(start, end))| {
                        entry | (slope_index(start) | slope_index(end) << 5) << (SECTORS_AT + 10 * k as u32)
                    },
                )
            })
            .collect()
    })
}

/// The cells of [`OCTANTS`]' first `SMALL_ROWS` rows in the box, in that order, for patterns
/// and views in the table's layout (bit `ROW_OFFSET[j] + c` for cell (j, c)), and each
/// octant's bit in the mask of [`light_open_rows`]. Made on first use.
fn octant_cells() -> &'static [(OctantCells, u8); 8] {
    static CELLS: OnceLock<[(OctantCells, u8); 8]> = OnceLock::new();
    CELLS.get_or_init(|| {
        OCTANTS.map(|octant @ (xx, xy, yx, yy)| {
            let cells: Vec<(i32, i32)> =
                (1..=SMALL_ROWS).flat_map(|j| (0..=j).map(move |c| (c * xx + j * xy, c * yx + j * yy))).collect();
            (OctantCells::new(&cells, &cells), octant_bit(&OctantLines::new((0, 0), octant)))
        })
    })
}

/// A view whose 9 × 9 box around the origin lies on the map: each octant's first
/// `SMALL_ROWS` rows from `views` (`small_box::look_up`: an octant's 14 cells gathered from the
/// box, its view scattered back), then the scan from the sectors they leave, if the radius goes
/// further. An octant whose first rows hold no wall goes on with its open rows.
fn small_view<O: Opacity>(ctx: &mut FovContext<'_, O>, views: &[u64]) {
    let disc = &BOX_DISCS[ctx.radius_squared.min(BOX_DISCS.len() as i64 - 1) as usize];
    let (entries, open_octants) = small_box::look_up(ctx, octant_cells(), views, VIEW_BITS, disc);
    if ctx.reach <= SMALL_ROWS {
        return;
    }
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        let open = (open_octants != 0)
            .then(|| light_open_rows(ctx, radius_cols, open_octants, SMALL_ROWS + 1, RowExtent::WithinRadius));
        let by_words = by_words(ctx);
        for (k, octant) in OCTANTS.into_iter().enumerate() {
            let entry = entries[k];
            // An octant whose first rows leave no sector (an open one leaves the whole) is done.
            if entry >> SMALL_CELLS & 7 == 0 {
                continue;
            }
            let mut octant = Octant::new(ctx, radius_cols, octant);
            let words = octant.words(by_words);
            if let Some(open) = open.filter(|_| open_octants & octant_bit(&octant.lines) != 0) {
                // Its first rows are open, so its whole sector goes on from its first closed row.
                let first = open.first_closed(&octant.lines);
                let (start, end, tiles) = whole_sector(first);
                octant.scan(words.as_ref(), first, start, end, tiles);
                continue;
            }
            for sector in 0..(entry >> SMALL_CELLS & 7) as u32 {
                let slopes = entry >> (SECTORS_AT + 10 * sector);
                let (start, end) = ((slopes & 31) as usize, (slopes >> 5 & 31) as usize);
                let tiles = (SLOPE_TILES[start].0, SLOPE_TILES[end].1);
                octant.scan(words.as_ref(), SMALL_ROWS + 1, SLOPES[start], SLOPES[end], tiles);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Cell;
    use crate::core::fov::reference::{assert_same_views, random_grid};
    use crate::core::fov::small_box::Portable;
    use crate::core::fov::{Algorithm, FovParams, OpacityGrid, VisibleSet};
    use crate::core::rng::Rng;

    /// libtcod's `cast_light` cell by cell (the implementation before runs): the definition the
    /// run-based scan must reproduce.
    fn reference(grid: &OpacityGrid, params: FovParams) -> Vec<(i32, i32)> {
        let r2 = params.radius.map_or(i64::MAX, |r| i64::from(r) * i64::from(r));
        let (ox, oy) = (params.origin.x, params.origin.y);
        let reach = params.radius.map_or(grid.width().max(grid.height()), |r| r as i32);
        let reach = reach.min((grid.width() - 1 - ox).max(ox).max((grid.height() - 1 - oy).max(oy)));
        let mut out = vec![(ox, oy)];
        struct Env<'g> {
            grid: &'g OpacityGrid,
            o: (i32, i32),
            r2: i64,
            reach: i32,
            light_walls: bool,
        }
        fn cast(env: &Env, out: &mut Vec<(i32, i32)>, m: (i32, i32, i32, i32), row: i32, mut start: Ratio, end: Ratio) {
            if start.lt(end) {
                return;
            }
            let (xx, xy, yx, yy) = m;
            let mut new_start = start;
            for j in row..=env.reach {
                if start.lt(end) {
                    return;
                }
                let mut blocked = false;
                for c in (0..=j).rev() {
                    let (dx, dy) = (c * xx + j * xy, c * yx + j * yy);
                    let (x, y) = (env.o.0 + dx, env.o.1 + dy);
                    if !env.grid.in_bounds(x, y) {
                        continue;
                    }
                    let (c64, j64) = (i64::from(c), i64::from(j));
                    let l_slope = Ratio::new(2 * c64 + 1, 2 * j64 - 1);
                    let r_slope = Ratio::new(2 * c64 - 1, 2 * j64 + 1);
                    if start.lt(r_slope) {
                        continue;
                    } else if l_slope.lt(end) {
                        break;
                    }
                    let wall = env.grid.is_opaque(x, y);
                    if i64::from(dx * dx) + i64::from(dy * dy) <= env.r2 && (env.light_walls || !wall) {
                        out.push((x, y));
                    }
                    if blocked {
                        if wall {
                            new_start = r_slope;
                            continue;
                        }
                        blocked = false;
                        start = new_start;
                    } else if wall && j < env.reach {
                        blocked = true;
                        cast(env, out, m, j + 1, start, l_slope);
                        new_start = r_slope;
                    }
                }
                if blocked {
                    break;
                }
            }
        }
        let env = Env { grid, o: (ox, oy), r2, reach, light_walls: params.light_walls };
        for m in OCTANTS {
            cast(&env, &mut out, m, 1, Ratio::new(1, 1), Ratio::new(0, 1));
        }
        out.sort_by_key(|&(x, y)| (y, x));
        out.dedup();
        out
    }

    /// The run-based scan gives the cell-by-cell scan's view.
    #[test]
    fn runs_give_the_cell_by_cell_view() {
        assert_same_views(Algorithm::Shadowcast, 29, [0.0, 0.05, 0.2, 0.45], reference);
    }

    /// On maps with a few walls far apart, octants open for tens of rows end at a lone wall
    /// (or the map's edge): the open rows found and lit at once (`open_rows.rs`) give the
    /// scan's view.
    #[test]
    fn open_rows_up_to_a_lone_wall_give_the_scans_view() {
        assert_same_views(Algorithm::Shadowcast, 37, [0.0005, 0.001, 0.002, 0.004], reference);
    }

    /// Every pattern of an octant's first four rows, in each of the eight octants in turn, with
    /// the rest of a 13 × 13 map random: the looked-up view, and the scan from the sectors it
    /// leaves, give the cell-by-cell scan's view, at every radius up to 8 and unlimited, walls
    /// lit or not. Then small maps with any origin, where views near the edges are scanned.
    #[test]
    fn small_views_are_the_scans_views() {
        let mut rng = Rng::new(37);
        let mut visible = VisibleSet::new(13, 13);
        for pattern in 0..1u32 << SMALL_CELLS {
            for (k, (xx, xy, yx, yy)) in OCTANTS.into_iter().enumerate() {
                let mut grid = random_grid(&mut rng, 13, 13, 0.3);
                for j in 1..=SMALL_ROWS {
                    for c in 0..=j {
                        let wall = pattern >> (ROW_OFFSET[j as usize] + c as u32) & 1 != 0;
                        grid.set(6 + c * xx + j * xy, 6 + c * yx + j * yy, wall);
                    }
                }
                let radius = [Some((pattern + k as u32) % 9), None][(pattern as usize + k) % 4 / 3];
                let params = FovParams { origin: Cell::new(6, 6), radius, light_walls: pattern % 3 != 0 };
                crate::core::fov::compute(Algorithm::Shadowcast, &grid, params, &mut visible);
                let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
                assert_eq!(ours, reference(&grid, params), "pattern {pattern:#b}, octant {k}: {params:?}");
            }
        }
        for round in 0..2000 {
            let (w, h) = (1 + rng.below(14), 1 + rng.below(14));
            let grid = random_grid(&mut rng, w, h, 0.3);
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let params = FovParams { origin, radius: Some(rng.below(6)), light_walls: round % 3 != 0 };
            let mut visible = VisibleSet::new(w, h);
            crate::core::fov::compute(Algorithm::Shadowcast, &grid, params, &mut visible);
            let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
            assert_eq!(ours, reference(&grid, params), "round {round}: {w}×{h}, {params:?}");
        }
    }

    /// Rows of more than 64 columns, read a word at a time, with walls across the words'
    /// joins: a run of walls that goes on into the next word must neither cast twice nor lose
    /// the start it leaves. (The random maps above rarely have a sector that wide.)
    /// Views whose reach lies on the map, which are scanned by words (`Octant::cast_words`) up
    /// to row `WORD_ROWS` and by `cast_light` past it, give the cell-by-cell view: radii from 5
    /// to 95, on maps from sparse (long sectors, past the word rows) to dense.
    #[test]
    fn word_rows_and_the_rows_past_them_give_the_cell_by_cell_view() {
        let mut rng = Rng::new(53);
        let mut past = 0;
        for round in 0..160 {
            let grid = random_grid(&mut rng, 200, 200, [0.003, 0.01, 0.05, 0.3][round % 4]);
            let radius = 5 + rng.below(91) as i32;
            let within = |rng: &mut Rng| radius + rng.below((200 - 2 * radius) as u32) as i32;
            let origin = Cell::new(within(&mut rng), within(&mut rng));
            let params = FovParams { origin, radius: Some(radius as u32), light_walls: round % 3 != 0 };
            let mut visible = VisibleSet::new(200, 200);
            crate::core::fov::compute(Algorithm::Shadowcast, &grid, params, &mut visible);
            let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
            past += ours.iter().filter(|&&(x, y)| (x - origin.x).abs().max((y - origin.y).abs()) > WORD_ROWS).count();
            assert_eq!(ours, reference(&grid, params), "round {round}: {params:?}");
        }
        assert!(past > 1000, "only {past} cells seen past row {WORD_ROWS}");
    }

    /// The looked-up first rows without BMI2 (gathers a bit at a time) light the cells the
    /// scan does at radius ≤ 4, and light the same cells and give the same entries as with
    /// BMI2 (where the processor has it) at every radius: random boxes, walls lit or not.
    #[test]
    fn looked_up_rows_are_the_same_without_bmi2() {
        let mut rng = Rng::new(61);
        let views = small_views();
        for round in 0..4000 {
            let grid = random_grid(&mut rng, 11, 11, [0.1, 0.3, 0.5, 0.7][round % 4]);
            let radius = [Some(round as u32 % 9), None][round % 5 / 4];
            let params = FovParams { origin: Cell::new(5, 5), radius, light_walls: round % 3 != 0 };
            let looked_up = |portable: bool| {
                let mut visible = VisibleSet::new(11, 11);
                let mut out = None;
                scan_with(&grid, params, &mut visible, |ctx| {
                    let disc = &BOX_DISCS[ctx.radius_squared.min(BOX_DISCS.len() as i64 - 1) as usize];
                    out = Some(if portable {
                        small_box::look_up_with::<Portable, _, _>(ctx, octant_cells(), views, VIEW_BITS, disc)
                    } else {
                        small_box::look_up(ctx, octant_cells(), views, VIEW_BITS, disc)
                    });
                });
                (out, visible.iter().map(|c| (c.x, c.y)).collect::<Vec<_>>())
            };
            let (portable, here) = (looked_up(true), looked_up(false));
            assert_eq!(portable, here, "round {round}: {params:?}");
            if radius.is_some_and(|r| r <= 4) {
                assert_eq!(portable.1, reference(&grid, params), "round {round}: {params:?}");
            }
        }
    }

    #[test]
    fn wide_rows_give_the_cell_by_cell_view() {
        let mut rng = Rng::new(31);
        for round in 0..60 {
            let mut grid = OpacityGrid::new(230, 230);
            for _ in 0..3 + round % 12 {
                // A short wall across the rows, near the far end of the octants' rows.
                let (x, y) = (150 + rng.below(70) as i32, 60 + rng.below(150) as i32);
                for k in 0..1 + rng.below(6) as i32 {
                    grid.set(x + k, y, true);
                }
            }
            let origin = Cell::new(rng.below(6) as i32, rng.below(230) as i32);
            let params = FovParams { origin, radius: None, light_walls: round % 2 == 0 };
            let mut visible = VisibleSet::new(230, 230);
            crate::core::fov::compute(Algorithm::Shadowcast, &grid, params, &mut visible);
            let ours: Vec<(i32, i32)> = visible.iter().map(|c| (c.x, c.y)).collect();
            assert_eq!(ours, reference(&grid, params), "round {round}: {params:?}");
        }
    }
}
