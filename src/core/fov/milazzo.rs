//! `milazzo`: Adam Milazzo's algorithm with beveled walls.
//!
//! Source: Adam Milazzo, "Roguelike Vision Algorithms" (adammil.net, 2014), "My algorithm", his
//! C# `MyVisibility.Compute`, which this follows with its default visibility rule. It is shadow
//! casting from the centre of the origin's tile, column by column in eight octants, with two
//! changes: a wall's corner is beveled (cut diagonally to the edge midpoints) when both
//! orthogonal neighbours sharing that corner are clear, and a clear tile at the top or bottom of a
//! column's lit span is visible only if the sector reaches its inner square (the centred square of
//! half its width). Slopes are integer pairs compared by cross-multiplication.
//!
//! Distance: Milazzo leaves it to the caller; we use `dx² + dy² ≤ r²`, and the column at `x = r`
//! updates no sector, as in his code. (`adam_fov_rs` 0.5 uses his "mostly symmetrical" variant,
//! testing tile centres, so it differs from this on purpose.)
//!
//! Properties: not symmetric, but close; expansive walls; expanding pillar shadows; no blind
//! corners; sees through diagonal gaps between walls (the cut corners).
//!
//! How it is computed: within a column the tiles are read as 64-tile opacity words and handled
//! run by run (see [`Octant::compute`]). Up to column 62, where a column's tiles and those the
//! scan reads of the next fit in one word from tile 0, each column is read once, as that word,
//! its tile tests are bit tests, and the edges' tiles are followed from column to column
//! without dividing ([`Octant::compute_words`]); the scan by tiles takes over past it. An
//! octant's columns before its first wall within the radius are found and lit for all eight
//! octants at once (`open_rows.rs`), and its scan starts after them.
//!
//! The first three columns are looked up rather than scanned, when they lie within the radius
//! (`r² ≥ 18`), the 9 × 9 box around the origin lies on the map and holds a wall within two
//! tiles of the origin. An octant's scan of its columns 1 to 3 reads their 9 tiles and 3 of
//! column 4 (the bevels), and nothing else; so what those columns show, and the sectors the scan
//! takes on into column 4, are a function of 12 opacity bits. [`small_views`] runs the scan once
//! on each of the 4 096 patterns and keeps both; a view then looks up each octant and scans on
//! from column 4 with the sectors its lookup gives. A view of radius 4 (on the map's box) is
//! looked up whole, from 13 bits an octant ([`radius_4_views`]).

use std::sync::OnceLock;

use super::open_rows::{RowExtent, light_open_rows, octant_bit};
use super::small_box::{self, BOX_DISCS, OctantCells};
use super::{
    ColumnWords, FovContext, FovParams, OctantLines, Opacity, OpacityGrid, RadiusCols, VisibleSet, scan_with,
    with_radius_cols,
};
use crate::core::Cell;

/// `y / x`.
#[derive(Clone, Copy, Debug)]
struct Slope {
    y: i64,
    x: i64,
}

impl Slope {
    /// `self > y / x`.
    #[inline]
    fn greater(self, y: i64, x: i64) -> bool {
        self.y * x > self.x * y
    }
    #[inline]
    fn greater_or_equal(self, y: i64, x: i64) -> bool {
        self.y * x >= self.x * y
    }
    /// Milazzo's tile of this edge in column `c`: `((2c − 1)·y + x) div 2x`.
    #[inline]
    const fn tile_in(self, c: i64) -> i64 {
        ((2 * c - 1) * self.y + self.x) / (2 * self.x)
    }

    /// [`Slope::tile_in`] column `c + 1`, from `q`, its tile in column `c`: the dividend grows
    /// by `2y ≤ 2x` a column, so the quotient by 0 or 1, and a product tells which.
    #[inline]
    fn tile_after(self, c: i64, q: i64) -> i64 {
        q + i64::from((2 * c + 1) * self.y + self.x >= 2 * self.x * (q + 1))
    }

    /// `self < y / x`.
    #[inline]
    fn less(self, y: i64, x: i64) -> bool {
        self.y * x < self.x * y
    }
}

/// Octant-local (x, y) → map offset, Milazzo's octants 0..8.
const TRANSFORMS: [(i32, i32, i32, i32); 8] = [
    (1, 0, 0, -1),
    (0, 1, -1, 0),
    (0, -1, -1, 0),
    (-1, 0, 0, -1),
    (-1, 0, 0, 1),
    (0, -1, 1, 0),
    (0, 1, 1, 0),
    (1, 0, 0, 1),
];

struct Octant<'c, 'a, O: Opacity> {
    ctx: &'c mut FovContext<'a, O>,
    radius_cols: &'c mut RadiusCols,
    t: (i32, i32, i32, i32),
    lines: OctantLines,
    /// The last column (`x = r`); `None` when unlimited.
    range_limit: Option<i64>,
    last_column: i64,
    /// Where a scan that stops before column `SMALL_COLUMNS + 1` leaves the sectors it would
    /// scan there (building [`small_views`] only).
    handoff: Option<&'c mut Vec<(Slope, Slope)>>,
}

impl<'a, O: Opacity> Octant<'_, 'a, O> {
    #[inline]
    fn offset(&self, x: i64, y: i64) -> (i32, i32) {
        let (x, y) = (x as i32, y as i32);
        let (a, b, c, d) = self.t;
        (x * a + y * b, x * c + y * d)
    }

    #[inline]
    fn blocks_light(&self, x: i64, y: i64) -> bool {
        let (dx, dy) = self.offset(x, y);
        self.ctx.is_opaque(self.ctx.ox + dx, self.ctx.oy + dy)
    }

    /// Milazzo's column loop. Within a column the tiles between the two slopes are read as
    /// 64-tile opacity words and handled run by run: every tile of the span is visible except
    /// possibly a clear top or bottom tile (the inner-square test), and the sector changes only
    /// where clear turns to opaque or back. `HANDOFF`: stop before column `SMALL_COLUMNS + 1`,
    /// leaving the sector there in `handoff`.
    fn compute<const HANDOFF: bool>(&mut self, mut x: i64, mut top: Slope, mut bottom: Slope) {
        while x <= self.last_column {
            if HANDOFF && x == SMALL_COLUMNS + 1 {
                if let Some(handoff) = self.handoff.as_deref_mut() {
                    handoff.push((top, bottom));
                }
                return;
            }
            let top_y = if top.x == 1 {
                x
            } else {
                let mut top_y = ((2 * x - 1) * top.y + top.x) / (2 * top.x);
                if self.blocks_light(x, top_y) {
                    if top.greater_or_equal(2 * top_y + 1, 2 * x) && !self.blocks_light(x, top_y + 1) {
                        top_y += 1;
                    }
                } else {
                    let mut ax = 2 * x;
                    if self.blocks_light(x + 1, top_y + 1) {
                        ax += 1;
                    }
                    if top.greater(2 * top_y + 1, ax) {
                        top_y += 1;
                    }
                }
                top_y
            };
            let bottom_y = if bottom.y == 0 {
                0
            } else {
                let mut bottom_y = ((2 * x - 1) * bottom.y + bottom.x) / (2 * bottom.x);
                if bottom.greater_or_equal(2 * bottom_y + 1, 2 * x)
                    && self.blocks_light(x, bottom_y)
                    && !self.blocks_light(x, bottom_y + 1)
                {
                    bottom_y += 1;
                }
                bottom_y
            };
            let column = x as i32;
            // Tiles beyond the radius are skipped as if absent: they are the top of the span.
            let high_y = top_y.min(i64::from(self.radius_cols.get(column)));
            // -1: no tile yet, 0: clear, 1: opaque.
            let mut was_opaque = -1;
            let mut high = high_y;
            'column: while high >= bottom_y {
                let low = (high - 63).max(bottom_y);
                let bits = self.lines.read(self.ctx.grid, column, low as i32, high as i32);
                let wall_at = |y: i64| bits >> (y - low) & 1 != 0;
                // Visible: opaque tiles, and clear ones but for a top tile whose inner square the
                // sector misses, and likewise the bottom tile.
                let mut visible = (low, high);
                if high == top_y && !wall_at(high) && !top.greater(4 * high - 1, 4 * x + 1) {
                    visible.1 -= 1;
                }
                if low == bottom_y && !wall_at(low) && !bottom.less(4 * low + 1, 4 * x - 1) {
                    visible.0 += 1;
                }
                if visible.0 <= visible.1 {
                    let (a, b) = (visible.0 as i32, visible.1 as i32);
                    if self.ctx.light_walls {
                        self.lines.mark(self.ctx, column, a, b);
                    } else {
                        self.lines.mark_clear(self.ctx, column, bits, low as i32, a, b);
                    }
                }
                if Some(x) != self.range_limit {
                    let mut y = high;
                    while y >= low {
                        let p = (y - low) as u32;
                        let wall = bits >> p & 1 != 0;
                        let below = if p == 63 { u64::MAX } else { (2u64 << p) - 1 };
                        let differ = (if wall { !bits } else { bits }) & below;
                        let run_low = if differ == 0 { low } else { low + 64 - i64::from(differ.leading_zeros()) };
                        if wall {
                            if was_opaque == 0 {
                                // Clear to opaque: the wall's top centre. (Milazzo also tests
                                // the tile above for its corner, but that is the clear tile just
                                // passed.)
                                let (nx, ny) = (2 * x, 2 * y + 1);
                                if top.greater(ny, nx) {
                                    if y == bottom_y {
                                        bottom = Slope { y: ny, x: nx };
                                        break 'column;
                                    }
                                    self.compute::<HANDOFF>(x + 1, top, Slope { y: ny, x: nx });
                                } else if y == bottom_y {
                                    return;
                                }
                            }
                            was_opaque = 1;
                        } else {
                            if was_opaque > 0 {
                                // Opaque to clear: the wall above's bottom centre or bottom-right corner.
                                let (mut nx, ny) = (2 * x, 2 * y + 1);
                                if self.blocks_light(x + 1, y + 1) {
                                    nx += 1;
                                }
                                if bottom.greater_or_equal(ny, nx) {
                                    return;
                                }
                                top = Slope { y: ny, x: nx };
                            }
                            was_opaque = 0;
                        }
                        y = run_low - 1;
                    }
                }
                high = low - 1;
            }
            if was_opaque != 0 {
                break;
            }
            x += 1;
        }
    }

    /// The octant's columns as words, where the grid reads them ([`Opacity::BLOCK_READS`]: a
    /// grid that records its reads is read tile by tile).
    fn column_words(&self) -> Option<ColumnWords<'a>> {
        if O::BLOCK_READS { self.lines.column_words(self.ctx.grid) } else { None }
    }

    /// The scan from column `x` with one sector: by words (from [`Octant::column_words`]) up
    /// to [`WORD_COLUMNS`].
    fn scan(&mut self, words: Option<&ColumnWords>, x: i64, edges: Edges) {
        match words {
            Some(words) if x <= WORD_COLUMNS => {
                // Unlimited, the scan goes one column past the reach, off the map.
                let on_map = self.range_limit.is_some() && self.ctx.reach_on_map();
                self.compute_words(words, on_map, x, edges, words.read(x as i32));
            }
            _ => self.compute::<false>(x, edges.top, edges.bottom),
        }
    }

    /// [`Octant::compute`] for the columns up to [`WORD_COLUMNS`], where a column's every tile
    /// the scan reads (`y ≤ x + 1`) lies in one word from tile 0: each column is read once, as
    /// that word (`here`), and the next column's word, read once for its bevels, becomes the
    /// next `here`. The tile tests are then bit tests, and the edges' tiles are followed from
    /// column to column ([`Edges`]). A view whose reach lies on the map (`on_map`) marks its
    /// spans without clipping them. From column `WORD_COLUMNS + 1` on, the scan goes on in
    /// [`Octant::compute`].
    fn compute_words(&mut self, words: &ColumnWords, on_map: bool, mut x: i64, edges: Edges, mut here: u64) {
        let bit = |word: u64, y: i64| word >> y & 1 != 0;
        let Edges { mut top, mut bottom, mut top_q, mut bottom_q } = edges;
        while x <= self.last_column {
            if x > WORD_COLUMNS {
                return self.compute::<false>(x, top, bottom);
            }
            let next = words.read(x as i32 + 1);
            // Milazzo's top and bottom tiles, as in `compute` (top_y ≤ x, so `top_y + 1` is in
            // the word).
            let top_y = if top.x == 1 {
                x
            } else {
                debug_assert_eq!(top_q, top.tile_in(x));
                let mut top_y = top_q;
                if bit(here, top_y) {
                    if top.greater_or_equal(2 * top_y + 1, 2 * x) && !bit(here, top_y + 1) {
                        top_y += 1;
                    }
                } else if top.greater(2 * top_y + 1, 2 * x + i64::from(bit(next, top_y + 1))) {
                    top_y += 1;
                }
                top_y
            };
            let bottom_y = if bottom.y == 0 {
                0
            } else {
                debug_assert_eq!(bottom_q, bottom.tile_in(x));
                let mut bottom_y = bottom_q;
                if bottom.greater_or_equal(2 * bottom_y + 1, 2 * x) && bit(here, bottom_y) && !bit(here, bottom_y + 1) {
                    bottom_y += 1;
                }
                bottom_y
            };
            let column = x as i32;
            let high_y = top_y.min(i64::from(self.radius_cols.get(column)));
            if high_y < bottom_y {
                break;
            }
            // Visible: opaque tiles, and clear ones but for a top tile whose inner square the
            // sector misses, and likewise the bottom tile.
            let mut visible = (bottom_y, high_y);
            if high_y == top_y && !bit(here, high_y) && !top.greater(4 * high_y - 1, 4 * x + 1) {
                visible.1 -= 1;
            }
            if !bit(here, bottom_y) && !bottom.less(4 * bottom_y + 1, 4 * x - 1) {
                visible.0 += 1;
            }
            if visible.0 <= visible.1 {
                let (a, b) = (visible.0 as i32, visible.1 as i32);
                if self.ctx.light_walls {
                    if on_map {
                        self.lines.mark_on_map(self.ctx, column, a, b);
                    } else {
                        self.lines.mark(self.ctx, column, a, b);
                    }
                } else {
                    self.lines.mark_clear(self.ctx, column, here, 0, a, b);
                }
            }
            if Some(x) == self.range_limit {
                break;
            }
            // The edges' tiles in the next column. An edge set at tile `y` of this column (below
            // `x`) has tile `y + 1` there: `(2y + 1) / (2x + b)` gives `((2x + 1)(2y + 1) + 2x + b)
            // div 2(2x + b)`, which is `y + 1` for `b = 1`, and `y + 1 + (2y + 1) div 4x` for
            // `b = 0`.
            let (mut next_top_q, mut next_bottom_q) = (top.tile_after(x, top_q), bottom.tile_after(x, bottom_q));
            // The span's runs from the top down; the sector changes only where clear turns to
            // opaque or back.
            let mut was_opaque = None;
            let mut y = high_y;
            loop {
                let wall = bit(here, y);
                let below = (2u64 << y) - 1;
                let differ = (if wall { !here } else { here }) & below;
                let run_low = (64 - i64::from(differ.leading_zeros())).max(bottom_y);
                if wall {
                    if was_opaque == Some(false) {
                        // Clear to opaque: the wall's top centre. (Milazzo also tests the tile
                        // above for its corner, but that is the clear tile just passed.)
                        let (nx, ny) = (2 * x, 2 * y + 1);
                        if top.greater(ny, nx) {
                            let edge = Slope { y: ny, x: nx };
                            if y == bottom_y {
                                (bottom, next_bottom_q) = (edge, y + 1);
                                was_opaque = Some(false);
                                break;
                            }
                            let edges = Edges { top, bottom: edge, top_q: next_top_q, bottom_q: y + 1 };
                            self.compute_words(words, on_map, x + 1, edges, next);
                        } else if y == bottom_y {
                            return;
                        }
                    }
                    was_opaque = Some(true);
                } else {
                    if was_opaque == Some(true) {
                        // Opaque to clear: the wall above's bottom centre or bottom-right corner.
                        let (nx, ny) = (2 * x + i64::from(bit(next, y + 1)), 2 * y + 1);
                        if bottom.greater_or_equal(ny, nx) {
                            return;
                        }
                        (top, next_top_q) = (Slope { y: ny, x: nx }, y + 1);
                    }
                    was_opaque = Some(false);
                }
                if run_low == bottom_y {
                    break;
                }
                y = run_low - 1;
            }
            if was_opaque != Some(false) {
                break;
            }
            (top_q, bottom_q) = (next_top_q, next_bottom_q);
            here = next;
            x += 1;
        }
    }
}

pub(super) fn compute<O: Opacity>(ctx: &mut FovContext<'_, O>) {
    let range_limit = (ctx.radius_squared != i64::MAX).then_some(i64::from(ctx.reach));
    // Past the map every tile blocks light, so one column beyond the reach ends every octant.
    let last_column = i64::from(ctx.reach) + i64::from(range_limit.is_none());
    if O::BLOCK_READS && small_box::on_map(ctx) {
        if ctx.radius_squared == 16 {
            radius_4_view(ctx, radius_4_views());
            return;
        }
        // Looked up only with a wall within two tiles of the origin. Without, the first columns
        // are mostly open rows, found as fast, and the box's reading would cost more than it
        // saves (measured while r = 4 took this path: a check of three tiles cost 10% more on
        // the open map and on caves, no check 60% more on the open map).
        if ctx.radius_squared >= FAR_RADIUS_SQUARED && small_box::wall_within(ctx, 2) {
            small_view(ctx, small_views(), range_limit, last_column);
            return;
        }
    }
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        let open = light_open_rows(ctx, radius_cols, u8::MAX, 1, RowExtent::WithinRadius);
        for t in TRANSFORMS {
            let lines = octant_lines(ctx, t);
            let first = i64::from(open.first_closed(&lines));
            if first > last_column {
                // Open to the end.
                continue;
            }
            let mut octant = Octant { ctx, radius_cols, t, lines, range_limit, last_column, handoff: None };
            let words = octant.column_words();
            octant.scan(words.as_ref(), first, Edges::whole(first));
        }
    });
}

/// A sector's edges as [`Octant::compute_words`] follows them: each slope and its tile in the
/// column at hand ([`Slope::tile_in`]), found without dividing.
#[derive(Clone, Copy, Debug)]
struct Edges {
    top: Slope,
    bottom: Slope,
    top_q: i64,
    bottom_q: i64,
}

impl Edges {
    /// The whole octant's sector, from `1` to `0`, at column `x`.
    fn whole(x: i64) -> Self {
        Edges { top: Slope { y: 1, x: 1 }, bottom: Slope { y: 0, x: 1 }, top_q: x, bottom_q: 0 }
    }
}

/// The last column [`Octant::compute_words`] scans: its tiles and the next column's up to
/// `x + 1` fit in a word.
const WORD_COLUMNS: i64 = 62;

/// The octant `t` around the view's origin as map lines: octant column `x` is the lines'
/// row, its tile `y` the column along it.
fn octant_lines<O: Opacity>(ctx: &FovContext<'_, O>, t: (i32, i32, i32, i32)) -> OctantLines {
    OctantLines::new((ctx.ox, ctx.oy), (t.1, t.0, t.3, t.2))
}

/// The first columns of an octant, which [`small_view`] looks up.
const SMALL_COLUMNS: i64 = 3;
/// Where column `x`'s tiles are in a pattern of an octant's first columns: tile `y` is bit
/// `COLUMN_OFFSET[x] + y`. Columns 1 to 3 give all their tiles (bits 0–8); column 4 gives its
/// tiles 1 to 3 (bits 9–11), which the scan reads to bevel corners in column 3: tile
/// `(x + 1, y + 1)` for a wall's corner at `y`, and for a sector's top tile `y`. Both lie below
/// the diagonal (`y < x`) but the first sector's top, which is placed without a read, so no
/// test reaches tile 4.
const COLUMN_OFFSET: [u32; 5] = [0, 0, 2, 5, 8];
/// The tiles of a pattern.
const PATTERN_BITS: u32 = 12;
/// The tiles of columns 1 to 3 in a pattern (and in a looked-up view).
const VIEW_BITS: u64 = (1 << 9) - 1;

/// From this `r²` on, the first three columns lie within the radius (the farthest tile,
/// (3, 3), at 18).
const FAR_RADIUS_SQUARED: i64 = 18;

/// Every slope a sector entering column `SMALL_COLUMNS + 1` can have: the first sector's `1`
/// and `0`, and those a tile `(x, y)` of the first columns gives, `(2y + 1) / (2x − 1 … 2x + 1)`
/// (a wall's corners and the centre of its side). A looked-up view names a sector by the
/// indices of its two slopes here.
const SLOPES: [Slope; 29] = {
    let mut slopes = [Slope { y: 1, x: 1 }; 29];
    slopes[1] = Slope { y: 0, x: 1 };
    let mut n = 2;
    let mut x = 1;
    while x <= SMALL_COLUMNS {
        let mut y = 0;
        while y <= x {
            let mut nx = 2 * x - 1;
            while nx <= 2 * x + 1 {
                slopes[n] = Slope { y: 2 * y + 1, x: nx };
                n += 1;
                nx += 1;
            }
            y += 1;
        }
        x += 1;
    }
    slopes
};

/// Each of [`SLOPES`]' tiles in column `SMALL_COLUMNS + 1` ([`Slope::tile_in`]), where the
/// scan of a looked-up view starts.
const SLOPE_TILES: [i64; 29] = {
    let mut tiles = [0; 29];
    let mut i = 0;
    while i < SLOPES.len() {
        tiles[i] = SLOPES[i].tile_in(SMALL_COLUMNS + 1);
        i += 1;
    }
    tiles
};

/// A looked-up view: bits `0..9` the visible tiles of columns 1 to 3 (a pattern's layout),
/// bits `9..12` how many sectors go on into column 4, then each sector as two 5-bit indices
/// into [`SLOPES`] (top, then bottom), from bit `SECTORS_AT`.
const SECTORS_AT: u32 = 12;
/// The most sectors an entry has room for (every pattern needs at most this many:
/// `small_views` checks as it builds).
const MAX_SECTORS: usize = 5;

/// An octant's first `SMALL_COLUMNS` columns for every pattern of the tiles the scan reads
/// there (see [`COLUMN_OFFSET`]): which of their tiles are visible (walls lit) and the sectors
/// that go on into the next column, found by running [`Octant::compute`] on each pattern, in
/// octant 0 of an 11 × 11 map, stopping before column `SMALL_COLUMNS + 1`. Every octant scans
/// its own tiles in its own (column, tile) terms the same way, and what a column shows depends
/// only on the columns before it, so one table serves all eight octants
/// (`small_views_are_the_scans_views` checks every pattern in each octant).
///
/// The table serves every `r²` of at least [`FAR_RADIUS_SQUARED`] and no radius: it is built
/// at radius 5, where every tile of the first columns is within the radius and none of them is
/// in the last column. Built on first use, in under a millisecond (release build).
fn small_views() -> &'static [u64] {
    static VIEWS: OnceLock<Vec<u64>> = OnceLock::new();
    VIEWS.get_or_init(|| {
        let mut grid = OpacityGrid::new(11, 11);
        let mut visible = VisibleSet::new(11, 11);
        let mut sectors = Vec::new();
        let params = FovParams { origin: Cell::new(5, 5), radius: Some(5), light_walls: true };
        // Octant 0's (x, y) is the map offset (x, −y).
        let tiles = || {
            (1..=SMALL_COLUMNS as i32)
                .flat_map(|x| (0..=x).map(move |y| (x, y)))
                .chain((1..=SMALL_COLUMNS as i32).map(|y| (SMALL_COLUMNS as i32 + 1, y)))
        };
        let slope_index = |slope: Slope| {
            let index = SLOPES.iter().position(|s| (s.y, s.x) == (slope.y, slope.x));
            index.expect("a sector's slope is one the first columns make") as u64
        };
        (0..1u32 << PATTERN_BITS)
            .map(|pattern| {
                for (x, y) in tiles() {
                    grid.set(5 + x, 5 - y, pattern >> (COLUMN_OFFSET[x as usize] + y as u32) & 1 != 0);
                }
                sectors.clear();
                scan_with(&grid, params, &mut visible, |ctx| {
                    let range_limit = Some(i64::from(ctx.reach));
                    let last_column = i64::from(ctx.reach);
                    with_radius_cols(ctx.radius_squared, |radius_cols| {
                        let t = TRANSFORMS[0];
                        let lines = octant_lines(ctx, t);
                        let handoff = Some(&mut sectors);
                        let mut octant = Octant { ctx, radius_cols, t, lines, range_limit, last_column, handoff };
                        octant.compute::<true>(1, Slope { y: 1, x: 1 }, Slope { y: 0, x: 1 });
                    })
                });
                assert!(sectors.len() <= MAX_SECTORS, "pattern {pattern:#b}: {} sectors", sectors.len());
                let view = tiles()
                    .filter(|&(x, y)| x <= SMALL_COLUMNS as i32 && visible.contains(5 + x, 5 - y))
                    .fold(0, |view, (x, y)| view | 1 << (COLUMN_OFFSET[x as usize] + y as u32));
                sectors.iter().enumerate().fold(
                    view | (sectors.len() as u64) << VIEW_BITS.count_ones(),
                    |entry, (k, &(top, bottom))| {
                        entry | (slope_index(top) | slope_index(bottom) << 5) << (SECTORS_AT + 10 * k as u32)
                    },
                )
            })
            .collect()
    })
}

/// Where column `x`'s tiles are in a pattern of the tiles an octant's scan reads at radius 4:
/// tile `y` is bit `RADIUS_4_OFFSET[x] + y`. Columns 1 to 3 give all their tiles, as in
/// [`COLUMN_OFFSET`], and column 4, the last, its tiles 0 to 3 (bits 9–12): tile 0 is the only
/// one within the radius, and tile 2 bevels a corner in column 3. Tiles 1 and 3, and (3, 3)
/// beyond the radius, which the scan may read, turn out never to change the view; they come
/// with their lines at no cost, so the table keeps them rather than squeezing them out.
const RADIUS_4_OFFSET: [u32; 5] = [0, 0, 2, 5, 9];
/// The tiles of a radius-4 pattern.
const RADIUS_4_BITS: u32 = 13;

/// An octant's whole view at radius 4 for every pattern of the tiles its scan reads
/// ([`RADIUS_4_OFFSET`]): bit `RADIUS_4_OFFSET[x] + y` set for each visible tile (walls lit;
/// of column 4 only tile 0 is within the radius). Found by running [`Octant::compute`] on each
/// pattern in octant 0 of an 11 × 11 map twice, once with every other tile clear and once with
/// every other tile opaque: the two views must agree, so the scan reads no tile the pattern
/// leaves out. One table serves all eight octants, as [`small_views`] does
/// (`small_views_are_the_scans_views` checks every pattern in each octant). Built on first use,
/// in about 8 ms (16 384 scans, release build).
fn radius_4_views() -> &'static [u16] {
    static VIEWS: OnceLock<Vec<u16>> = OnceLock::new();
    VIEWS.get_or_init(|| {
        let mut grid = OpacityGrid::new(11, 11);
        let mut visible = VisibleSet::new(11, 11);
        let params = FovParams { origin: Cell::new(5, 5), radius: Some(4), light_walls: true };
        // Octant 0's (x, y) is the map offset (x, −y).
        let tiles = || (1..=4).flat_map(|x| (0..=x.min(3)).map(move |y| (x, y)));
        let mut view_of = |pattern: u32, others: bool| {
            for (x, y) in (0..11).flat_map(|x| (0..11).map(move |y| (x, y))) {
                grid.set(x, y, others && (x, y) != (5, 5));
            }
            for (x, y) in tiles() {
                grid.set(5 + x, 5 - y, pattern >> (RADIUS_4_OFFSET[x as usize] + y as u32) & 1 != 0);
            }
            scan_with(&grid, params, &mut visible, |ctx| {
                with_radius_cols(ctx.radius_squared, |radius_cols| {
                    let (t, range_limit, last_column) = (TRANSFORMS[0], Some(4), 4);
                    let lines = octant_lines(ctx, t);
                    let mut octant = Octant { ctx, radius_cols, t, lines, range_limit, last_column, handoff: None };
                    octant.compute::<false>(1, Slope { y: 1, x: 1 }, Slope { y: 0, x: 1 });
                })
            });
            tiles()
                .filter(|&(x, y)| visible.contains(5 + x, 5 - y))
                .fold(0u16, |view, (x, y)| view | 1 << (RADIUS_4_OFFSET[x as usize] + y as u32))
        };
        (0..1u32 << RADIUS_4_BITS)
            .map(|pattern| {
                let view = view_of(pattern, false);
                assert_eq!(view, view_of(pattern, true), "pattern {pattern:#b}: the scan reads another tile");
                view
            })
            .collect()
    })
}

/// The tiles of each of [`TRANSFORMS`]' octants in the box, in that order, for the patterns
/// and views of [`small_views`] (`.0`: tiles in [`COLUMN_OFFSET`]'s layout, columns 1 to 3 in
/// the view, with each octant's bit in the mask of [`light_open_rows`]) and of
/// [`radius_4_views`] (`.1`: in [`RADIUS_4_OFFSET`]'s, all in the view; no open rows). Made on
/// first use.
type OctantTiles = ([(OctantCells, u8); 8], [(OctantCells, u8); 8]);

fn octant_tiles() -> &'static OctantTiles {
    static TILES: OnceLock<OctantTiles> = OnceLock::new();
    TILES.get_or_init(|| {
        let tiles = |t: (i32, i32, i32, i32), last: i32, column: fn(i32) -> std::ops::RangeInclusive<i32>| {
            (1..=last).flat_map(move |x| column(x).map(move |y| (x * t.0 + y * t.1, x * t.2 + y * t.3))).collect()
        };
        let small = TRANSFORMS.map(|t| {
            let small: Vec<_> =
                tiles(t, SMALL_COLUMNS as i32 + 1, |x| if x <= SMALL_COLUMNS as i32 { 0..=x } else { 1..=x - 1 });
            let open_bit = octant_bit(&OctantLines::new((0, 0), (t.1, t.0, t.3, t.2)));
            (OctantCells::new(&small, &small[..VIEW_BITS.count_ones() as usize]), open_bit)
        });
        let radius_4 = TRANSFORMS.map(|t| {
            let radius_4: Vec<_> = tiles(t, 4, |x| 0..=x.min(3));
            (OctantCells::new(&radius_4, &radius_4), 0)
        });
        (small, radius_4)
    })
}

/// A view of radius 4 whose 9 × 9 box around the origin lies on the map: each octant's view
/// looked up whole ([`radius_4_views`]), its tiles gathered from the box and its view scattered
/// back (`small_box::look_up`).
fn radius_4_view<O: Opacity>(ctx: &mut FovContext<'_, O>, views: &[u16]) {
    small_box::look_up(ctx, &octant_tiles().1, views, (1 << RADIUS_4_BITS) - 1, &BOX_DISCS[16]);
}

/// A view of `r² ≥ 18` whose 9 × 9 box around the origin lies on the map: each octant's first
/// `SMALL_COLUMNS` columns from `views` (`small_box::look_up`), then the scan from the sectors they
/// leave. An octant whose first columns hold no wall goes on with its open rows, which may
/// reach past the box, as a view that is not looked up does.
fn small_view<O: Opacity>(ctx: &mut FovContext<'_, O>, views: &[u64], range_limit: Option<i64>, last_column: i64) {
    // The looked-up tiles lie within the radius (the tables leave out those beyond it).
    let disc = &BOX_DISCS[BOX_DISCS.len() - 1];
    let (entries, open_octants) = small_box::look_up(ctx, &octant_tiles().0, views, VIEW_BITS, disc);
    with_radius_cols(ctx.radius_squared, |radius_cols| {
        let first_open = SMALL_COLUMNS as i32 + 1;
        let open = (open_octants != 0)
            .then(|| light_open_rows(ctx, radius_cols, open_octants, first_open, RowExtent::WithinRadius));
        for (k, t) in TRANSFORMS.into_iter().enumerate() {
            let lines = octant_lines(ctx, t);
            let entry = entries[k];
            let sectors = (entry >> VIEW_BITS.count_ones() & 7) as u32;
            let open = open.filter(|_| open_octants & octant_bit(&lines) != 0);
            if sectors == 0 && open.is_none() {
                continue;
            }
            let mut octant = Octant { ctx, radius_cols, t, lines, range_limit, last_column, handoff: None };
            let words = octant.column_words();
            if let Some(open) = open {
                // Its first columns are open, so its whole sector goes on from its first closed one.
                let first = i64::from(open.first_closed(&lines));
                if first > last_column {
                    continue;
                }
                octant.scan(words.as_ref(), first, Edges::whole(first));
                continue;
            }
            for sector in 0..sectors {
                let slopes = entry >> (SECTORS_AT + 10 * sector);
                let (top, bottom) = ((slopes & 31) as usize, (slopes >> 5 & 31) as usize);
                let edges = Edges {
                    top: SLOPES[top],
                    bottom: SLOPES[bottom],
                    top_q: SLOPE_TILES[top],
                    bottom_q: SLOPE_TILES[bottom],
                };
                octant.scan(words.as_ref(), SMALL_COLUMNS + 1, edges);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fov::Algorithm;
    use crate::core::fov::reference::{assert_same_views, random_grid, view_of};
    use crate::core::fov::small_box::Portable;
    use crate::core::rng::Rng;

    // Milazzo's column loop tile by tile (the implementation before runs): the definition the
    // run-based loop must reproduce.
    struct Reference<'c, 'a, O: Opacity> {
        ctx: &'c mut FovContext<'a, O>,
        t: (i32, i32, i32, i32),
        /// The last column (`x = r`); `None` when unlimited.
        range_limit: Option<i64>,
        last_column: i64,
    }

    impl<O: Opacity> Reference<'_, '_, O> {
        #[inline]
        fn offset(&self, x: i64, y: i64) -> (i32, i32) {
            let (x, y) = (x as i32, y as i32);
            let (a, b, c, d) = self.t;
            (x * a + y * b, x * c + y * d)
        }

        #[inline]
        fn blocks_light(&self, x: i64, y: i64) -> bool {
            let (dx, dy) = self.offset(x, y);
            self.ctx.is_opaque(self.ctx.ox + dx, self.ctx.oy + dy)
        }

        fn compute(&mut self, mut x: i64, mut top: Slope, mut bottom: Slope) {
            while x <= self.last_column {
                let top_y = if top.x == 1 {
                    x
                } else {
                    let mut top_y = ((2 * x - 1) * top.y + top.x) / (2 * top.x);
                    if self.blocks_light(x, top_y) {
                        if top.greater_or_equal(2 * top_y + 1, 2 * x) && !self.blocks_light(x, top_y + 1) {
                            top_y += 1;
                        }
                    } else {
                        let mut ax = 2 * x;
                        if self.blocks_light(x + 1, top_y + 1) {
                            ax += 1;
                        }
                        if top.greater(2 * top_y + 1, ax) {
                            top_y += 1;
                        }
                    }
                    top_y
                };
                let bottom_y = if bottom.y == 0 {
                    0
                } else {
                    let mut bottom_y = ((2 * x - 1) * bottom.y + bottom.x) / (2 * bottom.x);
                    if bottom.greater_or_equal(2 * bottom_y + 1, 2 * x)
                        && self.blocks_light(x, bottom_y)
                        && !self.blocks_light(x, bottom_y + 1)
                    {
                        bottom_y += 1;
                    }
                    bottom_y
                };
                // -1: no tile yet, 0: clear, 1: opaque.
                let mut was_opaque = -1;
                let mut y = top_y;
                while y >= bottom_y {
                    let (dx, dy) = self.offset(x, y);
                    if self.ctx.in_radius(dx, dy) {
                        let is_opaque = self.blocks_light(x, y);
                        let is_visible = is_opaque
                            || ((y != top_y || top.greater(4 * y - 1, 4 * x + 1))
                                && (y != bottom_y || bottom.less(4 * y + 1, 4 * x - 1)));
                        if is_visible {
                            self.ctx.reveal(self.ctx.ox + dx, self.ctx.oy + dy);
                        }
                        if Some(x) != self.range_limit {
                            if is_opaque {
                                if was_opaque == 0 {
                                    // Clear to opaque: the wall's top centre (beveled) or top-left corner.
                                    let (mut nx, ny) = (2 * x, 2 * y + 1);
                                    if self.blocks_light(x, y + 1) {
                                        nx -= 1;
                                    }
                                    if top.greater(ny, nx) {
                                        if y == bottom_y {
                                            bottom = Slope { y: ny, x: nx };
                                            break;
                                        }
                                        self.compute(x + 1, top, Slope { y: ny, x: nx });
                                    } else if y == bottom_y {
                                        return;
                                    }
                                }
                                was_opaque = 1;
                            } else {
                                if was_opaque > 0 {
                                    // Opaque to clear: the wall above's bottom centre or bottom-right corner.
                                    let (mut nx, ny) = (2 * x, 2 * y + 1);
                                    if self.blocks_light(x + 1, y + 1) {
                                        nx += 1;
                                    }
                                    if bottom.greater_or_equal(ny, nx) {
                                        return;
                                    }
                                    top = Slope { y: ny, x: nx };
                                }
                                was_opaque = 0;
                            }
                        }
                    }
                    y -= 1;
                }
                if was_opaque != 0 {
                    break;
                }
                x += 1;
            }
        }
    }

    fn reference<O: Opacity>(ctx: &mut FovContext<'_, O>) {
        let range_limit = (ctx.radius_squared != i64::MAX).then_some(i64::from(ctx.reach));
        // Past the map every tile blocks light, so one column beyond the reach ends every octant.
        let last_column = i64::from(ctx.reach) + i64::from(range_limit.is_none());
        for t in TRANSFORMS {
            let mut octant = Reference { ctx, t, range_limit, last_column };
            octant.compute(1, Slope { y: 1, x: 1 }, Slope { y: 0, x: 1 });
        }
    }

    /// The faster version gives the earlier one's view.
    #[test]
    fn runs_give_the_tile_by_tile_view() {
        assert_same_views(Algorithm::Milazzo, 31, [0.0, 0.05, 0.2, 0.45], |grid, params| {
            view_of(grid, params, reference)
        });
    }

    /// Every pattern of the tiles an octant's first three columns read, in each of the eight
    /// octants in turn, with the rest of a 13 × 13 map random: the looked-up view, and the scan
    /// from the sectors it leaves, give the tile-by-tile scan's view, at every radius up to 8
    /// and unlimited, walls lit or not. Then every pattern of the tiles a view of radius 4
    /// reads, looked up whole, the same way. Then small maps with any origin, where views near
    /// the edges are scanned.
    #[test]
    fn small_views_are_the_scans_views() {
        let mut rng = Rng::new(43);
        for pattern in 0..1u32 << PATTERN_BITS {
            for (k, t) in TRANSFORMS.into_iter().enumerate() {
                let mut grid = random_grid(&mut rng, 13, 13, 0.3);
                for x in 1..=SMALL_COLUMNS as i32 + 1 {
                    for y in (0..=x).filter(|&y| x <= SMALL_COLUMNS as i32 || (1..x).contains(&y)) {
                        let wall = pattern >> (COLUMN_OFFSET[x as usize] + y as u32) & 1 != 0;
                        grid.set(6 + x * t.0 + y * t.1, 6 + x * t.2 + y * t.3, wall);
                    }
                }
                let radius = [Some((pattern + k as u32) % 9), None][(pattern as usize + k) % 4 / 3];
                let params = FovParams { origin: Cell::new(6, 6), radius, light_walls: pattern % 3 != 0 };
                assert_eq!(
                    view_of_algorithm(&grid, params),
                    view_of(&grid, params, reference),
                    "pattern {pattern:#b}, octant {k}: {params:?}"
                );
            }
        }
        // Every pattern of the tiles a scan of radius 4 reads, looked up whole.
        for pattern in 0..1u32 << RADIUS_4_BITS {
            for (k, t) in TRANSFORMS.into_iter().enumerate() {
                let mut grid = random_grid(&mut rng, 13, 13, 0.3);
                for x in 1..=4 {
                    for y in 0..=x.min(3) {
                        let wall = pattern >> (RADIUS_4_OFFSET[x as usize] + y as u32) & 1 != 0;
                        grid.set(6 + x * t.0 + y * t.1, 6 + x * t.2 + y * t.3, wall);
                    }
                }
                let params = FovParams { origin: Cell::new(6, 6), radius: Some(4), light_walls: pattern % 3 != 0 };
                assert_eq!(
                    view_of_algorithm(&grid, params),
                    view_of(&grid, params, reference),
                    "pattern {pattern:#b}, octant {k}: {params:?}"
                );
            }
        }
        for round in 0..2000 {
            let (w, h) = (1 + rng.below(14), 1 + rng.below(14));
            let grid = random_grid(&mut rng, w, h, 0.3);
            let origin = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let params = FovParams { origin, radius: Some(rng.below(7)), light_walls: round % 3 != 0 };
            assert_eq!(
                view_of_algorithm(&grid, params),
                view_of(&grid, params, reference),
                "round {round}: {params:?}"
            );
        }
    }

    /// The looked-up first columns, and the views of radius 4, without BMI2 (gathers a bit at
    /// a time) light the same tiles and give the same entries as with BMI2 (where the
    /// processor has it), and the radius-4 views are the scan's: random boxes, walls lit or not.
    #[test]
    fn looked_up_views_are_the_same_without_bmi2() {
        let mut rng = Rng::new(67);
        let views = small_views();
        for round in 0..4000 {
            let grid = random_grid(&mut rng, 11, 11, [0.1, 0.3, 0.5, 0.7][round % 4]);
            let radius = [Some(5 + round as u32 % 4), None][round % 5 / 4];
            let params = FovParams { origin: Cell::new(5, 5), radius, light_walls: round % 3 != 0 };
            let disc = &BOX_DISCS[BOX_DISCS.len() - 1];
            let small = &octant_tiles().0;
            let mut entries = [None, None];
            let portable = view_of(&grid, params, |ctx| {
                entries[0] = Some(small_box::look_up_with::<Portable, _, _>(ctx, small, views, VIEW_BITS, disc));
            });
            let here = view_of(&grid, params, |ctx| {
                entries[1] = Some(small_box::look_up(ctx, small, views, VIEW_BITS, disc));
            });
            assert_eq!((portable, entries[0]), (here, entries[1]), "round {round}: {params:?}");
            let params = FovParams { radius: Some(4), ..params };
            let portable = view_of(&grid, params, |ctx| {
                let radius_4 = &octant_tiles().1;
                small_box::look_up_with::<Portable, _, _>(
                    ctx,
                    radius_4,
                    radius_4_views(),
                    (1 << RADIUS_4_BITS) - 1,
                    &BOX_DISCS[16],
                );
            });
            assert_eq!(portable, view_of(&grid, params, reference), "round {round}: {params:?}");
        }
    }

    /// Long views on sparse maps, whose sectors go on past column `WORD_COLUMNS`, where the
    /// scan by words hands over to the scan by tiles, give the tile-by-tile scan's view.
    #[test]
    fn long_views_give_the_scans_view_past_the_word_columns() {
        let mut rng = Rng::new(47);
        let mut past = 0;
        for round in 0..120 {
            let grid = random_grid(&mut rng, 150, 150, [0.01, 0.03, 0.08][round % 3]);
            let origin = Cell::new(rng.below(150) as i32, rng.below(150) as i32);
            let params = FovParams { origin, radius: [None, Some(90)][round % 2], light_walls: round % 4 != 0 };
            let view = view_of_algorithm(&grid, params);
            past += view.iter().filter(|&&(x, y)| (x - origin.x).abs().max((y - origin.y).abs()) > 70).count();
            assert_eq!(view, view_of(&grid, params, reference), "round {round}: {params:?}");
        }
        assert!(past > 1000, "only {past} tiles seen past column 70");
    }

    fn view_of_algorithm(grid: &OpacityGrid, params: FovParams) -> Vec<(i32, i32)> {
        let mut visible = VisibleSet::new(grid.width() as u32, grid.height() as u32);
        crate::core::fov::compute(Algorithm::Milazzo, grid, params, &mut visible);
        visible.iter().map(|c| (c.x, c.y)).collect()
    }

    /// On maps with a few walls far apart, octants open for tens of rows end at a lone wall
    /// (or the map's edge): the open rows found and lit at once (`open_rows.rs`) give the
    /// scan's view.
    #[test]
    fn open_rows_up_to_a_lone_wall_give_the_scans_view() {
        assert_same_views(Algorithm::Milazzo, 41, [0.0005, 0.001, 0.002, 0.004], |grid, params| {
            view_of(grid, params, reference)
        });
    }
}
